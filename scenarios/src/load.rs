//! Reading a scenario file into a validated [`Plan`], with errors that name the file, the line
//! and the column.

use crate::dispatch::{AlgorithmSpec, LevelLink, LinkPlan, PTree};
use crate::schema::{self, Duration, Link, Scenario, Workload};
use algorithms::{Ordering, SyntheticSpec};
use sim_core::SimTime;
use sim_hw::{cycles, CostModel, LinkSpec, ReadPolicies, ReadPolicy};
use std::path::{Path, PathBuf};

/// A scenario that cannot be run, and where it says so.
#[derive(thiserror::Error, Debug)]
pub enum ScenarioError {
    #[error("{file}: cannot read the scenario: {source}")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}:{line}:{col}: {message}")]
    At {
        file: String,
        line: usize,
        col: usize,
        message: String,
    },
}

/// Largest synthetic depth accepted (values stay far from the search's infinity).
pub const MAX_DEPTH: u64 = 30;
/// Largest synthetic width accepted.
pub const MAX_WIDTH: u64 = 10_000;
/// Largest number of processors accepted.
pub const MAX_FANOUT: u64 = 1024;

/// A validated scenario, ready to run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub scenario: Scenario,
    /// The file it came from, as given.
    pub file: PathBuf,
    pub costs: CostModel,
    pub link: LinkSpec,
    /// The tree configurations of the sweep (width × depth × ordering), in that order.
    pub configs: Vec<SyntheticSpec>,
    pub progressive: bool,
    pub fanouts: Vec<u32>,
    pub seeds: Vec<u64>,
    /// The run named by `outputs.timeline`: (configuration index, fanout, seed).
    pub timeline: Option<(usize, u32, u64)>,
    /// The published figures named by `outputs.reference`, read when the scenario is loaded.
    pub reference: Option<crate::reference::Reference>,
    /// The algorithms of the sweep (`sweep.algorithm`, or `search.algorithm`).
    pub algorithms: Vec<AlgorithmSpec>,
    /// The processor trees of the sweep: one per `sweep.fanout`, then one per `sweep.ptree`.
    pub ptrees: Vec<PTree>,
    /// The lines, level by level, with their rates per processor count.
    pub links: LinkPlan,
    /// When processors read their lines.
    pub reads: ReadPolicies,
    /// Lookahead batching (`gtsim run --step-by-step` turns it off).
    pub batching: bool,
}

impl Plan {
    pub fn name(&self) -> &str {
        &self.scenario.name.0
    }
    /// Short tag of the tree source for results.
    pub fn tree_label(&self) -> &'static str {
        "synthetic"
    }
    /// Simulated runs, baselines included.
    pub fn run_count(&self) -> usize {
        let sweep = self.ptrees.iter().filter(|p| !p.is_uniprocessor()).count() + 1;
        self.configs.len() * self.algorithms.len() * sweep * self.seeds.len()
    }
}

/// Short tag of an ordering for results and legends.
pub fn ordering_label(o: &Ordering) -> String {
    match o {
        Ordering::Random => "random".into(),
        Ordering::Perfect => "perfect".into(),
        Ordering::FirstBest { p } => format!("first_best({p})"),
        Ordering::Geometric { p } => format!("geometric({p})"),
        Ordering::Weights(_) => "weights".into(),
    }
}

fn convert_ordering(o: &schema::Ordering) -> Ordering {
    match o {
        schema::Ordering::Random => Ordering::Random,
        schema::Ordering::Perfect => Ordering::Perfect,
        schema::Ordering::FirstBest { p } => Ordering::FirstBest { p: p.0 },
        schema::Ordering::Geometric { p } => Ordering::Geometric { p: p.0 },
        schema::Ordering::Weights(w) => Ordering::Weights(w.clone()),
    }
}

/// Reads and validates a scenario file.
pub fn load(path: &Path) -> Result<Plan, ScenarioError> {
    let file = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|source| ScenarioError::Read {
        file: file.clone(),
        source,
    })?;
    parse(&src, path)
}

