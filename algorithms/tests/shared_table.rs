//! Lazy SMP and ABDADA on pools of processors with shared memory: negamax's root value on random
//! trees of every ordering, on 1, 2, 3, 4 and 8 processors, with and without the shared table
//! (random sizes, ways, replacement and entry sizes), random memory costs, banks and NUMA, with
//! and without timing noise; every processor's time accounted; batched runs equal step-by-step
//! runs; the memory and the table are really used.
//!
//! Synthetic trees have a key per node (no transpositions), and no processor searches deeper
//! than the last depth d, so every entry deep enough to settle a node of the last iteration holds
//! a bound of the node's exact d-ply value: with the table the value is exact too.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::{Category, SimTime};
use sim_hw::{Jitter, MachineConfig, MemorySpec, Numa, Platform, PoolNetwork};

const COUNTS: [usize; 5] = [1, 2, 3, 4, 8];

/// Trees of width 2-8 and depth 2-6, small value spreads (ties), little horizon noise.
fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
    common::random_tree_up_to(rng, seed, 8, 200, 10)
}

fn random_memory(rng: &mut SplitMix64) -> MemorySpec {
    MemorySpec {
        read: SimTime(rng.random_range(0..20)),
        write: SimTime(rng.random_range(0..30)),
        banks: rng.random_range(1..=8),
        numa: rng.random_bool(0.3).then(|| Numa {
            per_node: rng.random_range(1..=4),
            remote_permille: rng.random_range(1000..=3000),
        }),
    }
}

/// Campbell's ideal machine or random costs, serial lines and read policies (common), on a
/// fully connected pool of `n`, with random shared memory and, half the time, timing noise.
fn machine(rng: &mut SplitMix64, n: usize) -> MachineConfig {
    let mut m = common::machine_on(rng, Platform::pool(n, PoolNetwork::FullyConnected));
    m.memory = Some(random_memory(rng));
    m.jitter = rng.random_bool(0.5).then(|| Jitter {
        permille: rng.random_range(0..=500),
        seed: rng.random(),
    });
    m
}

/// Small tables (so that buckets fill and stores evict), any ways, replacement and entry size.
fn random_table(rng: &mut SplitMix64) -> SharedTableConfig {
    let ways = [1, 2, 4, 8][rng.random_range(0..4)];
    SharedTableConfig {
        entries: ways * rng.random_range(1..=64),
        ways,
        replacement: if rng.random_bool(0.5) {
            Replacement::DepthPreferred
        } else {
            Replacement::Always
        },
        entry_bytes: [8, 16, 32, 64][rng.random_range(0..4)],
    }
}

fn lazy(rng: &mut SplitMix64, depth: u32, table: bool) -> LazySmp {
    LazySmp(LazySmpConfig {
        depth,
        iterative: rng.random_bool(0.8),
        table: table.then(|| random_table(rng)),
        skip: if rng.random_bool(0.7) {
            Skip::Stockfish
        } else {
            Skip::None
        },
        deeper: rng.random_bool(0.5),
        vote: rng.random_bool(0.3),
    })
}

fn abdada(rng: &mut SplitMix64, depth: u32, values: bool) -> Abdada {
    Abdada(AbdadaConfig {
        depth,
        iterative: rng.random_bool(0.8),
        table: random_table(rng),
        values,
    })
}

/// What the runs of a property test added up to.
#[derive(Default, Debug)]
struct Totals {
    runs: u64,
    memory_ns: u64,
    probes: u64,
    hits: u64,
    cutoffs: u64,
    stores: u64,
    overwrites: u64,
    deferred: u64,
}

fn tally<'t, S: Scheme<'t, SyntheticTree>>(t: &mut Totals, scheme: &S, run: &SchemeRun<S::Role>) {
    let f = scheme.figures(&run.roles);
    t.runs += 1;
    t.memory_ns += run
        .stats
        .procs
        .iter()
        .map(|p| p.times.get(Category::Memory))
        .sum::<u64>();
    t.probes += f.get("tt_probes").unwrap_or(0);
    t.hits += f.get("tt_hits").unwrap_or(0);
    t.cutoffs += f.get("tt_cutoffs").unwrap_or(0);
    t.stores += f.get("tt_stores").unwrap_or(0);
    t.overwrites += f.get("tt_overwrites").unwrap_or(0);
    t.deferred += f.get("abdada_deferred").unwrap_or(0);
}

