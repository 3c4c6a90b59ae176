//! Young Brothers Wait with split points in shared memory (`ybwc_shared`), as Stockfish ran it
//! from 2013 to 2015, and the machinery it shares with Hyatt's Dynamic Tree Splitting
//! ([`super::dts`]).
//!
//! **The search** is [`super::ybwc`]'s engine, unchanged ([`super::splitpoint`]): every
//! processor's search is a set of tasks, each an explicit stack of frames; a frame is a split
//! point once its eldest son's value is in and a younger son is not yet started (sons at least
//! `min_split_depth` plies deep); the machine steps the lowest task that is not blocked; a son's
//! value folds into its frame; a value at or above beta closes the frame and every frame above
//! it and aborts their helpers; a raised alpha narrows the windows above it and (option
//! `window_updates`) of the frames' helpers. What differs is how all that reaches another
//! processor: no messages, but accesses to a shared memory ([`sim_hw::Cx::read`],
//! [`sim_hw::Cx::write`]), each costing its latency and any wait for its bank (category
//! `memory`). Every processor's engine (tasks and frames) lives in one `Rc<RefCell<..>>` that
//! every role of the run reaches; another processor's data is read or changed only in the
//! callback that ends an access, and every search runs with [`sim_hw::Cx::search_shared`], so a
//! change (a son taken, a result folded, an abort, a new window) reaches the search at the
//! simulated time the access ends. The schemes here run without a transposition table.
//!
//! **Shared memory layout** (addresses, hence banks and NUMA homes): processor `p` owns a block
//! of 1031 words at `1031 p`: word 0 is its *split-point list* (what an idle processor reads to
//! see whether it has work), split point (frame) `f` has its *lock* at `1 + 2 (f mod 256)` and
//! its *data* (son counter, best score, helpers, window) at the next word, and words `513 ..
//! 1024` are the flags by which owners stop or narrow the processor's tasks. The *stop* word is
//! at `1031 n` (n processors).
//!
//! **Locks.** A split point's lock is one word: acquire = a test-and-set ([`sim_hw::Cx::write`]
//! at the lock's address; the lock is taken if it is free when the write ends); on failure the
//! processor spins `max(read latency, 1 ns)` ([`sim_hw::Cx::spin`], category `memory`) and tries
//! again; release = a write of the lock word. Counted: acquisitions, failed test-and-sets
//! (`lock_waits`).
//!
//! **Rules and their costs** (r: a read, w: a write, each at the address named):
//! - *Joining* (an idle processor, or a blocked one under the helpful-master rule): it reads one
//!   processor's split-point list (1 r, `1031 q`); if that processor has a split point, the
//!   shallowest (lowest task, then lowest frame: the one [`super::ybwc`]'s victim hands out) is
//!   chosen, its lock acquired (1 w test-and-set, plus a spin and w per failed try), a son taken
//!   and the processor booked as its helper (1 w, the split point's data: what it sees is the
//!   split point as it is when the write ends; if it has no son left by then, nothing is taken),
//!   and the lock released (1 w). The son becomes the joiner's own task; the joiner rebuilds the
//!   node from its path (free: a real program copies the position from the split point, which
//!   the data write stands for). *Whom it examines*: `ybwc_shared` asks one *victim* per try, a
//!   processor drawn uniformly among the others from its seeded stream, or the next one round
//!   robin ([`super::ybwc::Victim`]); `dts` examines every other processor (see [`super::dts`]).
//!   A try that finds nothing (no split point, or none left under the lock) is followed by a
//!   back-off of `max(e, 1 ns)` (category idle_sync) before the next try.
//! - *A helper's result*: when a task taken from a split point ends, its value is folded into
//!   the owner's split point under the split point's lock: acquire (1 w, spins as above), the
//!   result (1 w, the split point's data; the owner's engine folds it when the write ends:
//!   raising alpha, closing frames on a cutoff, unblocking the owner's task), release (1 w).
//! - *The owner's own sons at a split point*: a frame that has handed a son out is shared, so
//!   the owner too folds the value of every son it searched there under the lock (1 w acquire,
//!   1 w data, 1 w release), as Stockfish's master does; its task waits meanwhile. A frame never
//!   split costs nothing of the kind, so on one processor the scheme is exactly alpha-beta.
//! - *Abort*: a cutoff at a split point (or above it) marks each of its helpers' tasks stopped:
//!   1 w per helper (a flag word of the helper's block). The helper's task is removed when the
//!   write ends; its search is shared, so it stops at its next step; the helper's own helpers
//!   are then aborted by the helper in turn (the same writes).
//! - *Window updates* (option `window_updates`): 1 w per helper of each frame whose window
//!   narrowed (the helper's flag word); the helper's frames narrow when the write ends.
//! - *Seeing its own state* (a result folded into its split point, an abort or window of its
//!   task, the stop word): free. These are lines a processor spins on in its own cache; another
//!   processor's write invalidates them, and the processor sees the change at its next step or
//!   at the end of its current access, spin or back-off.
//! - *Helpful master* (option `helpful_master`, Stockfish's rule): a processor whose tasks are
//!   all blocked on helpers joins only the split points of its own helpers (round robin over the
//!   helpers of its blocked frames), never another processor's; the work it takes becomes a task
//!   on top of its blocked ones and the engine steps the lowest task that is not blocked, so a
//!   blocked task resumes as soon as its results are in. Off: it backs off (`max(e, 1 ns)`,
//!   idle_sync) until its helpers are back.
//! - *Termination*: processor 0, having the root value, writes the stop word (1 w); when the
//!   write ends every processor's tasks are dropped (they are orphaned work), and every
//!   processor stops at the end of what it is doing.
//!
//! This is Stockfish's *late join* rule (from 2014: an idle thread looks for a split point to
//! join) rather than the 2013 master-driven booking (a master books idle threads when it
//! splits); the split-point locks, the helpful master's rule and the cutoff flags are as in
//! both.

