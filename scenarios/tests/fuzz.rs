//! Loader fuzz test: seeded random mutations of every shipped scenario go through the check
//! (`scenarios::parse`, what `gtsim check` runs) and, when accepted, through a tiny-budget run.
//!
//! Mutations: byte flips, deletions, duplicated lines, numbers replaced by extremes (-1, 0,
//! 2^64 - 1, 2^64, 1e308, NaN, inf, subnormals, ...), a leading byte-order mark. For an accepted
//! mutant the tree generator is built for every configuration (what `run` does first), and one
//! run (the first configuration, the smallest fanout, the first seed) is simulated when its
//! minimal-tree work is at most `RUN_BUDGET` leaves (and, for chess, the search is at most 3
//! ply); otherwise it is skipped and counted.
//!
//! The assertions: zero panics (each caught with `catch_unwind` and listed with its category),
//! and every rejection names a position: `FILE:LINE:COLUMN: ...`.
//!
//! The default is 5,000 mutants (a few seconds). A longer run:
//!
//! ```sh
//! GTSIM_FUZZ_MUTANTS=200000 cargo test --release -p scenarios --test fuzz -- --nocapture
//! ```
//!
//! `GTSIM_FUZZ_SEED` changes the seed of the mutation stream (default 1).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Most minimal-tree leaves of a simulated run.
const RUN_BUDGET: f64 = 50_000.0;

/// SplitMix64: a small, seeded, reproducible stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const EXTREMES: [&str; 17] = [
    "3600000000",
    "-1",
    "0",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "-inf",
    "5e-324",
    "1e-310",
    "2.5",
    "-0.0",
    "100000",
    "340282366920938463463374607431768211456",
];

