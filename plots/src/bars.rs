//! Horizontal stacked bars: one bar per category (a scheme, say), split into segments (search,
//! communication and synchronization overhead), the categories' names at the left where long
//! names fit, the total at the end of each bar.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::legend::{Entry, Glyph, Legend};
use crate::line::{draw_title, title_layout, CHART_SIZE, TICK_MARK};
use crate::output::{self, Area, DrawError};
use crate::palette::{self, AXIS, GRID, MUTED_TEXT, TEXT};
use crate::ticks::{padded_range, Axis};
use crate::{font, PlotError};

/// One part of every bar: its legend text, colour and one value per category.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Segment {
    /// The legend text.
    pub label: String,
    /// Index into the fixed palette [`PALETTE`](crate::PALETTE) (wraps around).
    pub color: usize,
    /// One value per category, in the order of [`BarChart::categories`]. Positive values stack
    /// to the right of zero and negative ones to the left, each in segment order; a non-finite
    /// value is left out.
    pub values: Vec<f64>,
}

/// Bars of stacked segments, one bar per category, drawn across the chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BarChart {
    /// The heading above the plot area.
    pub title: String,
    /// The value axis's label, with its unit.
    pub x_label: String,
    /// The bars' names, top to bottom.
    pub categories: Vec<String>,
    /// The segments of every bar, stacked in this order and listed so in the legend.
    pub segments: Vec<Segment>,
    /// Appended to every value label and to each bar's total (e.g. " %").
    pub unit: String,
}

/// Draws a bar chart as a PNG at `path` (written atomically): 1024 pixels wide, tall enough for
/// every bar.
///
/// # Errors
/// [`PlotError::InvalidSeries`] when a segment has not one value per category; the other
/// variants when drawing or writing fails.
pub fn stacked_bar_chart(path: &Path, chart: &BarChart) -> Result<(), PlotError> {
    for s in &chart.segments {
        if s.values.len() != chart.categories.len() {
            return Err(PlotError::InvalidSeries {
                path: path.to_path_buf(),
                chart: chart.title.clone(),
                series: s.label.clone(),
                message: format!(
                    "{} values for {} categories",
                    s.values.len(),
                    chart.categories.len()
                ),
            });
        }
    }
    let height = (220 + 46 * chart.categories.len() as u32).max(CHART_SIZE.1 / 2);
    output::write_png(path, (CHART_SIZE.0, height), |root| draw(root, chart))
}

/// The stacked extents of category `i`: (left end of the negatives, right end of the
/// positives, the total).
fn extent(chart: &BarChart, i: usize) -> (f64, f64, f64) {
    let values = chart
        .segments
        .iter()
        .map(|s| s.values[i])
        .filter(|v| v.is_finite());
    let (mut neg, mut pos) = (0.0, 0.0);
    for v in values {
        if v < 0.0 {
            neg += v;
        } else {
            pos += v;
        }
    }
    (neg, pos, neg + pos)
}

