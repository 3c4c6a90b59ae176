//! The split-work protocol of tree-splitting, pv-splitting and parallel staged SSS*: a master
//! hands numbered assignments (WORK) to its slaves, a slave answers with the assignment's value
//! (RESULT), and the master may narrow an assignment's window (UPDATE, Campbell's Fig. 11) or
//! stop it (ABORT, Fig. 10's terminate()).
//!
//! **Assignment numbers.** Every WORK carries a number, and every RESULT, UPDATE and ABORT the
//! number of the assignment it is about, so that a message that crosses another on the line (a
//! slave's result on its way up while its master aborts it) is recognised as stale and ignored:
//! the schemes return the sequential root value under every read policy. An ABORT can even reach
//! a slave before the WORK it cancels (an interrupt-driven master's handler sends at once, ahead
//! of a WORK its main line had queued but not yet sent); a master's numbers only grow, so a slave
//! ignores a WORK whose number is not above the highest it has seen aborted. [`Slaves`] is the
//! master's side of this bookkeeping, [`Upward`] the slave's.
//!
//! **Sizes** (the paper's Table I sizes where they apply; all inter-node): WORK 6 bytes (a move
//! and two bounds; pv-splitting's node type travels in spare bits), RESULT 4 bytes (a value, as
//! Table I's returned value), UPDATE 4 bytes (a bound and which side), ABORT 2 bytes.
//!
//! [`AbSlave`] is the terminal processor of tree-splitting and pv-splitting: sequential
//! fail-soft alpha-beta on each node it is given, its window narrowed by UPDATEs.

use crate::schemes::adapter::{Adapted, SearchExt};
use crate::search::alphabeta::AlphaBeta;
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{CostModel, Cx, Message, Program, Work};
use std::collections::VecDeque;

/// The messages of the split-work protocol; windows are in the receiver's (negamax) view. `X`
/// is what else a scheme says with a WORK (pv-splitting: the node's type).
#[derive(Clone, Debug)]
pub enum SplitMsg<N, X = ()> {
    /// Search the task as assignment `id`.
    Work {
        /// Assignment number (grows with every assignment of the master).
        id: u64,
        /// What to search.
        task: Task<N, X>,
    },
    /// The value of assignment `id`, in the slave's view (fail-soft: a bound outside the window).
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
    /// terminate(): stop assignment `id`.
    Abort {
        /// Assignment number.
        id: u64,
    },
}

/// What a WORK asks for: search `node` to `depth` plies with the window (alpha, beta).
#[derive(Clone, Debug)]
pub struct Task<N, X = ()> {
    /// The position (charged as a 2-byte move: the slave knows the path).
    pub node: N,
    /// Lower bound of the window.
    pub alpha: Value,
    /// Upper bound of the window.
    pub beta: Value,
    /// Plies to search.
    pub depth: u32,
    /// What else the scheme says (pv-splitting: the node's type).
    pub tag: X,
}

impl<N, X> Task<N, X> {
    /// The root of `tree` to `depth` plies with the full window.
    pub fn root<T: GameTree<Node = N>>(tree: &T, depth: u32, tag: X) -> Self {
        Task {
            node: tree.root(),
            alpha: -INF,
            beta: INF,
            depth,
            tag,
        }
    }
    /// Narrows the window to at least `alpha` / at most `beta`; returns the old window.
    pub fn narrow(&mut self, alpha: Option<Value>, beta: Option<Value>) -> (Value, Value) {
        let old = (self.alpha, self.beta);
        if let Some(a) = alpha {
            self.alpha = self.alpha.max(a);
        }
        if let Some(b) = beta {
            self.beta = self.beta.min(b);
        }
        old
    }
    /// The window for successor `node` (the receiver's view: `(-beta, -alpha)`, one ply less).
    pub fn successor<Y>(&self, node: N, tag: Y) -> Task<N, Y> {
        Task {
            node,
            alpha: -self.beta,
            beta: -self.alpha,
            depth: self.depth - 1,
            tag,
        }
    }
}

impl<N, X> Message for SplitMsg<N, X> {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        match self {
            SplitMsg::Work { .. } => 6,
            SplitMsg::Result { .. } | SplitMsg::Update { .. } => 4,
            SplitMsg::Abort { .. } => 2,
        }
    }
}

/// The work of generating a node's moves (cost `k`).
pub fn interior_work(costs: &CostModel) -> Work {
    let mut work = Work {
        time: costs.k,
        ..Work::default()
    };
    work.nodes.interior = 1;
    work
}

