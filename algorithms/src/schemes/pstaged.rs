//! Parallel staged SSS* (`staged_sss` on a processor tree): Campbell's thesis, section 4.3 and
//! chapter 5, on processor trees of depth 1 (a master and its slaves).
//!
//! **What the thesis says.** "Staged SSS* is adaptable to the processor tree architecture, and
//! hence can employ a static game tree decomposition. Each master maintains an OPEN list, and
//! assigns appropriate subtree searches to its slaves. Terminal slaves can employ either SSS*,
//! staged SSS*, or any of a number of other methods to evaluate their assigned nodes." (4.3). Its
//! chapter-5 runs (width 24, depth 4) use stages of depth 2 on depth-1 processor trees only ("SSS
//! cannot use either a depth 2 or 3 system"), and it adds that "varying the methods used for
//! choosing the next subtree to search can affect this performance. The particular algorithm
//! employed in the simulations was favorable for ordered trees." It does not say which.
//!
//! **What gtsim builds.**
//! - The **master** runs the SSS* of the top stage (Campbell's Table 11 with the left-first
//!   order of Table 12, as [`crate::Sss`]) on its own OPEN list. A LIVE state at the stage's
//!   horizon is not valued by the master but handed, with the upper bound `h` of its state, to an
//!   idle slave (a WORK message); the state stays on OPEN, marked *in evaluation*, until the
//!   slave's RESULT `v` comes back, when case 4 puts it back solved with merit `min(h, v)`, at its
//!   place in OPEN's order (so results may come back in any order).
//! - The **slaves** search their nodes with sequential staged SSS* of the remaining plies
//!   ([`crate::StagedSss`] with the same stage depth; the thesis leaves the choice open, and this
//!   is what sequential staged SSS* does below its top stage), with the window of the state:
//!   `(-∞, h)` at a MAX node, `(-h, +∞)` at a MIN node.
//! - **Which state next.** The master walks OPEN in SSS* order (largest merit first, leftmost
//!   among equal merits), skipping the states in evaluation, and applies G to the first state it
//!   may:
//!   - while nothing before it is in evaluation, it is the top of OPEN and the master does
//!     exactly what sequential SSS* does;
//!   - below a state in evaluation (speculatively, and only while a slave is idle: speculation
//!     is only there to find work for it) it may expand a LIVE node (cases 5 and 6), hand a LIVE
//!     horizon node to the idle slave (case 4), and move a solved MAX node on to its next sibling
//!     or solve its MIN parent (cases 2 and 3): these only take minima under one MIN node, so
//!     they are right wherever the state stands, and the states they make take the place of the
//!     state they replace in OPEN's order. It may **not** apply case 1 (a solved MIN node solves
//!     its MAX parent, and its siblings are purged), which is only right for the top of OPEN: such
//!     a state waits until every state before it has come back, and the master looks no further
//!     down OPEN meanwhile (looking further, and keeping the slaves busy there, measured slower).
//!   - **A MIN node's successors ahead of their turn.** SSS* values a MIN node's successors one at
//!     a time (case 2), each with the merit the one before left. While the successor whose turn
//!     it is waits for its slave and nothing but that MIN node's successors comes before it in
//!     OPEN, an idle slave gets the MIN node's next successor at once, with the smallest merit
//!     known below the MIN node as its bound (an upper bound of the MIN node, so `min(bound, v)`
//!     combines exactly), but only once a bound is known (not in the first pass, where every
//!     merit is +∞). A successor solved ahead of its turn waits (and holds case 1 back like a
//!     state in evaluation); when its turn comes, its merits are capped by the one before it.
//!     Without this, the last MIN node of SSS* (on an ordered tree the principal variation's,
//!     whose every successor must be valued) runs on one slave while the others idle; with it,
//!     the master concentrates the slaves on the top of OPEN. This is a choice the thesis leaves
//!     open ("the particular algorithm employed in the simulations was favorable for ordered
//!     trees. Other mechanisms could be expected to favor random trees"): on Campbell's width-24
//!     depth-4 trees it cuts the time of strongly and perfectly ordered trees by 35–70 % with
//!     4–12 slaves, while on random trees it is about 17 % slower with 2–4 slaves and 3–11 %
//!     faster with 8–12.
//!
//!   In the first pass, where every merit is +∞, the master hands out the leftmost horizon
//!   nodes first.
//! - **Purges.** When case 1 purges states in evaluation, their slaves get an ABORT and are idle
//!   again at once; a RESULT that crosses the ABORT on the line is recognised as stale by its
//!   assignment number and ignored (the split-work protocol of [`crate::schemes::protocol`]).
//! - With **one slave** the master never speculates (no slave is ever idle while a node is in
//!   evaluation) and starts no successor ahead of its turn, so it evaluates exactly the leaves and expands exactly the interior nodes of
//!   sequential staged SSS* (a test checks it). On a one-processor tree the root processor runs
//!   sequential [`crate::StagedSss`].
//!
//! **Costs.** The master's expansions cost `k` each (the horizon nodes it hands out are expanded
//! by the slaves, as a stage boundary node is expanded by the stage below in the sequential
//! search), a terminal position above the stage's horizon costs it `e`; the slaves' searches are
//! charged step by step by the machine. Messages: WORK 6 bytes (a move and a bound), RESULT 4,
//! ABORT 2, all inter-node, as in tree-splitting.
//!
//! **`open_peak`** is the largest OPEN list any one processor held (the master's, states in
//! evaluation included, or a slave's staged SSS*): the OPEN lists are local to their processors
//! ("no data sharing overhead is required here").

