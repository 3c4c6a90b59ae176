//! Chess workloads: a chess scenario parses and runs; every run without a
//! transposition table returns the position's value as a plain negamax outside the simulator
//! computes it; the value check can fail, and with a table a differing value is recorded instead;
//! bad positions files and unknown position ids are errors at their file, line and field; the
//! shipped Parabelle scenarios load with their paper tables; report.md has the chess sections.

use algorithms::{negamax, GameTree, MoveList};
use scenarios::dispatch::PTree;
use scenarios::reference::PaperTable;
use scenarios::runner::{simulate_on, RunError, RunKey};
use std::path::{Path, PathBuf};

mod common;

fn scratch(name: &str) -> common::Scratch {
    common::scratch("chess", name)
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// A small chess scenario: BK.01 and BK.04 at 3 ply, pmws and Parabelle without a table, f = 1..3,
/// the Parabelle hardware (SCI, 480 bytes/s with 3 processors here so the override is exercised).
fn small(extra_outputs: &str) -> String {
    format!(
        r#"(
    name: "chess-small",
    hardware: (
        costs: (k: Ms(8.0), e: Ms(20.0), q: Ms(2.0), probe: Ms(0.5), s: Ms(2.0), interrupt: Ms(1.0)),
        link: Sci(rate: 960, rts_cts: true, ports: 8, rate_by_processors: {{3: 480}}),
    ),
    workload: Chess(positions: BratkoKopec, depth: 3),
    search: (algorithm: Parabelle(), progressive_deepening: true),
    sweep: (
        fanout: [1, 2, 3],
        algorithm: [Pmws, Parabelle(table: None)],
        positions: ["BK.04", "BK.01"],
    ),
    outputs: (plots: false{extra_outputs}),
)"#
    )
}

fn parse(text: &str, dir: &Path) -> Result<scenarios::Plan, String> {
    scenarios::parse(text, &dir.join("chess.ron")).map_err(|e| e.to_string())
}

/// The value of a position by plain negamax (no pruning, no table, no simulator): independent
/// of both the simulated searches and the runner's own alpha-beta reference.
fn negamax_value(id: &str, depth: u32) -> i32 {
    let (_, tree, _) = chess::bratko_kopec()
        .into_iter()
        .find(|(i, _, _)| i == id)
        .unwrap();
    negamax(&tree, &tree.root(), depth)
}

#[test]
fn table_free_runs_return_the_plain_negamax_value_for_every_f() {
    let dir = scratch("run");
    let plan = parse(&small(""), &dir).unwrap();
    // Positions are seeds 1 and 4, in file order whatever the order of sweep.positions.
    assert_eq!(plan.seeds, [1, 4]);
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    assert_eq!(
        results.records.len(),
        2 * 3 * 2,
        "algorithms × f × positions"
    );
    let want = [
        ("BK.01", negamax_value("BK.01", 3)),
        ("BK.04", negamax_value("BK.04", 3)),
    ];
    let bk = chess::bratko_kopec();
    for r in results.records.iter().chain(&results.baseline) {
        let (id, v) = want[if r.seed == 1 { 0 } else { 1 }];
        assert_eq!(r.position, id);
        assert_eq!(r.tree, "chess");
        assert_eq!(
            (r.root_value, r.value_reference),
            (v, Some(v)),
            "{} f = {} on {id}",
            r.algorithm,
            r.fanout
        );
        assert_eq!(r.figure("tt_probes"), None, "no table, no table counters");
        // A move, when the scheme names one, is a legal root move in UCI.
        if let Some(uci) = &r.root_move {
            let tree = &bk[r.seed as usize - 1].1;
            let moves = tree.moves(&tree.root());
            let legal: Vec<String> = (0..moves.len()).map(|i| tree.uci(moves.get(i))).collect();
            assert!(legal.contains(uci), "{uci} is not a root move of {id}");
            assert!(r.best_move_ok.is_some());
        } else {
            assert_eq!(r.best_move_ok, None);
        }
    }
    // Parabelle and pmws are distinct rows; the names come from the schemes.
    let names: Vec<&str> = results
        .summaries
        .iter()
        .map(|s| s.algorithm.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "pmws",
            "pmws",
            "pmws",
            "parabelle",
            "parabelle",
            "parabelle"
        ]
    );
    // New columns come last, in order, after every existing one.
    let header = scenarios::results::csv_header();
    assert!(
        header.trim_end().ends_with(
            "quiescence_nodes,position,root_move,best_move_ok,value_reference,probes,tt_probes,tt_hits,tt_cutoffs,tt_stores,bytes_at_node,bytes_inter_node,bytes_inter_level,bytes_inter_iteration,bytes_interactive"
        ),
        "{header}"
    );
    // Bytes by type add up to the total.
    for r in &results.records {
        assert_eq!(
            r.bytes_at_node
                + r.bytes_inter_node
                + r.bytes_inter_level
                + r.bytes_inter_iteration
                + r.bytes_interactive,
            r.bytes_total
        );
    }
}

