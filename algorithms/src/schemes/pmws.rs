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
//! The master is generic over a [`Flavor`]: what a child's search is, what its messages carry
//! and which tables it keeps. pmws itself is the [`Plain`] flavour; Parabelle
//! ([`crate::schemes::parabelle`]) is this master with the refutation and transposition tables.
//!
//! **Section IX's first suggestion** ([`Plain::broadcast`], scheme [`PmwsIxScheme`], `pmws_broadcast`
//! in results; off in plain pmws): "if the new alpha bound were made available to all
//! processors as soon as it was determined, rather than when a child processor has finished its
//! subtree search, more cutoffs could be obtained". When a returned value raises a PV node's
//! score, the master sends every busy child the new bound (on a bus, one broadcast frame to all
//! when two or more are busy) (BOUND, 4 bytes inter-node: the bound
//! and the PV node's ply, by which a child recognises a bound meant for work it no longer has),
//! and narrows its own search the same way. A zero-window test cannot be moved to a higher bound
//! soundly while it runs (its window would have to widen), so a child keeps the newest bound and
//! uses it when the test ends: a fail-high no higher than the newest bound is tested again
//! around that bound instead of re-searched; a re-search under way has its window narrowed
//! (`lower_beta`, the SequentialSearch contract) and may then return an upper bound at most the
//! newest bound, which is all the PV node needs of a move that is not its best. Searches that
//! can be reached this way run as ordinary (not isolated) searches.
//!
//! **Section IX's second suggestion** ([`Plain::parallel_research`], `pmws_research`): "the
//! allocation of more than one processor for searching new principal variations". A child (or
//! the master) whose zero-window test of a successor fails high hands the fail-high value back
//! as a lower bound instead of re-searching alone (a leaf's value is exact and goes back as
//! usual). The PV node's score rises to that bound (the node is worth at least that), no more
//! tests are handed out, and when the node's outstanding tests are back the master re-searches
//! the best candidate with every processor: it descends into it as a new PV node, as it
//! descends the first path but with the window PVS's re-search `-pvs(posn[i], -beta, -value)`
//! gives it (Fig. 1): the candidate's bound is inherited down the new PV, tests are made
//! against it, and a PV node whose score reaches its beta is cut off. The value that comes back
//! is exact (a re-search that fails low proves the candidate worth its bound). Candidates that
//! failed high against an older score are tested again against the new one. On one processor
//! this is PVS node for node.
//!
//! **Section IX's third suggestion** ([`Plain::defer`], `pmws_research_defer`; implies the second):
//! "deferring new principal variation searches until there is more than one possible new
//! candidate". After the first fail-high, tests go on being handed out against the raised
//! score; the re-search starts when a second candidate fails high, or when every other
//! successor is done. M&P note that a lone candidate needs no re-search "since it is clearly
//! the best move, although the true score would not be available"; gtsim re-searches it
//! then anyway, because every scheme must return the root's exact value (so the saving is
//! only in the tests done against the candidate's bound in the meantime).
//!
//! In Parabelle the children also walked the first path so that a 4-byte message could name a
//! move of a position they already had; in the simulation the work message carries the position
//! and is charged its 4 bytes, and the children's redundant walk (which is never on the critical
//! path) is not simulated: they wait, idle, for their first move.

use crate::schemes::adapter::result_of;
use crate::schemes::protocol::{interior_work, leaf_work};
use crate::schemes::scheme::DeployError;
use crate::search::pvs::Pvs;
use crate::search::sequential::SequentialSearch;
use crate::trees::{Eval, GameTree, MoveList, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{CostModel, Cx, Message, Program, Search, Step, Work};
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
        /// The PV node's best value so far, or its alpha if higher (section IX's re-search): the
        /// child searches a zero window around it.
        bound: Value,
        /// Plies left to search below `node`.
        depth: u32,
        /// The successor's index among the PV node's moves.
        slot: u32,
        /// The PV node's ply (0 = the root); travels in spare bits, charged nothing.
        ply: u32,
    },
    /// Master to a busy child (section IX broadcast): the PV node at `ply` has a new best value.
    Bound {
        /// The PV node's ply, to recognise a bound for work the child no longer has.
        ply: u32,
        /// The new bound (the PV node's view).
        bound: Value,
    },
    /// Child to master: the value of successor `slot` (PV node's view).
    Result {
        /// The successor's value from the PV node's view (after the re-search, if it failed high).
        value: Value,
        /// The index the successor had in the [`PmwsMsg::Work`] message.
        slot: u32,
        /// Section IX's parallel re-search: the value is a fail-high's lower bound (a spare
        /// bit, charged nothing).
        lower: bool,
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
            PmwsMsg::Work { .. } | PmwsMsg::Result { .. } | PmwsMsg::Bound { .. } => {
                MsgKind::InterNode
            }
            PmwsMsg::Line { .. } => MsgKind::InterLevel,
            PmwsMsg::Iteration { .. } => MsgKind::InterIteration,
        }
    }
    fn bytes(&self) -> u64 {
        match *self {
            PmwsMsg::Work { .. } | PmwsMsg::Result { .. } | PmwsMsg::Bound { .. } => 4,
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
        /// A fail-high handed back as a lower bound (section IX's parallel re-search).
        lower: bool,
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
        /// A fail-high handed back as a lower bound (section IX's parallel re-search).
        lower: bool,
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
    /// The newest bound of the PV node (section IX broadcast), at least `bound`.
    latest: Value,
    /// Section IX's parallel re-search: a fail-high is handed back as a lower bound, not
    /// re-searched here.
    no_research: bool,
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
            latest: bound,
            no_research: false,
            pvs,
        }
    }

    /// Hands a fail-high back as a lower bound instead of re-searching it (section IX's
    /// parallel re-search; a leaf's value is exact and reported as such).
    pub fn without_research(mut self) -> Self {
        self.no_research = true;
        self
    }

    /// The PV node's best value rose to `bound` (section IX broadcast): a re-search under way
    /// narrows its window; a zero-window test keeps it for when it ends.
    pub fn raise_bound(&mut self, bound: Value) {
        if bound <= self.latest {
            return;
        }
        self.latest = bound;
        if self.failed_high.is_some() {
            self.pvs.lower_beta(-bound);
        }
    }
}

