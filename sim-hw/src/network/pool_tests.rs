//! Pool networks on their own, without a machine: every expected time is computed by hand from
//! the documented rule (a line: `bytes * 1e9 / rate` ns rounded up per hop; a bus: the frame
//! `max(bytes + header, min_frame)` at the bus rate), not copied from a run.

use super::*;

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

fn p(i: u32) -> ProcId {
    ProcId(i)
}

fn line_ns(bytes: u64, rate: u64) -> u64 {
    (bytes * 1_000_000_000).div_ceil(rate)
}

fn always(_: ProcId) -> bool {
    true
}

const SOFT: Routing = Routing {
    forwarding: Forwarding::Software,
    cost: SimTime(1_000),
};

fn pool(n: usize, kind: PoolNetwork, line: LinkSpec) -> Network<M> {
    Network::pool(n, &kind, line, SimTime(500)).expect("fits")
}

/// The processors a route passes, from its sender to its receiver.
fn nodes(net: &mut Network<M>, from: u32, to: u32) -> Vec<u32> {
    let route = net.route(p(from), p(to)).expect("a route");
    let mut out = vec![from];
    for &ch in route.hops() {
        let (a, b) = net.ends(ch);
        assert_eq!(a.0, *out.last().unwrap(), "hops join up");
        out.push(b.0);
    }
    out
}

#[test]
fn hypercube_routes_correct_the_lowest_differing_bit_first() {
    let mut net = pool(16, PoolNetwork::Hypercube(SOFT), LinkSpec::ideal());
    assert_eq!(nodes(&mut net, 0, 7), vec![0, 1, 3, 7]);
    assert_eq!(nodes(&mut net, 5, 10), vec![5, 4, 6, 2, 10]);
    assert_eq!(nodes(&mut net, 9, 8), vec![9, 8]);
    // A route of as many hops as the numbers differ in bits, between every pair.
    for a in 0..16u32 {
        for b in 0..16u32 {
            if a != b {
                assert_eq!(
                    net.route(p(a), p(b)).unwrap().hops().len(),
                    (a ^ b).count_ones() as usize
                );
            }
        }
        // d lines into each processor.
        assert_eq!(net.incoming(p(a)).len(), 4);
    }
    assert!(net.route(p(3), p(3)).is_none());
    assert!(net.route(p(3), p(16)).is_none());
}

#[test]
fn mesh_routes_go_along_the_row_then_the_column() {
    // 4 wide, 3 high: processor 11 is at column 3, row 2.
    let mesh = |torus| PoolNetwork::Mesh {
        width: 4,
        height: 3,
        torus,
        routing: SOFT,
    };
    let mut net = pool(12, mesh(false), LinkSpec::ideal());
    assert_eq!(nodes(&mut net, 0, 11), vec![0, 1, 2, 3, 7, 11]);
    assert_eq!(nodes(&mut net, 11, 0), vec![11, 10, 9, 8, 4, 0]);
    assert_eq!(nodes(&mut net, 5, 6), vec![5, 6]);
    assert_eq!(net.incoming(p(0)).len(), 2, "a corner has two neighbours");
    assert_eq!(net.incoming(p(5)).len(), 4);
    // A torus goes the shorter way round: 0 -> 3 is one hop back around the row; 0 -> 8 one
    // hop up around the column.
    let mut torus = pool(12, mesh(true), LinkSpec::ideal());
    assert_eq!(nodes(&mut torus, 0, 3), vec![0, 3]);
    assert_eq!(nodes(&mut torus, 0, 8), vec![0, 8]);
    // A tie (two each way on a ring of 4) goes toward higher coordinates.
    assert_eq!(nodes(&mut torus, 0, 2), vec![0, 1, 2]);
    assert_eq!(nodes(&mut torus, 2, 0), vec![2, 3, 0]);
    assert_eq!(torus.incoming(p(0)).len(), 4);
    // Rows of 2 in a torus: the neighbour both ways round is one line.
    let mut thin = pool(
        4,
        PoolNetwork::Mesh {
            width: 2,
            height: 2,
            torus: true,
            routing: SOFT,
        },
        LinkSpec::ideal(),
    );
    assert_eq!(thin.incoming(p(0)).len(), 2);
    assert_eq!(nodes(&mut thin, 0, 3), vec![0, 1, 3]);
}