#[test]
fn a_wrong_value_fails_without_a_table_and_is_recorded_with_one() {
    let dir = scratch("check");
    let text = small("").replace(
        "algorithm: [Pmws, Parabelle(table: None)]",
        "algorithm: [Pmws, Parabelle(table: Local, storage: Partial)]",
    );
    let plan = parse(&text, &dir).unwrap();
    let tree = &plan.chess.as_ref().unwrap().get(1).unwrap().tree;
    let truth = negamax_value("BK.01", 3);
    let key = |algorithm| RunKey {
        config: 0,
        algorithm,
        ptree: PTree::Paper {
            fanout: 2,
            length: 1,
        },
        seed: 1,
    };
    let rec = scenarios::Recording::default();
    // The runner is handed a wrong expected value: a table-free search is refused ...
    let e = simulate_on(&plan, key(0), rec, tree, truth + 1)
        .err()
        .unwrap();
    assert!(
        matches!(e, RunError::WrongValue { got: Some(v), expected, .. } if v == truth && expected == truth + 1),
        "{e}"
    );
    // ... a search with a table is recorded with both values (its own may legitimately differ
    // from the truth too, so only the reference is known here).
    let o = simulate_on(&plan, key(1), rec, tree, truth + 1).unwrap();
    assert_eq!(o.value_reference, truth + 1);
    assert_ne!(o.root_value, o.value_reference);
    assert!(
        o.figures.get("tt_probes").is_some(),
        "a search with a table reports its counters"
    );
}

/// An EPD line whose best move claims a check or mate it does not give, or whose `id` is two
/// strings, is refused at FILE:LINE under `workload.positions`, naming the operation; the same
/// file with the claim true (or one string) loads.
#[test]
fn a_false_check_suffix_or_a_two_string_id_is_an_error_at_its_line() {
    let dir = scratch("epd-operations");
    let text = small("")
        .replace("positions: BratkoKopec", "positions: Epd(\"ops.epd\")")
        .replace("positions: [\"BK.04\", \"BK.01\"]", "positions: [\"two\"]");
    let good = "# two positions\n\
                1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"one\";\n\
                3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5; id \"two\";\n";
    std::fs::write(dir.join("ops.epd"), good).unwrap();
    assert_eq!(parse(&text, &dir).unwrap().seeds, [2]);
    let file = dir.join("chess.ron").display().to_string();
    let epd = dir.join("ops.epd").display().to_string();
    for (from, to, says) in [
        ("bm d5;", "bm d5+;", "best move `d5+` (`bm`)"),
        ("bm d5;", "bm d5#;", "best move `d5#` (`bm`)"),
        (
            "id \"two\";",
            "id \"two\" \"2\";",
            "`id \"two\" \"2\"` gives 2 names",
        ),
    ] {
        std::fs::write(dir.join("ops.epd"), good.replace(from, to)).unwrap();
        let e = parse(&text, &dir).unwrap_err();
        assert!(
            e.starts_with(&format!("{file}:7:"))
                && e.contains("workload.positions")
                && e.contains(&format!("{epd}:3: "))
                && e.contains(says),
            "{to}: {e}"
        );
    }
}

/// An operation gtsim skips whose opcode is not a standard EPD one (a misspelt `bm`) is a
/// warning at its line; standard ones it does not read (`c0`, `acd`) are skipped quietly.
#[test]
fn an_epd_operation_neither_read_nor_standard_is_a_warning_at_its_line() {
    let dir = scratch("epd-unknown");
    let text = small("")
        .replace("positions: BratkoKopec", "positions: Epd(\"ops.epd\")")
        .replace("positions: [\"BK.04\", \"BK.01\"]", "positions: [\"two\"]");
    let lines =
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; c0 \"x\"; acd 5; id \"one\";\n\
                 3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bn d5; id \"two\";\n";
    std::fs::write(dir.join("ops.epd"), lines).unwrap();
    let plan = parse(&text, &dir).unwrap();
    let epd = dir.join("ops.epd").display().to_string();
    let said: Vec<&String> = plan
        .warnings
        .iter()
        .filter(|w| w.contains("is ignored"))
        .collect();
    assert_eq!(said.len(), 1, "{:?}", plan.warnings);
    assert!(
        said[0].starts_with(&format!("{epd}:2: the operation `bn` is ignored"))
            && said[0].ends_with("(is `bm` meant?)"),
        "{}",
        said[0]
    );
}

