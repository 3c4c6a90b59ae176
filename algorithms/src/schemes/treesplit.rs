//! Tree-splitting (`treesplit`): Campbell's thesis, Fig. 10 (after Fishburn and Finkel), with the
//! dynamic window update of Fig. 11 (`treesplit_update`), on a processor tree of any depth and
//! width.
//!
//! - A **non-terminal processor** (one with slaves) given a node generates its successors (cost
//!   `k`) and hands them, one at a time, to idle slaves with its current window (the `parfor … when
//!   (a slave j is idle)` of Fig. 10). Each returned value may raise its alpha; when alpha reaches
//!   beta it stops (`terminate()`: an ABORT to every busy slave) and returns alpha. When every
//!   successor is done it returns alpha. The root processor starts with (−∞, +∞); its result is the
//!   root value.
//! - A **terminal processor** runs a sequential alpha-beta search of the node it was given
//!   ([`AlphaBeta`], a resumable machine that the simulated machine advances node by node).
//! - With `update`, a master whose alpha rises sends an UPDATE to each busy slave (Fig. 11): a
//!   terminal slave narrows the window of its running search (from the next node it visits, at the
//!   simulated time it reads the message, which its read policy decides); a non-terminal slave
//!   narrows its own window, passes the change on to its busy slaves, and stops if its window
//!   closes.
//!
//! Messages carry an assignment number, so a result, update or abort that crosses another
//! message on the line (a slave's result on its way up while its master aborts it) is recognised
//! as stale and ignored: the scheme returns the sequential root value under every read policy.
//! An ABORT can even reach a slave before the WORK it cancels: an interrupt-driven master's
//! handler sends at once, ahead of a WORK its main line had queued but not yet sent. Assignment
//! numbers from one master only grow, so a slave ignores a WORK whose number is not above the
//! highest it has seen aborted.
//!
//! Message sizes (the paper's Table I sizes where they apply; all inter-node):
//! WORK 6 bytes (a move and two bounds), RESULT 4 bytes (a value, as Table I's returned value),
//! UPDATE 4 bytes (a bound and which side), ABORT 2 bytes.

use crate::search::alphabeta::AlphaBeta;
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, ProcessorTree, Program, Search, Step, Work};
use std::collections::VecDeque;

/// Options of a tree-splitting search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSplitConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Campbell's dynamic window update (Fig. 11).
    pub update: bool,
}

/// Tree-splitting as a [`crate::Scheme`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSplit(pub TreeSplitConfig);

/// The messages of tree-splitting; windows are in the receiver's (negamax) view.
#[derive(Clone, Debug)]
pub enum TsMsg<N> {
    /// Search `node` to `depth` with window (alpha, beta), as assignment `id`.
    Work {
        /// Assignment number.
        id: u64,
        /// The position (charged as a 2-byte move: the slave knows the path).
        node: N,
        /// Lower bound of the window.
        alpha: Value,
        /// Upper bound of the window.
        beta: Value,
        /// Plies to search.
        depth: u32,
    },
    /// The value of assignment `id`, in the slave's view (fail-soft bound outside the window).
    Result {
        /// Assignment number.
        id: u64,
        /// The value.
        value: Value,
    },
    /// Fig. 11's UPDATE: the window of assignment `id` is now at least `alpha` / at most `beta`.
    Update {
        /// Assignment number.
        id: u64,
        /// A new lower bound, if the master's beta fell.
        alpha: Option<Value>,
        /// A new upper bound, if the master's alpha rose.
        beta: Option<Value>,
    },
    /// Fig. 10's terminate(): stop assignment `id`.
    Abort {
        /// Assignment number.
        id: u64,
    },
}

impl<N> Message for TsMsg<N> {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        match self {
            TsMsg::Work { .. } => 6,
            TsMsg::Result { .. } | TsMsg::Update { .. } => 4,
            TsMsg::Abort { .. } => 2,
        }
    }
}