#[test]
fn a_three_hop_route_takes_each_hop_s_line_time_stored_and_forwarded() {
    let rate = 960;
    let mut net = pool(
        8,
        PoolNetwork::Hypercube(SOFT),
        LinkSpec::serial(rate, false),
    );
    let posted = SimTime(2_000);
    let mut ch = net.post(p(0), p(7), M("w", 4), posted).unwrap();
    let mut now = posted;
    // Two intermediate processors (1, then 3); the machine forwards each after its cost.
    for at in [1, 3] {
        let arrival = net.transmit(ch, now, always).unwrap().unwrap();
        assert_eq!(arrival, now + SimTime(line_ns(4, rate)));
        let Some(Arrival::Transit(t)) = net.arrive(ch) else {
            panic!("in transit at {at}")
        };
        assert_eq!((t.at(), t.from()), (p(at), p(0)));
        now = arrival + SOFT.cost;
        ch = net.forward(t, now).unwrap();
        assert_eq!(net.ends(ch).0, p(at));
    }
    let arrival = net.transmit(ch, now, always).unwrap().unwrap();
    // 3 hops of 4 bytes at 960 bytes/s, and 2 forwarding costs.
    assert_eq!(
        arrival,
        posted + SimTime(3 * line_ns(4, rate) + 2 * SOFT.cost.as_nanos())
    );
    let d = net.arrive(ch).unwrap().delivery().unwrap();
    assert_eq!(
        (d.from, d.to, d.sent, d.transmit_start),
        (p(0), p(7), posted, posted)
    );
}

#[test]
fn rts_cts_on_a_pool_holds_only_messages_on_their_last_hop() {
    let mut net = pool(4, PoolNetwork::Hypercube(SOFT), LinkSpec::serial(960, true));
    // 0 -> 3 goes 0 -> 1 -> 3: on its first hop 1 forwards it, and is not asked.
    let ch = net.post(p(0), p(3), M("w", 4), SimTime::ZERO).unwrap();
    let never_asked = |_: ProcId| -> bool { panic!("a forwarding processor is not asked") };
    assert!(net
        .transmit(ch, SimTime::ZERO, never_asked)
        .unwrap()
        .is_some());
    // 0 -> 1 ends at 1: held until 1 is ready.
    let ch2 = net.post(p(2), p(0), M("w", 4), SimTime::ZERO).unwrap();
    assert_eq!(net.transmit(ch2, SimTime::ZERO, |_| false), Ok(None));
    assert_eq!(net.held().collect::<Vec<_>>(), vec![(p(2), p(0))]);
}

#[test]
fn a_fully_connected_line_gives_its_empty_fifo_back_and_a_hypercube_keeps_its() {
    // Two messages on one line: the second waits behind the first, then goes on the line.
    let fifo_after_both = |kind: PoolNetwork| {
        let mut net = pool(4, kind, LinkSpec::serial(1_000, false));
        let ch = net.post(p(0), p(1), M("a", 4), SimTime::ZERO).unwrap();
        net.post(p(0), p(1), M("b", 4), SimTime::ZERO).unwrap();
        let first = net.transmit(ch, SimTime::ZERO, always).unwrap().unwrap();
        assert!(net.has_waiting(ch), "b waits behind a");
        assert_eq!(net.arrive(ch).unwrap().delivery().unwrap().msg.0, "a");
        let second = net.transmit(ch, first, always).unwrap().unwrap();
        assert_eq!(second, first + SimTime(line_ns(4, 1_000)));
        assert!(!net.has_waiting(ch));
        assert_eq!(net.arrive(ch).unwrap().delivery().unwrap().msg.0, "b");
        net.channels[ch.0].waiting.capacity()
    };
    assert_eq!(fifo_after_both(PoolNetwork::FullyConnected), 0);
    assert!(fifo_after_both(PoolNetwork::Hypercube(SOFT)) > 0);
}

