//! The chart kinds: a file each, each implementing [`super::Plot`] (its
//! file stem, its figure, its footer) from its source. The comparison's
//! kinds are listed in plan order in `KINDS` (`charts/mod.rs`); `history`
//! and `timeseries` are planned by their own entry points there. What the
//! kinds share (frames, axes, legends, labels, the writer) stays in
//! `charts/` beside this folder: the kinds describe, the helpers draw.

pub(super) mod bars;
pub(super) mod blocksize;
pub(super) mod cdf;
pub(super) mod delta;
pub(super) mod efficiency;
pub(super) mod heatmap;
pub(super) mod histogram;
pub(super) mod history;
pub(super) mod percentiles;
pub(super) mod saturation;
pub(super) mod scaling;
pub(super) mod timeseries;
