//! Parallel aspiration search (`baudet`): Baudet (1978), as Campbell's thesis (section 3.2)
//! and Marsland's 1991 survey describe it: the window of the root is split into `p` disjoint
//! ranges, one per processor, and every processor runs a full alpha-beta search of the whole
//! tree with its own window. The processor whose range holds the root value returns it exactly;
//! the others fail high or low.
//!
//! **Roles.** The master (processor 0) and its workers, the master's children as the deploy
//! gives them (any processor id the master can send to; nothing assumes the tree's shape beyond
//! "a master and its workers"). The master is a worker too: it searches the central window
//! itself, so `p` processors search `p` windows.
//!
//! **Windows.** The master first evaluates the root statically (one evaluation, cost `e`,
//! counted as a leaf), the estimate `V0` that an aspiration search centres on. With `p`
//! processors and the option `delta` (δ, default [`DEFAULT_DELTA`]), the boundaries are
//! `b_j = V0 − ⌊(p − 2) δ / 2⌋ + (j − 1) δ` for `j = 1 … p − 1`, with `b_0 = −∞` and
//! `b_p = +∞`; window `j` (`j = 0 … p − 1`) is the open interval `(b_j − 1, b_{j+1})`, so
//! that it returns exactly the values `v` with `b_j ≤ v < b_{j+1}`: the ranges are disjoint
//! and together cover every value. The `p − 2` inner windows are δ wide and the outer two are
//! unbounded. Campbell notes that Baudet's best decompositions leave gaps between the
//! windows; this one leaves none, so that one search always succeeds. The master searches
//! window `⌊p/2⌋` (the one holding `V0`), and the workers the others in increasing order.
//! With **one processor** the only window is `(−∞, +∞)`: plain fail-soft alpha-beta, without
//! the estimate.
//!
//! **The root value.** Fail-soft: a search that fails low with `v` proves that the root value
//! is at most `v`, one that fails high proves at least `v`, and one whose value lies inside its
//! window has the root value. The master keeps the tightest bounds `lo ≤ V ≤ hi` it has heard
//! of; the root value is known when a search returns inside its window or when `lo = hi` (two
//! bounds that meet, e.g. a fail-high and a fail-low at the same value). Every search whose
//! range no longer meets `[lo, hi]` can no longer return the value and is stopped (ABORT); when
//! the value is known, every search still running is stopped.
//!
//! **Messages** (all Table I inter-node, the master to a worker and back):
//!
//! | message | bytes | what |
//! |---|---|---|
//! | WINDOW | 4 | the window's two bounds (2 bytes each); the worker searches the root with it |
//! | RESULT | 4 | the search's fail-soft value (as Table I's returned value) |
//! | ABORT | 2 | stop the search (as the split-work protocol's ABORT) |
//!
//! A window is sent once per worker and the ABORT after it on the same line, so no numbering is
//! needed; a worker ignores an ABORT when it is not searching, and a WINDOW after an ABORT.

use crate::schemes::adapter::{Adapted, SearchExt};
use crate::schemes::protocol::leaf_work;
use crate::schemes::scheme::DeployError;
use crate::search::alphabeta::AlphaBeta;
use crate::search::sequential::SequentialSearch;
use crate::trees::{GameTree, Value, INF};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, ProcessorTree, Program};

/// The default width δ of each inner window, in the tree's value units: 50, half a pawn in
/// the centipawn units of chess programs (a common aspiration window), and 5% of the default
/// `value_spread` (1000) of synthetic trees. Not tuned to any result.
pub const DEFAULT_DELTA: u32 = 50;

/// Options of a parallel aspiration search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaudetConfig {
    /// Search depth d (plies).
    pub depth: u32,
    /// Width δ of each inner window (see the module doc); at least 1.
    pub delta: u32,
}

/// Parallel aspiration search as a [`crate::Scheme`] (see the module doc). Its name in results:
/// `baudet` with the default δ, `baudet(δ)` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Baudet(pub BaudetConfig);

