//! Line charts (overheads, speedup, … against processors or another swept parameter), alone or
//! as a grid of panels.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::legend::{marker_outline, Entry, Glyph, Legend, Mark, MarkKind};
use crate::output::{self, Area, DrawError};
use crate::palette::{self, AXIS, GRID, MUTED_TEXT, TEXT};
use crate::ticks::{padded_range, Axis};
use crate::{font, PlotError};

/// How a series' line is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineStyle {
    /// A continuous line (measurements).
    #[default]
    Solid,
    /// A dashed line (model estimates, published figures).
    Dashed,
}

/// One line of a chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// The legend text.
    pub label: String,
    /// `(x, y)` points, joined in the given order. Points with a non-finite coordinate are
    /// skipped.
    pub points: Vec<(f64, f64)>,
    /// Solid for measurements, dashed for model estimates and published figures.
    pub style: LineStyle,
    /// Index into the fixed palette [`PALETTE`](crate::PALETTE) (wraps around).
    pub color: usize,
    /// Optional ± error (e.g. standard error) per point, drawn as a vertical bar with caps; must
    /// have the same length as `points`. A non-finite error draws no bar; the sign is ignored.
    pub errors: Option<Vec<f64>>,
    /// Draw a marker at every point. Each series with markers in a chart gets its own hollow
    /// shape (circle, square, triangle, diamond, inverted triangle, plus, cross, star, in
    /// turn), also in the legend, so that series whose points coincide stay visible.
    pub markers: bool,
}

/// A chart of one or more series against a common x axis.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineChart {
    /// The heading above the plot area.
    pub title: String,
    /// The x axis's label, with its unit (e.g. "processors").
    pub x_label: String,
    /// The y axis's label, with its unit.
    pub y_label: String,
    /// The lines, drawn and listed in the legend in this order.
    pub series: Vec<Series>,
    /// Ticks on whole numbers only (e.g. a processor count).
    pub integer_x: bool,
    /// The x axis logarithmic, base 2, ticks at powers of two (the y axis stays linear): for
    /// processors from 1 to 64 or 1,024, where each doubling of the machine is the same step.
    /// Points with x ≤ 0 cannot be placed and are skipped. [`log_log_chart`] ignores it.
    pub log2_x: bool,
}

/// Text and stroke sizes for one scale of chart.
pub(crate) struct Scale {
    title: f64,
    desc: f64,
    tick: f64,
    legend: f64,
    line: u32,
    /// Stroke of error bars and their caps.
    bar: u32,
    marker: i32,
    cap: i32,
    dash: (i32, i32),
    pad: u32,
    /// Pixels per tick, roughly.
    tick_spacing: (u32, u32),
}

pub(crate) const FULL: Scale = Scale {
    title: 24.0,
    desc: 18.0,
    tick: 15.0,
    legend: 15.0,
    line: 3,
    bar: 2,
    marker: 4,
    cap: 5,
    dash: (11, 7),
    pad: 14,
    tick_spacing: (90, 55),
};

const PANEL: Scale = Scale {
    title: 17.0,
    desc: 14.0,
    tick: 12.0,
    legend: 12.0,
    line: 2,
    bar: 1,
    marker: 3,
    cap: 4,
    dash: (9, 6),
    pad: 10,
    tick_spacing: (75, 45),
};

/// Length of tick marks in pixels (plotters' default shrinks them on small plots, and labels
/// then touch the axis).
pub(crate) const TICK_MARK: i32 = 5;

/// Size of a single chart.
pub(crate) const CHART_SIZE: (u32, u32) = (1024, 720);
/// Size of one panel in [`panels`].
const PANEL_SIZE: (u32, u32) = (640, 440);

/// Draws one chart as a 1024×720 PNG at `path` (written atomically).
///
/// A chart without series, or whose series have no finite points, still gives a valid PNG: the
/// axes over 0..1 and the note "no data".
///
/// # Errors
/// [`PlotError::InvalidSeries`] when a series' `errors` length differs from its `points`; the
/// other variants when drawing or writing fails.
pub fn line_chart(path: &Path, chart: &LineChart) -> Result<(), PlotError> {
    validate(path, chart)?;
    let mut chart = as_drawn(chart);
    let drawing = Drawing::plain(&chart);
    note_hidden(&mut chart);
    output::write_png(path, CHART_SIZE, |root| {
        draw_chart(root, &chart, &drawing, &FULL, 0)
    })
}

/// Says in the legend when a series lies exactly under a later one (drawn over it): its label
/// gains "(same as …)", so that a line the reader cannot see is not taken for a missing one.
fn note_hidden(chart: &mut LineChart) {
    for group in coinciding(chart) {
        let over = chart.series[*group.last().expect("two or more")]
            .label
            .clone();
        for &i in &group[..group.len() - 1] {
            chart.series[i].label = format!("{} (same as {over})", chart.series[i].label);
        }
    }
}

