//! From a scenario's names to running code: the algorithm named by `search.algorithm` (or
//! `sweep.algorithm`), the processor tree of a run, and the machine built from the hardware
//! section.

use algorithms::{
    full_window, run_scheme, Abs, Alone, AlphaBeta, Dual, GameTree, Ins, NegaScout, PStagedSss,
    PStagedSssConfig, Palphabeta, ParabelleConfig, ParabelleScheme, PmwsConfig, PmwsScheme, Pns,
    PvSplit, PvSplitConfig, Sab, Scheme, SchemeError, Scout, Sss, StagedSss, Storage, TableConfig,
    TableCounts, TableKind, TreeSplit, TreeSplitConfig, Value, INF,
};
use sim_core::RunStats;
use sim_hw::{CostModel, LinkSpec, MachineConfig, ProcessorTree, ReadPolicies};
use std::fmt;

/// Entries of Parabelle's full-size transposition table (the global one, and the master's
/// local one): 8192, as in the paper (section VIII-B); children's local tables hold half.
pub const PARABELLE_TABLE_ENTRIES: u32 = 8192;

/// A search algorithm and its options: a parallel scheme, or a sequential search that runs on
/// one processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmSpec {
    /// Principal variation splitting on a processor tree of depth 1 (paper Fig. 4).
    Pmws,
    /// Parabelle's search (pmws with the refutation table and a transposition table) on a
    /// processor tree of depth 1.
    Parabelle {
        /// None, global or local.
        table: TableKind,
        /// All or partial storage.
        storage: Storage,
    },
    /// Tree-splitting (Campbell Fig. 10), with the dynamic window update of Fig. 11 or not.
    TreeSplit {
        /// Dynamic window update.
        update: bool,
    },
    /// Pv-splitting on processor trees of any depth below the search's (Campbell Fig. 12,
    /// Marsland & Popowich Fig. 3), tree-splitting below; on one processor, alpha-beta.
    PvSplit {
        /// Campbell's refinement: slaves get the successors of type-2 nodes' successors.
        refined: bool,
        /// Dynamic window update wherever a processor splits work.
        update: bool,
    },
    /// A sequential search, alone on one processor.
    Sequential(Sequential),
}

/// The sequential searches the seed papers compare (Campbell section 2.2, Reinefeld et al.
/// section 4), each run alone on one processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sequential {
    /// Fail-soft alpha-beta (`ab`).
    Ab,
    /// Campbell's palphabeta (Fig. 7) (`pab`).
    Pab,
    /// Pearl's SCOUT with TEST (`scout`).
    Scout,
    /// NegaScout (Reinefeld et al. Fig. 3) (`negascout`).
    NegaScout,
    /// SSS* with Campbell's modification (Appendix 3) (`sss`).
    Sss,
    /// DUAL* (`dual`).
    Dual,
    /// Informed NegaScout (Reinefeld et al. Fig. 3) (`ins`).
    Ins,
    /// Partially informed NegaScout (`pns`).
    Pns,
    /// Staged SSS* with stages of `stage` plies (`staged_sss`; `staged_sss(s)` when s ≠ 2). On a
    /// processor tree of depth 1, the parallel staged SSS* of Campbell's chapter 5.
    StagedSss {
        /// Plies per stage.
        stage: u32,
    },
    /// SSS* on the top `top` plies, alpha-beta below (`sab`; `sab(k)` when given).
    Sab {
        /// Plies searched by SSS*; None: half the depth, as the thesis.
        top: Option<u32>,
    },
    /// Alpha-beta on the top `top` plies, SSS* below (`abs`; `abs(k)` when given).
    Abs {
        /// Plies searched by alpha-beta; None: half the depth, as the thesis.
        top: Option<u32>,
    },
}

impl Sequential {
    /// The name in results.
    pub fn name(self) -> String {
        match self {
            Sequential::Ab => "ab".into(),
            Sequential::Pab => "pab".into(),
            Sequential::Scout => "scout".into(),
            Sequential::NegaScout => "negascout".into(),
            Sequential::Sss => "sss".into(),
            Sequential::Dual => "dual".into(),
            Sequential::Ins => "ins".into(),
            Sequential::Pns => "pns".into(),
            Sequential::StagedSss { stage: 2 } => "staged_sss".into(),
            Sequential::StagedSss { stage } => format!("staged_sss({stage})"),
            Sequential::Sab { top: None } => "sab".into(),
            Sequential::Sab { top: Some(k) } => format!("sab({k})"),
            Sequential::Abs { top: None } => "abs".into(),
            Sequential::Abs { top: Some(k) } => format!("abs({k})"),
        }
    }

