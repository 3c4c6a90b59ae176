//! lazy_smp and abdada in scenarios: they run on a machine with shared memory and report the
//! table's figures (tt_overwrites and abdada_deferred as columns of their own), the same
//! scenario gives byte-identical results, a scheme with a table is refused without
//! `hardware.memory`, and invalid table options are errors naming the algorithm.

mod common;

use common::csv_rows;

fn scenario(memory: &str, algorithms: &str) -> String {
    format!(
        r#"(
    name: "tt",
    hardware: (
        costs: (k: Us(1), e: Us(3), s: Us(2), interrupt: Us(1)),
        link: Serial(rate: 1250000),
        network: FullyConnected,
        {memory}
    ),
    workload: Synthetic(width: 5, depth: 5, ordering: StronglyOrdered),
    search: (algorithm: LazySmp()),
    sweep: (processors: [1, 4], algorithm: [{algorithms}], seeds: Range(start: 1, count: 2)),
    outputs: (plots: false),
)
"#
    )
}

fn run(name: &str, text: &str) -> (bool, String, Option<String>) {
    common::run_text("tt", name, text)
}

const MEMORY: &str =
    "memory: (read: Ns(100), write: Ns(100), banks: 8), jitter: (percent: 5.0, seed: 3),";

#[test]
fn they_run_on_shared_memory_and_report_their_table() {
    let text = scenario(
        MEMORY,
        "LazySmp(), LazySmp(entries: 0), LazySmp(entries: 256, ways: 2, replacement: Always, vote: true), Abdada(), Abdada(values: false)",
    );
    let (ok, err, csv) = run("runs", &text);
    assert!(ok, "{err}");
    let csv = csv.expect("results.csv");
    let rows = csv_rows(&csv);
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains(",tt_overwrites") && header.contains(",abdada_deferred"),
        "{header}"
    );
    let names: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["algorithm"].as_str()).collect();
    for name in [
        "lazy_smp",
        "lazy_smp_notable",
        "lazy_smp_e256_w2_always_vote",
        "abdada",
        "abdada_novalues",
    ] {
        assert!(names.contains(name), "{name} missing: {names:?}");
    }
    for r in &rows {
        let a = r["algorithm"].as_str();
        // Synthetic trees: every value is the tree's (the runner refuses a table-free one that
        // is not; the ones with a table are exact on these trees too): one value per seed.
        let same_seed = rows.iter().filter(|q| q["seed"] == r["seed"]);
        assert!(same_seed.clone().count() == 10, "{a}");
        for q in same_seed {
            assert_eq!(
                r["root_value"], q["root_value"],
                "{a} and {}",
                q["algorithm"]
            );
        }
        let probes = &r["tt_probes"];
        if a == "lazy_smp_notable" {
            assert!(probes.is_empty() && r["tt_overwrites"].is_empty(), "{a}");
            assert_eq!(r["t_memory_ns"], "0", "{a}");
        } else {
            assert!(probes.parse::<u64>().unwrap() > 0, "{a}");
            assert!(r["t_memory_ns"].parse::<u64>().unwrap() > 0, "{a}");
        }
        if a.starts_with("abdada") && r["processors"] == "4" {
            assert!(r["abdada_deferred"].parse::<u64>().unwrap() > 0, "{a}");
        }
    }
    // The same scenario, byte for byte.
    let (_, _, again) = run("again", &text);
    assert_eq!(again.as_deref(), Some(csv.as_str()));
}

#[test]
fn a_table_without_shared_memory_and_bad_tables_are_errors() {
    let (ok, err, _) = run("nomem", &scenario("", "Abdada(values: false)"));
    assert!(!ok && err.contains("hardware.memory"), "{err}");
    let (ok, err, _) = run("nomem2", &scenario("", "LazySmp()"));
    assert!(!ok && err.contains("hardware.memory"), "{err}");
    // Without a table lazy_smp needs no memory.
    let (ok, err, _) = run("notable", &scenario("", "LazySmp(entries: 0)"));
    assert!(ok, "{err}");
    for (name, algorithm, says) in [
        ("ways", "Abdada(entries: 10, ways: 4)", "multiple of ways"),
        (
            "zero",
            "LazySmp(entries: 0, ways: 2)",
            "no effect without a table",
        ),
    ] {
        let (ok, err, _) = run(name, &scenario(MEMORY, algorithm));
        assert!(!ok && err.contains(says), "{name}: {err}");
    }
}

/// report.md's "Table traffic and answers" of a chess comparison: per node searched is all
/// positions' counts over all their nodes (a small position weighs what it searched), and
/// overwrites are a mean per position; both recomputed here from the runs.
#[test]
fn the_chess_table_traffic_is_per_node_searched_over_all_positions() {
    let dir = common::scratch("tt", "chess-traffic");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemes-chess.ron"),
    )
    .unwrap()
    .replace("depth: 5)", "depth: 3)")
    .replace(
        "processors: [1, 2, 4, 8, 16],",
        "processors: [1, 4], positions: [\"BK.02\", \"BK.05\", \"BK.11\"],",
    )
    .replace(
        "algorithm: [Parabelle(), Ybwc(), YbwcShared(), Dts(), LazySmp(), Abdada()],",
        "algorithm: [LazySmp(entries: 64)],",
    )
    .replace("schemes: (at: 16,", "schemes: (at: 4,");
    let plan = scenarios::parse(&text, &dir.join("chess.ron")).unwrap();
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let out = dir.join("out");
    scenarios::write_outputs(&plan, &results, None, &out).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let row = md
        .split("### Table traffic and answers")
        .nth(1)
        .and_then(|t| t.lines().find(|l| l.starts_with("| lazy_smp_e64 | 4 |")))
        .unwrap_or_else(|| panic!("no p = 4 row in:\n{md}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    // | scheme | p | probes per node | hits % | stores per node | overwrites per position |
    // memory accesses per node | …
    let runs: Vec<_> = results
        .records
        .iter()
        .filter(|r| r.processors == 4)
        .collect();
    assert_eq!(runs.len(), 3);
    let sum = |name: &str| -> u64 {
        runs.iter()
            .map(|r| r.figures.0.get(name).unwrap_or(0))
            .sum()
    };
    let nodes: u64 = runs.iter().map(|r| r.leaf_nodes + r.interior_nodes).sum();
    assert_eq!(
        cells[3],
        format!("{:.3}", sum("tt_probes") as f64 / nodes as f64),
        "{row}"
    );
    assert_eq!(
        cells[5],
        format!("{:.3}", sum("tt_stores") as f64 / nodes as f64),
        "{row}"
    );
    assert_eq!(
        cells[6],
        format!("{:.1}", sum("tt_overwrites") as f64 / 3.0),
        "{row}"
    );
    let accesses = sum("mem_reads") + sum("mem_writes");
    assert_eq!(
        cells[7],
        format!("{:.3}", accesses as f64 / nodes as f64),
        "{row}"
    );
}
