use super::*;

const C: KbBase = KbBase::Compat1024;
const SI: KbBase = KbBase::Si1000;

/// fio's HOWTO, "Parameter types", **int**: "Examples with kb_base=1000"
/// and "Examples with kb_base=1024 (default)". Each example is checked as
/// written, except where fio's code reads it otherwise: then the value is
/// what fio 3.33 did here (a write job's `io_bytes / total_ios`, see
/// fixtures/make-grammar-fixtures.sh), and the HOWTO's is in the comment.
#[test]
fn sizes_read_as_the_howto_int_examples_and_fios_code_say() {
    #[rustfmt::skip]
    let cases: &[(KbBase, &str, u64)] = &[
        // kb_base=1000: "4 KiB: 4096, 4096b, 4096B, 4ki, 4kib, 4kiB, 4Ki, 4KiB"
        (SI, "4096", 4096), (SI, "4096b", 4096), (SI, "4096B", 4096),
        (SI, "4kib", 4096), (SI, "4kiB", 4096), (SI, "4KiB", 4096),
        // HOWTO: 4096. fio's `k` rule matches `ki` first: 4000 (fio 3.33: 4000).
        (SI, "4ki", 4000), (SI, "4Ki", 4000),
        // "1 MiB: 1048576, 1mi, 1024ki": `mi`/`ki` are SI in fio's code.
        (SI, "1048576", 1_048_576), (SI, "1mi", 1_000_000), (SI, "1024ki", 1_024_000),
        // "1 MB: 1000000, 1m, 1000k"
        (SI, "1000000", 1_000_000), (SI, "1m", 1_000_000), (SI, "1000k", 1_000_000),
        // "1 TiB: 1099511627776, 1ti, 1024gi, 1048576mi" (`ti`, `gi`, `mi`: SI in the code)
        (SI, "1099511627776", 1_099_511_627_776), (SI, "1ti", 1_000_000_000_000),
        (SI, "1024gi", 1_024_000_000_000), (SI, "1048576mi", 1_048_576_000_000),
        // "1 TB: 1000000000, 1t, 1000m, 1000000k" (the HOWTO's 10^9 is a typo for 10^12)
        (SI, "1t", 1_000_000_000_000), (SI, "1000m", 1_000_000_000),
        (SI, "1000000k", 1_000_000_000),
        // kb_base=1024: "4 KiB: 4096, 4096b, 4096B, 4k, 4kb, 4kB, 4K, 4KB"
        (C, "4096", 4096), (C, "4096b", 4096), (C, "4096B", 4096), (C, "4k", 4096),
        (C, "4kb", 4096), (C, "4kB", 4096), (C, "4K", 4096), (C, "4KB", 4096),
        // "1 MiB: 1048576, 1m, 1024k"
        (C, "1048576", 1_048_576), (C, "1m", 1_048_576), (C, "1024k", 1_048_576),
        // "1 MB: 1000000, 1mi, 1000ki": fio reads `mi`, `ki` as `m`, `k` (fio 3.33: 1mi = 1048576).
        (C, "1000000", 1_000_000), (C, "1mi", 1_048_576), (C, "1000ki", 1_024_000),
        // "1 TiB: 1099511627776, 1t, 1024g, 1048576m"
        (C, "1099511627776", 1_099_511_627_776), (C, "1t", 1_099_511_627_776),
        (C, "1024g", 1_099_511_627_776), (C, "1048576m", 1_099_511_627_776),
        // "1 TB: 1000000000, 1ti, 1000mi, 1000000ki": `ti`, `mi`, `ki` are binary in the code.
        (C, "1ti", 1_099_511_627_776), (C, "1000mi", 1_048_576_000),
        // The compatibility rule the issue met: `KiB` is a power of ten (fio 3.33: 4000).
        (C, "4KiB", 4000), (C, "64KiB", 64_000), (C, "1MiB", 1_000_000),
        (C, "128Ki", 131_072), (C, "1Mi", 1_048_576),
        // Hexadecimal ("*0x* specifies hexadecimal"); fio 3.33: bs=0x1000 is 4096.
        (C, "0x1000", 4096), (C, "0x10", 16),
        // A fraction is read up to its point, as strtoll does.
        (C, "1.5k", 1),
        (C, " 8k", 8192), (C, "2g", 2 << 30), (C, "1p", 1 << 50),
    ];
    for &(kb, text, want) in cases {
        assert_eq!(size(text, kb), Ok(want), "{text} under {kb:?}");
    }
}

