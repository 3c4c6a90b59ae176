//! report.md: the plan described, the tables per configuration (and per processor tree on
//! Campbell's trees).

use crate::load::Plan;
use crate::results::{by_config, summary_table, Summary};

/// Whether the plan runs on Campbell's processor trees (then charts are against terminal
/// processors, and report.md compares algorithms per processor tree).
pub(super) fn campbell(plan: &Plan) -> bool {
    plan.ptrees
        .iter()
        .any(|p| matches!(p, crate::dispatch::PTree::Campbell { .. }))
}

/// A cost in the unit that reads best (`1.4 µs`, `25.65 ms`, `400 ns`), to three decimals of
/// that unit (a µs-scale cost in ms would lose its digits); nothing as 0.
fn cost(t: sim_core::SimTime) -> String {
    if t.as_nanos() == 0 {
        "0".into()
    } else {
        crate::util::duration_words(t)
    }
}

fn describe(plan: &Plan) -> String {
    let c = &plan.costs;
    let link = match plan.link.kind {
        sim_hw::LinkKind::Serial { rate } => format!(
            "serial{}, {} per line{}{}{}",
            // Lines through the serial interface unit: how many it serves.
            match plan.scenario.hardware.link {
                crate::schema::Link::Sci { ports, .. } => {
                    format!(" through a serial interface of {} ports", ports.0)
                }
                _ => String::new(),
            },
            crate::util::rate_words(rate),
            // The rates the first level takes on machines of a given size (Table II's 480).
            plan.links
                .levels
                .first()
                .filter(|l| !l.rate_by_processors.is_empty())
                .map_or(String::new(), |l| format!(
                    " ({})",
                    l.rate_by_processors
                        .iter()
                        .map(|(n, r)| format!(
                            "{} with {n} processors",
                            crate::util::rate_words(*r)
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            if plan.link.rts_cts { ", RTS/CTS" } else { "" },
            plan.link.sci.map_or(String::new(), |d| format!(
                "; the serial interface as a device: {}, host {} µs and board {} µs per character",
                d.capacity.map_or("unlimited capacity".into(), |c| format!(
                    "{c} characters/s shared by its ports"
                )),
                d.host_char.as_nanos() as f64 / 1e3,
                d.board_char.as_nanos() as f64 / 1e3
            ))
        ),
        sim_hw::LinkKind::Ideal => "ideal (no transmission time)".into(),
    };
    // On a pool network: the network, and its lines unless it is a bus (which has none).
    let link = match plan.network {
        None => link,
        Some(n @ crate::dispatch::NetworkPlan::Fixed(sim_hw::PoolNetwork::Bus(_))) => {
            format!("none; network: {}", n.describe())
        }
        Some(n) => format!("{link}; network: {}", n.describe()),
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
        // probe only where a search of the plan charges it (its own table's probes: not
        // lazy_smp's or abdada's shared table, whose reads are memory accesses, nor a table-free
        // run; aphid's table does).
        let probe = if plan.algorithms.iter().any(|a| a.entry().probes) {
            format!(", probe = {}", cost(c.probe))
        } else {
            String::new()
        };
        format!(
            "k = {}, e = {}, q = {}{probe}, s = {}, interrupt = {}",
            cost(c.k),
            cost(c.e),
            cost(c.q),
            cost(c.s),
            cost(c.interrupt)
        )
    } else {
        format!(
            "k = {}, e = {}, s = {}, interrupt = {}",
            cost(c.k),
            cost(c.e),
            cost(c.s),
            cost(c.interrupt)
        )
    };
    // Pools (sweep.processors, or a pool network) have sizes, not trees; a plan of one processor has neither.
    let pools = (!plan.scenario.sweep.processors.is_empty() || plan.network.is_some())
        && plan
            .ptrees
            .iter()
            .all(|p| matches!(p, crate::dispatch::PTree::Paper { length: 1, .. }));
    let machines = if plan.ptrees.iter().all(|p| p.is_uniprocessor()) {
        "one processor".to_string()
    } else if pools {
        format!("machines of {} processors", crate::util::or_list(&ptrees))
    } else {
        format!("processor trees {}", ptrees.join(", "))
    };
    // A plan of schemes that share memory only uses neither its lines nor their read policies.
    let unused = if plan.algorithms.iter().any(|a| a.sends_messages()) {
        ""
    } else {
        " (the lines, s, interrupt and read policies are not used: no scheme of the plan sends messages)"
    };
    let memory = plan.memory.as_ref().map_or(String::new(), |m| {
        format!(
            "; shared memory: {} a read, {} a write, {} banks{}",
            cost(m.read),
            cost(m.write),
            m.banks,
            m.numa.as_ref().map_or(String::new(), |n| format!(
                ", NUMA nodes of {} processors, a remote access {} times as long",
                n.per_node,
                n.remote_permille as f64 / 1000.0
            ))
        )
    });
    let jitter = plan.jitter.map_or(String::new(), |(permille, seed)| {
        format!(
            "; every search step's cost varied by up to ±{} % (seed {seed})",
            permille as f64 / 10.0
        )
    });
    format!(
        "{} on {}, {}, {machines}, {}.\n\
         Costs: {costs}{jitter}; links: {}{levels}; {}{unused}{memory}.",
        algorithms.join(", "),
        source,
        plan.seed_count(),
        if plan.progressive {
            "progressive deepening from depth 1".to_string()
        } else {
            // Lazy SMP and ABDADA deepen by an option of their own.
            let own: Vec<String> = plan
                .algorithms
                .iter()
                .filter(|a| {
                    matches!(
                        a,
                        crate::catalogue::Algorithm::LazySmp {
                            iterative: true,
                            ..
                        } | crate::catalogue::Algorithm::Abdada {
                            iterative: true,
                            ..
                        }
                    )
                })
                .map(|a| a.name())
                .collect();
            match own.len() {
                0 => "a single iteration".to_string(),
                1 => format!(
                    "a single iteration ({} deepens iteratively by an option of its own)",
                    own[0]
                ),
                _ => format!(
                    "a single iteration ({} deepen iteratively by options of their own)",
                    crate::util::and_list(&own)
                ),
            }
        },
        link,
        if plan.reads.hosts == plan.reads.boards {
            format!("every processor is {}", read(plan.reads.hosts))
        } else {
            format!(
                "{} {}, the others {}",
                if pools {
                    "processor 0 is"
                } else {
                    "processors with children are"
                },
                read(plan.reads.hosts),
                read(plan.reads.boards)
            )
        },
    )
}

/// A configuration's title: its algorithm (unless the catalogue leaves it untitled, as pmws),
/// tree width, depth, ordering and noise.
pub(super) fn config_title(plan: &Plan, s: &[Summary]) -> String {
    config_title_of(&plan.algorithms, s)
}

/// The title of one configuration's table (its algorithm, unless the plan runs only an
/// algorithm the catalogue leaves unnamed, and its tree configuration), for a plan of
/// `algorithms`.
pub fn config_title_of(algorithms: &[crate::catalogue::Algorithm], s: &[Summary]) -> String {
    s.first().map_or(String::new(), |x| {
        // Chess titles always name the algorithm; beside other algorithms every table names
        // its own, pmws's too.
        let titled = is_chess(x)
            || algorithms.len() > 1
            || algorithms
                .iter()
                .find(|a| a.name() == x.algorithm)
                .is_none_or(|a| a.entry().titled);
        if titled {
            format!("{}, {}", x.algorithm, config_words(x))
        } else {
            config_words(x)
        }
    })
}

/// A tree configuration in words, without the algorithm: `w = 34, d = 5, ordering …, horizon
/// noise …`, on Campbell's trees (which have no horizon noise) `w = 24, d = 4, ordering …`,
/// or for chess (no generator width or ordering; w is the positions' mean root width)
/// `d = 5, chess (mean root width 36)`.
pub fn config_words(s: &Summary) -> String {
    if is_chess(s) {
        return format!("d = {}, chess (mean root width {})", s.depth, s.width);
    }
    if s.tree == "campbell" {
        return format!("w = {}, d = {}, ordering {}", s.width, s.depth, s.ordering);
    }
    format!(
        "w = {}, d = {}, ordering {}, horizon noise {}",
        s.width, s.depth, s.ordering, s.horizon_noise
    )
}

/// Whether a summary is of chess positions: their ordering label (`load::plan`) is mvv_lva.
fn is_chess(s: &Summary) -> bool {
    s.ordering == "mvv_lva"
}

/// The Markdown report of a plan, run with the fields `fields_set` set (`--set`, `vary`; as
/// `PATH=VALUE`): they are named under the scenario's own description, which was written for
/// the file as it is.
pub fn report(plan: &Plan, summaries: &[Summary], fields_set: &[String]) -> String {
    let mut out = format!(
        "# {name}\n\n{desc}{set}\n\n{describe}\n\n{schemes}## Overheads by processor count\n\n\
         One row per processor count f (per processor tree on Campbell's trees; first the \
         one-processor runs the others are taken against, also when the sweep does not list \
         them), with its runs \
         and their mean leaf nodes and simulated time{units}, until the machine is quiet \
         (results.csv's answer_ns has when the root's value was known, which messages and \
         helpers being stopped can follow). The other columns:\n\n\
         - **speedup**: the mean over the seeds of each tree's time on one processor over its time on f.\n\
         - **time %** (eq. 11): all processors' time over the uniprocessor time, − 1. It is exactly \
         the sum of the next three columns, each over the uniprocessor time: **= search time %**, \
         the processors' search time − 1; **+ messages %**, their CPU time on messages (message \
         handling, interrupts and waiting for replies; on a machine with shared memory also their \
         time reaching it); **+ idle %**, their idle time (waiting for work or for others; a processor waiting for a \
         message still on its line is idle, so a slow line's time shows here, not under messages, \
         unless it waits for a reply it asked for, as Parabelle's children wait for a global \
         table's answers: that is waiting for replies).\n\
         - **search % (leaves)** (eq. 9): the leaves evaluated over the uniprocessor leaves, − 1. A \
         leaf counts from the moment its evaluation begins: one an abort cuts short counts whole \
         but spends only the time it ran, so this can exceed the search time's share even where \
         nothing but a leaf costs time.\n\
         - **time − search %**: the paper's \"communication overhead\", all it could measure of the \
         split the columns before it show.\n\
         - **sync % (measured)**: the idle time over the uniprocessor leaf time (section VII). \
         **sync % (estimate)**: f/2(w+1) (eq. 14) for odd depths and 3f/4(w−1) for even depths, \
         given for the schemes the paper's model describes (pmws and Parabelle's, on the paper's \
         processor trees; – for others).\n\n\
         The overheads are ratios of means over the seeds, as the paper's tables take them (the \
         mean leaves or time at f over the mean at one processor), not means of the per-run columns \
         of results.csv. Every ± is the standard error over seeds of the value beside it (– with a \
         single seed): of the mean speedup, and of each overhead's ratio of means by the delta \
         method (the spread over seeds of each run's share of that ratio); – marks a value that is \
         undefined.{positions}\n\n{checked}\n\n",
        name = plan.name(),
        desc = plan.scenario.description.trim(),
        set = if fields_set.is_empty() {
            String::new()
        } else {
            format!(
                "\n\nThis run set `{}` (`--set` or `vary`) over the scenario file: the machine \
                 and the figures below are this run's, whatever the scenario's description says.",
                fields_set.join("`, `")
            )
        },
        describe = describe(plan),
        units = if crate::results::TimeUnit::of(plan) == crate::results::TimeUnit::LeafEvaluations {
            ", in leaf evaluations (units): nothing but a leaf costs time here"
        } else {
            ""
        },
        checked = checked_words(plan),
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
    for s in by_config(summaries) {
        out.push_str(&format!(
            "### {}\n\n{}\n",
            config_title(plan, s),
            summary_table(s, crate::results::TimeUnit::of(plan))
        ));
    }
    out
}

/// What gtsim checked of every run (results.csv's root_value and value_reference): a run that
/// fails the check stops the sweep with an error, so a report exists only if all passed.
fn checked_words(plan: &Plan) -> String {
    let tables: Vec<String> = plan
        .algorithms
        .iter()
        .filter(|a| a.has_table())
        .map(|a| a.name())
        .collect();
    let reference = if plan.chess.is_some() {
        "the value of the table-free search of its position"
    } else {
        "its tree's minimax value"
    };
    let except = if tables.is_empty() {
        String::new()
    } else {
        format!(
            " ({} keep a transposition table, whose values may legitimately differ: results.csv records both, root_value and value_reference)",
            crate::util::and_list(&tables)
        )
    };
    format!(
        "Checked on every run, which would have stopped with an error otherwise: its root value is {reference}{except}. Every processor is in exactly one time category at every moment, so each one's categories add up to the run's simulated time."
    )
}

/// Elapsed time and speedup per processor tree (rows) and algorithm (columns), one table per
/// tree configuration with its orderings: the layout of Campbell's tables.
fn scheme_tables(plan: &Plan, summaries: &[Summary]) -> String {
    let mut out = String::from(
        "## Elapsed time and speedup by algorithm, ordering and processor tree\n\n\
         Elapsed simulated time (in leaf evaluations, Campbell's time unit, when a leaf costs \
         1 ns as with his costs): the mean over seeds. Speedup over the same algorithm on one \
         processor: the mean over seeds of each tree's T(1) / T(p), ± its standard error. A few \
         trees with a large speedup raise that mean well above mean T(1) / mean T(p) (two \
         algorithms with equal elapsed times can differ twofold in it); the overheads tables \
         below take ratios of means. A processor tree (d,w) has w slaves under each non-terminal \
         processor and d levels; its w^d terminal processors search.\n",
    );
    // Group by tree configuration ([`config_words`]), keeping plan order.
    let mut groups: Vec<(String, Vec<&Summary>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for s in summaries {
        let key = config_words(s);
        match index.get(&key) {
            Some(&g) => groups[g].1.push(s),
            None => {
                index.insert(key.clone(), groups.len());
                groups.push((key, vec![s]));
            }
        }
    }
    let algorithms: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
    let unit = crate::results::TimeUnit::of(plan);
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
        // The uniprocessor runs the speedups are over, when the sweep does not list them.
        if !plan.ptrees.iter().any(|p| p.is_uniprocessor()) {
            out.push_str("| one processor | 1 | 1 |");
            for a in &algorithms {
                let t1 = rows
                    .iter()
                    .filter(|s| s.algorithm == *a)
                    .map(|s| s.uniprocessor_elapsed_s())
                    .find(|t| t.is_finite());
                match t1 {
                    Some(t) => out.push_str(&format!(" {} | 1.00 |", unit.duration(t))),
                    None => out.push_str(" – | – |"),
                }
            }
            out.push('\n');
        }
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
                        unit.duration(s.elapsed_s),
                        crate::results::ratio_mean_se(s.speedup, s.speedup_se, 2)
                    )),
                    None => out.push_str(" – | – |"),
                }
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> Plan {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
        crate::load::load(&path).expect("a shipped scenario loads")
    }

    #[test]
    fn the_machine_line_names_every_rate_the_lines_take() {
        let halved = describe(&shipped("parabelle-table2.ron"));
        assert!(
            halved.contains("960 bytes/s per line (480 bytes/s with 4 processors), RTS/CTS"),
            "{halved}"
        );
        assert!(halved.contains(", 24 positions,"), "{halved}");
        let mut one = shipped("parabelle-table2.ron");
        one.seeds.truncate(1);
        let one = describe(&one);
        assert!(one.contains(", 1 position,"), "{one}");
        let plain = describe(&shipped("pmws-uniform.ron"));
        assert!(plain.contains("960 bytes/s per line, RTS/CTS"), "{plain}");
    }

    #[test]
    fn pmws_goes_unnamed_only_when_it_runs_alone() {
        use crate::catalogue::Algorithm;
        let pmws = Summary {
            algorithm: "pmws".into(),
            width: 8,
            depth: 4,
            ordering: "random".into(),
            ..Summary::default()
        };
        let alone = config_title_of(&[Algorithm::Pmws], std::slice::from_ref(&pmws));
        assert!(
            alone.starts_with("w = 8, d = 4, ordering random"),
            "{alone}"
        );
        let beside = config_title_of(
            &[Algorithm::Pmws, Algorithm::TreeSplit { update: false }],
            std::slice::from_ref(&pmws),
        );
        assert!(beside.starts_with("pmws, w = 8, d = 4"), "{beside}");
    }

    /// Campbell's table layout starts with the one-processor runs the speedups are over (their
    /// time from a row's time overhead, eq. 11), and its headings name no horizon noise, which
    /// his trees do not have.
    #[test]
    fn campbell_tables_show_the_uniprocessor_time_and_no_horizon_noise() {
        let plan = shipped("campbell-1981.ron");
        let at = |algorithm: &str, ptree: &str, processors: u32, elapsed_s: f64, time_overhead| {
            Summary {
                algorithm: algorithm.into(),
                width: 24,
                depth: 4,
                ordering: "random".into(),
                tree: "campbell".into(),
                ptree: ptree.into(),
                processors,
                terminals: processors - 1,
                speedup: 1.5,
                elapsed_s,
                time_overhead,
                ..Summary::default()
            }
        };
        // treesplit on 3 processors: 3 · 4000 / (1 + 0.2) = 10000 units alone.
        let summaries = [
            at("treesplit", "(1,2)", 3, 4000e-9, 0.2),
            at("staged_sss", "(1,2)", 3, 3000e-9, 0.5),
        ];
        let md = scheme_tables(&plan, &summaries);
        assert!(md.contains("### w = 24, d = 4, ordering random\n"), "{md}");
        assert!(!md.contains("horizon noise"), "{md}");
        let one = md
            .lines()
            .find(|l| l.starts_with("| one processor |"))
            .unwrap_or_else(|| panic!("{md}"));
        assert_eq!(
            one,
            "| one processor | 1 | 1 | 10000 units | 1.00 | – | – | – | – | – | – | 6000 units | 1.00 |"
        );
    }

    /// The chess cost line names `probe` exactly when an algorithm of the plan charges it:
    /// Parabelle with a table and aphid do; lazy_smp and abdada (whose table is shared memory)
    /// and Parabelle without a table do not. Each alone, and lazy_smp beside aphid.
    #[test]
    fn the_chess_cost_line_names_probe_only_where_a_search_charges_it() {
        use crate::catalogue::Algorithm;
        let mut plan = shipped("schemes-chess.ron");
        let shipped_ones = plan.algorithms.clone();
        let aphid = Algorithm::Aphid {
            top: algorithms::aphid::DEFAULT_TOP,
        };
        let with_table = Algorithm::Parabelle {
            table: algorithms::TableKind::Global,
            storage: algorithms::Storage::All,
        };
        let mut cases: Vec<(Algorithm, bool)> = vec![(aphid, true), (with_table, true)];
        for a in &shipped_ones {
            let charges = match a.name().as_str() {
                // schemes-chess runs Parabelle without a table.
                "parabelle" | "lazy_smp" | "abdada" => false,
                _ => continue,
            };
            cases.push((*a, charges));
        }
        assert_eq!(
            cases.len(),
            5,
            "parabelle, lazy_smp and abdada are in schemes-chess"
        );
        for (a, charges) in cases {
            plan.algorithms = vec![a];
            let line = describe(&plan);
            assert_eq!(line.contains(", probe = "), charges, "{}: {line}", a.name());
        }
        plan.algorithms = vec![shipped_ones[shipped_ones.len() - 1], aphid];
        assert!(describe(&plan).contains(", probe = "));
    }
}
