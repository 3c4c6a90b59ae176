//! Parabelle's search (Marsland & Popowich 1985, sections III, VI and VIII): principal variation
//! splitting (`pmws`, Fig. 4) with progressive deepening, the refutation table and, optionally, a
//! transposition table, global (held by the master, reached by at-node messages) or local (one
//! per processor).
//!
//! **Protocol.** As [`crate::schemes::pmws`]: the master walks the candidate principal variation to the
//! horizon, then splits each PV node's remaining moves, bottom up, among idle children (4-byte
//! inter-node messages) and searches some itself; a child searches its move with a zero window
//! around the PV node's best value and re-searches a fail-high with `(value, +∞)`. Between
//! iterations the master sorts the root moves and sends every child the inter-iteration message
//! (4w + 2iw bytes: the move list and the refutation table).
//!
//! **Refutation table.** For each root move, the best line found below it in the previous
//! iteration (move indices in the tree's move order). A search below root move `r` that is still
//! on `r`'s line tries the line's next move first; the master's walk of the first path follows
//! the best root move's line. Each processor keeps its own copy, brought in line by the
//! inter-iteration message. A child sends the line of every root move it searched, and of every
//! fail-high, to the master in an inter-level message (2 bytes per ply).
//!
//! **Transposition table** ([`TableKind`], [`Storage`]). An entry holds the position's key, the
//! draft (plies searched below it), a fail-soft value with its bound type, the best move and the
//! iteration that stored it. A search probes a node before expanding it (with partial storage,
//! only nodes more than 2 ply from the horizon), uses a deep enough entry for a cutoff and its
//! move first otherwise (after the refutation move), and stores the node's result when it is
//! done (partial storage: only subtrees longer than 2 ply). With [`Storage::AllNodes`] a horizon
//! node is probed too before it is evaluated (an entry that gives a cutoff saves the evaluation)
//! and stored after, with draft 0. **Replacement rule:** one entry per slot, slot = key mod
//! entries; a store replaces the slot's entry if it is empty, holds the same position, was
//! stored in an earlier iteration, or has a draft no greater than the new one.
//! - Local: each processor probes its own table (cost `probe` per probe or store, the search's
//!   [`sim_hw::Step::Probe`]); the master's table has `entries` slots, a child's half as many.
//!   (Table III's one-processor rows are the same for both kinds: the master's table is the same.)
//! - Global: the master's table. The master's own searches probe it directly. A child sends a
//!   6-byte at-node probe, waits (`wait_reply`) for the 6-byte answer, and sends a 12-byte update
//!   after the node is searched. The master serves each in its interrupt handler
//!   (`interrupt`) and charges `probe` for the lookup or store; the answer is sent first (the
//!   machine runs an interrupt service's sends before its computations), so a probe's round trip
//!   is the two transmissions, the handler and two message setups.
//!
//! The moves at principal-variation nodes walked by the master are not probed or stored.

use crate::schemes::pmws::{self, PmwsConfig, Successor};
use crate::schemes::protocol::leaf_work;
use crate::schemes::scheme::{DeployError, Figures};
use crate::search::depth_first::{
    AtLeaf, Call as DfCall, Child as DfChild, DepthFirst, Enter, Event, Flow, Frame as DfFrame,
    LeafStore, Policy,
};
use crate::search::pvs::{pvs_returned, PvsNext, PvsStage};
use crate::trees::{Eval, GameTree, MoveList, Value, INF};
use serde::{Deserialize, Serialize};
use sim_core::{MsgKind, NodeCounts, ProcId, SimTime};
use sim_hw::{CostModel, Cx, Message, Program, Search, Step, Work};
use std::cell::RefCell;
use std::rc::Rc;

/// Where the transposition table lives (section VIII-B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum TableKind {
    /// No transposition table.
    #[default]
    None,
    /// One table held by the master; a child probes it with a 6-byte at-node message before
    /// searching a node, waits (`wait_reply`) for the 6-byte answer, and sends a 12-byte update
    /// after.
    Global,
    /// One table per processor: the master's full size, each child's half of it.
    Local,
}

/// Which subtrees a transposition table stores and probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Storage {
    /// Every subtree.
    #[default]
    All,
    /// Only subtrees longer than 2 ply, probed only more than 2 ply from the horizon.
    Partial,
    /// The paper's partial storage read the other way its words allow: nodes 2 ply from the
    /// horizon too (a subtree of more than 2 levels of nodes, or of more than 2 ply once the
    /// quiescence search below the horizon is counted). Not the shipped reading: it is there to
    /// measure what the reading changes (README, "Where the model and the paper disagree").
    PartialFrom2,
    /// Every node, horizon nodes too: "a table lookup is made upon the initial visit to any tree
    /// node" and Table I's at-node messages "before and after each node in the tree" read as
    /// including the nodes `pvs` evaluates at the horizon (and terminal nodes), each probed
    /// before it is evaluated and its value stored after (draft 0 at the horizon). Interior
    /// nodes as [`Storage::All`]. Not the shipped reading: it is there to measure what the
    /// reading changes (README, "Where the model and the paper disagree").
    AllNodes,
}

impl Storage {
    /// Whether a node `depth` plies from the horizon is probed and stored.
    fn applies(self, depth: u32) -> bool {
        match self {
            Storage::All | Storage::AllNodes => depth >= 1,
            Storage::Partial => depth > 2,
            Storage::PartialFrom2 => depth >= 2,
        }
    }

    /// The paper's storage this one reads (its Table III's `all` or `partial`).
    pub fn in_paper(self) -> Storage {
        match self {
            Storage::All | Storage::AllNodes => Storage::All,
            Storage::Partial | Storage::PartialFrom2 => Storage::Partial,
        }
    }
}

/// A transposition table's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// None, global or local.
    pub kind: TableKind,
    /// All or partial storage.
    pub storage: Storage,
    /// Entries of the full-size table (the global table, and the master's local one): 8192 in
    /// the paper. Children's local tables have half as many.
    pub entries: u32,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig {
            kind: TableKind::None,
            storage: Storage::All,
            entries: 8192,
        }
    }
}

/// Options of a Parabelle search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParabelleConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Iterate from depth 1 to d (the refutation table needs it).
    pub progressive: bool,
    /// The transposition table.
    pub table: TableConfig,
}