#[test]
fn values_fio_would_not_read_are_errors_never_defaults() {
    for bad in [
        "",
        "abc",
        "k",
        "-1",
        "-4k",
        "(4*1024)",
        "99999999999999999999",
    ] {
        assert!(size(bad, C).is_err(), "{bad:?}");
    }
    assert!(size("50%", C).is_err());
    assert_eq!(quantity("50%", C), Ok(Quantity::Percent(50)));
    let e = int("abc", 1).unwrap_err();
    assert_eq!(e.to_string(), "`abc` is not a number fio reads");
}

#[test]
fn integers_take_the_size_grammar_and_the_first_of_several_values() {
    assert_eq!(int("0x10", 1), Ok(16));
    assert_eq!(int("0x4", 1), Ok(4));
    assert_eq!(int("32", 1), Ok(32));
    assert_eq!(int("1k", 1), Ok(1024));
    assert_eq!(int("8,16", 1), Ok(8));
    assert_eq!(int("8-16", 1), Ok(8));
    assert!(int("-1", 1).is_err());
    assert!(int("0", 1).is_err());
    assert_eq!(int("0", 0), Ok(0));
}

/// HOWTO `blocksize`: "bs=256k means 256k for reads, writes and trims;
/// bs=8k,32k means 8k for reads, 32k for writes and trims; bs=8k,32k,
/// means 8k for reads, 32k for writes, and default for trims; bs=,8k
/// means default for reads, 8k for writes and trims; bs=8k,,16k means 8k
/// for reads, default for writes, and 16k for trims". And fio 3.33 here:
/// `bs=4k-64k` is 4k reads, 64k writes (a `-` separates values too).
#[test]
fn per_direction_values_follow_the_howto_blocksize_examples() {
    let k = |n: u64| Some(n << 10);
    let bs = |s: &str| per_direction(s, |v| size(v, C)).unwrap();
    assert_eq!(bs("256k"), [k(256), k(256), k(256)]);
    assert_eq!(bs("8k,32k"), [k(8), k(32), k(32)]);
    assert_eq!(bs("8k,32k,"), [k(8), k(32), None]);
    assert_eq!(bs(",8k"), [None, k(8), k(8)]);
    assert_eq!(bs("8k,,16k"), [k(8), None, k(16)]);
    assert_eq!(bs("4k-64k"), [k(4), k(64), k(64)]);
    assert_eq!(bs("4k:64k"), [k(4), k(64), k(64)]);
    assert!(per_direction("abc", |v| size(v, C)).is_err());
}

/// HOWTO `bsrange`: "bsrange=1k-4k,2k-8k"; "irange": "1024-4096", "1k:4k",
/// low and high swapped when given the other way round.
#[test]
fn ranges_follow_the_howto_irange_examples() {
    assert_eq!(range("1024-4096", C), Ok((1024, 4096)));
    assert_eq!(range("1k:4k", C), Ok((1024, 4096)));
    assert_eq!(range("4k-1k", C), Ok((1024, 4096)));
    let r = ranges("1k-4k,2k-8k", C).unwrap();
    assert_eq!(
        r,
        [Some((1024, 4096)), Some((2048, 8192)), Some((2048, 8192))]
    );
    assert!(range("4k", C).is_err());
}

