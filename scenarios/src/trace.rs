//! Chrome trace export: a run's timeline as a file for Perfetto (ui.perfetto.dev) and
//! chrome://tracing.
//!
//! The file is the Trace Event Format's JSON Object Format (`{"traceEvents": [...]}`):
//!
//! - one process (pid 1) named by the title, one thread per processor (tid = processor index,
//!   named `P0 master`, `P1`, … ([`processor_name`]: `P0 root` on a pool, where no processor
//!   is a master);
//! - every category interval of every processor as a complete event (`"ph":"X"`) named by its
//!   category (`search`, `message`, `interrupt`, `wait_reply`, `idle_sync`), with
//!   `args.ns` and `args.start_ns` in integer nanoseconds;
//! - every message as a zero-length `send <kind>` slice on the sender at `sent` and a
//!   `recv <kind>` slice on the receiver at `arrived`, joined by a flow arrow (`"ph":"s"` /
//!   `"ph":"f"`, `"bp":"e"`, `id` = the message's position in the log + 1);
//! - every marker as a process-wide instant (`"ph":"i"`, `"s":"p"`);
//! - `otherData` with the makespan and the message counts and bytes per kind.
//!
//! Times in the format are microseconds. They are written as exact decimals from the integer
//! nanoseconds (`1234567` ns → `1234.567`), never through `f64` arithmetic, so every `ts` and `dur`
//! is the simulated time to the nanosecond and the per-processor sums of `dur` equal the category
//! totals of [`sim_core::CategoryTimes`] exactly.
//!
//! The output is deterministic: keys are written in alphabetical order, and events are ordered
//! metadata first, then each processor's timeline in time order (an interval before the message
//! slices that start at the same time, so those nest inside it), then the markers.
//!
//! ```
//! use sim_core::{Category, CategoryTimes, Interval, ProcStats, RunStats, SimTime};
//! let mut stats = RunStats { makespan: SimTime(2_500), ..Default::default() };
//! stats.procs.push(ProcStats {
//!     times: CategoryTimes([2_500, 0, 0, 0, 0, 0]),
//!     intervals: vec![Interval { start: SimTime(0), end: SimTime(2_500), category: Category::Search }],
//!     ..Default::default()
//! });
//! let json = scenarios::trace::chrome_trace(&stats, "demo", false);
//! assert!(json.contains(r#""dur":2.500"#));
//! let v: serde_json::Value = serde_json::from_str(&json).unwrap();
//! assert_eq!(v["traceEvents"].as_array().unwrap().len(), 4); // process, thread name, sort, search
//! ```

use serde_json::{json, Map, Value};
use sim_core::{Category, MsgKind, RunStats};

/// The one process every processor of the run is a thread of.
const PID: u32 = 1;

/// Processor `p`'s name in a trace or a timeline: `P0 master` of a tree scheme, `P0 root` of a
/// pool scheme (which has no master: processor 0 owns the root), `P1`, `P2`, … otherwise.
pub fn processor_name(p: usize, pool: bool) -> String {
    match (p, pool) {
        (0, false) => "P0 master".into(),
        (0, true) => "P0 root".into(),
        _ => format!("P{p}"),
    }
}

/// How every trace gtsim writes begins (`--trace` overwrites only files that begin so).
pub const PREFIX: &str = "{\"displayTimeUnit\":\"ms\",\"otherData\":";
/// Category of the message send/receive slices and of their flow events. Perfetto matches a
/// flow's start and end by (id, cat, name), so both ends carry the same category and name.
const MSG_CAT: &str = "msg";
/// Category of the marker instants.
const MARKER_CAT: &str = "marker";

