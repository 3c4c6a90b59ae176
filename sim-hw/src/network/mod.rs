//! The interconnect: the media that carry messages between processors.
//!
//! A [`Network`] knows its media, the *channels* they offer (one direction of one line, or the
//! one channel of a bus, each with its own FIFO) and, for every pair of processors that can
//! talk, the [`Route`] a message takes (a list of hops, one channel each). It does not know what
//! the processors are doing: the [`crate::Machine`] asks it to take a message
//! ([`Network::post`], [`Network::post_broadcast`]), to start the next frame on a channel
//! ([`Network::transmit`], telling it whether the receiver is ready to read), to hand over what
//! has arrived ([`Network::arrive`]: delivered, or in transit at an intermediate processor, which
//! the machine [forwards](Network::forward) after the forwarding cost), for the earliest time
//! anything could reach a processor ([`Network::earliest_arrival`], the link half of the
//! lookahead horizon) and for what is still held when a run ends ([`Network::held`]).
//!
//! The media (ARCHITECTURE.md, "Links and the network"):
//! - a point-to-point [line](Medium::Line) has a rate in bytes/s and carries both directions at
//!   once (full duplex): each direction is a channel, which sends one message at a time in the
//!   order they were posted (a FIFO per direction); a message occupies it for `bytes / rate`,
//!   rounded up to whole nanoseconds, and arrives when its last byte does; with RTS/CTS, a
//!   channel holds a message for the processor at its far end until that processor is ready to
//!   read (the bare boards buffer only two characters);
//! - a [bus](Medium::Bus) is one channel for every processor ([`BusSpec`]: frames with a header
//!   and a minimum size, FIFO arbitration by request time, broadcast in one frame);
//! - the per-message setup `s` is CPU time of the sender, charged by the machine before it posts.
//!
//! Networks: [`Network::tree`] builds the lines of a processor tree (one line per parent–child
//! edge; two processors that are not parent and child have no route); [`Network::pool`] builds
//! a [`PoolNetwork`] over a pool of processors (lines between every pair, a hypercube, a mesh or
//! torus, a bus), where every processor can reach every other. On a hypercube or a mesh a route
//! has one hop per line, store-and-forward: each hop takes its line's time, and at each
//! intermediate processor the message waits the forwarding cost ([`Routing`]) before it joins the
//! next hop's FIFO.

mod line;
mod pool;
#[cfg(test)]
mod pool_tests;
mod sci;
#[cfg(test)]
mod tests;

pub use line::{LinkKind, LinkSpec, SciSpec};
pub use pool::{BusSpec, Forwarding, PoolError, PoolNetwork, Routing};
pub use sci::{PortsExceeded, SerialInterface};

use crate::ProcessorTree;
use sim_core::{MsgKind, ProcId, SimTime};
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// The hash of the map from a pair of processors to the line between them: the pair's two
/// numbers mixed by multiplication (FxHash's step), which costs a fraction of std's SipHash.
/// The map is only looked up, never iterated, so its hash does not show in any result.
#[derive(Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type PairMap<V> = HashMap<(ProcId, ProcId), V, BuildHasherDefault<PairHasher>>;

/// Up to this many processors, the line between two of them is found in a table indexed by the
/// pair (at most 256 KB); a larger network keeps a map of its lines.
const DENSE_LINES: usize = 256;

/// The channel from a processor to a neighbour: a table indexed by the pair on small networks
/// (a lookup on every send and arrival, so it must be cheap), a map on large ones.
struct LineTable {
    processors: usize,
    /// `dense[from * processors + to]`: the channel's number, or `u32::MAX` for none.
    dense: Vec<u32>,
    map: PairMap<ChannelId>,
}

