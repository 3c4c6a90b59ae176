//! Plain PVS over the weight-based synthetic generator: leaves per second on one core.
//!
//! The trees of the search bench (`benches/search.rs`, the workload of `scenarios/pmws-uniform.ron`):
//! w = 34, d = 5, `FirstBest { p: 0.6 }`, value spread 1000, horizon noise 50, seeds 1..=24.
//! `pvs_recursive` with a full window to depth 5, and with progressive deepening (depths 1..=5).
//! Beside them, the same searches over the cheapest tree of that shape, as a ceiling: an implicit
//! tree whose node is a SplitMix64-hashed key and whose leaf value is a hash of it (no ordering,
//! no consistent values), so the two differ only in what the generator costs.
//!
//! Each case runs once to warm up, then `RUNS` times (default 5, or the first argument); the
//! lines give every run's leaves per second of wall time and their median, and the leaves per
//! second of CPU time over all runs (Linux: the thread's time on a CPU from
//! `/proc/thread-self/schedstat`), which suffers less when other jobs share the machine. The leaf
//! counts and root values are checked, so a faster generator that changed the trees would show.
//!
//! ```text
//! cargo run --release -p algorithms --example plain_pvs_speed [RUNS]
//! ```

use algorithms::rng::{mix2, mix64};
use algorithms::{
    pvs_recursive, Eval, GameTree, MoveList, Ordering, SyntheticSpec, SyntheticTree, Value, INF,
};
use std::time::Instant;

const DEPTH: u32 = 5;
const WIDTH: u32 = 34;

/// The ceiling: a uniform tree of hashed keys, leaf values uniform in -1000..=1000.
struct Hashed(u64);

#[derive(Clone, Copy)]
struct HashedNode {
    key: u64,
    ply: u32,
}

#[derive(Clone)]
struct Width(u32);

impl MoveList for Width {
    type Move = u32;
    fn len(&self) -> usize {
        self.0 as usize
    }
    fn get(&self, i: usize) -> u32 {
        i as u32
    }
}

impl GameTree for Hashed {
    type Node = HashedNode;
    type Move = u32;
    type Moves = Width;
    fn root(&self) -> HashedNode {
        HashedNode {
            key: self.0,
            ply: 0,
        }
    }
    fn moves(&self, node: &HashedNode) -> Width {
        Width(if node.ply < DEPTH { WIDTH } else { 0 })
    }
    fn play(&self, node: &HashedNode, mv: u32) -> HashedNode {
        HashedNode {
            key: mix2(node.key, mv as u64),
            ply: node.ply + 1,
        }
    }
    fn evaluate(&self, node: &HashedNode) -> Eval {
        Eval {
            value: (((mix64(node.key) >> 32) * 2001) >> 32) as Value - 1000,
            quiescence: 0,
        }
    }
    fn key(&self, node: &HashedNode) -> u64 {
        node.key
    }
}

/// Searches every tree to `DEPTH` (from depth `first` up, one iteration per depth) `runs` times
/// and prints the rates.
fn measure<T: GameTree>(name: &str, trees: &[T], first: u32, runs: usize, check: bool)
where
    T::Node: RootValue,
{
    let pass = || {
        let mut leaves = 0u64;
        for tree in trees {
            let root = tree.root();
            let mut value = 0;
            for depth in first..=DEPTH {
                value = pvs_recursive(tree, &root, -INF, INF, depth, &mut leaves);
            }
            if check {
                assert_eq!(Some(value), root.value());
            }
        }
        leaves
    };
    let expected = pass();
    let cpu_start = cpu_ns();
    let mut rates: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let leaves = pass();
            let secs = start.elapsed().as_secs_f64();
            assert_eq!(leaves, expected);
            leaves as f64 / secs / 1e6
        })
        .collect();
    let cpu = match (cpu_start, cpu_ns()) {
        (Some(a), Some(b)) if b > a => format!(
            "{:.1}",
            (expected * runs as u64) as f64 / ((b - a) as f64 / 1e9) / 1e6
        ),
        _ => "unknown".into(),
    };
    let each: Vec<String> = rates.iter().map(|r| format!("{r:.1}")).collect();
    rates.sort_by(f64::total_cmp);
    println!(
        "plain PVS {name}: {expected} leaves per pass; M leaves/s of wall time: {} (median {:.1}); of CPU time: {cpu}",
        each.join(" "),
        rates[rates.len() / 2]
    );
}

/// A node's true value, where the tree knows it.
trait RootValue {
    fn value(&self) -> Option<Value>;
}

impl RootValue for algorithms::SynNode {
    fn value(&self) -> Option<Value> {
        Some(self.value)
    }
}

impl RootValue for HashedNode {
    fn value(&self) -> Option<Value> {
        None
    }
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("RUNS must be a positive integer"))
        .unwrap_or(5);
    let spec = SyntheticSpec {
        width: WIDTH,
        depth: DEPTH,
        ordering: Ordering::FirstBest { p: 0.6 },
        value_spread: 1000,
        horizon_noise: 50,
    };
    let trees: Vec<SyntheticTree> = (1..=24)
        .map(|seed| SyntheticTree::new(spec.clone(), seed).expect("a valid tree"))
        .collect();
    let hashed: Vec<Hashed> = (1..=24).map(Hashed).collect();
    measure("depth 5", &trees, DEPTH, runs, true);
    measure("depths 1..=5", &trees, 1, runs, true);
    measure("depth 5, hashed tree", &hashed, DEPTH, runs, false);
}

/// Nanoseconds this thread has run on a CPU, if the system says (Linux).
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
