//! The one integration test binary: drives the real `nvcmp` CLI.
//! One module per command.

mod analyze;
mod archives;
mod browser;
mod charts;
mod check;
mod ci_docs;
mod common;
mod configs;
mod diskspd;
mod grammar;
mod history;
mod hostile;
mod hostile_escapes;
mod hostile_tree;
mod identity;
mod ingest;
mod instances;
mod many_jobs;
mod md_table;
mod numbers;
mod platform;
mod reports;
mod run;
mod runlog;
mod script_logs;
mod series;
mod setup;
mod shared_history;
mod snia;
mod steady;
mod sweep;
mod telling;
mod testbed;
