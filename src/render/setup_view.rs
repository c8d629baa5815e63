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
    pub value: String,
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
}

/// What a config that does not know a value shows.
const UNKNOWN: &str = "–";

impl SetupView {
    pub fn new(setup: &Setup, configs: &[String]) -> SetupView {
        let shared = setup
            .shared()
            .map(|i| SharedRow {
                name: i.name.clone(),
                value: i.value.clone().unwrap_or_default(),
            })
            .collect();
        let differing = setup.differing().map(|i| differing_row(i, configs));
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
    let values: Vec<String> = configs
        .iter()
        .map(|c| item.values.get(c).cloned().flatten())
        .map(|v| v.unwrap_or_else(|| UNKNOWN.to_string()))
        .collect();
    DifferingRow {
        name: item.name.clone(),
        runs: runs(&values),
        values,
    }
}

/// Neighbouring equal values as one cell each.
fn runs(values: &[String]) -> Vec<SpanCell> {
    let mut out: Vec<SpanCell> = Vec::new();
    for v in values {
        match out.last_mut() {
            Some(last) if last.text == *v => last.span += 1,
            _ => out.push(SpanCell {
                text: v.clone(),
                span: 1,
                unknown: v == UNKNOWN,
            }),
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
                },
                SpanCell {
                    text: "Linux".into(),
                    span: 1,
                    unknown: false,
                }
            ]
        );
        // Equal but not neighbours: three cells, the middle one unknown.
        let direct: Vec<bool> = v.differing[1].runs.iter().map(|r| r.unknown).collect();
        assert_eq!(direct, [false, true, false]);
    }

    #[test]
    fn compact_lines_name_each_value_once_with_its_configs() {
        let lines = view().compact();
        assert_eq!(lines[0], "CPU: EPYC");
        assert_eq!(lines[1], "OS: Win (a, b); Linux (c)");
        assert_eq!(lines[2], "direct: 1 (a, c)");
    }
}
