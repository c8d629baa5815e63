//! A system error said in words, with what fixes it: a full disk, a
//! folder nvcmp may not write, a read-only file system. (The parquet
//! writer would wrap the system's error in its own, "Invalid thrift:
//! transport error": a part is encoded in memory and then written by the
//! store, so the error said is the system's.)

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
    }
}
