//! The validated scenario ([`Plan`]): what the runner, the outputs and `check` read, and the
//! estimates of the sweep's size and wall time.

use crate::catalogue::Algorithm;
use crate::dispatch::{LinkPlan, NetworkPlan, PTree};
use crate::schema::Scenario;
use algorithms::{Ordering, SyntheticSpec};
use sim_hw::{CostModel, LinkSpec, ReadPolicies};
use std::path::PathBuf;

/// Simulated chess leaves (each with its quiescence search) per second of wall time on one
/// core, for `check`'s estimate of chess plans: parabelle-table2.ron simulated 7.4 M leaves in
/// 33.1 s of CPU time (224 k/s), parabelle-table3.ron 25.9 M in 88.2 s (294 k/s) and
/// parabelle-table4.ron 25.9 M in 139.1 s (186 k/s), the table-free reference searches
/// included (2-core development machine, 2026-11-29, `--threads 2`); the slowest, rounded
/// down. (It was 50 k/s, measured 2026-11-23, before the searches were made faster: 118,
/// 324 and 478 s of CPU time.)
pub const CHESS_LEAVES_PER_SECOND_PER_CORE: f64 = 150e3;
/// Simulated leaves per second of wall time on one core, for `check`'s estimate: the search
/// bench's `pmws f = 1` and `f = 4` summary lines (143.2 and 114.2 M leaves/s, best of 7,
/// 2026-11-29, 2-core development machine, quiet), rounded down. (It was 27 M, from the same
/// rows on 2026-11-21, before the simulated searches were made four times faster: `check`
/// then estimated sync-overhead.ron at 85 s on one thread, which ran in 28.5 s.)
pub const LEAVES_PER_SECOND_PER_CORE: f64 = 100e6;
/// Wall time of one run beyond its leaves (building the tree and the machine, the record and
/// its summary), in seconds on one core, for `check`'s estimate: 200,000 runs of 3-leaf trees
/// took 22.9 s on 2 cores (2026-11-23), 229 µs of core time each, rounded down.
pub const SECONDS_PER_RUN_PER_CORE: f64 = 2e-4;
/// Wall time an OPEN list costs per leaf and per state it can hold, in seconds on one core, for
/// `check`'s estimate of the SSS* family ([`crate::catalogue::Open`]): SSS* on Campbell's random
/// trees (e = 1 ns, nothing else) took 0.16 s at w = 20, 0.96 s at w = 30 and 3.61 s at w = 40
/// (d = 6, one seed, one thread, 2026-11-25, 2-core development machine, other builds running),
/// 1.25, 0.66 and 0.44 ns per minimal-tree leaf and state of w^3 (the time per state falls with
/// w as the leaves come nearer the minimal tree's); the smallest, rounded down, so that the
/// estimate stays a lower bound.
pub const OPEN_SECONDS_PER_LEAF_STATE: f64 = 0.4e-9;

/// Wall time of one engine event of a parallel run's messages, in seconds on one core, for
/// `check`'s estimate ([`crate::catalogue::Entry::events_milli`]): the shipped pool scenarios ran
/// ybwc-deep.ron's 5.58 × 10^8 events in 110 s of CPU time (197 ns each; ybwc-scale.ron 196 ns,
/// schemes-compare.ron 190 ns), 2-core development machine, 2026-11-28.
pub const SECONDS_PER_EVENT_PER_CORE: f64 = 200e-9;

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
    /// For chess plans: the paper's tables of `outputs.inference` (Table II or III layout).
    pub inference: Vec<crate::reference::PaperTable>,
    /// The algorithms of the sweep (`sweep.algorithm`, or `search.algorithm`).
    pub algorithms: Vec<Algorithm>,
    /// The processor trees of the sweep: one per `sweep.fanout`, then one per `sweep.ptree`.
    pub ptrees: Vec<PTree>,
    /// The lines, level by level, with their rates per processor count.
    pub links: LinkPlan,
    /// The pool network (`hardware.network`), None for the processor tree's own lines.
    pub network: Option<NetworkPlan>,
    /// Shared memory (`hardware.memory`), None without.
    pub memory: Option<sim_hw::MemorySpec>,
    /// Noise on search steps' costs (`hardware.jitter`): its largest change in thousandths and
    /// its seed; None without.
    pub jitter: Option<(u32, u64)>,
    /// When processors read their lines.
    pub reads: ReadPolicies,
    /// Lookahead batching (`gtsim run --step-by-step` turns it off).
    pub batching: bool,
    /// Optimistic execution of searches a message can reach, with batching (`gtsim run
    /// --conservative` turns it off; ARCHITECTURE.md, "Batching").
    pub optimistic: bool,
    /// Things the user should know that do not stop the run (e.g. reference rows for processor
    /// counts the sweep does not run), each naming its file and line.
    pub warnings: Vec<String>,
}

