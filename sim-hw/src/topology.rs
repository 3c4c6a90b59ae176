//! Processor trees (paper Fig. 2; Campbell's thesis, section 4) as graphs.

use crate::network::PoolNetwork;
use petgraph::graph::{DiGraph, NodeIndex};
use sim_core::ProcId;

/// How a processor tree was described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Marsland & Popowich (section III, Fig. 2): fanout `f` and length `L`; a parent is also its
    /// own first child, so `f` processors share the work at each level and there are `f^L`.
    Paper {
        /// Processors sharing each level (a parent and its `f - 1` remote children).
        fanout: u32,
        /// Levels below the root.
        length: u32,
    },
    /// Campbell (thesis section 4, after Fishburn): a root processor, `width` slaves under every
    /// non-terminal processor, `depth` levels of slaves; the `width^depth` terminal processors
    /// search, the others distribute work.
    Campbell {
        /// Levels of slaves below the root processor.
        depth: u32,
        /// Slaves of each non-terminal processor.
        width: u32,
    },
}

/// A processor tree: processors numbered breadth-first from the root processor (0), each
/// connected to its parent and its children by a line.
///
/// ```
/// use sim_hw::ProcessorTree;
/// use sim_core::ProcId;
/// let t = ProcessorTree::new(4, 1);
/// assert_eq!(t.len(), 4);
/// assert_eq!(t.children(ProcId(0)), vec![ProcId(1), ProcId(2), ProcId(3)]);
/// assert_eq!(t.parent(ProcId(2)), Some(ProcId(0)));
/// assert_eq!(ProcessorTree::new(3, 2).len(), 9);
/// // Campbell's (depth 2, width 2): 1 + 2 + 4 processors, 4 of them terminal.
/// let c = ProcessorTree::campbell(2, 2);
/// assert_eq!((c.len(), c.depth(), c.width(), c.terminals().len()), (7, 2, 2, 4));
/// assert_eq!(c.children(ProcId(1)), vec![ProcId(3), ProcId(4)]);
/// assert_eq!(c.level(ProcId(6)), 2);
/// ```
#[derive(Clone, Debug)]
pub struct ProcessorTree {
    shape: Shape,
    graph: DiGraph<ProcId, ()>,
    levels: Vec<usize>,
}

impl ProcessorTree {
    /// The paper's tree of fanout `f >= 1` and length `L` (a tree of length 0, or fanout 1, is a
    /// uniprocessor).
    pub fn new(fanout: u32, length: u32) -> Self {
        assert!(fanout >= 1, "processor tree fanout must be at least 1");
        let mut t = Self::empty(Shape::Paper { fanout, length });
        let mut level = vec![NodeIndex::new(0)];
        for depth in 1..=length as usize {
            let mut next = Vec::new();
            for &parent in &level {
                // The parent is its own first child: it continues at the next level.
                next.push(parent);
                for _ in 1..fanout {
                    next.push(t.add_child(parent, depth));
                }
            }
            level = next;
        }
        t
    }

    /// Campbell's tree: `width` slaves under each non-terminal processor, `depth` levels below the
    /// root processor. Depth 0 (or width 0) is a uniprocessor.
    pub fn campbell(depth: u32, width: u32) -> Self {
        let mut t = Self::empty(Shape::Campbell { depth, width });
        let mut level = vec![NodeIndex::new(0)];
        for d in 1..=depth as usize {
            let mut next = Vec::new();
            for &parent in &level {
                for _ in 0..width {
                    next.push(t.add_child(parent, d));
                }
            }
            level = next;
        }
        t
    }

    fn empty(shape: Shape) -> Self {
        let mut graph = DiGraph::new();
        graph.add_node(ProcId(0));
        ProcessorTree {
            shape,
            graph,
            levels: vec![0],
        }
    }

    fn add_child(&mut self, parent: NodeIndex, level: usize) -> NodeIndex {
        let id = ProcId(self.graph.node_count() as u32);
        let child = self.graph.add_node(id);
        self.graph.add_edge(parent, child, ());
        self.levels.push(level);
        child
    }

