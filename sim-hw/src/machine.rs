//! A multiprocessor executing one program per processor over costed steps and real links.
//!
//! The [`Machine`] is the hardware half of a simulation: it owns the processors (their current
//! activity, their searches, when they read their lines, preemption, lookahead batching, time
//! accounting) and asks its [`Network`] to carry their messages (queueing, transmission,
//! RTS/CTS, routes). The algorithm half is a [`Program`] per processor, which
//! reacts to its start, to messages and to the end of its work by asking for more actions
//! through a [`Cx`].

use crate::memory::{Jitter, Memory, MemorySpec};
use crate::network::{level_spec, Arrival, ChannelId, Message, Network, NetworkError, Transit};
use crate::search::{Search, Step};
use crate::{CostModel, Forwarding, LinkSpec, Platform, ProcessorTree};
use serde::{Deserialize, Serialize};
use sim_core::{
    Category, EventId, EventQueue, Marker, MessageRecord, Model, MsgCounts, NodeCounts, ProcId,
    ProcStats, RunStats, Seq, SimTime, TimeAccount,
};
use std::collections::VecDeque;

/// A costed block of work: how long it takes and what it visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Simulated time it takes.
    pub time: SimTime,
    /// Nodes it visited.
    pub nodes: NodeCounts,
}

/// When a processor reads a message that has arrived on one of its lines. The hardware decides
/// it, not the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadPolicy {
    /// Interrupt-driven (the SCI host of section V): an arrival preempts whatever the processor
    /// is doing, unless it is already in an interrupt handler; the handler costs `interrupt`
    /// (category interrupt), then the program reacts, then the preempted work resumes.
    Interrupt,
    /// A bare board that looks at its line after every `every` nodes of its search, and whenever
    /// it is idle. Looking costs nothing; the program reacts before the search goes on.
    Poll {
        /// Search steps (nodes) between two looks at the line.
        every: u32,
    },
    /// Reads only when it has nothing else to do (Parabelle's children).
    WhenIdle,
}

/// The read policy of every processor: those with children (which host the lines to them) and
/// the others. The default is Parabelle's: the SCI host is interrupt-driven, the bare child boards
/// read when idle. On a pool (no children), processor 0 takes `hosts` and the others `boards`;
/// [`MachineConfig::read_by_processor`] chooses per processor instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadPolicies {
    /// Processors with children.
    pub hosts: ReadPolicy,
    /// Processors without children (terminal processors).
    pub boards: ReadPolicy,
}

impl Default for ReadPolicies {
    fn default() -> Self {
        ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::WhenIdle,
        }
    }
}

/// An algorithm role running on one processor.
///
/// The machine calls a role back, one callback at a time, at simulated times that never go
/// backwards:
/// - [`Program::start`] once, at time zero; every processor's `start` runs before any processor
///   acts, so a message sent at time zero finds its receiver's first work already queued;
/// - [`Program::on_message`] when the processor *reads* a message, which its [`ReadPolicy`]
///   decides: on arrival (interrupt, after the handler's cost), at the next poll, or when idle;
/// - [`Program::on_done`] when a computation or a search it started has ended, with its result.
///
/// In a callback the role queues actions on the [`Cx`] (sends, computations, a search); they run
/// in the order queued, after what was queued before (actions queued by an interrupt handler run
/// before the interrupted work). A processor with nothing queued is idle, in the category set by
/// [`Cx::idle_as`] (by default `idle_sync`; `wait_reply` while it waits for an answer it asked for).
///
/// A processor runs at most one search at a time. While it runs, the role can reach it from
/// `on_message` through [`Cx::search_mut`] (narrow its window) or [`Cx::abort_search`], and the
/// change takes effect from the next step, at the simulated time the message was read.
pub trait Program: Sized {
    /// The protocol's messages.
    type Msg: Message;
    /// The result of a computation or a search, handed back through `on_done`.
    type Out;
    /// The resumable search this role runs (use [`crate::NoSearch`] if it runs none).
    type Search: Search<Out = Self::Out>;
    /// Called once at time zero.
    fn start(&mut self, cx: &mut Cx<Self>);
    /// A message from a neighbour has been read.
    fn on_message(&mut self, from: ProcId, msg: Self::Msg, cx: &mut Cx<Self>);
    /// A computation or search has ended with `out`.
    fn on_done(&mut self, out: Self::Out, cx: &mut Cx<Self>);
    /// What the role still waits for, if anything (e.g. "results of 2 slaves"). Asked when the
    /// run has nothing left to do: a role that still waits is deadlocked, and the machine's
    /// error names it and this reason.
    fn pending(&self) -> Option<String> {
        None
    }
}

/// Why a run failed. A run never panics on a scheme's mistake or on times it cannot represent.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum MachineError {
    /// The run ended with work outstanding.
    #[error("deadlock: nothing left to do while {}", describe(stuck))]
    Deadlock {
        /// Each stuck processor and what it waits for.
        stuck: Vec<(ProcId, String)>,
    },
    /// A program sent to a processor the network has no route to (on a processor tree's
    /// network: one that is not its parent or child).
    #[error("{from} sent a message to {to}, but no line of the network joins them (on a processor tree, only a parent and its child are joined)")]
    NoLink {
        /// The sender.
        from: ProcId,
        /// The addressee.
        to: ProcId,
    },
    /// A program broke a rule of the machine or of its own scheme.
    #[error("{proc}: {message}")]
    Invariant {
        /// Where.
        proc: ProcId,
        /// What went wrong.
        message: String,
    },
    /// Simulated time would pass the largest representable time (about 584 years).
    #[error("{proc}: simulated time would pass {:.3e} s (the largest it can represent, reached from {:.3e} s); make the times the machine is given smaller (the costs in hardware.costs; the network's forward_cost, header and frame sizes; the memory's times) or its rates larger (hardware.link.rate, the network's rate)", SimTime::MAX.as_secs_f64(), at.as_secs_f64())]
    TimeOverflow {
        /// The processor whose next step overflowed.
        proc: ProcId,
        /// The time it had reached.
        at: SimTime,
    },
    /// A total over all processors (a category's time, the leaf time) is larger than a u64 of
    /// nanoseconds can hold, although each processor's own time fits.
    #[error("the processors' total {what} would pass {:.3e} s; make the times the machine is given smaller (the costs in hardware.costs; the network's forward_cost, header and frame sizes; the memory's times) or use fewer processors", SimTime::MAX.as_secs_f64())]
    TotalOverflow {
        /// Which total.
        what: String,
    },
    /// The run handled more engine events than its budget allowed.
    #[error("the run exceeded its budget of {0} engine events")]
    Budget(u64),
}

fn describe(stuck: &[(ProcId, String)]) -> String {
    stuck
        .iter()
        .map(|(p, why)| format!("{p} waits for {why}"))
        .collect::<Vec<_>>()
        .join("; ")
}

enum Action<P: Program> {
    Send {
        to: ProcId,
        msg: P::Msg,
    },
    Compute {
        time: SimTime,
        out: P::Out,
        nodes: NodeCounts,
    },
    /// Waiting a stated time doing nothing (category idle_sync, or memory for a spin), then
    /// `on_done(out)`.
    Wait {
        time: SimTime,
        out: P::Out,
        category: Category,
    },
    /// An access to shared memory (its time is the bank's wait and the latency), then
    /// `on_done(out)`.
    Memory {
        addr: u64,
        write: bool,
        out: P::Out,
    },
    /// The interrupt handler for an arrived message (interrupt-driven processors only).
    Handle {
        from: ProcId,
        msg: P::Msg,
    },
    /// Run the processor's search (the search object itself is kept in `Proc::search`); the
    /// number names which search, so that one aborted in the meantime is skipped.
    Search(u64),
    /// One broadcast frame (on a bus) bringing each receiver its copy.
    Broadcast {
        copies: Vec<(ProcId, P::Msg)>,
    },
    /// Forwarding a message in transit (software routing): CPU time of this processor.
    Forward(Transit<P::Msg>),
    /// A board taking an arriving message's characters one by one (its line's serial interface
    /// is a device with a per-character cost, [`crate::SciSpec::board_char`]); the message is
    /// read after, as its read policy says.
    Receive {
        from: ProcId,
        msg: P::Msg,
    },
}

impl<P: Program> Action<P> {
    /// Part of an interrupt service when an interrupt handler asks for it: its sends (and a
    /// handler waiting behind another) run before the interrupted work, unpreempted.
    fn serves_interrupt(&self) -> bool {
        matches!(
            self,
            Action::Send { .. } | Action::Broadcast { .. } | Action::Handle { .. }
        )
    }
    fn category(&self) -> Category {
        match self {
            Action::Send { .. }
            | Action::Broadcast { .. }
            | Action::Forward(_)
            | Action::Receive { .. } => Category::Message,
            Action::Compute { .. } | Action::Search(_) => Category::Search,
            Action::Handle { .. } => Category::Interrupt,
            Action::Wait { category, .. } => *category,
            Action::Memory { .. } => Category::Memory,
        }
    }
}

