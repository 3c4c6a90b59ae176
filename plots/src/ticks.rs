//! Axis ranges and "nice" tick positions (steps of 1, 2 or 5 times a power of ten), with labels
//! that all use the same number of decimals so that neighbouring labels read alike.
//!
//! [`Axis`] is itself a plotters coordinate, so the ticks plotters draws are exactly ours.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

/// One axis: its range, the tick positions inside it, and how to print them.
#[derive(Clone, Debug)]
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    decimals: usize,
    scientific: bool,
    /// The values are base-2 logarithms: a tick at v is labelled 2^v.
    log2: bool,
}

impl Axis {
    /// An axis over `lo..hi` with about `target` ticks (never fewer than two when the range
    /// allows). With `integer`, ticks fall on whole numbers only.
    pub fn new(lo: f64, hi: f64, target: usize, integer: bool) -> Axis {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let raw = (hi - lo) / target.max(1) as f64;
        let magnitude = 10f64.powf(raw.log10().floor());
        let normalized = raw / magnitude;
        let nice = if normalized <= 1.0 {
            1.0
        } else if normalized <= 2.0 {
            2.0
        } else if normalized <= 5.0 {
            5.0
        } else {
            10.0
        };
        let mut step = nice * magnitude;
        if integer {
            step = step.max(1.0).round();
        }
        let first = (lo / step - 1e-9).ceil();
        let last = (hi / step + 1e-9).floor();
        let ticks: Vec<f64> = if last - first <= 1000.0 {
            // Multiples of the step from integers, so 0.1 * 3 prints as 0.3.
            (first as i64..=last as i64)
                .map(|k| k as f64 * step)
                .map(|t| if t == 0.0 { 0.0 } else { t })
                .filter(|t| (lo..=hi).contains(t))
                .collect()
        } else {
            // A range too narrow for its magnitude to be divided (e.g. 1e20 ± 1e-5).
            vec![lo, hi]
        };
        let decimals = if step >= 1.0 {
            0
        } else {
            (-step.log10().floor()) as usize
        };
        let biggest = lo.abs().max(hi.abs());
        let scientific = biggest >= 1e7 || (biggest < 1e-3 && biggest > 0.0);
        Axis {
            lo,
            hi,
            ticks,
            decimals,
            scientific,
            log2: false,
        }
    }

    /// An axis of base-2 logarithms over `lo..hi`: ticks at the whole numbers inside (labelled
    /// 1, 2, 4, … or 0.5, 0.25, …), every other one when there are more than `target`.
    pub fn log2(lo: f64, hi: f64, target: usize) -> Axis {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let (first, last) = ((lo - 1e-9).ceil() as i64, (hi + 1e-9).floor() as i64);
        let span = (last - first + 1).max(1) as usize;
        let every = span.div_ceil(target.max(2)).max(1) as i64;
        let ticks = (first..=last)
            .filter(|k| (k - first) % every == 0)
            .map(|k| k as f64)
            .collect();
        Axis {
            lo,
            hi,
            ticks,
            decimals: 0,
            scientific: false,
            log2: true,
        }
    }

    /// A [`log2`](Axis::log2) axis with ticks at the data's own x values too (base-2
    /// logarithms), so that no point stands between powers of two with nothing to read its x
    /// by: a sweep of 1 to 6 processors shows 1, 2, 3, 4, 5, 6, one ending at 12 shows 12. Each
    /// is taken in the order given (the largest x first, then the others) where it lies inside
    /// the axis, is a whole number, as its label would be, and its label keeps clear of every
    /// tick's taken so far: `px_per_unit` pixels a unit of the axis, `width` a label's in pixels.
    pub fn with_data_ticks(
        mut self,
        xs: &[f64],
        px_per_unit: f64,
        width: impl Fn(&str) -> f64,
    ) -> Axis {
        // Pixels of clear space between two labels.
        const SPACE: f64 = 10.0;
        if !self.log2 {
            return self;
        }
        for &x in xs {
            // Labelled as a whole number: only a whole number (of processors, say) gets a tick.
            let integer = (x.exp2() - x.exp2().round()).abs() < 1e-6;
            if !(x.is_finite() && integer && (self.lo..=self.hi).contains(&x)) {
                continue;
            }
            let w = width(&self.format(x));
            let room = self.ticks.iter().all(|&t| {
                (t - x).abs() * px_per_unit >= (w + width(&self.format(t))) / 2.0 + SPACE
            });
            if room {
                self.ticks.push(x);
                self.ticks.sort_by(f64::total_cmp);
            }
        }
        self
    }

    /// An axis over `lo..hi` with ticks exactly at `ticks` (labels printed by the caller).
    pub fn with_ticks(lo: f64, hi: f64, ticks: Vec<f64>) -> Axis {
        Axis {
            lo,
            hi,
            ticks,
            decimals: 0,
            scientific: false,
            log2: false,
        }
    }

    /// A tick label.
    pub fn format(&self, v: f64) -> String {
        if self.log2 {
            let x = v.exp2();
            return if x >= 1.0 {
                format!("{x:.0}")
            } else {
                // 0.5, 0.25, 0.125: as many decimals as the power needs.
                format!("{x:.*}", (-v).ceil() as usize)
            };
        }
        if self.scientific {
            let s = format!("{v:.2e}");
            // 1.50e6 -> 1.5e6, 2.00e6 -> 2e6
            match s.split_once('e') {
                Some((mantissa, exp)) if mantissa.contains('.') => {
                    let m = mantissa.trim_end_matches('0').trim_end_matches('.');
                    format!("{m}e{exp}")
                }
                _ => s,
            }
        } else {
            let s = format!("{:.*}", self.decimals, v);
            if s.starts_with('-') && s.trim_start_matches(['-', '0', '.']).is_empty() {
                s[1..].to_string()
            } else {
                s
            }
        }
    }

