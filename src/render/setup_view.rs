//! The setup section every report opens with, as templates and the
//! terminal see it: the comparison's [`Setup`] split into the items all
//! configs share (a `name | value` row each) and the items that differ (a
//! row each, a cell per config). Template fields:
//!
//! `setup.{shared[].{name, value}, configs, differing[].{name, values,
//! runs[].{text, span, unknown}}}`
//!
//! `values` has one cell per config ("–" where a config does not know the
//! value); `runs` merges neighbouring configs with the same value into one
//! cell of `span` columns, so "Windows Server 2025" over both Windows
//! configs reads as one fact.
//!
//! Without repetition (issue #54): a row that restates others (a Config
//! row `ioscheduler=bfq` above an `ioscheduler` row `bfq`) is left out,
//! and a value longer than [`LONG_VALUE`] characters is shortened
//! ("/dev/nvme2n1 ... nvme9n1 (8 devices)"), the whole value in `full`
//! (the HTML's title text) and in the JSON's `setup`.

use serde::Serialize;

use crate::compare::setup::{Setup, SetupItem};

#[derive(Debug, Clone, Default, Serialize)]
pub struct SetupView {
    pub shared: Vec<SharedRow>,
    /// The columns of `differing`, in display order.
    pub configs: Vec<String>,
    pub differing: Vec<DifferingRow>,
    /// How the configs were told apart, when the data split a folder or
    /// `--label-by` named options: one sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The tables of `shared` and of `differing` in the report's markup,
    /// written by the Markdown or HTML renderer ([`super::md`],
    /// [`super::html`]); empty in the others.
    pub shared_table: String,
    pub differing_table: String,
}

/// A fact every config shares.
#[derive(Debug, Clone, Serialize)]
pub struct SharedRow {
    pub name: String,
    /// As the table prints it: shortened past [`LONG_VALUE`] characters.
    pub value: String,
    /// The whole value where `value` is shortened, else empty.
    pub full: String,
}

/// A fact that differs between configs.
#[derive(Debug, Clone, Serialize)]
pub struct DifferingRow {
    pub name: String,
    /// One per config, "–" where unknown.
    pub values: Vec<String>,
    /// Neighbouring equal values merged.
    pub runs: Vec<SpanCell>,
}

/// One cell spanning `span` neighbouring configs with the same value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpanCell {
    pub text: String,
    pub span: usize,
    /// The configs do not know the value (`text` is "–").
    pub unknown: bool,
    /// The whole value where `text` is shortened, else empty.
    pub full: String,
}

/// What a config that does not know a value shows.
const UNKNOWN: &str = "–";

/// Values longer than this many characters are shortened in tables.
pub const LONG_VALUE: usize = 60;

/// `value` as a table prints it, when it is longer than [`LONG_VALUE`]:
/// a list (fio's `:`-separated targets, or `, `) as its first and last
/// item and the count ("/dev/nvme2n1 ... nvme9n1 (8 devices)"), anything
/// else cut at a word with "…". None when it fits.
pub fn shortened(value: &str) -> Option<String> {
    if value.chars().count() <= LONG_VALUE {
        return None;
    }
    let parts: Vec<&str> = if value.contains(", ") {
        value.split(", ").collect()
    } else {
        value.split(':').filter(|p| !p.is_empty()).collect()
    };
    if let ([first, .., last], true) = (parts.as_slice(), parts.len() >= 3) {
        // The last item without the directory it shares with the first.
        let shared = first
            .char_indices()
            .filter(|(_, c)| *c == '/' || *c == '\\')
            .map(|(i, _)| i + 1)
            .rfind(|i| last.get(..*i) == first.get(..*i))
            .unwrap_or(0);
        let noun = if parts
            .iter()
            .all(|p| p.starts_with("/dev/") || p.contains("PhysicalDrive"))
        {
            "devices"
        } else {
            "items"
        };
        let text = format!("{first} ... {} ({} {noun})", &last[shared..], parts.len());
        if text.chars().count() <= LONG_VALUE + 20 {
            return Some(text);
        }
    }
    let cut: String = value.chars().take(LONG_VALUE - 1).collect();
    let at_word = cut
        .rfind(' ')
        .filter(|i| *i > LONG_VALUE / 2)
        .unwrap_or(cut.len());
    Some(format!("{}…", cut[..at_word].trim_end()))
}