/// The messages of parallel aspiration search (sizes in the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaudetMsg {
    /// Master to worker: search the root with the window (alpha, beta).
    Window {
        /// Lower bound.
        alpha: Value,
        /// Upper bound.
        beta: Value,
    },
    /// Worker to master: the fail-soft value of its search.
    Result {
        /// The value (the root's view).
        value: Value,
    },
    /// Master to worker: stop searching.
    Abort,
}

impl Message for BaudetMsg {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        match self {
            BaudetMsg::Window { .. } | BaudetMsg::Result { .. } => 4,
            BaudetMsg::Abort => 2,
        }
    }
}

/// What a processor's work hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaudetOut {
    /// The master's static evaluation of the root (the estimate V0).
    Estimate(Value),
    /// A search of the root ended with this fail-soft value.
    Searched(Value),
}

/// A processor's search: fail-soft alpha-beta of the root with its window.
pub type BaudetSearch<'t, T> = Adapted<AlphaBeta<'t, T>, BaudetOut>;

fn search_root<T: GameTree>(tree: &T, window: (Value, Value), depth: u32) -> BaudetSearch<'_, T> {
    AlphaBeta::new(tree, tree.root(), window.0, window.1, depth)
        .map_done(|_, v| BaudetOut::Searched(v))
}

/// The `p` windows for the estimate `v0` and width `delta` (see the module doc), lowest first.
pub fn windows(p: usize, v0: Value, delta: u32) -> Vec<(Value, Value)> {
    if p <= 1 {
        return vec![(-INF, INF)];
    }
    let delta = delta.max(1) as i64;
    let first = v0 as i64 - ((p as i64 - 2) * delta) / 2;
    // Boundaries b_1 … b_{p−1}, kept strictly inside (−INF, INF).
    let bound = |j: usize| -> Value {
        let b = first + (j as i64 - 1) * delta;
        b.clamp(-INF as i64 + 2, INF as i64 - 1) as Value
    };
    (0..p)
        .map(|j| {
            let lo = if j == 0 { -INF } else { bound(j) - 1 };
            let hi = if j == p - 1 { INF } else { bound(j + 1) };
            (lo, hi)
        })
        .collect()
}

/// Where one window's search stands, on the master.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Not yet handed out (until the estimate is known).
    Waiting,
    /// Searching.
    Running,
    /// Returned or stopped.
    Over,
}

/// The master: searches one window itself and gathers the others' results.
pub struct Master<'t, T: GameTree> {
    tree: &'t T,
    config: BaudetConfig,
    /// The workers: itself first, then its children.
    workers: Vec<ProcId>,
    /// Each worker's window, once known.
    windows: Vec<(Value, Value)>,
    states: Vec<State>,
    /// The root value is at least `lo` and at most `hi`.
    lo: Value,
    hi: Value,
    estimate: Option<Value>,
    result: Option<Value>,
    finished_at: Option<SimTime>,
    /// Which window returned the value (its index, lowest window 0), or None if two bounds met.
    decided_by: Option<usize>,
}

/// A worker other than the master.
pub struct Worker<'t, T: GameTree> {
    tree: &'t T,
    depth: u32,
    master: ProcId,
    window: Option<(Value, Value)>,
    aborted: bool,
}