impl LineTable {
    fn new(processors: usize) -> Self {
        let dense = if processors <= DENSE_LINES {
            vec![u32::MAX; processors * processors]
        } else {
            Vec::new()
        };
        LineTable {
            processors,
            dense,
            map: PairMap::default(),
        }
    }
    #[inline]
    fn get(&self, from: ProcId, to: ProcId) -> Option<ChannelId> {
        if self.dense.is_empty() {
            return self.map.get(&(from, to)).copied();
        }
        let (f, t) = (from.index(), to.index());
        if f >= self.processors || t >= self.processors {
            return None;
        }
        match self.dense[f * self.processors + t] {
            u32::MAX => None,
            ch => Some(ChannelId(ch as usize)),
        }
    }
    fn insert(&mut self, from: ProcId, to: ProcId, ch: ChannelId) {
        if self.dense.is_empty() {
            self.map.insert((from, to), ch);
        } else {
            let n = u32::try_from(ch.0).expect("fewer than 2^32 channels");
            self.dense[from.index() * self.processors + to.index()] = n;
        }
    }
}

/// A typed message of a protocol: its Table I type and its size on the line.
pub trait Message {
    /// The message's type in the paper's Table I.
    fn kind(&self) -> MsgKind;
    /// Its size on the line, in bytes.
    fn bytes(&self) -> u64;
}

/// What carries messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Medium {
    /// A point-to-point line between two processors, full duplex: one channel per direction.
    Line {
        /// Its two ends (for a line of a processor tree: the parent, then the child).
        ends: (ProcId, ProcId),
        /// Its rate and whether it holds messages for their receiver's RTS.
        spec: LinkSpec,
    },
    /// A shared bus: one channel for every processor.
    Bus(BusSpec),
}

impl Medium {
    /// How long a message of `bytes` occupies the medium (on a bus: its whole frame).
    pub fn transmit_time(&self, bytes: u64) -> SimTime {
        match self {
            Medium::Line { spec, .. } => spec.transmit_time(bytes),
            Medium::Bus(bus) => bus.frame_time(bytes),
        }
    }
}

/// One direction of one line, or a bus: what a hop of a route uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChannelId(usize);

impl ChannelId {
    /// Its number, from 0 in the order the network was built.
    pub fn index(self) -> usize {
        self.0
    }
}

/// The way a message goes from one processor to another: the channels it takes, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    hops: Vec<ChannelId>,
}

impl Route {
    /// The channels, first hop first (one, except on a hypercube or a mesh).
    pub fn hops(&self) -> &[ChannelId] {
        &self.hops
    }
}

/// A message that has arrived, with what the run's statistics and traces record of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery<M> {
    /// Its sender.
    pub from: ProcId,
    /// Its receiver.
    pub to: ProcId,
    /// The message.
    pub msg: M,
    /// When it was posted (the sender's setup had ended).
    pub sent: SimTime,
    /// When its first byte went on its first channel.
    pub transmit_start: SimTime,
}

/// A broadcast frame that has arrived at every other processor (on a bus).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broadcast<M> {
    /// Its sender.
    pub from: ProcId,
    /// Each receiver with its copy of the message.
    pub copies: Vec<(ProcId, M)>,
    /// When it was posted.
    pub sent: SimTime,
    /// When its first byte went on the bus.
    pub transmit_start: SimTime,
}

/// A message that has crossed one hop of its route and is at an intermediate processor, to be
/// [forwarded](Network::forward) after the forwarding cost.
#[derive(Debug)]
pub struct Transit<M> {
    at: ProcId,
    packet: Packet<M>,
}

impl<M> Transit<M> {
    /// The processor it is at (which forwards it).
    pub fn at(&self) -> ProcId {
        self.at
    }
    /// Its sender.
    pub fn from(&self) -> ProcId {
        self.packet.src
    }
}

/// What [`Network::arrive`] hands over.
#[derive(Debug)]
pub enum Arrival<M> {
    /// At its receiver.
    Delivered(Delivery<M>),
    /// A broadcast at every other processor.
    Broadcast(Broadcast<M>),
    /// At an intermediate processor of its route.
    Transit(Transit<M>),
}

