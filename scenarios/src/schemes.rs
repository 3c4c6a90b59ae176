//! The comparison of parallel schemes (`outputs.schemes`): speedup against processors on
//! log–log axes (`schemes.png`), where the time goes at one processor count as stacked bars
//! (`schemes-overheads.png`), and report.md's tables of both.
//!
//! Every figure comes from the run summaries: speedup is the mean over seeds of each scheme's
//! elapsed time on one processor over its elapsed time on p; the three overheads are those of
//! the overhead tables (search time − 1, CPU time on messages, idle time, each summed over the
//! processors and divided by the one-processor time) and add up to the time overhead
//! p · T(p) / T(1) − 1; messages per node are all messages sent over all nodes searched.

use crate::load::Plan;
use crate::results::{fixed, mean_se, Summary, UNDEFINED};
use plots::{BarChart, LineChart, LineStyle, Segment, Series};

/// The summaries of one tree configuration, grouped per algorithm in the order the summaries
/// first name them (plan order), each sorted by processors.
fn per_algorithm<'a>(config: &[&'a Summary]) -> Vec<(String, Vec<&'a Summary>)> {
    let mut out: Vec<(String, Vec<&Summary>)> = Vec::new();
    for s in config {
        match out.iter_mut().find(|(n, _)| *n == s.algorithm) {
            Some((_, rows)) => rows.push(s),
            None => out.push((s.algorithm.clone(), vec![s])),
        }
    }
    for (_, rows) in &mut out {
        rows.sort_by_key(|s| s.processors);
    }
    out
}

/// The tree configurations of `summaries` (width, depth, ordering, noise), in first-seen
/// order, each with every algorithm's summaries.
fn configs(summaries: &[Summary]) -> Vec<Vec<&Summary>> {
    let mut out: Vec<Vec<&Summary>> = Vec::new();
    for s in summaries {
        let key = |x: &Summary| (x.width, x.depth, x.ordering.clone(), x.horizon_noise);
        match out.iter_mut().find(|c| key(c[0]) == key(s)) {
            Some(c) => c.push(s),
            None => out.push(vec![s]),
        }
    }
    out
}

fn title(plan: &Plan, s: &Summary) -> String {
    format!(
        "{}, {} {}s",
        config_words(s),
        plan.seeds.len(),
        plan.seed_word()
    )
}

/// The machine's network and lines in a few words, for chart titles: `960 bytes/s lines
/// between every pair that talks`, `shared bus (…)`, `hypercube (…) of 1250000 bytes/s lines`.
pub fn machine_words(plan: &Plan) -> String {
    let lines = match plan.link.kind {
        sim_hw::LinkKind::Serial { rate } => format!("{rate} bytes/s lines"),
        sim_hw::LinkKind::Ideal => "ideal lines".into(),
    };
    match plan.network {
        None => format!("processor trees of {lines}"),
        Some(crate::dispatch::NetworkPlan::Fixed(sim_hw::PoolNetwork::FullyConnected)) => {
            format!("{lines} between every pair that talks")
        }
        Some(n @ crate::dispatch::NetworkPlan::Fixed(sim_hw::PoolNetwork::Bus(_))) => n.describe(),
        Some(n) => format!("{} of {lines}", n.describe()),
    }
}

fn config_words(s: &Summary) -> String {
    format!(
        "w = {}, d = {}, ordering {}, horizon noise {}",
        s.width, s.depth, s.ordering, s.horizon_noise
    )
}

/// Speedup against processors, one line per scheme, log–log, with the ideal speedup = p
/// dashed: the chart of the first tree configuration.
pub fn speedup_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let configs = configs(summaries);
    let Some(config) = configs.first() else {
        return LineChart::default();
    };
    let mut chart = speedup_lines(config);
    chart.title = format!(
        "{}: speedup on {}, {}",
        plan.name(),
        machine_words(plan),
        title(plan, config[0])
    );
    chart
}

