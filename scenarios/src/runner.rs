//! Runs a plan: every (fanout, seed) pair plus the uniprocessor baseline of every seed, in
//! parallel across cores, with results identical to a one-thread run.

use crate::dispatch::{machine_config, platform, AlgorithmRun, PTree};
use crate::load::{Generator, Plan};
use crate::positions::ChessPosition;
use crate::results::{
    summarize_fanout, Baseline, Baselines, ConfigLabel, PTreeFigures, RecordFigures, RunFigures,
    RunLabel, RunRecord, RunTotals, Summary,
};
use algorithms::{
    model, CampbellSpec, CampbellTree, Figures, GameTree, SchemeError, SyntheticTree,
};
use sim_core::RunStats;

/// A run that went wrong: a bug in a scheme or the engine, never bad input (that is caught when
/// the scenario is loaded).
#[derive(thiserror::Error, Debug)]
pub enum RunError {
    /// The tree generator rejected the configuration for this seed.
    #[error("seed {seed}: {message}")]
    Tree {
        /// The tree's seed.
        seed: u64,
        /// The generator's reason.
        message: String,
    },
    /// A run's root value differs from the tree's minimax value (for chess, from a plain
    /// table-free alpha-beta's), or a search with a table returned none.
    #[error(
        "{run}: the search returned {got:?} but the tree's minimax value is {expected} — a bug in the scheme"
    )]
    WrongValue {
        /// The run, in words ([`RunKey::describe`]).
        run: String,
        /// The value the search returned, if it returned one.
        got: Option<i32>,
        /// The tree's minimax value.
        expected: i32,
    },
    /// The scheme could not be deployed, or the machine stopped with an error (a deadlock, a
    /// failed role, time past its largest value).
    #[error("{run}: {error}")]
    Machine {
        /// The run, in words ([`RunKey::describe`]).
        run: String,
        /// The scheme's or the machine's error.
        #[source]
        error: SchemeError,
    },
    /// A run kept from an earlier sweep (a part file for `--resume`, a shard for `gtsim merge`)
    /// that no simulation could have left: the file was edited or damaged.
    #[error("{run}: the run kept in the sweep's part or shard file is not one a simulation leaves ({why}): the file was changed; run the sweep (or that shard) again")]
    Kept {
        /// The run, in words ([`RunKey::describe`]).
        run: String,
        /// What does not hold.
        why: String,
    },
    /// A run panicked; the panic was caught and named.
    #[error("{run}: the run panicked ({message}) — a bug in gtsim")]
    Panic {
        /// The run, in words ([`RunKey::describe`]).
        run: String,
        /// The panic's message.
        message: String,
    },
    /// The worker threads could not be started, or the sweep was stopped; the message says which.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
}

/// Names one run of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunKey {
    /// Index of the tree configuration in the plan.
    pub config: usize,
    /// Index of the algorithm in `plan.algorithms`.
    pub algorithm: usize,
    /// The processor tree.
    pub ptree: PTree,
    /// The tree's seed.
    pub seed: u64,
}

impl RunKey {
    /// The run in words, for errors: algorithm, tree, seed, processor tree.
    pub fn describe(&self, plan: &Plan) -> String {
        let spec = &plan.configs[self.config];
        if let Some(set) = &plan.chess {
            let id = set.get(self.seed).map_or("?", |p| p.id.as_str());
            return format!(
                "{} on chess position {id} (number {}), d = {}, {}",
                plan.algorithms[self.algorithm],
                self.seed,
                spec.depth,
                self.ptree
                    .machine_words(plan.algorithms[self.algorithm].on_pool())
            );
        }
        // Campbell's trees have no horizon noise.
        let noise = match plan.generator {
            crate::load::Generator::Campbell => String::new(),
            _ => format!(", horizon noise {}", spec.horizon_noise),
        };
        format!(
            "{} on w = {}, d = {}, {}{noise}, seed {}, {}",
            plan.algorithms[self.algorithm],
            spec.width,
            spec.depth,
            plan.ordering_label(self.config),
            self.seed,
            self.ptree
                .machine_words(plan.algorithms[self.algorithm].on_pool())
        )
    }
}

/// One simulated run.
pub struct Outcome {
    /// Index of the tree configuration in the plan.
    pub config: usize,
    /// Index of the algorithm in `plan.algorithms`.
    pub algorithm: usize,
    /// The processor tree's fanout (the paper's f; 1 + the root's children for Campbell's).
    pub fanout: u32,
    /// The processor tree.
    pub ptree: PTree,
    /// The tree's seed.
    pub seed: u64,
    /// The root value found (checked against the tree's minimax value, unless the search keeps
    /// a transposition table: then it may legitimately differ, see `value_reference`).
    pub root_value: i32,
    /// The table-free reference value (chess: a plain recursive alpha-beta; synthetic and
    /// Campbell trees: the generator's minimax value).
    pub value_reference: i32,
    /// For chess: the position's EPD id.
    pub position: Option<String>,
    /// The root move chosen as the scheme reports it, as its index in the root's move list.
    pub root_move_index: Option<usize>,
    /// For chess: the root move chosen, in UCI, and whether it is one of the EPD's best moves
    /// (None when the EPD gives none).
    pub root_move: Option<(String, Option<bool>)>,
    /// Everything the run measured.
    pub stats: RunStats,
    /// The figures the scheme reported beyond the statistics (`open_peak`, `tt_probes`, …).
    pub figures: Figures,
}

impl Outcome {
    /// What the run leaves for its record ([`Finished`]).
    pub fn finished(&self) -> Finished {
        Finished {
            root_value: self.root_value,
            value_reference: self.value_reference,
            position: self.position.clone(),
            root_move: self.root_move.clone(),
            figures: self.figures.clone(),
            totals: RunTotals::of(&self.stats),
        }
    }
}