impl<T: GameTree> Search for PmwsSearch<'_, T> {
    type Out = PmwsOut;

    fn fork(&self) -> Option<Self> {
        Some(PmwsSearch {
            tree: self.tree,
            node: self.node.clone(),
            pvs: self.pvs.fork()?,
            ..*self
        })
    }
    fn step(&mut self) -> Step<PmwsOut> {
        loop {
            let value = match result_of(self.pvs.step()) {
                Ok(v) => -v,
                Err(step) => return step,
            };
            if let Some(out) = self.searched(value) {
                return Step::Done(out);
            }
        }
    }

    fn run_to_end(&mut self) -> Option<(PmwsOut, sim_hw::Tally)> {
        let mut tally = sim_hw::Tally::default();
        loop {
            let (v, t) = self.pvs.run_to_end()?;
            tally.interior += t.interior;
            tally.leaves += t.leaves;
            tally.quiescence += t.quiescence;
            if let Some(out) = self.searched(-v) {
                return Some((out, tally));
            }
        }
    }
}

impl<T: GameTree> PmwsSearch<'_, T> {
    /// The search under way ended with `value` (the PV node's view): the result, or None after
    /// starting the next search (a test around a newer bound, or the re-search of a fail-high).
    fn searched(&mut self, value: Value) -> Option<PmwsOut> {
        let failed_high = if self.failed_high.is_some() {
            true
        } else if value > self.bound && value <= self.latest {
            // Section IX broadcast: better than the bound it was tested against, but no
            // better than the newest one is known to be: test again around the newest.
            self.bound = self.latest;
            let b = self.bound;
            self.pvs = Pvs::new(self.tree, self.node.clone(), -b - 1, -b, self.depth);
            return None;
        } else if value > self.bound && self.no_research {
            // Section IX's parallel re-search: the master re-searches it with every
            // processor; this value is a lower bound. A leaf's value (at the horizon, or a
            // position without moves) is exact: no second evaluation.
            let leaf = self.depth == 0 || self.tree.moves(&self.node).is_empty();
            return Some(self.out(value, true, !leaf));
        } else if value > self.bound {
            // Fail-high: re-search with (value, +INF) from the PV node's view.
            self.failed_high = Some(value);
            self.pvs = Pvs::new(self.tree, self.node.clone(), -INF, -value, self.depth);
            return None;
        } else {
            false
        };
        Some(self.out(value, failed_high, false))
    }

    fn out(&self, value: Value, failed_high: bool, lower: bool) -> PmwsOut {
        if self.own {
            PmwsOut::Own {
                slot: self.slot,
                value,
                lower,
            }
        } else {
            PmwsOut::Child {
                slot: self.slot,
                value,
                failed_high,
                plies: self.depth + 1,
                lower,
            }
        }
    }
}