impl<M> Arrival<M> {
    /// The delivery, if the message is at its receiver.
    pub fn delivery(self) -> Option<Delivery<M>> {
        match self {
            Arrival::Delivered(d) => Some(d),
            _ => None,
        }
    }
}

/// Why the network could not do what it was asked.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// No route leads from `from` to `to`.
    #[error("{from} sent a message to {to}, but no line of the network joins them")]
    NoRoute {
        /// The sender.
        from: ProcId,
        /// The addressee.
        to: ProcId,
    },
    /// A message's arrival would pass the largest representable time.
    #[error("a message to {to} would arrive after the largest representable time (sent at {at})")]
    TimeOverflow {
        /// The receiver.
        to: ProcId,
        /// When its transmission would have started.
        at: SimTime,
    },
}

/// What a packet carries: one message, or a broadcast's copies.
#[derive(Debug)]
enum Payload<M> {
    One(M),
    Copies(Vec<(ProcId, M)>),
}

/// A message on its way, with where it goes and when it left.
#[derive(Debug)]
struct Packet<M> {
    payload: Payload<M>,
    src: ProcId,
    /// Its receiver; `None` for a broadcast.
    dst: Option<ProcId>,
    bytes: u64,
    sent: SimTime,
    /// When it went on its first channel.
    first_start: Option<SimTime>,
}

/// The packet on a channel: when it arrives at the channel's far end.
struct Frame<M> {
    packet: Packet<M>,
    arrival: SimTime,
}

struct Channel<M> {
    medium: usize,
    from: ProcId,
    to: ProcId,
    /// Its next message for the processor at its far end waits until that processor is ready
    /// to read (RTS/CTS).
    rts_cts: bool,
    /// Posted messages not yet on the channel, in the order posted.
    waiting: VecDeque<Packet<M>>,
    in_flight: Option<Frame<M>>,
    /// The serial interface (index into `Network::scis`) whose capacity its frames share.
    sci: Option<usize>,
}

/// A host's serial interface as a device with a finite character capacity, shared by its
/// ports first come first served (a frame's characters are served when it goes on its line).
struct SciServer {
    /// Characters per second, every port and direction together.
    capacity: u64,
    /// When it has served every frame started so far.
    free: SimTime,
}

/// How the network was built.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Tree,
    Pool(PoolNetwork),
}

/// The media between processors, their channels and the routes over them; `M` is the
/// protocol's message type.
pub struct Network<M> {
    kind: Kind,
    processors: usize,
    media: Vec<Medium>,
    channels: Vec<Channel<M>>,
    /// The channel from a processor to a neighbour (one line away).
    lines: LineTable,
    /// Whether any line's spec costs CPU time per character ([`LinkSpec::char_cost`]).
    char_costs: bool,
    /// The channels into each processor, in channel order.
    incoming: Vec<Vec<ChannelId>>,
    /// The line spec of a pool's lines.
    line: LinkSpec,
    /// The sender's setup: a processor with nothing queued posts no earlier than this after now.
    setup: SimTime,
    /// The hosts' serial interfaces with a finite capacity (processor trees only).
    scis: Vec<SciServer>,
}

/// The line spec of the lines below processors at `level` of a processor tree: `links[level]`,
/// the last entry serving every level below it.
pub(crate) fn level_spec(links: &[LinkSpec], level: usize) -> LinkSpec {
    links[level.min(links.len() - 1)]
}

impl<M: Message> Network<M> {
    fn empty(kind: Kind, processors: usize, line: LinkSpec, setup: SimTime) -> Self {
        Network {
            kind,
            processors,
            media: Vec::new(),
            channels: Vec::new(),
            lines: LineTable::new(processors),
            char_costs: false,
            incoming: vec![Vec::new(); processors],
            line,
            setup,
            scis: Vec::new(),
        }
    }

