//! How `--set PATH=VALUE` (and a `vary` value, set the same way) says what is wrong with a
//! field path or a value written for the command line: a field the section does not have is
//! said plainly, with the section's fields, and a string without its quotes is shown quoted.

use std::path::{Path, PathBuf};

mod common;
use common::gtsim;

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// `gtsim check pmws-uniform.ron --set SET`: its exit code and stderr.
fn check_set(set: &str) -> (Option<i32>, String) {
    let file = shipped("pmws-uniform.ron");
    let out = gtsim(&["check", file.to_str().unwrap(), "--set", set]);
    assert!(
        out.status.success() || out.stdout.is_empty(),
        "{set}: a refused scenario printed to stdout"
    );
    (out.status.code(), common::stderr(&out))
}

/// pmws-uniform.ron, without its reference table (a scratch folder has none), with `vary` (the
/// section's body) added.
fn with_vary(vary: &str) -> String {
    let text = std::fs::read_to_string(shipped("pmws-uniform.ron")).unwrap();
    let reference = "reference: \"reference/parabelle-table2-no-tt.csv\",";
    assert!(text.contains(reference));
    text.replacen(reference, "", 1).replacen(
        "    outputs: (",
        &format!("    vary: {{{vary}}},\n    outputs: ("),
        1,
    )
}

/// A path naming a field its section does not have (or a section the scenario does not have,
/// on the way to a field): the error says the section has no such field and lists the fields
/// it has, with the one probably meant when there is one; not a bracket left open in the file,
/// which cannot put a field named on the command line in the wrong section.
#[test]
fn a_field_the_section_lacks_is_said_plainly_with_its_fields() {
    // (set, the error's field, the section as named, the field, one of its fields, meant)
    let cases = [
        ("zz=1", "zz", "a scenario", "zz", "`hardware`", None),
        (
            "hardware.zz=1",
            "hardware.zz",
            "`hardware`",
            "zz",
            "`clock_hz`",
            None,
        ),
        (
            "hardware.zz.rate=1",
            "hardware.zz",
            "`hardware`",
            "zz",
            "`link`",
            None,
        ),
        (
            "hardware.link.zz=1",
            "hardware.link.zz",
            "`hardware.link`",
            "zz",
            "`ports`",
            None,
        ),
        (
            "outputs.timeline.zz=1",
            "outputs.timeline.zz",
            "`outputs.timeline`",
            "zz",
            "`fanout`",
            None,
        ),
        (
            "hardware.costs.kk=Ms(1)",
            "hardware.costs.kk",
            "`hardware.costs`",
            "kk",
            "`probe`",
            Some("k"),
        ),
        (
            "sweep.fanut=[1]",
            "sweep.fanut",
            "`sweep`",
            "fanut",
            "`seeds`",
            Some("fanout"),
        ),
    ];
    for (set, field, section, name, listed, meant) in cases {
        let (code, err) = check_set(set);
        assert_eq!(code, Some(3), "{set}: {err}");
        let meant = meant.map_or(String::new(), |m| format!(" (is `{m}` meant?)"));
        let says = format!(
            "with --set {set}: {field}: {section} has no field `{name}` to set{meant}; its fields are "
        );
        assert!(err.contains(&says), "{set}: {says:?} in {err}");
        assert!(err.contains(listed), "{set}: {listed} in {err}");
        assert!(!err.contains("bracket"), "{set}: {err}");
        assert!(!err.contains("unknown field"), "{set}: {err}");
    }
    // The same in the vary section, at the value.
    let text = with_vary("\"hardware.zz\": [1, 2]");
    let dir = common::scratch("set", "vary-field");
    let file = dir.join("vary-field.ron");
    std::fs::write(&file, &text).unwrap();
    let line = text.lines().position(|l| l.contains("vary: {")).unwrap() + 1;
    let col = text.lines().nth(line - 1).unwrap().find("1,").unwrap() + 1;
    let out = gtsim(&["check", file.to_str().unwrap()]);
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let says = format!(
        "vary-field.ron:{line}:{col}: with hardware.zz=1: hardware.zz: `hardware` has no field `zz` to vary; its fields are "
    );
    assert!(err.contains(&says), "{says:?} in {err}");
    assert!(!err.contains("bracket"), "{err}");
}

/// A string field set to a bare word (or anything else unquoted): the error says that a string
/// is written in double quotes, and how to pass it on the command line or in the vary section.
#[test]
fn a_string_set_without_quotes_says_how_to_quote_it() {
    for (field, value) in [
        ("name", "x"),
        ("name", "foo-bar"),
        ("name", "123"),
        ("description", "hello world"),
        ("outputs.reference", "x.csv"),
    ] {
        let set = format!("{field}={value}");
        let (code, err) = check_set(&set);
        assert_eq!(code, Some(3), "{set}: {err}");
        let says = format!(
            "with --set {set}: {field}: expected string; a string is written in double quotes, which the shell must pass on: --set '{field}=\"{value}\"'"
        );
        assert!(err.contains(&says), "{says:?} in {err}");
        // Set as the hint says, it is taken (the name is checked as any other).
        let quoted = format!("{field}=\"{value}\"");
        if field != "outputs.reference" {
            let (code, err) = check_set(&quoted);
            assert_eq!(code, Some(0), "{quoted}: {err}");
        }
    }
    // A string inside the value set: the rule, without a value to copy.
    let (code, err) = check_set("sweep.positions=[BK.01]");
    assert_eq!(code, Some(3), "{err}");
    assert!(
        err.contains("sweep.positions[0]: expected string; a string is written in double quotes"),
        "{err}"
    );
    // In the vary section, a string's text is itself in a string.
    let text = with_vary("\"description\": [\"hello\", \"\\\"b\\\"\"]");
    let dir = common::scratch("set", "vary-string");
    let file = dir.join("vary-string.ron");
    std::fs::write(&file, &text).unwrap();
    let out = gtsim(&["check", file.to_str().unwrap()]);
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("description: expected string; a string is written in double quotes, and a vary value holds its text in a string of its own: \"\\\"hello\\\"\""),
        "{err}"
    );
}

/// A string never closed, in a value set or in the file beside a field set: an error that says
/// so (for the file, its own error at its line), never a panic.
#[test]
fn a_string_never_closed_is_an_error_not_a_panic() {
    for set in ["name=\"x", "name=a\"b", "hardware.costs=(k: Ms(1), e: \"x)"] {
        let (code, err) = check_set(set);
        assert_eq!(code, Some(2), "{set}: {err}");
        assert!(err.contains("is never closed"), "{set}: {err}");
    }
    let dir = common::scratch("set", "unclosed");
    let text = "(\n    name: \"x,\n    description: \"y\",\n)\n";
    let file = dir.join("unclosed.ron");
    std::fs::write(&file, text).unwrap();
    let plain = common::stderr(&gtsim(&["check", file.to_str().unwrap()]));
    assert!(plain.contains("unclosed.ron:2:"), "{plain}");
    for set in ["name=\"y\"", "description=\"z\"", "sweep.fanout=[1]"] {
        let out = gtsim(&["check", file.to_str().unwrap(), "--set", set]);
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{set}: {err}");
        assert_eq!(err, plain, "{set}");
    }
}
