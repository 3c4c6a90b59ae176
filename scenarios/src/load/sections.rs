//! The sections of the scenario schema around a place in it, for the hint at a field the file
//! gives in a section that lacks it: a bracket left open reads the fields of an enclosing
//! section as the inner one's, and a bracket closed too early reads an inner section's fields
//! as the enclosing one's. So the hint is given only when the field is one of those.
//!
//! The schema is read from the types' own `Deserialize` (the field and variant names serde
//! derives), by a probe deserializer that follows a path into the type and says what it meets:
//! no second list of fields to keep in step with `schema.rs`.

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// A step into a value: a field of a section (or a map's key), a variant of an enum, an item
/// of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Field(String),
    Variant(String),
    Item,
}

/// The steps of the path serde_path_to_error gives; None when it has a step it cannot name.
pub(super) fn steps(path: &serde_path_to_error::Path) -> Option<Vec<Step>> {
    use serde_path_to_error::Segment;
    path.iter()
        .map(|seg| match seg {
            Segment::Map { key } => Some(Step::Field(key.clone())),
            Segment::Enum { variant } => Some(Step::Variant(variant.clone())),
            Segment::Seq { .. } => Some(Step::Item),
            Segment::Unknown => None,
        })
        .collect()
}

/// Where a bracket may be wrong for the field `found` that the section at `path` (in `T`) does
/// not have: `open` when it is a field of a section enclosing that one, or a variant of a list
/// enclosing it (`[FirstBest(p: 0.5, Random]`), at `from` field steps or deeper (the sections
/// of the same text: a value set by `--set` or `vary` starts below the file's); `closed` when
/// it is a field of a section inside that one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Misplaced {
    pub open: bool,
    pub closed: bool,
}

/// See [`Misplaced`].
pub(super) fn misplaced<T: DeserializeOwned>(path: &[Step], found: &str, from: usize) -> Misplaced {
    let (along, _) = probe::<T>(path);
    // The sections (and lists' variants) on the way, the one at the end of the path left out
    // (it lacks the field).
    let open = along
        .iter()
        .filter(|a| a.depth >= from && a.at < path.len())
        .any(|a| a.names.contains(&found));
    let closed = fields_inside::<T>(path).contains(found);
    Misplaced { open, closed }
}

/// The fields of every section inside the one at `path` (its own left out), at any depth:
/// every place under it probed (a few hundred under the whole scenario, well under a
/// millisecond; only when an error is reported).
fn fields_inside<T: DeserializeOwned>(path: &[Step]) -> BTreeSet<&'static str> {
    let mut fields = BTreeSet::new();
    let mut todo: Vec<Vec<Step>> = vec![path.to_vec()];
    while let Some(at) = todo.pop() {
        let (_, kind) = probe::<T>(&at);
        // Far deeper than the schema goes: a type that holds itself.
        if at.len() > path.len() + 16 {
            continue;
        }
        let next = |step: Step| [&at[..], &[step][..]].concat();
        match kind {
            Kind::Section(names) => {
                if at.len() > path.len() {
                    fields.extend(names.iter().copied());
                }
                todo.extend(names.iter().map(|f| next(Step::Field(f.to_string()))));
            }
            Kind::Enum(names) => {
                todo.extend(names.iter().map(|v| next(Step::Variant(v.to_string()))));
            }
            Kind::List => todo.push(next(Step::Item)),
            Kind::Other => {}
        }
    }
    fields
}

/// What the value at the end of a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A section (a struct, or an enum's variant with fields): its fields.
    Section(&'static [&'static str]),
    /// An enum: its variants.
    Enum(&'static [&'static str]),
    /// A list.
    List,
    /// Anything else: a number, a string, a map, ….
    Other,
}

/// A section met on the way along a path, or an enum that is an item of a list.
#[derive(Clone, Copy, Debug)]
struct Around {
    /// Its field steps from the top.
    depth: usize,
    /// Its fields, or the enum's variants.
    names: &'static [&'static str],
    /// Its place in the path: the number of steps taken to reach it.
    at: usize,
}

/// What a probe met: the sections (and lists' enums) on the way, and what is at the end.
#[derive(Default)]
struct Met {
    along: Vec<Around>,
    end: Option<Kind>,
}

/// The sections (and lists' enums) met following `path` into `T`, and the kind of value at its
/// end (Other when the path does not lead anywhere).
fn probe<T: DeserializeOwned>(path: &[Step]) -> (Vec<Around>, Kind) {
    let met = RefCell::new(Met::default());
    // It always fails (nothing is read), or succeeds with defaults: only what it met counts.
    let _ = T::deserialize(Probe {
        path,
        at: 0,
        met: &met,
    });
    let met = met.into_inner();
    (met.along, met.end.unwrap_or(Kind::Other))
}

/// A deserializer that reads nothing: it follows `path[at..]` into the type asking for it,
/// noting in `met` the sections on the way and what is at the end.
#[derive(Clone, Copy)]
struct Probe<'p> {
    path: &'p [Step],
    at: usize,
    met: &'p RefCell<Met>,
}

type Error = de::value::Error;

fn stop<T>() -> Result<T, Error> {
    Err(de::Error::custom("probe"))
}

