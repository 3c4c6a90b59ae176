//! Runs a plan: every (fanout, seed) pair plus the uniprocessor baseline of every seed, in
//! parallel across cores, with results identical to a one-thread run.

use crate::dispatch::{machine_config, run_algorithm, PTree};
use crate::load::{ordering_label, Plan};
use crate::results::{summarize, RunLabel, RunRecord, Summary};
use algorithms::{model, GameTree, SyntheticTree};
use rayon::prelude::*;
use sim_core::RunStats;

/// A run that went wrong: a bug in a scheme or the engine, never bad input (that is caught when
/// the scenario is loaded).
#[derive(thiserror::Error, Debug)]
pub enum RunError {
    #[error("seed {seed}: {message}")]
    Tree { seed: u64, message: String },
    #[error("f = {fanout}, seed {seed}: {message}")]
    Machine {
        fanout: u32,
        seed: u64,
        message: String,
    },
    #[error(
        "f = {fanout}, seed {seed}: the search returned {got:?} but the tree's minimax value is {expected} — a bug in the scheme"
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
    /// Index of the tree configuration in the plan.
    pub config: usize,
    pub fanout: u32,
    pub seed: u64,
    /// The root value found (checked against the tree's minimax value).
    pub root_value: i32,
    pub stats: RunStats,
}

/// What to record beyond the totals.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recording {
    pub intervals: bool,
    pub messages: bool,
}

/// Simulates configuration `config` of the plan at fanout `f` on the tree of `seed`.
pub fn simulate(
    plan: &Plan,
    config: usize,
    f: u32,
    seed: u64,
    rec: Recording,
) -> Result<Outcome, RunError> {
    let spec = &plan.configs[config];
    let tree = SyntheticTree::new(spec.clone(), seed)
        .map_err(|message| RunError::Tree { seed, message })?;
    let ptree = PTree::Paper {
        fanout: f,
        length: 1,
    };
    let mut machine = machine_config(
        ptree.build(),
        plan.costs,
        &plan.links,
        plan.reads,
        plan.batching,
    );
    machine.record_intervals = rec.intervals;
    machine.record_messages = rec.messages;
    let algorithm = plan.algorithms[0];
    let (root_value, stats) =
        run_algorithm(algorithm, &tree, spec.depth, plan.progressive, machine).map_err(|e| {
            RunError::Machine {
                fanout: f,
                seed,
                message: e.to_string(),
            }
        })?;
    // The generator fixes the minimax value before the tree exists: every run must find it.
    let expected = tree.root().value;
    if root_value != Some(expected) {
        return Err(RunError::WrongValue {
            fanout: f,
            seed,
            got: root_value,
            expected,
        });
    }
    Ok(Outcome {
        config,
        fanout: f,
        seed,
        root_value: expected,
        stats,
    })
}

/// Everything a plan produced.
pub struct Results {
    /// One record per (configuration, fanout, seed) of the sweep, in that order.
    pub records: Vec<RunRecord>,
    /// The uniprocessor (f = 1) record of every (configuration, seed).
    pub baseline: Vec<RunRecord>,
    /// Per (configuration, fanout), configurations in plan order.
    pub summaries: Vec<Summary>,
}