use super::splitpoint::{Candidate, Engine, Outgoing};
use super::ybwc::{Victim, YbwcConfig};
use crate::rng::SplitMix64;
use crate::scheme::{DeployError, Figures};
use crate::trees::{GameTree, Value};
use rand::SeedableRng;
use sim_core::{MsgKind, ProcId, SimTime};
use sim_hw::{Cx, Message, Platform, Program, Search, Step};
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

/// Words per processor's block of shared memory.
const BLOCK: u64 = 1031;

fn list_addr(p: ProcId) -> u64 {
    p.index() as u64 * BLOCK
}
fn lock_addr(p: ProcId, frame: u64) -> u64 {
    p.index() as u64 * BLOCK + 1 + 2 * (frame % 256)
}
fn data_addr(p: ProcId, frame: u64) -> u64 {
    lock_addr(p, frame) + 1
}
fn flag_addr(helper: ProcId, owner: ProcId, job: u64) -> u64 {
    helper.index() as u64 * BLOCK + 513 + (owner.index() as u64 * 61 + job) % 512
}

/// Young Brothers Wait with split points in shared memory: the options of [`super::ybwc`]
/// (victims, window updates, helpful master, least split depth, seed).
#[derive(Clone, Copy, Debug)]
pub struct YbwcShared(pub YbwcConfig);

/// How an idle processor finds a split point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Join {
    /// One victim per try (`ybwc_shared`).
    Victim(Victim),
    /// Every other processor's tree, the best split point over all (`dts`).
    Global,
}

/// What a shared-memory split-point role is told.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Policy {
    pub(crate) depth: u32,
    pub(crate) join: Join,
    pub(crate) window_updates: bool,
    pub(crate) helpful_master: bool,
    pub(crate) min_split_depth: u32,
    pub(crate) seed: u64,
}

/// The roles send no messages: this protocol has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMsg {}

impl Message for NoMsg {
    fn kind(&self) -> MsgKind {
        match *self {}
    }
    fn bytes(&self) -> u64 {
        match *self {}
    }
}

