//! Principal variation splitting on a processor tree of length 1: `pmws` (paper Fig. 4).
//!
//! Two roles, as message-passing state machines:
//!
//! - the **master** follows the first path (the candidate principal variation) down to the
//!   horizon; then, at each PV node from the bottom up, it hands the remaining moves one at a time
//!   to idle children (a 4-byte inter-node message: next move and bound) and also searches moves
//!   itself ("the master is never idle, since it spawns itself as a child"); a child's value comes
//!   back in a 4-byte inter-node message that interrupts the master, whose handler gives that
//!   child the next move. When every move of a PV node is done, its value backs up one level and
//!   the next set of alternatives is split. With progressive deepening, iterations run to depth
//!   1, 2, …, d; between iterations the master sorts the root moves by the values it got and sends
//!   every child the inter-iteration message (4w + 2iw bytes, Table I);
//! - a **child** runs `child_pvs` on each move it receives: a zero-window search around the bound,
//!   re-searched with (value, +∞) on a fail-high, then returns the value; a child that found a
//!   better line also sends it as an inter-level message (2 bytes per ply from the leaf).
//!
//! In Parabelle the children also walked the first path so that a 4-byte message could name a
//! move of a position they already had; in the simulation the work message carries the position
//! and is charged its 4 bytes, and the children's redundant walk (which is never on the critical
//! path) is not simulated: they wait, idle, for their first move.

use crate::search::pvs::Pvs;
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, Program, Search, Step, Work};
use std::collections::VecDeque;

/// Options of a pmws search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmwsConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Iterate from depth 1 to d, sorting the root moves between iterations.
    pub progressive: bool,
}

/// The messages of pmws, with their Table I types and sizes.
#[derive(Clone, Debug)]
pub enum PmwsMsg<N> {
    /// Master to child: search successor `slot` of the current PV node with this bound.
    Work {
        /// The successor to search (the position itself; see the module doc).
        node: N,
        /// The PV node's best value so far: the child searches a zero window around it.
        bound: Value,
        /// Plies left to search below `node`.
        depth: u32,
        /// The successor's index among the PV node's moves.
        slot: u32,
    },
    /// Child to master: the value of successor `slot` (PV node's view).
    Result {
        /// The successor's value from the PV node's view (after the re-search, if it failed high).
        value: Value,
        /// The index the successor had in the [`PmwsMsg::Work`] message.
        slot: u32,
    },
    /// Child to master: the better line it found, `plies` long.
    Line {
        /// The line's length in plies, from the successor to the leaf (2 bytes each).
        plies: u32,
    },
    /// Master to child between iterations: sorted root moves and refutation table.
    Iteration {
        /// The number of root moves w.
        width: u32,
        /// The iteration just finished i (its depth, from 1), which sizes the refutation table.
        iteration: u32,
    },
}

impl<N> Message for PmwsMsg<N> {
    fn kind(&self) -> MsgKind {
        match self {
            PmwsMsg::Work { .. } | PmwsMsg::Result { .. } => MsgKind::InterNode,
            PmwsMsg::Line { .. } => MsgKind::InterLevel,
            PmwsMsg::Iteration { .. } => MsgKind::InterIteration,
        }
    }
    fn bytes(&self) -> u64 {
        match *self {
            PmwsMsg::Work { .. } | PmwsMsg::Result { .. } => 4,
            PmwsMsg::Line { plies } => 2 * plies as u64,
            PmwsMsg::Iteration { width, iteration } => {
                let (w, i) = (width as u64, iteration as u64);
                4 * w + 2 * i * w
            }
        }
    }
}

/// Results of computations, handed back when their time has passed.
#[derive(Clone, Copy, Debug)]
pub enum PmwsOut {
    /// The master generated the moves of the PV node on top of its stack.
    Generated,
    /// The master evaluated the node it descended into (a leaf): its value.
    Leaf(Value),
    /// The master finished its own `child_pvs` of successor `slot`.
    Own {
        /// The successor's index among the PV node's moves.
        slot: u32,
        /// Its value from the PV node's view.
        value: Value,
    },
    /// A child finished the move it was given.
    Child {
        /// The successor's index among the PV node's moves, as the work message gave it.
        slot: u32,
        /// Its value from the PV node's view.
        value: Value,
        /// The zero-window search failed high and was re-searched: the child found a better
        /// line and reports it in a [`PmwsMsg::Line`].
        failed_high: bool,
        /// The length of that line in plies (the successor's depth plus one).
        plies: u32,
    },
}

