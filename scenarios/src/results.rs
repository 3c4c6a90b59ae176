//! Results: one record per simulated run, summaries per processor count, and the files.

use serde::Serialize;
use sim_core::{Category, MsgKind, RunStats};

/// One row of `results.csv` / one object of `results.json`.
///
/// Overheads are fractions (0.05 = 5 %), defined as in the paper's eqs. (9)–(12) against the
/// uniprocessor run (f = 1) of the same tree:
/// - `search_overhead` = leaves(f) / leaves(1) − 1 (eq. 9);
/// - `time_overhead` = f · elapsed(f) / elapsed(1) − 1 (eq. 11);
/// - `comm_overhead` = time − search, as the paper defines it;
/// - `sync_overhead` = Σ idle_sync time of all processors / uniprocessor leaf time (section VII);
///
/// and beside them the split the 1985 hardware could not measure, over elapsed(1), which adds up
/// exactly: `time_overhead = search_time_overhead + message_overhead + idle_overhead`.
///
/// `elapsed_ns` is the makespan: from the start until the machine is quiet. The master has the
/// root value by then; a message still on its way when it got it (an inter-level line) and its
/// handler are included, as eq. (5) includes them. `idle_sync` is every moment a processor
/// waited for work or for others, including work still in transit on a slow line (the paper's
/// "waiting for work"), which is wider than the model's I_{d,f}.
#[derive(Clone, Debug, Serialize)]
pub struct RunRecord {
    pub scenario: String,
    pub algorithm: String,
    pub tree: String,
    pub ordering: String,
    pub width: u32,
    pub depth: u32,
    pub fanout: u32,
    pub length: u32,
    pub seed: u64,
    pub horizon_noise: u32,
    pub root_value: i32,
    pub leaf_nodes: u64,
    pub interior_nodes: u64,
    pub elapsed_ns: u64,
    pub speedup: f64,
    pub search_overhead: f64,
    pub time_overhead: f64,
    pub comm_overhead: f64,
    pub sync_overhead: f64,
    pub t_search_ns: u64,
    pub t_message_ns: u64,
    pub t_interrupt_ns: u64,
    pub t_wait_reply_ns: u64,
    pub t_idle_sync_ns: u64,
    pub msgs_at_node: u64,
    pub msgs_inter_node: u64,
    pub msgs_inter_level: u64,
    pub msgs_inter_iteration: u64,
    pub bytes_total: u64,
    pub msgs_interactive: u64,
    pub leaf_ns: u64,
    pub leaf_time_overhead: f64,
    pub search_time_overhead: f64,
    pub message_overhead: f64,
    pub idle_overhead: f64,
    pub events: u64,
    /// Eq. (5) for a minimal tree of this w, d, f and these costs (summed over the iterations
    /// with progressive deepening; t1 = 4 bytes, t2 = 2 bytes per ply of the iteration).
    pub model_elapsed_ns: f64,
    /// Eq. (14), f/2(w+1): the paper's synchronization estimate for odd depths.
    pub model_sync_overhead_odd: f64,
    /// 3f/4(w−1): the paper's estimate for even depths.
    pub model_sync_overhead_even: f64,
    /// (f−1)/w: the estimate the authors suspected was closer (section VIII).
    pub model_sync_fm1_over_w: f64,
    /// I_{d,f}/E_{d,0} without the paper's approximation (see algorithms::model).
    pub model_sync_overhead_ie: f64,
}

/// The column names of `results.csv`, in order.
pub const COLUMNS: &[&str] = &[
    "scenario",
    "algorithm",
    "tree",
    "ordering",
    "width",
    "depth",
    "fanout",
    "length",
    "seed",
    "root_value",
    "leaf_nodes",
    "interior_nodes",
    "elapsed_ns",
    "speedup",
    "search_overhead",
    "time_overhead",
    "comm_overhead",
    "sync_overhead",
    "t_search_ns",
    "t_message_ns",
    "t_interrupt_ns",
    "t_wait_reply_ns",
    "t_idle_sync_ns",
    "msgs_at_node",
    "msgs_inter_node",
    "msgs_inter_level",
    "msgs_inter_iteration",
    "bytes_total",
    "msgs_interactive",
    "leaf_ns",
    "leaf_time_overhead",
    "search_time_overhead",
    "message_overhead",
    "idle_overhead",
    "events",
    "horizon_noise",
    "model_elapsed_ns",
    "model_sync_overhead_odd",
    "model_sync_overhead_even",
    "model_sync_fm1_over_w",
    "model_sync_overhead_ie",
];

/// Identifies the configuration a record belongs to.
pub struct RunLabel<'a> {
    pub scenario: &'a str,
    pub algorithm: &'a str,
    pub tree: &'a str,
    pub ordering: &'a str,
    pub width: u32,
    pub depth: u32,
    pub length: u32,
    pub horizon_noise: u32,
}

