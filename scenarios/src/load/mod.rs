//! Reading a scenario file into a validated [`Plan`], with errors that name the file, the line
//! and the column.
//!
//! [`parse`] deserializes the text, then checks and converts it one section at a time, each in
//! a file of its own: `hardware.rs` (costs, lines, reads), `workload.rs` (the generator, chess
//! positions), `sweep.rs` (tree configurations, processor trees, seeds, the run limit),
//! `algorithms.rs` and `outputs.rs` (timeline, reference tables, charts); `locate.rs` turns a
//! field path into the line and column of an error, and `plan.rs` holds the [`Plan`]. Reading
//! the files, and the limits on what they may say, are [`crate::input`]'s.

mod algorithms;
mod hardware;
mod locate;
pub mod machine;
mod outputs;
mod plan;
mod sections;
mod sweep;
mod workload;

pub use crate::input::{
    decode_text, read_bounded, MAX_DEPTH, MAX_FANOUT, MAX_REFERENCE_BYTES, MAX_RUNS,
    MAX_SCENARIO_BYTES, MAX_SEEDS, MAX_WIDTH,
};
pub use plan::{
    ordering_label, Generator, Plan, CHESS_LEAVES_PER_SECOND_PER_CORE, LEAVES_PER_SECOND_PER_CORE,
    OPEN_SECONDS_PER_LEAF_STATE, SECONDS_PER_EVENT_PER_CORE, SECONDS_PER_RUN_PER_CORE,
};

use crate::schema::Scenario;
use locate::{field_path, Source};
use std::path::Path;

/// [`ScenarioError::Variant`] in words: the file (with the inner error's line and column, when
/// it has them) named once, then the assignments, then what is wrong:
/// `f.ron:35:40: with hardware.link.rate=abc: …`, `f.ron: with --set k.x=5: …`. Taken from the
/// inner error's fields, not its text: a message without a place (`File`, as [`unplaced`]
/// makes it) never starts with the file's name, though a field's path may spell it.
fn variant_text(file: &str, assignments: &str, inner: &ScenarioError) -> String {
    match inner {
        ScenarioError::At {
            file: f,
            line,
            col,
            message,
        } if f == file => format!("{file}:{line}:{col}: with {assignments}: {message}"),
        // The file's own errors that name it: once.
        ScenarioError::Read { file: f, source } if f == file => {
            format!("{file}: with {assignments}: cannot read the scenario: {source}")
        }
        ScenarioError::Set { file: f, source } if f == file => {
            format!("{file}: with {assignments}: {source}")
        }
        // Assignments within assignments: the outer first.
        ScenarioError::Variant {
            file: f,
            assignments: within,
            inner,
        } if f == file => variant_text(file, &format!("{assignments}: with {within}"), inner),
        // Without a place, or about another file (a machine file's line): as it is.
        e => format!("{file}: with {assignments}: {e}"),
    }
}

/// A scenario that cannot be run, and where it says so.
#[derive(thiserror::Error, Debug)]
pub enum ScenarioError {
    /// The file could not be opened or read.
    #[error("{file}: cannot read the scenario: {source}")]
    Read {
        /// The scenario file's path, as given.
        file: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file itself is unusable (not a regular file, too large; the message names it), or
    /// a value with no place in the file (a field set with `--set`, inside [`Self::Variant`]).
    #[error("{0}")]
    File(String),
    /// A `--set` or `vary` assignment that cannot be made (a path into a value without fields,
    /// a malformed `PATH=VALUE`).
    #[error("{file}: {source}")]
    Set {
        /// The scenario file's path, as given.
        file: String,
        /// The assignment and why.
        source: crate::overrides::SetError,
    },
    /// A scenario that is wrong with one of the `vary` section's combinations of values, or
    /// with the fields `--set` sets (`assignments` then starts with `--set`).
    #[error("{}", variant_text(file, assignments, inner))]
    Variant {
        /// The scenario file's path, as given.
        file: String,
        /// The combination, `PATH=VALUE, …`.
        assignments: String,
        /// The error of the scenario with those values: at its line and column in the file
        /// (a value set has moved nothing), at the value in the `vary` section that it is about,
        /// or without a place when it is about a field `--set` sets.
        inner: Box<ScenarioError>,
    },
    /// Bad syntax or an impossible value, at a place in the file.
    #[error("{file}:{line}:{col}: {message}")]
    At {
        /// The scenario file's path, as given.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        col: usize,
        /// What is wrong, starting with the field's path when it is known.
        message: String,
    },
}

/// Reads and validates a scenario file (a regular file of at most [`MAX_SCENARIO_BYTES`]).
pub fn load(path: &Path) -> Result<Plan, ScenarioError> {
    parse(&read_scenario(path)?, path)
}

/// A file the scenario at `path` names (`outputs.reference`, `outputs.inference`, an `Epd`
/// positions file), read with `read`: `name` is taken from the scenario file's own folder. A
/// file not found there says so, since a scenario copied elsewhere takes its names along. An
/// empty name is refused as such (it would name the folder, and print as nothing).
pub(super) fn read_beside<T>(
    path: &Path,
    name: &str,
    read: impl FnOnce(&Path) -> Result<T, String>,
) -> Result<T, String> {
    if name.is_empty() {
        return Err(
            "the file name is empty (\"\"): name the file by its path from the scenario file's folder"
                .into(),
        );
    }
    let folder = path.parent().unwrap_or(Path::new(""));
    let file = folder.join(name);
    read(&file).map_err(|m| {
        if file.exists() || Path::new(name).is_absolute() {
            return m;
        }
        let folder = if folder.as_os_str().is_empty() {
            ".".to_string()
        } else {
            folder.display().to_string()
        };
        format!(
            "{m}; a file a scenario names is looked for from the scenario file's folder (`{folder}`): copy the file there, or name it by its path from that folder"
        )
    })
}

/// The text of a scenario file: a regular UTF-8 file of at most [`MAX_SCENARIO_BYTES`].
fn read_scenario(path: &Path) -> Result<String, ScenarioError> {
    let bytes = read_bounded(path, MAX_SCENARIO_BYTES, "scenario").map_err(ScenarioError::File)?;
    decode_text(&bytes)
        .map(str::to_string)
        .map_err(|(line, col, message)| ScenarioError::At {
            file: path.display().to_string(),
            line,
            col,
            message,
        })
}

impl ScenarioError {
    /// The file, line, column and message of an error at a place in `file`, to change (an
    /// error about a field that was moved or set); None for any other error.
    fn place_in(
        &mut self,
        file: &str,
    ) -> Option<(&mut String, &mut usize, &mut usize, &mut String)> {
        match self {
            ScenarioError::At {
                file: f,
                line,
                col,
                message,
            } if f == file => Some((f, line, col, message)),
            _ => None,
        }
    }
}

/// One scenario of a `vary` section: the values set, and the plan they make.
#[derive(Debug)]
pub struct Variant {
    /// The fields set for this variant (none without `vary`).
    pub assignments: Vec<crate::overrides::Assignment>,
    /// The plan of the scenario with those values.
    pub plan: Plan,
}

impl Variant {
    /// `PATH=VALUE, …`, or empty without assignments.
    pub fn label(&self) -> String {
        crate::overrides::describe(&self.assignments)
    }

