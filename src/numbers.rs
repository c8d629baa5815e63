//! Numbers as people read them, for every table, chart and check report:
//! thousands separators, signs, the placeholder of a missing value, the
//! decimals a precision supports, one count of decimals per row, and the
//! unit ladders values are scaled by. It knows no metric:
//! [`crate::compare::metric`] binds each metric to a ladder and says what
//! its precision means. Machine outputs (CSV, JSON) do not come here; they
//! keep raw numbers.

/// What a missing or non-finite value prints as.
pub const MISSING: &str = "–";

/// Significant digits a row's largest value shows when its values are
/// measured floats (nothing says to what step they are known): fio's
/// `123826.456789` is noise past the fourth digit for comparisons.
pub const SIGNIFICANT: i32 = 4;

/// More decimals than this are never printed: 1 B/s in GiB/s is ~1e-9.
pub const MAX_DECIMALS: usize = 9;

/// Smallest magnitude (other than zero) a figure may have and still be a
/// measurement: nothing nvcmp reads is finer than a billionth of its base
/// unit (ns, bytes, I/Os, percent). A denormal such as `1e-320` is far
/// below it: on a log axis it would ask for hundreds of decades.
pub const MIN_MAGNITUDE: f64 = 1e-9;

/// Largest magnitude a figure may have and still be a measurement: 1e18
/// is an exabyte a second, a billion billion IOPS, 31 years in ns.
pub const MAX_MAGNITUDE: f64 = 1e18;

/// Whether `v` can be a measured figure: finite, and zero or between
/// [`MIN_MAGNITUDE`] and [`MAX_MAGNITUDE`] in size. Anything else is no
/// value to compare, draw or size anything from: charts, axes and
/// verdicts take only such numbers (the comparison excludes the others,
/// named, as invalid).
pub fn is_plausible(v: f64) -> bool {
    v == 0.0 || (v.is_finite() && (MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&v.abs()))
}

/// `1 file`, `3 files`, `25,000 files`: a count and its noun, with an
/// `s` unless one, thousands separated as [`fixed`] separates them.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", whole(n as u64))
    }
}

/// A count with `,` between thousands: `25,000`.
pub fn whole(n: u64) -> String {
    fixed(n as f64, 0)
}

/// `v` with `decimals` decimals and `,` between thousands: `1,234,567.89`.
/// A value that rounds to zero prints without a sign; NaN and infinities
/// print as [`MISSING`].
pub fn fixed(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return MISSING.into();
    }
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let mut out = String::with_capacity(s.len() + int.len() / 3 + 1);
    if v < 0.0 && s.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// [`fixed`] with a `+` before positive values, for changes: `+5.0`,
/// `-17.3`, `0.0`.
pub fn signed(v: f64, decimals: usize) -> String {
    let s = fixed(v, decimals);
    if v > 0.0 && s.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        format!("+{s}")
    } else {
        s
    }
}

/// [`fixed`] with trailing zeros of the fraction dropped (`97.050` ->
/// `97.05`): for a lone value in a sentence or on an axis, where no row
/// asks for even columns.
pub fn trimmed(v: f64, max_decimals: usize) -> String {
    fixed(v, decimals_of(v, max_decimals))
}

