//! The `hardware` section: the cost model, the lines level by level (with the serial
//! interface's port check against the sweep's processor trees), and when processors read them.

use super::locate::Source;
use super::ScenarioError;
use crate::catalogue::Algorithm;
use crate::dispatch::{LevelLink, LinkPlan, NetworkPlan, PTree};
use crate::schema::{self, Duration, Hardware, Link};
use sim_core::SimTime;
use sim_hw::{
    cycles, BusSpec, CostModel, Forwarding, LinkSpec, MemorySpec, Numa, PoolNetwork, ReadPolicies,
    ReadPolicy, Routing, SciSpec, SerialInterface,
};

/// A duration of the hardware section in whole nanoseconds; cycles (at `hw.clock_hz`) that make
/// more than u64 nanoseconds are an error at `path`, never a wrap (the time units are bounded
/// by the schema).
fn duration(
    cx: &Source,
    hw: &Hardware,
    path: &[&str],
    d: &Duration,
) -> Result<SimTime, ScenarioError> {
    let clock = hw.clock_hz.0;
    // At most a million hours, in whatever unit it is written.
    let written = match *d {
        Duration::Us(a) => Some((a.0, 1e-6, "Us")),
        Duration::Ms(a) => Some((a.0, 1e-3, "Ms")),
        Duration::S(a) => Some((a.0, 1.0, "S")),
        Duration::Ns(_) | Duration::Cycles(_) => None,
    };
    if let Some((amount, scale, unit)) = written.filter(|(a, scale, _)| a * scale > 1e6 * 3600.0) {
        return Err(cx.at(
            path,
            format!(
                "a duration must be under a million hours, got {unit}({amount}), {:e} s",
                amount * scale
            ),
        ));
    }
    let positive = match *d {
        Duration::Ns(n) | Duration::Cycles(n) => n > 0,
        Duration::Us(a) | Duration::Ms(a) | Duration::S(a) => a.0 > 0.0,
    };
    let t = match nanoseconds(d, clock) {
        Ok(t) => t,
        Err(ns) => {
            let Duration::Cycles(c) = *d else {
                unreachable!("only cycles can make more than u64 nanoseconds")
            };
            return Err(cx.at(
                path,
                format!(
                    "Cycles({c}) at {clock} Hz is {ns} ns, more than the largest simulated \
                     time ({} ns)",
                    u64::MAX
                ),
            ));
        }
    };
    if positive && t == SimTime::ZERO {
        let written = match *d {
            Duration::Ns(n) => format!("Ns({n})"),
            Duration::Us(a) => format!("Us({})", a.0),
            Duration::Ms(a) => format!("Ms({})", a.0),
            Duration::S(a) => format!("S({})", a.0),
            Duration::Cycles(c) => format!("Cycles({c}) at {clock} Hz"),
        };
        return Err(cx.at(
            path,
            format!("{written} is under half a nanosecond, which rounds to 0: gtsim counts time in whole nanoseconds (write Ns(0) for no time)"),
        ));
    }
    Ok(t)
}

/// `d` in whole nanoseconds, as a run takes it (cycles at `clock` Hz); for cycles that make
/// more than u64 nanoseconds, that many nanoseconds as the error (the time units are bounded
/// by the schema).
fn nanoseconds(d: &Duration, clock: u64) -> Result<SimTime, u128> {
    Ok(match *d {
        Duration::Ns(n) => SimTime(n),
        Duration::Us(a) => SimTime((a.0 * 1e3).round() as u64),
        Duration::Ms(a) => SimTime((a.0 * 1e6).round() as u64),
        Duration::S(a) => SimTime((a.0 * 1e9).round() as u64),
        Duration::Cycles(c) => {
            let ns = (c as u128 * 1_000_000_000 + clock as u128 / 2) / clock as u128;
            if ns > u64::MAX as u128 {
                return Err(ns);
            }
            cycles(c, clock)
        }
    })
}