impl Plan {
    /// The scenario's `name` (the `scenario` column).
    pub fn name(&self) -> &str {
        &self.scenario.name.0
    }
    /// The root value of Campbell's trees when the scenario fixes it (`workload.root_score`);
    /// None to draw it per tree.
    pub fn campbell_root_score(&self) -> Option<algorithms::Value> {
        match &self.scenario.workload {
            crate::schema::Workload::Campbell { root_score, .. } => root_score.map(|s| s as _),
            _ => None,
        }
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
    /// How many seeds the sweep runs, in words: `1 seed`, `24 positions`.
    pub fn seed_count(&self) -> String {
        let n = self.seeds.len();
        format!("{n} {}{}", self.seed_word(), if n == 1 { "" } else { "s" })
    }
    /// The processor trees of the sweep, other than the uniprocessor, on which algorithm
    /// `algorithm` runs on the trees of configuration `config`, in plan order: those it applies
    /// to at the configuration's depth (see [`Algorithm::not_applicable`]; the others are
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

    /// The estimated work of one run of `algorithm` on configuration `config`, in leaves at
    /// [`Plan::leaves_per_second_per_core`]: its minimal tree's leaves, and for a search with an
    /// OPEN list (the SSS* family) that list's upkeep, [`OPEN_SECONDS_PER_LEAF_STATE`] per
    /// leaf and per state it can hold (w^⌈p/2⌉ for a list of p plies).
    pub fn run_work(&self, config: usize, algorithm: usize) -> f64 {
        let leaves = self.minimal_leaves(config);
        let spec = &self.configs[config];
        match self.algorithms[algorithm].entry().open.plies(spec.depth) {
            None => leaves,
            Some(p) => {
                let states = (spec.width as f64).powi(p.div_ceil(2) as i32);
                leaves
                    * (1.0
                        + states * OPEN_SECONDS_PER_LEAF_STATE * self.leaves_per_second_per_core())
            }
        }
    }

    /// The estimated engine events of the messages of one run of `algorithm` on configuration
    /// `config` on `ptree`: [`crate::catalogue::Entry::events_milli`] / 1000 · p · L^0.7 (p processors, L
    /// the minimal tree's leaves, every iteration); 0 on one processor.
    pub fn message_events(&self, config: usize, algorithm: usize, ptree: PTree) -> f64 {
        if ptree.is_uniprocessor() {
            return 0.0;
        }
        self.algorithms[algorithm].entry().events_milli as f64 / 1e3
            * ptree.processors() as f64
            * self.minimal_leaves(config).powf(0.7)
    }

    /// [`Plan::message_events`] of every run of `algorithm` on configuration `config`.
    fn group_events(&self, config: usize, algorithm: usize) -> f64 {
        if !self.applies(config, algorithm) {
            return 0.0;
        }
        let per_seed: f64 = self
            .sweep_ptrees(config, algorithm)
            .into_iter()
            .map(|p| self.message_events(config, algorithm, p))
            .sum();
        per_seed * self.seeds.len() as f64
    }

    /// Estimated wall time of the whole sweep on `cores` cores, in seconds: every run's work
    /// ([`Plan::run_work`]) at [`LEAVES_PER_SECOND_PER_CORE`], [`SECONDS_PER_RUN_PER_CORE`]
    /// per run, and the events of its messages ([`Plan::message_events`]) at
    /// [`SECONDS_PER_EVENT_PER_CORE`]. A rough guide: real searches visit more than the minimal
    /// tree, and a scheme's messages vary with the machine and the tree.
    pub fn estimated_seconds(&self, cores: usize) -> f64 {
        let pairs = || {
            (0..self.configs.len()).flat_map(|c| (0..self.algorithms.len()).map(move |a| (c, a)))
        };
        let work: f64 = pairs()
            .map(|(c, a)| self.run_work(c, a) * self.group_runs(c, a) as f64)
            .sum();
        let events: f64 = pairs().map(|(c, a)| self.group_events(c, a)).sum();
        let core_seconds = work / self.leaves_per_second_per_core()
            + self.run_count() as f64 * SECONDS_PER_RUN_PER_CORE
            + events * SECONDS_PER_EVENT_PER_CORE;
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
    /// The weight-based generator of Reinefeld, Schaeffer and Marsland ([`algorithms::SyntheticTree`]).
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
