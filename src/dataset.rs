//! The dataset: rows as a polars DataFrame with the columns of CONTRACT.md,
//! and its files (parquet, csv, json, ndjson), both ways.
