//! The minimal-window searches Campbell's thesis (section 2.1, Figs. 7–9) and Reinefeld,
//! Schaeffer & Marsland (section 2, Fig. 3 without its re-search information) compare with
//! alpha-beta, as resumable machines with an explicit stack, each with the plain recursive
//! version it must agree with (same value, same leaves):
//!
//! - [`Palphabeta`] (`pab`): Campbell's Fig. 7. The first successor is searched by palphabeta,
//!   every other one by a minimal-window alpha-beta against the best score `m`; when that test
//!   fails high (`t > m`), the successor is searched again by **plain alpha-beta** with the
//!   window `(t, ∞)`.
//! - [`Scout`] (`scout`): Pearl's SCOUT as Campbell reformulates it in negamax form (Fig. 8),
//!   with Pearl's boolean TEST (Fig. 9) as the test: the first successor is evaluated by SCOUT,
//!   every other one is tested (`TEST(p.i, v, >)`: is it better than the best so far?), and a
//!   successor whose test succeeds is evaluated again by a **full SCOUT** of its own, which
//!   uses nothing the test learnt (Campbell: "the bound that is returned by TEST … is not used
//!   to further reduce search").
//! - [`NegaScout`] (`negascout`): Reinefeld's NegaScout (Fig. 3 of the Reinefeld paper with
//!   `research` always false, i.e. without `GetInfo`/`SaveInfo`): minimal windows after the
//!   first successor, a re-search with `(v, β)` of a successor that fails high inside the window,
//!   no re-search when the node's remaining depth is below 2 (its successors are leaves, whose
//!   minimal-window value is exact).
//!
//! **Counting.** As the papers count NBP ("bottom positions"): every leaf evaluation is one
//! [`Step::Leaf`], a leaf evaluated again in a re-search or in a TEST after an evaluation is
//! counted again; every interior node whose moves are generated is one [`Step::Interior`], again
//! at each visit (each search, test or re-search generates the moves of the nodes it enters).
//!
//! **Windows.** Campbell's palphabeta and SCOUT take no window (they always find the exact
//! value). gtsim's versions take one, `(α, β)`, so that they can run under the common
//! [`SequentialSearch`] contract, and reduce to the thesis's figures exactly when the window is
//! `(−∞, ∞)`: the first successor gets `(α, β)` (negated), a test or minimal window is taken
//! against `max(m, α)` instead of `m`, a node stops as soon as its score reaches `β`. All three
//! are **fail-soft** as the trait says; SCOUT's boolean tests return no value, so a successor
//! whose test fails against `t = max(m, α)` contributes the bound `t` (SCOUT's result on a
//! fail-low can therefore be `α` itself rather than a lower upper bound).
//!
//! **Window changes while a search runs** (Campbell's UPDATE) narrow every open frame with a
//! window, as [`crate::Pvs`] does (and with Pvs's two rules for minimal-window searches whose
//! window was narrowed while they ran; see its module doc). SCOUT's TEST frames have no window:
//! a running test keeps its threshold (its answer stays true information), and the frame that
//! started it compares the answer with its own narrowed window when it comes back.
//!
//! **Palphabeta is not [`crate::Pvs`].** Pvs is Marsland & Popowich's Fig. 1: its re-search is a
//! recursive PVS with the window `(v, β)`, where Campbell's palphabeta re-searches with plain
//! alpha-beta (and takes no window). On 2-ply trees they differ only inside the re-search of a
//! 1-ply subtree, where Pvs evaluates again each leaf that fails high on its minimal window and
//! alpha-beta does not; deeper, the re-searched subtrees are searched differently altogether.
//! [`Palphabeta`] is Campbell's, Pvs stays as pmws uses it.
//! NegaScout differs from Pvs only by not re-searching when the remaining depth is below 2.

use crate::search::sequential::{Narrow, SequentialSearch, ABORTED};
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_hw::{Search, Step};