/// A processor's search and what the machine knows of it.
struct SearchSlot<S: Search> {
    search: S,
    id: u64,
    /// No message will reach it: the machine may run it to its end at once.
    isolated: bool,
    /// Its result, once a batch has run it to the end (handed over when that time has passed).
    done: Option<S::Out>,
    /// Steps taken (for polling).
    steps: u64,
    /// Other processors read or change its state (split points in shared memory).
    shared: bool,
    /// While an optimistic batch runs: the search as it was when the batch started.
    checkpoint: Option<Checkpoint<S>>,
}

/// Where an optimistic batch started: the search, the step count and the processor's node
/// counts then, and the batch's start and the rest of a step it first finished.
struct Checkpoint<S> {
    search: S,
    steps: u64,
    nodes: NodeCounts,
    now: SimTime,
    remaining: Option<SimTime>,
}

/// The fewest and the most steps an optimistic batch runs past its conservative horizon.
const OPTIMISTIC_MIN: u64 = 8;
const OPTIMISTIC_MAX: u64 = 1 << 20;

/// The most futile looks in a row that count ([`Machine::batch_horizon`]): after the nth, the
/// next 2^n - 1 batches skip the look, so at most 2^6 - 1 = 63 batches in a row skip it.
const FUTILE_LOOKS_MAX: u32 = 6;

/// What a program may do in a callback.
pub struct Cx<'a, P: Program> {
    now: SimTime,
    me: ProcId,
    costs: &'a CostModel,
    platform: &'a Platform,
    memory: Option<&'a MemorySpec>,
    bus: bool,
    actions: Vec<Action<P>>,
    markers: &'a mut Vec<Marker>,
    idle_as: Option<Category>,
    search: &'a mut Option<SearchSlot<P::Search>>,
    next_search_id: &'a mut u64,
    failure: Option<String>,
}

impl<P: Program> Cx<'_, P> {
    /// The simulated time of this callback.
    pub fn now(&self) -> SimTime {
        self.now
    }
    /// This processor.
    pub fn me(&self) -> ProcId {
        self.me
    }
    /// The processor's cost model.
    pub fn costs(&self) -> &CostModel {
        self.costs
    }
    /// This processor's parent in the processor tree (None for the root processor, and on a
    /// pool).
    pub fn parent(&self) -> Option<ProcId> {
        self.platform.tree().and_then(|t| t.parent(self.me))
    }
    /// This processor's children in the processor tree (none on a pool).
    pub fn children(&self) -> Vec<ProcId> {
        self.platform
            .tree()
            .map_or_else(Vec::new, |t| t.children(self.me))
    }
    /// How many processors the machine has: they are `ProcId(0)` to `ProcId(processors() - 1)`.
    pub fn processors(&self) -> usize {
        self.platform.len()
    }
    /// The machine's processors and how they are joined.
    pub fn platform(&self) -> &Platform {
        self.platform
    }
    /// Sends `msg` to processor `to`: the CPU spends `s` on setup, then the message joins the
    /// queue of its route's first channel. On a processor tree `to` must be this processor's
    /// parent or child; on a pool, any other processor (else the run fails with
    /// [`MachineError::NoLink`]).
    pub fn send(&mut self, to: ProcId, msg: P::Msg) {
        self.actions.push(Action::Send { to, msg });
    }
    /// Sends `msg` to every other processor. On a bus: one frame, one setup `s`, arriving at
    /// every other processor at the same time (counted as one message). On any other network:
    /// one [`Cx::send`] per other processor, in processor order, each with its own setup `s`
    /// (on a processor tree this fails unless every other processor is a neighbour).
    pub fn broadcast(&mut self, msg: P::Msg)
    where
        P::Msg: Clone,
    {
        let others = (0..self.platform.len() as u32)
            .map(ProcId)
            .filter(|&p| p != self.me);
        if self.bus {
            let copies = others.map(|p| (p, msg.clone())).collect();
            self.actions.push(Action::Broadcast { copies });
        } else {
            for to in others {
                self.actions.push(Action::Send {
                    to,
                    msg: msg.clone(),
                });
            }
        }
    }
    /// Spends `work.time` computing; `out` is handed back through `on_done` at the end. The work
    /// cannot be reached by messages (an interrupt only delays it).
    pub fn compute(&mut self, work: Work, out: P::Out) {
        self.actions.push(Action::Compute {
            time: work.time,
            out,
            nodes: work.nodes,
        });
    }
    /// Waits `time` doing nothing (category `idle_sync`: a timer, e.g. a back-off before asking
    /// again for work), then hands `out` back through `on_done`. Like a computation, the wait is
    /// the processor's current action: a processor that reads when idle does not read during it,
    /// an interrupt delays its end.
    pub fn wait(&mut self, time: SimTime, out: P::Out) {
        self.actions.push(Action::Wait {
            time,
            out,
            category: Category::IdleSync,
        });
    }
    /// Like [`Cx::wait`], but spinning on shared memory (a lock or a flag held in the
    /// processor's cache): category `memory`.
    pub fn spin(&mut self, time: SimTime, out: P::Out) {
        self.actions.push(Action::Wait {
            time,
            out,
            category: Category::Memory,
        });
    }
    /// Reads shared memory at `addr` (category `memory`: the wait for its bank, then the read
    /// latency), then hands `out` back through `on_done`, where the program reads its shared
    /// data: what it sees is the data as it is when the access ends. Only on a machine with
    /// shared memory ([`MachineConfig::memory`]); elsewhere the run fails.
    pub fn read(&mut self, addr: u64, out: P::Out) {
        self.memory_access(addr, false, out);
    }
    /// Writes shared memory at `addr` (or a read-modify-write such as a lock's test-and-set), as
    /// [`Cx::read`] with the write latency: the program changes its shared data in `on_done`.
    pub fn write(&mut self, addr: u64, out: P::Out) {
        self.memory_access(addr, true, out);
    }
    fn memory_access(&mut self, addr: u64, write: bool, out: P::Out) {
        if self.memory.is_none() {
            self.fail("reached shared memory on a machine without it");
            return;
        }
        self.actions.push(Action::Memory { addr, write, out });
    }
    /// The machine's shared memory, if it has one.
    pub fn memory(&self) -> Option<&MemorySpec> {
        self.memory
    }
    /// Queues `search`, which the machine advances step by step; its result comes back through
    /// `on_done`. Messages read while it runs can change it ([`Cx::search_mut`],
    /// [`Cx::abort_search`]). One search per processor at a time.
    pub fn search(&mut self, search: P::Search) {
        self.start_search(search, false, false);
    }
    /// Like [`Cx::search`], for a search that no message will change: the machine may then run
    /// it to its end in one go, which is faster. Interrupts still delay it. Reaching it with
    /// [`Cx::search_mut`] or [`Cx::abort_search`] is an error.
    pub fn search_isolated(&mut self, search: P::Search) {
        self.start_search(search, true, false);
    }
    /// Like [`Cx::search`], for a search whose state other processors' programs read or change
    /// in their callbacks (split points held in shared memory): the machine then never runs it
    /// past the earliest time another processor could act, so each change reaches it at the
    /// simulated time it is made.
    pub fn search_shared(&mut self, search: P::Search) {
        self.start_search(search, false, true);
    }
    fn start_search(&mut self, search: P::Search, isolated: bool, shared: bool) {
        if self.search.is_some() {
            self.fail("started a search while another one was still running");
            return;
        }
        let id = *self.next_search_id;
        *self.next_search_id += 1;
        *self.search = Some(SearchSlot {
            search,
            id,
            isolated,
            done: None,
            steps: 0,
            shared,
            checkpoint: None,
        });
        self.actions.push(Action::Search(id));
    }
    /// The search this processor is running (or has queued), to change it in place: a change
    /// takes effect from its next step, now. None if there is none, or it already ended.
    pub fn search_mut(&mut self) -> Option<&mut P::Search> {
        match self.search.as_mut() {
            Some(s) if s.isolated => {
                self.failure =
                    Some("reached a search that was started as isolated (search_isolated)".into());
                None
            }
            Some(s) if s.done.is_some() => None,
            Some(s) => Some(&mut s.search),
            None => None,
        }
    }
    /// Stops this processor's search now: it takes no further step and `on_done` is not called
    /// for it. Returns it (e.g. to read how far it got).
    pub fn abort_search(&mut self) -> Option<P::Search> {
        match self.search.as_ref() {
            Some(s) if s.isolated => {
                self.failure =
                    Some("aborted a search that was started as isolated (search_isolated)".into());
                None
            }
            Some(_) => self.search.take().map(|s| s.search),
            None => None,
        }
    }
    /// True if this processor has a search running or queued.
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }
    /// Marks this moment on the run's timeline (e.g. "PV node done").
    pub fn mark(&mut self, label: impl Into<String>) {
        self.markers.push(Marker {
            at: self.now,
            label: label.into(),
        });
    }
    /// The category this processor's idle time falls in until its next action (default
    /// `IdleSync`; `WaitReply` while blocked on an answer it asked for).
    pub fn idle_as(&mut self, category: Category) {
        self.idle_as = Some(category);
    }
    /// Ends the run with an error: the scheme broke one of its own invariants.
    pub fn fail(&mut self, message: impl Into<String>) {
        self.failure.get_or_insert(message.into());
    }
}