/// The search a pmws processor runs on a successor of a PV node (the child's part of Fig. 4):
/// a zero-window search around the bound, re-searched with (value, +∞) on a fail-high.
pub struct PmwsSearch<'t, T: GameTree> {
    tree: &'t T,
    node: T::Node,
    bound: Value,
    depth: u32,
    slot: u32,
    /// The master's own search (else a child's).
    own: bool,
    /// The fail-high value, once the re-search has started.
    failed_high: Option<Value>,
    pvs: Pvs<'t, T>,
}

impl<'t, T: GameTree> PmwsSearch<'t, T> {
    fn new(tree: &'t T, node: T::Node, bound: Value, depth: u32, slot: u32, own: bool) -> Self {
        let pvs = Pvs::new(tree, node.clone(), -bound - 1, -bound, depth);
        PmwsSearch {
            tree,
            node,
            bound,
            depth,
            slot,
            own,
            failed_high: None,
            pvs,
        }
    }
}

impl<T: GameTree> Search for PmwsSearch<'_, T> {
    type Out = PmwsOut;
    fn step(&mut self) -> Step<PmwsOut> {
        loop {
            let value = match self.pvs.step() {
                Step::Interior => return Step::Interior,
                Step::Leaf { quiescence } => return Step::Leaf { quiescence },
                Step::Probe => return Step::Probe,
                Step::Done(v) => -v,
            };
            let failed_high = if self.failed_high.is_some() {
                true
            } else if value > self.bound {
                // Fail-high: re-search with (value, +INF) from the PV node's view.
                self.failed_high = Some(value);
                self.pvs = Pvs::new(self.tree, self.node.clone(), -INF, -value, self.depth);
                continue;
            } else {
                false
            };
            return Step::Done(if self.own {
                PmwsOut::Own {
                    slot: self.slot,
                    value,
                }
            } else {
                PmwsOut::Child {
                    slot: self.slot,
                    value,
                    failed_high,
                    plies: self.depth + 1,
                }
            });
        }
    }
}

struct PvNode<N, M> {
    node: N,
    moves: M,
    depth: u32,
    width: usize,
    /// Next successor to hand out.
    next: usize,
    /// Successors handed to children and not yet returned.
    outstanding: usize,
    score: Value,
    values: Vec<Value>,
}

/// The master's state (see the module doc).
pub struct Master<'t, T: GameTree> {
    tree: &'t T,
    config: PmwsConfig,
    iteration: u32,
    children: Vec<ProcId>,
    idle: VecDeque<ProcId>,
    root_order: Vec<usize>,
    pv: Vec<PvNode<T::Node, T::Moves>>,
    own_busy: bool,
    iteration_values: Vec<Value>,
    result: Option<Value>,
    finished_at: Option<SimTime>,
}

/// A child's state: it only reacts to messages.
pub struct Child<'t, T: GameTree> {
    tree: &'t T,
    parent: ProcId,
}

/// A pmws role on one processor.
pub enum Pmws<'t, T: GameTree> {
    /// Processor 0: walks the PV, splits its nodes' successors and searches some itself.
    Master(Master<'t, T>),
    /// Every other processor: searches the successors it is sent.
    Child(Child<'t, T>),
}

/// The roles for a processor tree of length 1 with `processors` processors (master first).
pub fn pmws_roles<T: GameTree>(
    tree: &T,
    processors: usize,
    config: PmwsConfig,
) -> Vec<Pmws<'_, T>> {
    assert!(processors >= 1 && config.depth >= 1);
    let children: Vec<ProcId> = (1..processors as u32).map(ProcId).collect();
    let root_width = tree.moves(&tree.root()).len();
    let mut roles = vec![Pmws::Master(Master {
        tree,
        config,
        iteration: 0,
        idle: children.iter().copied().collect(),
        children,
        root_order: (0..root_width).collect(),
        pv: Vec::new(),
        own_busy: false,
        iteration_values: Vec::new(),
        result: None,
        finished_at: None,
    })];
    for _ in 1..processors {
        roles.push(Pmws::Child(Child {
            tree,
            parent: ProcId::MASTER,
        }));
    }
    roles
}

