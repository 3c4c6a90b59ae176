//! `gtsim run --conservative` and `--step-by-step` against the default (optimistic execution) on
//! the shipped treesplit scenario, whose interrupt-driven processors on ideal lines can be
//! reached at any moment: the same results.csv but for the engine's columns, and the default
//! really rolled back.

mod common;

use common::{csv_rows, gtsim, scratch, stderr};

const ENGINE: [&str; 3] = ["events", "engine_rollbacks", "engine_replayed_steps"];

/// Runs treesplit.ron with `flags`; its results.csv.
fn run(dir: &std::path::Path, name: &str, flags: &[&str]) -> String {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/treesplit.ron");
    let out = dir.join(name);
    let mut args = vec!["run", file, "--out", out.to_str().unwrap(), "--quiet"];
    args.extend_from_slice(flags);
    let o = gtsim(&args);
    assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
    std::fs::read_to_string(out.join("results.csv")).unwrap()
}

/// The column's values summed over every row.
fn total(rows: &[std::collections::BTreeMap<String, String>], column: &str) -> u64 {
    rows.iter().map(|r| r[column].parse::<u64>().unwrap()).sum()
}

#[test]
fn conservative_and_step_by_step_runs_equal_the_optimistic_run_but_for_the_engine_columns() {
    let dir = scratch("optimistic", "treesplit");
    let optimistic = csv_rows(&run(&dir, "optimistic", &[]));
    let conservative = csv_rows(&run(&dir, "conservative", &["--conservative"]));
    let step = csv_rows(&run(&dir, "step", &["--step-by-step"]));
    assert!(optimistic.len() >= 10);
    for other in [&conservative, &step] {
        assert_eq!(optimistic.len(), other.len());
        for (a, b) in optimistic.iter().zip(other.iter()) {
            assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
            for (column, value) in a {
                if !ENGINE.contains(&column.as_str()) {
                    assert_eq!(value, &b[column], "column {column}");
                }
            }
        }
    }
    assert!(total(&optimistic, "engine_rollbacks") > 0);
    assert!(total(&optimistic, "engine_replayed_steps") >= total(&optimistic, "engine_rollbacks"));
    for other in [&conservative, &step] {
        assert_eq!(total(other, "engine_rollbacks"), 0);
        assert_eq!(total(other, "engine_replayed_steps"), 0);
    }
    assert!(total(&optimistic, "events") < total(&conservative, "events"));
    assert!(total(&conservative, "events") <= total(&step, "events"));
}