/// How a machine is built. [`MachineConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
pub struct MachineConfig {
    /// The processors and how they are joined (a processor tree's lines, or a pool's network).
    pub platform: Platform,
    /// What steps cost.
    pub costs: CostModel,
    /// The lines, from the root processor down: `links[i]` connects processors at level `i` to
    /// their children; the last entry serves every level below it. At least one entry. On a
    /// pool, `links[0]` is the spec of every line (a bus has its own rate).
    pub links: Vec<LinkSpec>,
    /// When each processor reads its line: by whether it has children (on a pool: processor 0
    /// as a host, the others as boards), unless `read_by_processor` says.
    pub reads: ReadPolicies,
    /// When each processor reads, by processor number (`read_by_processor[i]` for processor
    /// `i`); empty: from `reads`. Else one entry per processor.
    pub read_by_processor: Vec<ReadPolicy>,
    /// Lookahead batching (ARCHITECTURE.md, "Batching"): a processor runs search steps ahead on its own
    /// clock up to the earliest time anything could reach its search. Off: one engine event per
    /// search step. Results are the same either way; only the event count (and the rollback
    /// counts of optimistic execution) differ.
    pub batching: bool,
    /// Stop the run with [`MachineError::Budget`] after this many engine events. An event is
    /// not a fixed amount of work: a batch may take millions of search steps (and an optimistic
    /// one replay some), so the same run may pass the budget batched and fail it step by step.
    pub max_events: Option<u64>,
    /// Keep every category interval of every processor (for timelines and traces).
    pub record_intervals: bool,
    /// Keep every message's send and arrival times (for traces).
    pub record_messages: bool,
    /// Shared memory every processor reaches ([`Cx::read`], [`Cx::write`]); None: none. With
    /// it, a processor's search state may be read or changed by any other processor's callback
    /// (a split point), so a search batch also stops at the earliest time another processor
    /// could act.
    pub memory: Option<MemorySpec>,
    /// Seeded noise on the cost of every search step; None: exact costs.
    pub jitter: Option<Jitter>,
    /// Optimistic execution (with batching; ARCHITECTURE.md, "Batching"): an interrupt-driven
    /// processor runs a search that can be copied ([`Search::fork`]) past the earliest time a
    /// message could reach it, keeping a copy from the batch's start; a message that reaches it
    /// earlier takes it back to that copy and replays the steps up to the message. Results are
    /// the same either way; only the event count and the rollback counts differ.
    pub optimistic: bool,
}

impl MachineConfig {
    /// One link kind at every level, Parabelle's read policies, batching on, nothing recorded.
    pub fn new(tree: ProcessorTree, costs: CostModel, link: LinkSpec) -> Self {
        Self::on(Platform::Tree(tree), costs, link)
    }
    /// A pool of `processors` processors over `network`, its lines (if any) of spec `link`;
    /// otherwise as [`MachineConfig::new`].
    pub fn pool(
        processors: usize,
        network: crate::PoolNetwork,
        costs: CostModel,
        link: LinkSpec,
    ) -> Self {
        Self::on(Platform::pool(processors, network), costs, link)
    }
    /// On `platform`; otherwise as [`MachineConfig::new`].
    pub fn on(platform: Platform, costs: CostModel, link: LinkSpec) -> Self {
        MachineConfig {
            platform,
            costs,
            links: vec![link],
            reads: ReadPolicies::default(),
            read_by_processor: Vec::new(),
            batching: true,
            max_events: None,
            record_intervals: false,
            record_messages: false,
            memory: None,
            jitter: None,
            optimistic: true,
        }
    }
    /// The link spec of the lines below processors at `level` (0 = the root processor).
    pub fn link_at(&self, level: usize) -> LinkSpec {
        level_spec(&self.links, level)
    }
    /// The processor tree, if the platform is one.
    pub fn tree(&self) -> Option<&ProcessorTree> {
        self.platform.tree()
    }
    /// When processor `p` reads: `read_by_processor[p]` if given, else by `reads` (a processor
    /// with children, or processor 0 of a pool, as a host; the others as boards).
    pub fn read_policy(&self, p: ProcId) -> ReadPolicy {
        if let Some(&r) = self.read_by_processor.get(p.index()) {
            return r;
        }
        let host = match &self.platform {
            Platform::Tree(t) | Platform::Overlay { tree: t, .. } => !t.children(p).is_empty(),
            Platform::Pool { .. } => p == ProcId::MASTER,
        };
        if host {
            self.reads.hosts
        } else {
            self.reads.boards
        }
    }
}

/// An action in progress or waiting, with the time still to spend on it when it was preempted.
struct Slot<P: Program> {
    action: Action<P>,
    /// Part of an interrupt service (a handler, or a send it made): not preempted by arrivals.
    in_isr: bool,
    /// Time left, for an action resumed after an interrupt (its nodes were counted already).
    remaining: Option<SimTime>,
}

struct Running<P: Program> {
    slot: Slot<P>,
    end: SimTime,
    event: EventId,
    /// For a search: the place among simultaneous events it keeps until it is preempted.
    seq: Option<Seq>,
}

struct Proc<P: Program> {
    program: P,
    account: TimeAccount,
    running: Option<Running<P>>,
    queue: VecDeque<Slot<P>>,
    inbox: VecDeque<(ProcId, P::Msg)>,
    search: Option<SearchSlot<P::Search>>,
    read: ReadPolicy,
    idle_as: Category,
    nodes: NodeCounts,
    /// How many steps its next optimistic batch runs at least (doubled when a batch ends
    /// untouched, cut back to the steps a message let it run when one reached it).
    optimistic_steps: u64,
    /// Looks at the lines into it in a row that found a horizon no later than the batch's
    /// first step, and how many of its next batches take that for granted without looking
    /// (2^n - 1 after the nth futile look, n at most [`FUTILE_LOOKS_MAX`]).
    futile_looks: u32,
    skip_looks: u32,
}

impl<P: Program> Proc<P> {
    /// Idle and waiting for input: what RTS/CTS waits for.
    fn ready_to_read(&self) -> bool {
        self.read == ReadPolicy::Interrupt
            || (self.running.is_none() && self.queue.is_empty() && self.inbox.is_empty())
    }
    /// Until when it is busy with what it has: the end of its work in progress, `now` if work
    /// or messages wait, never if it has nothing.
    fn busy_until(&self, now: SimTime) -> SimTime {
        match &self.running {
            Some(r) => r.end,
            None if !self.queue.is_empty() || !self.inbox.is_empty() => now,
            None => SimTime::MAX,
        }
    }
    /// Whether it reacts to an arrival at once: idle, or interrupt-driven.
    fn reacts(&self) -> bool {
        self.running.is_none() || self.read == ReadPolicy::Interrupt
    }
}

/// Engine events of a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwEvent {
    /// The running action (or search batch) of a processor has ended.
    ActionDone(ProcId),
    /// The message on a channel of the network has fully arrived.
    Arrive(ChannelId),
    /// The hardware router of a processor has forwarded the oldest message it holds.
    Relay(ProcId),
}

/// Processors and their network driven by the global event queue.
///
/// Semantics (ARCHITECTURE.md, "Time", "Accounting", "Links and the network", "Batching"):
/// - a send costs the sender `s` of CPU time (category message); then the message is posted on the
///   [`Network`], which carries it (on a line: the FIFO of its direction, `bytes / rate` on the
///   line, arriving when the last byte does);
/// - with RTS/CTS, a message to a child is not put on the line until the child is ready to read
///   (idle, at a poll, or always if interrupt-driven): the machine tells the network when;
/// - when a processor reads an arrived message is its [`ReadPolicy`];
/// - a search advances node by node: each step's state change happens at its start, then its cost
///   passes; a message read at time `t` changes the search for every step that starts after `t`;
/// - lookahead batching runs a search's steps ahead up to the earliest time anything could reach
///   it (for an isolated search, or on a processor that reads only when idle: to its end); a
///   batch ends in one event that keeps the place among simultaneous events that the search took
///   when it started or resumed, so results do not depend on batching;
/// - every processor is in exactly one category at every moment, so its times add up to the makespan.
pub struct Machine<P: Program> {
    procs: Vec<Proc<P>>,
    network: Network<P::Msg>,
    config: MachineConfig,
    messages: MsgCounts,
    message_log: Vec<MessageRecord>,
    markers: Vec<Marker>,
    next_search_id: u64,
    failure: Option<MachineError>,
    events: u64,
    /// Optimistic batches taken back, and the steps replayed then.
    rollbacks: u64,
    replayed_steps: u64,
    /// Message setup is free and some line is ideal: a message can arrive the instant it is sent.
    zero_delay: bool,
    /// The least time a search step that takes any time takes (less its largest timing noise):
    /// the earliest a batch's first step ends ([`Machine::first_step_end`]).
    shortest_noisy_step: SimTime,
    /// Messages in each processor's hardware router, with the time each leaves it (in that
    /// order: the forwarding cost is the same for all).
    routers: Vec<VecDeque<(SimTime, Transit<P::Msg>)>>,
    /// An empty list kept for the next callback's actions (its allocation reused).
    spare: Vec<Action<P>>,
    /// The shared memory's banks and traffic, if the machine has one.
    memory: Option<Memory>,
}

