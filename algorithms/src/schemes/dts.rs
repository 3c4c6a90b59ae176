//! Dynamic Tree Splitting (`dts`): Hyatt's scheme for Cray Blitz (Hyatt, Suter, Nelson 1989;
//! Hyatt 1994), on a shared-memory machine.
//!
//! **What is shared.** Every busy processor's tree state (its tasks: stacks of frames, each
//! frame a node with its window, best score and sons started) is visible in shared memory, in
//! the processor's block. An idle processor examines the tree states of *all* the other
//! processors and picks a split point anywhere in any of their trees; the choice is global,
//! where [`super::ybwc_shared`] asks one victim per try. Everything else — the search engine,
//! the split-point locks, folding a helper's result under the lock, aborting the helpers of a
//! frame closed by a cutoff, window updates, the stop word, what every access costs and at
//! which address — is [`super::ybwc_shared`]'s (read its module doc for the rules and costs).
//! Runs without a transposition table.
//!
//! **The choice of split point.** A node may be split once its eldest son's value is in and a
//! younger son is not yet started (the sons at least `min_split_depth` plies deep). Hyatt asks
//! for the split point nearest the root where work is left; among the split points of every
//! examined tree, the idle processor takes the one of the fewest plies from the root, then of
//! the deepest remaining depth, then with the most sons not yet started, then the first found
//! (processors examined in order from the one after itself, each tree lowest task first, then
//! lowest frame). Cost of an examination: one read of every other processor's split-point list
//! (`n - 1` reads, in that order); the choice is made on the states as they were read (a
//! processor's state when its read ended); then the chosen split point's lock is acquired, and
//! what is left there is seen under the lock (a son taken, or nothing: a miss, followed by the
//! back-off).
//!
//! **A blocked processor** (all its tasks wait for helpers) with the helpful master on joins
//! any split point by the same global rule (DTS has no master: a processor that runs out of
//! work at a split point helps wherever work is); off, it waits for its helpers. What Hyatt's
//! DTS does and this does not: the last processor to finish at a split point returns its value
//! up the owner's tree (here the owner always does), so a processor never waits for helpers
//! with nothing else to do if the helpful master is on.

use super::ybwc_shared::{deploy, figures, Join, Policy, SplitRole};
use crate::scheme::{DeployError, Figures};
use crate::trees::{GameTree, Value};
use sim_hw::Platform;

/// The options of [`Dts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DtsConfig {
    /// Search depth (at least 1).
    pub depth: u32,
    /// Write improved bounds to the helpers of a split point.
    pub window_updates: bool,
    /// A processor whose tasks are all blocked joins split points (by the global rule) instead
    /// of waiting.
    pub helpful_master: bool,
    /// Sons shallower than this many plies are never handed out (1: anything but leaves).
    pub min_split_depth: u32,
}

impl DtsConfig {
    /// The defaults: window updates, helpful master, no leaves handed out.
    pub fn new(depth: u32) -> Self {
        DtsConfig {
            depth,
            window_updates: true,
            helpful_master: true,
            min_split_depth: 1,
        }
    }
}

/// Dynamic Tree Splitting, on a shared-memory machine.
#[derive(Clone, Copy, Debug)]
pub struct Dts(pub DtsConfig);

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for Dts {
    type Role = SplitRole<'t, T>;
    fn name(&self) -> String {
        "dts".into()
    }
    fn deploy_on(&self, tree: &'t T, platform: &Platform) -> Result<Vec<Self::Role>, DeployError> {
        let c = self.0;
        deploy(
            "dts",
            Policy {
                depth: c.depth,
                join: Join::Global,
                window_updates: c.window_updates,
                helpful_master: c.helpful_master,
                min_split_depth: c.min_split_depth,
                seed: 0,
            },
            tree,
            platform,
        )
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(SplitRole::root_value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<sim_core::SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    fn root_move(&self, roles: &[Self::Role]) -> Option<usize> {
        roles.first().and_then(SplitRole::root_move)
    }
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        figures(roles)
    }
}
