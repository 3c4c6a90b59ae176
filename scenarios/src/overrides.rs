//! Setting a field of a scenario by its path (`hardware.link.rate`), in the scenario's text:
//! `gtsim run FILE --set PATH=VALUE` and the scenario's `vary` section both work this way, so
//! the result is an ordinary scenario that the loader checks as any other (an unknown field or
//! an impossible value is an error at its line and column).
//!
//! A path names fields from the top: struct fields and the fields of an enum variant written
//! with named fields (`hardware.link.rate` reaches `rate` in `link: Sci(rate: 960, …)`). The
//! value is RON text as it would be written in place (`480`, `Ms(4)`, `[1, 4]`,
//! `(hosts: Interrupt)`). A field the file leaves out is added to the struct that holds it
//! (and a left-out struct on the way with it, `outputs.timeline`, `hardware.reads.boards`).

use std::fmt;

/// Why a field could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct SetError {
    /// The path as given.
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

/// One field to set: its path and the RON text of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Field names from the top (`["hardware", "link", "rate"]`).
    pub path: Vec<String>,
    /// RON text of the value.
    pub value: String,
}

impl Assignment {
    /// Parses `PATH=VALUE` (`hardware.costs.s=Ms(4)`).
    pub fn parse(text: &str) -> Result<Self, SetError> {
        let (path, value) = text.split_once('=').ok_or_else(|| SetError {
            path: text.into(),
            reason: "expected PATH=VALUE, e.g. hardware.costs.s=Ms(4)".into(),
        })?;
        Assignment::new(path.trim(), value.trim())
    }

    /// The assignment of `value` (RON text) to the field at `path` (dotted).
    pub fn new(path: &str, value: &str) -> Result<Self, SetError> {
        let keys: Vec<String> = path.split('.').map(str::to_string).collect();
        let bad = keys.iter().any(|k| {
            k.is_empty()
                || !k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if bad {
            return Err(SetError {
                path: path.into(),
                reason: "a field path is field names joined by '.', e.g. hardware.link.rate".into(),
            });
        }
        if value.is_empty() {
            return Err(SetError {
                path: path.into(),
                reason: "no value given (write it as in the scenario file, e.g. 480 or Ms(4))"
                    .into(),
            });
        }
        if keys[0] == "vary" {
            return Err(SetError {
                path: path.into(),
                reason: "vary cannot be set or varied".into(),
            });
        }
        // A machine is named by a string: its name alone is taken as one (`machine=parabelle-1985`
        // for `machine="parabelle-1985"`); a name holding a quote or backslash must be quoted.
        let value =
            if keys == ["machine"] && !value.starts_with('"') && !value.contains(['"', '\\']) {
                format!("\"{value}\"")
            } else {
                value.to_string()
            };
        // One value, as the field would hold it: what follows it (`3, width: 5`, `3 // …`, an
        // unbalanced `)`) would change the text around the field instead.
        let s = Scanner {
            b: value.as_bytes(),
        };
        if let Some(open) = s.unclosed_string() {
            return Err(SetError {
                path: path.into(),
                reason: format!(
                    "the string that starts at `{}` is never closed: end it with a `\"`",
                    &value[open..]
                ),
            });
        }
        // The value ends at a `,` or bracket of its own depth, or where a second value follows
        // a number or a bracketed value after a space (`8 9`, `[1] [2]`). After a bare word the
        // parser's error says more (`hello world` for a string: quote it).
        let start = s.skip(0);
        let first_is_word = value[start..].starts_with(|c: char| c.is_alphabetic() || c == '_');
        let end = if first_is_word {
            s.value_end(start)
        } else {
            s.value_end(start).min(s.first_value_end(start))
        };
        let rest = value[end..].trim();
        if !rest.is_empty() {
            return Err(SetError {
                path: path.into(),
                reason: format!(
                    "the value must be one value as the file would hold it (e.g. 480, Ms(4), [1, 2] or (hosts: Interrupt)), but {rest:?} follows {:?}",
                    value[..end].trim()
                ),
            });
        }
        if let Some(open) = s.unclosed_bracket() {
            let close = match value.as_bytes()[open] {
                b'(' => ')',
                b'[' => ']',
                _ => '}',
            };
            return Err(SetError {
                path: path.into(),
                reason: format!(
                    "the bracket `{}` that starts `{}` is never closed: end it with a `{close}`",
                    &value[open..=open],
                    &value[open..]
                ),
            });
        }
        Ok(Assignment { path: keys, value })
    }

    /// The dotted path.
    pub fn dotted(&self) -> String {
        self.path.join(".")
    }

    /// The value as a results cell shows it: a plain RON string (a machine's name) without its
    /// quotes, as in the combination's folder name; any other value as written.
    pub fn cell(&self) -> &str {
        match self
            .value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
        {
            Some(inner) if !inner.contains(['"', '\\']) => inner,
            _ => &self.value,
        }
    }
}

impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.dotted(), self.value)
    }
}