    /// The combination as a heading or a chart's panel reads it: `PATH = VALUE, …` with a
    /// machine's name unquoted (`machine = lines-960`), as results.csv's cells show the values.
    pub fn title(&self) -> String {
        self.assignments
            .iter()
            .map(|a| format!("{} = {}", a.dotted(), a.cell()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A combination's text with its machine resolved and its fields set, where its hardware fields
/// came from, how it was made from the file, and a warning about its machine.
type Resolution<'a> = (String, Option<machine::Origin>, Made<'a>, Option<String>);

/// Reads a scenario file, sets the fields of `sets` (`--set PATH=VALUE`) and expands its `vary`
/// section: one plan per combination of the varied values (the first varied field changing
/// slowest), or the one plan of a scenario without `vary`. A field both set and varied takes
/// the value set and is not varied: with every varied field set, the one plan of that
/// combination (without assignments, so it runs as a scenario without `vary`).
pub fn load_variants(
    path: &Path,
    sets: &[crate::overrides::Assignment],
) -> Result<Vec<Variant>, ScenarioError> {
    let file = path.display().to_string();
    let text = read_scenario(path)?;
    let src = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let set_err = |source| ScenarioError::Set {
        file: file.clone(),
        source,
    };
    // A machine named by `--set machine=…` or `vary` replaces the file's before it is resolved
    // into a hardware section; every other field is set after, so that it reaches the
    // machine's fields.
    let is_machine = |a: &crate::overrides::Assignment| a.path == ["machine"];
    let resolved = |assignments: &[crate::overrides::Assignment],
                    indices: &[usize]|
     -> Result<Resolution, ScenarioError> {
        let all = given(sets, assignments, indices);
        let (machines, others): (Vec<_>, Vec<_>) =
            all.into_iter().partition(|(a, _)| is_machine(a));
        let split = |list: Vec<(&crate::overrides::Assignment, Written)>| {
            list.into_iter()
                .map(|(a, w)| (a.clone(), w))
                .unzip::<_, _, Vec<_>, Vec<_>>()
        };
        let (machines, machine_written) = split(machines);
        let (others, written) = split(others);
        let (named, machine_edits) =
            crate::overrides::apply_traced(src, &machines).map_err(set_err)?;
        // `resolve` places its errors in `named`: back to the file's text (a place inside the
        // machine's value set is left to `about_value` and the vary section's errors).
        let machine::Resolved {
            text: with_machine,
            origin,
            edits: resolve_edits,
        } = machine::resolve(&named, path).map_err(|mut e| {
            if let Some((_, line, col, _)) = e.place_in(&file) {
                let before = locate::offset_of(&named, *line, *col)
                    .and_then(|at| crate::overrides::place_before(&machine_edits, at).ok());
                if let Some(at) = before {
                    (*line, *col) = locate::line_col(src, at.min(src.len()));
                }
            }
            e
        })?;
        let (text, edits) =
            crate::overrides::apply_traced(&with_machine, &others).map_err(set_err)?;
        let set_paths = others.iter().map(|a| a.dotted()).collect();
        let warning = origin
            .as_ref()
            .and_then(|o| machine_without_effect(o, src, &text, &file, machine_written.last()));
        let made = Made {
            src,
            named: named.clone(),
            machine_edits,
            machine_written,
            resolve_edits,
            edits,
            written,
            values: others,
        };
        Ok((text, origin.map(|o| o.with_set(set_paths)), made, warning))
    };
    // A string of the file that is never closed runs to the end of the text: the field set
    // would replace it, and with it the file's own error, which is given instead.
    if !sets.is_empty() && crate::overrides::has_unclosed_string(src) {
        parse(src, path)?;
    }
    // One path inside another (or the same) would lose the value set first.
    if let Some((i, first)) = crate::overrides::first_overlap(sets) {
        let a = &sets[i];
        let what = if first.path == a.path {
            "set twice with --set"
        } else {
            "set inside a field another --set sets"
        };
        return Err(set_err(crate::overrides::SetError {
            path: a.dotted(),
            reason: format!(
                "{what} ({first} and {a}, the {} --set): give each field once",
                ordinal(i + 1)
            ),
        }));
    }
    // An error in the text with the fields set names the fields set; its place is taken back
    // to the file (`parse_resolved`), or dropped when it is about a field set (`about_value`).
    let with_sets = |e: ScenarioError| {
        if sets.is_empty() {
            e
        } else {
            ScenarioError::Variant {
                file: file.clone(),
                assignments: format!("--set {}", crate::overrides::describe(sets)),
                inner: Box::new(about_value(
                    e,
                    src,
                    &file,
                    given(sets, &[], &[]).iter().map(|(a, w)| (*a, w)),
                )),
            }
        }
    };
    let (base, origin, made, warning) = resolved(&[], &[]).map_err(with_sets)?;
    let mut plan = parse_resolved(&base, path, origin.as_ref(), &made).map_err(with_sets)?;
    plan.warnings.extend(warning);
    // A field that `--set` sets is not varied: the value set picks that field's combinations
    // (all of them, with every varied field set: one scenario, as if it had no `vary`).
    let mut vary = plan.scenario.vary.0.clone();
    vary.retain(|(path_text, _)| !sets.iter().any(|a| a.dotted() == *path_text));
    // One combination run as a plain scenario has no vary folder for the cost inference: said
    // at outputs.inference, taken back to the file as the plan's own warnings are.
    if vary.is_empty() && !plan.scenario.vary.0.is_empty() && !plan.inference.is_empty() {
        let place = |e| made.place(e, &file, &base, origin.as_ref());
        let cx = Source {
            src: &base,
            file: &file,
            place: &place,
        };
        plan.warnings.push(cx.warning_at(
            &["outputs", "inference"],
            "the cost inference is not written: --set sets every varied field, so this runs one combination as a plain scenario, and the inference is written over the combinations of a vary run".into(),
        ));
    }
    // A field set inside a varied one, or a varied field inside one set, would be overwritten
    // by the other without a word.
    for (path_text, _) in &vary {
        let varied: Vec<String> = path_text.split('.').map(str::to_string).collect();
        if let Some(a) = sets
            .iter()
            .find(|a| crate::overrides::overlap(&a.path, &varied))
        {
            return Err(set_err(crate::overrides::SetError {
                path: a.dotted(),
                reason: format!(
                    "--set {a} and the varied field {path_text} overlap (one is inside the other), so one would overwrite the other: set {path_text} itself to pick its value, or leave it to vary"
                ),
            }));
        }
    }
    // A varied field inside another (`hardware.link.rate` and `hardware.link`) would overwrite
    // the other's values in every combination (the same as --set beside vary, above).
    for (l, (inner, _)) in vary.iter().enumerate() {
        let keys: Vec<String> = inner.split('.').map(str::to_string).collect();
        let outer = vary[..l].iter().map(|(p, _)| p).find(|p| {
            let outer: Vec<String> = p.split('.').map(str::to_string).collect();
            crate::overrides::overlap(&outer, &keys)
        });
        if let Some(outer) = outer {
            let (held, holder, relation) = if outer.len() < inner.len() {
                (inner, outer, format!("a field inside {outer}, which"))
            } else {
                (outer, inner, format!("it holds {outer}, which"))
            };
            let last = held.rsplit('.').next().unwrap_or(held);
            let message = format!(
                "vary: {inner}: {relation} is varied too, so the values of one would overwrite the other's in every combination: vary one of them (or write {last} into each value of {holder})"
            );
            return Err(match locate::locate_vary_key(src, inner) {
                Some((line, col)) => ScenarioError::At {
                    file: file.clone(),
                    line,
                    col,
                    message,
                },
                None => ScenarioError::File(format!("{file}: {message}")),
            });
        }
    }
    if vary.is_empty() {
        return Ok(vec![Variant {
            assignments: Vec::new(),
            plan,
        }]);
    }
    // Each combination's assignments with the index of their value in the vary list.
    let mut combos: Vec<Vec<(crate::overrides::Assignment, usize)>> = vec![Vec::new()];
    for (path_text, values) in &vary {
        let mut next = Vec::new();
        for combo in &combos {
            for (i, v) in values.iter().enumerate() {
                // A value that cannot be set is an error at its place in the vary section.
                let a = crate::overrides::Assignment::new(path_text, v).map_err(|e| {
                    match locate::locate_vary_value(src, path_text, i) {
                        Some((line, col)) => ScenarioError::At {
                            file: file.clone(),
                            line,
                            col,
                            message: e.to_string(),
                        },
                        None => set_err(e),
                    }
                })?;
                let mut c = combo.clone();
                c.push((a, i));
                next.push(c);
            }
        }
        combos = next;
        if combos.len() > MAX_VARIANTS {
            // At the vary section (`vary` cannot be set: it is the file's).
            let (line, col) = locate::locate(src, &["vary"]);
            let sizes: Vec<String> = vary.iter().map(|(_, v)| v.len().to_string()).collect();
            let count = vary
                .iter()
                .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
                .map_or("more than 2^64".to_string(), |n| n.to_string());
            return Err(ScenarioError::At {
                file: file.clone(),
                line,
                col,
                message: format!(
                    "vary makes {count} combinations of values ({}), more than the limit of {MAX_VARIANTS}",
                    sizes.join(" x ")
                ),
            });
        }
    }
    let variants = combos
        .into_iter()
        .map(|combo| {
            let (assignments, indices): (Vec<_>, Vec<_>) = combo.into_iter().unzip();
            let mut label = crate::overrides::describe(&assignments);
            if !sets.is_empty() {
                label = format!("--set {} and {label}", crate::overrides::describe(sets));
            }
            // An error about a varied field points at its value in the vary section (the
            // text with the values set is not the file).
            let variant_error = |e| ScenarioError::Variant {
                file: file.clone(),
                assignments: label.clone(),
                inner: Box::new(about_value(
                    e,
                    src,
                    &file,
                    given(sets, &assignments, &indices)
                        .iter()
                        .map(|(a, w)| (*a, w)),
                )),
            };
            let (text, origin, made, warning) =
                resolved(&assignments, &indices).map_err(variant_error)?;
            let mut plan =
                parse_resolved(&text, path, origin.as_ref(), &made).map_err(variant_error)?;
            plan.warnings.extend(warning);
            Ok((Variant { assignments, plan }, indices))
        })
        .collect::<Result<Vec<_>, ScenarioError>>()?;
    if let Some(e) = alike_combinations(&variants, &vary, src, &file) {
        return Err(e);
    }
    Ok(variants.into_iter().map(|(v, _)| v).collect())
}

/// The scenario as a run takes it, for telling combinations apart: every duration in
/// nanoseconds (`Ms(4)`, `Us(4000)` and, at 10 MHz, `Cycles(40000)` are one value), without the
/// vary section (the same in every combination). Anything else is compared as read: `4` and
/// `4.0` in a float field, a default written out or left out, fields in another order, a
/// machine by its name or its file all read the same.
fn as_run(scenario: &Scenario) -> Scenario {
    Scenario {
        hardware: hardware::in_nanoseconds(&scenario.hardware),
        vary: Default::default(),
        ..scenario.clone()
    }
}

/// Two combinations of a vary section that load to the same scenario.
#[derive(Debug, PartialEq)]
enum Alike {
    /// Combinations `i` and `j` differ only in the value of field `field`: values `first` and
    /// `second` of its list, the same value with every combination of the other fields' values
    /// (`everywhere`: `Ms(4)` and `Us(4000)`) or only with those of `i` (`Cycles(40000)` and
    /// `Ms(4)` at one clock rate of several).
    Values {
        i: usize,
        j: usize,
        field: usize,
        first: usize,
        second: usize,
        everywhere: bool,
    },
    /// Combinations `i` and `j` differ in more than one field.
    Combinations { i: usize, j: usize },
}

/// Two combinations that are the same scenario (`same(i, j)`), `indices[c]` holding the index of
/// every varied field's value in combination `c`: the first pair that differs in one field's
/// value, else the first pair; None when no two are alike.
fn alike_pair(indices: &[Vec<usize>], same: impl Fn(usize, usize) -> bool) -> Option<Alike> {
    let fields_between = |i: usize, j: usize| -> Vec<usize> {
        let (a, b) = (&indices[i], &indices[j]);
        (0..a.len()).filter(|&k| a[k] != b[k]).collect()
    };
    let mut first_pair = None;
    for j in 0..indices.len() {
        for i in 0..j {
            if !same(i, j) {
                continue;
            }
            let [field] = fields_between(i, j)[..] else {
                first_pair = first_pair.or(Some(Alike::Combinations { i, j }));
                continue;
            };
            let (first, second) = (indices[i][field], indices[j][field]);
            // Every pair of combinations with these two values and the others alike.
            let everywhere = (0..indices.len()).all(|x| {
                indices[x][field] != first
                    || (0..indices.len()).all(|y| {
                        indices[y][field] != second || fields_between(x, y) != [field] || same(x, y)
                    })
            });
            return Some(Alike::Values {
                i,
                j,
                field,
                first,
                second,
                everywhere,
            });
        }
    }
    first_pair
}

/// The error for two combinations of `variants` (each with the index of every varied value in
/// its list of `vary`) that load to the same scenario, and so would make the same runs twice
/// (into two folders, their rows twice in the vary folder's results): two values of one field
/// that are one value (`4` and `4.0` in a float field, `Ms(4)` and `Us(4000)`, a machine by its
/// name and by its file), at the second of them, naming the first; else the two combinations.
/// None when every combination is a scenario of its own.
fn alike_combinations(
    variants: &[(Variant, Vec<usize>)],
    vary: &[(String, Vec<String>)],
    src: &str,
    file: &str,
) -> Option<ScenarioError> {
    let runs: Vec<Scenario> = variants
        .iter()
        .map(|(v, _)| as_run(&v.plan.scenario))
        .collect();
    let indices: Vec<Vec<usize>> = variants.iter().map(|(_, ix)| ix.clone()).collect();
    let at = |place: Option<(usize, usize)>, message: String| match place {
        Some((line, col)) => ScenarioError::At {
            file: file.to_string(),
            line,
            col,
            message,
        },
        None => ScenarioError::File(format!("{file}: {message}")),
    };
    match alike_pair(&indices, |i, j| runs[i] == runs[j])? {
        Alike::Values {
            i,
            field,
            first,
            second,
            everywhere,
            ..
        } => {
            let (path, values) = &vary[field];
            let (vi, vj) = (&values[first], &values[second]);
            let place = match locate::locate_vary_value(src, path, first) {
                Some((line, col)) => format!("; value {} at line {line}, column {col}", first + 1),
                None => String::new(),
            };
            let which = format!("values {} and {}{place}", first + 1, second + 1);
            let message = if vi == vj {
                format!("vary: {path}: the value {vj} is listed twice ({which})")
            } else if everywhere {
                format!(
                    "vary: {path}: {vj} is listed twice: it loads to the same value as {vi} ({which})"
                )
            } else {
                let others: Vec<String> = variants[i]
                    .0
                    .assignments
                    .iter()
                    .filter(|a| a.dotted() != *path)
                    .map(|a| a.to_string())
                    .collect();
                format!(
                    "vary: {path}: {vj} loads to the same value as {vi} with {} ({which}), so that combination would run twice: vary values that make every combination a scenario of its own",
                    others.join(", ")
                )
            };
            Some(at(locate::locate_vary_value(src, path, second), message))
        }
        Alike::Combinations { i, j } => Some(at(
            Some(locate::locate(src, &["vary"])),
            format!(
                "vary: the combinations {} and {} load to the same scenario, so the two would run the same: vary values that make every combination a scenario of its own",
                variants[i].0.label(),
                variants[j].0.label()
            ),
        )),
    }
}

/// The path of the field an error message is about (`workload.width: …` → `workload.width`),
/// or "" when it does not start with one.
fn error_field(message: &str) -> &str {
    message.split_once(": ").map_or("", |(p, _)| p)
}

/// Whether `field` (an error's field path, `sweep.ordering[2]`) is the field at `path` or one
/// inside it.
fn within(field: &str, path: &str) -> bool {
    field == path
        || field
            .strip_prefix(path)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// Every assignment with where its value is written: `sets` on the command line, `assignments`
/// in the vary section (`indices[k]`: the place of `assignments[k]`'s value in its vary list).
fn given<'a>(
    sets: &'a [crate::overrides::Assignment],
    assignments: &'a [crate::overrides::Assignment],
    indices: &[usize],
) -> Vec<(&'a crate::overrides::Assignment, Written)> {
    sets.iter()
        .map(|a| (a, Written::Set))
        .chain(assignments.iter().zip(indices).map(|(a, &i)| {
            (
                a,
                Written::Varied {
                    path: a.dotted(),
                    index: i,
                },
            )
        }))
        .collect()
}

/// `e` at the value it is about when it is an error about a field given a value (or one inside
/// it; `given`: each assignment with where its value is written): without a line and column for
/// a value given with `--set`, whose place is the command line, which the error names before it
/// (`with --set …`), not a line of the text with the value set; at the value in the vary section
/// for a varied one (the text with the values set is not the file). Otherwise unchanged.
fn about_value<'a>(
    e: ScenarioError,
    src: &str,
    file: &str,
    given: impl IntoIterator<Item = (&'a crate::overrides::Assignment, &'a Written)>,
) -> ScenarioError {
    let ScenarioError::At { message, .. } = &e else {
        return e;
    };
    let field = error_field(message);
    match given.into_iter().find(|(a, _)| within(field, &a.dotted())) {
        Some((_, written)) => in_value(e, src, file, written),
        None => e,
    }
}

/// `e` without its line and column: a value given on the command line has none in the file.
fn unplaced(e: ScenarioError) -> ScenarioError {
    match e {
        ScenarioError::At { message, .. } => ScenarioError::File(message),
        e => e,
    }
}

/// `e` at the value at `index` of the vary list of the field `path` (dotted), when it is an
/// error at a place in `file` and the value is found in `src`.
fn at_vary_value(
    mut e: ScenarioError,
    src: &str,
    file: &str,
    path: &str,
    index: usize,
) -> ScenarioError {
    if let Some((_, line, col, _)) = e.place_in(file) {
        if let Some(place) = locate::locate_vary_value(src, path, index) {
            (*line, *col) = place;
        }
    }
    e
}

/// "1st", "2nd", "3rd", "4th", …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The most combinations a `vary` section may make.
pub const MAX_VARIANTS: usize = 1000;

/// Validates scenario text (a leading byte-order mark is ignored); `path` names it in errors.
pub fn parse(src: &str, path: &Path) -> Result<Plan, ScenarioError> {
    let src = src.strip_prefix('\u{FEFF}').unwrap_or(src);
    let machine::Resolved {
        text: resolved,
        origin,
        edits: resolve_edits,
    } = machine::resolve(src, path)?;
    // Nothing set: only the machine's resolution made the text.
    let made = Made {
        src,
        named: src.to_string(),
        machine_edits: Vec::new(),
        machine_written: Vec::new(),
        resolve_edits,
        edits: Vec::new(),
        written: Vec::new(),
        values: Vec::new(),
    };
    parse_resolved(&resolved, path, origin.as_ref(), &made)
}

/// [`parse`] of text whose machine is resolved already (`made` says how it was made from the
/// file): an error's place is taken back to the file, and an error about a hardware field the
/// machine gave is pointed at where `origin` says the field is written.
fn parse_resolved(
    text: &str,
    path: &Path,
    origin: Option<&machine::Origin>,
    made: &Made,
) -> Result<Plan, ScenarioError> {
    let file = path.display().to_string();
    let place = |e| made.place(e, &file, text, origin);
    plan_of(text, path, &|at| made.set_at(at), &place, origin).map_err(place)
}

/// How the text the loader reads was made from the file's, so that an error's place in it can be
/// taken back to the file: a machine named by `--set`/`vary` (`named`, with `machine_edits`), the
/// machine resolved into a hardware section ([`machine::resolve`]'s `resolve_edits`), then the
/// other fields set (`edits`). `written[k]` says where the value of `edits[k]` is written
/// (likewise `machine_written`), and `values[k]` is the assignment it made.
struct Made<'a> {
    src: &'a str,
    named: String,
    machine_edits: Vec<crate::overrides::Edit>,
    machine_written: Vec<Written>,
    resolve_edits: Vec<crate::overrides::Edit>,
    edits: Vec<crate::overrides::Edit>,
    written: Vec<Written>,
    values: Vec<crate::overrides::Assignment>,
}

/// A field set by `--set` or `vary` whose text is at a place in the text the loader reads: for
/// an error there that is about how the value is written (a field the section does not have,
/// a string without quotes), to say so in the terms of the command line or the vary section.
struct SetValue<'a> {
    /// The field's path and its value as written.
    assignment: &'a crate::overrides::Assignment,
    /// Written in the vary section (as a string holding its RON text), not with `--set`.
    varied: bool,
}

/// Where the value of a field set in the text is written.
#[derive(Clone, Debug)]
enum Written {
    /// On the command line (`--set`): it has no place in the file.
    Set,
    /// In the vary section: the value at `index` of the list of the field at `path` (dotted).
    Varied { path: String, index: usize },
}

impl Made<'_> {
    /// The field set whose text holds byte `at` of the text made (the text the loader reads).
    fn set_at(&self, at: usize) -> Option<SetValue<'_>> {
        let k = crate::overrides::place_before(&self.edits, at).err()?;
        Some(SetValue {
            assignment: &self.values[k],
            varied: matches!(self.written[k], Written::Varied { .. }),
        })
    }

    /// `e` at its place in the file when it is an error at a place in `text` (the text made, of
    /// `file`); at its value when that place is in a value set (in the vary section, or
    /// without a place for `--set`). `origin` then points an error about a hardware field the
    /// machine gave where the field is written. Last, an error about a field set or varied (or
    /// one inside it) is at its value, though placed at the field's name, outside the value
    /// ([`about_value`], as [`load_variants`] places the errors it returns): so is a warning
    /// about it, which is always placed at the field's name ([`Source::warning_at`]).
    fn place(
        &self,
        mut e: ScenarioError,
        file: &str,
        text: &str,
        origin: Option<&machine::Origin>,
    ) -> ScenarioError {
        use crate::overrides::place_before;
        // The text made, back to the text with the machine resolved, then to the one before.
        if let Some((_, line, col, _)) = e.place_in(file) {
            let Some(at) = locate::offset_of(text, *line, *col) else {
                return e;
            };
            match place_before(&self.edits, at) {
                Err(k) => return in_value(e, self.src, file, &self.written[k]),
                Ok(at) => {
                    let at = place_before(&self.resolve_edits, at)
                        .unwrap_or_else(|k| self.resolve_edits[k].at);
                    (*line, *col) = locate::line_col(&self.named, at.min(self.named.len()));
                }
            }
        }
        if let Some(o) = origin {
            e = o.relocate(e, file);
        }
        // Back through a machine set by `--set` or `vary`.
        if let Some((_, line, col, _)) = e.place_in(file) {
            if let Some(at) = locate::offset_of(&self.named, *line, *col) {
                match place_before(&self.machine_edits, at) {
                    Err(k) => return in_value(e, self.src, file, &self.machine_written[k]),
                    Ok(at) => (*line, *col) = locate::line_col(self.src, at.min(self.src.len())),
                }
            }
        }
        about_value(e, self.src, file, self.values.iter().zip(&self.written))
    }
}

