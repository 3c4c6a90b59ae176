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

use crate::trees::{GameTree, MoveList};

/// The moves of `node` if the search expands it (`depth > 0` and not terminal).
#[inline]
pub(crate) fn expand<T: GameTree>(tree: &T, node: &T::Node, depth: u32) -> Option<T::Moves> {
    if depth == 0 {
        return None;
    }
    let moves = tree.moves(node);
    (!moves.is_empty()).then_some(moves)
}
