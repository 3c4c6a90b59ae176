//! Report sections for the seed papers' comparisons of algorithms: the sequential tables of
//! Campbell's section 2.2 (algorithm × ordering, mean leaf nodes beside the minimal tree, with
//! their standard deviations) and of Reinefeld, Schaeffer and Marsland's section 4.1.2 (leaf
//! nodes as a percentage of the minimal tree, and its chart), and the speedup exponents of
//! Campbell's chapter 5 (speedup ∝ k^a for k terminal processors).

use crate::load::Plan;
use crate::results::{fixed, Summary};
use crate::util::distinct;
use plots::{LineChart, LineStyle, Series};
use std::collections::HashMap;

/// Whether every run of the plan is on one processor: a comparison of sequential searches.
pub fn is_sequential(plan: &Plan) -> bool {
    plan.ptrees.iter().all(|p| p.is_uniprocessor())
}

/// Leaves of the minimal tree of width `w` and depth `d` (Knuth and Moore):
/// w^⌈d/2⌉ + w^⌊d/2⌋ − 1.
pub fn minimal_tree(w: u32, d: u32) -> f64 {
    let w = w as f64;
    w.powi(d.div_ceil(2) as i32) + w.powi((d / 2) as i32) - 1.0
}

/// A tree shape with its horizon noise, as the tables key it.
type Shape = (u32, u32, u32);

fn shape(s: &Summary) -> Shape {
    (s.width, s.depth, s.horizon_noise)
}

fn shape_title((w, d, noise): Shape) -> String {
    if noise == 0 {
        format!("w = {w}, d = {d}")
    } else {
        format!("w = {w}, d = {d}, horizon noise {noise}")
    }
}

/// The uniprocessor summaries of a sequential plan.
fn uniprocessor(summaries: &[Summary]) -> Vec<&Summary> {
    summaries.iter().filter(|s| s.processors == 1).collect()
}

/// Campbell's layout (thesis section 2.2), one table per (w, d): mean leaf nodes (bottom
/// positions) per algorithm and ordering, the standard deviation over trees in parentheses,
/// the minimal tree beside them; then the same as a percentage of the minimal tree, one table
/// per ordering (the Reinefeld paper's measure); then the peak OPEN-list sizes.
pub fn sequential_tables(plan: &Plan, summaries: &[Summary]) -> String {
    let rows = uniprocessor(summaries);
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    let shapes = distinct(&rows, |s| shape(s));
    let orderings = distinct(&rows, |s| s.ordering.clone());
    // Each cell's summary (the first of its key, in plan order), indexed once: the tables
    // look up every cell, so scanning the rows per cell would be quadratic in the configurations.
    let mut cells: HashMap<(&str, Shape, &str), &Summary> = HashMap::new();
    for s in &rows {
        cells
            .entry((s.algorithm.as_str(), shape(s), s.ordering.as_str()))
            .or_insert(s);
    }
    let find = |a: &str, sh: Shape, o: &str| cells.get(&(a, sh, o)).copied();
    let seeds = rows.first().map_or(0, |s| s.runs);
    let mut out = format!(
        "## Leaf nodes by algorithm and ordering\n\n\
         Mean leaf nodes (bottom positions evaluated, NBP) over {seeds} trees, the standard \
         deviation over trees in parentheses (the spread of single searches, not the error of \
         the mean); the minimal tree w^⌈d/2⌉ + w^⌊d/2⌋ − 1 is the least any algorithm can \
         visit. Every search found every tree's minimax value.\n"
    );
    for &sh in &shapes {
        out.push_str(&format!(
            "\n### {} (minimal tree {} leaves)\n\n| algorithm |",
            shape_title(sh),
            fixed(minimal_tree(sh.0, sh.1), 0)
        ));
        for o in &orderings {
            out.push_str(&format!(" {o} |"));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(orderings.len()));
        out.push('\n');
        for a in &algorithms {
            if !orderings.iter().any(|o| find(a, sh, o).is_some()) {
                continue;
            }
            out.push_str(&format!("| {a} |"));
            for o in &orderings {
                match find(a, sh, o) {
                    Some(s) => out.push_str(&format!(
                        " {} ({}) |",
                        fixed(s.leaf_nodes, 0),
                        fixed(s.leaf_nodes_sd, 0)
                    )),
                    None => out.push_str(" – |"),
                }
            }
            out.push('\n');
        }
    }

    out.push_str(
        "\n## Leaf nodes as a percentage of the minimal tree\n\n\
         Mean leaf nodes over the minimal tree's, in percent (100 = minimal), one table per \
         ordering: the measure of Reinefeld, Schaeffer and Marsland, section 4.1.2.\n",
    );
    for o in &orderings {
        out.push_str(&format!("\n### {o}\n\n| tree |"));
        let present: Vec<&String> = algorithms
            .iter()
            .filter(|a| shapes.iter().any(|&sh| find(a, sh, o).is_some()))
            .collect();
        for a in &present {
            out.push_str(&format!(" {a} |"));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(present.len()));
        out.push('\n');
        for &sh in &shapes {
            out.push_str(&format!("| {} |", shape_title(sh)));
            for a in &present {
                match find(a, sh, o) {
                    Some(s) => out.push_str(&format!(
                        " {} |",
                        fixed(100.0 * s.leaf_nodes / minimal_tree(sh.0, sh.1), 0)
                    )),
                    None => out.push_str(" – |"),
                }
            }
            out.push('\n');
        }
    }

    // The storage the best-first searches pay for their leaf counts.
    let open: Vec<&String> = algorithms
        .iter()
        .filter(|a| {
            rows.iter()
                .any(|s| s.algorithm == **a && s.open_peak.is_finite())
        })
        .collect();
    if !open.is_empty() {
        out.push_str(
            "\n## Peak size of the OPEN list\n\n\
             Mean over trees of the largest number of entries the OPEN list held: the storage \
             the best-first searches need (the depth-first ones keep a stack of d frames).\n",
        );
        // One table per ordering; one for all when every ordering gives the same peaks (on
        // Campbell's uniform trees they do), rather than the same table again and again.
        let table = |o: &str| {
            let mut t = String::from("| tree |");
            for a in &open {
                t.push_str(&format!(" {a} |"));
            }
            t.push_str("\n|---|");
            t.push_str(&"---:|".repeat(open.len()));
            t.push('\n');
            for &sh in &shapes {
                t.push_str(&format!("| {} |", shape_title(sh)));
                for a in &open {
                    let peak = find(a, sh, o).map_or(f64::NAN, |s| s.open_peak);
                    t.push_str(&format!(" {} |", fixed(peak, 0)));
                }
                t.push('\n');
            }
            t
        };
        let tables: Vec<String> = orderings.iter().map(|o| table(o)).collect();
        if orderings.len() > 1 && tables.iter().all(|t| *t == tables[0]) {
            out.push_str(&format!(
                "\n### every ordering ({}: the same peaks)\n\n{}",
                orderings
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
                tables[0]
            ));
        } else {
            for (o, t) in orderings.iter().zip(&tables) {
                out.push_str(&format!("\n### {o}\n\n{t}"));
            }
        }
    }
    out
}

