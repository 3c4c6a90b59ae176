//! An output folder written whole beside its target and swapped in (see [`OutputFolder`]), and
//! single files written through a temporary sibling ([`write_atomic`]).

use super::{io_at, refused, OutputError};
use std::io;
use std::io::Write;
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

pub(super) fn atomic_tmp(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} is not a file path", path.display())))?
        .to_string_lossy()
        .into_owned();
    Ok(path.with_file_name(format!(".{name}.tmp")))
}

/// The file in every gtsim output folder that says so: gtsim replaces a folder that holds it
/// (and only the files it lists), never another one.
pub const MARKER: &str = ".gtsim-output";

/// The file in the folder of a `vary` run that says so: gtsim writes into such a folder again.
/// It lists, each under its heading, the combinations' `folders:`, the run's own `files:`
/// (results, index, charts) and last the `side:` files: charts and comparisons `gtsim plot` and
/// `gtsim compare` wrote there since (named `plot-…`/`compare…`), which the next `vary` run into
/// the folder deletes.
pub const VARY_MARKER: &str = ".gtsim-vary";

/// Whether a file beside a run's is one `gtsim plot` or `gtsim compare` may write over and a
/// run may delete: a plain name `plot-…` or `compare…`.
pub fn is_side_name(name: &str) -> bool {
    !name.contains(['/', '\\']) && (name.starts_with("plot-") || name.starts_with("compare"))
}

/// The names listed under `heading` (`files`, `folders`, `side`) in a marker's text: the
/// indented lines after the line `heading:`.
fn section(text: &str, heading: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| *l != format!("{heading}:"));
    lines.next();
    lines
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

/// The names marker `marker` of `folder` lists under `heading` (none if it is missing).
fn listed(folder: &Path, marker: &str, heading: &str) -> Vec<String> {
    std::fs::read_to_string(folder.join(marker))
        .map(|m| section(&m, heading))
        .unwrap_or_default()
}

/// The text of a vary folder's marker: its combinations' folders, the run's own files, and the
/// side files still there.
pub fn vary_marker_text(folders: &[String], files: &[String], side: &[String]) -> String {
    let list = |names: &[String]| names.iter().map(|f| format!("  {f}\n")).collect::<String>();
    format!(
        "gtsim vary output: gtsim writes into this folder again\nfolders:\n{}files:\n{}side:\n{}",
        list(folders),
        list(files),
        list(side)
    )
}

/// The combinations' folders the marker of the vary folder `folder` lists (none if it has no
/// marker, or one of a run that has not listed them yet): plain names only.
pub fn vary_folders(folder: &Path) -> Vec<String> {
    listed(folder, VARY_MARKER, "folders")
        .into_iter()
        .filter(|n| is_plain_name(n))
        .collect()
}

/// Lists `planned` (the combinations' folders a `vary` run into `folder` is about to write)
/// in the folder's marker beside those it lists already, before the run writes them: a run
/// stopped half-way leaves every folder it may have written listed, old and new, so that the
/// next run into the folder knows them all. The folders listed before (see [`vary_folders`]).
pub fn list_vary_folders(folder: &Path, planned: &[String]) -> io::Result<Vec<String>> {
    let old = vary_folders(folder);
    let mut all = old.clone();
    all.extend(planned.iter().filter(|p| !old.contains(p)).cloned());
    let files = listed(folder, VARY_MARKER, "files");
    let path = folder.join(VARY_MARKER);
    write_atomic(
        &path,
        vary_marker_text(&all, &files, &side_files(folder)).as_bytes(),
    )
    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(old)
}

/// A name of one entry of a folder: not empty, no separator, not `.` or `..`.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != ".."
}

/// Deletes the gtsim output folder `path` (a combination of an earlier `vary` run that the
/// new run no longer has), on the rule a run replacing it follows: only a folder holding its
/// marker and nothing but the files the marker lists; the hidden remains of a run into it that
/// died (its staging folder, a previous folder set aside) go first, as a run into it would
/// delete them. Ok(true) if deleted; Ok(false) if there is no folder there (missing, or a file
/// or a link a hand-edited marker names); Err(why) if it is kept (it is not a gtsim output
/// folder, or holds other files).
pub fn remove_output_folder(path: &Path) -> Result<bool, String> {
    if let (Some(parent), Some(name)) = (path.parent(), path.file_name()) {
        clean_leftovers(parent, &name.to_string_lossy(), path);
    }
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("{}: {e}", path.display())),
        Ok(m) if !m.is_dir() => return Ok(false),
        Ok(_) => {}
    }
    if !path.join(MARKER).is_file() {
        return Err(format!(
            "{}: has no {MARKER} file, so it is not a gtsim output folder",
            path.display()
        ));
    }
    check_replaceable(path).map_err(|e| e.to_string())?;
    std::fs::remove_dir_all(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(true)
}

