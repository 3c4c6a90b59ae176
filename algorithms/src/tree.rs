//! The game-tree trait that every tree source (synthetic, chess) implements.

/// A position's value in the negamax view: from the point of view of the side to move.
pub type Value = i32;

/// Larger than any value a tree produces; the paper's MAXINT. Windows are open intervals
/// (alpha, beta), so `-INF`/`INF` bound every search.
pub const INF: Value = 1 << 28;

/// A game tree explored one node at a time, nothing materialized.
///
/// Children come in move order (the order a search examines them). `evaluate` is the static
/// evaluation used at the search horizon, in the negamax view.
pub trait GameTree {
    type Node: Clone;
    fn root(&self) -> Self::Node;
    /// Number of moves at `node` (0 for a terminal position).
    fn width(&self, node: &Self::Node) -> usize;
    /// The `i`-th successor of `node` in move order, `i < width(node)`.
    fn child(&self, node: &Self::Node, i: usize) -> Self::Node;
    /// Static evaluation of `node` (quiescence included, for chess), side-to-move view.
    fn evaluate(&self, node: &Self::Node) -> Value;
    /// A hash key for tables.
    fn key(&self, node: &Self::Node) -> u64;
}

/// Plain recursive negamax to `depth`: the reference value every search must reproduce.
pub fn negamax<T: GameTree>(tree: &T, node: &T::Node, depth: u32) -> Value {
    let w = tree.width(node);
    if depth == 0 || w == 0 {
        return tree.evaluate(node);
    }
    (0..w)
        .map(|i| -negamax(tree, &tree.child(node, i), depth - 1))
        .max()
        .expect("w > 0")
}
