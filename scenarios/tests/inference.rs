//! The cost inference: a `vary` run of a chess scenario with
//! `outputs.inference` writes `cost-inference.png` and a report section whose figures are each
//! combination's own; the field is refused where it cannot apply.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gtsim-inference-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("reference")).unwrap();
    for f in ["parabelle-table2-no-tt.csv", "parabelle-table3-tt.csv"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("reference")
            .join(f);
        std::fs::copy(from, d.join("reference").join(f)).unwrap();
    }
    d
}

fn scenario(workload: &str, algorithms: &str, inference: &str) -> String {
    format!(
        r#"(
    name: "inference",
    hardware: (
        costs: (k: Ms(8.0), e: Ms(20.0), q: Ms(2.0), probe: Ms(0.5), s: Ms(2.0), interrupt: Ms(1.0)),
        link: Sci(rate: 960, board_char: Cycles(184)),
    ),
    workload: {workload},
    search: (algorithm: Parabelle(), progressive_deepening: true),
    sweep: (fanout: [1, 2, 3], algorithm: {algorithms}),
    vary: {{"hardware.costs.s": ["Ms(1)", "Ms(40)"], "hardware.link.board_char": ["Cycles(184)", "Us(1000)"]}},
    outputs: (plots: false, inference: {inference}),
)"#
    )
}

const CHESS: &str = r#"Chess(positions: BratkoKopec, depth: 3), sweep_positions_placeholder"#;

fn chess_scenario(inference: &str) -> String {
    scenario(
        CHESS,
        "[Parabelle(table: None), Parabelle(table: Global, storage: All)]",
        inference,
    )
    .replace(", sweep_positions_placeholder", "")
    .replace(
        "sweep: (fanout: [1, 2, 3],",
        "sweep: (positions: [\"BK.04\", \"BK.01\"], fanout: [1, 2, 3],",
    )
}

/// The cells of the markdown table row of `md` whose first cell is `first`.
fn row<'a>(md: &'a str, first: &str) -> Vec<&'a str> {
    md.lines()
        .find(|l| l.starts_with(&format!("| {first} |")))
        .unwrap_or_else(|| panic!("no row {first} in\n{md}"))
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect()
}

