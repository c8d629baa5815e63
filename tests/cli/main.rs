//! The one integration test binary: drives the real `nvcmp` CLI.
//! One module per command.

mod analyze;
mod browser;
mod charts;
mod check;
mod ci_docs;
mod common;
mod configs;
mod diskspd;
mod history;
mod hostile;
mod ingest;
mod instances;
mod md_table;
mod numbers;
mod platform;
mod run;
mod runlog;
mod series;
mod setup;
mod snia;
mod steady;
mod sweep;
mod testbed;
