//! The algorithms of the sweep: `sweep.algorithm`, or `search.algorithm`, checked against each
//! other, the generator and `search.progressive_deepening`.

use super::locate::Source;
use super::{Generator, ScenarioError};
use crate::catalogue::Algorithm;
use crate::schema::Scenario;

/// The algorithms of a sweep and whether they deepen progressively.
pub(super) struct Algorithms {
    /// In file order.
    pub list: Vec<Algorithm>,
    /// `search.progressive_deepening`, or the algorithms' own default when it is left out.
    pub progressive: bool,
    /// Where they are written: `sweep.algorithm` (a list, in the order of `list`), or
    /// `search.algorithm` (the one algorithm) when the sweep lists none.
    pub at: &'static [&'static str],
}

/// The algorithms of `scenario`'s sweep, in file order.
pub(super) fn algorithms(
    cx: &Source,
    scenario: &Scenario,
    generator: Generator,
) -> Result<Algorithms, ScenarioError> {
    let (algorithms, algorithm_at): (Vec<Algorithm>, &'static [&'static str]) =
        if scenario.sweep.algorithm.is_empty() {
            (vec![scenario.search.algorithm], &["search", "algorithm"])
        } else {
            (scenario.sweep.algorithm.clone(), &["sweep", "algorithm"])
        };
    for (i, a) in algorithms.iter().enumerate() {
        if algorithms[..i].contains(a) {
            // At its second listing (search.algorithm names one).
            return Err(cx.at_item(algorithm_at, i, format!("algorithm {a} is listed twice")));
        }
        // Options that make no search of their own (a stage of 0 plies, …): the catalogue says.
        if let Some(why) = a.entry().invalid {
            return Err(cx.at(algorithm_at, format!("algorithm {a}: {why}")));
        }
        // Campbell's trees evaluate an interior node exactly (his files hold only the leaves),
        // so earlier iterations would order the root moves perfectly: an oracle, not a search.
        if generator == Generator::Campbell && scenario.search.progressive_deepening == Some(true) {
            return Err(cx.at(
                &["search", "progressive_deepening"],
                "Campbell's trees are searched to their full depth (an interior node's evaluation is its exact value, which would make earlier iterations an oracle): set search.progressive_deepening: false".into(),
            ));
        }
        if !a.entry().progressive && scenario.search.progressive_deepening == Some(true) {
            let why = if a.deepens_by_itself() {
                format!("{a} deepens by its own option `iterative` (default true), not by search.progressive_deepening: leave it out or set it false")
            } else {
                format!("{a} searches to a fixed depth, as in Campbell's thesis: set search.progressive_deepening: false")
            };
            return Err(cx.at(&["search", "progressive_deepening"], why));
        }
    }
    // Left out: the algorithms' own (never on Campbell's trees); algorithms that differ must
    // be told.
    let progressive = match scenario.search.progressive_deepening {
        Some(p) => p,
        None => {
            let (deepen, fixed): (Vec<&Algorithm>, Vec<&Algorithm>) =
                algorithms.iter().partition(|a| a.entry().progressive);
            if generator == Generator::Campbell || deepen.is_empty() {
                false
            } else if fixed.is_empty() {
                true
            } else {
                return Err(cx.at(
                    algorithm_at,
                    format!(
                        "{} deepen progressively by default and {} search to a fixed depth: set search.progressive_deepening (false runs every algorithm to a fixed depth)",
                        names(&deepen),
                        names(&fixed)
                    ),
                ));
            }
        }
    };
    Ok(Algorithms {
        list: algorithms,
        progressive,
        at: algorithm_at,
    })
}

fn names(algorithms: &[&Algorithm]) -> String {
    algorithms
        .iter()
        .map(|a| a.name())
        .collect::<Vec<_>>()
        .join(", ")
}