/// Runs every job of the plan on `threads` threads (0 = all cores). `progress` is called after
/// each finished run with (done, total).
pub fn run_plan(
    plan: &Plan,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Results, RunError> {
    // Jobs: per configuration, the baseline of every seed, then the sweep (f = 1 reuses the
    // baseline). Results are collected in job order, whatever thread ran them.
    let mut jobs: Vec<(usize, u32, u64)> = Vec::new();
    for c in 0..plan.configs.len() {
        jobs.extend(plan.seeds.iter().map(|&s| (c, 1, s)));
        for &f in plan.fanouts.iter().filter(|&&f| f != 1) {
            jobs.extend(plan.seeds.iter().map(|&s| (c, f, s)));
        }
    }
    let total = jobs.len();
    // Run them in a fixed shuffled order, so that heavy and light configurations mix and the
    // progress rate (and its ETA) is even over time; results go back into job order.
    let mut order: Vec<usize> = (0..total).collect();
    order.sort_by_key(|&i| algorithms::rng::mix64(i as u64));
    let done = std::sync::atomic::AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let shuffled: Vec<(usize, Result<Outcome, RunError>)> = pool.install(|| {
        order
            .par_iter()
            .map(|&i| {
                let (c, f, seed) = jobs[i];
                let o = simulate(plan, c, f, seed, Recording::default());
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(n, total);
                (i, o)
            })
            .collect()
    });
    let mut slots: Vec<Option<Result<Outcome, RunError>>> = (0..total).map(|_| None).collect();
    for (i, o) in shuffled {
        slots[i] = Some(o);
    }
    let outcomes: Vec<Outcome> = slots
        .into_iter()
        .map(|o| o.expect("every job ran"))
        .collect::<Result<_, _>>()?;

    let mut records = Vec::new();
    let mut baseline = Vec::new();
    let mut summaries = Vec::new();
    let mut it = outcomes.iter();
    let n_seeds = plan.seeds.len();
    for (c, spec) in plan.configs.iter().enumerate() {
        let ordering = ordering_label(&spec.ordering);
        let label = RunLabel::new(plan, spec, &ordering);
        let model = ModelInputs::new(plan, spec);
        let record = |o: &Outcome, b: &Outcome| -> RunRecord {
            let mut r = RunRecord::new(&label, o.fanout, o.seed, o.root_value, &o.stats, &b.stats);
            model.fill(&mut r);
            r
        };
        let base: Vec<&Outcome> = it.by_ref().take(n_seeds).collect();
        debug_assert!(base.iter().all(|o| o.config == c && o.fanout == 1));
        let base_records: Vec<RunRecord> = base.iter().map(|b| record(b, b)).collect();
        let mut config_records = Vec::new();
        for &f in &plan.fanouts {
            if f == 1 {
                config_records.extend(base_records.iter().cloned());
            } else {
                for b in &base {
                    let o = it.next().expect("one outcome per job");
                    config_records.push(record(o, b));
                }
            }
        }
        let (w, d) = (spec.width as u64, spec.depth);
        summaries.extend(summarize(
            &config_records,
            &base_records,
            &plan.fanouts,
            |f| sync_estimate(w, d, f as u64),
        ));
        records.extend(config_records);
        baseline.extend(base_records);
    }
    Ok(Results {
        records,
        baseline,
        summaries,
    })
}

/// What the analytical model says about a configuration (section VII), for the model columns.
struct ModelInputs {
    w: u64,
    d: u32,
    progressive: bool,
    k: u64,
    e: u64,
    s: u64,
    link: sim_hw::LinkSpec,
}

impl ModelInputs {
    fn new(plan: &Plan, spec: &algorithms::SyntheticSpec) -> Self {
        ModelInputs {
            w: spec.width as u64,
            d: spec.depth,
            progressive: plan.progressive,
            k: plan.costs.k.as_nanos(),
            e: plan.costs.e.as_nanos(),
            s: plan.costs.s.as_nanos(),
            link: plan.link,
        }
    }

    /// Eq. (5) for one search to `depth`, with t1 the 4-byte inter-node message and t2 the
    /// inter-level message of a `depth`-ply line (2 bytes per ply), rounded to whole ns.
    fn t5(&self, depth: u32, f: u64) -> Option<f64> {
        let t1 = self.link.transmit_time(4).as_nanos();
        let t2 = self.link.transmit_time(2 * depth as u64).as_nanos();
        model::t_df_comm(self.w, depth, f, self.k, self.e, self.s, t1, t2)
            .ok()
            .map(|r| r.to_f64().round())
    }

    fn fill(&self, r: &mut RunRecord) {
        let f = r.fanout as u64;
        // With progressive deepening, one search per iteration 1..d.
        let depths = if self.progressive {
            1..=self.d
        } else {
            self.d..=self.d
        };
        let elapsed: Option<f64> = depths.map(|i| self.t5(i, f)).sum();
        r.model_elapsed_ns = elapsed.unwrap_or(f64::NAN);
        r.model_sync_overhead_odd = model::sync_overhead_odd(self.w, f).unwrap_or(f64::NAN);
        r.model_sync_overhead_even = model::sync_overhead_even(self.w, f).unwrap_or(f64::NAN);
        r.model_sync_fm1_over_w = model::sync_overhead_fm1_over_w(self.w, f).unwrap_or(f64::NAN);
        r.model_sync_overhead_ie =
            model::sync_overhead_model(self.w, self.d, f).unwrap_or(f64::NAN);
    }
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