    /// Whether the search applies to a tree of `depth` plies (None) or why not.
    pub fn not_applicable(self, depth: u32) -> Option<String> {
        match self {
            Sequential::StagedSss { stage } if depth <= stage => Some(format!(
                "a stage of {stage} plies covers the whole {depth}-ply tree: that is SSS*"
            )),
            Sequential::Sab { top: None } | Sequential::Abs { top: None } if depth < 4 => {
                Some(format!(
                    "the hybrids split the tree at half its depth into parts of at least 2 plies, as the thesis's 4- and 6-ply hybrids; {depth} plies are too few"
                ))
            }
            Sequential::Sab { top: Some(k) } | Sequential::Abs { top: Some(k) }
                if k == 0 || k >= depth =>
            {
                Some(format!(
                    "a hybrid's top part of {k} plies must leave both parts non-empty in a {depth}-ply tree"
                ))
            }
            _ => None,
        }
    }
}

impl AlgorithmSpec {
    /// The name in results: `pmws`, `treesplit`, `treesplit_update`, `pvsplit`, `ab`, …
    pub fn name(self) -> String {
        match self {
            AlgorithmSpec::Pmws => "pmws".into(),
            AlgorithmSpec::Parabelle { .. } => ParabelleScheme::name_of(&self.parabelle(0, true)),
            AlgorithmSpec::TreeSplit { update: false } => "treesplit".into(),
            AlgorithmSpec::TreeSplit { update: true } => "treesplit_update".into(),
            AlgorithmSpec::PvSplit { refined, update } => format!(
                "pvsplit{}{}",
                if refined { "_refined" } else { "" },
                if update { "_update" } else { "" }
            ),
            AlgorithmSpec::Sequential(s) => s.name(),
        }
    }
    /// Whether the search keeps a transposition table (then its root value may legitimately
    /// differ from a table-free search's, and is recorded instead of checked).
    pub fn has_table(self) -> bool {
        matches!(self, AlgorithmSpec::Parabelle { table, .. } if table != TableKind::None)
    }

