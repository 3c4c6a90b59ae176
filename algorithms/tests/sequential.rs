//! The sequential searches as resumable machines ([`Pvs`], [`AlphaBeta`]): they find the negamax
//! value, agree with their plain recursive references in value and in leaves, give fail-soft
//! results for windows narrowed while they run, and stop at the step after an abort.

use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::SimTime;
use sim_hw::{run_alone, CostModel, Search, Step};

type Reference<T> = fn(&T, &<T as GameTree>::Node, Value, Value, u32, &mut u64) -> Value;

/// What a search did, counted step by step.
#[derive(Debug, Default, PartialEq, Eq)]
struct Count {
    interior: u64,
    leaves: u64,
    quiescence: u64,
}

/// Runs `s` to its end one step at a time.
fn run_counting<S: Search<Out = Value>>(s: &mut S) -> (Value, Count) {
    let mut count = Count::default();
    loop {
        match s.step() {
            Step::Interior => count.interior += 1,
            Step::Leaf { quiescence } => {
                count.leaves += 1;
                count.quiescence += u64::from(quiescence);
            }
            Step::Probe => panic!("a search without a table probed one"),
            Step::Done(v) => return (v, count),
        }
    }
}

/// Widths 1–8, depths 1–6, every ordering in turn; small spreads make ties and fail-highs
/// frequent (the hard cases).
fn random_spec(rng: &mut impl Rng, n: u64) -> SyntheticSpec {
    let ordering = match n % 4 {
        0 => Ordering::Random,
        1 => Ordering::Perfect,
        2 => Ordering::FirstBest {
            p: rng.random_range(0.0..=1.0),
        },
        _ => Ordering::Geometric {
            p: rng.random_range(0.05..=1.0),
        },
    };
    SyntheticSpec {
        width: rng.random_range(1..=8),
        depth: rng.random_range(1..=6),
        ordering,
        value_spread: rng.random_range(1..=50),
        horizon_noise: rng.random_range(0..=20),
    }
}

/// Keeps the trees of the random tests small enough (w^d <= 40,000 leaves for negamax).
fn random_tree(rng: &mut impl Rng, n: u64) -> SyntheticTree {
    loop {
        let spec = random_spec(rng, n);
        if u64::from(spec.width).pow(spec.depth) <= 40_000 {
            return SyntheticTree::new(spec, n).expect("a valid spec");
        }
    }
}

/// Value, work and leaves of machine `S` against negamax and its plain reference.
fn check_machine<'t, S: SequentialSearch<'t, SyntheticTree>>(
    tree: &'t SyntheticTree,
    depth: u32,
    (alpha, beta): (Value, Value),
    reference: Reference<SyntheticTree>,
    at: &str,
) -> Value {
    let root = tree.root();
    let mut s = S::new(tree, root, alpha, beta, depth);
    let (v, count) = run_counting(&mut s);
    // Done is final.
    assert_eq!(s.step(), Step::Done(v), "{at}");
    let mut leaves = 0;
    let r = reference(tree, &root, alpha, beta, depth, &mut leaves);
    assert_eq!((v, count.leaves), (r, leaves), "machine vs reference, {at}");
    assert_eq!(
        count.quiescence, 0,
        "synthetic evaluations search no quiescence nodes"
    );
    // run_alone charges each step as the machine would.
    let costs = CostModel {
        k: SimTime(3),
        e: SimTime(7),
        ..CostModel::campbell()
    };
    let (v2, work) = run_alone(&mut S::new(tree, root, alpha, beta, depth), &costs);
    assert_eq!(v2, v, "{at}");
    assert_eq!(
        (work.nodes.interior, work.nodes.leaves),
        (count.interior, count.leaves)
    );
    assert_eq!(
        work.time.as_nanos(),
        3 * count.interior + 7 * count.leaves,
        "{at}"
    );
    v
}

