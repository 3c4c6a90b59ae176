//! Fail-soft alpha-beta as a resumable machine with an explicit stack: the sequential search
//! that Campbell's terminal processors run (thesis, Fig. 10, `alphabeta(p, α, β)`), and the
//! plain recursive version it must agree with.
//!
//! Fail-soft: the score of a node is the best value among the successors it searched, even when
//! it lies outside the window, so a value `v` for the window `(α, β)` is the true value if
//! `α < v < β`, an upper bound if `v <= α`, a lower bound if `v >= β`. Each successor is
//! searched with the window `(-β, -max(α, score))`; the node stops (a cutoff) as soon as its
//! score reaches `β`.

use crate::search::depth_first::{
    Call, Child, DepthFirst, Enter, Flow, Frame, Policy, SequentialPolicy,
};
use crate::trees::{GameTree, MoveList, Value, INF};
use std::convert::Infallible;

/// One fail-soft `alphabeta(p, alpha, beta, depth)` call, run step by step: a
/// [`crate::SequentialSearch`] (window changes, abort) and a [`sim_hw::Search`] that a processor
/// advances. Counts as [`crate::Pvs`] does: one [`sim_hw::Step::Interior`] per interior node, one
/// [`sim_hw::Step::Leaf`] per horizon or terminal node.
///
/// ```
/// use algorithms::{alphabeta_recursive, negamax, AlphaBeta, GameTree, Ordering,
///                  SequentialSearch, SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 4, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut ab = AlphaBeta::new(&tree, tree.root(), -INF, INF, 4);
/// let (v, work) = run_alone(&mut ab, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 4));
/// let mut leaves = 0;
/// assert_eq!(alphabeta_recursive(&tree, &tree.root(), -INF, INF, 4, &mut leaves), v);
/// assert_eq!(leaves, work.nodes.leaves);
/// ```
pub type AlphaBeta<'t, T> = DepthFirst<'t, T, AlphaBetaPolicy>;

/// Alpha-beta's decisions at a node: every successor gets `(-beta, -max(alpha, score))`, the
/// node closes at the first cutoff. With `CALLER_VALUES_HORIZON`, horizon nodes are handed to
/// the caller instead of evaluated (the alpha-beta stage of the SSS* hybrids).
#[derive(Clone, Copy, Debug, Default)]
pub struct AlphaBetaPolicy<const CALLER_VALUES_HORIZON: bool = false>;

impl<T: GameTree, const H: bool> Policy<T> for AlphaBetaPolicy<H> {
    /// Its state is the search's own.
    fn forkable(&self) -> bool {
        true
    }

    /// Alpha-beta that values its own horizon: [`alphabeta_tally`].
    fn run_to_end(
        &mut self,
        tree: &T,
        node: &T::Node,
        (alpha, beta): (Value, Value),
        depth: u32,
        tally: &mut sim_hw::Tally,
    ) -> Option<Value> {
        (!H).then(|| alphabeta_tally(tree, node, alpha, beta, depth, tally))
    }

    type Frame = ();
    type Call = ();
    type Ret = Value;
    type Yield = Infallible;
    const CALLER_VALUES_HORIZON: bool = H;

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
    ) -> Enter<(), (), Value, Infallible> {
        Enter::Expand((), Child::first(call, ()))
    }

    #[inline]
    fn returned(&mut self, f: &mut Frame<T, ()>, r: Value) -> Flow<(), Value, Infallible> {
        match alphabeta_returned(f, r) {
            Some((alpha, beta)) => Flow::Call(Child::new(f.i, alpha, beta, ())),
            None => Flow::Return(f.score),
        }
    }
}

/// Alpha-beta's step at a frame to which `r` came back: backs it up and says the next
/// successor's window (`None`: the frame is done, with its score).
#[inline]
pub(crate) fn alphabeta_returned<T: GameTree, S>(
    f: &mut Frame<T, S>,
    r: Value,
) -> Option<(Value, Value)> {
    f.score = f.score.max(-r);
    f.alpha = f.alpha.max(f.score);
    f.advance().then_some((-f.beta, -f.alpha))
}

impl<T: GameTree> SequentialPolicy<T> for AlphaBetaPolicy {}

/// Plain recursive fail-soft alpha-beta outside any simulator: the reference for [`AlphaBeta`]
/// (same value, same leaves). Returns the value and adds the number of leaves evaluated to
/// `leaves`.
pub fn alphabeta_recursive<T: GameTree>(
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
        // Every successor is a leaf: its search with any window is its evaluation, so the
        // frontier is searched without a call per leaf (same values, same leaves).
        let mut score = -INF;
        for i in 0..moves.len() {
            *leaves += 1;
            score = score.max(-tree.evaluate(&tree.play(node, moves.get(i))).value);
            if score >= beta {
                break;
            }
        }
        return score;
    }
    let mut score = -INF;
    for i in 0..moves.len() {
        let c = tree.play(node, moves.get(i));
        score = score.max(-alphabeta_recursive(
            tree,
            &c,
            -beta,
            -alpha,
            depth - 1,
            leaves,
        ));
        if score >= beta {
            break;
        }
        alpha = alpha.max(score);
    }
    score
}

/// [`alphabeta_recursive`] counting every step [`AlphaBeta`] takes: an interior node for each
/// node it expands, a leaf (and its quiescence nodes) for each node it evaluates. With a window
/// that does not change, [`AlphaBeta`] takes exactly these steps in this order and returns the
/// same value (the machine runs a search this way when it may: [`sim_hw::Search::run_to_end`]).
pub fn alphabeta_tally<T: GameTree>(
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
        // Every successor is a leaf (as in `alphabeta_recursive`).
        let mut score = -INF;
        for i in 0..moves.len() {
            let c = tree.play(node, moves.get(i));
            score = score.max(-crate::search::tally_leaf(tree, &c, tally).value);
            if score >= beta {
                break;
            }
        }
        return score;
    }
    let mut score = -INF;
    for i in 0..moves.len() {
        let c = tree.play(node, moves.get(i));
        score = score.max(-alphabeta_tally(tree, &c, -beta, -alpha, depth - 1, tally));
        if score >= beta {
            break;
        }
        alpha = alpha.max(score);
    }
    score
}
