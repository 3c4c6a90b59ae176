//! Campbell's tree generator `gen` (thesis, Appendix 2, Figure 14), with the best-move
//! orderings of section 2.2, generated on the fly from a seed.
//!
//! Figure 14, in the negamax framework, called as `gen(ROOT, 0, S)`:
//!
//! ```text
//! gen(position p, int depth, int score)
//! {   int value[WIDTH]; int i;
//!     if (depth == MAXDEPTH) { write(score); return; }
//!     if (odd(depth))
//!         for i = 0 to WIDTH-1 do value[i] = score - (rand() % (128+score))
//!     else
//!         for i = 0 to WIDTH-1 do value[i] = rand() % score;
//!     value[SelectBest()] = score;
//!     generate(p);                       /* successors p.1, ..., p.WIDTH */
//!     for i = 1 to WIDTH do gen(p.i, depth + 1, -value[i]);
//! }
//! ```
//!
//! `value[i]` is successor `i`'s value from the mover's view, `score` the node's own negamax
//! value: every successor gets at most `score`, the best one exactly `score`, so the node's
//! minimax value is `score` and the root's is `S`. Seen from the root player (who moves at even
//! depths), every node's value lies in `0..=127` (an 8-bit byte, as the thesis's tree files
//! store): a node of value `v` at an even depth has its other successors uniform in `0..v`
//! (strictly below `v`); a node of value `v` at an odd depth (its negamax score is `-v`) has its
//! other successors uniform in `v..=127` (at least `v`, ties possible). Terminal values
//! therefore pile up near 0 at the ends of MAX moves and near 127 at the ends of MIN moves; see
//! [`CampbellTree`] for a measured histogram.
//!
//! `SelectBest()` draws the position of the best move from the ordering (section 2.2):
//! `random` (uniform), `first_best(p)` (first with probability `p`, otherwise one of the others
//! uniformly), `geometric(p)` (position `i` with probability proportional to `p (1 − p)^i`,
//! truncated to the width and renormalized), `perfect` (always the first); an explicit weight
//! list ([`Ordering::Weights`]) is accepted too, as the same kind of draw.
//!
//! **Interpretations** the figure leaves open (it is "a simplified version"):
//! - `rand() % m` is taken as uniform on `0..m` (a 64-bit draw reduced modulo `m`; its bias,
//!   below `m / 2^64`, is negligible, whereas a 15-bit C `rand()` would have had up to 0.4 %).
//! - `rand() % score` with `score == 0` (a node at an even depth of value 0, which is frequent:
//!   the best successor of an odd-depth node of value 0) is a division by zero in C. The only
//!   values that keep the tree in `0..=127` and the node's value at 0 are 0, so every successor
//!   of such a node gets 0.
//! - `S` ("a fixed value or chosen randomly") is drawn uniformly from `1..=127`: `S >= 1` because
//!   `rand() % S` needs it, `S <= 127` because the best successor's `128 + score` must stay
//!   positive.
//! - Interior nodes have no static value in the thesis's files (they store only the leaves);
//!   here [`GameTree::evaluate`] at an interior node returns its true minimax value (an oracle),
//!   so searches of these trees should go to the full depth, as Campbell's did.
//!
//! Each node carries a key (a hash of its path) from which its random numbers are derived, so a
//! tree is a pure function of (width, depth, ordering, seed) and nothing is stored. The root's
//! key mixes the seed with the width and the depth.

use crate::trees::rng::{mix2, mix64};
use crate::trees::synthetic::Ordering;
use crate::trees::{Eval, GameTree, MoveList, Value};
use serde::{Deserialize, Serialize};

/// The largest width [`CampbellTree::new`] accepts.
pub const MAX_WIDTH: u32 = 4096;
/// The largest depth [`CampbellTree::new`] accepts.
pub const MAX_DEPTH: u32 = 64;

