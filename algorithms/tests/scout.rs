//! The minimal-window searches ([`Palphabeta`], [`Scout`], [`NegaScout`], [`Ins`], [`Pns`]) as
//! resumable machines: negamax values, the same leaves as their plain recursive references, fail-soft
//! results for fixed and narrowed windows, aborts, the minimal tree on perfectly ordered trees,
//! and the relations between them that the papers state.

use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::SimTime;
use sim_hw::{run_alone, CostModel, Search, Step};

type Reference<T> = fn(&T, &<T as GameTree>::Node, Value, Value, u32, &mut u64) -> Value;

/// What a search did, counted step by step.
#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
struct Count {
    interior: u64,
    leaves: u64,
}

fn run_counting<S: Search<Out = Value>>(s: &mut S) -> (Value, Count) {
    let mut count = Count::default();
    loop {
        match s.step() {
            Step::Interior => count.interior += 1,
            Step::Leaf { .. } => count.leaves += 1,
            Step::Probe => panic!("a search without a table probed one"),
            Step::Done(v) => return (v, count),
        }
    }
}

/// The orderings of Campbell's section 2.2 (and the Reinefeld generator's random/perfect).
fn ordering(n: u64) -> Ordering {
    match n % 6 {
        0 => Ordering::Random,
        1 => Ordering::FirstBest { p: 0.5 },
        2 => Ordering::FirstBest { p: 0.8 },
        3 => Ordering::Geometric { p: 0.5 },
        4 => Ordering::Geometric { p: 0.8 },
        _ => Ordering::Perfect,
    }
}

/// Widths 2–8, depths 1–6, every ordering in turn; at most 12,000 leaves (larger shapes are
/// drawn again) so that the tests stay fast; small spreads make ties and fail-highs frequent.
fn random_tree(rng: &mut impl Rng, n: u64) -> SyntheticTree {
    loop {
        let spec = SyntheticSpec {
            width: rng.random_range(2..=8),
            depth: rng.random_range(1..=6),
            ordering: ordering(n),
            value_spread: rng.random_range(1..=50),
            horizon_noise: rng.random_range(0..=20),
        };
        if u64::from(spec.width).pow(spec.depth) <= 12_000 {
            return SyntheticTree::new(spec, n).expect("a valid spec");
        }
    }
}

/// Value and counts of machine `S`, checked against its reference (value, leaves), against
/// `run_alone` (the same steps charged), and that `Done` is final.
fn check_machine<'t, S: SequentialSearch<'t, SyntheticTree>>(
    tree: &'t SyntheticTree,
    depth: u32,
    (alpha, beta): (Value, Value),
    reference: Reference<SyntheticTree>,
    at: &str,
) -> (Value, Count) {
    let root = tree.root();
    let mut s = S::new(tree, root, alpha, beta, depth);
    assert_eq!(s.window(), (alpha, beta));
    let (v, count) = run_counting(&mut s);
    assert_eq!(s.step(), Step::Done(v), "{at}");
    assert!(!s.is_aborted());
    let mut leaves = 0;
    let r = reference(tree, &root, alpha, beta, depth, &mut leaves);
    assert_eq!((v, count.leaves), (r, leaves), "machine vs reference, {at}");
    let costs = CostModel {
        k: SimTime(3),
        e: SimTime(7),
        q: sim_core::SimTime::ZERO,
        probe: sim_core::SimTime::ZERO,
        ..CostModel::campbell()
    };
    let (v2, work) = run_alone(&mut S::new(tree, root, alpha, beta, depth), &costs);
    assert_eq!(v2, v, "{at}");
    assert_eq!(
        (work.nodes.interior, work.nodes.leaves),
        (count.interior, count.leaves),
        "{at}"
    );
    (v, count)
}

fn assert_fail_soft(v: Value, truth: Value, (a, b): (Value, Value), at: &str) {
    assert!(a < b, "an empty window ({a}, {b}), {at}");
    if v <= a {
        assert!(
            truth <= v,
            "fail-low {v} below the true {truth}, ({a}, {b}), {at}"
        );
    } else if v >= b {
        assert!(
            truth >= v,
            "fail-high {v} above the true {truth}, ({a}, {b}), {at}"
        );
    } else {
        assert_eq!(v, truth, "inside the window ({a}, {b}), {at}");
    }
}

