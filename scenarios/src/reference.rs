//! Published figures a scenario is compared with, read from CSV. Three layouts, one per table of
//! Marsland & Popowich (1985), told apart by the header ([`read_paper_table`]):
//!
//! - **per fanout** (Table II, [`read`]): a column `fanout` and any of `leaf_nodes`, `secs`,
//!   `speedup`, `search_overhead_pct`, `time_overhead_pct`; one row per processor count.
//! - **per table and storage** (Table III, [`read_table_storage`]): the columns `table`
//!   (`global` or `local`), `storage` (`all` or `partial`) and `fanout`, and any of the figures
//!   above; one row per (table, storage, fanout).
//! - **per board** (Table IV, [`read_per_board`]): the columns `board` (a letter A–X, the
//!   Bratko–Kopec positions BK.01–BK.24 in order), `move` (the move chosen by one processor, in
//!   coordinates such as `e4e5`; a trailing `!` marks the EPD's best move), and for each
//!   processor count N the columns `leafN` and `minN` (leaf nodes, minutes) and optionally
//!   `speedupN`; `leaf1` and `min1` are required. One row per board.
//!
//! Lines starting with `#` are comments (kept as the table's provenance); blank lines are
//! ignored. Every reader is strict: an unknown or repeated column, a row with the wrong number of
//! fields, a value that is not a finite number (counts, times and speedups must not be negative,
//! overheads not below −100 %), a row given twice: each is an error naming the file and line.
//!
//! ```no_run
//! use scenarios::reference::{read_paper_table, PaperTable};
//! use std::path::Path;
//!
//! match read_paper_table(Path::new("reference/parabelle-table4-6ply.csv"), &[1, 2, 3, 4])? {
//!     PaperTable::PerBoard(t) => assert_eq!(t.rows[0].position, "BK.02"),
//!     _ => unreachable!("the header has a 'board' column"),
//! }
//! # Ok::<(), String>(())
//! ```

use crate::results::Summary;
use algorithms::{Storage, TableKind};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One published row of a per-fanout table (Table II), or the figures of one row of Table III.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReferenceRow {
    /// The processor count f the row is for (column `fanout`).
    pub fanout: u32,
    /// Published leaf nodes (column `leaf_nodes`).
    pub leaf_nodes: Option<f64>,
    /// Published elapsed time in seconds (column `secs`).
    pub secs: Option<f64>,
    /// Published speedup (column `speedup`).
    pub speedup: Option<f64>,
    /// Published search overhead in percent (column `search_overhead_pct`).
    pub search_overhead_pct: Option<f64>,
    /// Published time overhead in percent (column `time_overhead_pct`).
    pub time_overhead_pct: Option<f64>,
}

/// A published table and where it came from; `R` is its row type.
#[derive(Clone, Debug)]
pub struct Published<R> {
    /// The table's path, resolved against the scenario file's folder.
    pub path: PathBuf,
    /// The file's comment lines (its provenance), without the `#`.
    pub notes: Vec<String>,
    /// The rows, in file order.
    pub rows: Vec<R>,
    /// Figures that will not be shown (processor counts the sweep does not run), as
    /// `FILE:LINE: message`.
    pub warnings: Vec<String>,
}

/// A per-fanout reference table (Table II): one row per processor count.
pub type Reference = Published<ReferenceRow>;

/// One row of Table III: a transposition table's placement and storage, and the figures for one
/// processor count.
#[derive(Clone, Debug, PartialEq)]
pub struct TableStorageRow {
    /// Column `table`: [`TableKind::Global`] or [`TableKind::Local`] (never `None`).
    pub table: TableKind,
    /// Column `storage`: all or partial.
    pub storage: Storage,
    /// The processor count and the published figures.
    pub figures: ReferenceRow,
}

/// One processor count's figures for one board of Table IV.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardFigures {
    /// The processor count N (columns `leafN`, `minN`, `speedupN`).
    pub fanout: u32,
    /// Leaf nodes (column `leafN`).
    pub leaf_nodes: f64,
    /// Elapsed time in minutes, as printed (truncated; column `minN`).
    pub minutes: f64,
    /// Speedup over one processor (column `speedupN`), when the table gives it.
    pub speedup: Option<f64>,
}

/// One row of Table IV: a Bratko–Kopec position and its figures per processor count.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    /// The paper's board letter, `A`–`X`.
    pub board: char,
    /// The position's EPD id: `BK.01` for board A … `BK.24` for board X.
    pub position: String,
    /// The move one processor chose, in coordinates (`e5e6`), without the `!`.
    pub chosen_move: String,
    /// The paper marked the move with `!`: it is the EPD's best move.
    pub epd_best: bool,
    /// The figures per processor count, by increasing count.
    pub by_fanout: Vec<BoardFigures>,
}

impl BoardRow {
    /// The figures for processor count `fanout`, if the table has them.
    pub fn at(&self, fanout: u32) -> Option<&BoardFigures> {
        self.by_fanout.iter().find(|b| b.fanout == fanout)
    }
}

/// A published table of any of the three layouts, as [`read_paper_table`] found it.
#[derive(Clone, Debug)]
pub enum PaperTable {
    /// Per processor count (Table II).
    Fanout(Reference),
    /// Per transposition table, storage and processor count (Table III).
    TableStorage(Published<TableStorageRow>),
    /// Per board (Table IV).
    PerBoard(Published<BoardRow>),
}

