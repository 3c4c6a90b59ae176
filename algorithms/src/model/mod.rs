//! The analytical model of Marsland & Popowich (1985), section VII, equations (1)–(14).
//!
//! The model prices the search of a **uniform game tree** of width `w` and depth `d` by principal
//! variation splitting (*pvsplit*, here *pmws*) on a **processor tree of length 1 and fanout `f`**:
//! one master and its `f - 1` children, so `f` is the number of processors *including* the master.
//! All `f` processors go down the first branch of every PV node together; on the way back up, the
//! other `w - 1` branches of each PV node are split equally among them and searched with a zero
//! window.
//!
//! Assumptions, as in the paper:
//! - the tree searched is the **minimal** (perfectly ordered) alpha-beta tree of eq. (1), except
//!   in eqs. (6)–(8), where a CUT node examines `1 + g` branches instead of one;
//! - every interior node costs `k` (create it and generate its moves); every leaf costs `e`;
//! - a message costs the processor `s` to set up; `t1`, `t2` are the transmission times of the
//!   `b1`-byte internode and `b2`-byte interlevel messages (the caller computes them from the
//!   message length and the link rate);
//! - all subtrees of equal depth and node type cost the same.
//!
//! # Units
//!
//! Every time (`k`, `e`, `s`, `t1`, `t2` and the results) is in one unit chosen by the caller.
//! The paper says processor cycles; gtsim passes integer nanoseconds, the unit of
//! `sim_core::SimTime`. So the equations that are integral in the paper, (1)–(4) and (13), are
//! computed **exactly** in integers and can be compared with `==` against a simulator's totals;
//! eq. (5) has a fractional term and returns an exact [`Rational`]. Quantities that the paper
//! itself makes real-valued (the average CUT-node branching `g`, the `f/2` average of idle
//! processors, the overhead ratios) are `f64`.
//!
//! Integer results are computed in `u128` with checked arithmetic and returned as `u64`;
//! a result that does not fit is [`ModelError::Overflow`], never a wrapped value or a panic.
//! Inputs that have no meaning (`w = 0`, `f = 0`, a zero baseline in a ratio) are errors too.
//!
//! # The equations
//!
//! | eq. | quantity | function |
//! |---|---|---|
//! | (1) | `N_d`, leaves of the minimal tree | [`n_d`] |
//! | — | `B_d`, zero-window search time | [`b_d`] |
//! | (2), (3) | `T_d`, uniprocessor minimal-tree time | [`t_d`], [`t_d_closed`] |
//! | (4) | `T_{d,f}`, *pvsplit* on `f` processors | [`t_df`] |
//! | (5) | `T_{d,f}` with internode and interlevel messages | [`t_df_comm`] |
//! | (6), (7) | `E_{d,g}`, leaf evaluation time with `1 + g` branches at CUT nodes | [`e_dg`] |
//! | (8) | closed form of `E_{d,g}` | [`e_dg_closed`] |
//! | (9) | search overhead | [`search_overhead`] |
//! | (10) | leaf time overhead | [`leaf_time_overhead`] |
//! | (11) | time overhead | [`time_overhead`] |
//! | (12) | time overhead of the model | [`time_overhead_model`], [`time_overhead_model_comm`] |
//! | — | communication overhead = time − search | [`communication_overhead`] |
//! | (13) | `L_d`, leaf time of a zero-window search | [`l_d`] |
//! | — | `I_{d,f}`, idle time under progressive deepening | [`i_df`] |
//! | — | synchronization overhead `I_{d,f} / E_{d,0}` | [`sync_overhead_model`] |
//! | (14) | its approximations | [`sync_overhead_odd`], [`sync_overhead_even`], [`sync_overhead_f_over_2w`], [`sync_overhead_fm1_over_w`] |
//!
//! # Where the printed paper is inconsistent, and what this module does
//!
//! 1. **Eq. (13) as printed, `L_d = w^⌈d/2⌉ e`, contradicts the two lines just above it** and
//!    eq. (14). Those lines say `L_{2m} = w^{m-1}·ALL = w^m e` and `L_{2m+1} = w^m·CUT = w^m e`,
//!    i.e. `L_d = w^⌊d/2⌋ e`; the two forms differ for every odd `d` (e.g. `L_1`: one leaf under a
//!    CUT node, `e`, not `w e`). The floor form is also the leaf part of `B_d` (`B_d` with `k = 0`)
//!    and the leaf count of a CUT-rooted minimal subtree, which is what `L_d` is defined to be.
//!    With the ceiling, `I_{d,f}/E_{d,0}` would tend to `3f/(2(w+1))` for odd `d` and to `f/4`
//!    (not `O(f/w)` at all) for even `d`, contradicting (14) and the sentence after it. [`l_d`]
//!    uses the floor; the tests show both limits.
//! 2. **Eqs. (6)–(8) are self-consistent.** `E_{1,g} = PV = w e` agrees with `N_1 = w`; with
//!    `E_{0,g} = e` (one leaf), eq. (6) read at `m = 0` gives `E_1 = e + (w-1) w^{-1} w e = w e`
//!    too. Eq. (8) is exactly the recurrence unrolled, and the paper's check
//!    `E_{2m+1,0} = e N_{2m+1}` holds. The even-depth claim also holds:
//!    `E_{2m,0} = (2w^m - 1) e = e N_{2m}`. The only wording slip is in the prose before (6):
//!    "`k + we` for the cost of an ALL leaf", while (6) takes `ALL = we`; `E` counts leaf
//!    evaluation only, so `ALL = we` is right for `E`, and `k` is charged in `T_d` instead.
//! 3. **Eq. (14)'s approximations follow from the definitions only to leading order.** With the
//!    floor form of `L_d`, summing the recurrence for `I_{d,f}` gives (`G_j = (w^j - 1)/(w - 1)`)
//!    `I_{2m+1,f} = (f/2) e [G_{m+1} + 4 Σ_{j=1}^{m} G_j]` and
//!    `I_{2m,f} = (f/2) e [3 G_m + 4 Σ_{j=1}^{m-1} G_j]`, so as `w` grows with `m ≥ 1` fixed
//!    `I/E_{2m+1,0} = f/(2(w+1)) · (1 + 5/w + O(w^-2))` and
//!    `I/E_{2m,0} = 3f/(4(w-1)) · (1 + 4/(3w) + O(w^-2))` (for `d = 2` exactly
//!    `3f/(4w-2)`). Both approximations are therefore the right limits, but for `d ≥ 3` they are
//!    low by about `5/w` (odd) and `4/(3w)` (even): at the paper's `w = 34`, `d = 5` the
//!    unapproximated ratio is `1335 f/80918 ≈ 0.0165 f` against `f/70 ≈ 0.0143 f` (+15.5%).
//! 4. **At `f = 1` the idle-time model is not zero.** `I_{d,1} = (1/2)[…] > 0` because `f/2` is the
//!    paper's average of "from 1 to `f - 1`" idle processors, which is `f/2` only for `f ≥ 2`.
//!    [`i_df`] and [`sync_overhead_model`] keep the printed `f/2`; compare them with measurements
//!    for `f ≥ 2` only. (On a uniform tree with equal subtree times, as eq. (4) assumes, the idle
//!    time at a PV node of height `h` is exactly `(f⌈(w-1)/f⌉ - (w-1)) B_{h-1}`; `f/2` is the
//!    paper's allowance for variable subtree times.)
//! 5. **What eq. (5) charges**, to keep in mind when comparing with a simulator: one `s + t1` per
//!    subtree handed to a child (Table I lists an internode message both before and after each
//!    alternative); `(f - 1)` interlevel messages after *every* PV node (section VI says only
//!    children that found a better line send one); one `t2` for every level (Table I says the
//!    interlevel message is 2 bytes per ply from the leaf, so `b2` grows with the PV node's
//!    height); and all message time on the critical path, none of it overlapped with search.
//!    This module implements (5) as printed.
//!
//! # Example
//!
//! Campbell's costs (`k = 0`, `e = 1`) on the paper's average width `w = 34`, five plies:
//!
//! ```
//! use algorithms::model::*;
//! assert_eq!(n_d(34, 5), Ok(40459)); // 34^3 + 34^2 - 1
//! assert_eq!(t_d(34, 5, 0, 1), Ok(40459)); // with k = 0, T_d = e N_d
//! assert_eq!(e_dg(34, 5, 0.0, 1), Ok(40459.0)); // and so is E_{d,0}
//! let t4 = t_df(34, 5, 4, 0, 1)?; // four processors
//! assert!(t4 < 40459);
//! let overhead = time_overhead_model(34, 5, 4, 0, 1)?; // eq. (12): f T_{d,f} / T_{d,1} - 1
//! assert!(overhead > 0.0 && overhead < 0.2);
//! let sync = sync_overhead_model(34, 5, 4)?; // I_{5,4} / E_{5,0}
//! assert!((sync - 4.0 * 1335.0 / (2.0 * 40459.0)).abs() < 1e-12);
//! # Ok::<(), ModelError>(())
//! ```

