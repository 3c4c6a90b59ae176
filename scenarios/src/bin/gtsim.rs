//! `gtsim`: run a scenario file and write its results, or check one.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use scenarios::output::VARY_MARKER;
use scenarios::Recording;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Most worker threads `--threads` accepts.
const MAX_THREADS: usize = 256;

/// gtsim: a discrete-event simulator of multiprocessor game-tree-search hardware.
#[derive(Parser)]
#[command(
    name = "gtsim",
    about = "gtsim: simulate parallel game-tree search schemes on multiprocessor hardware (processor trees, networks, buses, shared memory) from a scenario file"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and write results.csv, results.json, report.md and PNG plots.
    Run {
        /// The scenario file (RON), e.g. scenarios/pmws-uniform.ron.
        file: PathBuf,
        /// Output folder [default: out/<scenario name>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Worker threads for the independent runs of the sweep (0 = one per core; at most 256).
        #[arg(long, default_value_t = 0, value_parser = parse_threads)]
        threads: usize,
        /// Print nothing but errors (no table, no progress bar).
        #[arg(long)]
        quiet: bool,
        /// Also write one run (outputs.timeline, or the largest fanout on the first seed) as a
        /// Chrome trace (JSON), for Perfetto or chrome://tracing.
        #[arg(long, value_name = "FILE.json")]
        trace: Option<PathBuf>,
        /// Turn lookahead batching (and optimistic execution) off: every search step is an engine
        /// event of its own. The results are the same but for the `events`, `engine_rollbacks`
        /// and `engine_replayed_steps` columns (a check of the engine, and slower).
        #[arg(long)]
        step_by_step: bool,
        /// Turn optimistic execution off: batch a search a message can reach only up to the
        /// earliest time a message could reach it, never past it and back. The results are the
        /// same but for the `events`, `engine_rollbacks` and `engine_replayed_steps` columns
        /// (a check of the engine, and slower where messages can arrive at any moment).
        /// --step-by-step turns it off already: the two are not given together.
        #[arg(long, conflicts_with = "step_by_step")]
        conservative: bool,
        /// Set a field of the scenario for this run, by its path: PATH=VALUE, the value written
        /// as in the file, quoted for the shell where it has brackets or spaces (e.g.
        /// --set 'hardware.costs.s=Ms(4)' --set 'sweep.fanout=[4]'). Repeatable, each field
        /// once; recorded in the provenance. A field the scenario's `vary` varies takes the value
        /// set and is not varied.
        #[arg(long = "set", value_name = "PATH=VALUE", value_parser = parse_set)]
        sets: Vec<scenarios::overrides::Assignment>,
        /// Continue an interrupted run of the same command: the runs it finished (kept in
        /// `.NAME.gtsim-part` beside the output folder) are not simulated again, and the output
        /// is the one an uninterrupted run writes, byte for byte.
        #[arg(long)]
        resume: bool,
        /// Run one shard of the sweep: with --shard i/n, the runs i, i + n, i + 2n, … of the
        /// plan (0 ≤ i < n), written to --out (required) as shard.jsonl; `gtsim merge` makes the
        /// shards' folders into the output of the whole sweep. For sweeps spread over machines
        /// (a Slurm array, xargs -P).
        #[arg(long, value_name = "i/n", value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
    },
    /// Merge the folders of the shards of one sweep (`gtsim run FILE --shard i/n`) into its
    /// output folder: results, report and charts byte for byte those of one whole run.
    ///
    /// Every shard 0..n-1 must be given once, made by this gtsim build from the same scenario,
    /// input files, --set fields and mode (--step-by-step, --conservative); the scenario is read
    /// again from the path the shards name.
    Merge {
        /// The output folder to write (as `gtsim run --out`).
        out: PathBuf,
        /// The shards' folders.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Worker threads (for the timeline run, if the scenario draws one).
        #[arg(long, default_value_t = 0, value_parser = parse_threads)]
        threads: usize,
        /// Print nothing but errors.
        #[arg(long)]
        quiet: bool,
    },
    /// Compare two results: the change of speedup and each overhead per configuration in both.
    ///
    /// Prints the comparison (Markdown) and writes it to --out; `*` marks a change beyond
    /// noise (two standard errors; runs paired by seed when both ran the same trees).
    Compare {
        /// The first output folder (or its results.csv): A.
        a: PathBuf,
        /// The second output folder (or its results.csv): B.
        b: PathBuf,
        /// Where to write the comparison (a path relative to the current folder, ending in
        /// .md). An existing file there is overwritten only if it is a comparison gtsim wrote.
        #[arg(long, default_value = "compare.md")]
        out: PathBuf,
    },
    /// Chart any column of results.csv against another, one line per value of a third.
    ///
    /// Each point is the mean over the rows with that x (± standard error), e.g.
    /// `gtsim plot out/campbell-1981 --x processors --y speedup --by algorithm --where
    /// ordering=random`. A warning (and
    /// the chart's title) names the configuration columns a point pools (rows that differ in
    /// more than their tree): split them with --by or pick one with --where.
    Plot {
        /// The output folder (or its results.csv).
        results: PathBuf,
        /// The column on the x axis.
        #[arg(long)]
        x: String,
        /// The column on the y axis.
        #[arg(long)]
        y: String,
        /// One line per value of this column [default: one line].
        #[arg(long)]
        by: Option<String>,
        /// Only rows with this value in this column: COLUMN=VALUE, e.g. --where ordering=random.
        /// A number matches the same number however written (hardware.link.rate=240.0 keeps the
        /// rows of 240); anything else matches as text. Repeatable: values of one column are
        /// alternatives (--where seed=1 --where seed=2), different columns all apply.
        #[arg(long = "where", value_name = "COLUMN=VALUE")]
        filters: Vec<String>,
        /// Draw the x axis on a base-2 scale (processor counts 1, 2, 4, … evenly spaced), as
        /// report.md's charts draw them, labelled "(log2 scale)" and ticked at the data's own x
        /// too (1, 2, 3, 4, 5, 6); every x must be above 0.
        #[arg(long)]
        log2_x: bool,
        /// The PNG to write [default: RESULTS/plot-Y-by-X.png, with -per-BY and -where-COLUMN=VALUE
        /// for --by and each --where, so that charts of other lines or rows do not replace it]. In a gtsim output folder it
        /// becomes part of the folder: the next run into the folder replaces it. An existing
        /// file there is overwritten only if it is a chart `gtsim plot` wrote (tagged in the PNG).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// List the machines shipped with gtsim, for a scenario's `machine: "NAME"`.
    Machines,
    /// List the algorithms a scenario can name, as a Markdown table.
    ///
    /// From the scheme catalogue: how to write each in `search.algorithm` or `sweep.algorithm`,
    /// what it is (its names in results in parentheses) and where it runs.
    Algorithms,
    /// Check a scenario file without running it: report errors, or what it would run.
    Check {
        /// The scenario file (RON).
        file: PathBuf,
        /// Set a field first, as `run --set` does.
        #[arg(long = "set", value_name = "PATH=VALUE", value_parser = parse_set)]
        sets: Vec<scenarios::overrides::Assignment>,
        /// Worker threads the time estimate assumes (0 = one per core; at most 256)
        #[arg(long, default_value_t = 0, value_parser = parse_threads)]
        threads: usize,
    },
}

/// Why gtsim stopped, and its exit status (the README's "Exit status" lists them).
enum Failure {
    /// Options that cannot go together (exit 2, as clap's usage errors).
    Usage(String),
    /// Bad input: a scenario, positions file, reference table or output path gtsim refuses
    /// (exit 3).
    Input(String),
    /// An output could not be written (exit 4).
    Output(String),
    /// A run failed: a scheme returned a wrong value, the machine deadlocked or a run panicked
    /// (a bug in gtsim or a scheme), or its simulated time overflowed (costs too large for that
    /// run, which the loader's bounds cannot foresee) (exit 5).
    Run(String),
}

