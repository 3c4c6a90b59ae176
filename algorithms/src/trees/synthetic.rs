//! Synthetic uniform game trees from the weight-based generator of Reinefeld, Schaeffer and
//! Marsland (seed `reinefeld-schaeffer-marsland-information-acquisition.txt`, section 4.1.1).
//!
//! The generator works from the root down: a node's minimax value is known before its subtree
//! exists. At a node of value `v`, a random draw according to the ordering's weights picks which
//! successor `b` holds the value; successor `b` gets `v`, successors to its left get values drawn
//! below `v` (strictly) and those to its right values at most `v` (all from the parent's view), and
//! each successor's own (negamax) value is the negation. Every leaf is therefore consistent with
//! the root value, and nothing is stored: each node carries a key from which its random numbers are
//! derived, so a tree is a pure function of (width, depth, ordering, seed).
//!
//! The paper draws sibling values "from −∞ to v−1" and "from −∞ to v"; an unbounded uniform draw
//! does not exist, so gtsim draws them from a window of `value_spread` below `v`. With that window,
//! the gaps between the best and next-best siblings (what decides how often a zero-window search
//! fails high) follow from the ordering and the spread; the spread is a scenario parameter.
//!
//! The root's seed is mixed with the width and the depth, as in the paper, so that d-ply trees
//! are not prefixes of (d+1)-ply trees of the same seed.
//!
//! **Progressive deepening.** A search to depth `i` shorter than the tree's depth `d` evaluates the
//! nodes at ply `i` statically. Their static value is their true minimax value plus a
//! deterministic noise uniform in `±horizon_noise × (d − i)`: the further from the real leaves,
//! the worse the estimate. With `horizon_noise = 0` the evaluation is perfect (an oracle).
//!
//! **The draws.** Every random number comes from a SplitMix64 stream seeded by a node's key
//! ([`crate::rng::SplitMix64`]), drawn as `rand` 0.9 and `rand_distr` 0.5 draw them: values
//! with `random_range` (Canon's method) and the best successor with `WeightedAliasIndex` (Walker's
//! alias method). Both are spelled out here (`canon`, `BestDraw`), so that a tree does not
//! change with those crates' versions and a node costs a few multiplications: the key of move `i`
//! is `mix2(key, i)` with the key-independent half `mix64(i + GOLDEN)` tabled per move, and the
//! alias method's floating-point acceptance test is the equivalent comparison of integers.
//! A test checks the generator against the crates' own draws.

use crate::trees::rng::{mix2, mix64, GOLDEN};
use crate::trees::{Eval, GameTree, MoveList, Value};
use serde::{Deserialize, Serialize};

/// How likely each successor is to be the best one (section 4.1.1's weights).
///
/// Deserializing validates (see [`Ordering::validate`]), so a scenario file cannot hold an
/// ordering the generator would reject for a reason other than the tree's width.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "OrderingFields")]
pub enum Ordering {
    /// Every successor equally likely to be best (random trees).
    Random,
    /// The first successor is best with probability `p`, otherwise one of the others, uniformly.
    FirstBest {
        /// The probability that the first successor is best, in [0, 1].
        p: f64,
    },
    /// Successor `i` is best with probability proportional to `p (1 − p)^i`.
    Geometric {
        /// The parameter of the weights `p (1 − p)^i`, 0 < p ≤ 1: the larger, the more often
        /// an early successor is best.
        p: f64,
    },
    /// The first successor is always best: perfectly ordered (minimal) trees.
    Perfect,
    /// Explicit relative weights, one per successor (e.g. 70, 5, 5, …, 3 for w = 20).
    Weights(Vec<f64>),
    /// Strongly ordered as Marsland and Campbell defined it (and Reinefeld, Schaeffer and
    /// Marsland use it, section 4.1.1): the first successor is best with probability 0.7, one
    /// of the first quarter (⌈w/4⌉ successors) with probability 0.9. The weights are 70 for the
    /// first, 20 shared by the rest of the first quarter, 10 by the others (for w = 20:
    /// 70, 5, 5, 5, 5, then 15 × 0.67, the paper's "(70, 5, 5, 5, 5, …)"); when the first
    /// quarter is the first successor alone (w ≤ 4) it gets 90, and with w = 1, everything.
    StronglyOrdered,
}

/// The same variants as [`Ordering`], as read from a file before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Ordering")]
enum OrderingFields {
    Random,
    FirstBest { p: Probability },
    Geometric { p: Probability },
    Perfect,
    Weights(Vec<f64>),
    StronglyOrdered,
}

/// A probability, checked where it is written (so an error points at it).
#[derive(Deserialize)]
#[serde(try_from = "f64")]
struct Probability(f64);