#[test]
fn fully_connected_lines_are_built_when_a_pair_first_talks() {
    let rate = 1_000;
    let mut net = pool(
        1024,
        PoolNetwork::FullyConnected,
        LinkSpec::serial(rate, false),
    );
    assert!(net.incoming(p(1023)).is_empty());
    let ch = net.post(p(5), p(1023), M("w", 10), SimTime(7)).unwrap();
    assert_eq!(net.ends(ch), (p(5), p(1023)));
    assert_eq!(net.route(p(5), p(1023)).unwrap().hops(), &[ch]);
    // Both directions at once, each one hop.
    let back = net.route(p(1023), p(5)).unwrap().hops()[0];
    assert_ne!(back, ch);
    assert_eq!(net.incoming(p(1023)), &[ch]);
    let arrival = net.transmit(ch, SimTime(7), always).unwrap().unwrap();
    assert_eq!(arrival, SimTime(7 + line_ns(10, rate)));
    assert_eq!(
        net.arrive(ch).unwrap().delivery().unwrap().to,
        p(1023),
        "delivered at once: one hop"
    );
    assert_eq!(
        net.post(p(3), p(3), M("self", 1), SimTime::ZERO),
        Err(NetworkError::NoRoute {
            from: p(3),
            to: p(3)
        })
    );
    assert_eq!(
        net.post(p(3), p(1024), M("far", 1), SimTime::ZERO),
        Err(NetworkError::NoRoute {
            from: p(3),
            to: p(1024)
        })
    );
}

#[test]
fn fully_connected_earliest_arrival_counts_pairs_not_yet_joined() {
    let setup = SimTime(500);
    let mut net = pool(
        3,
        PoolNetwork::FullyConnected,
        LinkSpec::serial(1_000, false),
    );
    let now = SimTime(10_000);
    let late = |_: ProcId, _: ProcId| SimTime(90_000);
    // No line into 0 yet: a processor that decides to send now posts after its setup.
    assert_eq!(net.earliest_arrival(p(0), None, now, late), now + setup);
    net.prepare(p(1), p(0));
    net.prepare(p(2), p(0));
    // Both lines exist and are idle: their senders decide.
    assert_eq!(net.earliest_arrival(p(0), None, now, late), SimTime(90_000));
}

const ETH: BusSpec = BusSpec {
    rate: 1_250_000,
    header_bytes: 26,
    min_frame_bytes: 64,
};

#[test]
fn bus_frames_are_padded_to_the_minimum_and_carry_a_header() {
    // 4 bytes: 30 with the header, padded to 64: 64 / 1.25e6 s = 51.2 µs.
    assert_eq!(ETH.frame_time(4), SimTime(51_200));
    // 100 bytes: 126 on the bus = 100.8 µs.
    assert_eq!(ETH.frame_time(100), SimTime(100_800));
    // 38 + 26 = 64 exactly: no padding.
    assert_eq!(ETH.frame_time(38), ETH.frame_time(0));
    assert_eq!(ETH.frame_time(39), SimTime(line_ns(65, ETH.rate)));
}

