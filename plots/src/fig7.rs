//! Fig. 7 of Marsland & Popowich (1985), "Average overheads for 5-ply searches": search,
//! communication and time overhead against the processor count f, with the f/2w estimate of
//! synchronization overhead (eq. 14) — here with the simulated curves and the paper's points
//! side by side.

use std::path::Path;

use crate::legend::{Mark, MarkKind};
use crate::line::{self, Drawing, LineChart, LineStyle, Look, Series, CHART_SIZE, FULL};
use crate::{output, PlotError};

/// A labelled list of `(x, y)` points (y in percent for [`Fig7`]). Points with a non-finite
/// coordinate are skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// The legend text.
    pub label: String,
    /// `(x, y)` points, joined in the given order when drawn as a line.
    pub points: Vec<(f64, f64)>,
}

/// One overhead of [`Fig7`]: the simulated curve and the published points, in one colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overhead {
    /// Drawn as a solid line with a small dot at every point.
    pub simulated: Curve,
    /// Drawn as large hollow markers only (no line), one shape per overhead. Without points
    /// (the paper does not give this overhead) nothing is drawn and the legend omits it. Every
    /// overhead is zero at f = 1 by definition (eqs. 10-12): leaving f = 1 out keeps the
    /// markers from piling up on the curves' common start.
    pub published: Curve,
}

/// The content of a Fig. 7 chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fig7 {
    /// The heading above the plot area.
    pub title: String,
    /// The x axis's label (e.g. "processors f").
    pub x_label: String,
    /// The y axis's label; its tick labels carry a `%` already.
    pub y_label: String,
    /// The overheads, in legend order; the k-th gets palette colour k and published marker
    /// shape k + 1 (square, triangle, diamond, inverted triangle, circle).
    pub overheads: Vec<Overhead>,
    /// The model estimate (the paper's f/2w), drawn as a dashed near-black line; none when
    /// it has no points.
    pub model: Curve,
    /// A remark printed small under the legend (e.g. a misprint in the published figures);
    /// empty for none.
    pub note: String,
}

/// The palette entry of the model line: near-black, apart from every overhead's colour.
const MODEL_COLOR: usize = 6;

/// Draws Fig. 7 as a 1024×720 PNG at `path` (written atomically, like [`crate::line_chart`]):
/// y in percent on an axis from zero, x on whole numbers, the legend and the note under the
/// plot (never over data); the legend is a table, one row per overhead (simulated, then
/// published) and a last row for the model.
///
/// Without any finite point the image still holds the axes and the note "no data".
///
/// # Errors
/// As [`crate::line_chart`]: drawing or writing fails (e.g. the folder does not exist).
///
/// ```no_run
/// use std::path::Path;
/// use plots::{fig7, Curve, Fig7, Overhead};
///
/// let f = [1.0, 2.0, 3.0, 4.0];
/// let curve = |label: &str, ys: [f64; 4]| Curve {
///     label: label.into(),
///     points: f.iter().copied().zip(ys).collect(),
/// };
/// let fig = Fig7 {
///     title: "Average overheads for 5-ply searches".into(),
///     x_label: "processors f".into(),
///     y_label: "overhead".into(),
///     overheads: vec![Overhead {
///         simulated: curve("search overhead, simulated", [0.0, 4.9, 7.0, 8.1]),
///         published: curve("search overhead, paper", [0.0, 5.3, 7.4, 7.3]),
///     }],
///     model: curve("f/2w, w = 34", f.map(|f| 100.0 * f / 68.0)),
///     note: String::new(),
/// };
/// fig7(Path::new("out/fig7.png"), &fig)?;
/// # Ok::<(), plots::PlotError>(())
/// ```
pub fn fig7(path: &Path, fig: &Fig7) -> Result<(), PlotError> {
    let (chart, drawing) = layout(fig);
    line::validate(path, &chart)?;
    output::write_png(path, CHART_SIZE, |root| {
        line::draw_chart(root, &chart, &drawing, &FULL, 0)
    })
}

