//! The engine ping-pong workload, shared by `benches/engine.rs` (criterion) and
//! `examples/pingpong.rs` (a quick timed run): pairs of processes bounce messages over links
//! with a constant 1 ms delay, one event per message.

use sim_core::{run, EventQueue, Model, SimTime};
use std::hint::black_box;

/// Messages delivered per run, whatever the number of pairs.
pub const MESSAGES: u64 = 2_000_000;
/// The constant link delay.
pub const DELAY: SimTime = SimTime::from_millis(1);

/// Processes `2p` and `2p + 1` form pair `p`; an event is the id of the receiving process.
struct PingPong {
    /// Messages each pair still has to send.
    left: Vec<u64>,
}

impl Model for PingPong {
    type Event = u32;
    fn handle(&mut self, now: SimTime, to: u32, q: &mut EventQueue<u32>) {
        let left = &mut self.left[(to >> 1) as usize];
        if *left > 0 {
            *left -= 1;
            q.schedule(now + DELAY, to ^ 1);
        }
    }
}

/// One complete run: returns the number of events handled (always `MESSAGES`).
pub fn ping_pong(pairs: u32) -> u64 {
    let per_pair = MESSAGES / pairs as u64;
    assert_eq!(
        per_pair * pairs as u64,
        MESSAGES,
        "pairs must divide MESSAGES"
    );
    // The first message of each pair is scheduled here; the handlers send the rest.
    let mut model = PingPong {
        left: vec![per_pair - 1; pairs as usize],
    };
    let mut q = EventQueue::new();
    for p in 0..pairs {
        q.schedule(SimTime::ZERO, 2 * p);
    }
    let (end, events) = run(&mut model, &mut q);
    debug_assert_eq!(end, SimTime(DELAY.0 * (per_pair - 1)));
    black_box(end);
    events
}