/// Parameters of one of Campbell's uniform trees (thesis Appendix 2 and section 2.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampbellSpec {
    /// Successors of every interior node (`WIDTH`), `1..=`[`MAX_WIDTH`].
    pub width: u32,
    /// Plies from the root to the leaves (`MAXDEPTH`), `1..=`[`MAX_DEPTH`].
    pub depth: u32,
    /// Where the best move stands among a node's successors (`SelectBest()`); its
    /// [`Ordering::label`] is how results spell it (`random`, `first_best(0.5)`, …).
    pub ordering: Ordering,
}

/// A node of a Campbell tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CampbellNode {
    /// The node's key (a hash of its path), from which its random numbers are drawn; also its
    /// hash key.
    pub key: u64,
    /// `gen`'s `score`: the node's minimax value in the negamax view (side to move).
    pub value: Value,
    /// Plies from the root (`gen`'s `depth`; the root is 0).
    pub ply: u32,
}

/// How `SelectBest()` draws the best move's position.
#[derive(Clone, Debug)]
enum BestDraw {
    /// Always the first (perfect ordering).
    First,
    /// Uniform over the width (random ordering).
    Uniform,
    /// By inverse transform: the first position whose cumulative probability exceeds a uniform
    /// draw in `[0, 1)`. The entries from the last position of non-zero weight on are exactly 1.
    Cumulative(Box<[f64]>),
}

/// One of Campbell's trees (see the module doc): `gen` run lazily from a seed.
///
/// Seen from the root player, leaf values lie in `0..=127` and are far from uniform, and their
/// distribution depends on the depth's parity, not on the ordering (which only moves the best
/// successor around). Measured over 20 trees of width 24 (test `leaf_value_histogram`): at
/// depth 4 every leaf is reached by a MIN move, so leaves lie at or above their parent's value
/// and their density rises almost linearly towards 127 (mean 82.4; share per band of 16 values
/// from 0 up: .03 .06 .08 .11 .14 .16 .19 .23); at depth 3 every leaf is reached by a MAX move,
/// the mirror image (mean 40.3; .27 .20 .17 .13 .10 .07 .04 .02). The root value `S` is uniform
/// in `1..=127`.
///
/// ```
/// use algorithms::{negamax, CampbellSpec, CampbellTree, GameTree, Ordering};
/// let spec = CampbellSpec { width: 4, depth: 5, ordering: Ordering::Geometric { p: 0.8 } };
/// let tree = CampbellTree::new(spec, 11).unwrap();
/// assert_eq!(negamax(&tree, &tree.root(), 5), tree.value());
/// ```
#[derive(Clone, Debug)]
pub struct CampbellTree {
    spec: CampbellSpec,
    best: BestDraw,
    root: CampbellNode,
}

/// Salts that keep the random numbers of one node's different draws apart.
const TREE_SALT: u64 = 0xCA3B_BE11_0000_1981;
const ROOT_SALT: u64 = 0x5C08_E000_0000_0001;
const BEST_SALT: u64 = 0xB357_0000_0000_0002;
const VALUE_SALT: u64 = 0x7A10_E000_0000_0003;

