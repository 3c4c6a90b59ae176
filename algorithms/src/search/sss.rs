//! The SSS* family as resumable machines: SSS* with Campbell's modification ([`Sss`]), DUAL*
//! ([`Dual`]), staged SSS* ([`StagedSss`]) and Campbell's SSS*/alpha-beta hybrids ([`Sab`],
//! [`Abs`]).
//!
//! **SSS*** is Stockman's state-space search as Campbell's thesis gives it (Appendix 3: the
//! OPEN list of states `(n, s, h)` and the operator G of Table 11), with Campbell's modified
//! cases 4 and 6 (Table 12): among states of equal merit the leftmost is always taken first,
//! which makes SSS* dominate alpha-beta (it never evaluates a leaf that alpha-beta skips; the
//! unmodified version fails on the thesis's Figure 19, a test here reproduces both). The window
//! `(a, b)` given to `new` is the thesis's aspiration SSS* (section 2.1): OPEN starts with
//! `(ROOT, LIVE, b)`, and the search stops as soon as the top state's merit `h` is at or below
//! `a`, returning `h` as an upper bound. (The thesis writes "h < a"; with the open window `(a, b)`
//! its alpha-beta uses, `h = a` is a fail-low too. Stopping there is what lets SSS* dominate
//! alpha-beta with the same window, and ABS dominate AB as section 2.2 states: with "h < a",
//! ABS evaluates leaves alpha-beta skips on Campbell's trees, whose values tie often; a test
//! shows both.)
//!
//! **DUAL*** (Reinefeld, Schaeffer & Marsland, Fig. 4; Marsland 1991 section 3) is SSS* with the
//! actions at MIN and MAX nodes exchanged: it enumerates the opponent's strategies, keeps lower
//! bounds and takes the smallest first, so it searches the root's successors one at a time, left
//! to right, and SSS* below. gtsim runs it as the same OPEN-list machine in the opponent's view.
//! Fig. 4 stacks a MIN node's successors last to first (Campbell's case 6) but says its insert
//! goes "behind all nodes of equal merit", Stockman's rule for ties; gtsim uses Campbell's
//! left-first rule for ties in DUAL* too, without which DUAL* does not dominate alpha-beta (the
//! mirror image of Figure 19 shows it).
//!
//! **Staged SSS*** (thesis sections 2.1 and 2.2, chapter 5): SSS* to a fixed stage depth (2 in
//! the thesis), whose horizon nodes are valued by a staged SSS* of the next stage, and so on.
//! A stage's SSS* needs a horizon node's value only up to the merit `h` of its state (case 4
//! inserts `min(h, value)`), so the next stage is an aspiration SSS* with upper bound `h` and no
//! lower bound ("staged SSS* suffers from the fact that no lower bound is available").
//!
//! **Hybrids** (section 2.1; Tables 4–7): [`Sab`] runs SSS* on the top `k` plies and alpha-beta
//! below, each horizon node of the SSS* stage searched by alpha-beta with the window `(-∞, h)` in
//! the SSS* stage's MAX view ("when alpha-beta is called from SSS*, alpha must be initialized to
//! -INFINITY"); [`Abs`] runs alpha-beta on the top `k` plies and, at each of its horizon nodes,
//! an aspiration SSS* with the alpha-beta window of that node ("the nodes at the maximum search
//! depth for alpha-beta will have a window which can be utilized by SSS*"). The thesis's SAB and
//! ABS at 4 ply, and SA2, SA4, AS2, AS4 at 6 ply, are `k` = 2, 2, 2, 4, 2, 4.
//!
//! **Counting.** One [`sim_hw::Step::Interior`] per node whose moves are generated (an SSS*
//! stage expands a node in cases 5 and 6 of G; an alpha-beta stage enters it), one
//! [`sim_hw::Step::Leaf`] per node evaluated statically (at the tree's horizon or terminal).
//! A node at a stage boundary is expanded once, by the stage below. Everything else (moving
//! states on OPEN, purging, backing up) is free. [`SequentialSearch::open_peak`] is the largest
//! number of states held at once by all stages together, the state whose value is being
//! computed included (so staged SSS* of two 2-ply stages on width 24 holds up to 2 × 24 = 48, the
//! thesis's figure, and SSS* at most w^⌈d/2⌉).
//!
//! **Window changes.** [`SequentialSearch::lower_beta`] caps every merit on OPEN at the new beta
//! (the state the search would be in had it started with that upper bound, up to the order of
//! equal merits, which is restored), so the search can end sooner with a fail-high;
//! [`SequentialSearch::raise_alpha`] lowers the point where it stops with a fail-low. In DUAL*
//! the two exchange roles. A stage in progress below the top gets the narrowed window of its
//! node (an SSS* stage's merit capped, an alpha-beta stage's windows narrowed as
//! [`crate::AlphaBeta`] narrows them). The result is fail-soft for the narrowed root window.
//! A window that becomes empty is allowed: the search then ends at a fail-low only below beta,
//! otherwise it runs on until the root is solved (with a value `min(v, beta)`).