impl<P: Program> Machine<P> {
    /// Builds a machine; `programs[i]` runs on processor `i`.
    pub fn new(config: MachineConfig, programs: Vec<P>) -> Result<Self, MachineError> {
        let n = config.platform.len();
        if programs.len() != n {
            return Err(MachineError::Invariant {
                proc: ProcId::MASTER,
                message: format!("{} programs for {} processors", programs.len(), n),
            });
        }
        if !config.read_by_processor.is_empty() && config.read_by_processor.len() != n {
            return Err(MachineError::Invariant {
                proc: ProcId::MASTER,
                message: format!(
                    "{} read policies for {} processors",
                    config.read_by_processor.len(),
                    n
                ),
            });
        }
        if config.links.is_empty() {
            return Err(MachineError::Invariant {
                proc: ProcId::MASTER,
                message: "no link spec".into(),
            });
        }
        let network = match &config.platform {
            Platform::Tree(tree) => Network::tree(tree, &config.links),
            Platform::Pool {
                processors,
                network,
            } => Network::pool(*processors, network, config.links[0], config.costs.s).map_err(
                |e| MachineError::Invariant {
                    proc: ProcId::MASTER,
                    message: e.to_string(),
                },
            )?,
            Platform::Overlay { tree, network } => {
                Network::pool(tree.len(), network, config.links[0], config.costs.s).map_err(
                    |e| MachineError::Invariant {
                        proc: ProcId::MASTER,
                        message: e.to_string(),
                    },
                )?
            }
        };
        let procs = programs
            .into_iter()
            .enumerate()
            .map(|(i, program)| {
                let read = config.read_policy(ProcId(i as u32));
                Proc {
                    program,
                    account: TimeAccount::new(config.record_intervals),
                    running: None,
                    queue: VecDeque::new(),
                    inbox: VecDeque::new(),
                    search: None,
                    read,
                    idle_as: Category::IdleSync,
                    nodes: NodeCounts::default(),
                    optimistic_steps: OPTIMISTIC_MIN,
                    futile_looks: 0,
                    skip_looks: 0,
                }
            })
            .collect();
        let zero_delay = config.costs.s == SimTime::ZERO
            && match config.platform.pool_network() {
                None => config
                    .links
                    .iter()
                    .any(|l| l.transmit_time(1) == SimTime::ZERO),
                Some(crate::PoolNetwork::Bus(bus)) => bus.frame_time(0) == SimTime::ZERO,
                Some(_) => config.links[0].transmit_time(1) == SimTime::ZERO,
            };
        let shortest = config.costs.shortest_step();
        let shortest_noisy_step = config.jitter.map_or(shortest, |j| j.least(shortest));
        Ok(Machine {
            procs,
            network,
            messages: MsgCounts::default(),
            message_log: Vec::new(),
            markers: Vec::new(),
            next_search_id: 0,
            failure: None,
            events: 0,
            rollbacks: 0,
            replayed_steps: 0,
            zero_delay,
            shortest_noisy_step,
            routers: (0..n).map(|_| VecDeque::new()).collect(),
            spare: Vec::new(),
            memory: config.memory.map(Memory::new),
            config,
        })
    }

    /// Runs every program from time zero until nothing is left to do; returns the statistics and
    /// the programs (so that a role can be asked for its result, e.g. the root value), or why the
    /// run failed.
    pub fn run(mut self) -> Result<(RunStats, Vec<P>), MachineError> {
        let mut queue = EventQueue::new();
        // Every program states its first actions before any processor starts acting, so that a
        // message sent at time zero finds its receiver's first work queued (RTS/CTS).
        for i in 0..self.procs.len() {
            let me = ProcId(i as u32);
            let actions = self.callback(me, SimTime::ZERO, |p, cx| p.start(cx));
            self.enqueue_back(me, actions);
        }
        for i in 0..self.procs.len() {
            self.kick(ProcId(i as u32), SimTime::ZERO, &mut queue);
        }
        let (end, _) = sim_core::run(&mut self, &mut queue);
        if let Some(e) = self.failure {
            return Err(e);
        }
        self.check_finished()?;
        self.check_totals(end)?;
        let mut procs = Vec::with_capacity(self.procs.len());
        let mut programs = Vec::with_capacity(self.procs.len());
        for mut p in self.procs {
            p.account.close(end);
            procs.push(ProcStats {
                times: *p.account.times(),
                nodes: p.nodes,
                intervals: p.account.take_intervals(),
            });
            programs.push(p.program);
        }
        let stats = RunStats {
            makespan: end,
            procs,
            messages: self.messages,
            message_log: self.message_log,
            markers: self.markers,
            events: self.events,
            rollbacks: self.rollbacks,
            replayed_steps: self.replayed_steps,
            memory: self.memory.map_or_else(Default::default, |m| m.counts),
        };
        Ok((stats, programs))
    }

    /// The event queue ran dry: anything still outstanding is a deadlock.
    fn check_finished(&self) -> Result<(), MachineError> {
        let mut stuck = Vec::new();
        for (i, p) in self.procs.iter().enumerate() {
            let id = ProcId(i as u32);
            if let Some(why) = p.program.pending() {
                stuck.push((id, why));
            } else if p.search.is_some() {
                stuck.push((id, "its search to be resumed".into()));
            } else if p.running.is_some() || !p.queue.is_empty() || !p.inbox.is_empty() {
                stuck.push((id, "work it could not start".into()));
            }
        }
        for (from, to) in self.network.held() {
            stuck.push((
                from,
                format!("{to} to be ready to read (a message is held on the line)"),
            ));
        }
        if stuck.is_empty() {
            Ok(())
        } else {
            Err(MachineError::Deadlock { stuck })
        }
    }

    /// Every total over all processors that results add up must fit in a u64 of nanoseconds.
    fn check_totals(&mut self, end: SimTime) -> Result<(), MachineError> {
        let mut totals = [0u128; Category::ALL.len()];
        let mut leaf_ns = 0u128;
        for p in &mut self.procs {
            p.account.close(end);
            for c in Category::ALL {
                totals[c.index()] += p.account.times().get(c) as u128;
            }
            leaf_ns += p.nodes.leaf_ns as u128;
        }
        for c in Category::ALL {
            if totals[c.index()] > u64::MAX as u128 {
                return Err(MachineError::TotalOverflow {
                    what: format!("{} time", c.name()),
                });
            }
        }
        if leaf_ns > u64::MAX as u128 {
            return Err(MachineError::TotalOverflow {
                what: "leaf evaluation time".into(),
            });
        }
        Ok(())
    }

    fn fail(&mut self, e: MachineError) {
        self.failure.get_or_insert(e);
    }

    fn add(&mut self, me: ProcId, now: SimTime, d: SimTime) -> Option<SimTime> {
        let t = now.checked_add(d);
        if t.is_none() {
            self.fail(MachineError::TimeOverflow { proc: me, at: now });
        }
        t
    }

    /// Calls a program with a fresh context; returns the actions it queued.
    fn callback(
        &mut self,
        me: ProcId,
        now: SimTime,
        f: impl FnOnce(&mut P, &mut Cx<P>),
    ) -> Vec<Action<P>> {
        let proc = &mut self.procs[me.index()];
        let before = proc.search.as_ref().map(|s| s.id);
        let mut cx = Cx {
            now,
            me,
            costs: &self.config.costs,
            platform: &self.config.platform,
            memory: self.config.memory.as_ref(),
            bus: self.network.has_broadcast(),
            actions: std::mem::take(&mut self.spare),
            markers: &mut self.markers,
            idle_as: None,
            search: &mut proc.search,
            next_search_id: &mut self.next_search_id,
            failure: None,
        };
        f(&mut proc.program, &mut cx);
        let (actions, idle_as, failure) = (cx.actions, cx.idle_as, cx.failure);
        if let Some(c) = idle_as {
            proc.idle_as = c;
        }
        // A search aborted in the callback leaves the queue and the processor.
        let after = proc.search.as_ref().map(|s| s.id);
        if before.is_some() && before != after {
            // A callback never runs while its processor's search is running (an interrupt has
            // preempted it, a poll has paused it), so the search is in the queue, if anywhere.
            proc.queue
                .retain(|s| !matches!(s.action, Action::Search(id) if Some(id) == before));
        }
        if let Some(message) = failure {
            self.fail(MachineError::Invariant { proc: me, message });
        }
        // Lines built as pairs first talk exist before the send is posted, for the lookahead.
        for a in &actions {
            if let Action::Send { to, .. } = a {
                self.network.prepare(me, *to);
            }
        }
        actions
    }
}

impl<P: Program> Machine<P> {
    /// A program's own actions run in the order it asked for them, after what it asked before.
    fn enqueue_back(&mut self, me: ProcId, mut actions: Vec<Action<P>>) {
        let q = &mut self.procs[me.index()].queue;
        if actions.len() == 1 {
            // The common case, without the cost of a drain.
            let action = actions.pop().expect("one action");
            q.push_back(Slot {
                action,
                in_isr: false,
                remaining: None,
            });
        } else {
            q.extend(actions.drain(..).map(|action| Slot {
                action,
                in_isr: false,
                remaining: None,
            }));
        }
        self.spare = actions;
    }

