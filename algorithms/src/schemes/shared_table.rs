//! A transposition table in shared memory, for the schemes whose processors share one table
//! ([`crate::lazy_smp`], [`crate::abdada`]).
//!
//! **Layout.** `entries` entries of `entry_bytes` bytes each, in buckets of `ways` entries: a
//! position of key `k` lives in bucket `k mod (entries / ways)`, in any of its ways. The
//! memory sees a bucket as the cache line its first entry starts in ([`SharedTable::address`]:
//! byte offset / [`CACHE_LINE_BYTES`]), so positions whose buckets share a line share a bank
//! of the machine's memory (`sim_hw::MemorySpec::bank`) and contend for it.
//!
//! **An entry** holds the position's key, the draft (plies searched below it), a fail-soft value
//! with its bound type (none for an entry that only counts searchers), the best move's index in
//! the tree's move order, its age (the iteration of the search that stored it) and ABDADA's
//! count of processors searching the position now.
//!
//! **Replacement** ([`Replacement`]). A store for a position already in its bucket updates that
//! entry (with [`Replacement::DepthPreferred`] only if the new draft is at least the old one, or
//! the old entry is older or holds no value); the count of searchers is kept. Otherwise the
//! store takes an empty way, or else evicts the bucket's *least valuable* entry: the oldest,
//! and among equally old ones the smallest draft (the lowest way on ties). With
//! [`Replacement::Always`] it always does; with [`Replacement::DepthPreferred`] only if that
//! entry is older than the new one or its draft is no greater, else the store is dropped.
//!
//! **Counters** ([`TtCounts`]): probes, hits (probes that found the position with a value),
//! stores (every store asked for, kept or dropped) and overwrites (stores that evicted another
//! position's entry).

use crate::parabelle::Bound;
use crate::trees::Value;
use serde::{Deserialize, Serialize};

/// Bytes of a cache line: an entry's address for the memory is the index of the line its
/// bucket starts in.
pub const CACHE_LINE_BYTES: u64 = 64;

/// Which entry a store replaces (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Replacement {
    /// Keep deeper and newer entries: a store evicts only an older or no deeper entry.
    #[default]
    DepthPreferred,
    /// A store always takes a way: the bucket's least valuable entry goes.
    Always,
}

/// A shared table's size and layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SharedTableConfig {
    /// Entries in all (a multiple of `ways`).
    pub entries: u32,
    /// Entries per bucket (at least 1).
    pub ways: u32,
    /// Which entry a store replaces.
    pub replacement: Replacement,
    /// Bytes of one entry (at least 1): with the ways, where the buckets' cache lines fall.
    pub entry_bytes: u32,
}

impl SharedTableConfig {
    /// Default entries: 2^16.
    pub const ENTRIES: u32 = 1 << 16;
    /// Default ways per bucket: 4 (a bucket of 16-byte entries is one 64-byte line).
    pub const WAYS: u32 = 4;
    /// Default entry size: 16 bytes (key, draft, value and bound, move, age, count).
    pub const ENTRY_BYTES: u32 = 16;

    /// The defaults: 2^16 entries of 16 bytes in buckets of 4, depth-preferred.
    pub fn new() -> Self {
        SharedTableConfig {
            entries: Self::ENTRIES,
            ways: Self::WAYS,
            replacement: Replacement::DepthPreferred,
            entry_bytes: Self::ENTRY_BYTES,
        }
    }

    /// Why this layout is no table, if it is not one.
    pub fn invalid(&self) -> Option<String> {
        if self.ways == 0 {
            return Some("ways must be at least 1".into());
        }
        if self.entries == 0 || !self.entries.is_multiple_of(self.ways) {
            return Some(format!(
                "entries must be a positive multiple of ways ({}), not {}",
                self.ways, self.entries
            ));
        }
        if self.entry_bytes == 0 {
            return Some("entry_bytes must be at least 1".into());
        }
        None
    }
}

