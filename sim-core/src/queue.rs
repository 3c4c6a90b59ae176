//! The global event queue: events ordered by (time, sequence number).

use crate::SimTime;

/// A sequence number taken in advance (see [`EventQueue::reserve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seq(u64);

/// Names a scheduled event so that it can be moved or cancelled: its sequence number and the
/// slot that holds its payload while it is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId {
    seq: u64,
    slot: u32,
}

/// How many bits of a key's tag name the slot (at most 16,777,216 events pending at once); the
/// sequence number takes the other 40 (about 10^12 events in one run, hours at the engine's
/// speed).
const SLOT_BITS: u32 = 24;
/// The first sequence number that does not fit in a key.
const MAX_SEQ: u64 = 1 << (64 - SLOT_BITS);

/// A key of the heap: an event's time in the high 64 bits, and below it a tag that holds its
/// sequence number above the slot that holds its payload. Keys order as integers, which is by
/// (time, sequence number), since sequence numbers are distinct: one comparison of two words.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key(u128);

impl Key {
    #[inline(always)]
    fn new(time: SimTime, seq: u64, slot: u32) -> Key {
        debug_assert!(seq < 1 << (64 - SLOT_BITS) && slot < 1 << SLOT_BITS);
        Key(((time.0 as u128) << 64) | ((seq << SLOT_BITS) | slot as u64) as u128)
    }
    #[inline(always)]
    fn time(&self) -> SimTime {
        SimTime((self.0 >> 64) as u64)
    }
    #[inline(always)]
    fn seq(&self) -> u64 {
        (self.0 as u64) >> SLOT_BITS
    }
    #[inline(always)]
    fn slot(&self) -> u32 {
        (self.0 as u64 & ((1 << SLOT_BITS) - 1)) as u32
    }
}