#[test]
fn the_bus_carries_one_frame_at_a_time_in_the_order_requested() {
    let mut net = pool(4, PoolNetwork::Bus(ETH), LinkSpec::ideal());
    let t0 = SimTime(1_000);
    // Three senders request the bus at the same time, then a fourth a little later.
    let a = net.post(p(1), p(0), M("a", 100), t0).unwrap();
    let b = net.post(p(2), p(3), M("b", 4), t0).unwrap();
    let c = net.post(p(3), p(1), M("c", 200), t0).unwrap();
    let d = net.post(p(0), p(2), M("d", 10), t0 + SimTime(5)).unwrap();
    assert!(a == b && b == c && c == d, "one medium, one channel");
    let mut now = t0;
    let mut order = Vec::new();
    for (name, bytes) in [("a", 100), ("b", 4), ("c", 200), ("d", 10)] {
        let arrival = net.transmit(a, now, always).unwrap().unwrap();
        assert_eq!(arrival, now + ETH.frame_time(bytes), "frame {name}");
        // Busy: nothing else starts until it has arrived.
        assert_eq!(net.transmit(a, now, always), Ok(None));
        let dl = net.arrive(a).unwrap().delivery().unwrap();
        order.push(dl.msg.0);
        now = arrival;
    }
    assert_eq!(order, vec!["a", "b", "c", "d"]);
    assert_eq!(
        now,
        t0 + ETH.frame_time(100) + ETH.frame_time(4) + ETH.frame_time(200) + ETH.frame_time(10)
    );
}

#[test]
fn a_broadcast_is_one_frame_that_reaches_every_other_processor() {
    let mut net = pool(4, PoolNetwork::Bus(ETH), LinkSpec::ideal());
    let copies: Vec<_> = [0, 2, 3].iter().map(|&i| (p(i), M("all", 12))).collect();
    let ch = net
        .post_broadcast(p(1), copies.clone(), SimTime(10))
        .unwrap();
    let arrival = net.transmit(ch, SimTime(10), always).unwrap().unwrap();
    assert_eq!(arrival, SimTime(10) + ETH.frame_time(12));
    match net.arrive(ch) {
        Some(Arrival::Broadcast(b)) => {
            assert_eq!((b.from, b.copies, b.sent), (p(1), copies, SimTime(10)))
        }
        other => panic!("not a broadcast: {other:?}"),
    }
    // Lines have no broadcast.
    let mut cube = pool(4, PoolNetwork::Hypercube(SOFT), LinkSpec::ideal());
    assert!(cube.post_broadcast(p(0), vec![], SimTime::ZERO).is_none());
}

#[test]
fn bus_earliest_arrival_is_the_frame_for_it_or_the_next_shortest_frame() {
    let mut net = pool(3, PoolNetwork::Bus(ETH), LinkSpec::ideal());
    let never = |_: ProcId, _: ProcId| -> SimTime { panic!("a bus does not ask the senders") };
    let now = SimTime(100);
    let shortest = ETH.frame_time(0);
    assert_eq!(net.earliest_arrival(p(2), None, now, never), now + shortest);
    let ch = net.post(p(0), p(1), M("x", 500), now).unwrap();
    // Requested, not started: it could start now.
    assert_eq!(net.earliest_arrival(p(2), None, now, never), now + shortest);
    let end = net.transmit(ch, now, always).unwrap().unwrap();
    // For 1: that frame; for 2: the frame after it, at the earliest.
    assert_eq!(net.earliest_arrival(p(1), None, now, never), end);
    assert_eq!(net.earliest_arrival(p(2), None, now, never), end + shortest);
    // Its sender hears nothing from its own frame.
    assert_eq!(net.earliest_arrival(p(0), None, now, never), end + shortest);
}

#[test]
fn routed_earliest_arrival_allows_for_messages_passing_through_the_sender() {
    let hw = Routing {
        forwarding: Forwarding::Hardware,
        cost: SimTime(3_000),
    };
    let net = pool(4, PoolNetwork::Hypercube(hw), LinkSpec::serial(960, false));
    let now = SimTime(50);
    // Senders busy for long: a message passing through a neighbour still comes after the
    // forwarding cost.
    let busy = |_: ProcId, _: ProcId| SimTime(1_000_000);
    assert_eq!(net.earliest_arrival(p(0), None, now, busy), now + hw.cost);
    let soon = |from: ProcId, _: ProcId| {
        if from == p(2) {
            SimTime(70)
        } else {
            SimTime::MAX
        }
    };
    assert_eq!(net.earliest_arrival(p(0), None, now, soon), SimTime(70));
}

