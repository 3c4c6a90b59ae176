//! A `vary` section's values are told apart by the value they load to, not by their text: two
//! values that load to the same value would run the same combination twice (two folders, their
//! rows twice in the vary folder's results.csv), so they are refused, naming the field and both
//! values with their places; values that load to different values are all run.

use std::path::{Path, PathBuf};

mod common;

fn scratch(name: &str) -> common::Scratch {
    common::scratch("vary", name)
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// `text` with `from` (which must occur) replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the scenario says {from:?}");
    text.replacen(from, to, 1)
}

/// A small uniform scenario (w = 4, d = 3, 2 seeds, f = 1, 2) on pmws-uniform's hardware (10 MHz,
/// an SCI), without a reference table or a timeline.
fn small_text() -> String {
    let t = std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap();
    let t = edit(&t, "width: 34", "width: 4");
    let t = edit(&t, "depth: 5", "depth: 3");
    let t = edit(&t, "count: 24", "count: 2");
    let t = edit(&t, "fanout: [1, 2, 3, 4]", "fanout: [1, 2]");
    let t = edit(&t, "timeline: (fanout: 4, seed: 1),", "");
    edit(
        &t,
        "reference: \"reference/parabelle-table2-no-tt.csv\",",
        "",
    )
}

/// [`small_text`] on the shipped machine `lines-960` (serial lines joining every pair, pool
/// networks allowed) instead of its own hardware section.
fn machine_text() -> String {
    let t = small_text();
    let start = t.find("    hardware: (").unwrap();
    let end = t.find("    workload:").unwrap();
    format!("{}    machine: \"lines-960\",\n{}", &t[..start], &t[end..])
}

/// `text` with `vary` (the section's body, `"PATH": [VALUES]`) added before its outputs.
fn with_vary(text: &str, vary: &str) -> String {
    edit(
        text,
        "    outputs: (",
        &format!("    vary: {{{vary}}},\n    outputs: ("),
    )
}

/// Line and column (from 1) of the `n`th (from 0) occurrence of `needle` in `text`'s vary line.
fn in_vary(text: &str, needle: &str, n: usize) -> (usize, usize) {
    let line = text.lines().position(|l| l.contains("vary: {")).unwrap();
    let l = text.lines().nth(line).unwrap();
    let at = l.match_indices(needle).nth(n).unwrap().0;
    (line + 1, l[..at].chars().count() + 1)
}

/// The error of loading `text` (written as `name` in `dir`), or None if it loads.
fn load_error(dir: &Path, name: &str, text: &str) -> Option<String> {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    scenarios::load::load_variants(&file, &[])
        .err()
        .map(|e| e.to_string())
}