/// `e`, whose place is in a value written in `written` (or which is about a field given that
/// value): at that value in the vary section of `src`, or without a place (a value given with
/// `--set`, which the error names before it).
fn in_value(e: ScenarioError, src: &str, file: &str, written: &Written) -> ScenarioError {
    match written {
        Written::Set => unplaced(e),
        Written::Varied { path, index } => at_vary_value(e, src, file, path, *index),
    }
}

/// A warning when the scenario's own `hardware` fields replace every field its machine gives:
/// the machine then has no effect (a user who names one with `--set` or `vary` means to run
/// it). At the machine's value in the vary section or in the file, or without a place for one
/// given with `--set` (`written`). A machine whose other fields the scenario keeps is the
/// documented way to share some fields and vary the rest, and is not warned about; its clock
/// counts only where a cost is in cycles (`Cycles(…)` in the hardware section of `resolved`,
/// the scenario's text with its machine and the fields set).
fn machine_without_effect(
    origin: &machine::Origin,
    src: &str,
    resolved: &str,
    file: &str,
    written: Option<&Written>,
) -> Option<String> {
    let (replaced, mut kept) = origin.replaced_and_kept();
    let in_cycles = crate::overrides::find(resolved, &["hardware"])
        .is_some_and(|(_, start, end)| resolved[start..end].contains("Cycles("));
    let clock_unused = !in_cycles && kept.iter().any(|f| f == "clock_hz");
    kept.retain(|f| f != "clock_hz" || in_cycles);
    if replaced.is_empty() || !kept.is_empty() {
        return None;
    }
    let given = match written {
        Some(Written::Set) => ", given with --set,",
        Some(Written::Varied { .. }) => ", given by vary,",
        None => "",
    };
    let message = format!(
        "machine: {:?}{given} has no effect: the scenario's hardware section gives every field the machine sets ({}){}, and a scenario's own hardware fields replace its machine's; leave them out of the hardware section to run the machine",
        origin.name(),
        replaced.join(", "),
        if clock_unused {
            " but its clock_hz, which only a cost in Cycles(…) would use, and none is"
        } else {
            ""
        }
    );
    // At the machine's value, as errors in the machine are.
    let (line, col) = machine::value_place(src);
    let e = ScenarioError::At {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let e = match written {
        Some(w) => in_value(e, src, file, w),
        None => e,
    };
    Some(locate::warning_text(file, e))
}

/// The plan of scenario text without a `machine` field (resolved); `set_at` names the field
/// set (`--set`, `vary`) whose text holds a byte of `src`, if one does, and `place` takes an
/// error's place in `src` to the file (a warning's too: [`Source::warning_at`]). `origin` says
/// where the hardware fields came from when the scenario names a machine (None without one):
/// some warnings compare the scenario's fields with the machine's own.
fn plan_of<'a>(
    src: &str,
    path: &Path,
    set_at: &dyn Fn(usize) -> Option<SetValue<'a>>,
    place: &dyn Fn(ScenarioError) -> ScenarioError,
    origin: Option<&machine::Origin>,
) -> Result<Plan, ScenarioError> {
    let file = path.display().to_string();
    let scenario: Scenario = deserialize_set_as(src, &file, set_at)?;
    let cx = Source {
        src,
        file: &file,
        place,
    };

    let costs = hardware::costs(&cx, &scenario.hardware)?;
    // The named machine's own hardware section, as its file gives it.
    let named_machine = origin.and_then(|o| o.hardware());
    let trees = workload::trees(&cx, &scenario, path)?;
    let dims = sweep::dimensions(&cx, &scenario.sweep, &trees)?;
    let algorithms::Algorithms {
        list: algorithms,
        progressive,
        at: algorithm_at,
    } = algorithms::algorithms(&cx, &scenario, trees.generator)?;
    let sweep::ProcessorTrees { fanouts, ptrees } =
        sweep::processor_trees(&cx, &scenario, &algorithms)?;
    let count_field: &[&str] = if !scenario.sweep.processors.is_empty() {
        &["sweep", "processors"]
    } else if !scenario.sweep.fanout.is_empty() {
        &["sweep", "fanout"]
    } else {
        &["sweep", "ptree"]
    };
    let network = hardware::network(&cx, &scenario.hardware, &ptrees, count_field)?;
    let pools: Vec<u64> = scenario.sweep.processors.iter().map(|p| p.0).collect();
    let machine = hardware::machine(&cx, &scenario.hardware, &ptrees, &pools, &algorithms)?;
    let (memory, jitter) = hardware::memory(&cx, &scenario.hardware, &algorithms)?;
    let seeds = sweep::seeds(&cx, &scenario.sweep, &trees)?;
    let config_count = sweep::config_count(
        &cx,
        &scenario.sweep,
        &dims,
        &ptrees,
        &algorithms,
        seeds.len() as u64,
    )?;
    let configs = sweep::configs(&cx, &scenario.sweep, &trees, &dims, config_count)?;
    let chess = trees.chess.is_some();
    let timeline = outputs::timeline(
        &cx,
        &scenario,
        chess,
        &fanouts,
        &seeds,
        &configs,
        &algorithms,
    )?;
    let outputs::References {
        reference,
        paper,
        mut warnings,
        inference,
    } = outputs::references(
        &cx,
        &scenario.outputs,
        path,
        chess,
        !scenario.vary.0.is_empty(),
        &fanouts,
    )?;
    warnings.extend(outputs::charts(
        &cx,
        &scenario.outputs,
        chess,
        &fanouts,
        &ptrees,
        configs.len(),
        algorithms.len(),
    )?);
    outputs::sync_study(&cx, &scenario.outputs, &algorithms, &ptrees)?;
    warnings.extend(sweep::skipped(
        &cx,
        &algorithms,
        algorithm_at,
        &ptrees,
        &dims.depths,
    ));
    if trees.generator == Generator::Synthetic {
        warnings.extend(sweep::unfelt_noise(
            &cx,
            !scenario.sweep.horizon_noise.is_empty(),
            trees.noise_written,
            &dims.noises,
            &dims.depths,
            &algorithms,
            &ptrees,
            progressive,
        ));
    }
    warnings.extend(machine.warnings.iter().cloned());
    warnings.extend(hardware::unused_quiescence(&cx, &costs, trees.generator));
    // Combinations that change the network (unless the network is one --set gives them all).
    let network_set = crate::overrides::find(src, &["hardware", "network"])
        .and_then(|(_, value, _)| set_at(value))
        .is_some_and(|v| !v.varied);
    let network_varied = !network_set
        && scenario
            .vary
            .0
            .iter()
            .any(|(p, _)| p == "machine" || within("hardware.network", p));
    // A link the named machine gives describes the machine (as its probe cost does, below).
    let link_machines = origin.is_some_and(|o| o.gives(&["hardware", "link"]));
    warnings.extend(hardware::unused_link(
        &cx,
        &scenario.hardware,
        network_varied || link_machines,
    ));
    warnings.extend(hardware::unused_probe(
        &cx,
        &costs,
        &algorithms,
        named_machine
            .as_ref()
            .and_then(|m| hardware::in_nanoseconds_of(m, |c| &c.probe)),
    ));
    warnings.extend(hardware::forwarding_apart(
        &cx,
        &scenario.hardware,
        &costs,
        origin
            .zip(named_machine.as_ref())
            .and_then(|(o, m)| o.gives(&["hardware", "network"]).then(|| (o.name(), m))),
    ));
    warnings.extend(unrun_workload_values(&cx, &scenario.sweep, &trees));
    let sweep_algorithms = &scenario.sweep.algorithm;
    if !sweep_algorithms.is_empty() && !sweep_algorithms.contains(&scenario.search.algorithm) {
        warnings.push(cx.warning_at(
            &["search", "algorithm"],
            format!(
                "{} is not run: sweep.algorithm lists the algorithms to run (add it there to run it too)",
                scenario.search.algorithm
            ),
        ));
    }

    let mut chess_set = trees.chess;
    if let Some(set) = &mut chess_set {
        set.prepare(configs.len());
    }
    let mut plan = Plan {
        chess: chess_set,
        paper,
        inference,
        generator: trees.generator,
        algorithms,
        ptrees,
        links: machine.links,
        network,
        memory,
        jitter,
        reads: machine.reads,
        batching: true,
        optimistic: true,
        warnings,
        reference,
        progressive,
        file: path.to_path_buf(),
        costs,
        link: machine.link,
        configs,
        fanouts,
        seeds,
        timeline,
        scenario,
    };
    // What reading the positions file found to warn about.
    if let Some(set) = &plan.chess {
        plan.warnings.extend(set.warnings.iter().cloned());
    }
    // A paper table none of whose rows any run matches would show nothing but "–".
    if let Some(paper) = &plan.paper {
        let per_board = matches!(paper, crate::reference::PaperTable::PerBoard(_));
        let matched = plan.algorithms.iter().any(|a| {
            plan.fanouts
                .iter()
                .any(|&f| crate::chess_report::paper_row(&plan, paper, &a.name(), f).is_some())
        });
        if per_board && !crate::chess_report::per_board_matches(&plan) {
            let name = plan.scenario.outputs.reference.clone().unwrap_or_default();
            plan.warnings.push(cx.warning_at(&["outputs", "reference"], format!(
                "none of the positions the plan searches is a board {name} gives counts for (its boards A-X are the Bratko-Kopec positions BK.01-BK.24): every paper column of the report would be –"
            )));
        }
        if !per_board && !matched {
            let name = plan.scenario.outputs.reference.clone().unwrap_or_default();
            plan.warnings.push(cx.warning_at(&["outputs", "reference"], format!(
                "no run of the plan matches a row of {name} (a table of Table III's layout has rows per transposition table and storage, matched by Parabelle(table: …); Table II's layout by table-free runs): every paper column of the report would be –"
            )));
        }
    }
    // Costs with which a run certainly passes the largest simulated time.
    hardware::time_bound(&cx, &plan)?;
    // Every run skipped: a sweep that would write empty tables is a mistake.
    if plan.run_count() == 0 {
        return Err(cx.at(
            &["sweep"],
            "every run is skipped (no algorithm applies to any tree configuration; see the warnings): nothing would be simulated".into(),
        ));
    }
    Ok(plan)
}