/// Runs every machine of this file on `tree` with `window`; returns (value, count) per machine
/// in the order of [`NAMES`].
fn all_machines(
    tree: &SyntheticTree,
    depth: u32,
    window: (Value, Value),
    at: &str,
) -> [(Value, Count); 5] {
    [
        check_machine::<Palphabeta<_>>(tree, depth, window, palphabeta_recursive, at),
        check_machine::<Scout<_>>(tree, depth, window, scout_recursive, at),
        check_machine::<NegaScout<_>>(tree, depth, window, negascout_recursive, at),
        check_machine::<Ins<_>>(tree, depth, window, ins_recursive, at),
        check_machine::<Pns<_>>(tree, depth, window, pns_recursive, at),
    ]
}

const NAMES: [&str; 5] = ["Palphabeta", "Scout", "NegaScout", "Ins", "Pns"];

#[test]
fn every_machine_equals_negamax_and_its_reference_on_1200_random_trees() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(81);
    // Fail-low, inside, fail-high counts per machine for the random windows.
    let mut outcomes = [[0u32; 3]; 5];
    for n in 0..1200u64 {
        let tree = random_tree(&mut rng, n);
        let spec = tree.spec().clone();
        // Mostly the tree's own depth; sometimes shallower (noisy horizon) or one beyond
        // (its leaves are then terminal nodes).
        let depth = if rng.random_bool(0.7) {
            spec.depth
        } else {
            rng.random_range(1..=spec.depth + 1)
        };
        let truth = negamax(&tree, &tree.root(), depth);
        let at = format!("{spec:?} seed {n} depth {depth}");
        for (k, (v, _)) in all_machines(&tree, depth, (-INF, INF), &at)
            .into_iter()
            .enumerate()
        {
            assert_eq!(v, truth, "{}, {at}", NAMES[k]);
        }
        // A random window around the true value, often a minimal one.
        let a = truth + rng.random_range(-30..30);
        let b = if rng.random_bool(0.4) {
            a + 1
        } else {
            a + rng.random_range(1..40)
        };
        for (k, (v, _)) in all_machines(&tree, depth, (a, b), &at)
            .into_iter()
            .enumerate()
        {
            assert_fail_soft(v, truth, (a, b), &format!("{}, {at}", NAMES[k]));
            outcomes[k][(v > a) as usize + (v >= b) as usize] += 1;
        }
    }
    for o in outcomes {
        assert!(o.iter().all(|&c| c >= 50), "below/inside/above: {o:?}");
    }
}

#[test]
fn perfectly_ordered_trees_visit_the_minimal_tree() {
    // Knuth and Moore: w^ceil(d/2) + w^floor(d/2) - 1 leaves; Campbell (section 2.2): "all the
    // algorithms are able to attain the minimum number of evaluations on optimally ordered trees".
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
            let at = format!("w={w} d={d}");
            for (k, (v, c)) in all_machines(&tree, d, (-INF, INF), &at)
                .into_iter()
                .enumerate()
            {
                assert_eq!(v, tree.root().value, "{}, {at}", NAMES[k]);
                assert_eq!(c.leaves, n, "{}, {at}", NAMES[k]);
            }
        }
    }
}

