//! The report.md sections of chess plans: the paper's Tables II–IV beside the
//! simulated figures, what the paper could not measure (communication and synchronization
//! measured apart, `wait_reply`, messages and bytes by type), a per-position table in the
//! layout of Table IV, and every position whose value differs from the table-free search's.
//!
//! Averages are the paper's: over positions, leaf nodes and seconds are means, speedup is the
//! mean of the per-position ratios, search overhead is mean leaves(f) / mean leaves(1) − 1
//! (eq. 9) and time overhead f × mean secs(f) / mean secs(1) − 1 (eq. 11).

use crate::load::Plan;
use crate::reference::{BoardFigures, BoardRow, PaperTable, Published, Reference, ReferenceRow};
use crate::results::{fixed, fixed_opt, seconds, seconds_opt, RunRecord, Summary, UNDEFINED};
use crate::runner::Row;
use crate::util::distinct;
use algorithms::{Storage, TableKind};

/// The records of a chess plan, kept for its report (a chess sweep is small: positions ×
/// fanouts × algorithms rows). Synthetic and Campbell plans keep nothing.
#[derive(Clone, Debug, Default)]
pub struct ChessRows {
    /// The uniprocessor run of every (configuration, algorithm, position).
    pub baseline: Vec<RunRecord>,
    /// Every row of the sweep (an f = 1 row repeats its baseline).
    pub sweep: Vec<RunRecord>,
}

impl ChessRows {
    /// The rows of a finished run of `plan` (nothing unless it is a chess plan).
    pub fn of(plan: &Plan, results: &crate::runner::Results) -> Self {
        let mut rows = ChessRows::default();
        for r in &results.baseline {
            rows.keep(plan, &Row::Baseline(r));
        }
        for r in &results.records {
            rows.keep(plan, &Row::Sweep(r));
        }
        rows
    }

    /// Keeps `row` if `plan` is a chess plan.
    pub fn keep(&mut self, plan: &Plan, row: &Row) {
        if plan.chess.is_none() {
            return;
        }
        match row {
            Row::Baseline(r) => self.baseline.push((*r).clone()),
            Row::Sweep(r) => self.sweep.push((*r).clone()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The report.
// ---------------------------------------------------------------------------------------------

/// The table and storage of an algorithm (None: no table, Table II's searches).
fn table_of(plan: &Plan, algorithm: &str) -> Option<(TableKind, Storage)> {
    let spec = plan.algorithms.iter().find(|a| a.name() == algorithm)?;
    spec.entry().table
}

/// `paper` if it is in Table II's layout (a row per fanout) and describes `algorithm`: Table
/// II's rows go with searches without a table.
pub(crate) fn fanout_table<'a>(
    plan: &Plan,
    paper: &'a PaperTable,
    algorithm: &str,
) -> Option<&'a Reference> {
    match paper {
        PaperTable::Fanout(t) if table_of(plan, algorithm).is_none() => Some(t),
        _ => None,
    }
}

/// The paper's row for `algorithm` at fanout `f`: Table II's rows go with searches without a
/// table ([`fanout_table`]), Table III's with Parabelle of the same table and storage (the
/// paper's partial storage for either reading of it, [`Storage::in_paper`]).
pub(crate) fn paper_row<'a>(
    plan: &Plan,
    paper: &'a PaperTable,
    algorithm: &str,
    f: u32,
) -> Option<&'a ReferenceRow> {
    if let Some(t) = fanout_table(plan, paper, algorithm) {
        return t.rows.iter().find(|r| r.fanout == f);
    }
    match (paper, table_of(plan, algorithm)) {
        (PaperTable::TableStorage(t), Some((table, storage))) => t
            .rows
            .iter()
            .find(|r| r.table == table && r.storage == storage.in_paper() && r.figures.fanout == f)
            .map(|r| &r.figures),
        _ => None,
    }
}

/// The per-board rows of a Table IV reference, if the plan has one.
fn per_board(plan: &Plan) -> Option<&Published<BoardRow>> {
    match &plan.paper {
        Some(PaperTable::PerBoard(t)) => Some(t),
        _ => None,
    }
}