use std::cmp::Ordering;
use std::fmt;

/// Why a model quantity could not be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModelError {
    /// `w = 0`: a uniform tree needs at least one branch at every interior node.
    ZeroWidth,
    /// `f = 0`: the processor tree needs at least the master.
    ZeroProcessors,
    /// The exact integer result does not fit in a `u64`.
    Overflow,
    /// A ratio's denominator (the uniprocessor figure, or `w - 1` in eq. (14)) is zero.
    ZeroDenominator,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::ZeroWidth => write!(f, "tree width w must be at least 1"),
            ModelError::ZeroProcessors => {
                write!(f, "processor count f must be at least 1 (the master)")
            }
            ModelError::Overflow => write!(f, "model result does not fit in a u64"),
            ModelError::ZeroDenominator => write!(f, "ratio has a zero denominator"),
        }
    }
}

impl std::error::Error for ModelError {}

/// An exact non-negative rational number, always in lowest terms with a positive denominator.
///
/// Returned by eq. (5), whose internode term `(w-1)(f-1)/f (s + t1)` is fractional in general.
/// Because the form is canonical, `==` is numeric equality; `Ord` compares numerically.
///
/// ```
/// use algorithms::model::Rational;
/// let r = Rational::new(6, 4)?;
/// assert_eq!((r.numer(), r.denom()), (3, 2));
/// assert_eq!((r.floor(), r.ceil(), r.to_integer()), (1, 2, None));
/// assert_eq!(Rational::from(7).to_integer(), Some(7));
/// # Ok::<(), algorithms::model::ModelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    numer: u64,
    denom: u64,
}

impl Rational {
    /// `numer / denom` in lowest terms; [`ModelError::ZeroDenominator`] if `denom = 0`.
    pub fn new(numer: u64, denom: u64) -> Result<Self, ModelError> {
        Self::from_u128(u128::from(numer), u128::from(denom))
    }

    /// Reduces `numer / denom` and checks that both parts fit in a `u64`.
    fn from_u128(numer: u128, denom: u128) -> Result<Self, ModelError> {
        if denom == 0 {
            return Err(ModelError::ZeroDenominator);
        }
        let g = gcd(numer, denom);
        Ok(Rational {
            numer: to_u64(numer / g)?,
            denom: to_u64(denom / g)?,
        })
    }

    /// The numerator, in lowest terms.
    pub const fn numer(self) -> u64 {
        self.numer
    }

    /// The denominator, in lowest terms (at least 1).
    pub const fn denom(self) -> u64 {
        self.denom
    }

    /// The value as an integer when it is one (denominator 1), else `None`.
    pub fn to_integer(self) -> Option<u64> {
        (self.denom == 1).then_some(self.numer)
    }

    /// The largest integer not greater than the value.
    pub const fn floor(self) -> u64 {
        self.numer / self.denom
    }

    /// The smallest integer not less than the value.
    pub const fn ceil(self) -> u64 {
        self.numer.div_ceil(self.denom)
    }

    /// The nearest `f64` (for plots; use the exact parts for comparisons).
    pub fn to_f64(self) -> f64 {
        self.numer as f64 / self.denom as f64
    }
}

