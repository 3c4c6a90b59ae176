//! From a scenario's names to running code: the algorithm named by `search.algorithm` (or
//! `sweep.algorithm`), the processor tree of a run, and the machine built from the hardware
//! section.

use algorithms::{
    run_scheme, Alone, AlphaBeta, GameTree, PmwsConfig, PmwsScheme, Pvs, Scheme, SchemeError,
    SequentialSearch, TreeSplit, TreeSplitConfig, Value, INF,
};
use sim_core::RunStats;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies};
use std::fmt;

/// A search algorithm and its options: a parallel scheme, or a sequential search that runs on
/// one processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlgorithmSpec {
    /// Principal variation splitting on a processor tree of depth 1 (paper Fig. 4).
    Pmws,
    /// Tree-splitting (Campbell Fig. 10), with the dynamic window update of Fig. 11 or not.
    TreeSplit {
        /// Dynamic window update.
        update: bool,
    },
    /// A sequential search, alone on one processor.
    Sequential(Sequential),
}

/// The sequential searches the seed papers compare (Campbell section 2.2, Reinefeld et al.
/// section 4), each run alone on one processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sequential {
    /// Fail-soft alpha-beta (`ab`).
    Ab,
    /// Palphabeta / principal variation search (`pab`).
    Pab,
}

impl Sequential {
    /// The name in results.
    pub fn name(self) -> &'static str {
        match self {
            Sequential::Ab => "ab",
            Sequential::Pab => "pab",
        }
    }
}

impl AlgorithmSpec {
    /// The name in results: `pmws`, `treesplit`, `treesplit_update`, `ab`, …
    pub fn name(self) -> String {
        match self {
            AlgorithmSpec::Pmws => "pmws".into(),
            AlgorithmSpec::TreeSplit { update: false } => "treesplit".into(),
            AlgorithmSpec::TreeSplit { update: true } => "treesplit_update".into(),
            AlgorithmSpec::Sequential(s) => s.name().into(),
        }
    }
    /// Whether the algorithm can ever run on this processor tree (None) or why not: a scenario
    /// that asks for it is an error.
    pub fn unsupported(self, ptree: &PTree) -> Option<String> {
        match (self, ptree) {
            (AlgorithmSpec::Pmws, PTree::Paper { length, .. }) if *length != 1 => Some(format!(
                "pmws runs on a processor tree of length 1 (paper Fig. 4), not {length}"
            )),
            (AlgorithmSpec::Pmws, PTree::Campbell { depth, .. }) if *depth > 1 => Some(format!(
                "pmws runs on a processor tree of depth 1 (a master and its children), not {depth}"
            )),
            (AlgorithmSpec::Sequential(s), p) if !p.is_uniprocessor() => Some(format!(
                "{} is a sequential search: it runs on one processor, not on {}",
                s.name(),
                p.describe()
            )),
            _ => None,
        }
    }
    /// Whether the algorithm applies to a search of `depth` plies on this processor tree (None)
    /// or why not (e.g. pv-splitting on a processor tree as deep as the search, a hybrid whose
    /// upper part is the whole tree). Such runs are skipped and reported, as Campbell's tables
    /// leave those cells empty.
    pub fn not_applicable(self, ptree: &PTree, depth: u32) -> Option<String> {
        let _ = (ptree, depth);
        None
    }
}

impl fmt::Display for AlgorithmSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The processor tree of a run, as the scenario describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PTree {
    /// The paper's fanout f and length L (`sweep.fanout`, `hardware.length`).
    Paper {
        /// Processors per level, the parent included.
        fanout: u32,
        /// Levels below the root.
        length: u32,
    },
    /// Campbell's (depth, width) (`sweep.ptree`).
    Campbell {
        /// Levels of slaves.
        depth: u32,
        /// Slaves per non-terminal processor.
        width: u32,
    },
}

