//! Principal variation splitting (Campbell Fig. 12, M&P Fig. 3) and Campbell's refinement:
//! negamax's root value on every tree, processor tree, machine and read policy, with every
//! processor's time accounted; exactly alpha-beta's nodes where the algorithm must do exactly
//! alpha-beta's work; refused where it does not apply; on processor trees laid over every
//! network kind, the same value and time accounts, and batched runs equal to step-by-step runs.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::SimTime;
use sim_hw::{
    run_alone, CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies, ReadPolicy,
};

const PTREES: [(u32, u32); 5] = [(1, 2), (1, 4), (2, 2), (2, 3), (3, 2)];

fn configs(depth: u32) -> [PvSplitConfig; 4] {
    [(false, false), (false, true), (true, false), (true, true)].map(|(refined, update)| {
        PvSplitConfig {
            depth,
            refined,
            update,
        }
    })
}

/// Trees of width 2-7 with small value spreads (ties and cutoffs on equal values: the hard
/// cases) and little horizon noise.
fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
    common::random_tree_up_to(rng, seed, 7, 200, 10)
}

/// Campbell's machine (e = 1, the rest free, ideal lines), or one with costs, a serial line and
/// random read policies, so that results, updates and aborts cross at awkward moments.
fn machine(rng: &mut SplitMix64, ptree: ProcessorTree, ideal: bool) -> MachineConfig {
    if ideal {
        return MachineConfig::new(ptree, CostModel::campbell(), LinkSpec::ideal());
    }
    let costs = CostModel {
        k: SimTime(rng.random_range(0..5)),
        e: SimTime(rng.random_range(1..20)),
        q: sim_core::SimTime::ZERO,
        probe: sim_core::SimTime::ZERO,
        s: SimTime(rng.random_range(0..5)),
        interrupt: SimTime(rng.random_range(0..5)),
    };
    let link = LinkSpec::serial(
        rng.random_range(100_000_000..2_000_000_000),
        rng.random_bool(0.5),
    );
    let policies = [
        ReadPolicy::Interrupt,
        ReadPolicy::Poll { every: 1 },
        ReadPolicy::Poll { every: 7 },
        ReadPolicy::WhenIdle,
    ];
    let boards = policies[rng.random_range(0..policies.len())];
    let mut config = MachineConfig::new(ptree, costs, link);
    config.reads = ReadPolicies {
        hosts: if rng.random_bool(0.5) {
            ReadPolicy::Interrupt
        } else {
            boards
        },
        boards,
    };
    config
}

#[test]
fn pvsplit_returns_negamax_on_every_tree_processor_tree_and_machine() {
    let mut rng = SplitMix64::seed_from_u64(17);
    let (mut runs, mut refused) = (0, 0);
    for seed in 0..300u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for config in configs(depth) {
            let scheme = PvSplit(config);
            for (d, w) in PTREES {
                for ideal in [true, false] {
                    let machine = machine(&mut rng, ProcessorTree::campbell(d, w), ideal);
                    let run = match run_scheme(&scheme, &tree, machine) {
                        Err(SchemeError::Deploy(_)) if d >= depth => {
                            refused += 1;
                            continue;
                        }
                        Err(e) => panic!("seed {seed}, {config:?} on ({d},{w}): {e}"),
                        Ok(run) => run,
                    };
                    assert!(d < depth, "ran on ({d},{w}) with depth {depth}");
                    assert_eq!(
                        run.root_value,
                        Some(expected),
                        "seed {seed}, {config:?} on ({d},{w}), ideal {ideal}, {:?}",
                        tree.spec()
                    );
                    // Aborts may still be on their way when the root has its value.
                    assert!(run.roles[0]
                        .finished_at()
                        .is_some_and(|t| t <= run.stats.makespan));
                    for (p, stats) in run.stats.procs.iter().enumerate() {
                        assert_eq!(
                            stats.times.total(),
                            run.stats.makespan.as_nanos(),
                            "seed {seed}, {config:?} on ({d},{w}): P{p}'s categories {:?}",
                            stats.times
                        );
                    }
                    runs += 1;
                }
            }
        }
    }
    assert!(
        runs > 6000 && refused > 500,
        "{runs} runs, {refused} refused"
    );
}

/// With one slave per processor nothing happens in parallel: the PV phase, tree-splitting and
/// the refinement all examine the successors one at a time, in move order, with the windows
/// sequential alpha-beta would use. So pvsplit must visit exactly alpha-beta's nodes.
#[test]
fn on_a_chain_of_single_slaves_pvsplit_visits_exactly_alphabetas_nodes() {
    let mut rng = SplitMix64::seed_from_u64(3);
    for seed in 0..150u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let costs = CostModel::campbell();
        let (value, work) = run_alone(
            &mut AlphaBeta::new(&tree, tree.root(), -INF, INF, depth),
            &costs,
        );
        let mut leaves = 0;
        alphabeta_recursive(&tree, &tree.root(), -INF, INF, depth, &mut leaves);
        assert_eq!(leaves, work.nodes.leaves);
        for levels in 1..depth.min(4) {
            for config in configs(depth) {
                let machine = MachineConfig::new(
                    ProcessorTree::campbell(levels, 1),
                    costs,
                    LinkSpec::ideal(),
                );
                let run = run_scheme(&PvSplit(config), &tree, machine).unwrap();
                let nodes = run.stats.total_nodes();
                let at = format!("seed {seed}, L {levels}, {config:?}, {:?}", tree.spec());
                assert_eq!(run.root_value, Some(value), "{at}");
                assert_eq!(nodes.leaves, leaves, "{at}");
                assert_eq!(nodes.interior, work.nodes.interior, "{at}");
                // One evaluation at a time, each of one time unit.
                assert_eq!(run.stats.makespan.as_nanos(), leaves, "{at}");
            }
        }
    }
}

