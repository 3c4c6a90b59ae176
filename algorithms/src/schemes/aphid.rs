//! APHID, Asynchronous Parallel Hierarchical Iterative Deepening (`aphid`): Brockington and
//! Schaeffer. The master searches the top `d′` plies of the tree again and again; the leaves of
//! that tree belong to the slaves, which search them asynchronously, deepening on their own; the
//! master uses a leaf's result when it has one that settles the leaf, and otherwise a shallower
//! value marked uncertain, and repeats its passes until one is certain. There is no shared
//! table: the master's knowledge of a leaf is what its slave told it.
//!
//! **The master** (processor 0) runs *passes*: a fail-soft alpha-beta of the top `d′` plies
//! (option `top`, default [`DEFAULT_TOP`]; `d′ = min(top, d)`) with the full window. Each pass
//! is one costed computation: `k` per interior node it generates, `probe` per leaf it looks up
//! in its table, and `e` the first time it meets a leaf (its static evaluation, the guess it
//! starts from; counted as a leaf evaluation). At a leaf with the window `(α, β)` it uses:
//!
//! - a **certain** value when its slave's full-depth searches (`r = d − d′` plies) have settled
//!   the leaf for that window: the leaf is known exactly (`lo = hi`), or its upper bound
//!   `hi ≤ α` (value `hi`), or its lower bound `lo ≥ β` (value `lo`) — fail-soft values, so the
//!   pass is alpha-beta with correct leaf values wherever it is certain;
//! - otherwise an **uncertain** guess: the value of the deepest shallower search of the leaf
//!   (else its static evaluation), kept within `[lo, hi]`; and the slave is told the window
//!   (WINDOW) if it has not been told it yet.
//!
//! A pass that used no uncertain value is certain: its value is the root value (Fail-soft
//! alpha-beta whose every leaf value is correct for its window returns the minimax value), and
//! the master stops every slave (STOP). Otherwise the master starts the next pass as soon as a
//! result has come in since the last pass began (at once, if one came during it), and waits
//! for one otherwise. At the end of each pass it sends the leaves it met for the first time to
//! their slaves (ASSIGN, with the window), the slaves taken in turn in the order the leaves were
//! first met (round robin over the master's workers as the deploy lists them), and the WINDOWs.
//!
//! **A slave** keeps its leaves and, for each, the last window the master sent, the deepest
//! search done, and `[lo, hi]` from its full-depth searches. Whenever idle it searches the leaf
//! whose next search is shallowest (ties: the leaf assigned first): a leaf not yet searched to
//! `r` plies is searched one ply deeper than before (1, 2, …, r: it deepens on its own); a leaf
//! searched to `r` plies whose `[lo, hi]` does not settle its latest window is searched again
//! to `r` plies with that window. Every search is fail-soft alpha-beta with the leaf's latest
//! window, and its value goes to the master (RESULT, with its depth and which bound it is). A
//! slave with nothing to do waits; STOP ends its search.
//!
//! **It terminates:** an uncertain pass has a leaf whose slave knows a window its `[lo, hi]`
//! does not settle, so that slave has work and will report; a full-depth search with a window
//! `[lo, hi]` does not settle always shrinks `[lo, hi]` (a fail-low lowers `hi` below `α`, a
//! fail-high raises `lo` above `β`, a value inside is exact), and values are integers.
//!
//! **One processor:** no slaves; the master searches the whole tree by fail-soft alpha-beta
//! alone (the sequential reference). If `d ≤ top`, the master's leaves are the horizon: it
//! evaluates them itself, and its first pass is certain.
//!
//! **Messages** (all Table I inter-node: work handed to a processor and the values it returns):
//!
//! | message | bytes | what |
//! |---|---|---|
//! | ASSIGN | 6 + 2d′ | leaf number (2), its path from the root (2 per ply, as Table I's inter-level lines), the window (4) |
//! | WINDOW | 6 | leaf number (2), the window (4) |
//! | RESULT | 6 | leaf number (2), depth (1), value (2), bound kind (1) |
//! | STOP | 2 | the search is over (as the split-work protocol's ABORT) |