impl Default for SharedTableConfig {
    fn default() -> Self {
        Self::new()
    }
}

/// One entry (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The position's hash key.
    pub key: u64,
    /// Plies searched below the position.
    pub draft: u32,
    /// Its value (side to move), with `bound` saying what it is.
    pub value: Value,
    /// Exact value or bound; None: no value (an entry that only counts searchers).
    pub bound: Option<Bound>,
    /// Index of the best move in the tree's move order, if any.
    pub best: Option<u32>,
    /// The iteration (search depth) of the search that stored it.
    pub age: u32,
    /// Processors searching the position now (ABDADA).
    pub searching: u32,
}

impl TtEntry {
    /// Whether the entry settles a search of its position to `depth` plies with the window
    /// `(alpha, beta)`: deep enough, and exact or a bound outside the window.
    pub fn cuts(&self, depth: u32, alpha: Value, beta: Value) -> bool {
        self.draft >= depth
            && match self.bound {
                Some(Bound::Exact) => true,
                Some(Bound::Lower) => self.value >= beta,
                Some(Bound::Upper) => self.value <= alpha,
                None => false,
            }
    }
}

/// A table's traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtCounts {
    /// Probes made.
    pub probes: u64,
    /// Probes that found the position with a value.
    pub hits: u64,
    /// Stores asked for (kept or dropped).
    pub stores: u64,
    /// Stores (or ABDADA's counting entries) that evicted another position's entry.
    pub overwrites: u64,
}

/// The table (see the module doc).
#[derive(Clone, Debug)]
pub struct SharedTable {
    config: SharedTableConfig,
    buckets: u64,
    slots: Vec<Option<TtEntry>>,
    counts: TtCounts,
}

impl SharedTable {
    /// An empty table; `config` must be valid ([`SharedTableConfig::invalid`]).
    pub fn new(config: SharedTableConfig) -> Self {
        debug_assert!(config.invalid().is_none(), "{:?}", config.invalid());
        let ways = config.ways.max(1);
        let entries = config.entries.max(ways);
        SharedTable {
            config,
            buckets: (entries / ways) as u64,
            slots: vec![None; (entries / ways * ways) as usize],
            counts: TtCounts::default(),
        }
    }

    /// The table's layout.
    pub fn config(&self) -> &SharedTableConfig {
        &self.config
    }

    /// The traffic so far.
    pub fn counts(&self) -> TtCounts {
        self.counts
    }

    fn ways(&self) -> usize {
        self.config.ways.max(1) as usize
    }

    fn bucket(&self, key: u64) -> usize {
        (key % self.buckets) as usize
    }

    /// The slots of `key`'s bucket.
    fn range(&self, key: u64) -> std::ops::Range<usize> {
        let first = self.bucket(key) * self.ways();
        first..first + self.ways()
    }

    /// The memory address of `key`'s bucket: the index of the cache line it starts in.
    pub fn address(&self, key: u64) -> u64 {
        let offset = (self.bucket(key) * self.ways()) as u64 * self.config.entry_bytes as u64;
        offset / CACHE_LINE_BYTES
    }

    fn find(&self, key: u64) -> Option<usize> {
        self.range(key)
            .find(|&i| self.slots[i].is_some_and(|e| e.key == key))
    }

    /// The entry of `key`, if the table holds one (counted as a probe, a hit if it has a value).
    pub fn probe(&mut self, key: u64) -> Option<TtEntry> {
        self.counts.probes += 1;
        let e = self.find(key).and_then(|i| self.slots[i]);
        if e.is_some_and(|e| e.bound.is_some()) {
            self.counts.hits += 1;
        }
        e
    }

    /// Looks at `key`'s entry without counting a probe.
    pub fn peek(&self, key: u64) -> Option<TtEntry> {
        self.find(key).and_then(|i| self.slots[i])
    }