/// Values written differently that load to the same value: a duration in other units or in
/// cycles, a whole number in a float field, a struct with a default written out or its fields
/// in another order, an optional value with `Some`, spacing and comments, and a machine by its
/// name and by a file holding it. Each is refused at the second value, naming the field, both
/// values as written, their numbers and the first one's place.
#[test]
fn values_that_load_to_the_same_value_are_refused() {
    let dir = scratch("alike");
    let small = small_text();
    let machine = machine_text();
    std::fs::write(
        dir.join("m.ron"),
        std::fs::read_to_string(shipped("machines/lines-960.ron")).unwrap(),
    )
    .unwrap();
    // (scenario, field, its values as the vary section writes them, the two alike (from 0))
    let cases: [(&str, &str, &[&str], usize, usize); 11] = [
        (
            &small,
            "hardware.costs.s",
            &["Ms(4)", "Ms(5)", "Us(4000)"],
            0,
            2,
        ),
        (&small, "hardware.costs.s", &["Ms(4)", "Ms(4.0)"], 0, 1),
        (
            &small,
            "hardware.costs.k",
            &["S(0.008)", "Cycles(80000)"],
            0,
            1,
        ),
        (&small, "hardware.jitter.percent", &["5", "5.0"], 0, 1),
        (
            &small,
            "hardware.jitter",
            &["(percent: 5)", "(seed: 0, percent: 5.0)"],
            0,
            1,
        ),
        (
            &small,
            "hardware.link",
            &["Sci(rate: 960)", "Sci(ports: 8, rate: 960, rts_cts: true)"],
            0,
            1,
        ),
        (
            &small,
            "sweep.seeds",
            &["Range(start: 1, count: 2)", "Range(count: 2, start: 1)"],
            0,
            1,
        ),
        (&small, "sweep.fanout", &["[1, 2]", "[1, /* f */ 2]"], 0, 1),
        (
            &small,
            "outputs.timeline",
            &["(fanout: 2, seed: 1)", "Some((seed: 1, fanout: 2))"],
            0,
            1,
        ),
        (
            &machine,
            "hardware.network",
            &[
                "Hypercube(forwarding: Software, forward_cost: Us(5))",
                "FullyConnected",
                "Hypercube(forward_cost: Ns(5000), forwarding: Software)",
            ],
            0,
            2,
        ),
        (&machine, "machine", &["lines-960", "m.ron"], 0, 1),
    ];
    for (text, field, values, first, second) in cases {
        let list: Vec<String> = values
            .iter()
            .map(|v| {
                if v.parse::<f64>().is_ok() {
                    v.to_string()
                } else {
                    format!("{v:?}")
                }
            })
            .collect();
        let text = with_vary(text, &format!("{field:?}: [{}]", list.join(", ")));
        let quoted = |i: usize| &list[i];
        let (line, col) = in_vary(&text, quoted(second), 0);
        let (first_line, first_col) = in_vary(&text, quoted(first), 0);
        let err = load_error(&dir, "alike.ron", &text).unwrap_or_else(|| {
            panic!("{field}: {values:?} loaded");
        });
        let at = format!("alike.ron:{line}:{col}: vary: {field}: ");
        assert!(err.contains(&at), "{field} {values:?}: {err}");
        let (vi, vj) = (values[first], values[second]);
        for words in [
            format!("{vj} is listed twice: it loads to the same value as {vi}"),
            format!(
                "values {} and {}; value {} at line {first_line}, column {first_col}",
                first + 1,
                second + 1,
                first + 1
            ),
        ] {
            assert!(
                err.contains(&words),
                "{field} {values:?}: {words:?} in {err}"
            );
        }
    }
    // The same text twice is as before: listed twice.
    let text = with_vary(&small, "\"workload.width\": [4, 5, 4]");
    let err = load_error(&dir, "twice.ron", &text).unwrap();
    let (line, col) = in_vary(&text, "4", 1);
    assert!(
        err.contains(&format!(
            "twice.ron:{line}:{col}: vary: workload.width: the value 4 is listed twice (values 1 and 3"
        )),
        "{err}"
    );
}

/// Values that load to different values are all run, however alike their text: each
/// combination is a plan of its own.
#[test]
fn values_that_load_to_different_values_are_all_run() {
    let dir = scratch("different");
    let small = small_text();
    let machine = machine_text();
    // (scenario, the vary section's body, its combinations)
    let cases: [(&str, &str, usize); 7] = [
        (
            &small,
            "\"hardware.costs.s\": [\"Ms(4)\", \"Ms(5)\", \"Us(4500)\", \"Ns(4000001)\"]",
            4,
        ),
        (&small, "\"hardware.costs.k\": [\"Cycles(80000)\", \"Cycles(80001)\"]", 2),
        (&small, "\"hardware.jitter.percent\": [5, 5.5, 0.1]", 3),
        (
            &small,
            "\"hardware.link\": [\"Sci(rate: 960)\", \"Sci(rate: 960, rts_cts: false)\"]",
            2,
        ),
        (&small, "\"description\": [\"\\\"a\\\"\", \"\\\"b\\\"\"]", 2),
        (
            &machine,
            "\"machine\": [\"lines-960\", \"lines-10mbit\", \"ethernet-10mbit\"]",
            3,
        ),
        (
            &machine,
            "\"hardware.network\": [\"Hypercube(forwarding: Software, forward_cost: Us(5))\", \"Hypercube(forwarding: Hardware, forward_cost: Us(5))\"]",
            2,
        ),
    ];
    for (text, vary, combinations) in cases {
        let file = dir.join("different.ron");
        std::fs::write(&file, with_vary(text, vary)).unwrap();
        let variants =
            scenarios::load::load_variants(&file, &[]).unwrap_or_else(|e| panic!("{vary}: {e}"));
        assert_eq!(variants.len(), combinations, "{vary}");
    }
}