/// The work of evaluating a leaf that takes `time` and searched `quiescence` quiescence nodes.
pub fn leaf_work(time: SimTime, quiescence: u32) -> Work {
    let mut work = Work {
        time,
        ..Work::default()
    };
    work.nodes.leaves = 1;
    work.nodes.leaf_ns = time.as_nanos();
    work.nodes.quiescence = quiescence as u64;
    work
}

/// What a splitting processor's work hands back (tree-splitting and pv-splitting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitOut {
    /// A master generated the moves of the node its computation `token` was for.
    Generated {
        /// Names the computation on its processor.
        token: u64,
    },
    /// A master evaluated the node of computation `token` (horizon or terminal position).
    Evaluated {
        /// Names the computation on its processor.
        token: u64,
        /// The value (the node's own view).
        value: Value,
    },
    /// A terminal processor's alpha-beta search ended with this value.
    Searched(Value),
}

/// A master's costed step on its own node, as computation `token`: generate its moves (cost
/// `k`), or, with `evaluate`, evaluate it (cost `e`).
pub fn node_step<T: GameTree>(
    tree: &T,
    node: &T::Node,
    evaluate: bool,
    token: u64,
    costs: &CostModel,
) -> (Work, SplitOut) {
    if evaluate {
        let eval = tree.evaluate(node);
        let out = SplitOut::Evaluated {
            token,
            value: eval.value,
        };
        (leaf_work(costs.e, eval.quiescence), out)
    } else {
        (interior_work(costs), SplitOut::Generated { token })
    }
}

/// A master's side of the protocol: its slaves, the assignment each is busy with (and what the
/// master keeps with it, `P`), the idle ones in the order they became idle, and the numbering.
pub struct Slaves<P = ()> {
    procs: Vec<ProcId>,
    busy: Vec<Option<(u64, P)>>,
    idle: VecDeque<usize>,
    next_id: u64,
}

