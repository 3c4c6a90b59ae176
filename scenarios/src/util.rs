//! Small helpers shared by the results, tables and reports; they use no other module of the
//! crate.

use std::collections::HashSet;
use std::hash::Hash;

/// The distinct values of `key` over `items`, in first-seen order; one hash look-up per item
/// (linear in `items`, however many distinct values there are).
pub(crate) fn distinct<T: Eq + Hash + Clone, I>(items: &[I], key: impl Fn(&I) -> T) -> Vec<T> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for i in items {
        let k = key(i);
        if seen.insert(k.clone()) {
            out.push(k);
        }
    }
    out
}
