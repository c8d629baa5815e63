//! The one table model every report's tables are built from (analyze's,
//! check's and history's), and the ways it is written out: the
//! terminal's (comfy-table, one style for every command), Markdown's and
//! HTML's ([`Markup`], after hyperfine's `MarkupExporter`: the layout of a
//! table is shared, a markup language supplies a few small methods). The
//! HTML pages' templates insert tables written here; they build none.
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
    /// Tied for the best value of a row (bold like [`Tone::Best`]; its
    /// own colour in HTML).
    Tied,
}

/// HTML attributes, in the order they are written; values are escaped.
pub type Attrs = Vec<(&'static str, String)>;

/// A piece of a cell's content where HTML shows more than its text:
/// text, or an element around pieces (`<span class="delta">`, `<code>`).
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Text(String),
    Element {
        tag: &'static str,
        class: Option<&'static str>,
        parts: Vec<Inline>,
    },
}

impl Inline {
    pub fn text(text: impl ToString) -> Inline {
        Inline::Text(text.to_string())
    }

    /// `<span class="…">` around `parts`.
    pub fn span(class: &'static str, parts: Vec<Inline>) -> Inline {
        Inline::Element {
            tag: "span",
            class: Some(class),
            parts,
        }
    }

    /// `<tag>` around `text`, no class (`code`, `strong`).
    pub fn tag(tag: &'static str, text: impl ToString) -> Inline {
        Inline::Element {
            tag,
            class: None,
            parts: vec![Inline::text(text)],
        }
    }

    /// A value standing out as its cell would: in a span of the tone's
    /// class, plain text without one.
    pub fn toned(text: impl ToString, tone: Tone) -> Inline {
        match tone_class(tone) {
            Some(class) => Inline::span(class, vec![Inline::text(text)]),
            None => Inline::text(text),
        }
    }
}

/// One cell: its text, where it sits and how it stands out. The fields
/// after `tone` are HTML's alone (the terminal and Markdown write `text`):
/// what the page's stylesheet and script read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cell {
    pub text: String,
    pub align: Align,
    pub tone: Tone,
    /// The row's label: `<th scope="row">`.
    pub head: bool,
    /// Columns spanned, where more than one (`colspan`).
    pub span: usize,
    /// A class of the stylesheet's besides alignment's and tone's.
    pub class: Option<&'static str>,
    pub attrs: Attrs,
    /// The content where it is more than `text` (a delta under a value,
    /// marked values inside one cell); empty: `text`.
    pub parts: Vec<Inline>,
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

    /// The row's label (HTML: `<th scope="row">`).
    pub fn head(mut self) -> Cell {
        self.head = true;
        self
    }

    pub fn span(mut self, span: usize) -> Cell {
        self.span = span;
        self
    }

    pub fn class(mut self, class: &'static str) -> Cell {
        self.class = Some(class);
        self
    }

    pub fn attr(mut self, name: &'static str, value: impl ToString) -> Cell {
        self.attrs.push((name, value.to_string()));
        self
    }

    pub fn parts(mut self, parts: Vec<Inline>) -> Cell {
        self.parts = parts;
        self
    }
}

impl<T: Into<String>> From<T> for Cell {
    fn from(text: T) -> Cell {
        Cell::new(text.into())
    }
}

/// One row of a table: its cells and, in HTML, its attributes
/// (`data-config`, the `class` that colours a row).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableRow {
    pub cells: Vec<Cell>,
    pub attrs: Attrs,
}

/// A header and rows of cells; `attrs` are HTML's `<table>` attributes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub header: Vec<Cell>,
    pub rows: Vec<TableRow>,
    pub attrs: Attrs,
}

impl Table {
    pub fn new<C: Into<Cell>>(header: impl IntoIterator<Item = C>) -> Table {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            ..Table::default()
        }
    }

    /// An attribute of the HTML `<table>` (its `class`).
    pub fn attr(mut self, name: &'static str, value: impl ToString) -> Table {
        self.attrs.push((name, value.to_string()));
        self
    }

    pub fn row<C: Into<Cell>>(&mut self, cells: impl IntoIterator<Item = C>) {
        self.row_with(Attrs::new(), cells);
    }

    /// A row with HTML attributes of its own.
    pub fn row_with<C: Into<Cell>>(&mut self, attrs: Attrs, cells: impl IntoIterator<Item = C>) {
        let cells = cells.into_iter().map(Into::into).collect();
        self.rows.push(TableRow { cells, attrs });
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
            let mut out = comfy_table::Cell::new(terminal_text(&c.text, false));
            if c.align == Align::Right {
                out = out.set_alignment(CellAlignment::Right);
            }
            if !color {
                return out;
            }
            match c.tone {
                Tone::Plain => out,
                Tone::Best | Tone::Tied => out.add_attribute(Attribute::Bold),
                Tone::Bad => out.fg(Color::Red),
                Tone::Good => out.fg(Color::Green),
            }
        };
        t.set_header(self.header.iter().map(cell).collect::<Vec<_>>());
        for r in &self.rows {
            t.add_row(r.cells.iter().map(cell).collect::<Vec<_>>());
        }
        t.to_string()
    }
}

