//! The scheme catalogue: every algorithm a scenario can name, stated once.
//!
//! [`Algorithm`] is what `search.algorithm` and `sweep.algorithm` say (its variants and fields are
//! the scenario-file names). For each algorithm, [`Algorithm::entry`] states its name in results,
//! the processor trees and search depths it applies to, whether it deepens progressively,
//! whether the paper's analytical model describes it, which processor trees a report fits
//! Campbell's speedup exponents on, its transposition table, and the extra columns it reports
//! ([`algorithms::Figures`]); [`Algorithm::run`] builds and runs it. The loader, the runner, the
//! tables and the reports ask the catalogue and never an algorithm's name.
//!
//! Adding a scheme: its file in `algorithms/src/schemes/` (with its `mod` line), then here a
//! variant of [`Algorithm`] (its scenario-file name and options), its arm in
//! [`Algorithm::entry`] and its arm in [`Algorithm::run`]; the matches are exhaustive, so the
//! compiler names each place.

use crate::dispatch::{AlgorithmRun, PTree};
use algorithms::{
    full_window, run_scheme, Abs, Alone, AlphaBeta, Dual, GameTree, Ins, NegaScout, PStagedSss,
    PStagedSssConfig, Palphabeta, ParabelleConfig, ParabelleScheme, PmwsConfig, PmwsScheme, Pns,
    PvSplit, PvSplitConfig, Sab, Scheme, SchemeError, Scout, Sss, StagedSss, Storage, TableConfig,
    TableKind, TreeSplit, TreeSplitConfig, INF,
};
use serde::Deserialize;
use sim_hw::MachineConfig;
use std::fmt;

/// Entries of Parabelle's full-size transposition table (the global one, and the master's
/// local one): 8192, as in the paper (section VIII-B); children's local tables hold half.
pub const PARABELLE_TABLE_ENTRIES: u32 = 8192;

/// A search algorithm and its options, as a scenario names it (`search.algorithm`,
/// `sweep.algorithm`): a parallel scheme, or a sequential search that runs on one processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Algorithm {
    /// Principal variation splitting on a processor tree of length 1 (paper Fig. 4).
    Pmws,
    /// Tree-splitting (Campbell's thesis Fig. 10) on processor trees of any depth and width;
    /// `update: true` adds the dynamic window update of Fig. 11. Fixed depth (set
    /// `progressive_deepening: false`).
    TreeSplit {
        /// Add the dynamic window update (UPDATE) of Fig. 11. Default false.
        #[serde(default)]
        update: bool,
    },
    /// Pv-splitting (Campbell Fig. 12, Marsland & Popowich Fig. 3) on Campbell's processor
    /// trees shallower than the search, tree-splitting below (`pvsplit`); `refined: true` is
    /// Campbell's refinement (`pvsplit_refined`), `update: true` adds the dynamic window
    /// update (`…_update`). On one processor: alpha-beta. Fixed depth.
    PvSplit {
        /// Campbell's refinement: slaves get the successors of type-2 nodes' successors.
        #[serde(default)]
        refined: bool,
        /// Dynamic window update wherever a processor splits work.
        #[serde(default)]
        update: bool,
    },
    /// Fail-soft alpha-beta, alone on one processor (Campbell's AB; `ab`).
    Ab,
    /// Campbell's palphabeta (Fig. 7), alone on one processor (PAB; `pab`).
    Pab,
    /// Pearl's SCOUT (Campbell's SC; `scout`).
    Scout,
    /// NegaScout (Reinefeld et al. Fig. 3; `negascout`).
    NegaScout,
    /// SSS* with Campbell's modification (Appendix 3; `sss`).
    Sss,
    /// DUAL* (Reinefeld et al. Fig. 4; `dual`).
    Dual,
    /// Informed NegaScout (Reinefeld et al. Fig. 3; `ins`).
    Ins,
    /// Partially informed NegaScout (Reinefeld et al. section 2.3; `pns`).
    Pns,
    /// Parabelle's search (Marsland & Popowich 1985): principal variation splitting with
    /// progressive deepening and the refutation table on a processor tree of length 1, with a
    /// transposition table or none (`parabelle`, `parabelle_global_all`, …).
    Parabelle {
        /// `None`, `Global` (held by the master, probed by at-node messages) or `Local` (one
        /// per processor). Default `None`.
        #[serde(default)]
        table: TableKind,
        /// `All` (every subtree stored and probed) or `Partial` (only subtrees longer than 2
        /// ply). Default `All`.
        #[serde(default)]
        storage: Storage,
    },
    /// Staged SSS* with stages of `stage` plies (default 2, Campbell's SS; `staged_sss`). On
    /// Campbell's processor trees of depth 1, parallel staged SSS* (chapter 5).
    StagedSss {
        /// Plies per stage. Default 2.
        #[serde(default = "two")]
        stage: u32,
    },
    /// Campbell's SSS*/alpha-beta hybrid SAB: SSS* on the top `top` plies, alpha-beta below
    /// (`sab`, or `sab(k)` with `top`). Default top: half the depth (4 ply and deeper).
    Sab {
        /// Plies searched by SSS*.
        #[serde(default)]
        top: Option<u32>,
    },
    /// Campbell's alpha-beta/SSS* hybrid ABS: alpha-beta on the top `top` plies, SSS* below
    /// (`abs`, or `abs(k)`). Default top: half the depth.
    Abs {
        /// Plies searched by alpha-beta.
        #[serde(default)]
        top: Option<u32>,
    },
}

