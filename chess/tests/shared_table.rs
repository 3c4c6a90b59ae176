//! Lazy SMP and ABDADA on real chess with shared memory: without stored values every
//! processor count returns the score of a plain recursive search outside the simulator; with
//! the shared table they finish with a legal move and a score near it (transpositions and
//! deeper drafts may change it: counted and printed, never refused).

use algorithms::*;
use chess::{bratko_kopec, ChessTree};
use sim_core::SimTime;
use sim_hw::{CostModel, Jitter, LinkSpec, MachineConfig, MemorySpec, PoolNetwork};

/// A modern machine: 1 us per node, 100 ns per table access, 64 banks.
fn machine(processors: usize, seed: u64) -> MachineConfig {
    let costs = CostModel {
        k: SimTime(1_000),
        e: SimTime(1_000),
        q: SimTime(1_000),
        probe: SimTime(100),
        s: SimTime(1_000),
        interrupt: SimTime(1_000),
    };
    let mut m = MachineConfig::pool(
        processors,
        PoolNetwork::FullyConnected,
        costs,
        LinkSpec::ideal(),
    );
    m.memory = Some(MemorySpec {
        read: SimTime(100),
        write: SimTime(100),
        banks: 64,
        numa: None,
    });
    m.jitter = Some(Jitter {
        permille: 100,
        seed,
    });
    m
}

fn lazy(depth: u32, table: bool) -> LazySmp {
    LazySmp(LazySmpConfig {
        depth,
        iterative: true,
        table: table.then(SharedTableConfig::new),
        skip: Skip::Stockfish,
        deeper: false,
        vote: false,
    })
}

fn abdada(depth: u32, values: bool) -> Abdada {
    Abdada(AbdadaConfig {
        depth,
        iterative: true,
        table: SharedTableConfig::new(),
        values,
    })
}

fn plain(tree: &ChessTree, depth: u32) -> Value {
    let mut leaves = 0;
    alphabeta_recursive(tree, &tree.root(), -INF, INF, depth, &mut leaves)
}

#[test]
fn without_values_every_processor_count_returns_the_plain_search_score() {
    for (id, tree, _) in bratko_kopec().iter().step_by(6) {
        let expected = plain(tree, 3);
        let width = tree.moves(&tree.root()).len();
        for p in [1, 2, 4] {
            let s = lazy(3, false);
            let r = run_scheme(&s, tree, machine(p, 1)).expect("the run ends");
            assert_eq!(r.root_value, Some(expected), "{id} lazy_smp p={p}");
            assert!(s.root_move(&r.roles).expect("a move") < width);
            let s = abdada(3, false);
            let r = run_scheme(&s, tree, machine(p, 1)).expect("the run ends");
            assert_eq!(r.root_value, Some(expected), "{id} abdada p={p}");
            assert!(s.root_move(&r.roles).expect("a move") < width);
        }
    }
}

#[test]
fn with_the_table_they_finish_with_a_legal_move_and_a_near_score() {
    let (mut runs, mut differ) = (0, 0);
    for (id, tree, _) in bratko_kopec().iter().step_by(6) {
        let expected = plain(tree, 3);
        let width = tree.moves(&tree.root()).len();
        for p in [1, 2, 4] {
            let l = lazy(3, true);
            let a = abdada(3, true);
            let rl = run_scheme(&l, tree, machine(p, 2)).expect("the run ends");
            let ra = run_scheme(&a, tree, machine(p, 2)).expect("the run ends");
            for (name, v, mv) in [
                ("lazy_smp", rl.root_value, l.root_move(&rl.roles)),
                ("abdada", ra.root_value, a.root_move(&ra.roles)),
            ] {
                let v = v.expect("a value");
                assert!(
                    (v - expected).abs() <= 300,
                    "{id} {name} p={p}: {v} vs {expected}"
                );
                assert!(mv.expect("a move") < width, "{id} {name} p={p}");
                runs += 1;
                if v != expected {
                    differ += 1;
                    eprintln!("{id} {name} p={p}: {v} (table-free {expected})");
                }
            }
            assert!(l.figures(&rl.roles).get("tt_hits").is_some_and(|h| h > 0));
        }
    }
    eprintln!("{differ} of {runs} runs differ from the table-free score");
}

/// Wall-clock cost of the simulation at the size of the scenario (run by hand:
/// `cargo test --release -p chess --test shared_table -- --ignored --nocapture`).
#[test]
#[ignore]
fn timing_at_five_ply() {
    let bk = bratko_kopec();
    for (id, tree, _) in bk.iter().take(3) {
        for p in [1, 4, 16] {
            for (name, t) in [("lazy_smp", 0), ("lazy_smp_deeper", 2), ("abdada", 1)] {
                let start = std::time::Instant::now();
                let (v, stats, f) = if t != 1 {
                    let s = LazySmp(LazySmpConfig {
                        deeper: t == 2,
                        ..lazy(5, true).0
                    });
                    let r = run_scheme(&s, tree, machine(p, 3)).unwrap();
                    (r.root_value, r.stats, s.figures(&r.roles))
                } else {
                    let s = abdada(5, true);
                    let r = run_scheme(&s, tree, machine(p, 3)).unwrap();
                    (r.root_value, r.stats, s.figures(&r.roles))
                };
                let nodes = stats.total_nodes();
                eprintln!(
                    "{id} {name} p={p}: value {v:?}, makespan {} us, nodes {}, events {}, probes {:?}, wall {:?}",
                    stats.makespan.as_nanos() / 1000,
                    nodes.interior + nodes.leaves,
                    stats.events,
                    f.get("tt_probes"),
                    start.elapsed()
                );
            }
        }
    }
}
