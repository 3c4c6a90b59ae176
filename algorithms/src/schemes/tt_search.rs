//! The search every processor of the shared-table schemes ([`crate::lazy_smp`],
//! [`crate::abdada`]) runs on its own, and the role that runs it against the shared table.
//!
//! **The search** is iterative deepening over a list of depths, each iteration a fail-soft
//! alpha-beta of the root with the full window, on the explicit-stack engine of
//! [`crate::search::depth_first`]: one costed step per interior node (`k`) or leaf (`e`). At an
//! interior node (a node with moves, above the horizon) it probes the table before expanding
//! it; a deep enough entry whose bound settles the window ends the node (a cutoff, no step),
//! otherwise the entry's best move is searched first (at the root without one, the best move of
//! the processor's previous iteration), then the others in the tree's order. When the node
//! closes it stores its value, draft, bound and best move. Leaves are neither probed nor stored.
//! Without a table nothing is probed or stored: plain iterative-deepening alpha-beta.
//!
//! **Reaching the table.** A search never touches the table in its steps (steps run ahead of
//! global time in batches): at a probe or a store it ends its step run, handing itself back to
//! the role ([`TtOut::Access`]); the role asks the machine for the access (`Cx::read` of the
//! bucket's address for a probe, `Cx::write` for a store or an ABDADA probe, which counts a
//! searcher: a read-modify-write), and when the access ends (`on_done`, in global event order)
//! does the lookup or the store on the shared table, hands the answer to the search and
//! restarts it.
//!
//! **ABDADA's deferral** ([`Mode::Abdada`]): the probe of a node counts this processor among
//! its searchers (unless the entry settles the node) and says whether another processor is
//! searching it; a node's first move is searched at once, its other moves *exclusively* in a
//! first pass: a move whose node is being searched elsewhere is deferred (the child returns
//! "on evaluation" for the probe's cost alone). A second pass searches the deferred moves
//! normally (by then the table often holds their values). The store when the node closes counts
//! the processor out again.
//!
//! **Stopping.** The schemes stop the other processors when processor 0 has finished: a flag in
//! shared memory that every processor's search reads before each step. The searches are
//! started with `Cx::search_shared`, so the machine never runs one past the earliest time
//! another processor could act, and each sees the flag at the simulated time it is set (reading
//! a flag held in the processor's own cache is free; its one write is not charged either).

use crate::parabelle::Bound;
use crate::schemes::shared_table::{SharedTable, SharedTableConfig, TtCounts, TtEntry};
use crate::search::depth_first::{
    Call as DfCall, Child as DfChild, DepthFirst, Enter, Event, Flow, Frame as DfFrame, Policy,
};
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, Program, Search, Step};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// How a processor uses the shared table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// No table: no probes, no stores.
    None,
    /// Probes and stores values (Lazy SMP).
    Values,
    /// ABDADA: probes count searchers and defer busy nodes; `values`: entries hold values too
    /// (else the table only counts searchers, and no value ends a node's search).
    Abdada {
        /// Entries hold values (and settle nodes).
        values: bool,
    },
}

impl Mode {
    fn table(self) -> bool {
        self != Mode::None
    }
    fn values(self) -> bool {
        matches!(self, Mode::Values | Mode::Abdada { values: true })
    }
    fn abdada(self) -> bool {
        matches!(self, Mode::Abdada { .. })
    }
}

/// A table access the search waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Look up `key` before expanding its node; `exclusive`: an ABDADA probe that defers the
    /// node if another processor searches it.
    Probe {
        /// The position's key.
        key: u64,
        /// Defer if being searched elsewhere.
        exclusive: bool,
    },
    /// Store the entry of a node that closed (`leave`: and count this processor out of its
    /// searchers; `store`: the value too).
    Store {
        /// What to store.
        entry: TtEntry,
        /// Store the value.
        store: bool,
        /// Count this processor out (ABDADA).
        leave: bool,
    },
}

/// The answer to a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// The entry found (None: none, or the table holds no values), and whether this processor
    /// now counts among the node's searchers.
    Entry(Option<TtEntry>, bool),
    /// Another processor searches the node: deferred (ABDADA's first pass).
    Busy,
}

/// What a call carries down.
#[derive(Clone, Copy, Debug, Default)]
pub struct TtCall {
    ply: u32,
    exclusive: bool,
    answer: Option<Answer>,
}

