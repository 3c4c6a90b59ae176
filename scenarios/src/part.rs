//! The part file of a sweep: every finished run, in plan order, kept beside the output folder
//! while the sweep runs, so that an interrupted sweep can go on where it stopped (`gtsim run
//! --resume`) and end with the very files an uninterrupted sweep writes.
//!
//! The file is `.NAME.gtsim-part` beside the output folder `NAME`, JSON lines:
//! - the first line says what the runs belong to:
//!   `{"gtsim_part":2,"fingerprint":"…","runs":N,"sweep":{…}}`, the fingerprint being a SHA-256
//!   of the gtsim build and of everything that decides the sweep's results ([`fingerprint`]); N
//!   is the number of runs of the sweep; `sweep` says the same in words ([`SweepWords`]: the
//!   scenario, the fields set, the modes, the build and the input files), so that `--resume`
//!   can name what differs in another sweep's part file ([`difference`]);
//! - then one line per finished run, in plan order, `{"run":i,…,"check":"…"}` with what its
//!   record takes from it ([`Finished`]: the root value, the scheme's figures and the
//!   machine-wide totals, all integers, so a record rebuilt from them is the record the run
//!   gave) and a check of the line and the fingerprint, so that a line edited or damaged since
//!   is refused, not read back as a run's.
//!
//! Each line is written whole with one write as its run is taken in plan order, so a kill leaves
//! the runs before it; a last line without its newline (a write the kill cut) is dropped when the
//! file is read. The file goes when the output is complete.

