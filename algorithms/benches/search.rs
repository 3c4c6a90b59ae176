//! Simulated search speed: leaves per second of wall time.
//!
//! The workload of the shipped scenario `scenarios/pmws-uniform.ron`: pmws with progressive
//! deepening on synthetic trees w = 34, d = 5, first move best with p = 0.6, value spread 1000,
//! horizon noise 50, seeds 1..=24, on Parabelle's costs (k = 8 ms, e = 25.65 ms, s = 2 ms,
//! interrupt 1 ms) and 960 bytes/s serial lines with RTS/CTS, at f = 1 and f = 4. Beside it, a
//! plain sequential PVS over the same trees outside the simulator (`pvs_recursive`, full window),
//! once to depth 5 and once with progressive deepening (depths 1..=5, no move sorting), and the
//! ratio of simulated to plain speed.
//!
//! One criterion iteration searches all 24 trees; throughput is in leaves. Plain summary lines
//! come from timed passes outside criterion's loop: seven rounds that run every case once in
//! turn, each case's best pass giving its rate:
//!
//! ```text
//! cargo bench -p algorithms --bench search
//! ```

use algorithms::{
    pmws_roles, pvs_recursive, GameTree, Ordering, PmwsConfig, SyntheticSpec, SyntheticTree, INF,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sim_core::SimTime;
use sim_hw::{CostModel, LinkSpec, Machine, MachineConfig, ProcessorTree};
use std::hint::black_box;
use std::time::{Duration, Instant};

const DEPTH: u32 = 5;
const SEEDS: std::ops::RangeInclusive<u64> = 1..=24;
/// Timed passes of each case for the plain summary lines (in turns; the best counts).
const ROUNDS: usize = 7;

fn trees() -> Vec<SyntheticTree> {
    let spec = SyntheticSpec {
        width: 34,
        depth: DEPTH,
        ordering: Ordering::FirstBest { p: 0.6 },
        value_spread: 1000,
        horizon_noise: 50,
    };
    SEEDS
        .map(|seed| SyntheticTree::new(spec.clone(), seed).expect("a valid tree"))
        .collect()
}

/// What one pass over all trees did.
#[derive(Clone, Copy, Default)]
struct Work {
    leaves: u64,
    /// Engine events (simulated runs only).
    events: u64,
}

/// Simulates pmws with progressive deepening at fanout `f` on every tree, as
/// `scenarios::runner::simulate` does.
fn simulated(trees: &[SyntheticTree], f: u32) -> Work {
    let mut work = Work::default();
    for tree in trees {
        let costs = CostModel {
            k: SimTime::from_millis(8),
            e: SimTime::from_micros(25_650),
            q: sim_core::SimTime::ZERO,
            probe: sim_core::SimTime::ZERO,
            s: SimTime::from_millis(2),
            interrupt: SimTime::from_millis(1),
        };
        let config =
            MachineConfig::new(ProcessorTree::new(f, 1), costs, LinkSpec::serial(960, true));
        let roles = pmws_roles(
            tree,
            f as usize,
            PmwsConfig {
                depth: DEPTH,
                progressive: true,
            },
        );
        let (stats, roles) = Machine::new(config, roles).unwrap().run().unwrap();
        assert_eq!(roles[0].root_value(), Some(tree.root().value));
        work.leaves += stats.total_nodes().leaves;
        work.events += stats.events;
    }
    work
}

/// Plain sequential PVS with a full window on every tree, to depth 5 or (progressive) to every
/// depth 1..=5 in turn.
fn plain(trees: &[SyntheticTree], progressive: bool) -> Work {
    let mut leaves = 0;
    for tree in trees {
        let root = tree.root();
        let first = if progressive { 1 } else { DEPTH };
        let mut value = 0;
        for depth in first..=DEPTH {
            value = pvs_recursive(tree, &root, -INF, INF, depth, &mut leaves);
        }
        assert_eq!(value, root.value);
    }
    Work { leaves, events: 0 }
}

struct Case {
    name: &'static str,
    run: fn(&[SyntheticTree]) -> Work,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "pmws f = 1, simulated",
            run: |t| simulated(t, 1),
        },
        Case {
            name: "pmws f = 4, simulated",
            run: |t| simulated(t, 4),
        },
        Case {
            name: "plain PVS d = 5",
            run: |t| plain(t, false),
        },
        Case {
            name: "plain PVS depths 1..=5",
            run: |t| plain(t, true),
        },
    ]
}

fn search(c: &mut Criterion) {
    let trees = trees();
    let cases = cases();

    // Plain figures first: every case once as a warm-up, then `ROUNDS` rounds that time each
    // case once in turn; each case's best pass gives its rate. Taken in turns, the cases see the
    // same conditions, and the best pass is the one least slowed by the rest of the machine.
    let work: Vec<Work> = cases.iter().map(|case| (case.run)(&trees)).collect();
    let mut best = vec![f64::MAX; cases.len()];
    for _ in 0..ROUNDS {
        for (i, case) in cases.iter().enumerate() {
            let start = Instant::now();
            let w = black_box((case.run)(&trees));
            best[i] = best[i].min(start.elapsed().as_secs_f64());
            assert_eq!(w.leaves, work[i].leaves);
        }
    }
    let mut rate = Vec::new();
    for ((case, w), secs) in cases.iter().zip(&work).zip(&best) {
        let per_sec = w.leaves as f64 / secs;
        print!(
            "search, {}: {} leaves in {secs:.4} s (best of {ROUNDS}) = {:.2} M leaves/s",
            case.name,
            w.leaves,
            per_sec / 1e6
        );
        if w.events > 0 {
            print!(
                " ({} events, {:.2} per leaf)",
                w.events,
                w.events as f64 / w.leaves as f64
            );
        }
        println!();
        rate.push(per_sec);
    }
    for (sim, name) in [(0, "f = 1"), (1, "f = 4")] {
        println!(
            "search, simulated/plain speed, pmws {name}: {:.2} of plain PVS d = 5, {:.2} of plain PVS depths 1..=5 (plain is {:.1}x / {:.1}x faster)",
            rate[sim] / rate[2],
            rate[sim] / rate[3],
            rate[2] / rate[sim],
            rate[3] / rate[sim],
        );
    }

    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (case, w) in cases.iter().zip(&work) {
        group.throughput(Throughput::Elements(w.leaves));
        group.bench_function(case.name, |b| b.iter(|| (case.run)(black_box(&trees))));
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