/// The lines of [`speedup_chart`] for one configuration, untitled.
fn speedup_lines(config: &[&Summary]) -> LineChart {
    let groups = per_algorithm(config);
    let mut series: Vec<Series> = groups
        .iter()
        .enumerate()
        .map(|(i, (name, rows))| Series {
            label: name.clone(),
            points: rows
                .iter()
                .map(|s| (s.processors as f64, s.speedup))
                .collect(),
            style: LineStyle::Solid,
            // Colour 7 is the ideal line's.
            color: if i >= 7 { i + 1 } else { i },
            errors: None,
            markers: true,
        })
        .collect();
    let mut counts: Vec<u32> = config.iter().map(|s| s.processors).collect();
    counts.sort();
    counts.dedup();
    series.push(Series {
        label: "ideal (speedup = processors)".into(),
        points: counts.iter().map(|&p| (p as f64, p as f64)).collect(),
        style: LineStyle::Dashed,
        color: 7,
        errors: None,
        markers: false,
    });
    LineChart {
        title: String::new(),
        x_label: "processors".into(),
        y_label: "speedup over the same scheme on one processor".into(),
        series,
        integer_x: true,
    }
}

/// Where the time goes at `at` processors, one bar per scheme: the search, communication and
/// synchronization parts of the time overhead, in % of the one-processor time.
pub fn overheads_chart(plan: &Plan, summaries: &[Summary], at: u32) -> BarChart {
    let configs = configs(summaries);
    let Some(config) = configs.first() else {
        return BarChart::default();
    };
    let rows: Vec<&Summary> = per_algorithm(config)
        .into_iter()
        .filter_map(|(_, rows)| rows.into_iter().find(|s| s.processors == at))
        .collect();
    let segment = |label: &str, color: usize, v: fn(&Summary) -> f64| Segment {
        label: label.into(),
        color,
        values: rows.iter().map(|s| 100.0 * v(s)).collect(),
    };
    BarChart {
        title: format!(
            "{}: overheads on {at} processors, {}, {}",
            plan.name(),
            machine_words(plan),
            title(plan, config[0])
        ),
        x_label: format!(
            "% of the one-processor time (the bars add up to the time overhead, {at} · T({at}) / T(1) − 1)"
        ),
        categories: rows.iter().map(|s| s.algorithm.clone()).collect(),
        segments: vec![
            segment("search (search time − 1)", 2, |s| s.search_time_overhead),
            segment("communication (CPU time on messages)", 0, |s| {
                s.message_overhead
            }),
            segment("synchronization (idle)", 1, |s| s.idle_overhead),
        ],
        unit: " %".into(),
    }
}

