//! Speedups of Young Brothers Wait (`ybwc`) on strongly ordered synthetic trees, on fully
//! connected lines and on a shared bus, with Parabelle's calibrated costs, every processor
//! interrupt-driven; and the wall time of a 1,024-processor hypercube run.
//!
//! `cargo run --release -p algorithms --example ybwc_speedup [width depth seeds]`

use algorithms::*;
use sim_core::{MsgKind, SimTime};
use sim_hw::{
    BusSpec, CostModel, Forwarding, LinkSpec, MachineConfig, PoolNetwork, ReadPolicies, ReadPolicy,
    Routing,
};
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: width depth seeds"))
        .collect();
    let (width, depth, seeds) = match args.as_slice() {
        [w, d, s] => (*w as u32, *d as u32, *s),
        _ => (8, 8, 4),
    };
    let costs = CostModel {
        k: SimTime::from_millis(8),
        e: SimTime(25_650_000),
        q: SimTime::ZERO,
        probe: SimTime::ZERO,
        s: SimTime::from_millis(2),
        interrupt: SimTime::from_millis(1),
    };
    let networks: [(&str, PoolNetwork, LinkSpec); 3] = [
        (
            "lines 960 B/s",
            PoolNetwork::FullyConnected,
            LinkSpec::serial(960, false),
        ),
        (
            "lines 1.25 MB/s",
            PoolNetwork::FullyConnected,
            LinkSpec::serial(1_250_000, false),
        ),
        (
            "bus 10 Mbit/s",
            PoolNetwork::Bus(BusSpec {
                rate: 1_250_000,
                header_bytes: 26,
                min_frame_bytes: 64,
            }),
            LinkSpec::ideal(),
        ),
    ];
    println!(
        "w = {width}, d = {depth}, FirstBest(p: 0.9), spread 10000; k 8 ms, e 25.65 ms, s 2 ms, \
         interrupt 1 ms; every processor interrupt-driven; {seeds} trees; speedup = mean over \
         trees of makespan(1) / makespan(P)"
    );
    println!("| network | P | speedup | efficiency | nodes / nodes(1) | msgs / node | inter-node msgs | requests | NONE | sons given | aborts | windows | wall s |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, network, link) in networks {
        let mut base: Vec<(SimTime, u64)> = Vec::new();
        for p in [1usize, 2, 4, 8, 16, 64] {
            let (mut speed, mut nodes_ratio, mut msgs, mut nodes_all) = (0.0, 0.0, 0u64, 0u64);
            let (mut inter, mut req, mut none, mut given) = (0u64, 0u64, 0u64, 0u64);
            let (mut aborts, mut windows) = (0u64, 0u64);
            let wall = Instant::now();
            for seed in 0..seeds {
                let spec = SyntheticSpec {
                    width,
                    depth,
                    ordering: Ordering::FirstBest { p: 0.9 },
                    value_spread: 10_000,
                    horizon_noise: 0,
                };
                let tree = SyntheticTree::new(spec, seed).unwrap();
                let mut m = MachineConfig::pool(p, network, costs, link);
                m.reads = ReadPolicies {
                    hosts: ReadPolicy::Interrupt,
                    boards: ReadPolicy::Interrupt,
                };
                let scheme = Ybwc(YbwcConfig::new(depth, seed));
                let run = run_scheme(&scheme, &tree, m).unwrap();
                let n = run.stats.total_nodes();
                let nodes = n.interior + n.leaves;
                if p == 1 {
                    base.push((run.stats.makespan, nodes));
                }
                let (t1, n1) = base[seed as usize];
                speed += t1.as_nanos() as f64 / run.stats.makespan.as_nanos() as f64;
                nodes_ratio += nodes as f64 / n1 as f64;
                msgs += run.stats.messages.count.iter().sum::<u64>();
                inter += run.stats.messages.count(MsgKind::InterNode);
                nodes_all += nodes;
                let f = scheme.figures(&run.roles);
                req += f.get("ybwc_requests").unwrap_or(0);
                none += f.get("ybwc_nones").unwrap_or(0);
                given += f.get("ybwc_given").unwrap_or(0);
                aborts += f.get("ybwc_aborts").unwrap_or(0);
                windows += f.get("ybwc_windows").unwrap_or(0);
            }
            let k = seeds as f64;
            println!(
                "| {name} | {p} | {:.2} | {:.2} | {:.2} | {:.3} | {} | {} | {} | {} | {} | {} | {:.1} |",
                speed / k,
                speed / k / p as f64,
                nodes_ratio / k,
                msgs as f64 / nodes_all as f64,
                inter / seeds,
                req / seeds,
                none / seeds,
                given / seeds,
                aborts / seeds,
                windows / seeds,
                wall.elapsed().as_secs_f64()
            );
        }
    }
    for d in [6u32, 10] {
        let spec = SyntheticSpec {
            width: 8,
            depth: d,
            ordering: Ordering::FirstBest { p: 0.9 },
            value_spread: 10_000,
            horizon_noise: 0,
        };
        let tree = SyntheticTree::new(spec, 4).unwrap();
        let cube = PoolNetwork::Hypercube(Routing {
            forwarding: Forwarding::Hardware,
            cost: SimTime::from_micros(5),
        });
        let mut m = MachineConfig::pool(1024, cube, costs, LinkSpec::serial(1_250_000, false));
        m.reads = ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::Interrupt,
        };
        let wall = Instant::now();
        let run = run_scheme(&Ybwc(YbwcConfig::new(d, 1)), &tree, m).unwrap();
        let n = run.stats.total_nodes();
        println!(
            "1,024 processors, hypercube, w = 8, d = {d}: wall {:.2} s, {} events, makespan {:.1} s, {} nodes, {} messages",
            wall.elapsed().as_secs_f64(),
            run.stats.events,
            run.stats.makespan.as_secs_f64(),
            n.interior + n.leaves,
            run.stats.messages.count.iter().sum::<u64>()
        );
    }
}