impl From<u64> for Rational {
    fn from(n: u64) -> Self {
        Rational { numer: n, denom: 1 }
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Self) -> Ordering {
        // Cross-multiplication is exact: each product of two u64s fits in a u128.
        (u128::from(self.numer) * u128::from(other.denom))
            .cmp(&(u128::from(other.numer) * u128::from(self.denom)))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Integer helpers: u128 with checked arithmetic, u64 at the boundary.

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn to_u64(x: u128) -> Result<u64, ModelError> {
    u64::try_from(x).map_err(|_| ModelError::Overflow)
}

fn add(a: u128, b: u128) -> Result<u128, ModelError> {
    a.checked_add(b).ok_or(ModelError::Overflow)
}

fn mul(a: u128, b: u128) -> Result<u128, ModelError> {
    a.checked_mul(b).ok_or(ModelError::Overflow)
}

fn pow(w: u64, exp: u32) -> Result<u128, ModelError> {
    u128::from(w).checked_pow(exp).ok_or(ModelError::Overflow)
}

/// `⌈d/2⌉` without overflowing at `d = u32::MAX`.
const fn ceil_half(d: u32) -> u32 {
    d / 2 + d % 2
}

fn check_width(w: u64) -> Result<(), ModelError> {
    if w == 0 {
        Err(ModelError::ZeroWidth)
    } else {
        Ok(())
    }
}

fn check_processors(f: u64) -> Result<(), ModelError> {
    if f == 0 {
        Err(ModelError::ZeroProcessors)
    } else {
        Ok(())
    }
}

/// A value known to exceed `u64::MAX` can only grow in these monotone sums: stop early.
fn bounded(x: u128) -> Result<u128, ModelError> {
    if x > u128::from(u64::MAX) {
        Err(ModelError::Overflow)
    } else {
        Ok(x)
    }
}

/// `B_0, B_1, B_2, …` in order; an item is `None` once the value has overflowed a `u128`
/// (which cannot happen for `w = 1`, where `B_d ≤ e + d k`).
struct ZeroWindowTimes {
    w: u128,
    k: u128,
    e: u128,
    i: u64,
    back2: Option<u128>,
    back1: Option<u128>,
}

fn zero_window_times(w: u64, k: u64, e: u64) -> ZeroWindowTimes {
    ZeroWindowTimes {
        w: u128::from(w),
        k: u128::from(k),
        e: u128::from(e),
        i: 0,
        back2: None,
        back1: None,
    }
}

impl Iterator for ZeroWindowTimes {
    type Item = Option<u128>;

    fn next(&mut self) -> Option<Option<u128>> {
        let b = match self.i {
            0 => Some(self.e),
            1 => Some(self.k + self.e),
            _ => self
                .back2
                .and_then(|b2| self.w.checked_mul(b2))
                .and_then(|x| x.checked_add(2 * self.k)),
        };
        self.i += 1;
        (self.back2, self.back1) = (self.back1, b);
        Some(b)
    }
}

// ---------------------------------------------------------------------------------------------
// Eqs. (1)–(5): node counts and search times.

/// Eq. (1): `N_d = w^⌈d/2⌉ + w^⌊d/2⌋ - 1`, the number of leaf nodes of the minimal alpha-beta tree
/// of width `w` and depth `d` (Knuth and Moore). `N_0 = 1`, `N_1 = w`, `N_2 = 2w - 1`.
///
/// ```
/// assert_eq!(algorithms::model::n_d(34, 5), Ok(40459));
/// ```
pub fn n_d(w: u64, d: u32) -> Result<u64, ModelError> {
    check_width(w)?;
    let n = add(pow(w, ceil_half(d))?, pow(w, d / 2)?)? - 1;
    to_u64(n)
}

/// `B_d`, the time of a zero-window search to depth `d` (defined with eq. (2)):
/// `B_0 = e`, `B_1 = k + e`, `B_d = 2k + w B_{d-2}` for `d > 1`.
///
/// The searched tree is the minimal subtree below a CUT node: the CUT node (`k`) searches one
/// ALL child (`k`), which searches all `w` of its CUT children to depth `d - 2`. It has
/// `w^⌊d/2⌋` leaves.
pub fn b_d(w: u64, d: u32, k: u64, e: u64) -> Result<u64, ModelError> {
    check_width(w)?;
    let b = zero_window_times(w, k, e)
        .nth(d as usize)
        .flatten()
        .ok_or(ModelError::Overflow)?;
    to_u64(b)
}

/// Eq. (2): `T_d = k + T_{d-1} + (w - 1) B_{d-1}`, `T_0 = e`: the time for one processor to
/// search the minimal tree of width `w` and depth `d` (the PV node, its PV subtree, and `w - 1`
/// zero-window searches of depth `d - 1`).
///
/// Every interior node costs `k` and every leaf `e`, so `T_d = k·(interior nodes) + e N_d`.
pub fn t_d(w: u64, d: u32, k: u64, e: u64) -> Result<u64, ModelError> {
    check_width(w)?;
    let w1 = u128::from(w - 1);
    let mut t = u128::from(e); // T_0
    for b in zero_window_times(w, k, e).take(d as usize) {
        let b = b.ok_or(ModelError::Overflow)?; // B_{j-1} for T_j
        t = bounded(add(add(u128::from(k), t)?, mul(w1, b)?)?)?;
    }
    to_u64(t)
}

/// Eq. (3): `T_d = d k + e + (w - 1) Σ_{i=0}^{d-1} B_i`, the closed form of eq. (2).
pub fn t_d_closed(w: u64, d: u32, k: u64, e: u64) -> Result<u64, ModelError> {
    check_width(w)?;
    let mut sum_b: u128 = 0;
    for b in zero_window_times(w, k, e).take(d as usize) {
        sum_b = bounded(add(sum_b, b.ok_or(ModelError::Overflow)?)?)?;
    }
    let dk = mul(u128::from(d), u128::from(k))?;
    let t = add(add(dk, u128::from(e))?, mul(u128::from(w - 1), sum_b)?)?;
    to_u64(t)
}

/// Eq. (4): `T_{d,f} = k + T_{d-1,f} + ⌈(w - 1)/f⌉ B_{d-1}` for `d > 0`, `T_{0,f} = e`: the time
/// for *pvsplit* on a processor tree of length 1 and fanout `f` (all `f` processors, master
/// included) to search the minimal tree, without message costs. `T_{d,1} = T_d`.
pub fn t_df(w: u64, d: u32, f: u64, k: u64, e: u64) -> Result<u64, ModelError> {
    check_width(w)?;
    check_processors(f)?;
    to_u64(t_df_raw(w, d, f, k, e)?)
}

fn t_df_raw(w: u64, d: u32, f: u64, k: u64, e: u64) -> Result<u128, ModelError> {
    let rounds = u128::from((w - 1).div_ceil(f)); // ⌈(w-1)/f⌉ zero-window searches per processor
    let mut t = u128::from(e); // T_{0,f}
    for b in zero_window_times(w, k, e).take(d as usize) {
        let b = b.ok_or(ModelError::Overflow)?; // B_{j-1} for T_{j,f}
        t = bounded(add(add(u128::from(k), t)?, mul(rounds, b)?)?)?;
    }
    Ok(t)
}

/// Eq. (5): eq. (4) plus *internode* and *interlevel* messages at every PV node:
/// `T_{d,f} = k + T_{d-1,f} + ⌈(w-1)/f⌉ B_{d-1} + (w-1)(f-1)/f (s + t1) + (f-1)(s + t2)`,
/// `T_{0,f} = e`.
///
/// The internode term is fractional in general, so the result is an exact [`Rational`]
/// (denominator a divisor of `f`); [`Rational::to_integer`] gives the integer when it is one, in
/// particular whenever `f` divides `d (w-1)(f-1)(s + t1)`. Since every level adds the same message
/// time, `T^{(5)}_{d,f} = T^{(4)}_{d,f} + d [(w-1)(f-1)(s + t1)/f + (f-1)(s + t2)]`.
/// With `s = t1 = t2 = 0`, or with `f = 1`, this is eq. (4).
///
/// `s` is the setup time of one message; `t1`, `t2` the transmission times of the `b1`-byte
/// internode and `b2`-byte interlevel messages. See the module notes for what (5) does and does
/// not charge.
#[allow(clippy::too_many_arguments)] // the paper's eight symbols, kept as separate arguments
pub fn t_df_comm(
    w: u64,
    d: u32,
    f: u64,
    k: u64,
    e: u64,
    s: u64,
    t1: u64,
    t2: u64,
) -> Result<Rational, ModelError> {
    check_width(w)?;
    check_processors(f)?;
    let (d128, w1, f128, f1) = (
        u128::from(d),
        u128::from(w - 1),
        u128::from(f),
        u128::from(f - 1),
    );
    let (st1, st2) = (
        u128::from(s) + u128::from(t1),
        u128::from(s) + u128::from(t2),
    );
    // f × (message time per PV node): (w-1)(f-1)(s+t1) + f(f-1)(s+t2).
    let per_node_times_f = add(mul(mul(w1, f1)?, st1)?, mul(mul(f128, f1)?, st2)?)?;
    let numer = add(
        mul(f128, t_df_raw(w, d, f, k, e)?)?,
        mul(d128, per_node_times_f)?,
    )?;
    Rational::from_u128(numer, f128)
}

// ---------------------------------------------------------------------------------------------
// Eqs. (6)–(8): leaf evaluation time with 1 + g branches at CUT nodes.

/// Eqs. (6) and (7): `E_{d,g}`, the time spent evaluating leaves when the minimal tree's CUT nodes
/// examine `1 + g` branches (`g` is an average, hence real):
///
/// - (6) `E_{2m+1,g} = E_{2m,g} + (w-1)(1+g)^m w^{m-1} · ALL`, with `ALL = w e`;
/// - (7) `E_{2m,g} = E_{2m-1,g} + (w-1)(1+g)^{m-1} w^{m-1} · CUT`, with `CUT = (1+g) e`;
/// - `E_{1,g} = PV = w e` (the paper's base), and `E_{0,g} = e` (one leaf; added here so that
///   every `d` is defined; (6) read at `m = 0` with `E_0 = e` also gives `w e`).
///
/// `ALL` and `CUT` are the leaf costs under a frontier node (one ply above the leaves) of that
/// type. With `g = 0`, `E_{d,0} = e N_d` for every `d`, odd and even.
pub fn e_dg(w: u64, d: u32, g: f64, e: u64) -> Result<f64, ModelError> {
    check_width(w)?;
    let (w, e, c) = (w as f64, e as f64, 1.0 + g);
    if d == 0 {
        return Ok(e);
    }
    let all = w * e;
    let cut = c * e;
    let mut total = all; // E_{1,g} = PV = w e
    for j in 2..=d {
        let m = (j / 2) as i32; // j ≤ u32::MAX, so m ≤ i32::MAX
        total += if j % 2 == 0 {
            (w - 1.0) * c.powi(m - 1) * w.powi(m - 1) * cut // (7), j = 2m
        } else {
            (w - 1.0) * c.powi(m) * w.powi(m - 1) * all // (6), j = 2m + 1
        };
    }
    Ok(total)
}

/// Eq. (8): the closed form of `E_{d,g}`, extended to even `d`:
///
/// `E_{d,g} = (w-1) e [Σ_{i=0}^{⌈d/2⌉-1} (1+g)^i w^i + Σ_{i=0}^{⌊d/2⌋-1} (1+g)^{i+1} w^i - 1] + w e`.
///
/// For odd `d = 2m + 1` this is eq. (8) exactly (sums to `m` and `m - 1`). The paper gives only
/// the odd case; for even `d = 2m`, unrolling (6)–(7) gives the same expression with the first
/// sum stopping at `m - 1`, which is what the bounds above say (derived here, not printed in the
/// paper). At `d = 0` both sums are empty and the value is `e`.
pub fn e_dg_closed(w: u64, d: u32, g: f64, e: u64) -> Result<f64, ModelError> {
    check_width(w)?;
    let (w, e, c) = (w as f64, e as f64, 1.0 + g);
    let first: f64 = (0..ceil_half(d)).map(|i| (c * w).powi(i as i32)).sum();
    let second: f64 = (0..d / 2)
        .map(|i| c.powi(i as i32 + 1) * w.powi(i as i32))
        .sum();
    Ok((w - 1.0) * e * (first + second - 1.0) + w * e)
}

// ---------------------------------------------------------------------------------------------
// Eqs. (9)–(12): overheads.

/// `(a - b) / b` with the subtraction done exactly; `a`, `b` are non-negative.
fn ratio_minus_one(a: u128, b: u128) -> Result<f64, ModelError> {
    if b == 0 {
        return Err(ModelError::ZeroDenominator);
    }
    Ok(if a >= b {
        (a - b) as f64 / b as f64
    } else {
        -((b - a) as f64 / b as f64)
    })
}

/// Eq. (9): search overhead `= leaves visited by f processors / leaves visited by one - 1`.
/// This is the form the paper's tables report. Negative when the `f` processors visit fewer
/// leaves (it happens: section VIII).
pub fn search_overhead(leaves_f: u64, leaves_1: u64) -> Result<f64, ModelError> {
    ratio_minus_one(u128::from(leaves_f), u128::from(leaves_1))
}

/// Eq. (10): leaf time overhead `= Σ time at leaf nodes by the f processors / time at leaf
/// nodes by one processor - 1`. The caller sums the leaf time over all `f` processors.
pub fn leaf_time_overhead(leaf_time_f: u64, leaf_time_1: u64) -> Result<f64, ModelError> {
    ratio_minus_one(u128::from(leaf_time_f), u128::from(leaf_time_1))
}

/// Eq. (11): time (total) overhead `= f × time taken by f processors / time taken by one - 1`,
/// from elapsed times.
pub fn time_overhead(f: u64, time_f: u64, time_1: u64) -> Result<f64, ModelError> {
    check_processors(f)?;
    ratio_minus_one(u128::from(f) * u128::from(time_f), u128::from(time_1))
}

/// Eq. (12) with `T_{d,f}` from eq. (4): `f T_{d,f} / T_{d,1} - 1`, the time overhead of
/// *pvsplit* on the minimal tree (work repeated on the first path, and processors left without a
/// subtree when `f` does not divide `w - 1`).
pub fn time_overhead_model(w: u64, d: u32, f: u64, k: u64, e: u64) -> Result<f64, ModelError> {
    check_width(w)?;
    check_processors(f)?;
    let t_f = t_df_raw(w, d, f, k, e)?;
    let t_1 = t_df_raw(w, d, 1, k, e)?;
    ratio_minus_one(mul(u128::from(f), t_f)?, t_1)
}

/// Eq. (12) with `T_{d,f}` from eq. (5) (messages included). `T_{d,1}` from (5) is `T_d`: with
/// one processor no message is sent.
#[allow(clippy::too_many_arguments)] // the paper's eight symbols, kept as separate arguments
pub fn time_overhead_model_comm(
    w: u64,
    d: u32,
    f: u64,
    k: u64,
    e: u64,
    s: u64,
    t1: u64,
    t2: u64,
) -> Result<f64, ModelError> {
    let t_f = t_df_comm(w, d, f, k, e, s, t1, t2)?;
    let t_1 = t_df_raw(w, d, 1, k, e)?;
    // f (numer/denom) / t_1 - 1 = (f numer - denom t_1) / (denom t_1), exactly.
    ratio_minus_one(
        mul(u128::from(f), u128::from(t_f.numer()))?,
        mul(u128::from(t_f.denom()), t_1)?,
    )
}

/// Communication overhead `= time overhead - search overhead` (section VII-A): everything the
/// time overhead holds beyond the extra search, i.e. message passing and synchronization.
pub fn communication_overhead(time_overhead: f64, search_overhead: f64) -> f64 {
    time_overhead - search_overhead
}

// ---------------------------------------------------------------------------------------------
// Eq. (13), the idle time, and eq. (14): synchronization overhead.

/// Eq. (13), corrected: `L_d = w^⌊d/2⌋ e`, the time to evaluate the leaves of a zero-window
/// search to depth `d` (`B_d` with `k = 0`).
///
/// **Not `w^⌈d/2⌉ e` as eq. (13) is printed.** The paper's own lines before (13),
/// `L_{2m} = w^{m-1}·ALL = w^m e` and `L_{2m+1} = w^m·CUT = w^m e`, give the floor, and only the
/// floor makes eq. (14) come out (see the module notes). The two agree for even `d`.
pub fn l_d(w: u64, d: u32, e: u64) -> Result<u64, ModelError> {
    check_width(w)?;
    to_u64(mul(pow(w, d / 2)?, u128::from(e))?)
}

/// `I_{d,f}`, the processor time lost to synchronization under progressive deepening
/// (section VII-A):
///
/// `I_{d,f} = (f/2) [Σ_{i=0}^{d-1} L_i + Σ_{i=0}^{d-2} L_i] + I_{d-2,f}`.
///
/// Each PV node of height `h` loses `(f/2) L_{h-1}` (on average `f/2` processors wait for the
/// last zero-window search of depth `h - 1`); an iteration to depth `j` has PV nodes of heights
/// `1..=j`, losing `(f/2) Σ_{i=0}^{j-1} L_i`; the bracket is the last two iterations, `d` and
/// `d - 1`, and `I_{d-2,f}` the earlier ones. Unrolled:
/// `I_{d,f} = (f/2) Σ_{j=1}^{d} Σ_{i=0}^{j-1} L_i`.
///
/// Base cases: `I_{0,f} = 0` and `I_{-1,f} = 0` (no iteration, nothing lost), with empty sums
/// zero. Then `I_{1,f} = (f/2) L_0 = (f/2) e`: the one PV node (the root) of a one-ply search
/// shares out `w - 1` leaves and `f/2` processors wait one leaf evaluation, which is right.
/// `L` is the floor form of [`l_d`]. At `f = 1` the value is not zero (module note 4).
pub fn i_df(w: u64, d: u32, f: u64, e: u64) -> Result<f64, ModelError> {
    check_width(w)?;
    check_processors(f)?;
    let (wf, ef, half_f) = (w as f64, e as f64, f as f64 / 2.0);
    let l = |i: u32| wf.powi((i / 2) as i32) * ef; // L_i, floor form
    let (mut s_back2, mut s_back1) = (0.0, l(0)); // S_{j-2}, S_{j-1}, S_n = Σ_{i=0}^{n} L_i
    let (mut i_back2, mut i_back1) = (0.0, 0.0); // I_{j-2,f}, I_{j-1,f}
    for j in 1..=d {
        let i_j = half_f * (s_back1 + s_back2) + i_back2;
        (s_back2, s_back1) = (s_back1, s_back1 + l(j));
        (i_back2, i_back1) = (i_back1, i_j);
    }
    Ok(i_back1)
}

/// Synchronization overhead as the paper defines it before approximating:
/// `I_{d,f} / E_{d,0}` (multiprocessor idle time over uniprocessor leaf search time, with
/// `E_{d,0}` standing in for `E_{d,g}` because the final subtrees are zero-window searches).
///
/// `e` cancels (both are proportional to it), so it is not an argument.
pub fn sync_overhead_model(w: u64, d: u32, f: u64) -> Result<f64, ModelError> {
    Ok(i_df(w, d, f, 1)? / e_dg(w, d, 0.0, 1)?)
}

fn check_approx(w: u64, f: u64) -> Result<(f64, f64), ModelError> {
    check_width(w)?;
    check_processors(f)?;
    Ok((w as f64, f as f64))
}

/// Eq. (14), odd-ply searches: synchronization overhead `≈ f / (2(w + 1))`.
///
/// The leading term of [`sync_overhead_model`] for odd `d` as `w` grows; for `d ≥ 3` the model
/// is higher by a factor of about `1 + 5/w` (module note 3).
pub fn sync_overhead_odd(w: u64, f: u64) -> Result<f64, ModelError> {
    let (w, f) = check_approx(w, f)?;
    Ok(f / (2.0 * (w + 1.0)))
}

/// Section VII-A, even-ply searches: synchronization overhead `≈ 3f / (4(w - 1))`
/// ([`ModelError::ZeroDenominator`] for `w = 1`).
///
/// The leading term of [`sync_overhead_model`] for even `d` as `w` grows; for `d ≥ 4` the model
/// is higher by a factor of about `1 + 4/(3w)` (module note 3).
pub fn sync_overhead_even(w: u64, f: u64) -> Result<f64, ModelError> {
    let (w, f) = check_approx(w, f)?;
    if w == 1.0 {
        return Err(ModelError::ZeroDenominator);
    }
    Ok(3.0 * f / (4.0 * (w - 1.0)))
}

/// Section VIII: `f / 2w`, the form of (14) that Fig. 7 plots for `w = 34`.
pub fn sync_overhead_f_over_2w(w: u64, f: u64) -> Result<f64, ModelError> {
    let (w, f) = check_approx(w, f)?;
    Ok(f / (2.0 * w))
}

/// Section VIII: `(f - 1) / w`, the authors' suspected better estimate, since in practice
/// `f - 1` processors are often idle waiting for one big search.
pub fn sync_overhead_fm1_over_w(w: u64, f: u64) -> Result<f64, ModelError> {
    let (w, f) = check_approx(w, f)?;
    Ok((f - 1.0) / w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's node types in the minimal tree.
    #[derive(Clone, Copy)]
    enum Kind {
        Pv,
        Cut,
        All,
    }

    /// (interior nodes, leaves) below a node of `kind` with `depth` plies to go, when CUT nodes
    /// search `cut` branches: PV → one PV child then `w - 1` CUT; CUT → `cut` ALL; ALL → `w` CUT.
    fn count(kind: Kind, w: u64, depth: u32, cut: u64) -> (u64, u64) {
        if depth == 0 {
            return (0, 1);
        }
        let children: Vec<(Kind, u64)> = match kind {
            Kind::Pv => vec![(Kind::Pv, 1), (Kind::Cut, w - 1)],
            Kind::Cut => vec![(Kind::All, cut)],
            Kind::All => vec![(Kind::Cut, w)],
        };
        let (mut interior, mut leaves) = (1, 0);
        for (child, times) in children {
            let (i, l) = count(child, w, depth - 1, cut);
            interior += times * i;
            leaves += times * l;
        }
        (interior, leaves)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn n_d_hand_values() {
        // N_5 for w = 34: 34^3 + 34^2 - 1 = 39304 + 1156 - 1 = 40459.
        assert_eq!(n_d(34, 5), Ok(40459));
        // d = 0: 1 + 1 - 1; d = 1: w + 1 - 1; d = 2: w + w - 1.
        assert_eq!(n_d(7, 0), Ok(1));
        assert_eq!(n_d(7, 1), Ok(7));
        assert_eq!(n_d(7, 2), Ok(13));
        assert_eq!(n_d(0, 3), Err(ModelError::ZeroWidth));
    }

    #[test]
    fn n_d_range() {
        // 2^63 + 2^62 - 1 fits; 2^64 + 2^63 - 1 does not.
        assert_eq!(n_d(2, 125), Ok((1 << 63) + (1 << 62) - 1));
        assert_eq!(n_d(2, 127), Err(ModelError::Overflow));
        assert_eq!(n_d(2, u32::MAX), Err(ModelError::Overflow));
        // w^1 + w^0 - 1 = w: the u128 intermediate w + 1 does not overflow.
        assert_eq!(n_d(u64::MAX, 1), Ok(u64::MAX));
    }

    #[test]
    fn counts_match_the_minimal_tree() {
        for w in 1..=5 {
            for d in 0..=7 {
                let (interior, leaves) = count(Kind::Pv, w, d, 1);
                assert_eq!(n_d(w, d), Ok(leaves), "N_{d}, w = {w}");
                // T_d = k (interior nodes) + e N_d.
                assert_eq!(t_d(w, d, 1, 0), Ok(interior));
                assert_eq!(t_d(w, d, 0, 1), Ok(leaves));
                assert_eq!(t_d(w, d, 3, 10), Ok(3 * interior + 10 * leaves));
                // B_d is the minimal subtree below a CUT node.
                let (bi, bl) = count(Kind::Cut, w, d, 1);
                assert_eq!(b_d(w, d, 3, 10), Ok(3 * bi + 10 * bl));
                assert_eq!(bl, w.pow(d / 2));
            }
        }
    }

    #[test]
    fn b_and_t_hand_values() {
        // w = 2, d = 3, k = 1, e = 10:
        //   B_0 = e = 10, B_1 = k + e = 11, B_2 = 2k + w B_0 = 2 + 20 = 22,
        //   B_3 = 2k + w B_1 = 2 + 22 = 24.
        //   T_0 = 10, T_1 = k + T_0 + (w-1) B_0 = 1 + 10 + 10 = 21,
        //   T_2 = 1 + 21 + 11 = 33, T_3 = 1 + 33 + 22 = 56.
        //   Eq. (3): 3k + e + (B_0 + B_1 + B_2) = 3 + 10 + 43 = 56.
        //   The tree: 6 interior nodes (1 + 2 + 3 by level) and N_3 = 4 + 2 - 1 = 5 leaves.
        let b: Vec<_> = (0..4).map(|d| b_d(2, d, 1, 10)).collect();
        assert_eq!(b, vec![Ok(10), Ok(11), Ok(22), Ok(24)]);
        let t: Vec<_> = (0..4).map(|d| t_d(2, d, 1, 10)).collect();
        assert_eq!(t, vec![Ok(10), Ok(21), Ok(33), Ok(56)]);
        assert_eq!(t_d_closed(2, 3, 1, 10), Ok(56));
        assert_eq!(6 + 5 * 10, 56);
    }

    #[test]
    fn eq2_equals_eq3() {
        for w in 1..=40 {
            for d in 0..=12 {
                for (k, e) in [(0, 1), (1, 10), (7, 3), (5, 0)] {
                    assert_eq!(t_d(w, d, k, e), t_d_closed(w, d, k, e), "w {w} d {d}");
                }
            }
        }
        // Both report overflow alike.
        assert_eq!(t_d(1000, 20, 1, 1), Err(ModelError::Overflow));
        assert_eq!(t_d_closed(1000, 20, 1, 1), Err(ModelError::Overflow));
        // w = 1: a path; T_d = d k + e.
        assert_eq!(t_d(1, 100_000, 2, 5), Ok(200_005));
    }

    #[test]
    fn t_df_hand_values() {
        // w = 5, d = 2, k = 1, e = 10; B_0 = 10, B_1 = 11.
        //   f = 1: T_1 = 1 + 10 + 4·10 = 51, T_2 = 1 + 51 + 4·11 = 96.
        //   f = 2: ⌈4/2⌉ = 2: T_{1,2} = 1 + 10 + 2·10 = 31, T_{2,2} = 1 + 31 + 2·11 = 54.
        //   f = 3: ⌈4/3⌉ = 2: the same, 54.
        //   f = 4: ⌈4/4⌉ = 1: T_{1,4} = 1 + 10 + 10 = 21, T_{2,4} = 1 + 21 + 11 = 33.
        //   f = 9: ⌈4/9⌉ = 1: 33 again.
        assert_eq!(t_df(5, 2, 1, 1, 10), Ok(96));
        assert_eq!(t_df(5, 2, 2, 1, 10), Ok(54));
        assert_eq!(t_df(5, 2, 3, 1, 10), Ok(54));
        assert_eq!(t_df(5, 2, 4, 1, 10), Ok(33));
        assert_eq!(t_df(5, 2, 9, 1, 10), Ok(33));
        assert_eq!(t_df(5, 2, 0, 1, 10), Err(ModelError::ZeroProcessors));
        // Eq. (12): 2·54/96 - 1 = 0.125; 4·33/96 - 1 = 0.375.
        assert_eq!(time_overhead_model(5, 2, 2, 1, 10), Ok(0.125));
        assert_eq!(time_overhead_model(5, 2, 4, 1, 10), Ok(0.375));
    }

    #[test]
    fn t_d1_is_t_d_and_t_df_is_monotone_in_f() {
        for w in 1..=12 {
            for d in 0..=7 {
                for (k, e) in [(0, 1), (1, 10), (7, 3)] {
                    let t = t_d(w, d, k, e);
                    assert_eq!(t_df(w, d, 1, k, e), t);
                    let mut prev = t.unwrap();
                    for f in 2..=15 {
                        let tf = t_df(w, d, f, k, e).unwrap();
                        assert!(tf <= prev, "w {w} d {d} f {f}");
                        prev = tf;
                    }
                }
            }
        }
    }

    #[test]
    fn eq5_hand_values() {
        // w = 5, d = 2, k = 1, e = 10, s = 3, t1 = 4, t2 = 2 (s + t1 = 7, s + t2 = 5).
        //   f = 2: per PV node (w-1)(f-1)/f·7 + (f-1)·5 = 4·1/2·7 + 5 = 19;
        //          T = T^{(4)}_{2,2} + 2·19 = 54 + 38 = 92.
        //   f = 3: per PV node 4·2/3·7 + 2·5 = 56/3 + 10 = 86/3;
        //          T = 54 + 2·86/3 = (162 + 172)/3 = 334/3.
        let t2 = t_df_comm(5, 2, 2, 1, 10, 3, 4, 2).unwrap();
        assert_eq!(t2.to_integer(), Some(92));
        let t3 = t_df_comm(5, 2, 3, 1, 10, 3, 4, 2).unwrap();
        assert_eq!((t3.numer(), t3.denom()), (334, 3));
        assert_eq!(t3.to_integer(), None);
        assert_eq!((t3.floor(), t3.ceil()), (111, 112));
        assert_eq!(t3.to_string(), "334/3");
        // Eq. (12) with (5): 3·(334/3)/96 - 1 = 334/96 - 1 = 238/96.
        let o = time_overhead_model_comm(5, 2, 3, 1, 10, 3, 4, 2).unwrap();
        assert!(close(o, 238.0 / 96.0));
    }

    #[test]
    fn eq5_reduces_to_eq4() {
        for w in 1..=10 {
            for d in 0..=6 {
                for f in 1..=8 {
                    let t4 = t_df(w, d, f, 2, 9).unwrap();
                    let t5 = t_df_comm(w, d, f, 2, 9, 0, 0, 0).unwrap();
                    assert_eq!(t5, Rational::from(t4));
                    // With f = 1 no messages are sent, whatever they would cost.
                    if f == 1 {
                        let t5 = t_df_comm(w, d, 1, 2, 9, 5, 6, 7).unwrap();
                        assert_eq!(t5.to_integer(), t_d(w, d, 2, 9).ok());
                    }
                    // Messages only add time.
                    assert!(t_df_comm(w, d, f, 2, 9, 5, 6, 7).unwrap() >= t5);
                    assert_eq!(
                        time_overhead_model_comm(w, d, f, 2, 9, 0, 0, 0),
                        time_overhead_model(w, d, f, 2, 9)
                    );
                }
            }
        }
    }

    #[test]
    fn rational_basics() {
        assert_eq!(Rational::new(1, 0), Err(ModelError::ZeroDenominator));
        assert_eq!(
            Rational::new(0, 5).map(|r| (r.numer(), r.denom())),
            Ok((0, 1))
        );
        assert_eq!(Rational::new(10, 4), Rational::new(5, 2));
        assert!(Rational::new(1, 3).unwrap() < Rational::new(1, 2).unwrap());
        assert!(Rational::from(2) > Rational::new(3, 2).unwrap());
        assert_eq!(Rational::from(7).to_string(), "7");
        assert!(close(Rational::new(1, 4).unwrap().to_f64(), 0.25));
    }

    #[test]
    fn e_dg_hand_values() {
        // w = 3, g = 1, e = 1 (CUT nodes search 2 branches):
        //   E_1 = PV = w e = 3.
        //   (7), m = 1: E_2 = E_1 + (w-1)(1+g)^0 w^0 CUT = 3 + 2·1·1·2 = 7.
        //   (6), m = 1: E_3 = E_2 + (w-1)(1+g)^1 w^0 ALL = 7 + 2·2·1·3 = 19.
        //   (8), m = 1: (w-1) e [(1 + 6) + 2 - 1] + w e = 2·8 + 3 = 19.
        //   Tree: the depth-2 PV subtree has 3 + 2 + 2 = 7 leaves; each of the root's two CUT
        //   children has 2 ALL children of 3 leaves, 12 in all; 7 + 12 = 19.
        assert_eq!(e_dg(3, 1, 1.0, 1), Ok(3.0));
        assert_eq!(e_dg(3, 2, 1.0, 1), Ok(7.0));
        assert_eq!(e_dg(3, 3, 1.0, 1), Ok(19.0));
        assert_eq!(e_dg_closed(3, 3, 1.0, 1), Ok(19.0));
        assert_eq!(e_dg(3, 0, 1.0, 5), Ok(5.0));
        assert_eq!(e_dg_closed(3, 0, 1.0, 5), Ok(5.0));
    }

    #[test]
    fn e_dg_counts_the_tree_with_1_plus_g_branches_at_cut_nodes() {
        for w in 1..=5 {
            for d in 0..=7 {
                for g in 0..=2 {
                    let (_, leaves) = count(Kind::Pv, w, d, 1 + g);
                    let want = (7 * leaves) as f64;
                    assert_eq!(e_dg(w, d, g as f64, 7), Ok(want), "w {w} d {d} g {g}");
                    assert_eq!(e_dg_closed(w, d, g as f64, 7), Ok(want));
                }
            }
        }
    }

    #[test]
    fn eq8_equals_the_recurrence() {
        for w in 1..=40 {
            for d in 0..=11 {
                for g in [0.0, 0.25, 0.5, 1.0, 2.5] {
                    let r = e_dg(w, d, g, 3).unwrap();
                    let c = e_dg_closed(w, d, g, 3).unwrap();
                    assert!(close(r, c), "w {w} d {d} g {g}: {r} vs {c}");
                }
            }
        }
    }

    #[test]
    fn paper_check_e_equals_e_n_odd_and_even() {
        // E_{2m+1,0} = e N_{2m+1} (the paper's check) and E_{2m,0} = e N_{2m} (its claim).
        for w in [1, 2, 3, 10, 34, 100] {
            for m in 0..=4 {
                for d in [2 * m, 2 * m + 1] {
                    let want = (5 * n_d(w, d).unwrap()) as f64;
                    assert_eq!(e_dg_closed(w, d, 0.0, 5), Ok(want), "w {w} d {d}");
                    assert_eq!(e_dg(w, d, 0.0, 5), Ok(want));
                }
                // Even depth: (2 w^m - 1) e.
                assert_eq!(n_d(w, 2 * m), Ok(2 * w.pow(m) - 1));
            }
        }
    }

    #[test]
    fn l_d_is_the_leaf_time_of_b_d() {
        // L_0..L_5 for w = 34, e = 1: 1, 1, 34, 34, 1156, 1156.
        let l: Vec<_> = (0..6).map(|d| l_d(34, d, 1)).collect();
        assert_eq!(l, vec![Ok(1), Ok(1), Ok(34), Ok(34), Ok(1156), Ok(1156)]);
        for w in 1..=20 {
            for d in 0..=9 {
                assert_eq!(l_d(w, d, 6), b_d(w, d, 0, 6));
            }
        }
    }

    #[test]
    fn i_df_hand_values() {
        // w = 34, e = 1, f = 2 (so f/2 = 1); L_0..L_5 = 1, 1, 34, 34, 1156, 1156;
        // partial sums S_0..S_5 = 1, 2, 36, 70, 1226, 2382.
        //   I_1 = S_0 + (empty) + I_{-1} = 1.
        //   I_2 = S_1 + S_0 + I_0 = 2 + 1 = 3.
        //   I_3 = S_2 + S_1 + I_1 = 36 + 2 + 1 = 39.
        //   I_4 = S_3 + S_2 + I_2 = 70 + 36 + 3 = 109.
        //   I_5 = S_4 + S_3 + I_3 = 1226 + 70 + 39 = 1335.
        //   I_6 = S_5 + S_4 + I_4 = 2382 + 1226 + 109 = 3717.
        let i: Vec<_> = (0..7).map(|d| i_df(34, d, 2, 1)).collect();
        let want = [0.0, 1.0, 3.0, 39.0, 109.0, 1335.0, 3717.0];
        assert_eq!(i, want.map(Ok).to_vec());
        // I scales with f/2 and with e.
        assert_eq!(i_df(34, 5, 4, 3), Ok(2.0 * 1335.0 * 3.0));
        // Sync overhead at w = 34, d = 5: 1335 f / (2·40459); d = 6: 3717 f / (2·78607).
        assert!(close(
            sync_overhead_model(34, 5, 4).unwrap(),
            4.0 * 1335.0 / 80918.0
        ));
        assert!(close(
            sync_overhead_model(34, 6, 4).unwrap(),
            4.0 * 3717.0 / 157214.0
        ));
    }

    #[test]
    fn i_df_unrolled_and_closed_forms() {
        for w in 1..=12_u64 {
            for d in 0..=9 {
                // I_{d,f} = (f/2) Σ_{j=1}^{d} Σ_{i=0}^{j-1} L_i: every iteration 1..=d.
                let mut sum = 0;
                for j in 1..=d {
                    sum += (0..j).map(|i| l_d(w, i, 1).unwrap()).sum::<u64>();
                }
                assert_eq!(i_df(w, d, 2, 1), Ok(sum as f64), "w {w} d {d}");
                // The closed forms behind module note 3, G_j = 1 + w + … + w^{j-1}.
                let g = |j: u32| (0..j).map(|i| w.pow(i)).sum::<u64>();
                let m = d / 2;
                let closed = if d % 2 == 1 {
                    g(m + 1) + 4 * (1..=m).map(g).sum::<u64>()
                } else if m == 0 {
                    0
                } else {
                    3 * g(m) + 4 * (1..m).map(g).sum::<u64>()
                };
                assert_eq!(sum, closed, "w {w} d {d}");
            }
        }
    }

    #[test]
    fn sync_overhead_approximations() {
        assert!(close(sync_overhead_odd(34, 4).unwrap(), 4.0 / 70.0));
        assert!(close(sync_overhead_even(34, 4).unwrap(), 12.0 / 132.0));
        assert!(close(sync_overhead_f_over_2w(34, 4).unwrap(), 4.0 / 68.0));
        assert!(close(sync_overhead_fm1_over_w(34, 4).unwrap(), 3.0 / 34.0));
        assert_eq!(sync_overhead_even(1, 4), Err(ModelError::ZeroDenominator));
        assert_eq!(sync_overhead_odd(0, 4), Err(ModelError::ZeroWidth));
        assert_eq!(sync_overhead_odd(3, 0), Err(ModelError::ZeroProcessors));
        // d = 1: I_1 / E_1 = (f/2) e / (w e) = f/(2w) exactly.
        assert!(close(
            sync_overhead_model(34, 1, 4).unwrap(),
            sync_overhead_f_over_2w(34, 4).unwrap()
        ));
        // d = 2: (3f/2) / (2w - 1) = 3f/(4w - 2).
        assert!(close(sync_overhead_model(34, 2, 4).unwrap(), 12.0 / 134.0));
    }

    #[test]
    fn sync_overhead_model_tends_to_eq14() {
        // Module note 3: the ratio model / approximation is 1 + 5/w + O(w^-2) for odd d ≥ 3 and
        // 1 + 4/(3w) + O(w^-2) for even d ≥ 4, so it tends to 1 as w grows.
        for w in [100_u64, 1_000, 10_000, 100_000] {
            let wf = w as f64;
            for f in [2, 4, 16] {
                for d in [3, 5, 7] {
                    let r =
                        sync_overhead_model(w, d, f).unwrap() / sync_overhead_odd(w, f).unwrap();
                    assert!(
                        (r - 1.0 - 5.0 / wf).abs() < 30.0 / (wf * wf),
                        "w {w} d {d}: {r}"
                    );
                }
                for d in [4, 6, 8] {
                    let r =
                        sync_overhead_model(w, d, f).unwrap() / sync_overhead_even(w, f).unwrap();
                    assert!(
                        (r - 1.0 - 4.0 / (3.0 * wf)).abs() < 30.0 / (wf * wf),
                        "w {w} d {d}: {r}"
                    );
                }
            }
        }
        // At the paper's w = 34, d = 5 the model is 15.5% above f/(2(w+1)).
        let r = sync_overhead_model(34, 5, 4).unwrap() / sync_overhead_odd(34, 4).unwrap();
        assert!((r - 1.155).abs() < 1e-3, "{r}");
    }

    #[test]
    fn eq13_as_printed_would_contradict_eq14() {
        // With L_d = w^⌈d/2⌉ e (eq. (13) as printed), I/E would tend to 3f/(2(w+1)) for odd d
        // and to f/4 for even d.
        let printed_i = |w: u64, d: u32, f: u64| -> f64 {
            let l = |i: u32| (w as f64).powi(ceil_half(i) as i32);
            let mut total = 0.0;
            for j in 1..=d {
                total += (0..j).map(l).sum::<f64>();
            }
            f as f64 / 2.0 * total
        };
        let (w, f) = (100_000_u64, 4);
        let e5 = e_dg(w, 5, 0.0, 1).unwrap();
        let e6 = e_dg(w, 6, 0.0, 1).unwrap();
        let odd = printed_i(w, 5, f) / e5 / (3.0 * f as f64 / (2.0 * (w as f64 + 1.0)));
        let even = printed_i(w, 6, f) / e6 / (f as f64 / 4.0);
        assert!((odd - 1.0).abs() < 1e-3, "{odd}");
        assert!((even - 1.0).abs() < 1e-3, "{even}");
    }

    #[test]
    fn measured_overheads() {
        // Table II, f = 2: 63268 vs 60065 leaves → 5.3% search overhead;
        // 942 s on 2 processors vs 1611 s on one → 2·942/1611 - 1 = 16.9% time overhead.
        let so = search_overhead(63268, 60065).unwrap();
        let to = time_overhead(2, 942, 1611).unwrap();
        assert!((so - 0.053).abs() < 5e-4);
        assert!((to - 0.169).abs() < 5e-4);
        assert!(close(communication_overhead(to, so), to - so));
        assert!(close(leaf_time_overhead(110, 100).unwrap(), 0.1));
        assert!(close(search_overhead(90, 100).unwrap(), -0.1));
        assert_eq!(search_overhead(5, 0), Err(ModelError::ZeroDenominator));
        assert_eq!(time_overhead(0, 5, 5), Err(ModelError::ZeroProcessors));
    }
}