#[test]
fn pools_refuse_counts_their_network_cannot_have() {
    let cube = PoolNetwork::Hypercube(SOFT);
    assert_eq!(
        Network::<M>::pool(12, &cube, LinkSpec::ideal(), SimTime::ZERO).err(),
        Some(PoolError::NotPowerOfTwo(12))
    );
    let mesh = PoolNetwork::Mesh {
        width: 3,
        height: 3,
        torus: false,
        routing: SOFT,
    };
    assert_eq!(
        mesh.check(8).unwrap_err().to_string(),
        "a 3 × 3 mesh has 9 processors, not 8"
    );
    assert_eq!(PoolNetwork::FullyConnected.check(0), Err(PoolError::Empty));
    let bus = PoolNetwork::Bus(BusSpec { rate: 0, ..ETH });
    assert_eq!(bus.check(2), Err(PoolError::BusRate));
    // 1,024 processors: a hypercube of 10 dimensions, built at once (10 lines per processor).
    let big = pool(1024, cube, LinkSpec::ideal());
    assert_eq!(big.incoming(p(1023)).len(), 10);
    let mesh32 = PoolNetwork::Mesh {
        width: 32,
        height: 32,
        torus: true,
        routing: SOFT,
    };
    let mut m = pool(1024, mesh32, LinkSpec::ideal());
    // From a corner to the far corner of a 32 × 32 torus: one hop back round each way.
    assert_eq!(m.route(p(0), p(1023)).unwrap().hops().len(), 2);
}

#[test]
fn the_look_past_a_time_agrees_with_the_whole_look_beyond_it() {
    // Every line of a 6-processor fully connected pool and of an 8-processor hypercube, some
    // with messages in flight or waiting, senders free at times drawn from a small generator:
    // `earliest_arrival_past(.., enough, ..)` is the whole look's answer when that is after
    // `enough`, and at or before `enough` otherwise, so every time at or after `enough` compares
    // with both alike.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut draw = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let now = SimTime(10_000);
    for round in 0..200 {
        let (n, kind) = if round % 2 == 0 {
            (6, PoolNetwork::FullyConnected)
        } else {
            (8, PoolNetwork::Hypercube(SOFT))
        };
        let mut net = pool(n, kind, LinkSpec::serial(1_000_000, false));
        for _ in 0..draw(12) {
            let (a, b) = (draw(n as u64) as u32, draw(n as u64) as u32);
            if a == b {
                continue;
            }
            match draw(3) {
                0 => net.prepare(p(a), p(b)),
                _ => {
                    let ch = net.post(p(a), p(b), M("m", 1 + draw(40)), now).unwrap();
                    if draw(2) == 0 {
                        net.transmit(ch, now, always).unwrap();
                    }
                }
            }
        }
        let free: Vec<SimTime> = (0..n)
            .map(|_| match draw(4) {
                0 => SimTime::MAX,
                _ => now + SimTime(draw(60_000)),
            })
            .collect();
        let sends = |from: ProcId, _: ProcId| free[from.index()];
        for at in 0..n as u32 {
            for quiet in [None, Some(p(draw(n as u64) as u32))] {
                let whole = net.earliest_arrival(p(at), quiet, now, sends);
                for enough in [now, now + SimTime(draw(80_000)), SimTime::MAX] {
                    let part = net.earliest_arrival_past(p(at), quiet, now, enough, sends);
                    if whole > enough {
                        assert_eq!(part, whole, "round {round}, at {at}, enough {enough:?}");
                    } else {
                        assert!(part <= enough, "round {round}, at {at}, enough {enough:?}");
                        assert!(part >= whole, "round {round}: never below the whole look");
                    }
                }
            }
        }
    }
}
