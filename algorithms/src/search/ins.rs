//! INFORMED NEGASCOUT ([`Ins`], `ins`) and PARTIALLY INFORMED NEGASCOUT ([`Pns`], `pns`) of
//! Reinefeld, Schaeffer & Marsland (seed `reinefeld-schaeffer-marsland-information-acquisition`,
//! sections 2.2–2.3 and Fig. 3) as resumable machines, with plain recursive references
//! ([`ins_recursive`], [`pns_recursive`]) that keep their information in a hash table, as the
//! paper's `SaveInfo`/`GetInfo` do.
//!
//! **What they acquire.** Both are NegaScout ([`crate::NegaScout`]): a successor after the first
//! is searched with a minimal window and, if it fails high inside the window at a remaining depth
//! of at least 2, searched again. Neither uses iterative deepening, move memory across searches
//! or transposition tables: the information is what the **initial minimal-window search of a
//! subtree** learnt, used only by the **re-search of that same subtree**:
//! - at a node where the initial search found no β cut-off (every successor searched; from the
//!   re-searched node these are the nodes an odd number of plies below it), the value each
//!   successor returned, an upper bound of its value ("prove-best" information). The re-search
//!   sorts the successors by these bounds, best first; searches the first with the window
//!   `(α, β)`, each next one with the narrow window `(max(a, α), bound)` (no re-search: the value
//!   is inside it) and stops as soon as `max(a, α)` reaches the next bound (a prove-best
//!   cut-off, returning `max(a, bound)`);
//! - at a node where it found a β cut-off at successor `k` (even plies below), that the
//!   successors left of `k` are inferior ("ignore-left"). The re-search searches successor `k`
//!   first (with its own information), then the successors right of `k`, which the initial
//!   search never saw, as NegaScout does (minimal windows, re-searched with the information their
//!   own minimal-window search acquired), and skips those left of `k`.
//!
//! INS keeps this for every node of the initial search, recursively (a tree of node descriptors,
//! the paper's "tree-like linked data structure", so that no information is lost to hash
//! collisions). PNS keeps only the first level: the upper bounds of the re-searched node's
//! successors (its "integer array of size w" per level), and searches everything below them as
//! NegaScout does. Information acquired during a re-search (by the successors right of an
//! ignore-left cut-off) is used by their own re-searches, as in NegaScout.
//!
//! **Counting.** The paper counts bottom positions visited; a leaf evaluated in a minimal-window
//! search and again in a re-search counts twice (re-searches revisit nodes: "all nodes of the
//! initial search are revisited plus some additional ones" when no information is kept). There
//! are no shallower iterations to count. One [`sim_hw::Step::Leaf`] per evaluation, one
//! [`sim_hw::Step::Interior`] per interior node entered (again at each visit).
//!
//! **Fig. 3 as printed and gtsim.** Four points are not stated by the figure, or contradict the
//! text; gtsim follows the text:
//! 1. The figure never assigns `merit[i]`. gtsim saves, for successor `i`, the value the node
//!    finally holds for it: the minimal-window value, or the re-search value when it was
//!    re-searched (the minimal-window value of a fail-high is a lower bound, not the upper bound
//!    a prove-best cut-off needs).
//! 2. At an ignore-left node the figure (as printed) sets `b = merit[i+1]` before clearing
//!    `resflag`, which gives the first unseen successor the open window `(max(a, α), +∞)` and
//!    then searches the ignored successors (merit `−∞`) with minimal windows once `resflag` is
//!    false, so nothing would be ignored. Section 2.2 says the branches left of the cut-off "can
//!    be ignored" and the successors right of it were never seen: gtsim gives the unseen
//!    successors minimal windows (NegaScout's rules) and cuts off at the first ignored one.
//! 3. The narrow window's upper edge is the successor's bound, as printed (`b = merit[i+1]`),
//!    not `min(bound, β)`.
//! 4. Sort is stable: successors with equal bounds keep their move order.
//!
//! **Windows** as NegaScout: fail-soft; a prove-best cut-off returns `max(a, bound)`, an upper
//! bound. **Window changes while a search runs** narrow every open frame (Campbell's UPDATE, as
//! [`crate::NegaScout`] does). Information acquired by a search during which a window changed is
//! dropped (its re-search, if any, is NegaScout's plain re-search): a cut-off under a window
//! narrowed in flight no longer proves that the successors left of it are inferior.

