//! The output folder end to end: one unit whatever happens, paths checked
//! before the sweep, undefined values never written as NaN (class 7), provenance.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn gtsim(args: &[&str], env: &[(&str, String)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gtsim"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("gtsim runs")
}

fn scratch(name: &str) -> common::Scratch {
    common::scratch("outputs", name)
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// The shipped pmws-uniform scenario, edited by `(from, to)` replacements, written to `dir`
/// with its reference table.
fn scenario(dir: &Path, file: &str, edits: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{from} in the scenario");
        text = text.replace(from, to);
    }
    common::copy_reference(dir, "parabelle-table2-no-tt.csv");
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path
}

/// The published speedups a single-algorithm speedup chart of `plan` draws.
fn published_of(plan: &scenarios::Plan) -> Option<(String, Vec<(f64, f64)>)> {
    let algorithm = plan.algorithms[0].name();
    scenarios::output::published_speedups(plan, &algorithm, &plan.fanouts)
}

/// A small scenario (w = 6, d = 3, two seeds, no timeline) on the processor counts `fanouts`
/// (as written in its list), loaded and run.
fn small_run(
    dir: &Path,
    file: &str,
    fanouts: &str,
) -> (scenarios::Plan, scenarios::runner::Results) {
    let file = scenario(
        dir,
        file,
        &[
            ("width: 34,", "width: 6,"),
            ("depth: 5,", "depth: 3,"),
            ("count: 24", "count: 2"),
            ("fanout: [1, 2, 3, 4]", &format!("fanout: [{fanouts}]")),
            ("timeline: (fanout: 4, seed: 1),", ""),
        ],
    );
    let plan = scenarios::load(&file).unwrap();
    let results = scenarios::run_plan(&plan, 1, &|_, _| {}).unwrap();
    (plan, results)
}

/// A quick scenario: small trees, two seeds (`seeds`), f = 1..4, every output file.
fn quick(dir: &Path, file: &str, seeds: &str) -> PathBuf {
    scenario(
        dir,
        file,
        &[
            ("width: 34,", "width: 6,"),
            ("depth: 5,", "depth: 3,"),
            ("count: 24", seeds),
        ],
    )
}

/// Every file under a folder (relative path) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn restore(dir: &Path, files: &BTreeMap<String, Vec<u8>>) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

/// Entries of `dir` that a run left beside its output folders.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".gtsim-"))
        .collect()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_run_failing_or_killed_at_any_step_leaves_the_previous_folder_or_the_new_one_whole() {
    let dir = scratch("unit");
    let old_file = quick(&dir, "s.ron", "count: 2");
    let target = dir.join("out");
    let t = target.to_str().unwrap();
    // The new run differs from the previous one in every file (three seeds, not two).
    let new_file = quick(&dir, "new.ron", "count: 3");
    let (old_arg, new_arg) = (old_file.to_str().unwrap(), new_file.to_str().unwrap());
    // A failed or killed run keeps its finished runs in its part file; the runs after it
    // continue from there (--resume, which a run with nothing to resume ignores).
    let new_args = ["run", new_arg, "--out", t, "--quiet", "--resume"];
    ok(&gtsim(&new_args, &[]));
    let new = snapshot(&target);
    ok(&gtsim(&["run", old_arg, "--out", t, "--quiet"], &[]));
    let old = snapshot(&target);
    for name in ["results.csv", "results.json", "report.md", ".gtsim-output"] {
        assert_ne!(old[name], new[name], "{name} differs between the two runs");
    }
    assert!(new.contains_key("timeline.png") && new.contains_key("speedup.png"));
    let whole = |what: &str, n: usize| {
        let now = snapshot(&target);
        assert!(
            now == old || now == new,
            "{what} at step {n}: the folder is a mix: {:?}",
            now.keys().collect::<Vec<_>>()
        );
        now == new
    };
    let mut steps = 0;
    for n in 0.. {
        restore(&target, &old);
        // An I/O error at step n: the previous folder stays, nothing is left beside it.
        let out = gtsim(&new_args, &[("GTSIM_TEST_FAIL_AT", n.to_string())]);
        let failed = !out.status.success();
        if failed {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("injected failure"), "step {n}: {err}");
            assert!(err.contains("--resume continues"), "step {n}: {err}");
            assert_eq!(
                leftovers(&dir),
                [".out.gtsim-part"],
                "step {n}: only the finished runs are left"
            );
        }
        let replaced = whole("failure", n);
        restore(&target, &old);
        // A kill at step n: no cleanup runs; the folder is still whole.
        let out = gtsim(&new_args, &[("GTSIM_TEST_KILL_AT", n.to_string())]);
        let killed = out.status.code() == Some(86);
        whole("kill", n);
        // The next run cleans what the killed one left and writes the new folder.
        ok(&gtsim(&new_args, &[]));
        assert_eq!(snapshot(&target), new, "step {n}: the run after the kill");
        assert!(
            leftovers(&dir).is_empty(),
            "step {n}: {:?}",
            leftovers(&dir)
        );
        if !failed && !killed {
            // Past the last step: the run went through.
            assert!(replaced);
            break;
        }
        // A failure before the swap keeps the previous folder.
        steps += 1;
    }
    // Steps: results.csv, results.json, the runs spool, report.md, 2 charts, the timeline,
    // the swap and the cleanup at least.
    assert!(steps >= 9, "only {steps} steps");
}