/// report.md's section: per tree configuration, the table at `at` processors (speedup,
/// efficiency, the overheads, messages per node) and speedup per scheme and processor count.
pub fn markdown(plan: &Plan, summaries: &[Summary], at: u32) -> String {
    let network = machine_words(plan);
    let mut out = format!(
        "## Schemes compared\n\n\
         On {network}. Speedup is each scheme's time on one processor over its time on p \
         (mean of per-tree ratios ± standard error), efficiency speedup / p. The overheads are \
         in % of the one-processor time and add up to the time overhead p · T(p) / T(1) − 1: \
         search (all processors' search time − 1), communication (their CPU time on messages: \
         setup, interrupts, forwarding, waiting for replies) and synchronization (their idle \
         time, waiting for work, for others or for a line). Search % (leaves) is eq. 9's leaf \
         count overhead. Messages per node: all messages sent over all nodes searched. \
         `schemes.png` draws the speedups, `schemes-overheads.png` the overheads on {at} \
         processors.\n"
    );
    let pct = |m: f64, se: f64| mean_se(100.0 * m, 100.0 * se, 1);
    for config in configs(summaries) {
        let groups = per_algorithm(&config);
        out.push_str(&format!(
            "\n### {} on {at} processors\n\n\
             | scheme | speedup | efficiency | time % | = search % | + communication % | + synchronization % | search % (leaves) | messages per node |\n\
             |---|---|---|---|---|---|---|---|---|\n",
            title(plan, config[0])
        ));
        for (name, rows) in &groups {
            match rows.iter().find(|s| s.processors == at) {
                Some(s) => out.push_str(&format!(
                    "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    mean_se(s.speedup, s.speedup_se, 2),
                    fixed(s.speedup / at as f64, 2),
                    pct(s.time_overhead, s.time_overhead_se),
                    pct(s.search_time_overhead, s.search_time_overhead_se),
                    pct(s.message_overhead, s.message_overhead_se),
                    pct(s.idle_overhead, s.idle_overhead_se),
                    pct(s.search_overhead, s.search_overhead_se),
                    fixed(s.messages_per_node, 3),
                )),
                None => out.push_str(&format!(
                    "| {name} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} |\n"
                )),
            }
        }
        let mut counts: Vec<u32> = config.iter().map(|s| s.processors).collect();
        counts.sort();
        counts.dedup();
        out.push_str(&format!(
            "\n### {}: speedup (efficiency) by processors\n\n| scheme |",
            title(plan, config[0])
        ));
        for p in &counts {
            out.push_str(&format!(" {p} |"));
        }
        out.push_str("\n|---|");
        for _ in &counts {
            out.push_str("---|");
        }
        out.push('\n');
        for (name, rows) in &groups {
            out.push_str(&format!("| {name} |"));
            for p in &counts {
                match rows.iter().find(|s| s.processors == *p) {
                    Some(s) => out.push_str(&format!(
                        " {} ({}) |",
                        fixed(s.speedup, 2),
                        fixed(s.speedup / *p as f64, 2)
                    )),
                    None => out.push_str(&format!(" {UNDEFINED} |")),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// A `vary` run of a scheme comparison: for its index report.md, the speedup of every scheme at
/// `at` processors in every combination (rows: schemes, columns: combinations) with each
/// scheme's rank in that combination, per tree configuration. `combos` holds each
/// combination's label and summaries, in run order.
pub fn vary_markdown(combos: &[(String, Vec<Summary>)], at: u32) -> String {
    let mut out = format!(
        "\n## Schemes compared across the combinations\n\n\
         Speedup on {at} processors (each scheme over itself on one processor, mean over \
         seeds) and, in parentheses, its rank among the schemes of that combination (1 = \
         fastest). `schemes.png` here draws every combination's speedups side by side; each \
         combination's folder has its overhead bars and tables.\n"
    );
    let Some((_, first)) = combos.first() else {
        return out;
    };
    for config in configs(first) {
        let key = config_words(config[0]);
        out.push_str(&format!("\n### {key}\n\n| scheme |"));
        for (label, _) in combos {
            out.push_str(&format!(" {label} |"));
        }
        out.push_str("\n|---|");
        for _ in combos {
            out.push_str("---|");
        }
        out.push('\n');
        // Per combination: each scheme's speedup at `at`, and its rank.
        let columns: Vec<Vec<(String, f64, usize)>> = combos
            .iter()
            .map(|(_, summaries)| {
                let mut v: Vec<(String, f64)> = summaries
                    .iter()
                    .filter(|s| config_words(s) == key && s.processors == at)
                    .map(|s| (s.algorithm.clone(), s.speedup))
                    .collect();
                let mut order: Vec<usize> = (0..v.len()).collect();
                order.sort_by(|&a, &b| v[b].1.total_cmp(&v[a].1));
                let mut ranked = vec![0; v.len()];
                for (rank, &i) in order.iter().enumerate() {
                    ranked[i] = rank + 1;
                }
                v.drain(..)
                    .zip(ranked)
                    .map(|((a, x), r)| (a, x, r))
                    .collect()
            })
            .collect();
        for (name, _) in per_algorithm(&config) {
            out.push_str(&format!("| {name} |"));
            for column in &columns {
                match column.iter().find(|(a, _, _)| *a == name) {
                    Some((_, x, r)) => out.push_str(&format!(" {} ({r}) |", fixed(*x, 2))),
                    None => out.push_str(&format!(" {UNDEFINED} |")),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// A `vary` run of a scheme comparison: one log–log speedup panel per combination (the first
/// tree configuration of each), titled by the combination.
pub fn vary_charts(combos: &[(String, Vec<Summary>)]) -> Vec<LineChart> {
    combos
        .iter()
        .filter_map(|(label, summaries)| {
            let configs = configs(summaries);
            let config = configs.first()?;
            let mut chart = speedup_lines(config);
            chart.title = label.clone();
            Some(chart)
        })
        .collect()
}
