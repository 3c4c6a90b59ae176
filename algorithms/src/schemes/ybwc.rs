//! Young Brothers Wait (`ybwc`): Feldmann, Monien, Mysliwietz and Vornberger's distributed
//! alpha-beta on a pool of processors (the 1991 survey describes it), with work stealing,
//! aborts, window updates and the "helpful master".
//!
//! **The rule.** The eldest son of a node is searched first, by the processor that owns the
//! node; once its value is in, the node is a *split point*: its younger brothers may be searched
//! in parallel, by processors that ask for work. Nothing else is parallel.
//!
//! **Roles.** Every processor runs the same role ([`YbwcRole`]) on a pool (any processor
//! addresses any other: [`sim_hw::Platform::Pool`]); processor 0 owns the root. A processor
//! tree is accepted only where its lines join every pair of processors (one or two
//! processors); a larger one is refused ([`DeployError::Shape`]).
//!
//! **The search of a processor** is a set of *tasks*, each an explicit stack of frames (a
//! resumable alpha-beta, fail-soft, one node's work per machine step: `k` to generate an
//! interior node's moves, `e` to evaluate a horizon leaf). Processor 0's first task is the
//! root; every other task is a node some processor handed out. A frame is a split point once its
//! eldest son's value is in and it has a younger son not yet started (and the sons are at least
//! [`YbwcConfig::min_split_depth`] plies deep). When the top frame of a task has no son left to
//! start but helpers outstanding, the task is *blocked* until their results come in. The
//! machine steps the lowest (oldest) task that is not blocked; when none is, the search ends
//! ("blocked") and the role keeps the tasks until messages change them. The tasks live beside
//! the machine's search object (shared), so a message read at any time reaches them; the
//! machine's stepping rules (state changes at a step's start, a message read during a step sees
//! the state after it) make the runs independent of batching.
//!
//! **Work stealing.** A processor with nothing to step sends REQUEST to a victim: by default a
//! processor drawn uniformly among the others from the processor's own random stream
//! (SplitMix64 seeded by [`YbwcConfig::seed`] and the processor number: deterministic per seed);
//! or round robin ([`Victim::RoundRobin`]: the next processor after the last one asked). The
//! victim answers WORK with a son of its shallowest split point (lowest task first, then lowest
//! frame): the path of move indices from the root, the son's window and its remaining depth; or
//! NONE. A requester that gets NONE waits a back-off of `max(e, 1 ns)` (category idle_sync,
//! [`sim_hw::Cx::wait`]) before it asks again: that guards against a request/NONE ping-pong in
//! zero simulated time when messages cost nothing (ideal lines, `s = 0`). A processor has at
//! most one REQUEST outstanding. Handing out work costs the victim only the message's setup `s`.
//!
//! **Results, cutoffs, windows.** A helper sends RESULT (the son's value, in the son's view) to
//! the owner, which folds it into the split point (it may be any frame of any task, not only the
//! top one). A value at or above the frame's beta is a cutoff: the frame closes with that value,
//! the frames above it close too, and every helper of a closed frame is sent ABORT (a helper
//! that is aborted aborts its own helpers in turn). A value that raises a frame's alpha narrows
//! the windows of the frames above it (and of the son about to be entered), and, with
//! [`YbwcConfig::window_updates`] (default on), is sent as WINDOW to the helpers of every frame
//! whose window changed; a WINDOW from the owner narrows the task's stack the same way. A frame
//! whose window closes this way closes with its score, which is then at or above its beta (its
//! alpha is the larger of the bound from below and its own score). Messages that cross (a
//! RESULT for a son already aborted, an ABORT or WINDOW for a task already finished) are
//! ignored.
//!
//! **Helpful master** ([`YbwcConfig::helpful_master`], default on). A processor whose tasks are
//! all blocked asks for work like an idle one, alternately one of its own helpers (round robin
//! over the helpers of its blocked frames) and a victim of the policy, and searches what it gets
//! as one more task on top of its blocked ones. Nesting rule: the machine always steps the lowest
//! task that is not blocked, so a blocked task resumes as soon as its results are in, and the
//! task taken while it was blocked waits until the lower one blocks again or finishes. Off: a
//! processor with a blocked task waits (idle) for its helpers.
//!
//! **Termination.** When processor 0 has the root value it sends DONE to every other processor
//! (on a bus, one broadcast frame; elsewhere along a binomial tree: processor `p` sends to
//! `p + 2^j` for every `2^j > p`, so the last copy leaves after `log2 n` hops rather than
//! `n - 1` setups on processor 0). A processor that has DONE asks for no more work and ignores
//! what still arrives; ABORTs still on their way stop the last orphaned searches.
//!
//! **Messages** (bytes as carried; Table I type):
//!
//! | message | bytes | Table I type |
//! |---|---|---|
//! | REQUEST (give me work) | 2 | inter-node |
//! | WORK (job, window, depth, path) | 4 + 1 per ply of the path (2 per ply if a move index is above 255) | inter-node |
//! | NONE (no work) | 2 | inter-node |
//! | RESULT (job, value) | 4 | inter-node |
//! | ABORT (job) | 2 | inter-node |
//! | WINDOW (job, new window) | 4 | inter-node |
//! | DONE (the root is solved) | 2 | interactive |
//!
//! WORK's 4 bytes are Table I's "next move and bound to a child"; the path replaces the
//! position a real program would send. RESULT is Table I's value a child returns.

