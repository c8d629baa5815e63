//! One unit per metric per report (issue #54): every table, column,
//! finding and chart axis of one report prints latency in one unit and
//! bandwidth in one unit, chosen once from all of that metric's values in
//! the report, unless house style (the manifest's `[units]`, `--unit`)
//! names it.
//!
//! The rule: the unit in which the **median** of the metric's values in
//! the report prints with one to three integer digits
//! ([`numbers::time_ns`], [`numbers::binary_rate`]). Latency is one
//! metric here: mean latency, the tail and every percentile drawn share
//! the unit (a sweep table compares them side by side), chosen from the
//! means and tails together. Bandwidth per CPU % is bandwidth's unit.
//! IOPS and CPU % have no unit to choose.

use serde::{Deserialize, Deserializer, Serialize};

use crate::numbers::{self, Unit};

/// What house style fixes of one metric's display: its unit, and
/// optionally the decimals every value of it prints with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HouseUnit {
    /// The unit's name as printed (`ms`, `µs`, `GiB/s`).
    pub unit: &'static str,
    /// Decimals of every value in tables; None for the row rule
    /// (`Metric::row_decimals`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimals: Option<usize>,
    /// The decimals are a most, trailing zeros dropped (`6.1` beside
    /// `10.058`, `0.56` beside `0.558`): figures as an article prints them.
    /// Off, every value of a row prints its decimals.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trim_zeros: bool,
}

/// House style of a report: the manifest's `[units]` table, overridden
/// per metric by `--unit METRIC=UNIT[:DECIMALS]`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HouseStyle {
    pub latency: Option<HouseUnit>,
    pub bandwidth: Option<HouseUnit>,
}

/// The metrics house style can set, by the name written in `[units]` and
/// after `--unit`.
pub const QUANTITIES: [&str; 2] = ["latency", "bandwidth"];

/// Latency units a house style may name, smallest first.
const TIME: [(&str, f64); 4] = [("ns", 1.0), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)];

/// Bandwidth units a house style may name (binary, as every table
/// prints them).
const RATE: [(&str, f64); 4] = [
    ("B/s", 1.0),
    ("KiB/s", 1024.0),
    ("MiB/s", 1024.0 * 1024.0),
    ("GiB/s", 1024.0 * 1024.0 * 1024.0),
];

impl HouseStyle {
    /// Sets `quantity` (`latency`, `bandwidth`; `lat`, `bw` too) to
    /// `unit` (`ms`, `us`, `µs`, `GiB/s`) with optional decimals: the one
    /// parser of the manifest's entries and of `--unit`. The error says
    /// what is accepted.
    pub fn set(
        &mut self,
        quantity: &str,
        unit: &str,
        decimals: Option<usize>,
    ) -> Result<(), String> {
        self.set_styled(quantity, unit, decimals, false)
    }

