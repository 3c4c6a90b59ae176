//! The three scenarios that rebuild Campbell's thesis and the Reinefeld paper run end to end
//! (with 3 trees instead of 20 or 100, to stay quick) and write the tables and charts their
//! papers have: every run finds its tree's minimax value (the runner checks it), the runs an
//! algorithm does not apply to are skipped, and report.md has the papers' layouts.

use std::path::Path;

/// The shipped scenario `name`, with its seeds cut to 3, loaded and run; returns the report,
/// the CSV rows and the output folder.
fn run(name: &str) -> (String, Vec<String>, std::path::PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let from = text
        .find("seeds: Range(")
        .expect("the scenario has a seed range");
    let end = from + text[from..].find(')').unwrap() + 1;
    let text = format!(
        "{}seeds: Range(start: 1, count: 3){}",
        &text[..from],
        &text[end..]
    );
    let plan = scenarios::parse(&text, &path).unwrap();
    let results = scenarios::run_plan(&plan, 2, &|_, _| {}).unwrap();
    let dir =
        std::env::temp_dir().join(format!("gtsim-seed-papers-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_dir_all(&dir);
    scenarios::write_outputs(&plan, &results, None, &dir).unwrap();
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let csv = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    let rows: Vec<String> = csv.lines().skip(1).map(String::from).collect();
    assert_eq!(rows.len(), results.records.len());
    assert!(!report.contains("NaN"));
    (report, rows, dir)
}

#[test]
fn campbell_sequential_writes_the_thesis_tables() {
    let (report, rows, dir) = run("campbell-sequential.ron");
    // Seven tree shapes, each with its minimal tree in the heading (24^2 + 24^2 - 1 at (24, 4)).
    assert!(
        report.contains("### w = 24, d = 4 (minimal tree 1151 leaves)"),
        "{report}"
    );
    assert!(report.contains("### w = 8, d = 6 (minimal tree 1023 leaves)"));
    assert_eq!(report.matches("(minimal tree ").count(), 7);
    // Every algorithm at 4 ply, staged SSS* and the hybrids skipped at 2 ply (as the thesis).
    let at = |shape: &str| {
        let start = report.find(shape).unwrap();
        let end = report[start + 1..]
            .find("\n### ")
            .map_or(report.len(), |e| start + 1 + e);
        report[start..end].to_string()
    };
    let two_ply = at("### w = 8, d = 2");
    let four_ply = at("### w = 24, d = 4");
    for a in [
        "| ab |",
        "| pab |",
        "| scout |",
        "| sss |",
        "| negascout |",
        "| dual |",
    ] {
        assert!(two_ply.contains(a) && four_ply.contains(a), "{a}");
    }
    for a in ["| staged_sss |", "| sab(2) |", "| abs(2) |"] {
        assert!(!two_ply.contains(a) && four_ply.contains(a), "{a}");
    }
    assert!(!four_ply.contains("| sab(4) |"));
    // Perfectly ordered: alpha-beta visits exactly the minimal tree, with no spread.
    let ab = four_ply.lines().find(|l| l.starts_with("| ab |")).unwrap();
    assert!(ab.trim_end().ends_with("| 1151 (0) |"), "{ab}");
    assert!(report.contains("## Peak size of the OPEN list"));
    // The SSS* family has an OPEN-list peak, alpha-beta none.
    assert!(rows
        .iter()
        .any(|r| r.contains(",sss,") && !r.ends_with(',')));
    assert!(rows
        .iter()
        .filter(|r| r.contains(",ab,"))
        .all(|r| r.ends_with(',')));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn campbell_1981_writes_the_elapsed_time_tables_and_exponents() {
    let (report, rows, dir) = run("campbell-1981.ron");
    assert!(report.contains("### w = 24, d = 4, ordering geometric(0.8), horizon noise 0"));
    assert!(report.contains("## Fitted speedup exponents"));
    // pv-splitting does not run on the depth-3 processor trees of a 4-ply search (the thesis
    // says so), parallel staged SSS* only on depth 1: those cells are "–".
    let row = report
        .lines()
        .find(|l| l.starts_with("| (3,4) | 64 | 85 |"))
        .unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    // | tree | terminals | processors | treesplit ×2 | treesplit_update ×2 | pvsplit ×2 |
    // pvsplit_refined ×2 | staged_sss ×2 |
    assert_ne!(cells[4], "–", "{row}");
    assert_eq!(&cells[8..14], ["–"; 6], "{row}");
    assert!(!rows
        .iter()
        .any(|r| r.contains(",staged_sss,") && r.contains(",2,8,73,")));
    assert!(dir.join("speedup.png").is_file());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn reinefeld_1987_draws_its_figures() {
    let (report, _, dir) = run("reinefeld-1987.ron");
    assert!(report.contains("## Leaf nodes as a percentage of the minimal tree"));
    assert!(report.contains("### strongly_ordered"));
    assert!(report.contains("[reinefeld.png](reinefeld.png)"));
    assert!(dir.join("reinefeld.png").is_file());
    assert!(!dir.join("overheads.png").exists());
    let _ = std::fs::remove_dir_all(dir);
}
