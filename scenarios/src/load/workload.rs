//! The `workload` section: which generator builds the trees, and its width, depth, ordering,
//! value spread and horizon noise; for chess, the positions (read here) and those the sweep
//! searches (`sweep.positions`), with the sweep fields chess has no use for rejected.

use super::locate::Source;
use super::{Generator, ScenarioError};
use crate::positions::ChessSet;
use crate::schema::{self, Scenario, Workload};
use algorithms::Ordering;
use std::path::Path;

/// The trees of a scenario, before the sweep varies them.
pub(super) struct Trees {
    /// Which generator builds the trees.
    pub generator: Generator,
    /// For chess: the positions.
    pub chess: Option<ChessSet>,
    /// For chess: the numbers of the positions searched, in file order (the sweep's seeds);
    /// empty otherwise.
    pub chess_seeds: Vec<u64>,
    /// The width (for chess, the mean number of legal moves at the root of the positions
    /// searched).
    pub width: u64,
    /// The depth.
    pub depth: u64,
    /// The ordering (random for chess).
    pub ordering: Ordering,
    /// The spread of leaf values (1000 for Campbell and chess).
    pub value_spread: u64,
    /// The horizon noise (0 for Campbell and chess).
    pub horizon_noise: u32,
    /// `workload.horizon_noise` as the file gives it (None: left to its default).
    pub noise_written: Option<u32>,
}

