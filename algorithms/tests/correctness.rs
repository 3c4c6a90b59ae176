//! pmws returns the negamax value and accounts all its time, on processor trees' own lines and
//! on every network kind a tree can be laid over; batching changes nothing but the event count
//! (the sequential searches are tested in `sequential.rs`).

mod common;

use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::{Category, SimTime};
use sim_hw::{run_alone, CostModel, LinkSpec, Machine, MachineConfig, ProcessorTree};

fn random_spec(rng: &mut impl Rng, max_w: u32, max_d: u32) -> SyntheticSpec {
    let ordering = match rng.random_range(0..5) {
        0 => Ordering::Random,
        1 => Ordering::Perfect,
        2 => Ordering::FirstBest {
            p: rng.random_range(0.0..=1.0),
        },
        3 => Ordering::Geometric {
            p: rng.random_range(0.05..=1.0),
        },
        _ => Ordering::FirstBest { p: 0.6 },
    };
    SyntheticSpec {
        width: rng.random_range(1..=max_w),
        depth: rng.random_range(1..=max_d),
        ordering,
        // Small spreads make ties and fail-highs frequent: the hard cases.
        value_spread: rng.random_range(1..=50),
        horizon_noise: rng.random_range(0..=20),
    }
}

fn run_pmws(
    tree: &SyntheticTree,
    f: u32,
    depth: u32,
    progressive: bool,
    costs: CostModel,
    link: LinkSpec,
) -> (sim_core::RunStats, Option<Value>) {
    let mut config = MachineConfig::new(ProcessorTree::new(f, 1), costs, link);
    config.record_intervals = true;
    config.record_messages = true;
    let roles = pmws_roles(tree, f as usize, PmwsConfig { depth, progressive });
    let (stats, roles) = Machine::new(config, roles).unwrap().run().unwrap();
    (stats, roles[0].root_value())
}

fn assert_accounted(stats: &sim_core::RunStats) {
    for (i, p) in stats.procs.iter().enumerate() {
        assert_eq!(
            p.times.total(),
            stats.makespan.as_nanos(),
            "processor {i}: categories {:?} do not add up to the makespan {}",
            p.times,
            stats.makespan.as_nanos()
        );
        let from_intervals: u64 = p
            .intervals
            .iter()
            .map(|iv| (iv.end - iv.start).as_nanos())
            .sum();
        assert_eq!(from_intervals, stats.makespan.as_nanos());
    }
}

#[test]
fn pmws_returns_the_sequential_value_on_1000_random_trees_for_f_1_to_8() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(7);
    for n in 0..1000u64 {
        let spec = random_spec(&mut rng, 8, 5);
        let tree = SyntheticTree::new(spec.clone(), 1000 + n).unwrap();
        let expected = negamax(&tree, &tree.root(), spec.depth);
        let f = (n % 8) as u32 + 1;
        let progressive = n % 3 != 0;
        // Alternate between an ideal machine and a slow serial one with real costs.
        let (costs, link) = if n % 2 == 0 {
            (CostModel::campbell(), LinkSpec::ideal())
        } else {
            (
                CostModel {
                    k: SimTime(rng.random_range(0..2000)),
                    e: SimTime(rng.random_range(1..5000)),
                    q: sim_core::SimTime::ZERO,
                    probe: sim_core::SimTime::ZERO,
                    s: SimTime(rng.random_range(0..3000)),
                    interrupt: SimTime(rng.random_range(0..3000)),
                },
                LinkSpec::serial(rng.random_range(100..100_000), n % 4 == 1),
            )
        };
        let (stats, value) = run_pmws(&tree, f, spec.depth, progressive, costs, link);
        assert_eq!(value, Some(expected), "{spec:?} seed {} f={f}", 1000 + n);
        assert_accounted(&stats);
    }
}

#[test]
fn pmws_with_one_processor_is_sequential_pvs() {
    // f = 1 without progressive deepening does exactly the work of Fig. 1 on the same tree.
    let costs = CostModel {
        k: SimTime(5),
        e: SimTime(11),
        q: sim_core::SimTime::ZERO,
        probe: sim_core::SimTime::ZERO,
        ..CostModel::campbell()
    };
    for seed in 0..50 {
        let spec = SyntheticSpec {
            width: 5,
            depth: 5,
            ordering: Ordering::FirstBest { p: 0.6 },
            value_spread: 100,
            horizon_noise: 10,
        };
        let tree = SyntheticTree::new(spec, seed).unwrap();
        let (v, work) = run_alone(&mut Pvs::new(&tree, tree.root(), -INF, INF, 5), &costs);
        let (stats, value) = run_pmws(&tree, 1, 5, false, costs, LinkSpec::ideal());
        assert_eq!(value, Some(v));
        assert_eq!(stats.makespan, work.time);
        assert_eq!(stats.total_nodes().leaves, work.nodes.leaves);
        assert_eq!(
            stats.procs[0].times.get(Category::Search),
            stats.makespan.as_nanos()
        );
    }
}

fn random_pmws(tree: &SyntheticTree, rng: &mut algorithms::rng::SplitMix64) -> PmwsScheme {
    PmwsScheme(PmwsConfig {
        depth: tree.spec().depth,
        progressive: rng.random_bool(0.5),
    })
}

#[test]
fn pmws_returns_negamax_on_1000_trees_every_processor_count_and_network() {
    let runs = common::returns_negamax_everywhere(21, 1000, random_pmws, |_, run, _| {
        assert!(run.roles[0]
            .finished_at()
            .is_some_and(|t| t <= run.stats.makespan));
    });
    assert_eq!(runs, 5000);
}

#[test]
fn pmws_batched_runs_equal_step_by_step_runs_on_every_network() {
    common::batching_changes_nothing_but_events(22, 400, random_pmws);
}
