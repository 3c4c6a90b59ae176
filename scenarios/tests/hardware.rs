//! The hardware section as a run sees it: a line rate per processor count (the paper's 480
//! bytes/s with four processors), a link per level, read policies; and a run whose simulated
//! time cannot be represented is an error naming the run and the fields to change.

use scenarios::dispatch::{machine_config, PTree};
use sim_hw::{LinkKind, ReadPolicy};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test's files, `gtsim-TAG-PID` in the temporary folder (removed first
/// if an earlier run left it).
fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gtsim-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` as the file `name` in `dir`; its path.
fn write_in(dir: &Path, name: &str, text: String) -> PathBuf {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f
}

fn scenario(hardware: &str, sweep: &str) -> String {
    format!(
        r#"(
    name: "hw",
    hardware: ({hardware}),
    workload: Synthetic(width: 4, depth: 3, ordering: Random),
    search: (algorithm: TreeSplit(update: true), progressive_deepening: false),
    sweep: ({sweep}, seeds: Range(start: 1, count: 2)),
)"#
    )
}

#[test]
fn the_line_rate_follows_the_processor_count_and_the_level() {
    let text = scenario(
        "costs: (k: Ms(8.0), e: Ms(25.65)),
         link: Sci(rate: 960, rate_by_processors: {4: 480, 7: 240}),
         link_below: Serial(rate: 100),
         reads: (hosts: Interrupt, boards: Poll(every: 7))",
        "fanout: [1, 2, 4], ptree: [(depth: 2, width: 2)]",
    );
    let plan = scenarios::parse(&text, Path::new("hw.ron")).unwrap();
    assert_eq!(plan.reads.boards, ReadPolicy::Poll { every: 7 });
    assert_eq!(plan.reads.hosts, ReadPolicy::Interrupt);
    let rate = |p: PTree, level: usize| {
        let m = machine_config(p.build().into(), plan.costs, &plan.links, plan.reads, true);
        match m.link_at(level).kind {
            LinkKind::Serial { rate } => rate,
            LinkKind::Ideal => 0,
        }
    };
    let paper = |f| PTree::Paper {
        fanout: f,
        length: 1,
    };
    assert_eq!(rate(paper(2), 0), 960);
    assert_eq!(rate(paper(4), 0), 480, "halved with four processors");
    // (2,2): seven processors; the root's lines at 240, the lines below at 100 bytes/s.
    let deep = PTree::Campbell { depth: 2, width: 2 };
    assert_eq!(rate(deep, 0), 240);
    assert_eq!(rate(deep, 1), 100);
    // And the simulated lines really run at those rates: the run's message log shows it.
    let key = scenarios::runner::RunKey {
        config: 0,
        algorithm: 0,
        ptree: deep,
        seed: 1,
    };
    let rec = scenarios::Recording {
        intervals: false,
        messages: true,
    };
    let run = scenarios::runner::simulate_run(&plan, key, rec).unwrap();
    for m in &run.stats.message_log {
        let deeper = m.from.0 > 2 || m.to.0 > 2;
        let rate = if deeper { 100 } else { 240 };
        assert_eq!(
            (m.arrived.0 - m.transmit_start.0),
            sim_core::SimTime::transmit(m.bytes, rate).0,
            "{m:?}"
        );
    }
}

#[test]
fn a_run_past_the_largest_time_is_an_error_naming_the_run_and_the_fields() {
    let dir = std::env::temp_dir().join(format!("gtsim-overflow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // a stale folder of an earlier process with this id
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("huge.ron");
    // Accepted by the schema and by the loader (the minimal tree's leaves and interior nodes
    // fit), but the parallel run's messages, 3.6e9 s of setup each, pass 584 years of
    // nanoseconds.
    std::fs::write(
        &file,
        scenario(
            "costs: (k: Ms(0.0), e: Ms(1.0), s: S(3600000000.0)), link: Ideal",
            "ptree: [(depth: 1, width: 2)]",
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(err.contains("treesplit_update on w = 4, d = 3"), "{err}");
    assert!(err.contains("seed 1"), "{err}");
    assert!(err.contains("hardware.costs"), "{err}");
    assert!(!out.exists(), "no output folder for a failed run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn costs_whose_minimal_tree_passes_the_largest_time_are_errors_at_their_field() {
    // Each of these makes the minimal tree of w = 4, d = 3 (19 leaves, 12 interior nodes) on
    // one processor pass u64 nanoseconds: every baseline run would fail, so loading fails, at
    // the field that weighs more. (Before, `check` accepted them and `run` failed naming no
    // line.)
    for (costs, field) in [
        ("k: Ms(0.0), e: S(3600000000.0)", "e"),
        ("k: S(3000000000.0), e: Ns(1)", "k"),
        ("k: Ns(0), e: Ns(18446744073709551615)", "e"),
        ("k: Ns(18446744073709551615), e: Ns(1)", "k"),
    ] {
        let text = scenario(
            &format!("costs: ({costs}), link: Ideal"),
            "ptree: [(depth: 1, width: 2)]",
        );
        let e = scenarios::parse(&text, Path::new("hw.ron"))
            .unwrap_err()
            .to_string();
        // The column of the field's name (after "(" or " ").
        let line = text.lines().nth(2).unwrap();
        let col = [format!("({field}: "), format!(" {field}: ")]
            .iter()
            .find_map(|n| line.find(n.as_str()))
            .unwrap()
            + 2;
        assert!(
            e.starts_with(&format!("hw.ron:3:{col}: hardware.costs.{field}: ")),
            "{costs}: {e}"
        );
        assert!(
            e.contains("minimal tree") && e.contains("largest simulated time"),
            "{e}"
        );
    }
    // Cycles that make more nanoseconds than u64 holds: an error at the field, not a wrap.
    let text = scenario(
        "clock_hz: 1, costs: (k: Ms(0.0), e: Cycles(18446744073709551615)), link: Ideal",
        "ptree: [(depth: 1, width: 2)]",
    );
    let e = scenarios::parse(&text, Path::new("hw.ron"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("hw.ron:3:")
            && e.contains("hardware.costs.e: Cycles(18446744073709551615) at 1 Hz"),
        "{e}"
    );
    // Costs just under: the minimal tree fits (19 leaves of u64::MAX / 32 ns), so it loads.
    let text = scenario(
        &format!("costs: (k: Ns(0), e: Ns({})), link: Ideal", u64::MAX / 32),
        "ptree: [(depth: 1, width: 2)]",
    );
    scenarios::parse(&text, Path::new("hw.ron")).unwrap();
    // check and run agree: both refuse the file at the field.
    let dir = std::env::temp_dir().join(format!("gtsim-bound-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // a stale folder of an earlier process with this id
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("huge.ron");
    std::fs::write(
        &file,
        scenario(
            "costs: (k: S(3000000000.0), e: Ns(1)), link: Ideal",
            "ptree: [(depth: 1, width: 2)]",
        ),
    )
    .unwrap();
    let out = dir.join("out");
    for args in [
        vec!["check", file.to_str().unwrap()],
        vec![
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let r = Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{args:?}");
        assert!(
            err.contains(&format!("{}:3:", file.display())) && err.contains("hardware.costs.k: "),
            "{args:?}: {err}"
        );
    }
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A machine named by `machine` is the same machine as its hardware section written out; the
/// scenario's own hardware fields replace the machine's; a bad machine is an error that points
/// into the file that is wrong.
#[test]
fn machines_as_files_are_their_hardware_sections() {
    let dir = fresh_dir("machines");
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("treesplit.ron"),
    )
    .unwrap();
    let i = shipped.find("    hardware: (").unwrap();
    let j = shipped[i..].find("\n    ),").unwrap() + i + "\n    ),".len();
    let with = |machine: &str| format!("{}{machine}{}", &shipped[..i], &shipped[j..]);
    let path = dir.join("s.ron");
    let inline = scenarios::parse(&shipped, &path).unwrap();
    let named = scenarios::parse(&with("    machine: \"campbell-ideal\","), &path).unwrap();
    assert_eq!(
        (named.costs, named.link, named.reads),
        (inline.costs, inline.link, inline.reads)
    );
    // A file beside the scenario, and a field of the scenario's own over it.
    std::fs::write(
        dir.join("m.ron"),
        "// mine\n(costs: (k: Ns(0), e: Ns(3), s: Ns(0), interrupt: Ns(0)), link: Ideal)\n",
    )
    .unwrap();
    let mine = scenarios::parse(
        &with("    machine: \"m.ron\",\n    hardware: (costs: (k: Ns(0), e: Ns(5), s: Ns(0), interrupt: Ns(0))),"),
        &path,
    )
    .unwrap();
    assert_eq!(mine.costs.e.as_nanos(), 5);
    // Errors: an unknown shipped name, a missing file, a mistake inside the machine file.
    let err = |text: String| scenarios::parse(&text, &path).unwrap_err().to_string();
    let e = err(with("    machine: \"nowhere\","));
    assert!(e.contains("s.ron:") && e.contains("campbell-ideal"), "{e}");
    let e = err(with("    machine: \"missing.ron\","));
    assert!(e.contains("missing.ron"), "{e}");
    std::fs::write(
        dir.join("bad.ron"),
        "(\n  costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)),\n  link: Idel,\n)\n",
    )
    .unwrap();
    let e = err(with("    machine: \"bad.ron\","));
    assert!(e.contains("bad.ron:3:"), "{e}");
    // ... with the hint a scenario's hardware section gets (how a link, a time is written).
    assert!(
        e.contains("link: ") && e.contains("a link is written"),
        "{e}"
    );
    std::fs::write(
        dir.join("bad.ron"),
        "(\n  costs: (k: Ns(0), e: 25.65, s: Ns(0), interrupt: Ns(0)),\n  link: Ideal,\n)\n",
    )
    .unwrap();
    let e = err(with("    machine: \"bad.ron\","));
    assert!(
        e.contains("bad.ron:2:")
            && e.contains("costs.e: ")
            && e.contains("a time is written with its unit"),
        "{e}"
    );
    // Later lines of the scenario keep their numbers: an error after the machine names its line.
    let text = with("    machine: \"campbell-ideal\",").replace("seeds: Range(", "seeds: Rang(");
    let line = text.lines().position(|l| l.contains("Rang(")).unwrap() + 1;
    let e = err(text);
    assert!(e.contains(&format!("s.ron:{line}:")), "{e}");
    // ... also after a hardware section of several lines of the scenario's own, and after a
    // machine field written over two lines.
    for machine in [
        "    machine: \"campbell-ideal\",\n    hardware: (\n        clock_hz: 1000,\n    ),",
        "    machine:\n        \"campbell-ideal\",\n    hardware: (\n        clock_hz: 1000,\n    ),",
        "    machine:\n        \"campbell-ideal\",",
        "    hardware: (\n        clock_hz: 1000,\n    ),\n    machine:\n        \"campbell-ideal\",",
    ] {
        let text = with(machine).replace("seeds: Range(", "seeds: Rang(");
        let line = text.lines().position(|l| l.contains("Rang(")).unwrap() + 1;
        let e = err(text);
        assert!(e.contains(&format!("s.ron:{line}:")), "{machine:?}: {e}");
    }
    // A machine valid alone but wrong for the sweep: the error points where the field is
    // written: into the machine file, at the scenario's own field, or at `machine` for a
    // shipped machine.
    std::fs::write(
        dir.join("cube.ron"),
        "(\n  costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)),\n  link: Ideal,\n  network: Hypercube(forwarding: Hardware, forward_cost: Ns(0)),\n)\n",
    )
    .unwrap();
    let ybwc = |machine: &str| {
        format!(
            "(\n    name: \"t\",\n{machine}\n    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: Ybwc()),\n    sweep: (processors: [1, 3], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let e = err(ybwc("    machine: \"cube.ron\","));
    assert!(
        e.contains("cube.ron:4:3: hardware.network") && e.contains("power of two"),
        "{e}"
    );
    let e = err(ybwc(
        "    machine: \"cube.ron\",\n    hardware: (\n        network: Hypercube(forwarding: Hardware, forward_cost: Ns(0)),\n    ),",
    ));
    assert!(
        e.starts_with(&format!("{}:5:9: hardware.network", path.display())),
        "{e}"
    );
    // A hardware field varied (or set) over the machine's is where vary (or --set) says.
    std::fs::write(
        dir.join("flat.ron"),
        "(\n  costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)),\n  link: Ideal,\n  network: FullyConnected,\n)\n",
    )
    .unwrap();
    let varied = dir.join("v.ron");
    std::fs::write(
        &varied,
        ybwc("    machine: \"flat.ron\",\n    vary: {\"hardware.network\": [\"FullyConnected\", \"Hypercube(forwarding: Hardware, forward_cost: Ns(0))\"]},"),
    )
    .unwrap();
    let varied_err = |file: &std::path::Path| {
        scenarios::load::load_variants(file, &[])
            .unwrap_err()
            .to_string()
    };
    let e = varied_err(&varied);
    assert!(
        e.contains("v.ron:4:51: with hardware.network=Hypercube(forwarding: Hardware, forward_cost: Ns(0)): hardware.network: a hypercube needs a power of two"),
        "{e}"
    );
    let e = err(ybwc("    machine: \"hypercube-10mbit\","));
    assert!(
        e.starts_with(&format!(
            "{}:3:14: hardware.network, from the shipped machine \"hypercube-10mbit\"",
            path.display()
        )),
        "{e}"
    );
    // A shipped machine that vary names: the error is at its name in the vary list, not at the
    // file's `machine` (which names another); one set with --set has no place in the file.
    let shipped = ybwc(
        "    machine: \"lines-960\",\n    vary: {\"machine\": [\"lines-960\", \"hypercube-10mbit\"]},",
    );
    std::fs::write(&varied, &shipped).unwrap();
    let e = varied_err(&varied);
    assert!(
        e.contains("v.ron:4:37: with machine=\"hypercube-10mbit\": hardware.network, from the shipped machine \"hypercube-10mbit\""),
        "{e}"
    );
    let set = scenarios::overrides::Assignment::parse("machine=hypercube-10mbit").unwrap();
    let e = scenarios::load::load_variants(&varied, &[set])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(": hardware.network, from the shipped machine \"hypercube-10mbit\"")
            && !e.contains("v.ron:3:")
            && !e.contains("v.ron:4:"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The SCI as a device: its fields reach every line of the run, at the rate of the
/// processor count; left out, the lines are plain; bad values are errors at their field.
#[test]
fn the_serial_interface_as_a_device_is_opt_in_and_checked_at_its_fields() {
    let sweep = "fanout: [1, 2, 4]";
    let device = scenario(
        "clock_hz: 10000000,
         costs: (k: Ms(8.0), e: Ms(25.65), s: Ms(2)),
         link: Sci(rate: 960, rate_by_processors: {4: 480}, capacity: 3840,
                   host_char: Cycles(22), board_char: Us(18.4))",
        sweep,
    );
    let plan = scenarios::parse(&device, Path::new("hw.ron")).unwrap();
    let four = PTree::Paper {
        fanout: 4,
        length: 1,
    };
    let m = machine_config(
        four.build().into(),
        plan.costs,
        &plan.links,
        plan.reads,
        true,
    );
    let spec = m.link_at(0);
    assert_eq!(spec.kind, LinkKind::Serial { rate: 480 });
    assert_eq!(
        spec.sci,
        Some(sim_hw::SciSpec {
            capacity: Some(3840),
            host_char: sim_core::SimTime(2_200),
            board_char: sim_core::SimTime(18_400),
        })
    );
    // A board's characters show in its message time, exactly: per message it sent, s and its
    // characters; per message it received, its characters.
    let key = scenarios::runner::RunKey {
        config: 0,
        algorithm: 0,
        ptree: four,
        seed: 1,
    };
    let rec = scenarios::Recording {
        intervals: false,
        messages: true,
    };
    let with = scenarios::runner::simulate_run(&plan, key, rec).unwrap();
    let message =
        |s: &sim_core::RunStats, p: usize| s.procs[p].times.get(sim_core::Category::Message);
    for p in 1..4 {
        let log = &with.stats.message_log;
        let sent = log.iter().filter(|m| m.from.index() == p);
        let (count, sent_bytes) = sent.fold((0, 0), |(n, b), m| (n + 1, b + m.bytes));
        let received: u64 = log
            .iter()
            .filter(|m| m.to.index() == p)
            .map(|m| m.bytes)
            .sum();
        assert!(received > 0 && count > 0);
        // Sent: message time. Received: message time on a board that reads when idle or polls,
        // its interrupt handler's (here free) on one that is interrupt-driven.
        let interrupt = with.stats.procs[p].times.get(sim_core::Category::Interrupt);
        let (own, handler) = if plan.reads.boards == ReadPolicy::Interrupt {
            (0, received * 18_400)
        } else {
            (received * 18_400, 0)
        };
        assert_eq!(
            message(&with.stats, p),
            count * 2_000_000 + sent_bytes * 18_400 + own,
            "processor {p}"
        );
        assert_eq!(interrupt, handler, "processor {p}");
    }
    let plain_text = scenario(
        "clock_hz: 10000000,
         costs: (k: Ms(8.0), e: Ms(25.65), s: Ms(2)),
         link: Sci(rate: 960, rate_by_processors: {4: 480})",
        sweep,
    );
    let plain = scenarios::parse(&plain_text, Path::new("hw.ron")).unwrap();
    assert_eq!(
        machine_config(
            four.build().into(),
            plain.costs,
            &plain.links,
            plain.reads,
            true
        )
        .link_at(0)
        .sci,
        None
    );
    let without = scenarios::runner::simulate_run(&plain, key, rec).unwrap();
    assert!(message(&with.stats, 1) > message(&without.stats, 1));
    for s in [&with.stats, &without.stats] {
        for p in &s.procs {
            assert_eq!(p.times.total(), s.makespan.as_nanos());
        }
    }

    // Bad values: at their field.
    for (field, bad) in [
        ("capacity", "capacity: 0"),
        ("host_char", "host_char: Cycles(18446744073709551615)"),
        ("board_char", "board_char: 3"),
    ] {
        let text = scenario(
            &format!("clock_hz: 1, costs: (k: Ms(8.0), e: Ms(25.65)), link: Sci(rate: 960, {bad})"),
            sweep,
        );
        let e = scenarios::parse(&text, Path::new("hw.ron"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("hw.ron:"), "{field}: {e}");
        assert!(
            e.contains(&format!("hardware.link.{field}")),
            "{field}: {e}"
        );
    }
}

/// The SCI device changes nothing between a batched run and a step-by-step one, where its
/// costs preempt running searches: no RTS/CTS (messages reach busy boards), boards that poll or
/// read when idle, an interface of small capacity.
#[test]
fn the_serial_interface_as_a_device_gives_the_same_results_step_by_step() {
    for boards in ["Poll(every: 3)", "WhenIdle", "Interrupt"] {
        let text = scenario(
            &format!(
                "costs: (k: Ms(8.0), e: Ms(25.65), s: Ms(2)),
                 link: Sci(rate: 960, rts_cts: false, capacity: 1000, host_char: Us(50),
                           board_char: Us(300)),
                 reads: (hosts: Interrupt, boards: {boards})"
            ),
            "fanout: [1, 2, 3, 4]",
        )
        .replace(
            "algorithm: TreeSplit(update: true), progressive_deepening: false",
            "algorithm: Pmws, progressive_deepening: false",
        )
        .replace(
            "sweep: (fanout",
            "sweep: (algorithm: [Pmws, TreeSplit(update: true)], fanout",
        );
        let plan = scenarios::parse(&text, Path::new("hw.ron")).unwrap();
        let mut off = plan.clone();
        off.batching = false;
        let a = scenarios::run_plan(&plan, 1, &|_, _| {}).unwrap();
        let b = scenarios::run_plan(&off, 1, &|_, _| {}).unwrap();
        assert_eq!(a.records.len(), 2 * 4 * 2, "{boards}");
        let strip = |r: &scenarios::RunRecord| {
            let mut v = serde_json::to_value(r).unwrap();
            for c in ["events", "engine_rollbacks", "engine_replayed_steps"] {
                v.as_object_mut().unwrap().remove(c);
            }
            v
        };
        for (x, y) in a.records.iter().zip(&b.records) {
            assert_eq!(strip(x), strip(y), "{boards}");
        }
        // The device did something: without it, the same runs' times differ.
        let plain = text.replace(
            "capacity: 1000, host_char: Us(50),\n                           board_char: Us(300)",
            "",
        );
        assert_ne!(plain, text);
        let plain = scenarios::parse(&plain, Path::new("hw.ron")).unwrap();
        let c = scenarios::run_plan(&plain, 1, &|_, _| {}).unwrap();
        assert!(
            a.records
                .iter()
                .zip(&c.records)
                .any(|(x, y)| x.elapsed_ns != y.elapsed_ns && x.fanout > 1),
            "{boards}"
        );
    }
}

/// With a machine, the scenario's own hardware section is read as strictly as without one:
/// nothing in it is passed over and no field is given twice (each was silently dropped, or the
/// last of two taken, and the machine's own hardware simulated instead).
#[test]
fn a_machines_override_section_is_read_whole() {
    let scenario = |hardware: &str| {
        format!(
            "(\n    name: \"t\",\n    machine: \"lines-960\",\n    hardware: {hardware},\n    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: Pmws),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let path = Path::new("m.ron");
    for (hardware, col, what) in [
        (
            "(link = Ideal)",
            16,
            "expected a field (`name: value`) or the section's closing `)`, found `link`",
        ),
        ("(link: Ideal, ;;; x)", 29, "found `;`"),
        ("(link: Ideal, 5)", 29, "found `5`"),
        ("(clock-hz: 5, link: Ideal)", 16, "found `clock-hz`"),
        (
            "(link: Ideal, \"costs\": (k: Ns(1)))",
            29,
            "found `\"costs\"`",
        ),
        ("[link: Ideal]", 15, "expected a section in parentheses"),
        (
            "(link: Ideal) x",
            29,
            "expected nothing after the section's closing `)`, found `x`",
        ),
        (
            "(link: Serial(rate: 480), link: Ideal)",
            41,
            "`link` is given twice in this section",
        ),
        (
            "(jitter: (percent: 1.0), jitter: (percent: 5.0))",
            40,
            "`jitter` is given twice",
        ),
    ] {
        let e = scenarios::parse(&scenario(hardware), path)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("m.ron:4:{col}: hardware: ")) && e.contains(what),
            "{hardware}: {e}"
        );
    }
    // A raw identifier is a field like any other; a trailing comma and comments are fine.
    let plan = scenarios::parse(&scenario("(r#link: Ideal)"), path).unwrap();
    assert_eq!(plan.link.kind, sim_hw::LinkKind::Ideal);
    let plan = scenarios::parse(&scenario("(link: Ideal, /* c */ ) /* c */"), path).unwrap();
    assert_eq!(plan.link.kind, sim_hw::LinkKind::Ideal);
    let plan = scenarios::parse(&scenario("()"), path).unwrap();
    assert_ne!(
        plan.link.kind,
        sim_hw::LinkKind::Ideal,
        "the machine's own link"
    );
}