#[test]
fn bad_positions_files_and_ids_are_errors_at_their_file_line_and_field() {
    let dir = scratch("errors");
    let epd = "# two good positions and a bad one\n\
               1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"one\";\n\
               3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5; id \"two\";\n\
               rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Ke2; id \"three\";\n";
    std::fs::write(dir.join("bad.epd"), epd).unwrap();
    let text = small("").replace("positions: BratkoKopec", "positions: Epd(\"bad.epd\")");
    let e = parse(&text, &dir).unwrap_err();
    let file = dir.join("chess.ron").display().to_string();
    assert!(e.starts_with(&format!("{file}:7:")), "{e}");
    assert!(
        e.contains("workload.positions")
            && e.contains(&format!("{}:4:", dir.join("bad.epd").display()))
            && e.contains("Ke2"),
        "{e}"
    );
    // A good file: its ids, numbered from 1 in file order.
    std::fs::write(dir.join("good.epd"), &epd[..epd.rfind("rnbq").unwrap()]).unwrap();
    let good = text
        .replace("bad.epd", "good.epd")
        .replace("positions: [\"BK.04\", \"BK.01\"]", "positions: [\"two\"]");
    let plan = parse(&good, &dir).unwrap();
    assert_eq!(plan.seeds, [2]);
    // A position with no legal move has nothing to search: refused when chosen, not given a
    // width of 1 (the mated position is kept out when the sweep names the others).
    std::fs::write(
        dir.join("mated.epd"),
        format!(
            "{}k7/1Q6/1K6/8/8/8/8/8 b - - id \"mated\";\n",
            &epd[..epd.rfind("rnbq").unwrap()]
        ),
    )
    .unwrap();
    let mated = text.replace("bad.epd", "mated.epd").replace(
        "positions: [\"BK.04\", \"BK.01\"]",
        "positions: [\"two\", \"mated\"]",
    );
    let e = parse(&mated, &dir).unwrap_err();
    assert!(
        e.starts_with(&format!("{file}:7:"))
            && e.contains("\"mated\"")
            && e.contains("no legal move"),
        "{e}"
    );
    let plan = parse(&mated.replace(", \"mated\"]", "]"), &dir).unwrap();
    assert_eq!(plan.seeds, [2]);
    // A missing file names it.
    let e = parse(&text.replace("bad.epd", "none.epd"), &dir).unwrap_err();
    assert!(
        e.contains("none.epd") && e.contains("workload.positions"),
        "{e}"
    );
    // An unknown id: the item of the list.
    let e = parse(
        &small("").replace("[\"BK.04\", \"BK.01\"]", "[\"BK.04\", \"BK.99\"]"),
        &dir,
    )
    .unwrap_err();
    assert!(e.starts_with(&format!("{file}:12:")), "{e}");
    assert!(
        e.contains("sweep.positions[1]") && e.contains("BK.99"),
        "{e}"
    );
    // Twice.
    let e = parse(
        &small("").replace("[\"BK.04\", \"BK.01\"]", "[\"BK.04\", \"BK.04\"]"),
        &dir,
    )
    .unwrap_err();
    assert!(e.contains("sweep.positions") && e.contains("twice"), "{e}");
    // Positions replace seeds.
    let e = parse(
        &small("").replace(
            "fanout: [1, 2, 3],",
            "fanout: [1, 2, 3], seeds: Range(start: 1, count: 2),",
        ),
        &dir,
    )
    .unwrap_err();
    assert!(
        e.contains("sweep.seeds") && e.contains("sweep.positions"),
        "{e}"
    );
    // No generator knobs on chess.
    let e = parse(
        &small("").replace("fanout: [1, 2, 3],", "fanout: [1, 2, 3], width: [4],"),
        &dir,
    )
    .unwrap_err();
    assert!(e.contains("sweep.width") && e.contains("chess"), "{e}");
    // Parabelle runs on processor trees of length 1, like pmws.
    let e = parse(
        &small("").replace("link: Sci(", "length: 2, link: Sci("),
        &dir,
    )
    .unwrap_err();
    assert!(e.contains("length 1"), "{e}");
}

/// A positions file of `n` copies of one position, ids `p1` … `pn`, after a comment line.
fn many_positions(n: usize) -> String {
    let mut epd = String::from("# many positions\n");
    for i in 1..=n {
        epd.push_str(&format!(
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"p{i}\";\n"
        ));
    }
    epd
}

#[test]
fn a_large_positions_file_is_checked_for_duplicate_ids_and_chosen_by_id() {
    // 20,000 positions: the ids are checked, and sweep.positions looked up, one position at a
    // time against an index (comparing every pair took seconds on a 4 MiB file).
    let dir = scratch("many");
    let n = 20_000;
    let mut epd = many_positions(n);
    // A duplicate at the end is still an error at its line, naming the first.
    epd.push_str("4k3/8/8/8/8/8/8/4K3 w - - id \"p7\";\n");
    std::fs::write(dir.join("many.epd"), &epd).unwrap();
    let text = small("").replace("positions: BratkoKopec", "positions: Epd(\"many.epd\")");
    let e = parse(&text, &dir).unwrap_err();
    assert!(
        e.contains(&format!(
            "{}:{}: id \"p7\" is used twice (first on line 8)",
            dir.join("many.epd").display(),
            n + 2
        )),
        "{e}"
    );
    // Without it: every position, chosen by id in any order, runs in file order; a repeated
    // id in the list is still an error.
    std::fs::write(dir.join("many.epd"), many_positions(n)).unwrap();
    let ids: Vec<String> = (1..=n).rev().map(|i| format!("\"p{i}\"")).collect();
    let chosen = text.replace(
        "positions: [\"BK.04\", \"BK.01\"]",
        &format!("positions: [{}]", ids.join(", ")),
    );
    let plan = parse(&chosen, &dir).unwrap();
    assert_eq!(plan.seeds, (1..=n as u64).collect::<Vec<_>>());
    let twice = text.replace(
        "positions: [\"BK.04\", \"BK.01\"]",
        &format!("positions: [{}, \"p{n}\"]", ids.join(", ")),
    );
    let e = parse(&twice, &dir).unwrap_err();
    assert!(
        e.contains(&format!(
            "sweep.positions[{n}]: position \"p{n}\" is listed twice"
        )),
        "{e}"
    );
}