fn two() -> u32 {
    2
}

/// What the catalogue says of one algorithm with its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name in results (`pmws`, `treesplit_update`, `sab(3)`, …).
    pub name: String,
    /// The processor trees it can run on at all (elsewhere a scenario is an error).
    pub runs_on: RunsOn,
    /// The search depths it applies to on a processor tree (elsewhere a run is skipped and
    /// reported, as Campbell's tables leave those cells empty).
    pub applies: Applies,
    /// Whether it can deepen progressively (`search.progressive_deepening: true`); the others
    /// search to a fixed depth.
    pub progressive: bool,
    /// Whether the paper's analytical model (section VII) describes it: then results carry the
    /// `model_*` columns.
    pub model: bool,
    /// The processor trees a report fits Campbell's speedup exponents on.
    pub fit: Fit,
    /// The figure columns of results it reports beyond the machine's statistics
    /// ([`Scheme::figures`]); a figure not listed here is an error of the scheme.
    pub columns: &'static [&'static str],
    /// Its transposition table and storage, None for searches without one (then the root
    /// value must equal the table-free reference; with one it is recorded beside it).
    pub table: Option<(TableKind, Storage)>,
    /// Whether a report's configuration titles name it (pmws, the paper's own scheme and the
    /// default subject of its tables, goes unnamed).
    pub titled: bool,
    /// Why these options make no search of its own, when they do not (a scenario error).
    pub invalid: Option<String>,
}

/// The processor trees an algorithm can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunsOn {
    /// A master and its children: the paper's trees of length 1, Campbell's of depth ≤ 1.
    MasterAndChildren,
    /// Any processor tree.
    AnyTree,
    /// One processor only (a sequential search).
    OneProcessor,
    /// One processor, or a master and its slaves (staged SSS*'s parallel version): the
    /// paper's trees of length 1 and any of Campbell's (those deeper than 1 are skipped by
    /// [`Applies::Staged`]).
    OneOrMasterAndSlaves,
}

/// The search depths an algorithm applies to on a processor tree of `levels` levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// Every depth.
    Always,
    /// Processor trees at least 2 levels shallower than the search (pv-splitting).
    TwoLevelsShallower,
    /// Searches deeper than one stage of `stage` plies, on processor trees of depth ≤ 1.
    Staged {
        /// Plies per stage.
        stage: u32,
    },
    /// A hybrid whose top part of `top` plies (None: half the depth, at least 4 plies) leaves
    /// both parts non-empty.
    Hybrid {
        /// Plies of the top part.
        top: Option<u32>,
    },
}

/// The processor trees a report fits an algorithm's speedup exponent on (thesis, chapter 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Every processor tree it ran on.
    Every,
    /// Processor trees of this width ("best examined on processor trees of small fixed width").
    Width(u32),
    /// Processor trees of this depth ("the depth 1 values will be used").
    Depth(u32),
}

impl Fit {
    /// Whether a processor tree of `depth` levels and `width` children per processor counts.
    pub fn includes(self, depth: u32, width: u32) -> bool {
        match self {
            Fit::Every => true,
            Fit::Width(w) => width == w,
            Fit::Depth(d) => depth == d,
        }
    }
}