/// The message for a field `found` that the section does not have: the fields it has, and the
/// one probably meant: the only one nearest to it, if that is at most about a third of its
/// letters (at least one) away, an exchange of two letters counting two.
fn unknown_field(found: &str, expected: &[&str]) -> String {
    if expected.is_empty() {
        return format!("unknown field `{found}`: this section has no fields");
    }
    let (list, meant) = fields_and_meant(found, expected);
    format!("unknown field `{found}`{meant}; the fields here are {list}")
}

/// The message for a field that `--set` or `vary` (`varied`) sets by its path (`field`, the error's path,
/// `hardware.zz`) and that its section does not have: plainly so, with the fields it has and
/// the one probably meant (as [`unknown_field`]). A bracket left open, which the message for a
/// field in the file suspects, cannot put a field named by a path in the wrong section.
fn unset_field(field: &str, found: &str, expected: &[&str], varied: bool) -> String {
    let verb = if varied { "vary" } else { "set" };
    let section = match field.rsplit_once('.') {
        Some((section, _)) => format!("`{section}`"),
        None => "a scenario".to_string(),
    };
    if expected.is_empty() {
        return format!("{section} has no field `{found}` to {verb}: it has no fields");
    }
    let (list, meant) = fields_and_meant(found, expected);
    format!("{section} has no field `{found}` to {verb}{meant}; its fields are {list}")
}

