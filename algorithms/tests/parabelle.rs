//! Parabelle (pmws + refutation table + transposition tables) returns the negamax value on
//! synthetic trees with every table kind (they have no transpositions, so a table can only
//! reorder moves and reuse a node's own earlier result), accounts all its time, and gives the
//! same results batched and step by step, on processor trees' own lines and on every network
//! kind a tree can be laid over.

mod common;

use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::{Category, MsgKind, SimTime};
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};

fn random_spec(rng: &mut impl Rng) -> SyntheticSpec {
    let ordering = match rng.random_range(0..3) {
        0 => Ordering::Random,
        1 => Ordering::FirstBest { p: 0.6 },
        _ => Ordering::Geometric { p: 0.5 },
    };
    SyntheticSpec {
        width: rng.random_range(1..=7),
        depth: rng.random_range(1..=5),
        ordering,
        value_spread: rng.random_range(1..=50),
        horizon_noise: rng.random_range(0..=20),
    }
}

const TABLES: [(TableKind, Storage); 9] = [
    (TableKind::None, Storage::All),
    (TableKind::Global, Storage::All),
    (TableKind::Global, Storage::Partial),
    (TableKind::Global, Storage::PartialFrom2),
    (TableKind::Global, Storage::AllNodes),
    (TableKind::Local, Storage::All),
    (TableKind::Local, Storage::Partial),
    (TableKind::Local, Storage::PartialFrom2),
    (TableKind::Local, Storage::AllNodes),
];

fn config(
    depth: u32,
    progressive: bool,
    kind: TableKind,
    storage: Storage,
    entries: u32,
) -> ParabelleConfig {
    ParabelleConfig {
        depth,
        progressive,
        table: TableConfig {
            kind,
            storage,
            entries,
        },
    }
}

fn costs(rng: &mut impl Rng) -> CostModel {
    CostModel {
        k: SimTime(rng.random_range(0..2000)),
        e: SimTime(rng.random_range(1..5000)),
        q: SimTime::ZERO,
        probe: SimTime(rng.random_range(0..500)),
        s: SimTime(rng.random_range(0..3000)),
        interrupt: SimTime(rng.random_range(0..3000)),
    }
}

fn run(
    tree: &SyntheticTree,
    f: u32,
    cfg: ParabelleConfig,
    costs: CostModel,
    link: LinkSpec,
    batching: bool,
) -> SchemeRun<Parabelle<'_, SyntheticTree>> {
    let mut machine = MachineConfig::new(ProcessorTree::new(f, 1), costs, link);
    machine.batching = batching;
    machine.record_intervals = true;
    run_scheme(&ParabelleScheme(cfg), tree, machine).expect("the run ends")
}

fn assert_accounted(stats: &sim_core::RunStats) {
    for (i, p) in stats.procs.iter().enumerate() {
        assert_eq!(p.times.total(), stats.makespan.as_nanos(), "processor {i}");
    }
}

#[test]
fn every_table_kind_returns_the_negamax_value_on_random_trees_for_f_1_to_5() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(11);
    for n in 0..400u64 {
        let spec = random_spec(&mut rng);
        let tree = SyntheticTree::new(spec.clone(), 500 + n).unwrap();
        let expected = negamax(&tree, &tree.root(), spec.depth);
        let f = (n % 5) as u32 + 1;
        let (kind, storage) = TABLES[(n % TABLES.len() as u64) as usize];
        // Tiny tables make replacements frequent.
        let entries = [8192, 16, 3][(n % 3) as usize];
        let cfg = config(spec.depth, n % 4 != 0, kind, storage, entries);
        let link = LinkSpec::serial(rng.random_range(100..100_000), n % 2 == 1);
        let costs = costs(&mut rng);
        let r = run(&tree, f, cfg, costs, link, true);
        assert_eq!(
            r.root_value,
            Some(expected),
            "{spec:?} seed {} f={f} {cfg:?}",
            500 + n
        );
        assert_accounted(&r.stats);
        // The move chosen is a best move: its own value is the root value.
        let root = tree.root();
        let moves = tree.moves(&root);
        if let Some(m) = ParabelleScheme(cfg).root_move(&r.roles) {
            let child = tree.play(&root, moves.get(m));
            assert_eq!(
                -negamax(&tree, &child, spec.depth - 1),
                expected,
                "{spec:?} move {m}"
            );
        }
    }
}