use crate::load::Plan;
use crate::results::RunTotals;
use crate::runner::Finished;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The version of the layout of part files and shards (their first line's `gtsim_part` or
/// `gtsim_shard`). 2: every run's line carries its `check`.
pub const LAYOUT: u32 = 2;

/// Why a part file cannot be continued.
#[derive(thiserror::Error, Debug)]
pub enum PartError {
    /// It could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The part file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// It could not be read (a directory, no permission, …).
    #[error("{}: cannot read the {what}: {source}", path.display())]
    Unreadable {
        /// The part file or shard.
        path: PathBuf,
        /// What it is: `part file` or `shard`.
        what: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// It belongs to another sweep or another gtsim build.
    #[error("{}: {why}; delete it to start over", path.display())]
    Other {
        /// The part file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// A line that is not what gtsim writes (damaged, cut short, edited or of another layout).
    #[error("{}:{line}: {why}; {remedy}", path.display())]
    Corrupt {
        /// The part file or shard.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        why: String,
        /// What to do: [`START_OVER`] for a part file, [`RUN_AGAIN`] for a shard.
        remedy: &'static str,
    },
}

/// The part file of the output folder `target`: `.NAME.gtsim-part` beside it.
pub fn path_for(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.gtsim-part"))
}

/// The fingerprint of a sweep: SHA-256 of the gtsim build (`build`,
/// [`crate::provenance::build_identity`]) and of everything that decides its results:
/// the scenario as resolved (machine file, `--set` and `vary` applied), whether batching and
/// optimism are on (the `events` and rollback columns), and `inputs`, the contents' hashes of the files it read (scenario,
/// positions, reference table).
pub fn fingerprint(plan: &Plan, build: &str, inputs: &[&str]) -> String {
    let text = format!(
        "{build}\n{:?}\nbatching: {}{}\n{}",
        plan.scenario,
        plan.batching,
        if plan.optimistic {
            ""
        } else {
            ", conservative"
        },
        inputs.join("\n")
    );
    crate::provenance::sha256_hex(text.as_bytes())
}

/// The first line.
#[derive(Serialize, Deserialize)]
struct Header {
    gtsim_part: u32,
    fingerprint: String,
    runs: usize,
    /// The sweep in words; None in part files of gtsim before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sweep: Option<SweepWords>,
}

/// A sweep in words, as a part file's or a shard's header records it beside the fingerprint
/// (which only says that something differs), so that a header of another sweep can be told
/// from the sweep at hand by what differs ([`difference`]).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct SweepWords {
    /// The scenario file as the command named it.
    pub scenario: String,
    /// The fields set (`--set`, then a `vary` combination's), `PATH=VALUE`.
    pub sets: Vec<String>,
    /// Whether batching was off (`--step-by-step`).
    pub step_by_step: bool,
    /// Whether optimistic execution was off (`--conservative`).
    pub conservative: bool,
    /// The build ([`crate::provenance::build_identity`]); empty when not recorded.
    pub build: String,
    /// The files the sweep read, each as `PATH SHA-256`.
    pub inputs: Vec<String>,
}

/// The words [`difference`] says what differs in: what holds the runs of another sweep, and
/// what it is compared with.
pub struct Terms<'a> {
    /// What holds the runs, as the sentence's subject: `a shard`, `it holds the runs`.
    pub recorded: &'a str,
    /// The sweep it is compared with: `the first shard`, `this run`.
    pub expected: &'a str,
    /// When the header was written: `the shard ran`, `the runs were kept`.
    pub written: &'a str,
    /// Said after a build that differs (when builds agree), or "".
    pub builds: &'a str,
    /// Said after `differ` when nothing the header records differs (` from S's now`), or "".
    pub otherwise: &'a str,
}

/// The words of `--resume` for a part file of another sweep.
const RESUMED: Terms = Terms {
    recorded: "it holds the runs",
    expected: "this run",
    written: "the runs were kept",
    builds: "",
    otherwise: "",
};

/// How the sweep `recorded` (a part file's or shard's header, whose fingerprint is not the
/// sweep's) differs from `expected`, in `terms`: the first difference found in the scenario,
/// the fields set (compared as parsed, so spelling aside), `--step-by-step`, `--conservative`,
/// the build and the input files (one changed since); else every part of the fingerprint named.
/// Paths are compared without `.` folders (`./a.ron` is `a.ron`): the fingerprint holds no
/// path, so a path spelled another way is not what differs.
pub fn difference(recorded: &SweepWords, expected: &SweepWords, terms: &Terms) -> String {
    let path = |p: &str| -> Vec<String> {
        Path::new(p)
            .components()
            .filter(|c| *c != std::path::Component::CurDir)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    // An input file as `PATH SHA-256`: its path's parts and its SHA-256.
    let input = |f: &str| -> (Vec<String>, String) {
        let (p, sha) = f.rsplit_once(' ').unwrap_or((f, ""));
        (path(p), sha.to_string())
    };
    let inputs_now: Vec<_> = expected.inputs.iter().map(|f| input(f)).collect();
    let with = |on: bool| if on { "with" } else { "without" };
    let mode = [
        (
            "--step-by-step",
            recorded.step_by_step,
            expected.step_by_step,
        ),
        (
            "--conservative",
            recorded.conservative,
            expected.conservative,
        ),
    ]
    .into_iter()
    .find(|(_, r, e)| r != e);
    let parsed = |sets: &[String]| -> Option<Vec<String>> {
        sets.iter()
            .map(|a| {
                crate::overrides::Assignment::parse(a)
                    .ok()
                    .map(|a| a.to_string())
            })
            .collect()
    };
    let list = |s: &[String]| {
        if s.is_empty() {
            "no --set".to_string()
        } else {
            format!("--set {}", s.join(" --set "))
        }
    };
    let Terms {
        recorded: subject,
        expected: other,
        ..
    } = *terms;
    if recorded.scenario.is_empty() {
        // Not recorded (a part file of an earlier gtsim): nothing to compare.
    } else if path(&recorded.scenario) != path(&expected.scenario) {
        return format!(
            "{subject} of the scenario {}, not {}",
            recorded.scenario, expected.scenario
        );
    } else if parsed(&recorded.sets) != parsed(&expected.sets) {
        return format!(
            "{subject} made with {}, {other} with {}",
            list(&recorded.sets),
            list(&expected.sets)
        );
    } else if let Some((name, r, e)) = mode {
        return format!(
            "{subject} made {} {name}, {other} {} {name}",
            with(r),
            with(e)
        );
    } else if !recorded.build.is_empty() && recorded.build != expected.build {
        return format!(
            "{subject} made by another gtsim build ({}); this gtsim is {}{}",
            recorded.build, expected.build, terms.builds
        );
    } else if let Some(changed) = recorded
        .inputs
        .iter()
        .find(|f| !inputs_now.contains(&input(f)))
    {
        let path = changed
            .rsplit_once(' ')
            .map_or(changed.as_str(), |(p, _)| p);
        return format!(
            "{path} is not what it was when {} (its SHA-256 differs)",
            terms.written
        );
    }
    format!(
        "{subject} of another sweep (the scenario, a file it reads, a field set, --step-by-step, --conservative or the gtsim build differ{})",
        terms.otherwise
    )
}

/// A run's line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    run: usize,
    root_value: i32,
    value_reference: i32,
    position: Option<String>,
    root_move: Option<(String, Option<bool>)>,
    figures: Vec<(String, u64)>,
    totals: RunTotals,
    /// The first 16 hex digits of the SHA-256 of the sweep's fingerprint and of the line
    /// without this field ([`check_of`]): an edited or damaged line no longer matches it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    check: String,
}

/// The check of a line, `value` written without its check, in a sweep with `fingerprint` (empty
/// for a shard's header, which holds the fingerprint itself): the first 16 hex digits of the
/// SHA-256 of the fingerprint, a newline and the line. It covers the values a line holds, not
/// how they are spelled (spaces, escapes).
fn check_of<T: Serialize>(value: &T, fingerprint: &str) -> String {
    let text = serde_json::to_string(value).expect("a line serializes");
    let mut hash = crate::provenance::sha256_hex(format!("{fingerprint}\n{text}").as_bytes());
    hash.truncate(16);
    hash
}

/// What to do about a damaged part file.
const START_OVER: &str = "delete the file to start over";
/// What to do about a damaged shard.
const RUN_AGAIN: &str = "run that shard again";

/// Why a line whose check does not match is refused.
const EDITED: &str = "not a line gtsim wrote (its check does not match: it was edited or damaged)";

/// Parses a run's line and verifies its check against the sweep's `fingerprint`.
fn parse_line(text: &str, fingerprint: &str) -> Result<Line, String> {
    let mut line: Line = serde_json::from_str(text).map_err(|e| format!("not a run: {e}"))?;
    let check = std::mem::take(&mut line.check);
    if check != check_of(&line, fingerprint) {
        return Err(EDITED.into());
    }
    Ok(line)
}

/// Reads the runs of the part file at `path` written for a sweep of `runs` runs with
/// `fingerprint`, `sweep` in words (to name what differs in a part file of another sweep);
/// `figures` are the figure columns the plan's algorithms report (a figure is stored by name).
/// None when there is no part file.
pub fn read(
    path: &Path,
    fingerprint: &str,
    runs: usize,
    sweep: &SweepWords,
    figures: &[&'static str],
) -> Result<Option<Vec<Finished>>, PartError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(PartError::Unreadable {
                path: path.into(),
                what: "part file",
                source,
            })
        }
    };
    let corrupt = |line: usize, why: String| PartError::Corrupt {
        path: path.into(),
        line,
        why,
        remedy: START_OVER,
    };
    // Whole lines only: what follows the last newline is a write a kill cut short.
    let whole = match text.iter().rposition(|&b| b == b'\n') {
        Some(end) => &text[..=end],
        None => &text[..0],
    };
    let whole = std::str::from_utf8(whole).map_err(|e| corrupt(0, format!("not UTF-8: {e}")))?;
    let mut lines = whole.lines().enumerate();
    let Some((_, first)) = lines.next() else {
        // Killed before its first line was written: nothing was kept.
        return Ok(Some(Vec::new()));
    };
    let header: Header = serde_json::from_str(first)
        .map_err(|e| corrupt(1, format!("not the first line of a gtsim part file: {e}")))?;
    if header.gtsim_part != LAYOUT {
        return Err(PartError::Other {
            path: path.into(),
            why: format!(
                "written in layout {} of part files, this gtsim reads layout {LAYOUT}",
                header.gtsim_part
            ),
        });
    }
    if header.fingerprint != fingerprint || header.runs != runs {
        return Err(PartError::Other {
            path: path.into(),
            why: difference(&header.sweep.unwrap_or_default(), sweep, &RESUMED),
        });
    }
    let mut done = Vec::new();
    for (n, text) in lines {
        let line = parse_line(text, fingerprint).map_err(|why| corrupt(n + 1, why))?;
        if line.run != done.len() {
            return Err(corrupt(
                n + 1,
                format!("run {} where run {} was due", line.run, done.len()),
            ));
        }
        if line.run >= runs {
            return Err(corrupt(
                n + 1,
                format!("run {} of a sweep of {runs}", line.run),
            ));
        }
        done.push(to_finished(line, figures).map_err(|why| corrupt(n + 1, why))?);
    }
    Ok(Some(done))
}