/// Every processor's engine, the split points' locks and the stop word: the shared data.
pub struct World<'t, T: GameTree> {
    engines: Vec<Engine<'t, T>>,
    /// Held locks: (owner, frame).
    locks: HashSet<(ProcId, u64)>,
    done: bool,
}

/// An access under a split point's lock: whose, which, and what for.
#[derive(Clone, Copy, Debug)]
pub struct Locked {
    owner: ProcId,
    frame: u64,
    what: Purpose,
}

#[derive(Clone, Copy, Debug)]
enum Purpose {
    Join,
    Result { job: u64, value: Value },
    Fold { value: Value },
}

/// An owner's write to a helper's flag word: what it does when it ends.
#[derive(Clone, Copy, Debug)]
pub struct Flag(Outgoing);

/// What a role's search, wait or access hands back.
#[derive(Clone, Copy, Debug)]
pub enum SplitOut {
    /// The search stopped: every task blocked or finished, or something to write.
    Search,
    /// The back-off after a try that found nothing.
    Backoff,
    /// The read of this processor's split-point list has ended.
    Examined(ProcId),
    /// A test-and-set on a split point's lock has ended.
    TestAndSet(Locked),
    /// The spin after a failed test-and-set has ended.
    Spun(Locked),
    /// The write under the lock has ended.
    Written(Locked),
    /// The lock's release has ended.
    Released(Locked),
    /// A write to a helper's flag word (abort, window) has ended.
    Flagged(Flag),
    /// Processor 0's write of the stop word has ended.
    Stopped,
}

/// The machine's handle on a processor's engine.
pub struct SplitSearch<'t, T: GameTree> {
    world: Rc<RefCell<World<'t, T>>>,
    me: usize,
}

impl<T: GameTree> Search for SplitSearch<'_, T> {
    type Out = SplitOut;
    fn step(&mut self) -> Step<SplitOut> {
        self.world.borrow_mut().engines[self.me].step(SplitOut::Search)
    }
}

/// What a processor counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitCounts {
    /// Split-point lists read (processors examined).
    pub examined: u64,
    /// Tries that found no son to take.
    pub misses: u64,
    /// Sons taken from another processor's split point.
    pub joins: u64,
    /// Sons handed out from this processor's split points.
    pub given: u64,
    /// Locks acquired.
    pub lock_acquires: u64,
    /// Failed test-and-sets (the lock was held).
    pub lock_waits: u64,
    /// Helpers' tasks stopped (abort flags written).
    pub aborts: u64,
    /// Window updates written to helpers.
    pub windows: u64,
}

/// The role every processor runs (see the module doc).
pub struct SplitRole<'t, T: GameTree> {
    world: Rc<RefCell<World<'t, T>>>,
    policy: Policy,
    me: ProcId,
    /// The machine holds a search handle.
    running: bool,
    /// An access, spin or back-off is in progress.
    busy: bool,
    /// The join in progress has found nothing.
    missed: bool,
    /// `dts`: the best split point seen so far in this examination.
    best: Option<(ProcId, Candidate)>,
    rng: SplitMix64,
    last_asked: usize,
    helper_cursor: usize,
    root_value: Option<Value>,
    finished_at: Option<SimTime>,
    counts: SplitCounts,
}

type SCx<'a, 't, T> = Cx<'a, SplitRole<'t, T>>;

/// `a` is a better split point than `b` by Hyatt's rule as [`super::dts`] states it.
fn better(a: &Candidate, b: &Candidate) -> bool {
    (a.ply, std::cmp::Reverse(a.depth), std::cmp::Reverse(a.left))
        < (b.ply, std::cmp::Reverse(b.depth), std::cmp::Reverse(b.left))
}

impl<'t, T: GameTree> SplitRole<'t, T> {
    /// The root value (processor 0, once it has it).
    pub fn root_value(&self) -> Option<Value> {
        self.root_value
    }
    /// The root move processor 0 chose (its index in the root's move order).
    pub fn root_move(&self) -> Option<usize> {
        self.world.borrow().engines[self.me.index()].root_best
    }
    /// When processor 0 had the root value.
    pub fn finished_at(&self) -> Option<SimTime> {
        self.finished_at
    }
    /// What this processor counted.
    pub fn counts(&self) -> SplitCounts {
        let w = self.world.borrow();
        let e = &w.engines[self.me.index()];
        SplitCounts {
            given: e.given,
            aborts: e.aborts,
            windows: e.windows,
            ..self.counts
        }
    }

