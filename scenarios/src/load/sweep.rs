//! The `sweep` section: the tree configurations (widths, depths or shapes, orderings, horizon
//! noises), the processor trees (`sweep.fanout` with `hardware.length`, `sweep.ptree`), the
//! seeds, the limit on the number of runs, and the runs skipped as not applicable.

use super::locate::{locate, locate_item, Source};
use super::workload::Trees;
use super::{Generator, ScenarioError, MAX_DEPTH, MAX_FANOUT, MAX_RUNS, MAX_SEEDS, MAX_WIDTH};
use crate::catalogue::Algorithm;
use crate::dispatch::PTree;
use crate::schema::{Scenario, Sweep};
use crate::util::and_list;
use algorithms::{CampbellSpec, CampbellTree, Ordering, SyntheticSpec, SyntheticTree};

/// An ordering of the sweep, where it is written (`workload.ordering` or `sweep.ordering`), and
/// its index in `sweep.ordering`.
type SweptOrdering<'a> = (&'a Ordering, &'static [&'static str], Option<usize>);

/// The values the sweep's tree configurations combine, each list without repeats.
pub(super) struct Dimensions<'a> {
    /// Whether `sweep.shape` gives the (width, depth) pairs (otherwise every width goes with
    /// every depth).
    pub shapes: bool,
    /// The widths (with `sweep.shape`, the distinct widths it names).
    pub widths: Vec<u64>,
    /// The depths (with `sweep.shape`, the distinct depths it names).
    pub depths: Vec<u64>,
    /// The orderings, with where each is written.
    pub orderings: Vec<SweptOrdering<'a>>,
    /// The horizon noises.
    pub noises: Vec<u32>,
}

