//! The machine of a run: the processor tree a scenario names, the machine built from the
//! hardware section, and what one run of an algorithm produced ([`AlgorithmRun`]). The
//! algorithms themselves are in the scheme catalogue ([`crate::catalogue`]).

#[cfg(doc)]
use algorithms::Scheme;
use algorithms::{Figures, Value};
use sim_core::RunStats;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies};

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
    /// The root move chosen, as its index in `tree.moves(&tree.root())` (search order); None
    /// for schemes that only return a value ([`Scheme::root_move`]).
    pub root_move: Option<usize>,
    /// The figures the scheme reports beyond the machine's statistics ([`Scheme::figures`]),
    /// each a column of its catalogue entry.
    pub figures: Figures,
}