impl Failure {
    fn status(&self) -> u8 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Input(_) => 3,
            Failure::Output(_) => 4,
            Failure::Run(_) => 5,
        }
    }
    fn message(&self) -> &str {
        match self {
            Failure::Usage(m) | Failure::Input(m) | Failure::Output(m) | Failure::Run(m) => m,
        }
    }
    /// This failure, saying that the `KEPT` finished runs of `runs` wait in the part file. A
    /// failed run fails the same way on every try (the simulation is deterministic), so after
    /// one --resume could only repeat it, and a corrected scenario is another sweep: its part
    /// file is removed instead, so that the corrected run is not refused for it.
    fn kept(self, part: &std::path::Path, runs: usize) -> Self {
        if let Failure::Run(m) = self {
            let removed = match std::fs::remove_file(part) {
                Ok(()) => format!("{} is removed", part.display()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => "nothing was kept".into(),
                Err(e) => format!(
                    "{} could not be removed ({e}): delete it before running again",
                    part.display()
                ),
            };
            return Failure::Run(format!(
                "{m}\n(a run fails the same way on every try, so --resume could not go past it: {removed})"
            ));
        }
        let note = |m: String| {
            format!(
                "{m}\n(the {} finished runs of {runs} are kept in {}: the same command with --resume continues from there)",
                KEPT.load(std::sync::atomic::Ordering::SeqCst),
                part.display()
            )
        };
        match self {
            Failure::Usage(m) => Failure::Usage(note(m)),
            Failure::Input(m) => Failure::Input(note(m)),
            Failure::Output(m) => Failure::Output(note(m)),
            Failure::Run(m) => Failure::Run(note(m)),
        }
    }
    /// This failure, in the `vary` combination `label`.
    fn within(self, label: &str) -> Self {
        let say = |m: String| format!("with {label}: {m}");
        match self {
            Failure::Usage(m) => Failure::Usage(say(m)),
            Failure::Input(m) => Failure::Input(say(m)),
            Failure::Output(m) => Failure::Output(say(m)),
            Failure::Run(m) => Failure::Run(say(m)),
        }
    }
    /// An output error: a refused path is input, a failed run a run failure, the rest output.
    fn of_output(e: scenarios::OutputError) -> Self {
        match e {
            scenarios::OutputError::Refused { .. } => Failure::Input(e.to_string()),
            scenarios::OutputError::Run(_) => Failure::Run(e.to_string()),
            _ => Failure::Output(e.to_string()),
        }
    }
}

/// What an interrupt (Ctrl-C) leaves: set once the output folder is prepared.
static INTERRUPT_NOTE: std::sync::Mutex<Option<Note>> = std::sync::Mutex::new(None);

/// The runs of the current sweep kept in its part file.
static KEPT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A wall time as the completion line gives it: milliseconds under a second ("0.0 s" said
/// nothing of a sweep that takes 50 ms), else seconds to a tenth.
fn wall_time(t: std::time::Duration) -> String {
    if t < std::time::Duration::from_secs(1) {
        format!("{} ms", t.as_millis())
    } else {
        format!("{:.1} s", t.as_secs_f64())
    }
}

/// This process's command line as a run records it: --resume changes nothing in the output
/// (it is the output of the run it continues), so it is left out.
fn recorded_command_line() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .filter(|a| a != "--resume")
        .collect()
}

/// Says where the run is, for the line an interrupt prints.
fn set_note(now: Note) {
    *lock_note() = Some(now);
}

/// The note, locked (a poisoned lock still holds a note: a panic ends the process anyway).
fn lock_note() -> std::sync::MutexGuard<'static, Option<Note>> {
    INTERRUPT_NOTE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `make` (which creates the staging folder, and whatever else the note names) with the
/// note locked, and sets the note it returns: an interrupt meanwhile waits for the note, and so
/// never finds a staging folder that its note does not name (it would say "nothing was
/// written" and leave the folder behind). On an error, the note stays as it was.
fn noted<T>(make: impl FnOnce() -> Result<(T, Note), Failure>) -> Result<T, Failure> {
    let mut note = lock_note();
    let (made, now) = make()?;
    *note = Some(now);
    Ok(made)
}

/// Where a run is, for the line an interrupt prints.
enum Note {
    /// Simulating into `folder` (its files written into `staging` until the commit), the
    /// finished runs kept in `part`.
    Running {
        folder: PathBuf,
        staging: PathBuf,
        part: PathBuf,
        runs: usize,
    },
    /// Running a shard into `folder` (written into `staging` at the end): a shard keeps no
    /// runs for `--resume`.
    Shard { folder: PathBuf, staging: PathBuf },
    /// The runs are done and `folder`'s files are being written and swapped into place: an
    /// interrupt leaves it as it was or whole, and removes nothing (the staging folder may hold
    /// the previous folder by then).
    Finishing { folder: PathBuf },
    /// `folder` is written whole.
    Written { folder: PathBuf },
}

impl Note {
    fn says(&self) -> String {
        match self {
            Note::Running {
                folder, part, runs, ..
            } => format!(
                "{} of {runs} runs were kept in {}: the same command with --resume continues from there; {} is as it was",
                KEPT.load(std::sync::atomic::Ordering::SeqCst),
                part.display(),
                folder.display()
            ),
            Note::Shard { folder, .. } => format!(
                "{} is as it was; a shard keeps no finished runs: run the same command again",
                folder.display()
            ),
            Note::Finishing { folder } => format!(
                "{} was being written: it is as it was or written whole (a hidden staging folder beside it is removed by the next run into it)",
                folder.display()
            ),
            Note::Written { folder } => format!("{} was written whole", folder.display()),
        }
    }
}

fn main() -> ExitCode {
    let version: &'static str =
        Box::leak(scenarios::provenance::build_description().into_boxed_str());
    let matches = Cli::command().version(version).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // Ctrl-C: one line saying what was kept, then exit 130 (128 + SIGINT), as shells expect.
    // The note stays locked until the process exits, so the run cannot move on (to
    // `Note::Finishing`, swapping the staging folder into place) while its staging folder is
    // being removed, nor end with an error of its own meanwhile.
    let _ = ctrlc::set_handler(|| {
        let note = lock_note();
        let (says, staging) = match note.as_ref() {
            Some(n @ (Note::Running { staging, .. } | Note::Shard { staging, .. })) => {
                (n.says(), Some(staging))
            }
            Some(n @ (Note::Finishing { .. } | Note::Written { .. })) => (n.says(), None),
            None => ("nothing was written".into(), None),
        };
        // The half-written new folder goes (the part file keeps the finished runs).
        if let Some(staging) = staging {
            let _ = std::fs::remove_dir_all(staging);
        }
        eprintln!("\ngtsim: interrupted: {says}");
        std::process::exit(130);
    });
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // An interrupt being handled ends the process first, with its own line.
            let _note = lock_note();
            eprintln!("gtsim: error: {}", failure.message());
            ExitCode::from(failure.status())
        }
    }
}

/// Prints to stdout; a closed pipe (`gtsim algorithms | head -1`) ends gtsim quietly with
/// success, since everything it had to do is done by the time it prints.
fn say(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("gtsim: cannot write to the standard output: {e}");
        std::process::exit(4);
    }
}

macro_rules! say {
    ($($t:tt)*) => { say(format_args!($($t)*)) };
}

macro_rules! sayln {
    ($($t:tt)*) => { say(format_args!("{}\n", format_args!($($t)*))) };
}

