//! Lookahead batching changes nothing but the engine's event count, on every shipped scenario
//! (reduced to a few configurations and seeds so that the step-by-step runs stay quick).

use scenarios::{run_plan, Plan, RunRecord};
use std::path::Path;

/// Shipped scenarios too heavy to run here even reduced: ybwc-deep.ron's one configuration is a
/// 1,024-processor search of a d = 14 tree (minutes batched, far longer step by step). This test
/// only loads them; `every_shipped_scenario_checks` (cli.rs) checks them, and ybwc-scale.ron runs
/// the same hardware here on d = 10 trees.
const LOAD_ONLY: [&str; 1] = ["ybwc-deep.ron"];

/// Scenarios run at 3 plies here (their own depth would take minutes step by step).
const SHALLOW: [&str; 1] = ["schemes-chess.ron"];

fn shipped() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// Every column but `events`.
fn without_events(r: &RunRecord) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    for c in ["events", "engine_rollbacks", "engine_replayed_steps"] {
        v.as_object_mut().unwrap().remove(c);
    }
    v
}

fn small(mut plan: Plan) -> Plan {
    // The cheapest configurations first (the study's deep trees would take minutes step by step).
    plan.configs
        .sort_by_key(|c| (c.width as u64).pow(c.depth.div_ceil(2)));
    plan.configs.truncate(3);
    plan.seeds.truncate(2);
    plan
}

#[test]
fn every_shipped_scenario_gives_the_same_results_with_and_without_batching() {
    let files = shipped();
    assert!(files.len() >= 3, "{files:?}");
    for file in files {
        let plan = scenarios::load(&file).unwrap();
        if LOAD_ONLY.iter().any(|n| file.ends_with(n)) {
            continue;
        }
        let mut plan = small(plan);
        if SHALLOW.iter().any(|n| file.ends_with(n)) {
            for c in &mut plan.configs {
                c.depth = c.depth.min(3);
            }
        }
        let mut off = plan.clone();
        off.batching = false;
        let a = run_plan(&plan, 2, &|_, _| {}).unwrap();
        let b = run_plan(&off, 2, &|_, _| {}).unwrap();
        assert_eq!(a.records.len(), b.records.len());
        assert!(!a.records.is_empty());
        for (x, y) in a.records.iter().zip(&b.records) {
            assert_eq!(without_events(x), without_events(y), "{}", file.display());
        }
        let events = |r: &[RunRecord]| r.iter().map(|x| x.events).sum::<u64>();
        assert!(
            events(&a.records) <= events(&b.records),
            "{}: batching never adds events",
            file.display()
        );
        let json = |s: &[scenarios::Summary]| serde_json::to_string(s).unwrap();
        assert_eq!(json(&a.summaries), json(&b.summaries), "{}", file.display());
    }
}
