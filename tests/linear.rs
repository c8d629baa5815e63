//! The comparison's cost grows with the configs, not with their square
//! (issue #55): the allocations one `compare` makes (calls and bytes,
//! counted on its thread) for N and 4N distinct configs. A deterministic count, not a
//! timing: gathering every other config's values per config (the
//! quadratic comparison of 128,904 job names, issue #55) allocates N²
//! values and fails this, as does any per-config copy of a per-config
//! list. Its own test binary because of that allocator (as
//! `tests/bounded.rs`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use nvcmp::compare::{CompareOptions, compare};
use nvcmp::model::{Direction, Row};

/// The system allocator, counting the allocations of a thread that asks.
struct AllocationCounter;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
    /// Bytes allocated and not yet freed since counting began, and the
    /// most they came to.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn counting() -> bool {
    // `try_with`: a thread being torn down has no counters left.
    COUNTING.try_with(Cell::get).unwrap_or(false)
}

fn count(size: usize) {
    if counting() {
        let _ = CALLS.try_with(|c| c.set(c.get() + 1));
        let _ = BYTES.try_with(|b| b.set(b.get() + size as u64));
    }
}

/// `change` bytes more (or fewer) held, while counting.
fn hold(change: i64) {
    if counting() {
        let _ = LIVE.try_with(|l| {
            l.set(l.get() + change);
            let _ = PEAK.try_with(|p| p.set(p.get().max(l.get())));
        });
    }
}