/// What a finished run leaves for the sweep: everything its record and its configuration's
/// summaries take from it (the record's labels come from the plan, its baseline from the
/// uniprocessor run of its tree). The part file of a sweep keeps one per run
/// ([`crate::part`]), so a resumed sweep rebuilds the very rows it would have written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The root value found ([`Outcome::root_value`]).
    pub root_value: i32,
    /// The table-free reference value ([`Outcome::value_reference`]).
    pub value_reference: i32,
    /// For chess: the position's EPD id.
    pub position: Option<String>,
    /// For chess: the root move in UCI and whether it is one of the EPD's best moves.
    pub root_move: Option<(String, Option<bool>)>,
    /// The scheme's figures.
    pub figures: Figures,
    /// The machine-wide totals of the run's statistics.
    pub totals: RunTotals,
}

/// What to record beyond the totals.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recording {
    /// Keep every processor's category intervals (for timeline.png and traces).
    pub intervals: bool,
    /// Keep every message's record (for traces).
    pub messages: bool,
}

/// Simulates configuration `config` of the plan at fanout `f` (the paper's processor tree of
/// `hardware.length`) on the tree of `seed`, with the plan's first algorithm.
pub fn simulate(
    plan: &Plan,
    config: usize,
    f: u32,
    seed: u64,
    rec: Recording,
) -> Result<Outcome, RunError> {
    let ptree = paper_ptree(plan, f);
    // The first algorithm the sweep runs there (a run it skips would not be one of its runs).
    let algorithm = (0..plan.algorithms.len())
        .find(|&a| plan.runs(config, a, ptree))
        .unwrap_or(0);
    let key = RunKey {
        config,
        algorithm,
        ptree,
        seed,
    };
    simulate_run(plan, key, rec)
}

/// The paper's processor tree of fanout `f` and the plan's `hardware.length`.
fn paper_ptree(plan: &Plan, f: u32) -> PTree {
    let length = plan.ptrees.iter().find_map(|p| match p {
        PTree::Paper { length, .. } => Some(*length),
        _ => None,
    });
    PTree::Paper {
        fanout: f,
        length: length.unwrap_or(1),
    }
}

/// The run to record in full for `timeline.png` and `--trace`: the one `outputs.timeline`
/// names (the first algorithm the sweep runs there), or, for a trace without it, the first
/// configuration and algorithm the sweep runs, on its largest processor tree, first seed.
/// Always a run of the sweep (skipped runs are never chosen); None when nothing is asked.
pub fn recorded_run(plan: &Plan, trace: bool) -> Option<RunKey> {
    if let Some((config, f, seed)) = plan.timeline {
        let ptree = paper_ptree(plan, f);
        let algorithm = (0..plan.algorithms.len()).find(|&a| plan.runs(config, a, ptree))?;
        return Some(RunKey {
            config,
            algorithm,
            ptree,
            seed,
        });
    }
    if !trace {
        return None;
    }
    let seed = *plan.seeds.first()?;
    for config in 0..plan.configs.len() {
        for algorithm in 0..plan.algorithms.len() {
            if !plan.applies(config, algorithm) {
                continue;
            }
            // The most processors among the trees it runs on (the uniprocessor otherwise).
            let ptree = plan
                .sweep_ptrees(config, algorithm)
                .into_iter()
                .max_by_key(|p| p.build().len())
                .unwrap_or(PTree::UNIPROCESSOR);
            return Some(RunKey {
                config,
                algorithm,
                ptree,
                seed,
            });
        }
    }
    None
}

/// Simulates one run of the plan.
pub fn simulate_run(plan: &Plan, key: RunKey, rec: Recording) -> Result<Outcome, RunError> {
    let spec = &plan.configs[key.config];
    let seed = key.seed;
    let tree_error = |message| RunError::Tree { seed, message };
    match plan.generator {
        Generator::Synthetic => {
            let tree = SyntheticTree::new(spec.clone(), seed).map_err(tree_error)?;
            // The generator fixes the minimax value before the tree exists.
            let expected = tree.root().value;
            simulate_on(plan, key, rec, &tree, expected)
        }
        Generator::Campbell => {
            let spec = CampbellSpec {
                width: spec.width,
                depth: spec.depth,
                ordering: spec.ordering.clone(),
            };
            let tree = CampbellTree::with_root_score(spec, seed, plan.campbell_root_score())
                .map_err(tree_error)?;
            let expected = tree.value();
            simulate_on(plan, key, rec, &tree, expected)
        }
        Generator::Chess => {
            let position = plan
                .chess
                .as_ref()
                .and_then(|set| set.get(seed))
                .ok_or_else(|| tree_error(format!("no chess position has the number {seed}")))?;
            // Built once when the plan was loaded; the value once per position and depth.
            let expected = position.reference_value(key.config, spec.depth);
            let mut o = simulate_on(plan, key, rec, &position.tree, expected)?;
            chess_details(&mut o, position);
            Ok(o)
        }
    }
}

/// Adds a chess run's position and its root move (UCI, and whether it is an EPD best move).
fn chess_details(o: &mut Outcome, position: &ChessPosition) {
    o.position = Some(position.id.clone());
    o.root_move = o.root_move_index.and_then(|i| position.root_move(i));
}