/// Chrome trace event format (the JSON Object Format with "traceEvents"), openable in Perfetto
/// (ui.perfetto.dev) and chrome://tracing.
///
/// `stats` should come from a run that recorded intervals and messages
/// ([`crate::Recording`]); without them the trace has the thread names, the markers and the
/// totals in `otherData`, and nothing on the timelines. See the module doc for the layout.
/// `pool`: the run is a pool scheme's (processor 0 owns the root; none is a master).
pub fn chrome_trace(stats: &RunStats, title: &str, pool: bool) -> String {
    let mut events: Vec<Event> = Vec::new();

    events.push(Event::metadata("process_name", 0, json!({ "name": title })));
    for p in 0..stats.procs.len() {
        let tid = p as u32;
        let name = processor_name(p, pool);
        events.push(Event::metadata("thread_name", tid, json!({ "name": name })));
        events.push(Event::metadata(
            "thread_sort_index",
            tid,
            json!({ "sort_index": tid }),
        ));
    }

    // Each processor's timeline, sorted by (time, rank, sequence): an interval (rank 0) comes
    // before the message slices starting at the same time (rank 1), so a viewer nests them in it;
    // a message slice is followed directly by its flow event, which binds to it.
    let mut timeline: Vec<(u32, u64, u8, usize, Vec<Event>)> = Vec::new();
    for (p, proc) in stats.procs.iter().enumerate() {
        for (i, iv) in proc.intervals.iter().enumerate() {
            let (start, ns) = (iv.start.as_nanos(), (iv.end - iv.start).as_nanos());
            timeline.push((
                p as u32,
                start,
                0,
                i,
                vec![Event::interval(p as u32, start, ns, iv.category)],
            ));
        }
    }
    for (i, m) in stats.message_log.iter().enumerate() {
        let id = i as u64 + 1;
        let args = json!({
            "bytes": m.bytes,
            "from": m.from.0,
            "to": m.to.0,
            "sent_ns": m.sent.as_nanos(),
            "transmit_start_ns": m.transmit_start.as_nanos(),
            "arrived_ns": m.arrived.as_nanos(),
        });
        let (sent, arrived) = (m.sent.as_nanos(), m.arrived.as_nanos());
        timeline.push((
            m.from.0,
            sent,
            1,
            2 * i,
            vec![
                Event::message_slice("send", m.kind, m.from.0, sent, args.clone()),
                Event::flow("s", m.kind, m.from.0, sent, id),
            ],
        ));
        timeline.push((
            m.to.0,
            arrived,
            1,
            2 * i + 1,
            vec![
                Event::message_slice("recv", m.kind, m.to.0, arrived, args),
                Event::flow("f", m.kind, m.to.0, arrived, id),
            ],
        ));
    }
    timeline.sort_by_key(|&(tid, ts, rank, seq, _)| (tid, ts, rank, seq));
    events.extend(timeline.into_iter().flat_map(|(.., evs)| evs));

    let mut markers: Vec<_> = stats.markers.iter().enumerate().collect();
    markers.sort_by_key(|&(i, m)| (m.at, i));
    for (_, m) in markers {
        events.push(Event {
            name: m.label.clone(),
            cat: Some(MARKER_CAT),
            ph: "i",
            tid: 0,
            ts_ns: Some(m.at.as_nanos()),
            scope: Some("p"),
            args: Some(json!({ "at_ns": m.at.as_nanos() })),
            ..Event::default()
        });
    }

    let mut messages = Map::new();
    for kind in MsgKind::ALL {
        messages.insert(
            kind.name().to_string(),
            json!({
                "count": stats.messages.count[kind.index()],
                "bytes": stats.messages.bytes[kind.index()],
            }),
        );
    }
    let other = json!({
        "title": title,
        "makespan_ns": stats.makespan.as_nanos(),
        "processors": stats.procs.len(),
        "messages": messages,
        "time_unit": "ts and dur in microseconds, exact to the nanosecond; args *_ns and ns in integer nanoseconds",
    });

    // Top-level keys in alphabetical order, like the serde_json maps inside; one event per line.
    let mut out = String::new();
    out.push_str(PREFIX);
    out.push_str(&other.to_string());
    out.push_str(",\"traceEvents\":[");
    for (i, e) in events.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        e.write(&mut out);
    }
    out.push_str("\n]}\n");
    out
}

/// Microseconds as an exact decimal with three places, from integer nanoseconds.
fn micros(ns: u64) -> String {
    format!("{}.{:03}", ns / 1_000, ns % 1_000)
}

