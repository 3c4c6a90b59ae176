//! # algorithms: game trees and the searches that run on gtsim's hardware
//!
//! - [`GameTree`]: one trait for every tree source; [`SyntheticTree`] is the weight-based
//!   generator of Reinefeld, Schaeffer and Marsland (orderings random, first-best with p,
//!   geometric, perfect, explicit weights), generated on the fly from a seed;
//! - [`Pvs`]: principal variation search (Fig. 1 of Marsland & Popowich 1985) as a resumable
//!   machine with an explicit stack, charging `k` per interior node and `e` per leaf;
//! - [`pmws`]: principal variation splitting on a processor tree of length 1 (Fig. 4) as
//!   message-passing roles ([`Pmws`]) for `sim_hw::Machine`;
//! - [`model`]: the paper's analytical model, equations (1)–(14).
//!
//! ```
//! use algorithms::*;
//! use sim_hw::{CostModel, LinkSpec, Machine, MachineConfig, ProcessorTree};
//! let spec = SyntheticSpec { width: 6, depth: 4, ordering: Ordering::FirstBest { p: 0.6 },
//!                            value_spread: 1000, horizon_noise: 50 };
//! let tree = SyntheticTree::new(spec, 3).unwrap();
//! let config = MachineConfig::new(ProcessorTree::new(3, 1), CostModel::campbell(), LinkSpec::ideal());
//! let roles = pmws_roles(&tree, 3, PmwsConfig { depth: 4, progressive: true });
//! let (stats, roles) = Machine::new(config, roles)?.run()?;
//! assert_eq!(roles[0].root_value(), Some(negamax(&tree, &tree.root(), 4)));
//! assert!(stats.total_nodes().leaves > 0);
//! # Ok::<(), sim_hw::MachineError>(())
//! ```

pub mod model;
pub mod pmws;
mod pvs;
pub mod rng;
pub mod scheme;
pub mod synthetic;
mod tree;

pub use pmws::{pmws_roles, Pmws, PmwsConfig, PmwsMsg, PmwsScheme};
pub use pvs::{child_pvs, pvs_recursive, Progress, Pvs};
pub use scheme::{run_scheme, Scheme, SchemeError, SchemeRun};
pub use synthetic::{Ordering, SynNode, SyntheticSpec, SyntheticTree};
pub use tree::{negamax, GameTree, Value, INF};