impl TryFrom<f64> for Probability {
    type Error = String;
    fn try_from(p: f64) -> Result<Self, String> {
        if (0.0..=1.0).contains(&p) {
            Ok(Probability(p))
        } else {
            Err(format!(
                "probability p = {} is not between 0 and 1",
                short(p)
            ))
        }
    }
}

impl TryFrom<OrderingFields> for Ordering {
    type Error = String;
    fn try_from(o: OrderingFields) -> Result<Self, String> {
        let o = match o {
            OrderingFields::Random => Ordering::Random,
            OrderingFields::FirstBest { p } => Ordering::FirstBest { p: p.0 },
            OrderingFields::Geometric { p } => Ordering::Geometric { p: p.0 },
            OrderingFields::Perfect => Ordering::Perfect,
            OrderingFields::Weights(w) => Ordering::Weights(w),
            OrderingFields::StronglyOrdered => Ordering::StronglyOrdered,
        };
        o.validate()?;
        Ok(o)
    }
}

/// The sum of an ordering's weights must lie in `[MIN_WEIGHT_SUM, MAX_WEIGHT_SUM]`: far from
/// overflow (the alias table multiplies every weight by the width) and from subnormal numbers
/// (where the table's arithmetic loses its precision and draws wrong successors).
pub const MIN_WEIGHT_SUM: f64 = 1e-200;
/// See [`MIN_WEIGHT_SUM`].
pub const MAX_WEIGHT_SUM: f64 = 1e200;
/// Every non-zero explicit weight must be at least this fraction of the sum: a smaller one would
/// hardly ever be drawn, and not with the probability written (write 0 instead).
pub const MIN_WEIGHT_FRACTION: f64 = 1e-12;

impl Ordering {
    /// Checks what does not depend on the tree's width: probabilities in [0, 1] (a geometric `p`
    /// at least [`MIN_WEIGHT_SUM`]), explicit weights finite, non-negative, not all zero, their
    /// sum within [`MIN_WEIGHT_SUM`]..=[`MAX_WEIGHT_SUM`] and every non-zero weight at least
    /// [`MIN_WEIGHT_FRACTION`] of the sum.
    pub fn validate(&self) -> Result<(), String> {
        let check_p = |p: f64| {
            if (0.0..=1.0).contains(&p) {
                Ok(())
            } else {
                Err(format!(
                    "probability p = {} is not between 0 and 1",
                    short(p)
                ))
            }
        };
        match self {
            Ordering::Random | Ordering::Perfect | Ordering::StronglyOrdered => Ok(()),
            Ordering::FirstBest { p } => check_p(*p),
            Ordering::Geometric { p } => {
                check_p(*p)?;
                if *p < MIN_WEIGHT_SUM {
                    return Err(format!(
                        "geometric ordering needs p >= {MIN_WEIGHT_SUM:e}, got {}",
                        short(*p)
                    ));
                }
                Ok(())
            }
            Ordering::Weights(v) => {
                if v.is_empty() {
                    return Err("Weights lists no weight".into());
                }
                if let Some((i, x)) = v
                    .iter()
                    .enumerate()
                    .find(|(_, x)| !x.is_finite() || **x < 0.0)
                {
                    return Err(format!(
                        "weight {} is {x}: weights must be finite and non-negative",
                        i + 1
                    ));
                }
                let sum: f64 = v.iter().sum();
                if sum == 0.0 {
                    return Err("weights must not all be zero".into());
                }
                if !(MIN_WEIGHT_SUM..=MAX_WEIGHT_SUM).contains(&sum) {
                    return Err(format!(
                        "the weights add up to {sum:e}; the sum must be between {MIN_WEIGHT_SUM:e} and {MAX_WEIGHT_SUM:e} (scale them)"
                    ));
                }
                if let Some((i, x)) = v
                    .iter()
                    .enumerate()
                    .find(|(_, x)| **x > 0.0 && **x < MIN_WEIGHT_FRACTION * sum)
                {
                    return Err(format!(
                        "weight {} ({x:e}) is below {MIN_WEIGHT_FRACTION:e} of the sum ({sum:e}): it would almost never be drawn; write 0",
                        i + 1
                    ));
                }
                Ok(())
            }
        }
    }

    /// Short tag for results and legends: `random`, `perfect`, `first_best(0.6)`,
    /// `geometric(0.3)`, `weights(70 5 5 5)` (every weight, so distinct weights get distinct tags;
    /// spaces, not commas, so the tag needs no quoting in CSV files).
    pub fn label(&self) -> String {
        match self {
            Ordering::Random => "random".into(),
            Ordering::Perfect => "perfect".into(),
            Ordering::StronglyOrdered => "strongly_ordered".into(),
            Ordering::FirstBest { p } => format!("first_best({})", short(*p)),
            Ordering::Geometric { p } => format!("geometric({})", short(*p)),
            Ordering::Weights(w) => {
                let list: Vec<String> = w.iter().map(|x| short(*x)).collect();
                format!("weights({})", list.join(" "))
            }
        }
    }