/// What a frame keeps.
#[derive(Clone)]
pub struct TtFrame {
    /// Move indices in the order searched.
    order: Vec<u32>,
    key: u64,
    alpha0: Value,
    best: Option<u32>,
    counted: bool,
    ply: u32,
    /// In the second pass (ABDADA): the positions (in `order`) deferred in the first, and the
    /// one being searched.
    deferred: Vec<usize>,
    second: Option<usize>,
}

/// The node policy: fail-soft alpha-beta with table probes, stores and ABDADA's deferral.
#[derive(Clone)]
pub struct TtPolicy {
    mode: Mode,
    /// The iteration (its depth): the age of the entries stored.
    age: u32,
    /// The best root move of the processor's previous iteration.
    previous_best: Option<u32>,
    /// The root's best move once it closed.
    root_best: Option<u32>,
    cutoffs: u64,
    deferrals: u64,
}

/// A node's return: its value, or "on evaluation" elsewhere (deferred).
type Ret = Option<Value>;

impl<T: GameTree> Policy<T> for TtPolicy {
    type Frame = TtFrame;
    type Call = TtCall;
    type Ret = Ret;
    type Yield = Access;

    fn leaf(&mut self, _: &DfCall<T::Node, TtCall>, value: Value) -> Ret {
        Some(value)
    }

    fn open(
        &mut self,
        tree: &T,
        call: &mut DfCall<T::Node, TtCall>,
        moves: &T::Moves,
    ) -> Enter<TtFrame, TtCall, Ret, Access> {
        let key = tree.key(&call.node);
        let (entry, counted) = match call.state.answer.take() {
            None if self.mode.table() => {
                let exclusive = call.state.exclusive;
                return Enter::Yield(Access::Probe { key, exclusive });
            }
            None => (None, false),
            Some(Answer::Busy) => {
                self.deferrals += 1;
                return Enter::Return(None);
            }
            Some(Answer::Entry(e, counted)) => (e, counted),
        };
        if let Some(e) = entry.filter(|e| e.cuts(call.depth, call.alpha, call.beta)) {
            self.cutoffs += 1;
            if call.state.ply == 0 {
                self.root_best = e.best;
            }
            return Enter::Return(Some(e.value));
        }
        let width = moves.len();
        let first = entry
            .and_then(|e| e.best)
            .or(if call.state.ply == 0 {
                self.previous_best
            } else {
                None
            })
            .filter(|&m| (m as usize) < width);
        let mut order = Vec::with_capacity(width);
        order.extend(first);
        order.extend((0..width as u32).filter(|&m| Some(m) != first));
        let child = TtCall {
            ply: call.state.ply + 1,
            exclusive: false,
            answer: None,
        };
        let m = order[0] as usize;
        Enter::Expand(
            TtFrame {
                order,
                key,
                alpha0: call.alpha,
                best: None,
                counted,
                ply: call.state.ply,
                deferred: Vec::new(),
                second: None,
            },
            DfChild::new(m, -call.beta, -call.alpha, child),
        )
    }

    fn returned(&mut self, f: &mut DfFrame<T, TtFrame>, r: Ret) -> Flow<TtCall, Ret, Access> {
        let pos = f.i;
        match r {
            None => f.state.deferred.push(pos),
            Some(v) => {
                let v = -v;
                if v > f.score {
                    f.score = v;
                    f.state.best = Some(f.state.order[pos]);
                }
                f.alpha = f.alpha.max(v);
            }
        }
        if f.score < f.beta {
            let ply = f.state.ply + 1;
            let next = match f.state.second {
                None if pos + 1 < f.width => {
                    // The first pass: ABDADA searches the younger moves exclusively.
                    Some((pos + 1, self.mode.abdada()))
                }
                None => {
                    // The deferred moves, in a second pass.
                    (!f.state.deferred.is_empty()).then(|| {
                        f.state.second = Some(0);
                        (f.state.deferred[0], false)
                    })
                }
                Some(k) => (k + 1 < f.state.deferred.len()).then(|| {
                    f.state.second = Some(k + 1);
                    (f.state.deferred[k + 1], false)
                }),
            };
            if let Some((pos, exclusive)) = next {
                f.i = pos;
                let child = TtCall {
                    ply,
                    exclusive,
                    answer: None,
                };
                let m = f.state.order[pos] as usize;
                return Flow::Call(DfChild::new(m, -f.beta, -f.alpha, child));
            }
        }
        self.close(f)
    }
}