/// What a tree-splitting processor's work hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsOut {
    /// A master generated the moves of assignment `id`'s node.
    Generated {
        /// Assignment number.
        id: u64,
    },
    /// A master evaluated assignment `id`'s node itself (horizon or terminal position).
    Evaluated {
        /// Assignment number.
        id: u64,
        /// The value (its own view).
        value: Value,
    },
    /// A terminal processor's alpha-beta search ended with this value.
    Searched(Value),
}

/// A terminal processor's search: alpha-beta, whose result is handed back as [`TsOut::Searched`].
pub struct TsSearch<'t, T: GameTree>(AlphaBeta<'t, T>);

impl<T: GameTree> Search for TsSearch<'_, T> {
    type Out = TsOut;
    fn step(&mut self) -> Step<TsOut> {
        match self.0.step() {
            Step::Interior => Step::Interior,
            Step::Leaf { quiescence } => Step::Leaf { quiescence },
            Step::Probe => Step::Probe,
            Step::Done(v) => Step::Done(TsOut::Searched(v)),
        }
    }
}

/// The assignment a master is working on.
struct Job<T: GameTree> {
    /// Its number in the parent's messages (0 for the root's own search).
    id: u64,
    node: T::Node,
    alpha: Value,
    beta: Value,
    depth: u32,
    /// Generated when the `k` of its node has passed.
    moves: Option<T::Moves>,
    next: usize,
    /// Per slave (index into `slaves`): the assignment it is busy with.
    busy: Vec<Option<u64>>,
    idle: VecDeque<usize>,
}

/// A non-terminal processor's state.
pub struct Master<'t, T: GameTree> {
    tree: &'t T,
    config: TreeSplitConfig,
    parent: Option<ProcId>,
    slaves: Vec<ProcId>,
    job: Option<Job<T>>,
    next_id: u64,
    /// The highest assignment number its parent has aborted.
    aborted: u64,
    result: Option<Value>,
    finished_at: Option<SimTime>,
}

/// A terminal processor's state.
pub struct Terminal<'t, T: GameTree> {
    tree: &'t T,
    config: TreeSplitConfig,
    parent: Option<ProcId>,
    /// The assignment its running search belongs to.
    current: Option<u64>,
    /// The highest assignment number its parent has aborted.
    aborted: u64,
    result: Option<Value>,
    finished_at: Option<SimTime>,
    log: UpdateLog,
}

/// What a terminal processor did with its assignments and the UPDATEs it read (for tests and
/// reports: whether an update reached the search it was meant for).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateLog {
    /// (assignment, when its search started).
    pub started: Vec<(u64, SimTime)>,
    /// (assignment, when its search ended with a value).
    pub ends: Vec<(u64, SimTime)>,
    /// Every UPDATE read.
    pub reads: Vec<UpdateRead>,
}

/// One UPDATE a terminal processor read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpdateRead {
    /// When it was read.
    pub at: SimTime,
    /// The assignment it was meant for.
    pub id: u64,
    /// It changed that assignment's running search (false: the search had ended or was aborted).
    pub reached: bool,
}

