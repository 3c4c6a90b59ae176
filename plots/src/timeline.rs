//! Per-processor timelines: what every processor did, when, against simulated time.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::{Category, Interval, Marker, SimTime};

use crate::legend::{Entry, Glyph, Legend};
use crate::output::{self, Area, DrawError};
use crate::palette::{self, AXIS, GRID, MUTED_TEXT, TEXT};
use crate::ticks::Axis;
use crate::{font, PlotError};

/// One processor's row: a label ("P0 master") and the spans it spent in each category.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimelineRow {
    /// The row's label, left of the row (e.g. "P0 master").
    pub label: String,
    /// The processor's spans, each drawn in its category's colour; gaps are left blank.
    pub intervals: Vec<Interval>,
}

const WIDTH: u32 = 1600;
const TITLE_SIZE: f64 = 24.0;
const TICK_SIZE: f64 = 15.0;
const DESC_SIZE: f64 = 17.0;
const LEGEND_SIZE: f64 = 15.0;
const MARKER_LABEL_SIZE: f64 = 13.0;
/// Markers are labelled only when there are at most this many (and then only the labels that
/// do not overlap); more would be unreadable.
const MAX_LABELLED_MARKERS: usize = 12;
/// Marker rules: thin and light, so that hundreds of them do not hide the bars (see
/// [`marker_alpha`]).
const MARKER_COLOR: RGBAColor = RGBAColor(30, 30, 30, 0.4);
/// Height of the tick drawn for every marker just above the plot, so that dense markers can
/// still be located when their rules are faint.
const RUG_HEIGHT: i32 = 7;

/// Height of one processor row, smaller for large machines.
fn row_height(rows: usize) -> u32 {
    match rows {
        0..=8 => 44,
        9..=16 => 32,
        17..=48 => 22,
        _ => 14,
    }
}

/// Draws a timeline as a PNG at `path` (written atomically): one row per processor (first row
/// at the top), each category a filled bar in its colour (see
/// [`category_color`](crate::category_color)), a legend of the categories (memory only when
/// some processor spent time on shared memory), and a thin light vertical rule at every marker
/// time. Markers are labelled above the plot only when there are at most twelve of them
/// (overlapping labels are left out); the legend names them by their label when they share
/// one, else by `markers_name` (what they mark, such as "PV nodes completed"; "markers" when
/// empty), and gives their count.
///
/// The x axis runs in seconds from zero to `makespan` (or to the latest interval or marker, if
/// later). The image is 1600 pixels wide and grows with the number of rows.
///
/// Drawing is done at pixel resolution: each pixel column of a row is split vertically between
/// the categories in proportion to the time they took within that column, so the coloured area
/// is proportional to time even when thousands of intervals are narrower than a pixel, and the
/// cost does not grow with the interval count beyond one pass over the intervals.
///
/// No rows gives a valid image with the axis and the note "no processors".
///
/// # Errors
/// Only when drawing or writing the image fails.
pub fn timeline(
    path: &Path,
    title: &str,
    rows: &[TimelineRow],
    markers: &[Marker],
    markers_name: &str,
    makespan: SimTime,
) -> Result<(), PlotError> {
    let layout = Layout::new(title, rows, markers, markers_name, makespan);
    output::write_png(path, (WIDTH, layout.height), |root| {
        draw(root, &layout, title, rows, markers)
    })
}

/// Everything about the picture's geometry that is known before drawing.
struct Layout {
    height: u32,
    title_h: u32,
    strip_h: u32,
    row_h: u32,
    label_w: u32,
    x_area: u32,
    legend: Legend,
    /// The end of the x axis in nanoseconds (never zero).
    end_ns: u64,
}