/// Counters of a run's transposition-table use, summed over processors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounts {
    /// Probes made (local or global).
    pub probes: u64,
    /// Probes that found an entry for the position.
    pub hits: u64,
    /// Hits whose entry ended the node's search (a cutoff or an exact value).
    pub cutoffs: u64,
    /// Entries stored.
    pub stores: u64,
}

impl TableCounts {
    fn add(&mut self, o: &TableCounts) {
        self.probes += o.probes;
        self.hits += o.hits;
        self.cutoffs += o.cutoffs;
        self.stores += o.stores;
    }
}

/// What a table entry's value says about the position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (the search failed low).
    Upper,
}

/// One transposition-table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's hash key.
    pub key: u64,
    /// Plies searched below the position.
    pub draft: u32,
    /// Its value (side to move), with `bound` saying what it is.
    pub value: Value,
    /// Exact value or bound.
    pub bound: Bound,
    /// Index of the best move in the tree's move order, if any.
    pub best: Option<u32>,
    /// The iteration that stored it (aging for the replacement rule).
    pub iteration: u32,
}

/// A transposition table: `slots` entries, one per slot (see the module doc for the rule).
#[derive(Clone, Debug)]
pub struct Table {
    slots: Vec<Option<Entry>>,
    counts: TableCounts,
}

impl Table {
    /// An empty table of `entries` slots (at least 1).
    pub fn new(entries: u32) -> Self {
        Table {
            slots: vec![None; entries.max(1) as usize],
            counts: TableCounts::default(),
        }
    }
    fn slot(&self, key: u64) -> usize {
        (key % self.slots.len() as u64) as usize
    }
    /// The entry for `key`, if the table holds one.
    pub fn probe(&mut self, key: u64) -> Option<Entry> {
        self.counts.probes += 1;
        let e = self.slots[self.slot(key)].filter(|e| e.key == key);
        if e.is_some() {
            self.counts.hits += 1;
        }
        e
    }
    /// Stores `e` by the replacement rule of the module doc.
    pub fn store(&mut self, e: Entry) {
        self.counts.stores += 1;
        let i = self.slot(e.key);
        let replace = match self.slots[i] {
            None => true,
            Some(old) => old.key == e.key || old.iteration < e.iteration || old.draft <= e.draft,
        };
        if replace {
            self.slots[i] = Some(e);
        }
    }
    /// Probes, hits and stores so far (cutoffs are counted by the searches).
    pub fn counts(&self) -> TableCounts {
        self.counts
    }
}

/// A line of play below a node: move indices in the tree's move order.
pub type Line = Vec<u32>;

/// The refutation table: for each root move (tree order), the best line below it found by the
/// previous iteration.
#[derive(Clone, Debug, Default)]
pub struct Refutations {
    lines: Vec<Rc<Line>>,
    /// The line of a search off every refutation line (shared, empty).
    none: Rc<Line>,
}

impl Refutations {
    fn line(&self, root_move: usize) -> Rc<Line> {
        self.lines
            .as_slice()
            .get(root_move)
            .unwrap_or(&self.none)
            .clone()
    }
}

/// How a search reaches its transposition table.
#[derive(Clone)]
enum Access {
    None,
    /// A table on this processor.
    Own(Rc<RefCell<Table>>),
    /// The master's table, through at-node messages.
    Remote,
}

/// What one step of the table search did.
enum TablePvsStep {
    Interior,
    Leaf(u32),
    /// Probed or stored into its own table.
    Probe,
    /// Needs the master's table: probe `key`, then [`TablePvs::answer`].
    Ask(u64),
    /// Store this entry into the master's table (the search goes on at once).
    Tell(Entry),
    Done(Value, Line),
}

/// What a successor's search and its re-search share: how they reach the transposition table,
/// which nodes they table, the refutation line they follow, and the iteration that stamps their
/// entries.
#[derive(Clone)]
struct Context {
    access: Access,
    storage: Storage,
    line: Rc<Line>,
    iteration: u32,
}

/// What a [`TablePvs`] frame keeps besides the engine's frame (whose `i` is the position in
/// `order`).
#[derive(Clone)]
struct TableFrame {
    /// The order the moves are searched in: the refutation move, the table's best move, then
    /// the others in move order.
    order: Vec<u32>,
    /// The window's alpha when the frame opened (for the stored entry's bound).
    alpha0: Value,
    stage: PvsStage,
    /// The best line below the node so far.
    best: Line,
    key: u64,
}

/// What goes down with a [`TablePvs`] call.
#[derive(Clone, Default)]
struct TableCall {
    /// Where the node's first move is on the refutation line (None: off it).
    on_line: Option<usize>,
    /// The table's answer, once probed (Some(None): probed, nothing found).
    answer: Option<Option<Entry>>,
}

/// The decisions of PVS with tables at a node: a probe before expanding it, the refutation and
/// table moves first, PVS's windows ([`crate::Pvs`]), the best line, a store when it closes.
#[derive(Clone)]
struct TablePolicy {
    ctx: Context,
    /// Table cutoffs since [`TablePvs::step`] last collected them.
    cutoffs: u64,
    /// The key of the leaf about to be evaluated, when leaves are tabled ([`Storage::AllNodes`]).
    leaf_key: Option<u64>,
    /// The entry of the leaf just evaluated, to store at the next step.
    leaf_entry: Option<Entry>,
}

impl<T: GameTree> Policy<T> for TablePolicy {
    type Frame = TableFrame;
    type Call = TableCall;
    type Ret = (Value, Line);
    type Yield = TablePvsStep;

    const TABLES_LEAVES: bool = true;

    fn leaf(&mut self, call: &DfCall<T::Node, TableCall>, value: Value) -> (Value, Line) {
        if let Some(key) = self.leaf_key.take() {
            self.leaf_entry = Some(Entry {
                key,
                draft: call.depth,
                value,
                bound: Bound::Exact,
                best: None,
                iteration: self.ctx.iteration,
            });
        }
        (value, Vec::new())
    }

