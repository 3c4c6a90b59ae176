//! The machine runs searches step by step: a message read during a search reaches it at the
//! simulated time it is read (under each read policy), batching never changes a result, and
//! failures are values (deadlock, missing line, time overflow).

use sim_core::{Category, MsgKind, ProcId, SimTime};
use sim_hw::{
    CostModel, Cx, LinkSpec, Machine, MachineConfig, MachineError, Message, ProcessorTree, Program,
    ReadPolicies, ReadPolicy, Search, Step, Work,
};

/// A search of `limit` leaf steps; a message may lower the limit. Records the step count at
/// which the change was applied and when.
struct Count {
    steps: u64,
    limit: u64,
}
impl Search for Count {
    type Out = u64;
    fn step(&mut self) -> Step<u64> {
        if self.steps >= self.limit {
            return Step::Done(self.steps);
        }
        self.steps += 1;
        Step::Leaf { quiescence: 0 }
    }
}

#[derive(Clone, Debug)]
struct Stop(u64);
impl Message for Stop {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        4
    }
}

/// P0 sends `Stop(new limit)` to P1 at time 0; P1 searches `Count { limit: 100 }` from time 0.
#[derive(Default)]
struct Role {
    /// (time read, steps already started when read)
    read: Option<(SimTime, Option<u64>)>,
    result: Option<(SimTime, u64)>,
}
impl Program for Role {
    type Msg = Stop;
    type Out = u64;
    type Search = Count;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if cx.me() == ProcId(0) {
            cx.send(ProcId(1), Stop(3));
        } else {
            cx.search(Count {
                steps: 0,
                limit: 100,
            });
        }
    }
    fn on_message(&mut self, _: ProcId, m: Stop, cx: &mut Cx<Self>) {
        let now = cx.now();
        let steps = cx.search_mut().map(|s| {
            s.limit = m.0;
            s.steps
        });
        self.read = Some((now, steps));
    }
    fn on_done(&mut self, steps: u64, cx: &mut Cx<Self>) {
        self.result = Some((cx.now(), steps));
    }
}

/// e = 10 ns per step, s = 25 ns, ideal line: the message arrives at 25, during the third step.
fn run_stop(boards: ReadPolicy, batching: bool, handler: u64) -> (Role, sim_core::RunStats) {
    let costs = CostModel {
        e: SimTime(10),
        q: sim_core::SimTime::ZERO,
        probe: sim_core::SimTime::ZERO,
        s: SimTime(25),
        interrupt: SimTime(handler),
        ..CostModel::campbell()
    };
    let mut config = MachineConfig::new(ProcessorTree::new(2, 1), costs, LinkSpec::ideal());
    config.reads = ReadPolicies {
        hosts: ReadPolicy::Interrupt,
        boards,
    };
    config.batching = batching;
    config.record_intervals = true;
    let (stats, mut roles) = Machine::new(config, vec![Role::default(), Role::default()])
        .unwrap()
        .run()
        .unwrap();
    for p in &stats.procs {
        assert_eq!(p.times.total(), stats.makespan.as_nanos());
    }
    (roles.remove(1), stats)
}

#[test]
fn an_interrupt_reaches_the_search_at_arrival_plus_handler() {
    for batching in [true, false] {
        // Read at 25: steps started at 0, 10, 20 are done or under way; the limit of 3 ends the
        // search when the third step ends, at 30.
        let (r, _) = run_stop(ReadPolicy::Interrupt, batching, 0);
        assert_eq!(r.read, Some((SimTime(25), Some(3))));
        assert_eq!(r.result, Some((SimTime(30), 3)));
        // A 7 ns handler: read at 32; the third step's last 5 ns resume after it, so the search
        // ends at 37, still with 3 steps (the fourth would have started at 37).
        let (r, stats) = run_stop(ReadPolicy::Interrupt, batching, 7);
        assert_eq!(r.read, Some((SimTime(32), Some(3))));
        assert_eq!(r.result, Some((SimTime(37), 3)));
        assert_eq!(stats.procs[1].times.get(Category::Interrupt), 7);
        assert_eq!(stats.procs[1].nodes.leaves, 3);
    }
}

#[test]
fn a_polling_board_reads_at_its_next_poll_point() {
    for batching in [true, false] {
        // Polls after every 2 steps: at 20 (nothing yet), at 40 (read; 4 steps done) — the new
        // limit 3 is already passed, so the search ends there.
        let (r, _) = run_stop(ReadPolicy::Poll { every: 2 }, batching, 0);
        assert_eq!(r.read, Some((SimTime(40), Some(4))));
        assert_eq!(r.result, Some((SimTime(40), 4)));
        // Every 7 steps: read at 70, after 7 steps.
        let (r, _) = run_stop(ReadPolicy::Poll { every: 7 }, batching, 0);
        assert_eq!(r.read, Some((SimTime(70), Some(7))));
        assert_eq!(r.result, Some((SimTime(70), 7)));
    }
}

#[test]
fn a_board_that_reads_when_idle_reads_after_its_search_and_cannot_reach_it() {
    for batching in [true, false] {
        let (r, stats) = run_stop(ReadPolicy::WhenIdle, batching, 0);
        assert_eq!(r.result, Some((SimTime(1000), 100)));
        // Read after the search ended: there is no search left to change.
        assert_eq!(r.read, Some((SimTime(1000), None)));
        assert_eq!(stats.makespan, SimTime(1000));
    }
}

