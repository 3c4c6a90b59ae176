//! The synchronization study end to end, and its measured overhead against an exact identity.

use algorithms::model;
use std::path::Path;

fn plan(text: &str) -> scenarios::Plan {
    scenarios::parse(text, Path::new("inline-study.ron")).unwrap()
}

const STUDY: &str = r#"(
    name: "tiny-study",
    hardware: (
        costs: (k: Ns(3), e: Ns(11)),
        link: Ideal,
    ),
    workload: Synthetic(width: 5, depth: 3, ordering: Perfect, horizon_noise: 0),
    search: (algorithm: Pmws, progressive_deepening: PD),
    sweep: (
        fanout: [1, 2, 3, 4, 5, 6],
        seeds: Range(start: 1, count: 3),
        width: [3, 5],
        depth: [3, 4],
        ordering: [Perfect, Random],
    ),
    outputs: (plots: true, sync_study: true, timeline: (fanout: 3, seed: 2)),
)"#;

#[test]
fn measured_sync_overhead_is_the_idle_time_of_a_minimal_tree_search() {
    // Perfect ordering, free messages, one iteration: no search overhead, so all the time the
    // f processors do not search is idle, f·T_{d,f} − T_d, over the leaf time e·N_d.
    let p = plan(&STUDY.replace("PD", "false"));
    let results = scenarios::run_plan(&p, 0, &|_, _| {}).unwrap();
    let mut checked = 0;
    for r in results.records.iter().filter(|r| r.ordering == "perfect") {
        let (w, d, f) = (r.width as u64, r.depth, r.fanout as u64);
        let t_df = model::t_df(w, d, f, 3, 11).unwrap();
        let t_d = model::t_d(w, d, 3, 11).unwrap();
        let leaf_time = 11 * model::n_d(w, d).unwrap();
        assert_eq!(r.elapsed_ns, t_df);
        assert_eq!(r.t_idle_sync_ns, f * t_df - t_d, "w={w} d={d} f={f}");
        let expected = (f * t_df - t_d) as f64 / leaf_time as f64;
        assert!((r.sync_overhead - expected).abs() < 1e-12);
        checked += 1;
    }
    assert_eq!(checked, 2 * 2 * 6 * 3);
}

#[test]
fn the_study_writes_its_table_plot_and_report() {
    let p = plan(&STUDY.replace("PD", "true"));
    let results = scenarios::run_plan(&p, 1, &|_, _| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("gtsim-study-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (c, f, seed) = p.timeline.unwrap();
    let rec = scenarios::Recording {
        intervals: true,
        messages: true,
    };
    let run = scenarios::simulate(&p, c, f, seed, rec).unwrap();
    let files = scenarios::write_outputs(&p, &results, Some(&run), &dir).unwrap();
    for name in [
        "sync-overhead.png",
        "sync-overhead.csv",
        "timeline.png",
        "overheads.png",
    ] {
        assert!(files.contains(&dir.join(name)), "{name} not written");
    }
    let csv = std::fs::read_to_string(dir.join("sync-overhead.csv")).unwrap();
    // One row per configuration and fanout: 2 widths × 2 depths × 2 orderings × 6 fanouts.
    assert_eq!(csv.lines().count(), 1 + 8 * 6);
    for line in csv.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        if cols[4] == "1" {
            assert_eq!(
                cols[6].parse::<f64>().unwrap(),
                0.0,
                "idle time with one processor"
            );
        }
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for part in [
        "### Main table",
        "### Detail",
        "### Where each estimate holds",
        "f^",
    ] {
        assert!(report.contains(part), "report lacks {part}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn each_study_panel_shows_only_its_depth_parity_estimate() {
    let p = plan(&STUDY.replace("PD", "false"));
    let results = scenarios::run_plan(&p, 0, &|_, _| {}).unwrap();
    let study = scenarios::study::SyncStudy::new(&p, &results.summaries);
    let charts = study.charts();
    assert_eq!(charts.len(), 2 * 2, "two widths × two parities");
    for c in &charts {
        // One label for the odd and the even estimate (the panels share one legend): which
        // one a panel draws is told by its values.
        let odd = c.title.contains("odd depths");
        let w: f64 = c.title["w = ".len()..c.title.find(',').unwrap()]
            .parse()
            .unwrap();
        let eq14: Vec<_> = c
            .series
            .iter()
            .filter(|s| {
                s.label
                    .starts_with("f/2(w+1) at odd d (eq. 14), 3f/4(w-1) at even d")
            })
            .collect();
        assert_eq!(eq14.len(), 1, "{}", c.title);
        for &(f, y) in &eq14[0].points {
            let want = if odd {
                f / (2.0 * (w + 1.0))
            } else {
                3.0 * f / (4.0 * (w - 1.0))
            };
            assert!((y - 100.0 * want).abs() < 1e-9, "{}: f = {f}: {y}", c.title);
        }
    }
    // Every panel lists the same series (one depth of each parity here, named by the panel's
    // title): one legend serves them all.
    let labels =
        |c: &plots::LineChart| c.series.iter().map(|s| s.label.clone()).collect::<Vec<_>>();
    assert!(
        charts.iter().all(|c| labels(c) == labels(&charts[0])),
        "{:?}",
        charts.iter().map(labels).collect::<Vec<_>>()
    );
}

/// sync-overhead.csv and the study's tables have a row per configuration and processor count,
/// with no algorithm column, and set it against the model of pmws on the paper's trees: a plan
/// whose rows could not be told apart, or which the model does not describe, is refused at
/// `outputs.sync_study`.
#[test]
fn the_study_is_refused_where_its_rows_would_be_ambiguous_or_the_model_does_not_apply() {
    let base = STUDY.replace("PD", "false");
    let refused = |text: &str, words: &str| {
        let (line, col) = text
            .lines()
            .enumerate()
            .find_map(|(i, l)| l.find("sync_study").map(|c| (i + 1, c + 1)))
            .unwrap();
        let e = scenarios::parse(text, Path::new("inline-study.ron"))
            .unwrap_err()
            .to_string();
        let at = format!("inline-study.ron:{line}:{col}: outputs.sync_study: ");
        assert!(e.starts_with(&at), "{e}\ndoes not start with {at}");
        assert!(e.contains(words), "{e}\ndoes not say {words}");
    };
    let sweep = "    sweep: (\n";
    refused(
        &base.replace(
            sweep,
            &format!("{sweep}        algorithm: [Pmws, Parabelle(table: Global)],\n"),
        ),
        "its rows (sync-overhead.csv, the report's tables) have no algorithm column: this plan runs 2 algorithms (pmws and parabelle_global_all)",
    );
    refused(
        &base.replace("algorithm: Pmws", "algorithm: TreeSplit(update: false)"),
        "which describes pmws and Parabelle, not treesplit",
    );
    refused(
        &base
            .replace(
                "fanout: [1, 2, 3, 4, 5, 6],",
                "ptree: [(depth: 1, width: 2), (depth: 1, width: 3)],",
            )
            .replace(", timeline: (fanout: 3, seed: 2)", ""),
        "not Campbell's (sweep.ptree)",
    );
    // One scheme the model describes, on the paper's trees: the study as shipped.
    plan(&base);
    plan(&base.replace(
        sweep,
        &format!("{sweep}        algorithm: [Parabelle(table: Local)],\n"),
    ));
}
