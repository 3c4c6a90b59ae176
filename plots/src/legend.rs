//! Legends laid out in rows under the plot, outside the data area, so they never cover data.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::font;
use crate::output::{Area, DrawError};
use crate::palette::TEXT;
use crate::LineStyle;

/// How a series' points are marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    /// The outline, see [`marker_outline`].
    pub shape: usize,
    pub kind: MarkKind,
}

/// The size and fill of a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MarkKind {
    /// A hollow outline (measured series of line charts), so coinciding series stay visible.
    Hollow,
    /// A small filled dot on a line: where its values are (Fig. 7's simulated curves).
    Dot,
    /// A larger hollow outline standing alone (Fig. 7's published points), big enough to show a
    /// dot or line through it.
    Large,
}

/// What is drawn before a legend label.
#[derive(Clone, Debug)]
pub(crate) enum Glyph {
    /// A line sample, solid or dashed (or none, for points alone), with the series' marker (see
    /// [`marker_outline`]) in the middle when it has one.
    Line {
        color: RGBColor,
        line: Option<LineStyle>,
        marker: Option<Mark>,
    },
    /// A filled square (timeline categories).
    Swatch(RGBColor),
    /// A thin vertical rule (timeline markers).
    Rule(RGBAColor),
}

#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub glyph: Glyph,
    pub label: String,
}

/// Entries placed in centred rows that fit a width, or in a table of given rows and columns.
pub(crate) struct Legend {
    entries: Vec<(Entry, u32)>,
    rows: Vec<Vec<usize>>,
    /// For a table: each entry's column, and the columns' widths.
    table: Option<(Vec<usize>, Vec<u32>)>,
    font_size: f64,
    line_width: u32,
}

impl Legend {
    /// Entries in order, as many on a row as fit `max_width`, each row centred.
    pub fn new(entries: Vec<Entry>, font_size: f64, line_width: u32, max_width: u32) -> Legend {
        let entries = Self::measured(entries, font_size, max_width);
        let rows = Self::flow(&entries, font_size, max_width);
        Legend {
            entries,
            rows,
            table: None,
            font_size,
            line_width,
        }
    }