#[test]
fn on_two_ply_trees_alphabeta_dominates_palphabeta_dominates_scout() {
    // Campbell, section 2.2: "in fact SSS* dominates alphabeta dominates palphabeta dominates
    // SCOUT" on 2-ply trees (he compares leaf counts, NBP). On 2-ply trees Palphabeta and Pvs
    // differ only inside re-searches of 1-ply subtrees, where Pvs evaluates again the leaves
    // that fail high on its minimal windows and plain alpha-beta does not.
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(82);
    let mut strict = [0u32; 2];
    for n in 0..1500u64 {
        let spec = SyntheticSpec {
            width: rng.random_range(2..=24),
            depth: 2,
            ordering: ordering(n),
            value_spread: rng.random_range(1..=100),
            horizon_noise: 0,
        };
        let tree = SyntheticTree::new(spec.clone(), n).unwrap();
        let root = tree.root();
        let (_, ab) = run_counting(&mut AlphaBeta::new(&tree, root, -INF, INF, 2));
        let (_, pab) = run_counting(&mut Palphabeta::new(&tree, root, -INF, INF, 2));
        let (_, sc) = run_counting(&mut Scout::new(&tree, root, -INF, INF, 2));
        let (_, pvs) = run_counting(&mut Pvs::new(&tree, root, -INF, INF, 2));
        let at = format!("{spec:?} seed {n}");
        assert!(ab.leaves <= pab.leaves, "AB {ab:?} PAB {pab:?}, {at}");
        assert!(pab.leaves <= sc.leaves, "PAB {pab:?} SC {sc:?}, {at}");
        assert_eq!(pab.interior, pvs.interior, "{at}");
        assert!(pab.leaves <= pvs.leaves, "{at}");
        strict[0] += (ab.leaves < pab.leaves) as u32;
        strict[1] += (pab.leaves < sc.leaves) as u32;
    }
    // The inequalities are not all equalities.
    assert!(strict.iter().all(|&s| s >= 100), "{strict:?}");
}

#[test]
fn negascout_is_pvs_without_the_leaf_re_searches_and_palphabeta_differs_from_pvs() {
    // NegaScout differs from Pvs (Marsland & Popowich Fig. 1) only by not re-searching at
    // remaining depth < 2, where the minimal-window value of a leaf is exact: same value, same
    // interior nodes, no more leaves. Palphabeta (Campbell Fig. 7) re-searches with plain
    // alpha-beta: from 3 plies on its counts differ from Pvs's.
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(83);
    let (mut fewer, mut pab_differs) = (0u32, 0u32);
    for n in 0..600u64 {
        let tree = random_tree(&mut rng, n);
        let (d, root) = (tree.spec().depth, tree.root());
        let (v, ns) = run_counting(&mut NegaScout::new(&tree, root, -INF, INF, d));
        let (vp, pvs) = run_counting(&mut Pvs::new(&tree, root, -INF, INF, d));
        let (_, pab) = run_counting(&mut Palphabeta::new(&tree, root, -INF, INF, d));
        let at = format!("{:?} seed {n}", tree.spec());
        assert_eq!(v, vp, "{at}");
        assert_eq!(ns.interior, pvs.interior, "{at}");
        assert!(ns.leaves <= pvs.leaves, "{at}");
        fewer += (ns.leaves < pvs.leaves) as u32;
        pab_differs += (pab != pvs) as u32;
    }
    assert!(fewer >= 50 && pab_differs >= 50, "{fewer} {pab_differs}");
}

/// Runs a search to its end, narrowing its root window at random steps with bounds drawn around
/// `truth`, never emptying it. Returns the value and the final window.
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
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(84);
    let mut outcomes = [[0u32; 3]; 5];
    for n in 0..1000u64 {
        let tree = random_tree(&mut rng, 5000 + n);
        let depth = tree.spec().depth;
        let truth = tree.root().value;
        let at = format!("{:?} seed {}", tree.spec(), 5000 + n);
        let results = [
            run_narrowing::<Palphabeta<_>>(&tree, depth, truth, &mut rng, &at),
            run_narrowing::<Scout<_>>(&tree, depth, truth, &mut rng, &at),
            run_narrowing::<NegaScout<_>>(&tree, depth, truth, &mut rng, &at),
            run_narrowing::<Ins<_>>(&tree, depth, truth, &mut rng, &at),
            run_narrowing::<Pns<_>>(&tree, depth, truth, &mut rng, &at),
        ];
        for (k, (v, w)) in results.into_iter().enumerate() {
            assert_fail_soft(v, truth, w, &format!("{}, {at}", NAMES[k]));
            outcomes[k][(v > w.0) as usize + (v >= w.1) as usize] += 1;
        }
    }
    for o in outcomes {
        assert!(o.iter().all(|&c| c >= 50), "below/inside/above: {o:?}");
    }
}

