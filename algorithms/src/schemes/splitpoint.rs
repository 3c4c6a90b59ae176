//! The engine of the split-point schemes: a processor's search as a set of *tasks*, each an
//! explicit stack of frames (a resumable fail-soft alpha-beta, one node's work per machine step),
//! with split points whose younger sons other processors search, their results folded back,
//! cutoffs that close frames and abort their helpers, and window updates. It says *what* must
//! reach another processor ([`Outgoing`]); the scheme says *how*: messages in
//! [`super::ybwc`], shared-memory accesses in [`super::ybwc_shared`] and [`super::dts`].
//!
//! See [`super::ybwc`]'s module doc for the rules (tasks, split points, stepping the lowest task
//! that is not blocked, folds, cutoffs, windows).

use crate::trees::{GameTree, MoveList, Value, INF};
use sim_core::ProcId;
use sim_hw::Step;

/// A son handed to a helper.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Helper {
    pub(crate) proc: ProcId,
    pub(crate) job: u64,
    /// Which son of the frame it searches.
    pub(crate) son: usize,
}

/// An open interior node of a task.
pub(crate) struct Frame<T: GameTree> {
    /// This engine's name for the frame (unique over the run).
    pub(crate) id: u64,
    node: T::Node,
    moves: T::Moves,
    width: usize,
    pub(crate) depth: u32,
    alpha: Value,
    beta: Value,
    score: Value,
    /// The next son not yet started (locally or by a helper).
    next: usize,
    /// The son being searched here (the frame above, or the call about to be entered, or a
    /// value waiting to be folded under the split point's lock).
    local: Option<usize>,
    /// Sons whose values are in.
    done_sons: usize,
    /// A son has been handed out from it at least once (it is a split point).
    split: bool,
    helpers: Vec<Helper>,
    /// The son whose value is the score (the first of the best).
    best: usize,
}

/// A node to be entered.
pub(crate) struct Call<N> {
    pub(crate) node: N,
    pub(crate) alpha: Value,
    pub(crate) beta: Value,
    pub(crate) depth: u32,
}

/// A subtree this processor searches: the root (processor 0), or a son handed to it.
pub(crate) struct Task<T: GameTree> {
    /// Who handed it out, its name there, and the owner's frame it came from (None: the root).
    pub(crate) owner: Option<Owner>,
    /// Move indices from the root to the task's node.
    pub(crate) path: Vec<u32>,
    /// The node to enter next (not blocked).
    pub(crate) call: Option<Call<T::Node>>,
    pub(crate) frames: Vec<Frame<T>>,
}

/// Who handed a task out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    pub(crate) proc: ProcId,
    pub(crate) job: u64,
    /// The owner's frame (split point) the son belongs to.
    pub(crate) frame: u64,
}

/// A son handed out: its name at the owner, the node's path from the root, its window (its own
/// view) and remaining depth.
#[derive(Clone, Debug)]
pub(crate) struct Work {
    pub(crate) job: u64,
    pub(crate) frame: u64,
    pub(crate) path: Vec<u32>,
    pub(crate) alpha: Value,
    pub(crate) beta: Value,
    pub(crate) depth: u32,
}

/// What must reach another processor (or the scheme), in the order it arose.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Outgoing {
    /// A task's value (its own view) for its owner.
    Result { owner: Owner, value: Value },
    /// Stop helper `proc`'s task named `job` here.
    Abort { proc: ProcId, job: u64 },
    /// Helper `proc`'s task named `job` here has the window `(alpha, beta)` (its own view).
    Window {
        proc: ProcId,
        job: u64,
        alpha: Value,
        beta: Value,
    },
    /// The root's value.
    Root(Value),
    /// A son searched here has value `value` (the frame's view) for split point `frame`, to be
    /// folded under the split point's lock ([`Engine::lock_folds`] only).
    Fold { frame: u64, value: Value },
}

/// A split point another processor could join: where it is and how promising.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The frame's id.
    pub(crate) frame: u64,
    /// Plies from the root to the frame's node.
    pub(crate) ply: usize,
    /// The frame's remaining depth.
    pub(crate) depth: u32,
    /// Sons not yet started.
    pub(crate) left: usize,
}

/// A processor's tasks.
pub(crate) struct Engine<'t, T: GameTree> {
    pub(crate) tree: &'t T,
    window_updates: bool,
    min_split_depth: u32,
    /// A son searched here is folded into a split point only under its lock: it goes out as
    /// [`Outgoing::Fold`] and the task waits for it (shared memory).
    lock_folds: bool,
    pub(crate) tasks: Vec<Task<T>>,
    pub(crate) outbox: Vec<Outgoing>,
    next_job: u64,
    next_frame: u64,
    /// Sons handed out.
    pub(crate) given: u64,
    /// Helpers aborted.
    pub(crate) aborts: u64,
    /// Window updates sent to helpers.
    pub(crate) windows: u64,
    /// The root's best son so far (its index in the root's move order), on the processor
    /// that owns the root.
    pub(crate) root_best: Option<usize>,
}