#[test]
fn batching_reduces_events_and_nothing_else() {
    for boards in [
        ReadPolicy::Interrupt,
        ReadPolicy::Poll { every: 3 },
        ReadPolicy::WhenIdle,
    ] {
        let (a, sa) = run_stop(boards, true, 4);
        let (b, sb) = run_stop(boards, false, 4);
        assert_eq!((a.read, a.result), (b.read, b.result));
        assert_eq!(sa.makespan, sb.makespan);
        for (x, y) in sa.procs.iter().zip(&sb.procs) {
            assert_eq!(x.times, y.times);
            assert_eq!(x.nodes, y.nodes);
            assert_eq!(x.intervals, y.intervals);
        }
        assert!(sa.events <= sb.events, "{boards:?}");
    }
}

/// A master that asks its child and waits for an answer that never comes.
struct Asker {
    waiting: bool,
}
#[derive(Clone, Debug)]
struct Ask;
impl Message for Ask {
    fn kind(&self) -> MsgKind {
        MsgKind::AtNode
    }
    fn bytes(&self) -> u64 {
        6
    }
}
impl Program for Asker {
    type Msg = Ask;
    type Out = ();
    type Search = sim_hw::NoSearch<()>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if cx.me() == ProcId(0) {
            cx.send(ProcId(1), Ask);
            cx.idle_as(Category::WaitReply);
            self.waiting = true;
        }
    }
    fn on_message(&mut self, _: ProcId, _: Ask, _: &mut Cx<Self>) {
        // The broken child never answers.
    }
    fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
    fn pending(&self) -> Option<String> {
        self.waiting.then(|| "the answer to its probe".to_string())
    }
}

#[test]
fn a_program_that_never_answers_is_a_deadlock_naming_who_waits() {
    let config = MachineConfig::new(
        ProcessorTree::new(2, 1),
        CostModel::campbell(),
        LinkSpec::serial(960, true),
    );
    let roles = vec![Asker { waiting: false }, Asker { waiting: false }];
    let Err(err) = Machine::new(config, roles).unwrap().run() else {
        panic!("a deadlock must be an error")
    };
    assert_eq!(
        err,
        MachineError::Deadlock {
            stuck: vec![(ProcId(0), "the answer to its probe".into())]
        }
    );
    assert!(err
        .to_string()
        .contains("P0 waits for the answer to its probe"));
}

/// Sends to a processor it has no line to, or computes longer than time can represent.
struct Wrong(u8);
impl Program for Wrong {
    type Msg = Ask;
    type Out = ();
    type Search = sim_hw::NoSearch<()>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        match (cx.me().0, self.0) {
            (1, 0) => cx.send(ProcId(2), Ask),
            (0, 1) => {
                for _ in 0..2 {
                    let work = Work {
                        time: SimTime(u64::MAX / 2 + 1),
                        ..Default::default()
                    };
                    cx.compute(work, ());
                }
            }
            _ => {}
        }
    }
    fn on_message(&mut self, _: ProcId, _: Ask, _: &mut Cx<Self>) {}
    fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
}

#[test]
fn a_message_without_a_line_and_a_time_overflow_are_errors_not_panics() {
    let config = || {
        MachineConfig::new(
            ProcessorTree::new(3, 1),
            CostModel::campbell(),
            LinkSpec::ideal(),
        )
    };
    let Err(err) = Machine::new(config(), (0..3).map(|_| Wrong(0)).collect())
        .unwrap()
        .run()
    else {
        panic!("a send without a line must be an error")
    };
    assert_eq!(
        err,
        MachineError::NoLink {
            from: ProcId(1),
            to: ProcId(2)
        }
    );
    let Err(err) = Machine::new(config(), (0..3).map(|_| Wrong(1)).collect())
        .unwrap()
        .run()
    else {
        panic!("a time overflow must be an error")
    };
    assert!(
        matches!(
            err,
            MachineError::TimeOverflow {
                proc: ProcId(0),
                ..
            }
        ),
        "{err}"
    );
}

/// A search of `limit` leaves, each of which searched `q` quiescence nodes.
struct Quiet {
    left: u32,
    q: u32,
}
impl Search for Quiet {
    type Out = ();
    fn step(&mut self) -> Step<()> {
        if self.left == 0 {
            return Step::Done(());
        }
        self.left -= 1;
        Step::Leaf { quiescence: self.q }
    }
}

/// One processor runs one `Quiet` search.
struct QuietRole(Option<Quiet>);
impl Program for QuietRole {
    type Msg = Stop;
    type Out = ();
    type Search = Quiet;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if let Some(s) = self.0.take() {
            cx.search_isolated(s);
        }
    }
    fn on_message(&mut self, _: ProcId, _: Stop, _: &mut Cx<Self>) {}
    fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
}

#[test]
fn the_machine_charges_each_quiescence_node_q() {
    let costs = CostModel {
        k: SimTime(3),
        e: SimTime(100),
        q: SimTime(7),
        probe: SimTime::ZERO,
        s: SimTime::ZERO,
        interrupt: SimTime::ZERO,
    };
    for batching in [true, false] {
        let mut config = MachineConfig::new(ProcessorTree::new(1, 1), costs, LinkSpec::ideal());
        config.batching = batching;
        let roles = vec![QuietRole(Some(Quiet { left: 5, q: 4 }))];
        let (stats, _) = Machine::new(config, roles).unwrap().run().unwrap();
        let nodes = stats.total_nodes();
        assert_eq!(nodes.leaves, 5);
        assert_eq!(nodes.quiescence, 20);
        assert_eq!(stats.makespan, SimTime(5 * 100 + 20 * 7));
        assert_eq!(nodes.leaf_ns, 5 * 100 + 20 * 7);
    }
}