impl<P: Copy + PartialEq> Slaves<P> {
    /// The slaves `procs`, all idle; assignments are numbered from 1 (0 is the root's own).
    pub fn new(procs: Vec<ProcId>) -> Self {
        Slaves {
            busy: vec![None; procs.len()],
            idle: (0..procs.len()).collect(),
            procs,
            next_id: 1,
        }
    }
    /// A new assignment of the master's begins with every slave idle, handed work in their order.
    pub fn restart(&mut self) {
        debug_assert!(self.none_busy());
        self.idle = (0..self.procs.len()).collect();
    }
    /// Whether a slave is idle.
    pub fn any_idle(&self) -> bool {
        !self.idle.is_empty()
    }
    /// Whether no slave is busy.
    pub fn none_busy(&self) -> bool {
        self.busy.iter().all(Option::is_none)
    }
    /// How many slaves are busy.
    pub fn busy_count(&self) -> usize {
        self.busy.iter().filter(|b| b.is_some()).count()
    }
    /// Hands `task` to the slave idle longest, as a new numbered assignment; the master keeps
    /// `kept` with it. There must be an idle slave.
    pub fn assign<R, N, X>(&mut self, task: Task<N, X>, kept: P, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<N, X>>,
    {
        let j = self.idle.pop_front().expect("an idle slave");
        let id = self.next_id;
        self.next_id += 1;
        self.busy[j] = Some((id, kept));
        cx.send(self.procs[j], SplitMsg::Work { id, task });
    }
    /// A RESULT of assignment `id` came from `from`: what the master kept with it, the slave
    /// idle again; None if it is stale (the slave was aborted, or is busy with a newer one).
    pub fn returned(&mut self, from: ProcId, id: u64) -> Option<P> {
        let j = self.procs.iter().position(|&s| s == from)?;
        match self.busy[j] {
            Some((current, kept)) if current == id => {
                self.busy[j] = None;
                self.idle.push_back(j);
                Some(kept)
            }
            _ => None,
        }
    }
    /// Stops every busy slave (ABORT); they are idle again at once.
    pub fn terminate<R, N, X>(&mut self, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<N, X>>,
    {
        for j in 0..self.procs.len() {
            self.abort_slave(j, cx);
        }
    }
    /// Stops the slave busy with the assignment the master keeps `kept` with.
    pub fn abort<R, N, X>(&mut self, kept: P, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<N, X>>,
    {
        let j = self
            .busy
            .iter()
            .position(|b| b.is_some_and(|(_, k)| k == kept))
            .expect("an assignment in progress has a slave");
        self.abort_slave(j, cx);
    }
    fn abort_slave<R, N, X>(&mut self, j: usize, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<N, X>>,
    {
        if let Some((id, _)) = self.busy[j].take() {
            cx.send(self.procs[j], SplitMsg::Abort { id });
            self.idle.push_back(j);
        }
    }
    /// The master's window went from `old` to `new` (its view): an UPDATE to every busy slave
    /// with the bounds that changed (in the slaves' view), if any did.
    pub fn update<R, N, X>(&self, old: (Value, Value), new: (Value, Value), cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<N, X>>,
    {
        let beta = (new.0 > old.0).then_some(-new.0);
        let alpha = (new.1 < old.1).then_some(-new.1);
        if alpha.is_none() && beta.is_none() {
            return;
        }
        for (j, busy) in self.busy.iter().enumerate() {
            if let Some((id, _)) = *busy {
                cx.send(self.procs[j], SplitMsg::Update { id, alpha, beta });
            }
        }
    }
}

/// Whether a processor takes a WORK ([`Upward::accept`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accept {
    /// It is now the processor's assignment.
    Take,
    /// Its master aborted it before it arrived: ignore it.
    Stale,
    /// The processor's last assignment is still open: a protocol error.
    Busy,
}

/// A processor's side towards its master: the assignment it works on, the highest one its
/// master has aborted, and, on the root processor, the root value once known.
#[derive(Clone, Debug, Default)]
pub struct Upward {
    parent: Option<ProcId>,
    current: Option<u64>,
    aborted: u64,
    result: Option<Value>,
    finished_at: Option<SimTime>,
}

impl Upward {
    /// The side towards `parent` (None: the root processor, whose own search is assignment 0).
    pub fn new(parent: Option<ProcId>) -> Self {
        Upward {
            parent,
            current: parent.is_none().then_some(0),
            ..Upward::default()
        }
    }
    /// The processor's master, None on the root processor.
    pub fn parent(&self) -> Option<ProcId> {
        self.parent
    }
    /// Whether this is the root processor.
    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }
    /// A WORK numbered `id` arrived: take it, or say why not.
    pub fn accept(&mut self, id: u64) -> Accept {
        if id <= self.aborted {
            Accept::Stale
        } else if self.current.is_some() {
            Accept::Busy
        } else {
            self.current = Some(id);
            Accept::Take
        }
    }
    /// Whether assignment `id` is the one the processor works on.
    pub fn is_current(&self, id: u64) -> bool {
        self.current == Some(id)
    }
    /// The assignment the processor works on.
    pub fn current(&self) -> Option<u64> {
        self.current
    }
    /// Its master aborted assignment `id`: true if that is the one the processor works on (it
    /// works on none now).
    pub fn abort(&mut self, id: u64) -> bool {
        self.aborted = self.aborted.max(id);
        let stop = self.is_current(id);
        if stop {
            self.current = None;
        }
        stop
    }
    /// The current assignment's value is `value`: RESULT to the master, or, on the root
    /// processor, the root value. Returns the assignment's number (None if none was open).
    pub fn report<R, N, X>(&mut self, value: Value, cx: &mut Cx<R>) -> Option<u64>
    where
        R: Program<Msg = SplitMsg<N, X>>,
    {
        let id = self.current.take()?;
        match self.parent {
            Some(parent) => cx.send(parent, SplitMsg::Result { id, value }),
            None => {
                self.result = Some(value);
                self.finished_at = Some(cx.now());
                cx.mark("root value known");
            }
        }
        Some(id)
    }
    /// The root value, on the root processor once it is known.
    pub fn root_value(&self) -> Option<Value> {
        self.result
    }
    /// When the root processor knew the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        self.finished_at
    }
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

/// A terminal processor's search: fail-soft alpha-beta, handed back as [`SplitOut::Searched`].
pub type AbSearch<'t, T> = Adapted<AlphaBeta<'t, T>, SplitOut>;

fn alphabeta<T: GameTree>(tree: &T, task: Task<T::Node, impl Sized>) -> AbSearch<'_, T> {
    let Task {
        node,
        alpha,
        beta,
        depth,
        ..
    } = task;
    AlphaBeta::new(tree, node, alpha, beta, depth).map_done(|_, v| SplitOut::Searched(v))
}

/// A terminal processor of tree-splitting or pv-splitting: alpha-beta on each node it is given
/// (from the node's next step, a read UPDATE narrows the running search's window).
pub struct AbSlave<'t, T: GameTree> {
    tree: &'t T,
    /// The search depth, which a uniprocessor searches the root to.
    depth: u32,
    up: Upward,
    log: UpdateLog,
}

impl<'t, T: GameTree> AbSlave<'t, T> {
    /// The terminal processor below `parent` (None: a uniprocessor, which searches the root to
    /// `depth`).
    pub fn new(tree: &'t T, parent: Option<ProcId>, depth: u32) -> Self {
        AbSlave {
            tree,
            depth,
            up: Upward::new(parent),
            log: UpdateLog::default(),
        }
    }
    /// Its side towards its master.
    pub fn upward(&self) -> &Upward {
        &self.up
    }
    /// Its record of its searches and the UPDATEs it read.
    pub fn log(&self) -> &UpdateLog {
        &self.log
    }
    /// The run starts: a uniprocessor searches the whole tree.
    pub fn start<R, X>(&mut self, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<T::Node, X>, Search = AbSearch<'t, T>>,
    {
        if self.up.is_root() {
            cx.search(alphabeta(self.tree, Task::root(self.tree, self.depth, ())));
        }
    }
    /// A message from its master (`scheme` names the scheme in failures).
    pub fn on_message<R, X>(&mut self, msg: SplitMsg<T::Node, X>, scheme: &str, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<T::Node, X>, Search = AbSearch<'t, T>>,
    {
        match msg {
            SplitMsg::Work { id, task } => match self.up.accept(id) {
                Accept::Take => {
                    self.log.started.push((id, cx.now()));
                    cx.search(alphabeta(self.tree, task));
                }
                Accept::Stale => {}
                Accept::Busy => {
                    cx.fail(format!(
                        "{scheme}: work arrived while the last search was running"
                    ));
                }
            },
            SplitMsg::Update { id, alpha, beta } => {
                let mut reached = false;
                if self.up.is_current(id) {
                    if let Some(s) = cx.search_mut() {
                        let s = s.inner_mut();
                        if let Some(a) = alpha {
                            s.raise_alpha(a);
                        }
                        if let Some(b) = beta {
                            s.lower_beta(b);
                        }
                        reached = true;
                    }
                }
                let at = cx.now();
                self.log.reads.push(UpdateRead { at, id, reached });
            }
            SplitMsg::Abort { id } => {
                if self.up.abort(id) {
                    cx.abort_search();
                }
            }
            SplitMsg::Result { .. } => {} // terminal processors have no slaves
        }
    }
    /// Its search ended: the value goes to its master (or is the root value).
    pub fn on_done<R, X>(&mut self, out: SplitOut, cx: &mut Cx<R>)
    where
        R: Program<Msg = SplitMsg<T::Node, X>>,
    {
        let SplitOut::Searched(value) = out else {
            return;
        };
        let now = cx.now();
        if let Some(id) = self.up.report(value, cx) {
            self.log.ends.push((id, now));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slave_takes_new_work_and_ignores_stale_work() {
        let mut up = Upward::new(Some(ProcId::MASTER));
        assert!(!up.is_root());
        assert_eq!(up.accept(1), Accept::Take);
        assert_eq!(up.accept(2), Accept::Busy);
        // An ABORT of another assignment leaves the current one running.
        assert!(!up.abort(3));
        assert!(up.is_current(1));
        assert!(up.abort(1));
        // Work numbered at or below the highest aborted one was cancelled before it arrived.
        assert_eq!(up.accept(2), Accept::Stale);
        assert_eq!(up.accept(3), Accept::Stale);
        assert_eq!(up.accept(4), Accept::Take);
    }

    #[test]
    fn the_root_works_on_assignment_zero() {
        let up = Upward::new(None);
        assert!(up.is_root() && up.is_current(0));
        assert_eq!(up.root_value(), None);
    }

    #[test]
    fn a_task_narrows_and_hands_its_successor_the_negated_window() {
        let mut task = Task {
            node: (),
            alpha: -5,
            beta: 5,
            depth: 3,
            tag: (),
        };
        assert_eq!(task.narrow(Some(-7), Some(2)), (-5, 5));
        assert_eq!((task.alpha, task.beta), (-5, 2));
        let s = task.successor((), 'x');
        assert_eq!((s.alpha, s.beta, s.depth, s.tag), (-2, 5, 2, 'x'));
    }

    #[test]
    fn sizes_are_table_one_inter_node() {
        let work: SplitMsg<()> = SplitMsg::Work {
            id: 1,
            task: Task {
                node: (),
                alpha: 0,
                beta: 1,
                depth: 1,
                tag: (),
            },
        };
        let update: SplitMsg<()> = SplitMsg::Update {
            id: 1,
            alpha: None,
            beta: Some(3),
        };
        let msgs = [
            work,
            SplitMsg::Result { id: 1, value: 0 },
            update,
            SplitMsg::Abort { id: 1 },
        ];
        let bytes: Vec<u64> = msgs.iter().map(Message::bytes).collect();
        assert_eq!(bytes, [6, 4, 4, 2]);
        assert!(msgs.iter().all(|m| m.kind() == MsgKind::InterNode));
    }
}