/// `expected` as a list in words, and ` (is `NAME` meant?)` for the only one nearest to `found`
/// if that is at most about a third of its letters (at least one) away, an exchange of two
/// letters counting two (else "").
fn fields_and_meant(found: &str, expected: &[&str]) -> (String, String) {
    let fields: Vec<String> = expected.iter().map(|x| format!("`{x}`")).collect();
    let list = crate::util::and_list(&fields);
    match meant(found, expected) {
        Some(meant) => (list, format!(" (is `{meant}` meant?)")),
        None => (list, String::new()),
    }
}

/// The only one of `expected` nearest to `found`, if that is at most about a third of its
/// letters (at least one) away, an exchange of two letters counting two.
pub(crate) fn meant<'a>(found: &str, expected: &[&'a str]) -> Option<&'a str> {
    let distance = |x: &&str| edit_distance(found, x);
    let nearest = expected.iter().map(distance).min()?;
    let near: Vec<&str> = expected
        .iter()
        .filter(|x| distance(x) == nearest)
        .copied()
        .collect();
    let close = nearest <= ((found.chars().count() + 1) / 3).max(1);
    match near.as_slice() {
        [meant] if close => Some(meant),
        _ => None,
    }
}

/// `text` as a RON string: in double quotes, `\` and `"` escaped.
fn ron_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// How to write a string value that was set without its quotes (the error is `Expected
/// string` at field `field`, in the text of `set`): the field set itself is a string (`--set
/// name=x`) gets its value quoted, as the shell must pass it on (`--set 'name="x"'`) or as the
/// vary section holds it (`"\"x\""`); a string inside the value set, the rule.
fn quote_hint(field: &str, set: &SetValue) -> String {
    let a = set.assignment;
    let whole = field == a.dotted() && !a.value.starts_with('"');
    match (set.varied, whole) {
        (false, true) if !a.value.contains('\'') => format!(
            "a string is written in double quotes, which the shell must pass on: --set '{}={}'",
            a.dotted(),
            ron_string(&a.value)
        ),
        (false, _) => "a string is written in double quotes (\"…\"), which the shell must pass on (in single quotes around PATH=VALUE)".to_string(),
        (true, true) => format!(
            "a string is written in double quotes, and a vary value holds its text in a string of its own: {}",
            ron_string(&ron_string(&a.value))
        ),
        (true, false) => "a string is written in double quotes, and a vary value holds its text in a string of its own: \"\\\"…\\\"\"".to_string(),
    }
}

/// `src` read as a `T` (a section of a scenario, in tests), errors at their place in `file`.
#[cfg(test)]
fn deserialize_as<T: serde::de::DeserializeOwned>(
    src: &str,
    file: &str,
) -> Result<T, ScenarioError> {
    deserialize_set_as(src, file, &|_| None)
}

/// `src` read as a machine file, a hardware section on its own, errors at their place in
/// `file`: they name the fields from the file's top (`costs.e`), and get the hints an error
/// in a scenario's `hardware` section gets (how a time or a link is written).
pub(super) fn deserialize_hardware(
    src: &str,
    file: &str,
) -> Result<crate::schema::Hardware, ScenarioError> {
    deserialize_in(src, file, &|_| None, "hardware")
}

/// A whole scenario `src` read as a `T`, errors at their place in `file`, in which fields are
/// set by `--set` or `vary` (`set_at` names the field set whose text holds a byte of `src`):
/// an error about how a value set is written says so in the terms of the command line or the
/// vary section.
fn deserialize_set_as<'a, T: serde::de::DeserializeOwned>(
    src: &str,
    file: &str,
    set_at: &dyn Fn(usize) -> Option<SetValue<'a>>,
) -> Result<T, ScenarioError> {
    deserialize_in(src, file, set_at, "")
}

/// [`deserialize_set_as`] of text that is the section `root` of a scenario (empty for a whole
/// scenario): the hints go by the field's path from the scenario's top.
fn deserialize_in<'a, T: serde::de::DeserializeOwned>(
    src: &str,
    file: &str,
    set_at: &dyn Fn(usize) -> Option<SetValue<'a>>,
    root: &str,
) -> Result<T, ScenarioError> {
    // implicit_some: optional fields take a bare value (`timeline: (fanout: 4, seed: 1)`);
    // `Some(...)` is accepted too.
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    // `steps`: the path of the value being read, when known (for the hint at brackets).
    let spanned = |e: ron::error::SpannedError, field: String, steps: &[sections::Step]| {
        let e = unquoted_at_its_start(src, e, &field);
        let line = src
            .lines()
            .nth(e.span.start.line.saturating_sub(1))
            .unwrap_or("");
        // A number written wrong (`depth: 5x`, `p: 0.6.1`): the parser says "Expected comma"
        // after the number it could read, "Expected float" at one it could not, or the value
        // complains about the part it read (`8b` as the float 8); said here as what it is, at
        // the number, without the hints for a value misread.
        if let Some((token, key, col)) = malformed_number(line, e.span.start.col, &e.code) {
            let last = field.rsplit('.').next().unwrap_or("");
            let last = last.split('[').next().unwrap_or(last);
            let field = match key {
                Some(key) if key != last && field.is_empty() => key,
                Some(key) if key != last => format!("{field}.{key}"),
                _ => field,
            };
            let message = format!("expected a number, found `{token}`");
            return ScenarioError::At {
                file: file.to_string(),
                line: e.span.start.line,
                col,
                message: if field.is_empty() {
                    message
                } else {
                    format!("{field}: {message}")
                },
            };
        }
        // The field set whose text the error is in, if it is in one (the parser may point
        // at the space before a value).
        let set = locate::offset_of(src, e.span.start.line, e.span.start.col)
            .map(|at| at + src[at..].len() - src[at..].trim_start().len())
            .and_then(set_at);
        // A field the section lacks that a path names (`hardware.zz`, or `hardware.zz` on the
        // way to `hardware.zz.rate`), not one inside a value set.
        let named_by_path = set.as_ref().is_some_and(|s| {
            let path = s.assignment.dotted();
            path == field || path.starts_with(&format!("{field}."))
        });
        // A comma missing at the end of a line: the error is placed where it goes.
        let comma = matches!(e.code, ron::Error::ExpectedComma)
            .then(|| missing_comma(src, e.span.start.line, e.span.start.col))
            .flatten();
        // Where the text goes on from the error, past spaces and comments (None: the file
        // ends there).
        let next = locate::offset_of(src, e.span.start.line, e.span.start.col)
            .and_then(|at| next_text(src, at));
        // A comma expected where the file ends: a bracket is left open, as at `Eof`.
        let ends_open =
            matches!(e.code, ron::Error::ExpectedComma) && comma.is_none() && next.is_none();
        let (line_no, col) = match (&comma, &e.code, next) {
            (Some((_, Some(place))), ..) => *place,
            // Text after the file's value: placed at the text, not just after the bracket.
            (_, ron::Error::TrailingCharacters, Some(at)) => locate::line_col(src, at),
            // The file's end: placed after its last text, not after a comment below it.
            _ if ends_open => last_text_end(src).unwrap_or((e.span.start.line, e.span.start.col)),
            _ => (e.span.start.line, e.span.start.col),
        };
        // The parser's words, in the file's terms for a bare word (`depth: five` reads as a
        // unit value) and for a section (a struct, named by its type in the code).
        let text = match &e.code {
            ron::Error::InvalidValueForType { expected, found } if found == "a unit value" => {
                match word_before(line, e.span.start.col) {
                    Some(word) => {
                        format!("expected {expected} but found the word `{word}` instead")
                    }
                    None => e.code.to_string(),
                }
            }
            // Two values or two fields with nothing between them: say which two.
            ron::Error::ExpectedComma if comma.is_some() => {
                comma.as_ref().map(|c| c.0.clone()).unwrap_or_default()
            }
            ron::Error::ExpectedComma if ends_open => {
                "expected a comma or a closing bracket, but the file ends: a bracket above is left open".to_string()
            }
            ron::Error::TrailingCharacters => {
                let text = next.map_or("", |at| src[at..].lines().next().unwrap_or(""));
                format!(
                    "text after the file's closing bracket, `{}`: the file holds one value, `(…)`, and nothing after it but comments",
                    text.trim_end()
                )
            }
            // A number where a name (a variant such as `Ms`) is expected: ron suggests a raw
            // identifier, which no field of a scenario is.
            ron::Error::SuggestRawIdentifier(found) => {
                format!("expected a name here (of a field or a variant), but found `{found}`")
            }
            ron::Error::InvalidValueForType { expected, found } if found == "an optional value" => {
                format!("expected {expected} but found `None` or `Some(…)`: this field is not optional")
            }
            // The one section a scenario may give by name instead.
            ron::Error::MissingStructField { field: "hardware", .. } if field.is_empty() => {
                "the scenario has no `hardware` section: give one, or name a machine instead (machine: \"parabelle-1985\", or the file name of one ending in .ron)".to_string()
            }
            ron::Error::MissingStructField { field: name, .. } => {
                format!("`{name}` is missing: this section needs it")
            }
            ron::Error::ExpectedDifferentStructName { found, .. } => {
                format!("expected a section in parentheses, `(…)`, but found `{found}`")
            }
            ron::Error::ExpectedNamedStructLike(name) if !name.is_empty() => {
                "expected a section in parentheses, `(…)`".to_string()
            }
            // The parser names the section by its type in the code (`in `Costs``); the field's
            // path already says where it is.
            ron::Error::NoSuchStructField {
                expected, found, ..
            } if named_by_path => {
                let varied = set.as_ref().is_some_and(|s| s.varied);
                unset_field(&field, found, expected, varied)
            }
            ron::Error::NoSuchStructField {
                expected, found, ..
            } => unknown_field(found, expected),
            // At the second one; worded as the loader's own scans word it (a section's fields
            // read by `overrides::fields_checked`, a `machine` given twice).
            ron::Error::DuplicateStructField { field: name, .. } => {
                crate::overrides::given_twice(name, !field.is_empty())
            }
            code => code.to_string(),
        };
        // The parser's words begin with a capital ("Expected identifier"); the loader's own
        // do not, and an error reads the same whichever side wrote it. A value's own message
        // is left as written: it may begin with the user's text (a vary path).
        let text = match e.code {
            ron::Error::Message(_) => text,
            _ => lower_first(text),
        };
        let mut message = if field.is_empty() {
            text
        } else {
            format!("{field}: {text}")
        };
        // Only for the parser's own errors: a value refused for its meaning says why itself.
        let syntax = !matches!(
            e.code,
            ron::Error::Message(_) | ron::Error::DuplicateStructField { .. }
        );
        // The forms of a value of several named forms, for an error about the value's form
        // (not, say, a comma missing inside it).
        let about_form = matches!(
            e.code,
            ron::Error::ExpectedIdentifier
                | ron::Error::NoSuchEnumVariant { .. }
                | ron::Error::SuggestRawIdentifier(_)
                | ron::Error::InvalidValueForType { .. }
                | ron::Error::ExpectedString
                | ron::Error::ExpectedStructLike
                | ron::Error::ExpectedNamedStructLike(_)
        );
        let from_top = match (root, field.as_str()) {
            ("", _) => field.clone(),
            (root, "") => root.to_string(),
            (root, field) => format!("{root}.{field}"),
        };
        if let Some(hint) =
            syntax_hint(&from_top, line, e.span.start.col, about_form).filter(|_| syntax)
        {
            message.push_str("; ");
            message.push_str(&hint);
        }
        if let (ron::Error::ExpectedString, Some(set)) = (&e.code, &set) {
            message.push_str("; ");
            message.push_str(&quote_hint(&field, set));
        }
        // A bracket left open or closed too early shows up later, as a field in the wrong
        // section or as the end of the file: say where to look. A field is read in the wrong
        // section that way only if it is a field of a section around this one (a bracket left
        // open) or inside it (one closed too early), in the same text: a field of no section
        // there (misspelt, or another variant's) is not about brackets.
        match &e.code {
            ron::Error::NoSuchStructField { found, .. } if !named_by_path => {
                // The path leads to the field: its section is the path without it. Inside a
                // value set by `--set` or `vary`, the sections and brackets to look at are the
                // value's own, not the file's above.
                let section = steps.split_last().map_or(&[][..], |(_, s)| s);
                let from = set.as_ref().map_or(0, |s| s.assignment.path.len());
                let wrong = sections::misplaced::<T>(section, found, from);
                let how = match (wrong.open, wrong.closed) {
                    (true, true) => Some("left open or closed too early"),
                    (true, false) => Some("left open"),
                    (false, true) => Some("closed too early"),
                    (false, false) => None,
                };
                let bracket = if set.is_some() {
                    "a bracket in the value set"
                } else {
                    "a bracket above"
                };
                if let Some(how) = how {
                    message.push_str(&format!(
                        "; if `{found}` is spelled as meant, it is read as part of the wrong section: {bracket} may be {how}"
                    ))
                }
            }
            ron::Error::Eof => {
                message.push_str("; the file ends inside a bracket: one above is left open")
            }
            // Text after the value: the value's own last bracket may be closed too early.
            ron::Error::TrailingCharacters => {
                message.push_str("; or a bracket above is closed too early")
            }
            _ => {}
        }
        ScenarioError::At {
            file: file.to_string(),
            line: line_no,
            col,
            message,
        }
    };
    let mut de = ron::Deserializer::from_str_with_options(src, &options)
        .map_err(|e| spanned(e, String::new(), &[]))?;
    let scenario: T = match serde_path_to_error::deserialize(&mut de) {
        Ok(s) => s,
        Err(e) => {
            let field = field_path(e.path());
            let steps = sections::steps(e.path()).unwrap_or_default();
            let inner = de.span_error(e.into_inner());
            return Err(spanned(inner, field, &steps));
        }
    };
    de.end()
        .map_err(|e| spanned(de.span_error(e), String::new(), &[]))?;
    Ok(scenario)
}

