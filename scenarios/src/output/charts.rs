//! The plots of report.md: speedup and overheads against processors.

use super::report::config_title;
use crate::load::Plan;
use crate::results::Summary;
use plots::{LineChart, LineStyle, Series};
use std::path::Path;

/// Most tree configurations drawn as panels of overheads.png and speedup.png.
pub const MAX_PANELS: usize = 12;

/// Processor counts spanning at least this ratio are drawn on a base-2 log axis.
const LOG_X_SPAN: f64 = 16.0;

/// One chart alone, or several as panels.
pub(super) fn draw(path: &Path, title: &str, charts: &[LineChart]) -> Result<(), plots::PlotError> {
    match charts {
        [one] => plots::line_chart(path, one),
        many => plots::panels(
            path,
            title,
            &under(title, many),
            if many.len() > 4 { 3 } else { 2 },
        ),
    }
}

/// Panels under the overall `title`: a panel's title without what that says already
/// (`pmws-uniform: overheads, ` of `pmws-uniform: overheads, w = 34, …`).
fn under(title: &str, charts: &[LineChart]) -> Vec<LineChart> {
    let prefix = format!("{title}, ");
    charts
        .iter()
        .map(|c| LineChart {
            title: c
                .title
                .strip_prefix(&prefix)
                .unwrap_or(&c.title)
                .to_string(),
            ..c.clone()
        })
        .collect()
}

/// [`draw`] of charts against processors: when their counts span a ratio of 16 or more
/// (Campbell's 1 to 64 terminal processors), every panel puts them on a base-2 log axis, where
/// each doubling of the machine is the same step.
pub(super) fn draw_against_processors(
    path: &Path,
    title: &str,
    charts: &[LineChart],
) -> Result<(), plots::PlotError> {
    draw(path, title, &x_scaled(charts))
}

/// [`draw_against_processors`] of speedup charts: when their processor counts span a ratio of
/// 16 or more, both axes are base-2 logarithmic ([`plots::log_log_panels`]), so that the ideal
/// speedup is the diagonal and a speedup of 6 at 64 processors is not squeezed against the axis
/// under the ideal 64 (error bars, lopsided on a log axis, are then left out).
pub(super) fn draw_speedup_against_processors(
    path: &Path,
    title: &str,
    charts: &[LineChart],
) -> Result<(), plots::PlotError> {
    let scaled = x_scaled(charts);
    if !scaled.first().is_some_and(|c| c.log2_x) {
        return draw(path, title, &scaled);
    }
    match charts {
        [one] => plots::log_log_chart(path, one),
        many => plots::log_log_panels(
            path,
            title,
            &under(title, many),
            if many.len() > 4 { 3 } else { 2 },
        ),
    }
}

/// `charts` with [`LineChart::log2_x`] set on all or none: on all when their positive x values
/// span a ratio of at least [`LOG_X_SPAN`].
fn x_scaled(charts: &[LineChart]) -> Vec<LineChart> {
    let xs = || {
        charts
            .iter()
            .flat_map(|c| &c.series)
            .flat_map(|s| &s.points)
            .map(|p| p.0)
            .filter(|x| x.is_finite() && *x > 0.0)
    };
    let (lo, hi) = (xs().fold(f64::INFINITY, f64::min), xs().fold(0.0, f64::max));
    let log = hi / lo >= LOG_X_SPAN;
    charts
        .iter()
        .map(|c| LineChart {
            log2_x: log,
            ..c.clone()
        })
        .collect()
}

