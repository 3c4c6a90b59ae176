//! Where a result came from, for report.md, results.json and the output folder's marker:
//! gtsim's version and git commit, the scenario file and its SHA-256, the command line, the seeds.

use crate::load::Plan;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::Path;

/// gtsim's version (the workspace version).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit gtsim was built from, or "unknown" (set by scenarios/build.rs).
pub const GIT_COMMIT: &str = env!("GTSIM_GIT_COMMIT");

/// Whether the checkout gtsim was built from had changes to tracked files not committed:
/// `true`, `false` or `unknown` (set by scenarios/build.rs).
pub const GIT_DIRTY: &str = env!("GTSIM_GIT_DIRTY");

/// Whether the build had uncommitted changes: Some(true) or Some(false), None when unknown.
pub fn git_modified() -> Option<bool> {
    match GIT_DIRTY {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The compiler gtsim was built with (`rustc --version`), or "unknown" (set by
/// scenarios/build.rs).
pub const RUSTC: &str = env!("GTSIM_RUSTC");

/// The identity of the build that runs, as far as its results go, for the shards and part files
/// it writes and reads back: its version, commit and compiler when it was built from a checkout
/// without uncommitted changes (every build of one commit by one compiler computes the same
/// results, so shards made on several machines merge); otherwise (changes, or no commit known)
/// also the SHA-256 of the executable's bytes, so that a copy of it is the same build and a
/// rebuild with other changes is another (an executable it cannot read makes an identity that
/// matches no other process's). Computed once per process.
pub fn build_identity() -> &'static str {
    static IDENTITY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        let described = format!("{}, built by {RUSTC}", build_description());
        if git_modified() == Some(false) && GIT_COMMIT != "unknown" {
            return described;
        }
        match std::env::current_exe().and_then(std::fs::read) {
            Ok(bytes) => format!("{described}; executable SHA-256 {}", sha256_hex(&bytes)),
            // Unknown code: an identity no other process has, so that nothing this process
            // writes is taken for another build's, or the other way round.
            Err(e) => format!(
                "{described}; executable unreadable ({e}), so this build matches no other: process {} at {:?}",
                std::process::id(),
                std::time::SystemTime::now()
            ),
        }
    })
}

/// This build in words, as `--version` and report.md print it ([`describe_build`]).
pub fn build_description() -> String {
    describe_build(VERSION, GIT_COMMIT, git_modified())
}

/// A build in words: `0.1.0 (git commit 3dbda56…)`, with `, with uncommitted changes` when the
/// checkout was modified (`, uncommitted changes unknown` when a commit is known but not that).
pub fn describe_build(version: &str, commit: &str, modified: Option<bool>) -> String {
    let changes = match modified {
        Some(true) => ", with uncommitted changes",
        None if commit != "unknown" => ", uncommitted changes unknown",
        _ => "",
    };
    format!("{version} (git commit {commit}{changes})")
}

/// An input file named by its path (as given) and the SHA-256 of its bytes.
#[derive(Clone, Debug, Serialize)]
pub struct InputFile {
    /// The path gtsim opened: the scenario's as given, a reference table's joined to the
    /// scenario's folder.
    pub path: String,
    /// The SHA-256 of the file's bytes, in lowercase hex.
    pub sha256: String,
}

impl InputFile {
    /// Reads and hashes `path`.
    pub fn of(path: &Path) -> std::io::Result<Self> {
        let bytes = std::fs::read(path)?;
        Ok(InputFile {
            path: path.display().to_string(),
            sha256: sha256_hex(&bytes),
        })
    }
}

/// The hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The provenance of one run of a scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Provenance {
    /// gtsim's version ([`VERSION`]).
    pub gtsim_version: String,
    /// The git commit of the build, or "unknown" outside a checkout.
    pub git_commit: String,
    /// Whether that checkout had uncommitted changes to tracked files (null when unknown): a
    /// result from a modified checkout is not the commit's.
    pub git_modified: Option<bool>,
    /// The scenario file.
    pub scenario: InputFile,
    /// The reference table named by `outputs.reference`, if any.
    pub reference: Option<InputFile>,
    /// The command line, one string per argument.
    pub command_line: Vec<String>,
    /// Every seed of the sweep, in order.
    pub seeds: Vec<u64>,
    /// Fields set for this run (`--set`, then a `vary` combination), `PATH=VALUE`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields_set: Vec<String>,
    /// For chess: the EPD ids of the positions searched (seed n is position n), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    /// For chess read from an EPD file: that file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions_file: Option<InputFile>,
}