    /// Parabelle's configuration for a search to `depth` (Parabelle only; the table of any other
    /// algorithm is none).
    pub fn parabelle(self, depth: u32, progressive: bool) -> ParabelleConfig {
        let (kind, storage) = match self {
            AlgorithmSpec::Parabelle { table, storage } => (table, storage),
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
        // Parabelle is pmws with tables: the same processor trees.
        let pmws_like = matches!(self, AlgorithmSpec::Pmws | AlgorithmSpec::Parabelle { .. });
        match (self, ptree) {
            (_, PTree::Paper { length, .. }) if pmws_like && *length != 1 => Some(format!(
                "{self} runs on a processor tree of length 1 (paper Fig. 4), not {length}"
            )),
            (_, PTree::Campbell { depth, .. }) if pmws_like && *depth > 1 => Some(format!(
                "{self} runs on a processor tree of depth 1 (a master and its children), not {depth}"
            )),
            // Staged SSS* has a parallel version on Campbell's processor trees.
            (AlgorithmSpec::Sequential(Sequential::StagedSss { .. }), PTree::Campbell { .. })
            | (
                AlgorithmSpec::Sequential(Sequential::StagedSss { .. }),
                PTree::Paper { length: 1, .. },
            ) => None,
            (AlgorithmSpec::Sequential(s), p) if !p.is_uniprocessor() => Some(format!(
                "{} is a sequential search: it runs on one processor, not on {}",
                s.name(),
                p.describe()
            )),
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
        match self {
            // Campbell (chapter 5): "on 4-ply trees, PV cannot employ a depth 3 processor tree":
            // the first PV node the whole processor tree splits is one ply below the root, so
            // its terminal processors would get single leaves, not subtrees, to search.
            AlgorithmSpec::PvSplit { .. } if levels > 0 && levels + 1 >= depth => Some(format!(
                "pv-splitting needs a processor tree at least 2 levels shallower than the search, as in Campbell's thesis ({levels} levels, {depth} plies)"
            )),
            AlgorithmSpec::Sequential(s @ Sequential::StagedSss { .. }) => {
                s.not_applicable(depth).or_else(|| {
                    (levels > 1).then(|| {
                        "parallel staged SSS* runs on processor trees of depth 1 (Campbell, chapter 5)"
                            .to_string()
                    })
                })
            }
            AlgorithmSpec::Sequential(s) => s.not_applicable(depth),
            _ => None,
        }
    }
}

impl fmt::Display for AlgorithmSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The processor tree of a run, as the scenario describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PTree {
    /// The paper's fanout f and length L (`sweep.fanout`, `hardware.length`).
    Paper {
        /// Processors per level, the parent included.
        fanout: u32,
        /// Levels below the root.
        length: u32,
    },
    /// Campbell's (depth, width) (`sweep.ptree`).
    Campbell {
        /// Levels of slaves.
        depth: u32,
        /// Slaves per non-terminal processor.
        width: u32,
    },
}

impl PTree {
    /// The uniprocessor every speedup is measured against.
    pub const UNIPROCESSOR: PTree = PTree::Paper {
        fanout: 1,
        length: 1,
    };
    /// Builds the tree.
    pub fn build(self) -> ProcessorTree {
        match self {
            PTree::Paper { fanout, length } => ProcessorTree::new(fanout, length),
            PTree::Campbell { depth, width } => ProcessorTree::campbell(depth, width),
        }
    }
    /// Whether this is a single processor.
    pub fn is_uniprocessor(self) -> bool {
        match self {
            PTree::Paper { fanout, length } => fanout == 1 || length == 0,
            PTree::Campbell { depth, width } => depth == 0 || width == 0,
        }
    }
    /// The tree in words, for messages: `f = 4` or `(depth 2, width 4)`.
    pub fn describe(self) -> String {
        match self {
            PTree::Paper { fanout, .. } => format!("f = {fanout}"),
            PTree::Campbell { depth, width } => format!("(depth {depth}, width {width})"),
        }
    }
    /// Short label for tables and legends: `4` (the paper's f) or `(2,4)` (Campbell's).
    pub fn label(self) -> String {
        match self {
            PTree::Paper { fanout, .. } => fanout.to_string(),
            PTree::Campbell { depth, width } => format!("({depth},{width})"),
        }
    }
}

/// The machine a run uses: the plan's costs, lines (a rate per processor count, a link per
/// level) and read policies, on `ptree`.
pub fn machine_config(
    ptree: ProcessorTree,
    costs: CostModel,
    links: &LinkPlan,
    reads: ReadPolicies,
    batching: bool,
) -> MachineConfig {
    let processors = ptree.len() as u64;
    let levels = links.levels.iter().map(|l| l.at(processors)).collect();
    let mut config = MachineConfig::new(ptree, costs, links.levels[0].at(processors));
    config.links = levels;
    config.reads = reads;
    config.batching = batching;
    config
}

/// The lines of a scenario: one entry per level of the processor tree (the last serves every
/// level below it), each with its rate per processor count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkPlan {
    /// Per level, from the root processor's lines down; at least one.
    pub levels: Vec<LevelLink>,
}

/// The lines at one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelLink {
    /// The link with its base rate.
    pub spec: LinkSpec,
    /// (processors, rate): the rate used when the machine has that many processors (the paper
    /// halved 960 bytes/s to 480 with four).
    pub rate_by_processors: Vec<(u64, u64)>,
}

impl LevelLink {
    /// The link spec on a machine of `processors` processors.
    pub fn at(&self, processors: u64) -> LinkSpec {
        let mut spec = self.spec;
        if let Some(&(_, rate)) = self.rate_by_processors.iter().find(|r| r.0 == processors) {
            if let sim_hw::LinkKind::Serial { .. } = spec.kind {
                spec.kind = sim_hw::LinkKind::Serial { rate };
            }
        }
        spec
    }
}

/// What one run of an algorithm produced.
pub struct AlgorithmRun {
    /// The root value found (None if the search did not finish).
    pub root_value: Option<Value>,
    /// The machine's statistics.
    pub stats: RunStats,
    /// The largest OPEN list held (SSS*-family searches), None for the others.
    pub open_peak: Option<usize>,
    /// The root move chosen, as its index in `tree.moves(&tree.root())` (search order); None
    /// for schemes that only return a value ([`Scheme::root_move`]).
    pub root_move: Option<usize>,
    /// Transposition-table counters, None for searches without a table
    /// ([`Scheme::table_counts`]).
    pub table_counts: Option<TableCounts>,
}

