//! A text tag in a PNG (a `tEXt` chunk, PNG specification §11.3.4.3), so that gtsim can tell a
//! chart it wrote from any other image before it overwrites one.

use std::path::Path;

use crate::PlotError;

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320), over `bytes`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The chunks of a PNG as (type, data), or None if `png` is not a well-formed PNG.
fn chunks(png: &[u8]) -> Option<Vec<([u8; 4], &[u8])>> {
    let mut rest = png.strip_prefix(&SIGNATURE[..])?;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let len = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let kind: [u8; 4] = rest.get(4..8)?.try_into().ok()?;
        let end = len.checked_add(12)?;
        let data = rest.get(8..end - 4)?;
        rest.get(end - 4..end)?;
        out.push((kind, data));
        rest = &rest[end..];
    }
    Some(out)
}

/// `png` with a `tEXt` chunk `keyword` = `text` right after its header chunk.
fn with_text(png: &[u8], keyword: &str, text: &str) -> Option<Vec<u8>> {
    let chunks = chunks(png)?;
    if chunks.first()?.0 != *b"IHDR" {
        return None;
    }
    let mut data = keyword.as_bytes().to_vec();
    data.push(0);
    data.extend_from_slice(text.as_bytes());
    let mut out = SIGNATURE.to_vec();
    for (i, (kind, body)) in chunks.iter().enumerate() {
        push_chunk(&mut out, *kind, body);
        if i == 0 {
            push_chunk(&mut out, *b"tEXt", &data);
        }
    }
    Some(out)
}

fn push_chunk(out: &mut Vec<u8>, kind: [u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(&kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// Adds the text `keyword` = `text` to the PNG at `path` (rewritten atomically: a temporary
/// sibling renamed onto it).
///
/// # Errors
/// [`PlotError::Write`] if the file is not a PNG or cannot be read or written.
pub fn tag_png(path: &Path, keyword: &str, text: &str) -> Result<(), PlotError> {
    let write_error = |message: String| PlotError::Write {
        path: path.to_path_buf(),
        message,
    };
    let png = std::fs::read(path).map_err(|e| write_error(e.to_string()))?;
    let tagged =
        with_text(&png, keyword, text).ok_or_else(|| write_error("not a PNG file".into()))?;
    let name = path
        .file_name()
        .ok_or_else(|| PlotError::InvalidPath {
            path: path.to_path_buf(),
        })?
        .to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.{}.tag.tmp", std::process::id()));
    let result = std::fs::write(&tmp, &tagged)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| write_error(e.to_string()));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The text of the `tEXt` chunk `keyword` of the PNG at `path`, if it is a PNG that has one.
pub fn png_text(path: &Path, keyword: &str) -> Option<String> {
    let png = std::fs::read(path).ok()?;
    chunks(&png)?.into_iter().find_map(|(kind, data)| {
        let (k, text) = data.split_at(data.iter().position(|&b| b == 0)?);
        (kind == *b"tEXt" && k == keyword.as_bytes())
            .then(|| String::from_utf8_lossy(&text[1..]).into_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_the_iend_chunk_is_the_one_every_png_ends_with() {
        // Every PNG's IEND chunk has this CRC (over the type and no data).
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn a_tagged_chart_carries_its_text_and_an_untagged_one_or_other_file_none() {
        let dir = std::env::temp_dir().join(format!("gtsim-plots-tag-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // a stale folder of an earlier process with this id
        std::fs::create_dir_all(&dir).unwrap();
        let png = dir.join("c.png");
        let chart = crate::LineChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![],
            integer_x: false,
            log2_x: false,
        };
        crate::line_chart(&png, &chart).unwrap();
        let plain = std::fs::read(&png).unwrap();
        assert_eq!(png_text(&png, "Software"), None);
        tag_png(&png, "Software", "gtsim plot").unwrap();
        assert_eq!(png_text(&png, "Software").as_deref(), Some("gtsim plot"));
        assert_eq!(png_text(&png, "Author"), None);
        // The image is the same image: the chunks but the text are unchanged, in order.
        let tagged = std::fs::read(&png).unwrap();
        let (a, b) = (chunks(&plain).unwrap(), chunks(&tagged).unwrap());
        assert_eq!(b.len(), a.len() + 1);
        assert_eq!(b[1].0, *b"tEXt");
        assert_eq!(a[0], b[0]);
        assert_eq!(a[1..], b[2..]);
        // A file that is not a PNG is neither read nor tagged.
        let text = dir.join("t.png");
        std::fs::write(&text, "not a png").unwrap();
        assert_eq!(png_text(&text, "Software"), None);
        assert!(tag_png(&text, "Software", "gtsim plot").is_err());
        assert_eq!(std::fs::read(&text).unwrap(), b"not a png");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