impl TtPolicy {
    fn close<T: GameTree>(&mut self, f: &mut DfFrame<T, TtFrame>) -> Flow<TtCall, Ret, Access> {
        if f.state.ply == 0 {
            self.root_best = f.state.best;
        }
        let ret = Some(f.score);
        let store = self.mode.values();
        let leave = f.state.counted;
        if !store && !leave {
            return Flow::Return(ret);
        }
        let bound = if f.score <= f.state.alpha0 {
            Bound::Upper
        } else if f.score >= f.beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let entry = TtEntry {
            key: f.state.key,
            draft: f.depth,
            value: f.score,
            bound: Some(bound),
            best: f.state.best,
            age: self.age,
            searching: 0,
        };
        Flow::ReturnYield(
            ret,
            Access::Store {
                entry,
                store,
                leave,
            },
        )
    }
}

/// A processor's iteration that ended: its depth, the root's value and best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: u32,
    /// The root's value.
    pub value: Value,
    /// The root's best move (index in the tree's move order), if it has moves.
    pub best: Option<u32>,
}

/// One processor's iterative deepening.
pub struct Job<'t, T: GameTree> {
    tree: &'t T,
    core: DepthFirst<'t, T, TtPolicy>,
    mode: Mode,
    /// The depths to search, in order, and the index of the one under way.
    depths: Vec<u32>,
    at: usize,
    stop: Rc<Cell<bool>>,
    last: Option<Iteration>,
    cutoffs: u64,
    deferrals: u64,
}

impl<'t, T: GameTree> Job<'t, T> {
    fn iteration(
        tree: &'t T,
        mode: Mode,
        depth: u32,
        previous_best: Option<u32>,
    ) -> DepthFirst<'t, T, TtPolicy> {
        let policy = TtPolicy {
            mode,
            age: depth,
            previous_best,
            root_best: None,
            cutoffs: 0,
            deferrals: 0,
        };
        DepthFirst::with_policy(
            tree,
            tree.root(),
            (-INF, INF),
            depth,
            policy,
            TtCall::default(),
        )
    }

    fn collect(&mut self) {
        let p = self.core.policy_mut();
        self.cutoffs += std::mem::take(&mut p.cutoffs);
        self.deferrals += std::mem::take(&mut p.deferrals);
    }
}

/// What a processor's search hands back to its role.
pub enum TtOut<'t, T: GameTree> {
    /// The search waits for a table access.
    Access(Box<Job<'t, T>>, Access),
    /// Every depth is searched.
    Finished(Box<Job<'t, T>>),
    /// The stop flag was seen.
    Stopped(Box<Job<'t, T>>),
    /// A table access ended.
    Accessed,
}

impl<T: GameTree> std::fmt::Debug for TtOut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TtOut::Access(..) => "Access",
            TtOut::Finished(_) => "Finished",
            TtOut::Stopped(_) => "Stopped",
            TtOut::Accessed => "Accessed",
        })
    }
}

/// The machine's handle on a processor's search.
pub struct TtSearch<'t, T: GameTree>(Option<Box<Job<'t, T>>>);

impl<'t, T: GameTree> Search for TtSearch<'t, T> {
    type Out = TtOut<'t, T>;
    fn step(&mut self) -> Step<TtOut<'t, T>> {
        let job = self.0.as_mut().expect("a search not yet handed back");
        // The stop flag is shared: the search is started with `search_shared`.
        if job.stop.get() {
            job.collect();
            return Step::Done(TtOut::Stopped(self.0.take().expect("a job")));
        }
        loop {
            match job.core.advance() {
                Event::Interior => return Step::Interior,
                Event::Leaf(quiescence) => return Step::Leaf { quiescence },
                Event::Probe => unreachable!("the shared table is reached through the role"),
                Event::Await { .. } => unreachable!("the search evaluates its own horizon"),
                Event::Yield(access) => {
                    job.collect();
                    return Step::Done(TtOut::Access(self.0.take().expect("a job"), access));
                }
                Event::Done => {
                    job.collect();
                    let value = job
                        .core
                        .take_result()
                        .expect("the root's value")
                        .expect("the root is never deferred");
                    let best = job.core.policy_mut().root_best;
                    job.last = Some(Iteration {
                        depth: job.depths[job.at],
                        value,
                        best,
                    });
                    job.at += 1;
                    let Some(&depth) = job.depths.as_slice().get(job.at) else {
                        return Step::Done(TtOut::Finished(self.0.take().expect("a job")));
                    };
                    job.core = Job::iteration(job.tree, job.mode, depth, best);
                }
            }
        }
    }
}

