//! Principal variation search (paper Fig. 1) as a resumable machine with an explicit stack.
//!
//! The machine executes one costed step at a time (generate an interior node: `k`; evaluate a
//! leaf: `e`) and can stop between any two steps, so a processor can run it "until local time T"
//! and a window change or an abort can take effect at the right simulated time. No Rust recursion:
//! the stack is data.
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

use crate::tree::{GameTree, Value, INF};
use sim_core::SimTime;
use sim_hw::{CostModel, Work};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Waiting for the first successor (full window).
    First,
    /// Waiting for a zero-window search of successor `i`.
    Zero,
    /// Waiting for the re-search of successor `i` after a fail-high.
    ReSearch,
}

struct Frame<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
    width: usize,
    i: usize,
    score: Value,
    stage: Stage,
}

/// A call waiting to be entered: pvs(node, alpha, beta, depth).
struct Call<N> {
    node: N,
    alpha: Value,
    beta: Value,
    depth: u32,
}

/// Outcome of [`Pvs::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The search returned this value (fail-soft: a bound when outside the window).
    Done(Value),
    /// The budget ran out before the next step; call `run` again.
    Paused,
}

/// One `pvs(p, alpha, beta, depth)` call of Fig. 1, run step by step.
///
/// ```
/// use algorithms::{negamax, GameTree, Ordering, Pvs, SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::CostModel;
/// let spec = SyntheticSpec { width: 4, depth: 3, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 1).unwrap();
/// let mut pvs = Pvs::new(tree.root(), -INF, INF, 3);
/// let v = pvs.run_to_end(&tree, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 3));
/// // Campbell's costs: one time unit per leaf.
/// assert_eq!(pvs.work().time.as_nanos(), pvs.work().nodes.leaves);
/// ```
pub struct Pvs<N> {
    stack: Vec<Frame<N>>,
    call: Option<Call<N>>,
    ret: Option<Value>,
    work: Work,
}

impl<N: Clone> Pvs<N> {
    pub fn new(node: N, alpha: Value, beta: Value, depth: u32) -> Self {
        Pvs {
            stack: Vec::new(),
            call: Some(Call {
                node,
                alpha,
                beta,
                depth,
            }),
            ret: None,
            work: Work::default(),
        }
    }

    /// Time and nodes spent so far.
    pub fn work(&self) -> Work {
        self.work
    }

    /// Runs to completion and returns the value.
    pub fn run_to_end<T: GameTree<Node = N>>(&mut self, tree: &T, costs: &CostModel) -> Value {
        match self.run(tree, costs, SimTime::MAX) {
            Progress::Done(v) => v,
            Progress::Paused => unreachable!("an unlimited budget cannot pause"),
        }
    }

    /// Executes steps while their costs fit in `budget` (counted from this call); stops before
    /// the first step that would exceed it, or when the search is done.
    pub fn run<T: GameTree<Node = N>>(
        &mut self,
        tree: &T,
        costs: &CostModel,
        budget: SimTime,
    ) -> Progress {
        let mut spent = SimTime::ZERO;
        loop {
            // 1. Enter a pending call: one costed step.
            if let Some(call) = self.call.take() {
                let width = if call.depth == 0 {
                    0
                } else {
                    tree.width(&call.node)
                };
                let cost = if width == 0 { costs.e } else { costs.k };
                if budget.as_nanos() - spent.as_nanos() < cost.as_nanos() {
                    self.call = Some(call);
                    return Progress::Paused;
                }
                spent += cost;
                self.work.time += cost;
                if width == 0 {
                    self.work.nodes.leaves += 1;
                    self.work.nodes.leaf_ns += cost.as_nanos();
                    self.ret = Some(tree.evaluate(&call.node));
                } else {
                    self.work.nodes.interior += 1;
                    let first = tree.child(&call.node, 0);
                    self.call = Some(Call {
                        node: first,
                        alpha: -call.beta,
                        beta: -call.alpha,
                        depth: call.depth - 1,
                    });
                    self.stack.push(Frame {
                        node: call.node,
                        alpha: call.alpha,
                        beta: call.beta,
                        depth: call.depth,
                        width,
                        i: 0,
                        score: -INF,
                        stage: Stage::First,
                    });
                }
                continue;
            }
            // 2. A value came back from a call.
            let r = self
                .ret
                .take()
                .expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                return Progress::Done(r);
            };
            let v = -r;
            match f.stage {
                Stage::First => f.score = v,
                Stage::Zero => {
                    if v > f.alpha && v < f.beta {
                        // Fail-high inside the window: re-search with (value, beta).
                        f.stage = Stage::ReSearch;
                        self.call = Some(Call {
                            node: tree.child(&f.node, f.i),
                            alpha: -f.beta,
                            beta: -v,
                            depth: f.depth - 1,
                        });
                        continue;
                    }
                    // Fail-high at or above beta, or fail-low: keep the best bound (fail-soft;
                    // see the module doc for why a fail-low must raise the score too).
                    f.score = f.score.max(v);
                }
                Stage::ReSearch => f.score = v,
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
            self.call = Some(Call {
                node: tree.child(&f.node, f.i),
                alpha: -f.alpha - 1,
                beta: -f.alpha,
                depth: f.depth - 1,
            });
        }
    }
}

/// Plain recursive PVS (Fig. 1) outside any simulator: the speed reference for benchmarks.
/// Returns the value and the number of leaves evaluated.
pub fn pvs_recursive<T: GameTree>(
    tree: &T,
    node: &T::Node,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let w = if depth == 0 { 0 } else { tree.width(node) };
    if w == 0 {
        *leaves += 1;
        return tree.evaluate(node);
    }
    let mut score = -pvs_recursive(tree, &tree.child(node, 0), -beta, -alpha, depth - 1, leaves);
    for i in 1..w {
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
        let c = tree.child(node, i);
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
/// fail-high. Returns the value from the PV node's view, the work, and whether it failed high.
pub fn child_pvs<T: GameTree>(
    tree: &T,
    costs: &CostModel,
    node: &T::Node,
    bound: Value,
    depth: u32,
) -> (Value, Work, bool) {
    let mut zero = Pvs::new(node.clone(), -bound - 1, -bound, depth);
    let mut value = -zero.run_to_end(tree, costs);
    let mut work = zero.work();
    let failed_high = value > bound;
    if failed_high {
        let mut wide = Pvs::new(node.clone(), -INF, -value, depth);
        value = -wide.run_to_end(tree, costs);
        let w2 = wide.work();
        work.time += w2.time;
        work.nodes.add(&w2.nodes);
    }
    (value, work, failed_high)
}
