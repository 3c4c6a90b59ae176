//! # algorithms: game trees and the searches that run on gtsim's hardware
//!
//! - [`GameTree`]: one trait for every tree source, shaped for chess (moves generated once per
//!   node and kept by the search, copy-make [`GameTree::play`], an evaluation that reports its
//!   quiescence nodes, a hash key); [`SyntheticTree`] is the weight-based generator of
//!   Reinefeld, Schaeffer and Marsland (orderings random, first-best with p, geometric, perfect,
//!   explicit weights), generated on the fly from a seed;
//! - [`SequentialSearch`]: the sequential searches as resumable machines that a processor
//!   advances step by step (`k` per interior node, `e` per leaf), with window changes
//!   (Campbell's UPDATE) and aborts as operations on a search in progress: [`Pvs`], principal
//!   variation search (Fig. 1 of Marsland & Popowich 1985), and [`AlphaBeta`], fail-soft
//!   alpha-beta; [`pvs_recursive`] and [`alphabeta_recursive`] are their plain references;
//! - [`Scheme`]: how a parallel algorithm deploys its roles onto a processor tree (see the
//!   [`scheme`] module for a complete example of writing one);
//! - [`pmws`]: principal variation splitting on a processor tree of length 1 (Fig. 4) as
//!   message-passing roles ([`Pmws`]) for `sim_hw::Machine`;
//! - [`treesplit`]: tree-splitting (Campbell's thesis Fig. 10) on processor trees of any depth
//!   and width, with the dynamic window update of Fig. 11;
//! - [`baudet`], [`mwf`], [`aphid`]: parallel aspiration search (disjoint windows, one per
//!   processor), Mandatory Work First (the minimal tree in parallel, then the speculative rest)
//!   and APHID (the master's repeated passes over the top plies, slaves deepening their leaves
//!   asynchronously), on a master and its workers;
//! - [`lazy_smp`], [`abdada`]: Lazy SMP and ABDADA, every processor searching the root with
//!   iterative deepening against one transposition table in shared memory
//!   ([`shared_table`]);
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

#![warn(missing_docs)]

pub mod model;
pub mod schemes;
pub mod search;
pub mod trees;

// The modules users name by path, at the crate root as before the folders existed.
pub use schemes::{
    abdada, alone, aphid, baudet, dts, lazy_smp, mwf, parabelle, pmws, pstaged, pvsplit, scheme,
    shared_table, treesplit, ybwc, ybwc_shared,
};
pub use search::sss;
pub use trees::{campbell, rng, synthetic};

pub use abdada::{Abdada, AbdadaConfig};
pub use alone::{full_window, Alone};
pub use aphid::{Aphid, AphidConfig, AphidMsg, AphidRole};
pub use baudet::{Baudet, BaudetConfig, BaudetMsg, BaudetRole};
pub use campbell::{CampbellSpec, CampbellTree};
pub use dts::{Dts, DtsConfig};
pub use lazy_smp::{LazySmp, LazySmpConfig, Skip};
pub use mwf::{Mwf, MwfConfig, MwfMsg, MwfRole};
pub use parabelle::{
    parabelle_roles, ParMsg, Parabelle, ParabelleConfig, ParabelleScheme, Storage, TableConfig,
    TableCounts, TableKind,
};
pub use pmws::{
    pmws_roles, pmws_roles_with, Plain, Pmws, PmwsConfig, PmwsIxScheme, PmwsMsg, PmwsScheme,
};
pub use pstaged::{PStagedSss, PStagedSssConfig, PStagedSssRole, PssMsg};
pub use pvsplit::{NodeType, PvMsg, PvSplit, PvSplitConfig, PvSplitRole};
pub use scheme::{run_scheme, DeployError, Figures, Scheme, SchemeError, SchemeRun};
pub use search::alphabeta::{alphabeta_recursive, AlphaBeta};
pub use search::ins::{ins_recursive, pns_recursive, Ins, Pns};
pub use search::pvs::{child_pvs, pvs_recursive, Pvs};
pub use search::scout::{
    negascout_recursive, palphabeta_recursive, scout_recursive, NegaScout, Palphabeta, Scout,
};
pub use search::sequential::{SequentialSearch, ABORTED};
pub use shared_table::{Replacement, SharedTable, SharedTableConfig, TtCounts, TtEntry};
pub use sss::{Abs, Dual, Sab, Sss, StagedSss};
pub use synthetic::{Ordering, SynMove, SynMoves, SynNode, SyntheticSpec, SyntheticTree};
pub use trees::{negamax, Eval, GameTree, MoveList, Value, INF};
pub use treesplit::{TreeSplit, TreeSplitConfig, TreeSplitRole, TsMsg};
pub use ybwc::{Victim, Ybwc, YbwcConfig, YbwcCounts, YbwcMsg, YbwcRole};
pub use ybwc_shared::{SplitCounts, SplitRole, YbwcShared};