/// A parallel-aspiration role on one processor.
pub enum BaudetRole<'t, T: GameTree> {
    /// Processor 0: searches the central window and decides.
    Master(Master<'t, T>),
    /// Every other processor: searches the window it is given.
    Worker(Worker<'t, T>),
}

type BCx<'a, 't, T> = Cx<'a, BaudetRole<'t, T>>;

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for Baudet {
    type Role = BaudetRole<'t, T>;
    fn name(&self) -> String {
        if self.0.delta == DEFAULT_DELTA {
            "baudet".into()
        } else {
            format!("baudet({})", self.0.delta)
        }
    }
    fn deploy(&self, tree: &'t T, ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        crate::schemes::pmws::check_depth_one("baudet", ptree, self.0.depth)?;
        if self.0.delta == 0 {
            return Err(DeployError::Shape {
                scheme: "baudet".into(),
                needs: "a window width delta of at least 1".into(),
            });
        }
        let master = ProcId::MASTER;
        let mut workers = vec![master];
        workers.extend(ptree.children(master));
        let mut roles = Vec::with_capacity(ptree.len());
        for p in (0..ptree.len() as u32).map(ProcId) {
            if p == master {
                let n = workers.len();
                roles.push(BaudetRole::Master(Master {
                    tree,
                    config: self.0,
                    workers: workers.clone(),
                    windows: Vec::new(),
                    states: vec![State::Waiting; n],
                    lo: -INF,
                    hi: INF,
                    estimate: None,
                    result: None,
                    finished_at: None,
                    decided_by: None,
                }));
            } else {
                roles.push(BaudetRole::Worker(Worker {
                    tree,
                    depth: self.0.depth,
                    master: ptree.parent(p).unwrap_or(master),
                    window: None,
                    aborted: false,
                }));
            }
        }
        Ok(roles)
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        match roles.first() {
            Some(BaudetRole::Master(m)) => m.result,
            _ => None,
        }
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
}

impl<T: GameTree> BaudetRole<'_, T> {
    /// When the master knew the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        match self {
            BaudetRole::Master(m) => m.finished_at,
            BaudetRole::Worker(_) => None,
        }
    }
    /// The windows, lowest first, and the estimate V0 (master only; None before it is known or
    /// with one processor).
    pub fn windows(&self) -> (Vec<(Value, Value)>, Option<Value>) {
        match self {
            BaudetRole::Master(m) => {
                let mut w = m.windows.clone();
                w.sort();
                (w, m.estimate)
            }
            BaudetRole::Worker(_) => (Vec::new(), None),
        }
    }
    /// Which window (lowest = 0) returned the root value inside its bounds; None when two
    /// bounds met (master only).
    pub fn decided_by(&self) -> Option<usize> {
        match self {
            BaudetRole::Master(m) => m.decided_by,
            BaudetRole::Worker(_) => None,
        }
    }
}

impl<'t, T: GameTree> Master<'t, T> {
    fn start(&mut self, cx: &mut BCx<'_, 't, T>) {
        if self.workers.len() == 1 {
            // One processor: the full window, no estimate needed.
            self.windows = vec![(-INF, INF)];
            self.states[0] = State::Running;
            cx.search(search_root(self.tree, self.windows[0], self.config.depth));
            return;
        }
        let eval = self.tree.evaluate(&self.tree.root());
        let costs = *cx.costs();
        cx.compute(
            leaf_work(costs.e, eval.quiescence),
            BaudetOut::Estimate(eval.value),
        );
    }

    /// The estimate is known: hand out the windows, search the central one.
    fn hand_out(&mut self, v0: Value, cx: &mut BCx<'_, 't, T>) {
        self.estimate = Some(v0);
        let p = self.workers.len();
        let all = windows(p, v0, self.config.delta);
        let centre = p / 2;
        let mut order: Vec<usize> = vec![centre];
        order.extend((0..p).filter(|&j| j != centre));
        self.windows = order.iter().map(|&j| all[j]).collect();
        for k in 1..p {
            let (alpha, beta) = self.windows[k];
            cx.send(self.workers[k], BaudetMsg::Window { alpha, beta });
            self.states[k] = State::Running;
        }
        self.states[0] = State::Running;
        cx.search(search_root(self.tree, self.windows[0], self.config.depth));
    }

    /// Worker `k`'s search returned `value`.
    fn returned(&mut self, k: usize, value: Value, cx: &mut BCx<'_, 't, T>) {
        if self.states[k] != State::Running || self.result.is_some() {
            return; // stopped meanwhile: its result is stale
        }
        self.states[k] = State::Over;
        let (a, b) = self.windows[k];
        if a < value && value < b {
            let mut sorted = self.windows.clone();
            sorted.sort();
            self.decided_by = sorted.iter().position(|&w| w == (a, b));
            self.finish(value, cx);
            return;
        }
        if value <= a {
            self.hi = self.hi.min(value);
        } else {
            self.lo = self.lo.max(value);
        }
        if self.lo >= self.hi {
            self.finish(self.lo, cx);
            return;
        }
        // Stop every search whose range [a + 1, b − 1] no longer meets [lo, hi].
        for j in 0..self.workers.len() {
            let (a, b) = self.windows[j];
            if self.states[j] == State::Running && (b - 1 < self.lo || a + 1 > self.hi) {
                self.stop(j, cx);
            }
        }
    }