/// The groups of series (indices in order, two or more each) whose drawn points are the same,
/// so that each is hidden under the last of its group.
fn coinciding(chart: &LineChart) -> Vec<Vec<usize>> {
    let xy = |s: &Series| -> Vec<(f64, f64)> {
        finite_points(s).iter().map(|&(x, y, _)| (x, y)).collect()
    };
    let shown: Vec<Vec<(f64, f64)>> = chart.series.iter().map(xy).collect();
    let mut grouped = vec![false; shown.len()];
    let mut groups = Vec::new();
    for i in 0..shown.len() {
        if grouped[i] || shown[i].is_empty() {
            continue;
        }
        let group: Vec<usize> = (i..shown.len()).filter(|&j| shown[j] == shown[i]).collect();
        if group.len() > 1 {
            group.iter().for_each(|&j| grouped[j] = true);
            groups.push(group);
        }
    }
    groups
}

/// The marker shapes as text, in [`crate::legend::marker_outline`]'s order.
const SHAPE_TEXT: [&str; crate::legend::MARKER_SHAPES] = ["○", "□", "△", "◇", "▽", "+", "×", "☆"];

/// The note of a panel under a legend shared by the grid ([`panels_one_legend`]): which of its
/// lines lie on top of each other, each named by its marker (or by its label when it has none,
/// or when markers repeat).
fn coinciding_note(chart: &LineChart, drawing: &Drawing) -> String {
    let marks: Vec<Option<usize>> = drawing
        .looks
        .iter()
        .map(|l| l.marker.map(|m| m.shape))
        .collect();
    let by_shape = marks.iter().flatten().count() <= crate::legend::MARKER_SHAPES;
    let name = |i: usize| match marks[i] {
        Some(shape) if by_shape => SHAPE_TEXT[shape % crate::legend::MARKER_SHAPES].to_string(),
        _ => chart.series[i].label.clone(),
    };
    let groups: Vec<String> = coinciding(chart)
        .iter()
        .map(|g| {
            let names: Vec<String> = g.iter().map(|&i| name(i)).collect();
            match names.split_last() {
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            }
        })
        .collect();
    if groups.is_empty() {
        String::new()
    } else {
        format!("Lines on top of each other here: {}.", groups.join("; "))
    }
}

/// `chart` as drawn: with [`LineChart::log2_x`], the base-2 logarithms of its x values (a point
/// with x ≤ 0 left out), on whole-number ticks of the log axis; otherwise as it is.
fn as_drawn(chart: &LineChart) -> LineChart {
    if chart.log2_x {
        with_log2(chart, false)
    } else {
        chart.clone()
    }
}

/// Draws one chart as [`line_chart`] does, with both axes logarithmic (base 2, ticks at
/// powers of two): speedup against processors from 1 to 1,024, say, where perfect speedup is a
/// straight line of slope 1 and every doubling of the machine is the same step.
///
/// Points with a coordinate ≤ 0 (or not finite) cannot be placed and are skipped; error bars are
/// not drawn on log axes (they would be lopsided).
///
/// # Errors
/// As [`line_chart`].
pub fn log_log_chart(path: &Path, chart: &LineChart) -> Result<(), PlotError> {
    validate(path, chart)?;
    let mut logged = logged(chart);
    let drawing = on_log_axes(Drawing::plain(&logged));
    note_hidden(&mut logged);
    output::write_png(path, CHART_SIZE, |root| {
        draw_chart(root, &logged, &drawing, &FULL, 0)
    })
}

/// `chart` with base-2 logarithms of its coordinates (a point with one ≤ 0 is left out) and no
/// error bars, for a drawing on log axes.
fn logged(chart: &LineChart) -> LineChart {
    with_log2(chart, true)
}

/// `chart` with base-2 logarithms of its x values and, with `y`, of its y values too (then
/// without error bars, which would be lopsided); a point with a logged coordinate ≤ 0 cannot be
/// placed and is left out (made NaN). Its `log2_x` says the x values are logarithms; whole-number
/// x ticks no longer apply.
fn with_log2(chart: &LineChart, y: bool) -> LineChart {
    LineChart {
        series: chart
            .series
            .iter()
            .map(|s| Series {
                points: s
                    .points
                    .iter()
                    .map(|&(px, py)| match (px > 0.0, y, py > 0.0) {
                        (true, false, _) => (px.log2(), py),
                        (true, true, true) => (px.log2(), py.log2()),
                        _ => (f64::NAN, f64::NAN),
                    })
                    .collect(),
                errors: if y { None } else { s.errors.clone() },
                ..s.clone()
            })
            .collect(),
        integer_x: false,
        log2_x: true,
        ..chart.clone()
    }
}

/// `drawing` of a [`logged`] chart: the y axis too at powers of two, and not from zero.
fn on_log_axes(drawing: Drawing) -> Drawing {
    Drawing {
        y_from_zero: false,
        log2_y: true,
        ..drawing
    }
}

/// Draws several charts as [`panels`] does, each with both axes logarithmic as in
/// [`log_log_chart`].
///
/// # Errors
/// As [`line_chart`].
pub fn log_log_panels(
    path: &Path,
    title: &str,
    charts: &[LineChart],
    columns: usize,
) -> Result<(), PlotError> {
    for chart in charts {
        validate(path, chart)?;
    }
    let mut logged: Vec<LineChart> = charts.iter().map(logged).collect();
    let drawings: Vec<Drawing> = panel_drawings(&logged)
        .into_iter()
        .map(on_log_axes)
        .collect();
    logged.iter_mut().for_each(note_hidden);
    draw_panels(path, title, &logged, &drawings, columns)
}

