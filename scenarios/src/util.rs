//! Small helpers shared by the results, tables and reports; they use no other module of the
//! crate.

/// The distinct values of `key` over `items`, in first-seen order.
pub(crate) fn distinct<T: PartialEq, I>(items: &[I], key: impl Fn(&I) -> T) -> Vec<T> {
    let mut out = Vec::new();
    for i in items {
        let k = key(i);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}
