//! What every chart element draws on: a plotters backend and the part of
//! the image it is given. Apart from [`super::figure`], so the panel kinds
//! the figure places and the frame import it downward.

use plotters::coord::Shift;
use plotters::prelude::*;

/// A plotters backend whose errors outlive the call, so `?` can turn them
/// into `anyhow` errors: every backend nvcmp draws on (SVG, bitmap) is one.
/// Naming the bound once keeps it out of every drawing function's
/// signature.
pub(crate) trait Canvas: DrawingBackend<ErrorType: 'static> {}

impl<DB: DrawingBackend<ErrorType: 'static>> Canvas for DB {}

/// The part of an image a chart element draws into.
pub(crate) type Area<DB> = DrawingArea<DB, Shift>;