/// pmws as a [`crate::Scheme`]: the roles on a processor tree of depth 1 (a master and its
/// children; the master also searches, as its own first child).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmwsScheme(pub PmwsConfig);

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for PmwsScheme {
    type Role = Pmws<'t, T>;
    fn name(&self) -> String {
        "pmws".into()
    }
    fn deploy(
        &self,
        tree: &'t T,
        ptree: &sim_hw::ProcessorTree,
    ) -> Result<Vec<Pmws<'t, T>>, String> {
        if ptree.depth() > 1 {
            return Err(format!(
                "pmws runs on a processor tree of depth 1 (a master and its children), not depth {}",
                ptree.depth()
            ));
        }
        if self.0.depth == 0 {
            return Err("pmws needs a search depth of at least 1".into());
        }
        Ok(pmws_roles(tree, ptree.len(), self.0))
    }
    fn root_value(&self, roles: &[Pmws<'t, T>]) -> Option<Value> {
        roles.first().and_then(|r| r.root_value())
    }
}

impl<T: GameTree> Pmws<'_, T> {
    /// The root value, once the master has finished.
    pub fn root_value(&self) -> Option<Value> {
        match self {
            Pmws::Master(m) => m.result,
            Pmws::Child(_) => None,
        }
    }
    /// The root value of each iteration (progressive deepening), master only.
    pub fn iteration_values(&self) -> &[Value] {
        match self {
            Pmws::Master(m) => &m.iteration_values,
            Pmws::Child(_) => &[],
        }
    }
    /// When the master had the final value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            Pmws::Master(m) => m.finished_at,
            Pmws::Child(_) => None,
        }
    }
}

type PCx<'a, 't, T> = Cx<'a, Pmws<'t, T>>;

impl<'t, T: GameTree> Master<'t, T> {
    fn begin_iteration(&mut self, cx: &mut PCx<'_, 't, T>) {
        self.iteration = if self.config.progressive {
            self.iteration + 1
        } else {
            self.config.depth
        };
        self.descend(self.tree.root(), self.iteration, cx);
    }

    /// All processors' first path: generate a PV node (cost k), or evaluate a leaf (cost e).
    fn descend(&mut self, node: T::Node, depth: u32, cx: &mut PCx<'_, 't, T>) {
        let moves = (depth > 0).then(|| self.tree.moves(&node));
        let costs = *cx.costs();
        let Some(moves) = moves.filter(|m| !m.is_empty()) else {
            let v = self.tree.evaluate(&node).value;
            let mut work = Work {
                time: costs.e,
                ..Default::default()
            };
            work.nodes.leaves = 1;
            work.nodes.leaf_ns = costs.e.as_nanos();
            cx.compute(work, PmwsOut::Leaf(v));
            return;
        };
        let width = moves.len();
        let mut work = Work {
            time: costs.k,
            ..Default::default()
        };
        work.nodes.interior = 1;
        self.pv.push(PvNode {
            node,
            moves,
            depth,
            width,
            next: 0,
            outstanding: 0,
            score: -crate::INF,
            values: vec![-crate::INF; width],
        });
        cx.compute(work, PmwsOut::Generated);
    }

    /// Successor `slot` of the PV node on top (the root's moves follow the sorted order).
    fn successor(&self, slot: usize) -> T::Node {
        let top = self.pv.last().expect("a PV node");
        let i = if self.pv.len() == 1 {
            self.root_order[slot]
        } else {
            slot
        };
        self.tree.play(&top.node, top.moves.get(i))
    }

    /// The first successor of the PV node on top came back with `own_value` (its own view).
    fn first_value(&mut self, own_value: Value, cx: &mut PCx<'_, 't, T>) {
        match self.pv.last_mut() {
            None => self.finish_iteration(own_value, Vec::new(), cx),
            Some(top) => {
                top.score = -own_value;
                top.values[0] = -own_value;
                top.next = 1;
                self.split(cx);
            }
        }
    }

    fn record(&mut self, slot: u32, value: Value) {
        let top = self.pv.last_mut().expect("a PV node");
        top.values[slot as usize] = value;
        top.score = top.score.max(value);
    }

    /// Hands the remaining successors to idle children, then takes one itself.
    fn split(&mut self, cx: &mut PCx<'_, 't, T>) {
        loop {
            let top = self.pv.last().expect("a PV node");
            if top.next >= top.width {
                break;
            }
            let Some(j) = self.idle.pop_front() else {
                break;
            };
            let slot = top.next;
            let (bound, depth) = (top.score, top.depth - 1);
            let node = self.successor(slot);
            let top = self.pv.last_mut().expect("a PV node");
            top.next += 1;
            top.outstanding += 1;
            cx.send(
                j,
                PmwsMsg::Work {
                    node,
                    bound,
                    depth,
                    slot: slot as u32,
                },
            );
        }
        let top = self.pv.last().expect("a PV node");
        if !self.own_busy && top.next < top.width {
            let slot = top.next;
            let (bound, depth) = (top.score, top.depth - 1);
            let node = self.successor(slot);
            self.pv.last_mut().expect("a PV node").next += 1;
            self.own_busy = true;
            cx.search_isolated(PmwsSearch::new(
                self.tree,
                node,
                bound,
                depth,
                slot as u32,
                true,
            ));
        }
        self.check_done(cx);
    }