/// A file `plot` or `compare` wrote into a gtsim output folder becomes part of it (listed in
/// its marker), so that the next run into the folder replaces it rather than refusing the
/// folder; in a `vary` run's folder the next `vary` run deletes it. What to tell the user, if
/// it was adopted.
fn adopt_side_output(out: &Path) -> Result<Option<String>, Failure> {
    use scenarios::output::Adopted;
    let folder = scenarios::output::folder_of(out);
    let Some(name) = out.file_name() else {
        return Ok(None);
    };
    let adopted = scenarios::output::adopt(&folder, &name.to_string_lossy())
        .map_err(|e| Failure::Output(format!("{}: {e}", folder.display())))?;
    Ok(adopted.map(|into| match into {
        Adopted::Output => format!(
            "(part of the gtsim output folder {}: the next run into it replaces it with the folder)",
            folder.display()
        ),
        Adopted::Vary => format!(
            "(beside the results of the vary folder {}: the next vary run into it deletes it)",
            folder.display()
        ),
    }))
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Merge {
            out,
            shards,
            threads,
            quiet,
        } => merge(out, shards, threads, quiet),
        Command::Compare { a, b, out } => {
            // (A folder is refused below, as a folder.)
            if !out.is_dir()
                && out
                    .extension()
                    .is_none_or(|e| !e.eq_ignore_ascii_case("md"))
            {
                return Err(Failure::Usage(format!(
                    "--out {}: the comparison is Markdown: give a file name ending in .md",
                    out.display()
                )));
            }
            let ta = scenarios::compare::Table::read(&a).map_err(Failure::Input)?;
            let tb = scenarios::compare::Table::read(&b).map_err(Failure::Input)?;
            let md = scenarios::compare::compare(&ta, &tb).map_err(Failure::Input)?;
            scenarios::output::check_side_output(&out, &[&ta.path, &tb.path])
                .map_err(Failure::Input)?;
            scenarios::write_atomic(&out, md.as_bytes())
                .map_err(|e| Failure::Output(format!("{}: {e}", out.display())))?;
            let adopted = adopt_side_output(&out)?;
            say!("{md}");
            sayln!("\nwrote {}", out.display());
            if let Some(said) = adopted {
                sayln!("{said}");
            }
            Ok(())
        }
        Command::Plot {
            results,
            x,
            y,
            by,
            filters,
            log2_x,
            out,
        } => {
            if let Some(f) = filters.iter().find(|f| !f.contains('=')) {
                return Err(Failure::Usage(format!(
                    "--where {f}: expected COLUMN=VALUE, e.g. ordering=random"
                )));
            }
            let t = scenarios::compare::Table::read(&results)
                .and_then(|t| t.filtered(&filters))
                .map_err(Failure::Input)?;
            let (chart, pooled) =
                scenarios::compare::plot(&t, &x, &y, by.as_deref(), &filters, log2_x)
                    .map_err(Failure::Input)?;
            let out = out.unwrap_or_else(|| {
                let folder = t
                    .path
                    .parent()
                    .map_or(PathBuf::from("."), |p| p.to_path_buf());
                folder.join(scenarios::compare::plot_file_name(
                    &x,
                    &y,
                    by.as_deref(),
                    &filters,
                ))
            });
            if out
                .extension()
                .is_none_or(|e| !e.eq_ignore_ascii_case("png"))
            {
                return Err(Failure::Usage(format!(
                    "--out {}: the chart is a PNG: give a file name ending in .png",
                    out.display()
                )));
            }
            scenarios::output::check_side_output(&out, &[&t.path]).map_err(Failure::Input)?;
            if !pooled.is_empty() {
                eprintln!(
                    "gtsim: warning: a point of this chart pools rows that differ in {}: split them with --by COLUMN or keep one value with --where COLUMN=VALUE",
                    pooled.join(", ")
                );
            }
            plots::line_chart(&out, &chart)
                .and_then(|()| plots::tag_png(&out, "Software", scenarios::output::PLOT_TAG))
                .map_err(|e| Failure::Output(format!("{}: {e}", out.display())))?;
            let adopted = adopt_side_output(&out)?;
            sayln!("wrote {}", out.display());
            if let Some(said) = adopted {
                sayln!("{said}");
            }
            Ok(())
        }
        Command::Machines => {
            for (name, text) in scenarios::load::machine::SHIPPED {
                sayln!("{name}: {}", scenarios::load::machine::description(text));
            }
            Ok(())
        }
        Command::Algorithms => {
            say!("{}", scenarios::catalogue::markdown_table());
            Ok(())
        }
        Command::Check {
            file,
            threads,
            sets,
        } => {
            sets_once(&sets)?;
            let variants = scenarios::load::load_variants(&file, &sets)
                .map_err(|e| Failure::Input(e.to_string()))?;
            let mut total = 0.0;
            for v in &variants {
                if !v.assignments.is_empty() {
                    sayln!("with {}:", v.label());
                }
                total += check_plan(&file, &v.plan, threads);
            }
            if variants.len() > 1 {
                sayln!(
                    "all {} combinations: estimated time {} on {} thread{}",
                    variants.len(),
                    human_time(total),
                    cores(threads),
                    if cores(threads) == 1 { "" } else { "s" }
                );
            }
            warn_if_long(total, variants.len() > 1);
            Ok(())
        }
        Command::Run {
            file,
            out,
            threads,
            quiet,
            trace,
            step_by_step,
            conservative,
            sets,
            resume,
            shard,
        } => {
            // Options that cannot go together, before the scenario is read.
            sets_once(&sets)?;
            if shard.is_some() {
                let why = if out.is_none() {
                    Some("--shard needs --out: each shard writes a folder of its own")
                } else if resume {
                    Some("--shard and --resume: run the shard again")
                } else if trace.is_some() {
                    Some("--shard and --trace: trace the run with a whole (unsharded) command")
                } else {
                    None
                };
                if let Some(why) = why {
                    return Err(Failure::Usage(why.into()));
                }
            }
            let variants = scenarios::load::load_variants(&file, &sets)
                .map_err(|e| Failure::Input(e.to_string()))?;
            if shard.is_some() && (variants.len() > 1 || !variants[0].assignments.is_empty()) {
                return Err(Failure::Usage("--shard with a vary section: shard each combination, picked by setting every varied field with --set PATH=VALUE".into()));
            }
            let opts = RunOpts {
                threads,
                quiet,
                trace,
                step_by_step,
                conservative,
                sets,
                resume,
                shard,
                merged: None,
            };
            if variants.len() == 1 && variants[0].assignments.is_empty() {
                let plan = variants.into_iter().next().expect("one").plan;
                let default_out = out.is_none();
                // One combination of a vary section, picked with --set: by default into the
                // folder the vary run gives it (`out/NAME` is the vary run's own).
                let picked: Vec<scenarios::overrides::Assignment> = plan
                    .scenario
                    .vary
                    .0
                    .iter()
                    .filter_map(|(path, _)| opts.sets.iter().find(|a| a.dotted() == *path))
                    .cloned()
                    .collect();
                let dir = match out {
                    Some(dir) => dir,
                    None if picked.is_empty() => PathBuf::from("out").join(plan.name()),
                    None => {
                        let top = PathBuf::from("out").join(plan.name());
                        prepare_vary_folder(&top, true)?;
                        top.join(folder_name(&picked))
                    }
                };
                run_plan(plan, &dir, default_out, &opts, &[])?;
                return Ok(());
            }
            run_variants(variants, out, &opts)
        }
    }
}

/// What `run` was asked besides the scenario.
struct RunOpts {
    threads: usize,
    quiet: bool,
    trace: Option<PathBuf>,
    step_by_step: bool,
    conservative: bool,
    sets: Vec<scenarios::overrides::Assignment>,
    resume: bool,
    /// `--shard i/n`.
    shard: Option<(usize, usize)>,
    /// `gtsim merge`: every run of the sweep, from its shards, and the command line recorded.
    merged: Option<(Vec<scenarios::runner::Finished>, Vec<String>)>,
}

/// `--shard i/n`: 0 ≤ i < n ≤ 1,000,000.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected i/n with 0 <= i < n <= 1000000 (e.g. 0/4), not {s:?}");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    // Digits only: no sign, space or other number syntax that `parse` would take.
    let number = |t: &str| -> Result<usize, String> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        t.parse().map_err(|_| bad())
    };
    let (i, n) = (number(i)?, number(n)?);
    if n == 0 || i >= n || n > 1_000_000 {
        return Err(bad());
    }
    Ok((i, n))
}

/// The command line of a whole run that `shard`'s made: without `--shard`, with `out` as
/// its `--out`.
fn unsharded_command(shard: &[String], out: &std::path::Path) -> Vec<String> {
    let mut cmd = Vec::new();
    let mut args = shard.iter();
    while let Some(a) = args.next() {
        if a == "--shard" || a == "--out" {
            args.next();
            if a == "--out" {
                cmd.push("--out".into());
                cmd.push(out.display().to_string());
            }
        } else if a.starts_with("--shard=") {
        } else if a.starts_with("--out=") {
            cmd.push(format!("--out={}", out.display()));
        } else {
            cmd.push(a.clone());
        }
    }
    cmd
}

