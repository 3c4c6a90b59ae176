//! The network on its own, without a machine: every expected time is computed from the spec
//! (`bytes * 1e9 / rate` nanoseconds, rounded up), not copied from a run.

use super::*;

/// A message named for the test, of `bytes` bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct M(&'static str, u64);
impl Message for M {
    fn kind(&self) -> MsgKind {
        MsgKind::InterNode
    }
    fn bytes(&self) -> u64 {
        self.1
    }
}

const P0: ProcId = ProcId(0);
const P1: ProcId = ProcId(1);
const P2: ProcId = ProcId(2);

/// Nanoseconds `bytes` take at `rate` bytes per second, rounded up.
fn line_ns(bytes: u64, rate: u64) -> u64 {
    (bytes * 1_000_000_000).div_ceil(rate)
}

fn star(f: u32, link: LinkSpec) -> Network<M> {
    Network::tree(&ProcessorTree::new(f, 1), &[link])
}

fn always(_: ProcId) -> bool {
    true
}

#[test]
fn one_message_takes_bytes_over_rate_from_its_post() {
    let mut net = star(2, LinkSpec::serial(960, false));
    // Posted when the sender's setup (say 2 ms) has ended.
    let setup = SimTime::from_millis(2);
    let c = net.post(P0, P1, M("a", 4), setup).unwrap();
    let arrival = net.transmit(c, setup, always).unwrap().unwrap();
    // 4 bytes at 960 bytes/s: 4 166 666.7 ns, rounded up.
    assert_eq!(arrival, SimTime(2_000_000 + line_ns(4, 960)));
    assert_eq!(arrival, SimTime(6_166_667));
    let d = net.arrive(c).unwrap().delivery().unwrap();
    assert_eq!(
        d,
        Delivery {
            from: P0,
            to: P1,
            msg: M("a", 4),
            sent: setup,
            transmit_start: setup,
        }
    );
    // The channel is free again, and empty.
    assert!(net.arrive(c).is_none());
    assert_eq!(net.transmit(c, arrival, always), Ok(None));
    assert_eq!(net.held().count(), 0);
}

#[test]
fn an_ideal_line_takes_no_time() {
    let mut net = star(2, LinkSpec::ideal());
    let now = SimTime(123);
    let c = net.post(P1, P0, M("a", 400), now).unwrap();
    assert_eq!(net.transmit(c, now, always), Ok(Some(now)));
}

#[test]
fn each_direction_is_a_fifo_one_frame_at_a_time() {
    let rate = 480;
    let mut net = star(2, LinkSpec::serial(rate, false));
    let c = net.post(P0, P1, M("first", 12), SimTime::ZERO).unwrap();
    assert_eq!(net.post(P0, P1, M("second", 2), SimTime(5)), Ok(c));
    assert_eq!(net.post(P0, P1, M("third", 6), SimTime(7)), Ok(c));
    let a1 = net.transmit(c, SimTime(10), always).unwrap().unwrap();
    assert_eq!(a1, SimTime(10 + line_ns(12, rate)));
    // The line is busy until the first one has arrived: nothing else starts.
    assert_eq!(net.transmit(c, SimTime(11), always), Ok(None));
    assert_eq!(
        net.arrive(c).unwrap().delivery().unwrap().msg,
        M("first", 12)
    );
    let a2 = net.transmit(c, a1, always).unwrap().unwrap();
    assert_eq!(a2, a1 + SimTime(line_ns(2, rate)));
    let d2 = net.arrive(c).unwrap().delivery().unwrap();
    assert_eq!(
        (d2.msg, d2.sent, d2.transmit_start),
        (M("second", 2), SimTime(5), a1)
    );
    // Started late (say the caller only got to it later): it takes its time from then.
    let late = a2 + SimTime(1_000);
    let a3 = net.transmit(c, late, always).unwrap().unwrap();
    assert_eq!(a3, late + SimTime(line_ns(6, rate)));
    assert_eq!(
        net.arrive(c).unwrap().delivery().unwrap().msg,
        M("third", 6)
    );
    assert_eq!(net.transmit(c, a3, always), Ok(None));
}

