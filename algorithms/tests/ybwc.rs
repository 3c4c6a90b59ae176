//! Young Brothers Wait (`ybwc`) on pools of processors: negamax's root value on random trees of
//! every ordering, on 1, 2, 3, 4 and 8 processors, over every network kind, with random costs,
//! lines and read policies; every processor's time accounted; batched runs equal step-by-step
//! runs; refused where it cannot run; a 1,024-processor hypercube run completes.

mod common;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::{MsgKind, SimTime};
use sim_hw::{
    CostModel, Forwarding, LinkSpec, MachineConfig, Platform, PoolNetwork, ProcessorTree,
    ReadPolicy, Routing,
};

const COUNTS: [usize; 5] = [1, 2, 3, 4, 8];

/// Trees of width 2-8 with small value spreads (ties and cutoffs on equal values: the hard
/// cases) and little horizon noise.
fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
    common::random_tree_up_to(rng, seed, 8, 200, 10)
}

/// Campbell's costs on ideal lines, or random costs, serial lines and read policies per
/// processor (so that requests, results, aborts and windows cross at awkward moments), on a pool
/// of `n` processors over `network`.
fn machine(rng: &mut SplitMix64, n: usize, network: PoolNetwork) -> MachineConfig {
    common::machine_on(rng, Platform::pool(n, network))
}

fn random_config(rng: &mut SplitMix64, depth: u32, seed: u64) -> YbwcConfig {
    YbwcConfig {
        depth,
        victim: if rng.random_bool(0.5) {
            Victim::Random
        } else {
            Victim::RoundRobin
        },
        window_updates: rng.random_bool(0.5),
        helpful_master: rng.random_bool(0.7),
        min_split_depth: rng.random_range(0..=2),
        seed,
    }
}

#[test]
fn ybwc_returns_negamax_on_every_tree_count_and_network() {
    let mut rng = SplitMix64::seed_from_u64(17);
    let (mut runs, mut given, mut aborts, mut windows) = (0u64, 0u64, 0u64, 0u64);
    for seed in 0..1000u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for n in COUNTS {
            for network in common::networks(&mut rng, n) {
                let config = random_config(&mut rng, depth, seed);
                let machine = machine(&mut rng, n, network);
                let ideal = machine.links[0] == LinkSpec::ideal();
                let run = run_scheme(&Ybwc(config), &tree, machine)
                    .unwrap_or_else(|e| panic!("seed {seed}, {config:?} on {n} {network:?}: {e}"));
                assert_eq!(
                    run.root_value,
                    Some(expected),
                    "seed {seed}, {config:?} on {n} {network:?}, ideal {ideal}, {:?}",
                    tree.spec()
                );
                assert!(run.roles[0]
                    .finished_at()
                    .is_some_and(|t| t <= run.stats.makespan));
                for (p, stats) in run.stats.procs.iter().enumerate() {
                    assert_eq!(
                        stats.times.total(),
                        run.stats.makespan.as_nanos(),
                        "seed {seed} on {n} {network:?}: P{p}'s categories {:?}",
                        stats.times
                    );
                }
                if n == 1 {
                    assert_eq!(run.stats.messages.count.iter().sum::<u64>(), 0);
                }
                let counts: Vec<YbwcCounts> = run.roles.iter().map(|r| r.counts()).collect();
                given += counts.iter().map(|c| c.given).sum::<u64>();
                aborts += counts.iter().map(|c| c.aborts).sum::<u64>();
                let w = counts.iter().map(|c| c.windows).sum::<u64>();
                if !config.window_updates {
                    assert_eq!(w, 0, "seed {seed}: WINDOW sent with window updates off");
                }
                windows += w;
                runs += 1;
            }
        }
    }
    // Work was really shared (many sons handed out), and cutoffs and bounds reached helpers.
    eprintln!("{runs} runs, {given} sons given, {aborts} aborts, {windows} window updates");
    assert!(
        runs > 15_000 && given > 2 * runs && aborts > runs / 10 && windows > runs / 10,
        "{runs} runs, {given} sons given, {aborts} aborts, {windows} window updates"
    );
}

/// On one processor ybwc is plain fail-soft alpha-beta: exactly its nodes and value.
#[test]
fn on_one_processor_ybwc_visits_exactly_alphabetas_nodes() {
    let mut rng = SplitMix64::seed_from_u64(3);
    for seed in 0..200u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let costs = CostModel::campbell();
        let (value, work) = sim_hw::run_alone(
            &mut AlphaBeta::new(&tree, tree.root(), -INF, INF, depth),
            &costs,
        );
        let machine = MachineConfig::pool(1, PoolNetwork::FullyConnected, costs, LinkSpec::ideal());
        let run = run_scheme(&Ybwc(YbwcConfig::new(depth, seed)), &tree, machine).unwrap();
        assert_eq!(run.root_value, Some(value), "seed {seed}");
        assert_eq!(run.stats.total_nodes(), work.nodes, "seed {seed}");
        assert_eq!(run.stats.makespan, work.time, "seed {seed}");
    }
}

