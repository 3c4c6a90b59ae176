//! Shared memory: what reaching it costs and how accesses contend, and seeded timing noise.
//!
//! A shared-memory machine ([`crate::MachineConfig::memory`]) has one memory every processor
//! reaches. The memory only keeps *time*: what is stored there (a transposition table, split
//! points, counters) is the scheme's own data, which its roles share and read or change in the
//! callback that ends an access ([`crate::Cx::read`], [`crate::Cx::write`]), so the data changes
//! in the order the accesses end.
//!
//! **Timing.** An access names an address; address `a` lives in bank `a mod banks`, and a bank
//! serves one access at a time, first come first served in the order the accesses are asked for
//! (the machine's event order). An access asked for at `t` starts when its bank is free, takes
//! the read or write latency (times the NUMA factor if the bank's home is another node), and
//! its processor is in category `memory` from `t` to its end. The time spent waiting for the
//! bank is counted ([`sim_core::MemoryCounts::bank_wait_ns`]).
//!
//! **NUMA** (optional): processors are grouped into nodes of `per_node` consecutive processors;
//! bank `b`'s home is node `b mod nodes`; an access from a processor of another node costs the
//! latency times `remote_permille / 1000`.

use serde::{Deserialize, Serialize};
use sim_core::{MemoryCounts, ProcId, SimTime};

/// A shared memory's costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemorySpec {
    /// Time of one read (a table probe, a look at a split point).
    pub read: SimTime,
    /// Time of one write or read-modify-write (a store, a result, a lock's test-and-set).
    pub write: SimTime,
    /// Banks (or cache lines' homes), each serving one access at a time; at least 1.
    pub banks: u32,
    /// Non-uniform access: remote banks cost more.
    pub numa: Option<Numa>,
}

/// Non-uniform memory access: processors in nodes, banks spread over the nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Numa {
    /// Processors per node (consecutive numbers); at least 1.
    pub per_node: u32,
    /// A remote access's latency in thousandths of a local one (at least 1000).
    pub remote_permille: u32,
}

impl MemorySpec {
    /// The bank holding address `addr`.
    pub fn bank(&self, addr: u64) -> usize {
        (addr % self.banks.max(1) as u64) as usize
    }

    /// The latency of an access from `p` to `addr` (a write if `write`), NUMA factor included.
    pub fn latency(&self, p: ProcId, addr: u64, write: bool, processors: usize) -> SimTime {
        let base = if write { self.write } else { self.read };
        match self.numa {
            Some(n) if n.per_node > 0 => {
                let nodes = processors.div_ceil(n.per_node as usize).max(1);
                let home = self.bank(addr) % nodes;
                let mine = p.index() / n.per_node as usize;
                if home == mine {
                    base
                } else {
                    let ns = base.as_nanos() as u128 * n.remote_permille as u128 / 1000;
                    SimTime(ns.min(u64::MAX as u128) as u64)
                }
            }
            _ => base,
        }
    }
}

/// The memory's state during a run: when each bank is next free, and the traffic so far.
#[derive(Clone, Debug)]
pub(crate) struct Memory {
    pub(crate) spec: MemorySpec,
    free_at: Vec<SimTime>,
    pub(crate) counts: MemoryCounts,
}

impl Memory {
    pub(crate) fn new(spec: MemorySpec) -> Self {
        Memory {
            spec,
            free_at: vec![SimTime::ZERO; spec.banks.max(1) as usize],
            counts: MemoryCounts::default(),
        }
    }

    /// `p` asks at `now` to access `addr`: when the access ends (None if past simulated time).
    pub(crate) fn access(
        &mut self,
        p: ProcId,
        addr: u64,
        write: bool,
        now: SimTime,
        processors: usize,
    ) -> Option<SimTime> {
        let bank = self.spec.bank(addr);
        let start = self.free_at[bank].max(now);
        let end = start.checked_add(self.spec.latency(p, addr, write, processors))?;
        self.free_at[bank] = end;
        if write {
            self.counts.writes += 1;
        } else {
            self.counts.reads += 1;
        }
        self.counts.bank_wait_ns = self
            .counts
            .bank_wait_ns
            .saturating_add((start - now).as_nanos());
        Some(end)
    }
}