/// Speedup against terminal processors: one panel per processor-tree depth, one line per
/// algorithm and ordering (the same number of terminal processors can come from trees of
/// different depths, so they are not joined by one line).
pub fn scheme_speedup_charts(plan: &Plan, summaries: &[Summary]) -> Vec<LineChart> {
    let mut depths: Vec<u32> = summaries
        .iter()
        .filter(|s| s.processors > 1)
        .map(|s| s.ptree_depth)
        .collect();
    depths.sort();
    depths.dedup();
    let mut keys: Vec<(String, String)> = Vec::new();
    for s in summaries {
        let k = (s.algorithm.clone(), s.ordering.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let algorithms: Vec<String> = plan
        .algorithms
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    let orderings = crate::util::distinct(&keys, |k| k.1.clone());
    // One panel per processor-tree depth and ordering, one line per algorithm, when they fit;
    // otherwise one panel per depth with every algorithm and ordering.
    if orderings.len() > 1 && depths.len() * orderings.len() <= MAX_PANELS {
        let mut charts = Vec::new();
        for &d in &depths {
            for ord in &orderings {
                let mut series_list = Vec::new();
                let mut most = 1.0f64;
                for (i, a) in algorithms.iter().enumerate() {
                    if let Some((line, k)) =
                        speedup_line(summaries, a, ord, d, a, i, LineStyle::Solid)
                    {
                        most = most.max(k);
                        series_list.push(line);
                    }
                }
                series_list.push(ideal("ideal", 1, most as u64));
                charts.push(LineChart {
                    title: format!("processor trees of depth {d}, {ord}"),
                    x_label: "terminal processors".into(),
                    y_label: "speedup".into(),
                    series: series_list,
                    integer_x: true,
                    log2_x: false,
                });
            }
        }
        return charts;
    }
    let looks = series_looks(&keys);
    depths
        .iter()
        .map(|&d| {
            let mut series_list = Vec::new();
            let mut most = 1.0f64;
            for ((a, ord), &(color, style)) in keys.iter().zip(&looks) {
                let label = format!("{a}, {ord}");
                if let Some((line, k)) = speedup_line(summaries, a, ord, d, &label, color, style) {
                    most = most.max(k);
                    series_list.push(line);
                }
            }
            series_list.push(ideal(
                "ideal (speedup = terminal processors)",
                1,
                most as u64,
            ));
            LineChart {
                title: format!(
                    "{}: processor trees of depth {d}, {}",
                    plan.name(),
                    plan.seed_count()
                ),
                x_label: "terminal processors".into(),
                y_label: "speedup".into(),
                series: series_list,
                integer_x: true,
                log2_x: false,
            }
        })
        .collect()
}

/// The palette entry of the ideal line ([`ideal`]), which no measured line of
/// [`series_looks`] takes.
const IDEAL_COLOR: usize = 7;

/// The colour (palette index) and line of each (algorithm, ordering) series drawn on one chart,
/// in the order of `keys`, such that no two series share both and none takes the ideal line's
/// colour. The colour follows whichever varies: the algorithm when there is one ordering, the
/// ordering when there are one or two algorithms (told apart by solid and dashed lines), the
/// algorithm when there are many algorithms and two orderings (solid and dashed); when both
/// vary more, every series has a colour of its own (solid, then dashed once the colours run out).
fn series_looks(keys: &[(String, String)]) -> Vec<(usize, LineStyle)> {
    let algorithms = crate::util::distinct(keys, |k| k.0.clone());
    let orderings = crate::util::distinct(keys, |k| k.1.clone());
    // The palette without the ideal line's colour.
    let colors = plots::PALETTE.len() - 1;
    let index = |list: &[String], v: &String| list.iter().position(|x| x == v).unwrap_or(0);
    keys.iter()
        .enumerate()
        .map(|(k, (a, o))| {
            let (a, o) = (index(&algorithms, a), index(&orderings, o));
            let (color, dash) = if orderings.len() == 1 && algorithms.len() <= colors {
                (a, 0)
            } else if algorithms.len() <= 2 && orderings.len() <= colors {
                (o, a)
            } else if orderings.len() <= 2 && algorithms.len() <= colors {
                (a, o)
            } else {
                (k % colors, k / colors)
            };
            let color = if color < IDEAL_COLOR {
                color
            } else {
                color + 1
            };
            let style = if dash % 2 == 0 {
                LineStyle::Solid
            } else {
                LineStyle::Dashed
            };
            (color, style)
        })
        .collect()
}

/// The ideal speedup (speedup = processors), dashed and without markers, from `lo` to `hi`
/// processors through every whole number between (straight on a linear axis, the curve it is
/// on a log axis).
fn ideal(label: &str, lo: u64, hi: u64) -> Series {
    let mut line = series(
        label,
        IDEAL_COLOR,
        LineStyle::Dashed,
        (lo..=hi).map(|k| (k as f64, k as f64)).collect(),
    );
    line.markers = false;
    line
}

/// The least and the most fanout of sorted summaries ((1, 1) without any).
fn fanout_range(s: &[Summary]) -> (u64, u64) {
    let f = |x: Option<&Summary>| x.map_or(1, |x| x.fanout as u64);
    (f(s.first()), f(s.last()))
}

/// Speedup against terminal processors of algorithm `a` with ordering `ord` on the processor
/// trees of depth `d`, with ± standard errors, and the most terminal processors it reached;
/// None when it did not run there.
fn speedup_line(
    summaries: &[Summary],
    a: &str,
    ord: &str,
    d: u32,
    label: &str,
    color: usize,
    style: LineStyle,
) -> Option<(Series, f64)> {
    let mut pts: Vec<&Summary> = summaries
        .iter()
        .filter(|s| s.algorithm == a && s.ordering == ord && s.ptree_depth == d && s.processors > 1)
        .collect();
    pts.sort_by_key(|s| s.terminals);
    let most = pts.iter().map(|s| s.terminals as f64).reduce(f64::max)?;
    let mut line = series(
        label,
        color,
        style,
        pts.iter()
            .map(|s| (s.terminals as f64, s.speedup))
            .collect(),
    );
    line.errors = Some(pts.iter().map(|s| s.speedup_se).collect());
    Some((line, most))
}

/// A chart's title: the scenario, what is drawn, the configuration and the seeds
/// (`pmws-uniform: overheads, w = 34, …, 24 seeds`).
fn chart_title(plan: &Plan, what: &str, s: &[Summary]) -> String {
    format!(
        "{}: {what}, {}, {}",
        plan.name(),
        config_title(plan, s),
        plan.seed_count()
    )
}

fn points(summaries: &[Summary], y: impl Fn(&Summary) -> f64) -> Vec<(f64, f64)> {
    summaries.iter().map(|s| (s.fanout as f64, y(s))).collect()
}

fn series(label: &str, color: usize, style: LineStyle, points: Vec<(f64, f64)>) -> Series {
    Series {
        label: label.into(),
        points,
        style,
        color,
        errors: None,
        markers: true,
    }
}

fn sorted(summaries: &[Summary]) -> Vec<Summary> {
    let mut s = summaries.to_vec();
    s.sort_by_key(|s| s.fanout);
    s
}

/// Overheads in % against f, like the paper's Fig. 7, with the model's estimate beside the
/// measured synchronization overhead (drawn from f = 2: with one processor nothing waits).
pub fn overheads_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let s = sorted(summaries);
    let pct = |f: fn(&Summary) -> f64| points(&s, move |x| 100.0 * f(x));
    let mut sync = series(
        "synchronization overhead (measured)",
        3,
        LineStyle::Solid,
        pct(|x| x.sync_overhead),
    );
    sync.errors = Some(s.iter().map(|x| 100.0 * x.sync_overhead_se).collect());
    let odd = s.first().is_some_and(|x| x.depth % 2 == 1);
    let estimate = if odd {
        "f/2(w+1) estimate (eq. 14)"
    } else {
        "3f/4(w-1) estimate (even depth)"
    };
    let from2: Vec<Summary> = s.iter().filter(|x| x.fanout >= 2).cloned().collect();
    // Every measured line with its ± standard error over the seeds, as the sync line.
    let measured = |label: &str, color: usize, y: fn(&Summary) -> f64, se: fn(&Summary) -> f64| {
        let mut line = series(label, color, LineStyle::Solid, pct(y));
        line.errors = Some(s.iter().map(|x| 100.0 * se(x)).collect());
        line
    };
    let mut series = vec![
        measured(
            "search overhead",
            0,
            |x| x.search_overhead,
            |x| x.search_overhead_se,
        ),
        measured(
            "time overhead",
            1,
            |x| x.time_overhead,
            |x| x.time_overhead_se,
        ),
        measured(
            "time − search (the paper's communication)",
            2,
            |x| x.comm_overhead,
            |x| x.comm_overhead_se,
        ),
        sync,
    ];
    // The estimate exists from f = 2 on, and only for the schemes the paper's model describes
    // (undefined for the others): no legend entry for a line with nothing to draw.
    if from2.iter().any(|x| x.sync_estimate.is_finite()) {
        series.push(self::series(
            estimate,
            3,
            LineStyle::Dashed,
            points(&from2, |x| 100.0 * x.sync_estimate),
        ));
    }
    LineChart {
        title: chart_title(plan, "overheads", &s),
        x_label: "processors f".into(),
        y_label: "overhead (%)".into(),
        series,
        integer_x: true,
        log2_x: false,
    }
}

/// The panels of speedup.png (other than Campbell's processor trees): one chart per tree
/// configuration, of one algorithm ([`speedup_chart`]) or of several side by side
/// ([`overlaid_speedup_charts`]). The paper's table describes the first configuration (as in
/// report.md): its published speedups are drawn there. Beside a per-board table the measured
/// lines are over the positions the paper counts.
pub fn speedup_charts(
    plan: &Plan,
    configs: &[&[Summary]],
    chess: &crate::chess_report::ChessRows,
) -> Vec<LineChart> {
    if plan.algorithms.len() > 1 {
        return overlaid_speedup_charts(plan, configs, chess);
    }
    configs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let Some(first) = s.first().filter(|_| i == 0) else {
                return speedup_chart(plan, s, None, None);
            };
            let fanouts: Vec<u32> = s.iter().map(|x| x.fanout).collect();
            let published = super::published_speedups(plan, &first.algorithm, &fanouts);
            let (s, counted) = crate::chess_report::charted(plan, s, chess);
            let over = counted.map(counted_positions);
            speedup_chart(plan, &s, published, over.as_deref())
        })
        .collect()
}