/// The columns an SSS*-family search reports.
const OPEN_PEAK: &[&str] = &["open_peak"];

impl Algorithm {
    /// The catalogue's entry of this algorithm with these options.
    pub fn entry(self) -> Entry {
        // Most algorithms state only some of these.
        let base = |name: String| Entry {
            name,
            runs_on: RunsOn::OneProcessor,
            applies: Applies::Always,
            progressive: false,
            model: false,
            fit: Fit::Every,
            columns: &[],
            table: None,
            titled: true,
            invalid: None,
        };
        match self {
            Algorithm::Pmws => Entry {
                runs_on: RunsOn::MasterAndChildren,
                progressive: true,
                model: true,
                titled: false,
                ..base("pmws".into())
            },
            // Parabelle is pmws with tables: the same processor trees and model.
            Algorithm::Parabelle { table, storage } => Entry {
                runs_on: RunsOn::MasterAndChildren,
                progressive: true,
                model: true,
                table: (table != TableKind::None).then_some((table, storage)),
                columns: if table == TableKind::None {
                    &[]
                } else {
                    &["tt_probes", "tt_hits", "tt_cutoffs", "tt_stores"]
                },
                ..base(ParabelleScheme::name_of(&self.parabelle(0, true)))
            },
            Algorithm::TreeSplit { update } => Entry {
                runs_on: RunsOn::AnyTree,
                fit: Fit::Width(2),
                ..base(
                    if update {
                        "treesplit_update"
                    } else {
                        "treesplit"
                    }
                    .into(),
                )
            },
            Algorithm::PvSplit { refined, update } => Entry {
                runs_on: RunsOn::AnyTree,
                applies: Applies::TwoLevelsShallower,
                fit: Fit::Depth(1),
                ..base(format!(
                    "pvsplit{}{}",
                    if refined { "_refined" } else { "" },
                    if update { "_update" } else { "" }
                ))
            },
            Algorithm::Ab => base("ab".into()),
            Algorithm::Pab => base("pab".into()),
            Algorithm::Scout => base("scout".into()),
            Algorithm::NegaScout => base("negascout".into()),
            Algorithm::Ins => base("ins".into()),
            Algorithm::Pns => base("pns".into()),
            Algorithm::Sss => Entry {
                columns: OPEN_PEAK,
                ..base("sss".into())
            },
            Algorithm::Dual => Entry {
                columns: OPEN_PEAK,
                ..base("dual".into())
            },
            Algorithm::StagedSss { stage } => Entry {
                runs_on: RunsOn::OneOrMasterAndSlaves,
                applies: Applies::Staged { stage },
                columns: OPEN_PEAK,
                invalid: (stage == 0).then(|| {
                    "a stage must be at least 1 ply (StagedSss(stage: 2) is Campbell's SS)".into()
                }),
                ..base(match stage {
                    2 => "staged_sss".into(),
                    _ => format!("staged_sss({stage})"),
                })
            },
            Algorithm::Sab { top } | Algorithm::Abs { top } => {
                let short = if matches!(self, Algorithm::Sab { .. }) {
                    "sab"
                } else {
                    "abs"
                };
                Entry {
                    applies: Applies::Hybrid { top },
                    columns: OPEN_PEAK,
                    invalid: (top == Some(0)).then(|| {
                        "the top part must be at least 1 ply (top: 0 would be plain SSS* or alpha-beta: use Sss or Ab)".into()
                    }),
                    ..base(match top {
                        None => short.into(),
                        Some(k) => format!("{short}({k})"),
                    })
                }
            }
        }
    }

    /// The name in results: `pmws`, `treesplit`, `treesplit_update`, `pvsplit`, `ab`, …
    pub fn name(self) -> String {
        self.entry().name
    }

    /// Whether the search keeps a transposition table (then its root value may legitimately
    /// differ from a table-free search's, and is recorded instead of checked).
    pub fn has_table(self) -> bool {
        self.entry().table.is_some()
    }

