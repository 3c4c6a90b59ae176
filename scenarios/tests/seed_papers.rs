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
    let at = |c: &str| scenarios::COLUMNS.iter().position(|x| *x == c).unwrap();
    let (alg, peak) = (at("algorithm"), at("open_peak"));
    let cells: Vec<Vec<&str>> = rows.iter().map(|r| r.split(',').collect()).collect();
    assert!(cells.iter().any(|c| c[alg] == "sss" && !c[peak].is_empty()));
    assert!(cells
        .iter()
        .filter(|c| c[alg] == "ab")
        .all(|c| c[peak].is_empty()));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn campbell_1981_writes_the_elapsed_time_tables_and_exponents() {
    let (report, rows, dir) = run("campbell-1981.ron");
    // Campbell's trees have no horizon noise, and the headings say none.
    assert!(report.contains("### w = 24, d = 4, ordering geometric(0.8)\n"));
    assert!(!report.contains("horizon noise"));
    // The one-processor runs the speedups are over come first, in every table.
    assert_eq!(
        report.matches("\n| one processor | 1 | 1 | ").count(),
        3,
        "{report}"
    );
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

/// A small Campbell plan with the algorithm list and processor trees given.
fn small(algorithms: &str, sweep_trees: &str, extra: &str) -> Result<scenarios::Plan, String> {
    let text = format!(
        r#"(
    name: "small",
    hardware: (
        costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)),
        link: Ideal,
        reads: (hosts: Interrupt, boards: Interrupt),
    ),
    workload: Campbell(width: 6, depth: 4, ordering: Random),
    search: (algorithm: TreeSplit(update: false), progressive_deepening: false),
    sweep: (
        algorithm: [{algorithms}],
        {sweep_trees}
        seeds: Range(start: 1, count: 2),
        {extra}
    ),
    outputs: (plots: false),
)"#
    );
    scenarios::parse(&text, Path::new("small.ron")).map_err(|e| e.to_string())
}

#[test]
fn the_recorded_run_is_always_one_the_sweep_makes() {
    use scenarios::dispatch::PTree;
    // pvsplit is skipped on (3,2) at depth 4 and parallel staged SSS* on (2,2): the trace run
    // (the first algorithm on its largest processor tree) must be one the sweep runs.
    for (algorithms, trees) in [
        (
            "PvSplit(refined: false), TreeSplit(update: false)",
            "ptree: [(depth: 1, width: 2), (depth: 3, width: 2)],",
        ),
        (
            "StagedSss(stage: 2), TreeSplit(update: false)",
            "ptree: [(depth: 1, width: 2), (depth: 2, width: 2)],",
        ),
    ] {
        let plan = small(algorithms, trees, "").unwrap();
        let key = scenarios::runner::recorded_run(&plan, true).unwrap();
        assert!(
            plan.runs(key.config, key.algorithm, key.ptree),
            "{algorithms}"
        );
        assert_eq!(
            key.ptree,
            PTree::Campbell { depth: 1, width: 2 },
            "{algorithms}"
        );
        scenarios::runner::simulate_run(&plan, key, scenarios::Recording::default()).unwrap();
    }
}

/// A misspelled option inside an algorithm is an error at its line and column that names the
/// valid options, never a silent default (every algorithm with options, and options given to
/// one without).
#[test]
fn unknown_algorithm_options_are_errors_naming_the_valid_ones() {
    let one = "fanout: [1],";
    for (algorithm, valid) in [
        ("TreeSplit(updates: true)", "`update`"),
        ("PvSplit(refine: true)", "`refined`"),
        ("PvSplit(refined: true, updated: true)", "`update`"),
        ("Parabelle(tabel: Global)", "`table`"),
        ("Parabelle(table: Global, stroage: All)", "`storage`"),
        ("StagedSss(stages: 3)", "`stage`"),
        ("Sab(tpo: 2)", "`top`"),
        ("Abs(depth: 2)", "`top`"),
    ] {
        let e = small(algorithm, one, "").unwrap_err();
        let bad = algorithm.split('(').nth(1).unwrap();
        let bad = bad.rsplit(", ").next().unwrap().split(':').next().unwrap();
        assert!(
            e.starts_with("small.ron:") && e.contains(bad) && e.contains(valid),
            "{algorithm}: {e}"
        );
    }
    let e = small("Ab(top: 2)", one, "").unwrap_err();
    assert!(e.starts_with("small.ron:"), "{e}");
}

