//! Split points in shared memory (`ybwc_shared`, `dts`) on pools of processors with a shared
//! memory: negamax's root value on random trees of every ordering, on 1, 2, 3, 4 and 8
//! processors, with random memory costs (latencies including 0, one bank or many, NUMA
//! sometimes) and with or without timing noise; every processor's time accounted; batched runs
//! equal step-by-step runs; memory time and lock contention really happen; on one processor
//! both are plain alpha-beta.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::{Category, SimTime};
use sim_hw::{CostModel, Jitter, LinkSpec, MachineConfig, MemorySpec, Numa, Platform, PoolNetwork};

const COUNTS: [usize; 5] = [1, 2, 3, 4, 8];

fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
    common::random_tree_up_to(rng, seed, 8, 200, 10)
}

/// A random shared memory: read and write latencies from 0 (free) to a few leaf costs, 1 to 64
/// banks, NUMA in a third of the cases.
fn random_memory(rng: &mut SplitMix64, n: usize) -> MemorySpec {
    let lat = |rng: &mut SplitMix64| {
        if rng.random_bool(0.2) {
            SimTime::ZERO
        } else {
            SimTime(rng.random_range(1..30))
        }
    };
    MemorySpec {
        read: lat(rng),
        write: lat(rng),
        banks: if rng.random_bool(0.5) {
            rng.random_range(1..=3)
        } else {
            rng.random_range(4..=64)
        },
        numa: rng.random_bool(0.33).then(|| Numa {
            per_node: rng.random_range(1..=n.max(1) as u32),
            remote_permille: rng.random_range(1000..4000),
        }),
    }
}

/// A pool of `n` on fully connected lines (Campbell's ideal machine or random costs and lines,
/// [`common::machine_on`]), with a random shared memory and, half the time, timing noise.
fn machine(rng: &mut SplitMix64, n: usize) -> MachineConfig {
    let mut m = common::machine_on(rng, Platform::pool(n, PoolNetwork::FullyConnected));
    m.memory = Some(random_memory(rng, n));
    if rng.random_bool(0.5) {
        m.jitter = Some(Jitter {
            permille: rng.random_range(0..=500),
            seed: rng.random(),
        });
    }
    m
}

/// Either scheme with random options.
#[derive(Clone, Copy, Debug)]
enum Which {
    Ybwc(YbwcConfig),
    Dts(DtsConfig),
}

fn random_scheme(rng: &mut SplitMix64, depth: u32, seed: u64) -> Which {
    if rng.random_bool(0.5) {
        Which::Ybwc(YbwcConfig {
            depth,
            victim: if rng.random_bool(0.5) {
                Victim::Random
            } else {
                Victim::RoundRobin
            },
            window_updates: rng.random_bool(0.5),
            helpful_master: rng.random_bool(0.7),
            min_split_depth: rng.random_range(0..=2),
            seed,
        })
    } else {
        Which::Dts(DtsConfig {
            depth,
            window_updates: rng.random_bool(0.5),
            helpful_master: rng.random_bool(0.7),
            min_split_depth: rng.random_range(0..=2),
        })
    }
}

type Run<'t> = SchemeRun<SplitRole<'t, SyntheticTree>>;

fn run<'t>(which: Which, tree: &'t SyntheticTree, m: MachineConfig) -> Run<'t> {
    match which {
        Which::Ybwc(c) => run_scheme(&YbwcShared(c), tree, m),
        Which::Dts(c) => run_scheme(&Dts(c), tree, m),
    }
    .unwrap_or_else(|e| panic!("{which:?}: {e}"))
}

fn totals(r: &Run<'_>) -> SplitCounts {
    let mut t = SplitCounts::default();
    for c in r.roles.iter().map(|r| r.counts()) {
        t.examined += c.examined;
        t.misses += c.misses;
        t.joins += c.joins;
        t.given += c.given;
        t.lock_acquires += c.lock_acquires;
        t.lock_waits += c.lock_waits;
        t.aborts += c.aborts;
        t.windows += c.windows;
    }
    t
}

