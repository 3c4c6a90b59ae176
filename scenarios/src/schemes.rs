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
use crate::output::report::config_words;
use crate::results::{fixed, mean_se, ratio_fixed, ratio_mean_se, Summary, UNDEFINED};
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
    format!("{}, {}", config_words(s), plan.seed_count())
}

/// The machine's network and lines in a few words, for chart titles: `960 bytes/s lines
/// between every pair that talks`, `shared bus (…)`, `hypercube (…) of 1,250,000 bytes/s (10 Mbit/s) lines`.
pub fn machine_words(plan: &Plan) -> String {
    let lines = match plan.link.kind {
        sim_hw::LinkKind::Serial { rate } => {
            format!("{} lines", crate::util::rate_words(rate))
        }
        sim_hw::LinkKind::Ideal => "ideal lines".into(),
    };
    let network = match plan.network {
        None => format!("processor trees of {lines}"),
        Some(crate::dispatch::NetworkPlan::Fixed(sim_hw::PoolNetwork::FullyConnected)) => {
            format!("{lines} between every pair that talks")
        }
        // "on a hypercube (…) of … lines", "on a shared bus (…)".
        Some(n @ crate::dispatch::NetworkPlan::Fixed(sim_hw::PoolNetwork::Bus(_))) => {
            format!("a {}", n.describe())
        }
        Some(n) => format!("a {} of {lines}", n.describe()),
    };
    match plan.memory {
        None => network,
        Some(m) => format!(
            "{network}, shared memory ({} ns read, {} ns write, {} banks{})",
            m.read.as_nanos(),
            m.write.as_nanos(),
            m.banks,
            m.numa.map_or(String::new(), |n| format!(
                ", NUMA: {} per node, remote × {}",
                n.per_node,
                n.remote_permille as f64 / 1000.0
            ))
        ),
    }
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
        log2_x: false,
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
            "% of one-processor time (segments, negative ones left of 0, sum to {at} · T({at}) / T(1) − 1)"
        ),
        categories: rows.iter().map(|s| s.algorithm.clone()).collect(),
        segments: vec![
            segment("search (search time − 1)", 2, |s| s.search_time_overhead),
            segment("communication (CPU time on messages, shared memory)", 0, |s| {
                s.message_overhead
            }),
            segment(
                "synchronization (idle: waiting for work, or for messages on their way)",
                1,
                |s| s.idle_overhead,
            ),
        ],
        unit: " %".into(),
    }
}

