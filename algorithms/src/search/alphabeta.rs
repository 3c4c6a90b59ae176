//! Fail-soft alpha-beta as a resumable machine with an explicit stack: the sequential search
//! that Campbell's terminal processors run (thesis, Fig. 10, `alphabeta(p, α, β)`), and the
//! plain recursive version it must agree with.
//!
//! Fail-soft: the score of a node is the best value among the successors it searched, even when
//! it lies outside the window, so a value `v` for the window `(α, β)` is the true value if
//! `α < v < β`, an upper bound if `v <= α`, a lower bound if `v >= β`. Each successor is
//! searched with the window `(-β, -max(α, score))`; the node stops (a cutoff) as soon as its
//! score reaches `β`.

use crate::search::sequential::{Narrow, SequentialSearch, ABORTED};
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_hw::{Search, Step};

/// An open call: an interior node whose successors are being searched.
struct Frame<T: GameTree> {
    node: T::Node,
    /// The node's moves, generated once when the frame opened.
    moves: T::Moves,
    width: usize,
    /// The window; `alpha` also rises with the best score.
    alpha: Value,
    beta: Value,
    depth: u32,
    /// The successor being searched.
    i: usize,
    score: Value,
}

/// A call waiting to be entered: alphabeta(node, alpha, beta, depth).
struct Call<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
}

/// One fail-soft `alphabeta(p, alpha, beta, depth)` call, run step by step: a
/// [`SequentialSearch`] (window changes, abort) and a [`sim_hw::Search`] that a processor
/// advances. Counts as [`crate::Pvs`] does: one [`Step::Interior`] per interior node, one
/// [`Step::Leaf`] per horizon or terminal node.
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
pub struct AlphaBeta<'t, T: GameTree> {
    tree: &'t T,
    stack: Vec<Frame<T>>,
    /// The call to enter at the next step.
    call: Option<Call<T::Node>>,
    /// A value returned by the last call, to back up at the next step (the result, once the
    /// stack is empty).
    ret: Option<Value>,
    /// The root's window as given and narrowed since.
    window: (Value, Value),
    aborted: bool,
}

impl<T: GameTree> AlphaBeta<'_, T> {
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

impl<'t, T: GameTree> SequentialSearch<'t, T> for AlphaBeta<'t, T> {
    fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        AlphaBeta {
            tree,
            stack: Vec::new(),
            call: Some(Call {
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

impl<T: GameTree> Search for AlphaBeta<'_, T> {
    type Out = Value;

    fn step(&mut self) -> Step<Value> {
        if self.aborted {
            self.stack.clear();
            self.call = None;
            return Step::Done(ABORTED);
        }
        let tree = self.tree;
        loop {
            // 1. Enter a pending call: one costed step.
            if let Some(call) = self.call.take() {
                if call.depth > 0 {
                    let moves = tree.moves(&call.node);
                    let width = moves.len();
                    if width > 0 {
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
                        return Step::Interior;
                    }
                }
                // The horizon, or a terminal node.
                let eval = tree.evaluate(&call.node);
                self.ret = Some(eval.value);
                return Step::Leaf {
                    quiescence: eval.quiescence,
                };
            }
            // 2. A value came back from a call.
            let r = self.ret.expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                return Step::Done(r);
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
    let moves = if depth == 0 {
        None
    } else {
        Some(tree.moves(node))
    };
    let Some(moves) = moves.filter(|m| !m.is_empty()) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
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