/// The [`SequentialSearch`] methods shared by the machines of this module: each type has `start`
/// (the constructor), `narrow`, `window` and `aborted`.
macro_rules! sequential_impl {
    ($ty:ident) => {
        impl<'t, T: GameTree> SequentialSearch<'t, T> for $ty<'t, T> {
            fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
                $ty::start(tree, node, alpha, beta, depth)
            }
            fn raise_alpha(&mut self, a: Value) {
                self.narrow(Narrow::RaiseAlpha(a));
            }
            fn lower_beta(&mut self, b: Value) {
                self.narrow(Narrow::LowerBeta(b));
            }
            fn abort(&mut self) {
                self.aborted = true;
            }
            fn window(&self) -> (Value, Value) {
                self.window
            }
            fn is_aborted(&self) -> bool {
                self.aborted
            }
        }
    };
}

/// The moves of `node` if the search expands it (`depth > 0` and not terminal).
#[inline]
pub(crate) fn expand<T: GameTree>(tree: &T, node: &T::Node, depth: u32) -> Option<T::Moves> {
    if depth == 0 {
        return None;
    }
    let moves = tree.moves(node);
    (!moves.is_empty()).then_some(moves)
}

// ---------------------------------------------------------------------------------------------
// Palphabeta (Campbell Fig. 7)

/// Where a palphabeta frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PabStage {
    /// Waiting for the first successor (palphabeta, full window).
    First,
    /// Waiting for the minimal-window alpha-beta of successor `i` against `null`.
    Zero { null: Value },
    /// Waiting for the alpha-beta re-search of successor `i`.
    ReSearch,
}

/// A frame is a palphabeta call or a plain alpha-beta call (the minimal-window tests, the
/// re-searches and everything below them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PabRole {
    Pab(PabStage),
    Ab,
}

struct PabFrame<T: GameTree> {
    node: T::Node,
    moves: T::Moves,
    width: usize,
    /// The window; an alpha-beta frame's alpha also rises with its score.
    alpha: Value,
    beta: Value,
    depth: u32,
    i: usize,
    score: Value,
    role: PabRole,
}

/// A call waiting to be entered: palphabeta (`pab`) or alpha-beta.
struct PabCall<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
    pab: bool,
}

/// Campbell's palphabeta (thesis Fig. 7; `pab` in his tables) run step by step, with a window
/// (see the module doc). Fail-soft.
///
/// ```
/// use algorithms::{negamax, palphabeta_recursive, GameTree, Ordering, Palphabeta,
///                  SequentialSearch, SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 4, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut pab = Palphabeta::new(&tree, tree.root(), -INF, INF, 4);
/// let (v, work) = run_alone(&mut pab, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 4));
/// let mut leaves = 0;
/// assert_eq!(palphabeta_recursive(&tree, &tree.root(), -INF, INF, 4, &mut leaves), v);
/// assert_eq!(leaves, work.nodes.leaves);
/// ```
pub struct Palphabeta<'t, T: GameTree> {
    tree: &'t T,
    stack: Vec<PabFrame<T>>,
    call: Option<PabCall<T::Node>>,
    ret: Option<Value>,
    window: (Value, Value),
    aborted: bool,
}

impl<'t, T: GameTree> Palphabeta<'t, T> {
    fn start(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        Palphabeta {
            tree,
            stack: Vec::new(),
            call: Some(PabCall {
                node,
                alpha,
                beta,
                depth,
                pab: true,
            }),
            ret: None,
            window: (alpha, beta),
            aborted: false,
        }
    }

    fn narrow(&mut self, change: Narrow) {
        change.apply(0, &mut self.window.0, &mut self.window.1);
        for (ply, f) in self.stack.iter_mut().enumerate() {
            change.apply(ply, &mut f.alpha, &mut f.beta);
        }
        if let Some(c) = &mut self.call {
            change.apply(self.stack.len(), &mut c.alpha, &mut c.beta);
        }
    }
}

sequential_impl!(Palphabeta);

