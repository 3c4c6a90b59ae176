//! Tree-splitting (Campbell Fig. 10) and its dynamic window update (Fig. 11): the sequential
//! root value on every tree, processor tree and read policy; batching changes nothing but the
//! event count; an UPDATE reaches a running search exactly when it is read.

use algorithms::rng::SplitMix64;
use algorithms::{
    negamax, run_scheme, GameTree, Ordering, SyntheticSpec, SyntheticTree, TreeSplit,
    TreeSplitConfig,
};
use rand::{Rng, SeedableRng};
use sim_core::SimTime;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies, ReadPolicy};

const PTREES: [(u32, u32); 5] = [(1, 2), (1, 4), (1, 8), (2, 2), (3, 2)];

fn policies() -> [ReadPolicy; 5] {
    [
        ReadPolicy::Interrupt,
        ReadPolicy::Poll { every: 1 },
        ReadPolicy::Poll { every: 7 },
        ReadPolicy::Poll { every: 100 },
        ReadPolicy::WhenIdle,
    ]
}

fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
    let ordering = match rng.random_range(0..4) {
        0 => Ordering::Random,
        1 => Ordering::Perfect,
        2 => Ordering::FirstBest {
            p: rng.random_range(0.0..=1.0),
        },
        _ => Ordering::Geometric {
            p: rng.random_range(0.05..=1.0),
        },
    };
    let spec = SyntheticSpec {
        width: rng.random_range(2..=8),
        depth: rng.random_range(2..=6),
        ordering,
        value_spread: rng.random_range(1..=200),
        horizon_noise: 0,
    };
    SyntheticTree::new(spec, seed).unwrap()
}

/// Campbell's costs (e = 1, the rest free, ideal lines), or costs and a line with delays, so
/// that messages cross searches at awkward moments and batching has something to skip.
fn machine(rng: &mut SplitMix64, ptree: ProcessorTree, boards: ReadPolicy) -> MachineConfig {
    let (costs, link) = if rng.random_bool(0.5) {
        (CostModel::campbell(), LinkSpec::ideal())
    } else {
        let costs = CostModel {
            k: SimTime(rng.random_range(0..5)),
            e: SimTime(rng.random_range(1..20)),
            q: sim_core::SimTime::ZERO,
            probe: sim_core::SimTime::ZERO,
            s: SimTime(rng.random_range(0..5)),
            interrupt: SimTime(rng.random_range(0..5)),
        };
        (
            costs,
            LinkSpec::serial(
                rng.random_range(100_000_000..2_000_000_000),
                rng.random_bool(0.5),
            ),
        )
    };
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
fn treesplit_returns_the_sequential_value_on_every_tree_processor_tree_and_read_policy() {
    let mut rng = SplitMix64::seed_from_u64(7);
    let mut runs = 0;
    for seed in 0..1000u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        assert_eq!(expected, tree.root().value);
        for update in [false, true] {
            let scheme = TreeSplit(TreeSplitConfig { depth, update });
            for (d, w) in PTREES {
                for boards in policies() {
                    let config = machine(&mut rng, ProcessorTree::campbell(d, w), boards);
                    let run = run_scheme(&scheme, &tree, config).unwrap_or_else(|e| {
                        panic!("seed {seed}, update {update} on ({d},{w}), {boards:?}: {e}")
                    });
                    assert_eq!(
                        run.root_value,
                        Some(expected),
                        "seed {seed}, update {update} on ({d},{w}), {boards:?}, spec {:?}",
                        tree.spec()
                    );
                    for p in &run.stats.procs {
                        assert_eq!(p.times.total(), run.stats.makespan.as_nanos());
                    }
                    runs += 1;
                }
            }
        }
    }
    assert_eq!(runs, 1000 * 2 * PTREES.len() * 5);
}

