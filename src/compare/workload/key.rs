//! The one identity of a workload: what it does ([`Shape`]: rw, block
//! size, direction, read mix) at which load ([`LoadPoint`]: iodepth,
//! numjobs, hosts), together a [`WorkloadKey`]. Every serialized result
//! that names a workload holds these, flattened, rather than its own copy
//! of their fields.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::model::{Direction, Row};

/// What a workload does, whatever the load: rw + block size (+ rwmixread)
/// + direction. A sweep is one shape measured at several load points.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    pub rw: String,
    pub bs_bytes: u64,
    pub direction: Direction,
    /// Percent reads of a mixed job; left out of the JSON when None.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rwmixread: Option<u32>,
    /// A block size that varies from I/O to I/O (`4k-64k`, `4k/50:64k/50`):
    /// `bs_bytes` is then its mean. Left out of the JSON when None.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bs_spread: Option<String>,
    /// A variant of the workload told apart by its runs' names only
    /// (`overwrite-seq`); left out of the JSON when None.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

impl Shape {
    pub fn new(rw: &str, bs_bytes: u64, direction: Direction, rwmixread: Option<u32>) -> Shape {
        Shape {
            rw: rw.to_string(),
            bs_bytes,
            direction,
            rwmixread,
            bs_spread: None,
            variant: None,
        }
    }

    /// The shape of a row. A block size that varies I/O to I/O is named by
    /// its spread (`4k-64k`), and its `bs_bytes` is 0 here: each run's
    /// measured mean differs a little, and repeats are one workload.
    pub fn of(row: &Row) -> Shape {
        let shape = match &row.bs_spread {
            Some(spread) => Shape {
                bs_spread: Some(spread.clone()),
                ..Shape::new(&row.rw, 0, row.direction, row.rwmixread)
            },
            None => Shape::new(&row.rw, row.bs_bytes, row.direction, row.rwmixread),
        };
        Shape {
            variant: row.variant.clone(),
            ..shape
        }
    }

    /// The block size as people write it: `4k`, or a spread's own words
    /// (`4k-64k`).
    pub fn bs_text(&self) -> String {
        match &self.bs_spread {
            Some(s) => s.clone(),
            None => crate::units::format_bs(self.bs_bytes),
        }
    }

    /// Random before sequential, pure before mixed: the order articles use.
    fn rw_rank(&self) -> u8 {
        crate::model::Rw::parse(&self.rw).map_or(5, crate::model::Rw::article_rank)
    }

    /// `randread 4k`, with the direction for mixed jobs and a variant's
    /// word (`write 4k (overwrite-seq)`).
    pub fn title(&self) -> String {
        match &self.variant {
            Some(v) => format!("{} ({v})", self.base_title()),
            None => self.base_title(),
        }
    }

    fn base_title(&self) -> String {
        let bs = self.bs_text();
        match self.rwmixread {
            Some(mix) => format!("{} {bs} {} ({mix} % reads)", self.rw, self.direction),
            None if crate::model::is_mixed(&self.rw)
                || !self.rw.contains(self.direction.as_str()) =>
            {
                format!("{} {bs} {}", self.rw, self.direction)
            }
            None => format!("{} {bs}", self.rw),
        }
    }
}

impl Ord for Shape {
    fn cmp(&self, other: &Self) -> Ordering {
        (
            self.direction,
            self.rw_rank(),
            &self.rw,
            self.bs_bytes,
            self.rwmixread,
            &self.bs_spread,
            &self.variant,
        )
            .cmp(&(
                other.direction,
                other.rw_rank(),
                &other.rw,
                other.bs_bytes,
                other.rwmixread,
                &other.bs_spread,
                &other.variant,
            ))
    }
}

impl PartialOrd for Shape {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A workload: its shape at one load point. Orders by shape, then load.
/// The one identity of a workload: what the JSON of `analyze`, `check`
/// and `history` flattens into each entry (shape fields, then the load's).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct WorkloadKey {
    #[serde(flatten)]
    pub shape: Shape,
    #[serde(flatten)]
    pub load: LoadPoint,
}

