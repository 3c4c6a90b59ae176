//! Machines as files: `machine: "parabelle-1985"` (a machine shipped with gtsim) or
//! `machine: "my-machine.ron"` (a file beside the scenario) in place of, or under, a scenario's
//! `hardware` section. A machine file is a `hardware` section on its own; the scenario's
//! `hardware` fields, when it has some, replace the machine's fields of the same name, but for a
//! section in parentheses the machine gives too (`costs`, `reads`), whose fields are merged one
//! by one, as `--set hardware.costs.k=…` sets them. The
//! result is an ordinary scenario text (`--set` and `vary` then reach every hardware field).

use super::ScenarioError;
use crate::input::{decode_text, read_bounded, MAX_SCENARIO_BYTES};
use crate::overrides::{self, Edit};
use std::borrow::Cow;
use std::path::Path;

/// The machines shipped with gtsim: name, file text.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "parabelle-1985",
        include_str!("../../machines/parabelle-1985.ron"),
    ),
    (
        "campbell-ideal",
        include_str!("../../machines/campbell-ideal.ron"),
    ),
    ("lines-960", include_str!("../../machines/lines-960.ron")),
    (
        "lines-10mbit",
        include_str!("../../machines/lines-10mbit.ron"),
    ),
    (
        "ethernet-10mbit",
        include_str!("../../machines/ethernet-10mbit.ron"),
    ),
    (
        "hypercube-10mbit",
        include_str!("../../machines/hypercube-10mbit.ron"),
    ),
];

