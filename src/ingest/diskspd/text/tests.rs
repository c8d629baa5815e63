//! The text reader on layouts the fixtures show once or not at all.

use super::*;

fn fixture(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/diskspd")
        .join(rel);
    let bytes = std::fs::read(path).unwrap();
    crate::ingest::decode::decode(&bytes).unwrap().into_owned()
}

fn read(text: &str) -> Parsed {
    assert!(TextReader.sniff(text));
    TextReader.read(text).unwrap()
}

#[test]
fn the_version_family_comes_from_the_layout() {
    let family = |rel: &str| read(&fixture(rel)).rows[0].tool_version.clone().unwrap();
    assert_eq!(
        family("windows/v2.0.21-randrw70-4k-o1-t1.txt"),
        "2.0.18 to 2.1 (from the text layout)"
    );
    assert_eq!(
        family("windows/v2.1-randrw60-64k-o2-t8.txt"),
        "2.0.18 to 2.1 (from the text layout)"
    );
    assert_eq!(
        family("windows/v2.2.0-randwrite-4k-o16-t4.txt"),
        "2.2 or later (from the text layout)"
    );
    assert_eq!(
        family("linux-port/randread-4k-o32-t1.txt"),
        "Linux port (from the text layout)"
    );
    // 2.0.17 headed its tables `MB/s` (ResultParser.cpp at commit a30bb41):
    // that header on a 2.0.21 output, hand-made.
    let old = fixture("windows/v2.0.21-randrw70-4k-o1-t1.txt")
        .replace("|    MiB/s   |", "|     MB/s   |");
    assert_eq!(
        read(&old).rows[0].tool_version.as_deref(),
        Some("2.0.17 or earlier (from the text layout)")
    );
}

#[test]
fn windows_and_port_engines() {
    assert_eq!(
        read(&fixture("windows/v2.1-randrw60-64k-o2-t8.txt")).rows[0].engine,
        "iocp"
    );
    assert_eq!(
        read(&fixture("windows/v2.1-randrw60-64k-o2-t8.txt")).rows[0]
            .os
            .as_str(),
        "windows"
    );
    assert_eq!(
        read(&fixture("linux-port/posixaio-4k-o4-t1.txt")).rows[0].engine,
        "posixaio"
    );
    let port = read(&fixture("linux-port/randread-4k-o32-t1.txt"));
    assert_eq!(
        (port.rows[0].engine.as_str(), port.rows[0].os.as_str()),
        ("libaio", "linux")
    );
}

#[test]
fn appended_runs_are_each_read() {
    let parsed = read(&fixture("linux-port/appended-o1-o16.txt"));
    let depths: Vec<u32> = parsed.rows.iter().map(|r| r.iodepth).collect();
    assert_eq!(depths, [1, 16]);
}

#[test]
fn a_truncated_run_is_an_error_naming_the_table_and_others_still_read() {
    let text = fixture("windows/v2.2.0-randwrite-4k-o16-t4.txt");
    let cut = &text[..text.find("Write IO").unwrap()];
    let err = TextReader.read(cut).unwrap_err().to_string();
    assert!(
        err.contains("DiskSpd text") && err.contains("no \"Write IO\" table"),
        "{err}"
    );
    // The same cut run after a complete one: the first is read, the cut one warned.
    let both = format!("{text}\n{cut}");
    let parsed = read(&both);
    assert_eq!(parsed.rows.len(), 1);
    assert!(
        parsed.warnings.iter().any(|w| w.contains("Write IO")),
        "{:?}",
        parsed.warnings
    );
}

#[test]
fn thread_rows_that_do_not_add_up_are_named() {
    let parsed = read(&fixture("windows/v2.2.0-randwrite-4k-o3-t160-cut.txt"));
    assert_eq!(parsed.rows[0].iops, 2242082.85);
    assert_eq!(parsed.rows[0].numjobs, 160);
    assert!(
        parsed.warnings.iter().any(|w| w.contains("2017883745")),
        "{:?}",
        parsed.warnings
    );
}

#[test]
fn each_target_gets_its_own_percentiles_before_2_2() {
    let parsed = read(&fixture("windows/v2.0.21-randwrite-8k-5-targets-bom.txt"));
    assert_eq!(parsed.rows.len(), 5);
    let e = parsed
        .rows
        .iter()
        .find(|r| r.filename.as_deref() == Some(r"E:\diskspd-test.dat"))
        .unwrap();
    assert_eq!(e.lat_p99_ns, Some(24.265e6));
    assert_eq!(e.lat_max_ns, Some(2985.491e6));
    assert_eq!((e.iodepth, e.numjobs, e.bs_bytes), (22, 23, 8192));
}

#[test]
fn percentile_rows() {
    assert_eq!(percentile_of("min"), Some(0.0));
    assert_eq!(percentile_of("25th"), Some(25.0));
    assert!((percentile_of("3-nines").unwrap() - 99.9).abs() < 1e-9);
    assert!((percentile_of("5-nines").unwrap() - 99.999).abs() < 1e-9);
    assert_eq!(percentile_of("max"), Some(100.0));
    assert_eq!(percentile_of("total"), None);
}

#[test]
fn a_capture_without_parameters_reads_the_command_line() {
    let targets = command_line_targets(
        r"C:\dskspd\diskspd.exe -c64M -b4K -r4K -t4 -o4 -w100 -d5 -Suw -D -L C:\t.dat",
    );
    assert_eq!(targets.len(), 1);
    let t = &targets[0];
    assert_eq!(
        (
            t.path.as_str(),
            t.block_size,
            t.outstanding,
            t.threads_per_file,
            t.write_ratio
        ),
        (r"C:\t.dat", 4096, 4, Some(4), 100)
    );
    assert!(t.random && t.direct == Some(true));
    // DiskSpd's defaults: 64K blocks, 2 outstanding, sequential reads.
    let d = &command_line_targets("diskspd.exe x.dat")[0];
    assert_eq!(
        (d.block_size, d.outstanding, d.write_ratio, d.random),
        (65536, 2, 0, false)
    );
    assert_eq!(command_line_interval("diskspd -D x"), Some(1000));
    assert_eq!(command_line_interval("diskspd -D500 x"), Some(500));
}

#[test]
fn not_diskspd_text_is_not_sniffed() {
    assert!(!TextReader.sniff("read: IOPS=31.8k, BW=124MiB/s\n"));
    assert!(!TextReader.sniff(&fixture("windows/v2.0.21a-seqread-64k-o2-t4.xml")));
}
