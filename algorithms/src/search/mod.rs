//! Sequential searches as resumable machines that a processor advances one costed step at a
//! time ([`sequential::SequentialSearch`]): the depth-first family (alpha-beta, PVS, palphabeta,
//! SCOUT, NegaScout, INS, PNS), each a per-node policy driving the one explicit-stack engine
//! of [`depth_first`], and the best-first SSS* family, with the plain recursive versions each
//! must agree with.

pub mod alphabeta;
pub mod depth_first;
pub mod ins;
pub mod pvs;
pub mod scout;
pub mod sequential;
pub mod sss;

use crate::trees::{GameTree, MoveList, Value};

/// The moves of `node` if the search expands it (`depth > 0` and not terminal).
#[inline]
pub(crate) fn expand<T: GameTree>(tree: &T, node: &T::Node, depth: u32) -> Option<T::Moves> {
    if depth == 0 {
        return None;
    }
    let moves = tree.moves(node);
    (!moves.is_empty()).then_some(moves)
}

/// A node of a recursive search that counts the steps the resumable one takes
/// ([`sim_hw::Search::run_to_end`]): its moves if it is expanded (one interior node counted), or
/// else its value as a leaf (one leaf and its quiescence nodes counted).
#[inline]
pub(crate) fn tally_node<T: GameTree>(
    tree: &T,
    node: &T::Node,
    depth: u32,
    tally: &mut sim_hw::Tally,
) -> Result<T::Moves, Value> {
    match expand(tree, node, depth) {
        Some(moves) => {
            tally.interior += 1;
            Ok(moves)
        }
        None => Err(tally_leaf(tree, node, tally).value),
    }
}

/// A leaf of a recursive search that counts the resumable one's steps: its evaluation, one
/// leaf and its quiescence nodes counted.
#[inline]
pub(crate) fn tally_leaf<T: GameTree>(
    tree: &T,
    node: &T::Node,
    tally: &mut sim_hw::Tally,
) -> crate::trees::Eval {
    let eval = tree.evaluate(node);
    tally.leaves += 1;
    tally.quiescence += eval.quiescence as u64;
    eval
}
