//! `gtsim run --shard i/n` and `gtsim merge`: shards merged write the output of one whole run,
//! byte for byte; a merge refuses missing, repeated and foreign shards.

use std::path::Path;
use std::process::{Command, Output};

mod common;

fn gtsim(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gtsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("gtsim runs")
}

fn scratch(name: &str) -> common::Scratch {
    common::scratch("shards", name)
}

fn shipped(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(name)
        .display()
        .to_string()
}

/// Every file of folder `a` (recursively) equals the file of the same name in `b`, and `b` has
/// no other.
fn same_folders(a: &Path, b: &Path) {
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(a), names(b), "{} and {}", a.display(), b.display());
    for n in names(a) {
        let (x, y) = (a.join(&n), b.join(&n));
        if x.is_dir() {
            same_folders(&x, &y);
        } else {
            assert!(
                std::fs::read(&x).unwrap() == std::fs::read(&y).unwrap(),
                "{} differs",
                x.display()
            );
        }
    }
}

/// A copy of the shard in the folder `from` as the shard folder `to` (both in `dir`), its file's
/// text changed by `edit`.
fn edited_shard(dir: &Path, from: &str, to: &str, edit: impl FnOnce(&str) -> String) {
    let text = std::fs::read_to_string(dir.join(from).join("shard.jsonl")).unwrap();
    std::fs::create_dir_all(dir.join(to)).unwrap();
    std::fs::write(dir.join(to).join("shard.jsonl"), edit(&text)).unwrap();
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn four_shards_merged_are_one_whole_run_byte_for_byte() {
    // sync-overhead (its study, charts and timeline) and pmws-uniform (a reference table),
    // made smaller by --set, which the shards and the merge carry.
    for (scenario, sets) in [
        (
            "sync-overhead.ron",
            vec![
                "--set",
                "sweep.seeds=Range(start: 1, count: 2)",
                "--set",
                "sweep.width=[8, 34]",
                "--set",
                "sweep.depth=[4, 5]",
                "--set",
                "sweep.fanout=[1, 2, 4, 8]",
            ],
        ),
        (
            "pmws-uniform.ron",
            vec!["--set", "sweep.seeds=Range(start: 1, count: 3)"],
        ),
    ] {
        let dir = scratch(scenario);
        let file = shipped(scenario);
        let run = |extra: &[&str]| {
            let mut args = vec!["run", file.as_str()];
            args.extend(extra);
            args.extend(sets.iter().copied());
            args.push("--quiet");
            gtsim(&dir, &args)
        };
        ok(&run(&["--out", "out"]));
        std::fs::rename(dir.join("out"), dir.join("whole")).unwrap();
        for i in 0..4 {
            let shard = format!("{i}/4");
            let out = format!("s{i}");
            ok(&run(&["--out", &out, "--shard", &shard]));
            assert!(dir.join(&out).join("shard.jsonl").is_file());
        }
        // Given in any order.
        ok(&gtsim(
            &dir,
            &["merge", "out", "s2", "s0", "s3", "s1", "--quiet"],
        ));
        same_folders(&dir.join("whole"), &dir.join("out"));
        // No part file is left beside it.
        assert!(!dir.join(".out.gtsim-part").exists());
    }
}

/// The merged folder records shard 0's command (made whole), whichever shard is listed first:
/// shards may be run with different options (`--threads`), and the order they are listed in
/// changes nothing.
#[test]
fn a_merge_records_shard_zeros_command_whatever_the_order() {
    let dir = scratch("order");
    let file = shipped("pmws-uniform.ron");
    let shard = |i: usize, threads: &str| {
        let (out, of) = (format!("s{i}"), format!("{i}/2"));
        ok(&gtsim(
            &dir,
            &[
                "run",
                file.as_str(),
                "--set",
                "sweep.seeds=Range(start: 1, count: 2)",
                "--threads",
                threads,
                "--quiet",
                "--out",
                &out,
                "--shard",
                &of,
            ],
        ));
    };
    shard(0, "1");
    shard(1, "2");
    ok(&gtsim(&dir, &["merge", "out", "s0", "s1", "--quiet"]));
    std::fs::rename(dir.join("out"), dir.join("first")).unwrap();
    ok(&gtsim(&dir, &["merge", "out", "s1", "s0", "--quiet"]));
    same_folders(&dir.join("first"), &dir.join("out"));
    let report = std::fs::read_to_string(dir.join("out").join("report.md")).unwrap();
    assert!(report.contains("--threads 1"), "{report}");
    assert!(!report.contains("--threads 2"), "{report}");
}

#[test]
fn a_merge_needs_every_shard_of_one_sweep_once() {
    let dir = scratch("refused");
    let file = shipped("pmws-uniform.ron");
    let shard = |i: &str, out: &str, seeds: &str| {
        ok(&gtsim(
            &dir,
            &[
                "run", &file, "--out", out, "--shard", i, "--set", seeds, "--quiet",
            ],
        ))
    };
    let two = "sweep.seeds=Range(start: 1, count: 2)";
    shard("0/3", "a0", two);
    shard("1/3", "a1", two);
    shard("2/3", "a2", two);
    shard("2/3", "b2", "sweep.seeds=Range(start: 1, count: 3)");
    let refused = |args: &[&str], words: &[&str]| {
        let o = gtsim(&dir, args);
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{args:?} merged");
        for w in words {
            assert!(e.contains(w), "{e} says {w:?}");
        }
        assert!(!dir.join("m").exists(), "nothing written");
        assert!(!dir.join(".m.gtsim-part").exists(), "no part file left");
    };
    refused(&["merge", "m", "a0", "a1"], &["shard 2/3 is missing"]);
    // Into one of its own shards: refused (a usage error), the shard left as it was.
    let a0 = std::fs::read(dir.join("a0").join("shard.jsonl")).unwrap();
    let o = gtsim(&dir, &["merge", "a0", "a0", "a1", "a2"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("is the shard a0"));
    assert_eq!(
        std::fs::read(dir.join("a0").join("shard.jsonl")).unwrap(),
        a0
    );
    refused(&["merge", "m", "a0", "a1", "a1", "a2"], &["given twice"]);
    // What differs is named.
    refused(
        &["merge", "m", "a0", "a1", "b2"],
        &[
            "shard.jsonl: a shard made with --set sweep.seeds=Range(start: 1, count: 3), the first shard with --set sweep.seeds=Range(start: 1, count: 2)",
        ],
    );
    refused(&["merge", "m", "a0"], &["shards 1/3, 2/3 are missing"]);
    // A shard of another sweep is named as such before its runs are read: here runs damaged
    // besides.
    edited_shard(&dir, "b2", "b2x", |t| {
        t.replacen("\"events\":", "\"events\":9", 1)
    });
    refused(
        &["merge", "m", "a0", "a1", "b2x"],
        &["b2x/shard.jsonl: a shard made with --set sweep.seeds=Range(start: 1, count: 3)"],
    );
    // A header edited (the command a merged folder records) is refused at its line.
    edited_shard(&dir, "a2", "a2x", |t| {
        t.replacen("\"command\":[\"", "\"command\":[\"rm -rf /\",\"", 1)
    });
    refused(
        &["merge", "m", "a0", "a1", "a2x"],
        &["a2x/shard.jsonl:1: not a line gtsim wrote"],
    );
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    refused(
        &["merge", "m", "a0", "a1", "empty"],
        &["empty: not a shard's folder"],
    );
    refused(&["merge", "m", "a0", "a1", "nowhere"], &["nowhere"]);
    // A shard whose runs were edited: a makespan its time categories do not add up to, a root
    // value that is not the tree's.
    for (what, from, to) in [
        ("time categories", "\"makespan_ns\":", "\"makespan_ns\":1"),
        ("root value", "\"root_value\":", "\"root_value\":-1"),
    ] {
        edited_shard(&dir, "a1", "c1", |t| {
            assert!(t.contains(from));
            common::resealed(&t.replacen(from, to, 1))
        });
        refused(
            &["merge", "m", "a0", "c1", "a2"],
            &["not one a simulation leaves", what],
        );
    }
    // An edit without its check sealed again is refused before any of that, naming the line.
    edited_shard(&dir, "a1", "c1", |t| {
        t.replacen("\"events\":", "\"events\":7", 1)
    });
    refused(
        &["merge", "m", "a0", "c1", "a2"],
        &[
            "shard.jsonl:2: not a line gtsim wrote",
            "run that shard again",
        ],
    );
    // The shards of one sweep merge.
    ok(&gtsim(&dir, &["merge", "m", "a0", "a1", "a2", "--quiet"]));
    let csv = std::fs::read_to_string(dir.join("m").join("results.csv")).unwrap();
    // 2 seeds × 4 fanouts.
    assert_eq!(csv.lines().count(), 1 + 2 * 4);
    // Bad --shard values and combinations are refused before anything runs.
    for (args, words) in [
        (
            vec!["run", &file, "--out", "x", "--shard", "3/3"],
            "expected i/n",
        ),
        (
            vec!["run", &file, "--out", "x", "--shard", "1/0"],
            "expected i/n",
        ),
        (
            vec!["run", &file, "--out", "x", "--shard", " 0/2"],
            "expected i/n",
        ),
        (
            vec!["run", &file, "--out", "x", "--shard", "+1/2"],
            "expected i/n",
        ),
        (vec!["run", &file, "--shard", "0/2"], "needs --out"),
        (
            vec!["run", &file, "--out", "x", "--shard", "0/2", "--resume"],
            "--resume",
        ),
        (
            vec![
                "run", &file, "--out", "x", "--shard", "0/2", "--trace", "t.json",
            ],
            "--trace",
        ),
        // Option clashes are found before the scenario is read.
        (vec!["run", "no-such.ron", "--shard", "0/2"], "needs --out"),
    ] {
        let o = gtsim(&dir, &args);
        // A usage error, as clap's own.
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(words),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!dir.join("x").exists());
    }
}

/// Shards merge by any copy of the executable that made them (its file's time is not the
/// build); another build's shard, or a scenario changed since the shards ran, is named as such;
/// a merge run where the scenario's path does not lead to it says so.
#[test]
fn a_merge_names_the_build_and_the_file_that_differ() {
    let dir = scratch("builds");
    std::fs::copy(shipped("treesplit.ron"), dir.join("t.ron")).unwrap();
    let seeds = "sweep.seeds=Range(start: 1, count: 2)";
    for i in 0..2 {
        ok(&gtsim(
            &dir,
            &[
                "run",
                "t.ron",
                "--set",
                seeds,
                "--shard",
                &format!("{i}/2"),
                "--out",
                &format!("s{i}"),
                "--quiet",
            ],
        ));
    }
    // A copy of the executable, made later (another modification time): the same build.
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    let exe = copy.join("gtsim");
    std::fs::copy(env!("CARGO_BIN_EXE_gtsim"), &exe).unwrap();
    // Another test's thread may fork while the copy is still open for writing here; its child
    // holds the written file until it executes, and running the copy meanwhile fails with
    // "text file busy" (ETXTBSY). That passes within moments, so wait for it.
    let by_copy = |args: &[&str]| {
        for _ in 0..1000 {
            match Command::new(&exe).current_dir(&dir).args(args).output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                run => return run.expect("the copy runs"),
            }
        }
        panic!("the copy stayed busy for 10 s: another process holds it open for writing")
    };
    ok(&by_copy(&["merge", "m", "s0", "s1", "--quiet"]));
    assert!(dir.join("m").join("results.csv").is_file());
    let refused = |args: &[&str], words: &[&str]| {
        let o = gtsim(&dir, args);
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(3), "{args:?}: {e}");
        for w in words {
            assert!(e.contains(w), "{e} says {w:?}");
        }
        assert!(!dir.join("n").exists(), "nothing written");
    };
    // Another build's shard (its header as another build would write it).
    edited_shard(&dir, "s1", "o1", |text| {
        let (header, runs) = text.split_once('\n').unwrap();
        let build = common::string_field(header, "build");
        assert!(build.contains("built by"), "{header}");
        let other = header
            .replace(common::string_field(header, "fingerprint"), &"0".repeat(64))
            .replace(build, "0.0.1 (git commit 0123abc), built by rustc 1.0.0");
        common::resealed(&format!("{other}\n{runs}"))
    });
    refused(
        &["merge", "n", "s0", "o1"],
        &[
            "a shard made by another gtsim build (0.0.1 (git commit 0123abc), built by rustc 1.0.0); this gtsim is",
        ],
    );
    // The scenario changed since the shards ran.
    let mut scenario = std::fs::read_to_string(dir.join("t.ron")).unwrap();
    scenario.push_str("// changed\n");
    std::fs::write(dir.join("t.ron"), scenario).unwrap();
    refused(
        &["merge", "n", "s0", "s1"],
        &["s0/shard.jsonl: t.ron is not what it was when the shard ran"],
    );
    // Merged from another folder, where the path the shards ran does not lead to it.
    let o = gtsim(&copy, &["merge", "n", "../s0", "../s1", "--quiet"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(
        e.contains("the shards ran the scenario t.ron, which is not found from here"),
        "{e}"
    );
    assert!(!copy.join("n").exists());
}