#[test]
fn without_a_table_one_processor_matches_pmws_values_and_the_table_kinds_differ_as_designed() {
    let spec = SyntheticSpec {
        width: 8,
        depth: 5,
        ordering: Ordering::FirstBest { p: 0.6 },
        value_spread: 100,
        horizon_noise: 10,
    };
    let costs = CostModel {
        k: SimTime(100),
        e: SimTime(1000),
        q: SimTime::ZERO,
        probe: SimTime(10),
        s: SimTime(200),
        interrupt: SimTime(100),
    };
    let link = LinkSpec::serial(960, true);
    let mut global_at_node = 0;
    for seed in 0..10 {
        let tree = SyntheticTree::new(spec.clone(), seed).unwrap();
        // On one processor, the storages probe from 1, 2 and 3 ply from the horizon: each
        // probes more than the next.
        let probes_of = |storage| {
            let cfg = config(5, true, TableKind::Local, storage, 8192);
            run(&tree, 1, cfg, costs, link, true)
                .stats
                .total_nodes()
                .probes
        };
        let (nodes, all, from2, partial) = (
            probes_of(Storage::AllNodes),
            probes_of(Storage::All),
            probes_of(Storage::PartialFrom2),
            probes_of(Storage::Partial),
        );
        assert!(
            nodes > all && all > from2 && from2 > partial && partial > 0,
            "{nodes} {all} {from2} {partial}"
        );
        // AllNodes probes every horizon node before it is evaluated (or answered by the table)
        // and stores it after: at least two probe steps a leaf evaluated. Interior nodes alone
        // (All) make fewer on these trees of width 8.
        for (storage, f) in [
            (Storage::AllNodes, 1),
            (Storage::All, 1),
            (Storage::AllNodes, 3),
        ] {
            let r = run(
                &tree,
                f,
                config(5, true, TableKind::Local, storage, 8192),
                costs,
                link,
                true,
            );
            let n = r.stats.total_nodes();
            assert_eq!(
                n.probes >= 2 * n.leaves,
                storage == Storage::AllNodes,
                "{storage:?} f={f}: {} probes, {} leaves",
                n.probes,
                n.leaves
            );
        }
        // With the global table, a child asks the master before each horizon node it evaluates
        // and tells it the value after: a 6-byte probe and its 6-byte answer, then a 12-byte
        // update. So the updates (bytes less 6 a message, over 6) are at least the children's
        // leaves; interior nodes alone (All) send fewer.
        for storage in [Storage::AllNodes, Storage::All] {
            let r = run(
                &tree,
                3,
                config(5, true, TableKind::Global, storage, 8192),
                costs,
                link,
                true,
            );
            let m = &r.stats.messages;
            let k = MsgKind::AtNode.index();
            let updates = (m.bytes[k] - 6 * m.count[k]) / 6;
            let child_leaves: u64 = r.stats.procs[1..].iter().map(|p| p.nodes.leaves).sum();
            assert!(child_leaves > 0);
            assert_eq!(
                updates >= child_leaves,
                storage == Storage::AllNodes,
                "{storage:?}: {updates} updates, {child_leaves} leaves on the children"
            );
        }
        for (kind, storage) in TABLES {
            for f in [1, 3] {
                let r = run(
                    &tree,
                    f,
                    config(5, true, kind, storage, 8192),
                    costs,
                    link,
                    true,
                );
                let at_node = r.stats.messages.count[MsgKind::AtNode.index()];
                let wait = r.stats.total_times().get(Category::WaitReply);
                let probes = r.stats.total_nodes().probes;
                match (kind, f) {
                    // Only a global table on several processors sends at-node messages, and
                    // only its children wait for replies.
                    (TableKind::Global, 3) => {
                        assert!(at_node > 0 && wait > 0, "global f=3: {at_node} {wait}");
                        global_at_node += at_node;
                    }
                    _ => assert_eq!((at_node, wait), (0, 0), "{kind:?} f={f}"),
                }
                // Probes on a processor's own table cost `probe`, and only with a table.
                assert_eq!(probes == 0, kind == TableKind::None, "{kind:?} f={f}");
            }
        }
    }
    assert!(global_at_node > 0);
}