impl<'a> RunLabel<'a> {
    /// The label of a pmws run of `plan` on the trees of `spec`; `ordering` is
    /// `load::ordering_label(&spec.ordering)`.
    pub fn new(plan: &'a crate::Plan, spec: &algorithms::SyntheticSpec, ordering: &'a str) -> Self {
        RunLabel {
            scenario: plan.name(),
            algorithm: "pmws",
            tree: plan.tree_label(),
            ordering,
            width: spec.width,
            depth: spec.depth,
            length: 1,
            horizon_noise: spec.horizon_noise,
        }
    }
}

impl RunRecord {
    /// Builds the record of a run at fanout `f` from its statistics and those of the
    /// uniprocessor run of the same tree.
    pub fn new(
        label: &RunLabel,
        f: u32,
        seed: u64,
        root_value: i32,
        stats: &RunStats,
        base: &RunStats,
    ) -> Self {
        let t = stats.total_times();
        let nodes = stats.total_nodes();
        let base_nodes = base.total_nodes();
        let (el, el1) = (stats.makespan.as_nanos(), base.makespan.as_nanos());
        let ratio = |a: f64, b: f64| if b == 0.0 { f64::NAN } else { a / b };
        let search_overhead = ratio(nodes.leaves as f64, base_nodes.leaves as f64) - 1.0;
        let time_overhead = ratio(f as f64 * el as f64, el1 as f64) - 1.0;
        let comm =
            t.get(Category::Message) + t.get(Category::Interrupt) + t.get(Category::WaitReply);
        let m = &stats.messages;
        RunRecord {
            scenario: label.scenario.into(),
            algorithm: label.algorithm.into(),
            tree: label.tree.into(),
            ordering: label.ordering.into(),
            width: label.width,
            depth: label.depth,
            fanout: f,
            length: label.length,
            seed,
            horizon_noise: label.horizon_noise,
            root_value,
            leaf_nodes: nodes.leaves,
            interior_nodes: nodes.interior,
            elapsed_ns: el,
            speedup: ratio(el1 as f64, el as f64),
            search_overhead,
            time_overhead,
            comm_overhead: time_overhead - search_overhead,
            sync_overhead: ratio(t.get(Category::IdleSync) as f64, base_nodes.leaf_ns as f64),
            t_search_ns: t.get(Category::Search),
            t_message_ns: t.get(Category::Message),
            t_interrupt_ns: t.get(Category::Interrupt),
            t_wait_reply_ns: t.get(Category::WaitReply),
            t_idle_sync_ns: t.get(Category::IdleSync),
            msgs_at_node: m.count(MsgKind::AtNode),
            msgs_inter_node: m.count(MsgKind::InterNode),
            msgs_inter_level: m.count(MsgKind::InterLevel),
            msgs_inter_iteration: m.count(MsgKind::InterIteration),
            bytes_total: m.bytes_total(),
            msgs_interactive: m.count(MsgKind::Interactive),
            leaf_ns: nodes.leaf_ns,
            leaf_time_overhead: ratio(nodes.leaf_ns as f64, base_nodes.leaf_ns as f64) - 1.0,
            search_time_overhead: ratio(t.get(Category::Search) as f64, el1 as f64) - 1.0,
            message_overhead: ratio(comm as f64, el1 as f64),
            idle_overhead: ratio(t.get(Category::IdleSync) as f64, el1 as f64),
            events: stats.events,
            model_elapsed_ns: f64::NAN,
            model_sync_overhead_odd: f64::NAN,
            model_sync_overhead_even: f64::NAN,
            model_sync_fm1_over_w: f64::NAN,
            model_sync_overhead_ie: f64::NAN,
        }
    }

    /// The record's values in [`COLUMNS`] order, as CSV fields.
    pub fn csv_fields(&self) -> Vec<String> {
        let value = serde_json::to_value(self).expect("a record serializes");
        COLUMNS
            .iter()
            .map(|c| match &value[*c] {
                serde_json::Value::String(s) => csv_escape(s),
                serde_json::Value::Null => "NaN".to_string(),
                v => v.to_string(),
            })
            .collect()
    }
}