    /// An interrupt service's actions run first, before the interrupted work. Its sends are part
    /// of the service (not preempted) and go first; a computation or search it starts is ordinary
    /// work, queued after every interrupt service still pending (a handler for a message that
    /// arrived during this one must not wait for that computation) and before the interrupted work.
    fn enqueue_isr(&mut self, me: ProcId, mut actions: Vec<Action<P>>) {
        let q = &mut self.procs[me.index()].queue;
        if actions.len() == 1 && q.is_empty() {
            // The common case (one action, nothing queued): in place without a drain.
            let action = actions.pop().expect("one action");
            let in_isr = action.serves_interrupt();
            q.push_back(Slot {
                action,
                in_isr,
                remaining: None,
            });
            self.spare = actions;
            return;
        }
        let after_services = q.iter().take_while(|s| s.in_isr).count();
        // In place, in one pass: the sends so far lead the queue in order, the work so far
        // follows the services that were pending.
        let (mut sends, mut work) = (0, 0);
        for action in actions.drain(..) {
            let in_isr = action.serves_interrupt();
            let at = if in_isr {
                sends
            } else {
                sends + after_services + work
            };
            q.insert(
                at,
                Slot {
                    action,
                    in_isr,
                    remaining: None,
                },
            );
            if in_isr {
                sends += 1;
            } else {
                work += 1;
            }
        }
        self.spare = actions;
    }

    /// Starts the next queued action of `me` if it is not busy; finishes zero-time actions at
    /// once; when nothing is left, the processor idles (and, unless interrupt-driven, takes its
    /// next buffered message or raises its request-to-send).
    fn kick(&mut self, me: ProcId, now: SimTime, queue: &mut EventQueue<HwEvent>) {
        loop {
            if self.failure.is_some() {
                return;
            }
            let proc = &mut self.procs[me.index()];
            if proc.running.is_some() {
                return;
            }
            if let Some(slot) = proc.queue.pop_front() {
                proc.account.switch(now, slot.action.category());
                if let Action::Search(id) = slot.action {
                    if proc.search.as_ref().map(|s| s.id) != Some(id) {
                        continue; // aborted while it waited
                    }
                    let seq = queue.reserve();
                    self.run_batch(me, now, slot, seq, queue);
                    if self.procs[me.index()].running.is_none() {
                        continue; // finished at once
                    }
                    return;
                }
                let time = match slot.remaining {
                    Some(left) => left,
                    None => match &slot.action {
                        Action::Send { to, msg } => {
                            let chars = self.network.char_cost(me, *to);
                            plus(self.config.costs.s, per_char(chars, msg.bytes()))
                        }
                        Action::Broadcast { .. } => self.config.costs.s,
                        Action::Handle { from, msg } => self.service_time(me, *from, msg),
                        Action::Receive { from, msg } => {
                            per_char(self.network.char_cost(me, *from), msg.bytes())
                        }
                        Action::Forward(_) => {
                            self.network.routing().map_or(SimTime::ZERO, |r| r.cost)
                        }
                        Action::Compute { time, nodes, .. } => {
                            match proc.nodes.leaf_ns.checked_add(nodes.leaf_ns) {
                                Some(_) => proc.nodes.add(nodes),
                                None => {
                                    self.fail(MachineError::TimeOverflow { proc: me, at: now });
                                    return;
                                }
                            }
                            *time
                        }
                        Action::Wait { time, .. } => *time,
                        Action::Memory { addr, write, .. } => {
                            let n = self.procs.len();
                            let memory = self.memory.as_mut().expect("checked by Cx");
                            match memory.access(me, *addr, *write, now, n) {
                                Some(end) => end - now,
                                None => {
                                    self.fail(MachineError::TimeOverflow { proc: me, at: now });
                                    return;
                                }
                            }
                        }
                        Action::Search(_) => unreachable!("handled above"),
                    },
                };
                if time == SimTime::ZERO {
                    self.finish(me, slot, now, queue);
                    continue;
                }
                let Some(end) = self.add(me, now, time) else {
                    return;
                };
                let event = queue.schedule(end, HwEvent::ActionDone(me));
                self.procs[me.index()].running = Some(Running {
                    slot,
                    end,
                    event,
                    seq: None,
                });
                return;
            }
            proc.account.switch(now, proc.idle_as);
            if proc.read != ReadPolicy::Interrupt {
                if let Some((from, msg)) = proc.inbox.pop_front() {
                    let actions = self.callback(me, now, |p, cx| p.on_message(from, msg, cx));
                    self.enqueue_back(me, actions);
                    continue;
                }
                // Ready to read: let held messages onto the line (RTS/CTS).
                for i in 0..self.network.incoming(me).len() {
                    let ch = self.network.incoming(me)[i];
                    self.try_transmit(ch, now, false, queue);
                }
            }
            return;
        }
    }

    /// Runs `me`'s search from `now` for one batch: the rest of a step an interrupt cut short,
    /// then steps as long as each starts before the horizon (at least one), stopping at a poll
    /// point at or past the horizon. Schedules the batch's end in the place `seq` reserved.
    fn run_batch(
        &mut self,
        me: ProcId,
        now: SimTime,
        slot: Slot<P>,
        seq: Seq,
        queue: &mut EventQueue<HwEvent>,
    ) {
        let horizon = self.batch_horizon(me, now, slot.remaining);
        let costs = self.config.costs;
        let jitter = self.config.jitter;
        let alone = self.procs.len() == 1;
        // Only where a conservative batch could stop early: with a horizon, and other processors.
        let optimistic =
            self.config.optimistic && self.config.batching && !alone && horizon < SimTime::MAX;
        let proc = &mut self.procs[me.index()];
        let poll_every = match proc.read {
            ReadPolicy::Poll { every } => every.max(1) as u64,
            _ => 0,
        };
        let Some(search) = proc.search.as_mut() else {
            return;
        };
        let mut t = now;
        let mut progressed = false;
        let mut overflow = false;
        if let Some(left) = slot.remaining {
            match t.checked_add(left) {
                Some(x) => t = x,
                None => overflow = true,
            }
            progressed = left > SimTime::ZERO;
            // A polling board preempted (by software forwarding) just before a poll point: it
            // looks at its line there, as it would have (what arrived during the batch waits in
            // its inbox for that look).
            if poll_every > 0 && search.steps > 0 && search.steps.is_multiple_of(poll_every) {
                let slot = Slot {
                    remaining: None,
                    ..slot
                };
                let event = queue.schedule_reserved(seq, t, HwEvent::ActionDone(me));
                proc.running = Some(Running {
                    slot,
                    end: t,
                    event,
                    seq: Some(seq),
                });
                return;
            }
        }
        // A polling board meets the world only at its poll points, so with batching on it stops
        // only there; everything else may stop before any step at or past the horizon.
        let stop_anywhere = poll_every == 0 || !self.config.batching || search.shared;
        // Optimistic execution: an interrupt-driven processor whose search can be copied runs on
        // past the horizon (at least `optimistic_steps` steps), keeping the copy to go back to.
        let checkpoint = if optimistic
            && proc.read == ReadPolicy::Interrupt
            && !search.shared
            && !search.isolated
            && !overflow
        {
            search.search.fork().map(|copy| Checkpoint {
                search: copy,
                steps: search.steps,
                nodes: proc.nodes,
                now,
                remaining: slot.remaining,
            })
        } else {
            None
        };
        let mut stepping = Stepping {
            me,
            costs,
            jitter,
            alone,
            poll_every,
            stop_anywhere,
            now,
            horizon,
            at_least: if checkpoint.is_some() {
                proc.optimistic_steps
            } else {
                0
            },
            replay: false,
        };
        // A fresh search without noise that nothing can reach, or that runs optimistically (its
        // checkpoint is the fresh search, to replay from if a message reaches it), may run to its
        // end at once by a faster route (a recursive search): the same steps, so the same time
        // and counts. Not if it takes no time at all (a step-by-step run would end it at an event
        // of its own) or overflows (the step loop reports where).
        if !overflow
            && (horizon == SimTime::MAX || checkpoint.is_some())
            && stop_anywhere
            && poll_every == 0
            && jitter.is_none()
            && slot.remaining.is_none()
            && !search.shared
            && search.steps == 0
            && search.done.is_none()
        {
            // What to go back to if the route fails: the checkpoint (a copy of this fresh
            // search), or else a copy taken now.
            let backup = match checkpoint {
                Some(_) => None,
                None => search.search.fork(),
            };
            if checkpoint.is_some() || backup.is_some() {
                let ran = search.search.run_to_end().and_then(|(out, tally)| {
                    at_once(&costs, &proc.nodes, tally, now)
                        .filter(|&(end, _)| end > now)
                        .map(|(end, nodes)| (out, tally, end, nodes))
                });
                match ran {
                    Some((out, tally, end, nodes)) => {
                        proc.nodes = nodes;
                        search.steps = tally.interior + tally.leaves;
                        search.done = Some(out);
                        t = end;
                    }
                    None => {
                        search.search = backup
                            .or_else(|| checkpoint.as_ref().and_then(|cp| cp.search.fork()))
                            .expect("a copy of the fresh search");
                    }
                }
            }
        }
        if !overflow && search.done.is_none() {
            (t, overflow, _) = advance(search, &mut proc.nodes, &stepping, t, progressed);
        }
        if let Some(cp) = checkpoint {
            if overflow {
                // Simulated time ran out past the horizon: go back and run the conservative
                // batch (which meets the overflow itself if it is real).
                search.search = cp.search;
                search.steps = cp.steps;
                search.done = None;
                proc.nodes = cp.nodes;
                stepping.at_least = 0;
                proc.optimistic_steps = OPTIMISTIC_MIN;
                let start = now + cp.remaining.unwrap_or(SimTime::ZERO);
                (t, overflow, _) = advance(search, &mut proc.nodes, &stepping, start, progressed);
            } else {
                search.checkpoint = Some(cp);
            }
        }
        if overflow {
            self.fail(MachineError::TimeOverflow { proc: me, at: t });
            return;
        }
        let slot = Slot {
            remaining: None,
            ..slot
        };
        if t == now && search.done.is_some() {
            // Ended without time passing: hand the result over at once.
            search.checkpoint = None;
            let out = proc.search.take().and_then(|s| s.done).expect("done");
            let actions = self.callback(me, now, |p, cx| p.on_done(out, cx));
            self.enqueue_back(me, actions);
            return;
        }
        let event = queue.schedule_reserved(seq, t, HwEvent::ActionDone(me));
        proc.running = Some(Running {
            slot,
            end: t,
            event,
            seq: Some(seq),
        });
    }