use super::splitpoint::{Engine, Outgoing, Work};
use crate::rng::SplitMix64;
use crate::scheme::{DeployError, Figures};
use crate::trees::{GameTree, Value};
use rand::{Rng, SeedableRng};
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, Platform, Program, Search, Step};
use std::cell::RefCell;
use std::rc::Rc;

/// How an idle processor chooses whom to ask for work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Victim {
    /// Uniformly among the other processors, from the processor's seeded random stream.
    Random,
    /// The next processor after the last one asked (starting after itself), cyclically.
    RoundRobin,
}

impl Victim {
    /// The processor `me` of `n` asks next: a uniform draw among the others from `rng`, or the
    /// next after `last_asked` (skipping itself); `last_asked` becomes it.
    pub(crate) fn pick(
        self,
        rng: &mut SplitMix64,
        last_asked: &mut usize,
        me: usize,
        n: usize,
    ) -> ProcId {
        let v = match self {
            Victim::Random => {
                let r = rng.random_range(0..n - 1);
                if r >= me {
                    r + 1
                } else {
                    r
                }
            }
            Victim::RoundRobin => {
                let mut v = (*last_asked + 1) % n;
                if v == me {
                    v = (v + 1) % n;
                }
                v
            }
        };
        *last_asked = v;
        ProcId(v as u32)
    }
}

/// The options of [`Ybwc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YbwcConfig {
    /// Search depth (at least 1).
    pub depth: u32,
    /// Whom an idle processor asks for work.
    pub victim: Victim,
    /// Send improved bounds to the helpers of a split point (WINDOW).
    pub window_updates: bool,
    /// A processor whose tasks are all blocked helps (asks for work) instead of waiting.
    pub helpful_master: bool,
    /// Sons shallower than this many plies are never handed out (1: anything but leaves).
    pub min_split_depth: u32,
    /// Seed of the victims' random streams.
    pub seed: u64,
}

impl YbwcConfig {
    /// The defaults: random victims, window updates, helpful master, no leaves handed out.
    pub fn new(depth: u32, seed: u64) -> Self {
        YbwcConfig {
            depth,
            victim: Victim::Random,
            window_updates: true,
            helpful_master: true,
            min_split_depth: 1,
            seed,
        }
    }
}

/// Young Brothers Wait, deployed on a pool of processors.
#[derive(Clone, Copy, Debug)]
pub struct Ybwc(pub YbwcConfig);

