//! The engine ping-pong of `sim-core/benches/engine.rs` on gtsim's engine and on the `simcore`
//! crate (the event core of DSLab), side by side in one run:
//!
//! ```text
//! cd benches/simcore-compare && cargo run --release            # best of 5 per case
//! cd benches/simcore-compare && cargo run --release -- 9       # best of 9
//! ```
//!
//! Pairs of processes bounce messages over links with a constant 1 ms delay; each message is one
//! event (its delivery), whose handler sends the reply to the partner 1 ms later. 2,000,000
//! messages in all, for 1, 100 and 10,000 pairs, every pair starting at time 0. gtsim's side is
//! the bench's own module (`sim-core/examples/ping_pong/mod.rs`). simcore's side is the same
//! workload in simcore's idiom: one component per process with its `SimulationContext`, an empty
//! event payload, `emit` (the general event heap) with the delay in seconds, and
//! `step_until_no_events`. Each pair's message budget is shared by its two components, as gtsim's
//! model keeps one per pair. The two engines run in turn, case by case, and each figure is the
//! best of N timed runs after one warm-up run of each.

#[path = "../../../sim-core/examples/ping_pong/mod.rs"]
mod ping_pong;

use ping_pong::{ping_pong, DELAY, MESSAGES};
use serde::Serialize;
use simcore::{Event, EventHandler, Id, Simulation, SimulationContext};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Instant;

const CASES: [u32; 3] = [1, 100, 10_000];

/// The message: no payload (gtsim's event is the receiver's number, which simcore's event
/// carries as its destination).
#[derive(Clone, Serialize)]
struct Ball;

/// One process of a pair.
struct Player {
    ctx: SimulationContext,
    partner: Id,
    /// The pair's messages still to send, shared with the partner.
    left: Rc<Cell<u64>>,
    delay: f64,
}

impl EventHandler for Player {
    fn on(&mut self, _event: Event) {
        let left = self.left.get();
        if left > 0 {
            self.left.set(left - 1);
            self.ctx.emit(Ball, self.partner, self.delay);
        }
    }
}

/// One complete run on simcore: returns the number of events (always `MESSAGES`).
fn simcore_ping_pong(pairs: u32) -> u64 {
    let per_pair = MESSAGES / pairs as u64;
    assert_eq!(
        per_pair * pairs as u64,
        MESSAGES,
        "pairs must divide MESSAGES"
    );
    let delay = DELAY.as_nanos() as f64 * 1e-9;
    let mut sim = Simulation::new(1);
    for p in 0..pairs {
        let left = Rc::new(Cell::new(per_pair - 1));
        let (a, b) = (format!("{}", 2 * p), format!("{}", 2 * p + 1));
        let ctx_a = sim.create_context(&a);
        let ctx_b = sim.create_context(&b);
        let (id_a, id_b) = (ctx_a.id(), ctx_b.id());
        // The first message of each pair goes to its first process at time 0.
        ctx_b.emit(Ball, id_a, 0.0);
        let player = |ctx, partner| {
            Rc::new(RefCell::new(Player {
                ctx,
                partner,
                left: left.clone(),
                delay,
            }))
        };
        sim.add_handler(&a, player(ctx_a, id_b));
        sim.add_handler(&b, player(ctx_b, id_a));
    }
    sim.step_until_no_events();
    let expected = delay * (per_pair - 1) as f64;
    assert!(
        (sim.time() - expected).abs() < 1e-6,
        "simcore ended at {}",
        sim.time()
    );
    sim.event_count()
}

/// Seconds of one run of `f`, checking it handled every message.
fn timed(f: impl Fn() -> u64) -> f64 {
    let start = Instant::now();
    assert_eq!(f(), MESSAGES);
    start.elapsed().as_secs_f64()
}

/// Million events per second on gtsim and on simcore for `pairs` pairs: the best of `runs`
/// timed runs each, the two engines taking turns (after one warm-up run of each).
fn rates(pairs: u32, runs: usize) -> (f64, f64) {
    timed(|| ping_pong(pairs));
    timed(|| simcore_ping_pong(pairs));
    let (mut gtsim, mut simcore) = (f64::MAX, f64::MAX);
    for _ in 0..runs {
        gtsim = gtsim.min(timed(|| ping_pong(pairs)));
        simcore = simcore.min(timed(|| simcore_ping_pong(pairs)));
    }
    let m = MESSAGES as f64 / 1e6;
    (m / gtsim, m / simcore)
}

const USAGE: &str =
    "usage: simcore-compare [RUNS]   (RUNS: timed runs per case, at least 1; 5 if left out)";

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = match args.as_slice() {
        [] => 5,
        [n] if n == "-h" || n == "--help" => {
            println!("{USAGE}");
            return std::process::ExitCode::SUCCESS;
        }
        [n] => match n.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("simcore-compare: {n:?} is not a number of runs (at least 1)\n{USAGE}");
                return std::process::ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("simcore-compare: one argument at most\n{USAGE}");
            return std::process::ExitCode::from(2);
        }
    };
    println!("engine ping-pong, {MESSAGES} events per run, M events/s, best of {runs}");
    println!("| pairs  | gtsim | simcore | gtsim / simcore |");
    println!("|-------:|------:|--------:|----------------:|");
    for pairs in CASES {
        let (gtsim, simcore) = rates(pairs, runs);
        println!(
            "| {pairs:>6} | {gtsim:>5.1} | {simcore:>7.1} | {:>15.2} |",
            gtsim / simcore
        );
    }
    std::process::ExitCode::SUCCESS
}