/// Whether two field paths are the same or one lies inside the other (`hardware.link` and
/// `hardware.link.rate`): set both, and the one set last overwrites the other.
pub fn overlap(a: &[String], b: &[String]) -> bool {
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

/// The first assignment of `sets` whose path overlaps an earlier one's: its index, and the
/// earlier one.
pub fn first_overlap(sets: &[Assignment]) -> Option<(usize, &Assignment)> {
    sets.iter().enumerate().find_map(|(i, a)| {
        sets[..i]
            .iter()
            .find(|b| overlap(&a.path, &b.path))
            .map(|b| (i, b))
    })
}

/// Whether `src` has a string that is never closed (its `"` without the closing one): set a
/// field in such a text, and the string that runs to its end is what is replaced.
pub(crate) fn has_unclosed_string(src: &str) -> bool {
    Scanner { b: src.as_bytes() }.unclosed_string().is_some()
}

/// The first byte of `src` at or after `at` that is neither whitespace nor in a comment
/// (`// …`, `/* … */`); `src.len()` when none is.
pub(crate) fn skip_blank(src: &str, at: usize) -> usize {
    Scanner { b: src.as_bytes() }.skip(at)
}

/// Assignments in words: `PATH=VALUE, …` (empty for none).
pub fn describe(assignments: &[Assignment]) -> String {
    assignments
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `src` with every assignment made, in order.
pub fn apply(src: &str, assignments: &[Assignment]) -> Result<String, SetError> {
    Ok(apply_traced(src, assignments)?.0)
}

/// A change to a text: at byte `at`, `old` bytes replaced by `new` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) at: usize,
    pub(crate) old: usize,
    pub(crate) new: usize,
}

/// [`apply`], with the change each assignment made (in order), so that a place in the result
/// can be taken back to the same place in `src` ([`place_before`]).
pub(crate) fn apply_traced(
    src: &str,
    assignments: &[Assignment],
) -> Result<(String, Vec<Edit>), SetError> {
    let mut text = src.to_string();
    let mut edits = Vec::with_capacity(assignments.len());
    for a in assignments {
        let (next, edit) = set(&text, a)?;
        text = next;
        edits.push(edit);
    }
    Ok((text, edits))
}

/// The byte offset in the text before `edits` (made in order) of the offset `at` in the text
/// after them: text after an edit moves back by what the edit added. Err(k) when `at` is in the
/// text that edit k wrote, which the text before does not have.
pub(crate) fn place_before(edits: &[Edit], mut at: usize) -> Result<usize, usize> {
    for (k, e) in edits.iter().enumerate().rev() {
        if at >= e.at + e.new {
            at = at - e.new + e.old;
        } else if at >= e.at {
            return Err(k);
        }
    }
    Ok(at)
}

/// `src` with the field at `a.path` set to `a.value`, and the change made.
fn set(src: &str, a: &Assignment) -> Result<(String, Edit), SetError> {
    let err = |reason: String| SetError {
        path: a.dotted(),
        reason,
    };
    let s = Scanner { b: src.as_bytes() };
    // The whole scenario: `( … )`, perhaps after a struct name.
    let mut open = s
        .body_start(s.skip(0))
        .ok_or_else(|| err("the scenario is not a `( … )` struct".into()))?;
    for (depth, key) in a.path.iter().enumerate() {
        let last = depth + 1 == a.path.len();
        match s.field(open, key) {
            Some((value_start, value_end)) if last => {
                let edit = Edit {
                    at: value_start,
                    old: value_end - value_start,
                    new: a.value.len(),
                };
                return Ok((
                    format!("{}{}{}", &src[..value_start], a.value, &src[value_end..]),
                    edit,
                ));
            }
            Some((value_start, _)) => {
                open = s.body_start(value_start).ok_or_else(|| {
                    err(format!(
                        "{} holds no fields to set (it is not a `( … )` value)",
                        a.path[..=depth].join(".")
                    ))
                })?;
            }
            // Inside a value that has no named fields (`Us(25)`, `List([1, 2])`): nothing to
            // add a field to.
            None if depth > 0 && !s.has_named_fields(open) => {
                return Err(err(format!(
                    "{} holds no fields to set (its value, `{}`, has none)",
                    a.path[..depth].join("."),
                    s.value_text(open)
                )));
            }
            None => {
                // Left out: add it (and the structs on the way) first in the struct, just after
                // its parenthesis, where no comment can hide it (after the last field, a
                // trailing `// …` would swallow it).
                let mut value = a.value.clone();
                for k in a.path[depth + 1..].iter().rev() {
                    value = format!("({k}: {value})");
                }
                let gap = if src[open..].starts_with(|c: char| c.is_whitespace()) {
                    ""
                } else {
                    " "
                };
                let added = format!(" {key}: {value},{gap}");
                let edit = Edit {
                    at: open,
                    old: 0,
                    new: added.len(),
                };
                return Ok((format!("{}{added}{}", &src[..open], &src[open..]), edit));
            }
        }
    }
    Err(err("empty path".into()))
}

/// The field at `path` in `src`: (start of its name, start of its value, end of its value).
pub(crate) fn find(src: &str, path: &[&str]) -> Option<(usize, usize, usize)> {
    let s = Scanner { b: src.as_bytes() };
    let mut open = s.body_start(s.skip(0))?;
    for (depth, key) in path.iter().enumerate() {
        let (name, start, end) = s.field_with_name(open, key)?;
        if depth + 1 == path.len() {
            return Some((name, start, end));
        }
        open = s.body_start(start)?;
    }
    None
}

/// The error for field `name` given twice, said at the second one: in a section (`in_section`)
/// or in the file's outer parentheses. The one wording of this scan and the loader's.
pub(crate) fn given_twice(name: &str, in_section: bool) -> String {
    if in_section {
        format!("`{name}` is given twice in this section: give each field once")
    } else {
        format!("`{name}` is given twice: give each field once")
    }
}

/// The fields of the struct at `path` in `src` (the whole text for an empty path): each name
/// with the span of its value, none if it is not a struct whose fields [`fields_checked`]
/// reads.
#[cfg(test)]
pub(crate) fn fields(src: &str, path: &[&str]) -> Spans {
    let (start, end) = match path {
        [] => (Scanner { b: src.as_bytes() }.skip(0), src.len()),
        _ => match find(src, path) {
            Some((_, start, end)) => (start, end),
            None => return Vec::new(),
        },
    };
    checked_body(src, start, end).unwrap_or_default()
}

/// Fields with the spans of their values: (name, start, end).
pub(crate) type Spans = Vec<(String, usize, usize)>;

/// The fields of the struct at `path` in `src`, each name with the span of its value, refusing
/// what a lenient scan would pass over: a value that is not a section in parentheses, something
/// that is not a field (`name: value`, `r#name: value`), a field given twice, text after the closing
/// parenthesis. The error is the byte offset to point at and what is wrong there. None if `src`
/// has no field at `path`.
pub(crate) fn fields_checked(src: &str, path: &[&str]) -> Option<Result<Spans, (usize, String)>> {
    let (_, start, end) = find(src, path)?;
    Some(checked_body(src, start, end))
}

fn checked_body(src: &str, start: usize, end: usize) -> Result<Spans, (usize, String)> {
    let s = Scanner { b: src.as_bytes() };
    let b = src.as_bytes();
    // The token at `i`: a word (letters, digits, `_`, `-`, `#`, a quoted name) or one sign.
    let found = |i: usize| -> String {
        let rest = src.get(i..).unwrap_or("");
        let Some(first) = rest.chars().next() else {
            return "the end of the text".into();
        };
        let word: String = if first.is_alphanumeric() || "_-#\"".contains(first) {
            rest.chars()
                .take_while(|c| !c.is_whitespace() && !",:()[]{}".contains(*c))
                .take(24)
                .collect()
        } else {
            first.to_string()
        };
        format!("`{word}`")
    };
    let open = s.body_start(start).ok_or_else(|| {
        (
            start,
            format!(
                "expected a section in parentheses, `( name: value, … )`, found {}",
                found(start)
            ),
        )
    })?;
    let mut out: Vec<(String, usize, usize)> = Vec::new();
    let mut i = s.skip(open);
    loop {
        match b.get(i) {
            None => return Err((open - 1, "this parenthesis is never closed".into())),
            Some(b')') => break,
            Some(_) => {}
        }
        let name_start = i;
        if b[i..].starts_with(b"r#") {
            i += 2;
        }
        let word = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        let colon = s.skip(i);
        if i == word || b.get(colon) != Some(&b':') {
            return Err((
                name_start,
                format!(
                    "expected a field (`name: value`) or the section's closing `)`, found {}",
                    found(name_start)
                ),
            ));
        }
        let name = &src[word..i];
        if out.iter().any(|(n, _, _)| n == name) {
            return Err((name_start, given_twice(name, true)));
        }
        let value = s.skip(colon + 1);
        let value_end = s.value_end(value);
        if value_end == value {
            return Err((value, format!("`{name}` has no value")));
        }
        out.push((name.to_string(), value, value_end));
        i = s.skip(value_end);
        match b.get(i) {
            Some(b',') => i = s.skip(i + 1),
            Some(b')') => {}
            _ => {
                return Err((
                    i.min(b.len().saturating_sub(1)),
                    format!(
                        "expected `,` or `)` after `{name}`'s value, found {}",
                        found(i)
                    ),
                ))
            }
        }
    }
    let after = s.skip(i + 1);
    if after < end {
        return Err((
            after,
            format!(
                "expected nothing after the section's closing `)`, found {}",
                found(after)
            ),
        ));
    }
    Ok(out)
}

/// A cursor over RON text that skips comments and strings.
struct Scanner<'a> {
    b: &'a [u8],
}