impl<T: GameTree> Search for Palphabeta<'_, T> {
    type Out = Value;

    fn step(&mut self) -> Step<Value> {
        if self.aborted {
            self.stack.clear();
            self.call = None;
            return Step::Done(ABORTED);
        }
        let tree = self.tree;
        loop {
            if let Some(call) = self.call.take() {
                if let Some(moves) = expand(tree, &call.node, call.depth) {
                    self.call = Some(PabCall {
                        node: tree.play(&call.node, moves.get(0)),
                        alpha: -call.beta,
                        beta: -call.alpha,
                        depth: call.depth - 1,
                        pab: call.pab,
                    });
                    self.stack.push(PabFrame {
                        node: call.node,
                        width: moves.len(),
                        moves,
                        alpha: call.alpha,
                        beta: call.beta,
                        depth: call.depth,
                        i: 0,
                        score: -INF,
                        role: if call.pab {
                            PabRole::Pab(PabStage::First)
                        } else {
                            PabRole::Ab
                        },
                    });
                    return Step::Interior;
                }
                let eval = tree.evaluate(&call.node);
                self.ret = Some(eval.value);
                return Step::Leaf {
                    quiescence: eval.quiescence,
                };
            }
            let r = self.ret.expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                return Step::Done(r);
            };
            self.ret = None;
            let v = -r;
            match f.role {
                PabRole::Ab => f.score = f.score.max(v),
                PabRole::Pab(PabStage::First) => f.score = v,
                PabRole::Pab(PabStage::Zero { null }) => {
                    if v > null && v < f.beta {
                        // Fig. 7: `if (t > m) m = -alphabeta(p.i, -INFINITY, -t)`.
                        f.role = PabRole::Pab(PabStage::ReSearch);
                        self.call = Some(PabCall {
                            node: tree.play(&f.node, f.moves.get(f.i)),
                            alpha: -f.beta,
                            beta: -v.max(f.alpha),
                            depth: f.depth - 1,
                            pab: false,
                        });
                        continue;
                    }
                    f.score = f.score.max(v);
                }
                PabRole::Pab(PabStage::ReSearch) => f.score = f.score.max(v),
            }
            f.i += 1;
            if f.i >= f.width || f.score >= f.beta {
                let score = f.score;
                self.stack.pop();
                self.ret = Some(score);
                continue;
            }
            let node = tree.play(&f.node, f.moves.get(f.i));
            self.call = Some(match f.role {
                PabRole::Ab => {
                    f.alpha = f.alpha.max(f.score);
                    PabCall {
                        node,
                        alpha: -f.beta,
                        beta: -f.alpha,
                        depth: f.depth - 1,
                        pab: false,
                    }
                }
                PabRole::Pab(_) => {
                    let null = f.score.max(f.alpha);
                    f.role = PabRole::Pab(PabStage::Zero { null });
                    PabCall {
                        node,
                        alpha: -null - 1,
                        beta: -null,
                        depth: f.depth - 1,
                        pab: false,
                    }
                }
            });
        }
    }
}

/// Plain recursive fail-soft alpha-beta (the same as [`crate::alphabeta_recursive`], kept here
/// so that this module's references stand alone).
fn ab_rec<T: GameTree>(
    tree: &T,
    node: &T::Node,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let Some(moves) = expand(tree, node, depth) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
    let mut score = -INF;
    for i in 0..moves.len() {
        let c = tree.play(node, moves.get(i));
        score = score.max(-ab_rec(tree, &c, -beta, -alpha, depth - 1, leaves));
        if score >= beta {
            break;
        }
        alpha = alpha.max(score);
    }
    score
}

/// Plain recursive palphabeta (Campbell Fig. 7, with a window as in the module doc): the
/// reference for [`Palphabeta`]. Returns the value and adds the leaves evaluated to `leaves`.
pub fn palphabeta_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let Some(moves) = expand(tree, node, depth) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
    let first = tree.play(node, moves.get(0));
    let mut m = -palphabeta_recursive(tree, &first, -beta, -alpha, depth - 1, leaves);
    for i in 1..moves.len() {
        if m >= beta {
            break;
        }
        let bound = m.max(alpha);
        let c = tree.play(node, moves.get(i));
        let t = -ab_rec(tree, &c, -bound - 1, -bound, depth - 1, leaves);
        if t > bound && t < beta {
            m = -ab_rec(tree, &c, -beta, -t, depth - 1, leaves);
        } else {
            m = m.max(t);
        }
    }
    m
}

