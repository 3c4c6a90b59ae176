//! Runs Parabelle (pmws + refutation table, optional transposition table) on the 24
//! Bratko-Kopec positions on a simulated machine, and the plain recursive PVS over the same
//! positions, and prints node counts and wall-clock speed: the numbers behind the calibration
//! and BENCHMARKS.md.
//!
//! `cargo run --release -p chess --example parabelle -- DEPTH F [none|global_all|global_partial|local_all|local_partial]`

use algorithms::*;
use chess::bratko_kopec;
use sim_core::SimTime;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args
        .as_slice()
        .get(1)
        .map_or(5, |s| s.parse().expect("DEPTH"));
    let f: u32 = args.as_slice().get(2).map_or(1, |s| s.parse().expect("F"));
    let (kind, storage) = match args.as_slice().get(3).map_or("none", |s| s.as_str()) {
        "none" => (TableKind::None, Storage::All),
        "global_all" => (TableKind::Global, Storage::All),
        "global_partial" => (TableKind::Global, Storage::Partial),
        "local_all" => (TableKind::Local, Storage::All),
        "local_partial" => (TableKind::Local, Storage::Partial),
        t => panic!("unknown table {t}"),
    };
    let costs = CostModel {
        // The calibration of scenarios/parabelle-table2.ron (see its comment).
        k: SimTime(1_126_900),
        e: SimTime(563_450),
        q: SimTime(563_450),
        probe: SimTime(56_300),
        s: SimTime::from_millis(2),
        interrupt: SimTime::from_millis(1),
    };
    let cfg = ParabelleConfig {
        depth,
        progressive: true,
        table: TableConfig {
            kind,
            storage,
            entries: 8192,
        },
    };
    let (mut tot_i, mut tot_l, mut tot_q, mut tot_p) = (0u64, 0u64, 0u64, 0u64);
    let (mut sim_wall, mut plain_wall, mut plain_nodes) = (0.0, 0.0, 0u64);
    let mut elapsed = 0.0;
    println!("pos     value  move  interior   leaves  quiesc.  probes  elapsed_s  wall_s");
    for (id, tree, _) in bratko_kopec() {
        let link = LinkSpec::serial(if f == 4 { 480 } else { 960 }, true);
        let machine = MachineConfig::new(ProcessorTree::new(f, 1), costs, link);
        let t0 = Instant::now();
        let run = run_scheme(&ParabelleScheme(cfg), &tree, machine).expect("run");
        let wall = t0.elapsed().as_secs_f64();
        sim_wall += wall;
        let n = run.stats.total_nodes();
        tot_i += n.interior;
        tot_l += n.leaves;
        tot_q += n.quiescence;
        tot_p += n.probes;
        elapsed += run.stats.makespan.as_secs_f64();
        let mv = ParabelleScheme(cfg)
            .root_move(&run.roles)
            .unwrap_or(usize::MAX);
        println!(
            "{id:6} {:6} {mv:5} {:9} {:8} {:8} {:7} {:10.1} {:7.3}",
            run.root_value.unwrap_or(i32::MIN),
            n.interior,
            n.leaves,
            n.quiescence,
            n.probes,
            run.stats.makespan.as_secs_f64(),
            wall
        );
        // The plain search it simulates: recursive PVS to the same depth, no simulator.
        let t0 = Instant::now();
        let mut nodes = 0;
        let _ = plain(&tree, &tree.root(), -INF, INF, depth, &mut nodes);
        plain_wall += t0.elapsed().as_secs_f64();
        plain_nodes += nodes;
    }
    let k = 24.0;
    println!("mean simulated elapsed {:.1} s", elapsed / k);
    println!(
        "mean: interior {:.0}, leaves {:.0}, quiescence {:.0}, probes {:.0}; simulated wall {:.2} s; \
         plain PVS wall {:.2} s ({:.0} nodes mean)",
        tot_i as f64 / k,
        tot_l as f64 / k,
        tot_q as f64 / k,
        tot_p as f64 / k,
        sim_wall,
        plain_wall,
        plain_nodes as f64 / k
    );
    let sim_nodes = (tot_i + tot_l + tot_q) as f64;
    println!(
        "nodes/s of wall time (interior + leaves + quiescence): simulated {:.0}, plain {:.0}; \
         cost of simulating: {:.2}x",
        sim_nodes / sim_wall,
        plain_nodes as f64 / plain_wall,
        (plain_nodes as f64 / plain_wall) / (sim_nodes / sim_wall)
    );
}

/// Plain recursive PVS (Fig. 1, fail-soft) with no simulator, counting every node it visits:
/// interior nodes, leaves and their quiescence nodes.
fn plain<T: GameTree>(
    t: &T,
    n: &T::Node,
    mut alpha: Value,
    beta: Value,
    d: u32,
    nodes: &mut u64,
) -> Value {
    let moves = (d > 0).then(|| t.moves(n)).filter(|m| !m.is_empty());
    let Some(moves) = moves else {
        let e = t.evaluate(n);
        *nodes += 1 + u64::from(e.quiescence);
        return e.value;
    };
    *nodes += 1;
    let mut score = -plain(t, &t.play(n, moves.get(0)), -beta, -alpha, d - 1, nodes);
    for i in 1..moves.len() {
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
        let c = t.play(n, moves.get(i));
        let v = -plain(t, &c, -alpha - 1, -alpha, d - 1, nodes);
        score = if v > alpha && v < beta {
            -plain(t, &c, -beta, -v, d - 1, nodes)
        } else {
            score.max(v)
        };
    }
    score
}
