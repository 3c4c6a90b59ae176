//! The chess positions of a plan (`workload: Chess(positions: …)`): read once when the scenario
//! is loaded, each position's tree built once and shared by all its runs, and each position's
//! table-free reference value computed once, on first use, by a plain recursive alpha-beta
//! outside the simulator.
//!
//! Positions take the place of seeds: position n (1-based, in file order) is seed n of the
//! sweep, so the baselines, summaries and reports of synthetic sweeps work unchanged.

use algorithms::{alphabeta_recursive, GameTree, Value, INF};
use chess::ChessTree;
use std::collections::HashMap;
use std::sync::OnceLock;

pub use crate::input::MAX_EPD_BYTES;

/// The chess positions of a plan.
#[derive(Clone, Debug)]
pub struct ChessSet {
    /// Where they come from, in words: `the 24 Bratko–Kopec positions` or the EPD file's path.
    pub source: String,
    /// Whether these are the shipped Bratko–Kopec positions (the paper's boards A–X).
    pub bratko_kopec: bool,
    /// Every position of the file, in file order: position n is `positions[n - 1]`.
    pub positions: Vec<ChessPosition>,
    /// The number of each position by its id (explicit or `#n`), for [`ChessSet::number_of`].
    by_id: HashMap<String, u64>,
    /// What reading the file found to warn about (operations ignored whose opcode is not a
    /// standard EPD one), as `FILE:LINE: message`.
    pub warnings: Vec<String>,
}

/// One position of a plan.
#[derive(Clone, Debug)]
pub struct ChessPosition {
    /// Its number, from 1 in file order: its seed in the sweep.
    pub number: u64,
    /// Its EPD `id` (`BK.01`), or `#n` (its number) when the line has none. Unique in its set:
    /// an EPD file may not give an id of the form `#n` itself ([`ChessSet::read`]).
    pub id: String,
    /// The line of the EPD file it is on (for the shipped file, of that file).
    pub line: usize,
    /// Its game tree, built once.
    pub tree: ChessTree,
    /// The table-free value per tree configuration of the plan (index = configuration), filled
    /// on first use.
    references: Vec<OnceLock<Value>>,
}

impl ChessPosition {
    /// A position of the sweep.
    pub fn new(number: u64, line: usize, tree: ChessTree) -> Self {
        let id = tree
            .id()
            .map_or_else(|| format!("#{number}"), str::to_string);
        ChessPosition {
            number,
            id,
            line,
            tree,
            references: Vec::new(),
        }
    }

    /// The root value of a full-window alpha-beta to `depth` plies without any table (plain
    /// recursion, outside the simulator), for configuration `config` of `configs`; computed once
    /// and kept (a run of a table-free search must return exactly this value).
    pub fn reference_value(&self, config: usize, depth: u32) -> Value {
        let compute = || {
            let mut leaves = 0;
            alphabeta_recursive(&self.tree, &self.tree.root(), -INF, INF, depth, &mut leaves)
        };
        match self.references.get(config) {
            Some(cell) => *cell.get_or_init(compute),
            None => compute(),
        }
    }

    /// The paper's board letter (Table IV: A–X are BK.01–BK.24 in order), for positions 1–26 of
    /// the shipped set; None otherwise.
    pub fn board(&self, bratko_kopec: bool) -> Option<char> {
        (bratko_kopec && (1..=26).contains(&self.number))
            .then(|| (b'A' + (self.number - 1) as u8) as char)
    }

    /// The UCI text of the root move at `index` (search order) and whether it is one of the
    /// EPD's best moves (None when the EPD gives none).
    pub fn root_move(&self, index: usize) -> Option<(String, Option<bool>)> {
        let mv = self.tree.root_move_at(index)?;
        let ok = (!self.tree.best_moves().is_empty()).then(|| self.tree.is_best_move(mv));
        Some((self.tree.uci(mv), ok))
    }

    /// The number of legal moves at the root.
    pub fn root_width(&self) -> usize {
        use algorithms::MoveList;
        self.tree.moves(&self.tree.root()).len()
    }
}