    fn at_leaf(
        &mut self,
        tree: &T,
        call: &mut DfCall<T::Node, TableCall>,
    ) -> AtLeaf<(Value, Line), TablePvsStep> {
        if self.ctx.storage != Storage::AllNodes || matches!(self.ctx.access, Access::None) {
            return AtLeaf::Evaluate;
        }
        let key = tree.key(&call.node);
        match self.probe(call, key) {
            Some(TablePvsStep::Probe) => return AtLeaf::Probe,
            Some(ask) => return AtLeaf::Yield(ask),
            None => {}
        }
        if let Some(e) = self.cutoff(call) {
            return AtLeaf::Return((e.value, Vec::new()));
        }
        self.leaf_key = Some(key);
        AtLeaf::Evaluate
    }

    fn store_leaf(&mut self) -> Option<LeafStore<TablePvsStep>> {
        let entry = self.leaf_entry.take()?;
        Some(match self.store(entry) {
            TablePvsStep::Probe => LeafStore::Probe,
            tell => LeafStore::Yield(tell),
        })
    }

    fn open(
        &mut self,
        tree: &T,
        call: &mut DfCall<T::Node, TableCall>,
        moves: &T::Moves,
    ) -> Enter<TableFrame, TableCall, (Value, Line), TablePvsStep> {
        // Probe before expanding (the moves are generated, and charged, after).
        let tabled =
            !matches!(self.ctx.access, Access::None) && self.ctx.storage.applies(call.depth);
        let key = tree.key(&call.node);
        if tabled {
            match self.probe(call, key) {
                Some(TablePvsStep::Probe) => return Enter::Probe,
                Some(ask) => return Enter::Yield(ask),
                None => {}
            }
        }
        if let Some(e) = self.cutoff(call) {
            return Enter::Return((e.value, e.best.into_iter().collect()));
        }
        let entry = call.state.answer.flatten();
        let width = moves.len();
        let mut order = Vec::with_capacity(width);
        let refute = call
            .state
            .on_line
            .and_then(|j| self.ctx.line.as_slice().get(j).copied())
            .filter(|&m| (m as usize) < width);
        if let Some(m) = refute {
            order.push(m);
        }
        if let Some(m) = entry
            .and_then(|e| e.best)
            .filter(|&m| (m as usize) < width && Some(m) != refute)
        {
            order.push(m);
        }
        let (a, b) = (order.first().copied(), order.as_slice().get(1).copied());
        order.extend((0..width as u32).filter(|&m| Some(m) != a && Some(m) != b));
        let first = order[0];
        let on_line = call
            .state
            .on_line
            .filter(|_| refute == Some(first))
            .map(|j| j + 1);
        let frame = TableFrame {
            order,
            alpha0: call.alpha,
            stage: PvsStage::First,
            best: Vec::new(),
            key,
        };
        let child = TableCall {
            on_line,
            answer: None,
        };
        Enter::Expand(
            frame,
            DfChild::new(first as usize, -call.beta, -call.alpha, child),
        )
    }

    fn returned(
        &mut self,
        f: &mut DfFrame<T, TableFrame>,
        (r, line): (Value, Line),
    ) -> Flow<TableCall, (Value, Line), TablePvsStep> {
        let m = f.state.order[f.i];
        let improve = |f: &mut DfFrame<T, TableFrame>, v: Value| {
            if v > f.score {
                f.score = v;
                f.state.best.clear();
                f.state.best.push(m);
                f.state.best.extend(line);
            }
        };
        match pvs_returned(f, |s| &mut s.stage, 1, -r, improve) {
            PvsNext::ReSearch(alpha, beta) | PvsNext::Next(alpha, beta) => {
                let m = f.state.order[f.i] as usize;
                Flow::Call(DfChild::new(m, alpha, beta, TableCall::default()))
            }
            PvsNext::Close => self.close(f),
        }
    }
}

impl TablePolicy {
    /// Closes a frame: its score and best line go to the caller, its entry to the table.
    fn close<T: GameTree>(
        &mut self,
        f: &mut DfFrame<T, TableFrame>,
    ) -> Flow<TableCall, (Value, Line), TablePvsStep> {
        let bound = if f.score <= f.state.alpha0 {
            Bound::Upper
        } else if f.score >= f.beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let entry = Entry {
            key: f.state.key,
            draft: f.depth,
            value: f.score,
            bound,
            best: f.state.best.first().copied(),
            iteration: self.ctx.iteration,
        };
        let ret = (f.score, std::mem::take(&mut f.state.best));
        if self.ctx.storage.applies(f.depth) && !matches!(self.ctx.access, Access::None) {
            return match self.store(entry) {
                TablePvsStep::Probe => Flow::ReturnProbe(ret),
                tell => Flow::ReturnYield(ret, tell),
            };
        }
        Flow::Return(ret)
    }

    /// The probe of a node to be tabled, unless its call has the answer already: made here in
    /// the processor's own table ([`TablePvsStep::Probe`], a costed step), or a question to the
    /// master's ([`TablePvsStep::Ask`]); None once answered.
    fn probe<N>(&self, call: &mut DfCall<N, TableCall>, key: u64) -> Option<TablePvsStep> {
        if call.state.answer.is_some() {
            return None;
        }
        match &self.ctx.access {
            Access::Own(t) => {
                call.state.answer = Some(t.borrow_mut().probe(key));
                Some(TablePvsStep::Probe)
            }
            Access::Remote => Some(TablePvsStep::Ask(key)),
            Access::None => unreachable!("a node is tabled only with a table"),
        }
    }

    /// The call's answer if it gives a cutoff (deep enough, and exact or a bound outside the
    /// call's window), counted.
    fn cutoff<N>(&mut self, call: &DfCall<N, TableCall>) -> Option<Entry> {
        let e = call
            .state
            .answer
            .flatten()
            .filter(|e| e.draft >= call.depth)?;
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => e.value >= call.beta,
            Bound::Upper => e.value <= call.alpha,
        };
        cut.then(|| {
            self.cutoffs += 1;
            e
        })
    }

    /// Stores `entry`: into the processor's own table, here ([`TablePvsStep::Probe`], a costed
    /// step), or into the master's ([`TablePvsStep::Tell`]: the update to send).
    fn store(&self, entry: Entry) -> TablePvsStep {
        match &self.ctx.access {
            Access::Own(t) => {
                t.borrow_mut().store(entry);
                TablePvsStep::Probe
            }
            Access::Remote => TablePvsStep::Tell(entry),
            Access::None => unreachable!("a node is stored only with a table"),
        }
    }
}