/// Simulates one run of the plan on `tree`, whose table-free minimax value is `expected`.
/// A search without a transposition table must return exactly `expected` (a
/// [`RunError::WrongValue`] otherwise); one with a table may return another value (the paper saw
/// this too), which is recorded, not refused.
pub fn simulate_on<T: GameTree>(
    plan: &Plan,
    key: RunKey,
    rec: Recording,
    tree: &T,
    expected: i32,
) -> Result<Outcome, RunError> {
    let spec = &plan.configs[key.config];
    let seed = key.seed;
    let ptree = key.ptree.build();
    let fanout = ptree.fanout();
    let algorithm = plan.algorithms[key.algorithm];
    let pool_scheme = algorithm.on_pool();
    let platform = platform(ptree, plan.network, pool_scheme);
    let mut machine = machine_config(platform, plan.costs, &plan.links, plan.reads, plan.batching);
    machine.optimistic = plan.optimistic;
    machine.record_intervals = rec.intervals;
    machine.record_messages = rec.messages;
    machine.memory = plan.memory;
    machine.jitter = plan.jitter.map(|(permille, j)| sim_hw::Jitter {
        permille,
        seed: seed ^ j.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    });
    let AlgorithmRun {
        root_value,
        stats,
        root_move,
        figures,
        answer_at,
    } = algorithm
        .run(tree, spec.depth, plan.progressive, machine)
        .map_err(|error| RunError::Machine {
            run: key.describe(plan),
            error,
        })?;
    // When the root's value was known, which can be before the machine is quiet (messages
    // still on their way, helpers being stopped): the scheme's mark of it, or on one processor
    // the end of its search. Left out (an empty cell) for a scheme that marks none.
    let answer = answer_at.or(key.ptree.is_uniprocessor().then_some(stats.makespan));
    let figures = match answer {
        Some(t) => figures.with(ANSWER_COLUMN, t.as_nanos()),
        None => figures,
    };
    // On shared memory, the machine's memory traffic is reported with the scheme's figures.
    let figures = if plan.memory.is_some() {
        figures
            .with(
                "t_memory_ns",
                stats.total_times().get(sim_core::Category::Memory),
            )
            .with("mem_reads", stats.memory.reads)
            .with("mem_writes", stats.memory.writes)
            .with("mem_bank_wait_ns", stats.memory.bank_wait_ns)
    } else {
        figures
    };
    // Every run without a table must find the tree's minimax value; every run must find one.
    let value = match root_value {
        Some(v) if v == expected || algorithm.has_table() => v,
        got => {
            return Err(RunError::WrongValue {
                run: key.describe(plan),
                got,
                expected,
            })
        }
    };
    Ok(Outcome {
        config: key.config,
        algorithm: key.algorithm,
        fanout,
        ptree: key.ptree,
        seed,
        root_value: value,
        value_reference: expected,
        position: None,
        root_move_index: root_move,
        root_move: None,
        stats,
        figures,
    })
}

/// Everything a plan produced, held in memory (for tests and small plans; the `gtsim` command
/// streams instead, see [`run_plan_streaming`]).
pub struct Results {
    /// One record per (configuration, fanout, seed) of the sweep, in that order.
    pub records: Vec<RunRecord>,
    /// The uniprocessor (f = 1) record of every (configuration, seed).
    pub baseline: Vec<RunRecord>,
    /// Per (configuration, fanout), configurations in plan order.
    pub summaries: Vec<Summary>,
}