/// The paper's averages of a per-board table at fanout `f` over the boards `only` lets
/// through, computed as the paper computes them: (boards, mean leaf nodes, mean seconds, mean
/// speedup).
fn board_means(
    paper: &Published<BoardRow>,
    f: u32,
    only: impl Fn(char) -> bool,
) -> Option<(usize, f64, f64, Option<f64>)> {
    let at: Vec<&BoardFigures> = paper
        .rows
        .iter()
        .filter(|b| only(b.board))
        .filter_map(|b| b.at(f))
        .collect();
    if at.is_empty() {
        return None;
    }
    let n = at.len() as f64;
    let speedups: Vec<f64> = at.iter().filter_map(|x| x.speedup).collect();
    let speedup = if f == 1 {
        Some(1.0)
    } else {
        (!speedups.is_empty()).then(|| speedups.iter().sum::<f64>() / speedups.len() as f64)
    };
    Some((
        at.len(),
        at.iter().map(|x| x.leaf_nodes).sum::<f64>() / n,
        60.0 * at.iter().map(|x| x.minutes).sum::<f64>() / n,
        speedup,
    ))
}

/// A paper row as shown: (leaf nodes, seconds, speedup, search %, time %, printed time % is
/// inconsistent with the row's own seconds: (printed, computed)).
struct Shown {
    leaf: Option<f64>,
    secs: Option<f64>,
    speedup: Option<f64>,
    search: Option<f64>,
    time: Option<f64>,
    misprint: Option<(f64, f64)>,
}

fn shown(plan: &Plan, paper: &PaperTable, algorithm: &str, f: u32) -> Option<Shown> {
    if let Some(r) = paper_row(plan, paper, algorithm, f) {
        let secs1 = paper_row(plan, paper, algorithm, 1).and_then(|r| r.secs);
        let misprint = crate::reference::misprint(r.time_overhead_pct, r.secs, secs1, f);
        return Some(Shown {
            leaf: r.leaf_nodes,
            secs: r.secs,
            speedup: r.speedup,
            search: r.search_overhead_pct,
            time: r.time_overhead_pct,
            misprint,
        });
    }
    // Over the boards of the positions searched (all of them for a full sweep).
    let PaperTable::PerBoard(paper) = paper else {
        return None;
    };
    let searched = searched_boards(plan);
    let only = |b: char| searched.contains(&b);
    let (_, leaf, secs, speedup) = board_means(paper, f, only)?;
    let (_, leaf1, secs1, _) = board_means(paper, 1, only)?;
    Some(Shown {
        leaf: Some(leaf),
        secs: Some(secs),
        speedup,
        search: Some(100.0 * (leaf / leaf1 - 1.0)),
        time: Some(100.0 * (f as f64 * secs / secs1 - 1.0)),
        misprint: None,
    })
}

/// The speedups the paper gives for `algorithm` at the processor counts `fanouts`, as the
/// averages of report.md show them (a per-board table's means over the boards this plan
/// searches), with the legend text naming their source; None without a paper table or without
/// a speedup for `algorithm`.
pub(crate) fn published_speedups(
    plan: &Plan,
    algorithm: &str,
    fanouts: &[u32],
) -> Option<(String, Vec<(f64, f64)>)> {
    let paper = plan.paper.as_ref()?;
    let points: Vec<(f64, f64)> = fanouts
        .iter()
        .filter_map(|&f| Some((f as f64, shown(plan, paper, algorithm, f)?.speedup?)))
        .collect();
    if points.is_empty() {
        return None;
    }
    let file = crate::util::file_name(paper.path());
    let over = match paper_scope(plan, paper) {
        scope if scope.is_empty() => scope,
        scope => format!(", {scope}"),
    };
    Some((format!("published speedup ({file}{over})"), points))
}

/// What the paper's averages are over when that is not what the plan's are: "mean over 23
/// boards" for a per-board table (its means over the boards this plan searches), "over all 24
/// positions" for a table of averages beside a plan of fewer positions; empty otherwise.
pub(crate) fn paper_scope(plan: &Plan, paper: &PaperTable) -> String {
    match (paper, &plan.chess) {
        (PaperTable::PerBoard(p), _) => {
            let searched = searched_boards(plan);
            let n = board_means(p, 1, |b| searched.contains(&b)).map_or(0, |m| m.0);
            format!("mean over {n} board{}", if n == 1 { "" } else { "s" })
        }
        (_, Some(set)) if plan.seeds.len() < set.positions.len() => {
            format!("over all {} positions", set.positions.len())
        }
        _ => String::new(),
    }
}

/// The summaries a speedup chart draws beside [`published_speedups`]: with a per-board
/// table, over the positions the paper counts, as report.md's averages (with how many, when
/// that leaves some out); otherwise `summaries` as they are.
pub(crate) fn charted<'a>(
    plan: &Plan,
    summaries: &'a [Summary],
    rows: &ChessRows,
) -> (std::borrow::Cow<'a, [Summary]>, Option<usize>) {
    let s = compared(plan, summaries, rows);
    let counted = match (&s, per_board(plan)) {
        (std::borrow::Cow::Owned(_), Some(p)) => {
            let seeds: std::collections::BTreeSet<u64> = rows
                .baseline
                .iter()
                .filter(|r| counted_by(p, plan, r))
                .map(|r| r.seed)
                .collect();
            Some(seeds.len())
        }
        _ => None,
    };
    (s, counted)
}