impl Provenance {
    /// The provenance of `plan` run by `command_line`; reads and hashes the scenario file (and
    /// the reference table) as they are now, so call it before the sweep.
    pub fn new(plan: &Plan, command_line: Vec<String>) -> std::io::Result<Self> {
        Ok(Provenance {
            gtsim_version: VERSION.into(),
            git_commit: GIT_COMMIT.into(),
            git_modified: git_modified(),
            fields_set: Vec::new(),
            scenario: InputFile::of(&plan.file).map_err(|e| {
                std::io::Error::new(e.kind(), format!("{}: {e}", plan.file.display()))
            })?,
            reference: match plan
                .reference
                .as_ref()
                .map(|r| r.path.as_path())
                .or(plan.paper.as_ref().map(|p| p.path()))
            {
                Some(path) => Some(InputFile::of(path).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
                })?),
                None => None,
            },
            command_line,
            seeds: plan.seeds.clone(),
            positions: match &plan.chess {
                Some(set) => plan
                    .seeds
                    .iter()
                    .filter_map(|&n| set.get(n).map(|p| p.id.clone()))
                    .collect(),
                None => Vec::new(),
            },
            positions_file: match plan.chess.as_ref().filter(|c| !c.bratko_kopec) {
                Some(set) => {
                    let path = std::path::Path::new(&set.source);
                    Some(InputFile::of(path).map_err(|e| {
                        std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
                    })?)
                }
                None => None,
            },
        })
    }

    /// The files the sweep read: the scenario, then the reference table and the positions file
    /// if it reads them.
    pub fn input_files(&self) -> impl Iterator<Item = &InputFile> {
        std::iter::once(&self.scenario)
            .chain(&self.reference)
            .chain(&self.positions_file)
    }

    /// The command line as one shell-quoted string.
    pub fn command(&self) -> String {
        self.command_line
            .iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The build that made this result, in words ([`describe_build`]).
    pub fn build(&self) -> String {
        describe_build(&self.gtsim_version, &self.git_commit, self.git_modified)
    }

    /// The report section.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "\n## Provenance\n\n\
             - gtsim {}\n\
             - scenario file `{}`, SHA-256 `{}`\n",
            self.build(),
            self.scenario.path,
            self.scenario.sha256
        );
        if !self.fields_set.is_empty() {
            out.push_str(&format!(
                "- fields set (`--set`, `vary`): `{}`\n",
                self.fields_set.join("`, `")
            ));
        }
        if let Some(r) = &self.reference {
            out.push_str(&format!(
                "- reference table `{}`, SHA-256 `{}`\n",
                r.path, r.sha256
            ));
        }
        if let Some(f) = &self.positions_file {
            out.push_str(&format!(
                "- positions file `{}`, SHA-256 `{}`\n",
                f.path, f.sha256
            ));
        }
        if self.positions.is_empty() {
            out.push_str(&format!(
                "- command: `{}`\n- seeds ({}): {}\n",
                self.command(),
                self.seeds.len(),
                seed_ranges(&self.seeds)
            ));
        } else {
            out.push_str(&format!(
                "- command: `{}`\n- positions ({}, seeds {}): {}\n",
                self.command(),
                self.positions.len(),
                seed_ranges(&self.seeds),
                self.positions.join(", ")
            ));
        }
        out
    }
}

/// `a` quoted for a POSIX shell when it needs it.
fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// Seeds as ranges of consecutive values: "1–24", "1, 3, 5–9".
pub fn seed_ranges(seeds: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < seeds.len() {
        let mut j = i;
        while j + 1 < seeds.len() && seeds[j].checked_add(1) == Some(seeds[j + 1]) {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}–{}", seeds[i], seeds[j])
        } else {
            seeds[i].to_string()
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_written_as_ranges() {
        assert_eq!(seed_ranges(&[1, 2, 3, 4]), "1–4");
        assert_eq!(seed_ranges(&[1, 3, 5, 6, 7]), "1, 3, 5–7");
        assert_eq!(
            seed_ranges(&[u64::MAX - 1, u64::MAX]),
            format!("{}–{}", u64::MAX - 1, u64::MAX)
        );
        assert_eq!(seed_ranges(&[]), "");
    }

    #[test]
    fn sha256_of_known_input() {
        // FIPS 180-2's "abc" example.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn command_lines_are_quoted_for_a_shell() {
        assert_eq!(shell_quote("run"), "run");
        assert_eq!(shell_quote("my file.ron"), "'my file.ron'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