/// A record handed to the sink of [`run_plan_streaming`], in plan order.
pub enum Row<'a> {
    /// The uniprocessor run of a (configuration, seed), as the baseline of its tree. For each
    /// configuration, all its baselines come before its sweep rows.
    Baseline(&'a RunRecord),
    /// A row of the sweep: per configuration, per fanout (plan order), per seed. An f = 1 row
    /// is the baseline record again.
    Sweep(&'a RunRecord),
}

/// Runs every job of the plan on `threads` threads (0 = all cores), in memory. `progress` is
/// called after each finished run with (done, total).
pub fn run_plan(
    plan: &Plan,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Results, RunError> {
    let mut records = Vec::new();
    let mut baseline = Vec::new();
    let summaries = run_plan_streaming(
        plan,
        threads,
        &|p| progress(p.runs, p.total_runs),
        &mut |row| {
            match row {
                Row::Baseline(r) => baseline.push(r.clone()),
                Row::Sweep(r) => records.push(r.clone()),
            }
            Ok::<(), RunError>(())
        },
    )?;
    Ok(Results {
        records,
        baseline,
        summaries,
    })
}

/// Most finished runs waiting for an earlier one, per worker thread: the reorder buffer that
/// hands records to the sink in plan order holds at most this many outcomes per thread.
const WINDOW_PER_THREAD: usize = 64;

/// Runs every job of the plan on `threads` threads (0 = all cores) and hands each record to
/// `sink` as soon as it and every record before it in plan order are done, so memory stays
/// bounded whatever the number of runs: a reorder buffer of at most 64 outcomes per thread, the
/// uniprocessor records of the current configuration (one per seed) and the figures of the
/// current processor count that its summary needs (one per seed). Returns the summaries, per
/// (configuration, fanout) in plan order. The records and summaries are identical whatever the
/// thread count. The first failed run in plan order, or the first sink error, stops the sweep.
pub fn run_plan_streaming<E: From<RunError>>(
    plan: &Plan,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
    sink: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<Vec<Summary>, E> {
    let mut journal = |_: usize, _: &Finished| Ok::<(), E>(());
    run_plan_resumable(plan, threads, Vec::new(), &mut journal, progress, sink)
}

/// The number of runs ([`Finished`] records) a sweep of `plan` has, in the order
/// [`run_plan_resumable`] hands them to its journal.
pub fn job_count(plan: &Plan) -> usize {
    jobs(plan).1
}

/// [`run_plan_streaming`] that starts after the runs already `done` (the first `done.len()`
/// runs of the plan, in plan order, as an earlier sweep of the same plan handed them to its
/// journal) and hands every run it finishes, in plan order, to `journal` (its index and what it
/// left) before its rows reach `sink`. The records, rows and summaries are those of a sweep
/// from the start: a record is a function of the plan and the [`Finished`] runs. Runs read
/// back from a file are the caller's to check first ([`check_kept_runs`]), before it writes
/// anything.
pub fn run_plan_resumable<E: From<RunError>>(
    plan: &Plan,
    threads: usize,
    done: Vec<Finished>,
    journal: &mut dyn FnMut(usize, &Finished) -> Result<(), E>,
    progress: &(dyn Fn(Progress) + Sync),
    sink: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<Vec<Summary>, E> {
    let (groups, total, starts) = jobs(plan);
    if done.len() > total {
        return Err(E::from(RunError::Threads(format!(
            "{} runs were given as done, but the sweep has {total}",
            done.len()
        ))));
    }
    let job = |i: usize| job_key(plan, &groups, &starts, i);
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let work = |key: RunKey| estimated_work(plan, key);
    let total_work: u64 = (0..total).map(|i| work(job(i))).sum();
    let skipped = done.len();
    let work_done =
        std::sync::atomic::AtomicU64::new((0..skipped).map(|i| work(job(i))).sum::<u64>());
    let weight = |i: usize| start_weight(plan, job(i));
    let ordered = Ordered::new(
        skipped,
        total,
        threads.saturating_mul(WINDOW_PER_THREAD),
        &weight,
    );
    let mut source = Source {
        done: done.into_iter(),
        index: 0,
        ordered: &ordered,
        journal,
    };
    let done = std::sync::atomic::AtomicUsize::new(skipped);
    std::thread::scope(|scope| {
        let mut spawned = 0;
        for t in 0..threads.min((total - skipped).max(1)) {
            let worker = || {
                while let Some(i) = ordered.claim() {
                    let key = job(i);
                    let o = simulate_caught(plan, key);
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    let w = work(key);
                    let wd = work_done.fetch_add(w, std::sync::atomic::Ordering::Relaxed) + w;
                    progress(Progress {
                        runs: n,
                        total_runs: total,
                        work: wd,
                        total_work,
                    });
                    ordered.put(i, o);
                }
            };
            match std::thread::Builder::new()
                .name(format!("gtsim-run-{t}"))
                .spawn_scoped(scope, worker)
            {
                Ok(_) => spawned += 1,
                // Fewer threads than asked is still a correct run; none is an error below.
                Err(_) if spawned > 0 => break,
                Err(e) => {
                    ordered.stop();
                    return Err(E::from(RunError::Threads(e.to_string())));
                }
            }
        }
        let result = consume(plan, &groups, &mut source, sink);
        // Stop the workers whether the consumer finished or failed half-way.
        ordered.stop();
        result
    })
}

/// [`check_kept`] of runs read back from a file (a part file for `--resume`, a shard for
/// `gtsim merge`), each with its index in the plan's order of runs: the first that does not
/// hold is an error ([`RunError::Kept`]).
pub fn check_kept_runs<'a>(
    plan: &Plan,
    runs: impl IntoIterator<Item = (usize, &'a Finished)>,
) -> Result<(), RunError> {
    let (groups, total, starts) = jobs(plan);
    for (i, f) in runs {
        if i >= total {
            return Err(RunError::Kept {
                run: format!("run {i}"),
                why: format!("the sweep has {total} runs"),
            });
        }
        check_kept(plan, job_key(plan, &groups, &starts, i), f)?;
    }
    Ok(())
}

/// What every run a simulation leaves must hold, checked on a run read back from a file: every
/// processor's time categories add up to the makespan, and a search without a table found the
/// tree's minimax value.
fn check_kept(plan: &Plan, key: RunKey, f: &Finished) -> Result<(), RunError> {
    let kept = |why: String| RunError::Kept {
        run: key.describe(plan),
        why,
    };
    let t = &f.totals;
    let accounted: u128 = t.times.0.iter().map(|&x| x as u128).sum();
    let due = key.ptree.processors() as u128 * t.makespan_ns as u128;
    if accounted != due {
        return Err(kept(format!(
            "its time categories add up to {accounted} ns, not processors × makespan = {due} ns"
        )));
    }
    if !plan.algorithms[key.algorithm].has_table() && f.root_value != f.value_reference {
        return Err(kept(format!(
            "root value {} where the tree's minimax value is {}",
            f.root_value, f.value_reference
        )));
    }
    Ok(())
}

/// The column of the time the root's value was known (`algorithms::Scheme::answer_at`).
pub const ANSWER_COLUMN: &str = "answer_ns";

/// A run's estimated work, in leaves: its configuration's minimal tree (every iteration), the
/// fixed cost of a run and the events of its messages, as `check`'s estimate counts them (the
/// progress bar's measure).
fn estimated_work(plan: &Plan, key: RunKey) -> u64 {
    let events = plan.message_events(key.config, key.algorithm, key.ptree)
        * crate::load::SECONDS_PER_EVENT_PER_CORE
        * plan.leaves_per_second_per_core();
    (leaf_work(plan, key) + events).round() as u64
}

/// A run's minimal tree (every iteration) and the fixed cost of a run, in leaves.
fn leaf_work(plan: &Plan, key: RunKey) -> f64 {
    let per_run = crate::load::SECONDS_PER_RUN_PER_CORE * plan.leaves_per_second_per_core();
    plan.run_work(key.config, key.algorithm) + per_run
}

/// How heavy a run is to simulate, to start the heaviest first: its leaf work times its
/// processors (a larger machine of the same tree exchanges more messages and searches more
/// in parallel, each an event or more). A ranking only: it decides which run a thread starts
/// next, never what a run gives.
fn start_weight(plan: &Plan, key: RunKey) -> u64 {
    (leaf_work(plan, key).round() as u64).saturating_mul(key.ptree.processors())
}

/// [`simulate_run`] of a sweep's run, with a panic in it turned into [`RunError::Panic`]
/// naming the run (a sweep reports it and stops rather than losing a worker thread).
fn simulate_caught(plan: &Plan, key: RunKey) -> Result<Outcome, RunError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        simulate_run(plan, key, Recording::default())
    }))
    .unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Err(RunError::Panic {
            run: key.describe(plan),
            message,
        })
    })
}

