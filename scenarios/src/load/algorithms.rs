//! The algorithms of the sweep: `sweep.algorithm`, or `search.algorithm`, checked against each
//! other, the generator and `search.progressive_deepening`.

use super::{Generator, ScenarioError};
use crate::dispatch::{AlgorithmSpec, Sequential};
use crate::schema::{self, Scenario};

/// The algorithms of `scenario`'s sweep, in file order. `at` makes the error at a field (its
/// path, then the message), as [`super::locate::Source::at`] does.
pub(super) fn algorithms(
    scenario: &Scenario,
    generator: Generator,
    at: &dyn Fn(&[&str], String) -> ScenarioError,
) -> Result<Vec<AlgorithmSpec>, ScenarioError> {
    // The algorithms: sweep.algorithm, or search.algorithm.
    let convert_algorithm = |a: &schema::Algorithm| match a {
        schema::Algorithm::Pmws => AlgorithmSpec::Pmws,
        schema::Algorithm::Parabelle { table, storage } => AlgorithmSpec::Parabelle {
            table: *table,
            storage: *storage,
        },
        schema::Algorithm::TreeSplit { update } => AlgorithmSpec::TreeSplit { update: *update },
        schema::Algorithm::PvSplit { refined, update } => AlgorithmSpec::PvSplit {
            refined: *refined,
            update: *update,
        },
        schema::Algorithm::Ab => AlgorithmSpec::Sequential(Sequential::Ab),
        schema::Algorithm::Pab => AlgorithmSpec::Sequential(Sequential::Pab),
        schema::Algorithm::Scout => AlgorithmSpec::Sequential(Sequential::Scout),
        schema::Algorithm::NegaScout => AlgorithmSpec::Sequential(Sequential::NegaScout),
        schema::Algorithm::Sss => AlgorithmSpec::Sequential(Sequential::Sss),
        schema::Algorithm::Dual => AlgorithmSpec::Sequential(Sequential::Dual),
        schema::Algorithm::Ins => AlgorithmSpec::Sequential(Sequential::Ins),
        schema::Algorithm::Pns => AlgorithmSpec::Sequential(Sequential::Pns),
        schema::Algorithm::StagedSss { stage } => {
            AlgorithmSpec::Sequential(Sequential::StagedSss { stage: *stage })
        }
        schema::Algorithm::Sab { top } => AlgorithmSpec::Sequential(Sequential::Sab { top: *top }),
        schema::Algorithm::Abs { top } => AlgorithmSpec::Sequential(Sequential::Abs { top: *top }),
    };
    let (algorithms, algorithm_at): (Vec<AlgorithmSpec>, &[&str]) =
        if scenario.sweep.algorithm.is_empty() {
            (
                vec![convert_algorithm(&scenario.search.algorithm)],
                &["search", "algorithm"],
            )
        } else {
            (
                scenario
                    .sweep
                    .algorithm
                    .iter()
                    .map(convert_algorithm)
                    .collect(),
                &["sweep", "algorithm"],
            )
        };
    for (i, a) in algorithms.iter().enumerate() {
        if algorithms[..i].contains(a) {
            return Err(at(algorithm_at, format!("algorithm {a} is listed twice")));
        }
        // A stage or a hybrid's top part of 0 plies is no search of its own.
        match a {
            AlgorithmSpec::Sequential(Sequential::StagedSss { stage: 0 }) => {
                return Err(at(
                    algorithm_at,
                    format!("algorithm {a}: a stage must be at least 1 ply (StagedSss(stage: 2) is Campbell's SS)"),
                ));
            }
            AlgorithmSpec::Sequential(Sequential::Sab { top: Some(0) })
            | AlgorithmSpec::Sequential(Sequential::Abs { top: Some(0) }) => {
                return Err(at(
                    algorithm_at,
                    format!("algorithm {a}: the top part must be at least 1 ply (top: 0 would be plain SSS* or alpha-beta: use Sss or Ab)"),
                ));
            }
            _ => {}
        }
        // Campbell's trees evaluate an interior node exactly (his files hold only the leaves),
        // so earlier iterations would order the root moves perfectly: an oracle, not a search.
        if generator == Generator::Campbell && scenario.search.progressive_deepening {
            return Err(at(
                &["search", "progressive_deepening"],
                "Campbell's trees are searched to their full depth (an interior node's evaluation is its exact value, which would make earlier iterations an oracle): set search.progressive_deepening: false".into(),
            ));
        }
        if !matches!(a, AlgorithmSpec::Pmws | AlgorithmSpec::Parabelle { .. })
            && scenario.search.progressive_deepening
        {
            return Err(at(
                &["search", "progressive_deepening"],
                format!("{a} searches to a fixed depth, as in Campbell's thesis: set search.progressive_deepening: false"),
            ));
        }
    }
    Ok(algorithms)
}