/// The description of a shipped machine: its leading comment, as one paragraph.
pub fn description(text: &str) -> String {
    text.lines()
        .take_while(|l| l.trim_start().starts_with("//"))
        .map(|l| l.trim_start().trim_start_matches("//").trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where the hardware fields of a scenario with a `machine` came from, so that an error about
/// one points where it is written: into the machine file, at the scenario's `machine` field (a
/// shipped machine), or at the scenario's own `hardware` field.
#[derive(Clone, Debug)]
pub(super) struct Origin {
    /// The scenario text as written (before the machine was resolved): every line of the
    /// resolved text keeps its number, so a field outside `hardware` is at the same line.
    original: String,
    /// The machine named.
    machine: Named,
    /// The machine's text (a `hardware` section).
    text: String,
    /// The hardware fields the scenario writes itself (they replace the machine's), dotted
    /// below `hardware`: `link`, or `costs.k` for a field of a section merged into the
    /// machine's.
    own: Vec<String>,
    /// The fields `--set` or `vary` set after the machine was resolved (`hardware.network`,
    /// dotted): an error about one of them, a field inside one or one holding it is not the
    /// machine's.
    set: Vec<String>,
}

/// A machine as a scenario names it.
#[derive(Clone, Debug)]
enum Named {
    /// One shipped with gtsim, by name (`lines-960`).
    Shipped(String),
    /// A file beside the scenario, by its path as errors name it.
    File(String),
}

impl Origin {
    /// The machine as the scenario names it: a shipped machine's name or the file's path.
    pub(super) fn name(&self) -> &str {
        match &self.machine {
            Named::Shipped(name) | Named::File(name) => name,
        }
    }

    /// The machine's fields that the scenario's own `hardware` fields replace, and those that
    /// still come from the machine (none: the machine has no effect), in the machine's order.
    /// A section merged field by field is named whole when all its fields are on one side
    /// (`costs`), else field by field (`costs.k`).
    pub(super) fn replaced_and_kept(&self) -> (Vec<String>, Vec<String>) {
        let wrapped = format!("(hardware: {})", one_line(&self.text));
        let spans = match overrides::fields_checked(&wrapped, &["hardware"]) {
            Some(Ok(spans)) => spans,
            _ => Vec::new(),
        };
        let (mut replaced, mut kept) = (Vec::new(), Vec::new());
        for (field, vs, ve) in spans {
            let inner = format!("{field}.");
            if self.own.contains(&field) {
                replaced.push(field);
                continue;
            }
            if !self.own.iter().any(|o| o.starts_with(&inner)) {
                kept.push(field);
                continue;
            }
            // Merged: the machine's fields of the section, each on its side.
            let subs = match is_section(&wrapped[vs..ve])
                .then(|| overrides::fields_checked(&wrapped, &["hardware", &field]))
                .flatten()
            {
                Some(Ok(subs)) => subs.into_iter().map(|(f, _, _)| format!("{inner}{f}")),
                _ => continue,
            };
            let (r, k): (Vec<String>, Vec<String>) = subs.partition(|f| self.own.contains(f));
            match (r.is_empty(), k.is_empty()) {
                (false, true) => replaced.push(field),
                (true, false) => kept.push(field),
                _ => {
                    replaced.extend(r);
                    kept.extend(k);
                }
            }
        }
        (replaced, kept)
    }

    /// The machine's own hardware section, as its file gives it (before the scenario's fields
    /// replace some): what a warning compares the scenario's fields with.
    pub(super) fn hardware(&self) -> Option<crate::schema::Hardware> {
        super::deserialize_hardware(&self.text, self.name()).ok()
    }

    /// Whether the machine gives the hardware field at `keys` (`["hardware", "network"]`): the
    /// scenario neither writes it in its own `hardware` section nor sets it (or a field
    /// holding it, or one inside it) with `--set` or `vary`.
    pub(super) fn gives(&self, keys: &[&str]) -> bool {
        let field = keys.join(".");
        let below = keys.get(1..).unwrap_or_default().join(".");
        keys.len() >= 2
            && keys[0] == "hardware"
            && !self
                .own
                .iter()
                .any(|o| super::within(&below, o) || super::within(o, &below))
            && !self
                .set
                .iter()
                .any(|p| super::within(&field, p) || super::within(p, &field))
    }

    /// The same origin, with the fields set over the resolved text by `--set` or `vary`.
    pub(super) fn with_set(self, set: Vec<String>) -> Origin {
        Origin { set, ..self }
    }

    /// `e` pointed at where its field is written, when it is about a hardware field the
    /// machine gave (or the scenario's own) and at a place in the resolved text of `file`;
    /// otherwise unchanged.
    pub(super) fn relocate(&self, mut e: ScenarioError, file: &str) -> ScenarioError {
        if let Some((f, line, col, message)) = e.place_in(file) {
            self.point(f, (line, col), message);
        }
        e
    }

    /// [`Self::relocate`] of an error's place and message.
    fn point(
        &self,
        file: &mut String,
        (line, col): (&mut usize, &mut usize),
        message: &mut String,
    ) {
        // "hardware.link.rate: …" (list items, `costs[2]`, are located by their list).
        let field = super::error_field(message);
        let keys: Vec<&str> = field
            .split('.')
            .map(|k| k.split('[').next().unwrap_or(k))
            .collect();
        let is_path = keys
            .iter()
            .all(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        if !is_path || keys.len() < 2 || keys[0] != "hardware" {
            return;
        }
        if self
            .set
            .iter()
            .any(|p| super::within(field, p) || super::within(p, field))
        {
            return;
        }
        let rest = message[field.len() + 2..].to_string();
        // The scenario's own field, a field inside it, or a section holding one of its own.
        let below = keys[1..].join(".");
        let owned = self
            .own
            .iter()
            .any(|o| super::within(&below, o) || super::within(o, &below));
        let ((l, c), reworded) = if owned {
            (super::locate::locate(&self.original, &keys), None)
        } else {
            match &self.machine {
                Named::File(machine_file) => {
                    let of = std::mem::replace(file, machine_file.clone());
                    (
                        super::locate::locate(&self.text, &keys[1..]),
                        Some(format!("{field} (the machine of {of}): {rest}")),
                    )
                }
                // At the machine's name: in the file, or in the vary section or on the command
                // line that set it (`load::Made` takes the place there).
                Named::Shipped(name) => (
                    value_place(&self.original),
                    Some(format!(
                        "{field}, from the shipped machine {name:?} (to change it, give hardware: ({}: …) in the scenario): {rest}",
                        keys[1]
                    )),
                ),
            }
        };
        (*line, *col) = (l, c);
        if let Some(m) = reworded {
            *message = m;
        }
    }
}

/// The line and column of the value of `src`'s `machine` field (of the field, if it has no value
/// to point at).
pub(super) fn value_place(src: &str) -> (usize, usize) {
    overrides::find(src, &["machine"]).map_or_else(
        || super::locate::locate(src, &["machine"]),
        |(_, value, _)| super::locate::line_col(src, value),
    )
}

/// A scenario text with its machine resolved ([`resolve`]).
pub(super) struct Resolved<'a> {
    /// The text, with a `hardware` section in place of its `machine` field.
    pub(super) text: Cow<'a, str>,
    /// Where its hardware fields came from (None without a machine).
    pub(super) origin: Option<Origin>,
    /// The changes made to the text, in order.
    pub(super) edits: Vec<Edit>,
}

/// `src` with its `machine` field resolved into a `hardware` section (unchanged without one),
/// every line keeping its number, where its hardware fields came from, and the changes made to
/// the text (in order, [`overrides::place_before`]). `path` is the scenario file, for a machine
/// file named relative to it and for errors.
pub(super) fn resolve<'a>(src: &'a str, path: &Path) -> Result<Resolved<'a>, ScenarioError> {
    let file = path.display().to_string();
    let Some((key, start, end)) = overrides::find(src, &["machine"]) else {
        return Ok(Resolved {
            text: Cow::Borrowed(src),
            origin: None,
            edits: Vec::new(),
        });
    };
    // The line and column of byte `at` of `src`.
    let place = |at: usize| {
        let line = src[..at].matches('\n').count() + 1;
        let col = src[src[..at].rfind('\n').map_or(0, |n| n + 1)..at]
            .chars()
            .count()
            + 1;
        (line, col)
    };
    let at = |at: usize, message: String| {
        let (line, col) = place(at);
        ScenarioError::At {
            file: file.clone(),
            line,
            col,
            message: format!("machine: {message}"),
        }
    };
    // A second `machine` would be left in the text once the first is resolved, and read as an
    // unknown field: it is refused here, at its name, as any field given twice is. (`find`
    // finds the first; with its name hidden, the next.)
    let hidden = format!(
        "{}{}{}",
        &src[..key],
        "_".repeat("machine".len()),
        &src[key + "machine".len()..]
    );
    if let Some((second, _, _)) = overrides::find(&hidden, &["machine"]) {
        let (line, col) = place(second);
        return Err(ScenarioError::At {
            file,
            line,
            col,
            message: crate::overrides::given_twice("machine", false),
        });
    }
    let name: String = ron::from_str(&src[start..end])
        .map_err(|_| at(start, "expected a string: a shipped machine's name (gtsim machines lists them) or a .ron file beside the scenario".into()))?;
    let shipped = !name.contains('/') && !name.ends_with(".ron");
    let (machine_file, text): (String, String) = if shipped {
        match SHIPPED.iter().find(|(n, _)| *n == name) {
            Some((n, t)) => (format!("machine {n}"), t.to_string()),
            None => {
                return Err(at(
                    start,
                    format!(
                    "no shipped machine is named {name:?} (shipped: {}); a file name ends in .ron",
                    SHIPPED.iter().map(|m| m.0).collect::<Vec<_>>().join(", ")
                ),
                ))
            }
        }
    } else {
        let p = path.parent().unwrap_or(Path::new("")).join(&name);
        let bytes =
            read_bounded(&p, MAX_SCENARIO_BYTES, "machine file").map_err(|e| at(start, e))?;
        let text = decode_text(&bytes).map_err(|(line, col, message)| ScenarioError::At {
            file: p.display().to_string(),
            line,
            col,
            message,
        })?;
        (
            p.display().to_string(),
            text.trim_start_matches('\u{FEFF}').to_string(),
        )
    };
    // The machine on its own must be a whole hardware section: its errors point into it.
    super::deserialize_hardware(&text, &machine_file)?;
    // The scenario's own hardware fields replace the machine's (or merge into its sections).
    let own = overrides::find(src, &["hardware"]);
    // Checked as the loader would check a hardware section without a machine: nothing in it is
    // passed over, and no field is given twice.
    let at_hardware = |i: usize, message: String| match at(i, message) {
        ScenarioError::At {
            file,
            line,
            col,
            message,
        } => ScenarioError::At {
            file,
            line,
            col,
            message: format!(
                "hardware{}",
                message.strip_prefix("machine").unwrap_or(&message)
            ),
        },
        e => e,
    };
    let own_spans = match overrides::fields_checked(src, &["hardware"]) {
        None => Vec::new(),
        Some(Ok(spans)) => spans,
        Some(Err((i, message))) => return Err(at_hardware(i, message)),
    };
    // `costs` and `reads`, written in parentheses with a field or more where the machine gives
    // them in parentheses too, are merged field by field, as `--set hardware.costs.k=…` would
    // set them: the machine's other fields in them are kept. Any other value (a link, a
    // network, memory, jitter, a number, an empty `()`) replaces the machine's.
    let machine_text = format!("(hardware: {})", one_line(&text));
    let machine_sections: Vec<String> =
        match overrides::fields_checked(&machine_text, &["hardware"]) {
            Some(Ok(spans)) => spans
                .into_iter()
                .filter(|(f, vs, ve)| {
                    MERGED.contains(&f.as_str()) && is_section(&machine_text[*vs..*ve])
                })
                .map(|(f, _, _)| f)
                .collect(),
            _ => Vec::new(),
        };
    let mut own_fields = Vec::new();
    for (field, vs, ve) in own_spans {
        let merged = is_section(&src[vs..ve]) && machine_sections.contains(&field);
        let inner = match overrides::fields_checked(src, &["hardware", &field]) {
            Some(Ok(spans)) if merged && !spans.is_empty() => Some(spans),
            Some(Err((i, message))) if merged => {
                let (line, col) = place(i);
                return Err(ScenarioError::At {
                    file: file.clone(),
                    line,
                    col,
                    message: format!("hardware.{field}: {message}"),
                });
            }
            _ => None,
        };
        match inner {
            Some(spans) => {
                for (sub, svs, sve) in spans {
                    let path = format!("{field}.{sub}");
                    own_fields.push(
                        overrides::Assignment::new(&path, &src[svs..sve])
                            .map_err(|e| at_hardware(svs, format!("{path}: {e}")))?,
                    );
                }
            }
            None => own_fields.push(
                overrides::Assignment::new(&field, &src[vs..ve])
                    .map_err(|e| at_hardware(vs, format!("{field}: {e}")))?,
            ),
        }
    }
    let merged = overrides::apply(&text, &own_fields).map_err(|e| at(start, e.to_string()))?;
    // On one line, without its comments, followed by the line breaks of the text it replaces:
    // every line of the scenario keeps its number, so the loader's errors after this point
    // still name the user's lines.
    let merged = one_line(&merged);
    let breaks = |text: &str| "\n".repeat(text.matches('\n').count());
    let (out, edits) = match own {
        // Replace the hardware section, then drop `machine: "…",` (later or earlier in the file).
        Some((_, hs, he)) => {
            let section = format!("{merged}{}", breaks(&src[hs..he]));
            let replaced = format!("{}{section}{}", &src[..hs], &src[he..]);
            let shift = |i: usize| {
                if i > hs {
                    i + section.len() - (he - hs)
                } else {
                    i
                }
            };
            let (k, e) = (shift(key), shift(end));
            let after = &replaced[e..];
            let rest = after.trim_start();
            let rest = rest.strip_prefix(',').unwrap_or(rest);
            // The machine field (over lines, perhaps) and what follows it up to the next field.
            let dropped = &replaced[k..replaced.len() - rest.len()];
            let kept = breaks(dropped);
            let edits = vec![
                Edit {
                    at: hs,
                    old: he - hs,
                    new: section.len(),
                },
                Edit {
                    at: k,
                    old: dropped.len(),
                    new: kept.len(),
                },
            ];
            (format!("{}{kept}{rest}", &replaced[..k]), edits)
        }
        None => {
            let section = format!("hardware: {merged}{}", breaks(&src[key..end]));
            let edit = Edit {
                at: key,
                old: end - key,
                new: section.len(),
            };
            (
                format!("{}{section}{}", &src[..key], &src[end..]),
                vec![edit],
            )
        }
    };
    let origin = Origin {
        original: src.to_string(),
        machine: if shipped {
            Named::Shipped(name)
        } else {
            Named::File(machine_file)
        },
        text,
        own: own_fields.iter().map(|a| a.dotted()).collect(),
        set: Vec::new(),
    };
    Ok(Resolved {
        text: Cow::Owned(out),
        origin: Some(origin),
        edits,
    })
}

