//! # chess: real chess positions as an [`algorithms::GameTree`]
//!
//! Parabelle was a chess program, and every figure of the paper comes from 5- and 6-ply searches
//! of the 24 Bratko–Kopec positions. This crate is the chess tree source those searches run on:
//!
//! - positions and legal move generation come from the [`shakmaty`] crate (pinned at `=0.30.1`,
//!   the last release that builds with Rust 1.95); a node is a [`shakmaty::Chess`] position, and a
//!   successor is made by copy-make (clone, then play the move);
//! - moves are ordered captures first, by MVV/LVA (most valuable victim, then least valuable
//!   attacker), then the other moves in generation order ([`order_moves`]; the refutation table
//!   of Parabelle will hook in there);
//! - keys are shakmaty's 64-bit Zobrist hashes ([`shakmaty::zobrist::Zobrist64`]);
//! - the static evaluation is material plus piece-square tables ([`static_eval`]), and
//!   [`GameTree::evaluate`] runs a capture-only quiescence search from the node (check evasions
//!   when in check, mate and stalemate detected), reporting how many quiescence nodes it searched
//!   in [`Eval::quiescence`];
//! - [`bratko_kopec`] returns the 24 Bratko–Kopec test positions (shipped in
//!   `chess/positions/bratko-kopec.epd`) with their ids and best moves.
//!
//! ```
//! use algorithms::{negamax, GameTree, MoveList};
//! let tree = chess::ChessTree::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
//! assert_eq!(tree.moves(&tree.root()).len(), 20);
//! assert_eq!(negamax(&tree, &tree.root(), 0), 0); // the start position is symmetric
//! # Ok::<(), chess::ChessError>(())
//! ```
//!
//! Not modelled: draws by repetition, by the fifty-move rule and by insufficient material (a
//! node has no history; Parabelle's 5- and 6-ply searches of the Bratko–Kopec positions hardly
//! meet them).

#![warn(missing_docs)]

use algorithms::{Eval, GameTree, MoveList, Value};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    attacks, Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, Move, Piece, Position,
    Role, Square,
};

/// The score of a position whose side to move is checkmated is `-MATE` (and `MATE` for the side
/// that mates). The [`GameTree`] trait has no ply argument, so the score does not depend on the
/// distance to the mate: a search prefers a mate but not the quickest one. Far inside
/// `±algorithms::INF`, and far above any material score (all the pieces are worth under 9 000).
pub const MATE: Value = 30_000;

/// The quiescence search stops extending at this many plies below the node evaluated and takes
/// the static evaluation there (in check or not). Captures alone always end, but check evasions
/// that give check back could go on; the limit keeps [`GameTree::evaluate`] a bounded, pure
/// function of the position.
pub const QUIESCENCE_MAX_PLY: u32 = 32;

