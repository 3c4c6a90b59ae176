//! Regression tests for bad input: one per class (sizes, generator
//! inputs, `--threads`, messages, reference tables, the cost of a scenario), run through the
//! `gtsim` binary where the message is what matters.

use std::path::{Path, PathBuf};

mod common;
use common::gtsim;

fn scratch(name: &str) -> common::Scratch {
    common::scratch("input", name)
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn uniform_text() -> String {
    std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap()
}

/// `text` with `from` (which must occur) replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the scenario says {from:?}");
    text.replacen(from, to, 1)
}

/// A small uniform scenario (w = 4, d = 3, 2 seeds, f = 1, 2) without a reference table.
fn small_text() -> String {
    let t = uniform_text();
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

/// Writes `bytes` as `<dir>/<name>` and returns its path.
fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// `gtsim check` and `gtsim run` both reject `file` with an error that starts with
/// `FILE:LINE:COL: ` and contains each of `words`; nothing is written. Returns the message.
fn rejected(file: &Path, line: usize, col: usize, words: &[&str]) -> String {
    let out_dir = file.with_extension("out");
    let mut message = String::new();
    for (args, out) in common::check_and_run(file, &out_dir) {
        let err = common::stderr(&out);
        assert!(!out.status.success(), "accepted: {args:?}");
        let at = format!("gtsim: error: {}:{line}:{col}: ", file.display());
        assert!(
            err.starts_with(&at),
            "error does not start with {at}: {err}"
        );
        for w in words {
            assert!(err.contains(w), "error does not say {w:?}: {err}");
        }
        assert!(out.stdout.is_empty());
        message = err;
    }
    assert!(!out_dir.exists(), "an output folder was created");
    message
}

// Class 1: sizes are checked before anything is allocated; files are read bounded.

#[test]
fn class1_seed_ranges_are_checked_arithmetically() {
    let dir = scratch("seeds");
    // Would be 18446744073709551615 seeds: refused before listing them (was a panic).
    let f = write(
        &dir,
        "huge.ron",
        edit(&small_text(), "count: 2", "count: 18446744073709551615"),
    );
    rejected(
        &f,
        47,
        9,
        &[
            "sweep.seeds",
            "18446744073709551615 seeds",
            "limit of 100000",
        ],
    );
    // The last seed would be past u64::MAX (was a silent wrap to seed 0).
    let f = write(
        &dir,
        "wrap.ron",
        edit(
            &small_text(),
            "start: 1, count: 2",
            "start: 18446744073709551615, count: 2",
        ),
    );
    rejected(&f, 47, 9, &["sweep.seeds", "goes past the largest seed"]);
    // The run count is a checked product: 10 seeds x 100 widths x 1000 noises x 2 fanouts.
    let widths: Vec<String> = (1..=100).map(|w| w.to_string()).collect();
    let noises: Vec<String> = (0..1000).map(|n| n.to_string()).collect();
    let t = edit(
        &small_text(),
        "seeds: Range(start: 1, count: 2),",
        &format!(
            "seeds: Range(start: 1, count: 10), width: [{}], horizon_noise: [{}],",
            widths.join(", "),
            noises.join(", ")
        ),
    );
    let f = write(&dir, "many.ron", t);
    rejected(
        &f,
        45,
        5,
        &["sweep: the sweep makes 2000000 runs", "limit of 1000000"],
    );
}

#[test]
fn a_seed_listed_twice_is_refused_at_the_second() {
    // At the item, as sweep.positions places an id it does not know, not at `seeds`.
    let dir = scratch("seeds-twice");
    let text = edit(
        &small_text(),
        "seeds: Range(start: 1, count: 2),",
        "seeds: List([1, 2,\n            1]),",
    );
    let f = write(&dir, "twice.ron", &text);
    let (line, col) = place(&text, "            1]", "1");
    rejected(&f, line, col, &["sweep.seeds[2]: seed 1 is listed twice"]);
}

#[test]
fn a_value_listed_twice_in_a_sweep_list_is_refused_at_the_second() {
    // As a seed is: at the item that repeats (the last line of each list), not at the list.
    let dir = scratch("listed-twice");
    let seeds = "seeds: Range(start: 1, count: 2),";
    let cases: [(&str, &str, &str, &str); 9] = [
        (
            "fanout",
            "fanout: [1, 2],",
            "fanout: [1, 2,\n            1],",
            "sweep.fanout[2]: fanout 1 is listed twice",
        ),
        (
            "processors",
            "fanout: [1, 2],",
            "processors: [1, 2,\n            2],",
            "sweep.processors[2]: processors 2 is listed twice",
        ),
        (
            "ptree",
            seeds,
            "ptree: [(depth: 1, width: 2),\n            (depth: 1, width: 2)], seeds: Range(start: 1, count: 2),",
            "sweep.ptree[1]: the processor tree (depth 1, width 2) is listed twice",
        ),
        (
            "width",
            seeds,
            "width: [4, 5,\n            4], seeds: Range(start: 1, count: 2),",
            "sweep.width[2]: width 4 is listed twice",
        ),
        (
            "depth",
            seeds,
            "depth: [3,\n            3], seeds: Range(start: 1, count: 2),",
            "sweep.depth[1]: depth 3 is listed twice",
        ),
        (
            "shape",
            seeds,
            "shape: [(width: 4, depth: 3), (width: 5, depth: 3),\n            (width: 4, depth: 3)], seeds: Range(start: 1, count: 2),",
            "sweep.shape[2]: (width 4, depth 3) is listed twice",
        ),
        (
            "horizon_noise",
            seeds,
            "horizon_noise: [0, 50,\n            0], seeds: Range(start: 1, count: 2),",
            "sweep.horizon_noise[2]: horizon noise 0 is listed twice",
        ),
        (
            "ordering",
            seeds,
            "ordering: [FirstBest(p: 0.6), Random,\n            FirstBest(p: 0.6)], seeds: Range(start: 1, count: 2),",
            "sweep.ordering[2]: ordering ",
        ),
        (
            "algorithm",
            seeds,
            "algorithm: [Pmws, Parabelle(),\n            Pmws], seeds: Range(start: 1, count: 2),",
            "sweep.algorithm[2]: algorithm ",
        ),
    ];
    for (name, from, to, said) in cases {
        let text = edit(&small_text(), from, to);
        let f = write(&dir, &format!("{name}.ron"), &text);
        // The repeated item begins the list's second line.
        let second = to.split('\n').nth(1).unwrap();
        let (line, col) = place(&text, second, second.trim_start());
        rejected(&f, line, col, &[said, "is listed twice"]);
    }
}

#[test]
fn class1_only_bounded_regular_files_are_read() {
    let dir = scratch("files");
    for (path, why) in [
        ("/dev/zero", "not a regular file"),
        (dir.to_str().unwrap(), "a directory"),
    ] {
        let out = gtsim(&["check", path]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains(&format!("{path}: cannot read the scenario: {why}")),
            "{err}"
        );
    }
    // A scenario over 16 MiB (a long comment) is refused without being parsed.
    let mut big = small_text().into_bytes();
    big.extend(b"\n//");
    big.resize(16 * 1024 * 1024 + 10, b'x');
    let f = write(&dir, "big.ron", &big);
    let out = gtsim(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("more than the limit of 16777216 bytes"),
        "{err}"
    );
    // The reference table goes through the same reader.
    let t = edit(
        &small_text(),
        "plots: true,",
        "plots: true, reference: \"/dev/zero\",",
    );
    let f = write(&dir, "devref.ron", t);
    rejected(
        &f,
        50,
        22,
        &[
            "outputs.reference",
            "/dev/zero: cannot read the reference table: not a regular file",
        ],
    );
}

// Class 3: what the generator would refuse, check refuses, at the field.

#[test]
fn class3_weights_the_generator_cannot_use_are_rejected_by_check() {
    let dir = scratch("weights");
    for (name, weights, words) in [
        (
            "overflow",
            "[1e308, 1e308, 1e308, 1e308]",
            "the weights add up to inf",
        ),
        (
            "subnormal",
            "[0.0, 5e-324, 0.0, 0.0]",
            "the weights add up to 5e-324",
        ),
        ("tiny", "[1.0, 1e-15, 1.0, 1.0]", "below 1e-12 of the sum"),
        ("negative", "[1.0, -1.0, 1.0, 1.0]", "weight 2 is -1"),
    ] {
        let t = edit(
            &small_text(),
            "ordering: FirstBest(p: 0.6),",
            &format!("ordering: Weights({weights}),"),
        );
        let f = write(&dir, &format!("{name}.ron"), t);
        // The position is the end of the value, where the list was read whole.
        let err = rejected(&f, 37, 27 + weights.len(), &["workload.ordering", words]);
        assert!(!err.contains("scheme"), "{err}");
    }
    // Width-dependent: four weights for a sweep over widths 4 and 5; names the list item.
    let t = edit(
        &small_text(),
        "seeds: Range(start: 1, count: 2),",
        "seeds: Range(start: 1, count: 2), width: [4, 5], ordering: [Random, Weights([1, 2, 3, 4])],",
    );
    let f = write(&dir, "width.ron", t);
    rejected(
        &f,
        47,
        77,
        &["sweep.ordering[1]: 4 weights given for a tree of width 5"],
    );
}

#[test]
fn class3_distinct_weight_lists_get_distinct_labels() {
    let dir = scratch("labels");
    let t = edit(
        &small_text(),
        "seeds: Range(start: 1, count: 2),",
        "seeds: Range(start: 1, count: 2), ordering: [Weights([70, 10, 10, 10]), Weights([10, 70, 10, 10]), FirstBest(p: 0.6)],",
    );
    let t = edit(&t, "plots: true,", "plots: false,");
    let f = write(&dir, "labels.ron", t);
    let out_dir = dir.join("out");
    let out = gtsim(&[
        "run",
        f.to_str().unwrap(),
        "--threads",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(out_dir.join("results.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|&c| c == "ordering").unwrap();
    let mut labels: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(col).unwrap().to_string())
        .collect();
    labels.dedup();
    assert_eq!(
        labels,
        [
            "weights(70 10 10 10)",
            "weights(10 70 10 10)",
            "first_best(0.6)"
        ]
    );
}

// Class 4: --threads is bounded.

#[test]
fn class4_threads_is_bounded() {
    let file = shipped("pmws-uniform.ron");
    for n in ["100000", "257", "18446744073709551615", "-1", "many"] {
        let arg = format!("--threads={n}");
        let out = gtsim(&[
            "run",
            file.to_str().unwrap(),
            &arg,
            "--out",
            "/nonexistent/x",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--threads {n}: {err}");
        assert!(
            err.contains(&format!("invalid value '{n}' for '--threads <THREADS>'"))
                && err.contains("from 0 (one per core) to 256"),
            "{err}"
        );
    }
}

// Class 6: messages name the field and the expected type; BOMs are accepted.

#[test]
fn class6_wrong_numbers_name_the_field_and_the_type() {
    let dir = scratch("types");
    for (name, from, to, line, col, words) in [
        ("float", "width: 4", "width: 8.5", 33, 16, "workload.width: expected an unsigned integer, found the float 8.5"),
        ("rate", "rate: 960", "rate: 960.5", 29, 25, "hardware.link.rate: expected an unsigned integer, found the float 960.5"),
        ("negative", "depth: 3", "depth: -2", 34, 17, "workload.depth: expected an unsigned integer, found the negative number -2"),
        ("big", "count: 2", "count: 18446744073709551616", 47, 39, "sweep.seeds.count: expected an unsigned integer, found 1.8446744073709552e19, above the largest (18446744073709551615)"),
        ("fanout", "fanout: [1, 2]", "fanout: [1, 2.0]", 46, 21, "sweep.fanout[1]: expected an unsigned integer, found the float 2 (write it without a decimal point or exponent)"),
        ("bool", "plots: true", "plots: 1", 50, 15, "outputs.plots: expected boolean"),
        ("noise", "horizon_noise: 50,", "horizon_noise: 1e3,", 39, 24, "workload.horizon_noise: expected an unsigned integer, found the float 1000"),
        // A bare word is named as such (the parser reads it as a unit value).
        ("word", "depth: 3", "depth: three", 34, 21, "workload.depth: expected an unsigned integer but found the word `three` instead"),
        // The parser's words for a time without its unit, or an algorithm in quotes or with
        // empty parentheses, come with how to write it.
        ("time", "k: Ms(8.0)", "k: 8", 22, 16, "hardware.costs.k: expected a name here (of a field or a variant), but found `8`; a time is written with its unit: S(1.5), Ms(8)"),
        ("quoted", "algorithm: Pmws", "algorithm: \"Pmws\"", 42, 20, "search.algorithm: expected identifier; an algorithm is written as `gtsim algorithms` lists it, without quotes: Pmws,"),
        ("parens", "algorithm: Pmws", "algorithm: Pmws()", 42, 24, "search: expected comma; an algorithm is written as `gtsim algorithms` lists it"),
        ("none", "horizon_noise: 50,", "horizon_noise: None,", 39, 24, "workload.horizon_noise: expected an unsigned integer but found `None` or `Some(…)`: this field is not optional"),
        // A value of several named forms, written as something else, comes with the forms.
        ("seeds", "seeds: Range(start: 1, count: 2)", "seeds: [1, 2]", 47, 16, "sweep.seeds: expected identifier; seeds are written Range(start: 1, count: 24) or List([1, 2, 3]), names without quotes"),
        ("ordering", "ordering: FirstBest(p: 0.6)", "ordering: \"random\"", 37, 19, "workload.ordering: expected identifier; an ordering is written Random, Perfect, StronglyOrdered, FirstBest(p: 0.6)"),
        ("unnamed", "ordering: FirstBest(p: 0.6)", "ordering: FirstBest(0.6)", 37, 29, "workload.ordering: expected a name here (of a field or a variant), but found `0.6`; an ordering is written Random, Perfect"),
    ] {
        let f = write(&dir, &format!("{name}.ron"), edit(&small_text(), from, to));
        rejected(&f, line, col, &[words]);
    }
    // A section or a field left out is named, and for the hardware the machine instead.
    let text = small_text();
    let start = text.find("    hardware: (").unwrap();
    let end = start + text[start..].find("\n    ),\n").unwrap() + "\n    ),\n".len();
    let f = write(
        &dir,
        "no-hardware.ron",
        format!("{}{}", &text[..start], &text[end..]),
    );
    let err = common::stderr(&gtsim(&["check", f.to_str().unwrap()]));
    assert!(
        err.contains("the scenario has no `hardware` section: give one, or name a machine instead"),
        "{err}"
    );
    let f = write(&dir, "no-k.ron", edit(&small_text(), "k: Ms(8.0),", ""));
    let err = common::stderr(&gtsim(&["check", f.to_str().unwrap()]));
    assert!(
        err.contains("hardware.costs: `k` is missing: this section needs it"),
        "{err}"
    );
    // A section (a struct in the code) is named as one, not by its type's name in the code.
    let f = write(&dir, "small.ron", small_text());
    for (set, words) in [
        (
            "hardware.jitter=5",
            "hardware.jitter: expected a section in parentheses, `(…)`",
        ),
        (
            "hardware.jitter=big",
            "hardware.jitter: expected a section in parentheses, `(…)`, but found `big`",
        ),
        (
            "outputs.timeline=4",
            "outputs.timeline: expected a section in parentheses, `(…)`",
        ),
    ] {
        let out = gtsim(&["check", f.to_str().unwrap(), "--set", set]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{set}: accepted");
        assert!(err.contains(words), "{set}: {err}");
        assert!(
            !err.contains("JitterOption") && !err.contains("TimelineRun"),
            "{err}"
        );
    }
}

#[test]
fn class6_a_bracket_left_open_or_closed_early_says_where_to_look() {
    let dir = scratch("brackets");
    let hint = "is read as part of the wrong section";
    for (name, from, to, line, col, words, bracket) in [
        // `)` missing: the next section's first field lands in `costs`.
        (
            "open",
            "interrupt: Ms(1.0),",
            "interrupt: Ms(1.0,",
            29,
            9,
            "hardware.costs.link: unknown field `link`; the fields here are `k`, `e`,",
            "if `link` is spelled as meant, it is read as part of the wrong section: a bracket above may be left open",
        ),
        // `)` too many: a workload field lands at the top.
        (
            "closed",
            "FirstBest(p: 0.6),",
            "FirstBest(p: 0.6)),",
            38,
            9,
            "value_spread: unknown field `value_spread`; the fields here are",
            "it is read as part of the wrong section: a bracket above may be closed too early",
        ),
    ] {
        let f = write(&dir, &format!("{name}.ron"), edit(&small_text(), from, to));
        rejected(&f, line, col, &[words, bracket]);
    }
    // A misspelt field (two letters or fewer from one expected there) is not about brackets.
    let f = write(
        &dir,
        "typo.ron",
        edit(&small_text(), "fanout: [1, 2]", "fanoot: [1, 2]"),
    );
    let err = rejected(
        &f,
        46,
        9,
        &["sweep.fanoot: unknown field `fanoot` (is `fanout` meant?); the fields here are `fanout`,"],
    );
    assert!(!err.contains(hint), "{err}");
    // The last `)` missing: the end of the file.
    let text = small_text();
    let text = text
        .trim_end()
        .strip_suffix(')')
        .expect("a scenario ends in `)`");
    let f = write(&dir, "eof.ron", format!("{text}\n"));
    rejected(
        &f,
        56,
        7,
        &["unexpected end of RON; the file ends inside a bracket: one above is left open"],
    );
    // The same without the comma after the last section: a comma or the bracket, and the
    // file ends.
    let unclosed = text
        .trim_end()
        .strip_suffix(',')
        .expect("`),` before the last `)`");
    let f = write(&dir, "eof-comma.ron", format!("{unclosed}\n// the end\n"));
    let (line, col) = (
        unclosed.lines().count(),
        unclosed.lines().last().unwrap().len() + 1,
    );
    rejected(
        &f,
        line,
        col,
        &["expected a comma or a closing bracket, but the file ends: a bracket above is left open"],
    );
    // Text after the file's value: placed at the text, past blank lines and comments.
    let f = write(
        &dir,
        "trailing.ron",
        format!("{}\n\n// notes\n/* more */  x y\n", small_text().trim_end()),
    );
    let line = small_text().trim_end().lines().count() + 3;
    rejected(
        &f,
        line,
        13,
        &["text after the file's closing bracket, `x y`: the file holds one value"],
    );
    // In a value set with --set, the brackets to look at are the value's own.
    let f = write(&dir, "small.ron", small_text());
    let out = gtsim(&[
        "check",
        f.to_str().unwrap(),
        "--set",
        "workload=Synthetic(width: 4, ordering: FirstBest(p: 0.6, depth: 3))",
    ]);
    let e = common::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{e}");
    assert!(
        e.contains("unknown field `depth`")
            && e.contains("a bracket in the value set may be left open"),
        "{e}"
    );
    assert!(!e.contains("a bracket above"), "{e}");
}

#[test]
fn class6_the_bracket_hint_is_only_for_a_field_of_a_section_around_or_inside() {
    // A bracket left open reads an enclosing section's field in the inner one, a bracket closed
    // too early an inner section's field in the enclosing one: a field of no section there
    // (misspelt, one of another workload's, a scenario field in a machine file, which is a
    // hardware section on its own) is not about brackets, however far from the fields here.
    let dir = scratch("bracket-hint");
    let hint = "is read as part of the wrong section";
    let lines = std::fs::read_to_string(shipped("machines/lines-960.ron")).unwrap();
    let with_machine = |machine: &str| {
        let t = small_text();
        let start = t.find("    hardware: (").unwrap();
        let end = t.find("    workload:").unwrap();
        format!("{}    machine: \"{machine}\",\n{}", &t[..start], &t[end..])
    };
    let small = small_text();
    // Campbell's workload with a field of the synthetic one.
    let campbell = {
        let start = small.find("    workload:").unwrap();
        let end = small.find("    search:").unwrap();
        format!(
            "{}    workload: Campbell(width: 4, depth: 3, ordering: Random, value_spread: 1000),\n{}",
            &small[..start],
            &small[end..]
        )
    };
    // (file, its text, the scenario if it is a machine file, the error's words, the hint)
    let cases = [
        (
            "bogus-machine.ron",
            edit(&lines, "network: FullyConnected,", "network: FullyConnected,\n    bogus: 1,"),
            Some(with_machine("bogus-machine.ron")),
            "bogus: unknown field `bogus`; the fields here are `clock_hz`",
            None,
        ),
        (
            "name-machine.ron",
            edit(&lines, "network: FullyConnected,", "network: FullyConnected,\n    name: \"x\","),
            Some(with_machine("name-machine.ron")),
            "name: unknown field `name`; the fields here are `clock_hz`",
            None,
        ),
        (
            "open-machine.ron",
            edit(&lines, "interrupt: Ms(1.0),\n    ),", "interrupt: Ms(1.0),\n"),
            Some(with_machine("open-machine.ron")),
            "costs.link: unknown field `link`",
            Some("a bracket above may be left open"),
        ),
        (
            "campbell.ron",
            campbell,
            None,
            "workload.value_spread: unknown field `value_spread`; the fields here are `width`, `depth`, `ordering` and `root_score`",
            None,
        ),
        (
            "costs.ron",
            edit(&small, "interrupt: Ms(1.0),", "interrupt: Ms(1.0),\n            z: Ms(1.0),"),
            None,
            "hardware.costs.z: unknown field `z`; the fields here are `k`",
            None,
        ),
    ];
    for (name, text, scenario, words, bracket) in cases {
        let f = write(&dir, name, &text);
        let checked = match scenario {
            Some(s) => write(&dir, &format!("with-{name}"), s),
            None => f.clone(),
        };
        let out = gtsim(&["check", checked.to_str().unwrap()]);
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{name}: {err}");
        assert!(
            err.starts_with(&format!("gtsim: error: {}:", f.display())) && err.contains(words),
            "{name}: {err}"
        );
        match bracket {
            Some(b) => assert!(err.contains(&format!("{hint}: {b}\n")), "{name}: {err}"),
            None => assert!(!err.contains(hint), "{name}: {err}"),
        }
    }
}

#[test]
fn class6_byte_order_marks_and_invalid_utf8() {
    let dir = scratch("bom");
    std::fs::create_dir_all(dir.join("reference")).unwrap();
    let table = std::fs::read(shipped("reference/parabelle-table2-no-tt.csv")).unwrap();
    let mut bom_table = b"\xEF\xBB\xBF".to_vec();
    bom_table.extend(&table);
    write(&dir, "reference/parabelle-table2-no-tt.csv", &bom_table);
    let mut bom_scenario = b"\xEF\xBB\xBF".to_vec();
    bom_scenario.extend(uniform_text().bytes());
    let f = write(&dir, "bom.ron", &bom_scenario);
    let out = gtsim(&["check", f.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Invalid UTF-8: the position of the first bad byte (line 3, after "ab").
    let f = write(&dir, "latin1.ron", b"// a\n// b\n// ab\xE9\n(name: \"x\")");
    rejected(&f, 3, 6, &["not UTF-8 text: invalid byte 0xE9"]);
}

// Class 8: reference tables are checked strictly.

#[test]
fn class8_reference_tables_are_checked_strictly() {
    let dir = scratch("reference");
    let scenario = edit(
        &small_text(),
        "plots: true,",
        "plots: true, reference: \"table.csv\",",
    );
    let f = write(&dir, "ref.ron", &scenario);
    let table = dir.join("table.csv");
    for (text, line, words) in [
        (
            "fanout,speedup\n1,1.0\n2,1.8\n1,1.1\n",
            4,
            "a second row for fanout 1 (the first is on line 2)",
        ),
        ("fanout,speedups\n1,1.0\n", 1, "unknown column 'speedups'"),
        (
            "fanout,speedup,speedup\n1,1.0,1.0\n",
            1,
            "column 'speedup' appears twice",
        ),
        (
            "fanout,speedup\n1,1.0\n2,NaN\n",
            3,
            "column speedup: 'NaN' is not a finite number",
        ),
        (
            "fanout,secs\n1,inf\n",
            2,
            "column secs: 'inf' is not a finite number",
        ),
        ("fanout,secs\n1,-5\n", 2, "column secs: '-5' is negative"),
    ] {
        std::fs::write(&table, text).unwrap();
        rejected(
            &f,
            50,
            22,
            &[
                "outputs.reference",
                &format!("{}:{line}: {words}", table.display()),
            ],
        );
    }
    // A processor count the sweep does not run: a warning, not an error.
    std::fs::write(&table, "fanout,speedup\n1,1.0\n2,1.8\n3,2.5\n").unwrap();
    let out = gtsim(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "gtsim: warning: {}:4: fanout 3 is not in the sweep (sweep.fanout); this row is not shown",
            table.display()
        )),
        "{err}"
    );
    // A shipped scenario copied elsewhere: its table is looked for beside the copy, and the
    // error says so; with the table copied along, the copy is accepted.
    let copy = write(&dir, "copy.ron", uniform_text());
    let folder = format!("(`{}`)", dir.display());
    rejected(
        &copy,
        55,
        9,
        &[
            "outputs.reference",
            "reference/parabelle-table2-no-tt.csv: cannot read the reference table",
            "looked for from the scenario file's folder",
            &folder,
        ],
    );
    // A name from the root is not looked for from the scenario's folder: no such advice.
    let absolute = write(
        &dir,
        "absolute.ron",
        edit(
            &uniform_text(),
            "reference/parabelle-table2-no-tt.csv",
            "/nonexistent/table.csv",
        ),
    );
    let err = rejected(
        &absolute,
        55,
        9,
        &["/nonexistent/table.csv: cannot read the reference table"],
    );
    assert!(!err.contains("looked for from"), "{err}");
    std::fs::create_dir(dir.join("reference")).unwrap();
    std::fs::copy(
        shipped("reference/parabelle-table2-no-tt.csv"),
        dir.join("reference/parabelle-table2-no-tt.csv"),
    )
    .unwrap();
    let out = gtsim(&["check", copy.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_empty_file_name_is_refused_as_empty() {
    // It named the scenario's folder, and printed as nothing: `workload.positions: : cannot
    // read the positions file`.
    let dir = scratch("empty-name");
    let chess = std::fs::read_to_string(shipped("parabelle-table2.ron")).unwrap();
    for (name, text, needle, field) in [
        (
            "positions.ron",
            edit(&chess, "positions: BratkoKopec", "positions: Epd(\"\")"),
            "positions: Epd",
            "workload.positions",
        ),
        (
            "reference.ron",
            edit(
                &uniform_text(),
                "reference: \"reference/parabelle-table2-no-tt.csv\"",
                "reference: \"\"",
            ),
            "reference: \"\"",
            "outputs.reference",
        ),
    ] {
        let f = write(&dir, name, &text);
        let (line, col) = place(&text, needle, needle.split(':').next().unwrap());
        rejected(
            &f,
            line,
            col,
            &[&format!("{field}: the file name is empty (\"\")")],
        );
    }
}

// Class 9 (check): the number of runs and an estimate of the work, a warning above a minute.

#[test]
fn class9_check_prints_runs_and_work_and_warns_about_long_scenarios() {
    let dir = scratch("cost");
    // 2 seeds x 2 fanouts (f = 1 included) x 1 configuration; minimal trees of w = 4 at depths
    // 1, 2, 3 (progressive deepening): 4 + 7 + 19 = 30 leaves per run, 120 in all.
    let f = write(&dir, "small.ron", small_text());
    let out = gtsim(&["check", f.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("= 4 simulated runs"), "{stdout}");
    assert!(stdout.contains("at least 1.200e2 leaves"), "{stdout}");
    assert!(out.stderr.is_empty(), "no warning for a small scenario");
    // Width 1,000, depth 12, with costs of a nanosecond (the minimal trees, 2e18 leaves,
    // fit in simulated time; larger trees with these costs would not, and are refused):
    // accepted (exit 0) with a warning on stderr.
    let t = edit(&small_text(), "width: 4", "width: 1000");
    let t = edit(&t, "depth: 3", "depth: 12");
    let t = edit(
        &edit(&t, "k: Ms(8.0)", "k: Ns(1)"),
        "e: Ms(25.65)",
        "e: Ns(1)",
    );
    let f = write(&dir, "days.ron", t);
    let out = gtsim(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("gtsim: warning: this scenario would run for more than a thousand years"),
        "{err}"
    );
    // 100,000 tree configurations (1,000 horizon noises x 100 depths... 100 widths x 1,000
    // noises) check without comparing configurations pairwise.
    let widths: Vec<String> = (1..=100).map(|w| w.to_string()).collect();
    let noises: Vec<String> = (0..1000).map(|n| n.to_string()).collect();
    let t = edit(
        &small_text(),
        "seeds: Range(start: 1, count: 2),",
        &format!(
            "seeds: Range(start: 1, count: 1), width: [{}], horizon_noise: [{}],",
            widths.join(", "),
            noises.join(", ")
        ),
    );
    let t = edit(&t, "fanout: [1, 2]", "fanout: [1]");
    let f = write(&dir, "configs.ron", t);
    let out = gtsim(&["check", f.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("100000 tree configurations"), "{stdout}");
    // Many tiny runs: the leaves are nothing, the runs themselves are the work. 1,000,000 runs of
    // 3-leaf trees took about 2.5 minutes on 2 cores; check must warn, and so must run, before
    // it starts (the run is stopped by an unwritable --out only after the warning).
    let t = edit(
        &small_text(),
        "seeds: Range(start: 1, count: 2),",
        "seeds: Range(start: 1, count: 100000), width: [2, 3, 4, 5, 6],",
    );
    let t = edit(&t, "depth: 3", "depth: 1");
    let f = write(&dir, "many.ron", t);
    // Two threads, as on the CI machine (the estimate divides by the threads).
    let out = gtsim(&["check", f.to_str().unwrap(), "--threads", "2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("gtsim: warning: this scenario would run for"),
        "{err}"
    );
    let blocker = write(&dir, "afile", String::new());
    let out = gtsim(&[
        "run",
        f.to_str().unwrap(),
        "--threads",
        "2",
        "--out",
        blocker.join("sub").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("gtsim: warning: this scenario would run for"),
        "{err}"
    );
}

/// The estimate knows a search's work: SSS* on w = 300, d = 6 random trees keeps an OPEN list of
/// up to 300^3 states whose upkeep, not the 5.4e7 leaves of the minimal tree, is the work
/// (measured: w = 40 already takes seconds, w = 60 more than a minute); alpha-beta on the same
/// trees is estimated at the leaves alone.
#[test]
fn check_estimates_the_open_list_of_best_first_searches() {
    let dir = scratch("open-estimate");
    let scenario = |alg: &str| {
        format!(
            r#"(
    name: "wide",
    hardware: (costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)), link: Ideal),
    workload: Campbell(width: 300, depth: 6, ordering: Random),
    search: (algorithm: {alg}, progressive_deepening: false),
    sweep: (fanout: [1], seeds: Range(start: 1, count: 1)),
    outputs: (plots: false),
)"#
        )
    };
    let estimate = |alg: &str| {
        let f = write(&dir, "wide.ron", scenario(alg));
        let out = gtsim(&["check", f.to_str().unwrap(), "--threads", "1"]);
        assert!(out.status.success(), "{out:?}");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (out, err) = estimate("Ab");
    // 5.4e7 leaves at 100 M leaves/s: half a second.
    assert!(out.contains("estimated time under a second"), "{out}");
    assert!(err.is_empty(), "{err}");
    for (alg, time) in [
        ("Sss", "7 days"),
        ("Dual", "7 days"),
        // SSS* on the top three plies, or below them: lists of 300^2 states.
        ("Sab()", "32 min"),
        ("Abs()", "32 min"),
        // Staged SSS* keeps lists of two plies only: 300 states.
        ("StagedSss(stage: 2)", "7 s"),
    ] {
        let (out, err) = estimate(alg);
        assert!(out.contains("OPEN list"), "{alg}: {out}");
        assert!(
            out.contains(&format!("estimated time about {time}")),
            "{alg}: {out}"
        );
        assert!(
            err.contains("gtsim: warning: this scenario would run for") || time == "7 s",
            "{alg}: {err}"
        );
    }
}

/// Campbell's root value S "either a fixed value or chosen randomly" (Appendix 2): fixed by
/// `workload.root_score`, every tree's root value is it; outside 1..=127 it is an error at the
/// field; left out, each tree draws its own.
#[test]
fn campbell_root_score_fixes_every_trees_root_value() {
    let dir = scratch("root-score");
    let scenario = |root: &str| {
        format!(
            r#"(
    name: "fixed-s",
    hardware: (costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)), link: Ideal),
    workload: Campbell(width: 4, depth: 3, ordering: Random{root}),
    search: (algorithm: Ab, progressive_deepening: false),
    sweep: (fanout: [1], seeds: Range(start: 1, count: 12)),
    outputs: (plots: false),
)"#
        )
    };
    let roots = |root: &str| -> Vec<String> {
        let f = write(&dir, "s.ron", scenario(root));
        let out_dir = dir.join("out");
        let _ = std::fs::remove_dir_all(&out_dir);
        let out = gtsim(&[
            "run",
            f.to_str().unwrap(),
            "--quiet",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let csv = std::fs::read_to_string(out_dir.join("results.csv")).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let at = header.iter().position(|c| *c == "root_value").unwrap();
        csv.lines()
            .skip(1)
            .map(|l| l.split(',').nth(at).unwrap().to_string())
            .collect()
    };
    let fixed = roots(", root_score: 64");
    assert_eq!(fixed.len(), 12);
    assert!(fixed.iter().all(|v| v == "64"), "{fixed:?}");
    let drawn = roots("");
    assert!(drawn.iter().any(|v| v != "64"), "{drawn:?}");
    for bad in ["0", "128", "-3"] {
        let f = write(&dir, "bad.ron", scenario(&format!(", root_score: {bad}")));
        let out = gtsim(&["check", f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{bad}: {err}");
        assert!(
            err.contains("bad.ron:4:") && err.contains("workload.root_score") && err.contains(bad),
            "{bad}: {err}"
        );
    }
}

/// Inputs that used to be taken without a word (a review of bad inputs, 2026-11-27): each is
/// now an error at its field or line, or a warning, never a value silently dropped.
#[test]
fn inputs_once_dropped_without_a_word_are_refused_or_warned_about() {
    let dir = scratch("dropped");
    let small = small_text();
    // A value listed twice in `vary` would run the same combination twice and count its rows
    // twice in the vary folder's results.csv.
    let twice = write(
        &dir,
        "vary-twice.ron",
        edit(
            &small,
            "    outputs: (",
            "    vary: {\"workload.width\": [4, 5, 4]},\n    outputs: (",
        ),
    );
    let out = gtsim(&["check", twice.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("workload.width: the value 4 is listed twice (values 1 and 3;"),
        "{err}"
    );
    // A varied value that is wrong, or a varied field that does not exist: the error points at
    // the value in the vary section, not into the text with the value set.
    for (vary, value, varied, words) in [
        (
            "    vary: {\"workload.width\": [4,  0]},\n",
            "0]",
            "workload.width=0",
            "workload.width: must be at least 1",
        ),
        (
            "    vary: {\"sweep.nothing\": [4, 5]},\n",
            "4,",
            "sweep.nothing=4",
            "sweep.nothing: `sweep` has no field `nothing` to vary; its fields are",
        ),
    ] {
        let text = edit(&small, "    outputs: (", &format!("{vary}    outputs: ("));
        let line = text
            .lines()
            .position(|l| l.starts_with("    vary:"))
            .unwrap()
            + 1;
        let col = vary.find(value).unwrap() + 1;
        let file = write(&dir, "vary-bad.ron", text);
        let out = gtsim(&["check", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(
            err.contains(&format!(
                "vary-bad.ron:{line}:{col}: with {varied}: {words}"
            )),
            "{err}"
        );
    }
    // The same field set twice, or one inside the other: the first value would be lost (a
    // usage error, like other options that cannot go together).
    let base = write(&dir, "small.ron", &small);
    for (a, b) in [
        ("workload.width=5", "workload.width=6"),
        ("hardware.link.rate=480", "hardware.link=Ideal"),
    ] {
        let out = gtsim(&["check", base.to_str().unwrap(), "--set", a, "--set", b]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("set the same field"), "{err}");
    }
    // A field set inside a varied one (or holding it) would be overwritten by vary.
    let varied = write(
        &dir,
        "varied.ron",
        edit(
            &small,
            "    outputs: (",
            "    vary: {\"hardware.link.rate\": [960, 480]},\n    outputs: (",
        ),
    );
    let out = gtsim(&[
        "check",
        varied.to_str().unwrap(),
        "--set",
        "hardware.link=Sci(rate: 100, rts_cts: true, ports: 8)",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("overlap"), "{err}");
    // hardware.length is the depth of sweep.fanout's trees: with sweep.ptree alone it would
    // change nothing.
    let ptree_only = write(
        &dir,
        "ptree-only.ron",
        edit(
            &edit(
                &small,
                "algorithm: Pmws,",
                "algorithm: TreeSplit(update: false),",
            ),
            "fanout: [1, 2],",
            "ptree: [(depth: 1, width: 2)],",
        )
        .replace(
            "progressive_deepening: true",
            "progressive_deepening: false",
        )
        .replace("length: 1,", "length: 2,"),
    );
    rejected(&ptree_only, 30, 9, &["hardware.length", "sweep.ptree"]);
    // A sequential search on two processors: the processor count is at fault, not the tree's
    // length (which is 1).
    let sequential = write(
        &dir,
        "sequential.ron",
        edit(&small, "algorithm: Pmws,", "algorithm: Ab,").replace(
            "progressive_deepening: true",
            "progressive_deepening: false",
        ),
    );
    let text = std::fs::read_to_string(&sequential).unwrap();
    let (line, col) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("fanout:"))
        .map(|(i, l)| (i + 1, l.len() - l.trim_start().len() + 1))
        .unwrap();
    let err = rejected(
        &sequential,
        line,
        col,
        &["sweep.fanout", "sequential search"],
    );
    assert!(!err.contains("hardware.length"), "{err}");
    // A pool scheme on the paper's trees of length 2: a pool has no levels, and it ran on f²
    // processors while the tables listed f.
    let pool_length = write(
        &dir,
        "pool-length.ron",
        edit(&small, "algorithm: Pmws,", "algorithm: Ybwc(),")
            .replace(
                "progressive_deepening: true",
                "progressive_deepening: false",
            )
            .replace(
                "link: Sci(rate: 960, rts_cts: true, ports: 8),",
                "link: Serial(rate: 960),",
            )
            .replace("length: 1,", "length: 2,\n        network: FullyConnected,"),
    );
    let text = std::fs::read_to_string(&pool_length).unwrap();
    let (line, col) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("length:"))
        .map(|(i, l)| (i + 1, l.len() - l.trim_start().len() + 1))
        .unwrap();
    rejected(
        &pool_length,
        line,
        col,
        &["hardware.length", "pool", "4 processors", "f = 2"],
    );
    // An impossible value set with --set: the error says it came from --set and names the
    // field, without a line and column (the value is on the command line, not in the file).
    let out = gtsim(&["check", base.to_str().unwrap(), "--set", "workload.width=0"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("with --set workload.width=0: workload.width: must be at least 1"),
        "{err}"
    );
    // An error about a field that nothing sets names its line and column in the file, also
    // when a value set (over several lines, or fewer than the file's) or a machine resolved
    // into a hardware section has moved it in the text the loader reads.
    let unknown = edit(&small, "value_spread:", "colour: 3,\n        value_spread:");
    let line = unknown.lines().position(|l| l.contains("colour")).unwrap() + 1;
    let at = format!("bad-field.ron:{line}:9: ");
    let said = "workload.colour: unknown field `colour`";
    let bad = write(&dir, "bad-field.ron", &unknown);
    let costs = "hardware.costs=(k: Ms(8.0), e: Ms(25.65), s: Ms(2.0), interrupt: Ms(1.0))";
    for sets in [
        vec![],
        vec![costs],
        vec!["hardware.costs=(\n  k: Ms(8),\n\n  e: Ms(25.65),\n\n  s: Ms(2),\n\n)"],
        vec![costs, "outputs.timeline=(\n fanout: 2,\n seed: 1,\n)"],
    ] {
        let mut args = vec!["check", bad.to_str().unwrap()];
        for s in &sets {
            args.extend(["--set", s]);
        }
        let err = common::stderr(&gtsim(&args));
        // The place, then the fields set (if any), then what is wrong.
        let with = match sets.len() {
            0 => String::new(),
            _ => format!("with --set {}: ", sets.join(", ")),
        };
        assert!(
            err.contains(&format!("{at}{with}{said}")),
            "{sets:?}: {err}"
        );
    }
    // `gtsim check` of `text` written as `name`: the exit code and what it wrote to stderr.
    let check = |name: &str, text: String, sets: &[&str]| {
        let file = write(&dir, name, text);
        let mut args = vec!["check", file.to_str().unwrap()];
        for s in sets {
            args.extend(["--set", s]);
        }
        let out = gtsim(&args);
        (out.status.code(), common::stderr(&out))
    };
    // An error only one combination of `vary` has, after a varied value over fewer lines than
    // the file's.
    let timeline = edit(
        &small,
        "    outputs: (",
        "    outputs: (\n        timeline: (fanout: 2, seed: 1),",
    );
    let line = timeline
        .lines()
        .position(|l| l.contains("timeline:"))
        .unwrap()
        + 1;
    let moved = edit(
        &timeline,
        "    outputs: (",
        "    vary: {\"hardware.costs\": [\"(k: Ms(8.0),\\n e: Ms(25.65), s: Ms(2.0), interrupt: Ms(1.0))\"], \"sweep.fanout\": [\"[1, 2]\", \"[1, 3]\"]},\n    outputs: (",
    );
    let (_, err) = check("vary-moved.ron", moved, &[]);
    assert!(
        err.contains(&format!("vary-moved.ron:{}:9: with ", line + 1))
            && err.contains("sweep.fanout=[1, 3]: outputs.timeline"),
        "{err}"
    );
    // An error on the line of the `machine` field, which the machine's hardware section
    // replaces in the text the loader reads; with the machine named in the file or by --set.
    let machine = edit(
        &small,
        "    hardware: (",
        "    machine: \"lines-960\", colour: 1,\n    hardware: (",
    );
    let line = machine.lines().position(|l| l.contains("colour")).unwrap() + 1;
    let col = machine
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("colour")
        .unwrap()
        + 1;
    for (set, with) in [
        (&[][..], ""),
        (
            &["machine=parabelle-1985"],
            "with --set machine=\"parabelle-1985\": ",
        ),
    ] {
        let (_, err) = check("machine-line.ron", machine.clone(), set);
        assert!(
            err.contains(&format!(
                "machine-line.ron:{line}:{col}: {with}colour: unknown field `colour`"
            )),
            "{set:?}: {err}"
        );
    }
    // A syntax error inside a value set is the value's, not the file's: no place for --set, its
    // place in the vary section for vary.
    let (_, err) = check("small.ron", small.clone(), &["sweep.fanout=[1 2]"]);
    assert!(
        err.contains(
            "with --set sweep.fanout=[1 2]: sweep.fanout: expected a comma between `1` and `2`"
        ),
        "{err}"
    );
    let varied = edit(
        &small,
        "    outputs: (",
        "    vary: {\"sweep.fanout\": [\"[1, 2]\", \"[1 3]\"]},\n    outputs: (",
    );
    let line = varied.lines().position(|l| l.contains("vary:")).unwrap() + 1;
    let col = varied
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("\"[1 3]")
        .unwrap()
        + 1;
    let (_, err) = check("vary-syntax.ron", varied, &[]);
    assert!(
        err.contains(&format!(
            "vary-syntax.ron:{line}:{col}: with sweep.fanout=[1 3]: sweep.fanout: expected a comma between `1` and `3`"
        )),
        "{err}"
    );
    // Two values side by side at the top of a value set are two values: refused as such (a
    // usage error for --set).
    let (code, err) = check("small.ron", small.clone(), &["workload.width=4 5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("workload.width: the value must be one value as the file would hold it (e.g. 480, Ms(4), [1, 2] or (hosts: Interrupt)), but \"5\" follows \"4\""),
        "{err}"
    );
    // A vary value that is more than one value: refused at its place, before anything is set.
    let varied = edit(
        &small,
        "    outputs: (",
        "    vary: {\"workload.width\": [4, \"5, depth: 2\"]},\n    outputs: (",
    );
    let (code, err) = check("vary-two.ron", varied, &[]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains(&format!(
            "vary-two.ron:{line}:34: workload.width: the value must be one value"
        )),
        "{err}"
    );
    // A field --set adds after a struct's last field and its comment is set, not commented out.
    let commented = edit(
        &small,
        "link: Sci(rate: 960, rts_cts: true, ports: 8),",
        "link: Sci(rate: 960, rts_cts: true, ports: 8) // the lines",
    );
    let (_, err) = check("commented.ron", commented, &["hardware.length=0"]);
    assert!(err.contains("hardware.length: must be at least 1"), "{err}");
    // A positive cost under half a nanosecond would become free.
    let tiny = write(
        &dir,
        "tiny.ron",
        edit(&small, "s: Ms(2.0)", "s: Us(0.0001)"),
    );
    rejected(
        &tiny,
        24,
        13,
        &["hardware.costs.s", "Us(0.0001)", "rounds to 0"],
    );
    // The per-position table is of chess positions.
    let per = write(
        &dir,
        "per-position.ron",
        edit(
            &small,
            "    outputs: (",
            "    outputs: (\n        per_position: true,",
        ),
    );
    rejected(
        &per,
        50,
        9,
        &["outputs.per_position", "needs a Chess workload"],
    );
    // Settings no run uses are warned about (check prints warnings on stderr, exit 0).
    let warned = |text: String, words: &[&str]| {
        let f = write(&dir, "warned.ron", text);
        let out = gtsim(&["check", f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        for w in words {
            assert!(err.contains(w), "{err} does not say {w:?}");
        }
    };
    warned(
        edit(
            &small,
            "link: Sci(rate: 960, rts_cts: true, ports: 8),",
            "link: Sci(rate: 960, rts_cts: true, ports: 8, rate_by_processors: {7: 480}),",
        ),
        &["rate_by_processors: no machine of the sweep has 7 processors"],
    );
    warned(
        edit(
            &small,
            "link: Sci(rate: 960, rts_cts: true, ports: 8),",
            "link: Sci(rate: 960, rts_cts: true, ports: 8),\n        link_below: Ideal,",
        ),
        &["hardware.link_below: the lines below the first level are not used"],
    );
    warned(
        edit(
            &small,
            "fanout: [1, 2],",
            "fanout: [1, 2],\n        algorithm: [PmwsIx(broadcast: true)],",
        ),
        &["search.algorithm: pmws is not run"],
    );
    // So is a workload width, depth or ordering the sweep's lists leave out.
    warned(
        edit(
            &small,
            "fanout: [1, 2],",
            "fanout: [1, 2],\n        width: [3, 5],\n        ordering: [Perfect],",
        ),
        &[
            "workload.width: 4 is not run: sweep.width lists the values to run (3, 5)",
            "workload.ordering: first_best(0.6) is not run: sweep.ordering lists the values to run (perfect)",
        ],
    );
    // Shared memory that no algorithm of the plan reaches.
    warned(
        edit(
            &small,
            "link: Sci(rate: 960, rts_cts: true, ports: 8),",
            "link: Sci(rate: 960, rts_cts: true, ports: 8),\n        memory: (read: Ns(100), write: Ns(100), banks: 8),",
        ),
        &["hardware.memory: the shared memory is not used: no algorithm of the plan reaches it"],
    );
    // A plan of schemes that share memory only: the network, lines, s, interrupt and read
    // policies change nothing (the results were identical on a bus of 10 bytes/s); said at the
    // read policies, the one of those a pool need not give. NUMA nodes larger than every
    // machine make no access remote.
    let shared = |numa: &str| {
        edit(
            &edit(&small, "algorithm: Pmws,", "algorithm: Dts(),"),
            "link: Sci(rate: 960, rts_cts: true, ports: 8),",
            &format!("link: Serial(rate: 960),\n        network: FullyConnected,\n        reads: (hosts: Interrupt, boards: Interrupt),\n        memory: (read: Ns(100), write: Ns(100), banks: 8{numa}),"),
        )
        .replace(
            "progressive_deepening: true",
            "progressive_deepening: false",
        )
    };
    let quiet = |text: String, words: &[&str]| {
        let f = write(&dir, "quiet.ron", text);
        let out = gtsim(&["check", f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        for w in words {
            assert!(!err.contains(w), "{err} says {w:?}");
        }
    };
    let no_messages = "hardware.reads: not used: no algorithm of the plan sends messages";
    let no_remote = "hardware.memory.numa.per_node: 2 processors per node, and no machine of the sweep has more than 2";
    warned(
        shared(", numa: (per_node: 2, remote_factor: 3.0)"),
        &[no_messages, no_remote],
    );
    // Said of neither with a scheme that sends messages beside, or nodes smaller than a machine.
    quiet(
        shared(", numa: (per_node: 1, remote_factor: 3.0)").replace(
            "fanout: [1, 2],",
            "fanout: [1, 2],\n        algorithm: [Dts(), Ybwc()],",
        ),
        &[no_messages, "per_node"],
    );
    // Nor without read policies given: a plan of such schemes must give a network and lines,
    // and is not warned about them.
    quiet(
        shared("").replace(
            "        reads: (hosts: Interrupt, boards: Interrupt),\n",
            "",
        ),
        &["sends messages", "hardware.network", "hardware.link"],
    );
    // A sweep of more tree configurations than a chart has panels draws no overheads chart.
    warned(
        edit(
            &small,
            "fanout: [1, 2],",
            "fanout: [1, 2],\n        width: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],",
        ),
        &["outputs.plots: overheads.png and speedup.png are not drawn: the sweep's 13 pairs of algorithm and tree configuration"],
    );
    let f = write(
        &dir,
        "listed.ron",
        edit(
            &small,
            "fanout: [1, 2],",
            "fanout: [1, 2],\n        depth: [2, 3],",
        ),
    );
    let out = gtsim(&["check", f.to_str().unwrap()]);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("is not run"),
        "a workload value the sweep lists runs: {out:?}"
    );
}

/// The line of `text` (1-based) holding `needle`, and the column (1-based, in characters) of
/// `at` after it on that line.
fn place(text: &str, needle: &str, at: &str) -> (usize, usize) {
    let (i, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(needle))
        .unwrap_or_else(|| panic!("no line says {needle:?}"));
    let from = line.find(needle).unwrap();
    let byte = from + line[from..].find(at).unwrap();
    (i + 1, line[..byte].chars().count() + 1)
}

#[test]
fn a_rate_by_processors_key_given_twice_or_zero_is_refused_at_the_key() {
    let dir = scratch("rates");
    let small = small_text();
    let sci = "link: Sci(rate: 960, rts_cts: true, ports: 8),";
    // Two rates for machines of 2 processors: the map kept the last one without a word.
    let rates = "rate_by_processors: {2: 480, 4: 120, 2: 240}";
    let text = edit(
        &small,
        sci,
        &format!("link: Sci(rate: 960, rts_cts: true, ports: 8, {rates}),"),
    );
    let (line, col) = place(&text, rates, "2: 240");
    let f = write(&dir, "twice.ron", &text);
    rejected(
        &f,
        line,
        col,
        &["hardware.link.rate_by_processors: the processor count 2 is given twice"],
    );
    // The same below the root's lines.
    let rates = "rate_by_processors: {3: 100, 3: 100}";
    let text = edit(
        &small,
        sci,
        &format!("{sci}\n        link_below: Serial(rate: 960, {rates}),"),
    );
    let (line, col) = place(&text, rates, "3: 100}");
    let f = write(&dir, "twice-below.ron", &text);
    rejected(
        &f,
        line,
        col,
        &["hardware.link_below.rate_by_processors: the processor count 3 is given twice"],
    );
    // No machine has 0 processors (this was only a warning that no machine of the sweep has).
    let rates = "rate_by_processors: {2: 480, 0: 240}";
    let text = edit(
        &small,
        sci,
        &format!("link: Sci(rate: 960, rts_cts: true, ports: 8, {rates}),"),
    );
    let (line, col) = place(&text, rates, "0: 240");
    let f = write(&dir, "zero.ron", &text);
    rejected(
        &f,
        line,
        col,
        &["hardware.link.rate_by_processors: a processor count must be at least 1, got 0"],
    );
}

#[test]
fn a_poll_interval_past_the_engines_count_is_refused_at_its_field() {
    let dir = scratch("poll");
    let small = small_text();
    let sci = "link: Sci(rate: 960, rts_cts: true, ports: 8),";
    // Was clamped to 4294967295 without a word.
    for (name, every, words) in [
        (
            "huge.ron",
            "18446744073709551615",
            "hardware.reads.boards.every: the nodes between two looks at the line are at most 4294967295 (the engine counts them in 32 bits), got 18446744073709551615",
        ),
        (
            "past.ron",
            "4294967296",
            "hardware.reads.boards.every: the nodes between two looks at the line are at most 4294967295",
        ),
        (
            "zero.ron",
            "0",
            "hardware.reads.boards.every: must be at least 1, got 0",
        ),
    ] {
        let reads = format!("reads: (hosts: Interrupt, boards: Poll(every: {every})),");
        let text = edit(&small, sci, &format!("{sci}\n        {reads}"));
        let (line, col) = place(&text, &reads, every);
        let f = write(&dir, name, &text);
        rejected(&f, line, col, &[words]);
    }
    // The largest is taken as written.
    let text = edit(
        &small,
        sci,
        &format!("{sci}\n        reads: (hosts: Interrupt, boards: Poll(every: 4294967295)),"),
    );
    let plan = scenarios::parse(&text, Path::new("largest.ron")).unwrap();
    assert_eq!(
        plan.reads.boards,
        sim_hw::ReadPolicy::Poll { every: u32::MAX }
    );
}

/// A field given twice is refused at the second, saying so, whichever field it is: `machine`
/// (which was left in the text when the first was resolved and read as an unknown field), the
/// other fields of the scenario (the parser's "duplicate field … in `Scenario`") and a field
/// inside a section; with `--set machine=…` the place is still the file's, though the value set
/// is longer than the one written.
#[test]
fn a_field_given_twice_is_refused_at_the_second() {
    let dir = scratch("given-twice");
    let fields = [
        ("name", "\"t\""),
        ("description", "\"d\""),
        ("machine", "\"lines-960\""),
        ("hardware", "(length: 1)"),
        (
            "workload",
            "Synthetic(width: 4, depth: 3, ordering: Random)",
        ),
        ("search", "(algorithm: Pmws)"),
        (
            "sweep",
            "(fanout: [1, 2], seeds: Range(start: 1, count: 2))",
        ),
        ("outputs", "(plots: false)"),
    ];
    let lines: Vec<String> = fields
        .iter()
        .map(|(f, v)| format!("    {f}: {v},"))
        .collect();
    let text = |lines: &[String]| format!("(\n{}\n)\n", lines.join("\n"));
    let f = write(&dir, "once.ron", text(&lines));
    assert!(gtsim(&["check", f.to_str().unwrap()]).status.success());
    for (i, (field, _)) in fields.iter().enumerate() {
        // The copy right after the first: line i + 3 of the file, at its name.
        let mut twice = lines.clone();
        twice.insert(i + 1, lines[i].clone());
        let f = write(&dir, &format!("{field}.ron"), text(&twice));
        let e = rejected(
            &f,
            i + 3,
            5,
            &[&format!("`{field}` is given twice: give each field once")],
        );
        assert!(!e.contains("unknown field"), "{e}");
    }
    // Inside a section: named by its path, at the second.
    let mut nested = lines.clone();
    nested[5] = "    search: (algorithm: Pmws, algorithm: Pmws),".into();
    let f = write(&dir, "nested.ron", text(&nested));
    let (line, col) = place(&text(&nested), "search:", "algorithm: Pmws),");
    let e = rejected(
        &f,
        line,
        col,
        &["search: `algorithm` is given twice in this section: give each field once"],
    );
    assert!(!e.contains("an algorithm is written as"), "{e}");
    // Two on one line, the first set to a longer name with --set: the second's column is the
    // file's.
    let mut one_line = lines.clone();
    one_line[2] = "    machine: \"lines-960\", machine: \"lines-960\",".into();
    let src = text(&one_line);
    let f = write(&dir, "one-line.ron", &src);
    let (line, col) = place(&src, "machine:", "machine: \"lines-960\",");
    let (line, col) = (line, col + "machine: \"lines-960\", ".len());
    let out = gtsim(&[
        "check",
        f.to_str().unwrap(),
        "--set",
        "machine=hypercube-10mbit",
    ]);
    let e = common::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{e}");
    assert!(
        e.contains(&format!(
            "{}:{line}:{col}: with --set machine=\"hypercube-10mbit\": `machine` is given twice",
            f.display()
        )),
        "{e}"
    );
}

/// A number written wrong is named as one, with its field and the text as written, where the
/// parser said "Expected comma" (after the number it could read: `5x`) or "Expected float" (at
/// one it could not: `0.6.1`), at the number; a value set with `--set` the same, without a
/// place. Two values where one goes (`depth: 3 4`) are not a number written wrong.
#[test]
fn a_number_written_wrong_is_named_with_its_field() {
    let dir = scratch("numbers");
    let small = small_text();
    for (name, from, to, number, field) in [
        ("letter", "depth: 3", "depth: 3x", "3x", "workload.depth"),
        ("no-space", "depth: 3", "depth:3x", "3x", "workload.depth"),
        (
            "two-points",
            "p: 0.6",
            "p: 0.6.1",
            "0.6.1",
            "workload.ordering.p",
        ),
        (
            "percent",
            "p: 0.6",
            "p: 0.06%",
            "0.06%",
            "workload.ordering.p",
        ),
        (
            "exponent",
            "p: 0.6",
            "p: 0.6e",
            "0.6e",
            "workload.ordering.p",
        ),
        ("sign", "p: 0.6", "p: -.5x", "-.5x", "workload.ordering.p"),
        ("minus", "depth: 3", "depth: 5-3", "5-3", "workload.depth"),
        ("count", "count: 2", "count: 2x", "2x", "sweep.seeds.count"),
        ("digit", "count: 2", "count: 2e", "2e", "sweep.seeds.count"),
        (
            "item",
            "fanout: [1, 2]",
            "fanout: [1, 2x]",
            "2x",
            "sweep.fanout",
        ),
        // The parser reads `960b` as the float 960: "found the float 960" was the message.
        (
            "rate",
            "rate: 960",
            "rate: 960bps",
            "960bps",
            "hardware.link.rate",
        ),
        (
            "time",
            "k: Ms(8.0)",
            "k: Ms(8.0.0)",
            "8.0.0",
            "hardware.costs.k",
        ),
    ] {
        let text = edit(&small, from, to);
        let (line, col) = place(&text, to, number);
        let f = write(&dir, &format!("{name}.ron"), &text);
        let e = rejected(
            &f,
            line,
            col,
            &[&format!("{field}: expected a number, found `{number}`")],
        );
        for parser in ["xpected comma", "xpected float", "xpected integer"] {
            assert!(!e.contains(parser), "{name}: {e}");
        }
    }
    // With --set: the value's own words, no place in the file.
    let f = write(&dir, "small.ron", &small);
    for value in ["4x", "0.5.1"] {
        let out = gtsim(&[
            "check",
            f.to_str().unwrap(),
            "--set",
            &format!("workload.width={value}"),
        ]);
        let e = common::stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{e}");
        assert!(
            e.contains(&format!(
                "with --set workload.width={value}: workload.width: expected a number, found `{value}`"
            )),
            "{e}"
        );
    }
    // Two values are not a number written wrong (see the next test).
    let f = write(&dir, "two.ron", edit(&small, "depth: 3", "depth: 3 4"));
    let (line, col) = place(&edit(&small, "depth: 3", "depth: 3 4"), "depth: 3 4", "4");
    let e = rejected(
        &f,
        line,
        col,
        &["workload: expected a comma between `3` and `4`"],
    );
    assert!(!e.contains("expected a number"), "{e}");
}

/// The parser's "Expected comma" names the two values side by side, or the line above that
/// ends without its comma (past its comment, and past lines that hold only one), and is then
/// placed where the comma goes.
#[test]
fn a_missing_comma_names_what_it_should_follow() {
    let dir = scratch("comma");
    let small = small_text();
    // (name, from, to, the error's place: the line holding `needle`, at `at` on it or, with
    // `after`, just past it; the words)
    for (name, from, to, (needle, at, after), words) in [
        (
            "values",
            "depth: 3",
            "depth: 3 4",
            ("depth: 3 4", "4", false),
            "workload: expected a comma between `3` and `4`: values and fields are separated by commas",
        ),
        (
            "item",
            "fanout: [1, 2]",
            "fanout: [1 2]",
            ("fanout: [1 2]", "2", false),
            "sweep.fanout: expected a comma between `1` and `2`",
        ),
        (
            "words",
            "algorithm: Pmws,",
            "algorithm: Pmws Ybwc,",
            ("Pmws Ybwc", "Ybwc", false),
            "search: expected a comma between `Pmws` and `Ybwc`",
        ),
        (
            "strings",
            "name: \"pmws-uniform\",",
            "name: \"pmws-uniform\" \"a b\",",
            ("\"a b\"", "\"a b\"", false),
            "expected a comma between `\"pmws-uniform\"` and `\"a b\"`",
        ),
        (
            "field",
            "k: Ms(8.0),",
            "k: Ms(8.0) e: Ms(3),",
            ("e: Ms(3)", "e", false),
            "hardware.costs: expected a comma between `Ms(8.0)` and `e`",
        ),
        // The line above ends without one: placed at its end.
        (
            "line",
            "s: Ms(2.0),",
            "s: Ms(2.0)",
            ("s: Ms(2.0)", "s: Ms(2.0)", true),
            "hardware.costs: expected a comma after `s: Ms(2.0)`, before `interrupt`",
        ),
        // Before its comment, past the comment lines below it.
        (
            "comment",
            "clock_hz: 10000000,",
            "clock_hz: 10000000",
            ("clock_hz: 10000000", "clock_hz: 10000000", true),
            "hardware: expected a comma after `clock_hz: 10000000`, before `costs`",
        ),
        // A `//` inside a string is no comment.
        (
            "string",
            "description: \"pmws, w = 34, d = 5, first move best with p = 0.6, 24 trees, f = 1..4, SCI at 960 bytes/s\",",
            "description: \"see http://example.org\" // the paper",
            (
                "description: \"see http://example.org\"",
                "description: \"see http://example.org\"",
                true,
            ),
            "expected a comma after `description: \"see http://example.org\"`, before `hardware`",
        ),
    ] {
        let text = edit(&small, from, to);
        let (line, col) = place(&text, needle, at);
        let col = if after { col + at.chars().count() } else { col };
        let f = write(&dir, &format!("{name}.ron"), &text);
        let e = rejected(&f, line, col, &[words]);
        assert!(!e.contains("xpected comma"), "{name}: {e}");
    }
    // With a machine set, whose hardware section the loader writes into the text it reads:
    // the place is still the file's.
    let text = edit(&small, "depth: 3,", "depth: 3");
    let (line, col) = place(&text, "depth: 3", "depth: 3");
    let f = write(&dir, "machine.ron", &text);
    let out = gtsim(&[
        "check",
        f.to_str().unwrap(),
        "--set",
        "machine=\"parabelle-1985\"",
    ]);
    let e = common::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{e}");
    let at = format!(
        "{}:{line}:{}: with --set machine=\"parabelle-1985\": workload: expected a comma after `depth: 3`, before `ordering`",
        f.display(),
        col + "depth: 3".len()
    );
    assert!(e.contains(&at), "{e}");
    // With --set: the value's own words.
    let f = write(&dir, "small.ron", &small);
    let out = gtsim(&["check", f.to_str().unwrap(), "--set", "sweep.fanout=[1 2]"]);
    let e = common::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{e}");
    assert!(
        e.contains(
            "with --set sweep.fanout=[1 2]: sweep.fanout: expected a comma between `1` and `2`"
        ),
        "{e}"
    );
}

/// Two outputs never claim one file: outputs.minimal_chart may not be a chart outputs.schemes
/// draws, nor a name kept for gtsim plot and gtsim compare.
#[test]
fn minimal_chart_takes_no_file_another_output_writes() {
    let dir = scratch("minimal-chart");
    let text = |outputs: &str| {
        format!(
            r#"(
    name: "seq",
    hardware: (costs: (k: Ns(3), e: Ns(11)), link: Ideal),
    workload: Synthetic(width: 3, depth: 3, ordering: Random, horizon_noise: 0),
    search: (algorithm: Ab),
    sweep: (fanout: [1], seeds: Range(start: 1, count: 2)),
    outputs: ({outputs}),
)"#
        )
    };
    let parse = |outputs: &str| scenarios::parse(&text(outputs), &dir.join("seq.ron"));
    assert!(parse(r#"minimal_chart: "mine.png""#).is_ok());
    for (outputs, said) in [
        (
            r#"minimal_chart: "mine.png", schemes: (at: 1, name: "mine")"#,
            "is a chart outputs.schemes draws (mine.png and mine-overheads.png)",
        ),
        (
            r#"minimal_chart: "schemes-overheads.png", schemes: (at: 1)"#,
            "not one of",
        ),
        (
            r#"minimal_chart: "plot-x.png""#,
            "names kept for gtsim plot",
        ),
        (
            r#"minimal_chart: "compare.png""#,
            "names kept for gtsim plot",
        ),
    ] {
        let e = parse(outputs).unwrap_err().to_string();
        assert!(
            e.contains("outputs.minimal_chart") && e.contains(said),
            "{outputs}: {e}"
        );
    }
}

#[test]
fn the_minimal_chart_not_drawn_is_a_warning_at_its_field() {
    // A plan with parallel runs draws no minimal-tree chart: the warning is placed at the field,
    // as errors are (it named the file only); a value given with --set has no place in the file.
    let dir = scratch("minimal-chart-warning");
    let text = edit(
        &small_text(),
        "        plots: true,",
        "        plots: true,\n        minimal_chart: \"mine.png\",",
    );
    let f = write(&dir, "parallel.ron", &text);
    let (line, col) = place(&text, "minimal_chart", "minimal_chart");
    let said = "outputs.minimal_chart: the chart is drawn only for plans of sequential searches (every processor tree a uniprocessor); this plan has others, so it is not drawn";
    let out = gtsim(&["check", f.to_str().unwrap()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains(&format!(
            "gtsim: warning: {}:{line}:{col}: {said}\n",
            f.display()
        )),
        "{}",
        common::stderr(&out)
    );
    let small = write(&dir, "small.ron", small_text());
    let out = gtsim(&[
        "check",
        small.to_str().unwrap(),
        "--set",
        "outputs.minimal_chart=\"mine.png\"",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains(&format!("gtsim: warning: {}: {said}\n", small.display())),
        "{}",
        common::stderr(&out)
    );
    // Nor has a value set with --set over the file's own: the warning is about the value set,
    // not at the file's minimal_chart (whose value is not the one loaded).
    let out = gtsim(&[
        "check",
        f.to_str().unwrap(),
        "--set",
        "outputs.minimal_chart=\"other.png\"",
    ]);
    let e = common::stderr(&out);
    assert!(out.status.success(), "{e}");
    assert!(
        e.contains(&format!("gtsim: warning: {}: {said}\n", f.display())),
        "{e}"
    );
}

/// A warning about a varied field is at the combination's value in the vary section, as an
/// error about it is, not at the file's own value of the field (which vary replaces).
#[test]
fn a_warning_about_a_varied_field_is_at_its_value_in_the_vary_section() {
    let dir = scratch("varied-warning");
    let f = write(
        &dir,
        "varied.ron",
        r#"(
    name: "varied",
    hardware: (costs: (k: Ns(3), e: Ns(11)), link: Ideal),
    workload: Synthetic(width: 3, depth: 3, ordering: Random, horizon_noise: 0),
    search: (algorithm: Pmws),
    sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 2)),
    outputs: (minimal_chart: "mine.png"),
    vary: {"outputs.minimal_chart": ["\"a.png\"", "\"b.png\""]},
)"#,
    );
    let variants = scenarios::load::load_variants(&f, &[]).unwrap();
    let said = "outputs.minimal_chart: the chart is drawn only for plans of sequential searches (every processor tree a uniprocessor); this plan has others, so it is not drawn";
    let warnings: Vec<&[String]> = variants.iter().map(|v| &v.plan.warnings[..]).collect();
    assert_eq!(
        warnings,
        [
            [format!("{}:8:38: {said}", f.display())],
            [format!("{}:8:51: {said}", f.display())],
        ]
    );
}

#[test]
fn a_warning_about_a_field_is_placed_at_the_field() {
    // Settings no run uses, and outputs not drawn, are said at the field, as errors are (they
    // named the file only); a field left out (its default) has no place, and is named alone.
    let dir = scratch("warnings-at");
    let link = "link: Sci(rate: 960, rts_cts: true, ports: 8),";
    let fanout = "fanout: [1, 2],";
    let plots = "        plots: true,";
    let widths = "fanout: [1, 2],\n        width: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],";
    // (the edits, the text at the field's place, what is said there)
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: [Case; 8] = [
        (
            &[(link, "link: Sci(rate: 960, rts_cts: true, ports: 8),\n        memory: (read: Ns(100), write: Ns(100), banks: 8),")],
            "memory:",
            "hardware.memory: the shared memory is not used: no algorithm of the plan reaches it",
        ),
        (
            &[(link, "link: Sci(rate: 960, rts_cts: true, ports: 8),\n        link_below: Ideal,")],
            "link_below:",
            "hardware.link_below: the lines below the first level are not used",
        ),
        (
            &[(link, "link: Sci(rate: 960, rts_cts: true, ports: 8, rate_by_processors: {7: 480}),")],
            "rate_by_processors:",
            "hardware.link.rate_by_processors: no machine of the sweep has 7 processors (they have 1, 2): that rate is not used",
        ),
        (
            &[(fanout, "fanout: [1, 2],\n        algorithm: [PmwsIx(broadcast: true)],")],
            "algorithm: Pmws",
            "search.algorithm: pmws is not run: sweep.algorithm lists the algorithms to run",
        ),
        (
            &[(fanout, "fanout: [1, 2],\n        width: [3, 5],")],
            "width: 4,",
            "workload.width: 4 is not run: sweep.width lists the values to run (3, 5)",
        ),
        (
            &[(fanout, "fanout: [1, 2],\n        horizon_noise: [0, 10],")],
            "horizon_noise: 50",
            "workload.horizon_noise: 50 is not used: sweep.horizon_noise lists the noises to run (0 and 10)",
        ),
        (
            &[(fanout, widths)],
            "plots:",
            "outputs.plots: overheads.png and speedup.png are not drawn: the sweep's 13 pairs",
        ),
        (
            &[
                (plots, "        plots: true,\n        schemes: (at: 2),"),
                (fanout, "fanout: [1, 2],\n        depth: [2, 3],"),
            ],
            "schemes:",
            "outputs.schemes: schemes.png and schemes-overheads.png draw the first of the sweep's 2 tree configurations",
        ),
    ];
    for (k, (edits, field, said)) in cases.into_iter().enumerate() {
        let text = edits
            .iter()
            .fold(small_text(), |text, (from, to)| edit(&text, from, to));
        let f = write(&dir, &format!("w{k}.ron"), &text);
        let (line, col) = place(&text, field, field.split(':').next().unwrap());
        let out = gtsim(&["check", f.to_str().unwrap()]);
        let err = common::stderr(&out);
        assert!(out.status.success(), "{err}");
        let at = format!("gtsim: warning: {}:{line}:{col}: {said}", f.display());
        assert!(err.contains(&at), "{err} does not say {at:?}");
    }
    // outputs.plots left out (true by default): the file and the field.
    let text = edit(
        &edit(&small_text(), "        plots: true,\n", ""),
        fanout,
        widths,
    );
    let f = write(&dir, "default.ron", &text);
    let out = gtsim(&["check", f.to_str().unwrap()]);
    let err = common::stderr(&out);
    assert!(out.status.success(), "{err}");
    let at = format!(
        "gtsim: warning: {}: outputs.plots: overheads.png and speedup.png are not drawn",
        f.display()
    );
    assert!(err.contains(&at), "{err} does not say {at:?}");
}