    /// The horizon of `me`'s next batch ([`Machine::shared_horizon`]), without the look at the
    /// lines when the last looks found nothing: on a large pool of interrupt-driven processors
    /// a message can nearly always arrive before the batch's first step ends, and the look costs
    /// more than the event per step it would save. A look whose horizon is no later than the
    /// first step's end (`first_step_end`) is futile: the batch takes that one step (or, run
    /// optimistically, its least number of steps) and stops, as it would with the horizon at
    /// `now`. After the nth futile look in a row, the next 2^n - 1 batches (n at most
    /// [`FUTILE_LOOKS_MAX`], so at most 63) take `now` without looking; a look that finds more
    /// starts over. A batch that skips a look may be shorter than one that looked (more events),
    /// never different in what it computes: every result but the event count is the same.
    fn batch_horizon(&mut self, me: ProcId, now: SimTime, remaining: Option<SimTime>) -> SimTime {
        let skip = self.procs[me.index()].skip_looks > 0;
        let horizon = self.shared_horizon(me, now, remaining, skip);
        let first_step_end = self.first_step_end(now, remaining);
        let p = &mut self.procs[me.index()];
        if skip {
            p.skip_looks -= 1;
        } else if horizon <= first_step_end {
            p.futile_looks = (p.futile_looks + 1).min(FUTILE_LOOKS_MAX);
            p.skip_looks = (1 << p.futile_looks) - 1;
        } else {
            p.futile_looks = 0;
        }
        horizon
    }

    /// An event (number `current` among those at `now`) reaches `me` while it runs an
    /// optimistic batch: takes the search back to the batch's start and runs it again up to
    /// where a conservative run would be at this event; returns the end of the step then in
    /// progress (the batch's end). None if `me` runs no optimistic batch.
    ///
    /// A conservative run would have begun every step that starts before `now`, and the one that
    /// starts at `now` if the search's own event at `now` (its place `seq`) comes before this
    /// one. So the replay is a batch from the same start with the horizon at `now`, or just past
    /// it; a step that takes no time does not end it, as the search's next event at that instant
    /// would also come before this one.
    fn roll_back(
        &mut self,
        me: ProcId,
        now: SimTime,
        seq: Option<Seq>,
        current: Seq,
    ) -> Option<SimTime> {
        let costs = self.config.costs;
        let jitter = self.config.jitter;
        let proc = &mut self.procs[me.index()];
        let search = proc.search.as_mut()?;
        let cp = search.checkpoint.take()?;
        search.search = cp.search;
        search.steps = cp.steps;
        search.done = None;
        proc.nodes = cp.nodes;
        let own_first = seq.expect("a search batch keeps its place") < current;
        let stepping = Stepping {
            me,
            costs,
            jitter,
            alone: false,
            poll_every: 0,
            stop_anywhere: true,
            now: cp.now,
            horizon: if own_first { SimTime(now.0 + 1) } else { now },
            at_least: 0,
            replay: true,
        };
        let left = cp.remaining.unwrap_or(SimTime::ZERO);
        let (end, overflow, replayed) = advance(
            search,
            &mut proc.nodes,
            &stepping,
            cp.now + left,
            left > SimTime::ZERO,
        );
        proc.optimistic_steps = replayed.clamp(OPTIMISTIC_MIN, OPTIMISTIC_MAX);
        self.rollbacks += 1;
        self.replayed_steps += replayed;
        // The optimistic batch went further without overflow, and a replay stops at the
        // interrupting event, never past the search's end (whose event would have come first).
        if overflow || end < now || search.done.is_some() {
            let ended = search.done.is_some();
            self.fail(MachineError::Invariant {
                proc: me,
                message: format!(
                    "a rollback at {now:?} replayed to {end:?} (overflow {overflow}, ended {ended})"
                ),
            });
            return Some(now);
        }
        Some(end)
    }

    /// The earliest time anything could reach `me`'s running search: a message read by an
    /// interrupt or a poll, or a message held for its RTS on a line into it (which a poll would
    /// let onto the line). Searches that nothing can reach have no horizon.
    ///
    /// The batch compares the horizon only with times at or after the end of its first step (or
    /// of the rest of a step cut short, `remaining`): a step that takes no time ends the batch
    /// anyway (but on a uniprocessor, which has no lines to look at). So the look stops at the first bound at or before that end
    /// ([`Network::earliest_arrival_past`]): every comparison comes out as with the exact
    /// horizon, and the batch is the same.
    ///
    /// `skip`: take `now` where the look at the lines would begin ([`Machine::batch_horizon`]).
    fn horizon(&self, me: ProcId, now: SimTime, remaining: Option<SimTime>, skip: bool) -> SimTime {
        if !self.config.batching {
            return now;
        }
        let p = &self.procs[me.index()];
        // An isolated search on an interrupt-driven processor is only delayed by interrupts (the
        // preemption accounts for that); a processor that reads when idle reads nothing while it
        // searches. A polling board reads at its poll points even during an isolated search.
        let isolated = p.search.as_ref().is_none_or(|s| s.isolated);
        match p.read {
            ReadPolicy::WhenIdle => return SimTime::MAX,
            ReadPolicy::Interrupt if isolated => return SimTime::MAX,
            _ => {}
        }
        if !p.inbox.is_empty() {
            // A polling board with a message already waiting (it arrived while the board was
            // busy with something other than its search, e.g. a send): its next poll point
            // reads it, as a step-by-step run does.
            return now;
        }
        if self.zero_delay || skip {
            // A message can be set up and delivered in no time: the lookahead is (almost) nil,
            // and finding the little there is costs more than one event per step. Or the last
            // looks found nothing (`skip`).
            return now;
        }
        self.earliest_arrival(me, None, now, self.first_step_end(now, remaining))
    }

    /// The earliest the first step of a batch starting at `now` can end: the rest of a preempted
    /// step, or the shortest step (less its largest timing noise). The horizon matters only past
    /// it, since a batch always takes that step.
    fn first_step_end(&self, now: SimTime, remaining: Option<SimTime>) -> SimTime {
        let first = match remaining {
            Some(left) if left > SimTime::ZERO => left,
            _ => self.shortest_noisy_step,
        };
        now.checked_add(first).unwrap_or(now)
    }

    /// [`Machine::horizon`], and for a search whose state other processors share
    /// ([`Cx::search_shared`]): the earliest time another processor could act, since its
    /// callback may then read or change this search (a split point): the end of its work in
    /// progress, or a message reaching it.
    fn shared_horizon(
        &self,
        me: ProcId,
        now: SimTime,
        remaining: Option<SimTime>,
        skip: bool,
    ) -> SimTime {
        let own = self.horizon(me, now, remaining, skip);
        let shared = self.procs[me.index()]
            .search
            .as_ref()
            .is_some_and(|s| s.shared);
        if !shared || !self.config.batching {
            return own;
        }
        let mut h = own;
        for (i, p) in self.procs.iter().enumerate() {
            if i == me.index() || h <= now {
                continue;
            }
            h = h.min(p.busy_until(now));
            if h > now {
                let enough = self.first_step_end(now, remaining);
                h = h.min(self.earliest_arrival(ProcId(i as u32), None, now, enough));
            }
        }
        h
    }

    /// The earliest time a message could arrive at `q` (or be held on a line into it), given that
    /// `quiet` (the processor asking) sends nothing new before its own horizon: the network's
    /// answer, asking back when each sender could send.
    /// Only needed past `enough` ([`Network::earliest_arrival_past`]).
    fn earliest_arrival(
        &self,
        q: ProcId,
        quiet: Option<ProcId>,
        now: SimTime,
        enough: SimTime,
    ) -> SimTime {
        if self.config.platform.pool_network().is_none() {
            self.network
                .earliest_arrival_past(q, quiet, now, enough, |from, to| {
                    self.earliest_send(from, to, now)
                })
        } else {
            self.network
                .earliest_arrival_past(q, quiet, now, enough, |from, _| {
                    self.earliest_post(from, now)
                })
        }
    }