/// PVS (Fig. 1, fail-soft, as [`crate::Pvs`]) with the refutation line, a transposition table
/// and the best line of every node: the depth-first engine run by [`TablePolicy`].
struct TablePvs<'t, T: GameTree> {
    core: DepthFirst<'t, T, TablePolicy>,
    /// What the search was started with (a re-search of the same successor shares it).
    ctx: Context,
    /// Table cutoffs not yet collected by the successor's search.
    cutoffs: u64,
}

impl<'t, T: GameTree> TablePvs<'t, T> {
    fn new(
        tree: &'t T,
        node: T::Node,
        window: (Value, Value),
        depth: u32,
        ctx: Context,
        on_line: Option<usize>,
    ) -> Self {
        let policy = TablePolicy {
            ctx: ctx.clone(),
            cutoffs: 0,
            leaf_key: None,
            leaf_entry: None,
        };
        let root = TableCall {
            on_line,
            answer: None,
        };
        TablePvs {
            core: DepthFirst::with_policy(tree, node, window, depth, policy, root),
            ctx,
            cutoffs: 0,
        }
    }

    /// The master's answer to the last [`TablePvsStep::Ask`].
    fn answer(&mut self, e: Option<Entry>) {
        if let Some(c) = self.core.pending_call() {
            c.state.answer = Some(e);
        }
    }

    fn step(&mut self) -> TablePvsStep {
        let step = match self.core.advance() {
            Event::Interior => TablePvsStep::Interior,
            Event::Leaf(quiescence) => TablePvsStep::Leaf(quiescence),
            Event::Probe => TablePvsStep::Probe,
            Event::Yield(step) => step,
            Event::Done => {
                let (v, line) = self.core.take_result().expect("the root's value");
                TablePvsStep::Done(v, line)
            }
            Event::Await { .. } => unreachable!("the search evaluates its own horizon"),
        };
        self.cutoffs += std::mem::take(&mut self.core.policy_mut().cutoffs);
        step
    }
}

/// The messages of Parabelle, with their Table I types and sizes.
#[derive(Clone, Debug)]
pub enum ParMsg<N> {
    /// Master to child: search successor `slot` of the current PV node with this bound.
    Work {
        /// The successor (the position itself, charged as Parabelle's 4 bytes).
        node: N,
        /// The PV node's best value so far.
        bound: Value,
        /// Plies left below `node`.
        depth: u32,
        /// The successor's index among the PV node's successors.
        slot: u32,
        /// The refutation line below the successor's root move, and where the successor's
        /// first move is on it (None if its path left the line).
        line: Rc<Line>,
        /// See `line`.
        on_line: Option<usize>,
    },
    /// Child to master: the value of successor `slot` and its best line.
    Result {
        /// From the PV node's view.
        value: Value,
        /// As in the work message.
        slot: u32,
        /// The best line below the successor (its bytes go in a [`ParMsg::Line`]).
        line: Line,
    },
    /// Child to master: a line of play, 2 bytes per ply.
    Line {
        /// Its length in plies (from the successor to the leaf).
        plies: u32,
    },
    /// Master to children between iterations: sorted root moves and the refutation table.
    Iteration {
        /// Root moves w.
        width: u32,
        /// The iteration just finished (1-based).
        iteration: u32,
        /// The refutation table, brought in line.
        table: Rc<Refutations>,
    },
    /// Child to master: probe the global table (6 bytes).
    Probe {
        /// The position's key.
        key: u64,
    },
    /// Master to child: the probe's answer (6 bytes).
    Answer {
        /// The entry, if any.
        entry: Option<Entry>,
    },
    /// Child to master: store this entry into the global table (12 bytes).
    Update {
        /// The entry.
        entry: Entry,
    },
}

impl<N> Message for ParMsg<N> {
    fn kind(&self) -> MsgKind {
        match self {
            ParMsg::Work { .. } | ParMsg::Result { .. } => MsgKind::InterNode,
            ParMsg::Line { .. } => MsgKind::InterLevel,
            ParMsg::Iteration { .. } => MsgKind::InterIteration,
            ParMsg::Probe { .. } | ParMsg::Answer { .. } | ParMsg::Update { .. } => MsgKind::AtNode,
        }
    }
    fn bytes(&self) -> u64 {
        match self {
            ParMsg::Work { .. } | ParMsg::Result { .. } => 4,
            ParMsg::Line { plies } => 2 * *plies as u64,
            ParMsg::Iteration {
                width, iteration, ..
            } => {
                let (w, i) = (*width as u64, *iteration as u64);
                4 * w + 2 * i * w
            }
            ParMsg::Probe { .. } | ParMsg::Answer { .. } => 6,
            ParMsg::Update { .. } => 12,
        }
    }
}

/// The search a processor runs on a successor of a PV node: a zero-window search around the
/// bound, re-searched with `(value, +∞)` on a fail-high.
pub struct SuccessorSearch<'t, T: GameTree> {
    tree: &'t T,
    node: T::Node,
    bound: Value,
    depth: u32,
    slot: u32,
    /// A successor of the root (its line goes to the master's refutation table).
    root: bool,
    failed_high: bool,
    core: TablePvs<'t, T>,
    cutoffs: u64,
}

impl<'t, T: GameTree> SuccessorSearch<'t, T> {
    fn new(
        tree: &'t T,
        node: T::Node,
        bound: Value,
        depth: u32,
        slot: u32,
        ctx: Context,
        on_line: Option<usize>,
    ) -> Self {
        let core = TablePvs::new(
            tree,
            node.clone(),
            (-bound - 1, -bound),
            depth,
            ctx,
            on_line,
        );
        SuccessorSearch {
            tree,
            node,
            bound,
            depth,
            slot,
            root: on_line == Some(0),
            failed_high: false,
            core,
            cutoffs: 0,
        }
    }
}

/// A [`SuccessorSearch`] as the machine runs it: it can hand itself back to its program to wait for the
/// master's table ([`ParOut::Ask`], [`ParOut::Tell`]).
pub struct ParSearch<'t, T: GameTree>(Option<Box<SuccessorSearch<'t, T>>>);

