//! The wall time of the property-test sweeps of optimistic execution in each of the three modes:
//! optimistic (the default), conservative (`--conservative`) and step by step
//! (`--step-by-step`). The sweeps are those `tests/optimistic.rs` runs (`tests/common/optimism.rs`:
//! six schemes, about 2,000 random configurations each, every processor interrupt-driven); each
//! configuration runs in the three modes in turn, and the three runs are checked equal as in the
//! tests. Each sweep runs `ROUNDS` times; a mode's figure is its best round.
//!
//! ```sh
//! cargo bench -p algorithms --bench optimism        # 3 rounds
//! cargo bench -p algorithms --bench optimism -- 5   # 5 rounds
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use common::optimism::SWEEPS;
use std::time::Duration;

/// Rounds per sweep unless the command line gives another number.
const ROUNDS: usize = 3;

fn main() {
    // `cargo bench` passes `--bench`; a number among the arguments sets the rounds.
    let rounds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(ROUNDS)
        .max(1);
    println!(
        "| sweep | runs | rollbacks | replayed steps | optimistic (default) | `--conservative` | `--step-by-step` | default / step by step |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut total = [Duration::ZERO; 3];
    for (name, sweep) in SWEEPS {
        let mut best = [Duration::MAX; 3];
        let mut last = None;
        for _ in 0..rounds {
            let s = sweep();
            for (b, t) in best.iter_mut().zip(s.times) {
                *b = (*b).min(t);
            }
            last = Some(s);
        }
        let s = last.expect("at least one round");
        for (t, b) in total.iter_mut().zip(best) {
            *t += b;
        }
        println!(
            "| {name} | {} | {} | {} | {:.3} s | {:.3} s | {:.3} s | {:.2} |",
            s.runs,
            s.rollbacks,
            s.replayed,
            best[0].as_secs_f64(),
            best[1].as_secs_f64(),
            best[2].as_secs_f64(),
            best[0].as_secs_f64() / best[2].as_secs_f64(),
        );
    }
    println!(
        "| all six | | | | {:.3} s | {:.3} s | {:.3} s | {:.2} |",
        total[0].as_secs_f64(),
        total[1].as_secs_f64(),
        total[2].as_secs_f64(),
        total[0].as_secs_f64() / total[2].as_secs_f64(),
    );
    println!("(best of {rounds} rounds per sweep and mode)");
}