/// `gtsim merge OUT SHARDS…`.
fn merge(out: PathBuf, shards: Vec<PathBuf>, threads: usize, quiet: bool) -> Result<(), Failure> {
    let file_of = |dir: &PathBuf| dir.join("shard.jsonl");
    // Every folder given is a shard's, before anything is read.
    for dir in &shards {
        let why = match std::fs::metadata(dir) {
            Err(e) => Some(e.to_string()),
            Ok(m) if !m.is_dir() => Some("not a folder".into()),
            Ok(_) if !file_of(dir).is_file() => Some(
                "not a shard's folder: it holds no shard.jsonl (the folder `gtsim run FILE --shard i/n --out DIR` writes)"
                    .into(),
            ),
            Ok(_) => None,
        };
        if let Some(why) = why {
            return Err(Failure::Input(format!("{}: {why}", dir.display())));
        }
    }
    // The merged folder replaces OUT whole: OUT must not be one of the shards it reads.
    let canon = |p: &PathBuf| std::fs::canonicalize(p).ok();
    if let Some(shard) = shards
        .iter()
        .find(|s| canon(s).is_some_and(|s| Some(s) == canon(&out)))
    {
        return Err(Failure::Usage(format!(
            "merge {}: the output folder is the shard {}, which the merged folder would replace: merge into another folder",
            out.display(),
            shard.display()
        )));
    }
    let first = scenarios::part::shard_header(&file_of(&shards[0]))
        .map_err(|e| Failure::Input(e.to_string()))?;
    let sets: Vec<scenarios::overrides::Assignment> = first
        .sets
        .iter()
        .map(|a| scenarios::overrides::Assignment::parse(a))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::Input(format!("{}: {e}", file_of(&shards[0]).display())))?;
    let scenario = PathBuf::from(&first.scenario);
    if !scenario.exists() {
        return Err(Failure::Input(format!(
            "{}: the shards ran the scenario {}, which is not found from here: merge reads it again, so run merge in the folder the shards were run in",
            file_of(&shards[0]).display(),
            scenario.display()
        )));
    }
    let variants = scenarios::load::load_variants(&scenario, &sets)
        .map_err(|e| Failure::Input(e.to_string()))?;
    if variants.len() != 1 {
        return Err(Failure::Input(format!(
            "{}: the scenario now has a vary section: it is not the sweep the shards ran",
            scenario.display()
        )));
    }
    let mut plan = variants.into_iter().next().expect("one").plan;
    plan.batching = !first.step_by_step;
    plan.optimistic = !first.conservative;
    let figures = scenarios::catalogue::plan_columns(&plan);
    let mut provenance = scenarios::provenance::Provenance::new(&plan, Vec::new())
        .map_err(|e| Failure::Input(e.to_string()))?;
    provenance.fields_set = sets.iter().map(|a| a.to_string()).collect();
    let fingerprint = sweep_fingerprint(&plan, &provenance);
    let total = scenarios::runner::job_count(&plan);
    // Every shard's header first: a shard of another sweep is named as such before its runs are
    // read (whose figures may not be this sweep's).
    let mut seen = vec![false; first.of];
    let mut paths = Vec::new();
    // The command the merged folder records: shard 0's (the shards' commands differ in their
    // options, `--threads`, `--quiet`), whatever order the shards are listed in.
    let mut command = first.command.clone();
    for dir in &shards {
        let path = file_of(dir);
        let header =
            scenarios::part::shard_header(&path).map_err(|e| Failure::Input(e.to_string()))?;
        if header.fingerprint != fingerprint || header.runs != total {
            return Err(Failure::Input(format!(
                "{}: {}",
                path.display(),
                sweep_difference(&header, &first, &provenance)
            )));
        }
        if header.of != first.of || header.shard >= first.of {
            return Err(Failure::Input(format!(
                "{}: shard {}/{} beside shards of {}",
                path.display(),
                header.shard,
                header.of,
                first.of
            )));
        }
        if std::mem::replace(&mut seen[header.shard], true) {
            return Err(Failure::Input(format!(
                "{}: shard {}/{} is given twice",
                path.display(),
                header.shard,
                header.of
            )));
        }
        if header.shard == 0 {
            command = header.command;
        }
        paths.push(path);
    }
    let missing: Vec<String> = (0..first.of)
        .filter(|&i| !seen[i])
        .map(|i| format!("{i}/{}", first.of))
        .collect();
    if !missing.is_empty() {
        let (word, verb) = if missing.len() == 1 {
            ("shard", "is")
        } else {
            ("shards", "are")
        };
        return Err(Failure::Input(format!(
            "{word} {} {verb} missing: merge needs every shard",
            missing.join(", ")
        )));
    }
    let mut runs: Vec<Option<scenarios::runner::Finished>> = (0..total).map(|_| None).collect();
    for path in &paths {
        let (_, shard_runs) = scenarios::part::read_shard(path, &figures)
            .map_err(|e| Failure::Input(e.to_string()))?;
        scenarios::runner::check_kept_runs(&plan, shard_runs.iter().map(|(i, f)| (*i, f)))
            .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
        for (i, f) in shard_runs {
            runs[i] = Some(f);
        }
    }
    let runs: Vec<scenarios::runner::Finished> = runs
        .into_iter()
        .collect::<Option<_>>()
        .ok_or_else(|| Failure::Input("the shards do not hold every run".into()))?;
    let opts = RunOpts {
        threads,
        quiet,
        trace: None,
        step_by_step: first.step_by_step,
        conservative: first.conservative,
        sets,
        resume: false,
        shard: None,
        merged: Some((runs, unsharded_command(&command, &out))),
    };
    run_plan(plan, &out, false, &opts, &[])?;
    Ok(())
}

/// The files a sweep read, each as `PATH SHA-256` (a shard header's `inputs`).
fn input_words(provenance: &scenarios::provenance::Provenance) -> Vec<String> {
    provenance
        .input_files()
        .map(|f| format!("{} {}", f.path, f.sha256))
        .collect()
}

/// How the sweep of a shard with `header` differs from the one that `first` (the first shard
/// given) and the files as they are now (`provenance`) make (`scenarios::part::difference`).
fn sweep_difference(
    header: &scenarios::part::ShardHeader,
    first: &scenarios::part::ShardHeader,
    provenance: &scenarios::provenance::Provenance,
) -> String {
    // The first shard's sweep, with this build and the files as they are now.
    let expected = scenarios::part::SweepWords {
        build: scenarios::provenance::build_identity().into(),
        inputs: input_words(provenance),
        ..first.sweep()
    };
    let otherwise = format!(" from {}'s now", first.scenario);
    scenarios::part::difference(
        &header.sweep(),
        &expected,
        &scenarios::part::Terms {
            recorded: "a shard",
            expected: "the first shard",
            written: "the shard ran",
            builds: " (shards merge when built from the same commit, without uncommitted changes, by the same compiler, or by copies of one executable)",
            otherwise: &otherwise,
        },
    )
}

/// The sweep of `plan` (its modes set) by this build, in words, as a part file records it.
fn sweep_words(
    plan: &scenarios::Plan,
    provenance: &scenarios::provenance::Provenance,
) -> scenarios::part::SweepWords {
    scenarios::part::SweepWords {
        scenario: provenance.scenario.path.clone(),
        sets: provenance.fields_set.clone(),
        step_by_step: !plan.batching,
        conservative: !plan.optimistic,
        build: scenarios::provenance::build_identity().into(),
        inputs: input_words(provenance),
    }
}

/// The fingerprint of a sweep of `plan` by this build (see `scenarios::part::fingerprint`).
fn sweep_fingerprint(
    plan: &scenarios::Plan,
    provenance: &scenarios::provenance::Provenance,
) -> String {
    let inputs: Vec<&str> = provenance
        .input_files()
        .map(|f| f.sha256.as_str())
        .chain(provenance.fields_set.iter().map(String::as_str))
        .collect();
    scenarios::part::fingerprint(plan, scenarios::provenance::build_identity(), &inputs)
}

