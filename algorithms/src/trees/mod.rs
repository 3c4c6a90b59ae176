//! Tree sources: the game-tree trait that every source implements (synthetic, Campbell's `gen`,
//! chess in the `chess` crate) and the generators of the seed papers.
//!
//! A search sees a tree through five operations, shaped for chess: the moves of a node are
//! generated once ([`GameTree::moves`]) and kept by the search frame that uses them (not
//! regenerated per successor or per re-search); a successor is made by playing a move on a copy
//! of the node ([`GameTree::play`], copy-make); the static evaluation reports how many quiescence
//! nodes it searched so that the machine can cost them ([`Eval`]); and every node has a hash key
//! for tables ([`GameTree::key`]).
//!
//! The search decides where the horizon is: at depth 0 it evaluates a node without generating
//! its moves; at a greater depth it generates them, and a node with no moves is terminal and is
//! evaluated instead.

pub mod campbell;
pub mod rng;
pub mod synthetic;

/// A position's value in the negamax view: from the point of view of the side to move.
pub type Value = i32;

/// Larger than any value a tree produces; the paper's MAXINT. Windows are open intervals
/// (alpha, beta), so `-INF`/`INF` bound every search.
pub const INF: Value = 1 << 28;

/// A static evaluation: the value, and the work it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Eval {
    /// The node's value in the negamax view (side to move).
    pub value: Value,
    /// Quiescence nodes the evaluation searched beyond the node itself (0 for synthetic trees,
    /// whose evaluation is a formula).
    pub quiescence: u32,
}

/// The moves of one node, in move order (the order a search examines them).
///
/// Implemented by each tree's own list type, so that no tree has to allocate: synthetic trees
/// describe their moves in two integers, a chess tree can wrap an array-backed move list.
pub trait MoveList {
    /// One move of the list.
    type Move;
    /// Number of moves (0 for a terminal position).
    fn len(&self) -> usize;
    /// The `i`-th move in move order, `i < len()`.
    fn get(&self, i: usize) -> Self::Move;
    /// Whether the position is terminal (no moves).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Any vector of moves is a move list (for hand-built trees in tests and examples).
impl<M: Clone> MoveList for Vec<M> {
    type Move = M;
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn get(&self, i: usize) -> M {
        self[i].clone()
    }
}

/// A game tree explored one node at a time, nothing materialized (see the module doc).
///
/// Every operation is a pure function of its arguments: the same node always has the same moves,
/// the same successors, the same evaluation and the same key. Nor may an operation change
/// anything a caller can see (no counters behind a `Cell`): the machine copies searches and
/// replays their steps (optimistic execution), and runs some at once by another route
/// (`sim_hw::Search::run_to_end`), so a tree may be asked the same thing more than once.
pub trait GameTree {
    /// A position. Searches keep one per open frame, so a copy should be cheap.
    type Node: Clone;
    /// A move, as the tree's [`MoveList`] hands it out and [`GameTree::play`] takes it.
    type Move;
    /// The moves of a node, generated once and kept by the search frame that uses them.
    type Moves: MoveList<Move = Self::Move> + Clone;

    /// The position searched from.
    fn root(&self) -> Self::Node;
    /// Generates the moves of `node` in move order (empty for a terminal position).
    fn moves(&self, node: &Self::Node) -> Self::Moves;
    /// The successor of `node` reached by `mv`, a move of `self.moves(node)`; `node` is unchanged
    /// (copy-make).
    fn play(&self, node: &Self::Node, mv: Self::Move) -> Self::Node;
    /// Static evaluation of `node` at the horizon or at a terminal position (quiescence search
    /// included, for chess), in the side-to-move view.
    fn evaluate(&self, node: &Self::Node) -> Eval;
    /// A hash key for tables.
    fn key(&self, node: &Self::Node) -> u64;
}

/// Plain recursive negamax to `depth`: the reference value every search must reproduce.
pub fn negamax<T: GameTree>(tree: &T, node: &T::Node, depth: u32) -> Value {
    if depth == 0 {
        return tree.evaluate(node).value;
    }
    let moves = tree.moves(node);
    if moves.is_empty() {
        return tree.evaluate(node).value;
    }
    (0..moves.len())
        .map(|i| -negamax(tree, &tree.play(node, moves.get(i)), depth - 1))
        .max()
        .expect("at least one move")
}