/// A run's line as the run it records; its figures must be among `figures`.
fn to_finished(line: Line, figures: &[&'static str]) -> Result<Finished, String> {
    let mut kept = algorithms::Figures::default();
    for (name, value) in line.figures {
        let Some(&name) = figures.iter().find(|&&c| c == name) else {
            return Err(format!(
                "figure {name} is not one this sweep's algorithms report"
            ));
        };
        kept = kept.with(name, value);
    }
    Ok(Finished {
        root_value: line.root_value,
        value_reference: line.value_reference,
        position: line.position,
        root_move: line.root_move,
        figures: kept,
        totals: line.totals,
    })
}

/// The first line of a shard's file (`gtsim run --shard i/n`: `shard.jsonl` in its folder).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardHeader {
    /// The layout of the file.
    pub gtsim_shard: u32,
    /// The sweep's [`fingerprint`].
    pub fingerprint: String,
    /// Runs in the whole sweep.
    pub runs: usize,
    /// This shard: it holds the runs `i` with `i % of == shard`.
    pub shard: usize,
    /// Shards in all.
    pub of: usize,
    /// The scenario file as the command named it.
    pub scenario: String,
    /// The `--set` assignments, as given.
    pub sets: Vec<String>,
    /// Whether batching was off (`--step-by-step`).
    pub step_by_step: bool,
    /// Whether optimistic execution was off (`--conservative`).
    #[serde(default)]
    pub conservative: bool,
    /// The command line that made it (the merged folder records the whole run's command made
    /// from it).
    pub command: Vec<String>,
    /// The build that made it ([`crate::provenance::build_identity`]), in words, so that merge
    /// can say that a shard is another build's (the fingerprint only says that something
    /// differs). Empty in shards of gtsim before it was recorded.
    #[serde(default)]
    pub build: String,
    /// The files the sweep read, each as `PATH SHA-256` (the scenario, then a reference table
    /// and a positions file if it reads them), so that merge can name a file changed since.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// The check of the header ([`check_of`] with no fingerprint), set when it is written.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub check: String,
}