/// A markup language's part in writing a table; the layout is shared
/// ([`Markup::table`]): Markdown and HTML.
pub trait Markup {
    /// What comes before the header.
    fn open(&self, _t: &Table) -> String {
        String::new()
    }
    /// The header, its cells already written.
    fn header(&self, t: &Table, cells: &[String]) -> String;
    /// A row, its cells already written.
    fn row(&self, attrs: &Attrs, cells: &[String]) -> String;
    /// What comes after the last row.
    fn close(&self) -> String {
        String::new()
    }
    /// A cell's text escaped, with its tone marked; `header` in the header.
    fn cell(&self, c: &Cell, header: bool) -> String;

    /// The whole table.
    fn table(&self, t: &Table) -> String {
        let cells = |cells: &[Cell], header| -> Vec<String> {
            cells.iter().map(|c| self.cell(c, header)).collect()
        };
        let mut out = self.open(t);
        out.push_str(&self.header(t, &cells(&t.header, true)));
        for r in &t.rows {
            out.push_str(&self.row(&r.attrs, &cells(&r.cells, false)));
        }
        out.push_str(&self.close());
        out
    }
}

/// GitHub-flavoured Markdown tables, a line each, each line ending in `\n`:
/// `| a | b |` (an empty cell `| |`) under `|---|---:|`.
pub struct Markdown;

impl Markup for Markdown {
    /// The header's line and the line under it saying each column's
    /// alignment.
    fn header(&self, t: &Table, cells: &[String]) -> String {
        let divider: String = t
            .header
            .iter()
            .map(|c| match c.align {
                Align::Left => "---|",
                Align::Right => "---:|",
            })
            .collect();
        format!("{}|{divider}\n", self.row(&Attrs::new(), cells))
    }

    fn row(&self, _attrs: &Attrs, cells: &[String]) -> String {
        let mut out = String::from("|");
        for c in cells {
            match c.is_empty() {
                true => out.push_str(" |"),
                false => out.push_str(&format!(" {c} |")),
            }
        }
        out.push('\n');
        out
    }

    /// The text escaped (or its parts, each value in bold where its tone
    /// is), the whole cell in bold where its tone is.
    fn cell(&self, c: &Cell, _header: bool) -> String {
        let text = match c.parts.is_empty() {
            true => escape(&c.text),
            false => parts_markdown(&c.parts),
        };
        match bold(c.tone) {
            true => format!("**{text}**"),
            false => text,
        }
    }
}

/// Whether Markdown writes a tone in bold: the best, the tied and a
/// failing verdict.
fn bold(tone: Tone) -> bool {
    matches!(tone, Tone::Best | Tone::Bad | Tone::Tied)
}

/// Inline parts as Markdown: text escaped, a toned span or `<strong>` in
/// bold, `<code>` as a code span, any other element its content alone.
fn parts_markdown(parts: &[Inline]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Inline::Text(text) => escape(text),
            Inline::Element { tag, class, parts } => {
                let inner = parts_markdown(parts);
                let toned = matches!(class, Some("best" | "tied"));
                match *tag {
                    _ if toned || *tag == "strong" => format!("**{inner}**"),
                    "code" => format!("`{inner}`"),
                    _ => inner,
                }
            }
        })
        .collect()
}

/// HTML tables as the report pages draw them: a `<thead>` row, a
/// `<tbody>` with a line per row, no newline after `</table>` (the
/// template places the table). Right-aligned cells are class `v`, a
/// tone its class (`best`, `tied`), as the pages' stylesheets expect.
pub struct Html;

impl Markup for Html {
    // A wide table scrolls inside its own wrapper (`.scroll`), so a phone
    // screen scrolls the table, not the page, and nothing is cut off.
    fn open(&self, t: &Table) -> String {
        format!("<div class=\"scroll\"><table{}>\n", attributes(&t.attrs))
    }

