//! The `gtsim` command end to end: shipped scenarios, bad input, determinism.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::gtsim;

fn scratch(name: &str) -> common::Scratch {
    common::scratch("cli", name)
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// The shipped pmws-uniform scenario with fewer seeds (a smaller copy, same everything else).
fn small_uniform(dir: &Path, seeds: u32) -> PathBuf {
    let text = std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap();
    assert!(text.contains("count: 24"));
    // The scenario names its reference table relative to itself: bring it along.
    common::copy_reference(dir, "parabelle-table2-no-tt.csv");
    let path = dir.join("small.ron");
    std::fs::write(&path, text.replace("count: 24", &format!("count: {seeds}"))).unwrap();
    path
}

#[test]
fn every_shipped_scenario_checks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let out = gtsim(&["check", path.to_str().unwrap()]);
            assert!(
                out.status.success(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            n += 1;
        }
    }
    assert!(n >= 1);
}

#[test]
fn shipped_scenario_runs_end_to_end_from_the_command_line() {
    let dir = scratch("e2e");
    let file = small_uniform(&dir, 3);
    let out_dir = dir.join("out");
    let out = gtsim(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(out_dir.to_str().unwrap()),
        "prints the output folder"
    );
    for f in [
        "results.csv",
        "results.json",
        "report.md",
        "overheads.png",
        "speedup.png",
    ] {
        let p = out_dir.join(f);
        let bytes = std::fs::read(&p).unwrap_or_else(|_| panic!("{f} written"));
        assert!(!bytes.is_empty());
        if f.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        }
    }
    // No temporary files left behind, in the folder or beside it; the marker is the only
    // hidden file.
    for d in [out_dir.as_path(), &dir] {
        for entry in std::fs::read_dir(d).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                !name.starts_with('.') || name == ".gtsim-output",
                "leftover temporary file {name}"
            );
        }
    }
    let csv = std::fs::read_to_string(out_dir.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let required = "scenario,algorithm,tree,ordering,width,depth,fanout,length,seed,\
        root_value,leaf_nodes,interior_nodes,elapsed_ns,speedup,search_overhead,time_overhead,\
        comm_overhead,sync_overhead,t_search_ns,t_message_ns,t_interrupt_ns,t_wait_reply_ns,\
        t_idle_sync_ns,msgs_at_node,msgs_inter_node,msgs_inter_level,msgs_inter_iteration,bytes_total";
    for c in required.split(',') {
        assert!(header.contains(&c), "results.csv lacks column {c}");
    }
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 4 * 3, "one row per (fanout, seed)");
    for r in &rows {
        let num = |c: &str| r[col(c)].parse::<f64>().unwrap();
        let f = num("fanout");
        // Every processor's categories sum to the makespan, so the totals sum to f × makespan.
        let total: f64 = [
            "t_search_ns",
            "t_message_ns",
            "t_interrupt_ns",
            "t_wait_reply_ns",
            "t_idle_sync_ns",
        ]
        .iter()
        .map(|c| num(c))
        .sum();
        assert_eq!(total, f * num("elapsed_ns"));
        // The measured split adds up to the paper's time overhead.
        let split = num("search_time_overhead") + num("message_overhead") + num("idle_overhead");
        assert!(
            (split - num("time_overhead")).abs() < 1e-9,
            "{split} vs {}",
            num("time_overhead")
        );
        assert!(
            (num("comm_overhead") - (num("time_overhead") - num("search_overhead"))).abs() < 1e-12
        );
        if f == 1.0 {
            assert_eq!(num("speedup"), 1.0);
            assert_eq!(num("t_idle_sync_ns"), 0.0);
        } else {
            assert!(num("msgs_inter_node") > 0.0);
            // One inter-iteration message to each of the f - 1 children after iterations 1..4.
            assert_eq!(num("msgs_inter_iteration"), 4.0 * (f - 1.0));
        }
    }
}

