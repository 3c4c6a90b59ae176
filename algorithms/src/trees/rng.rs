//! A tiny, fully specified random-number generator for implicit trees.
//!
//! Synthetic trees are generated on the fly from a seed, so every node must be able to derive its
//! own random numbers from its key alone, and the stream must never change across crate versions
//! (results must be byte-identical). SplitMix64 (Steele, Lea, Flood 2014) is specified by a few
//! lines of arithmetic; it implements `rand`'s `RngCore` so that `rand` and `rand_distr` sample
//! from it. The synthetic generator reads the same streams with those crates' draws written out
//! (`trees/synthetic.rs`), so that its trees depend on none of the crates' versions.

use rand::{RngCore, SeedableRng};

/// SplitMix64's increment (the golden ratio in 64 bits): the generator's state advances by it
/// before each output.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 finalizer: a strong 64-bit mixing function.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Combines a key with a small integer into a new key.
#[inline]
pub fn mix2(a: u64, b: u64) -> u64 {
    mix64(a ^ mix64(b.wrapping_add(GOLDEN)))
}

/// SplitMix64 as a `rand` generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl RngCore for SplitMix64 {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix64(self.0)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

impl SeedableRng for SplitMix64 {
    type Seed = [u8; 8];
    fn from_seed(seed: [u8; 8]) -> Self {
        SplitMix64(u64::from_le_bytes(seed))
    }
    fn seed_from_u64(state: u64) -> Self {
        SplitMix64(state)
    }
}