/// Asserts the fail-soft property of `v` for the window `(a, b)`, `a < b`.
fn assert_fail_soft(v: Value, truth: Value, (a, b): (Value, Value), at: &str) {
    assert!(a < b, "an empty window ({a}, {b}), {at}");
    if v <= a {
        assert!(
            truth <= v,
            "fail-low {v} below the true {truth}, window ({a}, {b}), {at}"
        );
    } else if v >= b {
        assert!(
            truth >= v,
            "fail-high {v} above the true {truth}, window ({a}, {b}), {at}"
        );
    } else {
        assert_eq!(v, truth, "inside the window ({a}, {b}), {at}");
    }
}

#[test]
fn both_machines_equal_negamax_and_their_references_on_1200_random_trees() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(11);
    for n in 0..1200u64 {
        let tree = random_tree(&mut rng, n);
        let spec = tree.spec().clone();
        assert_eq!(
            negamax(&tree, &tree.root(), spec.depth),
            tree.root().value,
            "generator inconsistent: {spec:?} seed {n}"
        );
        // Every search depth up to one beyond the tree (its leaves are then terminal nodes).
        let depth = rng.random_range(1..=spec.depth + 1);
        let truth = negamax(&tree, &tree.root(), depth);
        let at = format!("{spec:?} seed {n} depth {depth}");
        let full = (-INF, INF);
        let v = check_machine::<Pvs<_>>(&tree, depth, full, pvs_recursive, &at);
        assert_eq!(v, truth, "Pvs, {at}");
        let v = check_machine::<AlphaBeta<_>>(&tree, depth, full, alphabeta_recursive, &at);
        assert_eq!(v, truth, "AlphaBeta, {at}");
        // A random window, often a zero window, around the true value.
        let a = truth + rng.random_range(-30..30);
        let b = if rng.random_bool(0.5) {
            a + 1
        } else {
            a + rng.random_range(1..40)
        };
        let v = check_machine::<Pvs<_>>(&tree, depth, (a, b), pvs_recursive, &at);
        assert_fail_soft(v, truth, (a, b), &format!("Pvs, {at}"));
        let v = check_machine::<AlphaBeta<_>>(&tree, depth, (a, b), alphabeta_recursive, &at);
        assert_fail_soft(v, truth, (a, b), &format!("AlphaBeta, {at}"));
    }
}

#[test]
fn perfectly_ordered_trees_visit_the_minimal_tree() {
    // Knuth and Moore: w^ceil(d/2) + w^floor(d/2) - 1 leaves, for both searches.
    for w in 1..=6u64 {
        for d in 1..=6u32 {
            let spec = SyntheticSpec {
                width: w as u32,
                depth: d,
                ordering: Ordering::Perfect,
                value_spread: 10,
                horizon_noise: 0,
            };
            let tree = SyntheticTree::new(spec, 9).unwrap();
            let n = w.pow(d.div_ceil(2)) + w.pow(d / 2) - 1;
            let (_, pvs) = run_counting(&mut Pvs::new(&tree, tree.root(), -INF, INF, d));
            assert_eq!(pvs.leaves, n, "Pvs, w={w} d={d}");
            let (_, ab) = run_counting(&mut AlphaBeta::new(&tree, tree.root(), -INF, INF, d));
            assert_eq!(ab.leaves, n, "AlphaBeta, w={w} d={d}");
        }
    }
}

/// Runs a search to its end, narrowing its root window at random steps with bounds drawn around
/// `truth`, never emptying it. Returns the value and the final window, as tracked by the test.
fn run_narrowing<'t, S: SequentialSearch<'t, SyntheticTree>>(
    tree: &'t SyntheticTree,
    depth: u32,
    truth: Value,
    rng: &mut impl Rng,
    at: &str,
) -> (Value, (Value, Value)) {
    let (mut a, mut b) = (-INF, INF);
    let mut s = S::new(tree, tree.root(), a, b, depth);
    let p = rng.random_range(0.02..0.5);
    loop {
        if rng.random_bool(p) {
            let x = truth + rng.random_range(-25..25);
            if rng.random_bool(0.5) {
                if x < b {
                    s.raise_alpha(x);
                    a = a.max(x);
                }
            } else if x > a {
                s.lower_beta(x);
                b = b.min(x);
            }
            // A bound that would widen the window changes nothing.
            s.raise_alpha(a - 5);
            s.lower_beta(b + 5);
            assert_eq!(s.window(), (a, b), "{at}");
        }
        if let Step::Done(v) = s.step() {
            return (v, (a, b));
        }
    }
}