/// Runs `algorithm` to `depth` on `tree` on the machine `config`.
pub fn run_algorithm<T: GameTree>(
    algorithm: AlgorithmSpec,
    tree: &T,
    depth: u32,
    progressive: bool,
    config: MachineConfig,
) -> Result<AlgorithmRun, SchemeError> {
    fn go<'t, T: GameTree + 't, S: Scheme<'t, T>>(
        scheme: &S,
        tree: &'t T,
        config: MachineConfig,
    ) -> Result<AlgorithmRun, SchemeError> {
        let run = run_scheme(scheme, tree, config)?;
        Ok(AlgorithmRun {
            root_value: run.root_value,
            open_peak: scheme.open_peak(&run.roles),
            root_move: scheme.root_move(&run.roles),
            table_counts: scheme.table_counts(&run.roles),
            stats: run.stats,
        })
    }
    let uniprocessor = config.tree.len() == 1;
    match algorithm {
        AlgorithmSpec::Pmws => go(&PmwsScheme(PmwsConfig { depth, progressive }), tree, config),
        AlgorithmSpec::Parabelle { .. } => go(
            &ParabelleScheme(algorithm.parabelle(depth, progressive)),
            tree,
            config,
        ),
        AlgorithmSpec::TreeSplit { update } => {
            go(&TreeSplit(TreeSplitConfig { depth, update }), tree, config)
        }
        // On one processor, pv-splitting is the alpha-beta its terminal processors run.
        AlgorithmSpec::PvSplit { .. } if uniprocessor => go(
            &Alone::new(algorithm.name(), depth, full_window::<T, AlphaBeta<T>>),
            tree,
            config,
        ),
        AlgorithmSpec::PvSplit { refined, update } => go(
            &PvSplit(PvSplitConfig {
                depth,
                refined,
                update,
            }),
            tree,
            config,
        ),
        // Parallel staged SSS* (Campbell chapter 5) on a processor tree of depth 1.
        AlgorithmSpec::Sequential(Sequential::StagedSss { stage }) if !uniprocessor => {
            go(&PStagedSss(PStagedSssConfig { depth, stage }), tree, config)
        }
        AlgorithmSpec::Sequential(s) => {
            let name = s.name();
            // Each search with the full window, as the papers run them.
            match s {
                Sequential::Ab => go(
                    &Alone::new(name, depth, full_window::<T, AlphaBeta<T>>),
                    tree,
                    config,
                ),
                Sequential::Pab => go(
                    &Alone::new(name, depth, full_window::<T, Palphabeta<T>>),
                    tree,
                    config,
                ),
                Sequential::Scout => go(
                    &Alone::new(name, depth, full_window::<T, Scout<T>>),
                    tree,
                    config,
                ),
                Sequential::NegaScout => go(
                    &Alone::new(name, depth, full_window::<T, NegaScout<T>>),
                    tree,
                    config,
                ),
                Sequential::Sss => go(
                    &Alone::new(name, depth, full_window::<T, Sss<T>>),
                    tree,
                    config,
                ),
                Sequential::Dual => go(
                    &Alone::new(name, depth, full_window::<T, Dual<T>>),
                    tree,
                    config,
                ),
                Sequential::Ins => go(
                    &Alone::new(name, depth, full_window::<T, Ins<T>>),
                    tree,
                    config,
                ),
                Sequential::Pns => go(
                    &Alone::new(name, depth, full_window::<T, Pns<T>>),
                    tree,
                    config,
                ),
                Sequential::StagedSss { stage } => go(
                    &Alone::new(name, depth, move |t, n, d| {
                        StagedSss::with_stage_depth(t, n, -INF, INF, d, stage)
                    }),
                    tree,
                    config,
                ),
                Sequential::Sab { top } => go(
                    &Alone::new(name, depth, move |t, n, d| {
                        Sab::with_top_depth(t, n, -INF, INF, d, top.unwrap_or(d / 2))
                    }),
                    tree,
                    config,
                ),
                Sequential::Abs { top } => go(
                    &Alone::new(name, depth, move |t, n, d| {
                        Abs::with_top_depth(t, n, -INF, INF, d, top.unwrap_or(d / 2))
                    }),
                    tree,
                    config,
                ),
            }
        }
    }
}