    /// The widest tick label in pixels for a font.
    pub fn widest_label(&self, font: &plotters::style::FontDesc<'_>) -> u32 {
        self.ticks
            .iter()
            .map(|&t| crate::font::measure(&self.format(t), font).0)
            .max()
            .unwrap_or(0)
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    /// Linear, as plotters' own `f64` coordinate.
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let fraction = (v - self.lo) / (self.hi - self.lo);
        let length = limit.1 - limit.0;
        if length == 0 || !fraction.is_finite() {
            return if fraction.is_sign_negative() {
                limit.0
            } else {
                limit.1
            };
        }
        if length > 0 {
            limit.0 + (length as f64 * fraction + 1e-3).floor() as i32
        } else {
            limit.0 + (length as f64 * fraction - 1e-3).ceil() as i32
        }
    }

    /// Our ticks as the labelled (bold) points; no light grid lines.
    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// A data range widened for display: `margin` (a fraction of the span) on each side, starting
/// at zero when every value is non-negative (and ending at zero when every value is
/// non-positive), and never empty.
pub(crate) fn padded_range(min: f64, max: f64, margin: f64, anchor_zero: bool) -> (f64, f64) {
    if !(min.is_finite() && max.is_finite()) || min > max {
        return (0.0, 1.0);
    }
    let span = max - min;
    let pad = if span > 0.0 {
        span * margin
    } else if min != 0.0 {
        min.abs() * 0.1
    } else {
        1.0
    };
    let mut lo = min - pad;
    let mut hi = max + pad;
    if anchor_zero && min >= 0.0 {
        lo = 0.0;
        if max == 0.0 {
            hi = 1.0;
        }
    }
    if anchor_zero && max <= 0.0 && min < 0.0 {
        hi = 0.0;
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels of `axis`'s ticks.
    fn labels(axis: &Axis) -> Vec<String> {
        axis.ticks.iter().map(|&t| axis.format(t)).collect()
    }

    /// Eight pixels a character.
    fn width(label: &str) -> f64 {
        8.0 * label.len() as f64
    }

    #[test]
    fn a_log_axis_marks_the_data_between_powers_of_two() {
        // 1 to 12 processors: 1, 2, 4, 8, and 12.
        let axis =
            Axis::log2(-0.2, 12f64.log2() + 0.2, 10).with_data_ticks(&[12f64.log2()], 100.0, width);
        assert_eq!(labels(&axis), ["1", "2", "4", "8", "12"]);
        // 1 to 6: every one, where there is room (5 is a factor 1.25 from 4, 0.32 of a unit).
        let xs: Vec<f64> = [6.0f64, 1.0, 2.0, 3.0, 4.0, 5.0]
            .iter()
            .map(|x| x.log2())
            .collect();
        let axis = Axis::log2(-0.1, 6f64.log2() + 0.1, 10).with_data_ticks(&xs, 300.0, width);
        assert_eq!(labels(&axis), ["1", "2", "3", "4", "5", "6"]);
        // In a narrow panel 5 is left out (its label would touch 4's), the end kept first.
        let axis = Axis::log2(-0.1, 6f64.log2() + 0.1, 10).with_data_ticks(&xs, 50.0, width);
        assert_eq!(labels(&axis), ["1", "2", "3", "4", "6"]);
        // Not where the label would round (12.5), nor outside the axis, nor on a linear axis.
        let axis = Axis::log2(0.0, 4.0, 10).with_data_ticks(&[12.5f64.log2(), 5.0], 300.0, width);
        assert_eq!(labels(&axis), ["1", "2", "4", "8", "16"]);
        let linear = Axis::new(0.0, 12.0, 5, true).with_data_ticks(&[3.5], 100.0, width);
        assert!(!linear.ticks.contains(&3.5));
    }

    #[test]
    fn integer_ticks_are_whole_numbers() {
        let a = Axis::new(0.7, 4.3, 10, true);
        assert_eq!(a.ticks, vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(a.format(2.0), "2");
    }

    #[test]
    fn fractional_ticks_share_decimals() {
        let a = Axis::new(0.0, 1.0, 5, false);
        assert_eq!(a.ticks.len(), 6);
        assert_eq!(a.format(a.ticks[1]), "0.2");
        assert_eq!(a.format(0.0), "0.0");
    }

    #[test]
    fn extreme_ranges_do_not_explode() {
        let a = Axis::new(1e20, 1e20 + 1e6, 8, false);
        assert!(!a.ticks.is_empty() && a.ticks.len() <= 10);
        assert!(a.ticks.iter().all(|t| (a.lo..=a.hi).contains(t)));
        let b = Axis::new(0.0, 5e-4, 5, false);
        assert!(b.ticks.len() >= 2);
        assert_eq!(b.format(1e-4), "1e-4");
    }

    #[test]
    fn degenerate_ranges_are_widened() {
        assert_eq!(padded_range(5.0, 5.0, 0.05, true), (0.0, 5.5));
        assert_eq!(padded_range(0.0, 0.0, 0.05, true), (0.0, 1.0));
        assert_eq!(padded_range(f64::INFINITY, 0.0, 0.05, true), (0.0, 1.0));
        let (lo, hi) = padded_range(-2.0, 3.0, 0.1, true);
        assert!(lo < -2.0 && hi > 3.0);
    }
}