/// Fig. 7 as a line chart and how to draw it.
fn layout(fig: &Fig7) -> (LineChart, Drawing) {
    let mut series = Vec::new();
    let mut looks = Vec::new();
    let mut cells = Vec::new();
    let has_points = |c: &Curve| c.points.iter().any(|(x, y)| x.is_finite() && y.is_finite());
    let mut push = |curve: &Curve, color: usize, look: Look, cell: (usize, usize)| {
        if has_points(curve) {
            series.push(Series {
                label: curve.label.clone(),
                points: curve.points.clone(),
                style: look.line.unwrap_or_default(),
                color,
                errors: None,
                markers: look.marker.is_some(),
            });
            looks.push(look);
            cells.push(cell);
        }
    };
    for (k, o) in fig.overheads.iter().enumerate() {
        // Palette colour k, skipping the model's near-black.
        let color = if k >= MODEL_COLOR { k + 1 } else { k };
        let simulated = Look {
            line: Some(LineStyle::Solid),
            marker: Some(Mark {
                shape: 0,
                kind: MarkKind::Dot,
            }),
        };
        let published = Look {
            line: None,
            marker: Some(Mark {
                shape: k + 1,
                kind: MarkKind::Large,
            }),
        };
        // Legend: a row per overhead, simulated in the first column, published in the second.
        push(&o.simulated, color, simulated, (k, 0));
        push(&o.published, color, published, (k, 1));
    }
    let model = Look {
        line: Some(LineStyle::Dashed),
        marker: None,
    };
    push(&fig.model, MODEL_COLOR, model, (fig.overheads.len(), 0));
    let chart = LineChart {
        title: fig.title.clone(),
        x_label: fig.x_label.clone(),
        y_label: fig.y_label.clone(),
        series,
        integer_x: true,
        log2_x: false,
    };
    let drawing = Drawing {
        looks,
        legend_cells: Some(cells),
        y_unit: " %",
        // Published points at zero (f = 1) are large markers: keep them off the x axis labels.
        y_from_zero: false,
        note: fig.note.clone(),
        log2_x: false,
        log2_y: false,
        own_legend: true,
    };
    (chart, drawing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(label: &str, ys: &[f64]) -> Curve {
        Curve {
            label: label.into(),
            points: ys
                .iter()
                .enumerate()
                .map(|(i, &y)| ((i + 1) as f64, y))
                .collect(),
        }
    }

    #[test]
    fn each_overhead_has_one_colour_and_the_published_points_no_line() {
        let fig = Fig7 {
            overheads: vec![
                Overhead {
                    simulated: curve("search sim", &[0.0, 5.0]),
                    published: curve("search paper", &[0.0, 5.3]),
                },
                Overhead {
                    simulated: curve("comm sim", &[0.0, 9.0]),
                    // The paper does not give it: no series, no legend entry.
                    published: curve("comm paper", &[f64::NAN]),
                },
            ],
            model: curve("f/2w", &[1.5, 2.9]),
            ..Fig7::default()
        };
        let (chart, drawing) = layout(&fig);
        let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["search sim", "search paper", "comm sim", "f/2w"]);
        let colors: Vec<usize> = chart.series.iter().map(|s| s.color).collect();
        assert_eq!(colors, [0, 0, 1, MODEL_COLOR]);
        assert_eq!(
            drawing.legend_cells,
            Some(vec![(0, 0), (0, 1), (1, 0), (2, 0)])
        );
        assert_eq!(drawing.looks[1].line, None);
        assert_eq!(
            drawing.looks[1].marker.map(|m| m.kind),
            Some(MarkKind::Large)
        );
        assert_eq!(drawing.looks[0].line, Some(LineStyle::Solid));
        assert_eq!(drawing.looks[3].line, Some(LineStyle::Dashed));
        assert_eq!(drawing.looks[3].marker, None);
    }

    #[test]
    fn colours_never_repeat_the_model_colour() {
        let fig = Fig7 {
            overheads: (0..8)
                .map(|i| Overhead {
                    simulated: curve(&format!("o{i}"), &[1.0]),
                    published: Curve::default(),
                })
                .collect(),
            model: curve("m", &[1.0]),
            ..Fig7::default()
        };
        let (chart, _) = layout(&fig);
        let model = chart.series.last().unwrap();
        assert_eq!(model.color, MODEL_COLOR);
        assert!(chart.series[..8].iter().all(|s| s.color != MODEL_COLOR));
    }
}
