//! Charts for articles: PNG and SVG with plotters and an embedded font,
//! drawn from a [`crate::compare::Comparison`].
