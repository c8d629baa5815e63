//! The latency histogram of one load point from fio's json+ completion
//! latency bins, as fio-plot draws it: the share of I/Os in each latency
//! band (ten bands a decade, log axis), a stepped line per config. One
//! chart per workload shape: of a sweep, its lightest load point with
//! bins (the CDF charts carry the others).

use crate::charts::Plot;
use crate::charts::distribution;
use crate::charts::figure::Figure;
use crate::charts::frame::Frame;
use crate::charts::lines::{ConfigLine, LinePlot, Range, latency_log_ticks};
use crate::charts::palette;
use crate::charts::scale::latency;
use crate::compare::{Comparison, Workload};
use crate::numbers;

/// Bands a decade of latency: fio's bins (64 per doubling) are far finer
/// than a reader can see.
const BANDS_PER_DECADE: f64 = 10.0;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LatencyHistogram {
    /// Index into `cmp.workloads`.
    pub workload: usize,
}

/// (band's lower edge ns, percent of I/Os) for each band from the first
/// non-empty one to the last, empty bands in between at 0.
fn bands(bins: &[(u64, u64)]) -> Vec<(f64, f64)> {
    let band = |ns: u64| ((ns as f64).log10() * BANDS_PER_DECADE).floor() as i64;
    let kept: Vec<(i64, f64)> = bins
        .iter()
        .filter(|(ns, n)| *n > 0 && *ns > 0 && numbers::is_plausible(*ns as f64))
        .map(|(ns, n)| (band(*ns), *n as f64))
        .collect();
    let total: f64 = kept.iter().map(|b| b.1).sum();
    let (Some(lo), Some(hi)) = (
        kept.iter().map(|b| b.0).min(),
        kept.iter().map(|b| b.0).max(),
    ) else {
        return Vec::new();
    };
    // However hostile the bins, the bands a plausible latency spans are few.
    (lo..=hi.min(lo + 200))
        .map(|b| {
            let n: f64 = kept.iter().filter(|k| k.0 == b).map(|k| k.1).sum();
            (10f64.powf(b as f64 / BANDS_PER_DECADE), n * 100.0 / total)
        })
        .collect()
}

fn line(w: &Workload, config: &str) -> Option<Vec<(f64, f64)>> {
    Some(bands(w.clat_bins.get(config)?))
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<LatencyHistogram> {
    let mut shapes = Vec::new();
    let mut out = Vec::new();
    for workload in distribution::plan(cmp, line) {
        let shape = &cmp.workloads[workload].key.shape;
        if !shapes.contains(&shape) {
            shapes.push(shape);
            out.push(LatencyHistogram { workload });
        }
    }
    out
}

impl Plot for LatencyHistogram {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        crate::charts::names::workload_stem(cmp, "latency_histogram", self.workload)
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        crate::charts::footer::of_workload(cmp, self.workload)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let w = &cmp.workloads[self.workload];
        let lines = distribution::lines(cmp, w, line);
        let step = 10f64.powf(1.0 / BANDS_PER_DECADE);
        let xs = || lines.iter().flat_map(|(_, p)| p.iter().map(|x| x.0));
        let lo = xs().fold(f64::INFINITY, f64::min);
        let hi = xs().fold(0.0, f64::max) * step;
        let scale = latency(&cmp.units);
        let top = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.1))
            .fold(0.0, f64::max);
        let frame = Frame {
            subtitle: Some("Share of I/Os in each latency band; further left is better".into()),
            footnotes: std::iter::once(
                "From fio's json+ clat histogram, its bins summed into ten bands a decade."
                    .to_string(),
            )
            .chain(distribution::exclusion_notes(cmp, w))
            .collect(),
            ..distribution::frame(cmp, w, "completion latency histogram", &lines)
        };
        let (x_lo, x_hi) = (scale.to_display(lo) / 1.2, scale.to_display(hi) * 1.2);
        let steps = lines.iter().map(|(i, pts)| {
            let mut points = Vec::with_capacity(pts.len() * 2 + 2);
            for (ns, pct) in pts {
                points.push((scale.to_display(*ns), *pct));
                points.push((scale.to_display(*ns * step), *pct));
            }
            ConfigLine::solid(palette::color(*i), points, false)
        });
        let y_hi = (top * 1.1).max(1.0);
        let mut plot = LinePlot::new(
            Range::Log(x_lo, x_hi),
            Range::Linear(0.0, y_hi),
            steps.collect(),
        );
        plot.y_label_width = 5.0;
        plot.x_ticks = latency_log_ticks(x_lo, x_hi, scale);
        let (ticks, decimals) = crate::charts::axis::linear_ticks(0.0, y_hi, 6);
        plot.y_ticks = ticks
            .into_iter()
            .map(|t| (t, numbers::fixed(t, decimals)))
            .collect();
        plot.x_title = "Completion latency (log scale)".to_string();
        plot.y_title = "I/Os in the band (%)".into();
        Figure::lines(frame, plot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_sum_into_ten_bands_a_decade() {
        // 100, 110 and 120 ns share the band from 100 ns; 1,000 ns is ten
        // bands up, the nine between empty.
        let b = bands(&[(100, 1), (110, 1), (120, 2), (1_000, 4), (5, 0)]);
        assert_eq!(b.len(), 11);
        assert!((b[0].0 - 100.0).abs() < 1e-6);
        assert_eq!(b[0].1, 50.0);
        assert_eq!(b[10].1, 50.0);
        assert!(b[1..10].iter().all(|x| x.1 == 0.0));
        assert!(bands(&[]).is_empty());
    }
}
