//! Lazy SMP (`lazy_smp`), as Stockfish ran it from 2015: every processor searches the root
//! with iterative deepening, on its own, and the processors share nothing but the
//! transposition table in shared memory ([`crate::schemes::shared_table`]).
//!
//! **Roles.** Every processor runs the same search ([`crate::schemes::tt_search`]): iterative
//! deepening of fail-soft alpha-beta with the full window, probing the shared table before each
//! interior node (a `Cx::read` of its bucket's cache line) and storing each interior node's
//! result when it closes (a `Cx::write`). What one processor stores another finds: cutoffs and
//! best moves that send it elsewhere in the tree. Threads drift apart through the table and
//! the machine's timing noise (`sim_hw::Jitter`); without either, processors that search the
//! same depths do the same work.
//!
//! **Depths** ([`Skip`]). With [`LazySmpConfig::iterative`] off, every processor searches depth
//! d alone (the plain shared-table search). Otherwise processor 0 searches every depth 1 to d. A helper (processor i > 0)
//! skips depths by Stockfish's rule (Stockfish 7–9, `search.cpp`): with
//! `SkipSize = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]`,
//! `SkipPhase = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7]` and
//! `j = (i − 1) mod 20`, depth k is skipped when `((k + SkipPhase[j]) / SkipSize[j])` is odd
//! (the game ply taken as 0). gtsim never skips the last depth d. A helper that finishes it
//! before processor 0 idles, unless [`LazySmpConfig::deeper`]: then, as Stockfish's helpers,
//! it goes on to depths d + 1, d + 2, … (by the same skip rule, at most [`DEEPER_PLIES`]
//! more) until processor 0 stops it, and what it stores may settle processor 0's nodes with
//! deeper values. [`Skip::None`]: every processor searches every depth.
//!
//! **Exact on synthetic trees.** A synthetic tree ends at its depth (its nodes there have no
//! moves), so a search of it to any depth at or beyond the tree's is the full tree: when d is
//! the tree's depth, every entry deep enough to settle a node of the last iteration holds a
//! bound of the node's exact value, deeper helpers or not. On chess, deeper drafts and
//! transpositions change values: recorded, as Parabelle's.
//!
//! **Result.** Processor 0's root value and move at depth d. When processor 0 has finished
//! depth d it raises a stop flag in shared memory: every other processor's search reads it
//! before each step (searches started with `Cx::search_shared`, so each sees it at the
//! simulated time it is raised) and one waiting for a table access drops its search when the
//! access ends. With [`LazySmpConfig::vote`] (Stockfish 10's voting): among the processors that
//! finished depth d (or deeper), each root move gets `Σ (value − min + 1)` over the processors that chose
//! it (`min`: the least of their values); the most voted move wins (ties: the lower move index)
//! and the value is that of the lowest-numbered processor that chose it. Only iterations of
//! depth d or more vote (so the value stays exact on synthetic trees).
//!
//! Without a table (`table: None`) every processor searches on its own and processor 0's result
//! is plain iterative-deepening alpha-beta's: the parallel machine only adds idle processors.

use crate::schemes::scheme::{DeployError, Figures};
use crate::schemes::shared_table::{SharedTableConfig, TtCounts};
use crate::schemes::tt_search::{Iteration, Mode, Shared, TtRole};
use crate::trees::{GameTree, Value};
use sim_hw::Platform;

/// Which depths a helper searches.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Default,
)]
pub enum Skip {
    /// Stockfish's SkipSize/SkipPhase tables (see the module doc).
    #[default]
    Stockfish,
    /// Every processor searches every depth.
    None,
}

/// How many plies past d a helper may go with [`LazySmpConfig::deeper`] (processor 0 stops it
/// long before on any tree worth searching).
pub const DEEPER_PLIES: u32 = 64;

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

impl Skip {
    /// The depths processor `p` searches in an iterative-deepening search to `depth`, in
    /// order.
    pub fn depths(self, p: usize, depth: u32) -> Vec<u32> {
        (1..=depth)
            .filter(|&k| p == 0 || k == depth || self.keeps(p, k))
            .collect()
    }

    /// Whether helper `p` (> 0) searches depth `k`.
    fn keeps(self, p: usize, k: u32) -> bool {
        let j = (p - 1) % 20;
        self == Skip::None || ((k + SKIP_PHASE[j]) / SKIP_SIZE[j]).is_multiple_of(2)
    }

    /// The depths helper `p` (> 0) searches after `depth` when it goes deeper.
    pub fn deeper(self, p: usize, depth: u32) -> Vec<u32> {
        (depth + 1..=depth + DEEPER_PLIES)
            .filter(|&k| p > 0 && self.keeps(p, k))
            .collect()
    }
}

/// The options of [`LazySmp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LazySmpConfig {
    /// Search depth d (at least 1).
    pub depth: u32,
    /// Iterative deepening 1 to d (false: every processor searches depth d alone, the shared
    /// table's older use before Lazy SMP).
    pub iterative: bool,
    /// The shared table (None: none).
    pub table: Option<SharedTableConfig>,
    /// Which depths helpers search.
    pub skip: Skip,
    /// Helpers that finish depth d go on deeper until processor 0 stops them (Stockfish's).
    pub deeper: bool,
    /// The result by vote of the processors that finished depth d, not processor 0's alone.
    pub vote: bool,
}

/// Lazy SMP on a pool of processors with shared memory.
#[derive(Clone, Copy, Debug)]
pub struct LazySmp(pub LazySmpConfig);

