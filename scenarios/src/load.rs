//! Reading a scenario file into a validated [`Plan`], with errors that name the file, the line
//! and the column.

use crate::dispatch::{AlgorithmSpec, LevelLink, LinkPlan, PTree, Sequential};
use crate::schema::{self, Duration, Link, Scenario, Workload};
use algorithms::{CampbellSpec, CampbellTree, Ordering, SyntheticSpec, SyntheticTree};
use sim_core::SimTime;
use sim_hw::{cycles, CostModel, LinkSpec, ReadPolicies, ReadPolicy, SerialInterface};
use std::path::{Path, PathBuf};

pub use crate::input::{
    decode_text, read_bounded, MAX_DEPTH, MAX_FANOUT, MAX_REFERENCE_BYTES, MAX_RUNS,
    MAX_SCENARIO_BYTES, MAX_SEEDS, MAX_WIDTH,
};

/// A scenario that cannot be run, and where it says so.
#[derive(thiserror::Error, Debug)]
pub enum ScenarioError {
    /// The file could not be opened or read.
    #[error("{file}: cannot read the scenario: {source}")]
    Read {
        /// The scenario file's path, as given.
        file: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file itself is unusable (not a regular file, too large); the message names it.
    #[error("{0}")]
    File(String),
    /// Bad syntax or an impossible value, at a place in the file.
    #[error("{file}:{line}:{col}: {message}")]
    At {
        /// The scenario file's path, as given.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        col: usize,
        /// What is wrong, starting with the field's path when it is known.
        message: String,
    },
}

/// Simulated chess leaves (each with its quiescence search) per second of wall time on one
/// core, for `check`'s estimate of chess plans: with the placeholder costs, parabelle-table2.ron
/// simulated 7.4 M leaves in 118 s of CPU time (62 k/s), parabelle-table3.ron 25.9 M in 324 s
/// (80 k/s) and parabelle-table4.ron 25.9 M in 478 s (54 k/s), the table-free reference
/// searches included (2-core development machine, 2026-11-23); rounded down.
pub const CHESS_LEAVES_PER_SECOND_PER_CORE: f64 = 50e3;
/// Simulated leaves per second of wall time on one core, for `check`'s estimate: the
/// `pmws f = 1` and `f = 4` rows of BENCHMARKS.md (30.5 and 27.3 M leaves/s, criterion
/// estimates, 2026-11-21, 2-core development machine), rounded down.
pub const LEAVES_PER_SECOND_PER_CORE: f64 = 27e6;
/// Wall time of one run beyond its leaves (building the tree and the machine, the record and
/// its summary), in seconds on one core, for `check`'s estimate: 200,000 runs of 3-leaf trees
/// took 22.9 s on 2 cores (2026-11-23), 229 µs of core time each, rounded down.
pub const SECONDS_PER_RUN_PER_CORE: f64 = 2e-4;

/// A validated scenario, ready to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The scenario as read.
    pub scenario: Scenario,
    /// The file it came from, as given.
    pub file: PathBuf,
    /// The cost model, every duration converted to nanoseconds.
    pub costs: CostModel,
    /// The root processor's lines (the first level of `links`).
    pub link: LinkSpec,
    /// The tree configurations of the sweep (width × depth × ordering), in that order. For
    /// Campbell's generator only width, depth and ordering are read.
    pub configs: Vec<SyntheticSpec>,
    /// Which generator builds the trees.
    pub generator: Generator,
    /// Iterate to depths 1, 2, …, d (`search.progressive_deepening`).
    pub progressive: bool,
    /// The processor counts of `sweep.fanout`, in file order.
    pub fanouts: Vec<u32>,
    /// The seeds of `sweep.seeds`, in order.
    pub seeds: Vec<u64>,
    /// The run named by `outputs.timeline`: (configuration index, fanout, seed).
    pub timeline: Option<(usize, u32, u64)>,
    /// The published figures named by `outputs.reference`, read when the scenario is loaded
    /// (synthetic and Campbell plans; chess plans read theirs into `paper`).
    pub reference: Option<crate::reference::Reference>,
    /// For chess plans: the positions (`seeds` are their numbers).
    pub chess: Option<crate::positions::ChessSet>,
    /// For chess plans: the paper's table named by `outputs.reference` (Table II, III or IV
    /// layout), read when the scenario is loaded.
    pub paper: Option<crate::reference::PaperTable>,
    /// The algorithms of the sweep (`sweep.algorithm`, or `search.algorithm`).
    pub algorithms: Vec<AlgorithmSpec>,
    /// The processor trees of the sweep: one per `sweep.fanout`, then one per `sweep.ptree`.
    pub ptrees: Vec<PTree>,
    /// The lines, level by level, with their rates per processor count.
    pub links: LinkPlan,
    /// When processors read their lines.
    pub reads: ReadPolicies,
    /// Lookahead batching (`gtsim run --step-by-step` turns it off).
    pub batching: bool,
    /// Things the user should know that do not stop the run (e.g. reference rows for processor
    /// counts the sweep does not run), each naming its file and line.
    pub warnings: Vec<String>,
}