/// Draws several charts in a grid of `columns` columns (each panel 640×440) under an overall
/// `title`, as one PNG at `path` (written atomically).
///
/// `columns` is clamped to `1..=charts.len()`. With no charts at all the image holds only the
/// title and the note "no charts".
///
/// # Errors
/// As [`line_chart`].
pub fn panels(
    path: &Path,
    title: &str,
    charts: &[LineChart],
    columns: usize,
) -> Result<(), PlotError> {
    for chart in charts {
        validate(path, chart)?;
    }
    let mut charts: Vec<LineChart> = charts.iter().map(as_drawn).collect();
    let drawings = panel_drawings(&charts);
    charts.iter_mut().for_each(note_hidden);
    draw_panels(path, title, &charts, &drawings, columns)
}

/// Draws charts as [`panels`] does, but when every chart lists the same series (the same
/// labels, styles, colours and markers, in the same order) with one legend for them all, under
/// the grid, so the panels keep their height for the data. Lines that lie on top of each other
/// in a panel are then named, by their markers, in a note under that panel. Charts whose
/// series differ are drawn as [`panels`] draws them.
///
/// # Errors
/// As [`line_chart`].
pub fn panels_one_legend(
    path: &Path,
    title: &str,
    charts: &[LineChart],
    columns: usize,
) -> Result<(), PlotError> {
    for chart in charts {
        validate(path, chart)?;
    }
    let mut charts: Vec<LineChart> = charts.iter().map(as_drawn).collect();
    let mut drawings = panel_drawings(&charts);
    let key = |c: &LineChart, d: &Drawing| -> Vec<(String, LineStyle, usize, Option<usize>)> {
        c.series
            .iter()
            .zip(&d.looks)
            .map(|(s, l)| (s.label.clone(), s.style, s.color, l.marker.map(|m| m.shape)))
            .collect()
    };
    let one = charts.len() > 1
        && charts
            .iter()
            .zip(&drawings)
            .all(|(c, d)| key(c, d) == key(&charts[0], &drawings[0]));
    if !one {
        charts.iter_mut().for_each(note_hidden);
        return draw_panels(path, title, &charts, &drawings, columns);
    }
    for (c, d) in charts.iter().zip(&mut drawings) {
        d.note = coinciding_note(c, d);
        d.own_legend = false;
    }
    draw_panels(path, title, &charts, &drawings, columns)
}

fn draw_panels(
    path: &Path,
    title: &str,
    charts: &[LineChart],
    drawings: &[Drawing],
    columns: usize,
) -> Result<(), PlotError> {
    let columns = columns.clamp(1, charts.len().max(1));
    let rows = charts.len().div_ceil(columns).max(1);
    let title_font = font::bold(FULL.title + 2.0);
    let width = PANEL_SIZE.0 * columns as u32;
    let (title_lines, title_h) = if title.is_empty() {
        (Vec::new(), 0)
    } else {
        let (lines, h) = title_layout(title, &title_font, width, FULL.pad);
        (lines, h + 2 * FULL.pad)
    };
    // One legend under the grid adds its height to the image.
    let shared_h = match drawings.first() {
        Some(d) if !d.own_legend => legend(&charts[0], d, &PANEL, width).height(),
        _ => 0,
    };
    let size = (width, PANEL_SIZE.1 * rows as u32 + title_h + shared_h);
    output::write_png(path, size, |root| {
        let body = if title.is_empty() {
            root.clone()
        } else {
            let (head, body) = root.split_vertically(title_h);
            draw_title(&head, &title_lines, &title_font)?;
            body
        };
        if charts.is_empty() {
            draw_note(&body, "no charts", FULL.desc)?;
            return Ok(());
        }
        // Panels in one grid row reserve the same legend height, so their plots line up.
        // Without legends of their own (one under the grid), the same height for their notes.
        let legend_heights: Vec<u32> = charts
            .iter()
            .zip(drawings)
            .map(|(c, d)| {
                if d.own_legend {
                    legend(c, d, &PANEL, PANEL_SIZE.0).height()
                } else {
                    note_layout(&d.note, &PANEL, PANEL_SIZE.0).2
                }
            })
            .collect();
        let body = match drawings.first() {
            Some(d) if !d.own_legend => {
                let shared = legend(&charts[0], d, &PANEL, width);
                let (_, h) = body.dim_in_pixel();
                let (grid, band) = body.split_vertically(h.saturating_sub(shared.height()));
                shared.draw(&band)?;
                grid
            }
            _ => body,
        };
        let cells = body.split_evenly((rows, columns));
        for (i, ((cell, chart), drawing)) in cells.iter().zip(charts).zip(drawings).enumerate() {
            let row = i / columns;
            let reserve = legend_heights
                .iter()
                .skip(row * columns)
                .take(columns)
                .copied()
                .max()
                .unwrap_or(0);
            draw_chart(cell, chart, drawing, &PANEL, reserve)?;
        }
        Ok(())
    })
}

pub(crate) fn validate(path: &Path, chart: &LineChart) -> Result<(), PlotError> {
    for s in &chart.series {
        if let Some(errors) = &s.errors {
            if errors.len() != s.points.len() {
                return Err(PlotError::InvalidSeries {
                    path: path.to_path_buf(),
                    chart: chart.title.clone(),
                    series: s.label.clone(),
                    message: format!(
                        "{} error values for {} points",
                        errors.len(),
                        s.points.len()
                    ),
                });
            }
        }
    }
    Ok(())
}