// ---------------------------------------------------------------------------------------------
// SCOUT (Pearl; Campbell Figs. 8 and 9)

/// Where a SCOUT (EVAL) frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScoutStage {
    /// Waiting for the first successor's value.
    First,
    /// Waiting for the test of successor `i` against the threshold `t` (parent's view).
    Test { t: Value },
    /// Waiting for the SCOUT re-search of successor `i`, whose test succeeded.
    ReSearch,
}

/// A SCOUT frame evaluates a node (EVAL, with a window) or tests it (TEST, a threshold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScoutRole {
    Eval {
        alpha: Value,
        beta: Value,
        score: Value,
        stage: ScoutStage,
    },
    /// TEST(node, v, >) when `strict`, TEST(node, v, ≥) otherwise: is the node's value (side to
    /// move) above `v` (at least `v`)?
    Test { v: Value, strict: bool },
}

struct ScoutFrame<T: GameTree> {
    node: T::Node,
    moves: T::Moves,
    width: usize,
    depth: u32,
    i: usize,
    role: ScoutRole,
}

/// What a call asks: a value for a window, or a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScoutAsk {
    Eval { alpha: Value, beta: Value },
    Test { v: Value, strict: bool },
}

struct ScoutCall<N> {
    node: N,
    depth: u32,
    ask: ScoutAsk,
}

/// What came back from a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScoutRet {
    Value(Value),
    Test(bool),
}

/// Pearl's SCOUT with boolean TEST (Campbell Figs. 8 and 9 in negamax form; `sc` in his tables),
/// run step by step, with a window (see the module doc). Fail-soft.
///
/// Pearl's TEST carries its comparison (`>` or `≥`); in negamax form it alternates from ply to
/// ply: `value(p) > v` holds iff some successor `c` has `value(c) < −v`, i.e. not
/// `value(c) ≥ −v`. Campbell's Fig. 9 as printed tests `>` at every ply, which makes TEST of a
/// node one ply above the leaves answer `value ≥ v` instead (see [`scout_recursive`]).
///
/// ```
/// use algorithms::{negamax, scout_recursive, GameTree, Ordering, Scout, SequentialSearch,
///                  SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 4, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut sc = Scout::new(&tree, tree.root(), -INF, INF, 4);
/// let (v, work) = run_alone(&mut sc, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 4));
/// let mut leaves = 0;
/// assert_eq!(scout_recursive(&tree, &tree.root(), -INF, INF, 4, &mut leaves), v);
/// assert_eq!(leaves, work.nodes.leaves);
/// ```
pub struct Scout<'t, T: GameTree> {
    tree: &'t T,
    stack: Vec<ScoutFrame<T>>,
    call: Option<ScoutCall<T::Node>>,
    ret: Option<ScoutRet>,
    window: (Value, Value),
    aborted: bool,
}

impl<'t, T: GameTree> Scout<'t, T> {
    fn start(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        Scout {
            tree,
            stack: Vec::new(),
            call: Some(ScoutCall {
                node,
                depth,
                ask: ScoutAsk::Eval { alpha, beta },
            }),
            ret: None,
            window: (alpha, beta),
            aborted: false,
        }
    }

    fn narrow(&mut self, change: Narrow) {
        change.apply(0, &mut self.window.0, &mut self.window.1);
        for (ply, f) in self.stack.iter_mut().enumerate() {
            if let ScoutRole::Eval { alpha, beta, .. } = &mut f.role {
                change.apply(ply, alpha, beta);
            }
        }
        if let Some(ScoutCall {
            ask: ScoutAsk::Eval { alpha, beta },
            ..
        }) = &mut self.call
        {
            change.apply(self.stack.len(), alpha, beta);
        }
    }
}