/// Runs `scheme` and checks its value, every processor's accounting and the root move.
fn checked<'t, S: Scheme<'t, SyntheticTree>>(
    scheme: &S,
    tree: &'t SyntheticTree,
    config: MachineConfig,
    expected: Value,
    at: &str,
) -> SchemeRun<S::Role> {
    let run = common::checked_run(scheme, tree, config, expected, at);
    // The chosen move's subtree has the root value.
    let root = tree.root();
    let moves = tree.moves(&root);
    let m = scheme
        .root_move(&run.roles)
        .unwrap_or_else(|| panic!("{at}: no move"));
    let child = tree.play(&root, moves.get(m));
    assert_eq!(
        -negamax(tree, &child, tree.spec().depth - 1),
        expected,
        "{at}: the chosen move {m} is not a best move"
    );
    run
}

#[test]
fn lazy_smp_returns_negamax_with_and_without_the_table() {
    let mut rng = SplitMix64::seed_from_u64(41);
    let (mut with, mut without) = (Totals::default(), Totals::default());
    for seed in 0..250u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for n in COUNTS {
            for table in [false, true] {
                let scheme = lazy(&mut rng, depth, table);
                let config = machine(&mut rng, n);
                let at = format!(
                    "seed {seed}, {:?} on {n}, {config:?}, {:?}",
                    scheme.0,
                    tree.spec()
                );
                let run = checked(&scheme, &tree, config, expected, &at);
                if table {
                    tally(&mut with, &scheme, &run);
                } else {
                    assert_eq!(run.stats.memory.reads + run.stats.memory.writes, 0, "{at}");
                    assert!(scheme.figures(&run.roles).is_empty(), "{at}");
                    tally(&mut without, &scheme, &run);
                }
            }
        }
    }
    eprintln!("lazy_smp with a table: {with:?}\nwithout: {without:?}");
    assert_eq!(without.memory_ns, 0);
    assert!(with.memory_ns > 0 && with.probes > with.runs * 5);
    assert!(with.hits > 0 && with.cutoffs > 0 && with.stores > 0 && with.overwrites > 0);
}

#[test]
fn abdada_returns_negamax_with_and_without_values() {
    let mut rng = SplitMix64::seed_from_u64(43);
    let (mut with, mut without) = (Totals::default(), Totals::default());
    for seed in 0..250u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for n in COUNTS {
            for values in [false, true] {
                let scheme = abdada(&mut rng, depth, values);
                let config = machine(&mut rng, n);
                let at = format!(
                    "seed {seed}, {:?} on {n}, {config:?}, {:?}",
                    scheme.0,
                    tree.spec()
                );
                let run = checked(&scheme, &tree, config, expected, &at);
                let f = scheme.figures(&run.roles);
                if values {
                    tally(&mut with, &scheme, &run);
                } else {
                    assert_eq!(f.get("tt_hits"), Some(0), "{at}: a value-less table hit");
                    assert_eq!(f.get("tt_cutoffs"), Some(0), "{at}");
                    tally(&mut without, &scheme, &run);
                }
                if n == 1 {
                    assert_eq!(f.get("abdada_deferred"), Some(0), "{at}: deferred alone");
                }
            }
        }
    }
    eprintln!("abdada with values: {with:?}\nwithout: {without:?}");
    for t in [&with, &without] {
        assert!(t.memory_ns > 0 && t.probes > t.runs * 5 && t.deferred > t.runs / 10);
    }
    assert!(with.hits > 0 && with.cutoffs > 0 && with.overwrites > 0);
}