/// APHID's and MWF's master tree as deep as the search, or deeper, is skipped with a warning,
/// as a stage or a hybrid's top part is (it ran as one of the search's depth, labelled
/// aphid(9) or mwf(9)).
#[test]
fn aphid_and_mwf_whose_master_tree_is_the_whole_tree_are_skipped() {
    let trees = "ptree: [(depth: 1, width: 2)],";
    let plan = small(
        "Aphid(top: 4), Mwf(split: 9), Aphid(top: 3), Mwf(split: 3)",
        trees,
        "",
    )
    .unwrap();
    // Only aphid(3) and mwf(3) run: 2 seeds x (the baseline and (1,2)) each.
    assert_eq!(plan.run_count(), 8);
    // Said at the algorithm's item of sweep.algorithm (line 11:
    // `        algorithm: [Aphid(top: 4), Mwf(split: 9), …],`).
    for (at, name, option) in [
        ("11:21: sweep.algorithm[0]", "aphid(4)", "top: 4"),
        ("11:36: sweep.algorithm[1]", "mwf(9)", "split: 9"),
    ] {
        for on in ["one processor", "processor tree (1,2)"] {
            let said = format!(
                "small.ron:{at}: {name} at depth 4 on {on} does not apply ({option} makes the master's tree the whole 4-ply tree: the workers would get single leaves, not subtrees, to search); those runs are skipped"
            );
            assert!(
                plan.warnings.contains(&said),
                "{said}\nnot in {:#?}",
                plan.warnings
            );
        }
    }
    assert!(
        !plan.warnings.iter().any(|w| w.contains("(3)")),
        "{:#?}",
        plan.warnings
    );
    let e = small("Aphid(top: 4), Mwf(split: 9)", trees, "").unwrap_err();
    assert!(e.contains("every run is skipped"), "{e}");
    // The one algorithm of search.algorithm (no sweep.algorithm): said at that field.
    let text = r#"(
    name: "one",
    hardware: (costs: (k: Ns(0), e: Ns(1)), link: Ideal, reads: (hosts: Interrupt, boards: Interrupt)),
    workload: Synthetic(width: 6, depth: 4, ordering: Random),
    search: (algorithm: Aphid(top: 4), progressive_deepening: false),
    sweep: (depth: [4, 5], ptree: [(depth: 1, width: 2)], seeds: Range(start: 1, count: 2)),
    outputs: (plots: false),
)"#;
    let plan = scenarios::parse(text, Path::new("one.ron")).unwrap();
    for on in ["one processor", "processor tree (1,2)"] {
        let said = format!(
            "one.ron:5:14: search.algorithm: aphid(4) at depth 4 on {on} does not apply (top: 4 makes the master's tree the whole 4-ply tree: the workers would get single leaves, not subtrees, to search); those runs are skipped"
        );
        assert!(
            plan.warnings.contains(&said),
            "{said}\nnot in {:#?}",
            plan.warnings
        );
    }
}

#[test]
fn impossible_algorithm_settings_are_load_errors() {
    let one = "fanout: [1],";
    for (algorithms, extra, words) in [
        ("StagedSss(stage: 0)", "", "a stage must be at least 1 ply"),
        ("Sab(top: 0)", "", "the top part must be at least 1 ply"),
        (
            "Parabelle(storage: Partial)",
            "",
            "storage: Partial has no effect without a table",
        ),
        // A stage of 5 plies on a 4-ply tree, a split at 4: every run skipped.
        (
            "StagedSss(stage: 5), Abs(top: 4)",
            "",
            "every run is skipped",
        ),
    ] {
        let e = small(algorithms, one, extra).unwrap_err();
        assert!(
            e.contains("small.ron:") && e.contains(words),
            "{algorithms}: {e}"
        );
    }
    // pv-splitting on a depth-3 processor tree of a 4-ply search only, no uniprocessor in the
    // sweep: nothing to run (its baselines would be compared with nothing).
    let e = small(
        "PvSplit(refined: false)",
        "ptree: [(depth: 3, width: 2)],",
        "",
    )
    .unwrap_err();
    assert!(e.contains("every run is skipped"), "{e}");
    // With tree-splitting beside it, only tree-splitting runs: 2 seeds x (baseline + (3,2)).
    let plan = small(
        "PvSplit(refined: false), TreeSplit(update: false)",
        "ptree: [(depth: 3, width: 2)],",
        "",
    )
    .unwrap();
    assert_eq!(plan.run_count(), 4);
    // Progressive deepening on Campbell's trees would make earlier iterations an oracle.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campbell-sequential.ron"),
    )
    .unwrap()
    .replace(
        "progressive_deepening: false",
        "progressive_deepening: true",
    );
    let e = scenarios::parse(&text, Path::new("c.ron"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("search.progressive_deepening"), "{e}");
    // A Campbell tree wider than gen allows is an error at the width, not the ordering.
    let e = small("Ab", one, "width: [5000],").unwrap_err();
    assert!(
        e.contains("sweep.width: width 5000 is above the limit of 4096"),
        "{e}"
    );
}