/// Seeded timing noise on search steps: each step's cost (an interior node's `k`, a leaf's
/// `e + n q`, a probe) is multiplied by `1 + j / 1000`, `j` drawn uniformly from
/// `-permille..=permille` by a hash of (seed, processor, the processor's step number). A run
/// stays a pure function of its inputs and seed; runs with other seeds drift apart differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jitter {
    /// Largest change, in thousandths of a step's cost (at most 999).
    pub permille: u32,
    /// The run's seed.
    pub seed: u64,
}

impl Jitter {
    /// `cost` of processor `p`'s step number `step`, with its noise.
    pub fn apply(&self, cost: SimTime, p: ProcId, step: u64) -> SimTime {
        if self.permille == 0 || cost == SimTime::ZERO {
            return cost;
        }
        let h = splitmix(self.seed ^ splitmix(p.index() as u64 ^ splitmix(step)));
        let span = 2 * self.permille as u64 + 1;
        let j = (h % span) as i128 - self.permille as i128;
        scaled(cost, j)
    }

    /// The least that [`Jitter::apply`] can make `cost` (its largest change downward).
    pub fn least(&self, cost: SimTime) -> SimTime {
        scaled(cost, -(self.permille as i128))
    }
}

/// `cost` changed by `j` thousandths, within the times a `SimTime` can hold.
#[inline]
fn scaled(cost: SimTime, j: i128) -> SimTime {
    let ns = cost.as_nanos() as i128 * (1000 + j) / 1000;
    SimTime(ns.clamp(0, u64::MAX as i128) as u64)
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(banks: u32) -> MemorySpec {
        MemorySpec {
            read: SimTime(100),
            write: SimTime(150),
            banks,
            numa: None,
        }
    }

    #[test]
    fn one_bank_serves_one_access_at_a_time() {
        let mut m = Memory::new(spec(2));
        // Addresses 0 and 2 share bank 0; address 1 is in bank 1.
        assert_eq!(
            m.access(ProcId(0), 0, false, SimTime(0), 4),
            Some(SimTime(100))
        );
        assert_eq!(
            m.access(ProcId(1), 2, true, SimTime(10), 4),
            Some(SimTime(250))
        );
        assert_eq!(
            m.access(ProcId(2), 1, false, SimTime(10), 4),
            Some(SimTime(110))
        );
        assert_eq!(m.counts.reads, 2);
        assert_eq!(m.counts.writes, 1);
        assert_eq!(m.counts.bank_wait_ns, 90);
        // A bank free again serves at once.
        assert_eq!(
            m.access(ProcId(3), 4, false, SimTime(400), 4),
            Some(SimTime(500))
        );
        assert_eq!(m.counts.bank_wait_ns, 90);
    }

    #[test]
    fn a_remote_bank_costs_the_numa_factor() {
        let s = MemorySpec {
            numa: Some(Numa {
                per_node: 2,
                remote_permille: 2500,
            }),
            ..spec(4)
        };
        // 4 processors: nodes {0, 1} and {2, 3}; bank b's home is node b mod 2.
        assert_eq!(s.latency(ProcId(0), 0, false, 4), SimTime(100));
        assert_eq!(s.latency(ProcId(0), 1, false, 4), SimTime(250));
        assert_eq!(s.latency(ProcId(3), 1, true, 4), SimTime(150));
        assert_eq!(s.latency(ProcId(3), 2, true, 4), SimTime(375));
    }

    #[test]
    fn jitter_stays_within_its_bound_and_depends_on_the_seed() {
        let j = Jitter {
            permille: 100,
            seed: 7,
        };
        let costs: Vec<_> = (0..2000)
            .map(|i| j.apply(SimTime(1000), ProcId(1), i).as_nanos())
            .collect();
        assert!(costs.iter().all(|&c| (900..=1100).contains(&c)));
        assert!(costs.iter().any(|&c| c < 950) && costs.iter().any(|&c| c > 1050));
        let mean = costs.iter().sum::<u64>() as f64 / costs.len() as f64;
        assert!((mean - 1000.0).abs() < 10.0, "mean {mean}");
        let other = Jitter { seed: 8, ..j };
        assert_ne!(
            costs,
            (0..2000)
                .map(|i| other.apply(SimTime(1000), ProcId(1), i).as_nanos())
                .collect::<Vec<_>>()
        );
        assert_eq!(
            Jitter { permille: 0, ..j }.apply(SimTime(1000), ProcId(1), 3),
            SimTime(1000)
        );
    }
}
