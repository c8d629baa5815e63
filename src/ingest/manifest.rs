//! `nvcmp.toml` in a results root: display names, order, baseline, os and
//! engine overrides, per-config facts such as published rounding, and
//! whole-system CPU.

/// Settings from a manifest (empty when there is none).
#[derive(Debug, Clone, Default)]
pub struct Manifest {}
