//! Reading results back: `gtsim compare OUT_A OUT_B` (the change of every figure per
//! configuration, with its noise) and `gtsim plot OUT --x COLUMN --y COLUMN --by COLUMN` (any
//! columns of results.csv as a chart).

use crate::results::{fixed, mean};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A results.csv read back: its header and rows, every cell as text.
#[derive(Debug, Clone)]
pub struct Table {
    /// The file read.
    pub path: PathBuf,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, each with a cell per column.
    pub rows: Vec<Vec<String>>,
    /// Each row's line in the file (1-based).
    pub lines: Vec<usize>,
}

/// The columns of results.csv that hold text; every other one holds numbers (an undefined
/// value is an empty cell), but a vary run's varied fields ([`is_varied`]), which hold values
/// as the scenario writes them.
const TEXT_COLUMNS: &[&str] = &[
    "scenario",
    "algorithm",
    "tree",
    "ordering",
    "position",
    "root_move",
    "best_move_ok",
];

impl Table {
    /// Reads `OUT/results.csv` (or the file itself when `out` is a file).
    pub fn read(out: &Path) -> Result<Self, String> {
        let path = if out.is_dir() {
            out.join("results.csv")
        } else {
            out.to_path_buf()
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read results: {e}", path.display()))?;
        let mut lines = text.lines();
        let columns = lines
            .next()
            .map(crate::results::csv_split)
            .ok_or_else(|| format!("{}: empty, not a results.csv", path.display()))?;
        if !columns.iter().any(|c| c == "speedup") {
            return Err(format!(
                "{}: not a gtsim results.csv (no speedup column)",
                path.display()
            ));
        }
        let numeric: Vec<bool> = columns
            .iter()
            .map(|c| !TEXT_COLUMNS.contains(&c.as_str()) && !is_varied(c))
            .collect();
        let (mut rows, mut numbers) = (Vec::new(), Vec::new());
        for (i, line) in lines.enumerate().filter(|(_, l)| !l.is_empty()) {
            let row = crate::results::csv_split(line);
            if row.len() != columns.len() {
                return Err(format!(
                    "{}:{}: {} cells, the header has {}",
                    path.display(),
                    i + 2,
                    row.len(),
                    columns.len()
                ));
            }
            // A number gtsim did not write (`abc`, `nan`, `inf`) would be read as undefined, or
            // as a configuration of its own.
            for (c, cell) in row.iter().enumerate() {
                if numeric[c]
                    && !cell.is_empty()
                    && !cell.parse::<f64>().is_ok_and(|v| v.is_finite())
                {
                    // A column gtsim never names (a header edited by hand) is the likelier fault.
                    let unknown = if crate::results::COLUMNS.contains(&columns[c].as_str()) {
                        String::new()
                    } else {
                        format!(
                            "; and `{}` is not a column gtsim writes: was the header (line 1) edited?",
                            columns[c]
                        )
                    };
                    return Err(format!(
                        "{}:{}: column {} ({}): `{cell}` is not a number (results.csv holds a number there, or nothing where the value is undefined){unknown}",
                        path.display(),
                        i + 2,
                        c + 1,
                        columns[c]
                    ));
                }
            }
            rows.push(row);
            numbers.push(i + 2);
        }
        Ok(Table {
            path,
            columns,
            rows,
            lines: numbers,
        })
    }

    /// Only the rows whose cell in each column named by `filters` (`COLUMN=VALUE`) is that value.
    pub fn filtered(mut self, filters: &[String]) -> Result<Self, String> {
        // Per column, in the order first given, the values asked for: alternatives within a
        // column (`--where seed=1 --where seed=2`), every column applying.
        let mut wanted: Vec<(usize, &str, Vec<&str>)> = Vec::new();
        for f in filters {
            let (c, v) = f.split_once('=').ok_or_else(|| {
                format!("--where {f}: expected COLUMN=VALUE, e.g. ordering=random")
            })?;
            let i = self.column(c)?;
            match wanted.iter_mut().find(|(j, _, _)| *j == i) {
                Some((_, _, values)) => values.push(v),
                None => wanted.push((i, c, vec![v])),
            }
        }
        for (n, (i, c, wanted)) in wanted.into_iter().enumerate() {
            let no_row = |rows: &[Vec<String>], v: &str| {
                let mut values: Vec<&str> = rows.iter().map(|r| r[i].as_str()).collect();
                values.sort_unstable();
                values.dedup();
                let more = if values.len() > 12 { ", …" } else { "" };
                values.truncate(12);
                format!(
                    "{}: no row{} has {c} = {v} (its values{}: {}{more})",
                    self.path.display(),
                    if n > 0 {
                        " the other --where options keep"
                    } else {
                        ""
                    },
                    if n > 0 { " there" } else { "" },
                    values.join(", ")
                )
            };
            // A cell written in quotes (a varied field's value) matches without them too, and a
            // number matches the same number however written (240.0 = 240, 1e3 = 1000).
            let matches = |r: &[String], v: &str| {
                let cell = r[i].trim_matches('"');
                r[i] == v || cell == v || same_number(cell, v)
            };
            // Each value asked for must match a row: one misspelt among alternatives would be
            // named in the chart's title while it kept nothing.
            if let Some(v) = wanted
                .iter()
                .find(|&&v| !self.rows.iter().any(|r| matches(r, v)))
            {
                return Err(no_row(&self.rows, v));
            }
            (self.rows, self.lines) = std::mem::take(&mut self.rows)
                .into_iter()
                .zip(std::mem::take(&mut self.lines))
                .filter(|(r, _)| wanted.iter().any(|&v| matches(r, v)))
                .unzip();
        }
        Ok(self)
    }

    /// The columns that name a configuration (those of `KEY` present, in its order, then a
    /// `vary` run's field columns): rows that agree in all of them differ only in their tree.
    fn config_columns(&self) -> Vec<usize> {
        KEY.iter()
            .filter_map(|k| self.column(k).ok())
            .chain(
                // A vary run's varied fields (`machine` is among KEY already).
                self.columns
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| is_varied(c) && c.as_str() != "machine")
                    .map(|(i, _)| i),
            )
            .collect()
    }

    /// The index of column `name`, or an error listing the columns.
    pub fn column(&self, name: &str) -> Result<usize, String> {
        self.columns.iter().position(|c| c == name).ok_or_else(|| {
            let columns: Vec<&str> = self.columns.iter().map(String::as_str).collect();
            let meant = crate::load::meant(name, &columns)
                .map_or(String::new(), |m| format!(" (is {m:?} meant?)"));
            format!(
                "{}: no column {name:?}{meant}; the columns are: {}",
                self.path.display(),
                self.columns.join(", ")
            )
        })
    }
}

/// Whether `a` and `b` are both numbers (finite) and equal as numbers: `240.0` and `240`.
fn same_number(a: &str, b: &str) -> bool {
    let number = |t: &str| t.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    matches!((number(a), number(b)), (Some(x), Some(y)) if x == y)
}

/// Whether a column of results.csv is a field a `vary` run varied: named by its path, a field
/// of a section (with a '.': `hardware.link.rate`) or a top-level field of the scenario
/// (`machine`, `workload`, `hardware`, …; none of them is a column of every run).
fn is_varied(column: &str) -> bool {
    const TOP_LEVEL: &[&str] = &[
        "name",
        "description",
        "machine",
        "hardware",
        "workload",
        "search",
        "sweep",
        "outputs",
    ];
    column.contains('.') || TOP_LEVEL.contains(&column)
}