use crate::schemes::adapter::{Adapted, SearchExt};
use crate::schemes::scheme::DeployError;
use crate::search::alphabeta::AlphaBeta;
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::{MsgKind, NodeCounts, ProcId, SimTime};
use sim_hw::{Cx, Message, ProcessorTree, Program, Work};
use std::collections::HashMap;

/// The default depth d′ of the master's tree: 2 plies (w² leaves at most; with a few leaves per
/// slave for w ≥ 4 and up to 16 processors). Not tuned to any result.
pub const DEFAULT_TOP: u32 = 2;

/// Options of an APHID search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AphidConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Depth d′ of the master's tree (at least 1; the master's tree is min(top, d) plies).
    pub top: u32,
}

/// APHID as a [`crate::Scheme`] (see the module doc). Its name in results: `aphid` with the
/// default d′, `aphid(D)` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aphid(pub AphidConfig);

/// What a fail-soft value says of a leaf searched with a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value (inside the window).
    Exact,
    /// At most this (failed low).
    Upper,
    /// At least this (failed high).
    Lower,
}

impl Bound {
    fn of(value: Value, (alpha, beta): (Value, Value)) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// The messages of APHID (sizes in the module doc).
#[derive(Clone, Debug)]
pub enum AphidMsg<N> {
    /// Master to slave: leaf `id` is yours; its position and window.
    Assign {
        /// Leaf number.
        id: u32,
        /// The position (charged as its path: 2 bytes per ply of the master's tree).
        node: N,
        /// Plies of the path (d′).
        plies: u32,
        /// The window.
        window: (Value, Value),
    },
    /// Master to slave: leaf `id`'s window is now this.
    Window {
        /// Leaf number.
        id: u32,
        /// The window.
        window: (Value, Value),
    },
    /// Slave to master: a search of leaf `id` to `depth` plies returned `value`.
    Result {
        /// Leaf number.
        id: u32,
        /// Plies searched.
        depth: u32,
        /// The fail-soft value (the leaf's view).
        value: Value,
        /// Which bound it is for the window searched.
        bound: Bound,
    },
    /// Master to slave: the root value is certain; stop.
    Stop,
}

impl<N> Message for AphidMsg<N> {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        match self {
            AphidMsg::Assign { plies, .. } => 6 + 2 * *plies as u64,
            AphidMsg::Window { .. } | AphidMsg::Result { .. } => 6,
            AphidMsg::Stop => 2,
        }
    }
}

/// What a processor's work hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AphidOut {
    /// The master's pass is over.
    Pass,
    /// A search (a slave's of a leaf, a lone master's of the whole tree) returned this
    /// fail-soft value.
    Searched(Value),
}

/// A processor's search: fail-soft alpha-beta.
pub type AphidSearch<'t, T> = Adapted<AlphaBeta<'t, T>, AphidOut>;

/// What the master knows of one leaf of its tree.
struct Leaf<N> {
    node: N,
    /// The worker it belongs to (index into the workers).
    owner: usize,
    /// Its value is at least `lo` and at most `hi` (full-depth searches).
    lo: Value,
    hi: Value,
    /// Its static evaluation.
    eval: Value,
    /// The deepest shallower search's (depth, value).
    guess: Option<(u32, Value)>,
    /// The last window its slave was told.
    told: Option<(Value, Value)>,
}

impl<N> Leaf<N> {
    /// The certain value for the window, if its bounds settle it.
    fn settled(&self, (alpha, beta): (Value, Value)) -> Option<Value> {
        if self.lo == self.hi {
            Some(self.lo)
        } else if self.hi <= alpha {
            Some(self.hi)
        } else if self.lo >= beta {
            Some(self.lo)
        } else {
            None
        }
    }
}