/// The panels of the %-of-minimal chart: per ordering, leaf nodes against depth for every
/// width swept at three depths or more, and against width for every depth swept at three widths
/// or more (Reinefeld et al., Figs. 5–7); one line per algorithm.
pub fn minimal_charts(plan: &Plan, summaries: &[Summary]) -> Vec<LineChart> {
    let rows = uniprocessor(summaries);
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    let orderings = distinct(&rows, |s| s.ordering.clone());
    let percent = |s: &Summary| 100.0 * s.leaf_nodes / minimal_tree(s.width, s.depth);
    let mut charts = Vec::new();
    for o in &orderings {
        let of_o: Vec<&Summary> = rows.iter().copied().filter(|s| s.ordering == *o).collect();
        // (fixed width or depth, the x variable): width → against depth, depth → against width.
        // The summaries of each width and of each depth, in plan order, grouped once (a panel
        // reads only its own).
        let group = |key: fn(&Summary) -> u32| {
            let mut order: Vec<u32> = Vec::new();
            let mut of: HashMap<u32, Vec<&Summary>> = HashMap::new();
            for &s in &of_o {
                of.entry(key(s))
                    .or_insert_with(|| {
                        order.push(key(s));
                        Vec::new()
                    })
                    .push(s);
            }
            (order, of)
        };
        let (widths, of_width) = group(|s| s.width);
        let (depths, of_depth) = group(|s| s.depth);
        let mut panels: Vec<(bool, u32, &[&Summary])> = Vec::new();
        for w in &widths {
            let of = &of_width[w];
            if distinct(of, |s| s.depth).len() >= 3 {
                panels.push((true, *w, of));
            }
        }
        for d in &depths {
            let of = &of_depth[d];
            if distinct(of, |s| s.width).len() >= 3 {
                panels.push((false, *d, of));
            }
        }
        for (against_depth, fixed_value, of_panel) in panels {
            let series = algorithms
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let mut pts: Vec<(f64, f64)> = of_panel
                        .iter()
                        .filter(|s| s.algorithm == *a)
                        .map(|s| {
                            let x = if against_depth { s.depth } else { s.width };
                            (x as f64, percent(s))
                        })
                        .collect();
                    pts.sort_by(|p, q| p.0.total_cmp(&q.0));
                    Series {
                        label: a.clone(),
                        points: pts,
                        style: LineStyle::Solid,
                        color: i,
                        errors: None,
                        markers: true,
                    }
                })
                .filter(|s| !s.points.is_empty())
                .collect();
            charts.push(LineChart {
                title: if against_depth {
                    format!("w = {fixed_value}, {o}")
                } else {
                    format!("d = {fixed_value}, {o}")
                },
                x_label: if against_depth { "depth" } else { "width" }.into(),
                y_label: "leaf nodes (% of minimal tree)".into(),
                series,
                integer_x: true,
                log2_x: false,
            });
        }
    }
    charts
}

