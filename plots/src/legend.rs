//! Legends laid out in rows under the plot, outside the data area, so they never cover data.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::font;
use crate::output::{Area, DrawError};
use crate::palette::TEXT;

/// What is drawn before a legend label.
#[derive(Clone, Debug)]
pub(crate) enum Glyph {
    /// A line sample, solid or dashed, with the series' marker shape (see [`marker_outline`])
    /// in the middle when it has markers.
    Line {
        color: RGBColor,
        dashed: bool,
        marker: Option<usize>,
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

/// Entries placed in centred rows that fit a width.
pub(crate) struct Legend {
    entries: Vec<(Entry, u32)>,
    rows: Vec<Vec<usize>>,
    font_size: f64,
    line_width: u32,
}

impl Legend {
    pub fn new(entries: Vec<Entry>, font_size: f64, line_width: u32, max_width: u32) -> Legend {
        let f = font::regular(font_size);
        let gap = Self::gap_for(font_size);
        let entries: Vec<(Entry, u32)> = entries
            .into_iter()
            .map(|mut e| {
                let glyph_w = Self::glyph_width_for(&e.glyph, font_size);
                let max_label = max_width.saturating_sub(glyph_w + gap).max(20);
                e.label = font::fit(&e.label, &f, max_label);
                let w = glyph_w + gap + font::measure(&e.label, &f).0;
                (e, w)
            })
            .collect();
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
        Legend {
            entries,
            rows,
            font_size,
            line_width,
        }
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
        for (r, row) in self.rows.iter().enumerate() {
            let row_w: i32 = row.iter().map(|&i| self.entries[i].1 as i32).sum::<i32>()
                + spacing * (row.len() as i32 - 1);
            let mut x = ((w as i32 - row_w) / 2).max(0);
            let y = top + r as i32 * row_h + row_h / 2;
            for &i in row {
                let (entry, width) = &self.entries[i];
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
                dashed,
                marker,
            } => {
                let style = color.stroke_width(self.line_width);
                let points = vec![(x, y), (x + w, y)];
                if *dashed {
                    let dash = (w / 4).max(3);
                    area.draw(&DashedPathElement::new(points, dash, dash / 2 + 1, style))?;
                } else {
                    area.draw(&PathElement::new(points, style))?;
                }
                if let Some(shape) = marker {
                    let r = (self.font_size * 0.3).round().max(3.0) as i32;
                    let (cx, cy) = (x + w / 2, y);
                    let outline: Vec<(i32, i32)> = marker_outline(*shape, r)
                        .into_iter()
                        .map(|(dx, dy)| (cx + dx, cy + dy))
                        .collect();
                    area.draw(&Polygon::new(outline.clone(), WHITE.filled()))?;
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
/// inverted triangle. Drawn hollow, so that series whose points coincide stay visible.
pub(crate) const MARKER_SHAPES: usize = 5;

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
        _ => vec![
            (0.0, rf * 1.15),
            (rf, -rf * 0.75),
            (-rf, -rf * 0.75),
            (0.0, rf * 1.15),
        ],
    };
    pts.into_iter()
        .map(|(x, y)| (x.round() as i32, y.round() as i32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
