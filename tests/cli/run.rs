//! `nvcmp run` end to end.