use crate::schemes::adapter::{Adapted, SearchExt};
use crate::schemes::protocol::{interior_work, leaf_work, Accept, Slaves, SplitMsg, Task, Upward};
use crate::schemes::scheme::{DeployError, Figures, Scheme};
use crate::search::sequential::SequentialSearch;
use crate::search::sss::open::{OpenList, Slot, State, NO_PARENT};
use crate::search::sss::{StagedSss, DEFAULT_STAGE_DEPTH};
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::{ProcId, SimTime};
use sim_hw::{Cx, ProcessorTree, Program};

/// Options of parallel staged SSS*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PStagedSssConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Plies per stage (the master searches the first `stage` plies); 2 in the thesis.
    pub stage: u32,
}

impl PStagedSssConfig {
    /// Depth `depth` with the thesis's stages of [`DEFAULT_STAGE_DEPTH`] plies.
    pub fn new(depth: u32) -> Self {
        PStagedSssConfig {
            depth,
            stage: DEFAULT_STAGE_DEPTH,
        }
    }
}

/// Parallel staged SSS* as a [`Scheme`] (named `staged_sss`, as the sequential search it runs on
/// a uniprocessor); see the [module doc](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PStagedSss(pub PStagedSssConfig);

/// The messages of parallel staged SSS*: the split-work protocol (it sends no UPDATE).
pub type PssMsg<N> = SplitMsg<N>;

/// What a processor's work hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PssOut {
    /// The master generated a node's moves or evaluated a terminal position.
    Computed,
    /// A staged SSS* search ended: its value and the peak of its OPEN lists.
    Searched {
        /// The search's value.
        value: Value,
        /// [`SequentialSearch::open_peak`] of the search.
        peak: usize,
    },
}

/// A slave's (or a uniprocessor's) search: sequential staged SSS*, handed back as
/// [`PssOut::Searched`].
pub type PssSearch<'t, T> = Adapted<StagedSss<'t, T>, PssOut>;

fn staged_sss<T: GameTree>(search: StagedSss<'_, T>) -> PssSearch<'_, T> {
    search.map_done(|s, value| PssOut::Searched {
        value,
        peak: s.open_peak(),
    })
}

/// What the master's OPEN list asks for next.
enum MStep<N> {
    /// A node's moves were generated (cost `k`).
    Interior,
    /// A terminal position was evaluated (cost `e`).
    Leaf { quiescence: u32 },
    /// Hand the horizon node of `slot` to an idle slave with this window (its negamax view).
    Dispatch {
        slot: u32,
        node: N,
        alpha: Value,
        beta: Value,
    },
    /// Nothing to do until a result comes back (or a slave is idle).
    Wait,
    /// The root is solved with this value.
    Done(Value),
}

/// The top stage's SSS* with several horizon states in evaluation at once (see the module doc).
struct MasterOpen<'t, T: GameTree> {
    tree: &'t T,
    slots: Vec<Slot<T>>,
    /// Per slot of a MIN node: how many of its successors have been put on OPEN so far.
    launched: Vec<u32>,
    /// Per slot of a MIN node: the successor whose turn it is in SSS* (the others on OPEN were
    /// put there ahead of their turn).
    lead: Vec<u32>,
    /// Sorted by priority, the top last; states in evaluation stay in their place.
    open: Vec<State>,
    /// Slots of the states in evaluation.
    busy: Vec<u32>,
    /// Slots of states in evaluation that a purge removed (their slaves are to be aborted).
    cancelled: Vec<u32>,
    /// The stage's depth.
    depth: u32,
    peak: usize,
}

