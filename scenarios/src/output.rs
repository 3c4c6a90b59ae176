//! Writing a plan's results: CSV, JSON, a Markdown report and PNG plots, each file atomically.

use crate::load::Plan;
use crate::results::{summary_table, to_csv, Summary};
use crate::runner::Results;
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

/// Writes every output of a plan into `dir` (created if needed); returns the files written.
pub fn write_outputs(
    plan: &Plan,
    results: &Results,
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
    put("report.md", report(plan, &results.summaries).as_bytes())?;
    if plan.scenario.outputs.plots {
        let path = dir.join("overheads.png");
        plots::line_chart(&path, &overheads_chart(plan, &results.summaries))?;
        written.push(path);
        let path = dir.join("speedup.png");
        plots::line_chart(&path, &speedup_chart(plan, &results.summaries))?;
        written.push(path);
    }
    Ok(written)
}

fn describe(plan: &Plan) -> String {
    let c = &plan.costs;
    let ms = |t: sim_core::SimTime| format!("{:.3} ms", t.as_nanos() as f64 * 1e-6);
    let link = match plan.link.kind {
        sim_hw::LinkKind::Serial { rate } => format!(
            "serial, {rate} bytes/s per line{}",
            if plan.link.rts_cts { ", RTS/CTS" } else { "" }
        ),
        sim_hw::LinkKind::Ideal => "ideal (no transmission time)".into(),
    };
    format!(
        "pmws on synthetic trees: w = {}, d = {}, ordering {}, {} seeds; {}.\n\
         Costs: k = {}, e = {}, s = {}, interrupt = {}; links: {}.",
        plan.tree.width,
        plan.depth,
        plan.ordering_label(),
        plan.seeds.len(),
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

/// The Markdown report of a plan.
pub fn report(plan: &Plan, summaries: &[Summary]) -> String {
    let estimate = if plan.depth % 2 == 1 {
        "f/2(w+1) (eq. 14, odd depth)"
    } else {
        "3f/4(w−1) (section VII, even depth)"
    };
    format!(
        "# {name}\n\n{desc}\n\n{describe}\n\n## Overheads by processor count\n\n{table}\n\
         Means over seeds. Speedup is the mean of per-tree ratios (± standard error); the search, time\n\
         and communication overheads come from mean leaf counts and mean times, as in the paper's\n\
         tables (eqs. 9, 11; communication = time − search). Synchronization overhead (measured) is the\n\
         idle_sync time of all processors over the uniprocessor leaf time (section VII), ± standard\n\
         error over seeds; the estimate is {estimate}. The last two columns split the time overhead\n\
         as the 1985 hardware could not: CPU time on messages and interrupts, and idle time, each over\n\
         the uniprocessor time.\n",
        name = plan.name(),
        desc = plan.scenario.description.trim(),
        describe = describe(plan),
        table = summary_table(summaries),
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

/// Overheads in % against f, like the paper's Fig. 7, with the model's estimate beside the
/// measured synchronization overhead.
pub fn overheads_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let mut s: Vec<Summary> = summaries.to_vec();
    s.sort_by_key(|s| s.fanout);
    let pct = |f: fn(&Summary) -> f64| points(&s, move |x| 100.0 * f(x));
    let mut sync = series(
        "synchronization overhead (measured)",
        3,
        LineStyle::Solid,
        pct(|x| x.sync_overhead),
    );
    sync.errors = Some(s.iter().map(|x| 100.0 * x.sync_overhead_se).collect());
    let estimate = if plan.depth % 2 == 1 {
        "f/2(w+1) estimate (eq. 14)"
    } else {
        "3f/4(w-1) estimate (even depth)"
    };
    LineChart {
        title: format!(
            "{}: overheads, w = {}, d = {}, {} seeds",
            plan.name(),
            plan.tree.width,
            plan.depth,
            plan.seeds.len()
        ),
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
            series(estimate, 3, LineStyle::Dashed, pct(|x| x.sync_estimate)),
        ],
        integer_x: true,
    }
}

/// Speedup against f with the ideal line.
pub fn speedup_chart(plan: &Plan, summaries: &[Summary]) -> LineChart {
    let mut s: Vec<Summary> = summaries.to_vec();
    s.sort_by_key(|s| s.fanout);
    let mut measured = series(
        "speedup (mean over seeds)",
        0,
        LineStyle::Solid,
        points(&s, |x| x.speedup),
    );
    measured.errors = Some(s.iter().map(|x| x.speedup_se).collect());
    LineChart {
        title: format!(
            "{}: speedup, w = {}, d = {}, {} seeds",
            plan.name(),
            plan.tree.width,
            plan.depth,
            plan.seeds.len()
        ),
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
