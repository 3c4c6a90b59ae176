//! Mandatory Work First (`mwf`): negamax's root value on every tree, processor count, split
//! and machine; every processor's time accounted; batching changes nothing but the event count.

mod common;

use algorithms::*;
use rand::Rng;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};

fn random_split(tree: &SyntheticTree, rng: &mut algorithms::rng::SplitMix64) -> Mwf {
    // Splits above, at and beyond the search depth (then the tasks are single evaluations).
    Mwf(MwfConfig {
        depth: tree.spec().depth,
        split: rng.random_range(1..=4),
    })
}

#[test]
fn mwf_returns_negamax_on_1000_trees_and_every_processor_count() {
    let runs = common::returns_negamax_everywhere(3, 1000, random_split, |_, run, _| {
        assert!(run.roles[0]
            .finished_at()
            .is_some_and(|t| t <= run.stats.makespan));
    });
    assert_eq!(runs, 5000);
}

#[test]
fn mwf_batched_runs_equal_step_by_step_runs() {
    common::batching_changes_nothing_but_events(4, 400, random_split);
}

/// On a perfectly ordered tree every first successor is best, so no speculative work is ever
/// opened beyond what alpha-beta needs: with one processor MWF evaluates no more leaves than
/// the minimal tree's mandatory part searched with the windows it had, and never fewer than
/// alpha-beta (the minimal tree).
#[test]
fn on_perfectly_ordered_trees_one_processor_evaluates_at_least_the_minimal_tree() {
    for seed in 0..50u64 {
        for (width, depth) in [(2, 2), (3, 4), (5, 3), (4, 5)] {
            let spec = SyntheticSpec {
                width,
                depth,
                ordering: Ordering::Perfect,
                value_spread: 1000,
                horizon_noise: 0,
            };
            let tree = SyntheticTree::new(spec, seed).unwrap();
            let mut leaves = 0;
            alphabeta_recursive(&tree, &tree.root(), -INF, INF, depth, &mut leaves);
            let config = MachineConfig::new(
                ProcessorTree::new(1, 1),
                CostModel::campbell(),
                LinkSpec::ideal(),
            );
            let run = run_scheme(&Mwf(MwfConfig { depth, split: 2 }), &tree, config).unwrap();
            assert_eq!(run.root_value, Some(tree.root().value));
            assert!(run.stats.total_nodes().leaves >= leaves, "seed {seed}");
        }
    }
}

#[test]
fn deploy_refuses_deeper_processor_trees_and_names_follow_split() {
    let scheme = Mwf(MwfConfig { depth: 3, split: 2 });
    assert!(common::refuses_a_deeper_processor_tree(&scheme));
    let name = |split| Scheme::<SyntheticTree>::name(&Mwf(MwfConfig { depth: 3, split }));
    assert_eq!(name(2), "mwf");
    assert_eq!(name(3), "mwf(3)");
}
