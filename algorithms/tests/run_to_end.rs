//! `Search::run_to_end` (the machine's route for a fresh search it may run at once) takes exactly
//! the steps `Search::step` takes: PVS's and alpha-beta's recursive tallies against the
//! step-by-step engine on random trees and windows, and on trees whose evaluations count
//! quiescence nodes. pmws's searches, which take this route through PVS, are checked in the
//! machine: batched runs (which take it) against step-by-step runs (which do not), in
//! correctness.rs and pmws_ix.rs.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_hw::{run_alone, CostModel, Search};

/// Steps counted by `run_alone`: interior nodes, leaves, quiescence nodes.
fn stepped<S: Search>(search: &mut S) -> (S::Out, (u64, u64, u64)) {
    let (out, work) = run_alone(search, &CostModel::campbell());
    let n = work.nodes;
    (out, (n.interior, n.leaves, n.quiescence))
}

/// A synthetic tree whose evaluations search quiescence nodes (0 to 6 of them, from the node's
/// key), as a chess tree's do: the tallies must count them as the steps do.
struct Quiescent(SyntheticTree);

impl GameTree for Quiescent {
    type Node = <SyntheticTree as GameTree>::Node;
    type Move = <SyntheticTree as GameTree>::Move;
    type Moves = <SyntheticTree as GameTree>::Moves;
    fn root(&self) -> Self::Node {
        self.0.root()
    }
    fn moves(&self, node: &Self::Node) -> Self::Moves {
        self.0.moves(node)
    }
    fn play(&self, node: &Self::Node, mv: Self::Move) -> Self::Node {
        self.0.play(node, mv)
    }
    fn evaluate(&self, node: &Self::Node) -> Eval {
        Eval {
            quiescence: (self.0.key(node) % 7) as u32,
            ..self.0.evaluate(node)
        }
    }
    fn key(&self, node: &Self::Node) -> u64 {
        self.0.key(node)
    }
}

/// On 3,000 random trees and windows (random from `$seed`; trees made by `$wrap`), a fresh
/// search `$Search::new` runs at once to the value and the steps it takes step by step, and has
/// ended afterwards.
macro_rules! runs_at_once_as_step_by_step {
    ($Search:ident, $seed:expr) => {
        runs_at_once_as_step_by_step!($Search, $seed, |t| t)
    };
    ($Search:ident, $seed:expr, $wrap:expr) => {{
        let seed: u64 = $seed;
        let mut rng = SplitMix64::seed_from_u64(seed);
        for n in 0..3_000 {
            let synthetic = common::random_tree(&mut rng, seed * 1_000 + n);
            let depth = rng.random_range(0..=synthetic.spec().depth);
            let tree = $wrap(synthetic);
            let (alpha, beta) = if rng.random_bool(0.5) {
                (-INF, INF)
            } else {
                let a = rng.random_range(-1200..1200);
                (a, a + rng.random_range(1..400))
            };
            let mut a = $Search::new(&tree, tree.root(), alpha, beta, depth);
            let mut b = $Search::new(&tree, tree.root(), alpha, beta, depth);
            let (v, steps) = stepped(&mut a);
            let (w, tally) = b.run_to_end().expect("a fresh search runs at once");
            assert_eq!(v, w, "tree {n}");
            assert_eq!(
                steps,
                (tally.interior, tally.leaves, tally.quiescence),
                "tree {n}"
            );
            // Once run, the search has ended: no second route, and its next step says so.
            assert!(b.run_to_end().is_none());
            assert!(matches!(b.step(), sim_hw::Step::Done(x) if x == v));
        }
    }};
}

#[test]
fn pvs_run_at_once_takes_the_steps_it_takes_step_by_step() {
    runs_at_once_as_step_by_step!(Pvs, 71);
}

#[test]
fn alphabeta_run_at_once_takes_the_steps_it_takes_step_by_step() {
    runs_at_once_as_step_by_step!(AlphaBeta, 73);
}

#[test]
fn run_at_once_counts_quiescence_nodes_as_the_steps_do() {
    runs_at_once_as_step_by_step!(Pvs, 74, Quiescent);
    runs_at_once_as_step_by_step!(AlphaBeta, 75, Quiescent);
}

#[test]
fn a_search_that_has_begun_or_has_no_recursive_twin_has_no_route_at_once() {
    let mut rng = SplitMix64::seed_from_u64(72);
    let tree = common::random_tree(&mut rng, 72_000);
    let mut pvs = Pvs::new(&tree, tree.root(), -INF, INF, tree.spec().depth);
    let _ = pvs.step();
    assert!(pvs.run_to_end().is_none());
    let mut ab = AlphaBeta::new(&tree, tree.root(), -INF, INF, tree.spec().depth);
    let _ = ab.step();
    assert!(ab.run_to_end().is_none());
    let mut scout = Scout::new(&tree, tree.root(), -INF, INF, tree.spec().depth);
    assert!(scout.run_to_end().is_none());
}