impl<'t, T: GameTree> MasterOpen<'t, T> {
    fn new(tree: &'t T, depth: u32) -> Self {
        MasterOpen {
            tree,
            slots: vec![Slot {
                node: tree.root(),
                parent: NO_PARENT,
                index: 0,
                ply: 0,
                moves: None,
            }],
            launched: vec![0],
            lead: vec![0],
            open: vec![State {
                slot: 0,
                solved: false,
                h: INF,
            }],
            busy: Vec::new(),
            cancelled: Vec::new(),
            depth,
            peak: 1,
        }
    }

    /// MAX (the side to move at the root) moves at `ply`.
    #[inline]
    fn is_max(ply: u32) -> bool {
        ply.is_multiple_of(2)
    }

    fn child(&mut self, p: u32, i: usize) -> u32 {
        let parent = &self.slots[p as usize];
        let moves = parent.moves.as_ref().expect("an expanded node");
        let node = self.tree.play(&parent.node, moves.get(i));
        let ply = parent.ply + 1;
        self.slots.push(Slot {
            node,
            parent: p,
            index: i as u32,
            ply,
            moves: None,
        });
        self.launched.push(0);
        self.lead.push(0);
        (self.slots.len() - 1) as u32
    }

    /// A new LIVE state for successor `i` of the MIN node `p`, the next one to be put on OPEN.
    fn launch(&mut self, p: u32, i: usize, h: Value) -> State {
        debug_assert_eq!(self.launched[p as usize] as usize, i);
        self.launched[p as usize] = i as u32 + 1;
        State {
            slot: self.child(p, i),
            solved: false,
            h,
        }
    }

    /// Whether slot `x` lies in the subtree of slot `m`.
    fn below(slots: &[Slot<T>], mut x: u32, m: u32) -> bool {
        let ply = slots[m as usize].ply;
        while slots[x as usize].ply > ply {
            x = slots[x as usize].parent;
        }
        x == m
    }

    /// Case 4's insert with Campbell's order (as [`OpenList`]'s).
    fn insert(&mut self, s: State) {
        let slots = &self.slots;
        let at = self
            .open
            .partition_point(|x| OpenList::<T>::before(slots, &s, x));
        self.open.insert(at, s);
    }

    /// Case 1's purge of every state below slot `m`; states in evaluation are cancelled.
    fn purge_below(&mut self, m: u32) {
        let slots = &self.slots;
        let (busy, cancelled) = (&mut self.busy, &mut self.cancelled);
        self.open.retain(|s| {
            if !Self::below(slots, s.slot, m) {
                return true;
            }
            if let Some(i) = busy.iter().position(|&b| b == s.slot) {
                busy.swap_remove(i);
                cancelled.push(s.slot);
            }
            false
        });
    }

    /// The turn passes to successor `f` of a MIN node, already on OPEN, whose predecessor was
    /// solved with merit `h`: every merit below `f` becomes at most `h` (as if `f` had been
    /// started with it), and OPEN is sorted again.
    fn cap_below(&mut self, f: u32, h: Value) {
        let slots = &self.slots;
        let mut changed = false;
        for s in self.open.iter_mut() {
            if s.h > h && Self::below(slots, s.slot, f) {
                s.h = h;
                changed = true;
            }
        }
        if changed {
            // Stable, and `before` is a strict order on distinct slots.
            self.open.sort_by(|x, y| {
                if OpenList::<T>::before(slots, x, y) {
                    std::cmp::Ordering::Greater
                } else if OpenList::<T>::before(slots, y, x) {
                    std::cmp::Ordering::Less
                } else {
                    std::cmp::Ordering::Equal
                }
            });
        }
    }

