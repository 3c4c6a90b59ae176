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
//! Messages carry an assignment number, handled as in [`crate::schemes::treesplit`], so that results,
//! updates and aborts that cross on a line are recognised as stale: the scheme returns the
//! sequential root value under every read policy. Message sizes are tree-splitting's (all
//! inter-node): WORK 6 bytes (a move and two bounds; the node type travels in spare bits),
//! RESULT 4, UPDATE 4, ABORT 2.

use crate::search::alphabeta::AlphaBeta;
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, ProcessorTree, Program, Search, Step, Work};
use std::collections::VecDeque;

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

/// The messages of pv-splitting; windows are in the receiver's (negamax) view.
#[derive(Clone, Debug)]
pub enum PvMsg<N> {
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
        /// The node's type (the refinement's cue).
        node_type: NodeType,
    },
    /// The value of assignment `id`, in the slave's view (a bound when outside the window).
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

impl<N> Message for PvMsg<N> {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        match self {
            PvMsg::Work { .. } => 6,
            PvMsg::Result { .. } | PvMsg::Update { .. } => 4,
            PvMsg::Abort { .. } => 2,
        }
    }
}

/// What a pv-splitting processor's work hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PvOut {
    /// A master generated the moves of the node of its frame `frame`.
    Generated {
        /// The frame's number on that processor.
        frame: u64,
    },
    /// A master evaluated the node of its frame `frame` (horizon or terminal position).
    Evaluated {
        /// The frame's number on that processor.
        frame: u64,
        /// The value (the node's own view).
        value: Value,
    },
    /// A terminal processor's alpha-beta search ended with this value.
    Searched(Value),
}

/// A terminal processor's search: alpha-beta, handed back as [`PvOut::Searched`].
pub struct PvSearch<'t, T: GameTree>(AlphaBeta<'t, T>);

impl<T: GameTree> Search for PvSearch<'_, T> {
    type Out = PvOut;
    fn step(&mut self) -> Step<PvOut> {
        match self.0.step() {
            Step::Interior => Step::Interior,
            Step::Leaf { quiescence } => Step::Leaf { quiescence },
            Step::Probe => Step::Probe,
            Step::Done(v) => Step::Done(PvOut::Searched(v)),
        }
    }
}

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
    node: T::Node,
    node_type: NodeType,
    mode: Mode,
    alpha: Value,
    beta: Value,
    depth: u32,
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
    parent: Option<ProcId>,
    slaves: Vec<ProcId>,
    /// The assignment it is working on (0 for the root's own search).
    job: Option<u64>,
    frames: Vec<Frame<T>>,
    next_token: u64,
    /// Per slave (index into `slaves`): the assignment it is busy with.
    busy: Vec<Option<u64>>,
    idle: VecDeque<usize>,
    next_id: u64,
    /// The highest assignment number its parent has aborted.
    aborted: u64,
    result: Option<Value>,
    finished_at: Option<SimTime>,
}

/// A processor without slaves: alpha-beta on each node it is given.
pub struct Terminal<'t, T: GameTree> {
    tree: &'t T,
    parent: Option<ProcId>,
    /// The assignment its running search belongs to.
    current: Option<u64>,
    /// The highest assignment number its parent has aborted.
    aborted: u64,
}