#[test]
fn batched_and_step_by_step_runs_differ_only_in_events() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(3);
    for n in 0..60u64 {
        let spec = random_spec(&mut rng);
        let tree = SyntheticTree::new(spec.clone(), 900 + n).unwrap();
        let f = (n % 4) as u32 + 2;
        let (kind, storage) = TABLES[(n % TABLES.len() as u64) as usize];
        let cfg = config(spec.depth, true, kind, storage, 64);
        let link = LinkSpec::serial(rng.random_range(500..50_000), n % 2 == 0);
        let costs = costs(&mut rng);
        let a = run(&tree, f, cfg, costs, link, true);
        let b = run(&tree, f, cfg, costs, link, false);
        assert_eq!(a.root_value, b.root_value);
        assert_eq!(a.stats.makespan, b.stats.makespan, "{spec:?} {cfg:?} f={f}");
        for (p, q) in a.stats.procs.iter().zip(&b.stats.procs) {
            assert_eq!(p.times, q.times);
            assert_eq!(p.nodes, q.nodes);
        }
        assert_eq!(a.stats.messages, b.stats.messages);
    }
}

/// The refutation table keeps the principal variation (section III: "for the selected move
/// this table contains the best variation"): after an iteration, the best root move's line
/// reaches the horizon. On a tree where every node's first move is best (perfect ordering)
/// and one processor, the principal variation is the path of first moves, and its horizon
/// node has the root's value (negamax), which the line must reach. (The root's lines were
/// built after the best move's line had been moved out, so its entry was empty and the next
/// iteration's first path took each node's first move in tree order instead of the line.)
#[test]
fn the_best_root_moves_refutation_line_is_the_principal_variation() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(5);
    for n in 0..200u64 {
        let mut spec = random_spec(&mut rng);
        spec.depth = spec.depth.max(2);
        spec.width = spec.width.max(2);
        let perfect = n % 2 == 0;
        if perfect {
            spec.ordering = Ordering::Perfect;
        }
        let tree = SyntheticTree::new(spec.clone(), 7000 + n).unwrap();
        let f = if perfect { 1 } else { (n % 4) as u32 + 1 };
        let (kind, storage) = TABLES[(n % TABLES.len() as u64) as usize];
        let cfg = config(spec.depth, true, kind, storage, 8192);
        let link = LinkSpec::serial(rng.random_range(500..50_000), n % 2 == 0);
        let costs = costs(&mut rng);
        let r = run(&tree, f, cfg, costs, link, true);
        let m = ParabelleScheme(cfg)
            .root_move(&r.roles)
            .expect("a root move");
        let line = r.roles[0].refutation_line(m);
        // Every node above the horizon of a synthetic tree has moves: without a table the line
        // goes down to it (a table's cutoff ends a line at the entry's best move).
        let reaches = line.len() as u32 == spec.depth - 1;
        assert!(
            reaches || (kind != TableKind::None && !line.is_empty()),
            "{spec:?} seed {} f={f} {cfg:?}: line {line:?}",
            7000 + n
        );
        let root = tree.root();
        let mut node = tree.play(&root, tree.moves(&root).get(m));
        for &i in &line {
            let moves = tree.moves(&node);
            assert!((i as usize) < moves.len(), "{spec:?}: line {line:?}");
            node = tree.play(&node, moves.get(i as usize));
        }
        if perfect && kind == TableKind::None {
            let sign = if spec.depth % 2 == 0 { 1 } else { -1 };
            assert_eq!(
                Some(sign * tree.evaluate(&node).value),
                r.root_value,
                "{spec:?} seed {}: line {line:?}",
                7000 + n
            );
        }
    }
}