fn late_equals_early<'t, S: SequentialSearch<'t, SyntheticTree>>(
    tree: &'t SyntheticTree,
    (a, b): (Value, Value),
    at: &str,
) {
    let (d, root) = (tree.spec().depth, tree.root());
    let mut late = S::new(tree, root, -INF, INF, d);
    late.lower_beta(b);
    late.raise_alpha(a);
    assert_eq!(late.window(), (a, b));
    let mut early = S::new(tree, root, a, b, d);
    assert_eq!(run_counting(&mut late), run_counting(&mut early), "{at}");
}

#[test]
fn narrowing_before_the_first_step_is_starting_with_the_narrow_window() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(85);
    for n in 0..300u64 {
        let tree = random_tree(&mut rng, n);
        let t = tree.root().value;
        let w = (t + rng.random_range(-20..5), t + rng.random_range(6..30));
        let at = format!("{:?} seed {n}", tree.spec());
        late_equals_early::<Palphabeta<_>>(&tree, w, &at);
        late_equals_early::<Scout<_>>(&tree, w, &at);
        late_equals_early::<NegaScout<_>>(&tree, w, &at);
        late_equals_early::<Ins<_>>(&tree, w, &at);
        late_equals_early::<Pns<_>>(&tree, w, &at);
    }
}

fn abort_after<'t, S: SequentialSearch<'t, SyntheticTree>>(
    tree: &'t SyntheticTree,
    rng: &mut impl Rng,
) {
    let d = tree.spec().depth;
    let (_, whole) = run_counting(&mut S::new(tree, tree.root(), -INF, INF, d));
    let k = rng.random_range(0..whole.interior + whole.leaves);
    let mut s = S::new(tree, tree.root(), -INF, INF, d);
    for _ in 0..k {
        assert!(!matches!(s.step(), Step::Done(_)));
    }
    s.abort();
    assert!(s.is_aborted());
    for _ in 0..3 {
        assert_eq!(s.step(), Step::Done(ABORTED));
    }
    let mut fresh = S::new(tree, tree.root(), -INF, INF, d);
    fresh.abort();
    assert_eq!(run_counting(&mut fresh), (ABORTED, Count::default()));
}

#[test]
fn abort_ends_the_search_at_the_next_step() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(86);
    for n in 0..300u64 {
        let tree = random_tree(&mut rng, n);
        abort_after::<Palphabeta<_>>(&tree, &mut rng);
        abort_after::<Scout<_>>(&tree, &mut rng);
        abort_after::<NegaScout<_>>(&tree, &mut rng);
        abort_after::<Ins<_>>(&tree, &mut rng);
        abort_after::<Pns<_>>(&tree, &mut rng);
    }
}

// ---------------------------------------------------------------------------------------------
// A hand-built tree, counted by hand.

/// Node `i` has successors `children[i]` and evaluates to `value[i]` (side to move).
struct Table {
    children: Vec<Vec<usize>>,
    value: Vec<Value>,
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
            quiescence: 0,
        }
    }
    fn key(&self, node: &usize) -> u64 {
        *node as u64
    }
}

