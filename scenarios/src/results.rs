//! Results: one record per simulated run, summaries per processor count, and the files.

use serde::{Deserialize, Serialize};
use sim_core::{Category, CategoryTimes, MsgCounts, MsgKind, NodeCounts, RunStats};

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
    /// The scenario's `name` (column `scenario`).
    pub scenario: String,
    /// The algorithm's tag: `pmws`, `treesplit`, `treesplit_update`, … (column `algorithm`).
    pub algorithm: String,
    /// The tree source: `synthetic` (column `tree`).
    pub tree: String,
    /// The ordering's tag: `random`, `perfect`, `first_best(p)`, `geometric(p)`, `weights(w1 w2 …)`
    /// (column `ordering`).
    pub ordering: String,
    /// Moves at every node, w (column `width`).
    pub width: u32,
    /// Search depth d in plies (column `depth`).
    pub depth: u32,
    /// The paper's fanout f: processors per level, the parent included; for Campbell's processor
    /// trees 1 + the root's slaves (column `fanout`).
    pub fanout: u32,
    /// Processor-tree length: levels below the root (column `length`).
    pub length: u32,
    /// The tree's seed (column `seed`).
    pub seed: u64,
    /// Evaluation noise per ply short of the full depth (column `horizon_noise`).
    pub horizon_noise: u32,
    /// The root's minimax value, checked against every run's (column `root_value`).
    pub root_value: i32,
    /// Leaves evaluated, all processors together (column `leaf_nodes`).
    pub leaf_nodes: u64,
    /// Interior nodes expanded, all processors together (column `interior_nodes`).
    pub interior_nodes: u64,
    /// Simulated makespan in ns, from the start until the machine is quiet (column `elapsed_ns`).
    pub elapsed_ns: u64,
    /// elapsed(1) / elapsed(f) on the same tree (column `speedup`).
    pub speedup: f64,
    /// leaves(f) / leaves(1) − 1, eq. (9) (column `search_overhead`).
    pub search_overhead: f64,
    /// processors · elapsed(f) / elapsed(1) − 1, eq. (11) (column `time_overhead`).
    pub time_overhead: f64,
    /// `time_overhead − search_overhead`, the paper's communication overhead (column
    /// `comm_overhead`).
    pub comm_overhead: f64,
    /// Σ idle_sync time / the uniprocessor run's leaf time, section VII (column `sync_overhead`).
    pub sync_overhead: f64,
    /// Simulated ns in category search, summed over all processors (column `t_search_ns`).
    pub t_search_ns: u64,
    /// Simulated ns in category message (message setup), summed over all processors (column
    /// `t_message_ns`).
    pub t_message_ns: u64,
    /// Simulated ns in interrupt handlers, summed over all processors (column `t_interrupt_ns`).
    pub t_interrupt_ns: u64,
    /// Simulated ns waiting for a reply, summed over all processors (column `t_wait_reply_ns`).
    pub t_wait_reply_ns: u64,
    /// Simulated ns idle, waiting for work or for others, summed over all processors (column
    /// `t_idle_sync_ns`).
    pub t_idle_sync_ns: u64,
    /// At-node messages (transposition-table probes and updates, Table I) (column `msgs_at_node`).
    pub msgs_at_node: u64,
    /// Inter-node messages (work and values, Table I) (column `msgs_inter_node`).
    pub msgs_inter_node: u64,
    /// Inter-level messages (refutation lines, Table I) (column `msgs_inter_level`).
    pub msgs_inter_level: u64,
    /// Inter-iteration messages (move lists between iterations, Table I) (column
    /// `msgs_inter_iteration`).
    pub msgs_inter_iteration: u64,
    /// Bytes of all messages (column `bytes_total`).
    pub bytes_total: u64,
    /// Interactive messages (start-up and user traffic, Table I) (column `msgs_interactive`).
    pub msgs_interactive: u64,
    /// Simulated ns spent evaluating leaves, all processors (column `leaf_ns`).
    pub leaf_ns: u64,
    /// leaf_ns(f) / leaf_ns(1) − 1, eq. (10) (column `leaf_time_overhead`).
    pub leaf_time_overhead: f64,
    /// Σ search time / elapsed(1) − 1 (column `search_time_overhead`).
    pub search_time_overhead: f64,
    /// Σ (message + interrupt + wait_reply + memory) time / elapsed(1) (column `message_overhead`).
    pub message_overhead: f64,
    /// Σ idle_sync time / elapsed(1) (column `idle_overhead`); with the two above it adds up to
    /// `time_overhead` exactly.
    pub idle_overhead: f64,
    /// Event-queue operations of the engine, a measure of simulation work; with the next two,
    /// the only columns that depend on batching (column `events`).
    pub events: u64,
    /// Optimistic search batches that a message reached before their end and that went back to
    /// their start (column `engine_rollbacks`; 0 with `--conservative` or `--step-by-step`).
    pub engine_rollbacks: u64,
    /// Search steps run again after those rollbacks (column `engine_replayed_steps`): the cost
    /// of optimism, next to the events it saved.
    pub engine_replayed_steps: u64,
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
    /// Levels of processors below the root processor (0 for a uniprocessor).
    pub ptree_depth: u32,
    /// The most children any processor has.
    pub ptree_width: u32,
    /// Processors in the machine.
    pub processors: u32,
    /// Processors without children (Campbell's terminal processors, which search).
    pub terminals: u32,
    /// Quiescence nodes searched by the leaves' evaluations, all processors (0 on synthetic
    /// trees); each costs `hardware.costs.q`.
    pub quiescence_nodes: u64,
    /// The chess position's EPD id (`BK.01`); empty for synthetic and Campbell trees (column
    /// `position`).
    pub position: String,
    /// The root move chosen, in UCI (`d6d1`); empty when the scheme reports none or the tree
    /// is not chess (column `root_move`).
    pub root_move: Option<String>,
    /// Whether `root_move` is one of the EPD's best moves (`bm`); empty when there is no move or
    /// the EPD gives none (column `best_move_ok`).
    pub best_move_ok: Option<bool>,
    /// The table-free reference value: for chess a plain recursive full-window alpha-beta
    /// outside the simulator, for searches with a transposition table the tree's minimax value.
    /// `root_value` equals it for every search without a table; with a table it may differ
    /// (column `value_reference`; empty otherwise).
    pub value_reference: Option<i32>,
    /// Transposition-table probes and stores made on tables the processors hold, each charged
    /// `hardware.costs.probe` there, those a master serves for its children included (sim-core's
    /// NodeCounts.probes) (column `probes`).
    pub probes: u64,
    /// Bytes of at-node messages (column `bytes_at_node`).
    pub bytes_at_node: u64,
    /// Bytes of inter-node messages (column `bytes_inter_node`).
    pub bytes_inter_node: u64,
    /// Bytes of inter-level messages (column `bytes_inter_level`).
    pub bytes_inter_level: u64,
    /// Bytes of inter-iteration messages (column `bytes_inter_iteration`).
    pub bytes_inter_iteration: u64,
    /// Bytes of interactive messages (column `bytes_interactive`).
    pub bytes_interactive: u64,
    /// The figures the scheme reported ([`algorithms::Scheme::figures`]): `open_peak` (the
    /// largest OPEN list, SSS*-family searches alone and parallel staged SSS* — the largest any
    /// one processor held), `tt_probes`, `tt_hits`, `tt_cutoffs`, `tt_stores` (Parabelle's
    /// transposition tables: probes, probes that found the position, hits that ended the node's
    /// search, entries stored), and any column a scheme's catalogue entry adds. A figure the
    /// scheme does not report is an empty cell (`null` in results.json).
    #[serde(flatten)]
    pub figures: RecordFigures,
}

