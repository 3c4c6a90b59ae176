//! Principal variation search (paper Fig. 1) as a resumable machine with an explicit stack.
//!
//! The machine executes one step at a time (generate the moves of an interior node, charged `k`
//! by the processor; evaluate a leaf, charged `e`) and can stop between any two steps, so a
//! processor can run it "until local time T" and a window change or an abort can take effect at
//! the right simulated time ([`crate::SequentialSearch`]). No Rust recursion: the stack is data, and
//! each frame keeps the moves of its node, generated once.
//!
//! **One deliberate difference from Fig. 1 as printed.** Fig. 1 updates `score` only when a
//! zero-window search fails high (`value > alpha`); a fail-low value above the current score is
//! dropped. The function then returns a "fail-soft" bound that can be *below* the true value, and
//! Fig. 1 itself uses such a returned value as the lower edge of its re-search window
//! (`-pvs(posn[i], -beta, -value)`), which can then exclude the true value. A 2×2 tree shows it:
//! the root's second move, searched with a zero window, returns a bound of 3 whose true value is
//! 1, and the re-search with window (3, ∞) returns 3 instead of 1. gtsim keeps the best bound on a
//! fail-low too (`score := max(score, value)`), the usual fail-soft form; the node counts on trees
//! where the difference does not matter (perfectly ordered trees, all of eq. (1)) are unchanged.
//!
//! **Window changes while it runs** ([`crate::SequentialSearch::raise_alpha`] and
//! [`crate::SequentialSearch::lower_beta`], Campbell's UPDATE) need two more rules, which change nothing
//! when the window stays put. A zero-window search of a successor tests whether it beats the
//! alpha of the moment it started, `null`; if alpha is raised while it runs, its window
//! `(null, null + 1)` narrowed by the new alpha is empty, and a value between `null` and the new
//! alpha that it returns is no bound of anything. So every successor whose zero-window value lies
//! above `null` and below beta is re-searched, with the window `(max(value, alpha), beta)` (with
//! a fixed window, `alpha = null` and this is Fig. 1's `(value, beta)`). And the score keeps the
//! best value across a re-search too (`score := max(score, value)`): with a fixed window the
//! re-search value is never below the score, with a raised alpha it can fail low below it.

use crate::search::depth_first::{
    Call, Child, DepthFirst, Enter, Flow, Frame, Policy, SequentialPolicy,
};
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_hw::{run_alone, CostModel, Work};
use std::convert::Infallible;

/// One `pvs(p, alpha, beta, depth)` call of Fig. 1, run step by step: a [`crate::SequentialSearch`]
/// (window changes, abort) and a [`sim_hw::Search`] that a processor advances.
///
/// ```
/// use algorithms::{negamax, GameTree, Ordering, Pvs, SequentialSearch, SyntheticSpec,
///                  SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 4, depth: 3, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 1).unwrap();
/// let mut pvs = Pvs::new(&tree, tree.root(), -INF, INF, 3);
/// let (v, work) = run_alone(&mut pvs, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 3));
/// // Campbell's costs: one time unit per leaf.
/// assert_eq!(work.time.as_nanos(), work.nodes.leaves);
/// ```
pub type Pvs<'t, T> = DepthFirst<'t, T, PvsPolicy>;

/// Where a PVS frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PvsStage {
    /// Waiting for the first successor (full window).
    First,
    /// Waiting for a zero-window search of the successor against `null`: the alpha of the zero
    /// window `(null, null + 1)` it was given.
    Zero {
        /// See the variant.
        null: Value,
    },
    /// Waiting for the re-search of the successor after a fail-high.
    ReSearch,
}

/// PVS's decisions at a node (Fig. 1 with the rules of the module doc): the first successor
/// with the full window, every other one with a zero window, re-searched with
/// `(max(value, alpha), beta)` when it fails high inside the window and the node has at least
/// `MIN_RESEARCH_DEPTH` plies left. PVS re-searches at every depth (1); NegaScout
/// ([`crate::NegaScout`]) from 2 (its successors one ply above the leaves return exact values).
#[derive(Clone, Copy, Debug, Default)]
pub struct PvsPolicy<const MIN_RESEARCH_DEPTH: u32 = 1>;

/// What PVS does at a frame after a value came back ([`pvs_returned`]), the successor's window
/// in its own view where there is one.
pub(crate) enum PvsNext {
    /// Search the same successor again: it failed high inside the window.
    ReSearch(Value, Value),
    /// Search the next successor (`f.i`) with a zero window.
    Next(Value, Value),
    /// The frame is done (all successors searched, or a cutoff), with its score.
    Close,
}

