//! pmws with the options of Marsland & Popowich's section IX (`pmws_broadcast`,
//! `pmws_research`, `pmws_defer` and their combinations): negamax's root value on every tree,
//! processor count and machine, with and without progressive deepening; every processor's time
//! accounted; batching changes nothing but the event count; with the options off it is pmws
//! exactly; each option changes the search on some trees.

mod common;

use algorithms::*;
use rand::Rng;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies, ReadPolicy};

/// Every combination of the three options but none.
fn options(rng: &mut algorithms::rng::SplitMix64) -> Plain {
    let k = rng.random_range(1..8u32);
    Plain {
        broadcast: k & 1 != 0,
        parallel_research: k & 2 != 0,
        defer: k & 4 != 0,
    }
}

fn with_options(tree: &SyntheticTree, rng: &mut algorithms::rng::SplitMix64) -> PmwsIxScheme {
    PmwsIxScheme(
        PmwsConfig {
            depth: tree.spec().depth,
            progressive: rng.random_bool(0.5),
        },
        options(rng),
    )
}

/// A tree of the tests below: width and depth drawn from `rng` (in that order), the first move
/// best with probability `p`.
fn random_spec(
    rng: &mut algorithms::rng::SplitMix64,
    widths: std::ops::RangeInclusive<u32>,
    depths: std::ops::RangeInclusive<u32>,
    p: f64,
) -> SyntheticSpec {
    SyntheticSpec {
        width: rng.random_range(widths),
        depth: rng.random_range(depths),
        ordering: Ordering::FirstBest { p },
        value_spread: 1000,
        horizon_noise: 20,
    }
}

#[test]
fn pmws_section_ix_options_return_negamax_on_1000_trees_and_every_processor_count() {
    let runs = common::returns_negamax_everywhere(7, 1000, with_options, |_, run, _| {
        assert!(run.roles[0]
            .finished_at()
            .is_some_and(|t| t <= run.stats.makespan));
    });
    assert_eq!(runs, 5000);
}

#[test]
fn pmws_section_ix_batched_runs_equal_step_by_step_runs() {
    common::batching_changes_nothing_but_events(8, 400, with_options);
}

/// Off, the options change nothing: the same run as pmws. Each on its own (children that read
/// on arrival) changes the search on some trees, and keeps the root value.
#[test]
fn off_it_is_pmws_and_each_option_changes_the_search() {
    let mut rng = <algorithms::rng::SplitMix64 as rand::SeedableRng>::seed_from_u64(9);
    let mut changed = [0; 3];
    for seed in 0..100u64 {
        let spec = random_spec(&mut rng, 4..=10, 3..=5, 0.5);
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
            &PmwsIxScheme(config, Plain::default()),
            &tree,
            machine.clone(),
        )
        .unwrap();
        assert_eq!(plain.stats.makespan, off.stats.makespan);
        assert_eq!(plain.stats.messages, off.stats.messages);
        assert_eq!(plain.stats.total_nodes(), off.stats.total_nodes());
        let each = [
            Plain {
                broadcast: true,
                ..Plain::default()
            },
            Plain {
                parallel_research: true,
                ..Plain::default()
            },
            Plain {
                defer: true,
                ..Plain::default()
            },
        ];
        for (k, options) in each.into_iter().enumerate() {
            let on = run_scheme(&PmwsIxScheme(config, options), &tree, machine.clone()).unwrap();
            assert_eq!(on.root_value, plain.root_value);
            if on.stats.total_nodes() != plain.stats.total_nodes() {
                changed[k] += 1;
            }
        }
    }
    assert!(
        changed.iter().all(|&c| c > 10),
        "each option changed the search on {changed:?} trees of 100"
    );
    let name = |options| {
        Scheme::<SyntheticTree>::name(&PmwsIxScheme(
            PmwsConfig {
                depth: 3,
                progressive: true,
            },
            options,
        ))
    };
    assert_eq!(name(Plain::default()), "pmws");
    assert_eq!(
        name(Plain {
            broadcast: true,
            defer: true,
            ..Plain::default()
        }),
        "pmws_broadcast_research_defer"
    );
}

