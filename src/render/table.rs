//! The one table model every report's tables are built from (analyze's,
//! check's and history's), and the two ways it is written out: the
//! terminal's (comfy-table, one style for every command) and Markdown's
//! ([`Markup`], after hyperfine's `MarkupExporter`: the layout of a table
//! is shared, a markup language supplies a few small methods). HTML tables
//! come from the templates, which take the same texts.
//!
//! Cells hold text already formatted for people (`crate::numbers`): a
//! table decides nothing, it only lays out.

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Attribute, CellAlignment, Color, ContentArrangement};

/// How a cell's text sits in its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Align {
    #[default]
    Left,
    Right,
}

/// What a cell's text stands out as, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    #[default]
    Plain,
    /// The best value of a row (bold).
    Best,
    /// A verdict that fails a gate (red on a terminal, bold in Markdown).
    Bad,
    /// An improvement (green on a terminal, plain in Markdown).
    Good,
}

/// One cell: its text, where it sits and how it stands out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cell {
    pub text: String,
    pub align: Align,
    pub tone: Tone,
}

impl Cell {
    pub fn new(text: impl ToString) -> Cell {
        Cell {
            text: text.to_string(),
            ..Cell::default()
        }
    }

    /// A number: right-aligned.
    pub fn right(text: impl ToString) -> Cell {
        Cell::new(text).align(Align::Right)
    }

    pub fn align(mut self, align: Align) -> Cell {
        self.align = align;
        self
    }

    pub fn tone(mut self, tone: Tone) -> Cell {
        self.tone = tone;
        self
    }
}

impl<T: Into<String>> From<T> for Cell {
    fn from(text: T) -> Cell {
        Cell::new(text.into())
    }
}

/// A header and rows of cells.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub header: Vec<Cell>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new<C: Into<Cell>>(header: impl IntoIterator<Item = C>) -> Table {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row<C: Into<Cell>>(&mut self, cells: impl IntoIterator<Item = C>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// The table as the terminal shows it: every command's tables in one
    /// style (UTF-8 rules, no wrapping: a wide table scrolls rather than
    /// breaking a number). Tones are drawn only with `color`.
    pub fn terminal(&self, color: bool) -> String {
        let mut t = comfy_table::Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Disabled);
        if !color {
            t.force_no_tty();
        }
        let cell = |c: &Cell| {
            let mut out = comfy_table::Cell::new(&c.text);
            if c.align == Align::Right {
                out = out.set_alignment(CellAlignment::Right);
            }
            if !color {
                return out;
            }
            match c.tone {
                Tone::Plain => out,
                Tone::Best => out.add_attribute(Attribute::Bold),
                Tone::Bad => out.fg(Color::Red),
                Tone::Good => out.fg(Color::Green),
            }
        };
        t.set_header(self.header.iter().map(cell).collect::<Vec<_>>());
        for r in &self.rows {
            t.add_row(r.iter().map(cell).collect::<Vec<_>>());
        }
        t.to_string()
    }
}

/// A markup language's part in writing a table; the layout is shared
/// ([`Markup::table`]). Markdown is the one in use.
pub trait Markup {
    /// A line of cells, already escaped.
    fn row(&self, cells: &[String]) -> String;
    /// The line under the header, saying each column's alignment.
    fn divider(&self, aligns: &[Align]) -> String;
    /// A cell's text escaped, with its tone marked.
    fn cell(&self, c: &Cell) -> String;

    /// The whole table, a line each, each line ending in `\n`.
    fn table(&self, t: &Table) -> String {
        let aligns: Vec<Align> = t.header.iter().map(|c| c.align).collect();
        let mut out = self.row(&t.header.iter().map(|c| self.cell(c)).collect::<Vec<_>>());
        out.push_str(&self.divider(&aligns));
        for r in &t.rows {
            out.push_str(&self.row(&r.iter().map(|c| self.cell(c)).collect::<Vec<_>>()));
        }
        out
    }
}

/// GitHub-flavoured Markdown tables.
pub struct Markdown;

impl Markup for Markdown {
    fn row(&self, cells: &[String]) -> String {
        format!("| {} |\n", cells.join(" | "))
    }

    fn divider(&self, aligns: &[Align]) -> String {
        let cols: Vec<&str> = aligns
            .iter()
            .map(|a| match a {
                Align::Left => "---",
                Align::Right => "---:",
            })
            .collect();
        self.row(&cols.iter().map(|c| c.to_string()).collect::<Vec<_>>())
    }

    fn cell(&self, c: &Cell) -> String {
        let text = escape(&c.text);
        match c.tone {
            Tone::Best | Tone::Bad => format!("**{text}**"),
            Tone::Plain | Tone::Good => text,
        }
    }
}

/// The one Markdown escaper: text as one table cell. A `|` would end the
/// cell and a backslash before it would undo the escape, so both are
/// escaped; a line break would end the row, so it becomes `<br>`, which
/// GitHub and GitLab draw as a break inside the cell.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', "<br>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new([Cell::new("config"), Cell::right("IOPS")]);
        t.row([Cell::new("a|b"), Cell::right("1,000").tone(Tone::Best)]);
        t.row([Cell::new("two\nlines"), Cell::right("9").tone(Tone::Good)]);
        t
    }

    #[test]
    fn markdown_escapes_pipes_and_keeps_rows_whole() {
        assert_eq!(
            Markdown.table(&sample()),
            "| config | IOPS |\n| --- | ---: |\n| a\\|b | **1,000** |\n| two<br>lines | 9 |\n"
        );
        assert_eq!(escape(r"C:\x|y"), r"C:\\x\|y");
    }

    #[test]
    fn terminal_aligns_numbers_right_without_colour_codes() {
        let plain = sample().terminal(false);
        assert!(plain.contains("│ a|b    ┆ 1,000 │"), "{plain}");
        assert!(plain.contains("│ two    ┆     9 │"), "{plain}");
        assert!(plain.contains("│ config ┆  IOPS │"), "{plain}");
        assert!(!plain.contains('\u{1b}'));
    }
}
