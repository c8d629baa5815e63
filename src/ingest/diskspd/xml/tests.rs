//! The XML reader: the mapping of the profile and counts, `-D` intervals,
//! and what a damaged or unusual document does.

use super::*;

fn fixture(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/diskspd")
        .join(rel);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn sequential_reads_by_four_threads() {
    // PerfKitBenchmarker's: `<SequentialScan>`, no `<Random>`, 4 threads x 2.
    let parsed = XmlReader
        .read(&fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml"))
        .unwrap();
    let [r] = parsed.rows.as_slice() else {
        panic!("{:?}", parsed.rows)
    };
    assert_eq!(
        (r.rw.as_str(), r.bs_bytes, r.iodepth, r.numjobs),
        ("read", 65536, 2, 4)
    );
    assert_eq!(
        r.io_bytes,
        1484062720 + 1482620928 + 1477705728 + 1517420544
    );
    assert_eq!(r.iops, (22645 + 22623 + 22548 + 23154) as f64 / 30.02);
    assert_eq!(r.tool_version.as_deref(), Some("2.0.21a"));
    assert_eq!(r.direct, Some(true));
    // No -L: no latency at all, rather than zeros.
    assert_eq!((r.lat_mean_ns, r.lat_p99_ns), (None, None));
}

#[test]
fn random_access_is_a_caching_hint_not_the_pattern() {
    let text = fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml").replace(
        "<RandomAccess>false</RandomAccess>",
        "<RandomAccess>true</RandomAccess>",
    );
    assert_eq!(XmlReader.read(&text).unwrap().rows[0].rw, "read");
}

#[test]
fn latency_percentiles_and_iops_intervals() {
    let text = fixture("windows/v2.0.21a-randrw70-4k-o1-t1-L-D.xml");
    let parsed = XmlReader.read(&text).unwrap();
    let read = &parsed.rows[0];
    assert_eq!((read.rw.as_str(), read.rwmixread), ("randrw", Some(70)));
    assert_eq!(read.lat_mean_ns, Some(2.477e6));
    assert_eq!(read.lat_stddev_ns, Some(2.732e6));
    // DiskSpd's own standard deviation of its 120 one-second intervals.
    assert_eq!(read.iops_samples, Some(120));
    assert_eq!(read.iops_sample_stddev, Some(34.796));
    let p99 = text.split("<Percentile>99</Percentile>").nth(1).unwrap();
    let ms = super::super::tests::xml_num(p99, "ReadMilliseconds", 0).unwrap();
    assert_eq!(read.lat_p99_ns, Some(ms * 1e6));
}

#[test]
fn a_truncated_document_says_where() {
    let text = fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml");
    let cut = &text[..text.len() / 2];
    let err = XmlReader.read(cut).unwrap_err().to_string();
    assert!(
        err.contains("DiskSpd XML") && err.contains("truncated"),
        "{err}"
    );
    // Cut between elements: the open element is named.
    let cut = &text[..text.find("<Thread>").unwrap()];
    let err = XmlReader.read(cut).unwrap_err().to_string();
    assert!(err.contains("<TimeSpan> is never closed"), "{err}");
}

#[test]
fn documents_appended_to_one_file_are_each_read() {
    let one = fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml");
    let parsed = XmlReader.read(&format!("{one}\n{one}")).unwrap();
    assert_eq!(parsed.rows.len(), 2);
}

#[test]
fn escaped_paths_are_unescaped() {
    let text = fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml")
        .replace(r"C:\scratch\testfile.dat", r"C:\R&amp;D\t&#233;st.dat");
    let parsed = XmlReader.read(&text).unwrap();
    assert_eq!(parsed.rows[0].filename.as_deref(), Some(r"C:\R&D\tést.dat"));
    assert_eq!(
        parsed.rows[0].numjobs, 4,
        "threads matched to the target by its unescaped path"
    );
}

#[test]
fn a_thread_pool_works_on_every_target() {
    // `-F4` as 2.0.21a writes it: `<ThreadCount>` 4, `<ThreadsPerFile>` 1
    // (hand-made from the PerfKitBenchmarker file, which used `-t4`).
    let text = fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml")
        .replacen(
            "<ThreadCount>0</ThreadCount>",
            "<ThreadCount>4</ThreadCount>",
            1,
        )
        .replace(
            "<ThreadsPerFile>4</ThreadsPerFile>",
            "<ThreadsPerFile>1</ThreadsPerFile>",
        );
    assert_eq!(XmlReader.read(&text).unwrap().rows[0].numjobs, 4);
}