/// One trace event. Kept as typed fields rather than a `serde_json::Value` because `ts` and `dur`
/// must be written as exact decimals, which serde_json can only do with its
/// `arbitrary_precision` feature; everything else (strings, `args`) goes through serde_json.
#[derive(Default)]
struct Event {
    name: String,
    cat: Option<&'static str>,
    ph: &'static str,
    tid: u32,
    ts_ns: Option<u64>,
    dur_ns: Option<u64>,
    id: Option<u64>,
    bp: Option<&'static str>,
    scope: Option<&'static str>,
    args: Option<Value>,
}

impl Event {
    fn metadata(name: &str, tid: u32, args: Value) -> Self {
        Event {
            name: name.to_string(),
            ph: "M",
            tid,
            args: Some(args),
            ..Event::default()
        }
    }

    fn interval(tid: u32, start_ns: u64, ns: u64, category: Category) -> Self {
        Event {
            name: category.name().to_string(),
            cat: Some(category.name()),
            ph: "X",
            tid,
            ts_ns: Some(start_ns),
            dur_ns: Some(ns),
            args: Some(json!({ "ns": ns, "start_ns": start_ns })),
            ..Event::default()
        }
    }

    /// A zero-length slice for a flow arrow to bind to (Perfetto binds flow events to a slice,
    /// never to a bare timestamp). Zero length keeps it out of every category total.
    fn message_slice(verb: &str, kind: MsgKind, tid: u32, ts_ns: u64, args: Value) -> Self {
        Event {
            name: format!("{verb} {}", kind.name()),
            cat: Some(MSG_CAT),
            ph: "X",
            tid,
            ts_ns: Some(ts_ns),
            dur_ns: Some(0),
            args: Some(args),
            ..Event::default()
        }
    }

    /// Flow start (`"s"`) or end (`"f"`), bound to the enclosing slice (`"bp":"e"`): the message
    /// slice written just before it at the same time on the same thread.
    fn flow(ph: &'static str, kind: MsgKind, tid: u32, ts_ns: u64, id: u64) -> Self {
        Event {
            name: kind.name().to_string(),
            cat: Some(MSG_CAT),
            ph,
            tid,
            ts_ns: Some(ts_ns),
            id: Some(id),
            bp: Some("e"),
            ..Event::default()
        }
    }