#[test]
fn a_two_ply_tree_counted_by_hand() {
    // Root 0 with successors 1 and 2; node 1 has leaves 3, 4 (values 5, 2 for their side to
    // move), node 2 has leaves 5, 6 (values -4, 1). Negamax: node 1 = max(-5, -2) = -2, node 2
    // = max(4, -1) = 4, root = max(2, -4) = 2.
    let t = Table {
        children: vec![
            vec![1, 2],
            vec![3, 4],
            vec![5, 6],
            vec![],
            vec![],
            vec![],
            vec![],
        ],
        value: vec![0, 0, 0, 5, 2, -4, 1],
    };
    assert_eq!(negamax(&t, &0, 2), 2);
    // Alpha-beta: node 1 both leaves (2), node 2 with window (-INF, -2): leaf 5 gives 4 >= -2,
    // cutoff: 3 leaves.
    let (v, c) = run_counting(&mut AlphaBeta::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.leaves), (2, 3));
    // SCOUT: node 1: leaf 3 evaluated (-5), leaf 4 tested TEST(4, 5, >=): 2 >= 5 is false, so
    // it beats -5 and is evaluated again (3 leaves, m = 2). TEST(node 2, -2, >=): leaf 5 is
    // tested TEST(5, 2, >): -4 > 2 is false, so node 2's test is true at once (1 leaf): node 2
    // does not beat 2. 4 leaves, one more than alpha-beta.
    let (v, c) = run_counting(&mut Scout::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves), (2, 3, 4));
    // Palphabeta: leaf 4 fails high on its minimal window and is evaluated again: 4 leaves.
    // NegaScout does not re-search at depth 1: 3 leaves, like alpha-beta.
    let (v, c) = run_counting(&mut Palphabeta::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves), (2, 3, 4));
    let (v, c) = run_counting(&mut NegaScout::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves), (2, 3, 3));
    // Swap the root's moves' values: node 2's leaves become 5 and 2 (node 2 = -2) and node
    // 1's -4 and 1 (node 1 = 4 from its own view, -4 from the root's). Root = max(-4, 2) = 2.
    let t = Table {
        children: vec![
            vec![1, 2],
            vec![3, 4],
            vec![5, 6],
            vec![],
            vec![],
            vec![],
            vec![],
        ],
        value: vec![0, 0, 0, -4, 1, 5, 2],
    };
    assert_eq!(negamax(&t, &0, 2), 2);
    // SCOUT: node 1 evaluated: 2 leaves, m = -4. TEST(node 2, 4, >=): leaf 5: TEST(5, -4, >):
    // 5 > -4 true; leaf 6: 2 > -4 true; all true, so the test is false: node 2 beats -4 (2
    // leaves). Re-search: SCOUT(node 2): leaf 5 evaluated (-5), leaf 6 tested TEST(6, 5, >=):
    // 2 >= 5 is false, so leaf 6 beats -5 and is evaluated again: 3 leaves. 2 + 2 + 3 = 7.
    let (v, c) = run_counting(&mut Scout::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves), (2, 4, 7));
    // Palphabeta: node 1 (2 leaves, m = -4); minimal window (-4, -3) for node 2: both leaves
    // (2), t = 2 > -4: re-search by alpha-beta with (2, INF): both leaves again (2). Total 6.
    let (v, c) = run_counting(&mut Palphabeta::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves), (2, 4, 6));
    // NegaScout: the same as palphabeta on two plies (re-search at the root, whose depth is 2).
    let (v, c) = run_counting(&mut NegaScout::new(&t, 0, -INF, INF, 2));
    assert_eq!((v, c.interior, c.leaves), (2, 4, 6));
}