/// `hw` with every duration written as the nanoseconds a run takes (`Ms(4)`, `Us(4000)` and, at
/// 10 MHz, `Cycles(40000)` all become `Ns(4000000)`), so that two hardware sections that load to
/// the same machine compare equal. A duration past u64 nanoseconds (refused by the loader) is
/// left as written. Every field is named, so that a field added to the schema is looked at here.
pub(super) fn in_nanoseconds(hw: &Hardware) -> Hardware {
    let clock = hw.clock_hz.0;
    let ns = |d: &Duration| nanoseconds(d, clock).map_or(*d, |t| Duration::Ns(t.0));
    let link = |l: &Link| match l {
        Link::Sci {
            rate,
            rts_cts,
            ports,
            rate_by_processors,
            capacity,
            host_char,
            board_char,
        } => Link::Sci {
            rate: *rate,
            rts_cts: *rts_cts,
            ports: *ports,
            rate_by_processors: rate_by_processors.clone(),
            capacity: *capacity,
            host_char: ns(host_char),
            board_char: ns(board_char),
        },
        // No durations in these (named, so that one added is looked at here).
        Link::Serial {
            rate: _,
            rts_cts: _,
            rate_by_processors: _,
        }
        | Link::Ideal => l.clone(),
    };
    let Hardware {
        clock_hz,
        costs:
            schema::Costs {
                k,
                e,
                q,
                probe,
                s,
                interrupt,
            },
        link: own_link,
        length,
        reads,
        link_below,
        network,
        memory,
        jitter,
    } = hw;
    Hardware {
        clock_hz: *clock_hz,
        costs: schema::Costs {
            k: ns(k),
            e: ns(e),
            q: ns(q),
            probe: ns(probe),
            s: ns(s),
            interrupt: ns(interrupt),
        },
        link: link(own_link),
        length: *length,
        reads: *reads,
        link_below: link_below.as_ref().map(link),
        network: network.as_ref().map(|n| match n {
            schema::Network::Hypercube {
                forwarding,
                forward_cost,
            } => schema::Network::Hypercube {
                forwarding: *forwarding,
                forward_cost: ns(forward_cost),
            },
            schema::Network::Mesh {
                width,
                height,
                torus,
                forwarding,
                forward_cost,
            } => schema::Network::Mesh {
                width: *width,
                height: *height,
                torus: *torus,
                forwarding: *forwarding,
                forward_cost: ns(forward_cost),
            },
            schema::Network::Tree
            | schema::Network::FullyConnected
            | schema::Network::Bus {
                rate: _,
                header_bytes: _,
                min_frame_bytes: _,
            } => n.clone(),
        }),
        memory: memory.as_ref().map(|m| {
            let schema::Memory {
                read,
                write,
                banks,
                numa,
            } = m;
            schema::Memory {
                read: ns(read),
                write: ns(write),
                banks: *banks,
                numa: numa.clone(),
            }
        }),
        jitter: jitter.clone(),
    }
}

/// The cost `cost` picks of `hw`'s costs in whole nanoseconds, as a run takes it (None past
/// u64 nanoseconds, which the loader refuses).
pub(super) fn in_nanoseconds_of(
    hw: &Hardware,
    cost: fn(&schema::Costs) -> &Duration,
) -> Option<SimTime> {
    nanoseconds(cost(&hw.costs), hw.clock_hz.0).ok()
}

/// The cost model of `hw`, every duration converted to nanoseconds; the leaf evaluation cost
/// must be positive.
pub(super) fn costs(cx: &Source, hw: &Hardware) -> Result<CostModel, ScenarioError> {
    let dur = |field: &str, d: &Duration| duration(cx, hw, &["hardware", "costs", field], d);
    let c = &hw.costs;
    let costs = CostModel {
        k: dur("k", &c.k)?,
        e: dur("e", &c.e)?,
        q: dur("q", &c.q)?,
        probe: dur("probe", &c.probe)?,
        s: dur("s", &c.s)?,
        interrupt: dur("interrupt", &c.interrupt)?,
    };
    if costs.e == SimTime::ZERO {
        return Err(cx.at(
            &["hardware", "costs", "e"],
            "leaf evaluation cost e must be positive (speedups and overheads divide by it)".into(),
        ));
    }
    Ok(costs)
}

