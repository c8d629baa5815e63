//! What one job does (rw, bs, depth, threads, time, size, mix) and the
//! stable hash that decides whether a result on disk is still the result
//! of this job. The built-in matrices are in `matrix.rs`.

use std::fmt;

/// fio's `rw` values the harness can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HarnessRw {
    Read,
    Write,
    RandRead,
    RandWrite,
    /// Sequential mixed (fio `rw`/`readwrite`).
    ReadWrite,
    RandRw,
}

impl HarnessRw {
    pub fn parse(s: &str) -> Option<HarnessRw> {
        Some(match s.trim() {
            "read" => HarnessRw::Read,
            "write" => HarnessRw::Write,
            "randread" => HarnessRw::RandRead,
            "randwrite" => HarnessRw::RandWrite,
            "rw" | "readwrite" => HarnessRw::ReadWrite,
            "randrw" => HarnessRw::RandRw,
            _ => return None,
        })
    }

    /// fio's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            HarnessRw::Read => "read",
            HarnessRw::Write => "write",
            HarnessRw::RandRead => "randread",
            HarnessRw::RandWrite => "randwrite",
            HarnessRw::ReadWrite => "rw",
            HarnessRw::RandRw => "randrw",
        }
    }

    pub fn is_random(self) -> bool {
        matches!(
            self,
            HarnessRw::RandRead | HarnessRw::RandWrite | HarnessRw::RandRw
        )
    }

    /// True when some of the job's I/O writes.
    pub fn writes(self) -> bool {
        !matches!(self, HarnessRw::Read | HarnessRw::RandRead)
    }

    /// Share of reads in percent (fio's `rwmixread` only matters for mixes).
    pub fn read_pct(self, rwmixread: u8) -> u8 {
        match self {
            HarnessRw::Read | HarnessRw::RandRead => 100,
            HarnessRw::Write | HarnessRw::RandWrite => 0,
            HarnessRw::ReadWrite | HarnessRw::RandRw => rwmixread,
        }
    }
}

impl fmt::Display for HarnessRw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One job, engine-independent. Times in seconds, sizes in bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct JobSpec {
    /// fio `name`; also the result file's stem.
    pub name: String,
    pub rw: HarnessRw,
    pub bs: u64,
    pub iodepth: u32,
    /// I/Os handed to the kernel per submit call (fio's
    /// `iodepth_batch_submit`, 1 by default).
    pub iodepth_batch: u32,
    /// Most completions taken per reap call (fio's
    /// `iodepth_batch_complete_max`, 1 by default).
    pub iodepth_batch_complete: u32,
    pub numjobs: u32,
    /// Measured time (after ramp), seconds.
    pub runtime_s: u64,
    /// Warm-up before measuring, seconds.
    pub ramp_s: u64,
    /// Region of the target the job covers, bytes.
    pub size: u64,
    /// Percent of reads in a mixed job.
    pub rwmixread: u8,
    /// O_DIRECT.
    pub direct: bool,
    /// Run for `runtime_s` (true) or stop after `size` bytes per thread.
    pub time_based: bool,
}

impl JobSpec {
    /// The default job name: `randread-4k-qd32-j1`.
    pub fn default_name(rw: HarnessRw, bs: u64, iodepth: u32, numjobs: u32) -> String {
        format!(
            "{rw}-{}-qd{iodepth}-j{numjobs}",
            crate::units::format_bs(bs)
        )
    }

    /// Checks what fio would refuse too, with the flag to fix it.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(why) = crate::path_text::plain_name_problem(&self.name) {
            return Err(format!(
                "job {:?} cannot name a result file: {why}",
                self.name
            ));
        }
        if self.bs == 0 || !self.bs.is_multiple_of(512) {
            return Err(format!(
                "job {}: --bs {} is not a multiple of 512 bytes",
                self.name, self.bs
            ));
        }
        if self.size < self.bs {
            return Err(format!(
                "job {}: --size {} is smaller than --bs {}",
                self.name, self.size, self.bs
            ));
        }
        if self.iodepth == 0 || self.iodepth > 65536 {
            return Err(format!("job {}: --iodepth must be 1..65536", self.name));
        }
        if self.iodepth_batch == 0 || self.iodepth_batch > self.iodepth {
            return Err(format!(
                "job {}: --iodepth-batch must be 1..--iodepth ({})",
                self.name, self.iodepth
            ));
        }
        if self.iodepth_batch_complete == 0 || self.iodepth_batch_complete > self.iodepth {
            return Err(format!(
                "job {}: --iodepth-batch-complete must be 1..--iodepth ({})",
                self.name, self.iodepth
            ));
        }
        if self.numjobs == 0 || self.numjobs > 1024 {
            return Err(format!("job {}: --numjobs must be 1..1024", self.name));
        }
        if self.rwmixread > 100 {
            return Err(format!("job {}: --rwmixread must be 0..100", self.name));
        }
        if self.time_based && self.runtime_s == 0 {
            return Err(format!(
                "job {}: a time-based job needs --runtime > 0",
                self.name
            ));
        }
        Ok(())
    }

    /// The canonical text the spec hash is computed from: every field that
    /// changes the measurement, in a fixed order.
    pub fn canonical(&self, engine: &str, engine_opts: &str, target: &str) -> String {
        format!(
            "v1;name={};rw={};bs={};iodepth={};iodepth_batch={};iodepth_batch_complete={};numjobs={};runtime={};ramp={};size={};rwmixread={};direct={};time_based={};engine={engine};opts={engine_opts};target={target}",
            self.name,
            self.rw,
            self.bs,
            self.iodepth,
            self.iodepth_batch,
            self.iodepth_batch_complete,
            self.numjobs,
            self.runtime_s,
            self.ramp_s,
            self.size,
            self.rwmixread,
            self.direct as u8,
            self.time_based as u8,
        )
    }
}

/// FNV-1a 64, hex: stable across Rust versions and platforms, unlike
/// `DefaultHasher`, so a result written today is still recognised later.
pub fn spec_hash(canonical: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in canonical.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A randread 4k QD32 job of 10 s on 1 GiB, for tests here and in
    /// `matrix`.
    pub(crate) fn job() -> JobSpec {
        JobSpec {
            name: "x".into(),
            rw: HarnessRw::RandRead,
            bs: 4096,
            iodepth: 32,
            iodepth_batch: 1,
            iodepth_batch_complete: 1,
            numjobs: 1,
            runtime_s: 10,
            ramp_s: 0,
            size: 1 << 30,
            rwmixread: 50,
            direct: true,
            time_based: true,
        }
    }

    #[test]
    fn hash_changes_with_the_spec() {
        let a = job();
        let mut b = job();
        b.iodepth = 16;
        let ha = spec_hash(&a.canonical("psync", "", "t"));
        assert_eq!(ha, spec_hash(&a.canonical("psync", "", "t")));
        assert_ne!(ha, spec_hash(&b.canonical("psync", "", "t")));
        assert_ne!(ha, spec_hash(&a.canonical("libaio", "", "t")));
        // FNV-1a of "" is the offset basis: the constant is right.
        assert_eq!(spec_hash(""), "cbf29ce484222325");
    }

    #[test]
    fn validation_names_the_flag() {
        let mut j = job();
        j.bs = 1000;
        assert!(j.validate().unwrap_err().contains("--bs"));
        let mut j = job();
        j.size = 1024;
        assert!(j.validate().unwrap_err().contains("--size"));
    }
}