/// Run `i` of the plan's jobs ([`jobs`]).
fn job_key(plan: &Plan, groups: &[Group], starts: &[usize], i: usize) -> RunKey {
    let n_seeds = plan.seeds.len();
    let g = starts.partition_point(|&s| s <= i) - 1;
    let group = &groups[g];
    let k = i - starts[g];
    let (p, s) = (k / n_seeds, k % n_seeds);
    RunKey {
        config: group.config,
        algorithm: group.algorithm,
        ptree: if p == 0 {
            PTree::UNIPROCESSOR
        } else {
            group.sweep[p - 1]
        },
        seed: plan.seeds[s],
    }
}

/// Simulates the runs of the plan whose indices (in the order [`run_plan_resumable`] hands
/// them to its journal) are `indices`, on `threads` threads (0: one per core), and returns
/// what each left, in the order of `indices`. A shard of a sweep (`gtsim run --shard`): the
/// runs are the same as in a whole sweep, so shards merged make its records.
pub fn run_jobs(
    plan: &Plan,
    threads: usize,
    indices: &[usize],
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Finished>, RunError> {
    let (groups, total, starts) = jobs(plan);
    if let Some(&i) = indices.iter().find(|&&i| i >= total) {
        return Err(RunError::Threads(format!(
            "run {i} asked of a sweep of {total} runs"
        )));
    }
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
    .min(indices.len().max(1));
    // The heaviest runs first (as a whole sweep's window starts them), so that no long run
    // is left to run alone at the end.
    let mut order: Vec<usize> = (0..indices.len()).collect();
    order.sort_by_cached_key(|&k| {
        std::cmp::Reverse(start_weight(
            plan,
            job_key(plan, &groups, &starts, indices[k]),
        ))
    });
    let next = std::sync::atomic::AtomicUsize::new(0);
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<Finished, RunError>>>> = indices
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    std::thread::scope(|scope| -> Result<(), RunError> {
        let mut spawned = 0;
        for t in 0..threads {
            let worker = || loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&k) = order.get(n) else { break };
                let i = indices[k];
                let key = job_key(plan, &groups, &starts, i);
                let o = simulate_caught(plan, key);
                let failed = o.is_err();
                *results[k].lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(o.map(|o| o.finished()));
                progress(finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                if failed {
                    // The others stop at their next run: the shard fails as a whole.
                    next.store(indices.len(), std::sync::atomic::Ordering::Relaxed);
                }
            };
            match std::thread::Builder::new()
                .name(format!("gtsim-shard-{t}"))
                .spawn_scoped(scope, worker)
            {
                Ok(_) => spawned += 1,
                Err(_) if spawned > 0 => break,
                Err(e) => return Err(RunError::Threads(e.to_string())),
            }
        }
        Ok(())
    })?;
    shard_outcome(
        results
            .into_iter()
            .map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect(),
    )
}

/// What a shard's runs left (`None`: never started), in run order: every run's, or else the
/// failure of the first run in run order that failed. A failure stops the other threads before
/// every run has started, and runs start heaviest first, so runs before the failed one in run
/// order may never have started: the error is the failed run's, not that one was left out.
fn shard_outcome<T>(results: Vec<Option<Result<T, RunError>>>) -> Result<Vec<T>, RunError> {
    let mut all = Vec::with_capacity(results.len());
    let mut missing = false;
    for r in results {
        match r {
            Some(Ok(t)) => all.push(t),
            Some(Err(e)) => return Err(e),
            None => missing = true,
        }
    }
    if missing {
        return Err(RunError::Threads("a run was not simulated".into()));
    }
    Ok(all)
}

/// The jobs of a plan: per configuration and algorithm (a group), the uniprocessor baseline of
/// every seed, then the sweep over the processor trees the algorithm applies to (a uniprocessor
/// in the sweep reuses the baseline). Returns the groups, the number of jobs and each group's
/// first job (and the total after the last).
fn jobs(plan: &Plan) -> (Vec<Group>, usize, Vec<usize>) {
    let groups: Vec<Group> = (0..plan.configs.len())
        .flat_map(|config| {
            (0..plan.algorithms.len())
                .filter(move |&algorithm| plan.applies(config, algorithm))
                .map(move |algorithm| Group {
                    config,
                    algorithm,
                    sweep: plan.sweep_ptrees(config, algorithm),
                })
        })
        .collect();
    let n_seeds = plan.seeds.len();
    // starts[g]: the index of group g's first job; starts[groups.len()] = total.
    let mut starts = Vec::with_capacity(groups.len() + 1);
    let mut total = 0usize;
    for g in &groups {
        starts.push(total);
        total += n_seeds * (1 + g.sweep.len());
    }
    starts.push(total);
    (groups, total, starts)
}

/// Where the consumer takes the runs in plan order: first those done before (a resumed sweep),
/// then the workers' outcomes, each handed to the journal as it is taken.
struct Source<'a, E> {
    done: std::vec::IntoIter<Finished>,
    /// The index of the next run taken.
    index: usize,
    ordered: &'a Ordered<'a>,
    journal: &'a mut dyn FnMut(usize, &Finished) -> Result<(), E>,
}

impl<E: From<RunError>> Source<'_, E> {
    /// The next run in plan order.
    fn next(&mut self) -> Result<Finished, E> {
        let i = self.index;
        self.index += 1;
        if let Some(f) = self.done.next() {
            return Ok(f);
        }
        let f = self.ordered.next()?.finished();
        (self.journal)(i, &f)?;
        Ok(f)
    }
}

/// The runs of one (configuration, algorithm) pair.
struct Group {
    config: usize,
    algorithm: usize,
    /// The processor trees of the sweep, other than the uniprocessor, that the algorithm
    /// applies to at this configuration's depth ([`Plan::sweep_ptrees`]).
    sweep: Vec<PTree>,
}

