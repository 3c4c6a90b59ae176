//! What a run measured: per-processor times, node counts, messages by type.

use crate::{CategoryTimes, Interval, ProcId, SimTime};
use serde::{Deserialize, Serialize};

/// The message types of the paper's Table I.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MsgKind {
    /// Global transposition-table probe (6 bytes) or update (12 bytes).
    AtNode,
    /// Next move and bound to a child, and the value it returns (4 bytes).
    InterNode,
    /// Refutation line after a PV node (2 bytes per ply from the leaf).
    InterLevel,
    /// Move list and refutation table between iterations (4w + 2iw bytes).
    InterIteration,
    /// Start-up and user traffic.
    Interactive,
}

impl MsgKind {
    /// Every message type, in [`MsgKind::index`] order (the order of results columns and of [`MsgCounts`]).
    pub const ALL: [MsgKind; 5] = [
        MsgKind::AtNode,
        MsgKind::InterNode,
        MsgKind::InterLevel,
        MsgKind::InterIteration,
        MsgKind::Interactive,
    ];
    /// This message type's position in [`MsgKind::ALL`] and in [`MsgCounts`]'s arrays.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The name used in results columns (`msgs_<name>`) and traces.
    pub fn name(self) -> &'static str {
        match self {
            MsgKind::AtNode => "at_node",
            MsgKind::InterNode => "inter_node",
            MsgKind::InterLevel => "inter_level",
            MsgKind::InterIteration => "inter_iteration",
            MsgKind::Interactive => "interactive",
        }
    }
}

/// Message counts and bytes per [`MsgKind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MsgCounts {
    /// Messages sent, per [`MsgKind::index`].
    pub count: [u64; 5],
    /// Bytes sent (payload, as the line carries it), per [`MsgKind::index`].
    pub bytes: [u64; 5],
}

impl MsgCounts {
    /// Counts one message of `kind` carrying `bytes` bytes.
    pub fn record(&mut self, kind: MsgKind, bytes: u64) {
        self.count[kind.index()] += 1;
        self.bytes[kind.index()] += bytes;
    }
    /// Messages of `kind` sent.
    pub fn count(&self, kind: MsgKind) -> u64 {
        self.count[kind.index()]
    }
    /// Bytes of all kinds sent.
    pub fn bytes_total(&self) -> u64 {
        self.bytes.iter().sum()
    }
}

/// One message's life, kept when a run records a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRecord {
    /// The sending processor.
    pub from: ProcId,
    /// The receiving processor.
    pub to: ProcId,
    /// The message's type (Table I).
    pub kind: MsgKind,
    /// Its size in bytes, which sets its transmission time on a serial line.
    pub bytes: u64,
    /// When the sender finished its setup and handed the message to the line.
    pub sent: SimTime,
    /// When the line started to carry it (later than `sent` if the line was busy or RTS/CTS held it).
    pub transmit_start: SimTime,
    /// When the last byte arrived.
    pub arrived: SimTime,
}

/// Search work a processor did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeCounts {
    /// Leaves evaluated (each charged `e`), quiescence nodes not included.
    pub leaves: u64,
    /// Interior nodes expanded (each charged `k` to generate its moves).
    pub interior: u64,
    /// Time spent evaluating leaves (for the leaf time overhead, eq. 10).
    pub leaf_ns: u64,
    /// Quiescence nodes searched by leaf evaluations (0 for synthetic trees).
    #[serde(default)]
    pub quiescence: u64,
    /// Transposition-table probes and stores made on a table the processor holds, each charged
    /// `probe` on it: its own searches', and those it serves for others (Parabelle's global
    /// table); 0 without a table.
    #[serde(default)]
    pub probes: u64,
}

impl NodeCounts {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &NodeCounts) {
        self.leaves += o.leaves;
        self.interior += o.interior;
        self.leaf_ns += o.leaf_ns;
        self.quiescence += o.quiescence;
        self.probes += o.probes;
    }
}

/// Everything one processor did in a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ProcStats {
    /// Nanoseconds the processor spent in each [`crate::Category`].
    pub times: CategoryTimes,
    /// The search work the processor did.
    pub nodes: NodeCounts,
    /// Category intervals, when the run recorded them.
    pub intervals: Vec<Interval>,
}

/// A synchronization point worth marking on a timeline (e.g. a PV node completed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// When the point was reached.
    pub at: SimTime,
    /// What happened there (drawn beside the mark on a timeline).
    pub label: String,
}

/// The measured outcome of one simulated run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RunStats {
    /// Time from the start to the last event of the run.
    pub makespan: SimTime,
    /// One entry per processor, indexed by [`ProcId::index`] (the master first).
    pub procs: Vec<ProcStats>,
    /// Messages sent by all processors, by type.
    pub messages: MsgCounts,
    /// Every message, when the run recorded a trace.
    pub message_log: Vec<MessageRecord>,
    /// Points in time the algorithm marked (PV nodes done, iterations done).
    pub markers: Vec<Marker>,
    /// Events handled by the engine (a measure of simulation work, not of the simulated machine).
    pub events: u64,
    /// Optimistic search batches that a message reached before their end and that went back to
    /// it (a measure of simulation work, like `events`).
    pub rollbacks: u64,
    /// Search steps run again after those rollbacks, from the batches' starts to the messages.
    pub replayed_steps: u64,
    /// Shared-memory traffic (all zero on a machine without shared memory).
    pub memory: MemoryCounts,
}

/// What the processors asked of a shared memory: accesses by kind, and how long they waited for
/// a busy bank (the latency itself not included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryCounts {
    /// Reads (a table probe, a look at a split point or a flag).
    pub reads: u64,
    /// Writes (a store, a result, a lock's test-and-set).
    pub writes: u64,
    /// Nanoseconds accesses waited for their bank to be free, over all processors.
    pub bank_wait_ns: u64,
}

impl RunStats {
    /// Sum of every processor's category times.
    pub fn total_times(&self) -> CategoryTimes {
        let mut t = CategoryTimes::default();
        for p in &self.procs {
            t.add(&p.times);
        }
        t
    }
    /// Sum of every processor's node counts.
    pub fn total_nodes(&self) -> NodeCounts {
        let mut n = NodeCounts::default();
        for p in &self.procs {
            n.add(&p.nodes);
        }
        n
    }
}
