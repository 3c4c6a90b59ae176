//! Issue 18's scenario side: `hardware.memory` and `hardware.jitter`, their errors, and the
//! memory columns.

mod common;

use common::csv_rows;

/// ybwc on w = 4, d = 4 trees, 3 seeds, 1 and 4 processors, with `extra` hardware fields.
fn scenario(extra: &str) -> String {
    format!(
        r#"(
    name: "shm",
    hardware: (
        costs: (k: Us(1), e: Us(1), s: Us(2), interrupt: Us(1)),
        link: Serial(rate: 1250000),
        network: FullyConnected,
        reads: (hosts: Interrupt, boards: Interrupt),
        {extra}
    ),
    workload: Synthetic(width: 4, depth: 4, ordering: StronglyOrdered),
    search: (algorithm: Ybwc(), progressive_deepening: false),
    sweep: (processors: [1, 4], seeds: Range(start: 1, count: 3)),
    outputs: (plots: false),
)
"#
    )
}

fn run(name: &str, text: &str) -> (bool, String, Option<String>) {
    common::run_text("shm", name, text)
}

#[test]
fn bad_memory_and_jitter_are_errors_at_their_field() {
    for (name, extra, field) in [
        (
            "numa",
            "memory: (read: Ns(100), write: Ns(100), banks: 8, numa: (per_node: 2, remote_factor: 0.5)),",
            "hardware.memory.numa.remote_factor",
        ),
        ("banks", "memory: (read: Ns(100), write: Ns(100), banks: 0),", "banks"),
        ("jitter", "jitter: (percent: 120.0),", "hardware.jitter.percent"),
        ("unknown", "memory: (read: Ns(100), write: Ns(100), banks: 8, ways: 2),", "ways"),
    ] {
        let (ok, err, csv) = run(name, &scenario(extra));
        assert!(!ok, "{name} was accepted");
        assert!(err.contains(field), "{name}: {err}");
        assert!(err.contains("s.ron:"), "{name} names the file: {err}");
        assert!(csv.is_none(), "{name} wrote results");
    }
}

/// The engine draws the noise in whole thousandths of a step's cost: a percentage between two
/// tenths was rounded without a word (0.04 % ran with no noise at all).
#[test]
fn a_jitter_finer_than_a_tenth_of_a_percent_is_refused_at_its_field() {
    let dir = common::scratch("shm", "jitter-tenths");
    let check = |name: &str, percent: &str| {
        let text = scenario(&format!("jitter: (percent: {percent}, seed: 1),"));
        let file = dir.join(name);
        std::fs::write(&file, &text).unwrap();
        let out = common::gtsim(&["check", file.to_str().unwrap()]);
        let line = text.lines().position(|l| l.contains("jitter:")).unwrap() + 1;
        let col = text.lines().nth(line - 1).unwrap().find("percent").unwrap() + 1;
        (out.status.code(), common::stderr(&out), line, col)
    };
    for (name, percent, got) in [
        (
            "hundredths.ron",
            "0.04",
            "got 0.04: write a multiple of 0.1 (such as 0 or 0.1)",
        ),
        (
            "half.ron",
            "5.05",
            "got 5.05: write a multiple of 0.1 (such as 5 or 5.1)",
        ),
        // Within the tolerance of a tenth, but not no noise.
        (
            "tiny.ron",
            "1e-12",
            "got 0.000000000001: write a multiple of 0.1 (such as 0 or 0.1)",
        ),
    ] {
        let (code, err, line, col) = check(name, percent);
        assert_eq!(code, Some(3), "{percent} was not refused: {err}");
        let at = format!(
            "{}:{line}:{col}: hardware.jitter.percent: the timing noise is drawn in steps of 0.1 %",
            dir.join(name).display()
        );
        assert!(err.contains(&at), "{percent}: {err} does not say {at}");
        assert!(err.contains(got), "{percent}: {err} does not say {got}");
    }
    // Tenths are taken as written, whatever their binary error (0.3 is 2.9999…e-1).
    for percent in ["0.0", "0.3", "2.5", "99.9", "7"] {
        let (code, err, ..) = check("tenths.ron", percent);
        assert_eq!(code, Some(0), "{percent} was refused: {err}");
    }
}

#[test]
fn memory_columns_appear_on_a_shared_memory_machine_only() {
    let (ok, err, csv) = run("plain", &scenario(""));
    assert!(ok, "{err}");
    let plain = csv.unwrap();
    assert!(!plain.lines().next().unwrap().contains("t_memory_ns"));
    let (ok, err, csv) = run(
        "memory",
        &scenario("memory: (read: Ns(100), write: Ns(120), banks: 16),"),
    );
    assert!(ok, "{err}");
    let with = csv_rows(&csv.unwrap());
    let without = csv_rows(&plain);
    assert_eq!(with.len(), without.len());
    for (a, b) in with.iter().zip(&without) {
        // ybwc sends messages and touches no shared memory: the memory is there, unused.
        assert_eq!(a["t_memory_ns"], "0");
        assert_eq!(a["mem_reads"], "0");
        assert_eq!(a["elapsed_ns"], b["elapsed_ns"]);
    }
}

#[test]
fn jitter_is_reproducible_and_follows_its_seed() {
    let jittered = |name: &str, seed: u64| {
        let (ok, err, csv) = run(
            name,
            &scenario(&format!("jitter: (percent: 10.0, seed: {seed}),")),
        );
        assert!(ok, "{err}");
        csv_rows(&csv.unwrap())
    };
    let (_, _, exact) = run("exact", &scenario(""));
    let exact = csv_rows(&exact.unwrap());
    let a = jittered("a", 1);
    let again = jittered("again", 1);
    let b = jittered("b", 2);
    let elapsed = |rows: &[std::collections::BTreeMap<String, String>]| -> Vec<f64> {
        rows.iter()
            .map(|r| r["elapsed_ns"].parse().unwrap())
            .collect()
    };
    assert_eq!(elapsed(&a), elapsed(&again));
    assert_ne!(elapsed(&a), elapsed(&b));
    assert_ne!(elapsed(&a), elapsed(&exact));
    for (x, e) in elapsed(&a).iter().zip(elapsed(&exact)) {
        assert!((x / e - 1.0).abs() < 0.2, "{x} against {e}");
    }
    // Root values never move.
    for (x, e) in a.iter().zip(&exact) {
        assert_eq!(x["root_value"], e["root_value"]);
    }
}
