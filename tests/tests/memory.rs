//! The shared-memory machine: bank contention, the memory category, spinning, searches whose
//! state other processors change, and seeded timing noise.

use sim_core::{Category, MsgKind, ProcId, RunStats, SimTime};
use sim_hw::{
    CostModel, Cx, Jitter, LinkSpec, Machine, MachineConfig, MachineError, MemorySpec, Message,
    PoolNetwork, Program, Search, Step,
};
use std::cell::Cell;
use std::rc::Rc;

#[derive(Clone, Debug)]
struct NoMsg;
impl Message for NoMsg {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        1
    }
}

fn spec(banks: u32) -> MemorySpec {
    MemorySpec {
        read: SimTime(100),
        write: SimTime(300),
        banks,
        numa: None,
    }
}

fn machine(n: usize, memory: Option<MemorySpec>, batching: bool) -> MachineConfig {
    let mut c = MachineConfig::pool(
        n,
        PoolNetwork::FullyConnected,
        CostModel {
            e: SimTime(1_000),
            s: SimTime(10_000),
            ..CostModel::campbell()
        },
        // Slow lines: a message takes long to arrive, so the lookahead is long unless the
        // search is shared.
        LinkSpec::serial(1_000, false),
    );
    c.memory = memory;
    c.batching = batching;
    c
}

fn run<P: Program>(config: MachineConfig, programs: Vec<P>) -> RunStats {
    let (stats, _) = Machine::new(config, programs).unwrap().run().unwrap();
    for (i, p) in stats.procs.iter().enumerate() {
        assert_eq!(
            p.times.total(),
            stats.makespan.as_nanos(),
            "P{i}'s categories"
        );
    }
    stats
}

/// Reads the addresses given, one after the other, then spins for `spin`.
struct Reader {
    addrs: Vec<u64>,
    spin: SimTime,
    ended: Vec<SimTime>,
}

impl Program for Reader {
    type Msg = NoMsg;
    type Out = ();
    type Search = sim_hw::NoSearch<()>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        for &a in &self.addrs {
            cx.read(a, ());
        }
        if self.spin > SimTime::ZERO {
            cx.spin(self.spin, ());
        }
    }
    fn on_message(&mut self, _: ProcId, _: NoMsg, _: &mut Cx<Self>) {}
    fn on_done(&mut self, _: (), cx: &mut Cx<Self>) {
        self.ended.push(cx.now());
    }
}

#[test]
fn accesses_to_one_bank_queue_and_are_accounted_as_memory() {
    let reader = |addrs: Vec<u64>, spin| Reader {
        addrs,
        spin: SimTime(spin),
        ended: Vec::new(),
    };
    // Two banks: P0 and P1 both want bank 0 at time 0, P2 wants bank 1.
    let programs = vec![
        reader(vec![0], 0),
        reader(vec![2, 1], 50),
        reader(vec![1], 0),
    ];
    let (stats, programs) = Machine::new(machine(3, Some(spec(2)), true), programs)
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(programs[0].ended, vec![SimTime(100)]);
    // P1 waits for P0's read of bank 0, then reads bank 1 (free since P2's read ended at 100).
    assert_eq!(
        programs[1].ended,
        vec![SimTime(200), SimTime(300), SimTime(350)]
    );
    assert_eq!(programs[2].ended, vec![SimTime(100)]);
    assert_eq!(stats.makespan, SimTime(350));
    let memory = |p: usize| stats.procs[p].times.get(Category::Memory);
    assert_eq!((memory(0), memory(1), memory(2)), (100, 350, 100));
    assert_eq!(stats.memory.reads, 4);
    assert_eq!(stats.memory.writes, 0);
    assert_eq!(stats.memory.bank_wait_ns, 100);
    for p in &stats.procs {
        assert_eq!(p.times.total(), 350);
    }
}

#[test]
fn memory_on_a_machine_without_it_is_an_error() {
    let programs = vec![Reader {
        addrs: vec![0],
        spin: SimTime::ZERO,
        ended: Vec::new(),
    }];
    let Err(err) = Machine::new(machine(1, None, true), programs)
        .unwrap()
        .run()
    else {
        panic!("ran without memory");
    };
    assert!(
        matches!(&err, MachineError::Invariant { message, .. } if message.contains("shared memory")),
        "{err}"
    );
}

/// A search of `leaves` leaves that stops at the first step that starts after `flag` is set.
struct Watcher {
    flag: Rc<Cell<bool>>,
    left: u32,
    taken: u32,
}

impl Search for Watcher {
    type Out = u32;
    fn step(&mut self) -> Step<u32> {
        if self.flag.get() || self.left == 0 {
            return Step::Done(self.taken);
        }
        self.left -= 1;
        self.taken += 1;
        Step::Leaf { quiescence: 0 }
    }
}

