//! `nvcmp check` end to end.
