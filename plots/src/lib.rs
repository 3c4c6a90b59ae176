//! PNG charts of gtsim results.
//!
//! This crate owns the pictures a researcher looks at: line charts of measured figures against
//! a swept parameter (overheads, speedup, … against the processor count, with the model's
//! estimates beside them), grids of such charts, and per-processor timelines that show where
//! every processor's time went. It reads only `sim-core`'s statistics types; the experiment
//! runner calls it, never the reverse.
//!
//! - [`LineChart`] of [`Series`] → [`line_chart`] (one 1024×720 chart) or [`panels`] (a grid).
//! - [`TimelineRow`]s of [`sim_core::Interval`]s and [`sim_core::Marker`]s → [`timeline`].
//! - [`Fig7`]: the paper's Fig. 7 (overheads against f), each simulated [`Overhead`] curve
//!   beside the published points in its colour, and the f/2w model → [`fig7`].
//! - Every failure is a [`PlotError`] that names the file.
//!
//! Text is set in DejaVu Sans, bundled with the crate and registered once per process, so no
//! system font library is needed. Every image is drawn into a temporary sibling file
//! (`.name.png.<pid>.tmp.png`) and renamed onto its path when complete; a failed draw removes
//! the temporary file. Images are always PNG, whatever the path's extension.
//!
//! Empty data is not an error: a chart without points draws its axes with the note "no data",
//! a timeline without rows notes "no processors". Points with a non-finite coordinate are
//! skipped.
//!
//! ```no_run
//! use std::path::Path;
//! use plots::{line_chart, LineChart, LineStyle, Series};
//!
//! let measured = Series {
//!     label: "time overhead".into(),
//!     points: vec![(1.0, 0.0), (2.0, 18.0), (3.0, 31.0), (4.0, 44.0)],
//!     style: LineStyle::Solid,
//!     color: 0,
//!     errors: Some(vec![0.0, 2.1, 2.7, 3.0]),
//!     markers: true,
//! };
//! let model = Series {
//!     label: "f/2(w+1) estimate".into(),
//!     points: vec![(1.0, 0.0), (2.0, 20.0), (3.0, 33.0), (4.0, 43.0)],
//!     style: LineStyle::Dashed,
//!     color: 1,
//!     ..Series::default()
//! };
//! let chart = LineChart {
//!     title: "Overheads".into(),
//!     x_label: "processors".into(),
//!     y_label: "overhead (%)".into(),
//!     series: vec![measured, model],
//!     integer_x: true,
//!     log2_x: false,
//! };
//! line_chart(Path::new("out/overheads.png"), &chart)?;
//! # Ok::<(), plots::PlotError>(())
//! ```

#![warn(missing_docs)]

use std::path::PathBuf;

mod bars;
mod fig7;
mod font;
mod legend;
mod line;
mod output;
mod palette;
mod tag;
mod ticks;
mod timeline;

pub use bars::{stacked_bar_chart, BarChart, Segment};
pub use fig7::{fig7, Curve, Fig7, Overhead};
pub use line::{
    line_chart, log_log_chart, log_log_panels, panels, panels_one_legend, LineChart, LineStyle,
    Series,
};
pub use palette::{category_color, PALETTE};
pub use tag::{png_text, tag_png};
pub use timeline::{timeline, TimelineRow};

/// Why a chart could not be produced. Every variant that concerns a file names it.
#[derive(thiserror::Error, Debug)]
pub enum PlotError {
    /// The bundled font could not be loaded (a broken build, not bad input).
    #[error("cannot load the bundled DejaVu Sans font")]
    Font,
    /// The output path has no file name (e.g. it ends in `..`).
    #[error("{}: not a file path", path.display())]
    InvalidPath {
        /// The path given.
        path: PathBuf,
    },
    /// A series is inconsistent (e.g. its error list does not match its points).
    #[error("{}: chart {chart:?}, series {series:?}: {message}", path.display())]
    InvalidSeries {
        /// The image file that was to be written.
        path: PathBuf,
        /// The chart's title.
        chart: String,
        /// The series' label.
        series: String,
        /// What is wrong with it.
        message: String,
    },
    /// plotters failed while drawing.
    #[error("{}: drawing failed: {message}", path.display())]
    Draw {
        /// The image file that was to be written.
        path: PathBuf,
        /// What went wrong while drawing, as text.
        message: String,
    },
    /// The image could not be encoded or written (e.g. the folder does not exist).
    #[error("{}: cannot write the image: {message}", path.display())]
    Write {
        /// The image file that was to be written.
        path: PathBuf,
        /// The encoder's or file system's error, as text.
        message: String,
    },
    /// The finished image could not be moved onto its path.
    #[error("{}: cannot move the finished image into place: {source}", path.display())]
    Io {
        /// The image's final path.
        path: PathBuf,
        /// The rename's error.
        #[source]
        source: std::io::Error,
    },
}