impl PaperTable {
    /// The table's path.
    pub fn path(&self) -> &Path {
        match self {
            PaperTable::Fanout(t) => &t.path,
            PaperTable::TableStorage(t) => &t.path,
            PaperTable::PerBoard(t) => &t.path,
        }
    }
    /// The file's comment lines.
    pub fn notes(&self) -> &[String] {
        match self {
            PaperTable::Fanout(t) => &t.notes,
            PaperTable::TableStorage(t) => &t.notes,
            PaperTable::PerBoard(t) => &t.notes,
        }
    }
    /// Figures that will not be shown, as `FILE:LINE: message`.
    pub fn warnings(&self) -> &[String] {
        match self {
            PaperTable::Fanout(t) => &t.warnings,
            PaperTable::TableStorage(t) => &t.warnings,
            PaperTable::PerBoard(t) => &t.warnings,
        }
    }
}

impl Published<TableStorageRow> {
    /// The (table, storage) configurations in the order they first appear.
    pub fn configurations(&self) -> Vec<(TableKind, Storage)> {
        crate::util::distinct(&self.rows, |r| (r.table, r.storage))
    }

    /// One configuration's rows as a per-fanout table (for [`markdown`]); the notes and
    /// warnings are the whole file's. No rows when the table does not have the configuration.
    pub fn configuration(&self, table: TableKind, storage: Storage) -> Reference {
        Published {
            path: self.path.clone(),
            notes: self.notes.clone(),
            rows: self
                .rows
                .iter()
                .filter(|r| r.table == table && r.storage == storage)
                .map(|r| r.figures.clone())
                .collect(),
            warnings: self.warnings.clone(),
        }
    }
}

/// The columns a per-fanout reference table may have.
pub const REFERENCE_COLUMNS: [&str; 6] = [
    "fanout",
    "leaf_nodes",
    "secs",
    "speedup",
    "search_overhead_pct",
    "time_overhead_pct",
];

/// The key columns of Table III's layout; its other columns are [`REFERENCE_COLUMNS`]' figures.
pub const TABLE_STORAGE_KEYS: [&str; 2] = ["table", "storage"];

/// The EPD id of a Table IV board letter: `A` → `BK.01` … `X` → `BK.24`; `None` for any other
/// character.
pub fn bratko_kopec_id(board: char) -> Option<String> {
    ('A'..='X')
        .contains(&board)
        .then(|| format!("BK.{:02}", board as u32 - 'A' as u32 + 1))
}

/// Which layout a header is: the first of `board`, `table`/`storage`, `fanout` it names.
fn layout(header: &[&str]) -> Option<Layout> {
    if header.contains(&"board") {
        Some(Layout::PerBoard)
    } else if TABLE_STORAGE_KEYS.iter().any(|k| header.contains(k)) {
        Some(Layout::TableStorage)
    } else if header.contains(&"fanout") {
        Some(Layout::Fanout)
    } else {
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Fanout,
    TableStorage,
    PerBoard,
}

/// Reads a published table of any layout (a regular file of at most
/// [`crate::input::MAX_REFERENCE_BYTES`], UTF-8, a leading byte-order mark ignored), telling the
/// layout from the header: a `board` column makes it per board (Table IV), a `table` or
/// `storage` column per table and storage (Table III), otherwise per fanout (Table II). Errors
/// and warnings as the layout's own reader: [`read`], [`read_table_storage`],
/// [`read_per_board`].
pub fn read_paper_table(path: &Path, fanouts: &[u32]) -> Result<PaperTable, String> {
    let text = load(path)?;
    let csv = Csv::parse(path, &text)?;
    let fields: Vec<&str> = csv.header.iter().map(String::as_str).collect();
    match layout(&fields) {
        Some(Layout::Fanout) => fanout_table(csv, fanouts).map(PaperTable::Fanout),
        Some(Layout::TableStorage) => {
            table_storage_table(csv, fanouts).map(PaperTable::TableStorage)
        }
        Some(Layout::PerBoard) => per_board_table(csv, fanouts).map(PaperTable::PerBoard),
        None => Err(csv.at(
            csv.header_line,
            "the header has none of the columns 'fanout' (Table II), 'table' and 'storage' \
             (Table III), 'board' (Table IV)"
                .into(),
        )),
    }
}

/// Reads a per-fanout reference CSV (Table II; a regular file of at most
/// [`crate::input::MAX_REFERENCE_BYTES`], UTF-8, a leading byte-order mark ignored) for a sweep of
/// processor counts `fanouts`. Errors name the file and line: an unknown or repeated column, a
/// value that is not a finite number (NaN and inf are refused; counts, times and speedups must
/// not be negative, overheads not below −100 %), a processor count given twice. Rows for processor counts the sweep does not
/// run are kept out of the report with a warning (not an error: a scenario copied with fewer
/// fanouts keeps its table).
pub fn read(path: &Path, fanouts: &[u32]) -> Result<Reference, String> {
    let text = load(path)?;
    fanout_table(Csv::parse(path, &text)?, fanouts)
}

/// Reads a Table III CSV: as [`read`], with the key columns `table` (`global` or `local`) and
/// `storage` (`all` or `partial`) before the figures; a (table, storage, fanout) given twice is
/// an error, a fanout the sweep does not run a warning.
pub fn read_table_storage(
    path: &Path,
    fanouts: &[u32],
) -> Result<Published<TableStorageRow>, String> {
    let text = load(path)?;
    table_storage_table(Csv::parse(path, &text)?, fanouts)
}

/// Reads a Table IV CSV (see the module doc for its columns): a board letter outside A–X or
/// given twice, a move that is not in coordinates (`e2e4`, `e7e8q`, an optional trailing `!`), a
/// processor count with `leafN` but no `minN` (or the reverse), a column name such as `leaf01`:
/// each is an error naming the file and line. Processor counts the sweep does not run are
/// warnings at the header line.
pub fn read_per_board(path: &Path, fanouts: &[u32]) -> Result<Published<BoardRow>, String> {
    let text = load(path)?;
    per_board_table(Csv::parse(path, &text)?, fanouts)
}

/// The file's text (bounded, UTF-8, BOM dropped), with errors that name it.
fn load(path: &Path) -> Result<String, String> {
    let bytes =
        crate::input::read_bounded(path, crate::input::MAX_REFERENCE_BYTES, "reference table")?;
    crate::input::decode_text(&bytes)
        .map(str::to_string)
        .map_err(|(line, col, m)| format!("{}:{line}:{col}: {m}", path.display()))
}

/// A CSV file split into its comments, header and data lines; the header's columns are checked
/// for repeats only (each layout checks their names).
struct Csv<'a> {
    path: &'a Path,
    notes: Vec<String>,
    header_line: usize,
    header: Vec<String>,
    /// (line number from 1, the line's fields, trimmed).
    lines: Vec<(usize, Vec<&'a str>)>,
}

impl<'a> Csv<'a> {
    fn parse(path: &'a Path, text: &'a str) -> Result<Csv<'a>, String> {
        let mut notes = Vec::new();
        let mut header: Option<(usize, Vec<String>)> = None;
        let mut lines = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(c) = line.strip_prefix('#') {
                notes.push(c.trim().to_string());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if header.is_none() {
                header = Some((n + 1, fields.iter().map(|s| s.to_string()).collect()));
            } else {
                lines.push((n + 1, fields));
            }
        }
        let Some((header_line, header)) = header else {
            return Err(format!(
                "{}: the reference table has no rows",
                path.display()
            ));
        };
        Ok(Csv {
            path,
            notes,
            header_line,
            header,
            lines,
        })
    }

    /// `FILE:LINE: message`.
    fn at(&self, line: usize, m: String) -> String {
        format!("{}:{line}: {m}", self.path.display())
    }

    /// Checks the header's columns in order: each must be `known` and appear once.
    fn check_header(&self, known: impl Fn(&str) -> bool, expected: &str) -> Result<(), String> {
        for (i, name) in self.header.iter().enumerate() {
            if !known(name) {
                return Err(self.at(
                    self.header_line,
                    format!("unknown column '{name}' (the columns are {expected})"),
                ));
            }
            if self.header[..i].contains(name) {
                return Err(self.at(self.header_line, format!("column '{name}' appears twice")));
            }
        }
        Ok(())
    }

    /// Checks a data line has one field per column.
    fn check_width(&self, line: usize, fields: &[&str]) -> Result<(), String> {
        if fields.len() != self.header.len() {
            return Err(self.at(
                line,
                format!(
                    "{} fields, the header has {}",
                    fields.len(),
                    self.header.len()
                ),
            ));
        }
        Ok(())
    }

    fn no_rows(&self) -> String {
        format!("{}: the reference table has no rows", self.path.display())
    }

    fn into_published<R>(self, rows: Vec<R>, warnings: Vec<String>) -> Published<R> {
        Published {
            path: self.path.to_path_buf(),
            notes: self.notes,
            rows,
            warnings,
        }
    }
}