/// Whether `item` says nothing the other items do not: every config's
/// value is a list of `key=value` words, each the value another item of
/// that key (or name) has for the config (the Config row `ioscheduler=bfq`
/// over an `ioscheduler` row `bfq`).
fn restated(item: &SetupItem, items: &[SetupItem]) -> bool {
    let known = item
        .values
        .iter()
        .filter_map(|(c, v)| Some((c, v.as_ref()?)));
    let mut any = false;
    for (config, value) in known {
        for word in value.split_whitespace() {
            let Some((k, v)) = word.split_once('=') else {
                return false;
            };
            let said = items.iter().any(|other| {
                !std::ptr::eq(other, item)
                    && (other.key == k || other.name == k)
                    && other.values.get(config).cloned().flatten().as_deref() == Some(v)
            });
            if !said {
                return false;
            }
            any = true;
        }
    }
    any
}

impl SetupView {
    pub fn new(setup: &Setup, configs: &[String]) -> SetupView {
        let kept = |i: &&SetupItem| !restated(i, &setup.items);
        let shared = setup
            .shared()
            .filter(kept)
            .map(|i| {
                let whole = i.value.clone().unwrap_or_default();
                let short = shortened(&whole);
                SharedRow {
                    name: i.name.clone(),
                    value: short.clone().unwrap_or_else(|| whole.clone()),
                    full: if short.is_some() {
                        whole
                    } else {
                        String::new()
                    },
                }
            })
            .collect();
        let differing = setup
            .differing()
            .filter(kept)
            .map(|i| differing_row(i, configs));
        SetupView {
            shared,
            configs: configs.to_vec(),
            differing: differing.collect(),
            ..SetupView::default()
        }
    }

    /// True when there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.shared.is_empty() && self.differing.is_empty()
    }

    /// One line per item for the terminal: `CPU: 2x AMD EPYC 9754`, and
    /// for an item that differs each value once with the configs that
    /// have it: `Engine: windowsaio (a, b); libaio (c)`; configs that do
    /// not know the value are not named.
    pub fn compact(&self) -> Vec<String> {
        let shared = self
            .shared
            .iter()
            .map(|r| format!("{}: {}", r.name, r.value));
        let differing = self.differing.iter().map(|r| {
            let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
            // Unknown values are left out: the configs named say who knows.
            let known = r
                .values
                .iter()
                .zip(&self.configs)
                .filter(|(v, _)| *v != UNKNOWN);
            for (v, c) in known {
                match groups.iter_mut().find(|g| g.0 == v) {
                    Some(g) => g.1.push(c),
                    None => groups.push((v, vec![c])),
                }
            }
            let parts: Vec<String> = groups
                .iter()
                .map(|(v, cs)| format!("{v} ({})", cs.join(", ")))
                .collect();
            format!("{}: {}", r.name, parts.join("; "))
        });
        shared.chain(differing).collect()
    }
}

fn differing_row(item: &SetupItem, configs: &[String]) -> DifferingRow {
    let whole: Vec<String> = configs
        .iter()
        .map(|c| item.values.get(c).cloned().flatten())
        .map(|v| v.unwrap_or_else(|| UNKNOWN.to_string()))
        .collect();
    DifferingRow {
        name: item.name.clone(),
        runs: runs(&whole),
        values: whole
            .iter()
            .map(|v| shortened(v).unwrap_or_else(|| v.clone()))
            .collect(),
    }
}

