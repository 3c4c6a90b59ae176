//! Every sequential search that scenarios can name (Campbell section 2.2, Reinefeld et al.
//! section 4) returns the same minimax value on every tree: 1,260 random trees, widths 2–8,
//! depths 1–6, every ordering, from both generators (Campbell's `gen` and the weight-based
//! one), each search run through the same dispatch `gtsim run` uses, alone on one simulated
//! processor. The SSS* family reports its OPEN list's peak; the depth-first searches none.

use algorithms::rng::SplitMix64;
use algorithms::{
    negamax, CampbellSpec, CampbellTree, GameTree, Ordering, SyntheticSpec, SyntheticTree,
};
use rand::{Rng, SeedableRng};
use scenarios::catalogue::Algorithm;
use scenarios::dispatch::PTree;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};

/// Every sequential search, with the hybrids split at each possible depth.
fn searches() -> Vec<Algorithm> {
    let mut v = vec![
        Algorithm::Ab,
        Algorithm::Pab,
        Algorithm::Scout,
        Algorithm::NegaScout,
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::Ins,
        Algorithm::Pns,
        Algorithm::StagedSss { stage: 2 },
        Algorithm::StagedSss { stage: 1 },
        Algorithm::StagedSss { stage: 3 },
        Algorithm::Sab { top: None },
        Algorithm::Abs { top: None },
    ];
    for k in 1..=5 {
        v.push(Algorithm::Sab { top: Some(k) });
        v.push(Algorithm::Abs { top: Some(k) });
    }
    v
}

fn orderings(rng: &mut SplitMix64) -> Vec<Ordering> {
    vec![
        Ordering::Random,
        Ordering::FirstBest { p: 0.5 },
        Ordering::Geometric { p: 0.5 },
        Ordering::FirstBest { p: 0.8 },
        Ordering::Geometric { p: 0.8 },
        Ordering::Perfect,
        Ordering::FirstBest {
            p: rng.random_range(0.0..=1.0),
        },
        Ordering::StronglyOrdered,
    ]
}

/// Runs every applicable search on `tree`; returns how many ran.
fn check<T: GameTree>(tree: &T, depth: u32, what: &str) -> usize {
    let expected = negamax(tree, &tree.root(), depth);
    let mut ran = 0;
    for s in searches() {
        let a = s;
        if a.not_applicable(&PTree::UNIPROCESSOR, depth).is_some() {
            continue;
        }
        let config = MachineConfig::new(
            ProcessorTree::new(1, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        );
        let run = a
            .run(tree, depth, false, config)
            .unwrap_or_else(|e| panic!("{} on {what}: {e}", s.name()));
        assert_eq!(
            run.root_value,
            Some(expected),
            "{} on {what}: wrong minimax value",
            s.name()
        );
        let nodes = run.stats.total_nodes();
        assert!(nodes.leaves >= 1, "{} on {what}", s.name());
        // One leaf costs one time unit and nothing else costs anything: time = leaves.
        assert_eq!(
            run.stats.makespan.as_nanos(),
            nodes.leaves,
            "{} on {what}",
            s.name()
        );
        let best_first = matches!(
            s,
            Algorithm::Sss | Algorithm::Dual | Algorithm::StagedSss { .. }
        );
        if best_first {
            assert!(
                run.figures.get("open_peak").is_some_and(|p| p >= 1),
                "{} on {what}: no OPEN-list peak",
                s.name()
            );
        }
        if matches!(
            s,
            Algorithm::Ab | Algorithm::Pab | Algorithm::Scout | Algorithm::NegaScout
        ) {
            assert_eq!(run.figures.get("open_peak"), None, "{} on {what}", s.name());
        }
        ran += 1;
    }
    ran
}

#[test]
fn every_sequential_search_finds_the_minimax_value_on_every_tree() {
    let mut rng = SplitMix64::seed_from_u64(1981);
    let (mut trees, mut runs) = (0, 0);
    for width in 2..=8u32 {
        for depth in 1..=6u32 {
            // Keep the largest trees few: 8^6 leaves is 262,144.
            let seeds = if width.pow(depth) > 40_000 { 1 } else { 2 };
            for ordering in orderings(&mut rng) {
                for _ in 0..seeds {
                    let seed = rng.random();
                    let what = format!("w = {width}, d = {depth}, {}", ordering.label());
                    let campbell = CampbellTree::new(
                        CampbellSpec {
                            width,
                            depth,
                            ordering: ordering.clone(),
                        },
                        seed,
                    )
                    .unwrap();
                    runs += check(
                        &campbell,
                        depth,
                        &format!("Campbell tree {what}, seed {seed}"),
                    );
                    let spec = SyntheticSpec {
                        width,
                        depth,
                        ordering: ordering.clone(),
                        value_spread: rng.random_range(1..=1000),
                        horizon_noise: 0,
                    };
                    let synthetic = SyntheticTree::new(spec, seed).unwrap();
                    runs += check(
                        &synthetic,
                        depth,
                        &format!("synthetic tree {what}, seed {seed}"),
                    );
                    trees += 2;
                }
            }
        }
    }
    assert!(trees >= 1000, "{trees} trees");
    assert!(runs >= 10 * trees, "{runs} runs on {trees} trees");
}
