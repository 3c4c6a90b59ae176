//! What the `gtsim` end-to-end tests share: running the binary, a scratch folder, its stderr.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `gtsim` binary with `args`.
pub fn gtsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .args(args)
        .output()
        .expect("gtsim runs")
}

/// An empty folder of its own for the test `name` of the file `group`.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gtsim-{group}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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