#[test]
fn a_position_without_an_id_has_a_name_no_other_position_has() {
    let dir = scratch("generated-id");
    let file = dir.join("ids.epd");
    let text = small("")
        .replace("positions: BratkoKopec", "positions: Epd(\"ids.epd\")")
        .replace("positions: [\"BK.04\", \"BK.01\"]", "positions: [\"#2\"]");
    // Line 2 (position 1) says it is "#2", the name of position 2, which has no id: an error
    // at the line that gives it.
    std::fs::write(
        &file,
        "# position 2 has no id\n\
         1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - id \"#2\";\n\
         3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5;\n",
    )
    .unwrap();
    let e = parse(&text, &dir).unwrap_err();
    assert!(
        e.contains("workload.positions")
            && e.contains(&format!("{}:2: id \"#2\" has the form #N", file.display())),
        "{e}"
    );
    // With another id, "#2" names position 2 alone.
    std::fs::write(
        &file,
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - id \"#one\";\n\
         3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - bm d5;\n",
    )
    .unwrap();
    let plan = parse(&text, &dir).unwrap();
    assert_eq!(plan.seeds, [2]);
    let set = plan.chess.as_ref().unwrap();
    let ids: Vec<&str> = set.positions.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["#one", "#2"]);
}

#[test]
fn synthetic_scenarios_need_seeds_have_no_positions_and_may_run_parabelle() {
    let dir = scratch("synthetic");
    let text = r#"(
        name: "syn",
        hardware: (costs: (k: Ns(3), e: Ns(11)), link: Ideal),
        workload: Synthetic(width: 3, depth: 3, ordering: Random, horizon_noise: 0),
        search: (algorithm: Parabelle(table: None), progressive_deepening: true),
        sweep: (fanout: [1, 2, 3], seeds: Range(start: 1, count: 3),
                algorithm: [Parabelle(table: None), Parabelle(table: Global, storage: All)]),
    )"#;
    let plan = parse(text, &dir).unwrap();
    let results = scenarios::run_plan(&plan, 1, &|_, _| {}).unwrap();
    assert_eq!(results.records.len(), 2 * 3 * 3);
    for r in &results.records {
        assert!(r.position.is_empty() && r.root_move.is_none());
        if r.algorithm == "parabelle" {
            // No table: the generator's value, checked; no reference column needed.
            assert_eq!(r.value_reference, None);
            assert_eq!(r.figure("tt_probes"), None);
        } else {
            assert_eq!(r.algorithm, "parabelle_global_all");
            assert!(r.value_reference.is_some() && r.figure("tt_probes").is_some());
        }
    }
    let e = parse(&text.replace("seeds: Range(start: 1, count: 3),", ""), &dir).unwrap_err();
    assert!(e.contains("sweep.seeds is missing"), "{e}");
    let e = parse(
        &text.replace(
            "seeds: Range(start: 1, count: 3),",
            "seeds: List([1]), positions: [\"BK.01\"],",
        ),
        &dir,
    )
    .unwrap_err();
    assert!(
        e.contains("sweep.positions") && e.contains("only chess"),
        "{e}"
    );
}

