//! What the 1985 machine must have cost: a `vary` run of a chess scenario
//! over costs the paper does not state (message setup, per-character handling on the host and
//! on the boards, the table-probe service time, ...), every combination set against the paper's
//! Tables II and III (`outputs.inference`): which values reproduce their time overheads and the
//! global table's collapse (the speedup falling from f = 3 to f = 4).
//!
//! This is an inference about the hardware, beside the calibrated prediction: nothing here
//! feeds back into any scenario's costs. The chart, `cost-inference.png`, has per (algorithm the
//! paper's tables cover) three panels against the first varied field: the time overhead at the
//! smallest and the largest parallel f, and the speedup's step from f − 1 to the largest f; one
//! line per combination of the other varied fields, the paper's figure dashed.

use crate::chess_report::paper_row;
use crate::load::Plan;
use crate::overrides::Assignment;
use crate::reference::PaperTable;
use crate::results::Summary;
use plots::{LineChart, LineStyle, Series};

/// One combination of a `vary` run: the fields it set, its plan and its summaries.
pub struct Combination<'a> {
    /// The fields set.
    pub assignments: &'a [Assignment],
    /// The scenario with those values.
    pub plan: &'a Plan,
    /// Its summaries (means per algorithm and processor count).
    pub summaries: &'a [Summary],
}

/// What one panel shows, per combination.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Metric {
    /// Time overhead at f, %.
    Time(u32),
    /// speedup(f) − speedup(f − 1).
    Step(u32),
}

/// An algorithm the paper's tables cover, with the table that covers it and the processor
/// counts both the sweep and the table have (f ≥ 2).
struct Target<'a> {
    algorithm: String,
    table: &'a PaperTable,
    fanouts: Vec<u32>,
}

/// The section of the vary folder's report.md and the charts of `cost-inference.png`.
pub struct Inference {
    /// The chart's title.
    pub title: String,
    /// Markdown, starting with a level-2 heading.
    pub markdown: String,
    /// One panel per (target, metric).
    pub charts: Vec<LineChart>,
}

fn summary<'a>(c: &'a Combination, algorithm: &str, f: u32) -> Option<&'a Summary> {
    c.summaries
        .iter()
        .find(|s| s.algorithm == algorithm && s.fanout == f)
}

/// The simulated value of `metric` for `algorithm` in combination `c` (% for times).
fn simulated(c: &Combination, algorithm: &str, metric: Metric) -> Option<f64> {
    match metric {
        Metric::Time(f) => summary(c, algorithm, f).map(|s| 100.0 * s.time_overhead),
        Metric::Step(f) => {
            Some(summary(c, algorithm, f)?.speedup - summary(c, algorithm, f - 1)?.speedup)
        }
    }
}

/// The paper's value of `metric`.
fn published(plan: &Plan, t: &Target, metric: Metric) -> Option<f64> {
    let row = |f| paper_row(plan, t.table, &t.algorithm, f);
    match metric {
        Metric::Time(f) => row(f)?.time_overhead_pct,
        Metric::Step(f) => Some(row(f)?.speedup? - row(f - 1)?.speedup?),
    }
}

/// The paper's time overhead at `f` as its own seconds give it (eq. 11), where the printed one
/// contradicts them ([`crate::reference::misprint`]): (printed, computed).
fn misprinted(plan: &Plan, t: &Target, f: u32) -> Option<(f64, f64)> {
    let row = |f| paper_row(plan, t.table, &t.algorithm, f);
    let r = row(f)?;
    crate::reference::misprint(r.time_overhead_pct, r.secs, row(1)?.secs, f)
}