/// What a flavour of pmws's master adds to it: the role it is part of, what a successor's
/// search returns besides its value, the order of a PV node's moves, the messages to its
/// children, its own search, and what it keeps between iterations.
pub trait Flavor<'t, T: GameTree + 't>: Sized {
    /// The role enum the master is a variant of.
    type Role: Program;
    /// The best line below a successor, as its search hands it back (pmws: none).
    type Line: Default;
    /// The scheme's name in failure messages.
    const NAME: &'static str;
    /// A root without moves (a leaf) ends the search at once; else every iteration evaluates it.
    const LEAF_ROOT_ENDS: bool;
    /// The master generated the moves of the PV node on top of its stack.
    fn generated() -> <Self::Role as Program>::Out;
    /// The master evaluated the horizon node of its walk: its value.
    fn leaf(value: Value) -> <Self::Role as Program>::Out;
    /// The work of evaluating the horizon node of the master's walk.
    fn leaf_work(costs: &CostModel, eval: &Eval) -> Work;
    /// The order (move indices) of the moves of a PV node `ply` plies below the root, with
    /// `width` moves, when the best root move so far is `best_root_move`.
    fn pv_order(&self, ply: usize, width: usize, best_root_move: u32) -> Vec<u32>;
    /// The work message that hands `successor` to a child.
    fn work(&self, successor: Successor<T::Node>) -> <Self::Role as Program>::Msg;
    /// Starts the master's own search of `successor` (`children`: it has children, whose
    /// messages may reach it while it searches).
    fn search_own(
        &self,
        tree: &'t T,
        successor: Successor<T::Node>,
        children: bool,
        cx: &mut Cx<Self::Role>,
    );
    /// The line through move `first` followed by `rest`.
    fn line_through(first: u32, rest: Self::Line) -> Self::Line;
    /// An iteration ended with the root's moves in `order` and each one's best `lines` (slot
    /// order).
    fn end_iteration(&mut self, order: &[u32], lines: &mut [Self::Line]);
    /// The message to every child between iterations: `width` root moves, after `iteration`.
    fn iteration(&self, width: u32, iteration: u32) -> <Self::Role as Program>::Msg;
    /// The best value of the PV node at `ply` rose to `bound` while the children `busy` (and,
    /// with `own`, the master itself) search its successors: section IX's broadcast, if the
    /// flavour does it (none by default).
    ///
    /// Section IX's parallel re-search: Some(defer) if fail-highs come back as lower bounds
    /// and are re-searched by every processor (deferred until a second one, with `defer`); None
    /// by default.
    fn research(&self) -> Option<bool> {
        None
    }
    /// See [`Flavor::research`]'s neighbour: section IX's broadcast.
    fn raised(
        &self,
        _ply: u32,
        _bound: Value,
        _busy: &[ProcId],
        _own: bool,
        _cx: &mut Cx<Self::Role>,
    ) {
    }
}

/// A successor of the PV node on top of the master's stack, handed to a child or searched by the
/// master itself.
pub struct Successor<N> {
    /// The position.
    pub node: N,
    /// The PV node's best value so far, or its alpha if higher (section IX's re-search): the
    /// successor is searched with a zero window around it.
    pub bound: Value,
    /// Plies left below `node`.
    pub depth: u32,
    /// Its index among the PV node's moves (in the node's order).
    pub slot: u32,
    /// The PV node's ply (0 = the root).
    pub ply: u32,
    /// Its move's index in tree order when the PV node is the root (None below the root).
    pub root_move: Option<u32>,
    /// The iteration (its depth, from 1).
    pub iteration: u32,
}

/// A PV node on the master's stack.
pub struct PvNode<N, M, L> {
    node: N,
    moves: M,
    /// Move indices in the order the successors are searched (slot order).
    order: Vec<u32>,
    depth: u32,
    /// Next successor to hand out.
    next: usize,
    /// Successors handed to children and not yet returned.
    outstanding: usize,
    score: Value,
    /// The node's window (its own view), as PVS would search it: (-∞, +∞) on the first path;
    /// a successor re-searched by every processor (section IX) and the first path below it
    /// inherit the PV node's bound, as `-pvs(posn[i], -beta, -value)` does in Fig. 1. Tests are
    /// made against the higher of the score and `alpha`, and a score reaching `beta` cuts the
    /// node off (its value is then a bound, which is all its parent needs).
    alpha: Value,
    beta: Value,
    best_slot: usize,
    values: Vec<Value>,
    lines: Vec<L>,
    /// Section IX's parallel re-search: successors that failed high, with their lower bounds.
    candidates: Vec<(usize, Value)>,
    /// Successors to test again against the score (failed high against an older one).
    retest: Vec<usize>,
    /// The successor every processor is re-searching as a new PV.
    researching: Option<usize>,
}

impl<N, M, L> PvNode<N, M, L> {
    /// The bound its successors are tested against: the score, or alpha if higher.
    fn bound(&self) -> Value {
        self.score.max(self.alpha)
    }

    /// Whether the score reached beta: no more successors need searching.
    fn cut_off(&self) -> bool {
        self.score >= self.beta
    }
}

/// The master's state (see the module doc), with its flavour `F`.
pub struct Master<'t, T: GameTree + 't, F: Flavor<'t, T>> {
    tree: &'t T,
    config: PmwsConfig,
    iteration: u32,
    children: Vec<ProcId>,
    idle: VecDeque<ProcId>,
    /// The root's moves (tree order indices), best first after each iteration.
    root_order: Vec<u32>,
    pv: Vec<PvNode<T::Node, T::Moves, F::Line>>,
    own_busy: bool,
    iteration_values: Vec<Value>,
    /// The root value and the root move (tree order) that has it.
    pub(crate) result: Option<(Value, u32)>,
    finished_at: Option<SimTime>,
    flavor: F,
}