/// Speedup against f of every algorithm of the plan on one chart per tree configuration (one
/// line per algorithm, with the ideal line): the algorithms side by side. `configs` are the
/// summaries per (algorithm, configuration), as [`crate::results::by_config`] gives them;
/// `chess` the records of a chess plan (empty for others).
///
/// A chess plan's paper table describes the first configuration (as in report.md): on its
/// chart, dashed, Table III's speedups of each algorithm in the algorithm's colour, or the
/// speedups of a table that does not tell the algorithms apart (Table II's, Table IV's) once,
/// in near-black. Beside a per-board table every measured line is over the positions the
/// paper counts.
pub fn overlaid_speedup_charts(
    plan: &Plan,
    configs: &[&[Summary]],
    chess: &crate::chess_report::ChessRows,
) -> Vec<LineChart> {
    let mut groups: Vec<Vec<&[Summary]>> = Vec::new();
    let same = |a: &Summary, b: &Summary| {
        (a.width, a.depth, &a.ordering, a.horizon_noise)
            == (b.width, b.depth, &b.ordering, b.horizon_noise)
    };
    for c in configs {
        let Some(first) = c.first() else { continue };
        match groups.iter_mut().find(|g| same(&g[0][0], first)) {
            Some(g) => g.push(c),
            None => groups.push(vec![c]),
        }
    }
    let per_algorithm = matches!(
        plan.paper,
        Some(crate::reference::PaperTable::TableStorage(_))
    );
    // What the paper's averages are over, for the per-algorithm published lines: the plan's.
    let scope = plan
        .paper
        .as_ref()
        .map_or(String::new(), |p| crate::chess_report::paper_scope(plan, p));
    groups
        .into_iter()
        .enumerate()
        .map(|(k, g)| {
            let mut lines: Vec<Series> = Vec::new();
            let mut published: Vec<Series> = Vec::new();
            for (i, c) in g.iter().enumerate() {
                let fanouts: Vec<u32> = c.iter().map(|x| x.fanout).collect();
                let paper = (k == 0)
                    .then(|| {
                        crate::chess_report::published_speedups(plan, &c[0].algorithm, &fanouts)
                    })
                    .flatten();
                let (c, counted) = if k == 0 {
                    crate::chess_report::charted(plan, c, chess)
                } else {
                    (std::borrow::Cow::Borrowed(*c), None)
                };
                let s = sorted(&c);
                let label = match counted {
                    Some(n) => format!("{} ({})", s[0].algorithm, counted_positions(n)),
                    None => s[0].algorithm.clone(),
                };
                let mut line = series(&label, i % 7, LineStyle::Solid, points(&s, |x| x.speedup));
                line.errors = Some(s.iter().map(|x| x.speedup_se).collect());
                lines.push(line);
                match paper {
                    Some((_, points)) if per_algorithm => {
                        let label = match scope.as_str() {
                            "" => format!("{}, published", s[0].algorithm),
                            scope => format!("{}, published ({scope})", s[0].algorithm),
                        };
                        published.push(series(&label, i % 7, LineStyle::Dashed, points));
                    }
                    Some((label, points)) if published.is_empty() => {
                        published.push(series(&label, 6, LineStyle::Dashed, points));
                    }
                    _ => {}
                }
            }
            lines.append(&mut published);
            let all: Vec<Summary> = g.iter().flat_map(|c| c.iter().cloned()).collect();
            let s = sorted(&all);
            let (lo, hi) = fanout_range(&s);
            lines.push(ideal("ideal (speedup = f)", lo, hi));
            let x = &g[0][0];
            let config = crate::output::report::config_words(x);
            LineChart {
                title: format!("{}: speedup, {config}, {}", plan.name(), plan.seed_count()),
                x_label: "processors f".into(),
                y_label: "speedup".into(),
                series: lines,
                integer_x: true,
                log2_x: false,
            }
        })
        .collect()
}