    /// Puts `e` by the replacement rule; whether it was kept.
    fn put(&mut self, mut e: TtEntry) -> bool {
        let depth_preferred = self.config.replacement == Replacement::DepthPreferred;
        if let Some(i) = self.find(e.key) {
            let old = self.slots[i].expect("found");
            let keep_old =
                depth_preferred && old.bound.is_some() && e.draft < old.draft && old.age >= e.age;
            if keep_old {
                return false;
            }
            e.searching = old.searching;
            self.slots[i] = Some(e);
            return true;
        }
        let range = self.range(e.key);
        if let Some(i) = range.clone().find(|&i| self.slots[i].is_none()) {
            self.slots[i] = Some(e);
            return true;
        }
        let victim = range
            .min_by_key(|&i| {
                let o = self.slots[i].expect("full bucket");
                (o.age, o.draft)
            })
            .expect("a bucket has a way");
        let old = self.slots[victim].expect("full bucket");
        if depth_preferred && old.age >= e.age && old.draft > e.draft {
            return false;
        }
        self.counts.overwrites += 1;
        self.slots[victim] = Some(e);
        true
    }

    /// Stores `e` (its `searching` is ignored: a position's count is kept); counted as a store.
    pub fn store(&mut self, e: TtEntry) {
        self.counts.stores += 1;
        self.put(TtEntry { searching: 0, ..e });
    }

    /// One more processor searches `key` (ABDADA): its entry's count goes up, a value-less
    /// entry (of draft `draft`, age `age`) is made if there is none (by the replacement rule:
    /// it may evict another position, or be dropped).
    pub fn enter(&mut self, key: u64, draft: u32, age: u32) {
        if self.find(key).is_none() {
            self.put(TtEntry {
                key,
                draft,
                value: 0,
                bound: None,
                best: None,
                age,
                searching: 0,
            });
        }
        if let Some(i) = self.find(key) {
            let e = self.slots[i].as_mut().expect("found");
            e.searching += 1;
        }
    }