/// One leaf value a certain pass used: for tests, each is a correct fail-soft value of the
/// leaf's `r`-ply search with that window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsedLeaf<N> {
    /// The leaf's position.
    pub node: N,
    /// The window the pass had there.
    pub window: (Value, Value),
    /// The value it used.
    pub value: Value,
}

/// What a pass did, to be charged and then acted on.
#[derive(Default)]
struct PassCount {
    interior: u64,
    probes: u64,
    evals: u64,
    certain: bool,
}

/// The master.
pub struct Master<'t, T: GameTree> {
    tree: &'t T,
    config: AphidConfig,
    /// d′ and r = d − d′.
    top: u32,
    rest: u32,
    workers: Vec<ProcId>,
    leaves: Vec<Leaf<T::Node>>,
    /// Leaves by their path from the root (move indices).
    ids: HashMap<Vec<u32>, u32>,
    /// Messages the pass under way will send when it ends.
    outbox: Vec<(ProcId, AphidMsg<T::Node>)>,
    in_pass: bool,
    /// A result came in since the last pass began.
    news: bool,
    /// The value and certainty of the last pass, and the leaf values it used.
    last: Option<(Value, bool)>,
    used: Vec<UsedLeaf<T::Node>>,
    passes: u64,
    result: Option<Value>,
    finished_at: Option<SimTime>,
}

/// A slave's leaf.
struct SlaveLeaf<N> {
    id: u32,
    node: N,
    window: (Value, Value),
    done: u32,
    lo: Value,
    hi: Value,
}

/// A slave.
pub struct Slave<'t, T: GameTree> {
    tree: &'t T,
    master: ProcId,
    rest: u32,
    leaves: Vec<SlaveLeaf<T::Node>>,
    index: HashMap<u32, usize>,
    /// The search under way: leaf, depth, window.
    busy: Option<(u32, u32, (Value, Value))>,
    stopped: bool,
}