/// The side files the vary folder `folder`'s marker lists that are still there (a chart
/// `gtsim plot` wrote while a vary run was writing the folder is kept listed by it).
pub fn side_files(folder: &Path) -> Vec<String> {
    listed(folder, VARY_MARKER, "side")
        .into_iter()
        .filter(|n| is_side_name(n) && folder.join(n).is_file())
        .collect()
}

/// Makes `file` (a name in `folder`, e.g. a chart `gtsim plot` wrote there) part of the gtsim
/// output folder `folder`: listed in its marker, so that the next run into the folder replaces
/// it with the rest instead of refusing the folder. In the folder of a `vary` run a file named
/// `plot-…` or `compare…` is listed under `side:` in `.gtsim-vary`, and the next `vary` run into
/// the folder deletes it (see [`remove_side_files`]); a file of another name there stays the
/// user's (a vary run leaves it alone). Ok(None) if the file is not adopted, else which kind
/// of folder it is listed in (it may have been already).
pub fn adopt(folder: &Path, file: &str) -> io::Result<Option<Adopted>> {
    let (marker, heading, into) = if folder.join(MARKER).is_file() {
        (MARKER, "files", Adopted::Output)
    } else if folder.join(VARY_MARKER).is_file() && is_side_name(file) {
        (VARY_MARKER, "side", Adopted::Vary)
    } else {
        return Ok(None);
    };
    let path = folder.join(marker);
    let mut text = std::fs::read_to_string(&path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    if section(&text, heading).iter().any(|l| l == file) {
        return Ok(Some(into));
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
    // The list adopted into is the marker's last (an output folder's `files:`, a vary folder's
    // `side:`); a vary marker written before side files existed gets its heading.
    if !text.lines().any(|l| l == format!("{heading}:")) {
        text.push_str(&format!("{heading}:\n"));
    }
    text.push_str(&format!("  {file}\n"));
    write_atomic(&path, text.as_bytes())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(Some(into))
}

/// Which folder [`adopt`] made a file part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adopted {
    /// A gtsim output folder: the next run into it replaces the file with the folder.
    Output,
    /// A `vary` run's folder: the next `vary` run into it deletes the file.
    Vary,
}

/// The folder a file `out` is written into (`.` for a bare name).
pub fn folder_of(out: &Path) -> PathBuf {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Deletes the charts and comparisons the marker of the `vary` folder `folder` lists under
/// `side:` (written there by `gtsim plot` or `gtsim compare` after an earlier run, and stale
/// once the folder is run again). Only plain names of files `plot-…` or `compare…` are ever
/// deleted; a name already gone is skipped. The names deleted.
pub fn remove_side_files(folder: &Path) -> io::Result<Vec<String>> {
    let mut removed = Vec::new();
    for name in side_files(folder) {
        let path = folder.join(&name);
        std::fs::remove_file(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        removed.push(name);
    }
    Ok(removed)
}

/// Checks the file `gtsim plot` or `gtsim compare` is about to write at `out` (a file beside
/// the results, not a run's): it must not be one of `inputs` (the results.csv files it reads)
/// or a folder's marker, and it must not replace a file a gtsim output folder's or vary folder's
/// marker lists as the run's, unless it is a chart or comparison written there before (named
/// `plot-…` or `compare…`): the run's own files (results, report, charts) are never overwritten
/// by another command. Err: why not.
pub fn check_side_output(out: &Path, inputs: &[&Path]) -> Result<(), String> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{}: needs a file name", out.display()))?;
    let folder = folder_of(out);
    let full = std::fs::canonicalize(&folder).ok().map(|f| f.join(&name));
    let full = full.map(|f| std::fs::canonicalize(&f).unwrap_or(f));
    for input in inputs {
        if std::fs::canonicalize(input)
            .ok()
            .is_some_and(|i| Some(&i) == full.as_ref())
        {
            return Err(format!(
                "{}: is the results being read: write elsewhere (--out)",
                out.display()
            ));
        }
    }
    if name == MARKER || name == VARY_MARKER {
        return Err(format!(
            "{}: is the marker of a gtsim output folder: write elsewhere",
            out.display()
        ));
    }
    if out.is_dir() {
        return Err(format!("{}: is a folder: give a file name", out.display()));
    }
    let side = is_side_name(&name);
    let vary = folder.join(VARY_MARKER).is_file();
    // A vary folder's results and index, listed or not (a marker of an older gtsim lists none).
    // (A vary run's own chart is refused even when named plot-…: only what `plot` and
    // `compare` wrote is under `side:`.)
    let in_output = listed(&folder, MARKER, "files").contains(&name);
    let owned = (in_output && !side)
        || (vary
            && (listed(&folder, VARY_MARKER, "files").contains(&name)
                || ["results.csv", "report.md"].contains(&name.as_str())));
    if owned {
        return Err(format!(
            "{}: is a file of the gtsim {} folder {} (written by its run): name the file plot-….png or compare….md, or write it elsewhere",
            out.display(),
            if vary { "vary" } else { "output" },
            folder.display()
        ));
    }
    if !folder.is_dir() {
        return Err(format!(
            "{}: the folder {} does not exist",
            out.display(),
            folder.display()
        ));
    }
    // gtsim overwrites no file it did not write: an existing file must be a chart or comparison
    // of `plot` or `compare` (tagged, or listed in a gtsim folder's marker). A symbolic link is
    // the user's too, even one whose target is gone.
    if std::fs::symlink_metadata(out).is_ok() {
        let listed_here = in_output || listed(&folder, VARY_MARKER, "side").contains(&name);
        if !listed_here && !written_by_plot_or_compare(out) {
            return Err(format!(
                "{}: exists and is not a comparison of gtsim compare or a chart tagged by gtsim plot (charts of gtsim run, and of older gtsim versions, carry no tag): gtsim overwrites no other file; choose another --out path (or remove the file)",
                out.display()
            ));
        }
    }
    Ok(())
}

/// The text `gtsim plot` tags its charts with (PNG `tEXt` keyword `Software`).
pub const PLOT_TAG: &str = "gtsim plot";

/// Whether the file at `path` is what a command writing there would replace: for a `.png`
/// name, a chart `gtsim plot` wrote (its PNG tag); for another (a comparison's `.md`), a
/// comparison `gtsim compare` wrote (its opening lines). Neither command writes over the
/// other's kind.
fn written_by_plot_or_compare(path: &Path) -> bool {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return plots::png_text(path, "Software").as_deref() == Some(PLOT_TAG);
    }
    // The opening lines are enough (a comparison can be long).
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head));
    read.is_ok() && crate::compare::is_comparison(&String::from_utf8_lossy(&head))
}

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
/// deleted by the next run into the same target, as are the remains of a previous folder whose
/// deletion a kill interrupted. Only folders holding the marker, or holding nothing but files
/// named as gtsim's own, are ever deleted (the rule is [`clean_leftovers`]'s).
///
/// The target may be missing, an empty folder, or a gtsim output folder holding nothing but the
/// files its marker lists; anything else is refused before the sweep runs.
pub struct OutputFolder {
    pub(super) target: PathBuf,
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

