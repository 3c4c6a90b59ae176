//! The chess tree source: move generator wiring (perft through the `GameTree` trait), the
//! Bratko–Kopec file, mate and stalemate scores, evaluation symmetry, and the resumable searches
//! of `algorithms` against a plain recursive alpha-beta with an independent quiescence search.

use algorithms::{AlphaBeta, GameTree, MoveList, Pvs, SequentialSearch, Value, INF};
use chess::{bratko_kopec, static_eval, ChessTree, MATE, QUIESCENCE_MAX_PLY};
use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position};
use sim_hw::{run_alone, CostModel};

fn perft(tree: &ChessTree, node: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = tree.moves(node);
    (0..moves.len())
        .map(|i| perft(tree, &tree.play(node, moves.get(i)), depth - 1))
        .sum()
}

#[test]
fn perft_start_position() {
    let tree = ChessTree::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&tree, &tree.root(), d)).collect();
    assert_eq!(counts, [20, 400, 8902, 197_281]);
}

#[test]
fn perft_kiwipete() {
    let tree =
        ChessTree::new("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&tree, &tree.root(), d)).collect();
    assert_eq!(counts, [48, 2039, 97_862]);
}

#[test]
fn fen_errors_name_the_problem() {
    let e = ChessTree::new("8/8/8/8 w").unwrap_err().to_string();
    assert!(e.contains("at least 4 fields"), "{e}");
    let e = ChessTree::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -")
        .unwrap_err()
        .to_string();
    assert!(e.contains("turn"), "{e}");
    let e = ChessTree::new("8/8/8/8/8/8/8/K7 w - -")
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing king"), "{e}");
    let e = ChessTree::from_epd_line("6k1/8/8/8/8/8/8/R5K1 w - - bm Rh8+; id \"x\";")
        .unwrap_err()
        .to_string();
    assert!(e.contains("Rh8+"), "{e}");
}

#[test]
fn fen_errors_are_typed_and_print_as_before() {
    use chess::ChessError;
    let too_many = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bm Kd1;";
    let e = ChessTree::new(too_many).unwrap_err();
    assert!(
        matches!(e, ChessError::TooManyFields { found: 8, .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "position `{too_many}`: a FEN has at most 6 fields, found 8 (an EPD line with \
             operations goes to ChessTree::from_epd_line)"
        )
    );
    let e = ChessTree::new("8/8/8/8 w").unwrap_err();
    assert!(
        matches!(e, ChessError::TooFewFields { found: 2, .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "position `8/8/8/8 w`: expected at least 4 fields (board, side to move, castling, \
         en passant), found 2"
    );
    let e = ChessTree::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -").unwrap_err();
    assert!(matches!(e, ChessError::BadFen { .. }), "{e:?}");
    let e = ChessTree::new("8/8/8/8/8/8/8/K7 w - -").unwrap_err();
    let ChessError::IllegalPosition { source, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(source
        .kinds()
        .contains(shakmaty::PositionErrorKinds::MISSING_KING));
    assert_eq!(
        e.to_string(),
        "position `8/8/8/8/8/8/8/K7 w - -`: illegal position: missing king"
    );
    let line = "6k1/8/8/8/8/8/8/R5K1 w - - bm Rh8+; id \"x\";";
    let e = ChessTree::from_epd_line(line).unwrap_err();
    assert!(
        matches!(e, ChessError::IllegalBestMove { ref san, .. } if san == "Rh8+"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!("EPD `{line}`: best move `Rh8+`: illegal san")
    );
    let e = ChessTree::from_epd_line("6k1/8/8/8/8/8/8/R5K1 w - - bm R@@;").unwrap_err();
    assert!(matches!(e, ChessError::BadBestMove { .. }), "{e:?}");
    let twice = "4k3/8/8/8/8/8/8/4K3 w - - id \"a\";\n4k3/8/8/8/8/8/8/4K3 b - - id \"a\";\n";
    let e = chess::parse_epd(twice).unwrap_err();
    assert!(
        matches!(e.error, ChessError::DuplicateId { ref id, first: 1 } if id == "a"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "line 2: id \"a\" is used twice (first on line 1)"
    );
}

#[test]
fn bratko_kopec_positions_parse_with_legal_best_moves() {
    let bk = bratko_kopec();
    assert_eq!(bk.len(), 24);
    for (i, (id, tree, bm)) in bk.iter().enumerate() {
        assert_eq!(id, &format!("BK.{:02}", i + 1));
        assert!(!bm.is_empty(), "{id}");
        let moves = tree.moves(&tree.root());
        for san in bm {
            let legal = (0..moves.len()).any(|j| tree.san(&tree.root(), moves.get(j)) == *san);
            assert!(legal, "{id}: best move {san} not among the legal moves");
        }
        let best = (0..moves.len())
            .filter(|&j| tree.is_best_move(moves.get(j)))
            .count();
        assert_eq!(best, bm.len(), "{id}");
    }
    assert_eq!(bk[0].2, ["Qd1+"]);
    assert_eq!(bk[4].2, ["Nd5", "a4"]);
}

#[test]
fn epd_files_parse_with_line_numbers_and_moves_print_as_uci() {
    let text = "# comment\n\n1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"x\";\n\
                4k3/8/8/8/8/8/8/R3K3 w Q - id \"y\";\n";
    let p = chess::parse_epd(text).unwrap();
    assert_eq!(p.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [3, 4]);
    // BK.01's best move Qd1+ is d6d1 in the paper's Table IV notation.
    let tree = &p[0].1;
    let moves = tree.moves(&tree.root());
    let best: Vec<String> = (0..moves.len())
        .filter(|&i| tree.is_best_move(moves.get(i)))
        .map(|i| tree.uci(tree.root_move_at(i).unwrap()))
        .collect();
    assert_eq!(best, ["d6d1"]);
    assert!(tree.root_move_at(moves.len()).is_none());
    // Castling is the king's move in UCI.
    let castle = &p[1].1;
    let m = castle.moves(&castle.root());
    let ucis: Vec<String> = (0..m.len()).map(|i| castle.uci(m.get(i))).collect();
    assert!(ucis.contains(&"e1c1".to_string()), "{ucis:?}");
    // Errors name the line; a repeated id is an error at its second line.
    let e = chess::parse_epd("# x\n8/8/8/8/8/8/8/8 w - -\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().starts_with("line 2: "), "{e}");
    let twice = "4k3/8/8/8/8/8/8/4K3 w - - id \"a\";\n4k3/8/8/8/8/8/8/4K3 b - - id \"a\";\n";
    let e = chess::parse_epd(twice).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.error.to_string().contains("\"a\"") && e.error.to_string().contains("line 1"),
        "{e}"
    );
    // A six-field FEN's counters are no opcode: refused, not read as an operation `0` that
    // would swallow the `bm` after it. Other opcodes are skipped.
    let counters = "4k3/8/8/8/8/8/8/4K2R w K - id \"a\";\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 bm O-O;\n";
    let e = chess::parse_epd(counters).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.to_string().contains("`0` is not an EPD opcode")
            && e.to_string().contains("halfmove and fullmove counters"),
        "{e}"
    );
    let ok = chess::parse_epd(
        "4k3/8/8/8/8/8/8/4K2R w K - hmvc 0; c0 \"Karpov-Kasparov; 1985\"; fmvn 1; bm O-O;\n",
    );
    assert_eq!(ok.unwrap()[0].1.best_moves(), ["O-O"]);
    // Operations that cannot be read as meant are refused at their line: a quote left open
    // (it swallowed the `bm` after it), two ids of one position, an empty id.
    for (record, says) in [
        ("id \"X1 bm e4;", "a double quote is not closed"),
        ("id \"A\"; id \"B\";", "a second `id`"),
        ("id \"\";", "an empty `id`"),
        ("bm;", "`bm` names no move"),
        ("bm ; id \"b\";", "`bm` names no move"),
    ] {
        let text =
            format!("4k3/8/8/8/8/8/8/4K3 w - - id \"a\";\n4k3/8/8/8/8/8/8/4K3 w - - {record}\n");
        let e = chess::parse_epd(&text).unwrap_err();
        assert_eq!(e.line, 2, "{record}");
        assert!(e.to_string().contains(says), "{record}: {e}");
    }
}

#[test]
fn moves_are_captures_first_by_mvv_lva() {
    for (id, tree, _) in bratko_kopec() {
        let root = tree.root();
        let moves = tree.moves(&root);
        let caps: Vec<_> = (0..moves.len())
            .map(|i| moves.get(i))
            .take_while(|m| m.is_capture())
            .collect();
        let n_caps = (0..moves.len())
            .filter(|&i| moves.get(i).is_capture())
            .count();
        assert_eq!(caps.len(), n_caps, "{id}: a capture after a quiet move");
        for w in caps.windows(2) {
            let v = |m: &shakmaty::Move| chess::piece_value(m.capture().unwrap());
            assert!(v(&w[0]) >= v(&w[1]), "{id}: victims out of order");
        }
        assert_eq!(moves.len(), root.legal_moves().len());
    }
}

#[test]
fn mate_and_stalemate_score_as_documented() {
    // White mates with Ra8#.
    let tree = ChessTree::new("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    assert_eq!(algorithms::negamax(&tree, &tree.root(), 1), MATE);
    let mated = ChessTree::new("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
    let e = mated.evaluate(&mated.root());
    assert_eq!((e.value, e.quiescence), (-MATE, 0));
    assert!(mated.moves(&mated.root()).is_empty());
    // Black is stalemated.
    let stale = ChessTree::new("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let e = stale.evaluate(&stale.root());
    assert_eq!((e.value, e.quiescence), (0, 0));
    // Black in check with one evasion (Kxg7): no standing pat, the value is the one after it.
    let evasion = ChessTree::new("6k1/6Q1/8/8/8/8/8/K7 b - - 0 1").unwrap();
    let e = evasion.evaluate(&evasion.root());
    let after = evasion.play(&evasion.root(), evasion.moves(&evasion.root()).get(0));
    assert_eq!(evasion.moves(&evasion.root()).len(), 1);
    assert_eq!(e.value, -static_eval(&after));
    assert_eq!(e.quiescence, 1);
}

#[test]
fn evaluation_is_colour_symmetric() {
    for (id, tree, _) in bratko_kopec() {
        let mut setup = tree.position().to_setup(EnPassantMode::Legal);
        setup.mirror();
        let mirrored: Chess = Chess::from_setup(setup, CastlingMode::Standard).unwrap();
        let m = ChessTree::new(
            &shakmaty::fen::Fen::from_position(&mirrored, EnPassantMode::Legal).to_string(),
        )
        .unwrap();
        assert_eq!(static_eval(tree.position()), static_eval(&mirrored), "{id}");
        assert_eq!(
            tree.evaluate(&tree.root()).value,
            m.evaluate(&m.root()).value,
            "{id}"
        );
        assert_ne!(tree.key(&tree.root()), m.key(&m.root()), "{id}");
    }
}

/// An independent quiescence search: full window, captures by victim value only (most valuable
/// first; unordered it takes seconds on BK.07), same stand-pat, check, mate and depth-limit
/// rules as the documented `evaluate`.
fn reference_quiesce(pos: &Chess, mut alpha: Value, beta: Value, ply: u32) -> Value {
    let mut moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { -MATE } else { 0 };
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.capture().map(chess::piece_value)));
    if ply >= QUIESCENCE_MAX_PLY {
        return static_eval(pos);
    }
    let in_check = pos.is_check();
    let mut best = if in_check { -MATE } else { static_eval(pos) };
    if best >= beta {
        return best;
    }
    alpha = alpha.max(best);
    for m in moves.iter().filter(|m| in_check || m.is_capture()) {
        let mut c = pos.clone();
        c.play_unchecked(*m);
        best = best.max(-reference_quiesce(&c, -beta, -alpha, ply + 1));
        if best >= beta {
            break;
        }
        alpha = alpha.max(best);
    }
    best
}

/// Plain recursive fail-soft alpha-beta with the reference quiescence at the horizon; counts
/// horizon and terminal leaves.
fn reference_search(
    tree: &ChessTree,
    node: &Chess,
    mut alpha: Value,
    beta: Value,
    depth: u32,
    leaves: &mut u64,
) -> Value {
    let moves = if depth > 0 {
        Some(tree.moves(node))
    } else {
        None
    };
    match moves {
        Some(moves) if !moves.is_empty() => {
            let mut best = -INF;
            for i in 0..moves.len() {
                let c = tree.play(node, moves.get(i));
                best = best.max(-reference_search(
                    tree,
                    &c,
                    -beta,
                    -alpha,
                    depth - 1,
                    leaves,
                ));
                if best >= beta {
                    break;
                }
                alpha = alpha.max(best);
            }
            best
        }
        _ => {
            *leaves += 1;
            reference_quiesce(node, -MATE - 1, MATE + 1, 0)
        }
    }
}

#[test]
fn quiescence_matches_independent_reference() {
    for (id, tree, _) in bratko_kopec() {
        let root = tree.root();
        let moves = tree.moves(&root);
        for i in 0..moves.len() {
            let c = tree.play(&root, moves.get(i));
            let e = tree.evaluate(&c);
            assert_eq!(
                e.value,
                reference_quiesce(&c, -MATE - 1, MATE + 1, 0),
                "{id}"
            );
            assert!(e.value.abs() <= MATE && e.value.abs() < INF);
        }
        // Pure function: the same evaluation twice.
        assert_eq!(tree.evaluate(&root), tree.evaluate(&root), "{id}");
    }
}

#[test]
fn resumable_searches_match_recursive_reference_3_ply() {
    let costs = CostModel::campbell();
    let bk = bratko_kopec();
    for (id, tree, _) in bk.iter().step_by(6) {
        let mut leaves = 0;
        let v = reference_search(tree, &tree.root(), -INF, INF, 3, &mut leaves);
        let mut ab = AlphaBeta::new(tree, tree.root(), -INF, INF, 3);
        let (ab_v, work) = run_alone(&mut ab, &costs);
        assert_eq!(ab_v, v, "{id}: AlphaBeta");
        assert_eq!(work.nodes.leaves, leaves, "{id}: AlphaBeta leaves");
        let mut pvs = Pvs::new(tree, tree.root(), -INF, INF, 3);
        let (pvs_v, _) = run_alone(&mut pvs, &costs);
        assert_eq!(pvs_v, v, "{id}: Pvs");
        assert!(v.abs() < INF);
    }
}

/// Nodes per second of a plain 4-ply alpha-beta on BK.01 (a print, no assertion on time):
/// `cargo test -p chess --release -- --ignored --nocapture nps`.
#[test]
#[ignore]
fn nps_bk01_4_ply() {
    let bk = bratko_kopec();
    let tree = &bk[0].1;
    let start = std::time::Instant::now();
    let mut leaves = 0;
    let v = algorithms::alphabeta_recursive(tree, &tree.root(), -INF, INF, 4, &mut leaves);
    let secs = start.elapsed().as_secs_f64();
    let mut ab = AlphaBeta::new(tree, tree.root(), -INF, INF, 4);
    let (_, work) = run_alone(&mut ab, &CostModel::campbell());
    let q: u64 = {
        // Quiescence nodes are not in Work; count them again through evaluate.
        let mut q = 0u64;
        fn walk(t: &ChessTree, n: &Chess, a: Value, b: Value, d: u32, q: &mut u64) -> Value {
            let moves = if d > 0 { Some(t.moves(n)) } else { None };
            match moves {
                Some(m) if !m.is_empty() => {
                    let (mut a, mut best) = (a, -INF);
                    for i in 0..m.len() {
                        best = best.max(-walk(t, &t.play(n, m.get(i)), -b, -a, d - 1, q));
                        if best >= b {
                            break;
                        }
                        a = a.max(best);
                    }
                    best
                }
                _ => {
                    let e = t.evaluate(n);
                    *q += u64::from(e.quiescence);
                    e.value
                }
            }
        }
        walk(tree, &tree.root(), -INF, INF, 4, &mut q);
        q
    };
    let nodes = work.nodes.interior + work.nodes.leaves + q;
    println!(
        "BK.01 4 ply: value {v}, {} interior, {leaves} leaves, {q} quiescence nodes, {:.3} s, \
         {:.0} nodes/s (interior + leaves + quiescence)",
        work.nodes.interior,
        secs,
        nodes as f64 / secs
    );
}

/// A best move's check (`+`) or mate (`#`) suffix is a claim about the position: refused at its
/// line, naming `bm`, when it does not hold; accepted when it does (a mate gives check, so `+`
/// holds for it too); a move without a suffix is not checked for one.
#[test]
fn best_move_suffixes_must_hold() {
    use chess::ChessError;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    // After 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6: Qxf7 mates.
    let scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -";
    // Black to move: Qd1 gives check (BK.01), and is no mate.
    let bk01 = "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -";
    for (fen, bm, ok) in [
        (start, "e4", true),
        (start, "e4+", false),
        (start, "e4#", false),
        (scholar, "Qxf7#", true),
        (scholar, "Qxf7+", true),
        (scholar, "Qxf7", true),
        (bk01, "Qd1+", true),
        (bk01, "Qd1", true),
        (bk01, "Qd1#", false),
    ] {
        let text = format!("{start} id \"first\";\n{fen} bm {bm}; id \"x\";\n");
        let got = chess::parse_epd(&text);
        if ok {
            let got = got.unwrap_or_else(|e| panic!("{bm}: {e}"));
            assert_eq!(got[1].1.best_moves(), [bm]);
            continue;
        }
        let e = got.expect_err(bm);
        assert_eq!(e.line, 2, "{bm}");
        assert!(
            matches!(e.error, ChessError::WrongSuffix { ref san, .. } if san == bm),
            "{bm}: {e:?}"
        );
        let m = e.to_string();
        assert!(
            m.starts_with("line 2: ") && m.contains(&format!("best move `{bm}` (`bm`)")),
            "{m}"
        );
        // It says what the suffix claims and what the move gives.
        let says = if bm.ends_with('#') {
            "says the move mates"
        } else {
            "says the move gives check"
        };
        assert!(m.contains(says), "{m}");
        let gives = if fen == bk01 {
            "but it only gives check"
        } else if bm.ends_with('+') {
            "but it does not"
        } else {
            "but it gives no check"
        };
        assert!(m.contains(gives), "{m}");
    }
}

/// Every legal move of every Bratko–Kopec position, written with each suffix: a line parses
/// exactly when the suffix holds, judged here by playing the move (check, checkmate), not by
/// the SAN shakmaty would write. With a position where a move mates (the scholar's mate).
#[test]
fn a_suffix_is_accepted_exactly_when_it_holds() {
    let scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -";
    let mut roots: Vec<(String, Chess)> = bratko_kopec()
        .into_iter()
        .map(|(id, tree, _)| (id, tree.root()))
        .collect();
    roots.push(("scholar".into(), ChessTree::new(scholar).unwrap().root()));
    let mut mates = 0;
    for (id, root) in roots {
        let fen = shakmaty::fen::Epd::from_position(&root, EnPassantMode::Legal).to_string();
        for mv in root.legal_moves() {
            let mut after = root.clone();
            after.play_unchecked(mv);
            // The move in SAN without a suffix (shakmaty writes it; we only cut the suffix).
            let plain = shakmaty::san::San::from_move(&root, mv).to_string();
            for (suffix, holds) in [
                ("", true),
                ("+", after.is_check()),
                ("#", after.is_checkmate()),
            ] {
                mates += usize::from(suffix == "#" && holds);
                let line = format!("{fen} bm {plain}{suffix}; id \"{id}\";");
                let got = ChessTree::from_epd_line(&line);
                assert_eq!(got.is_ok(), holds, "{line}: {got:?}");
                if holds {
                    let t = got.unwrap();
                    let m = t.moves(&t.root());
                    let best: Vec<_> = (0..m.len()).filter(|&i| t.is_best_move(m.get(i))).collect();
                    assert_eq!(best.len(), 1, "{line}");
                    assert_eq!(m.get(best[0]), mv, "{line}");
                }
            }
        }
    }
    assert!(mates > 0, "no mating move was tried");
}

/// An `id` is one name: two strings (or two bare words) are refused at their line, naming `id`,
/// not run together into one id; one string, with spaces inside its quotes, or one bare word is
/// read as written.
#[test]
fn an_id_is_one_string() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - -";
    for (operands, id) in [
        ("\"BK.01\"", Some("BK.01")),
        ("\"a b\"", Some("a b")),
        ("BK01", Some("BK01")),
        ("\"a\" \"b\"", None),
        ("a b", None),
        ("\"a\" b", None),
        ("\"a\"b", None),
        ("a\"b\"", None),
    ] {
        let text = format!("{fen} id \"first\";\n{fen} bm Kd1; id {operands};\n");
        match (chess::parse_epd(&text), id) {
            (Ok(p), Some(id)) => assert_eq!(p[1].1.id(), Some(id), "{operands}"),
            (Err(e), None) => {
                assert_eq!(e.line, 2, "{operands}");
                let m = e.to_string();
                assert!(
                    m.starts_with("line 2: ") && m.contains(&format!("`id {operands}`")),
                    "{m}"
                );
            }
            (got, _) => panic!("id {operands}: {got:?}"),
        }
    }
    let e = chess::parse_epd(&format!("{fen} id \"a\" \"b\";\n")).unwrap_err();
    assert!(e.to_string().contains("gives 2 names"), "{e}");
}