/// Whether a per-board paper table (Table IV's layout) gives counts for a position the plan
/// searches (true for other tables, or none).
pub(crate) fn per_board_matches(plan: &Plan) -> bool {
    per_board(plan).is_none_or(|p| {
        let searched = searched_boards(plan);
        p.rows
            .iter()
            .any(|b| searched.contains(&b.board) && b.at(1).is_some())
    })
}

/// The paper's board letters of the positions the plan searches (none unless they are the
/// shipped Bratko–Kopec positions).
fn searched_boards(plan: &Plan) -> Vec<char> {
    plan.chess.as_ref().map_or(Vec::new(), |set| {
        plan.seeds
            .iter()
            .filter_map(|&n| set.get(n)?.board(set.bratko_kopec))
            .collect()
    })
}

/// Whether the paper's per-board table counts `r`'s position: it has the board's uniprocessor
/// figures (Table IV gives none for board A).
fn counted_by(paper: &Published<BoardRow>, plan: &Plan, r: &RunRecord) -> bool {
    let board = plan
        .chess
        .as_ref()
        .and_then(|set| set.get(r.seed)?.board(set.bratko_kopec));
    board.is_some_and(|b| paper.rows.iter().any(|x| x.board == b && x.at(1).is_some()))
}

/// The simulated summaries set beside the paper's averages. With a per-board table, over the
/// same boards as the paper's averages: a position the plan searches but the paper gives no
/// counts for is left out of both sides (results.csv and the summaries of results.json keep
/// it). Otherwise `summaries` as they are.
fn compared<'a>(
    plan: &Plan,
    summaries: &'a [Summary],
    rows: &ChessRows,
) -> std::borrow::Cow<'a, [Summary]> {
    use std::borrow::Cow;
    let Some(paper) = per_board(plan) else {
        return Cow::Borrowed(summaries);
    };
    let counted = |r: &RunRecord| counted_by(paper, plan, r);
    if rows.baseline.iter().all(counted) {
        return Cow::Borrowed(summaries);
    }
    let matched = summaries
        .iter()
        .map(|s| {
            let group = |r: &&RunRecord| r.algorithm == s.algorithm && r.depth == s.depth;
            let base: Vec<RunRecord> = rows
                .baseline
                .iter()
                .filter(group)
                .filter(|r| counted(r))
                .cloned()
                .collect();
            let sweep: Vec<RunRecord> = rows
                .sweep
                .iter()
                .filter(group)
                .filter(|r| r.fanout == s.fanout && counted(r))
                .cloned()
                .collect();
            if sweep.is_empty() || base.is_empty() {
                // Nothing the paper counts: the row's paper side is – and the simulated side
                // stays over every position.
                return s.clone();
            }
            let mut m = crate::results::summarize(&sweep, &base, &[s.fanout], |_| s.sync_estimate)
                .pop()
                .expect("runs at this fanout");
            // What describes the configuration rather than its runs stays the summary's.
            m.width = s.width;
            m.ordering.clone_from(&s.ordering);
            m.horizon_noise = s.horizon_noise;
            m.ptree.clone_from(&s.ptree);
            m.ptree_depth = s.ptree_depth;
            m.ptree_width = s.ptree_width;
            m.processors = s.processors;
            m.terminals = s.terminals;
            m
        })
        .collect();
    Cow::Owned(matched)
}

/// Mean of `v` (NaN when empty).
fn mean(v: impl Iterator<Item = f64>) -> f64 {
    crate::results::mean(v).0
}

/// The (algorithm, depth) groups of a plan's summaries, in plan order.
fn groups(summaries: &[Summary]) -> Vec<(String, u32)> {
    distinct(summaries, |s| (s.algorithm.clone(), s.depth))
}

/// Whether report.md has a table per position: asked for (`outputs.per_position`), a 6-ply
/// (or deeper) plan as the paper's Table IV, or a per-board reference table.
pub fn per_position(plan: &Plan) -> bool {
    plan.scenario.outputs.per_position
        || plan.configs.iter().any(|c| c.depth >= 6)
        || per_board(plan).is_some()
}

/// The chess sections of report.md.
pub fn markdown(plan: &Plan, summaries: &[Summary], rows: &ChessRows) -> String {
    let mut out = String::new();
    out.push_str(&averages(plan, summaries, rows));
    out.push_str(&unmeasured(summaries, rows));
    out.push_str(&differences(plan, rows));
    if per_position(plan) {
        out.push_str(&positions_table(plan, rows));
    }
    out
}

