//! Hover targets of SVG charts: while a chart draws, its kinds note where
//! each bar, point and legend entry is, which config it belongs to and
//! its exact value; [`overlay`] then appends one transparent shape per
//! target to the SVG, with a `<title>` (the browser's tooltip) and a
//! `data-config` attribute that report.html's script hides configs by.
//!
//! The targets go to a per-thread sink instead of a parameter so that no
//! chart kind's `draw` signature changes for it: a kind calls [`record`]
//! where it knows a target, and only [`collect`] (around one chart's
//! drawing, which runs on one thread) turns the sink on. Outside it
//! (PNG output) [`record`] does nothing.

use std::cell::RefCell;
use std::fmt::Write;

use plotters::style::RGBColor;

use crate::render::table::xml_escape as escape;

/// Where a target is, in pixels of the whole image.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum HotspotShape {
    /// Corners of a box (a bar with its value label, a legend entry).
    Rect((i32, i32), (i32, i32)),
    /// A line through points, `width` pixels thick.
    Path(Vec<(i32, i32)>, u32),
    /// A dot of radius `r`.
    Dot((i32, i32), u32),
}

/// Whom a target belongs to: a config by name, or by its colour when the
/// drawing code knows only that (lines); [`overlay`] then names it from
/// the legend drawn in the same chart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Owner {
    Config(String),
    Color(RGBColor),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hotspot {
    pub shape: HotspotShape,
    pub owner: Owner,
    /// Tooltip: config, category and the exact value with its unit.
    pub title: String,
    /// A legend entry (its colour names the config of [`Owner::Color`]
    /// targets).
    pub legend: Option<RGBColor>,
}

thread_local! {
    static SINK: RefCell<Option<Vec<Hotspot>>> = const { RefCell::new(None) };
}

/// Notes a target when a [`collect`] is running on this thread.
pub(crate) fn record(spot: Hotspot) {
    SINK.with(|s| {
        if let Some(spots) = s.borrow_mut().as_mut() {
            spots.push(spot);
        }
    });
}

/// Runs `draw` and returns what it gave with the targets it recorded.
pub(crate) fn collect<R>(draw: impl FnOnce() -> R) -> (R, Vec<Hotspot>) {
    let outer = SINK.with(|s| s.replace(Some(Vec::new())));
    let out = draw();
    let spots = SINK.with(|s| s.replace(outer)).unwrap_or_default();
    (out, spots)
}

/// `svg` with one transparent shape per target appended before its
/// closing tag, in a `<g class="hotspots">`.
pub(crate) fn overlay(svg: &str, spots: &[Hotspot]) -> String {
    let Some(end) = svg.rfind("</svg>") else {
        return svg.to_string();
    };
    let mut out = String::with_capacity(svg.len() + spots.len() * 160);
    out.push_str(&svg[..end]);
    out.push_str("<g class=\"hotspots\">\n");
    for spot in spots {
        let (config, title) = match &spot.owner {
            Owner::Config(c) => (Some(c.as_str()), spot.title.clone()),
            // A line knows its colour only: its tooltip starts with the
            // config the legend names.
            Owner::Color(color) => {
                let config = config_of(*color, spots);
                let parts: Vec<&str> = [config.unwrap_or(""), spot.title.as_str()]
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect();
                (config, parts.join(" · "))
            }
        };
        shape_tag(&mut out, &spot.shape, spot.legend.is_some(), config, &title);
    }
    out.push_str("</g>\n");
    out.push_str(&svg[end..]);
    out
}

/// The config whose legend entry has `color`, unless two share it
/// (palettes repeat past eight configs).
fn config_of(color: RGBColor, spots: &[Hotspot]) -> Option<&str> {
    let mut named = spots.iter().filter_map(|s| match (&s.owner, s.legend) {
        (Owner::Config(c), Some(l)) if l == color => Some(c.as_str()),
        _ => None,
    });
    let first = named.next()?;
    named.next().is_none().then_some(first)
}

