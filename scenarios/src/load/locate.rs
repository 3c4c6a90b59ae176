//! Where a field is written in the scenario text: a field path (`sweep.ordering[2]`) turned into
//! a line and a column, for errors that point into the file.

use super::ScenarioError;

/// `error` as a warning's text: `FILE:LINE:COL: …` at its place, or `FILE: …` without one.
pub(super) fn warning_text(file: &str, error: ScenarioError) -> String {
    match error {
        ScenarioError::File(message) => format!("{file}: {message}"),
        e => e.to_string(),
    }
}

/// The scenario text and its file's name, as given: what an error needs to point into it.
pub(super) struct Source<'a> {
    /// The scenario text (without a byte-order mark).
    pub src: &'a str,
    /// The scenario file's path, as given.
    pub file: &'a str,
    /// Takes an error's place in `src` (the text the loader reads, with a machine resolved and
    /// fields set) to its place in the file, as the loader does for every error it returns: an
    /// error about a field set or varied to the value given, whose place is its own.
    pub place: &'a dyn Fn(ScenarioError) -> ScenarioError,
}

impl Source<'_> {
    /// An error at the field reached by `keys` (see [`locate`]), its message prefixed with the
    /// field's path (`sweep.fanout: ...`).
    pub fn at(&self, keys: &[&str], message: String) -> ScenarioError {
        let (line, col) = locate(self.src, keys);
        ScenarioError::At {
            file: self.file.to_string(),
            line,
            col,
            message: format!("{}: {message}", keys.join(".")),
        }
    }

    /// A warning about the field reached by `keys`, at its place in the file
    /// (`FILE:LINE:COL: PATH: ...`, as [`Self::at`]); naming only the file (`FILE: PATH: ...`)
    /// when the field's value (or a field's holding it) was given with `--set`, which has no
    /// place there, or is not written (its default); at the value in the vary section when the
    /// combination loaded gives it, as an error about the field is (not at the file's own
    /// value, which the value given replaced).
    pub fn warning_at(&self, keys: &[&str], message: String) -> String {
        self.warning(keys, self.at(keys, message))
    }

    /// A warning about item `index` of the list at `keys`, at the item's place in the file
    /// (`FILE:LINE:COL: PATH[INDEX]: ...`, as [`Self::at_item`]); without a place as
    /// [`Self::warning_at`]'s.
    pub fn warning_at_item(&self, keys: &[&str], index: usize, message: String) -> String {
        self.warning(keys, self.at_item(keys, index, message))
    }

    /// `error` (at the field reached by `keys`, or in it) as a warning's text: at its place in
    /// the file, taken there by `place` (at the value given, for a field set or varied), or
    /// naming only the file when the field is not written or its value is one `--set` gives.
    fn warning(&self, keys: &[&str], error: ScenarioError) -> String {
        let error = if written(self.src, keys) {
            (self.place)(error)
        } else {
            super::unplaced(error)
        };
        warning_text(self.file, error)
    }

    /// An error at item `index` of the list at `keys` (see [`locate_item`]), its message
    /// prefixed with the item's path (`sweep.positions[2]: ...`).
    pub fn at_item(&self, keys: &[&str], index: usize, message: String) -> ScenarioError {
        let (line, col) = locate_item(self.src, keys, index);
        ScenarioError::At {
            file: self.file.to_string(),
            line,
            col,
            message: format!("{}[{index}]: {message}", keys.join(".")),
        }
    }
}

/// The path of the value being read when deserialization failed, as the scenario spells it
/// (`workload.width`, `sweep.ordering[2]`); enum variant names are left out.
pub(super) fn field_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    out
}

/// Line and column of item `index` of the list at `keys` (the list's own position if the item
/// cannot be found).
pub(super) fn locate_item(src: &str, keys: &[&str], index: usize) -> (usize, usize) {
    let start = locate_offset(src, keys);
    let (line, col) = line_col(src, start);
    let Some(open) = src[start..].find('[').map(|i| start + i) else {
        return (line, col);
    };
    item_at(src, open, index).map_or((line, col), |at| line_col(src, at))
}

/// Line and column of value `index` of the list varied as `path` in the vary section
/// (`vary: {"workload.width": [4, 0]}`), if it is written there.
pub(super) fn locate_vary_value(src: &str, path: &str, index: usize) -> Option<(usize, usize)> {
    let key = vary_key(src, path)?;
    let open = key + src[key..].find('[')?;
    item_at(src, open, index).map(|at| line_col(src, at))
}

/// Line and column of the key of the field varied as `path` in the vary section
/// (`"workload.width"` in `vary: {"workload.width": [4, 5]}`), if it is written there.
pub(super) fn locate_vary_key(src: &str, path: &str) -> Option<(usize, usize)> {
    vary_key(src, path).map(|at| line_col(src, at))
}

/// The byte offset of the key of the field varied as `path` in the vary section.
fn vary_key(src: &str, path: &str) -> Option<usize> {
    let vary = locate_offset(src, &["vary"]);
    if !src[vary..].starts_with("vary") {
        return None;
    }
    Some(vary + src[vary..].find(&format!("\"{path}\""))?)
}