    /// Adds a full-duplex line between `a` and `b` of `spec`; RTS/CTS, if the spec has it, on
    /// the directions in `rts`.
    fn add_line(&mut self, a: ProcId, b: ProcId, spec: LinkSpec, rts: [bool; 2]) {
        let medium = self.media.len();
        self.media.push(Medium::Line { ends: (a, b), spec });
        self.char_costs |=
            spec.char_cost(true) > SimTime::ZERO || spec.char_cost(false) > SimTime::ZERO;
        for ((from, to), rts_cts) in [(a, b), (b, a)].into_iter().zip(rts) {
            let ch = ChannelId(self.channels.len());
            self.channels.push(Channel {
                medium,
                from,
                to,
                rts_cts,
                waiting: VecDeque::new(),
                in_flight: None,
                sci: None,
            });
            self.lines.insert(from, to, ch);
            self.incoming[to.index()].push(ch);
        }
    }

    /// Today's lines of a processor tree: one line per parent–child edge, of spec
    /// `links[level of the parent]` (the last entry serving every level below it); RTS/CTS, if
    /// the spec has it, holds messages from the parent to the child only. Routes: one hop along
    /// each line, both ways. A spec whose serial interface has a finite capacity
    /// ([`SciSpec::capacity`]) puts both directions of the lines to a parent's children on one
    /// interface of that parent, whose capacity they share.
    ///
    /// # Panics
    /// If `links` is empty.
    pub fn tree(tree: &ProcessorTree, links: &[LinkSpec]) -> Self {
        assert!(!links.is_empty(), "a network needs at least one link spec");
        let mut net = Network::empty(Kind::Tree, tree.len(), links[0], SimTime::ZERO);
        let mut server_of: HashMap<ProcId, usize> = HashMap::new();
        for (parent, child) in tree.edges() {
            let spec = level_spec(links, tree.level(child) - 1);
            net.add_line(parent, child, spec, [spec.rts_cts, false]);
            if let Some(capacity) = spec.sci.and_then(|s| s.capacity) {
                let next = net.scis.len();
                let server = *server_of.entry(parent).or_insert(next);
                if server == next {
                    net.scis.push(SciServer {
                        capacity,
                        free: SimTime::ZERO,
                    });
                }
                let n = net.channels.len();
                net.channels[n - 2].sci = Some(server);
                net.channels[n - 1].sci = Some(server);
            }
        }
        net
    }

    /// CPU time per character for processor `at` on its line to `other` (a parent's or a
    /// child's, [`LinkSpec::char_cost`]): zero unless they are joined by a line whose spec
    /// models its serial interface as a device.
    pub fn char_cost(&self, at: ProcId, other: ProcId) -> SimTime {
        if !self.char_costs {
            return SimTime::ZERO;
        }
        let Some(ch) = self.lines.get(at, other) else {
            return SimTime::ZERO;
        };
        match self.media[self.channels[ch.0].medium] {
            Medium::Line { ends, spec } => spec.char_cost(ends.0 == at),
            Medium::Bus(_) => SimTime::ZERO,
        }
    }

