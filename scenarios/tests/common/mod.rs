//! What the `gtsim` end-to-end tests share: running the binary, a scratch folder, its stderr.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `gtsim` binary with `args`.
pub fn gtsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .args(args)
        .output()
        .expect("gtsim runs")
}

/// An empty folder of its own for the test `name` of the file `group`, removed when the test
/// is done with it (kept when the test fails, to look at).
pub fn scratch(group: &str, name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("gtsim-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// A scratch folder (see [`scratch`]): a path, removed with everything in it when dropped,
/// unless the thread is panicking (a failed assertion).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `gtsim check FILE`, then `gtsim run FILE --out OUT`: each command's arguments (to name in
/// an assertion) and what it did. A test of a refused input asserts the same of both.
pub fn check_and_run(file: &Path, out: &Path) -> [(Vec<String>, Output); 2] {
    let file = file.to_str().expect("a UTF-8 path").to_string();
    let out = out.to_str().expect("a UTF-8 path").to_string();
    [
        vec!["check".to_string(), file.clone()],
        vec!["run".to_string(), file, "--out".to_string(), out],
    ]
    .map(|args| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = gtsim(&refs);
        (args, output)
    })
}

/// What the command wrote to stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The rows of a results.csv as maps from column to cell.
pub fn csv_rows(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

/// Writes `text` as a scenario in a scratch folder of the test `name` of the file `group` and
/// runs it quietly: whether gtsim succeeded, its stderr, and the results.csv it wrote (if any).
pub fn run_text(group: &str, name: &str, text: &str) -> (bool, String, Option<String>) {
    let dir = scratch(group, name);
    let file = dir.join("s.ron");
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let o = gtsim(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let csv = std::fs::read_to_string(out.join("results.csv")).ok();
    (o.status.success(), stderr(&o), csv)
}

/// Copies the shipped reference table `csv` (`parabelle-table2-no-tt.csv`) into `dir/reference/`,
/// where a copy of a shipped scenario in `dir` looks for it.
pub fn copy_reference(dir: &std::path::Path, csv: &str) {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference")
        .join(csv);
    std::fs::create_dir_all(dir.join("reference")).unwrap();
    std::fs::copy(shipped, dir.join("reference").join(csv)).unwrap();
}

/// A part file's or shard's text (`gtsim_part` or `gtsim_shard` header, then run lines) with
/// every check computed again as the layout defines it: the first 16 hex digits of the SHA-256
/// of the header's fingerprint (none for the header's own check, which a part file's header
/// lacks), a newline and the line without its check. For tests that edit a file on purpose, to
/// reach the checks behind this one.
pub fn resealed(text: &str) -> String {
    let seal = |line: &str, fingerprint: &str| -> String {
        let at = line
            .rfind(",\"check\":\"")
            .expect("a line ends in its check");
        let bare = format!("{}}}", &line[..at]);
        let mut check =
            scenarios::provenance::sha256_hex(format!("{fingerprint}\n{bare}").as_bytes());
        check.truncate(16);
        format!("{},\"check\":\"{check}\"}}\n", &line[..at])
    };
    let mut lines = text.lines();
    let header = lines.next().expect("a header line");
    let fingerprint = string_field(header, "fingerprint");
    let mut out = if header.contains(",\"check\":\"") {
        seal(header, "")
    } else {
        format!("{header}\n")
    };
    for line in lines {
        out.push_str(&seal(line, fingerprint));
    }
    out
}

/// The value of the string field `name` in a line of JSON that has one (without escapes).
pub fn string_field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split(&format!("\"{name}\":\""))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no field {name} in {line}"))
}