/// The label of a run of `algorithm` in `plan` on the trees of `spec`; `ordering` is
/// `load::ordering_label(&spec.ordering)`.
pub fn run_label<'a>(
    plan: &'a Plan,
    algorithm: &'a str,
    spec: &algorithms::SyntheticSpec,
    ordering: &'a str,
) -> RunLabel<'a> {
    RunLabel {
        scenario: plan.name(),
        algorithm,
        tree: plan.tree_label(),
        ordering,
        width: spec.width,
        depth: spec.depth,
        length: 1,
        horizon_noise: spec.horizon_noise,
    }
}

/// How far a sweep is: runs done of all, and their estimated work (leaves of the minimal trees
/// they search, plus a run's fixed cost, as `check` estimates), so that an ETA weighs a deep run
/// more than a shallow one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Runs finished.
    pub runs: usize,
    /// Runs in the sweep.
    pub total_runs: usize,
    /// Estimated work of the runs finished.
    pub work: u64,
    /// Estimated work of the sweep.
    pub total_work: u64,
}

/// The consumer side of the sweep: pulls outcomes in plan order, builds records and summaries.
fn consume<E: From<RunError>>(
    plan: &Plan,
    groups: &[Group],
    source: &mut Source<E>,
    sink: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<Vec<Summary>, E> {
    let mut summaries = Vec::new();
    for group in groups {
        {
            let spec = &plan.configs[group.config];
            let algorithm = plan.algorithms[group.algorithm];
            let ordering = plan.ordering_label(group.config);
            let name = algorithm.name();
            let label = run_label(plan, &name, spec, &ordering);
            // The analytical model of section VII, for the schemes it describes.
            let model = algorithm
                .entry()
                .model
                .then(|| ModelInputs::new(plan, spec));
            let chess = plan.chess.is_some();
            let (w, d) = (spec.width as u64, spec.depth);
            let pool_scheme = algorithm.on_pool();
            let record = |o: &Finished, p: PTree, seed: u64, b: &Baseline| -> RunRecord {
                let ptree = PTreeFigures::of_run(&p.build(), pool_scheme);
                let mut r = RunRecord::new(&label, &ptree, seed, o.root_value, &o.totals, b);
                r.figures = RecordFigures(o.figures.clone());
                r.position = o.position.clone().unwrap_or_default();
                if let Some((uci, ok)) = &o.root_move {
                    r.root_move = Some(uci.clone());
                    r.best_move_ok = *ok;
                }
                if chess || algorithm.has_table() {
                    r.value_reference = Some(o.value_reference);
                }
                if let Some(m) = &model {
                    m.fill(&mut r);
                }
                r
            };
            let mut base_records = Vec::with_capacity(plan.seeds.len());
            for &seed in &plan.seeds {
                let b = source.next()?;
                let r = record(&b, PTree::UNIPROCESSOR, seed, &Baseline::of(&b.totals));
                sink(Row::Baseline(&r))?;
                base_records.push(r);
            }
            let bases: Vec<Baseline> = base_records.iter().map(RunRecord::as_baseline).collect();
            let uniprocessor = Baselines::of(bases.iter());
            let config_label = match base_records.first() {
                Some(r) => ConfigLabel::of(r),
                None => continue,
            };
            let mut sweep = group.sweep.iter();
            for &p in &plan.ptrees {
                if !p.is_uniprocessor() && !group.sweep.contains(&p) {
                    continue;
                }
                let mut figures = Vec::with_capacity(plan.seeds.len());
                let ptree = PTreeFigures::of_run(&p.build(), pool_scheme);
                if p.is_uniprocessor() {
                    for r in &base_records {
                        sink(Row::Sweep(r))?;
                        figures.push(RunFigures::of(r));
                    }
                } else {
                    debug_assert_eq!(sweep.next(), Some(&p));
                    for (b, &seed) in bases.iter().zip(&plan.seeds) {
                        let o = source.next()?;
                        let r = record(&o, p, seed, b);
                        sink(Row::Sweep(&r))?;
                        figures.push(RunFigures::of(&r));
                    }
                }
                let estimate = match p {
                    PTree::Paper { fanout, .. } if model.is_some() => {
                        sync_estimate(w, d, fanout as u64)
                    }
                    _ => f64::NAN,
                };
                summaries.push(summarize_fanout(
                    &config_label,
                    &ptree,
                    &p.label(),
                    &figures,
                    &uniprocessor,
                    estimate,
                ));
            }
        }
    }
    Ok(summaries)
}

/// A reorder buffer between the workers and the consumer: workers claim jobs at most `window`
/// ahead of the next one the consumer needs, the heaviest of those first (by `weight`, ties in
/// index order), and the consumer takes outcomes strictly in index order.
///
/// Heaviest first: a sweep whose long runs come last in plan order (the largest machines of
/// each group) would otherwise end with one of them running alone while the other threads
/// have nothing left to take. Which run starts first never changes what a run gives.
struct Ordered<'w> {
    total: usize,
    window: usize,
    /// A job's estimated cost, to start the heaviest first.
    weight: &'w (dyn Fn(usize) -> u64 + Sync),
    state: std::sync::Mutex<OrderedState>,
    /// Signalled when the consumer takes an outcome (a slot frees up) or on stop.
    space: std::sync::Condvar,
    /// Signalled when a worker puts an outcome.
    ready: std::sync::Condvar,
}

struct OrderedState {
    /// The next job index to let into the window.
    next_admit: usize,
    /// The next job index the consumer takes; `slots[0]` is its outcome when done.
    next_take: usize,
    /// One per job in the window (`next_take..next_admit`): its outcome once done.
    slots: std::collections::VecDeque<Option<Result<Outcome, RunError>>>,
    /// The jobs in the window not claimed yet: (weight, index), heaviest and then first on top.
    unclaimed: std::collections::BinaryHeap<(u64, std::cmp::Reverse<usize>)>,
    stopped: bool,
}