impl ChessSet {
    /// The shipped Bratko–Kopec positions.
    pub fn bratko_kopec() -> Self {
        let positions = chess::parse_epd(chess::BRATKO_KOPEC_EPD)
            .expect("the shipped EPD file parses")
            .into_iter()
            .enumerate()
            .map(|(i, (line, tree))| ChessPosition::new(i as u64 + 1, line, tree))
            .collect();
        ChessSet::of("the 24 Bratko–Kopec positions".into(), true, positions)
    }

    /// A set of `positions` (numbered 1, 2, … in order, their ids distinct), indexed by id.
    fn of(source: String, bratko_kopec: bool, positions: Vec<ChessPosition>) -> Self {
        let by_id = positions.iter().map(|p| (p.id.clone(), p.number)).collect();
        ChessSet {
            source,
            bratko_kopec,
            positions,
            by_id,
            warnings: Vec::new(),
        }
    }

    /// The positions of an EPD file (a regular file of at most [`MAX_EPD_BYTES`], UTF-8). The
    /// error names the file and the line: `FILE:LINE: message`.
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        let bytes = crate::input::read_bounded(path, MAX_EPD_BYTES, "positions file")?;
        let text = crate::input::decode_text(&bytes)
            .map_err(|(line, col, m)| format!("{}:{line}:{col}: {m}", path.display()))?;
        let parsed = chess::parse_epd(text)
            .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.error))?;
        if parsed.is_empty() {
            return Err(format!(
                "{}: the positions file holds no position",
                path.display()
            ));
        }
        // `#n` names position n when its line has no id: an explicit id of that form could be
        // another position's name, so the file may not give one.
        if let Some((line, id)) = parsed
            .iter()
            .find_map(|(line, t)| t.id().filter(|id| is_generated_id(id)).map(|id| (line, id)))
        {
            return Err(format!(
                "{}:{line}: id \"{id}\" has the form #N, which gtsim keeps for the positions without an id (position N of the file is #N): give this position another id",
                path.display()
            ));
        }
        // Operations gtsim ignores whose opcode no EPD reader knows: most likely a typo (`bn`
        // for `bm`), which would leave best_move_ok empty without a word.
        let warnings = parsed
            .iter()
            .flat_map(|(line, tree)| {
                tree.unknown_opcodes().iter().map(move |op| {
                    let meant = ["bm", "am", "id"]
                        .into_iter()
                        .find(|k| {
                            k.len() == op.len()
                                && k.chars().zip(op.chars()).filter(|(a, b)| a != b).count() == 1
                        })
                        .map_or(String::new(), |k| format!(" (is `{k}` meant?)"));
                    format!(
                        "{}:{line}: the operation `{op}` is ignored: gtsim reads `bm` and `id`, and `{op}` is not a standard EPD opcode{meant}",
                        path.display()
                    )
                })
            })
            .collect();
        let positions = parsed
            .into_iter()
            .enumerate()
            .map(|(i, (line, tree))| ChessPosition::new(i as u64 + 1, line, tree))
            .collect();
        let mut set = ChessSet::of(path.display().to_string(), false, positions);
        set.warnings = warnings;
        Ok(set)
    }

    /// Makes room for the reference values of `configs` tree configurations (call once the
    /// plan's configurations are known).
    pub fn prepare(&mut self, configs: usize) {
        for p in &mut self.positions {
            p.references = (0..configs).map(|_| OnceLock::new()).collect();
        }
    }

    /// Position number `n` (its seed), if there is one.
    pub fn get(&self, n: u64) -> Option<&ChessPosition> {
        n.checked_sub(1)
            .and_then(|i| self.positions.get(usize::try_from(i).ok()?))
    }

    /// The number of the position with EPD id `id`.
    pub fn number_of(&self, id: &str) -> Option<u64> {
        self.by_id.get(id).copied()
    }
}

/// Whether `id` has the form of the id given to a position without one: `#` and digits.
fn is_generated_id(id: &str) -> bool {
    id.strip_prefix('#')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