#[test]
fn the_shipped_parabelle_scenarios_load_with_their_paper_tables() {
    for (name, algorithms, depth, rows, boards) in [
        ("parabelle-table2.ron", vec!["parabelle"], 5, 4, 0),
        (
            "parabelle-table3.ron",
            vec![
                "parabelle_global_all",
                "parabelle_global_partial",
                "parabelle_local_all",
                "parabelle_local_partial",
            ],
            5,
            16,
            0,
        ),
        (
            "parabelle-table4.ron",
            vec!["parabelle_local_partial"],
            6,
            0,
            23,
        ),
    ] {
        let plan = scenarios::load(&shipped(name)).unwrap();
        let names: Vec<String> = plan.algorithms.iter().map(|a| a.name()).collect();
        assert_eq!(names, algorithms, "{name}");
        assert_eq!(plan.seeds, (1..=24).collect::<Vec<u64>>(), "{name}");
        assert_eq!(plan.configs[0].depth, depth, "{name}");
        assert_eq!(plan.fanouts, [1, 2, 3, 4], "{name}");
        assert!(plan.progressive, "{name}");
        let counts = match plan.paper.as_ref().unwrap() {
            PaperTable::Fanout(t) => (t.rows.len(), 0),
            PaperTable::TableStorage(t) => (t.rows.len(), 0),
            PaperTable::PerBoard(t) => (0, t.rows.len()),
        };
        assert_eq!(counts, (rows, boards), "{name}");
        assert!(
            plan.reference.is_none(),
            "{name}: chess plans read the paper's tables themselves"
        );
        assert_eq!(plan.timeline, Some((0, 4, 1)), "{name}");
        // 480 bytes/s with four processors, 960 otherwise.
        let rate = |p: u64| match plan.links.levels[0].at(p).kind {
            sim_hw::LinkKind::Serial { rate } => rate,
            _ => 0,
        };
        assert_eq!((rate(2), rate(4)), (960, 480), "{name}");
        assert!(
            !plan
                .warnings
                .iter()
                .any(|w| w.contains("outputs.reference")),
            "{name}: every shipped table matches its runs: {:?}",
            plan.warnings
        );
    }
    // Table III's reference beside table-free runs matches nothing: said, not left to a report
    // of "–" columns.
    let dir = scratch("unmatched-reference");
    let text = std::fs::read_to_string(shipped("parabelle-table2.ron"))
        .unwrap()
        .replace(
            "reference/parabelle-table2-no-tt.csv",
            "reference/parabelle-table3-tt.csv",
        );
    common::copy_reference(&dir, "parabelle-table3-tt.csv");
    let file = dir.join("t.ron");
    std::fs::write(&file, text).unwrap();
    let plan = scenarios::load(&file).unwrap();
    assert!(
        plan.warnings.iter().any(|w| w
            .contains("outputs.reference: no run of the plan matches a row of reference/parabelle-table3-tt.csv")),
        "{:?}",
        plan.warnings
    );
}

#[test]
fn bad_paper_tables_are_errors_at_their_file_and_line() {
    let dir = scratch("bad-paper");
    for (name, text, line, what) in [
        (
            "bad-table.csv",
            "# c\ntable,storage,fanout,speedup\nlocal,all,1,1.0\nlocal,some,2,1.5\n",
            4,
            "some",
        ),
        (
            "bad-board.csv",
            "board,leaf1,min1,move\nB,1,2,e2e4\nB,1,2,e2e4\n",
            3,
            "B",
        ),
        ("bad-col.csv", "board,leafs1\n", 1, "leafs1"),
        ("bad-fanout.csv", "fanout,secs\n1,10\n2,x\n", 3, "'x'"),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
        let e = parse(&small(&format!(", reference: {name:?}")), &dir).unwrap_err();
        let at = format!("{}:{line}:", dir.join(name).display());
        assert!(
            e.contains(&at) && e.contains(what) && e.contains("outputs.reference"),
            "{name}: {e}"
        );
    }
}

#[test]
fn the_report_has_the_chess_sections_beside_table_ii() {
    let dir = scratch("report");
    std::fs::copy(
        shipped("reference/parabelle-table2-no-tt.csv"),
        dir.join("table2.csv"),
    )
    .unwrap();
    let plan = parse(
        &small(", reference: \"table2.csv\", per_position: true"),
        &dir,
    )
    .unwrap();
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let out = dir.join("out");
    scenarios::write_outputs(&plan, &results, None, &out).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for section in [
        "## Chess: averages over positions",
        "## What the paper could not measure",
        "## Values that differ from the table-free search",
        "## Per position",
        "| A | BK.01 |",
        "| D | BK.04 |",
    ] {
        assert!(md.contains(section), "no {section:?} in:\n{md}");
    }
    // Table II's f = 3 time overhead is inconsistent with its own seconds: said beside the row.
    let row3 = md
        .lines()
        .find(|l| l.starts_with("| 3 | 2 | 64503 |"))
        .unwrap_or_else(|| panic!("no f = 3 paper row in:\n{md}"));
    assert!(row3.contains("26.6 †"), "{row3}");
    assert!(
        md.contains("† parabelle, f = 3") && md.contains("23.6 %"),
        "{md}"
    );
    // Only f = 3 is flagged (f = 2: 2 × 942 / 1611 − 1 = 16.9 %, as printed): its row and its
    // note, for each of the two table-free algorithms Table II is set beside.
    assert!(md.contains("† pmws, f = 3"), "{md}");
    assert_eq!(md.matches('†').count(), 4, "{md}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv
        .lines()
        .skip(1)
        .all(|l| l.contains(",BK.01,") || l.contains(",BK.04,")));
}

/// A chess plan of 2 positions at depth 2 with Table II as its reference and `fig7: true`.
fn fig7_plan(dir: &Path, fanouts: &str) -> scenarios::Plan {
    std::fs::copy(
        shipped("reference/parabelle-table2-no-tt.csv"),
        dir.join("table2.csv"),
    )
    .unwrap();
    let text = small(", reference: \"table2.csv\", fig7: true")
        .replace("depth: 3", "depth: 2")
        .replace("fanout: [1, 2, 3]", fanouts);
    parse(&text, dir).unwrap()
}