/// PVS's step at a frame `f` to which the value `v` (the node's view) came back, for every
/// search that follows Fig. 1 (PVS, NegaScout, palphabeta's own frames, Parabelle's PVS with
/// tables): `stage` is where `f` keeps its [`PvsStage`], `back_up` records a value that is not
/// re-searched (it must raise the score to at least `v`; a search can keep more, e.g. the best
/// line). A zero-window value inside the window is re-searched with `(max(v, alpha), beta)` if
/// the node has at least `min_research_depth` plies left.
#[inline]
pub(crate) fn pvs_returned<T: GameTree, S>(
    f: &mut Frame<T, S>,
    stage: impl Fn(&mut S) -> &mut PvsStage,
    min_research_depth: u32,
    v: Value,
    back_up: impl FnOnce(&mut Frame<T, S>, Value),
) -> PvsNext {
    if let PvsStage::Zero { null } = *stage(&mut f.state) {
        if v > null && v < f.beta && f.depth >= min_research_depth {
            // Fail-high inside the window: re-search with (value, beta). Unless the window was
            // raised while the zero-window search ran, `f.alpha` is still `null` and
            // `v > f.alpha`; if it was raised to `v` or above, `v` is no bound at all (see the
            // module doc) and the re-search takes the window (alpha, beta).
            *stage(&mut f.state) = PvsStage::ReSearch;
            return PvsNext::ReSearch(-f.beta, -v.max(f.alpha));
        }
    }
    // The first successor's value, a fail-high at or above beta, a fail-low (keep the best
    // bound: fail-soft; see the module doc for why a fail-low must raise the score too), or a
    // re-search's value (without window changes above the score already; with them it can
    // fall below it: a fail-low against a raised alpha).
    back_up(f, v);
    if !f.advance() {
        return PvsNext::Close;
    }
    f.alpha = f.alpha.max(f.score);
    *stage(&mut f.state) = PvsStage::Zero { null: f.alpha };
    PvsNext::Next(-f.alpha - 1, -f.alpha)
}

impl<T: GameTree, const D: u32> Policy<T> for PvsPolicy<D> {
    /// Its state is the search's own.
    fn forkable(&self) -> bool {
        true
    }

    /// PVS (re-searching at every depth): [`pvs_tally`].
    fn run_to_end(
        &mut self,
        tree: &T,
        node: &T::Node,
        (alpha, beta): (Value, Value),
        depth: u32,
        tally: &mut sim_hw::Tally,
    ) -> Option<Value> {
        (D == 1).then(|| pvs_tally(tree, node, alpha, beta, depth, tally))
    }

    type Frame = PvsStage;
    type Call = ();
    type Ret = Value;
    type Yield = Infallible;

    #[inline]
    fn leaf(&mut self, _: &Call<T::Node, ()>, value: Value) -> Value {
        value
    }

    #[inline]
    fn open(
        &mut self,
        _: &T,
        call: &mut Call<T::Node, ()>,
        _: &T::Moves,
    ) -> Enter<PvsStage, (), Value, Infallible> {
        Enter::Expand(PvsStage::First, Child::first(call, ()))
    }

    #[inline]
    fn returned(&mut self, f: &mut Frame<T, PvsStage>, r: Value) -> Flow<(), Value, Infallible> {
        let back_up = |f: &mut Frame<T, PvsStage>, v: Value| f.score = f.score.max(v);
        match pvs_returned(f, |s| s, D, -r, back_up) {
            PvsNext::ReSearch(alpha, beta) | PvsNext::Next(alpha, beta) => {
                Flow::Call(Child::new(f.i, alpha, beta, ()))
            }
            PvsNext::Close => Flow::Return(f.score),
        }
    }
}

impl<T: GameTree, const D: u32> SequentialPolicy<T> for PvsPolicy<D> {}