    fn backoff(&mut self, cx: &mut SCx<'_, 't, T>) {
        self.busy = true;
        cx.wait(cx.costs().e.max(SimTime(1)), SplitOut::Backoff);
    }

    fn test_and_set(&mut self, lock: Locked, cx: &mut SCx<'_, 't, T>) {
        self.busy = true;
        cx.write(
            lock_addr(lock.owner, lock.frame),
            SplitOut::TestAndSet(lock),
        );
    }

    /// After every callback: write what the engine produced, then search, or look for work.
    fn settle(&mut self, cx: &mut SCx<'_, 't, T>) {
        if self.running || self.busy {
            return;
        }
        let me = self.me;
        let n = cx.processors();
        let mut w = self.world.borrow_mut();
        if w.done {
            return;
        }
        let e = &mut w.engines[me.index()];
        if !e.outbox.is_empty() {
            let o = e.outbox.remove(0);
            drop(w);
            match o {
                Outgoing::Result { owner, value } => self.test_and_set(
                    Locked {
                        owner: owner.proc,
                        frame: owner.frame,
                        what: Purpose::Result {
                            job: owner.job,
                            value,
                        },
                    },
                    cx,
                ),
                Outgoing::Fold { frame, value } => self.test_and_set(
                    Locked {
                        owner: me,
                        frame,
                        what: Purpose::Fold { value },
                    },
                    cx,
                ),
                Outgoing::Abort { proc, job } | Outgoing::Window { proc, job, .. } => {
                    self.busy = true;
                    cx.write(flag_addr(proc, me, job), SplitOut::Flagged(Flag(o)));
                }
                Outgoing::Root(v) => {
                    self.root_value = Some(v);
                    self.finished_at = Some(cx.now());
                    cx.mark("root value");
                    let mut w = self.world.borrow_mut();
                    w.engines[me.index()].tasks.clear();
                    w.engines[me.index()].outbox.clear();
                    if n > 1 {
                        self.busy = true;
                        cx.write(n as u64 * BLOCK, SplitOut::Stopped);
                    } else {
                        w.done = true;
                    }
                }
            }
            return;
        }
        if e.runnable() {
            drop(w);
            self.running = true;
            cx.search_shared(SplitSearch {
                world: self.world.clone(),
                me: me.index(),
            });
            return;
        }
        if n < 2 {
            return;
        }
        let has_tasks = !e.tasks.is_empty();
        if has_tasks && !self.policy.helpful_master {
            drop(w);
            self.backoff(cx);
            return;
        }
        self.missed = false;
        match self.policy.join {
            Join::Victim(victim) => {
                let helper = if has_tasks {
                    let count = e.blocked_helpers().count();
                    (count > 0).then(|| {
                        let i = self.helper_cursor % count;
                        self.helper_cursor = self.helper_cursor.wrapping_add(1);
                        e.blocked_helpers().nth(i).expect("counted")
                    })
                } else {
                    None
                };
                drop(w);
                let v = helper.unwrap_or_else(|| self.victim(victim, n));
                self.busy = true;
                self.counts.examined += 1;
                cx.read(list_addr(v), SplitOut::Examined(v));
            }
            Join::Global => {
                drop(w);
                self.best = None;
                let q = ProcId(((me.index() + 1) % n) as u32);
                self.busy = true;
                self.counts.examined += 1;
                cx.read(list_addr(q), SplitOut::Examined(q));
            }
        }
    }

    fn victim(&mut self, victim: Victim, n: usize) -> ProcId {
        victim.pick(&mut self.rng, &mut self.last_asked, self.me.index(), n)
    }