/// The widths, depths, orderings and horizon noises of `sweep` (the workload's when the sweep
/// does not vary them), within their limits and each listed once.
pub(super) fn dimensions<'a>(
    cx: &Source,
    sweep: &'a Sweep,
    trees: &'a Trees,
) -> Result<Dimensions<'a>, ScenarioError> {
    let width_at: &[&str] = if sweep.width.is_empty() {
        &["workload", "width"]
    } else {
        &["sweep", "width"]
    };
    let depth_at: &[&str] = if sweep.depth.is_empty() {
        &["workload", "depth"]
    } else {
        &["sweep", "depth"]
    };
    let shapes = !sweep.shape.is_empty();
    if shapes && !(sweep.width.is_empty() && sweep.depth.is_empty()) {
        return Err(cx.at(
            &["sweep", "shape"],
            "give either sweep.shape ((width, depth) pairs) or sweep.width and sweep.depth, not both".into(),
        ));
    }
    let (width_at, depth_at): (&[&str], &[&str]) = if shapes {
        (&["sweep", "shape"], &["sweep", "shape"])
    } else {
        (width_at, depth_at)
    };
    // With sweep.shape, the distinct widths and depths it names (for the limits below).
    let distinct = |v: Vec<u64>| {
        let mut seen = std::collections::HashSet::new();
        v.into_iter()
            .filter(|x| seen.insert(*x))
            .collect::<Vec<u64>>()
    };
    let widths: Vec<u64> = if shapes {
        distinct(sweep.shape.iter().map(|s| s.width.0).collect())
    } else if sweep.width.is_empty() {
        vec![trees.width]
    } else {
        sweep.width.iter().map(|w| w.0).collect()
    };
    let depths: Vec<u64> = if shapes {
        distinct(sweep.shape.iter().map(|s| s.depth.0).collect())
    } else if sweep.depth.is_empty() {
        vec![trees.depth]
    } else {
        sweep.depth.iter().map(|d| d.0).collect()
    };
    if let Some(i) = second_listing(sweep.shape.iter().map(|s| (s.width.0, s.depth.0))) {
        let (w, d) = (sweep.shape[i].width.0, sweep.shape[i].depth.0);
        return Err(cx.at_item(
            &["sweep", "shape"],
            i,
            format!("(width {w}, depth {d}) is listed twice"),
        ));
    }
    // (ordering, where it is written, its index in sweep.ordering)
    let orderings: Vec<SweptOrdering<'a>> = if sweep.ordering.is_empty() {
        vec![(&trees.ordering, &["workload", "ordering"][..], None)]
    } else {
        sweep
            .ordering
            .iter()
            .enumerate()
            .map(|(i, o)| (o, &["sweep", "ordering"][..], Some(i)))
            .collect()
    };
    let noises: Vec<u32> = if sweep.horizon_noise.is_empty() {
        vec![trees.horizon_noise]
    } else {
        sweep.horizon_noise.clone()
    };
    if noises.iter().any(|&n| n > 1_000_000) {
        return Err(cx.at(
            &["sweep", "horizon_noise"],
            "horizon_noise must be at most 1000000".into(),
        ));
    }
    let max_width = match trees.generator {
        Generator::Synthetic | Generator::Chess => MAX_WIDTH,
        Generator::Campbell => algorithms::campbell::MAX_WIDTH as u64,
    };
    if let Some(w) = widths.iter().find(|&&w| w > max_width) {
        return Err(cx.at(
            width_at,
            format!("width {w} is above the limit of {max_width}"),
        ));
    }
    if let Some(d) = depths.iter().find(|&&d| d > MAX_DEPTH) {
        return Err(cx.at(
            depth_at,
            format!("depth {d} is above the limit of {MAX_DEPTH}"),
        ));
    }
    // A configuration appears twice exactly when one of the lists holds a value twice; checked
    // per list (hashing values or labels), not by comparing configurations pairwise. Only the
    // sweep's lists can (the workload gives one value, sweep.shape distinct pairs, above).
    if let Some(i) = second_listing(sweep.width.iter().map(|w| w.0)) {
        return Err(cx.at_item(
            &["sweep", "width"],
            i,
            format!("width {} is listed twice", sweep.width[i].0),
        ));
    }
    if let Some(i) = second_listing(sweep.depth.iter().map(|d| d.0)) {
        return Err(cx.at_item(
            &["sweep", "depth"],
            i,
            format!("depth {} is listed twice", sweep.depth[i].0),
        ));
    }
    if let Some(i) = second_listing(&sweep.horizon_noise) {
        return Err(cx.at_item(
            &["sweep", "horizon_noise"],
            i,
            format!("horizon noise {} is listed twice", sweep.horizon_noise[i]),
        ));
    }
    if let Some(i) = second_listing(sweep.ordering.iter().map(|o| o.label())) {
        return Err(cx.at_item(
            &["sweep", "ordering"],
            i,
            format!("ordering {} is listed twice", sweep.ordering[i].label()),
        ));
    }
    Ok(Dimensions {
        shapes,
        widths,
        depths,
        orderings,
        noises,
    })
}

/// The processor trees of the sweep.
pub(super) struct ProcessorTrees {
    /// The processor counts of `sweep.fanout`, in file order.
    pub fanouts: Vec<u32>,
    /// One per `sweep.fanout`, then one per `sweep.ptree`.
    pub ptrees: Vec<PTree>,
}