    /// The network `kind` over `processors` processors. The point-to-point kinds' lines are of
    /// spec `line` (RTS/CTS, if it has it, holds a message on its last hop until its receiver is
    /// ready to read; forwarding processors are always ready). `setup` is the sender's setup `s`
    /// (a processor with nothing queued posts no earlier than `s` from now: the lookahead over
    /// lines not yet built).
    ///
    /// ```
    /// use sim_hw::{LinkSpec, Network, PoolNetwork, Forwarding, Routing};
    /// use sim_core::{MsgKind, ProcId, SimTime};
    /// # struct M; impl sim_hw::Message for M { fn kind(&self) -> MsgKind { MsgKind::InterNode } fn bytes(&self) -> u64 { 4 } }
    /// let cube = PoolNetwork::Hypercube(Routing { forwarding: Forwarding::Hardware, cost: SimTime(10) });
    /// let mut net: Network<M> = Network::pool(8, &cube, LinkSpec::ideal(), SimTime::ZERO).unwrap();
    /// // 0 -> 7 corrects bits 0, 1, 2: three hops, through 1 and 3.
    /// assert_eq!(net.route(ProcId(0), ProcId(7)).unwrap().hops().len(), 3);
    /// ```
    pub fn pool(
        processors: usize,
        kind: &PoolNetwork,
        line: LinkSpec,
        setup: SimTime,
    ) -> Result<Self, PoolError> {
        kind.check(processors)?;
        let mut net = Network::empty(Kind::Pool(*kind), processors, line, setup);
        match kind {
            PoolNetwork::FullyConnected => {} // built lazily, pair by pair
            PoolNetwork::Bus(bus) => {
                net.media.push(Medium::Bus(*bus));
                net.channels.push(Channel {
                    medium: 0,
                    from: ProcId::MASTER,
                    to: ProcId::MASTER,
                    rts_cts: false,
                    waiting: VecDeque::new(),
                    in_flight: None,
                    sci: None,
                });
                net.incoming = vec![vec![ChannelId(0)]; processors];
            }
            PoolNetwork::Hypercube(_) | PoolNetwork::Mesh { .. } => {
                for p in 0..processors {
                    for q in kind.neighbours(p, processors) {
                        if p < q {
                            let rts = [line.rts_cts; 2];
                            net.add_line(ProcId(p as u32), ProcId(q as u32), line, rts);
                        }
                    }
                }
            }
        }
        Ok(net)
    }

    /// Processors the network joins.
    pub fn processors(&self) -> usize {
        self.processors
    }

    /// The pool network it was built as (`None` for a processor tree's lines).
    pub fn pool_kind(&self) -> Option<PoolNetwork> {
        match self.kind {
            Kind::Tree => None,
            Kind::Pool(k) => Some(k),
        }
    }

    /// Whether a broadcast is one frame ([`Network::post_broadcast`]): on a bus.
    pub fn has_broadcast(&self) -> bool {
        matches!(self.kind, Kind::Pool(PoolNetwork::Bus(_)))
    }

    /// How intermediate processors forward (hypercube, mesh); `None` where routes are one hop.
    pub fn routing(&self) -> Option<Routing> {
        match self.kind {
            Kind::Pool(k) => k.routing(),
            Kind::Tree => None,
        }
    }

    /// The channel of the first hop from `from` toward `to`, building a line of a fully
    /// connected network when a pair first talks. `None`: no route.
    fn first_hop(&mut self, from: ProcId, to: ProcId) -> Option<ChannelId> {
        if from == to || to.index() >= self.processors || from.index() >= self.processors {
            return None;
        }
        match self.kind {
            Kind::Tree => self.lines.get(from, to),
            Kind::Pool(PoolNetwork::Bus(_)) => Some(ChannelId(0)),
            Kind::Pool(PoolNetwork::FullyConnected) => {
                if let Some(ch) = self.lines.get(from, to) {
                    return Some(ch);
                }
                let spec = self.line;
                self.add_line(from, to, spec, [spec.rts_cts; 2]);
                self.lines.get(from, to)
            }
            Kind::Pool(k) => {
                let next = ProcId(k.next_hop(from.index(), to.index())? as u32);
                self.lines.get(from, next)
            }
        }
    }

    /// Whether it builds a line for each pair of processors when the pair first talks (a fully
    /// connected network).
    fn line_per_pair(&self) -> bool {
        matches!(self.kind, Kind::Pool(PoolNetwork::FullyConnected))
    }