sequential_impl!(Scout);

impl<T: GameTree> Search for Scout<'_, T> {
    type Out = Value;

    fn step(&mut self) -> Step<Value> {
        if self.aborted {
            self.stack.clear();
            self.call = None;
            return Step::Done(ABORTED);
        }
        let tree = self.tree;
        loop {
            if let Some(call) = self.call.take() {
                if let Some(moves) = expand(tree, &call.node, call.depth) {
                    let first = tree.play(&call.node, moves.get(0));
                    let (ask, role) = match call.ask {
                        ScoutAsk::Eval { alpha, beta } => (
                            ScoutAsk::Eval {
                                alpha: -beta,
                                beta: -alpha,
                            },
                            ScoutRole::Eval {
                                alpha,
                                beta,
                                score: -INF,
                                stage: ScoutStage::First,
                            },
                        ),
                        ScoutAsk::Test { v, strict } => (
                            ScoutAsk::Test {
                                v: -v,
                                strict: !strict,
                            },
                            ScoutRole::Test { v, strict },
                        ),
                    };
                    self.call = Some(ScoutCall {
                        node: first,
                        depth: call.depth - 1,
                        ask,
                    });
                    self.stack.push(ScoutFrame {
                        node: call.node,
                        width: moves.len(),
                        moves,
                        depth: call.depth,
                        i: 0,
                        role,
                    });
                    return Step::Interior;
                }
                let eval = tree.evaluate(&call.node);
                let e = eval.value;
                self.ret = Some(match call.ask {
                    ScoutAsk::Eval { .. } => ScoutRet::Value(e),
                    ScoutAsk::Test { v, strict: true } => ScoutRet::Test(e > v),
                    ScoutAsk::Test { v, strict: false } => ScoutRet::Test(e >= v),
                });
                return Step::Leaf {
                    quiescence: eval.quiescence,
                };
            }
            let r = self
                .ret
                .take()
                .expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                let ScoutRet::Value(v) = r else {
                    unreachable!("the root is evaluated, not tested")
                };
                self.ret = Some(r);
                return Step::Done(v);
            };
            match (&mut f.role, r) {
                (ScoutRole::Test { v, strict }, ScoutRet::Test(child)) => {
                    // TEST(p, v): true as soon as a successor's test fails (Fig. 9).
                    if !child {
                        self.stack.pop();
                        self.ret = Some(ScoutRet::Test(true));
                        continue;
                    }
                    f.i += 1;
                    if f.i >= f.width {
                        self.stack.pop();
                        self.ret = Some(ScoutRet::Test(false));
                        continue;
                    }
                    self.call = Some(ScoutCall {
                        node: tree.play(&f.node, f.moves.get(f.i)),
                        depth: f.depth - 1,
                        ask: ScoutAsk::Test {
                            v: -*v,
                            strict: !*strict,
                        },
                    });
                }
                (
                    ScoutRole::Eval {
                        alpha,
                        beta,
                        score,
                        stage,
                    },
                    r,
                ) => {
                    match (*stage, r) {
                        (ScoutStage::First, ScoutRet::Value(x)) => *score = -x,
                        (ScoutStage::Test { t }, ScoutRet::Test(at_least)) => {
                            // The test asked `value(c) >= -t`; false means c beats t.
                            if !at_least {
                                *stage = ScoutStage::ReSearch;
                                self.call = Some(ScoutCall {
                                    node: tree.play(&f.node, f.moves.get(f.i)),
                                    depth: f.depth - 1,
                                    ask: ScoutAsk::Eval {
                                        alpha: -*beta,
                                        beta: -*alpha,
                                    },
                                });
                                continue;
                            }
                            *score = (*score).max(t);
                        }
                        (ScoutStage::ReSearch, ScoutRet::Value(x)) => *score = (*score).max(-x),
                        (s, r) => unreachable!("stage {s:?} got {r:?}"),
                    }
                    f.i += 1;
                    if f.i >= f.width || *score >= *beta {
                        let s = *score;
                        self.stack.pop();
                        self.ret = Some(ScoutRet::Value(s));
                        continue;
                    }
                    let t = (*score).max(*alpha);
                    *stage = ScoutStage::Test { t };
                    self.call = Some(ScoutCall {
                        node: tree.play(&f.node, f.moves.get(f.i)),
                        depth: f.depth - 1,
                        ask: ScoutAsk::Test {
                            v: -t,
                            strict: false,
                        },
                    });
                }
                (role, r) => unreachable!("{role:?} got {r:?}"),
            }
        }
    }
}