/// A duration is bounded by a million hours in the unit it is written in: `Us(4000000000)`
/// (4,000 s) is a duration like any other, `Ms(3.7e12)` and `S(3.7e9)` are too long.
#[test]
fn durations_are_bounded_in_hours_whatever_their_unit() {
    let scenario = |k: &str| {
        format!(
            "(\n    name: \"t\",\n    hardware: (costs: (k: {k}, e: Ns(1)), link: Ideal),\n    workload: Synthetic(width: 2, depth: 1, ordering: Random),\n    search: (algorithm: Pmws),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 1)),\n)\n"
        )
    };
    let path = Path::new("d.ron");
    let plan = scenarios::parse(&scenario("Us(4000000000)"), path).unwrap();
    assert_eq!(plan.costs.k.as_nanos(), 4_000_000_000_000);
    for too_long in ["Ms(3.7e12)", "S(3.7e9)", "Us(3.7e15)"] {
        let e = scenarios::parse(&scenario(too_long), path)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("d.ron:3:")
                && e.contains("hardware.costs.k: a duration must be")
                && e.contains("under a million hours"),
            "{too_long}: {e}"
        );
    }
}

/// A warning about a hardware field whose value --set gives has no place in the file, though the
/// field is the named machine's (whose place, the `machine` line, is not the value's); one whose
/// value vary gives is at that value in the vary section, as an error about it is.
#[test]
fn a_warning_about_a_hardware_field_set_or_varied_is_at_the_value_given() {
    let dir = fresh_dir("warned");
    let text = |vary: &str| {
        format!(
            "(\n    name: \"w\",\n    machine: \"lines-960\",\n{vary}    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: TreeSplit(update: true), progressive_deepening: false),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let said = "hardware.reads.boards: WhenIdle, but treesplit_update sends UPDATE (a narrower window) and aborts to running searches: they reach a processor only when its search is over (set boards: Interrupt or Poll(every: N) for the scheme as its author ran it)";
    let set = dir.join("s.ron");
    std::fs::write(&set, text("")).unwrap();
    let boards = scenarios::overrides::Assignment::parse("hardware.reads.boards=WhenIdle").unwrap();
    let variants = scenarios::load::load_variants(&set, &[boards]).unwrap();
    assert_eq!(
        variants[0].plan.warnings,
        [format!("{}: {said}", set.display())]
    );
    let varied = dir.join("v.ron");
    std::fs::write(
        &varied,
        text("    vary: {\"hardware.reads.boards\": [\"Interrupt\", \"WhenIdle\"]},\n"),
    )
    .unwrap();
    let variants = scenarios::load::load_variants(&varied, &[]).unwrap();
    assert!(
        variants[0].plan.warnings.is_empty(),
        "{:?}",
        variants[0].plan.warnings
    );
    assert_eq!(
        variants[1].plan.warnings,
        [format!("{}:4:51: {said}", varied.display())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A machine whose every field the scenario's own hardware section replaces has no effect: a
/// warning says so, at the machine's value (in the file or in the vary section, or without a
/// place for one given with --set). A machine that still gives some fields is the documented
/// way to share the rest and is not warned about.
#[test]
fn a_machine_whose_fields_the_scenario_all_replaces_is_warned_about() {
    let dir = fresh_dir("no-effect");
    // Every field campbell-ideal sets, and none of lines-960's network.
    let all = "    hardware: (costs: (k: Ns(0), e: Ns(7), s: Ns(0), interrupt: Ns(0)), link: Ideal, reads: (hosts: Interrupt, boards: Interrupt)),\n";
    let text = |machine: &str, hardware: &str, vary: &str| {
        format!(
            "(\n    name: \"m\",\n{machine}{hardware}{vary}    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: TreeSplit(update: true), progressive_deepening: false),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let said = |name: &str, given: &str, fields: &str| {
        format!("machine: \"{name}\"{given} has no effect: the scenario's hardware section gives every field the machine sets ({fields}), and a scenario's own hardware fields replace its machine's; leave them out of the hardware section to run the machine")
    };
    let campbell = "costs, link, reads";
    let warnings = |file: &Path, sets: &[&str]| -> Vec<Vec<String>> {
        let sets: Vec<_> = sets
            .iter()
            .map(|s| scenarios::overrides::Assignment::parse(s).unwrap())
            .collect();
        scenarios::load::load_variants(file, &sets)
            .unwrap()
            .into_iter()
            .map(|v| v.plan.warnings)
            .collect()
    };
    // Given with --set: named without a place (the command line is its place).
    let s = dir.join("s.ron");
    std::fs::write(&s, text("", all, "")).unwrap();
    assert_eq!(
        warnings(&s, &["machine=campbell-ideal"]),
        [[format!(
            "{}: {}",
            s.display(),
            said("campbell-ideal", ", given with --set,", campbell)
        )]]
    );
    // The scenario's own machine: at its field.
    let f = dir.join("f.ron");
    std::fs::write(&f, text("    machine: \"campbell-ideal\",\n", all, "")).unwrap();
    assert_eq!(
        warnings(&f, &[]),
        [[format!(
            "{}:3:14: {}",
            f.display(),
            said("campbell-ideal", "", campbell)
        )]]
    );
    // Varied: at its value in the vary list, for the combination whose machine has no effect;
    // lines-960 gives its network, which the scenario does not replace.
    let v = dir.join("v.ron");
    std::fs::write(
        &v,
        text(
            "",
            all,
            "    vary: {\"machine\": [\"lines-960\", \"campbell-ideal\"]},\n",
        ),
    )
    .unwrap();
    assert_eq!(
        warnings(&v, &[]),
        [
            vec![],
            vec![format!(
                "{}:4:37: {}",
                v.display(),
                said("campbell-ideal", ", given by vary,", campbell)
            )]
        ]
    );
    // Only some of its fields replaced: no warning.
    let p = dir.join("p.ron");
    std::fs::write(
        &p,
        text(
            "    machine: \"campbell-ideal\",\n",
            "    hardware: (costs: (k: Ns(0), e: Ns(7), s: Ns(0), interrupt: Ns(0))),\n",
            "",
        ),
    )
    .unwrap();
    assert_eq!(warnings(&p, &[]), [Vec::<String>::new()]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Costs that price quiescence nodes (q) on trees that have none (synthetic and Campbell's)
/// are warned about: they were made for chess, where e prices a leaf's evaluation alone, and
/// on synthetic trees simulate a far faster machine. Chess, and a q of 0, say nothing.
#[test]
fn a_quiescence_cost_on_trees_without_quiescence_is_warned_about() {
    let dir = fresh_dir("unused-q");
    let warnings = |name: &str, text: String| -> Vec<String> {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let mut plans = scenarios::load::load_variants(&f, &[]).unwrap();
        assert_eq!(plans.len(), 1);
        plans.remove(0).plan.warnings
    };
    let text = |machine: &str, hardware: &str, workload: &str| {
        format!(
            "(\n    name: \"q\",\n{machine}{hardware}    workload: {workload},\n    search: (algorithm: Pmws),\n    sweep: (fanout: [1, 2, 3, 4], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let synthetic = "Synthetic(width: 4, depth: 3, ordering: Random)";
    // The chess machine on synthetic trees: at the machine's name, naming both costs.
    let w = warnings(
        "machine.ron",
        text("    machine: \"parabelle-1985\",\n", "", synthetic),
    );
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains(
            "machine.ron:3:14: hardware.costs.q, from the shipped machine \"parabelle-1985\""
        ) && w[0].contains(
            "quiescence nodes cost 563.45 µs here, but synthetic trees have none: q is not used"
        ) && w[0].contains("with e = 563.45 µs a leaf costs less than pmws-uniform.ron's 25.65 ms, so these costs simulate a faster machine"),
        "{w:?}"
    );
    // A q of the scenario's own on Campbell's trees: at the field.
    let own = |q: &str| {
        format!("    hardware: (costs: (k: Ms(8), e: Ms(25.65), q: {q}, s: Ms(2), interrupt: Ms(1)), link: Sci(rate: 960)),\n")
    };
    let w = warnings(
        "campbell.ron",
        text(
            "",
            &own("Ms(1)"),
            "Campbell(width: 4, depth: 3, ordering: Random)",
        ),
    );
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(&format!(
            "{}:3:{}: hardware.costs.q: quiescence nodes cost 1 ms here, but Campbell's trees have none",
            dir.join("campbell.ron").display(),
            own("Ms(1)").find("q:").unwrap() + 1
        )) && w[0].ends_with("a leaf of Campbell's trees stands for the whole search below the horizon"),
        "{w:?}"
    );
    // No q, or chess: nothing.
    assert_eq!(
        warnings("zero.ron", text("", &own("Ns(0)"), synthetic)),
        Vec::<String>::new()
    );
    let chess = warnings(
        "chess.ron",
        text(
            "    machine: \"parabelle-1985\",\n",
            "",
            "Chess(positions: BratkoKopec, depth: 2)",
        )
        .replace("seeds: Range(start: 1, count: 2)", "positions: [\"BK.01\"]"),
    );
    assert!(chess.iter().all(|w| !w.contains("quiescence")), "{chess:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A section of the scenario's own hardware that its machine gives as a section too (`costs`)
/// is merged field by field, as `--set hardware.costs.k=…` sets it: the machine's other costs
/// are kept, not dropped to their defaults. A value with a name (a link) replaces the machine's.
#[test]
fn a_machine_s_costs_are_merged_field_by_field_with_the_scenario_s() {
    let dir = fresh_dir("merge-costs");
    let text = |hardware: &str| {
        format!(
            "(\n    name: \"m\",\n    machine: \"lines-960\",\n{hardware}    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: TreeSplit(update: true), progressive_deepening: false),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let load = |name: &str, hardware: &str, sets: &[&str]| {
        let file = write_in(&dir, name, text(hardware));
        let sets: Vec<_> = sets
            .iter()
            .map(|s| scenarios::overrides::Assignment::parse(s).unwrap())
            .collect();
        let mut variants = scenarios::load::load_variants(&file, &sets).unwrap();
        variants.remove(0).plan
    };
    let ms = |d: sim_core::SimTime| d.as_nanos() as f64 / 1e6;
    // lines-960: k 8 ms, e 25.65 ms, s 2 ms, interrupt 1 ms, serial lines at 960 bytes/s.
    let own = load(
        "own.ron",
        "    hardware: (costs: (k: Ms(1), e: Ms(3)), link: Ideal),\n",
        &[],
    );
    let set = load(
        "set.ron",
        "",
        &[
            "hardware.costs.k=Ms(1)",
            "hardware.costs.e=Ms(3)",
            "hardware.link=Ideal",
        ],
    );
    for plan in [&own, &set] {
        assert_eq!(
            [
                ms(plan.costs.k),
                ms(plan.costs.e),
                ms(plan.costs.s),
                ms(plan.costs.interrupt)
            ],
            [1.0, 3.0, 2.0, 1.0]
        );
    }
    assert_eq!(
        format!("{:?}", own.links),
        format!("{:?}", set.links),
        "the link replaced whole"
    );
    // An error in a cost the scenario writes is at the scenario's line, merged or not.
    let file = write_in(
        &dir,
        "bad.ron",
        text("    hardware: (costs: (k: Ms(1), e: Ms(3), s: Ms(-1))),\n"),
    );
    let e = scenarios::load::load_variants(&file, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.ron:4:"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A machine's clock counts only where a cost is in cycles: a scenario that gives every other
/// field of parabelle-1985 (whose costs are in time) gets the warning that the machine has no
/// effect, and one whose link's characters cost cycles does not.
#[test]
fn a_machine_s_clock_alone_is_no_effect_without_costs_in_cycles() {
    let dir = fresh_dir("clock");
    let text = |link: &str| {
        format!(
            "(\n    name: \"m\",\n    machine: \"parabelle-1985\",\n    hardware: (costs: (k: Ms(8), e: Ms(25.65), q: Ns(0), probe: Ns(0), s: Ms(2), interrupt: Ms(1)), link: {link}, length: 1),\n    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: Pmws),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let warnings =
        |name: &str, link: &str| plan_warnings(&write_in(&dir, name, text(link)), &[]).remove(0);
    let w = warnings("time.ron", "Serial(rate: 960)");
    assert!(
        w.len() == 1
            && w[0].contains("machine: \"parabelle-1985\" has no effect")
            && w[0].contains("(costs, link, length) but its clock_hz, which only a cost in Cycles(…) would use, and none is"),
        "{w:?}"
    );
    let w = warnings(
        "cycles.ron",
        "Sci(rate: 960, host_char: Cycles(22), board_char: Cycles(184))",
    );
    assert!(!w.iter().any(|w| w.contains("no effect")), "{w:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The warnings of `file`'s plans, one list per combination, with the fields `sets` set
/// (`PATH=VALUE`).
fn plan_warnings(file: &Path, sets: &[&str]) -> Vec<Vec<String>> {
    let sets: Vec<_> = sets
        .iter()
        .map(|s| scenarios::overrides::Assignment::parse(s).unwrap())
        .collect();
    scenarios::load::load_variants(file, &sets)
        .unwrap()
        .into_iter()
        .map(|v| v.plan.warnings)
        .collect()
}

/// A table probe cost (`hardware.costs.probe`) that no algorithm of the plan charges is warned
/// about, at the field (without a place when --set gives it): tree-splitting probes no table.
/// Parabelle with a table and aphid charge it, and Parabelle without one keeps its tables'
/// costs (parabelle-table2.ron): not said; nor is a probe the named machine gives.
#[test]
fn a_probe_cost_no_algorithm_charges_is_warned_about() {
    let dir = fresh_dir("unused-probe");
    let costs = "    hardware: (costs: (k: Ns(0), e: Ns(1), probe: Us(5)), link: Ideal),\n";
    let text = |hardware: &str, algorithm: &str| {
        format!(
            "(\n    name: \"p\",\n{hardware}    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: {algorithm}, progressive_deepening: false),\n    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let write = |name: &str, text: String| write_in(&dir, name, text);
    let said = "hardware.costs.probe: a table probe costs 5 µs here, but no algorithm of the plan probes a transposition table: probe is not used";
    let f = write("treesplit.ron", text(costs, "TreeSplit(update: false)"));
    let w = plan_warnings(&f, &[]);
    let col = costs.find("probe").unwrap() + 1;
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].len(), 1, "{w:?}");
    assert!(
        w[0][0].starts_with(&format!("{}:3:{col}: {said}", f.display())),
        "{w:?}"
    );
    // Given with --set: named without a place.
    let f = write(
        "set.ron",
        text(
            &costs.replace(", probe: Us(5)", ""),
            "TreeSplit(update: false)",
        ),
    );
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new()]);
    let w = plan_warnings(&f, &["hardware.costs.probe=Us(5)"]);
    assert!(
        w[0].len() == 1 && w[0][0].starts_with(&format!("{}: {said}", f.display())),
        "{w:?}"
    );
    // Algorithms that charge it, and Parabelle without a table: nothing.
    for algorithm in ["Parabelle(table: Global)", "Aphid()", "Parabelle()"] {
        let f = write("probes.ron", text(costs, algorithm));
        assert_eq!(
            plan_warnings(&f, &[]),
            [Vec::<String>::new()],
            "{algorithm}"
        );
    }
    // The machine's own probe (parabelle-1985's 56.3 µs) on tree-splitting: only its q is said.
    let f = write(
        "machine.ron",
        text(
            "    machine: \"parabelle-1985\",\n",
            "TreeSplit(update: false)",
        ),
    );
    let w = plan_warnings(&f, &[]);
    assert!(
        w[0].iter().all(|w| !w.contains("costs.probe"))
            && w[0].iter().any(|w| w.contains("costs.q")),
        "{w:?}"
    );
    // Changed from the machine's: said.
    let w = plan_warnings(&f, &["hardware.costs.probe=Us(5)"]);
    assert!(w[0].iter().any(|w| w.contains(said)), "{w:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Which algorithms charge `hardware.costs.probe`, as the catalogue says
/// (`Entry::probes`), checked against runs: every algorithm of the catalogue (and Parabelle
/// with each table) on one and four processors; the `probes` column counts the probes charged.
#[test]
fn the_catalogue_says_which_algorithms_charge_the_probe_cost() {
    use scenarios::catalogue::Algorithm;
    use std::collections::{BTreeMap, BTreeSet};
    const PARALLEL: [&str; 16] = [
        "Pmws",
        "Parabelle()",
        "Parabelle(table: Global)",
        "Parabelle(table: Local)",
        "TreeSplit(update: false)",
        "PvSplit()",
        "StagedSss()",
        "Baudet()",
        "Mwf()",
        "Aphid()",
        "PmwsIx(broadcast: true)",
        "Ybwc()",
        "LazySmp()",
        "Abdada()",
        "YbwcShared()",
        "Dts()",
    ];
    const ONE: [&str; 10] = [
        "Ab",
        "Pab",
        "Scout",
        "NegaScout",
        "Ins",
        "Pns",
        "Sss",
        "Dual",
        "Sab()",
        "Abs()",
    ];
    let by_name: BTreeMap<String, Algorithm> = PARALLEL
        .iter()
        .chain(&ONE)
        .map(|t| {
            let a: Algorithm = ron::from_str(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            (a.name(), a)
        })
        .collect();
    for a in Algorithm::ALL {
        assert!(by_name.contains_key(&a.name()), "{a} is not checked here");
    }
    let dir = fresh_dir("probes");
    let mut probed = BTreeSet::new();
    for (name, list, processors) in [
        ("parallel", &PARALLEL[..], "[1, 4]"),
        ("one", &ONE[..], "[1]"),
    ] {
        let f = dir.join(format!("{name}.ron"));
        std::fs::write(
            &f,
            format!(
                "(\n    name: \"{name}\",\n    hardware: (\n        costs: (k: Us(80), e: Us(256.5), probe: Us(5), s: Us(20), interrupt: Us(10)),\n        link: Serial(rate: 1250000),\n        network: FullyConnected,\n        reads: (hosts: Interrupt, boards: Interrupt),\n        memory: (read: Ns(100), write: Ns(100), banks: 8),\n    ),\n    workload: Synthetic(width: 4, depth: 4, ordering: FirstBest(p: 0.6)),\n    search: (algorithm: {first}, progressive_deepening: false),\n    sweep: (processors: {processors}, algorithm: [{list}], seeds: Range(start: 1, count: 2)),\n    outputs: (plots: false),\n)",
                first = list[0],
                list = list.join(", "),
            ),
        )
        .unwrap();
        let out = dir.join(format!("{name}-out"));
        let ran = Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .args([
                "run",
                f.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ])
            .output()
            .unwrap();
        assert!(
            ran.status.success(),
            "{}",
            String::from_utf8_lossy(&ran.stderr)
        );
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |c: &str| header.iter().position(|h| *h == c).unwrap();
        let (algorithm, probes) = (col("algorithm"), col("probes"));
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            if cells[probes].parse::<u64>().unwrap() > 0 {
                probed.insert(cells[algorithm].to_string());
            }
        }
    }
    let said: BTreeSet<String> = by_name
        .iter()
        .filter(|(_, a)| a.entry().probes)
        .map(|(n, _)| n.clone())
        .collect();
    assert_eq!(probed, said);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bus has no lines: a link other than Ideal beside it is warned about, at the field (without
/// a place when --set gives it). Ideal, as the shipped machine ethernet-10mbit writes it, says
/// nothing; nor does a link that serves other networks of the combinations of `vary`
/// (ybwc-scale.ron's), unless --set gives every combination the bus.
#[test]
fn a_link_beside_a_bus_is_warned_about() {
    let dir = fresh_dir("bus-link");
    let text = |link: &str, vary: &str| {
        format!(
            "(\n    name: \"b\",\n{vary}    hardware: (costs: (k: Us(80), e: Us(256.5), s: Us(20), interrupt: Us(10)), link: {link}, network: Bus(rate: 1250000)),\n    workload: Synthetic(width: 4, depth: 3, ordering: Random),\n    search: (algorithm: Ybwc()),\n    sweep: (processors: [1, 4], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let write = |name: &str, text: String| write_in(&dir, name, text);
    let said = "hardware.link: not used: hardware.network is a Bus, one shared medium on which every message is a frame at the bus's own rate, so no message takes the lines of link";
    let serial = text("Serial(rate: 5)", "");
    let f = write("serial.ron", serial.clone());
    let w = plan_warnings(&f, &[]);
    let col = serial.lines().nth(2).unwrap().find("link:").unwrap() + 1;
    assert!(
        w[0].len() == 1 && w[0][0].starts_with(&format!("{}:3:{col}: {said}", f.display())),
        "{w:?}"
    );
    let f = write("ideal.ron", text("Ideal", ""));
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new()]);
    let w = plan_warnings(&f, &["hardware.link=Serial(rate: 5)"]);
    assert!(
        w[0].len() == 1 && w[0][0].starts_with(&format!("{}: {said}", f.display())),
        "{w:?}"
    );
    // The machine's Ideal link: nothing.
    let f = write(
        "machine.ron",
        text("Ideal", "").replace(
            "    hardware: (",
            "    machine: \"ethernet-10mbit\",\n    hardware: (",
        ),
    );
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new()]);
    // The network varied: the link serves the others, and the bus's combination says nothing;
    // with the bus set for all, it does.
    let f = write(
        "varied.ron",
        text(
            "Serial(rate: 5)",
            "    vary: {\"hardware.network\": [\"FullyConnected\", \"Bus(rate: 1250000)\"]},\n",
        ),
    );
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new(), vec![]]);
    let w = plan_warnings(&f, &["hardware.network=Bus(rate: 1000)"]);
    assert!(
        w.len() == 1 && w[0].len() == 1 && w[0][0].contains(said),
        "{w:?}"
    );
    // A line level below the first beside a bus is refused, as beside any pool network.
    let f = write(
        "below.ron",
        text("Ideal", "").replace("link: Ideal,", "link: Ideal, link_below: Serial(rate: 5),"),
    );
    let e = scenarios::load::load_variants(&f, &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("hardware.link_below: a pool network has one kind of line"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hypercube's or mesh's software forwarding costs its own `forward_cost`, which does not
/// follow `costs.interrupt`: a scenario that changes the named machine's interrupt cost while
/// the machine gives the network (hypercube-10mbit's 1 ms a hop, equal to its interrupt) is
/// warned at the interrupt, with the network that forwards at the new cost. A network the
/// scenario gives itself, an interrupt left as the machine's, or hardware forwarding: nothing.
#[test]
fn an_interrupt_cost_changed_under_a_machines_software_forwarding_is_warned_about() {
    let dir = fresh_dir("forwarding");
    let costs = "    hardware: (costs: (k: Us(80), e: Us(256.5), s: Us(20), interrupt: Us(10))),\n";
    let text = |machine: &str, hardware: &str| {
        format!(
            "(\n    name: \"f\",\n{machine}{hardware}    workload: Synthetic(width: 4, depth: 4, ordering: Random),\n    search: (algorithm: Ybwc()),\n    sweep: (processors: [1, 8], seeds: Range(start: 1, count: 2)),\n)\n"
        )
    };
    let write = |name: &str, text: String| write_in(&dir, name, text);
    let hypercube = "    machine: \"hypercube-10mbit\",\n";
    let said = "hardware.costs.interrupt: 10 µs here, but the Hypercube's software forwarding still costs 1 ms per message an intermediate processor forwards (the forward_cost of machine \"hypercube-10mbit\"): forward_cost is hardware.network's own field and does not follow interrupt (to forward at the interrupt cost, set hardware.network=Hypercube(forwarding: Software, forward_cost: Us(10)))";
    let f = write("own.ron", text(hypercube, costs));
    let col = costs.find("interrupt").unwrap() + 1;
    assert_eq!(
        plan_warnings(&f, &[]),
        [vec![format!("{}:4:{col}: {said}", f.display())]]
    );
    // The network given by the scenario (even the machine's own value): its forward_cost is
    // the scenario's choice.
    for network in ["Us(10)", "Ms(1)"] {
        let set =
            format!("hardware.network=Hypercube(forwarding: Software, forward_cost: {network})");
        assert_eq!(plan_warnings(&f, &[&set]), [Vec::<String>::new()], "{set}");
    }
    // The machine's interrupt, however written: nothing.
    let f = write(
        "same.ron",
        text(hypercube, &costs.replace("Us(10)", "Us(1000)")),
    );
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new()]);
    // Changed with --set: named without a place.
    let f = write("machine.ron", text(hypercube, ""));
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new()]);
    assert_eq!(
        plan_warnings(&f, &["hardware.costs.interrupt=Us(10)"]),
        [vec![format!("{}: {said}", f.display())]]
    );
    // Varied machines: said in the hypercube's combination only.
    let f = write(
        "varied.ron",
        text(
            "    machine: \"lines-10mbit\",\n    vary: {\"machine\": [\"lines-10mbit\", \"hypercube-10mbit\"]},\n",
            costs,
        ),
    );
    let w = plan_warnings(&f, &[]);
    assert!(
        w.len() == 2 && w[0].is_empty() && w[1].len() == 1 && w[1][0].contains(said),
        "{w:?}"
    );
    // A mesh of a machine file: the network to set keeps the mesh's own fields. Hardware
    // forwarding costs no CPU: nothing.
    let mesh = |forwarding: &str| {
        format!("(\n    costs: (k: Ms(8), e: Ms(25.65), s: Ms(2), interrupt: Ms(1)),\n    link: Serial(rate: 1250000),\n    network: Mesh(width: 4, height: 2, torus: true, forwarding: {forwarding}, forward_cost: Ms(1)),\n    reads: (hosts: Interrupt, boards: Interrupt),\n)\n")
    };
    write("mesh.ron", mesh("Software"));
    let f = write("mesh-user.ron", text("    machine: \"mesh.ron\",\n", costs));
    let w = plan_warnings(&f, &[]);
    assert!(
        w[0].len() == 1 && w[0][0].ends_with("set hardware.network=Mesh(width: 4, height: 2, torus: true, forwarding: Software, forward_cost: Us(10)))"),
        "{w:?}"
    );
    write("mesh.ron", mesh("Hardware"));
    assert_eq!(plan_warnings(&f, &[]), [Vec::<String>::new()]);
    let _ = std::fs::remove_dir_all(&dir);
}