    /// Parabelle's configuration for a search to `depth` (Parabelle only; the table of any other
    /// algorithm is none).
    pub fn parabelle(self, depth: u32, progressive: bool) -> ParabelleConfig {
        let (kind, storage) = match self {
            Algorithm::Parabelle { table, storage } => (table, storage),
            _ => (TableKind::None, Storage::All),
        };
        ParabelleConfig {
            depth,
            progressive,
            table: TableConfig {
                kind,
                storage,
                entries: PARABELLE_TABLE_ENTRIES,
            },
        }
    }

    /// Whether the algorithm can ever run on this processor tree (None) or why not: a scenario
    /// that asks for it is an error.
    pub fn unsupported(self, ptree: &PTree) -> Option<String> {
        let sequential = || {
            Some(format!(
                "{self} is a sequential search: it runs on one processor, not on {}",
                ptree.describe()
            ))
        };
        match (self.entry().runs_on, *ptree) {
            (RunsOn::MasterAndChildren, PTree::Paper { length, .. }) if length != 1 => Some(
                format!("{self} runs on a processor tree of length 1 (paper Fig. 4), not {length}"),
            ),
            (RunsOn::MasterAndChildren, PTree::Campbell { depth, .. }) if depth > 1 => Some(format!(
                "{self} runs on a processor tree of depth 1 (a master and its children), not {depth}"
            )),
            (RunsOn::OneOrMasterAndSlaves, PTree::Campbell { .. })
            | (RunsOn::OneOrMasterAndSlaves, PTree::Paper { length: 1, .. }) => None,
            (RunsOn::OneProcessor | RunsOn::OneOrMasterAndSlaves, p) if !p.is_uniprocessor() => {
                sequential()
            }
            _ => None,
        }
    }

    /// Whether the algorithm applies to a search of `depth` plies on this processor tree (None)
    /// or why not (e.g. pv-splitting on a processor tree as deep as the search, a hybrid whose
    /// upper part is the whole tree). Such runs are skipped and reported, as Campbell's tables
    /// leave those cells empty.
    pub fn not_applicable(self, ptree: &PTree, depth: u32) -> Option<String> {
        let levels = match ptree {
            p if p.is_uniprocessor() => 0,
            PTree::Paper { length, .. } => *length,
            PTree::Campbell { depth, .. } => *depth,
        };
        match self.entry().applies {
            Applies::Always => None,
            // Campbell (chapter 5): "on 4-ply trees, PV cannot employ a depth 3 processor tree":
            // the first PV node the whole processor tree splits is one ply below the root, so
            // its terminal processors would get single leaves, not subtrees, to search.
            Applies::TwoLevelsShallower if levels > 0 && levels + 1 >= depth => Some(format!(
                "pv-splitting needs a processor tree at least 2 levels shallower than the search, as in Campbell's thesis ({levels} levels, {depth} plies)"
            )),
            Applies::TwoLevelsShallower => None,
            Applies::Staged { stage } if depth <= stage => Some(format!(
                "a stage of {stage} plies covers the whole {depth}-ply tree: that is SSS*"
            )),
            Applies::Staged { .. } => (levels > 1).then(|| {
                "parallel staged SSS* runs on processor trees of depth 1 (Campbell, chapter 5)"
                    .to_string()
            }),
            Applies::Hybrid { top: None } if depth < 4 => Some(format!(
                "the hybrids split the tree at half its depth into parts of at least 2 plies, as the thesis's 4- and 6-ply hybrids; {depth} plies are too few"
            )),
            Applies::Hybrid { top: Some(k) } if k == 0 || k >= depth => Some(format!(
                "a hybrid's top part of {k} plies must leave both parts non-empty in a {depth}-ply tree"
            )),
            Applies::Hybrid { .. } => None,
        }
    }