/// The processor trees of `scenario`'s sweep, within [`MAX_FANOUT`] processors, each listed
/// once, and each supported by every one of `algorithms`.
pub(super) fn processor_trees(
    cx: &Source,
    scenario: &Scenario,
    algorithms: &[Algorithm],
) -> Result<ProcessorTrees, ScenarioError> {
    // The processor trees: the paper's (fanout, length), then Campbell's (depth, width).
    let mut fanouts = Vec::new();
    let mut ptrees = Vec::new();
    let sweep = &scenario.sweep;
    if sweep.fanout.is_empty() && sweep.ptree.is_empty() && sweep.processors.is_empty() {
        return Err(cx.at(
            &["sweep", "fanout"],
            "the sweep lists no processor tree: give sweep.fanout (processor counts), sweep.ptree ((depth, width) pairs) or sweep.processors (machine sizes)".into(),
        ));
    }
    let by_processors = !sweep.processors.is_empty();
    if by_processors {
        if !sweep.fanout.is_empty() || !sweep.ptree.is_empty() {
            return Err(cx.at(
                &["sweep", "processors"],
                "give processor counts once: sweep.processors, or sweep.fanout and sweep.ptree, not both".into(),
            ));
        }
        if scenario.hardware.length.0 != 1 {
            return Err(cx.at(
                &["hardware", "length"],
                format!(
                    "sweep.processors gives tree schemes a master and its children (length 1), not length {}: use sweep.fanout for deeper processor trees",
                    scenario.hardware.length.0
                ),
            ));
        }
    }
    if sweep.fanout.is_empty() && !by_processors && scenario.hardware.length.0 != 1 {
        return Err(cx.at(
            &["hardware", "length"],
            format!(
                "hardware.length {} is the depth of sweep.fanout's processor trees, and the sweep has none: sweep.ptree gives each of its trees' depth itself (leave hardware.length out)",
                scenario.hardware.length.0
            ),
        ));
    }
    let field = if by_processors {
        "processors"
    } else {
        "fanout"
    };
    // sweep.fanout or sweep.processors: one of them is empty (both given are refused above).
    for (i, f) in sweep.fanout.iter().chain(&sweep.processors).enumerate() {
        if f.0 > MAX_FANOUT {
            return Err(cx.at(
                &["sweep", field],
                format!("{field} {} is above the limit of {MAX_FANOUT}", f.0),
            ));
        }
        if fanouts.contains(&(f.0 as u32)) {
            return Err(cx.at_item(
                &["sweep", field],
                i,
                format!("{field} {} is listed twice", f.0),
            ));
        }
        let processors = f.0.checked_pow(scenario.hardware.length.0.min(64) as u32);
        if scenario.hardware.length.0 > 64 || processors.is_none_or(|p| p > MAX_FANOUT) {
            return Err(cx.at(
                &["hardware", "length"],
                format!(
                    "fanout {} and length {} make more than {MAX_FANOUT} processors",
                    f.0, scenario.hardware.length.0
                ),
            ));
        }
        fanouts.push(f.0 as u32);
        ptrees.push(PTree::Paper {
            fanout: f.0 as u32,
            length: scenario.hardware.length.0 as u32,
        });
    }
    for (i, shape) in scenario.sweep.ptree.iter().enumerate() {
        let (d, w) = (shape.depth.0, shape.width.0);
        // 1 + w + w^2 + … + w^d processors.
        let processors = (0..=d.min(64)).try_fold(0u64, |sum, level| {
            w.checked_pow(level as u32).and_then(|n| sum.checked_add(n))
        });
        if d > 64 || processors.is_none_or(|p| p > MAX_FANOUT) {
            return Err(cx.at(
                &["sweep", "ptree"],
                format!("the processor tree (depth {d}, width {w}) has more than {MAX_FANOUT} processors"),
            ));
        }
        let p = PTree::Campbell {
            depth: d as u32,
            width: w as u32,
        };
        if ptrees.contains(&p) {
            return Err(cx.at_item(
                &["sweep", "ptree"],
                i,
                format!("the processor tree (depth {d}, width {w}) is listed twice"),
            ));
        }
        ptrees.push(p);
    }
    let pool = matches!(
        scenario.hardware.network,
        Some(ref n) if !matches!(n, crate::schema::Network::Tree)
    );
    for a in algorithms {
        for p in &ptrees {
            if let Some(why) = a.unsupported(p, pool) {
                use crate::catalogue::RunsOn;
                let field: &[&str] = match (p, a.entry().runs_on) {
                    (PTree::Paper { length, .. }, RunsOn::Pool) if *length != 1 => {
                        &["hardware", "length"]
                    }
                    (PTree::Paper { .. }, RunsOn::Pool) => &["hardware", "network"],
                    // A sequential search on several processors: the processor count is wrong
                    // (or the algorithm), not the tree's length.
                    (PTree::Paper { .. }, RunsOn::OneProcessor) => &["sweep", field],
                    (PTree::Paper { .. }, _) => &["hardware", "length"],
                    (PTree::Campbell { .. }, _) => &["sweep", "ptree"],
                };
                return Err(cx.at(field, why));
            }
        }
    }
    Ok(ProcessorTrees { fanouts, ptrees })
}