impl<'t, T: GameTree> Engine<'t, T> {
    pub(crate) fn new(
        tree: &'t T,
        window_updates: bool,
        min_split_depth: u32,
        lock_folds: bool,
    ) -> Self {
        Engine {
            tree,
            window_updates,
            min_split_depth,
            lock_folds,
            tasks: Vec::new(),
            outbox: Vec::new(),
            next_job: 0,
            next_frame: 0,
            given: 0,
            aborts: 0,
            windows: 0,
            root_best: None,
        }
    }

    /// The root as processor 0's first task.
    pub(crate) fn push_root(&mut self, depth: u32) {
        let node = self.tree.root();
        self.tasks.push(Task {
            owner: None,
            path: Vec::new(),
            call: Some(Call {
                node,
                alpha: -INF,
                beta: INF,
                depth,
            }),
            frames: Vec::new(),
        });
    }

    /// Son `work` handed out by `proc` as one more task.
    pub(crate) fn push_work(&mut self, proc: ProcId, work: Work) {
        let mut node = self.tree.root();
        for &i in &work.path {
            let moves = self.tree.moves(&node);
            node = self.tree.play(&node, moves.get(i as usize));
        }
        self.tasks.push(Task {
            owner: Some(Owner {
                proc,
                job: work.job,
                frame: work.frame,
            }),
            path: work.path,
            call: Some(Call {
                node,
                alpha: work.alpha,
                beta: work.beta,
                depth: work.depth,
            }),
            frames: Vec::new(),
        });
    }

    pub(crate) fn runnable(&self) -> bool {
        self.tasks.iter().any(|t| t.call.is_some())
    }

    /// One node's work of the lowest task that is not blocked.
    pub(crate) fn step<O>(&mut self, out: O) -> Step<O> {
        if !self.outbox.is_empty() {
            return Step::Done(out);
        }
        let Some(ti) = self.tasks.iter().position(|t| t.call.is_some()) else {
            return Step::Done(out);
        };
        let call = self.tasks[ti].call.take().expect("runnable");
        let moves = (call.depth > 0).then(|| self.tree.moves(&call.node));
        match moves {
            Some(moves) if !moves.is_empty() => {
                let width = moves.len();
                let first = self.tree.play(&call.node, moves.get(0));
                let id = self.next_frame;
                self.next_frame += 1;
                let task = &mut self.tasks[ti];
                task.call = Some(Call {
                    node: first,
                    alpha: -call.beta,
                    beta: -call.alpha,
                    depth: call.depth - 1,
                });
                task.frames.push(Frame {
                    id,
                    node: call.node,
                    moves,
                    width,
                    depth: call.depth,
                    alpha: call.alpha,
                    beta: call.beta,
                    score: -INF,
                    next: 1,
                    local: Some(0),
                    done_sons: 0,
                    split: false,
                    helpers: Vec::new(),
                    best: 0,
                });
                Step::Interior
            }
            _ => {
                let eval = self.tree.evaluate(&call.node);
                self.ret(ti, eval.value);
                Step::Leaf {
                    quiescence: eval.quiescence,
                }
            }
        }
    }

    /// Value `value` (its own view) of the node the top frame of task `ti` searched locally (or
    /// of the task's node itself if it has no frame).
    fn ret(&mut self, ti: usize, value: Value) {
        let task = &mut self.tasks[ti];
        let Some(f) = task.frames.last_mut() else {
            let task = self.tasks.remove(ti);
            self.outbox.push(match task.owner {
                Some(owner) => Outgoing::Result { owner, value },
                None => Outgoing::Root(value),
            });
            return;
        };
        if self.lock_folds && f.split {
            // The son stays "local" until its value is folded under the lock.
            self.outbox.push(Outgoing::Fold {
                frame: f.id,
                value: -value,
            });
            return;
        }
        let son = f.local.take().unwrap_or(0);
        let top = task.frames.len() - 1;
        self.fold(ti, top, -value, son);
    }

    /// Where frame `id` is: (task, frame) indices.
    fn locate(&self, id: u64) -> Option<(usize, usize)> {
        self.tasks
            .iter()
            .enumerate()
            .find_map(|(ti, t)| t.frames.iter().position(|f| f.id == id).map(|fi| (ti, fi)))
    }

