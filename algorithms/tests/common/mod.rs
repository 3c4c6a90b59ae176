//! What the property tests of the parallel schemes share: random trees of every ordering,
//! random machines (Campbell's ideal one, or costs, serial lines and random read policies, so
//! that messages cross at awkward moments) on every network kind the processor count allows
//! (the processor tree's own lines, or the tree laid over fully connected lines, a hypercube, a
//! mesh or torus, or a shared bus: `Platform::Overlay`), and the three checks every scheme must
//! pass: the sequential root value on every tree, processor count and network, every
//! processor's time categories adding up to the makespan, and batched runs equal to
//! step-by-step runs.

#![allow(dead_code)]

pub mod optimism;

use algorithms::rng::SplitMix64;
use algorithms::*;
use rand::{Rng, SeedableRng};
use sim_core::SimTime;
use sim_hw::{
    BusSpec, CostModel, Forwarding, LinkSpec, MachineConfig, Platform, PoolNetwork, ProcessorTree,
    ReadPolicies, ReadPolicy, Routing,
};
use std::collections::BTreeMap;

/// The processor counts every scheme is checked on.
pub const PROCESSORS: [u32; 5] = [1, 2, 3, 4, 8];

/// The network kinds, as [`kind`] names them: the processor tree's own lines, then the pool
/// networks a tree can be laid over.
pub const KINDS: [&str; 5] = ["tree lines", "fully connected", "hypercube", "mesh", "bus"];

/// The kind of network `platform`'s messages travel, one of [`KINDS`] (a pool without a
/// processor tree is named by its network).
pub fn kind(platform: &Platform) -> &'static str {
    match platform.pool_network() {
        None => KINDS[0],
        Some(PoolNetwork::FullyConnected) => KINDS[1],
        Some(PoolNetwork::Hypercube(_)) => KINDS[2],
        Some(PoolNetwork::Mesh { .. }) => KINDS[3],
        Some(PoolNetwork::Bus(_)) => KINDS[4],
    }
}

/// Every pool network kind that fits `n` processors, with random parameters: fully connected
/// lines, a hypercube (n a power of two; software or hardware forwarding, a random forwarding
/// cost), a mesh of width × height = n (any factorisation, torus or not, same routing) and an
/// Ethernet-class bus (random rate, header and minimum frame).
pub fn networks(rng: &mut SplitMix64, n: usize) -> Vec<PoolNetwork> {
    let routing = Routing {
        forwarding: if rng.random_bool(0.5) {
            Forwarding::Software
        } else {
            Forwarding::Hardware
        },
        cost: SimTime(rng.random_range(0..4)),
    };
    let mut v = vec![PoolNetwork::FullyConnected];
    if n.is_power_of_two() {
        v.push(PoolNetwork::Hypercube(routing));
    }
    let widths: Vec<usize> = (1..=n).filter(|w| n.is_multiple_of(*w)).collect();
    let width = widths[rng.random_range(0..widths.len())];
    v.push(PoolNetwork::Mesh {
        width: width as u32,
        height: (n / width) as u32,
        torus: rng.random_bool(0.5),
        routing,
    });
    v.push(PoolNetwork::Bus(BusSpec {
        rate: rng.random_range(100_000_000..2_000_000_000),
        header_bytes: rng.random_range(0..30),
        min_frame_bytes: rng.random_range(0..64),
    }));
    v
}

/// Every platform a tree scheme can run on with processor tree `ptree`: the tree's own lines,
/// and the tree over each of [`networks`].
pub fn platforms(rng: &mut SplitMix64, ptree: &ProcessorTree) -> Vec<Platform> {
    let mut v = vec![Platform::Tree(ptree.clone())];
    for network in networks(rng, ptree.len()) {
        v.push(Platform::Overlay {
            tree: ptree.clone(),
            network,
        });
    }
    v
}

/// One of [`platforms`], at random (each kind equally likely).
pub fn random_platform(rng: &mut SplitMix64, ptree: &ProcessorTree) -> Platform {
    let mut all = platforms(rng, ptree);
    let k = rng.random_range(0..all.len());
    all.swap_remove(k)
}

/// Random costs of the order of an evaluation (so that messages cost as much as some nodes).
pub fn random_costs(rng: &mut SplitMix64) -> CostModel {
    CostModel {
        k: SimTime(rng.random_range(0..5)),
        e: SimTime(rng.random_range(1..20)),
        q: SimTime::ZERO,
        probe: SimTime(rng.random_range(0..2)),
        s: SimTime(rng.random_range(0..5)),
        interrupt: SimTime(rng.random_range(0..5)),
    }
}

/// A serial line of a random rate, with or without RTS/CTS.
pub fn random_link(rng: &mut SplitMix64) -> LinkSpec {
    LinkSpec::serial(
        rng.random_range(100_000_000..2_000_000_000),
        rng.random_bool(0.5),
    )
}