fn random_parabelle(
    tree: &SyntheticTree,
    rng: &mut algorithms::rng::SplitMix64,
) -> ParabelleScheme {
    let (kind, storage) = TABLES[rng.random_range(0..TABLES.len())];
    // Tiny tables make replacements frequent.
    let entries = [8192, 16, 3][rng.random_range(0..3)];
    ParabelleScheme(config(
        tree.spec().depth,
        rng.random_bool(0.7),
        kind,
        storage,
        entries,
    ))
}

#[test]
fn parabelle_returns_negamax_on_1000_trees_every_processor_count_and_network() {
    let runs =
        common::returns_negamax_everywhere(23, 1000, random_parabelle, |tree, run, value| {
            let scheme = ParabelleScheme(ParabelleConfig {
                depth: tree.spec().depth,
                progressive: false,
                table: TableConfig::default(),
            });
            // The move chosen is a best move: its own value is the root value.
            if let Some(m) = scheme.root_move(&run.roles) {
                let root = tree.root();
                let child = tree.play(&root, tree.moves(&root).get(m));
                assert_eq!(-negamax(tree, &child, tree.spec().depth - 1), value);
            }
        });
    assert_eq!(runs, 5000);
}

#[test]
fn parabelle_batched_runs_equal_step_by_step_runs_on_every_network() {
    common::batching_changes_nothing_but_events(24, 400, random_parabelle);
}

/// The global table makes children's probes and stores cross messages posted and relayed at
/// the same instant (zero-cost interior steps, routers on a hypercube or mesh): batched runs
/// must take those steps in the order a step-by-step run does. (sim-hw ran a batch's zero-time
/// steps at once, so a child's probe could join a line before a message relayed at the same
/// instant, where step by step it joined after it: different makespans.)
#[test]
fn global_table_batched_runs_equal_step_by_step_runs_on_routed_networks() {
    let mut rng = algorithms::rng::SplitMix64::seed_from_u64(25);
    for n in 0..600u64 {
        let tree = common::random_tree(&mut rng, n);
        let storage = [
            Storage::All,
            Storage::Partial,
            Storage::PartialFrom2,
            Storage::AllNodes,
        ][rng.random_range(0..4)];
        let cfg = config(
            tree.spec().depth,
            rng.random_bool(0.7),
            TableKind::Global,
            storage,
            16,
        );
        let p = [2, 4, 8][rng.random_range(0..3)];
        let ptree = common::star(&mut rng, p);
        let network = common::networks(&mut rng, p as usize)
            .into_iter()
            .find(|n| n.routing().is_some())
            .unwrap();
        let mut on = common::machine_on(
            &mut rng,
            sim_hw::Platform::Overlay {
                tree: ptree,
                network,
            },
        );
        on.record_messages = true;
        let mut off = on.clone();
        off.batching = false;
        let scheme = ParabelleScheme(cfg);
        let a = run_scheme(&scheme, &tree, on).unwrap();
        let b = run_scheme(&scheme, &tree, off).unwrap();
        let at = format!("tree {n}, {cfg:?} on {p} over {network:?}");
        assert_eq!(a.stats.makespan, b.stats.makespan, "{at}");
        for (x, y) in a.stats.procs.iter().zip(&b.stats.procs) {
            assert_eq!(x.times, y.times, "{at}");
        }
        assert_eq!(a.stats.message_log, b.stats.message_log, "{at}");
    }
}
