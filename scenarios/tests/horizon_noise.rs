//! Horizon noise enters a synthetic tree's evaluations short of its full depth only. The
//! catalogue says which algorithms make such evaluations (`Algorithm::evaluates_short`), and
//! `gtsim` warns when a sweep's noise cannot reach an algorithm's runs. Both are checked here
//! against runs: every algorithm, on one and several processors, at depths 1 to 4, at noise 0
//! and 50.

mod common;

use common::{csv_rows, gtsim, scratch, stderr};
use scenarios::catalogue::{Algorithm, Short};
use std::collections::{BTreeMap, BTreeSet};

/// Columns that may differ between the same search at two noises: the label, and what the
/// engine did to get there (the batching of searches whose evaluations changed cannot matter
/// when they did not, but the columns are not the search's).
const LABEL_OR_ENGINE: [&str; 4] = [
    "horizon_noise",
    "events",
    "engine_rollbacks",
    "engine_replayed_steps",
];

/// A scenario running `algorithms` (RON, as a scenario names them) on `processors`, at depths
/// 1 to 4, 6 trees, with `sweep.horizon_noise: [0, 50]`.
fn scenario(name: &str, algorithms: &[&str], processors: &str, progressive: bool) -> String {
    format!(
        r#"(
    name: "{name}",
    hardware: (
        costs: (k: Us(80), e: Us(256.5), s: Us(20), interrupt: Us(10)),
        link: Serial(rate: 1250000),
        network: FullyConnected,
        reads: (hosts: Interrupt, boards: Interrupt),
{memory}    ),
    workload: Synthetic(width: 5, depth: 4, ordering: FirstBest(p: 0.6)),
    search: (algorithm: {first}, progressive_deepening: {progressive}),
    sweep: (
        processors: {processors},
        depth: [1, 2, 3, 4],
        algorithm: [{list}],
        horizon_noise: [0, 50],
        seeds: Range(start: 1, count: 6),
    ),
    outputs: (plots: false),
)"#,
        first = algorithms[0],
        list = algorithms.join(", "),
        // Shared memory for the schemes that run on it (elsewhere it would be warned about).
        memory = if algorithms
            .iter()
            .any(|a| ["Shared", "Dts", "LazySmp", "Abdada"]
                .iter()
                .any(|s| a.contains(s)))
        {
            "        memory: (read: Ns(100), write: Ns(100), banks: 8),\n"
        } else {
            ""
        },
    )
}

