//! nvcmp: compare fio storage benchmark results across machines, operating
//! systems and I/O engines.
//!
//! Data flows one way (see docs/STYLE.md):
//!
//! ```text
//! fio files -> ingest (readers -> normalize) -> dataset (polars)
//!           -> compare (rules, stats) -> render (tables, charts) | check (verdicts)
//! input: every command reads results, dataset files and logs through one loader
//! run (harness) -> fio-compatible files -> ingest
//! ```
//!
//! Only [`cli`] knows clap, stdout and exit codes. [`numbers`] is a leaf
//! every layer that prints numbers for people uses.

// The library is the binary's inside: its docs are for the people who
// work on it (`cargo doc --document-private-items`), so a public item's
// doc may point at a private one.
#![allow(rustdoc::private_intra_doc_links)]

pub mod charts;
pub mod check;
pub mod cli;
pub mod compare;
pub mod dataset;
pub mod export;
pub mod history;
pub mod ingest;
pub mod input;
pub mod model;
pub mod numbers;
pub mod palette;
pub mod path_text;
pub mod publish;
pub mod render;
pub mod run;
pub mod timeseries;
pub mod units;

pub use model::{Direction, Row, Skipped, Warning};