    /// Folds the value of the son searched here into split point `frame` (the lock is held);
    /// nothing if the frame has been closed meanwhile.
    pub(crate) fn fold_local(&mut self, frame: u64, value: Value) {
        if let Some((ti, fi)) = self.locate(frame) {
            let son = self.tasks[ti].frames[fi].local.take().unwrap_or(0);
            self.fold(ti, fi, value, son);
        }
    }

    /// Folds son `son`'s value `v` (frame `fi`'s view) into frame `fi` of task `ti`, then
    /// settles.
    fn fold(&mut self, ti: usize, fi: usize, v: Value, son: usize) {
        let root = fi == 0 && self.tasks[ti].owner.is_none();
        let f = &mut self.tasks[ti].frames[fi];
        f.done_sons += 1;
        if v > f.score {
            f.best = son;
            if root {
                self.root_best = Some(son);
            }
        }
        let f = &mut self.tasks[ti].frames[fi];
        f.score = f.score.max(v);
        let raised = v > f.alpha;
        if raised {
            f.alpha = v;
        }
        if self.propagate(ti, fi, raised) {
            return;
        }
        let task = &self.tasks[ti];
        if task.frames.len() == fi + 1 && task.call.is_none() && task.frames[fi].local.is_none() {
            self.decide(ti);
        }
    }

    /// Frame `fi`'s window changed (`changed`: its helpers hear of it): narrows the frames
    /// above it and the pending call, tells helpers, and closes the lowest frame whose window
    /// closed. True if task `ti`'s frames from `fi` were closed (the task may be gone).
    fn propagate(&mut self, ti: usize, fi: usize, changed: bool) -> bool {
        let updates = self.window_updates;
        let task = &mut self.tasks[ti];
        let mut sends = Vec::new();
        for k in fi..task.frames.len() {
            let mut changed_k = k == fi && changed;
            if k > fi {
                let (a, b) = (-task.frames[k - 1].beta, -task.frames[k - 1].alpha);
                let f = &mut task.frames[k];
                if a > f.alpha {
                    f.alpha = a;
                    changed_k = true;
                }
                if b < f.beta {
                    f.beta = b;
                    changed_k = true;
                }
            }
            let f = &task.frames[k];
            if changed_k && updates && f.alpha < f.beta {
                self.windows += f.helpers.len() as u64;
                for h in &f.helpers {
                    sends.push(Outgoing::Window {
                        proc: h.proc,
                        job: h.job,
                        alpha: -f.beta,
                        beta: -f.alpha,
                    });
                }
            }
        }
        if let (Some(call), Some(top)) = (task.call.as_mut(), task.frames.last()) {
            call.alpha = call.alpha.max(-top.beta);
            call.beta = call.beta.min(-top.alpha);
        }
        self.outbox.extend(sends);
        let closed = (fi..self.tasks[ti].frames.len())
            .find(|&k| self.tasks[ti].frames[k].alpha >= self.tasks[ti].frames[k].beta);
        match closed {
            Some(k) => {
                self.cut(ti, k);
                true
            }
            None => false,
        }
    }

    /// Closes frame `k` of task `ti` and every frame above it (aborting their helpers); frame
    /// `k`'s score goes to the frame below.
    fn cut(&mut self, ti: usize, k: usize) {
        let task = &mut self.tasks[ti];
        task.call = None;
        for f in &task.frames[k..] {
            self.aborts += f.helpers.len() as u64;
            for h in &f.helpers {
                self.outbox.push(Outgoing::Abort {
                    proc: h.proc,
                    job: h.job,
                });
            }
        }
        let v = task.frames[k].score;
        task.frames.truncate(k);
        self.ret(ti, v);
    }

    /// The top frame of task `ti` has no son in progress here: start the next son, wait for
    /// helpers (blocked), or close it.
    fn decide(&mut self, ti: usize) {
        let task = &mut self.tasks[ti];
        let f = task.frames.last_mut().expect("a frame");
        if f.next < f.width {
            let i = f.next;
            f.next += 1;
            f.local = Some(i);
            let node = self.tree.play(&f.node, f.moves.get(i));
            task.call = Some(Call {
                node,
                alpha: -f.beta,
                beta: -f.alpha,
                depth: f.depth - 1,
            });
        } else if f.helpers.is_empty() {
            let v = f.score;
            task.frames.pop();
            self.ret(ti, v);
        }
    }

    /// Frame `f` may hand a son out.
    fn splittable(&self, f: &Frame<T>) -> bool {
        f.done_sons >= 1 && f.next < f.width && f.depth > self.min_split_depth && f.score < f.beta
    }