    /// The weights for `width` successors, or a reason they are impossible.
    pub fn weights(&self, width: usize) -> Result<Vec<f64>, String> {
        if width == 0 {
            return Err("width must be at least 1".into());
        }
        self.validate()?;
        let w = match self {
            Ordering::Random => vec![1.0; width],
            Ordering::Perfect => {
                let mut v = vec![0.0; width];
                v[0] = 1.0;
                v
            }
            Ordering::FirstBest { p } => {
                if width == 1 {
                    vec![1.0]
                } else {
                    let rest = (1.0 - p) / (width - 1) as f64;
                    let mut v = vec![rest; width];
                    v[0] = *p;
                    v
                }
            }
            Ordering::Geometric { p } => (0..width).map(|i| p * (1.0 - p).powi(i as i32)).collect(),
            Ordering::StronglyOrdered => {
                let quarter = width.div_ceil(4);
                let mut v = vec![0.0; width];
                v[0] = if width == 1 {
                    1.0
                } else if quarter == 1 {
                    0.9
                } else {
                    0.7
                };
                for x in &mut v[1..quarter] {
                    *x = 0.2 / (quarter - 1) as f64;
                }
                if quarter < width {
                    for x in &mut v[quarter..] {
                        *x = 0.1 / (width - quarter) as f64;
                    }
                }
                v
            }
            Ordering::Weights(v) => {
                if v.len() != width {
                    return Err(format!(
                        "{} weights given for a tree of width {width}",
                        v.len()
                    ));
                }
                v.clone()
            }
        };
        let sum = w.iter().sum::<f64>();
        if !(MIN_WEIGHT_SUM..=MAX_WEIGHT_SUM).contains(&sum) {
            return Err(format!(
                "the weights add up to {sum:e}, outside {MIN_WEIGHT_SUM:e}..={MAX_WEIGHT_SUM:e}"
            ));
        }
        Ok(w)
    }
}

/// A number as labels write it: the shortest text that reads back as the same number (`0.6`,
/// `70`), in exponent form when it is extreme (`5e-324`, `1e200`), never hundreds of digits.
fn short(x: f64) -> String {
    if x != 0.0 && !(1e-6..1e16).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// Parameters of a synthetic uniform tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SyntheticSpec {
    /// Successors per interior node (w).
    pub width: u32,
    /// Plies from the root to the leaves (d).
    pub depth: u32,
    /// How likely each successor is to be the best one.
    pub ordering: Ordering,
    /// Sibling values are drawn from a window this wide below the parent's value.
    pub value_spread: u32,
    /// Static-evaluation noise per ply short of the full depth (see the module doc).
    pub horizon_noise: u32,
}

/// A node of a synthetic tree: its key, its own minimax value and its ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynNode {
    /// The node's key, from which its random numbers are drawn (also its hash key).
    pub key: u64,
    /// The node's true minimax value (negamax view) in the full-depth tree.
    pub value: Value,
    /// Plies from the root (the root is 0).
    pub ply: u32,
}

/// A synthetic uniform tree (see the module doc).
///
/// ```
/// use algorithms::{negamax, GameTree, Ordering, SyntheticSpec, SyntheticTree};
/// let spec = SyntheticSpec { width: 3, depth: 4, ordering: Ordering::FirstBest { p: 0.6 },
///                            value_spread: 1000, horizon_noise: 50 };
/// let tree = SyntheticTree::new(spec, 7).unwrap();
/// let root = tree.root();
/// // The generator fixes the minimax value first; the leaves agree with it.
/// assert_eq!(negamax(&tree, &root, 4), root.value);
/// ```
#[derive(Clone, Debug)]
pub struct SyntheticTree {
    spec: SyntheticSpec,
    best: Option<BestDraw>,
    /// `mix64(i + GOLDEN)` for every move index `i`: the half of a successor's key
    /// `mix2(key, i) = mix64(key ^ mix64(i + GOLDEN))` that does not depend on the node.
    index_mix: Box<[u64]>,
    root: SynNode,
}

/// A uniform draw of `0..range` (`range` ≥ 1) from the SplitMix64 stream seeded with `seed`,
/// exactly as `rand` 0.9's `random_range` draws an `i32` range of `range` values from the start
/// of that stream (without the crate's "unbiased" feature): Canon's method on 32-bit words, the
/// first word's high half of `word × range`, corrected by a second word only when the low half
/// lies in the last `range − 1` values (probability below `range / 2³²`).
#[inline]
fn canon(seed: u64, range: u32) -> u32 {
    debug_assert!(range > 0);
    let m = (mix64(seed.wrapping_add(GOLDEN)) >> 32) * range as u64;
    let (result, low) = ((m >> 32) as u32, m as u32);
    if low > range.wrapping_neg() {
        canon_carry(seed, range, result, low)
    } else {
        result
    }
}