/// Pearl's TEST in negamax form: whether `value(node) > v` (`strict`) or `value(node) >= v`,
/// recursively, adding the leaves it evaluates to `leaves`.
fn test_rec<T: GameTree>(
    tree: &T,
    node: &T::Node,
    v: Value,
    strict: bool,
    depth: u32,
    leaves: &mut u64,
) -> bool {
    let Some(moves) = expand(tree, node, depth) else {
        *leaves += 1;
        let e = tree.evaluate(node).value;
        return if strict { e > v } else { e >= v };
    };
    (0..moves.len()).any(|i| {
        let c = tree.play(node, moves.get(i));
        !test_rec(tree, &c, -v, !strict, depth - 1, leaves)
    })
}

/// Plain recursive SCOUT (Campbell Fig. 8 with Pearl's TEST, Fig. 9, and a window as in the
/// module doc): the reference for [`Scout`]. Returns the value and adds the leaves evaluated
/// (tests and re-searches included) to `leaves`.
pub fn scout_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let Some(moves) = expand(tree, node, depth) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
    let first = tree.play(node, moves.get(0));
    let mut m = -scout_recursive(tree, &first, -beta, -alpha, depth - 1, leaves);
    for i in 1..moves.len() {
        if m >= beta {
            break;
        }
        let t = m.max(alpha);
        let c = tree.play(node, moves.get(i));
        // Does c beat t, -value(c) > t? That is: not value(c) >= -t.
        if !test_rec(tree, &c, -t, false, depth - 1, leaves) {
            m = m.max(-scout_recursive(tree, &c, -beta, -alpha, depth - 1, leaves));
        } else {
            m = m.max(t);
        }
    }
    m
}

// ---------------------------------------------------------------------------------------------
// NegaScout (Reinefeld; Fig. 3 of the Reinefeld paper without re-search information)

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NsStage {
    First,
    Zero,
    ReSearch,
}

struct NsFrame<T: GameTree> {
    node: T::Node,
    moves: T::Moves,
    width: usize,
    /// The window; `alpha` also rises with the score (`max(a, α)` of Fig. 3).
    alpha: Value,
    beta: Value,
    depth: u32,
    i: usize,
    score: Value,
    stage: NsStage,
    /// The lower edge of the minimal window successor `i` was given (stage `Zero`).
    null: Value,
}

struct NsCall<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
}

/// Reinefeld's NegaScout (`ns` in the Reinefeld paper, section 2; Fig. 3 with `research`
/// false) run step by step. Fail-soft.
///
/// ```
/// use algorithms::{negamax, negascout_recursive, GameTree, NegaScout, Ordering,
///                  SequentialSearch, SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 4, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut ns = NegaScout::new(&tree, tree.root(), -INF, INF, 4);
/// let (v, work) = run_alone(&mut ns, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 4));
/// let mut leaves = 0;
/// assert_eq!(negascout_recursive(&tree, &tree.root(), -INF, INF, 4, &mut leaves), v);
/// assert_eq!(leaves, work.nodes.leaves);
/// ```
pub struct NegaScout<'t, T: GameTree> {
    tree: &'t T,
    stack: Vec<NsFrame<T>>,
    call: Option<NsCall<T::Node>>,
    ret: Option<Value>,
    window: (Value, Value),
    aborted: bool,
}

impl<'t, T: GameTree> NegaScout<'t, T> {
    fn start(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        NegaScout {
            tree,
            stack: Vec::new(),
            call: Some(NsCall {
                node,
                alpha,
                beta,
                depth,
            }),
            ret: None,
            window: (alpha, beta),
            aborted: false,
        }
    }

