//! Optimistic execution (sim-hw, ARCHITECTURE.md "Batching") on the schemes whose searches can
//! be copied (`Search::fork`): treesplit, pmws with section IX's broadcasts, mwf, APHID, pvsplit
//! and Baudet. Every processor is interrupt-driven, so that a message can reach a search that
//! runs past its horizon, and an optimistic run must equal the conservative and the step-by-step
//! runs in every figure, on random trees, processor counts, networks, costs and lines. Each test
//! also checks that rollbacks really happened.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::Rng;

/// Runs, rollbacks and replayed steps: all runs done, and optimism taken back many times.
fn exercised((runs, rollbacks, replayed): (usize, u64, u64), expected_runs: usize) {
    assert_eq!(runs, expected_runs);
    assert!(
        rollbacks >= runs as u64 / 4,
        "only {rollbacks} rollbacks in {runs} runs"
    );
    assert!(replayed >= rollbacks, "{replayed} replayed steps");
}

fn any(rng: &mut SplitMix64, p: u32, _: &SyntheticTree) -> Option<sim_hw::ProcessorTree> {
    Some(common::any_shape(rng, p))
}

fn star(rng: &mut SplitMix64, p: u32, _: &SyntheticTree) -> Option<sim_hw::ProcessorTree> {
    Some(common::star(rng, p))
}

#[test]
fn treesplit_optimistic_runs_equal_step_by_step_runs() {
    let check = common::optimism_check(41, 2000, any, |tree, rng| {
        TreeSplit(TreeSplitConfig {
            depth: tree.spec().depth,
            update: rng.random_bool(0.5),
        })
    });
    exercised(check, 2000);
}

/// pmws with section IX's broadcast (plain pmws searches are isolated: nothing reaches them),
/// with or without the other two options.
#[test]
fn pmws_broadcast_optimistic_runs_equal_step_by_step_runs() {
    let check = common::optimism_check(42, 2000, star, |tree, rng| {
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
    });
    exercised(check, 2000);
}

#[test]
fn mwf_optimistic_runs_equal_step_by_step_runs() {
    let check = common::optimism_check(43, 2000, star, |tree, rng| {
        Mwf(MwfConfig {
            depth: tree.spec().depth,
            split: rng.random_range(1..=4),
        })
    });
    exercised(check, 2000);
}

#[test]
fn aphid_optimistic_runs_equal_step_by_step_runs() {
    let check = common::optimism_check(44, 2000, star, |tree, rng| {
        Aphid(AphidConfig {
            depth: tree.spec().depth,
            top: rng.random_range(1..=4),
        })
    });
    exercised(check, 2000);
}

/// pvsplit on processor trees shallower than the search (a star otherwise), plain or refined,
/// with or without updates.
#[test]
fn pvsplit_optimistic_runs_equal_step_by_step_runs() {
    let shape = |rng: &mut SplitMix64, p: u32, tree: &SyntheticTree| {
        if p == 1 {
            return None;
        }
        let shape = common::any_shape(rng, p);
        Some(if shape.depth() < tree.spec().depth {
            shape
        } else {
            common::star(rng, p)
        })
    };
    let check = common::optimism_check(45, 2500, shape, |tree, rng| {
        PvSplit(PvSplitConfig {
            depth: tree.spec().depth,
            refined: rng.random_bool(0.5),
            update: rng.random_bool(0.5),
        })
    });
    assert!(check.0 >= 1500, "{check:?}");
    exercised((check.0, check.1, check.2), check.0);
}

/// Baudet's aspiration windows: the processors whose window failed are told to stop.
#[test]
fn baudet_optimistic_runs_equal_step_by_step_runs() {
    let check = common::optimism_check(46, 2000, star, |tree, rng| {
        Baudet(BaudetConfig {
            depth: tree.spec().depth,
            delta: rng.random_range(1..=2000),
        })
    });
    exercised(check, 2000);
}