    /// A processor has finished searching `key` (ABDADA): its count goes down, if the entry is
    /// still there.
    pub fn leave(&mut self, key: u64) {
        if let Some(i) = self.find(key) {
            let e = self.slots[i].as_mut().expect("found");
            e.searching = e.searching.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(entries: u32, ways: u32, replacement: Replacement) -> SharedTableConfig {
        SharedTableConfig {
            entries,
            ways,
            replacement,
            entry_bytes: 16,
        }
    }

    fn entry(key: u64, draft: u32, age: u32) -> TtEntry {
        TtEntry {
            key,
            draft,
            value: key as Value,
            bound: Some(Bound::Exact),
            best: Some(1),
            age,
            searching: 0,
        }
    }

    #[test]
    fn a_stored_entry_is_found_and_counted() {
        let mut t = SharedTable::new(config(8, 2, Replacement::DepthPreferred));
        assert_eq!(t.probe(5), None);
        t.store(entry(5, 3, 1));
        assert_eq!(t.probe(5), Some(entry(5, 3, 1)));
        assert_eq!(t.probe(9), None); // same bucket (9 mod 4 = 1), another position
        assert_eq!(
            t.counts(),
            TtCounts {
                probes: 3,
                hits: 1,
                stores: 1,
                overwrites: 0
            }
        );
    }

    #[test]
    fn buckets_hold_ways_positions_then_evict_the_least_valuable() {
        // 4 buckets of 2 ways: keys 1, 5, 9, 13 share bucket 1.
        let mut t = SharedTable::new(config(8, 2, Replacement::DepthPreferred));
        t.store(entry(1, 4, 1));
        t.store(entry(5, 2, 1));
        assert!(t.peek(1).is_some() && t.peek(5).is_some());
        // Full: a deeper store evicts the shallower entry.
        t.store(entry(9, 3, 1));
        assert!(t.peek(5).is_none() && t.peek(1).is_some() && t.peek(9).is_some());
        assert_eq!(t.counts().overwrites, 1);
        // Depth-preferred: a shallower store of the same age is dropped.
        t.store(entry(13, 1, 1));
        assert!(t.peek(13).is_none());
        assert_eq!(t.counts().overwrites, 1);
        // A newer iteration's store evicts the oldest entry even if shallower.
        t.store(entry(13, 1, 2));
        assert!(t.peek(13).is_some() && t.peek(9).is_none());
        assert_eq!(t.counts().overwrites, 2);
        assert_eq!(t.counts().stores, 5);
    }

    #[test]
    fn always_replace_evicts_even_deeper_entries() {
        let mut t = SharedTable::new(config(4, 1, Replacement::Always));
        t.store(entry(2, 5, 1));
        t.store(entry(6, 1, 1)); // same slot
        assert!(t.peek(2).is_none());
        assert_eq!(t.peek(6), Some(entry(6, 1, 1)));
        assert_eq!(t.counts().overwrites, 1);
        // The same position is updated, not overwritten.
        t.store(entry(6, 0, 1));
        assert_eq!(t.peek(6).map(|e| e.draft), Some(0));
        assert_eq!(t.counts().overwrites, 1);
    }

    #[test]
    fn depth_preferred_keeps_a_deeper_entry_of_the_same_position() {
        let mut t = SharedTable::new(config(4, 1, Replacement::DepthPreferred));
        t.store(entry(3, 4, 1));
        t.store(entry(3, 2, 1));
        assert_eq!(t.peek(3).map(|e| e.draft), Some(4));
        t.store(entry(3, 2, 2));
        assert_eq!(t.peek(3).map(|e| e.draft), Some(2));
    }

    #[test]
    fn searchers_are_counted_and_survive_stores() {
        let mut t = SharedTable::new(config(4, 1, Replacement::DepthPreferred));
        t.enter(7, 3, 1);
        t.enter(7, 3, 1);
        let e = t.peek(7).unwrap();
        assert_eq!((e.searching, e.bound), (2, None));
        assert_eq!(t.probe(7).map(|e| e.searching), Some(2));
        assert_eq!(t.counts().hits, 0, "a counting entry has no value");
        t.store(entry(7, 3, 1));
        assert_eq!(t.peek(7).map(|e| e.searching), Some(2));
        t.leave(7);
        t.leave(7);
        t.leave(7);
        assert_eq!(t.peek(7).map(|e| e.searching), Some(0));
        assert_eq!(t.counts().stores, 1);
    }

    #[test]
    fn addresses_are_cache_lines_of_buckets() {
        // 16-byte entries, 4 ways: one bucket per 64-byte line.
        let t = SharedTable::new(config(64, 4, Replacement::Always));
        assert_eq!(t.address(0), 0);
        assert_eq!(t.address(1), 1);
        assert_eq!(t.address(17), 1); // 16 buckets
                                      // 16-byte entries, 1 way: four buckets per line.
        let t = SharedTable::new(config(64, 1, Replacement::Always));
        assert_eq!(
            (0..8).map(|k| t.address(k)).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1, 1]
        );
    }

    #[test]
    fn cutoffs_need_depth_and_a_bound_outside_the_window() {
        let mut e = entry(1, 3, 1);
        e.value = 10;
        assert!(e.cuts(3, 0, 5) && !e.cuts(4, 0, 5));
        e.bound = Some(Bound::Lower);
        assert!(e.cuts(2, 0, 10) && !e.cuts(2, 0, 11));
        e.bound = Some(Bound::Upper);
        assert!(e.cuts(2, 10, 20) && !e.cuts(2, 9, 20));
        e.bound = None;
        assert!(!e.cuts(0, -100, 100));
    }

    #[test]
    fn invalid_layouts_are_named() {
        assert!(config(8, 0, Replacement::Always).invalid().is_some());
        assert!(config(10, 4, Replacement::Always).invalid().is_some());
        assert!(config(0, 1, Replacement::Always).invalid().is_some());
        assert!(SharedTableConfig::new().invalid().is_none());
    }
}
