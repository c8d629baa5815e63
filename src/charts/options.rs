//! How charts are written: the image format and the size, and the sizes
//! we can lay out.

/// Image format of the charts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChartFormat {
    #[default]
    Png,
    Svg,
}

impl ChartFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ChartFormat::Png => "png",
            ChartFormat::Svg => "svg",
        }
    }
}

/// How charts are written. Sizes are pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartOptions {
    pub format: ChartFormat,
    pub width: u32,
    pub height: u32,
}

impl Default for ChartOptions {
    /// 1600x900: a 16:9 figure that stays sharp in an article column.
    fn default() -> Self {
        ChartOptions {
            format: ChartFormat::Png,
            width: 1600,
            height: 900,
        }
    }
}

/// Smallest and largest sizes we lay out; outside them text cannot fit or
/// the bitmap would take gigabytes.
pub const MIN_SIZE: (u32, u32) = (480, 320);
pub const MAX_SIZE: (u32, u32) = (8000, 8000);

impl ChartOptions {
    /// The size as plotters takes it.
    pub(crate) fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// An error naming `--chart-size` when the size is outside
    /// [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub(crate) fn check_size(&self) -> anyhow::Result<()> {
        let ok = (MIN_SIZE.0..=MAX_SIZE.0).contains(&self.width)
            && (MIN_SIZE.1..=MAX_SIZE.1).contains(&self.height);
        anyhow::ensure!(
            ok,
            "chart size {}x{} is outside {}x{} to {}x{} (--chart-size)",
            self.width,
            self.height,
            MIN_SIZE.0,
            MIN_SIZE.1,
            MAX_SIZE.0,
            MAX_SIZE.1
        );
        Ok(())
    }
}
