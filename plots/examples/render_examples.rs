//! Renders realistic example charts into a folder, to look at them (and as a benchmark of the
//! timeline): `cargo run -p plots --example render_examples -- /tmp/plots-look`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use plots::{
    fig7, line_chart, panels, timeline, Curve, Fig7, LineChart, LineStyle, Overhead, Series,
    TimelineRow,
};
use sim_core::{Category, Interval, Marker, SimTime};

/// A small deterministic generator (xorshift64*), so the examples need no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in 0..1.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn processors() -> Vec<f64> {
    vec![1.0, 2.0, 3.0, 4.0]
}

fn series(label: &str, ys: &[f64], color: usize) -> Series {
    Series {
        label: label.into(),
        points: processors().into_iter().zip(ys.iter().copied()).collect(),
        style: LineStyle::Solid,
        color,
        errors: None,
        markers: true,
    }
}

fn overheads() -> LineChart {
    let w = 5.0;
    let estimate: Vec<f64> = processors()
        .iter()
        .map(|&f| {
            if f > 1.0 {
                100.0 * f / (2.0 * (w + 1.0))
            } else {
                0.0
            }
        })
        .collect();
    LineChart {
        title: "Overheads of PV-split on a 4-processor tree (w = 5, d = 5)".into(),
        x_label: "processors f".into(),
        y_label: "overhead (%)".into(),
        series: vec![
            series("search overhead", &[0.0, 8.4, 15.2, 22.9], 0),
            series("time overhead", &[0.0, 25.3, 41.0, 55.6], 1),
            series("communication overhead", &[0.0, 16.9, 25.8, 32.7], 2),
            Series {
                errors: Some(vec![0.0, 1.6, 2.3, 3.4]),
                ..series(
                    "synchronization overhead (measured)",
                    &[0.0, 12.1, 19.7, 27.5],
                    3,
                )
            },
            Series {
                style: LineStyle::Dashed,
                markers: false,
                ..series("f/2(w+1) estimate", &estimate, 6)
            },
        ],
        integer_x: true,
        log2_x: false,
    }
}

fn speedup() -> LineChart {
    LineChart {
        title: "Speedup".into(),
        x_label: "processors f".into(),
        y_label: "speedup".into(),
        series: vec![
            Series {
                errors: Some(vec![0.0, 0.05, 0.08, 0.11]),
                ..series("measured", &[1.0, 1.6, 2.13, 2.57], 0)
            },
            Series {
                style: LineStyle::Dashed,
                markers: false,
                ..series("ideal", &[1.0, 2.0, 3.0, 4.0], 6)
            },
            Series {
                style: LineStyle::Dashed,
                ..series(
                    "Marsland & Popowich (1985), Table III",
                    &[1.0, 1.67, 2.2, 2.6],
                    1,
                )
            },
        ],
        integer_x: true,
        log2_x: false,
    }
}

fn leaves() -> LineChart {
    LineChart {
        title: "Leaf nodes visited".into(),
        x_label: "processors f".into(),
        y_label: "leaf nodes".into(),
        series: vec![
            series("PV-split", &[1852.0, 2008.0, 2133.0, 2276.0], 0),
            series("tree-split", &[1852.0, 2390.0, 2911.0, 3502.0], 1),
        ],
        integer_x: true,
        log2_x: false,
    }
}

fn messages() -> LineChart {
    let bytes = |a: f64| -> Vec<f64> { processors().iter().map(|f| a * (f - 1.0)).collect() };
    LineChart {
        title: "Bytes sent per message type".into(),
        x_label: "processors f".into(),
        y_label: "bytes".into(),
        series: vec![
            series("inter-node", &bytes(412.0), 0),
            series("inter-level", &bytes(188.0), 1),
            series("inter-iteration", &bytes(96.0), 2),
            series("at-node", &bytes(1250.0), 3),
        ],
        integer_x: true,
        log2_x: false,
    }
}

/// Fig. 7 with made-up simulated curves beside the paper's Table II points (communication
/// overhead = time - search, eq. 12) and the f/2w estimate for w = 34.
fn overheads_fig7() -> Fig7 {
    let curve = |label: &str, ys: [f64; 4]| Curve {
        label: label.into(),
        points: processors().into_iter().zip(ys).collect(),
    };
    // The published points start at f = 2: every overhead is zero at f = 1 by definition, and
    // three large markers there would only cover the simulated curves' start.
    let overhead = |name: &str, simulated: [f64; 4], published: [f64; 3]| Overhead {
        simulated: curve(&format!("{name} (simulated)"), simulated),
        published: Curve {
            label: format!("{name} (paper)"),
            points: [2.0, 3.0, 4.0].into_iter().zip(published).collect(),
        },
    };
    Fig7 {
        title: "Average overheads for 5-ply searches (Fig. 7): 24 Bratko-Kopec positions, no transposition table".into(),
        x_label: "processors f".into(),
        y_label: "overhead".into(),
        overheads: vec![
            overhead("search overhead", [0.0, 4.1, 6.8, 9.0], [5.3, 7.4, 7.3]),
            overhead("communication overhead", [0.0, 10.4, 17.5, 24.2], [11.6, 19.2, 24.8]),
            overhead("time overhead", [0.0, 14.9, 25.5, 35.4], [16.9, 26.6, 32.1]),
        ],
        model: curve(
            "synchronization estimate f/2w (w = 34)",
            [1.0, 2.0, 3.0, 4.0].map(|f| 100.0 * f / 68.0),
        ),
        note: "Paper: Marsland & Popowich (1985), Table II; communication = time - search (eq. 12). \
               Table II's f = 3 time overhead is printed 26.6 % but its own seconds give 23.6 %."
            .into(),
    }
}