    /// On a pool: the earliest time `q` could post a message of its own or one it forwards,
    /// looking at `q` only (the pool's routes have cycles, so asking back as on a tree would not
    /// end): the end of its work in progress, `now + s` if it reacts to arrivals at once, and the
    /// time its router lets the next message go.
    fn earliest_post(&self, q: ProcId, now: SimTime) -> SimTime {
        let p = &self.procs[q.index()];
        let busy_until = p.busy_until(now);
        let by_arrival = if p.reacts() {
            now.checked_add(self.config.costs.s).unwrap_or(SimTime::MAX)
        } else {
            SimTime::MAX
        };
        let router = self.routers[q.index()]
            .front()
            .map_or(SimTime::MAX, |(t, _)| *t);
        busy_until.min(by_arrival).min(router)
    }

    /// The earliest time `q` could put a new message on its line to `toward`.
    fn earliest_send(&self, q: ProcId, toward: ProcId, now: SimTime) -> SimTime {
        let p = &self.procs[q.index()];
        let s = self.config.costs.s;
        let busy_until = p.busy_until(now);
        let by_arrival = if p.reacts() {
            let a = self.earliest_arrival(q, Some(toward), now, SimTime::ZERO);
            a.checked_add(s).unwrap_or(SimTime::MAX)
        } else {
            SimTime::MAX
        };
        busy_until.min(by_arrival)
    }

    /// An action's time has passed: apply its effect.
    fn finish(&mut self, me: ProcId, slot: Slot<P>, now: SimTime, queue: &mut EventQueue<HwEvent>) {
        match slot.action {
            Action::Send { to, msg } => match self.network.post(me, to, msg, now) {
                Ok(ch) => self.try_transmit(ch, now, false, queue),
                Err(e) => self.fail(e.into()),
            },
            Action::Compute { out, .. } | Action::Wait { out, .. } | Action::Memory { out, .. } => {
                let actions = self.callback(me, now, |p, cx| p.on_done(out, cx));
                if slot.in_isr {
                    self.enqueue_isr(me, actions);
                } else {
                    self.enqueue_back(me, actions);
                }
            }
            Action::Handle { from, msg } => self.service(me, from, msg, now),
            Action::Broadcast { copies } => {
                if let Some(ch) = self.network.post_broadcast(me, copies, now) {
                    self.try_transmit(ch, now, false, queue);
                }
            }
            Action::Forward(transit) => match self.network.forward(transit, now) {
                Ok(ch) => self.try_transmit(ch, now, false, queue),
                Err(e) => self.fail(e.into()),
            },
            // Every character taken: the message waits to be read (the caller kicks `me`).
            Action::Receive { from, msg } => self.procs[me.index()].inbox.push_back((from, msg)),
            Action::Search(_) => unreachable!("searches end in `search_batch_done`"),
        }
    }

    /// How long `me`'s interrupt service of `msg` from `from` takes: the interrupt's cost, and
    /// the CPU's time per character where the line costs it.
    fn service_time(&self, me: ProcId, from: ProcId, msg: &P::Msg) -> SimTime {
        match self.network.char_cost(me, from) {
            SimTime::ZERO => self.config.costs.interrupt,
            chars => plus(self.config.costs.interrupt, per_char(chars, msg.bytes())),
        }
    }

    /// The interrupt service of a message from `from`, its time passed: the program reacts, and
    /// what it asks for is queued as part of the service.
    fn service(&mut self, me: ProcId, from: ProcId, msg: P::Msg, now: SimTime) {
        let actions = self.callback(me, now, |p, cx| p.on_message(from, msg, cx));
        self.enqueue_isr(me, actions);
    }

    /// A search batch has ended at `now`: hand over the result, look at the line at a poll
    /// point, or go on with the next batch.
    fn search_batch_done(
        &mut self,
        me: ProcId,
        r: Running<P>,
        now: SimTime,
        q: &mut EventQueue<HwEvent>,
    ) {
        let proc = &mut self.procs[me.index()];
        let Some(search) = proc.search.as_mut() else {
            return;
        };
        if search.checkpoint.take().is_some() {
            // An optimistic batch that nothing reached: the next one may run further.
            proc.optimistic_steps = (proc.optimistic_steps * 2).min(OPTIMISTIC_MAX);
        }
        if search.done.is_some() {
            let out = proc.search.take().and_then(|s| s.done).expect("done");
            let actions = self.callback(me, now, |p, cx| p.on_done(out, cx));
            self.enqueue_back(me, actions);
            return;
        }
        let at_poll = match proc.read {
            ReadPolicy::Poll { every } => search.steps.is_multiple_of(every.max(1) as u64),
            _ => false,
        };
        if at_poll {
            // Look at the line: raise RTS on held lines, read what has arrived.
            for i in 0..self.network.incoming(me).len() {
                let ch = self.network.incoming(me)[i];
                self.try_transmit(ch, now, true, q);
            }
            if !self.procs[me.index()].inbox.is_empty() {
                // The search pauses; the program reacts to each message, then the search resumes.
                self.procs[me.index()].queue.push_front(r.slot);
                while let Some((from, msg)) = self.procs[me.index()].inbox.pop_front() {
                    let actions = self.callback(me, now, |p, cx| p.on_message(from, msg, cx));
                    self.enqueue_isr(me, actions);
                }
                return;
            }
        }
        let seq = r.seq.expect("a search batch keeps its place");
        self.run_batch(me, now, r.slot, seq, q);
    }

    /// Asks the network to put the next waiting message of channel `ch` on it, telling it
    /// whether the receiver is ready to read (or `polled`: it is looking at its line now).
    fn try_transmit(
        &mut self,
        ch: ChannelId,
        now: SimTime,
        polled: bool,
        queue: &mut EventQueue<HwEvent>,
    ) {
        if !self.network.has_waiting(ch) {
            return; // nothing to put on it (as after most arrivals)
        }
        let procs = &self.procs;
        match self
            .network
            .transmit(ch, now, |to| polled || procs[to.index()].ready_to_read())
        {
            Ok(Some(arrival)) => {
                queue.schedule(arrival, HwEvent::Arrive(ch));
            }
            Ok(None) => {}
            Err(e) => self.fail(e.into()),
        }
    }

    /// A message has arrived at `to`.
    fn deliver(
        &mut self,
        from: ProcId,
        to: ProcId,
        msg: P::Msg,
        now: SimTime,
        queue: &mut EventQueue<HwEvent>,
    ) {
        if self.procs[to.index()].read != ReadPolicy::Interrupt
            && self.network.char_cost(to, from) > SimTime::ZERO
        {
            // A bare board took every character as it came: that CPU time preempts what it was
            // doing (like an interrupt), and the message is read after it.
            let receive = Slot {
                action: Action::Receive { from, msg },
                in_isr: true,
                remaining: None,
            };
            self.interrupt(to, receive, now, queue);
            return;
        }
        let proc = &mut self.procs[to.index()];
        if proc.read != ReadPolicy::Interrupt {
            proc.inbox.push_back((from, msg));
            if proc.running.is_none() {
                self.kick(to, now, queue);
            }
            return;
        }
        let idle = proc.running.is_none() && proc.queue.is_empty();
        if idle && self.failure.is_none() && self.service_time(to, from, &msg) == SimTime::ZERO {
            // An idle processor whose interrupt service takes no time handles the message at
            // once: what queuing the handler and kicking the processor would do, without the
            // handler's slot.
            self.procs[to.index()]
                .account
                .switch(now, Category::Interrupt);
            self.service(to, from, msg, now);
            self.kick(to, now, queue);
            return;
        }
        let handler = Slot {
            action: Action::Handle { from, msg },
            in_isr: true,
            remaining: None,
        };
        self.interrupt(to, handler, now, queue);
    }

    /// `handler` preempts what `to` is doing (unless it is already in an interrupt service,
    /// which it then waits behind): an interrupt handler, or software forwarding.
    fn interrupt(
        &mut self,
        to: ProcId,
        handler: Slot<P>,
        now: SimTime,
        queue: &mut EventQueue<HwEvent>,
    ) {
        let proc = &mut self.procs[to.index()];
        match proc.running.take() {
            Some(r) if r.slot.in_isr => {
                // Already servicing an interrupt: this one waits behind that service.
                proc.running = Some(r);
                let at = proc.queue.iter().take_while(|s| s.in_isr).count();
                proc.queue.insert(at, handler);
            }
            Some(mut r) => {
                // Preempt: the interrupted action resumes later with the time it had left.
                queue.cancel(r.event);
                if let Some(end) = self.roll_back(to, now, r.seq, queue.current()) {
                    r.end = end;
                }
                let proc = &mut self.procs[to.index()];
                let left = r.end - now;
                proc.queue.push_front(Slot {
                    remaining: Some(left),
                    ..r.slot
                });
                proc.queue.push_front(handler);
                self.kick(to, now, queue);
            }
            None => {
                proc.queue.push_front(handler);
                self.kick(to, now, queue);
            }
        }
    }
}

