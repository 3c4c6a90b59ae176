//! Atomic PNG output: draw into a temporary sibling file, then rename it onto the target, so a
//! reader never sees a half-written chart and a failed run leaves no stray file behind.

use std::fs;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{font, PlotError};

/// The drawing surface every chart draws on: the whole image, in pixels.
pub(crate) type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// A drawing failure inside plotters, as text (plotters' error types borrow the backend).
#[derive(Debug)]
pub(crate) struct DrawError(pub(crate) String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawError(e.to_string())
    }
}

/// The temporary file next to `path`. Its name still ends in `.png` because the bitmap backend
/// picks the image format from the extension.
fn temp_sibling(path: &Path) -> Result<PathBuf, PlotError> {
    let name = path.file_name().ok_or_else(|| PlotError::InvalidPath {
        path: path.to_path_buf(),
    })?;
    let tmp_name = format!(".{}.{}.tmp.png", name.to_string_lossy(), std::process::id());
    Ok(path.with_file_name(tmp_name))
}

/// Draws a `size` image with `draw` (on a white background) and writes it to `path` atomically.
pub(crate) fn write_png(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> Result<(), DrawError>,
) -> Result<(), PlotError> {
    font::ensure_registered()?;
    let tmp = temp_sibling(path)?;
    let outcome = render(&tmp, size, draw);
    // The backend is dropped by now; it writes the file on drop even after a failure, so the
    // temporary file is removed only after that.
    let result = match outcome {
        Ok(()) => fs::rename(&tmp, path).map_err(|source| PlotError::Io {
            path: path.to_path_buf(),
            source,
        }),
        Err(e) => Err(e.into_plot_error(path)),
    };
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

enum RenderError {
    Draw(DrawError),
    Write(String),
}

impl RenderError {
    fn into_plot_error(self, path: &Path) -> PlotError {
        match self {
            RenderError::Draw(DrawError(message)) => PlotError::Draw {
                path: path.to_path_buf(),
                message,
            },
            RenderError::Write(message) => PlotError::Write {
                path: path.to_path_buf(),
                message,
            },
        }
    }
}

fn render(
    tmp: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> Result<(), DrawError>,
) -> Result<(), RenderError> {
    let root = BitMapBackend::new(tmp, size).into_drawing_area();
    root.fill(&WHITE)
        .map_err(|e| RenderError::Draw(DrawError::from(e)))?;
    draw(&root).map_err(RenderError::Draw)?;
    root.present()
        .map_err(|e| RenderError::Write(e.to_string()))
}
