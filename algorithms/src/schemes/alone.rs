//! A sequential search as a scheme: one processor searches the whole tree on its own.
//!
//! The sequential algorithms the seed papers compare (alpha-beta, palphabeta, SCOUT, NegaScout,
//! SSS*, DUAL*, staged SSS*, INS, PNS and Campbell's hybrids) run on the same machine as the
//! parallel schemes, as the only processor of a one-processor tree. Each interior node costs `k`
//! and each leaf `e`, as everywhere, so with Campbell's costs (EVALTIME = 1) a run's elapsed time
//! is its number of bottom positions (NBP, thesis section 2.2), and its node counts and the
//! peak size of its OPEN list ([`SequentialSearch::open_peak`]) come back with the machine's
//! statistics.

use crate::schemes::adapter::{Adapted, SearchExt};
use crate::schemes::scheme::{DeployError, Figures, Scheme};
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, Value, INF};
use sim_core::ProcId;
use sim_hw::{Cx, ProcessorTree, Program};
use std::marker::PhantomData;

/// A sequential search run as a scheme on a one-processor tree: `make(tree, root, depth)` builds
/// the search (full window), the processor runs it to its end, and the root value is its result.
pub struct Alone<F> {
    name: String,
    depth: u32,
    make: F,
}

impl<F> Alone<F> {
    /// The search `make` builds, named `name` in results, to `depth` plies.
    pub fn new(name: impl Into<String>, depth: u32, make: F) -> Self {
        Alone {
            name: name.into(),
            depth,
            make,
        }
    }
}

/// The search of an [`Alone`] scheme: the sequential search, reporting at its end its value
/// and the peak size of its OPEN list ([`SequentialSearch::open_peak`]).
pub type Reported<S> = Adapted<S, (Value, usize)>;

/// The one role of an [`Alone`] scheme.
pub struct AloneRole<'t, T: GameTree, S> {
    search: Option<S>,
    result: Option<(Value, usize)>,
    _tree: PhantomData<&'t T>,
}

impl<'t, T: GameTree, S: SequentialSearch<'t, T>> Program for AloneRole<'t, T, S> {
    type Msg = NoMsg;
    type Out = (Value, usize);
    type Search = Reported<S>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if let Some(s) = self.search.take() {
            cx.search_isolated(s.map_done(|s, v| (v, s.open_peak())));
        }
    }
    fn on_message(&mut self, _: ProcId, _: NoMsg, cx: &mut Cx<Self>) {
        cx.fail("a sequential search received a message");
    }
    fn on_done(&mut self, out: (Value, usize), _: &mut Cx<Self>) {
        self.result = Some(out);
    }
}

/// The message type of a one-processor scheme: there are none.
#[derive(Clone, Debug)]
pub enum NoMsg {}

impl sim_hw::Message for NoMsg {
    fn kind(&self) -> sim_core::MsgKind {
        match *self {}
    }
    fn bytes(&self) -> u64 {
        match *self {}
    }
}

impl<'t, T, S, F> Scheme<'t, T> for Alone<F>
where
    T: GameTree + 't,
    S: SequentialSearch<'t, T>,
    F: Fn(&'t T, T::Node, u32) -> S,
{
    type Role = AloneRole<'t, T, S>;
    fn name(&self) -> String {
        self.name.clone()
    }
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        if ptree.len() != 1 {
            return Err(DeployError::Sequential {
                scheme: self.name.clone(),
                processors: ptree.len(),
            });
        }
        Ok(vec![AloneRole {
            search: Some((self.make)(tree, tree.root(), self.depth)),
            result: None,
            _tree: PhantomData,
        }])
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first()?.result.map(|r| r.0)
    }
    /// `open_peak`: the OPEN list's peak; not reported by the depth-first searches (which keep
    /// none: a peak of 0).
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        let peak = roles.first().and_then(|r| r.result).map(|r| r.1);
        match peak {
            Some(p) if p > 0 => Figures::default().with("open_peak", p as u64),
            _ => Figures::default(),
        }
    }
}

/// The full-window search a sequential algorithm starts with.
pub fn full_window<'t, T: GameTree, S: SequentialSearch<'t, T>>(
    tree: &'t T,
    node: T::Node,
    depth: u32,
) -> S {
    S::new(tree, node, -INF, INF, depth)
}