/// On a bus, a new bound for two busy children or more goes as one broadcast frame (counted
/// once, received by every other processor); on lines, as one message per busy child. The
/// root value is negamax's either way.
#[test]
fn on_a_bus_the_new_bound_is_one_broadcast_frame() {
    use sim_hw::{BusSpec, Platform, PoolNetwork};
    let mut rng = <algorithms::rng::SplitMix64 as rand::SeedableRng>::seed_from_u64(21);
    let mut frames = 0;
    for seed in 0..60u64 {
        let spec = random_spec(&mut rng, 6..=10, 3..=5, 0.5);
        let tree = SyntheticTree::new(spec, seed).unwrap();
        let expected = negamax(&tree, &tree.root(), tree.spec().depth);
        let costs = CostModel {
            k: sim_core::SimTime(2),
            e: sim_core::SimTime(10),
            q: sim_core::SimTime::ZERO,
            probe: sim_core::SimTime::ZERO,
            s: sim_core::SimTime(1),
            interrupt: sim_core::SimTime(1),
        };
        let scheme = |broadcast| {
            PmwsIxScheme(
                PmwsConfig {
                    depth: tree.spec().depth,
                    progressive: false,
                },
                Plain {
                    broadcast,
                    parallel_research: false,
                    defer: false,
                },
            )
        };
        for (network, broadcast) in [
            (
                PoolNetwork::Bus(BusSpec {
                    rate: 1_000_000_000,
                    header_bytes: 0,
                    min_frame_bytes: 0,
                }),
                true,
            ),
            (PoolNetwork::FullyConnected, true),
            (
                PoolNetwork::Bus(BusSpec {
                    rate: 1_000_000_000,
                    header_bytes: 0,
                    min_frame_bytes: 0,
                }),
                false,
            ),
        ] {
            let platform = Platform::Overlay {
                tree: ProcessorTree::new(6, 1),
                network,
            };
            let mut m = MachineConfig::on(platform, costs, LinkSpec::serial(1_000_000_000, false));
            m.reads = ReadPolicies {
                hosts: ReadPolicy::Interrupt,
                boards: ReadPolicy::Interrupt,
            };
            m.record_messages = true;
            let run = run_scheme(&scheme(broadcast), &tree, m).unwrap();
            assert_eq!(run.root_value, Some(expected), "seed {seed}, {network:?}");
            let counted: u64 = run.stats.messages.count.iter().sum();
            let logged = run.stats.message_log.len() as u64;
            let bus = matches!(network, PoolNetwork::Bus(_));
            if bus && broadcast {
                // A broadcast frame is counted once and logged once per receiver (5 here).
                assert_eq!((logged - counted) % 4, 0, "seed {seed}");
                frames += (logged - counted) / 4;
            } else {
                assert_eq!(logged, counted, "seed {seed}, {network:?}, {broadcast}");
            }
        }
    }
    assert!(frames > 0, "no bound went as a broadcast frame");
}

/// Fig. 1's PVS, written out here as the reference, with one difference: a leaf that fails high
/// is not evaluated again (its value is exact). Counts leaves and interior nodes.
fn pvs_reference(
    tree: &SyntheticTree,
    node: &<SyntheticTree as GameTree>::Node,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    counts: &mut (u64, u64),
) -> Value {
    let moves = tree.moves(node);
    if depth == 0 || moves.is_empty() {
        counts.0 += 1;
        return tree.evaluate(node).value;
    }
    counts.1 += 1;
    let child = |i: usize| tree.play(node, moves.get(i));
    let mut score = -pvs_reference(tree, &child(0), -beta, -alpha, depth - 1, counts);
    for i in 1..moves.len() {
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
        let value = -pvs_reference(tree, &child(i), -alpha - 1, -alpha, depth - 1, counts);
        if value > alpha && value < beta && depth > 1 {
            score = -pvs_reference(tree, &child(i), -beta, -value, depth - 1, counts);
        } else {
            score = score.max(value);
        }
    }
    score
}

/// A successor re-searched by every processor inherits its PV node's bound, as PVS's re-search
/// `-pvs(posn[i], -beta, -value)` does (paper Fig. 1), and a leaf that fails high is not
/// evaluated twice: on one processor, where the master tests and re-searches alone,
/// `pmws_research` is then PVS node for node (an open window would visit more).
#[test]
fn on_one_processor_a_parallel_research_searches_as_pvs() {
    let mut rng = <algorithms::rng::SplitMix64 as rand::SeedableRng>::seed_from_u64(31);
    let mut researched = 0;
    for seed in 0..300u64 {
        let spec = random_spec(&mut rng, 2..=9, 2..=6, 0.4);
        let depth = spec.depth;
        let tree = SyntheticTree::new(spec, seed).unwrap();
        let mut counts = (0, 0);
        let value = pvs_reference(&tree, &tree.root(), -INF, INF, depth, &mut counts);
        let config = PmwsConfig {
            depth,
            progressive: false,
        };
        let machine = MachineConfig::new(
            ProcessorTree::new(1, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        );
        let research = Plain {
            parallel_research: true,
            ..Plain::default()
        };
        let run = run_scheme(&PmwsIxScheme(config, research), &tree, machine).unwrap();
        assert_eq!(run.root_value, Some(value), "seed {seed}");
        let nodes = run.stats.total_nodes();
        assert_eq!(
            (nodes.leaves, nodes.interior),
            counts,
            "seed {seed}: {:?}",
            tree.spec()
        );
        let marks = &run.stats.markers;
        if marks.iter().any(|m| m.label.contains("re-searches")) {
            researched += 1;
        }
    }
    assert!(researched > 50, "{researched} of 300 trees had a re-search");
}