/// The algorithm and depth Fig. 7 draws: the first algorithm without a transposition table
/// (the paper's Fig. 7 is of Table II's searches), else the first; its first depth.
fn fig7_group(plan: &Plan, summaries: &[Summary]) -> Option<(String, u32)> {
    let algorithm = plan
        .algorithms
        .iter()
        .find(|a| !a.has_table())
        .or(plan.algorithms.first())?
        .name();
    groups(summaries).into_iter().find(|(a, _)| *a == algorithm)
}

/// The paper's Fig. 7, "Average overheads for 5-ply searches", for `outputs.fig7`: per f, the
/// simulated search (eq. 9), communication (time − search, as the paper defines it) and time
/// (eq. 11) overheads of the averages table, each with the paper's points (f ≥ 2; the
/// communication point is its time − search), the measured synchronization overhead
/// (idle_sync / elapsed(1), as "What the paper could not measure") without published points,
/// and the f/2w estimate with w the positions' mean root width. A printed time overhead that
/// disagrees with the table's own seconds is said in the note.
pub fn fig7(plan: &Plan, summaries: &[Summary], rows: &ChessRows) -> plots::Fig7 {
    use plots::{Curve, Overhead};
    let summaries = &compared(plan, summaries, rows)[..];
    let Some((algorithm, depth)) = fig7_group(plan, summaries) else {
        return plots::Fig7::default();
    };
    let mut ss: Vec<&Summary> = summaries
        .iter()
        .filter(|s| s.algorithm == algorithm && s.depth == depth)
        .collect();
    ss.sort_by_key(|s| s.fanout);
    let width = ss.first().map_or(1, |s| s.width.max(1));
    let simulated = |label: &str, g: fn(&Summary) -> f64| Curve {
        label: format!("{label}, simulated"),
        points: ss.iter().map(|s| (s.fanout as f64, 100.0 * g(s))).collect(),
    };
    // The paper's figures per f >= 2 (every overhead is 0 at f = 1 by definition).
    let published: Vec<(u32, Shown)> = plan.paper.as_ref().map_or(Vec::new(), |p| {
        ss.iter()
            .filter(|s| s.fanout > 1)
            .filter_map(|s| Some((s.fanout, shown(plan, p, &algorithm, s.fanout)?)))
            .collect()
    });
    let paper = |label: &str, g: fn(&Shown) -> Option<f64>| Curve {
        label: format!("{label}, paper"),
        points: published
            .iter()
            .filter_map(|(f, sh)| Some((*f as f64, g(sh)?)))
            .collect(),
    };
    let overheads = vec![
        Overhead {
            simulated: simulated("search", |s| s.search_overhead),
            published: paper("search", |x| x.search),
        },
        // In the order (and so the colours) of overheads.png: search, time, communication.
        Overhead {
            simulated: simulated("time", |s| s.time_overhead),
            published: paper("time", |x| x.time),
        },
        Overhead {
            simulated: simulated("communication (time − search)", |s| s.comm_overhead),
            published: paper("communication (time − search)", |x| {
                Some(x.time? - x.search?)
            }),
        },
        Overhead {
            simulated: simulated("synchronization (idle_sync, measured)", |s| s.idle_overhead),
            published: Curve::default(),
        },
    ];
    let notes: Vec<String> = published
        .iter()
        .filter_map(|(f, sh)| {
            let (printed, computed) = sh.misprint?;
            Some(format!(
                "Paper, f = {f}: time overhead printed {printed:.1} %, its own seconds give {computed:.1} % (eq. 11); the marker shows the printed value."
            ))
        })
        .collect();
    let positions = ss.first().map_or(0, |s| s.runs);
    let several = plan.algorithms.len() > 1;
    plots::Fig7 {
        title: format!(
            "Fig. 7: average overheads for {depth}-ply searches, {positions} positions{}",
            if several {
                format!(" ({algorithm})")
            } else {
                String::new()
            }
        ),
        x_label: "processors f".into(),
        y_label: "overhead".into(),
        overheads,
        model: Curve {
            label: format!("f/2w, w = {width} (mean root width)"),
            points: ss
                .iter()
                .map(|s| {
                    let f = s.fanout as f64;
                    (f, 100.0 * f / (2.0 * width as f64))
                })
                .collect(),
        },
        note: notes.join(" "),
    }
}

/// "x / n" positions whose chosen move is an EPD best move, or – when no run reports a move.
fn best_moves(records: &[&RunRecord]) -> String {
    let judged: Vec<bool> = records.iter().filter_map(|r| r.best_move_ok).collect();
    if judged.is_empty() {
        UNDEFINED.into()
    } else {
        format!(
            "{} / {}",
            judged.iter().filter(|&&b| b).count(),
            judged.len()
        )
    }
}

