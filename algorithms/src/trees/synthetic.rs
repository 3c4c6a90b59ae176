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

use crate::trees::rng::{mix2, mix64, SplitMix64};
use crate::trees::{Eval, GameTree, MoveList, Value};
use rand::{Rng, SeedableRng};
use rand_distr::weighted::WeightedAliasIndex;
use rand_distr::Distribution;
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
    best: Option<WeightedAliasIndex<f64>>,
    root: SynNode,
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
            Some(WeightedAliasIndex::new(weights).map_err(|e| format!("weights: {e}"))?)
        };
        // The seed is mixed with width and depth (section 4.1.1).
        let key = mix2(mix2(seed, spec.width as u64), spec.depth as u64);
        let mut rng = SplitMix64::seed_from_u64(key);
        let s = spec.value_spread as i32;
        let value = rng.random_range(-s..=s);
        Ok(SyntheticTree {
            spec,
            best,
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
            Some(dist) => dist.sample(&mut SplitMix64::seed_from_u64(node.key ^ BEST_SALT)),
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
        let key = mix2(node.key, mv.index as u64);
        let v = node.value;
        let s = self.spec.value_spread as i32;
        // Values from the parent's view: left of the best strictly below v, right at most v.
        let x = match mv.place {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => v - SplitMix64::seed_from_u64(key).random_range(1..=s),
            std::cmp::Ordering::Greater => v - SplitMix64::seed_from_u64(key).random_range(0..=s),
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