mod ab;
pub(crate) mod open;
mod pipeline;

use crate::search::sequential::{Narrow, SequentialSearch};
use crate::trees::{GameTree, Value};
use pipeline::{Kind, Pipeline, Stage};
use sim_hw::{Search, Step};

/// The stage depth of [`StagedSss`] when none is given: 2, as in the thesis.
pub const DEFAULT_STAGE_DEPTH: u32 = 2;

/// Implements [`Search`] and [`SequentialSearch`] for a wrapper around a [`Pipeline`] built by
/// `$stages(depth)`.
macro_rules! staged_search {
    ($name:ident, $stages:expr) => {
        impl<'t, T: GameTree> SequentialSearch<'t, T> for $name<'t, T> {
            fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
                let stages: Vec<Stage> = $stages(depth);
                $name(Pipeline::new(tree, node, alpha, beta, &stages))
            }
            fn raise_alpha(&mut self, a: Value) {
                self.0.narrow(Narrow::RaiseAlpha(a));
            }
            fn lower_beta(&mut self, b: Value) {
                self.0.narrow(Narrow::LowerBeta(b));
            }
            fn abort(&mut self) {
                self.0.abort();
            }
            fn window(&self) -> (Value, Value) {
                self.0.window()
            }
            fn is_aborted(&self) -> bool {
                self.0.is_aborted()
            }
            fn open_peak(&self) -> usize {
                self.0.peak()
            }
        }

        impl<T: GameTree> Search for $name<'_, T> {
            type Out = Value;
            #[inline]
            fn step(&mut self) -> Step<Value> {
                self.0.step()
            }
        }
    };
}

/// A hybrid's constructor with its split depth given: `$top` on the top `k` plies, `$below`
/// under them.
macro_rules! with_top_depth {
    ($name:ident, $top:expr, $below:expr, $doc:literal) => {
        impl<'t, T: GameTree> $name<'t, T> {
            #[doc = $doc]
            pub fn with_top_depth(
                tree: &'t T,
                node: T::Node,
                alpha: Value,
                beta: Value,
                depth: u32,
                k: u32,
            ) -> Self {
                $name(Pipeline::new(
                    tree,
                    node,
                    alpha,
                    beta,
                    &two($top, k, $below, depth),
                ))
            }
        }
    };
}

fn one(kind: Kind, depth: u32) -> Vec<Stage> {
    vec![Stage { kind, depth }]
}

/// Stages of `stage` plies (the last one shorter if `stage` does not divide `depth`).
fn staged(depth: u32, stage: u32) -> Vec<Stage> {
    let stage = stage.max(1);
    let mut v = Vec::new();
    let mut left = depth;
    while left > 0 {
        let d = left.min(stage);
        v.push(Stage {
            kind: Kind::Sss,
            depth: d,
        });
        left -= d;
    }
    v
}

fn two(top: Kind, k: u32, below: Kind, depth: u32) -> Vec<Stage> {
    let k = k.min(depth);
    vec![
        Stage {
            kind: top,
            depth: k,
        },
        Stage {
            kind: below,
            depth: depth - k,
        },
    ]
}

