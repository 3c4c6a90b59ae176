//! ABDADA (`abdada`; Weill 1996, "The ABDADA distributed minimax search algorithm"): every
//! processor searches the root with iterative deepening, and the shared transposition table
//! counts, for each position, the processors searching it now, so that they spread over the
//! tree instead of searching the same nodes.
//!
//! **Roles.** Every processor runs the same search ([`crate::schemes::tt_search`]): iterative
//! deepening 1 to d of fail-soft alpha-beta, each processor every depth (or depth d alone,
//! [`AbdadaConfig::iterative`] off). Before expanding an
//! interior node it probes the table with a read-modify-write (`Cx::write` of the bucket's cache
//! line): an entry that settles the node ends its search; otherwise, if the probe is
//! *exclusive* and another processor is searching the node, the node is deferred ("on
//! evaluation", for the probe's cost alone); otherwise the processor counts itself in the
//! entry's searchers (an entry is made for the count if there is none). A node's first move is
//! searched at once (not exclusively); its other moves exclusively, in a first pass; a second
//! pass searches the moves deferred in the first, not exclusively (by then the table often holds
//! their values). When a node closes, one write stores its value and counts the processor out.
//!
//! **Result.** Processor 0's root value and move at depth d. When processor 0 has finished, a
//! stop flag in shared memory stops the others (as in [`crate::lazy_smp`]).
//!
//! **Without values** ([`AbdadaConfig::values`] false: what "without a table" means for
//! ABDADA). The searcher counts are ABDADA's coordination and still live in the shared table,
//! probed and written as above at the same costs, but no value or best move is stored or used:
//! no node is settled by the table, a deferred move is searched in full in the second pass, and
//! the root value is always the table-free search's.

use crate::lazy_smp::{check, table_figures};
use crate::schemes::scheme::{DeployError, Figures};
use crate::schemes::shared_table::SharedTableConfig;
use crate::schemes::tt_search::{Mode, Shared, TtRole};
use crate::trees::{GameTree, Value};
use sim_hw::Platform;

/// The options of [`Abdada`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbdadaConfig {
    /// Search depth d (at least 1).
    pub depth: u32,
    /// Iterative deepening 1 to d, every processor every depth (false: depth d alone).
    pub iterative: bool,
    /// The shared table (it holds the searcher counts either way).
    pub table: SharedTableConfig,
    /// Entries hold values that settle nodes (false: only the searcher counts).
    pub values: bool,
}

/// ABDADA on a pool of processors with shared memory.
#[derive(Clone, Copy, Debug)]
pub struct Abdada(pub AbdadaConfig);

fn depths(c: AbdadaConfig) -> Vec<u32> {
    if c.iterative {
        (1..=c.depth).collect()
    } else {
        vec![c.depth]
    }
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for Abdada {
    type Role = TtRole<'t, T>;
    fn name(&self) -> String {
        "abdada".into()
    }
    fn deploy_on(&self, tree: &'t T, platform: &Platform) -> Result<Vec<Self::Role>, DeployError> {
        let c = self.0;
        check("abdada", c.depth, Some(c.table), platform)?;
        let shared = Shared::new(Some(c.table));
        let mode = Mode::Abdada { values: c.values };
        Ok((0..platform.len())
            .map(|p| TtRole::new(tree, mode, depths(c), shared.clone(), p == 0))
            .collect())
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        let main = roles.first().filter(|r| r.finished())?;
        main.last().map(|r| r.value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<sim_core::SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    fn root_move(&self, roles: &[Self::Role]) -> Option<usize> {
        let main = roles.first().filter(|r| r.finished())?;
        main.last().and_then(|r| r.best).map(|m| m as usize)
    }
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        let deferred = roles.iter().map(|r| r.deferrals()).sum();
        table_figures(roles, roles.first().and_then(|r| r.shared().counts()))
            .with("abdada_deferred", deferred)
    }
}