/// A machine on `platform`: Campbell's ideal one (e = 1, the rest free, ideal lines; a bus
/// keeps its rate), or one with [`random_costs`], a [`random_link`] and random read policies
/// (hosts and boards; on a pool without a tree, one per processor).
pub fn machine_on(rng: &mut SplitMix64, platform: Platform) -> MachineConfig {
    if rng.random_bool(0.4) {
        return MachineConfig::on(platform, CostModel::campbell(), LinkSpec::ideal());
    }
    let costs = random_costs(rng);
    let link = random_link(rng);
    let policies = [
        ReadPolicy::Interrupt,
        ReadPolicy::Poll { every: 1 },
        ReadPolicy::Poll { every: 7 },
        ReadPolicy::WhenIdle,
    ];
    let boards = policies[rng.random_range(0..policies.len())];
    let n = platform.len();
    let pool = platform.tree().is_none();
    let mut config = MachineConfig::on(platform, costs, link);
    if pool {
        config.read_by_processor = (0..n)
            .map(|_| policies[rng.random_range(0..policies.len())])
            .collect();
    } else {
        config.reads = ReadPolicies {
            hosts: if rng.random_bool(0.5) {
                ReadPolicy::Interrupt
            } else {
                boards
            },
            boards,
        };
    }
    config
}

/// A star of `p` processors (a master and p − 1 workers), as the paper's tree of fanout p and
/// length 1 or as Campbell's of depth 1 and width p − 1, on a [`random_platform`] and a
/// [`machine_on`] it.
pub fn machine(rng: &mut SplitMix64, p: u32) -> MachineConfig {
    let ptree = if p > 1 && rng.random_bool(0.5) {
        ProcessorTree::campbell(1, p - 1)
    } else {
        ProcessorTree::new(p, 1)
    };
    let platform = random_platform(rng, &ptree);
    machine_on(rng, platform)
}