/// A lone figure of any size in a sentence: [`trimmed`] to 2 decimals
/// below 10^12, past it in scientific notation (`1e308`, `2.5e15`), so an
/// absurd value named in a note cannot fill the line.
pub fn short(v: f64) -> String {
    if !(v.is_finite() && v.abs() >= 1e12) {
        return trimmed(v, 2);
    }
    let s = format!("{v:.3e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    format!("{mantissa}e{exp}")
}

/// The decimals that resolve `step` and no finer: a value known to 1,000
/// prints none, to 0.01 two, to 1 MiB/s in GiB/s (0.00098) three. An
/// unknown step (0, NaN) allows [`MAX_DECIMALS`].
pub fn decimals_for_step(step: f64) -> usize {
    if !(step.is_finite() && step > 0.0) {
        return MAX_DECIMALS;
    }
    // The slack keeps 0.01 at 2 although log10 gives 1.999...
    let d = (-step.log10() + 1e-9).floor();
    d.clamp(0.0, MAX_DECIMALS as f64) as usize
}

/// The decimals `v` needs at most `max`: `97.0499` at 3 needs 2
/// (`97.050`), `10.058` needs 3, `97.0` none.
pub fn decimals_of(v: f64, max: usize) -> usize {
    if !v.is_finite() {
        return 0;
    }
    let s = format!("{:.*}", max, v.abs());
    s.split_once('.')
        .map_or(0, |(_, frac)| frac.trim_end_matches('0').len())
}

/// Decimals that give the largest of a row [`SIGNIFICANT`] digits:
/// `123.8`, `2.511`, `0.1040`; none from 1,000 up.
pub fn significant_decimals(largest: f64) -> usize {
    if !(largest.is_finite() && largest > 0.0) {
        return 0;
    }
    let d = SIGNIFICANT - 1 - largest.log10().floor() as i32;
    d.clamp(0, MAX_DECIMALS as i32) as usize
}

/// One value of a row, in display units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    pub value: f64,
    /// The step the value is known to, display units; 0 when unknown.
    pub step: f64,
    /// The value was given rounded to `step` (fio's text output, a
    /// manifest, CPU figures): all its digits count. Otherwise it is a
    /// measured float carried as fio computed it, whose trailing digits
    /// are arithmetic, not information.
    pub stated: bool,
}

/// The one count of decimals a row of values prints with: enough for the
/// value that needs the most, none past what its own step supports. A
/// value needs the digits it has once rounded to its step (`6.1` needs 1,
/// `10.058` needs 3); a measured float that fills every digit its step
/// allows needs only [`significant_decimals`] of the row's largest value.
/// Non-finite values are ignored (they print as [`MISSING`]).
pub fn row_decimals(row: &[Reading]) -> usize {
    let finite = || row.iter().filter(|r| r.value.is_finite());
    let largest = finite().map(|r| r.value.abs()).fold(0.0, f64::max);
    let significant = significant_decimals(largest);
    let digits = |r: &Reading| {
        let cap = decimals_for_step(r.step);
        let has = decimals_of(r.value, cap);
        (has, is_printed_figure(r.value, has, cap))
    };
    // Figures someone printed come as a row (an article's table); one
    // float among many that happens to end in 0 (fio's 515310.42 ns mean
    // is 0.51531 ms) is arithmetic, not a printed figure.
    let measured: Vec<bool> = finite()
        .filter(|r| !r.stated)
        .map(|r| digits(r).1)
        .collect();
    let printed_row = 2 * measured.iter().filter(|p| **p).count() >= measured.len();
    finite()
        .map(|r| {
            let (has, printed) = digits(r);
            if r.stated || (printed && printed_row) {
                has
            } else {
                has.min(significant)
            }
        })
        .max()
        .unwrap_or(0)
}

/// A float that stops, after a few significant digits, short of the
/// digits its step allows was rounded by whoever printed it (a figure
/// taken from an article, say): its digits are information, like a stated
/// precision's. Many digits that happen to stop (1064 MiB/s is 1.0390625
/// GiB/s) are arithmetic.
fn is_printed_figure(v: f64, decimals: usize, cap: usize) -> bool {
    let whole_digits = if v.abs() >= 1.0 {
        v.abs().log10().floor() as i32 + 1
    } else {
        // Leading zeros of the fraction are not significant.
        -(-v.abs().log10()).floor() as i32
    };
    // Five significant digits at most: an article's 10.058 GiB/s, not
    // fio's 4,014,080 ns p99 (4.01408 ms), whose zero is a bucket's.
    decimals < cap && whole_digits + decimals as i32 <= SIGNIFICANT + 1
}