/// A tree-splitting role on one processor.
pub enum TreeSplitRole<'t, T: GameTree> {
    /// A processor with slaves.
    Master(Master<'t, T>),
    /// A processor without slaves.
    Terminal(Terminal<'t, T>),
}

type TCx<'a, 't, T> = Cx<'a, TreeSplitRole<'t, T>>;

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for TreeSplit {
    type Role = TreeSplitRole<'t, T>;
    fn name(&self) -> String {
        if self.0.update {
            "treesplit_update".into()
        } else {
            "treesplit".into()
        }
    }
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, String> {
        if self.0.depth == 0 {
            return Err("treesplit needs a search depth of at least 1".into());
        }
        Ok((0..ptree.len() as u32)
            .map(ProcId)
            .map(|p| {
                let slaves = ptree.children(p);
                let parent = ptree.parent(p);
                if slaves.is_empty() {
                    TreeSplitRole::Terminal(Terminal {
                        tree,
                        config: self.0,
                        parent,
                        current: None,
                        aborted: 0,
                        result: None,
                        finished_at: None,
                        log: UpdateLog::default(),
                    })
                } else {
                    TreeSplitRole::Master(Master {
                        tree,
                        config: self.0,
                        parent,
                        slaves,
                        job: None,
                        next_id: 1,
                        aborted: 0,
                        result: None,
                        finished_at: None,
                    })
                }
            })
            .collect())
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(TreeSplitRole::root_value)
    }
}

impl<T: GameTree> TreeSplitRole<'_, T> {
    /// A terminal processor's record of its searches and the UPDATEs it read (empty for masters).
    pub fn update_log(&self) -> UpdateLog {
        match self {
            TreeSplitRole::Master(_) => UpdateLog::default(),
            TreeSplitRole::Terminal(t) => t.log.clone(),
        }
    }
    /// The root value, on the root processor once it has finished.
    pub fn root_value(&self) -> Option<Value> {
        match self {
            TreeSplitRole::Master(m) => m.result,
            TreeSplitRole::Terminal(t) => t.result,
        }
    }
    /// When the root processor had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            TreeSplitRole::Master(m) => m.finished_at,
            TreeSplitRole::Terminal(t) => t.finished_at,
        }
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    /// treesplit(p, alpha, beta) begins: generate p's successors (cost k), or evaluate p at the
    /// horizon.
    fn begin(
        &mut self,
        id: u64,
        node: T::Node,
        alpha: Value,
        beta: Value,
        depth: u32,
        cx: &mut TCx<'_, 't, T>,
    ) {
        let costs = *cx.costs();
        let mut work = Work::default();
        let out = if depth == 0 {
            let eval = self.tree.evaluate(&node);
            work.time = costs.e;
            work.nodes.leaves = 1;
            work.nodes.leaf_ns = costs.e.as_nanos();
            work.nodes.quiescence = eval.quiescence as u64;
            TsOut::Evaluated {
                id,
                value: eval.value,
            }
        } else {
            work.time = costs.k;
            work.nodes.interior = 1;
            TsOut::Generated { id }
        };
        self.job = Some(Job {
            id,
            node,
            alpha,
            beta,
            depth,
            moves: None,
            next: 0,
            busy: vec![None; self.slaves.len()],
            idle: (0..self.slaves.len()).collect(),
        });
        cx.compute(work, out);
    }

    /// Hands the next successors to idle slaves; finishes when all are back.
    fn assign(&mut self, cx: &mut TCx<'_, 't, T>) {
        let Some(job) = self.job.as_mut() else { return };
        let Some(moves) = job.moves.as_ref() else {
            return;
        };
        while job.next < moves.len() {
            let Some(j) = job.idle.pop_front() else { break };
            let node = self.tree.play(&job.node, moves.get(job.next));
            job.next += 1;
            let id = self.next_id;
            self.next_id += 1;
            job.busy[j] = Some(id);
            cx.send(
                self.slaves[j],
                TsMsg::Work {
                    id,
                    node,
                    alpha: -job.beta,
                    beta: -job.alpha,
                    depth: job.depth - 1,
                },
            );
        }
        if job.next >= moves.len() && job.busy.iter().all(Option::is_none) {
            let v = job.alpha;
            self.finish(v, cx);
        }
    }

    /// Stops every busy slave (Fig. 10's terminate()).
    fn terminate(&mut self, cx: &mut TCx<'_, 't, T>) {
        let Some(job) = self.job.as_mut() else { return };
        for (j, busy) in job.busy.iter_mut().enumerate() {
            if let Some(id) = busy.take() {
                cx.send(self.slaves[j], TsMsg::Abort { id });
                job.idle.push_back(j);
            }
        }
    }

    /// The job's value is known: report it (or, at the root, keep it).
    fn finish(&mut self, value: Value, cx: &mut TCx<'_, 't, T>) {
        let Some(job) = self.job.take() else { return };
        match self.parent {
            Some(parent) => cx.send(parent, TsMsg::Result { id: job.id, value }),
            None => {
                self.result = Some(value);
                self.finished_at = Some(cx.now());
                cx.mark("root value known");
            }
        }
    }

    /// A narrower window for the job: pass it on to busy slaves (with update), stop if it closed.
    fn narrow(&mut self, alpha: Option<Value>, beta: Option<Value>, cx: &mut TCx<'_, 't, T>) {
        let Some(job) = self.job.as_mut() else { return };
        let (old_alpha, old_beta) = (job.alpha, job.beta);
        if let Some(a) = alpha {
            job.alpha = job.alpha.max(a);
        }
        if let Some(b) = beta {
            job.beta = job.beta.min(b);
        }
        if job.alpha >= job.beta {
            self.terminate(cx);
            let v = self.job.as_ref().map_or(0, |j| j.alpha);
            self.finish(v, cx);
            return;
        }
        if self.config.update {
            let slave_beta = (job.alpha > old_alpha).then_some(-job.alpha);
            let slave_alpha = (job.beta < old_beta).then_some(-job.beta);
            if slave_alpha.is_some() || slave_beta.is_some() {
                for (j, busy) in job.busy.iter().enumerate() {
                    if let Some(id) = *busy {
                        cx.send(
                            self.slaves[j],
                            TsMsg::Update {
                                id,
                                alpha: slave_alpha,
                                beta: slave_beta,
                            },
                        );
                    }
                }
            }
        }
    }

    fn on_message(&mut self, from: ProcId, msg: TsMsg<T::Node>, cx: &mut TCx<'_, 't, T>) {
        match msg {
            TsMsg::Work {
                id,
                node,
                alpha,
                beta,
                depth,
            } => {
                if id <= self.aborted {
                    return; // aborted before it arrived
                }
                if self.job.is_some() {
                    cx.fail("treesplit: work arrived while the last assignment was open");
                    return;
                }
                self.begin(id, node, alpha, beta, depth, cx);
            }
            TsMsg::Result { id, value } => {
                let Some(job) = self.job.as_mut() else { return };
                let Some(j) = self.slaves.iter().position(|&s| s == from) else {
                    return;
                };
                if job.busy[j] != Some(id) {
                    return; // stale: the slave was aborted, or the job is an older one
                }
                job.busy[j] = None;
                job.idle.push_back(j);
                let t = -value;
                if t > job.alpha {
                    self.narrow(Some(t), None, cx);
                }
                self.assign(cx);
            }
            TsMsg::Update { id, alpha, beta } => {
                if self.job.as_ref().is_some_and(|j| j.id == id) {
                    self.narrow(alpha, beta, cx);
                    self.assign(cx);
                }
            }
            TsMsg::Abort { id } => {
                self.aborted = self.aborted.max(id);
                if self.job.as_ref().is_some_and(|j| j.id == id) {
                    self.terminate(cx);
                    self.job = None;
                }
            }
        }
    }

    fn on_done(&mut self, out: TsOut, cx: &mut TCx<'_, 't, T>) {
        let current = self.job.as_ref().map(|j| j.id);
        match out {
            TsOut::Generated { id } if current == Some(id) => {
                let job = self.job.as_mut().expect("checked");
                let moves = self.tree.moves(&job.node);
                if moves.is_empty() {
                    // A terminal position: evaluate it here.
                    let depth = 0;
                    let (node, alpha, beta) = (job.node.clone(), job.alpha, job.beta);
                    self.job = None;
                    self.begin(id, node, alpha, beta, depth, cx);
                    return;
                }
                job.moves = Some(moves);
                self.assign(cx);
            }
            TsOut::Evaluated { id, value } if current == Some(id) => self.finish(value, cx),
            _ => {} // the work of an aborted job
        }
    }
}

