//! results.csv and results.json, written as the records stream in (see [`RowWriter`]).

use super::{io_at, OutputError, OutputFolder};
use crate::load::Plan;
use crate::provenance::Provenance;
use crate::results::Summary;
use crate::runner::Row;
use std::io;
use std::io::Write;

/// The pretty JSON of `value`, every line after the first indented by `indent` spaces (to sit
/// inside results.json exactly as serde_json's pretty printer would put it).
fn pretty_at(value: &impl serde::Serialize, indent: usize) -> String {
    let v = serde_json::to_value(value).expect("results serialize");
    let text = serde_json::to_string_pretty(&v).expect("results serialize");
    text.replace('\n', &format!("\n{}", " ".repeat(indent)))
}

/// results.csv and results.json written as the records stream in (plan order).
///
/// results.json is one object with its keys in alphabetical order, each record pretty printed
/// as serde_json does: `baseline` is written into the file directly, `runs` into a spool file
/// in the staging folder, appended at the end.
pub struct RowWriter {
    csv: io::BufWriter<std::fs::File>,
    json: io::BufWriter<std::fs::File>,
    runs: io::BufWriter<std::fs::File>,
    n_baseline: usize,
    n_runs: usize,
    /// The columns of results.csv (the plan's algorithms' figure columns included).
    columns: Vec<&'static str>,
}

/// The spool of results.json's `runs`, in the staging folder until the file is closed.
pub(super) const RUNS_SPOOL: &str = ".runs.json.part";

impl RowWriter {
    /// Creates `results.csv` (with its header) and `results.json` in `folder`, ready for rows.
    pub fn new(folder: &mut OutputFolder, plan: &Plan) -> Result<Self, OutputError> {
        let columns = crate::catalogue::plan_columns(plan);
        let mut csv = folder.create("results.csv")?;
        csv.write_all(crate::results::csv_header_in(&columns).as_bytes())
            .map_err(io_at(&folder.target.join("results.csv")))?;
        let mut json = folder.create("results.json")?;
        json.write_all(b"{\n  \"baseline\": [")
            .map_err(io_at(&folder.target.join("results.json")))?;
        let runs = folder.create(RUNS_SPOOL)?;
        Ok(RowWriter {
            csv,
            json,
            runs,
            n_baseline: 0,
            n_runs: 0,
            columns,
        })
    }

    /// Writes one row.
    pub fn row(&mut self, row: Row) -> io::Result<()> {
        match row {
            Row::Baseline(r) => {
                self.json.write_all(if self.n_baseline == 0 {
                    b"\n    "
                } else {
                    b",\n    "
                })?;
                self.json.write_all(pretty_at(r, 4).as_bytes())?;
                self.n_baseline += 1;
            }
            Row::Sweep(r) => {
                self.csv
                    .write_all(r.csv_line_in(&self.columns).as_bytes())?;
                self.runs.write_all(if self.n_runs == 0 {
                    b"\n    "
                } else {
                    b",\n    "
                })?;
                self.runs.write_all(pretty_at(r, 4).as_bytes())?;
                self.n_runs += 1;
            }
        }
        Ok(())
    }

    /// Closes both files: the rest of results.json after the rows.
    pub fn finish(
        self,
        folder: &OutputFolder,
        plan: &Plan,
        summaries: &[Summary],
        provenance: Option<&Provenance>,
    ) -> Result<(), OutputError> {
        let json_path = folder.target.join("results.json");
        let RowWriter {
            mut csv,
            mut json,
            runs,
            n_baseline,
            n_runs,
            ..
        } = self;
        csv.flush()
            .map_err(io_at(&folder.target.join("results.csv")))?;
        drop(
            runs.into_inner()
                .map_err(|e| e.into_error())
                .map_err(io_at(&json_path))?,
        );
        let close = |n: usize| if n == 0 { "]" } else { "\n  ]" };
        let spool = folder.staged(RUNS_SPOOL);
        (|| -> io::Result<()> {
            json.write_all(close(n_baseline).as_bytes())?;
            if let Some(p) = provenance {
                write!(json, ",\n  \"provenance\": {}", pretty_at(p, 2))?;
            }
            json.write_all(b",\n  \"runs\": [")?;
            io::copy(&mut std::fs::File::open(&spool)?, &mut json)?;
            json.write_all(close(n_runs).as_bytes())?;
            write!(json, ",\n  \"scenario\": {}", pretty_at(&plan.name(), 2))?;
            // One summary at a time, as serde_json pretty prints the array (the whole array
            // as one JSON value took gigabytes with a million configurations).
            json.write_all(b",\n  \"summary\": [")?;
            for (i, s) in summaries.iter().enumerate() {
                json.write_all(if i == 0 { b"\n    " } else { b",\n    " })?;
                json.write_all(pretty_at(s, 4).as_bytes())?;
            }
            json.write_all(close(summaries.len()).as_bytes())?;
            json.write_all(b"\n}\n")?;
            json.flush()
        })()
        .map_err(io_at(&json_path))?;
        std::fs::remove_file(&spool).map_err(io_at(&spool))?;
        Ok(())
    }
}
