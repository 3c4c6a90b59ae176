//! Writing a plan's results: CSV, JSON, a Markdown report and PNG plots, as one output folder
//! that replaces the previous one whole (see [`OutputFolder`]).
//!
//! One module per concern: [`folder`] writes a folder beside its target and swaps it in whole,
//! [`trace_path`] checks the path of `--trace`, [`rows`] streams results.csv and results.json,
//! [`report`] writes report.md and [`charts`] draws the plots. This module holds the error they
//! share and the order a plan's outputs are written in ([`write_outputs`], [`finish_outputs`]).

pub mod charts;
pub mod folder;
pub mod report;
pub mod rows;
pub mod trace_path;

pub use charts::{overheads_chart, scheme_speedup_charts, speedup_chart, MAX_PANELS};
pub use folder::{
    adopt, check_side_output, folder_of, is_side_name, list_vary_folders, remove_output_folder,
    remove_side_files, side_files, vary_folders, vary_marker_text, write_atomic, Adopted, Hook,
    OutputFolder, MARKER, PLOT_TAG, VARY_MARKER,
};
pub use report::report;
pub use rows::RowWriter;
pub use trace_path::check_trace_path;

use crate::load::Plan;
use crate::provenance::Provenance;
use crate::results::{by_config, Summary};
use crate::runner::{Outcome, Results, Row, RunError};
use charts::{draw, draw_against_processors};
use plots::LineChart;
use report::campbell;
use std::io;
use std::path::{Path, PathBuf};

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

/// Writes every output of a plan into `dir` as one unit (see [`OutputFolder`]); returns the
/// files written. `timeline` is the recorded run named by `outputs.timeline`, if any.
pub fn write_outputs(
    plan: &Plan,
    results: &Results,
    timeline: Option<&Outcome>,
    dir: &Path,
) -> Result<Vec<PathBuf>, OutputError> {
    let mut folder = OutputFolder::prepare(dir)?;
    let mut rows = RowWriter::new(&mut folder, plan)?;
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
    let configs = by_config(summaries);
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
    let fields_set = provenance.map_or(&[][..], |p| &p.fields_set[..]);
    let mut md = report(plan, summaries, fields_set);
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
    let compare_schemes = plan
        .scenario
        .outputs
        .schemes
        .as_ref()
        .map(|s| s.at.0 as u32);
    let (schemes_png, schemes_bars_png) = plan
        .scenario
        .outputs
        .schemes
        .as_ref()
        .map(|s| s.files())
        .unwrap_or_default();
    if let Some(at) = compare_schemes {
        md.push('\n');
        md.push_str(&crate::schemes::markdown(plan, summaries, at));
        if plan.chess.is_some() {
            md.push_str(&crate::schemes::chess_markdown(plan, chess));
        }
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
    if compare_schemes.is_some() {
        pngs.push((
            &schemes_png,
            "Speedup against processors, one line per scheme (log-log)",
        ));
        pngs.push((
            &schemes_bars_png,
            "Search, communication and synchronization overhead per scheme",
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
    // The warnings `check` and `run` print (`--quiet` hides them there), kept with the results.
    if !plan.warnings.is_empty() {
        md.push_str(
            "\n## Warnings\n\nRuns the sweep skips (the algorithm does not apply there; report tables leave their cells empty) and other warnings from loading the scenario:\n\n",
        );
        for w in &plan.warnings {
            md.push_str(&format!("- {w}\n"));
        }
    }
    if let Some(p) = provenance {
        md.push_str(&p.markdown());
    }
    folder.put("report.md", md.as_bytes())?;
    if plots && schemes {
        let charts = scheme_speedup_charts(plan, summaries);
        let title = format!(
            "{}: speedup against terminal processors, {}",
            plan.name(),
            plan.seed_count()
        );
        folder.draw("speedup.png", |p| {
            charts::draw_speedup_against_processors(p, &title, &charts)
        })?;
    } else if plots {
        let charts: Vec<LineChart> = configs.iter().map(|s| overheads_chart(plan, s)).collect();
        let title = format!("{}: overheads", plan.name());
        folder.draw("overheads.png", |p| {
            draw_against_processors(p, &title, &charts)
        })?;
        let charts = charts::speedup_charts(plan, &configs, chess);
        let title = format!("{}: speedup", plan.name());
        folder.draw("speedup.png", |p| {
            charts::draw_speedup_against_processors(p, &title, &charts)
        })?;
    }
    if let Some(study) = &study {
        folder.draw("sync-overhead.png", |p| study.plot(p))?;
    }
    if let Some(at) = compare_schemes {
        let chart = crate::schemes::speedup_chart(plan, summaries);
        folder.draw(&schemes_png, |p| plots::log_log_chart(p, &chart))?;
        let bars = crate::schemes::overheads_chart(plan, summaries, at);
        folder.draw(&schemes_bars_png, |p| plots::stacked_bar_chart(p, &bars))?;
    }
    if let Some((name, charts)) = &minimal_chart {
        let title = format!("{}: leaf nodes as % of the minimal tree", plan.name());
        folder.draw(name, |p| draw(p, &title, charts))?;
    }
    if let Some(run) = timeline {
        folder.draw("timeline.png", |p| crate::timeline::plot(plan, run, p))?;
    }
    if plan.scenario.outputs.fig7 {
        let fig = crate::chess_report::fig7(plan, summaries, chess);
        folder.draw("fig7.png", |p| plots::fig7(p, &fig))?;
    }
    let marker = provenance.map_or(String::new(), |p| {
        format!(
            "gtsim {}\nscenario: {} (SHA-256 {})\ncommand: {}\n",
            p.build(),
            p.scenario.path,
            p.scenario.sha256,
            p.command()
        )
    });
    folder.commit(&marker)
}

/// The speedups the paper gives for `algorithm` at the processor counts `fanouts`, with the
/// legend text naming their source: a chess plan's table (Table II, III or IV, as report.md
/// compares them), or a synthetic plan's reference table.
pub fn published_speedups(
    plan: &Plan,
    algorithm: &str,
    fanouts: &[u32],
) -> Option<(String, Vec<(f64, f64)>)> {
    match &plan.reference {
        Some(table) => charts::reference_speedups(table, fanouts),
        None => crate::chess_report::published_speedups(plan, algorithm, fanouts),
    }
}
