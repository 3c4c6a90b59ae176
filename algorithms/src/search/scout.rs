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
//! [`sim_hw::Step::Leaf`], a leaf evaluated again in a re-search or in a TEST after an evaluation is
//! counted again; every interior node whose moves are generated is one [`sim_hw::Step::Interior`], again
//! at each visit (each search, test or re-search generates the moves of the nodes it enters).
//!
//! **Windows.** Campbell's palphabeta and SCOUT take no window (they always find the exact
//! value). gtsim's versions take one, `(α, β)`, so that they can run under the common
//! [`crate::SequentialSearch`] contract, and reduce to the thesis's figures exactly when the window is
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

use crate::search::alphabeta::alphabeta_returned;
use crate::search::depth_first::{
    Call, Child, DepthFirst, Enter, Flow, Frame, Policy, RootValue, SequentialPolicy,
};
use crate::search::expand;
use crate::search::pvs::{pvs_returned, PvsNext, PvsPolicy, PvsStage};
use crate::trees::{GameTree, MoveList, Value, INF};
use std::convert::Infallible;

// ---------------------------------------------------------------------------------------------
// Palphabeta (Campbell Fig. 7)

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
pub type Palphabeta<'t, T> = DepthFirst<'t, T, PalphabetaPolicy>;

/// A palphabeta frame is a palphabeta call, at a stage of PVS's (the first successor by
/// palphabeta, the others by minimal-window alpha-beta tests, re-searched by alpha-beta), or a
/// plain alpha-beta call (the minimal-window tests, the re-searches and everything below them).
/// What goes down with a call is the role of the frame it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PabRole {
    /// A palphabeta call.
    Pab(PvsStage),
    /// An alpha-beta call.
    Ab,
}

impl Default for PabRole {
    /// The root call is palphabeta's.
    fn default() -> Self {
        PabRole::Pab(PvsStage::First)
    }
}

impl PabRole {
    /// A palphabeta frame's stage.
    fn stage(&mut self) -> &mut PvsStage {
        match self {
            PabRole::Pab(stage) => stage,
            PabRole::Ab => unreachable!("a palphabeta frame"),
        }
    }
}

/// Palphabeta's decisions at a node (Fig. 7).
#[derive(Clone, Copy, Debug, Default)]
pub struct PalphabetaPolicy;

impl<T: GameTree> Policy<T> for PalphabetaPolicy {
    /// Its state is the search's own.
    fn forkable(&self) -> bool {
        true
    }

    type Frame = PabRole;
    type Call = PabRole;
    type Ret = Value;
    type Yield = Infallible;

    #[inline]
    fn leaf(&mut self, _: &Call<T::Node, PabRole>, value: Value) -> Value {
        value
    }

    #[inline]
    fn open(
        &mut self,
        _: &T,
        call: &mut Call<T::Node, PabRole>,
        _: &T::Moves,
    ) -> Enter<PabRole, PabRole, Value, Infallible> {
        Enter::Expand(call.state, Child::first(call, call.state))
    }

    #[inline]
    fn returned(
        &mut self,
        f: &mut Frame<T, PabRole>,
        r: Value,
    ) -> Flow<PabRole, Value, Infallible> {
        if f.state == PabRole::Ab {
            return match alphabeta_returned(f, r) {
                Some((alpha, beta)) => Flow::Call(Child::new(f.i, alpha, beta, PabRole::Ab)),
                None => Flow::Return(f.score),
            };
        }
        // Fig. 7: `if (t > m) m = -alphabeta(p.i, -INFINITY, -t)`; the minimal-window tests
        // and the re-searches are alpha-beta calls.
        let back_up = |f: &mut Frame<T, PabRole>, v: Value| f.score = f.score.max(v);
        match pvs_returned(f, PabRole::stage, 1, -r, back_up) {
            PvsNext::ReSearch(alpha, beta) | PvsNext::Next(alpha, beta) => {
                Flow::Call(Child::new(f.i, alpha, beta, PabRole::Ab))
            }
            PvsNext::Close => Flow::Return(f.score),
        }
    }
}

impl<T: GameTree> SequentialPolicy<T> for PalphabetaPolicy {}

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

/// Where a SCOUT (EVAL) frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoutStage {
    /// Waiting for the first successor's value.
    First,
    /// Waiting for the test of the successor against the threshold `t` (parent's view).
    Test {
        /// The threshold.
        t: Value,
    },
    /// Waiting for the SCOUT re-search of the successor, whose test succeeded.
    ReSearch,
}

/// What a SCOUT call asks (and its frame does): a value for its window (EVAL), or a test
/// (TEST). A TEST call or frame carries a window too, which it does not use: a running test
/// keeps its threshold (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoutAsk<S> {
    /// EVAL, at a stage (`()` for a call).
    Eval(S),
    /// TEST(node, v, >) when `strict`, TEST(node, v, ≥) otherwise: is the node's value (side to
    /// move) above `v` (at least `v`)?
    Test {
        /// The threshold.
        v: Value,
        /// `>` rather than `≥`.
        strict: bool,
    },
}