use crate::search::depth_first::{
    Call, Child, DepthFirst, Enter, Flow, Frame, Policy, RootValue, SequentialPolicy,
};
use crate::search::expand;
use crate::trees::{GameTree, MoveList, Value, INF};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::convert::Infallible;

/// Which member of the family a machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// PARTIALLY INFORMED NEGASCOUT: bounds of the re-searched node's successors only.
    Pns,
    /// INFORMED NEGASCOUT: the whole initial search, recursively.
    Ins,
}

/// What the initial (minimal-window) search of a node learnt: the paper's node descriptor.
#[derive(Clone, Debug)]
enum Info {
    /// No β cut-off: the value each successor returned (an upper bound of it, from this node's
    /// view), and (INS) what each successor's own search learnt.
    ProveBest {
        merits: Vec<Value>,
        children: Vec<Option<Info>>,
    },
    /// A β cut-off at successor `k`; (INS) what successor `k`'s own search learnt.
    IgnoreLeft { k: usize, child: Option<Box<Info>> },
}

/// What a re-search knows about a successor before searching it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// Not seen by the initial search (or the cut-off successor): no bound, `+∞`.
    Unseen,
    /// An upper bound of its value (node's view).
    Upper(Value),
    /// Left of an ignore-left cut-off: inferior, `−∞`.
    Inferior,
}

/// A successor in the re-search's order.
#[derive(Clone)]
struct Entry {
    index: usize,
    bound: Bound,
    info: Option<Info>,
}