/// Runs gtsim with `args` (after "run FILE") and expects a refusal that names `words`, before
/// anything is simulated or written.
fn refused(dir: &Path, file: &Path, args: &[&str], words: &str) {
    let before = snapshot(dir);
    let mut all = vec!["run", file.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = gtsim(&all, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} accepted");
    assert!(err.contains(words), "{args:?}: '{words}' not in {err}");
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(dir), before, "{args:?} changed the folder");
}

#[test]
fn bad_output_paths_are_refused_before_the_sweep_and_nothing_is_touched() {
    let dir = scratch("refusals");
    // 100,000 seeds of the shipped trees would run for hours: every refusal below must come
    // before the sweep.
    let file = scenario(&dir, "huge.ron", &[("count: 24", "count: 100000")]);
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // A folder of the user's.
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    std::fs::write(dir.join("mine/notes.txt"), "mine").unwrap();
    refused(
        &dir,
        &file,
        &["--out", &p("mine")],
        "is not a gtsim output folder",
    );
    // A file.
    refused(&dir, &file, &["--out", &p("huge.ron")], "is a file");
    // A gtsim folder with a file of the user's in it.
    std::fs::create_dir_all(dir.join("old")).unwrap();
    std::fs::write(
        dir.join("old/.gtsim-output"),
        "gtsim output folder\nfiles:\n  results.csv\n",
    )
    .unwrap();
    std::fs::write(dir.join("old/results.csv"), "x").unwrap();
    std::fs::write(dir.join("old/notes.txt"), "mine").unwrap();
    refused(&dir, &file, &["--out", &p("old")], "'notes.txt'");
    // A missing parent folder.
    refused(&dir, &file, &["--out", &p("no/such/out")], "no/such");
    // --trace onto the scenario, its reference table, into the output folder, over a file
    // that is not a trace, into a missing folder.
    let out = p("out");
    for (trace, words) in [
        (file.to_str().unwrap().to_string(), "the scenario file"),
        (p("reference/parabelle-table2-no-tt.csv"), "reference table"),
        (p("out/trace.json"), "inside the output folder"),
        (p("mine/notes.txt"), "not a trace gtsim wrote"),
        (p("missing/trace.json"), "cannot write the trace"),
    ] {
        refused(&dir, &file, &["--out", &out, "--trace", &trace], words);
    }
}