/// `check`'s report of one plan; returns its estimated wall time in seconds (the caller warns
/// of a long run, once for all of a `vary` section's combinations).
fn check_plan(file: &std::path::Path, plan: &scenarios::Plan, threads: usize) -> f64 {
    for w in &plan.warnings {
        eprintln!("gtsim: warning: {w}");
    }
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    let ptrees: Vec<String> = plan.ptrees.iter().map(|p| p.label()).collect();
    sayln!(
        "{}: ok — scenario '{}': {} tree configuration{} × algorithms [{}] × processor trees [{}] × {} = {} simulated runs (uniprocessor baselines included)",
        file.display(),
        plan.name(),
        plan.configs.len(),
        if plan.configs.len() == 1 { "" } else { "s" },
        algorithms.join(", "),
        ptrees.join(", "),
        plan.seed_count(),
        plan.run_count()
    );
    let leaves = plan.minimal_leaves_total();
    let cores = cores(threads);
    let secs = plan.estimated_seconds(cores);
    let open = plan
        .algorithms
        .iter()
        .any(|a| a.entry().open != scenarios::catalogue::Open::None);
    let parallel = plan.ptrees.iter().any(|p| !p.is_uniprocessor())
        && plan.algorithms.iter().any(|a| a.entry().events_milli > 0);
    sayln!(
        "work: at least {leaves:.3e} leaves (the minimal trees of every run{}); estimated time {} on {cores} thread{} at {} M leaves/s per core and {:.0} µs per run{}{} (a rough guide, not a bound: searches visit more than the minimal tree{})",
        if plan.progressive { ", every iteration" } else { "" },
        human_time(secs),
        if cores == 1 { "" } else { "s" },
        plan.leaves_per_second_per_core() / 1e6,
        scenarios::load::SECONDS_PER_RUN_PER_CORE * 1e6,
        if open {
            format!(
                ", plus {} ns per leaf and per state an OPEN list can hold (w^⌈p/2⌉ for p plies: the SSS* family's upkeep)",
                scenarios::load::OPEN_SECONDS_PER_LEAF_STATE * 1e9
            )
        } else {
            String::new()
        },
        if parallel {
            format!(
                ", plus {:.0} ns per event of the messages, about c · p · L^0.7 a run (p processors, L the minimal tree's leaves, c the scheme's own, calibrated on the shipped scenarios)",
                scenarios::load::SECONDS_PER_EVENT_PER_CORE * 1e9
            )
        } else {
            String::new()
        },
        if parallel {
            ", and a scheme's messages vary with the machine and the tree"
        } else {
            ""
        }
    );
    secs
}

/// Runs one plan into the output folder `dir`; `varied` are the fields a `vary` section set
/// for it. Returns the plan's summaries.
fn run_plan(
    mut plan: scenarios::Plan,
    dir: &std::path::Path,
    default_out: bool,
    opts: &RunOpts,
    varied: &[scenarios::overrides::Assignment],
) -> Result<Vec<scenarios::Summary>, Failure> {
    let RunOpts {
        threads,
        quiet,
        ref trace,
        step_by_step,
        conservative,
        ref sets,
        resume,
        shard,
        ref merged,
    } = *opts;
    let dir = dir.to_path_buf();
    plan.batching = !step_by_step;
    plan.optimistic = !conservative;
    // --quiet hides the warnings; report.md lists them.
    if !quiet {
        for w in &plan.warnings {
            eprintln!("gtsim: warning: {w}");
        }
    }
    // A vary run warns once, of all its combinations.
    if !quiet && varied.is_empty() {
        warn_if_long(plan.estimated_seconds(cores(threads)), false);
    }
    // Every output path is checked before anything is simulated.
    if let Some(path) = &trace {
        scenarios::output::check_trace_path(path, &plan, &dir).map_err(Failure::of_output)?;
    }
    if default_out {
        // The default out/<name>: create out/ (only it) when missing.
        if let Some(parent) = dir.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure::Output(format!("{}: {e}", parent.display())))?;
        }
    }
    // A merge records the command of the whole run its shards make up.
    let command_line: Vec<String> = match merged {
        Some((_, command)) => command.clone(),
        None => recorded_command_line(),
    };
    let mut provenance = scenarios::provenance::Provenance::new(&plan, command_line.clone())
        .map_err(|e| Failure::Input(e.to_string()))?;
    provenance.fields_set = sets.iter().chain(varied).map(|a| a.to_string()).collect();
    let (fingerprint, mut done) = kept_runs(&plan, &dir, &provenance, resume, quiet)?;
    if let Some((runs, _)) = merged {
        done = runs.clone();
    }
    if let Some((i, n)) = shard {
        return run_shard(
            &plan,
            &dir,
            opts,
            (i, n),
            &provenance,
            fingerprint,
            command_line,
        );
    }
    let runs = scenarios::runner::job_count(&plan);
    let part_path = scenarios::part::path_for(&dir);
    let (mut folder, mut part) = noted(|| {
        let folder = scenarios::OutputFolder::prepare(&dir).map_err(Failure::of_output)?;
        let part = scenarios::part::PartFile::create(
            &part_path,
            &fingerprint,
            runs,
            &sweep_words(&plan, &provenance),
            &done,
        )
        .map_err(|e| Failure::Output(e.to_string()))?;
        KEPT.store(done.len(), std::sync::atomic::Ordering::SeqCst);
        let note = Note::Running {
            folder: dir.clone(),
            staging: folder.staging().to_path_buf(),
            part: part_path.clone(),
            runs,
        };
        Ok(((folder, part), note))
    })?;
    // A failure from here on keeps the finished runs for --resume, and says so.
    let kept = |f: Failure| f.kept(&part_path, runs);
    if let Some(hook) = test_hook() {
        folder.set_hook(hook);
    }
    let kill_after = std::env::var("GTSIM_TEST_KILL_AFTER_RUNS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    if kill_after == Some(done.len()) {
        eprintln!("gtsim: test kill after {} runs", done.len());
        std::process::exit(86);
    }
    let started = std::time::Instant::now();
    // Measured in estimated work, so that the ETA weighs deep runs more than shallow ones.
    let bar = progress_bar(quiet);
    let mut rows = scenarios::output::RowWriter::new(&mut folder, &plan)
        .map_err(|e| kept(Failure::of_output(e)))?;
    let json = dir.join("results.json");
    // A chess plan's records, for its report (nothing for other plans).
    let mut chess = scenarios::chess_report::ChessRows::default();
    let summaries = scenarios::runner::run_plan_resumable(
        &plan,
        threads,
        done,
        &mut |i, finished| {
            part.append(i, finished)
                .map_err(|source| scenarios::OutputError::Io {
                    path: part_path.clone(),
                    source,
                })?;
            KEPT.store(i + 1, std::sync::atomic::Ordering::SeqCst);
            if kill_after == Some(i + 1) {
                // Failure injection for the tests of --resume: a kill after that many runs.
                eprintln!("gtsim: test kill after {} runs", i + 1);
                std::process::exit(86);
            }
            Ok(())
        },
        &|p| {
            bar.set_length(p.total_work);
            bar.set_position(p.work);
            bar.set_message(format!("{}/{} runs", p.runs, p.total_runs));
        },
        &mut |row| {
            chess.keep(&plan, &row);
            rows.row(row).map_err(|e| scenarios::OutputError::Io {
                path: json.clone(),
                source: e,
            })
        },
    )
    .map_err(|e| kept(Failure::of_output(e)))?;
    rows.finish(&folder, &plan, &summaries, Some(&provenance))
        .map_err(|e| kept(Failure::of_output(e)))?;
    bar.finish_and_clear();
    // The run drawn as timeline.png and/or written as a trace, recorded in full: always
    // one of the sweep's runs (never one it skips).
    let all = Recording {
        intervals: true,
        messages: true,
    };
    let recorded = match scenarios::runner::recorded_run(&plan, trace.is_some()) {
        Some(key) => Some(
            scenarios::runner::simulate_run(&plan, key, all)
                .map_err(|e| kept(Failure::Run(e.to_string())))?,
        ),
        None => None,
    };
    let timeline = plan.timeline.and(recorded.as_ref());
    set_note(Note::Finishing {
        folder: dir.clone(),
    });
    let mut files = scenarios::output::finish_outputs(
        &plan,
        &summaries,
        &chess,
        timeline,
        Some(&provenance),
        folder,
    )
    .map_err(|e| kept(Failure::of_output(e)))?;
    // The output is whole: its part file has served (a `vary` run removes its combinations'
    // part files when every combination is done).
    if varied.is_empty() {
        remove_part(&part_path)?;
    }
    set_note(Note::Written {
        folder: dir.clone(),
    });
    if let (Some(path), Some(run)) = (&trace, &recorded) {
        let spec = &plan.configs[run.config];
        let algorithm = plan.algorithms[run.algorithm];
        let title = format!(
            "{}: {algorithm} on {}, seed {}, w = {}, d = {}",
            plan.name(),
            run.ptree.machine_words(algorithm.on_pool()),
            run.seed,
            spec.width,
            spec.depth
        );
        let json = scenarios::trace::chrome_trace(&run.stats, &title, algorithm.on_pool());
        scenarios::write_atomic(path, json.as_bytes())
            .map_err(|e| Failure::Output(format!("{}: {e}", path.display())))?;
        files.push(path.clone());
    }
    // (configuration, algorithm) pairs that ran; a comparison of sequential searches is
    // read in its report's tables, not as overheads per processor count.
    let ran = (0..plan.configs.len())
        .flat_map(|c| (0..plan.algorithms.len()).map(move |a| (c, a)))
        .filter(|&(c, a)| plan.applies(c, a))
        .count();
    let groups = if scenarios::tables::is_sequential(&plan) {
        ran.max(5)
    } else {
        ran
    };
    if !quiet && groups > 4 {
        sayln!(
            "{ran} configurations (trees × algorithms): the tables are in {}",
            dir.join("report.md").display()
        );
    }
    if !quiet {
        for s in scenarios::results::by_config(&summaries)
            .into_iter()
            .filter(|_| groups <= 4)
        {
            if groups > 1 {
                let x = &s[0];
                sayln!(
                    "{}, {}:",
                    x.algorithm,
                    scenarios::output::report::config_words(x)
                );
            }
            say!(
                "{}",
                scenarios::results::summary_table(s, scenarios::results::TimeUnit::of(&plan))
            );
        }
        sayln!(
            "\n{} runs in {}; wrote {} files to {}",
            plan.run_count(),
            wall_time(started.elapsed()),
            files.len(),
            dir.display()
        );
        for f in &files {
            sayln!("  {}", f.display());
        }
    }
    Ok(summaries)
}