/// The re-search order and bounds of a node of `width` successors from its information
/// (Fig. 3's `GetInfo` and `Sort`; ignore-left as the paper's special case of prove-best).
fn plan(info: Info, width: usize) -> Vec<Entry> {
    match info {
        Info::ProveBest {
            merits,
            mut children,
        } => {
            debug_assert_eq!(merits.len(), width);
            let mut entries: Vec<Entry> = merits
                .iter()
                .enumerate()
                .map(|(index, &m)| Entry {
                    index,
                    bound: Bound::Upper(m),
                    info: children.get_mut(index).and_then(Option::take),
                })
                .collect();
            entries.sort_by_key(|e| match e.bound {
                Bound::Upper(m) => Reverse(m),
                _ => unreachable!(),
            });
            entries
        }
        Info::IgnoreLeft { k, child } => {
            let mut child = child.map(|b| *b);
            (k..width)
                .map(|index| Entry {
                    index,
                    bound: Bound::Unseen,
                    info: if index == k { child.take() } else { None },
                })
                .chain((0..k).map(|index| Entry {
                    index,
                    bound: Bound::Inferior,
                    info: None,
                }))
                .collect()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Waiting for the first successor (window `(α, β)`).
    First,
    /// Waiting for a minimal-window search against `null`.
    Zero { null: Value },
    /// Waiting for a narrow-window search `(max(a, α), bound)` of a re-search.
    Narrow,
    /// Waiting for the re-search of a successor that failed high.
    ReSearch,
}

/// What an INS or PNS frame keeps besides the engine's frame (whose `i` is the position in the
/// search order: the plan's, or move order).
#[derive(Clone)]
pub struct InsFrame {
    /// A re-search: the successors in order with what the initial search learnt.
    plan: Option<Vec<Entry>>,
    /// The successor being searched (move index).
    index: usize,
    stage: Stage,
    /// An initial search whose information its caller wants: merits (and infos) are saved.
    collect: bool,
    /// The search's window-change count when the frame opened.
    epoch: u64,
    merits: Vec<Value>,
    infos: Vec<Option<Info>>,
    /// The current successor's initial information, kept across its re-search (INS, collect).
    kept: Option<Info>,
}

/// What goes down with an INS or PNS call (at the root: no information, none wanted).
#[derive(Clone, Default)]
pub struct InsCall {
    /// Information for a re-search (`research == TRUE` in Fig. 3).
    info: Option<Info>,
    /// Whether the caller wants the information this search acquires.
    collect: bool,
}

/// What an INS or PNS call returns: its value and, if its caller wanted it, what it learnt.
#[derive(Clone)]
pub struct InsRet {
    value: Value,
    info: Option<Info>,
}

/// The decisions of INS (`FULL`) and PNS at a node (see the module doc): NegaScout's, with
/// what an initial search learns saved for its re-search.
#[derive(Clone, Copy, Debug, Default)]
pub struct InformedPolicy<const FULL: bool> {
    /// Window changes so far.
    epoch: u64,
}

impl<const FULL: bool> InformedPolicy<FULL> {
    const MODE: Mode = if FULL { Mode::Ins } else { Mode::Pns };

    /// Saves the final value of the successor being searched (and, for INS, its information).
    fn record(s: &mut InsFrame, v: Value, info: Option<Info>) {
        s.merits.push(v);
        if Self::MODE == Mode::Ins {
            s.infos.push(info);
        }
    }

    /// Closes the frame (`cut`: the β cut-off's successor): its score and, if its caller wants
    /// it, what it learnt (`SaveInfo`).
    fn finish<T: GameTree>(&self, f: &mut Frame<T, InsFrame>, cut: Option<usize>) -> InsRet {
        let s = &mut f.state;
        let info = if s.collect && s.epoch == self.epoch {
            match (cut, Self::MODE) {
                (Some(k), Mode::Ins) => {
                    debug_assert_eq!(s.infos.len(), k + 1);
                    Some(Info::IgnoreLeft {
                        k,
                        child: s.infos.pop().flatten().map(Box::new),
                    })
                }
                (Some(_), Mode::Pns) => None,
                (None, _) => Some(Info::ProveBest {
                    merits: std::mem::take(&mut s.merits),
                    children: std::mem::take(&mut s.infos),
                }),
            }
        } else {
            None
        };
        InsRet {
            value: f.score,
            info,
        }
    }
}

impl<T: GameTree, const FULL: bool> Policy<T> for InformedPolicy<FULL> {
    /// Its state is the search's own.
    fn forkable(&self) -> bool {
        true
    }

    type Frame = InsFrame;
    type Call = InsCall;
    type Ret = InsRet;
    type Yield = Infallible;

    #[inline]
    fn leaf(&mut self, _: &Call<T::Node, InsCall>, value: Value) -> InsRet {
        InsRet { value, info: None }
    }

    fn open(
        &mut self,
        _: &T,
        call: &mut Call<T::Node, InsCall>,
        moves: &T::Moves,
    ) -> Enter<InsFrame, InsCall, InsRet, Infallible> {
        let mut plan = call.state.info.take().map(|info| plan(info, moves.len()));
        let (index, info) = match &mut plan {
            Some(p) => (p[0].index, p[0].info.take()),
            None => (0, None),
        };
        // The first successor is never re-searched: only a frame that saves its own
        // information wants the first successor's.
        let collect = call.state.collect;
        let frame = InsFrame {
            plan,
            index,
            stage: Stage::First,
            collect,
            epoch: self.epoch,
            merits: Vec::new(),
            infos: Vec::new(),
            kept: None,
        };
        let first = InsCall { info, collect };
        Enter::Expand(frame, Child::new(index, -call.beta, -call.alpha, first))
    }

    fn returned(
        &mut self,
        f: &mut Frame<T, InsFrame>,
        r: InsRet,
    ) -> Flow<InsCall, InsRet, Infallible> {
        let v = -r.value;
        let child_info = r.info;
        let s = &mut f.state;
        match s.stage {
            Stage::First => {
                f.score = v;
                if s.collect {
                    Self::record(s, v, child_info);
                }
            }
            Stage::Zero { null } => {
                if v > null && v < f.beta && f.depth >= 2 {
                    // Re-search with what the minimal-window search acquired.
                    if s.collect && Self::MODE == Mode::Ins {
                        s.kept = child_info.clone();
                    }
                    s.stage = Stage::ReSearch;
                    let call = InsCall {
                        info: child_info,
                        collect: false,
                    };
                    return Flow::Call(Child::new(s.index, -f.beta, -v.max(f.alpha), call));
                }
                f.score = f.score.max(v);
                if s.collect {
                    Self::record(s, v, child_info);
                }
            }
            Stage::ReSearch => {
                f.score = f.score.max(v);
                if s.collect {
                    let kept = s.kept.take();
                    Self::record(s, v, kept);
                }
            }
            Stage::Narrow => f.score = f.score.max(v),
        }
        if f.score >= f.beta {
            let k = f.state.index;
            return Flow::Return(self.finish(f, Some(k)));
        }
        f.i += 1;
        if f.i >= f.width {
            return Flow::Return(self.finish(f, None));
        }
        let lo = f.score.max(f.alpha);
        let (index, bound, info) = match &mut f.state.plan {
            Some(p) => {
                let e = &mut p[f.i];
                (e.index, e.bound, e.info.take())
            }
            None => (f.i, Bound::Unseen, None),
        };
        let (alpha, beta) = match bound {
            // Ignore-left, and prove-best cut-offs.
            Bound::Inferior => return Flow::Return(self.finish(f, None)),
            Bound::Upper(m) if lo >= m => {
                f.score = f.score.max(m);
                return Flow::Return(self.finish(f, None));
            }
            Bound::Upper(m) => {
                f.state.stage = Stage::Narrow;
                (-m, -lo)
            }
            Bound::Unseen => {
                f.state.stage = Stage::Zero { null: lo };
                (-lo - 1, -lo)
            }
        };
        f.state.index = index;
        // A minimal-window search may be re-searched; a narrow-window one is not.
        let collect = bound == Bound::Unseen;
        Flow::Call(Child::new(index, alpha, beta, InsCall { info, collect }))
    }

    #[inline]
    fn narrowed(&mut self) {
        self.epoch += 1;
    }
}

impl<T: GameTree, const FULL: bool> SequentialPolicy<T> for InformedPolicy<FULL> {}

impl RootValue for InsRet {
    fn root_value(&self) -> Value {
        self.value
    }
}

/// INFORMED NEGASCOUT (Reinefeld, Schaeffer & Marsland, Fig. 3; `ins`) run step by step: a
/// re-search uses everything the initial minimal-window search of the same subtree learnt
/// (see the module doc). Fail-soft.
///
/// ```
/// use algorithms::{ins_recursive, negamax, GameTree, Ins, Ordering, SequentialSearch,
///                  SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 5, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut ins = Ins::new(&tree, tree.root(), -INF, INF, 5);
/// let (v, work) = run_alone(&mut ins, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 5));
/// let mut leaves = 0;
pub type Ins<'t, T> = DepthFirst<'t, T, InformedPolicy<true>>;

/// PARTIALLY INFORMED NEGASCOUT (Reinefeld, Schaeffer & Marsland, section 2.3; `pns`) run
/// step by step: a re-search uses only the upper bounds the initial minimal-window search
/// found for the re-searched node's successors (see the module doc). Fail-soft.
///
/// ```
/// use algorithms::{negamax, pns_recursive, GameTree, Ordering, Pns, SequentialSearch,
///                  SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 5, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut pns = Pns::new(&tree, tree.root(), -INF, INF, 5);
/// let (v, work) = run_alone(&mut pns, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 5));
/// let mut leaves = 0;
pub type Pns<'t, T> = DepthFirst<'t, T, InformedPolicy<false>>;

// ---------------------------------------------------------------------------------------------
// The recursive references: Fig. 3 with SaveInfo/GetInfo on a hash table keyed by node.

/// What `SaveInfo` keeps for a node: its kind and merits, or the cut-off's successor.
enum Saved {
    ProveBest(Vec<Value>),
    IgnoreLeft(usize),
}

struct Reference<'a, T> {
    tree: &'a T,
    mode: Mode,
    table: HashMap<u64, Saved>,
    leaves: u64,
}

impl<'a, T: GameTree> Reference<'a, T> {
    /// The search of `node` by `mode`'s reference, adding its leaves to `leaves`.
    fn run(
        tree: &'a T,
        mode: Mode,
        node: &T::Node,
        (alpha, beta): (Value, Value),
        depth: u32,
        leaves: &mut u64,
    ) -> Value {
        let mut r = Reference {
            tree,
            mode,
            table: HashMap::new(),
            leaves: 0,
        };
        let v = r.search(node, alpha, beta, depth, false);
        *leaves += r.leaves;
        v
    }

    /// `INS(p, α, β, depth, research)` of Fig. 3 (with the points of the module doc).
    fn search(
        &mut self,
        node: &T::Node,
        alpha: Value,
        beta: Value,
        depth: u32,
        research: bool,
    ) -> Value {
        let tree = self.tree;
        let Some(moves) = expand(tree, node, depth) else {
            self.leaves += 1;
            return tree.evaluate(node).value;
        };
        let w = moves.len();
        // GetInfo and Sort.
        let (order, bounds): (Vec<usize>, Vec<Bound>) = if research {
            match self.table.get(&tree.key(node)).expect("information saved") {
                Saved::ProveBest(merit) => {
                    let mut order: Vec<usize> = (0..w).collect();
                    order.sort_by_key(|&i| Reverse(merit[i]));
                    let bounds = order.iter().map(|&i| Bound::Upper(merit[i])).collect();
                    (order, bounds)
                }
                &Saved::IgnoreLeft(k) => {
                    let order: Vec<usize> = (k..w).chain(0..k).collect();
                    let bounds = (0..w)
                        .map(|j| {
                            if j < w - k {
                                Bound::Unseen
                            } else {
                                Bound::Inferior
                            }
                        })
                        .collect();
                    (order, bounds)
                }
            }
        } else {
            ((0..w).collect(), vec![Bound::Unseen; w])
        };
        // Whether a successor searched with information (research) is given it: INS passes
        // it down to every successor the initial search saw; PNS to none.
        let mode = self.mode;
        let informed = |b: Bound, first: bool| -> bool {
            mode == Mode::Ins
                && research
                && match b {
                    Bound::Upper(_) => true,
                    Bound::Unseen => first,
                    Bound::Inferior => false,
                }
        };
        let mut merit = vec![0; w];
        let mut a = -INF;
        let mut cut = None;
        for j in 0..w {
            let i = order[j];
            let c = tree.play(node, moves.get(i));
            let lo = a.max(alpha);
            let (v, narrow) = if j == 0 {
                let inf = informed(bounds[0], true);
                (-self.search(&c, -beta, -alpha, depth - 1, inf), false)
            } else {
                match bounds[j] {
                    Bound::Inferior => break,
                    Bound::Upper(m) if lo >= m => {
                        a = a.max(m);
                        break;
                    }
                    Bound::Upper(m) => {
                        let inf = informed(bounds[j], false);
                        (-self.search(&c, -m, -lo, depth - 1, inf), true)
                    }
                    Bound::Unseen => (-self.search(&c, -lo - 1, -lo, depth - 1, false), false),
                }
            };
            let mut value = v;
            if v > a {
                if j == 0 || v <= alpha || v >= beta || depth < 2 || narrow {
                    a = v;
                } else {
                    // Re-search with what the minimal-window search just saved.
                    value = -self.search(&c, -beta, -v, depth - 1, true);
                    a = value;
                }
            }
            merit[i] = value;
            if a >= beta {
                cut = Some(i);
                break;
            }
        }
        if !research {
            let key = tree.key(node);
            match (cut, self.mode) {
                (Some(k), Mode::Ins) => {
                    self.table.insert(key, Saved::IgnoreLeft(k));
                }
                (Some(_), Mode::Pns) => {
                    self.table.remove(&key);
                }
                (None, _) => {
                    self.table.insert(key, Saved::ProveBest(merit));
                }
            }
        }
        a
    }
}

/// Plain recursive INS (Fig. 3, `SaveInfo`/`GetInfo` on a hash table keyed by
/// [`GameTree::key`]): the reference for [`Ins`]. Returns the value and adds the leaves
/// evaluated (re-searches included) to `leaves`.
pub fn ins_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    Reference::run(tree, Mode::Ins, node, (alpha, beta), depth, leaves)
}

/// Plain recursive PNS (Fig. 3 with information for the re-searched node only): the reference
/// for [`Pns`]. Returns the value and adds the leaves evaluated to `leaves`.
pub fn pns_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    Reference::run(tree, Mode::Pns, node, (alpha, beta), depth, leaves)
}