/// The text of a shard's file: its header and its runs, `(index, run)` in plan order.
pub fn shard_text(header: &ShardHeader, runs: &[(usize, Finished)]) -> String {
    let mut sealed = ShardHeader {
        check: String::new(),
        ..header.clone()
    };
    sealed.check = check_of(&sealed, "");
    let mut text = serde_json::to_string(&sealed).expect("a header serializes");
    text.push('\n');
    for (i, f) in runs {
        text.push_str(&line(*i, f, &header.fingerprint));
    }
    text
}

impl ShardHeader {
    /// The sweep the shard is of, in words.
    pub fn sweep(&self) -> SweepWords {
        SweepWords {
            scenario: self.scenario.clone(),
            sets: self.sets.clone(),
            step_by_step: self.step_by_step,
            conservative: self.conservative,
            build: self.build.clone(),
            inputs: self.inputs.clone(),
        }
    }
}

/// The header of a shard's file (its first line only is read).
pub fn shard_header(path: &Path) -> Result<ShardHeader, PartError> {
    use std::io::BufRead;
    let io = |source| PartError::Unreadable {
        path: path.into(),
        what: "shard",
        source,
    };
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(path).map_err(io)?)
        .read_line(&mut first)
        .map_err(io)?;
    parse_shard_header(path, first.trim_end_matches(['\n', '\r']))
}

/// A shard's error at `line` of its file `path`.
fn shard_corrupt(path: &Path, line: usize, why: String) -> PartError {
    PartError::Corrupt {
        path: path.into(),
        line,
        why,
        remedy: RUN_AGAIN,
    }
}

/// The header of the shard at `path` from its first line, `first` (empty if it has none): its
/// layout and check verified.
fn parse_shard_header(path: &Path, first: &str) -> Result<ShardHeader, PartError> {
    let corrupt = |why: String| shard_corrupt(path, 1, why);
    if first.is_empty() {
        return Err(corrupt("empty: not a gtsim shard".into()));
    }
    let mut header: ShardHeader = serde_json::from_str(first)
        .map_err(|e| corrupt(format!("not the first line of a gtsim shard: {e}")))?;
    let check = std::mem::take(&mut header.check);
    if header.gtsim_shard != LAYOUT {
        return Err(corrupt(format!(
            "written in layout {} of shards, this gtsim reads layout {LAYOUT}",
            header.gtsim_shard
        )));
    }
    if check != check_of(&header, "") {
        return Err(corrupt(EDITED.into()));
    }
    Ok(header)
}