#[test]
fn split_points_in_shared_memory_return_negamax_and_account_every_nanosecond() {
    let mut rng = SplitMix64::seed_from_u64(23);
    let (mut runs, mut given, mut aborts, mut waits, mut memory_ns) = (0u64, 0, 0, 0, 0u64);
    let (mut ybwc_runs, mut dts_runs) = (0, 0);
    for seed in 0..1000u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for n in COUNTS {
            let which = random_scheme(&mut rng, depth, seed);
            let m = machine(&mut rng, n);
            let memory = m.memory;
            let r = run(which, &tree, m);
            assert_eq!(
                r.root_value,
                Some(expected),
                "seed {seed}, {which:?} on {n}, {memory:?}, {:?}",
                tree.spec()
            );
            assert!(r.roles[0]
                .finished_at()
                .is_some_and(|t| t <= r.stats.makespan));
            // The root move chosen is one whose value is the root's.
            let root = tree.root();
            let chosen = match which {
                Which::Ybwc(c) => YbwcShared(c).root_move(&r.roles),
                Which::Dts(c) => Dts(c).root_move(&r.roles),
            }
            .expect("a root move");
            let child = tree.play(&root, tree.moves(&root).get(chosen));
            assert_eq!(
                -negamax(&tree, &child, depth - 1),
                expected,
                "seed {seed}, {which:?} on {n}: move {chosen}"
            );
            for (p, stats) in r.stats.procs.iter().enumerate() {
                assert_eq!(
                    stats.times.total(),
                    r.stats.makespan.as_nanos(),
                    "seed {seed}, {which:?} on {n}: P{p}'s categories {:?}",
                    stats.times
                );
                memory_ns += stats.times.get(Category::Memory);
            }
            assert_eq!(r.stats.messages.count.iter().sum::<u64>(), 0);
            let t = totals(&r);
            // Every son taken was handed out, and every lock taken was released by the run's
            // accounting: joins = sons given; an acquisition per join, result or shared fold.
            assert_eq!(t.joins, t.given, "seed {seed}, {which:?} on {n}");
            assert!(t.lock_acquires >= t.joins);
            let windows_on = match which {
                Which::Ybwc(c) => c.window_updates,
                Which::Dts(c) => c.window_updates,
            };
            if !windows_on {
                assert_eq!(
                    t.windows, 0,
                    "seed {seed}: window updates written while off"
                );
            }
            match which {
                Which::Ybwc(_) => ybwc_runs += 1,
                Which::Dts(_) => dts_runs += 1,
            }
            given += t.given;
            aborts += t.aborts;
            waits += t.lock_waits;
            runs += 1;
        }
    }
    eprintln!(
        "{runs} runs ({ybwc_runs} ybwc_shared, {dts_runs} dts), {given} sons given, {aborts} \
         aborts, {waits} failed test-and-sets, {memory_ns} ns of memory time"
    );
    assert!(ybwc_runs > runs / 4 && dts_runs > runs / 4);
    assert!(given > runs && aborts > runs / 20 && waits > 0 && memory_ns > 0);
}

/// On one processor nothing is ever split: exactly alpha-beta's nodes, value and time, and no
/// memory access (so no memory is needed).
#[test]
fn on_one_processor_both_are_alphabeta() {
    let mut rng = SplitMix64::seed_from_u64(5);
    for seed in 0..200u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let costs = CostModel::campbell();
        let (value, work) = sim_hw::run_alone(
            &mut AlphaBeta::new(&tree, tree.root(), -INF, INF, depth),
            &costs,
        );
        let which = random_scheme(&mut rng, depth, seed);
        let m = MachineConfig::pool(1, PoolNetwork::FullyConnected, costs, LinkSpec::ideal());
        let r = run(which, &tree, m);
        assert_eq!(r.root_value, Some(value), "seed {seed}");
        assert_eq!(r.stats.total_nodes(), work.nodes, "seed {seed}");
        assert_eq!(r.stats.makespan, work.time, "seed {seed}");
    }
}

#[test]
fn batching_on_and_off_give_the_same_runs_but_for_the_event_count() {
    let mut rng = SplitMix64::seed_from_u64(31);
    for seed in 0..1000u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let n = COUNTS[rng.random_range(0..COUNTS.len())];
        let which = random_scheme(&mut rng, depth, seed);
        let mut on = machine(&mut rng, n);
        on.record_intervals = true;
        let mut off = on.clone();
        off.batching = false;
        let a = run(which, &tree, on);
        let b = run(which, &tree, off);
        let what = format!("seed {seed}, {which:?} on {n}");
        assert_eq!(a.root_value, b.root_value, "{what}");
        assert_eq!(a.stats.makespan, b.stats.makespan, "{what}");
        for (x, y) in a.stats.procs.iter().zip(&b.stats.procs) {
            assert_eq!(x.times, y.times, "{what}");
            assert_eq!(x.nodes, y.nodes, "{what}");
            assert_eq!(x.intervals, y.intervals, "{what}");
        }
        assert_eq!(a.stats.memory, b.stats.memory, "{what}");
        assert_eq!(a.stats.markers, b.stats.markers, "{what}");
        assert_eq!(totals(&a), totals(&b), "{what}");
        let (fa, fb) = match which {
            Which::Ybwc(c) => (
                YbwcShared(c).figures(&a.roles),
                YbwcShared(c).figures(&b.roles),
            ),
            Which::Dts(c) => (Dts(c).figures(&a.roles), Dts(c).figures(&b.roles)),
        };
        assert_eq!(fa, fb, "{what}");
        assert!(a.stats.events <= b.stats.events);
    }
}

