//! Parallel aspiration search (`baudet`): negamax's root value on every tree, processor count,
//! window width and machine; the window holding the value decides it; every processor's time
//! accounted; batching changes nothing but the event count.

mod common;

use algorithms::*;
use rand::Rng;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};

fn random_delta(rng: &mut algorithms::rng::SplitMix64) -> Baudet {
    // Narrow windows (most searches fail) and wide ones (the value is usually central).
    let delta = if rng.random_bool(0.5) {
        rng.random_range(1..=20)
    } else {
        rng.random_range(1..=2000)
    };
    Baudet(BaudetConfig { depth: 0, delta })
}

#[test]
fn baudet_returns_negamax_on_1000_trees_and_every_processor_count() {
    let mut decided = [0usize; 2];
    let runs = common::returns_negamax_everywhere(
        1,
        1000,
        |tree, rng| {
            let mut s = random_delta(rng);
            s.0.depth = tree.spec().depth;
            s
        },
        |_, run, value| {
            let (windows, _) = run.roles[0].windows();
            match run.roles[0].decided_by() {
                // The window that returned the value holds it.
                Some(j) => {
                    assert!(windows[j].0 < value && value < windows[j].1);
                    decided[0] += 1;
                }
                None => decided[1] += 1,
            }
            assert!(run.roles[0]
                .finished_at()
                .is_some_and(|t| t <= run.stats.makespan));
        },
    );
    assert_eq!(runs, 5000);
    assert!(
        decided[0] > 0,
        "no window ever returned the value: {decided:?}"
    );
}

#[test]
fn baudet_batched_runs_equal_step_by_step_runs() {
    common::batching_changes_nothing_but_events(2, 400, |tree, rng| {
        let mut s = random_delta(rng);
        s.0.depth = tree.spec().depth;
        s
    });
}

/// On one processor the only window is (−∞, +∞): exactly fail-soft alpha-beta's leaves; with
/// more, every processor searches the whole tree and the estimate costs one evaluation.
#[test]
fn one_processor_is_alphabeta_and_every_window_is_searched() {
    let mut rng = <algorithms::rng::SplitMix64 as rand::SeedableRng>::seed_from_u64(4);
    for seed in 0..100 {
        let tree = common::random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let mut leaves = 0;
        alphabeta_recursive(&tree, &tree.root(), -INF, INF, depth, &mut leaves);
        let scheme = Baudet(BaudetConfig { depth, delta: 50 });
        let one = MachineConfig::new(
            ProcessorTree::new(1, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        );
        let run = run_scheme(&scheme, &tree, one).unwrap();
        assert_eq!(run.stats.total_nodes().leaves, leaves, "seed {seed}");
        assert_eq!(run.stats.makespan.as_nanos(), leaves);
        for p in [2, 5] {
            let config = MachineConfig::new(
                ProcessorTree::new(p, 1),
                CostModel::campbell(),
                LinkSpec::ideal(),
            );
            let run = run_scheme(&scheme, &tree, config).unwrap();
            let (windows, v0) = run.roles[0].windows();
            assert_eq!(windows.len(), p as usize);
            assert_eq!(v0, Some(tree.evaluate(&tree.root()).value));
            // Every processor searched (the estimate, then windows).
            for stats in &run.stats.procs {
                assert!(stats.nodes.leaves > 0, "seed {seed}, p {p}");
            }
        }
    }
}

#[test]
fn deploy_refuses_deeper_processor_trees_and_names_follow_delta() {
    let scheme = Baudet(BaudetConfig {
        depth: 3,
        delta: 50,
    });
    assert!(common::refuses_a_deeper_processor_tree(&scheme));
    let name = |delta| Scheme::<SyntheticTree>::name(&Baudet(BaudetConfig { depth: 3, delta }));
    assert_eq!(name(50), "baudet");
    assert_eq!(name(20), "baudet(20)");
}