    fn header(&self, _t: &Table, cells: &[String]) -> String {
        format!("<thead><tr>{}</tr></thead>\n<tbody>\n", cells.concat())
    }

    fn row(&self, attrs: &Attrs, cells: &[String]) -> String {
        format!("<tr{}>{}</tr>\n", attributes(attrs), cells.concat())
    }

    fn close(&self) -> String {
        "</tbody>\n</table></div>".into()
    }

    fn cell(&self, c: &Cell, header: bool) -> String {
        let tag = if header || c.head { "th" } else { "td" };
        let mut attrs = Attrs::new();
        if c.head && !header {
            attrs.push(("scope", "row".into()));
        }
        if c.span > 1 {
            attrs.push(("colspan", c.span.to_string()));
        }
        let align = (c.align == Align::Right).then_some("v");
        let classes: Vec<&str> = [align, c.class, tone_class(c.tone)]
            .into_iter()
            .flatten()
            .collect();
        if !classes.is_empty() {
            attrs.push(("class", classes.join(" ")));
        }
        attrs.extend(c.attrs.iter().cloned());
        let body = if c.parts.is_empty() {
            html_escape(&c.text)
        } else {
            parts_html(&c.parts)
        };
        format!("<{tag}{}>{body}</{tag}>", attributes(&attrs))
    }
}

/// The stylesheet's class of a tone, where it has one.
fn tone_class(tone: Tone) -> Option<&'static str> {
    match tone {
        Tone::Best => Some("best"),
        Tone::Tied => Some("tied"),
        Tone::Plain | Tone::Bad | Tone::Good => None,
    }
}

fn attributes(attrs: &Attrs) -> String {
    attrs
        .iter()
        .map(|(name, value)| format!(" {name}=\"{}\"", html_escape(value)))
        .collect()
}

fn parts_html(parts: &[Inline]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Inline::Text(text) => html_escape(text),
            Inline::Element { tag, class, parts } => {
                let class = class.map_or(String::new(), |c| format!(" class=\"{c}\""));
                format!("<{tag}{class}>{}</{tag}>", parts_html(parts))
            }
        })
        .collect()
}

/// The one HTML escaper, the templates' own (minijinja's, which escapes
/// `/` and `'` too), so a table written here reads as the template
/// would have written it.
pub fn html_escape(s: &str) -> String {
    minijinja::HtmlEscape(s).to_string()
}

/// The one XML escaper (JUnit reports, SVG charts): text as character
/// data or a quoted attribute value. Control characters XML 1.0 cannot
/// hold (all below U+0020 but tab and line breaks) are dropped: a config
/// named with an escape sequence must not make the file unreadable.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// The one Markdown escaper: text as one table cell ([`markdown_text`]);
/// a line break would end the row, so it becomes `<br>`, which GitHub and
/// GitLab draw as a break inside the cell.
pub fn escape(s: &str) -> String {
    let text = markdown_text(s);
    if text.contains('\n') {
        text.replace('\n', "<br>")
    } else {
        text
    }
}

/// Characters Markdown reads as syntax that [`markdown_text`] escapes
/// with a backslash: links and images (`[`, `]`; `(`, `)` and `!` make
/// neither without them, and are left as they read), emphasis (`*`, `_`),
/// code (`` ` ``), strikethrough (`~`), a cell's end (`|`) and the
/// backslash itself, which would otherwise undo an escape. (A `_` inside
/// a word is left: it emphasises nothing.)
const MARKDOWN_SYNTAX: [char; 8] = ['\\', '`', '*', '_', '[', ']', '|', '~'];

/// Text for Markdown: what came from files (labels, job names, paths,
/// reasons) is never markup. Markdown passes HTML through, so `&`, `<`
/// and `>` are entities (a config named `<img src=x onerror=...>` is
/// text, not an element, and `<http://...>` no link); Markdown's own
/// syntax ([`MARKDOWN_SYNTAX`]) is backslash-escaped, so `[x](javascript:...)`
/// or `![i](http://evil/i.png)` is text, not a link or a remote image.
pub fn markdown_text(s: &str) -> String {
    if !s.contains(['&', '<', '>']) && !s.contains(MARKDOWN_SYNTAX) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut before = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        // `_` between letters or digits starts no emphasis (CommonMark's
        // flanking rule): `io_uring`, `randread_4k` stay as they read.
        let inside_word = c == '_'
            && before.is_some_and(char::is_alphanumeric)
            && chars.peek().is_some_and(|n| n.is_alphanumeric());
        before = Some(c);
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if MARKDOWN_SYNTAX.contains(&c) && !inside_word => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The one terminal escaper: every control character but line breaks and
/// tabs shown as `\x1b` (C1 ones as `\u{9b}`), so a folder named with
/// ESC or OSC sequences cannot retitle, recolour or rewrite the
/// terminal. With `keep_sgr`, colour sequences (`ESC [ ... m`) stay:
/// those are nvcmp's own, its tables' colours (names are escaped before
/// they reach a table, so none of them is a name's).
pub fn terminal_text(s: &str, keep_sgr: bool) -> std::borrow::Cow<'_, str> {
    let risky = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !s.contains(risky) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}' && keep_sgr {
            let sgr = rest[1..].strip_prefix('[').and_then(|r| {
                let end = r.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
                (r[end..].starts_with('m')).then_some(end + 3)
            });
            if let Some(len) = sgr {
                out.push_str(&rest[..len]);
                rest = &rest[len..];
                continue;
            }
        }
        if risky(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out.into()
}

