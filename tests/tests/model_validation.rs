//! gtsim's simulator held against the analytical model of Marsland & Popowich (1985), section VII.
//!
//! Everything here runs on **perfectly ordered uniform trees** (`Ordering::Perfect`: the first
//! successor of every node holds its value, so alpha-beta visits exactly the minimal tree of
//! eq. (1)) with **constant costs**: every interior node costs `k`, every leaf `e`. That is the
//! cost structure under which eqs. (1)–(4) are not estimates but exact counts: every zero-window
//! subtree below a PV node costs exactly `B_{h-1}`, the uniprocessor time is exactly `T_d`, and
//! *pmws* on `f` processors with free communication is exactly eq. (4). The tests therefore
//! compare with `==`, never with a tolerance.
//!
//! 1. [`single_processor_leaves_are_n_d_and_leaf_time_is_e_d0`]: leaves `= N_d` (eq. 1),
//!    leaf time `= E_{d,0} = e N_d` (eqs. 6–8 with `g = 0`), interior nodes `= T_d` with
//!    `k = 1, e = 0`;
//! 2. [`single_processor_time_is_t_d`]: pmws with `f = 1` and the `Pvs` machine take exactly
//!    `T_d` (eq. 3);
//! 3. [`pmws_with_free_messages_is_eq4`]: pmws on `f` processors, ideal links, `s = interrupt = 0`,
//!    takes exactly `T_{d,f}` of eq. (4), with no search overhead;
//! 4. eq. (5): [`pmws_with_serial_links_follows_the_round_trip_recurrence`] (the recurrence that
//!    the protocol of Fig. 4 really follows, [`t_df_round_trip`]),
//!    [`eq5_is_exact_only_without_messages`] and [`eq5_differs_by_the_per_level_difference`]
//!    (where and by how much eq. (5) differs), [`eq5_when_the_master_also_searches`] (`w > f`);
//! 5. [`progressive_deepening_is_the_sum_of_the_iterations`]: with progressive deepening the time
//!    is `Σ_{i=1}^{d} T_{i,f}`.
//!
//! # Why eq. (5) is not what the protocol of Fig. 4 does
//!
//! Eq. (5) adds, at every PV node, `(w-1)(f-1)/f (s + t1)`, i.e. one setup and one transmission
//! for each subtree given to a child, spread evenly over the `f` processors, and `(f-1)(s + t2)`
//! for the interlevel messages. The protocol as simulated differs in four ways:
//!
//! - a subtree given to a child is a **round trip**: the master's setup `s`, `t1` down the line,
//!   the child's setup `s` for its answer, `t1` back, and the master's interrupt handler; the
//!   transmissions of different children are on different lines and overlap, but the master's
//!   setups are serial (the `j`-th child's work leaves `j s` after the first value is known) and
//!   so are its handlers;
//! - a perfectly ordered tree has no fail-high, so **no interlevel message is ever sent** (section
//!   VI: only a child that found a better line sends one); eq. (5) charges `f - 1` per PV node;
//! - eq. (5) has **no handler cost**;
//! - when `w > f` the master also searches subtrees itself (it "spawns itself as a child") and
//!   every child's answer interrupts that search for `interrupt + s`; the master's rounds and the
//!   children's rounds then have different lengths and drift apart, so the schedule is no longer
//!   `⌈(w-1)/f⌉` synchronous rounds of `B_{h-1}`.
//!
//! Exactly when every sibling at a PV node goes to its own child (`w ≤ f`) the schedule is simple
//! enough to write down; [`t_df_round_trip`] does so, with its conditions.

use algorithms::model::{self, Rational};
use algorithms::{pmws_roles, GameTree, Ordering, PmwsConfig, Pvs, SyntheticSpec, SyntheticTree};
use algorithms::{Value, INF};
use sim_core::{Category, MsgKind, RunStats, SimTime};
use sim_hw::{CostModel, LinkSpec, Machine, MachineConfig, ProcessorTree};

/// The widths of the checks: every small width, a power of two, and the paper's chess average.
const WIDTHS: [u32; 9] = [2, 3, 4, 5, 6, 7, 8, 16, 34];
const MAX_DEPTH: u32 = 7;