#[test]
fn fig7_is_drawn_for_chess_with_the_papers_points() {
    let dir = scratch("fig7");
    let plan = fig7_plan(&dir, "fanout: [1, 2]");
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let out = dir.join("out");
    let files = scenarios::write_outputs(&plan, &results, None, &out).unwrap();
    assert!(files.iter().any(|f| f.ends_with("fig7.png")), "{files:?}");
    let bytes = std::fs::read(out.join("fig7.png")).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let dim = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!((dim(16), dim(20)), (1024, 720));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("- [fig7.png](fig7.png)") && md.contains("](fig7.png)\n"),
        "{md}"
    );

    // The curves: the first table-free algorithm (pmws, named: the plan has two), the paper's
    // points from f = 2 only, its communication point time − search of its own columns.
    let fig = scenarios::chess_report::fig7(
        &plan,
        &results.summaries,
        &scenarios::chess_report::ChessRows::of(&plan, &results),
    );
    assert!(
        fig.title.contains("2-ply") && fig.title.contains("(pmws)"),
        "{}",
        fig.title
    );
    let labels: Vec<&str> = fig
        .overheads
        .iter()
        .map(|o| o.simulated.label.as_str())
        .collect();
    assert_eq!(labels.len(), 4, "{labels:?}");
    // In overheads.png's order, so that each overhead has the same colour in both charts.
    assert!(labels[0].starts_with("search") && labels[1].starts_with("time"));
    assert!(labels[2].starts_with("communication") && labels[3].starts_with("synchronization"));
    let published: Vec<&Vec<(f64, f64)>> =
        fig.overheads.iter().map(|o| &o.published.points).collect();
    assert_eq!(published[0], &vec![(2.0, 5.3)]);
    assert_eq!(published[1], &vec![(2.0, 16.9)]);
    assert_eq!(published[2].len(), 1);
    assert!((published[2][0].1 - (16.9 - 5.3)).abs() < 1e-9);
    assert!(published[3].is_empty(), "no published synchronization");
    let pmws: Vec<&scenarios::Summary> = results
        .summaries
        .iter()
        .filter(|s| s.algorithm == "pmws")
        .collect();
    let at2 = pmws.iter().find(|s| s.fanout == 2).unwrap();
    let sim2 = |k: usize| fig.overheads[k].simulated.points[1];
    assert_eq!(sim2(0), (2.0, 100.0 * at2.search_overhead));
    assert_eq!(sim2(1), (2.0, 100.0 * at2.time_overhead));
    assert!((sim2(2).1 - (sim2(1).1 - sim2(0).1)).abs() < 1e-9);
    assert_eq!(sim2(3), (2.0, 100.0 * at2.idle_overhead));
    let w = at2.width;
    assert_eq!(fig.model.label, format!("f/2w, w = {w} (mean root width)"));
    assert_eq!(fig.model.points[1], (2.0, 100.0 / w as f64));
    assert!(fig.note.is_empty(), "f = 3 is not swept: {}", fig.note);

    // With f = 3, Table II's inconsistent time overhead is said in the note.
    let plan = fig7_plan(&dir, "fanout: [1, 3]");
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let fig = scenarios::chess_report::fig7(
        &plan,
        &results.summaries,
        &scenarios::chess_report::ChessRows::of(&plan, &results),
    );
    assert!(
        fig.note.contains("f = 3") && fig.note.contains("26.6") && fig.note.contains("23.6"),
        "{}",
        fig.note
    );
    assert_eq!(fig.overheads[1].published.points, vec![(3.0, 26.6)]);
}

#[test]
fn fig7_is_refused_on_synthetic_plans_and_one_fanout() {
    let dir = scratch("fig7-refused");
    let synthetic = r#"(
        name: "syn",
        hardware: (costs: (k: Ns(3), e: Ns(11)), link: Ideal),
        workload: Synthetic(width: 3, depth: 3, ordering: Random, horizon_noise: 0),
        search: (algorithm: Pmws),
        sweep: (fanout: [1, 2], seeds: Range(start: 1, count: 3)),
        outputs: (fig7: true),
    )"#;
    let e = parse(synthetic, &dir).unwrap_err();
    assert!(e.contains("outputs.fig7") && e.contains("Chess"), "{e}");
    assert!(parse(&synthetic.replace("fig7: true", "fig7: false"), &dir).is_ok());
    let one = small(", fig7: true").replace("fanout: [1, 2, 3]", "fanout: [4]");
    let e = parse(&one, &dir).unwrap_err();
    assert!(
        e.contains("outputs.fig7") && e.contains("two fanouts"),
        "{e}"
    );
}

/// The published rows of a shipped reference CSV: its header's cells, then each row's.
fn csv_rows(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(shipped(&format!("reference/{csv}"))).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let cells = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    let header = cells(lines.next().unwrap());
    (header, lines.map(cells).collect())
}

