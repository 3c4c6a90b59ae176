//! Runs a plan: every (fanout, seed) pair plus the uniprocessor baseline of every seed, in
//! parallel across cores, with results identical to a one-thread run.

use crate::load::Plan;
use crate::results::{summarize, RunLabel, RunRecord, Summary};
use algorithms::{model, pmws_roles, PmwsConfig, SyntheticTree};
use rayon::prelude::*;
use sim_core::RunStats;
use sim_hw::{Machine, MachineConfig, ProcessorTree};

/// A run that went wrong: a bug in a scheme or the engine, never bad input (that is caught when
/// the scenario is loaded).
#[derive(thiserror::Error, Debug)]
pub enum RunError {
    #[error("seed {seed}: {message}")]
    Tree { seed: u64, message: String },
    #[error(
        "f = {fanout}, seed {seed}: the parallel search returned {got:?} but the sequential search {expected} — a bug in the scheme"
    )]
    WrongValue {
        fanout: u32,
        seed: u64,
        got: Option<i32>,
        expected: i32,
    },
}

/// One simulated run.
pub struct Outcome {
    pub fanout: u32,
    pub seed: u64,
    pub root_value: Option<i32>,
    pub stats: RunStats,
}

/// What to record beyond the totals.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recording {
    pub intervals: bool,
    pub messages: bool,
}

/// Simulates the plan's search at fanout `f` on the tree of `seed`.
pub fn simulate(plan: &Plan, f: u32, seed: u64, rec: Recording) -> Result<Outcome, RunError> {
    let tree = SyntheticTree::new(plan.tree.clone(), seed)
        .map_err(|message| RunError::Tree { seed, message })?;
    let config = MachineConfig {
        tree: ProcessorTree::new(f, 1),
        costs: plan.costs,
        link: plan.link,
        record_intervals: rec.intervals,
        record_messages: rec.messages,
    };
    let roles = pmws_roles(
        &tree,
        f as usize,
        PmwsConfig {
            depth: plan.depth,
            progressive: plan.progressive,
        },
    );
    let (stats, roles) = Machine::new(config, roles).run();
    Ok(Outcome {
        fanout: f,
        seed,
        root_value: roles[0].root_value(),
        stats,
    })
}

/// Everything a plan produced.
pub struct Results {
    /// One record per (fanout, seed) of the sweep, fanouts in sweep order, then seeds.
    pub records: Vec<RunRecord>,
    /// The uniprocessor (f = 1) record of every seed.
    pub baseline: Vec<RunRecord>,
    pub summaries: Vec<Summary>,
}

/// Runs every job of the plan on `threads` threads (0 = all cores). `progress` is called after
/// each finished run with (done, total).
pub fn run_plan(
    plan: &Plan,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Results, RunError> {
    // Jobs: the baseline of every seed first, then the sweep; f = 1 in the sweep reuses it.
    let mut jobs: Vec<(u32, u64)> = plan.seeds.iter().map(|&s| (1, s)).collect();
    for &f in plan.fanouts.iter().filter(|&&f| f != 1) {
        jobs.extend(plan.seeds.iter().map(|&s| (f, s)));
    }
    let total = jobs.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let outcomes: Vec<Result<Outcome, RunError>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(f, seed)| {
                let o = simulate(plan, f, seed, Recording::default());
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(n, total);
                o
            })
            .collect()
    });
    let outcomes: Vec<Outcome> = outcomes.into_iter().collect::<Result<_, _>>()?;
    let (base, rest) = outcomes.split_at(plan.seeds.len());

    let ordering = plan.ordering_label();
    let label = RunLabel {
        scenario: plan.name(),
        algorithm: "pmws",
        tree: plan.tree_label(),
        ordering: &ordering,
        width: plan.tree.width,
        depth: plan.depth,
        length: 1,
    };
    let record = |o: &Outcome, b: &Outcome| -> Result<RunRecord, RunError> {
        let expected = b.root_value.expect("the uniprocessor search finishes");
        if o.root_value != Some(expected) {
            return Err(RunError::WrongValue {
                fanout: o.fanout,
                seed: o.seed,
                got: o.root_value,
                expected,
            });
        }
        Ok(RunRecord::new(
            &label, o.fanout, o.seed, expected, &o.stats, &b.stats,
        ))
    };
    let baseline: Vec<RunRecord> = base
        .iter()
        .map(|b| record(b, b))
        .collect::<Result<_, _>>()?;
    let mut records = Vec::new();
    let mut rest = rest.iter();
    for &f in &plan.fanouts {
        for (i, _) in plan.seeds.iter().enumerate() {
            if f == 1 {
                records.push(baseline[i].clone());
            } else {
                let o = rest.next().expect("one outcome per job");
                records.push(record(o, &base[i])?);
            }
        }
    }
    let (w, d) = (plan.tree.width as u64, plan.depth);
    let summaries = summarize(&records, &baseline, &plan.fanouts, |f| {
        sync_estimate(w, d, f as u64)
    });
    Ok(Results {
        records,
        baseline,
        summaries,
    })
}

/// The paper's estimate of synchronization overhead for this depth's parity: eq. (14)
/// f/2(w+1) for odd depths, 3f/4(w−1) for even depths (NaN where it is undefined, w = 1).
pub fn sync_estimate(w: u64, depth: u32, f: u64) -> f64 {
    let r = if depth % 2 == 1 {
        model::sync_overhead_odd(w, f)
    } else {
        model::sync_overhead_even(w, f)
    };
    r.unwrap_or(f64::NAN)
}