/// A finite number; with `nonnegative`, also not below zero.
fn number(name: &str, value: &str, nonnegative: bool) -> Result<f64, String> {
    let x = value
        .parse::<f64>()
        .map_err(|_| format!("column {name}: '{value}' is not a number"))?;
    if !x.is_finite() {
        return Err(format!("column {name}: '{value}' is not a finite number"));
    }
    if nonnegative && x < 0.0 {
        return Err(format!("column {name}: '{value}' is negative"));
    }
    Ok(x)
}

/// An overhead in percent: a finite number not below −100 (eqs. 9 and 11 divide counts and
/// times that are never negative, so neither overhead can be lower).
fn overhead(name: &str, value: &str) -> Result<f64, String> {
    let x = number(name, value, false)?;
    if x < -100.0 {
        return Err(format!(
            "column {name}: '{value}' is below -100, which no overhead can be (eqs. 9 and 11: a ratio of leaf counts or times, never negative, minus 1, in %)"
        ));
    }
    Ok(x)
}

/// A processor count: a whole number >= 1 (one too large to be a processor count is said as
/// such).
fn fanout(value: &str) -> Result<u32, String> {
    let digits = value.strip_prefix('+').unwrap_or(value);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match value.parse::<u32>() {
        Ok(f) if f >= 1 => Ok(f),
        Err(_) if whole => Err(format!(
            "fanout '{value}' is far more processors than a sweep can run (at most {})",
            crate::input::MAX_FANOUT
        )),
        _ => Err(format!("fanout '{value}' is not a whole number >= 1")),
    }
}

/// Sets one of [`REFERENCE_COLUMNS`] (a name checked by the header) on `row`.
fn set_figure(row: &mut ReferenceRow, name: &str, value: &str) -> Result<(), String> {
    match name {
        "fanout" => row.fanout = fanout(value)?,
        "leaf_nodes" => row.leaf_nodes = Some(number(name, value, true)?),
        "secs" => row.secs = Some(number(name, value, true)?),
        "speedup" => row.speedup = Some(number(name, value, true)?),
        "search_overhead_pct" => row.search_overhead_pct = Some(overhead(name, value)?),
        "time_overhead_pct" => row.time_overhead_pct = Some(overhead(name, value)?),
        _ => unreachable!("the header was checked"),
    }
    Ok(())
}

fn not_in_sweep(f: u32) -> String {
    format!("fanout {f} is not in the sweep (sweep.fanout); this row is not shown")
}