/// Batched and step-by-step runs: the same value, move, makespan, categories, nodes, intervals,
/// memory traffic, markers and figures.
#[test]
fn batching_on_and_off_give_the_same_runs() {
    let mut rng = SplitMix64::seed_from_u64(47);
    for seed in 0..300u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let n = COUNTS[rng.random_range(0..COUNTS.len())];
        let mut on = machine(&mut rng, n);
        on.record_intervals = true;
        let mut off = on.clone();
        off.batching = false;
        let which = rng.random_range(0..4);
        let at = format!("seed {seed}, scheme {which} on {n}, {on:?}");
        let compare = |a: &sim_core::RunStats, b: &sim_core::RunStats| {
            assert_eq!(a.makespan, b.makespan, "{at}");
            for (x, y) in a.procs.iter().zip(&b.procs) {
                assert_eq!(x.times, y.times, "{at}");
                assert_eq!(x.nodes, y.nodes, "{at}");
                assert_eq!(x.intervals, y.intervals, "{at}");
            }
            assert_eq!(a.memory, b.memory, "{at}");
            assert_eq!(a.markers, b.markers, "{at}");
            assert!(a.events <= b.events, "{at}");
        };
        if which < 2 {
            let s = lazy(&mut rng, depth, which == 1);
            let a = run_scheme(&s, &tree, on).unwrap();
            let b = run_scheme(&s, &tree, off).unwrap();
            assert_eq!(a.root_value, b.root_value, "{at}");
            assert_eq!(s.root_move(&a.roles), s.root_move(&b.roles), "{at}");
            assert_eq!(s.figures(&a.roles), s.figures(&b.roles), "{at}");
            compare(&a.stats, &b.stats);
        } else {
            let s = abdada(&mut rng, depth, which == 3);
            let a = run_scheme(&s, &tree, on).unwrap();
            let b = run_scheme(&s, &tree, off).unwrap();
            assert_eq!(a.root_value, b.root_value, "{at}");
            assert_eq!(s.root_move(&a.roles), s.root_move(&b.roles), "{at}");
            assert_eq!(s.figures(&a.roles), s.figures(&b.roles), "{at}");
            compare(&a.stats, &b.stats);
        }
    }
}

/// A bushy tree on 4 processors: every processor spends time in memory, the table is probed,
/// hit, stored into and overwritten, ABDADA defers, and Lazy SMP's helpers stop when processor
/// 0 is done (none is still searching after it).
#[test]
fn memory_time_and_table_counters_where_expected() {
    let spec = SyntheticSpec {
        width: 6,
        depth: 5,
        ordering: Ordering::FirstBest { p: 0.7 },
        value_spread: 1000,
        horizon_noise: 20,
    };
    let tree = SyntheticTree::new(spec, 9).unwrap();
    let expected = negamax(&tree, &tree.root(), 5);
    let mut config = MachineConfig::pool(
        4,
        PoolNetwork::FullyConnected,
        sim_hw::CostModel::campbell(),
        sim_hw::LinkSpec::ideal(),
    );
    config.memory = Some(MemorySpec {
        read: SimTime(1),
        write: SimTime(1),
        banks: 2,
        numa: None,
    });
    let table = SharedTableConfig {
        entries: 256,
        ways: 2,
        replacement: Replacement::Always,
        entry_bytes: 16,
    };
    let lazy = LazySmp(LazySmpConfig {
        depth: 5,
        iterative: true,
        table: Some(table),
        skip: Skip::Stockfish,
        deeper: false,
        vote: false,
    });
    let run = common::checked_run(&lazy, &tree, config.clone(), expected, "lazy_smp");
    let f = lazy.figures(&run.roles);
    for name in [
        "tt_probes",
        "tt_hits",
        "tt_cutoffs",
        "tt_stores",
        "tt_overwrites",
    ] {
        assert!(f.get(name).is_some_and(|v| v > 0), "lazy_smp: {name} {f:?}");
    }
    assert!(f.get("tt_hits") <= f.get("tt_probes"));
    let finished = run.roles[0].finished_at().unwrap();
    for (p, s) in run.stats.procs.iter().enumerate() {
        assert!(s.times.get(Category::Memory) > 0, "P{p}: no memory time");
        assert!(run.stats.makespan >= finished);
    }
    // A helper's last access may end after processor 0's end, by at most a bank's queue.
    assert!(
        run.stats.makespan.as_nanos() <= finished.as_nanos() + 8,
        "{run:?}",
        run = run.stats.makespan
    );
    assert!(run.stats.memory.bank_wait_ns > 0);
    let abdada = Abdada(AbdadaConfig {
        depth: 5,
        iterative: true,
        table,
        values: true,
    });
    let run = common::checked_run(&abdada, &tree, config, expected, "abdada");
    let f = abdada.figures(&run.roles);
    for name in ["tt_probes", "tt_hits", "tt_stores", "abdada_deferred"] {
        assert!(f.get(name).is_some_and(|v| v > 0), "abdada: {name} {f:?}");
    }
    for (p, s) in run.stats.procs.iter().enumerate() {
        assert!(s.times.get(Category::Memory) > 0, "P{p}: no memory time");
    }
}