impl Scanner<'_> {
    /// The first byte at or after `i` that is not whitespace or a comment.
    fn skip(&self, mut i: usize) -> usize {
        let b = self.b;
        while i < b.len() {
            if b[i].is_ascii_whitespace() {
                i += 1;
            } else if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i = (i + 2).min(b.len());
            } else {
                break;
            }
        }
        i
    }

    /// Just inside the parenthesis of the value at `i` (`( …` or `Name( …`), if it is one.
    fn body_start(&self, i: usize) -> Option<usize> {
        let b = self.b;
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        let j = self.skip(j);
        (b.get(j) == Some(&b'(')).then_some(j + 1)
    }

    /// The significant pieces of the text from `i` on, in order (see [`Token`]).
    fn tokens(&self, i: usize) -> Tokens<'_> {
        Tokens {
            scanner: self,
            i,
            depth: 0,
        }
    }

    /// The end of the value starting at `i`: the first `,` or closing bracket at its own depth.
    fn value_end(&self, i: usize) -> usize {
        let mut end = i;
        for t in self.tokens(i) {
            match t.byte {
                b')' | b']' | b'}' | b',' if t.depth == 0 => return end,
                _ => end = t.end,
            }
        }
        end
    }

    /// Just past the closing quote of the string whose opening quote is at `open` (escapes
    /// skipped); None if it is never closed.
    fn string_end(&self, open: usize) -> Option<usize> {
        let b = self.b;
        let mut i = open + 1;
        while i < b.len() {
            match b[i] {
                b'"' => return Some(i + 1),
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        None
    }

    /// The opening quote of the first string never closed, if one is (comments skipped).
    fn unclosed_string(&self) -> Option<usize> {
        self.tokens(0).find(|t| t.unclosed).map(|t| t.at)
    }

    /// Where the value starting at `i` ends if a second one follows it at its own depth after
    /// a space (`8 9`, `[1, 2] [3]`, `Ms(4) x`): the end of the first; the text's end otherwise.
    /// A `(` after a space is not a second value (`Ms (4)` is one).
    fn first_value_end(&self, i: usize) -> usize {
        let mut last_end = None;
        for t in self.tokens(i) {
            if let Some(end) = last_end {
                if t.blank_before && t.depth == 0 && t.byte != b'(' {
                    return end;
                }
            }
            last_end = Some(t.end);
        }
        self.b.len()
    }

    /// The last opening bracket (`(`, `[`, `{`) never closed, if one is (strings and comments
    /// skipped; a closing bracket closes the last one open, whatever its kind). None if a
    /// string is never closed.
    fn unclosed_bracket(&self) -> Option<usize> {
        let mut open = Vec::new();
        for t in self.tokens(0) {
            match t.byte {
                _ if t.unclosed => return None,
                b'(' | b'[' | b'{' => open.push(t.at),
                b')' | b']' | b'}' => {
                    open.pop();
                }
                _ => {}
            }
        }
        open.pop()
    }

    /// Whether the body starting at `open` (just past its `(`) holds named fields, or none:
    /// `a: 1, …` or `)`, not `25)` or `[1, 2])`.
    fn has_named_fields(&self, open: usize) -> bool {
        let b = self.b;
        let mut i = self.skip(open);
        if b.get(i) == Some(&b')') {
            return true;
        }
        let name = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        i > name && b.get(self.skip(i)) == Some(&b':')
    }

    /// The text of the value whose body starts at `open` (just past its `(`), from its name
    /// (if any) to its closing bracket, as written.
    fn value_text(&self, open: usize) -> String {
        let b = self.b;
        let mut start = open - 1;
        while start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
            start -= 1;
        }
        let end = self.value_end(start);
        String::from_utf8_lossy(&b[start..end]).trim().to_string()
    }

    /// The value of field `key` in the struct body starting at `open`: (start, end) of its text.
    fn field(&self, open: usize, key: &str) -> Option<(usize, usize)> {
        self.field_with_name(open, key).map(|(_, s, e)| (s, e))
    }

    /// Field `key` in the struct body starting at `open`: (start of its name, start and end of
    /// its value).
    fn field_with_name(&self, open: usize, key: &str) -> Option<(usize, usize, usize)> {
        let b = self.b;
        let mut i = self.skip(open);
        while i < b.len() && b[i] != b')' {
            let name_start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let name = &b[name_start..i];
            let colon = self.skip(i);
            if name.is_empty() || b.get(colon) != Some(&b':') {
                // Not a field (a tuple or a list): no named fields here.
                return None;
            }
            let start = self.skip(colon + 1);
            let end = self.value_end(start);
            if name == key.as_bytes() {
                return Some((name_start, start, end));
            }
            i = self.skip(end);
            if b.get(i) == Some(&b',') {
                i = self.skip(i + 1);
            }
        }
        None
    }
}