/// A timeline of `procs` processors over `seconds`, with about `per_proc` intervals each.
fn timeline_rows(procs: usize, seconds: u64, per_proc: usize, seed: u64) -> Vec<TimelineRow> {
    let mut rng = Rng(seed);
    let end = SimTime::from_secs(seconds).as_nanos();
    let mean = end / per_proc as u64;
    (0..procs)
        .map(|p| {
            let mut t = 0u64;
            let mut intervals = Vec::new();
            while t < end {
                let r = rng.unit();
                let category = match (p, r) {
                    (0, r) if r < 0.25 => Category::Interrupt,
                    (_, r) if r < 0.45 => Category::Search,
                    (_, r) if r < 0.65 => Category::Message,
                    (_, r) if r < 0.72 => Category::WaitReply,
                    _ => Category::IdleSync,
                };
                let scale = match category {
                    Category::Search => 3.0,
                    Category::IdleSync => 1.2,
                    _ => 0.3,
                };
                let d = ((rng.unit() * 2.0 * scale * mean as f64) as u64).max(1);
                let stop = (t + d).min(end);
                if intervals
                    .last()
                    .is_some_and(|l: &Interval| l.category == category)
                {
                    if let Some(l) = intervals.last_mut() {
                        l.end = SimTime(stop);
                    }
                } else {
                    intervals.push(Interval {
                        start: SimTime(t),
                        end: SimTime(stop),
                        category,
                    });
                }
                t = stop;
            }
            let label = if p == 0 {
                "P0 master".to_string()
            } else {
                format!("P{p} slave")
            };
            TimelineRow { label, intervals }
        })
        .collect()
}

fn markers(n: usize, seconds: u64, label: &str) -> Vec<Marker> {
    let end = SimTime::from_secs(seconds).as_nanos();
    (1..=n)
        .map(|i| Marker {
            at: SimTime(end / (n as u64 + 1) * i as u64),
            label: label.to_string(),
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: render_examples <output folder>")?,
    );
    std::fs::create_dir_all(&dir)?;
    let out = |name: &str| -> PathBuf { Path::new(&dir).join(name) };

    line_chart(&out("overheads.png"), &overheads())?;
    fig7(&out("fig7.png"), &overheads_fig7())?;
    panels(
        &out("panels.png"),
        "PV-split on Parabelle: 1 to 4 processors, 24 Bratko-Kopec positions",
        &[overheads(), speedup(), leaves(), messages()],
        2,
    )?;

    let rows = timeline_rows(4, 40, 1000, 7);
    let count: usize = rows.iter().map(|r| r.intervals.len()).sum();
    let start = Instant::now();
    timeline(
        &out("timeline.png"),
        &format!("PV-split, 4 processors: {count} intervals, 50 synchronization points"),
        &rows,
        &markers(50, 40, "PV node done"),
        "PV node done",
        SimTime::from_secs(40),
    )?;
    eprintln!("timeline, {count} intervals: {:?}", start.elapsed());

    let mut few = markers(5, 40, "iteration done");
    for (i, m) in few.iter_mut().enumerate() {
        m.label = format!("iteration {} done", i + 2);
    }
    timeline(
        &out("timeline_few_markers.png"),
        "Few labelled markers",
        &rows,
        &few,
        "",
        SimTime::from_secs(40),
    )?;

    let big = timeline_rows(16, 40, 1300, 11);
    let count: usize = big.iter().map(|r| r.intervals.len()).sum();
    let start = Instant::now();
    timeline(
        &out("timeline_16.png"),
        &format!("16 processors, {count} intervals, 400 markers"),
        &big,
        &markers(400, 40, "PV node done"),
        "PV node done",
        SimTime::from_secs(40),
    )?;
    eprintln!("timeline, {count} intervals: {:?}", start.elapsed());

    line_chart(
        &out("empty.png"),
        &LineChart {
            title: "No series".into(),
            x_label: "processors f".into(),
            y_label: "overhead (%)".into(),
            series: vec![],
            integer_x: true,
            log2_x: false,
        },
    )?;
    line_chart(
        &out("single_point.png"),
        &LineChart {
            title: "One point, negative values, large numbers".into(),
            x_label: "table size (entries)".into(),
            y_label: "value".into(),
            series: vec![
                Series {
                    label: "single".into(),
                    points: vec![(4096.0, -3.5)],
                    errors: Some(vec![1.0]),
                    markers: true,
                    ..Series::default()
                },
                Series {
                    label: "many".into(),
                    points: (0..20)
                        .map(|i| (1024.0 * (i + 1) as f64, (i as f64 * 0.7).sin() * 12.0))
                        .collect(),
                    color: 1,
                    ..Series::default()
                },
            ],
            integer_x: true,
            log2_x: false,
        },
    )?;
    timeline(
        &out("timeline_empty.png"),
        "No processors",
        &[],
        &[],
        "",
        SimTime::ZERO,
    )?;
    eprintln!("wrote {}", dir.display());
    Ok(())
}