/// An APHID role on one processor.
pub enum AphidRole<'t, T: GameTree> {
    /// Processor 0.
    Master(Master<'t, T>),
    /// Every other processor.
    Slave(Slave<'t, T>),
}

type ACx<'a, 't, T> = Cx<'a, AphidRole<'t, T>>;

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for Aphid {
    type Role = AphidRole<'t, T>;
    fn name(&self) -> String {
        if self.0.top == DEFAULT_TOP {
            "aphid".into()
        } else {
            format!("aphid({})", self.0.top)
        }
    }
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        crate::schemes::pmws::check_depth_one("aphid", ptree, self.0.depth)?;
        if self.0.top == 0 {
            return Err(DeployError::Shape {
                scheme: "aphid".into(),
                needs: "a master's tree of at least 1 ply (top)".into(),
            });
        }
        let master = ProcId::MASTER;
        let workers = ptree.children(master);
        let top = self.0.top.min(self.0.depth);
        let rest = self.0.depth - top;
        let mut roles = Vec::with_capacity(ptree.len());
        for p in (0..ptree.len() as u32).map(ProcId) {
            if p == master {
                roles.push(AphidRole::Master(Master {
                    tree,
                    config: self.0,
                    top,
                    rest,
                    workers: workers.clone(),
                    leaves: Vec::new(),
                    ids: HashMap::new(),
                    outbox: Vec::new(),
                    in_pass: false,
                    news: false,
                    last: None,
                    used: Vec::new(),
                    passes: 0,
                    result: None,
                    finished_at: None,
                }));
            } else {
                roles.push(AphidRole::Slave(Slave {
                    tree,
                    master: ptree.parent(p).unwrap_or(master),
                    rest,
                    leaves: Vec::new(),
                    index: HashMap::new(),
                    busy: None,
                    stopped: false,
                }));
            }
        }
        Ok(roles)
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        match roles.first() {
            Some(AphidRole::Master(m)) => m.result,
            _ => None,
        }
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
}

impl<T: GameTree> AphidRole<'_, T> {
    /// When the master knew the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            AphidRole::Master(m) => m.finished_at,
            AphidRole::Slave(_) => None,
        }
    }
    /// The master's passes (0 on one processor).
    pub fn passes(&self) -> u64 {
        match self {
            AphidRole::Master(m) => m.passes,
            AphidRole::Slave(_) => 0,
        }
    }
    /// The leaf values the master's certain pass used (master only), and the plies `r` each
    /// stands for.
    pub fn certain_leaves(&self) -> (&[UsedLeaf<T::Node>], u32) {
        match self {
            AphidRole::Master(m) => (&m.used, m.rest),
            AphidRole::Slave(_) => (&[], 0),
        }
    }
    /// Every leaf the master met, with what it knew of its `r`-ply value at the end: (node,
    /// lo, hi).
    pub fn leaf_bounds(&self) -> Vec<(T::Node, Value, Value)> {
        match self {
            AphidRole::Master(m) => m
                .leaves
                .iter()
                .map(|l| (l.node.clone(), l.lo, l.hi))
                .collect(),
            AphidRole::Slave(_) => Vec::new(),
        }
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    fn start(&mut self, cx: &mut ACx<'_, 't, T>) {
        if self.workers.is_empty() {
            // One processor: fail-soft alpha-beta of the whole tree.
            cx.search(
                AlphaBeta::new(self.tree, self.tree.root(), -INF, INF, self.config.depth)
                    .map_done(|_, v| AphidOut::Searched(v)),
            );
            return;
        }
        self.pass(cx);
    }

    /// Runs a pass over the master's tree now, charged as one computation; its messages go out
    /// when it ends.
    fn pass(&mut self, cx: &mut ACx<'_, 't, T>) {
        self.in_pass = true;
        self.news = false;
        self.passes += 1;
        self.used.clear();
        let mut count = PassCount {
            certain: true,
            ..PassCount::default()
        };
        let mut path = Vec::new();
        let root = self.tree.root();
        let value = self.search(&root, (-INF, INF), 0, &mut path, &mut count);
        self.last = Some((value, count.certain));
        let costs = *cx.costs();
        let ns = |t: SimTime, n: u64| t.as_nanos().saturating_mul(n);
        let time = ns(costs.k, count.interior)
            .saturating_add(ns(costs.probe, count.probes))
            .saturating_add(ns(costs.e, count.evals));
        let nodes = NodeCounts {
            leaves: count.evals,
            interior: count.interior,
            leaf_ns: ns(costs.e, count.evals),
            quiescence: 0,
            probes: count.probes,
        };
        cx.compute(
            Work {
                time: SimTime(time),
                nodes,
            },
            AphidOut::Pass,
        );
    }

    /// Fail-soft alpha-beta over the master's tree: `node` at `ply` with `window`.
    fn search(
        &mut self,
        node: &T::Node,
        (mut alpha, beta): (Value, Value),
        ply: u32,
        path: &mut Vec<u32>,
        count: &mut PassCount,
    ) -> Value {
        if ply == self.top {
            return self.leaf(node, (alpha, beta), path, count);
        }
        count.interior += 1;
        let moves = self.tree.moves(node);
        if moves.is_empty() {
            // A terminal position inside the master's tree: its value is its evaluation.
            count.evals += 1;
            return self.tree.evaluate(node).value;
        }
        let mut score = -INF;
        for i in 0..moves.len() {
            let child = self.tree.play(node, moves.get(i));
            path.push(i as u32);
            let v = -self.search(&child, (-beta, -alpha), ply + 1, path, count);
            path.pop();
            score = score.max(v);
            if score >= beta {
                break;
            }
            alpha = alpha.max(score);
        }
        score
    }

    /// The value a pass uses at a leaf of the master's tree.
    fn leaf(
        &mut self,
        node: &T::Node,
        window: (Value, Value),
        path: &[u32],
        count: &mut PassCount,
    ) -> Value {
        let id = match self.ids.get(path) {
            Some(&id) => {
                count.probes += 1;
                id as usize
            }
            None => {
                count.evals += 1;
                let eval = self.tree.evaluate(node).value;
                let id = self.leaves.len();
                let exact = self.rest == 0;
                self.leaves.push(Leaf {
                    node: node.clone(),
                    owner: id % self.workers.len(),
                    // With nothing below the master's tree, the evaluation is the value.
                    lo: if exact { eval } else { -INF },
                    hi: if exact { eval } else { INF },
                    eval,
                    guess: None,
                    // ASSIGN carries the window.
                    told: Some(window),
                });
                self.ids.insert(path.to_vec(), id as u32);
                if !exact {
                    let to = self.workers[id % self.workers.len()];
                    self.outbox.push((
                        to,
                        AphidMsg::Assign {
                            id: id as u32,
                            node: node.clone(),
                            plies: self.top,
                            window,
                        },
                    ));
                }
                id
            }
        };
        let leaf = &mut self.leaves[id];
        if let Some(v) = leaf.settled(window) {
            self.used.push(UsedLeaf {
                node: node.clone(),
                window,
                value: v,
            });
            return v;
        }
        count.certain = false;
        if leaf.told != Some(window) {
            let to = self.workers[leaf.owner];
            self.outbox.push((
                to,
                AphidMsg::Window {
                    id: id as u32,
                    window,
                },
            ));
            leaf.told = Some(window);
        }
        leaf.guess
            .map_or(leaf.eval, |g| g.1)
            .clamp(leaf.lo, leaf.hi)
    }

    /// The pass is over: send what it found, and finish, go on or wait.
    fn pass_done(&mut self, cx: &mut ACx<'_, 't, T>) {
        self.in_pass = false;
        for (to, msg) in std::mem::take(&mut self.outbox) {
            cx.send(to, msg);
        }
        let Some((value, certain)) = self.last else {
            return;
        };
        if certain {
            self.result = Some(value);
            self.finished_at = Some(cx.now());
            cx.mark(format!("root value certain after {} passes", self.passes));
            for &w in &self.workers {
                cx.send(w, AphidMsg::Stop);
            }
        } else if self.news {
            self.pass(cx);
        }
    }

    fn on_result(
        &mut self,
        id: u32,
        depth: u32,
        value: Value,
        bound: Bound,
        cx: &mut ACx<'_, 't, T>,
    ) {
        if self.result.is_some() {
            return;
        }
        let Some(leaf) = self.leaves.get_mut(id as usize) else {
            cx.fail("aphid: a result for a leaf the master never met");
            return;
        };
        if depth == self.rest {
            match bound {
                Bound::Exact => {
                    leaf.lo = value;
                    leaf.hi = value;
                }
                Bound::Upper => leaf.hi = leaf.hi.min(value),
                Bound::Lower => leaf.lo = leaf.lo.max(value),
            }
        } else if leaf.guess.is_none_or(|g| depth >= g.0) {
            leaf.guess = Some((depth, value));
        }
        self.news = true;
        if !self.in_pass {
            self.pass(cx);
        }
    }
}