    /// Writes the event as one JSON object, keys in alphabetical order.
    fn write(&self, out: &mut String) {
        let mut first = true;
        let mut key = |out: &mut String, k: &str| {
            out.push_str(if first { "{\"" } else { ",\"" });
            first = false;
            out.push_str(k);
            out.push_str("\":");
        };
        let string = |s: &str| Value::from(s).to_string();
        if let Some(args) = &self.args {
            key(out, "args");
            out.push_str(&args.to_string());
        }
        if let Some(bp) = self.bp {
            key(out, "bp");
            out.push_str(&string(bp));
        }
        if let Some(cat) = self.cat {
            key(out, "cat");
            out.push_str(&string(cat));
        }
        if let Some(dur) = self.dur_ns {
            key(out, "dur");
            out.push_str(&micros(dur));
        }
        if let Some(id) = self.id {
            key(out, "id");
            out.push_str(&id.to_string());
        }
        key(out, "name");
        out.push_str(&string(&self.name));
        key(out, "ph");
        out.push_str(&string(self.ph));
        key(out, "pid");
        out.push_str(&PID.to_string());
        if let Some(s) = self.scope {
            key(out, "s");
            out.push_str(&string(s));
        }
        key(out, "tid");
        out.push_str(&self.tid.to_string());
        if let Some(ts) = self.ts_ns {
            key(out, "ts");
            out.push_str(&micros(ts));
        }
        out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::{Interval, Marker, MessageRecord, ProcId, ProcStats, SimTime};

    #[test]
    fn micros_are_exact_decimals() {
        assert_eq!(micros(0), "0.000");
        assert_eq!(micros(7), "0.007");
        assert_eq!(micros(1_000), "1.000");
        assert_eq!(micros(1_234_567), "1234.567");
        assert_eq!(micros(u64::MAX), "18446744073709551.615");
    }

    #[test]
    fn layout_of_a_tiny_run() {
        let iv = |s, e, c| Interval {
            start: SimTime(s),
            end: SimTime(e),
            category: c,
        };
        let stats = RunStats {
            makespan: SimTime(3_000),
            procs: vec![
                ProcStats {
                    intervals: vec![
                        iv(0, 1_001, Category::Search),
                        iv(1_001, 3_000, Category::IdleSync),
                    ],
                    ..Default::default()
                },
                ProcStats {
                    intervals: vec![iv(0, 3_000, Category::IdleSync)],
                    ..Default::default()
                },
            ],
            message_log: vec![MessageRecord {
                from: ProcId(0),
                to: ProcId(1),
                kind: MsgKind::InterNode,
                bytes: 4,
                sent: SimTime(1_001),
                transmit_start: SimTime(1_001),
                arrived: SimTime(2_500),
            }],
            markers: vec![Marker {
                at: SimTime(1_001),
                label: "pv \"1\"".into(),
            }],
            ..Default::default()
        };
        let text = chrome_trace(&stats, "tiny", false);
        let pool = chrome_trace(&stats, "tiny", true);
        assert!(pool.contains(r#"{"args":{"name":"P0 root"},"name":"thread_name""#));
        assert!(!pool.contains("master"));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"displayTimeUnit":"ms","otherData":{"makespan_ns":3000,"messages":{"at_node":{"bytes":0,"count":0},"inter_iteration":{"bytes":0,"count":0},"inter_level":{"bytes":0,"count":0},"inter_node":{"bytes":0,"count":0},"interactive":{"bytes":0,"count":0}},"processors":2,"time_unit":"ts and dur in microseconds, exact to the nanosecond; args *_ns and ns in integer nanoseconds","title":"tiny"},"traceEvents":["#
        );
        let expected = [
            r#"{"args":{"name":"tiny"},"name":"process_name","ph":"M","pid":1,"tid":0},"#,
            r#"{"args":{"name":"P0 master"},"name":"thread_name","ph":"M","pid":1,"tid":0},"#,
            r#"{"args":{"sort_index":0},"name":"thread_sort_index","ph":"M","pid":1,"tid":0},"#,
            r#"{"args":{"name":"P1"},"name":"thread_name","ph":"M","pid":1,"tid":1},"#,
            r#"{"args":{"sort_index":1},"name":"thread_sort_index","ph":"M","pid":1,"tid":1},"#,
            r#"{"args":{"ns":1001,"start_ns":0},"cat":"search","dur":1.001,"name":"search","ph":"X","pid":1,"tid":0,"ts":0.000},"#,
            r#"{"args":{"ns":1999,"start_ns":1001},"cat":"idle_sync","dur":1.999,"name":"idle_sync","ph":"X","pid":1,"tid":0,"ts":1.001},"#,
            r#"{"args":{"arrived_ns":2500,"bytes":4,"from":0,"sent_ns":1001,"to":1,"transmit_start_ns":1001},"cat":"msg","dur":0.000,"name":"send inter_node","ph":"X","pid":1,"tid":0,"ts":1.001},"#,
            r#"{"bp":"e","cat":"msg","id":1,"name":"inter_node","ph":"s","pid":1,"tid":0,"ts":1.001},"#,
            r#"{"args":{"ns":3000,"start_ns":0},"cat":"idle_sync","dur":3.000,"name":"idle_sync","ph":"X","pid":1,"tid":1,"ts":0.000},"#,
            r#"{"args":{"arrived_ns":2500,"bytes":4,"from":0,"sent_ns":1001,"to":1,"transmit_start_ns":1001},"cat":"msg","dur":0.000,"name":"recv inter_node","ph":"X","pid":1,"tid":1,"ts":2.500},"#,
            r#"{"bp":"e","cat":"msg","id":1,"name":"inter_node","ph":"f","pid":1,"tid":1,"ts":2.500},"#,
            r#"{"args":{"at_ns":1001},"cat":"marker","name":"pv \"1\"","ph":"i","pid":1,"s":"p","tid":0,"ts":1.001}"#,
            "]}",
        ];
        assert_eq!(&lines[1..], &expected[..]);
        let v: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(v["traceEvents"].as_array().map(Vec::len), Some(13));
    }
}
