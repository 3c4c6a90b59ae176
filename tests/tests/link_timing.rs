//! Serial-link timing, queueing and RTS/CTS, measured through the message log of a Machine.

use sim_core::{Category, MsgKind, ProcId, SimTime};
use sim_hw::{
    CostModel, Cx, LinkSpec, Machine, MachineConfig, Message, NoSearch, ProcessorTree, Program,
    Work,
};

#[derive(Clone, Debug)]
struct Msg(u64);
impl Message for Msg {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        self.0
    }
}

/// A scripted role: at start, the master optionally computes, then sends `sends`; a child
/// optionally computes at start; every received message costs the receiver `on_receive`.
struct Script {
    start_compute: SimTime,
    sends: Vec<(ProcId, u64)>,
    on_receive: SimTime,
}

impl Program for Script {
    type Msg = Msg;
    type Out = bool;
    type Search = NoSearch<bool>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if self.start_compute > SimTime::ZERO {
            cx.compute(
                Work {
                    time: self.start_compute,
                    ..Default::default()
                },
                true,
            );
        } else {
            self.send_all(cx);
        }
    }
    fn on_message(&mut self, _: ProcId, _: Msg, cx: &mut Cx<Self>) {
        if self.on_receive > SimTime::ZERO {
            cx.compute(
                Work {
                    time: self.on_receive,
                    ..Default::default()
                },
                false,
            );
        }
    }
    fn on_done(&mut self, first: bool, cx: &mut Cx<Self>) {
        if first {
            self.send_all(cx);
        }
    }
}

impl Script {
    fn send_all(&mut self, cx: &mut Cx<Script>) {
        for (to, bytes) in self.sends.drain(..) {
            cx.send(to, Msg(bytes));
        }
    }
    fn idle() -> Self {
        Script {
            start_compute: SimTime::ZERO,
            sends: vec![],
            on_receive: SimTime::ZERO,
        }
    }
}

fn machine(f: u32, s: SimTime, link: LinkSpec, programs: Vec<Script>) -> sim_core::RunStats {
    let costs = CostModel {
        s,
        interrupt: SimTime::from_micros(300),
        ..CostModel::campbell()
    };
    let mut config = MachineConfig::new(ProcessorTree::new(f, 1), costs, link);
    config.record_intervals = true;
    config.record_messages = true;
    let (stats, _) = Machine::new(config, programs).unwrap().run().unwrap();
    for p in &stats.procs {
        assert_eq!(p.times.total(), stats.makespan.as_nanos());
    }
    stats
}

const S: SimTime = SimTime::from_millis(2);

#[test]
fn four_bytes_at_960_bytes_per_second_arrive_setup_plus_4_over_960_later() {
    let master = Script {
        sends: vec![(ProcId(1), 4)],
        ..Script::idle()
    };
    let stats = machine(
        2,
        S,
        LinkSpec::serial(960, false),
        vec![master, Script::idle()],
    );
    let m = &stats.message_log[0];
    // 4/960 s = 4,166,666.67 ns, rounded up to the next whole nanosecond.
    assert_eq!(m.sent, S);
    assert_eq!(m.transmit_start, S);
    assert_eq!(m.arrived, S + SimTime(4_166_667));
    assert_eq!(stats.makespan, S + SimTime(4_166_667));
    assert_eq!(stats.procs[0].times.get(Category::Message), S.as_nanos());
    assert_eq!(stats.messages.count(MsgKind::InterNode), 1);
    assert_eq!(stats.messages.bytes_total(), 4);
}

#[test]
fn two_messages_on_one_line_queue_behind_each_other() {
    let master = Script {
        sends: vec![(ProcId(1), 48), (ProcId(1), 4)],
        ..Script::idle()
    };
    let stats = machine(
        2,
        S,
        LinkSpec::serial(960, false),
        vec![master, Script::idle()],
    );
    let (a, b) = (&stats.message_log[0], &stats.message_log[1]);
    let t48 = SimTime(50_000_000); // 48/960 s exactly
    assert_eq!((a.sent, a.transmit_start, a.arrived), (S, S, S + t48));
    // The second is handed over after its own setup (2 s) but the line is busy until S + 50 ms.
    assert_eq!(b.sent, S + S);
    assert_eq!(b.transmit_start, S + t48);
    assert_eq!(b.arrived, S + t48 + SimTime(4_166_667));
}

