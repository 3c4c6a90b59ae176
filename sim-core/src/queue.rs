//! The global event queue: events ordered by (time, sequence number).

use crate::SimTime;
use priority_queue::PriorityQueue;
use std::borrow::Borrow;
use std::cmp::Reverse;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A sequence number taken in advance (see [`EventQueue::reserve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seq(u64);

/// Names a scheduled event so that it can be moved or cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId(u64);

/// An entry of the queue; equal (and hashed) by its sequence number only, so that the queue can be
/// searched by `EventId` without the payload.
struct Entry<E> {
    seq: u64,
    event: E,
}
impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> Hash for Entry<E> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.seq.hash(state)
    }
}
impl<E> Borrow<u64> for Entry<E> {
    fn borrow(&self) -> &u64 {
        &self.seq
    }
}

/// Multiplicative hashing for sequence numbers: they are distinct integers, SipHash buys nothing.
#[derive(Default)]
struct SeqHasher(u64);
impl Hasher for SeqHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A deterministic priority queue of timed events.
///
/// Events at equal times come out in the order they were scheduled (their sequence number), so a
/// run is a pure function of its inputs: the same schedule gives the same order on any machine.
///
/// ```
/// use sim_core::{EventQueue, SimTime};
/// let mut q = EventQueue::new();
/// q.schedule(SimTime(5), "b");
/// let late = q.schedule(SimTime(9), "c");
/// q.schedule(SimTime(5), "a2");
/// q.reschedule(late, SimTime(1));
/// assert_eq!(q.pop(), Some((SimTime(1), "c")));
/// assert_eq!(q.pop(), Some((SimTime(5), "b")));
/// assert_eq!(q.pop(), Some((SimTime(5), "a2")));
/// assert_eq!(q.pop(), None);
/// ```
pub struct EventQueue<E> {
    heap: PriorityQueue<Entry<E>, Reverse<(SimTime, u64)>, BuildHasherDefault<SeqHasher>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue; sequence numbers start at 0.
    pub fn new() -> Self {
        EventQueue {
            heap: PriorityQueue::with_default_hasher(),
            next_seq: 0,
        }
    }

    /// Schedules `event` at `at`; later calls at the same time come out later.
    pub fn schedule(&mut self, at: SimTime, event: E) -> EventId {
        let seq = self.reserve();
        self.schedule_reserved(seq, at, event)
    }

    /// Takes the next sequence number now, for an event whose time is not known yet: scheduled
    /// later with [`EventQueue::schedule_reserved`], it comes out among events at its time as if
    /// it had been scheduled now. (A search that the machine advances in several batches keeps the
    /// place a single event at its start would have had.)
    pub fn reserve(&mut self) -> Seq {
        let seq = self.next_seq;
        self.next_seq += 1;
        Seq(seq)
    }

    /// Schedules `event` at `at` in the place reserved by `seq` (each reservation is used once).
    ///
    /// ```
    /// use sim_core::{EventQueue, SimTime};
    /// let mut q = EventQueue::new();
    /// let early = q.reserve();
    /// q.schedule(SimTime(5), "scheduled second");
    /// q.schedule_reserved(early, SimTime(5), "reserved first");
    /// assert_eq!(q.pop(), Some((SimTime(5), "reserved first")));
    /// ```
    pub fn schedule_reserved(&mut self, seq: Seq, at: SimTime, event: E) -> EventId {
        self.heap
            .push(Entry { seq: seq.0, event }, Reverse((at, seq.0)));
        EventId(seq.0)
    }

    /// Moves a pending event to a new time, keeping its place among events at that time.
    /// Returns false if the event is no longer pending.
    pub fn reschedule(&mut self, id: EventId, at: SimTime) -> bool {
        self.heap
            .change_priority(&id.0, Reverse((at, id.0)))
            .is_some()
    }

    /// Removes a pending event; returns it if it was still pending.
    pub fn cancel(&mut self, id: EventId) -> Option<E> {
        self.heap.remove(&id.0).map(|(e, _)| e.event)
    }

    /// The time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|(_, Reverse((t, _)))| *t)
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.heap.pop().map(|(e, Reverse((t, _)))| (t, e.event))
    }

    /// The number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    /// True if no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
    /// How many events were ever scheduled (a measure of simulation work).
    pub fn scheduled_total(&self) -> u64 {
        self.next_seq
    }
}

/// A model advanced by the global event queue.
pub trait Model {
    /// The events the model reacts to.
    type Event;
    /// Reacts to one event at simulated time `now`, scheduling later ones on `queue`.
    fn handle(&mut self, now: SimTime, event: Self::Event, queue: &mut EventQueue<Self::Event>);
    /// True once the model has failed (or finished early): [`run`] stops before the next event.
    fn stopped(&self) -> bool {
        false
    }
}

/// Runs `model` until no event is pending (or the model says it [stopped](Model::stopped)); returns the time of the last event handled and how
/// many events were handled.
///
/// Time never goes backwards: an event scheduled in the past is a bug in the model, caught here.
pub fn run<M: Model>(model: &mut M, queue: &mut EventQueue<M::Event>) -> (SimTime, u64) {
    let mut now = SimTime::ZERO;
    let mut handled = 0u64;
    while let Some((t, ev)) = queue.pop() {
        assert!(t >= now, "event scheduled in the past: {t:?} < {now:?}");
        now = t;
        handled += 1;
        model.handle(now, ev, queue);
        if model.stopped() {
            break;
        }
    }
    (now, handled)
}