    /// Runs the algorithm to `depth` on `tree` on the machine `config` (progressively deepening
    /// when `progressive` and the algorithm can).
    pub fn run<T: GameTree>(
        self,
        tree: &T,
        depth: u32,
        progressive: bool,
        config: MachineConfig,
    ) -> Result<AlgorithmRun, SchemeError> {
        let uniprocessor = config.tree.len() == 1;
        let Entry { name, columns, .. } = self.entry();
        match self {
            Algorithm::Pmws => go(
                columns,
                &PmwsScheme(PmwsConfig { depth, progressive }),
                tree,
                config,
            ),
            Algorithm::Parabelle { .. } => go(
                columns,
                &ParabelleScheme(self.parabelle(depth, progressive)),
                tree,
                config,
            ),
            Algorithm::TreeSplit { update } => go(
                columns,
                &TreeSplit(TreeSplitConfig { depth, update }),
                tree,
                config,
            ),
            // On one processor, pv-splitting is the alpha-beta its terminal processors run.
            Algorithm::PvSplit { .. } if uniprocessor => go(
                columns,
                &Alone::new(name, depth, full_window::<T, AlphaBeta<T>>),
                tree,
                config,
            ),
            Algorithm::PvSplit { refined, update } => go(
                columns,
                &PvSplit(PvSplitConfig {
                    depth,
                    refined,
                    update,
                }),
                tree,
                config,
            ),
            // Each sequential search with the full window, as the papers run them.
            Algorithm::Ab => alone::<T, AlphaBeta<T>>(columns, name, tree, depth, config),
            Algorithm::Pab => alone::<T, Palphabeta<T>>(columns, name, tree, depth, config),
            Algorithm::Scout => alone::<T, Scout<T>>(columns, name, tree, depth, config),
            Algorithm::NegaScout => alone::<T, NegaScout<T>>(columns, name, tree, depth, config),
            Algorithm::Sss => alone::<T, Sss<T>>(columns, name, tree, depth, config),
            Algorithm::Dual => alone::<T, Dual<T>>(columns, name, tree, depth, config),
            Algorithm::Ins => alone::<T, Ins<T>>(columns, name, tree, depth, config),
            Algorithm::Pns => alone::<T, Pns<T>>(columns, name, tree, depth, config),
            // Parallel staged SSS* (Campbell chapter 5) on a processor tree of depth 1.
            Algorithm::StagedSss { stage } if !uniprocessor => go(
                columns,
                &PStagedSss(PStagedSssConfig { depth, stage }),
                tree,
                config,
            ),
            Algorithm::StagedSss { stage } => go(
                columns,
                &Alone::new(name, depth, move |t, n, d| {
                    StagedSss::with_stage_depth(t, n, -INF, INF, d, stage)
                }),
                tree,
                config,
            ),
            Algorithm::Sab { top } => go(
                columns,
                &Alone::new(name, depth, move |t, n, d| {
                    Sab::with_top_depth(t, n, -INF, INF, d, top.unwrap_or(d / 2))
                }),
                tree,
                config,
            ),
            Algorithm::Abs { top } => go(
                columns,
                &Alone::new(name, depth, move |t, n, d| {
                    Abs::with_top_depth(t, n, -INF, INF, d, top.unwrap_or(d / 2))
                }),
                tree,
                config,
            ),
        }
    }
}

/// Runs `scheme` and collects what results need of it; a figure the scheme reports must be one
/// of its catalogue columns.
fn go<'t, T: GameTree + 't, S: Scheme<'t, T>>(
    columns: &[&str],
    scheme: &S,
    tree: &'t T,
    config: MachineConfig,
) -> Result<AlgorithmRun, SchemeError> {
    let run = run_scheme(scheme, tree, config)?;
    let figures = scheme.figures(&run.roles);
    if let Some((stray, _)) = figures.iter().find(|(f, _)| !columns.contains(f)) {
        panic!(
            "{} reported the figure {stray:?}, which its catalogue entry does not list among its columns {columns:?}",
            scheme.name()
        );
    }
    Ok(AlgorithmRun {
        root_value: run.root_value,
        root_move: scheme.root_move(&run.roles),
        figures,
        stats: run.stats,
    })
}

/// A sequential search `S` with the full window, alone on one processor.
fn alone<'t, T: GameTree + 't, S: algorithms::SequentialSearch<'t, T> + 't>(
    columns: &[&str],
    name: String,
    tree: &'t T,
    depth: u32,
    config: MachineConfig,
) -> Result<AlgorithmRun, SchemeError> {
    go(
        columns,
        &Alone::new(name, depth, full_window::<T, S>),
        tree,
        config,
    )
}

/// The columns of results.csv for a sweep of `algorithms`: [`crate::results::COLUMNS`] and the
/// figure columns their entries add.
pub fn results_columns(algorithms: &[Algorithm]) -> Vec<&'static str> {
    let entries: Vec<Entry> = algorithms.iter().map(|a| a.entry()).collect();
    crate::results::columns(entries.iter().flat_map(|e| e.columns))
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}