impl<'t, T: GameTree> Slave<'t, T> {
    /// Starts the next search if idle: the leaf whose next search is shallowest.
    fn next(&mut self, cx: &mut ACx<'_, 't, T>) {
        if self.busy.is_some() || self.stopped {
            return;
        }
        let rest = self.rest;
        let pick = self
            .leaves
            .iter()
            .enumerate()
            .filter_map(|(k, l)| {
                if l.done < rest {
                    Some((l.done + 1, k))
                } else {
                    let settled = l.lo == l.hi || l.hi <= l.window.0 || l.lo >= l.window.1;
                    (!settled).then_some((rest, k))
                }
            })
            .min();
        let Some((depth, k)) = pick else { return };
        let leaf = &self.leaves[k];
        let (id, window) = (leaf.id, leaf.window);
        self.busy = Some((id, depth, window));
        cx.search(
            AlphaBeta::new(self.tree, leaf.node.clone(), window.0, window.1, depth)
                .map_done(|_, v| AphidOut::Searched(v)),
        );
    }

    fn on_message(&mut self, msg: AphidMsg<T::Node>, cx: &mut ACx<'_, 't, T>) {
        match msg {
            AphidMsg::Assign {
                id, node, window, ..
            } => {
                self.index.insert(id, self.leaves.len());
                self.leaves.push(SlaveLeaf {
                    id,
                    node,
                    window,
                    done: 0,
                    lo: -INF,
                    hi: INF,
                });
            }
            AphidMsg::Window { id, window } => {
                if let Some(&k) = self.index.get(&id) {
                    self.leaves[k].window = window;
                }
            }
            AphidMsg::Stop => {
                self.stopped = true;
                self.busy = None;
                cx.abort_search();
            }
            AphidMsg::Result { .. } => cx.fail("aphid: a slave received a result"),
        }
        self.next(cx);
    }