/// Runs shard `(i, n)` of `plan` into the folder `dir` (shard.jsonl). Returns no summaries (a
/// shard has none of its own).
fn run_shard(
    plan: &scenarios::Plan,
    dir: &std::path::Path,
    opts: &RunOpts,
    (i, n): (usize, usize),
    provenance: &scenarios::provenance::Provenance,
    fingerprint: String,
    command: Vec<String>,
) -> Result<Vec<scenarios::Summary>, Failure> {
    let total = scenarios::runner::job_count(plan);
    let indices: Vec<usize> = (i..total).step_by(n).collect();
    let mut folder = noted(|| {
        let folder = scenarios::OutputFolder::prepare(dir).map_err(Failure::of_output)?;
        let note = Note::Shard {
            folder: dir.to_path_buf(),
            staging: folder.staging().to_path_buf(),
        };
        Ok((folder, note))
    })?;
    let started = std::time::Instant::now();
    let bar = progress_bar(opts.quiet);
    bar.set_length(indices.len() as u64);
    let finished = scenarios::runner::run_jobs(plan, opts.threads, &indices, &|k| {
        bar.set_position(k as u64)
    })
    .map_err(|e| Failure::Run(e.to_string()))?;
    bar.finish_and_clear();
    let header = scenarios::part::ShardHeader {
        gtsim_shard: scenarios::part::LAYOUT,
        fingerprint,
        runs: total,
        shard: i,
        of: n,
        scenario: provenance.scenario.path.clone(),
        sets: opts.sets.iter().map(|a| a.to_string()).collect(),
        step_by_step: opts.step_by_step,
        conservative: opts.conservative,
        command,
        build: scenarios::provenance::build_identity().into(),
        inputs: input_words(provenance),
        check: String::new(),
    };
    let runs: Vec<(usize, scenarios::runner::Finished)> =
        indices.into_iter().zip(finished).collect();
    folder
        .put(
            "shard.jsonl",
            scenarios::part::shard_text(&header, &runs).as_bytes(),
        )
        .map_err(Failure::of_output)?;
    set_note(Note::Finishing {
        folder: dir.to_path_buf(),
    });
    let files = folder
        .commit(&format!(
            "gtsim {}\nshard {i}/{n} of scenario {} (SHA-256 {})\n",
            provenance.build(),
            provenance.scenario.path,
            provenance.scenario.sha256
        ))
        .map_err(Failure::of_output)?;
    set_note(Note::Written {
        folder: dir.to_path_buf(),
    });
    if !opts.quiet {
        sayln!(
            "shard {i}/{n}: {} of the sweep's {total} runs in {}; `gtsim merge OUT` with every shard's folder writes the whole output",
            runs.len(),
            wall_time(started.elapsed())
        );
        for f in &files {
            sayln!("  {}", f.display());
        }
    }
    Ok(Vec::new())
}

/// The fingerprint of a run into `dir` and the finished runs it continues from: with `resume`,
/// those an earlier run of the same sweep kept in its part file (none when there is no part
/// file); without, a part file there is refused, so that an interrupted run's work is never
/// discarded unasked.
fn kept_runs(
    plan: &scenarios::Plan,
    dir: &std::path::Path,
    provenance: &scenarios::provenance::Provenance,
    resume: bool,
    quiet: bool,
) -> Result<(String, Vec<scenarios::runner::Finished>), Failure> {
    let path = scenarios::part::path_for(dir);
    let runs = scenarios::runner::job_count(plan);
    let figures = scenarios::catalogue::plan_columns(plan);
    let fingerprint = sweep_fingerprint(plan, provenance);
    let sweep = sweep_words(plan, provenance);
    let done = match scenarios::part::read(&path, &fingerprint, runs, &sweep, &figures) {
        Ok(Some(done)) if resume => {
            scenarios::runner::check_kept_runs(plan, done.iter().enumerate())
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
            if !quiet {
                eprintln!(
                    "gtsim: resuming: {} of {runs} runs were done ({})",
                    done.len(),
                    path.display()
                );
            }
            done
        }
        Ok(Some(done)) => {
            return Err(Failure::Input(format!(
                "{}: an interrupted run of this sweep kept {} of its {runs} runs here: add --resume to continue it, or delete the file to start over",
                path.display(),
                done.len()
            )))
        }
        Ok(None) => {
            if resume && !quiet {
                eprintln!(
                    "gtsim: warning: --resume: no interrupted run to continue ({} does not exist); running from the start",
                    path.display()
                );
            }
            Vec::new()
        }
        // A folder there is none of gtsim's (it writes a file), with --resume or without.
        Err(_) if path.is_dir() => {
            return Err(Failure::Input(format!(
                "{}: a folder, not a part file gtsim wrote (gtsim keeps an interrupted run's finished runs in a file of that name beside the output folder): remove or rename it",
                path.display()
            )))
        }
        Err(e) if resume => return Err(Failure::Input(e.to_string())),
        Err(e) => {
            return Err(Failure::Input(format!(
                "{e} (an interrupted run left it; gtsim will not overwrite it)"
            )))
        }
    };
    Ok((fingerprint, done))
}

/// Removes a part file whose output is written.
fn remove_part(path: &std::path::Path) -> Result<(), Failure> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Failure::Output(format!("{}: {e}", path.display()))),
    }
}

/// Failure injection for the tests of the output folder (never set in normal use):
/// GTSIM_TEST_FAIL_AT=n makes the n-th step of writing the output folder (0-based: each file,
/// then "swap", then "cleanup") fail with an I/O error; GTSIM_TEST_KILL_AT=n ends the process
/// at that step at once, as a kill would (no cleanup runs).
fn test_hook() -> Option<scenarios::output::Hook> {
    let at = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
    };
    let (fail, kill) = (at("GTSIM_TEST_FAIL_AT"), at("GTSIM_TEST_KILL_AT"));
    if fail.is_none() && kill.is_none() {
        return None;
    }
    let mut n = 0;
    Some(Box::new(move |step: &str| {
        let this = n;
        n += 1;
        if kill == Some(this) {
            eprintln!("gtsim: test kill before {step}");
            std::process::exit(86);
        }
        if fail == Some(this) {
            return Err(std::io::Error::other(format!(
                "injected failure before {step}"
            )));
        }
        Ok(())
    }))
}

