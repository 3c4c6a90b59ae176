//! Fail-soft alpha-beta whose horizon nodes are valued by the caller: the alpha-beta stage of
//! Campbell's hybrids (thesis section 2.1). Node for node the same search as
//! [`crate::AlphaBeta`] (the same engine and policy; a test checks that they agree when every
//! horizon node is evaluated statically), except that at depth 0 it hands the node and its
//! window to the caller instead of evaluating it.

use super::open::CoreStep;
use crate::search::alphabeta::AlphaBetaPolicy;
use crate::search::depth_first::{DepthFirst, Event};
use crate::search::sequential::Narrow;
use crate::trees::{GameTree, Value};

/// Alpha-beta with an explicit stack and caller-valued horizon nodes.
pub(crate) struct AbStage<'t, T: GameTree>(DepthFirst<'t, T, AlphaBetaPolicy<true>>);

impl<'t, T: GameTree> AbStage<'t, T> {
    /// `alphabeta(node, alpha, beta, depth)`, not yet started.
    pub(crate) fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        AbStage(DepthFirst::with_policy(
            tree,
            node,
            (alpha, beta),
            depth,
            AlphaBetaPolicy,
            (),
        ))
    }

    /// Narrows every open window (Campbell's UPDATE, as [`crate::AlphaBeta`] does), the pending
    /// horizon call's too.
    pub(crate) fn narrow(&mut self, change: Narrow) {
        self.0.narrow(change);
    }

    /// The window of the horizon node being valued, in its negamax view.
    pub(crate) fn pending_window(&self) -> Option<(Value, Value)> {
        self.0.awaited_window()
    }

    /// The fail-soft value of the pending horizon node.
    pub(crate) fn resolve(&mut self, v: Value) {
        self.0.resolve(v);
    }

    /// Runs to the next interior node, terminal leaf or horizon node, or to the end.
    pub(crate) fn advance(&mut self) -> CoreStep<T::Node> {
        match self.0.advance() {
            Event::Interior => CoreStep::Interior,
            Event::Leaf(quiescence) => CoreStep::Leaf { quiescence },
            Event::Await { node, alpha, beta } => CoreStep::Horizon { node, alpha, beta },
            Event::Done => CoreStep::Done(*self.0.result().expect("the root's value")),
            Event::Probe => unreachable!("alpha-beta keeps no table"),
            Event::Yield(y) => match y {},
        }
    }
}