#[test]
fn windows_narrowed_at_random_steps_give_fail_soft_results_for_the_narrowed_window() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(12);
    // How often each machine's result fell below, inside and above the final window.
    let mut outcomes = [[0u32; 3]; 2];
    for n in 0..1000u64 {
        let tree = random_tree(&mut rng, 5000 + n);
        let depth = tree.spec().depth;
        let truth = tree.root().value;
        let at = format!("{:?} seed {}", tree.spec(), 5000 + n);
        let (v, w) = run_narrowing::<Pvs<_>>(&tree, depth, truth, &mut rng, &at);
        assert_fail_soft(v, truth, w, &format!("Pvs, {at}"));
        outcomes[0][(v > w.0) as usize + (v >= w.1) as usize] += 1;
        let (v, w) = run_narrowing::<AlphaBeta<_>>(&tree, depth, truth, &mut rng, &at);
        assert_fail_soft(v, truth, w, &format!("AlphaBeta, {at}"));
        outcomes[1][(v > w.0) as usize + (v >= w.1) as usize] += 1;
    }
    // The test must have seen every case, for both machines.
    for o in outcomes {
        assert!(
            o.iter().all(|&c| c >= 50),
            "outcomes below/inside/above: {o:?}"
        );
    }
}

#[test]
fn narrowing_before_the_first_step_is_starting_with_the_narrow_window() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(13);
    for n in 0..300u64 {
        let tree = random_tree(&mut rng, n);
        let (d, root, t) = (tree.spec().depth, tree.root(), tree.root().value);
        let (a, b) = (t + rng.random_range(-20..5), t + rng.random_range(6..30));
        let mut late = Pvs::new(&tree, root, -INF, INF, d);
        late.lower_beta(b);
        late.raise_alpha(a);
        let mut early = Pvs::new(&tree, root, a, b, d);
        assert_eq!(run_counting(&mut late), run_counting(&mut early));
        let mut late = AlphaBeta::new(&tree, root, -INF, INF, d);
        late.raise_alpha(a);
        late.lower_beta(b);
        let mut early = AlphaBeta::new(&tree, root, a, b, d);
        assert_eq!(run_counting(&mut late), run_counting(&mut early));
    }
}

#[test]
fn abort_ends_the_search_at_the_next_step() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(14);
    for n in 0..300u64 {
        let tree = random_tree(&mut rng, n);
        let d = tree.spec().depth;
        let (_, whole) = run_counting(&mut Pvs::new(&tree, tree.root(), -INF, INF, d));
        let steps = whole.interior + whole.leaves;
        // Abort after a random number of steps, before the last one.
        let k = rng.random_range(0..steps);
        let mut pvs = Pvs::new(&tree, tree.root(), -INF, INF, d);
        let mut ab = AlphaBeta::new(&tree, tree.root(), -INF, INF, d);
        for _ in 0..k {
            assert!(!matches!(pvs.step(), Step::Done(_)));
        }
        for _ in 0..k.min(3) {
            let _ = ab.step();
        }
        pvs.abort();
        ab.abort();
        assert!(pvs.is_aborted() && ab.is_aborted());
        for _ in 0..3 {
            assert_eq!(pvs.step(), Step::Done(ABORTED));
            assert_eq!(ab.step(), Step::Done(ABORTED));
        }
        // An abort before the first step: nothing is searched.
        let mut fresh = Pvs::new(&tree, tree.root(), -INF, INF, d);
        fresh.abort();
        assert_eq!(run_counting(&mut fresh), (ABORTED, Count::default()));
    }
}

// ---------------------------------------------------------------------------------------------
// A hand-built tree, with values worked out by hand.

/// A tree given as a table: node `i` has successors `children[i]` and evaluates to `value[i]`
/// (side-to-move view) after `quiescence[i]` quiescence nodes. Moves are successor indices in a
/// `Vec`.
struct Table {
    children: Vec<Vec<usize>>,
    value: Vec<Value>,
    quiescence: Vec<u32>,
}