impl Plan {
    /// The scenario's `name` (the `scenario` column).
    pub fn name(&self) -> &str {
        &self.scenario.name.0
    }
    /// Short tag of the tree source for results: `synthetic`, `campbell` or `chess`.
    pub fn tree_label(&self) -> &'static str {
        match self.generator {
            Generator::Synthetic => "synthetic",
            Generator::Campbell => "campbell",
            Generator::Chess => "chess",
        }
    }
    /// The `ordering` column of configuration `config`: the generator's ordering
    /// ([`ordering_label`]), or `mvv_lva` for chess (captures first, most valuable victim,
    /// least valuable attacker).
    pub fn ordering_label(&self, config: usize) -> String {
        match self.generator {
            Generator::Chess => "mvv_lva".into(),
            _ => ordering_label(&self.configs[config].ordering),
        }
    }
    /// What the sweep calls a seed, in words: `seed` or, for chess, `position`.
    pub fn seed_word(&self) -> &'static str {
        if self.chess.is_some() {
            "position"
        } else {
            "seed"
        }
    }
    /// The processor trees of the sweep, other than the uniprocessor, on which algorithm
    /// `algorithm` runs on the trees of configuration `config`, in plan order: those it applies
    /// to at the configuration's depth (see [`AlgorithmSpec::not_applicable`]; the others are
    /// skipped, with a warning at load time). The uniprocessor baseline always runs.
    pub fn sweep_ptrees(&self, config: usize, algorithm: usize) -> Vec<PTree> {
        let depth = self.configs[config].depth;
        let a = self.algorithms[algorithm];
        self.ptrees
            .iter()
            .copied()
            .filter(|p| !p.is_uniprocessor() && a.not_applicable(p, depth).is_none())
            .collect()
    }

    /// Whether algorithm `algorithm` runs at all on the trees of configuration `config`: it
    /// applies to one processor at that depth (a staged SSS* or a hybrid needs a deeper tree
    /// than its stage; Campbell's 2-ply tables leave them out).
    /// An algorithm that runs on none of the sweep's processor trees (and the sweep has no
    /// uniprocessor) does not run at all: its baselines would be compared with nothing.
    pub fn applies(&self, config: usize, algorithm: usize) -> bool {
        self.algorithms[algorithm]
            .not_applicable(&PTree::UNIPROCESSOR, self.configs[config].depth)
            .is_none()
            && (self.ptrees.iter().any(|p| p.is_uniprocessor())
                || !self.sweep_ptrees(config, algorithm).is_empty())
    }

    /// Whether the sweep runs algorithm `algorithm` on configuration `config` on processor tree
    /// `ptree` (the uniprocessor baseline whenever the algorithm applies at all).
    pub fn runs(&self, config: usize, algorithm: usize, ptree: PTree) -> bool {
        self.applies(config, algorithm)
            && (ptree.is_uniprocessor()
                || (self.ptrees.contains(&ptree)
                    && self.algorithms[algorithm]
                        .not_applicable(&ptree, self.configs[config].depth)
                        .is_none()))
    }

    /// The runs of algorithm `algorithm` on configuration `config`, baselines included.
    fn group_runs(&self, config: usize, algorithm: usize) -> usize {
        if self.applies(config, algorithm) {
            (1 + self.sweep_ptrees(config, algorithm).len()) * self.seeds.len()
        } else {
            0
        }
    }

    /// Simulated runs, baselines included (runs skipped as not applicable left out).
    pub fn run_count(&self) -> usize {
        let mut runs = 0;
        for c in 0..self.configs.len() {
            for a in 0..self.algorithms.len() {
                runs += self.group_runs(c, a);
            }
        }
        runs
    }

    /// Leaves of the minimal trees searched by one run of configuration `config` (every
    /// iteration with progressive deepening): a lower bound of the run's work.
    pub fn minimal_leaves(&self, config: usize) -> f64 {
        let spec = &self.configs[config];
        let w = spec.width as f64;
        let minimal = |d: u32| w.powi(d.div_ceil(2) as i32) + w.powi((d / 2) as i32) - 1.0;
        if self.progressive {
            (1..=spec.depth).map(minimal).sum()
        } else {
            minimal(spec.depth)
        }
    }

    /// Estimated wall time of the whole sweep on `cores` cores, in seconds: the minimal trees'
    /// leaves at [`LEAVES_PER_SECOND_PER_CORE`] plus [`SECONDS_PER_RUN_PER_CORE`] per run.
    /// A lower bound in spirit: real searches visit more than the minimal tree.
    pub fn estimated_seconds(&self, cores: usize) -> f64 {
        let core_seconds = self.minimal_leaves_total() / self.leaves_per_second_per_core()
            + self.run_count() as f64 * SECONDS_PER_RUN_PER_CORE;
        core_seconds / cores.max(1) as f64
    }

    /// The simulation speed `check`'s estimate assumes: [`LEAVES_PER_SECOND_PER_CORE`], or
    /// [`CHESS_LEAVES_PER_SECOND_PER_CORE`] for chess.
    pub fn leaves_per_second_per_core(&self) -> f64 {
        match self.generator {
            Generator::Chess => CHESS_LEAVES_PER_SECOND_PER_CORE,
            _ => LEAVES_PER_SECOND_PER_CORE,
        }
    }

    /// Leaves of the minimal trees of every run of the sweep (baselines included): a lower
    /// bound of the work. Linear in the number of configurations.
    pub fn minimal_leaves_total(&self) -> f64 {
        (0..self.configs.len())
            .map(|c| {
                let runs: usize = (0..self.algorithms.len())
                    .map(|a| self.group_runs(c, a))
                    .sum();
                self.minimal_leaves(c) * runs as f64
            })
            .sum()
    }
}

/// The tree generator of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// The weight-based generator of Reinefeld, Schaeffer and Marsland ([`SyntheticTree`]).
    Synthetic,
    /// Campbell's `gen` (thesis, Appendix 2; [`algorithms::CampbellTree`]).
    Campbell,
    /// Chess positions ([`chess::ChessTree`], the plan's [`crate::positions::ChessSet`]).
    Chess,
}

/// Short tag of an ordering for results and legends (see [`Ordering::label`]).
pub fn ordering_label(o: &Ordering) -> String {
    o.label()
}

