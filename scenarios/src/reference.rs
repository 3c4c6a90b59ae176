//! Published figures a scenario is compared with (e.g. the paper's Table II), read from CSV.
//!
//! The file has a header line with at least the column `fanout` and any of `leaf_nodes`, `secs`,
//! `speedup`, `search_overhead_pct`, `time_overhead_pct`; lines starting with `#` are comments.

use crate::results::Summary;
use std::path::{Path, PathBuf};

/// One published row.
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

/// A reference table and where it came from.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The table's path, resolved against the scenario file's folder.
    pub path: PathBuf,
    /// The file's comment lines (its provenance), without the `#`.
    pub notes: Vec<String>,
    /// The rows, one per fanout, in file order.
    pub rows: Vec<ReferenceRow>,
    /// Rows that will not be shown (processor counts the sweep does not run), as
    /// `FILE:LINE: message`.
    pub warnings: Vec<String>,
}

/// The columns a reference table may have.
pub const REFERENCE_COLUMNS: [&str; 6] = [
    "fanout",
    "leaf_nodes",
    "secs",
    "speedup",
    "search_overhead_pct",
    "time_overhead_pct",
];

/// Reads a reference CSV (a regular file of at most [`crate::load::MAX_REFERENCE_BYTES`], UTF-8,
/// a leading byte-order mark ignored) for a sweep of processor counts `fanouts`. Errors name the
/// file and line: an unknown or repeated column, a value that is not a finite number (NaN and
/// inf are refused; counts, times and speedups must not be negative), a processor count given
/// twice. Rows for processor counts the sweep does not run are kept out of the report with a
/// warning (not an error: a scenario copied with fewer fanouts keeps its table).
pub fn read(path: &Path, fanouts: &[u32]) -> Result<Reference, String> {
    let bytes =
        crate::load::read_bounded(path, crate::load::MAX_REFERENCE_BYTES, "reference table")?;
    let text = crate::load::decode_text(&bytes)
        .map_err(|(line, col, m)| format!("{}:{line}:{col}: {m}", path.display()))?;
    let mut notes = Vec::new();
    let mut header: Option<Vec<String>> = None;
    let mut rows: Vec<ReferenceRow> = Vec::new();
    let mut first_line = std::collections::HashMap::new();
    let mut warnings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |m: String| format!("{}:{}: {m}", path.display(), n + 1);
        let line = line.trim();
        if let Some(c) = line.strip_prefix('#') {
            notes.push(c.trim().to_string());
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let Some(h) = &header else {
            if !fields.contains(&"fanout") {
                return Err(at("the header has no 'fanout' column".into()));
            }
            for (i, name) in fields.iter().enumerate() {
                if !REFERENCE_COLUMNS.contains(name) {
                    return Err(at(format!(
                        "unknown column '{name}' (the columns are {})",
                        REFERENCE_COLUMNS.join(", ")
                    )));
                }
                if fields[..i].contains(name) {
                    return Err(at(format!("column '{name}' appears twice")));
                }
            }
            header = Some(fields.iter().map(|s| s.to_string()).collect());
            continue;
        };
        if fields.len() != h.len() {
            return Err(at(format!(
                "{} fields, the header has {}",
                fields.len(),
                h.len()
            )));
        }
        let mut row = ReferenceRow::default();
        for (name, value) in h.iter().zip(&fields) {
            let num = |nonnegative: bool| {
                let x = value
                    .parse::<f64>()
                    .map_err(|_| at(format!("column {name}: '{value}' is not a number")))?;
                if !x.is_finite() {
                    return Err(at(format!(
                        "column {name}: '{value}' is not a finite number"
                    )));
                }
                if nonnegative && x < 0.0 {
                    return Err(at(format!("column {name}: '{value}' is negative")));
                }
                Ok(x)
            };
            match name.as_str() {
                "fanout" => {
                    row.fanout =
                        value.parse().ok().filter(|&f| f >= 1).ok_or_else(|| {
                            at(format!("fanout '{value}' is not a whole number >= 1"))
                        })?
                }
                "leaf_nodes" => row.leaf_nodes = Some(num(true)?),
                "secs" => row.secs = Some(num(true)?),
                "speedup" => row.speedup = Some(num(true)?),
                "search_overhead_pct" => row.search_overhead_pct = Some(num(false)?),
                "time_overhead_pct" => row.time_overhead_pct = Some(num(false)?),
                _ => unreachable!("the header was checked"),
            }
        }
        if let Some(first) = first_line.insert(row.fanout, n + 1) {
            return Err(at(format!(
                "a second row for fanout {} (the first is on line {first})",
                row.fanout
            )));
        }
        if !fanouts.contains(&row.fanout) {
            warnings.push(at(format!(
                "fanout {} is not in the sweep (sweep.fanout); this row is not shown",
                row.fanout
            )));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(format!(
            "{}: the reference table has no rows",
            path.display()
        ));
    }
    Ok(Reference {
        path: path.to_path_buf(),
        notes,
        rows,
        warnings,
    })
}

/// The report section: published and simulated figures side by side, per fanout.
pub fn markdown(reference: &Reference, summaries: &[Summary]) -> String {
    use crate::results::fixed;
    // A figure the paper does not give is undefined: "–", like every undefined value.
    let opt = |v: Option<f64>, digits: usize| fixed(v.unwrap_or(f64::NAN), digits);
    let mut out = format!(
        "\n## Beside the published figures\n\n{}\n\nPaper (`{}`) | simulated, per processor count.\n\n\
         | f | leaves paper | leaves sim | time paper (s) | time sim (s) | speedup paper | speedup sim | search % paper | search % sim | time % paper | time % sim |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
        reference.notes.join(" "),
        reference.path.display()
    );
    for r in &reference.rows {
        let Some(s) = summaries.iter().find(|s| s.fanout == r.fanout) else {
            continue;
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.fanout,
            opt(r.leaf_nodes, 0),
            fixed(s.leaf_nodes, 0),
            opt(r.secs, 0),
            fixed(s.elapsed_s, 1),
            opt(r.speedup, 2),
            fixed(s.speedup, 2),
            opt(r.search_overhead_pct, 1),
            fixed(100.0 * s.search_overhead, 1),
            opt(r.time_overhead_pct, 1),
            fixed(100.0 * s.time_overhead, 1),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_shipped_table_and_rejects_bad_rows() {
        let dir = std::env::temp_dir().join(format!("gtsim-ref-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.csv");
        std::fs::write(
            &good,
            "# note\nfanout,leaf_nodes,speedup\n1,100,1.0\n2,110,1.8\n",
        )
        .unwrap();
        let r = read(&good, &[1, 2]).unwrap();
        assert_eq!(r.notes, vec!["note"]);
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.rows[1].speedup, Some(1.8));
        let bad = dir.join("bad.csv");
        std::fs::write(&bad, "fanout,speedup\n1,1.0\n2,fast\n").unwrap();
        let e = read(&bad, &[1, 2]).unwrap_err();
        assert!(e.contains("bad.csv:3:") && e.contains("fast"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
