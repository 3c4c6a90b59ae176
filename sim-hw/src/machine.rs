//! A multiprocessor executing one program per processor over costed steps and real links.
//!
//! The [`Machine`] is the hardware half of a simulation: it owns the processors (their current
//! activity, interrupt handling and time accounting) and the links (queueing, transmission,
//! RTS/CTS). The algorithm half is a [`Program`] per processor, which reacts to its start, to
//! messages and to the end of its computations by asking for more actions through a [`Cx`].

use crate::{CostModel, LinkSpec, ProcessorTree};
use sim_core::{
    Category, EventId, EventQueue, Marker, MessageRecord, Model, MsgCounts, MsgKind, NodeCounts,
    ProcId, ProcStats, RunStats, SimTime, TimeAccount,
};
use std::collections::{HashMap, VecDeque};

/// A typed message of a protocol: its Table I type and its size on the line.
pub trait Message {
    fn kind(&self) -> MsgKind;
    fn bytes(&self) -> u64;
}

/// A costed block of search steps: how long it takes and what it visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub time: SimTime,
    pub nodes: NodeCounts,
}

/// An algorithm role running on one processor.
///
/// Each callback may queue actions on the [`Cx`]: sends (each costs the setup `s`), computations
/// (search work whose result `Out` comes back through [`Program::on_done`] when it ends). A
/// processor with nothing queued is idle, in the category set by [`Cx::idle_as`].
pub trait Program {
    type Msg: Message;
    /// The result of a computation, handed back when its simulated time has passed.
    type Out;
    fn start(&mut self, cx: &mut Cx<Self::Msg, Self::Out>);
    fn on_message(&mut self, from: ProcId, msg: Self::Msg, cx: &mut Cx<Self::Msg, Self::Out>);
    fn on_done(&mut self, out: Self::Out, cx: &mut Cx<Self::Msg, Self::Out>);
}

enum Action<M, O> {
    Send {
        to: ProcId,
        msg: M,
    },
    Compute {
        time: SimTime,
        out: O,
        nodes: NodeCounts,
    },
    /// The interrupt handler for an arrived message (interrupt-driven processors only).
    Handle {
        from: ProcId,
        msg: M,
    },
}

impl<M, O> Action<M, O> {
    fn cost(&self, costs: &CostModel) -> (SimTime, Category) {
        match self {
            Action::Send { .. } => (costs.s, Category::Message),
            Action::Compute { time, .. } => (*time, Category::Search),
            Action::Handle { .. } => (costs.interrupt, Category::Interrupt),
        }
    }
}

/// What a program may do in a callback.
pub struct Cx<'a, M, O> {
    now: SimTime,
    me: ProcId,
    costs: &'a CostModel,
    actions: Vec<Action<M, O>>,
    markers: &'a mut Vec<Marker>,
    idle_as: Option<Category>,
}

impl<M, O> Cx<'_, M, O> {
    pub fn now(&self) -> SimTime {
        self.now
    }
    pub fn me(&self) -> ProcId {
        self.me
    }
    pub fn costs(&self) -> &CostModel {
        self.costs
    }
    /// Sends `msg` to a neighbour in the processor tree: the CPU spends `s` on setup, then the
    /// message joins the line's queue.
    pub fn send(&mut self, to: ProcId, msg: M) {
        self.actions.push(Action::Send { to, msg });
    }
    /// Spends `work.time` searching; `out` is handed back through `on_done` at the end.
    pub fn compute(&mut self, work: Work, out: O) {
        self.actions.push(Action::Compute {
            time: work.time,
            out,
            nodes: work.nodes,
        });
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
}

/// How a machine is built.
#[derive(Clone, Debug)]
pub struct MachineConfig {
    pub tree: ProcessorTree,
    pub costs: CostModel,
    pub link: LinkSpec,
    /// Keep every category interval of every processor (for timelines and traces).
    pub record_intervals: bool,
    /// Keep every message's send and arrival times (for traces).
    pub record_messages: bool,
}