    /// A PV node is done when every successor has been searched: back up one level.
    fn check_done(&mut self, cx: &mut PCx<'_, 't, T>) {
        let top = self.pv.last().expect("a PV node");
        if self.own_busy || top.outstanding > 0 || top.next < top.width {
            return;
        }
        let done = self.pv.pop().expect("a PV node");
        cx.mark(format!(
            "PV node at ply {} done (iteration {})",
            self.pv.len(),
            self.iteration
        ));
        if self.pv.is_empty() {
            self.finish_iteration(done.score, done.values, cx);
        } else {
            self.first_value(done.score, cx);
        }
    }

    fn finish_iteration(&mut self, value: Value, root_values: Vec<Value>, cx: &mut PCx<'_, 't, T>) {
        self.iteration_values.push(value);
        if self.iteration < self.config.depth {
            // sort(posn): best first by the values this iteration returned (stable).
            let mut order: Vec<(usize, Value)> = self
                .root_order
                .iter()
                .zip(root_values)
                .map(|(&m, v)| (m, v))
                .collect();
            order.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            self.root_order = order.into_iter().map(|(m, _)| m).collect();
            let width = self.root_order.len() as u32;
            for &j in &self.children {
                cx.send(
                    j,
                    PmwsMsg::Iteration {
                        width,
                        iteration: self.iteration,
                    },
                );
            }
            cx.mark(format!("iteration {} done", self.iteration));
            self.begin_iteration(cx);
        } else {
            self.result = Some(value);
            self.finished_at = Some(cx.now());
            cx.mark("search done");
        }
    }
}

impl<'t, T: GameTree> Program for Pmws<'t, T> {
    type Msg = PmwsMsg<T::Node>;
    type Out = PmwsOut;
    type Search = PmwsSearch<'t, T>;

    fn start(&mut self, cx: &mut PCx<'_, 't, T>) {
        if let Pmws::Master(m) = self {
            m.begin_iteration(cx);
        }
    }

    fn on_message(&mut self, from: ProcId, msg: PmwsMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match (self, msg) {
            (
                Pmws::Child(c),
                PmwsMsg::Work {
                    node,
                    bound,
                    depth,
                    slot,
                },
            ) => {
                cx.search_isolated(PmwsSearch::new(c.tree, node, bound, depth, slot, false));
            }
            (Pmws::Child(_), PmwsMsg::Iteration { .. }) => {}
            (Pmws::Master(m), PmwsMsg::Result { value, slot }) => {
                let Some(top) = m.pv.last_mut().filter(|t| t.outstanding > 0) else {
                    cx.fail("pmws: a result arrived with no successor outstanding");
                    return;
                };
                top.outstanding -= 1;
                m.record(slot, value);
                m.idle.push_back(from);
                m.split(cx);
            }
            (Pmws::Master(_), PmwsMsg::Line { .. }) => {}
            (_, msg) => cx.fail(format!("pmws: unexpected message {:?}", msg.kind())),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            Pmws::Master(m) if m.result.is_none() => Some(format!(
                "the root value (iteration {}, {} successors handed to children and not returned)",
                m.iteration,
                m.pv.last().map_or(0, |t| t.outstanding)
            )),
            _ => None,
        }
    }

    fn on_done(&mut self, out: PmwsOut, cx: &mut PCx<'_, 't, T>) {
        match (self, out) {
            (Pmws::Master(m), PmwsOut::Generated) => {
                let first = m.successor(0);
                let depth = m.pv.last().expect("a PV node").depth - 1;
                m.descend(first, depth, cx);
            }
            (Pmws::Master(m), PmwsOut::Leaf(v)) => m.first_value(v, cx),
            (Pmws::Master(m), PmwsOut::Own { slot, value }) => {
                m.own_busy = false;
                m.record(slot, value);
                m.split(cx);
            }
            (
                Pmws::Child(c),
                PmwsOut::Child {
                    slot,
                    value,
                    failed_high,
                    plies,
                },
            ) => {
                cx.send(c.parent, PmwsMsg::Result { value, slot });
                if failed_high {
                    cx.send(c.parent, PmwsMsg::Line { plies });
                }
            }
            (_, out) => cx.fail(format!("pmws: unexpected completion {out:?}")),
        }
    }
}