fn records_at<'a>(rows: &'a ChessRows, algorithm: &str, depth: u32, f: u32) -> Vec<&'a RunRecord> {
    rows.sweep
        .iter()
        .filter(|r| r.algorithm == algorithm && r.depth == depth && r.fanout == f)
        .collect()
}

fn baseline_of<'a>(rows: &'a ChessRows, algorithm: &str, depth: u32) -> Vec<&'a RunRecord> {
    rows.baseline
        .iter()
        .filter(|r| r.algorithm == algorithm && r.depth == depth)
        .collect()
}

fn averages(plan: &Plan, summaries: &[Summary], rows: &ChessRows) -> String {
    let mut out = String::from(
        "\n## Chess: averages over positions\n\n\
         As the paper's tables: leaf nodes and seconds are means over positions, speedup is the \
         mean of the per-position ratios (± its standard deviation over positions, the spread \
         the paper quotes), search overhead is mean leaves(f) / mean leaves(1) − 1 (eq. 9), time \
         overhead f × mean secs(f) / mean secs(1) − 1 (eq. 11). Seconds are simulated time. \
         \"best moves\" counts the positions whose chosen root move is one of the EPD's best \
         moves (– when the search reports no move).\n",
    );
    let paper = plan.paper.as_ref();
    if let Some(p) = paper {
        out.push_str(&format!(
            "\nPaper: `{}`. {}\n",
            p.path().display(),
            p.notes().join(" ")
        ));
        let searched = searched_boards(plan);
        if let PaperTable::PerBoard(p) = p {
            let n = p
                .rows
                .iter()
                .filter(|b| searched.contains(&b.board))
                .count();
            let over = if n == p.rows.len() {
                format!("over all {n} of its boards, whose positions this plan searches")
            } else {
                format!(
                    "over the {n} of its {} boards whose positions this plan searches",
                    p.rows.len()
                )
            };
            out.push_str(&format!(
                "\nThe paper's averages here are computed from its per-board rows, {over} (its minutes are truncated, so its seconds and time overheads are coarse)."
            ));
            if !per_board_matches(plan) {
                // Nothing to compare: the paper's side is – and the simulated side stays over
                // every position searched.
                out.push_str(" None of the positions this plan searches is a board the table gives counts for: its columns are –, and the simulated columns are over every position searched.\n");
            }
            let left_out: Vec<&str> = plan.chess.as_ref().map_or(Vec::new(), |set| {
                rows.baseline
                    .iter()
                    .filter(|r| !counted_by(p, plan, r))
                    .filter_map(|r| Some(set.get(r.seed)?.id.as_str()))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect()
            });
            if !left_out.is_empty() && per_board_matches(plan) {
                out.push_str(&format!(
                    " The simulated columns, best moves included, are over the same boards: {} {} searched but left out, since the paper gives no counts for {} (results.csv has every run).",
                    crate::util::and_list(&left_out),
                    if left_out.len() == 1 { "is" } else { "are" },
                    if left_out.len() == 1 { "it" } else { "them" },
                ));
            }
            out.push('\n');
        } else if let Some(set) = &plan.chess {
            if plan.seeds.len() < set.positions.len() {
                out.push_str(&format!(
                    "\nThe paper's averages are over all its positions; this plan searches {} of the {}, so the two are not over the same positions.\n",
                    plan.seeds.len(),
                    set.positions.len()
                ));
            }
        }
    }
    let mut footnotes = Vec::new();
    let summaries = &compared(plan, summaries, rows)[..];
    let counted = |r: &&RunRecord| per_board(plan).is_none_or(|p| counted_by(p, plan, r));
    for (algorithm, depth) in groups(summaries) {
        out.push_str(&format!("\n### {algorithm}, {depth} ply\n\n"));
        if paper.is_some() {
            out.push_str(
                "| f | positions | leaves paper | leaves sim | secs paper | secs sim | speedup paper | speedup sim (sd) | search % paper | search % sim | time % paper | time % sim | best moves |\n\
                 |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            );
        } else {
            out.push_str(
                "| f | positions | leaves | secs | speedup (sd) | search % | time % | best moves |\n\
                 |---|---|---|---|---|---|---|---|\n",
            );
        }
        for s in summaries
            .iter()
            .filter(|s| s.algorithm == algorithm && s.depth == depth)
        {
            let mut recs = records_at(rows, &algorithm, depth, s.fanout);
            if recs.iter().any(counted) {
                recs.retain(counted);
            }
            let sd = s.speedup_se * (s.runs as f64).sqrt();
            let d = crate::results::ratio_decimals(s.speedup, 2);
            let speedup_sim = format!("{} ({})", fixed(s.speedup, d), fixed(sd, d));
            let sim = [
                fixed(s.leaf_nodes, 0),
                seconds(s.elapsed_s),
                speedup_sim,
                fixed(100.0 * s.search_overhead, 1),
                fixed(100.0 * s.time_overhead, 1),
            ];
            match paper {
                Some(p) => {
                    let sh = shown(plan, p, &algorithm, s.fanout);
                    let g = |f: fn(&Shown) -> Option<f64>, d: usize| {
                        sh.as_ref()
                            .map_or(UNDEFINED.to_string(), |x| fixed_opt(f(x), d))
                    };
                    let mut time_paper = g(|x| x.time, 1);
                    if let Some((printed, computed)) = sh.as_ref().and_then(|x| x.misprint) {
                        footnotes.push(format!(
                            "† {algorithm}, f = {}: {} (see `outputs.reference` in scenarios/README.md), so neither is matched blindly.",
                            s.fanout,
                            crate::reference::misprint_words(printed, computed)
                        ));
                        time_paper.push_str(" †");
                    }
                    out.push_str(&format!(
                        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                        s.fanout,
                        s.runs,
                        g(|x| x.leaf, 0),
                        sim[0],
                        sh.as_ref()
                            .map_or(UNDEFINED.to_string(), |x| seconds_opt(x.secs)),
                        sim[1],
                        g(|x| x.speedup, 2),
                        sim[2],
                        g(|x| x.search, 1),
                        sim[3],
                        time_paper,
                        sim[4],
                        best_moves(&recs),
                    ));
                }
                None => out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    s.fanout,
                    s.runs,
                    sim[0],
                    sim[1],
                    sim[2],
                    sim[3],
                    sim[4],
                    best_moves(&recs),
                )),
            }
        }
    }
    if !footnotes.is_empty() {
        out.push('\n');
        for f in footnotes {
            out.push_str(&f);
            out.push_str("\n\n");
        }
    }
    out
}