/// The speedup panels of a finished chess run, as speedup.png draws them.
fn speedup_panels(
    plan: &scenarios::Plan,
    results: &scenarios::runner::Results,
) -> Vec<plots::LineChart> {
    let configs = scenarios::results::by_config(&results.summaries);
    let rows = scenarios::chess_report::ChessRows::of(plan, results);
    scenarios::output::charts::speedup_charts(plan, &configs, &rows)
}

/// speedup.png sets Table III's speedups beside each Parabelle of the same table and storage
/// (either reading of partial storage), dashed in its colour, and Table IV's (one per board) as the mean over the boards searched,
/// once, with the measured lines over the same positions.
#[test]
fn speedup_png_sets_the_papers_speedups_beside_the_runs_they_describe() {
    let dir = scratch("published-speedups");
    common::copy_reference(&dir, "parabelle-table3-tt.csv");
    let text = small(", reference: \"reference/parabelle-table3-tt.csv\"").replace(
        "algorithm: [Pmws, Parabelle(table: None)]",
        "algorithm: [Parabelle(table: Global, storage: All), Parabelle(table: Local, storage: Partial), Parabelle(table: Local, storage: PartialFrom2), Parabelle(table: Global, storage: AllNodes)]",
    );
    let plan = parse(&text, &dir).unwrap();
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let charts = speedup_panels(&plan, &results);
    assert_eq!(charts.len(), 1);
    let (header, rows) = csv_rows("parabelle-table3-tt.csv");
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for (algorithm, table, storage) in [
        ("parabelle_global_all", "global", "all"),
        ("parabelle_local_partial", "local", "partial"),
        // The other reading of partial storage is set beside the paper's partial rows too.
        ("parabelle_local_partial_from2", "local", "partial"),
        // So is the reading of storing every subtree that takes in horizon nodes.
        ("parabelle_global_all_nodes", "global", "all"),
    ] {
        let want: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r[col("table")] == table && r[col("storage")] == storage)
            .map(|r| {
                (
                    r[col("fanout")].parse().unwrap(),
                    r[col("speedup")].parse().unwrap(),
                )
            })
            .filter(|(f, _)| *f <= 3.0)
            .collect();
        assert_eq!(want.len(), 3, "{table}/{storage}");
        let line = |label: &str| {
            charts[0]
                .series
                .iter()
                .find(|s| s.label == label)
                .unwrap_or_else(|| panic!("no '{label}' in {:?}", charts[0].series))
        };
        // The plan searches 2 of the 24 positions the paper's averages are over.
        let published = line(&format!("{algorithm}, published (over all 24 positions)"));
        assert_eq!(published.points, want, "{algorithm}");
        assert_eq!(published.style, plots::LineStyle::Dashed);
        assert_eq!(published.color, line(algorithm).color, "{algorithm}");
    }
    assert!(
        charts[0].title.contains("chess (mean root width"),
        "{}",
        charts[0].title
    );

    // Table IV: board D (BK.04) is the only searched board it gives counts for.
    let dir = scratch("published-board-means");
    common::copy_reference(&dir, "parabelle-table4-6ply.csv");
    for algorithms in ["[Pmws, Parabelle(table: None)]", "[Pmws]"] {
        let text = small(", reference: \"reference/parabelle-table4-6ply.csv\"")
            .replace("[Pmws, Parabelle(table: None)]", algorithms);
        let plan = parse(&text, &dir).unwrap();
        let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
        let charts = speedup_panels(&plan, &results);
        let (header, rows) = csv_rows("parabelle-table4-6ply.csv");
        let d = rows.iter().find(|r| r[0] == "D").unwrap();
        let at = |name: &str| {
            d[header.iter().position(|h| h == name).unwrap()]
                .parse()
                .unwrap()
        };
        let want = [(1.0, 1.0), (2.0, at("speedup2")), (3.0, at("speedup3"))];
        let published: Vec<&plots::Series> = charts[0]
            .series
            .iter()
            .filter(|s| s.label.starts_with("published speedup"))
            .collect();
        assert_eq!(published.len(), 1, "{algorithms}: drawn once");
        assert_eq!(published[0].points, want, "{algorithms}");
        assert!(
            published[0].label.contains("mean over 1 board)"),
            "{}",
            published[0].label
        );
        // Every measured line is BK.04's alone, straight from its runs.
        for algorithm in ["pmws", "parabelle"] {
            let Some(line) = charts[0]
                .series
                .iter()
                .find(|s| s.label.starts_with(algorithm) || s.label.starts_with("speedup"))
                .filter(|_| plan.algorithms.iter().any(|a| a.name() == algorithm))
            else {
                continue;
            };
            assert!(
                line.label
                    .ends_with("over the 1 position the paper counts)"),
                "{}",
                line.label
            );
            let bk04: Vec<(f64, f64)> = (1..=3u32)
                .map(|f| {
                    let r = results
                        .records
                        .iter()
                        .find(|r| {
                            r.algorithm == algorithm && r.fanout == f && r.position == "BK.04"
                        })
                        .unwrap();
                    (f as f64, r.speedup)
                })
                .collect();
            assert_eq!(line.points, bk04, "{algorithms}: {algorithm}");
        }
    }
}

