//! `history show --format json`: serde_json's pretty layout down to the
//! series, then one line per run or change point.

/// serde_json's pretty layout down to the series, and each run (or
/// change point) of a series on one line: a history of 100,000 runs has
/// millions of points, and six indented lines each tripled the output.
#[derive(Default)]
pub(super) struct PointPerLine {
    pretty: serde_json::ser::PrettyFormatter<'static>,
    /// Objects and arrays open around the current value.
    depth: usize,
}

/// Depth of a point's object: report, series list, series, runs, point.
const POINT_DEPTH: usize = 5;

impl PointPerLine {
    fn flat(&self) -> bool {
        self.depth >= POINT_DEPTH
    }
}

/// Each call goes to the pretty formatter above a point's depth and to
/// the compact one from there on.
macro_rules! by_depth {
    ($($name:ident),*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            if self.flat() {
                serde_json::ser::CompactFormatter.$name(w)
            } else {
                self.pretty.$name(w)
            }
        }
    )*};
}

impl serde_json::ser::Formatter for PointPerLine {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_array(w)
        } else {
            self.pretty.begin_array(w)
        }
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let r = if self.flat() {
            serde_json::ser::CompactFormatter.end_array(w)
        } else {
            self.pretty.end_array(w)
        };
        self.depth -= 1;
        r
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_object(w)
        } else {
            self.pretty.begin_object(w)
        }
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let r = if self.flat() {
            serde_json::ser::CompactFormatter.end_object(w)
        } else {
            self.pretty.end_object(w)
        };
        self.depth -= 1;
        r
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_array_value(w, first)
        } else {
            self.pretty.begin_array_value(w, first)
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_object_key(w, first)
        } else {
            self.pretty.begin_object_key(w, first)
        }
    }

    by_depth!(end_array_value, begin_object_value, end_object_value);
}