#[test]
fn a_second_run_replaces_the_folder_whole_and_an_empty_folder_is_accepted() {
    let dir = scratch("replace");
    // First run with plots and a timeline, second without: no PNG of the first may stay.
    let with = quick(&dir, "with.ron", "count: 2");
    let without = scenario(
        &dir,
        "without.ron",
        &[
            ("width: 34,", "width: 6,"),
            ("depth: 5,", "depth: 3,"),
            ("count: 24", "count: 2"),
            ("plots: true", "plots: false"),
            ("timeline: (fanout: 4, seed: 1),", ""),
        ],
    );
    let target = dir.join("out");
    std::fs::create_dir_all(&target).unwrap();
    let t = target.to_str().unwrap();
    ok(&gtsim(
        &["run", with.to_str().unwrap(), "--out", t, "--quiet"],
        &[],
    ));
    assert!(target.join("timeline.png").exists());
    ok(&gtsim(
        &["run", without.to_str().unwrap(), "--out", t, "--quiet"],
        &[],
    ));
    let names: Vec<String> = snapshot(&target).into_keys().collect();
    assert_eq!(
        names,
        [".gtsim-output", "report.md", "results.csv", "results.json"],
        "only the second run's files"
    );
    // The trace: written when its path is free or holds a gtsim trace, refused otherwise.
    let trace = dir.join("run.json");
    let tr = trace.to_str().unwrap();
    for _ in 0..2 {
        ok(&gtsim(
            &[
                "run",
                with.to_str().unwrap(),
                "--out",
                t,
                "--quiet",
                "--trace",
                tr,
            ],
            &[],
        ));
    }
    assert!(std::fs::read_to_string(&trace)
        .unwrap()
        .starts_with("{\"displayTimeUnit\""));
    assert!(leftovers(&dir).is_empty());
}

#[test]
fn undefined_values_are_empty_cells_and_dashes_never_nan() {
    // Width 1: the model's even-depth estimates and (w−1) terms are undefined; one seed: no
    // standard errors. With the synchronization study, every writer meets undefined values.
    let dir = scratch("nan");
    let file = scenario(
        &dir,
        "w1.ron",
        &[
            ("width: 34,", "width: 1,"),
            ("count: 24", "count: 1"),
            ("fanout: [1, 2, 3, 4]", "fanout: [1, 2]"),
            ("timeline: (fanout: 4, seed: 1),", "sync_study: true,"),
            ("reference: \"reference/parabelle-table2-no-tt.csv\",", ""),
        ],
    );
    let out_dir = dir.join("out");
    let out = gtsim(
        &[
            "run",
            file.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &[],
    );
    ok(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("NaN"), "{stdout}");
    for (name, bytes) in snapshot(&out_dir) {
        if name.ends_with(".png") {
            continue;
        }
        let text = String::from_utf8(bytes).unwrap();
        assert!(!text.contains("NaN"), "{name} has NaN");
        assert!(!text.to_lowercase().contains("inf,"), "{name} has inf");
    }
    // results.csv: the undefined model column is an empty cell.
    let csv = std::fs::read_to_string(out_dir.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let even = header
        .iter()
        .position(|h| *h == "model_sync_overhead_even")
        .unwrap();
    for line in lines {
        assert_eq!(line.split(',').nth(even), Some(""), "{line}");
    }
    // results.json: null; report.md: "–" (the standard errors of one seed).
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("results.json")).unwrap())
            .unwrap();
    assert!(json["runs"][0]["model_sync_overhead_even"].is_null());
    assert!(json["summary"][0]["speedup_se"].is_null());
    let report = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(report.contains("1.00 ± –"), "{report}");
}

