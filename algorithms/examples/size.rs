use algorithms::*;
fn main() {
    for (w, d, o) in [
        (8u32, 7u32, Ordering::Random),
        (16, 7, Ordering::Random),
        (34, 5, Ordering::Random),
        (34, 6, Ordering::Random),
        (34, 7, Ordering::FirstBest { p: 0.6 }),
        (34, 7, Ordering::Perfect),
        (16, 7, Ordering::FirstBest { p: 0.6 }),
    ] {
        let t0 = std::time::Instant::now();
        let mut tot = 0u64;
        for seed in 1..=3 {
            let spec = SyntheticSpec {
                width: w,
                depth: d,
                ordering: o.clone(),
                value_spread: 1000,
                horizon_noise: 50,
            };
            let tree = SyntheticTree::new(spec, seed).unwrap();
            for it in 1..=d {
                let mut l = 0;
                pvs_recursive(&tree, &tree.root(), -INF, INF, it, &mut l);
                tot += l;
            }
        }
        println!(
            "w={w} d={d} {:?}: mean leaves (all iterations, no sort) {} in {:?}",
            o,
            tot / 3,
            t0.elapsed() / 3
        );
    }
}