/// Stockfish 10's vote among the processors' results at the last depth (see the module doc).
pub fn vote(results: &[Iteration]) -> Option<Iteration> {
    let min = results.iter().map(|r| r.value).min()?;
    let mut tally: Vec<(Option<u32>, i64)> = Vec::new();
    for r in results {
        let w = (r.value as i64 - min as i64) + 1;
        match tally.iter_mut().find(|(m, _)| *m == r.best) {
            Some(t) => t.1 += w,
            None => tally.push((r.best, w)),
        }
    }
    let (best, _) = tally
        .iter()
        .copied()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))?;
    results.iter().copied().find(|r| r.best == best)
}

/// What the shared-table schemes report: the table's counters, its cutoffs, and ABDADA's
/// deferrals.
pub(crate) fn table_figures<T: GameTree>(
    roles: &[TtRole<'_, T>],
    counts: Option<TtCounts>,
) -> Figures {
    let Some(c) = counts else {
        return Figures::default();
    };
    let cutoffs = roles.iter().map(|r| r.cutoffs()).sum();
    Figures::default()
        .with("tt_probes", c.probes)
        .with("tt_hits", c.hits)
        .with("tt_cutoffs", cutoffs)
        .with("tt_stores", c.stores)
        .with("tt_overwrites", c.overwrites)
}

/// Refuses a processor tree whose lines do not join every pair (the schemes need a pool), a
/// depth of 0 and an invalid table.
pub(crate) fn check(
    name: &str,
    depth: u32,
    table: Option<SharedTableConfig>,
    platform: &Platform,
) -> Result<(), DeployError> {
    if depth == 0 {
        return Err(DeployError::NoDepth {
            scheme: name.into(),
        });
    }
    if let Some(why) = table.and_then(|t| t.invalid()) {
        return Err(DeployError::Shape {
            scheme: name.into(),
            needs: format!("a valid table: {why}"),
        });
    }
    if let Platform::Tree(t) = platform {
        if t.len() > 2 {
            return Err(DeployError::Shape {
                scheme: name.into(),
                needs: format!(
                    "a pool of processors with shared memory, not a processor tree of {} processors",
                    t.len()
                ),
            });
        }
    }
    Ok(())
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for LazySmp {
    type Role = TtRole<'t, T>;
    fn name(&self) -> String {
        "lazy_smp".into()
    }
    fn deploy_on(&self, tree: &'t T, platform: &Platform) -> Result<Vec<Self::Role>, DeployError> {
        let c = self.0;
        check("lazy_smp", c.depth, c.table, platform)?;
        let shared = Shared::new(c.table);
        let mode = if c.table.is_some() {
            Mode::Values
        } else {
            Mode::None
        };
        Ok((0..platform.len())
            .map(|p| {
                let mut depths = if c.iterative {
                    c.skip.depths(p, c.depth)
                } else {
                    vec![c.depth]
                };
                if c.deeper {
                    depths.extend(c.skip.deeper(p, c.depth));
                }
                TtRole::new(tree, mode, depths, shared.clone(), p == 0)
            })
            .collect())
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        self.result(roles).map(|r| r.value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<sim_core::SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    fn root_move(&self, roles: &[Self::Role]) -> Option<usize> {
        self.result(roles).and_then(|r| r.best).map(|m| m as usize)
    }
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        table_figures(roles, roles.first().and_then(|r| r.shared().counts()))
    }
}

impl LazySmp {
    /// The run's result: processor 0's at depth d, or the vote's.
    fn result<T: GameTree>(&self, roles: &[TtRole<'_, T>]) -> Option<Iteration> {
        let main = roles.first()?;
        if !main.finished() {
            return None;
        }
        if !self.0.vote {
            return main.last();
        }
        let done: Vec<Iteration> = roles
            .iter()
            .filter_map(|r| r.last())
            .filter(|it| it.depth >= self.0.depth)
            .collect();
        vote(&done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_skip_depths_by_stockfishs_tables_but_never_the_last() {
        assert_eq!(Skip::Stockfish.depths(0, 6), [1, 2, 3, 4, 5, 6]);
        // Helper 1: size 1, phase 0: odd depths skipped.
        assert_eq!(Skip::Stockfish.depths(1, 6), [2, 4, 6]);
        assert_eq!(Skip::Stockfish.depths(1, 5), [2, 4, 5]);
        // Helper 2: size 1, phase 1: even depths skipped.
        assert_eq!(Skip::Stockfish.depths(2, 6), [1, 3, 5, 6]);
        // Helper 3: size 2, phase 0: depths 2-3, 6-7 skipped.
        assert_eq!(Skip::Stockfish.depths(3, 8), [1, 4, 5, 8]);
        // Helper 21 repeats helper 1.
        assert_eq!(Skip::Stockfish.depths(21, 6), Skip::Stockfish.depths(1, 6));
        assert_eq!(Skip::None.depths(5, 3), [1, 2, 3]);
        // Going deeper: helper 1 keeps even depths, helper 2 odd ones; processor 0 never.
        assert_eq!(Skip::Stockfish.deeper(1, 4)[..3], [6, 8, 10]);
        assert_eq!(Skip::Stockfish.deeper(2, 4)[..3], [5, 7, 9]);
        assert_eq!(Skip::None.deeper(3, 4).len() as u32, DEEPER_PLIES);
        assert!(Skip::None.deeper(0, 4).is_empty());
    }

    #[test]
    fn the_vote_weighs_values_and_breaks_ties_by_move() {
        let it = |value, best| Iteration {
            depth: 4,
            value,
            best: Some(best),
        };
        // Move 2: weights 1 + 1 = 2; move 1: weight 11.
        assert_eq!(
            vote(&[it(0, 2), it(10, 1), it(0, 2)]).map(|r| r.best),
            Some(Some(1))
        );
        // Moves 3 and 1 tie (1 each): the lower index wins.
        assert_eq!(vote(&[it(5, 3), it(5, 1)]).map(|r| r.best), Some(Some(1)));
        assert_eq!(vote(&[]), None);
    }
}