/// Results of computations and searches, handed back when their time has passed.
pub enum ParOut<'t, T: GameTree> {
    /// The master generated the moves of the PV node on top of its stack.
    Generated,
    /// The master evaluated the horizon node of its walk: its value.
    Leaf(Value),
    /// A search of successor `slot` ended.
    Finished {
        /// The successor's index.
        slot: u32,
        /// Its value from the PV node's view.
        value: Value,
        /// The best line below the successor.
        line: Line,
        /// It failed high and was re-searched.
        failed_high: bool,
        /// A successor of the root.
        root: bool,
        /// Table cutoffs it made.
        cutoffs: u64,
    },
    /// A child's search needs the master's table entry for `key`; it waits, handed back.
    Ask(Box<SuccessorSearch<'t, T>>, u64),
    /// A child's search stored an entry: send it to the master, then go on.
    Tell(Box<SuccessorSearch<'t, T>>, Entry),
    /// The master served a child's probe or update (the lookup's cost).
    Served,
}

impl<T: GameTree> std::fmt::Debug for ParOut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            ParOut::Generated => "Generated",
            ParOut::Leaf(_) => "Leaf",
            ParOut::Finished { .. } => "Finished",
            ParOut::Ask(..) => "Ask",
            ParOut::Tell(..) => "Tell",
            ParOut::Served => "Served",
        };
        f.write_str(s)
    }
}

impl<'t, T: GameTree> Search for ParSearch<'t, T> {
    type Out = ParOut<'t, T>;
    fn step(&mut self) -> Step<ParOut<'t, T>> {
        let job = self
            .0
            .as_mut()
            .expect("a job that has not been handed back");
        loop {
            let value = match job.core.step() {
                TablePvsStep::Interior => return Step::Interior,
                TablePvsStep::Leaf(q) => return Step::Leaf { quiescence: q },
                TablePvsStep::Probe => return Step::Probe,
                TablePvsStep::Ask(key) => {
                    return Step::Done(ParOut::Ask(self.0.take().expect("a job"), key))
                }
                TablePvsStep::Tell(e) => {
                    return Step::Done(ParOut::Tell(self.0.take().expect("a job"), e))
                }
                TablePvsStep::Done(v, line) => (-v, line),
            };
            let (value, line) = value;
            job.cutoffs += job.core.cutoffs;
            job.core.cutoffs = 0;
            if !job.failed_high && value > job.bound {
                // Fail-high: re-search with (value, +INF) from the PV node's view.
                job.failed_high = true;
                job.core = TablePvs::new(
                    job.tree,
                    job.node.clone(),
                    (-INF, -value),
                    job.depth,
                    job.core.ctx.clone(),
                    // A root move's re-search follows its refutation line as its first search did.
                    job.root.then_some(0),
                );
                continue;
            }
            return Step::Done(ParOut::Finished {
                slot: job.slot,
                value,
                line,
                failed_high: job.failed_high,
                root: job.root,
                cutoffs: job.cutoffs,
            });
        }
    }
}

/// What Parabelle adds to pmws's master ([`pmws::Flavor`]): the refutation table, the
/// transposition table (global, or the master's local one) and the cutoffs of its own searches.
pub struct Tables {
    config: ParabelleConfig,
    refutations: Rc<Refutations>,
    table: Option<Rc<RefCell<Table>>>,
    cutoffs: u64,
}

/// The master: pmws's master with Parabelle's [`Tables`].
pub type Master<'t, T> = pmws::Master<'t, T, Tables>;

/// A child's state.
pub struct Child<'t, T: GameTree> {
    tree: &'t T,
    config: ParabelleConfig,
    table: Option<Rc<RefCell<Table>>>,
    refutations: Rc<Refutations>,
    iteration: u32,
    /// A search waiting for the master's answer.
    waiting: Option<Box<SuccessorSearch<'t, T>>>,
    cutoffs: u64,
}

/// A Parabelle role on one processor.
pub enum Parabelle<'t, T: GameTree> {
    /// Processor 0.
    Master(Master<'t, T>),
    /// Every other processor.
    Child(Child<'t, T>),
}

/// Parabelle as a [`crate::Scheme`] on a processor tree of depth 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParabelleScheme(pub ParabelleConfig);

impl ParabelleScheme {
    /// The algorithm's name in results: `parabelle`, or `parabelle_global_all`,
    /// `parabelle_local_partial`, ….
    pub fn name_of(config: &ParabelleConfig) -> String {
        let table = match config.table.kind {
            TableKind::None => return "parabelle".into(),
            TableKind::Global => "global",
            TableKind::Local => "local",
        };
        let storage = match config.table.storage {
            Storage::All => "all",
            Storage::Partial => "partial",
            Storage::PartialFrom2 => "partial_from2",
            Storage::AllNodes => "all_nodes",
        };
        format!("parabelle_{table}_{storage}")
    }
}

/// The roles for a processor tree of length 1 with `processors` processors (master first).
pub fn parabelle_roles<T: GameTree>(
    tree: &T,
    processors: usize,
    config: ParabelleConfig,
) -> Vec<Parabelle<'_, T>> {
    let entries = config.table.entries.max(1);
    let master_table =
        (config.table.kind != TableKind::None).then(|| Rc::new(RefCell::new(Table::new(entries))));
    let tables = Tables {
        config,
        refutations: Rc::new(Refutations::default()),
        table: master_table,
        cutoffs: 0,
    };
    let pmws = PmwsConfig {
        depth: config.depth,
        progressive: config.progressive,
    };
    let mut roles = vec![Parabelle::Master(Master::new(
        tree, processors, pmws, tables,
    ))];
    for _ in 1..processors {
        let table = (config.table.kind == TableKind::Local)
            .then(|| Rc::new(RefCell::new(Table::new((entries / 2).max(1)))));
        roles.push(Parabelle::Child(Child {
            tree,
            config,
            table,
            refutations: Rc::new(Refutations::default()),
            iteration: 1,
            waiting: None,
            cutoffs: 0,
        }));
    }
    roles
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for ParabelleScheme {
    type Role = Parabelle<'t, T>;
    fn name(&self) -> String {
        Self::name_of(&self.0)
    }
    fn deploy(
        &self,
        tree: &'t T,
        ptree: &sim_hw::ProcessorTree,
    ) -> Result<Vec<Self::Role>, DeployError> {
        pmws::check_depth_one("parabelle", ptree, self.0.depth)?;
        Ok(parabelle_roles(tree, ptree.len(), self.0))
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        match roles.first() {
            Some(Parabelle::Master(m)) => m.root_value(),
            _ => None,
        }
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    fn root_move(&self, roles: &[Self::Role]) -> Option<usize> {
        match roles.first() {
            Some(Parabelle::Master(m)) => m.result.map(|r| r.1 as usize),
            _ => None,
        }
    }
    /// `tt_probes`, `tt_hits`, `tt_cutoffs` and `tt_stores`: the transposition-table counters
    /// of all processors together; not reported without a table.
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        match table_counts(self.0.table.kind, roles) {
            Some(c) => Figures::default()
                .with("tt_probes", c.probes)
                .with("tt_hits", c.hits)
                .with("tt_cutoffs", c.cutoffs)
                .with("tt_stores", c.stores),
            None => Figures::default(),
        }
    }
}

/// The transposition-table counters of all processors, None without a table.
fn table_counts<T: GameTree>(kind: TableKind, roles: &[Parabelle<'_, T>]) -> Option<TableCounts> {
    if kind == TableKind::None {
        return None;
    }
    let mut total = TableCounts::default();
    for r in roles {
        match r {
            Parabelle::Master(m) => {
                if let Some(t) = &m.table {
                    total.add(&t.borrow().counts());
                }
                total.cutoffs += m.cutoffs;
            }
            Parabelle::Child(c) => {
                if let Some(t) = &c.table {
                    total.add(&t.borrow().counts());
                }
                total.cutoffs += c.cutoffs;
            }
        }
    }
    Some(total)
}

impl<T: GameTree> Parabelle<'_, T> {
    /// When the master had the final value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            Parabelle::Master(m) => m.finished_at(),
            Parabelle::Child(_) => None,
        }
    }

    /// The refutation table's line for root move `root_move` (tree order) as this processor
    /// holds it: after the search, the master's holds the last iteration's lines (the best
    /// move's is the principal variation below it); a child's, those of the iteration before.
    pub fn refutation_line(&self, root_move: usize) -> Vec<u32> {
        let refutations = match self {
            Parabelle::Master(m) => &m.refutations,
            Parabelle::Child(c) => &c.refutations,
        };
        refutations.line(root_move).to_vec()
    }
}