/// The seeds of `sweep` (for chess, the numbers of the positions searched), within
/// [`MAX_SEEDS`] and each listed once.
pub(super) fn seeds(cx: &Source, sweep: &Sweep, trees: &Trees) -> Result<Vec<u64>, ScenarioError> {
    // Sizes, computed before anything of that size is built.
    let seeds: Vec<u64> = match (&trees.chess, &sweep.seeds) {
        (Some(_), _) => trees.chess_seeds.clone(),
        (None, None) => {
            return Err(cx.at(
                &["sweep"],
                "sweep.seeds is missing: give the seeds of the trees, e.g. seeds: Range(start: 1, count: 24)".into(),
            ))
        }
        (None, Some(given)) => {
            if given.count() == 0 {
                return Err(cx.at(&["sweep", "seeds"], "lists no seed".into()));
            }
            let seeds = given
                .list(MAX_SEEDS)
                .map_err(|m| cx.at(&["sweep", "seeds"], m))?;
            // At the second time it is listed (a `Range` lists each seed once).
            if let Some(i) = second_listing(&seeds) {
                return Err(cx.at_item(
                    &["sweep", "seeds"],
                    i,
                    format!("seed {} is listed twice", seeds[i]),
                ));
            }
            seeds
        }
    };
    Ok(seeds)
}

/// The number of tree configurations of the sweep (`None` beyond 2^64), after checking that the
/// sweep makes at most [`MAX_RUNS`] runs with `seed_count` seeds.
pub(super) fn config_count(
    cx: &Source,
    sweep: &Sweep,
    dims: &Dimensions,
    ptrees: &[PTree],
    algorithms: &[Algorithm],
    seed_count: u64,
) -> Result<Option<u64>, ScenarioError> {
    // Per seed: per algorithm, the uniprocessor baseline and every other processor tree.
    let per_seed = (ptrees.iter().filter(|p| !p.is_uniprocessor()).count() as u64 + 1)
        * algorithms.len() as u64;
    let shape_count = if dims.shapes {
        Some(sweep.shape.len() as u64)
    } else {
        (dims.widths.len() as u64).checked_mul(dims.depths.len() as u64)
    };
    let config_count = shape_count.and_then(|c| {
        [dims.orderings.len(), dims.noises.len()]
            .iter()
            .try_fold(c, |n, &k| n.checked_mul(k as u64))
    });
    let runs = config_count
        .and_then(|c| c.checked_mul(per_seed))
        .and_then(|r| r.checked_mul(seed_count));
    match runs {
        Some(r) if r <= MAX_RUNS => {}
        _ => {
            let describe =
                |n: Option<u64>| n.map_or("more than 2^64".to_string(), |n| n.to_string());
            return Err(cx.at(
                &["sweep"],
                format!(
                    "the sweep makes {} runs ({} tree configurations x {per_seed} runs per seed (algorithms x processor trees, the uniprocessor baseline included) x {seed_count} seeds), more than the limit of {MAX_RUNS}",
                    describe(runs),
                    describe(config_count),
                ),
            ));
        }
    }
    Ok(config_count)
}