impl Layout {
    fn new(
        title: &str,
        rows: &[TimelineRow],
        markers: &[Marker],
        markers_name: &str,
        makespan: SimTime,
    ) -> Layout {
        let title_h = if title.is_empty() {
            12
        } else {
            let lines = font::wrap(title, &font::bold(TITLE_SIZE), WIDTH - 40);
            font::lines_height(lines.len(), &font::bold(TITLE_SIZE)) + 24
        };
        let strip_h = if !markers.is_empty() && markers.len() <= MAX_LABELLED_MARKERS {
            font::measure("Xg", &font::regular(MARKER_LABEL_SIZE)).1 + RUG_HEIGHT as u32 + 12
        } else {
            RUG_HEIGHT as u32 + 6
        };
        let row_h = row_height(rows.len());
        let label_font = font::regular(row_label_size(row_h));
        let label_w = rows
            .iter()
            .map(|r| font::measure(&r.label, &label_font).0)
            .max()
            .unwrap_or(0)
            .min(WIDTH / 5)
            + 16;
        let x_area = font::measure("0", &font::regular(TICK_SIZE)).1
            + font::measure("Xg", &font::regular(DESC_SIZE)).1
            + 30;
        let memory = rows.iter().any(|r| {
            r.intervals
                .iter()
                .any(|i| i.category == Category::Memory && i.end > i.start)
        });
        let legend = Legend::new(
            legend_entries(markers, markers_name, memory),
            LEGEND_SIZE,
            2,
            WIDTH - 40,
        );
        let plot_h = rows.len().max(1) as u32 * row_h + 2;
        let end_ns = rows
            .iter()
            .flat_map(|r| r.intervals.iter().map(|i| i.end.as_nanos()))
            .chain(markers.iter().map(|m| m.at.as_nanos()))
            .fold(makespan.as_nanos(), u64::max);
        Layout {
            height: title_h + strip_h + plot_h + x_area + legend.height() + 8,
            title_h,
            strip_h,
            row_h,
            label_w,
            x_area,
            legend,
            end_ns: if end_ns == 0 { 1_000_000_000 } else { end_ns },
        }
    }
}

fn row_label_size(row_h: u32) -> f64 {
    (row_h as f64 * 0.55).clamp(9.0, TICK_SIZE)
}

/// The categories' swatches (memory only on a machine that used it), then the markers': by
/// their shared label, else by `markers_name`, with their count.
fn legend_entries(markers: &[Marker], markers_name: &str, memory: bool) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Category::ALL
        .iter()
        .filter(|&&c| memory || c != Category::Memory)
        .map(|&c| Entry {
            glyph: Glyph::Swatch(palette::category_rgb(c)),
            label: c.name().to_string(),
        })
        .collect();
    if let Some(first) = markers.first() {
        let same = markers.iter().all(|m| m.label == first.label);
        let label = if same && !first.label.is_empty() {
            format!("{} ({} markers)", first.label, markers.len())
        } else if !markers_name.is_empty() {
            format!("{markers_name} ({})", markers.len())
        } else {
            format!("markers ({})", markers.len())
        };
        entries.push(Entry {
            glyph: Glyph::Rule(MARKER_COLOR),
            label,
        });
    }
    entries
}

