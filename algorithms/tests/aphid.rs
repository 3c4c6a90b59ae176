//! APHID (`aphid`): negamax's root value on every tree, processor count, master's depth and
//! machine; every value its certain pass used is a correct fail-soft value of the leaf's search
//! (so the certain values equal the sequential search's), and every bound the master kept holds;
//! every processor's time accounted; batching changes nothing but the event count.

mod common;

use algorithms::*;
use rand::Rng;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};

fn random_top(tree: &SyntheticTree, rng: &mut algorithms::rng::SplitMix64) -> Aphid {
    // Master's trees shallower than, as deep as and deeper than the search.
    Aphid(AphidConfig {
        depth: tree.spec().depth,
        top: rng.random_range(1..=4),
    })
}

#[test]
fn aphid_returns_negamax_on_1000_trees_and_every_processor_count() {
    let mut checked = 0;
    let runs = common::returns_negamax_everywhere(5, 1000, random_top, |tree, run, _| {
        let master = &run.roles[0];
        assert!(master
            .finished_at()
            .is_some_and(|t| t <= run.stats.makespan));
        let (used, rest) = master.certain_leaves();
        for leaf in used {
            // The sequential search's value of that leaf.
            let exact = negamax(tree, &leaf.node, rest);
            let (a, b) = leaf.window;
            let v = leaf.value;
            assert!(
                (a < v && v < b && v == exact) || (v <= a && exact <= v) || (v >= b && exact >= v),
                "leaf value {v} with window ({a}, {b}), the leaf's value is {exact}"
            );
            checked += 1;
        }
        for (node, lo, hi) in master.leaf_bounds() {
            let exact = negamax(tree, &node, rest);
            assert!(lo <= exact && exact <= hi, "{lo} <= {exact} <= {hi}");
        }
    });
    assert_eq!(runs, 5000);
    assert!(
        checked > 10_000,
        "only {checked} certain leaf values checked"
    );
}

#[test]
fn aphid_batched_runs_equal_step_by_step_runs() {
    common::batching_changes_nothing_but_events(6, 400, random_top);
}

/// With more than one processor the master repeats passes until one is certain: on trees whose
/// static evaluations are wrong (horizon noise) it needs more than one; on one processor it
/// runs none (alpha-beta alone, exactly its leaves).
#[test]
fn passes_repeat_until_certain_and_one_processor_is_alphabeta() {
    let mut more_than_one = 0;
    for seed in 0..100u64 {
        let spec = SyntheticSpec {
            width: 4,
            depth: 5,
            ordering: Ordering::FirstBest { p: 0.7 },
            value_spread: 1000,
            horizon_noise: 50,
        };
        let tree = SyntheticTree::new(spec, seed).unwrap();
        let scheme = Aphid(AphidConfig { depth: 5, top: 2 });
        let one = MachineConfig::new(
            ProcessorTree::new(1, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        );
        let run = run_scheme(&scheme, &tree, one).unwrap();
        let mut leaves = 0;
        alphabeta_recursive(&tree, &tree.root(), -INF, INF, 5, &mut leaves);
        assert_eq!(run.stats.total_nodes().leaves, leaves);
        assert_eq!(run.roles[0].passes(), 0);
        let four = MachineConfig::new(
            ProcessorTree::new(4, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        );
        let run = run_scheme(&scheme, &tree, four).unwrap();
        assert_eq!(run.root_value, Some(tree.root().value));
        assert!(run.roles[0].passes() >= 1);
        if run.roles[0].passes() > 1 {
            more_than_one += 1;
        }
    }
    assert!(more_than_one > 50, "{more_than_one}");
}

#[test]
fn deploy_refuses_deeper_processor_trees_and_names_follow_top() {
    let scheme = Aphid(AphidConfig { depth: 3, top: 2 });
    assert!(common::refuses_a_deeper_processor_tree(&scheme));
    let name = |top| Scheme::<SyntheticTree>::name(&Aphid(AphidConfig { depth: 3, top }));
    assert_eq!(name(2), "aphid");
    assert_eq!(name(3), "aphid(3)");
}