fn unmeasured(summaries: &[Summary], rows: &ChessRows) -> String {
    let mut out = String::from(
        "\n## What the paper could not measure\n\n\
         The 1985 clock ticked at 1/60 s, so the paper derived its \"communication overhead\" as \
         time overhead − search overhead. The simulator measures every processor's time apart. Per \
         (algorithm, f), over the mean uniprocessor time elapsed(1): search time = the processors' \
         search time − elapsed(1); messages = their (message + interrupt + wait_reply) CPU time, and on a machine with shared memory their memory time (the seconds columns leave it out: results.csv has it as t_memory_ns); \
         idle = their idle_sync time (waiting for work or for others). The three add up to the \
         time overhead. Seconds are means per position, summed over processors.\n\n\
         | algorithm | d | f | search time % | messages % | idle % | time % | message s | interrupt s | wait_reply s | idle_sync s |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let secs = |recs: &[&RunRecord], g: fn(&RunRecord) -> u64| {
        seconds(mean(recs.iter().map(|r| g(r) as f64)) * 1e-9)
    };
    for s in summaries {
        let recs = records_at(rows, &s.algorithm, s.depth, s.fanout);
        let base = baseline_of(rows, &s.algorithm, s.depth);
        let t1 = mean(base.iter().map(|r| r.elapsed_ns as f64));
        let search = mean(recs.iter().map(|r| r.t_search_ns as f64)) / t1 - 1.0;
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            s.algorithm,
            s.depth,
            s.fanout,
            fixed(100.0 * search, 1),
            fixed(100.0 * s.message_overhead, 2),
            fixed(100.0 * s.idle_overhead, 1),
            fixed(100.0 * s.time_overhead, 1),
            secs(&recs, |r| r.t_message_ns),
            secs(&recs, |r| r.t_interrupt_ns),
            secs(&recs, |r| r.t_wait_reply_ns),
            secs(&recs, |r| r.t_idle_sync_ns),
        ));
    }
    out.push_str(
        "\nMessages per position by type (Table I), mean count / mean bytes, all processors:\n\n\
         | algorithm | d | f | at-node | inter-node | inter-level | inter-iteration | interactive | bytes in all |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for s in summaries {
        let recs = records_at(rows, &s.algorithm, s.depth, s.fanout);
        let pair = |c: fn(&RunRecord) -> u64, b: fn(&RunRecord) -> u64| {
            format!(
                "{} / {}",
                fixed(mean(recs.iter().map(|r| c(r) as f64)), 0),
                fixed(mean(recs.iter().map(|r| b(r) as f64)), 0)
            )
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            s.algorithm,
            s.depth,
            s.fanout,
            pair(|r| r.msgs_at_node, |r| r.bytes_at_node),
            pair(|r| r.msgs_inter_node, |r| r.bytes_inter_node),
            pair(|r| r.msgs_inter_level, |r| r.bytes_inter_level),
            pair(|r| r.msgs_inter_iteration, |r| r.bytes_inter_iteration),
            pair(|r| r.msgs_interactive, |r| r.bytes_interactive),
            fixed(mean(recs.iter().map(|r| r.bytes_total as f64)), 0),
        ));
    }
    // Table use, for searches with a table.
    let with_table: Vec<&Summary> = summaries
        .iter()
        .filter(|s| {
            records_at(rows, &s.algorithm, s.depth, s.fanout)
                .iter()
                .any(|r| r.figure("tt_probes").is_some())
        })
        .collect();
    if !with_table.is_empty() {
        out.push_str(
            "\nTransposition-table use per position (means, all processors): probes, hits, hits that ended the node's search, stores, and the probes charged on the processor holding the table (`probes` column):\n\n\
             | algorithm | d | f | tt probes | tt hits | tt cutoffs | tt stores | charged probes |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for s in with_table {
            let recs = records_at(rows, &s.algorithm, s.depth, s.fanout);
            let m = |g: fn(&RunRecord) -> Option<u64>| {
                fixed(mean(recs.iter().filter_map(|r| g(r)).map(|x| x as f64)), 0)
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                s.algorithm,
                s.depth,
                s.fanout,
                m(|r| r.figure("tt_probes")),
                m(|r| r.figure("tt_hits")),
                m(|r| r.figure("tt_cutoffs")),
                m(|r| r.figure("tt_stores")),
                fixed(mean(recs.iter().map(|r| r.probes as f64)), 0),
            ));
        }
    }
    out
}