/// [`canon`]'s rare second word: adds 1 if the low half and the second word's high half carry.
#[cold]
#[inline(never)]
fn canon_carry(seed: u64, range: u32, result: u32, low: u32) -> u32 {
    let second = mix64(seed.wrapping_add(GOLDEN.wrapping_mul(2))) >> 32;
    let high = ((second * range as u64) >> 32) as u32;
    result + low.checked_add(high).is_none() as u32
}

/// Which successor holds a node's value: Walker's alias method with the tables `rand_distr` 0.5's
/// `WeightedAliasIndex::new` builds from the same weights, and its draw from the node's stream.
///
/// The crate draws a candidate `c` uniformly from `0..width` (Lemire's method on a 32-bit word)
/// and keeps it if a float `f(u) = (u / 2⁵²) · scale`, `u` the next word's high 52 bits, is below
/// the candidate's odds, otherwise takes its alias. `f` never decreases as `u` grows, so the test
/// holds exactly for `u` below a threshold, which [`BestDraw::new`] finds once per candidate by
/// bisection with the crate's own arithmetic; a draw then compares two integers.
#[derive(Clone, Debug)]
struct BestDraw {
    /// The number of successors.
    width: u32,
    /// Lemire's rejection zone: a word whose product with `width` has its low half below this
    /// is drawn again (`(2³² − width) mod width`).
    reject_below: u32,
    /// Per candidate: the threshold on `u` below which it is kept, and its alias.
    slots: Box<[(u64, u32)]>,
}

/// `rand_distr`'s pairwise sum of weights (`AliasableWeight::sum` for floats).
fn pairwise_sum(values: &[f64]) -> f64 {
    if values.len() <= 32 {
        values.iter().copied().sum()
    } else {
        let (a, b) = values.split_at(values.len() / 2);
        pairwise_sum(a) + pairwise_sum(b)
    }
}

impl BestDraw {
    /// The tables of `WeightedAliasIndex::new(weights)`, step by step, then the thresholds.
    fn new(weights: &[f64]) -> Result<BestDraw, String> {
        let n = weights.len();
        if n == 0 || n > u32::MAX as usize {
            return Err("weights: Weights sequence is empty/too long/unordered".into());
        }
        let n_f = n as f64;
        let max_weight = f64::MAX / n_f;
        if !weights.iter().all(|&w| 0.0 <= w && w <= max_weight) {
            return Err("weights: A weight is negative, too large or not a valid number".into());
        }
        let sum = pairwise_sum(weights);
        let sum = if sum > f64::MAX { f64::MAX } else { sum };
        if sum == 0.0 {
            return Err("weights: Not enough weights > zero".into());
        }
        let mut odds: Vec<f64> = weights
            .iter()
            .map(|&w| {
                let o = w * n_f;
                if o > f64::MAX {
                    f64::MAX
                } else {
                    o
                }
            })
            .collect();
        // Two stacks threaded through `aliases` (the crate's `Aliases`): the small and the big.
        const NONE: u32 = u32::MAX;
        let mut aliases = vec![0u32; n];
        let (mut smalls, mut bigs) = (NONE, NONE);
        for (i, &o) in odds.iter().enumerate() {
            if o < sum {
                aliases[i] = smalls;
                smalls = i as u32;
            } else {
                aliases[i] = bigs;
                bigs = i as u32;
            }
        }
        while smalls != NONE && bigs != NONE {
            let s = smalls;
            smalls = aliases[s as usize];
            let b = bigs;
            bigs = aliases[b as usize];
            aliases[s as usize] = b;
            odds[b as usize] = odds[b as usize] - sum + odds[s as usize];
            if odds[b as usize] < sum {
                aliases[b as usize] = smalls;
                smalls = b;
            } else {
                aliases[b as usize] = bigs;
                bigs = b;
            }
        }
        while smalls != NONE {
            let s = smalls;
            smalls = aliases[s as usize];
            odds[s as usize] = sum;
        }
        while bigs != NONE {
            let b = bigs;
            bigs = aliases[b as usize];
            odds[b as usize] = sum;
        }
        // `Uniform::new(0.0, sum)`: the scale shrinks until the largest draw stays below `sum`.
        let low = 0.0;
        let max_rand = 1.0 - f64::EPSILON;
        let mut scale = sum - low;
        while scale * max_rand + low > sum {
            scale = f64::from_bits(scale.to_bits() - 1);
        }
        // The crate's float from the high 52 bits `u` of a word, and its acceptance test.
        let keeps = |u: u64, odds: f64| {
            let value0_1 = f64::from_bits((1023 << 52) | u) - 1.0;
            value0_1 * scale + low < odds
        };
        let slots = odds
            .iter()
            .zip(&aliases)
            .map(|(&o, &alias)| {
                // The least u in 0..=2^52 that the test rejects (2^52: none is).
                let (mut lo, mut hi) = (0u64, 1u64 << 52);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if keeps(mid, o) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                (lo, alias)
            })
            .collect();
        let width = n as u32;
        Ok(BestDraw {
            width,
            reject_below: width.wrapping_neg() % width,
            slots,
        })
    }