/// A pending event's payload, with the sequence number and time that its current key carries
/// (a key that does not match them is stale).
struct Slot<E> {
    seq: u64,
    time: SimTime,
    event: Option<E>,
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
///
/// Inside, a binary heap of keys of 16 bytes, each (time, sequence number, slot) packed into one
/// 128-bit integer so that comparing two keys is one integer comparison, and a slab of slots
/// that hold the payloads. Freed slots are reused, last freed first, so the slots in use stay
/// few and warm in cache. Cancelling or moving an event changes its slot only (moving also
/// pushes a key at the new time); a key that no longer matches its slot is stale and is dropped
/// when it reaches the top, which the queue keeps valid after every call (at no cost while no
/// key is stale). The heap never moves payloads and nothing is hashed. Measured against the
/// alternatives on the engine ping-pong (BENCHMARKS.md): the indexed `priority-queue` crate was
/// 2-3 times slower per event, a map from sequence numbers to payloads 1.3-5 times, and a 4-ary
/// heap slower than the standard library's binary heap at 1 and 10,000 pending events.
pub struct EventQueue<E> {
    heap: std::collections::BinaryHeap<std::cmp::Reverse<Key>>,
    slots: Vec<Slot<E>>,
    free: Vec<u32>,
    pending: usize,
    /// The sequence number of the event popped last.
    current: u64,
    /// Keys in the heap that are no longer their event's (heap length = pending + stale).
    stale: usize,
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
            heap: std::collections::BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            pending: 0,
            current: 0,
            stale: 0,
            next_seq: 0,
        }
    }

    /// Schedules `event` at `at`; later calls at the same time come out later.
    #[inline]
    pub fn schedule(&mut self, at: SimTime, event: E) -> EventId {
        let seq = self.reserve();
        self.schedule_reserved(seq, at, event)
    }

    /// Takes the next sequence number now, for an event whose time is not known yet: scheduled
    /// later with [`EventQueue::schedule_reserved`], it comes out among events at its time as if
    /// it had been scheduled now. (A search that the machine advances in several batches keeps the
    /// place a single event at its start would have had.)
    #[inline]
    pub fn reserve(&mut self) -> Seq {
        let seq = self.next_seq;
        assert!(
            seq < MAX_SEQ,
            "more than 2^{} events scheduled in one run",
            64 - SLOT_BITS
        );
        self.next_seq += 1;
        Seq(seq)
    }

    /// Schedules `event` at `at` in the place reserved by `seq`. A reservation may be used again
    /// once its event has been popped or cancelled (a search keeps its place across the batches
    /// the machine runs it in); an [`EventId`] names its event only until then, and may later
    /// name the next event of the same reservation.
    ///
    /// ```
    /// use sim_core::{EventQueue, SimTime};
    /// let mut q = EventQueue::new();
    /// let early = q.reserve();
    /// q.schedule(SimTime(5), "scheduled second");
    /// q.schedule_reserved(early, SimTime(5), "reserved first");
    /// assert_eq!(q.pop(), Some((SimTime(5), "reserved first")));
    /// ```
    #[inline]
    pub fn schedule_reserved(&mut self, seq: Seq, at: SimTime, event: E) -> EventId {
        let entry = Slot {
            seq: seq.0,
            time: at,
            event: Some(event),
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                let old = std::mem::replace(&mut self.slots[slot as usize], entry);
                debug_assert!(old.event.is_none(), "a free slot held an event");
                slot
            }
            None => {
                let slot = self.slots.len() as u32;
                assert!(
                    slot < 1 << SLOT_BITS,
                    "more than 2^{SLOT_BITS} events pending at once"
                );
                self.slots.push(entry);
                slot
            }
        };
        self.pending += 1;
        self.push_key(Key::new(at, seq.0, slot));
        EventId { seq: seq.0, slot }
    }

    /// The slot of `id` if its event is still pending.
    #[inline]
    fn live_slot(&mut self, id: EventId) -> Option<&mut Slot<E>> {
        self.slots
            .get_mut(id.slot as usize)
            .filter(|s| s.seq == id.seq && s.event.is_some())
    }

    /// Moves a pending event to a new time, keeping its place among events at that time.
    /// Returns false if the event is no longer pending.
    pub fn reschedule(&mut self, id: EventId, at: SimTime) -> bool {
        let Some(entry) = self.live_slot(id) else {
            return false;
        };
        entry.time = at;
        self.push_key(Key::new(at, id.seq, id.slot));
        self.stale += 1;
        self.settle();
        true
    }

    /// Removes a pending event; returns it if it was still pending.
    pub fn cancel(&mut self, id: EventId) -> Option<E> {
        let event = self.live_slot(id)?.event.take();
        self.free.push(id.slot);
        self.pending -= 1;
        self.stale += 1;
        self.settle();
        event
    }

    /// The time of the earliest pending event.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|k| k.0.time())
    }

    /// Removes and returns the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let key = self.pop_key()?;
        let event = self.slots[key.slot() as usize]
            .event
            .take()
            .expect("the top key is its event's (settled)");
        self.free.push(key.slot());
        self.pending -= 1;
        self.current = key.seq();
        self.settle();
        Some((key.time(), event))
    }

    /// True if `key` is its slot's current key (the event is pending at that time).
    #[inline(always)]
    fn is_live(&self, key: &Key) -> bool {
        let s = &self.slots[key.slot() as usize];
        s.seq == key.seq() && s.time == key.time() && s.event.is_some()
    }

    /// Drops stale keys from the top of the heap (those of cancelled events, and of moved
    /// events at their former times), so that the top is the earliest pending event's.
    #[inline]
    fn settle(&mut self) {
        debug_assert_eq!(self.heap.len(), self.pending + self.stale);
        if self.stale == 0 {
            return;
        }
        while let Some(top) = self.heap.peek() {
            if self.is_live(&top.0) {
                return;
            }
            self.pop_key();
            self.stale -= 1;
        }
    }

    #[inline]
    fn push_key(&mut self, key: Key) {
        self.heap.push(std::cmp::Reverse(key));
    }
    #[inline]
    fn pop_key(&mut self) -> Option<Key> {
        self.heap.pop().map(|k| k.0)
    }

    /// The sequence number of the event popped last (the one a model is handling): with its
    /// time, its place in the order of events. Before the first pop, 0.
    ///
    /// ```
    /// use sim_core::{EventQueue, SimTime};
    /// let mut q = EventQueue::new();
    /// let early = q.reserve();
    /// q.schedule(SimTime(5), "b");
    /// q.schedule_reserved(early, SimTime(5), "a");
    /// q.pop();
    /// assert_eq!(q.current(), early);
    /// q.pop();
    /// assert!(q.current() > early);
    /// ```
    #[inline]
    pub fn current(&self) -> Seq {
        Seq(self.current)
    }

    /// The number of pending events.
    pub fn len(&self) -> usize {
        self.pending
    }
    /// True if no event is pending.
    pub fn is_empty(&self) -> bool {
        self.pending == 0
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Drains the queue.
    fn drain<E>(q: &mut EventQueue<E>) -> Vec<(SimTime, E)> {
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn events_come_out_by_time_then_by_scheduling_order() {
        let mut q = EventQueue::new();
        for (t, e) in [
            (30, "c1"),
            (10, "a1"),
            (20, "b1"),
            (10, "a2"),
            (30, "c2"),
            (10, "a3"),
        ] {
            q.schedule(SimTime(t), e);
        }
        assert_eq!(q.len(), 6);
        assert_eq!(q.peek_time(), Some(SimTime(10)));
        let order: Vec<_> = drain(&mut q).into_iter().map(|(_, e)| e).collect();
        assert_eq!(order, ["a1", "a2", "a3", "b1", "c1", "c2"]);
        assert!(q.is_empty());
        assert_eq!(q.peek_time(), None);
        assert_eq!(q.scheduled_total(), 6);
    }

    /// Against a plain list kept in (time, sequence) order: random schedules, reservations,
    /// moves (earlier, later, to the same time, twice), cancellations (pending, cancelled or
    /// popped events) and pops interleaved give the same answers and the same events, and
    /// `len` and `peek_time` agree after every call.
    #[test]
    fn every_call_answers_as_a_sorted_list_would() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..20 {
            let mut q = EventQueue::new();
            // The reference: (time, seq, payload) of every pending event.
            let mut list: Vec<(SimTime, u64, u32)> = Vec::new();
            let mut ids: Vec<EventId> = Vec::new();
            let mut reserved: Vec<Seq> = Vec::new();
            for i in 0..3_000u32 {
                match next() % 10 {
                    0..=3 => {
                        let t = SimTime(next() % (5 + round));
                        let id = q.schedule(t, i);
                        list.push((t, id.seq, i));
                        ids.push(id);
                    }
                    4 => reserved.push(q.reserve()),
                    5 if !reserved.is_empty() => {
                        let seq = reserved.swap_remove((next() % reserved.len() as u64) as usize);
                        let t = SimTime(next() % (5 + round));
                        let id = q.schedule_reserved(seq, t, i);
                        list.push((t, id.seq, i));
                        ids.push(id);
                    }
                    6 if !ids.is_empty() => {
                        let id = ids[(next() % ids.len() as u64) as usize];
                        let t = SimTime(next() % (5 + round));
                        let at = list.iter().position(|e| e.1 == id.seq);
                        if let Some(k) = at {
                            list[k].0 = t;
                        }
                        assert_eq!(q.reschedule(id, t), at.is_some());
                    }
                    7 if !ids.is_empty() => {
                        let id = ids[(next() % ids.len() as u64) as usize];
                        let at = list.iter().position(|e| e.1 == id.seq);
                        let expected = at.map(|k| list.remove(k).2);
                        assert_eq!(q.cancel(id), expected);
                    }
                    _ => {
                        list.sort();
                        let expected = (!list.is_empty()).then(|| list.remove(0));
                        assert_eq!(q.pop(), expected.map(|(t, _, e)| (t, e)));
                    }
                }
                list.sort();
                assert_eq!(q.len(), list.len());
                assert_eq!(q.peek_time(), list.first().map(|e| e.0));
            }
            list.sort();
            let rest: Vec<(SimTime, u32)> = list.iter().map(|&(t, _, e)| (t, e)).collect();
            assert_eq!(drain(&mut q), rest);
        }
    }

    #[test]
    fn the_same_schedule_gives_the_same_order() {
        // A pseudo-random schedule with many equal times, with cancellations and moves mixed in,
        // applied to two queues: they must give the same sequence, which must be sorted by time
        // and, among equal times, by when each event took its place.
        fn play() -> Vec<(SimTime, u32)> {
            let mut q = EventQueue::new();
            let mut x = 0x2545_f491_4f6c_dd1du64;
            let mut ids = Vec::new();
            for i in 0..2_000u32 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ids.push(q.schedule(SimTime(x % 50), i));
                if i % 7 == 3 {
                    q.cancel(ids[(x % ids.len() as u64) as usize]);
                }
                if i % 11 == 5 {
                    q.reschedule(ids[(x % ids.len() as u64) as usize], SimTime(x % 13));
                }
            }
            drain(&mut q)
        }
        let (a, b) = (play(), play());
        assert_eq!(a, b);
        assert!(a.len() > 1_500);
        // Events are numbered in scheduling order, and a move keeps the number's place.
        assert!(a
            .windows(2)
            .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }

    #[test]
    fn a_reserved_place_is_kept_whenever_the_event_is_scheduled() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(5), "before");
        let early = q.reserve();
        q.schedule(SimTime(5), "after");
        q.schedule(SimTime(4), "earlier time");
        q.schedule_reserved(early, SimTime(5), "reserved");
        let order: Vec<_> = drain(&mut q).into_iter().map(|(_, e)| e).collect();
        assert_eq!(order, ["earlier time", "before", "reserved", "after"]);
        // A reservation takes a sequence number like a scheduled event.
        assert_eq!(q.scheduled_total(), 4);
    }

    #[test]
    fn reschedule_moves_an_event_and_keeps_its_place_among_equal_times() {
        let mut q = EventQueue::new();
        let first = q.schedule(SimTime(100), 'x');
        q.schedule(SimTime(7), 'y');
        q.schedule(SimTime(7), 'z');
        assert!(q.reschedule(first, SimTime(7)));
        // Scheduled first, so it comes first among events at 7.
        assert_eq!(
            drain(&mut q),
            [(SimTime(7), 'x'), (SimTime(7), 'y'), (SimTime(7), 'z')]
        );
        // Gone: no longer pending.
        assert!(!q.reschedule(first, SimTime(1)));
        // Moving later works too.
        let a = q.schedule(SimTime(1), 'a');
        q.schedule(SimTime(2), 'b');
        q.reschedule(a, SimTime(3));
        assert_eq!(drain(&mut q), [(SimTime(2), 'b'), (SimTime(3), 'a')]);
    }

    #[test]
    fn cancel_removes_a_pending_event_once() {
        let mut q = EventQueue::new();
        let a = q.schedule(SimTime(1), "a");
        let b = q.schedule(SimTime(2), "b");
        assert_eq!(q.cancel(a), Some("a"));
        assert_eq!(q.cancel(a), None);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop(), Some((SimTime(2), "b")));
        assert_eq!(q.cancel(b), None, "a popped event is no longer pending");
        assert_eq!(q.scheduled_total(), 2);
    }

    /// Each event schedules its successor `gap` later until `left` runs out; stops when told.
    struct Chain {
        left: u32,
        gap: u64,
        seen: Vec<(SimTime, u32)>,
        stop_at: Option<u32>,
    }
    impl Model for Chain {
        type Event = u32;
        fn handle(&mut self, now: SimTime, e: u32, q: &mut EventQueue<u32>) {
            self.seen.push((now, e));
            if self.left > 0 {
                self.left -= 1;
                q.schedule(now + SimTime(self.gap), e + 1);
            }
        }
        fn stopped(&self) -> bool {
            self.stop_at.is_some_and(|n| self.seen.len() as u32 >= n)
        }
    }

    #[test]
    fn run_hands_every_event_over_in_order_and_returns_the_last_time() {
        let mut m = Chain {
            left: 4,
            gap: 10,
            seen: vec![],
            stop_at: None,
        };
        let mut q = EventQueue::new();
        q.schedule(SimTime(3), 0);
        assert_eq!(run(&mut m, &mut q), (SimTime(43), 5));
        let times: Vec<_> = m.seen.iter().map(|s| s.0).collect();
        assert_eq!(times, [3, 13, 23, 33, 43].map(SimTime));
    }

    #[test]
    fn run_stops_when_the_model_says_so() {
        let mut m = Chain {
            left: 100,
            gap: 1,
            seen: vec![],
            stop_at: Some(3),
        };
        let mut q = EventQueue::new();
        q.schedule(SimTime::ZERO, 0);
        assert_eq!(run(&mut m, &mut q), (SimTime(2), 3));
        assert_eq!(q.len(), 1, "the next event stays queued");
    }

    #[test]
    fn run_with_nothing_queued_ends_at_zero() {
        let mut m = Chain {
            left: 0,
            gap: 0,
            seen: vec![],
            stop_at: None,
        };
        assert_eq!(run(&mut m, &mut EventQueue::new()), (SimTime::ZERO, 0));
    }

    #[test]
    #[should_panic(expected = "event scheduled in the past")]
    fn run_refuses_an_event_in_the_past() {
        struct Back;
        impl Model for Back {
            type Event = ();
            fn handle(&mut self, now: SimTime, _: (), q: &mut EventQueue<()>) {
                if now == SimTime(10) {
                    q.schedule(SimTime(9), ());
                }
            }
        }
        let mut q = EventQueue::new();
        q.schedule(SimTime(10), ());
        run(&mut Back, &mut q);
    }
}