#[test]
fn both_directions_carry_at_once() {
    let rate = 960;
    let mut net = star(2, LinkSpec::serial(rate, false));
    let down = net.post(P0, P1, M("down", 12), SimTime::ZERO).unwrap();
    let up = net.post(P1, P0, M("up", 4), SimTime::ZERO).unwrap();
    assert_ne!(down, up);
    assert_eq!(net.ends(down), (P0, P1));
    assert_eq!(net.ends(up), (P1, P0));
    let t_down = net.transmit(down, SimTime::ZERO, always).unwrap().unwrap();
    // The other direction is free although this one is busy.
    let t_up = net.transmit(up, SimTime::ZERO, always).unwrap().unwrap();
    assert_eq!(t_down, SimTime(line_ns(12, rate)));
    assert_eq!(t_up, SimTime(line_ns(4, rate)));
    assert_eq!(net.arrive(up).unwrap().delivery().unwrap().msg, M("up", 4));
    assert_eq!(
        net.arrive(down).unwrap().delivery().unwrap().msg,
        M("down", 12)
    );
}

#[test]
fn rts_cts_holds_a_message_to_a_child_until_it_is_ready() {
    let mut net = star(2, LinkSpec::serial(960, true));
    let down = net.post(P0, P1, M("work", 4), SimTime::ZERO).unwrap();
    let mut asked = Vec::new();
    let not_ready = |p: ProcId| {
        asked.push(p);
        false
    };
    assert_eq!(net.transmit(down, SimTime(10), not_ready), Ok(None));
    assert_eq!(asked, vec![P1], "the receiver's readiness is asked");
    assert_eq!(net.held().collect::<Vec<_>>(), vec![(P0, P1)]);
    // Held, it counts as reaching the child now (a poll would let it on the line).
    let never = |_: ProcId, _: ProcId| SimTime::MAX;
    assert_eq!(
        net.earliest_arrival(P1, None, SimTime(20), never),
        SimTime(20)
    );
    // The child is ready at 30: the message goes from then.
    let arrival = net.transmit(down, SimTime(30), always).unwrap().unwrap();
    assert_eq!(arrival, SimTime(30 + line_ns(4, 960)));
    assert_eq!(net.held().count(), 0);
    assert_eq!(
        net.arrive(down).unwrap().delivery().unwrap().transmit_start,
        SimTime(30)
    );
    // Messages to the parent are never held: readiness is not even asked.
    let up = net.post(P1, P0, M("result", 4), SimTime(40)).unwrap();
    let asked_parent = |_: ProcId| -> bool { panic!("a message to the parent waits for no RTS") };
    assert_eq!(
        net.transmit(up, SimTime(40), asked_parent),
        Ok(Some(SimTime(40 + line_ns(4, 960))))
    );
}

#[test]
fn without_rts_cts_nothing_is_held() {
    let mut net = star(2, LinkSpec::serial(960, false));
    let down = net.post(P0, P1, M("work", 4), SimTime::ZERO).unwrap();
    let never_asked = |_: ProcId| -> bool { panic!("readiness asked without RTS/CTS") };
    assert!(net
        .transmit(down, SimTime::ZERO, never_asked)
        .unwrap()
        .is_some());
}

#[test]
fn earliest_arrival_takes_the_soonest_channel_into_a_processor() {
    let rate = 960;
    let mut net = star(3, LinkSpec::serial(rate, false));
    let now = SimTime(1_000);
    // Nothing on the lines into the master: each child's earliest send decides.
    let sends = |from: ProcId, to: ProcId| {
        assert_eq!(to, P0);
        match from {
            ProcId(1) => SimTime(50_000),
            ProcId(2) => SimTime(20_000),
            _ => panic!("{from} has no line to the master"),
        }
    };
    assert_eq!(net.earliest_arrival(P0, None, now, sends), SimTime(20_000));
    // The asking processor (quiet) is left out: child 2 sends nothing before its horizon.
    assert_eq!(
        net.earliest_arrival(P0, Some(P2), now, sends),
        SimTime(50_000)
    );
    // A frame on the line from child 1 bounds it by its arrival.
    let c = net.post(P1, P0, M("result", 4), now).unwrap();
    let arrival = net.transmit(c, now, always).unwrap().unwrap();
    assert_eq!(arrival, SimTime(1_000 + line_ns(4, rate)));
    assert_eq!(net.earliest_arrival(P0, Some(P2), now, sends), arrival);
    assert_eq!(
        net.earliest_arrival(P0, None, now, sends),
        SimTime(20_000).min(arrival)
    );
    // Even a quiet sender's frame in flight counts.
    assert_eq!(
        net.earliest_arrival(P0, Some(P1), now, |_, _| SimTime::MAX),
        arrival
    );
    // A message waiting behind the frame does not come sooner; once the frame has arrived, it
    // can go at once.
    net.post(P1, P0, M("next", 4), now).unwrap();
    assert_eq!(
        net.earliest_arrival(P0, Some(P2), SimTime(2_000), sends),
        arrival
    );
    net.arrive(c).unwrap().delivery().unwrap();
    assert_eq!(net.earliest_arrival(P0, Some(P2), arrival, sends), arrival);
    // Child 2 hears only from the master.
    assert_eq!(
        net.earliest_arrival(P2, None, now, |from, to| {
            assert_eq!((from, to), (P0, P2));
            SimTime(7)
        }),
        SimTime(7)
    );
}

