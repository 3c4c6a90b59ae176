//! The engine ping-pong of `benches/engine.rs` as one timed run per case, without criterion:
//! `cargo run --release -p sim-core --example pingpong` prints million events per second for
//! 1, 100 and 10,000 pairs (a quick check of the event queue's speed; the bench is the record).

mod ping_pong;

use ping_pong::{ping_pong, MESSAGES};
use std::time::Instant;

fn main() {
    for pairs in [1u32, 100, 10_000] {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            assert_eq!(ping_pong(pairs), MESSAGES);
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{pairs:>6} pairs: {:.1} M events/s (best of 3)",
            MESSAGES as f64 / best / 1e6
        );
    }
}