/// Piece values in centipawns (Michniewski's Simplified Evaluation Function): pawn 100, knight
/// 320, bishop 330, rook 500, queen 900; the king has no material value.
pub const fn piece_value(role: Role) -> Value {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

// Piece-square tables of Tomasz Michniewski's "Simplified Evaluation Function" (chessprogramming
// wiki), from White's point of view, written as a board diagram: the first row is rank 8
// (a8..h8), the last rank 1. A White piece on square `sq` (shakmaty: a1 = 0 .. h8 = 63) reads
// index `sq ^ 56`; a Black piece reads index `sq` (the table mirrored vertically).
#[rustfmt::skip]
const PAWN: [i16; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const KNIGHT: [i16; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
const BISHOP: [i16; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
const ROOK: [i16; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
const QUEEN: [i16; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
const KING_MIDDLE: [i16; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];
#[rustfmt::skip]
const KING_END: [i16; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Michniewski's endgame rule: the endgame has begun when each side either has no queen, or has
/// a queen and at most one minor piece besides (no rook).
fn is_endgame(board: &Board) -> bool {
    Color::ALL.into_iter().all(|c| {
        let ours = board.by_color(c);
        if (board.queens() & ours).is_empty() {
            return true;
        }
        let minors = ((board.knights() | board.bishops()) & ours).count();
        (board.rooks() & ours).is_empty() && minors <= 1
    })
}

fn table(role: Role, endgame: bool) -> &'static [Value; 64] {
    match role {
        Role::Pawn => &SCORES[0],
        Role::Knight => &SCORES[1],
        Role::Bishop => &SCORES[2],
        Role::Rook => &SCORES[3],
        Role::Queen => &SCORES[4],
        Role::King if endgame => &SCORES[6],
        Role::King => &SCORES[5],
    }
}

/// A piece's value plus its piece-square table, per square (the board-diagram index).
const fn scores(role: Role, table: &[i16; 64]) -> [Value; 64] {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = piece_value(role) + table[i] as Value;
        i += 1;
    }
    out
}

/// [`piece_value`] plus the piece-square table of pawn, knight, bishop, rook, queen, king in
/// the middle game and king in the endgame, summed once.
static SCORES: [[Value; 64]; 7] = [
    scores(Role::Pawn, &PAWN),
    scores(Role::Knight, &KNIGHT),
    scores(Role::Bishop, &BISHOP),
    scores(Role::Rook, &ROOK),
    scores(Role::Queen, &QUEEN),
    scores(Role::King, &KING_MIDDLE),
    scores(Role::King, &KING_END),
];

/// The static evaluation of a position without search, in centipawns from the side to move's
/// point of view (negamax): material ([`piece_value`]) plus the piece-square tables of Tomasz
/// Michniewski's Simplified Evaluation Function (the king's endgame table once each side has no
/// queen, or a queen and at most one minor piece). Symmetric: a position and its colour-flipped
/// mirror evaluate the same. Does not look at mate or stalemate (see [`GameTree::evaluate`]).
pub fn static_eval(pos: &Chess) -> Value {
    let board = pos.board();
    let endgame = is_endgame(board);
    let mut white_minus_black: Value = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let flip = if color == Color::White { 56 } else { 0 };
        for role in Role::ALL {
            let t = table(role, endgame);
            let bb: Bitboard = board.by_piece(Piece { color, role });
            for sq in bb {
                white_minus_black += sign * t[sq.to_usize() ^ flip];
            }
        }
    }
    if pos.turn() == Color::White {
        white_minus_black
    } else {
        -white_minus_black
    }
}

/// The MVV/LVA rank of a capture: higher is searched first (victim value first, then the
/// cheaper attacker). Non-captures rank 0.
fn mvv_lva(m: &Move) -> Value {
    match m.capture() {
        Some(victim) => 10 * piece_value(victim) + 1000 - piece_value(m.role()) / 10,
        None => 0,
    }
}

/// Puts `moves` in search order: captures first, by MVV/LVA (most valuable victim first; among
/// equal victims the least valuable attacker first; the king counts as the cheapest attacker),
/// then the other moves in shakmaty's generation order. The sort is stable, so equal ranks keep
/// generation order and the order is a pure function of the position.
///
/// Parabelle's refutation table (`algorithms::schemes::parabelle`) puts the move it holds for
/// this node (the best line of the root move from the previous iteration) in front of
/// everything else, *after* this ordering, so that a node without a table entry is ordered
/// exactly as here.
pub fn order_moves(moves: &mut shakmaty::MoveList) {
    // A stable insertion sort on ranks computed once per move (the standard library's stable
    // sort recomputes the key at every comparison): the same order as
    // `moves.sort_by_key(|m| Reverse(mvv_lva(m)))`. The lists are short and mostly
    // non-captures (rank 0), which never move, so this is linear in practice.
    const SHORT: usize = 64;
    let n = moves.len();
    if n > SHORT {
        // The same stable order, without a rank array that would need clearing for every list.
        moves.sort_by_key(|m| std::cmp::Reverse(mvv_lva(m)));
        return;
    }
    // A rank fits in an i16: at most 10 * 900 + 1000 = 10 000.
    let mut ranks = [0i16; SHORT];
    let ranks = &mut ranks[..n];
    for i in 0..n {
        let m = moves[i];
        let r = mvv_lva(&m) as i16;
        let mut j = i;
        while j > 0 && ranks[j - 1] < r {
            ranks[j] = ranks[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        ranks[j] = r;
        moves[j] = m;
    }
}

/// What the move generation of a position whose side to move is not in check needs: the side
/// to move's king, the occupied squares, the two sides' pieces, and the side to move's pieces
/// that shield its king from an enemy slider (shakmaty's `slider_blockers`: a piece alone
/// between the king and an enemy rook, bishop or queen on its line; pinned, or able to give
/// discovered check if it is the enemy's).
struct NotInCheck<'a> {
    board: &'a Board,
    turn: Color,
    king: Square,
    us: Bitboard,
    them: Bitboard,
    occupied: Bitboard,
    blockers: Bitboard,
}

impl<'a> NotInCheck<'a> {
    fn new(pos: &'a Chess) -> Self {
        let board = pos.board();
        let turn = pos.turn();
        let king = board.king_of(turn).expect("a chess position has a king");
        let us = board.by_color(turn);
        let them = board.by_color(!turn);
        let occupied = board.occupied();
        let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
        let mut blockers = Bitboard(0);
        for sniper in snipers & them {
            let b = attacks::between(king, sniper) & occupied;
            if !b.more_than_one() {
                blockers |= b;
            }
        }
        NotInCheck {
            board,
            turn,
            king,
            us,
            them,
            occupied,
            blockers,
        }
    }

    /// The legal captures (en passant included), in the order of shakmaty's
    /// `legal_moves()` with the non-captures left out: en passant, then pawn captures towards
    /// the a-file and towards the h-file (each by destination square, promotions after the
    /// other captures, promoting to queen, rook, bishop, knight), then knights, bishops, rooks,
    /// queens (by origin, then destination square), then the king. This is the same generation
    /// as shakmaty's with the target squares narrowed to the enemy's pieces and without pawn
    /// pushes and castling, and the same legality filter (`is_safe`), so the list is the
    /// filtered full list exactly; `captures_match_the_filtered_legal_moves` (chess/tests)
    /// checks it node by node.
    fn captures(&self, pos: &Chess, moves: &mut shakmaty::MoveList) {
        let board = self.board;
        let turn = self.turn;
        let them = self.them;
        moves.clear();

        let mut has_ep = false;
        if let Some(to) = pos.maybe_ep_square() {
            for from in board.pawns() & self.us & attacks::pawn_attacks(!turn, to) {
                moves.push(Move::EnPassant { from, to });
                has_ep = true;
            }
        }

        // Pawn captures: towards the a-file (NorthWest / SouthWest), then towards the h-file.
        const FILE_A: u64 = 0x0101_0101_0101_0101;
        let pawns = (board.pawns() & self.us).0;
        let dirs: [(u64, i32); 2] = if turn == Color::White {
            [((pawns & !FILE_A) << 7, 7), ((pawns << 9) & !FILE_A, 9)]
        } else {
            [((pawns & !FILE_A) >> 9, -9), ((pawns >> 7) & !FILE_A, -7)]
        };
        for (targets, offset) in dirs {
            let captures = Bitboard(targets) & them;
            for to in captures & !Bitboard::BACKRANKS {
                let from = Square::new((i32::from(to) - offset) as u32);
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
            for to in captures & Bitboard::BACKRANKS {
                let from = Square::new((i32::from(to) - offset) as u32);
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: Some(promotion),
                    });
                }
            }
        }

        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_piece(Piece { color: turn, role }) {
                let reach = match role {
                    Role::Knight => attacks::knight_attacks(from),
                    Role::Bishop => attacks::bishop_attacks(from, self.occupied),
                    Role::Rook => attacks::rook_attacks(from, self.occupied),
                    _ => attacks::queen_attacks(from, self.occupied),
                };
                for to in reach & them {
                    moves.push(Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
        }

        for to in attacks::king_attacks(self.king) & them {
            if board.attacks_to(to, !turn, self.occupied).is_empty() {
                moves.push(Move::Normal {
                    role: Role::King,
                    from: self.king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }

        if self.blockers.any() || has_ep {
            moves.retain(|m| self.is_safe(*m));
        }
    }

    /// shakmaty's `is_safe`: whether a generated move leaves the king out of check.
    fn is_safe(&self, m: Move) -> bool {
        match m {
            Move::Normal { from, to, .. } => {
                !self.blockers.contains(from) || attacks::aligned(from, to, self.king)
            }
            Move::EnPassant { from, to } => {
                let capture = Square::from_coords(to.file(), from.rank());
                self.board
                    .attacks_to(
                        self.king,
                        !self.turn,
                        self.occupied.toggled(from).toggled(capture).with(to),
                    )
                    .without(capture)
                    .is_empty()
            }
            _ => true,
        }
    }

    /// A quick look for a legal non-capture: a pawn that is not a blocker with its square
    /// ahead empty, a knight, bishop, rook or queen that is not a blocker with an empty square
    /// in reach, or the king with an empty square in reach that no enemy piece attacks. True
    /// only if there is one; false may also mean it found none of these (a pinned piece moving
    /// along its line, castling), so a caller falls back to the full generation.
    fn quick_quiet_move(&self) -> bool {
        let board = self.board;
        let turn = self.turn;
        let empty = !self.occupied;
        let free = self.us & !self.blockers;
        let pawns = board.pawns() & free;
        let ahead = if turn == Color::White {
            pawns.shift(8)
        } else {
            pawns.shift(-8)
        };
        if (ahead & empty).any() {
            return true;
        }
        for from in board.knights() & free {
            if (attacks::knight_attacks(from) & empty).any() {
                return true;
            }
        }
        for from in board.sliders() & free {
            if (attacks::attacks(from, board.piece_at(from).expect("a slider"), self.occupied)
                & empty)
                .any()
            {
                return true;
            }
        }
        for to in attacks::king_attacks(self.king) & empty {
            if board.attacks_to(to, !turn, self.occupied).is_empty() {
                return true;
            }
        }
        false
    }
}

/// The legal captures of `pos` (en passant included) in shakmaty's generation order: exactly
/// `pos.legal_moves()` with the non-captures removed, but without generating the non-captures
/// when the side to move is not in check (in check it filters the full list).
pub fn capture_moves(pos: &Chess) -> shakmaty::MoveList {
    if pos.is_check() {
        let mut moves = pos.legal_moves();
        moves.retain(|m| m.is_capture());
        moves
    } else {
        let mut moves = shakmaty::MoveList::new();
        NotInCheck::new(pos).captures(pos, &mut moves);
        moves
    }
}

/// The moves of one chess node, in search order (see [`order_moves`]): shakmaty's array-backed
/// move list, so generating them does not allocate.
#[derive(Clone, Debug)]
pub struct ChessMoves(pub shakmaty::MoveList);

impl MoveList for ChessMoves {
    type Move = Move;
    fn len(&self) -> usize {
        self.0.len()
    }
    fn get(&self, i: usize) -> Move {
        self.0[i]
    }
}

/// A chess game tree rooted at one position (see the crate doc). Also carries the EPD
/// operations it was read with: the position's `id` and its best moves (`bm`, in SAN).
#[derive(Clone, Debug)]
pub struct ChessTree {
    root: Chess,
    id: Option<String>,
    best_moves: Vec<String>,
    /// The opcodes of the line's operations that are neither read (`bm`, `id`) nor standard
    /// EPD opcodes ([`STANDARD_EPD_OPCODES`]): ignored, and said so by the caller.
    unknown: Vec<String>,
}

/// The opcodes the PGN standard defines for EPD (section 16.2.5); other operations than `bm`
/// and `id` are ignored, and one outside this list is likely a typo.
pub const STANDARD_EPD_OPCODES: &[&str] = &[
    "acd",
    "acn",
    "acs",
    "am",
    "bm",
    "c0",
    "c1",
    "c2",
    "c3",
    "c4",
    "c5",
    "c6",
    "c7",
    "c8",
    "c9",
    "ce",
    "dm",
    "draw_accept",
    "draw_claim",
    "draw_offer",
    "draw_reject",
    "eco",
    "fmvn",
    "hmvc",
    "id",
    "nic",
    "noop",
    "pm",
    "pv",
    "rc",
    "resign",
    "sm",
    "tcgi",
    "tcri",
    "tcsi",
    "v0",
    "v1",
    "v2",
    "v3",
    "v4",
    "v5",
    "v6",
    "v7",
    "v8",
    "v9",
];

/// Why a FEN, an EPD line or an EPD file does not give a chess tree. Each message names the
/// text it is about (`position `…``, `EPD `…``); the variants keep shakmaty's own error where
/// there is one.
#[derive(thiserror::Error, Debug, Clone)]
pub enum ChessError {
    /// A FEN with more than its 6 fields (an EPD line with operations goes to
    /// [`ChessTree::from_epd_line`]).
    #[error(
        "position `{text}`: a FEN has at most 6 fields, found {found} (an EPD line with \
         operations goes to ChessTree::from_epd_line)"
    )]
    TooManyFields {
        /// The FEN as given.
        text: String,
        /// How many whitespace-separated fields it has.
        found: usize,
    },
    /// Fewer than the 4 position fields (board, side to move, castling, en passant).
    #[error(
        "position `{text}`: expected at least 4 fields (board, side to move, castling, \
         en passant), found {found}"
    )]
    TooFewFields {
        /// The FEN or EPD line as given.
        text: String,
        /// How many position fields it has.
        found: usize,
    },
    /// The position fields do not parse (board, side to move, castling or en passant square).
    #[error("position `{text}`: {source}")]
    BadFen {
        /// The FEN or EPD line as given.
        text: String,
        /// shakmaty's reason.
        source: shakmaty::fen::ParseFenError,
    },
    /// The fields parse but the position is not legal (missing king, side not to move in
    /// check, ...).
    #[error("position `{text}`: {source}")]
    IllegalPosition {
        /// The FEN or EPD line as given.
        text: String,
        /// shakmaty's reasons ([`shakmaty::PositionError::kinds`]).
        source: Box<shakmaty::PositionError<Chess>>,
    },
    /// An EPD record's operations that cannot be read as meant: a double quote left open (it
    /// would swallow the operations after it), a second `id`, an `id` of more than one string,
    /// an empty `id`, or a `bm` without a move.
    #[error("EPD `{line}`: {problem}")]
    BadOperation {
        /// The EPD line (trimmed).
        line: String,
        /// What is wrong.
        problem: String,
    },
    /// An operation of an EPD line whose opcode is not one: an opcode starts with a letter and
    /// has at most 15 letters, digits and underscores (`bm`, `id`, `c0`, `hmvc`).
    #[error("EPD `{line}`: `{opcode}` is not an EPD opcode (an opcode starts with a letter and has at most 15 letters, digits and underscores){}", if opcode.chars().all(|c| c.is_ascii_digit()) { "; a FEN's halfmove and fullmove counters are not part of an EPD record: leave them out (or write them as `hmvc N; fmvn N;`)" } else { "" })]
    BadOpcode {
        /// The EPD line (trimmed).
        line: String,
        /// The opcode as written.
        opcode: String,
    },
    /// A best move (`bm`) of an EPD line that is not SAN.
    #[error("EPD `{line}`: best move `{san}`: {source}")]
    BadBestMove {
        /// The EPD line (trimmed).
        line: String,
        /// The best move as written.
        san: String,
        /// shakmaty's reason.
        source: shakmaty::san::ParseSanError,
    },
    /// A best move (`bm`) of an EPD line that is no legal move of the position, or is ambiguous.
    #[error("EPD `{line}`: best move `{san}`: {source}")]
    IllegalBestMove {
        /// The EPD line (trimmed).
        line: String,
        /// The best move as written.
        san: String,
        /// shakmaty's reason (illegal or ambiguous).
        source: shakmaty::san::SanError,
    },
    /// A best move (`bm`) of an EPD line written with a check (`+`) or mate (`#`) suffix that
    /// does not hold in the position: `+` needs a move that gives check (a mate is one), `#` a
    /// move that mates. A best move without a suffix is not checked for one.
    #[error(
        "EPD `{line}`: best move `{san}` (`bm`): `{}` says the move {}, but it {}; it is written `{written}`",
        suffix.char(),
        if *suffix == Suffix::Checkmate { "mates" } else { "gives check" },
        match (suffix, gives) { (Suffix::Check, None) => "does not", (_, None) => "gives no check", (_, Some(Suffix::Check)) => "only gives check", (_, Some(Suffix::Checkmate)) => "mates" }
    )]
    WrongSuffix {
        /// The EPD line (trimmed).
        line: String,
        /// The best move as written.
        san: String,
        /// The suffix written.
        suffix: Suffix,
        /// What the move gives: check, mate, or neither (None).
        gives: Option<Suffix>,
        /// The move in SAN with the suffix it does earn.
        written: String,
    },
    /// Two positions of an EPD file with the same `id`.
    #[error("id \"{id}\" is used twice (first on line {first})")]
    DuplicateId {
        /// The id.
        id: String,
        /// The line of its first position, from 1.
        first: usize,
    },
}

/// The operands of an EPD operation (the text between its opcode and its `;`): each a string
/// in double quotes (quotes removed) or a word without quotes, separated by whitespace. None if
/// that is not what the text is: a quote inside a word, or a string followed by something other
/// than whitespace (`"a"b`).
fn epd_operands(text: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (operand, after) = if let Some(quoted) = rest.strip_prefix('"') {
            let close = quoted.find('"')?;
            (&quoted[..close], &quoted[close + 1..])
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        if operand.contains('"') || !(after.is_empty() || after.starts_with(char::is_whitespace)) {
            return None;
        }
        out.push(operand);
        rest = after.trim_start();
    }
    Some(out)
}

/// Parses the position part of a FEN (6 fields) or EPD (the first 4 fields).
fn parse_position(fields: &[&str], text: &str) -> Result<Chess, ChessError> {
    if fields.len() < 4 {
        return Err(ChessError::TooFewFields {
            text: text.to_string(),
            found: fields.len(),
        });
    }
    let fen =
        Fen::from_ascii(fields.join(" ").as_bytes()).map_err(|source| ChessError::BadFen {
            text: text.to_string(),
            source,
        })?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|source| ChessError::IllegalPosition {
            text: text.to_string(),
            source: Box::new(source),
        })
}

impl ChessTree {
    /// A tree rooted at the position of a FEN (`board side castling en-passant [halfmove
    /// fullmove]`; the two counters may be left out, as in EPD). The error names what is wrong:
    /// a missing field, a field that does not parse, or an illegal position (missing king, side
    /// not to move in check, ...).
    pub fn new(fen: &str) -> Result<Self, ChessError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() > 6 {
            return Err(ChessError::TooManyFields {
                text: fen.to_string(),
                found: fields.len(),
            });
        }
        Ok(ChessTree {
            root: parse_position(&fields, fen)?,
            id: None,
            best_moves: Vec::new(),
            unknown: Vec::new(),
        })
    }

    /// A tree rooted at the position of an EPD line: the 4 position fields of a FEN, then
    /// operations, each an opcode, operands and `;`, e.g. `bm Qd1+; id "BK.01";`. Reads `bm`
    /// (best moves in SAN, checked to be legal in the position; a check `+` or mate `#` suffix
    /// must hold: `+` needs a move that gives check, a mate included, `#` one that mates; a move
    /// may be written without one) and `id` (one string, quotes removed: `id "a" "b"` is
    /// refused, not read as one name); other
    /// operations are ignored (those whose opcode is not a standard one are listed,
    /// [`ChessTree::unknown_opcodes`]), but each must have an opcode (a letter, then at most 14 letters,
    /// digits and underscores): the two counters of a six-field FEN are refused, not read as an
    /// operation that would swallow the `bm` after them.
    pub fn from_epd_line(line: &str) -> Result<Self, ChessError> {
        let line = line.trim();
        let mut rest = line;
        let mut fields = Vec::with_capacity(4);
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        let root = parse_position(&fields, line)?;
        let mut tree = ChessTree {
            root,
            id: None,
            best_moves: Vec::new(),
            unknown: Vec::new(),
        };
        // Operations end at a `;` outside double quotes (a comment `c0 "a; b";` is one).
        let mut quoted = false;
        let ops = rest.split(|c: char| {
            if c == '"' {
                quoted = !quoted;
            }
            c == ';' && !quoted
        });
        let bad = |problem: &str| ChessError::BadOperation {
            line: line.to_string(),
            problem: problem.to_string(),
        };
        if rest.matches('"').count() % 2 == 1 {
            return Err(bad(
                "a double quote is not closed (it would take in every operation after it)",
            ));
        }
        for op in ops {
            let op = op.trim();
            if op.is_empty() {
                continue;
            }
            let (opcode, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            let operands = operands.trim();
            let valid = opcode.len() <= 15
                && opcode.starts_with(|c: char| c.is_ascii_alphabetic())
                && opcode
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(ChessError::BadOpcode {
                    line: line.to_string(),
                    opcode: opcode.to_string(),
                });
            }
            match opcode {
                "id" => {
                    if tree.id.is_some() {
                        return Err(bad("a second `id`: a position has one name"));
                    }
                    let id = match epd_operands(operands).as_deref() {
                        Some([]) => "",
                        Some([id]) => id,
                        Some(several) => {
                            return Err(bad(&format!(
                                "`id {operands}` gives {} names: a position has one (one string, \
                                 in double quotes if it has spaces: `id \"{}\"`)",
                                several.len(),
                                several.join(" ")
                            )))
                        }
                        None => {
                            return Err(bad(&format!(
                                "`id {operands}`: a double quote inside a name, or a name right \
                                 after a closing quote; an `id` is one string, e.g. `id \"BK.01\"`"
                            )))
                        }
                    };
                    if id.trim().is_empty() {
                        return Err(bad("an empty `id`: name the position"));
                    }
                    tree.id = Some(id.to_string());
                }
                "bm" => {
                    if operands.is_empty() {
                        return Err(bad(
                            "`bm` names no move: give the best moves in SAN (`bm Qd1+;`) or \
                             leave the operation out",
                        ));
                    }
                    for san in operands.split_whitespace() {
                        let parsed: SanPlus =
                            san.parse().map_err(|source| ChessError::BadBestMove {
                                line: line.to_string(),
                                san: san.to_string(),
                                source,
                            })?;
                        let mv = parsed.san.to_move(&tree.root).map_err(|source| {
                            ChessError::IllegalBestMove {
                                line: line.to_string(),
                                san: san.to_string(),
                                source,
                            }
                        })?;
                        // A suffix is a claim about the move: `+` that it gives check (a mate
                        // does), `#` that it mates. One that does not hold is refused, not
                        // dropped: the line says something else than the position.
                        if let Some(suffix) = parsed.suffix {
                            let earned = SanPlus::from_move(tree.root.clone(), mv);
                            let holds = match suffix {
                                Suffix::Check => earned.suffix.is_some(),
                                Suffix::Checkmate => earned.suffix == Some(Suffix::Checkmate),
                            };
                            if !holds {
                                return Err(ChessError::WrongSuffix {
                                    line: line.to_string(),
                                    san: san.to_string(),
                                    suffix,
                                    gives: earned.suffix,
                                    written: earned.to_string(),
                                });
                            }
                        }
                        tree.best_moves.push(san.to_string());
                    }
                }
                other if !STANDARD_EPD_OPCODES.contains(&other) => {
                    tree.unknown.push(other.to_string())
                }
                _ => {}
            }
        }
        Ok(tree)
    }

    /// The opcodes of the EPD line that are neither read nor standard (see
    /// [`STANDARD_EPD_OPCODES`]), in line order: ignored.
    pub fn unknown_opcodes(&self) -> &[String] {
        &self.unknown
    }

    /// The position's EPD `id`, if it had one.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The position's EPD best moves (`bm`), in SAN as written (empty if none).
    pub fn best_moves(&self) -> &[String] {
        &self.best_moves
    }

    /// The root position.
    pub fn position(&self) -> &Chess {
        &self.root
    }

    /// Whether `mv`, a legal move of the root, is one of the EPD best moves.
    pub fn is_best_move(&self, mv: Move) -> bool {
        self.best_moves.iter().any(|s| {
            s.parse::<San>()
                .ok()
                .and_then(|san| san.to_move(&self.root).ok())
                == Some(mv)
        })
    }

    /// The SAN of `mv`, a legal move of `node`, with its check (`+`) or mate (`#`) suffix, as
    /// EPD writes best moves.
    pub fn san(&self, node: &Chess, mv: Move) -> String {
        SanPlus::from_move(node.clone(), mv).to_string()
    }

    /// The UCI (coordinate) text of `mv`, a legal move of the root: `e2e4`, `e7e8q`, castling
    /// as the king's move (`e1g1`), as the paper's Table IV writes moves.
    pub fn uci(&self, mv: Move) -> String {
        mv.to_uci(CastlingMode::Standard).to_string()
    }

    /// The root move at `index` in search order (`self.moves(&self.root())`), as
    /// [`algorithms::Scheme::root_move`] names it; None if there is no such move.
    pub fn root_move_at(&self, index: usize) -> Option<Move> {
        let moves = self.moves(&self.root);
        (index < moves.len()).then(|| moves.get(index))
    }

    /// Capture-only alpha-beta quiescence search (fail-soft), counting its nodes in `count`.
    ///
    /// In check: all the legal moves (evasions); none is mate. Not in check: a position
    /// without legal moves is stalemate (0), checked before the depth limit and standing pat;
    /// it has one if it has a capture or [`NotInCheck::quick_quiet_move`] finds a quiet one,
    /// and only if both fail does it generate the full list to tell. The captures are
    /// generated after standing pat failed, in the order of the filtered full list.
    fn quiesce(pos: &Chess, mut alpha: Value, beta: Value, ply: u32, count: &mut u32) -> Value {
        let mut best;
        // Filled in place (the list is a 270-move array: moving it costs a copy).
        let mut moves = shakmaty::MoveList::new();
        if pos.is_check() {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE;
            }
            if ply >= QUIESCENCE_MAX_PLY {
                return static_eval(pos);
            }
            // No standing pat in check: every evasion is searched.
            best = -MATE;
        } else {
            let gen = NotInCheck::new(pos);
            let mut generated = false;
            if !gen.quick_quiet_move() {
                gen.captures(pos, &mut moves);
                if moves.is_empty() && pos.legal_moves().is_empty() {
                    return 0;
                }
                generated = true;
            }
            if ply >= QUIESCENCE_MAX_PLY {
                return static_eval(pos);
            }
            best = static_eval(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            if !generated {
                gen.captures(pos, &mut moves);
            }
        }
        order_moves(&mut moves);
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            *count += 1;
            let v = -Self::quiesce(&child, -beta, -alpha, ply + 1, count);
            best = best.max(v);
            if best >= beta {
                break;
            }
            alpha = alpha.max(best);
        }
        best
    }
}

