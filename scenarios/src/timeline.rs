//! timeline.png: one recorded run, one row per processor, coloured by category.

use crate::load::Plan;
use crate::runner::Outcome;
use plots::TimelineRow;
use std::path::Path;

/// Draws the recorded run `run` (recorded with intervals) to `path`.
pub fn plot(plan: &Plan, run: &Outcome, path: &Path) -> Result<(), plots::PlotError> {
    let spec = &plan.configs[run.config];
    let pool = plan.algorithms[run.algorithm].on_pool();
    let rows: Vec<TimelineRow> = run
        .stats
        .procs
        .iter()
        .enumerate()
        .map(|(i, p)| TimelineRow {
            label: crate::trace::processor_name(i, pool),
            intervals: p.intervals.clone(),
        })
        .collect();
    // The synchronization points: every PV node completed (iterations end at the root's).
    let markers: Vec<sim_core::Marker> = run
        .stats
        .markers
        .iter()
        // Completed ones only: pvsplit marks where a PV node splits its alternatives.
        .filter(|m| m.label.starts_with("PV node") && m.label.contains(" done"))
        .cloned()
        .collect();
    let algorithm = plan
        .algorithms
        .get(run.algorithm)
        .map_or(String::new(), |a| a.name());
    // Only a scheme that marks its PV nodes (the paper's) has lines to explain.
    let lines = if markers.is_empty() {
        ""
    } else {
        "; vertical lines: PV nodes completed"
    };
    // A pool scheme's machine is its processor count (it has no processor tree).
    let machine = if pool {
        crate::dispatch::processors_words(run.fanout)
    } else {
        format!("f = {}", run.fanout)
    };
    let title = if let Some(id) = &run.position {
        format!(
            "{}: {algorithm}, {machine}, position {id}, d = {}{lines}",
            plan.name(),
            spec.depth,
        )
    } else {
        format!(
            "{}: {algorithm}, {machine}, seed {}, w = {}, d = {}, {}, noise {}{lines}",
            plan.name(),
            run.seed,
            spec.width,
            spec.depth,
            crate::load::ordering_label(&spec.ordering),
            spec.horizon_noise
        )
    };
    plots::timeline(
        path,
        &title,
        &rows,
        &markers,
        "PV nodes completed",
        run.stats.makespan,
    )
}
