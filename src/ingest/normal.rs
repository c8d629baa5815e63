//! fio's normal (human-readable) text output.