/// Reads and validates a scenario file (a regular file of at most [`MAX_SCENARIO_BYTES`]).
pub fn load(path: &Path) -> Result<Plan, ScenarioError> {
    let file = path.display().to_string();
    let bytes = read_bounded(path, MAX_SCENARIO_BYTES, "scenario").map_err(ScenarioError::File)?;
    let src = decode_text(&bytes).map_err(|(line, col, message)| ScenarioError::At {
        file: file.clone(),
        line,
        col,
        message,
    })?;
    parse(src, path)
}

/// The path of the value being read when deserialization failed, as the scenario spells it
/// (`workload.width`, `sweep.ordering[2]`); enum variant names are left out.
fn field_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    out
}

/// Validates scenario text (a leading byte-order mark is ignored); `path` names it in errors.
pub fn parse(src: &str, path: &Path) -> Result<Plan, ScenarioError> {
    let src = src.strip_prefix('\u{FEFF}').unwrap_or(src);
    let file = path.display().to_string();
    // implicit_some: optional fields take a bare value (`timeline: (fanout: 4, seed: 1)`);
    // `Some(...)` is accepted too.
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let spanned = |e: ron::error::SpannedError, field: String| {
        let message = if field.is_empty() {
            e.code.to_string()
        } else {
            format!("{field}: {}", e.code)
        };
        ScenarioError::At {
            file: file.clone(),
            line: e.span.start.line,
            col: e.span.start.col,
            message,
        }
    };
    let mut de = ron::Deserializer::from_str_with_options(src, &options)
        .map_err(|e| spanned(e, String::new()))?;
    let scenario: Scenario = match serde_path_to_error::deserialize(&mut de) {
        Ok(s) => s,
        Err(e) => {
            let field = field_path(e.path());
            let inner = de.span_error(e.into_inner());
            return Err(spanned(inner, field));
        }
    };
    de.end()
        .map_err(|e| spanned(de.span_error(e), String::new()))?;
    let at = |keys: &[&str], message: String| {
        let (line, col) = locate(src, keys);
        ScenarioError::At {
            file: file.clone(),
            line,
            col,
            message: format!("{}: {message}", keys.join(".")),
        }
    };

    let hw = &scenario.hardware;
    let clock = hw.clock_hz.0;
    let dur = |d: &Duration| -> SimTime {
        match *d {
            Duration::Ns(n) => SimTime(n),
            Duration::Us(a) => SimTime((a.0 * 1e3).round() as u64),
            Duration::Ms(a) => SimTime((a.0 * 1e6).round() as u64),
            Duration::S(a) => SimTime((a.0 * 1e9).round() as u64),
            Duration::Cycles(c) => cycles(c, clock),
        }
    };
    let costs = CostModel {
        k: dur(&hw.costs.k),
        e: dur(&hw.costs.e),
        q: dur(&hw.costs.q),
        probe: dur(&hw.costs.probe),
        s: dur(&hw.costs.s),
        interrupt: dur(&hw.costs.interrupt),
    };
    if costs.e == SimTime::ZERO {
        return Err(at(
            &["hardware", "costs", "e"],
            "leaf evaluation cost e must be positive (speedups and overheads divide by it)".into(),
        ));
    }

    // Chess: the positions, read first (the configurations' width is their mean root width).
    let mut chess_set = match &scenario.workload {
        Workload::Chess { positions, .. } => Some(match positions {
            schema::Positions::BratkoKopec => crate::positions::ChessSet::bratko_kopec(),
            schema::Positions::Epd(name) => {
                let epd = path.parent().unwrap_or(Path::new(".")).join(name);
                crate::positions::ChessSet::read(&epd)
                    .map_err(|m| at(&["workload", "positions"], m))?
            }
        }),
        _ => None,
    };
    // Chess: the positions' numbers (every position, or those sweep.positions names), in file
    // order: the sweep's seeds.
    let chess_seeds: Vec<u64> = match &chess_set {
        None => Vec::new(),
        Some(set) => {
            let mut chosen = Vec::new();
            for (i, id) in scenario.sweep.positions.iter().enumerate() {
                let Some(n) = set.number_of(id) else {
                    let (line, col) = locate_item(src, &["sweep", "positions"], i);
                    let known: Vec<&str> = set
                        .positions
                        .iter()
                        .take(30)
                        .map(|p| p.id.as_str())
                        .collect();
                    return Err(ScenarioError::At {
                        file: file.clone(),
                        line,
                        col,
                        message: format!(
                            "sweep.positions[{i}]: no position of {} has the id {id:?} (the ids are {}{})",
                            set.source,
                            known.join(", "),
                            if set.positions.len() > known.len() { ", ..." } else { "" }
                        ),
                    });
                };
                if chosen.contains(&n) {
                    return Err(at(
                        &["sweep", "positions"],
                        format!("position {id:?} is listed twice"),
                    ));
                }
                chosen.push(n);
            }
            if chosen.is_empty() {
                set.positions.iter().map(|p| p.number).collect()
            } else {
                // File order, whatever the order of the list.
                chosen.sort_unstable();
                chosen
            }
        }
    };
    // The chess width: the mean number of legal moves at the root of the positions searched
    // (the paper's "average width w = 34" of its model), for the model's estimates.
    let chess_width = schema::Positive(match &chess_set {
        Some(set) => {
            let total: usize = chess_seeds
                .iter()
                .filter_map(|&n| set.get(n))
                .map(|p| p.root_width())
                .sum();
            ((total as f64 / chess_seeds.len().max(1) as f64).round() as u64).max(1)
        }
        None => 1,
    });
    let random = Ordering::Random;
    let (generator, width, depth, ordering, value_spread, horizon_noise) = match &scenario.workload
    {
        Workload::Synthetic {
            width,
            depth,
            ordering,
            value_spread,
            horizon_noise,
        } => (
            Generator::Synthetic,
            width,
            depth,
            ordering,
            value_spread,
            horizon_noise,
        ),
        // Campbell's trees have no horizon noise (every leaf is a bottom position) and draw
        // their values by his rules, not from a spread.
        Workload::Campbell {
            width,
            depth,
            ordering,
        } => (
            Generator::Campbell,
            width,
            depth,
            ordering,
            &schema::Positive(1000),
            &0,
        ),
        Workload::Chess { depth, .. } => (
            Generator::Chess,
            &chess_width,
            depth,
            &random,
            &schema::Positive(1000),
            &0,
        ),
    };
    if let Some(set) = &chess_set {
        let sweep = &scenario.sweep;
        for (field, given) in [
            ("width", !sweep.width.is_empty()),
            ("shape", !sweep.shape.is_empty()),
            ("ordering", !sweep.ordering.is_empty()),
            ("horizon_noise", !sweep.horizon_noise.is_empty()),
        ] {
            if given {
                return Err(at(
                    &["sweep", field],
                    format!("chess positions have no {} to sweep (their moves, order and evaluation are the chess program's): remove sweep.{field}", field.replace('_', " ")),
                ));
            }
        }
        if sweep.seeds.is_some() {
            return Err(at(
                &["sweep", "seeds"],
                format!("chess positions take the place of seeds (position n of {} is seed n): remove sweep.seeds, and choose positions with sweep.positions: [\"id\", ...]", set.source),
            ));
        }
    } else if !scenario.sweep.positions.is_empty() {
        return Err(at(
            &["sweep", "positions"],
            "only chess workloads have positions: remove sweep.positions (synthetic and Campbell trees are chosen by sweep.seeds)".into(),
        ));
    }
    if generator == Generator::Campbell && !scenario.sweep.horizon_noise.is_empty() {
        return Err(at(
            &["sweep", "horizon_noise"],
            "Campbell's trees have no horizon noise (every leaf is a bottom position): remove sweep.horizon_noise".into(),
        ));
    }
    if value_spread.0 > 1_000_000 {
        return Err(at(
            &["workload", "value_spread"],
            format!("{} is above the limit of 1000000", value_spread.0),
        ));
    }
    if *horizon_noise > 1_000_000 {
        return Err(at(
            &["workload", "horizon_noise"],
            format!("{horizon_noise} is above the limit of 1000000"),
        ));
    }
    let sweep = &scenario.sweep;
    let width_at: &[&str] = if sweep.width.is_empty() {
        &["workload", "width"]
    } else {
        &["sweep", "width"]
    };
    let depth_at: &[&str] = if sweep.depth.is_empty() {
        &["workload", "depth"]
    } else {
        &["sweep", "depth"]
    };
    let shapes = !sweep.shape.is_empty();
    if shapes && !(sweep.width.is_empty() && sweep.depth.is_empty()) {
        return Err(at(
            &["sweep", "shape"],
            "give either sweep.shape ((width, depth) pairs) or sweep.width and sweep.depth, not both".into(),
        ));
    }
    let (width_at, depth_at): (&[&str], &[&str]) = if shapes {
        (&["sweep", "shape"], &["sweep", "shape"])
    } else {
        (width_at, depth_at)
    };
    // With sweep.shape, the distinct widths and depths it names (for the limits below).
    let distinct = |v: Vec<u64>| {
        let mut seen = std::collections::HashSet::new();
        v.into_iter()
            .filter(|x| seen.insert(*x))
            .collect::<Vec<u64>>()
    };
    let widths: Vec<u64> = if shapes {
        distinct(sweep.shape.iter().map(|s| s.width.0).collect())
    } else if sweep.width.is_empty() {
        vec![width.0]
    } else {
        sweep.width.iter().map(|w| w.0).collect()
    };
    let depths: Vec<u64> = if shapes {
        distinct(sweep.shape.iter().map(|s| s.depth.0).collect())
    } else if sweep.depth.is_empty() {
        vec![depth.0]
    } else {
        sweep.depth.iter().map(|d| d.0).collect()
    };
    if shapes {
        let pairs: Vec<(u64, u64)> = sweep.shape.iter().map(|s| (s.width.0, s.depth.0)).collect();
        if let Some((w, d)) = first_duplicate(&pairs) {
            return Err(at(
                &["sweep", "shape"],
                format!("(width {w}, depth {d}) is listed twice"),
            ));
        }
    }
    // (ordering, where it is written, its index in sweep.ordering)
    let orderings: Vec<(&Ordering, &[&str], Option<usize>)> = if sweep.ordering.is_empty() {
        vec![(ordering, &["workload", "ordering"][..], None)]
    } else {
        sweep
            .ordering
            .iter()
            .enumerate()
            .map(|(i, o)| (o, &["sweep", "ordering"][..], Some(i)))
            .collect()
    };
    let noises: Vec<u32> = if sweep.horizon_noise.is_empty() {
        vec![*horizon_noise]
    } else {
        sweep.horizon_noise.clone()
    };
    if noises.iter().any(|&n| n > 1_000_000) {
        return Err(at(
            &["sweep", "horizon_noise"],
            "horizon_noise must be at most 1000000".into(),
        ));
    }
    let max_width = match generator {
        Generator::Synthetic | Generator::Chess => MAX_WIDTH,
        Generator::Campbell => algorithms::campbell::MAX_WIDTH as u64,
    };
    if let Some(w) = widths.iter().find(|&&w| w > max_width) {
        return Err(at(
            width_at,
            format!("width {w} is above the limit of {max_width}"),
        ));
    }
    if let Some(d) = depths.iter().find(|&&d| d > MAX_DEPTH) {
        return Err(at(
            depth_at,
            format!("depth {d} is above the limit of {MAX_DEPTH}"),
        ));
    }
    // A configuration appears twice exactly when one of the lists holds a value twice; checked
    // per list (sorting, or hashing labels), not by comparing configurations pairwise.
    if let Some(w) = first_duplicate(&widths) {
        return Err(at(width_at, format!("width {w} is listed twice")));
    }
    if let Some(d) = first_duplicate(&depths) {
        return Err(at(depth_at, format!("depth {d} is listed twice")));
    }
    if let Some(n) = first_duplicate(&noises) {
        return Err(at(
            &["sweep", "horizon_noise"],
            format!("horizon noise {n} is listed twice"),
        ));
    }
    {
        let mut seen = std::collections::HashSet::new();
        for (o, o_at, _) in &orderings {
            if !seen.insert(o.label()) {
                return Err(at(o_at, format!("ordering {} is listed twice", o.label())));
            }
        }
    }

    // The algorithms: sweep.algorithm, or search.algorithm.
    let convert_algorithm = |a: &schema::Algorithm| match a {
        schema::Algorithm::Pmws => AlgorithmSpec::Pmws,
        schema::Algorithm::Parabelle { table, storage } => AlgorithmSpec::Parabelle {
            table: *table,
            storage: *storage,
        },
        schema::Algorithm::TreeSplit { update } => AlgorithmSpec::TreeSplit { update: *update },
        schema::Algorithm::PvSplit { refined, update } => AlgorithmSpec::PvSplit {
            refined: *refined,
            update: *update,
        },
        schema::Algorithm::Ab => AlgorithmSpec::Sequential(Sequential::Ab),
        schema::Algorithm::Pab => AlgorithmSpec::Sequential(Sequential::Pab),
        schema::Algorithm::Scout => AlgorithmSpec::Sequential(Sequential::Scout),
        schema::Algorithm::NegaScout => AlgorithmSpec::Sequential(Sequential::NegaScout),
        schema::Algorithm::Sss => AlgorithmSpec::Sequential(Sequential::Sss),
        schema::Algorithm::Dual => AlgorithmSpec::Sequential(Sequential::Dual),
        schema::Algorithm::Ins => AlgorithmSpec::Sequential(Sequential::Ins),
        schema::Algorithm::Pns => AlgorithmSpec::Sequential(Sequential::Pns),
        schema::Algorithm::StagedSss { stage } => {
            AlgorithmSpec::Sequential(Sequential::StagedSss { stage: *stage })
        }
        schema::Algorithm::Sab { top } => AlgorithmSpec::Sequential(Sequential::Sab { top: *top }),
        schema::Algorithm::Abs { top } => AlgorithmSpec::Sequential(Sequential::Abs { top: *top }),
    };
    let (algorithms, algorithm_at): (Vec<AlgorithmSpec>, &[&str]) =
        if scenario.sweep.algorithm.is_empty() {
            (
                vec![convert_algorithm(&scenario.search.algorithm)],
                &["search", "algorithm"],
            )
        } else {
            (
                scenario
                    .sweep
                    .algorithm
                    .iter()
                    .map(convert_algorithm)
                    .collect(),
                &["sweep", "algorithm"],
            )
        };
    for (i, a) in algorithms.iter().enumerate() {
        if algorithms[..i].contains(a) {
            return Err(at(algorithm_at, format!("algorithm {a} is listed twice")));
        }
        // A stage or a hybrid's top part of 0 plies is no search of its own.
        match a {
            AlgorithmSpec::Sequential(Sequential::StagedSss { stage: 0 }) => {
                return Err(at(
                    algorithm_at,
                    format!("algorithm {a}: a stage must be at least 1 ply (StagedSss(stage: 2) is Campbell's SS)"),
                ));
            }
            AlgorithmSpec::Sequential(Sequential::Sab { top: Some(0) })
            | AlgorithmSpec::Sequential(Sequential::Abs { top: Some(0) }) => {
                return Err(at(
                    algorithm_at,
                    format!("algorithm {a}: the top part must be at least 1 ply (top: 0 would be plain SSS* or alpha-beta: use Sss or Ab)"),
                ));
            }
            _ => {}
        }
        // Campbell's trees evaluate an interior node exactly (his files hold only the leaves),
        // so earlier iterations would order the root moves perfectly: an oracle, not a search.
        if generator == Generator::Campbell && scenario.search.progressive_deepening {
            return Err(at(
                &["search", "progressive_deepening"],
                "Campbell's trees are searched to their full depth (an interior node's evaluation is its exact value, which would make earlier iterations an oracle): set search.progressive_deepening: false".into(),
            ));
        }
        if !matches!(a, AlgorithmSpec::Pmws | AlgorithmSpec::Parabelle { .. })
            && scenario.search.progressive_deepening
        {
            return Err(at(
                &["search", "progressive_deepening"],
                format!("{a} searches to a fixed depth, as in Campbell's thesis: set search.progressive_deepening: false"),
            ));
        }
    }

    // The processor trees: the paper's (fanout, length), then Campbell's (depth, width).
    let mut fanouts = Vec::new();
    let mut ptrees = Vec::new();
    if scenario.sweep.fanout.is_empty() && scenario.sweep.ptree.is_empty() {
        return Err(at(
            &["sweep", "fanout"],
            "the sweep lists no processor tree: give sweep.fanout (processor counts) or sweep.ptree ((depth, width) pairs)".into(),
        ));
    }
    for f in &scenario.sweep.fanout {
        if f.0 > MAX_FANOUT {
            return Err(at(
                &["sweep", "fanout"],
                format!("fanout {} is above the limit of {MAX_FANOUT}", f.0),
            ));
        }
        if fanouts.contains(&(f.0 as u32)) {
            return Err(at(
                &["sweep", "fanout"],
                format!("fanout {} is listed twice", f.0),
            ));
        }
        let processors = f.0.checked_pow(hw.length.0.min(64) as u32);
        if hw.length.0 > 64 || processors.is_none_or(|p| p > MAX_FANOUT) {
            return Err(at(
                &["hardware", "length"],
                format!(
                    "fanout {} and length {} make more than {MAX_FANOUT} processors",
                    f.0, hw.length.0
                ),
            ));
        }
        fanouts.push(f.0 as u32);
        ptrees.push(PTree::Paper {
            fanout: f.0 as u32,
            length: hw.length.0 as u32,
        });
    }
    for shape in &scenario.sweep.ptree {
        let (d, w) = (shape.depth.0, shape.width.0);
        // 1 + w + w^2 + … + w^d processors.
        let processors = (0..=d.min(64)).try_fold(0u64, |sum, level| {
            w.checked_pow(level as u32).and_then(|n| sum.checked_add(n))
        });
        if d > 64 || processors.is_none_or(|p| p > MAX_FANOUT) {
            return Err(at(
                &["sweep", "ptree"],
                format!("the processor tree (depth {d}, width {w}) has more than {MAX_FANOUT} processors"),
            ));
        }
        let p = PTree::Campbell {
            depth: d as u32,
            width: w as u32,
        };
        if ptrees.contains(&p) {
            return Err(at(
                &["sweep", "ptree"],
                format!("the processor tree (depth {d}, width {w}) is listed twice"),
            ));
        }
        ptrees.push(p);
    }
    for a in &algorithms {
        for p in &ptrees {
            if let Some(why) = a.unsupported(p) {
                let field: &[&str] = match p {
                    PTree::Paper { .. } => &["hardware", "length"],
                    PTree::Campbell { .. } => &["sweep", "ptree"],
                };
                return Err(at(field, why));
            }
        }
    }
    // Most children of any processor, for the SCI's ports, and the sweep field that asks for it.
    let (most_children, most_at, most_label) = ptrees
        .iter()
        .map(|p| {
            let field: &[&str] = match p {
                PTree::Paper { .. } => &["sweep", "fanout"],
                PTree::Campbell { .. } => &["sweep", "ptree"],
            };
            (p.build().width() as u64, field, p.describe())
        })
        .max_by_key(|x| x.0)
        .unwrap_or((0, &["sweep"][..], String::new()));

    let level_link = |link: &Link, field: &'static str| -> Result<LevelLink, ScenarioError> {
        let (spec, rates) = match link {
            Link::Sci {
                rate,
                rts_cts,
                ports,
                rate_by_processors,
            } => {
                // The SCI's rule lives in sim-hw; the message names the tree and the field.
                let sci = SerialInterface {
                    ports: ports.0,
                    rate: rate.0,
                };
                if let Err(e) = sci.check(most_children) {
                    return Err(at(
                        most_at,
                        format!("the processor tree {most_label} {e} (hardware.{field}.ports)"),
                    ));
                }
                (LinkSpec::serial(rate.0, *rts_cts), rate_by_processors)
            }
            Link::Serial {
                rate,
                rts_cts,
                rate_by_processors,
            } => (LinkSpec::serial(rate.0, *rts_cts), rate_by_processors),
            Link::Ideal => {
                return Ok(LevelLink {
                    spec: LinkSpec::ideal(),
                    rate_by_processors: vec![],
                })
            }
        };
        Ok(LevelLink {
            spec,
            rate_by_processors: rates.iter().map(|(&p, r)| (p, r.0)).collect(),
        })
    };
    let mut levels = vec![level_link(&hw.link, "link")?];
    if let Some(below) = &hw.link_below {
        levels.push(level_link(below, "link_below")?);
    }
    let link = levels[0].spec;
    let links = LinkPlan { levels };
    let read = |r: &schema::Read| match r {
        schema::Read::Interrupt => ReadPolicy::Interrupt,
        schema::Read::Poll { every } => ReadPolicy::Poll {
            every: every.0.min(u32::MAX as u64) as u32,
        },
        schema::Read::WhenIdle => ReadPolicy::WhenIdle,
    };
    let reads = ReadPolicies {
        hosts: read(&hw.reads.hosts),
        boards: read(&hw.reads.boards),
    };

    // Sizes, computed before anything of that size is built.
    let seeds: Vec<u64> = match (&chess_set, &sweep.seeds) {
        (Some(_), _) => chess_seeds.clone(),
        (None, None) => {
            return Err(at(
                &["sweep"],
                "sweep.seeds is missing: give the seeds of the trees, e.g. seeds: Range(start: 1, count: 24)".into(),
            ))
        }
        (None, Some(given)) => {
            if given.count() == 0 {
                return Err(at(&["sweep", "seeds"], "lists no seed".into()));
            }
            let seeds = given
                .list(MAX_SEEDS)
                .map_err(|m| at(&["sweep", "seeds"], m))?;
            if let Some(seed) = first_duplicate(&seeds) {
                return Err(at(
                    &["sweep", "seeds"],
                    format!("seed {seed} is listed twice"),
                ));
            }
            seeds
        }
    };
    let seed_count = seeds.len() as u64;
    // Per seed: per algorithm, the uniprocessor baseline and every other processor tree.
    let per_seed = (ptrees.iter().filter(|p| !p.is_uniprocessor()).count() as u64 + 1)
        * algorithms.len() as u64;
    let shape_count = if shapes {
        Some(sweep.shape.len() as u64)
    } else {
        (widths.len() as u64).checked_mul(depths.len() as u64)
    };
    let config_count = shape_count.and_then(|c| {
        [orderings.len(), noises.len()]
            .iter()
            .try_fold(c, |n, &k| n.checked_mul(k as u64))
    });
    let runs = config_count
        .and_then(|c| c.checked_mul(per_seed))
        .and_then(|r| r.checked_mul(seed_count));
    match runs {
        Some(r) if r <= MAX_RUNS => {}
        _ => {
            let describe =
                |n: Option<u64>| n.map_or("more than 2^64".to_string(), |n| n.to_string());
            return Err(at(
                &["sweep"],
                format!(
                    "the sweep makes {} runs ({} tree configurations x {per_seed} runs per seed (algorithms x processor trees, the uniprocessor baseline included) x {seed_count} seeds), more than the limit of {MAX_RUNS}",
                    describe(runs),
                    describe(config_count),
                ),
            ));
        }
    }

    // The generator is built once for every (width, ordering) pair, exactly as a run builds it,
    // so that no configuration `check` accepts can fail in `run` for a generator reason (depth,
    // horizon noise and value spread only enter its checks through the limits above).
    for &w in widths.iter().filter(|_| generator != Generator::Chess) {
        for (o, o_at, index) in &orderings {
            let spec = SyntheticSpec {
                width: w as u32,
                depth: depths[0] as u32,
                ordering: (*o).clone(),
                value_spread: value_spread.0 as u32,
                horizon_noise: noises[0],
            };
            let built = match generator {
                Generator::Synthetic | Generator::Chess => SyntheticTree::new(spec, 0).map(|_| ()),
                Generator::Campbell => CampbellTree::new(
                    CampbellSpec {
                        width: spec.width,
                        depth: spec.depth,
                        ordering: spec.ordering,
                    },
                    0,
                )
                .map(|_| ()),
            };
            if let Err(m) = built {
                let field = match index {
                    Some(i) => format!("sweep.ordering[{i}]"),
                    None => "workload.ordering".into(),
                };
                let (line, col) = match index {
                    Some(i) => locate_item(src, o_at, *i),
                    None => locate(src, o_at),
                };
                return Err(ScenarioError::At {
                    file: file.clone(),
                    line,
                    col,
                    message: if m.contains("width") {
                        format!("{field}: {m}")
                    } else {
                        format!("{field}: {m} (width {w})")
                    },
                });
            }
        }
    }
    // Within the run limit checked above: the pairs can be listed now.
    let pairs: Vec<(u64, u64)> = if shapes {
        sweep.shape.iter().map(|s| (s.width.0, s.depth.0)).collect()
    } else {
        widths
            .iter()
            .flat_map(|&w| depths.iter().map(move |&d| (w, d)))
            .collect()
    };
    let mut configs = Vec::with_capacity(config_count.unwrap_or(0) as usize);
    for &(w, d) in &pairs {
        {
            for (o, _, _) in &orderings {
                for &noise in &noises {
                    configs.push(SyntheticSpec {
                        width: w as u32,
                        depth: d as u32,
                        ordering: (*o).clone(),
                        value_spread: value_spread.0 as u32,
                        horizon_noise: noise,
                    });
                }
            }
        }
    }

    let timeline = match &scenario.outputs.timeline {
        None => None,
        Some(t) => {
            let here = |m: String| at(&["outputs", "timeline"], m);
            if !fanouts.contains(&(t.fanout.0 as u32)) {
                return Err(here(format!(
                    "timeline fanout {} is not in sweep.fanout",
                    t.fanout.0
                )));
            }
            if !seeds.contains(&t.seed) {
                return Err(here(if chess_set.is_some() {
                    format!(
                        "timeline seed {} is not the number of a position of the sweep (positions are numbered from 1 in file order)",
                        t.seed
                    )
                } else {
                    format!("timeline seed {} is not in the sweep", t.seed)
                }));
            }
            let index = configs.iter().position(|c| {
                t.width.is_none_or(|w| w.0 == c.width as u64)
                    && t.depth.is_none_or(|d| d.0 == c.depth as u64)
                    && t.ordering.as_ref().is_none_or(|o| *o == c.ordering)
                    && t.horizon_noise.is_none_or(|n| n == c.horizon_noise)
            });
            let Some(index) = index else {
                return Err(here(
                    "no tree configuration of the sweep has that width, depth, ordering and horizon noise".into(),
                ));
            };
            Some((index, t.fanout.0 as u32, t.seed))
        }
    };

    // The timeline run must be one the sweep makes (not one it skips).
    if let Some((c, f, _)) = timeline {
        let p = PTree::Paper {
            fanout: f,
            length: hw.length.0 as u32,
        };
        let depth = configs[c].depth;
        let runs = algorithms.iter().any(|a| {
            a.not_applicable(&PTree::UNIPROCESSOR, depth).is_none()
                && (p.is_uniprocessor() || a.not_applicable(&p, depth).is_none())
        });
        if !runs {
            return Err(at(
                &["outputs", "timeline"],
                format!("the sweep runs no algorithm at fanout {f} on that tree configuration (depth {depth}): every such run is skipped; name another fanout or configuration"),
            ));
        }
    }

    let mut warnings = Vec::new();
    let mut paper = None;
    let reference = match &scenario.outputs.reference {
        None => None,
        // Chess plans are compared with the paper's Tables II-IV, in any of their layouts.
        Some(name) if chess_set.is_some() => {
            let file_path = path.parent().unwrap_or(Path::new(".")).join(name);
            let table = crate::reference::read_paper_table(&file_path, &fanouts)
                .map_err(|m| at(&["outputs", "reference"], m))?;
            warnings.extend(table.warnings().iter().cloned());
            paper = Some(table);
            None
        }
        Some(name) => {
            let file_path = path.parent().unwrap_or(Path::new(".")).join(name);
            let r = crate::reference::read(&file_path, &fanouts)
                .map_err(|m| at(&["outputs", "reference"], m))?;
            warnings.extend(r.warnings.iter().cloned());
            Some(r)
        }
    };

    if scenario.outputs.fig7 {
        if chess_set.is_none() {
            return Err(at(
                &["outputs", "fig7"],
                "fig7.png is the paper's Fig. 7 of chess searches: outputs.fig7 needs a Chess workload".into(),
            ));
        }
        if fanouts.len() < 2 {
            return Err(at(
                &["outputs", "fig7"],
                format!("fig7.png draws overheads against f: outputs.fig7 needs two fanouts or more in sweep.fanout (it has {})", fanouts.len()),
            ));
        }
    }
    if let Some(name) = &scenario.outputs.minimal_chart {
        let plain = std::path::Path::new(name)
            .file_name()
            .is_some_and(|f| f == name.as_str());
        let taken = [
            "overheads.png",
            "speedup.png",
            "sync-overhead.png",
            "timeline.png",
            "fig7.png",
        ];
        if !plain
            || !name.ends_with(".png")
            || name.starts_with('.')
            || taken.contains(&name.as_str())
        {
            return Err(at(
                &["outputs", "minimal_chart"],
                format!("{name:?} must be a file name ending in .png, without a folder, not starting with a dot, and not one of {}", taken.join(", ")),
            ));
        }
        if !ptrees.iter().all(|p| p.is_uniprocessor()) {
            warnings.push(format!(
                "{file}: outputs.minimal_chart is drawn only for plans of sequential searches (every processor tree a uniprocessor); this plan has others, so it is not drawn"
            ));
        }
    }
    // Runs an algorithm does not apply to (pv-splitting on a processor tree as deep as the
    // search, …) are skipped, as Campbell's tables leave those cells empty: say which, once.
    for a in &algorithms {
        for p in std::iter::once(&PTree::UNIPROCESSOR)
            .chain(ptrees.iter().filter(|p| !p.is_uniprocessor()))
        {
            for &d in &depths {
                if let Some(why) = a.not_applicable(p, d as u32) {
                    let on = if p.is_uniprocessor() {
                        "one processor".to_string()
                    } else {
                        format!("processor tree {}", p.label())
                    };
                    warnings.push(format!(
                        "{file}: {a} at depth {d} on {on} does not apply ({why}); those runs are skipped"
                    ));
                }
            }
        }
    }
    if let Some(set) = &mut chess_set {
        set.prepare(configs.len());
    }
    let plan = Plan {
        chess: chess_set,
        paper,
        generator,
        algorithms,
        ptrees,
        links,
        reads,
        batching: true,
        warnings,
        reference,
        progressive: scenario.search.progressive_deepening,
        file: path.to_path_buf(),
        costs,
        link,
        configs,
        fanouts,
        seeds,
        timeline,
        scenario,
    };
    // Every run skipped: a sweep that would write empty tables is a mistake.
    if plan.run_count() == 0 {
        return Err(at(
            &["sweep"],
            "every run is skipped (no algorithm applies to any tree configuration; see the warnings): nothing would be simulated".into(),
        ));
    }
    Ok(plan)
}