    fn stop(&mut self, k: usize, cx: &mut BCx<'_, 't, T>) {
        self.states[k] = State::Over;
        if k == 0 {
            cx.abort_search();
        } else {
            cx.send(self.workers[k], BaudetMsg::Abort);
        }
    }

    fn finish(&mut self, value: Value, cx: &mut BCx<'_, 't, T>) {
        self.result = Some(value);
        self.finished_at = Some(cx.now());
        cx.mark("root value known");
        for j in 0..self.workers.len() {
            if self.states[j] == State::Running {
                self.stop(j, cx);
            }
        }
    }
}

impl<'t, T: GameTree> Program for BaudetRole<'t, T> {
    type Msg = BaudetMsg;
    type Out = BaudetOut;
    type Search = BaudetSearch<'t, T>;

    fn start(&mut self, cx: &mut BCx<'_, 't, T>) {
        if let BaudetRole::Master(m) = self {
            m.start(cx);
        }
    }

    fn on_message(&mut self, from: ProcId, msg: BaudetMsg, cx: &mut BCx<'_, 't, T>) {
        match (self, msg) {
            (BaudetRole::Worker(w), BaudetMsg::Window { alpha, beta }) => {
                if w.aborted || w.window.is_some() {
                    return;
                }
                w.window = Some((alpha, beta));
                cx.search(search_root(w.tree, (alpha, beta), w.depth));
            }
            (BaudetRole::Worker(w), BaudetMsg::Abort) => {
                w.aborted = true;
                cx.abort_search();
            }
            (BaudetRole::Master(m), BaudetMsg::Result { value }) => {
                if let Some(k) = m.workers.iter().position(|&p| p == from) {
                    m.returned(k, value, cx);
                }
            }
            (_, msg) => cx.fail(format!("baudet: unexpected message {msg:?}")),
        }
    }

    fn on_done(&mut self, out: BaudetOut, cx: &mut BCx<'_, 't, T>) {
        match (self, out) {
            (BaudetRole::Master(m), BaudetOut::Estimate(v0)) => m.hand_out(v0, cx),
            (BaudetRole::Master(m), BaudetOut::Searched(v)) => m.returned(0, v, cx),
            (BaudetRole::Worker(w), BaudetOut::Searched(value)) => {
                if !w.aborted {
                    cx.send(w.master, BaudetMsg::Result { value });
                }
            }
            (_, out) => cx.fail(format!("baudet: unexpected completion {out:?}")),
        }
    }

    fn pending(&self) -> Option<String> {
        match self {
            BaudetRole::Master(m) if m.result.is_none() => Some(format!(
                "the root value ({} windows searching, bounds [{}, {}])",
                m.states.iter().filter(|s| **s == State::Running).count(),
                m.lo,
                m.hi
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_disjoint_cover_every_value_and_centre_on_the_estimate() {
        for p in 1..=9usize {
            for (v0, delta) in [(0, 50), (137, 1), (-40, 7), (INF - 3, 100), (-INF + 3, 100)] {
                let w = windows(p, v0, delta);
                assert_eq!(w.len(), p);
                assert_eq!(w[0].0, -INF);
                assert_eq!(w[p - 1].1, INF);
                // Window j returns exactly b_j … b_{j+1} − 1: the next starts where it ends.
                for j in 1..p {
                    assert_eq!(w[j].0 + 1, w[j - 1].1, "p {p}, v0 {v0}, delta {delta}");
                }
                if p >= 2 && v0.abs() < 1000 {
                    let c = p / 2;
                    assert!(w[c].0 < v0 && v0 < w[c].1, "p {p}: {w:?} misses {v0}");
                    for window in &w[1..p - 1] {
                        assert_eq!(window.1 - window.0 - 1, delta as Value);
                    }
                }
            }
        }
        assert_eq!(windows(2, 10, 50), vec![(-INF, 10), (9, INF)]);
    }
}