    fn narrow(&mut self, change: Narrow) {
        change.apply(0, &mut self.window.0, &mut self.window.1);
        for (ply, f) in self.stack.iter_mut().enumerate() {
            change.apply(ply, &mut f.alpha, &mut f.beta);
        }
        if let Some(c) = &mut self.call {
            change.apply(self.stack.len(), &mut c.alpha, &mut c.beta);
        }
    }
}

sequential_impl!(NegaScout);

impl<T: GameTree> Search for NegaScout<'_, T> {
    type Out = Value;

    fn step(&mut self) -> Step<Value> {
        if self.aborted {
            self.stack.clear();
            self.call = None;
            return Step::Done(ABORTED);
        }
        let tree = self.tree;
        loop {
            if let Some(call) = self.call.take() {
                if let Some(moves) = expand(tree, &call.node, call.depth) {
                    self.call = Some(NsCall {
                        node: tree.play(&call.node, moves.get(0)),
                        alpha: -call.beta,
                        beta: -call.alpha,
                        depth: call.depth - 1,
                    });
                    self.stack.push(NsFrame {
                        node: call.node,
                        width: moves.len(),
                        moves,
                        alpha: call.alpha,
                        beta: call.beta,
                        depth: call.depth,
                        i: 0,
                        score: -INF,
                        stage: NsStage::First,
                        null: call.alpha,
                    });
                    return Step::Interior;
                }
                let eval = tree.evaluate(&call.node);
                self.ret = Some(eval.value);
                return Step::Leaf {
                    quiescence: eval.quiescence,
                };
            }
            let r = self.ret.expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                return Step::Done(r);
            };
            self.ret = None;
            let v = -r;
            match f.stage {
                NsStage::First => f.score = v,
                NsStage::Zero => {
                    // Fig. 3: no re-search if v <= max(a, α), v >= β, or depth < 2.
                    if v > f.null && v < f.beta && f.depth >= 2 {
                        f.stage = NsStage::ReSearch;
                        self.call = Some(NsCall {
                            node: tree.play(&f.node, f.moves.get(f.i)),
                            alpha: -f.beta,
                            beta: -v.max(f.alpha),
                            depth: f.depth - 1,
                        });
                        continue;
                    }
                    f.score = f.score.max(v);
                }
                NsStage::ReSearch => f.score = f.score.max(v),
            }
            f.i += 1;
            if f.i >= f.width || f.score >= f.beta {
                let score = f.score;
                self.stack.pop();
                self.ret = Some(score);
                continue;
            }
            f.alpha = f.alpha.max(f.score);
            f.stage = NsStage::Zero;
            f.null = f.alpha;
            self.call = Some(NsCall {
                node: tree.play(&f.node, f.moves.get(f.i)),
                alpha: -f.alpha - 1,
                beta: -f.alpha,
                depth: f.depth - 1,
            });
        }
    }
}

/// Plain recursive NegaScout, Fig. 3 of the Reinefeld paper with `research` false, as printed
/// (`a = −∞`, `b = β`; `v > a` then either `a = v` or the re-search `a = −NS(p.i, −β, −v)`;
/// `b = max(a, α) + 1`): the reference for [`NegaScout`]. Returns the value and adds the
/// leaves evaluated to `leaves`.
pub fn negascout_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let Some(moves) = expand(tree, node, depth) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
    let mut a = -INF;
    let mut b = beta;
    for i in 0..moves.len() {
        let c = tree.play(node, moves.get(i));
        let v = -negascout_recursive(tree, &c, -b, -a.max(alpha), depth - 1, leaves);
        if v > a {
            if i == 0 || v <= alpha || v >= beta || depth < 2 {
                a = v;
            } else {
                a = -negascout_recursive(tree, &c, -beta, -v, depth - 1, leaves);
            }
        }
        if a >= beta {
            return a;
        }
        b = a.max(alpha) + 1;
    }
    a
}
