//! The property-test sweeps of optimistic execution (sim-hw, ARCHITECTURE.md "Batching"), one
//! per scheme whose searches can be copied (`Search::fork`): treesplit, pmws with section IX's
//! broadcasts, mwf, APHID, pvsplit and Baudet. Every processor is interrupt-driven, so that a
//! message can reach a search that runs past its horizon. Each sweep runs every configuration
//! optimistically (the default), conservatively and step by step, checks that the three runs
//! are the same run, and times each mode.
//!
//! `tests/optimistic.rs` runs them as tests; `benches/optimism.rs` times them (the modes'
//! wall times, a table in BENCHMARKS.md).

use super::{describe, draw_run, same_run, star};
use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_hw::{ProcessorTree, ReadPolicies, ReadPolicy};
use std::time::{Duration, Instant};

/// What a sweep did: its runs, the optimistic runs' rollbacks and replayed steps, and the wall
/// time each mode took over all its runs (the three modes run in turn, configuration by
/// configuration, so that the three see the same conditions).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sweep {
    pub runs: usize,
    pub rollbacks: u64,
    pub replayed: u64,
    /// Optimistic (the default), conservative (`--conservative`), step by step
    /// (`--step-by-step`).
    pub times: [Duration; 3],
}

/// A sweep, run.
pub type SweepFn = fn() -> Sweep;

/// The sweeps, by scheme.
pub const SWEEPS: [(&str, SweepFn); 6] = [
    ("treesplit", treesplit),
    ("pmws with broadcasts (IX)", pmws_broadcast),
    ("mwf", mwf),
    ("aphid", aphid),
    ("pvsplit", pvsplit),
    ("baudet", baudet),
];

/// `trees` random runs on random processor trees (`shape`) over random networks, every processor
/// interrupt-driven, with random costs and lines (or Campbell's ideal machine): optimistic,
/// conservative and step-by-step runs are equal in every figure ([`same_run`]), and neither
/// batched run handles more events than the step-by-step one.
pub fn optimism_check<S, P, F>(seed: u64, trees: u64, shape: P, make: F) -> Sweep
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    P: Fn(&mut SplitMix64, u32, &SyntheticTree) -> Option<ProcessorTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut sweep = Sweep::default();
    for n in 0..trees {
        let Some((tree, scheme, mut on)) = draw_run(&mut rng, seed, n, &shape, &make) else {
            continue;
        };
        on.reads = ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::Interrupt,
        };
        if !on.read_by_processor.is_empty() {
            on.read_by_processor = vec![ReadPolicy::Interrupt; on.read_by_processor.len()];
        }
        on.record_intervals = true;
        on.record_messages = true;
        let mut conservative = on.clone();
        conservative.optimistic = false;
        let mut off = on.clone();
        off.batching = false;
        let at = format!("tree {n}, {} on {}", scheme.name(), describe(&on));
        let mut timed = |mode: usize, config| {
            let start = Instant::now();
            let run = run_scheme(&scheme, &tree, config).unwrap_or_else(|e| panic!("{at}: {e}"));
            sweep.times[mode] += start.elapsed();
            run
        };
        let (a, b, c) = (timed(0, on), timed(1, conservative), timed(2, off));
        same_run(
            &scheme,
            &a,
            &c,
            &format!("{at}, optimistic against step by step"),
        );
        same_run(
            &scheme,
            &b,
            &c,
            &format!("{at}, conservative against step by step"),
        );
        assert!(a.stats.events <= c.stats.events, "{at}");
        assert!(b.stats.events <= c.stats.events, "{at}");
        assert_eq!((b.stats.rollbacks, c.stats.rollbacks), (0, 0), "{at}");
        sweep.rollbacks += a.stats.rollbacks;
        sweep.replayed += a.stats.replayed_steps;
        sweep.runs += 1;
    }
    sweep
}

fn any(rng: &mut SplitMix64, p: u32, _: &SyntheticTree) -> Option<ProcessorTree> {
    Some(super::any_shape(rng, p))
}

fn on_star(rng: &mut SplitMix64, p: u32, _: &SyntheticTree) -> Option<ProcessorTree> {
    Some(star(rng, p))
}

/// treesplit, with or without updates, on processor trees of any shape.
pub fn treesplit() -> Sweep {
    optimism_check(41, 2000, any, |tree, rng| {
        TreeSplit(TreeSplitConfig {
            depth: tree.spec().depth,
            update: rng.random_bool(0.5),
        })
    })
}

/// pmws with section IX's broadcast (plain pmws searches are isolated: nothing reaches them),
/// with or without the other two options.
pub fn pmws_broadcast() -> Sweep {
    optimism_check(42, 2000, on_star, |tree, rng| {
        PmwsIxScheme(
            PmwsConfig {
                depth: tree.spec().depth,
                progressive: rng.random_bool(0.5),
            },
            Plain {
                broadcast: true,
                parallel_research: rng.random_bool(0.5),
                defer: rng.random_bool(0.5),
            },
        )
    })
}

pub fn mwf() -> Sweep {
    optimism_check(43, 2000, on_star, |tree, rng| {
        Mwf(MwfConfig {
            depth: tree.spec().depth,
            split: rng.random_range(1..=4),
        })
    })
}

pub fn aphid() -> Sweep {
    optimism_check(44, 2000, on_star, |tree, rng| {
        Aphid(AphidConfig {
            depth: tree.spec().depth,
            top: rng.random_range(1..=4),
        })
    })
}

/// pvsplit on processor trees shallower than the search (a star otherwise), plain or refined,
/// with or without updates; no run on one processor.
pub fn pvsplit() -> Sweep {
    let shape = |rng: &mut SplitMix64, p: u32, tree: &SyntheticTree| {
        if p == 1 {
            return None;
        }
        let shape = super::any_shape(rng, p);
        Some(if shape.depth() < tree.spec().depth {
            shape
        } else {
            star(rng, p)
        })
    };
    optimism_check(45, 2500, shape, |tree, rng| {
        PvSplit(PvSplitConfig {
            depth: tree.spec().depth,
            refined: rng.random_bool(0.5),
            update: rng.random_bool(0.5),
        })
    })
}

/// Baudet's aspiration windows: the processors whose window failed are told to stop.
pub fn baudet() -> Sweep {
    optimism_check(46, 2000, on_star, |tree, rng| {
        Baudet(BaudetConfig {
            depth: tree.spec().depth,
            delta: rng.random_range(1..=2000),
        })
    })
}