/// SSS* with Campbell's modification (thesis Appendix 3, Tables 11 and 12), aspiration window
/// as in section 2.1; see the [module doc](self).
///
/// ```
/// use algorithms::{negamax, AlphaBeta, GameTree, Ordering, SequentialSearch, Sss,
///                  SyntheticSpec, SyntheticTree, INF};
/// use sim_hw::{run_alone, CostModel};
/// let spec = SyntheticSpec { width: 5, depth: 4, ordering: Ordering::Random,
///                            value_spread: 100, horizon_noise: 0 };
/// let tree = SyntheticTree::new(spec, 2).unwrap();
/// let mut sss = Sss::new(&tree, tree.root(), -INF, INF, 4);
/// let (v, work) = run_alone(&mut sss, &CostModel::campbell());
/// assert_eq!(v, negamax(&tree, &tree.root(), 4));
/// // SSS* never evaluates more leaves than alpha-beta, and keeps at most w^(d/2) states.
/// let (_, ab) = run_alone(&mut AlphaBeta::new(&tree, tree.root(), -INF, INF, 4),
///                         &CostModel::campbell());
/// assert!(work.nodes.leaves <= ab.nodes.leaves);
/// assert!(sss.open_peak() <= 25);
/// ```
pub struct Sss<'t, T: GameTree>(Pipeline<'t, T>);
staged_search!(Sss, |d| one(Kind::Sss, d));

/// DUAL* (Reinefeld, Schaeffer & Marsland, Fig. 4): SSS* with the players' roles exchanged,
/// left-to-right at the root; see the [module doc](self).
pub struct Dual<'t, T: GameTree>(Pipeline<'t, T>);
staged_search!(Dual, |d| one(Kind::Dual, d));

/// Staged SSS* (thesis section 2.1): SSS* stages of [`DEFAULT_STAGE_DEPTH`] plies (`new`) or of
/// a given depth ([`StagedSss::with_stage_depth`]), each horizon node of a stage valued by the
/// next stage with the upper bound of its state; see the [module doc](self).
pub struct StagedSss<'t, T: GameTree>(Pipeline<'t, T>);
staged_search!(StagedSss, |d| staged(d, DEFAULT_STAGE_DEPTH));

impl<'t, T: GameTree> StagedSss<'t, T> {
    /// Staged SSS* of `node` to `depth` plies with stages of `stage_depth` plies (at least 1;
    /// the last stage is shorter when `stage_depth` does not divide `depth`).
    pub fn with_stage_depth(
        tree: &'t T,
        node: T::Node,
        alpha: Value,
        beta: Value,
        depth: u32,
        stage_depth: u32,
    ) -> Self {
        StagedSss(Pipeline::new(
            tree,
            node,
            alpha,
            beta,
            &staged(depth, stage_depth),
        ))
    }
}

/// Campbell's SSS*/alpha-beta hybrid SAB (thesis section 2.1): SSS* on the top `k` plies,
/// alpha-beta with window `(-∞, h)` below. `new` takes `k = depth / 2`, as the thesis's 4-ply
/// SAB; [`Sab::with_top_depth`] any `k` (SA2 and SA4 at 6 ply are `k` = 2 and 4).
pub struct Sab<'t, T: GameTree>(Pipeline<'t, T>);
staged_search!(Sab, |d: u32| two(Kind::Sss, d / 2, Kind::AlphaBeta, d));

with_top_depth!(
    Sab,
    Kind::Sss,
    Kind::AlphaBeta,
    "SAB of `node` to `depth` plies, SSS* on the top `k` plies (`k >= depth` is SSS*, `k = 0` alpha-beta)."
);

/// Campbell's alpha-beta/SSS* hybrid ABS (thesis section 2.1): alpha-beta on the top `k` plies,
/// each of its horizon nodes searched by aspiration SSS* with the node's alpha-beta window.
/// `new` takes `k = depth / 2`, as the thesis's 4-ply ABS; [`Abs::with_top_depth`] any `k` (AS2
/// and AS4 at 6 ply are `k` = 2 and 4).
pub struct Abs<'t, T: GameTree>(Pipeline<'t, T>);
staged_search!(Abs, |d: u32| two(Kind::AlphaBeta, d / 2, Kind::Sss, d));

with_top_depth!(
    Abs,
    Kind::AlphaBeta,
    Kind::Sss,
    "ABS of `node` to `depth` plies, alpha-beta on the top `k` plies (`k >= depth` is alpha-beta, `k = 0` SSS*)."
);