/// A significant piece of RON text: a byte outside whitespace, comments and strings, or a whole
/// string.
#[derive(Clone, Copy)]
struct Token {
    /// Where it starts (a string's opening quote).
    at: usize,
    /// Just past it (past a string's closing quote; the text's end for a string never closed).
    end: usize,
    /// Its first byte (`"` for a string).
    byte: u8,
    /// How many brackets are open around it: for an opening bracket, outside it; for a closing
    /// one, inside it (0 for one that closes nothing).
    depth: usize,
    /// Whitespace or a comment comes just before it.
    blank_before: bool,
    /// A string never closed.
    unclosed: bool,
}

/// The walk of [`Scanner::tokens`]: the one place that skips comments and strings and counts
/// brackets for the questions asked of a value.
struct Tokens<'a> {
    scanner: &'a Scanner<'a>,
    i: usize,
    /// Brackets open before `i`.
    depth: usize,
}

impl Iterator for Tokens<'_> {
    type Item = Token;
    fn next(&mut self) -> Option<Token> {
        let at = self.scanner.skip(self.i);
        let byte = *self.scanner.b.get(at)?;
        let blank_before = at != self.i;
        let (end, unclosed) = match byte {
            b'"' => match self.scanner.string_end(at) {
                Some(end) => (end, false),
                None => (self.scanner.b.len(), true),
            },
            _ => (at + 1, false),
        };
        let depth = self.depth;
        match byte {
            b'(' | b'[' | b'{' => self.depth += 1,
            b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.i = end;
        Some(Token {
            at,
            end,
            byte,
            depth,
            blank_before,
            unclosed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set1(src: &str, a: &str) -> Result<String, SetError> {
        apply(src, &[Assignment::parse(a).unwrap()])
    }

    const SRC: &str = "// a comment: rate: 1\n(\n  name: \"x(\",\n  hardware: (\n    costs: (k: Ms(8.0), e: Ms(1)),\n    link: Sci(rate: 960, rts_cts: true), // rate: 2\n  ),\n  sweep: (fanout: [1, 2],),\n)\n";

    #[test]
    fn a_cell_shows_a_plain_string_without_quotes_and_anything_else_as_written() {
        let cell = |t: &str| Assignment::parse(t).unwrap().cell().to_string();
        assert_eq!(cell("machine=lines-960"), "lines-960");
        assert_eq!(cell("name=\"a b\""), "a b");
        assert_eq!(cell("name=\"a\\\"b\""), "\"a\\\"b\"");
        assert_eq!(cell("hardware.costs.e=Us(5)"), "Us(5)");
        assert_eq!(cell("sweep.fanout=[4]"), "[4]");
    }

    #[test]
    fn sets_fields_in_structs_and_variants_keeping_the_rest() {
        let out = set1(SRC, "hardware.link.rate=480").unwrap();
        assert_eq!(out, SRC.replace("rate: 960", "rate: 480"));
        let out = set1(SRC, "hardware.costs.e=Us(5)").unwrap();
        assert_eq!(out, SRC.replace("e: Ms(1)", "e: Us(5)"));
        let out = set1(SRC, "sweep.fanout=[4]").unwrap();
        assert_eq!(out, SRC.replace("[1, 2]", "[4]"));
        let out = set1(SRC, "name=\"y\"").unwrap();
        assert_eq!(out, SRC.replace("\"x(\"", "\"y\""));
    }

    #[test]
    fn adds_left_out_fields_and_structs() {
        let out = set1(SRC, "hardware.costs.s=Ms(2)").unwrap();
        assert!(
            out.contains("costs: ( s: Ms(2), k: Ms(8.0), e: Ms(1))"),
            "{out}"
        );
        let out = set1(SRC, "hardware.reads.boards=Interrupt").unwrap();
        assert!(
            out.contains("hardware: ( reads: (boards: Interrupt),\n    costs:"),
            "{out}"
        );
        let out = set1(SRC, "sweep.seeds=Range(start: 1, count: 2)").unwrap();
        assert!(
            out.contains("sweep: ( seeds: Range(start: 1, count: 2), fanout: [1, 2],)"),
            "{out}"
        );
        // A comment after the struct's last field does not swallow the field added.
        let src = "(\n  hardware: (\n    link: Serial(rate: 960) // the link\n  ),\n)\n";
        let out = set1(src, "hardware.length=0").unwrap();
        assert_eq!(
            out,
            "(\n  hardware: ( length: 0,\n    link: Serial(rate: 960) // the link\n  ),\n)\n"
        );
    }

    #[test]
    fn a_place_after_the_values_set_goes_back_to_the_same_text_in_the_file() {
        let sets = [
            Assignment::parse("hardware.costs=(\n k: Ms(1),\n)").unwrap(),
            Assignment::parse("hardware.reads.boards=Interrupt").unwrap(),
            Assignment::parse("name=\"a\"").unwrap(),
        ];
        let (out, edits) = apply_traced(SRC, &sets).unwrap();
        for text in ["link: Sci", "  sweep: (", "[1, 2]", "// a comment", "\n)\n"] {
            let back = place_before(&edits, out.find(text).unwrap());
            assert_eq!(back, Ok(SRC.find(text).unwrap()), "{text:?} in {out}");
        }
        // Inside a value set, or a field added: which assignment wrote it.
        assert_eq!(place_before(&edits, out.find("k: Ms(1)").unwrap()), Err(0));
        assert_eq!(place_before(&edits, out.find("(\n k:").unwrap()), Err(0));
        assert_eq!(place_before(&edits, out.find("reads").unwrap()), Err(1));
        assert_eq!(place_before(&edits, out.find("\"a\"").unwrap()), Err(2));
    }

    /// Every field of every shipped scenario and machine (structs three deep), set, and a new
    /// field added to every struct: the text then holds the value at its path, and every other
    /// field as it was (comments and strings around them notwithstanding).
    #[test]
    fn setting_any_field_of_the_shipped_files_changes_that_field_only() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for sub in ["", "machines"] {
            for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ron") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() >= 20, "{files:?}");
        let value_at = |src: &str, path: &[String]| {
            let keys: Vec<&str> = path.iter().map(String::as_str).collect();
            find(src, &keys).map(|(_, start, end)| src[start..end].to_string())
        };
        let texts = files.iter().flat_map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            // The same with a comment closing every line (after a struct's last field too).
            let commented: String = text
                .lines()
                .map(|l| format!("{l} // ), x: \"(\n"))
                .collect();
            [
                (file.display().to_string(), text),
                (format!("{} commented", file.display()), commented),
            ]
        });
        for (file, src) in texts {
            // Every field path, three structs deep, with its value.
            let mut paths: Vec<Vec<String>> = Vec::new();
            let mut structs: Vec<Vec<String>> = vec![Vec::new()];
            let mut level = vec![Vec::new()];
            for _ in 0..3 {
                let mut next = Vec::new();
                for parent in &level {
                    let keys: Vec<&str> = parent.iter().map(String::as_str).collect();
                    for (name, _, _) in fields(&src, &keys) {
                        let mut p: Vec<String> = parent.clone();
                        p.push(name);
                        paths.push(p.clone());
                        if !fields(&src, &p.iter().map(String::as_str).collect::<Vec<_>>())
                            .is_empty()
                        {
                            structs.push(p.clone());
                        }
                        next.push(p);
                    }
                }
                level = next;
            }
            assert!(paths.len() >= 3, "{file}: {paths:?}");
            let before: Vec<Option<String>> = paths.iter().map(|p| value_at(&src, p)).collect();
            let added = structs.iter().map(|s| {
                let mut p = s.clone();
                p.push("zz_added".into());
                p
            });
            for target in paths.iter().cloned().chain(added) {
                for value in ["123", "(\n  a: 1, // one\n  b: \"x)\",\n)"] {
                    let a = Assignment {
                        path: target.clone(),
                        value: value.into(),
                    };
                    let at = format!("{file} {}={value:?}", a.dotted());
                    let out = apply(&src, &[a]).unwrap_or_else(|e| panic!("{at}: {e}"));
                    assert_eq!(value_at(&out, &target).as_deref(), Some(value), "{at}");
                    for (p, was) in paths.iter().zip(&before) {
                        if !overlap(p, &target) {
                            assert_eq!(&value_at(&out, p), was, "{at}: {}", p.join("."));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_paths_and_values_are_errors() {
        assert!(Assignment::parse("hardware.link.rate").is_err());
        assert!(Assignment::parse("hardware..rate=1").is_err());
        assert!(Assignment::parse("hardware.rate=").is_err());
        assert!(Assignment::parse("vary.x=1").is_err());
        // One value only: nothing after it that would reach the text around the field.
        for text in [
            "w=3, width: 5",
            "w=3) , (x: 1",
            "w=3 // a comment",
            "w=[1, 2]]",
            "w=1 /* c */",
        ] {
            let e = Assignment::parse(text).unwrap_err();
            assert!(e.reason.contains("one value"), "{text}: {e}");
        }
        for text in [
            "w=(a: 1, // one\n b: \"),\")",
            "w=[1, 2] ",
            "w=Ms(4)",
            "w=\"a, b\"",
        ] {
            assert!(Assignment::parse(text).is_ok(), "{text}");
        }
        // A string never closed, in the value or in the text: an error, not a slice past the
        // end of the text.
        for text in ["w=\"x", "w=a\"b", "w=(a: \"x)", "w=\"x\\\""] {
            let e = Assignment::parse(text).unwrap_err();
            assert!(e.reason.contains("never closed"), "{text}: {e}");
        }
        // Two values with only a space between them: one value, then another.
        for (text, first, rest) in [
            ("w=8 9", "8", "9"),
            ("w=8 junk", "8", "junk"),
            ("w=[1,2] [3]", "[1,2]", "[3]"),
        ] {
            let e = Assignment::parse(text).unwrap_err();
            assert!(
                e.reason
                    .contains(&format!("but {rest:?} follows {first:?}")),
                "{text}: {e}"
            );
        }
        for text in ["w=Ms (4)", "w=\"a b\"", "w=[1, 2]", "w=(a: 1,  b: Ms(2))"] {
            assert!(Assignment::parse(text).is_ok(), "{text}");
        }
        // A bracket never closed: said of the value, not left to the file's later fields.
        for (text, said) in [
            (
                "w=[1, 2",
                "the bracket `[` that starts `[1, 2` is never closed: end it with a `]`",
            ),
            (
                "w=TreeSplit(update: true",
                "the bracket `(` that starts `(update: true` is never closed: end it with a `)`",
            ),
            ("w=(a: [1, \"]\"), b: (c: 1)", "starts `(a: [1,"),
            ("w={\"a\": 1", "end it with a `}`"),
        ] {
            let e = Assignment::parse(text).unwrap_err();
            assert!(e.reason.contains(said), "{text}: {e}");
        }
        let open = "(\n  name: \"x,\n  w: 1,\n)\n";
        assert!(has_unclosed_string(open));
        assert!(!has_unclosed_string(SRC));
        for a in ["name=\"y\"", "w=2", "z=3"] {
            let out = set1(open, a).unwrap();
            assert!(out.len() <= open.len() + a.len() + 4, "{a}: {out}");
        }
        // Into a value without fields.
        let e = set1(SRC, "sweep.fanout.x=1").unwrap_err();
        assert!(e.reason.contains("sweep.fanout"), "{e}");
        // Into a variant whose parentheses hold a value, not fields.
        let src = "(\n  costs: (k: Us(25), e: Ns(11)),\n  seeds: List([1, 2]),\n)\n";
        let e = set1(src, "costs.k.x=5").unwrap_err();
        assert_eq!(
            e.reason,
            "costs.k holds no fields to set (its value, `Us(25)`, has none)"
        );
        let e = set1(src, "seeds.start=5").unwrap_err();
        assert!(e.reason.contains("`List([1, 2])`, has none"), "{e}");
        assert!(set1(src, "costs.q=Ns(3)").is_ok());
    }
}