fn fanout_table(csv: Csv<'_>, fanouts: &[u32]) -> Result<Reference, String> {
    if !csv.header.iter().any(|c| c == "fanout") {
        return Err(csv.at(csv.header_line, "the header has no 'fanout' column".into()));
    }
    csv.check_header(
        |name| REFERENCE_COLUMNS.contains(&name),
        &REFERENCE_COLUMNS.join(", "),
    )?;
    let mut rows: Vec<ReferenceRow> = Vec::new();
    let mut first_line = HashMap::new();
    let mut warnings = Vec::new();
    for (n, fields) in &csv.lines {
        csv.check_width(*n, fields)?;
        let mut row = ReferenceRow::default();
        for (name, value) in csv.header.iter().zip(fields) {
            set_figure(&mut row, name, value).map_err(|m| csv.at(*n, m))?;
        }
        if let Some(first) = first_line.insert(row.fanout, *n) {
            return Err(csv.at(
                *n,
                format!(
                    "a second row for fanout {} (the first is on line {first})",
                    row.fanout
                ),
            ));
        }
        if !fanouts.contains(&row.fanout) {
            warnings.push(csv.at(*n, not_in_sweep(row.fanout)));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(csv.no_rows());
    }
    Ok(csv.into_published(rows, warnings))
}

fn table_storage_table(
    csv: Csv<'_>,
    fanouts: &[u32],
) -> Result<Published<TableStorageRow>, String> {
    for key in ["table", "storage", "fanout"] {
        if !csv.header.iter().any(|c| c == key) {
            return Err(csv.at(csv.header_line, format!("the header has no '{key}' column")));
        }
    }
    let columns: Vec<&str> = TABLE_STORAGE_KEYS
        .iter()
        .chain(&REFERENCE_COLUMNS)
        .copied()
        .collect();
    csv.check_header(|name| columns.contains(&name), &columns.join(", "))?;
    let mut rows: Vec<TableStorageRow> = Vec::new();
    // The algorithms' table types are not `Hash`; the table is small.
    let mut first_line: Vec<((TableKind, Storage, u32), usize)> = Vec::new();
    let mut warnings = Vec::new();
    for (n, fields) in &csv.lines {
        csv.check_width(*n, fields)?;
        let mut table = TableKind::None;
        let mut storage = Storage::All;
        let mut figures = ReferenceRow::default();
        for (name, value) in csv.header.iter().zip(fields) {
            match name.as_str() {
                "table" => {
                    table = match *value {
                        "global" => TableKind::Global,
                        "local" => TableKind::Local,
                        _ => {
                            return Err(csv.at(
                                *n,
                                format!("column table: '{value}' is neither 'global' nor 'local'"),
                            ))
                        }
                    }
                }
                "storage" => {
                    storage = match *value {
                        "all" => Storage::All,
                        "partial" => Storage::Partial,
                        _ => {
                            return Err(csv.at(
                                *n,
                                format!("column storage: '{value}' is neither 'all' nor 'partial'"),
                            ))
                        }
                    }
                }
                _ => set_figure(&mut figures, name, value).map_err(|m| csv.at(*n, m))?,
            }
        }
        let key = (table, storage, figures.fanout);
        if let Some(&(_, first)) = first_line.iter().find(|(k, _)| *k == key) {
            return Err(csv.at(
                *n,
                format!(
                    "a second row for {} table, {} storage, fanout {} (the first is on line {first})",
                    table_text(table),
                    storage_text(storage),
                    figures.fanout
                ),
            ));
        }
        first_line.push((key, *n));
        if !fanouts.contains(&figures.fanout) {
            warnings.push(csv.at(*n, not_in_sweep(figures.fanout)));
        }
        rows.push(TableStorageRow {
            table,
            storage,
            figures,
        });
    }
    if rows.is_empty() {
        return Err(csv.no_rows());
    }
    Ok(csv.into_published(rows, warnings))
}

fn table_text(table: TableKind) -> &'static str {
    match table {
        TableKind::None => "no",
        TableKind::Global => "global",
        TableKind::Local => "local",
    }
}

fn storage_text(storage: Storage) -> &'static str {
    match storage {
        Storage::All | Storage::AllNodes => "all",
        Storage::Partial | Storage::PartialFrom2 => "partial",
    }
}

/// A Table IV column: `board`, `move`, or a figure for processor count N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardColumn {
    Board,
    Move,
    Leaf(u32),
    Minutes(u32),
    Speedup(u32),
}

impl BoardColumn {
    /// The column a name stands for; `leaf02` or `leaf0` are not names (each column has one).
    fn of(name: &str) -> Option<BoardColumn> {
        match name {
            "board" => return Some(BoardColumn::Board),
            "move" => return Some(BoardColumn::Move),
            _ => {}
        }
        let (make, digits): (fn(u32) -> BoardColumn, &str) =
            if let Some(d) = name.strip_prefix("leaf") {
                (BoardColumn::Leaf, d)
            } else if let Some(d) = name.strip_prefix("min") {
                (BoardColumn::Minutes, d)
            } else if let Some(d) = name.strip_prefix("speedup") {
                (BoardColumn::Speedup, d)
            } else {
                return None;
            };
        let n: u32 = digits.parse().ok()?;
        let max = crate::input::MAX_FANOUT as u32;
        (n >= 1 && n <= max && digits == n.to_string()).then_some(make(n))
    }
}

/// A chosen move as Table IV prints it: coordinates (`e4e5`, a promotion `e7e8q`) and an
/// optional `!` for the EPD's best move.
fn board_move(value: &str) -> Result<(String, bool), String> {
    let (mv, best) = match value.strip_suffix('!') {
        Some(m) => (m, true),
        None => (value, false),
    };
    let b = mv.as_bytes();
    let square = |i: usize| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]);
    let ok = (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4]))) && square(0) && square(2);
    if !ok {
        return Err(format!(
            "column move: '{value}' is not a move in coordinates (e.g. e2e4, e7e8q, with \
             an optional '!' for the EPD's best move)"
        ));
    }
    Ok((mv.to_string(), best))
}

