//! # sim-core: the engine of gtsim
//!
//! Owns three things and nothing else:
//!
//! - **simulated time** ([`SimTime`]): integer nanoseconds, never floats;
//! - **the global event queue** ([`EventQueue`]) ordered by (time, sequence number), and the run
//!   loop ([`run`]) that hands each event to a [`Model`]; a run is therefore a pure function of
//!   its inputs;
//! - **time accounting** ([`TimeAccount`]): each processor is always in exactly one [`Category`]
//!   (search, message, interrupt, wait_reply, idle_sync), so its category times add up to the
//!   makespan by construction; and the statistics a run produces ([`RunStats`]).
//!
//! Hardware (processors, links) lives in `sim-hw`, algorithms in `algorithms`; both speak to the
//! engine only through [`Model`] and [`EventQueue`].
//!
//! ```
//! use sim_core::{run, EventQueue, Model, SimTime};
//!
//! /// Two processes bouncing a message over a 1 ms link, ten times.
//! struct PingPong { left: u32 }
//! impl Model for PingPong {
//!     type Event = u8; // which side receives
//!     fn handle(&mut self, now: SimTime, side: u8, q: &mut EventQueue<u8>) {
//!         if self.left > 0 {
//!             self.left -= 1;
//!             q.schedule(now + SimTime::from_millis(1), 1 - side);
//!         }
//!     }
//! }
//! let mut q = EventQueue::new();
//! q.schedule(SimTime::ZERO, 0);
//! let (end, events) = run(&mut PingPong { left: 10 }, &mut q);
//! assert_eq!(end, SimTime::from_millis(10));
//! assert_eq!(events, 11);
//! ```

#![warn(missing_docs)]

mod account;
mod queue;
pub mod stats;
mod time;

pub use account::{Category, CategoryTimes, Interval, TimeAccount};
pub use queue::{run, EventId, EventQueue, Model, Seq};
pub use stats::{
    Marker, MemoryCounts, MessageRecord, MsgCounts, MsgKind, NodeCounts, ProcStats, RunStats,
};
pub use time::{ProcId, SimTime};