/// Validates scenario text; `path` names it in errors.
pub fn parse(src: &str, path: &Path) -> Result<Plan, ScenarioError> {
    let file = path.display().to_string();
    // implicit_some: optional fields take a bare value (`timeline: (fanout: 4, seed: 1)`);
    // `Some(...)` is accepted too.
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let scenario: Scenario = options.from_str(src).map_err(|e| ScenarioError::At {
        file: file.clone(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })?;
    let at = |keys: &[&str], message: String| {
        let (line, col) = locate(src, keys);
        ScenarioError::At {
            file: file.clone(),
            line,
            col,
            message,
        }
    };

    let hw = &scenario.hardware;
    let clock = hw.clock_hz.0;
    let dur = |d: &Duration| -> SimTime {
        match *d {
            Duration::Ns(n) => SimTime(n),
            Duration::Us(a) => SimTime((a.0 * 1e3).round() as u64),
            Duration::Ms(a) => SimTime((a.0 * 1e6).round() as u64),
            Duration::S(a) => SimTime((a.0 * 1e9).round() as u64),
            Duration::Cycles(c) => cycles(c, clock),
        }
    };
    let costs = CostModel {
        k: dur(&hw.costs.k),
        e: dur(&hw.costs.e),
        s: dur(&hw.costs.s),
        interrupt: dur(&hw.costs.interrupt),
    };
    if costs.e == SimTime::ZERO {
        return Err(at(
            &["costs", "e"],
            "leaf evaluation cost e must be positive (speedups and overheads divide by it)".into(),
        ));
    }

    let Workload::Synthetic {
        width,
        depth,
        ordering,
        value_spread,
        horizon_noise,
    } = &scenario.workload;
    if value_spread.0 > 1_000_000 || *horizon_noise > 1_000_000 {
        return Err(at(
            &["workload", "value_spread"],
            "value_spread and horizon_noise must be at most 1000000".into(),
        ));
    }
    let sweep = &scenario.sweep;
    let widths: Vec<u64> = if sweep.width.is_empty() {
        vec![width.0]
    } else {
        sweep.width.iter().map(|w| w.0).collect()
    };
    let depths: Vec<u64> = if sweep.depth.is_empty() {
        vec![depth.0]
    } else {
        sweep.depth.iter().map(|d| d.0).collect()
    };
    let orderings: Vec<(Ordering, &[&str])> = if sweep.ordering.is_empty() {
        vec![(convert_ordering(ordering), &["workload", "ordering"][..])]
    } else {
        sweep
            .ordering
            .iter()
            .map(|o| (convert_ordering(o), &["sweep", "ordering"][..]))
            .collect()
    };
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
    let noises: Vec<u32> = if sweep.horizon_noise.is_empty() {
        vec![*horizon_noise]
    } else {
        sweep.horizon_noise.clone()
    };
    if noises.iter().any(|&n| n > 1_000_000) {
        return Err(at(
            &["sweep", "horizon_noise"],
            "horizon_noise must be at most 1000000".into(),
        ));
    }
    let mut configs = Vec::new();
    for &w in &widths {
        if w > MAX_WIDTH {
            return Err(at(
                width_at,
                format!("width {w} is above the limit of {MAX_WIDTH}"),
            ));
        }
        for &d in &depths {
            if d > MAX_DEPTH {
                return Err(at(
                    depth_at,
                    format!("depth {d} is above the limit of {MAX_DEPTH}"),
                ));
            }
            for (o, o_at) in &orderings {
                o.weights(w as usize).map_err(|m| at(o_at, m))?;
                for &noise in &noises {
                    let spec = SyntheticSpec {
                        width: w as u32,
                        depth: d as u32,
                        ordering: o.clone(),
                        value_spread: value_spread.0 as u32,
                        horizon_noise: noise,
                    };
                    if configs.contains(&spec) {
                        return Err(at(
                            &["sweep"],
                            format!(
                                "the tree configuration w = {w}, d = {d}, {}, horizon noise {noise} appears twice",
                                ordering_label(o)
                            ),
                        ));
                    }
                    configs.push(spec);
                }
            }
        }
    }

    // The algorithms: sweep.algorithm, or search.algorithm.
    let convert_algorithm = |a: &schema::Algorithm| match a {
        schema::Algorithm::Pmws => AlgorithmSpec::Pmws,
        schema::Algorithm::TreeSplit { update } => AlgorithmSpec::TreeSplit { update: *update },
    };
    let (algorithms, algorithm_at): (Vec<AlgorithmSpec>, &[&str]) =
        if scenario.sweep.algorithm.is_empty() {
            (
                vec![convert_algorithm(&scenario.search.algorithm)],
                &["search", "algorithm"],
            )
        } else {
            (
                scenario
                    .sweep
                    .algorithm
                    .iter()
                    .map(convert_algorithm)
                    .collect(),
                &["sweep", "algorithm"],
            )
        };
    for (i, a) in algorithms.iter().enumerate() {
        if algorithms[..i].contains(a) {
            return Err(at(algorithm_at, format!("algorithm {a} is listed twice")));
        }
        if matches!(a, AlgorithmSpec::TreeSplit { .. }) && scenario.search.progressive_deepening {
            return Err(at(
                &["search", "progressive_deepening"],
                format!("{a} searches to a fixed depth, as in Campbell's thesis: set search.progressive_deepening: false"),
            ));
        }
    }

    // The processor trees: the paper's (fanout, length), then Campbell's (depth, width).
    let mut fanouts = Vec::new();
    let mut ptrees = Vec::new();
    if scenario.sweep.fanout.is_empty() && scenario.sweep.ptree.is_empty() {
        return Err(at(
            &["sweep", "fanout"],
            "the sweep lists no processor tree: give sweep.fanout (processor counts) or sweep.ptree ((depth, width) pairs)".into(),
        ));
    }
    for f in &scenario.sweep.fanout {
        if f.0 > MAX_FANOUT {
            return Err(at(
                &["sweep", "fanout"],
                format!("fanout {} is above the limit of {MAX_FANOUT}", f.0),
            ));
        }
        if fanouts.contains(&(f.0 as u32)) {
            return Err(at(
                &["sweep", "fanout"],
                format!("fanout {} is listed twice", f.0),
            ));
        }
        let processors = f.0.checked_pow(hw.length.0.min(64) as u32);
        if hw.length.0 > 64 || processors.is_none_or(|p| p > MAX_FANOUT) {
            return Err(at(
                &["hardware", "length"],
                format!(
                    "fanout {} and length {} make more than {MAX_FANOUT} processors",
                    f.0, hw.length.0
                ),
            ));
        }
        fanouts.push(f.0 as u32);
        ptrees.push(PTree::Paper {
            fanout: f.0 as u32,
            length: hw.length.0 as u32,
        });
    }
    for shape in &scenario.sweep.ptree {
        let (d, w) = (shape.depth.0, shape.width.0);
        // 1 + w + w^2 + … + w^d processors.
        let processors = (0..=d.min(64)).try_fold(0u64, |sum, level| {
            w.checked_pow(level as u32).and_then(|n| sum.checked_add(n))
        });
        if d > 64 || processors.is_none_or(|p| p > MAX_FANOUT) {
            return Err(at(
                &["sweep", "ptree"],
                format!("the processor tree (depth {d}, width {w}) has more than {MAX_FANOUT} processors"),
            ));
        }
        let p = PTree::Campbell {
            depth: d as u32,
            width: w as u32,
        };
        if ptrees.contains(&p) {
            return Err(at(
                &["sweep", "ptree"],
                format!("the processor tree (depth {d}, width {w}) is listed twice"),
            ));
        }
        ptrees.push(p);
    }
    for a in &algorithms {
        for p in &ptrees {
            if let Some(why) = a.unsupported(p) {
                let field: &[&str] = match p {
                    PTree::Paper { .. } => &["hardware", "length"],
                    PTree::Campbell { .. } => &["sweep", "ptree"],
                };
                return Err(at(field, why));
            }
        }
    }
    // Most children of any processor, for the SCI's ports, and the sweep field that asks for it.
    let (most_children, most_at, most_label) = ptrees
        .iter()
        .map(|p| {
            let field: &[&str] = match p {
                PTree::Paper { .. } => &["sweep", "fanout"],
                PTree::Campbell { .. } => &["sweep", "ptree"],
            };
            (p.build().width() as u64, field, p.describe())
        })
        .max_by_key(|x| x.0)
        .unwrap_or((0, &["sweep"][..], String::new()));

    let level_link = |link: &Link, field: &'static str| -> Result<LevelLink, ScenarioError> {
        let (spec, rates) = match link {
            Link::Sci {
                rate,
                rts_cts,
                ports,
                rate_by_processors,
            } => {
                if most_children > ports.0 {
                    return Err(at(
                        most_at,
                        format!(
                            "the processor tree {most_label} needs {most_children} serial ports but the SCI has {} (hardware.{field}.ports)",
                            ports.0
                        ),
                    ));
                }
                (LinkSpec::serial(rate.0, *rts_cts), rate_by_processors)
            }
            Link::Serial {
                rate,
                rts_cts,
                rate_by_processors,
            } => (LinkSpec::serial(rate.0, *rts_cts), rate_by_processors),
            Link::Ideal => {
                return Ok(LevelLink {
                    spec: LinkSpec::ideal(),
                    rate_by_processors: vec![],
                })
            }
        };
        Ok(LevelLink {
            spec,
            rate_by_processors: rates.iter().map(|(&p, r)| (p, r.0)).collect(),
        })
    };
    let mut levels = vec![level_link(&hw.link, "link")?];
    if let Some(below) = &hw.link_below {
        levels.push(level_link(below, "link_below")?);
    }
    let link = levels[0].spec;
    let links = LinkPlan { levels };
    let read = |r: &schema::Read| match r {
        schema::Read::Interrupt => ReadPolicy::Interrupt,
        schema::Read::Poll { every } => ReadPolicy::Poll {
            every: every.0.min(u32::MAX as u64) as u32,
        },
        schema::Read::WhenIdle => ReadPolicy::WhenIdle,
    };
    let reads = ReadPolicies {
        hosts: read(&hw.reads.hosts),
        boards: read(&hw.reads.boards),
    };

    let seeds = scenario.sweep.seeds.list();
    if seeds.is_empty() {
        return Err(at(&["sweep", "seeds"], "sweep.seeds lists no seed".into()));
    }
    if seeds.len() > 100_000 {
        return Err(at(
            &["sweep", "seeds"],
            format!("{} seeds is more than the limit of 100000", seeds.len()),
        ));
    }
    let mut sorted = seeds.clone();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(at(
            &["sweep", "seeds"],
            format!("seed {} is listed twice", w[0]),
        ));
    }

    let total = configs.len() * algorithms.len() * ptrees.len().max(1) * seeds.len();
    if total > 1_000_000 {
        return Err(at(
            &["sweep"],
            format!("the sweep makes {total} runs, more than the limit of 1000000"),
        ));
    }

    let timeline = match &scenario.outputs.timeline {
        None => None,
        Some(t) => {
            let here = |m: String| at(&["outputs", "timeline"], m);
            if !fanouts.contains(&(t.fanout.0 as u32)) {
                return Err(here(format!(
                    "timeline fanout {} is not in sweep.fanout",
                    t.fanout.0
                )));
            }
            if !seeds.contains(&t.seed) {
                return Err(here(format!(
                    "timeline seed {} is not in the sweep",
                    t.seed
                )));
            }
            let want_o = t.ordering.as_ref().map(convert_ordering);
            let index = configs.iter().position(|c| {
                t.width.is_none_or(|w| w.0 == c.width as u64)
                    && t.depth.is_none_or(|d| d.0 == c.depth as u64)
                    && want_o.as_ref().is_none_or(|o| *o == c.ordering)
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

    let reference = match &scenario.outputs.reference {
        None => None,
        Some(name) => {
            let file_path = path.parent().unwrap_or(Path::new(".")).join(name);
            Some(crate::reference::read(&file_path).map_err(|m| at(&["outputs", "reference"], m))?)
        }
    };

    Ok(Plan {
        algorithms,
        ptrees,
        links,
        reads,
        batching: true,
        reference,
        progressive: scenario.search.progressive_deepening,
        file: path.to_path_buf(),
        costs,
        link,
        configs,
        fanouts,
        seeds,
        timeline,
        scenario,
    })
}

/// Line and column (1-based) of the field reached by following `keys` (each searched after the
/// previous one), skipping comments and strings; the start of the file if not found.
fn locate(src: &str, keys: &[&str]) -> (usize, usize) {
    let bytes = src.as_bytes();
    let mut pos = 0usize;
    let mut found = None;
    'keys: for key in keys {
        let mut i = pos;
        while i < bytes.len() {
            match bytes[i] {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                        i += 1;
                    }
                    i += 2;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        if bytes[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    let mut j = i;
                    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if &src[start..i] == *key && bytes.get(j) == Some(&b':') {
                        pos = i;
                        found = Some(start);
                        continue 'keys;
                    }
                }
                _ => i += 1,
            }
        }
        break;
    }
    let at = found.unwrap_or(0);
    let line = src[..at].matches('\n').count() + 1;
    let col = at - src[..at].rfind('\n').map(|n| n + 1).unwrap_or(0) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_skips_comments_and_strings() {
        let src = "// sweep: fanout: no\n(name: \"fanout:\",\n sweep: (\n   fanout: [1])";
        assert_eq!(locate(src, &["sweep", "fanout"]), (4, 4));
        assert_eq!(locate(src, &["nothing"]), (1, 1));
    }
}