impl<P: Program> Machine<P> {
    /// A message in transit has reached `transit.at()`: forward it after the forwarding cost,
    /// paid by that processor's CPU (software) or waited in its router (hardware).
    fn forward(&mut self, transit: Transit<P::Msg>, now: SimTime, queue: &mut EventQueue<HwEvent>) {
        let routing = self.network.routing();
        let cost = routing.map_or(SimTime::ZERO, |r| r.cost);
        let at = transit.at();
        if cost == SimTime::ZERO {
            match self.network.forward(transit, now) {
                Ok(ch) => self.try_transmit(ch, now, false, queue),
                Err(e) => self.fail(e.into()),
            }
            return;
        }
        match routing.map(|r| r.forwarding) {
            Some(Forwarding::Software) => {
                let slot = Slot {
                    action: Action::Forward(transit),
                    in_isr: true,
                    remaining: None,
                };
                self.interrupt(at, slot, now, queue);
            }
            _ => {
                let Some(leaves) = self.add(at, now, cost) else {
                    return;
                };
                self.routers[at.index()].push_back((leaves, transit));
                queue.schedule(leaves, HwEvent::Relay(at));
            }
        }
    }

    /// A message has arrived on channel `ch` (a delivery, a broadcast or a message in transit).
    fn arrived(&mut self, ch: ChannelId, now: SimTime, queue: &mut EventQueue<HwEvent>) {
        match self.network.arrive(ch) {
            None => self.fail(MachineError::Invariant {
                proc: self.network.ends(ch).1,
                message: "an arrival on an idle line".into(),
            }),
            Some(Arrival::Delivered(delivery)) => {
                let (from, to, msg) = (delivery.from, delivery.to, delivery.msg);
                let (kind, bytes) = (msg.kind(), msg.bytes());
                self.messages.record(kind, bytes);
                if self.config.record_messages {
                    self.message_log.push(MessageRecord {
                        from,
                        to,
                        kind,
                        bytes,
                        sent: delivery.sent,
                        transmit_start: delivery.transmit_start,
                        arrived: now,
                    });
                }
                self.deliver(from, to, msg, now, queue);
                self.try_transmit(ch, now, false, queue);
            }
            Some(Arrival::Broadcast(b)) => {
                // One transmission: counted once; traced once per receiver.
                if let Some((_, first)) = b.copies.first() {
                    self.messages.record(first.kind(), first.bytes());
                }
                for (to, msg) in b.copies {
                    if self.config.record_messages {
                        self.message_log.push(MessageRecord {
                            from: b.from,
                            to,
                            kind: msg.kind(),
                            bytes: msg.bytes(),
                            sent: b.sent,
                            transmit_start: b.transmit_start,
                            arrived: now,
                        });
                    }
                    self.deliver(b.from, to, msg, now, queue);
                }
                self.try_transmit(ch, now, false, queue);
            }
            Some(Arrival::Transit(t)) => {
                self.forward(t, now, queue);
                self.try_transmit(ch, now, false, queue);
            }
        }
    }
}

/// The end of a search run at once from `now` ([`Search::run_to_end`]) and the processor's node
/// counts after it: `k` per interior node, `e` per leaf, `q` per quiescence node (no probes, no
/// noise). None if the time or the leaf time overflows.
fn at_once(
    costs: &CostModel,
    nodes: &NodeCounts,
    tally: crate::search::Tally,
    now: SimTime,
) -> Option<(SimTime, NodeCounts)> {
    let leaf_ns = (costs.e.as_nanos() as u128) * tally.leaves as u128
        + (costs.q.as_nanos() as u128) * tally.quiescence as u128;
    let time = (costs.k.as_nanos() as u128) * tally.interior as u128 + leaf_ns;
    let end = u64::try_from(now.as_nanos() as u128 + time).ok()?;
    let mut after = *nodes;
    after.interior += tally.interior;
    after.leaves += tally.leaves;
    after.quiescence += tally.quiescence;
    after.leaf_ns = u64::try_from(after.leaf_ns as u128 + leaf_ns).ok()?;
    Some((SimTime(end), after))
}

/// What ends a batch of search steps, and what they cost.
struct Stepping {
    me: ProcId,
    costs: CostModel,
    jitter: Option<Jitter>,
    alone: bool,
    poll_every: u64,
    /// May stop before any step at or past the horizon (else only at poll points).
    stop_anywhere: bool,
    /// When the batch started.
    now: SimTime,
    horizon: SimTime,
    /// Steps to run before stopping at or past the horizon (an optimistic batch).
    at_least: u64,
    /// A replay after a rollback: a step that takes no time does not end it.
    replay: bool,
}

/// Runs `search`'s steps from time `t` (`progressed`: the batch already took time) until `st`
/// stops it or the search ends: as long as each starts before the horizon (at least one, and
/// at least `st.at_least`), stopping at a poll point at or past the horizon. Counts the nodes
/// and applies the timing noise; returns the time reached, whether time overflowed, and the
/// steps taken.
fn advance<S: Search>(
    search: &mut SearchSlot<S>,
    nodes: &mut NodeCounts,
    st: &Stepping,
    mut t: SimTime,
    mut progressed: bool,
) -> (SimTime, bool, u64) {
    let mut overflow = false;
    let mut taken = 0u64;
    while !overflow && search.done.is_none() {
        if progressed && st.stop_anywhere && t >= st.horizon && taken >= st.at_least {
            break;
        }
        if progressed && t == st.now && !st.alone && !st.replay {
            // The last step took no time: a step-by-step run takes the next one at an event
            // of its own at this instant, after every event already due now and every event
            // the caller still schedules for now (a message another processor posts, or a
            // router relays, may join a line before this search's next message does), so
            // this batch stops here too. (A uniprocessor has no other events.)
            break;
        }
        // The step's number on this processor, for its timing noise.
        let noisy = |cost: SimTime, nodes: &NodeCounts| match st.jitter {
            Some(j) => j.apply(cost, st.me, nodes.interior + nodes.leaves + nodes.probes),
            None => cost,
        };
        let cost = match search.search.step() {
            Step::Interior => {
                let cost = noisy(st.costs.k, nodes);
                nodes.interior += 1;
                cost
            }
            Step::Leaf { quiescence } => {
                let exact = if quiescence == 0 {
                    st.costs.e
                } else {
                    st.costs.leaf(quiescence).unwrap_or_else(|| {
                        overflow = true;
                        st.costs.e
                    })
                };
                let cost = noisy(exact, nodes);
                nodes.leaves += 1;
                match nodes.leaf_ns.checked_add(cost.as_nanos()) {
                    Some(x) => nodes.leaf_ns = x,
                    None => overflow = true,
                }
                nodes.quiescence += quiescence as u64;
                cost
            }
            Step::Probe => {
                let cost = noisy(st.costs.probe, nodes);
                nodes.probes += 1;
                cost
            }
            Step::Done(out) => {
                search.done = Some(out);
                break;
            }
        };
        search.steps += 1;
        taken += 1;
        progressed = true;
        match t.checked_add(cost) {
            Some(x) => t = x,
            None => overflow = true,
        }
        if st.poll_every > 0 && search.steps.is_multiple_of(st.poll_every) && t >= st.horizon {
            break; // a poll point at or past the horizon: look at the line there
        }
    }
    (t, overflow, taken)
}

/// `bytes` characters at `each` per character (saturating: a sum past the largest time is
/// then refused as a time overflow where it is added).
fn per_char(each: SimTime, bytes: u64) -> SimTime {
    SimTime(each.as_nanos().saturating_mul(bytes))
}

/// `a + b`, saturating (refused where the total is added to the clock).
fn plus(a: SimTime, b: SimTime) -> SimTime {
    SimTime(a.as_nanos().saturating_add(b.as_nanos()))
}

impl From<NetworkError> for MachineError {
    fn from(e: NetworkError) -> Self {
        match e {
            NetworkError::NoRoute { from, to } => MachineError::NoLink { from, to },
            NetworkError::TimeOverflow { to, at } => MachineError::TimeOverflow { proc: to, at },
        }
    }
}

impl<P: Program> Model for Machine<P> {
    type Event = HwEvent;

    fn handle(&mut self, now: SimTime, event: HwEvent, queue: &mut EventQueue<HwEvent>) {
        self.events += 1;
        if let Some(max) = self.config.max_events {
            if self.events > max {
                self.fail(MachineError::Budget(max));
                return;
            }
        }
        match event {
            HwEvent::ActionDone(me) => {
                let Some(running) = self.procs[me.index()].running.take() else {
                    self.fail(MachineError::Invariant {
                        proc: me,
                        message: "an action ended on an idle processor".into(),
                    });
                    return;
                };
                debug_assert_eq!(running.end, now);
                if matches!(running.slot.action, Action::Search(_)) {
                    self.search_batch_done(me, running, now, queue);
                } else {
                    self.finish(me, running.slot, now, queue);
                }
                self.kick(me, now, queue);
            }
            HwEvent::Arrive(ch) => self.arrived(ch, now, queue),
            HwEvent::Relay(at) => {
                let Some((_, transit)) = self.routers[at.index()].pop_front() else {
                    self.fail(MachineError::Invariant {
                        proc: at,
                        message: "a router released a message it did not hold".into(),
                    });
                    return;
                };
                match self.network.forward(transit, now) {
                    Ok(ch) => self.try_transmit(ch, now, false, queue),
                    Err(e) => self.fail(e.into()),
                }
            }
        }
    }

    fn stopped(&self) -> bool {
        self.failure.is_some()
    }
}