/// A message type with no messages: the shared-table schemes talk only through memory.
#[derive(Clone, Debug)]
pub enum NoMsg {}

impl Message for NoMsg {
    fn kind(&self) -> MsgKind {
        match *self {}
    }
    fn bytes(&self) -> u64 {
        match *self {}
    }
}

/// What all processors of one run share: the table (if any), the stop flag.
pub struct Shared {
    table: Option<RefCell<SharedTable>>,
    stop: Rc<Cell<bool>>,
}

impl Shared {
    /// A table of `config` (None: none) and a stop flag down.
    pub fn new(config: Option<SharedTableConfig>) -> Rc<Self> {
        Rc::new(Shared {
            table: config.map(|c| RefCell::new(SharedTable::new(c))),
            stop: Rc::new(Cell::new(false)),
        })
    }
    /// The table's traffic (None without a table).
    pub fn counts(&self) -> Option<TtCounts> {
        self.table.as_ref().map(|t| t.borrow().counts())
    }
}

/// The role every processor runs: its iterative deepening against the shared table.
pub struct TtRole<'t, T: GameTree> {
    tree: &'t T,
    mode: Mode,
    depths: Vec<u32>,
    shared: Rc<Shared>,
    /// The search waiting for a table access, and the access.
    waiting: Option<(Box<Job<'t, T>>, Access)>,
    /// The last iteration this processor finished.
    last: Option<Iteration>,
    /// Every depth searched (not stopped).
    finished: bool,
    finished_at: Option<SimTime>,
    cutoffs: u64,
    deferrals: u64,
    /// Processor 0: its result is the run's, and its end stops the others.
    master: bool,
}

type TCx<'a, 't, T> = Cx<'a, TtRole<'t, T>>;

impl<'t, T: GameTree> TtRole<'t, T> {
    /// A processor searching `depths` in turn (none: it idles) in `mode` with `shared`;
    /// `master`: processor 0, whose end stops the others.
    pub fn new(
        tree: &'t T,
        mode: Mode,
        depths: Vec<u32>,
        shared: Rc<Shared>,
        master: bool,
    ) -> Self {
        TtRole {
            master,
            tree,
            mode,
            depths,
            shared,
            waiting: None,
            last: None,
            finished: false,
            finished_at: None,
            cutoffs: 0,
            deferrals: 0,
        }
    }
    /// What the processors share.
    pub fn shared(&self) -> &Rc<Shared> {
        &self.shared
    }
    /// The depths this processor searches, in order.
    pub fn depths(&self) -> &[u32] {
        &self.depths
    }
    /// The last iteration it finished.
    pub fn last(&self) -> Option<Iteration> {
        self.last
    }
    /// Whether it searched every one of its depths.
    pub fn finished(&self) -> bool {
        self.finished
    }
    /// When it finished its last depth.
    pub fn finished_at(&self) -> Option<SimTime> {
        self.finished_at
    }
    /// Table entries that ended a node's search here.
    pub fn cutoffs(&self) -> u64 {
        self.cutoffs
    }
    /// Moves deferred here (ABDADA's first pass).
    pub fn deferrals(&self) -> u64 {
        self.deferrals
    }

    fn run(&mut self, job: Box<Job<'t, T>>, cx: &mut TCx<'_, 't, T>) {
        cx.search_shared(TtSearch(Some(job)));
    }

    fn end(&mut self, job: &Job<'t, T>) {
        self.last = job.last;
        self.cutoffs += job.cutoffs;
        self.deferrals += job.deferrals;
    }

    /// The access ended: the lookup or store on the shared table, then the search goes on.
    fn accessed(&mut self, cx: &mut TCx<'_, 't, T>) {
        let Some((mut job, access)) = self.waiting.take() else {
            cx.fail("a table access ended with no search waiting for it");
            return;
        };
        let Some(table) = self.shared.table.as_ref() else {
            cx.fail("a table access without a table");
            return;
        };
        let mut table = table.borrow_mut();
        match access {
            Access::Probe { key, exclusive } => {
                let call = job
                    .core
                    .pending_call()
                    .expect("a probe waits before its node");
                let (depth, alpha, beta) = (call.depth, call.alpha, call.beta);
                let found = table.probe(key);
                let values = self.mode.values();
                let answer = match found {
                    Some(e) if values && e.cuts(depth, alpha, beta) => {
                        Answer::Entry(Some(e), false)
                    }
                    Some(e) if exclusive && e.searching > 0 => Answer::Busy,
                    _ => {
                        let counted = self.mode.abdada();
                        if counted {
                            table.enter(key, depth, job.core.policy_mut().age);
                        }
                        Answer::Entry(found.filter(|e| values && e.bound.is_some()), counted)
                    }
                };
                call_answer(&mut job, answer);
            }
            Access::Store {
                entry,
                store,
                leave,
            } => {
                if store {
                    table.store(entry);
                }
                if leave {
                    table.leave(entry.key);
                }
            }
        }
        drop(table);
        self.run(job, cx);
    }
}

