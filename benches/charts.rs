//! Time to render every chart of a published-like comparison, in total and
//! per chart. Run through `benches/charts.sh` (or `cargo bench --bench
//! charts`); arguments: `[COMPARISON.json ...] [png|svg] [WxH] [--keep DIR]`.
//!
//! Input defaults to `src/charts/testdata/published-comparison.json` (the
//! StorageReview table: 4 configs x 8 workloads) and, for the percentile
//! and distribution charts, `fio-jsonplus-comparison.json` (real fio json+
//! runs).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use nvcmp::charts::{ChartFormat, ChartOptions, render_all, render_each};
use nvcmp::compare::Comparison;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut inputs = Vec::new();
    let mut format = ChartFormat::Png;
    let mut keep = None;
    let mut size = (1600, 900);
    while let Some(a) = args.next() {
        match a.as_str() {
            "png" => format = ChartFormat::Png,
            "svg" => format = ChartFormat::Svg,
            "--keep" => keep = args.next().map(PathBuf::from),
            s if s
                .split_once('x')
                .is_some_and(|(w, h)| w.parse::<u32>().is_ok() && h.parse::<u32>().is_ok()) =>
            {
                let (w, h) = s.split_once('x').unwrap();
                size = (w.parse()?, h.parse()?);
            }
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    if inputs.is_empty() {
        let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/charts/testdata");
        inputs.push(data.join("published-comparison.json"));
        inputs.push(data.join("fio-jsonplus-comparison.json"));
    }
    let opts = ChartOptions {
        format,
        width: size.0,
        height: size.1,
    };
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    println!(
        "nvcmp charts bench: {profile} build, {}x{} {:?}",
        opts.width, opts.height, format
    );
    for input in inputs {
        let text = std::fs::read_to_string(&input)?;
        let cmp: Comparison = serde_json::from_str(&text)?;
        let tmp = tempfile::tempdir()?;
        let dir = keep.clone().unwrap_or_else(|| tmp.path().to_path_buf());
        println!(
            "\n{}: {} configs x {} workloads",
            input.display(),
            cmp.configs.len(),
            cmp.workloads.len()
        );
        let start = Instant::now();
        let each = render_each(&cmp, &dir, &opts)?;
        let sequential = start.elapsed();
        for (path, t) in &each {
            let size = std::fs::metadata(path)?.len();
            println!(
                "  {:>8.1} ms  {:>8} bytes  {}",
                ms(*t),
                size,
                path.file_name().unwrap().to_string_lossy()
            );
        }
        let start = Instant::now();
        let all = render_all(&cmp, &dir, &opts)?;
        let parallel = start.elapsed();
        println!(
            "  {} charts: {:.1} ms one after the other (mean {:.1} ms), {:.1} ms with render_all on {} threads",
            all.len(),
            ms(sequential),
            ms(sequential) / each.len().max(1) as f64,
            ms(parallel),
            rayon::current_num_threads()
        );
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