/// An action in progress or waiting, with the time still to spend on it when it was preempted.
struct Slot<M, O> {
    action: Action<M, O>,
    /// Part of an interrupt service (a handler, or a send it made): not preempted by arrivals.
    in_isr: bool,
    /// Time left, for an action resumed after an interrupt (its nodes were counted already).
    remaining: Option<SimTime>,
}

struct Running<M, O> {
    slot: Slot<M, O>,
    end: SimTime,
    event: EventId,
}

struct Proc<P: Program> {
    program: P,
    account: TimeAccount,
    running: Option<Running<P::Msg, P::Out>>,
    queue: VecDeque<Slot<P::Msg, P::Out>>,
    inbox: VecDeque<(ProcId, P::Msg)>,
    /// Hosts a serial interface: arrivals interrupt it. Otherwise it reads when idle.
    interrupt_driven: bool,
    idle_as: Category,
    nodes: NodeCounts,
    /// Links into this processor (for RTS/CTS: started when it becomes ready to read).
    incoming: Vec<usize>,
}

impl<P: Program> Proc<P> {
    /// Idle and waiting for input: what RTS/CTS waits for.
    fn ready_to_read(&self) -> bool {
        self.interrupt_driven
            || (self.running.is_none() && self.queue.is_empty() && self.inbox.is_empty())
    }
}

struct LinkDir<M> {
    to: ProcId,
    cts: bool,
    waiting: VecDeque<(ProcId, M, SimTime)>,
    in_flight: Option<(ProcId, M, SimTime, SimTime)>,
}

/// Engine events of a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwEvent {
    /// The running action of a processor has ended.
    ActionDone(ProcId),
    /// The message in flight on a link direction has fully arrived.
    Arrive(usize),
}

/// Processors and links driven by the global event queue.
///
/// Semantics (DESIGN.md, "Links" and "Processors"):
/// - a send costs the sender `s` of CPU time (category message); then the message joins the FIFO of
///   its line direction and occupies the line for `bytes / rate`; it arrives when the last byte does;
/// - with RTS/CTS, a message to a child is not put on the line until the child is idle and
///   waiting for input;
/// - a processor with remote children hosts the serial interface and is interrupt-driven: an
///   arrival preempts what it is doing (unless it is already servicing an interrupt), runs the
///   handler (cost `interrupt`, category interrupt) and the program's reaction, and the preempted
///   action resumes with the time it had left; other processors read messages when idle;
/// - every processor is in exactly one category at every moment, so its times add up to the makespan.
pub struct Machine<P: Program> {
    procs: Vec<Proc<P>>,
    links: Vec<LinkDir<P::Msg>>,
    link_index: HashMap<(ProcId, ProcId), usize>,
    config: MachineConfig,
    messages: MsgCounts,
    message_log: Vec<MessageRecord>,
    markers: Vec<Marker>,
}

