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
//! Messages and their sizes are the split-work protocol of [`crate::schemes::protocol`]: WORK
//! 6 bytes, RESULT 4, UPDATE 4, ABORT 2, all inter-node, with assignment numbers so that a
//! result, update or abort that crosses another message on the line is recognised as stale: the
//! scheme returns the sequential root value under every read policy.

use crate::schemes::protocol::{
    node_step, AbSearch, AbSlave, Accept, Slaves, SplitMsg, SplitOut, Task, Upward,
};
use crate::schemes::scheme::DeployError;
use crate::trees::{GameTree, MoveList, Value};
use sim_core::{ProcId, SimTime};
use sim_hw::{Cx, ProcessorTree, Program};

pub use crate::schemes::protocol::{UpdateLog, UpdateRead};

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

/// The messages of tree-splitting: the split-work protocol.
pub type TsMsg<N> = SplitMsg<N>;

/// What a tree-splitting processor's work hands back.
pub type TsOut = SplitOut;

/// A terminal processor's search: alpha-beta, whose result is handed back as
/// [`SplitOut::Searched`].
pub type TsSearch<'t, T> = AbSearch<'t, T>;

/// The assignment a master is working on.
struct Job<T: GameTree> {
    /// The node and its window (narrowed as values and updates come in).
    task: Task<T::Node>,
    /// Generated when the `k` of its node has passed.
    moves: Option<T::Moves>,
    next: usize,
}

/// A non-terminal processor's state.
pub struct Master<'t, T: GameTree> {
    tree: &'t T,
    config: TreeSplitConfig,
    up: Upward,
    slaves: Slaves,
    job: Option<Job<T>>,
}