/// A warning when the costs price quiescence nodes (`q`) on trees that have none (synthetic
/// and Campbell's trees; chess searches captures past the horizon): q is never charged, and
/// such costs were made for chess, where a leaf's evaluation is priced alone and its capture
/// search by q, while a synthetic leaf stands for a whole horizon search. Run on synthetic
/// trees with a leaf cheaper than pmws-uniform.ron's, they simulate a faster machine than
/// the one the paper's figures come from, which the warning then says.
pub(super) fn unused_quiescence(
    cx: &Source,
    costs: &CostModel,
    generator: super::Generator,
) -> Option<String> {
    let trees = match generator {
        super::Generator::Chess => return None,
        super::Generator::Synthetic => "synthetic trees",
        super::Generator::Campbell => "Campbell's trees",
    };
    // pmws-uniform.ron's leaf on Parabelle's synthetic trees: its whole horizon search.
    let paper_leaf = SimTime::from_micros(25_650);
    (costs.q > SimTime::ZERO).then(|| {
        let faster = if generator == super::Generator::Synthetic && costs.e < paper_leaf {
            format!(
                "; with e = {} a leaf costs less than pmws-uniform.ron's 25.65 ms, so these costs simulate a faster machine than the one the paper's figures come from",
                crate::util::duration_words(costs.e)
            )
        } else {
            String::new()
        };
        cx.warning_at(
            &["hardware", "costs", "q"],
            format!(
                "quiescence nodes cost {} here, but {trees} have none: q is not used. Costs with a q are made for chess, where e prices a leaf's evaluation alone and q its capture search, while a leaf of {trees} stands for the whole search below the horizon{faster}",
                crate::util::duration_words(costs.q),
            ),
        )
    })
}

/// A warning when the costs price a table probe (`probe`) that no algorithm of the plan
/// charges ([`crate::catalogue::Entry::probes`]: Parabelle with a table, APHID): the probe
/// changes nothing. Said only of a probe the scenario gives (its own costs, `--set`, `vary`),
/// not of its machine's (`machine_probe`, the machine's probe in nanoseconds when it has one):
/// a machine's costs describe the machine, whatever the plan runs on it. Not said beside
/// Parabelle without a table either, whose `table` option brings the probe in
/// ([`Algorithm::owns_probe_cost`]: parabelle-table2.ron keeps its table runs' costs).
pub(super) fn unused_probe(
    cx: &Source,
    costs: &CostModel,
    algorithms: &[Algorithm],
    machine_probe: Option<SimTime>,
) -> Option<String> {
    let used = algorithms.iter().any(|a| a.owns_probe_cost());
    (costs.probe > SimTime::ZERO && !used && machine_probe != Some(costs.probe)).then(|| {
        cx.warning_at(
            &["hardware", "costs", "probe"],
            format!(
                "a table probe costs {} here, but no algorithm of the plan probes a transposition table: probe is not used (Parabelle with table: Global or Local, and aphid's master, charge it; lazy_smp's and abdada's tables are in hardware.memory, at its read and write costs)",
                crate::util::duration_words(costs.probe),
            ),
        )
    })
}

/// A warning when the network is a bus and `hw.link` is not `Ideal`: a bus has no lines, every
/// message is a frame on the one medium at the bus's rate, so the link changes nothing. `Ideal`
/// says nothing (the field is required; the shipped machine ethernet-10mbit writes it so).
/// Not said when `exempt`: the combinations of `vary` change the network (the link then
/// serves the others' lines, as ybwc-scale.ron's serves its hypercube and FullyConnected
/// networks beside its bus), or the link is the named machine's (it describes the machine).
pub(super) fn unused_link(cx: &Source, hw: &Hardware, exempt: bool) -> Option<String> {
    let bus = matches!(hw.network, Some(schema::Network::Bus { .. }));
    (bus && hw.link != Link::Ideal && !exempt).then(|| {
        cx.warning_at(
            &["hardware", "link"],
            "not used: hardware.network is a Bus, one shared medium on which every message is a frame at the bus's own rate, so no message takes the lines of link (write link: Ideal, or choose a network of lines: FullyConnected, Hypercube or Mesh)".into(),
        )
    })
}