/// The hardware sections a scenario's own hardware section merges into its machine's field by
/// field (each field a value of its own; `memory` and `jitter` hold sections and options that
/// only make sense together, and replace the machine's whole).
const MERGED: [&str; 2] = ["costs", "reads"];

/// Whether a value is a section in parentheses without a name (`(k: Ms(8), …)`).
fn is_section(value: &str) -> bool {
    value.trim_start().starts_with('(')
}

/// RON text on one line: comments dropped (outside strings), line breaks and runs of spaces as
/// one space.
fn one_line(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last_space = true;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == b'"' {
            let start = i;
            i = super::locate::past_string(b, i).min(b.len());
            out.push_str(&text[start..i]);
            last_space = false;
            continue;
        }
        if c.is_ascii_whitespace() {
            if !last_space {
                out.push(' ');
                last_space = true;
            }
            i += 1;
            continue;
        }
        // Copy one UTF-8 character.
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        last_space = false;
        i += len;
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_drops_comments_but_not_strings() {
        let t = "// about\n(\n  a: 1, // one\n  b: \"x // y\", /* c */\n)\n";
        assert_eq!(one_line(t), "( a: 1, b: \"x // y\", )");
    }

    #[test]
    fn shipped_machines_describe_themselves_and_read_as_hardware() {
        for (name, text) in SHIPPED {
            assert!(description(text).len() > 40, "{name}");
            super::super::deserialize_hardware(text, name).unwrap();
        }
    }
}
