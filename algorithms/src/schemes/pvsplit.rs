//! Principal variation splitting in full generality (`pvsplit`, `pvsplit_refined`): Campbell's
//! thesis, Fig. 12 and section 4.2; Marsland & Popowich 1985, Fig. 3 and section III; on a
//! processor tree of any depth `L >= 1` and any width, below a search of depth `d > L`.
//!
//! **The PV phase (the root processor).** Fig. 12's `pvsplit(p, α, β, depth)`, run by the root
//! processor alone: at a node on the leftmost path whose remaining depth `r` is larger than the
//! processor tree's depth `L`, it generates the successors (cost `k`), searches the first one by
//! the same procedure (`α = -pvsplit(p.1, -β, -α)`), and then hands the remaining successors, one
//! at a time, to its idle slaves with the window that first value set (`parfor i = 2 to w … when
//! (a slave j is idle) t[i] = -j.treesplit(p.i, -β, -α)`); each returned value may raise α, and
//! when α reaches β the node stops (terminate) and returns α. At the node where `r = L` (Fig. 12's
//! `depth == MAXDEPTH`, M&P's "until the length of the processor tree is equal to the remaining
//! depth") the whole processor tree searches it by tree-splitting (`return treesplit(p, α, β)`).
//! The root processor itself never searches: it generates the PV nodes' moves and distributes
//! work, as a tree-splitting master does.
//!
//! **Below (every other processor).** Tree-splitting exactly as in [`crate::schemes::treesplit`]
//! (Campbell Fig. 10, with the dynamic window update of Fig. 11 when `update` is set): a processor
//! with slaves given a node generates its successors (cost `k`) and hands them to idle slaves with
//! its current window, stopping its busy slaves (ABORT) when its window closes; a processor
//! without slaves runs a sequential fail-soft [`AlphaBeta`] on the node it was given. With
//! `update`, a master whose window narrows sends UPDATE to its busy slaves (the PV phase's
//! splitting too).
//!
//! **Campbell's refinement** (`refined`, section 4.2: "type 2 nodes … should be examined with
//! minimal concurrency … This technique is implemented in a processor tree by assigning slaves
//! type 2 positions only, i.e. instead of assigning the immediate successors of a (type 2) node
//! to the slaves, assign the successors' successors"). Every assignment carries its node's type
//! in Knuth and Moore's classification as Campbell defines it (type 1 on the principal
//! variation; the alternatives of a type-1 node are type 2; successors of type 2 are type 3 and
//! successors of type 3 are type 2). A processor with slaves given a type-2 node with at least
//! two plies to go examines its successors itself, one at a time (a type-2 node needs only its
//! first successor when the tree is well ordered), generating each successor's moves and
//! splitting that successor's successors — type-2 positions again — among its slaves; a returned
//! successor's value may raise its α, and the node stops when α reaches β. A type-2 node with one
//! ply to go (its successors are leaves: no successors' successors exist) and type-1 and type-3
//! nodes are split as in tree-splitting. The root processor's work is the same in both variants
//! (it only ever holds type-1 nodes); the refinement changes what its slaves do with the type-2
//! alternatives it hands them, in the PV phase and at the tree-splitting frontier alike.
//!
//! **Marsland & Popowich's section IX** suggests three improvements. The first, making "the new
//! alpha bound … available to all processors as soon as it was determined", is what `update`
//! does here (Campbell's Fig. 11 UPDATE, wherever a processor splits work). The other two
//! (more than one processor on the re-search of a new principal variation; deferring a
//! re-search until a second candidate fails high) are about re-searches after a zero-window
//! test fails high; pv-splitting searches every alternative by alpha-beta with the window
//! `(-β, -α)` and never re-searches, so they do not apply (pmws's zero-window children do
//! re-search: [`crate::schemes::pmws`] has the first suggestion as an option).
//!
//! **Not applicable** when the processor tree is at least as deep as the search (`L >= d`): M&P
//! assume "that the processor tree length is less than the specified depth" and Campbell notes that
//! "on 4-ply trees, PV cannot employ a depth 3 processor tree"; [`crate::Scheme::deploy`] returns
//! an error then, and for a uniprocessor (`L = 0`).
//!
//! How this differs from [`crate::schemes::pmws`] on a processor tree of depth 1 (M&P's simplification of
//! Fig. 3 into Fig. 4): pmws's master descends the PV to the horizon and evaluates its first leaf
//! itself, also searches alternatives itself ("it spawns itself as a child"), and its children run
//! a minimal-window search re-searched on a fail-high (`child_pvs`) instead of alpha-beta with the
//! window; here the root processor stops at `r = L = 1`, hands all the successors of that node to
//! its slaves (tree-splitting), never searches, and its slaves run alpha-beta with `(-β, -α)`.
//!
//! Messages are the split-work protocol of [`crate::schemes::protocol`], with its assignment
//! numbers, so that results, updates and aborts that cross on a line are recognised as stale:
//! the scheme returns the sequential root value under every read policy. Sizes are
//! tree-splitting's (all inter-node): WORK 6 bytes (a move and two bounds; the node type travels
//! in spare bits), RESULT 4, UPDATE 4, ABORT 2.

