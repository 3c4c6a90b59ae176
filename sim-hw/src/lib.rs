//! # sim-hw: the hardware of gtsim
//!
//! The platform half of a simulation (SimGrid's split): what the machine is, not what it runs.
//!
//! - [`ProcessorTree`]: processors arranged as in the paper's Fig. 2, as a petgraph graph;
//! - [`CostModel`]: what a step costs (k, e, s, interrupt handler);
//! - [`Network`]: the interconnect that carries [`Message`]s between processors over media
//!   ([`LinkSpec`] lines, serial or ideal, full duplex, a FIFO per direction, RTS/CTS; a shared
//!   [`BusSpec`] bus), with [`Network::tree`] building a processor tree's lines and
//!   [`Network::pool`] a [`PoolNetwork`] (lines between every pair, hypercube, mesh or torus
//!   with store-and-forward routes, bus);
//! - [`Platform`]: a processor tree or a pool of processors over a network, what a
//!   [`MachineConfig`] runs on;
//! - [`SerialInterface`]: the master's 8-port SCI, and [`SerialInterface::check`], the rule that a
//!   host has at most as many lines as ports;
//! - [`MemorySpec`]: a shared memory (read and write latency, banks, NUMA) and [`Jitter`], seeded
//!   noise on step costs;
//! - [`Machine`]: processors running one [`Program`] each, driven by sim-core's event queue, their
//!   messages carried by a [`Network`], with every processor's time accounted by category.
//!
//! ```
//! use sim_core::{MsgKind, ProcId, SimTime};
//! use sim_hw::*;
//!
//! /// The master sends one 4-byte message; the child computes 1 ms on it.
//! #[derive(Clone)] struct Ping;
//! impl Message for Ping { fn kind(&self) -> MsgKind { MsgKind::InterNode } fn bytes(&self) -> u64 { 4 } }
//! struct Role;
//! impl Program for Role {
//!     type Msg = Ping; type Out = (); type Search = NoSearch<()>;
//!     fn start(&mut self, cx: &mut Cx<Self>) { if cx.me() == ProcId(0) { cx.send(ProcId(1), Ping) } }
//!     fn on_message(&mut self, _: ProcId, _: Ping, cx: &mut Cx<Self>) {
//!         cx.compute(Work { time: SimTime::from_millis(1), ..Default::default() }, ());
//!     }
//!     fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
//! }
//! let costs = CostModel { s: SimTime::from_millis(2), ..CostModel::campbell() };
//! let config = MachineConfig::new(ProcessorTree::new(2, 1), costs, LinkSpec::serial(960, false));
//! let (stats, _) = Machine::new(config, vec![Role, Role])?.run()?;
//! // setup 2 ms + 4 bytes at 960 bytes/s + 1 ms of work
//! assert_eq!(stats.makespan, SimTime(2_000_000 + 4_166_667 + 1_000_000));
//! # Ok::<(), MachineError>(())
//! ```

#![warn(missing_docs)]

mod cost;
mod machine;
mod memory;
pub mod network;
mod search;
mod topology;

pub use cost::{cycles, CostModel};
pub use machine::{
    Cx, HwEvent, Machine, MachineConfig, MachineError, Program, ReadPolicies, ReadPolicy, Work,
};
pub use memory::{Jitter, MemorySpec, Numa};
pub use network::{
    Arrival, Broadcast, BusSpec, ChannelId, Delivery, Forwarding, LinkKind, LinkSpec, Medium,
    Message, Network, NetworkError, PoolError, PoolNetwork, PortsExceeded, Route, Routing, SciSpec,
    SerialInterface, Transit,
};
pub use search::{run_alone, NoSearch, Search, Step, Tally};
pub use topology::{Platform, ProcessorTree, Shape};