    /// How the tree was described.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// The paper's fanout: processors sharing each level (1 + the root's children for
    /// Campbell's shape).
    pub fn fanout(&self) -> u32 {
        match self.shape {
            Shape::Paper { fanout, .. } => fanout,
            Shape::Campbell { .. } => self.children(ProcId::MASTER).len() as u32 + 1,
        }
    }
    /// The paper's length (levels below the root).
    pub fn length(&self) -> u32 {
        match self.shape {
            Shape::Paper { length, .. } => length,
            Shape::Campbell { depth, .. } => depth,
        }
    }
    /// Levels of processors below the root processor (0 for a uniprocessor).
    pub fn depth(&self) -> u32 {
        self.levels.iter().copied().max().unwrap_or(0) as u32
    }
    /// The most children any processor has (0 for a uniprocessor).
    pub fn width(&self) -> u32 {
        (0..self.len())
            .map(|i| self.graph.neighbors(NodeIndex::new(i)).count())
            .max()
            .unwrap_or(0) as u32
    }
    /// Number of processors.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }
    /// Never true: a tree has at least its root processor.
    pub fn is_empty(&self) -> bool {
        self.graph.node_count() == 0
    }
    /// Remote children of `p` (not counting `p` itself), in numbering order.
    pub fn children(&self, p: ProcId) -> Vec<ProcId> {
        let mut c: Vec<ProcId> = self
            .graph
            .neighbors(NodeIndex::new(p.index()))
            .map(|n| self.graph[n])
            .collect();
        c.sort();
        c
    }
    /// The parent of `p` (None for the root processor).
    pub fn parent(&self, p: ProcId) -> Option<ProcId> {
        self.graph
            .neighbors_directed(NodeIndex::new(p.index()), petgraph::Direction::Incoming)
            .next()
            .map(|n| self.graph[n])
    }
    /// The level of `p`: 0 for the root processor, 1 for its children, …
    pub fn level(&self, p: ProcId) -> usize {
        self.levels[p.index()]
    }
    /// The processors without children, which search (Campbell's terminal processors).
    pub fn terminals(&self) -> Vec<ProcId> {
        (0..self.len() as u32)
            .map(ProcId)
            .filter(|&p| self.children(p).is_empty())
            .collect()
    }
    /// The parent–child links, parent first.
    pub fn edges(&self) -> Vec<(ProcId, ProcId)> {
        self.graph
            .edge_indices()
            .filter_map(|e| self.graph.edge_endpoints(e))
            .map(|(a, b)| (self.graph[a], self.graph[b]))
            .collect()
    }
    /// The underlying graph.
    pub fn graph(&self) -> &DiGraph<ProcId, ()> {
        &self.graph
    }
}

/// What a machine's processors are and how they are joined: a processor tree (its lines, one
/// per parent–child pair, the only routes) or a pool of processors over a [`PoolNetwork`], where
/// every processor can address every other.
///
/// ```
/// use sim_hw::{Platform, PoolNetwork, ProcessorTree};
/// assert_eq!(Platform::Tree(ProcessorTree::new(4, 1)).len(), 4);
/// let pool = Platform::pool(16, PoolNetwork::FullyConnected);
/// assert_eq!((pool.len(), pool.tree().is_none()), (16, true));
/// ```
#[derive(Clone, Debug)]
pub enum Platform {
    /// A processor tree with a line per parent–child pair.
    Tree(ProcessorTree),
    /// `processors` processors over `network`.
    Pool {
        /// How many (numbered 0 to `processors - 1`).
        processors: usize,
        /// How they are joined.
        network: PoolNetwork,
    },
    /// A processor tree laid over a pool network: the scheme sees the tree (each processor's
    /// parent and children, the read policies of hosts and boards), but its messages travel the
    /// network's routes (a shared bus, lines between every pair that talks, hypercube or mesh
    /// hops). This is how a tree scheme (pmws, tree-splitting, APHID's master and slaves) runs
    /// on the machines of the newer schemes. On `FullyConnected` lines it is the processor tree
    /// itself, with a line per parent–child pair, but for RTS/CTS: a pool's lines hold a message
    /// for its receiver in both directions, a tree's only from parent to child, so with RTS/CTS
    /// a child's message to a host that polls or reads when idle waits for it to be ready to
    /// read (with no RTS/CTS, or hosts that read on interrupt, the runs are the same).
    Overlay {
        /// The scheme's processor tree: its processors are the pool's.
        tree: ProcessorTree,
        /// How they are joined.
        network: PoolNetwork,
    },
}

impl Platform {
    /// A pool of `processors` processors over `network`.
    pub fn pool(processors: usize, network: PoolNetwork) -> Self {
        Platform::Pool {
            processors,
            network,
        }
    }
    /// Number of processors.
    pub fn len(&self) -> usize {
        match self {
            Platform::Tree(t) => t.len(),
            Platform::Pool { processors, .. } => *processors,
            Platform::Overlay { tree, .. } => tree.len(),
        }
    }
    /// Never true for a machine that can run (a tree has its root processor; a pool is checked
    /// to have one when the machine is built).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The processor tree the scheme sees, if there is one (a tree, or a tree over a pool).
    pub fn tree(&self) -> Option<&ProcessorTree> {
        match self {
            Platform::Tree(t) | Platform::Overlay { tree: t, .. } => Some(t),
            Platform::Pool { .. } => None,
        }
    }
    /// The pool network messages travel, if not a processor tree's own lines.
    pub fn pool_network(&self) -> Option<&PoolNetwork> {
        match self {
            Platform::Tree(_) => None,
            Platform::Pool { network, .. } | Platform::Overlay { network, .. } => Some(network),
        }
    }
}

impl From<ProcessorTree> for Platform {
    fn from(t: ProcessorTree) -> Self {
        Platform::Tree(t)
    }
}
