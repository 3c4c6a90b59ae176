//! Searches in stages: the top stage searches the first plies, and each of its horizon nodes is
//! valued by a search of the next stage, with the window the stage above gives it, down to the
//! tree's horizon, where nodes are evaluated statically. SSS* and DUAL* are one stage; staged
//! SSS* is SSS* stages of a fixed depth; Campbell's hybrids are an SSS* stage and an alpha-beta
//! stage, in either order (thesis section 2.1).

use super::ab::AbStage;
use super::open::{CoreStep, OpenList};
use crate::search::sequential::{Narrow, ABORTED};
use crate::trees::{GameTree, Value};
use sim_hw::Step;

/// The algorithm of one stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// SSS* with Campbell's modification.
    Sss,
    /// DUAL*: SSS* with the roles of the players exchanged.
    Dual,
    /// Fail-soft alpha-beta.
    AlphaBeta,
}

/// One stage: an algorithm and the plies it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stage {
    pub(crate) kind: Kind,
    pub(crate) depth: u32,
}

/// The search running one stage's subtree.
enum Engine<'t, T: GameTree> {
    Open(OpenList<'t, T>),
    Ab(AbStage<'t, T>),
}

impl<'t, T: GameTree> Engine<'t, T> {
    fn new(tree: &'t T, stage: Stage, node: T::Node, alpha: Value, beta: Value) -> Self {
        match stage.kind {
            Kind::Sss => Engine::Open(OpenList::new(tree, node, alpha, beta, stage.depth, false)),
            Kind::Dual => Engine::Open(OpenList::new(tree, node, alpha, beta, stage.depth, true)),
            Kind::AlphaBeta => Engine::Ab(AbStage::new(tree, node, alpha, beta, stage.depth)),
        }
    }

    fn advance(&mut self) -> CoreStep<T::Node> {
        match self {
            Engine::Open(e) => e.advance(),
            Engine::Ab(e) => e.advance(),
        }
    }

    fn resolve(&mut self, v: Value) {
        match self {
            Engine::Open(e) => e.resolve(v),
            Engine::Ab(e) => e.resolve(v),
        }
    }

    fn held(&self) -> usize {
        match self {
            Engine::Open(e) => e.held(),
            Engine::Ab(_) => 0,
        }
    }

    fn narrow(&mut self, change: Narrow) {
        match self {
            Engine::Open(e) => match change {
                Narrow::RaiseAlpha(a) => e.raise_alpha(a),
                Narrow::LowerBeta(b) => e.lower_beta(b),
            },
            Engine::Ab(e) => e.narrow(change),
        }
    }

    fn pending_window(&self) -> Option<(Value, Value)> {
        match self {
            Engine::Open(e) => e.pending_window(),
            Engine::Ab(e) => e.pending_window(),
        }
    }
}

/// A staged search as a resumable machine (see the module doc): a stack of engines, one per
/// stage entered, the deepest one running.
pub(crate) struct Pipeline<'t, T: GameTree> {
    tree: &'t T,
    stages: Vec<Stage>,
    engines: Vec<Engine<'t, T>>,
    window: (Value, Value),
    aborted: bool,
    result: Option<Value>,
    /// The largest number of OPEN entries held at once, over all stages.
    peak: usize,
}

impl<'t, T: GameTree> Pipeline<'t, T> {
    /// The search of `node` with the window `(alpha, beta)` by `stages`, top first. Stages of
    /// depth 0 are dropped (an empty list becomes one stage of depth 0 of the first kind).
    pub(crate) fn new(
        tree: &'t T,
        node: T::Node,
        alpha: Value,
        beta: Value,
        stages: &[Stage],
    ) -> Self {
        let mut kept: Vec<Stage> = stages.iter().copied().filter(|s| s.depth > 0).collect();
        if kept.is_empty() {
            kept.push(Stage {
                kind: stages.first().map_or(Kind::Sss, |s| s.kind),
                depth: 0,
            });
        }
        let top = Engine::new(tree, kept[0], node, alpha, beta);
        let peak = top.held();
        Pipeline {
            tree,
            stages: kept,
            engines: vec![top],
            window: (alpha, beta),
            aborted: false,
            result: None,
            peak,
        }
    }

    /// Narrows the root window and passes the narrowed windows down to the stages in progress.
    pub(crate) fn narrow(&mut self, change: Narrow) {
        if self.result.is_some() {
            return;
        }
        change.apply(0, &mut self.window.0, &mut self.window.1);
        self.engines[0].narrow(change);
        for i in 1..self.engines.len() {
            if let Some((a, b)) = self.engines[i - 1].pending_window() {
                self.engines[i].narrow(Narrow::RaiseAlpha(a));
                self.engines[i].narrow(Narrow::LowerBeta(b));
            }
        }
    }

    /// The root window as narrowed.
    pub(crate) fn window(&self) -> (Value, Value) {
        self.window
    }

    /// Ends the search at the next step.
    pub(crate) fn abort(&mut self) {
        self.aborted = true;
    }

    /// Whether the search was aborted.
    pub(crate) fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// The largest number of OPEN entries held at once (all stages together).
    pub(crate) fn peak(&self) -> usize {
        self.peak
    }

    #[inline]
    fn note_peak(&mut self) {
        let held: usize = self.engines.iter().map(Engine::held).sum();
        self.peak = self.peak.max(held);
    }

    /// One costed step (see [`crate::SequentialSearch`]).
    pub(crate) fn step(&mut self) -> Step<Value> {
        if self.aborted {
            self.engines.clear();
            return Step::Done(ABORTED);
        }
        if let Some(v) = self.result {
            return Step::Done(v);
        }
        loop {
            let level = self.engines.len();
            let engine = self.engines.last_mut().expect("a running stage");
            match engine.advance() {
                CoreStep::Interior => {
                    self.note_peak();
                    return Step::Interior;
                }
                CoreStep::Leaf { quiescence } => return Step::Leaf { quiescence },
                CoreStep::Horizon { node, alpha, beta } => {
                    if level == self.stages.len() {
                        // The tree's horizon: a static evaluation.
                        let eval = self.tree.evaluate(&node);
                        engine.resolve(eval.value);
                        return Step::Leaf {
                            quiescence: eval.quiescence,
                        };
                    }
                    let next = Engine::new(self.tree, self.stages[level], node, alpha, beta);
                    self.engines.push(next);
                    self.note_peak();
                }
                CoreStep::Done(v) => {
                    if level == 1 {
                        self.result = Some(v);
                        self.engines.clear();
                        return Step::Done(v);
                    }
                    self.engines.pop();
                    self.engines.last_mut().expect("the stage above").resolve(v);
                }
            }
        }
    }
}