    /// Whether the state of slot `x` (a successor of a MIN node) is ahead of its turn.
    fn ahead_of_turn(&self, x: u32) -> bool {
        let slot = &self.slots[x as usize];
        slot.parent != NO_PARENT
            && !Self::is_max(self.slots[slot.parent as usize].ply)
            && slot.index != self.lead[slot.parent as usize]
    }

    /// The smallest merit on OPEN below slot `m`.
    fn least_below(&self, m: u32) -> Value {
        self.open
            .iter()
            .filter(|s| Self::below(&self.slots, s.slot, m))
            .map(|s| s.h)
            .min()
            .unwrap_or(INF)
    }

    /// Applies G as far as the rules of the module doc allow: `idle` says whether a slave is
    /// free to take a horizon node (and so whether speculation is worth anything).
    fn next(&mut self, idle: bool) -> MStep<T::Node> {
        'scan: loop {
            let mut blocked = false;
            let mut blocked_busy = false;
            // The MIN node whose successors are all that holds the states seen so far back.
            let mut chain: Option<u32> = None;
            for idx in (0..self.open.len()).rev() {
                let s = self.open[idx];
                let (ply, parent, index) = {
                    let x = &self.slots[s.slot as usize];
                    (x.ply, x.parent, x.index)
                };
                let busy = self.busy.contains(&s.slot);
                let waiting = s.solved && self.ahead_of_turn(s.slot);
                if busy || waiting {
                    // In evaluation, or solved ahead of its turn: it holds everything after it
                    // back from case 1. While a slave is idle, the MIN parent's next successor
                    // may be started (with the best bound known).
                    let top_chain = !blocked || chain == Some(parent);
                    if idle
                        && top_chain
                        && parent != NO_PARENT
                        && !Self::is_max(self.slots[parent as usize].ply)
                        && index + 1 == self.launched[parent as usize]
                    {
                        let width = self.slots[parent as usize]
                            .moves
                            .as_ref()
                            .expect("an expanded parent")
                            .len();
                        let h = self.least_below(parent);
                        if (index as usize + 1) < width && h < INF {
                            let next = self.launch(parent, index as usize + 1, h);
                            self.insert(next);
                            self.peak = self.peak.max(self.open.len());
                            continue 'scan;
                        }
                    }
                    chain = if top_chain { Some(parent) } else { None };
                    blocked = true;
                    blocked_busy |= busy;
                    continue;
                }
                if blocked && !idle {
                    return MStep::Wait;
                }
                if s.solved {
                    if s.slot == 0 {
                        if blocked {
                            chain = None;
                            continue;
                        }
                        // (3): the root solved.
                        for slot in std::mem::take(&mut self.busy) {
                            self.cancelled.push(slot);
                        }
                        return MStep::Done(s.h);
                    }
                    if !Self::is_max(ply) {
                        if blocked {
                            if blocked_busy {
                                return MStep::Wait;
                            }
                            chain = None;
                            continue; // case 1 needs the top of OPEN
                        }
                        // Case 1 (idx is the top).
                        self.open.pop();
                        self.purge_below(parent);
                        self.open.push(State {
                            slot: parent,
                            solved: true,
                            h: s.h,
                        });
                        continue 'scan;
                    }
                    let width = self.slots[parent as usize]
                        .moves
                        .as_ref()
                        .expect("an expanded parent")
                        .len();
                    let next = index as usize + 1;
                    self.open[idx] = if next < width {
                        // Case 2: the next successor of the MIN parent, in the same place.
                        self.lead[parent as usize] = next as u32;
                        self.launch(parent, next, s.h)
                    } else {
                        // Case 3: the MIN parent solved, in the same place.
                        State {
                            slot: parent,
                            solved: true,
                            h: s.h,
                        }
                    };
                    continue 'scan;
                }
                // LIVE.
                if ply >= self.depth {
                    if !idle {
                        return MStep::Wait;
                    }
                    self.busy.push(s.slot);
                    let node = self.slots[s.slot as usize].node.clone();
                    let (alpha, beta) = if Self::is_max(ply) {
                        (-INF, s.h)
                    } else {
                        (-s.h, INF)
                    };
                    return MStep::Dispatch {
                        slot: s.slot,
                        node,
                        alpha,
                        beta,
                    };
                }
                let moves = self.tree.moves(&self.slots[s.slot as usize].node);
                let width = moves.len();
                if width == 0 {
                    // Case 4 on a terminal position: the master evaluates it.
                    let eval = self.tree.evaluate(&self.slots[s.slot as usize].node);
                    let v = if Self::is_max(ply) {
                        eval.value
                    } else {
                        -eval.value
                    };
                    self.open.remove(idx);
                    self.insert(State {
                        slot: s.slot,
                        solved: true,
                        h: s.h.min(v),
                    });
                    return MStep::Leaf {
                        quiescence: eval.quiescence,
                    };
                }
                self.slots[s.slot as usize].moves = Some(moves);
                let successors: Vec<State> = if Self::is_max(ply) {
                    // Case 6: every successor, the first on top.
                    (0..width)
                        .rev()
                        .map(|i| State {
                            slot: self.child(s.slot, i),
                            solved: false,
                            h: s.h,
                        })
                        .collect()
                } else {
                    // Case 5: the first successor.
                    vec![self.launch(s.slot, 0, s.h)]
                };
                self.open.splice(idx..=idx, successors);
                self.peak = self.peak.max(self.open.len());
                return MStep::Interior;
            }
            return MStep::Wait;
        }
    }

    /// Passes the turn among the successors of the MIN node `p` for as long as the one whose
    /// turn it is has been solved and the next one is already on OPEN (case 2 with a successor
    /// started ahead of its turn): the next one's merits are capped by the solved one's, which
    /// leaves OPEN.
    fn settle(&mut self, p: u32) {
        loop {
            let lead = self.lead[p as usize];
            let next = lead + 1;
            if next >= self.launched[p as usize] {
                return;
            }
            let Some(idx) = self.open.iter().position(|x| {
                x.solved && {
                    let y = &self.slots[x.slot as usize];
                    y.parent == p && y.index == lead
                }
            }) else {
                return;
            };
            let h = self.open.remove(idx).h;
            self.lead[p as usize] = next;
            let f = self
                .open
                .iter()
                .filter(|x| x.slot != p && Self::below(&self.slots, x.slot, p))
                .map(|x| self.topmost_ancestor_below(x.slot, p))
                .find(|&x| self.slots[x as usize].index == next)
                .expect("a started successor has states on OPEN");
            self.cap_below(f, h);
        }
    }

    /// The successor of `p` whose subtree holds slot `x`.
    fn topmost_ancestor_below(&self, mut x: u32, p: u32) -> u32 {
        while self.slots[x as usize].parent != p {
            x = self.slots[x as usize].parent;
        }
        x
    }

    /// The value `v` (negamax view of the node) of the horizon state of `slot` has come back:
    /// case 4 puts it back solved with merit `min(h, v)`. False if the state was purged.
    fn resolve(&mut self, slot: u32, v: Value) -> bool {
        let Some(b) = self.busy.iter().position(|&x| x == slot) else {
            return false;
        };
        self.busy.swap_remove(b);
        let idx = self
            .open
            .iter()
            .position(|s| s.slot == slot)
            .expect("a state in evaluation is on OPEN");
        let s = self.open.remove(idx);
        let v = if Self::is_max(self.slots[slot as usize].ply) {
            v
        } else {
            -v
        };
        self.insert(State {
            slot,
            solved: true,
            h: s.h.min(v),
        });
        let parent = self.slots[slot as usize].parent;
        if parent != NO_PARENT && !Self::is_max(self.slots[parent as usize].ply) {
            self.settle(parent);
        }
        true
    }
}