/// The speedups of a reference table (a synthetic plan's published figures) at the processor
/// counts `fanouts`, with the legend text naming the file; None where it gives none.
pub fn reference_speedups(
    table: &crate::reference::Reference,
    fanouts: &[u32],
) -> Option<(String, Vec<(f64, f64)>)> {
    let points: Vec<(f64, f64)> = table
        .rows
        .iter()
        .filter(|r| fanouts.contains(&r.fanout))
        .filter_map(|r| r.speedup.map(|v| (r.fanout as f64, v)))
        .collect();
    let name = crate::util::file_name(&table.path);
    (!points.is_empty()).then(|| (format!("published speedup ({name})"), points))
}

/// What a measured mean beside a per-board table is over: the `n` positions the paper counts.
pub(super) fn counted_positions(n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("over the {n} position{s} the paper counts")
}

/// Speedup against f with the ideal line, and `published` (the legend text and the points of
/// the paper's speedups for the configuration, [`reference_speedups`] or
/// [`crate::chess_report::published_speedups`]): dashed, with markers. `over` says what the
/// measured mean is over ("over the 23 positions the paper counts") when it is not every seed
/// of the plan.
pub fn speedup_chart(
    plan: &Plan,
    summaries: &[Summary],
    published: Option<(String, Vec<(f64, f64)>)>,
    over: Option<&str>,
) -> LineChart {
    let s = sorted(summaries);
    let over = over.map_or_else(|| format!("over {}s", plan.seed_word()), str::to_string);
    let mut measured = series(
        &format!("speedup (mean {over})"),
        0,
        LineStyle::Solid,
        points(&s, |x| x.speedup),
    );
    measured.errors = Some(s.iter().map(|x| x.speedup_se).collect());
    let mut lines = vec![measured, {
        let (lo, hi) = fanout_range(&s);
        ideal("ideal (speedup = f)", lo, hi)
    }];
    if let Some((label, points)) = published {
        lines.push(series(&label, 2, LineStyle::Dashed, points));
    }
    LineChart {
        title: chart_title(plan, "speedup", &s),
        x_label: "processors f".into(),
        y_label: "speedup".into(),
        series: lines,
        integer_x: true,
        log2_x: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(xs: &[f64]) -> LineChart {
        LineChart {
            series: vec![Series {
                points: xs.iter().map(|&x| (x, 1.0)).collect(),
                ..Series::default()
            }],
            ..LineChart::default()
        }
    }

    #[test]
    fn processors_spanning_sixteen_times_or_more_go_on_a_log_axis_in_every_panel() {
        let wide = x_scaled(&[chart(&[1.0, 12.0]), chart(&[4.0, 64.0])]);
        assert!(wide.iter().all(|c| c.log2_x));
        let narrow = x_scaled(&[chart(&[1.0, 2.0, 4.0]), chart(&[0.0, 8.0])]);
        assert!(narrow.iter().all(|c| !c.log2_x));
        assert!(!x_scaled(&[chart(&[])])[0].log2_x);
    }

    #[test]
    fn the_ideal_line_passes_through_every_processor_count() {
        let line = ideal("ideal", 1, 4);
        assert_eq!(
            line.points,
            [(1.0, 1.0), (2.0, 2.0), (3.0, 3.0), (4.0, 4.0)]
        );
        assert!(!line.markers);
    }

    /// However many algorithms and orderings share a chart, no two of their series have both
    /// one colour and one line, and none has the ideal line's colour.
    #[test]
    fn no_two_series_of_a_processor_tree_chart_look_alike() {
        for algorithms in 1..=12 {
            for orderings in 1..=6 {
                let keys: Vec<(String, String)> = (0..algorithms)
                    .flat_map(|a| (0..orderings).map(move |o| (format!("a{a}"), format!("o{o}"))))
                    .collect();
                let looks = series_looks(&keys);
                for (i, x) in looks.iter().enumerate() {
                    assert_ne!(x.0, IDEAL_COLOR, "{algorithms} x {orderings}");
                    if keys.len() <= 2 * (plots::PALETTE.len() - 1) {
                        assert!(
                            !looks[..i].contains(x),
                            "{algorithms} x {orderings}: {:?} twice",
                            x
                        );
                    }
                }
            }
        }
    }

    /// With one ordering, speedup.png of Campbell's processor trees gives every algorithm a
    /// colour of its own (the colour once followed the ordering alone).
    #[test]
    fn one_ordering_colours_each_algorithm_apart() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("campbell-1981.ron");
        let plan = crate::load::load(&path).unwrap();
        let names: Vec<String> = plan
            .algorithms
            .iter()
            .map(|a| a.name().to_string())
            .collect();
        assert!(names.len() >= 3, "{names:?}");
        let summaries: Vec<Summary> = names
            .iter()
            .flat_map(|a| {
                [2u32, 4].map(|terminals| Summary {
                    algorithm: a.clone(),
                    ordering: "random".into(),
                    ptree_depth: 1,
                    processors: terminals + 1,
                    terminals,
                    speedup: 1.5,
                    ..Summary::default()
                })
            })
            .collect();
        let charts = scheme_speedup_charts(&plan, &summaries);
        assert_eq!(charts.len(), 1);
        let measured: Vec<&Series> = charts[0].series.iter().filter(|s| s.markers).collect();
        assert_eq!(measured.len(), names.len());
        for (i, s) in measured.iter().enumerate() {
            assert!(
                measured[..i].iter().all(|t| t.color != s.color),
                "{} has the colour of another line",
                s.label
            );
        }
    }

    /// A chart drawn alone (one configuration) says in its title what it draws.
    #[test]
    fn a_chart_alone_names_what_it_draws() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pmws-uniform.ron");
        let plan = crate::load::load(&path).unwrap();
        let summaries: Vec<Summary> = (1..=2)
            .map(|fanout| Summary {
                algorithm: "pmws".into(),
                width: 34,
                depth: 5,
                ordering: "first_best(0.6)".into(),
                horizon_noise: 50,
                tree: "synthetic".into(),
                fanout,
                processors: fanout,
                ..Summary::default()
            })
            .collect();
        let title = overheads_chart(&plan, &summaries).title;
        assert!(
            title.starts_with("pmws-uniform: overheads, w = 34, d = 5,")
                && title.ends_with(", 24 seeds"),
            "{title}"
        );
        let rows = crate::chess_report::ChessRows::default();
        let charts = speedup_charts(&plan, &[&summaries], &rows);
        assert!(
            charts[0]
                .title
                .starts_with("pmws-uniform: speedup, w = 34,"),
            "{}",
            charts[0].title
        );
    }

    /// Panels under an overall title do not repeat it; other titles are kept.
    #[test]
    fn panels_do_not_repeat_the_overall_title() {
        let titled = |t: &str| LineChart {
            title: t.into(),
            ..LineChart::default()
        };
        let charts = [titled("s: overheads, w = 8, d = 4"), titled("w = 8, d = 5")];
        let titles: Vec<String> = under("s: overheads", &charts)
            .into_iter()
            .map(|c| c.title)
            .collect();
        assert_eq!(titles, ["w = 8, d = 4", "w = 8, d = 5"]);
    }
}
