//! pmws with section IX's broadcast of a new alpha bound (`pmws_broadcast`): negamax's root
//! value on every tree, processor count and machine, with and without progressive deepening;
//! every processor's time accounted; batching changes nothing but the event count; with the
//! option off it is pmws exactly; with it on, bounds are sent and reach running searches.

mod common;

use algorithms::*;
use rand::Rng;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies, ReadPolicy};

fn broadcast(tree: &SyntheticTree, rng: &mut algorithms::rng::SplitMix64) -> PmwsIxScheme {
    PmwsIxScheme(
        PmwsConfig {
            depth: tree.spec().depth,
            progressive: rng.random_bool(0.5),
        },
        Plain { broadcast: true },
    )
}

#[test]
fn pmws_broadcast_returns_negamax_on_1000_trees_and_every_processor_count() {
    let runs = common::returns_negamax_everywhere(7, 1000, broadcast, |_, run, _| {
        assert!(run.roles[0]
            .finished_at()
            .is_some_and(|t| t <= run.stats.makespan));
    });
    assert_eq!(runs, 5000);
}

#[test]
fn pmws_broadcast_batched_runs_equal_step_by_step_runs() {
    common::batching_changes_nothing_but_events_without_polling_masters(8, 200, broadcast);
}

/// Off, the option changes nothing: the same run as pmws. On, with children that read on
/// arrival, bounds go out (more inter-node messages) and change the search on some trees.
#[test]
fn off_it_is_pmws_and_on_it_sends_bounds() {
    let mut rng = <algorithms::rng::SplitMix64 as rand::SeedableRng>::seed_from_u64(9);
    let mut changed = 0;
    for seed in 0..100u64 {
        let spec = SyntheticSpec {
            width: rng.random_range(4..=10),
            depth: rng.random_range(3..=5),
            ordering: Ordering::FirstBest { p: 0.5 },
            value_spread: 1000,
            horizon_noise: 20,
        };
        let depth = spec.depth;
        let tree = SyntheticTree::new(spec, seed).unwrap();
        let config = PmwsConfig {
            depth,
            progressive: seed % 2 == 0,
        };
        let mut machine = MachineConfig::new(
            ProcessorTree::new(4, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        );
        machine.reads = ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::Interrupt,
        };
        let plain = run_scheme(&PmwsScheme(config), &tree, machine.clone()).unwrap();
        let off = run_scheme(
            &PmwsIxScheme(config, Plain { broadcast: false }),
            &tree,
            machine.clone(),
        )
        .unwrap();
        assert_eq!(plain.stats.makespan, off.stats.makespan);
        assert_eq!(plain.stats.messages, off.stats.messages);
        assert_eq!(plain.stats.total_nodes(), off.stats.total_nodes());
        let on = run_scheme(
            &PmwsIxScheme(config, Plain { broadcast: true }),
            &tree,
            machine,
        )
        .unwrap();
        assert_eq!(on.root_value, plain.root_value);
        let inter_node = |s: &sim_core::RunStats| s.messages.count(sim_core::MsgKind::InterNode);
        assert!(inter_node(&on.stats) >= inter_node(&plain.stats));
        if on.stats.total_nodes() != plain.stats.total_nodes() {
            changed += 1;
        }
    }
    assert!(
        changed > 10,
        "broadcast changed the search on {changed} trees of 100"
    );
}
