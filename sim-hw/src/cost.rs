//! What a processor's steps cost.

use serde::{Deserialize, Serialize};
use sim_core::SimTime;

/// Costs of the paper's model (section VII), as simulated durations.
///
/// `k` generates a node's moves, `e` evaluates a leaf (quiescence included), `s` sets up one
/// message (charged to the sending CPU), `interrupt` is the master's handler per arriving message.
/// Campbell's simulation used e = 1 and everything else 0; that is `CostModel::campbell()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostModel {
    /// Time to generate one interior node's moves, charged per interior node expanded.
    pub k: SimTime,
    /// Time to evaluate one leaf, quiescence search included, charged per leaf.
    pub e: SimTime,
    /// CPU time to set up one message, charged to the sending processor (category message).
    pub s: SimTime,
    /// Time of the interrupt handler, charged (category interrupt) per message arriving at an
    /// interrupt-driven processor (the master, by default).
    pub interrupt: SimTime,
}

impl CostModel {
    /// One time unit (1 ns) per leaf, nothing else costs (Campbell 1981).
    pub fn campbell() -> Self {
        CostModel {
            k: SimTime::ZERO,
            e: SimTime(1),
            s: SimTime::ZERO,
            interrupt: SimTime::ZERO,
        }
    }
}

/// Converts a count of processor cycles at `clock_hz` into time, rounded to the nearest ns.
pub fn cycles(count: u64, clock_hz: u64) -> SimTime {
    let ns = (count as u128 * 1_000_000_000u128 + clock_hz as u128 / 2) / clock_hz as u128;
    SimTime(ns as u64)
}