/// A warning when a hypercube's or mesh's software forwarding costs other than the interrupt,
/// its network is the named machine's (`machine`: its name and its own hardware section, when
/// it gives the network) and the scenario changed the machine's interrupt cost: `forward_cost`
/// is a field of its own that does not follow `costs.interrupt`, though a machine may set them
/// equal (hypercube-10mbit's 1 ms), so that a scenario lowering the interrupt still forwards
/// at the machine's cost. Said at `costs.interrupt`, the field the scenario changed, with the
/// network to set for forwarding at the interrupt cost.
pub(super) fn forwarding_apart(
    cx: &Source,
    hw: &Hardware,
    costs: &CostModel,
    machine: Option<(&str, &Hardware)>,
) -> Option<String> {
    let (name, own) = machine?;
    let (kind, forward_cost) = match hw.network.as_ref()? {
        schema::Network::Hypercube {
            forwarding: schema::Forwarding::Software,
            forward_cost,
        } => ("Hypercube", forward_cost),
        schema::Network::Mesh {
            forwarding: schema::Forwarding::Software,
            forward_cost,
            ..
        } => ("Mesh", forward_cost),
        _ => return None,
    };
    let forward = nanoseconds(forward_cost, hw.clock_hz.0).ok()?;
    let changed = in_nanoseconds_of(own, |c| &c.interrupt) != Some(costs.interrupt);
    (changed && forward != costs.interrupt).then(|| {
        let at_interrupt = match hw.network.as_ref() {
            Some(schema::Network::Mesh {
                width,
                height,
                torus,
                ..
            }) => {
                let mut fields = Vec::new();
                if let (Some(w), Some(h)) = (width, height) {
                    fields.push(format!("width: {}, height: {}", w.0, h.0));
                }
                if *torus {
                    fields.push("torus: true".into());
                }
                fields.push(format!(
                    "forwarding: Software, forward_cost: {}",
                    written(costs.interrupt)
                ));
                format!("Mesh({})", fields.join(", "))
            }
            _ => format!(
                "Hypercube(forwarding: Software, forward_cost: {})",
                written(costs.interrupt)
            ),
        };
        cx.warning_at(
            &["hardware", "costs", "interrupt"],
            format!(
                "{} here, but the {kind}'s software forwarding still costs {} per message an intermediate processor forwards (the forward_cost of machine {name:?}): forward_cost is hardware.network's own field and does not follow interrupt (to forward at the interrupt cost, set hardware.network={at_interrupt})",
                crate::util::duration_words(costs.interrupt),
                crate::util::duration_words(forward),
            ),
        )
    })
}

/// `t` as a scenario writes a duration, exactly: `Ms(1)`, `Us(10)`, `Ns(1500)`.
fn written(t: SimTime) -> String {
    let ns = t.as_nanos();
    if ns > 0 && ns.is_multiple_of(1_000_000) {
        format!("Ms({})", ns / 1_000_000)
    } else if ns > 0 && ns.is_multiple_of(1_000) {
        format!("Us({})", ns / 1_000)
    } else {
        format!("Ns({ns})")
    }
}

/// Timing noise as loaded: its largest change in thousandths, and its seed.
pub(super) type JitterPlan = (u32, u64);