    fn on_done(&mut self, value: Value, cx: &mut ACx<'_, 't, T>) {
        let Some((id, depth, window)) = self.busy.take() else {
            return;
        };
        if self.stopped {
            return;
        }
        let bound = Bound::of(value, window);
        if let Some(&k) = self.index.get(&id) {
            let leaf = &mut self.leaves[k];
            leaf.done = leaf.done.max(depth);
            if depth == self.rest {
                match bound {
                    Bound::Exact => {
                        leaf.lo = value;
                        leaf.hi = value;
                    }
                    Bound::Upper => leaf.hi = leaf.hi.min(value),
                    Bound::Lower => leaf.lo = leaf.lo.max(value),
                }
            }
        }
        cx.send(
            self.master,
            AphidMsg::Result {
                id,
                depth,
                value,
                bound,
            },
        );
        self.next(cx);
    }
}

impl<'t, T: GameTree> Program for AphidRole<'t, T> {
    type Msg = AphidMsg<T::Node>;
    type Out = AphidOut;
    type Search = AphidSearch<'t, T>;

    fn start(&mut self, cx: &mut ACx<'_, 't, T>) {
        if let AphidRole::Master(m) = self {
            m.start(cx);
        }
    }

    fn on_message(&mut self, _from: ProcId, msg: AphidMsg<T::Node>, cx: &mut ACx<'_, 't, T>) {
        match (self, msg) {
            (
                AphidRole::Master(m),
                AphidMsg::Result {
                    id,
                    depth,
                    value,
                    bound,
                },
            ) => m.on_result(id, depth, value, bound, cx),
            (AphidRole::Master(_), _) => cx.fail("aphid: the master received a slave's message"),
            (AphidRole::Slave(s), msg) => s.on_message(msg, cx),
        }
    }

    fn on_done(&mut self, out: AphidOut, cx: &mut ACx<'_, 't, T>) {
        match (self, out) {
            (AphidRole::Master(m), AphidOut::Pass) => m.pass_done(cx),
            (AphidRole::Master(m), AphidOut::Searched(value)) => {
                m.result = Some(value);
                m.finished_at = Some(cx.now());
            }
            (AphidRole::Slave(s), AphidOut::Searched(value)) => s.on_done(value, cx),
            (AphidRole::Slave(_), AphidOut::Pass) => cx.fail("aphid: a slave ran a pass"),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            AphidRole::Master(m) if m.result.is_none() => Some(format!(
                "a certain pass ({} passes, {} leaves, in a pass: {})",
                m.passes,
                m.leaves.len(),
                m.in_pass
            )),
            _ => None,
        }
    }
}