/// Memory costs time, contention shows: on 8 processors with one slow bank, locks are waited
/// for and the memory category is large; with free memory the same runs spend no memory time
/// but spins of failed test-and-sets.
#[test]
fn memory_time_and_lock_contention_are_real() {
    let spec = SyntheticSpec {
        width: 6,
        depth: 5,
        ordering: Ordering::FirstBest { p: 0.8 },
        value_spread: 1000,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 9).unwrap();
    let costs = CostModel {
        k: SimTime(30),
        e: SimTime(100),
        ..CostModel::campbell()
    };
    let on = |read: u64, write: u64, banks: u32| {
        let mut m = MachineConfig::pool(8, PoolNetwork::FullyConnected, costs, LinkSpec::ideal());
        m.memory = Some(MemorySpec {
            read: SimTime(read),
            write: SimTime(write),
            banks,
            numa: None,
        });
        m
    };
    for which in [
        Which::Ybwc(YbwcConfig::new(5, 1)),
        Which::Dts(DtsConfig::new(5)),
    ] {
        let slow = run(which, &tree, on(40, 60, 1));
        let fast = run(which, &tree, on(1, 1, 64));
        let mem = |r: &Run<'_>| {
            r.stats
                .procs
                .iter()
                .map(|p| p.times.get(Category::Memory))
                .sum::<u64>()
        };
        let (ts, tf) = (totals(&slow), totals(&fast));
        eprintln!(
            "{which:?}: slow memory {} ns (makespan {}), {ts:?}; fast memory {} ns (makespan \
             {}), {tf:?}; bank wait {} ns",
            mem(&slow),
            slow.stats.makespan,
            mem(&fast),
            fast.stats.makespan,
            slow.stats.memory.bank_wait_ns
        );
        assert!(ts.lock_waits > 0, "{which:?}: no lock contention");
        assert!(slow.stats.memory.bank_wait_ns > 0);
        assert!(mem(&slow) > 10 * mem(&fast), "{which:?}");
        assert!(slow.stats.makespan > fast.stats.makespan, "{which:?}");
        assert!(ts.given > 8 && tf.given > 8, "{which:?}: hardly split");
    }
}

/// Without a shared memory, a run that needs one (more than one processor) fails with a clear
/// error rather than running without its costs.
#[test]
fn more_than_one_processor_needs_a_shared_memory() {
    let tree = SyntheticTree::new(
        SyntheticSpec {
            width: 4,
            depth: 4,
            ordering: Ordering::Random,
            value_spread: 100,
            horizon_noise: 0,
        },
        3,
    )
    .unwrap();
    let m = MachineConfig::pool(
        4,
        PoolNetwork::FullyConnected,
        CostModel::campbell(),
        LinkSpec::ideal(),
    );
    match run_scheme(&Dts(DtsConfig::new(4)), &tree, m) {
        Err(e) => assert!(e.to_string().contains("shared memory"), "{e}"),
        Ok(_) => panic!("ran without a shared memory"),
    }
    assert!(matches!(
        run_scheme(
            &YbwcShared(YbwcConfig::new(0, 0)),
            &tree,
            MachineConfig::pool(
                1,
                PoolNetwork::FullyConnected,
                CostModel::campbell(),
                LinkSpec::ideal()
            )
        ),
        Err(SchemeError::Deploy(DeployError::NoDepth { .. }))
    ));
}

/// Hyatt's global choice and the victim's differ: dts examines every other processor per try.
#[test]
fn dts_examines_every_processor_and_ybwc_shared_one() {
    let spec = SyntheticSpec {
        width: 6,
        depth: 5,
        ordering: Ordering::FirstBest { p: 0.8 },
        value_spread: 1000,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 4).unwrap();
    let mut m = MachineConfig::pool(
        4,
        PoolNetwork::FullyConnected,
        CostModel::campbell(),
        LinkSpec::ideal(),
    );
    m.memory = Some(MemorySpec {
        read: SimTime(0),
        write: SimTime(0),
        banks: 16,
        numa: None,
    });
    let d = run(Which::Dts(DtsConfig::new(5)), &tree, m.clone());
    let y = run(Which::Ybwc(YbwcConfig::new(5, 2)), &tree, m);
    let (td, ty) = (totals(&d), totals(&y));
    // A dts try reads 3 lists and ends in a join or a miss; a ybwc_shared try reads one.
    // (The stop word may cut the last tries short.)
    let (tries_d, tries_y) = (td.joins + td.misses, ty.joins + ty.misses);
    assert!(
        (3 * tries_d..=3 * (tries_d + 4)).contains(&td.examined),
        "{td:?}"
    );
    assert!((tries_y..=tries_y + 4).contains(&ty.examined), "{ty:?}");
    assert!(tries_d > 0 && tries_y > 0);
}