/// report.md's section: per tree configuration, the table at `at` processors (speedup,
/// efficiency, the overheads, messages per node) and speedup per scheme and processor count.
pub fn markdown(plan: &Plan, summaries: &[Summary], at: u32) -> String {
    let network = machine_words(plan);
    let (chart, bars) = plan
        .scenario
        .outputs
        .schemes
        .as_ref()
        .map(|s| s.files())
        .unwrap_or_default();
    let mut out = format!(
        "## Schemes compared\n\n\
         On {network}. Speedup is each scheme's time on one processor over its time on p \
         (mean of per-tree ratios ± standard error), efficiency speedup / p. T(1) and T(p) are \
         the mean times: a scheme that is slow on one processor gains speedup from it, so \
         compare T(p) to see which scheme finishes first. The overheads are \
         in % of the one-processor time and add up to the time overhead p · T(p) / T(1) − 1: \
         search (all processors' search time − 1), communication (their CPU time on messages: \
         setup, interrupts, forwarding, waiting for replies; on a machine with shared memory also \
         their time reaching it) and synchronization (their idle \
         time, waiting for work, for others or for a line). Search % (leaves) is eq. 9's leaf \
         count overhead. Messages per node: all messages sent over all nodes searched. \
         `{chart}` draws the speedups, `{bars}` the overheads on {at} processors.\n"
    );
    let pct = |m: f64, se: f64| mean_se(100.0 * m, 100.0 * se, 1);
    let unit = crate::results::TimeUnit::of(plan);
    for config in configs(summaries) {
        let groups = per_algorithm(&config);
        out.push_str(&format!(
            "\n### {} on {at} processors\n\n\
             | scheme | speedup | efficiency | T(1) | T({at}) | time % | = search % | + communication % | + synchronization % | search % (leaves) | messages per node |\n\
             |---|---|---|---|---|---|---|---|---|---|---|\n",
            title(plan, config[0])
        ));
        for (name, rows) in &groups {
            let t1 = rows
                .iter()
                .find(|s| s.processors == 1)
                .map_or(UNDEFINED.to_string(), |s| unit.duration(s.elapsed_s));
            match rows.iter().find(|s| s.processors == at) {
                Some(s) => out.push_str(&format!(
                    "| {name} | {} | {} | {t1} | {} | {} | {} | {} | {} | {} | {} |\n",
                    ratio_mean_se(s.speedup, s.speedup_se, 2),
                    ratio_fixed(s.speedup / at as f64, 2),
                    unit.duration(s.elapsed_s),
                    pct(s.time_overhead, s.time_overhead_se),
                    pct(s.search_time_overhead, s.search_time_overhead_se),
                    pct(s.message_overhead, s.message_overhead_se),
                    pct(s.idle_overhead, s.idle_overhead_se),
                    pct(s.search_overhead, s.search_overhead_se),
                    fixed(s.messages_per_node, 3),
                )),
                None => out.push_str(&format!(
                    "| {name} | {UNDEFINED} | {UNDEFINED} | {t1} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} | {UNDEFINED} |\n"
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
                        ratio_fixed(s.speedup, 2),
                        ratio_fixed(s.speedup / *p as f64, 2)
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
         seeds) and, in parentheses, its rank among the schemes of that combination by mean \
         time on {at} processors (1 = fastest; equal times share a rank). The two orders can differ: a scheme whose \
         one-processor search is slower gains speedup without being faster. `schemes.png` here \
         draws every combination's speedups side by side; each combination's folder has its \
         overhead bars and tables.\n"
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
        // Per combination: each scheme's speedup at `at`, and its rank by mean time there.
        let columns: Vec<Vec<(String, f64, usize)>> = combos
            .iter()
            .map(|(_, summaries)| {
                let mut v: Vec<(String, f64, f64)> = summaries
                    .iter()
                    .filter(|s| config_words(s) == key && s.processors == at)
                    .map(|s| (s.algorithm.clone(), s.speedup, s.elapsed_s))
                    .collect();
                // 1 + the schemes strictly faster: equal times share a rank.
                let ranked: Vec<usize> = v
                    .iter()
                    .map(|x| 1 + v.iter().filter(|y| y.2 < x.2).count())
                    .collect();
                v.drain(..)
                    .zip(ranked)
                    .map(|((a, x, _), r)| (a, x, r))
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

/// report.md's section for a comparison of schemes on chess positions (`outputs.schemes` on a
/// chess plan): per scheme and processor count, the speedup and where the time goes (messages
/// and shared memory apart), then the table traffic and the answers: how many positions choose
/// the move the scheme chooses on one processor, and how many values differ from the
/// table-free search, by how much.
pub fn chess_markdown(plan: &Plan, rows: &crate::chess_report::ChessRows) -> String {
    use crate::results::RunRecord;
    use std::collections::BTreeMap;
    let mut out = format!(
        "\n## Schemes compared on the positions\n\n\
         On {}. Per scheme and processor count p, over the positions: speedup is the mean of the \
         per-position ratios T(1) / T(p) of the scheme's own one-processor search (± standard \
         error); search % (leaves) is each position's leaf-count overhead (eq. 9 per position); \
         the time split is in % of the one-processor time and adds up to the time overhead p · T(p) / T(1) − 1: search \
         (all processors' search time − 1), messages (CPU time on messages: setup, interrupts, \
         forwarding, waiting for replies), memory (time reaching shared memory: latency, waiting \
         for a busy bank, spinning on locks) and synchronization (idle). Means of per-position \
         ratios: the tables above take the paper's ratios of means (mean T(p) over \
         mean T(1)), so the same scheme's time % differs between the two where positions \
         differ much in size.\n",
        machine_words(plan)
    );
    // The one-processor run of every (algorithm, position).
    let base: BTreeMap<(&str, &str), &RunRecord> = rows
        .baseline
        .iter()
        .map(|r| ((r.algorithm.as_str(), r.position.as_str()), r))
        .collect();
    let mut groups: Vec<(&str, Vec<u32>)> = Vec::new();
    for r in &rows.sweep {
        match groups.iter_mut().find(|(a, _)| *a == r.algorithm) {
            Some((_, ps)) if ps.contains(&r.processors) => {}
            Some((_, ps)) => ps.push(r.processors),
            None => groups.push((&r.algorithm, vec![r.processors])),
        }
    }
    let mean = |v: &[f64]| {
        if v.is_empty() {
            f64::NAN
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let figure = |r: &RunRecord, name: &str| r.figures.0.get(name);
    let mut split = String::from(
        "\n### Speedup and time split\n\n\
         | scheme | p | positions | speedup | search % (leaves, mean over positions) | time % (mean over positions) | = search % | + messages % | + memory % | + synchronization % |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut traffic = String::from(
        "\n### Table traffic and answers\n\n\
         Table figures are per node searched: over all positions, the probes (or stores, or \
         memory accesses) of all processors over the nodes (interior and leaves) they searched; \
         hits are probes that found the position, over all probes; overwrites are new entries \
         that evicted another position, per position (a store's, or ABDADA's entry counting the \
         processors that search a position, made without a value: abdada_novalues overwrites \
         and stores nothing). Memory accesses are all reads and writes of \
         shared memory (table entries, split points, locks, flags); bank wait is the share of memory time spent waiting for \
         a busy bank. Same move: positions whose root move is the one the scheme chooses on one \
         processor. Values that differ: runs whose root value is not the table-free search's, \
         and the mean absolute difference (centipawns) among them.\n\n\
         | scheme | p | table probes per node | hits % | stores per node | overwrites per position | memory accesses per node | bank wait % | same move as p = 1 | values that differ | mean difference |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (algorithm, ps) in &groups {
        let mut ps = ps.clone();
        ps.sort();
        for p in ps {
            let runs: Vec<(&RunRecord, &RunRecord)> = rows
                .sweep
                .iter()
                .filter(|r| r.algorithm == *algorithm && r.processors == p)
                .filter_map(|r| {
                    base.get(&(r.algorithm.as_str(), r.position.as_str()))
                        .map(|b| (r, *b))
                })
                .collect();
            let per = |f: &dyn Fn(&RunRecord, &RunRecord) -> f64| -> Vec<f64> {
                runs.iter().map(|(r, b)| f(r, b)).collect()
            };
            let speedups = per(&|r, b| b.elapsed_ns as f64 / r.elapsed_ns as f64);
            let se = if speedups.len() > 1 {
                let m = mean(&speedups);
                let var = speedups.iter().map(|x| (x - m).powi(2)).sum::<f64>()
                    / (speedups.len() - 1) as f64;
                (var / speedups.len() as f64).sqrt()
            } else {
                f64::NAN
            };
            let el1 = |b: &RunRecord| b.elapsed_ns as f64;
            let memory_ns = |r: &RunRecord| figure(r, "t_memory_ns").unwrap_or(0) as f64;
            let pct = |v: Vec<f64>| fixed(100.0 * mean(&v), 1);
            split.push_str(&format!(
                "| {algorithm} | {p} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                runs.len(),
                ratio_mean_se(mean(&speedups), se, 2),
                pct(per(&|r, b| r.leaf_nodes as f64 / b.leaf_nodes as f64 - 1.0)),
                pct(per(&|r, b| p as f64 * r.elapsed_ns as f64 / el1(b) - 1.0)),
                pct(per(&|r, b| r.t_search_ns as f64 / el1(b) - 1.0)),
                pct(per(&|r, b| {
                    (r.t_message_ns + r.t_interrupt_ns + r.t_wait_reply_ns) as f64 / el1(b)
                })),
                pct(per(&|r, b| memory_ns(r) / el1(b))),
                pct(per(&|r, b| r.t_idle_sync_ns as f64 / el1(b))),
            ));
            // All positions' counts over all their nodes: a small position weighs what it
            // searched, as "messages per node" in the tables above.
            let nodes: u64 = runs
                .iter()
                .map(|(r, _)| r.leaf_nodes + r.interior_nodes)
                .sum();
            let over_nodes = |count: &dyn Fn(&RunRecord) -> u64| -> String {
                let total: u64 = runs.iter().map(|(r, _)| count(r)).sum();
                fixed(total as f64 / nodes.max(1) as f64, 3)
            };
            let per_node = |name: &str| -> String {
                if runs.iter().all(|(r, _)| figure(r, name).is_none()) {
                    return UNDEFINED.into();
                }
                over_nodes(&|r| figure(r, name).unwrap_or(0))
            };
            let hits = {
                let (h, n) = runs.iter().fold((0u64, 0u64), |(h, n), (r, _)| {
                    (
                        h + figure(r, "tt_hits").unwrap_or(0),
                        n + figure(r, "tt_probes").unwrap_or(0),
                    )
                });
                if n == 0 {
                    UNDEFINED.into()
                } else {
                    fixed(100.0 * h as f64 / n as f64, 1)
                }
            };
            let overwrites = if runs
                .iter()
                .all(|(r, _)| figure(r, "tt_overwrites").is_none())
            {
                UNDEFINED.into()
            } else {
                fixed(
                    mean(&per(&|r, _| figure(r, "tt_overwrites").unwrap_or(0) as f64)),
                    1,
                )
            };
            let accesses = if plan.memory.is_some() {
                over_nodes(&|r| {
                    figure(r, "mem_reads").unwrap_or(0) + figure(r, "mem_writes").unwrap_or(0)
                })
            } else {
                UNDEFINED.into()
            };
            let wait = {
                let (w, m) = runs.iter().fold((0u64, 0u64), |(w, m), (r, _)| {
                    (
                        w + figure(r, "mem_bank_wait_ns").unwrap_or(0),
                        m + figure(r, "t_memory_ns").unwrap_or(0),
                    )
                });
                if m == 0 {
                    UNDEFINED.into()
                } else {
                    fixed(100.0 * w as f64 / m as f64, 1)
                }
            };
            let same = runs
                .iter()
                .filter(|(r, b)| r.root_move.is_some() && r.root_move == b.root_move)
                .count();
            let moves = runs.iter().filter(|(r, _)| r.root_move.is_some()).count();
            let differ: Vec<i64> = runs
                .iter()
                .filter_map(|(r, _)| {
                    r.value_reference
                        .filter(|v| *v != r.root_value)
                        .map(|v| (r.root_value as i64 - v as i64).abs())
                })
                .collect();
            traffic.push_str(&format!(
                "| {algorithm} | {p} | {} | {hits} | {} | {overwrites} | {accesses} | {wait} | {} | {} of {} | {} |\n",
                per_node("tt_probes"),
                per_node("tt_stores"),
                if moves == 0 {
                    UNDEFINED.to_string()
                } else {
                    format!("{same} of {moves}")
                },
                differ.len(),
                runs.len(),
                if differ.is_empty() {
                    UNDEFINED.to_string()
                } else {
                    fixed(differ.iter().sum::<i64>() as f64 / differ.len() as f64, 1)
                },
            ));
        }
    }
    out.push_str(&split);
    out.push_str(&traffic);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at16(algorithm: &str, speedup: f64, elapsed_s: f64) -> Summary {
        Summary {
            algorithm: algorithm.into(),
            width: 8,
            depth: 8,
            ordering: "first_best(0.9)".into(),
            processors: 16,
            speedup,
            elapsed_s,
            ..Summary::default()
        }
    }

    #[test]
    fn the_vary_table_ranks_by_time_and_equal_times_share_a_rank() {
        // a has the best speedup (over its own slow uniprocessor run) but is the slowest; b
        // and c take the same time.
        let combos = vec![(
            "machine lines-960".to_string(),
            vec![
                at16("a", 10.0, 2.0),
                at16("b", 5.0, 1.0),
                at16("c", 3.0, 1.0),
            ],
        )];
        let md = vary_markdown(&combos, 16);
        for row in ["| a | 10.00 (3) |", "| b | 5.00 (1) |", "| c | 3.00 (1) |"] {
            assert!(md.contains(row), "{row} in\n{md}");
        }
    }

    /// The per-configuration table shows each scheme's mean time on one processor and on p
    /// beside its speedup: a scheme whose speedup is the larger over its own slow one-processor
    /// run can be seen not to finish first.
    #[test]
    fn the_schemes_table_sets_both_times_beside_the_speedup() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemes-compare.ron");
        let plan = crate::load::load(&path).expect("a shipped scenario loads");
        let row = |algorithm: &str, processors: u32, speedup: f64, elapsed_s: f64| Summary {
            processors,
            ..at16(algorithm, speedup, elapsed_s)
        };
        let summaries = [
            row("slow_alone", 1, 1.0, 8e-3),
            row("slow_alone", 16, 4.0, 2e-3),
            row("fast_alone", 1, 1.0, 3e-3),
            row("fast_alone", 16, 2.0, 1.5e-3),
        ];
        let md = markdown(&plan, &summaries, 16);
        assert!(
            md.contains("| scheme | speedup | efficiency | T(1) | T(16) | time % |"),
            "{md}"
        );
        let unit = crate::results::TimeUnit::of(&plan);
        for (name, t1, tp) in [("slow_alone", 8e-3, 2e-3), ("fast_alone", 3e-3, 1.5e-3)] {
            let line = md
                .lines()
                .find(|l| l.starts_with(&format!("| {name} | ")))
                .unwrap_or_else(|| panic!("{name} in\n{md}"));
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(cells[4], unit.duration(t1), "{line}");
            assert_eq!(cells[5], unit.duration(tp), "{line}");
        }
    }
}
