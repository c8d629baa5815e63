//! nvcmp: compare fio storage benchmark results across machines, operating
//! systems and I/O engines.
//!
//! <!-- layers -->
//! ```text
//! Layers, top (1) to bottom: a module imports only modules of lower
//! layers or of its own; `benches/imports.py` enforces it. Data flows
//! up: fio files -> ingest -> dataset -> compare -> render, charts;
//! run writes fio-compatible files that ingest reads back.
//!
//!  1  cli          clap, validated options, exit codes: parses and calls
//!  2  publish      every file written: --out DIR, the CI reports of the gates
//!  3  charts       PNG/SVG charts (plotters)
//!     export       CI dashboards' files (Bencher BMF, github-action-benchmark)
//!  4  render       every report: terminal, Markdown, HTML, CSV, JSON, CI reports
//!  5  history      runs over time: the parquet store, change points, the gate
//!  6  check        regression verdicts
//!     run          the harness: engines, measurement, fio-compatible output
//!  7  input        what every command reads, once: results, dataset files, logs
//!  8  steady_state fio's logs joined to their runs, judged by SNIA's rule
//!  9  compare      workloads, load points, winners, ties, sweeps, findings
//!     ingest       fio's and DiskSpd's formats read into rows
//! 10  timeseries   fio's logs as series: buckets, folds, files
//! 11  dataset      rows <-> polars frames and files
//! 12  model        the domain: a row, directions, fio's rw, the OS
//!     numbers      numbers for people
//!     units        fio's value grammar: sizes, times, lists
//!     palette      one colour per config
//!     path_text    paths as the system writes them
//!     quick_hash   a fast hash for nvcmp's own maps of texts and keys
//!     atomic_file  files written whole: a new random temporary, renamed
//! ```
//! <!-- /layers -->
//!
//! Only [`cli`] knows clap, stdout and exit codes. [`numbers`] is a leaf
//! every layer that prints numbers for people uses.

// The library is the binary's inside: its docs are for the people who
// work on it (`cargo doc --document-private-items`), so a public item's
// doc may point at a private one.
#![allow(rustdoc::private_intra_doc_links)]

pub mod atomic_file;
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
pub mod quick_hash;
pub mod render;
pub mod run;
pub mod steady_state;
pub mod timeseries;
pub mod units;

pub use model::{Direction, Row, Skipped, Warning};
