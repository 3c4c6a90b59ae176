//! Every drawing function writes a real PNG, atomically, and copes with awkward data.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use plots::{
    fig7, line_chart, log_log_chart, panels, panels_one_legend, stacked_bar_chart, timeline,
    BarChart, Curve, Fig7, LineChart, LineStyle, Overhead, PlotError, Segment, Series, TimelineRow,
};
use sim_core::{Category, Interval, Marker, SimTime};

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// A fresh, empty folder under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir =
            std::env::temp_dir().join(format!("gtsim-plots-{name}-{}-{nanos}", std::process::id()));
        fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
    /// Names of everything in the folder, sorted.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.0)
            .expect("read temp dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Checks the file is a PNG and returns its width and height.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = fs::read(path).expect("read png");
    assert!(bytes.len() > 100, "{} is too small", path.display());
    assert_eq!(bytes[..8], PNG_SIGNATURE, "{} is not a PNG", path.display());
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

fn series(label: &str, ys: &[f64], color: usize) -> Series {
    Series {
        label: label.into(),
        points: ys
            .iter()
            .enumerate()
            .map(|(i, &y)| ((i + 1) as f64, y))
            .collect(),
        style: LineStyle::Solid,
        color,
        errors: None,
        markers: true,
    }
}

fn overheads() -> LineChart {
    LineChart {
        title: "Overheads".into(),
        x_label: "processors f".into(),
        y_label: "overhead (%)".into(),
        series: vec![
            series("time overhead", &[0.0, 25.0, 41.0, 55.0], 0),
            Series {
                errors: Some(vec![0.0, 1.5, 2.5, 3.0]),
                ..series(
                    "synchronization overhead (measured)",
                    &[0.0, 12.0, 20.0, 27.0],
                    1,
                )
            },
            Series {
                style: LineStyle::Dashed,
                markers: false,
                ..series("f/2(w+1) estimate", &[8.3, 16.7, 25.0, 33.3], 2)
            },
        ],
        integer_x: true,
        log2_x: false,
    }
}

fn rows(procs: usize, per_proc: usize, end: SimTime) -> Vec<TimelineRow> {
    let step = end.as_nanos() / per_proc as u64;
    (0..procs)
        .map(|p| TimelineRow {
            label: format!("P{p}"),
            intervals: (0..per_proc as u64)
                .map(|i| Interval {
                    start: SimTime(i * step),
                    end: SimTime((i + 1) * step),
                    category: Category::ALL[(i as usize + p) % Category::ALL.len()],
                })
                .collect(),
        })
        .collect()
}

fn markers(n: u64, end: SimTime) -> Vec<Marker> {
    (1..=n)
        .map(|i| Marker {
            at: SimTime(end.as_nanos() / (n + 1) * i),
            label: "PV node done".into(),
        })
        .collect()
}

#[test]
fn line_chart_writes_a_png_and_no_temporary_file() {
    let dir = TempDir::new("line");
    let path = dir.path("overheads.png");
    line_chart(&path, &overheads()).expect("draw");
    assert_eq!(png_size(&path), (1024, 720));
    assert_eq!(dir.listing(), vec!["overheads.png"]);
}

#[test]
fn dashed_series_with_error_bars_and_overwriting_work() {
    let dir = TempDir::new("dashed");
    let path = dir.path("dashed.png");
    let mut chart = overheads();
    chart.series[2].errors = Some(vec![1.0, 2.0, f64::NAN, 0.5]);
    line_chart(&path, &chart).expect("first draw");
    let first = fs::read(&path).expect("read");
    chart.series.truncate(2);
    line_chart(&path, &chart).expect("second draw over the first");
    assert_ne!(fs::read(&path).expect("read"), first);
    assert_eq!(dir.listing(), vec!["dashed.png"]);
}

#[test]
fn empty_and_odd_data_still_give_a_chart() {
    let dir = TempDir::new("empty");
    let empty = LineChart::default();
    line_chart(&dir.path("empty.png"), &empty).expect("no series");
    let odd = LineChart {
        series: vec![
            Series::default(),
            Series {
                points: vec![(f64::NAN, 1.0), (2.0, f64::INFINITY)],
                ..Series::default()
            },
            Series {
                points: vec![(3.0, -2.0)],
                errors: Some(vec![-0.5]),
                ..Series::default()
            },
        ],
        ..LineChart::default()
    };
    line_chart(&dir.path("odd.png"), &odd).expect("odd data");
    png_size(&dir.path("empty.png"));
    png_size(&dir.path("odd.png"));
}

#[test]
fn mismatched_errors_are_reported_and_nothing_is_written() {
    let dir = TempDir::new("mismatch");
    let path = dir.path("bad.png");
    let mut chart = overheads();
    chart.series[0].errors = Some(vec![1.0]);
    let err = line_chart(&path, &chart).expect_err("must fail");
    assert!(matches!(err, PlotError::InvalidSeries { .. }));
    let message = err.to_string();
    assert!(message.contains("bad.png"), "{message}");
    assert!(message.contains("time overhead"), "{message}");
    assert!(dir.listing().is_empty());
}

#[test]
fn a_missing_folder_is_an_error_naming_the_file() {
    let dir = TempDir::new("missing");
    let path = dir.path("no/such/folder/chart.png");
    let err = line_chart(&path, &overheads()).expect_err("must fail");
    assert!(err.to_string().contains("chart.png"), "{err}");
    assert!(dir.listing().is_empty());
    let err = line_chart(Path::new(".."), &overheads()).expect_err("not a file");
    assert!(matches!(err, PlotError::InvalidPath { .. }));
}

/// With the same lines in every panel the grid has one legend, under it: the image is taller
/// than the grid by that legend alone, each panel's plot keeps the height a legend of its own
/// took, and panels whose lines differ are drawn as `panels` draws them.
#[test]
fn panels_with_the_same_lines_share_one_legend_under_the_grid() {
    let dir = TempDir::new("one-legend");
    let charts = vec![overheads(), overheads(), overheads(), overheads()];
    panels_one_legend(&dir.path("one.png"), "", &charts, 2).expect("draw");
    panels(&dir.path("each.png"), "", &charts, 2).expect("draw");
    let (w, h) = png_size(&dir.path("one.png"));
    assert_eq!(w, 2 * 640);
    assert!(h > 2 * 440 && h < 2 * 440 + 100, "{h}");
    assert_eq!(png_size(&dir.path("each.png")), (2 * 640, 2 * 440));
    assert_ne!(
        std::fs::read(dir.path("one.png")).unwrap(),
        std::fs::read(dir.path("each.png")).unwrap()
    );
    // One panel's lines differ: each panel its own legend, as `panels` draws it.
    let mut differ = charts.clone();
    differ[3].series[0].label = "another".into();
    panels_one_legend(&dir.path("differ.png"), "", &differ, 2).expect("draw");
    panels(&dir.path("differ-each.png"), "", &differ, 2).expect("draw");
    assert_eq!(
        std::fs::read(dir.path("differ.png")).unwrap(),
        std::fs::read(dir.path("differ-each.png")).unwrap()
    );
}

#[test]
fn panels_write_a_grid() {
    let dir = TempDir::new("panels");
    let charts = vec![overheads(), overheads(), overheads()];
    let path = dir.path("grid.png");
    panels(&path, "Three panels", &charts, 2).expect("draw");
    let (w, h) = png_size(&path);
    assert_eq!(w, 2 * 640);
    assert!(h > 2 * 440, "{h}");
    // Degenerate column counts are clamped; no charts is not an error.
    panels(&dir.path("zero.png"), "", &charts, 0).expect("zero columns");
    assert_eq!(png_size(&dir.path("zero.png")).0, 640);
    panels(&dir.path("wide.png"), "", &charts, 10).expect("too many columns");
    assert_eq!(png_size(&dir.path("wide.png")).0, 3 * 640);
    panels(&dir.path("none.png"), "Nothing", &[], 2).expect("no charts");
    assert_eq!(
        dir.listing(),
        vec!["grid.png", "none.png", "wide.png", "zero.png"]
    );
}

#[test]
fn timeline_with_a_few_hundred_intervals() {
    let dir = TempDir::new("timeline");
    let end = SimTime::from_secs(40);
    let path = dir.path("timeline.png");
    timeline(
        &path,
        "PV-split",
        &rows(4, 100, end),
        &markers(50, end),
        "",
        end,
    )
    .expect("draw");
    let (w, h) = png_size(&path);
    assert_eq!(w, 1600);
    assert!(h > 200, "{h}");
    // Few markers get labels; they are drawn without error.
    timeline(
        &dir.path("few.png"),
        "",
        &rows(3, 100, end),
        &markers(3, end),
        "",
        end,
    )
    .expect("few markers");
    assert_eq!(dir.listing(), vec!["few.png", "timeline.png"]);
}

#[test]
fn timeline_height_grows_with_rows() {
    let dir = TempDir::new("rows");
    let end = SimTime::from_millis(5);
    timeline(&dir.path("a.png"), "t", &rows(2, 10, end), &[], "", end).expect("2 rows");
    timeline(&dir.path("b.png"), "t", &rows(32, 10, end), &[], "", end).expect("32 rows");
    assert!(png_size(&dir.path("b.png")).1 > png_size(&dir.path("a.png")).1);
}

#[test]
fn empty_timeline_and_odd_intervals() {
    let dir = TempDir::new("empty-timeline");
    timeline(
        &dir.path("none.png"),
        "nothing",
        &[],
        &[],
        "",
        SimTime::ZERO,
    )
    .expect("no rows");
    let odd = vec![TimelineRow {
        label: "P0 with a very long label that goes on and on and on and on and on and on".into(),
        intervals: vec![
            // Reversed, empty and past-the-makespan intervals must not break anything.
            Interval {
                start: SimTime(50),
                end: SimTime(10),
                category: Category::Search,
            },
            Interval {
                start: SimTime(5),
                end: SimTime(5),
                category: Category::Message,
            },
            Interval {
                start: SimTime(0),
                end: SimTime(3_000),
                category: Category::IdleSync,
            },
        ],
    }];
    let marks = vec![Marker {
        at: SimTime(5_000),
        label: String::new(),
    }];
    timeline(&dir.path("odd.png"), "", &odd, &marks, "", SimTime(1_000)).expect("odd");
    png_size(&dir.path("none.png"));
    png_size(&dir.path("odd.png"));
}

/// Twenty thousand intervals (most narrower than a pixel) and 300 markers draw into a valid
/// image. (How fast is not a test's business: the drawing is one pass over the intervals at
/// pixel resolution, see `timeline`.)
#[test]
fn timeline_of_twenty_thousand_intervals_draws() {
    let dir = TempDir::new("big");
    let end = SimTime::from_secs(40);
    let data = rows(8, 2_500, end);
    timeline(
        &dir.path("big.png"),
        "big",
        &data,
        &markers(300, end),
        "",
        end,
    )
    .expect("draw");
    png_size(&dir.path("big.png"));
}

fn fig7_data() -> Fig7 {
    let curve = |label: &str, points: &[(f64, f64)]| Curve {
        label: label.into(),
        points: points.to_vec(),
    };
    let f = |ys: &[f64]| -> Vec<(f64, f64)> {
        ys.iter()
            .enumerate()
            .map(|(i, &y)| ((i + 1) as f64, y))
            .collect()
    };
    Fig7 {
        title: "Average overheads for 5-ply searches".into(),
        x_label: "processors f".into(),
        y_label: "overhead".into(),
        overheads: vec![
            Overhead {
                simulated: curve("search (simulated)", &f(&[0.0, 4.0, 6.5, 9.0])),
                published: curve("search (paper)", &[(2.0, 5.3), (3.0, 7.4), (4.0, 7.3)]),
            },
            Overhead {
                simulated: curve("time (simulated)", &f(&[0.0, 15.0, 25.0, 35.0])),
                published: curve("time (paper)", &[(2.0, 16.9), (3.0, 26.6), (4.0, 32.1)]),
            },
        ],
        model: curve("f/2w", &f(&[1.5, 2.9, 4.4, 5.9])),
        note: "Table II's f = 3 time overhead is inconsistent with its own seconds.".into(),
    }
}

#[test]
fn fig7_writes_a_png_of_the_chart_size() {
    let dir = TempDir::new("fig7");
    let path = dir.path("fig7.png");
    fig7(&path, &fig7_data()).expect("draw");
    assert_eq!(png_size(&path), (1024, 720));
    assert_eq!(dir.listing(), vec!["fig7.png"]);
    // The published markers are drawn: without them the image differs.
    let mut bare = fig7_data();
    for o in &mut bare.overheads {
        o.published.points.clear();
    }
    fig7(&dir.path("bare.png"), &bare).expect("draw without published points");
    assert_ne!(
        fs::read(&path).expect("read"),
        fs::read(dir.path("bare.png")).expect("read")
    );
}

#[test]
fn fig7_without_data_and_into_a_missing_folder() {
    let dir = TempDir::new("fig7-empty");
    fig7(&dir.path("empty.png"), &Fig7::default()).expect("no data is still a chart");
    assert_eq!(png_size(&dir.path("empty.png")), (1024, 720));
    let err = fig7(&dir.path("no/such/fig7.png"), &fig7_data()).expect_err("must fail");
    assert!(err.to_string().contains("fig7.png"), "{err}");
    assert_eq!(dir.listing(), vec!["empty.png"]);
}

/// Speedup against processors on log–log axes (1 to 1,024): points ≤ 0 are skipped, the chart is
/// written; `GTSIM_PLOTS_KEEP=DIR` keeps it for a look.
#[test]
fn log_log_chart_writes_a_png() {
    let dir = TempDir::new("loglog");
    let p: Vec<f64> = (0..=10).map(|k| 2f64.powi(k)).collect();
    let line = |label: &str, f: &dyn Fn(f64) -> f64, color: usize, style: LineStyle| Series {
        label: label.into(),
        points: p.iter().map(|&x| (x, f(x))).collect(),
        style,
        color,
        markers: style == LineStyle::Solid,
        ..Series::default()
    };
    let chart = LineChart {
        title: "Speedup against processors".into(),
        x_label: "processors".into(),
        y_label: "speedup".into(),
        series: vec![
            line("ideal", &|x| x, 6, LineStyle::Dashed),
            line("ybwc", &|x| x.powf(0.8), 0, LineStyle::Solid),
            line("pvsplit", &|x| x.powf(0.5), 1, LineStyle::Solid),
            line(
                "with a zero",
                &|x| if x < 2.0 { 0.0 } else { x.log2() },
                2,
                LineStyle::Solid,
            ),
        ],
        integer_x: true,
        log2_x: false,
    };
    let path = dir.path("loglog.png");
    log_log_chart(&path, &chart).unwrap();
    assert_eq!(png_size(&path), (1024, 720));
    if let Ok(keep) = std::env::var("GTSIM_PLOTS_KEEP") {
        fs::copy(&path, Path::new(&keep).join("loglog.png")).unwrap();
    }
    // Nothing to place on log axes: still a chart.
    let empty = LineChart {
        series: vec![series("zeros", &[0.0, -1.0], 0)],
        ..LineChart::default()
    };
    log_log_chart(&dir.path("empty.png"), &empty).unwrap();
    assert_eq!(dir.listing(), ["empty.png", "loglog.png"]);
}

/// Stacked bars, negatives to the left of zero, one bar per category; a segment without one
/// value per category is an error and writes nothing.
#[test]
fn stacked_bar_chart_writes_a_png_tall_enough_for_its_bars() {
    let dir = TempDir::new("bars");
    let names: Vec<String> = [
        "pmws",
        "pvsplit",
        "treesplit_update",
        "ybwc",
        "aphid",
        "pmws_ix_broadcast_alpha",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let seg = |label: &str, color: usize, values: Vec<f64>| Segment {
        label: label.into(),
        color,
        values,
    };
    let chart = BarChart {
        title: "Overheads at 16 processors".into(),
        x_label: "overhead (% of the uniprocessor time)".into(),
        categories: names.clone(),
        segments: vec![
            seg("search", 2, vec![20.0, 35.0, -5.0, 12.0, 60.0, 18.0]),
            seg("communication", 0, vec![5.0, 8.0, 3.0, 20.0, 9.0, 6.0]),
            seg(
                "synchronization",
                4,
                vec![150.0, 90.0, 200.0, 15.0, 40.0, 120.0],
            ),
        ],
        unit: " %".into(),
    };
    let path = dir.path("bars.png");
    stacked_bar_chart(&path, &chart).unwrap();
    let (w, h) = png_size(&path);
    assert_eq!(w, 1024);
    let mut more = chart.clone();
    more.categories = (0..30).map(|i| format!("scheme {i}")).collect();
    for s in &mut more.segments {
        s.values = (0..30).map(|i| i as f64).collect();
    }
    stacked_bar_chart(&dir.path("more.png"), &more).unwrap();
    assert!(
        png_size(&dir.path("more.png")).1 > h,
        "30 bars need more room than 6"
    );
    if let Ok(keep) = std::env::var("GTSIM_PLOTS_KEEP") {
        fs::copy(&path, Path::new(&keep).join("bars.png")).unwrap();
    }
    let mut bad = chart.clone();
    bad.segments[1].values.pop();
    let e = stacked_bar_chart(&dir.path("bad.png"), &bad).unwrap_err();
    assert!(e.to_string().contains("5 values for 6 categories"), "{e}");
    assert_eq!(dir.listing(), ["bars.png", "more.png"]);
}