/// How one series is drawn: its line (if any) and its marker (if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    pub line: Option<LineStyle>,
    pub marker: Option<Mark>,
}

/// How a chart's series are drawn beyond what [`Series`] says: a look per series, the legend's
/// layout, a unit after the y tick labels, a note under the legend.
#[derive(Clone, Debug)]
pub(crate) struct Drawing {
    /// One per series, in order.
    pub looks: Vec<Look>,
    /// The `(row, column)` of each series' legend entry, for a legend laid out as a table;
    /// `None` for entries in order, as many on a row as fit.
    pub legend_cells: Option<Vec<(usize, usize)>>,
    /// Appended to every y tick label (e.g. " %").
    pub y_unit: &'static str,
    /// The y axis starts at zero when every value is non-negative; otherwise it has a margin
    /// below the lowest value too (room for large markers on zero).
    pub y_from_zero: bool,
    /// Muted text under the legend (wrapped); empty for none.
    pub note: String,
    /// The x values are base-2 logarithms of the data ([`LineChart::log2_x`]): the x axis is
    /// labelled in powers of two.
    pub log2_x: bool,
    /// The y values are base-2 logarithms of the data (a log-log chart): the y axis is
    /// labelled in powers of two.
    pub log2_y: bool,
    /// The chart draws its own legend; false in a grid whose one legend is drawn under all its
    /// panels ([`panels_one_legend`]): then the note alone is under the plot.
    pub own_legend: bool,
}

impl Drawing {
    /// An ordinary line chart: each series' line style, and the k-th series with markers gets
    /// hollow marker shape k; each series its own legend entry.
    pub fn plain(chart: &LineChart) -> Drawing {
        let mut k = 0;
        let looks = chart
            .series
            .iter()
            .map(|s| Look {
                line: Some(s.style),
                marker: s.markers.then(|| {
                    k += 1;
                    Mark {
                        shape: k - 1,
                        kind: MarkKind::Hollow,
                    }
                }),
            })
            .collect();
        Drawing {
            looks,
            legend_cells: None,
            y_unit: "",
            y_from_zero: true,
            note: String::new(),
            log2_x: chart.log2_x,
            log2_y: false,
            own_legend: true,
        }
    }
}

/// The drawings of panels: as [`Drawing::plain`], but a series keeps its marker shape from panel
/// to panel (shapes go to labels in order of their first appearance in any panel), so that one
/// algorithm has one marker throughout the figure.
fn panel_drawings(charts: &[LineChart]) -> Vec<Drawing> {
    let mut labels: Vec<&str> = Vec::new();
    for s in charts.iter().flat_map(|c| &c.series).filter(|s| s.markers) {
        if !labels.contains(&s.label.as_str()) {
            labels.push(&s.label);
        }
    }
    let plain: Vec<Drawing> = charts.iter().map(Drawing::plain).collect();
    let mut shared = plain.clone();
    for (drawing, chart) in shared.iter_mut().zip(charts) {
        for (look, s) in drawing.looks.iter_mut().zip(&chart.series) {
            if let Some(mark) = &mut look.marker {
                mark.shape = labels.iter().position(|l| *l == s.label).unwrap_or(0);
            }
        }
    }
    // With more labels than shapes, the figure-wide numbering can give two series of one panel
    // the same shape; each panel then numbers its own series (as a single chart does).
    let clash = shared.iter().any(|d| {
        let mut seen = [false; crate::legend::MARKER_SHAPES];
        d.looks
            .iter()
            .filter_map(|l| l.marker)
            .any(|m| std::mem::replace(&mut seen[m.shape % crate::legend::MARKER_SHAPES], true))
    });
    if clash {
        plain
    } else {
        shared
    }
}

/// The finite points of a series with their (non-negative, possibly absent) errors.
/// The ranges of a polyline through `pixels` to draw as separate lines: split at every vertex
/// where the line turns back by more than 150° (an angle under 30° between the segment in and
/// the one out). A thick line drawn through such a vertex in one piece gets a mitred join whose
/// tip reaches far past the vertex, a spike that reads as data; drawn in two pieces, each ends
/// at the vertex. A line without such turns is one range, drawn as before.
fn split_at_sharp_turns(pixels: &[(i32, i32)]) -> Vec<std::ops::Range<usize>> {
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..pixels.len().saturating_sub(1) {
        let d = |j: usize| {
            (
                f64::from(pixels[j].0 - pixels[i].0),
                f64::from(pixels[j].1 - pixels[i].1),
            )
        };
        let ((ax, ay), (bx, by)) = (d(i - 1), d(i + 1));
        let (la, lb) = (ax.hypot(ay), bx.hypot(by));
        if la > 0.0 && lb > 0.0 && (ax * bx + ay * by) / (la * lb) > 30f64.to_radians().cos() {
            parts.push(start..i + 1);
            start = i;
        }
    }
    parts.push(start..pixels.len());
    parts
}

fn finite_points(s: &Series) -> Vec<(f64, f64, Option<f64>)> {
    s.points
        .iter()
        .enumerate()
        .filter(|(_, (x, y))| x.is_finite() && y.is_finite())
        .map(|(i, &(x, y))| {
            let e = s
                .errors
                .as_ref()
                .and_then(|e| e.get(i).copied())
                .filter(|e| e.is_finite())
                .map(f64::abs);
            (x, y, e)
        })
        .collect()
}