/// The shared memory of `hw.memory` and the step-cost noise of `hw.jitter` (its thousandths
/// and seed), checked: latencies are durations, a NUMA factor at least 1, the noise below
/// 100 %; a scheme that needs shared memory is refused without it.
pub(super) fn memory(
    cx: &Source,
    hw: &Hardware,
    algorithms: &[Algorithm],
) -> Result<(Option<MemorySpec>, Option<JitterPlan>), ScenarioError> {
    let jitter = match &hw.jitter {
        None => None,
        Some(j) => {
            let x = j.percent;
            let at = ["hardware", "jitter", "percent"];
            if !(x.is_finite() && (0.0..=99.9).contains(&x)) {
                return Err(cx.at(
                    &at,
                    format!("the timing noise must be a percentage from 0 to 99.9, got {x}"),
                ));
            }
            // The engine draws the noise in whole thousandths of a step's cost: a percentage
            // between two tenths would be rounded to one of them without a word (0.04 to no
            // noise at all). The tolerance only forgives the binary error of a decimal such
            // as 0.3; a positive percentage never becomes no noise.
            let tenths = x * 10.0;
            if (tenths - tenths.round()).abs() > 1e-9 || (x > 0.0 && tenths.round() == 0.0) {
                return Err(cx.at(
                    &at,
                    format!(
                        "the timing noise is drawn in steps of 0.1 % (thousandths of a step's cost), got {x}: write a multiple of 0.1 (such as {} or {})",
                        tenths.floor() / 10.0,
                        tenths.ceil() / 10.0
                    ),
                ));
            }
            Some((tenths.round() as u32, j.seed))
        }
    };
    let Some(m) = &hw.memory else {
        if let Some(a) = algorithms.iter().find(|a| a.needs_memory()) {
            return Err(cx.at(
                &["hardware", "memory"],
                format!(
                    "{} runs on shared memory: give the machine one, e.g. memory: (read: Ns(100), write: Ns(100), banks: 64)",
                    a.entry().name
                ),
            ));
        }
        return Ok((None, jitter));
    };
    let at = |f: &'static str| ["hardware", "memory", f];
    let read = duration(cx, hw, &at("read"), &m.read)?;
    let write = duration(cx, hw, &at("write"), &m.write)?;
    if m.banks.0 > u32::MAX as u64 {
        return Err(cx.at(
            &at("banks"),
            format!("at most {} banks, got {}", u32::MAX, m.banks.0),
        ));
    }
    let numa = match &m.numa {
        None => None,
        Some(n) => {
            let f = n.remote_factor;
            if !(f.is_finite() && (1.0..=1000.0).contains(&f)) {
                return Err(cx.at(
                    &["hardware", "memory", "numa", "remote_factor"],
                    format!("a remote access takes 1 to 1000 times a local one, got {f}"),
                ));
            }
            if n.per_node.0 > u32::MAX as u64 {
                return Err(cx.at(
                    &["hardware", "memory", "numa", "per_node"],
                    format!("at most {} processors per node", u32::MAX),
                ));
            }
            Some(Numa {
                per_node: n.per_node.0 as u32,
                remote_permille: (f * 1000.0).round() as u32,
            })
        }
    };
    Ok((
        Some(MemorySpec {
            read,
            write,
            banks: m.banks.0 as u32,
            numa,
        }),
        jitter,
    ))
}