impl<P: Program> Machine<P> {
    /// Builds a machine; `programs[i]` runs on processor `i`. Processors with remote children
    /// host a serial interface and are interrupt-driven (section V).
    pub fn new(config: MachineConfig, programs: Vec<P>) -> Self {
        assert_eq!(
            programs.len(),
            config.tree.len(),
            "one program per processor"
        );
        let mut links = Vec::new();
        let mut link_index = HashMap::new();
        for (parent, child) in config.tree.edges() {
            for (from, to, cts) in [(parent, child, config.link.rts_cts), (child, parent, false)] {
                link_index.insert((from, to), links.len());
                links.push(LinkDir {
                    to,
                    cts,
                    waiting: VecDeque::new(),
                    in_flight: None,
                });
            }
        }
        let procs = programs
            .into_iter()
            .enumerate()
            .map(|(i, program)| {
                let id = ProcId(i as u32);
                Proc {
                    program,
                    account: TimeAccount::new(config.record_intervals),
                    running: None,
                    queue: VecDeque::new(),
                    inbox: VecDeque::new(),
                    interrupt_driven: !config.tree.children(id).is_empty(),
                    idle_as: Category::IdleSync,
                    nodes: NodeCounts::default(),
                    incoming: links
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| l.to == id)
                        .map(|(j, _)| j)
                        .collect(),
                }
            })
            .collect();
        Machine {
            procs,
            links,
            link_index,
            config,
            messages: MsgCounts::default(),
            message_log: Vec::new(),
            markers: Vec::new(),
        }
    }

    /// Runs every program from time zero until nothing is left to do; returns the statistics and
    /// the programs (so that a role can be asked for its result, e.g. the root value).
    pub fn run(mut self) -> (RunStats, Vec<P>) {
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
        let (end, events) = sim_core::run(&mut self, &mut queue);
        for l in &self.links {
            assert!(
                l.waiting.is_empty() && l.in_flight.is_none(),
                "a message to {} was left on its line when the run ended",
                l.to
            );
        }
        let mut procs = Vec::with_capacity(self.procs.len());
        let mut programs = Vec::with_capacity(self.procs.len());
        for mut p in self.procs {
            assert!(
                p.running.is_none() && p.queue.is_empty() && p.inbox.is_empty(),
                "a processor still had work or unread messages when the event queue ran dry"
            );
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
            events,
        };
        (stats, programs)
    }

    /// Calls a program with a fresh context; returns the actions it queued.
    fn callback(
        &mut self,
        me: ProcId,
        now: SimTime,
        f: impl FnOnce(&mut P, &mut Cx<P::Msg, P::Out>),
    ) -> Vec<Action<P::Msg, P::Out>> {
        let proc = &mut self.procs[me.index()];
        let mut cx = Cx {
            now,
            me,
            costs: &self.config.costs,
            actions: Vec::new(),
            markers: &mut self.markers,
            idle_as: None,
        };
        f(&mut proc.program, &mut cx);
        if let Some(c) = cx.idle_as {
            proc.idle_as = c;
        }
        cx.actions
    }

    /// A program's own actions run in the order it asked for them, after what it asked before.
    fn enqueue_back(&mut self, me: ProcId, actions: Vec<Action<P::Msg, P::Out>>) {
        let q = &mut self.procs[me.index()].queue;
        q.extend(actions.into_iter().map(|action| Slot {
            action,
            in_isr: false,
            remaining: None,
        }));
    }

    /// An interrupt service's actions run first, before the interrupted work. Its sends are part
    /// of the service (not preempted) and go first; a computation it starts is ordinary work,
    /// queued after every interrupt service still pending (a handler for a message that arrived
    /// during this one must not wait for that computation) and before the interrupted work.
    fn enqueue_isr(&mut self, me: ProcId, actions: Vec<Action<P::Msg, P::Out>>) {
        let q = &mut self.procs[me.index()].queue;
        let (sends, work): (Vec<_>, Vec<_>) = actions
            .into_iter()
            .partition(|a| !matches!(a, Action::Compute { .. }));
        let after_services = q.iter().take_while(|s| s.in_isr).count();
        for (n, action) in work.into_iter().enumerate() {
            q.insert(
                after_services + n,
                Slot {
                    action,
                    in_isr: false,
                    remaining: None,
                },
            );
        }
        for action in sends.into_iter().rev() {
            q.push_front(Slot {
                action,
                in_isr: true,
                remaining: None,
            });
        }
    }

    /// Starts the next queued action of `me` if it is not busy; finishes zero-time actions at
    /// once; when nothing is left, the processor idles (and, if it reads only when idle, takes
    /// its next buffered message or raises its request-to-send).
    fn kick(&mut self, me: ProcId, now: SimTime, queue: &mut EventQueue<HwEvent>) {
        loop {
            let proc = &mut self.procs[me.index()];
            if proc.running.is_some() {
                return;
            }
            if let Some(slot) = proc.queue.pop_front() {
                let (cost, category) = slot.action.cost(&self.config.costs);
                proc.account.switch(now, category);
                let time = match slot.remaining {
                    Some(left) => left,
                    None => {
                        if let Action::Compute { nodes, .. } = &slot.action {
                            proc.nodes.add(nodes);
                        }
                        cost
                    }
                };
                if time == SimTime::ZERO {
                    self.finish(me, slot, now, queue);
                    continue;
                }
                let end = now + time;
                let event = queue.schedule(end, HwEvent::ActionDone(me));
                proc.running = Some(Running { slot, end, event });
                return;
            }
            proc.account.switch(now, proc.idle_as);
            if !proc.interrupt_driven {
                if let Some((from, msg)) = proc.inbox.pop_front() {
                    let actions = self.callback(me, now, |p, cx| p.on_message(from, msg, cx));
                    self.enqueue_back(me, actions);
                    continue;
                }
                // Ready to read: let held messages onto the line (RTS/CTS).
                for i in 0..self.procs[me.index()].incoming.len() {
                    let l = self.procs[me.index()].incoming[i];
                    self.try_transmit(l, now, queue);
                }
            }
            return;
        }
    }

    /// An action's time has passed: apply its effect.
    fn finish(
        &mut self,
        me: ProcId,
        slot: Slot<P::Msg, P::Out>,
        now: SimTime,
        queue: &mut EventQueue<HwEvent>,
    ) {
        match slot.action {
            Action::Send { to, msg } => {
                let Some(&l) = self.link_index.get(&(me, to)) else {
                    panic!("{me} sent to {to}, which is not its parent or child");
                };
                self.links[l].waiting.push_back((me, msg, now));
                self.try_transmit(l, now, queue);
            }
            Action::Compute { out, .. } => {
                let actions = self.callback(me, now, |p, cx| p.on_done(out, cx));
                if slot.in_isr {
                    self.enqueue_isr(me, actions);
                } else {
                    self.enqueue_back(me, actions);
                }
            }
            Action::Handle { from, msg } => {
                let actions = self.callback(me, now, |p, cx| p.on_message(from, msg, cx));
                self.enqueue_isr(me, actions);
            }
        }
    }

    /// Puts the next waiting message of link `l` on the line if the line is free and, under
    /// RTS/CTS, the receiver is ready to read.
    fn try_transmit(&mut self, l: usize, now: SimTime, queue: &mut EventQueue<HwEvent>) {
        let link = &self.links[l];
        if link.in_flight.is_some() || link.waiting.is_empty() {
            return;
        }
        if link.cts && !self.procs[link.to.index()].ready_to_read() {
            return;
        }
        let link = &mut self.links[l];
        let Some((from, msg, sent)) = link.waiting.pop_front() else {
            return;
        };
        let time = self.config.link.transmit_time(msg.bytes());
        link.in_flight = Some((from, msg, sent, now));
        queue.schedule(now + time, HwEvent::Arrive(l));
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
        let proc = &mut self.procs[to.index()];
        if !proc.interrupt_driven {
            proc.inbox.push_back((from, msg));
            self.kick(to, now, queue);
            return;
        }
        let handler = Slot {
            action: Action::Handle { from, msg },
            in_isr: true,
            remaining: None,
        };
        match proc.running.take() {
            Some(r) if r.slot.in_isr => {
                // Already servicing an interrupt: this one waits behind that service.
                proc.running = Some(r);
                let at = proc.queue.iter().take_while(|s| s.in_isr).count();
                proc.queue.insert(at, handler);
            }
            Some(r) => {
                // Preempt: the interrupted action resumes later with the time it had left.
                queue.cancel(r.event);
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

impl<P: Program> Model for Machine<P> {
    type Event = HwEvent;

    fn handle(&mut self, now: SimTime, event: HwEvent, queue: &mut EventQueue<HwEvent>) {
        match event {
            HwEvent::ActionDone(me) => {
                let running = self.procs[me.index()]
                    .running
                    .take()
                    .expect("an action ended on an idle processor");
                debug_assert_eq!(running.end, now);
                self.finish(me, running.slot, now, queue);
                self.kick(me, now, queue);
            }
            HwEvent::Arrive(l) => {
                let link = &mut self.links[l];
                let (from, msg, sent, start) =
                    link.in_flight.take().expect("an arrival on an idle line");
                let to = link.to;
                let (kind, bytes) = (msg.kind(), msg.bytes());
                self.messages.record(kind, bytes);
                if self.config.record_messages {
                    self.message_log.push(MessageRecord {
                        from,
                        to,
                        kind,
                        bytes,
                        sent,
                        transmit_start: start,
                        arrived: now,
                    });
                }
                self.deliver(from, to, msg, now, queue);
                self.try_transmit(l, now, queue);
            }
        }
    }
}
