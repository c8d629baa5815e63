//! A job's block size per direction: what its options ask for (`bs`,
//! `bsrange`, `bssplit`, read under its `kb_base` by fio's grammar) held
//! against what fio measured (`io_bytes / total_ios`). The measurement
//! wins where the two disagree, and a value that cannot be read is never
//! replaced by a default: the measured size stands in, and a note names
//! the option and the value.

use crate::model::Direction;
use crate::units::grammar::{self, KbBase, ValueError};

/// fio's default block size (`bs` in options.c): what a job that sets no
/// block size option ran with.
const FIO_DEFAULT_BS: u64 = 4096;

/// What the options ask of one direction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Asked {
    /// One size for every I/O.
    Fixed(u64),
    /// Sizes that vary from I/O to I/O (`bsrange`, `bssplit`), in fio's
    /// words (`4k-64k`, `4k/50:64k/50`). What they average to is only
    /// known from the measurement: fio 3.33 here issued a mean of 24.5 KiB
    /// for `bsrange=4k-64k` and 20.7 KiB for `bssplit=4k/50:64k/50`.
    Spread { text: String },
    /// The option is there but fio's grammar does not read it.
    Unknown { option: String, error: ValueError },
}

/// The block size options of a job, read once for its three directions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockSizes {
    per_dir: [Asked; 3],
    /// The option that set the sizes, as written (`bs=128Ki`), if any.
    pub(crate) written: Option<String>,
}

fn index(dir: Direction) -> usize {
    match dir {
        Direction::Read => 0,
        Direction::Write => 1,
        Direction::Trim => 2,
    }
}

impl Asked {
    /// One direction's `bsrange`: a spread where its ends differ.
    fn of_range((lo, hi): (u64, u64)) -> Asked {
        if lo == hi {
            return Asked::Fixed(lo);
        }
        Asked::Spread {
            text: format!(
                "{}-{}",
                crate::units::format_bs(lo),
                crate::units::format_bs(hi)
            ),
        }
    }

    /// One direction's `bssplit` (size, percent) list: a spread unless it
    /// holds one size.
    fn of_split(split: &[(u64, u32)]) -> Asked {
        if let [(b, _)] = split {
            return Asked::Fixed(*b);
        }
        let text = split
            .iter()
            .map(|(b, p)| format!("{}/{p}", crate::units::format_bs(*b)))
            .collect::<Vec<_>>()
            .join(":");
        Asked::Spread { text }
    }
}

impl BlockSizes {
    /// From a job's options (`get` looks one up, job over global). fio
    /// takes `bssplit` first, then a `bsrange` whose ends differ, then `bs`.
    pub(crate) fn of(get: impl Fn(&str) -> Option<String>) -> BlockSizes {
        let kb = match KbBase::of(get("kb_base").as_deref()) {
            Ok(kb) => kb,
            Err(error) => {
                let unknown = || Asked::Unknown {
                    option: "kb_base".into(),
                    error: error.clone(),
                };
                return BlockSizes {
                    per_dir: [unknown(), unknown(), unknown()],
                    written: get("kb_base").map(|v| format!("kb_base={v}")),
                };
            }
        };
        let bs = get("bs")
            .map(|v| ("bs", v))
            .or_else(|| get("blocksize").map(|v| ("blocksize", v)));
        let range = get("bsrange")
            .map(|v| ("bsrange", v))
            .or_else(|| get("blocksize_range").map(|v| ("blocksize_range", v)));
        let split = get("bssplit").map(|v| ("bssplit", v));
        let mut per_dir: [Asked; 3] = std::array::from_fn(|_| Asked::Fixed(FIO_DEFAULT_BS));
        let mut written = Vec::new();
        if let Some((name, v)) = &bs {
            written.push(format!("{name}={v}"));
            match grammar::per_direction(v, |p| grammar::size(p, kb)) {
                Ok(sizes) => {
                    for (slot, s) in per_dir.iter_mut().zip(sizes) {
                        *slot = Asked::Fixed(s.unwrap_or(FIO_DEFAULT_BS));
                    }
                }
                Err(error) => per_dir = unknown_all(name, &error),
            }
        }
        if let Some((name, v)) = &range {
            written.push(format!("{name}={v}"));
            match grammar::ranges(v, kb) {
                Ok(ranges) => {
                    for (slot, r) in per_dir.iter_mut().zip(ranges) {
                        if let Some(asked) = r.map(Asked::of_range) {
                            *slot = asked;
                        }
                    }
                }
                Err(error) => per_dir = unknown_all(name, &error),
            }
        }
        if let Some((name, v)) = &split {
            written.push(format!("{name}={v}"));
            match grammar::bssplit(v, kb) {
                Ok(splits) => {
                    for (slot, s) in per_dir.iter_mut().zip(splits) {
                        if let Some(s) = s {
                            *slot = Asked::of_split(&s);
                        }
                    }
                }
                Err(error) => per_dir = unknown_all(name, &error),
            }
        }
        BlockSizes {
            per_dir,
            written: (!written.is_empty()).then(|| written.join(", ")),
        }
    }

    pub(crate) fn asked(&self, dir: Direction) -> &Asked {
        &self.per_dir[index(dir)]
    }
}

fn unknown_all(name: &str, error: &ValueError) -> [Asked; 3] {
    std::array::from_fn(|_| Asked::Unknown {
        option: name.to_string(),
        error: error.clone(),
    })
}