/// A perfectly ordered uniform tree. A small value spread makes ties between siblings frequent
/// (a right sibling may equal the best): they must not change the node counts.
fn perfect_tree(w: u32, d: u32, seed: u64) -> SyntheticTree {
    let spec = SyntheticSpec {
        width: w,
        depth: d,
        ordering: Ordering::Perfect,
        value_spread: 2,
        horizon_noise: 0,
    };
    SyntheticTree::new(spec, seed).expect("a valid spec")
}

fn costs(k: u64, e: u64, s: u64, interrupt: u64) -> CostModel {
    CostModel {
        k: SimTime(k),
        e: SimTime(e),
        s: SimTime(s),
        interrupt: SimTime(interrupt),
    }
}

/// What one pmws run produced.
struct Run {
    stats: RunStats,
    value: Option<Value>,
    iterations: Vec<Value>,
}

impl Run {
    fn makespan(&self) -> u64 {
        self.stats.makespan.as_nanos()
    }
}

fn run_pmws(
    tree: &SyntheticTree,
    f: u32,
    depth: u32,
    progressive: bool,
    costs: CostModel,
    link: LinkSpec,
) -> Run {
    let config = MachineConfig {
        tree: ProcessorTree::new(f, 1),
        costs,
        link,
        record_intervals: false,
        record_messages: false,
    };
    let roles = pmws_roles(tree, f as usize, PmwsConfig { depth, progressive });
    let (stats, roles) = Machine::new(config, roles).run();
    for (i, p) in stats.procs.iter().enumerate() {
        assert_eq!(
            p.times.total(),
            stats.makespan.as_nanos(),
            "processor {i}: times do not add up to the makespan"
        );
    }
    Run {
        value: roles[0].root_value(),
        iterations: roles[0].iteration_values().to_vec(),
        stats,
    }
}

fn seed(w: u32, d: u32) -> u64 {
    u64::from(100 * w + d)
}

// ---------------------------------------------------------------------------------------------
// 1. Eq. (1) and eqs. (6)–(8) with g = 0.