/// The master of a flavour reads as the flavour too (Parabelle's master is pmws's master plus
/// its tables).
impl<'t, T: GameTree + 't, F: Flavor<'t, T>> std::ops::Deref for Master<'t, T, F> {
    type Target = F;
    fn deref(&self) -> &F {
        &self.flavor
    }
}

impl<'t, T: GameTree + 't, F: Flavor<'t, T>> std::ops::DerefMut for Master<'t, T, F> {
    fn deref_mut(&mut self) -> &mut F {
        &mut self.flavor
    }
}

/// pmws's own flavour: no tables; a child's search is [`PmwsSearch`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plain {
    /// Section IX's first suggestion: a PV node's new best value goes to every busy child at
    /// once (see the module doc). Off in plain pmws.
    pub broadcast: bool,
    /// Section IX's second suggestion: a successor that fails high is re-searched by every
    /// processor, as a new PV (see the module doc). Off in plain pmws.
    pub parallel_research: bool,
    /// Section IX's third suggestion: that re-search waits until a second successor fails
    /// high, or until every other successor is done (implies the parallel re-search). Off in
    /// plain pmws.
    pub defer: bool,
}

impl Plain {
    /// Whether fail-highs are re-searched by every processor.
    fn researches(&self) -> bool {
        self.parallel_research || self.defer
    }
}

/// A child's state: it only reacts to messages.
pub struct Child<'t, T: GameTree> {
    tree: &'t T,
    parent: ProcId,
    /// Section IX broadcast: the ply of the PV node whose successor it searches, if any.
    broadcast: bool,
    no_research: bool,
    working_at: Option<u32>,
}

/// A pmws role on one processor.
pub enum Pmws<'t, T: GameTree> {
    /// Processor 0: walks the PV, splits its nodes' successors and searches some itself.
    Master(Master<'t, T, Plain>),
    /// Every other processor: searches the successors it is sent.
    Child(Child<'t, T>),
}

impl<'t, T: GameTree + 't> Flavor<'t, T> for Plain {
    type Role = Pmws<'t, T>;
    type Line = ();
    const NAME: &'static str = "pmws";
    const LEAF_ROOT_ENDS: bool = false;
    fn generated() -> PmwsOut {
        PmwsOut::Generated
    }
    fn leaf(value: Value) -> PmwsOut {
        PmwsOut::Leaf(value)
    }
    fn leaf_work(costs: &CostModel, _: &Eval) -> Work {
        leaf_work(costs.e, 0)
    }
    fn pv_order(&self, _: usize, width: usize, _: u32) -> Vec<u32> {
        (0..width as u32).collect()
    }
    fn work(&self, s: Successor<T::Node>) -> PmwsMsg<T::Node> {
        PmwsMsg::Work {
            node: s.node,
            bound: s.bound,
            depth: s.depth,
            slot: s.slot,
            ply: s.ply,
        }
    }
    fn search_own(&self, tree: &'t T, s: Successor<T::Node>, _: bool, cx: &mut PCx<'_, 't, T>) {
        let mut search = PmwsSearch::new(tree, s.node, s.bound, s.depth, s.slot, true);
        if self.researches() {
            search = search.without_research();
        }
        if self.broadcast {
            cx.search(search);
        } else {
            cx.search_isolated(search);
        }
    }
    fn research(&self) -> Option<bool> {
        self.researches().then_some(self.defer)
    }
    fn raised(&self, ply: u32, bound: Value, busy: &[ProcId], own: bool, cx: &mut PCx<'_, 't, T>) {
        if !self.broadcast {
            return;
        }
        // On a bus a broadcast is one frame that every processor receives (section IX's
        // Ethernet): one message for two busy children or more; the idle ones read and ignore
        // it. Elsewhere a message per busy child.
        let bus = matches!(
            cx.platform().pool_network(),
            Some(sim_hw::PoolNetwork::Bus(_))
        );
        if bus && busy.len() > 1 {
            cx.broadcast(PmwsMsg::Bound { ply, bound });
        } else {
            for &j in busy {
                cx.send(j, PmwsMsg::Bound { ply, bound });
            }
        }
        if own {
            if let Some(search) = cx.search_mut() {
                search.raise_bound(bound);
            }
        }
    }
    fn line_through(_: u32, _: ()) {}
    fn end_iteration(&mut self, _: &[u32], _: &mut [()]) {}
    fn iteration(&self, width: u32, iteration: u32) -> PmwsMsg<T::Node> {
        PmwsMsg::Iteration { width, iteration }
    }
}

/// The roles for a processor tree of length 1 with `processors` processors (master first).
pub fn pmws_roles<T: GameTree>(
    tree: &T,
    processors: usize,
    config: PmwsConfig,
) -> Vec<Pmws<'_, T>> {
    pmws_roles_with(tree, processors, config, Plain::default())
}

