//! Tree schemes on a processor tree laid over a pool network (`Platform::Overlay`), compared with
//! the same processor tree on its own lines (`Platform::Tree`):
//!
//! - over fully connected lines of the same serial spec, pmws and tree-splitting give the same
//!   run as on the tree's own lines — value, makespan, every processor's categories, nodes and
//!   intervals, every message's times — when the lines have no RTS/CTS or every host (processor
//!   with children) reads on interrupt;
//! - with RTS/CTS and hosts that poll or read when idle they may not: a pool's lines hold a
//!   message on its last hop until its receiver is ready to read in both directions
//!   (`Network::pool`), a processor tree's lines only from parent to child (`Network::tree`), so
//!   on the overlay a child's result waits for its host to be ready before it goes on the line.
//!   The value is the same; the runs that differ become equal when only RTS/CTS is turned off,
//!   or only the hosts read on interrupt;
//! - a bus is one medium: its frames never overlap in time, where lines of the same rate carry
//!   messages at once, and messages wait longer for it.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::{RunStats, SimTime};
use sim_hw::{
    BusSpec, CostModel, LinkSpec, MachineConfig, Platform, PoolNetwork, ProcessorTree,
    ReadPolicies, ReadPolicy,
};

/// pmws (on a star) or tree-splitting (any shape, ± update), at random.
enum TreeScheme {
    Pmws(PmwsScheme),
    Split(TreeSplit),
}

fn run(
    scheme: &TreeScheme,
    tree: &SyntheticTree,
    config: MachineConfig,
) -> (Option<Value>, RunStats) {
    match scheme {
        TreeScheme::Pmws(s) => {
            let r = run_scheme(s, tree, config).unwrap();
            (r.root_value, r.stats)
        }
        TreeScheme::Split(s) => {
            let r = run_scheme(s, tree, config).unwrap();
            (r.root_value, r.stats)
        }
    }
}

/// Everything a run reports but the event count.
fn same_run(a: &RunStats, b: &RunStats) -> bool {
    a.makespan == b.makespan
        && a.procs.len() == b.procs.len()
        && a.procs
            .iter()
            .zip(&b.procs)
            .all(|(x, y)| (x.times, x.nodes, &x.intervals) == (y.times, y.nodes, &y.intervals))
        && a.messages == b.messages
        && a.message_log == b.message_log
        && a.markers == b.markers
}

/// Random costs, a serial line (RTS/CTS or not) and read policies for hosts and boards.
fn machine(rng: &mut SplitMix64, platform: Platform, rts: bool) -> MachineConfig {
    let policies = [
        ReadPolicy::Interrupt,
        ReadPolicy::Poll { every: 1 },
        ReadPolicy::Poll { every: 7 },
        ReadPolicy::WhenIdle,
    ];
    let mut config = MachineConfig::on(
        platform,
        common::random_costs(rng),
        LinkSpec::serial(rng.random_range(100_000_000..2_000_000_000), rts),
    );
    config.reads = ReadPolicies {
        hosts: policies[rng.random_range(0..policies.len())],
        boards: policies[rng.random_range(0..policies.len())],
    };
    config.record_intervals = true;
    config.record_messages = true;
    config
}

fn overlay(config: &MachineConfig) -> MachineConfig {
    let mut o = config.clone();
    o.platform = Platform::Overlay {
        tree: config.tree().unwrap().clone(),
        network: PoolNetwork::FullyConnected,
    };
    o
}

#[test]
fn a_tree_over_fully_connected_lines_runs_as_on_its_own_lines_unless_rts_cts_holds_results() {
    let mut rng = SplitMix64::seed_from_u64(41);
    let (mut equal, mut differ) = (0, 0);
    for n in 0..1000u64 {
        let tree = common::random_tree(&mut rng, n);
        let depth = tree.spec().depth;
        let p = common::PROCESSORS[rng.random_range(0..common::PROCESSORS.len())];
        let (scheme, ptree) = if rng.random_bool(0.5) {
            let s = PmwsScheme(PmwsConfig {
                depth,
                progressive: rng.random_bool(0.5),
            });
            (TreeScheme::Pmws(s), common::star(&mut rng, p))
        } else {
            let s = TreeSplit(TreeSplitConfig {
                depth,
                update: rng.random_bool(0.5),
            });
            (TreeScheme::Split(s), common::any_shape(&mut rng, p))
        };
        let rts = rng.random_bool(0.5);
        let on_tree = machine(&mut rng, Platform::Tree(ptree), rts);
        let on_lines = overlay(&on_tree);
        let (v, a) = run(&scheme, &tree, on_tree.clone());
        let (w, b) = run(&scheme, &tree, on_lines.clone());
        let at = format!("tree {n} on {p}, rts {rts}, {:?}", on_tree.reads);
        assert_eq!(v, Some(negamax(&tree, &tree.root(), depth)), "{at}");
        assert_eq!(v, w, "{at}");
        if !rts || on_tree.reads.hosts == ReadPolicy::Interrupt {
            assert!(same_run(&a, &b), "{at}: {a:?}\n{b:?}");
            equal += 1;
        } else if !same_run(&a, &b) {
            // Only RTS/CTS in the child-to-parent direction, for a host not ready to read,
            // makes the difference: without either, the runs are the same again.
            let mut interrupt = (on_tree.clone(), on_lines.clone());
            interrupt.0.reads.hosts = ReadPolicy::Interrupt;
            interrupt.1.reads.hosts = ReadPolicy::Interrupt;
            let mut no_rts = (on_tree.clone(), on_lines.clone());
            no_rts.0.links = vec![LinkSpec {
                rts_cts: false,
                ..no_rts.0.links[0]
            }];
            no_rts.1.links = no_rts.0.links.clone();
            for (x, y) in [interrupt, no_rts] {
                let (_, a) = run(&scheme, &tree, x);
                let (_, b) = run(&scheme, &tree, y);
                assert!(same_run(&a, &b), "{at}");
            }
            // On the overlay some result waited for its host with the line free; never on the
            // tree's lines.
            let ptree = on_tree.tree().unwrap();
            assert_eq!(held_upward(ptree, &a), 0, "{at}");
            assert!(held_upward(ptree, &b) > 0, "{at}: no result held");
            differ += 1;
        }
    }
    // Both cases occur (the test can tell them apart).
    eprintln!("{equal} runs equal, {differ} differ (RTS/CTS with hosts not on interrupt)");
    assert!(equal > 400 && differ > 20, "{equal} equal, {differ} differ");
}