/// On a perfectly ordered tree the first value at every PV node is final, so the alternatives
/// get the windows sequential alpha-beta gives them however many slaves search them at once;
/// with L = 1 the frontier node's successors are leaves, all of which alpha-beta evaluates too.
#[test]
fn on_perfectly_ordered_trees_a_depth_1_processor_tree_evaluates_alphabetas_leaves() {
    for seed in 0..40u64 {
        for (width, depth) in [(2, 2), (3, 4), (5, 3), (8, 4), (4, 6)] {
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
            for slaves in [2, 3, 8] {
                for config in configs(depth) {
                    let machine = MachineConfig::new(
                        ProcessorTree::campbell(1, slaves),
                        CostModel::campbell(),
                        LinkSpec::ideal(),
                    );
                    let run = run_scheme(&PvSplit(config), &tree, machine).unwrap();
                    assert_eq!(
                        run.stats.total_nodes().leaves,
                        leaves,
                        "seed {seed}, ({width}, {depth}), {slaves} slaves, {config:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn deploy_refuses_processor_trees_as_deep_as_the_search_and_uniprocessors() {
    let spec = SyntheticSpec {
        width: 3,
        depth: 3,
        ordering: Ordering::Random,
        value_spread: 100,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 1).unwrap();
    for (levels, ok) in [(0, false), (1, true), (2, true), (3, false), (4, false)] {
        for config in configs(3) {
            let machine = MachineConfig::new(
                ProcessorTree::campbell(levels, 2),
                CostModel::campbell(),
                LinkSpec::ideal(),
            );
            match run_scheme(&PvSplit(config), &tree, machine) {
                Ok(run) => {
                    assert!(ok, "ran on a processor tree of depth {levels}");
                    assert_eq!(run.root_value, Some(tree.root().value));
                }
                Err(SchemeError::Deploy(why)) => {
                    assert!(!ok, "refused depth {levels}: {why}");
                    assert!(why.to_string().contains("pvsplit"), "{why}");
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    let name = |refined, update| {
        Scheme::<SyntheticTree>::name(&PvSplit(PvSplitConfig {
            depth: 3,
            refined,
            update,
        }))
    };
    assert_eq!(name(false, false), "pvsplit");
    assert_eq!(name(true, false), "pvsplit_refined");
    assert_eq!(name(false, true), "pvsplit_update");
    assert_eq!(name(true, true), "pvsplit_refined_update");
}

#[test]
fn node_types_follow_knuth_and_moore() {
    use NodeType::*;
    assert_eq!(One.successor(0), One);
    assert_eq!(One.successor(1), Two);
    assert_eq!(One.successor(5), Two);
    assert_eq!(Two.successor(0), Three);
    assert_eq!(Two.successor(3), Three);
    assert_eq!(Three.successor(0), Two);
    assert_eq!(Three.successor(2), Two);
}

/// Campbell's chapter-5 workload (his `gen`, width 24, depth 4) on every processor tree of his
/// Tables 8-10 that pvsplit applies to.
#[test]
fn pvsplit_returns_negamax_on_campbells_chapter_5_trees() {
    let orderings = [
        Ordering::Random,
        Ordering::Geometric { p: 0.8 },
        Ordering::Perfect,
    ];
    for (n, ordering) in orderings.into_iter().enumerate() {
        for seed in 0..3u64 {
            let spec = CampbellSpec {
                width: 24,
                depth: 4,
                ordering: ordering.clone(),
            };
            let tree = CampbellTree::new(spec, 100 * n as u64 + seed).unwrap();
            let expected = negamax(&tree, &tree.root(), 4);
            for (d, w) in [(1, 2), (1, 4), (1, 8), (1, 12), (2, 2), (2, 4), (2, 8)] {
                for config in configs(4) {
                    let machine = MachineConfig::new(
                        ProcessorTree::campbell(d, w),
                        CostModel::campbell(),
                        LinkSpec::ideal(),
                    );
                    let run = run_scheme(&PvSplit(config), &tree, machine).unwrap();
                    assert_eq!(
                        run.root_value,
                        Some(expected),
                        "{ordering:?} seed {seed}, ({d},{w}), {config:?}"
                    );
                }
            }
        }
    }
}

/// A processor tree of `p` processors (any shape) that pvsplit applies to: shallower than the
/// search (else a star); none for one processor (pvsplit needs a processor tree of depth 1 at
/// least).
fn pvsplit_shape(rng: &mut SplitMix64, p: u32, tree: &SyntheticTree) -> Option<ProcessorTree> {
    if p == 1 {
        return None;
    }
    let shape = common::any_shape(rng, p);
    if shape.depth() < tree.spec().depth {
        Some(shape)
    } else {
        Some(common::star(rng, p))
    }
}

fn random_pvsplit(tree: &SyntheticTree, rng: &mut SplitMix64) -> PvSplit {
    PvSplit(configs(tree.spec().depth)[rng.random_range(0..4)])
}

#[test]
fn pvsplit_returns_negamax_on_1000_trees_every_processor_count_and_network() {
    let (runs, coverage) =
        common::returns_negamax_on(33, 1000, pvsplit_shape, random_pvsplit, |_, run, _| {
            assert!(run.roles[0]
                .finished_at()
                .is_some_and(|t| t <= run.stats.makespan));
        });
    assert_eq!(runs, 4000);
    coverage.assert_every_kind(&[2, 3, 4, 8], 50);
}

#[test]
fn pvsplit_batched_runs_equal_step_by_step_runs_on_every_network() {
    let runs = common::batching_check(34, 500, pvsplit_shape, random_pvsplit);
    assert!(runs >= 350, "{runs} runs");
}
