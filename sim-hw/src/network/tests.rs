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

/// A star of `f` processors whose lines at `rate` go through the master's serial interface of
/// `capacity` characters per second.
fn sci_star(f: u32, rate: u64, capacity: Option<u64>) -> Network<M> {
    let sci = SciSpec {
        capacity,
        host_char: SimTime::ZERO,
        board_char: SimTime::ZERO,
    };
    star(f, LinkSpec::serial(rate, false).with_sci(sci))
}

#[test]
fn the_interface_capacity_slows_simultaneous_transfers_but_not_one() {
    // 1,000 bytes/s per port, an interface of 1,500 characters/s: one 10-byte frame needs
    // 10 ms of its line and 6.67 ms of the interface, so alone it takes the line's 10 ms.
    let (rate, cap) = (1_000, 1_500);
    let mut net = sci_star(3, rate, Some(cap));
    let a = net.post(P0, P1, M("a", 10), SimTime::ZERO).unwrap();
    assert_eq!(
        net.transmit(a, SimTime::ZERO, always),
        Ok(Some(SimTime(line_ns(10, rate))))
    );
    // Alone again later (the interface has long been free): the line's time again.
    let t = SimTime::from_millis(100);
    net.arrive(a).unwrap();
    let b = net.post(P2, P0, M("b", 10), t).unwrap();
    assert_eq!(
        net.transmit(b, t, always),
        Ok(Some(t + SimTime(line_ns(10, rate))))
    );
    net.arrive(b).unwrap();

    // Two frames at once on two ports: the interface serves the first 10 characters in
    // 6.67 ms, the second's after them, 13.33 ms from the start: later than its line's 10 ms.
    let mut net = sci_star(3, rate, Some(cap));
    let a = net.post(P0, P1, M("a", 10), SimTime::ZERO).unwrap();
    let b = net.post(P0, P2, M("b", 10), SimTime::ZERO).unwrap();
    let first = net.transmit(a, SimTime::ZERO, always).unwrap().unwrap();
    let second = net.transmit(b, SimTime::ZERO, always).unwrap().unwrap();
    assert_eq!(first, SimTime(line_ns(10, rate)));
    assert_eq!(second, SimTime(line_ns(10, cap) + line_ns(10, cap)));
    assert!(second > SimTime(line_ns(10, rate)));

    // The other direction of a line shares the same interface.
    let mut net = sci_star(2, rate, Some(cap));
    let down = net.post(P0, P1, M("down", 10), SimTime::ZERO).unwrap();
    let up = net.post(P1, P0, M("up", 10), SimTime::ZERO).unwrap();
    net.transmit(down, SimTime::ZERO, always).unwrap();
    assert_eq!(
        net.transmit(up, SimTime::ZERO, always),
        Ok(Some(SimTime(2 * line_ns(10, cap))))
    );

    // Without a capacity (or without the device), the same two frames take the line's time.
    for mut net in [
        sci_star(3, rate, None),
        star(3, LinkSpec::serial(rate, false)),
    ] {
        let a = net.post(P0, P1, M("a", 10), SimTime::ZERO).unwrap();
        let b = net.post(P0, P2, M("b", 10), SimTime::ZERO).unwrap();
        for c in [a, b] {
            assert_eq!(
                net.transmit(c, SimTime::ZERO, always),
                Ok(Some(SimTime(line_ns(10, rate))))
            );
        }
    }
}

#[test]
fn each_host_of_a_deeper_tree_has_its_own_interface() {
    // f = 2, length 2: processor 0 hosts lines to two children, processor 1 to one; a frame on
    // 0's interface and one on 1's do not queue behind each other, two on 0's do.
    let tree = ProcessorTree::new(2, 2);
    let (rate, cap) = (1_000, 1_500);
    let sci = SciSpec {
        capacity: Some(cap),
        host_char: SimTime::ZERO,
        board_char: SimTime::ZERO,
    };
    let mut net: Network<M> = Network::tree(&tree, &[LinkSpec::serial(rate, false).with_sci(sci)]);
    let edges = tree.edges();
    let of =
        |p: ProcId| -> Vec<ProcId> { edges.iter().filter(|e| e.0 == p).map(|e| e.1).collect() };
    let (zero, one) = (of(P0), of(P1));
    assert_eq!((zero.len(), one.len()), (2, 1));
    let a = net.post(P0, zero[0], M("a", 10), SimTime::ZERO).unwrap();
    let b = net.post(P1, one[0], M("b", 10), SimTime::ZERO).unwrap();
    for ch in [a, b] {
        assert_eq!(
            net.transmit(ch, SimTime::ZERO, always),
            Ok(Some(SimTime(line_ns(10, rate))))
        );
    }
    let c = net.post(P0, zero[1], M("c", 10), SimTime::ZERO).unwrap();
    assert_eq!(
        net.transmit(c, SimTime::ZERO, always),
        Ok(Some(SimTime(2 * line_ns(10, cap))))
    );
}

#[test]
fn per_character_costs_belong_to_each_end_of_a_device_line() {
    let sci = SciSpec {
        capacity: None,
        host_char: SimTime(2_200),
        board_char: SimTime(18_000),
    };
    let net: Network<M> = star(3, LinkSpec::serial(960, true).with_sci(sci));
    assert_eq!(net.char_cost(P0, P1), SimTime(2_200));
    assert_eq!(net.char_cost(P1, P0), SimTime(18_000));
    assert_eq!(net.char_cost(P2, P0), SimTime(18_000));
    // No line between two children; a plain line has none.
    assert_eq!(net.char_cost(P1, P2), SimTime::ZERO);
    let plain: Network<M> = star(2, LinkSpec::serial(960, true));
    assert_eq!(plain.char_cost(P0, P1), SimTime::ZERO);
}

/// The table of lines answers alike whether it is a table indexed by the pair (small networks)
/// or a map (large ones): the same random lines inserted in both, every pair asked of both, and
/// of the ground truth.
#[test]
fn the_line_table_answers_alike_as_a_table_and_as_a_map() {
    let n = 40;
    let mut dense = LineTable::new(n);
    let mut map = LineTable::new(n);
    map.dense = Vec::new(); // as on a network above the dense limit
    assert!(!dense.dense.is_empty());
    let mut truth = std::collections::BTreeMap::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for ch in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (a, b) = (
            ProcId((x % n as u64) as u32),
            ProcId((x / 64 % n as u64) as u32),
        );
        dense.insert(a, b, ChannelId(ch));
        map.insert(a, b, ChannelId(ch));
        truth.insert((a, b), ChannelId(ch));
    }
    for a in 0..n as u32 + 2 {
        for b in 0..n as u32 + 2 {
            let (a, b) = (ProcId(a), ProcId(b));
            let expected = truth.get(&(a, b)).copied();
            assert_eq!(dense.get(a, b), expected, "{a} -> {b}");
            assert_eq!(map.get(a, b), expected, "{a} -> {b}");
        }
    }
    // A network above the limit keeps a map.
    assert!(LineTable::new(DENSE_LINES + 1).dense.is_empty());
}