/// `--set PATH=VALUE`.
fn parse_set(s: &str) -> Result<scenarios::overrides::Assignment, String> {
    scenarios::overrides::Assignment::parse(s).map_err(|e| e.to_string())
}

/// Runs every combination of a `vary` section: each into its own output folder `DIR/PATH=VALUE`
/// (a complete output, as a run without `vary` writes), then `DIR/results.csv` with every
/// combination's rows and a column per varied field, and `DIR/report.md` linking them.
fn run_variants(
    variants: Vec<scenarios::load::Variant>,
    out: Option<PathBuf>,
    opts: &RunOpts,
) -> Result<(), Failure> {
    if opts.trace.is_some() {
        return Err(Failure::Usage(
            "--trace writes one run: with a vary section, pick one combination by setting every varied field with --set PATH=VALUE".into(),
        ));
    }
    let name = variants[0].plan.name().to_string();
    // What made the whole folder (each combination's report.md has its own, with its seeds and
    // the fields it set): read before the runs, as a single run reads its provenance.
    let provenance =
        scenarios::provenance::Provenance::new(&variants[0].plan, recorded_command_line())
            .map_err(|e| Failure::Input(e.to_string()))?;
    let default_out = out.is_none();
    let dir = out.unwrap_or_else(|| PathBuf::from("out").join(&name));
    // A folder this run creates is removed again if a combination fails to run: no partial
    // output of a failed sweep is left behind.
    let created = !dir.exists();
    prepare_vary_folder(&dir, default_out)?;
    // Each combination's folder, named after its fields (made unique).
    let mut folders: Vec<String> = Vec::new();
    for v in &variants {
        let mut folder = folder_name(&v.assignments);
        // Apart also where a file system does not tell case apart.
        while folders.iter().any(|f| f.eq_ignore_ascii_case(&folder)) {
            folder.push('_');
        }
        folders.push(folder);
    }
    // The folders an earlier run wrote here, listed with this run's until it ends: those this
    // run does not write again (values since changed) are deleted once it has written its own.
    let earlier = scenarios::output::list_vary_folders(&dir, &folders)
        .map_err(|e| Failure::Output(e.to_string()))?;
    if !opts.quiet {
        warn_if_long(
            variants
                .iter()
                .map(|v| v.plan.estimated_seconds(cores(opts.threads)))
                .sum(),
            true,
        );
    }
    let mut parts = Vec::new();
    let mut index = format!(
        "# {name}: {} combinations of varied fields\n\nEach combination ran as a scenario of its own into the folder named after it (its report.md has every table and chart); `results.csv` here holds every row with a column per varied field.\n",
        variants.len()
    );
    // Each warning of loading the combinations, with the combinations that gave it.
    let mut warned: Vec<(String, Vec<String>)> = Vec::new();
    // A scheme comparison (outputs.schemes): every combination's summaries, for the tables and
    // the chart across them.
    let compare_at = variants[0]
        .plan
        .scenario
        .outputs
        .schemes
        .as_ref()
        .map(|s| (s.at.0 as u32, s.files().0));
    let mut compared: Vec<(String, Vec<scenarios::Summary>)> = Vec::new();
    // For the cost inference (outputs.inference): each combination's plan and summaries.
    let mut done: Vec<(
        Vec<scenarios::overrides::Assignment>,
        scenarios::Plan,
        Vec<scenarios::Summary>,
    )> = Vec::new();
    for (i, v) in variants.into_iter().enumerate() {
        let folder = folders[i].clone();
        let label = v.label();
        let title = v.title();
        if !opts.quiet {
            sayln!("\nwith {label}:");
        }
        let unit = scenarios::results::TimeUnit::of(&v.plan);
        let kept = (!v.plan.inference.is_empty()).then(|| v.plan.clone());
        let algorithms = v.plan.algorithms.clone();
        for w in &v.plan.warnings {
            match warned.iter_mut().find(|(text, _)| text == w) {
                Some((_, labels)) => labels.push(label.clone()),
                None => warned.push((w.clone(), vec![label.clone()])),
            }
        }
        let summaries = match run_plan(v.plan, &dir.join(&folder), false, opts, &v.assignments) {
            Ok(s) => s,
            Err(f) => {
                if matches!(f, Failure::Run(_)) {
                    // No --resume can pass a failed run (`Failure::kept`): a folder this run
                    // created goes; in an earlier vary run's folder the combinations done so
                    // far keep their folders, not the part files that a corrected scenario,
                    // another sweep, would be refused for.
                    if created {
                        let _ = std::fs::remove_dir_all(&dir);
                    } else {
                        for done in &folders[..=i] {
                            let _ = remove_part(&scenarios::part::path_for(&dir.join(done)));
                        }
                    }
                }
                return Err(f.within(&label));
            }
        };
        let csv_path = dir.join(&folder).join("results.csv");
        let csv = std::fs::read_to_string(&csv_path)
            .map_err(|e| Failure::Output(format!("{}: {e}", csv_path.display())))?;
        parts.push((v.assignments, csv));
        index.push_str(&format!(
            "\n## {title}\n\n[{folder}/report.md]({folder}/report.md)\n\n"
        ));
        for s in scenarios::results::by_config(&summaries) {
            index.push_str(&format!(
                "### {}\n\n{}\n",
                scenarios::output::report::config_title_of(&algorithms, s),
                scenarios::results::summary_table(s, unit)
            ));
        }
        if let Some(plan) = kept {
            done.push((
                parts.last().map(|p| p.0.clone()).unwrap_or_default(),
                plan,
                summaries.clone(),
            ));
        }
        if compare_at.is_some() {
            compared.push((title, summaries));
        }
    }
    // The run's own files, listed in the marker so that plot and compare never write over them.
    let mut own: Vec<String> = vec!["results.csv".into(), "report.md".into()];
    if let Some((at, chart)) = compare_at {
        own.push(chart.to_string());
        // Before the combinations' own tables: the comparison is what the run is for.
        let at_first = index.find("\n## ").unwrap_or(index.len());
        index.insert_str(at_first, &scenarios::schemes::vary_markdown(&compared, at));
        let charts = scenarios::schemes::vary_charts(&compared);
        let path = dir.join(chart);
        let title = format!("{name}: speedup against processors, per scheme");
        let columns = if charts.len() > 4 {
            3
        } else {
            charts.len().clamp(1, 2)
        };
        plots::log_log_panels(&path, &title, &charts, columns)
            .map_err(|e| Failure::Output(format!("{}: {e}", path.display())))?;
    }
    let write = |file: &str, text: &str| {
        let path = dir.join(file);
        scenarios::write_atomic(&path, text.as_bytes())
            .map_err(|e| Failure::Output(format!("{}: {e}", path.display())))
    };
    write("results.csv", &scenarios::results::merge_varied_csv(&parts))?;
    let combos: Vec<scenarios::inference::Combination> = done
        .iter()
        .map(|(a, plan, s)| scenarios::inference::Combination {
            assignments: a,
            plan,
            summaries: s,
        })
        .collect();
    if let Some(inf) = scenarios::inference::inference(&combos) {
        let path = dir.join("cost-inference.png");
        own.push("cost-inference.png".into());
        plots::panels_one_legend(&path, &inf.title, &inf.charts, 3)
            .map_err(|e| Failure::Output(format!("{}: {e}", path.display())))?;
        index.push('\n');
        index.push_str(&inf.markdown);
    }
    for f in &folders {
        remove_part(&scenarios::part::path_for(&dir.join(f)))?;
    }
    index.push_str(&vary_warnings(&parts, &warned, folders.len(), opts.quiet));
    index.push_str(&format!(
        "\n## Provenance\n\n\
         - gtsim {}\n\
         - scenario file `{}`, SHA-256 `{}`\n{}\
         - command: `{}`\n\
         - each combination's folder: its report.md's Provenance (the fields it set, its seeds, the files it read)\n",
        provenance.build(),
        provenance.scenario.path,
        provenance.scenario.sha256,
        if opts.sets.is_empty() {
            String::new()
        } else {
            format!(
                "- fields set with `--set`: `{}`\n",
                opts.sets
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join("`, `")
            )
        },
        provenance.command(),
    ));
    write("report.md", &index)?;
    // Side files written while this run wrote the folder stay listed (the older ones were
    // deleted when it began).
    // The combinations of an earlier run that this one has not (a value changed, a field set
    // or no longer varied): results of another sweep, which would sit beside these unmarked.
    // Deleted before the marker lists this run's alone, so that a run stopped in between
    // leaves them listed; one kept (it holds a user's file) stays listed, and every later run
    // says so again. A name that differs from one of this run's only in case is this run's on
    // a file system that does not tell case apart, and is left alone.
    let mut listed = folders.clone();
    for stale in earlier
        .iter()
        .filter(|f| !folders.iter().any(|n| n.eq_ignore_ascii_case(f)))
    {
        let path = dir.join(stale);
        if let Err(Failure::Output(why)) = remove_part(&scenarios::part::path_for(&path)) {
            eprintln!("gtsim: warning: {why}");
        }
        match scenarios::output::remove_output_folder(&path) {
            Ok(true) if !opts.quiet => {
                sayln!(
                    "removed {}: a combination this run does not have",
                    path.display()
                )
            }
            Ok(_) => {}
            Err(why) => {
                eprintln!(
                    "gtsim: warning: kept {}, a combination of an earlier run that this one does not have (move it away or delete it): {why}",
                    path.display()
                );
                listed.push(stale.clone());
            }
        }
    }
    let side = scenarios::output::side_files(&dir);
    write(
        VARY_MARKER,
        &scenarios::output::vary_marker_text(&listed, &own, &side),
    )?;
    if !opts.quiet {
        sayln!(
            "\nall combinations, in {}: {}",
            dir.display(),
            own.join(", ")
        );
    }
    Ok(())
}