/// The roles of pmws with the flavour's options (section IX's broadcast).
pub fn pmws_roles_with<T: GameTree>(
    tree: &T,
    processors: usize,
    config: PmwsConfig,
    plain: Plain,
) -> Vec<Pmws<'_, T>> {
    assert!(processors >= 1 && config.depth >= 1);
    let mut roles = vec![Pmws::Master(Master::new(tree, processors, config, plain))];
    for _ in 1..processors {
        roles.push(Pmws::Child(Child {
            tree,
            parent: ProcId::MASTER,
            broadcast: plain.broadcast,
            no_research: plain.researches(),
            working_at: None,
        }));
    }
    roles
}

/// pmws with section IX's options (see the module doc). Its name in results: `pmws` and
/// `_broadcast`, `_research`, `_defer` for each option on (`pmws_research_defer`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmwsIxScheme(pub PmwsConfig, pub Plain);

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for PmwsIxScheme {
    type Role = Pmws<'t, T>;
    fn name(&self) -> String {
        let mut name = String::from("pmws");
        if self.1.broadcast {
            name.push_str("_broadcast");
        }
        if self.1.researches() {
            name.push_str("_research");
        }
        if self.1.defer {
            name.push_str("_defer");
        }
        name
    }
    fn deploy(
        &self,
        tree: &'t T,
        ptree: &sim_hw::ProcessorTree,
    ) -> Result<Vec<Pmws<'t, T>>, DeployError> {
        check_depth_one("pmws", ptree, self.0.depth)?;
        Ok(pmws_roles_with(tree, ptree.len(), self.0, self.1))
    }
    fn root_value(&self, roles: &[Pmws<'t, T>]) -> Option<Value> {
        roles.first().and_then(|r| r.root_value())
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
}

/// pmws as a [`crate::Scheme`]: the roles on a processor tree of depth 1 (a master and its
/// children; the master also searches, as its own first child).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmwsScheme(pub PmwsConfig);

/// Why a scheme of a master and its children (pmws, Parabelle) cannot run on `ptree` to `depth`.
pub(crate) fn check_depth_one(
    scheme: &str,
    ptree: &sim_hw::ProcessorTree,
    depth: u32,
) -> Result<(), DeployError> {
    let scheme = scheme.to_string();
    if ptree.depth() > 1 {
        return Err(DeployError::MasterAndChildren {
            scheme,
            depth: ptree.depth(),
        });
    }
    if depth == 0 {
        return Err(DeployError::NoDepth { scheme });
    }
    Ok(())
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for PmwsScheme {
    type Role = Pmws<'t, T>;
    fn name(&self) -> String {
        "pmws".into()
    }
    fn deploy(
        &self,
        tree: &'t T,
        ptree: &sim_hw::ProcessorTree,
    ) -> Result<Vec<Pmws<'t, T>>, DeployError> {
        check_depth_one("pmws", ptree, self.0.depth)?;
        Ok(pmws_roles(tree, ptree.len(), self.0))
    }
    fn root_value(&self, roles: &[Pmws<'t, T>]) -> Option<Value> {
        roles.first().and_then(|r| r.root_value())
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
}

impl<T: GameTree> Pmws<'_, T> {
    /// The root value, once the master has finished.
    pub fn root_value(&self) -> Option<Value> {
        match self {
            Pmws::Master(m) => m.root_value(),
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
            Pmws::Master(m) => m.finished_at(),
            Pmws::Child(_) => None,
        }
    }
}

type PCx<'a, 't, T> = Cx<'a, Pmws<'t, T>>;
type FCx<'a, 't, T, F> = Cx<'a, <F as Flavor<'t, T>>::Role>;

impl<'t, T: GameTree + 't, F: Flavor<'t, T>> Master<'t, T, F> {
    /// The master of a processor tree of length 1 with `processors` processors.
    pub fn new(tree: &'t T, processors: usize, config: PmwsConfig, flavor: F) -> Self {
        let children: Vec<ProcId> = (1..processors as u32).map(ProcId).collect();
        let root_width = tree.moves(&tree.root()).len() as u32;
        Master {
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
            flavor,
        }
    }

    /// The root value, once the search has finished.
    pub fn root_value(&self) -> Option<Value> {
        self.result.map(|r| r.0)
    }

    /// When the master had the final value.
    pub fn finished_at(&self) -> Option<SimTime> {
        self.finished_at
    }

    /// The iteration under way (its depth, from 1).
    pub fn iteration(&self) -> u32 {
        self.iteration
    }

    /// Starts the next iteration (the search, without progressive deepening).
    pub fn begin_iteration(&mut self, cx: &mut FCx<'_, 't, T, F>) {
        self.iteration = if self.config.progressive {
            self.iteration + 1
        } else {
            self.config.depth
        };
        self.descend(self.tree.root(), self.iteration, (-INF, INF), cx);
    }

    /// The window of a successor of the PV node on top (its own view): `(-beta, -bound)`.
    fn successor_window(&self) -> (Value, Value) {
        let top = self.pv.last().expect("a PV node");
        (-top.beta, -top.bound())
    }

    /// All processors' first path: generate a PV node (cost k), or evaluate a leaf (cost e).
    fn descend(
        &mut self,
        node: T::Node,
        depth: u32,
        (alpha, beta): (Value, Value),
        cx: &mut FCx<'_, 't, T, F>,
    ) {
        let moves = (depth > 0).then(|| self.tree.moves(&node));
        let costs = *cx.costs();
        let Some(moves) = moves.filter(|m| !m.is_empty()) else {
            let eval = self.tree.evaluate(&node);
            cx.compute(F::leaf_work(&costs, &eval), F::leaf(eval.value));
            return;
        };
        let width = moves.len();
        let order = if self.pv.is_empty() {
            self.root_order.clone()
        } else {
            self.flavor
                .pv_order(self.pv.len(), width, self.root_order[0])
        };
        self.pv.push(PvNode {
            node,
            moves,
            order,
            depth,
            next: 0,
            outstanding: 0,
            score: -INF,
            alpha,
            beta,
            best_slot: 0,
            values: vec![-INF; width],
            lines: (0..width).map(|_| F::Line::default()).collect(),
            candidates: Vec::new(),
            retest: Vec::new(),
            researching: None,
        });
        cx.compute(interior_work(&costs), F::generated());
    }

    /// The moves of the PV node on top are generated: descend into its first successor.
    pub fn generated(&mut self, cx: &mut FCx<'_, 't, T, F>) {
        let top = self.pv.last().expect("a PV node");
        let first = self
            .tree
            .play(&top.node, top.moves.get(top.order[0] as usize));
        let depth = top.depth - 1;
        let window = self.successor_window();
        self.descend(first, depth, window, cx);
    }

    /// The first successor of the PV node on top came back with `own_value` (its own view)
    /// and the best line below it.
    pub fn first_value(&mut self, own_value: Value, line: F::Line, cx: &mut FCx<'_, 't, T, F>) {
        match self.pv.last_mut() {
            None => self.finish_iteration(own_value, None, cx),
            Some(top) if top.researching.is_some() => {
                // Every processor's re-search of a successor that failed high: its value. A
                // re-search that failed low at the score (the candidate's lower bound) proves
                // the successor worth exactly that bound.
                let slot = top.researching.take().expect("checked") as u32;
                let value = (-own_value).max(top.score);
                self.record(slot, value, line, cx);
                self.split(cx);
            }
            Some(top) => {
                top.score = -own_value;
                top.values[0] = -own_value;
                top.lines[0] = line;
                top.best_slot = 0;
                top.next = 1;
                self.split(cx);
            }
        }
    }

    fn record(&mut self, slot: u32, value: Value, line: F::Line, cx: &mut FCx<'_, 't, T, F>) {
        let ply = (self.pv.len() - 1) as u32;
        let top = self.pv.last_mut().expect("a PV node");
        let slot = slot as usize;
        top.values[slot] = value;
        top.lines[slot] = line;
        if value > top.score {
            top.score = value;
            top.best_slot = slot;
            // The bound the tests are made against rose (below alpha it did not); a node cut off
            // needs nothing more of the tests under way.
            if value > top.alpha && !top.cut_off() && (top.outstanding > 0 || self.own_busy) {
                let busy: Vec<ProcId> = self
                    .children
                    .iter()
                    .copied()
                    .filter(|c| !self.idle.contains(c))
                    .collect();
                self.flavor.raised(ply, value, &busy, self.own_busy, cx);
            }
        }
    }

    /// Child `from` returned successor `slot`'s value (the PV node's view) and best line.
    pub fn child_result(
        &mut self,
        from: ProcId,
        slot: u32,
        value: Value,
        line: F::Line,
        cx: &mut FCx<'_, 't, T, F>,
    ) {
        if !self.answered(from, cx) {
            return;
        }
        self.record(slot, value, line, cx);
        self.split(cx);
    }

    /// Child `from` answered for a successor of the current PV node: one fewer outstanding, and
    /// the child is idle again. False (and the run fails) if none was outstanding.
    fn answered(&mut self, from: ProcId, cx: &mut FCx<'_, 't, T, F>) -> bool {
        let Some(top) = self.pv.last_mut().filter(|t| t.outstanding > 0) else {
            cx.fail(format!(
                "{}: a result arrived with no successor outstanding",
                F::NAME
            ));
            return false;
        };
        top.outstanding -= 1;
        self.idle.push_back(from);
        true
    }

    /// Section IX's parallel re-search: child `from`'s test of successor `slot` failed high
    /// with the lower bound `value` (the PV node's view).
    pub fn child_candidate(
        &mut self,
        from: ProcId,
        slot: u32,
        value: Value,
        cx: &mut FCx<'_, 't, T, F>,
    ) {
        if !self.answered(from, cx) {
            return;
        }
        self.candidate(slot, value, cx);
    }

    /// Section IX's parallel re-search: the master's own test failed high with `value`.
    pub fn own_candidate(&mut self, slot: u32, value: Value, cx: &mut FCx<'_, 't, T, F>) {
        self.own_busy = false;
        self.candidate(slot, value, cx);
    }

    /// A successor is better than the score by at least `lower`: the score rises to it (the
    /// node's value is at least that), and the successor waits for its re-search.
    fn candidate(&mut self, slot: u32, lower: Value, cx: &mut FCx<'_, 't, T, F>) {
        self.record(slot, lower, F::Line::default(), cx);
        let top = self.pv.last_mut().expect("a PV node");
        top.candidates.push((slot as usize, lower));
        self.split(cx);
    }

    /// Whether the top PV node hands out no more tests now: cut off (its score reached beta),
    /// or with a candidate waiting for its re-search (two, with deferral).
    fn holding(&self) -> bool {
        let top = self.pv.last().expect("a PV node");
        if top.cut_off() {
            return true;
        }
        match self.flavor.research() {
            None => false,
            Some(defer) => top.researching.is_some() || top.candidates.len() > usize::from(defer),
        }
    }

    /// Starts every processor's re-search of the best candidate when the top PV node is quiet
    /// (nothing outstanding) and holding, or has nothing left to test; the other candidates
    /// are tested again against the new score afterwards.
    fn maybe_research(&mut self, cx: &mut FCx<'_, 't, T, F>) -> bool {
        let top = self.pv.last().expect("a PV node");
        if top.candidates.is_empty() || top.researching.is_some() || top.cut_off() {
            return false;
        }
        let exhausted = top.next >= top.order.len() && top.retest.is_empty();
        if self.own_busy || top.outstanding > 0 || !(self.holding() || exhausted) {
            return false;
        }
        let top = self.pv.last_mut().expect("a PV node");
        // The best lower bound first (ties: the earlier successor).
        let k = (0..top.candidates.len())
            .max_by_key(|&k| (top.candidates[k].1, std::cmp::Reverse(top.candidates[k].0)))
            .expect("a candidate");
        let (slot, _) = top.candidates.remove(k);
        let others: Vec<usize> = top.candidates.drain(..).map(|c| c.0).collect();
        top.retest.extend(others);
        top.researching = Some(slot);
        let node = self
            .tree
            .play(&top.node, top.moves.get(top.order[slot] as usize));
        let depth = top.depth - 1;
        cx.mark(format!(
            "every processor re-searches successor {slot} at ply {}",
            self.pv.len() - 1
        ));
        let window = self.successor_window();
        self.descend(node, depth, window, cx);
        true
    }

    /// The master's own search of successor `slot` ended with `value` and its best line.
    pub fn own_result(
        &mut self,
        slot: u32,
        value: Value,
        line: F::Line,
        cx: &mut FCx<'_, 't, T, F>,
    ) {
        self.own_busy = false;
        self.record(slot, value, line, cx);
        self.split(cx);
    }

    /// The next successor of the PV node on top, taken to be searched.
    fn take_successor(&mut self) -> Successor<T::Node> {
        let at_root = self.pv.len() == 1;
        let ply = (self.pv.len() - 1) as u32;
        let top = self.pv.last_mut().expect("a PV node");
        let slot = match top.retest.pop() {
            Some(slot) => slot,
            None => {
                top.next += 1;
                top.next - 1
            }
        };
        let m = top.order[slot];
        Successor {
            ply,
            node: self.tree.play(&top.node, top.moves.get(m as usize)),
            bound: top.bound(),
            depth: top.depth - 1,
            slot: slot as u32,
            root_move: at_root.then_some(m),
            iteration: self.iteration,
        }
    }

    /// Hands the remaining successors to idle children, then takes one itself.
    fn split(&mut self, cx: &mut FCx<'_, 't, T, F>) {
        loop {
            let top = self.pv.last().expect("a PV node");
            if (top.next >= top.order.len() && top.retest.is_empty()) || self.holding() {
                break;
            }
            let Some(j) = self.idle.pop_front() else {
                break;
            };
            let successor = self.take_successor();
            self.pv.last_mut().expect("a PV node").outstanding += 1;
            cx.send(j, self.flavor.work(successor));
        }
        let top = self.pv.last().expect("a PV node");
        let more = top.next < top.order.len() || !top.retest.is_empty();
        if !self.own_busy && more && !self.holding() {
            let successor = self.take_successor();
            self.own_busy = true;
            let children = !self.children.is_empty();
            self.flavor.search_own(self.tree, successor, children, cx);
        }
        self.check_done(cx);
    }

    /// A PV node is done when every successor has been searched, or, cut off, when the searches
    /// under way are back: back up one level.
    fn check_done(&mut self, cx: &mut FCx<'_, 't, T, F>) {
        if self.maybe_research(cx) {
            return;
        }
        let top = self.pv.last().expect("a PV node");
        // Cut off: done once the searches under way are back (candidates need no re-search).
        let left = !top.cut_off()
            && (top.next < top.order.len() || !top.retest.is_empty() || !top.candidates.is_empty());
        if self.own_busy || top.outstanding > 0 || top.researching.is_some() || left {
            return;
        }
        let mut done = self.pv.pop().expect("a PV node");
        cx.mark(format!(
            "PV node at ply {} done (iteration {})",
            self.pv.len(),
            self.iteration
        ));
        if self.pv.is_empty() {
            // The root keeps every move's line, the best one's too: it is the refutation
            // table's principal variation, which the next iteration's first path follows.
            self.finish_iteration(done.score, Some(done), cx);
        } else {
            let best = done.best_slot;
            let line = F::line_through(done.order[best], std::mem::take(&mut done.lines[best]));
            self.first_value(done.score, line, cx);
        }
    }

    fn finish_iteration(
        &mut self,
        value: Value,
        root: Option<PvNode<T::Node, T::Moves, F::Line>>,
        cx: &mut FCx<'_, 't, T, F>,
    ) {
        self.iteration_values.push(value);
        let (values, best, more) = match root {
            Some(mut root) => {
                self.flavor.end_iteration(&root.order, &mut root.lines);
                (root.values, root.order[root.best_slot], true)
            }
            // The root itself is a leaf (it has no moves).
            None => (Vec::new(), 0, !F::LEAF_ROOT_ENDS),
        };
        if more && self.iteration < self.config.depth {
            // sort(posn): best first by the values this iteration returned (stable).
            let mut order: Vec<(u32, Value)> =
                self.root_order.iter().copied().zip(values).collect();
            order.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            self.root_order = order.into_iter().map(|(m, _)| m).collect();
            let width = self.root_order.len() as u32;
            for &j in &self.children {
                cx.send(j, self.flavor.iteration(width, self.iteration));
            }
            cx.mark(format!("iteration {} done", self.iteration));
            self.begin_iteration(cx);
        } else {
            self.result = Some((value, best));
            self.finished_at = Some(cx.now());
            cx.mark("search done");
        }
    }

    /// What the master waits for, while it has no root value.
    pub fn pending(&self) -> Option<String> {
        self.result.is_none().then(|| {
            format!(
                "the root value (iteration {}, {} successors handed to children and not returned)",
                self.iteration,
                self.pv.last().map_or(0, |t| t.outstanding)
            )
        })
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
                    ply,
                },
            ) => {
                let mut search = PmwsSearch::new(c.tree, node, bound, depth, slot, false);
                if c.no_research {
                    search = search.without_research();
                }
                if c.broadcast {
                    c.working_at = Some(ply);
                    cx.search(search);
                } else {
                    cx.search_isolated(search);
                }
            }
            (Pmws::Child(c), PmwsMsg::Bound { ply, bound }) => {
                if c.working_at == Some(ply) {
                    if let Some(search) = cx.search_mut() {
                        search.raise_bound(bound);
                    }
                }
            }
            (Pmws::Child(_), PmwsMsg::Iteration { .. }) => {}
            (Pmws::Master(m), PmwsMsg::Result { value, slot, lower }) => {
                if lower {
                    m.child_candidate(from, slot, value, cx)
                } else {
                    m.child_result(from, slot, value, (), cx)
                }
            }
            (Pmws::Master(_), PmwsMsg::Line { .. }) => {}
            (_, msg) => cx.fail(format!("pmws: unexpected message {:?}", msg.kind())),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            Pmws::Master(m) => m.pending(),
            Pmws::Child(_) => None,
        }
    }

    fn on_done(&mut self, out: PmwsOut, cx: &mut PCx<'_, 't, T>) {
        match (self, out) {
            (Pmws::Master(m), PmwsOut::Generated) => m.generated(cx),
            (Pmws::Master(m), PmwsOut::Leaf(v)) => m.first_value(v, (), cx),
            (Pmws::Master(m), PmwsOut::Own { slot, value, lower }) => {
                if lower {
                    m.own_candidate(slot, value, cx)
                } else {
                    m.own_result(slot, value, (), cx)
                }
            }
            (
                Pmws::Child(c),
                PmwsOut::Child {
                    slot,
                    value,
                    failed_high,
                    plies,
                    lower,
                },
            ) => {
                c.working_at = None;
                cx.send(c.parent, PmwsMsg::Result { value, slot, lower });
                if failed_high {
                    cx.send(c.parent, PmwsMsg::Line { plies });
                }
            }
            (_, out) => cx.fail(format!("pmws: unexpected completion {out:?}")),
        }
    }
}