#[test]
fn batching_on_and_off_give_the_same_runs_but_for_the_event_count() {
    let mut rng = SplitMix64::seed_from_u64(11);
    for seed in 0..150u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let update = rng.random_bool(0.5);
        let (d, w) = PTREES[rng.random_range(0..PTREES.len())];
        let boards = policies()[rng.random_range(0..5)];
        let mut on = machine(&mut rng, ProcessorTree::campbell(d, w), boards);
        on.record_intervals = true;
        on.record_messages = true;
        let mut off = on.clone();
        off.batching = false;
        let scheme = TreeSplit(TreeSplitConfig { depth, update });
        let a = run_scheme(&scheme, &tree, on).unwrap();
        let b = run_scheme(&scheme, &tree, off).unwrap();
        assert_eq!(a.root_value, b.root_value);
        assert_eq!(a.stats.makespan, b.stats.makespan, "seed {seed}");
        for (x, y) in a.stats.procs.iter().zip(&b.stats.procs) {
            assert_eq!(x.times, y.times, "seed {seed}");
            assert_eq!(x.nodes, y.nodes, "seed {seed}");
            assert_eq!(x.intervals, y.intervals, "seed {seed}");
        }
        assert_eq!(a.stats.message_log, b.stats.message_log, "seed {seed}");
        assert!(a.stats.events <= b.stats.events);
    }
}

/// Every UPDATE a slave reads under interrupts is read at its arrival plus the handler; it
/// reaches the slave's running search exactly when that search was still running at that moment
/// (never after it finished), and it does reach running searches (the test could fail).
#[test]
fn an_update_reaches_a_running_search_when_read_and_never_after_it_finished() {
    let mut rng = SplitMix64::seed_from_u64(5);
    let interrupt = SimTime(3);
    let mut reached_running = 0;
    let mut too_late = 0;
    for seed in 0..200u64 {
        let spec = SyntheticSpec {
            width: rng.random_range(3..=8),
            depth: rng.random_range(3..=5),
            ordering: Ordering::Random,
            value_spread: 1000,
            horizon_noise: 0,
        };
        let tree = SyntheticTree::new(spec, seed).unwrap();
        let costs = CostModel {
            e: SimTime(10),
            q: sim_core::SimTime::ZERO,
            probe: sim_core::SimTime::ZERO,
            interrupt,
            ..CostModel::campbell()
        };
        let mut config =
            MachineConfig::new(ProcessorTree::campbell(1, 4), costs, LinkSpec::ideal());
        config.reads = ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::Interrupt,
        };
        config.record_messages = true;
        let scheme = TreeSplit(TreeSplitConfig {
            depth: tree.spec().depth,
            update: true,
        });
        let run = run_scheme(&scheme, &tree, config).unwrap();
        assert_eq!(run.root_value, Some(tree.root().value));
        for (p, role) in run.roles.iter().enumerate().skip(1) {
            let log = role.update_log();
            // Every UPDATE sent to this slave was read at its arrival + the handler.
            let mut arrivals: Vec<SimTime> = run
                .stats
                .message_log
                .iter()
                .filter(|m| m.to.index() == p && m.from.index() == 0 && m.bytes == 4)
                .map(|m| m.arrived + interrupt)
                .collect();
            let mut reads: Vec<SimTime> = log.reads.iter().map(|r| r.at).collect();
            arrivals.sort();
            reads.sort();
            assert_eq!(reads, arrivals, "seed {seed}, P{p}");
            for r in &log.reads {
                // When did the search of that assignment end (None: aborted or never started)?
                let end = log.ends.iter().find(|e| e.0 == r.id).map(|e| e.1);
                let running = log.started.iter().any(|s| s.0 == r.id && s.1 <= r.at)
                    && end.is_none_or(|e| e > r.at);
                assert_eq!(r.reached, running, "seed {seed}, P{p}, {r:?}, end {end:?}");
                if r.reached {
                    reached_running += 1;
                } else {
                    too_late += 1;
                }
            }
        }
    }
    assert!(
        reached_running > 100,
        "{reached_running} updates reached a running search"
    );
    assert!(
        too_late > 0,
        "some updates arrive after the search they were meant for"
    );
}