/// The protocol (see the module doc for sizes and types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YbwcMsg {
    /// Give me work.
    Request,
    /// A son to search: `job` names it at the owner; `path` (move indices from the root) names
    /// the node; `(alpha, beta)` its window in its own view; `depth` its remaining depth.
    Work {
        /// The owner's name for this son.
        job: u64,
        /// Move indices from the root to the son.
        path: Vec<u32>,
        /// The son's window, its own view.
        alpha: Value,
        /// See `alpha`.
        beta: Value,
        /// Plies left below the son.
        depth: u32,
    },
    /// No work to give.
    None,
    /// The value of son `job`, in its own view.
    Result {
        /// The owner's name for the son.
        job: u64,
        /// Its value.
        value: Value,
    },
    /// Stop searching son `job`.
    Abort {
        /// The owner's name for the son.
        job: u64,
    },
    /// Son `job`'s window is now `(alpha, beta)` (its own view).
    Window {
        /// The owner's name for the son.
        job: u64,
        /// The new window.
        alpha: Value,
        /// See `alpha`.
        beta: Value,
    },
    /// The root is solved: stop asking for work.
    Done,
}

impl Message for YbwcMsg {
    fn kind(&self) -> MsgKind {
        match self {
            YbwcMsg::Done => MsgKind::Interactive,
            _ => MsgKind::InterNode,
        }
    }
    fn bytes(&self) -> u64 {
        match self {
            YbwcMsg::Request | YbwcMsg::None | YbwcMsg::Abort { .. } | YbwcMsg::Done => 2,
            YbwcMsg::Result { .. } | YbwcMsg::Window { .. } => 4,
            YbwcMsg::Work { path, .. } => {
                let per_ply = if path.iter().any(|&i| i > 255) { 2 } else { 1 };
                4 + per_ply * path.len() as u64
            }
        }
    }
}

/// What a role's search or wait hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YbwcOut {
    /// The search stopped: every task blocked or finished, or messages to send.
    Search,
    /// The back-off after a NONE has passed.
    Backoff,
}

/// The machine's handle on a processor's engine.
pub struct YbwcSearch<'t, T: GameTree>(Rc<RefCell<Engine<'t, T>>>);

impl<T: GameTree> Search for YbwcSearch<'_, T> {
    type Out = YbwcOut;
    fn step(&mut self) -> Step<YbwcOut> {
        self.0.borrow_mut().step(YbwcOut::Search)
    }
}

/// What a processor counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct YbwcCounts {
    /// REQUESTs sent.
    pub requests: u64,
    /// NONEs received.
    pub nones: u64,
    /// Sons handed out (WORK sent).
    pub given: u64,
    /// ABORTs sent.
    pub aborts: u64,
    /// WINDOWs sent.
    pub windows: u64,
}

/// The role every processor runs (see the module doc).
pub struct YbwcRole<'t, T: GameTree> {
    engine: Rc<RefCell<Engine<'t, T>>>,
    config: YbwcConfig,
    /// The machine holds a search handle (running or queued, or ended but not yet handed back).
    running: bool,
    /// A REQUEST is outstanding.
    requesting: bool,
    /// Waiting the back-off after a NONE.
    backing_off: bool,
    /// DONE received (or, on processor 0, sent).
    done: bool,
    rng: SplitMix64,
    /// The last processor asked (round robin).
    last_asked: usize,
    /// Round robin over helpers (helpful master).
    helper_cursor: usize,
    /// The next request goes to a helper (helpful master alternates).
    helper_turn: bool,
    /// Processor 0: owns the root.
    owns_root: bool,
    root_value: Option<Value>,
    finished_at: Option<SimTime>,
    counts: YbwcCounts,
}

type YCx<'a, 't, T> = Cx<'a, YbwcRole<'t, T>>;