#[test]
fn ignore_left_and_prove_best_cut_offs_counted_by_hand() {
    // Root R (0) with a terminal successor A (1, value 0) and B (2); B has C1, C2, C3 (3, 4,
    // 5), each with two leaves: C1: 6, 7 (-5, 0); C2: 8, 9 (1, -4); C3: 10, 11 (-3, -6).
    // Negamax: C1 = 5, C2 = 4, C3 = 6, B = max(-5, -4, -6) = -4, R = max(0, 4) = 4.
    let t = Table {
        children: vec![
            vec![1, 2],
            vec![],
            vec![3, 4, 5],
            vec![6, 7],
            vec![8, 9],
            vec![10, 11],
        ]
        .into_iter()
        .chain((6..12).map(|_| vec![]))
        .collect(),
        value: vec![0, 0, 0, 0, 0, 0, -5, 0, 1, -4, -3, -6],
    };
    assert_eq!(negamax(&t, &0, 3), 4);
    // Initial search, the same for NS, PNS and INS: A (1 leaf, a = 0); B with B's window
    // (-1, 0): C1 cuts off at leaf 6 (C1 sees 5), merit -5; C2 sees -1 at leaf 8, then 4 at leaf
    // 9, a cut-off at k = 1, merit -4; C3 cuts off at leaf 10, merit -3. B fails low with -3: R
    // sees 3 > 0 and re-searches B with (3, INF). 5 leaves so far, 5 interior nodes.
    //
    // INS: B's bounds sort its successors C3 (-3), C2 (-4), C1 (-5). C3 with (−∞, −3) from B:
    // its cut-off successor (leaf 10) first, then leaf 11 with a minimal window: C3 = 6. C2
    // with the narrow window (-6, -4): leaf 9 (its cut-off successor) gives 4, then leaf 8 is
    // left of the cut-off: ignored. C1: max(a, α) = -4 >= its bound -5: prove-best cut-off.
    // 3 more leaves (10, 11, 9) and 3 interior nodes (B, C3, C2).
    let (v, c) = run_counting(&mut Ins::new(&t, 0, -INF, INF, 3));
    assert_eq!((v, c.interior, c.leaves), (4, 8, 8));
    // PNS: the same order and cut-offs at B, but C3 and C2 are searched without their own
    // information: C2 evaluates leaf 8 as well. 4 more leaves.
    let (v, c) = run_counting(&mut Pns::new(&t, 0, -INF, INF, 3));
    assert_eq!((v, c.interior, c.leaves), (4, 8, 9));
    // NegaScout: B in move order: C1 (2 leaves), C2 fails high on its minimal window (2 leaves)
    // and is re-searched (2 leaves), C3 (2 leaves): 8 more leaves, 5 more interior nodes.
    let (v, c) = run_counting(&mut NegaScout::new(&t, 0, -INF, INF, 3));
    assert_eq!((v, c.interior, c.leaves), (4, 10, 13));
    // Alpha-beta searches all six leaves of B once: 7.
    let (v, c) = run_counting(&mut AlphaBeta::new(&t, 0, -INF, INF, 3));
    assert_eq!((v, c.leaves), (4, 7));
    // The references count the same.
    for (f, n) in [
        (ins_recursive as Reference<Table>, 8),
        (pns_recursive, 9),
        (negascout_recursive, 13),
    ] {
        let mut leaves = 0;
        assert_eq!(f(&t, &0, -INF, INF, 3, &mut leaves), 4);
        assert_eq!(leaves, n);
    }
}

#[test]
fn information_pays_on_average_ins_below_pns_below_negascout() {
    // Reinefeld et al., section 4.1.2 (Figs. 5-7): INS and PNS visit fewer bottom positions
    // than NS, INS the fewest, on random and on strongly ordered trees (the paper's first-best
    // 60%). Mean over 20 trees per shape, as the paper averages; and the information must
    // change the count on most random trees.
    for (w, d) in [(5u32, 3u32), (5, 4), (5, 5), (10, 3), (10, 4), (20, 3)] {
        for ordering in [Ordering::Random, Ordering::FirstBest { p: 0.6 }] {
            let mut total = [0u64; 3];
            let mut informed_differs = 0;
            for seed in 0..20u64 {
                let spec = SyntheticSpec {
                    width: w,
                    depth: d,
                    ordering: ordering.clone(),
                    value_spread: 1000,
                    horizon_noise: 0,
                };
                let tree = SyntheticTree::new(spec, seed).unwrap();
                let root = tree.root();
                let (v0, ns) = run_counting(&mut NegaScout::new(&tree, root, -INF, INF, d));
                let (v1, pns) = run_counting(&mut Pns::new(&tree, root, -INF, INF, d));
                let (v2, ins) = run_counting(&mut Ins::new(&tree, root, -INF, INF, d));
                assert!(v0 == root.value && v1 == v0 && v2 == v0);
                total[0] += ns.leaves;
                total[1] += pns.leaves;
                total[2] += ins.leaves;
                informed_differs += (ins.leaves != ns.leaves) as u32;
            }
            let at = format!("w={w} d={d} {}", ordering.label());
            assert!(
                total[2] <= total[1] && total[1] < total[0],
                "{at}: {total:?}"
            );
            if ordering == Ordering::Random {
                assert!(informed_differs >= 15, "{at}: {informed_differs}");
            }
        }
    }
}
