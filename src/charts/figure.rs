//! What a chart kind builds from the comparison: the frame and what goes
//! inside it. Kinds only describe; drawing a figure is the same for all of
//! them, so it lives here once.

use super::canvas::{Area, Canvas};
use super::frame::{Frame, Sizes};
use super::grouped::Panel;
use super::heatgrid::HeatGrid;
use super::lines::LinePlot;

pub(crate) struct Figure {
    pub frame: Frame,
    pub body: Body,
}

pub(crate) enum Body {
    /// Grouped bar panels side by side (one for most charts).
    Panels(Vec<Panel>),
    Lines(LinePlot),
    /// Line plots one above the other, sharing the x axis' range.
    Stack(Vec<LinePlot>),
    Heat(HeatGrid),
}

impl Figure {
    /// A single line plot in `frame`.
    pub fn lines(frame: Frame, plot: LinePlot) -> Figure {
        Figure {
            frame,
            body: Body::Lines(plot),
        }
    }

    pub fn draw<DB: Canvas>(&self, root: &Area<DB>) -> anyhow::Result<()> {
        let plot = self.frame.draw(root)?;
        let sz = Sizes::of(root);
        match &self.body {
            Body::Panels(panels) => {
                let parts = plot.split_evenly((1, panels.len().max(1)));
                for (panel, area) in panels.iter().zip(&parts) {
                    panel.draw(area, sz)?;
                }
                Ok(())
            }
            Body::Lines(lines) => lines.draw(&plot, sz),
            Body::Stack(plots) => {
                let parts = plot.split_evenly((plots.len().max(1), 1));
                for (p, area) in plots.iter().zip(&parts) {
                    p.draw(area, sz)?;
                }
                Ok(())
            }
            Body::Heat(grid) => grid.draw(&plot, sz),
        }
    }
}