fn per_board_table(csv: Csv<'_>, fanouts: &[u32]) -> Result<Published<BoardRow>, String> {
    let expected = "board, move, leafN, minN, speedupN (N a processor count)";
    csv.check_header(|name| BoardColumn::of(name).is_some(), expected)?;
    let columns: Vec<BoardColumn> = csv
        .header
        .iter()
        .filter_map(|n| BoardColumn::of(n))
        .collect();
    let header_err = |m: String| csv.at(csv.header_line, m);
    for key in ["board", "move", "leaf1", "min1"] {
        if !csv.header.iter().any(|c| c == key) {
            return Err(header_err(format!("the header has no '{key}' column")));
        }
    }
    let mut counts: Vec<u32> = Vec::new();
    for c in &columns {
        if let BoardColumn::Leaf(n) | BoardColumn::Minutes(n) | BoardColumn::Speedup(n) = *c {
            if !counts.contains(&n) {
                counts.push(n);
            }
        }
    }
    counts.sort_unstable();
    for &n in &counts {
        for (name, col) in [
            ("leaf", BoardColumn::Leaf(n)),
            ("min", BoardColumn::Minutes(n)),
        ] {
            if !columns.contains(&col) {
                return Err(header_err(format!(
                    "processor count {n} has no '{name}{n}' column"
                )));
            }
        }
    }
    let warnings: Vec<String> = counts
        .iter()
        .filter(|n| !fanouts.contains(n))
        .map(|&n| {
            csv.at(
                csv.header_line,
                format!("fanout {n} is not in the sweep (sweep.fanout); its columns are not shown"),
            )
        })
        .collect();
    let mut rows: Vec<BoardRow> = Vec::new();
    let mut first_line = HashMap::new();
    for (n, fields) in &csv.lines {
        csv.check_width(*n, fields)?;
        let at = |m: String| csv.at(*n, m);
        let mut board = None;
        let mut chosen = None;
        let mut by_fanout: Vec<BoardFigures> = counts
            .iter()
            .map(|&fanout| BoardFigures {
                fanout,
                leaf_nodes: 0.0,
                minutes: 0.0,
                speedup: None,
            })
            .collect();
        for ((name, col), value) in csv.header.iter().zip(&columns).zip(fields) {
            // `counts` holds every N of the header, sorted; by_fanout follows it.
            let slot = |k: u32| counts.binary_search(&k).unwrap_or_default();
            match *col {
                BoardColumn::Board => {
                    let mut chars = value.chars();
                    let letter = match (chars.next(), chars.next()) {
                        (Some(c), None) => bratko_kopec_id(c).map(|id| (c, id)),
                        _ => None,
                    };
                    board = Some(letter.ok_or_else(|| {
                        at(format!("column board: '{value}' is not a board letter A-X"))
                    })?);
                }
                BoardColumn::Move => chosen = Some(board_move(value).map_err(at)?),
                BoardColumn::Leaf(k) => {
                    by_fanout[slot(k)].leaf_nodes = number(name, value, true).map_err(at)?;
                }
                BoardColumn::Minutes(k) => {
                    by_fanout[slot(k)].minutes = number(name, value, true).map_err(at)?;
                }
                BoardColumn::Speedup(k) => {
                    by_fanout[slot(k)].speedup = Some(number(name, value, true).map_err(at)?);
                }
            }
        }
        let (Some((board, position)), Some((chosen_move, epd_best))) = (board, chosen) else {
            unreachable!("the header has 'board' and 'move' and the line one field per column");
        };
        if let Some(first) = first_line.insert(board, *n) {
            return Err(at(format!(
                "a second row for board {board} (the first is on line {first})"
            )));
        }
        rows.push(BoardRow {
            board,
            position,
            chosen_move,
            epd_best,
            by_fanout,
        });
    }
    if rows.is_empty() {
        return Err(csv.no_rows());
    }
    Ok(csv.into_published(rows, warnings))
}

/// How far (in percentage points) a printed time overhead may be from f × secs_f / secs_1 − 1
/// before a report calls it inconsistent: Table III's rounding differences are under one point
/// (global/all f = 4: 166.0 printed, 166.9 computed), Table II's f = 3 is three points off.
const MISPRINT_POINTS: f64 = 2.0;

/// A printed time overhead (%) at fanout `f` that its row's own seconds contradict (eq. 11,
/// beyond [`MISPRINT_POINTS`]): (printed, computed).
pub(crate) fn misprint(
    printed: Option<f64>,
    secs: Option<f64>,
    secs1: Option<f64>,
    f: u32,
) -> Option<(f64, f64)> {
    let computed = match (secs, secs1) {
        (Some(s), Some(s1)) if s1 > 0.0 => 100.0 * (f as f64 * s / s1 - 1.0),
        _ => return None,
    };
    printed
        .filter(|p| (p - computed).abs() > MISPRINT_POINTS)
        .map(|p| (p, computed))
}

/// What a report's footnote says of a [`misprint`]: "the paper prints …; one of the two figures
/// is a misprint".
pub(crate) fn misprint_words(printed: f64, computed: f64) -> String {
    format!(
        "the paper prints a time overhead of {printed:.1} %, but its own seconds give f × secs_f / secs_1 − 1 = {computed:.1} % (eq. 11); one of the two figures is a misprint"
    )
}

