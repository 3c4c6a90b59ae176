//! Parabelle's search (Marsland & Popowich 1985, sections III, VI and VIII): principal variation
//! splitting (`pmws`) with progressive deepening, the refutation table and, optionally, a
//! transposition table, global (held by the master, reached by at-node messages) or local (one
//! per processor).
//!
//! STUB: the types are final; the roles are still plain pmws until the table search lands.

use crate::pmws::{pmws_roles, Pmws, PmwsConfig};
use crate::tree::{GameTree, Value};
use serde::{Deserialize, Serialize};

/// Where the transposition table lives (section VIII-B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TableKind {
    /// No transposition table.
    #[default]
    None,
    /// One table held by the master; a child probes it with a 6-byte at-node message before
    /// searching a node, waits (`wait_reply`) for the 6-byte answer, and sends a 12-byte update
    /// after.
    Global,
    /// One table per processor: the master's full size, each child's half of it.
    Local,
}

/// Which subtrees a transposition table stores and probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Storage {
    /// Every subtree.
    #[default]
    All,
    /// Only subtrees longer than 2 ply, probed only more than 2 ply from the horizon.
    Partial,
}

/// A transposition table's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// None, global or local.
    pub kind: TableKind,
    /// All or partial storage.
    pub storage: Storage,
    /// Entries of the full-size table (the global table, and the master's local one): 8192 in
    /// the paper. Children's local tables have half as many.
    pub entries: u32,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig {
            kind: TableKind::None,
            storage: Storage::All,
            entries: 8192,
        }
    }
}

/// Options of a Parabelle search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParabelleConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Iterate from depth 1 to d (the refutation table needs it).
    pub progressive: bool,
    /// The transposition table.
    pub table: TableConfig,
}

/// Counters of a run's transposition-table use, summed over processors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounts {
    /// Probes made (local or global).
    pub probes: u64,
    /// Probes that found an entry for the position.
    pub hits: u64,
    /// Hits whose entry ended the node's search (a cutoff or an exact value).
    pub cutoffs: u64,
    /// Entries stored.
    pub stores: u64,
}

/// Parabelle as a [`crate::Scheme`] on a processor tree of depth 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParabelleScheme(pub ParabelleConfig);

impl ParabelleScheme {
    /// The algorithm's name in results: `parabelle`, or `parabelle_global_all`,
    /// `parabelle_local_partial`, ….
    pub fn name_of(config: &ParabelleConfig) -> String {
        let table = match config.table.kind {
            TableKind::None => return "parabelle".into(),
            TableKind::Global => "global",
            TableKind::Local => "local",
        };
        let storage = match config.table.storage {
            Storage::All => "all",
            Storage::Partial => "partial",
        };
        format!("parabelle_{table}_{storage}")
    }
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for ParabelleScheme {
    type Role = Pmws<'t, T>;
    fn name(&self) -> String {
        Self::name_of(&self.0)
    }
    fn deploy(
        &self,
        tree: &'t T,
        ptree: &sim_hw::ProcessorTree,
    ) -> Result<Vec<Self::Role>, String> {
        if ptree.depth() > 1 {
            return Err(format!(
                "parabelle runs on a processor tree of depth 1 (a master and its children), not depth {}",
                ptree.depth()
            ));
        }
        if self.0.depth == 0 {
            return Err("parabelle needs a search depth of at least 1".into());
        }
        Ok(pmws_roles(
            tree,
            ptree.len(),
            PmwsConfig {
                depth: self.0.depth,
                progressive: self.0.progressive,
            },
        ))
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(|r| r.root_value())
    }
    fn root_move(&self, _roles: &[Self::Role]) -> Option<usize> {
        None
    }
    fn table_counts(&self, _roles: &[Self::Role]) -> Option<TableCounts> {
        (self.0.table.kind != TableKind::None).then(TableCounts::default)
    }
}