#[test]
fn single_processor_leaves_are_n_d_and_leaf_time_is_e_d0() {
    let c = costs(3_000_000, 25_000_000, 0, 0);
    let e = c.e.as_nanos();
    for w in WIDTHS {
        for d in 1..=MAX_DEPTH {
            let tree = perfect_tree(w, d, seed(w, d));
            let (wu, at) = (u64::from(w), format!("w = {w}, d = {d}"));
            let n = model::n_d(wu, d).unwrap();
            let run = run_pmws(&tree, 1, d, false, c, LinkSpec::ideal());
            let nodes = run.stats.total_nodes();
            assert_eq!(run.value, Some(tree.root().value), "{at}");
            // Eq. (1): the minimal tree's leaves.
            assert_eq!(nodes.leaves, n, "N_d, {at}");
            // Its interior nodes: T_d with k = 1, e = 0.
            assert_eq!(nodes.interior, model::t_d(wu, d, 1, 0).unwrap(), "{at}");
            // Eqs. (6)–(7) and the closed form (8) with g = 0: E_{d,0} = e N_d. The model's E
            // is an f64; these values are below 2^53, so the comparison is exact.
            let leaf_ns = nodes.leaf_ns;
            assert_eq!(leaf_ns, e * n, "{at}");
            assert_eq!(model::e_dg(wu, d, 0.0, e), Ok(leaf_ns as f64), "{at}");
            assert_eq!(
                model::e_dg_closed(wu, d, 0.0, e),
                Ok(leaf_ns as f64),
                "{at}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Eqs. (2)–(3): the uniprocessor time.

#[test]
fn single_processor_time_is_t_d() {
    // Milliseconds like the paper's machine, and a co-prime pair that no coincidence can fit.
    for (k, e) in [(3_000_000, 25_000_000), (7, 13)] {
        let c = costs(k, e, 0, 0);
        for w in WIDTHS {
            for d in 1..=MAX_DEPTH {
                let tree = perfect_tree(w, d, seed(w, d) + 1);
                let (wu, at) = (u64::from(w), format!("w = {w}, d = {d}, k = {k}, e = {e}"));
                let t = model::t_d_closed(wu, d, k, e).unwrap();
                assert_eq!(model::t_d(wu, d, k, e), Ok(t), "eq. (2) vs (3), {at}");
                // pmws with only the master and no progressive deepening.
                let run = run_pmws(&tree, 1, d, false, c, LinkSpec::ideal());
                assert_eq!(run.makespan(), t, "pmws f = 1, {at}");
                assert_eq!(run.stats.procs[0].times.get(Category::Search), t);
                // The sequential PVS machine of Fig. 1.
                let mut pvs = Pvs::new(tree.root(), -INF, INF, d);
                assert_eq!(pvs.run_to_end(&tree, &c), tree.root().value, "{at}");
                assert_eq!(pvs.work().time.as_nanos(), t, "Pvs, {at}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Eq. (4): f processors, free messages.

#[test]
fn pmws_with_free_messages_is_eq4() {
    let (k, e) = (3_000_000, 25_000_000);
    let c = costs(k, e, 0, 0);
    let mut configurations = 0;
    for w in WIDTHS {
        for d in 1..=MAX_DEPTH {
            let tree = perfect_tree(w, d, seed(w, d) + 2);
            let wu = u64::from(w);
            let t1 = model::t_d(wu, d, k, e).unwrap();
            for f in 1..=8u32 {
                let at = format!("w = {w}, d = {d}, f = {f}");
                let fu = u64::from(f);
                let run = run_pmws(&tree, f, d, false, c, LinkSpec::ideal());
                let t = model::t_df(wu, d, fu, k, e).unwrap();
                assert_eq!(run.value, Some(tree.root().value), "{at}");
                assert_eq!(run.makespan(), t, "eq. (4), {at}");
                // No search overhead (eq. 9 is 0): the processors share the minimal tree.
                let nodes = run.stats.total_nodes();
                assert_eq!(nodes.leaves, model::n_d(wu, d).unwrap(), "{at}");
                // All search time together is the uniprocessor's (the children do not walk the
                // first path: they wait), so the time overhead (11) is the model's (12).
                let search: u64 = run
                    .stats
                    .procs
                    .iter()
                    .map(|p| p.times.get(Category::Search))
                    .sum();
                assert_eq!(search, t1, "{at}");
                assert_eq!(
                    model::time_overhead(fu, run.makespan(), t1),
                    model::time_overhead_model(wu, d, fu, k, e),
                    "{at}"
                );
                configurations += 1;
            }
        }
    }
    assert_eq!(configurations, 504);
}

// ---------------------------------------------------------------------------------------------
// 4. Eq. (5): messages.

/// The time pmws (Fig. 4, as simulated) really takes on a perfectly ordered uniform tree when
/// every sibling at a PV node goes to its own child; `None` outside the conditions below.
///
/// **Conditions.** `2 ≤ w ≤ f` (the `w - 1` siblings of a PV node fit on the `f - 1` children, so
/// the master searches none itself); a perfectly ordered tree (no fail-high: no re-search and no
/// interlevel message); no progressive deepening; serial links whose 4-byte internode message
/// takes `t1` each way, setup `s`, interrupt handler `h` (`interrupt`); and
/// `e + 2 t1 + 2 s > (w - 1) s`: the first answer at the lowest PV node reaches the master after
/// it has finished sending (see below).
///
/// **Derivation.** At a PV node of height `h'` the master has the first successor's value at
/// `t0` and is then free (nothing else is queued). It sends `w - 1` work messages: each costs it
/// `s`, so child `j`'s (`j = 1 … w-1`) joins its own line at `t0 + j s` and arrives at
/// `t0 + j s + t1`. The child is idle, reads it at once, searches the CUT subtree for `B_{h'-1}`,
/// spends `s` on its answer, which takes `t1`: it reaches the master at
/// `a_j = t0 + (j + 1) s + 2 t1 + B_{h'-1}`. Each arrival runs the master's handler (`h`); a
/// handler that arrives while another is running waits for it, so the `j`-th handler ends at
/// `H_j = max(a_j, H_{j-1}) + h`, and the PV node is complete when the last one ends:
/// `H_{w-1} = max_j (a_j + (w - j) h)`, a maximum of terms linear in `j`, hence reached at
/// `j = 1` or `j = w - 1`:
///
/// `H_{w-1} = t0 + B_{h'-1} + 2 t1 + max(w s + h, 2 s + (w - 1) h)`
///
/// (handlers back to back when `h > s`; the last answer's own handler otherwise). The handler's
/// reaction to the last answer backs the value up and sends the parent's work messages, as part
/// of the interrupt service; later answers queue behind it. Going down, the master spends `k` per
/// PV node and `e` at the leaf. Hence
///
/// `T_{h',f} = k + T_{h'-1,f} + B_{h'-1} + 2 t1 + max(w s + h, 2 s + (w - 1) h)`, `T_{0,f} = e`.
///
/// **Why the last condition.** At the lowest PV node the work messages are sent from ordinary
/// (preemptible) code, not from a handler; if `a_1 ≤ t0 + (w - 1) s`, i.e.
/// `e + 2 t1 + 2 s ≤ (w - 1) s`, the first answer interrupts the remaining sends, delaying each
/// later child by `h`, and the recurrence no longer holds (at equality the order of two
/// simultaneous events decides). Higher PV nodes send from the handler, so later answers wait
/// anyway, and since `B_{h'-1} ≥ e` the condition holds there when it holds at the bottom.
fn t_df_round_trip(w: u64, d: u32, f: u64, c: &CostModel, t1: SimTime) -> Option<u64> {
    let (k, e, s, h, t1) = (
        c.k.as_nanos(),
        c.e.as_nanos(),
        c.s.as_nanos(),
        c.interrupt.as_nanos(),
        t1.as_nanos(),
    );
    if w < 2 || w > f || e + 2 * t1 + 2 * s <= (w - 1) * s {
        return None;
    }
    let per_node = 2 * t1 + (w * s + h).max(2 * s + (w - 1) * h);
    let mut t = e;
    for height in 1..=d {
        t = k + t + model::b_d(w, height - 1, k, e).ok()? + per_node;
    }
    Some(t)
}

/// The `(s, interrupt, rate)` triples of the eq. (5) checks: `h < s`, `h = s`, `h > s`, each
/// side zero, at the SCI's 960 bytes/s and at half of it. Odd nanoseconds keep coincidences out.
const COMM: [(u64, u64, u64); 8] = [
    (2_000_003, 500_001, 960),
    (2_000_003, 2_000_003, 960),
    (1_000_001, 3_000_007, 960),
    (2_500_001, 0, 960),
    (3_000_007, 1_000_001, 480),
    (1_500_007, 1_500_007, 480),
    (700_001, 2_900_003, 480),
    (0, 1_300_001, 480),
];
const K: u64 = 3_000_000;
const E: u64 = 25_000_000;

#[test]
fn pmws_with_serial_links_follows_the_round_trip_recurrence() {
    let mut runs = 0;
    for w in 2..=8u32 {
        for d in 1..=MAX_DEPTH {
            let tree = perfect_tree(w, d, seed(w, d) + 3);
            for f in w..=8 {
                for (s, h, rate) in COMM {
                    let c = costs(K, E, s, h);
                    let t1 = SimTime::transmit(4, rate);
                    let want = t_df_round_trip(u64::from(w), d, u64::from(f), &c, t1)
                        .expect("the grid satisfies the recurrence's conditions");
                    for rts_cts in [false, true] {
                        let at = format!("w {w} d {d} f {f} s {s} h {h} rate {rate} {rts_cts}");
                        let run = run_pmws(&tree, f, d, false, c, LinkSpec::serial(rate, rts_cts));
                        assert_eq!(run.value, Some(tree.root().value), "{at}");
                        assert_eq!(run.makespan(), want, "{at}");
                        // One work message and one answer per sibling of each PV node, and no
                        // interlevel message at all.
                        let m = &run.stats.messages;
                        let siblings = u64::from(d) * u64::from(w - 1);
                        assert_eq!(m.count(MsgKind::InterNode), 2 * siblings, "{at}");
                        assert_eq!(m.count(MsgKind::InterLevel), 0, "{at}");
                        assert_eq!(m.bytes_total(), 8 * siblings, "{at}");
                        runs += 1;
                    }
                }
            }
        }
    }
    assert_eq!(runs, 28 * 7 * COMM.len() * 2);
}

/// The recurrence needs its last condition: with a setup so slow that the first answer at the
/// lowest PV node comes back while the master is still sending, the simulation takes longer.
#[test]
fn the_round_trip_recurrence_fails_when_answers_interrupt_the_first_sends() {
    let (w, f, d, rate) = (8u32, 8u32, 3u32, 960);
    let t1 = SimTime::transmit(4, rate);
    // e + 2 t1 + 2 s = 25 + 8.33 + 20 ms < 7 s = 70 ms.
    let c = costs(K, E, 10_000_000, 1_000_000);
    assert_eq!(t_df_round_trip(8, d, 8, &c, t1), None);
    let per_node = 2 * t1.as_nanos() + (8 * c.s.as_nanos() + c.interrupt.as_nanos());
    let formula: u64 = (1..=d)
        .map(|i| K + model::b_d(8, i - 1, K, E).unwrap() + per_node)
        .sum::<u64>()
        + E;
    let run = run_pmws(
        &perfect_tree(w, d, 5),
        f,
        d,
        false,
        c,
        LinkSpec::serial(rate, false),
    );
    assert!(run.makespan() > formula, "{} vs {formula}", run.makespan());
}

/// Eq. (5) times `f`, an integer (its only fraction is `/f`).
fn eq5_times_f(r: Rational, f: u64) -> i128 {
    assert_eq!(f % r.denom(), 0);
    i128::from(r.numer()) * i128::from(f / r.denom())
}

#[allow(clippy::too_many_arguments)]
fn eq5(w: u64, d: u32, f: u64, c: &CostModel, t1: u64, t2: u64) -> Rational {
    model::t_df_comm(
        w,
        d,
        f,
        c.k.as_nanos(),
        c.e.as_nanos(),
        c.s.as_nanos(),
        t1,
        t2,
    )
    .unwrap()
}

#[test]
fn eq5_is_exact_only_without_messages() {
    for w in 2..=8u32 {
        for d in 1..=MAX_DEPTH {
            let tree = perfect_tree(w, d, seed(w, d) + 4);
            let wu = u64::from(w);
            // f = 1: no message is sent, whatever messages would cost, and eq. (5) charges none.
            for (s, h, rate) in COMM {
                let c = costs(K, E, s, h);
                let t1 = SimTime::transmit(4, rate).as_nanos();
                let t2 = SimTime::transmit(2 * u64::from(d), rate).as_nanos();
                let run = run_pmws(&tree, 1, d, false, c, LinkSpec::serial(rate, true));
                assert_eq!(
                    eq5(wu, d, 1, &c, t1, t2),
                    Rational::from(run.makespan()),
                    "f = 1, w {w} d {d}"
                );
            }
            // s = h = 0 on ideal links (t1 = t2 = 0): eq. (5) is eq. (4), which pmws follows for
            // every w and f, the master searching siblings too.
            for f in 1..=8 {
                let c = costs(K, E, 0, 0);
                let run = run_pmws(&tree, f, d, false, c, LinkSpec::ideal());
                assert_eq!(
                    eq5(wu, d, u64::from(f), &c, 0, 0),
                    Rational::from(run.makespan()),
                    "ideal, w {w} d {d} f {f}"
                );
            }
        }
    }
}

/// `f` times the per-PV-node difference simulation − eq. (5) when `w ≤ f`:
/// `f [2 t1 + max(w s + h, 2 s + (w-1) h)] - (w-1)(f-1)(s + t1) - f (f-1)(s + t2)`.
fn per_level_difference_times_f(w: u64, f: u64, s: u64, h: u64, t1: u64, t2: u64) -> i128 {
    let (w, f, s, h, t1, t2) = (
        i128::from(w),
        i128::from(f),
        i128::from(s),
        i128::from(h),
        i128::from(t1),
        i128::from(t2),
    );
    f * (2 * t1 + (w * s + h).max(2 * s + (w - 1) * h))
        - (w - 1) * (f - 1) * (s + t1)
        - f * (f - 1) * (s + t2)
}

#[test]
fn eq5_differs_by_the_per_level_difference() {
    let (mut low, mut high) = (i128::MAX, i128::MIN);
    for w in 2..=8u32 {
        for d in 1..=MAX_DEPTH {
            let tree = perfect_tree(w, d, seed(w, d) + 5);
            let wu = u64::from(w);
            for f in w..=8 {
                let fu = u64::from(f);
                for (s, h, rate) in COMM {
                    let c = costs(K, E, s, h);
                    let t1 = SimTime::transmit(4, rate).as_nanos();
                    let run = run_pmws(&tree, f, d, false, c, LinkSpec::serial(rate, false));
                    let sim = i128::from(run.makespan()) * i128::from(fu);
                    // t2 as the longest interlevel line (2 bytes per ply, d plies), and as zero.
                    for t2 in [SimTime::transmit(2 * u64::from(d), rate).as_nanos(), 0] {
                        let model5 = eq5_times_f(eq5(wu, d, fu, &c, t1, t2), fu);
                        let diff = per_level_difference_times_f(wu, fu, s, h, t1, t2);
                        let at = format!("w {w} d {d} f {f} s {s} h {h} rate {rate} t2 {t2}");
                        assert_eq!(sim - model5, i128::from(d) * diff, "{at}");
                        assert_ne!(diff, 0, "{at}");
                        if t2 != 0 {
                            low = low.min(diff / i128::from(fu));
                            high = high.max(diff / i128::from(fu));
                        }
                    }
                }
            }
        }
    }
    println!("per-level simulation - eq. (5): {low} ns .. {high} ns");
}

#[test]
fn eq5_when_the_master_also_searches() {
    for w in [3u32, 4, 5, 8, 16] {
        for d in 1..=5 {
            let tree = perfect_tree(w, d, seed(w, d) + 6);
            let wu = u64::from(w);
            for f in 2..w {
                let fu = u64::from(f);
                for (s, h, rate) in COMM {
                    let c = costs(K, E, s, h);
                    let t1 = SimTime::transmit(4, rate).as_nanos();
                    let t2 = SimTime::transmit(2 * u64::from(d), rate).as_nanos();
                    let run = run_pmws(&tree, f, d, false, c, LinkSpec::serial(rate, false));
                    let t4 = model::t_df(wu, d, fu, K, E).unwrap();
                    let t5 = eq5(wu, d, fu, &c, t1, t2);
                    println!(
                        "w {w} d {d} f {f} s {s} h {h} rate {rate}: sim - (4) = {}, sim - (5) = {:.0}",
                        run.makespan() as i128 - t4 as i128,
                        run.makespan() as f64 - t5.to_f64()
                    );
                    assert!(run.makespan() >= t4);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Progressive deepening.

#[test]
fn progressive_deepening_is_the_sum_of_the_iterations() {
    let (k, e) = (3_000_000, 25_000_000);
    let c = costs(k, e, 0, 0);
    let mut root_ties = 0;
    for w in WIDTHS {
        for d in 1..=MAX_DEPTH {
            let tree = perfect_tree(w, d, seed(w, d) + 7);
            let wu = u64::from(w);
            let root = tree.root();
            root_ties += (1..w as usize)
                .filter(|&i| -tree.child(&root, i).value == root.value)
                .count();
            for f in 1..=8u32 {
                let fu = u64::from(f);
                let at = format!("w = {w}, d = {d}, f = {f}");
                let run = run_pmws(&tree, f, d, true, c, LinkSpec::ideal());
                let want: u64 = (1..=d).map(|i| model::t_df(wu, i, fu, k, e).unwrap()).sum();
                assert_eq!(run.makespan(), want, "{at}");
                assert_eq!(run.iterations, vec![root.value; d as usize], "{at}");
            }
        }
    }
    println!("{root_ties}");
    assert!(root_ties > 0);
}
