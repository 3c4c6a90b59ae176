//! Optimistic execution (sim-hw, ARCHITECTURE.md "Batching") on the schemes whose searches can
//! be copied (`Search::fork`): treesplit, pmws with section IX's broadcasts, mwf, APHID, pvsplit
//! and Baudet. Every processor is interrupt-driven, so that a message can reach a search that
//! runs past its horizon, and an optimistic run must equal the conservative and the step-by-step
//! runs in every figure, on random trees, processor counts, networks, costs and lines
//! (`common::optimism`, whose sweeps `benches/optimism.rs` also times). Each test also checks
//! that rollbacks really happened.

mod common;

use common::optimism::{self, Sweep};

/// All runs done, and optimism taken back many times.
fn exercised(sweep: Sweep, expected_runs: usize) {
    let Sweep {
        runs,
        rollbacks,
        replayed,
        ..
    } = sweep;
    assert_eq!(runs, expected_runs);
    assert!(
        rollbacks >= runs as u64 / 4,
        "only {rollbacks} rollbacks in {runs} runs"
    );
    assert!(replayed >= rollbacks, "{replayed} replayed steps");
}

#[test]
fn treesplit_optimistic_runs_equal_step_by_step_runs() {
    exercised(optimism::treesplit(), 2000);
}

#[test]
fn pmws_broadcast_optimistic_runs_equal_step_by_step_runs() {
    exercised(optimism::pmws_broadcast(), 2000);
}

#[test]
fn mwf_optimistic_runs_equal_step_by_step_runs() {
    exercised(optimism::mwf(), 2000);
}

#[test]
fn aphid_optimistic_runs_equal_step_by_step_runs() {
    exercised(optimism::aphid(), 2000);
}

/// pvsplit skips one-processor draws: most of its 2,500 draws still run.
#[test]
fn pvsplit_optimistic_runs_equal_step_by_step_runs() {
    let sweep = optimism::pvsplit();
    assert!(sweep.runs >= 1500, "{sweep:?}");
    exercised(sweep, sweep.runs);
}

#[test]
fn baudet_optimistic_runs_equal_step_by_step_runs() {
    exercised(optimism::baudet(), 2000);
}