/// The columns that identify a configuration in a comparison (those present), besides the
/// fields a `vary` run varies ([`is_varied`]).
/// Runs of one configuration differ only in their tree: the seed, or the chess position.
const KEY: &[&str] = &[
    "algorithm",
    "tree",
    "ordering",
    "width",
    "depth",
    "horizon_noise",
    "fanout",
    "length",
    "ptree_depth",
    "ptree_width",
    "processors",
    "machine",
];

/// How a compared figure is shown.
#[derive(Clone, Copy, PartialEq)]
enum Shown {
    /// As it is, to three decimals.
    Plain,
    /// A fraction, as a percentage to one decimal.
    Percent,
    /// Nanoseconds, as seconds to three significant digits ([`crate::results::seconds`]).
    Seconds,
}

/// The figures compared, with their labels and how they are shown. The last, the simulated
/// time, is the only one compared on one processor (where speedup is 1 and the overheads 0 by
/// definition).
const FIGURES: &[(&str, &str, Shown)] = &[
    ("speedup", "speedup", Shown::Plain),
    // Eq. 9's overhead in leaves, as report.md names it: not a share of the time, so the
    // message and idle overheads need not add up with it to the time overhead.
    ("search_overhead", "search % (leaves)", Shown::Percent),
    ("time_overhead", "time %", Shown::Percent),
    ("message_overhead", "message %", Shown::Percent),
    ("idle_overhead", "idle %", Shown::Percent),
    ("elapsed_ns", "simulated time (s)", Shown::Seconds),
];
/// The index of the simulated time in [`FIGURES`].
const TIME: usize = FIGURES.len() - 1;

/// How far a difference must be from 0, in standard errors, to be flagged.
pub const NOISE_SE: f64 = 2.0;

/// Whether `text` (the start of a file) is a comparison gtsim wrote: its heading, a blank line,
/// then the line naming A.
pub fn is_comparison(text: &str) -> bool {
    let mut lines = text.lines();
    lines.next().is_some_and(|l| l.starts_with("# Comparison"))
        && lines.next() == Some("")
        && lines.next().is_some_and(|l| l.starts_with("A: `"))
}