#[test]
fn the_same_scenario_gives_byte_identical_results_whatever_the_thread_count() {
    let dir = scratch("determinism");
    let file = small_uniform(&dir, 4);
    let mut outputs = Vec::new();
    for (i, threads) in ["1", "2", "2"].iter().enumerate() {
        let out_dir = dir.join(format!("out{i}"));
        let out = gtsim(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "--quiet prints nothing");
        outputs.push((
            std::fs::read(out_dir.join("results.csv")).unwrap(),
            without_provenance(&std::fs::read_to_string(out_dir.join("results.json")).unwrap()),
        ));
    }
    assert!(outputs[0] == outputs[1] && outputs[1] == outputs[2]);
}

/// results.json without its provenance (which records the command line, so differs with
/// --threads and --out), byte for byte otherwise.
fn without_provenance(json: &str) -> String {
    let start = json
        .find(",\n  \"provenance\": ")
        .expect("a provenance key");
    let end = start
        + json[start..]
            .find(",\n  \"runs\": [")
            .expect("runs after it");
    format!("{}{}", &json[..start], &json[end..])
}

/// Runs a broken scenario: it must fail with FILE:LINE:COL and write nothing.
fn assert_rejected(name: &str, text: &str, line: usize, col: usize, words: &str) {
    let dir = scratch(name);
    let file = dir.join(format!("{name}.ron"));
    std::fs::write(&file, text).unwrap();
    let out_dir = dir.join("out");
    for (_, out) in common::check_and_run(&file, &out_dir) {
        assert!(!out.status.success(), "{name}: accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        let at = format!("{}:{line}:{col}", file.display());
        assert!(err.contains(&at), "{name}: error does not name {at}: {err}");
        assert!(
            err.contains(words),
            "{name}: error does not say '{words}': {err}"
        );
        assert!(out.stdout.is_empty(), "{name}: printed results");
    }
    assert!(!out_dir.exists(), "{name}: output folder created");
}

fn uniform_text() -> String {
    std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap()
}

/// Line and column (1-based) of the first occurrence of `needle` in the shipped scenario.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in the scenario"));
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col)
}

