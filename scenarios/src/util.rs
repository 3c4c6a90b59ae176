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

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    joined(items, "and")
}

/// `a`, `a or b`, `a, b or c`.
pub(crate) fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    joined(items, "or")
}

/// The items separated by commas, the last two by `conjunction`.
fn joined<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.as_ref().to_string(),
        Some((last, rest)) => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} {conjunction} {}", rest.join(", "), last.as_ref())
        }
    }
}

/// A line's rate as read in the literature: `960 bytes/s` for the serial lines of the 1980s,
/// `1,250,000 bytes/s (10 Mbit/s)` from 1 Mbit/s up.
pub(crate) fn rate_words(bytes_per_s: u64) -> String {
    let digits = bytes_per_s.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    if bytes_per_s < 125_000 {
        return format!("{grouped} bytes/s");
    }
    let mbit = decimals3(bytes_per_s as f64 * 8.0 / 1e6);
    format!("{grouped} bytes/s ({mbit} Mbit/s)")
}

/// `x` with at most three decimals, trailing zeros dropped: `2.5`, `10`, `0.125`.
fn decimals3(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A simulated duration in the unit that reads best: `0 s`, `750 ns`, `300 µs`, `2.5 ms`, `1.2 s`.
pub(crate) fn duration_words(t: sim_core::SimTime) -> String {
    let ns = t.as_nanos();
    match ns {
        0 => "0 s".into(),
        1..=999 => format!("{ns} ns"),
        1_000..=999_999 => format!("{} µs", decimals3(ns as f64 / 1e3)),
        1_000_000..=999_999_999 => format!("{} ms", decimals3(ns as f64 / 1e6)),
        _ => format!("{} s", decimals3(ns as f64 / 1e9)),
    }
}

/// The last component of `path` (the whole path if it has none), for a legend or a message.
pub(crate) fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_as_bytes_per_second_grouped_and_megabits_from_one_up() {
        assert_eq!(rate_words(960), "960 bytes/s");
        assert_eq!(rate_words(124_999), "124,999 bytes/s");
        assert_eq!(rate_words(125_000), "125,000 bytes/s (1 Mbit/s)");
        assert_eq!(rate_words(1_250_000), "1,250,000 bytes/s (10 Mbit/s)");
        assert_eq!(rate_words(1_000_000), "1,000,000 bytes/s (8 Mbit/s)");
        assert_eq!(rate_words(300_000), "300,000 bytes/s (2.4 Mbit/s)");
    }
}