/// The bounding box of all points and error bars, or `None` without data.
fn bounds(chart: &LineChart) -> Option<((f64, f64), (f64, f64))> {
    let mut x = (f64::INFINITY, f64::NEG_INFINITY);
    let mut y = (f64::INFINITY, f64::NEG_INFINITY);
    for s in &chart.series {
        for (px, py, e) in finite_points(s) {
            let e = e.unwrap_or(0.0);
            x = (x.0.min(px), x.1.max(px));
            y = (y.0.min(py - e), y.1.max(py + e));
        }
    }
    x.0.is_finite().then_some((x, y))
}

/// The lines of a title wrapped to `width` pixels less padding, and the band they need.
pub(crate) fn title_layout(
    title: &str,
    title_font: &FontDesc<'_>,
    width: u32,
    pad: u32,
) -> (Vec<String>, u32) {
    let lines = font::wrap(title, title_font, width.saturating_sub(2 * pad));
    let h = font::lines_height(lines.len(), title_font);
    (lines, h)
}

/// Draws title lines centred in `area` (titles wrap, never cut off).
pub(crate) fn draw_title(
    area: &Area<'_>,
    lines: &[String],
    title_font: &FontDesc<'_>,
) -> Result<(), DrawError> {
    let (w, h) = area.dim_in_pixel();
    let style = title_font
        .color(&TEXT)
        .pos(Pos::new(HPos::Center, VPos::Center));
    let line_h = font::measure("Xg", title_font).1 as i32;
    let step = line_h + line_h / 4;
    let total = font::lines_height(lines.len(), title_font) as i32;
    let top = (h as i32 - total) / 2;
    for (i, line) in lines.iter().enumerate() {
        let y = top + i as i32 * step + line_h / 2 + font::center_correction(title_font.get_size());
        area.draw_text(line, &style, (w as i32 / 2, y))?;
    }
    Ok(())
}

fn draw_note(area: &Area<'_>, note: &str, size: f64) -> Result<(), DrawError> {
    let (w, h) = area.dim_in_pixel();
    let style = font::text(size, &MUTED_TEXT).pos(Pos::new(HPos::Center, VPos::Center));
    let y = h as i32 / 2 + font::center_correction(size);
    area.draw_text(note, &style, (w as i32 / 2, y))?;
    Ok(())
}

/// The legend of a chart `width` pixels wide: one entry per series, in order, or in the
/// drawing's table.
fn legend(chart: &LineChart, drawing: &Drawing, scale: &Scale, width: u32) -> Legend {
    let entries = chart
        .series
        .iter()
        .zip(&drawing.looks)
        .map(|(s, look)| Entry {
            glyph: Glyph::Line {
                color: palette::series_color(s.color),
                line: look.line,
                marker: look.marker,
            },
            label: s.label.clone(),
        });
    let max_width = width.saturating_sub(2 * scale.pad);
    match &drawing.legend_cells {
        Some(cells) => Legend::table(
            cells.iter().copied().zip(entries).collect(),
            scale.legend,
            scale.line,
            max_width,
        ),
        None => Legend::new(entries.collect(), scale.legend, scale.line, max_width),
    }
}