/// Significant digits the smallest non-zero value of a row keeps at
/// least: one digit would print 0.004 as "0.004" but 0.0042 and 0.0049
/// alike; two tell them apart and never read as 0.
pub const MIN_SIGNIFICANT: i32 = 2;

/// A value more than this many times its row's median is not of the
/// row's kind (a mismeasured latency, a stalled run): it is shown in its
/// own unit and flagged instead of setting the row's unit or decimals.
pub const FAR_FROM_MEDIAN: f64 = 1000.0;

/// The median of the finite values, None when there are none.
pub fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Whether `v` is more than [`FAR_FROM_MEDIAN`] times `median` (both in
/// the same units; a zero or unknown median flags nothing).
pub fn is_far(v: f64, median: f64) -> bool {
    median.is_finite() && median > 0.0 && v.abs() > FAR_FROM_MEDIAN * median
}

/// Decimals that show `v` with [`MIN_SIGNIFICANT`] digits: 0.0042 needs 4,
/// 12.5 none. Zero and non-finite values need none.
pub fn min_significant_decimals(v: f64) -> usize {
    if !(v.is_finite() && v != 0.0) {
        return 0;
    }
    let d = MIN_SIGNIFICANT - 1 - v.abs().log10().floor() as i32;
    d.clamp(0, MAX_DECIMALS as i32) as usize
}

/// [`row_decimals`], raised where the row's smallest non-zero value would
/// otherwise print with fewer than [`MIN_SIGNIFICANT`] digits (or as 0):
/// a row of 2.510 and 17,113 prints 2.5 and 17,113.0, never 3 and 17,113.
/// The raise stops at the decimals the value's own step resolves, except
/// that a non-zero value always gets one digit.
pub fn readable_decimals(row: &[Reading]) -> usize {
    let floor = row
        .iter()
        .filter(|r| r.value.is_finite() && r.value != 0.0)
        .map(|r| {
            // A value needs no decimal it does not have (2.0 stays 2).
            let has = decimals_of(r.value, decimals_for_step(r.step));
            let want = min_significant_decimals(r.value).min(has);
            let one_digit = min_significant_decimals(r.value).saturating_sub(1);
            want.max(one_digit)
        })
        .max()
        .unwrap_or(0);
    row_decimals(row).max(floor)
}

/// A percent change as people read it: `+17.3 %`, `-4.0 %`, and beyond
/// [`RATIO_FROM_PCT`] as the ratio it is (`x1,563,666`, `x12.3`): past
/// +1000 % the percentage's digits say nothing a ratio does not, and a
/// reader takes "+156,366,496.5 %" for a typo. The one way every table
/// prints a change (analyze's deltas, check's and history's changes);
/// `decimals` from [`change_decimals`] over the changes shown together.
pub fn change(pct: f64, decimals: usize) -> String {
    if pct.is_finite() && pct > RATIO_FROM_PCT {
        return ratio(1.0 + pct / 100.0);
    }
    format!("{} %", signed(pct, decimals))
}

/// A change shown on its own (a check finding, a change point): its
/// decimals by [`change_decimals`] of itself, `+2.3 %`, `-0.40 %`.
pub fn lone_change(pct: f64) -> String {
    change(pct, change_decimals(&[pct]))
}

/// `x12.3` below 100, `x1,563,666` from there: three significant digits
/// at least, no decimal a reader would not use.
pub fn ratio(r: f64) -> String {
    let decimals = if r < 100.0 { 1 } else { 0 };
    format!("x{}", fixed(r, decimals))
}

/// Changes above this percentage print as a ratio ([`change`]).
pub const RATIO_FROM_PCT: f64 = 1000.0;

/// Decimals for a row of percent changes: one, or two when a change
/// under 1 % would otherwise read as 0 or lose its only digit.
pub fn change_decimals(changes: &[f64]) -> usize {
    let small = changes
        .iter()
        .any(|c| c.is_finite() && *c != 0.0 && c.abs() < 1.0);
    if small { 2 } else { 1 }
}

/// A step for a sentence: "the nearest 1,000" when the step is a round
/// number of display units, "a step of about 49.8" for a derived one.
pub fn step_text(step: f64) -> String {
    let exact = (0..=3).find(|d| {
        let x = step * 10f64.powi(*d);
        (x - x.round()).abs() < 1e-6 * x.abs().max(1.0)
    });
    match exact {
        Some(d) => format!("the nearest {}", fixed(step, d as usize)),
        // Three significant digits: the step itself is only an estimate.
        None => format!(
            "a step of about {}",
            fixed(step, significant_decimals(step).saturating_sub(1))
        ),
    }
}

/// A display unit: its name and how many base units make one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// Empty for plain counts.
    pub name: &'static str,
    pub div: f64,
}

