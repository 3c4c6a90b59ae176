//! From a scenario's names to running code: the algorithm named by `search.algorithm` (or
//! `sweep.algorithm`), the processor tree of a run, and the machine built from the hardware
//! section.

use algorithms::{
    run_scheme, PmwsConfig, PmwsScheme, Scheme, SchemeError, SyntheticTree, TreeSplit,
    TreeSplitConfig, Value,
};
use sim_core::RunStats;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies};
use std::fmt;

/// A parallel scheme and its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlgorithmSpec {
    /// Principal variation splitting on a processor tree of depth 1 (paper Fig. 4).
    Pmws,
    /// Tree-splitting (Campbell Fig. 10), with the dynamic window update of Fig. 11 or not.
    TreeSplit {
        /// Dynamic window update.
        update: bool,
    },
}

impl AlgorithmSpec {
    /// The name in results: `pmws`, `treesplit`, `treesplit_update`.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmSpec::Pmws => "pmws",
            AlgorithmSpec::TreeSplit { update: false } => "treesplit",
            AlgorithmSpec::TreeSplit { update: true } => "treesplit_update",
        }
    }
    /// Whether the scheme can run on this processor tree (None) or why not.
    pub fn unsupported(self, ptree: &PTree) -> Option<String> {
        match (self, ptree) {
            (AlgorithmSpec::Pmws, PTree::Paper { length, .. }) if *length != 1 => Some(format!(
                "pmws runs on a processor tree of length 1 (paper Fig. 4), not {length}"
            )),
            (AlgorithmSpec::Pmws, PTree::Campbell { depth, .. }) if *depth > 1 => Some(format!(
                "pmws runs on a processor tree of depth 1 (a master and its children), not {depth}"
            )),
            _ => None,
        }
    }
}

impl fmt::Display for AlgorithmSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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

/// Runs `algorithm` to `depth` on `tree` on the machine `config`: the root value found and the
/// machine's statistics.
pub fn run_algorithm(
    algorithm: AlgorithmSpec,
    tree: &SyntheticTree,
    depth: u32,
    progressive: bool,
    config: MachineConfig,
) -> Result<(Option<Value>, RunStats), SchemeError> {
    fn go<'t, S: Scheme<'t, SyntheticTree>>(
        scheme: &S,
        tree: &'t SyntheticTree,
        config: MachineConfig,
    ) -> Result<(Option<Value>, RunStats), SchemeError> {
        let run = run_scheme(scheme, tree, config)?;
        Ok((run.root_value, run.stats))
    }
    match algorithm {
        AlgorithmSpec::Pmws => go(&PmwsScheme(PmwsConfig { depth, progressive }), tree, config),
        AlgorithmSpec::TreeSplit { update } => {
            go(&TreeSplit(TreeSplitConfig { depth, update }), tree, config)
        }
    }
}
