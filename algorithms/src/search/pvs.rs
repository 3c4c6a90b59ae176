//! Principal variation search (paper Fig. 1) as a resumable machine with an explicit stack.
//!
//! The machine executes one step at a time (generate the moves of an interior node, charged `k`
//! by the processor; evaluate a leaf, charged `e`) and can stop between any two steps, so a
//! processor can run it "until local time T" and a window change or an abort can take effect at
//! the right simulated time ([`SequentialSearch`]). No Rust recursion: the stack is data, and
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
//! **Window changes while it runs** ([`SequentialSearch::raise_alpha`] and
//! [`SequentialSearch::lower_beta`], Campbell's UPDATE) need two more rules, which change nothing
//! when the window stays put. A zero-window search of a successor tests whether it beats the
//! alpha of the moment it started, `null`; if alpha is raised while it runs, its window
//! `(null, null + 1)` narrowed by the new alpha is empty, and a value between `null` and the new
//! alpha that it returns is no bound of anything. So every successor whose zero-window value lies
//! above `null` and below beta is re-searched, with the window `(max(value, alpha), beta)` (with
//! a fixed window, `alpha = null` and this is Fig. 1's `(value, beta)`). And the score keeps the
//! best value across a re-search too (`score := max(score, value)`): with a fixed window the
//! re-search value is never below the score, with a raised alpha it can fail low below it.

use crate::search::sequential::{Narrow, SequentialSearch, ABORTED};
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_hw::{run_alone, CostModel, Search, Step, Work};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Waiting for the first successor (full window).
    First,
    /// Waiting for a zero-window search of successor `i`.
    Zero,
    /// Waiting for the re-search of successor `i` after a fail-high.
    ReSearch,
}

/// An open call: an interior node whose successors are being searched.
struct Frame<T: GameTree> {
    node: T::Node,
    /// The node's moves, generated once when the frame opened.
    moves: T::Moves,
    width: usize,
    /// The window; `alpha` also rises with the best score, as Fig. 1's does.
    alpha: Value,
    beta: Value,
    depth: u32,
    /// The successor being searched.
    i: usize,
    score: Value,
    stage: Stage,
    /// The alpha of the zero window `(null, null + 1)` the successor was given (stage `Zero`).
    null: Value,
}

/// A call waiting to be entered: pvs(node, alpha, beta, depth).
struct Call<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
}

/// One `pvs(p, alpha, beta, depth)` call of Fig. 1, run step by step: a [`SequentialSearch`]
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
pub struct Pvs<'t, T: GameTree> {
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

impl<'t, T: GameTree> Pvs<'t, T> {
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

impl<'t, T: GameTree> SequentialSearch<'t, T> for Pvs<'t, T> {
    fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        Pvs {
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

impl<T: GameTree> Search for Pvs<'_, T> {
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
                            stage: Stage::First,
                            null: call.alpha,
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
            let v = -r;
            match f.stage {
                Stage::First => f.score = v,
                Stage::Zero => {
                    if v > f.null && v < f.beta {
                        // Fail-high inside the window: re-search with (value, beta). Unless
                        // the window was raised while the zero-window search ran, `f.alpha` is
                        // still `f.null` and `v > f.alpha`; if it was raised to `v` or above,
                        // `v` is no bound at all (see the module doc) and the re-search takes
                        // the window (alpha, beta).
                        f.stage = Stage::ReSearch;
                        self.call = Some(Call {
                            node: tree.play(&f.node, f.moves.get(f.i)),
                            alpha: -f.beta,
                            beta: -v.max(f.alpha),
                            depth: f.depth - 1,
                        });
                        continue;
                    }
                    // Fail-high at or above beta, or fail-low: keep the best bound (fail-soft;
                    // see the module doc for why a fail-low must raise the score too).
                    f.score = f.score.max(v);
                }
                // Without window changes the re-search value is above the score already; with
                // them it can fall below it (a fail-low against a raised alpha).
                Stage::ReSearch => f.score = f.score.max(v),
            }
            f.i += 1;
            if f.i >= f.width || f.score >= f.beta {
                let score = f.score;
                self.stack.pop();
                self.ret = Some(score);
                continue;
            }
            f.alpha = f.alpha.max(f.score);
            f.stage = Stage::Zero;
            f.null = f.alpha;
            self.call = Some(Call {
                node: tree.play(&f.node, f.moves.get(f.i)),
                alpha: -f.alpha - 1,
                beta: -f.alpha,
                depth: f.depth - 1,
            });
        }
    }
}

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
    let moves = if depth == 0 {
        None
    } else {
        Some(tree.moves(node))
    };
    let Some(moves) = moves.filter(|m| !m.is_empty()) else {
        *leaves += 1;
        return tree.evaluate(node).value;
    };
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
