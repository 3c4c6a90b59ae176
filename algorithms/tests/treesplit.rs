//! Tree-splitting (`treesplit`, `treesplit_update`) on processor trees of every shape laid over
//! every network kind: negamax's root value on 1,000 random trees on 1, 2, 3, 4 and 8
//! processors, every processor's time accounted, batched runs equal to step-by-step runs. (Its
//! tests on processor trees' own lines, read policies and UPDATE timing are in the `tests`
//! crate's `treesplit.rs`.)

mod common;

use algorithms::*;
use rand::Rng;

fn random_update(tree: &SyntheticTree, rng: &mut algorithms::rng::SplitMix64) -> TreeSplit {
    TreeSplit(TreeSplitConfig {
        depth: tree.spec().depth,
        update: rng.random_bool(0.5),
    })
}

#[test]
fn treesplit_returns_negamax_on_1000_trees_every_processor_count_shape_and_network() {
    let (runs, coverage) = common::returns_negamax_on(
        31,
        1000,
        |rng, p, _| Some(common::any_shape(rng, p)),
        random_update,
        |_, run, _| {
            assert!(run.roles[0]
                .finished_at()
                .is_some_and(|t| t <= run.stats.makespan));
        },
    );
    assert_eq!(runs, 5000);
    coverage.assert_every_kind(&[1, 2, 3, 4, 8], 50);
}

#[test]
fn treesplit_batched_runs_equal_step_by_step_runs_on_every_network() {
    let runs = common::batching_check(
        32,
        400,
        |rng, p, _| Some(common::any_shape(rng, p)),
        random_update,
    );
    assert_eq!(runs, 400);
}
