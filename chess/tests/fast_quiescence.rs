//! The cheaper quiescence search and move ordering against the implementation they replaced,
//! kept here (`old_quiesce`, `old_order`): the old quiescence generated every legal move at
//! every node and kept the captures, and ordered with the standard library's stable sort
//! recomputing each MVV/LVA rank at every comparison; the new one generates only the captures
//! when not in check (`chess::capture_moves`) and sorts on ranks computed once. At every node
//! of several searches the capture lists, the search orders, the values and the quiescence node
//! counts must be the same.

use algorithms::{GameTree, MoveList, Value, INF};
use chess::{bratko_kopec, piece_value, static_eval, ChessTree, MATE, QUIESCENCE_MAX_PLY};
use shakmaty::{Chess, Move, Position};

/// The MVV/LVA rank as the replaced `order_moves` computed it.
fn old_mvv_lva(m: &Move) -> Value {
    match m.capture() {
        Some(victim) => 10 * piece_value(victim) + 1000 - piece_value(m.role()) / 10,
        None => 0,
    }
}

/// The replaced `order_moves`.
fn old_order(moves: &mut shakmaty::MoveList) {
    moves.sort_by_key(|m| std::cmp::Reverse(old_mvv_lva(m)));
}

/// What the checks met, so that a test can tell it was not vacuous.
#[derive(Default, Debug)]
struct Seen {
    quiescence_nodes: u64,
    in_check: u64,
    no_legal_move: u64,
    en_passant: u64,
    promotions: u64,
    pinned_captures_dropped: u64,
}

/// Compares the new capture list and order with the old ones at `pos`.
fn check_captures(pos: &Chess, seen: &mut Seen) {
    let mut old = pos.legal_moves();
    old.retain(|m| m.is_capture());
    let new = chess::capture_moves(pos);
    assert_eq!(new.as_slice(), old.as_slice(), "captures of {pos:?}");
    seen.en_passant += old.iter().filter(|m| m.is_en_passant()).count() as u64;
    seen.promotions += old.iter().filter(|m| m.is_promotion()).count() as u64;
    // Pseudo-legal captures that legality removed (pins): the filter was exercised.
    let them = pos.them();
    let pseudo: u64 = (pos.us() & !pos.board().kings())
        .into_iter()
        .map(|sq| u64::from((pos.board().attacks_from(sq) & them).count() as u32))
        .sum();
    if !pos.is_check()
        && pseudo
            > old
                .iter()
                .filter(|m| m.role() != shakmaty::Role::King)
                .count() as u64
    {
        seen.pinned_captures_dropped += 1;
    }
    let mut ordered_new = new.clone();
    chess::order_moves(&mut ordered_new);
    let mut ordered_old = old;
    old_order(&mut ordered_old);
    assert_eq!(
        ordered_new.as_slice(),
        ordered_old.as_slice(),
        "ordered captures of {pos:?}"
    );
}

/// The replaced quiescence search, verbatim but for the checks at each node.
fn old_quiesce(
    pos: &Chess,
    mut alpha: Value,
    beta: Value,
    ply: u32,
    count: &mut u32,
    seen: &mut Seen,
) -> Value {
    seen.quiescence_nodes += 1;
    check_captures(pos, seen);
    let mut moves = pos.legal_moves();
    let in_check = pos.is_check();
    if moves.is_empty() {
        seen.no_legal_move += 1;
        return if in_check { -MATE } else { 0 };
    }
    if ply >= QUIESCENCE_MAX_PLY {
        return static_eval(pos);
    }
    let mut best;
    if in_check {
        seen.in_check += 1;
        best = -MATE;
    } else {
        best = static_eval(pos);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        moves.retain(|m| m.is_capture());
    }
    old_order(&mut moves);
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        *count += 1;
        let v = -old_quiesce(&child, -beta, -alpha, ply + 1, count, seen);
        best = best.max(v);
        if best >= beta {
            break;
        }
        alpha = alpha.max(best);
    }
    best
}