/// P0 searches (shared or not); P1 writes the flag at the end of a write after `delay`.
struct Flagging {
    flag: Rc<Cell<bool>>,
    shared: bool,
    delay: SimTime,
    stopped_after: Option<u32>,
}

impl Program for Flagging {
    type Msg = NoMsg;
    type Out = u32;
    type Search = Watcher;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if cx.me() == ProcId(0) {
            let w = Watcher {
                flag: self.flag.clone(),
                left: 1_000,
                taken: 0,
            };
            if self.shared {
                cx.search_shared(w);
            } else {
                cx.search(w);
            }
        } else {
            cx.wait(self.delay, u32::MAX);
        }
    }
    fn on_message(&mut self, _: ProcId, _: NoMsg, _: &mut Cx<Self>) {}
    fn on_done(&mut self, out: u32, cx: &mut Cx<Self>) {
        match (cx.me(), out) {
            (ProcId(0), n) => self.stopped_after = Some(n),
            (_, u32::MAX) => cx.write(7, 0),
            _ => self.flag.set(true),
        }
    }
}

fn flagging(shared: bool, batching: bool, delay: u64) -> (u32, RunStats) {
    let flag = Rc::new(Cell::new(false));
    let programs = (0..2)
        .map(|_| Flagging {
            flag: flag.clone(),
            shared,
            delay: SimTime(delay),
            stopped_after: None,
        })
        .collect();
    let (stats, programs) = Machine::new(machine(2, Some(spec(4)), batching), programs)
        .unwrap()
        .run()
        .unwrap();
    (programs[0].stopped_after.unwrap(), stats)
}

#[test]
fn a_shared_search_sees_another_processors_change_when_it_is_made() {
    for delay in [0u64, 1, 999, 1_000, 12_345, 400_000] {
        // The flag is set at delay + 300 (the write's latency); leaves cost 1,000 each and a
        // step's effect happens at its start, so the search takes every leaf that starts
        // before then, and none after.
        let set = delay + 300;
        let expected = set.div_ceil(1_000).min(1_000) as u32;
        let (batched, b) = flagging(true, true, delay);
        let (stepped, s) = flagging(true, false, delay);
        assert_eq!(batched, expected, "delay {delay}");
        assert_eq!(stepped, expected, "delay {delay}");
        assert_eq!(b.makespan, s.makespan);
        assert_eq!(b.total_times(), s.total_times());
        assert!(b.events <= s.events);
    }
    // A plain search runs ahead of the change, up to when a message could reach it: that is
    // why schemes whose searches other processors change start them with `search_shared`.
    let (plain, _) = flagging(false, true, 12_345);
    assert!(plain > 13, "{plain}");
}

/// Searches `leaves` leaves.
struct Leaves(u32);
impl Search for Leaves {
    type Out = ();
    fn step(&mut self) -> Step<()> {
        if self.0 == 0 {
            return Step::Done(());
        }
        self.0 -= 1;
        Step::Leaf { quiescence: 0 }
    }
}

struct Searcher;
impl Program for Searcher {
    type Msg = NoMsg;
    type Out = ();
    type Search = Leaves;
    fn start(&mut self, cx: &mut Cx<Self>) {
        cx.search(Leaves(500 + 100 * cx.me().index() as u32));
    }
    fn on_message(&mut self, _: ProcId, _: NoMsg, _: &mut Cx<Self>) {}
    fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
}

#[test]
fn jitter_is_seeded_and_the_same_batched_or_step_by_step() {
    let with = |seed: Option<u64>, batching: bool| {
        let mut c = machine(3, Some(spec(4)), batching);
        c.jitter = seed.map(|seed| Jitter {
            permille: 200,
            seed,
        });
        run(c, vec![Searcher, Searcher, Searcher])
    };
    let exact = with(None, true);
    assert_eq!(exact.makespan, SimTime(700 * 1_000));
    let a = with(Some(1), true);
    assert_eq!(a.makespan, with(Some(1), false).makespan);
    assert_eq!(a.total_times(), with(Some(1), false).total_times());
    assert_eq!(a.makespan, with(Some(1), true).makespan, "reproducible");
    let b = with(Some(2), true);
    assert_ne!(a.makespan, exact.makespan);
    assert_ne!(a.makespan, b.makespan);
    // Within ±20 % of the exact time, and leaf time counts the noisy costs.
    let m = a.makespan.as_nanos() as f64;
    assert!((560_000.0..=840_000.0).contains(&m), "{m}");
    assert_eq!(
        a.total_nodes().leaf_ns,
        a.total_times().get(Category::Search)
    );
}