    /// The successor drawn from the SplitMix64 stream seeded with `seed`.
    #[inline]
    fn sample(&self, seed: u64) -> usize {
        let mut state = seed;
        self.sample_words(|| {
            state = state.wrapping_add(GOLDEN);
            mix64(state)
        })
    }

    /// The successor drawn from a stream of 64-bit words (32-bit draws take a word's high half,
    /// as [`crate::rng::SplitMix64`] hands them out).
    #[inline]
    fn sample_words(&self, mut next: impl FnMut() -> u64) -> usize {
        let candidate = loop {
            let m = (next() >> 32) * self.width as u64;
            if m as u32 >= self.reject_below {
                break (m >> 32) as usize;
            }
        };
        let u = next() >> 12;
        let (keep_below, alias) = self.slots[candidate];
        if u < keep_below {
            candidate
        } else {
            alias as usize
        }
    }
}

const BEST_SALT: u64 = 0xB357_0000_0000_0001;
const NOISE_SALT: u64 = 0x4015_E000_0000_0002;

impl SyntheticTree {
    /// The tree of `spec` and `seed`, or what is wrong with `spec`.
    pub fn new(spec: SyntheticSpec, seed: u64) -> Result<Self, String> {
        if spec.depth == 0 {
            return Err("depth must be at least 1".into());
        }
        if spec.value_spread == 0 || spec.value_spread > 1_000_000 {
            return Err("value_spread must be between 1 and 1000000".into());
        }
        if spec.horizon_noise > 1_000_000 {
            return Err("horizon_noise must be at most 1000000".into());
        }
        let weights = spec.ordering.weights(spec.width as usize)?;
        // Perfect ordering needs no draw (and the alias table rejects zero-sum tails anyway).
        let best = if weights[1..].iter().all(|&x| x == 0.0) {
            None
        } else {
            Some(BestDraw::new(&weights)?)
        };
        let index_mix = (0..spec.width as u64)
            .map(|i| mix64(i.wrapping_add(GOLDEN)))
            .collect();
        // The seed is mixed with width and depth (section 4.1.1).
        let key = mix2(mix2(seed, spec.width as u64), spec.depth as u64);
        // Uniform on -s..=s, the first draw of the root's stream.
        let s = spec.value_spread;
        let value = canon(key, 2 * s + 1) as Value - s as Value;
        Ok(SyntheticTree {
            spec,
            best,
            index_mix,
            root: SynNode { key, value, ply: 0 },
        })
    }

    /// The parameters the tree was made from.
    pub fn spec(&self) -> &SyntheticSpec {
        &self.spec
    }

    /// Which successor of `node` holds its value (drawn from the node's key: the same every
    /// time; [`GameTree::moves`] draws it once per node).
    #[inline]
    pub fn best_child(&self, node: &SynNode) -> usize {
        match &self.best {
            None => 0,
            Some(draw) => draw.sample(node.key ^ BEST_SALT),
        }
    }
}

/// The moves of a synthetic node: how many, and which one leads to the best successor (drawn
/// once per node, when the moves are generated). No allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynMoves {
    width: u32,
    best: u32,
}

/// A move of a synthetic node: the successor's index in move order, and where it stands
/// relative to the best successor (which decides how its value is drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynMove {
    /// The successor's index in move order.
    pub index: u32,
    place: std::cmp::Ordering,
}

impl MoveList for SynMoves {
    type Move = SynMove;

    #[inline]
    fn len(&self) -> usize {
        self.width as usize
    }

    #[inline]
    fn get(&self, i: usize) -> SynMove {
        debug_assert!(i < self.width as usize, "move {i} of {}", self.width);
        let index = i as u32;
        SynMove {
            index,
            place: index.cmp(&self.best),
        }
    }
}

impl GameTree for SyntheticTree {
    type Node = SynNode;
    type Move = SynMove;
    type Moves = SynMoves;

    fn root(&self) -> SynNode {
        self.root
    }

    #[inline]
    fn moves(&self, node: &SynNode) -> SynMoves {
        if node.ply >= self.spec.depth {
            SynMoves { width: 0, best: 0 }
        } else {
            SynMoves {
                width: self.spec.width,
                best: self.best_child(node) as u32,
            }
        }
    }

