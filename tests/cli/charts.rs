//! `nvcmp charts` end to end.