fn shape_tag(
    out: &mut String,
    shape: &HotspotShape,
    legend: bool,
    config: Option<&str>,
    title: &str,
) {
    // Painted (fill or stroke not `none`) but invisible, so the pointer
    // finds it; report.html's CSS makes it opaque to mask a hidden config.
    let mut attrs = String::from("class=\"hs");
    if legend {
        attrs.push_str(" legend");
    }
    attrs.push('"');
    if let Some(c) = config {
        let _ = write!(attrs, " data-config=\"{}\"", escape(c));
    }
    let paint = "fill=\"#FFFFFF\" fill-opacity=\"0\"";
    let _ = match shape {
        HotspotShape::Rect((x0, y0), (x1, y1)) => write!(
            out,
            "<rect {attrs} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {paint}>",
            x0.min(x1),
            y0.min(y1),
            (x1 - x0).abs(),
            (y1 - y0).abs()
        ),
        HotspotShape::Dot((x, y), r) => write!(
            out,
            "<circle {attrs} cx=\"{x}\" cy=\"{y}\" r=\"{r}\" {paint}>"
        ),
        HotspotShape::Path(points, width) => {
            let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
            write!(
                out,
                "<polyline {attrs} points=\"{}\" fill=\"none\" stroke=\"#FFFFFF\" \
                 stroke-opacity=\"0\" stroke-width=\"{width}\" stroke-linecap=\"round\" \
                 stroke-linejoin=\"round\">",
                pts.join(" ")
            )
        }
    };
    let _ = writeln!(out, "<title>{}</title></{}>", escape(title), tag(shape));
}

fn tag(shape: &HotspotShape) -> &'static str {
    match shape {
        HotspotShape::Rect(..) => "rect",
        HotspotShape::Dot(..) => "circle",
        HotspotShape::Path(..) => "polyline",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(config: &str, title: &str) -> Hotspot {
        Hotspot {
            shape: HotspotShape::Rect((10, 50), (30, 90)),
            owner: Owner::Config(config.into()),
            title: title.into(),
            legend: None,
        }
    }

    #[test]
    fn record_outside_collect_is_dropped() {
        record(bar("a", "x"));
        let ((), spots) = collect(|| record(bar("b", "y")));
        assert_eq!(spots, vec![bar("b", "y")]);
        let ((), spots) = collect(|| ());
        assert!(spots.is_empty(), "a collect starts empty");
    }

    #[test]
    fn overlay_escapes_and_names_lines_by_legend_colour() {
        let blue = RGBColor(0, 0, 255);
        let legend = Hotspot {
            shape: HotspotShape::Rect((0, 0), (20, 10)),
            owner: Owner::Config("a&\"b".into()),
            title: "a&\"b".into(),
            legend: Some(blue),
        };
        let line = Hotspot {
            shape: HotspotShape::Path(vec![(1, 2), (3, 4)], 6),
            owner: Owner::Color(blue),
            title: "<x>".into(),
            legend: None,
        };
        let svg = overlay("<svg><rect/></svg>\n", &[legend, line]);
        assert!(
            svg.starts_with("<svg><rect/><g class=\"hotspots\">"),
            "{svg}"
        );
        assert!(svg.ends_with("</g>\n</svg>\n"), "{svg}");
        assert_eq!(
            svg.matches("data-config=\"a&amp;&quot;b\"").count(),
            2,
            "{svg}"
        );
        assert!(svg.contains("points=\"1,2 3,4\""), "{svg}");
        assert!(
            svg.contains("<title>a&amp;&quot;b · &lt;x&gt;</title></polyline>"),
            "{svg}"
        );
        assert!(svg.contains("class=\"hs legend\""), "{svg}");
    }

    #[test]
    fn shared_legend_colour_names_no_config() {
        let c = RGBColor(1, 2, 3);
        let entry = |name: &str| Hotspot {
            legend: Some(c),
            ..bar(name, name)
        };
        let dot = Hotspot {
            shape: HotspotShape::Dot((5, 5), 4),
            owner: Owner::Color(c),
            title: "p".into(),
            legend: None,
        };
        let svg = overlay("<svg></svg>", &[entry("a"), entry("b"), dot]);
        assert!(svg.contains("<circle class=\"hs\" cx=\"5\""), "{svg}");
        assert!(svg.contains("<title>p</title>"), "{svg}");
    }
}