    #[inline]
    fn play(&self, node: &SynNode, mv: SynMove) -> SynNode {
        // mix2(node.key, mv.index), its second half from the table.
        let key = mix64(node.key ^ self.index_mix[mv.index as usize]);
        let v = node.value;
        let s = self.spec.value_spread;
        // Values from the parent's view: left of the best strictly below v (v minus 1..=s),
        // right of it at most v (v minus 0..=s); one draw for both, without a branch.
        let left = (mv.place == std::cmp::Ordering::Less) as u32;
        let drop = left + canon(key, s + 1 - left);
        let x = if mv.place == std::cmp::Ordering::Equal {
            v
        } else {
            v - drop as Value
        };
        SynNode {
            key,
            value: -x,
            ply: node.ply + 1,
        }
    }

    #[inline]
    fn evaluate(&self, node: &SynNode) -> Eval {
        let short = self.spec.depth.saturating_sub(node.ply) as i64;
        let amp = self.spec.horizon_noise as i64 * short;
        let value = if amp == 0 {
            node.value
        } else {
            let r = mix64(node.key ^ NOISE_SALT);
            let noise = (r % (2 * amp as u64 + 1)) as i64 - amp;
            (node.value as i64 + noise) as Value
        };
        Eval {
            value,
            quiescence: 0,
        }
    }

    #[inline]
    fn key(&self, node: &SynNode) -> u64 {
        node.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strongly_ordered_is_seventy_percent_first_and_ninety_in_the_first_quarter() {
        for width in 1..=40usize {
            let v = Ordering::StronglyOrdered.weights(width).unwrap();
            let sum: f64 = v.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "w = {width}: sum {sum}");
            let quarter: f64 = v[..width.div_ceil(4)].iter().sum();
            assert!(v[0] >= 0.7 - 1e-12, "w = {width}");
            assert!(
                (quarter - if width == 1 { 1.0 } else { 0.9 }).abs() < 1e-12,
                "w = {width}"
            );
            // Non-increasing: a later successor is never likelier to be best.
            assert!(
                v.windows(2).all(|p| p[0] >= p[1] - 1e-15),
                "w = {width}: {v:?}"
            );
        }
        let v = Ordering::StronglyOrdered.weights(20).unwrap();
        assert_eq!(v[..5], [0.7, 0.05, 0.05, 0.05, 0.05]);
        assert_eq!(Ordering::StronglyOrdered.label(), "strongly_ordered");
    }

    #[test]
    fn weights_the_alias_table_cannot_use_are_refused_before_a_tree_is_built() {
        for (w, why) in [
            (vec![1e308, 1e308], "add up to inf"),
            (vec![0.0, 5e-324], "add up to 5e-324"),
            (vec![1e-250, 1e-250], "add up to 2e-250"),
            (vec![1.0, 1e-13], "below 1e-12 of the sum"),
            (vec![1.0, f64::NAN], "weight 2 is NaN"),
            (vec![-1.0, 2.0], "weight 1 is -1"),
            (vec![0.0, 0.0], "not all be zero"),
        ] {
            let e = Ordering::Weights(w.clone()).validate().unwrap_err();
            assert!(e.contains(why), "{w:?}: {e}");
            let spec = SyntheticSpec {
                width: 2,
                depth: 2,
                ordering: Ordering::Weights(w),
                value_spread: 1000,
                horizon_noise: 0,
            };
            assert!(SyntheticTree::new(spec, 1).is_err());
        }
        assert!(Ordering::Geometric { p: 1e-300 }.validate().is_err());
        assert!(Ordering::FirstBest { p: 1.5 }.validate().is_err());
        // Zero weights are fine (Perfect is one), and so is a weight 2e-12 of the sum.
        assert!(Ordering::Weights(vec![1.0, 0.0, 2e-12]).validate().is_ok());
    }

    #[test]
    fn every_ordering_has_its_own_label() {
        let labels: Vec<String> = [
            Ordering::Random,
            Ordering::Perfect,
            Ordering::FirstBest { p: 0.6 },
            Ordering::Geometric { p: 0.25 },
            Ordering::Weights(vec![70.0, 5.0, 5.0, 5.0]),
            Ordering::Weights(vec![5.0, 70.0, 5.0, 5.0]),
            Ordering::Weights(vec![0.5, 1e-3]),
            Ordering::FirstBest { p: 5e-324 },
            Ordering::Weights(vec![1e200, 1.0]),
        ]
        .iter()
        .map(Ordering::label)
        .collect();
        assert_eq!(
            labels,
            [
                "random",
                "perfect",
                "first_best(0.6)",
                "geometric(0.25)",
                "weights(70 5 5 5)",
                "weights(5 70 5 5)",
                "weights(0.5 0.001)",
                "first_best(5e-324)",
                "weights(1e200 1)"
            ]
        );
    }
}

/// The generator against its straightforward form on the crates' draws (`rand`'s `random_range`
/// and `rand_distr`'s `WeightedAliasIndex` over SplitMix64, as it was written before the draws
/// were spelled out): every node, move order, key and evaluation must be the same.
#[cfg(test)]
mod same_trees {
    use super::*;
    use crate::rng::SplitMix64;
    use rand::{Rng, RngCore, SeedableRng};
    use rand_distr::weighted::WeightedAliasIndex;
    use rand_distr::Distribution;

