//! One trait for the sequential searches ([`crate::Pvs`], [`crate::AlphaBeta`], later SCOUT,
//! SSS* and others) as resumable machines that a processor advances one costed step at a time,
//! with window changes and aborts as operations on a search in progress.

use crate::trees::{GameTree, Value, INF};
use sim_hw::Search;

/// What a search returns when it was aborted: `-INF`, a value no tree produces (tree values lie
/// strictly between `-INF` and `INF`). It is not a bound of anything; a caller that aborts a
/// search discards its result (or tests [`SequentialSearch::is_aborted`]).
pub const ABORTED: Value = -INF;

/// A sequential search `search(node, alpha, beta, depth)` as a resumable machine.
///
/// **Steps.** [`Search::step`] does the work of one node and says what it was, for the machine to
/// charge: [`sim_hw::Step::Interior`] when it generated the moves of an interior node (cost `k`),
/// [`sim_hw::Step::Leaf`] when it evaluated a node at the horizon (depth 0) or a terminal node
/// (no moves) (cost `e`, plus its quiescence nodes), [`sim_hw::Step::Done`] with the result
/// (free). Bookkeeping between nodes (backing a value up, cutoffs, choosing the next successor)
/// is free and happens at the start of the next step. Once done, every further step returns the
/// same `Done`.
///
/// **Result.** Fail-soft: a value `v` for the window `(alpha, beta)` in force when the search
/// ends means `v` is the true value if `alpha < v < beta`, an upper bound of it if `v <= alpha`,
/// a lower bound if `v >= beta`.
///
/// **Window changes** ([`SequentialSearch::raise_alpha`], [`SequentialSearch::lower_beta`]) are
/// given in the root's view and reach every open frame of the search's stack with alternating
/// sign, as Campbell's UPDATE (thesis, Fig. 11) does: a new lower bound `a` at the root is a new
/// upper bound `-a` one ply below, a new lower bound `a` two plies below, and so on; the call
/// about to be entered is narrowed too. Windows only narrow (a bound that would widen a window is
/// ignored). The change takes effect from the next step: values that come back from then on are
/// compared with the narrowed windows, so cutoffs come sooner. The result is fail-soft for the
/// narrowed root window, as above. A window that becomes empty (`alpha >= beta`) is allowed; the
/// search then ends at its next cutoff and its value only tells which side of the window the true
/// value lies on as far as the definition above allows.
///
/// **Abort** ([`SequentialSearch::abort`]): the next step returns `Done(`[`ABORTED`]`)`, without
/// charging anything, and so does every step after it.
pub trait SequentialSearch<'t, T: GameTree>: Search<Out = Value> {
    /// The search of `node` to `depth` plies with the window `(alpha, beta)`, not yet started.
    fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self
    where
        Self: Sized;
    /// The root's alpha becomes `max(alpha, a)`; see the trait doc.
    fn raise_alpha(&mut self, a: Value);
    /// The root's beta becomes `min(beta, b)`; see the trait doc.
    fn lower_beta(&mut self, b: Value);
    /// Ends the search at the next step (see the trait doc).
    fn abort(&mut self);
    /// The root's current window `(alpha, beta)`, as narrowed so far (for PVS, alpha includes the
    /// best score found so far, which the algorithm itself raises it to).
    fn window(&self) -> (Value, Value);
    /// Whether [`SequentialSearch::abort`] was called.
    fn is_aborted(&self) -> bool;
    /// The largest number of entries the search's OPEN list (SSS*, DUAL*, staged SSS* and
    /// their hybrids) has held so far; 0 for the depth-first searches, which keep none. The
    /// `open_peak` column: storage is the cost the Reinefeld paper holds against SSS*.
    fn open_peak(&self) -> usize {
        0
    }
}

/// A window change in the root's view on its way down a search's stack: Campbell's UPDATE
/// (thesis, Fig. 11). A new lower bound at one ply is a new upper bound, negated, one ply
/// below, and so on with alternating sign.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Narrow {
    /// The root's alpha becomes at least this.
    RaiseAlpha(Value),
    /// The root's beta becomes at most this.
    LowerBeta(Value),
}

impl Narrow {
    /// Applies the change to the window of a frame `ply` plies below the root (the root is 0).
    #[inline]
    pub(crate) fn apply(self, ply: usize, alpha: &mut Value, beta: &mut Value) {
        let even = ply.is_multiple_of(2);
        match self {
            Narrow::RaiseAlpha(a) if even => *alpha = (*alpha).max(a),
            Narrow::RaiseAlpha(a) => *beta = (*beta).min(-a),
            Narrow::LowerBeta(b) if even => *beta = (*beta).min(b),
            Narrow::LowerBeta(b) => *alpha = (*alpha).max(-b),
        }
    }
}