/// A direction's block size, decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decided {
    pub(crate) bs_bytes: u64,
    /// The spread of a varying size (`4k-64k`), shown instead of one size.
    pub(crate) spread: Option<String>,
    /// Why the options' size was not taken, for a note.
    pub(crate) note: Option<String>,
}

/// How far the mean I/O size may stray from a fixed size before fio is
/// taken to have issued another size: fio's `io_bytes` can count a few
/// bytes beyond whole blocks (a trailing partial I/O), never 1 %.
const FIXED_TOLERANCE: f64 = 0.01;

/// Whether a measured mean I/O size is the fixed size `asked` (within
/// [`FIXED_TOLERANCE`]): the one rule fio's readers and DiskSpd's use.
pub(crate) fn agrees(asked: f64, measured: f64) -> bool {
    (measured - asked).abs() <= FIXED_TOLERANCE * asked
}

/// The size to use for one direction: the options' where the measurement
/// (`measured`: io_bytes / total_ios) agrees within rounding, else the
/// measurement. `Err` when neither can be had.
pub(crate) fn decide(
    asked: &Asked,
    measured: Option<f64>,
    dir: Direction,
) -> Result<Decided, String> {
    let measured = measured.filter(|m| m.is_finite() && *m >= 1.0);
    let near = |want: f64| measured.is_none_or(|m| agrees(want, m));
    let whole = |m: f64| m.round() as u64;
    match asked {
        Asked::Fixed(b) if near(*b as f64) => Ok(Decided {
            bs_bytes: *b,
            spread: None,
            note: None,
        }),
        Asked::Fixed(b) => {
            let m = measured.expect("near() holds without a measurement");
            Ok(Decided {
                bs_bytes: whole(m),
                spread: None,
                note: Some(format!(
                    "{dir} block size {} measured (io_bytes / total_ios), not the options' {b}",
                    whole(m)
                )),
            })
        }
        Asked::Spread { text } => match measured {
            Some(m) => Ok(Decided {
                bs_bytes: whole(m),
                spread: Some(text.clone()),
                note: None,
            }),
            None => Err(format!(
                "block sizes of {text} and no I/O count to measure their mean from"
            )),
        },
        Asked::Unknown { option, error } => match measured {
            Some(m) => Ok(Decided {
                bs_bytes: whole(m),
                spread: None,
                note: Some(format!(
                    "{option} {error}; {dir} block size {} measured (io_bytes / total_ios)",
                    whole(m)
                )),
            }),
            None => Err(format!(
                "{option} {error}, and no I/O count to measure the block size from"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(pairs: &[(&str, &str)]) -> BlockSizes {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        BlockSizes::of(|k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn iec_suffixes_and_kb_base_are_read_as_fio_reads_them() {
        let b = opts(&[("bs", "128Ki")]);
        assert_eq!(b.asked(Direction::Read), &Asked::Fixed(131_072));
        let b = opts(&[("bs", "4KiB")]);
        assert_eq!(b.asked(Direction::Read), &Asked::Fixed(4000));
        let b = opts(&[("bs", "4KiB"), ("kb_base", "1000")]);
        assert_eq!(b.asked(Direction::Write), &Asked::Fixed(4096));
        assert_eq!(b.written.as_deref(), Some("bs=4KiB"));
        let b = opts(&[]);
        assert_eq!(b.asked(Direction::Read), &Asked::Fixed(4096));
    }

    #[test]
    fn ranges_and_splits_are_spreads_measured_for_their_mean() {
        let b = opts(&[("bsrange", "4k-64k"), ("bs", "4k")]);
        let spread = Asked::Spread {
            text: "4k-64k".into(),
        };
        assert_eq!(b.asked(Direction::Read), &spread);
        let b = opts(&[("bssplit", "4k/50:64k/50")]);
        let split = Asked::Spread {
            text: "4k/50:64k/50".into(),
        };
        assert_eq!(b.asked(Direction::Read), &split);
        let d = decide(&split, Some(21_228.45), Direction::Read).unwrap();
        assert_eq!(
            (d.bs_bytes, d.spread.as_deref()),
            (21_228, Some("4k/50:64k/50"))
        );
        assert!(decide(&split, None, Direction::Read).is_err());
        // One size in a range or a split is a fixed size.
        assert_eq!(
            opts(&[("bsrange", "8k-8k")]).asked(Direction::Read),
            &Asked::Fixed(8192)
        );
        assert_eq!(
            opts(&[("bssplit", "8k/100")]).asked(Direction::Write),
            &Asked::Fixed(8192)
        );
    }

    #[test]
    fn the_measurement_wins_where_it_disagrees_and_stands_in_for_the_unreadable() {
        let fixed = Asked::Fixed(4096);
        let d = decide(&fixed, Some(4096.3), Direction::Read).unwrap();
        assert_eq!((d.bs_bytes, d.note), (4096, None));
        let d = decide(&fixed, Some(4000.0), Direction::Read).unwrap();
        assert_eq!(d.bs_bytes, 4000);
        assert!(d.note.unwrap().contains("measured"));
        let b = opts(&[("bs", "abc")]);
        let d = decide(b.asked(Direction::Read), Some(131_072.0), Direction::Read).unwrap();
        assert_eq!(d.bs_bytes, 131_072);
        assert_eq!(
            d.note.as_deref(),
            Some(
                "bs `abc` is not a number fio reads; read block size 131072 measured (io_bytes / total_ios)"
            )
        );
        assert!(decide(b.asked(Direction::Read), None, Direction::Read).is_err());
    }
}