    /// [`HouseStyle::set`], with `trim_zeros`: the decimals are a most and
    /// trailing zeros are dropped ([`HouseUnit::trim_zeros`]). Trimming
    /// asks for decimals.
    pub fn set_styled(
        &mut self,
        quantity: &str,
        unit: &str,
        decimals: Option<usize>,
        trim_zeros: bool,
    ) -> Result<(), String> {
        if trim_zeros && decimals.is_none() {
            return Err(format!(
                "dropping trailing zeros of {quantity} needs its decimals (e.g. 3)"
            ));
        }
        if let Some(d) = decimals.filter(|d| *d > numbers::MAX_DECIMALS) {
            return Err(format!(
                "{d} decimals for {quantity}: at most {}",
                numbers::MAX_DECIMALS
            ));
        }
        let names =
            |list: &[(&str, f64)]| list.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
        let find = |list: &[(&'static str, f64)], u: &str| {
            list.iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(u))
                .map(|(n, _)| *n)
        };
        let unit = unit.trim();
        match quantity.trim().to_ascii_lowercase().as_str() {
            "latency" | "lat" => {
                let u = if unit == "us" || unit == "μs" {
                    "µs"
                } else {
                    unit
                };
                let name = find(&TIME, u).ok_or_else(|| {
                    format!("unknown latency unit {unit:?}: one of {}", names(&TIME))
                })?;
                self.latency = Some(HouseUnit {
                    unit: name,
                    decimals,
                    trim_zeros,
                });
            }
            "bandwidth" | "bw" => {
                let name = find(&RATE, unit).ok_or_else(|| {
                    format!("unknown bandwidth unit {unit:?}: one of {}", names(&RATE))
                })?;
                self.bandwidth = Some(HouseUnit {
                    unit: name,
                    decimals,
                    trim_zeros,
                });
            }
            other => {
                return Err(format!(
                    "no unit to set for {other:?}: one of {}",
                    QUANTITIES.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Parses `METRIC=UNIT`, `METRIC=UNIT:DECIMALS` (`latency=ms:3`) or
    /// `METRIC=UNIT:DECIMALS:trim` (at most DECIMALS, trailing zeros
    /// dropped: `bw=GiB/s:3:trim` prints `6.1` and `10.058`).
    pub fn set_flag(&mut self, flag: &str) -> Result<(), String> {
        let (q, rest) = flag
            .split_once('=')
            .ok_or_else(|| format!("--unit {flag:?}: expected METRIC=UNIT, e.g. latency=ms"))?;
        let (rest, trim_zeros) = match rest.rsplit_once(':') {
            Some((r, t)) if t.trim().eq_ignore_ascii_case("trim") => (r, true),
            _ => (rest, false),
        };
        let (unit, decimals) = match rest.rsplit_once(':') {
            Some((u, d)) => {
                let d = d.trim().parse::<usize>().map_err(|_| {
                    format!("--unit {flag:?}: decimals after ':' must be a whole number (then optionally :trim)")
                })?;
                (u, Some(d))
            }
            None => (rest, None),
        };
        self.set_styled(q, unit, decimals, trim_zeros)
            .map_err(|e| format!("--unit {flag:?}: {e}"))
    }

    /// `other`'s entries over this one's (a flag over the manifest).
    pub fn overridden_by(self, other: HouseStyle) -> HouseStyle {
        HouseStyle {
            latency: other.latency.or(self.latency),
            bandwidth: other.bandwidth.or(self.bandwidth),
        }
    }
}

/// A house unit read back from JSON: its unit one of the known units.
impl<'de> Deserialize<'de> for HouseUnit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Written {
            unit: String,
            #[serde(default)]
            decimals: Option<usize>,
            #[serde(default)]
            trim_zeros: bool,
        }
        let w = Written::deserialize(d)?;
        let unit = TIME
            .iter()
            .chain(RATE.iter())
            .map(|(n, _)| *n)
            .find(|n| *n == w.unit)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown unit {:?}", w.unit)))?;
        Ok(HouseUnit {
            unit,
            decimals: w.decimals,
            trim_zeros: w.trim_zeros,
        })
    }
}

/// The units one report prints in: decided once per comparison, read by
/// every table, finding and chart of it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReportUnits {
    pub latency: HouseUnit,
    pub bandwidth: HouseUnit,
    /// Whether house style named them, per quantity: latency,
    /// bandwidth.
    #[serde(default)]
    pub house: [bool; 2],
}

impl Default for ReportUnits {
    /// Before any values are known: µs and GiB/s, the rule's choice for
    /// nothing.
    fn default() -> Self {
        ReportUnits::chosen(&[], &[], HouseStyle::default())
    }
}

impl ReportUnits {
    /// The units of a report whose latencies (ns) and bandwidths (B/s)
    /// are `lat` and `bw`, house style winning.
    pub fn chosen(lat: &[f64], bw: &[f64], house: HouseStyle) -> ReportUnits {
        let median =
            |v: &[f64]| numbers::median(v.iter().copied().filter(|v| *v > 0.0)).unwrap_or(0.0);
        let rule_lat = HouseUnit {
            unit: numbers::time_ns(median(lat)).name,
            decimals: None,
            trim_zeros: false,
        };
        let rule_bw = HouseUnit {
            unit: numbers::binary_rate(median(bw)).name,
            decimals: None,
            trim_zeros: false,
        };
        ReportUnits {
            latency: house.latency.unwrap_or(rule_lat),
            bandwidth: house.bandwidth.unwrap_or(rule_bw),
            house: [house.latency.is_some(), house.bandwidth.is_some()],
        }
    }

    /// The latency unit, as [`numbers::Unit`].
    pub fn time(&self) -> Unit {
        unit_named(&TIME, self.latency.unit)
    }

    /// The bandwidth unit, as [`numbers::Unit`].
    pub fn rate(&self) -> Unit {
        unit_named(&RATE, self.bandwidth.unit)
    }
}

fn unit_named(list: &[(&'static str, f64)], name: &str) -> Unit {
    list.iter()
        .find(|(n, _)| *n == name)
        .map(|(name, div)| Unit { name, div: *div })
        .unwrap_or(Unit { name: "", div: 1.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_chooses_and_house_style_wins() {
        // Six workloads in hundreds of µs and two at 3.8 ms: µs (the
        // median's), every value in it.
        let lat = [169e3, 104e3, 198e3, 192e3, 239e3, 3.814e6, 3.816e6];
        let u = ReportUnits::chosen(&lat, &[], HouseStyle::default());
        assert_eq!(u.latency.unit, "µs");
        assert_eq!(u.time().div, 1e3);
        let mut house = HouseStyle::default();
        house.set("latency", "ms", Some(3)).unwrap();
        let u = ReportUnits::chosen(&lat, &[], house);
        assert_eq!(
            u.latency,
            HouseUnit {
                unit: "ms",
                decimals: Some(3),
                trim_zeros: false,
            }
        );
        assert_eq!(u.house, [true, false]);
        // A median of 2 GiB/s prints in GiB/s even beside 10 MiB/s.
        let gib = 1024.0 * 1024.0 * 1024.0;
        let u = ReportUnits::chosen(&[], &[2.0 * gib, 3.0 * gib, 10.0 * 1048576.0], house);
        assert_eq!(u.bandwidth.unit, "GiB/s");
    }

    #[test]
    fn flags_name_what_they_accept() {
        let mut h = HouseStyle::default();
        h.set_flag("latency=us").unwrap();
        assert_eq!(h.latency.unwrap().unit, "µs");
        h.set_flag("bw=MiB/s:1").unwrap();
        assert_eq!(
            h.bandwidth,
            Some(HouseUnit {
                unit: "MiB/s",
                decimals: Some(1),
                trim_zeros: false,
            })
        );
        h.set_flag("bw=GiB/s:3:trim").unwrap();
        assert_eq!(
            h.bandwidth,
            Some(HouseUnit {
                unit: "GiB/s",
                decimals: Some(3),
                trim_zeros: true,
            })
        );
        // Trimming without decimals says what it needs.
        let e = h.set_flag("bw=GiB/s:trim").unwrap_err();
        assert!(e.contains("needs its decimals"), "{e}");
        let e = h.set_flag("latency=min").unwrap_err();
        assert!(e.contains("ns, µs, ms, s"), "{e}");
        assert!(
            h.set_flag("iops=k")
                .unwrap_err()
                .contains("latency, bandwidth")
        );
        assert!(h.set_flag("latency").is_err());
        assert!(h.set_flag("latency=ms:x").is_err());
    }
}