    /// Hands a son of the shallowest split point (lowest task first, then lowest frame) to `to`.
    pub(crate) fn steal(&mut self, to: ProcId) -> Option<Work> {
        for ti in 0..self.tasks.len() {
            let task = &self.tasks[ti];
            if let Some(fi) = task.frames.iter().position(|f| self.splittable(f)) {
                return Some(self.give(ti, fi, to));
            }
        }
        None
    }

    /// The split point [`Engine::steal`] would hand a son of, if any.
    pub(crate) fn candidate(&self) -> Option<Candidate> {
        self.candidates().next()
    }

    /// Every split point that could hand a son out, lowest task first, then lowest frame.
    pub(crate) fn candidates(&self) -> impl Iterator<Item = Candidate> + '_ {
        self.tasks.iter().flat_map(move |t| {
            t.frames
                .iter()
                .enumerate()
                .filter(|(_, f)| self.splittable(f))
                .map(move |(fi, f)| Candidate {
                    frame: f.id,
                    ply: t.path.len() + fi,
                    depth: f.depth,
                    left: f.width - f.next,
                })
        })
    }

    /// Hands a son of split point `frame` to `to`, if it is still open and has one to give.
    pub(crate) fn take(&mut self, frame: u64, to: ProcId) -> Option<Work> {
        let (ti, fi) = self.locate(frame)?;
        if !self.splittable(&self.tasks[ti].frames[fi]) {
            return None;
        }
        Some(self.give(ti, fi, to))
    }

    fn give(&mut self, ti: usize, fi: usize, to: ProcId) -> Work {
        let task = &mut self.tasks[ti];
        let mut path = task.path.clone();
        path.extend(
            task.frames[..fi]
                .iter()
                .map(|f| f.local.expect("below the top") as u32),
        );
        let f = &mut task.frames[fi];
        let son = f.next;
        f.next += 1;
        f.split = true;
        path.push(son as u32);
        let job = self.next_job;
        self.next_job += 1;
        self.given += 1;
        f.helpers.push(Helper { proc: to, job, son });
        Work {
            job,
            frame: f.id,
            path,
            alpha: -f.beta,
            beta: -f.alpha,
            depth: f.depth - 1,
        }
    }

    /// A son handed out has come back.
    pub(crate) fn result(&mut self, from: ProcId, job: u64, value: Value) {
        for ti in 0..self.tasks.len() {
            for fi in 0..self.tasks[ti].frames.len() {
                let helpers = &mut self.tasks[ti].frames[fi].helpers;
                if let Some(h) = helpers.iter().position(|h| h.proc == from && h.job == job) {
                    let son = helpers.swap_remove(h).son;
                    self.fold(ti, fi, -value, son);
                    return;
                }
            }
        }
    }

    fn find(&self, from: ProcId, job: u64) -> Option<usize> {
        self.tasks
            .iter()
            .position(|t| t.owner.is_some_and(|o| o.proc == from && o.job == job))
    }

    /// The owner aborts the task it named `job`.
    pub(crate) fn abort(&mut self, from: ProcId, job: u64) {
        if let Some(ti) = self.find(from, job) {
            let task = self.tasks.remove(ti);
            for f in &task.frames {
                self.aborts += f.helpers.len() as u64;
                for h in &f.helpers {
                    self.outbox.push(Outgoing::Abort {
                        proc: h.proc,
                        job: h.job,
                    });
                }
            }
        }
    }

    /// The owner narrows the window of the task it named `job`.
    pub(crate) fn window(&mut self, from: ProcId, job: u64, alpha: Value, beta: Value) {
        let Some(ti) = self.find(from, job) else {
            return;
        };
        let task = &mut self.tasks[ti];
        match task.frames.first_mut() {
            None => {
                if let Some(call) = task.call.as_mut() {
                    call.alpha = call.alpha.max(alpha);
                    call.beta = call.beta.min(beta);
                }
            }
            Some(f) => {
                let mut changed = false;
                if alpha > f.alpha {
                    f.alpha = alpha;
                    changed = true;
                }
                if beta < f.beta {
                    f.beta = beta;
                    changed = true;
                }
                if changed {
                    self.propagate(ti, 0, true);
                }
            }
        }
    }

    /// The helpers of the top frames of blocked tasks.
    pub(crate) fn blocked_helpers(&self) -> impl Iterator<Item = ProcId> + '_ {
        self.tasks
            .iter()
            .filter(|t| t.call.is_none())
            .filter_map(|t| t.frames.last())
            .flat_map(|f| f.helpers.iter().map(|h| h.proc))
    }
}