/// Messages from a child to its parent that went on their line later than both their posting
/// and the end of the line's previous message: held by RTS/CTS.
fn held_upward(ptree: &ProcessorTree, stats: &RunStats) -> usize {
    let log = &stats.message_log;
    log.iter()
        .filter(|m| ptree.parent(m.from) == Some(m.to))
        .filter(|m| {
            let free = log
                .iter()
                .filter(|o| (o.from, o.to) == (m.from, m.to) && o.transmit_start < m.transmit_start)
                .map(|o| o.arrived)
                .max()
                .unwrap_or(SimTime::ZERO);
            m.transmit_start > m.sent.max(free)
        })
        .count()
}

/// pmws or tree-splitting on a star of 4 or 8 over a slow bus and over fully connected lines of
/// the same rate (frames of exactly a message's bytes, so one message takes as long on either):
/// the bus's frames never overlap in time, lines carry messages at once, and messages wait
/// longer for the bus in all (the master hands work to several children at once, and results
/// come back at once).
#[test]
fn a_bus_carries_one_frame_at_a_time_and_messages_wait_longer_for_it_than_for_lines() {
    let mut rng = SplitMix64::seed_from_u64(43);
    let (mut waited_bus, mut waited_lines) = (0u64, 0u64);
    let mut lines_overlap = 0;
    for n in 0..200u64 {
        let tree = common::random_tree(&mut rng, n);
        let depth = tree.spec().depth;
        let rate = rng.random_range(1_000_000..20_000_000); // 50-1000 ns a byte
        let costs = CostModel {
            e: SimTime(rng.random_range(100..2000)),
            s: SimTime(rng.random_range(0..50)),
            ..CostModel::campbell()
        };
        let p = [4, 8][rng.random_range(0..2)];
        let scheme = if rng.random_bool(0.5) {
            TreeScheme::Pmws(PmwsScheme(PmwsConfig {
                depth,
                progressive: false,
            }))
        } else {
            TreeScheme::Split(TreeSplit(TreeSplitConfig {
                depth,
                update: true,
            }))
        };
        let star = ProcessorTree::new(p, 1);
        let on = |network| {
            let mut c = MachineConfig::on(
                Platform::Overlay {
                    tree: star.clone(),
                    network,
                },
                costs,
                LinkSpec::serial(rate, false),
            );
            c.reads = ReadPolicies {
                hosts: ReadPolicy::Interrupt,
                boards: ReadPolicy::Interrupt,
            };
            c.record_messages = true;
            c
        };
        // Frames of exactly a message's bytes: the bus and each line take as long per message.
        let bus = PoolNetwork::Bus(BusSpec {
            rate,
            header_bytes: 0,
            min_frame_bytes: 0,
        });
        let (v, b) = run(&scheme, &tree, on(bus));
        let (w, l) = run(&scheme, &tree, on(PoolNetwork::FullyConnected));
        assert_eq!(v, w);
        let mut frames: Vec<_> = b
            .message_log
            .iter()
            .map(|m| (m.transmit_start, m.arrived))
            .collect();
        frames.sort();
        for f in frames.windows(2) {
            assert!(
                f[0].1 <= f[1].0,
                "tree {n}: frames {:?} and {:?} overlap",
                f[0],
                f[1]
            );
        }
        let mut carried: Vec<_> = l
            .message_log
            .iter()
            .map(|m| (m.transmit_start, m.arrived))
            .collect();
        carried.sort();
        if carried.windows(2).any(|f| f[0].1 > f[1].0) {
            lines_overlap += 1;
        }
        let wait = |s: &RunStats| -> u64 {
            s.message_log
                .iter()
                .map(|m| (m.transmit_start - m.sent).as_nanos())
                .sum()
        };
        waited_bus += wait(&b);
        waited_lines += wait(&l);
    }
    eprintln!(
        "lines overlapped in {lines_overlap} of 200 runs; waited {waited_bus} ns on the bus, \
         {waited_lines} ns on lines"
    );
    assert!(
        lines_overlap > 100,
        "lines carried messages at once in {lines_overlap} runs"
    );
    assert!(
        waited_bus > 2 * waited_lines,
        "waiting for the medium: {waited_bus} ns on the bus, {waited_lines} ns on lines"
    );
}
