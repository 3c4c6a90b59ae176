//! Chrome trace export of a real pmws run: the file parses, every category interval is on its
//! processor's thread with totals exact to the nanosecond, and every message is one flow arrow.

use scenarios::results::{Baseline, PTreeFigures, RunRecord};
use scenarios::trace::chrome_trace;
use scenarios::{parse, simulate, Recording};
use serde_json::Value;
use sim_core::{Category, RunStats};
use std::collections::BTreeMap;
use std::path::Path;

/// The shipped pmws-uniform scenario, shrunk: two seeds, width 8 (a run takes milliseconds).
fn small_plan() -> scenarios::Plan {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("pmws-uniform.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("count: 24") && text.contains("width: 34"));
    let text = text
        .replace("count: 24", "count: 2")
        .replace("width: 34", "width: 8");
    parse(&text, Path::new("small-trace.ron")).expect("the shrunk scenario is valid")
}

fn record_all() -> Recording {
    Recording {
        intervals: true,
        messages: true,
    }
}

/// Microseconds as written in the trace, back to integer nanoseconds.
fn ns_of(us: &Value) -> u64 {
    let us = us.as_f64().expect("a number");
    assert!(us >= 0.0);
    (us * 1000.0).round() as u64
}

fn events(json: &Value) -> &Vec<Value> {
    let evs = json["traceEvents"].as_array().expect("traceEvents array");
    assert!(!evs.is_empty());
    evs
}

fn category(name: &str) -> Option<Category> {
    Category::ALL.into_iter().find(|c| c.name() == name)
}

/// Checks everything the trace promises against the run's statistics.
fn check_trace(stats: &RunStats, text: &str) {
    let json: Value = serde_json::from_str(text).expect("the trace is valid JSON");
    assert!(json.is_object());
    assert_eq!(json["displayTimeUnit"], "ms");
    assert_eq!(
        json["otherData"]["makespan_ns"].as_u64(),
        Some(stats.makespan.as_nanos())
    );
    for kind in sim_core::MsgKind::ALL {
        assert_eq!(
            json["otherData"]["messages"][kind.name()]["count"].as_u64(),
            Some(stats.messages.count(kind))
        );
    }
    let evs = events(&json);
    let n = stats.procs.len();

    // Thread names.
    let names: BTreeMap<u64, &str> = evs
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| {
            (
                e["tid"].as_u64().unwrap(),
                e["args"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(names.len(), n);
    assert_eq!(names[&0], "P0 master");
    for p in 1..n as u64 {
        assert_eq!(names[&p], format!("P{p}"));
    }

    // Category slices: totals per processor and category, exact; durations in µs agree with
    // args.ns to the nanosecond; per thread, X events in time order and never overlapping.
    let mut sums = vec![[0u64; sim_core::Category::ALL.len()]; n];
    let mut last_ts = vec![0u64; n];
    let mut cat_end = vec![0u64; n];
    let mut x_count = 0;
    for e in evs.iter().filter(|e| e["ph"] == "X") {
        assert_eq!(e["pid"], 1);
        let tid = e["tid"].as_u64().unwrap() as usize;
        assert!(tid < n, "X event on a thread that is no processor: {e}");
        let (ts, dur) = (ns_of(&e["ts"]), ns_of(&e["dur"]));
        assert!(ts >= last_ts[tid], "X events out of order on P{tid}: {e}");
        last_ts[tid] = ts;
        if let Some(c) = category(e["cat"].as_str().unwrap()) {
            assert_eq!(e["name"], c.name());
            let ns = e["args"]["ns"].as_u64().unwrap();
            assert_eq!(dur, ns, "dur and args.ns disagree: {e}");
            assert_eq!(e["args"]["start_ns"].as_u64(), Some(ts));
            assert!(ns > 0);
            assert_eq!(
                ts, cat_end[tid],
                "category slices leave a gap or overlap: {e}"
            );
            cat_end[tid] = ts + ns;
            sums[tid][c.index()] += ns;
            x_count += 1;
        } else {
            assert_eq!(e["cat"], "msg");
            assert_eq!(dur, 0);
        }
    }
    assert_eq!(
        x_count,
        stats.procs.iter().map(|p| p.intervals.len()).sum::<usize>()
    );
    for (p, proc) in stats.procs.iter().enumerate() {
        for c in Category::ALL {
            assert_eq!(sums[p][c.index()], proc.times.get(c), "P{p} {}", c.name());
        }
        assert_eq!(
            cat_end[p],
            stats.makespan.as_nanos(),
            "P{p} ends at the makespan"
        );
    }

    // Messages: one flow pair per message, from the sender at `sent` to the receiver at
    // `arrived`, each right after its own zero-length send/recv slice.
    let mut starts = BTreeMap::new();
    let mut ends = BTreeMap::new();
    for (i, e) in evs.iter().enumerate() {
        let ph = e["ph"].as_str().unwrap();
        if ph != "s" && ph != "f" {
            continue;
        }
        assert_eq!(e["bp"], "e");
        let id = e["id"].as_u64().unwrap();
        let slice = &evs[i - 1];
        assert_eq!(slice["ph"], "X");
        assert_eq!(slice["tid"], e["tid"]);
        assert_eq!(slice["ts"], e["ts"]);
        let verb = if ph == "s" { "send" } else { "recv" };
        assert_eq!(
            slice["name"].as_str().unwrap(),
            format!("{verb} {}", e["name"].as_str().unwrap())
        );
        let map = if ph == "s" { &mut starts } else { &mut ends };
        assert!(map.insert(id, e).is_none(), "flow id {id} twice");
    }
    assert_eq!(starts.len(), stats.message_log.len());
    assert_eq!(ends.len(), stats.message_log.len());
    for (i, m) in stats.message_log.iter().enumerate() {
        let id = i as u64 + 1;
        let (s, f) = (starts[&id], ends[&id]);
        assert_eq!(s["name"], m.kind.name());
        assert_eq!(f["name"], m.kind.name());
        assert_eq!(s["cat"], f["cat"]);
        assert_eq!(s["tid"].as_u64(), Some(m.from.0 as u64));
        assert_eq!(f["tid"].as_u64(), Some(m.to.0 as u64));
        assert_eq!(ns_of(&s["ts"]), m.sent.as_nanos());
        assert_eq!(ns_of(&f["ts"]), m.arrived.as_nanos());
    }

    // Markers.
    let markers: Vec<&Value> = evs.iter().filter(|e| e["ph"] == "i").collect();
    assert_eq!(markers.len(), stats.markers.len());
    for e in markers {
        assert_eq!(e["s"], "p");
        assert!(stats
            .markers
            .iter()
            .any(|m| e["name"] == m.label.as_str() && ns_of(&e["ts"]) == m.at.as_nanos()));
    }
}

#[test]
fn trace_of_a_pmws_run_adds_up_exactly() {
    let plan = small_plan();
    let spec = &plan.configs[0];
    assert_eq!(spec.width, 8);
    let ordering = scenarios::load::ordering_label(&spec.ordering);
    let label = scenarios::runner::run_label(&plan, "pmws", spec, &ordering);
    for &seed in &plan.seeds {
        let base = simulate(&plan, 0, 1, seed, Recording::default()).unwrap();
        for f in [1, 3] {
            let run = simulate(&plan, 0, f, seed, record_all()).unwrap();
            let stats = &run.stats;
            assert_eq!(stats.procs.len(), f as usize);
            assert!(stats.procs.iter().all(|p| !p.intervals.is_empty()));
            if f > 1 {
                assert!(!stats.message_log.is_empty(), "pmws sends messages");
            }
            let text = chrome_trace(stats, &format!("pmws f={f} seed={seed}"), false);
            check_trace(stats, &text);
            assert_eq!(
                text,
                chrome_trace(stats, &format!("pmws f={f} seed={seed}"), false)
            );

            // Totals over all threads agree with the results columns.
            let json: Value = serde_json::from_str(&text).unwrap();
            let mut totals = [0u64; sim_core::Category::ALL.len()];
            for e in events(&json).iter().filter(|e| e["ph"] == "X") {
                if let Some(c) = category(e["cat"].as_str().unwrap()) {
                    totals[c.index()] += e["args"]["ns"].as_u64().unwrap();
                }
            }
            let root = base.root_value;
            let ptree = PTreeFigures::of(&sim_hw::ProcessorTree::new(f, 1));
            let r = RunRecord::new(
                &label,
                &ptree,
                seed,
                root,
                &scenarios::results::RunTotals::of(stats),
                &Baseline::of(&scenarios::results::RunTotals::of(&base.stats)),
            );
            assert_eq!(totals[Category::Search.index()], r.t_search_ns);
            assert_eq!(totals[Category::Message.index()], r.t_message_ns);
            assert_eq!(totals[Category::Interrupt.index()], r.t_interrupt_ns);
            assert_eq!(totals[Category::WaitReply.index()], r.t_wait_reply_ns);
            assert_eq!(totals[Category::IdleSync.index()], r.t_idle_sync_ns);
            assert_eq!(
                totals.iter().sum::<u64>(),
                f as u64 * r.elapsed_ns,
                "every nanosecond of every processor is in the trace"
            );
        }
    }
}