/// The exponent `a` of speedup ∝ k^a from `(k, time)` points, k terminal processors: least
/// squares on the log-log graph of time against k (the thesis's method, chapter 5), time ∝
/// k^−a, with an intercept. Points with an undefined or non-positive time are left out; None
/// with fewer than two distinct k left.
pub fn speedup_exponent(points: &[(f64, f64)]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(k, t)| *k >= 1.0 && t.is_finite() && *t > 0.0)
        .map(|(k, t)| (k.ln(), t.ln()))
        .collect();
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    if pts.len() < 2 || sxx == 0.0 {
        return None;
    }
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    Some(-sxy / sxx)
}

/// Whether a report fits `algorithm`'s exponent on the processor tree of summary `s`: Campbell
/// (thesis, chapter 5) fits tree-splitting on processor trees of width 2 and pv-splitting on
/// depth 1; the catalogue states each algorithm's choice ([`crate::catalogue::Entry::fit`]).
fn fitted_on(plan: &Plan, algorithm: &str, s: &Summary) -> bool {
    plan.algorithms
        .iter()
        .find(|a| a.name() == algorithm)
        .is_none_or(|a| a.entry().fit.includes(s.ptree_depth, s.ptree_width))
}

/// Campbell's fitted speedup exponents (thesis, chapter 5): for each tree shape, a table of
/// algorithm × ordering with `a` of speedup ∝ k^a, fitted as the thesis does (see
/// [`speedup_exponent`] and [`fitted_on`]), the uniprocessor's time as the point k = 1.
pub fn exponent_tables(plan: &Plan, summaries: &[Summary]) -> String {
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    let shapes = distinct(summaries, shape);
    let orderings = distinct(summaries, |s| s.ordering.clone());
    // The summaries of each (algorithm, shape, ordering), in plan order, grouped once.
    let mut cells: HashMap<(&str, Shape, &str), Vec<&Summary>> = HashMap::new();
    for s in summaries {
        cells
            .entry((s.algorithm.as_str(), shape(s), s.ordering.as_str()))
            .or_default()
            .push(s);
    }
    let mut out = String::from(
        "## Fitted speedup exponents\n\n\
         The exponent a of speedup ∝ k^a, k terminal processors, as Campbell fits it \
         (chapter 5): least squares on the log-log graph of mean elapsed time against k, the \
         uniprocessor's time as k = 1. As in the thesis, tree-splitting is fitted on the \
         processor trees of width 2, pv-splitting on those of depth 1, parallel staged SSS* on \
         all it runs on (depth 1). 1 is linear speedup.\n",
    );
    for &sh in &shapes {
        out.push_str(&format!("\n### {}\n\n| algorithm |", shape_title(sh)));
        for o in &orderings {
            out.push_str(&format!(" {o} |"));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(orderings.len()));
        out.push('\n');
        for a in &algorithms {
            out.push_str(&format!("| {a} |"));
            for o in &orderings {
                let runs: &[&Summary] = cells
                    .get(&(a.as_str(), sh, o.as_str()))
                    .map_or(&[], Vec::as_slice);
                let t1 = runs
                    .iter()
                    .map(|s| s.uniprocessor_elapsed_s())
                    .find(|t| t.is_finite());
                let mut pts: Vec<(f64, f64)> = t1.map(|t| (1.0, t)).into_iter().collect();
                pts.extend(
                    runs.iter()
                        .filter(|s| s.processors > 1 && fitted_on(plan, a, s))
                        .map(|s| (s.terminals as f64, s.elapsed_s)),
                );
                let a = if pts.len() > 2 || pts.iter().any(|p| p.0 > 1.0) {
                    speedup_exponent(&pts)
                } else {
                    None
                };
                out.push_str(&format!(" {} |", fixed(a.unwrap_or(f64::NAN), 2)));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_tree_matches_knuth_moore() {
        // w = 2, d = 3: 2^2 + 2^1 - 1 = 5; w = 24, d = 4: 576 + 576 - 1.
        assert_eq!(minimal_tree(2, 3), 5.0);
        assert_eq!(minimal_tree(24, 4), 1151.0);
        assert_eq!(minimal_tree(5, 1), 5.0);
    }

    #[test]
    fn exponent_recovers_a_power_law() {
        // Time 1000 · k^-0.7.
        let pts: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0]
            .iter()
            .map(|&k: &f64| (k, 1000.0 * k.powf(-0.7)))
            .collect();
        let a = speedup_exponent(&pts).unwrap();
        assert!((a - 0.7).abs() < 1e-12, "{a}");
        assert_eq!(speedup_exponent(&[(2.0, 1.0), (2.0, 1.5)]), None);
        assert_eq!(speedup_exponent(&[(1.0, 1.0)]), None);
    }
}