/// Runs the scenario and checks, for every (algorithm, processors, depth), that its rows at the
/// two noises differ (on some tree) exactly when the catalogue says it evaluates short of the
/// full depth, and that the warning names exactly the algorithms that feel no noise on any
/// machine of the sweep.
fn check(name: &str, algorithms: &[&str], processors: &str, progressive: bool) {
    let by_name: BTreeMap<String, Algorithm> = algorithms
        .iter()
        .map(|text| {
            let a: Algorithm = ron::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            (a.name(), a)
        })
        .collect();
    let dir = scratch("horizon_noise", name);
    let file = dir.join("s.ron");
    std::fs::write(&file, scenario(name, algorithms, processors, progressive)).unwrap();
    let file = file.to_str().unwrap();
    // `check` says the warnings; `run --quiet` does not.
    let checked = gtsim(&["check", file]);
    assert!(checked.status.success(), "{name}: {}", stderr(&checked));
    let warnings = stderr(&checked);
    let out = dir.join("out");
    let ran = gtsim(&["run", file, "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(ran.status.success(), "{name}: {}", stderr(&ran));
    let csv = std::fs::read_to_string(out.join("results.csv")).ok();
    // (algorithm, processors, depth, seed) → noise → the rest of the row.
    type Rest = BTreeMap<String, String>;
    let mut runs: BTreeMap<(String, String, String, String), BTreeMap<String, Rest>> =
        BTreeMap::new();
    for row in csv_rows(&csv.expect("results.csv")) {
        // Every scheme marks when its root value is known (the answer_ns column), at or before
        // the end of the run; the checks below see every algorithm of the catalogue.
        let answer: u64 = row["answer_ns"].parse().unwrap_or_else(|_| {
            panic!(
                "{name}: {} on {} processor(s) has no answer_ns: its scheme's answer_at gives none",
                row["algorithm"], row["processors"]
            )
        });
        let elapsed: u64 = row["elapsed_ns"].parse().unwrap();
        assert!(
            answer <= elapsed && (row["processors"] != "1" || answer == elapsed),
            "{name}: {} on {} processor(s): answer at {answer} ns, end at {elapsed} ns",
            row["algorithm"],
            row["processors"]
        );
        let key = (
            row["algorithm"].clone(),
            row["processors"].clone(),
            row["depth"].clone(),
            row["seed"].clone(),
        );
        let noise = row["horizon_noise"].clone();
        let rest = row
            .into_iter()
            .filter(|(k, _)| !LABEL_OR_ENGINE.contains(&k.as_str()))
            .collect();
        runs.entry(key).or_default().insert(noise, rest);
    }
    // (algorithm, processors, depth) → whether some tree's rows differ.
    let mut differs: BTreeMap<(String, usize, u32), bool> = BTreeMap::new();
    for ((a, p, d, _), by_noise) in &runs {
        assert_eq!(
            by_noise.len(),
            2,
            "{name}: {a} on {p} at depth {d}: both noises"
        );
        let changed = by_noise["0"] != by_noise["50"];
        *differs
            .entry((a.clone(), p.parse().unwrap(), d.parse().unwrap()))
            .or_default() |= changed;
    }
    let mut felt_somewhere = BTreeSet::new();
    for ((a, p, d), changed) in &differs {
        let said = by_name[a].evaluates_short(*p, *d, progressive);
        // Evaluating nothing short of the full depth, its runs must be the same search. One
        // whose parallel part evaluates short (baudet's root estimate, aphid's master's leaves)
        // feels the noise on every tree; one that iterates may still search the same at 2
        // plies (the first iteration can leave the move order as it was), but from 3 plies the
        // noise shows on some of 6 trees.
        assert!(
            said || !changed,
            "{name}: {a} on {p} processor(s) at depth {d}: the catalogue says it evaluates nothing short of the full depth, but its rows at noise 0 and 50 differ"
        );
        let parallel =
            matches!(by_name[a].entry().short, Short::Parallel { .. }) && *p > 1 && !progressive;
        assert!(
            !said || *changed || (!parallel && *d < 3),
            "{name}: {a} on {p} processor(s) at depth {d}: the catalogue says it evaluates short of the full depth, but its rows at noise 0 and 50 are the same on every tree"
        );
        if *changed {
            felt_somewhere.insert(a.clone());
        }
    }
    // Every algorithm ran (none skipped everywhere).
    let done: BTreeSet<&String> = differs.keys().map(|(a, _, _)| a).collect();
    assert_eq!(done.len(), by_name.len(), "{name}: {warnings}");
    // The warning names the algorithms that feel the noise on no machine of the sweep (in
    // whole, without " on N processors").
    let warned: BTreeSet<String> = warnings
        .lines()
        .find_map(|l| l.split_once("sweep.horizon_noise: "))
        .map(|(_, rest)| {
            let list = rest
                .split(" evaluate")
                .next()
                .expect("a list of algorithms");
            list.split(", ")
                .flat_map(|s| s.split(" and "))
                .filter(|s| !s.contains(" on "))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let never: BTreeSet<String> = by_name
        .keys()
        .filter(|a| !felt_somewhere.contains(*a))
        .cloned()
        .collect();
    assert_eq!(warned, never, "{name}: {warnings}");
}

/// Every search on one processor (the parallel schemes run there as plain alpha-beta, or as
/// their one-processor form).
const ON_ONE: [&str; 16] = [
    "Ab",
    "Pab",
    "Scout",
    "NegaScout",
    "Ins",
    "Pns",
    "Sss",
    "Dual",
    "StagedSss(stage: 2)",
    "Sab()",
    "Abs()",
    "TreeSplit(update: true)",
    "Baudet()",
    "Aphid()",
    "LazySmp()",
    "Abdada(iterative: false)",
];

/// The parallel schemes and the options that decide where they evaluate, at a fixed depth.
const PARALLEL: [&str; 17] = [
    "Pmws",
    "TreeSplit(update: false)",
    "PvSplit()",
    "PvSplit(refined: true, update: true)",
    "Baudet()",
    "Mwf()",
    "Aphid(top: 1)",
    "Aphid()",
    "PmwsIx(broadcast: true)",
    "Ybwc()",
    "YbwcShared()",
    "Dts()",
    "LazySmp()",
    "LazySmp(iterative: false)",
    "LazySmp(entries: 0, deeper: true)",
    "Abdada()",
    "Abdada(values: false, iterative: false)",
];

/// The algorithms that can deepen progressively.
const PROGRESSIVE: [&str; 3] = ["Pmws", "Parabelle()", "PmwsIx(research: true)"];

#[test]
fn sequential_searches_and_schemes_on_one_processor() {
    check("one", &ON_ONE, "[1]", false);
}

#[test]
fn parallel_schemes_at_a_fixed_depth() {
    check("parallel", &PARALLEL, "[1, 2, 4]", false);
}

#[test]
fn progressive_deepening() {
    check("progressive", &PROGRESSIVE, "[1, 4]", true);
}

/// The lists above hold every algorithm of the catalogue (with its default options): a new
/// one must say where it evaluates, and be checked.
#[test]
fn every_algorithm_is_checked() {
    let checked: BTreeSet<String> = ON_ONE
        .iter()
        .chain(&PARALLEL)
        .chain(&PROGRESSIVE)
        .map(|text| ron::from_str::<Algorithm>(text).unwrap().name())
        .collect();
    for a in Algorithm::ALL {
        assert!(checked.contains(&a.name()), "{a} is not checked here");
    }
}

/// One noise that no run of the sweep feels: said. One that some run feels: not.
#[test]
fn a_noise_without_effect_is_said() {
    let dir = scratch("horizon_noise", "workload");
    let text = |algorithm: &str, progressive: bool| {
        scenario("w", &[algorithm], "[1, 4]", progressive)
            .replace(
                "FirstBest(p: 0.6))",
                "FirstBest(p: 0.6), horizon_noise: 50)",
            )
            .replace("        horizon_noise: [0, 50],\n", "")
    };
    for (algorithm, progressive, said) in [
        ("TreeSplit()", false, true),
        ("Ybwc()", false, true),
        ("Pmws", true, false),
        ("Baudet()", false, false),
    ] {
        let file = dir.join("s.ron");
        std::fs::write(&file, text(algorithm, progressive)).unwrap();
        let o = gtsim(&["check", file.to_str().unwrap()]);
        assert!(o.status.success(), "{algorithm}: {}", stderr(&o));
        let warned = stderr(&o).lines().any(|l| {
            l.contains("workload.horizon_noise: horizon noise 50 has no effect: ")
                && l.contains("evaluates no node short of the tree's full depth")
        });
        assert_eq!(warned, said, "{algorithm}: {}", stderr(&o));
    }
    // The default noise (50), left out of the file, goes without a word.
    let file = dir.join("s.ron");
    let unwritten = scenario("w", &["TreeSplit()"], "[1, 4]", false)
        .replace("        horizon_noise: [0, 50],\n", "");
    std::fs::write(&file, &unwritten).unwrap();
    let o = gtsim(&["check", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("horizon"), "{}", stderr(&o));
    // A noise written in the workload and a sweep of noises: the workload's is not used.
    let both = scenario("w", &["Pmws"], "[1, 4]", true).replace(
        "FirstBest(p: 0.6))",
        "FirstBest(p: 0.6), horizon_noise: 30)",
    );
    std::fs::write(&file, &both).unwrap();
    let o = gtsim(&["check", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("workload.horizon_noise: 30 is not used: sweep.horizon_noise lists the noises to run (0 and 50)"),
        "{}",
        stderr(&o)
    );
    // `None` is not a noise: an error, not the default.
    let none = unwritten.replace(
        "FirstBest(p: 0.6))",
        "FirstBest(p: 0.6), horizon_noise: None)",
    );
    std::fs::write(&file, &none).unwrap();
    let o = gtsim(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("workload.horizon_noise"),
        "{}",
        stderr(&o)
    );
}