fn csv_escape(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// CSV text of records, header first.
pub fn to_csv(records: &[RunRecord]) -> String {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for r in records {
        out.push_str(&r.csv_fields().join(","));
        out.push('\n');
    }
    out
}

/// Means over seeds for one processor count, computed as the paper's tables do: overheads from
/// the mean leaf counts and mean times, speedup as the mean of per-tree ratios.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub width: u32,
    pub depth: u32,
    pub ordering: String,
    pub horizon_noise: u32,
    pub fanout: u32,
    pub runs: usize,
    pub speedup: f64,
    pub speedup_se: f64,
    pub search_overhead: f64,
    pub time_overhead: f64,
    pub comm_overhead: f64,
    pub sync_overhead: f64,
    /// Standard error of the per-run sync overheads (the mean beside it is a ratio of means).
    pub sync_overhead_se: f64,
    pub message_overhead: f64,
    pub idle_overhead: f64,
    pub leaf_nodes: f64,
    pub elapsed_s: f64,
    /// The paper's estimate of the synchronization overhead for this configuration: eq. (14)
    /// f/2(w+1) for odd depths, 3f/4(w−1) for even depths.
    pub sync_estimate: f64,
}

fn mean(v: impl Iterator<Item = f64>) -> (f64, f64, usize) {
    let v: Vec<f64> = v.collect();
    let n = v.len();
    if n == 0 {
        return (f64::NAN, f64::NAN, 0);
    }
    let m = v.iter().sum::<f64>() / n as f64;
    let se = if n > 1 {
        let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64;
        (var / n as f64).sqrt()
    } else {
        0.0
    };
    (m, se, n)
}

/// Summaries per fanout (in the order of `fanouts`); `base` are the f = 1 records per seed.
pub fn summarize(
    records: &[RunRecord],
    base: &[RunRecord],
    fanouts: &[u32],
    sync_estimate: impl Fn(u32) -> f64,
) -> Vec<Summary> {
    let (t1, _, _) = mean(base.iter().map(|r| r.elapsed_ns as f64));
    let (l1, _, _) = mean(base.iter().map(|r| r.leaf_nodes as f64));
    let (e1, _, _) = mean(base.iter().map(|r| r.leaf_ns as f64));
    fanouts
        .iter()
        .map(|&f| {
            let rs: Vec<&RunRecord> = records.iter().filter(|r| r.fanout == f).collect();
            let (speedup, speedup_se, runs) = mean(rs.iter().map(|r| r.speedup));
            let (tf, _, _) = mean(rs.iter().map(|r| r.elapsed_ns as f64));
            let (lf, _, _) = mean(rs.iter().map(|r| r.leaf_nodes as f64));
            let (idle, _, _) = mean(rs.iter().map(|r| r.t_idle_sync_ns as f64));
            let (comm, _, _) = mean(
                rs.iter()
                    .map(|r| (r.t_message_ns + r.t_interrupt_ns + r.t_wait_reply_ns) as f64),
            );
            let (_, sync_se, _) = mean(rs.iter().map(|r| r.sync_overhead));
            let search_overhead = lf / l1 - 1.0;
            let time_overhead = f as f64 * tf / t1 - 1.0;
            let first = rs.first().copied().or(base.first());
            Summary {
                width: first.map_or(0, |r| r.width),
                depth: first.map_or(0, |r| r.depth),
                ordering: first.map_or(String::new(), |r| r.ordering.clone()),
                horizon_noise: first.map_or(0, |r| r.horizon_noise),
                fanout: f,
                runs,
                speedup,
                speedup_se,
                search_overhead,
                time_overhead,
                comm_overhead: time_overhead - search_overhead,
                sync_overhead: idle / e1,
                sync_overhead_se: sync_se,
                message_overhead: comm / t1,
                idle_overhead: idle / t1,
                leaf_nodes: lf,
                elapsed_s: tf * 1e-9,
                sync_estimate: sync_estimate(f),
            }
        })
        .collect()
}

/// The summary as a Markdown table (percentages).
pub fn summary_table(summaries: &[Summary]) -> String {
    let mut s = String::from(
        "| f | runs | leaf nodes | time (s) | speedup | search % | time % | comm % | sync % (measured) | sync % (estimate) | message % | idle % |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in summaries {
        // With one processor nothing waits: the estimate (linear in f) does not apply.
        let estimate = if r.fanout >= 2 {
            format!("{:.1}", 100.0 * r.sync_estimate)
        } else {
            "–".into()
        };
        s.push_str(&format!(
            "| {} | {} | {:.0} | {:.1} | {:.2} ± {:.2} | {:.1} | {:.1} | {:.1} | {:.1} ± {:.1} | {} | {:.1} | {:.1} |\n",
            r.fanout,
            r.runs,
            r.leaf_nodes,
            r.elapsed_s,
            r.speedup,
            r.speedup_se,
            100.0 * r.search_overhead,
            100.0 * r.time_overhead,
            100.0 * r.comm_overhead,
            100.0 * r.sync_overhead,
            100.0 * r.sync_overhead_se,
            estimate,
            100.0 * r.message_overhead,
            100.0 * r.idle_overhead,
        ));
    }
    s
}
