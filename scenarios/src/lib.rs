//! # scenarios: scenario files, the experiment runner, results, and the `gtsim` command
//!
//! A scenario file (RON, see `scenarios/README.md`) names the hardware, the workload, the search
//! and the sweep. [`load()`] turns it into a validated [`Plan`] (or an error naming the file, line
//! and column). [`run_plan_streaming`] simulates every run of the sweep in parallel and hands
//! the records to a sink in plan order as they finish (memory stays bounded, results are
//! identical to a one-thread run); [`run_plan`] collects them in memory instead. An
//! [`OutputFolder`] is written whole beside its target and swapped in, so a folder is always one
//! complete run; [`write_outputs`] writes `results.csv`, `results.json`, `report.md` and the
//! plots into one.
//!
//! ```no_run
//! use std::path::Path;
//! let plan = scenarios::load(Path::new("scenarios/pmws-uniform.ron")).unwrap();
//! let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
//! // The run named by outputs.timeline, recorded in full for timeline.png.
//! let timeline = plan.timeline.map(|(c, f, seed)| {
//!     let rec = scenarios::Recording { intervals: true, messages: true };
//!     scenarios::simulate(&plan, c, f, seed, rec).unwrap()
//! });
//! scenarios::write_outputs(&plan, &results, timeline.as_ref(), Path::new("out/pmws-uniform"))
//!     .unwrap();
//! ```

#![warn(missing_docs)]

pub mod catalogue;
pub mod chess_report;
pub mod compare;
pub mod dispatch;
pub mod inference;
pub mod input;
pub mod load;
pub mod output;
pub mod overrides;
pub mod part;
pub mod positions;
pub mod provenance;
pub mod reference;
pub mod results;
pub mod runner;
pub mod schema;
pub mod schemes;
pub mod study;
pub mod tables;
pub mod timeline;
pub mod trace;
mod util;

pub use load::{load, parse, Plan, ScenarioError};
pub use output::{write_atomic, write_outputs, OutputError, OutputFolder};
pub use results::{RunRecord, Summary, COLUMNS};
pub use runner::{
    run_plan, run_plan_streaming, simulate, Outcome, Progress, Recording, Results, Row, RunError,
};
