//! `history show` written out: on stdout in the format render/ names
//! ([`show`]; history.html with its charts drawn as SVG into the page),
//! and `--out DIR` ([`write_out`]): history.md, history.json,
//! history.html and charts/history_*.png.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::charts::{self, ChartFormat, ChartOptions};
use crate::history::show::HistoryReport;
use crate::render::history::{self as render, ShowFormat};

/// Writes `report` in `format` to `w`.
pub fn show(report: &HistoryReport, format: ShowFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    match format {
        ShowFormat::Html => page(report, w),
        other => render::show(report, other, w),
    }
}

/// history.html: the charts drawn as SVG into the page.
fn page(report: &HistoryReport, w: &mut dyn Write) -> anyhow::Result<()> {
    let svg = ChartOptions {
        format: ChartFormat::Svg,
        ..Default::default()
    };
    let charts = charts::svg_history(report, &svg)?;
    render::show_html(report, &charts, charts::svg_font_css(), w)
}

/// Writes history.md, history.json, history.html and the charts under
/// `out` (made when missing); returns how many charts.
pub fn write_out(report: &HistoryReport, out: &Path) -> anyhow::Result<usize> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("--out: cannot create {}", out.display()))?;
    for (name, format) in [
        ("history.md", ShowFormat::Md),
        ("history.json", ShowFormat::Json),
        ("history.html", ShowFormat::Html),
    ] {
        let mut buf = Vec::new();
        show(report, format, &mut buf)?;
        let path = out.join(name);
        crate::atomic_file::write(&path, &buf)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let charts = charts::render_history(report, out, &ChartOptions::default())?;
    Ok(charts.len())
}