/// The number written wrong that the parser's error `code` at column `col` (1-based, in
/// characters) of `line` is about, the field it is the value of when `line` has `name:` just
/// before it, and its column. The text there (from the first digit, sign or point, up to a
/// space, a comma, a colon, a closing bracket or a comment) must start as a number does and
/// be none ([`is_ron_number`]), and the error one that a number written wrong makes: after a
/// number the parser read, a comma or closing bracket expected where a character that is
/// neither follows it without a space (`5x`, `0.05%`); a number the parser could not read
/// (`0.6.1`, `5-3`, `2e`; its place may be the space before it); or a value's own error about
/// the number the parser made of a prefix (`8b` reads as the float 8). None otherwise
/// (`Pmws()`, `5 x`, `8.5`).
/// A varied value written without its quotes ([`crate::schema::UNQUOTED`]) is reported where
/// the parser stopped in it (inside its name, at its parenthesis, or at the spaces before it);
/// the error is moved to the value's first character, which `field`
/// (`vary.hardware.costs.s[1]`) names.
fn unquoted_at_its_start(
    src: &str,
    mut e: ron::error::SpannedError,
    field: &str,
) -> ron::error::SpannedError {
    if !matches!(&e.code, ron::Error::Message(m) if m == crate::schema::UNQUOTED) {
        return e;
    }
    let value = field
        .strip_prefix("vary.")
        .and_then(|f| f.strip_suffix(']'))
        .and_then(|f| f.rsplit_once('['))
        .and_then(|(path, index)| Some((path, index.parse().ok()?)));
    if let Some((line, col)) =
        value.and_then(|(path, index)| locate::locate_vary_value(src, path, index))
    {
        e.span.start = ron::error::Position { line, col };
    }
    e
}

fn malformed_number(
    line: &str,
    col: usize,
    code: &ron::Error,
) -> Option<(String, Option<String>, usize)> {
    use ron::Error as E;
    let chars: Vec<char> = line.chars().collect();
    let mut at = col.saturating_sub(1).min(chars.len());
    let part = |c: char| c.is_alphanumeric() || "._+-".contains(c);
    let ends = |c: char| c.is_whitespace() || ",)]}:/".contains(c);
    match code {
        E::ExpectedComma
        | E::ExpectedArrayEnd
        | E::ExpectedStructLikeEnd
        | E::ExpectedMapEnd
        | E::ExpectedOptionEnd
        | E::TrailingCharacters => {
            // Right after the number, at a character that neither ends it nor the value.
            let (before, here) = (chars.get(at.checked_sub(1)?)?, chars.get(at)?);
            if !part(*before) || ends(*here) || "([{".contains(*here) {
                return None;
            }
        }
        E::ExpectedFloat
        | E::ExpectedInteger
        | E::InvalidIntegerDigit { .. }
        | E::FloatUnderscore
        | E::UnderscoreAtBeginning
        | E::Message(_) => {
            while chars.get(at).is_some_and(|c| c.is_whitespace()) {
                at += 1;
            }
        }
        _ => return None,
    }
    let mut start = at;
    while start > 0 && part(chars[start - 1]) {
        start -= 1;
    }
    let end = (start..chars.len())
        .find(|&i| ends(chars[i]))
        .unwrap_or(chars.len());
    let token: String = chars[start..end].iter().collect();
    let unsigned = token.trim_start_matches(['+', '-']);
    let unsigned = unsigned.strip_prefix('.').unwrap_or(unsigned);
    if !unsigned.starts_with(|c: char| c.is_ascii_digit()) || is_ron_number(&token) {
        return None;
    }
    // `name:` before it on the line.
    let mut i = start;
    while i > 0 && chars[i - 1].is_whitespace() {
        i -= 1;
    }
    let key = (i > 0 && chars[i - 1] == ':').then(|| {
        let mut j = i - 1;
        while j > 0 && chars[j - 1].is_whitespace() {
            j -= 1;
        }
        let k = (0..j)
            .rev()
            .find(|&k| !(chars[k].is_alphanumeric() || chars[k] == '_'))
            .map_or(0, |k| k + 1);
        chars[k..j].iter().collect::<String>()
    });
    Some((token, key.filter(|k| !k.is_empty()), start + 1))
}

/// Whether `t` is a number as RON writes one: a sign, then `0x`, `0o` or `0b` and digits of
/// that base, or decimal digits with a point and an exponent if any (`5`, `5.`, `.5`, `1e-3`);
/// `_` between digits; a type suffix (`8u8`, `1.5f32`). A number the parser still refuses (out
/// of its type's range) is one: its own error says why.
fn is_ron_number(t: &str) -> bool {
    const INTEGER: [&str; 10] = [
        "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128",
    ];
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    let digits = |s: &str, radix: u32| {
        s.chars().any(|c| c.is_digit(radix)) && s.chars().all(|c| c.is_digit(radix) || c == '_')
    };
    fn integer_suffix(s: &str) -> &str {
        INTEGER.iter().find_map(|x| s.strip_suffix(x)).unwrap_or(s)
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return digits(integer_suffix(rest), radix);
        }
    }
    let unsuffixed = integer_suffix(t);
    if unsuffixed != t {
        return digits(unsuffixed, 10);
    }
    let t = ["f32", "f64"]
        .iter()
        .find_map(|x| t.strip_suffix(x))
        .unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(e) => (&t[..e], Some(&t[e + 1..])),
        None => (t, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let part = |s: &str| s.chars().all(|c| c.is_ascii_digit() || c == '_');
    (digits(whole, 10) || digits(fraction, 10))
        && part(whole)
        && part(fraction)
        && exponent.is_none_or(|x| digits(x.strip_prefix(['+', '-']).unwrap_or(x), 10))
}

/// The word (letters, digits, `_`) that ends just before column `col` (1-based, in characters)
/// of `line`, if one does.
fn word_before(line: &str, col: usize) -> Option<String> {
    let chars: Vec<char> = line.chars().take(col.saturating_sub(1)).collect();
    let start = chars
        .iter()
        .rposition(|c| !(c.is_alphanumeric() || *c == '_'))
        .map_or(0, |i| i + 1);
    let word: String = chars[start..].iter().collect();
    (!word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit())).then_some(word)
}

