//! The machine of a run: the processor tree a scenario names, the machine built from the
//! hardware section, and what one run of an algorithm produced ([`AlgorithmRun`]). The
//! algorithms themselves are in the scheme catalogue ([`crate::catalogue`]).

#[cfg(doc)]
use algorithms::Scheme;
use algorithms::{Figures, Value};
use sim_core::RunStats;
use sim_hw::{
    CostModel, LinkSpec, MachineConfig, Platform, PoolNetwork, ProcessorTree, ReadPolicies, Routing,
};

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
    /// The number of processors ([`PTree::build`]'s length), without building the tree; it
    /// saturates at `u64::MAX`.
    pub fn processors(self) -> u64 {
        match self {
            PTree::Paper { fanout, length } => (fanout as u64).saturating_pow(length),
            PTree::Campbell { depth, width } => {
                // 1 + w + w² + … + w^depth.
                let (mut total, mut level) = (1u64, 1u64);
                for _ in 0..depth {
                    level = level.saturating_mul(width as u64);
                    total = total.saturating_add(level);
                }
                total
            }
        }
    }
    /// The tree in words, for messages: `f = 4` or `(depth 2, width 4)`.
    pub fn describe(self) -> String {
        match self {
            PTree::Paper { fanout, .. } => format!("f = {fanout}"),
            PTree::Campbell { depth, width } => format!("(depth {depth}, width {width})"),
        }
    }
    /// The machine a run had, in words: `processor tree f = 4`, or for a pool scheme (whose
    /// processors the paper's tree of that fanout counts) `a pool of 4 processors`.
    pub fn machine_words(self, pool: bool) -> String {
        match self {
            PTree::Paper { fanout, .. } if pool => {
                format!("a pool of {}", processors_words(fanout))
            }
            _ => format!("processor tree {}", self.describe()),
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

/// `1 processor`, `4 processors`.
pub fn processors_words(n: u32) -> String {
    format!("{n} processor{}", if n == 1 { "" } else { "s" })
}

/// The pool network of a scenario (`hardware.network` other than `Tree`), for any processor
/// count of its sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkPlan {
    /// The same network at every processor count.
    Fixed(PoolNetwork),
    /// A mesh (or torus) as nearly square as each processor count allows, width ≥ height.
    SquareMesh {
        /// Wrap-around lines.
        torus: bool,
        /// How intermediate processors forward.
        routing: Routing,
    },
}

impl NetworkPlan {
    /// The network of a machine of `processors` processors.
    pub fn at(self, processors: usize) -> PoolNetwork {
        match self {
            NetworkPlan::Fixed(n) => n,
            NetworkPlan::SquareMesh { torus, routing } => {
                let (width, height) = square(processors.max(1) as u32);
                PoolNetwork::Mesh {
                    width,
                    height,
                    torus,
                    routing,
                }
            }
        }
    }
    /// The network in a few words, for reports: `fully connected lines`, `hypercube
    /// (software forwarding, 300 µs)`, `bus (1250000 bytes/s, …)`.
    pub fn describe(self) -> String {
        let routing = |r: Routing| {
            format!(
                "{} forwarding, {} per hop",
                match r.forwarding {
                    sim_hw::Forwarding::Software => "software",
                    sim_hw::Forwarding::Hardware => "hardware",
                },
                crate::util::duration_words(r.cost)
            )
        };
        match self {
            NetworkPlan::Fixed(PoolNetwork::FullyConnected) => {
                "point-to-point lines between every pair that talks".into()
            }
            NetworkPlan::Fixed(PoolNetwork::Hypercube(r)) => format!("hypercube ({})", routing(r)),
            NetworkPlan::Fixed(PoolNetwork::Mesh {
                width,
                height,
                torus,
                routing: r,
            }) => format!(
                "{width} × {height} {} ({})",
                if torus { "torus" } else { "mesh" },
                routing(r)
            ),
            NetworkPlan::SquareMesh { torus, routing: r } => format!(
                "nearly square {} ({})",
                if torus { "torus" } else { "mesh" },
                routing(r)
            ),
            NetworkPlan::Fixed(PoolNetwork::Bus(b)) => format!(
                "shared bus ({}, {} header bytes, {}-byte minimum frame)",
                crate::util::rate_words(b.rate),
                b.header_bytes,
                b.min_frame_bytes
            ),
        }
    }
}

/// The most nearly square `width × height = n`, width ≥ height.
pub fn square(n: u32) -> (u32, u32) {
    let mut h = (n as f64).sqrt() as u32;
    while h > 1 && !n.is_multiple_of(h) {
        h -= 1;
    }
    let h = h.max(1);
    (n / h, h)
}

/// The platform a run uses: `ptree`'s own lines without a pool network; on one, a pool of
/// as many processors for a pool scheme, else `ptree` laid over it. One processor has no
/// network (the uniprocessor baseline is the same whatever the network: a fixed mesh or a
/// hypercube need not fit it).
pub fn platform(ptree: ProcessorTree, network: Option<NetworkPlan>, pool_scheme: bool) -> Platform {
    match network {
        None => Platform::Tree(ptree),
        Some(_) if ptree.len() == 1 => Platform::Tree(ptree),
        Some(n) if pool_scheme => Platform::pool(ptree.len(), n.at(ptree.len())),
        Some(n) => Platform::Overlay {
            network: n.at(ptree.len()),
            tree: ptree,
        },
    }
}

/// The machine a run uses: the plan's costs, lines (a rate per processor count, a link per
/// level) and read policies, on `platform`.
pub fn machine_config(
    platform: Platform,
    costs: CostModel,
    links: &LinkPlan,
    reads: ReadPolicies,
    batching: bool,
) -> MachineConfig {
    let processors = platform.len() as u64;
    let levels = links.levels.iter().map(|l| l.at(processors)).collect();
    let mut config = MachineConfig::on(platform, costs, links.levels[0].at(processors));
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
    /// When the root's value was known, by the scheme's own mark ([`Scheme::answer_at`]);
    /// None for a scheme that marks none.
    pub answer_at: Option<sim_core::SimTime>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pool scheme's run is named by its processor count, a tree scheme's by its tree.
    #[test]
    fn a_pool_run_is_named_by_its_processors_and_a_tree_run_by_its_tree() {
        let four = PTree::Paper {
            fanout: 4,
            length: 1,
        };
        assert_eq!(four.machine_words(true), "a pool of 4 processors");
        assert_eq!(four.machine_words(false), "processor tree f = 4");
        assert_eq!(
            PTree::UNIPROCESSOR.machine_words(true),
            "a pool of 1 processor"
        );
        let campbell = PTree::Campbell { depth: 2, width: 4 };
        assert_eq!(
            campbell.machine_words(false),
            "processor tree (depth 2, width 4)"
        );
    }

    #[test]
    fn processors_counts_what_build_builds() {
        for fanout in 1..=5 {
            for length in 0..=4 {
                let p = PTree::Paper { fanout, length };
                assert_eq!(p.processors(), p.build().len() as u64, "{p:?}");
            }
        }
        for depth in 0..=4 {
            for width in 0..=4 {
                let p = PTree::Campbell { depth, width };
                assert_eq!(p.processors(), p.build().len() as u64, "{p:?}");
            }
        }
        assert_eq!(
            PTree::Paper {
                fanout: 1024,
                length: 64
            }
            .processors(),
            u64::MAX
        );
    }
}