/// A Campbell-tree (or synthetic) scenario with `reads` and `search` fields as given.
fn with_defaults(
    workload: &str,
    search: &str,
    reads: &str,
    algorithms: &str,
    trees: &str,
) -> Result<scenarios::Plan, String> {
    let text = format!(
        r#"(
    name: "defaults",
    hardware: (costs: (k: Ns(0), e: Ns(1), s: Ns(0), interrupt: Ns(0)), link: Ideal, {reads}),
    workload: {workload},
    search: ({search}),
    sweep: (algorithm: [{algorithms}], {trees} seeds: Range(start: 1, count: 2)),
    outputs: (plots: false),
)"#
    );
    scenarios::parse(&text, Path::new("defaults.ron")).map_err(|e| e.to_string())
}

/// What a scenario leaves out is the scheme's own: the read policy and the deepening its
/// catalogue entry states; a sweep of schemes that differ must say.
#[test]
fn left_out_reads_and_deepening_are_the_schemes_own() {
    use sim_hw::{ReadPolicies, ReadPolicy::*};
    let synthetic = "Synthetic(width: 4, depth: 4, ordering: Random)";
    let campbell = "Campbell(width: 4, depth: 4, ordering: Random)";
    let ptrees = "ptree: [(depth: 1, width: 2)],";
    let pmws = with_defaults(synthetic, "algorithm: Pmws", "", "Pmws", "fanout: [1, 3],").unwrap();
    assert!(pmws.progressive);
    let parabelle = ReadPolicies {
        hosts: Interrupt,
        boards: WhenIdle,
    };
    assert_eq!(pmws.reads, parabelle);
    let ts = with_defaults(
        campbell,
        "algorithm: TreeSplit(update: true)",
        "",
        "TreeSplit(update: true)",
        ptrees,
    )
    .unwrap();
    assert!(!ts.progressive);
    let everywhere = ReadPolicies {
        hosts: Interrupt,
        boards: Interrupt,
    };
    assert_eq!(ts.reads, everywhere);
    assert!(ts.warnings.is_empty(), "{:?}", ts.warnings);
    // pmws on Campbell's trees: fixed depth by default (deepening there would be an oracle).
    let p = with_defaults(campbell, "algorithm: Pmws", "", "Pmws", ptrees).unwrap();
    assert!(!p.progressive);
    // Given values win.
    let given = with_defaults(
        synthetic,
        "algorithm: Pmws, progressive_deepening: false",
        "reads: (boards: Poll(every: 10))",
        "Pmws",
        "fanout: [1, 3],",
    )
    .unwrap();
    assert!(!given.progressive);
    assert_eq!(given.reads.boards, Poll { every: 10 });
    assert_eq!(given.reads.hosts, Interrupt);
    // Schemes that differ must be told.
    let e =
        with_defaults(synthetic, "algorithm: Pmws", "", "Pmws, Ab", "fanout: [1],").unwrap_err();
    assert!(
        e.contains("defaults.ron:") && e.contains("set search.progressive_deepening"),
        "{e}"
    );
    let e = with_defaults(
        campbell,
        "algorithm: Pmws",
        "",
        "Pmws, TreeSplit(update: false)",
        ptrees,
    )
    .unwrap_err();
    assert!(e.contains("set hardware.reads.boards"), "{e}");
    let ok = with_defaults(
        campbell,
        "algorithm: Pmws",
        "reads: (boards: Interrupt)",
        "Pmws, TreeSplit(update: false)",
        ptrees,
    );
    assert!(ok.is_ok(), "{:?}", ok.err());
    // UPDATE to boards that read only when idle: allowed, with a warning at the setting
    // (line 3: `    hardware: (costs: (…), link: Ideal, reads: (boards: WhenIdle)),`).
    let late = with_defaults(
        campbell,
        "algorithm: Ab",
        "reads: (boards: WhenIdle)",
        "TreeSplit(update: true)",
        ptrees,
    )
    .unwrap();
    let said = "defaults.ron:3:94: hardware.reads.boards: WhenIdle, but treesplit_update sends UPDATE (a narrower window) and aborts to running searches: they reach a processor only when its search is over (set boards: Interrupt or Poll(every: N) for the scheme as its author ran it)";
    assert!(
        late.warnings.iter().any(|w| w == said),
        "{said}\nnot in {:#?}",
        late.warnings
    );
}