/// The master: the top stage's OPEN list and its slaves.
pub struct Master<'t, T: GameTree> {
    config: PStagedSssConfig,
    /// The root value, once known.
    up: Upward,
    /// Its slaves, each busy with the slot of a state in evaluation.
    slaves: Slaves<u32>,
    open: MasterOpen<'t, T>,
    /// A computation (`k` or `e`) is under way: the master acts again when it ends.
    computing: bool,
}

/// A slave: searches the nodes its master hands it with staged SSS*.
pub struct Slave<'t, T: GameTree> {
    tree: &'t T,
    config: PStagedSssConfig,
    up: Upward,
    peak: usize,
}

/// A uniprocessor: sequential staged SSS* of the whole tree.
pub struct Solo<'t, T: GameTree> {
    search: Option<StagedSss<'t, T>>,
    result: Option<(Value, usize)>,
    finished_at: Option<SimTime>,
}

/// A parallel staged SSS* role on one processor.
pub enum PStagedSssRole<'t, T: GameTree> {
    /// The root processor of a depth-1 processor tree.
    Master(Box<Master<'t, T>>),
    /// A terminal processor.
    Slave(Slave<'t, T>),
    /// The only processor.
    Solo(Solo<'t, T>),
}

type PCx<'a, 't, T> = Cx<'a, PStagedSssRole<'t, T>>;

impl<T: GameTree> PStagedSssRole<'_, T> {
    /// The root value, on the root processor once it has finished.
    pub fn root_value(&self) -> Option<Value> {
        match self {
            PStagedSssRole::Master(m) => m.up.root_value(),
            PStagedSssRole::Solo(s) => s.result.map(|r| r.0),
            PStagedSssRole::Slave(_) => None,
        }
    }
    /// When the root processor had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            PStagedSssRole::Master(m) => m.up.finished_at(),
            PStagedSssRole::Solo(s) => s.finished_at,
            PStagedSssRole::Slave(_) => None,
        }
    }
    /// The largest OPEN list this processor held (the master's states in evaluation included).
    pub fn open_peak(&self) -> usize {
        match self {
            PStagedSssRole::Master(m) => m.open.peak,
            PStagedSssRole::Solo(s) => s.result.map_or(0, |r| r.1),
            PStagedSssRole::Slave(s) => s.peak,
        }
    }
}

