//! The one search adapter of the schemes: a search run as a role's search, its result re-mapped
//! into the role's output type.
//!
//! A role's [`sim_hw::Program::Search`] hands its result to `on_done` as the role's `Out`; the
//! sequential searches end with a [`Value`](crate::Value). [`Adapted`] lets every costed step
//! pass through unchanged (so every cost stays what the search charges) and maps only
//! `Step::Done`. Searches that do more than re-map (pmws's re-search on a fail-high) use
//! [`result_of`] for the pass-through.

use sim_hw::{Search, Step};

/// `search` run as a role's search: its steps pass through, and its result `v` comes back as
/// `done(&search, v)` (which may read the finished search, e.g. its OPEN list's peak).
pub struct Adapted<S: Search, O> {
    search: S,
    done: fn(&S, S::Out) -> O,
}

impl<S: Search, O> Adapted<S, O> {
    /// `search`, whose result `done` re-maps.
    pub fn new(search: S, done: fn(&S, S::Out) -> O) -> Self {
        Adapted { search, done }
    }
    /// The search itself.
    pub fn inner(&self) -> &S {
        &self.search
    }
    /// The search itself, to change it while it runs (a window update).
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.search
    }
}

impl<S: Search, O> Search for Adapted<S, O> {
    type Out = O;
    #[inline]
    fn step(&mut self) -> Step<O> {
        match result_of(self.search.step()) {
            Ok(v) => Step::Done((self.done)(&self.search, v)),
            Err(step) => step,
        }
    }

    fn fork(&self) -> Option<Self> {
        Some(Adapted {
            search: self.search.fork()?,
            done: self.done,
        })
    }

    fn run_to_end(&mut self) -> Option<(O, sim_hw::Tally)> {
        let (v, tally) = self.search.run_to_end()?;
        Some(((self.done)(&self.search, v), tally))
    }
}

/// `.map_done(f)` on any search: [`Adapted::new`].
pub trait SearchExt: Search + Sized {
    /// This search with its result re-mapped by `done`.
    fn map_done<O>(self, done: fn(&Self, Self::Out) -> O) -> Adapted<Self, O> {
        Adapted::new(self, done)
    }
}

impl<S: Search> SearchExt for S {}

/// A step's result (`Ok`), or the costed step it is, re-typed for the caller's search (`Err`).
#[inline]
pub fn result_of<V, O>(step: Step<V>) -> Result<V, Step<O>> {
    match step {
        Step::Interior => Err(Step::Interior),
        Step::Leaf { quiescence } => Err(Step::Leaf { quiescence }),
        Step::Probe => Err(Step::Probe),
        Step::Done(v) => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scripted steps: an interior node, a probe, a leaf with 3 quiescence nodes, then 7.
    struct Script(Vec<Step<i32>>);
    impl Search for Script {
        type Out = i32;
        fn step(&mut self) -> Step<i32> {
            self.0.remove(0)
        }
    }

    #[test]
    fn steps_pass_through_and_only_the_result_is_mapped() {
        let script = Script(vec![
            Step::Interior,
            Step::Probe,
            Step::Leaf { quiescence: 3 },
            Step::Done(7),
        ]);
        let mut s = script.map_done(|s, v| (v, s.0.len()));
        assert!(matches!(s.step(), Step::Interior));
        assert!(matches!(s.step(), Step::Probe));
        assert!(matches!(s.step(), Step::Leaf { quiescence: 3 }));
        assert!(matches!(s.step(), Step::Done((7, 0))));
        assert!(s.inner().0.is_empty());
    }
}
