//! What a processor's steps cost.

use serde::{Deserialize, Serialize};
use sim_core::SimTime;

/// Costs of the paper's model (section VII), as simulated durations.
///
/// `k` generates a node's moves, `e` evaluates a horizon leaf, `q` searches one quiescence node
/// beyond it (chess: a leaf that searched n quiescence nodes costs `e + n q`; synthetic trees
/// have none), `s` sets up one message (charged to the sending CPU), `interrupt` is the
/// master's handler per arriving message.
/// Campbell's simulation used e = 1 and everything else 0; that is `CostModel::campbell()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostModel {
    /// Time to generate one interior node's moves, charged per interior node expanded.
    pub k: SimTime,
    /// Time to evaluate one leaf, charged per leaf (the leaf itself; its quiescence nodes cost
    /// `q` each on top).
    pub e: SimTime,
    /// Time per quiescence node searched beyond a leaf, charged with the leaf (0 by default:
    /// the paper's `e` includes quiescence).
    #[serde(default)]
    pub q: SimTime,
    /// Time of one transposition-table probe or store on the processor that holds the table
    /// (charged per [`crate::Step::Probe`] of a search, and by a master serving a child's probe).
    /// 0 by default: searches without a table never probe.
    #[serde(default)]
    pub probe: SimTime,
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
            q: SimTime::ZERO,
            probe: SimTime::ZERO,
            s: SimTime::ZERO,
            interrupt: SimTime::ZERO,
        }
    }
}

impl CostModel {
    /// The time of a leaf whose evaluation searched `quiescence` quiescence nodes: `e + n q`
    /// (None if it does not fit in simulated time).
    #[inline]
    pub fn leaf(&self, quiescence: u32) -> Option<SimTime> {
        let extra = self.q.as_nanos().checked_mul(quiescence as u64)?;
        self.e.as_nanos().checked_add(extra).map(SimTime)
    }

    /// A lower bound on the time of a search step that takes any time at all: the least of
    /// `k`, `e`, `q` and `probe` that is not zero (a leaf takes `e + n q`); zero if none is.
    pub fn shortest_step(&self) -> SimTime {
        [self.k, self.e, self.q, self.probe]
            .into_iter()
            .filter(|&c| c > SimTime::ZERO)
            .min()
            .unwrap_or(SimTime::ZERO)
    }
}

/// Converts a count of processor cycles at `clock_hz` into time, rounded to the nearest ns.
pub fn cycles(count: u64, clock_hz: u64) -> SimTime {
    let ns = (count as u128 * 1_000_000_000u128 + clock_hz as u128 / 2) / clock_hz as u128;
    SimTime(ns as u64)
}
