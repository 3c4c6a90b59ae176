//! How fast gtsim simulates `scenarios/treesplit.ron`: leaves per second of wall time, with
//! optimistic execution (the default), conservative batching only, and step by step, against
//! plain recursive alpha-beta over the same trees.
//!
//! ```sh
//! cargo run --release -p algorithms --example treesplit_speed
//! ```
//!
//! The trees and machine are those of the scenario: w = 24, d = 4, orderings random,
//! first_best(0.8) and perfect, seeds 1..=20; Campbell's costs (e = 1, the rest free), ideal lines,
//! interrupt-driven processors; treesplit and treesplit_update on processor trees (1,2) (1,4)
//! (1,8) (2,2) (2,4) (3,2). Each case and the plain reference are timed in turns, five passes
//! each after a warm-up pass, and each side's best pass gives its rate.

use algorithms::{
    alphabeta_recursive, run_scheme, GameTree, Ordering, SyntheticSpec, SyntheticTree, TreeSplit,
    TreeSplitConfig, INF,
};
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies, ReadPolicy};
use std::time::Instant;

const PTREES: [(u32, u32); 6] = [(1, 2), (1, 4), (1, 8), (2, 2), (2, 4), (3, 2)];

fn trees() -> Vec<SyntheticTree> {
    let mut trees = Vec::new();
    for ordering in [
        Ordering::Random,
        Ordering::FirstBest { p: 0.8 },
        Ordering::Perfect,
    ] {
        for seed in 1..=20 {
            let spec = SyntheticSpec {
                width: 24,
                depth: 4,
                ordering: ordering.clone(),
                value_spread: 1000,
                horizon_noise: 0,
            };
            trees.push(SyntheticTree::new(spec, seed).expect("a valid tree"));
        }
    }
    trees
}

/// Simulates every (algorithm, processor tree) of the scenario on every tree; returns the
/// leaves and engine events. `parabelle`: Parabelle's costs and 960 bytes/s lines instead of
/// Campbell's free messages, so that there is lookahead for batching to use.
fn simulated(trees: &[SyntheticTree], mode: Mode, parabelle: bool) -> (u64, u64, u64, u64) {
    let (mut leaves, mut events, mut rollbacks, mut replayed) = (0, 0, 0, 0);
    for tree in trees {
        for update in [false, true] {
            for (d, w) in PTREES {
                let (costs, link) = if parabelle {
                    let ms = |x: u64| sim_core::SimTime::from_micros(x);
                    let costs = CostModel {
                        k: ms(8_000),
                        e: ms(25_650),
                        q: sim_core::SimTime::ZERO,
                        probe: sim_core::SimTime::ZERO,
                        s: ms(2_000),
                        interrupt: ms(1_000),
                    };
                    (costs, LinkSpec::serial(960, true))
                } else {
                    (CostModel::campbell(), LinkSpec::ideal())
                };
                let mut config = MachineConfig::new(ProcessorTree::campbell(d, w), costs, link);
                config.reads = ReadPolicies {
                    hosts: ReadPolicy::Interrupt,
                    boards: ReadPolicy::Interrupt,
                };
                config.batching = mode != Mode::StepByStep;
                config.optimistic = mode == Mode::Optimistic;
                let scheme = TreeSplit(TreeSplitConfig { depth: 4, update });
                let run = run_scheme(&scheme, tree, config).expect("a run");
                assert_eq!(run.root_value, Some(tree.root().value));
                leaves += run.stats.total_nodes().leaves;
                events += run.stats.events;
                rollbacks += run.stats.rollbacks;
                replayed += run.stats.replayed_steps;
            }
        }
    }
    (leaves, events, rollbacks, replayed)
}

/// How the machine advances searches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The default: batching with optimistic execution.
    Optimistic,
    /// Batching up to the conservative horizon only (`--conservative`).
    Conservative,
    /// One event per step (`--step-by-step`).
    StepByStep,
}

/// Plain alpha-beta over every tree, once per simulated run (12 per tree), for the same count.
fn plain(trees: &[SyntheticTree]) -> u64 {
    let mut leaves = 0;
    for tree in trees {
        for _ in 0..2 * PTREES.len() {
            let v = alphabeta_recursive(tree, &tree.root(), -INF, INF, 4, &mut leaves);
            assert_eq!(v, tree.root().value);
        }
    }
    leaves
}

/// Seconds of one pass of `f`, checking that it does the same work as before.
fn pass(f: &impl Fn() -> u64, leaves: u64) -> f64 {
    let start = Instant::now();
    assert_eq!(f(), leaves);
    start.elapsed().as_secs_f64()
}

/// Leaves per second of `f` and of the plain reference, each the best of `ROUNDS` passes taken
/// in turn (after a warm-up pass of each): interference from the rest of the machine slows some
/// passes of either side, and the turns expose both to the same conditions.
fn best_of_turns(f: impl Fn() -> u64, plain: impl Fn() -> u64) -> (u64, f64, f64) {
    let (leaves, plain_leaves) = (f(), plain());
    let (mut best, mut best_plain) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        best_plain = best_plain.min(pass(&plain, plain_leaves));
        best = best.min(pass(&f, leaves));
    }
    (
        leaves,
        leaves as f64 / best,
        plain_leaves as f64 / best_plain,
    )
}

/// Passes of each side per case.
const ROUNDS: usize = 5;

fn main() {
    let trees = trees();
    let plain_leaves = plain(&trees);
    println!(
        "| case | leaves per pass | engine events per pass | rollbacks | replayed steps | M leaves/s | plain alpha-beta, M leaves/s | / plain alpha-beta |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for parabelle in [false, true] {
        for (mode, name) in [
            (Mode::Optimistic, "optimistic (default)"),
            (Mode::Conservative, "conservative (--conservative)"),
            (Mode::StepByStep, "step by step (--step-by-step)"),
        ] {
            let (_, events, rollbacks, replayed) = simulated(&trees, mode, parabelle);
            let (leaves, rate, plain_rate) =
                best_of_turns(|| simulated(&trees, mode, parabelle).0, || plain(&trees));
            println!(
                "| {}, {name} | {leaves} | {events} | {rollbacks} | {replayed} | {:.1} | {:.1} | {:.2} |",
                if parabelle {
                    "same runs on Parabelle's costs and 960 bytes/s lines"
                } else {
                    "treesplit.ron simulated"
                },
                rate / 1e6,
                plain_rate / 1e6,
                rate / plain_rate
            );
        }
    }
    println!(
        "plain alpha-beta (alphabeta_recursive) over the same trees, 12 passes per tree: {plain_leaves} leaves per pass"
    );
}