impl<'t, T: GameTree> Terminal<'t, T> {
    fn on_message(&mut self, msg: TsMsg<T::Node>, cx: &mut TCx<'_, 't, T>) {
        match msg {
            TsMsg::Work {
                id,
                node,
                alpha,
                beta,
                depth,
            } => {
                if id <= self.aborted {
                    return; // aborted before it arrived
                }
                if self.current.is_some() {
                    cx.fail("treesplit: work arrived while the last search was running");
                    return;
                }
                self.current = Some(id);
                self.log.started.push((id, cx.now()));
                cx.search(TsSearch(AlphaBeta::new(
                    self.tree, node, alpha, beta, depth,
                )));
            }
            TsMsg::Update { id, alpha, beta } => {
                let mut reached = false;
                if self.current == Some(id) {
                    if let Some(TsSearch(s)) = cx.search_mut() {
                        if let Some(a) = alpha {
                            s.raise_alpha(a);
                        }
                        if let Some(b) = beta {
                            s.lower_beta(b);
                        }
                        reached = true;
                    }
                }
                self.log.reads.push(UpdateRead {
                    at: cx.now(),
                    id,
                    reached,
                });
            }
            TsMsg::Abort { id } => {
                self.aborted = self.aborted.max(id);
                if self.current == Some(id) {
                    cx.abort_search();
                    self.current = None;
                }
            }
            _ => {} // stale, or a result (terminal processors have no slaves)
        }
    }

