//! The `hardware` section: the cost model, the lines level by level (with the serial
//! interface's port check against the sweep's processor trees), and when processors read them.

use super::locate::Source;
use super::ScenarioError;
use crate::catalogue::Algorithm;
use crate::dispatch::{LevelLink, LinkPlan, PTree};
use crate::schema::{self, Duration, Hardware, Link};
use sim_core::SimTime;
use sim_hw::{cycles, CostModel, LinkSpec, ReadPolicies, ReadPolicy, SerialInterface};

/// The cost model of `hw`, every duration converted to nanoseconds; the leaf evaluation cost
/// must be positive.
pub(super) fn costs(cx: &Source, hw: &Hardware) -> Result<CostModel, ScenarioError> {
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
        q: dur(&hw.costs.q),
        probe: dur(&hw.costs.probe),
        s: dur(&hw.costs.s),
        interrupt: dur(&hw.costs.interrupt),
    };
    if costs.e == SimTime::ZERO {
        return Err(cx.at(
            &["hardware", "costs", "e"],
            "leaf evaluation cost e must be positive (speedups and overheads divide by it)".into(),
        ));
    }
    Ok(costs)
}

/// The machine's lines and read policies (the parts of a [`super::Plan`] of those names).
pub(super) struct Machine {
    /// The root processor's lines (the first level of `links`).
    pub link: LinkSpec,
    /// The lines, level by level, with their rates per processor count.
    pub links: LinkPlan,
    /// When processors read their lines.
    pub reads: ReadPolicies,
    /// Settings that keep a scheme's messages from its running searches.
    pub warnings: Vec<String>,
}

/// The lines of `hw`, level by level, and when processors read them. A serial interface (SCI)
/// must have ports for the most children of any processor of the sweep's `ptrees`.
pub(super) fn machine(
    cx: &Source,
    hw: &Hardware,
    ptrees: &[PTree],
    algorithms: &[Algorithm],
) -> Result<Machine, ScenarioError> {
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
                // The SCI's rule lives in sim-hw; the message names the tree and the field.
                let sci = SerialInterface {
                    ports: ports.0,
                    rate: rate.0,
                };
                if let Err(e) = sci.check(most_children) {
                    return Err(cx.at(
                        most_at,
                        format!("the processor tree {most_label} {e} (hardware.{field}.ports)"),
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
    // Left out: the algorithms' own (their catalogue entries'); algorithms that differ must be
    // told. Sequential searches (one processor, no lines) have none; Parabelle's is the default
    // of a sweep of nothing else.
    let mut own: Vec<(Algorithm, ReadPolicies)> = Vec::new();
    for a in algorithms {
        if let Some(r) = a.entry().reads {
            own.push((*a, r));
        }
    }
    let default = own.first().map_or_else(ReadPolicies::default, |o| o.1);
    let pick = |given: &Option<schema::Read>,
                field: &str,
                of: fn(&ReadPolicies) -> ReadPolicy|
     -> Result<ReadPolicy, ScenarioError> {
        if let Some(r) = given {
            return Ok(read(r));
        }
        match own.iter().find(|o| of(&o.1) != of(&default)) {
            None => Ok(of(&default)),
            Some((other, r)) => Err(cx.at(
                &["hardware", "reads"],
                format!(
                    "{} and {other} read their lines differently by default ({field}: {:?} and {:?}): set hardware.reads.{field}",
                    own[0].0,
                    of(&own[0].1),
                    of(r)
                ),
            )),
        }
    };
    let given = hw.reads;
    let reads = ReadPolicies {
        hosts: pick(&given.hosts, "hosts", |r| r.hosts)?,
        boards: pick(&given.boards, "boards", |r| r.boards)?,
    };
    // A scheme that sends UPDATE or aborts to running searches, on processors that read only
    // when idle: those messages arrive when the search is over. Boards run the searches on
    // every processor tree; hosts too below the root on deeper ones.
    let deep = ptrees
        .iter()
        .any(|p| matches!(p, PTree::Campbell { depth, .. } if *depth > 1));
    let parallel = ptrees.iter().any(|p| !p.is_uniprocessor());
    let mut warnings = Vec::new();
    for a in algorithms {
        let Some(what) = a.entry().reaches_running.filter(|_| parallel) else {
            continue;
        };
        for (field, policy, applies) in
            [("boards", reads.boards, true), ("hosts", reads.hosts, deep)]
        {
            if applies && policy == ReadPolicy::WhenIdle {
                warnings.push(format!(
                    "{}: {a} sends {what} to running searches, but hardware.reads.{field} is WhenIdle: they reach a processor only when its search is over (set {field}: Interrupt or Poll(every: N) for the scheme as its author ran it)",
                    cx.file
                ));
            }
        }
    }
    Ok(Machine {
        link,
        links,
        reads,
        warnings,
    })
}