/// The tree configurations of the sweep (width x depth, or shape, x ordering x horizon noise),
/// in that order, after building the generator once for every (width, ordering) pair.
pub(super) fn configs(
    cx: &Source,
    sweep: &Sweep,
    trees: &Trees,
    dims: &Dimensions,
    config_count: Option<u64>,
) -> Result<Vec<SyntheticSpec>, ScenarioError> {
    let generator = trees.generator;
    // The generator is built once for every (width, ordering) pair, exactly as a run builds it,
    // so that no configuration `check` accepts can fail in `run` for a generator reason (depth,
    // horizon noise and value spread only enter its checks through the limits above).
    for &w in dims.widths.iter().filter(|_| generator != Generator::Chess) {
        for (o, o_at, index) in &dims.orderings {
            let spec = SyntheticSpec {
                width: w as u32,
                depth: dims.depths[0] as u32,
                ordering: (*o).clone(),
                value_spread: trees.value_spread as u32,
                horizon_noise: dims.noises[0],
            };
            let built = match generator {
                Generator::Synthetic | Generator::Chess => SyntheticTree::new(spec, 0).map(|_| ()),
                Generator::Campbell => CampbellTree::new(
                    CampbellSpec {
                        width: spec.width,
                        depth: spec.depth,
                        ordering: spec.ordering,
                    },
                    0,
                )
                .map(|_| ()),
            };
            if let Err(m) = built {
                let field = match index {
                    Some(i) => format!("sweep.ordering[{i}]"),
                    None => "workload.ordering".into(),
                };
                let (line, col) = match index {
                    Some(i) => locate_item(cx.src, o_at, *i),
                    None => locate(cx.src, o_at),
                };
                return Err(ScenarioError::At {
                    file: cx.file.to_string(),
                    line,
                    col,
                    message: if m.contains("width") {
                        format!("{field}: {m}")
                    } else {
                        format!("{field}: {m} (width {w})")
                    },
                });
            }
        }
    }
    // Within the run limit checked above: the pairs can be listed now.
    let pairs: Vec<(u64, u64)> = if dims.shapes {
        sweep.shape.iter().map(|s| (s.width.0, s.depth.0)).collect()
    } else {
        dims.widths
            .iter()
            .flat_map(|&w| dims.depths.iter().map(move |&d| (w, d)))
            .collect()
    };
    let mut configs = Vec::with_capacity(config_count.unwrap_or(0) as usize);
    for &(w, d) in &pairs {
        {
            for (o, _, _) in &dims.orderings {
                for &noise in &dims.noises {
                    configs.push(SyntheticSpec {
                        width: w as u32,
                        depth: d as u32,
                        ordering: (*o).clone(),
                        value_spread: trees.value_spread as u32,
                        horizon_noise: noise,
                    });
                }
            }
        }
    }
    Ok(configs)
}

/// Warnings, at the algorithm's item of `sweep.algorithm` (`at`, the field the algorithms come
/// from; at `search.algorithm` when they come from there), for the runs of the sweep that are
/// skipped because an algorithm does not apply to a processor tree at a depth: the algorithm
/// is what does not apply.
pub(super) fn skipped(
    cx: &Source,
    algorithms: &[Algorithm],
    at: &[&str],
    ptrees: &[PTree],
    depths: &[u64],
) -> Vec<String> {
    let mut warnings = Vec::new();
    let sweep_list = at == ["sweep", "algorithm"];
    // Runs an algorithm does not apply to (pv-splitting on a processor tree as deep as the
    // search, …) are skipped, as Campbell's tables leave those cells empty: say which, once.
    for (i, a) in algorithms.iter().enumerate() {
        for p in std::iter::once(&PTree::UNIPROCESSOR)
            .chain(ptrees.iter().filter(|p| !p.is_uniprocessor()))
        {
            for &d in depths {
                if let Some(why) = a.not_applicable(p, d as u32) {
                    let on = if p.is_uniprocessor() {
                        "one processor".to_string()
                    } else {
                        format!("processor tree {}", p.label())
                    };
                    let message = format!(
                        "{a} at depth {d} on {on} does not apply ({why}); those runs are skipped"
                    );
                    warnings.push(if sweep_list {
                        cx.warning_at_item(at, i, message)
                    } else {
                        cx.warning_at(at, message)
                    });
                }
            }
        }
    }
    warnings
}