/// The value a varied field took in a plan, as a number (durations in ms), for the x axis; None
/// for a field this does not know (the axis then numbers the values in order).
fn field_value(plan: &Plan, path: &[String]) -> Option<f64> {
    let ms = |t: sim_core::SimTime| t.as_nanos() as f64 * 1e-6;
    let p: Vec<&str> = path.iter().map(String::as_str).collect();
    let c = &plan.costs;
    let link = plan.links.levels.first()?.spec;
    match p.as_slice() {
        ["hardware", "costs", "k"] => Some(ms(c.k)),
        ["hardware", "costs", "e"] => Some(ms(c.e)),
        ["hardware", "costs", "q"] => Some(ms(c.q)),
        ["hardware", "costs", "probe"] => Some(ms(c.probe)),
        ["hardware", "costs", "s"] => Some(ms(c.s)),
        ["hardware", "costs", "interrupt"] => Some(ms(c.interrupt)),
        ["hardware", "link", "host_char"] => link.sci.map(|d| ms(d.host_char)),
        ["hardware", "link", "board_char"] => link.sci.map(|d| ms(d.board_char)),
        ["hardware", "link", "capacity"] => link.sci.and_then(|d| d.capacity).map(|c| c as f64),
        ["hardware", "link", "rate"] => match link.kind {
            sim_hw::LinkKind::Serial { rate } => Some(rate as f64),
            sim_hw::LinkKind::Ideal => None,
        },
        _ => None,
    }
}

/// A field's unit on the axis.
fn unit(path: &[String]) -> &'static str {
    match path.last().map(String::as_str) {
        Some("capacity") => "characters/s",
        Some("rate") => "bytes/s",
        _ => "ms",
    }
}

fn short(a: &Assignment) -> String {
    format!("{}={}", a.path.last().map_or("", String::as_str), a.value)
}