#[test]
fn a_tree_network_joins_only_parents_and_children() {
    // Fanout 3, length 2: 9 processors; 0's children 1, 2 (level 1) and 3, 4 (level 2); 1's
    // children 5, 6; 2's children 7, 8.
    let tree = ProcessorTree::new(3, 2);
    let mut net: Network<M> = Network::tree(&tree, &[LinkSpec::ideal()]);
    for (parent, child) in tree.edges() {
        for (from, to) in [(parent, child), (child, parent)] {
            let route = net.route(from, to).expect("a line along every edge");
            assert_eq!(route.hops().len(), 1);
            assert_eq!(net.ends(route.hops()[0]), (from, to));
            assert!(net.incoming(to).contains(&route.hops()[0]));
        }
    }
    assert_eq!(net.incoming(P0).len(), tree.children(P0).len());
    // Siblings, and a processor and its grandchild, have no line.
    let grandchild = tree.children(P1)[0];
    for (from, to) in [(P1, P2), (P0, grandchild), (grandchild, P0), (P1, P1)] {
        assert!(net.route(from, to).is_none());
        assert_eq!(
            net.post(from, to, M("x", 1), SimTime::ZERO),
            Err(NetworkError::NoRoute { from, to })
        );
    }
    assert_eq!(net.held().count(), 0, "a refused message is not kept");
}

#[test]
fn lines_take_the_spec_of_their_level() {
    // Fanout 2, length 2: 0 -> 1 at level 1; 0 -> 2 and 1 -> 3 at level 2.
    let tree = ProcessorTree::new(2, 2);
    let (fast, slow) = (LinkSpec::serial(960, false), LinkSpec::serial(480, true));
    let mut net: Network<M> = Network::tree(&tree, &[fast, slow]);
    let p3 = ProcId(3);
    assert_eq!(tree.parent(p3), Some(P1));
    for (from, to, rate) in [(P0, P1, 960), (P0, P2, 480), (P1, p3, 480), (p3, P1, 480)] {
        let c = net.post(from, to, M("x", 6), SimTime::ZERO).unwrap();
        let arrival = net.transmit(c, SimTime::ZERO, always).unwrap().unwrap();
        assert_eq!(arrival, SimTime(line_ns(6, rate)), "{from} -> {to}");
    }
    // RTS/CTS only on the slow (level 2) lines, toward the child.
    let c = net.post(P0, P1, M("x", 6), SimTime::ZERO).unwrap();
    net.arrive(c).unwrap().delivery().unwrap();
    assert!(net.transmit(c, SimTime(1), |_| false).unwrap().is_some());
    let c = net.post(P0, P2, M("x", 6), SimTime::ZERO).unwrap();
    net.arrive(c).unwrap().delivery().unwrap();
    assert_eq!(net.transmit(c, SimTime(1), |_| false), Ok(None));
}

#[test]
fn an_arrival_past_the_largest_time_is_an_error() {
    let mut net = star(2, LinkSpec::serial(1, false));
    let c = net.post(P0, P1, M("x", 2), SimTime::ZERO).unwrap();
    let at = SimTime(u64::MAX - 1_000_000_000);
    assert_eq!(
        net.transmit(c, at, always),
        Err(NetworkError::TimeOverflow { to: P1, at })
    );
}
