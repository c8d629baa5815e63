//! `nvcmp analyze` end to end.