/// Timing noise makes Lazy SMP's threads drift apart: other seeds, other runs (same value).
#[test]
fn jitter_seeds_change_lazy_smp_runs_but_not_the_value() {
    let spec = SyntheticSpec {
        width: 5,
        depth: 5,
        ordering: Ordering::Random,
        value_spread: 1000,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 4).unwrap();
    let expected = negamax(&tree, &tree.root(), 5);
    let scheme = LazySmp(LazySmpConfig {
        depth: 5,
        iterative: true,
        table: Some(SharedTableConfig::new()),
        skip: Skip::None,
        deeper: false,
        vote: false,
    });
    let mut makespans = Vec::new();
    for seed in 0..6 {
        let mut config = MachineConfig::pool(
            4,
            PoolNetwork::FullyConnected,
            sim_hw::CostModel {
                e: SimTime(1000),
                k: SimTime(200),
                ..sim_hw::CostModel::campbell()
            },
            sim_hw::LinkSpec::ideal(),
        );
        config.memory = Some(MemorySpec {
            read: SimTime(100),
            write: SimTime(100),
            banks: 16,
            numa: None,
        });
        config.jitter = Some(Jitter {
            permille: 200,
            seed,
        });
        let run = common::checked_run(&scheme, &tree, config, expected, "jitter");
        makespans.push(run.stats.makespan);
    }
    makespans.sort();
    makespans.dedup();
    assert!(makespans.len() > 3, "{makespans:?}");
}

#[test]
fn refused_without_a_pool_or_depth_or_with_a_bad_table() {
    assert!(common::refuses_a_deeper_processor_tree(&LazySmp(
        LazySmpConfig {
            depth: 3,
            iterative: true,
            table: None,
            skip: Skip::Stockfish,
            deeper: false,
            vote: false,
        }
    )));
    assert!(common::refuses_a_deeper_processor_tree(&Abdada(
        AbdadaConfig {
            depth: 3,
            iterative: true,
            table: SharedTableConfig::new(),
            values: true,
        }
    )));
    let spec = SyntheticSpec {
        width: 3,
        depth: 3,
        ordering: Ordering::Random,
        value_spread: 100,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 1).unwrap();
    let pool = || {
        let mut c = MachineConfig::pool(
            2,
            PoolNetwork::FullyConnected,
            sim_hw::CostModel::campbell(),
            sim_hw::LinkSpec::ideal(),
        );
        c.memory = Some(MemorySpec {
            read: SimTime(1),
            write: SimTime(1),
            banks: 1,
            numa: None,
        });
        c
    };
    let bad = SharedTableConfig {
        entries: 10,
        ways: 4,
        ..SharedTableConfig::new()
    };
    for scheme in [
        Abdada(AbdadaConfig {
            depth: 0,
            iterative: true,
            table: SharedTableConfig::new(),
            values: true,
        }),
        Abdada(AbdadaConfig {
            depth: 3,
            iterative: true,
            table: bad,
            values: true,
        }),
    ] {
        assert!(matches!(
            run_scheme(&scheme, &tree, pool()),
            Err(SchemeError::Deploy(_))
        ));
    }
    // A table on a machine without shared memory fails at the first access, with a reason.
    let mut no_memory = pool();
    no_memory.memory = None;
    let lazy = LazySmp(LazySmpConfig {
        depth: 3,
        iterative: true,
        table: Some(SharedTableConfig::new()),
        skip: Skip::Stockfish,
        deeper: false,
        vote: false,
    });
    let e = run_scheme(&lazy, &tree, no_memory).err().expect("refused");
    assert!(e.to_string().contains("shared memory"), "{e}");
}