impl<'p> Probe<'p> {
    fn next(self) -> Option<&'p Step> {
        self.path.get(self.at)
    }

    fn step(self) -> Probe<'p> {
        Probe {
            at: self.at + 1,
            ..self
        }
    }

    fn depth(self) -> usize {
        self.path[..self.at]
            .iter()
            .filter(|s| matches!(s, Step::Field(_)))
            .count()
    }

    /// Notes a section (its fields) or a list's enum (its variants) on the way.
    fn around(self, names: &'static [&'static str]) {
        let depth = self.depth();
        self.met.borrow_mut().along.push(Around {
            depth,
            names,
            at: self.at,
        });
    }

    fn end(self, kind: Kind) -> Result<(), Error> {
        if self.next().is_none() {
            self.met.borrow_mut().end = Some(kind);
        }
        Ok(())
    }

    /// A section with `fields`: noted, and entered by the path's next field.
    fn section<'de, V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.around(fields);
        self.end(Kind::Section(fields))?;
        match self.next() {
            Some(Step::Field(key)) => visitor.visit_map(Entry {
                key: Some(key.as_str()),
                value: self.step(),
            }),
            _ => stop(),
        }
    }
}

/// A map of one entry: the field `key`, whose value is probed by `value`.
struct Entry<'p> {
    key: Option<&'p str>,
    value: Probe<'p>,
}

impl<'de> de::MapAccess<'de> for Entry<'_> {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.key.take() {
            Some(key) => seed
                .deserialize(IntoDeserializer::<Error>::into_deserializer(key))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(self.value)
    }
}

/// A list of one item, probed by `item`.
struct Item<'p> {
    item: Option<Probe<'p>>,
}

impl<'de> de::SeqAccess<'de> for Item<'_> {
    type Error = Error;
    fn next_element_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        match self.item.take() {
            Some(p) => seed.deserialize(p).map(Some),
            None => Ok(None),
        }
    }
}

/// The variant `name` of an enum, its value probed by `value`.
struct Variant<'p> {
    name: &'p str,
    value: Probe<'p>,
}

impl<'de, 'p> de::EnumAccess<'de> for Variant<'p> {
    type Error = Error;
    type Variant = Probe<'p>;
    fn variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Probe<'p>), Error> {
        let v = seed.deserialize(IntoDeserializer::<Error>::into_deserializer(self.name))?;
        Ok((v, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for Probe<'_> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        self.end(Kind::Other)?;
        stop()
    }
    fn newtype_variant_seed<S: de::DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.section(fields, visitor)
    }
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        self.end(Kind::Other)?;
        stop()
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.section(fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.end(Kind::Enum(variants))?;
        if self.at > 0 && self.path[self.at - 1] == Step::Item {
            self.around(variants);
        }
        match self.next() {
            Some(Step::Variant(name)) => visitor.visit_enum(Variant {
                name,
                value: self.step(),
            }),
            _ => stop(),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.end(Kind::List)?;
        match self.next() {
            Some(Step::Item) => visitor.visit_seq(Item {
                item: Some(self.step()),
            }),
            _ => stop(),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    // Neither takes a step: the value inside is probed where it is.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct map identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Hardware, Scenario};

    fn field(f: &str) -> Step {
        Step::Field(f.into())
    }

    #[test]
    fn the_schema_is_read_from_the_types() {
        // hardware.costs: enclosed by hardware and the scenario, holding no section.
        let costs = [field("hardware"), field("costs")];
        let (along, kind) = probe::<Scenario>(&costs);
        assert_eq!(along.len(), 3);
        assert!(along[0].names.contains(&"workload") && along[1].names.contains(&"link"));
        assert!(matches!(kind, Kind::Section(f) if f.contains(&"interrupt")));
        assert!(fields_inside::<Scenario>(&costs).is_empty());
        // Synthetic's fields are inside the scenario, not inside Campbell's workload.
        let campbell = [field("workload"), Step::Variant("Campbell".into())];
        assert!(fields_inside::<Scenario>(&[]).contains("value_spread"));
        assert!(!fields_inside::<Scenario>(&campbell).contains("value_spread"));
        assert!(fields_inside::<Scenario>(&[field("sweep")]).contains("start"));
        assert!(fields_inside::<Hardware>(&[]).contains("rate"));
    }

    #[test]
    fn a_field_is_misplaced_only_beside_a_section_that_has_it() {
        let costs = [field("hardware"), field("costs")];
        let at = |path: &[Step], found: &str, from: usize| misplaced::<Scenario>(path, found, from);
        let open = Misplaced {
            open: true,
            closed: false,
        };
        let closed = Misplaced {
            open: false,
            closed: true,
        };
        // A field of hardware, or of the scenario, read in costs: a bracket left open.
        assert_eq!(at(&costs, "link", 0), open);
        assert_eq!(at(&costs, "sweep", 0), open);
        // ... unless the sections above are outside the text (a value set at hardware.costs).
        assert_eq!(at(&costs, "link", 2), Misplaced::default());
        // A field of nothing, of nothing around, or of a sibling variant: no bracket explains it.
        assert_eq!(at(&costs, "z", 0), Misplaced::default());
        assert_eq!(at(&costs, "bogus", 0), Misplaced::default());
        let campbell = [field("workload"), Step::Variant("Campbell".into())];
        assert_eq!(at(&campbell, "value_spread", 0), Misplaced::default());
        // The next item of a list, read in an item left open.
        let item = [field("sweep"), field("ordering"), Step::Item];
        let first_best = [&item[..], &[Step::Variant("FirstBest".into())]].concat();
        assert_eq!(at(&first_best, "Random", 0), open);
        // A workload field at the top: a bracket closed too early.
        assert_eq!(at(&[], "value_spread", 0), closed);
        // A machine file is a hardware section: the scenario's fields are not around it.
        assert_eq!(misplaced::<Hardware>(&[], "name", 0), Misplaced::default());
        assert_eq!(misplaced::<Hardware>(&[field("costs")], "network", 0), open);
    }
}