/// The first value that occurs twice in `v`, found by sorting a copy.
fn first_duplicate<T: Ord + Copy>(v: &[T]) -> Option<T> {
    let mut sorted = v.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// Line and column of item `index` of the list at `keys` (the list's own position if the item
/// cannot be found).
fn locate_item(src: &str, keys: &[&str], index: usize) -> (usize, usize) {
    let start = locate_offset(src, keys);
    let (line, col) = line_col(src, start);
    let bytes = src.as_bytes();
    let Some(open) = src[start..].find('[').map(|i| start + i) else {
        return (line, col);
    };
    let (mut depth, mut item, mut i) = (0usize, 0usize, open + 1);
    let mut item_start = None;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' if depth == 0 => break,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                item += 1;
                i += 1;
                continue;
            }
            _ => {}
        }
        if item == index && item_start.is_none() && !bytes[i].is_ascii_whitespace() {
            item_start = Some(i);
            break;
        }
        i += 1;
    }
    item_start.map_or((line, col), |at| line_col(src, at))
}

/// Line and column (1-based) of the field reached by following `keys` (each searched after the
/// previous one), skipping comments and strings; the start of the file if not found.
fn locate(src: &str, keys: &[&str]) -> (usize, usize) {
    line_col(src, locate_offset(src, keys))
}