#[test]
fn report_and_json_carry_their_provenance() {
    use sha2::Digest;
    let dir = scratch("provenance");
    let file = scenario(
        &dir,
        "p.ron",
        &[
            ("width: 34,", "width: 6,"),
            ("depth: 5,", "depth: 3,"),
            ("Range(start: 1, count: 24)", "Range(start: 5, count: 3)"),
            (
                "timeline: (fanout: 4, seed: 1)",
                "timeline: (fanout: 4, seed: 6)",
            ),
        ],
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let out_dir = dir.join("out");
    let args = [
        "run",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ];
    ok(&gtsim(&args, &[]));
    let sha: String = sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("results.json")).unwrap())
            .unwrap();
    let p = &json["provenance"];
    assert_eq!(p["gtsim_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(p["scenario"]["sha256"], sha.as_str());
    assert_eq!(p["scenario"]["path"], file.to_str().unwrap());
    assert_eq!(p["seeds"], serde_json::json!([5, 6, 7]));
    let command: Vec<&str> = p["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(command[1..], args);
    let commit = p["git_commit"].as_str().unwrap();
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    // Built from this checkout: its commit (a test run right after a commit may see the
    // previous build's HEAD only if cargo did not rerun build.rs, which it must).
    assert_eq!(Some(commit.to_string()), head.or(Some("unknown".into())));
    let report = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    for part in [
        "## Provenance".to_string(),
        sha.clone(),
        format!("git commit {commit}"),
        "seeds (3): 5–7".into(),
        "--quiet".into(),
        // The plots are linked, and simulated time says so.
        "[overheads.png](overheads.png)".into(),
        "[timeline.png](timeline.png)".into(),
        "| simulated time |".into(),
    ] {
        assert!(report.contains(&part), "report.md lacks {part}");
    }
    let marker = std::fs::read_to_string(out_dir.join(".gtsim-output")).unwrap();
    assert!(marker.contains(&sha) && marker.contains("results.csv"));
}

#[test]
fn a_one_fanout_run_still_draws_its_charts() {
    let dir = scratch("one-fanout");
    let file = scenario(
        &dir,
        "one.ron",
        &[
            ("width: 34,", "width: 6,"),
            ("depth: 5,", "depth: 3,"),
            ("count: 24", "count: 2"),
            ("fanout: [1, 2, 3, 4]", "fanout: [4]"),
            ("reference: \"reference/parabelle-table2-no-tt.csv\",", ""),
        ],
    );
    let out_dir = dir.join("out");
    ok(&gtsim(
        &[
            "run",
            file.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "--quiet",
        ],
        &[],
    ));
    for png in ["overheads.png", "speedup.png", "timeline.png"] {
        let bytes = std::fs::read(out_dir.join(png)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{png}");
        assert!(bytes.len() > 10_000, "{png} is nearly empty");
    }
}

#[test]
fn a_processor_count_of_one_alone_draws_no_empty_legend_entry() {
    let dir = scratch("f1-alone");
    let (plan, results) = small_run(&dir, "one.ron", "1");
    for chart in [
        scenarios::output::overheads_chart(&plan, &results.summaries),
        scenarios::output::speedup_chart(&plan, &results.summaries, published_of(&plan), None),
    ] {
        for s in &chart.series {
            assert!(
                !s.points.is_empty(),
                "{}: '{}' has no points",
                chart.title,
                s.label
            );
        }
    }
}

/// speedup.png of a scenario with a reference table sets the published speedups beside the
/// measured ones, at the processor counts the sweep runs; without a table, nothing.
#[test]
fn the_published_speedups_are_drawn_beside_the_measured_ones() {
    let dir = scratch("published");
    let file = quick(&dir, "table.ron", "count: 2");
    let plan = scenarios::load(&file).unwrap();
    let results = scenarios::run_plan(&plan, 1, &|_, _| {}).unwrap();
    let table = plan
        .reference
        .as_ref()
        .expect("pmws-uniform names Table II");
    let chart = scenarios::output::speedup_chart(
        &plan,
        &results.summaries,
        scenarios::output::charts::reference_speedups(table, &plan.fanouts),
        None,
    );
    let published: Vec<&plots::Series> = chart
        .series
        .iter()
        .filter(|s| s.label == "published speedup (parabelle-table2-no-tt.csv)")
        .collect();
    assert_eq!(published.len(), 1, "{:?}", chart.series);
    // The table's own rows, read back from the file (f, speedup).
    let text = std::fs::read_to_string(shipped("reference/parabelle-table2-no-tt.csv")).unwrap();
    let rows: Vec<(f64, f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fanout"))
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0].parse().unwrap(), cells[3].parse().unwrap())
        })
        .collect();
    assert_eq!(published[0].points, rows);
    assert_eq!(published[0].style, plots::LineStyle::Dashed);
    let without = scenarios::output::speedup_chart(&plan, &results.summaries, None, None);
    assert_eq!(without.series.len(), chart.series.len() - 1);
    // Only the processor counts the sweep runs.
    let (plan, results) = small_run(&dir, "two.ron", "1, 2");
    let chart =
        scenarios::output::speedup_chart(&plan, &results.summaries, published_of(&plan), None);
    let drawn = chart
        .series
        .iter()
        .find(|s| s.label.starts_with("published speedup"))
        .expect("drawn");
    assert_eq!(drawn.points, rows[..2]);
}

