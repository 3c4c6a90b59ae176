//! A search as the machine runs it: a resumable computation that advances one costed step at a
//! time, so that simulated time passes node by node and a message read in the middle of a
//! search reaches it at the simulated time it is read.

/// What one step of a [`Search`] did. The machine charges its cost from the [`crate::CostModel`]
/// (`k` for an interior node, `e` for a horizon leaf) and counts it.
///
/// A step's effect on the search's state happens when the step *starts*; its cost is the
/// simulated time that then passes before the next step can start. A message read while a step
/// is in progress therefore sees the state after that step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<O> {
    /// Generated the moves of an interior node (cost `k`).
    Interior,
    /// Evaluated a horizon leaf; `quiescence` counts the quiescence nodes the evaluation searched
    /// (0 for synthetic trees), for the `quiescence_nodes` column and their cost.
    Leaf {
        /// Quiescence nodes searched by this evaluation.
        quiescence: u32,
    },
    /// Probed or stored into a transposition table the processor holds itself (cost `probe`).
    Probe,
    /// The search is over, with this result. Costs nothing.
    Done(O),
}

/// A resumable search that the machine advances step by step.
///
/// Implementations keep their stack as data (no Rust recursion) so they can stop between any
/// two steps. The machine calls [`Search::step`] until it returns [`Step::Done`]; between two
/// calls, a program reacting to a message may change the search (narrow its window, abort it)
/// through [`crate::Cx::search_mut`].
pub trait Search {
    /// The result handed to [`crate::Program::on_done`] when the search ends.
    type Out;
    /// Executes the next step.
    fn step(&mut self) -> Step<Self::Out>;

    /// A copy of the search as it stands, from which the same steps follow: the machine keeps
    /// one to go back to when it runs the search ahead of what could reach it (optimistic
    /// execution, ARCHITECTURE.md "Batching"). None (the default) for a search that cannot be
    /// copied, e.g. one that shares state with its program or another processor; the machine
    /// then runs it conservatively. A copy must own everything a step changes: stepping it must
    /// not change anything the original can see.
    fn fork(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// Runs the search from its start to its end at once, by a faster route than step by step
    /// (a recursive search), if it has one and has taken no step yet: its result and the steps
    /// it took, which must be exactly the steps [`Search::step`] would have taken. For searches
    /// nothing can reach, and for searches run optimistically, whose checkpoint is then the
    /// fresh search (ARCHITECTURE.md, "Searches run at once"). None (the default): step by step.
    fn run_to_end(&mut self) -> Option<(Self::Out, Tally)> {
        None
    }
}

/// The steps of a search run at once ([`Search::run_to_end`]): interior nodes (each a
/// [`Step::Interior`]), horizon leaves (each a [`Step::Leaf`]) and the quiescence nodes those
/// leaves searched in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Interior nodes.
    pub interior: u64,
    /// Horizon leaves.
    pub leaves: u64,
    /// Quiescence nodes, summed over the leaves.
    pub quiescence: u64,
}

/// A search that never runs: for programs that only use fixed-cost computations
/// ([`crate::Cx::compute`]). It cannot be constructed.
#[derive(Debug)]
pub struct NoSearch<O>(std::convert::Infallible, std::marker::PhantomData<O>);

impl<O> Search for NoSearch<O> {
    type Out = O;
    fn step(&mut self) -> Step<O> {
        match self.0 {}
    }
}

/// Runs `search` to its end on a processor with nothing else to do, charging each step as the
/// machine would (`k` per interior node, `e + n q` per horizon leaf that searched n quiescence nodes): the result and the work it took.
/// For sequential searches outside a machine (tests, baselines, benchmarks).
pub fn run_alone<S: Search>(search: &mut S, costs: &crate::CostModel) -> (S::Out, crate::Work) {
    let mut work = crate::Work::default();
    loop {
        match search.step() {
            Step::Interior => {
                work.time += costs.k;
                work.nodes.interior += 1;
            }
            Step::Leaf { quiescence } => {
                let cost = costs
                    .leaf(quiescence)
                    .expect("a leaf's time fits in simulated time");
                work.time += cost;
                work.nodes.leaves += 1;
                work.nodes.leaf_ns += cost.as_nanos();
                work.nodes.quiescence += quiescence as u64;
            }
            Step::Probe => {
                work.time += costs.probe;
                work.nodes.probes += 1;
            }
            Step::Done(out) => return (out, work),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CostModel;
    use sim_core::SimTime;

    /// Two interior nodes, then leaves that searched 0, 3 and 5 quiescence nodes.
    struct Script(Vec<Step<u8>>);

    impl Search for Script {
        type Out = u8;
        fn step(&mut self) -> Step<u8> {
            if self.0.is_empty() {
                Step::Done(7)
            } else {
                self.0.remove(0)
            }
        }
    }

    #[test]
    fn a_leaf_costs_e_plus_q_per_quiescence_node() {
        let mut s = Script(vec![
            Step::Interior,
            Step::Interior,
            Step::Leaf { quiescence: 0 },
            Step::Leaf { quiescence: 3 },
            Step::Leaf { quiescence: 5 },
        ]);
        let costs = CostModel {
            k: SimTime(10),
            e: SimTime(100),
            q: SimTime(7),
            probe: SimTime::ZERO,
            s: SimTime::ZERO,
            interrupt: SimTime::ZERO,
        };
        let (out, work) = run_alone(&mut s, &costs);
        assert_eq!(out, 7);
        assert_eq!(work.nodes.leaves, 3);
        assert_eq!(work.nodes.quiescence, 8);
        // 2 k + 3 e + 8 q.
        assert_eq!(work.time, SimTime(2 * 10 + 3 * 100 + 8 * 7));
        assert_eq!(work.nodes.leaf_ns, 3 * 100 + 8 * 7);
        assert_eq!(costs.leaf(3), Some(SimTime(121)));
        let huge = CostModel {
            q: SimTime(u64::MAX),
            ..costs
        };
        assert_eq!(huge.leaf(2), None);
    }
}