/// The note's lines wrapped to the chart's width, its font, and the band it needs (zero without
/// a note).
fn note_layout(note: &str, scale: &Scale, width: u32) -> (Vec<String>, FontDesc<'static>, u32) {
    let f = font::regular(scale.legend - 1.0);
    if note.is_empty() {
        return (Vec::new(), f, 0);
    }
    let max = width.saturating_sub(4 * scale.pad);
    let mut lines = font::wrap(note, &f, max);
    // Balanced lines: the narrowest width that needs no more lines (no one-word last line).
    if lines.len() > 1 {
        let (mut lo, mut hi) = (max / lines.len() as u32, max);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if font::wrap(note, &f, mid).len() <= lines.len() {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lines = font::wrap(note, &f, hi);
    }
    // Half a pad above, a pad and a half below (the image's edge).
    let h = font::lines_height(lines.len(), &f) + 2 * scale.pad;
    (lines, f, h)
}

/// Draws note lines centred in `area`, from its top.
fn draw_note_lines(
    area: &Area<'_>,
    lines: &[String],
    note_font: &FontDesc<'static>,
) -> Result<(), DrawError> {
    let (w, _) = area.dim_in_pixel();
    let style = note_font
        .color(&MUTED_TEXT)
        .pos(Pos::new(HPos::Center, VPos::Center));
    let size = note_font.get_size();
    let line_h = font::measure("Xg", note_font).1 as i32;
    let step = line_h + line_h / 4;
    let top = (size / 2.0) as i32;
    for (i, line) in lines.iter().enumerate() {
        let y = top + i as i32 * step + line_h / 2 + font::center_correction(size);
        area.draw_text(line, &style, (w as i32 / 2, y))?;
    }
    Ok(())
}

/// Draws a chart into `area` as `drawing` says, with at least `legend_reserve` pixels for the
/// legend under it.
pub(crate) fn draw_chart(
    area: &Area<'_>,
    chart: &LineChart,
    drawing: &Drawing,
    scale: &Scale,
    legend_reserve: u32,
) -> Result<(), DrawError> {
    let (w, _) = area.dim_in_pixel();

    // Title band.
    let area = if chart.title.is_empty() {
        area.clone()
    } else {
        let title_font = font::bold(scale.title);
        let (lines, h) = title_layout(&chart.title, &title_font, w, scale.pad);
        let (head, rest) = area.split_vertically(h + scale.pad * 3 / 2);
        draw_title(&head, &lines, &title_font)?;
        rest
    };

    // Legend band under the plot, and the note under the legend (without a legend of its own,
    // the note alone, in a band of at least `legend_reserve`).
    let (note_lines, note_font, note_h) = note_layout(&drawing.note, scale, w);
    let (_, rest_h) = area.dim_in_pixel();
    let plot_area = if drawing.own_legend {
        let legend = legend(chart, drawing, scale, w);
        let legend_h = legend.height().max(legend_reserve);
        let (plot_area, legend_area) =
            area.split_vertically(rest_h.saturating_sub(legend_h + note_h));
        legend.draw(&legend_area)?;
        if note_h > 0 {
            let (_, note_area) = legend_area.split_vertically(legend_h);
            draw_note_lines(&note_area, &note_lines, &note_font)?;
        }
        plot_area
    } else {
        let band = note_h.max(legend_reserve);
        let (plot_area, note_area) = area.split_vertically(rest_h.saturating_sub(band));
        if note_h > 0 {
            draw_note_lines(&note_area, &note_lines, &note_font)?;
        }
        plot_area
    };

    // Axes.
    let data = bounds(chart);
    let (x_range, y_range) = match data {
        Some(((x0, x1), (y0, y1))) => {
            let (mut xl, mut xh) = padded_range(x0, x1, 0.05, false);
            if chart.integer_x && x1 - x0 >= 1.0 {
                // Whole-number axes get at least a third of a unit around the outer points.
                xl = xl.min(x0 - 0.3);
                xh = xh.max(x1 + 0.3);
            }
            ((xl, xh), padded_range(y0, y1, 0.07, drawing.y_from_zero))
        }
        None => ((0.0, 1.0), (0.0, 1.0)),
    };
    let (pw, ph) = plot_area.dim_in_pixel();
    let (x_target, y_target) = (
        (pw / scale.tick_spacing.0).clamp(2, 12) as usize,
        (ph / scale.tick_spacing.1).clamp(2, 10) as usize,
    );
    let y_axis = y_axis(y_range, drawing.log2_y, y_target);
    let tick_font = font::regular(scale.tick);
    let desc_font = font::regular(scale.desc);
    let desc_h = font::measure("Xg", &desc_font).1;
    let tick_h = font::measure("0", &tick_font).1;
    let y_unit_w = if drawing.y_unit.is_empty() {
        0
    } else {
        font::measure(drawing.y_unit, &tick_font).0
    };
    let y_area = y_axis.widest_label(&tick_font) + y_unit_w + desc_h + scale.pad + 12;
    let x_axis = if drawing.log2_x {
        let axis = Axis::log2(x_range.0, x_range.1, x_target);
        match data {
            Some(((_, x1), _)) => {
                // The largest x first (where the data ends), then the x of every marked point
                // (a line without markers, as the ideal, is drawn through x that are no data).
                let mut xs = vec![x1];
                for s in chart.series.iter().filter(|s| s.markers) {
                    xs.extend(finite_points(s).into_iter().map(|(x, _, _)| x));
                }
                xs[1..].sort_by(f64::total_cmp);
                // The plot's width less the y labels and the margins, less a label's width:
                // a little less than the axis has, so labels are never closer than reckoned.
                let widest = font::measure(&axis.format(x1.ceil()), &tick_font).0;
                let plot_w = pw.saturating_sub(y_area + 2 * scale.pad + widest) as f64;
                let px_per_unit = plot_w / (x_range.1 - x_range.0);
                axis.with_data_ticks(&xs, px_per_unit, |label| {
                    font::measure(label, &tick_font).0 as f64
                })
            }
            None => axis,
        }
    } else {
        Axis::new(x_range.0, x_range.1, x_target, chart.integer_x)
    };
    let x_area = tick_h + desc_h + scale.pad + 14;
    let last_x_label = x_axis
        .ticks
        .last()
        .map(|&t| font::measure(&x_axis.format(t), &tick_font).0)
        .unwrap_or(0);
    let right = (2 * scale.pad).max(last_x_label / 2 + 6);

    let mut cc = ChartBuilder::on(&plot_area)
        .margin_top(scale.pad / 2)
        .margin_right(right)
        .margin_left(scale.pad / 2)
        .margin_bottom(4)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x_axis.clone(), y_axis.clone())?;

    let x_fmt = |v: &f64| x_axis.format(*v);
    let y_fmt = |v: &f64| format!("{}{}", y_axis.format(*v), drawing.y_unit);
    cc.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .axis_desc_style(font::text(scale.desc, &TEXT))
        .label_style(font::text(scale.tick, &TEXT))
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS.stroke_width(1))
        .set_all_tick_mark_size(TICK_MARK)
        .y_label_offset(font::center_correction(scale.tick))
        .draw()?;

    if data.is_none() {
        draw_note(
            &cc.plotting_area().strip_coord_spec(),
            "no data",
            scale.desc,
        )?;
        return Ok(());
    }

    // Error bars first, then lines, then markers, so markers sit on top.
    for s in &chart.series {
        let color = palette::series_color(s.color);
        let bar_style = color.stroke_width(scale.bar);
        let bars: Vec<(f64, f64, f64)> = finite_points(s)
            .into_iter()
            .filter_map(|(x, y, e)| e.filter(|&e| e > 0.0).map(|e| (x, y - e, y + e)))
            .collect();
        cc.draw_series(
            bars.iter()
                .map(|&(x, lo, hi)| PathElement::new(vec![(x, lo), (x, hi)], bar_style)),
        )?;
        let cap = scale.cap;
        cc.draw_series(bars.iter().flat_map(|&(x, lo, hi)| {
            [lo, hi].map(|y| {
                EmptyElement::at((x, y)) + PathElement::new(vec![(-cap, 0), (cap, 0)], bar_style)
            })
        }))?;
    }
    for (s, look) in chart.series.iter().zip(&drawing.looks) {
        let color = palette::series_color(s.color);
        let style = color.stroke_width(scale.line);
        let points: Vec<(f64, f64)> = finite_points(s).iter().map(|&(x, y, _)| (x, y)).collect();
        match look.line {
            None => {}
            Some(LineStyle::Solid) => {
                let pixels: Vec<(i32, i32)> = points.iter().map(|p| cc.backend_coord(p)).collect();
                for part in split_at_sharp_turns(&pixels) {
                    cc.draw_series(LineSeries::new(points[part].iter().copied(), style))?;
                }
            }
            Some(LineStyle::Dashed) => {
                cc.draw_series(DashedLineSeries::new(
                    points,
                    scale.dash.0,
                    scale.dash.1,
                    style,
                ))?;
            }
        }
    }
    // Filled dots under hollow outlines, so an outline around a dot shows both.
    let marked = || {
        chart
            .series
            .iter()
            .zip(&drawing.looks)
            .filter_map(|(s, look)| look.marker.map(|m| (s, m)))
    };
    for (s, mark) in marked().filter(|(_, m)| m.kind == MarkKind::Dot) {
        let color = palette::series_color(s.color);
        let outline = marker_outline(mark.shape, scale.marker);
        cc.draw_series(finite_points(s).iter().map(|&(x, y, _)| {
            EmptyElement::at((x, y)) + Polygon::new(outline.clone(), color.filled())
        }))?;
    }
    for (s, mark) in marked().filter(|(_, m)| m.kind != MarkKind::Dot) {
        let color = palette::series_color(s.color);
        let radius = match mark.kind {
            MarkKind::Large => scale.marker + 4,
            _ => scale.marker + 1,
        };
        let outline = marker_outline(mark.shape, radius);
        let stroke = color.stroke_width(2);
        cc.draw_series(finite_points(s).iter().map(|&(x, y, _)| {
            EmptyElement::at((x, y)) + PathElement::new(outline.clone(), stroke)
        }))?;
    }
    Ok(())
}