/// HOWTO `bssplit`: "bssplit=4k/10:64k/50:32k/40"; "bssplit=2k/50:4k/50,
/// 4k/90:8k/10" (read, then write and trim); an entry with no percent
/// shares what is left ("bssplit=4k/50:1k/:32k/" gives 1k and 32k 25 %).
#[test]
fn bssplit_follows_the_howto_examples() {
    let s = bssplit("4k/10:64k/50:32k/40", C).unwrap();
    let want = vec![(4096, 10), (65536, 50), (32768, 40)];
    assert_eq!(s, [Some(want.clone()), Some(want.clone()), Some(want)]);
    let s = bssplit("2k/50:4k/50,4k/90:8k/10", C).unwrap();
    assert_eq!(s[0], Some(vec![(2048, 50), (4096, 50)]));
    assert_eq!(s[1], Some(vec![(4096, 90), (8192, 10)]));
    assert_eq!(s[2], s[1]);
    let s = bssplit("4k/50:1k/:32k/", C).unwrap();
    assert_eq!(s[0], Some(vec![(4096, 50), (1024, 25), (32768, 25)]));
    assert_eq!(split_mean(&[(4096, 50), (65536, 50)]), Some(34816.0));
    assert!(bssplit("4k/60:8k:16k,", C).is_ok());
    assert!(bssplit("4k/90:8k/90:16k:32k", C).is_err());
}

/// HOWTO "Parameter types", **time**: "Accepts a suffix of 'd' for days,
/// 'h' for hours, 'm' for minutes, 's' for seconds, 'ms' (or 'msec') for
/// milliseconds and 'us' (or 'usec') for microseconds. For example, use
/// 10m for 10 minutes." Without a unit, `runtime` is seconds.
#[test]
fn times_follow_the_howto_time_examples() {
    assert_eq!(time_us("10m", true), Ok(600_000_000));
    assert_eq!(time_us("30", true), Ok(30_000_000));
    assert_eq!(time_us("30s", true), Ok(30_000_000));
    assert_eq!(time_us("2h", true), Ok(7_200_000_000));
    assert_eq!(time_us("1d", true), Ok(86_400_000_000));
    assert_eq!(time_us("500ms", true), Ok(500_000));
    assert_eq!(time_us("500msec", true), Ok(500_000));
    assert_eq!(time_us("250us", true), Ok(250));
    assert_eq!(time_us("250usec", true), Ok(250));
    assert_eq!(time_us("100", false), Ok(100));
    // The HOWTO's "sec" is not in fio's code: `runtime=1sec` ran 1 us in
    // fio 3.33 here (0.4 s wall against 1.4 s for `runtime=1s`).
    assert_eq!(time_us("1sec", true), Ok(1));
    assert!(time_us("soon", true).is_err());
    assert!(time_us("-5", true).is_err());
}

#[test]
fn booleans_rw_mixes_and_percentile_lists() {
    assert_eq!(boolean("1"), Ok(true));
    assert_eq!(boolean("0"), Ok(false));
    assert_eq!(boolean(""), Ok(true));
    assert_eq!(boolean("0x0"), Ok(false));
    assert!(boolean("true").is_err());
    assert_eq!(rw("randread:8"), ("randread", Some("8")));
    assert_eq!(rw("randrw"), ("randrw", None));
    assert_eq!(rwmix(Some("70"), None), Ok(Some(70)));
    assert_eq!(rwmix(None, Some("30")), Ok(Some(70)));
    assert_eq!(rwmix(Some("70"), Some("50")), Ok(Some(70)));
    assert!(rwmix(Some("170"), None).is_err());
    assert_eq!(percentile_list("50:95"), Ok(vec![50.0, 95.0]));
    assert_eq!(percentile_list("99.999"), Ok(vec![99.999]));
    assert_eq!(percentile_list("1:5:10"), Ok(vec![1.0, 5.0, 10.0]));
    assert!(percentile_list("50:x").is_err());
    assert_eq!(KbBase::of(Some("1000")), Ok(KbBase::Si1000));
    assert!(KbBase::of(Some("1010")).is_err());
}