fn call_answer<T: GameTree>(job: &mut Job<'_, T>, answer: Answer) {
    if let Some(call) = job.core.pending_call() {
        call.state.answer = Some(answer);
    }
}

impl<'t, T: GameTree> Program for TtRole<'t, T> {
    type Msg = NoMsg;
    type Out = TtOut<'t, T>;
    type Search = TtSearch<'t, T>;

    fn start(&mut self, cx: &mut TCx<'_, 't, T>) {
        let Some(&depth) = self.depths.first() else {
            return;
        };
        let job = Box::new(Job {
            tree: self.tree,
            core: Job::iteration(self.tree, self.mode, depth, None),
            mode: self.mode,
            depths: self.depths.clone(),
            at: 0,
            stop: self.shared.stop.clone(),
            last: None,
            cutoffs: 0,
            deferrals: 0,
        });
        self.run(job, cx);
    }

    fn on_message(&mut self, _: ProcId, msg: NoMsg, _: &mut TCx<'_, 't, T>) {
        match msg {}
    }

    fn on_done(&mut self, out: TtOut<'t, T>, cx: &mut TCx<'_, 't, T>) {
        match out {
            TtOut::Access(job, access) => {
                let addr = match access {
                    Access::Probe { key, .. }
                    | Access::Store {
                        entry: TtEntry { key, .. },
                        ..
                    } => match &self.shared.table {
                        Some(t) => t.borrow().address(key),
                        None => {
                            cx.fail("a table access without a table");
                            return;
                        }
                    },
                };
                // An ABDADA probe counts a searcher: a read-modify-write.
                let write = matches!(access, Access::Store { .. }) || self.mode.abdada();
                self.waiting = Some((job, access));
                if write {
                    cx.write(addr, TtOut::Accessed);
                } else {
                    cx.read(addr, TtOut::Accessed);
                }
            }
            TtOut::Accessed => {
                if self.shared.stop.get() {
                    // Stopped while waiting: the search is dropped where it is.
                    if let Some((job, _)) = self.waiting.take() {
                        self.end(&job);
                    }
                    return;
                }
                self.accessed(cx);
            }
            TtOut::Stopped(job) => self.end(&job),
            TtOut::Finished(job) => {
                self.end(&job);
                self.finished = true;
                self.finished_at = Some(cx.now());
                if self.master {
                    self.shared.stop.set(true);
                    cx.mark("root value");
                }
            }
        }
    }

    fn pending(&self) -> Option<String> {
        (self.master && !self.finished).then(|| "the root value".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AlphaBeta, Ordering, SequentialSearch, SyntheticSpec, SyntheticTree};
    use sim_hw::{run_alone, CostModel};

    /// The node policy without a table is fail-soft alpha-beta: its value and leaves.
    #[test]
    fn one_iteration_without_a_table_is_alphabetas_search() {
        for seed in 0..200 {
            let spec = SyntheticSpec {
                width: 2 + seed as u32 % 6,
                depth: 3 + seed as u32 % 3,
                ordering: if seed % 2 == 0 {
                    Ordering::Random
                } else {
                    Ordering::FirstBest { p: 0.7 }
                },
                value_spread: 100,
                horizon_noise: 10 * (seed as u32 % 3),
            };
            let tree = SyntheticTree::new(spec.clone(), seed).unwrap();
            let mut a = AlphaBeta::new(&tree, tree.root(), -INF, INF, spec.depth);
            let (va, wa) = run_alone(&mut a, &CostModel::campbell());
            let mut b = Job::iteration(&tree, Mode::None, spec.depth, None);
            let mut n = 0;
            let vb = loop {
                match b.advance() {
                    Event::Done => break b.take_result().unwrap().unwrap(),
                    Event::Leaf(_) => n += 1,
                    _ => {}
                }
            };
            assert_eq!((va, wa.nodes.leaves), (vb, n), "seed {seed}");
        }
    }
}