type PCx<'a, 't, T> = Cx<'a, Parabelle<'t, T>>;

impl Tables {
    fn access(&self) -> Access {
        match &self.table {
            Some(t) => Access::Own(t.clone()),
            None => Access::None,
        }
    }

    /// The refutation line a successor starts on, and where on it: a root move's line, from its
    /// start; below the root, only the first successor (walked by the master) is on the line.
    fn line_for(&self, root_move: Option<u32>) -> (Rc<Line>, Option<usize>) {
        match root_move {
            Some(m) => (self.refutations.line(m as usize), Some(0)),
            None => (self.refutations.none.clone(), None),
        }
    }

    fn serve<T: GameTree>(&mut self, from: ProcId, msg: ParMsg<T::Node>, cx: &mut PCx<'_, '_, T>) {
        let Some(table) = self.table.clone() else {
            cx.fail("parabelle: a table message reached a master without a global table");
            return;
        };
        // One lookup or store on the table the master holds, charged `probe` there and counted
        // with its own searches' (column `probes`).
        let work = Work {
            time: cx.costs().probe,
            nodes: NodeCounts {
                probes: 1,
                ..Default::default()
            },
        };
        match msg {
            ParMsg::Probe { key } => {
                let entry = table.borrow_mut().probe(key);
                cx.send(from, ParMsg::Answer { entry });
            }
            ParMsg::Update { entry } => table.borrow_mut().store(entry),
            _ => unreachable!("only table messages are served"),
        }
        cx.compute(work, ParOut::Served);
    }
}

impl<'t, T: GameTree + 't> pmws::Flavor<'t, T> for Tables {
    type Role = Parabelle<'t, T>;
    type Line = Line;
    const NAME: &'static str = "parabelle";
    const LEAF_ROOT_ENDS: bool = true;
    fn generated() -> ParOut<'t, T> {
        ParOut::Generated
    }
    fn leaf(value: Value) -> ParOut<'t, T> {
        ParOut::Leaf(value)
    }
    fn leaf_work(costs: &CostModel, eval: &Eval) -> Work {
        let time = costs.leaf(eval.quiescence).unwrap_or(SimTime::MAX);
        leaf_work(time, eval.quiescence)
    }
    /// Follow the best root move's refutation line.
    fn pv_order(&self, ply: usize, width: usize, best_root_move: u32) -> Vec<u32> {
        let line = self.refutations.line(best_root_move as usize);
        let first = line
            .as_slice()
            .get(ply - 1)
            .copied()
            .filter(|&m| (m as usize) < width)
            .unwrap_or(0);
        std::iter::once(first)
            .chain((0..width as u32).filter(|&m| m != first))
            .collect()
    }
    fn work(&self, s: Successor<T::Node>) -> ParMsg<T::Node> {
        let (line, on_line) = self.line_for(s.root_move);
        ParMsg::Work {
            node: s.node,
            bound: s.bound,
            depth: s.depth,
            slot: s.slot,
            line,
            on_line,
        }
    }
    fn search_own(
        &self,
        tree: &'t T,
        s: Successor<T::Node>,
        children: bool,
        cx: &mut PCx<'_, 't, T>,
    ) {
        let (line, on_line) = self.line_for(s.root_move);
        let ctx = Context {
            access: self.access(),
            storage: self.config.table.storage,
            line,
            iteration: s.iteration,
        };
        let job = SuccessorSearch::new(tree, s.node, s.bound, s.depth, s.slot, ctx, on_line);
        let search = ParSearch(Some(Box::new(job)));
        // Children's updates change a global table while the master searches: its search
        // must see them at their simulated times (no run-ahead past an arrival).
        if self.config.table.kind == TableKind::Global && children {
            cx.search(search);
        } else {
            cx.search_isolated(search);
        }
    }
    fn line_through(first: u32, mut rest: Line) -> Line {
        let mut line = vec![first];
        line.append(&mut rest);
        line
    }
    /// The refutation table: each root move's best line.
    fn end_iteration(&mut self, order: &[u32], lines: &mut [Line]) {
        let none = self.refutations.none.clone();
        let mut table = vec![none.clone(); order.len()];
        for (&m, line) in order.iter().zip(lines) {
            table[m as usize] = Rc::new(std::mem::take(line));
        }
        self.refutations = Rc::new(Refutations { lines: table, none });
    }
    fn iteration(&self, width: u32, iteration: u32) -> ParMsg<T::Node> {
        ParMsg::Iteration {
            width,
            iteration,
            table: self.refutations.clone(),
        }
    }
}