/// The figure columns with a place of their own among [`COLUMNS`] (those the seed papers'
/// schemes report); any other figure column a scheme's catalogue entry lists follows the last of
/// [`COLUMNS`] ([`columns`]).
pub const FIGURE_COLUMNS: &[&str] = &[
    "open_peak",
    "tt_probes",
    "tt_hits",
    "tt_cutoffs",
    "tt_stores",
];

/// A record's scheme figures, serialized with every one of [`FIGURE_COLUMNS`] (null when not
/// reported) and then the scheme's other figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordFigures(pub algorithms::Figures);

impl Serialize for RecordFigures {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for c in FIGURE_COLUMNS {
            map.serialize_entry(c, &self.0.get(c))?;
        }
        for (name, value) in self.0.iter() {
            if !FIGURE_COLUMNS.contains(&name) {
                map.serialize_entry(name, &value)?;
            }
        }
        map.end()
    }
}

/// The columns of results.csv for a plan whose algorithms report the figure columns `extra`
/// (their catalogue entries' columns): [`COLUMNS`], then each of `extra` not among them, in the
/// order given.
pub fn columns<'a>(extra: impl IntoIterator<Item = &'a &'static str>) -> Vec<&'static str> {
    let mut out = COLUMNS.to_vec();
    for c in extra {
        if !out.contains(c) {
            out.push(c);
        }
    }
    out
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
    "engine_rollbacks",
    "engine_replayed_steps",
    "horizon_noise",
    "model_elapsed_ns",
    "model_sync_overhead_odd",
    "model_sync_overhead_even",
    "model_sync_fm1_over_w",
    "model_sync_overhead_ie",
    "ptree_depth",
    "ptree_width",
    "processors",
    "terminals",
    "open_peak",
    "quiescence_nodes",
    "position",
    "root_move",
    "best_move_ok",
    "value_reference",
    "probes",
    "tt_probes",
    "tt_hits",
    "tt_cutoffs",
    "tt_stores",
    "bytes_at_node",
    "bytes_inter_node",
    "bytes_inter_level",
    "bytes_inter_iteration",
    "bytes_interactive",
];

/// Identifies the configuration a record belongs to.
pub struct RunLabel<'a> {
    /// The scenario's `name`.
    pub scenario: &'a str,
    /// The algorithm's tag (`pmws`, `treesplit`, …).
    pub algorithm: &'a str,
    /// The tree source's tag (`synthetic`).
    pub tree: &'a str,
    /// The ordering's tag (`load::ordering_label`).
    pub ordering: &'a str,
    /// Moves at every node, w.
    pub width: u32,
    /// Search depth d in plies.
    pub depth: u32,
    /// Processor-tree length (levels below the root).
    pub length: u32,
    /// Evaluation noise per ply short of the full depth.
    pub horizon_noise: u32,
}

/// The shape of a run's processor tree, as results report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PTreeFigures {
    /// The paper's fanout (processors per level, the parent included).
    pub fanout: u32,
    /// The paper's length (levels below the root).
    pub length: u32,
    /// Levels of processors below the root processor.
    pub depth: u32,
    /// The most children of any processor.
    pub width: u32,
    /// Processors.
    pub processors: u32,
    /// Processors without children.
    pub terminals: u32,
}

impl PTreeFigures {
    /// The processor tree a record ran on.
    pub fn of_record(r: &RunRecord) -> Self {
        PTreeFigures {
            fanout: r.fanout,
            length: r.length,
            depth: r.ptree_depth,
            width: r.ptree_width,
            processors: r.processors,
            terminals: r.terminals,
        }
    }
    /// The figures of a run of `tree`'s size: for a scheme on a pool (`pool_scheme`, ybwc and the
    /// shared-memory schemes) on more than one processor, every processor searches and none is
    /// another's child, so all are terminals and there is no processor tree (depth and width 0).
    pub fn of_run(tree: &sim_hw::ProcessorTree, pool_scheme: bool) -> Self {
        let figures = Self::of(tree);
        if pool_scheme && figures.processors > 1 {
            PTreeFigures {
                depth: 0,
                width: 0,
                terminals: figures.processors,
                ..figures
            }
        } else {
            figures
        }
    }
    /// The figures of `tree`.
    pub fn of(tree: &sim_hw::ProcessorTree) -> Self {
        PTreeFigures {
            fanout: tree.fanout(),
            length: tree.length(),
            depth: tree.depth(),
            width: tree.width(),
            processors: tree.len() as u32,
            terminals: tree.terminals().len() as u32,
        }
    }
}

/// What a run's record needs from the uniprocessor run of the same tree.
#[derive(Clone, Copy, Debug)]
pub struct Baseline {
    /// The uniprocessor makespan elapsed(1), in ns.
    pub elapsed_ns: u64,
    /// The uniprocessor run's leaves, leaves(1).
    pub leaf_nodes: u64,
    /// The uniprocessor run's leaf evaluation time leaf_ns(1), in ns.
    pub leaf_ns: u64,
}

impl Baseline {
    /// The figures of a uniprocessor run's totals.
    pub fn of(totals: &RunTotals) -> Self {
        Baseline {
            elapsed_ns: totals.makespan_ns,
            leaf_nodes: totals.nodes.leaves,
            leaf_ns: totals.nodes.leaf_ns,
        }
    }
}

/// What a run's record takes from its statistics: the machine-wide totals, all integers. A
/// record is a function of these, its labels and its baseline, so a run kept as its totals (the
/// part file of an interrupted sweep, [`crate::part`]) gives the very record it gave before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunTotals {
    /// The makespan, in ns.
    pub makespan_ns: u64,
    /// Every processor's time per category, summed.
    pub times: CategoryTimes,
    /// Every processor's search work, summed.
    pub nodes: NodeCounts,
    /// Messages and bytes by type.
    pub messages: MsgCounts,
    /// Events handled by the engine.
    pub events: u64,
    /// Optimistic batches taken back.
    #[serde(default)]
    pub rollbacks: u64,
    /// Steps replayed after those rollbacks.
    #[serde(default)]
    pub replayed_steps: u64,
}

impl RunTotals {
    /// The totals of a run's statistics.
    pub fn of(stats: &RunStats) -> Self {
        RunTotals {
            makespan_ns: stats.makespan.as_nanos(),
            times: stats.total_times(),
            nodes: stats.total_nodes(),
            messages: stats.messages,
            events: stats.events,
            rollbacks: stats.rollbacks,
            replayed_steps: stats.replayed_steps,
        }
    }
}