impl<'t, T: GameTree + 't> Scheme<'t, T> for PStagedSss {
    type Role = PStagedSssRole<'t, T>;
    fn name(&self) -> String {
        "staged_sss".into()
    }
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        let PStagedSssConfig { depth, stage } = self.0;
        let scheme = "staged_sss".to_string();
        if stage == 0 {
            return Err(DeployError::NoStage { scheme });
        }
        if ptree.len() == 1 {
            return Ok(vec![PStagedSssRole::Solo(Solo {
                search: Some(StagedSss::with_stage_depth(
                    tree,
                    tree.root(),
                    -INF,
                    INF,
                    depth,
                    stage,
                )),
                result: None,
                finished_at: None,
            })]);
        }
        if ptree.depth() >= 2 {
            return Err(DeployError::MasterAndSlaves {
                scheme,
                depth: ptree.depth(),
            });
        }
        if depth <= stage {
            return Err(DeployError::StageTooDeep {
                scheme,
                stage,
                depth,
            });
        }
        let slaves = ptree.children(ProcId::MASTER);
        let n = slaves.len();
        let mut roles = vec![PStagedSssRole::Master(Box::new(Master {
            config: self.0,
            up: Upward::new(None),
            slaves: Slaves::new(slaves),
            open: MasterOpen::new(tree, stage),
            computing: false,
        }))];
        roles.extend((0..n).map(|_| {
            PStagedSssRole::Slave(Slave {
                tree,
                config: self.0,
                up: Upward::new(Some(ProcId::MASTER)),
                peak: 0,
            })
        }));
        Ok(roles)
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(PStagedSssRole::root_value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    /// `open_peak`: the largest OPEN list any one processor held.
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        match roles.iter().map(PStagedSssRole::open_peak).max() {
            Some(p) if p > 0 => Figures::default().with("open_peak", p as u64),
            _ => Figures::default(),
        }
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    /// Applies G as far as it goes: hands horizon nodes to idle slaves, and stops at the first
    /// costed step (or when nothing can be done before a result comes back).
    fn drive(&mut self, cx: &mut PCx<'_, 't, T>) {
        if self.computing || self.up.root_value().is_some() {
            return;
        }
        loop {
            let step = self.open.next(self.slaves.any_idle());
            self.send_aborts(cx);
            let costs = *cx.costs();
            let work = match step {
                MStep::Dispatch {
                    slot,
                    node,
                    alpha,
                    beta,
                } => {
                    let depth = self.config.depth - self.config.stage;
                    let task = Task {
                        node,
                        alpha,
                        beta,
                        depth,
                        tag: (),
                    };
                    self.slaves.assign(task, slot, cx);
                    continue;
                }
                MStep::Interior => interior_work(&costs),
                MStep::Leaf { quiescence } => leaf_work(costs.e, quiescence),
                MStep::Wait => return,
                MStep::Done(v) => {
                    self.send_aborts(cx);
                    self.up.report(v, cx);
                    return;
                }
            };
            self.computing = true;
            cx.compute(work, PssOut::Computed);
            return;
        }
    }

    /// Sends an ABORT to the slave of every state a purge removed; the slave is idle again.
    fn send_aborts(&mut self, cx: &mut PCx<'_, 't, T>) {
        for slot in std::mem::take(&mut self.open.cancelled) {
            self.slaves.abort(slot, cx);
        }
    }

    fn on_message(&mut self, from: ProcId, msg: PssMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        let SplitMsg::Result { id, value } = msg else {
            cx.fail("staged_sss: the master received work");
            return;
        };
        let Some(slot) = self.slaves.returned(from, id) else {
            return; // stale: the slave was aborted
        };
        if self.up.root_value().is_none() {
            self.open.resolve(slot, value);
        }
        self.drive(cx);
    }
}

