//! A system error said in words, with what fixes it: a full disk, a
//! folder nvcmp may not write, a read-only file system. The parquet
//! writer wraps the system's error in its own ("Invalid thrift: transport
//! error"), so the history's writer keeps the error it met itself
//! ([`Witness`]) and says that one.

use std::io::{Error, ErrorKind};

/// The error in words: the cause first, the system's text after it.
pub(crate) fn cause(e: &Error) -> String {
    let why = match e.kind() {
        ErrorKind::StorageFull => {
            "no space left on the device (free some, or put the history elsewhere)"
        }
        ErrorKind::PermissionDenied => {
            "permission denied (the user running nvcmp may not write or read here)"
        }
        ErrorKind::ReadOnlyFilesystem => {
            "the file system is read-only (put the history on a writable one)"
        }
        ErrorKind::QuotaExceeded => "disk quota exceeded",
        _ => return e.to_string(),
    };
    format!("{why}: {e}")
}

/// The system error a writer met, kept beside the writer that wraps it.
#[derive(Debug, Default)]
pub(crate) struct Witness(Option<Error>);

impl Witness {
    /// Keeps a copy of `e` (the original goes on up to the wrapper).
    pub fn saw(&mut self, e: &Error) {
        if self.0.is_none() {
            self.0 = Some(match e.raw_os_error() {
                Some(code) => Error::from_raw_os_error(code),
                None => Error::new(e.kind(), e.to_string()),
            });
        }
    }

    pub fn take(&mut self) -> Option<Error> {
        self.0.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_disks_and_denied_folders_are_said_in_words() {
        let full = cause(&Error::from(ErrorKind::StorageFull));
        assert!(full.starts_with("no space left on the device"), "{full}");
        let denied = cause(&Error::from(ErrorKind::PermissionDenied));
        assert!(denied.starts_with("permission denied"), "{denied}");
        let ro = cause(&Error::from(ErrorKind::ReadOnlyFilesystem));
        assert!(ro.contains("read-only"), "{ro}");
        let mut w = Witness::default();
        #[cfg(unix)]
        {
            w.saw(&Error::from_raw_os_error(libc::ENOSPC));
            assert_eq!(w.take().unwrap().kind(), ErrorKind::StorageFull);
        }
        assert!(w.take().is_none());
    }
}