    /// Makes sure the line a message from `from` to `to` would take first exists (a fully
    /// connected network builds its lines as pairs first talk; the machine calls this when a send
    /// is queued, so that the lookahead sees the line before the message is posted). Nothing on
    /// other networks.
    pub fn prepare(&mut self, from: ProcId, to: ProcId) {
        if self.line_per_pair() {
            self.first_hop(from, to);
        }
    }

    /// The route from `from` to `to`, if there is one (computed on demand; on a fully connected
    /// network this builds the pair's line).
    pub fn route(&mut self, from: ProcId, to: ProcId) -> Option<Route> {
        let first = self.first_hop(from, to)?;
        let mut hops = vec![first];
        if let Kind::Pool(k) = self.kind {
            if k.routing().is_some() {
                hops = pool::route_nodes(&k, from, to)
                    .windows(2)
                    .map(|w| {
                        self.lines
                            .get(w[0], w[1])
                            .expect("a route's hops are lines")
                    })
                    .collect();
            }
        }
        Some(Route { hops })
    }

    /// The sender and receiver ends of channel `ch` (a bus's one channel: processor 0 twice).
    pub fn ends(&self, ch: ChannelId) -> (ProcId, ProcId) {
        let c = &self.channels[ch.0];
        (c.from, c.to)
    }

    /// Whether messages wait to go on channel `ch` ([`Network::transmit`] has nothing to do if
    /// not).
    #[inline]
    pub fn has_waiting(&self, ch: ChannelId) -> bool {
        !self.channels[ch.0].waiting.is_empty()
    }

    /// The channels into processor `p`, in channel order (on a bus: the bus).
    pub fn incoming(&self, p: ProcId) -> &[ChannelId] {
        &self.incoming[p.index()]
    }

    /// `msg`, sent by `from` to `to` at `now` (its setup done), joins the FIFO of its route's
    /// first channel. Returns that channel, whose next frame the caller then tries to
    /// [transmit](Network::transmit).
    pub fn post(
        &mut self,
        from: ProcId,
        to: ProcId,
        msg: M,
        now: SimTime,
    ) -> Result<ChannelId, NetworkError> {
        let Some(ch) = self.first_hop(from, to) else {
            return Err(NetworkError::NoRoute { from, to });
        };
        let bytes = msg.bytes();
        self.channels[ch.0].waiting.push_back(Packet {
            payload: Payload::One(msg),
            src: from,
            dst: Some(to),
            bytes,
            sent: now,
            first_start: None,
        });
        Ok(ch)
    }

    /// A broadcast from `from` at `now`: on a bus, one frame (of the size of one copy) that
    /// brings each receiver its copy at the same time. `copies` names each receiver with its
    /// copy. `None` if the network has no broadcast ([`Network::has_broadcast`]): the caller
    /// sends one message per receiver instead.
    pub fn post_broadcast(
        &mut self,
        from: ProcId,
        copies: Vec<(ProcId, M)>,
        now: SimTime,
    ) -> Option<ChannelId> {
        if !self.has_broadcast() {
            return None;
        }
        let bytes = copies.first().map_or(0, |(_, m)| m.bytes());
        self.channels[0].waiting.push_back(Packet {
            payload: Payload::Copies(copies),
            src: from,
            dst: None,
            bytes,
            sent: now,
            first_start: None,
        });
        Some(ChannelId(0))
    }