/// The text of the shipped `chess/positions/bratko-kopec.epd`: the 24 Bratko–Kopec positions,
/// one EPD record per line.
pub const BRATKO_KOPEC_EPD: &str = include_str!("../positions/bratko-kopec.epd");

/// A line of an EPD file that does not hold a position, and why.
#[derive(thiserror::Error, Clone, Debug)]
#[error("line {line}: {error}")]
pub struct EpdError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    #[source]
    pub error: ChessError,
}

/// The positions of an EPD file's text, one per line, each with its line number (from 1), in
/// file order. Blank lines and lines starting with `#` are skipped; any other line must be an
/// EPD record ([`ChessTree::from_epd_line`]), and two positions may not share an `id`. The error
/// names the first bad line.
///
/// ```
/// let text = "# two positions\n4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"a\";\n\n4k3/8/8/8/8/8/8/4K3 b - - id \"b\";\n";
/// let positions = chess::parse_epd(text)?;
/// assert_eq!(positions.len(), 2);
/// assert_eq!((positions[1].0, positions[1].1.id()), (4, Some("b")));
/// assert_eq!(chess::parse_epd("8/8/8 w - -").unwrap_err().line, 1);
/// # Ok::<(), chess::EpdError>(())
/// ```
pub fn parse_epd(text: &str) -> Result<Vec<(usize, ChessTree)>, EpdError> {
    let mut out: Vec<(usize, ChessTree)> = Vec::new();
    // The line of each id seen so far: one look-up per position, so a file of n positions is
    // checked in O(n), not by comparing every pair.
    let mut first_line: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let tree =
            ChessTree::from_epd_line(trimmed).map_err(|error| EpdError { line: i + 1, error })?;
        if let Some(id) = tree.id() {
            match first_line.entry(id.to_string()) {
                std::collections::hash_map::Entry::Occupied(first) => {
                    return Err(EpdError {
                        line: i + 1,
                        error: ChessError::DuplicateId {
                            id: id.to_string(),
                            first: *first.get(),
                        },
                    });
                }
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(i + 1);
                }
            }
        }
        out.push((i + 1, tree));
    }
    Ok(out)
}