/// On one processor, without a table and at a fixed depth, both schemes are plain fail-soft
/// alpha-beta: exactly its nodes, value and time.
#[test]
fn alone_without_a_table_they_are_alphabeta() {
    let mut rng = SplitMix64::seed_from_u64(53);
    for seed in 0..200u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let costs = sim_hw::CostModel::campbell();
        let (value, work) = sim_hw::run_alone(
            &mut AlphaBeta::new(&tree, tree.root(), -INF, INF, depth),
            &costs,
        );
        let mut machine = MachineConfig::pool(
            1,
            PoolNetwork::FullyConnected,
            costs,
            sim_hw::LinkSpec::ideal(),
        );
        machine.memory = Some(random_memory(&mut rng));
        let lazy = LazySmp(LazySmpConfig {
            depth,
            iterative: false,
            table: None,
            skip: Skip::Stockfish,
            deeper: false,
            vote: false,
        });
        let run = run_scheme(&lazy, &tree, machine.clone()).unwrap();
        assert_eq!(run.roles[0].depths(), [depth]);
        assert_eq!(run.root_value, Some(value), "seed {seed}");
        assert_eq!(run.stats.total_nodes(), work.nodes, "seed {seed}");
        assert_eq!(run.stats.makespan, work.time, "seed {seed}");
        // ABDADA alone never defers, and without values its table changes no node: the same
        // nodes, plus the time of its counters' accesses.
        let abdada = Abdada(AbdadaConfig {
            depth,
            iterative: false,
            table: random_table(&mut rng),
            values: false,
        });
        let run = run_scheme(&abdada, &tree, machine).unwrap();
        assert_eq!(run.root_value, Some(value), "seed {seed}");
        assert_eq!(run.stats.total_nodes(), work.nodes, "seed {seed}");
        let memory = run.stats.procs[0].times.get(Category::Memory);
        assert_eq!(
            run.stats.makespan.as_nanos(),
            work.time.as_nanos() + memory,
            "seed {seed}"
        );
    }
}

/// The same tree, scheme and machine (jitter seed included) give the same run, to the
/// nanosecond and the table counter.
#[test]
fn same_inputs_same_run() {
    let mut rng = SplitMix64::seed_from_u64(59);
    for seed in 0..60u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let n = COUNTS[rng.random_range(0..COUNTS.len())];
        let config = machine(&mut rng, n);
        let at = format!("seed {seed} on {n}");
        if seed % 2 == 0 {
            let s = lazy(&mut rng, depth, true);
            let (a, b) = (
                run_scheme(&s, &tree, config.clone()).unwrap(),
                run_scheme(&s, &tree, config).unwrap(),
            );
            assert_eq!(a.stats.makespan, b.stats.makespan, "{at}");
            assert_eq!(a.stats.memory, b.stats.memory, "{at}");
            assert_eq!(s.figures(&a.roles), s.figures(&b.roles), "{at}");
            assert_eq!(s.root_move(&a.roles), s.root_move(&b.roles), "{at}");
        } else {
            let s = abdada(&mut rng, depth, true);
            let (a, b) = (
                run_scheme(&s, &tree, config.clone()).unwrap(),
                run_scheme(&s, &tree, config).unwrap(),
            );
            assert_eq!(a.stats.makespan, b.stats.makespan, "{at}");
            assert_eq!(a.stats.memory, b.stats.memory, "{at}");
            assert_eq!(s.figures(&a.roles), s.figures(&b.roles), "{at}");
            assert_eq!(s.root_move(&a.roles), s.root_move(&b.roles), "{at}");
        }
    }
}