// SAFETY: every call goes to the system allocator unchanged; counting
// touches only this thread's cells and allocates nothing.
unsafe impl GlobalAlloc for AllocationCounter {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        hold(layout.size() as i64);
        // SAFETY: the caller's layout, as GlobalAlloc requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        hold(-(layout.size() as i64));
        // SAFETY: `ptr` was allocated by System with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        hold(layout.size() as i64);
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        hold(new_size as i64 - layout.size() as i64);
        // SAFETY: `ptr` was allocated by System with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTED: AllocationCounter = AllocationCounter;

/// Allocation calls and bytes `work` makes on this thread.
fn allocations<T>(work: impl FnOnce() -> T) -> (u64, u64, T) {
    let (calls, bytes, _, out) = counted(work);
    (calls, bytes, out)
}

/// Allocation calls and bytes `work` makes on this thread, and the bytes
/// it still holds when it returns (what it returns, mostly).
fn counted<T>(work: impl FnOnce() -> T) -> (u64, u64, i64, T) {
    CALLS.with(|c| c.set(0));
    BYTES.with(|b| b.set(0));
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    COUNTING.with(|c| c.set(true));
    let out = work();
    COUNTING.with(|c| c.set(false));
    let held = LIVE.with(Cell::get);
    (CALLS.with(Cell::get), BYTES.with(Cell::get), held, out)
}

/// The most bytes `work` held at once on this thread (beyond what it
/// was given), and its result.
fn peak_held<T>(work: impl FnOnce() -> T) -> (i64, T) {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    COUNTING.with(|c| c.set(true));
    let out = work();
    COUNTING.with(|c| c.set(false));
    (PEAK.with(Cell::get), out)
}

/// A word of four letters per number (`aaaa`, `baaa`): names that differ
/// in a word, as benches/many-names.py makes them.
fn word(mut i: usize) -> String {
    (0..4)
        .map(|_| {
            let c = (b'a' + (i % 26) as u8) as char;
            i /= 26;
            c
        })
        .collect()
}

/// `n` configs of one workload, `runs` result files each, every figure
/// its own (IOPS, bandwidth and latency scaled together).
fn rows(n: usize, runs: usize) -> Vec<Row> {
    let mut out = Vec::with_capacity(n * runs);
    for i in 0..n {
        for run in 0..runs {
            let name = word(i);
            let mut r = Row::empty(&format!("{name}/randread-r{run:02}.json"), Direction::Read);
            let scale = 1.0 + (i * 7919 % 1000) as f64 / 2000.0 + run as f64 * 0.001;
            r.config = format!("exp-{name}");
            r.engine = "libaio".into();
            r.fio_version = "fio-3.33".into();
            r.job = format!("exp-{name}");
            r.rw = "randread".into();
            r.bs_bytes = 4096;
            r.iodepth = 32;
            r.runtime_ms = 2000.0;
            r.iops = 40_000.0 * scale;
            r.bw_bytes_per_s = r.iops * 4096.0;
            r.io_bytes = (r.bw_bytes_per_s * 2.0) as u64;
            r.lat_mean_ns = Some(800_000.0 / scale);
            r.clat_mean_ns = Some(790_000.0 / scale);
            r.clat_p99_ns = Some(1_400_000.0);
            r.usr_cpu_pct = 5.0;
            r.sys_cpu_pct = 20.0;
            r.iops_samples = Some(4);
            r.iops_sample_mean = Some(r.iops);
            r.iops_sample_stddev = Some(r.iops * 0.01);
            out.push(r);
        }
    }
    out
}

/// Allocation calls and bytes of comparing `n` and `4n` configs, and
/// the configs compared at 4n.
fn at_n_and_4n(n: usize, runs: usize) -> [(u64, u64); 2] {
    let small = rows(n, runs);
    let large = rows(4 * n, runs);
    let opts = CompareOptions::default();
    let (c1, b1, cmp1) = allocations(|| compare(&small, &opts));
    let (c4, b4, cmp4) = allocations(|| compare(&large, &opts));
    assert_eq!((cmp1.configs.len(), cmp4.configs.len()), (n, 4 * n));
    [(c1, b1), (c4, b4)]
}

/// Linear, with room for maps grown by doubling and longer names: at
/// most 5x the allocations for 4x the configs (quadratic is 16x).
fn assert_linear([(c1, b1), (c4, b4)]: [(u64, u64); 2], what: &str) {
    let calls = c4 as f64 / c1 as f64;
    let bytes = b4 as f64 / b1 as f64;
    assert!(
        calls <= 5.0 && bytes <= 5.0,
        "{what}: 4x the configs made {calls:.2}x the allocations ({c1} -> {c4}) and \
         {bytes:.2}x the bytes ({b1} -> {b4}): more than linear"
    );
}

#[test]
fn comparing_4x_the_configs_allocates_at_most_5x() {
    assert_linear(at_n_and_4n(400, 1), "one run a config");
}

#[test]
fn comparing_4x_the_configs_of_pooled_repeats_allocates_at_most_5x() {
    // Every config pools three runs: each is held against the other
    // configs' values (the repeats' disagreement rule).
    assert_linear(at_n_and_4n(300, 3), "three runs a config");
}

/// `rows(n, 1)` and four more runs of the first config, each a variant
/// of its workload (`exp-read`, `exp-aged`... of one folder): four
/// workloads only that config ran.
fn with_variants(n: usize) -> Vec<Row> {
    let mut out = rows(n, 1);
    let first = out[0].clone();
    for v in ["aged", "cold", "rand", "read"] {
        let mut r = first.clone();
        r.source = format!("variants/exp-{v}.json");
        r.job = format!("exp-{v}");
        r.variant = Some(v.into());
        r.iops *= 1.1;
        r.bw_bytes_per_s = r.iops * 4096.0;
        out.push(r);
    }
    out
}

/// Bytes the comparison of `n` configs holds more with the four variant
/// workloads than without.
fn variant_bytes(n: usize) -> i64 {
    let opts = CompareOptions::default();
    let (plain, variants) = (rows(n, 1), with_variants(n));
    let (_, _, without, _kept) = counted(|| compare(&plain, &opts));
    let (_, _, with, cmp) = counted(|| compare(&variants, &opts));
    assert_eq!(cmp.configs.len(), n);
    assert_eq!(
        cmp.workloads.len(),
        5,
        "the plain workload and four variants"
    );
    with - without
}

/// A workload one config ran holds about as much among 1,600 configs as
/// among 400: its per-metric maps hold that config, not a null for every
/// other (issue #55: 128,900 configs and four variant workloads held 84
/// maps of 128,899 nulls, 60 % of the comparison's memory). With the
/// nulls: 21 maps of an entry and its copied name per other config and
/// workload, 1,456 bytes; without them 38 (each other config's check
/// line that it has no result there). Held bytes, not allocated ones:
/// what each config's notes look at per workload and let go is no cost
/// that stays.
#[test]
fn a_workload_one_config_ran_holds_little_per_other_config() {
    let (small, large) = (variant_bytes(400), variant_bytes(1_600));
    let per_config = (large - small) as f64 / 1_200.0 / 4.0;
    assert!(
        per_config <= 64.0,
        "four variant workloads of one config hold {small} bytes among 400 configs, {large} \
         among 1,600: {per_config:.0} bytes a workload for each other config"
    );
}

/// The runs of a comparison are made one workload at a time (issue #57):
/// a lab's archive of 100,000 files makes 150,000 runs of half a
/// kilobyte each, with their strings and percentiles, and holding all of
/// them at once was a fifth of `analyze`'s peak. Here 2 configs ran 300
/// files at each of 16 load points (numjobs 1-16): the comparison may
/// hold at most half of what all 9,600 runs take at once (it holds about
/// 1.8 MB: which rows make each run, 4.5 MB being the runs). Fails when
/// every workload's runs are made before the first is compared.
#[test]
fn a_comparison_holds_one_workloads_runs_at_a_time() {
    const LOADS: u32 = 16;
    let one = rows(2, 300);
    let all: Vec<Row> = (0..LOADS)
        .flat_map(|n| {
            // Load points by numjobs: the figures (32 I/Os in flight)
            // fit each, so no run gets a check of its own.
            one.iter().cloned().map(move |mut r| {
                r.numjobs = 1 + n;
                r
            })
        })
        .collect();
    let opts = CompareOptions::default();
    let (peak, cmp) = peak_held(|| compare(&all, &opts));
    assert_eq!(cmp.workloads.len(), LOADS as usize);
    let runs_at_once = (all.len() * std::mem::size_of::<nvcmp::compare::workload::Run>()) as i64;
    assert!(
        peak < runs_at_once / 2,
        "comparing {} runs over {LOADS} workloads held {peak} bytes at once: all the runs \
         take {runs_at_once}",
        all.len()
    );
}