/// Two values that load to the same value only with another varied field's value (cycles at
/// one of two clock rates) are refused, naming that value: the rest of the combinations
/// differ.
#[test]
fn values_alike_with_one_value_of_another_field_name_it() {
    let dir = scratch("with");
    let text = with_vary(
        &small_text(),
        "\"hardware.clock_hz\": [10000000, 20000000], \"hardware.costs.k\": [\"Cycles(80000)\", \"Ms(8)\"]",
    );
    let err = load_error(&dir, "with.ron", &text).unwrap();
    let (line, col) = in_vary(&text, "\"Ms(8)\"", 0);
    let (first_line, first_col) = in_vary(&text, "\"Cycles(80000)\"", 0);
    for words in [
        format!("with.ron:{line}:{col}: vary: hardware.costs.k: Ms(8) loads to the same value as Cycles(80000) with hardware.clock_hz=10000000"),
        format!("values 1 and 2; value 1 at line {first_line}, column {first_col}"),
    ] {
        assert!(err.contains(&words), "{words:?} in {err}");
    }
    assert!(!err.contains("listed twice"), "{err}");
}

/// Every duration field of the schema, varied over one time in two units, is one value (a field
/// whose units were compared as written would run the same combination twice).
#[test]
fn every_duration_field_compares_by_its_nanoseconds() {
    let dir = scratch("durations");
    let small = small_text();
    let machine = machine_text();
    // (scenario, the field's path): every field whose type is `Duration`.
    let hypercube = edit(
        &machine,
        "    machine: \"lines-960\",",
        "    machine: \"lines-960\",\n    hardware: (network: Hypercube(forwarding: Software, forward_cost: Us(5))),",
    );
    let memory = edit(
        &small,
        "        length: 1,",
        "        length: 1,\n        memory: (read: Ns(100), write: Ns(100), banks: 4),",
    );
    let below = edit(
        &small,
        "        length: 1,",
        "        length: 1,\n        link_below: Sci(rate: 960),",
    );
    let paths: Vec<(&str, &str)> = ["k", "e", "q", "probe", "s", "interrupt"]
        .iter()
        .map(|f| (small.as_str(), *f))
        .collect();
    let fields: Vec<(&str, String)> = paths
        .into_iter()
        .map(|(t, f)| (t, format!("hardware.costs.{f}")))
        .chain([
            (small.as_str(), "hardware.link.host_char".to_string()),
            (small.as_str(), "hardware.link.board_char".to_string()),
            (below.as_str(), "hardware.link_below.host_char".to_string()),
            (below.as_str(), "hardware.link_below.board_char".to_string()),
            (memory.as_str(), "hardware.memory.read".to_string()),
            (memory.as_str(), "hardware.memory.write".to_string()),
            (
                hypercube.as_str(),
                "hardware.network.forward_cost".to_string(),
            ),
        ])
        .collect();
    let mut covered: Vec<String> = Vec::new();
    for (text, field) in &fields {
        let text = with_vary(text, &format!("{field:?}: [\"Ms(1)\", \"Us(1000)\"]"));
        let err = load_error(&dir, "durations.ron", &text)
            .unwrap_or_else(|| panic!("{field}: Ms(1) and Us(1000) loaded as two values"));
        assert!(
            err.contains(&format!(
                "vary: {field}: Us(1000) is listed twice: it loads to the same value as Ms(1)"
            )),
            "{field}: {err}"
        );
        covered.push(field.rsplit('.').next().unwrap().to_string());
    }
    // The schema's duration fields (`name: Duration`), each covered above.
    let schema = include_str!("../src/schema.rs");
    for line in schema.lines() {
        let line = line.trim().trim_start_matches("pub ");
        if let Some((name, ty)) = line.split_once(':') {
            if ty.trim().trim_end_matches(',') == "Duration"
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                assert!(covered.iter().any(|c| c == name), "{name} is not tested");
            }
        }
    }
}

