//! I/O engines, one file each, picked by a closed enum.