/// A per-board table that gives counts for none of the positions searched (Table IV has none
/// for board A, BK.01) is a warning, as for the other layouts, and the report says its columns
/// are – rather than that positions are left out.
#[test]
fn a_per_board_table_matching_no_position_searched_is_a_warning() {
    let dir = scratch("table4-unmatched");
    common::copy_reference(&dir, "parabelle-table4-6ply.csv");
    let text = small(", reference: \"reference/parabelle-table4-6ply.csv\"").replace(
        r#"positions: ["BK.04", "BK.01"],"#,
        r#"positions: ["BK.01"],"#,
    );
    let plan = parse(&text, &dir).unwrap();
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.contains("outputs.reference: none of the positions the plan searches")),
        "{:?}",
        plan.warnings
    );
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let out = dir.join("out");
    scenarios::write_outputs(&plan, &results, None, &out).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("its columns are –"), "{md}");
    assert!(!md.contains("searched but left out"), "{md}");
    // With BK.04 (board D) beside it, no warning.
    let plan = parse(
        &small(", reference: \"reference/parabelle-table4-6ply.csv\""),
        &dir,
    )
    .unwrap();
    assert!(
        !plan
            .warnings
            .iter()
            .any(|w| w.contains("outputs.reference")),
        "{:?}",
        plan.warnings
    );
}

#[test]
fn table_iv_averages_leave_out_on_both_sides_a_board_the_paper_has_no_counts_for() {
    // Table IV has no counts for board A (BK.01), which the small plan searches besides BK.04
    // (board D): the simulated averages set beside the paper's are then over BK.04 alone.
    let dir = scratch("table4-boards");
    std::fs::copy(
        shipped("reference/parabelle-table4-6ply.csv"),
        dir.join("table4.csv"),
    )
    .unwrap();
    let plan = parse(&small(", reference: \"table4.csv\""), &dir).unwrap();
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let out = dir.join("out");
    scenarios::write_outputs(&plan, &results, None, &out).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("over the 1 of its 23 boards")
            && md.contains("BK.01 is searched but left out, since the paper gives no counts"),
        "{md}"
    );
    let averages = md
        .split("## Chess: averages over positions")
        .nth(1)
        .and_then(|s| s.split("## What the paper could not measure").next())
        .unwrap();
    // The records of BK.04 alone, straight from the runs.
    let bk04 = |algorithm: &str, f: u32| {
        results
            .records
            .iter()
            .find(|r| r.algorithm == algorithm && r.fanout == f && r.position == "BK.04")
            .unwrap_or_else(|| panic!("no {algorithm} f = {f} run of BK.04"))
    };
    for algorithm in ["pmws", "parabelle"] {
        let table = averages
            .split(&format!("### {algorithm}, 3 ply"))
            .nth(1)
            .unwrap_or_else(|| panic!("no {algorithm} table in:\n{averages}"));
        for f in 1..=3u32 {
            let r = bk04(algorithm, f);
            let row = table
                .lines()
                .find(|l| l.starts_with(&format!("| {f} | ")))
                .unwrap_or_else(|| panic!("no f = {f} row in:\n{table}"));
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            // | f | positions | leaves paper | leaves sim | secs paper | secs sim | speedup paper
            // | speedup sim (sd) | …
            assert_eq!(cells[2], "1", "{algorithm}: {row}");
            assert_eq!(cells[4], r.leaf_nodes.to_string(), "{algorithm}: {row}");
            // One position: no spread.
            assert_eq!(
                cells[8],
                format!("{:.2} (–)", r.speedup),
                "{algorithm}: {row}"
            );
            assert!(
                cells[13] == "–" || cells[13].ends_with("/ 1"),
                "{algorithm}: best moves over BK.04 alone: {row}"
            );
        }
    }
    // results.csv keeps every run, BK.01's included.
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.lines().any(|l| l.contains(",BK.01,")));
}

#[test]
fn every_table_lookup_and_store_is_counted_where_it_is_charged() {
    // `probes` counts the lookups and stores charged `probe` on the processor holding the table:
    // with a global table, the master's own and those it serves for its children. Every lookup
    // and store the table saw (tt_probes, tt_stores) is charged once, whatever the table's place.
    let dir = scratch("probes");
    let text = small("").replace(
        "algorithm: [Pmws, Parabelle(table: None)]",
        "algorithm: [Parabelle(table: Global, storage: All), Parabelle(table: Local, storage: All)]",
    );
    let plan = parse(&text, &dir).unwrap();
    let results = scenarios::run_plan(&plan, 0, &|_, _| {}).unwrap();
    let mut served = false;
    for r in &results.records {
        let table = r.figure("tt_probes").unwrap() + r.figure("tt_stores").unwrap();
        assert_eq!(
            r.probes, table,
            "{} f = {} {}: probes charged against the table's own count",
            r.algorithm, r.fanout, r.position
        );
        served |= r.algorithm == "parabelle_global_all" && r.fanout > 1 && r.msgs_at_node > 0;
    }
    assert!(served, "children probed the global table over the lines");
}
