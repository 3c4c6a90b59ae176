//! Reading bounded user files (scenarios, reference tables, EPD positions) and the limits on
//! what they may say. Used by [`crate::load`], [`crate::positions`] and [`crate::reference`];
//! it uses none of them.

use std::path::Path;

/// Largest synthetic depth accepted (values stay far from the search's infinity).
pub const MAX_DEPTH: u64 = 30;
/// Largest synthetic width accepted.
pub const MAX_WIDTH: u64 = 10_000;
/// Largest number of processors accepted.
pub const MAX_FANOUT: u64 = 1024;
/// Most seeds in a sweep.
pub const MAX_SEEDS: u64 = 100_000;
/// Most simulated runs (baselines included) in a sweep.
pub const MAX_RUNS: u64 = 1_000_000;
/// Largest scenario file read.
pub const MAX_SCENARIO_BYTES: u64 = 16 << 20;
/// Largest reference table read.
pub const MAX_REFERENCE_BYTES: u64 = 4 << 20;
/// Largest EPD file read.
pub const MAX_EPD_BYTES: u64 = 4 << 20;

/// Reads a file the user named, whole, after checking that it is a regular file (not a
/// directory, a device such as /dev/zero, or a FIFO) of at most `cap` bytes. Errors name the file.
pub fn read_bounded(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let name = path.display();
    let kind = |m: &std::fs::Metadata| {
        let t = m.file_type();
        if t.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        }
    };
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{name}: cannot read the {what}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{name}: cannot read the {what}: {}", kind(&meta)));
    }
    let too_big =
        |n: u64| format!("{name}: the {what} is {n} bytes, more than the limit of {cap} bytes");
    if meta.len() > cap {
        return Err(too_big(meta.len()));
    }
    let file =
        std::fs::File::open(path).map_err(|e| format!("{name}: cannot read the {what}: {e}"))?;
    // Checked again on the open file: the path may have been replaced in between.
    let meta = file
        .metadata()
        .map_err(|e| format!("{name}: cannot read the {what}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{name}: cannot read the {what}: {}", kind(&meta)));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read the {what}: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Text of a file the user named: UTF-8, with a leading byte-order mark dropped. Invalid UTF-8 is
/// an error at the line and column (in characters, 1-based) of the first invalid byte.
pub fn decode_text(bytes: &[u8]) -> Result<&str, (usize, usize, String)> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
        let line = good.matches('\n').count() + 1;
        let col = good[good.rfind('\n').map_or(0, |n| n + 1)..]
            .chars()
            .count()
            + 1;
        (
            line,
            col,
            format!(
                "the file is not UTF-8 text: invalid byte 0x{:02X}",
                bytes[e.valid_up_to()]
            ),
        )
    })
}