impl<'t, T: GameTree> Child<'t, T> {
    fn start_job(&mut self, job: Box<SuccessorSearch<'t, T>>, cx: &mut PCx<'_, 't, T>) {
        cx.search_isolated(ParSearch(Some(job)));
    }
}

impl<'t, T: GameTree> Program for Parabelle<'t, T> {
    type Msg = ParMsg<T::Node>;
    type Out = ParOut<'t, T>;
    type Search = ParSearch<'t, T>;

    fn start(&mut self, cx: &mut PCx<'_, 't, T>) {
        if let Parabelle::Master(m) = self {
            m.begin_iteration(cx);
        }
    }

    fn on_message(&mut self, from: ProcId, msg: ParMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match (self, msg) {
            (
                Parabelle::Child(c),
                ParMsg::Work {
                    node,
                    bound,
                    depth,
                    slot,
                    line,
                    on_line,
                },
            ) => {
                let access = match (&c.table, c.config.table.kind) {
                    (Some(t), _) => Access::Own(t.clone()),
                    (None, TableKind::Global) => Access::Remote,
                    (None, _) => Access::None,
                };
                let ctx = Context {
                    access,
                    storage: c.config.table.storage,
                    line,
                    iteration: c.iteration,
                };
                let job = SuccessorSearch::new(c.tree, node, bound, depth, slot, ctx, on_line);
                c.start_job(Box::new(job), cx);
            }
            (
                Parabelle::Child(c),
                ParMsg::Iteration {
                    iteration, table, ..
                },
            ) => {
                c.refutations = table;
                c.iteration = iteration + 1;
            }
            (Parabelle::Child(c), ParMsg::Answer { entry }) => {
                let Some(mut job) = c.waiting.take() else {
                    cx.fail("parabelle: a table answer reached a child that asked nothing");
                    return;
                };
                job.core.answer(entry);
                cx.idle_as(sim_core::Category::IdleSync);
                c.start_job(job, cx);
            }
            (Parabelle::Master(m), ParMsg::Result { value, slot, line }) => {
                m.child_result(from, slot, value, line, cx)
            }
            (Parabelle::Master(_), ParMsg::Line { .. }) => {}
            (Parabelle::Master(m), msg @ (ParMsg::Probe { .. } | ParMsg::Update { .. })) => {
                m.serve(from, msg, cx)
            }
            (_, msg) => cx.fail(format!("parabelle: unexpected message {:?}", msg.kind())),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            Parabelle::Master(m) => m.pending(),
            Parabelle::Child(c) if c.waiting.is_some() => {
                Some("the master's answer to a table probe".into())
            }
            _ => None,
        }
    }

