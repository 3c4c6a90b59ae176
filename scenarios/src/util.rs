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

/// A simulated duration in the unit that reads best: `0 s`, `750 ns`, `300 µs`, `2.5 ms`, `1.2 s`.
pub(crate) fn duration_words(t: sim_core::SimTime) -> String {
    let ns = t.as_nanos();
    let trim = |x: f64| {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match ns {
        0 => "0 s".into(),
        1..=999 => format!("{ns} ns"),
        1_000..=999_999 => format!("{} µs", trim(ns as f64 / 1e3)),
        1_000_000..=999_999_999 => format!("{} ms", trim(ns as f64 / 1e6)),
        _ => format!("{} s", trim(ns as f64 / 1e9)),
    }
}