#[test]
fn lines_to_different_children_run_in_parallel_and_directions_are_full_duplex() {
    let master = Script {
        sends: vec![(ProcId(1), 96), (ProcId(2), 96)],
        ..Script::idle()
    };
    let child = Script {
        sends: vec![(ProcId(0), 96)],
        ..Script::idle()
    };
    let stats = machine(
        3,
        S,
        LinkSpec::serial(960, false),
        vec![master, child, Script::idle()],
    );
    let to1 = stats
        .message_log
        .iter()
        .find(|m| m.to == ProcId(1))
        .unwrap();
    let to2 = stats
        .message_log
        .iter()
        .find(|m| m.to == ProcId(2))
        .unwrap();
    let up = stats
        .message_log
        .iter()
        .find(|m| m.from == ProcId(1))
        .unwrap();
    let t96 = SimTime(100_000_000);
    assert_eq!(to1.arrived, S + t96);
    assert_eq!(to2.arrived, S + S + t96); // its own line, only the setup is sequential
    assert_eq!(up.transmit_start, S); // the child's line up is not the line down
    assert_eq!(up.arrived, S + t96);
}

#[test]
fn rts_cts_holds_a_message_to_a_busy_child_until_it_is_ready() {
    let busy = SimTime::from_millis(500);
    let master = Script {
        sends: vec![(ProcId(1), 4)],
        ..Script::idle()
    };
    let child = Script {
        start_compute: busy,
        ..Script::idle()
    };
    let held = machine(2, S, LinkSpec::serial(960, true), vec![master, child]);
    let m = &held.message_log[0];
    assert_eq!(m.sent, S);
    assert_eq!(
        m.transmit_start, busy,
        "held until the child finished and raised RTS"
    );
    assert_eq!(m.arrived, busy + SimTime(4_166_667));

    // Without RTS/CTS the line carries it at once and the child reads it when it is done.
    let master = Script {
        sends: vec![(ProcId(1), 4)],
        ..Script::idle()
    };
    let child = Script {
        start_compute: busy,
        on_receive: SimTime::from_millis(1),
        ..Script::idle()
    };
    let free = machine(2, S, LinkSpec::serial(960, false), vec![master, child]);
    assert_eq!(free.message_log[0].transmit_start, S);
    assert_eq!(free.makespan, busy + SimTime::from_millis(1));
}

#[test]
fn an_arrival_interrupts_the_master_and_delays_its_search_by_the_handler() {
    let search = SimTime::from_millis(100);
    let master = Script {
        start_compute: search,
        ..Script::idle()
    };
    let child = Script {
        sends: vec![(ProcId(0), 4)],
        ..Script::idle()
    };
    let stats = machine(2, S, LinkSpec::serial(960, false), vec![master, child]);
    let arrival = S + SimTime(4_166_667);
    assert_eq!(stats.message_log[0].arrived, arrival);
    let handler = SimTime::from_micros(300);
    assert_eq!(stats.makespan, search + handler);
    let p0 = &stats.procs[0];
    assert_eq!(p0.times.get(Category::Interrupt), handler.as_nanos());
    assert_eq!(p0.times.get(Category::Search), search.as_nanos());
    // Search, then the handler at the arrival, then the rest of the search.
    let cats: Vec<Category> = p0.intervals.iter().map(|i| i.category).collect();
    assert_eq!(
        cats,
        vec![Category::Search, Category::Interrupt, Category::Search]
    );
    assert_eq!(p0.intervals[1].start, arrival);
}

/// A role whose reaction to a message is a long search (as the pmws master's own share is,
/// when a child's result arrives while the master is idle).
struct SearchOnMessage {
    search: SimTime,
}
impl Program for SearchOnMessage {
    type Msg = Msg;
    type Out = bool;
    type Search = NoSearch<bool>;
    fn start(&mut self, _: &mut Cx<Self>) {}
    fn on_message(&mut self, _: ProcId, _: Msg, cx: &mut Cx<Self>) {
        if self.search > SimTime::ZERO {
            let time = std::mem::take(&mut self.search);
            cx.compute(
                Work {
                    time,
                    ..Default::default()
                },
                false,
            );
        }
    }
    fn on_done(&mut self, _: bool, _: &mut Cx<Self>) {}
}