/// The positions where a search with a table returned another value than the table-free one.
fn differences(plan: &Plan, rows: &ChessRows) -> String {
    let tables = plan.algorithms.iter().any(|a| a.has_table());
    let mut out = String::from("\n## Values that differ from the table-free search\n\n");
    out.push_str(
        "Every position's value is also computed by a plain recursive full-window alpha-beta \
         without any table, outside the simulator (`value_reference`). A search without a \
         transposition table must return exactly that value (a run that does not is an error, \
         so none is listed here). With a table, a stored value may come from a different path or \
         depth and the value may legitimately differ, as the paper observed: every such run is \
         listed.\n\n",
    );
    let differ: Vec<&RunRecord> = rows
        .sweep
        .iter()
        .filter(|r| r.value_reference.is_some_and(|v| v != r.root_value))
        .collect();
    if differ.is_empty() {
        out.push_str(if tables {
            "Every run returned the table-free value.\n"
        } else {
            "No search of this plan keeps a table: every run returned the table-free value (checked).\n"
        });
        return out;
    }
    out.push_str(&format!(
        "{} runs differ:\n\n| position | algorithm | d | f | simulated value | table-free value | difference | move chosen |\n|---|---|---|---|---|---|---|---|\n",
        differ.len()
    ));
    for r in differ {
        let reference = r.value_reference.unwrap_or(r.root_value);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:+} | {} |\n",
            r.position,
            r.algorithm,
            r.depth,
            r.fanout,
            r.root_value,
            reference,
            r.root_value as i64 - reference as i64,
            r.root_move.as_deref().unwrap_or(UNDEFINED),
        ));
    }
    out
}