/// The report section: published and simulated figures side by side, per fanout.
pub fn markdown(reference: &Reference, summaries: &[Summary]) -> String {
    use crate::results::{fixed, fixed_opt as opt};
    // A figure the paper does not give is undefined: "–", like every undefined value.
    let mut out = format!(
        "\n## Beside the published figures\n\n{}\n\nThe paper's figures (from `{}`) beside the simulated ones, per processor count.\n\n\
         | f | leaves paper | leaves sim | time paper (s) | time sim (s) | speedup paper | speedup sim | search % paper | search % sim | time % paper | time % sim |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
        reference.notes.join(" "),
        reference.path.display()
    );
    let secs1 = reference
        .rows
        .iter()
        .find(|r| r.fanout == 1)
        .and_then(|r| r.secs);
    let mut footnotes = Vec::new();
    for r in &reference.rows {
        let Some(s) = summaries.iter().find(|s| s.fanout == r.fanout) else {
            continue;
        };
        let mut time_paper = opt(r.time_overhead_pct, 1);
        if let Some((printed, computed)) = misprint(r.time_overhead_pct, r.secs, secs1, r.fanout) {
            footnotes.push(format!(
                "† f = {}: {}.",
                r.fanout,
                misprint_words(printed, computed)
            ));
            time_paper.push_str(" †");
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.fanout,
            opt(r.leaf_nodes, 0),
            fixed(s.leaf_nodes, 0),
            opt(r.secs, 0),
            fixed(s.elapsed_s, 1),
            opt(r.speedup, 2),
            crate::results::ratio_fixed(s.speedup, 2),
            opt(r.search_overhead_pct, 1),
            fixed(100.0 * s.search_overhead, 1),
            time_paper,
            fixed(100.0 * s.time_overhead, 1),
        ));
    }
    for f in footnotes {
        out.push_str(&format!("\n{f}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("reference")
            .join(name)
    }

    /// A scratch folder removed when dropped.
    struct Scratch(PathBuf);
    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("gtsim-ref-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir); // a stale folder of an earlier process with this id
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
        fn write(&self, name: &str, text: &str) -> PathBuf {
            let p = self.0.join(name);
            std::fs::write(&p, text).unwrap();
            p
        }
    }
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Each text must be refused with `FILE:LINE: words`.
    fn refused(name: &str, cases: &[(&str, usize, &str)]) {
        let dir = Scratch::new(name);
        for &(text, line, words) in cases {
            let p = dir.write("t.csv", text);
            let e = match read_paper_table(&p, &[1, 2, 3, 4]) {
                Ok(t) => panic!("accepted {text:?}: {t:?}"),
                Err(e) => e,
            };
            let want = format!("{}:{line}: {words}", p.display());
            assert!(e.contains(&want), "{text:?}\n got: {e}\nwant: {want}");
        }
    }

    #[test]
    fn a_time_overhead_its_own_seconds_contradict_is_marked() {
        // Table II: f = 3 prints 26.6 %, but 3 × 664 / 1611 − 1 = 23.6 %; f = 2 and 4 agree.
        let r = read(&shipped("parabelle-table2-no-tt.csv"), &[1, 2, 3, 4]).unwrap();
        let summaries: Vec<Summary> = (1..=4)
            .map(|fanout| Summary {
                fanout,
                ..Summary::default()
            })
            .collect();
        let md = markdown(&r, &summaries);
        let row = |f: &str| md.lines().find(|l| l.starts_with(f)).unwrap().to_string();
        assert!(row("| 3 |").contains("| 26.6 † |"), "{md}");
        for f in ["| 1 |", "| 2 |", "| 4 |"] {
            assert!(!row(f).contains('†'), "{md}");
        }
        assert!(md.contains("† f = 3: the paper prints a time overhead of 26.6 %, but its own seconds give f × secs_f / secs_1 − 1 = 23.6 % (eq. 11); one of the two figures is a misprint."), "{md}");
    }

    #[test]
    fn reads_the_shipped_table_and_rejects_bad_rows() {
        let dir = Scratch::new("fanout");
        let good = dir.write(
            "good.csv",
            "# note\nfanout,leaf_nodes,speedup\n1,100,1.0\n2,110,1.8\n",
        );
        let r = read(&good, &[1, 2]).unwrap();
        assert_eq!(r.notes, vec!["note"]);
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.rows[1].speedup, Some(1.8));
        let bad = dir.write("bad.csv", "fanout,speedup\n1,1.0\n2,fast\n");
        let e = read(&bad, &[1, 2]).unwrap_err();
        assert!(e.contains("bad.csv:3:") && e.contains("fast"), "{e}");
    }

    #[test]
    fn the_shipped_table_ii_is_per_fanout() {
        let path = shipped("parabelle-table2-no-tt.csv");
        let PaperTable::Fanout(t) = read_paper_table(&path, &[1, 2, 3, 4]).unwrap() else {
            panic!("Table II is per fanout");
        };
        assert_eq!(t.rows.len(), 4);
        assert_eq!(t.rows[0].secs, Some(1611.0));
        assert_eq!(t.rows[2].time_overhead_pct, Some(26.6));
        assert!(t.warnings.is_empty());
        // The old entry point reads it the same way.
        assert_eq!(read(&path, &[1, 2, 3, 4]).unwrap().rows, t.rows);
    }

    #[test]
    fn the_shipped_table_iii_is_per_table_and_storage() {
        let path = shipped("parabelle-table3-tt.csv");
        let t = match read_paper_table(&path, &[1, 2, 3, 4]).unwrap() {
            PaperTable::TableStorage(t) => t,
            other => panic!("Table III is per table and storage: {other:?}"),
        };
        assert_eq!(t.rows.len(), 16);
        assert!(t.notes[0].starts_with("Marsland & Popowich 1985, Table III"));
        assert_eq!(
            t.configurations(),
            vec![
                (TableKind::Global, Storage::All),
                (TableKind::Global, Storage::Partial),
                (TableKind::Local, Storage::All),
                (TableKind::Local, Storage::Partial),
            ]
        );
        let global_all = t.configuration(TableKind::Global, Storage::All);
        assert_eq!(
            global_all.rows.iter().map(|r| r.fanout).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!(global_all.rows[3].time_overhead_pct, Some(166.0));
        assert_eq!(global_all.rows[3].secs, Some(872.0));
        let local_partial = t.configuration(TableKind::Local, Storage::Partial);
        assert_eq!(local_partial.rows[3].speedup, Some(3.1));
        assert_eq!(local_partial.rows[1].leaf_nodes, Some(53427.0));
        assert!(t
            .configuration(TableKind::None, Storage::All)
            .rows
            .is_empty());
        // Only f = 1, 2 in the sweep: one warning per row of f = 3 or 4.
        let t = read_table_storage(&path, &[1, 2]).unwrap();
        assert_eq!(t.warnings.len(), 8);
        assert!(
            t.warnings[0].contains("fanout 3 is not in the sweep"),
            "{:?}",
            t.warnings
        );
    }

    #[test]
    fn the_shipped_table_iv_is_per_board() {
        let path = shipped("parabelle-table4-6ply.csv");
        let t = match read_paper_table(&path, &[1, 2, 3, 4]).unwrap() {
            PaperTable::PerBoard(t) => t,
            other => panic!("Table IV is per board: {other:?}"),
        };
        // Board A (a forced mate) has no counts.
        assert_eq!(t.rows.len(), 23);
        assert_eq!(
            (t.rows[0].board, t.rows[0].position.as_str()),
            ('B', "BK.02")
        );
        assert_eq!(
            (t.rows[22].board, t.rows[22].position.as_str()),
            ('X', "BK.24")
        );
        let b = &t.rows[0];
        assert_eq!((b.chosen_move.as_str(), b.epd_best), ("e4e5", false));
        assert_eq!(b.by_fanout.len(), 4);
        assert_eq!(b.at(1).unwrap().leaf_nodes, 132751.0);
        assert_eq!(b.at(1).unwrap().minutes, 45.0);
        assert_eq!(b.at(1).unwrap().speedup, None);
        assert_eq!(b.at(4).unwrap().speedup, Some(3.58));
        assert!(b.at(5).is_none());
        let d = &t.rows[2];
        assert_eq!(
            (d.position.as_str(), d.chosen_move.as_str(), d.epd_best),
            ("BK.04", "e5e6", true)
        );
        let tee = t.rows.iter().find(|r| r.board == 'T').unwrap();
        assert_eq!(tee.at(4).unwrap().speedup, Some(6.05));
        assert_eq!(tee.at(3).unwrap().leaf_nodes, 386704.0);
        // As many '!' moves as the file has.
        let text = std::fs::read_to_string(&path).unwrap();
        let marked = text.lines().filter(|l| l.contains("!,")).count();
        assert_eq!(t.rows.iter().filter(|r| r.epd_best).count(), marked);
        assert!(marked > 0);
        assert!(t.warnings.is_empty());
        // A sweep of f = 1, 2: f = 3 and 4 are warnings at the header line.
        let t = read_per_board(&path, &[1, 2]).unwrap();
        let header = text.lines().position(|l| l.starts_with("board,")).unwrap() + 1;
        assert_eq!(
            t.warnings,
            [3, 4].map(|f| format!(
                "{}:{header}: fanout {f} is not in the sweep (sweep.fanout); its columns are not shown",
                path.display()
            ))
        );
    }

    #[test]
    fn board_letters_are_the_bratko_kopec_positions() {
        assert_eq!(bratko_kopec_id('A').as_deref(), Some("BK.01"));
        assert_eq!(bratko_kopec_id('J').as_deref(), Some("BK.10"));
        assert_eq!(bratko_kopec_id('X').as_deref(), Some("BK.24"));
        assert_eq!(bratko_kopec_id('Y'), None);
        assert_eq!(bratko_kopec_id('a'), None);
    }

    #[test]
    fn an_overhead_below_minus_100_percent_is_refused_at_its_line() {
        let below = |column: &str, layout: &str| {
            let (head, key) = match layout {
                "ii" => ("fanout", ""),
                _ => ("table,storage,fanout", "local,all,"),
            };
            format!("{head},{column}\n{key}1,0\n{key}2,-100.5\n")
        };
        let mut texts = Vec::new();
        for column in ["search_overhead_pct", "time_overhead_pct"] {
            for layout in ["ii", "iii"] {
                texts.push((column, below(column, layout)));
            }
        }
        let cases: Vec<(&str, usize, String)> = texts
            .iter()
            .map(|(column, text)| {
                let words =
                    format!("column {column}: '-100.5' is below -100, which no overhead can be");
                (text.as_str(), 3, words)
            })
            .collect();
        let cases: Vec<(&str, usize, &str)> =
            cases.iter().map(|(t, l, w)| (*t, *l, w.as_str())).collect();
        refused("overhead", &cases);
        // Down to −100 % is read (a speedup of f and more gives a negative time overhead).
        let dir = Scratch::new("overhead-ok");
        let ok = dir.write(
            "ok.csv",
            "fanout,search_overhead_pct,time_overhead_pct\n1,0,0\n2,-100,-37.5\n",
        );
        let r = read(&ok, &[1, 2]).unwrap();
        assert_eq!(r.rows[1].search_overhead_pct, Some(-100.0));
        assert_eq!(r.rows[1].time_overhead_pct, Some(-37.5));
    }

    #[test]
    fn table_iii_rejects_bad_rows() {
        let head = "table,storage,fanout,speedup\n";
        let t = |rows: &str| format!("{head}{rows}");
        let dup = t("global,all,1,1.0\nlocal,all,1,1.0\nglobal,all,1,1.1\n");
        let bad_table = t("shared,all,1,1.0\n");
        let bad_storage = t("local,most,1,1.0\n");
        let nan = t("local,all,1,NaN\n");
        let negative = t("local,all,1,-1\n");
        let zero = t("local,all,0,1\n");
        let huge = t("local,all,99999999999999999999,1\n");
        let width = t("local,all,1\n");
        refused(
            "table3",
            &[
                (
                    &dup,
                    4,
                    "a second row for global table, all storage, fanout 1 (the first is on line 2)",
                ),
                (
                    &bad_table,
                    2,
                    "column table: 'shared' is neither 'global' nor 'local'",
                ),
                (
                    &bad_storage,
                    2,
                    "column storage: 'most' is neither 'all' nor 'partial'",
                ),
                (&nan, 2, "column speedup: 'NaN' is not a finite number"),
                (&negative, 2, "column speedup: '-1' is negative"),
                (&zero, 2, "fanout '0' is not a whole number >= 1"),
                (
                    &huge,
                    2,
                    "fanout '99999999999999999999' is far more processors than a sweep can run (at most 1024)",
                ),
                (&width, 2, "3 fields, the header has 4"),
                (
                    "table,storage,fanout,speedups\n",
                    1,
                    "unknown column 'speedups'",
                ),
                (
                    "table,storage,fanout,secs,secs\nlocal,all,1,1,1\n",
                    1,
                    "column 'secs' appears twice",
                ),
                (
                    "# c\ntable,fanout,secs\nlocal,1,1\n",
                    2,
                    "the header has no 'storage' column",
                ),
            ],
        );
    }

    #[test]
    fn table_iv_rejects_bad_rows() {
        let head = "board,leaf1,min1,move,leaf2,min2,speedup2\n";
        let t = |rows: &str| format!("{head}{rows}");
        let y = t("Y,1,1,e2e4,1,1,1.0\n");
        let two = t("AB,1,1,e2e4,1,1,1.0\n");
        let lower = t("b,1,1,e2e4,1,1,1.0\n");
        let dup = t("B,1,1,e2e4,1,1,1.0\nC,1,1,e2e4,1,1,1.0\nB,1,1,e2e4,1,1,1.0\n");
        let square = t("B,1,1,e9e4,1,1,1.0\n");
        let bangs = t("B,1,1,e5e6!!,1,1,1.0\n");
        let promo = t("B,1,1,e7e8k,1,1,1.0\n");
        let nan = t("B,1,1,e2e4,nan,1,1.0\n");
        let empty = t("B,1,,e2e4,1,1,1.0\n");
        let negative = t("B,1,1,e2e4,1,-2,1.0\n");
        let width = t("B,1,1,e2e4,1,1\n");
        refused(
            "table4",
            &[
                (&y, 2, "column board: 'Y' is not a board letter A-X"),
                (&two, 2, "column board: 'AB' is not a board letter A-X"),
                (&lower, 2, "column board: 'b' is not a board letter A-X"),
                (&dup, 4, "a second row for board B (the first is on line 2)"),
                (
                    &square,
                    2,
                    "column move: 'e9e4' is not a move in coordinates",
                ),
                (
                    &bangs,
                    2,
                    "column move: 'e5e6!!' is not a move in coordinates",
                ),
                (
                    &promo,
                    2,
                    "column move: 'e7e8k' is not a move in coordinates",
                ),
                (&nan, 2, "column leaf2: 'nan' is not a finite number"),
                (&empty, 2, "column min1: '' is not a number"),
                (&negative, 2, "column min2: '-2' is negative"),
                (&width, 2, "6 fields, the header has 7"),
                (
                    "board,leaf1,min1,move,leaf2\n",
                    1,
                    "processor count 2 has no 'min2' column",
                ),
                (
                    "board,leaf1,min1,move,speedup3\n",
                    1,
                    "processor count 3 has no 'leaf3' column",
                ),
                (
                    "board,leaf1,min1,move,leaf02,min2\n",
                    1,
                    "unknown column 'leaf02'",
                ),
                (
                    "board,leaf1,min1,move,leaf0,min0\n",
                    1,
                    "unknown column 'leaf0'",
                ),
                ("board,leaf1,min1,move,moves\n", 1, "unknown column 'moves'"),
                (
                    "board,leaf1,min1,move,leaf1\n",
                    1,
                    "column 'leaf1' appears twice",
                ),
                (
                    "board,leaf2,min2,move\n",
                    1,
                    "the header has no 'leaf1' column",
                ),
                ("board,leaf1,min1\n", 1, "the header has no 'move' column"),
            ],
        );
        // A promotion and a best-move mark are fine; speedupN is optional.
        let dir = Scratch::new("table4-good");
        let p = dir.write(
            "t.csv",
            "board,leaf1,min1,move,leaf3,min3\nC,10,2,e7e8q!,12,1\n",
        );
        let t = read_per_board(&p, &[1, 3]).unwrap();
        assert_eq!(
            t.rows[0],
            BoardRow {
                board: 'C',
                position: "BK.03".into(),
                chosen_move: "e7e8q".into(),
                epd_best: true,
                by_fanout: vec![
                    BoardFigures {
                        fanout: 1,
                        leaf_nodes: 10.0,
                        minutes: 2.0,
                        speedup: None
                    },
                    BoardFigures {
                        fanout: 3,
                        leaf_nodes: 12.0,
                        minutes: 1.0,
                        speedup: None
                    },
                ],
            }
        );
    }

    #[test]
    fn an_unknown_layout_and_an_empty_table_are_errors() {
        refused(
            "layout",
            &[(
                "# only\nx,y\n1,2\n",
                2,
                "the header has none of the columns 'fanout' (Table II)",
            )],
        );
        let dir = Scratch::new("empty");
        for (name, text) in [
            ("none.csv", "# nothing\n\n"),
            ("head.csv", "fanout,secs\n"),
            ("head3.csv", "table,storage,fanout\n"),
            ("head4.csv", "board,leaf1,min1,move\n"),
        ] {
            let p = dir.write(name, text);
            let e = read_paper_table(&p, &[1]).unwrap_err();
            assert_eq!(
                e,
                format!("{}: the reference table has no rows", p.display())
            );
        }
    }
}
