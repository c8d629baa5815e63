//! `nvcmp ingest` end to end.
