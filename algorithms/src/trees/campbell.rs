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
//! `SelectBest()` draws the position of the best move from the ordering (section 2.2, p. 22:
//! "trees are classified by the distribution of the placing of the best move at any given
//! node"): `random` (uniform), `first_best(p)` (first with probability `p`, otherwise one of the
//! others uniformly), `geometric(p)` (position `i` with probability proportional to
//! `p (1 − p)^i`, truncated to the width and renormalized), `perfect` (always the first); an
//! explicit weight list ([`Ordering::Weights`]) is accepted too, as the same kind of draw.
//!
//! **What the thesis settles, and what it leaves open.** Appendix 2 (pp. 70–71) gives the prose,
//! Figure 14 and the remark that `S` "can be either a fixed value or chosen randomly"; section 2.2
//! (p. 22) names the orderings and nothing more. Read line by line against this module, every
//! point below is either what the text says or, where it says nothing or
//! contradicts itself, the reading chosen here. None of these readings was chosen or changed to
//! bring a leaf count nearer a published table.
//! - *Successor `i` and `value[i]`.* Figure 14 fills `value[0..WIDTH-1]` but calls
//!   `gen(p.i, depth + 1, -value[i])` for `i = 1..WIDTH`, so taken literally `value[0]` (where
//!   a `SelectBest()` of 0 would put the best value) is never used and `value[WIDTH]` is read past
//!   the end. Read: successor `p.(i+1)` gets `value[i]`, and `SelectBest() = 0` is the first move
//!   in move order.
//! - *Strictly below, or at most, `score`?* The prose says "all the successors are assigned values
//!   less than score, and then the best move is chosen and assigned the value score", which makes
//!   the best move unique. Figure 14 agrees at even depths (`rand() % score` is below `score`) but
//!   not at odd depths: `score - rand() % (128+score)` equals `score` when the draw is 0, so a
//!   successor of an odd-depth node other than the chosen best ties it with probability
//!   `1 / (128 + score)` (in the root player's view, a MIN node of value `v` has the others
//!   uniform in `v..=127`). Read: Figure 14's formula, ties included. The figure is the more
//!   specific text, and its constant 128 matches the byte range `0..=127` that the thesis's
//!   tree files store; a strict draw would need 127 there, and a guard for `v = 127`
//!   the figure does not have. On 100 trees of width 16 and depth 4, 1.7 % of the leaves other
//!   than the best tie their parent's value this way (1.4 % at depth 1); with a generator
//!   modified to draw them strictly, mean leaf counts on 400 such trees rose by 2–4 % on random
//!   trees (SSS* +4 %) and by under 1 % on geometric and perfect ones.
//! - *`rand() % score` with `score == 0`* (a MAX node whose value, seen from the root player,
//!   is 0) is a division by zero in C, so Campbell's program cannot have been exactly Figure 14.
//!   The only values that keep the tree in `0..=127` and the node's value at 0 are 0, so every
//!   successor of such a node gets 0. This is rare: 0.4 % of the depth-2 nodes of trees of width
//!   16 and depth 4.
//! - *`rand()`.* The thesis does not say which `rand()` (the machine, the C library, how many
//!   bits). `rand() % m` is taken as uniform on `0..m` and independent between draws (a 64-bit
//!   hash reduced modulo `m`; its bias, below `m / 2^64`, is negligible, whereas a 15-bit C
//!   `rand()` would have had up to 0.4 %).
//! - *`S`* "can be either a fixed value or chosen randomly", and the thesis does not say which
//!   its tables used (only that one aspiration test on width-8, depth-4 trees had "the tree score
//!   set to 64", p. 29). Read: chosen randomly, uniform on `1..=127`, the whole range Figure 14
//!   allows: `S >= 1` because `rand() % S` needs it, `S <= 127` because the best successor's
//!   `128 + score` must stay positive. Leaf counts depend strongly on `S` on random and
//!   first-best(0.5) trees (on 400 random trees of width 16 and depth 4, SSS* evaluates 5700
//!   leaves on average when `S <= 16` and 830 when `S > 112`), much less on geometric and
//!   perfect ones; so a different choice of `S` (a fixed 64, say) moves mainly those columns.
//! - *First-best `p`* (".5 first-move-best", ".8 first-move-best"): the first move is best with
//!   probability `p`. Where the best goes otherwise is not said. Read: uniformly among the other
//!   `w − 1` moves, so that the first is best with probability exactly `p`; drawing the position
//!   uniformly among all `w` moves instead would make it `p + (1 − p) / w` (tried with an
//!   explicit weight list on 400 trees of width 16 and depth 4, that lowers first-best(0.5) mean
//!   leaf counts by 4–7 %).
//! - *Geometric `p`*: the first move is best with probability `p` (which is why `p = .8` is the
//!   "strongly ordered" one), position `i` with `p (1 − p)^i`. How the tail beyond the width is
//!   handled is not said. Read: renormalized (the same as redrawing until a position within the
//!   width comes up); the tail is `(1 − p)^w`, 0.4 % for `w = 8`, `p = .5`, and 0.002 % for
//!   `w = 16`.
//! - *Random*: every position equally likely (the placing of the best move is uniform).
//! - *Ties in the searches.* The thesis counts on them: alpha-beta's cutoffs "occur on equal
//!   scores" (section 2.2, the remark on Fuller's formula, which is why discrete leaf values
//!   save search), and its modified SSS* takes the leftmost of several states of equal merit
//!   first (Appendix 3, Table 12). gtsim's searches do both (`score >= beta` cuts off; see
//!   [`crate::sss`] for SSS*), so how often leaves tie matters only through the generator.
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
    /// The tree of `spec` and `seed`, or what is wrong with `spec`; its root value S drawn
    /// uniformly on `1..=127` from the seed (module doc, "S").
    pub fn new(spec: CampbellSpec, seed: u64) -> Result<Self, String> {
        Self::with_root_score(spec, seed, None)
    }

    /// As [`CampbellTree::new`], with the root value S fixed at `root_score` (`1..=127`) when
    /// given: Appendix 2 lets S be "either a fixed value or chosen randomly", and the thesis's
    /// own aspiration test (p. 29) set it to 64. Everything else is drawn from the seed as with
    /// a random S.
    pub fn with_root_score(
        spec: CampbellSpec,
        seed: u64,
        root_score: Option<Value>,
    ) -> Result<Self, String> {
        if let Some(s) = root_score {
            if !(1..=127).contains(&s) {
                return Err(format!(
                    "the root score must be between 1 and 127 (gen draws rand() % score, and values are bytes), got {s}"
                ));
            }
        }
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
        // Section 2.2's orderings as weights: first-best's remainder spread uniformly over the
        // other moves, geometric's tail beyond the width renormalized away (module doc).
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
        // S, "either a fixed value or chosen randomly" (Appendix 2, p. 70): chosen randomly,
        // uniform on 1..=127, the range Figure 14 allows (module doc, "S").
        let s = root_score.unwrap_or((mix64(key ^ ROOT_SALT) % 127) as Value + 1);
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
            // Figure 14's `rand()`: one independent uniform draw per successor.
            let r = mix64(key ^ VALUE_SALT);
            if node.ply % 2 == 1 {
                // score in -127..=0, so 128 + score >= 1. At most `score`, and equal to it (a
                // tie with the best move) when the draw is 0: Figure 14, not the prose's "less
                // than score" (module doc).
                score - (r % (128 + score) as u64) as Value
            } else if score > 0 {
                // Strictly below `score`, as both the prose and Figure 14 have it.
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