    fn on_done(&mut self, out: TsOut, cx: &mut TCx<'_, 't, T>) {
        let TsOut::Searched(value) = out else { return };
        let id = self.current.take();
        if let Some(id) = id {
            self.log.ends.push((id, cx.now()));
        }
        match (self.parent, id) {
            (Some(parent), Some(id)) => cx.send(parent, TsMsg::Result { id, value }),
            (None, _) => {
                self.result = Some(value);
                self.finished_at = Some(cx.now());
                cx.mark("root value known");
            }
            (Some(_), None) => {}
        }
    }
}

impl<'t, T: GameTree> Program for TreeSplitRole<'t, T> {
    type Msg = TsMsg<T::Node>;
    type Out = TsOut;
    type Search = TsSearch<'t, T>;

    fn start(&mut self, cx: &mut TCx<'_, 't, T>) {
        match self {
            TreeSplitRole::Master(m) if m.parent.is_none() => {
                let (root, depth) = (m.tree.root(), m.config.depth);
                m.begin(0, root, -INF, INF, depth, cx);
            }
            TreeSplitRole::Terminal(t) if t.parent.is_none() => {
                // A uniprocessor: the root processor is terminal and searches the whole tree.
                t.current = Some(0);
                let root = t.tree.root();
                cx.search(TsSearch(AlphaBeta::new(
                    t.tree,
                    root,
                    -INF,
                    INF,
                    t.config.depth,
                )));
            }
            _ => {}
        }
    }

    fn on_message(&mut self, from: ProcId, msg: TsMsg<T::Node>, cx: &mut TCx<'_, 't, T>) {
        match self {
            TreeSplitRole::Master(m) => m.on_message(from, msg, cx),
            TreeSplitRole::Terminal(t) => t.on_message(msg, cx),
        }
    }

    fn on_done(&mut self, out: TsOut, cx: &mut TCx<'_, 't, T>) {
        match self {
            TreeSplitRole::Master(m) => m.on_done(out, cx),
            TreeSplitRole::Terminal(t) => t.on_done(out, cx),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            TreeSplitRole::Master(m) if m.parent.is_none() && m.result.is_none() => {
                let busy = m
                    .job
                    .as_ref()
                    .map_or(0, |j| j.busy.iter().filter(|b| b.is_some()).count());
                Some(format!("the root value ({busy} slaves busy)"))
            }
            TreeSplitRole::Terminal(t) if t.parent.is_none() && t.result.is_none() => {
                Some("the root value".into())
            }
            _ => None,
        }
    }
}
