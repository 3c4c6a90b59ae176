//! The shared-memory split-point schemes (`YbwcShared`, `Dts`) in scenarios: they run on a
//! machine with `hardware.memory` (every run's value is checked against minimax by the
//! runner), report their split-point figures and memory traffic, and are refused, at the
//! field, on a machine without shared memory.

mod common;

use common::csv_rows;

/// Both schemes and their options on w = 4, d = 4 trees, 3 seeds, 1, 2 and 4 processors.
fn scenario(memory: &str) -> String {
    format!(
        r#"(
    name: "split",
    hardware: (
        costs: (k: Us(1), e: Us(1), s: Us(2), interrupt: Us(1)),
        link: Serial(rate: 1250000),
        network: FullyConnected,
        {memory}
    ),
    workload: Synthetic(width: 4, depth: 4, ordering: StronglyOrdered),
    search: (algorithm: Dts(), progressive_deepening: false),
    sweep: (
        processors: [1, 2, 4],
        seeds: Range(start: 1, count: 3),
        algorithm: [YbwcShared(), YbwcShared(victim: RoundRobin, helpful_master: false), Dts(), Dts(window_updates: false)],
    ),
    outputs: (plots: false),
)
"#
    )
}

fn run(name: &str, text: &str) -> (bool, String, Option<String>) {
    common::run_text("split", name, text)
}

#[test]
fn split_point_schemes_run_on_shared_memory_and_report_their_figures() {
    let (ok, err, csv) = run(
        "memory",
        &scenario("memory: (read: Ns(300), write: Ns(400), banks: 2),"),
    );
    assert!(ok, "{err}");
    let rows = csv_rows(&csv.unwrap());
    assert_eq!(rows.len(), 4 * 3 * 3);
    let names: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["algorithm"].as_str()).collect();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        [
            "dts",
            "dts_nowindow",
            "ybwc_shared",
            "ybwc_shared_rr_nohelp"
        ]
    );
    let num = |r: &std::collections::BTreeMap<String, String>, c: &str| -> u64 {
        r[c].parse()
            .unwrap_or_else(|_| panic!("{c} = {:?} in {r:?}", r[c]))
    };
    for r in &rows {
        let p = num(r, "processors");
        if p == 1 {
            // One processor is alpha-beta: nothing split, no memory touched.
            assert_eq!(num(r, "splits"), 0);
            assert_eq!(num(r, "mem_reads") + num(r, "mem_writes"), 0);
        } else {
            assert!(num(r, "split_examined") > 0, "{r:?}");
            assert!(
                num(r, "mem_reads") > 0 && num(r, "t_memory_ns") > 0,
                "{r:?}"
            );
        }
    }
    // Work is really shared on 4 processors, and two banks make locks wait somewhere.
    let four = rows.iter().filter(|r| r["processors"] == "4");
    let (splits, waits): (u64, u64) = four.fold((0, 0), |(s, w), r| {
        (s + num(r, "splits"), w + num(r, "lock_waits"))
    });
    assert!(splits > 12, "{splits} sons handed out");
    assert!(waits > 0, "no lock contention");
}

#[test]
fn without_shared_memory_they_are_refused_at_the_field() {
    let (ok, err, csv) = run("none", &scenario(""));
    assert!(!ok, "ran without shared memory");
    assert!(err.contains("hardware.memory"), "{err}");
    assert!(err.contains("ybwc_shared"), "{err}");
    assert!(csv.is_none());
}
