//! The `outputs` section: the run drawn in full (`outputs.timeline`), the published figures the
//! results are compared with (`outputs.reference`, read here), and the charts asked for.

use super::locate::Source;
use super::ScenarioError;
use crate::catalogue::Algorithm;
use crate::dispatch::PTree;
use crate::reference::{PaperTable, Reference};
use crate::schema::{Outputs, Scenario};
use algorithms::SyntheticSpec;
use std::path::Path;

/// The run named by `outputs.timeline`, as (configuration index, fanout, seed): one the sweep
/// makes. `chess` says whether the seeds are chess positions.
pub(super) fn timeline(
    cx: &Source,
    scenario: &Scenario,
    chess: bool,
    fanouts: &[u32],
    seeds: &[u64],
    configs: &[SyntheticSpec],
    algorithms: &[Algorithm],
) -> Result<Option<(usize, u32, u64)>, ScenarioError> {
    let timeline = match &scenario.outputs.timeline {
        None => None,
        Some(t) => {
            let here = |m: String| cx.at(&["outputs", "timeline"], m);
            if !fanouts.contains(&(t.fanout.0 as u32)) {
                return Err(here(if fanouts.is_empty() {
                    "outputs.timeline picks a run by its fanout, and the sweep has no sweep.fanout or sweep.processors (a sweep of Campbell's processor trees, sweep.ptree, cannot record a timeline)".to_string()
                } else {
                    format!(
                        "timeline fanout {} is not in sweep.fanout or sweep.processors ({})",
                        t.fanout.0,
                        fanouts
                            .iter()
                            .map(|f| f.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }));
            }
            if !seeds.contains(&t.seed) {
                return Err(here(if chess {
                    format!(
                        "timeline seed {} is not the number of a position of the sweep (positions are numbered from 1 in file order)",
                        t.seed
                    )
                } else {
                    format!("timeline seed {} is not in the sweep", t.seed)
                }));
            }
            let index = configs.iter().position(|c| {
                t.width.is_none_or(|w| w.0 == c.width as u64)
                    && t.depth.is_none_or(|d| d.0 == c.depth as u64)
                    && t.ordering.as_ref().is_none_or(|o| *o == c.ordering)
                    && t.horizon_noise.is_none_or(|n| n == c.horizon_noise)
            });
            let Some(index) = index else {
                return Err(here(
                    "no tree configuration of the sweep has that width, depth, ordering and horizon noise".into(),
                ));
            };
            Some((index, t.fanout.0 as u32, t.seed))
        }
    };

    // The timeline run must be one the sweep makes (not one it skips).
    if let Some((c, f, _)) = timeline {
        let p = PTree::Paper {
            fanout: f,
            length: scenario.hardware.length.0 as u32,
        };
        let depth = configs[c].depth;
        let runs = algorithms.iter().any(|a| {
            a.not_applicable(&PTree::UNIPROCESSOR, depth).is_none()
                && (p.is_uniprocessor() || a.not_applicable(&p, depth).is_none())
        });
        if !runs {
            return Err(cx.at(
                &["outputs", "timeline"],
                format!("the sweep runs no algorithm at fanout {f} on that tree configuration (depth {depth}): every such run is skipped; name another fanout or configuration"),
            ));
        }
    }
    Ok(timeline)
}

/// The published figures of `outputs.reference`, read from beside the scenario at `path`.
pub(super) struct References {
    /// For synthetic and Campbell plans: the reference table.
    pub reference: Option<Reference>,
    /// For chess plans: the paper's table (Table II, III or IV layout).
    pub paper: Option<PaperTable>,
    /// The tables' warnings (rows for processor counts the sweep does not run, ...).
    pub warnings: Vec<String>,
    /// The tables of `outputs.inference` (chess plans only).
    pub inference: Vec<PaperTable>,
}

/// Reads the table named by `outputs.reference` (a file beside the scenario at `path`) for a
/// sweep of `fanouts`: one of the paper's tables if `chess`, a reference table otherwise; and
/// those of `outputs.inference`, which needs a chess plan with a `vary` section (`varied`: the
/// scenario has one).
pub(super) fn references(
    cx: &Source,
    outputs: &Outputs,
    path: &Path,
    chess: bool,
    varied: bool,
    fanouts: &[u32],
) -> Result<References, ScenarioError> {
    let mut warnings = Vec::new();
    let mut paper = None;
    let reference = match &outputs.reference {
        None => None,
        // Chess plans are compared with the paper's Tables II-IV, in any of their layouts.
        Some(name) if chess => {
            let table = super::read_beside(path, name, |f| {
                crate::reference::read_paper_table(f, fanouts)
            })
            .map_err(|m| cx.at(&["outputs", "reference"], m))?;
            warnings.extend(table.warnings().iter().cloned());
            paper = Some(table);
            None
        }
        Some(name) => {
            let r = super::read_beside(path, name, |f| crate::reference::read(f, fanouts))
                .map_err(|m| cx.at(&["outputs", "reference"], m))?;
            warnings.extend(r.warnings.iter().cloned());
            Some(r)
        }
    };
    let mut inference = Vec::new();
    let at = ["outputs", "inference"];
    for name in &outputs.inference {
        if !chess {
            return Err(cx.at(
                &at,
                "the cost inference compares chess runs with the paper's tables: a chess workload only".into(),
            ));
        }
        // The inference is written into a vary run's folder, over its combinations: without
        // one, the tables were read and nothing was written.
        if !varied {
            return Err(cx.at(
                &at,
                "the cost inference sets every combination of a vary section against the paper's tables, and this scenario has no vary section: vary the costs to infer (e.g. vary: {\"hardware.costs.s\": [\"Ms(2)\", \"Ms(8)\"]}), or leave outputs.inference out".into(),
            ));
        }
        let table = super::read_beside(path, name, |f| {
            crate::reference::read_paper_table(f, fanouts)
        })
        .map_err(|m| cx.at(&at, m))?;
        if matches!(table, PaperTable::PerBoard(_)) {
            return Err(cx.at(
                &at,
                format!("{name}: a per-board table (Table IV's layout); the cost inference takes Table II's or Table III's"),
            ));
        }
        warnings.extend(table.warnings().iter().cloned());
        inference.push(table);
    }
    Ok(References {
        reference,
        paper,
        warnings,
        inference,
    })
}

/// Checks the charts and tables asked for (`outputs.fig7`, `outputs.minimal_chart`,
/// `outputs.per_position`) against the sweep;
/// returns the warnings, naming the scenario's file, about charts that will not be drawn.
pub(super) fn charts(
    cx: &Source,
    outputs: &Outputs,
    chess: bool,
    fanouts: &[u32],
    ptrees: &[PTree],
    configs: usize,
    algorithms: usize,
) -> Result<Vec<String>, ScenarioError> {
    let mut warnings = Vec::new();
    if outputs.per_position && !chess {
        return Err(cx.at(
            &["outputs", "per_position"],
            "the per-position table is of chess positions: outputs.per_position needs a Chess workload".into(),
        ));
    }
    if outputs.fig7 {
        if !chess {
            return Err(cx.at(
                &["outputs", "fig7"],
                "fig7.png is the paper's Fig. 7 of chess searches: outputs.fig7 needs a Chess workload".into(),
            ));
        }
        if fanouts.len() < 2 {
            return Err(cx.at(
                &["outputs", "fig7"],
                format!("fig7.png draws overheads against f: outputs.fig7 needs two fanouts or more in sweep.fanout (it has {})", fanouts.len()),
            ));
        }
    }
    if let Some(name) = &outputs.minimal_chart {
        let plain = std::path::Path::new(name)
            .file_name()
            .is_some_and(|f| f == name.as_str());
        let taken = [
            "overheads.png",
            "speedup.png",
            "sync-overhead.png",
            "timeline.png",
            "fig7.png",
            "schemes.png",
            "schemes-overheads.png",
        ];
        // plot-… and compare… are kept for gtsim plot and gtsim compare, as for schemes.name.
        if !plain
            || !name.ends_with(".png")
            || name.starts_with('.')
            || taken.contains(&name.as_str())
            || crate::output::is_side_name(name)
        {
            return Err(cx.at(
                &["outputs", "minimal_chart"],
                format!("{name:?} must be a file name ending in .png, without a folder, not starting with a dot, plot- or compare (names kept for gtsim plot and gtsim compare), and not one of {}", taken.join(", ")),
            ));
        }
        // Nor a chart outputs.schemes draws: one would be written over the other.
        if let Some(schemes) = &outputs.schemes {
            let (chart, bars) = schemes.files();
            if *name == chart || *name == bars {
                return Err(cx.at(
                    &["outputs", "minimal_chart"],
                    format!("{name:?} is a chart outputs.schemes draws ({chart} and {bars}): give the two charts different names"),
                ));
            }
        }
        if !ptrees.iter().all(|p| p.is_uniprocessor()) {
            warnings.push(cx.warning_at(
                &["outputs", "minimal_chart"],
                "the chart is drawn only for plans of sequential searches (every processor tree a uniprocessor); this plan has others, so it is not drawn".into(),
            ));
        }
    }
    // The overheads and speedup charts take a panel per algorithm and tree configuration
    // (Campbell's processor trees draw speedup per tree depth instead; one processor draws
    // neither).
    let campbell = ptrees.iter().any(|p| matches!(p, PTree::Campbell { .. }));
    let sequential = ptrees.iter().all(|p| p.is_uniprocessor());
    let panels = crate::output::MAX_PANELS;
    let needed = configs * algorithms;
    if outputs.plots && !campbell && !sequential && needed > panels {
        warnings.push(cx.warning_at(
            &["outputs", "plots"],
            format!("overheads.png and speedup.png are not drawn: the sweep's {needed} pairs of algorithm and tree configuration are more than the {panels} panels a chart holds (vary a field for a folder per configuration, or chart columns with gtsim plot)"),
        ));
    }
    if let Some(schemes) = &outputs.schemes {
        if let Some(name) = &schemes.name {
            let ok = !name.is_empty()
                && name.len() <= 100
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            let taken = ["overheads", "speedup", "sync-overhead", "timeline", "fig7"];
            // plot-… and compare… name the files `gtsim plot` and `gtsim compare` may write
            // over in an output folder: a run's chart must not look like one.
            let side = crate::output::is_side_name(&format!("{name}.png"));
            if !ok || taken.contains(&name.as_str()) || side {
                return Err(cx.at(
                    &["outputs", "schemes", "name"],
                    format!("{name:?} must be 1-100 letters, digits, '-' or '_' (the charts are NAME.png and NAME-overheads.png), not one of {}, and not start with plot- or compare (names kept for gtsim plot and gtsim compare)", taken.join(", ")),
                ));
            }
        }
        let at = schemes.at.0;
        if !fanouts.iter().any(|&f| f as u64 == at) {
            return Err(cx.at(
                &["outputs", "schemes", "at"],
                if fanouts.is_empty() {
                    "outputs.schemes compares schemes by processor count, and the sweep has no sweep.processors or sweep.fanout (a sweep of Campbell's processor trees, sweep.ptree, has none)".to_string()
                } else {
                    format!(
                        "{at} processors is not a processor count of the sweep (sweep.processors or sweep.fanout: {})",
                        fanouts.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(", ")
                    )
                },
            ));
        }
        if configs > 1 {
            warnings.push(cx.warning_at(
                &["outputs", "schemes"],
                format!("schemes.png and schemes-overheads.png draw the first of the sweep's {configs} tree configurations; report.md has tables for each (use vary for a folder per configuration)"),
            ));
        }
    }
    Ok(warnings)
}

/// Checks `outputs.sync_study` against the plan: the study sets one scheme's measured
/// synchronization overhead, per width, depth, ordering, noise and processor count, against
/// the paper's model of section VII. Its rows (sync-overhead.csv, the report's tables) carry
/// no algorithm and no processor-tree shape, so a plan of several algorithms, of a scheme the
/// model does not describe, or on Campbell's processor trees (several of which share a
/// fanout) would write rows that cannot be told apart or estimates that do not apply.
pub(super) fn sync_study(
    cx: &Source,
    outputs: &Outputs,
    algorithms: &[Algorithm],
    ptrees: &[PTree],
) -> Result<(), ScenarioError> {
    if !outputs.sync_study {
        return Ok(());
    }
    let at = ["outputs", "sync_study"];
    let names: Vec<String> = algorithms.iter().map(|a| a.name()).collect();
    if algorithms.len() > 1 {
        return Err(cx.at(
            &at,
            format!(
                "the study sets one scheme against the paper's model, and its rows (sync-overhead.csv, the report's tables) have no algorithm column: this plan runs {} algorithms ({}); run the study with one of them in sweep.algorithm (a vary over search.algorithm gives each its own study)",
                algorithms.len(),
                crate::util::and_list(&names)
            ),
        ));
    }
    if let Some(a) = algorithms.iter().find(|a| !a.entry().model) {
        return Err(cx.at(
            &at,
            format!(
                "the study sets the measured synchronization overhead against the paper's model (section VII), which describes pmws and Parabelle, not {}",
                a.name()
            ),
        ));
    }
    if ptrees.iter().any(|p| matches!(p, PTree::Campbell { .. })) {
        return Err(cx.at(
            &at,
            "the paper's model describes its own processor trees (sweep.fanout or sweep.processors), not Campbell's (sweep.ptree), several of which have the same fanout".into(),
        ));
    }
    Ok(())
}