/// `c` as nvcmp shows a character it will not print: `\x01` below 0x80,
/// else `\u{9b}` (the terminal's and the charts' one spelling).
pub fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let _ = if (c as u32) < 0x80 {
        write!(out, "\\x{:02x}", c as u32)
    } else {
        write!(out, "\\u{{{:x}}}", c as u32)
    };
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
            "| config | IOPS |\n|---|---:|\n| a\\|b | **1,000** |\n| two<br>lines | 9 |\n"
        );
        assert_eq!(escape(r"C:\x|y"), r"C:\\x\|y");
        assert_eq!(
            escape("<img src=x onerror=alert(1)>|a&b"),
            "&lt;img src=x onerror=alert(1)&gt;\\|a&amp;b"
        );
    }

    #[test]
    fn html_escapes_text_and_attributes_and_keeps_pipes() {
        let mut t =
            Table::new([Cell::new("config").attr("scope", "col")]).attr("class", "sortable");
        t.row_with(
            vec![("data-config", "a\"b".into())],
            [Cell::new("<x> & \"y\" | z").head()],
        );
        assert_eq!(
            Html.table(&t),
            "<div class=\"scroll\"><table class=\"sortable\">\n<thead><tr><th scope=\"col\">config</th></tr></thead>\n<tbody>\n\
             <tr data-config=\"a&quot;b\"><th scope=\"row\">&lt;x&gt; &amp; &quot;y&quot; | z</th></tr>\n\
             </tbody>\n</table></div>"
        );
    }

    #[test]
    fn html_marks_winners_ties_and_numbers_with_the_stylesheets_classes() {
        let best = Cell::right("1,000").tone(Tone::Best).parts(vec![
            Inline::text("1,000"),
            Inline::span("delta", vec![Inline::text("+5 %")]),
        ]);
        assert_eq!(
            Html.cell(&best, false),
            "<td class=\"v best\">1,000<span class=\"delta\">+5 %</span></td>"
        );
        assert_eq!(
            Html.cell(&Cell::right("9").tone(Tone::Tied), false),
            "<td class=\"v tied\">9</td>"
        );
        let sweep = Cell::new("x")
            .class("sw")
            .attr("data-config", "c")
            .span(2)
            .parts(vec![
                Inline::toned("7", Tone::Tied),
                Inline::toned("8", Tone::Plain),
                Inline::tag("code", "a/b"),
            ]);
        assert_eq!(
            Html.cell(&sweep, false),
            "<td colspan=\"2\" class=\"sw\" data-config=\"c\"><span class=\"tied\">7</span>8<code>a&#x2f;b</code></td>"
        );
        // A header cell is a th, never a row's label.
        assert_eq!(Html.cell(&Cell::new("h").head(), true), "<th>h</th>");
    }

    #[test]
    fn control_characters_reach_no_terminal() {
        let osc = "cfg\u{1b}]0;pwned\u{7}\u{9b}31m";
        assert_eq!(terminal_text(osc, false), "cfg\\x1b]0;pwned\\x07\\u{9b}31m");
        assert_eq!(terminal_text("a\tb\nc", false), "a\tb\nc");
        // nvcmp's own colours stay when asked; anything else is escaped.
        let ours = "\u{1b}[1;31mbad\u{1b}[0m \u{1b}]8;;x";
        assert_eq!(
            terminal_text(ours, true),
            "\u{1b}[1;31mbad\u{1b}[0m \\x1b]8;;x"
        );
        let mut t = Table::new([Cell::new("config")]);
        t.row([Cell::new(osc)]);
        assert!(!t.terminal(false).contains('\u{1b}'));
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