    /// The reference generator.
    struct Reference {
        spec: SyntheticSpec,
        best: Option<WeightedAliasIndex<f64>>,
        root: SynNode,
    }

    impl Reference {
        fn new(spec: SyntheticSpec, seed: u64) -> Reference {
            let weights = spec.ordering.weights(spec.width as usize).unwrap();
            let best = if weights[1..].iter().all(|&x| x == 0.0) {
                None
            } else {
                Some(WeightedAliasIndex::new(weights).unwrap())
            };
            let key = mix2(mix2(seed, spec.width as u64), spec.depth as u64);
            let s = spec.value_spread as i32;
            let value = SplitMix64::seed_from_u64(key).random_range(-s..=s);
            Reference {
                spec,
                best,
                root: SynNode { key, value, ply: 0 },
            }
        }

        fn best_child(&self, node: &SynNode) -> usize {
            match &self.best {
                None => 0,
                Some(dist) => dist.sample(&mut SplitMix64::seed_from_u64(node.key ^ BEST_SALT)),
            }
        }

        fn child(&self, node: &SynNode, i: usize, best: usize) -> SynNode {
            let key = mix2(node.key, i as u64);
            let v = node.value;
            let s = self.spec.value_spread as i32;
            let x = match i.cmp(&best) {
                std::cmp::Ordering::Equal => v,
                std::cmp::Ordering::Less => v - SplitMix64::seed_from_u64(key).random_range(1..=s),
                std::cmp::Ordering::Greater => {
                    v - SplitMix64::seed_from_u64(key).random_range(0..=s)
                }
            };
            SynNode {
                key,
                value: -x,
                ply: node.ply + 1,
            }
        }

        fn evaluate(&self, node: &SynNode) -> Value {
            let short = self.spec.depth.saturating_sub(node.ply) as i64;
            let amp = self.spec.horizon_noise as i64 * short;
            if amp == 0 {
                node.value
            } else {
                let r = mix64(node.key ^ NOISE_SALT);
                let noise = (r % (2 * amp as u64 + 1)) as i64 - amp;
                (node.value as i64 + noise) as Value
            }
        }
    }

    /// Checks `node` (reached the same way in both) and its successors, and returns them.
    fn successors(tree: &SyntheticTree, reference: &Reference, node: &SynNode) -> Vec<SynNode> {
        let at = format!("{:?}, node {node:?}", tree.spec());
        assert_eq!(tree.evaluate(node).value, reference.evaluate(node), "{at}");
        assert_eq!(tree.key(node), node.key, "{at}");
        let moves = tree.moves(node);
        if node.ply >= tree.spec().depth {
            assert!(moves.is_empty(), "{at}");
            return Vec::new();
        }
        let best = reference.best_child(node);
        assert_eq!(tree.best_child(node), best, "{at}: best successor");
        assert_eq!(moves.len(), tree.spec().width as usize, "{at}");
        (0..moves.len())
            .map(|i| {
                let mv = moves.get(i);
                assert_eq!(mv.index, i as u32, "{at}: move order");
                let child = tree.play(node, mv);
                assert_eq!(child, reference.child(node, i, best), "{at}: move {i}");
                child
            })
            .collect()
    }

    fn random_ordering(rng: &mut SplitMix64, width: usize) -> Ordering {
        match rng.random_range(0..7) {
            0 => Ordering::Random,
            1 => Ordering::Perfect,
            2 => Ordering::StronglyOrdered,
            3 => Ordering::FirstBest {
                p: [0.0, 1.0, rng.random()][rng.random_range(0..3)],
            },
            4 => Ordering::Geometric {
                p: rng.random_range(0.001..=1.0),
            },
            _ => {
                // Some zero (or negative zero) weights, the others over six decades, the whole
                // scaled by 10^-150..10^150.
                let scale = 10f64.powi(rng.random_range(-150..=150));
                let mut w: Vec<f64> = (0..width)
                    .map(|_| match rng.random_range(0..5) {
                        0 => 0.0,
                        1 => -0.0,
                        _ => rng.random_range(1e-3..1e3) * scale,
                    })
                    .collect();
                if w.iter().all(|&x| x == 0.0) {
                    w[rng.random_range(0..width)] = scale;
                }
                Ordering::Weights(w)
            }
        }
    }

    fn random_spec(rng: &mut SplitMix64) -> SyntheticSpec {
        let (width, depth) = if rng.random_bool(0.5) {
            (rng.random_range(1..=8), rng.random_range(1..=5))
        } else {
            (rng.random_range(9..=200), rng.random_range(1..=12))
        };
        SyntheticSpec {
            width,
            depth,
            ordering: random_ordering(rng, width as usize),
            value_spread: [1, 2, 1000, 1_000_000, rng.random_range(1..=1_000_000)]
                [rng.random_range(0..5)],
            horizon_noise: [0, 50, rng.random_range(0..=1_000_000)][rng.random_range(0..3)],
        }
    }

