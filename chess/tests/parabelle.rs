//! Parabelle on real chess: without a transposition table every processor count returns the
//! score of a plain recursive search outside the simulator, and the uniprocessor's move is one
//! of that search's best moves.

use algorithms::*;
use chess::{bratko_kopec, ChessTree};
use sim_core::SimTime;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};

fn costs() -> CostModel {
    CostModel {
        k: SimTime(1_000_000),
        e: SimTime(500_000),
        q: SimTime(500_000),
        probe: SimTime(50_000),
        s: SimTime(2_000_000),
        interrupt: SimTime(1_000_000),
    }
}

fn run(
    tree: &ChessTree,
    f: u32,
    depth: u32,
    kind: TableKind,
    storage: Storage,
) -> (Option<Value>, Option<usize>) {
    let cfg = ParabelleConfig {
        depth,
        progressive: true,
        table: TableConfig {
            kind,
            storage,
            entries: 8192,
        },
    };
    let machine = MachineConfig::new(
        ProcessorTree::new(f, 1),
        costs(),
        LinkSpec::serial(960, true),
    );
    let r = run_scheme(&ParabelleScheme(cfg), tree, machine).expect("the run ends");
    let mv = ParabelleScheme(cfg).root_move(&r.roles);
    (r.root_value, mv)
}

/// The value of every root move by plain recursive alpha-beta (no simulator): the root's score
/// and the moves that reach it.
fn plain_root(tree: &ChessTree, depth: u32) -> (Value, Vec<usize>) {
    let root = tree.root();
    let moves = tree.moves(&root);
    let mut values = Vec::new();
    for i in 0..moves.len() {
        let mut leaves = 0;
        let c = tree.play(&root, moves.get(i));
        values.push(-alphabeta_recursive(
            tree,
            &c,
            -INF,
            INF,
            depth - 1,
            &mut leaves,
        ));
    }
    let best = *values.iter().max().expect("moves");
    let best_moves = (0..values.len()).filter(|&i| values[i] == best).collect();
    (best, best_moves)
}

#[test]
fn without_a_table_every_processor_count_returns_the_plain_search_score() {
    for (id, tree, _) in bratko_kopec().iter().step_by(4) {
        let mut leaves = 0;
        let expected = alphabeta_recursive(tree, &tree.root(), -INF, INF, 3, &mut leaves);
        for f in 1..=4 {
            let (v, _) = run(tree, f, 3, TableKind::None, Storage::All);
            assert_eq!(v, Some(expected), "{id} f={f}");
        }
    }
}

#[test]
fn the_uniprocessor_score_and_move_do_not_depend_on_the_simulator() {
    for (id, tree, _) in bratko_kopec().iter().skip(1).step_by(5) {
        let (score, best) = plain_root(tree, 3);
        let (v, mv) = run(tree, 1, 3, TableKind::None, Storage::All);
        assert_eq!(v, Some(score), "{id}");
        let mv = mv.expect("a move");
        assert!(
            best.contains(&mv),
            "{id}: move {mv} not among the best {best:?}"
        );
    }
}

#[test]
fn with_tables_every_configuration_finishes_with_a_legal_move_and_a_sane_score() {
    let bk = bratko_kopec();
    let (id, tree, _) = &bk[7];
    let mut leaves = 0;
    let plain = alphabeta_recursive(tree, &tree.root(), -INF, INF, 3, &mut leaves);
    let width = tree.moves(&tree.root()).len();
    for (kind, storage) in [
        (TableKind::Global, Storage::All),
        (TableKind::Global, Storage::Partial),
        (TableKind::Local, Storage::All),
        (TableKind::Local, Storage::Partial),
    ] {
        for f in 1..=4 {
            let (v, mv) = run(tree, f, 3, kind, storage);
            let v = v.expect("a value");
            // Transpositions may change the score (the paper saw it), but not wildly at 3 ply.
            assert!(
                (v - plain).abs() <= 300,
                "{id} {kind:?} {storage:?} f={f}: {v} vs {plain}"
            );
            assert!(mv.expect("a move") < width);
        }
    }
}
