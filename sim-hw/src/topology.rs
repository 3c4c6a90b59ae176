//! Processor trees (paper Fig. 2) as graphs.

use petgraph::graph::{DiGraph, NodeIndex};
use sim_core::ProcId;

/// A processor tree of fanout `f` and length `L` (paper section III, Fig. 2).
///
/// Following the paper, a parent is also its own first child ("the master is never idle, since
/// it spawns itself as a child"), so fanout `f` means `f` processors share the work at each level:
/// a parent and its `f - 1` remote children. A tree of length `L` therefore has `f^L` processors,
/// and `f - 1` links leave each parent. Processors are numbered breadth-first, the master is 0.
///
/// ```
/// use sim_hw::ProcessorTree;
/// use sim_core::ProcId;
/// let t = ProcessorTree::new(4, 1);
/// assert_eq!(t.len(), 4);
/// assert_eq!(t.children(ProcId(0)), vec![ProcId(1), ProcId(2), ProcId(3)]);
/// assert_eq!(t.parent(ProcId(2)), Some(ProcId(0)));
/// assert_eq!(ProcessorTree::new(3, 2).len(), 9);
/// ```
#[derive(Clone, Debug)]
pub struct ProcessorTree {
    fanout: u32,
    length: u32,
    graph: DiGraph<ProcId, ()>,
}

impl ProcessorTree {
    /// `fanout >= 1`; `length >= 1` (a tree of length 0 is a uniprocessor: use fanout 1).
    pub fn new(fanout: u32, length: u32) -> Self {
        assert!(fanout >= 1, "processor tree fanout must be at least 1");
        let mut graph = DiGraph::new();
        let root = graph.add_node(ProcId(0));
        let mut level = vec![root];
        for _ in 0..length {
            let mut next = Vec::new();
            for &parent in &level {
                // The parent is its own first child: it continues at the next level.
                next.push(parent);
                for _ in 1..fanout {
                    let id = ProcId(graph.node_count() as u32);
                    let child = graph.add_node(id);
                    graph.add_edge(parent, child, ());
                    next.push(child);
                }
            }
            level = next;
        }
        ProcessorTree {
            fanout,
            length,
            graph,
        }
    }

    pub fn fanout(&self) -> u32 {
        self.fanout
    }
    pub fn length(&self) -> u32 {
        self.length
    }
    /// Number of processors.
    pub fn len(&self) -> usize {
        self.graph.node_count()
    }
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
    pub fn parent(&self, p: ProcId) -> Option<ProcId> {
        self.graph
            .neighbors_directed(NodeIndex::new(p.index()), petgraph::Direction::Incoming)
            .next()
            .map(|n| self.graph[n])
    }
    /// The parent–child links, parent first.
    pub fn edges(&self) -> Vec<(ProcId, ProcId)> {
        self.graph
            .edge_indices()
            .filter_map(|e| self.graph.edge_endpoints(e))
            .map(|(a, b)| (self.graph[a], self.graph[b]))
            .collect()
    }
    pub fn graph(&self) -> &DiGraph<ProcId, ()> {
        &self.graph
    }
}