use crate::schemes::protocol::{
    node_step, AbSearch, AbSlave, Accept, Slaves, SplitMsg, SplitOut, Task, Upward,
};
use crate::schemes::scheme::DeployError;
use crate::trees::{GameTree, MoveList, Value};
use sim_core::{ProcId, SimTime};
use sim_hw::{Cx, ProcessorTree, Program};

/// Options of a pv-splitting search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PvSplitConfig {
    /// Search depth d (plies); must exceed the processor tree's depth.
    pub depth: u32,
    /// Campbell's refinement: slaves get the successors of type-2 nodes' successors.
    pub refined: bool,
    /// Campbell's dynamic window update (Fig. 11) wherever a processor splits work.
    pub update: bool,
}

/// Principal variation splitting as a [`crate::Scheme`] (see the module doc).
///
/// Its name in results: `pvsplit`, `pvsplit_refined`, and with `update` `pvsplit_update`,
/// `pvsplit_refined_update`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PvSplit(pub PvSplitConfig);

/// A node's type in Knuth and Moore's classification of critical nodes, as Campbell uses it
/// (thesis section 4.2): what the refinement decides on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeType {
    /// On the principal variation: all successors are examined, the first with the full window.
    One,
    /// An alternative to the principal variation (a successor of a type-1 node other than its
    /// first, or a successor of a type-3 node): a cutoff may come after its first successor.
    Two,
    /// A successor of a type-2 node: all its successors must be examined.
    Three,
}

impl NodeType {
    /// The type of successor `i` (0 = first in move order) of a node of this type.
    pub fn successor(self, i: usize) -> NodeType {
        match self {
            NodeType::One if i == 0 => NodeType::One,
            NodeType::One | NodeType::Three => NodeType::Two,
            NodeType::Two => NodeType::Three,
        }
    }
}

/// The messages of pv-splitting: the split-work protocol, a WORK carrying its node's type (the
/// refinement's cue).
pub type PvMsg<N> = SplitMsg<N, NodeType>;

/// What a pv-splitting processor's work hands back (a master's computations are named by the
/// frame they are for).
pub type PvOut = SplitOut;

/// A terminal processor's search: alpha-beta, handed back as [`SplitOut::Searched`].
pub type PvSearch<'t, T> = AbSearch<'t, T>;

/// How a master's frame produces its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Fig. 12 on the root processor: the first successor by a frame of its own, then the rest
    /// split among the slaves.
    Pv,
    /// The refinement at a type-2 node: each successor, in turn, by a frame of its own that
    /// splits that successor's successors.
    Serial,
    /// Fig. 10: every successor split among the slaves.
    Split,
}

/// One open node on a master: the root processor's PV nodes, a refined master's type-2 node and
/// the successor it is working on, or a tree-splitting node. Only the top frame is active.
struct Frame<T: GameTree> {
    /// Its number on this processor (names its computations).
    token: u64,
    /// Its node, window (narrowed as values come in), depth and node type.
    task: Task<T::Node, NodeType>,
    mode: Mode,
    /// Generated when the `k` of its node has passed.
    moves: Option<T::Moves>,
    /// The next successor to search or hand out.
    next: usize,
    /// Its successors are being handed to slaves (Split from the start; Pv after the first).
    splitting: bool,
}