/// The load a workload ran at: fio's requested `iodepth` and `numjobs`
/// (per host in client/server runs) and the number of hosts. Results at
/// different load points are never averaged. Orders by hosts, then
/// numjobs, then iodepth: the order a sweep table reads in. The JSON
/// spells it the way fio's options read (`iodepth`, `numjobs`, then
/// `hosts`, left out for a standalone run), so the fields are declared in
/// that order and the ordering is written out below.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct LoadPoint {
    /// Requested queue depth (fio's `iodepth`).
    #[serde(default = "one")]
    pub iodepth: u32,
    /// Requested jobs per host (fio's `numjobs`).
    #[serde(default = "one")]
    pub numjobs: u32,
    /// Hosts of a client/server run (1 for a standalone run).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub hosts: u32,
    /// Files or devices each job spread its I/O over (fio's `filename`
    /// list, `a:b:c`); 1, left out of the JSON, for one.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub devices: u32,
    /// fio instances (separate fio processes, one file each) that ran at
    /// the same time on the same targets, all workloads counted
    /// (`ingest::instances`); 1, left out of the JSON, for one.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub instances: u32,
    /// Of `instances`, those that ran another workload beside this one's
    /// (a latency probe beside throughput apps): labels only, so the apps
    /// read "x 16 apps + 1 probe" and the probe "(probe) + 16 apps", not
    /// 17 instances. No part of the identity (equality, hash, order) nor
    /// of the JSON: `instances` stays the group's size.
    #[serde(skip)]
    pub beside: u32,
    /// This workload is the probe of its group: the one of least load per
    /// instance among the workloads that ran beside others.
    #[serde(skip)]
    pub probe: bool,
}

/// The identity of a load point: every axis but `beside` and `probe`.
type LoadIdentity = (u32, u32, u32, u32, u32);

impl LoadPoint {
    fn identity(&self) -> LoadIdentity {
        (
            self.iodepth,
            self.numjobs,
            self.hosts,
            self.devices,
            self.instances,
        )
    }
}

impl PartialEq for LoadPoint {
    fn eq(&self, other: &Self) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for LoadPoint {}

impl std::hash::Hash for LoadPoint {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.identity().hash(state);
    }
}

impl Ord for LoadPoint {
    fn cmp(&self, other: &Self) -> Ordering {
        (
            self.hosts,
            self.instances,
            self.devices,
            self.numjobs,
            self.iodepth,
        )
            .cmp(&(
                other.hosts,
                other.instances,
                other.devices,
                other.numjobs,
                other.iodepth,
            ))
    }
}

impl PartialOrd for LoadPoint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Default for LoadPoint {
    fn default() -> Self {
        LoadPoint {
            hosts: 1,
            numjobs: 1,
            iodepth: 1,
            devices: 1,
            instances: 1,
            beside: 0,
            probe: false,
        }
    }
}

impl LoadPoint {
    /// A standalone run's load point (one host).
    pub fn of(iodepth: u32, numjobs: u32) -> LoadPoint {
        LoadPoint {
            hosts: 1,
            numjobs,
            iodepth,
            devices: 1,
            instances: 1,
            beside: 0,
            probe: false,
        }
    }

    /// I/Os in flight at most: iodepth x numjobs x hosts x instances (an
    /// instance beside others adds their load to its own).
    pub fn outstanding(&self) -> u64 {
        u64::from(self.iodepth.max(1))
            * u64::from(self.numjobs.max(1))
            * u64::from(self.hosts.max(1))
            * u64::from(self.instances.max(1))
    }

    /// The load along every axis at once, what a sweep orders its points
    /// by: I/Os in flight times devices (a job's depth is shared by the
    /// devices it spreads over, so a devices sweep at one depth still
    /// orders by devices).
    pub fn units(&self) -> u64 {
        self.outstanding() * u64::from(self.devices.max(1))
    }