/// With several algorithms, speedup.png sets them side by side: one chart per tree
/// configuration, a line per algorithm and the ideal line.
#[test]
fn several_algorithms_share_one_speedup_chart() {
    let text = std::fs::read_to_string(shipped("pmws-uniform.ron"))
        .unwrap()
        .replace("count: 24", "count: 2")
        .replace(
            "        fanout: [1, 2, 3, 4],",
            "        fanout: [1, 2, 3, 4],\n        algorithm: [Pmws, Parabelle(table: Local)],\n        depth: [3, 4],",
        );
    let plan = scenarios::parse(&text, &shipped("pmws-uniform.ron")).unwrap();
    let results = scenarios::run_plan(&plan, 1, &|_, _| {}).unwrap();
    let configs = scenarios::results::by_config(&results.summaries);
    assert_eq!(configs.len(), 4, "2 algorithms x 2 depths");
    let charts =
        scenarios::output::charts::overlaid_speedup_charts(&plan, &configs, &Default::default());
    assert_eq!(charts.len(), 2, "one chart per depth");
    for c in &charts {
        let labels: Vec<&str> = c.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            ["pmws", "parabelle_local_all", "ideal (speedup = f)"]
        );
        assert!(c.series.iter().all(|s| s.points.len() == 4));
    }
}

/// The files that differ between two snapshots (by name, so a failure prints no bytes).
fn differing(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    names
        .into_iter()
        .filter(|n| a.get(*n) != b.get(*n))
        .cloned()
        .collect()
}

/// The part file beside an output folder.
fn part_of(folder: &Path) -> PathBuf {
    let name = folder.file_name().unwrap().to_string_lossy().into_owned();
    folder.with_file_name(format!(".{name}.gtsim-part"))
}