/// Plain recursive PVS (Fig. 1, with the fail-low difference of the module doc) outside any
/// simulator: the reference for [`Pvs`] (same value, same leaves) and the speed reference for
/// benchmarks. Returns the value and adds the number of leaves evaluated to `leaves`.
pub fn pvs_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let Some(moves) = crate::search::expand(tree, node, depth) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
    if depth == 1 {
        let (value, n, _) = pvs_frontier(tree, node, &moves, alpha, beta);
        *leaves += n;
        return value;
    }
    let mut score = -pvs_recursive(
        tree,
        &tree.play(node, moves.get(0)),
        -beta,
        -alpha,
        depth - 1,
        leaves,
    );
    for i in 1..moves.len() {
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
        let c = tree.play(node, moves.get(i));
        let value = -pvs_recursive(tree, &c, -alpha - 1, -alpha, depth - 1, leaves);
        if value > alpha && value < beta {
            score = -pvs_recursive(tree, &c, -beta, -value, depth - 1, leaves);
        } else {
            score = score.max(value);
        }
    }
    score
}

/// [`pvs_recursive`] at a node one ply above the horizon, whose successors are all leaves:
/// the same value without a call per leaf, and the leaves and quiescence nodes evaluated. A
/// successor's search with any window is its evaluation, so a re-search after a fail-high
/// evaluates it again (counted again, as the recursive search and the steps count it) and
/// returns the same value. The counts are kept in locals and returned: [`pvs_tally`]'s own
/// frontier loop, which added to its tally leaf by leaf, made it run a tenth slower than
/// [`pvs_recursive`] (BENCHMARKS.md).
#[inline]
fn pvs_frontier<T: GameTree>(
    tree: &T,
    node: &T::Node,
    moves: &T::Moves,
    mut alpha: Value,
    beta: Value,
) -> (Value, u64, u64) {
    let first = tree.evaluate(&tree.play(node, moves.get(0)));
    let (mut leaves, mut quiescence) = (1, u64::from(first.quiescence));
    let mut score = -first.value;
    for i in 1..moves.len() {
        if score >= beta {
            break;
        }
        alpha = alpha.max(score);
        let eval = tree.evaluate(&tree.play(node, moves.get(i)));
        let value = -eval.value;
        leaves += 1;
        quiescence += u64::from(eval.quiescence);
        if value > alpha && value < beta {
            leaves += 1;
            quiescence += u64::from(eval.quiescence);
            score = value;
        } else {
            score = score.max(value);
        }
    }
    (score, leaves, quiescence)
}

/// [`pvs_recursive`] counting every step [`Pvs`] takes: an interior node for each node it
/// expands, a leaf (and its quiescence nodes) for each node it evaluates. With a window that
/// does not change, [`Pvs`] takes exactly these steps in this order and returns the same value
/// (the machine runs a fresh search this way when it may: [`sim_hw::Search::run_to_end`]).
pub fn pvs_tally<T: GameTree>(
    tree: &T,
    node: &T::Node,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    tally: &mut sim_hw::Tally,
) -> Value {
    let moves = match crate::search::tally_node(tree, node, depth, tally) {
        Ok(moves) => moves,
        Err(value) => return value,
    };
    if depth == 1 {
        let (value, leaves, quiescence) = pvs_frontier(tree, node, &moves, alpha, beta);
        tally.leaves += leaves;
        tally.quiescence += quiescence;
        return value;
    }
    let mut score = -pvs_tally(
        tree,
        &tree.play(node, moves.get(0)),
        -beta,
        -alpha,
        depth - 1,
        tally,
    );
    for i in 1..moves.len() {
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
        let c = tree.play(node, moves.get(i));
        let value = -pvs_tally(tree, &c, -alpha - 1, -alpha, depth - 1, tally);
        if value > alpha && value < beta {
            score = score.max(-pvs_tally(tree, &c, -beta, -value, depth - 1, tally));
        } else {
            score = score.max(value);
        }
    }
    score
}

/// The child's part of Fig. 4: a zero-window search of `node` (a successor of a PV node whose
/// best score so far is `bound`, from the PV node's view), re-searched with (value, +INF) on a
/// fail-high. Returns the value from the PV node's view, the work (charged with `costs` as
/// [`sim_hw::run_alone`] does), and whether it failed high.
pub fn child_pvs<T: GameTree>(
    tree: &T,
    costs: &CostModel,
    node: &T::Node,
    bound: Value,
    depth: u32,
) -> (Value, Work, bool) {
    let mut zero = Pvs::new(tree, node.clone(), -bound - 1, -bound, depth);
    let (r, mut work) = run_alone(&mut zero, costs);
    let mut value = -r;
    let failed_high = value > bound;
    if failed_high {
        let mut wide = Pvs::new(tree, node.clone(), -INF, -value, depth);
        let (r, w2) = run_alone(&mut wide, costs);
        value = -r;
        work.time += w2.time;
        work.nodes.add(&w2.nodes);
    }
    (value, work, failed_high)
}