/// A processor with slaves: the root processor (the PV phase, then tree-splitting) or a
/// tree-splitting master.
pub struct Master<'t, T: GameTree> {
    tree: &'t T,
    config: PvSplitConfig,
    /// The processor tree's depth L (the PV phase stops where the remaining depth is L).
    levels: u32,
    /// Its side towards its parent: the assignment it works on (0 for the root's own search),
    /// and on the root processor the root value.
    up: Upward,
    slaves: Slaves,
    frames: Vec<Frame<T>>,
    next_token: u64,
}

/// A pv-splitting role on one processor.
pub enum PvSplitRole<'t, T: GameTree> {
    /// A processor with slaves (the root processor is one).
    Master(Master<'t, T>),
    /// A processor without slaves: alpha-beta on each node it is given.
    Terminal(AbSlave<'t, T>),
}

type PCx<'a, 't, T> = Cx<'a, PvSplitRole<'t, T>>;

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for PvSplit {
    type Role = PvSplitRole<'t, T>;
    fn name(&self) -> String {
        let mut name = String::from("pvsplit");
        if self.0.refined {
            name.push_str("_refined");
        }
        if self.0.update {
            name.push_str("_update");
        }
        name
    }
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        let levels = ptree.depth();
        let scheme = "pvsplit".to_string();
        if levels == 0 {
            return Err(DeployError::NoSlaves { scheme });
        }
        if levels >= self.0.depth {
            return Err(DeployError::TreeNotShallower {
                scheme,
                levels,
                depth: self.0.depth,
            });
        }
        Ok((0..ptree.len() as u32)
            .map(ProcId)
            .map(|p| {
                let slaves = ptree.children(p);
                let parent = ptree.parent(p);
                if slaves.is_empty() {
                    PvSplitRole::Terminal(AbSlave::new(tree, parent, self.0.depth))
                } else {
                    PvSplitRole::Master(Master {
                        tree,
                        config: self.0,
                        levels,
                        up: Upward::new(parent),
                        slaves: Slaves::new(slaves),
                        frames: Vec::new(),
                        next_token: 0,
                    })
                }
            })
            .collect())
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(PvSplitRole::root_value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
}

impl<T: GameTree> PvSplitRole<'_, T> {
    /// The root value, on the root processor once it has finished.
    pub fn root_value(&self) -> Option<Value> {
        match self {
            PvSplitRole::Master(m) => m.up.root_value(),
            PvSplitRole::Terminal(_) => None,
        }
    }
    /// When the root processor had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            PvSplitRole::Master(m) => m.up.finished_at(),
            PvSplitRole::Terminal(_) => None,
        }
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    /// Opens a frame for `task` and starts its first computation: generate its successors (cost
    /// `k`), or evaluate it at the horizon (cost `e`).
    fn open(&mut self, task: Task<T::Node, NodeType>, mode: Mode, cx: &mut PCx<'_, 't, T>) {
        let token = self.next_token;
        self.next_token += 1;
        let evaluate = task.depth == 0;
        self.frames.push(Frame {
            token,
            task,
            mode,
            moves: None,
            next: 0,
            splitting: mode == Mode::Split,
        });
        self.compute(token, evaluate, cx);
    }

    /// The costed work of frame `token` (the top frame): generating its moves, or evaluating its
    /// node.
    fn compute(&mut self, token: u64, evaluate: bool, cx: &mut PCx<'_, 't, T>) {
        let frame = self.frames.last().expect("the frame just opened");
        let costs = *cx.costs();
        let (work, out) = node_step(self.tree, &frame.task.node, evaluate, token, &costs);
        cx.compute(work, out);
    }

    /// Successor `i` of the top frame's node, with the window `(-β, -α)`.
    fn successor(&self, i: usize) -> Task<T::Node, NodeType> {
        let top = self.frames.last().expect("a frame");
        let moves = top.moves.as_ref().expect("generated");
        let node = self.tree.play(&top.task.node, moves.get(i));
        top.task.successor(node, top.task.tag.successor(i))
    }

    /// The top frame's moves are known: start on its successors.
    fn proceed(&mut self, cx: &mut PCx<'_, 't, T>) {
        let top = self.frames.last_mut().expect("a frame");
        match top.mode {
            Mode::Pv => {
                // Fig. 12: the first successor by pv-splitting, or, where the processor tree's
                // depth equals the remaining depth, by tree-splitting.
                top.next = 1;
                let mode = if top.task.depth - 1 > self.levels {
                    Mode::Pv
                } else {
                    Mode::Split
                };
                let task = self.successor(0);
                self.open(task, mode, cx);
            }
            Mode::Serial => self.next_serial(cx),
            Mode::Split => self.assign(cx),
        }
    }

    /// A refined type-2 frame takes its next successor, or is done.
    fn next_serial(&mut self, cx: &mut PCx<'_, 't, T>) {
        let top = self.frames.last_mut().expect("a frame");
        let width = top.moves.as_ref().map_or(0, MoveList::len);
        if top.next < width {
            let i = top.next;
            top.next += 1;
            let task = self.successor(i);
            self.open(task, Mode::Split, cx);
        } else {
            let v = top.task.alpha;
            self.close_top(v, cx);
        }
    }

    /// Hands the top frame's next successors to idle slaves; closes it when all are back.
    fn assign(&mut self, cx: &mut PCx<'_, 't, T>) {
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        let Some(moves) = top.moves.as_ref() else {
            return;
        };
        debug_assert!(top.splitting);
        while top.next < moves.len() && self.slaves.any_idle() {
            let i = top.next;
            top.next += 1;
            let node = self.tree.play(&top.task.node, moves.get(i));
            let task = top.task.successor(node, top.task.tag.successor(i));
            self.slaves.assign(task, (), cx);
        }
        if top.next >= moves.len() && self.slaves.none_busy() {
            let v = top.task.alpha;
            self.close_top(v, cx);
        }
    }

    /// The top frame's value is `value` (its own view): pop it and hand the value to the frame
    /// below, or report it as the job's result.
    fn close_top(&mut self, value: Value, cx: &mut PCx<'_, 't, T>) {
        self.frames.pop();
        let Some(top) = self.frames.last_mut() else {
            self.up.report(value, cx);
            return;
        };
        top.task.alpha = top.task.alpha.max(-value);
        if top.task.alpha >= top.task.beta {
            let v = top.task.alpha;
            self.close_top(v, cx);
            return;
        }
        match top.mode {
            Mode::Pv => {
                // The first successor's value is in: split the rest with its window.
                top.splitting = true;
                cx.mark(format!(
                    "PV node at remaining depth {} splits its alternatives",
                    top.task.depth
                ));
                self.assign(cx);
            }
            Mode::Serial => self.next_serial(cx),
            Mode::Split => cx.fail("pvsplit: a splitting frame had a frame above it"),
        }
    }

    /// Sends the top frame's window change (from `old`) to the busy slaves, with update.
    fn send_updates(&mut self, old: (Value, Value), cx: &mut PCx<'_, 't, T>) {
        if !self.config.update {
            return;
        }
        if let Some(top) = self.frames.last().filter(|t| t.splitting) {
            self.slaves.update(old, (top.task.alpha, top.task.beta), cx);
        }
    }

    /// The job's window narrows (an UPDATE from the parent): every open frame's window follows
    /// (a frame's window lies within its parent frame's, negated); the lowest frame whose window
    /// closes stops, with the frames above it; otherwise the top frame's busy slaves hear of it.
    fn narrow_job(&mut self, alpha: Option<Value>, beta: Option<Value>, cx: &mut PCx<'_, 't, T>) {
        let Some(top) = self.frames.last() else {
            return;
        };
        let old = (top.task.alpha, top.task.beta);
        self.frames[0].task.narrow(alpha, beta);
        for k in 1..self.frames.len() {
            let below = &self.frames[k - 1].task;
            let (alpha, beta) = (-below.beta, -below.alpha);
            self.frames[k].task.narrow(Some(alpha), Some(beta));
        }
        if let Some(k) = self.frames.iter().position(|f| f.task.alpha >= f.task.beta) {
            self.slaves.terminate(cx);
            self.frames.truncate(k + 1);
            let v = self.frames[k].task.alpha;
            self.close_top(v, cx);
            return;
        }
        self.send_updates(old, cx);
    }

    fn on_message(&mut self, from: ProcId, msg: PvMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match msg {
            SplitMsg::Work { id, task } => match self.up.accept(id) {
                Accept::Take => {
                    let refine = self.config.refined && task.tag == NodeType::Two;
                    let mode = if refine && task.depth >= 2 {
                        Mode::Serial
                    } else {
                        Mode::Split
                    };
                    self.open(task, mode, cx);
                }
                Accept::Stale => {}
                Accept::Busy => {
                    cx.fail("pvsplit: work arrived while the last assignment was open");
                }
            },
            SplitMsg::Result { id, value } => {
                if self.slaves.returned(from, id).is_none() {
                    return; // stale: the slave was aborted
                }
                let Some(top) = self.frames.last_mut() else {
                    return;
                };
                let t = -value;
                if t > top.task.alpha {
                    let old = (top.task.alpha, top.task.beta);
                    top.task.alpha = t;
                    if top.task.alpha >= top.task.beta {
                        self.slaves.terminate(cx);
                        self.close_top(t, cx);
                        return;
                    }
                    self.send_updates(old, cx);
                }
                self.assign(cx);
            }
            SplitMsg::Update { id, alpha, beta } => {
                if self.up.is_current(id) {
                    self.narrow_job(alpha, beta, cx);
                }
            }
            SplitMsg::Abort { id } => {
                if self.up.abort(id) {
                    self.slaves.terminate(cx);
                    self.frames.clear();
                }
            }
        }
    }

    fn on_done(&mut self, out: PvOut, cx: &mut PCx<'_, 't, T>) {
        let current = self.frames.last().map(|f| f.token);
        match out {
            SplitOut::Generated { token } if current == Some(token) => {
                let top = self.frames.last_mut().expect("checked");
                let moves = self.tree.moves(&top.task.node);
                if moves.is_empty() {
                    // A terminal position: evaluate it here.
                    self.compute(token, true, cx);
                    return;
                }
                top.moves = Some(moves);
                self.proceed(cx);
            }
            SplitOut::Evaluated { token, value } if current == Some(token) => {
                self.close_top(value, cx)
            }
            _ => {} // the work of a frame that was closed or aborted meanwhile
        }
    }
}