    /// The read of `q`'s split-point list has ended.
    fn examined(&mut self, q: ProcId, cx: &mut SCx<'_, 't, T>) {
        let n = cx.processors();
        let w = self.world.borrow();
        let e = &w.engines[q.index()];
        let found = match self.policy.join {
            Join::Victim(_) => e.candidate(),
            Join::Global => e
                .candidates()
                .fold(None, |b: Option<Candidate>, c| match b {
                    Some(b) if !better(&c, &b) => Some(b),
                    _ => Some(c),
                }),
        };
        drop(w);
        let chosen = match self.policy.join {
            Join::Victim(_) => found.map(|c| (q, c)),
            Join::Global => {
                if let Some(c) = found {
                    if self.best.is_none_or(|(_, b)| better(&c, &b)) {
                        self.best = Some((q, c));
                    }
                }
                let next = (q.index() + 1) % n;
                if next != self.me.index() {
                    self.counts.examined += 1;
                    cx.read(
                        list_addr(ProcId(next as u32)),
                        SplitOut::Examined(ProcId(next as u32)),
                    );
                    return;
                }
                self.best.take()
            }
        };
        match chosen {
            Some((owner, c)) => self.test_and_set(
                Locked {
                    owner,
                    frame: c.frame,
                    what: Purpose::Join,
                },
                cx,
            ),
            None => {
                self.counts.misses += 1;
                self.backoff(cx);
            }
        }
    }
}

impl<'t, T: GameTree> Program for SplitRole<'t, T> {
    type Msg = NoMsg;
    type Out = SplitOut;
    type Search = SplitSearch<'t, T>;

    fn start(&mut self, cx: &mut SCx<'_, 't, T>) {
        if cx.me() == ProcId::MASTER {
            self.world.borrow_mut().engines[0].push_root(self.policy.depth);
        }
        self.settle(cx);
    }

    fn on_message(&mut self, _from: ProcId, msg: NoMsg, _cx: &mut SCx<'_, 't, T>) {
        match msg {}
    }

    fn on_done(&mut self, out: SplitOut, cx: &mut SCx<'_, 't, T>) {
        match out {
            SplitOut::Search => self.running = false,
            _ => self.busy = false,
        }
        if self.world.borrow().done {
            return;
        }
        let me = self.me;
        match out {
            SplitOut::Search | SplitOut::Backoff => {}
            SplitOut::Examined(q) => {
                self.busy = true;
                self.examined(q, cx);
                return;
            }
            SplitOut::TestAndSet(l) => {
                let mut w = self.world.borrow_mut();
                self.busy = true;
                if w.locks.insert((l.owner, l.frame)) {
                    self.counts.lock_acquires += 1;
                    cx.write(data_addr(l.owner, l.frame), SplitOut::Written(l));
                } else {
                    self.counts.lock_waits += 1;
                    let spin = cx.memory().map_or(SimTime::ZERO, |m| m.read);
                    cx.spin(spin.max(SimTime(1)), SplitOut::Spun(l));
                }
                return;
            }
            SplitOut::Spun(l) => {
                self.test_and_set(l, cx);
                return;
            }
            SplitOut::Written(l) => {
                let mut w = self.world.borrow_mut();
                match l.what {
                    Purpose::Join => match w.engines[l.owner.index()].take(l.frame, me) {
                        Some(work) => {
                            w.engines[me.index()].push_work(l.owner, work);
                            self.counts.joins += 1;
                        }
                        None => self.missed = true,
                    },
                    Purpose::Result { job, value } => {
                        w.engines[l.owner.index()].result(me, job, value)
                    }
                    Purpose::Fold { value } => w.engines[me.index()].fold_local(l.frame, value),
                }
                self.busy = true;
                cx.write(lock_addr(l.owner, l.frame), SplitOut::Released(l));
                return;
            }
            SplitOut::Released(l) => {
                self.world.borrow_mut().locks.remove(&(l.owner, l.frame));
                if self.missed {
                    self.missed = false;
                    self.counts.misses += 1;
                    self.backoff(cx);
                    return;
                }
            }
            SplitOut::Flagged(Flag(o)) => {
                let mut w = self.world.borrow_mut();
                match o {
                    Outgoing::Abort { proc, job } => w.engines[proc.index()].abort(me, job),
                    Outgoing::Window {
                        proc,
                        job,
                        alpha,
                        beta,
                    } => w.engines[proc.index()].window(me, job, alpha, beta),
                    _ => unreachable!("only aborts and windows are flags"),
                }
            }
            SplitOut::Stopped => {
                let mut w = self.world.borrow_mut();
                w.done = true;
                for e in &mut w.engines {
                    e.tasks.clear();
                    e.outbox.clear();
                }
                return;
            }
        }
        self.settle(cx);
    }

