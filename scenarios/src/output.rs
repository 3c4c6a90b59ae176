//! Writing a plan's results: CSV, JSON, a Markdown report and PNG plots, as one output folder
//! that replaces the previous one whole (see [`OutputFolder`]).

use crate::load::Plan;
use crate::provenance::Provenance;
use crate::results::{summary_table, Summary};
use crate::runner::{Outcome, Results, Row, RunError};
use plots::{LineChart, LineStyle, Series};
use std::io;
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` through a temporary sibling and a rename, so an interrupted run
/// never leaves a half-written file that looks whole.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = atomic_tmp(path)?;
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn atomic_tmp(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} is not a file path", path.display())))?
        .to_string_lossy()
        .into_owned();
    Ok(path.with_file_name(format!(".{name}.tmp")))
}

/// A failure while writing outputs, naming the file.
#[derive(thiserror::Error, Debug)]
pub enum OutputError {
    /// A file or folder could not be created, written, renamed or removed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// An output path that gtsim refuses before simulating anything.
    #[error("{path}: {reason}")]
    Refused {
        /// The path refused.
        path: PathBuf,
        /// Why, and what to do instead.
        reason: String,
    },
    /// A chart could not be drawn or written.
    #[error(transparent)]
    Plot(#[from] plots::PlotError),
    /// A run failed while its results were being written.
    #[error(transparent)]
    Run(#[from] RunError),
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn refused(path: &Path, reason: impl Into<String>) -> OutputError {
    OutputError::Refused {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// The file in every gtsim output folder that says so: gtsim replaces a folder that holds it
/// (and only the files it lists), never another one.
pub const MARKER: &str = ".gtsim-output";

/// Called with the name of each step of writing an output folder before it happens (each file,
/// then "swap", then "cleanup"); an error stops the writing there. Tests inject failures (or a
/// simulated kill) with it; `gtsim` sets it only from GTSIM_TEST_FAIL_AT / GTSIM_TEST_KILL_AT.
pub type Hook = Box<dyn FnMut(&str) -> io::Result<()>>;

/// An output folder written as one unit.
///
/// Every file is written into a hidden sibling of the target, `.NAME.gtsim-staging-PID`, which
/// then takes the target's place in one step: on Linux `renameat2(RENAME_EXCHANGE)` swaps the
/// two folders atomically, so at every instant the target path holds either the previous
/// complete folder or the new complete one; the previous one, now at the staging path, is then
/// deleted. Where the exchange is not supported (another OS, or a file system without it) the
/// previous folder is first renamed to `.NAME.gtsim-old-PID` and the new one renamed into place:
/// for an instant the target is missing, and a kill at that instant leaves the previous folder
/// at the `-old-` path, which the next run into the same target puts back (or deletes once a
/// new folder is in place). Staging folders of runs that died (their process is gone) are
/// deleted by the next run into the same target. Only folders holding the marker are ever
/// deleted.
///
/// The target may be missing, an empty folder, or a gtsim output folder holding nothing but the
/// files its marker lists; anything else is refused before the sweep runs.
pub struct OutputFolder {
    target: PathBuf,
    staging: PathBuf,
    files: Vec<String>,
    hook: Option<Hook>,
    committed: bool,
}

impl OutputFolder {
    /// Checks `target` and creates the staging folder beside it (which also proves the parent
    /// writable). Call it before simulating anything: every error here is about the path.
    pub fn prepare(target: &Path) -> Result<Self, OutputError> {
        let name = match target.file_name() {
            Some(n) if target.components().next_back().is_some_and(|c| matches!(c, std::path::Component::Normal(_))) => {
                n.to_string_lossy().into_owned()
            }
            _ => {
                return Err(refused(
                    target,
                    "not a folder name gtsim can replace (give a path that ends in a name, e.g. out/run1)",
                ))
            }
        };
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match std::fs::metadata(&parent) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(refused(
                    target,
                    format!(
                        "cannot create the output folder: {} is not a folder",
                        parent.display()
                    ),
                ))
            }
            Err(e) => {
                return Err(refused(
                    target,
                    format!(
                        "cannot create the output folder in {}: {e}",
                        parent.display()
                    ),
                ))
            }
        }
        clean_leftovers(&parent, &name, target);
        check_replaceable(target)?;
        let staging = parent.join(format!(".{name}.gtsim-staging-{}", std::process::id()));
        if staging.exists() {
            // A previous attempt of this very process: it is ours.
            std::fs::remove_dir_all(&staging).map_err(io_at(&staging))?;
        }
        std::fs::create_dir(&staging)
            .map_err(|e| refused(target, format!("cannot write in {}: {e}", parent.display())))?;
        std::fs::write(
            staging.join(MARKER),
            "gtsim output folder (being written)\n",
        )
        .map_err(io_at(&staging.join(MARKER)))?;
        Ok(OutputFolder {
            target: target.to_path_buf(),
            staging,
            files: Vec::new(),
            hook: None,
            committed: false,
        })
    }

    /// Sets the failure-injection hook (tests).
    pub fn set_hook(&mut self, hook: Hook) {
        self.hook = Some(hook);
    }

    /// The folder the run replaces.
    pub fn target(&self) -> &Path {
        &self.target
    }

    fn step(&mut self, name: &str) -> Result<(), OutputError> {
        if let Some(h) = &mut self.hook {
            h(name).map_err(|e| OutputError::Io {
                path: self.target.join(name),
                source: e,
            })?;
        }
        Ok(())
    }

    /// Creates file `name` in the new folder, for writing as a stream.
    pub fn create(&mut self, name: &str) -> Result<io::BufWriter<std::fs::File>, OutputError> {
        self.step(name)?;
        let path = self.staging.join(name);
        let file = std::fs::File::create(&path).map_err(io_at(&path))?;
        if !name.starts_with('.') {
            self.files.push(name.to_string());
        }
        Ok(io::BufWriter::new(file))
    }

    /// The staging path of a file of the new folder (to read back a spool file).
    fn staged(&self, name: &str) -> PathBuf {
        self.staging.join(name)
    }

    /// Writes file `name` of the new folder whole.
    pub fn put(&mut self, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let mut w = self.create(name)?;
        w.write_all(bytes)
            .and_then(|_| w.flush())
            .map_err(io_at(&self.target.join(name)))
    }

    /// Draws a PNG into the new folder with `draw(path)`.
    pub fn draw(
        &mut self,
        name: &str,
        draw: impl FnOnce(&Path) -> Result<(), plots::PlotError>,
    ) -> Result<(), OutputError> {
        self.step(name)?;
        draw(&self.staging.join(name))?;
        self.files.push(name.to_string());
        Ok(())
    }

    /// Writes the marker (with `provenance`) and swaps the new folder in; returns the files
    /// of the new folder at the target.
    pub fn commit(mut self, provenance: &str) -> Result<Vec<PathBuf>, OutputError> {
        let mut marker = format!(
            "gtsim output folder: gtsim replaces this folder whole on the next run into it and\n\
             refuses it if it holds files other than these.\n{provenance}files:\n"
        );
        for f in &self.files {
            marker.push_str(&format!("  {f}\n"));
        }
        let path = self.staged(MARKER);
        std::fs::write(&path, marker).map_err(io_at(&path))?;
        // The previous folder may have changed while we simulated: check it again.
        check_replaceable(&self.target)?;
        self.step("swap")?;
        let old = swap_in(&self.staging, &self.target).map_err(io_at(&self.target))?;
        self.committed = true;
        // The new folder is in place: the run has succeeded. The previous folder, now beside
        // the target (it passed check_replaceable), goes; if that fails, the next run into the
        // same target deletes it.
        if let (Ok(()), Some(old)) = (self.step("cleanup"), old) {
            let _ = std::fs::remove_dir_all(&old);
        }
        Ok(self.files.iter().map(|f| self.target.join(f)).collect())
    }
}

impl Drop for OutputFolder {
    /// A folder that was not committed (an error half-way) leaves nothing behind.
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

use std::io::Write;

/// Refuses a target that gtsim must not replace: anything but a missing path, an empty folder
/// or a gtsim output folder holding only the files its marker lists.
fn check_replaceable(target: &Path) -> Result<(), OutputError> {
    let meta = match std::fs::symlink_metadata(target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_at(target)(e)),
        Ok(m) => m,
    };
    const HOW: &str = "gtsim replaces its output folder whole and never deletes other files; \
                       choose another --out, or move the folder away yourself";
    if meta.file_type().is_symlink() {
        return Err(refused(
            target,
            format!("is a symbolic link, not a gtsim output folder: {HOW}"),
        ));
    }
    if !meta.is_dir() {
        return Err(refused(
            target,
            format!("exists and is a file, not a gtsim output folder: {HOW}"),
        ));
    }
    let mut entries = Vec::new();
    for e in std::fs::read_dir(target).map_err(io_at(target))? {
        let e = e.map_err(io_at(target))?;
        entries.push(e.file_name().to_string_lossy().into_owned());
    }
    if entries.is_empty() {
        return Ok(());
    }
    let marker = match std::fs::read_to_string(target.join(MARKER)) {
        Ok(m) => m,
        Err(_) => {
            return Err(refused(
                target,
                format!("exists and is not a gtsim output folder (it has no {MARKER} file): {HOW}"),
            ))
        }
    };
    let listed: Vec<&str> = marker
        .split_once("\nfiles:\n")
        .map(|(_, l)| l.lines().map(str::trim).collect())
        .unwrap_or_default();
    entries.sort();
    if let Some(other) = entries
        .iter()
        .find(|e| e.as_str() != MARKER && !listed.contains(&e.as_str()))
    {
        return Err(refused(
            target,
            format!("is a gtsim output folder but also holds '{other}', which gtsim did not write: {HOW}"),
        ));
    }
    Ok(())
}

/// Is process `pid` alive? (Linux: /proc; elsewhere every other process counts as gone.)
fn alive(pid: u32) -> bool {
    pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Cleans what runs into the same target left when they died: their staging folders, and a
/// previous folder moved aside by the two-rename fallback (put back if the target is missing).
fn clean_leftovers(parent: &Path, name: &str, target: &Path) {
    let Ok(dir) = std::fs::read_dir(parent) else {
        return;
    };
    for e in dir.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&format!(".{name}.gtsim-")) else {
            continue;
        };
        let (kind, pid) = match rest.split_once('-') {
            Some((k, p)) => (k, p.parse::<u32>().ok()),
            None => continue,
        };
        let path = e.path();
        if pid.is_none_or(alive) || !path.join(MARKER).is_file() {
            continue;
        }
        match kind {
            "old" if std::fs::symlink_metadata(target).is_err() => {
                let _ = std::fs::rename(&path, target);
            }
            "old" | "staging" => {
                let _ = std::fs::remove_dir_all(&path);
            }
            _ => {}
        }
    }
}

/// Puts `new` at `target`; returns where the previous folder went, if there was one.
fn swap_in(new: &Path, target: &Path) -> io::Result<Option<PathBuf>> {
    if std::fs::symlink_metadata(target).is_err() {
        std::fs::rename(new, target)?;
        return Ok(None);
    }
    if exchange(new, target)? {
        return Ok(Some(new.to_path_buf()));
    }
    swap_by_renames(new, target).map(Some)
}

/// The fallback where the folders cannot be exchanged atomically: two renames; the previous
/// folder waits at `.NAME.gtsim-old-PID` for an instant (put back by the next run if a kill
/// comes then). Returns where the previous folder is.
fn swap_by_renames(new: &Path, target: &Path) -> io::Result<PathBuf> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let old = target.with_file_name(format!(".{name}.gtsim-old-{}", std::process::id()));
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    std::fs::rename(target, &old)?;
    if let Err(e) = std::fs::rename(new, target) {
        let _ = std::fs::rename(&old, target);
        return Err(e);
    }
    Ok(old)
}

/// Swaps two directories atomically; Ok(false) where the system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes()).map_err(|_| io::Error::other("a NUL in a path"))
    };
    let (ca, cb) = (c(a)?, c(b)?);
    // SAFETY: two valid NUL-terminated paths, relative to the working directory (AT_FDCWD).
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        // Not supported by this kernel or file system: fall back.
        Some(libc::ENOSYS) | Some(libc::EINVAL) | Some(libc::EOPNOTSUPP) => Ok(false),
        _ => Err(e),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<bool> {
    Ok(false)
}

/// Checks the path of `--trace` before the sweep. It must be a file name in an existing,
/// writable folder; not inside the output folder (which is replaced whole); not an input of the
/// run (the scenario file or its reference table); and if it exists, a trace gtsim wrote (gtsim
/// overwrites nothing else).
pub fn check_trace_path(trace: &Path, plan: &Plan, out: &Path) -> Result<(), OutputError> {
    let Some(name) = trace.file_name() else {
        return Err(refused(trace, "--trace needs a file name, e.g. run.json"));
    };
    let parent = match trace.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let inside = || {
        refused(
            trace,
            format!(
                "--trace is inside the output folder {}, which gtsim replaces whole: write the trace elsewhere",
                out.display()
            ),
        )
    };
    // Inside the output folder, as written (the folder may not exist yet) ...
    if let (Ok(t), Ok(o)) = (std::path::absolute(trace), std::path::absolute(out)) {
        if t.starts_with(&o) {
            return Err(inside());
        }
    }
    let dir = std::fs::canonicalize(&parent).map_err(|e| {
        refused(
            trace,
            format!("cannot write the trace in {}: {e}", parent.display()),
        )
    })?;
    if !dir.is_dir() {
        return Err(refused(
            trace,
            format!("{} is not a folder", parent.display()),
        ));
    }
    let full = dir.join(name);
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let out_full = match (out.parent(), out.file_name()) {
        (Some(p), Some(n)) => canon(if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        })
        .map(|p| p.join(n)),
        _ => canon(out),
    };
    // ... or once symbolic links are resolved.
    if out_full.as_ref().is_some_and(|o| full.starts_with(o)) {
        return Err(inside());
    }
    let mut inputs = vec![("the scenario file", plan.file.clone())];
    if let Some(r) = &plan.reference {
        inputs.push(("the scenario's reference table", r.path.clone()));
    }
    if let Some(r) = &plan.paper {
        inputs.push(("the scenario's reference table", r.path().to_path_buf()));
    }
    for (what, p) in inputs {
        if canon(&p).is_some_and(|p| p == full || canon(&full).is_some_and(|f| f == p)) {
            return Err(refused(trace, format!("--trace would overwrite {what}")));
        }
    }
    match std::fs::symlink_metadata(&full) {
        Err(_) => {}
        Ok(m) if m.is_file() => {
            let mut head = [0u8; 64];
            let n = std::fs::File::open(&full)
                .and_then(|mut f| io::Read::read(&mut f, &mut head))
                .unwrap_or(0);
            if !head[..n].starts_with(crate::trace::PREFIX.as_bytes()) {
                return Err(refused(
                    trace,
                    "exists and is not a trace gtsim wrote: gtsim overwrites no other file; choose another --trace path",
                ));
            }
        }
        Ok(_) => {
            return Err(refused(
                trace,
                "exists and is not a file: choose another --trace path",
            ))
        }
    }
    // Writable? Create and remove the temporary file write_atomic will use.
    let tmp = atomic_tmp(&full).map_err(io_at(trace))?;
    std::fs::write(&tmp, b"")
        .and_then(|_| std::fs::remove_file(&tmp))
        .map_err(|e| refused(trace, format!("cannot write the trace: {e}")))?;
    Ok(())
}

/// Most tree configurations drawn as panels of overheads.png and speedup.png.
pub const MAX_PANELS: usize = 12;

/// The summaries of each configuration, in plan order.
pub fn by_config<'a>(plan: &Plan, summaries: &'a [Summary]) -> Vec<&'a [Summary]> {
    // Consecutive summaries of one (algorithm, configuration); an algorithm may skip processor
    // trees it does not apply to, so groups are not all the same length.
    let _ = plan;
    let key = |s: &Summary| {
        (
            s.algorithm.clone(),
            s.width,
            s.depth,
            s.ordering.clone(),
            s.horizon_noise,
        )
    };
    summaries.chunk_by(|a, b| key(a) == key(b)).collect()
}

/// Whether the plan runs on Campbell's processor trees (then charts are against terminal
/// processors, and report.md compares algorithms per processor tree).
fn campbell(plan: &Plan) -> bool {
    plan.ptrees
        .iter()
        .any(|p| matches!(p, crate::dispatch::PTree::Campbell { .. }))
}

/// The pretty JSON of `value`, every line after the first indented by `indent` spaces (to sit
/// inside results.json exactly as serde_json's pretty printer would put it).
fn pretty_at(value: &impl serde::Serialize, indent: usize) -> String {
    let v = serde_json::to_value(value).expect("results serialize");
    let text = serde_json::to_string_pretty(&v).expect("results serialize");
    text.replace('\n', &format!("\n{}", " ".repeat(indent)))
}

/// results.csv and results.json written as the records stream in (plan order).
///
/// results.json is one object with its keys in alphabetical order, each record pretty printed
/// as serde_json does: `baseline` is written into the file directly, `runs` into a spool file
/// in the staging folder, appended at the end.
pub struct RowWriter {
    csv: io::BufWriter<std::fs::File>,
    json: io::BufWriter<std::fs::File>,
    runs: io::BufWriter<std::fs::File>,
    n_baseline: usize,
    n_runs: usize,
}

const RUNS_SPOOL: &str = ".runs.json.part";

impl RowWriter {
    /// Creates `results.csv` (with its header) and `results.json` in `folder`, ready for rows.
    pub fn new(folder: &mut OutputFolder) -> Result<Self, OutputError> {
        let mut csv = folder.create("results.csv")?;
        csv.write_all(crate::results::csv_header().as_bytes())
            .map_err(io_at(&folder.target.join("results.csv")))?;
        let mut json = folder.create("results.json")?;
        json.write_all(b"{\n  \"baseline\": [")
            .map_err(io_at(&folder.target.join("results.json")))?;
        let runs = folder.create(RUNS_SPOOL)?;
        Ok(RowWriter {
            csv,
            json,
            runs,
            n_baseline: 0,
            n_runs: 0,
        })
    }

    /// Writes one row.
    pub fn row(&mut self, row: Row) -> io::Result<()> {
        match row {
            Row::Baseline(r) => {
                self.json.write_all(if self.n_baseline == 0 {
                    b"\n    "
                } else {
                    b",\n    "
                })?;
                self.json.write_all(pretty_at(r, 4).as_bytes())?;
                self.n_baseline += 1;
            }
            Row::Sweep(r) => {
                self.csv.write_all(r.csv_line().as_bytes())?;
                self.runs.write_all(if self.n_runs == 0 {
                    b"\n    "
                } else {
                    b",\n    "
                })?;
                self.runs.write_all(pretty_at(r, 4).as_bytes())?;
                self.n_runs += 1;
            }
        }
        Ok(())
    }

    /// Closes both files: the rest of results.json after the rows.
    pub fn finish(
        self,
        folder: &OutputFolder,
        plan: &Plan,
        summaries: &[Summary],
        provenance: Option<&Provenance>,
    ) -> Result<(), OutputError> {
        let json_path = folder.target.join("results.json");
        let RowWriter {
            mut csv,
            mut json,
            runs,
            n_baseline,
            n_runs,
        } = self;
        csv.flush()
            .map_err(io_at(&folder.target.join("results.csv")))?;
        drop(
            runs.into_inner()
                .map_err(|e| e.into_error())
                .map_err(io_at(&json_path))?,
        );
        let close = |n: usize| if n == 0 { "]" } else { "\n  ]" };
        let spool = folder.staged(RUNS_SPOOL);
        (|| -> io::Result<()> {
            json.write_all(close(n_baseline).as_bytes())?;
            if let Some(p) = provenance {
                write!(json, ",\n  \"provenance\": {}", pretty_at(p, 2))?;
            }
            json.write_all(b",\n  \"runs\": [")?;
            io::copy(&mut std::fs::File::open(&spool)?, &mut json)?;
            json.write_all(close(n_runs).as_bytes())?;
            write!(json, ",\n  \"scenario\": {}", pretty_at(&plan.name(), 2))?;
            write!(json, ",\n  \"summary\": {}", pretty_at(&summaries, 2))?;
            json.write_all(b"\n}\n")?;
            json.flush()
        })()
        .map_err(io_at(&json_path))?;
        std::fs::remove_file(&spool).map_err(io_at(&spool))?;
        Ok(())
    }
}

/// Writes every output of a plan into `dir` as one unit (see [`OutputFolder`]); returns the
/// files written. `timeline` is the recorded run named by `outputs.timeline`, if any.
pub fn write_outputs(
    plan: &Plan,
    results: &Results,
    timeline: Option<&Outcome>,
    dir: &Path,
) -> Result<Vec<PathBuf>, OutputError> {
    let mut folder = OutputFolder::prepare(dir)?;
    let mut rows = RowWriter::new(&mut folder)?;
    let json = dir.join("results.json");
    let mut chess = crate::chess_report::ChessRows::default();
    for r in &results.baseline {
        rows.row(Row::Baseline(r)).map_err(io_at(&json))?;
        chess.keep(plan, &Row::Baseline(r));
    }
    for r in &results.records {
        rows.row(Row::Sweep(r)).map_err(io_at(&json))?;
        chess.keep(plan, &Row::Sweep(r));
    }
    rows.finish(&folder, plan, &results.summaries, None)?;
    finish_outputs(plan, &results.summaries, &chess, timeline, None, folder)
}

/// Writes report.md, the study and the plots into `folder`, then swaps it in; returns the
/// files of the new folder. `chess` holds the records of a chess plan (see
/// [`crate::chess_report::ChessRows::keep`]; empty for other plans).
pub fn finish_outputs(
    plan: &Plan,
    summaries: &[Summary],
    chess: &crate::chess_report::ChessRows,
    timeline: Option<&Outcome>,
    provenance: Option<&Provenance>,
    mut folder: OutputFolder,
) -> Result<Vec<PathBuf>, OutputError> {
    let study = plan
        .scenario
        .outputs
        .sync_study
        .then(|| crate::study::SyncStudy::new(plan, summaries));
    let configs = by_config(plan, summaries);
    let schemes = campbell(plan);
    let sequential = crate::tables::is_sequential(plan);
    let plots =
        plan.scenario.outputs.plots && !sequential && (schemes || configs.len() <= MAX_PANELS);
    // The %-of-minimal chart of a comparison of sequential searches, when asked for.
    let minimal_chart = match (&plan.scenario.outputs.minimal_chart, sequential) {
        (Some(name), true) => {
            let mut charts = crate::tables::minimal_charts(plan, summaries);
            charts.truncate(MAX_PANELS);
            Some((name.as_str(), charts))
        }
        _ => None,
    };
    let mut md = report(plan, summaries);
    if let Some(reference) = &plan.reference {
        // Published tables describe one configuration: compare the first.
        if let Some(first) = configs.first() {
            md.push_str(&crate::reference::markdown(reference, first));
        }
    }
    if plan.chess.is_some() {
        md.push_str(&crate::chess_report::markdown(plan, summaries, chess));
    }
    if let Some(study) = &study {
        md.push_str(&study.markdown());
        folder.put("sync-overhead.csv", study.csv().as_bytes())?;
    }
    // The plots, linked (and shown) from the report.
    let mut pngs: Vec<(&str, &str)> = Vec::new();
    if plots && schemes {
        pngs.push((
            "speedup.png",
            "Speedup against terminal processors, per algorithm and ordering",
        ));
    } else if plots {
        pngs.push((
            "overheads.png",
            "Overheads against the number of processors",
        ));
        pngs.push(("speedup.png", "Speedup against the number of processors"));
    } else if plan.scenario.outputs.plots && sequential && minimal_chart.is_none() {
        md.push_str(
            "\nNo overheads.png or speedup.png: every run is on one processor (set outputs.minimal_chart for a chart of leaf nodes as % of the minimal tree).\n",
        );
    } else if plan.scenario.outputs.plots && !sequential {
        md.push_str(&format!(
            "\nNo overheads.png or speedup.png: {} tree configurations are more than the {MAX_PANELS} panels a chart holds.\n",
            configs.len()
        ));
    }
    if let Some((name, _)) = &minimal_chart {
        pngs.push((
            name,
            "Leaf nodes as a percentage of the minimal tree, against depth and width",
        ));
    }
    if study.is_some() {
        pngs.push((
            "sync-overhead.png",
            "Synchronization overhead against the estimates",
        ));
    }
    if timeline.is_some() {
        pngs.push(("timeline.png", "The timeline run, per processor"));
    }
    if plan.scenario.outputs.fig7 {
        pngs.push((
            "fig7.png",
            "The paper's Fig. 7: average overheads against f, simulated curves and published points",
        ));
    }
    if !pngs.is_empty() {
        md.push_str("\n## Plots\n\n");
        for (file, what) in &pngs {
            md.push_str(&format!("- [{file}]({file}): {what}\n"));
        }
        for (file, what) in &pngs {
            md.push_str(&format!("\n![{what}]({file})\n"));
        }
    }
    if let Some(p) = provenance {
        md.push_str(&p.markdown());
    }
    folder.put("report.md", md.as_bytes())?;
    if plots && schemes {
        let charts = scheme_speedup_charts(plan, summaries);
        let title = format!(
            "{}: speedup against terminal processors, {} seeds",
            plan.name(),
            plan.seeds.len()
        );
        folder.draw("speedup.png", |p| draw(p, &title, &charts))?;
    } else if plots {
        let charts: Vec<LineChart> = configs.iter().map(|s| overheads_chart(plan, s)).collect();
        let title = format!("{}: overheads", plan.name());
        folder.draw("overheads.png", |p| draw(p, &title, &charts))?;
        let charts: Vec<LineChart> = configs.iter().map(|s| speedup_chart(plan, s)).collect();
        let title = format!("{}: speedup", plan.name());
        folder.draw("speedup.png", |p| draw(p, &title, &charts))?;
    }
    if let Some(study) = &study {
        folder.draw("sync-overhead.png", |p| study.plot(p))?;
    }
    if let Some((name, charts)) = &minimal_chart {
        let title = format!("{}: leaf nodes as % of the minimal tree", plan.name());
        folder.draw(name, |p| draw(p, &title, charts))?;
    }
    if let Some(run) = timeline {
        folder.draw("timeline.png", |p| crate::timeline::plot(plan, run, p))?;
    }
    if plan.scenario.outputs.fig7 {
        let fig = crate::chess_report::fig7(plan, summaries);
        folder.draw("fig7.png", |p| plots::fig7(p, &fig))?;
    }
    let marker = provenance.map_or(String::new(), |p| {
        format!(
            "gtsim {} (git commit {})\nscenario: {} (SHA-256 {})\ncommand: {}\n",
            p.gtsim_version,
            p.git_commit,
            p.scenario.path,
            p.scenario.sha256,
            p.command()
        )
    });
    folder.commit(&marker)
}

/// One chart alone, or several as panels.
fn draw(path: &Path, title: &str, charts: &[LineChart]) -> Result<(), plots::PlotError> {
    match charts {
        [one] => plots::line_chart(path, one),
        many => plots::panels(path, title, many, if many.len() > 4 { 3 } else { 2 }),
    }
}

/// A cost in ms, or in ns when it is under a microsecond (Campbell's time units).
fn ms(t: sim_core::SimTime) -> String {
    let ns = t.as_nanos();
    if ns > 0 && ns < 1000 {
        format!("{ns} ns")
    } else {
        format!("{:.3} ms", ns as f64 * 1e-6)
    }
}

fn describe(plan: &Plan) -> String {
    let c = &plan.costs;
    let link = match plan.link.kind {
        sim_hw::LinkKind::Serial { rate } => format!(
            "serial, {rate} bytes/s per line{}",
            if plan.link.rts_cts { ", RTS/CTS" } else { "" }
        ),
        sim_hw::LinkKind::Ideal => "ideal (no transmission time)".into(),
    };
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    let ptrees: Vec<String> = plan.ptrees.iter().map(|p| p.label()).collect();
    let read = |r: sim_hw::ReadPolicy| match r {
        sim_hw::ReadPolicy::Interrupt => "interrupt-driven".to_string(),
        sim_hw::ReadPolicy::Poll { every } => format!("polling every {every} nodes"),
        sim_hw::ReadPolicy::WhenIdle => "reading when idle".to_string(),
    };
    let levels = if plan.links.levels.len() > 1 {
        " (other lines below the first level: see the scenario)"
    } else {
        ""
    };
    let source = match plan.generator {
        crate::load::Generator::Synthetic => "synthetic trees (weight-based generator)".into(),
        crate::load::Generator::Campbell => "Campbell's gen trees (thesis Appendix 2)".into(),
        crate::load::Generator::Chess => format!(
            "chess positions ({})",
            plan.chess.as_ref().map_or("", |c| c.source.as_str())
        ),
    };
    let costs = if plan.chess.is_some() {
        format!(
            "k = {}, e = {}, q = {}, probe = {}, s = {}, interrupt = {}",
            ms(c.k),
            ms(c.e),
            ms(c.q),
            ms(c.probe),
            ms(c.s),
            ms(c.interrupt)
        )
    } else {
        format!(
            "k = {}, e = {}, s = {}, interrupt = {}",
            ms(c.k),
            ms(c.e),
            ms(c.s),
            ms(c.interrupt)
        )
    };
    format!(
        "{} on {}, {} {}s, processor trees {}, {}.\n\
         Costs: {costs}; links: {}{levels}; {}.",
        algorithms.join(", "),
        source,
        plan.seeds.len(),
        plan.seed_word(),
        ptrees.join(", "),
        if plan.progressive {
            "progressive deepening from depth 1"
        } else {
            "a single iteration"
        },
        link,
        if plan.reads.hosts == plan.reads.boards {
            format!("every processor is {}", read(plan.reads.hosts))
        } else {
            format!(
                "processors with children are {}, the others {}",
                read(plan.reads.hosts),
                read(plan.reads.boards)
            )
        },
    )
}

fn config_title(s: &[Summary]) -> String {
    s.first().map_or(String::new(), |x| {
        // Chess: no generator width or ordering; w is the positions' mean root width.
        if x.ordering == "mvv_lva" {
            return format!(
                "{}, d = {}, chess (mean root width {})",
                x.algorithm, x.depth, x.width
            );
        }
        let algorithm = if x.algorithm == "pmws" {
            String::new()
        } else {
            format!("{}, ", x.algorithm)
        };
        format!(
            "{algorithm}w = {}, d = {}, ordering {}, horizon noise {}",
            x.width, x.depth, x.ordering, x.horizon_noise
        )
    })
}

/// The Markdown report of a plan.
pub fn report(plan: &Plan, summaries: &[Summary]) -> String {
    let mut out = format!(
        "# {name}\n\n{desc}\n\n{describe}\n\n{schemes}## Overheads by processor count\n\n\
         Means over seeds; time is simulated time. Speedup is the mean of per-tree ratios; the search,\n\
         time and communication overheads come from mean leaf counts and mean times, as in the paper's\n\
         tables (eqs. 9, 11; communication = time − search). Synchronization overhead (measured) is the\n\
         idle_sync time of all processors over the uniprocessor leaf time (section VII); the estimate is\n\
         f/2(w+1) (eq. 14) for odd depths and 3f/4(w−1) for even depths. The last two columns split the\n\
         time overhead as the 1985 hardware could not: CPU time on messages and interrupts, and idle\n\
         time, each over the uniprocessor time. Every ± is the standard error over seeds of the per-run\n\
         value (– with a single seed); – marks a value that is undefined.{positions}\n\n",
        name = plan.name(),
        desc = plan.scenario.description.trim(),
        describe = describe(plan),
        positions = if plan.chess.is_some() {
            " For chess, the seeds are the positions (seed n is position n) and w is their mean number of legal root moves."
        } else {
            ""
        },
        schemes = if campbell(plan) {
            scheme_tables(plan, summaries)
                + "\n"
                + &crate::tables::exponent_tables(plan, summaries)
                + "\n"
        } else {
            String::new()
        },
    );
    if crate::tables::is_sequential(plan) {
        // One processor only: the overhead tables would be empty; compare the searches instead.
        out.truncate(
            out.find("## Overheads by processor count")
                .unwrap_or(out.len()),
        );
        out.push_str(&crate::tables::sequential_tables(plan, summaries));
        return out;
    }
    for s in by_config(plan, summaries) {
        out.push_str(&format!(
            "### {}\n\n{}\n",
            config_title(s),
            summary_table(s)
        ));
    }
    out
}

/// Elapsed time and speedup per processor tree (rows) and algorithm (columns), one table per
/// tree configuration with its orderings: the layout of Campbell's tables.
fn scheme_tables(plan: &Plan, summaries: &[Summary]) -> String {
    let mut out = String::from(
        "## Elapsed time and speedup by algorithm, ordering and processor tree\n\n\
         Elapsed simulated time in the scenario's time unit (ns: with Campbell's costs one leaf \
         evaluation is one unit) and speedup over the same algorithm on one processor, means over \
         seeds ± standard error. A processor tree (d,w) has w slaves under each non-terminal \
         processor and d levels; its w^d terminal processors search.\n",
    );
    // Group by (w, d, horizon noise, ordering), keeping plan order.
    let mut groups: Vec<(String, Vec<&Summary>)> = Vec::new();
    for s in summaries {
        let key = format!(
            "w = {}, d = {}, ordering {}, horizon noise {}",
            s.width, s.depth, s.ordering, s.horizon_noise
        );
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(s),
            None => groups.push((key, vec![s])),
        }
    }
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    for (key, rows) in groups {
        out.push_str(&format!(
            "\n### {key}\n\n| processor tree | terminals | processors |"
        ));
        for a in &algorithms {
            out.push_str(&format!(" {a}: elapsed | {a}: speedup |"));
        }
        out.push_str("\n|---|---|---|");
        for _ in &algorithms {
            out.push_str("---|---|");
        }
        out.push('\n');
        for p in &plan.ptrees {
            let label = p.label();
            let first = rows.iter().find(|s| s.ptree == label);
            let Some(first) = first else { continue };
            out.push_str(&format!(
                "| {} | {} | {} |",
                label, first.terminals, first.processors
            ));
            for a in &algorithms {
                match rows.iter().find(|s| s.ptree == label && s.algorithm == *a) {
                    Some(s) => out.push_str(&format!(
                        " {} | {} |",
                        crate::results::fixed(s.elapsed_s * 1e9, 0),
                        crate::results::mean_se(s.speedup, s.speedup_se, 2)
                    )),
                    None => out.push_str(" – | – |"),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// Speedup against terminal processors: one panel per processor-tree depth, one line per
/// algorithm and ordering (the same number of terminal processors can come from trees of
/// different depths, so they are not joined by one line).
pub fn scheme_speedup_charts(plan: &Plan, summaries: &[Summary]) -> Vec<LineChart> {
    let mut depths: Vec<u32> = summaries
        .iter()
        .filter(|s| s.processors > 1)
        .map(|s| s.ptree_depth)
        .collect();
    depths.sort();
    depths.dedup();
    let mut keys: Vec<(String, String)> = Vec::new();
    for s in summaries {
        let k = (s.algorithm.clone(), s.ordering.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let algorithms: Vec<String> = plan
        .algorithms
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    let orderings: Vec<String> = {
        let mut o: Vec<String> = Vec::new();
        for (_, ord) in &keys {
            if !o.contains(ord) {
                o.push(ord.clone());
            }
        }
        o
    };
    // One panel per processor-tree depth and ordering, one line per algorithm, when they fit;
    // otherwise one panel per depth with every algorithm and ordering.
    if orderings.len() > 1 && depths.len() * orderings.len() <= MAX_PANELS {
        let mut charts = Vec::new();
        for &d in &depths {
            for ord in &orderings {
                let mut series_list = Vec::new();
                let mut most = 1.0f64;
                for (i, a) in algorithms.iter().enumerate() {
                    if let Some((line, k)) =
                        speedup_line(summaries, a, ord, d, a, i, LineStyle::Solid)
                    {
                        most = most.max(k);
                        series_list.push(line);
                    }
                }
                series_list.push(series(
                    "ideal",
                    7,
                    LineStyle::Dashed,
                    vec![(1.0, 1.0), (most, most)],
                ));
                charts.push(LineChart {
                    title: format!("processor trees of depth {d}, {ord}"),
                    x_label: "terminal processors".into(),
                    y_label: "speedup".into(),
                    series: series_list,
                    integer_x: true,
                });
            }
        }
        return charts;
    }
    depths
        .iter()
        .map(|&d| {
            let mut series_list = Vec::new();
            let mut most = 1.0f64;
            for (a, ord) in &keys {
                let color = orderings.iter().position(|o| o == ord).unwrap_or(0);
                let style = if algorithms.iter().position(|x| x == a).unwrap_or(0) % 2 == 0 {
                    LineStyle::Solid
                } else {
                    LineStyle::Dashed
                };
                let label = format!("{a}, {ord}");
                if let Some((line, k)) = speedup_line(summaries, a, ord, d, &label, color, style) {
                    most = most.max(k);
                    series_list.push(line);
                }
            }
            series_list.push(series(
                "ideal (speedup = terminal processors)",
                7,
                LineStyle::Dashed,
                vec![(1.0, 1.0), (most, most)],
            ));
            LineChart {
                title: format!(
                    "{}: processor trees of depth {d}, {} seeds",
                    plan.name(),
                    plan.seeds.len()
                ),
                x_label: "terminal processors".into(),
                y_label: "speedup".into(),
                series: series_list,
                integer_x: true,
            }
        })
        .collect()
}

/// Speedup against terminal processors of algorithm `a` with ordering `ord` on the processor
/// trees of depth `d`, with ± standard errors, and the most terminal processors it reached;
/// None when it did not run there.
fn speedup_line(
    summaries: &[Summary],
    a: &str,
    ord: &str,
    d: u32,
    label: &str,
    color: usize,
    style: LineStyle,
) -> Option<(Series, f64)> {
    let mut pts: Vec<&Summary> = summaries
        .iter()
        .filter(|s| s.algorithm == a && s.ordering == ord && s.ptree_depth == d && s.processors > 1)
        .collect();
    pts.sort_by_key(|s| s.terminals);
    let most = pts.iter().map(|s| s.terminals as f64).reduce(f64::max)?;
    let mut line = series(
        label,
        color,
        style,
        pts.iter()
            .map(|s| (s.terminals as f64, s.speedup))
            .collect(),
    );
    line.errors = Some(pts.iter().map(|s| s.speedup_se).collect());
    Some((line, most))
}

/// "scenario: w = …, d = …, ordering …, horizon noise …, N seeds".
fn chart_title(plan: &Plan, s: &[Summary]) -> String {
    format!(
        "{}: {}, {} {}s",
        plan.name(),
        config_title(s),
        plan.seeds.len(),
        plan.seed_word()
    )
}

fn points(summaries: &[Summary], y: impl Fn(&Summary) -> f64) -> Vec<(f64, f64)> {
    summaries.iter().map(|s| (s.fanout as f64, y(s))).collect()
}

fn series(label: &str, color: usize, style: LineStyle, points: Vec<(f64, f64)>) -> Series {
    Series {
        label: label.into(),
        points,
        style,
        color,
        errors: None,
        markers: true,
    }
}

fn sorted(summaries: &[Summary]) -> Vec<Summary> {
    let mut s = summaries.to_vec();
    s.sort_by_key(|s| s.fanout);
    s
}

/// Overheads in % against f, like the paper's Fig. 7, with the model's estimate beside the
/// measured synchronization overhead (drawn from f = 2: with one processor nothing waits).
pub fn overheads_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let s = sorted(summaries);
    let pct = |f: fn(&Summary) -> f64| points(&s, move |x| 100.0 * f(x));
    let mut sync = series(
        "synchronization overhead (measured)",
        3,
        LineStyle::Solid,
        pct(|x| x.sync_overhead),
    );
    sync.errors = Some(s.iter().map(|x| 100.0 * x.sync_overhead_se).collect());
    let odd = s.first().is_some_and(|x| x.depth % 2 == 1);
    let estimate = if odd {
        "f/2(w+1) estimate (eq. 14)"
    } else {
        "3f/4(w-1) estimate (even depth)"
    };
    let from2: Vec<Summary> = s.iter().filter(|x| x.fanout >= 2).cloned().collect();
    let mut series = vec![
        series(
            "search overhead",
            0,
            LineStyle::Solid,
            pct(|x| x.search_overhead),
        ),
        series(
            "time overhead",
            1,
            LineStyle::Solid,
            pct(|x| x.time_overhead),
        ),
        series(
            "communication overhead",
            2,
            LineStyle::Solid,
            pct(|x| x.comm_overhead),
        ),
        sync,
    ];
    // The estimate exists from f = 2 on: no legend entry for an empty line (fanout: [1]).
    if !from2.is_empty() {
        series.push(crate::output::series(
            estimate,
            3,
            LineStyle::Dashed,
            points(&from2, |x| 100.0 * x.sync_estimate),
        ));
    }
    LineChart {
        title: chart_title(plan, &s),
        x_label: "processors f".into(),
        y_label: "overhead (%)".into(),
        series,
        integer_x: true,
    }
}

/// Speedup against f with the ideal line.
pub fn speedup_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let s = sorted(summaries);
    let mut measured = series(
        "speedup (mean over seeds)",
        0,
        LineStyle::Solid,
        points(&s, |x| x.speedup),
    );
    measured.errors = Some(s.iter().map(|x| x.speedup_se).collect());
    LineChart {
        title: chart_title(plan, &s),
        x_label: "processors f".into(),
        y_label: "speedup".into(),
        series: vec![
            measured,
            series(
                "ideal (speedup = f)",
                7,
                LineStyle::Dashed,
                points(&s, |x| x.fanout as f64),
            ),
        ],
        integer_x: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gtsim-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn two_folders_are_exchanged_atomically_on_linux() {
        let d = scratch("exchange");
        for (n, f) in [("a", "1"), ("b", "2")] {
            std::fs::create_dir(d.join(n)).unwrap();
            std::fs::write(d.join(n).join(f), n).unwrap();
        }
        // The temporary folder's file system supports it (tmpfs, ext4, xfs, btrfs do).
        assert!(exchange(&d.join("a"), &d.join("b")).unwrap());
        assert!(d.join("a/2").exists() && d.join("b/1").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_fallback_swaps_by_two_renames_and_a_kill_between_them_is_repaired() {
        let d = scratch("fallback");
        let (new, target) = (d.join(".out.gtsim-staging-1"), d.join("out"));
        for (dir, file) in [(&new, "new"), (&target, "old")] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join(file), file).unwrap();
            std::fs::write(dir.join(MARKER), "").unwrap();
        }
        let old = swap_by_renames(&new, &target).unwrap();
        assert!(target.join("new").exists() && old.join("old").exists());
        // A kill between the two renames: the target is missing and the previous folder is
        // at -old- under a dead process's id; the next run puts it back.
        std::fs::remove_dir_all(&target).unwrap();
        let dead = u32::MAX - 1;
        let aside = d.join(format!(".out.gtsim-old-{dead}"));
        std::fs::rename(&old, &aside).unwrap();
        clean_leftovers(&d, "out", &target);
        assert!(target.join("old").exists() && !aside.exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_folder_fails_at_every_step_and_leaves_the_previous_one() {
        let d = scratch("steps");
        let target = d.join("out");
        let write = |fail_at: Option<usize>| -> Result<Vec<PathBuf>, OutputError> {
            let mut f = OutputFolder::prepare(&target)?;
            let mut n = 0;
            f.set_hook(Box::new(move |_| {
                n += 1;
                if Some(n - 1) == fail_at {
                    Err(io::Error::other("injected"))
                } else {
                    Ok(())
                }
            }));
            f.put("a.txt", b"new a")?;
            f.put("b.txt", b"new b")?;
            f.commit("")
        };
        let mut f = OutputFolder::prepare(&target).unwrap();
        f.put("a.txt", b"old a").unwrap();
        f.commit("").unwrap();
        // Steps: a.txt, b.txt, swap (then cleanup, which cannot fail the run).
        for n in 0..3 {
            assert!(write(Some(n)).is_err());
            assert_eq!(std::fs::read(target.join("a.txt")).unwrap(), b"old a");
            assert!(!target.join("b.txt").exists());
            assert_eq!(
                std::fs::read_dir(&d).unwrap().count(),
                1,
                "step {n}: leftovers"
            );
        }
        write(None).unwrap();
        assert_eq!(std::fs::read(target.join("b.txt")).unwrap(), b"new b");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "leftovers");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