impl<'t, T: GameTree> YbwcRole<'t, T> {
    /// The root value (processor 0, once it has it).
    pub fn root_value(&self) -> Option<Value> {
        self.root_value
    }
    /// When processor 0 had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        self.finished_at
    }
    /// What this processor counted.
    pub fn counts(&self) -> YbwcCounts {
        let e = self.engine.borrow();
        YbwcCounts {
            given: e.given,
            aborts: e.aborts,
            windows: e.windows,
            ..self.counts
        }
    }

    /// After every callback: send what the engine produced, then search, or ask for work.
    fn settle(&mut self, cx: &mut YCx<'_, 't, T>) {
        let out = std::mem::take(&mut self.engine.borrow_mut().outbox);
        for o in out {
            match o {
                Outgoing::Result { owner, value } => cx.send(
                    owner.proc,
                    YbwcMsg::Result {
                        job: owner.job,
                        value,
                    },
                ),
                Outgoing::Abort { proc, job } => cx.send(proc, YbwcMsg::Abort { job }),
                Outgoing::Window {
                    proc,
                    job,
                    alpha,
                    beta,
                } => cx.send(proc, YbwcMsg::Window { job, alpha, beta }),
                Outgoing::Fold { .. } => unreachable!("ybwc folds without locks"),
                Outgoing::Root(v) => {
                    // Every other task here is orphaned work: drop it (DONE tells the others).
                    self.engine.borrow_mut().tasks.clear();
                    self.root_value = Some(v);
                    self.finished_at = Some(cx.now());
                    self.done = true;
                    cx.mark("root value");
                    if cx.processors() > 1 {
                        if cx
                            .platform()
                            .pool_network()
                            .is_some_and(|n| matches!(n, sim_hw::PoolNetwork::Bus(_)))
                        {
                            cx.broadcast(YbwcMsg::Done);
                        } else {
                            self.relay_done(cx);
                        }
                    }
                }
            }
        }
        if self.done {
            return;
        }
        let (runnable, has_tasks) = {
            let e = self.engine.borrow();
            (e.runnable(), !e.tasks.is_empty())
        };
        if runnable {
            if !self.running {
                self.running = true;
                cx.search(YbwcSearch(self.engine.clone()));
            }
            return;
        }
        if self.running || self.requesting || self.backing_off || cx.processors() < 2 {
            return;
        }
        if has_tasks && !self.config.helpful_master {
            return;
        }
        let victim = self.victim(cx);
        self.requesting = true;
        self.counts.requests += 1;
        cx.send(victim, YbwcMsg::Request);
    }

    /// DONE along a binomial tree: to `me + 2^j` for every `2^j > me`.
    fn relay_done(&mut self, cx: &mut YCx<'_, 't, T>) {
        let (me, n) = (cx.me().index(), cx.processors());
        let mut bit = 1usize;
        while bit <= me {
            bit <<= 1;
        }
        while me + bit < n {
            cx.send(ProcId((me + bit) as u32), YbwcMsg::Done);
            bit <<= 1;
        }
    }

    fn victim(&mut self, cx: &mut YCx<'_, 't, T>) -> ProcId {
        let (me, n) = (cx.me().index(), cx.processors());
        if self.config.helpful_master {
            let turn = self.helper_turn;
            self.helper_turn = !turn;
            if turn {
                let e = self.engine.borrow();
                let count = e.blocked_helpers().count();
                if count > 0 {
                    let i = self.helper_cursor % count;
                    self.helper_cursor = self.helper_cursor.wrapping_add(1);
                    return e.blocked_helpers().nth(i).expect("counted");
                }
            }
        }
        self.config
            .victim
            .pick(&mut self.rng, &mut self.last_asked, me, n)
    }

    fn backoff(&mut self, cx: &mut YCx<'_, 't, T>) {
        self.backing_off = true;
        let t = cx.costs().e.max(SimTime(1));
        cx.wait(t, YbwcOut::Backoff);
    }
}

impl<'t, T: GameTree> Program for YbwcRole<'t, T> {
    type Msg = YbwcMsg;
    type Out = YbwcOut;
    type Search = YbwcSearch<'t, T>;

    fn start(&mut self, cx: &mut YCx<'_, 't, T>) {
        if cx.me() == ProcId::MASTER {
            self.engine.borrow_mut().push_root(self.config.depth);
        }
        self.settle(cx);
    }