#[test]
fn a_search_started_by_a_handler_is_still_interrupted_by_later_arrivals() {
    // Child 1 reports at once; the master's handler starts a 1 s search. Child 2 reports 100 ms
    // later; its handler must run at its arrival, not after the master's search.
    struct Sender(SimTime);
    impl Program for Sender {
        type Msg = Msg;
        type Out = bool;
        type Search = NoSearch<bool>;
        fn start(&mut self, cx: &mut Cx<Self>) {
            cx.compute(
                Work {
                    time: self.0,
                    ..Default::default()
                },
                true,
            );
        }
        fn on_message(&mut self, _: ProcId, _: Msg, _: &mut Cx<Self>) {}
        fn on_done(&mut self, _: bool, cx: &mut Cx<Self>) {
            cx.send(ProcId(0), Msg(4));
        }
    }
    enum Role {
        Master(SearchOnMessage),
        Child(Sender),
    }
    impl Program for Role {
        type Msg = Msg;
        type Out = bool;
        type Search = NoSearch<bool>;
        fn start(&mut self, cx: &mut Cx<Self>) {
            if let Role::Child(c) = self {
                let work = Work {
                    time: c.0,
                    ..Default::default()
                };
                cx.compute(work, true);
            }
        }
        fn on_message(&mut self, _: ProcId, _: Msg, cx: &mut Cx<Self>) {
            if let Role::Master(m) = self {
                if m.search > SimTime::ZERO {
                    let time = std::mem::take(&mut m.search);
                    cx.compute(
                        Work {
                            time,
                            ..Default::default()
                        },
                        false,
                    );
                }
            }
        }
        fn on_done(&mut self, _: bool, cx: &mut Cx<Self>) {
            if let Role::Child(_) = self {
                cx.send(ProcId(0), Msg(4));
            }
        }
    }
    let costs = CostModel {
        interrupt: SimTime::from_millis(1),
        ..CostModel::campbell()
    };
    let mut config = MachineConfig::new(ProcessorTree::new(3, 1), costs, LinkSpec::ideal());
    config.record_intervals = true;
    config.record_messages = true;
    let roles = vec![
        Role::Master(SearchOnMessage {
            search: SimTime::from_secs(1),
        }),
        Role::Child(Sender(SimTime::from_millis(1))),
        Role::Child(Sender(SimTime::from_millis(101))),
    ];
    let (stats, _) = Machine::new(config, roles).unwrap().run().unwrap();
    let p0 = &stats.procs[0];
    let handlers: Vec<SimTime> = p0
        .intervals
        .iter()
        .filter(|i| i.category == Category::Interrupt)
        .map(|i| i.start)
        .collect();
    assert_eq!(
        handlers,
        vec![SimTime::from_millis(1), SimTime::from_millis(101)]
    );
    // 1 ms idle, 1 ms handler, 1 s search interrupted once by a 1 ms handler.
    assert_eq!(stats.makespan, SimTime::from_millis(1 + 1 + 1000 + 1));
}

/// Roles for the two ordering cases below: P1 reports "A" at once, P2 computes 5 ns and reports
/// "B"; the master's handler for "A" starts a 100 ns search. Every reaction is logged.
#[derive(Clone, Debug)]
struct Named(&'static str);
impl Message for Named {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        4
    }
}
struct Logged {
    log: Vec<(&'static str, u64)>,
}
impl Program for Logged {
    type Msg = Named;
    type Out = &'static str;
    type Search = NoSearch<&'static str>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        match cx.me().0 {
            1 => cx.send(ProcId(0), Named("A")),
            2 => cx.compute(
                Work {
                    time: SimTime(5),
                    ..Default::default()
                },
                "P2 work",
            ),
            _ => {}
        }
    }
    fn on_message(&mut self, _: ProcId, m: Named, cx: &mut Cx<Self>) {
        self.log.push((m.0, cx.now().0));
        if m.0 == "A" {
            cx.compute(
                Work {
                    time: SimTime(100),
                    ..Default::default()
                },
                "own search",
            );
        }
    }
    fn on_done(&mut self, o: &'static str, cx: &mut Cx<Self>) {
        self.log.push((o, cx.now().0));
        if o == "P2 work" {
            cx.send(ProcId(0), Named("B"));
        }
    }
}

#[test]
fn an_interrupt_pending_behind_a_handler_runs_before_the_search_that_handler_started() {
    let costs = CostModel {
        interrupt: SimTime(10),
        ..CostModel::campbell()
    };
    let mut config = MachineConfig::new(ProcessorTree::new(3, 1), costs, LinkSpec::ideal());
    config.record_intervals = true;
    let roles = (0..3).map(|_| Logged { log: vec![] }).collect();
    let (stats, roles) = Machine::new(config, roles).unwrap().run().unwrap();
    // A's handler 0..10; B (arrived at 5) is serviced 10..20; the search runs 20..120.
    assert_eq!(
        roles[0].log,
        vec![("A", 10), ("B", 20), ("own search", 120)]
    );
    assert_eq!(stats.makespan, SimTime(120));
}

