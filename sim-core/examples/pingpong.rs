//! The engine ping-pong of `benches/engine.rs` as one timed run per case, without criterion:
//! `cargo run --release -p sim-core --example pingpong` prints million events per second for
//! 1, 100 and 10,000 pairs (a quick check of the event queue's speed; the bench is the record).

use sim_core::{run, EventQueue, Model, SimTime};
use std::time::Instant;

const MESSAGES: u64 = 2_000_000;
const DELAY: SimTime = SimTime::from_millis(1);

struct PingPong {
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

fn main() {
    for pairs in [1u32, 100, 10_000] {
        let per_pair = MESSAGES / pairs as u64;
        let mut best = f64::MAX;
        for _ in 0..3 {
            let mut model = PingPong {
                left: vec![per_pair - 1; pairs as usize],
            };
            let mut q = EventQueue::new();
            for p in 0..pairs {
                q.schedule(SimTime::ZERO, 2 * p);
            }
            let t = Instant::now();
            let (_, events) = run(&mut model, &mut q);
            assert_eq!(events, MESSAGES);
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{pairs:>6} pairs: {:.1} M events/s (best of 3)",
            MESSAGES as f64 / best / 1e6
        );
    }
}