    /// Several load points in few words: `QD1 x 1-4 jobs`, `QD1, 2, 4`,
    /// `QD4 x 1, 2, 8 jobs`, `QD1 x 2-5 instances`; the labels listed where
    /// more than one axis varies.
    pub fn condense(loads: &[LoadPoint]) -> String {
        let mut loads = loads.to_vec();
        loads.sort();
        loads.dedup();
        let [first, ..] = loads.as_slice() else {
            return String::new();
        };
        if loads.len() == 1 {
            return first.label();
        }
        // Which one axis varies, with the others held where `first` is.
        let only = |f: fn(&mut LoadPoint) -> &mut u32| {
            loads.iter().all(|l| {
                let (mut a, mut b) = (*l, *first);
                *f(&mut a) = 0;
                *f(&mut b) = 0;
                a == b
            })
        };
        let values = |f: fn(&LoadPoint) -> u32| -> Vec<u32> { loads.iter().map(f).collect() };
        let tail = |from: usize| -> String {
            let l = first.label();
            let parts: Vec<&str> = l.split(" x ").collect();
            parts[from.min(parts.len())..]
                .iter()
                .map(|p| format!(" x {p}"))
                .collect()
        };
        if only(|l| &mut l.numjobs) {
            let mut s = format!(
                "QD{} x {} jobs",
                first.iodepth,
                ranges(&values(|l| l.numjobs))
            );
            s.push_str(&tail(1 + usize::from(first.numjobs != 1)));
            s
        } else if only(|l| &mut l.iodepth) {
            let depths: Vec<String> = loads.iter().map(|l| format!("QD{}", l.iodepth)).collect();
            format!("{}{}", depths.join(", "), tail(1))
        } else if only(|l| &mut l.instances) {
            let base = LoadPoint {
                instances: 1,
                beside: 0,
                probe: false,
                ..*first
            };
            // Apps beside one probe count the apps, like for like.
            let apps_beside = |b: u32| loads.iter().all(|l| !l.probe && l.beside == b);
            if first.beside > 0 && apps_beside(first.beside) {
                let own = values(|l| l.instances.saturating_sub(l.beside));
                let probes = counted(first.beside, "probe");
                return format!("{} x {} apps + {probes}", base.label(), ranges(&own));
            }
            format!(
                "{} x {} instances",
                base.label(),
                ranges(&values(|l| l.instances))
            )
        } else if only(|l| &mut l.devices) {
            let base = LoadPoint {
                devices: 1,
                ..*first
            };
            format!(
                "{} x {} devices",
                base.label(),
                ranges(&values(|l| l.devices))
            )
        } else {
            let labels: Vec<String> = loads.iter().map(|l| l.label()).collect();
            labels.join(", ")
        }
    }

    /// `QD32`, `QD32 x 4 jobs`, `QD32 x 4 jobs x 2 hosts`.
    pub fn label(&self) -> String {
        let mut s = format!("QD{}", self.iodepth);
        if self.numjobs != 1 {
            s.push_str(&format!(" x {} jobs", self.numjobs));
        }
        if self.hosts > 1 {
            s.push_str(&format!(" x {} hosts", self.hosts));
        }
        if self.devices > 1 {
            s.push_str(&format!(" x {} devices", self.devices));
        }
        match (self.instances > 1, self.beside, self.probe) {
            (false, ..) => {}
            (true, 0, _) => s.push_str(&format!(" x {} instances", self.instances)),
            // Like-for-like counts: the probe beside its apps, the apps
            // beside their probe.
            (true, b, true) => s.push_str(&format!(" (probe) + {}", counted(b, "app"))),
            (true, b, false) => s.push_str(&format!(
                " x {} + {}",
                counted(self.instances.saturating_sub(b), "app"),
                counted(b, "probe")
            )),
        }
        s
    }
}

/// Sorted numbers with runs of three or more consecutive ones as ranges:
/// `1-4, 6`, `1, 2, 4, 8`.
fn ranges(v: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", v[i], v[j]));
        } else {
            parts.extend(v[i..=j].iter().map(|n| n.to_string()));
        }
        i = j + 1;
    }
    parts.join(", ")
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn one() -> u32 {
    1
}

/// A workload as the JSON of `history` and of the per-device view spell
/// it: its shape, `iodepth`, `numjobs`, then `devices` and `instances`
/// where not 1; no `hosts`, which those documents place themselves (use
/// with `#[serde(flatten, serialize_with = ...)]`).
pub fn without_hosts<S: serde::Serializer>(key: &WorkloadKey, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct NoHosts<'a> {
        #[serde(flatten)]
        shape: &'a Shape,
        iodepth: u32,
        numjobs: u32,
        #[serde(skip_serializing_if = "is_one")]
        devices: u32,
        #[serde(skip_serializing_if = "is_one")]
        instances: u32,
    }
    NoHosts {
        shape: &key.shape,
        iodepth: key.load.iodepth,
        numjobs: key.load.numjobs,
        devices: key.load.devices,
        instances: key.load.instances,
    }
    .serialize(s)
}

