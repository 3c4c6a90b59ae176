//! What the property tests of the issue-17 schemes (baudet, mwf, aphid) share: random trees of
//! every ordering, random machines (Campbell's ideal one, or costs, serial lines and random read
//! policies, so that messages cross at awkward moments), and the three checks every scheme must
//! pass: the sequential root value on every tree and processor count, every processor's time
//! categories adding up to the makespan, and batched runs equal to step-by-step runs.

#![allow(dead_code)]

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::SimTime;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies, ReadPolicy};

/// The processor counts every scheme is checked on.
pub const PROCESSORS: [u32; 5] = [1, 2, 3, 4, 8];

/// A synthetic tree of width 2-8 and depth 2-6 with a random ordering (random, perfect,
/// first-best with any p, geometric with any p), a small or large value spread (small ones make
/// ties frequent) and some horizon noise (interior evaluations that are estimates).
pub fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
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
        value_spread: rng.random_range(1..=1000),
        horizon_noise: rng.random_range(0..=30),
    };
    SyntheticTree::new(spec, seed).unwrap()
}

/// A star of `p` processors (a master and p − 1 workers), as the paper's tree of fanout p and
/// length 1 or as Campbell's of depth 1 and width p − 1, on Campbell's ideal machine or on one
/// with costs, serial lines and random read policies.
pub fn machine(rng: &mut SplitMix64, p: u32) -> MachineConfig {
    let ptree = if p > 1 && rng.random_bool(0.5) {
        ProcessorTree::campbell(1, p - 1)
    } else {
        ProcessorTree::new(p, 1)
    };
    if rng.random_bool(0.4) {
        return MachineConfig::new(ptree, CostModel::campbell(), LinkSpec::ideal());
    }
    let costs = CostModel {
        k: SimTime(rng.random_range(0..5)),
        e: SimTime(rng.random_range(1..20)),
        q: SimTime::ZERO,
        probe: SimTime(rng.random_range(0..2)),
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

/// `trees` random trees, each on every processor count of [`PROCESSORS`]: the scheme `make`
/// builds for the tree returns negamax's root value, and every processor's categories add up
/// to the makespan. `check` sees every run as well (a scheme's own assertions). Returns the
/// number of runs.
pub fn returns_negamax_everywhere<S, F, C>(seed: u64, trees: u64, make: F, mut check: C) -> usize
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
    C: FnMut(&SyntheticTree, &SchemeRun<<S as Scheme<'_, SyntheticTree>>::Role>, Value),
{
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut runs = 0;
    for n in 0..trees {
        let tree = random_tree(&mut rng, seed * 100_000 + n);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for p in PROCESSORS {
            let scheme = make(&tree, &mut rng);
            let config = machine(&mut rng, p);
            let at = format!(
                "tree {n}, {} on {p} processors, {:?}, {:?}",
                scheme.name(),
                tree.spec(),
                config.reads
            );
            let run = run_scheme(&scheme, &tree, config).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(run.root_value, Some(expected), "{at}");
            assert_eq!(run.stats.procs.len(), p as usize, "{at}");
            for (q, stats) in run.stats.procs.iter().enumerate() {
                assert_eq!(
                    stats.times.total(),
                    run.stats.makespan.as_nanos(),
                    "{at}: P{q}'s categories {:?}",
                    stats.times
                );
            }
            check(&tree, &run, expected);
            runs += 1;
        }
    }
    runs
}

/// `trees` random runs with batching on and off: equal in every column but the event count.
pub fn batching_changes_nothing_but_events<S, F>(seed: u64, trees: u64, make: F)
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    batching_check(seed, trees, make, true)
}

/// [`batching_changes_nothing_but_events`], with masters (processors with children) that never
/// poll: sim-hw's lookahead lets a polling processor's search batch run past poll points while
/// messages already wait in its inbox (they arrived while it was computing between searches),
/// where a step-by-step run reads them at the first poll point. Schemes whose master both
/// searches and computes between searches (mwf) meet it; see the branch's report.
pub fn batching_changes_nothing_but_events_without_polling_masters<S, F>(
    seed: u64,
    trees: u64,
    make: F,
) where
    S: for<'t> Scheme<'t, SyntheticTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    batching_check(seed, trees, make, false)
}

fn batching_check<S, F>(seed: u64, trees: u64, make: F, polling_masters: bool)
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    let mut rng = SplitMix64::seed_from_u64(seed);
    for n in 0..trees {
        let tree = random_tree(&mut rng, seed * 100_000 + n);
        let scheme = make(&tree, &mut rng);
        let p = PROCESSORS[rng.random_range(0..PROCESSORS.len())];
        let mut on = machine(&mut rng, p);
        if !polling_masters && matches!(on.reads.hosts, ReadPolicy::Poll { .. }) {
            on.reads.hosts = ReadPolicy::Interrupt;
        }
        on.record_intervals = true;
        on.record_messages = true;
        let mut off = on.clone();
        off.batching = false;
        let a = run_scheme(&scheme, &tree, on).unwrap();
        let b = run_scheme(&scheme, &tree, off).unwrap();
        let at = format!("tree {n}, {} on {p}", scheme.name());
        assert_eq!(a.root_value, b.root_value, "{at}");
        assert_eq!(a.stats.makespan, b.stats.makespan, "{at}");
        for (x, y) in a.stats.procs.iter().zip(&b.stats.procs) {
            assert_eq!(x.times, y.times, "{at}");
            assert_eq!(x.nodes, y.nodes, "{at}");
            assert_eq!(x.intervals, y.intervals, "{at}");
        }
        assert_eq!(a.stats.messages, b.stats.messages, "{at}");
        assert_eq!(a.stats.message_log, b.stats.message_log, "{at}");
        assert!(a.stats.events <= b.stats.events, "{at}");
    }
}