    /// Entries at given `(row, column)` cells (rows and columns counted from 0; empty cells
    /// stay empty), the columns aligned one above the other in a centred block. When the table
    /// is wider than `max_width`, the entries flow as in [`Legend::new`], row by row.
    pub fn table(
        cells: Vec<((usize, usize), Entry)>,
        font_size: f64,
        line_width: u32,
        max_width: u32,
    ) -> Legend {
        let mut cells = cells;
        cells.sort_by_key(|(at, _)| *at);
        let at: Vec<(usize, usize)> = cells.iter().map(|(at, _)| *at).collect();
        let entries = Self::measured(
            cells.into_iter().map(|(_, e)| e).collect(),
            font_size,
            max_width,
        );
        let spacing = Self::spacing_for(font_size);
        let n_columns = at.iter().map(|&(_, c)| c + 1).max().unwrap_or(0);
        let widths: Vec<u32> = (0..n_columns)
            .map(|c| {
                at.iter()
                    .zip(&entries)
                    .filter(|((_, col), _)| *col == c)
                    .map(|(_, (_, w))| *w)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let total = widths.iter().sum::<u32>() + spacing * (n_columns as u32).saturating_sub(1);
        if total > max_width {
            let rows = Self::flow(&entries, font_size, max_width);
            return Legend {
                entries,
                rows,
                table: None,
                font_size,
                line_width,
            };
        }
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for (i, &(r, _)) in at.iter().enumerate() {
            match rows.last_mut() {
                Some(row) if at[row[0]].0 == r => row.push(i),
                _ => rows.push(vec![i]),
            }
        }
        let columns = at.iter().map(|&(_, c)| c).collect();
        Legend {
            entries,
            rows,
            table: Some((columns, widths)),
            font_size,
            line_width,
        }
    }

    /// Entries with labels shortened to fit `max_width`, and their widths.
    fn measured(entries: Vec<Entry>, font_size: f64, max_width: u32) -> Vec<(Entry, u32)> {
        let f = font::regular(font_size);
        let gap = Self::gap_for(font_size);
        entries
            .into_iter()
            .map(|mut e| {
                let glyph_w = Self::glyph_width_for(&e.glyph, font_size);
                let max_label = max_width.saturating_sub(glyph_w + gap).max(20);
                e.label = font::fit(&e.label, &f, max_label);
                let w = glyph_w + gap + font::measure(&e.label, &f).0;
                (e, w)
            })
            .collect()
    }

    /// Rows of entries in order, as many on a row as fit `max_width`.
    fn flow(entries: &[(Entry, u32)], font_size: f64, max_width: u32) -> Vec<Vec<usize>> {
        let spacing = Self::spacing_for(font_size);
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut used = 0u32;
        for (i, (_, w)) in entries.iter().enumerate() {
            match rows.last_mut() {
                Some(row) if used + spacing + w <= max_width => {
                    row.push(i);
                    used += spacing + w;
                }
                _ => {
                    rows.push(vec![i]);
                    used = *w;
                }
            }
        }
        rows
    }

    /// Line samples are long enough to show two dashes; swatches and rules are square.
    fn glyph_width_for(glyph: &Glyph, font_size: f64) -> u32 {
        match glyph {
            Glyph::Line { .. } => (font_size * 2.4).round() as u32,
            Glyph::Swatch(_) | Glyph::Rule(_) => (font_size * 0.9).round() as u32,
        }
    }
    fn gap_for(font_size: f64) -> u32 {
        (font_size * 0.45).round() as u32
    }
    fn spacing_for(font_size: f64) -> u32 {
        (font_size * 1.6).round() as u32
    }
    fn row_height(&self) -> u32 {
        (self.font_size * 1.6).round() as u32
    }

    /// Height in pixels including a small margin above and below; zero when there is nothing
    /// to show.
    pub fn height(&self) -> u32 {
        if self.rows.is_empty() {
            0
        } else {
            self.rows.len() as u32 * self.row_height() + (self.font_size * 0.6) as u32
        }
    }

    /// Draws the rows centred horizontally in `area`, from its top.
    pub fn draw(&self, area: &Area<'_>) -> Result<(), DrawError> {
        let (w, _) = area.dim_in_pixel();
        let spacing = Self::spacing_for(self.font_size) as i32;
        let gap = Self::gap_for(self.font_size) as i32;
        let style = font::text(self.font_size, &TEXT).pos(Pos::new(HPos::Left, VPos::Center));
        let row_h = self.row_height() as i32;
        let top = (self.font_size * 0.3) as i32;
        // A table's columns start at fixed offsets in a centred block.
        let column_left: Option<Vec<i32>> = self.table.as_ref().map(|(_, widths)| {
            let total =
                widths.iter().sum::<u32>() as i32 + spacing * (widths.len() as i32 - 1).max(0);
            let mut x = ((w as i32 - total) / 2).max(0);
            widths
                .iter()
                .map(|&cw| {
                    let left = x;
                    x += cw as i32 + spacing;
                    left
                })
                .collect()
        });
        for (r, row) in self.rows.iter().enumerate() {
            let row_w: i32 = row.iter().map(|&i| self.entries[i].1 as i32).sum::<i32>()
                + spacing * (row.len() as i32 - 1);
            let mut x = ((w as i32 - row_w) / 2).max(0);
            let y = top + r as i32 * row_h + row_h / 2;
            for &i in row {
                let (entry, width) = &self.entries[i];
                if let (Some(lefts), Some((columns, _))) = (&column_left, &self.table) {
                    x = lefts[columns[i]];
                }
                let glyph_w = Self::glyph_width_for(&entry.glyph, self.font_size) as i32;
                self.draw_glyph(area, &entry.glyph, x, y, glyph_w)?;
                area.draw_text(
                    &entry.label,
                    &style,
                    (
                        x + glyph_w + gap,
                        y + font::center_correction(self.font_size),
                    ),
                )?;
                x += *width as i32 + spacing;
            }
        }
        Ok(())
    }

    fn draw_glyph(
        &self,
        area: &Area<'_>,
        glyph: &Glyph,
        x: i32,
        y: i32,
        w: i32,
    ) -> Result<(), DrawError> {
        match glyph {
            Glyph::Line {
                color,
                line,
                marker,
            } => {
                let style = color.stroke_width(self.line_width);
                let points = vec![(x, y), (x + w, y)];
                match line {
                    Some(LineStyle::Dashed) => {
                        let dash = (w / 4).max(3);
                        area.draw(&DashedPathElement::new(points, dash, dash / 2 + 1, style))?;
                    }
                    Some(LineStyle::Solid) => area.draw(&PathElement::new(points, style))?,
                    None => {}
                }
                if let Some(mark) = marker {
                    let scale = match mark.kind {
                        MarkKind::Hollow => 0.3,
                        MarkKind::Dot => 0.25,
                        MarkKind::Large => 0.42,
                    };
                    let r = (self.font_size * scale).round().max(3.0) as i32;
                    let (cx, cy) = (x + w / 2, y);
                    let outline: Vec<(i32, i32)> = marker_outline(mark.shape, r)
                        .into_iter()
                        .map(|(dx, dy)| (cx + dx, cy + dy))
                        .collect();
                    let fill = match mark.kind {
                        MarkKind::Dot => *color,
                        MarkKind::Hollow | MarkKind::Large => WHITE,
                    };
                    area.draw(&Polygon::new(outline.clone(), fill.filled()))?;
                    area.draw(&PathElement::new(outline, color.stroke_width(2)))?;
                }
            }
            Glyph::Swatch(color) => {
                let s = (self.font_size * 0.45).round() as i32;
                let cx = x + w / 2;
                area.draw(&Rectangle::new(
                    [(cx - s, y - s), (cx + s, y + s)],
                    color.filled(),
                ))?;
                area.draw(&Rectangle::new(
                    [(cx - s, y - s), (cx + s, y + s)],
                    RGBColor(120, 120, 120).stroke_width(1),
                ))?;
            }
            Glyph::Rule(color) => {
                let h = (self.font_size * 0.6).round() as i32;
                let cx = x + w / 2;
                area.draw(&PathElement::new(
                    vec![(cx, y - h), (cx, y + h)],
                    color.stroke_width(2),
                ))?;
            }
        }
        Ok(())
    }
}

/// Marker shapes, one per series of a chart in turn: circle, square, triangle, diamond,
/// inverted triangle, plus, cross, star. Drawn hollow, so that series whose points coincide
/// stay visible. Eight, so that a chart of up to eight series (six searches in
/// reinefeld-1987's panels) never gives two of them one shape.
pub(crate) const MARKER_SHAPES: usize = 8;

/// The closed outline of marker `shape` (wraps around) of radius `r`, around (0, 0).
pub(crate) fn marker_outline(shape: usize, r: i32) -> Vec<(i32, i32)> {
    let rf = r as f64;
    let pts: Vec<(f64, f64)> = match shape % MARKER_SHAPES {
        0 => (0..=16)
            .map(|i| {
                let a = i as f64 * std::f64::consts::TAU / 16.0;
                (rf * a.cos(), rf * a.sin())
            })
            .collect(),
        1 => {
            let q = rf * 0.85;
            vec![(-q, -q), (q, -q), (q, q), (-q, q), (-q, -q)]
        }
        2 => vec![
            (0.0, -rf * 1.15),
            (rf, rf * 0.75),
            (-rf, rf * 0.75),
            (0.0, -rf * 1.15),
        ],
        3 => {
            let q = rf * 1.2;
            vec![(0.0, -q), (q, 0.0), (0.0, q), (-q, 0.0), (0.0, -q)]
        }
        4 => vec![
            (0.0, rf * 1.15),
            (rf, -rf * 0.75),
            (-rf, -rf * 0.75),
            (0.0, rf * 1.15),
        ],
        // A plus, and the same turned by 45 degrees (a cross), each with arms a third as wide
        // as they are long.
        5 | 6 => {
            let (a, l) = (rf * 0.38, rf * 1.15);
            let plus = [
                (-a, -l),
                (a, -l),
                (a, -a),
                (l, -a),
                (l, a),
                (a, a),
                (a, l),
                (-a, l),
                (-a, a),
                (-l, a),
                (-l, -a),
                (-a, -a),
                (-a, -l),
            ];
            let turn = if shape % MARKER_SHAPES == 6 {
                std::f64::consts::FRAC_PI_4
            } else {
                0.0
            };
            let (sin, cos) = turn.sin_cos();
            plus.iter()
                .map(|&(x, y)| (x * cos - y * sin, x * sin + y * cos))
                .collect()
        }
        // A five-pointed star, a point up.
        _ => (0..=10)
            .map(|i| {
                let a = -std::f64::consts::FRAC_PI_2 + i as f64 * std::f64::consts::PI / 5.0;
                let radius = if i % 2 == 0 { rf * 1.3 } else { rf * 0.55 };
                (radius * a.cos(), radius * a.sin())
            })
            .collect(),
    };
    pts.into_iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(label: &str) -> Entry {
        Entry {
            glyph: Glyph::Swatch(RGBColor(0, 0, 0)),
            label: label.into(),
        }
    }

    #[test]
    fn a_table_keeps_its_rows_and_columns_or_flows_when_too_wide() {
        crate::font::ensure_registered().unwrap();
        let cells = || {
            vec![
                ((1, 0), entry("time")),
                ((0, 1), entry("search, paper")),
                ((0, 0), entry("search")),
                ((2, 0), entry("model")),
            ]
        };
        let t = Legend::table(cells(), 15.0, 3, 900);
        let labels = |l: &Legend| -> Vec<Vec<String>> {
            l.rows
                .iter()
                .map(|r| r.iter().map(|&i| l.entries[i].0.label.clone()).collect())
                .collect()
        };
        assert_eq!(
            labels(&t),
            [vec!["search", "search, paper"], vec!["time"], vec!["model"]]
        );
        let (columns, widths) = t.table.as_ref().expect("fits");
        assert_eq!(columns, &[0, 1, 0, 0]);
        assert_eq!(widths.len(), 2);
        // Too narrow for two columns: the entries flow in row order, one per row here.
        let narrow = Legend::table(cells(), 15.0, 3, 120);
        assert!(narrow.table.is_none());
        assert_eq!(narrow.rows.len(), 4);
        assert_eq!(narrow.height(), 4 * narrow.row_height() + 9);
    }

    #[test]
    fn every_marker_shape_is_distinct_and_closed() {
        let shapes: Vec<Vec<(i32, i32)>> =
            (0..MARKER_SHAPES).map(|k| marker_outline(k, 5)).collect();
        for (i, a) in shapes.iter().enumerate() {
            assert_eq!(a.first(), a.last(), "shape {i} is closed");
            for b in &shapes[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(marker_outline(MARKER_SHAPES, 5), shapes[0], "wraps around");
    }
}
