//! Records the git commit gtsim is built from (GTSIM_GIT_COMMIT) and whether the checkout had
//! changes not committed (GTSIM_GIT_DIRTY: `true`, `false` or `unknown`), for `--version` and
//! the provenance that report.md and results.json carry; and the compiler's version
//! (GTSIM_RUSTC), part of the build identity that shards and part files carry. Outside a git
//! checkout of gtsim's own repository (no git, or gtsim's files inside another repository), the
//! commit and the flag are "unknown"; this script never fails the build.

use std::path::PathBuf;
use std::process::Command;

/// Runs git read-only: without optional locks, `git status` does not write the index back with
/// the stat data it refreshed. (It did: the index, which this script watches, then changed
/// under every first build of a fresh clone, and the next cargo command ran this script and
/// compiled this crate again.)
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=GTSIM_GIT_COMMIT");
    // The commit only of a repository whose top is the workspace's own folder: gtsim's source
    // unpacked inside another repository (which ignores it, or tracks it as files of its own)
    // has no commit of its own, and that repository's commit and status would say nothing about
    // it.
    let own_repository = match (
        git(&["rev-parse", "--show-toplevel"]).and_then(|t| std::fs::canonicalize(t).ok()),
        std::fs::canonicalize(".."),
    ) {
        (Some(top), Ok(workspace)) => top == workspace,
        _ => false,
    };
    let commit = std::env::var("GTSIM_GIT_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| {
            own_repository
                .then(|| git(&["rev-parse", "HEAD"]))
                .flatten()
        })
        .unwrap_or_else(|| "unknown".into());
    // Rerun when HEAD moves: HEAD itself (a branch switch), the branch's ref (a commit) and
    // packed-refs (where a ref lives after `git gc`). `--git-path` finds them in worktrees too.
    for name in ["HEAD", "packed-refs"] {
        watch(git(&["rev-parse", "--git-path", name]));
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(git(&["rev-parse", "--git-path", &branch]));
    }
    // Modified tracked files (untracked ones do not count), as of this build. The script reruns
    // when the code or the index changes, so the flag follows edits, commits and stashes.
    let dirty =
        if commit == "unknown" || std::env::var("GTSIM_GIT_COMMIT").is_ok_and(|c| !c.is_empty()) {
            "unknown".to_string()
        } else {
            match git(&["status", "--porcelain", "--untracked-files=no"]) {
                Some(_) => "true".into(),
                None if git(&["rev-parse", "--git-dir"]).is_some() => "false".into(),
                None => "unknown".into(),
            }
        };
    watch(git(&["rev-parse", "--git-path", "index"]));
    for dir in [
        "src",
        "machines",
        "build.rs",
        "Cargo.toml",
        "../Cargo.toml",
        "../Cargo.lock",
        "../sim-core",
        "../sim-hw",
        "../algorithms",
        "../chess",
        "../plots",
    ] {
        watch(Some(dir.into()));
    }
    println!("cargo:rustc-env=GTSIM_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=GTSIM_GIT_DIRTY={dirty}");
    // The compiler, for the build identity that shards and part files carry: two builds of one
    // commit by one compiler compute the same results. (Cargo reruns this script when the
    // compiler changes.)
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=GTSIM_RUSTC={version}");
}

fn watch(path: Option<String>) {
    if let Some(p) = path {
        let p = PathBuf::from(p);
        // Relative paths from git are relative to the package dir, where build scripts run.
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}