    #[test]
    fn every_node_is_the_one_the_crates_draws_give() {
        let mut rng = SplitMix64::seed_from_u64(19);
        let mut nodes = 0u64;
        for _ in 0..400 {
            let spec = random_spec(&mut rng);
            let seed = rng.next_u64();
            let tree = SyntheticTree::new(spec.clone(), seed).unwrap();
            let reference = Reference::new(spec.clone(), seed);
            assert_eq!(tree.root(), reference.root, "{spec:?}, seed {seed}");
            if (spec.width as u64)
                .checked_pow(spec.depth)
                .is_some_and(|n| n <= 5_000)
            {
                // The whole tree.
                let mut open = vec![tree.root()];
                while let Some(node) = open.pop() {
                    nodes += 1;
                    open.extend(successors(&tree, &reference, &node));
                }
            } else {
                // Paths from the root to the leaves, each node's successors all checked.
                for _ in 0..40 {
                    let mut node = tree.root();
                    loop {
                        nodes += 1;
                        let next = successors(&tree, &reference, &node);
                        if next.is_empty() {
                            break;
                        }
                        node = next[rng.random_range(0..next.len())];
                    }
                }
            }
        }
        assert!(nodes > 100_000, "only {nodes} nodes compared");
    }

    #[test]
    fn canon_draws_what_random_range_draws() {
        let mut rng = SplitMix64::seed_from_u64(2);
        let mut second_words = 0;
        for _ in 0..300_000 {
            let seed = rng.next_u64();
            let range: u32 = match rng.random_range(0..3) {
                0 => rng.random_range(1..=10),
                1 => rng.random_range(1..=2_000_001),
                _ => rng.random_range(1..=1 << 31),
            };
            let expected = SplitMix64::seed_from_u64(seed).random_range(0..=(range - 1) as i32);
            assert_eq!(
                canon(seed, range) as i32,
                expected,
                "seed {seed}, range {range}"
            );
            let low = ((mix64(seed.wrapping_add(GOLDEN)) >> 32) * range as u64) as u32;
            second_words += (low > range.wrapping_neg()) as u32;
        }
        // The second word is drawn with probability about range / 2^32: often for the widest.
        assert!(second_words > 10_000, "{second_words}");
    }

    /// A stream of given words, as a `rand` generator (32-bit draws take a word's high half).
    struct Words(std::vec::IntoIter<u64>);

    impl RngCore for Words {
        fn next_u32(&mut self) -> u32 {
            (self.next_u64() >> 32) as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.0.next().expect("the draw wanted another word")
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("the alias method draws words")
        }
    }

    /// At every candidate, the thresholds sit exactly where the crate's float test turns, and a
    /// rejected first word is rejected by both.
    #[test]
    fn best_draw_turns_where_the_crates_float_test_turns() {
        let mut rng = SplitMix64::seed_from_u64(3);
        let mut cases = 0;
        for round in 0..600 {
            let width = if round < 70 {
                round + 1
            } else {
                rng.random_range(1..=300)
            };
            let ordering = random_ordering(&mut rng, width);
            let weights = ordering.weights(width).unwrap();
            let ours = BestDraw::new(&weights).unwrap();
            let theirs = WeightedAliasIndex::new(weights.clone()).unwrap();
            let n = width as u64;
            for (c, &(keep_below, _)) in ours.slots.iter().enumerate() {
                // A word whose candidate is c: the largest with product's high half c.
                let x = (((c as u64 + 1) << 32) - 1) / n;
                assert_eq!((x * n) >> 32, c as u64);
                assert!((x * n) as u32 >= ours.reject_below);
                let last = (1u64 << 52) - 1;
                let mut us = vec![0, 1, last, rng.random_range(0..=last)];
                for d in [-1i64, 0, 1] {
                    us.push((keep_below as i64 + d).clamp(0, last as i64) as u64);
                }
                for u in us {
                    let mut words = vec![x << 32, u << 12];
                    if ours.reject_below > 0 {
                        // The word 0 falls in the rejection zone: both draw again.
                        words.insert(0, 0);
                    }
                    let expected = theirs.sample(&mut Words(words.clone().into_iter()));
                    let mut given = words.into_iter();
                    let got = ours.sample_words(|| given.next().unwrap());
                    assert_eq!(
                        got, expected,
                        "weights {weights:?}, candidate {c}, u {u} (kept below {keep_below})"
                    );
                    assert!(given.next().is_none(), "words left over");
                    cases += 1;
                }
            }
        }
        assert!(cases > 100_000, "{cases}");
    }
}