    fn pending(&self) -> Option<String> {
        if self.me == ProcId::MASTER && self.root_value.is_none() {
            let w = self.world.borrow();
            return Some(format!(
                "the root value ({} tasks)",
                w.engines[0].tasks.len()
            ));
        }
        None
    }
}

/// The roles of a shared-memory split-point scheme: one world, a role per processor.
pub(crate) fn deploy<'t, T: GameTree>(
    name: &str,
    policy: Policy,
    tree: &'t T,
    platform: &Platform,
) -> Result<Vec<SplitRole<'t, T>>, DeployError> {
    if policy.depth == 0 {
        return Err(DeployError::NoDepth {
            scheme: name.into(),
        });
    }
    let n = platform.len();
    let world = Rc::new(RefCell::new(World {
        engines: (0..n)
            .map(|_| Engine::new(tree, policy.window_updates, policy.min_split_depth, true))
            .collect(),
        locks: HashSet::new(),
        done: false,
    }));
    Ok((0..n)
        .map(|p| SplitRole {
            world: world.clone(),
            policy,
            me: ProcId(p as u32),
            running: false,
            busy: false,
            missed: false,
            best: None,
            rng: SplitMix64::seed_from_u64(crate::rng::mix2(policy.seed, p as u64)),
            last_asked: p,
            helper_cursor: 0,
            root_value: None,
            finished_at: None,
            counts: SplitCounts::default(),
        })
        .collect())
}

/// The figures of a shared-memory split-point scheme, summed over processors.
pub(crate) fn figures<T: GameTree>(roles: &[SplitRole<'_, T>]) -> Figures {
    let mut c = SplitCounts::default();
    for r in roles {
        let k = r.counts();
        c.examined += k.examined;
        c.misses += k.misses;
        c.joins += k.joins;
        c.given += k.given;
        c.lock_acquires += k.lock_acquires;
        c.lock_waits += k.lock_waits;
        c.aborts += k.aborts;
        c.windows += k.windows;
    }
    Figures::default()
        .with("splits", c.given)
        .with("split_examined", c.examined)
        .with("split_misses", c.misses)
        .with("lock_acquires", c.lock_acquires)
        .with("lock_waits", c.lock_waits)
        .with("split_aborts", c.aborts)
        .with("split_windows", c.windows)
}

impl<'t, T: GameTree + 't> crate::Scheme<'t, T> for YbwcShared {
    type Role = SplitRole<'t, T>;
    fn name(&self) -> String {
        "ybwc_shared".into()
    }
    fn deploy_on(&self, tree: &'t T, platform: &Platform) -> Result<Vec<Self::Role>, DeployError> {
        let c = self.0;
        deploy(
            "ybwc_shared",
            Policy {
                depth: c.depth,
                join: Join::Victim(c.victim),
                window_updates: c.window_updates,
                helpful_master: c.helpful_master,
                min_split_depth: c.min_split_depth,
                seed: c.seed,
            },
            tree,
            platform,
        )
    }
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value> {
        roles.first().and_then(SplitRole::root_value)
    }
    fn answer_at(&self, roles: &[Self::Role]) -> Option<SimTime> {
        roles.first().and_then(|r| r.finished_at())
    }
    fn root_move(&self, roles: &[Self::Role]) -> Option<usize> {
        roles.first().and_then(SplitRole::root_move)
    }
    fn figures(&self, roles: &[Self::Role]) -> Figures {
        figures(roles)
    }
}
