//! Simulated time: integer nanoseconds, never floats inside the engine.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, or a span of it, in integer nanoseconds.
///
/// The engine never uses floats for time, so a run is a pure function of its inputs.
///
/// ```
/// use sim_core::SimTime;
/// let t = SimTime::from_millis(3) + SimTime::from_micros(500);
/// assert_eq!(t.as_nanos(), 3_500_000);
/// assert_eq!(SimTime::transmit(4, 960).as_nanos(), 4_166_667); // ceil(4/960 s)
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SimTime(pub u64);

impl SimTime {
    /// Time zero, the start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// The largest representable time.
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// `ns` nanoseconds.
    pub const fn from_nanos(ns: u64) -> Self {
        SimTime(ns)
    }
    /// `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimTime(us * 1_000)
    }
    /// `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimTime(ms * 1_000_000)
    }
    /// `s` seconds.
    pub const fn from_secs(s: u64) -> Self {
        SimTime(s * 1_000_000_000)
    }
    /// The time in whole nanoseconds.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds as a float, for reports only (never fed back into the engine).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// Time to push `bytes` through a line of `rate` bytes per second, rounded up to the next
    /// whole nanosecond (a line cannot deliver early). `rate` must be positive.
    pub const fn transmit(bytes: u64, rate: u64) -> Self {
        // In 64 bits when the numerator fits (any message below 18 GB), else in 128: the same
        // quotient, without a 128-bit division on every message.
        if let Some(num) = bytes.checked_mul(1_000_000_000) {
            return SimTime(num.div_ceil(rate));
        }
        let num = bytes as u128 * 1_000_000_000u128;
        let r = rate as u128;
        SimTime(num.div_ceil(r) as u64)
    }
    /// `self + other`, or `None` past the largest representable time (about 584 years): the
    /// machine turns that into an error naming the run instead of wrapping around.
    pub const fn checked_add(self, other: SimTime) -> Option<SimTime> {
        match self.0.checked_add(other.0) {
            Some(t) => Some(SimTime(t)),
            None => None,
        }
    }
    /// `self - other`, or zero if `other` is later.
    pub fn saturating_sub(self, other: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(other.0))
    }
}

impl Add for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0 + rhs.0)
    }
}
impl AddAssign for SimTime {
    fn add_assign(&mut self, rhs: SimTime) {
        self.0 += rhs.0;
    }
}
impl Sub for SimTime {
    type Output = SimTime;
    fn sub(self, rhs: SimTime) -> SimTime {
        SimTime(self.0 - rhs.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6} s", self.as_secs_f64())
    }
}

/// Identifies a processor in a machine; processor 0 is the master.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ProcId(pub u32);

impl ProcId {
    /// The master, processor 0: the root of the processor tree.
    pub const MASTER: ProcId = ProcId(0);
    /// The processor's number as an index into per-processor vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ProcId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quotient in 64 bits (small messages) is the one in 128 bits: sizes on both sides of
    /// the switch, rates from 1 byte/s to the largest, against the exact ceiling computed here.
    #[test]
    fn transmission_times_are_exact_ceilings_of_both_widths() {
        let limit = u64::MAX / 1_000_000_000; // the largest size computed in 64 bits
        for bytes in [
            0,
            1,
            4,
            999,
            1 << 20,
            limit - 1,
            limit,
            limit + 1,
            u64::MAX / 3,
        ] {
            for rate in [1, 3, 960, 1_250_000, 1 << 40, u64::MAX] {
                let num = bytes as u128 * 1_000_000_000;
                let exact = num / rate as u128 + u128::from(!num.is_multiple_of(rate as u128));
                if exact <= u64::MAX as u128 {
                    assert_eq!(
                        SimTime::transmit(bytes, rate).as_nanos() as u128,
                        exact,
                        "{bytes} bytes at {rate}/s"
                    );
                }
            }
        }
    }
}
