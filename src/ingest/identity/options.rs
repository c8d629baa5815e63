//! A run's options as identity: which of fio's options can name a
//! configuration (`ioscheduler`, `ioengine`, `filename`) and which only
//! say what was measured or how it was recorded ([`is_bookkeeping`]).

/// Options that say what was measured or how it was recorded, not what
/// configuration ran: never config keys under the `auto` rule.
pub fn is_bookkeeping(key: &str) -> bool {
    const WORKLOAD_AND_LOAD: [&str; 17] = [
        "rw",
        "readwrite",
        "rwmixread",
        "rwmixwrite",
        "bs",
        "blocksize",
        "bsrange",
        "blocksize_range",
        "bssplit",
        "iodepth",
        "numjobs",
        "size",
        "filesize",
        "io_size",
        "io_limit",
        "number_ios",
        "nrfiles",
    ];
    const RECORDING: [&str; 29] = [
        "description",
        // Threads or processes: how fio runs the jobs (always threads on
        // Windows; required by SPDK's plugin, whose engine says it).
        "thread",
        "runtime",
        "ramp_time",
        "time_based",
        "loops",
        "startdelay",
        "stonewall",
        "wait_for",
        "new_group",
        "group_reporting",
        "randseed",
        "randrepeat",
        "allrandrepeat",
        "percentile_list",
        "lat_percentiles",
        "clat_percentiles",
        "slat_percentiles",
        "significant_figures",
        "unit_base",
        "kb_base",
        "exec_prerun",
        "exec_postrun",
        "steadystate",
        "steadystate_duration",
        "steadystate_ramp_time",
        "ss",
        "ss_dur",
        "ss_ramp",
    ];
    WORKLOAD_AND_LOAD.contains(&key)
        || RECORDING.contains(&key)
        || key.contains("log")
        || key.starts_with("output")
        || key.starts_with("status")
        || key.starts_with("eta")
        || key.starts_with("offset")
}
