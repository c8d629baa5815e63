//! fio's normal (human-readable) text output.
//!
//! Placeholder until the normal-output reader lands: it recognises nothing,
//! so text files are skipped as "not fio output".

use super::{Parsed, ReadError, Reader};

/// Reader of fio's normal text output.
#[derive(Debug, Clone, Copy, Default)]
pub struct NormalReader;

impl Reader for NormalReader {
    fn name(&self) -> &'static str {
        "normal"
    }

    fn sniff(&self, _text: &str) -> bool {
        false
    }

    fn read(&self, _text: &str) -> Result<Parsed, ReadError> {
        Err(ReadError::NotFio(
            "fio normal text output is not supported yet".into(),
        ))
    }
}
