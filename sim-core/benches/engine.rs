//! Engine ping-pong: raw throughput of gtsim's event queue and run loop.
//!
//! Pairs of processes exchange messages over links with a constant 1 ms delay. Each message is
//! one event (its delivery); the handler schedules the reply to the partner 1 ms later. All pairs
//! start at time 0, and 2,000,000 messages are delivered in all, for 1, 100 and 10,000 pairs (so
//! each pair bounces 2,000,000 / pairs messages). The queue therefore holds as many pending
//! events as there are pairs.
//!
//! Reported as events per second (criterion's throughput), plus one plain line per case from a
//! single timed run outside criterion's loop:
//!
//! ```text
//! cargo bench -p sim-core --bench engine
//! ```

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../examples/ping_pong/mod.rs"]
mod ping_pong;
use ping_pong::{ping_pong, MESSAGES};

const CASES: [u32; 3] = [1, 100, 10_000];

fn engine(c: &mut Criterion) {
    // Plain figures first, from one timed run per case (after one warm-up run).
    for pairs in CASES {
        black_box(ping_pong(pairs));
        let start = Instant::now();
        let events = ping_pong(pairs);
        let secs = start.elapsed().as_secs_f64();
        assert_eq!(events, MESSAGES);
        println!(
            "engine ping-pong, {pairs} pairs: {events} events in {secs:.2} s = {:.1} M events/s",
            events as f64 / secs / 1e6
        );
    }

    let mut group = c.benchmark_group("engine ping-pong");
    group
        .throughput(Throughput::Elements(MESSAGES))
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for pairs in CASES {
        group.bench_function(format!("{pairs} pairs"), |b| {
            b.iter(|| ping_pong(black_box(pairs)))
        });
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