/// Reads a shard's file: its header ([`shard_header`]) and its runs, each checked to belong to
/// the shard; `figures` are the figure columns its sweep's algorithms report (see [`read`]).
/// The header's fingerprint is the caller's to check against the sweep it merges.
pub fn read_shard(
    path: &Path,
    figures: &[&'static str],
) -> Result<(ShardHeader, Vec<(usize, Finished)>), PartError> {
    let text = std::fs::read_to_string(path).map_err(|source| PartError::Unreadable {
        path: path.into(),
        what: "shard",
        source,
    })?;
    let corrupt = |line: usize, why: String| shard_corrupt(path, line, why);
    let mut lines = text.lines().enumerate();
    let header = parse_shard_header(path, lines.next().map_or("", |(_, l)| l))?;
    let mut runs = Vec::new();
    let mut expected = header.shard;
    for (n, text) in lines {
        let line = parse_line(text, &header.fingerprint).map_err(|why| corrupt(n + 1, why))?;
        if line.run != expected || line.run >= header.runs {
            return Err(corrupt(
                n + 1,
                format!(
                    "run {} where run {expected} of shard {} of {} was due",
                    line.run, header.shard, header.of
                ),
            ));
        }
        expected += header.of;
        let i = line.run;
        runs.push((
            i,
            to_finished(line, figures).map_err(|why| corrupt(n + 1, why))?,
        ));
    }
    if expected < header.runs {
        return Err(corrupt(
            text.lines().count() + 1,
            format!("cut short: run {expected} of the shard is missing"),
        ));
    }
    Ok((header, runs))
}

/// A part file being written.
pub struct PartFile {
    file: std::fs::File,
    fingerprint: String,
}

impl PartFile {
    /// Starts the part file at `path` for a sweep of `runs` runs with `fingerprint`, `sweep`
    /// in words, holding the runs `done` already (a resumed sweep's; they are written again, so
    /// that a last line a kill cut short is gone).
    pub fn create(
        path: &Path,
        fingerprint: &str,
        runs: usize,
        sweep: &SweepWords,
        done: &[Finished],
    ) -> Result<Self, PartError> {
        let io = |source| PartError::Io {
            path: path.into(),
            source,
        };
        let header = Header {
            gtsim_part: LAYOUT,
            fingerprint: fingerprint.into(),
            runs,
            sweep: Some(sweep.clone()),
        };
        let mut text = serde_json::to_string(&header).expect("a header serializes");
        text.push('\n');
        for (i, f) in done.iter().enumerate() {
            text.push_str(&line(i, f, fingerprint));
        }
        crate::write_atomic(path, text.as_bytes()).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(PartFile {
            file,
            fingerprint: fingerprint.into(),
        })
    }

    /// Appends run `i` (the next in plan order) in one write.
    pub fn append(&mut self, i: usize, f: &Finished) -> std::io::Result<()> {
        self.file
            .write_all(line(i, f, &self.fingerprint).as_bytes())
    }
}

/// Run `i`'s line in a sweep with `fingerprint`, with its check and its newline.
fn line(i: usize, f: &Finished, fingerprint: &str) -> String {
    let mut line = Line {
        run: i,
        root_value: f.root_value,
        value_reference: f.value_reference,
        position: f.position.clone(),
        root_move: f.root_move.clone(),
        figures: f.figures.iter().map(|(n, v)| (n.to_string(), v)).collect(),
        totals: f.totals,
        check: String::new(),
    };
    line.check = check_of(&line, fingerprint);
    let mut text = serde_json::to_string(&line).expect("a run serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(i: u64) -> Finished {
        let mut totals = RunTotals {
            makespan_ns: 1000 + i,
            events: 7 * i,
            ..RunTotals::default()
        };
        totals.times.0 = [1, 2, 3, 4, u64::MAX - i, 0];
        totals.nodes.leaves = 40 + i;
        totals.messages.count[1] = i;
        Finished {
            root_value: -5,
            value_reference: 3,
            position: Some("BK.01".into()),
            root_move: Some(("d6d1".into(), Some(true))),
            figures: algorithms::Figures::default().with("open_peak", i),
            totals,
        }
    }

    #[test]
    fn runs_written_are_read_back_as_they_were() {
        let dir = std::env::temp_dir().join(format!("gtsim-part-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // a stale folder of an earlier process with this id
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(".x.gtsim-part");
        let runs: Vec<Finished> = (0..5).map(finished).collect();
        let mut part =
            PartFile::create(&path, "fp", 9, &SweepWords::default(), &runs[..2]).unwrap();
        for (i, f) in runs.iter().enumerate().skip(2) {
            part.append(i, f).unwrap();
        }
        let back = read(&path, "fp", 9, &SweepWords::default(), &["open_peak"])
            .unwrap()
            .unwrap();
        assert_eq!(back, runs);
        // A last line cut short by a kill is dropped; the rest is kept.
        let mut text = std::fs::read(&path).unwrap();
        text.extend_from_slice(b"{\"run\":5,\"root_va");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(
            read(&path, "fp", 9, &SweepWords::default(), &["open_peak"])
                .unwrap()
                .unwrap(),
            runs
        );
        // Another sweep's, another build's or a different number of runs: refused.
        for (fp, n) in [("other", 9), ("fp", 10)] {
            let e = read(&path, fp, n, &SweepWords::default(), &["open_peak"]).unwrap_err();
            assert!(e.to_string().contains("another sweep"), "{e}");
        }
        // A figure the sweep does not report is refused at its line.
        let e = read(&path, "fp", 9, &SweepWords::default(), &["tt_probes"]).unwrap_err();
        assert!(
            e.to_string().contains(".x.gtsim-part:2: figure open_peak"),
            "{e}"
        );
        // A damaged or edited line in the middle is refused at its line.
        let text = std::fs::read_to_string(&path).unwrap();
        for (from, to) in [
            ("\"run\":3", "\"run\":4"),
            ("\"leaves\":43", "\"leaves\":44"),
        ] {
            assert!(text.contains(from));
            std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
            let e = read(&path, "fp", 9, &SweepWords::default(), &["open_peak"]).unwrap_err();
            assert!(e.to_string().contains(":5: not a line gtsim wrote"), "{e}");
        }
        // So is a line of this sweep out of its place, or checked against another sweep.
        let lines: Vec<&str> = text.lines().collect();
        let moved = format!(
            "{}\n{}\n{}\n{}\n{}",
            lines[0],
            lines[1],
            lines[2],
            lines[3],
            line(4, &runs[4], "fp")
        );
        std::fs::write(&path, moved).unwrap();
        let e = read(&path, "fp", 9, &SweepWords::default(), &["open_peak"]).unwrap_err();
        assert!(
            e.to_string().contains(":5: run 4 where run 3 was due"),
            "{e}"
        );
        let foreign = text.replacen(lines[4], line(3, &runs[3], "other").trim_end(), 1);
        std::fs::write(&path, foreign).unwrap();
        let e = read(&path, "fp", 9, &SweepWords::default(), &["open_peak"]).unwrap_err();
        assert!(e.to_string().contains(":5: not a line gtsim wrote"), "{e}");
        // No file: nothing to continue.
        std::fs::remove_file(&path).unwrap();
        assert!(read(&path, "fp", 9, &SweepWords::default(), &[])
            .unwrap()
            .is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_part_file_or_shard_that_cannot_be_read_is_named_as_such() {
        // A folder in the part file's place (or a shard's): the error says which file gtsim
        // could not read, not only the operating system's words.
        let dir = std::env::temp_dir().join(format!("gtsim-part-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(".or3.gtsim-part");
        std::fs::create_dir_all(&path).unwrap();
        let e = read(&path, "fp", 9, &SweepWords::default(), &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("{}: cannot read the part file: ", path.display())),
            "{e}"
        );
        for e in [
            shard_header(&path).unwrap_err(),
            read_shard(&path, &[]).unwrap_err(),
        ] {
            let e = e.to_string();
            assert!(
                e.starts_with(&format!("{}: cannot read the shard: ", path.display())),
                "{e}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_part_file_sits_beside_its_folder() {
        assert_eq!(
            path_for(Path::new("out/pmws")),
            Path::new("out/.pmws.gtsim-part")
        );
    }
}
