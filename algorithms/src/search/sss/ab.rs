//! Fail-soft alpha-beta whose horizon nodes are valued by the caller: the alpha-beta stage of
//! Campbell's hybrids (thesis section 2.1). Node for node the same search as
//! [`crate::AlphaBeta`] (which it equals when every horizon node is evaluated statically; a test
//! checks it), except that at depth 0 it hands the node and its window to the caller instead of
//! evaluating it.

use super::open::CoreStep;
use crate::search::sequential::Narrow;
use crate::trees::{GameTree, MoveList, Value, INF};

/// An open call: an interior node whose successors are being searched.
struct Frame<T: GameTree> {
    node: T::Node,
    moves: T::Moves,
    width: usize,
    alpha: Value,
    beta: Value,
    depth: u32,
    i: usize,
    score: Value,
}

/// A call waiting to be entered.
struct Call<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
}

/// Alpha-beta with an explicit stack and caller-valued horizon nodes.
pub(crate) struct AbStage<'t, T: GameTree> {
    tree: &'t T,
    stack: Vec<Frame<T>>,
    call: Option<Call<T::Node>>,
    ret: Option<Value>,
    /// The window of the horizon call being valued by the caller.
    pending: Option<(Value, Value)>,
}

impl<'t, T: GameTree> AbStage<'t, T> {
    /// `alphabeta(node, alpha, beta, depth)`, not yet started.
    pub(crate) fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        AbStage {
            tree,
            stack: Vec::new(),
            call: Some(Call {
                node,
                alpha,
                beta,
                depth,
            }),
            ret: None,
            pending: None,
        }
    }

    /// Narrows every open window (Campbell's UPDATE, as [`crate::AlphaBeta`] does), the pending
    /// horizon call's too.
    pub(crate) fn narrow(&mut self, change: Narrow) {
        for (ply, f) in self.stack.iter_mut().enumerate() {
            change.apply(ply, &mut f.alpha, &mut f.beta);
        }
        let ply = self.stack.len();
        if let Some(c) = &mut self.call {
            change.apply(ply, &mut c.alpha, &mut c.beta);
        }
        if let Some((a, b)) = &mut self.pending {
            change.apply(ply, a, b);
        }
    }

    /// The window of the horizon node being valued, in its negamax view.
    pub(crate) fn pending_window(&self) -> Option<(Value, Value)> {
        self.pending
    }

    /// The fail-soft value of the pending horizon node.
    pub(crate) fn resolve(&mut self, v: Value) {
        self.pending.take().expect("a pending horizon node");
        self.ret = Some(v);
    }

    /// Runs to the next interior node, terminal leaf or horizon node, or to the end.
    pub(crate) fn advance(&mut self) -> CoreStep<T::Node> {
        debug_assert!(self.pending.is_none(), "a horizon value is still awaited");
        let tree = self.tree;
        loop {
            if let Some(call) = self.call.take() {
                if call.depth == 0 {
                    self.pending = Some((call.alpha, call.beta));
                    return CoreStep::Horizon {
                        node: call.node,
                        alpha: call.alpha,
                        beta: call.beta,
                    };
                }
                let moves = tree.moves(&call.node);
                let width = moves.len();
                if width == 0 {
                    let eval = tree.evaluate(&call.node);
                    self.ret = Some(eval.value);
                    return CoreStep::Leaf {
                        quiescence: eval.quiescence,
                    };
                }
                let first = tree.play(&call.node, moves.get(0));
                self.call = Some(Call {
                    node: first,
                    alpha: -call.beta,
                    beta: -call.alpha,
                    depth: call.depth - 1,
                });
                self.stack.push(Frame {
                    node: call.node,
                    moves,
                    width,
                    alpha: call.alpha,
                    beta: call.beta,
                    depth: call.depth,
                    i: 0,
                    score: -INF,
                });
                return CoreStep::Interior;
            }
            let r = self.ret.expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                return CoreStep::Done(r);
            };
            self.ret = None;
            f.score = f.score.max(-r);
            f.alpha = f.alpha.max(f.score);
            f.i += 1;
            if f.i >= f.width || f.score >= f.beta {
                let score = f.score;
                self.stack.pop();
                self.ret = Some(score);
                continue;
            }
            self.call = Some(Call {
                node: tree.play(&f.node, f.moves.get(f.i)),
                alpha: -f.beta,
                beta: -f.alpha,
                depth: f.depth - 1,
            });
        }
    }
}