    fn on_message(&mut self, from: ProcId, msg: YbwcMsg, cx: &mut YCx<'_, 't, T>) {
        if self.done {
            return;
        }
        match msg {
            YbwcMsg::Request => {
                let work = self.engine.borrow_mut().steal(from);
                cx.send(
                    from,
                    work.map_or(YbwcMsg::None, |w| YbwcMsg::Work {
                        job: w.job,
                        path: w.path,
                        alpha: w.alpha,
                        beta: w.beta,
                        depth: w.depth,
                    }),
                );
            }
            YbwcMsg::None => {
                self.requesting = false;
                self.counts.nones += 1;
                self.backoff(cx);
            }
            YbwcMsg::Work {
                job,
                path,
                alpha,
                beta,
                depth,
            } => {
                self.requesting = false;
                self.engine.borrow_mut().push_work(
                    from,
                    Work {
                        job,
                        // The owner finds the son by its job alone.
                        frame: 0,
                        path,
                        alpha,
                        beta,
                        depth,
                    },
                );
            }
            YbwcMsg::Result { job, value } => self.engine.borrow_mut().result(from, job, value),
            YbwcMsg::Abort { job } => self.engine.borrow_mut().abort(from, job),
            YbwcMsg::Window { job, alpha, beta } => {
                self.engine.borrow_mut().window(from, job, alpha, beta)
            }
            YbwcMsg::Done => {
                // What is left here is orphaned work (its ABORTs are on their way): drop it,
                // with what it would have sent.
                self.done = true;
                self.requesting = false;
                let mut e = self.engine.borrow_mut();
                e.tasks.clear();
                e.outbox.clear();
                drop(e);
                if cx
                    .platform()
                    .pool_network()
                    .is_none_or(|n| !matches!(n, sim_hw::PoolNetwork::Bus(_)))
                {
                    self.relay_done(cx);
                }
                return;
            }
        }
        self.settle(cx);
    }

    fn on_done(&mut self, out: YbwcOut, cx: &mut YCx<'_, 't, T>) {
        match out {
            YbwcOut::Search => self.running = false,
            YbwcOut::Backoff => self.backing_off = false,
        }
        self.settle(cx);
    }

    fn pending(&self) -> Option<String> {
        let e = self.engine.borrow();
        if self.owns_root && self.root_value.is_none() {
            return Some(format!("the root value ({} tasks)", e.tasks.len()));
        }
        if !e.tasks.is_empty() {
            return Some(format!(
                "the results of the helpers of {} tasks",
                e.tasks.len()
            ));
        }
        None
    }
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for Ybwc {
    type Role = YbwcRole<'t, T>;
    fn name(&self) -> String {
        "ybwc".into()
    }
    fn deploy_on(&self, tree: &'t T, platform: &Platform) -> Result<Vec<Self::Role>, DeployError> {
        if self.0.depth == 0 {
            return Err(DeployError::NoDepth {
                scheme: "ybwc".into(),
            });
        }
        if let Platform::Tree(t) = platform {
            if t.len() > 2 {
                return Err(DeployError::Shape {
                    scheme: "ybwc".into(),
                    needs: format!(
                        "a pool of processors (any processor addresses any other), or a \
                         processor tree whose lines join every pair (at most 2 processors), \
                         not a processor tree of {} processors",
                        t.len()
                    ),
                });
            }
        }
        Ok((0..platform.len())
            .map(|p| YbwcRole {
                engine: Rc::new(RefCell::new(Engine::new(
                    tree,
                    self.0.window_updates,
                    self.0.min_split_depth,
                    false,
                ))),
                config: self.0,
                running: false,
                requesting: false,
                backing_off: false,
                done: false,
                rng: SplitMix64::seed_from_u64(crate::rng::mix2(self.0.seed, p as u64)),
                last_asked: p,
                helper_cursor: 0,
                helper_turn: true,
                owns_root: p == 0,
                root_value: None,
                finished_at: None,
                counts: YbwcCounts::default(),
            })
            .collect())
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(YbwcRole::root_value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    fn root_move(&self, roles: &[Self::Role]) -> Option<usize> {
        roles.first().and_then(|r| r.engine.borrow().root_best)
    }
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        let mut c = YbwcCounts::default();
        for r in roles {
            let k = r.counts();
            c.requests += k.requests;
            c.nones += k.nones;
            c.given += k.given;
            c.aborts += k.aborts;
            c.windows += k.windows;
        }
        Figures::default()
            .with("ybwc_requests", c.requests)
            .with("ybwc_nones", c.nones)
            .with("ybwc_given", c.given)
            .with("ybwc_aborts", c.aborts)
            .with("ybwc_windows", c.windows)
    }
}