/// The inference over `combos` (in plan order), or None if the plans name no paper table or
/// nothing was varied.
pub fn inference(combos: &[Combination]) -> Option<Inference> {
    let first = combos.first()?;
    let plan = first.plan;
    let x_path = first.assignments.first()?.path.clone();
    // The algorithms the tables cover, in the sweep's order.
    let mut targets = Vec::new();
    for a in &plan.algorithms {
        let algorithm = a.name();
        for table in &plan.inference {
            let fanouts: Vec<u32> = plan
                .ptrees
                .iter()
                .filter_map(|p| match p {
                    crate::dispatch::PTree::Paper { fanout, .. } if *fanout >= 2 => Some(*fanout),
                    _ => None,
                })
                .filter(|&f| paper_row(plan, table, &algorithm, f).is_some())
                .collect();
            if !fanouts.is_empty() {
                targets.push(Target {
                    algorithm: algorithm.clone(),
                    table,
                    fanouts,
                });
                break;
            }
        }
    }
    if targets.is_empty() {
        return None;
    }
    let metrics = |t: &Target| {
        let lo = t.fanouts[0];
        let hi = *t.fanouts.last().expect("not empty");
        let mut m = vec![Metric::Time(lo)];
        if hi != lo {
            m.push(Metric::Time(hi));
        }
        if t.fanouts.contains(&(hi - 1)) {
            m.push(Metric::Step(hi));
        }
        m
    };
    // x of each combination: the first varied field's value, else its rank among the values.
    let mut x_values: Vec<String> = Vec::new();
    for c in combos {
        let v = &c.assignments[0].value;
        if !x_values.contains(v) {
            x_values.push(v.clone());
        }
    }
    let numeric = combos
        .iter()
        .all(|c| field_value(c.plan, &x_path).is_some());
    let x_of = |c: &Combination| -> f64 {
        if numeric {
            field_value(c.plan, &x_path).unwrap_or(f64::NAN)
        } else {
            1.0 + x_values
                .iter()
                .position(|v| *v == c.assignments[0].value)
                .unwrap_or(0) as f64
        }
    };
    let x_label = if numeric {
        format!("{} ({})", x_path.join("."), unit(&x_path))
    } else {
        format!(
            "{}: {}",
            x_path.join("."),
            x_values
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} = {v}", i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    // Lines: the combinations of the other varied fields, in order of first appearance.
    let rest = |c: &Combination| -> String {
        c.assignments[1..]
            .iter()
            .map(short)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines: Vec<String> = Vec::new();
    for c in combos {
        let r = rest(c);
        if !lines.contains(&r) {
            lines.push(r);
        }
    }
    let xs: Vec<f64> = combos.iter().map(&x_of).filter(|x| x.is_finite()).collect();
    let (x_lo, x_hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });

    let mut charts = Vec::new();
    for t in &targets {
        for m in metrics(t) {
            // The paper's figure, dashed, is named in the title: every panel then lists the
            // same lines, and the grid has one legend.
            let paper = published(plan, t, m);
            let (title, y_label) = match m {
                Metric::Time(f) => (
                    format!(
                        "{}: time overhead at f = {f}{}",
                        t.algorithm,
                        paper.map_or(String::new(), |p| format!(" (paper: {p:.2} %)"))
                    ),
                    "time overhead (%)".to_string(),
                ),
                Metric::Step(f) => (
                    format!(
                        "{}: speedup(f = {f}) − speedup(f = {}){}; below 0: collapse",
                        t.algorithm,
                        f - 1,
                        paper.map_or(String::new(), |p| format!(" (paper: {p:.2})"))
                    ),
                    "speedup step".to_string(),
                ),
            };
            let mut series: Vec<Series> = lines
                .iter()
                .enumerate()
                .map(|(i, line)| Series {
                    label: if line.is_empty() {
                        "simulated".into()
                    } else {
                        line.clone()
                    },
                    points: combos
                        .iter()
                        .filter(|c| rest(c) == *line)
                        .map(|c| (x_of(c), simulated(c, &t.algorithm, m).unwrap_or(f64::NAN)))
                        .collect(),
                    style: LineStyle::Solid,
                    color: i,
                    errors: None,
                    markers: true,
                })
                .collect();
            if let Some(p) = paper {
                series.push(Series {
                    label: "the paper's figure (in the title)".into(),
                    points: vec![(x_lo, p), (x_hi, p)],
                    style: LineStyle::Dashed,
                    color: lines.len(),
                    errors: None,
                    markers: false,
                });
            }
            charts.push(LineChart {
                title,
                x_label: x_label.clone(),
                y_label,
                series,
                integer_x: !numeric,
                log2_x: false,
            });
        }
    }

    // Which positions: a subset's averages are its own, not the paper's 24 positions'.
    let ids: Vec<String> = plan.chess.as_ref().map_or_else(Vec::new, |c| {
        plan.seeds
            .iter()
            .filter_map(|&n| c.positions.get(n as usize - 1).map(|p| p.id.clone()))
            .collect()
    });
    let positions = format!(
        "{} position{} ({})",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" },
        ids.join(", ")
    );
    // The table: one row per combination.
    let mut md = String::from(
        "## What the 1985 machine must have cost\n\n\
         An inference about the hardware, not a calibration: each combination of the varied \
         costs (which the paper does not state) ran the same searches, and its time overheads \
         (eq. 11) and speedups are set beside the paper's. The scenarios' own costs do not come \
         from this table. Chart: [cost-inference.png](cost-inference.png).\n\n",
    );
    md.push_str(&format!(
        "The runs search {positions}. Their averages are those positions', not the averages over \
         the paper's positions that its tables give: how each cost moves a figure (the slope of \
         a line, the gap between lines) is the finding; its level against the paper's holds only \
         as far as these positions are typical.\n\n"
    ));
    let mut head = vec!["#".to_string()];
    head.extend(first.assignments.iter().map(|a| a.dotted()));
    for t in &targets {
        for m in metrics(t) {
            let paper = published(plan, t, m).map_or("–".into(), |p| format!("{p:.2}"));
            head.push(match m {
                Metric::Time(f) => format!("{} time % f = {f} (paper {paper})", t.algorithm),
                Metric::Step(f) => {
                    format!("{} speedup step to f = {f} (paper {paper})", t.algorithm)
                }
            });
        }
    }
    md.push_str(&format!("| {} |\n", head.join(" | ")));
    md.push_str(&format!("|{}\n", "---|".repeat(head.len())));
    let fmt = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.2}"));
    for (i, c) in combos.iter().enumerate() {
        let mut row = vec![(i + 1).to_string()];
        row.extend(c.assignments.iter().map(|a| format!("`{}`", a.value)));
        for t in &targets {
            for m in metrics(t) {
                row.push(fmt(simulated(c, &t.algorithm, m)));
            }
        }
        md.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    // What reproduces what.
    md.push_str("\nPer algorithm: the combination whose time overheads are nearest the paper's (the root mean square, in points, of the differences at every parallel f the paper gives, not only the two in the table), and the combinations whose speedup moves from the second largest to the largest f the way the paper's does.\n\n");
    for t in &targets {
        // The root mean square of the differences from the paper's time overheads; with
        // `computed`, a misprinted figure replaced by the one its own seconds give.
        let distance = |c: &Combination, computed: bool| -> Option<f64> {
            let d: Vec<f64> = t
                .fanouts
                .iter()
                .map(|&f| {
                    let paper = match misprinted(plan, t, f) {
                        Some((_, value)) if computed => value,
                        _ => published(plan, t, Metric::Time(f))?,
                    };
                    Some(simulated(c, &t.algorithm, Metric::Time(f))? - paper)
                })
                .collect::<Option<Vec<f64>>>()?;
            Some((d.iter().map(|x| x * x).sum::<f64>() / d.len() as f64).sqrt())
        };
        // The nearest combinations and their distance. Combinations that differ only in a
        // cost the algorithm never pays (a probe without a table) give the same figures: every
        // one of them is named, not the first.
        let nearest = |computed: bool| -> Option<(String, f64)> {
            let distances: Vec<(usize, f64)> = combos
                .iter()
                .enumerate()
                .filter_map(|(i, c)| Some((i, distance(c, computed)?)))
                .collect();
            let d = distances.iter().map(|x| x.1).min_by(f64::total_cmp)?;
            let named: Vec<String> = distances
                .iter()
                .filter(|x| x.1 == d)
                .map(|&(i, _)| {
                    format!(
                        "#{} ({})",
                        i + 1,
                        crate::overrides::describe(combos[i].assignments)
                    )
                })
                .collect();
            let tied = if named.len() > 1 { ", tied" } else { "" };
            Some((format!("{}{tied}", crate::util::and_list(&named)), d))
        };
        if let Some((named, d)) = nearest(false) {
            let fs: Vec<String> = t.fanouts.iter().map(u32::to_string).collect();
            md.push_str(&format!(
                "- {}: nearest time overheads: {named}, {d:.1} points from the paper's (root mean square over f = {}).",
                t.algorithm,
                crate::util::and_list(&fs),
            ));
            // A printed figure its own seconds contradict: the fit with the other one too.
            let wrong: Vec<String> = t
                .fanouts
                .iter()
                .filter_map(|&f| {
                    let (printed, computed) = misprinted(plan, t, f)?;
                    Some(format!(
                        "f = {f} prints {printed:.1} % where its seconds give {computed:.1} %"
                    ))
                })
                .collect();
            if let (false, Some((named, d))) = (wrong.is_empty(), nearest(true)) {
                md.push_str(&format!(
                    " The paper's table contradicts itself ({}; one of the two is a misprint): with the figure from its seconds, {named}, {d:.1} points.",
                    crate::util::and_list(&wrong)
                ));
            }
            md.push('\n');
        }
        let hi = *t.fanouts.last().expect("not empty");
        if let Some(p) = published(plan, t, Metric::Step(hi)) {
            // The same way as the paper's: falling with it, or rising with it.
            let falls = p < 0.0;
            let alike: Vec<String> = combos
                .iter()
                .enumerate()
                .filter(|(_, c)| {
                    simulated(c, &t.algorithm, Metric::Step(hi)).is_some_and(|s| {
                        if falls {
                            s < 0.0
                        } else {
                            s > 0.0
                        }
                    })
                })
                .map(|(i, _)| format!("#{}", i + 1))
                .collect();
            let verb = if falls { "falls" } else { "rises" };
            md.push_str(&format!(
                "- {}: the paper's speedup {verb} from f = {} to f = {hi} ({p:+.2}); simulated, it {verb} too in {}.\n",
                t.algorithm,
                hi - 1,
                match alike.len() {
                    0 => "no combination".to_string(),
                    n if n == combos.len() => format!("every combination ({n})"),
                    n => format!("{n} of {}: {}", combos.len(), alike.join(", ")),
                }
            ));
        }
    }
    Some(Inference {
        title: format!(
            "What the 1985 machine must have cost: the varied costs on {}, the paper's figures dashed",
            positions
        ),
        markdown: md,
        charts,
    })
}