/// Neighbouring equal values as one cell each, shortened past
/// [`LONG_VALUE`] characters.
fn runs(values: &[String]) -> Vec<SpanCell> {
    let mut out: Vec<SpanCell> = Vec::new();
    for v in values {
        match out.last_mut() {
            Some(last) if last.text == *v => last.span += 1,
            _ => out.push(SpanCell {
                text: v.clone(),
                span: 1,
                unknown: v == UNKNOWN,
                full: String::new(),
            }),
        }
    }
    for cell in &mut out {
        if let Some(short) = shortened(&cell.text) {
            cell.full = std::mem::replace(&mut cell.text, short);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use indexmap::IndexMap;

    use super::*;
    use crate::compare::setup::SetupSource;

    fn item(name: &str, values: &[Option<&str>]) -> SetupItem {
        let values: IndexMap<String, Option<String>> = ["a", "b", "c"]
            .iter()
            .zip(values)
            .map(|(c, v)| (c.to_string(), v.map(String::from)))
            .collect();
        SetupItem::new(name, name, SetupSource::Data, values)
    }

    fn view() -> SetupView {
        let setup = Setup {
            title: None,
            description: None,
            items: vec![
                item("CPU", &[Some("EPYC"), Some("EPYC"), Some("EPYC")]),
                item("OS", &[Some("Win"), Some("Win"), Some("Linux")]),
                item("direct", &[Some("1"), None, Some("1")]),
            ],
        };
        let configs = ["a", "b", "c"].map(String::from);
        SetupView::new(&setup, &configs)
    }

    #[test]
    fn shared_and_differing_items_are_apart() {
        let v = view();
        assert_eq!(v.shared.len(), 1);
        assert_eq!(
            (v.shared[0].name.as_str(), v.shared[0].value.as_str()),
            ("CPU", "EPYC")
        );
        let names: Vec<&str> = v.differing.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["OS", "direct"]);
        assert_eq!(v.differing[1].values, ["1", UNKNOWN, "1"]);
    }

    #[test]
    fn neighbouring_equal_values_merge_into_one_cell() {
        let v = view();
        let os = &v.differing[0].runs;
        assert_eq!(
            os,
            &[
                SpanCell {
                    text: "Win".into(),
                    span: 2,
                    unknown: false,
                    full: String::new(),
                },
                SpanCell {
                    text: "Linux".into(),
                    span: 1,
                    unknown: false,
                    full: String::new(),
                }
            ]
        );
        // Equal but not neighbours: three cells, the middle one unknown.
        let direct: Vec<bool> = v.differing[1].runs.iter().map(|r| r.unknown).collect();
        assert_eq!(direct, [false, true, false]);
    }

    #[test]
    fn long_values_are_shortened_and_restating_rows_left_out() {
        let devices: Vec<String> = (2..10).map(|i| format!("/dev/nvme{i}n1")).collect();
        let list = devices.join(":");
        assert_eq!(
            shortened(&list).as_deref(),
            Some("/dev/nvme2n1 ... nvme9n1 (8 devices)")
        );
        assert_eq!(shortened("/dev/nvme2n1"), None);
        let prose = "word ".repeat(20);
        let short = shortened(&prose).unwrap();
        assert!(short.ends_with("word…") && short.chars().count() <= LONG_VALUE);
        let setup = Setup {
            title: None,
            description: None,
            items: vec![
                item("label", &[Some("s=x"), Some("s=y"), Some("s=z")]),
                item("s", &[Some("x"), Some("y"), Some("z")]),
                item("filename", &[Some(&list), Some(&list), Some("/dev/sda")]),
            ],
        };
        let configs = ["a", "b", "c"].map(String::from);
        let v = SetupView::new(&setup, &configs);
        let names: Vec<&str> = v.differing.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["s", "filename"]);
        let cell = &v.differing[1].runs[0];
        assert_eq!(
            (cell.text.as_str(), cell.span),
            ("/dev/nvme2n1 ... nvme9n1 (8 devices)", 2)
        );
        assert_eq!(cell.full, list);
        // A label that says more than the rows (a folder) stays.
        let mut setup = setup;
        setup.items[0] = item("label", &[Some("run1 s=x"), Some("s=y"), Some("s=z")]);
        assert_eq!(SetupView::new(&setup, &configs).differing.len(), 3);
    }

    #[test]
    fn compact_lines_name_each_value_once_with_its_configs() {
        let lines = view().compact();
        assert_eq!(lines[0], "CPU: EPYC");
        assert_eq!(lines[1], "OS: Win (a, b); Linux (c)");
        assert_eq!(lines[2], "direct: 1 (a, c)");
    }
}