impl<'t, T: GameTree> Program for PvSplitRole<'t, T> {
    type Msg = PvMsg<T::Node>;
    type Out = PvOut;
    type Search = PvSearch<'t, T>;

    fn start(&mut self, cx: &mut PCx<'_, 't, T>) {
        if let PvSplitRole::Master(m) = self {
            if m.up.is_root() {
                // deploy made sure that d > L: the root is a PV node of the PV phase.
                let task = Task::root(m.tree, m.config.depth, NodeType::One);
                m.open(task, Mode::Pv, cx);
            }
        }
    }

    fn on_message(&mut self, from: ProcId, msg: PvMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match self {
            PvSplitRole::Master(m) => m.on_message(from, msg, cx),
            PvSplitRole::Terminal(t) => t.on_message(msg, "pvsplit", cx),
        }
    }

    fn on_done(&mut self, out: PvOut, cx: &mut PCx<'_, 't, T>) {
        match self {
            PvSplitRole::Master(m) => m.on_done(out, cx),
            PvSplitRole::Terminal(t) => t.on_done(out, cx),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            PvSplitRole::Master(m) if m.up.is_root() && m.up.root_value().is_none() => {
                Some(format!(
                    "the root value ({} frames open, {} slaves busy)",
                    m.frames.len(),
                    m.slaves.busy_count()
                ))
            }
            _ => None,
        }
    }
}