fn draw(
    root: &Area<'_>,
    layout: &Layout,
    title: &str,
    rows: &[TimelineRow],
    markers: &[Marker],
) -> Result<(), DrawError> {
    if !title.is_empty() {
        // Wrapped, never cut off.
        let title_font = font::bold(TITLE_SIZE);
        let lines = font::wrap(title, &title_font, WIDTH - 40);
        let style = title_font
            .color(&TEXT)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let line_h = font::measure("Xg", &title_font).1 as i32;
        let total = font::lines_height(lines.len(), &title_font) as i32;
        let top = (layout.title_h as i32 - total) / 2;
        for (i, line) in lines.iter().enumerate() {
            let y = top
                + i as i32 * (line_h + line_h / 4)
                + line_h / 2
                + font::center_correction(TITLE_SIZE);
            root.draw_text(line, &style, (WIDTH as i32 / 2, y))?;
        }
    }
    let (_, body) = root.split_vertically(layout.title_h);
    let (_, body_h) = body.dim_in_pixel();
    let (chart_area, legend_area) =
        body.split_vertically(body_h.saturating_sub(layout.legend.height() + 8));
    layout.legend.draw(&legend_area)?;

    let n = rows.len();
    let end_s = SimTime(layout.end_ns).as_secs_f64();
    let plot_w = WIDTH - layout.label_w - 40;
    let x_axis = Axis::new(0.0, end_s, (plot_w / 110).clamp(2, 16) as usize, false);
    let centers: Vec<f64> = (0..n).map(|i| (n - i) as f64 - 0.5).collect();
    let y_top = n.max(1) as f64;

    let mut cc = ChartBuilder::on(&chart_area)
        .margin_top(layout.strip_h)
        .margin_right(30)
        .margin_left(10)
        .x_label_area_size(layout.x_area)
        .y_label_area_size(layout.label_w)
        .build_cartesian_2d(x_axis.clone(), Axis::with_ticks(0.0, y_top, centers))?;

    let label_font = font::regular(row_label_size(layout.row_h));
    let x_fmt = |v: &f64| x_axis.format(*v);
    let y_fmt = |v: &f64| {
        let i = n as i64 - 1 - v.floor() as i64;
        usize::try_from(i)
            .ok()
            .and_then(|i| rows.get(i))
            .map(|r| font::fit(&r.label, &label_font, WIDTH / 5))
            .unwrap_or_default()
    };
    cc.configure_mesh()
        .disable_y_mesh()
        .x_desc("simulated time (s)")
        .axis_desc_style(font::text(DESC_SIZE, &TEXT))
        .x_label_style(font::text(TICK_SIZE, &TEXT))
        .y_label_style(label_font.color(&TEXT))
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS.stroke_width(1))
        .set_all_tick_mark_size(crate::line::TICK_MARK)
        .y_label_offset(font::center_correction(row_label_size(layout.row_h)))
        .draw()?;

    if n == 0 {
        let area = cc.plotting_area().strip_coord_spec();
        let (w, h) = area.dim_in_pixel();
        let style = font::text(DESC_SIZE, &MUTED_TEXT).pos(Pos::new(HPos::Center, VPos::Center));
        let y = h as i32 / 2 + font::center_correction(DESC_SIZE);
        area.draw_text("no processors", &style, (w as i32 / 2, y))?;
    }

    // Pixel geometry of the plot, in the root area's (absolute) coordinates.
    let (left, top) = cc.backend_coord(&(0.0, y_top));
    let (right, bottom) = cc.backend_coord(&(end_s, 0.0));
    let columns = (right - left).max(1) as usize;
    let ns_per_column = layout.end_ns as f64 / columns as f64;

    for (i, row) in rows.iter().enumerate() {
        let (_, row_top) = cc.backend_coord(&(0.0, (n - i) as f64));
        let (_, row_bottom) = cc.backend_coord(&(0.0, (n - i - 1) as f64));
        let inset = ((row_bottom - row_top) as f64 * 0.14).round() as i32;
        let bar = (row_top + inset, row_bottom - inset);
        let shares = column_shares(&row.intervals, columns, ns_per_column);
        draw_row(root, left, bar, &shares)?;
    }

    // Marker rules, one per distinct pixel column so that coinciding markers do not darken.
    let mut marker_columns: Vec<(i32, &Marker)> = markers
        .iter()
        .map(|m| {
            let c = (m.at.as_nanos() as f64 / ns_per_column).floor() as i32;
            (left + c.clamp(0, columns as i32 - 1), m)
        })
        .collect();
    marker_columns.sort_by_key(|&(x, _)| x);
    let mut distinct: Vec<i32> = marker_columns.iter().map(|&(x, _)| x).collect();
    distinct.dedup();
    let rule = RGBAColor(
        MARKER_COLOR.0,
        MARKER_COLOR.1,
        MARKER_COLOR.2,
        marker_alpha(distinct.len(), columns),
    );
    for &x in &distinct {
        root.draw(&Rectangle::new([(x, top), (x + 1, bottom)], rule.filled()))?;
        root.draw(&Rectangle::new(
            [(x, top - RUG_HEIGHT), (x + 1, top)],
            MARKER_COLOR.filled(),
        ))?;
    }
    if !markers.is_empty() && markers.len() <= MAX_LABELLED_MARKERS {
        label_markers(root, &marker_columns, top)?;
    }
    Ok(())
}

/// Opacity of the marker rules: 0.3 while they are at least 25 pixels apart on average, fading
/// to 0.08 as they get denser, so that hundreds of rules tint the bars instead of hatching them.
fn marker_alpha(distinct: usize, columns: usize) -> f64 {
    if distinct == 0 {
        return 0.0;
    }
    let spacing = columns as f64 / distinct as f64;
    (0.3 * spacing / 25.0).clamp(0.08, 0.3)
}

/// How many categories a bar splits into.
const N: usize = Category::ALL.len();

