//! The interconnect: the media that carry messages between processors.
//!
//! A [`Network`] knows its media, the *channels* they offer (one direction of one medium, with
//! its own FIFO) and, for every pair of processors that can talk, the [`Route`] a message takes
//! (a list of hops, one channel each). It does not know what the processors are doing: the
//! [`crate::Machine`] asks it to take a message ([`Network::post`]), to start the next frame on a
//! channel ([`Network::transmit`], telling it whether the receiver is ready to read), to hand over
//! what has arrived ([`Network::arrive`]), for the earliest time anything could reach a processor
//! ([`Network::earliest_arrival`], the link half of the lookahead horizon) and for what is still
//! held when a run ends ([`Network::held`]).
//!
//! Today's only medium is the point-to-point [line](Medium::Line) (ARCHITECTURE.md, "Links and
//! the network"):
//! - it has a rate in bytes/s and carries both directions at once (full duplex): each direction
//!   is a channel;
//! - a channel sends one message at a time, in the order they were posted (a FIFO per
//!   direction); a message occupies it for `bytes / rate`, rounded up to whole nanoseconds, and
//!   arrives when its last byte does;
//! - with RTS/CTS, a channel from a parent to its child holds its next message until the child is
//!   ready to read (the bare boards buffer only two characters);
//! - the per-message setup `s` is CPU time of the sender, charged by the machine before it posts.
//!
//! [`Network::tree`] builds the lines of a processor tree: one line per parent–child edge, and a
//! route of one hop along it in each direction; two processors that are not parent and child
//! have no route.

mod line;
mod sci;
#[cfg(test)]
mod tests;

pub use line::{LinkKind, LinkSpec};
pub use sci::{PortsExceeded, SerialInterface};

use crate::ProcessorTree;
use sim_core::{MsgKind, ProcId, SimTime};
use std::collections::{HashMap, VecDeque};

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
        /// Its rate and whether it holds messages to the child for its RTS.
        spec: LinkSpec,
    },
}

impl Medium {
    /// How long a message of `bytes` occupies the medium.
    pub fn transmit_time(&self, bytes: u64) -> SimTime {
        match self {
            Medium::Line { spec, .. } => spec.transmit_time(bytes),
        }
    }
}

/// One direction of one medium, with its FIFO: what a hop of a route uses.
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
    /// The channels, first hop first (one, on today's networks).
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
    /// When its first byte went on the channel.
    pub transmit_start: SimTime,
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

/// The message on a channel: what it is, when it was posted, when it went on the channel and
/// when it arrives.
struct Frame<M> {
    msg: M,
    sent: SimTime,
    start: SimTime,
    arrival: SimTime,
}

struct Channel<M> {
    medium: usize,
    from: ProcId,
    to: ProcId,
    /// Its next message waits until the receiver is ready to read (RTS/CTS).
    rts_cts: bool,
    /// Posted messages not yet on the channel, with the time each was posted.
    waiting: VecDeque<(M, SimTime)>,
    in_flight: Option<Frame<M>>,
}

/// The media between processors, their channels and the routes over them; `M` is the
/// protocol's message type.
pub struct Network<M> {
    media: Vec<Medium>,
    channels: Vec<Channel<M>>,
    routes: HashMap<(ProcId, ProcId), Route>,
    /// The channels into each processor, in channel order.
    incoming: Vec<Vec<ChannelId>>,
}

/// The line spec of the lines below processors at `level` of a processor tree: `links[level]`,
/// the last entry serving every level below it.
pub(crate) fn level_spec(links: &[LinkSpec], level: usize) -> LinkSpec {
    links[level.min(links.len() - 1)]
}