impl<'t, T: GameTree> Slave<'t, T> {
    fn on_message(&mut self, msg: PssMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match msg {
            SplitMsg::Work { id, task } => match self.up.accept(id) {
                Accept::Take => cx.search(staged_sss(StagedSss::with_stage_depth(
                    self.tree,
                    task.node,
                    task.alpha,
                    task.beta,
                    task.depth,
                    self.config.stage,
                ))),
                Accept::Stale => {}
                Accept::Busy => {
                    cx.fail("staged_sss: work arrived while the last search was running");
                }
            },
            SplitMsg::Abort { id } => {
                if self.up.abort(id) {
                    if let Some(s) = cx.abort_search() {
                        self.peak = self.peak.max(s.inner().open_peak());
                    }
                }
            }
            SplitMsg::Update { .. } => cx.fail("staged_sss: a slave received an update"),
            SplitMsg::Result { .. } => cx.fail("staged_sss: a slave received a result"),
        }
    }
}

impl<'t, T: GameTree> Program for PStagedSssRole<'t, T> {
    type Msg = PssMsg<T::Node>;
    type Out = PssOut;
    type Search = PssSearch<'t, T>;

    fn start(&mut self, cx: &mut PCx<'_, 't, T>) {
        match self {
            PStagedSssRole::Master(m) => m.drive(cx),
            PStagedSssRole::Solo(s) => {
                if let Some(search) = s.search.take() {
                    cx.search_isolated(staged_sss(search));
                }
            }
            PStagedSssRole::Slave(_) => {}
        }
    }

    fn on_message(&mut self, from: ProcId, msg: PssMsg<T::Node>, cx: &mut PCx<'_, 't, T>) {
        match self {
            PStagedSssRole::Master(m) => m.on_message(from, msg, cx),
            PStagedSssRole::Slave(s) => s.on_message(msg, cx),
            PStagedSssRole::Solo(_) => cx.fail("staged_sss: a uniprocessor received a message"),
        }
    }

    fn on_done(&mut self, out: PssOut, cx: &mut PCx<'_, 't, T>) {
        match (self, out) {
            (PStagedSssRole::Master(m), PssOut::Computed) => {
                m.computing = false;
                m.drive(cx);
            }
            (PStagedSssRole::Slave(s), PssOut::Searched { value, peak }) => {
                s.peak = s.peak.max(peak);
                s.up.report(value, cx);
            }
            (PStagedSssRole::Solo(s), PssOut::Searched { value, peak }) => {
                s.result = Some((value, peak));
                s.finished_at = Some(cx.now());
                cx.mark("root value known");
            }
            _ => cx.fail("staged_sss: unexpected end of work"),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            PStagedSssRole::Master(m) if m.up.root_value().is_none() => Some(format!(
                "the root value ({} slaves busy)",
                m.slaves.busy_count()
            )),
            PStagedSssRole::Solo(s) if s.result.is_none() => Some("the root value".into()),
            _ => None,
        }
    }
}