/// The comparison of two results as Markdown: per configuration present in both, each
/// figure's mean in A and B and the change B − A with its standard error, flagged `*` where
/// it exceeds [`NOISE_SE`] standard errors; configurations on one processor by their simulated
/// time alone, in a table of their own. Runs are paired by seed when both have the same seeds
/// (the same trees: the change is then measured per tree), unpaired otherwise.
pub fn compare(a: &Table, b: &Table) -> Result<String, String> {
    // A vary run's results have a column per varied field: compared with one combination's
    // results, whose runs lack it, the combinations would be pooled.
    let varied =
        |t: &Table| -> Vec<String> { t.columns.iter().filter(|c| is_varied(c)).cloned().collect() };
    let (va, vb) = (varied(a), varied(b));
    if va != vb {
        let only = |x: &[String], y: &[String]| -> Vec<String> {
            x.iter().filter(|c| !y.contains(c)).cloned().collect()
        };
        let (oa, ob) = (only(&va, &vb), only(&vb, &va));
        let (t, cols) = if oa.is_empty() { (b, ob) } else { (a, oa) };
        return Err(format!(
            "{} has the varied column(s) {} that the other results lack: it holds every combination of a vary run, which cannot be matched run for run with the other; compare one of its combination folders (OUT/FIELD=VALUE) with the other results, or two vary runs",
            t.path.display(),
            cols.join(", ")
        ));
    }
    let (groups_a, unit) = groups(a)?;
    let (groups_b, _) = groups(b)?;
    for (t, g) in [(a, &groups_a), (b, &groups_b)] {
        let parallel =
            |k: &Vec<(String, String)>| !k.iter().any(|(n, v)| n == "processors" && v == "1");
        if !g.keys().any(parallel) {
            return Err(format!(
                "{}: every run is on one processor: compare compares parallel runs (their speedup and overheads against one processor)",
                t.path.display()
            ));
        }
    }
    let mut out = format!(
        "# Comparison\n\nA: `{}` ({} rows)  \nB: `{}` ({} rows)\n\nPer configuration in both: the mean over trees (seeds, or chess positions) of each run's figure in A and in B, and the change B − A ± its standard error (paired by tree when both ran the same trees; unpaired otherwise). `*` marks a change larger than {NOISE_SE} standard errors. Overheads are per-run means here (report.md's tables take ratios of means, as the paper does).\n",
        a.path.display(),
        a.rows.len(),
        b.path.display(),
        b.rows.len()
    );
    // Runs of different scenarios may differ in what no configuration column shows (the
    // machine, its costs, the trees' generator): said at the top.
    let names = |t: &Table| -> Vec<String> {
        let Ok(i) = t.column("scenario") else {
            return Vec::new();
        };
        let mut n: Vec<String> = t.rows.iter().map(|r| r[i].clone()).collect();
        n.sort_unstable();
        n.dedup();
        n
    };
    let (names_a, names_b) = (names(a), names(b));
    if names_a != names_b {
        let quoted = |n: &[String]| {
            n.iter()
                .map(|x| format!("`{x}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "\n**A and B are runs of different scenarios** (A: {}; B: {}): they may differ in what no configuration column shows (the machine, its costs, the trees), so a change below need not come from the configuration it is listed under. Each folder's report.md says what it ran.\n",
            quoted(&names_a),
            quoted(&names_b)
        ));
    }
    let mut shared = 0;
    // Changes beyond noise in speedup and the overheads, and in simulated time apart (a
    // change of costs moves every time, baselines too, without moving the ratios).
    let (mut flagged, mut flagged_time) = (0, 0);
    // Configurations in order of their cells, numbers as numbers (fanout 2 before 16); those
    // on one processor (the baselines) apart, by their simulated time only.
    let mut keys: Vec<&Vec<(String, String)>> = groups_a.keys().collect();
    keys.sort_by(|x, y| key_order(x, y));
    let mut baselines = String::new();
    let timed = a.column(FIGURES[TIME].0).is_ok() && b.column(FIGURES[TIME].0).is_ok();
    for key in keys {
        let runs_a = &groups_a[key];
        let Some(runs_b) = groups_b.get(key) else {
            continue;
        };
        let seeds_a: Vec<&String> = runs_a.iter().map(|r| &r.0).collect();
        let seeds_b: Vec<&String> = runs_b.iter().map(|r| &r.0).collect();
        // A synthetic tree is its seed only with the generator's other inputs the same: every
        // scheme finds the tree's root value, so runs of one seed whose root values differ
        // searched different trees (a chess position's value may differ with the search).
        let same_trees =
            unit == "position" || runs_a.iter().zip(runs_b.iter()).all(|(a, b)| a.1 == b.1);
        let paired = seeds_a == seeds_b && same_trees;
        let pairing = match (paired, unit) {
            (true, "position") => "paired by position",
            (true, _) => "paired by seed",
            _ if seeds_a == seeds_b => {
                "unpaired: the same seeds, but other trees (their root values differ)"
            }
            _ => "unpaired",
        };
        // Mean in A, in B, and the change with its standard error, as cells; and whether the
        // change is beyond noise.
        let row = |f: usize| -> ([String; 3], bool) {
            let scale = match FIGURES[f].2 {
                Shown::Plain => 1.0,
                Shown::Percent => 100.0,
                Shown::Seconds => 1e-9,
            };
            let va: Vec<f64> = runs_a.iter().map(|r| r.2[f] * scale).collect();
            let vb: Vec<f64> = runs_b.iter().map(|r| r.2[f] * scale).collect();
            let (ma, sa, _) = mean(va.iter().copied());
            let (mb, sb, _) = mean(vb.iter().copied());
            let (d, se) = if paired {
                let (d, se, _) = mean(vb.iter().zip(&va).map(|(b, a)| b - a));
                (d, se)
            } else {
                (mb - ma, (sa * sa + sb * sb).sqrt())
            };
            let flag = d.is_finite() && se.is_finite() && d.abs() > NOISE_SE * se;
            let show = |x: f64, more: usize| match FIGURES[f].2 {
                Shown::Plain => fixed(x, 3 + more),
                Shown::Percent => fixed(x, 1 + more),
                Shown::Seconds => crate::results::seconds(x),
            };
            (
                [
                    show(ma, 0),
                    show(mb, 0),
                    format!(
                        "{} ± {}{}",
                        show(d, 1),
                        show(se, 1),
                        if flag { " *" } else { "" }
                    ),
                ],
                flag,
            )
        };
        let uniprocessor = key.iter().any(|(n, v)| n == "processors" && v == "1");
        if uniprocessor {
            if !timed {
                continue;
            }
            let ([ma, mb, d], flag) = row(TIME);
            flagged_time += flag as usize;
            baselines.push_str(&format!(
                "| {} | {} / {} ({pairing}) | {ma} | {mb} | {d} |\n",
                describe(key),
                runs_a.len(),
                runs_b.len(),
            ));
            continue;
        }
        shared += 1;
        out.push_str(&format!("\n## {}\n\n", describe(key)));
        out.push_str(&format!(
            "{} runs in A, {} in B ({pairing})\n\n| figure | A | B | B − A |\n|---|---:|---:|---:|\n",
            runs_a.len(),
            runs_b.len(),
        ));
        for (f, (_, label, _)) in FIGURES.iter().enumerate() {
            if f == TIME && !timed {
                continue;
            }
            let ([ma, mb, d], flag) = row(f);
            if f == TIME {
                flagged_time += flag as usize;
            } else {
                flagged += flag as usize;
            }
            out.push_str(&format!("| {label} | {ma} | {mb} | {d} |\n"));
        }
    }
    if !baselines.is_empty() {
        out.push_str(&format!(
            "\n## On one processor (the baselines)\n\nThe simulated time, in s (speedup is 1 and the search and time overheads 0 on one processor by definition; the split of the time overhead need not be, where the one processor spends time other than searching, such as a shared memory's accesses), as above.\n\n| configuration | runs in A / B | A | B | B − A |\n|---|---:|---:|---:|---:|\n{baselines}"
        ));
    }
    if shared == 0 && baselines.is_empty() {
        return Err(format!(
            "{} and {} have no configuration in common (algorithm, tree, ordering, width, depth, noise and processor tree)",
            a.path.display(),
            b.path.display()
        ));
    }
    // Configurations in only one of the two: said, not dropped without a word.
    for (name, g, other) in [("A", &groups_a, &groups_b), ("B", &groups_b, &groups_a)] {
        let mut only: Vec<&Vec<(String, String)>> =
            g.keys().filter(|k| !other.contains_key(*k)).collect();
        if only.is_empty() {
            continue;
        }
        only.sort_by(|x, y| key_order(x, y));
        out.push_str(&format!(
            "\n## Only in {name} ({} configuration{}, not compared)\n\n",
            only.len(),
            if only.len() == 1 { "" } else { "s" },
        ));
        // A few name the kind; a thousand would bury the comparison (another scenario's).
        for k in only.iter().take(ONLY_LISTED) {
            out.push_str(&format!("- {}\n", describe(k)));
        }
        if only.len() > ONLY_LISTED {
            out.push_str(&format!("- … and {} more\n", only.len() - ONLY_LISTED));
        }
    }
    let uniprocessor = baselines.lines().count();
    out.insert_str(
        out.find('\n').unwrap_or(0),
        &format!(
            ": {shared} configuration{}{}, {flagged} change{} beyond noise{}",
            if shared == 1 { "" } else { "s" },
            match uniprocessor {
                0 => String::new(),
                n => format!(" and {n} on one processor"),
            },
            if flagged == 1 { "" } else { "s" },
            if timed {
                format!(" in speedup and overheads, {flagged_time} in simulated time")
            } else {
                String::new()
            }
        ),
    );
    Ok(out)
}

/// Per configuration (the [`KEY`] cells, name = value), its runs: each its
/// tree (seed, or seed and position), its root value and the [`FIGURES`], in file order.
type Groups = BTreeMap<Vec<(String, String)>, Vec<(String, String, Vec<f64>)>>;

/// The groups of `t`, and what tells its trees apart (`seed`, or `position` for chess).
fn groups(t: &Table) -> Result<(Groups, &'static str), String> {
    let key: Vec<(usize, &str)> = t
        .config_columns()
        .into_iter()
        .map(|i| (i, t.columns[i].as_str()))
        .collect();
    // The simulated time may be missing (a table written by hand): its row is then left out.
    let figures: Vec<Option<usize>> = FIGURES
        .iter()
        .enumerate()
        .map(|(f, (c, _, _))| match t.column(c) {
            Err(_) if f == TIME => Ok(None),
            i => i.map(Some),
        })
        .collect::<Result<_, _>>()?;
    // The processor count is among the configuration's cells (one processor: a baseline).
    let (seed, _) = (t.column("seed")?, t.column("processors")?);
    let root_value = t.column("root_value").ok();
    // A chess run's tree is its position (its seed is the position's number in the file).
    let position = t.column("position").ok();
    let mut out = Groups::new();
    // Each run once: a row given twice would count its tree twice, and unpair the runs.
    let mut seen: BTreeMap<Vec<&str>, usize> = BTreeMap::new();
    for (r, row) in t.rows.iter().enumerate() {
        let run: Vec<&str> = key
            .iter()
            .map(|&(i, _)| row[i].as_str())
            .chain([row[seed].as_str(), position.map_or("", |p| row[p].as_str())])
            .collect();
        if let Some(first) = seen.insert(run, t.lines[r]) {
            return Err(format!(
                "{}:{}: the same run as line {first} (the same configuration and {}): each run is in results.csv once",
                t.path.display(),
                t.lines[r],
                if position.is_some_and(|p| !row[p].is_empty()) { "position" } else { "seed" }
            ));
        }
        let tree = match position {
            Some(p) if !row[p].is_empty() => format!("{} {}", row[seed], row[p]),
            _ => row[seed].clone(),
        };
        // A varied string as older results wrote it, in RON's quotes, is the same value.
        let k = key
            .iter()
            .map(|&(i, name)| (name.to_string(), row[i].trim_matches('"').to_string()))
            .collect();
        let values = figures
            .iter()
            .map(|&i| i.map_or(f64::NAN, |i| row[i].parse::<f64>().unwrap_or(f64::NAN)))
            .collect();
        let root = root_value.map_or(String::new(), |i| row[i].clone());
        out.entry(k).or_default().push((tree, root, values));
    }
    let unit = match position {
        Some(p) if t.rows.iter().any(|r| !r[p].is_empty()) => "position",
        _ => "seed",
    };
    Ok((out, unit))
}

/// The order of two configurations: cell by cell, as [`cell_order`].
fn key_order(x: &[(String, String)], y: &[(String, String)]) -> std::cmp::Ordering {
    x.iter()
        .zip(y.iter())
        .map(|((_, u), (_, v))| cell_order(u, v))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// The order of two cells of a column: numbers by value and before any text, text as text.
fn cell_order(u: &str, v: &str) -> std::cmp::Ordering {
    match (u.parse::<f64>(), v.parse::<f64>()) {
        (Ok(a), Ok(b)) => a.total_cmp(&b).then_with(|| u.cmp(v)),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => u.cmp(v),
    }
}

fn describe(key: &[(String, String)]) -> String {
    key.iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The most lines `plot` draws: beyond, colours and markers repeat and the legend crowds out
/// the data.
pub const MAX_LINES: usize = 24;

/// A line's points: per x ([`x_key`]), x and the y values.
type Points = BTreeMap<i64, (f64, Vec<f64>)>;

/// The key of a point at `x` (finite): equal numbers meet (`2` and `2.0`, `0` and `-0`), and
/// keys order as the numbers do, however large (every bit of the number is kept).
fn x_key(x: f64) -> i64 {
    let bits = (x + 0.0).to_bits() as i64;
    // Negative numbers' bits order backwards: flip all but the sign.
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// A chart of column `y` against column `x` of a results table, one line per value of `by`
/// (or one line), each point the mean of `y` over the rows with that `x` (± its standard
/// error). Rows whose `x` or `y` is empty or not a number are left out; an error if none is
/// left.
///
/// Also returns the configuration columns (`KEY` and a `vary` run's field columns, other than
/// `x` and `by`) that differ among the rows of one point, each with its values
/// (`algorithm (treesplit, treesplit_update)`): such a point pools configurations, not only
/// trees. The chart's title names them too, so that the PNG says so without the terminal.
pub fn plot(
    t: &Table,
    x: &str,
    y: &str,
    by: Option<&str>,
    filters: &[String],
    log2_x: bool,
) -> Result<(plots::LineChart, Vec<String>), String> {
    let (xi, yi) = (t.column(x)?, t.column(y)?);
    // A column of names (algorithm, ordering, …) has no place on an axis.
    for (axis, column, i) in [("--x", x, xi), ("--y", y, yi)] {
        let named = t.rows.iter().map(|r| r[i].as_str()).find(|v| !v.is_empty());
        if let Some(name) = named.filter(|v| v.parse::<f64>().is_err()) {
            return Err(format!(
                "{}: {axis} {column}: the column holds names ({name:?}), not numbers: give it to --by (a line per value) or --where {column}=VALUE",
                t.path.display()
            ));
        }
    }
    if log2_x {
        if let Some(r) = t
            .rows
            .iter()
            .find(|r| r[xi].parse::<f64>().is_ok_and(|v| v <= 0.0))
        {
            return Err(format!(
                "{}: --log2-x: {x} has {} on a row, and a base-2 axis has room only for values above 0: pick rows with --where, or leave --log2-x out",
                t.path.display(),
                r[xi]
            ));
        }
    }
    let bi = by.map(|b| t.column(b)).transpose()?;
    let ((x_scale, x_label), (y_scale, y_label)) = (axis(t, x, xi), axis(t, y, yi));
    let mut lines: Vec<(String, Points)> = Vec::new();
    let mut used = 0;
    // The configuration columns a point could pool, and per (line, x) the rows it takes.
    let mut config = t.config_columns();
    config.retain(|&i| i != xi && Some(i) != bi);
    config.sort_unstable();
    let mut members: BTreeMap<(usize, i64), Vec<usize>> = BTreeMap::new();
    for (r, row) in t.rows.iter().enumerate() {
        let (Ok(xv), Ok(yv)) = (row[xi].parse::<f64>(), row[yi].parse::<f64>()) else {
            continue;
        };
        if !xv.is_finite() || !yv.is_finite() {
            continue;
        }
        let xk = x_key(xv);
        let (xv, yv) = (xv * x_scale, yv * y_scale);
        used += 1;
        let label = bi.map_or_else(
            || y.to_string(),
            |i| format!("{}={}", by.unwrap_or(""), row[i]),
        );
        let at = match lines.iter().position(|(l, _)| *l == label) {
            Some(i) => i,
            None => {
                lines.push((label, BTreeMap::new()));
                lines.len() - 1
            }
        };
        let entry = lines[at].1.entry(xk).or_insert((xv, Vec::new()));
        entry.1.push(yv);
        members.entry((at, xk)).or_default().push(r);
    }
    if used == 0 {
        return Err(format!(
            "{}: no row has numbers in both {x} and {y}",
            t.path.display()
        ));
    }
    if lines.len() > MAX_LINES {
        let b = by.unwrap_or_default();
        return Err(format!(
            "{}: --by {b} gives {} lines, and a chart tells at most {MAX_LINES} apart: pick a column with fewer values, or keep some rows with --where COLUMN=VALUE",
            t.path.display(),
            lines.len()
        ));
    }
    // Per configuration column, the values met within the points that pool it (numbers in
    // numeric order).
    let pooled: Vec<(usize, Vec<&str>)> = config
        .iter()
        .filter_map(|&c| {
            let mut values: Vec<&str> = members
                .values()
                .filter(|rows| rows.iter().any(|&r| t.rows[r][c] != t.rows[rows[0]][c]))
                .flatten()
                .map(|&r| t.rows[r][c].as_str())
                .collect();
            if values.is_empty() {
                return None;
            }
            if values.iter().all(|v| v.parse::<f64>().is_ok()) {
                values.sort_by(|a, b| a.parse::<f64>().unwrap().total_cmp(&b.parse().unwrap()));
            } else {
                values.sort_unstable();
            }
            values.dedup();
            Some((c, values))
        })
        .collect();
    let pooled_names: Vec<&str> = pooled.iter().map(|(c, _)| t.columns[*c].as_str()).collect();
    let pooled_text: Vec<String> = pooled
        .iter()
        .map(|(c, values)| {
            let more = if values.len() > 8 { ", …" } else { "" };
            let shown: Vec<&str> = values.iter().take(8).copied().collect();
            format!("{} ({}{more})", t.columns[*c], shown.join(", "))
        })
        .collect();
    let series = lines
        .into_iter()
        .enumerate()
        .map(|(color, (label, points))| {
            let stats: Vec<(f64, f64, f64)> = points
                .values()
                .map(|(xv, ys)| {
                    let (m, se, _) = mean(ys.iter().copied());
                    (*xv, m, if se.is_finite() { se } else { 0.0 })
                })
                .collect();
            plots::Series {
                label,
                points: stats.iter().map(|s| (s.0, s.1)).collect(),
                style: plots::LineStyle::Solid,
                color,
                errors: Some(stats.iter().map(|s| s.2).collect()),
                markers: true,
            }
        })
        .collect();
    // The rows picked (`--where`) and the columns pooled, in one parenthesis.
    let mut notes = Vec::new();
    if !filters.is_empty() {
        notes.push(filters.join(", "));
    }
    if !pooled_names.is_empty() {
        notes.push(format!("pooling {}", pooled_names.join(", ")));
    }
    let over = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    let chart = plots::LineChart {
        title: format!(
            "{y} against {x}{}: means over rows ± standard error{over}",
            by.map_or(String::new(), |b| format!(", by {b}"))
        ),
        // A base-2 axis says so: its ticks (1, 2, 3, 4, 6) are not evenly spaced.
        x_label: if log2_x {
            format!("{x_label} (log2 scale)")
        } else {
            x_label
        },
        y_label,
        series,
        integer_x: x_scale == 1.0
            && t.rows
                .iter()
                .all(|r| r[xi].is_empty() || r[xi].parse::<u64>().is_ok()),
        log2_x,
    };
    Ok((chart, pooled_text))
}

/// `gtsim plot`'s default file name: `plot-Y-by-X.png`, with `-per-BY` and `-where-COLUMN=VALUE`
/// for `--by` and each `--where`, so that charts of other lines or rows do not replace one
/// another; characters other than letters, digits and `.=_-` become `_`.
pub fn plot_file_name(x: &str, y: &str, by: Option<&str>, filters: &[String]) -> String {
    let mut name = format!("plot-{y}-by-{x}");
    if let Some(b) = by {
        name.push_str(&format!("-per-{b}"));
    }
    for f in filters {
        name.push_str(&format!("-where-{f}"));
    }
    format!("{}.png", file_safe(&name, ".=_-"))
}

/// `text` as part of a file or folder name: ASCII letters, digits and the characters of `keep`
/// as they are, every other character `_` (`gtsim plot`'s charts, `vary`'s folders).
pub fn file_safe(text: &str, keep: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || keep.contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The configurations in one file only that a comparison lists by name (the rest counted).
const ONLY_LISTED: usize = 20;

/// How a chart shows column `i` (`column`): its factor and axis label. Times (`…_ns`) are
/// drawn as they are in Campbell's time unit (a leaf costs one nanosecond: every run's leaf time
/// is its leaf count, [`in_leaf_evaluations`]), said in the label; otherwise in seconds when
/// they reach a millisecond, said too. Every other column as it is.
fn axis(t: &Table, column: &str, i: usize) -> (f64, String) {
    let largest = t
        .rows
        .iter()
        .filter_map(|r| r[i].parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if column.ends_with("_ns") && in_leaf_evaluations(t) {
        (1.0, format!("{column}, in leaf evaluations"))
    } else if column.ends_with("_ns") && largest >= 1e6 {
        (1e-9, format!("{column}, in seconds"))
    } else if column.ends_with("_overhead") || column.starts_with("model_sync_overhead") {
        // results.csv holds overheads as fractions; a chart gives them in per cent, as the
        // report and `compare` do.
        (100.0, format!("{column} (%)"))
    } else {
        (1.0, column.to_string())
    }
}

/// Whether the results count time in Campbell's unit, a leaf evaluation (as report.md does
/// when a leaf costs 1 ns): every run's leaf time (`leaf_ns`) is its leaf count.
fn in_leaf_evaluations(t: &Table) -> bool {
    let (Ok(ns), Ok(leaves)) = (t.column("leaf_ns"), t.column("leaf_nodes")) else {
        return false;
    };
    !t.rows.is_empty()
        && t.rows
            .iter()
            .all(|r| !r[ns].is_empty() && r[ns] == r[leaves])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[(&str, &str, &str, &str)]) -> Table {
        // algorithm, processors/fanout, seed, speedup
        let columns: Vec<String> = [
            "algorithm",
            "fanout",
            "processors",
            "seed",
            "speedup",
            "search_overhead",
            "time_overhead",
            "message_overhead",
            "idle_overhead",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let rows: Vec<Vec<String>> = rows
            .iter()
            .map(|(a, p, s, v)| {
                vec![
                    a.to_string(),
                    p.to_string(),
                    p.to_string(),
                    s.to_string(),
                    v.to_string(),
                    "0.1".into(),
                    "0.2".into(),
                    "0.01".into(),
                    "0.1".into(),
                ]
            })
            .collect();
        Table {
            path: PathBuf::from("t.csv"),
            columns,
            lines: (2..2 + rows.len()).collect(),
            rows,
        }
    }

    /// `t` with a column `name` added, its cells from `cells` (one per row).
    fn with_column(mut t: Table, name: &str, cells: &[&str]) -> Table {
        t.columns.push(name.into());
        for (row, c) in t.rows.iter_mut().zip(cells) {
            row.push(c.to_string());
        }
        t
    }

    #[test]
    fn the_combinations_of_a_vary_run_are_not_pooled() {
        let rows = [
            ("pmws", "4", "1", "3.0"),
            ("pmws", "4", "1", "1.5"),
            ("pmws", "4", "2", "3.2"),
            ("pmws", "4", "2", "1.6"),
        ];
        let vary = with_column(table(&rows), "machine", &["a", "b", "a", "b"]);
        let md = compare(&vary, &vary).unwrap();
        // One configuration per machine, each of two runs paired by seed.
        assert!(md.contains("2 configurations, 0 changes"), "{md}");
        assert!(md.contains("machine a") && md.contains("machine b"), "{md}");
        assert!(md.contains("2 runs in A, 2 in B (paired by seed)"), "{md}");
        // Against results without the column, the combinations could only be pooled: refused.
        let one = table(&rows[..1]);
        let e = compare(&vary, &one).unwrap_err();
        assert!(e.contains("varied column(s) machine"), "{e}");
        // The same for every top-level field a vary run can vary, and a section's field.
        let mut fields = schema_fields();
        fields.push("hardware.link.rate".into());
        for field in fields {
            let vary = with_column(table(&rows), &field, &["a", "b", "a", "b"]);
            let md = compare(&vary, &vary).unwrap();
            assert!(md.contains("2 configurations, 0 changes"), "{field}: {md}");
            let e = compare(&vary, &one).unwrap_err();
            assert!(e.contains(&format!("varied column(s) {field}")), "{e}");
            let (_, pooled) = plot(&vary, "processors", "speedup", None, &[], false).unwrap();
            assert_eq!(pooled, [format!("{field} (a, b)")], "{field}");
        }
    }

    #[test]
    fn points_meet_at_equal_x_only_however_large() {
        let keys = [
            -1e300, -2.5, -1e-300, 0.0, 1e-300, 0.5, 2.0, 9.3e12, 9.4e12, 8.9e13, 1e300,
        ];
        for w in keys.windows(2) {
            assert!(x_key(w[0]) < x_key(w[1]), "{w:?}");
        }
        assert_eq!(x_key(-0.0), x_key(0.0));
        assert_eq!(x_key("2".parse().unwrap()), x_key("2.0".parse().unwrap()));
        // Rows far past 9.2e12 ns (two and a half hours) are points of their own.
        let rows = [
            ("pmws", "2", "1", "1.5"),
            ("pmws", "3", "1", "2.5"),
            ("pmws", "4", "1", "3.5"),
        ];
        let t = with_column(
            table(&rows),
            "elapsed_ns",
            &["13741106000050", "50040000000000", "88801912000000"],
        );
        let (chart, _) = plot(&t, "elapsed_ns", "speedup", None, &[], false).unwrap();
        let points = &chart.series[0].points;
        assert_eq!(points.len(), 3, "{points:?}");
        assert!(
            (points[2].0 - 88801.912).abs() < 1e-6 && points[2].1 == 3.5,
            "{points:?}"
        );
    }

    #[test]
    fn campbell_time_units_are_drawn_as_they_are_however_many() {
        let rows = [
            ("treesplit", "2", "1", "1.5"),
            ("treesplit", "4", "1", "2.5"),
        ];
        let t = with_column(table(&rows), "elapsed_ns", &["3000000", "2000000"]);
        let campbell = with_column(
            with_column(t, "leaf_nodes", &["5000000", "5100000"]),
            "leaf_ns",
            &["5000000", "5100000"],
        );
        let (chart, _) = plot(&campbell, "processors", "elapsed_ns", None, &[], false).unwrap();
        assert_eq!(chart.y_label, "elapsed_ns, in leaf evaluations");
        assert_eq!(chart.series[0].points, [(2.0, 3e6), (4.0, 2e6)]);
        // A leaf that costs anything else: seconds.
        let mut seconds = campbell;
        seconds.rows[1][11] = "5100001".into();
        let (chart, _) = plot(&seconds, "processors", "elapsed_ns", None, &[], false).unwrap();
        assert_eq!(chart.y_label, "elapsed_ns, in seconds");
        assert_eq!(chart.series[0].points, [(2.0, 3e-3), (4.0, 2e-3)]);
    }

    /// `text` as a results.csv in a folder of its own under the system's temporary folder.
    fn read_text(name: &str, text: &str) -> Result<Table, String> {
        let dir = std::env::temp_dir().join(format!("gtsim-compare-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.csv");
        std::fs::write(&path, text).unwrap();
        let t = Table::read(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        t
    }

    #[test]
    fn cells_gtsim_never_writes_are_errors_at_their_line_and_column() {
        let head = "algorithm,processors,seed,speedup,search_overhead,time_overhead,message_overhead,idle_overhead,workload\n";
        let row = |p: &str, seed: &str, speedup: &str| {
            format!("pmws,{p},{seed},{speedup},0.1,0.2,0.01,0.1,Synthetic(width: 4)\n")
        };
        // Empty (undefined) is a value; text in a varied field's column is its value.
        let t = read_text(
            "ok",
            &format!("{head}{}{}", row("4", "1", "3.5"), row("4", "2", "")),
        )
        .unwrap();
        assert_eq!(t.lines, [2, 3]);
        for bad in ["abc", "nan", "inf", "-inf", "1e999"] {
            let e = read_text(
                "bad",
                &format!("{head}{}\n{}", row("4", "1", "3.5"), row("4", "2", bad)),
            )
            .unwrap_err();
            assert!(
                e.ends_with(&format!(
                    "results.csv:4: column 4 (speedup): `{bad}` is not a number (results.csv holds a number there, or nothing where the value is undefined)"
                )),
                "{e}"
            );
        }
        // A text column renamed in the header: said.
        let renamed = "scenarioX,processors,seed,speedup\nbase,4,1,3.5\n";
        let e = read_text("renamed", renamed).unwrap_err();
        assert!(
            e.contains("`scenarioX` is not a column gtsim writes: was the header (line 1) edited?"),
            "{e}"
        );
        // A configuration cell too: `x` processors would be a configuration of its own.
        let e = read_text("config", &format!("{head}{}", row("x", "1", "3.5"))).unwrap_err();
        assert!(
            e.contains(":2: column 2 (processors): `x` is not a number"),
            "{e}"
        );
        // A run given twice.
        let twice = read_text(
            "twice",
            &format!(
                "{head}{}{}{}",
                row("4", "1", "3.5"),
                row("4", "2", "3.0"),
                row("4", "1", "3.5")
            ),
        )
        .unwrap();
        let e = compare(&twice, &twice).unwrap_err();
        assert!(
            e.ends_with("results.csv:4: the same run as line 2 (the same configuration and seed): each run is in results.csv once"),
            "{e}"
        );
    }

    /// The top-level fields of a scenario, as the schema's parser lists them (but `vary`), and
    /// `machine`, which the loader reads before it.
    fn schema_fields() -> Vec<String> {
        let e = ron::from_str::<crate::schema::Scenario>("(zz: 1)").unwrap_err();
        let ron::Error::NoSuchStructField { expected, .. } = e.code else {
            panic!("{e}");
        };
        let mut fields: Vec<String> = expected
            .iter()
            .filter(|f| **f != "vary")
            .map(|f| f.to_string())
            .collect();
        fields.push("machine".into());
        fields
    }

    #[test]
    fn seeds_that_grew_other_trees_are_not_paired() {
        let rows = [("pmws", "4", "1", "3.0"), ("pmws", "4", "2", "2.0")];
        let a = with_column(table(&rows), "root_value", &["12", "-40"]);
        let same = with_column(table(&rows), "root_value", &["12", "-40"]);
        assert!(compare(&a, &same).unwrap().contains("paired by seed"));
        // Another value spread, say: the same seeds, other trees.
        let other = with_column(table(&rows), "root_value", &["7", "-40"]);
        let md = compare(&a, &other).unwrap();
        assert!(
            md.contains("2 runs in A, 2 in B (unpaired: the same seeds, but other trees (their root values differ))"),
            "{md}"
        );
    }

    #[test]
    fn chess_runs_are_paired_by_position() {
        let rows = [
            ("parabelle", "4", "1", "3.0"),
            ("parabelle", "4", "2", "2.0"),
            ("parabelle", "4", "3", "2.5"),
        ];
        let a = with_column(table(&rows), "position", &["BK.01", "BK.02", "BK.03"]);
        let halved = [
            ("parabelle", "4", "1", "1.5"),
            ("parabelle", "4", "2", "1.0"),
            ("parabelle", "4", "3", "1.25"),
        ];
        let b = with_column(table(&halved), "position", &["BK.01", "BK.02", "BK.03"]);
        let md = compare(&a, &b).unwrap();
        assert!(
            md.contains("1 configuration, 1 change beyond noise"),
            "{md}"
        );
        assert!(
            md.contains("3 runs in A, 3 in B (paired by position)"),
            "{md}"
        );
    }

    #[test]
    fn results_of_one_processor_are_not_compared() {
        let a = table(&[("ab", "1", "1", "1"), ("ab", "1", "2", "1")]);
        let e = compare(&a, &a).unwrap_err();
        assert!(e.contains("every run is on one processor"), "{e}");
    }

    /// With the simulated time: a row of its own in every parallel configuration, and the
    /// configurations on one processor compared by it alone, a change flagged as any other.
    #[test]
    fn simulated_time_is_compared_and_the_baselines_by_it_alone() {
        let rows = [
            ("pmws", "4", "1", "3.0"),
            ("pmws", "4", "2", "3.2"),
            ("pmws", "1", "1", "1"),
            ("pmws", "1", "2", "1"),
        ];
        let timed = |ns: [&str; 4]| with_column(table(&rows), "elapsed_ns", &ns);
        let a = timed(["1000000000", "1100000000", "3000000000", "3500000000"]);
        let b = timed(["1200000000", "1340000000", "3600000000", "4200000000"]);
        let md = compare(&a, &b).unwrap();
        assert!(
            md.contains(
                "# Comparison: 1 configuration and 1 on one processor, 0 changes beyond noise in speedup and overheads, 2 in simulated time"
            ),
            "{md}"
        );
        // Means 1.05 s and 1.27 s; changes 0.2 and 0.24 s, paired: 0.22 ± 0.02.
        assert!(
            md.contains("| simulated time (s) | 1.05 | 1.27 | 0.220 ± 0.0200 * |"),
            "{md}"
        );
        let baselines = &md[md.find("## On one processor (the baselines)").unwrap()..];
        // Means 3.25 s and 3.9 s; changes 0.6 and 0.7 s: 0.65 ± 0.05.
        assert!(
            baselines.contains(
                "processors 1 | 2 / 2 (paired by seed) | 3.25 | 3.90 | 0.650 ± 0.0500 * |"
            ),
            "{md}"
        );
        // No other figure of the baselines is compared.
        assert!(!baselines.contains("speedup |"), "{md}");
        let same = compare(&a, &a).unwrap();
        assert!(same.contains("0 changes beyond noise"), "{same}");
    }

    #[test]
    fn a_change_beyond_noise_is_flagged_and_equal_runs_are_not() {
        let a = table(&[
            ("pmws", "4", "1", "3.0"),
            ("pmws", "4", "2", "3.2"),
            ("pmws", "1", "1", "1"),
        ]);
        let b = table(&[("pmws", "4", "1", "2.5"), ("pmws", "4", "2", "2.71")]);
        let md = compare(&a, &b).unwrap();
        assert!(
            md.contains("1 configuration, 1 change beyond noise"),
            "{md}"
        );
        assert!(md.contains("paired by seed"), "{md}");
        assert!(
            md.contains("| speedup | 3.100 | 2.605 | -0.4950 ± 0.0050 * |"),
            "{md}"
        );
        let same = compare(&a, &a).unwrap();
        assert!(same.contains("0 changes beyond noise"), "{same}");
        // Configurations in numeric order: fanout 4 before 16.
        let wide = table(&[("pmws", "16", "1", "9.0"), ("pmws", "4", "1", "3.0")]);
        let md = compare(&wide, &wide).unwrap();
        let (four, sixteen) = (
            md.find("fanout 4,").unwrap(),
            md.find("fanout 16,").unwrap(),
        );
        assert!(four < sixteen, "{md}");
        // A configuration in one file only is listed, not dropped without a word.
        let more = table(&[
            ("pmws", "16", "1", "9.0"),
            ("pmws", "4", "1", "3.0"),
            ("pmws", "8", "1", "5.0"),
        ]);
        let md = compare(&wide, &more).unwrap();
        assert!(md.contains("2 configurations"), "{md}");
        assert!(
            md.contains("## Only in B (1 configuration, not compared)\n\n- algorithm pmws")
                && md.contains("fanout 8"),
            "{md}"
        );
        assert!(!md.contains("Only in A"), "{md}");
        // Runs of different scenarios are compared, and said to be.
        let named = |t: &Table, name: &str| {
            let mut t = t.clone();
            t.columns.push("scenario".into());
            for r in &mut t.rows {
                r.push(name.into());
            }
            t
        };
        let other_scenario = compare(&named(&wide, "x"), &named(&more, "y")).unwrap();
        assert!(
            other_scenario.contains("**A and B are runs of different scenarios** (A: `x`; B: `y`)"),
            "{other_scenario}"
        );
        let same_scenario = compare(&named(&wide, "x"), &named(&more, "x")).unwrap();
        assert!(
            !same_scenario.contains("different scenarios"),
            "{same_scenario}"
        );
        // A long list of configurations in one file only is cut short, and counted.
        let many: Vec<(String, String)> = (0..30)
            .map(|i| (format!("{}", 100 + i), "9.0".to_string()))
            .collect();
        let rows: Vec<(&str, &str, &str, &str)> = many
            .iter()
            .map(|(f, v)| ("pmws", f.as_str(), "1", v.as_str()))
            .chain([("pmws", "4", "1", "3.0")])
            .collect();
        let long = compare(&wide, &table(&rows)).unwrap();
        assert!(
            long.contains("## Only in B (30 configurations, not compared)"),
            "{long}"
        );
        assert!(long.contains("- … and 10 more\n"), "{long}");
        let other = table(&[("treesplit", "4", "1", "2")]);
        assert!(compare(&a, &other).is_err());
    }

    #[test]
    fn plot_means_each_x_per_line() {
        let t = table(&[
            ("pmws", "2", "1", "1.8"),
            ("pmws", "2", "2", "2.0"),
            ("pmws", "4", "1", "3.0"),
            ("ab", "2", "1", ""),
        ]);
        let (chart, pooled) = plot(&t, "fanout", "speedup", Some("algorithm"), &[], false).unwrap();
        assert!(pooled.is_empty(), "{pooled:?}");
        assert_eq!(
            chart.series.len(),
            1,
            "the row without a speedup is left out"
        );
        let s = &chart.series[0];
        assert_eq!(s.label, "algorithm=pmws");
        assert_eq!(s.points.len(), 2);
        assert!((s.points[0].1 - 1.9).abs() < 1e-12 && s.points[1] == (4.0, 3.0));
        assert!(plot(&t, "fanout", "nope", None, &[], false)
            .unwrap_err()
            .contains("no column"));
        // A near miss is named; a column of names is refused on an axis; a base-2 axis takes
        // values above 0 only.
        let near = plot(&t, "fanout", "speedpu", None, &[], false).unwrap_err();
        assert!(
            near.contains("no column \"speedpu\" (is \"speedup\" meant?)"),
            "{near}"
        );
        let names = plot(&t, "algorithm", "speedup", None, &[], false).unwrap_err();
        assert!(
            names.contains("--x algorithm: the column holds names (\"pmws\")"),
            "{names}"
        );
        let (log, _) = plot(&t, "fanout", "speedup", None, &[], true).unwrap();
        assert!(log.log2_x);
        assert_eq!(log.x_label, "fanout (log2 scale)");
        assert_eq!(
            plot(&t, "fanout", "speedup", None, &[], false)
                .unwrap()
                .0
                .x_label,
            "fanout"
        );
        let zeros = table(&[("pmws", "2", "1", "0"), ("pmws", "4", "1", "3.0")]);
        let zero = plot(&zeros, "speedup", "fanout", None, &[], true).unwrap_err();
        assert!(zero.contains("--log2-x: speedup has 0 on a row"), "{zero}");
        let only = t.filtered(&["seed=2".into()]).unwrap();
        assert_eq!(only.rows.len(), 1);
        // Values of one column are alternatives; other columns apply too.
        let either = table(&[
            ("pmws", "2", "1", "1.8"),
            ("pmws", "2", "2", "2.0"),
            ("pmws", "4", "1", "3.0"),
            ("ab", "2", "1", ""),
        ])
        .filtered(&["seed=1".into(), "algorithm=pmws".into(), "seed=2".into()])
        .unwrap();
        assert_eq!(either.rows.len(), 3);
        let Err(none) =
            table(&[("pmws", "2", "1", "1.8")]).filtered(&["seed=5".into(), "seed=6".into()])
        else {
            panic!("no row has seed 5 or 6");
        };
        assert!(
            none.contains("no row has seed = 5 (its values: 1)"),
            "{none}"
        );
        // One alternative that matches nothing is named, though the other keeps rows: the
        // chart's title would name it.
        let Err(typo) = table(&[("pmws", "2", "1", "1.8"), ("pmws", "2", "2", "2.0")])
            .filtered(&["seed=1".into(), "seed=7".into()])
        else {
            panic!("no row has seed 7");
        };
        assert!(
            typo.contains("no row has seed = 7 (its values: 1, 2)"),
            "{typo}"
        );
        // Among the rows another column's values keep.
        let Err(kept) = table(&[("pmws", "2", "1", "1.8"), ("ab", "2", "2", "2.0")])
            .filtered(&["algorithm=pmws".into(), "seed=2".into()])
        else {
            panic!("no pmws row has seed 2");
        };
        assert!(
            kept.contains(
                "no row the other --where options keep has seed = 2 (its values there: 1)"
            ),
            "{kept}"
        );
        // Times are drawn in seconds, and the axis says so.
        let timed = with_column(
            table(&[
                ("pmws", "2", "1", "1.8"),
                ("pmws", "2", "2", "2.0"),
                ("pmws", "4", "1", "3.0"),
                ("ab", "2", "1", ""),
            ]),
            "elapsed_ns",
            &["2000000000", "4000000000", "1500000000", "1"],
        );
        let (chart, _) = plot(
            &timed,
            "fanout",
            "elapsed_ns",
            Some("algorithm"),
            &[],
            false,
        )
        .unwrap();
        assert_eq!(chart.y_label, "elapsed_ns, in seconds");
        // Campbell's time units (a nanosecond a leaf) stay as they are.
        let units = with_column(
            table(&[("ab", "2", "1", "1.0"), ("ab", "4", "1", "1.0")]),
            "elapsed_ns",
            &["5726", "3000"],
        );
        let (small, _) = plot(&units, "fanout", "elapsed_ns", None, &[], false).unwrap();
        assert_eq!(small.y_label, "elapsed_ns");
        assert_eq!(small.series[0].points[0].1, 5726.0);
        assert_eq!(chart.x_label, "fanout");
        let s = &chart.series[0];
        assert_eq!(s.points.len(), 2);
        assert!((s.points[0].1 - 3.0).abs() < 1e-12, "{:?}", s.points);
        assert!((s.points[1].1 - 1.5).abs() < 1e-12, "{:?}", s.points);
    }

    /// `--where` compares numbers as numbers (240.0 keeps the rows of 240, as a vary run's
    /// float field writes it), and anything else as text.
    #[test]
    fn where_compares_numbers_by_value() {
        let rated = || {
            with_column(
                table(&[
                    ("pmws", "2", "1", "1.8"),
                    ("pmws", "2", "2", "2.0"),
                    ("ab", "4", "1", "3.0"),
                ]),
                "hardware.link.rate",
                &["240", "960", "240"],
            )
        };
        for v in ["240", "240.0", "2.4e2"] {
            let kept = rated()
                .filtered(&[format!("hardware.link.rate={v}")])
                .unwrap();
            assert_eq!(kept.rows.len(), 2, "{v}");
        }
        let Err(none) = rated().filtered(&["hardware.link.rate=24".into()]) else {
            panic!("no rate is 24");
        };
        assert!(
            none.contains("no row has hardware.link.rate = 24 (its values: 240, 960)"),
            "{none}"
        );
        // Text is text: a number does not match a name, nor a name written otherwise.
        assert!(rated().filtered(&["algorithm=2".into()]).is_err());
        assert!(rated().filtered(&["algorithm=PMWS".into()]).is_err());
        assert_eq!(
            rated()
                .filtered(&["fanout=2.00".into()])
                .unwrap()
                .rows
                .len(),
            2
        );
    }

    #[test]
    fn plot_gives_overheads_in_per_cent() {
        let t = table(&[("pmws", "2", "1", "1.8"), ("pmws", "4", "1", "3.0")]);
        let (chart, _) = plot(&t, "fanout", "idle_overhead", None, &[], false).unwrap();
        assert_eq!(chart.y_label, "idle_overhead (%)");
        // The table's idle_overhead cells are 0.1.
        for p in &chart.series[0].points {
            assert!((p.1 - 10.0).abs() < 1e-9, "{:?}", chart.series[0].points);
        }
        let (speedup, _) = plot(&t, "fanout", "speedup", None, &[], false).unwrap();
        assert_eq!(speedup.y_label, "speedup");
    }

    #[test]
    fn plot_names_the_configurations_a_point_pools() {
        let four = || {
            table(&[
                ("pmws", "2", "1", "1.8"),
                ("treesplit", "2", "1", "1.2"),
                ("pmws", "4", "1", "3.0"),
                ("ab", "4", "1", ""),
            ])
        };
        let t = four();
        // One line: the point at fanout 2 pools pmws and treesplit (the row of ab has no
        // speedup, so it is in no point).
        let (chart, pooled) = plot(
            &t,
            "fanout",
            "speedup",
            None,
            &["ordering=random".into()],
            false,
        )
        .unwrap();
        assert_eq!(pooled, vec!["algorithm (pmws, treesplit)".to_string()]);
        assert!(
            chart
                .title
                .ends_with("(ordering=random; pooling algorithm)"),
            "{}",
            chart.title
        );
        // A line per algorithm, or one algorithm picked: nothing pooled.
        for (t, by) in [
            (
                table(&[("pmws", "2", "1", "1.8"), ("treesplit", "2", "1", "1.2")]),
                Some("algorithm"),
            ),
            (four().filtered(&["algorithm=pmws".into()]).unwrap(), None),
        ] {
            let (chart, pooled) = plot(&t, "fanout", "speedup", by, &[], false).unwrap();
            assert!(pooled.is_empty(), "{pooled:?}");
            assert!(!chart.title.contains("pooling"), "{}", chart.title);
        }
        // Columns that differ between points but not within one are not pooled: processors
        // follows fanout here.
        let (_, pooled) = plot(&t, "seed", "speedup", Some("algorithm"), &[], false).unwrap();
        assert_eq!(
            pooled,
            vec!["fanout (2, 4)".to_string(), "processors (2, 4)".to_string()]
        );
        // Too many lines to tell apart: refused, naming the count.
        let many: Vec<(String, String, String, String)> = (0..=MAX_LINES)
            .map(|i| ("pmws".into(), "2".into(), i.to_string(), "1.5".into()))
            .collect();
        let many: Vec<(&str, &str, &str, &str)> = many
            .iter()
            .map(|(a, b, c, d)| (a.as_str(), b.as_str(), c.as_str(), d.as_str()))
            .collect();
        let err = plot(&table(&many), "fanout", "speedup", Some("seed"), &[], false).unwrap_err();
        assert!(err.contains("--by seed gives 25 lines"), "{err}");
        assert!(plot(
            &table(&many[1..]),
            "fanout",
            "speedup",
            Some("seed"),
            &[],
            false
        )
        .is_ok());
        // Only the values pooled within a point are named, numbers in numeric order: here
        // the point at fanout 2 pools 10 and 9, the one at fanout 4 pools nothing.
        let mixed = with_column(
            table(&[
                ("pmws", "2", "1", "1.8"),
                ("pmws", "2", "2", "2.0"),
                ("pmws", "4", "1", "3.0"),
            ]),
            "width",
            &["10", "9", "34"],
        );
        let (_, pooled) = plot(&mixed, "fanout", "speedup", None, &[], false).unwrap();
        assert_eq!(pooled, vec!["width (9, 10)".to_string()]);
        // A vary run's field columns count as configuration.
        let varied = with_column(
            table(&[("pmws", "2", "1", "1.8"), ("pmws", "2", "2", "2.0")]),
            "hardware.link.rate",
            &["960", "480"],
        );
        let (_, pooled) = plot(&varied, "fanout", "speedup", None, &[], false).unwrap();
        assert_eq!(pooled, vec!["hardware.link.rate (480, 960)".to_string()]);
    }
}
