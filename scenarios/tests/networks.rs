//! Issue 17's scenario side: `hardware.network`, `sweep.processors`, `outputs.schemes`, machines
//! varied, and the two shipped comparisons loading. Run through the `gtsim` binary where the
//! message or the files written are what matters.

use std::path::{Path, PathBuf};

mod common;
use common::{gtsim, stderr};

fn scratch(name: &str) -> common::Scratch {
    common::scratch("networks", name)
}

/// A small comparison: pmws, treesplit and ybwc on w = 4, d = 4 trees, 3 seeds, over `network`
/// (RON text of `hardware.network`), on `processors`.
fn scenario(network: &str, processors: &str, extra_outputs: &str) -> String {
    format!(
        r#"(
    name: "net",
    hardware: (
        costs: (k: Us(80), e: Us(256.5), s: Us(20), interrupt: Us(10)),
        link: Serial(rate: 1250000),
        network: {network},
        reads: (hosts: Interrupt, boards: Interrupt),
    ),
    workload: Synthetic(width: 4, depth: 4, ordering: StronglyOrdered),
    search: (algorithm: Pmws, progressive_deepening: false),
    sweep: (
        processors: {processors},
        algorithm: [Pmws, TreeSplit(update: true), Ybwc()],
        seeds: Range(start: 1, count: 3),
    ),
    outputs: (plots: false{extra_outputs}),
)
"#
    )
}