    /// The hidden folder the files are written into until the commit.
    pub fn staging(&self) -> &Path {
        &self.staging
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
    pub(super) fn staged(&self, name: &str) -> PathBuf {
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

/// Refuses a target that gtsim must not replace: anything but a missing path, an empty folder
/// or a gtsim output folder holding only the files its marker lists.
fn check_replaceable(target: &Path) -> Result<(), OutputError> {
    let meta = match std::fs::symlink_metadata(target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_at(target)(e)),
        Ok(m) => m,
    };
    const HOW: &str = "gtsim replaces its output folder whole and never deletes other files; \
                       choose another output folder, or move the folder away yourself";
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
        Err(_) if target.join(VARY_MARKER).is_file() => {
            return Err(refused(
                target,
                format!("exists and is the folder of a vary run (it has a {VARY_MARKER} file), which only a vary run replaces: {HOW}"),
            ))
        }
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

/// The names of the files gtsim writes in an output folder (its staging copy included): the
/// marker, results.csv, results.json and its spool of runs, report.md, sync-overhead.csv, and
/// PNGs (the charts, `outputs.minimal_chart`'s name, which must end in `.png`, and the plots'
/// temporary `.NAME.png.PID.tmp.png`).
fn written_by_gtsim(file: &str) -> bool {
    matches!(
        file,
        MARKER
            | "results.csv"
            | "results.json"
            | super::rows::RUNS_SPOOL
            | "report.md"
            | "sync-overhead.csv"
    ) || file.ends_with(".png")
}

/// Whether the folder at `path` holds only what a gtsim output folder holds, or part of it:
/// nothing but regular files (no folder, no symbolic link) named as gtsim names its files
/// ([`written_by_gtsim`]). An empty folder qualifies (a folder just created, or one whose
/// deletion removed every file).
fn only_gtsim_files(path: &Path) -> bool {
    let Ok(dir) = std::fs::read_dir(path) else {
        return false;
    };
    for e in dir {
        let Ok(e) = e else { return false };
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        if !regular || !e.file_name().to_str().is_some_and(written_by_gtsim) {
            return false;
        }
    }
    true
}

/// Cleans what runs into the same target left when they died: their staging folders, and a
/// previous folder moved aside by the two-rename fallback (put back if the target is missing).
///
/// The rule: a sibling of the target is gtsim's, and is deleted, only when all of these hold:
/// - its name is `.NAME.gtsim-staging-PID` or `.NAME.gtsim-old-PID` (NAME the target's name,
///   PID a decimal process id);
/// - that process is gone (and is not this one);
/// - it is a folder (not a symbolic link) and either holds the marker [`MARKER`], or holds
///   nothing but regular files named as gtsim names the files of an output folder (see
///   [`only_gtsim_files`]; an empty folder included): what is left of a folder whose deletion
///   was interrupted (the marker may go first), or of a staging folder killed before its
///   marker was written.
///
/// Anything else by those names (another file, a subfolder, a link, a live process's folder)
/// is left alone: it might be the user's. A `-old-` folder that still holds the marker is put
/// back when the target is missing (the previous complete output); without the marker it is
/// part of a deletion and is deleted like a staging folder.
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
        if !matches!(kind, "old" | "staging")
            || pid.is_none_or(alive)
            || !e.file_type().is_ok_and(|t| t.is_dir())
        {
            continue;
        }
        let marked = path.join(MARKER).is_file();
        if !marked && !only_gtsim_files(&path) {
            continue;
        }
        match kind {
            "old" if marked && std::fs::symlink_metadata(target).is_err() => {
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
    fn leftovers_of_an_interrupted_deletion_are_removed_and_nothing_else() {
        let d = scratch("partial");
        let target = d.join("out");
        // Processes that are gone (no such pid) and one that is alive (init).
        let dead = |n: u32| u32::MAX - n;
        let leftover = |kind: &str, pid: u32, files: &[&str]| {
            let p = d.join(format!(".out.gtsim-{kind}-{pid}"));
            std::fs::create_dir(&p).unwrap();
            for f in files {
                std::fs::write(p.join(f), "x").unwrap();
            }
            p
        };
        // The previous folder, at the staging path after the exchange, its deletion killed
        // after the marker went; a -old- one likewise (target missing: not put back, it is
        // incomplete); a staging folder killed before its marker was written.
        let gone = [
            leftover(
                "staging",
                dead(1),
                &["results.csv", "report.md", "speedup.png"],
            ),
            leftover("old", dead(2), &["results.json", ".runs.json.part"]),
            leftover("staging", dead(3), &[]),
            leftover("staging", dead(4), &[".speedup.png.77.tmp.png", "mine.png"]),
        ];
        // Might be the user's: a file gtsim does not write, a subfolder, a symbolic link, a
        // live process's folder, a name gtsim does not use.
        let kept = [
            leftover("staging", dead(5), &["results.csv", "notes.txt"]),
            {
                let p = leftover("staging", dead(6), &["results.csv"]);
                std::fs::create_dir(p.join("sub")).unwrap();
                p
            },
            leftover("staging", 1, &["results.csv"]),
            leftover("other", dead(7), &["results.csv"]),
            {
                let p = d.join(".out.gtsim-staging-x");
                std::fs::create_dir(&p).unwrap();
                p
            },
        ];
        #[cfg(unix)]
        let link = {
            let l = d.join(format!(".out.gtsim-staging-{}", dead(9)));
            std::os::unix::fs::symlink(&kept[0], &l).unwrap();
            l
        };
        let mut f = OutputFolder::prepare(&target).unwrap();
        f.put("a.txt", b"a").unwrap();
        f.commit("").unwrap();
        for p in &gone {
            assert!(!p.exists(), "{} left", p.display());
        }
        for p in &kept {
            assert!(p.exists(), "{} deleted", p.display());
        }
        #[cfg(unix)]
        assert!(link.symlink_metadata().is_ok() && kept[0].join("notes.txt").exists());
        assert!(target.join("a.txt").exists());
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