const KIB: f64 = 1024.0;
const MIB: f64 = KIB * 1024.0;
const GIB: f64 = MIB * 1024.0;

/// Bytes per second in the largest binary unit that `max` reaches (at
/// least KiB/s): GiB/s from 1 GiB/s, MiB/s from 1 MiB/s.
pub fn binary_rate(max: f64) -> Unit {
    let (name, div) = if max >= GIB {
        ("GiB/s", GIB)
    } else if max >= MIB {
        ("MiB/s", MIB)
    } else {
        ("KiB/s", KIB)
    };
    Unit { name, div }
}

/// Nanoseconds as s from 1 s, ms from 1 ms, else µs: one to three
/// integer digits either way (`207 µs`, not `0.207 ms`; `17.11 s`, not
/// `17,113 ms`).
pub fn time_ns(max: f64) -> Unit {
    if max >= 1e9 {
        Unit {
            name: "s",
            div: 1e9,
        }
    } else if max >= 1_000_000.0 {
        Unit {
            name: "ms",
            div: 1e6,
        }
    } else {
        Unit {
            name: "µs",
            div: 1e3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(count(1, "file"), "1 file");
        assert_eq!(count(0, "file"), "0 files");
        assert_eq!(count(2, "missing workload"), "2 missing workloads");
        assert_eq!(count(25_000, "file"), "25,000 files");
        assert_eq!(whole(1_234_567), "1,234,567");
        assert_eq!(whole(0), "0");
    }

    fn stated(value: f64, step: f64) -> Reading {
        Reading {
            value,
            step,
            stated: true,
        }
    }

    fn measured(value: f64, step: f64) -> Reading {
        Reading {
            value,
            step,
            stated: false,
        }
    }

    /// The row as printed with its own decimals.
    fn print(row: &[Reading]) -> Vec<String> {
        let d = row_decimals(row);
        row.iter().map(|r| fixed(r.value, d)).collect()
    }

    #[test]
    fn numbers_are_grouped_and_signed() {
        assert_eq!(fixed(2_636_516.0, 0), "2,636,516");
        assert_eq!(fixed(999.0, 0), "999");
        assert_eq!(fixed(-1234.5, 1), "-1,234.5");
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(f64::NAN, 2), MISSING);
        assert_eq!(signed(-17.34, 1), "-17.3");
        assert_eq!(signed(5.0, 1), "+5.0");
        assert_eq!(signed(-0.01, 1), "0.0");
        assert_eq!(signed(0.004, 1), "0.0");
        assert_eq!(trimmed(97.0499, 3), "97.05");
        assert_eq!(trimmed(1500.0, 3), "1,500");
    }

    #[test]
    fn a_step_allows_the_decimals_it_resolves() {
        assert_eq!(decimals_for_step(1000.0), 0);
        assert_eq!(decimals_for_step(1.0), 0);
        assert_eq!(decimals_for_step(0.01), 2);
        assert_eq!(decimals_for_step(1.0 / 1024.0), 3);
        assert_eq!(decimals_for_step(0.05), 1);
        assert_eq!(decimals_for_step(0.0), MAX_DECIMALS);
        assert_eq!(decimals_for_step(f64::NAN), MAX_DECIMALS);
    }

    #[test]
    fn trimmed_values_are_padded_to_the_row() {
        let mib = 1.0 / 1024.0;
        let row = [
            measured(6.1, 1e-9),
            measured(10.058, 1e-9),
            stated(9.198, mib),
            stated(9.504, mib),
        ];
        assert_eq!(print(&row), ["6.100", "10.058", "9.198", "9.504"]);
        let row = [
            measured(86.791, 1e-9),
            measured(92.562, 1e-9),
            stated(97.05, mib),
            stated(97.0, mib),
        ];
        assert_eq!(print(&row), ["86.791", "92.562", "97.050", "97.000"]);
    }

    #[test]
    fn precision_caps_the_decimals() {
        // Known to 0.01: the third decimal would be invented.
        assert_eq!(
            print(&[stated(0.123456, 0.01), stated(0.5, 0.01)]),
            ["0.12", "0.50"]
        );
        // Known to 0.1 and 0.001: the finer one sets the row.
        assert_eq!(
            print(&[stated(0.5, 0.1), stated(0.558, 0.001)]),
            ["0.500", "0.558"]
        );
    }

    #[test]
    fn iops_known_to_the_thousand_stay_integers() {
        let row = [stated(2_411_000.0, 1000.0), stated(2_636_516.0, 1.0)];
        assert_eq!(print(&row), ["2,411,000", "2,636,516"]);
        assert_eq!(print(&[stated(12.4, 1.0)]), ["12"]);
    }

    #[test]
    fn measured_floats_get_four_significant_digits() {
        // fio JSON latencies in µs, known to 1 ns.
        let row = [measured(123.826456789, 0.001), measured(98.000123, 0.001)];
        assert_eq!(print(&row), ["123.8", "98.0"]);
        let row = [measured(2.510345678, 0.001), measured(2.781234, 0.001)];
        assert_eq!(print(&row), ["2.510", "2.781"]);
        // Never past the finest step, however small the values.
        assert_eq!(print(&[measured(0.000123456, 0.001)]), ["0"]);
        // A measured float that stops short was rounded: keep its digits.
        assert_eq!(
            print(&[measured(0.104, 1e-6), measured(0.8123456, 1e-6)]),
            ["0.1040", "0.8123"]
        );
    }

    #[test]
    fn one_float_that_ends_in_zero_is_not_a_printed_figure() {
        // fio means in ms: 0.515310 loses its zero and would claim five
        // decimals for the whole column.
        let row = [
            measured(0.212762077, 1e-6),
            measured(0.51531, 1e-6),
            measured(0.345956982, 1e-6),
        ];
        assert_eq!(print(&row), ["0.2128", "0.5153", "0.3460"]);
    }

    #[test]
    fn negative_changes_and_zero() {
        let row = [
            measured(-17.345678912345, 1e-9),
            measured(5.0, 1e-9),
            stated(0.0, 0.1),
        ];
        assert_eq!(print(&row), ["-17.35", "5.00", "0.00"]);
        assert_eq!(print(&[stated(0.0, 0.01), stated(0.0, 0.01)]), ["0", "0"]);
        assert_eq!(
            print(&[stated(0.0, 0.01), stated(1.25, 0.01)]),
            ["0.00", "1.25"]
        );
        assert_eq!(change_decimals(&[-17.3, 5.0]), 1);
        assert_eq!(change_decimals(&[-17.3, -0.4]), 2);
        assert_eq!(change_decimals(&[0.0, f64::NAN]), 1);
    }

    #[test]
    fn nan_prints_as_the_placeholder_and_sets_nothing() {
        let row = [stated(f64::NAN, 0.001), stated(1.5, 0.1)];
        assert_eq!(row_decimals(&row), 1);
        assert_eq!(print(&row), [MISSING, "1.5"]);
        assert_eq!(row_decimals(&[]), 0);
    }

    #[test]
    fn changes_past_a_thousand_percent_are_ratios() {
        assert_eq!(change(17.34, 1), "+17.3 %");
        assert_eq!(lone_change(-0.4), "-0.40 %");
        assert_eq!(lone_change(2.34), "+2.3 %");
        assert_eq!(change(-99.5, 1), "-99.5 %");
        assert_eq!(change(1000.0, 1), "+1,000.0 %");
        assert_eq!(change(1130.0, 1), "x12.3");
        assert_eq!(change(156_366_496.5, 1), "x1,563,666");
        assert_eq!(change(f64::NAN, 1), format!("{MISSING} %"));
    }

    #[test]
    fn medians_and_far_values() {
        assert_eq!(median([3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median([4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median([f64::NAN]), None);
        assert!(is_far(17_113.0, 2.0));
        assert!(!is_far(1_999.0, 2.0));
        assert!(!is_far(5.0, 0.0));
    }

    #[test]
    fn denormal_infinite_and_absurd_figures_are_not_plausible() {
        for v in [0.0, 1e-9, 1.5, 248_272.0, -17.3, 1e18] {
            assert!(is_plausible(v), "{v}");
        }
        for v in [
            1e-320,
            f64::MIN_POSITIVE,
            1e-10,
            1e308,
            f64::INFINITY,
            f64::NAN,
            -1e19,
        ] {
            assert!(!is_plausible(v), "{v}");
        }
    }

    #[test]
    fn no_non_zero_value_reads_as_zero() {
        // 2.51 beside 17,113: the large one's 4 digits would leave the
        // small one a single digit; two are kept.
        assert_eq!(
            readable_print(&[measured(2.51234, 1e-6), measured(17_113.4, 1e-6)]),
            ["2.5", "17,113.4"]
        );
        // A tiny value in a row of large ones still shows its digits.
        assert_eq!(
            readable_print(&[measured(0.001234567, 1e-9), measured(3.5, 1e-9)]),
            ["0.0012", "3.5000"]
        );
        // A stated step caps the raise at one digit: never past what it
        // resolves, never 0.
        assert_eq!(
            readable_print(&[stated(0.3, 0.1), stated(120.0, 0.1)]),
            ["0.3", "120.0"]
        );
        assert_eq!(min_significant_decimals(0.0042), 4);
        assert_eq!(min_significant_decimals(12.5), 0);
        assert_eq!(min_significant_decimals(0.0), 0);
    }

    fn readable_print(row: &[Reading]) -> Vec<String> {
        let d = readable_decimals(row);
        row.iter().map(|r| fixed(r.value, d)).collect()
    }

    #[test]
    fn steps_read_in_sentences() {
        assert_eq!(step_text(1000.0), "the nearest 1,000");
        assert_eq!(step_text(0.01), "the nearest 0.01");
        assert_eq!(step_text(49.82561), "a step of about 49.8");
        assert_eq!(step_text(0.0123456), "a step of about 0.0123");
    }

    #[test]
    fn units_follow_the_largest_value() {
        assert_eq!(binary_rate(10.0 * GIB).name, "GiB/s");
        assert_eq!(binary_rate(500.0 * MIB).name, "MiB/s");
        assert_eq!(binary_rate(10.0).name, "KiB/s");
        assert_eq!(time_ns(1_040_000.0).name, "ms");
        assert_eq!(time_ns(999_000.0).name, "µs");
        assert_eq!(time_ns(2_510.0).name, "µs");
        assert_eq!(time_ns(17_113e6).name, "s");
        assert_eq!(time_ns(999_999_999.0).name, "ms");
    }
}
