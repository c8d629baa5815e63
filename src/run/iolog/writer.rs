//! The thread that prints one worker's log lines. The worker hands it
//! samples in batches and goes on with its I/O, as fio keeps samples in
//! memory and prints them away from the I/O path; a bounded queue caps the
//! memory, and slows the worker only when the disk cannot take the logs.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::{LogKind, LogWriteError};
use crate::run::engines::Dir;

/// Samples per batch.
const BATCH: usize = 4096;
/// Batches queued for the printer at most: with the one being filled and
/// the one being printed, (QUEUED + 2) * BATCH * 32 bytes = 768 KiB a
/// thread, however long the run.
const QUEUED: usize = 4;

/// One open log file.
pub(super) struct LogFile {
    pub(super) path: PathBuf,
    pub(super) out: BufWriter<File>,
}

impl LogFile {
    pub(super) fn create(path: PathBuf) -> Result<LogFile, LogWriteError> {
        let f = File::create(&path).map_err(LogWriteError::at(&path))?;
        Ok(LogFile {
            out: BufWriter::with_capacity(64 << 10, f),
            path,
        })
    }

    /// One line as fio's `flush_samples` prints it without `log_offset`
    /// and `log_prio`: the last field is 0 (not a real-time priority).
    pub(super) fn line(&mut self, t_ms: u64, value: u64, dir: Dir, bs: u64) -> io::Result<()> {
        writeln!(self.out, "{t_ms}, {value}, {}, {bs}, 0", dir as u8)
    }
}

/// One line of a bw/iops/lat log before it is printed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sample {
    pub kind: LogKind,
    pub dir: Dir,
    pub t_ms: u64,
    pub value: u64,
    pub bs: u64,
}

/// The worker's end: fills a batch, hands it over when full.
pub(super) struct Lines {
    batch: Vec<Sample>,
    /// None once the printer has stopped on an error.
    to_printer: Option<SyncSender<Vec<Sample>>>,
    /// Printed batches come back to be filled again.
    empty: Receiver<Vec<Sample>>,
    printer: Option<JoinHandle<Result<(), LogWriteError>>>,
    /// Named in the error if the printer dies.
    first: PathBuf,
}

impl Lines {
    /// Starts the printer of `files` (indexed by `LogKind`).
    pub fn start(files: Vec<LogFile>) -> Result<Lines, LogWriteError> {
        let first = files.first().map_or(PathBuf::new(), |f| f.path.clone());
        let (to_printer, batches) = sync_channel(QUEUED);
        let (give_back, empty) = sync_channel(QUEUED + 2);
        let printer = std::thread::Builder::new()
            .name("nvcmp-log".into())
            .spawn(move || print(files, batches, give_back))
            .map_err(LogWriteError::at(&first))?;
        Ok(Lines {
            batch: Vec::with_capacity(BATCH),
            to_printer: Some(to_printer),
            empty,
            printer: Some(printer),
            first,
        })
    }

    #[inline]
    pub fn push(&mut self, s: Sample) {
        self.batch.push(s);
        if self.batch.len() == BATCH {
            self.hand_over();
        }
    }

    fn hand_over(&mut self) {
        let next = self
            .empty
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(BATCH));
        let full = std::mem::replace(&mut self.batch, next);
        let sent = self.to_printer.as_ref().map(|tx| tx.send(full));
        if matches!(sent, Some(Err(_))) {
            // The printer stopped on an error, which `finish` reports.
            self.to_printer = None;
        }
    }

    /// Prints what is left and waits for the printer.
    pub fn finish(mut self) -> Result<(), LogWriteError> {
        self.hand_over();
        self.to_printer = None;
        match self.printer.take().map(JoinHandle::join) {
            Some(Ok(res)) => res,
            Some(Err(_)) => Err(LogWriteError {
                path: self.first.clone(),
                source: Arc::new(io::Error::other("the log printer thread panicked")),
            }),
            None => Ok(()),
        }
    }
}

impl Drop for Lines {
    /// A worker that failed: the printer ends with what it was given.
    fn drop(&mut self) {
        self.to_printer = None;
        if let Some(p) = self.printer.take() {
            let _ = p.join();
        }
    }
}

/// The printer: each batch's lines into their files, then the buffers
/// back to the worker.
fn print(
    mut files: Vec<LogFile>,
    batches: Receiver<Vec<Sample>>,
    give_back: SyncSender<Vec<Sample>>,
) -> Result<(), LogWriteError> {
    for mut batch in batches {
        for s in &batch {
            let f = &mut files[s.kind as usize];
            f.line(s.t_ms, s.value, s.dir, s.bs)
                .map_err(LogWriteError::at(&f.path))?;
        }
        batch.clear();
        let _ = give_back.try_send(batch);
    }
    for f in &mut files {
        f.out.flush().map_err(LogWriteError::at(&f.path))?;
    }
    Ok(())
}