#[test]
fn rts_cts_at_time_zero_waits_for_the_work_the_child_starts_with() {
    struct Starter;
    impl Program for Starter {
        type Msg = Named;
        type Out = ();
        type Search = NoSearch<()>;
        fn start(&mut self, cx: &mut Cx<Self>) {
            if cx.me().0 == 0 {
                cx.send(ProcId(1), Named("W"));
            } else {
                cx.compute(
                    Work {
                        time: SimTime(100),
                        ..Default::default()
                    },
                    (),
                );
            }
        }
        fn on_message(&mut self, _: ProcId, _: Named, _: &mut Cx<Self>) {}
        fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
    }
    let mut config = MachineConfig::new(
        ProcessorTree::new(2, 1),
        CostModel::campbell(),
        LinkSpec::serial(1_000_000_000, true),
    );
    config.record_messages = true;
    let (stats, _) = Machine::new(config, vec![Starter, Starter])
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(stats.message_log[0].transmit_start, SimTime(100));
}

/// Parabelle's serial interface as a device: per-character CPU costs at each end.
fn sci(link: LinkSpec, host_char: SimTime, board_char: SimTime) -> LinkSpec {
    link.with_sci(sim_hw::SciSpec {
        capacity: None,
        host_char,
        board_char,
    })
}

const HOST_CHAR: SimTime = SimTime(2_200); // 22 cycles at 10 MHz
const BOARD_CHAR: SimTime = SimTime(18_000); // 180 cycles at 10 MHz

#[test]
fn a_board_pays_per_character_to_send_and_the_host_in_its_interrupt() {
    // The child sends 10 bytes to the master at time zero.
    let child = Script {
        sends: vec![(ProcId(0), 10)],
        ..Script::idle()
    };
    let link = sci(LinkSpec::serial(960, false), HOST_CHAR, BOARD_CHAR);
    let stats = machine(2, S, link, vec![Script::idle(), child]);
    let m = &stats.message_log[0];
    let setup = S.as_nanos() + 10 * BOARD_CHAR.as_nanos();
    assert_eq!(m.sent, SimTime(setup));
    assert_eq!(
        m.arrived,
        SimTime(setup + (10 * 1_000_000_000u64).div_ceil(960))
    );
    // The child's setup and its 10 characters are message time; the master's handler and its
    // 10 characters are interrupt time.
    assert_eq!(stats.procs[1].times.get(Category::Message), setup);
    let handler = 300_000 + 10 * HOST_CHAR.as_nanos();
    assert_eq!(stats.procs[0].times.get(Category::Interrupt), handler);
    assert_eq!(stats.makespan, SimTime(m.arrived.as_nanos() + handler));

    // Without the device, the same run costs only s and the handler.
    let child = Script {
        sends: vec![(ProcId(0), 10)],
        ..Script::idle()
    };
    let plain = machine(
        2,
        S,
        LinkSpec::serial(960, false),
        vec![Script::idle(), child],
    );
    assert_eq!(plain.procs[1].times.get(Category::Message), S.as_nanos());
    assert_eq!(plain.procs[0].times.get(Category::Interrupt), 300_000);
}

#[test]
fn a_board_takes_every_arriving_character_even_while_it_computes() {
    // The master sends 10 bytes at time zero; the child computes 50 ms from time zero (no
    // RTS/CTS, so the message arrives during its computation) and then 1 ms for the message.
    let master = Script {
        sends: vec![(ProcId(1), 10)],
        ..Script::idle()
    };
    let child = Script {
        start_compute: SimTime::from_millis(50),
        on_receive: SimTime::from_millis(1),
        ..Script::idle()
    };
    let link = sci(LinkSpec::serial(960, false), HOST_CHAR, BOARD_CHAR);
    let stats = machine(2, S, link, vec![master, child]);
    let m = &stats.message_log[0];
    let setup = S.as_nanos() + 10 * HOST_CHAR.as_nanos();
    assert_eq!(m.sent, SimTime(setup));
    assert_eq!(
        m.arrived,
        SimTime(setup + (10 * 1_000_000_000u64).div_ceil(960))
    );
    assert!(m.arrived < SimTime::from_millis(50));
    // Taking the 10 characters preempts the computation, which ends 10 * 18 us later; then the
    // child reads the message (it reads when idle) and computes 1 ms.
    let receive = 10 * BOARD_CHAR.as_nanos();
    let child = &stats.procs[1];
    assert_eq!(child.times.get(Category::Message), receive);
    assert_eq!(child.times.get(Category::Search), 51_000_000);
    assert_eq!(stats.makespan, SimTime(51_000_000 + receive));
    assert_eq!(stats.procs[0].times.get(Category::Message), setup);
}