/// A uniform draw in `[0, 1)` from 53 bits of `r`.
#[inline]
fn unit(r: u64) -> f64 {
    (r >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl CampbellTree {
    /// The tree of `spec` and `seed`, or what is wrong with `spec`.
    pub fn new(spec: CampbellSpec, seed: u64) -> Result<Self, String> {
        if !(1..=MAX_WIDTH).contains(&spec.width) {
            return Err(format!(
                "width must be between 1 and {MAX_WIDTH}, got {}",
                spec.width
            ));
        }
        if !(1..=MAX_DEPTH).contains(&spec.depth) {
            return Err(format!(
                "depth must be between 1 and {MAX_DEPTH}, got {}",
                spec.depth
            ));
        }
        let weights = spec.ordering.weights(spec.width as usize)?;
        let best = match spec.ordering {
            Ordering::Perfect => BestDraw::First,
            Ordering::Random => BestDraw::Uniform,
            _ => {
                let sum: f64 = weights.iter().sum();
                let last = weights
                    .iter()
                    .rposition(|&x| x > 0.0)
                    .ok_or("the weights must not all be zero")?;
                let mut acc = 0.0;
                let cdf: Vec<f64> = weights
                    .iter()
                    .enumerate()
                    .map(|(i, x)| {
                        acc += x / sum;
                        // Rounding must not leave room for a draw past the last live position.
                        if i >= last {
                            1.0
                        } else {
                            acc
                        }
                    })
                    .collect();
                BestDraw::Cumulative(cdf.into_boxed_slice())
            }
        };
        let key = mix2(
            mix2(mix2(seed, TREE_SALT), u64::from(spec.width)),
            u64::from(spec.depth),
        );
        // S, uniform in 1..=127 (see the module doc).
        let s = (mix64(key ^ ROOT_SALT) % 127) as Value + 1;
        Ok(CampbellTree {
            spec,
            best,
            root: CampbellNode {
                key,
                value: s,
                ply: 0,
            },
        })
    }

    /// The parameters the tree was made from.
    pub fn spec(&self) -> &CampbellSpec {
        &self.spec
    }

    /// The root's minimax value, known from the construction (`gen`'s `S`), in `1..=127`.
    pub fn value(&self) -> Value {
        self.root.value
    }

    /// `SelectBest()` at `node`: which successor (in move order) holds the node's value. Drawn
    /// from the node's key, so the same every time; [`GameTree::moves`] draws it once per node.
    #[inline]
    pub fn best_child(&self, node: &CampbellNode) -> usize {
        match &self.best {
            BestDraw::First => 0,
            BestDraw::Uniform => {
                (mix64(node.key ^ BEST_SALT) % u64::from(self.spec.width)) as usize
            }
            BestDraw::Cumulative(cdf) => {
                let u = unit(mix64(node.key ^ BEST_SALT));
                cdf.iter().position(|&c| u < c).unwrap_or(cdf.len() - 1)
            }
        }
    }
}

/// The moves of a node of a Campbell tree: how many, and which one is best (drawn once, when the
/// moves are generated). No allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CampbellMoves {
    width: u32,
    best: u32,
}

/// A move of a node of a Campbell tree: the successor's index in move order, and whether it is
/// the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CampbellMove {
    /// The successor's index in move order (`i` in `p.i`, from 0).
    pub index: u32,
    /// Whether this successor gets the node's own value (`value[SelectBest()] = score`).
    pub best: bool,
}

impl MoveList for CampbellMoves {
    type Move = CampbellMove;

    #[inline]
    fn len(&self) -> usize {
        self.width as usize
    }

    #[inline]
    fn get(&self, i: usize) -> CampbellMove {
        debug_assert!(i < self.width as usize, "move {i} of {}", self.width);
        let index = i as u32;
        CampbellMove {
            index,
            best: index == self.best,
        }
    }
}

impl GameTree for CampbellTree {
    type Node = CampbellNode;
    type Move = CampbellMove;
    type Moves = CampbellMoves;

    fn root(&self) -> CampbellNode {
        self.root
    }

    #[inline]
    fn moves(&self, node: &CampbellNode) -> CampbellMoves {
        if node.ply >= self.spec.depth {
            CampbellMoves { width: 0, best: 0 }
        } else {
            CampbellMoves {
                width: self.spec.width,
                best: self.best_child(node) as u32,
            }
        }
    }

    #[inline]
    fn play(&self, node: &CampbellNode, mv: CampbellMove) -> CampbellNode {
        let key = mix2(node.key, u64::from(mv.index));
        let score = node.value;
        // value[i], from the mover's view.
        let value = if mv.best {
            score
        } else {
            let r = mix64(key ^ VALUE_SALT);
            if node.ply % 2 == 1 {
                // score in -127..=0, so 128 + score >= 1.
                score - (r % (128 + score) as u64) as Value
            } else if score > 0 {
                (r % score as u64) as Value
            } else {
                // rand() % 0: see the module doc.
                0
            }
        };
        CampbellNode {
            key,
            value: -value,
            ply: node.ply + 1,
        }
    }

    #[inline]
    fn evaluate(&self, node: &CampbellNode) -> Eval {
        Eval {
            value: node.value,
            quiescence: 0,
        }
    }

    #[inline]
    fn key(&self, node: &CampbellNode) -> u64 {
        node.key
    }
}