    /// Puts the next waiting message of channel `ch` on it at `now`, if the channel is free and,
    /// under RTS/CTS for a message on its last hop, `ready(receiver)` says the receiver is ready
    /// to read (asked only then). Returns its arrival time at the channel's far end, at which
    /// the caller calls [`Network::arrive`]; `None` if nothing was started.
    pub fn transmit(
        &mut self,
        ch: ChannelId,
        now: SimTime,
        ready: impl FnOnce(ProcId) -> bool,
    ) -> Result<Option<SimTime>, NetworkError> {
        let line_per_pair = self.line_per_pair();
        let c = &mut self.channels[ch.0];
        let Some(head) = c.waiting.front() else {
            return Ok(None);
        };
        if c.in_flight.is_some() {
            return Ok(None);
        }
        if c.rts_cts && head.dst == Some(c.to) && !ready(c.to) {
            return Ok(None);
        }
        let Some(mut packet) = c.waiting.pop_front() else {
            return Ok(None);
        };
        let time = self.media[c.medium].transmit_time(packet.bytes);
        // Through a serial interface of finite capacity: the frame's characters are served
        // after every frame started before it on any of its ports; it arrives when both the
        // line and the interface are done with it.
        let served = match c.sci {
            Some(i) => {
                let server = &self.scis[i];
                let service = SimTime::transmit(packet.bytes, server.capacity);
                server.free.max(now).checked_add(service)
            }
            None => Some(SimTime::ZERO),
        };
        let Some(arrival) = now
            .checked_add(time)
            .zip(served)
            .map(|(line, served)| line.max(served))
        else {
            let to = packet.dst.unwrap_or(c.to);
            c.waiting.push_front(packet);
            return Err(NetworkError::TimeOverflow { to, at: now });
        };
        if let Some(i) = c.sci {
            self.scis[i].free = served.unwrap_or(SimTime::MAX);
        }
        packet.first_start.get_or_insert(now);
        if c.waiting.is_empty() && line_per_pair {
            // A line for every pair that talks, most of them seldom: an empty FIFO gives its
            // buffer back rather than hold it for the run.
            c.waiting = VecDeque::new();
        }
        c.in_flight = Some(Frame { packet, arrival });
        Ok(Some(arrival))
    }

    /// The message on channel `ch` has arrived at its far end (at the time
    /// [`Network::transmit`] returned): the channel is free again. `None` if nothing was on it.
    pub fn arrive(&mut self, ch: ChannelId) -> Option<Arrival<M>> {
        let c = &mut self.channels[ch.0];
        let Frame { packet, .. } = c.in_flight.take()?;
        let on_bus = matches!(self.media[c.medium], Medium::Bus(_));
        let transmit_start = packet.first_start.unwrap_or(packet.sent);
        let Packet {
            payload,
            src,
            dst,
            bytes,
            sent,
            first_start,
        } = packet;
        Some(match (payload, dst) {
            (Payload::Copies(copies), _) => Arrival::Broadcast(Broadcast {
                from: src,
                copies,
                sent,
                transmit_start,
            }),
            (Payload::One(msg), Some(to)) if on_bus || to == c.to => Arrival::Delivered(Delivery {
                from: src,
                to,
                msg,
                sent,
                transmit_start,
            }),
            (payload, dst) => Arrival::Transit(Transit {
                at: c.to,
                packet: Packet {
                    payload,
                    src,
                    dst,
                    bytes,
                    sent,
                    first_start,
                },
            }),
        })
    }

    /// A message in transit at an intermediate processor goes on, at `now` (its forwarding
    /// done): it joins the FIFO of the next hop's channel, which is returned for the caller to
    /// [transmit](Network::transmit).
    pub fn forward(
        &mut self,
        transit: Transit<M>,
        now: SimTime,
    ) -> Result<ChannelId, NetworkError> {
        let Transit { at, packet } = transit;
        let to = packet.dst.unwrap_or(at);
        let Some(ch) = self.first_hop(at, to) else {
            return Err(NetworkError::NoRoute { from: at, to });
        };
        let _ = now; // the packet keeps the time it was first posted
        self.channels[ch.0].waiting.push_back(packet);
        Ok(ch)
    }

