//! Writing a plan's results: CSV, JSON, a Markdown report and PNG plots, each file atomically.

use crate::load::Plan;
use crate::results::{summary_table, to_csv, Summary};
use crate::runner::{Outcome, Results};
use plots::{LineChart, LineStyle, Series};
use std::io;
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` through a temporary sibling and a rename, so an interrupted run
/// never leaves a half-written file that looks whole.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} is not a file path", path.display())))?
        .to_string_lossy()
        .into_owned();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// A failure while writing outputs, naming the file.
#[derive(thiserror::Error, Debug)]
pub enum OutputError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Plot(#[from] plots::PlotError),
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Most tree configurations drawn as panels of overheads.png and speedup.png.
pub const MAX_PANELS: usize = 12;

/// The summaries of each configuration, in plan order.
pub fn by_config<'a>(plan: &Plan, summaries: &'a [Summary]) -> Vec<&'a [Summary]> {
    summaries.chunks(plan.fanouts.len()).collect()
}

/// Writes every output of a plan into `dir` (created if needed); returns the files written.
/// `timeline` is the recorded run named by `outputs.timeline`, if any.
pub fn write_outputs(
    plan: &Plan,
    results: &Results,
    timeline: Option<&Outcome>,
    dir: &Path,
) -> Result<Vec<PathBuf>, OutputError> {
    std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    let mut written = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> Result<(), OutputError> {
        let path = dir.join(name);
        write_atomic(&path, bytes).map_err(io_at(&path))?;
        written.push(path);
        Ok(())
    };
    put("results.csv", to_csv(&results.records).as_bytes())?;
    let json = serde_json::json!({
        "scenario": plan.name(),
        "runs": results.records,
        "baseline": results.baseline,
        "summary": results.summaries,
    });
    let mut text = serde_json::to_string_pretty(&json).expect("results serialize");
    text.push('\n');
    put("results.json", text.as_bytes())?;
    let study = plan
        .scenario
        .outputs
        .sync_study
        .then(|| crate::study::SyncStudy::new(plan, results));
    let mut md = report(plan, &results.summaries);
    if let Some(reference) = &plan.reference {
        // Published tables describe one configuration: compare the first.
        if let Some(first) = by_config(plan, &results.summaries).first() {
            md.push_str(&crate::reference::markdown(reference, first));
        }
    }
    if let Some(study) = &study {
        md.push_str(&study.markdown());
        put("sync-overhead.csv", study.csv().as_bytes())?;
    }
    put("report.md", md.as_bytes())?;
    let configs = by_config(plan, &results.summaries);
    if plan.scenario.outputs.plots && configs.len() <= MAX_PANELS {
        let path = dir.join("overheads.png");
        let charts: Vec<LineChart> = configs.iter().map(|s| overheads_chart(plan, s)).collect();
        draw(&path, &format!("{}: overheads", plan.name()), &charts)?;
        written.push(path);
        let path = dir.join("speedup.png");
        let charts: Vec<LineChart> = configs.iter().map(|s| speedup_chart(plan, s)).collect();
        draw(&path, &format!("{}: speedup", plan.name()), &charts)?;
        written.push(path);
    }
    if let Some(study) = &study {
        let path = dir.join("sync-overhead.png");
        study.plot(&path)?;
        written.push(path);
    }
    if let Some(run) = timeline {
        let path = dir.join("timeline.png");
        crate::timeline::plot(plan, run, &path)?;
        written.push(path);
    }
    Ok(written)
}

/// One chart alone, or several as panels.
fn draw(path: &Path, title: &str, charts: &[LineChart]) -> Result<(), plots::PlotError> {
    match charts {
        [one] => plots::line_chart(path, one),
        many => plots::panels(path, title, many, if many.len() > 4 { 3 } else { 2 }),
    }
}

fn ms(t: sim_core::SimTime) -> String {
    format!("{:.3} ms", t.as_nanos() as f64 * 1e-6)
}

fn describe(plan: &Plan) -> String {
    let c = &plan.costs;
    let link = match plan.link.kind {
        sim_hw::LinkKind::Serial { rate } => format!(
            "serial, {rate} bytes/s per line{}",
            if plan.link.rts_cts { ", RTS/CTS" } else { "" }
        ),
        sim_hw::LinkKind::Ideal => "ideal (no transmission time)".into(),
    };
    format!(
        "pmws on synthetic trees, {} seeds, fanouts {:?}, {}.\n\
         Costs: k = {}, e = {}, s = {}, interrupt = {}; links: {}.",
        plan.seeds.len(),
        plan.fanouts,
        if plan.progressive {
            "progressive deepening from depth 1"
        } else {
            "a single iteration"
        },
        ms(c.k),
        ms(c.e),
        ms(c.s),
        ms(c.interrupt),
        link
    )
}

fn config_title(s: &[Summary]) -> String {
    s.first().map_or(String::new(), |x| {
        format!(
            "w = {}, d = {}, ordering {}, horizon noise {}",
            x.width, x.depth, x.ordering, x.horizon_noise
        )
    })
}

/// The Markdown report of a plan.
pub fn report(plan: &Plan, summaries: &[Summary]) -> String {
    let mut out = format!(
        "# {name}\n\n{desc}\n\n{describe}\n\n## Overheads by processor count\n\n\
         Means over seeds. Speedup is the mean of per-tree ratios (± standard error); the search, time\n\
         and communication overheads come from mean leaf counts and mean times, as in the paper's\n\
         tables (eqs. 9, 11; communication = time − search). Synchronization overhead (measured) is the\n\
         idle_sync time of all processors over the uniprocessor leaf time (section VII), ± standard\n\
         error over seeds; the estimate is f/2(w+1) (eq. 14) for odd depths and 3f/4(w−1) for even\n\
         depths. The last two columns split the time overhead as the 1985 hardware could not: CPU time\n\
         on messages and interrupts, and idle time, each over the uniprocessor time.\n\n",
        name = plan.name(),
        desc = plan.scenario.description.trim(),
        describe = describe(plan),
    );
    for s in by_config(plan, summaries) {
        out.push_str(&format!(
            "### {}\n\n{}\n",
            config_title(s),
            summary_table(s)
        ));
    }
    out
}

/// "scenario: w = …, d = …, ordering …, horizon noise …, N seeds".
fn chart_title(plan: &Plan, s: &[Summary]) -> String {
    format!(
        "{}: {}, {} seeds",
        plan.name(),
        config_title(s),
        plan.seeds.len()
    )
}

fn points(summaries: &[Summary], y: impl Fn(&Summary) -> f64) -> Vec<(f64, f64)> {
    summaries.iter().map(|s| (s.fanout as f64, y(s))).collect()
}

fn series(label: &str, color: usize, style: LineStyle, points: Vec<(f64, f64)>) -> Series {
    Series {
        label: label.into(),
        points,
        style,
        color,
        errors: None,
        markers: true,
    }
}

fn sorted(summaries: &[Summary]) -> Vec<Summary> {
    let mut s = summaries.to_vec();
    s.sort_by_key(|s| s.fanout);
    s
}

/// Overheads in % against f, like the paper's Fig. 7, with the model's estimate beside the
/// measured synchronization overhead (drawn from f = 2: with one processor nothing waits).
pub fn overheads_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let s = sorted(summaries);
    let pct = |f: fn(&Summary) -> f64| points(&s, move |x| 100.0 * f(x));
    let mut sync = series(
        "synchronization overhead (measured)",
        3,
        LineStyle::Solid,
        pct(|x| x.sync_overhead),
    );
    sync.errors = Some(s.iter().map(|x| 100.0 * x.sync_overhead_se).collect());
    let odd = s.first().is_some_and(|x| x.depth % 2 == 1);
    let estimate = if odd {
        "f/2(w+1) estimate (eq. 14)"
    } else {
        "3f/4(w-1) estimate (even depth)"
    };
    let from2: Vec<Summary> = s.iter().filter(|x| x.fanout >= 2).cloned().collect();
    LineChart {
        title: chart_title(plan, &s),
        x_label: "processors f".into(),
        y_label: "overhead (%)".into(),
        series: vec![
            series(
                "search overhead",
                0,
                LineStyle::Solid,
                pct(|x| x.search_overhead),
            ),
            series(
                "time overhead",
                1,
                LineStyle::Solid,
                pct(|x| x.time_overhead),
            ),
            series(
                "communication overhead",
                2,
                LineStyle::Solid,
                pct(|x| x.comm_overhead),
            ),
            sync,
            series(
                estimate,
                3,
                LineStyle::Dashed,
                points(&from2, |x| 100.0 * x.sync_estimate),
            ),
        ],
        integer_x: true,
    }
}

/// Speedup against f with the ideal line.
pub fn speedup_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let s = sorted(summaries);
    let mut measured = series(
        "speedup (mean over seeds)",
        0,
        LineStyle::Solid,
        points(&s, |x| x.speedup),
    );
    measured.errors = Some(s.iter().map(|x| x.speedup_se).collect());
    LineChart {
        title: chart_title(plan, &s),
        x_label: "processors f".into(),
        y_label: "speedup".into(),
        series: vec![
            measured,
            series(
                "ideal (speedup = f)",
                7,
                LineStyle::Dashed,
                points(&s, |x| x.fanout as f64),
            ),
        ],
        integer_x: true,
    }
}