/// `n` things, named in the plural past one: "1 probe", "16 apps".
fn counted(n: u32, one: &str) -> String {
    match n {
        1 => format!("{n} {one}"),
        n => format!("{n} {one}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(hosts: u32, rwmixread: Option<u32>) -> WorkloadKey {
        WorkloadKey {
            shape: Shape::new("randrw", 4096, Direction::Read, rwmixread),
            load: LoadPoint {
                iodepth: 32,
                numjobs: 4,
                hosts,
                devices: 1,
                instances: 1,
                ..LoadPoint::default()
            },
        }
    }

    #[test]
    fn the_key_flattens_to_the_fields_in_contract_order() {
        let json = serde_json::to_string(&key(1, None)).unwrap();
        assert_eq!(
            json,
            r#"{"rw":"randrw","bs_bytes":4096,"direction":"read","iodepth":32,"numjobs":4}"#
        );
        let json = serde_json::to_string(&key(2, Some(70))).unwrap();
        assert_eq!(
            json,
            r#"{"rw":"randrw","bs_bytes":4096,"direction":"read","rwmixread":70,"iodepth":32,"numjobs":4,"hosts":2}"#
        );
    }

    #[test]
    fn a_key_reads_back_with_loads_left_out_as_one() {
        let back: WorkloadKey = serde_json::from_str(
            r#"{"rw":"randrw","bs_bytes":4096,"direction":"read","rwmixread":70}"#,
        )
        .unwrap();
        assert_eq!(back.shape, key(1, Some(70)).shape);
        assert_eq!(back.load, LoadPoint::default());
        let full = key(2, Some(70));
        let again: WorkloadKey =
            serde_json::from_str(&serde_json::to_string(&full).unwrap()).unwrap();
        assert_eq!(again, full);
    }

    #[test]
    fn history_spells_a_workload_without_hosts() {
        #[derive(Serialize)]
        struct HistoryEntry {
            #[serde(flatten, serialize_with = "without_hosts")]
            key: WorkloadKey,
        }
        let json = serde_json::to_string(&HistoryEntry { key: key(2, None) }).unwrap();
        assert_eq!(
            json,
            r#"{"rw":"randrw","bs_bytes":4096,"direction":"read","iodepth":32,"numjobs":4}"#
        );
    }

    #[test]
    fn load_points_order_by_hosts_then_jobs_then_depth() {
        let at = |hosts, numjobs, iodepth| LoadPoint {
            iodepth,
            numjobs,
            hosts,
            devices: 1,
            instances: 1,
            beside: 0,
            probe: false,
        };
        let mut loads = vec![at(2, 1, 1), at(1, 2, 1), at(1, 1, 64), at(1, 1, 2)];
        loads.sort();
        assert_eq!(
            loads,
            vec![at(1, 1, 2), at(1, 1, 64), at(1, 2, 1), at(2, 1, 1)]
        );
    }

    #[test]
    fn apps_and_their_probe_are_counted_like_for_like() {
        let group = |beside, probe| LoadPoint {
            iodepth: 128,
            devices: 8,
            instances: 17,
            beside,
            probe,
            ..LoadPoint::default()
        };
        assert_eq!(
            group(1, false).label(),
            "QD128 x 8 devices x 16 apps + 1 probe"
        );
        let probe = LoadPoint {
            iodepth: 1,
            ..group(16, true)
        };
        assert_eq!(probe.label(), "QD1 x 8 devices (probe) + 16 apps");
        // Labels only: the identity is the group's size.
        assert_eq!(group(1, false), group(0, false));
        assert_eq!(group(0, false).label(), "QD128 x 8 devices x 17 instances");
        let apps = [2u32, 3, 5].map(|n| LoadPoint {
            instances: n,
            ..group(1, false)
        });
        assert_eq!(
            LoadPoint::condense(&apps),
            "QD128 x 8 devices x 1, 2, 4 apps + 1 probe"
        );
    }

    #[test]
    fn condense_names_the_one_axis_that_varies() {
        let at = |iodepth, numjobs, devices, instances| LoadPoint {
            iodepth,
            numjobs,
            hosts: 1,
            devices,
            instances,
            ..LoadPoint::default()
        };
        let jobs = [
            at(8, 1, 1, 1),
            at(8, 2, 1, 1),
            at(8, 3, 1, 1),
            at(8, 4, 1, 1),
        ];
        assert_eq!(LoadPoint::condense(&jobs), "QD8 x 1-4 jobs");
        let depths = [at(1, 4, 1, 1), at(4, 4, 1, 1), at(16, 4, 1, 1)];
        assert_eq!(LoadPoint::condense(&depths), "QD1, QD4, QD16 x 4 jobs");
        let instances = [
            at(1, 1, 8, 1),
            at(1, 1, 8, 2),
            at(1, 1, 8, 3),
            at(1, 1, 8, 5),
        ];
        assert_eq!(
            LoadPoint::condense(&instances),
            "QD1 x 8 devices x 1-3, 5 instances"
        );
        let devices = [at(8, 1, 1, 1), at(8, 1, 2, 1), at(8, 1, 3, 1)];
        assert_eq!(LoadPoint::condense(&devices), "QD8 x 1-3 devices");
        // Two axes at once: the labels.
        let both = [at(1, 1, 1, 1), at(2, 1, 1, 2)];
        assert_eq!(LoadPoint::condense(&both), "QD1, QD2 x 2 instances");
        assert_eq!(
            at(32, 4, 2, 3).label(),
            "QD32 x 4 jobs x 2 devices x 3 instances"
        );
    }
}