/// A folder where the part file goes is refused as a folder, not as a part file an interrupted
/// run left (it was told 'an interrupted run left it; gtsim will not overwrite it'), with
/// `--resume` or without; it is left as it is and nothing is written.
#[test]
fn a_folder_where_the_part_file_goes_is_refused_as_a_folder() {
    let dir = scratch("part-folder");
    let file = quick(&dir, "quick.ron", "count: 2");
    let out = dir.join("out");
    std::fs::create_dir(part_of(&out)).unwrap();
    std::fs::write(part_of(&out).join("mine.txt"), "kept").unwrap();
    for extra in [&[][..], &["--resume"]] {
        let mut args = vec!["run", file.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let refused = gtsim(&args, &[]);
        assert_eq!(refused.status.code(), Some(3), "{extra:?}");
        let says = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(
            says,
            format!(
                "gtsim: error: {}: a folder, not a part file gtsim wrote (gtsim keeps an interrupted run's finished runs in a file of that name beside the output folder): remove or rename it\n",
                part_of(&out).display()
            ),
            "{extra:?}"
        );
        assert!(!out.exists());
        assert_eq!(
            std::fs::read_to_string(part_of(&out).join("mine.txt")).unwrap(),
            "kept"
        );
    }
}

/// A sweep killed after any number of its runs (none, some, all of them but before the output
/// was written) keeps them in its part file, and `--resume` ends with the folder an
/// uninterrupted run writes, byte for byte: results, report and charts. Without `--resume` the
/// part file is refused rather than overwritten; another sweep's is refused by `--resume`.
#[test]
fn an_interrupted_sweep_resumes_to_the_folder_an_uninterrupted_run_writes() {
    let dir = scratch("resume");
    let file = quick(&dir, "quick.ron", "count: 3");
    let out = dir.join("out");
    let run = |extra: &[&str], env: &[(&str, String)]| {
        let mut args = vec!["run", file.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        gtsim(&args, env)
    };
    // The command line is part of the output: every run that writes it gives --threads 2.
    ok(&run(&["--threads", "2"], &[]));
    let whole = snapshot(&out);
    assert!(whole.contains_key("results.csv") && whole.contains_key("timeline.png"));
    assert!(
        !part_of(&out).exists(),
        "a finished run leaves no part file"
    );
    // 3 seeds × (the uniprocessor baseline + f = 2, 3, 4) = 12 runs.
    for kill in [0usize, 1, 5, 11, 12] {
        std::fs::remove_dir_all(&out).unwrap();
        // Killed on one thread or on two.
        let threads = if kill % 2 == 0 { "1" } else { "2" };
        let cut = run(
            &["--threads", threads],
            &[("GTSIM_TEST_KILL_AFTER_RUNS", kill.to_string())],
        );
        assert_eq!(
            cut.status.code(),
            Some(86),
            "killed after {kill} runs: {cut:?}"
        );
        assert!(!out.exists(), "nothing of a killed run is at the target");
        let part = std::fs::read_to_string(part_of(&out)).unwrap();
        assert_eq!(
            part.lines().count(),
            1 + kill,
            "the header and one line per run"
        );
        // A rerun without --resume does not throw the kept runs away.
        let refused = run(&[], &[]);
        assert_eq!(refused.status.code(), Some(3));
        let says = String::from_utf8_lossy(&refused.stderr);
        assert!(
            says.contains(&format!("kept {kill} of its 12 runs")) && says.contains("--resume"),
            "{says}"
        );
        // A write the kill cut short is dropped.
        if kill == 5 {
            let mut torn = part.into_bytes();
            torn.extend_from_slice(b"{\"run\":5,\"root_val");
            std::fs::write(part_of(&out), torn).unwrap();
        }
        let resumed = run(&["--resume", "--threads", "2"], &[]);
        ok(&resumed);
        let now = snapshot(&out);
        assert!(
            differing(&now, &whole).is_empty(),
            "resumed after {kill} runs: {:?} differ",
            differing(&now, &whole)
        );
        assert!(!part_of(&out).exists());
        assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    }
    // The kept runs are taken from the part file, not simulated again: a count changed there
    // shows in the results.
    std::fs::remove_dir_all(&out).unwrap();
    let cut = run(&[], &[("GTSIM_TEST_KILL_AFTER_RUNS", "1".into())]);
    assert_eq!(cut.status.code(), Some(86));
    let part = std::fs::read_to_string(part_of(&out)).unwrap();
    let leaves = |csv: &str| -> u64 {
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let at = header.iter().position(|c| *c == "leaf_nodes").unwrap();
        csv.lines()
            .nth(1)
            .unwrap()
            .split(',')
            .nth(at)
            .unwrap()
            .parse()
            .unwrap()
    };
    let first = leaves(std::str::from_utf8(&whole["results.csv"]).unwrap());
    let from = format!("\"leaves\":{first},");
    assert!(part.contains(&from), "{part}");
    let edited = part.replacen(&from, &format!("\"leaves\":{},", first + 1), 1);
    // A line edited by hand no longer matches its check: refused, the part file kept.
    std::fs::write(part_of(&out), &edited).unwrap();
    let refused = run(&["--resume"], &[]);
    assert_eq!(refused.status.code(), Some(3));
    let says = String::from_utf8_lossy(&refused.stderr);
    assert!(
        says.contains(".out.gtsim-part:2: not a line gtsim wrote"),
        "{says}"
    );
    assert!(!out.exists());
    assert_eq!(std::fs::read_to_string(part_of(&out)).unwrap(), edited);
    // Sealed again, it is taken as it stands.
    std::fs::write(part_of(&out), common::resealed(&edited)).unwrap();
    ok(&run(&["--resume"], &[]));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(leaves(&csv), first + 1);
    // ... but one that no simulation leaves (its time categories do not add up to its
    // makespan) is refused, and the part file kept as it is.
    std::fs::remove_dir_all(&out).unwrap();
    let cut = run(&[], &[("GTSIM_TEST_KILL_AFTER_RUNS", "1".into())]);
    assert_eq!(cut.status.code(), Some(86));
    let part = std::fs::read_to_string(part_of(&out)).unwrap();
    let broken = common::resealed(&part.replacen("\"makespan_ns\":", "\"makespan_ns\":1", 1));
    assert_ne!(broken, part);
    std::fs::write(part_of(&out), &broken).unwrap();
    let refused = run(&["--resume"], &[]);
    assert_eq!(refused.status.code(), Some(3));
    let says = String::from_utf8_lossy(&refused.stderr);
    assert!(says.contains("time categories add up to"), "{says}");
    assert!(!out.exists());
    assert_eq!(std::fs::read_to_string(part_of(&out)).unwrap(), broken);
    std::fs::remove_file(part_of(&out)).unwrap();
    // Another sweep's runs are not continued.
    let cut = run(&[], &[("GTSIM_TEST_KILL_AFTER_RUNS", "4".into())]);
    assert_eq!(cut.status.code(), Some(86));
    let other = run(&["--resume", "--set", "hardware.link.rate=480"], &[]);
    assert_eq!(other.status.code(), Some(3));
    let says = String::from_utf8_lossy(&other.stderr);
    assert!(
        says.contains("it holds the runs made with no --set, this run with --set"),
        "{says}"
    );
    let other = run(&["--resume", "--step-by-step"], &[]);
    assert_eq!(
        other.status.code(),
        Some(3),
        "batching is part of the sweep"
    );
    // --resume with nothing to resume runs from the start.
    std::fs::remove_file(part_of(&out)).unwrap();
    ok(&run(&["--resume", "--threads", "2"], &[]));
    assert!(differing(&snapshot(&out), &whole).is_empty());
}

/// `--resume` with the part file of another sweep names what differs, as `gtsim merge` does
/// for a shard of another sweep: the fields set, a mode, the scenario, an input file changed
/// since. The part file is kept as it was.
#[test]
fn resume_names_what_differs_from_another_sweeps_part_file() {
    let dir = scratch("resume-other");
    let file = quick(&dir, "quick.ron", "count: 2");
    let out = dir.join("out");
    let run = |file: &Path, extra: &[&str], env: &[(&str, String)]| {
        let mut args = vec!["run", file.to_str().unwrap(), "--quiet", "--threads", "1"];
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        gtsim(&args, env)
    };
    let cut = run(&file, &[], &[("GTSIM_TEST_KILL_AFTER_RUNS", "1".into())]);
    assert_eq!(cut.status.code(), Some(86), "{cut:?}");
    let part = std::fs::read_to_string(part_of(&out)).unwrap();
    let other = quick(&dir, "other.ron", "count: 3");
    // `./quick.ron` is the same path: not what differs.
    let same = format!("{}/./quick.ron", dir.display());
    for (scenario, extra, differs) in [
        (
            file.clone(),
            &["--set", "hardware.link.rate=480"][..],
            "it holds the runs made with no --set, this run with --set hardware.link.rate=480"
                .to_string(),
        ),
        (
            PathBuf::from(&same),
            &["--conservative"][..],
            "it holds the runs made without --conservative, this run with --conservative".into(),
        ),
        (
            other.clone(),
            &[][..],
            format!(
                "it holds the runs of the scenario {}, not {}",
                file.display(),
                other.display()
            ),
        ),
    ] {
        let refused = run(&scenario, &[&["--resume"][..], extra].concat(), &[]);
        assert_eq!(refused.status.code(), Some(3), "{extra:?}");
        let says = common::stderr(&refused);
        assert_eq!(
            says,
            format!(
                "gtsim: error: {}: {differs}; delete it to start over\n",
                part_of(&out).display()
            )
        );
        assert_eq!(std::fs::read_to_string(part_of(&out)).unwrap(), part);
    }
    // The scenario edited since (a comment added).
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("// edited\n");
    std::fs::write(&file, text).unwrap();
    let refused = run(&file, &["--resume"], &[]);
    assert_eq!(refused.status.code(), Some(3));
    let says = common::stderr(&refused);
    assert!(
        says.contains(&format!(
            ": {} is not what it was when the runs were kept (its SHA-256 differs); delete it to start over",
            file.display()
        )),
        "{says}"
    );
    assert!(!out.exists());
}

/// A `vary` run killed in its first combination resumes to the folders, combined results.csv
/// and index an uninterrupted one writes.
#[test]
fn an_interrupted_vary_run_resumes_to_the_same_folders() {
    let dir = scratch("resume-vary");
    let file = quick(&dir, "quick.ron", "count: 2");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            "    outputs: (",
            "    vary: {\"hardware.link.rate\": [960, 480]},\n    outputs: (",
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let run = |extra: &[&str], env: &[(&str, String)]| {
        let mut args = vec!["run", file.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        gtsim(&args, env)
    };
    ok(&run(&[], &[]));
    let whole = snapshot(&out);
    assert!(whole.contains_key("hardware.link.rate=480/results.csv"));
    assert!(
        !whole.keys().any(|k| k.contains("gtsim-part")),
        "{:?}",
        whole.keys()
    );
    std::fs::remove_dir_all(&out).unwrap();
    let cut = run(&[], &[("GTSIM_TEST_KILL_AFTER_RUNS", "3".into())]);
    assert_eq!(cut.status.code(), Some(86), "{cut:?}");
    ok(&run(&["--resume"], &[]));
    assert!(differing(&snapshot(&out), &whole).is_empty());
}

/// A run that fails (here simulated time overflows: a send set up for an hour's worth of
/// 10^6 hours) fails the same way on every try: its part file is removed, not kept for a
/// --resume that could not pass it, so the corrected scenario runs at once. In a vary run the
/// error names the combination; a folder the run created is removed, and in an earlier vary
/// run's folder the combinations done keep their folders but no part file.
#[test]
fn a_failed_run_leaves_no_part_file_to_block_the_corrected_run() {
    let dir = scratch("failed-run");
    let huge = "s: S(3600000000)";
    let edits = [
        ("width: 34,", "width: 6,"),
        ("depth: 5,", "depth: 3,"),
        ("count: 24", "count: 2"),
        ("s: Ms(2.0)", huge),
    ];
    let file = scenario(&dir, "fails.ron", &edits);
    let out = dir.join("out");
    // `gtsim run FILE --out OUT --quiet`.
    let run_into = |file: &Path, out: &Path| {
        gtsim(
            &[
                "run",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ],
            &[],
        )
    };
    let run = || run_into(&file, &out);
    let o = run();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(
        err.contains("simulated time would pass") && err.contains("is removed"),
        "{err}"
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    assert!(!out.exists());
    // Corrected, the same command runs.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace(huge, "s: Ms(2.0)")).unwrap();
    ok(&run());
    // In a vary run.
    let varied = dir.join("varied.ron");
    std::fs::write(
        &varied,
        text.replace(huge, "s: Ms(2.0)").replace(
            "    outputs: (",
            "    vary: {\"hardware.costs.s\": [\"Ms(1)\", \"S(3600000000)\"]},\n    outputs: (",
        ),
    )
    .unwrap();
    let vout = dir.join("vout");
    let vary_run = || run_into(&varied, &vout);
    let o = vary_run();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(
        err.starts_with("gtsim: error: with hardware.costs.s=S(3600000000): "),
        "{err}"
    );
    // The folder the failed run created is gone, the combination it finished with it.
    assert!(!vout.exists(), "{:?}", leftovers(&dir));
    // Into the folder of an earlier vary run, the combinations done keep their folders.
    let failing = std::fs::read_to_string(&varied).unwrap();
    std::fs::write(&varied, failing.replace("\"S(3600000000)\"", "\"Ms(3)\"")).unwrap();
    ok(&vary_run());
    std::fs::write(&varied, &failing).unwrap();
    let o = vary_run();
    assert_eq!(
        o.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(vout
        .join("hardware.costs.s=Ms_1_")
        .join("results.csv")
        .exists());
    assert!(
        leftovers(&vout).iter().all(|n| !n.ends_with(".gtsim-part")),
        "{:?}",
        leftovers(&vout)
    );
    std::fs::write(
        &varied,
        std::fs::read_to_string(&varied)
            .unwrap()
            .replace("\"S(3600000000)\"", "\"Ms(3)\""),
    )
    .unwrap();
    ok(&vary_run());
}