impl GameTree for Table {
    type Node = usize;
    type Move = usize;
    type Moves = Vec<usize>;
    fn root(&self) -> usize {
        0
    }
    fn moves(&self, node: &usize) -> Vec<usize> {
        self.children[*node].clone()
    }
    fn play(&self, _node: &usize, mv: usize) -> usize {
        mv
    }
    fn evaluate(&self, node: &usize) -> Eval {
        Eval {
            value: self.value[*node],
            quiescence: self.quiescence[*node],
        }
    }
    fn key(&self, node: &usize) -> u64 {
        *node as u64
    }
}

/// Root 0 with moves to nodes 1, 2 and 8. Node 1 has leaves 3, 4 (values 5 and 2 for the side
/// to move at them); node 2 has leaves 5, 6, 7 (values 4, 9, 1); node 8 is a terminal position
/// at ply 1 (value -1). Interior nodes evaluate to 99, which a search to depth 2 never uses.
///
/// Negamax: node 1 = max(-5, -2) = -2; node 2 = max(-4, -9, -1) = -1; node 8 = -1 (terminal);
/// root = max(2, 1, 1) = 2.
fn table() -> Table {
    Table {
        children: vec![
            vec![1, 2, 8],
            vec![3, 4],
            vec![5, 6, 7],
            vec![],
            vec![],
            vec![],
            vec![],
            vec![],
            vec![],
        ],
        value: vec![99, 99, 99, 5, 2, 4, 9, 1, -1],
        quiescence: vec![0, 0, 0, 1, 2, 3, 4, 5, 6],
    }
}

#[test]
fn a_hand_built_tree_with_a_terminal_node_and_quiescence() {
    let t = table();
    assert_eq!(negamax(&t, &0, 2), 2);
    // Depth 0: the root is evaluated, its moves are not generated.
    assert_eq!(
        run_counting(&mut AlphaBeta::new(&t, 0, -INF, INF, 0)),
        (
            99,
            Count {
                interior: 0,
                leaves: 1,
                quiescence: 0
            }
        )
    );
    // Alpha-beta, full window: node 1 gives 2 (both leaves); node 2 with window (-INF, -2): its
    // first leaf gives -4 < -2, second -9, third -1 >= -2: cutoff only after all three (the
    // cutoff test comes after each). So every leaf: 2 + 3 + the terminal node 8.
    let (v, c) = run_counting(&mut AlphaBeta::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves, c.quiescence), (2, 3, 6, 21));
    // A window raised to alpha = 3 before node 2 is searched: node 2's window becomes
    // (-INF, -3); its first leaf (-4) is not enough, then -9, then -1 >= -3: a cutoff at -1;
    // node 8 (-1 from the root's view, 1) is searched with window (-INF, -3) too. The root's
    // score stays 2 <= 3: a fail-low, and the true value 2 is <= 2.
    let mut ab = AlphaBeta::new(&t, 0, -INF, INF, 2);
    // Steps: root, node 1, leaf 3, leaf 4; then the next step enters node 2.
    for _ in 0..4 {
        assert!(!matches!(ab.step(), Step::Done(_)));
    }
    ab.raise_alpha(3);
    let (v, c) = run_counting(&mut ab);
    assert_eq!((v, c.interior, c.leaves), (2, 1, 4));
    // Raised to 5 once node 2's first leaf is in: -4 then compares with beta = -5 at node 2:
    // -4 >= -5 is a cutoff, leaves 6 and 7 are never evaluated. Node 8 is still searched.
    let mut ab = AlphaBeta::new(&t, 0, -INF, INF, 2);
    for _ in 0..6 {
        assert!(!matches!(ab.step(), Step::Done(_)));
    }
    ab.raise_alpha(5);
    let (v, c) = run_counting(&mut ab);
    // Node 2 returns -4 (4 from the root's view), node 8 returns -1 (1): the root's score is
    // max(2, 4, 1) = 4 <= 5, a fail-low bound above the true value 2.
    assert_eq!((v, c.interior, c.leaves), (4, 0, 1));
    // PVS: the same tree gives the same value.
    let (v, _) = run_counting(&mut Pvs::new(&t, 0, -INF, INF, 2));
    assert_eq!(v, 2);
}