impl<M: Message> Network<M> {
    /// Today's lines of a processor tree: one line per parent–child edge, of spec
    /// `links[level of the parent]` (the last entry serving every level below it); RTS/CTS, if
    /// the spec has it, holds messages from the parent to the child only. Routes: one hop along
    /// each line, both ways.
    ///
    /// # Panics
    /// If `links` is empty.
    pub fn tree(tree: &ProcessorTree, links: &[LinkSpec]) -> Self {
        assert!(!links.is_empty(), "a network needs at least one link spec");
        let mut net = Network {
            media: Vec::new(),
            channels: Vec::new(),
            routes: HashMap::new(),
            incoming: vec![Vec::new(); tree.len()],
        };
        for (parent, child) in tree.edges() {
            let spec = level_spec(links, tree.level(child) - 1);
            let medium = net.media.len();
            net.media.push(Medium::Line {
                ends: (parent, child),
                spec,
            });
            for (from, to, rts_cts) in [(parent, child, spec.rts_cts), (child, parent, false)] {
                let ch = ChannelId(net.channels.len());
                net.channels.push(Channel {
                    medium,
                    from,
                    to,
                    rts_cts,
                    waiting: VecDeque::new(),
                    in_flight: None,
                });
                net.routes.insert((from, to), Route { hops: vec![ch] });
                net.incoming[to.index()].push(ch);
            }
        }
        net
    }

    /// The route from `from` to `to`, if there is one.
    pub fn route(&self, from: ProcId, to: ProcId) -> Option<&Route> {
        self.routes.get(&(from, to))
    }

    /// The sender and receiver ends of channel `ch`.
    pub fn ends(&self, ch: ChannelId) -> (ProcId, ProcId) {
        let c = &self.channels[ch.0];
        (c.from, c.to)
    }

    /// The channels into processor `p`, in channel order.
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
        let ch = match self.routes.get(&(from, to)) {
            Some(route) => route.hops[0],
            None => return Err(NetworkError::NoRoute { from, to }),
        };
        self.channels[ch.0].waiting.push_back((msg, now));
        Ok(ch)
    }

    /// Puts the next waiting message of channel `ch` on it at `now`, if the channel is free and,
    /// under RTS/CTS, `ready(receiver)` says the receiver is ready to read (asked only then).
    /// Returns its arrival time, at which the caller calls [`Network::arrive`]; `None` if nothing
    /// was started.
    pub fn transmit(
        &mut self,
        ch: ChannelId,
        now: SimTime,
        ready: impl FnOnce(ProcId) -> bool,
    ) -> Result<Option<SimTime>, NetworkError> {
        let c = &mut self.channels[ch.0];
        if c.in_flight.is_some() || c.waiting.is_empty() {
            return Ok(None);
        }
        if c.rts_cts && !ready(c.to) {
            return Ok(None);
        }
        let Some((msg, sent)) = c.waiting.pop_front() else {
            return Ok(None);
        };
        let time = self.media[c.medium].transmit_time(msg.bytes());
        let Some(arrival) = now.checked_add(time) else {
            return Err(NetworkError::TimeOverflow { to: c.to, at: now });
        };
        c.in_flight = Some(Frame {
            msg,
            sent,
            start: now,
            arrival,
        });
        Ok(Some(arrival))
    }

    /// The message on channel `ch` has arrived (at the time [`Network::transmit`] returned): the
    /// channel is free again. `None` if nothing was on it.
    pub fn arrive(&mut self, ch: ChannelId) -> Option<Delivery<M>> {
        let c = &mut self.channels[ch.0];
        let frame = c.in_flight.take()?;
        Some(Delivery {
            from: c.from,
            to: c.to,
            msg: frame.msg,
            sent: frame.sent,
            transmit_start: frame.start,
        })
    }

    /// The earliest time a message could arrive at `at` or be held on a channel into it, at `now`:
    /// the arrival of a message on the channel, `now` if one waits to go on it, else the earliest
    /// time its sender could post one, which `earliest_send(sender, at)` says. A channel from
    /// `quiet` (the processor asking, which sends nothing new before its own horizon) counts as
    /// never. `SimTime::MAX` if nothing can come.
    pub fn earliest_arrival(
        &self,
        at: ProcId,
        quiet: Option<ProcId>,
        now: SimTime,
        earliest_send: impl Fn(ProcId, ProcId) -> SimTime,
    ) -> SimTime {
        let mut t = SimTime::MAX;
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
                earliest_send(c.from, at)
            };
            t = t.min(bound);
        }
        t
    }

    /// Messages posted but not yet on their channel, as (sender, receiver) per channel that has
    /// any: at the end of a run, each is held for a receiver that never became ready to read.
    pub fn held(&self) -> impl Iterator<Item = (ProcId, ProcId)> + '_ {
        self.channels
            .iter()
            .filter(|c| !c.waiting.is_empty())
            .map(|c| (c.from, c.to))
    }
}
