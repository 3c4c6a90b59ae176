//! The global event queue: events ordered by (time, sequence number).

use crate::SimTime;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A sequence number taken in advance (see [`EventQueue::reserve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seq(u64);

/// Names a scheduled event so that it can be moved or cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventId(u64);

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
///
/// Inside, a binary heap of (time, sequence number) keys beside a map from each pending event's
/// sequence number to its time and payload. Cancelling or moving an event changes the map only
/// (moving also pushes a key at the new time); a key that no longer matches its event's entry
/// is stale and is dropped when it reaches the top, which the queue keeps valid after every
/// call. The heap never reorders payloads, which is what made the indexed `priority-queue`
/// crate's keyed heap 2-3 times slower per event.
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<(SimTime, u64)>>,
    pending: HashMap<u64, (SimTime, E), BuildHasherDefault<SeqHasher>>,
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
            heap: BinaryHeap::new(),
            pending: HashMap::default(),
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
        let old = self.pending.insert(seq.0, (at, event));
        debug_assert!(old.is_none(), "sequence number {} used twice", seq.0);
        self.heap.push(Reverse((at, seq.0)));
        EventId(seq.0)
    }

    /// Moves a pending event to a new time, keeping its place among events at that time.
    /// Returns false if the event is no longer pending.
    pub fn reschedule(&mut self, id: EventId, at: SimTime) -> bool {
        let Some(entry) = self.pending.get_mut(&id.0) else {
            return false;
        };
        entry.0 = at;
        self.heap.push(Reverse((at, id.0)));
        self.settle();
        true
    }

    /// Removes a pending event; returns it if it was still pending.
    pub fn cancel(&mut self, id: EventId) -> Option<E> {
        let (_, event) = self.pending.remove(&id.0)?;
        self.settle();
        Some(event)
    }

    /// The time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse((t, _))| *t)
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let Reverse((t, seq)) = self.heap.pop()?;
        let (at, event) = self
            .pending
            .remove(&seq)
            .expect("the top key is its event's (settled)");
        debug_assert_eq!(at, t);
        self.settle();
        Some((t, event))
    }

    /// Drops stale keys from the top of the heap (those of cancelled events, and of moved
    /// events at their former times), so that the top is the earliest pending event's.
    fn settle(&mut self) {
        while let Some(&Reverse((t, seq))) = self.heap.peek() {
            if self.pending.get(&seq).is_some_and(|e| e.0 == t) {
                return;
            }
            self.heap.pop();
        }
    }

    /// The number of pending events.
    pub fn len(&self) -> usize {
        self.pending.len()
    }
    /// True if no event is pending.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
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
                        list.push((t, id.0, i));
                        ids.push(id);
                    }
                    4 => reserved.push(q.reserve()),
                    5 if !reserved.is_empty() => {
                        let seq = reserved.swap_remove((next() % reserved.len() as u64) as usize);
                        let t = SimTime(next() % (5 + round));
                        let id = q.schedule_reserved(seq, t, i);
                        list.push((t, id.0, i));
                        ids.push(id);
                    }
                    6 if !ids.is_empty() => {
                        let id = ids[(next() % ids.len() as u64) as usize];
                        let t = SimTime(next() % (5 + round));
                        let at = list.iter().position(|e| e.1 == id.0);
                        if let Some(k) = at {
                            list[k].0 = t;
                        }
                        assert_eq!(q.reschedule(id, t), at.is_some());
                    }
                    7 if !ids.is_empty() => {
                        let id = ids[(next() % ids.len() as u64) as usize];
                        let at = list.iter().position(|e| e.1 == id.0);
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