impl<'w> Ordered<'w> {
    /// Jobs `start..total`, at most `window` ahead of the consumer.
    fn new(
        start: usize,
        total: usize,
        window: usize,
        weight: &'w (dyn Fn(usize) -> u64 + Sync),
    ) -> Self {
        Ordered {
            total,
            window: window.max(1),
            weight,
            state: std::sync::Mutex::new(OrderedState {
                next_admit: start,
                next_take: start,
                slots: std::collections::VecDeque::new(),
                unclaimed: std::collections::BinaryHeap::new(),
                stopped: false,
            }),
            space: std::sync::Condvar::new(),
            ready: std::sync::Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, OrderedState> {
        // A worker that panicked while holding the lock cannot leave the state inconsistent
        // (every update is a single assignment): go on with it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The next job to run: the heaviest of those in the window not claimed yet, waiting while
    /// every one in the window is claimed; None when all are claimed or the sweep stopped.
    fn claim(&self) -> Option<usize> {
        let mut st = self.lock();
        loop {
            if st.stopped {
                return None;
            }
            let limit = self.total.min(st.next_take.saturating_add(self.window));
            while st.next_admit < limit {
                let i = st.next_admit;
                st.unclaimed.push(((self.weight)(i), std::cmp::Reverse(i)));
                st.slots.push_back(None);
                st.next_admit += 1;
            }
            if let Some((_, std::cmp::Reverse(i))) = st.unclaimed.pop() {
                return Some(i);
            }
            if st.next_admit >= self.total {
                return None;
            }
            st = self
                .space
                .wait(st)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    fn put(&self, i: usize, outcome: Result<Outcome, RunError>) {
        let mut st = self.lock();
        let k = i - st.next_take;
        st.slots[k] = Some(outcome);
        if k == 0 {
            self.ready.notify_all();
        }
    }

    /// The outcome of the next job in order, waiting for it.
    fn next(&self) -> Result<Outcome, RunError> {
        let mut st = self.lock();
        loop {
            if let Some(Some(_)) = st.slots.front() {
                let o = st.slots.pop_front().flatten().expect("a finished slot");
                st.next_take += 1;
                self.space.notify_all();
                return o;
            }
            if st.stopped {
                return Err(RunError::Threads("the sweep was stopped".into()));
            }
            st = self
                .ready
                .wait(st)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.space.notify_all();
        self.ready.notify_all();
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

    const PLAN: &str = r#"(
        name: "stream",
        hardware: (costs: (k: Ns(3), e: Ns(11)), link: Ideal),
        workload: Synthetic(width: 3, depth: 3, ordering: Random, horizon_noise: 0),
        search: (algorithm: Pmws, progressive_deepening: true),
        sweep: (fanout: [3, 1, 2], seeds: Range(start: 1, count: 40), width: [2, 3]),
    )"#;

    fn plan() -> Plan {
        crate::parse(PLAN, std::path::Path::new("stream.ron")).unwrap()
    }

    #[test]
    fn the_heaviest_job_in_the_window_starts_first_and_none_beyond_it() {
        // Jobs 0..12 weigh 1, 5, 2, 5, 9, 0, 7, …: a window of 4 lets in 0..4 only.
        let weights = [1u64, 5, 2, 5, 9, 0, 7, 3, 3, 8, 1, 4];
        let weight = |i: usize| weights[i];
        let ordered = Ordered::new(0, weights.len(), 4, &weight);
        let claimed: Vec<Option<usize>> = (0..4).map(|_| ordered.claim()).collect();
        // Heaviest first, ties in index order; job 4 (the heaviest of all) is not in the window.
        assert_eq!(claimed, vec![Some(1), Some(3), Some(2), Some(0)]);
        {
            let st = ordered.lock();
            assert_eq!(
                (st.next_admit, st.unclaimed.len()),
                (4, 0),
                "a 5th would run"
            );
        }
        let p = plan();
        let outcome = |seed: u64| {
            simulate(&p, 0, 1, 1, Recording::default()).map(|mut o| {
                o.seed = seed;
                o
            })
        };
        // Job 1 done first frees nothing: the consumer waits for job 0.
        ordered.put(1, outcome(1));
        ordered.put(0, outcome(0));
        assert_eq!(ordered.next().unwrap().seed, 0);
        // One slot free: job 4 enters the window and is the only one to claim.
        assert_eq!(ordered.claim(), Some(4));
        assert_eq!(ordered.next().unwrap().seed, 1);
        // Another: job 5 (weight 0) enters, and is next since nothing else is unclaimed.
        assert_eq!(ordered.claim(), Some(5));
        for i in [2, 3, 4, 5] {
            ordered.put(i, outcome(i as u64));
        }
        for i in [2, 3, 4, 5] {
            assert_eq!(ordered.next().unwrap().seed, i);
        }
        // The window is 6..10 now: 9 (weight 8), 6 (7), then 7 and 8 (3 each) in index order.
        let claimed: Vec<Option<usize>> = (0..4).map(|_| ordered.claim()).collect();
        assert_eq!(claimed, vec![Some(9), Some(6), Some(7), Some(8)]);
    }

    #[test]
    fn a_shard_reports_the_run_that_failed_not_the_runs_it_never_started() {
        let failed = || RunError::Panic {
            run: "run 2".into(),
            message: "boom".into(),
        };
        // Runs 0 and 1 never started: the heavier run 2 failed first and stopped the shard.
        let results: Vec<Option<Result<u32, RunError>>> =
            vec![None, None, Some(Err(failed())), Some(Ok(3))];
        match shard_outcome(results) {
            Err(RunError::Panic { run, message }) => {
                assert_eq!((run, message), ("run 2".into(), "boom".into()))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            shard_outcome(vec![Some(Ok(1)), Some(Ok(2))]).unwrap(),
            vec![1, 2]
        );
        assert!(matches!(
            shard_outcome::<u32>(vec![Some(Ok(1)), None]),
            Err(RunError::Threads(_))
        ));
    }

    #[test]
    fn a_larger_machine_weighs_more_to_start() {
        let p = plan();
        let key = |ptree| RunKey {
            config: 0,
            algorithm: 0,
            ptree,
            seed: 1,
        };
        let weights: Vec<u64> = [1, 2, 3]
            .map(|fanout| start_weight(&p, key(PTree::Paper { fanout, length: 1 })))
            .to_vec();
        assert!(
            weights[0] < weights[1] && weights[1] < weights[2],
            "{weights:?}"
        );
        assert_eq!(weights[1], 2 * weights[0]);
    }

    #[test]
    fn the_reorder_buffer_never_runs_more_than_a_window_ahead() {
        let ordered = Ordered::new(0, 1000, 8, &|_| 1);
        // Without the consumer taking anything, 8 jobs can be claimed and a 9th would wait.
        let claimed: Vec<Option<usize>> = (0..8).map(|_| ordered.claim()).collect();
        assert_eq!(claimed, (0..8).map(Some).collect::<Vec<_>>());
        {
            let st = ordered.lock();
            assert!(
                st.next_admit >= st.next_take + ordered.window && st.unclaimed.is_empty(),
                "a 9th would run"
            );
        }
        // Out of order completion: the consumer still gets job 0 first.
        let p = plan();
        for i in (0..8).rev() {
            let o = simulate(&p, 0, 1, 1, Recording::default()).map(|mut o| {
                o.seed = i as u64;
                o
            });
            ordered.put(i, o);
        }
        for i in 0..8 {
            assert_eq!(ordered.next().unwrap().seed, i);
        }
        assert_eq!(ordered.claim(), Some(8));
    }

    #[test]
    fn streamed_rows_come_in_plan_order_identical_for_every_thread_count() {
        let p = plan();
        let mut runs = Vec::new();
        for threads in [1, 2, 3, 7] {
            let mut rows = Vec::new();
            let summaries = run_plan_streaming(&p, threads, &|_| {}, &mut |row| {
                rows.push(match row {
                    Row::Baseline(r) => format!("b {}", r.csv_line()),
                    Row::Sweep(r) => format!("s {}", r.csv_line()),
                });
                Ok::<(), RunError>(())
            })
            .unwrap();
            runs.push((rows, format!("{summaries:?}")));
        }
        assert!(runs.iter().all(|r| *r == runs[0]));
        // Plan order: per width, 40 baselines, then fanouts 3, 1, 2 over the seeds 1..40.
        let rows = &runs[0].0;
        assert_eq!(rows.len(), 2 * (40 + 3 * 40));
        let field = |r: &str, i: usize| r[2..].split(',').nth(i).unwrap().to_string();
        let (width, fanout, seed) = (4, 6, 8);
        let mut k = 0;
        for w in ["2", "3"] {
            for (kind, f) in [("b", "1"), ("s", "3"), ("s", "1"), ("s", "2")] {
                for s in 1..=40 {
                    let r = &rows[k];
                    assert!(r.starts_with(kind), "row {k}: {r}");
                    assert_eq!(
                        (field(r, width), field(r, fanout), field(r, seed)),
                        (w.to_string(), f.to_string(), s.to_string()),
                        "row {k}"
                    );
                    k += 1;
                }
            }
        }
    }

    #[test]
    fn a_failing_sink_stops_the_sweep_within_the_window() {
        // The runner does not run ahead of what has been written by more than its window: a
        // sink that fails at the first row stops the sweep long before its 240 runs are done.
        let p = plan();
        let started = AtomicUsize::new(0);
        let threads = 2;
        let err = run_plan_streaming(
            &p,
            threads,
            &|_| {
                started.fetch_add(1, SeqCst);
            },
            &mut |_| Err::<(), RunError>(RunError::Threads("sink full".into())),
        );
        assert!(matches!(err, Err(RunError::Threads(m)) if m == "sink full"));
        let ran = started.load(SeqCst);
        assert!(
            ran <= threads * WINDOW_PER_THREAD + threads,
            "{ran} runs done after the sink failed at the first row"
        );
        assert!(p.run_count() > threads * WINDOW_PER_THREAD + threads);
    }

    /// Progress counts every run once, and its work adds up to the sweep's estimate (the
    /// minimal trees of its runs, their fixed cost and the events of their messages).
    #[test]
    fn progress_is_weighted_by_each_runs_estimated_work() {
        let p = plan();
        let seen = std::sync::Mutex::new(Vec::new());
        run_plan_streaming(&p, 2, &|x| seen.lock().unwrap().push(x), &mut |_| {
            Ok::<(), RunError>(())
        })
        .unwrap();
        let seen = seen.into_inner().unwrap();
        let total = seen[0].total_runs;
        assert_eq!(seen.len(), total);
        assert_eq!(seen.iter().map(|x| x.runs).max(), Some(total));
        let last = seen.iter().map(|x| x.work).max().unwrap();
        assert_eq!(last, seen[0].total_work);
        assert!(seen.iter().all(|x| x.work <= x.total_work && x.work > 0));
        // check's estimate on one core, in leaves at its rate.
        let expected: f64 = p.estimated_seconds(1) * p.leaves_per_second_per_core();
        let per_run = crate::load::SECONDS_PER_RUN_PER_CORE * p.leaves_per_second_per_core();
        let leaves_only = p.minimal_leaves_total() + per_run * p.run_count() as f64;
        assert!(
            expected > leaves_only,
            "the events of pmws's messages are counted"
        );
        assert!(
            (last as f64 - expected).abs() <= total as f64,
            "{last} vs {expected}"
        );
    }
}
