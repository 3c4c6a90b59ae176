//! Machines on pool networks (fully connected lines, hypercube, mesh/torus, bus): message times
//! computed by hand from the documented rules, forwarding charged to the right processor, bus
//! serialisation and broadcast, no deadlock, categories adding up to the makespan, and batched
//! runs equal to step-by-step runs.

use sim_core::{Category, MsgKind, ProcId, RunStats, SimTime};
use sim_hw::{
    BusSpec, CostModel, Cx, Forwarding, LinkSpec, Machine, MachineConfig, MachineError, Message,
    NoSearch, PoolNetwork, ProcessorTree, Program, ReadPolicy, Routing, Search, Step, Work,
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

/// At start: optionally computes `busy`, and sends `sends` (to, bytes), then broadcasts
/// `broadcast` bytes if any.
#[derive(Default, Debug)]
struct Script {
    busy: SimTime,
    sends: Vec<(u32, u64)>,
    broadcast: Option<u64>,
}

impl Program for Script {
    type Msg = Msg;
    type Out = ();
    type Search = NoSearch<()>;
    fn start(&mut self, cx: &mut Cx<Self>) {
        if self.busy > SimTime::ZERO {
            cx.compute(
                Work {
                    time: self.busy,
                    ..Default::default()
                },
                (),
            );
        }
        for (to, bytes) in self.sends.drain(..) {
            cx.send(ProcId(to), Msg(bytes));
        }
        if let Some(bytes) = self.broadcast {
            cx.broadcast(Msg(bytes));
        }
    }
    fn on_message(&mut self, _: ProcId, _: Msg, _: &mut Cx<Self>) {}
    fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
}

const S: SimTime = SimTime::from_micros(200);
const FWD: SimTime = SimTime::from_micros(300);
const RATE: u64 = 10_000; // bytes per second on a line

fn costs() -> CostModel {
    CostModel {
        s: S,
        interrupt: SimTime::from_micros(50),
        ..CostModel::campbell()
    }
}

fn line_ns(bytes: u64) -> SimTime {
    SimTime((bytes * 1_000_000_000).div_ceil(RATE))
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

fn pool(n: usize, network: PoolNetwork) -> MachineConfig {
    let mut config = MachineConfig::pool(n, network, costs(), LinkSpec::serial(RATE, false));
    config.record_messages = true;
    config
}

fn scripts(n: usize, p0: Script) -> Vec<Script> {
    let mut v = vec![p0];
    v.extend((1..n).map(|_| Script::default()));
    v
}

fn cube(forwarding: Forwarding) -> PoolNetwork {
    PoolNetwork::Hypercube(Routing {
        forwarding,
        cost: FWD,
    })
}

#[test]
fn three_hops_on_a_hypercube_with_software_forwarding_charge_the_two_forwarders() {
    // 0 -> 7 on 8 processors: 0 -> 1 -> 3 -> 7.
    let p0 = Script {
        sends: vec![(7, 6)],
        ..Default::default()
    };
    let stats = run(pool(8, cube(Forwarding::Software)), scripts(8, p0));
    let m = &stats.message_log[0];
    let expected = S + line_ns(6) + FWD + line_ns(6) + FWD + line_ns(6);
    assert_eq!((m.from, m.to, m.arrived), (ProcId(0), ProcId(7), expected));
    assert_eq!((m.sent, m.transmit_start), (S, S));
    assert_eq!(stats.makespan, expected);
    let message = |p: usize| stats.procs[p].times.get(Category::Message);
    assert_eq!(message(0), S.as_nanos());
    assert_eq!((message(1), message(3)), (FWD.as_nanos(), FWD.as_nanos()));
    for p in [2, 4, 5, 6, 7] {
        assert_eq!(message(p), 0, "P{p} forwards nothing");
    }
    // Counted once, at its receiver.
    assert_eq!(stats.messages.count(MsgKind::InterNode), 1);
}

#[test]
fn hardware_forwarding_is_a_pure_delay() {
    let p0 = Script {
        sends: vec![(7, 6)],
        ..Default::default()
    };
    let stats = run(pool(8, cube(Forwarding::Hardware)), scripts(8, p0));
    let expected = S + SimTime(3 * line_ns(6).as_nanos() + 2 * FWD.as_nanos());
    assert_eq!(stats.message_log[0].arrived, expected);
    for p in 1..8 {
        assert_eq!(stats.procs[p].times.get(Category::Message), 0);
    }
}

#[test]
fn software_forwarding_preempts_the_forwarder_s_work() {
    // P1 computes for 10 ms from time zero; the message passes through it at S + line time.
    let busy = SimTime::from_millis(10);
    let mut programs = scripts(
        4,
        Script {
            sends: vec![(3, 6)],
            ..Default::default()
        },
    );
    programs[1].busy = busy;
    let stats = run(pool(4, cube(Forwarding::Software)), programs);
    let arrived = S + line_ns(6) + FWD + line_ns(6);
    assert_eq!(stats.message_log[0].arrived, arrived);
    // P1's work resumes after the forwarding: it ends FWD late, the run with it.
    assert_eq!(stats.makespan, busy + FWD);
    assert_eq!(stats.procs[1].times.get(Category::Search), busy.as_nanos());
    assert_eq!(stats.procs[1].times.get(Category::Message), FWD.as_nanos());
}

#[test]
fn a_mesh_routes_along_the_row_then_the_column() {
    // 3 × 2 mesh: 0 1 2 / 3 4 5; 0 -> 5 goes 0 -> 1 -> 2 -> 5, forwarded by 1 and 2.
    let mesh = PoolNetwork::Mesh {
        width: 3,
        height: 2,
        torus: false,
        routing: Routing {
            forwarding: Forwarding::Software,
            cost: FWD,
        },
    };
    let p0 = Script {
        sends: vec![(5, 10)],
        ..Default::default()
    };
    let stats = run(pool(6, mesh), scripts(6, p0));
    assert_eq!(
        stats.message_log[0].arrived,
        S + SimTime(3 * line_ns(10).as_nanos() + 2 * FWD.as_nanos())
    );
    let fwd: Vec<u64> = (0..6)
        .map(|p| stats.procs[p].times.get(Category::Message))
        .collect();
    assert_eq!(
        fwd,
        vec![S.as_nanos(), FWD.as_nanos(), FWD.as_nanos(), 0, 0, 0]
    );
}

#[test]
fn fully_connected_lines_reach_any_processor_in_one_hop() {
    let p0 = Script {
        sends: vec![(5, 8), (9, 8), (5, 8)],
        ..Default::default()
    };
    let stats = run(pool(10, PoolNetwork::FullyConnected), scripts(10, p0));
    let arrivals: Vec<_> = stats
        .message_log
        .iter()
        .map(|m| (m.to, m.arrived))
        .collect();
    // The sends leave at S, 2S and 3S; to 5 twice on one line, the second behind the first
    // only if the line is still busy (8 bytes take 0.8 ms > S).
    let first = S + line_ns(8);
    assert_eq!(arrivals[0], (ProcId(5), first));
    assert_eq!(arrivals[1], (ProcId(9), S + S + line_ns(8)));
    assert_eq!(arrivals[2], (ProcId(5), first + line_ns(8)));
}

const ETH: BusSpec = BusSpec {
    rate: 1_250_000,
    header_bytes: 26,
    min_frame_bytes: 64,
};

#[test]
fn simultaneous_frames_on_a_bus_go_one_at_a_time_in_request_order() {
    // Processors 1, 2, 3 each send to 0 at time zero: every setup ends at S; the bus takes the
    // requests in the order the machine posted them (processor order) and sends one at a time.
    let mut programs: Vec<Script> = (0..4).map(|_| Script::default()).collect();
    for (p, bytes) in [(1, 100), (2, 4), (3, 200)] {
        programs[p].sends = vec![(0, bytes)];
    }
    let stats = run(pool(4, PoolNetwork::Bus(ETH)), programs);
    let log: Vec<_> = stats
        .message_log
        .iter()
        .map(|m| (m.from.0, m.transmit_start, m.arrived))
        .collect();
    let (f1, f2, f3) = (ETH.frame_time(100), ETH.frame_time(4), ETH.frame_time(200));
    assert_eq!(
        log,
        vec![
            (1, S, S + f1),
            (2, S + f1, S + f1 + f2),
            (3, S + f1 + f2, S + f1 + f2 + f3),
        ]
    );
    // 4 bytes travel as a 64-byte frame: 51.2 µs.
    assert_eq!(f2, SimTime(51_200));
}

#[test]
fn a_broadcast_on_a_bus_is_one_frame_arriving_everywhere_at_once() {
    let n = 6;
    let p0 = Script {
        broadcast: Some(12),
        ..Default::default()
    };
    let stats = run(pool(n, PoolNetwork::Bus(ETH)), scripts(n, p0));
    let at = S + ETH.frame_time(12);
    assert_eq!(stats.message_log.len(), n - 1);
    for (i, m) in stats.message_log.iter().enumerate() {
        assert_eq!(
            (m.from, m.to, m.arrived),
            (ProcId(0), ProcId(i as u32 + 1), at)
        );
    }
    // One transmission, one setup.
    assert_eq!(stats.messages.count(MsgKind::InterNode), 1);
    assert_eq!(stats.messages.bytes_total(), 12);
    assert_eq!(stats.procs[0].times.get(Category::Message), S.as_nanos());
    assert_eq!(stats.makespan, at);
}

#[test]
fn a_broadcast_elsewhere_is_one_message_per_processor() {
    let n = 5;
    let p0 = Script {
        broadcast: Some(4),
        ..Default::default()
    };
    let stats = run(pool(n, PoolNetwork::FullyConnected), scripts(n, p0));
    assert_eq!(stats.messages.count(MsgKind::InterNode), n as u64 - 1);
    assert_eq!(
        stats.procs[0].times.get(Category::Message),
        (n as u64 - 1) * S.as_nanos()
    );
    // The k-th copy leaves after k setups, each on its own line.
    for (k, m) in stats.message_log.iter().enumerate() {
        assert_eq!(m.to, ProcId(k as u32 + 1));
        assert_eq!(
            m.arrived,
            SimTime((k as u64 + 1) * S.as_nanos()) + line_ns(4)
        );
    }
}

#[test]
fn a_tree_still_joins_only_parents_and_children() {
    let p0 = Script {
        sends: vec![(3, 4)],
        ..Default::default()
    };
    // Campbell's (2, 2): 0's children are 1 and 2; 3 is a grandchild.
    let config = MachineConfig::new(ProcessorTree::campbell(2, 2), costs(), LinkSpec::ideal());
    let e = Machine::new(config, scripts(7, p0))
        .unwrap()
        .run()
        .unwrap_err();
    assert_eq!(
        e,
        MachineError::NoLink {
            from: ProcId(0),
            to: ProcId(3)
        }
    );
}

#[test]
fn a_pool_refuses_a_count_its_network_cannot_have() {
    let e = Machine::new(
        pool(6, cube(Forwarding::Software)),
        scripts(6, Script::default()),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("power of two"), "{e}");
}

/// Waits for a message that never comes.
#[derive(Debug)]
struct Waiter;
impl Program for Waiter {
    type Msg = Msg;
    type Out = ();
    type Search = NoSearch<()>;
    fn start(&mut self, _: &mut Cx<Self>) {}
    fn on_message(&mut self, _: ProcId, _: Msg, _: &mut Cx<Self>) {}
    fn on_done(&mut self, _: (), _: &mut Cx<Self>) {}
    fn pending(&self) -> Option<String> {
        Some("a message nobody sends".into())
    }
}

#[test]
fn a_stuck_pool_is_a_deadlock_error_not_a_hang() {
    let e = Machine::new(
        pool(4, PoolNetwork::Bus(ETH)),
        vec![Waiter, Waiter, Waiter, Waiter],
    )
    .unwrap()
    .run()
    .unwrap_err();
    assert!(
        matches!(e, MachineError::Deadlock { ref stuck } if stuck.len() == 4),
        "{e}"
    );
}

// --- Chatter: searches reached by messages, to compare batched and step-by-step runs ---

/// A search of `left` steps, leaves and interior nodes in turn; a message read while it runs
/// shortens it, so results depend on when each message is read.
struct Count {
    left: u32,
    n: u32,
}
impl Search for Count {
    type Out = u32;
    fn step(&mut self) -> Step<u32> {
        if self.left == 0 {
            return Step::Done(self.n);
        }
        self.left -= 1;
        self.n += 1;
        if self.n.is_multiple_of(3) {
            Step::Interior
        } else {
            Step::Leaf { quiescence: 0 }
        }
    }
}

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

struct Chatter {
    seed: u64,
    rounds: u32,
    heard: u64,
}

impl Chatter {
    fn next_search(&mut self, cx: &mut Cx<Self>) {
        let h = mix(self.seed ^ self.rounds as u64 ^ (cx.me().0 as u64) << 32);
        cx.search(Count {
            left: 5 + (h % 40) as u32,
            n: 0,
        });
    }
}

impl Program for Chatter {
    type Msg = Msg;
    type Out = u32;
    type Search = Count;
    fn start(&mut self, cx: &mut Cx<Self>) {
        self.next_search(cx);
    }
    fn on_message(&mut self, from: ProcId, msg: Msg, cx: &mut Cx<Self>) {
        self.heard = mix(self.heard ^ msg.0 ^ from.0 as u64);
        if let Some(s) = cx.search_mut() {
            s.left = s.left.saturating_sub((msg.0 % 4) as u32);
        }
    }
    fn on_done(&mut self, n: u32, cx: &mut Cx<Self>) {
        self.rounds -= 1;
        let h = mix(self.seed ^ n as u64 ^ self.heard ^ self.rounds as u64);
        let count = cx.processors() as u64;
        let me = cx.me().0 as u64;
        if h.is_multiple_of(7) {
            cx.broadcast(Msg(2 + h % 30));
        } else {
            let to = (me + 1 + (h >> 8) % (count - 1)) % count;
            cx.send(ProcId(to as u32), Msg(2 + (h >> 16) % 30));
        }
        if self.rounds > 0 {
            self.next_search(cx);
        }
    }
}

/// Everything a run reports but the engine's event count.
fn summary(s: &RunStats) -> String {
    let procs: Vec<_> = s.procs.iter().map(|p| (p.times, p.nodes)).collect();
    format!("{:?} {:?} {:?}", s.makespan, procs, s.messages)
}

fn networks() -> Vec<(&'static str, usize, PoolNetwork)> {
    let routing = |forwarding, us| Routing {
        forwarding,
        cost: SimTime::from_micros(us),
    };
    vec![
        ("fully connected", 6, PoolNetwork::FullyConnected),
        (
            "hypercube sw",
            8,
            PoolNetwork::Hypercube(routing(Forwarding::Software, 70)),
        ),
        (
            "hypercube hw",
            16,
            PoolNetwork::Hypercube(routing(Forwarding::Hardware, 400)),
        ),
        (
            "mesh sw",
            6,
            PoolNetwork::Mesh {
                width: 3,
                height: 2,
                torus: false,
                routing: routing(Forwarding::Software, 25),
            },
        ),
        (
            "torus hw",
            9,
            PoolNetwork::Mesh {
                width: 3,
                height: 3,
                torus: true,
                routing: routing(Forwarding::Hardware, 0),
            },
        ),
        (
            "bus",
            5,
            PoolNetwork::Bus(BusSpec {
                rate: 200_000,
                header_bytes: 26,
                min_frame_bytes: 64,
            }),
        ),
    ]
}

#[test]
fn batched_runs_equal_step_by_step_runs_on_every_pool_network() {
    let reads = [
        ReadPolicy::Interrupt,
        ReadPolicy::Poll { every: 3 },
        ReadPolicy::WhenIdle,
    ];
    let mut checked = 0;
    for (name, n, network) in networks() {
        for seed in 0..16u64 {
            for link in [
                LinkSpec::serial(20_000, false),
                LinkSpec::serial(20_000, true),
                LinkSpec::serial(5_000_000, false),
                LinkSpec::ideal(),
            ] {
                let mut config = MachineConfig::pool(n, network, costs_for(seed), link);
                // A mix of read policies, chosen per processor.
                config.read_by_processor = (0..n)
                    .map(|p| reads[(mix(seed * 31 + p as u64) % 3) as usize])
                    .collect();
                let programs = |c: &MachineConfig| -> Vec<Chatter> {
                    (0..c.platform.len())
                        .map(|p| Chatter {
                            seed: mix(seed ^ p as u64),
                            rounds: 4,
                            heard: 0,
                        })
                        .collect()
                };
                let batched = run(config.clone(), programs(&config));
                let mut stepwise = config.clone();
                stepwise.batching = false;
                let step = run(stepwise.clone(), programs(&stepwise));
                assert_eq!(
                    summary(&batched),
                    summary(&step),
                    "{name}, seed {seed}, {link:?}"
                );
                assert!(batched.events <= step.events);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6 * 16 * 4);
}

fn costs_for(seed: u64) -> CostModel {
    CostModel {
        k: SimTime::from_micros(10 + seed * 3),
        e: SimTime::from_micros(40 + seed * 7),
        q: SimTime::ZERO,
        probe: SimTime::ZERO,
        s: SimTime::from_micros(if seed.is_multiple_of(3) { 0 } else { 30 }),
        interrupt: SimTime::from_micros(15),
    }
}

#[test]
fn a_thousand_processors_on_a_hypercube_and_a_torus_finish() {
    let routing = Routing {
        forwarding: Forwarding::Software,
        cost: SimTime::from_micros(20),
    };
    for network in [
        PoolNetwork::Hypercube(routing),
        PoolNetwork::Mesh {
            width: 32,
            height: 32,
            torus: true,
            routing,
        },
        PoolNetwork::FullyConnected,
    ] {
        let config = MachineConfig::pool(
            1024,
            network,
            costs_for(1),
            LinkSpec::serial(100_000, false),
        );
        let programs = (0..1024)
            .map(|p| Chatter {
                seed: mix(p),
                rounds: 2,
                heard: 0,
            })
            .collect();
        let stats = run(config, programs);
        assert!(stats.messages.count(MsgKind::InterNode) >= 1024);
    }
}