#[test]
fn batching_on_and_off_give_the_same_runs_but_for_the_event_count() {
    let mut rng = SplitMix64::seed_from_u64(11);
    for seed in 0..1000u64 {
        let tree = random_tree(&mut rng, seed);
        let depth = tree.spec().depth;
        let n = COUNTS[rng.random_range(0..COUNTS.len())];
        let nets = common::networks(&mut rng, n);
        let network = nets[rng.random_range(0..nets.len())];
        let config = random_config(&mut rng, depth, seed);
        let mut on = machine(&mut rng, n, network);
        on.record_intervals = true;
        on.record_messages = true;
        let mut off = on.clone();
        off.batching = false;
        let a = run_scheme(&Ybwc(config), &tree, on).unwrap();
        let b = run_scheme(&Ybwc(config), &tree, off).unwrap();
        assert_eq!(a.root_value, b.root_value);
        assert_eq!(a.stats.makespan, b.stats.makespan, "seed {seed}");
        for (x, y) in a.stats.procs.iter().zip(&b.stats.procs) {
            assert_eq!(x.times, y.times, "seed {seed}");
            assert_eq!(x.nodes, y.nodes, "seed {seed}");
            assert_eq!(x.intervals, y.intervals, "seed {seed}");
        }
        assert_eq!(a.stats.messages, b.stats.messages, "seed {seed}");
        assert_eq!(a.stats.message_log, b.stats.message_log, "seed {seed}");
        assert_eq!(a.stats.markers, b.stats.markers, "seed {seed}");
        assert!(a.stats.events <= b.stats.events);
    }
}

#[test]
fn same_seed_same_run_and_the_seed_matters() {
    let spec = SyntheticSpec {
        width: 6,
        depth: 5,
        ordering: Ordering::FirstBest { p: 0.8 },
        value_spread: 1000,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 9).unwrap();
    let costs = CostModel {
        k: SimTime(3),
        e: SimTime(10),
        s: SimTime(2),
        ..CostModel::campbell()
    };
    let run = |seed| {
        let m = MachineConfig::pool(8, PoolNetwork::FullyConnected, costs, LinkSpec::ideal());
        run_scheme(&Ybwc(YbwcConfig::new(5, seed)), &tree, m).unwrap()
    };
    let (a, b) = (run(1), run(1));
    assert_eq!(a.stats.makespan, b.stats.makespan);
    assert_eq!(a.stats.messages, b.stats.messages);
    let differs = (2..10).any(|s| run(s).stats.messages != a.stats.messages);
    assert!(differs, "the victims' seed changes nothing");
}

#[test]
fn message_sizes_and_types_are_as_documented() {
    use sim_hw::Message;
    assert_eq!(YbwcMsg::Request.bytes(), 2);
    assert_eq!(YbwcMsg::None.bytes(), 2);
    assert_eq!(YbwcMsg::Abort { job: 7 }.bytes(), 2);
    assert_eq!(YbwcMsg::Done.bytes(), 2);
    assert_eq!(YbwcMsg::Result { job: 1, value: -3 }.bytes(), 4);
    let window = YbwcMsg::Window {
        job: 1,
        alpha: 0,
        beta: 9,
    };
    assert_eq!(window.bytes(), 4);
    let work = |path: Vec<u32>| YbwcMsg::Work {
        job: 0,
        path,
        alpha: -INF,
        beta: INF,
        depth: 3,
    };
    assert_eq!(work(vec![0, 3, 1]).bytes(), 7);
    assert_eq!(work(vec![0, 300]).bytes(), 8);
    assert_eq!(YbwcMsg::Done.kind(), MsgKind::Interactive);
    assert_eq!(YbwcMsg::Request.kind(), MsgKind::InterNode);
}

#[test]
fn refused_on_a_processor_tree_without_routes_between_every_pair_and_at_depth_0() {
    let tree = SyntheticTree::new(
        SyntheticSpec {
            width: 3,
            depth: 3,
            ordering: Ordering::Random,
            value_spread: 100,
            horizon_noise: 0,
        },
        1,
    )
    .unwrap();
    let star = MachineConfig::new(
        ProcessorTree::new(3, 1),
        CostModel::campbell(),
        LinkSpec::ideal(),
    );
    match run_scheme(&Ybwc(YbwcConfig::new(3, 0)), &tree, star) {
        Err(SchemeError::Deploy(DeployError::Shape { needs, .. })) => {
            assert!(needs.contains("pool"), "{needs}")
        }
        other => panic!("ran on a star: {:?}", other.map(|r| r.root_value)),
    }
    let pair = MachineConfig::new(
        ProcessorTree::new(2, 1),
        CostModel::campbell(),
        LinkSpec::ideal(),
    );
    let run = run_scheme(&Ybwc(YbwcConfig::new(3, 0)), &tree, pair).unwrap();
    assert_eq!(run.root_value, Some(negamax(&tree, &tree.root(), 3)));
    let pool = MachineConfig::pool(
        2,
        PoolNetwork::FullyConnected,
        CostModel::campbell(),
        LinkSpec::ideal(),
    );
    assert!(matches!(
        run_scheme(&Ybwc(YbwcConfig::new(0, 0)), &tree, pool),
        Err(SchemeError::Deploy(DeployError::NoDepth { .. }))
    ));
}

/// A smoke test of scale: 1,024 processors on a hypercube finish with the right value.
#[test]
fn a_thousand_processors_on_a_hypercube() {
    let spec = SyntheticSpec {
        width: 8,
        depth: 6,
        ordering: Ordering::FirstBest { p: 0.9 },
        value_spread: 10_000,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 4).unwrap();
    let costs = CostModel {
        k: SimTime::from_micros(100),
        e: SimTime::from_micros(200),
        s: SimTime::from_micros(50),
        ..CostModel::campbell()
    };
    let cube = PoolNetwork::Hypercube(Routing {
        forwarding: Forwarding::Hardware,
        cost: SimTime::from_micros(5),
    });
    let mut m = MachineConfig::pool(1024, cube, costs, LinkSpec::serial(1_000_000, false));
    m.reads.boards = ReadPolicy::Poll { every: 1 };
    let run = run_scheme(&Ybwc(YbwcConfig::new(6, 1)), &tree, m).unwrap();
    assert_eq!(run.root_value, Some(negamax(&tree, &tree.root(), 6)));
    for p in &run.stats.procs {
        assert_eq!(p.times.total(), run.stats.makespan.as_nanos());
    }
}