    fn on_done(&mut self, out: ParOut<'t, T>, cx: &mut PCx<'_, 't, T>) {
        match (self, out) {
            (Parabelle::Master(m), ParOut::Generated) => m.generated(cx),
            (Parabelle::Master(m), ParOut::Leaf(v)) => m.first_value(v, Vec::new(), cx),
            (Parabelle::Master(_), ParOut::Served) => {}
            (
                Parabelle::Master(m),
                ParOut::Finished {
                    slot,
                    value,
                    line,
                    cutoffs,
                    ..
                },
            ) => {
                m.cutoffs += cutoffs;
                m.own_result(slot, value, line, cx);
            }
            (
                Parabelle::Child(c),
                ParOut::Finished {
                    slot,
                    value,
                    line,
                    failed_high,
                    root,
                    cutoffs,
                    ..
                },
            ) => {
                c.cutoffs += cutoffs;
                let plies = line.len() as u32;
                cx.send(ProcId::MASTER, ParMsg::Result { value, slot, line });
                // The refutation line of a root move, or a new best line.
                if (failed_high || root) && plies > 0 {
                    cx.send(ProcId::MASTER, ParMsg::Line { plies });
                }
            }
            (Parabelle::Child(c), ParOut::Ask(job, key)) => {
                c.waiting = Some(job);
                cx.send(ProcId::MASTER, ParMsg::Probe { key });
                cx.idle_as(sim_core::Category::WaitReply);
            }
            (Parabelle::Child(c), ParOut::Tell(job, entry)) => {
                cx.send(ProcId::MASTER, ParMsg::Update { entry });
                c.start_job(job, cx);
            }
            (_, out) => cx.fail(format!("parabelle: unexpected completion {out:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two readings of the paper's partial storage differ in one ply: 2 ply from the
    /// horizon is stored and probed by `PartialFrom2` only; both are the paper's partial rows.
    #[test]
    fn partial_storage_starts_more_than_2_ply_or_at_2_ply_from_the_horizon() {
        let from = |s: Storage| (1..10).find(|&d| s.applies(d)).unwrap();
        assert_eq!(from(Storage::All), 1);
        assert_eq!(from(Storage::Partial), 3);
        assert_eq!(from(Storage::PartialFrom2), 2);
        assert_eq!(from(Storage::AllNodes), 1);
        for s in [
            Storage::All,
            Storage::Partial,
            Storage::PartialFrom2,
            Storage::AllNodes,
        ] {
            assert!(
                (from(s)..10).all(|d| s.applies(d)) && !s.applies(0),
                "{s:?}"
            );
        }
        // Horizon nodes are not interior nodes: AllNodes tables them through the leaf hooks.
        assert_eq!(Storage::AllNodes.in_paper(), Storage::All);
        assert_eq!(Storage::PartialFrom2.in_paper(), Storage::Partial);
        assert_eq!(Storage::Partial.in_paper(), Storage::Partial);
        assert_eq!(Storage::All.in_paper(), Storage::All);
    }

    /// A uniform tree of width 3 whose nodes are their paths, recording every move played.
    struct Recorded {
        played: RefCell<Vec<Vec<u32>>>,
    }

    impl GameTree for Recorded {
        type Node = Vec<u32>;
        type Move = u32;
        type Moves = Vec<u32>;
        fn root(&self) -> Vec<u32> {
            Vec::new()
        }
        fn moves(&self, _: &Vec<u32>) -> Vec<u32> {
            vec![0, 1, 2]
        }
        fn play(&self, node: &Vec<u32>, mv: u32) -> Vec<u32> {
            let mut next = node.clone();
            next.push(mv);
            self.played.borrow_mut().push(next.clone());
            next
        }
        fn evaluate(&self, node: &Vec<u32>) -> Eval {
            let value = node.iter().fold(7i64, |h, &m| (h * 31 + m as i64) % 101) as Value;
            Eval {
                value: value - 50,
                quiescence: 0,
            }
        }
        fn key(&self, node: &Vec<u32>) -> u64 {
            node.iter().fold(1, |h, &m| h * 4 + m as u64)
        }
    }

    /// With the global table, `AllNodes` asks the master before every node it enters, horizon
    /// nodes too, and tells it the node's result after: a horizon node's ask comes before its
    /// evaluation, its update (draft 0, the exact value) right after; a horizon node the answer
    /// values exactly is not evaluated and not stored. `All` asks only at interior nodes.
    #[test]
    fn all_nodes_asks_before_and_tells_after_every_horizon_node() {
        let tree = Recorded {
            played: RefCell::new(Vec::new()),
        };
        let run = |storage: Storage, known: Option<Vec<u32>>| {
            let ctx = Context {
                access: Access::Remote,
                storage,
                line: Rc::new(Vec::new()),
                iteration: 1,
            };
            let mut s = TablePvs::new(&tree, Vec::new(), (-INF, INF), 2, ctx, None);
            // What the search did, in order: (kind, the node's key or 0).
            let mut trace = Vec::new();
            let known_key = known.as_ref().map(|n| tree.key(n));
            let value = loop {
                match s.step() {
                    TablePvsStep::Ask(key) => {
                        trace.push(("ask", key));
                        let e = (Some(key) == known_key).then_some(Entry {
                            key,
                            draft: 0,
                            value: 999,
                            bound: Bound::Exact,
                            best: None,
                            iteration: 1,
                        });
                        s.answer(e);
                    }
                    TablePvsStep::Tell(e) => {
                        trace.push(("tell", e.key));
                        if e.draft == 0 {
                            let node: Vec<u32> = tree.played.borrow().last().unwrap().clone();
                            assert_eq!(e.key, tree.key(&node));
                            assert_eq!(
                                (e.value, e.bound),
                                (tree.evaluate(&node).value, Bound::Exact)
                            );
                        }
                    }
                    TablePvsStep::Leaf(_) => trace.push(("leaf", 0)),
                    TablePvsStep::Interior => trace.push(("interior", 0)),
                    TablePvsStep::Probe => panic!("a remote table takes no probe step"),
                    TablePvsStep::Done(v, _) => break v,
                }
            };
            let count = |k: &str| trace.iter().filter(|t| t.0 == k).count();
            (
                trace.clone(),
                value,
                [
                    count("ask"),
                    count("tell"),
                    count("leaf"),
                    count("interior"),
                ],
            )
        };
        // Interior nodes (each re-search enters its node again) are asked and told either way.
        let (trace, _, [asks, tells, leaves, interior]) = run(Storage::All, None);
        assert!(interior >= 4 && leaves >= 3);
        assert_eq!((asks, tells), (interior, interior), "{trace:?}");
        let (trace, _, [asks, tells, leaves_n, interior_n]) = run(Storage::AllNodes, None);
        assert_eq!((leaves_n, interior_n), (leaves, interior));
        assert_eq!(
            (asks, tells),
            (interior + leaves, interior + leaves),
            "{trace:?}"
        );
        for (i, t) in trace.iter().enumerate() {
            if t.0 == "leaf" {
                assert_eq!(trace[i - 1].0, "ask", "{trace:?}");
                assert_eq!(trace[i + 1].0, "tell", "{trace:?}");
                assert_eq!(trace[i - 1].1, trace[i + 1].1, "{trace:?}");
            }
        }
        // The first horizon node, [0, 0] (no refutation line, no table move), answered exactly:
        // not evaluated and not told.
        let (trace, _, [asks, tells, _, _]) = run(Storage::AllNodes, Some(vec![0, 0]));
        assert_eq!(
            trace[..4].iter().map(|t| t.0).collect::<Vec<_>>(),
            ["ask", "interior", "ask", "interior"]
        );
        assert_eq!(trace[4], ("ask", tree.key(&vec![0, 0])));
        assert_eq!(trace[5].0, "ask", "{trace:?}");
        assert_eq!(asks, tells + 1, "{trace:?}");
        assert!(
            !trace.contains(&("tell", tree.key(&vec![0, 0]))),
            "{trace:?}"
        );
    }

    /// A root move's search that fails high is re-searched along the same refutation line: the
    /// module doc's "a search below root move r that is still on r's line tries the line's next
    /// move first" holds for the re-search too (it used to start off the line).
    #[test]
    fn a_root_moves_re_search_follows_its_refutation_line() {
        let tree = Recorded {
            played: RefCell::new(Vec::new()),
        };
        let ctx = Context {
            access: Access::None,
            storage: Storage::All,
            line: Rc::new(vec![2, 1]),
            iteration: 1,
        };
        // A bound below every value: the zero-window search fails high (searching all three
        // moves below the root move), and the re-search follows.
        let job = SuccessorSearch::new(&tree, vec![0], -1000, 2, 1, ctx, Some(0));
        let mut search = ParSearch(Some(Box::new(job)));
        let failed_high = loop {
            match search.step() {
                Step::Done(ParOut::Finished { failed_high, .. }) => break failed_high,
                Step::Done(out) => panic!("unexpected {out:?}"),
                _ => {}
            }
        };
        assert!(failed_high);
        let below: Vec<Vec<u32>> = tree
            .played
            .borrow()
            .iter()
            .filter(|p| p.len() == 2)
            .cloned()
            .collect();
        // The zero-window search: all three moves, the line's first move first and, below it,
        // the line's second; then the re-search, which starts on the line again.
        assert_eq!(
            below[..3],
            [vec![0, 2], vec![0, 0], vec![0, 1]][..],
            "{below:?}"
        );
        assert_eq!(
            below.as_slice().get(3),
            Some(&vec![0, 2]),
            "the re-search: {below:?}"
        );
        let deeper = tree.played.borrow().iter().find(|p| p.len() == 3).cloned();
        assert_eq!(deeper, Some(vec![0, 2, 1]));
    }
}