/// Warnings, at the noise's field, for horizon noise that runs cannot feel. A synthetic tree's noise
/// enters only the evaluation of nodes short of its full depth, and many searches evaluate none
/// ([`Algorithm::evaluates_short`]): with several noises, such an algorithm's runs repeat the
/// same search under another label; with one noise that no run feels, the setting does nothing.
/// `swept`: the noises come from `sweep.horizon_noise`; `written`: the file gives
/// `workload.horizon_noise` (its default goes without a word, and with `swept` it is not used).
#[allow(clippy::too_many_arguments)]
pub(super) fn unfelt_noise(
    cx: &Source,
    swept: bool,
    written: Option<u32>,
    noises: &[u32],
    depths: &[u64],
    algorithms: &[Algorithm],
    ptrees: &[PTree],
    progressive: bool,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let list = |n: &[u32]| and_list(&n.iter().map(|n| n.to_string()).collect::<Vec<_>>());
    if let (true, Some(n)) = (swept, written) {
        warnings.push(cx.warning_at(
            &["workload", "horizon_noise"],
            format!(
                "{n} is not used: sweep.horizon_noise lists the noises to run ({})",
                list(noises)
            ),
        ));
    }
    if noises.iter().all(|&n| n == 0) || !(swept || written.is_some()) {
        return warnings;
    }
    // Each algorithm whose runs on some machine sizes of the sweep cannot feel the noise at any
    // depth they run at, and on which; algorithms with no run at all are left out.
    let mut unfelt = Vec::new();
    let (mut with_runs, mut nowhere) = (0, 0);
    for &a in algorithms {
        let mut sizes: Vec<(usize, bool)> = Vec::new();
        for &p in ptrees {
            let n = p.build().len();
            let runs: Vec<u32> = depths
                .iter()
                .map(|&d| d as u32)
                .filter(|&d| a.not_applicable(&p, d).is_none())
                .collect();
            if runs.is_empty() {
                continue;
            }
            let felt = runs.iter().any(|&d| a.evaluates_short(n, d, progressive));
            match sizes.iter_mut().find(|(m, _)| *m == n) {
                Some((_, f)) => *f |= felt,
                None => sizes.push((n, felt)),
            }
        }
        if sizes.is_empty() {
            continue;
        }
        with_runs += 1;
        let mut on: Vec<usize> = sizes.iter().filter(|s| !s.1).map(|s| s.0).collect();
        on.sort_unstable();
        if on.len() == sizes.len() {
            nowhere += 1;
            unfelt.push(a.to_string());
        } else if !on.is_empty() {
            let unit = if on == [1] { "processor" } else { "processors" };
            let on: Vec<String> = on.iter().map(|n| n.to_string()).collect();
            unfelt.push(format!("{a} on {} {unit}", and_list(&on)));
        }
    }
    if unfelt.is_empty() {
        return warnings;
    }
    let field: &[&str] = if swept {
        &["sweep", "horizon_noise"]
    } else {
        &["workload", "horizon_noise"]
    };
    let (verb, its) = if unfelt.len() == 1 {
        ("evaluates", "its")
    } else {
        ("evaluate", "their")
    };
    let why = format!(
        "{verb} no node short of the tree's full depth, the only place horizon noise enters"
    );
    if noises.len() > 1 {
        warnings.push(cx.warning_at(
            field,
            format!(
                "{} {why}: {its} runs at horizon noise {} are the same searches, rows that differ only in that column",
                and_list(&unfelt),
                list(noises)
            ),
        ));
    } else if nowhere == with_runs {
        warnings.push(cx.warning_at(
            field,
            format!(
                "horizon noise {} has no effect: {} {why}",
                noises[0],
                and_list(&unfelt)
            ),
        ));
    }
    warnings
}

/// The index of the first of `items` equal to one before it: where a value is listed the
/// second time, for an error at that item ([`Source::at_item`]), as a list's other errors
/// about one item are placed.
pub(super) fn second_listing<T: Eq + std::hash::Hash>(
    items: impl IntoIterator<Item = T>,
) -> Option<usize> {
    let mut listed = std::collections::HashSet::new();
    items.into_iter().position(|x| !listed.insert(x))
}