/// The pool network of `hw.network` (None for the processor tree's own lines), checked against
/// every machine of the sweep (`ptrees`, whose counts come from `count_field`): a hypercube
/// needs a power of two processors, a mesh of given width and height exactly their product.
/// A pool network takes one kind of line: not the SCI (a processor tree's device) and not
/// `link_below`.
pub(super) fn network(
    cx: &Source,
    hw: &Hardware,
    ptrees: &[PTree],
    count_field: &[&str],
) -> Result<Option<NetworkPlan>, ScenarioError> {
    let at = &["hardware", "network"];
    let routing =
        |forwarding: &schema::Forwarding, cost: &Duration| -> Result<Routing, ScenarioError> {
            Ok(Routing {
                forwarding: match forwarding {
                    schema::Forwarding::Software => Forwarding::Software,
                    schema::Forwarding::Hardware => Forwarding::Hardware,
                },
                cost: duration(cx, hw, &["hardware", "network", "forward_cost"], cost)?,
            })
        };
    let plan = match &hw.network {
        None | Some(schema::Network::Tree) => return Ok(None),
        Some(schema::Network::FullyConnected) => NetworkPlan::Fixed(PoolNetwork::FullyConnected),
        Some(schema::Network::Hypercube {
            forwarding,
            forward_cost,
        }) => NetworkPlan::Fixed(PoolNetwork::Hypercube(routing(forwarding, forward_cost)?)),
        Some(schema::Network::Mesh {
            width,
            height,
            torus,
            forwarding,
            forward_cost,
        }) => {
            let routing = routing(forwarding, forward_cost)?;
            match (width, height) {
                (None, None) => NetworkPlan::SquareMesh {
                    torus: *torus,
                    routing,
                },
                (Some(w), Some(h)) if w.0 <= u32::MAX as u64 && h.0 <= u32::MAX as u64 => {
                    NetworkPlan::Fixed(PoolNetwork::Mesh {
                        width: w.0 as u32,
                        height: h.0 as u32,
                        torus: *torus,
                        routing,
                    })
                }
                (Some(_), Some(_)) => {
                    return Err(cx.at(at, "a mesh's width and height must each be at most 4294967295".into()))
                }
                _ => {
                    return Err(cx.at(
                        at,
                        "give a mesh both width and height, or neither (then each processor count gets the most nearly square mesh)".into(),
                    ))
                }
            }
        }
        Some(schema::Network::Bus {
            rate,
            header_bytes,
            min_frame_bytes,
        }) => NetworkPlan::Fixed(PoolNetwork::Bus(BusSpec {
            rate: rate.0,
            header_bytes: *header_bytes,
            min_frame_bytes: *min_frame_bytes,
        })),
    };
    if matches!(hw.link, Link::Sci { .. }) {
        return Err(cx.at(
            &["hardware", "link"],
            "the SCI is the master's serial interface on a processor tree (hardware.network: Tree); a pool network's lines are Serial(..) or Ideal".into(),
        ));
    }
    if hw.link_below.is_some() {
        return Err(cx.at(
            &["hardware", "link_below"],
            "a pool network has one kind of line (hardware.link): link_below is for the levels of a processor tree (hardware.network: Tree)".into(),
        ));
    }
    // One processor has no network (see `dispatch::platform`).
    for p in ptrees.iter().filter(|p| !p.is_uniprocessor()) {
        let n = p.build().len();
        if let Err(e) = plan.at(n).check(n) {
            return Err(cx.at(at, format!("{e} ({} lists {n})", count_field.join("."))));
        }
    }
    Ok(Some(plan))
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
/// must have ports for the most children of any processor of the sweep's `ptrees`;
/// `processors` are the pool sizes of `sweep.processors` (for the rates by processor count).
pub(super) fn machine(
    cx: &Source,
    hw: &Hardware,
    ptrees: &[PTree],
    processors: &[u64],
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
                capacity,
                host_char,
                board_char,
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
                let mut spec = LinkSpec::serial(rate.0, *rts_cts);
                // The interface as a device only if a field of it is set: left out, the lines
                // are exactly the plain lines of before.
                let host_char = duration(cx, hw, &["hardware", field, "host_char"], host_char)?;
                let board_char = duration(cx, hw, &["hardware", field, "board_char"], board_char)?;
                if capacity.is_some() || host_char > SimTime::ZERO || board_char > SimTime::ZERO {
                    spec = spec.with_sci(SciSpec {
                        capacity: capacity.map(|c| c.0),
                        host_char,
                        board_char,
                    });
                }
                (spec, rate_by_processors)
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
    let mut warnings = Vec::new();
    // Settings no run of the sweep uses: said, not silently dropped.
    let deepest = ptrees
        .iter()
        .map(|p| match p {
            PTree::Paper { length, .. } => *length,
            PTree::Campbell { depth, .. } => *depth,
        })
        .max()
        .unwrap_or(0);
    if hw.memory.is_some() && !algorithms.iter().any(|a| a.needs_memory()) {
        warnings.push(cx.warning_at(
            &["hardware", "memory"],
            "the shared memory is not used: no algorithm of the plan reaches it (ybwc_shared, dts, abdada and lazy_smp with its table do)".into(),
        ));
    }
    let parallel = ptrees.iter().any(|p| !p.is_uniprocessor()) || processors.iter().any(|&n| n > 1);
    // Said where the user can act: read policies are optional (the network and the link are
    // required of a pool, and report.md's machine line says they go unused).
    let reads_given = hw.reads.hosts.is_some() || hw.reads.boards.is_some();
    if parallel && reads_given && !algorithms.iter().any(|a| a.sends_messages()) {
        warnings.push(cx.warning_at(
            &["hardware", "reads"],
            "not used: no algorithm of the plan sends messages (ybwc_shared, dts, lazy_smp and abdada share memory only), so the read policies do not change these runs, nor do the network, its lines and the costs s and interrupt (report.md's machine line says so)".into(),
        ));
    }
    if let Some(numa) = hw.memory.as_ref().and_then(|m| m.numa.as_ref()) {
        let largest = sizes_of(ptrees, processors).last().copied().unwrap_or(1);
        if numa.per_node.0 >= largest {
            warnings.push(cx.warning_at(
                &["hardware", "memory", "numa", "per_node"],
                format!(
                    "{} processors per node, and no machine of the sweep has more than {largest}: every processor is on the first node, so no access is remote and remote_factor changes nothing",
                    numa.per_node.0
                ),
            ));
        }
    }
    if hw.link_below.is_some() && deepest <= 1 {
        warnings.push(cx.warning_at(
            &["hardware", "link_below"],
            "the lines below the first level are not used: every processor tree of the sweep has one level of lines (hardware.link)".into(),
        ));
    }
    let sizes = sizes_of(ptrees, processors);
    for (level, field) in levels.iter().zip(["link", "link_below"]) {
        for &(n, _) in &level.rate_by_processors {
            if !sizes.contains(&n) {
                warnings.push(cx.warning_at(
                    &["hardware", field, "rate_by_processors"],
                    format!(
                        "no machine of the sweep has {n} processors (they have {}): that rate is not used",
                        sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
    }
    let link = levels[0].spec;
    let links = LinkPlan { levels };
    let read = |r: &schema::Read| match r {
        schema::Read::Interrupt => ReadPolicy::Interrupt,
        schema::Read::Poll { every } => ReadPolicy::Poll { every: *every },
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
    // Said at the field (`hardware.reads.boards: WhenIdle, but …`); left out, the policy is the
    // algorithms' own, and the warning names the field without a place.
    for a in algorithms {
        let Some(what) = a.entry().reaches_running.filter(|_| parallel) else {
            continue;
        };
        for (field, policy, written, applies) in [
            ("boards", reads.boards, &given.boards, true),
            ("hosts", reads.hosts, &given.hosts, deep),
        ] {
            if applies && policy == ReadPolicy::WhenIdle {
                let value = if written.is_some() {
                    "WhenIdle"
                } else {
                    "WhenIdle by default (the algorithms' own)"
                };
                warnings.push(cx.warning_at(
                    &["hardware", "reads", field],
                    format!(
                        "{value}, but {a} sends {what} to running searches: they reach a processor only when its search is over (set {field}: Interrupt or Poll(every: N) for the scheme as its author ran it)"
                    ),
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

/// The machine sizes of the sweep (its processor trees' and pools'), in increasing order, each
/// once.
fn sizes_of(ptrees: &[PTree], processors: &[u64]) -> Vec<u64> {
    let mut sizes: Vec<u64> = ptrees.iter().map(|p| p.processors()).collect();
    sizes.extend(processors.iter().copied());
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// Refuses costs with which a run certainly passes the largest simulated time
/// ([`SimTime::MAX`], about 584 years of nanoseconds), so that `check` refuses what `run`
/// would: every configuration's uniprocessor baseline runs, and on a tree of width w and depth
/// d any search that finds the minimax value visits at least the minimal tree (Knuth and
/// Moore: w^⌈d/2⌉ + w^⌊d/2⌋ − 1 leaves, each charged e, below that many interior nodes, each
/// charged k); a chess position at least one leaf. When that lower bound passes the largest
/// time, the error names the cost that weighs more (`e` or `k`) at its line. A run may still
/// pass it beyond its minimal tree (more leaves, messages, transmission): it then stops with
/// an error naming the run and these fields.
pub(super) fn time_bound(cx: &Source, plan: &super::Plan) -> Result<(), ScenarioError> {
    let (k, e) = (
        plan.costs.k.as_nanos() as u128,
        plan.costs.e.as_nanos() as u128,
    );
    for (c, spec) in plan.configs.iter().enumerate() {
        if !(0..plan.algorithms.len()).any(|a| plan.applies(c, a)) {
            continue;
        }
        let (leaves, interior) = match plan.generator {
            super::Generator::Chess => (1, 0),
            _ => minimal_tree_nodes(spec.width, spec.depth),
        };
        let (leaf_ns, interior_ns) = (leaves.saturating_mul(e), interior.saturating_mul(k));
        let total = leaf_ns.saturating_add(interior_ns);
        if total <= u64::MAX as u128 {
            continue;
        }
        let field = if leaf_ns >= interior_ns { "e" } else { "k" };
        let tree = match plan.generator {
            super::Generator::Chess => format!("a chess position at depth {}", spec.depth),
            _ => format!("the tree of w = {}, d = {}", spec.width, spec.depth),
        };
        let secs = |ns: u128| format!("{:.3e} s", ns as f64 * 1e-9);
        return Err(cx.at(
            &["hardware", "costs", field],
            format!(
                "with these costs one search of {tree} on one processor takes at least {} of simulated time ({} leaves at e = {}, {} interior nodes at k = {}: its minimal tree), more than the largest simulated time ({}): make hardware.costs.{field} smaller",
                secs(total),
                describe(leaves),
                secs(e),
                describe(interior),
                secs(k),
                secs(u64::MAX as u128),
            ),
        ));
    }
    Ok(())
}

/// A count that may have saturated, in words.
fn describe(n: u128) -> String {
    if n == u128::MAX {
        "more than 3.4e38".into()
    } else if n >= 1_000_000 {
        format!("{:.3e}", n as f64)
    } else {
        n.to_string()
    }
}

/// The leaves and the interior nodes of the minimal tree of width `w` and depth `d` (level l
/// holds w^⌈l/2⌉ + w^⌊l/2⌋ − 1 of its nodes), saturating at `u128::MAX`.
fn minimal_tree_nodes(w: u32, d: u32) -> (u128, u128) {
    let pow = |l: u32| (w as u128).checked_pow(l).unwrap_or(u128::MAX);
    let level = |l: u32| {
        pow(l.div_ceil(2))
            .checked_add(pow(l / 2))
            .map_or(u128::MAX, |n| n - 1)
    };
    let interior = (0..d).fold(0u128, |sum, l| sum.saturating_add(level(l)));
    (level(d), interior)
}

#[cfg(test)]
mod tests {
    use super::minimal_tree_nodes;

    #[test]
    fn minimal_trees_count_their_leaves_and_interior_nodes() {
        // w = 2, d = 3: levels of 1, 2, 3 and 5 nodes; w = 24, d = 4: 1151 leaves.
        assert_eq!(minimal_tree_nodes(2, 3), (5, 6));
        assert_eq!(minimal_tree_nodes(24, 4).0, 1151);
        assert_eq!(minimal_tree_nodes(5, 0), (1, 0));
        assert_eq!(minimal_tree_nodes(10_000, 30).0, u128::MAX);
    }
}