/// Byte offset of item `index` of the list whose `[` is at `open` (comments skipped).
fn item_at(src: &str, open: usize, index: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let (mut depth, mut item, mut i) = (0usize, 0usize, open + 1);
    let mut item_start = None;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            // A string is one value, commas inside it too ("Range(start: 1, count: 2)").
            b'"' => {
                if item == index {
                    return Some(i);
                }
                i = past_string(bytes, i);
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' if depth == 0 => break,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                item += 1;
                i += 1;
                continue;
            }
            _ => {}
        }
        if item == index && item_start.is_none() && !bytes[i].is_ascii_whitespace() {
            item_start = Some(i);
            break;
        }
        i += 1;
    }
    item_start
}

/// The offset just past the string whose opening quote is at `open` (escapes skipped).
pub(super) fn past_string(bytes: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    while i < bytes.len() && bytes[i] != b'"' {
        if bytes[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}

/// Line and column (1-based) of the field reached by following `keys` (each searched after the
/// previous one), skipping comments and strings; the start of the file if not found.
pub(super) fn locate(src: &str, keys: &[&str]) -> (usize, usize) {
    line_col(src, locate_offset(src, keys))
}

/// Byte offset of the field reached by following `keys` (see [`locate`]); 0 if not found.
fn locate_offset(src: &str, keys: &[&str]) -> usize {
    find_field(src, keys).0.unwrap_or(0)
}

/// Whether the field reached by following `keys` is written in `src` (each key found after the
/// previous one, as [`locate`] finds them).
pub(super) fn written(src: &str, keys: &[&str]) -> bool {
    find_field(src, keys).1 == keys.len()
}

/// The byte offset of the last of `keys` found following them (see [`locate`]), and how many
/// were found.
fn find_field(src: &str, keys: &[&str]) -> (Option<usize>, usize) {
    let bytes = src.as_bytes();
    let mut pos = 0usize;
    let mut found = None;
    let mut count = 0;
    'keys: for key in keys {
        let mut i = pos;
        while i < bytes.len() {
            match bytes[i] {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                        i += 1;
                    }
                    i += 2;
                }
                b'"' => i = past_string(bytes, i),
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    let mut j = i;
                    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if &src[start..i] == *key && bytes.get(j) == Some(&b':') {
                        pos = i;
                        found = Some(start);
                        count += 1;
                        continue 'keys;
                    }
                }
                _ => i += 1,
            }
        }
        break;
    }
    (found, count)
}

/// Line and column (1-based, the column in characters) of byte offset `at`.
pub(super) fn line_col(src: &str, at: usize) -> (usize, usize) {
    let line = src[..at].matches('\n').count() + 1;
    let col = src[src[..at].rfind('\n').map_or(0, |n| n + 1)..at]
        .chars()
        .count()
        + 1;
    (line, col)
}

/// The byte offset of `line` and `col` (1-based, the column in characters; past the end of
/// its line: the line's end), or None past the last line.
pub(super) fn offset_of(src: &str, line: usize, col: usize) -> Option<usize> {
    let start = if line <= 1 {
        0
    } else {
        src.match_indices('\n').nth(line - 2)?.0 + 1
    };
    let text = &src[start..];
    let end = text.find('\n').unwrap_or(text.len());
    let within = text[..end]
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(end, |(i, _)| i);
    Some(start + within)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_varied_value_is_found_in_its_list_strings_and_comments_skipped() {
        let src = "(\n  // vary: {\"a.b\": [9]}\n  vary: {\n    \"x.y\": [1, 2],\n    \"a.b\": [\"P(c: 1, d: 2)\", /* , */ \"Q\", 3],\n  },\n)";
        assert_eq!(locate_vary_value(src, "x.y", 1), Some((4, 16)));
        assert_eq!(locate_vary_value(src, "a.b", 0), Some((5, 13)));
        assert_eq!(locate_vary_value(src, "a.b", 1), Some((5, 38)));
        assert_eq!(locate_vary_value(src, "a.b", 2), Some((5, 43)));
        assert_eq!(locate_vary_value(src, "a.b", 3), None);
        assert_eq!(locate_vary_value("(name: \"vary\")", "a.b", 0), None);
        assert_eq!(locate_vary_key(src, "x.y"), Some((4, 5)));
        assert_eq!(locate_vary_key(src, "a.b"), Some((5, 5)));
        assert_eq!(locate_vary_key(src, "a"), None);
    }

    #[test]
    fn locate_skips_comments_and_strings() {
        let src = "// sweep: fanout: no\n(name: \"fanout:\",\n sweep: (\n   fanout: [1])";
        assert_eq!(locate(src, &["sweep", "fanout"]), (4, 4));
        assert_eq!(locate(src, &["nothing"]), (1, 1));
        assert!(written(src, &["sweep", "fanout"]));
        assert!(!written(src, &["sweep", "ptree"]));
        assert!(!written(src, &["fanout", "sweep"]));
    }
}