/// Table IV's layout: per position, the uniprocessor's leaf nodes, minutes and move, then the
/// speedup of each processor count; the paper's figures beside when it gives them per board.
fn positions_table(plan: &Plan, rows: &ChessRows) -> String {
    let Some(set) = &plan.chess else {
        return String::new();
    };
    let paper = per_board(plan);
    let mut out = String::from(
        "\n## Per position\n\n\
         The layout of the paper's Table IV: for each position, the uniprocessor search's leaf \
         nodes, minutes (simulated) and root move (UCI; ✓ when it is one of the EPD's best moves, \
         ✗ when not), then the speedup elapsed(1) / elapsed(f) for each processor count.",
    );
    if paper.is_some() {
        out.push_str(
            " Paper / simulated side by side; the paper's boards A–X are BK.01–BK.24, and a \
             board it gives no counts for is –.",
        );
    }
    out.push('\n');
    let fanouts: Vec<u32> = plan.fanouts.iter().copied().filter(|&f| f > 1).collect();
    // Each sweep row's speedup by (algorithm, depth, fanout, position), the first of each,
    // indexed once (a cell per position and fanout would otherwise scan every row).
    let mut speedups: std::collections::HashMap<(&str, u32, u32, u64), f64> =
        std::collections::HashMap::new();
    for r in &rows.sweep {
        speedups
            .entry((r.algorithm.as_str(), r.depth, r.fanout, r.seed))
            .or_insert(r.speedup);
    }
    for (algorithm, depth) in distinct(&rows.baseline, |r| (r.algorithm.clone(), r.depth)) {
        out.push_str(&format!(
            "\n### {algorithm}, {depth} ply\n\n| board | position |"
        ));
        let (leaves, minutes, mv) = if paper.is_some() {
            (
                " leaves paper | leaves sim |",
                " min paper | min sim |",
                " move paper | move sim |",
            )
        } else {
            (" leaves |", " minutes |", " move |")
        };
        out.push_str(leaves);
        out.push_str(minutes);
        out.push_str(mv);
        for f in &fanouts {
            if paper.is_some() {
                out.push_str(&format!(" speedup {f} paper | speedup {f} sim |"));
            } else {
                out.push_str(&format!(" speedup {f} |"));
            }
        }
        let columns = 2
            + if paper.is_some() { 6 } else { 3 }
            + fanouts.len() * if paper.is_some() { 2 } else { 1 };
        out.push_str("\n|");
        out.push_str(&"---|".repeat(columns));
        out.push('\n');
        for base in baseline_of(rows, &algorithm, depth) {
            let Some(p) = set.get(base.seed) else {
                continue;
            };
            let board = p.board(set.bratko_kopec);
            let pb = paper.and_then(|t| board.and_then(|b| t.rows.iter().find(|x| x.board == b)));
            let mark = match base.best_move_ok {
                Some(true) => " ✓",
                Some(false) => " ✗",
                None => "",
            };
            let sim_move = format!("{}{mark}", base.root_move.as_deref().unwrap_or(UNDEFINED));
            out.push_str(&format!(
                "| {} | {} |",
                board.map_or(UNDEFINED.to_string(), |c| c.to_string()),
                p.id
            ));
            let minutes = base.elapsed_ns as f64 / 60e9;
            if paper.is_some() {
                let one = pb.and_then(|b| b.at(1));
                out.push_str(&format!(
                    " {} | {} | {} | {} | {} | {} |",
                    fixed_opt(one.map(|x| x.leaf_nodes), 0),
                    base.leaf_nodes,
                    fixed_opt(one.map(|x| x.minutes), 0),
                    fixed(minutes, 1),
                    pb.map_or(UNDEFINED.to_string(), |b| format!(
                        "{}{}",
                        b.chosen_move,
                        if b.epd_best { "!" } else { "" }
                    )),
                    sim_move
                ));
            } else {
                out.push_str(&format!(
                    " {} | {} | {} |",
                    base.leaf_nodes,
                    fixed(minutes, 1),
                    sim_move
                ));
            }
            for &f in &fanouts {
                let sim = speedups
                    .get(&(algorithm.as_str(), depth, f, base.seed))
                    .copied()
                    .unwrap_or(f64::NAN);
                if paper.is_some() {
                    let pf = pb.and_then(|b| b.at(f)).and_then(|x| x.speedup);
                    out.push_str(&format!(" {} | {} |", fixed_opt(pf, 2), fixed(sim, 2)));
                } else {
                    out.push_str(&format!(" {} |", fixed(sim, 2)));
                }
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::read_paper_table;
    use std::path::Path;

    // The readers themselves are tested in `crate::reference`; here, the paper's averages
    // computed from Table IV's per-board rows.
    #[test]
    fn table_iv_averages_are_the_papers_own() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference");
        let PaperTable::PerBoard(t4) =
            read_paper_table(&root.join("parabelle-table4-6ply.csv"), &[1, 2, 3, 4]).unwrap()
        else {
            panic!("Table IV is per board");
        };
        assert_eq!(t4.rows.len(), 23);
        // The paper's own summary: mean six-ply speedups 1.92, 2.66, 3.27.
        for (f, want) in [(2, 1.92), (3, 2.66), (4, 3.27)] {
            let (n, _, _, s) = board_means(&t4, f, |_| true).unwrap();
            assert_eq!(n, 23);
            assert!((s.unwrap() - want).abs() < 0.006, "f = {f}: {s:?}");
        }
        // Over the boards searched only: board B alone, minutes as seconds.
        assert_eq!(
            board_means(&t4, 2, |b| b == 'B'),
            Some((1, 138063.0, 23.0 * 60.0, Some(1.92)))
        );
        assert_eq!(board_means(&t4, 2, |b| b == 'A'), None, "no board A");
    }
}