/// The y axis over `range` for about `target` ticks of a linear axis. On a base-2 log axis a
/// power of two is a short label: one at every doubling where they fit half as many again
/// (1, 2, 4, 8 rather than 1, 4, 16).
fn y_axis(range: (f64, f64), log2: bool, target: usize) -> Axis {
    if log2 {
        Axis::log2(range.0, range.1, target * 3 / 2)
    } else {
        Axis::new(range.0, range.1, target, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A speedup panel from 0.5 to 64 (schemes-compare's: about 270 pixels of plot) labels every
    /// doubling on its log axis, where a linear axis of that height would take six ticks.
    #[test]
    fn a_log_axis_labels_every_doubling_where_they_fit() {
        let target = (270 / PANEL.tick_spacing.1) as usize;
        let (lo, hi) = padded_range(-1.0, 6.0, 0.07, false);
        let log = y_axis((lo, hi), true, target);
        assert_eq!(log.ticks, (-1..=6).map(f64::from).collect::<Vec<_>>());
        // 1 to 1,024 on the same panel: every other doubling (1, 4, 16, …).
        let (lo, hi) = padded_range(0.0, 10.0, 0.07, false);
        let wide = y_axis((lo, hi), true, target);
        assert_eq!(
            wide.ticks,
            (0..=5).map(|k| f64::from(2 * k)).collect::<Vec<_>>()
        );
        // A linear axis keeps its spacing.
        let linear = y_axis((0.0, 10.0), false, target);
        assert_eq!(linear.ticks, Axis::new(0.0, 10.0, target, false).ticks);
    }

    /// A thick line is split where it turns back sharply (its mitred join would draw a spike
    /// past the vertex), and only there.
    #[test]
    fn a_line_is_split_at_its_sharp_turns_only() {
        // Gentle turns, a right angle, a straight run, and repeated pixels: one piece.
        let gentle = [
            (0, 0),
            (10, 5),
            (20, 5),
            (20, 15),
            (30, 25),
            (30, 25),
            (40, 35),
        ];
        assert_eq!(split_at_sharp_turns(&gentle), vec![(0..gentle.len())]);
        // A peak and a valley 1 pixel wide between 100-pixel flanks (pmws's speedup against
        // elapsed_ns drew a spike of 40 pixels at such a valley), then a right angle.
        let zigzag = [(0, 0), (5, 100), (6, 0), (7, 100), (60, 100)];
        assert_eq!(split_at_sharp_turns(&zigzag), [0..2, 1..3, 2..5]);
        // 30° is the limit: a turn back by 151° splits, by 149° does not.
        let at = |deg: f64| {
            let (x, y) = (
                100.0 * deg.to_radians().cos(),
                100.0 * deg.to_radians().sin(),
            );
            [(100, 0), (0, 0), (x.round() as i32, y.round() as i32)]
        };
        assert_eq!(split_at_sharp_turns(&at(29.0)).len(), 2);
        assert_eq!(split_at_sharp_turns(&at(31.0)).len(), 1);
        assert_eq!(split_at_sharp_turns(&[]), vec![(0..0)]);
        assert_eq!(split_at_sharp_turns(&[(1, 1)]), vec![(0..1)]);
    }

    fn line(label: &str, points: &[(f64, f64)]) -> Series {
        Series {
            label: label.into(),
            points: points.to_vec(),
            markers: true,
            ..Series::default()
        }
    }

    fn chart(series: Vec<Series>) -> LineChart {
        LineChart {
            series,
            ..LineChart::default()
        }
    }

    #[test]
    fn a_series_under_a_later_identical_one_says_so() {
        let same = [(1.0, 2.0), (2.0, 3.0)];
        let mut c = chart(vec![
            line("a", &same),
            line("b", &[(1.0, 2.0), (2.0, 3.5)]),
            line("c", &same),
            line("empty", &[]),
        ]);
        note_hidden(&mut c);
        let labels: Vec<&str> = c.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["a (same as c)", "b", "c", "empty"]);
    }

    #[test]
    fn a_shared_legend_names_a_panels_coinciding_lines_by_their_markers() {
        let same = [(1.0, 2.0), (2.0, 3.0)];
        let other = [(1.0, 2.0), (2.0, 3.5)];
        let mut paper = line("paper", &same);
        paper.markers = false;
        let c = chart(vec![
            line("a", &same),
            line("b", &other),
            line("c", &same),
            line("d", &other),
            paper,
            line("e", &[(5.0, 5.0)]),
        ]);
        let d = Drawing::plain(&c);
        // Groups in order of their first line; a line without a marker by its label.
        assert_eq!(
            coinciding_note(&c, &d),
            "Lines on top of each other here: ○, △ and paper; □ and ◇."
        );
        assert_eq!(coinciding(&c), [vec![0, 2, 4], vec![1, 3]]);
        // Nothing coincides: no note.
        let apart = chart(vec![line("a", &same), line("b", &other)]);
        assert_eq!(coinciding_note(&apart, &Drawing::plain(&apart)), "");
        // More marked lines than shapes: every line by its label.
        let n = crate::legend::MARKER_SHAPES;
        let many = chart(
            (0..=n)
                .map(|i| line(&format!("s{i}"), if i < 2 { &same } else { &[] }))
                .collect(),
        );
        assert_eq!(
            coinciding_note(&many, &Drawing::plain(&many)),
            "Lines on top of each other here: s0 and s1."
        );
    }

    #[test]
    fn panels_give_a_label_one_marker_shape_in_every_panel() {
        let p = [(1.0, 1.0)];
        let first = chart(vec![line("x", &p), line("y", &p), line("ideal", &p)]);
        let second = chart(vec![line("y", &p), line("ideal", &p)]);
        let drawings = panel_drawings(&[first, second]);
        let shapes = |d: &Drawing| -> Vec<usize> {
            d.looks.iter().map(|l| l.marker.unwrap().shape).collect()
        };
        assert_eq!(shapes(&drawings[0]), [0, 1, 2]);
        assert_eq!(shapes(&drawings[1]), [1, 2]);
        // One label more than there are shapes: the last would wrap to the first's shape in
        // its own panel, so every panel numbers its own series.
        let n = crate::legend::MARKER_SHAPES;
        let labels: Vec<String> = (0..=n).map(|i| format!("s{i}")).collect();
        let wide = chart(labels[..n].iter().map(|l| line(l, &p)).collect());
        let clashing = chart(vec![line("s0", &p), line(&labels[n], &p)]);
        let drawings = panel_drawings(&[wide, clashing]);
        assert_eq!(shapes(&drawings[0]), (0..n).collect::<Vec<_>>());
        assert_eq!(shapes(&drawings[1]), [0, 1]);
    }

    #[test]
    fn a_log2_x_chart_draws_base_2_logarithms_and_drops_x_at_or_below_zero() {
        let mut c = chart(vec![line("s", &[(0.0, 5.0), (1.0, 1.0), (64.0, 50.0)])]);
        c.log2_x = true;
        c.integer_x = true;
        let drawn = as_drawn(&c);
        let pts = &drawn.series[0].points;
        assert!(pts[0].0.is_nan());
        assert_eq!(&pts[1..], [(0.0, 1.0), (6.0, 50.0)]);
        assert!(!drawn.integer_x);
        assert!(Drawing::plain(&drawn).log2_x);
        // Without the flag the chart is drawn as given.
        c.log2_x = false;
        assert_eq!(as_drawn(&c), c);
    }
}