/// Byte ranges of the numbers in `text` (digits, with a sign, point or exponent).
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let word_before = i > 0 && (text[i - 1].is_ascii_alphanumeric() || text[i - 1] == b'_');
        if text[i].is_ascii_digit() && !word_before {
            let start = if i > 0 && text[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut j = i;
            while j < text.len() && (text[j].is_ascii_alphanumeric() || text[j] == b'.') {
                j += 1;
            }
            out.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn mutate(rng: &mut Rng, original: &[u8]) -> Vec<u8> {
    let mut t = original.to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(10) {
            // byte flip
            0 | 1 => {
                if !t.is_empty() {
                    let i = rng.below(t.len());
                    t[i] ^= 1 << rng.below(8);
                }
            }
            // deletion of 1..16 bytes
            2 => {
                if !t.is_empty() {
                    let i = rng.below(t.len());
                    let n = (1 + rng.below(16)).min(t.len() - i);
                    t.drain(i..i + n);
                }
            }
            // a line duplicated
            3 => {
                let lines: Vec<usize> = std::iter::once(0)
                    .chain(
                        t.iter()
                            .enumerate()
                            .filter(|(_, &b)| b == b'\n')
                            .map(|(i, _)| i + 1),
                    )
                    .filter(|&i| i < t.len())
                    .collect();
                if !lines.is_empty() {
                    let s = lines[rng.below(lines.len())];
                    let e = t[s..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(t.len(), |p| s + p + 1);
                    let line = t[s..e].to_vec();
                    t.splice(s..s, line);
                }
            }
            // a number replaced by an extreme
            4..=8 => {
                let nums = numbers(&t);
                if !nums.is_empty() {
                    let (s, e) = nums[rng.below(nums.len())];
                    let x = EXTREMES[rng.below(EXTREMES.len())];
                    t.splice(s..e, x.bytes());
                }
            }
            // a byte-order mark in front
            _ => {
                t.splice(0..0, [0xEF, 0xBB, 0xBF]);
            }
        }
    }
    t
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// Simulated time past u64 nanoseconds is fixed in the machine, not here;
/// such panics are named apart so a report says which kind is left.
fn category(message: &str) -> &'static str {
    if message.contains("scheduled in the past")
        || message.contains("overflow")
        || message.contains("SimTime")
    {
        "simulated-time overflow"
    } else {
        "other"
    }
}

/// Whether `e` starts with `FILE:LINE:COL: `.
fn names_a_position(e: &str, file: &str) -> bool {
    let Some(rest) = e.strip_prefix(file).and_then(|r| r.strip_prefix(':')) else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let line = parts.next().unwrap_or("");
    let col = parts.next().unwrap_or("");
    !line.is_empty()
        && !col.is_empty()
        && line.bytes().all(|b| b.is_ascii_digit())
        && col.bytes().all(|b| b.is_ascii_digit())
        && parts
            .next()
            .is_some_and(|m| m.starts_with(' ') && m.len() > 1)
}

#[test]
fn mutated_shipped_scenarios_never_panic_and_every_rejection_names_a_position() {
    let mutants: usize = std::env::var("GTSIM_FUZZ_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000);
    let seed: u64 = std::env::var("GTSIM_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut shipped: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    shipped.sort();
    assert!(shipped.len() >= 2, "the shipped scenarios are found");
    let originals: Vec<Vec<u8>> = shipped.iter().map(|p| std::fs::read(p).unwrap()).collect();

    // Panics are caught and counted; the default hook would print every one.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed);
    let (mut accepted, mut rejected, mut ran, mut skipped) = (0usize, 0usize, 0usize, 0usize);
    let mut unrepresentable = 0usize;
    let mut panics: Vec<String> = Vec::new();
    let mut unplaced: Vec<String> = Vec::new();
    for m in 0..mutants {
        let which = m % shipped.len();
        // Mutants keep the shipped file's path, so relative references still resolve.
        let path = &shipped[which];
        let file = path.display().to_string();
        let bytes = mutate(&mut rng, &originals[which]);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let text = match scenarios::load::decode_text(&bytes) {
                Ok(t) => t,
                Err((line, col, message)) => return Err(format!("{file}:{line}:{col}: {message}")),
            };
            scenarios::parse(text, path).map_err(|e| e.to_string())
        }));
        let plan = match outcome {
            Err(p) => {
                let msg = panic_message(&*p);
                panics.push(format!(
                    "mutant {m} of {file}: check panicked ({}): {msg}",
                    category(&msg)
                ));
                continue;
            }
            Ok(Err(e)) => {
                rejected += 1;
                if !names_a_position(&e, &file) {
                    unplaced.push(format!("mutant {m}: {e}"));
                }
                continue;
            }
            Ok(Ok(plan)) => plan,
        };
        accepted += 1;
        let run = catch_unwind(AssertUnwindSafe(|| -> Result<bool, String> {
            // Chess plans: the positions were read by the check; a run of a real chess search
            // at the shipped depths (5, 6) takes seconds, too long for thousands of mutants.
            if plan.chess.is_some() && plan.configs.iter().any(|c| c.depth > 3) {
                return Ok(false);
            }
            // What `run` does before simulating: the generator of every configuration.
            for spec in plan.configs.iter().filter(|_| plan.chess.is_none()) {
                algorithms::SyntheticTree::new(spec.clone(), plan.seeds[0]).map_err(|e| {
                    format!("check accepted a configuration the generator rejects: {e}")
                })?;
            }
            if plan.run_work(0, 0) > RUN_BUDGET {
                return Ok(false);
            }
            // The first processor tree of the sweep (a fanout, or a Campbell tree), first
            // algorithm, first seed.
            let key = scenarios::runner::RunKey {
                config: 0,
                algorithm: 0,
                ptree: plan.ptrees[0],
                seed: plan.seeds[0],
            };
            scenarios::runner::simulate_run(&plan, key, scenarios::Recording::default())
                .map_err(|e| e.to_string())?;
            Ok(true)
        }));
        match run {
            Ok(Ok(true)) => ran += 1,
            Ok(Ok(false)) => skipped += 1,
            // Costs the schema accepts can still push a run past u64 nanoseconds: that run is
            // an error naming the run and the fields to change, not a panic.
            Ok(Err(e)) if e.contains("would pass") && e.contains("hardware.costs") => {
                unrepresentable += 1
            }
            Ok(Err(e)) => panics.push(format!(
                "mutant {m} of {file}: run failed after check accepted: {e}"
            )),
            Err(p) => {
                let msg = panic_message(&*p);
                panics.push(format!(
                    "mutant {m} of {file}: run panicked ({}): {msg}",
                    category(&msg)
                ));
            }
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "{mutants} mutants (seed {seed}): {rejected} rejected, {accepted} accepted; of these {ran} simulated, {unrepresentable} ended with a time-overflow error, {skipped} skipped (over {RUN_BUDGET} leaves); {} failures",
        panics.len()
    );
    assert!(
        panics.is_empty(),
        "{} failures:\n{}",
        panics.len(),
        panics.join("\n")
    );
    assert!(
        unplaced.is_empty(),
        "{} rejections name no FILE:LINE:COL:\n{}",
        unplaced.len(),
        unplaced.join("\n")
    );
    assert!(
        rejected > 0 && accepted > 0,
        "the mutations both break and keep scenarios"
    );
}