/// The parser's "Expected comma" at line `line`, column `col` (1-based, in characters) of
/// `src`, in the file's terms: the text before it that a comma should follow, and what it
/// found instead. On the same line (`depth: 2 3`, `algorithm: Pmws Ybwc`) that is two values
/// side by side; on an earlier line (`width: 34` and, below it, `depth: 5`) a line ended
/// without its comma: then also the place where the comma goes (line and column, at the end of
/// that line's text before any comment). None where the text before is not plain (a block
/// comment, or nothing).
fn missing_comma(src: &str, line: usize, col: usize) -> Option<(String, Option<(usize, usize)>)> {
    let at = locate::offset_of(src, line, col)?;
    let start = src[..at].rfind('\n').map_or(0, |n| n + 1);
    let rest = src[at..].lines().next().unwrap_or("");
    // The next word, or the whole string when one starts here.
    let found = if rest.starts_with('"') {
        &rest[..locate::past_string(rest.as_bytes(), 0).min(rest.len())]
    } else {
        let ends = |c: char| c.is_whitespace() || ",)]}:(".contains(c);
        &rest[..rest.find(ends).unwrap_or(rest.len())]
    };
    if found.is_empty() {
        return None;
    }
    let before = src[start..at].trim_end();
    if !before.is_empty() {
        // Two values side by side: the last word before, or the whole string when it ends one
        // (`"a b"`).
        if before.ends_with("*/") {
            return None;
        }
        let last = match before.strip_suffix('"').and_then(|s| s.rfind('"')) {
            Some(open) => &before[open..],
            None => before
                .rsplit(char::is_whitespace)
                .next()
                .unwrap_or(before)
                .trim_start_matches(['[', '(']),
        };
        return Some((
            format!(
                "expected a comma between `{last}` and `{found}`: values and fields are separated by commas"
            ),
            None,
        ));
    }
    // The nearest line above with something before its comment; the comma goes at its end.
    let mut line_start = start;
    let (text, end) = loop {
        let above = &src[..line_start.checked_sub(1)?];
        line_start = above.rfind('\n').map_or(0, |n| n + 1);
        let text = without_comment(&above[line_start..]).trim_end();
        if !text.trim_start().is_empty() {
            break (text.trim_start(), line_start + text.len());
        }
    };
    if text.ends_with("*/") || text.starts_with("/*") {
        return None;
    }
    Some((
        format!("expected a comma after `{text}`, before `{found}`"),
        Some(locate::line_col(src, end)),
    ))
}

/// `line` up to a `//` comment that is not inside a string.
fn without_comment(line: &str) -> &str {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => i = locate::past_string(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => i += 1,
        }
    }
    line
}

/// Line and column (1-based, in characters) just after the last text of `src` that is not
/// in a `// …` comment; None for a file without any.
fn last_text_end(src: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = src.lines().collect();
    lines.iter().enumerate().rev().find_map(|(i, l)| {
        let text = without_comment(l).trim_end();
        (!text.is_empty()).then(|| (i + 1, text.chars().count() + 1))
    })
}

/// The byte offset of the first text at or after `at` that is neither space nor a comment
/// ([`crate::overrides::skip_blank`]); None when the file ends first.
fn next_text(src: &str, at: usize) -> Option<usize> {
    let at = crate::overrides::skip_blank(src, at);
    (at < src.len()).then_some(at)
}

/// The number of characters to insert, delete or replace to turn `a` into `b` (Levenshtein).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let replace = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = replace.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// The hardware fields whose value is a time (`schema::Duration`): an error in one of them gets
/// the hint to write the unit. Every `Duration` field of the schema is here (a test).
const TIME_FIELDS: [&str; 11] = [
    "k",
    "e",
    "q",
    "probe",
    "s",
    "interrupt",
    "read",
    "write",
    "forward_cost",
    "host_char",
    "board_char",
];

/// How to write the value of `field` (or of the field on `line`, the source line of the error)
/// when the parser's own message is about syntax the user did not mean (`k: 8` reads to RON as
/// an identifier `8`): times take their unit, algorithms are written as `gtsim algorithms` lists
/// them.
fn syntax_hint(field: &str, line: &str, col: usize, about_form: bool) -> Option<String> {
    let last = field.rsplit('.').next().unwrap_or("");
    if field.starts_with("hardware") && TIME_FIELDS.contains(&last) {
        return Some(
            "a time is written with its unit: S(1.5), Ms(8), Us(25.65), Ns(100) or Cycles(184)"
                .into(),
        );
    }
    if let Some(hint) = written_as(field).filter(|_| about_form) {
        return Some(hint);
    }
    // The field, or an error past an `algorithm:` key on its line (`Pmws()` fails at `)`).
    let after_key = line
        .find("algorithm:")
        .is_some_and(|at| col > at + "algorithm:".len());
    if last == "algorithm" || after_key {
        return Some(
            "an algorithm is written as `gtsim algorithms` lists it, without quotes: Pmws, TreeSplit(update: true), Ybwc(), …".into(),
        );
    }
    None
}

/// The forms of a value that is one of several named forms (an enum of the schema), for an
/// error in it to name: what the value is, and an example of each form. Each example reads as
/// its field's type (a test).
struct Forms {
    what: &'static str,
    examples: &'static [&'static str],
}

const WORKLOADS: Forms = Forms {
    what: "a workload is",
    examples: &[
        "Synthetic(width: 34, depth: 5, ordering: Random)",
        "Campbell(width: 24, depth: 4, ordering: Random)",
        "Chess(positions: BratkoKopec, depth: 5)",
    ],
};
const ORDERINGS: Forms = Forms {
    what: "an ordering is",
    examples: &[
        "Random",
        "Perfect",
        "StronglyOrdered",
        "FirstBest(p: 0.6)",
        "Geometric(p: 0.5)",
        "Weights([70, 20, 10])",
    ],
};
const SEEDS: Forms = Forms {
    what: "seeds are",
    examples: &["Range(start: 1, count: 24)", "List([1, 2, 3])"],
};
const POSITIONS: Forms = Forms {
    what: "positions are",
    examples: &["BratkoKopec", "Epd(\"file.epd\")"],
};
const LINKS: Forms = Forms {
    what: "a link is",
    examples: &["Sci(rate: 960)", "Serial(rate: 960)", "Ideal"],
};
const NETWORKS: Forms = Forms {
    what: "a network is",
    examples: &[
        "Tree",
        "FullyConnected",
        "Hypercube(forwarding: Hardware, forward_cost: Us(10))",
        "Mesh(forwarding: Hardware, forward_cost: Us(10))",
        "Bus(rate: 1250000)",
    ],
};
const FORWARDINGS: Forms = Forms {
    what: "forwarding is",
    examples: &["Software", "Hardware"],
};
const READS: Forms = Forms {
    what: "a read policy is",
    examples: &["Interrupt", "WhenIdle", "Poll(every: 100)"],
};

/// The [`Forms`] of `field`'s value, if it is one of several named forms. Items of a list
/// (`sweep.ordering[1]`) are written as the field's value.
fn forms_of(field: &str) -> Option<&'static Forms> {
    let path: Vec<&str> = field
        .split('.')
        .map(|step| step.split('[').next().unwrap_or(step))
        .collect();
    Some(match path.as_slice() {
        ["workload"] => &WORKLOADS,
        ["workload" | "sweep", "ordering"] | ["outputs", "timeline", "ordering"] => &ORDERINGS,
        ["sweep", "seeds"] => &SEEDS,
        ["workload", "positions"] => &POSITIONS,
        ["hardware", "link" | "link_below"] => &LINKS,
        ["hardware", "network"] => &NETWORKS,
        ["hardware", "network", "forwarding"] => &FORWARDINGS,
        ["hardware", "reads", "hosts" | "boards"] => &READS,
        _ => return None,
    })
}

/// How the value of `field` is written, when it is one of several named forms: the parser's
/// own words ("expected identifier") do not say which.
fn written_as(field: &str) -> Option<String> {
    let forms = forms_of(field)?;
    Some(format!(
        "{} written {}, names without quotes",
        forms.what,
        crate::util::or_list(forms.examples)
    ))
}

/// `text` with its first letter in lower case when it is a capital followed by a small letter
/// (a word, not a name such as `RON` or `Ms`).
fn lower_first(text: String) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second))
            if first.is_ascii_uppercase() && second.is_ascii_lowercase() =>
        {
            let mut lowered = String::with_capacity(text.len());
            lowered.push(first.to_ascii_lowercase());
            lowered.push_str(&text[1..]);
            lowered
        }
        _ => text,
    }
}

/// Warnings for a workload width, depth or ordering the sweep does not run: `sweep.width`,
/// `sweep.depth` (or `sweep.shape`) and `sweep.ordering` list the values to run in its place, so
/// a workload value missing from the list is never run (as `search.algorithm` beside
/// `sweep.algorithm`). A value the list holds runs, and says nothing.
fn unrun_workload_values(
    cx: &Source,
    sweep: &crate::schema::Sweep,
    trees: &workload::Trees,
) -> Vec<String> {
    let mut warnings = Vec::new();
    // At the workload's field (its width for a (width, depth) pair).
    let mut unrun = |field: &str, value: String, listed_in: &str, values: Vec<String>| {
        warnings.push(cx.warning_at(
            &["workload", field],
            format!(
                "{value} is not run: {listed_in} lists the values to run ({}); add it there to run it too, or write one of them in the workload",
                values.join(", ")
            ),
        ));
    };
    if trees.generator == Generator::Chess {
        return warnings;
    }
    if !sweep.shape.is_empty() {
        let pairs: Vec<(u64, u64)> = sweep.shape.iter().map(|s| (s.width.0, s.depth.0)).collect();
        if !pairs.contains(&(trees.width, trees.depth)) {
            unrun(
                "width",
                format!(
                    "(width, depth) ({}, {}) of the workload",
                    trees.width, trees.depth
                ),
                "sweep.shape",
                pairs.iter().map(|(w, d)| format!("({w}, {d})")).collect(),
            );
        }
    }
    for (field, swept, value) in [
        ("width", &sweep.width, trees.width),
        ("depth", &sweep.depth, trees.depth),
    ] {
        let values: Vec<u64> = swept.iter().map(|v| v.0).collect();
        if !values.is_empty() && !values.contains(&value) {
            unrun(
                field,
                value.to_string(),
                &format!("sweep.{field}"),
                values.iter().map(u64::to_string).collect(),
            );
        }
    }
    if !sweep.ordering.is_empty() && !sweep.ordering.contains(&trees.ordering) {
        unrun(
            "ordering",
            trees.ordering.label(),
            "sweep.ordering",
            sweep.ordering.iter().map(|o| o.label()).collect(),
        );
    }
    warnings
}