fn draw(root: &Area<'_>, chart: &BarChart) -> Result<(), DrawError> {
    const PAD: u32 = 14;
    let (w, _) = root.dim_in_pixel();
    let area = if chart.title.is_empty() {
        root.clone()
    } else {
        let title_font = font::bold(24.0);
        let (lines, h) = title_layout(&chart.title, &title_font, w, PAD);
        let (head, rest) = root.split_vertically(h + PAD * 3 / 2);
        draw_title(&head, &lines, &title_font)?;
        rest
    };
    let legend = Legend::new(
        chart
            .segments
            .iter()
            .map(|s| Entry {
                glyph: Glyph::Swatch(palette::series_color(s.color)),
                label: s.label.clone(),
            })
            .collect(),
        15.0,
        3,
        w.saturating_sub(2 * PAD),
    );
    let (_, rest_h) = area.dim_in_pixel();
    let (plot_area, legend_area) = area.split_vertically(rest_h.saturating_sub(legend.height()));
    legend.draw(&legend_area)?;

    let n = chart.categories.len();
    let extents: Vec<(f64, f64, f64)> = (0..n).map(|i| extent(chart, i)).collect();
    let lo = extents.iter().map(|e| e.0).fold(0.0, f64::min);
    let hi = extents.iter().map(|e| e.1).fold(0.0, f64::max);
    let tick_font = font::regular(15.0);
    let desc_font = font::regular(18.0);
    // Room at the right for the totals.
    let total_label = |t: f64| format!("{t:.1}{}", chart.unit);
    let widest_total = extents
        .iter()
        .map(|e| font::measure(&total_label(e.2), &tick_font).0)
        .max()
        .unwrap_or(0);
    let (x0, x1) = padded_range(lo, hi, 0.04, true);
    let (pw, _) = plot_area.dim_in_pixel();
    let x_axis = Axis::new(x0, x1, (pw / 90).clamp(2, 12) as usize, false);
    // Bar i (top first) is centred on y = n - i - 0.5.
    let centers: Vec<f64> = (0..n).map(|i| n as f64 - i as f64 - 0.5).collect();
    let y_axis = Axis::with_ticks(0.0, n.max(1) as f64, centers);
    let name_of = |v: f64| -> String {
        let i = n as f64 - v - 0.5;
        if i >= -0.01 && (i.round() - i).abs() < 0.01 && (i.round() as usize) < n {
            chart.categories[i.round() as usize].clone()
        } else {
            String::new()
        }
    };
    let widest_name = chart
        .categories
        .iter()
        .map(|c| font::measure(c, &tick_font).0)
        .max()
        .unwrap_or(0)
        .min(w / 3);
    let desc_h = font::measure("Xg", &desc_font).1;
    let tick_h = font::measure("0", &tick_font).1;
    let mut cc = ChartBuilder::on(&plot_area)
        .margin_top(PAD / 2)
        .margin_right(PAD + widest_total + 8)
        .margin_left(PAD / 2)
        .margin_bottom(4)
        .x_label_area_size(tick_h + desc_h + PAD + 14)
        .y_label_area_size(widest_name + PAD)
        .build_cartesian_2d(x_axis.clone(), y_axis.clone())?;
    let x_fmt = |v: &f64| format!("{}{}", x_axis.format(*v), chart.unit);
    let y_fmt = |v: &f64| font::fit(&name_of(*v), &tick_font, widest_name);
    cc.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .axis_desc_style(font::text(18.0, &TEXT))
        .label_style(font::text(15.0, &TEXT))
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS.stroke_width(1))
        .set_all_tick_mark_size(TICK_MARK)
        .y_label_offset(font::center_correction(15.0))
        .disable_y_mesh()
        .draw()?;
    if n == 0 {
        let style = font::text(18.0, &MUTED_TEXT).pos(Pos::new(HPos::Center, VPos::Center));
        let area = cc.plotting_area().strip_coord_spec();
        let (aw, ah) = area.dim_in_pixel();
        area.draw_text("no data", &style, (aw as i32 / 2, ah as i32 / 2))?;
        return Ok(());
    }
    for (i, &c) in (0..n).zip(y_axis.ticks.iter()) {
        let (top, bottom) = (c + 0.32, c - 0.32);
        let (mut neg, mut pos) = (0.0, 0.0);
        for s in &chart.segments {
            let v = s.values[i];
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let (from, to) = if v < 0.0 {
                let from = neg;
                neg += v;
                (neg, from)
            } else {
                let from = pos;
                pos += v;
                (from, pos)
            };
            let color = palette::series_color(s.color);
            cc.draw_series(std::iter::once(Rectangle::new(
                [(from, bottom), (to, top)],
                color.filled(),
            )))?;
        }
        // The total, after the bar's right end.
        let style = font::text(15.0, &TEXT).pos(Pos::new(HPos::Left, VPos::Center));
        cc.draw_series(std::iter::once(
            EmptyElement::at((pos, c))
                + Text::new(
                    total_label(extents[i].2),
                    (6, font::center_correction(15.0)),
                    style,
                ),
        ))?;
    }
    // Zero, over the bars.
    cc.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, 0.0), (0.0, n as f64)],
        AXIS.stroke_width(1),
    )))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_add_positives_and_negatives_apart() {
        let chart = BarChart {
            categories: vec!["a".into()],
            segments: vec![
                Segment {
                    values: vec![-2.0],
                    ..Segment::default()
                },
                Segment {
                    values: vec![3.0],
                    ..Segment::default()
                },
                Segment {
                    values: vec![f64::NAN],
                    ..Segment::default()
                },
                Segment {
                    values: vec![4.5],
                    ..Segment::default()
                },
            ],
            ..BarChart::default()
        };
        assert_eq!(extent(&chart, 0), (-2.0, 7.5, 5.5));
    }
}