impl RunRecord {
    /// Builds the record of a run on processor tree `ptree` from its statistics and those of the
    /// uniprocessor run of the same tree. The time overhead (eq. 11) multiplies by the number of
    /// processors (f for the paper's trees of length 1).
    pub fn new(
        label: &RunLabel,
        ptree: &PTreeFigures,
        seed: u64,
        root_value: i32,
        totals: &RunTotals,
        base: &Baseline,
    ) -> Self {
        let (t, nodes) = (totals.times, totals.nodes);
        let (el, el1) = (totals.makespan_ns, base.elapsed_ns);
        let ratio = |a: f64, b: f64| if b == 0.0 { f64::NAN } else { a / b };
        let search_overhead = ratio(nodes.leaves as f64, base.leaf_nodes as f64) - 1.0;
        let time_overhead = ratio(ptree.processors as f64 * el as f64, el1 as f64) - 1.0;
        // Summed in u128: three u64 totals of simulated time cannot overflow it.
        // Communication: messages, and on a shared-memory machine its accesses (zero elsewhere).
        let comm = t.get(Category::Message) as u128
            + t.get(Category::Interrupt) as u128
            + t.get(Category::WaitReply) as u128
            + t.get(Category::Memory) as u128;
        let m = &totals.messages;
        RunRecord {
            scenario: label.scenario.into(),
            algorithm: label.algorithm.into(),
            tree: label.tree.into(),
            ordering: label.ordering.into(),
            width: label.width,
            depth: label.depth,
            fanout: ptree.fanout,
            length: ptree.length,
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
            sync_overhead: ratio(t.get(Category::IdleSync) as f64, base.leaf_ns as f64),
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
            leaf_time_overhead: ratio(nodes.leaf_ns as f64, base.leaf_ns as f64) - 1.0,
            search_time_overhead: ratio(t.get(Category::Search) as f64, el1 as f64) - 1.0,
            message_overhead: ratio(comm as f64, el1 as f64),
            idle_overhead: ratio(t.get(Category::IdleSync) as f64, el1 as f64),
            events: totals.events,
            engine_rollbacks: totals.rollbacks,
            engine_replayed_steps: totals.replayed_steps,
            model_elapsed_ns: f64::NAN,
            model_sync_overhead_odd: f64::NAN,
            model_sync_overhead_even: f64::NAN,
            model_sync_fm1_over_w: f64::NAN,
            model_sync_overhead_ie: f64::NAN,
            ptree_depth: ptree.depth,
            ptree_width: ptree.width,
            processors: ptree.processors,
            terminals: ptree.terminals,
            quiescence_nodes: nodes.quiescence,
            position: String::new(),
            root_move: None,
            best_move_ok: None,
            value_reference: None,
            probes: nodes.probes,
            bytes_at_node: m.bytes[MsgKind::AtNode.index()],
            bytes_inter_node: m.bytes[MsgKind::InterNode.index()],
            bytes_inter_level: m.bytes[MsgKind::InterLevel.index()],
            bytes_inter_iteration: m.bytes[MsgKind::InterIteration.index()],
            bytes_interactive: m.bytes[MsgKind::Interactive.index()],
            figures: RecordFigures::default(),
        }
    }

    /// The scheme's figure `name` (a column such as `open_peak` or `tt_probes`), if reported.
    pub fn figure(&self, name: &str) -> Option<u64> {
        self.figures.0.get(name)
    }

    /// The figures of this record as the baseline of other runs (for an f = 1 record).
    pub fn as_baseline(&self) -> Baseline {
        Baseline {
            elapsed_ns: self.elapsed_ns,
            leaf_nodes: self.leaf_nodes,
            leaf_ns: self.leaf_ns,
        }
    }

    /// The record's values in [`COLUMNS`] order, as CSV fields. Undefined values (NaN or
    /// infinite floats, `null` in results.json) are empty fields.
    pub fn csv_fields(&self) -> Vec<String> {
        self.csv_fields_in(COLUMNS)
    }

    /// The record's values in the order of `columns` ([`columns`]), as CSV fields; a column the
    /// record has no value for (a figure its scheme does not report) is an empty field.
    pub fn csv_fields_in(&self, columns: &[&str]) -> Vec<String> {
        let value = serde_json::to_value(self).expect("a record serializes");
        columns
            .iter()
            .map(
                |c| match value.get(*c).unwrap_or(&serde_json::Value::Null) {
                    serde_json::Value::String(s) => csv_escape(s),
                    serde_json::Value::Null => String::new(),
                    v => v.to_string(),
                },
            )
            .collect()
    }

    /// The record as one CSV line in [`COLUMNS`] order (with its newline).
    pub fn csv_line(&self) -> String {
        self.csv_line_in(COLUMNS)
    }

    /// The record as one CSV line in the order of `columns` (with its newline).
    pub fn csv_line_in(&self, columns: &[&str]) -> String {
        let mut line = self.csv_fields_in(columns).join(",");
        line.push('\n');
        line
    }
}

// Formatting of numbers for every writer: an undefined value (NaN, ±inf) is an empty CSV cell,
// "–" in Markdown and `null` in JSON (serde_json writes non-finite floats as null), never "NaN".

/// The Markdown text of an undefined value.
pub const UNDEFINED: &str = "–";

/// `x` with `digits` decimals, or "–" when it is undefined.
pub fn fixed(x: f64, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        UNDEFINED.into()
    }
}

