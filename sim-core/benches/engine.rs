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
//! CARGO_TARGET_DIR=/work/target-bench cargo bench -p sim-core --bench engine
//! ```

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sim_core::{run, EventQueue, Model, SimTime};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Messages delivered per run, whatever the number of pairs.
const MESSAGES: u64 = 2_000_000;
/// The constant link delay.
const DELAY: SimTime = SimTime::from_millis(1);

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
fn ping_pong(pairs: u32) -> u64 {
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