impl PTree {
    /// The uniprocessor every speedup is measured against.
    pub const UNIPROCESSOR: PTree = PTree::Paper {
        fanout: 1,
        length: 1,
    };
    /// Builds the tree.
    pub fn build(self) -> ProcessorTree {
        match self {
            PTree::Paper { fanout, length } => ProcessorTree::new(fanout, length),
            PTree::Campbell { depth, width } => ProcessorTree::campbell(depth, width),
        }
    }
    /// Whether this is a single processor.
    pub fn is_uniprocessor(self) -> bool {
        match self {
            PTree::Paper { fanout, length } => fanout == 1 || length == 0,
            PTree::Campbell { depth, width } => depth == 0 || width == 0,
        }
    }
    /// The tree in words, for messages: `f = 4` or `(depth 2, width 4)`.
    pub fn describe(self) -> String {
        match self {
            PTree::Paper { fanout, .. } => format!("f = {fanout}"),
            PTree::Campbell { depth, width } => format!("(depth {depth}, width {width})"),
        }
    }
    /// Short label for tables and legends: `4` (the paper's f) or `(2,4)` (Campbell's).
    pub fn label(self) -> String {
        match self {
            PTree::Paper { fanout, .. } => fanout.to_string(),
            PTree::Campbell { depth, width } => format!("({depth},{width})"),
        }
    }
}

/// The machine a run uses: the plan's costs, lines (a rate per processor count, a link per
/// level) and read policies, on `ptree`.
pub fn machine_config(
    ptree: ProcessorTree,
    costs: CostModel,
    links: &LinkPlan,
    reads: ReadPolicies,
    batching: bool,
) -> MachineConfig {
    let processors = ptree.len() as u64;
    let levels = links.levels.iter().map(|l| l.at(processors)).collect();
    let mut config = MachineConfig::new(ptree, costs, links.levels[0].at(processors));
    config.links = levels;
    config.reads = reads;
    config.batching = batching;
    config
}

/// The lines of a scenario: one entry per level of the processor tree (the last serves every
/// level below it), each with its rate per processor count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkPlan {
    /// Per level, from the root processor's lines down; at least one.
    pub levels: Vec<LevelLink>,
}

/// The lines at one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelLink {
    /// The link with its base rate.
    pub spec: LinkSpec,
    /// (processors, rate): the rate used when the machine has that many processors (the paper
    /// halved 960 bytes/s to 480 with four).
    pub rate_by_processors: Vec<(u64, u64)>,
}

impl LevelLink {
    /// The link spec on a machine of `processors` processors.
    pub fn at(&self, processors: u64) -> LinkSpec {
        let mut spec = self.spec;
        if let Some(&(_, rate)) = self.rate_by_processors.iter().find(|r| r.0 == processors) {
            if let sim_hw::LinkKind::Serial { .. } = spec.kind {
                spec.kind = sim_hw::LinkKind::Serial { rate };
            }
        }
        spec
    }
}

/// What one run of an algorithm produced.
pub struct AlgorithmRun {
    /// The root value found (None if the search did not finish).
    pub root_value: Option<Value>,
    /// The machine's statistics.
    pub stats: RunStats,
    /// The largest OPEN list held (SSS*-family searches), None for the others.
    pub open_peak: Option<usize>,
}

/// Runs `algorithm` to `depth` on `tree` on the machine `config`.
pub fn run_algorithm<T: GameTree>(
    algorithm: AlgorithmSpec,
    tree: &T,
    depth: u32,
    progressive: bool,
    config: MachineConfig,
) -> Result<AlgorithmRun, SchemeError> {
    fn go<'t, T: GameTree + 't, S: Scheme<'t, T>>(
        scheme: &S,
        tree: &'t T,
        config: MachineConfig,
    ) -> Result<AlgorithmRun, SchemeError> {
        let run = run_scheme(scheme, tree, config)?;
        Ok(AlgorithmRun {
            root_value: run.root_value,
            open_peak: scheme.open_peak(&run.roles),
            stats: run.stats,
        })
    }
    match algorithm {
        AlgorithmSpec::Pmws => go(&PmwsScheme(PmwsConfig { depth, progressive }), tree, config),
        AlgorithmSpec::TreeSplit { update } => {
            go(&TreeSplit(TreeSplitConfig { depth, update }), tree, config)
        }
        AlgorithmSpec::Sequential(s) => {
            let name = s.name();
            match s {
                Sequential::Ab => go(
                    &Alone::new(name, depth, |t, n, d| AlphaBeta::new(t, n, -INF, INF, d)),
                    tree,
                    config,
                ),
                Sequential::Pab => go(
                    &Alone::new(name, depth, |t, n, d| Pvs::new(t, n, -INF, INF, d)),
                    tree,
                    config,
                ),
            }
        }
    }
}