    /// The earliest time a message could arrive at `at` or be held on a channel into it, at `now`
    /// (a lower bound: the lookahead horizon must never pass a real arrival).
    ///
    /// On a processor tree's lines: per line into `at`, the arrival of a message on it, `now` if
    /// one waits to go on it, else the earliest time its sender could post one, which
    /// `earliest_send(sender, at)` says. A channel from `quiet` (the processor asking, which
    /// sends nothing new before its own horizon) counts as never.
    ///
    /// On a pool's lines the same per line, where `earliest_send` need only look at the sender
    /// itself (its work in progress, whether it reacts to arrivals): on a hypercube or mesh a
    /// message passing through the sender is forwarded no earlier than `now` plus the forwarding
    /// cost; on a fully connected network a pair that has not talked yet posts no earlier than
    /// `now + s`. On a bus: the arrival of the frame on the bus if it is for `at`, else the end of
    /// the frame on the bus (or `now`) plus the shortest frame's time. `SimTime::MAX` if nothing
    /// can come.
    pub fn earliest_arrival(
        &self,
        at: ProcId,
        quiet: Option<ProcId>,
        now: SimTime,
        earliest_send: impl Fn(ProcId, ProcId) -> SimTime,
    ) -> SimTime {
        self.earliest_arrival_past(at, quiet, now, SimTime::ZERO, earliest_send)
    }

    /// [`Network::earliest_arrival`] for a caller that only needs it past `enough`: the same
    /// time if that is after `enough`, else some time at or before `enough` (the look stops at
    /// the first bound at or before it). Whatever it returns, a time `t >= enough` is at or
    /// past it exactly when `t` is at or past [`Network::earliest_arrival`]'s answer.
    ///
    /// A search batch stops no earlier than the end of its first step, so its horizon matters
    /// only past that; on a pool of interrupt-driven processors the first line into `at` whose
    /// sender could post within the setup `s` settles it, where the whole look would visit every
    /// line into `at` (up to p - 1 on a fully connected network).
    pub fn earliest_arrival_past(
        &self,
        at: ProcId,
        quiet: Option<ProcId>,
        now: SimTime,
        enough: SimTime,
        earliest_send: impl Fn(ProcId, ProcId) -> SimTime,
    ) -> SimTime {
        let mut t = SimTime::MAX;
        match self.kind {
            Kind::Pool(PoolNetwork::Bus(bus)) => {
                let c = &self.channels[0];
                let mut free = now;
                if let Some(frame) = &c.in_flight {
                    let p = &frame.packet;
                    let for_me = match p.dst {
                        Some(to) => to == at,
                        None => p.src != at,
                    };
                    if for_me {
                        t = frame.arrival;
                    }
                    free = free.max(frame.arrival);
                }
                let next = free.checked_add(bus.frame_time(0)).unwrap_or(SimTime::MAX);
                return t.min(next);
            }
            Kind::Pool(PoolNetwork::FullyConnected)
                if self.incoming[at.index()].len() + 1 < self.processors =>
            {
                t = now.checked_add(self.setup).unwrap_or(SimTime::MAX);
                if t <= enough {
                    return t;
                }
            }
            _ => {}
        }
        let forwarded = match self.routing() {
            Some(r) => now.checked_add(r.cost).unwrap_or(SimTime::MAX),
            None => SimTime::MAX,
        };
        for &ch in &self.incoming[at.index()] {
            let c = &self.channels[ch.0];
            let bound = if let Some(frame) = &c.in_flight {
                frame.arrival
            } else if !c.waiting.is_empty() {
                now
            } else if Some(c.from) == quiet {
                // A message the asking processor sends later arrives after its horizon anyway.
                SimTime::MAX
            } else {
                earliest_send(c.from, at).min(forwarded)
            };
            t = t.min(bound);
            if t <= enough {
                return t;
            }
        }
        t
    }

    /// Messages posted but not yet on their channel, as (sender, receiver) per line that has
    /// any: at the end of a run, each is held for a receiver that never became ready to read.
    pub fn held(&self) -> impl Iterator<Item = (ProcId, ProcId)> + '_ {
        self.channels
            .iter()
            .filter(|c| !c.waiting.is_empty())
            .map(|c| (c.from, c.to))
    }
}