/// A pv-splitting role on one processor.
pub enum PvSplitRole<'t, T: GameTree> {
    /// A processor with slaves (the root processor is one).
    Master(Master<'t, T>),
    /// A processor without slaves.
    Terminal(Terminal<'t, T>),
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
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, String> {
        let levels = ptree.depth();
        if levels == 0 {
            return Err("pvsplit needs a processor tree with slaves (depth at least 1)".into());
        }
        if levels >= self.0.depth {
            return Err(format!(
                "pvsplit needs a processor tree shallower than the search: the processor tree's \
                 depth {levels} is not less than the search depth {}",
                self.0.depth
            ));
        }
        Ok((0..ptree.len() as u32)
            .map(ProcId)
            .map(|p| {
                let slaves = ptree.children(p);
                let parent = ptree.parent(p);
                if slaves.is_empty() {
                    PvSplitRole::Terminal(Terminal {
                        tree,
                        parent,
                        current: None,
                        aborted: 0,
                    })
                } else {
                    PvSplitRole::Master(Master {
                        tree,
                        config: self.0,
                        levels,
                        parent,
                        busy: vec![None; slaves.len()],
                        idle: (0..slaves.len()).collect(),
                        slaves,
                        job: None,
                        frames: Vec::new(),
                        next_token: 0,
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
        roles.first().and_then(PvSplitRole::root_value)
    }
}

impl<T: GameTree> PvSplitRole<'_, T> {
    /// The root value, on the root processor once it has finished.
    pub fn root_value(&self) -> Option<Value> {
        match self {
            PvSplitRole::Master(m) => m.result,
            PvSplitRole::Terminal(_) => None,
        }
    }
    /// When the root processor had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            PvSplitRole::Master(m) => m.finished_at,
            PvSplitRole::Terminal(_) => None,
        }
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    /// Opens a frame for `node` and starts its first computation: generate its successors (cost
    /// `k`), or evaluate it at the horizon (cost `e`).
    #[allow(clippy::too_many_arguments)]
    fn open(
        &mut self,
        node: T::Node,
        node_type: NodeType,
        mode: Mode,
        alpha: Value,
        beta: Value,
        depth: u32,
        cx: &mut PCx<'_, 't, T>,
    ) {
        let token = self.next_token;
        self.next_token += 1;
        self.frames.push(Frame {
            token,
            node,
            node_type,
            mode,
            alpha,
            beta,
            depth,
            moves: None,
            next: 0,
            splitting: mode == Mode::Split,
        });
        self.compute(token, depth == 0, cx);
    }

    /// The costed work of frame `token`: generating its moves, or evaluating its node.
    fn compute(&mut self, token: u64, evaluate: bool, cx: &mut PCx<'_, 't, T>) {
        let costs = *cx.costs();
        let mut work = Work::default();
        let out = if evaluate {
            let frame = self.frames.last().expect("the frame just opened");
            let eval = self.tree.evaluate(&frame.node);
            work.time = costs.e;
            work.nodes.leaves = 1;
            work.nodes.leaf_ns = costs.e.as_nanos();
            work.nodes.quiescence = eval.quiescence as u64;
            PvOut::Evaluated {
                frame: token,
                value: eval.value,
            }
        } else {
            work.time = costs.k;
            work.nodes.interior = 1;
            PvOut::Generated { frame: token }
        };
        cx.compute(work, out);
    }

    /// A child frame for successor `i` of the top frame, with the window `(-β, -α)`.
    fn open_successor(&mut self, i: usize, mode: Mode, cx: &mut PCx<'_, 't, T>) {
        let top = self.frames.last().expect("a frame");
        let moves = top.moves.as_ref().expect("generated");
        let node = self.tree.play(&top.node, moves.get(i));
        let (node_type, alpha, beta, depth) = (
            top.node_type.successor(i),
            -top.beta,
            -top.alpha,
            top.depth - 1,
        );
        self.open(node, node_type, mode, alpha, beta, depth, cx);
    }

    /// The top frame's moves are known: start on its successors.
    fn proceed(&mut self, cx: &mut PCx<'_, 't, T>) {
        let top = self.frames.last_mut().expect("a frame");
        match top.mode {
            Mode::Pv => {
                // Fig. 12: the first successor by pv-splitting, or, where the processor tree's
                // depth equals the remaining depth, by tree-splitting.
                top.next = 1;
                let mode = if top.depth - 1 > self.levels {
                    Mode::Pv
                } else {
                    Mode::Split
                };
                self.open_successor(0, mode, cx);
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
            self.open_successor(i, Mode::Split, cx);
        } else {
            let v = top.alpha;
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
        while top.next < moves.len() {
            let Some(j) = self.idle.pop_front() else {
                break;
            };
            let i = top.next;
            top.next += 1;
            let node = self.tree.play(&top.node, moves.get(i));
            let id = self.next_id;
            self.next_id += 1;
            self.busy[j] = Some(id);
            cx.send(
                self.slaves[j],
                PvMsg::Work {
                    id,
                    node,
                    alpha: -top.beta,
                    beta: -top.alpha,
                    depth: top.depth - 1,
                    node_type: top.node_type.successor(i),
                },
            );
        }
        if top.next >= moves.len() && self.busy.iter().all(Option::is_none) {
            let v = top.alpha;
            self.close_top(v, cx);
        }
    }

    /// Stops every busy slave (terminate()).
    fn terminate(&mut self, cx: &mut PCx<'_, 't, T>) {
        for (j, busy) in self.busy.iter_mut().enumerate() {
            if let Some(id) = busy.take() {
                cx.send(self.slaves[j], PvMsg::Abort { id });
                self.idle.push_back(j);
            }
        }
    }

    /// The top frame's value is `value` (its own view): pop it and hand the value to the frame
    /// below, or report it as the job's result.
    fn close_top(&mut self, value: Value, cx: &mut PCx<'_, 't, T>) {
        self.frames.pop();
        let Some(top) = self.frames.last_mut() else {
            self.finish(value, cx);
            return;
        };
        top.alpha = top.alpha.max(-value);
        if top.alpha >= top.beta {
            let v = top.alpha;
            self.close_top(v, cx);
            return;
        }
        match top.mode {
            Mode::Pv => {
                // The first successor's value is in: split the rest with its window.
                top.splitting = true;
                cx.mark(format!(
                    "PV node at remaining depth {} splits its alternatives",
                    top.depth
                ));
                self.assign(cx);
            }
            Mode::Serial => self.next_serial(cx),
            Mode::Split => cx.fail("pvsplit: a splitting frame had a frame above it"),
        }
    }

    /// The job's value is known: report it (or, at the root, keep it).
    fn finish(&mut self, value: Value, cx: &mut PCx<'_, 't, T>) {
        let Some(id) = self.job.take() else { return };
        match self.parent {
            Some(parent) => cx.send(parent, PvMsg::Result { id, value }),
            None => {
                self.result = Some(value);
                self.finished_at = Some(cx.now());
                cx.mark("root value known");
            }
        }
    }

    /// Sends the top frame's window change (from `old`) to the busy slaves, with update.
    fn send_updates(&mut self, old: (Value, Value), cx: &mut PCx<'_, 't, T>) {
        if !self.config.update {
            return;
        }
        let Some(top) = self.frames.last().filter(|t| t.splitting) else {
            return;
        };
        let slave_beta = (top.alpha > old.0).then_some(-top.alpha);
        let slave_alpha = (top.beta < old.1).then_some(-top.beta);
        if slave_alpha.is_none() && slave_beta.is_none() {
            return;
        }
        for (j, busy) in self.busy.iter().enumerate() {
            if let Some(id) = *busy {
                cx.send(
                    self.slaves[j],
                    PvMsg::Update {
                        id,
                        alpha: slave_alpha,
                        beta: slave_beta,
                    },
                );
            }
        }
    }

    /// The job's window narrows (an UPDATE from the parent): every open frame's window follows
    /// (a frame's window lies within its parent frame's, negated); the lowest frame whose window
    /// closes stops, with the frames above it; otherwise the top frame's busy slaves hear of it.
    fn narrow_job(&mut self, alpha: Option<Value>, beta: Option<Value>, cx: &mut PCx<'_, 't, T>) {
        let Some(top) = self.frames.last() else {
            return;
        };
        let old = (top.alpha, top.beta);
        if let Some(a) = alpha {
            self.frames[0].alpha = self.frames[0].alpha.max(a);
        }
        if let Some(b) = beta {
            self.frames[0].beta = self.frames[0].beta.min(b);
        }
        for k in 1..self.frames.len() {
            let (pa, pb) = (self.frames[k - 1].alpha, self.frames[k - 1].beta);
            let f = &mut self.frames[k];
            f.alpha = f.alpha.max(-pb);
            f.beta = f.beta.min(-pa);
        }
        if let Some(k) = self.frames.iter().position(|f| f.alpha >= f.beta) {
            self.terminate(cx);
            self.frames.truncate(k + 1);
            let v = self.frames[k].alpha;
            self.close_top(v, cx);
            return;
        }
        self.send_updates(old, cx);
    }

    fn on_message(&mut self, from: ProcId, msg: PvMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match msg {
            PvMsg::Work {
                id,
                node,
                alpha,
                beta,
                depth,
                node_type,
            } => {
                if id <= self.aborted {
                    return; // aborted before it arrived
                }
                if self.job.is_some() {
                    cx.fail("pvsplit: work arrived while the last assignment was open");
                    return;
                }
                self.job = Some(id);
                let mode = if self.config.refined && node_type == NodeType::Two && depth >= 2 {
                    Mode::Serial
                } else {
                    Mode::Split
                };
                self.open(node, node_type, mode, alpha, beta, depth, cx);
            }
            PvMsg::Result { id, value } => {
                let Some(j) = self.slaves.iter().position(|&s| s == from) else {
                    return;
                };
                if self.busy[j] != Some(id) {
                    return; // stale: the slave was aborted
                }
                self.busy[j] = None;
                self.idle.push_back(j);
                let Some(top) = self.frames.last_mut() else {
                    return;
                };
                let t = -value;
                if t > top.alpha {
                    let old = (top.alpha, top.beta);
                    top.alpha = t;
                    if top.alpha >= top.beta {
                        self.terminate(cx);
                        self.close_top(t, cx);
                        return;
                    }
                    self.send_updates(old, cx);
                }
                self.assign(cx);
            }
            PvMsg::Update { id, alpha, beta } => {
                if self.job == Some(id) {
                    self.narrow_job(alpha, beta, cx);
                }
            }
            PvMsg::Abort { id } => {
                self.aborted = self.aborted.max(id);
                if self.job == Some(id) {
                    self.terminate(cx);
                    self.frames.clear();
                    self.job = None;
                }
            }
        }
    }

    fn on_done(&mut self, out: PvOut, cx: &mut PCx<'_, 't, T>) {
        let current = self.frames.last().map(|f| f.token);
        match out {
            PvOut::Generated { frame } if current == Some(frame) => {
                let top = self.frames.last_mut().expect("checked");
                let moves = self.tree.moves(&top.node);
                if moves.is_empty() {
                    // A terminal position: evaluate it here.
                    self.compute(frame, true, cx);
                    return;
                }
                top.moves = Some(moves);
                self.proceed(cx);
            }
            PvOut::Evaluated { frame, value } if current == Some(frame) => {
                self.close_top(value, cx)
            }
            _ => {} // the work of a frame that was closed or aborted meanwhile
        }
    }
}

impl<'t, T: GameTree> Terminal<'t, T> {
    fn on_message(&mut self, msg: PvMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match msg {
            PvMsg::Work {
                id,
                node,
                alpha,
                beta,
                depth,
                ..
            } => {
                if id <= self.aborted {
                    return; // aborted before it arrived
                }
                if self.current.is_some() {
                    cx.fail("pvsplit: work arrived while the last search was running");
                    return;
                }
                self.current = Some(id);
                cx.search(PvSearch(AlphaBeta::new(
                    self.tree, node, alpha, beta, depth,
                )));
            }
            PvMsg::Update { id, alpha, beta } => {
                if self.current == Some(id) {
                    if let Some(PvSearch(s)) = cx.search_mut() {
                        if let Some(a) = alpha {
                            s.raise_alpha(a);
                        }
                        if let Some(b) = beta {
                            s.lower_beta(b);
                        }
                    }
                }
            }
            PvMsg::Abort { id } => {
                self.aborted = self.aborted.max(id);
                if self.current == Some(id) {
                    cx.abort_search();
                    self.current = None;
                }
            }
            PvMsg::Result { .. } => {} // terminal processors have no slaves
        }
    }

    fn on_done(&mut self, out: PvOut, cx: &mut PCx<'_, 't, T>) {
        let PvOut::Searched(value) = out else { return };
        if let (Some(parent), Some(id)) = (self.parent, self.current.take()) {
            cx.send(parent, PvMsg::Result { id, value });
        }
    }
}

impl<'t, T: GameTree> Program for PvSplitRole<'t, T> {
    type Msg = PvMsg<T::Node>;
    type Out = PvOut;
    type Search = PvSearch<'t, T>;

    fn start(&mut self, cx: &mut PCx<'_, 't, T>) {
        if let PvSplitRole::Master(m) = self {
            if m.parent.is_none() {
                // deploy made sure that d > L: the root is a PV node of the PV phase.
                m.job = Some(0);
                let (root, depth) = (m.tree.root(), m.config.depth);
                m.open(root, NodeType::One, Mode::Pv, -INF, INF, depth, cx);
            }
        }
    }

    fn on_message(&mut self, from: ProcId, msg: PvMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match self {
            PvSplitRole::Master(m) => m.on_message(from, msg, cx),
            PvSplitRole::Terminal(t) => t.on_message(msg, cx),
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
            PvSplitRole::Master(m) if m.parent.is_none() && m.result.is_none() => {
                let busy = m.busy.iter().filter(|b| b.is_some()).count();
                Some(format!(
                    "the root value ({} frames open, {busy} slaves busy)",
                    m.frames.len()
                ))
            }
            _ => None,
        }
    }
}