/// The Warnings section of a `vary` run's report.md (empty when there are none): a varied
/// field whose values all gave the same results (said on stderr too, unless `quiet`: each
/// combination's run cannot know it), then every combination's warnings of loading, each once
/// with the combinations that gave it (when not all of the `combinations`).
fn vary_warnings(
    parts: &[(Vec<scenarios::overrides::Assignment>, String)],
    warned: &[(String, Vec<String>)],
    combinations: usize,
    quiet: bool,
) -> String {
    let mut items: Vec<String> = Vec::new();
    for (field, values) in scenarios::results::unfelt_varied_fields(parts) {
        // Why that may be, where a common cause fits the field.
        let why = if field == "search.algorithm" {
            " (sweep.algorithm, when given, replaces search.algorithm)"
        } else if field == "machine" || field.starts_with("hardware") {
            " (a scheme that sends no messages uses no lines, s, interrupt or read policies)"
        } else {
            ""
        };
        let text = format!(
            "vary: {field}: every value ({}) gave the same results.csv, byte for byte{}: no column of the results depends on it{why}",
            values.join(", "),
            if parts[0].0.len() > 1 {
                ", with each value of the other varied fields"
            } else {
                ""
            }
        );
        if !quiet {
            eprintln!("gtsim: warning: {text}");
        }
        items.push(text);
    }
    for (text, labels) in warned {
        items.push(if labels.len() == combinations {
            format!("{text} (every combination)")
        } else {
            format!("{text} (with {})", labels.join("; "))
        });
    }
    if items.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\n## Warnings\n\nOf the varied fields, and from loading each combination (its report.md lists its own):\n\n",
    );
    for item in items {
        s.push_str(&format!("- {item}\n"));
    }
    s
}

/// `--set` gives each field once, and no field inside another one it sets (a usage error: the
/// first value would be lost).
fn sets_once(sets: &[scenarios::overrides::Assignment]) -> Result<(), Failure> {
    match scenarios::overrides::first_overlap(sets) {
        Some((i, b)) => Err(Failure::Usage(format!(
            "--set {b} and --set {} set the same field{}: give each field once",
            sets[i],
            if sets[i].path == b.path {
                ""
            } else {
                " (one inside the other)"
            }
        ))),
        None => Ok(()),
    }
}

/// A folder name for a combination: `PATH=VALUE` joined by `,`, other characters as `_`.
fn folder_name(assignments: &[scenarios::overrides::Assignment]) -> String {
    let joined = assignments
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(",")
        // A string value (a machine's name) without its quotes.
        .replace('"', "");
    scenarios::compare::file_safe(&joined, "._=,-")
}

/// The folder of a `vary` run: missing (created), empty, or one a `vary` run wrote before.
fn prepare_vary_folder(dir: &std::path::Path, default_out: bool) -> Result<(), Failure> {
    check_vary_folder(dir, default_out)?;
    // Charts and comparisons written beside an earlier run's results would not match the new.
    scenarios::output::remove_side_files(dir)
        .map_err(|e| Failure::Output(format!("{}: {e}", dir.display())))?;
    // Marked from the start, so that a `--resume` after an interrupt writes into it again.
    let marker = dir.join(VARY_MARKER);
    if !marker.is_file() {
        scenarios::write_atomic(&marker, b"gtsim vary output (being written)\n")
            .map_err(|e| Failure::Output(format!("{}: {e}", marker.display())))?;
    }
    Ok(())
}

/// The folder of a `vary` run exists (created if missing) and is empty or a `vary` folder.
fn check_vary_folder(dir: &std::path::Path, default_out: bool) -> Result<(), Failure> {
    match std::fs::read_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let create = if default_out {
                std::fs::create_dir_all(dir)
            } else {
                std::fs::create_dir(dir)
            };
            create.map_err(|e| {
                Failure::Input(format!(
                    "{}: cannot create the output folder: {e}",
                    dir.display()
                ))
            })
        }
        Err(e) => Err(Failure::Input(format!("{}: {e}", dir.display()))),
        Ok(mut entries) => {
            if entries.next().is_none() || dir.join(VARY_MARKER).is_file() {
                Ok(())
            } else {
                Err(Failure::Input(format!(
                    "{}: not empty and not the folder of an earlier vary run: give another --out",
                    dir.display()
                )))
            }
        }
    }
}

/// The worker threads `--threads N` means: N, or one per core for 0.
fn cores(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
}

/// `--threads`: a number from 0 (one per core) to [`MAX_THREADS`].
fn parse_threads(s: &str) -> Result<usize, String> {
    match s.parse::<u64>() {
        Ok(n) if n <= MAX_THREADS as u64 => Ok(n as usize),
        Ok(_) | Err(_) => Err(format!(
            "expected a number of worker threads from 0 (one per core) to {MAX_THREADS}"
        )),
    }
}

/// Warns on stderr when a sweep is estimated to take more than a minute.
fn warn_if_long(secs: f64, vary: bool) {
    if secs > 60.0 {
        eprintln!(
            "gtsim: warning: this scenario would run for {} (estimate{}); make the sweep smaller (fewer seeds, fanouts or configurations, smaller width or depth{}) if that is not intended",
            human_time(secs),
            if vary { ", all its combinations" } else { "" },
            if vary { ", fewer vary values" } else { "" }
        );
    }
}

/// A duration for people: seconds, minutes, hours, days or years.
fn human_time(secs: f64) -> String {
    if !secs.is_finite() || secs > 1e3 * 365.0 * 86400.0 {
        "more than a thousand years".into()
    } else if secs < 1.0 {
        "under a second".into()
    } else if secs < 120.0 {
        format!("about {secs:.0} s")
    } else if secs < 7200.0 {
        format!("about {:.0} min", secs / 60.0)
    } else if secs < 2.0 * 86400.0 {
        format!("about {:.1} h", secs / 3600.0)
    } else if secs < 2.0 * 365.0 * 86400.0 {
        format!("about {:.0} days", secs / 86400.0)
    } else {
        format!("about {:.0} years", secs / (365.0 * 86400.0))
    }
}

/// Runs done / total, elapsed and ETA on a terminal; nothing when quiet or not a terminal.
fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {msg}, ETA {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}