/// Byte offset of the field reached by following `keys` (see [`locate`]); 0 if not found.
fn locate_offset(src: &str, keys: &[&str]) -> usize {
    let bytes = src.as_bytes();
    let mut pos = 0usize;
    let mut found = None;
    'keys: for key in keys {
        let mut i = pos;
        while i < bytes.len() {
            match bytes[i] {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                        i += 1;
                    }
                    i += 2;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        if bytes[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    let mut j = i;
                    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if &src[start..i] == *key && bytes.get(j) == Some(&b':') {
                        pos = i;
                        found = Some(start);
                        continue 'keys;
                    }
                }
                _ => i += 1,
            }
        }
        break;
    }
    found.unwrap_or(0)
}

/// Line and column (1-based, the column in characters) of byte offset `at`.
fn line_col(src: &str, at: usize) -> (usize, usize) {
    let line = src[..at].matches('\n').count() + 1;
    let col = src[src[..at].rfind('\n').map_or(0, |n| n + 1)..at]
        .chars()
        .count()
        + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_skips_comments_and_strings() {
        let src = "// sweep: fanout: no\n(name: \"fanout:\",\n sweep: (\n   fanout: [1])";
        assert_eq!(locate(src, &["sweep", "fanout"]), (4, 4));
        assert_eq!(locate(src, &["nothing"]), (1, 1));
    }
}