#[test]
fn bad_scenarios_are_rejected_with_line_and_column() {
    let base = uniform_text();

    let t = base.replace("depth: 5,", "depth: 5");
    // The parser notices the missing comma where the next field starts; the error is placed
    // where the comma goes.
    let (l2, c2) = position_of(&t, "depth: 5\n");
    assert_rejected(
        "syntax",
        &t,
        l2,
        c2 + "depth: 5".len(),
        "expected a comma after `depth: 5`, before `ordering`",
    );

    let t = base.replace("length: 1,", "lenght: 1,");
    let (l, c) = position_of(&t, "lenght");
    assert_rejected("unknown-field", &t, l, c, "lenght");

    let t = base.replace("fanout: [1, 2, 3, 4]", "fanout: [1, 0, 3, 4]");
    let (l, c) = position_of(&t, "0, 3, 4]");
    assert_rejected("fanout-zero", &t, l, c, "at least 1");

    let t = base.replace("Sci(rate: 960,", "Sci(rate: 0,");
    let (l, c) = position_of(&t, "0, rts_cts");
    assert_rejected("rate-zero", &t, l, c, "at least 1");

    let t = base.replace("FirstBest(p: 0.6)", "FirstBest(p: 1.5)");
    let (l, c) = position_of(&t, "1.5)");
    assert_rejected("probability", &t, l, c, "between 0 and 1");

    let t = base.replace("fanout: [1, 2, 3, 4]", "fanout: [1, 2, 12]");
    let (l, c) = position_of(&t, "fanout: [1, 2, 12]");
    assert_rejected("sci-ports", &t, l, c, "ports");

    let t = base.replace(
        "reference/parabelle-table2-no-tt.csv",
        "reference/no-such-table.csv",
    );
    let (l, c) = position_of(&t, "reference: ");
    assert_rejected("reference", &t, l, c, "no-such-table.csv");

    // A scheme chart named like the files plot and compare may write over (without the
    // reference table, which the scratch folder does not have).
    let t = base
        .replace(
            "        plots: true,",
            "        plots: true,\n        schemes: (at: 4, name: \"plot-mine\"),",
        )
        .replace(
            "        reference: \"reference/parabelle-table2-no-tt.csv\",\n",
            "",
        );
    let (l, c) = position_of(&t, "name: \"plot-mine\"");
    assert_rejected("schemes-name", &t, l, c, "not start with plot-");

    let t = base.replace("e: Ms(25.65)", "e: Ms(0.0)");
    let (l, c) = position_of(&t, "e: Ms(0.0)");
    assert_rejected("leaf-cost", &t, l, c, "e must be positive");
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let out = gtsim(&["run", "/nonexistent/gtsim/scenario.ron"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/gtsim/scenario.ron"));
}

/// Exit status by kind of failure (README, "Exit status"): 0 done, 2 usage, 3 bad input.
#[test]
fn exit_status_tells_bad_input_from_usage() {
    let dir = scratch("status");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, uniform_text().replace("count: 24", "count: 0")).unwrap();
    let out = gtsim(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let out = gtsim(&["run", bad.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let missing = dir.join("missing.ron");
    assert_eq!(
        gtsim(&["check", missing.to_str().unwrap()]).status.code(),
        Some(3)
    );
    assert_eq!(gtsim(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(gtsim(&["algorithms"]).status.code(), Some(0));
    // Two modes at once: --step-by-step turns optimism off already.
    let good = shipped("pmws-uniform.ron");
    let both = gtsim(&[
        "run",
        good.to_str().unwrap(),
        "--step-by-step",
        "--conservative",
        "--out",
        dir.join("both").to_str().unwrap(),
    ]);
    assert_eq!(both.status.code(), Some(2), "{both:?}");
    assert!(!dir.join("both").exists());
}

/// `--version` names the commit and whether the checkout was modified (or says it is unknown).
#[test]
fn version_names_the_build() {
    let out = gtsim(&["--version"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        text.starts_with(&format!("gtsim {} (git commit ", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    assert_eq!(
        text.contains("uncommitted changes"),
        scenarios::provenance::git_modified() != Some(false)
            && scenarios::provenance::GIT_COMMIT != "unknown",
        "{text}"
    );
}

/// Every example of `--set` whose value holds characters the shell takes (`Ms(4)`, `[4]`) is
/// quoted, in the help texts and the READMEs, so that it can be pasted: `--set
/// hardware.costs.s=Ms(4)` is a bash syntax error.
#[test]
fn examples_of_set_are_quoted_for_the_shell() {
    let unquoted = |text: &str| -> Vec<String> {
        text.split("--set")
            .skip(1)
            .filter_map(|after| after.split_whitespace().next())
            .filter(|v| !v.starts_with(['\'', '`']) && v.contains(['(', ')', '[', ']', ';', '&']))
            .map(str::to_string)
            .collect()
    };
    for command in ["run", "check"] {
        let out = gtsim(&[command, "--help"]);
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            command != "run" || help.contains("--set 'hardware.costs.s=Ms(4)'"),
            "{help}"
        );
        assert_eq!(
            unquoted(&help),
            Vec::<String>::new(),
            "gtsim {command} --help"
        );
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for readme in [root.join("README.md"), root.join("../README.md")] {
        let text = std::fs::read_to_string(&readme).unwrap();
        assert_eq!(
            unquoted(&text),
            Vec::<String>::new(),
            "{}",
            readme.display()
        );
    }
}

/// A reader that stops early (`gtsim algorithms | head -1`) ends gtsim quietly, not with a panic.
#[test]
fn a_closed_pipe_is_no_panic() {
    use std::process::Stdio;
    for _ in 0..3 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .arg("algorithms")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !err.contains("panicked"), "{out:?}");
    }
}

/// Sends Ctrl-C (SIGINT) to `child` once `ready` holds (asserted within 60 s); checks that it
/// exits 130 and returns its stderr.
#[cfg(unix)]
fn interrupted_when(mut child: std::process::Child, ready: impl Fn() -> bool) -> String {
    let started = std::time::Instant::now();
    while !ready() && started.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    if !ready() {
        // Not left running the whole sweep beside the other tests.
        let _ = child.kill();
        let _ = child.wait();
        panic!("gtsim did not get where it is interrupted within 60 s");
    }
    let pid = libc::pid_t::try_from(child.id()).expect("a process id");
    // SAFETY: kill(2) with a process id and a signal number reads no memory of ours.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0, "SIGINT sent");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{err}");
    err
}

/// The staging folders of output folders in `dir`.
#[cfg(unix)]
fn staging(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("gtsim-staging"))
        .collect()
}

/// Ctrl-C: one line saying what was kept, exit 130, the previous output folder untouched.
#[cfg(unix)]
#[test]
fn an_interrupt_says_what_was_kept() {
    let dir = scratch("interrupt");
    let target = dir.join("out");
    let child = Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .args([
            "run",
            shipped("sync-overhead.ron").to_str().unwrap(),
            "--quiet",
            "--out",
        ])
        .arg(&target)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted while simulating: once the part file keeps a run (a line after its header).
    let part = dir.join(".out.gtsim-part");
    let err = interrupted_when(child, || {
        std::fs::read_to_string(&part).map_or(0, |t| t.lines().count()) >= 2
    });
    // The runs done so far kept in the part file, for --resume: one line that says so.
    let kept = format!("runs were kept in {}", part.display());
    assert!(
        err.contains(&kept) && err.contains("--resume") && part.is_file(),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!target.exists(), "no output folder appears");
    // Nor its half-written staging folder: the part file alone keeps what was done.
    assert!(staging(&dir).is_empty(), "{:?}", staging(&dir));
}

/// Ctrl-C on a shard: exit 130, one line saying that nothing was kept, and neither the shard's
/// folder nor its staging folder left behind.
#[cfg(unix)]
#[test]
fn an_interrupted_shard_leaves_nothing() {
    let dir = scratch("interrupt-shard");
    let child = Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .current_dir(&dir)
        .args([
            "run",
            shipped("sync-overhead.ron").to_str().unwrap(),
            "--quiet",
            "--shard",
            "0/2",
            "--out",
            "s0",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted while simulating: once its staging folder is there.
    let err = interrupted_when(child, || !staging(&dir).is_empty());
    assert!(
        err.contains("s0 is as it was; a shard keeps no finished runs"),
        "{err}"
    );
    assert!(!dir.join("s0").exists());
    assert!(staging(&dir).is_empty(), "{:?}", staging(&dir));
}

/// A speedup far below 0.01 (1 ms interrupts against 1 ns leaves) is printed with three
/// significant digits in report.md, not as 0.00 ± 0.00.
#[test]
fn tiny_speedups_are_not_printed_as_zero() {
    let dir = scratch("tiny-speedups");
    let out = gtsim(&[
        "run",
        shipped("treesplit.ron").to_str().unwrap(),
        "--set",
        "hardware.costs.interrupt=Ms(1)",
        "--set",
        "sweep.seeds=Range(start: 1, count: 2)",
        "--set",
        "sweep.ordering=[Random]",
        "--set",
        "outputs.plots=false",
        "--quiet",
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let report = std::fs::read_to_string(dir.join("out/report.md")).unwrap();
    assert!(!report.contains("0.00 ± 0.00"), "{report}");
    let speedup = report
        .lines()
        .find(|l| l.starts_with("| (1,2) |"))
        .and_then(|l| l.split(" | ").nth(4))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        speedup.starts_with("0.000") && speedup.split(" ± ").next().unwrap().len() == 8,
        "{speedup}"
    );
}

/// `--quiet` prints nothing, the warnings included; report.md keeps them.
#[test]
fn quiet_hides_warnings_and_the_report_keeps_them() {
    let dir = scratch("quiet");
    let file = dir.join("skips.ron");
    std::fs::write(
        &file,
        r#"(
    name: "skips",
    hardware: (costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)), link: Ideal),
    workload: Campbell(width: 4, depth: 2, ordering: Random),
    search: (algorithm: Ab, progressive_deepening: false),
    sweep: (algorithm: [Ab, StagedSss()], depth: [2, 3], fanout: [1], seeds: Range(start: 1, count: 2)),
    outputs: (plots: false),
)"#,
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = gtsim(&[
        "run",
        file.to_str().unwrap(),
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let report = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(
        report.contains("## Warnings") && report.contains("staged_sss at depth 2"),
        "{report}"
    );
    let loud = gtsim(&["check", file.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&loud.stderr).contains("staged_sss at depth 2"));
}

/// `vary` runs each combination as its own scenario: its folder equals a run of the scenario
/// with that value set (`--set`), and results.csv joins them with a column per varied field;
/// `compare` and `plot` read them back.
#[test]
fn vary_set_compare_and_plot_agree() {
    // plot of column Y against fanout, with more arguments.
    let plot_of = |results: &Path, y: &str, more: &[&str]| {
        let mut args = vec!["plot", results.to_str().unwrap(), "--x", "fanout", "--y", y];
        args.extend_from_slice(more);
        gtsim(&args)
    };
    let dir = scratch("vary");
    let base = small_uniform(&dir, 3);
    let text = std::fs::read_to_string(&base).unwrap();
    let varied = dir.join("varied.ron");
    std::fs::write(
        &varied,
        text.replace(
            "    outputs: (",
            "    vary: {\"hardware.link.rate\": [960, 480]},\n    outputs: (",
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let run = gtsim(&[
        "run",
        varied.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{run:?}");
    // The folder's own report says what made it, as every combination's does.
    let index = std::fs::read_to_string(out.join("report.md")).unwrap();
    let sha = scenarios::provenance::sha256_hex(&std::fs::read(&varied).unwrap());
    let provenance = index
        .split("\n## Provenance\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no provenance in:\n{index}"));
    assert!(
        provenance.contains(&format!("SHA-256 `{sha}`"))
            && provenance.contains("- command: `")
            && provenance.contains(" run ")
            && provenance.contains("varied.ron"),
        "{provenance}"
    );
    // Each combination's heading names its values as results.csv's cells do.
    for rate in [960, 480] {
        let heading =
            format!("\n## hardware.link.rate = {rate}\n\n[hardware.link.rate={rate}/report.md]");
        assert!(index.contains(&heading), "no `{heading}` in:\n{index}");
    }
    let (a, b) = (
        out.join("hardware.link.rate=960"),
        out.join("hardware.link.rate=480"),
    );
    let set = dir.join("set");
    let run_480 = || {
        let o = gtsim(&[
            "run",
            base.to_str().unwrap(),
            "--quiet",
            "--set",
            "hardware.link.rate=480",
            "--out",
            set.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{o:?}");
    };
    run_480();
    let read = |p: &Path| std::fs::read_to_string(p.join("results.csv")).unwrap();
    assert_eq!(read(&b), read(&set), "vary's 480 = --set 480");
    assert_ne!(read(&a), read(&b), "the rate changes the results");
    // The report says that the scenario's description does not know of the fields set; a run
    // of the file as it is has nothing to say.
    let report = |p: &Path| std::fs::read_to_string(p.join("report.md")).unwrap();
    let note = "This run set `hardware.link.rate=480` (`--set` or `vary`) over the scenario file";
    assert!(report(&set).contains(note), "{}", report(&set));
    assert!(report(&b).contains(note), "{}", report(&b));
    let plain = dir.join("plain");
    let o = gtsim(&[
        "run",
        base.to_str().unwrap(),
        "--quiet",
        "--out",
        plain.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(
        !report(&plain).contains("This run set"),
        "{}",
        report(&plain)
    );
    // --set on a varied field picks its value: every varied field set, one plain run (which
    // can be sharded), not a run of every combination with the value set overridden.
    let picked = |extra: &[&str], out: &Path| {
        let mut args = vec![
            "run",
            varied.to_str().unwrap(),
            "--quiet",
            "--set",
            "hardware.link.rate=480",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = gtsim(&args);
        assert!(o.status.success(), "{o:?}");
    };
    let whole = dir.join("picked");
    picked(&[], &whole);
    assert_eq!(
        read(&whole),
        read(&set),
        "--set 480 on the varied file = --set 480"
    );
    assert!(!whole.join("hardware.link.rate=960").exists());
    // Without --out, a picked combination goes to the folder the vary run gives it, which a
    // vary run into the same place then replaces (and the other way round).
    let in_dir = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("gtsim runs");
        assert!(o.status.success(), "{args:?}: {o:?}");
    };
    let name = "varied.ron";
    in_dir(&["run", name, "--quiet", "--set", "hardware.link.rate=480"]);
    let default_top = dir.join("out").join("pmws-uniform");
    let combo = default_top.join("hardware.link.rate=480");
    assert_eq!(
        read(&combo),
        read(&set),
        "picked into the vary run's folder for it"
    );
    in_dir(&["run", name, "--quiet"]);
    assert_eq!(read(&combo), read(&set));
    assert!(default_top.join("hardware.link.rate=960").is_dir());
    in_dir(&["run", name, "--quiet", "--set", "hardware.link.rate=480"]);
    // A vary run is not sharded or traced whole: those need one combination (a usage error).
    for extra in [
        vec!["--shard", "0/2", "--out", "sharded"],
        vec!["--trace", "t.json"],
    ] {
        let mut args = vec!["run", name, "--quiet"];
        args.extend(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("gtsim runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--set"),
            "{args:?}: {o:?}"
        );
    }
    let (s0, s1, merged) = (dir.join("s0"), dir.join("s1"), dir.join("merged"));
    picked(&["--shard", "0/2"], &s0);
    picked(&["--shard", "1/2"], &s1);
    let m = gtsim(&[
        "merge",
        merged.to_str().unwrap(),
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(m.status.success(), "{m:?}");
    assert_eq!(
        read(&merged),
        read(&set),
        "a combination picked, sharded and merged"
    );
    // A chart plotted into an output folder (plot's default place) becomes part of it: the next
    // run into the folder replaces the folder, chart and all.
    let plot = plot_of(&set, "speedup", &[]);
    assert!(plot.status.success(), "{plot:?}");
    assert!(set.join("plot-speedup-by-fanout.png").is_file());
    run_480();
    assert!(!set.join("plot-speedup-by-fanout.png").exists());
    let all = read(&out);
    let header = all.lines().next().unwrap();
    assert!(header.ends_with(",hardware.link.rate"), "{header}");
    let rows = |t: &str| t.lines().count() - 1;
    assert_eq!(rows(&all), rows(&read(&a)) + rows(&read(&b)));
    assert!(all.lines().nth(1).unwrap().ends_with(",960"));
    assert!(all.lines().last().unwrap().ends_with(",480"));
    // In the vary folder itself: a chart beside its results (a line per rate), never over its
    // report; the next vary run into the folder deletes the chart, which no longer matches.
    let beside_vary = plot_of(&out, "speedup", &["--by", "hardware.link.rate"]);
    assert!(beside_vary.status.success(), "{beside_vary:?}");
    let vary_chart = out.join("plot-speedup-by-fanout-per-hardware.link.rate.png");
    assert!(vary_chart.is_file());
    assert!(
        String::from_utf8_lossy(&beside_vary.stdout)
            .contains("the next vary run into it deletes it"),
        "{beside_vary:?}"
    );
    let index = std::fs::read(out.join("report.md")).unwrap();
    // A chart of another name there is the user's: not listed, written again at will, and
    // left alone by the next vary run.
    let mine = out.join("mine.png");
    for _ in 0..2 {
        let own = plot_of(
            &out,
            "speedup",
            &[
                "--by",
                "hardware.link.rate",
                "--out",
                mine.to_str().unwrap(),
            ],
        );
        assert!(own.status.success(), "{own:?}");
        assert!(
            !String::from_utf8_lossy(&own.stdout).contains("deletes it"),
            "{own:?}"
        );
    }
    // compare into a file (--out).
    let compare_into = |md: &Path| {
        gtsim(&[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            md.to_str().unwrap(),
        ])
    };
    let cmp_over_index = compare_into(&out.join("report.md"));
    assert_eq!(cmp_over_index.status.code(), Some(3), "{cmp_over_index:?}");
    assert!(
        String::from_utf8_lossy(&cmp_over_index.stderr).contains("vary folder"),
        "{cmp_over_index:?}"
    );
    assert_eq!(std::fs::read(out.join("report.md")).unwrap(), index);
    // A second run into the same folder is allowed; a folder of someone else's is not.
    let again = gtsim(&[
        "run",
        varied.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{again:?}");
    // One combination's run is not written over the vary folder, and says why.
    let single = gtsim(&[
        "run",
        varied.to_str().unwrap(),
        "--quiet",
        "--set",
        "hardware.link.rate=960",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(single.status.code(), Some(3), "{single:?}");
    assert!(
        String::from_utf8_lossy(&single.stderr)
            .contains("is the folder of a vary run (it has a .gtsim-vary file), which only a vary run replaces"),
        "{single:?}"
    );
    assert!(!vary_chart.exists(), "the vary run deleted the stale chart");
    assert!(mine.is_file(), "the vary run left the user's chart alone");
    assert!(out.join("report.md").is_file());
    let marker = std::fs::read_to_string(out.join(".gtsim-vary")).unwrap();
    assert!(
        marker.contains("files:\n  results.csv\n  report.md\nside:\n"),
        "{marker}"
    );
    let combination = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("a combination's folder");
    let over_folder = compare_into(&combination);
    assert_eq!(over_folder.status.code(), Some(3), "{over_folder:?}");
    assert!(
        String::from_utf8_lossy(&over_folder.stderr).contains("is a folder"),
        "{over_folder:?}"
    );
    let theirs = dir.join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let refused = gtsim(&[
        "run",
        varied.to_str().unwrap(),
        "--quiet",
        "--out",
        theirs.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(3), "{refused:?}");
    // compare: the slower line shows, per configuration, beyond noise or not.
    let md = dir.join("compare.md");
    let cmp = compare_into(&md);
    assert!(cmp.status.success(), "{cmp:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains("3 configurations and 1 on one processor") && text.contains("paired by seed"),
        "{text}"
    );
    // Every parallel configuration with its simulated time; the baselines apart, by their
    // time alone (the line's rate does not reach one processor: no change).
    assert_eq!(
        text.matches("\n| simulated time (s) | ").count(),
        3,
        "{text}"
    );
    let baselines = &text[text
        .find("## On one processor (the baselines)")
        .expect(&text)..];
    assert!(
        baselines.contains("processors 1 | ") && baselines.contains(" | 0 ± 0 |"),
        "{text}"
    );
    // plot: a PNG of any two columns.
    let png = dir.join("p.png");
    let plot = plot_of(
        &out,
        "idle_overhead",
        &["--by", "hardware.link.rate", "--out", png.to_str().unwrap()],
    );
    assert!(plot.status.success(), "{plot:?}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    assert!(
        !String::from_utf8_lossy(&plot.stderr).contains("warning"),
        "a line per rate pools nothing: {plot:?}"
    );
    // Without --by, a point pools the two rates: said on stderr and in the chart's title.
    let pooled = plot_of(&out, "idle_overhead", &["--out", png.to_str().unwrap()]);
    assert!(pooled.status.success(), "{pooled:?}");
    assert!(
        String::from_utf8_lossy(&pooled.stderr)
            .contains("pools rows that differ in hardware.link.rate (480, 960)"),
        "{pooled:?}"
    );
    let bad = plot_of(&out, "nope", &[]);
    assert_eq!(bad.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no column \"nope\""));
    // compare and plot never write over the results they read or a run's own files; what they
    // write into an output folder becomes part of it, which the next run replaces.
    let before = read(&a);
    // (A comparison is written only to a `.md` name, which a results.csv is not.)
    let over_input = compare_into(&a.join("results.csv"));
    assert_eq!(over_input.status.code(), Some(2), "{over_input:?}");
    assert_eq!(read(&a), before);
    let report = std::fs::read(set.join("report.md")).unwrap();
    let over_report = compare_into(&set.join("report.md"));
    assert_eq!(over_report.status.code(), Some(3), "{over_report:?}");
    assert_eq!(std::fs::read(set.join("report.md")).unwrap(), report);
    let run_png = std::fs::read_dir(&set)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".png"))
        .expect("the run drew a chart");
    let over_chart = plot_of(
        &out,
        "speedup",
        &["--out", set.join(&run_png).to_str().unwrap()],
    );
    assert_eq!(over_chart.status.code(), Some(3), "{over_chart:?}");
    let not_png = plot_of(
        &out,
        "speedup",
        &["--out", dir.join("chart.txt").to_str().unwrap()],
    );
    assert_eq!(not_png.status.code(), Some(2), "{not_png:?}");
    let beside = set.join("compare-rates.md");
    let cmp = compare_into(&beside);
    assert!(cmp.status.success(), "{cmp:?}");
    assert!(beside.is_file());
    run_480();
    assert!(!beside.exists(), "the next run replaced the folder");
    // Nor over any other file, outside the output folders too: a scenario, an image of the
    // user's. A chart or comparison they wrote before is written again; a missing folder is
    // refused before anything is drawn.
    let refused = |o: &std::process::Output| {
        assert_eq!(o.status.code(), Some(3), "{o:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(
                "exists and is not a comparison of gtsim compare or a chart tagged by gtsim plot"
            ),
            "{o:?}"
        );
    };
    let scenario = std::fs::read(&varied).unwrap();
    let not_md = compare_into(&varied);
    assert_eq!(not_md.status.code(), Some(2), "{not_md:?}");
    assert!(
        String::from_utf8_lossy(&not_md.stderr).contains("give a file name ending in .md"),
        "{not_md:?}"
    );
    assert_eq!(std::fs::read(&varied).unwrap(), scenario);
    let notes = dir.join("notes.md");
    std::fs::write(&notes, "# my notes\n").unwrap();
    refused(&compare_into(&notes));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "# my notes\n");
    // Nor compare over a chart of plot's.
    let chart = dir.join("chart.png");
    assert!(
        plot_of(&out, "speedup", &["--out", chart.to_str().unwrap()])
            .status
            .success()
    );
    let drawn = std::fs::read(&chart).unwrap();
    assert_eq!(compare_into(&chart).status.code(), Some(2));
    assert_eq!(std::fs::read(&chart).unwrap(), drawn);
    let photo = dir.join("photo.png");
    std::fs::write(&photo, b"\x89PNG\r\n\x1a\n not gtsim's").unwrap();
    refused(&plot_of(
        &out,
        "speedup",
        &["--out", photo.to_str().unwrap()],
    ));
    assert_eq!(
        std::fs::read(&photo).unwrap(),
        b"\x89PNG\r\n\x1a\n not gtsim's"
    );
    let again = dir.join("again.md");
    for _ in 0..2 {
        let o = compare_into(&again);
        assert!(o.status.success(), "{o:?}");
    }
    let nowhere = plot_of(
        &out,
        "speedup",
        &["--out", dir.join("nowhere/x.png").to_str().unwrap()],
    );
    assert_eq!(nowhere.status.code(), Some(3), "{nowhere:?}");
    assert!(
        String::from_utf8_lossy(&nowhere.stderr).contains("does not exist"),
        "{nowhere:?}"
    );
}