/// For each pixel column, the share of time (in pixel widths) of each category.
fn column_shares(intervals: &[Interval], columns: usize, ns_per_column: f64) -> Vec<[f64; N]> {
    let mut shares = vec![[0.0f64; N]; columns];
    let limit = columns as f64;
    for iv in intervals {
        let s = (iv.start.as_nanos() as f64 / ns_per_column).clamp(0.0, limit);
        let e = (iv.end.as_nanos() as f64 / ns_per_column).clamp(0.0, limit);
        if e <= s {
            continue;
        }
        let k = iv.category.index();
        let first = s.floor() as usize;
        let last = (e.ceil() as usize).min(columns);
        for (c, share) in shares.iter_mut().enumerate().take(last).skip(first) {
            let overlap = e.min(c as f64 + 1.0) - s.max(c as f64);
            if overlap > 0.0 {
                share[k] += overlap;
            }
        }
    }
    shares
}

/// Draws one row's bar: runs of pixel columns with the same split are drawn as one rectangle
/// per category, so a long search span costs one rectangle however many columns it spans.
fn draw_row(
    root: &Area<'_>,
    left: i32,
    (bar_top, bar_bottom): (i32, i32),
    shares: &[[f64; N]],
) -> Result<(), DrawError> {
    let height = (bar_bottom - bar_top).max(1) as f64;
    // Boundaries of the categories within the bar, from the top, in pixels.
    let split = |share: &[f64; N]| -> Option<[i32; N + 1]> {
        let total: f64 = share.iter().sum();
        if total <= 1e-9 {
            return None;
        }
        let mut b = [0i32; N + 1];
        let mut cum = 0.0;
        for k in 0..N {
            cum += share[k];
            b[k + 1] = (cum / total * height).round() as i32;
        }
        b[N] = height as i32;
        Some(b)
    };
    let mut c = 0;
    while c < shares.len() {
        let this = split(&shares[c]);
        let mut end = c + 1;
        while end < shares.len() && split(&shares[end]) == this {
            end += 1;
        }
        if let Some(b) = this {
            for (k, category) in Category::ALL.iter().enumerate() {
                if b[k + 1] > b[k] {
                    root.draw(&Rectangle::new(
                        [
                            (left + c as i32, bar_top + b[k]),
                            (left + end as i32, bar_top + b[k + 1]),
                        ],
                        palette::category_rgb(*category).filled(),
                    ))?;
                }
            }
        }
        c = end;
    }
    Ok(())
}

/// Labels above the plot for a few markers, leaving out any that would overlap.
fn label_markers(root: &Area<'_>, columns: &[(i32, &Marker)], top: i32) -> Result<(), DrawError> {
    let f = font::regular(MARKER_LABEL_SIZE);
    let style = f.color(&MUTED_TEXT).pos(Pos::new(HPos::Left, VPos::Bottom));
    let mut free_from = i32::MIN;
    for &(x, m) in columns {
        if m.label.is_empty() {
            continue;
        }
        let w = font::measure(&m.label, &f).0 as i32;
        let start = (x - w / 2).clamp(4, WIDTH as i32 - w - 4);
        if start < free_from {
            continue;
        }
        root.draw_text(&m.label, &style, (start, top - RUG_HEIGHT - 3))?;
        free_from = start + w + 10;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(labels: &[&str]) -> Vec<Marker> {
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| Marker {
                at: SimTime(i as u64),
                label: (*l).to_string(),
            })
            .collect()
    }

    fn marker_entry(markers: &[Marker], name: &str) -> Option<String> {
        legend_entries(markers, name, false)
            .into_iter()
            .find(|e| matches!(e.glyph, Glyph::Rule(_)))
            .map(|e| e.label)
    }

    #[test]
    fn the_legend_names_markers_by_their_shared_label_else_by_what_they_mark() {
        let same = marks(&["PV node done", "PV node done"]);
        assert_eq!(
            marker_entry(&same, "PV nodes completed").as_deref(),
            Some("PV node done (2 markers)")
        );
        let differing = marks(&["PV node at ply 2 done", "PV node at ply 1 done"]);
        assert_eq!(
            marker_entry(&differing, "PV nodes completed").as_deref(),
            Some("PV nodes completed (2)")
        );
        assert_eq!(marker_entry(&differing, "").as_deref(), Some("markers (2)"));
        assert_eq!(marker_entry(&[], "PV nodes completed"), None);
    }
}
