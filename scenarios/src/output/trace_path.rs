//! The path of `--trace`, checked before the sweep.

use super::folder::atomic_tmp;
use super::{io_at, refused, OutputError};
use crate::load::Plan;
use std::io;
use std::path::{Path, PathBuf};

/// Checks the path of `--trace` before the sweep. It must be a file name in an existing,
/// writable folder; not inside the output folder (which is replaced whole); not an input of the
/// run (the scenario file or its reference table); and if it exists, a trace gtsim wrote (gtsim
/// overwrites nothing else).
pub fn check_trace_path(trace: &Path, plan: &Plan, out: &Path) -> Result<(), OutputError> {
    let Some(name) = trace.file_name() else {
        return Err(refused(trace, "--trace needs a file name, e.g. run.json"));
    };
    let parent = match trace.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let inside = || {
        refused(
            trace,
            format!(
                "--trace is inside the output folder {}, which gtsim replaces whole: write the trace elsewhere",
                out.display()
            ),
        )
    };
    // Inside the output folder, as written (the folder may not exist yet) ...
    if let (Ok(t), Ok(o)) = (std::path::absolute(trace), std::path::absolute(out)) {
        if t.starts_with(&o) {
            return Err(inside());
        }
    }
    let dir = std::fs::canonicalize(&parent).map_err(|e| {
        refused(
            trace,
            format!("cannot write the trace in {}: {e}", parent.display()),
        )
    })?;
    if !dir.is_dir() {
        return Err(refused(
            trace,
            format!("{} is not a folder", parent.display()),
        ));
    }
    let full = dir.join(name);
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let out_full = match (out.parent(), out.file_name()) {
        (Some(p), Some(n)) => canon(if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        })
        .map(|p| p.join(n)),
        _ => canon(out),
    };
    // ... or once symbolic links are resolved.
    if out_full.as_ref().is_some_and(|o| full.starts_with(o)) {
        return Err(inside());
    }
    let mut inputs = vec![("the scenario file", plan.file.clone())];
    if let Some(r) = &plan.reference {
        inputs.push(("the scenario's reference table", r.path.clone()));
    }
    if let Some(r) = &plan.paper {
        inputs.push(("the scenario's reference table", r.path().to_path_buf()));
    }
    for (what, p) in inputs {
        if canon(&p).is_some_and(|p| p == full || canon(&full).is_some_and(|f| f == p)) {
            return Err(refused(trace, format!("--trace would overwrite {what}")));
        }
    }
    match std::fs::symlink_metadata(&full) {
        Err(_) => {}
        Ok(m) if m.is_file() => {
            let mut head = [0u8; 64];
            let n = std::fs::File::open(&full)
                .and_then(|mut f| io::Read::read(&mut f, &mut head))
                .unwrap_or(0);
            if !head[..n].starts_with(crate::trace::PREFIX.as_bytes()) {
                return Err(refused(
                    trace,
                    "exists and is not a trace gtsim wrote: gtsim overwrites no other file; choose another --trace path",
                ));
            }
        }
        Ok(_) => {
            return Err(refused(
                trace,
                "exists and is not a file: choose another --trace path",
            ))
        }
    }
    // Writable? Create and remove the temporary file write_atomic will use.
    let tmp = atomic_tmp(&full).map_err(io_at(trace))?;
    std::fs::write(&tmp, b"")
        .and_then(|_| std::fs::remove_file(&tmp))
        .map_err(|e| refused(trace, format!("cannot write the trace: {e}")))?;
    Ok(())
}