#[cfg(test)]
mod tests {
    /// A combination's error names the file once, with the inner error's place when it has one
    /// in the file, then the assignments, then what is wrong.
    #[test]
    fn a_variant_names_the_file_once_then_the_assignments() {
        use super::ScenarioError;
        let variant = |inner: ScenarioError| {
            ScenarioError::Variant {
                file: "s.ron".into(),
                assignments: "--set hardware.link.rate=0".into(),
                inner: Box::new(inner),
            }
            .to_string()
        };
        let at = |file: &str, line, col, message: &str| ScenarioError::At {
            file: file.into(),
            line,
            col,
            message: message.into(),
        };
        // At a place in the file: there, then the assignments.
        assert_eq!(
            variant(at(
                "s.ron",
                35,
                40,
                "hardware.link.rate: must be 1: at least"
            )),
            "s.ron:35:40: with --set hardware.link.rate=0: hardware.link.rate: must be 1: at least"
        );
        // At a place in another file (a machine's): the file, then that place.
        assert_eq!(
            variant(at("m.ron", 3, 9, "link: bad")),
            "s.ron: with --set hardware.link.rate=0: m.ron:3:9: link: bad"
        );
        // Without a place (a field set): the message whole, even when the file's name spells
        // its field's path.
        assert_eq!(
            variant(ScenarioError::File(
                "hardware.link.rate: 0:1 is not a rate".into()
            )),
            "s.ron: with --set hardware.link.rate=0: hardware.link.rate: 0:1 is not a rate"
        );
        let named = ScenarioError::Variant {
            file: "workload.width".into(),
            assignments: "--set workload.width=0".into(),
            inner: Box::new(ScenarioError::File(
                "workload.width: 1:2: must be at least 1".into(),
            )),
        };
        assert_eq!(
            named.to_string(),
            "workload.width: with --set workload.width=0: workload.width: 1:2: must be at least 1"
        );
        // The file's own errors that name it: once.
        assert_eq!(
            variant(ScenarioError::Set {
                file: "s.ron".into(),
                source: crate::overrides::SetError {
                    path: "hardware.nothing".into(),
                    reason: "no such field".into(),
                },
            }),
            "s.ron: with --set hardware.link.rate=0: hardware.nothing: no such field"
        );
        assert_eq!(
            variant(ScenarioError::Read {
                file: "s.ron".into(),
                source: std::io::Error::other("gone"),
            }),
            "s.ron: with --set hardware.link.rate=0: cannot read the scenario: gone"
        );
        // Assignments within assignments, with and without a place.
        let within = |inner| ScenarioError::Variant {
            file: "s.ron".into(),
            assignments: "sweep.depth=4".into(),
            inner: Box::new(inner),
        };
        assert_eq!(
            variant(within(at("s.ron", 2, 5, "sweep.depth: too deep"))),
            "s.ron:2:5: with --set hardware.link.rate=0: with sweep.depth=4: sweep.depth: too deep"
        );
        assert_eq!(
            variant(within(ScenarioError::File("sweep.depth: too deep".into()))),
            "s.ron: with --set hardware.link.rate=0: with sweep.depth=4: sweep.depth: too deep"
        );
    }

    /// An unknown field lists the section's fields, and suggests one only when it is the single
    /// nearest and near enough for the length of what was written.
    #[test]
    fn an_unknown_field_suggests_only_a_clear_nearest() {
        let costs = ["k", "e", "q", "probe", "s", "interrupt"];
        let says = |found| super::unknown_field(found, &costs);
        assert_eq!(
            says("ee"),
            "unknown field `ee` (is `e` meant?); the fields here are `k`, `e`, `q`, `probe`, `s` and `interrupt`"
        );
        // One letter is as near to `k` as to `e`, `q` or `s`: no guess.
        assert!(!says("x").contains("meant"), "{}", says("x"));
        // Three letters off `probe` is too far for five letters.
        assert!(!says("pxxxe").contains("meant"), "{}", says("pxxxe"));
        assert!(
            says("prboe").contains("(is `probe` meant?)"),
            "{}",
            says("prboe")
        );
        assert_eq!(
            super::unknown_field("x", &[]),
            "unknown field `x`: this section has no fields"
        );
    }

    /// Alike combinations: a pair that differs in one field's value is named by that field
    /// (alike with every value of the others, or only with this pair's), before any pair that
    /// differs in more.
    #[test]
    fn alike_combinations_are_named_by_the_field_whose_values_are_alike() {
        use super::{alike_pair, Alike};
        // Two fields of two values each, the first changing slowest.
        let indices = vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]];
        let pairs = |alike: &'static [(usize, usize)]| {
            move |i: usize, j: usize| alike.contains(&(i, j)) || alike.contains(&(j, i))
        };
        assert_eq!(alike_pair(&indices, pairs(&[])), None);
        // The second field's values alike with either value of the first.
        assert_eq!(
            alike_pair(&indices, pairs(&[(0, 1), (2, 3)])),
            Some(Alike::Values {
                i: 0,
                j: 1,
                field: 1,
                first: 0,
                second: 1,
                everywhere: true
            })
        );
        // Only with the first field's second value.
        assert_eq!(
            alike_pair(&indices, pairs(&[(2, 3)])),
            Some(Alike::Values {
                i: 2,
                j: 3,
                field: 1,
                first: 0,
                second: 1,
                everywhere: false
            })
        );
        // A pair that differs in both fields comes after one that differs in one.
        assert_eq!(
            alike_pair(&indices, pairs(&[(1, 2), (0, 2)])),
            Some(Alike::Values {
                i: 0,
                j: 2,
                field: 0,
                first: 0,
                second: 1,
                everywhere: false
            })
        );
        assert_eq!(
            alike_pair(&indices, pairs(&[(1, 2), (0, 3)])),
            Some(Alike::Combinations { i: 1, j: 2 })
        );
    }

    /// A field given a `Duration` type in the schema and left out of [`super::TIME_FIELDS`]
    /// would lose the hint to write a time with its unit.
    #[test]
    fn every_time_field_of_the_schema_gets_the_unit_hint() {
        let schema = include_str!("../schema.rs");
        let mut found = Vec::new();
        for line in schema.lines() {
            let line = line.trim().trim_start_matches("pub ");
            if let Some((name, ty)) = line.split_once(':') {
                let ty = ty.trim().trim_end_matches(',');
                if ty == "Duration" && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    found.push(name.to_string());
                }
            }
        }
        found.sort();
        found.dedup();
        let mut listed: Vec<String> = super::TIME_FIELDS.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(found, listed);
    }

    /// `is_ron_number` agrees with the parser itself: a text it reads whole as a number is one,
    /// a text it refuses or reads only in part is not (but for a number out of its type's
    /// range, which the parser's own error explains).
    #[test]
    fn a_ron_number_is_what_the_parser_reads_as_one() {
        for t in [
            "5", "+5", "-5", "5.", ".5", "-.5", "0.25", "1e3", "1E-3", "2.5e+2", "1_000", "0x1F",
            "0o17", "0b101", "-0x10", "8u8", "8i32", "8u64", "1.5f32", "2f64", "8_u8", "5x", "5-3",
            "0.6.1", "0.5e", "2e", "8b", "8bps", "8f", "0x1G", "0b102", "0.05%", "1e5x", "8u7",
            "1..5", "5e5e5",
        ] {
            let parsed = matches!(ron::from_str::<ron::Value>(t), Ok(ron::Value::Number(_)));
            assert_eq!(super::is_ron_number(t), parsed, "{t}");
        }
        // Out of range for its suffix: a number, refused by the parser for its range.
        assert!(ron::from_str::<ron::Value>("300u8").is_err());
        assert!(super::is_ron_number("300u8"));
    }

    /// The parser's capitalised words are put in lower case, a name is not, and a value's own
    /// message keeps the user's text as written (`Hardware.link.rate is varied twice`).
    #[test]
    fn the_parsers_words_in_lower_case_and_the_users_as_written() {
        assert_eq!(
            super::lower_first("Expected identifier".into()),
            "expected identifier"
        );
        assert_eq!(super::lower_first("RON ends".into()), "RON ends");
        assert_eq!(super::lower_first("`Ms` unknown".into()), "`Ms` unknown");
        let e = super::deserialize_as::<crate::schema::Vary>(
            "{\"Hardware.link.rate\": [960], \"Hardware.link.rate\": [480]}",
            "v.ron",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("Hardware.link.rate is varied twice"), "{e}");
    }

    /// Every example an error names for a field of several named forms reads as that field's
    /// type, and every such field of the schema has its forms (items of a list too).
    #[test]
    fn every_form_an_error_names_reads_as_its_field() {
        use crate::schema::{
            Forwarding, Link, Network, Ordering, Positions, Read, Seeds, Workload,
        };
        fn reads_as<T: serde::de::DeserializeOwned>(field: &str) {
            let forms = super::forms_of(field).unwrap_or_else(|| panic!("{field}: no forms"));
            for example in forms.examples {
                if let Err(e) = ron::from_str::<T>(example) {
                    panic!("{field}: the example {example} does not read: {e}");
                }
            }
            let hint = super::written_as(field).unwrap();
            assert!(hint.starts_with(forms.what), "{hint}");
            assert!(forms.examples.iter().all(|x| hint.contains(x)), "{hint}");
        }
        reads_as::<Workload>("workload");
        for field in [
            "workload.ordering",
            "sweep.ordering",
            "sweep.ordering[2]",
            "outputs.timeline.ordering",
        ] {
            reads_as::<Ordering>(field);
        }
        reads_as::<Seeds>("sweep.seeds");
        reads_as::<Positions>("workload.positions");
        reads_as::<Link>("hardware.link");
        reads_as::<Link>("hardware.link_below");
        reads_as::<Network>("hardware.network");
        reads_as::<Forwarding>("hardware.network.forwarding");
        reads_as::<Read>("hardware.reads.hosts");
        reads_as::<Read>("hardware.reads.boards");
        // Not a field of named forms: a number, a list of names, a section.
        for field in [
            "workload.width",
            "sweep.positions[0]",
            "hardware",
            "sweep.seeds.count",
        ] {
            assert!(super::forms_of(field).is_none(), "{field}");
        }
        // Only for an error about the value's form: a comma missing inside it gets none.
        assert!(super::syntax_hint("workload.ordering", "", 1, true).is_some());
        assert!(super::syntax_hint("workload.ordering", "", 1, false).is_none());
        // The last two forms are joined by "or".
        assert_eq!(
            super::written_as("hardware.network.forwarding").unwrap(),
            "forwarding is written Software or Hardware, names without quotes"
        );
    }
}