/// The 24 Bratko–Kopec positions (Bratko and Kopec 1982; the paper's Table IV boards A–X are
/// BK.01–BK.24 in order), read from the shipped `chess/positions/bratko-kopec.epd`: for each, its
/// id, its tree and its best moves in SAN.
pub fn bratko_kopec() -> Vec<(String, ChessTree, Vec<String>)> {
    BRATKO_KOPEC_EPD
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let tree = ChessTree::from_epd_line(l).expect("the shipped EPD file parses");
            let id = tree
                .id()
                .expect("every shipped position has an id")
                .to_string();
            let bm = tree.best_moves().to_vec();
            (id, tree, bm)
        })
        .collect()
}

impl GameTree for ChessTree {
    type Node = Chess;
    type Move = Move;
    type Moves = ChessMoves;

    fn root(&self) -> Chess {
        self.root.clone()
    }

    /// The legal moves in search order ([`order_moves`]); empty at mate and stalemate.
    fn moves(&self, node: &Chess) -> ChessMoves {
        let mut moves = node.legal_moves();
        order_moves(&mut moves);
        ChessMoves(moves)
    }

    /// Copy-make: a clone of `node` with `mv` played.
    fn play(&self, node: &Chess, mv: Move) -> Chess {
        let mut child = node.clone();
        child.play_unchecked(mv);
        child
    }

    /// A full-window capture-only quiescence search from `node`: the side to move may stand pat
    /// on [`static_eval`] or try its captures (MVV/LVA order), recursively; in check it may not
    /// stand pat and every evasion is searched; a position without legal moves is `-MATE` if in
    /// check, 0 (stalemate) otherwise; at [`QUIESCENCE_MAX_PLY`] plies the static evaluation
    /// stands. `quiescence` counts the positions searched below `node` (0 when it stands pat at
    /// once or has no moves). A pure function of the position.
    fn evaluate(&self, node: &Chess) -> Eval {
        let mut count = 0;
        let value = Self::quiesce(node, -MATE - 1, MATE + 1, 0, &mut count);
        Eval {
            value,
            quiescence: count,
        }
    }

    /// shakmaty's 64-bit Zobrist hash (board, side to move, castling rights, and the en passant
    /// square when an en passant capture is legal).
    fn key(&self, node: &Chess) -> u64 {
        node.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
    }
}