#[test]
fn a_vary_run_sets_every_combination_against_the_papers_tables() {
    let dir = scratch("run");
    let file = dir.join("inference.ron");
    std::fs::write(
        &file,
        chess_scenario(
            r#"["reference/parabelle-table2-no-tt.csv", "reference/parabelle-table3-tt.csv"]"#,
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let png = std::fs::read(out.join("cost-inference.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let section = &md[md
        .find("## What the 1985 machine must have cost")
        .expect("section")..];
    // Header: #, the two varied fields, then per algorithm time % at f = 2, 3 and the step.
    let head = row(section, "#");
    assert_eq!(head.len(), 3 + 2 * 3, "{head:?}");
    assert!(
        head[3].starts_with("parabelle time % f = 2 (paper 16.90)"),
        "{head:?}"
    );
    assert!(
        head[6].starts_with("parabelle_global_all time % f = 2 (paper 45.20)"),
        "{head:?}"
    );
    assert!(
        head[8].contains("speedup step to f = 3 (paper 0.28)"),
        "{head:?}"
    );
    // Four combinations, each row's figures those of its own folder's averages table.
    let folders = [
        "hardware.costs.s=Ms_1_,hardware.link.board_char=Cycles_184_",
        "hardware.costs.s=Ms_1_,hardware.link.board_char=Us_1000_",
        "hardware.costs.s=Ms_40_,hardware.link.board_char=Cycles_184_",
        "hardware.costs.s=Ms_40_,hardware.link.board_char=Us_1000_",
    ];
    let mut times = Vec::new();
    for (i, folder) in folders.iter().enumerate() {
        let r = row(section, &(i + 1).to_string());
        let own = std::fs::read_to_string(out.join(folder).join("report.md")).unwrap();
        // The chess averages (no reference table): "| f | positions | leaf nodes | secs |
        // speedup (sd) | search % | time % | best moves |", one table per algorithm in order.
        let averages: Vec<Vec<&str>> = own
            .lines()
            .filter(|l| l.starts_with("| 2 | 2 |") || l.starts_with("| 3 | 2 |"))
            .filter(|l| !l.contains('±') && l.contains(" ("))
            .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
            .collect();
        assert_eq!(averages.len(), 4, "{folder}");
        let time = |k: usize| averages[k][6].parse::<f64>().unwrap();
        let speedup = |k: usize| {
            averages[k][4]
                .split(' ')
                .next()
                .unwrap()
                .parse::<f64>()
                .unwrap()
        };
        let cell = |k: usize| r[k].parse::<f64>().unwrap();
        assert!((cell(3) - time(0)).abs() <= 0.051, "{folder}: {r:?}");
        assert!((cell(4) - time(1)).abs() <= 0.051, "{folder}: {r:?}");
        assert!((cell(6) - time(2)).abs() <= 0.051, "{folder}: {r:?}");
        assert!((cell(7) - time(3)).abs() <= 0.051, "{folder}: {r:?}");
        assert!(
            (cell(5) - (speedup(1) - speedup(0))).abs() <= 0.011,
            "{folder}: {r:?}"
        );
        assert!(
            (cell(8) - (speedup(3) - speedup(2))).abs() <= 0.011,
            "{folder}: {r:?}"
        );
        times.push(cell(6));
    }
    // The global table's at-node messages make its time overhead grow with the setup s.
    assert!(times[2] > times[0] && times[3] > times[1], "{times:?}");
    // The nearest combinations: those whose root mean square distance from the paper's time
    // overheads at f = 2 and 3 (Table II: 16.9 and 26.6) is least, every one of them if tied.
    let distances: Vec<f64> = (1..=folders.len())
        .map(|i| {
            let r = row(section, &i.to_string());
            let d2 = (r[3].parse::<f64>().unwrap() - 16.9).powi(2)
                + (r[4].parse::<f64>().unwrap() - 26.6).powi(2);
            (d2 / 2.0).sqrt()
        })
        .collect();
    let least = distances.iter().copied().fold(f64::INFINITY, f64::min);
    let nearest: Vec<String> = (1..=folders.len())
        .filter(|&i| distances[i - 1] - least < 0.02)
        .map(|i| format!("#{i} ("))
        .collect();
    let full = section
        .lines()
        .find(|l| l.starts_with("- parabelle: nearest time overheads: "))
        .unwrap_or_else(|| panic!("no nearest line in:\n{section}"));
    // Table II's f = 3 prints 26.6 %, its own seconds give 3 × 664 / 1611 − 1 = 23.6 %: the fit
    // with that figure follows.
    let (line, other) = full
        .split_once(" The paper's table contradicts itself (f = 3 prints 26.6 % where its seconds give 23.6 %; one of the two is a misprint): with the figure from its seconds, ")
        .unwrap_or_else(|| panic!("no fit with the computed figure: {full}"));
    assert!(
        nearest.iter().all(|n| line.contains(n))
            && line.matches(" (hardware.").count() == nearest.len(),
        "{nearest:?} {distances:?}: {line}"
    );
    assert!(
        line.ends_with(&format!(
            "{least:.1} points from the paper's (root mean square over f = 2 and 3)."
        )),
        "{least}: {line}"
    );
    let computed: Vec<f64> = (1..=folders.len())
        .map(|i| {
            let r = row(section, &i.to_string());
            let d2 = (r[3].parse::<f64>().unwrap() - 16.9).powi(2)
                + (r[4].parse::<f64>().unwrap() - 300.0 * 664.0 / 1611.0 + 100.0).powi(2);
            (d2 / 2.0).sqrt()
        })
        .collect();
    let least = computed.iter().copied().fold(f64::INFINITY, f64::min);
    let best = (1..=folders.len())
        .filter(|&i| computed[i - 1] - least < 0.02)
        .map(|i| format!("#{i} ("));
    assert!(
        best.clone().all(|n| other.contains(&n)),
        "{computed:?}: {other}"
    );
    assert!(
        other.ends_with(&format!("{least:.1} points.")),
        "{least}: {other}"
    );
    // The step to f = 3: Table II's speedup rises (+0.69); a combination moves as the paper's
    // when its own step rises too.
    let alike = (1..=folders.len())
        .filter(|&i| row(section, &i.to_string())[5].parse::<f64>().unwrap() > 0.0)
        .count();
    let step = section
        .lines()
        .find(|l| l.starts_with("- parabelle: the paper's speedup rises from f = 2 to f = 3 (+0.69); simulated, it rises too in "))
        .unwrap_or_else(|| panic!("no step line in:\n{section}"));
    let said = match alike {
        0 => "no combination.".to_string(),
        4 => "every combination (4).".to_string(),
        n => format!("{n} of 4: "),
    };
    assert!(step.contains(&said), "{alike}: {step}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_inference_is_refused_where_it_cannot_apply() {
    let dir = scratch("bad");
    let check = |text: &str| -> String {
        let file = dir.join("bad.ron");
        std::fs::write(&file, text).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .args(["check", file.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!o.status.success());
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let synthetic = scenario(
        "Synthetic(width: 4, depth: 3, ordering: Random)",
        "[Pmws]",
        r#"["reference/parabelle-table2-no-tt.csv"]"#,
    )
    .replace(
        "fanout: [1, 2, 3],",
        "fanout: [1, 2, 3], seeds: Range(start: 1, count: 2),",
    );
    let e = check(&synthetic);
    assert!(
        e.contains("bad.ron:") && e.contains("outputs.inference") && e.contains("chess"),
        "{e}"
    );
    let e = check(&chess_scenario(r#"["reference/missing.csv"]"#));
    assert!(
        e.contains("outputs.inference") && e.contains("missing.csv"),
        "{e}"
    );
    std::fs::write(
        dir.join("reference/boards.csv"),
        "board,move,leaf1,min1\nA,d6d1,100,1.0\n",
    )
    .unwrap();
    let e = check(&chess_scenario(r#"["reference/boards.csv"]"#));
    assert!(
        e.contains("outputs.inference") && e.contains("per-board"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without a `vary` section the tables were read and nothing was written, without a word.
#[test]
fn the_inference_needs_a_vary_section() {
    let dir = scratch("unvaried");
    let gtsim = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_gtsim"))
            .args(args)
            .output()
            .unwrap()
    };
    let varied = chess_scenario(r#"["reference/parabelle-table2-no-tt.csv"]"#);
    let vary_line = varied
        .lines()
        .find(|l| l.trim_start().starts_with("vary:"))
        .unwrap();
    let text = varied.replace(&format!("{vary_line}\n"), "");
    let (line, at) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("inference:").map(|c| (i + 1, c + 1)))
        .unwrap();
    let file = dir.join("unvaried.ron");
    std::fs::write(&file, &text).unwrap();
    let out = dir.join("out");
    for args in [
        vec!["check", file.to_str().unwrap()],
        vec![
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let o = gtsim(&args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {e}");
        let said = format!(
            "{}:{line}:{at}: outputs.inference: the cost inference sets every combination of a vary section against the paper's tables, and this scenario has no vary section",
            file.display()
        );
        assert!(e.contains(&said), "{args:?}: {e}\ndoes not say {said}");
    }
    assert!(!out.exists(), "an output folder was written");
    // With its vary section, but every varied field set: one combination as a plain
    // scenario, which writes no inference, and says so at outputs.inference (a line below
    // its place without the vary line, which comes before it).
    let file = dir.join("varied.ron");
    std::fs::write(&file, &varied).unwrap();
    let o = gtsim(&[
        "check",
        file.to_str().unwrap(),
        "--set",
        "hardware.costs.s=Ms(1)",
        "--set",
        "hardware.link.board_char=Cycles(184)",
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{e}");
    let warning = format!(
        "gtsim: warning: {}:{}:{at}: outputs.inference: the cost inference is not written: --set sets every varied field, so this runs one combination as a plain scenario, and the inference is written over the combinations of a vary run\n",
        file.display(),
        line + 1
    );
    assert!(e.contains(&warning), "{e}\ndoes not say {warning}");
    let o = gtsim(&["check", file.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{e}");
    assert!(!e.contains("outputs.inference"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