/// Checks one node of a search: its search order and its evaluation (value and quiescence
/// count, every quiescence node below it checked too).
fn check_node(tree: &ChessTree, node: &Chess, seen: &mut Seen) {
    let mut old = node.legal_moves();
    old_order(&mut old);
    assert_eq!(
        tree.moves(node).0.as_slice(),
        old.as_slice(),
        "moves of {node:?}"
    );
    let mut count = 0;
    let value = old_quiesce(node, -MATE - 1, MATE + 1, 0, &mut count, seen);
    let e = tree.evaluate(node);
    assert_eq!((e.value, e.quiescence), (value, count), "evaluate {node:?}");
}

/// Fail-soft alpha-beta over the tree, checking every node it visits.
fn search(
    tree: &ChessTree,
    node: &Chess,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    seen: &mut Seen,
) -> Value {
    check_node(tree, node, seen);
    let moves = tree.moves(node);
    if depth == 0 || moves.is_empty() {
        return tree.evaluate(node).value;
    }
    let mut best = -INF;
    for i in 0..moves.len() {
        let c = tree.play(node, moves.get(i));
        best = best.max(-search(tree, &c, -beta, -alpha, depth - 1, seen));
        if best >= beta {
            break;
        }
        alpha = alpha.max(best);
    }
    best
}

/// Every node to `depth` plies, checked.
fn walk(tree: &ChessTree, node: &Chess, depth: u32, seen: &mut Seen) {
    check_node(tree, node, seen);
    if depth == 0 {
        return;
    }
    let moves = tree.moves(node);
    for i in 0..moves.len() {
        walk(tree, &tree.play(node, moves.get(i)), depth - 1, seen);
    }
}

#[test]
fn bratko_kopec_searches_are_unchanged() {
    let mut seen = Seen::default();
    for (_, tree, _) in bratko_kopec().iter().step_by(3) {
        search(tree, &tree.root(), -INF, INF, 3, &mut seen);
    }
    assert!(seen.quiescence_nodes > 100_000, "{seen:?}");
    assert!(seen.in_check > 0 && seen.en_passant > 0, "{seen:?}");
}

#[test]
fn tricky_positions_are_unchanged() {
    // Castling, en passant (one that would expose the king), promotions by capture, pins,
    // checks, stalemate; the last two have no capture and no quiet move that the quick look
    // finds (stalemate; a pinned pawn's pushes are the only moves).
    let positions = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            2,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            2,
        ),
        ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 3),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0),
        ("k2rrr2/8/8/8/8/8/4P3/4K3 w - - 0 1", 2),
    ];
    let mut seen = Seen::default();
    for (fen, depth) in positions {
        let tree = ChessTree::new(fen).unwrap();
        walk(&tree, &tree.root(), depth, &mut seen);
    }
    assert!(
        seen.in_check > 0
            && seen.no_legal_move > 0
            && seen.en_passant > 0
            && seen.promotions > 0
            && seen.pinned_captures_dropped > 0,
        "{seen:?}"
    );
    // A list longer than order_moves' rank array (218 moves, captures among them).
    let many = ChessTree::new("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
    let root = many.root();
    let mut old = root.legal_moves();
    assert!(old.len() > 64 && old.iter().any(|m| m.is_capture()));
    old_order(&mut old);
    assert_eq!(many.moves(&root).0.as_slice(), old.as_slice());
    check_captures(&root, &mut seen);
    // The stalemate and the pinned pawn, directly.
    let stalemate = ChessTree::new("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let e = stalemate.evaluate(&stalemate.root());
    assert_eq!((e.value, e.quiescence), (0, 0));
    let pinned = ChessTree::new("k2rrr2/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let root = pinned.root();
    assert_eq!(pinned.moves(&root).0.len(), 2);
    assert_eq!(pinned.evaluate(&root).value, static_eval(&root));
}