/// `gtsim check` and `gtsim run` refuse alike values with exit code 3 before writing anything.
#[test]
fn alike_values_stop_check_and_run_before_anything_is_written() {
    let dir = scratch("cli");
    let text = with_vary(
        &small_text(),
        "\"hardware.costs.s\": [\"Ms(4)\", \"Ms(4.0)\", \"Us(4000)\"]",
    );
    let file = dir.join("cli.ron");
    std::fs::write(&file, &text).unwrap();
    let out_dir = dir.join("out");
    for (args, out) in common::check_and_run(&file, &out_dir) {
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains("vary: hardware.costs.s: Ms(4.0) is listed twice"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!out_dir.exists(), "an output folder was created");
}

/// A varied field inside another varied field (`hardware.link.rate` and `hardware.link`) would
/// overwrite the other's values in every combination: refused at the key of the second, in
/// either order, before anything is written.
#[test]
fn a_varied_field_inside_another_varied_field_is_refused() {
    let dir = scratch("nested");
    let link = "\"hardware.link\": [\"Sci(rate: 960)\", \"Sci(rate: 480, ports: 4)\"]";
    let rate = "\"hardware.link.rate\": [960, 480]";
    for (vary, second, words) in [
        (
            format!("{link}, {rate}"),
            "\"hardware.link.rate\"",
            "vary: hardware.link.rate: a field inside hardware.link, which is varied too",
        ),
        (
            format!("{rate}, {link}"),
            "\"hardware.link\"",
            "vary: hardware.link: it holds hardware.link.rate, which is varied too",
        ),
    ] {
        let text = with_vary(&small_text(), &vary);
        let (line, col) = in_vary(&text, second, 0);
        let err = load_error(&dir, "nested.ron", &text).unwrap_or_else(|| panic!("{vary} loaded"));
        assert!(
            err.contains(&format!("nested.ron:{line}:{col}: {words}")),
            "{vary}: {err}"
        );
    }
    // Fields side by side are varied as ever.
    let text = with_vary(
        &small_text(),
        "\"hardware.link.rate\": [960, 480], \"hardware.link_below\": [\"Serial(rate: 960)\"]",
    );
    assert_eq!(load_error(&dir, "beside.ron", &text), None);
}

/// A vary section written but empty, or a field with no value, is an error naming vary: a
/// field to vary was meant.
#[test]
fn an_empty_vary_section_or_value_list_is_refused() {
    let dir = scratch("empty");
    for (vary, words) in [
        ("", "vary: vary lists no field"),
        (
            "\"hardware.link.rate\": []",
            "hardware.link.rate: give at least one value",
        ),
    ] {
        let text = with_vary(&small_text(), vary);
        let err = load_error(&dir, "empty.ron", &text).unwrap_or_else(|| panic!("{vary:?} loaded"));
        assert!(err.contains(words), "{vary:?}: {err}");
    }
}

/// More combinations than the limit: refused at the vary section (it had no line or column),
/// with the count and the number of values of each field, before anything is written.
#[test]
fn more_combinations_than_the_limit_are_refused_at_the_vary_section() {
    let dir = scratch("too-many");
    let widths: Vec<String> = (1..=40).map(|w| w.to_string()).collect();
    let text = with_vary(
        &small_text(),
        &format!(
            "\"workload.width\": [{}],\n        \"hardware.link.rate\": [{}]",
            widths.join(", "),
            (1..=26)
                .map(|r| (100 * r).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let file = dir.join("many.ron");
    std::fs::write(&file, &text).unwrap();
    let line = text.lines().position(|l| l.contains("vary: {")).unwrap() + 1;
    let out = dir.join("out");
    for (args, o) in common::check_and_run(&file, &out) {
        assert_eq!(o.status.code(), Some(3), "{args:?}");
        assert_eq!(
            common::stderr(&o),
            format!(
                "gtsim: error: {}:{line}:5: vary makes 1040 combinations of values (40 x 26), more than the limit of 1000\n",
                file.display()
            ),
            "{args:?}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    assert!(!out.exists());
}

/// A varied field whose values all give the same results is named in a warning, on stderr and
/// in the vary folder's report.md, beside each combination's own warnings of loading; a field
/// whose values change the results is not.
#[test]
fn a_varied_field_that_changes_nothing_is_warned_about() {
    let dir = scratch("unfelt");
    let file = dir.join("unfelt.ron");
    // `s` changes pmws's times. search.algorithm is
    // replaced by sweep.algorithm, and Ab's combination warns that it is not run.
    let text = edit(
        &small_text(),
        "    sweep: (",
        "    sweep: (\n        algorithm: [Pmws],",
    );
    let text = with_vary(
        &text,
        "\"hardware.costs.s\": [\"Ms(2)\", \"Ms(4)\"], \"search.algorithm\": [\"Pmws\", \"Ab\"]",
    );
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let o = common::gtsim(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let warnings = &report[report.find("## Warnings").expect("a Warnings section")..];
    for said in [&stderr[..], warnings] {
        assert!(
            said.contains("vary: search.algorithm: every value (Pmws, Ab) gave the same results"),
            "{said}"
        );
        assert!(!said.contains("vary: hardware.costs.s"), "{said}");
    }
    assert!(
        warnings.contains("ab is not run: sweep.algorithm lists the algorithms to run")
            && warnings.contains("(with hardware.costs.s=Ms(2), search.algorithm=Ab; hardware.costs.s=Ms(4), search.algorithm=Ab)"),
        "{warnings}"
    );
}

/// `check` of a `vary` scenario estimates each combination, then all of them together, and
/// warns of a long run once, of the total: each combination here is under a minute, all three
/// together are over (and under the two minutes from which it is said in minutes).
#[test]
fn check_estimates_a_vary_run_whole_and_warns_of_its_total() {
    let dir = scratch("check_total");
    let file = dir.join("long.ron");
    let text = edit(
        &std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap(),
        "depth: 5",
        "depth: 10",
    );
    let text = edit(&text, "count: 24", "count: 12");
    let text = edit(&text, "fanout: [1, 2, 3, 4]", "fanout: [1, 2]");
    let text = edit(&text, "timeline: (fanout: 4, seed: 1),", "");
    let text = edit(
        &text,
        "reference: \"reference/parabelle-table2-no-tt.csv\",",
        "",
    );
    let text = with_vary(
        &text,
        "\"hardware.costs.s\": [\"Ms(2)\", \"Ms(3)\", \"Ms(4)\"]",
    );
    std::fs::write(&file, text).unwrap();
    let o = common::gtsim(&["check", file.to_str().unwrap(), "--threads", "1"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{stderr}");
    // Seconds of an estimate "about N s" on its line.
    let seconds = |line: &str| -> f64 {
        let at = line.find("estimated time about ").expect("an estimate") + 21;
        line[at..].split(' ').next().unwrap().parse().unwrap()
    };
    let each: Vec<f64> = stdout
        .lines()
        .filter(|l| l.starts_with("work:"))
        .map(seconds)
        .collect();
    assert_eq!(each.len(), 3, "{stdout}");
    assert!(each.iter().all(|&s| s < 60.0), "{stdout}");
    let total = stdout
        .lines()
        .find(|l| l.starts_with("all 3 combinations: "))
        .map(seconds)
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!((total - each.iter().sum::<f64>()).abs() <= 4.0, "{stdout}");
    assert!(total > 60.0, "{stdout}");
    assert_eq!(stderr.matches("would run for").count(), 1, "{stderr}");
    assert!(
        stderr.contains("all its combinations") && stderr.contains("fewer vary values"),
        "{stderr}"
    );
}

/// A `vary` run into the folder of an earlier one replaces its combinations whole: a folder of a
/// combination the new run does not have (a value changed, or a varied field set with `--set`)
/// is deleted once the new run is written, while a folder holding a file gtsim did not write is
/// kept, with a warning, and a file of the user's beside the combinations is left alone.
#[test]
fn a_vary_run_deletes_the_combinations_of_an_earlier_run_that_it_has_not() {
    let dir = scratch("stale");
    let file = dir.join("stale.ron");
    let out = dir.join("out");
    let run = |vary: &str, sets: &[&str]| {
        std::fs::write(&file, with_vary(&small_text(), vary)).unwrap();
        let mut args = vec![
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        let o = common::gtsim(&args);
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{stderr}");
        stderr
    };
    let combinations = || {
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    run("\"hardware.link.rate\": [960, 240]", &[]);
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    assert_eq!(
        combinations(),
        ["hardware.link.rate=240", "hardware.link.rate=960"]
    );
    // A value changed: 240's folder goes.
    run("\"hardware.link.rate\": [960, 480]", &[]);
    assert_eq!(
        combinations(),
        ["hardware.link.rate=480", "hardware.link.rate=960"]
    );
    // Another field varied, the first set: every earlier folder goes but one the user wrote in.
    std::fs::write(out.join("hardware.link.rate=480").join("mine.txt"), "mine").unwrap();
    let stderr = run(
        "\"hardware.link.rate\": [960, 480], \"hardware.costs.s\": [\"Ms(2)\", \"Ms(4)\"]",
        &["hardware.link.rate=960"],
    );
    assert_eq!(
        combinations(),
        [
            "hardware.costs.s=Ms_2_",
            "hardware.costs.s=Ms_4_",
            "hardware.link.rate=480"
        ]
    );
    assert!(
        stderr.contains("warning: kept ")
            && stderr.contains("hardware.link.rate=480, a combination of an earlier run")
            && stderr.contains("mine.txt"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // The folder kept stays listed, and the next run says so again.
    let marker = std::fs::read_to_string(out.join(".gtsim-vary")).unwrap();
    assert!(
        marker.contains("hardware.link.rate=480") && marker.contains("hardware.costs.s=Ms_4_"),
        "{marker}"
    );
    let stderr = run(
        "\"hardware.link.rate\": [960, 480], \"hardware.costs.s\": [\"Ms(2)\", \"Ms(4)\"]",
        &["hardware.link.rate=960"],
    );
    assert!(
        stderr.contains("hardware.link.rate=480, a combination of an earlier run"),
        "{stderr}"
    );
    // Once the user's file is gone, the folder goes.
    std::fs::remove_file(out.join("hardware.link.rate=480").join("mine.txt")).unwrap();
    run(
        "\"hardware.link.rate\": [960, 480], \"hardware.costs.s\": [\"Ms(2)\", \"Ms(4)\"]",
        &["hardware.link.rate=960"],
    );
    assert_eq!(
        combinations(),
        ["hardware.costs.s=Ms_2_", "hardware.costs.s=Ms_4_"]
    );
}

/// A varied value written as in the file, without the quotes that make it a string of RON
/// text, is refused with the remedy, whatever its form: not "found a sequence". The error is
/// at the value's first character, first or second in the list, after any spaces.
#[test]
fn a_varied_value_written_without_quotes_is_refused_with_the_remedy() {
    let dir = scratch("unquoted");
    for value in ["Ms(2)", "Serial(rate: 480)", "[1, 2]", "()"] {
        for (list, index) in [
            (format!("[{value}, \"Ms(4)\"]"), 0),
            (format!("[\"Ms(4)\",   {value}]"), 1),
            (format!("[\"Ms(4)\",{value}]"), 1),
        ] {
            let text = with_vary(&small_text(), &format!("\"hardware.costs.s\": {list}"));
            let e = load_error(&dir, "unquoted.ron", &text).expect("refused");
            let (line, col) = in_vary(&text, value, 0);
            assert!(
                e.contains(&format!("unquoted.ron:{line}:{col}: vary.hardware.costs.s[{index}]: a value other than a number or true/false is written as a string holding its RON text: put it in double quotes")),
                "{list}: {e}"
            );
        }
    }
}