/// A tree-splitting role on one processor.
pub enum TreeSplitRole<'t, T: GameTree> {
    /// A processor with slaves.
    Master(Master<'t, T>),
    /// A processor without slaves.
    Terminal(AbSlave<'t, T>),
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
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        if self.0.depth == 0 {
            return Err(DeployError::NoDepth {
                scheme: "treesplit".into(),
            });
        }
        Ok((0..ptree.len() as u32)
            .map(ProcId)
            .map(|p| {
                let slaves = ptree.children(p);
                let parent = ptree.parent(p);
                if slaves.is_empty() {
                    TreeSplitRole::Terminal(AbSlave::new(tree, parent, self.0.depth))
                } else {
                    TreeSplitRole::Master(Master {
                        tree,
                        config: self.0,
                        up: Upward::new(parent),
                        slaves: Slaves::new(slaves),
                        job: None,
                    })
                }
            })
            .collect())
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(TreeSplitRole::root_value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
}

impl<T: GameTree> TreeSplitRole<'_, T> {
    /// A terminal processor's record of its searches and the UPDATEs it read (empty for masters).
    pub fn update_log(&self) -> UpdateLog {
        match self {
            TreeSplitRole::Master(_) => UpdateLog::default(),
            TreeSplitRole::Terminal(t) => t.log().clone(),
        }
    }
    fn upward(&self) -> &Upward {
        match self {
            TreeSplitRole::Master(m) => &m.up,
            TreeSplitRole::Terminal(t) => t.upward(),
        }
    }
    /// The root value, on the root processor once it has finished.
    pub fn root_value(&self) -> Option<Value> {
        self.upward().root_value()
    }
    /// When the root processor had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        self.upward().finished_at()
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    /// treesplit(p, alpha, beta) begins: generate p's successors (cost k), or evaluate p at the
    /// horizon. Its computations are named by the assignment's number.
    fn begin(&mut self, task: Task<T::Node>, cx: &mut TCx<'_, 't, T>) {
        let token = self.up.current().unwrap_or(0);
        let costs = *cx.costs();
        let (work, out) = node_step(self.tree, &task.node, task.depth == 0, token, &costs);
        self.slaves.restart();
        self.job = Some(Job {
            task,
            moves: None,
            next: 0,
        });
        cx.compute(work, out);
    }

    /// Hands the next successors to idle slaves; finishes when all are back.
    fn assign(&mut self, cx: &mut TCx<'_, 't, T>) {
        let Some(job) = self.job.as_mut() else { return };
        let Some(moves) = job.moves.as_ref() else {
            return;
        };
        while job.next < moves.len() && self.slaves.any_idle() {
            let node = self.tree.play(&job.task.node, moves.get(job.next));
            job.next += 1;
            self.slaves.assign(job.task.successor(node, ()), (), cx);
        }
        if job.next >= moves.len() && self.slaves.none_busy() {
            let v = job.task.alpha;
            self.finish(v, cx);
        }
    }

    /// The job's value is known: report it (or, at the root, keep it).
    fn finish(&mut self, value: Value, cx: &mut TCx<'_, 't, T>) {
        if self.job.take().is_some() {
            self.up.report(value, cx);
        }
    }

    /// A narrower window for the job: pass it on to busy slaves (with update), stop if it closed
    /// (Fig. 10's terminate(): an ABORT to every busy slave).
    fn narrow(&mut self, alpha: Option<Value>, beta: Option<Value>, cx: &mut TCx<'_, 't, T>) {
        let Some(job) = self.job.as_mut() else { return };
        let old = job.task.narrow(alpha, beta);
        let new = (job.task.alpha, job.task.beta);
        if new.0 >= new.1 {
            self.slaves.terminate(cx);
            self.finish(new.0, cx);
        } else if self.config.update {
            self.slaves.update(old, new, cx);
        }
    }

    fn on_message(&mut self, from: ProcId, msg: TsMsg<T::Node>, cx: &mut TCx<'_, 't, T>) {
        match msg {
            SplitMsg::Work { id, task } => match self.up.accept(id) {
                Accept::Take => self.begin(task, cx),
                Accept::Stale => {}
                Accept::Busy => {
                    cx.fail("treesplit: work arrived while the last assignment was open");
                }
            },
            SplitMsg::Result { id, value } => {
                let Some(job) = self.job.as_ref() else { return };
                let alpha = job.task.alpha;
                if self.slaves.returned(from, id).is_none() {
                    return; // stale: the slave was aborted, or the job is an older one
                }
                if -value > alpha {
                    self.narrow(Some(-value), None, cx);
                }
                self.assign(cx);
            }
            SplitMsg::Update { id, alpha, beta } => {
                if self.up.is_current(id) {
                    self.narrow(alpha, beta, cx);
                    self.assign(cx);
                }
            }
            SplitMsg::Abort { id } => {
                if self.up.abort(id) {
                    self.slaves.terminate(cx);
                    self.job = None;
                }
            }
        }
    }

    fn on_done(&mut self, out: TsOut, cx: &mut TCx<'_, 't, T>) {
        let current = self.job.as_ref().and(self.up.current());
        match out {
            SplitOut::Generated { token } if current == Some(token) => {
                let job = self.job.as_mut().expect("checked");
                let moves = self.tree.moves(&job.task.node);
                if moves.is_empty() {
                    // A terminal position: evaluate it here.
                    let mut task = self.job.take().expect("checked").task;
                    task.depth = 0;
                    self.begin(task, cx);
                    return;
                }
                job.moves = Some(moves);
                self.assign(cx);
            }
            SplitOut::Evaluated { token, value } if current == Some(token) => {
                self.finish(value, cx)
            }
            _ => {} // the work of an aborted job
        }
    }
}

impl<'t, T: GameTree> Program for TreeSplitRole<'t, T> {
    type Msg = TsMsg<T::Node>;
    type Out = TsOut;
    type Search = TsSearch<'t, T>;

    fn start(&mut self, cx: &mut TCx<'_, 't, T>) {
        match self {
            TreeSplitRole::Master(m) if m.up.is_root() => {
                let task = Task::root(m.tree, m.config.depth, ());
                m.begin(task, cx);
            }
            TreeSplitRole::Master(_) => {}
            // A uniprocessor: the root processor is terminal and searches the whole tree.
            TreeSplitRole::Terminal(t) => t.start(cx),
        }
    }

    fn on_message(&mut self, from: ProcId, msg: TsMsg<T::Node>, cx: &mut TCx<'_, 't, T>) {
        match self {
            TreeSplitRole::Master(m) => m.on_message(from, msg, cx),
            TreeSplitRole::Terminal(t) => t.on_message(msg, "treesplit", cx),
        }
    }

    fn on_done(&mut self, out: TsOut, cx: &mut TCx<'_, 't, T>) {
        match self {
            TreeSplitRole::Master(m) => m.on_done(out, cx),
            TreeSplitRole::Terminal(t) => t.on_done(out, cx),
        }
    }

    fn pending(&self) -> Option<String> {
        let up = self.upward();
        if !up.is_root() || up.root_value().is_some() {
            return None;
        }
        Some(match self {
            TreeSplitRole::Master(m) => {
                format!("the root value ({} slaves busy)", m.slaves.busy_count())
            }
            TreeSplitRole::Terminal(_) => "the root value".into(),
        })
    }
}
