//! The synchronization-overhead study: measured idle time against the paper's estimates.
//!
//! For every tree configuration and processor count, the measured synchronization overhead (all
//! processors' idle_sync time over the uniprocessor leaf time, section VII) beside eq. (14)'s
//! f/2(w+1) for odd depths, 3f/4(w−1) for even depths, the (f−1)/w the authors suspected was
//! closer, and a least-squares fit of overhead = a·f^b over f ≥ 2 (is it O(f²)?).

use crate::load::Plan;
use crate::results::{by_config, csv_float, fixed, mean_se, Summary, UNDEFINED};
use algorithms::model;
use plots::{LineChart, LineStyle, Series};
use std::path::Path;

/// A fit of y = a·x^b by least squares on logarithms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerFit {
    /// The exponent b.
    pub exponent: f64,
    /// Standard error of the exponent (NaN with fewer than three points).
    pub exponent_se: f64,
    /// The points the fit used (those with x > 0 and y > 0).
    pub points: usize,
}

/// Fits y = a·x^b on the points with x > 0 and y > 0.
pub fn power_fit(points: &[(f64, f64)]) -> Option<PowerFit> {
    let p: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = p.len();
    if n < 2 {
        return None;
    }
    let mx = p.iter().map(|q| q.0).sum::<f64>() / n as f64;
    let my = p.iter().map(|q| q.1).sum::<f64>() / n as f64;
    let sxx: f64 = p.iter().map(|q| (q.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let sxy: f64 = p.iter().map(|q| (q.0 - mx) * (q.1 - my)).sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let se = if n > 2 {
        let rss: f64 = p.iter().map(|q| (q.1 - a - b * q.0).powi(2)).sum();
        (rss / (n - 2) as f64 / sxx).sqrt()
    } else {
        f64::NAN
    };
    Some(PowerFit {
        exponent: b,
        exponent_se: se,
        points: n,
    })
}

/// One row of the study: a configuration at one processor count, its measured synchronization
/// overhead (from the run summary) and the model's estimates beside it.
#[derive(Clone, Debug)]
pub struct StudyRow {
    /// The configuration, processor count and measured overhead (`sync_overhead` ± `_se`).
    pub summary: Summary,
    /// Eq. (14), f/2(w+1): the paper's estimate for odd depths.
    pub f_over_2w1: f64,
    /// 3f/4(w−1): the paper's estimate for even depths (NaN at w = 1).
    pub three_f_over_4wm1: f64,
    /// (f−1)/w: the estimate the authors suspected was closer (section VIII).
    pub fm1_over_w: f64,
    /// I_{d,f}/E_{d,0} without the paper's approximation.
    pub model_ie: f64,
}

impl StudyRow {
    /// The paper's estimate for this depth's parity.
    pub fn parity_estimate(&self) -> f64 {
        if self.summary.depth % 2 == 1 {
            self.f_over_2w1
        } else {
            self.three_f_over_4wm1
        }
    }
}

/// The study of one plan's results.
pub struct SyncStudy {
    /// One row per configuration and processor count, in plan order and by increasing fanout.
    pub rows: Vec<StudyRow>,
    /// Per configuration (plan order): the rows' indices and the power fit.
    pub configs: Vec<(Vec<usize>, Option<PowerFit>)>,
}

// Palette entries ([`plots::PALETTE`]) of the study's chart. No estimate shares a colour, or a
// near one (orange beside vermillion, sky blue beside blue), with a measurement.
/// Eq. 14's estimate (odd or even depths, one per panel), dashed: near-black.
const EQ14_COLOR: usize = 6;
/// The (f−1)/w estimate, dashed: reddish purple.
const FM1_COLOR: usize = 3;
/// The measured orderings, in turn: blue, vermillion, bluish green, then the rest.
const MEASURED_COLORS: [usize; 10] = [0, 1, 2, 7, 8, 9, 10, 11, 4, 5];

/// The fit of measured = a·f^b over the processor counts that share a PV node's other w − 1
/// branches, 2 ≤ f ≤ w − 1: from f = w on, a processor has none to search there, and its idle
/// time is saturation, not the synchronization the model estimates.
fn fitted<'a>(summaries: impl Iterator<Item = &'a Summary>) -> Option<PowerFit> {
    let pts: Vec<(f64, f64)> = summaries
        .filter(|s| s.fanout >= 2 && s.fanout < s.width)
        .map(|s| (s.fanout as f64, s.sync_overhead))
        .collect();
    power_fit(&pts)
}

impl SyncStudy {
    /// The study of `summaries` (the run summaries of the plan; the groups are its
    /// configurations, see [`by_config`]).
    pub fn new(_plan: &Plan, summaries: &[Summary]) -> Self {
        let mut rows = Vec::new();
        let mut configs = Vec::new();
        for group in by_config(summaries) {
            let mut idx = Vec::new();
            let mut sorted: Vec<&Summary> = group.iter().collect();
            sorted.sort_by_key(|s| s.fanout);
            for s in sorted {
                let (w, f) = (s.width as u64, s.fanout as u64);
                let nan = |r: Result<f64, model::ModelError>| r.unwrap_or(f64::NAN);
                idx.push(rows.len());
                rows.push(StudyRow {
                    summary: s.clone(),
                    f_over_2w1: nan(model::sync_overhead_odd(w, f)),
                    three_f_over_4wm1: nan(model::sync_overhead_even(w, f)),
                    fm1_over_w: nan(model::sync_overhead_fm1_over_w(w, f)),
                    model_ie: nan(model::sync_overhead_model(w, s.depth, f)),
                });
            }
            let fit = fitted(idx.iter().map(|&i| &rows[i].summary));
            configs.push((idx, fit));
        }
        SyncStudy { rows, configs }
    }

    /// Every row, as CSV.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "width,depth,ordering,horizon_noise,fanout,runs,sync_measured,sync_measured_se,f_over_2w_plus_1,three_f_over_4w_minus_1,f_minus_1_over_w,model_i_over_e\n",
        );
        for r in &self.rows {
            s.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                r.summary.width,
                r.summary.depth,
                r.summary.ordering,
                r.summary.horizon_noise,
                r.summary.fanout,
                r.summary.runs,
                csv_float(r.summary.sync_overhead),
                csv_float(r.summary.sync_overhead_se),
                csv_float(r.f_over_2w1),
                csv_float(r.three_f_over_4wm1),
                csv_float(r.fm1_over_w),
                csv_float(r.model_ie)
            ));
        }
        s
    }

    /// The rows of one ordering and horizon noise with f ≥ 2 (where anything can wait).
    fn multiprocessor_rows(&self, ordering: &str, noise: u32) -> Vec<&StudyRow> {
        self.rows
            .iter()
            .filter(|r| {
                r.summary.ordering == ordering
                    && r.summary.horizon_noise == noise
                    && r.summary.fanout >= 2
            })
            .collect()
    }

    /// Share of rows with f ≥ 2 where `estimate` is within a factor 1.5 of the measurement.
    fn agreement(&self, estimate: impl Fn(&StudyRow) -> f64, rows: &[&StudyRow]) -> (usize, usize) {
        let ok = rows
            .iter()
            .filter(|r| {
                let q = r.summary.sync_overhead / estimate(r);
                q.is_finite() && (1.0 / 1.5..=1.5).contains(&q)
            })
            .count();
        (ok, rows.len())
    }

    /// The report section.
    pub fn markdown(&self) -> String {
        let mut out = String::from(
            "\n## Synchronization overhead against the model\n\n\
             Measured: idle_sync time of all processors over the uniprocessor leaf time, a ratio of\n\
             means over the seeds (mean idle time over mean leaf time) ± its standard error (the\n\
             delta method). Estimates: eq. (14) f/2(w+1) for odd depths and 3f/4(w−1) for even depths\n\
             (\"parity est.\"), (f−1)/w (section VIII), and the model's own I_{d,f}/E_{d,0} before the\n\
             paper's approximation. b: least-squares fit of measured = a·f^b over 2 ≤ f ≤ w − 1 (± standard\n\
             error): the processor counts that share a PV node's other w − 1 branches; from f = w on\n\
             a processor has none of them to search, and its idle time is that saturation rather than\n\
             the synchronization the model estimates (the tables show every f). The paper's estimates\n\
             are linear in f (b = 1), its data suggested O(f²) (b = 2).\n\
             All overheads in %. Every processor count is in the detail table below and in\n\
             sync-overhead.csv.\n\n\
             ### Main table\n\n\
             | w | d | ordering | noise | f = 4 measured | parity est. | (f−1)/w | f = 16 measured | parity est. | (f−1)/w | b |\n\
             |---|---|---|---|---|---|---|---|---|---|---|\n",
        );
        let at = |idx: &[usize], f: u32| {
            idx.iter()
                .map(|&i| &self.rows[i])
                .find(|r| r.summary.fanout == f)
        };
        let cells = |r: Option<&StudyRow>| {
            r.map_or("– | – | –".to_string(), |r| {
                format!(
                    "{} | {} | {}",
                    mean_se(
                        100.0 * r.summary.sync_overhead,
                        100.0 * r.summary.sync_overhead_se,
                        1
                    ),
                    fixed(100.0 * r.parity_estimate(), 1),
                    fixed(100.0 * r.fm1_over_w, 1)
                )
            })
        };
        for (idx, fit) in &self.configs {
            let Some(first) = idx.first().map(|&i| &self.rows[i]) else {
                continue;
            };
            let b = fit.map_or(UNDEFINED.to_string(), |p| {
                mean_se(p.exponent, p.exponent_se, 2)
            });
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                first.summary.width,
                first.summary.depth,
                first.summary.ordering,
                first.summary.horizon_noise,
                cells(at(idx, 4)),
                cells(at(idx, 16)),
                b,
            ));
        }
        out.push_str(
            "\n### Detail (f = 2, 4, 8, 16)\n\n\
             \\* marks the estimate for the row's parity (f/2(w+1) for an odd depth, 3f/4(w−1) for an even \
             one), the one the main table's \"parity est.\" gives.\n\n\
             | w | d | ordering | noise | f | measured % | f/2(w+1) % | 3f/4(w−1) % | (f−1)/w % | I/E % |\n\
             |---|---|---|---|---|---|---|---|---|---|\n",
        );
        for r in &self.rows {
            if ![2, 4, 8, 16].contains(&r.summary.fanout) {
                continue;
            }
            let star = |odd: bool| {
                if (r.summary.depth % 2 == 1) == odd {
                    "\\*"
                } else {
                    ""
                }
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {}{} | {}{} | {} | {} |\n",
                r.summary.width,
                r.summary.depth,
                r.summary.ordering,
                r.summary.horizon_noise,
                r.summary.fanout,
                mean_se(
                    100.0 * r.summary.sync_overhead,
                    100.0 * r.summary.sync_overhead_se,
                    2
                ),
                fixed(100.0 * r.f_over_2w1, 2),
                star(true),
                fixed(100.0 * r.three_f_over_4wm1, 2),
                star(false),
                fixed(100.0 * r.fm1_over_w, 2),
                fixed(100.0 * r.model_ie, 2),
            ));
        }
        // Plain statements, computed from the table.
        out.push_str("\n### Where each estimate holds\n\n");
        let mut groups: Vec<(&str, u32)> = Vec::new();
        for r in &self.rows {
            if !groups.contains(&(r.summary.ordering.as_str(), r.summary.horizon_noise)) {
                groups.push((r.summary.ordering.as_str(), r.summary.horizon_noise));
            }
        }
        out.push_str(
            "Share of (configuration, f ≥ 2) points where the estimate is within a factor 1.5 of the\n\
             measurement:\n\n| ordering | noise | parity estimate (eq. 14) | (f−1)/w | I/E |\n|---|---|---|---|---|\n",
        );
        for (o, n) in &groups {
            let rows = self.multiprocessor_rows(o, *n);
            let cell = |(a, n): (usize, usize)| format!("{a} of {n}");
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                o,
                n,
                cell(self.agreement(StudyRow::parity_estimate, &rows)),
                cell(self.agreement(|r| r.fm1_over_w, &rows)),
                cell(self.agreement(|r| r.model_ie, &rows)),
            ));
        }
        // Plain statements, from the numbers above.
        out.push('\n');
        for (o, n) in &groups {
            let fits: Vec<f64> = self
                .configs
                .iter()
                .filter(|(idx, _)| {
                    idx.first().is_some_and(|&i| {
                        self.rows[i].summary.ordering == *o
                            && self.rows[i].summary.horizon_noise == *n
                    })
                })
                .filter_map(|(_, f)| f.map(|p| p.exponent))
                .collect();
            if fits.is_empty() {
                continue;
            }
            let rows = self.multiprocessor_rows(o, *n);
            let best = [
                (
                    "the parity estimate of eq. (14)",
                    self.agreement(StudyRow::parity_estimate, &rows),
                ),
                ("(f−1)/w", self.agreement(|r| r.fm1_over_w, &rows)),
                ("the model's I/E", self.agreement(|r| r.model_ie, &rows)),
            ]
            .into_iter()
            .max_by_key(|(_, (ok, _))| *ok)
            .expect("three estimates");
            let above = rows
                .iter()
                .filter(|r| r.summary.sync_overhead > r.parity_estimate())
                .count();
            let lo = fits.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = fits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            out.push_str(&format!(
                "- **{o}, horizon noise {n}:** the measured overhead fits f^b with b from {lo:.2} to {hi:.2} (over 2 ≤ f ≤ w − 1); it is above the parity estimate in {above} of {} points; the closest estimate is {} (within a factor 1.5 in {} of {} points).\n",
                rows.len(),
                best.0,
                best.1 .0,
                best.1 .1,
            ));
        }
        out
    }

    /// sync-overhead.png: one panel per width and depth parity, measured against the three
    /// estimates.
    pub fn plot(&self, path: &Path) -> Result<(), plots::PlotError> {
        plots::panels_one_legend(
            path,
            "Synchronization overhead: measured (solid, ± s.e.) against the estimates (dashed)",
            &self.charts(),
            if self.noises().len() > 1 { 4 } else { 2 },
        )
    }

    fn noises(&self) -> Vec<u32> {
        let mut noises: Vec<u32> = self.rows.iter().map(|r| r.summary.horizon_noise).collect();
        noises.sort();
        noises.dedup();
        noises
    }

    /// The panels of sync-overhead.png: per width, horizon noise and depth parity.
    pub fn charts(&self) -> Vec<LineChart> {
        let mut widths: Vec<u32> = self.rows.iter().map(|r| r.summary.width).collect();
        widths.sort();
        widths.dedup();
        let mut orderings: Vec<String> = Vec::new();
        for r in &self.rows {
            if !orderings.contains(&r.summary.ordering) {
                orderings.push(r.summary.ordering.clone());
            }
        }
        let noises = self.noises();
        let mut charts = Vec::new();
        for &w in &widths {
            for (noise, odd) in noises.iter().flat_map(|&n| [(n, true), (n, false)]) {
                let mine: Vec<&(Vec<usize>, Option<PowerFit>)> = self
                    .configs
                    .iter()
                    .filter(|(idx, _)| {
                        idx.first().is_some_and(|&i| {
                            let r = &self.rows[i];
                            r.summary.width == w
                                && (r.summary.depth % 2 == 1) == odd
                                && r.summary.horizon_noise == noise
                        })
                    })
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let mut depths: Vec<u32> = mine
                    .iter()
                    .filter_map(|(idx, _)| idx.first().map(|&i| self.rows[i].summary.depth))
                    .collect();
                depths.sort();
                depths.dedup();
                let mut series = Vec::new();
                for (idx, _) in &mine {
                    let rows: Vec<&StudyRow> = idx
                        .iter()
                        .map(|&i| &self.rows[i])
                        .filter(|r| r.summary.fanout >= 2)
                        .collect();
                    let Some(r0) = rows.first() else { continue };
                    let color = MEASURED_COLORS[orderings
                        .iter()
                        .position(|o| *o == r0.summary.ordering)
                        .unwrap_or(0)
                        % MEASURED_COLORS.len()];
                    // With one or two depths of a parity (as shipped), named by rank (the
                    // panel's title gives them), so that every panel lists the same series
                    // and one legend serves them all.
                    let label = match depths.as_slice() {
                        [_] => format!("measured, {}", r0.summary.ordering),
                        [lo, _] if r0.summary.depth == *lo => {
                            format!("measured, {}, shallower d", r0.summary.ordering)
                        }
                        [_, _] => format!("measured, {}, deeper d", r0.summary.ordering),
                        _ => format!("measured, {} d={}", r0.summary.ordering, r0.summary.depth),
                    };
                    series.push(Series {
                        label,
                        points: rows
                            .iter()
                            .map(|r| (r.summary.fanout as f64, 100.0 * r.summary.sync_overhead))
                            .collect(),
                        style: LineStyle::Solid,
                        color,
                        errors: Some(
                            rows.iter()
                                .map(|r| 100.0 * r.summary.sync_overhead_se)
                                .collect(),
                        ),
                        markers: r0.summary.depth == *depths.last().unwrap_or(&0),
                    });
                }
                // The estimates depend on w and f only: take them from any configuration.
                let rows: Vec<&StudyRow> = mine[0]
                    .0
                    .iter()
                    .map(|&i| &self.rows[i])
                    .filter(|r| r.summary.fanout >= 2)
                    .collect();
                let est = |label: &str, color: usize, g: fn(&StudyRow) -> f64| Series {
                    label: label.into(),
                    points: rows
                        .iter()
                        .map(|r| (r.summary.fanout as f64, 100.0 * g(r)))
                        .collect(),
                    style: LineStyle::Dashed,
                    color,
                    errors: None,
                    markers: false,
                };
                // Only the estimate for this panel's depth parity.
                // (One label for both, so that odd and even panels share one legend.)
                let eq14 = "f/2(w+1) at odd d (eq. 14), 3f/4(w-1) at even d";
                if odd {
                    series.push(est(eq14, EQ14_COLOR, |r| r.f_over_2w1));
                } else {
                    series.push(est(eq14, EQ14_COLOR, |r| r.three_f_over_4wm1));
                }
                series.push(est("(f-1)/w", FM1_COLOR, |r| r.fm1_over_w));
                let ds: Vec<String> = depths.iter().map(|d| d.to_string()).collect();
                charts.push(LineChart {
                    title: format!(
                        "w = {w}, {} depths (d = {}){}",
                        if odd { "odd" } else { "even" },
                        ds.join(", "),
                        if noises.len() > 1 {
                            format!(", horizon noise {noise}")
                        } else {
                            String::new()
                        }
                    ),
                    x_label: "processors f".into(),
                    y_label: "synchronization overhead (%)".into(),
                    series,
                    integer_x: true,
                    log2_x: false,
                });
            }
        }
        charts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_measured_ordering_takes_an_estimates_colour() {
        let estimates = [EQ14_COLOR, FM1_COLOR];
        assert_ne!(EQ14_COLOR, FM1_COLOR);
        for (i, c) in MEASURED_COLORS.iter().enumerate() {
            assert!(
                !estimates.contains(c),
                "measured ordering {i} has colour {c}"
            );
            assert!(*c < plots::PALETTE.len());
            assert!(!MEASURED_COLORS[..i].contains(c), "colour {c} twice");
        }
    }

    #[test]
    fn power_fit_recovers_exponents() {
        let quad: Vec<(f64, f64)> = (2..=16).map(|f| (f as f64, 0.3 * (f * f) as f64)).collect();
        let p = power_fit(&quad).unwrap();
        assert!((p.exponent - 2.0).abs() < 1e-12);
        assert!(p.exponent_se < 1e-9);
        let lin: Vec<(f64, f64)> = (2..=8).map(|f| (f as f64, 0.01 * f as f64)).collect();
        assert!((power_fit(&lin).unwrap().exponent - 1.0).abs() < 1e-12);
        assert!(power_fit(&[(2.0, 1.0)]).is_none());
        assert!(power_fit(&[(2.0, 0.0), (3.0, 0.0)]).is_none());
    }

    #[test]
    fn the_exponent_is_fitted_where_processors_share_a_pv_nodes_branches() {
        // w = 6: f = 2..5 grow as f², then the saturated counts jump; f = 1 has no overhead.
        let at = |fanout: u32, sync_overhead: f64| Summary {
            width: 6,
            fanout,
            sync_overhead,
            ..Default::default()
        };
        let mut rows: Vec<Summary> = (1..=5).map(|f| at(f, 0.01 * (f * f) as f64)).collect();
        rows.extend((6..=16).map(|f| at(f, 10.0 * f as f64)));
        let b = fitted(rows.iter()).unwrap().exponent;
        assert!((b - 2.0).abs() < 1e-12, "{b}");
        // Too few counts below w: no fit.
        let narrow: Vec<Summary> = (1..=8)
            .map(|f| Summary {
                width: 3,
                ..at(f, f as f64)
            })
            .collect();
        assert!(fitted(narrow.iter()).is_none());
    }
}