/// The `workload` of `scenario` (read from the file at `path`; an EPD file is named relative
/// to its folder), checked against the sweep fields that depend on it.
pub(super) fn trees(cx: &Source, scenario: &Scenario, path: &Path) -> Result<Trees, ScenarioError> {
    // Chess: the positions, read first (the configurations' width is their mean root width).
    let chess_set = match &scenario.workload {
        Workload::Chess { positions, .. } => Some(match positions {
            schema::Positions::BratkoKopec => crate::positions::ChessSet::bratko_kopec(),
            schema::Positions::Epd(name) => {
                super::read_beside(path, name, crate::positions::ChessSet::read)
                    .map_err(|m| cx.at(&["workload", "positions"], m))?
            }
        }),
        _ => None,
    };
    // Chess: the positions' numbers (every position, or those sweep.positions names), in file
    // order: the sweep's seeds.
    let chess_seeds: Vec<u64> = match &chess_set {
        None => Vec::new(),
        Some(set) => {
            let mut chosen = Vec::new();
            let mut listed = std::collections::HashSet::new();
            for (i, id) in scenario.sweep.positions.iter().enumerate() {
                let Some(n) = set.number_of(id) else {
                    let known: Vec<&str> = set
                        .positions
                        .iter()
                        .take(30)
                        .map(|p| p.id.as_str())
                        .collect();
                    return Err(cx.at_item(
                        &["sweep", "positions"],
                        i,
                        format!(
                            "no position of {} has the id {id:?} (the ids are {}{})",
                            set.source,
                            known.join(", "),
                            if set.positions.len() > known.len() {
                                ", ..."
                            } else {
                                ""
                            }
                        ),
                    ));
                };
                if !listed.insert(n) {
                    return Err(cx.at_item(
                        &["sweep", "positions"],
                        i,
                        format!("position {id:?} is listed twice"),
                    ));
                }
                chosen.push(n);
            }
            if chosen.is_empty() {
                set.positions.iter().map(|p| p.number).collect()
            } else {
                // File order, whatever the order of the list.
                chosen.sort_unstable();
                chosen
            }
        }
    };
    // A position without a legal move (the side to move is mated or stalemated) has no search
    // to simulate, and no root width for the model.
    if let Some(set) = &chess_set {
        if let Some(p) = chess_seeds
            .iter()
            .filter_map(|&n| set.get(n))
            .find(|p| p.root_width() == 0)
        {
            return Err(cx.at(
                &["workload", "positions"],
                format!(
                    "position {:?} of {} has no legal move (the side to move is checkmated or stalemated): there is nothing to search; leave it out (sweep.positions) or remove it",
                    p.id, set.source
                ),
            ));
        }
    }
    // The chess width: the mean number of legal moves at the root of the positions searched
    // (the paper's "average width w = 34" of its model), for the model's estimates.
    let chess_width = schema::Positive(match &chess_set {
        Some(set) => {
            let total: usize = chess_seeds
                .iter()
                .filter_map(|&n| set.get(n))
                .map(|p| p.root_width())
                .sum();
            ((total as f64 / chess_seeds.len().max(1) as f64).round() as u64).max(1)
        }
        None => 1,
    });
    let random = Ordering::Random;
    let (generator, width, depth, ordering, value_spread, horizon_noise) = match &scenario.workload
    {
        Workload::Synthetic {
            width,
            depth,
            ordering,
            value_spread,
            horizon_noise,
        } => (
            Generator::Synthetic,
            width,
            depth,
            ordering,
            value_spread,
            *horizon_noise,
        ),
        // Campbell's trees have no horizon noise (every leaf is a bottom position) and draw
        // their values by his rules, not from a spread.
        Workload::Campbell {
            width,
            depth,
            ordering,
            ..
        } => (
            Generator::Campbell,
            width,
            depth,
            ordering,
            &schema::Positive(1000),
            Some(0),
        ),
        Workload::Chess { depth, .. } => (
            Generator::Chess,
            &chess_width,
            depth,
            &random,
            &schema::Positive(1000),
            Some(0),
        ),
    };
    if let Some(set) = &chess_set {
        let sweep = &scenario.sweep;
        for (field, given) in [
            ("width", !sweep.width.is_empty()),
            ("shape", !sweep.shape.is_empty()),
            ("ordering", !sweep.ordering.is_empty()),
            ("horizon_noise", !sweep.horizon_noise.is_empty()),
        ] {
            if given {
                return Err(cx.at(
                    &["sweep", field],
                    format!("chess positions have no {} to sweep (their moves, order and evaluation are the chess program's): remove sweep.{field}", field.replace('_', " ")),
                ));
            }
        }
        if sweep.seeds.is_some() {
            return Err(cx.at(
                &["sweep", "seeds"],
                format!("chess positions take the place of seeds (position n of {} is seed n): remove sweep.seeds, and choose positions with sweep.positions: [\"id\", ...]", set.source),
            ));
        }
    } else if !scenario.sweep.positions.is_empty() {
        return Err(cx.at(
            &["sweep", "positions"],
            "only chess workloads have positions: remove sweep.positions (synthetic and Campbell trees are chosen by sweep.seeds)".into(),
        ));
    }
    if let Workload::Campbell {
        root_score: Some(s),
        ..
    } = &scenario.workload
    {
        if !(1..=127).contains(s) {
            return Err(cx.at(
                &["workload", "root_score"],
                format!("expected a root score from 1 to 127 (gen draws rand() % score; values are bytes), found {s}"),
            ));
        }
    }
    if generator == Generator::Campbell && !scenario.sweep.horizon_noise.is_empty() {
        return Err(cx.at(
            &["sweep", "horizon_noise"],
            "Campbell's trees have no horizon noise (every leaf is a bottom position): remove sweep.horizon_noise".into(),
        ));
    }
    if value_spread.0 > 1_000_000 {
        return Err(cx.at(
            &["workload", "value_spread"],
            format!("{} is above the limit of 1000000", value_spread.0),
        ));
    }
    let noise_written = horizon_noise;
    let horizon_noise = horizon_noise.unwrap_or(schema::DEFAULT_NOISE);
    if horizon_noise > 1_000_000 {
        return Err(cx.at(
            &["workload", "horizon_noise"],
            format!("{horizon_noise} is above the limit of 1000000"),
        ));
    }
    Ok(Trees {
        generator,
        chess: chess_set,
        chess_seeds,
        width: width.0,
        depth: depth.0,
        ordering: ordering.clone(),
        value_spread: value_spread.0,
        horizon_noise,
        noise_written,
    })
}