/// Runs `file` into `out` quietly; it must succeed (`what` names the case in the failure).
fn run_into(file: &Path, out: &Path, what: &str) {
    let o = gtsim(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{what}: {}", stderr(&o));
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The rows of a results.csv as maps from column name to value.
fn rows(csv: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            head.iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// `gtsim check` refuses `file` with `FILE:LINE:COL: FIELD: …` naming `field` and containing
/// each of `words`; `run` refuses it too and writes nothing.
fn refused(file: &Path, field: &str, words: &[&str]) {
    let dir = file.parent().unwrap();
    let out = dir.join("never");
    for (args, o) in common::check_and_run(file, &out) {
        let e = stderr(&o);
        assert!(!o.status.success(), "{args:?} accepted it: {e}");
        let prefix = format!("gtsim: error: {}:", file.display());
        assert!(e.starts_with(&prefix), "{e}");
        let rest = &e[prefix.len()..];
        let mut parts = rest.splitn(3, ':');
        let line: usize = parts.next().unwrap().parse().expect("a line number");
        let col: usize = parts.next().unwrap().parse().expect("a column number");
        assert!(line >= 1 && col >= 1, "{e}");
        assert!(
            parts.next().unwrap().trim_start().starts_with(field),
            "{e} names {field}"
        );
        for w in words {
            assert!(e.contains(w), "{e} says {w:?}");
        }
        assert!(!out.exists(), "nothing written for a refused scenario");
    }
}

#[test]
fn every_network_runs_every_scheme_and_reports_it() {
    let dir = scratch("every");
    for (tag, network, counts) in [
        ("lines", "FullyConnected", "[1, 2, 4, 8]"),
        (
            "cube",
            "Hypercube(forwarding: Software, forward_cost: Us(10))",
            "[1, 2, 4, 8]",
        ),
        (
            "mesh",
            "Mesh(torus: true, forwarding: Hardware, forward_cost: Us(5))",
            "[1, 3, 6, 8]",
        ),
        ("bus", "Bus(rate: 1250000)", "[1, 2, 5, 8]"),
    ] {
        let file = write(
            &dir,
            &format!("{tag}.ron"),
            &scenario(network, counts, ", schemes: (at: 8)"),
        );
        let out = dir.join(tag);
        run_into(&file, &out, tag);
        // Every run found the minimax value (the runner refuses any other) and is in results.
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let r = rows(&csv);
        assert_eq!(r.len(), 3 * 3 * 4, "{tag}: 3 schemes x 3 seeds x 4 counts");
        // (A run that does not return the tree's minimax value fails the whole command.)
        for row in &r {
            assert!(row["root_value"].parse::<i64>().is_ok(), "{tag}: {row:?}");
            // On a pool every processor searches and none is another's child; a tree scheme's
            // master has the other processors as children.
            let n: u32 = row["processors"].parse().unwrap();
            let shape = (&row["terminals"], &row["ptree_depth"], &row["ptree_width"]);
            let expected = match (n, row["algorithm"].as_str()) {
                (1, _) => (1, 0, 0),
                (_, "ybwc") => (n, 0, 0),
                _ => (n - 1, 1, n - 1),
            };
            let expected = (
                &expected.0.to_string(),
                &expected.1.to_string(),
                &expected.2.to_string(),
            );
            assert_eq!(shape, expected, "{tag}: {row:?}");
        }
        for p in ["schemes.png", "schemes-overheads.png"] {
            let png = std::fs::read(out.join(p)).unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{tag}: {p}");
        }
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(md.contains("## Schemes compared"), "{tag}");
        assert!(md.contains("| ybwc |"), "{tag}");
        let named = match tag {
            "lines" => "point-to-point lines between every pair that talks",
            "cube" => "hypercube (software forwarding, 10 µs per hop)",
            "mesh" => "nearly square torus (hardware forwarding, 5 µs per hop)",
            _ => {
                "shared bus (1,250,000 bytes/s (10 Mbit/s), 26 header bytes, 64-byte minimum frame)"
            }
        };
        assert!(md.contains(named), "{tag}: the report names the network");
    }
}

#[test]
fn a_tree_scheme_on_fully_connected_lines_is_its_processor_tree() {
    // Without RTS/CTS, the lines a tree scheme uses on FullyConnected are exactly its processor
    // tree's: every column of the tree schemes' results is equal.
    let dir = scratch("same");
    let mut results = Vec::new();
    for network in ["Tree", "FullyConnected"] {
        let text = scenario(network, "[1, 2, 3, 5]", "").replace(", Ybwc()", "");
        let file = write(&dir, "s.ron", &text);
        let out = dir.join(network);
        run_into(&file, &out, network);
        let mut r = rows(&std::fs::read_to_string(out.join("results.csv")).unwrap());
        // The event count depends on how far the lookahead sees, which differs (a pool's is
        // computed per sender); no simulated figure does.
        for row in &mut r {
            for c in ["events", "engine_rollbacks", "engine_replayed_steps"] {
                row.remove(c);
            }
        }
        results.push(r);
    }
    assert_eq!(results[0].len(), 2 * 3 * 4);
    assert_eq!(results[0], results[1]);
}

#[test]
fn the_bus_is_shared() {
    // The same lines' rate as one shared bus: ybwc's messages queue for it, so with 8
    // processors the bus run is slower than the lines' on some tree and never faster by more
    // than framing could explain (it is never faster: the bus frames are longer too).
    let dir = scratch("bus");
    let mut elapsed = Vec::new();
    for (tag, network) in [
        ("lines", "FullyConnected"),
        (
            "bus",
            "Bus(rate: 1250000, header_bytes: 0, min_frame_bytes: 0)",
        ),
    ] {
        let text = scenario(network, "[1, 8]", "")
            .replace("[Pmws, TreeSplit(update: true), Ybwc()]", "[Ybwc()]")
            .replace("algorithm: Pmws,", "algorithm: Ybwc(),")
            .replace("width: 4, depth: 4", "width: 6, depth: 6")
            // Slow lines, so that messages matter.
            .replace("1250000", "20000");
        let file = write(&dir, &format!("{tag}.ron"), &text);
        let out = dir.join(tag);
        run_into(&file, &out, tag);
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let t: Vec<u64> = rows(&csv)
            .iter()
            .filter(|r| r["processors"] == "8")
            .map(|r| r["elapsed_ns"].parse().unwrap())
            .collect();
        elapsed.push(t);
    }
    let (lines, bus) = (&elapsed[0], &elapsed[1]);
    assert_eq!(lines.len(), 3);
    let total = |v: &[u64]| v.iter().sum::<u64>();
    assert!(
        total(bus) > total(lines),
        "bus {bus:?} against lines {lines:?}"
    );
}

#[test]
fn networks_are_checked_against_the_sweep_at_their_fields() {
    let dir = scratch("errors");
    let cube = write(
        &dir,
        "cube.ron",
        &scenario(
            "Hypercube(forwarding: Software, forward_cost: Us(10))",
            "[1, 2, 6]",
            "",
        ),
    );
    refused(
        &cube,
        "hardware.network",
        &["power of two", "not 6", "sweep.processors"],
    );
    let mesh = write(
        &dir,
        "mesh.ron",
        &scenario(
            "Mesh(width: 2, height: 2, forwarding: Hardware, forward_cost: Us(1))",
            "[1, 4, 8]",
            "",
        ),
    );
    refused(&mesh, "hardware.network", &["2 × 2 mesh", "not 8"]);
    let half = write(
        &dir,
        "half.ron",
        &scenario(
            "Mesh(width: 2, forwarding: Hardware, forward_cost: Us(1))",
            "[1, 4]",
            "",
        ),
    );
    refused(&half, "hardware.network", &["both width and height"]);
    let sci = write(
        &dir,
        "sci.ron",
        &scenario("Bus(rate: 1000)", "[1, 2]", "")
            .replace("Serial(rate: 1250000)", "Sci(rate: 960)"),
    );
    refused(&sci, "hardware.link", &["SCI", "processor tree"]);
    let tree = write(&dir, "tree.ron", &scenario("Tree", "[1, 2, 4]", ""));
    refused(
        &tree,
        "hardware.network",
        &["ybwc", "pool", "hardware.network"],
    );
    let both = write(
        &dir,
        "both.ron",
        &scenario("FullyConnected", "[1, 2]", "")
            .replace("processors: [1, 2],", "processors: [1, 2], fanout: [1, 2],"),
    );
    refused(&both, "sweep.processors", &["not both"]);
    let at = write(
        &dir,
        "at.ron",
        &scenario("FullyConnected", "[1, 2, 4]", ", schemes: (at: 3)"),
    );
    refused(&at, "outputs.schemes.at", &["3 processors", "1, 2, 4"]);
    let zero = write(&dir, "zero.ron", &scenario("Bus(rate: 0)", "[1, 2]", ""));
    refused(&zero, "hardware.network.rate", &["at least 1"]);
}

#[test]
fn vary_and_set_reach_the_machine() {
    // Before, a varied machine was resolved after the file's own and silently did nothing.
    let dir = scratch("machines");
    let text = r#"(
    name: "m",
    machine: "campbell-ideal",
    vary: {"machine": ["campbell-ideal", "lines-960"]},
    workload: Synthetic(width: 3, depth: 3, ordering: Random),
    search: (algorithm: TreeSplit(update: false)),
    sweep: (processors: [1, 3], seeds: Range(start: 1, count: 2)),
    outputs: (plots: false, schemes: (at: 3)),
)
"#;
    let file = write(&dir, "m.ron", text);
    let out = dir.join("out");
    let o = gtsim(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let costs = |folder: &str| {
        let md = std::fs::read_to_string(out.join(folder).join("report.md")).unwrap();
        md.lines()
            .find(|l| l.starts_with("Costs:"))
            .unwrap()
            .to_string()
    };
    let ideal = costs("machine=campbell-ideal");
    let lines = costs("machine=lines-960");
    assert!(ideal.contains("e = 1 ns"), "{ideal}");
    assert!(lines.contains("e = 25.65 ms"), "{lines}");
    assert!(lines.contains("960 bytes/s"), "{lines}");
    // The vary folder ranks the schemes per machine and draws them side by side.
    let index = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(index.contains("## Schemes compared across the combinations"));
    assert!(index.contains("| treesplit |"), "{index}");
    let png = std::fs::read(out.join("schemes.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The varied column names each row's machine as its folder does, without RON's quotes.
    let all = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let machines: std::collections::BTreeSet<&str> = all
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert!(all.lines().next().unwrap().ends_with(",machine"));
    assert_eq!(
        machines.into_iter().collect::<Vec<_>>(),
        ["campbell-ideal", "lines-960"]
    );
    // --set machine=NAME (no vary) picks the machine too.
    let single = write(
        &dir,
        "single.ron",
        &text.replace(
            "    vary: {\"machine\": [\"campbell-ideal\", \"lines-960\"]},\n",
            "",
        ),
    );
    let o = gtsim(&[
        "check",
        single.to_str().unwrap(),
        "--set",
        "machine=lines-960",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out2 = dir.join("out2");
    let o = gtsim(&[
        "run",
        single.to_str().unwrap(),
        "--set",
        "machine=lines-960",
        "--out",
        out2.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(out2.join("report.md")).unwrap();
    assert!(md.contains("e = 25.65 ms"));
}

#[test]
fn the_shipped_comparisons_load() {
    for name in [
        "schemes-compare.ron",
        "ybwc-scale.ron",
        "ybwc-deep.ron",
        "schemes-chess.ron",
    ] {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
        let o = gtsim(&["check", file.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
}