/// A duration in seconds, whole from 100 s up and with three significant digits below (`6725`,
/// `12.3`, `0.364`, `0.00121`), so that a fast machine's seconds do not read as 0; 0 as `0`, and
/// "–" when undefined.
pub fn seconds(x: f64) -> String {
    if !x.is_finite() {
        return UNDEFINED.into();
    }
    if x == 0.0 || x.abs() >= 100.0 {
        return format!("{x:.0}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

/// [`seconds`] of a figure that may be missing.
pub fn seconds_opt(x: Option<f64>) -> String {
    seconds(x.unwrap_or(f64::NAN))
}

/// The decimals to print a ratio such as a speedup with: `digits`, or three significant digits
/// where `digits` decimals would print a value other than 0 as 0 (a speedup of 0.0012, 1 ms
/// interrupts holding up 1 ns leaves, is `0.00120`, not `0.00`).
pub fn ratio_decimals(x: f64, digits: usize) -> usize {
    let shown = 0.5 * 10f64.powi(-(digits as i32));
    if x.is_finite() && x != 0.0 && x.abs() < shown {
        (2 - x.abs().log10().floor() as i32).max(0) as usize
    } else {
        digits
    }
}

/// A ratio (a speedup, an efficiency) with `digits` decimals, or with three significant digits
/// where those would print it as 0 ([`ratio_decimals`]); "–" when it is undefined.
pub fn ratio_fixed(x: f64, digits: usize) -> String {
    fixed(x, ratio_decimals(x, digits))
}

/// "mean ± se" of a ratio: as [`mean_se`], both with the decimals [`ratio_decimals`] gives the
/// mean (`0.00120 ± 0.00003`).
pub fn ratio_mean_se(mean: f64, se: f64, digits: usize) -> String {
    mean_se(mean, se, ratio_decimals(mean, digits))
}

/// A figure that may be missing with `digits` decimals, or "–" when it is missing or undefined.
pub fn fixed_opt(x: Option<f64>, digits: usize) -> String {
    fixed(x.unwrap_or(f64::NAN), digits)
}

/// "mean ± se" with `digits` decimals each; either part is "–" when undefined (the standard
/// error of a single run, for example).
pub fn mean_se(mean: f64, se: f64, digits: usize) -> String {
    format!("{} ± {}", fixed(mean, digits), fixed(se, digits))
}

/// A float as a CSV field (shortest round-trip text), empty when undefined.
pub fn csv_float(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

fn csv_escape(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The header line of results.csv with [`COLUMNS`] (with its newline).
pub fn csv_header() -> String {
    csv_header_in(COLUMNS)
}

/// The header line of results.csv with `columns` ([`columns`]) (with its newline).
pub fn csv_header_in(columns: &[&str]) -> String {
    let mut out = columns.join(",");
    out.push('\n');
    out
}

/// The fields of one CSV line (quoted fields as [`RunRecord::csv_fields`] writes them).
pub(crate) fn csv_split(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    out.push(field);
    out
}

/// One results.csv of the combinations of a `vary` section: each part is a combination's
/// assignments and its results.csv text. The columns are every part's (in first-seen order),
/// then one per varied field holding its value ([`crate::overrides::Assignment::cell`]: as
/// written, a machine's name without its quotes); a column a part lacks is empty.
pub fn merge_varied_csv(parts: &[(Vec<crate::overrides::Assignment>, String)]) -> String {
    let mut columns: Vec<String> = Vec::new();
    let mut rows: Vec<Vec<(String, String)>> = Vec::new();
    for (assignments, text) in parts {
        let mut lines = text.lines();
        let header = lines.next().map(csv_split).unwrap_or_default();
        for h in &header {
            if !columns.contains(h) {
                columns.push(h.clone());
            }
        }
        for line in lines.filter(|l| !l.is_empty()) {
            let mut row: Vec<(String, String)> =
                header.iter().cloned().zip(csv_split(line)).collect();
            row.extend(
                assignments
                    .iter()
                    .map(|a| (a.dotted(), a.cell().to_string())),
            );
            rows.push(row);
        }
    }
    for (assignments, _) in parts {
        for a in assignments {
            if !columns.contains(&a.dotted()) {
                columns.push(a.dotted());
            }
        }
    }
    let mut out = columns
        .iter()
        .map(|c| csv_escape(c))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for row in rows {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| {
                row.iter()
                    .find(|(h, _)| h == c)
                    .map_or(String::new(), |(_, v)| csv_escape(v))
            })
            .collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// The varied fields of a `vary` run that changed nothing: each part is a combination's
/// assignments and its results.csv text, as for [`merge_varied_csv`]. A field is returned
/// (its dotted path and its values as written) when, among the combinations that agree on
/// every other varied field, all its values gave byte-identical results.csv: no run of the
/// scenario depends on it (a scheme that sends no messages uses no lines; `sweep.algorithm`
/// replaces `search.algorithm`). A field with one value is never returned.
pub fn unfelt_varied_fields(
    parts: &[(Vec<crate::overrides::Assignment>, String)],
) -> Vec<(String, Vec<String>)> {
    let Some((first, _)) = parts.first() else {
        return Vec::new();
    };
    let mut unfelt = Vec::new();
    for (i, field) in first.iter().enumerate() {
        let mut values: Vec<String> = Vec::new();
        // The combinations grouped by the other fields' values: each group's results.
        let mut groups: Vec<(Vec<String>, Vec<&str>)> = Vec::new();
        for (assignments, csv) in parts {
            let Some(a) = assignments.get(i) else {
                return Vec::new();
            };
            let value = a.cell().to_string();
            if !values.contains(&value) {
                values.push(value);
            }
            let others: Vec<String> = assignments
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, a)| a.to_string())
                .collect();
            match groups.iter_mut().find(|(k, _)| *k == others) {
                Some((_, csvs)) => csvs.push(csv),
                None => groups.push((others, vec![csv])),
            }
        }
        let alike = groups
            .iter()
            .all(|(_, csvs)| csvs.iter().all(|c| *c == csvs[0]));
        if values.len() > 1 && alike {
            unfelt.push((field.dotted(), values));
        }
    }
    unfelt
}

/// CSV text of records, header first.
pub fn to_csv(records: &[RunRecord]) -> String {
    let mut out = csv_header();
    for r in records {
        out.push_str(&r.csv_line());
    }
    out
}

/// Means over seeds for one processor count, computed as the paper's tables do: overheads from
/// the mean leaf counts and mean times, speedup as the mean of per-tree ratios. Every `_se` is
/// the standard error over seeds of the value beside it: of the mean speedup, and of each
/// overhead's ratio of means (by the delta method, [`ratio_se`]); it is undefined (NaN,
/// written as null / "–" / an empty cell) with one seed.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(test, derive(Default))]
pub struct Summary {
    /// The algorithm's tag (`pmws`, `treesplit`, …).
    pub algorithm: String,
    /// Moves at every node, w.
    pub width: u32,
    /// Search depth d in plies.
    pub depth: u32,
    /// The ordering's tag.
    pub ordering: String,
    /// Evaluation noise per ply short of the full depth.
    pub horizon_noise: u32,
    /// The tree source, as results.csv's `tree` column (`synthetic`, `campbell`, `chess`):
    /// for the reports' words, not written to results.json (its runs have it).
    #[serde(skip)]
    pub tree: String,
    /// The paper's fanout f (processors per level, the parent included).
    pub fanout: u32,
    /// The processor tree: `f = 4` for the paper's trees, `(depth,width)` for Campbell's.
    pub ptree: String,
    /// Levels of processors below the root processor (0 for a uniprocessor).
    pub ptree_depth: u32,
    /// The most children any processor has.
    pub ptree_width: u32,
    /// Processors in the machine.
    pub processors: u32,
    /// Processors without children (those that search).
    pub terminals: u32,
    /// Runs (seeds) the means are over.
    pub runs: usize,
    /// Mean of the per-run speedups elapsed(1) / elapsed(f).
    pub speedup: f64,
    /// Standard error of the per-run speedups.
    pub speedup_se: f64,
    /// mean leaves(f) / mean leaves(1) − 1 (eq. 9).
    pub search_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub search_overhead_se: f64,
    /// processors · mean elapsed(f) / mean elapsed(1) − 1 (eq. 11).
    pub time_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub time_overhead_se: f64,
    /// `time_overhead − search_overhead`.
    pub comm_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub comm_overhead_se: f64,
    /// mean Σ idle_sync time / mean uniprocessor leaf time (section VII).
    pub sync_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub sync_overhead_se: f64,
    /// mean Σ search time / mean elapsed(1) − 1: the search part of the time overhead (with
    /// `message_overhead` and `idle_overhead` it adds up to `time_overhead`).
    pub search_time_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub search_time_overhead_se: f64,
    /// mean Σ (message + interrupt + wait_reply + memory) time / mean elapsed(1).
    pub message_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub message_overhead_se: f64,
    /// mean Σ idle_sync time / mean elapsed(1).
    pub idle_overhead: f64,
    /// Standard error of the ratio of means beside it.
    pub idle_overhead_se: f64,
    /// Mean leaves evaluated per run, all processors together.
    pub leaf_nodes: f64,
    /// Standard deviation over seeds of the leaf nodes (the spread Campbell's thesis and the
    /// Reinefeld paper discuss, not the standard error); undefined with one seed.
    pub leaf_nodes_sd: f64,
    /// Mean peak size of the OPEN list (SSS*-family searches); undefined for the others.
    pub open_peak: f64,
    /// Mean simulated elapsed time (makespan), in seconds.
    pub elapsed_s: f64,
    /// The paper's estimate of the synchronization overhead for this configuration: eq. (14)
    /// f/2(w+1) for odd depths, 3f/4(w−1) for even depths.
    pub sync_estimate: f64,
    /// Mean messages sent per run (every Table I category) over the mean nodes searched
    /// (leaves and interior nodes, all processors).
    pub messages_per_node: f64,
}

/// Mean, standard error of the mean and count; the standard error is NaN (undefined) for
/// fewer than two values.
pub(crate) fn mean(v: impl Iterator<Item = f64>) -> (f64, f64, usize) {
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
        f64::NAN
    };
    (m, se, n)
}

/// What a summary needs of one run: a few figures, so that a summary is computed from a
/// bounded buffer per processor count while the records stream to disk.
#[derive(Clone, Copy, Debug)]
pub struct RunFigures {
    speedup: f64,
    elapsed_ns: f64,
    leaf_nodes: f64,
    idle_ns: f64,
    comm_ns: f64,
    search_ns: f64,
    /// NaN when the search keeps no OPEN list.
    open_peak: f64,
    /// Messages sent, every category.
    messages: f64,
    /// Leaves and interior nodes searched.
    nodes: f64,
}

impl RunFigures {
    /// The figures of one run's record.
    pub fn of(r: &RunRecord) -> Self {
        // u128: a sum of four u64 times cannot overflow it. Communication as the record's
        // message_overhead counts it: messages, and a shared-memory machine's accesses.
        let comm = r.t_message_ns as u128
            + r.t_interrupt_ns as u128
            + r.t_wait_reply_ns as u128
            + r.figure("t_memory_ns").unwrap_or(0) as u128;
        RunFigures {
            speedup: r.speedup,
            elapsed_ns: r.elapsed_ns as f64,
            leaf_nodes: r.leaf_nodes as f64,
            idle_ns: r.t_idle_sync_ns as f64,
            comm_ns: comm as f64,
            search_ns: r.t_search_ns as f64,
            open_peak: r.figure("open_peak").map_or(f64::NAN, |p| p as f64),
            messages: (r.msgs_at_node
                + r.msgs_inter_node
                + r.msgs_inter_level
                + r.msgs_inter_iteration
                + r.msgs_interactive) as f64,
            nodes: (r.leaf_nodes + r.interior_nodes) as f64,
        }
    }
}

/// The identity of a summary's configuration.
#[derive(Clone, Debug)]
pub struct ConfigLabel {
    /// The algorithm's tag.
    pub algorithm: String,
    /// Moves at every node, w.
    pub width: u32,
    /// Search depth d in plies.
    pub depth: u32,
    /// The ordering's tag.
    pub ordering: String,
    /// Evaluation noise per ply short of the full depth.
    pub horizon_noise: u32,
    /// The tree source (`synthetic`, `campbell`, `chess`).
    pub tree: String,
}

impl ConfigLabel {
    /// The configuration of a record.
    pub fn of(r: &RunRecord) -> Self {
        ConfigLabel {
            algorithm: r.algorithm.clone(),
            width: r.width,
            depth: r.depth,
            ordering: r.ordering.clone(),
            horizon_noise: r.horizon_noise,
            tree: r.tree.clone(),
        }
    }
}

/// The uniprocessor runs of one configuration, one per seed in seed order, and their means:
/// elapsed time T(1), leaves and leaf time (each seed's for the standard errors of ratios of
/// means).
#[derive(Clone, Debug)]
pub struct Baselines {
    t1: f64,
    l1: f64,
    e1: f64,
    elapsed: Vec<f64>,
    leaves: Vec<f64>,
    leaf_time: Vec<f64>,
}

impl Baselines {
    /// The uniprocessor runs `base` (one per seed).
    pub fn of<'a>(base: impl Iterator<Item = &'a Baseline> + Clone) -> Self {
        let each =
            |g: fn(&Baseline) -> u64| -> Vec<f64> { base.clone().map(|b| g(b) as f64).collect() };
        let (elapsed, leaves, leaf_time) = (
            each(|b| b.elapsed_ns),
            each(|b| b.leaf_nodes),
            each(|b| b.leaf_ns),
        );
        Baselines {
            t1: mean(elapsed.iter().copied()).0,
            l1: mean(leaves.iter().copied()).0,
            e1: mean(leaf_time.iter().copied()).0,
            elapsed,
            leaves,
            leaf_time,
        }
    }
}

/// The standard error over seeds of `Σ c · mean(x) / mean(y)` over `terms` (each `(c, x, y)`,
/// `x[i]` and `y[i]` of seed i): the delta method, which takes each ratio of means as its
/// linear part about the means, so that the error is that of the mean over seeds of
/// `Σ c · (x − R·y) / mean(y)` (R the ratio). It describes the ratio of means a summary shows,
/// which the standard error of the per-run ratios does not: one tree with a large per-run
/// overhead moves the mean of the ratios far more than the ratio of the means. Undefined (NaN)
/// with fewer than two seeds, or when a term's lists differ in length.
fn ratio_se(terms: &[(f64, &[f64], &[f64])]) -> f64 {
    let n = terms.first().map_or(0, |t| t.1.len());
    if n < 2 || terms.iter().any(|t| t.1.len() != n || t.2.len() != n) {
        return f64::NAN;
    }
    let parts: Vec<(f64, f64, f64)> = terms
        .iter()
        .map(|(c, x, y)| {
            let (mx, my) = (mean(x.iter().copied()).0, mean(y.iter().copied()).0);
            (*c, mx / my, my)
        })
        .collect();
    let residual = |i: usize| -> f64 {
        terms
            .iter()
            .zip(&parts)
            .map(|((_, x, y), &(c, r, my))| c * (x[i] - r * y[i]) / my)
            .sum()
    };
    mean((0..n).map(residual)).1
}

/// The summary of one processor count `f` from the figures of its runs (in seed order).
pub fn summarize_fanout(
    label: &ConfigLabel,
    ptree: &PTreeFigures,
    ptree_label: &str,
    runs: &[RunFigures],
    base: &Baselines,
    sync_estimate: f64,
) -> Summary {
    let m = |g: fn(&RunFigures) -> f64| mean(runs.iter().map(g));
    let (speedup, speedup_se, n) = m(|r| r.speedup);
    let (tf, _, _) = m(|r| r.elapsed_ns);
    let (lf, _, _) = m(|r| r.leaf_nodes);
    let (idle, _, _) = m(|r| r.idle_ns);
    let (comm, _, _) = m(|r| r.comm_ns);
    let (search_ns, _, _) = m(|r| r.search_ns);
    let se = |g: fn(&RunFigures) -> f64| m(g).1;
    // Per seed: the run's figures, and its uniprocessor run's.
    let x = |g: fn(&RunFigures) -> f64| -> Vec<f64> { runs.iter().map(g).collect() };
    let (elapsed, leaves, idle_each, comm_each, search_each) = (
        x(|r| r.elapsed_ns),
        x(|r| r.leaf_nodes),
        x(|r| r.idle_ns),
        x(|r| r.comm_ns),
        x(|r| r.search_ns),
    );
    let (t1, l1, e1) = (&base.elapsed, &base.leaves, &base.leaf_time);
    let p = ptree.processors as f64;
    let search_overhead = lf / base.l1 - 1.0;
    let time_overhead = ptree.processors as f64 * tf / base.t1 - 1.0;
    Summary {
        algorithm: label.algorithm.clone(),
        width: label.width,
        depth: label.depth,
        ordering: label.ordering.clone(),
        horizon_noise: label.horizon_noise,
        tree: label.tree.clone(),
        fanout: ptree.fanout,
        ptree: ptree_label.to_string(),
        ptree_depth: ptree.depth,
        ptree_width: ptree.width,
        processors: ptree.processors,
        terminals: ptree.terminals,
        runs: n,
        speedup,
        speedup_se,
        search_overhead,
        search_overhead_se: ratio_se(&[(1.0, &leaves, l1)]),
        time_overhead,
        time_overhead_se: ratio_se(&[(p, &elapsed, t1)]),
        comm_overhead: time_overhead - search_overhead,
        comm_overhead_se: ratio_se(&[(p, &elapsed, t1), (-1.0, &leaves, l1)]),
        sync_overhead: idle / base.e1,
        sync_overhead_se: ratio_se(&[(1.0, &idle_each, e1)]),
        search_time_overhead: search_ns / base.t1 - 1.0,
        search_time_overhead_se: ratio_se(&[(1.0, &search_each, t1)]),
        message_overhead: comm / base.t1,
        message_overhead_se: ratio_se(&[(1.0, &comm_each, t1)]),
        idle_overhead: idle / base.t1,
        idle_overhead_se: ratio_se(&[(1.0, &idle_each, t1)]),
        leaf_nodes: lf,
        leaf_nodes_sd: se(|r| r.leaf_nodes) * (n as f64).sqrt(),
        open_peak: m(|r| r.open_peak).0,
        elapsed_s: tf * 1e-9,
        sync_estimate,
        messages_per_node: m(|r| r.messages).0 / m(|r| r.nodes).0,
    }
}

/// Summaries per fanout (in the order of `fanouts`); `base` are the f = 1 records per seed.
pub fn summarize(
    records: &[RunRecord],
    base: &[RunRecord],
    fanouts: &[u32],
    sync_estimate: impl Fn(u32) -> f64,
) -> Vec<Summary> {
    let baselines: Vec<Baseline> = base.iter().map(RunRecord::as_baseline).collect();
    let uniprocessor = Baselines::of(baselines.iter());
    fanouts
        .iter()
        .filter_map(|&f| {
            let rs: Vec<&RunRecord> = records.iter().filter(|r| r.fanout == f).collect();
            let first = rs.first().copied().or(base.first())?;
            let label = ConfigLabel::of(first);
            let ptree = PTreeFigures {
                fanout: f,
                ..PTreeFigures::of_record(first)
            };
            let figures: Vec<RunFigures> = rs.iter().map(|r| RunFigures::of(r)).collect();
            Some(summarize_fanout(
                &label,
                &ptree,
                &f.to_string(),
                &figures,
                &uniprocessor,
                sync_estimate(f),
            ))
        })
        .collect()
}

/// How a report writes simulated time: in seconds, or in Campbell's time unit (one leaf
/// evaluation) when a leaf costs 1 ns, as with his costs, where seconds would read as
/// microseconds of a machine that never existed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// `12.5 ms`, `1588.9 s` ([`human_seconds`]).
    Seconds,
    /// `5726 units`: nanoseconds, each a leaf evaluation.
    LeafEvaluations,
}

impl TimeUnit {
    /// Units when simulated time counts leaf evaluations and nothing else: a leaf costs exactly
    /// 1 ns, every other cost is zero, every line is ideal, and there is no pool network, shared
    /// memory or timing noise (Campbell's machine). Seconds otherwise.
    pub fn of(plan: &crate::load::Plan) -> TimeUnit {
        let c = &plan.costs;
        let free = [c.k, c.q, c.probe, c.s, c.interrupt]
            .iter()
            .all(|t| t.as_nanos() == 0);
        let ideal = plan
            .links
            .levels
            .iter()
            .all(|l| matches!(l.spec.kind, sim_hw::LinkKind::Ideal));
        let alone = plan.network.is_none() && plan.memory.is_none() && plan.jitter.is_none();
        if c.e.as_nanos() == 1 && free && ideal && alone {
            TimeUnit::LeafEvaluations
        } else {
            TimeUnit::Seconds
        }
    }

    /// A simulated duration of `s` seconds in this unit; "–" when undefined.
    pub fn duration(self, s: f64) -> String {
        match self {
            TimeUnit::Seconds => human_seconds(s),
            TimeUnit::LeafEvaluations if !s.is_finite() => UNDEFINED.into(),
            TimeUnit::LeafEvaluations => format!("{} units", fixed(s * 1e9, 0)),
        }
    }
}

/// The summary as a Markdown table (percentages, simulated time in `unit`).
pub fn summary_table(summaries: &[Summary], unit: TimeUnit) -> String {
    // The paper's trees are named by f; Campbell's by (depth,width).
    let head = if summaries.iter().all(|r| r.ptree.parse::<u32>().is_ok()) {
        "f"
    } else {
        "processor tree"
    };
    let mut s = format!(
        "| {head} | runs | leaf nodes | simulated time | speedup | time % | = search time % | + messages % | + idle % | search % (leaves) | time − search % (the paper's \"communication\") | sync % (measured) | sync % (estimate) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let pct = |m: f64, se: f64| mean_se(100.0 * m, 100.0 * se, 1);
    // The one-processor runs the rest are taken against, when the sweep does not list them
    // (Campbell's processor trees, a pool of 1,024): their mean leaves and time, from a row's
    // search and time overheads (eqs. 9 and 11).
    if let Some(r) = summaries
        .first()
        .filter(|_| summaries.iter().all(|r| r.processors > 1))
    {
        let (leaves, time) = (r.uniprocessor_leaves(), r.uniprocessor_elapsed_s());
        if leaves.is_finite() && time.is_finite() {
            s.push_str(&format!(
                "| {} | {} | {} | {} | 1.00 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | {UNDEFINED} |\n",
                if head == "f" { "1" } else { "one processor" },
                r.runs,
                fixed(leaves, 0),
                unit.duration(time),
            ));
        }
    }
    for r in summaries {
        // With one processor nothing waits: the estimate (linear in f) does not apply.
        let estimate = if r.processors >= 2 {
            fixed(100.0 * r.sync_estimate, 1)
        } else {
            UNDEFINED.into()
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.ptree,
            r.runs,
            fixed(r.leaf_nodes, 0),
            unit.duration(r.elapsed_s),
            ratio_mean_se(r.speedup, r.speedup_se, 2),
            pct(r.time_overhead, r.time_overhead_se),
            pct(r.search_time_overhead, r.search_time_overhead_se),
            pct(r.message_overhead, r.message_overhead_se),
            pct(r.idle_overhead, r.idle_overhead_se),
            pct(r.search_overhead, r.search_overhead_se),
            pct(r.comm_overhead, r.comm_overhead_se),
            pct(r.sync_overhead, r.sync_overhead_se),
            estimate,
        ));
    }
    s
}

/// A simulated duration for people: `1588.9 s`, `12.5 ms`, `3.2 µs`, `840 ns`; "–" when
/// undefined.
pub fn human_seconds(s: f64) -> String {
    if !s.is_finite() {
        UNDEFINED.into()
    } else if s >= 1.0 || s == 0.0 {
        format!("{s:.1} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.1} µs", s * 1e6)
    } else {
        format!("{:.0} ns", s * 1e9)
    }
}

impl Summary {
    /// The mean simulated time of the uniprocessor runs this summary's speedup and overheads
    /// are taken against, in seconds, from its time overhead (eq. 11: processors · t_f / t_1
    /// − 1); NaN when that is undefined.
    pub fn uniprocessor_elapsed_s(&self) -> f64 {
        self.processors as f64 * self.elapsed_s / (1.0 + self.time_overhead)
    }

    /// The mean leaves of those uniprocessor runs, from the search overhead (eq. 9: leaves(f) /
    /// leaves(1) − 1); NaN when that is undefined.
    pub fn uniprocessor_leaves(&self) -> f64 {
        self.leaf_nodes / (1.0 + self.search_overhead)
    }
}

/// The summaries of each configuration, in plan order.
pub fn by_config(summaries: &[Summary]) -> Vec<&[Summary]> {
    // Consecutive summaries of one (algorithm, configuration); an algorithm may skip processor
    // trees it does not apply to, so groups are not all the same length.
    let key = |s: &Summary| {
        (
            s.algorithm.clone(),
            s.width,
            s.depth,
            s.ordering.clone(),
            s.horizon_noise,
        )
    };
    summaries.chunk_by(|a, b| key(a) == key(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column results.csv can have is explained in scenarios/README.md's column table:
    /// the fixed ones, every scheme's own and the shared memory's (ybwc's were missing).
    #[test]
    fn every_column_is_documented_in_the_scenarios_readme() {
        // The column table's rows only: names are common words elsewhere (`depth`, `seed`).
        let table: String = include_str!("../README.md")
            .lines()
            .filter(|l| l.trim_start().starts_with("| `"))
            .filter_map(|l| l.trim_start().split(" | ").next())
            .collect::<Vec<_>>()
            .join(" ");
        let mut names: Vec<&str> = COLUMNS.to_vec();
        for a in crate::catalogue::Algorithm::ALL {
            names.extend(a.entry().columns);
        }
        names.extend(crate::catalogue::MEMORY_COLUMNS);
        names.push(crate::runner::ANSWER_COLUMN);
        let missing: Vec<&str> = names
            .into_iter()
            .filter(|n| !table.contains(&format!("`{n}`")))
            .collect();
        assert!(
            missing.is_empty(),
            "not in scenarios/README.md: {missing:?}"
        );
    }

    #[test]
    fn seconds_keep_three_significant_digits_below_100() {
        let shown: Vec<String> = [6725.4, 100.0, 99.96, 12.34, 4.5, 0.3641, 0.001214, 0.0]
            .into_iter()
            .map(seconds)
            .collect();
        assert_eq!(
            shown,
            ["6725", "100", "100.0", "12.3", "4.50", "0.364", "0.00121", "0"]
        );
        assert_eq!(seconds(f64::NAN), UNDEFINED);
        assert_eq!(seconds_opt(None), UNDEFINED);
    }

    fn record() -> RunRecord {
        let label = RunLabel {
            scenario: "s",
            algorithm: "pmws",
            tree: "synthetic",
            ordering: "random",
            width: 2,
            depth: 2,
            length: 1,
            horizon_noise: 0,
        };
        let base = Baseline {
            elapsed_ns: 10,
            leaf_nodes: 4,
            leaf_ns: 8,
        };
        let ptree = PTreeFigures::of(&sim_hw::ProcessorTree::new(2, 1));
        RunRecord::new(&label, &ptree, 1, 0, &RunTotals::default(), &base)
    }

    /// A scheme's figure reaches its column of results.csv and results.json by its name alone:
    /// the fixed ones at their place, a new one after the last column; a figure the scheme does
    /// not report is an empty cell and `null`.
    #[test]
    fn scheme_figures_reach_their_columns_by_name() {
        let mut r = record();
        r.figures = RecordFigures(
            algorithms::Figures::default()
                .with("tt_hits", 7)
                .with("rollbacks", 3),
        );
        let columns = columns(&["rollbacks"]);
        let fields = r.csv_fields_in(&columns);
        let at = |c: &str| columns.iter().position(|x| *x == c).unwrap();
        assert_eq!(fields.len(), COLUMNS.len() + 1);
        assert_eq!(fields[at("tt_hits")], "7");
        assert_eq!(fields[at("rollbacks")], "3");
        assert_eq!(fields[at("open_peak")], "");
        assert_eq!(fields[at("tt_probes")], "");
        assert_eq!(r.figure("rollbacks"), Some(3));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["tt_hits"], 7);
        assert_eq!(json["rollbacks"], 3);
        assert!(json["open_peak"].is_null() && json.get("open_peak").is_some());
        // The fixed columns alone: the new figure has no cell.
        assert_eq!(r.csv_fields().len(), COLUMNS.len());
        assert_eq!(
            csv_header_in(&columns).trim_end().split(',').count(),
            columns.len()
        );
    }

    /// The report's measured split adds up: time overhead = search time + messages + idle, each
    /// over the uniprocessor time (every processor's categories add up to the makespan).
    #[test]
    fn the_measured_split_adds_up_to_the_time_overhead() {
        let mut runs = Vec::new();
        for (search, message, memory, idle) in [(15u64, 2u64, 0u64, 3u64), (13, 1, 1, 5)] {
            let mut r = record();
            // Two processors, makespan 10: 20 processor-time units in all; the second run's
            // machine has shared memory (its accesses count with the messages).
            r.elapsed_ns = 10;
            r.t_search_ns = search;
            r.t_message_ns = message;
            r.t_idle_sync_ns = idle;
            if memory > 0 {
                r.figures = RecordFigures(r.figures.0.clone().with("t_memory_ns", memory));
            }
            r.search_time_overhead = search as f64 / 10.0 - 1.0;
            runs.push(RunFigures::of(&r));
        }
        let label = ConfigLabel::of(&record());
        let ptree = PTreeFigures::of(&sim_hw::ProcessorTree::new(2, 1));
        let base = Baselines::of(
            [Baseline {
                elapsed_ns: 16,
                leaf_nodes: 4,
                leaf_ns: 8,
            }]
            .iter(),
        );
        let s = summarize_fanout(&label, &ptree, "2", &runs, &base, 0.0);
        let sum = s.search_time_overhead + s.message_overhead + s.idle_overhead;
        assert!(
            (sum - s.time_overhead).abs() < 1e-12,
            "{sum} vs {}",
            s.time_overhead
        );
        assert!((s.time_overhead - (2.0 * 10.0 / 16.0 - 1.0)).abs() < 1e-12);
        assert_eq!(human_seconds(1588.9), "1588.9 s");
        assert_eq!(human_seconds(0.0125), "12.5 ms");
        assert_eq!(human_seconds(8.4e-7), "840 ns");
        assert_eq!(TimeUnit::LeafEvaluations.duration(5.7264e-6), "5726 units");
        assert_eq!(TimeUnit::LeafEvaluations.duration(f64::NAN), UNDEFINED);
        assert_eq!(TimeUnit::Seconds.duration(5.7264e-6), "5.7 µs");
    }

    /// The delta method's standard error of a ratio of means, worked by hand.
    #[test]
    fn a_ratio_of_means_has_its_own_standard_error() {
        // x = 2, 4, 9 over y = 1, 2, 2: R = 5 / (5/3) = 3; the deviations (x − 3y) / (5/3) are
        // −0.6, −1.2, 1.8, whose mean's standard error is √(5.04 / 6).
        let se = ratio_se(&[(1.0, &[2.0, 4.0, 9.0], &[1.0, 2.0, 2.0])]);
        assert!((se - (5.04f64 / 6.0).sqrt()).abs() < 1e-12, "{se}");
        // With y the same for every seed, it is the standard error of the per-run ratios.
        let per_run = mean([2.0, 4.0, 9.0].iter().map(|x| 2.0 * x / 4.0)).1;
        let se = ratio_se(&[(2.0, &[2.0, 4.0, 9.0], &[4.0, 4.0, 4.0])]);
        assert!((se - per_run).abs() < 1e-12, "{se} {per_run}");
        // A difference of two ratios: the deviations add.
        let se = ratio_se(&[
            (1.0, &[2.0, 4.0, 9.0], &[1.0, 2.0, 2.0]),
            (-1.0, &[2.0, 4.0, 9.0], &[1.0, 2.0, 2.0]),
        ]);
        assert!(se.abs() < 1e-12, "{se}");
        // Undefined with one seed, or lists of different lengths.
        assert!(ratio_se(&[(1.0, &[2.0], &[1.0])]).is_nan());
        assert!(ratio_se(&[(1.0, &[2.0, 3.0], &[1.0])]).is_nan());
    }

    #[test]
    fn time_sums_of_a_summary_do_not_overflow() {
        // Overflow: each total fits u64, their sum does not.
        let mut r = record();
        r.t_message_ns = u64::MAX;
        r.t_interrupt_ns = u64::MAX;
        r.t_wait_reply_ns = u64::MAX;
        r.t_idle_sync_ns = u64::MAX;
        let rs = [r.clone(), r];
        let f: Vec<RunFigures> = rs.iter().map(RunFigures::of).collect();
        assert_eq!(f[0].comm_ns, 3.0 * u64::MAX as f64);
        let bases = [Baseline {
            elapsed_ns: 10,
            leaf_nodes: 4,
            leaf_ns: 8,
        }];
        let s = summarize_fanout(
            &ConfigLabel::of(&rs[0]),
            &PTreeFigures::of_record(&rs[0]),
            "2",
            &f,
            &Baselines::of(bases.iter()),
            0.5,
        );
        assert_eq!(s.message_overhead, 3.0 * u64::MAX as f64 / 10.0);
    }

    #[test]
    fn undefined_values_are_empty_cells_and_dashes_never_nan() {
        assert_eq!(fixed(f64::NAN, 1), "–");
        assert_eq!(fixed(f64::INFINITY, 2), "–");
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(mean_se(1.5, f64::NAN, 2), "1.50 ± –");
        assert_eq!(csv_float(f64::NAN), "");
        assert_eq!(csv_float(0.5), "0.5");
        // The standard error of one value is undefined, not 0.
        let (m, se, n) = mean([2.0].into_iter());
        assert_eq!((m, n), (2.0, 1));
        assert!(se.is_nan());
        // Every column of a record with undefined values: empty, never "NaN".
        let mut r = record();
        r.speedup = f64::NAN;
        r.model_elapsed_ns = f64::INFINITY;
        let line = r.csv_line();
        assert!(!line.contains("NaN") && !line.contains("inf"), "{line}");
        let fields = r.csv_fields();
        let at = |c: &str| COLUMNS.iter().position(|x| *x == c).unwrap();
        assert_eq!(fields[at("speedup")], "");
        assert_eq!(fields[at("model_elapsed_ns")], "");
        assert_eq!(fields[at("model_sync_overhead_odd")], "");
    }

    /// A speedup that two decimals would print as 0 gets three significant digits; others
    /// keep theirs.
    #[test]
    fn tiny_ratios_keep_three_significant_digits() {
        assert_eq!(ratio_mean_se(0.001234, 0.0000567, 2), "0.00123 ± 0.00006");
        assert_eq!(ratio_mean_se(0.0049, 0.001, 2), "0.00490 ± 0.00100");
        assert_eq!(ratio_mean_se(-0.0002, 0.0, 2), "-0.000200 ± 0.000000");
        assert_eq!(ratio_fixed(0.00001234, 2), "0.0000123");
        for (x, shown) in [
            (0.005, "0.01"),
            (1.5, "1.50"),
            (0.0, "0.00"),
            (12.345, "12.35"),
        ] {
            assert_eq!(ratio_fixed(x, 2), shown);
        }
        assert_eq!(ratio_mean_se(f64::NAN, 0.1, 2), "– ± 0.10");
    }

    /// A varied field is unfelt when its values gave the same results with every value of the
    /// other varied fields; a field whose values differ anywhere is not.
    #[test]
    fn unfelt_varied_fields_are_those_whose_values_changed_nothing() {
        let part = |a: &str, b: &str, csv: &str| {
            (
                vec![
                    crate::overrides::Assignment::parse(&format!("hardware.link.rate={a}"))
                        .unwrap(),
                    crate::overrides::Assignment::parse(&format!("machine={b}")).unwrap(),
                ],
                csv.to_string(),
            )
        };
        // The rate changes nothing on either machine; the machine changes the results.
        let parts = vec![
            part("960", "x", "h\n1\n"),
            part("960", "y", "h\n2\n"),
            part("480", "x", "h\n1\n"),
            part("480", "y", "h\n2\n"),
        ];
        assert_eq!(
            unfelt_varied_fields(&parts),
            vec![(
                "hardware.link.rate".to_string(),
                vec!["960".into(), "480".into()]
            )]
        );
        // The rate matters on one machine: it is felt.
        let mut felt = parts.clone();
        felt[3].1 = "h\n3\n".into();
        assert_eq!(unfelt_varied_fields(&felt), vec![]);
        // Both unfelt when every combination gave the same results.
        let same: Vec<_> = parts
            .iter()
            .map(|(a, _)| (a.clone(), "h\n1\n".to_string()))
            .collect();
        assert_eq!(unfelt_varied_fields(&same).len(), 2);
        // One value only: nothing to compare.
        assert_eq!(unfelt_varied_fields(&parts[..1]), vec![]);
    }

    /// The overheads table starts with the one-processor runs when the sweep lists none: their
    /// mean leaves and time from the first row's overheads (eqs. 9 and 11), never twice.
    #[test]
    fn the_overheads_table_shows_the_uniprocessor_runs_it_is_taken_against() {
        let row = |ptree: &str, processors: u32| Summary {
            ptree: ptree.into(),
            processors,
            runs: 20,
            leaf_nodes: 1500.0,
            search_overhead: 0.5,
            elapsed_s: 4000e-9,
            time_overhead: 0.2,
            ..Summary::default()
        };
        let units = TimeUnit::LeafEvaluations;
        // Campbell's (1,2): 3 processors, 3 · 4000 / 1.2 = 10000 units, 1500 / 1.5 = 1000 leaves.
        let table = summary_table(&[row("(1,2)", 3)], units);
        let first = table.lines().nth(2).unwrap();
        assert!(
            first.starts_with("| one processor | 20 | 1000 | 10000 units | 1.00 | 0.0 |"),
            "{table}"
        );
        // A pool of f processors: the row is f = 1.
        let table = summary_table(&[row("8", 8)], units);
        assert!(
            table
                .lines()
                .nth(2)
                .unwrap()
                .starts_with("| 1 | 20 | 1000 |"),
            "{table}"
        );
        // Listed by the sweep: not added again.
        let table = summary_table(&[row("1", 1), row("2", 2)], units);
        assert_eq!(
            table.lines().filter(|l| l.starts_with("| 1 |")).count(),
            1,
            "{table}"
        );
    }
}