/// Runs per processor count and network kind, to check that a property test covered them all.
#[derive(Default, Debug)]
pub struct Coverage(BTreeMap<(usize, &'static str), usize>);

impl Coverage {
    /// One more run on `config`'s machine.
    pub fn add(&mut self, config: &MachineConfig) {
        *self
            .0
            .entry((config.platform.len(), kind(&config.platform)))
            .or_default() += 1;
    }
    /// Every count of `counts` had at least `min` runs on every network kind that fits it.
    pub fn assert_every_kind(&self, counts: &[usize], min: usize) {
        for &n in counts {
            for name in &KINDS[..] {
                if *name == KINDS[2] && !n.is_power_of_two() {
                    continue;
                }
                let runs = self.0.get(&(n, *name)).copied().unwrap_or(0);
                assert!(
                    runs >= min,
                    "only {runs} runs on {n} processors over {name}: {:?}",
                    self.0
                );
            }
        }
    }
}

/// A synthetic tree of width 2-8 and depth 2-6 with a random ordering (random, perfect,
/// first-best with any p, geometric with any p), a small or large value spread (small ones make
/// ties frequent) and some horizon noise (interior evaluations that are estimates).
pub fn random_tree(rng: &mut SplitMix64, seed: u64) -> SyntheticTree {
    random_tree_up_to(rng, seed, 8, 1000, 30)
}

/// As [`random_tree`], of width 2 to `width`, value spread 1 to `spread` (small spreads make
/// ties and cutoffs on equal values frequent: the hard cases) and horizon noise 0 to `noise`.
pub fn random_tree_up_to(
    rng: &mut SplitMix64,
    seed: u64,
    width: u32,
    spread: u32,
    noise: u32,
) -> SyntheticTree {
    let ordering = match rng.random_range(0..4) {
        0 => Ordering::Random,
        1 => Ordering::Perfect,
        2 => Ordering::FirstBest {
            p: rng.random_range(0.0..=1.0),
        },
        _ => Ordering::Geometric {
            p: rng.random_range(0.05..=1.0),
        },
    };
    let spec = SyntheticSpec {
        width: rng.random_range(2..=width),
        depth: rng.random_range(2..=6),
        ordering,
        value_spread: rng.random_range(1..=spread),
        horizon_noise: rng.random_range(0..=noise),
    };
    SyntheticTree::new(spec, seed).unwrap()
}

/// A star of `p` processors: the paper's tree of fanout p and length 1, or Campbell's of depth
/// 1 and width p − 1 (the same shape; both descriptions are checked).
pub fn star(rng: &mut SplitMix64, p: u32) -> ProcessorTree {
    if p > 1 && rng.random_bool(0.5) {
        ProcessorTree::campbell(1, p - 1)
    } else {
        ProcessorTree::new(p, 1)
    }
}

/// A processor tree of `p` processors of any shape: a [`star`], a chain (Campbell's of width 1,
/// p − 1 levels), or for 4 and 8 processors the paper's binary tree (fanout 2, a parent its own
/// first child; length 2 or 3).
pub fn any_shape(rng: &mut SplitMix64, p: u32) -> ProcessorTree {
    let mut shapes = vec![star(rng, p)];
    if p > 2 {
        shapes.push(ProcessorTree::campbell(p - 1, 1));
    }
    if p.is_power_of_two() && p > 2 {
        shapes.push(ProcessorTree::new(2, p.trailing_zeros()));
    }
    let k = rng.random_range(0..shapes.len());
    shapes.swap_remove(k)
}

/// Runs `scheme` on `tree` and `config`, and checks that it returns `expected` and that every
/// processor's categories add up to the makespan; `at` names the case in failures.
pub fn checked_run<'t, S>(
    scheme: &S,
    tree: &'t SyntheticTree,
    config: MachineConfig,
    expected: Value,
    at: &str,
) -> SchemeRun<S::Role>
where
    S: Scheme<'t, SyntheticTree>,
{
    let p = config.platform.len();
    let run = run_scheme(scheme, tree, config).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(run.root_value, Some(expected), "{at}");
    assert_eq!(run.stats.procs.len(), p, "{at}");
    for (q, stats) in run.stats.procs.iter().enumerate() {
        assert_eq!(
            stats.times.total(),
            run.stats.makespan.as_nanos(),
            "{at}: P{q}'s categories {:?}",
            stats.times
        );
    }
    run
}

fn describe(config: &MachineConfig) -> String {
    format!(
        "{} processors, {:?}, {:?}, reads {:?} {:?}",
        config.platform.len(),
        config.platform,
        config.links,
        config.reads,
        config.read_by_processor
    )
}

/// `trees` random trees, each on every processor count of [`PROCESSORS`] on a star over a
/// random network kind ([`machine`]): the scheme `make` builds for the tree returns negamax's
/// root value, and every processor's categories add up to the makespan. `check` sees every run
/// as well (a scheme's own assertions). Every processor count has been run on every network
/// kind that fits it, at least `trees / 20` times. Returns the number of runs.
pub fn returns_negamax_everywhere<S, F, C>(seed: u64, trees: u64, make: F, check: C) -> usize
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
    C: FnMut(&SyntheticTree, &SchemeRun<<S as Scheme<'_, SyntheticTree>>::Role>, Value),
{
    let (runs, coverage) =
        returns_negamax_on(seed, trees, |rng, p, _| Some(star(rng, p)), make, check);
    coverage.assert_every_kind(&[1, 2, 3, 4, 8], trees as usize / 20);
    runs
}

/// [`returns_negamax_everywhere`] on the processor trees `shape` draws for each processor count
/// of [`PROCESSORS`] and tree (`None`: the scheme does not apply, no run), each on a
/// [`random_platform`]. Returns the number of runs and their coverage.
pub fn returns_negamax_on<S, P, F, C>(
    seed: u64,
    trees: u64,
    shape: P,
    make: F,
    mut check: C,
) -> (usize, Coverage)
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    P: Fn(&mut SplitMix64, u32, &SyntheticTree) -> Option<ProcessorTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
    C: FnMut(&SyntheticTree, &SchemeRun<<S as Scheme<'_, SyntheticTree>>::Role>, Value),
{
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut runs = 0;
    let mut coverage = Coverage::default();
    for n in 0..trees {
        let tree = random_tree(&mut rng, seed * 100_000 + n);
        let depth = tree.spec().depth;
        let expected = negamax(&tree, &tree.root(), depth);
        for p in PROCESSORS {
            let Some(ptree) = shape(&mut rng, p, &tree) else {
                continue;
            };
            let scheme = make(&tree, &mut rng);
            let platform = random_platform(&mut rng, &ptree);
            let config = machine_on(&mut rng, platform);
            coverage.add(&config);
            let at = format!(
                "tree {n}, {} on {}, {:?}",
                scheme.name(),
                describe(&config),
                tree.spec(),
            );
            let run = checked_run(&scheme, &tree, config, expected, &at);
            check(&tree, &run, expected);
            runs += 1;
        }
    }
    (runs, coverage)
}

/// `trees` random runs with batching on and off, on stars of a random processor count over a
/// random network kind: equal in every column but the event count ([`batching_check`]).
pub fn batching_changes_nothing_but_events<S, F>(seed: u64, trees: u64, make: F)
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    batching_check(seed, trees, |rng, p, _| Some(star(rng, p)), make);
}

/// Run `n` of a sweep seeded `seed`: a random tree, the scheme `make` draws for it, a processor
/// count of [`PROCESSORS`] with the processor tree `shape` draws (`None`: no run), a random
/// network over it and a machine ([`machine_on`]).
fn draw_run<S, P, F>(
    rng: &mut SplitMix64,
    seed: u64,
    n: u64,
    shape: &P,
    make: &F,
) -> Option<(SyntheticTree, S, MachineConfig)>
where
    P: Fn(&mut SplitMix64, u32, &SyntheticTree) -> Option<ProcessorTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    let tree = random_tree(rng, seed * 100_000 + n);
    let scheme = make(&tree, rng);
    let p = PROCESSORS[rng.random_range(0..PROCESSORS.len())];
    let ptree = shape(rng, p, &tree)?;
    let platform = random_platform(rng, &ptree);
    let config = machine_on(rng, platform);
    Some((tree, scheme, config))
}

/// Batched and step-by-step runs of `trees` random trees, each on a random processor count of
/// [`PROCESSORS`] with the processor tree `shape` draws (`None`: skipped) over a random network
/// kind: the same run in every figure ([`same_run`]); the batched run handles no more events.
/// Every network kind has been used at least `trees / 40` times. Returns the number of runs.
pub fn batching_check<S, P, F>(seed: u64, trees: u64, shape: P, make: F) -> usize
where
    S: for<'t> Scheme<'t, SyntheticTree>,
    P: Fn(&mut SplitMix64, u32, &SyntheticTree) -> Option<ProcessorTree>,
    F: Fn(&SyntheticTree, &mut SplitMix64) -> S,
{
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut runs = 0;
    for n in 0..trees {
        let Some((tree, scheme, mut on)) = draw_run(&mut rng, seed, n, &shape, &make) else {
            continue;
        };
        on.record_intervals = true;
        on.record_messages = true;
        *kinds.entry(kind(&on.platform)).or_default() += 1;
        let mut off = on.clone();
        off.batching = false;
        let at = format!("tree {n}, {} on {}", scheme.name(), describe(&on));
        let a = run_scheme(&scheme, &tree, on).unwrap_or_else(|e| panic!("{at}: {e}"));
        let b = run_scheme(&scheme, &tree, off).unwrap_or_else(|e| panic!("{at}: {e}"));
        same_run(&scheme, &a, &b, &at);
        assert!(a.stats.events <= b.stats.events, "{at}");
        runs += 1;
    }
    for name in KINDS {
        let used = kinds.get(name).copied().unwrap_or(0);
        assert!(
            used >= trees as usize / 40,
            "batching checked over {name} only {used} times: {kinds:?}"
        );
    }
    runs
}

/// Two runs of `scheme` are the same run: root value and move, makespan, per-processor
/// categories, nodes and intervals, messages (counts and log), markers, scheme figures and
/// shared-memory counts (the engine's event and rollback counts aside).
pub fn same_run<'t, S>(scheme: &S, a: &SchemeRun<S::Role>, b: &SchemeRun<S::Role>, at: &str)
where
    S: Scheme<'t, SyntheticTree>,
{
    assert_eq!(a.root_value, b.root_value, "{at}");
    assert_eq!(
        scheme.root_move(&a.roles),
        scheme.root_move(&b.roles),
        "{at}"
    );
    assert_eq!(a.stats.makespan, b.stats.makespan, "{at}");
    assert_eq!(a.stats.procs.len(), b.stats.procs.len(), "{at}");
    for (x, y) in a.stats.procs.iter().zip(&b.stats.procs) {
        assert_eq!(x.times, y.times, "{at}");
        assert_eq!(x.nodes, y.nodes, "{at}");
        assert_eq!(x.intervals, y.intervals, "{at}");
    }
    assert_eq!(a.stats.messages, b.stats.messages, "{at}");
    assert_eq!(a.stats.message_log, b.stats.message_log, "{at}");
    assert_eq!(a.stats.markers, b.stats.markers, "{at}");
    assert_eq!(a.stats.memory, b.stats.memory, "{at}");
    assert_eq!(scheme.figures(&a.roles), scheme.figures(&b.roles), "{at}");
}

/// Whether `scheme` refuses to deploy on a processor tree two levels deep (Campbell's (2, 2)),
/// searching a small tree of depth 3: the schemes of a master and its slaves must.
pub fn refuses_a_deeper_processor_tree<S>(scheme: &S) -> bool
where
    S: for<'t> Scheme<'t, SyntheticTree>,
{
    let spec = SyntheticSpec {
        width: 3,
        depth: 3,
        ordering: Ordering::Random,
        value_spread: 100,
        horizon_noise: 0,
    };
    let tree = SyntheticTree::new(spec, 1).unwrap();
    let config = MachineConfig::new(
        ProcessorTree::campbell(2, 2),
        CostModel::campbell(),
        LinkSpec::ideal(),
    );
    let refused = matches!(
        run_scheme(scheme, &tree, config),
        Err(SchemeError::Deploy(_))
    );
    refused
}
