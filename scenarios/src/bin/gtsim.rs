//! `gtsim`: run a scenario file and write its results, or check one.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// gtsim: a discrete-event simulator of multiprocessor game-tree-search hardware.
#[derive(Parser)]
#[command(name = "gtsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and write results.csv, results.json, report.md and PNG plots.
    Run {
        /// The scenario file (RON), e.g. scenarios/pmws-uniform.ron.
        file: PathBuf,
        /// Output folder [default: out/<scenario name>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Worker threads for the independent runs of the sweep (0 = one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Print nothing but errors.
        #[arg(long)]
        quiet: bool,
    },
    /// Check a scenario file without running it: report errors, or what it would run.
    Check {
        /// The scenario file (RON).
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gtsim: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Check { file } => {
            let plan = scenarios::load(&file).map_err(|e| e.to_string())?;
            let runs = plan.fanouts.len() * plan.seeds.len();
            println!(
                "{}: ok — scenario '{}', {} runs (fanouts {:?} × {} seeds), plus the f = 1 baseline of each seed",
                file.display(),
                plan.name(),
                runs,
                plan.fanouts,
                plan.seeds.len()
            );
            Ok(())
        }
        Command::Run {
            file,
            out,
            threads,
            quiet,
        } => {
            let plan = scenarios::load(&file).map_err(|e| e.to_string())?;
            let dir = out.unwrap_or_else(|| PathBuf::from("out").join(plan.name()));
            let started = std::time::Instant::now();
            let results =
                scenarios::run_plan(&plan, threads, &|_, _| {}).map_err(|e| e.to_string())?;
            let files =
                scenarios::write_outputs(&plan, &results, &dir).map_err(|e| e.to_string())?;
            if !quiet {
                print!("{}", scenarios::results::summary_table(&results.summaries));
                println!(
                    "\n{} runs in {:.1} s; wrote {} files to {}",
                    results.records.len(),
                    started.elapsed().as_secs_f64(),
                    files.len(),
                    dir.display()
                );
                for f in &files {
                    println!("  {}", f.display());
                }
            }
            Ok(())
        }
    }
}