/// The test TEST(p, v) asks of p's successors c: TEST(c, -v) with the other comparison.
#[inline]
fn successor_test(v: Value, strict: bool) -> ScoutAsk<()> {
    ScoutAsk::Test {
        v: -v,
        strict: !strict,
    }
}

/// What came back from a SCOUT call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoutRet {
    /// EVAL's value.
    Value(Value),
    /// TEST's answer.
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
pub type Scout<'t, T> = DepthFirst<'t, T, ScoutPolicy>;

/// SCOUT's decisions at a node (Figs. 8 and 9).
#[derive(Clone, Copy, Debug, Default)]
pub struct ScoutPolicy;

impl<T: GameTree> Policy<T> for ScoutPolicy {
    /// Its state is the search's own.
    fn forkable(&self) -> bool {
        true
    }

    type Frame = ScoutAsk<ScoutStage>;
    type Call = ScoutAsk<()>;
    type Ret = ScoutRet;
    type Yield = Infallible;

    #[inline]
    fn leaf(&mut self, call: &Call<T::Node, ScoutAsk<()>>, e: Value) -> ScoutRet {
        match call.state {
            ScoutAsk::Eval(()) => ScoutRet::Value(e),
            ScoutAsk::Test { v, strict: true } => ScoutRet::Test(e > v),
            ScoutAsk::Test { v, strict: false } => ScoutRet::Test(e >= v),
        }
    }

    #[inline]
    fn open(
        &mut self,
        _: &T,
        call: &mut Call<T::Node, ScoutAsk<()>>,
        _: &T::Moves,
    ) -> Enter<ScoutAsk<ScoutStage>, ScoutAsk<()>, ScoutRet, Infallible> {
        let (frame, ask) = match call.state {
            ScoutAsk::Eval(()) => (ScoutAsk::Eval(ScoutStage::First), ScoutAsk::Eval(())),
            ScoutAsk::Test { v, strict } => {
                (ScoutAsk::Test { v, strict }, successor_test(v, strict))
            }
        };
        Enter::Expand(frame, Child::first(call, ask))
    }

    #[inline]
    fn returned(
        &mut self,
        f: &mut Frame<T, ScoutAsk<ScoutStage>>,
        r: ScoutRet,
    ) -> Flow<ScoutAsk<()>, ScoutRet, Infallible> {
        let window = (-f.beta, -f.alpha);
        let stage = match (f.state, r) {
            (ScoutAsk::Test { v, strict }, ScoutRet::Test(child)) => {
                // TEST(p, v): true as soon as a successor's test fails (Fig. 9).
                if !child {
                    return Flow::Return(ScoutRet::Test(true));
                }
                f.i += 1;
                if f.i >= f.width {
                    return Flow::Return(ScoutRet::Test(false));
                }
                let ask = successor_test(v, strict);
                return Flow::Call(Child::new(f.i, window.0, window.1, ask));
            }
            (ScoutAsk::Eval(stage), _) => stage,
            (ask, r) => unreachable!("{ask:?} got {r:?}"),
        };
        match (stage, r) {
            (ScoutStage::First, ScoutRet::Value(x)) => f.score = -x,
            (ScoutStage::Test { t }, ScoutRet::Test(at_least)) => {
                // The test asked `value(c) >= -t`; false means c beats t.
                if !at_least {
                    f.state = ScoutAsk::Eval(ScoutStage::ReSearch);
                    let eval = ScoutAsk::Eval(());
                    return Flow::Call(Child::new(f.i, window.0, window.1, eval));
                }
                f.score = f.score.max(t);
            }
            (ScoutStage::ReSearch, ScoutRet::Value(x)) => f.score = f.score.max(-x),
            (s, r) => unreachable!("stage {s:?} got {r:?}"),
        }
        if !f.advance() {
            return Flow::Return(ScoutRet::Value(f.score));
        }
        let t = f.score.max(f.alpha);
        f.state = ScoutAsk::Eval(ScoutStage::Test { t });
        let test = ScoutAsk::Test {
            v: -t,
            strict: false,
        };
        Flow::Call(Child::new(f.i, window.0, window.1, test))
    }
}

impl<T: GameTree> SequentialPolicy<T> for ScoutPolicy {}

impl Default for ScoutAsk<()> {
    /// The root is evaluated.
    fn default() -> Self {
        ScoutAsk::Eval(())
    }
}

impl RootValue for ScoutRet {
    fn root_value(&self) -> Value {
        match *self {
            ScoutRet::Value(v) => v,
            ScoutRet::Test(_) => unreachable!("the root is evaluated, not tested"),
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
///
/// NegaScout is PVS ([`crate::Pvs`]) without re-searches at nodes with fewer than 2 plies left
/// (Fig. 3: no re-search if `v <= max(a, α)`, `v >= β`, or `depth < 2`).
pub type NegaScout<'t, T> = DepthFirst<'t, T, PvsPolicy<2>>;

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
