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
    full_window, run_scheme, Abdada, AbdadaConfig, Abs, Alone, AlphaBeta, Aphid, AphidConfig,
    Baudet, BaudetConfig, Dual, GameTree, Ins, LazySmp, LazySmpConfig, Mwf, MwfConfig, NegaScout,
    PStagedSss, PStagedSssConfig, Palphabeta, ParabelleConfig, ParabelleScheme, Plain, PmwsConfig,
    PmwsIxScheme, PmwsScheme, Pns, PvSplit, PvSplitConfig, Replacement, Sab, Scheme, SchemeError,
    Scout, SharedTableConfig, Skip, Sss, StagedSss, Storage, TableConfig, TableKind, TreeSplit,
    TreeSplitConfig, Victim, Ybwc, YbwcConfig, INF,
};
use algorithms::{Dts, DtsConfig, YbwcShared};
use serde::Deserialize;
use sim_hw::{MachineConfig, ReadPolicies, ReadPolicy};
use std::fmt;

/// Entries of Parabelle's full-size transposition table (the global one, and the master's
/// local one): 8192, as in the paper (section VIII-B); children's local tables hold half.
pub const PARABELLE_TABLE_ENTRIES: u32 = 8192;

/// A search algorithm and its options, as a scenario names it (`search.algorithm`,
/// `sweep.algorithm`): a parallel scheme, or a sequential search that runs on one processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// (`sab`, or `sab(k)` with `top`). Default top: half the depth, rounded down (4 ply and
    /// deeper): the thesis's 4-ply SAB; its 6-ply runs were SA2 and SA4 (`top: 2`, `top: 4`).
    Sab {
        /// Plies searched by SSS*.
        #[serde(default)]
        top: Option<u32>,
    },
    /// Campbell's alpha-beta/SSS* hybrid ABS: alpha-beta on the top `top` plies, SSS* below
    /// (`abs`, or `abs(k)`). Default top: half the depth, rounded down (4 ply and deeper): the
    /// thesis's 4-ply ABS; its 6-ply runs were AS2 and AS4 (`top: 2`, `top: 4`).
    Abs {
        /// Plies searched by alpha-beta.
        #[serde(default)]
        top: Option<u32>,
    },
    /// Parallel aspiration search (Baudet 1978; Campbell's thesis section 3.2): the root window
    /// split into one disjoint range per processor around a static estimate of the root, each
    /// processor a full alpha-beta with its range (`baudet`, `baudet(D)`).
    Baudet {
        /// Width of each inner window, in value units. Default
        /// [`algorithms::baudet::DEFAULT_DELTA`] (50).
        #[serde(default = "baudet_delta")]
        delta: u32,
    },
    /// Mandatory Work First (Akl, Barnard & Doran 1982): the minimal tree's mandatory work in the
    /// top `split` plies in parallel first, then the speculative rest (`mwf`, `mwf(S)`).
    Mwf {
        /// Plies the master keeps as open nodes (tasks below). Default
        /// [`algorithms::mwf::DEFAULT_SPLIT`] (2).
        #[serde(default = "mwf_split")]
        split: u32,
    },
    /// APHID (Brockington & Schaeffer): the master's repeated passes over the top `top` plies,
    /// the slaves deepening their leaves asynchronously (`aphid`, `aphid(D)`).
    Aphid {
        /// Depth d′ of the master's tree. Default [`algorithms::aphid::DEFAULT_TOP`] (2).
        #[serde(default = "aphid_top")]
        top: u32,
    },
    /// pmws with the options of Marsland & Popowich's section IX (`pmws_broadcast`,
    /// `pmws_research`, `pmws_research_defer`, and combinations such as `pmws_broadcast_research`). At
    /// least one must be true (without options this is `Pmws`).
    PmwsIx {
        /// Broadcast a new alpha bound to every busy child as soon as it is known.
        #[serde(default)]
        broadcast: bool,
        /// Re-search a successor that fails high with every processor (as a new PV).
        #[serde(default)]
        research: bool,
        /// Defer that re-search until a second successor fails high or the others are done
        /// (needs `research: true`).
        #[serde(default)]
        defer: bool,
    },
    /// Young Brothers Wait (Feldmann, Monien, Mysliwietz, Vornberger; `ybwc`) on a pool of
    /// processors: a node's eldest son first, then its younger brothers for whoever asks.
    Ybwc {
        /// Whom an idle processor asks for work: `Random` (default) or `RoundRobin`.
        #[serde(default = "random_victim")]
        victim: Victim,
        /// Improved bounds sent to the helpers of a split point. Default true.
        #[serde(default = "yes")]
        window_updates: bool,
        /// A processor waiting for its helpers helps (asks for work). Default true.
        #[serde(default = "yes")]
        helpful_master: bool,
    },
    /// Lazy SMP (Stockfish from 2015; `lazy_smp`) on a pool of processors with shared memory:
    /// every processor searches the root with iterative deepening, sharing only the
    /// transposition table.
    LazySmp {
        /// Entries of the shared table; 0: no table. Default 65,536.
        #[serde(default = "tt_entries")]
        entries: u32,
        /// Entries per bucket. Default 4.
        #[serde(default = "tt_ways")]
        ways: u32,
        /// `DepthPreferred` (default) or `Always`.
        #[serde(default)]
        replacement: Replacement,
        /// Bytes per entry (with the ways, where buckets' cache lines fall). Default 16.
        #[serde(default = "tt_entry_bytes")]
        entry_bytes: u32,
        /// Which depths helpers skip: `Stockfish` (default) or `None`.
        #[serde(default)]
        skip: Skip,
        /// Helpers that finish the last depth go on deeper until processor 0 stops them.
        /// Default false.
        #[serde(default)]
        deeper: bool,
        /// The result by vote of the processors that finished the last depth. Default false.
        #[serde(default)]
        vote: bool,
        /// Iterative deepening, 1 to d plies (default true); false: every processor searches
        /// depth d alone. Lazy SMP deepens by this option, not by
        /// `search.progressive_deepening` (which must then be left out or false).
        #[serde(default = "yes")]
        iterative: bool,
    },
    /// ABDADA (Weill 1996; `abdada`) on a pool of processors with shared memory: the shared
    /// table counts the processors searching each node, and a processor defers moves being
    /// searched elsewhere to a second pass.
    Abdada {
        /// Entries of the shared table (at least `ways`). Default 65,536.
        #[serde(default = "tt_entries")]
        entries: u32,
        /// Entries per bucket. Default 4.
        #[serde(default = "tt_ways")]
        ways: u32,
        /// `DepthPreferred` (default) or `Always`.
        #[serde(default)]
        replacement: Replacement,
        /// Bytes per entry. Default 16.
        #[serde(default = "tt_entry_bytes")]
        entry_bytes: u32,
        /// Entries hold values that settle nodes (false: only ABDADA's searcher counts, no
        /// stored value is used). Default true.
        #[serde(default = "yes")]
        values: bool,
        /// Iterative deepening, as `LazySmp`'s. Default true.
        #[serde(default = "yes")]
        iterative: bool,
    },
    /// Young Brothers Wait with split points in shared memory, as Stockfish ran it (2013-2015;
    /// `ybwc_shared`), on a pool of processors sharing a memory (`hardware.memory`): idle
    /// processors read a victim's split points and join one under its lock.
    YbwcShared {
        /// Whose split points an idle processor reads: `Random` (default) or `RoundRobin`.
        #[serde(default = "random_victim")]
        victim: Victim,
        /// Improved bounds written to the helpers of a split point. Default true.
        #[serde(default = "yes")]
        window_updates: bool,
        /// A processor waiting for its helpers joins its helpers' split points (Stockfish's
        /// rule). Default true.
        #[serde(default = "yes")]
        helpful_master: bool,
    },
    /// Hyatt's Dynamic Tree Splitting (`dts`) on a pool of processors sharing a memory
    /// (`hardware.memory`): an idle processor reads every busy processor's tree state and
    /// joins the best split point of all.
    Dts {
        /// Improved bounds written to the helpers of a split point. Default true.
        #[serde(default = "yes")]
        window_updates: bool,
        /// A processor waiting for its helpers joins split points meanwhile. Default true.
        #[serde(default = "yes")]
        helpful_master: bool,
    },
}

fn tt_entries() -> u32 {
    SharedTableConfig::ENTRIES
}

fn tt_ways() -> u32 {
    SharedTableConfig::WAYS
}

fn tt_entry_bytes() -> u32 {
    SharedTableConfig::ENTRY_BYTES
}

/// The shared table's non-default options in a name (`_e1024`, `_w1`, `_always`, `_b32`).
fn table_suffix(t: SharedTableConfig) -> String {
    let mut out = String::new();
    if t.entries != SharedTableConfig::ENTRIES {
        out.push_str(&format!("_e{}", t.entries));
    }
    if t.ways != SharedTableConfig::WAYS {
        out.push_str(&format!("_w{}", t.ways));
    }
    if t.replacement == Replacement::Always {
        out.push_str("_always");
    }
    if t.entry_bytes != SharedTableConfig::ENTRY_BYTES {
        out.push_str(&format!("_b{}", t.entry_bytes));
    }
    out
}

/// The figure columns of the shared-table schemes.
const SHARED_TT: &[&str] = &[
    "tt_probes",
    "tt_hits",
    "tt_cutoffs",
    "tt_stores",
    "tt_overwrites",
];

/// ABDADA's: the table's and its deferrals.
const ABDADA_COLUMNS: &[&str] = &[
    "tt_probes",
    "tt_hits",
    "tt_cutoffs",
    "tt_stores",
    "tt_overwrites",
    "abdada_deferred",
];

/// The figures of the shared-memory split-point schemes (`ybwc_shared`, `dts`): sons handed
/// out, split-point lists read, tries that found nothing, locks taken, failed test-and-sets,
/// helpers aborted, window updates written.
const SPLIT_COLUMNS: &[&str] = &[
    "splits",
    "split_examined",
    "split_misses",
    "lock_acquires",
    "lock_waits",
    "split_aborts",
    "split_windows",
];

fn aphid_top() -> u32 {
    algorithms::aphid::DEFAULT_TOP
}

fn mwf_split() -> u32 {
    algorithms::mwf::DEFAULT_SPLIT
}

fn baudet_delta() -> u32 {
    algorithms::baudet::DEFAULT_DELTA
}

fn random_victim() -> Victim {
    Victim::Random
}

fn yes() -> bool {
    true
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
    /// Where its searches evaluate nodes short of the tree's full depth by themselves, apart
    /// from progressive deepening's iterations ([`Algorithm::evaluates_short`]).
    pub short: Short,
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
    /// It keeps values in a transposition table in shared memory (`lazy_smp`, `abdada`): as
    /// with `table`, its root value may differ from the table-free reference and is recorded,
    /// not refused (Parabelle's tables are `table`, which the paper's Table III rows go with).
    pub shared_table: bool,
    /// Whether its runs charge `hardware.costs.probe`: Parabelle with a table (a probe or store
    /// of a processor's own table, the master serving a child's probe of the global one) and
    /// APHID (its master's pass looking a leaf up again). The shared tables of `lazy_smp` and
    /// `abdada` are reached through `hardware.memory`, not at this cost. The loader warns about
    /// a probe cost that no algorithm of the plan charges (a test checks this against runs).
    pub probes: bool,
    /// Whether a report's configuration titles name it (pmws, the paper's own scheme and the
    /// default subject of its tables, goes unnamed).
    pub titled: bool,
    /// Why these options make no search of its own, when they do not (a scenario error).
    pub invalid: Option<String>,
    /// When processors read their lines by default (`hardware.reads` left out): the policy for
    /// processors with children and for the others, as the scheme's source ran it; None for a
    /// search on one processor (no lines).
    pub reads: Option<ReadPolicies>,
    /// How many engine events its messages make, for `check`'s estimate of wall time only:
    /// about `c · p · L^0.7` a run on p processors, L the leaves of the configuration's
    /// minimal tree, with c this figure in thousandths. Calibrated once, per scheme, on the
    /// shipped scenarios' `events` column (main at d8411b8, 2026-11-28: their events over the
    /// sum of p · L^0.7, over every run on more than one processor, which their largest runs
    /// dominate). Only ybwc's is steady (6.2 to 6.7 on each of its three synthetic scenarios);
    /// treesplit's ran from 0.005 to 0.74 and pmws's from 0.03 to 0.4 across the scenarios, and
    /// options no shipped scenario runs take their scheme's value. The events counted are all
    /// of a run's, searches' batches too. 0 for a search on one processor, which sends none. A
    /// guide to the wall time, never a result.
    pub events_milli: u32,
    /// What the scheme sends to a processor whose search is running, when it does (UPDATE, an
    /// abort): such messages only reach it after its search when it reads only when idle, and
    /// `check` and `run` warn.
    pub reaches_running: Option<&'static str>,
    /// The plies its OPEN list spans, for searches that keep one (the SSS* family): what
    /// `check`'s estimate adds for its upkeep ([`Open`]).
    pub open: Open,
    /// For users (`gtsim algorithms`, the table of algorithms): how a scenario names it.
    pub syntax: &'static str,
    /// For users: what it is, with its names in results in parentheses.
    pub about: &'static str,
    /// For users: where it runs.
    pub runs_where: &'static str,
}

/// Where an algorithm evaluates nodes short of the tree's full depth by itself, progressive
/// deepening aside. Only there does a synthetic tree's `horizon_noise` enter (a node's static
/// evaluation is off by up to the noise times the plies it is short of the full depth): a
/// search that evaluates nothing short of it searches the same tree the same way at any noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Short {
    /// Never: every node it evaluates is at the full depth (with progressive deepening, the
    /// earlier iterations' are not).
    Never,
    /// Always: it deepens iteratively by an option of its own (`lazy_smp`, `abdada` with
    /// `iterative: true`).
    Always,
    /// On more than one processor, in searches deeper than `plies`: baudet's master evaluates
    /// the root statically (`plies` 0), aphid's master scores the leaves of its top `plies` by
    /// the slaves' shallower searches until they are certain; on one processor either is plain
    /// alpha-beta.
    Parallel {
        /// The plies the parallel scheme's own part spans at full depth.
        plies: u32,
    },
}

/// Which plies of a search an OPEN list spans. An OPEN list of p plies holds up to about
/// w^⌈p/2⌉ states (one per leaf of a solution tree), kept sorted and scanned whole when a
/// subtree is purged, so its upkeep per leaf grows with that size: on large trees it, not the
/// leaves, is the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    /// A depth-first search: no OPEN list.
    None,
    /// SSS*, DUAL*: every ply.
    Whole,
    /// Staged SSS*: one list per stage of this many plies.
    Stages(u32),
    /// SAB: the top K plies (None: half the depth).
    Top(Option<u32>),
    /// ABS: below the top K plies (None: half the depth).
    Below(Option<u32>),
}

impl Open {
    /// The plies one OPEN list spans in a search of `depth` plies, None without one.
    pub fn plies(self, depth: u32) -> Option<u32> {
        let half = |top: Option<u32>| top.unwrap_or(depth / 2).min(depth);
        match self {
            Open::None => None,
            Open::Whole => Some(depth),
            Open::Stages(stage) => Some(stage.min(depth)),
            Open::Top(top) => Some(half(top)),
            Open::Below(top) => Some(depth - half(top)),
        }
    }
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
    /// A pool of processors, any of which addresses any other (`ybwc`); of the processor
    /// trees, only those whose lines join every pair: one or two processors.
    Pool,
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
    /// A master's tree of the top `plies` plies with tasks below it (APHID's `top`, MWF's
    /// `split`): searches deeper than that part, so that there is work below it. A part as
    /// deep as the search or deeper would run as one of the search's depth under another
    /// label (as [`Applies::Staged`] and [`Applies::Hybrid`], such runs are skipped).
    MasterTop {
        /// Plies of the master's tree.
        plies: u32,
        /// The option's name, as the scenario writes it (`top`, `split`).
        option: &'static str,
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
            syntax: "",
            about: "",
            runs_where: "one processor",
            runs_on: RunsOn::OneProcessor,
            applies: Applies::Always,
            progressive: false,
            short: Short::Never,
            model: false,
            fit: Fit::Every,
            columns: &[],
            table: None,
            shared_table: false,
            probes: false,
            titled: true,
            invalid: None,
            reads: None,
            reaches_running: None,
            open: Open::None,
            events_milli: 0,
        };
        // Parabelle's machine (section V): an interrupt-driven host, bare boards that read when
        // idle.
        let parabelle_reads = Some(ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::WhenIdle,
        });
        // Campbell's schemes send UPDATE and aborts to running slaves: every processor reads on
        // arrival.
        let campbell_reads = Some(ReadPolicies {
            hosts: ReadPolicy::Interrupt,
            boards: ReadPolicy::Interrupt,
        });
        match self {
            Algorithm::Pmws => Entry {
                reads: parabelle_reads,
                syntax: "`Pmws`",
                about: "principal variation splitting as Parabelle ran it (the paper's Fig. 4), progressive deepening (`pmws`)",
                runs_where: "the paper's trees of length 1, Campbell's of depth 1",
                runs_on: RunsOn::MasterAndChildren,
                progressive: true,
                model: true,
                titled: false,
                events_milli: 100,
                ..base("pmws".into())
            },
            // Parabelle is pmws with tables: the same processor trees and model.
            Algorithm::Parabelle { table, storage } => Entry {
                reads: parabelle_reads,
                syntax: "`Parabelle(table: T, storage: S)`",
                about: "Parabelle's chess search (sections III, VI, VIII): pmws with progressive deepening and the refutation table, and a transposition table: `T` is `None` (default), `Global` (held by the master; a child sends a 6-byte at-node probe before searching a node, waits for the 6-byte answer (`wait_reply`), and sends a 12-byte update after) or `Local` (one per processor, the children's half the size); `S` is `All` (default: every subtree), `Partial` (only subtrees longer than 2 ply, probed only more than 2 ply from the horizon), `PartialFrom2` (the paper's words read to take nodes 2 ply from the horizon too; compared with the paper's partial rows) or `AllNodes` (every node, horizon nodes too: probed before their evaluation and stored after; the paper's \"a table lookup is made upon the initial visit to any tree node\" read to take them in; compared with the paper's all rows), each but `All` only with a table; 8192 entries in the full-size table. Write `Parabelle()` for the defaults (`parabelle`, `parabelle_global_all`, `parabelle_local_partial`, …). Generic: it runs on synthetic and Campbell trees too. With a table its value may differ from the table-free value (recorded, not refused)",
                runs_where: "as `Pmws`",
                runs_on: RunsOn::MasterAndChildren,
                progressive: true,
                model: true,
                table: (table != TableKind::None).then_some((table, storage)),
                probes: table != TableKind::None,
                // Without a table, storage would be ignored: two names for one experiment.
                invalid: (table == TableKind::None && storage != Storage::All).then(|| {
                    format!("storage: {storage:?} has no effect without a table: give table: Global or Local, or leave storage out")
                }),
                columns: if table == TableKind::None {
                    &[]
                } else {
                    &["tt_probes", "tt_hits", "tt_cutoffs", "tt_stores"]
                },
                events_milli: match (table, storage) {
                    // A probe to the master and its answer before every node searched.
                    (TableKind::Global, Storage::All | Storage::AllNodes) => 7600,
                    (TableKind::Global, _) => 700,
                    _ => 400,
                },
                ..base(ParabelleScheme::name_of(&self.parabelle(0, true)))
            },
            Algorithm::TreeSplit { update } => Entry {
                reads: campbell_reads,
                reaches_running: Some(if update {
                    "UPDATE (a narrower window) and aborts"
                } else {
                    "aborts"
                }),
                syntax: "`TreeSplit(update: B)`",
                about: "tree-splitting (Campbell Fig. 10); `update: true` adds the dynamic window UPDATE of Fig. 11 (`treesplit`, `treesplit_update`)",
                runs_where: "any processor tree; on one processor, alpha-beta",
                runs_on: RunsOn::AnyTree,
                fit: Fit::Width(2),
                events_milli: 400,
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
                reads: campbell_reads,
                reaches_running: Some(if update {
                    "UPDATE (a narrower window) and aborts"
                } else {
                    "aborts"
                }),
                syntax: "`PvSplit(refined: B, update: B)`",
                about: "pv-splitting (Campbell Fig. 12, Marsland & Popowich Fig. 3): the root processor splits the PV level by level until the processor tree's depth equals the remaining depth, tree-splitting below; `refined: true` is Campbell's refinement (slaves get the successors of type-2 nodes' successors); both default false (`pvsplit`, `pvsplit_refined`, `…_update`). `update: true` is also the first suggestion of Marsland & Popowich's section IX (a new alpha bound to every processor as soon as it is known); the other two concern re-searches of a new principal variation, which pv-splitting's alpha-beta with windows never makes",
                runs_where: "processor trees at least 2 levels shallower than the search, as the thesis (\"on 4-ply trees, PV cannot employ a depth 3 processor tree\"; others skipped); on one processor, alpha-beta",
                runs_on: RunsOn::AnyTree,
                applies: Applies::TwoLevelsShallower,
                fit: Fit::Depth(1),
                events_milli: if refined { 1600 } else { 250 },
                ..base(format!(
                    "pvsplit{}{}",
                    if refined { "_refined" } else { "" },
                    if update { "_update" } else { "" }
                ))
            },
            Algorithm::Ab => Entry {
                syntax: "`Ab`",
                about: "fail-soft alpha-beta (`ab`)",
                ..base("ab".into())
            },
            Algorithm::Pab => Entry {
                syntax: "`Pab`",
                about: "Campbell's palphabeta, Fig. 7 (`pab`)",
                ..base("pab".into())
            },
            Algorithm::Scout => Entry {
                syntax: "`Scout`",
                about: "Pearl's SCOUT with TEST (Campbell's SC) (`scout`)",
                ..base("scout".into())
            },
            Algorithm::NegaScout => Entry {
                syntax: "`NegaScout`",
                about: "NegaScout (Reinefeld et al. Fig. 3) (`negascout`)",
                ..base("negascout".into())
            },
            Algorithm::Ins => Entry {
                syntax: "`Ins`",
                about: "informed NegaScout (Reinefeld et al. section 2.2) (`ins`)",
                ..base("ins".into())
            },
            Algorithm::Pns => Entry {
                syntax: "`Pns`",
                about: "partially informed NegaScout (Reinefeld et al. section 2.3) (`pns`)",
                ..base("pns".into())
            },
            Algorithm::Sss => Entry {
                columns: OPEN_PEAK,
                open: Open::Whole,
                syntax: "`Sss`",
                about: "SSS* with Campbell's modification that makes it dominate alpha-beta (Appendix 3) (`sss`)",
                ..base("sss".into())
            },
            Algorithm::Dual => Entry {
                columns: OPEN_PEAK,
                open: Open::Whole,
                syntax: "`Dual`",
                about: "DUAL* (Reinefeld et al. Fig. 4) (`dual`)",
                ..base("dual".into())
            },
            Algorithm::StagedSss { stage } => Entry {
                reads: campbell_reads,
                reaches_running: Some("aborts"),
                syntax: "`StagedSss(stage: S)`",
                about: "staged SSS* with stages of S plies (default 2, Campbell's SS) (`staged_sss`, or `staged_sss(S)`); on a processor tree of depth 1, Campbell's parallel staged SSS* (chapter 5)",
                runs_where: "one processor; processor trees of depth 1; skipped when d ≤ S",
                runs_on: RunsOn::OneOrMasterAndSlaves,
                applies: Applies::Staged { stage },
                columns: OPEN_PEAK,
                open: Open::Stages(stage),
                invalid: (stage == 0).then(|| {
                    "a stage must be at least 1 ply (StagedSss(stage: 2) is Campbell's SS)".into()
                }),
                events_milli: 6500,
                ..base(match stage {
                    2 => "staged_sss".into(),
                    _ => format!("staged_sss({stage})"),
                })
            },
            Algorithm::Baudet { delta } => Entry {
                reads: campbell_reads,
                reaches_running: Some("aborts"),
                syntax: "`Baudet(delta: D)`",
                about: "parallel aspiration search (Baudet 1978, Campbell's thesis section 3.2): the master evaluates the root statically (V0, one evaluation), splits the values into p disjoint ranges, p − 2 of width D (default 50) centred on V0 and two unbounded outer ones, and every processor (the master too) searches the whole tree by fail-soft alpha-beta with its range's window; the range holding the value returns it exactly (or a fail-high and a fail-low bound meet), and searches whose range is ruled out are aborted. On one processor: alpha-beta with the full window. `Baudet()` for the default (`baudet`, `baudet(D)`)",
                runs_where: "a master and its workers: the paper's trees of length 1, Campbell's of depth 1; one processor",
                runs_on: RunsOn::MasterAndChildren,
                short: Short::Parallel { plies: 0 },
                invalid: (delta == 0).then(|| "delta must be at least 1 (the width of each inner window)".into()),
                events_milli: 13,
                ..base(if delta == algorithms::baudet::DEFAULT_DELTA {
                    "baudet".into()
                } else {
                    format!("baudet({delta})")
                })
            },
            Algorithm::Mwf { split } => Entry {
                reads: campbell_reads,
                reaches_running: Some("aborts"),
                syntax: "`Mwf(split: S)`",
                about: "Mandatory Work First (Akl, Barnard & Doran 1982): the master keeps the top S plies (default 2) as nodes typed as in Knuth and Moore; every successor of a type-1 or type-3 node and the first of a type-2 node (the minimal tree) is opened at once and searched in parallel, the other successors of a type-2 node only after its first came back without a cutoff (speculative); nodes S plies down are tasks, fail-soft alpha-beta with the parent's window when handed out, mandatory tasks first, to the workers and the master itself; a cutoff aborts the tasks below. On one processor the master does it all, in that order. `Mwf()` for the default (`mwf`, `mwf(S)`)",
                runs_where: "a master and its workers: the paper's trees of length 1, Campbell's of depth 1; one processor; skipped when d ≤ S",
                runs_on: RunsOn::MasterAndChildren,
                applies: Applies::MasterTop {
                    plies: split,
                    option: "split",
                },
                invalid: (split == 0).then(|| "split must be at least 1 ply (the plies the master keeps)".into()),
                events_milli: 25,
                ..base(if split == algorithms::mwf::DEFAULT_SPLIT {
                    "mwf".into()
                } else {
                    format!("mwf({split})")
                })
            },
            Algorithm::PmwsIx {
                broadcast,
                research,
                defer,
            } => Entry {
                reads: campbell_reads,
                reaches_running: Some("BOUND (a new alpha bound)"),
                syntax: "`PmwsIx(broadcast: B, research: B, defer: B)`",
                about: "pmws with the suggestions of Marsland & Popowich's section IX, each off by default, at least one on: `broadcast: true` sends a PV node's new best value at once to every busy child (BOUND, 4 bytes inter-node) and narrows the master's own search (a zero-window test that then fails high no higher than the newest bound is tested again around it; a re-search under way is narrowed); `research: true` hands a fail-high back as a lower bound and re-searches it with every processor as a new PV once the node's outstanding tests are back, with the window PVS's re-search gives it (the bound inherited down the new PV, as in Fig. 1: on one processor it is PVS); `defer: true` (with research) goes on testing against the raised score and re-searches when a second candidate fails high or the rest is done (a lone candidate is re-searched too: gtsim needs the exact value); its tests against a fail-high's bound, weaker than the value a re-search would give, cost nodes without a transposition table, which M&P say it needs. Progressive deepening as pmws. By default every processor reads on arrival (with Parabelle's boards a bound could never reach a running search) (`pmws_broadcast`, `pmws_research`, `pmws_research_defer`, `pmws_broadcast_research`, …)",
                runs_where: "as `Pmws`",
                runs_on: RunsOn::MasterAndChildren,
                progressive: true,
                invalid: if !broadcast && !research && !defer {
                    Some("PmwsIx without an option is Pmws: give broadcast, research or defer: true, or use Pmws".into())
                } else if defer && !research {
                    Some("defer: true defers the parallel re-search: give research: true too".into())
                } else {
                    None
                },
                events_milli: if research { 170 } else { 40 },
                ..base({
                    let mut name = String::from("pmws");
                    if broadcast {
                        name.push_str("_broadcast");
                    }
                    if research {
                        name.push_str("_research");
                    }
                    if defer {
                        name.push_str("_defer");
                    }
                    name
                })
            },
            Algorithm::Aphid { top } => Entry {
                reads: campbell_reads,
                reaches_running: Some("STOP (an abort)"),
                syntax: "`Aphid(top: D)`",
                about: "APHID (Brockington & Schaeffer): the master searches the top D plies (default 2) by fail-soft alpha-beta again and again, each pass one computation (k per node, probe per leaf looked up, e for a leaf's first static evaluation); its leaves belong to the slaves (round robin as first met), which search them on their own, 1, 2, … plies deeper up to the rest of the depth, and again with the latest window the master sent while their bounds do not settle it; a pass uses a leaf's full-depth bound where it settles the window and the deepest shallower value (uncertain) elsewhere, and the master repeats passes as results come in until one pass is certain; no shared table. On one processor: alpha-beta. `Aphid()` for the default (`aphid`, `aphid(D)`)",
                runs_where: "a master and its slaves: the paper's trees of length 1, Campbell's of depth 1; one processor; skipped when d ≤ D",
                runs_on: RunsOn::MasterAndChildren,
                applies: Applies::MasterTop {
                    plies: top,
                    option: "top",
                },
                short: Short::Parallel { plies: top },
                probes: true,
                invalid: (top == 0).then(|| "top must be at least 1 ply (the master's tree)".into()),
                events_milli: 30,
                ..base(if top == algorithms::aphid::DEFAULT_TOP {
                    "aphid".into()
                } else {
                    format!("aphid({top})")
                })
            },
            Algorithm::Ybwc {
                victim,
                window_updates,
                helpful_master,
            } => Entry {
                reads: campbell_reads,
                reaches_running: Some("work requests, aborts and window updates"),
                syntax: "`Ybwc(victim: V, window_updates: B, helpful_master: B)`",
                about: "Young Brothers Wait (Feldmann, Monien, Mysliwietz, Vornberger; the 1991 survey): a node's eldest son is searched first, then its younger brothers go to processors that ask for work; idle processors send work requests to a victim (`V`: `Random`, default, drawn from a stream seeded by the tree's root key, or `RoundRobin`), cutoffs abort a node's helpers, `window_updates` (default true) sends improved bounds to them, `helpful_master` (default true) lets a processor waiting for its helpers search work it asks for meanwhile (`ybwc`, `ybwc_rr`, `…_nowindow`, `…_nohelp`)",
                runs_where: "a pool of processors (any processor addresses any other: `hardware.network`); of the processor trees, one or two processors",
                runs_on: RunsOn::Pool,
                columns: &[
                    "ybwc_requests",
                    "ybwc_nones",
                    "ybwc_given",
                    "ybwc_aborts",
                    "ybwc_windows",
                ],
                events_milli: 6500,
                ..base(format!(
                    "ybwc{}{}{}",
                    if victim == Victim::RoundRobin { "_rr" } else { "" },
                    if window_updates { "" } else { "_nowindow" },
                    if helpful_master { "" } else { "_nohelp" }
                ))
            },
            Algorithm::LazySmp {
                entries,
                skip,
                deeper,
                vote,
                iterative,
                ..
            } => {
                let table = self.shared_table();
                let no_table_options = entries == 0
                    && !table_suffix(SharedTableConfig {
                        entries: SharedTableConfig::ENTRIES,
                        ..self.table_layout()
                    })
                    .is_empty();
                Entry {
                    reads: campbell_reads,
                    syntax: "`LazySmp(entries: N, ways: W, replacement: R, entry_bytes: B, skip: S, deeper: D, vote: V, iterative: I)`",
                    about: "Lazy SMP (Stockfish from 2015): every processor searches the root on its own by iterative deepening of fail-soft alpha-beta (`iterative: false`: depth d alone; it deepens by this option, default true, not by `search.progressive_deepening`, which must then be left out or false), sharing only a transposition table in shared memory (`hardware.memory`): a probe (a read of the bucket's cache line) before each interior node, a store (a write) when it closes; `N` entries (default 65,536; 0: no table), `W` per bucket (default 4), replacement `R` `DepthPreferred` (default) or `Always`, `B` bytes per entry (default 16; the bucket's first cache line of 64 bytes is its address, hence its bank); helpers skip depths by Stockfish's SkipSize/SkipPhase tables (`S`: `Stockfish`, default, or `None`), never the last; a helper that finishes the last depth d idles, or with `deeper: true` goes on to d + 1, d + 2, … (same skip rule) until stopped, as Stockfish's; the result is processor 0's, or with `vote: true` Stockfish 10's vote among the processors that finished the last depth; processor 0's end raises a stop flag the others' searches read at once. With a table its value may differ from the table-free value (recorded, not refused) (`lazy_smp`, `lazy_smp_notable`, `…_noskip`, `…_deeper`, `…_vote`, `…_e1024_w1_always_b32` for other table options)",
                    runs_where: "a pool of processors with shared memory; of the processor trees, one or two processors",
                    runs_on: RunsOn::Pool,
                    progressive: false,
                    short: if iterative { Short::Always } else { Short::Never },
                    shared_table: table.is_some(),
                    columns: if table.is_some() { SHARED_TT } else { &[] },
                    invalid: if no_table_options {
                        Some("ways, replacement and entry_bytes have no effect without a table (entries: 0): leave them out".into())
                    } else {
                        table.and_then(|t| t.invalid())
                    },
                    events_milli: 30000,
                    ..base(format!(
                        "lazy_smp{}{}{}{}{}",
                        match table {
                            Some(t) => table_suffix(t),
                            None => "_notable".into(),
                        },
                        if skip == Skip::None { "_noskip" } else { "" },
                        if deeper { "_deeper" } else { "" },
                        if vote { "_vote" } else { "" },
                        if iterative { "" } else { "_fixed" }
                    ))
                }
            }
            Algorithm::Abdada {
                values, iterative, ..
            } => {
                let table = self.shared_table().expect("abdada always has a table");
                Entry {
                    reads: campbell_reads,
                    syntax: "`Abdada(entries: N, ways: W, replacement: R, entry_bytes: B, values: V, iterative: I)`",
                    about: "ABDADA (Weill 1996): every processor searches the root by iterative deepening of fail-soft alpha-beta, every depth (`iterative: false`: depth d alone; as `LazySmp`, by this option, not by `search.progressive_deepening`), against one transposition table in shared memory (`hardware.memory`) that also counts the processors searching each node: a probe is a read-modify-write (a write access) that counts the processor in; a node's first move is searched at once, its other moves exclusively (a move being searched by another processor is deferred), then a second pass searches the deferred ones; a store when the node closes counts it out. Table options as `LazySmp` (`N` at least `W`). `values: false`: the counts stay in shared memory at the same costs but no value is stored or used (the root value is then always the table-free one). The result is processor 0's; its end stops the others. With values its value may differ from the table-free value (recorded, not refused) (`abdada`, `abdada_novalues`, `abdada_e1024…`)",
                    runs_where: "a pool of processors with shared memory; of the processor trees, one or two processors",
                    runs_on: RunsOn::Pool,
                    progressive: false,
                    short: if iterative { Short::Always } else { Short::Never },
                    shared_table: values,
                    columns: ABDADA_COLUMNS,
                    invalid: table.invalid(),
                    events_milli: 6000,
                    ..base(format!(
                        "abdada{}{}{}",
                        table_suffix(table),
                        if values { "" } else { "_novalues" },
                        if iterative { "" } else { "_fixed" }
                    ))
                }
            }
            Algorithm::YbwcShared {
                victim,
                window_updates,
                helpful_master,
            } => Entry {
                syntax: "`YbwcShared(victim: V, window_updates: B, helpful_master: B)`",
                about: "Young Brothers Wait with split points in shared memory, as Stockfish ran it (2013-2015): ybwc's search, but an idle processor reads a victim's split-point list (`V`: `Random`, default, seeded by the tree's root key, or `RoundRobin`), takes the split point's lock (test-and-set, spinning while held), takes a son and releases it; results and the owner's own sons are folded under the lock, cutoffs and `window_updates` (default true) are written to the helpers' flag words, `helpful_master` (default true) lets a processor waiting for its helpers join only its helpers' split points (Stockfish's rule); every access costs the memory's latency and bank wait (category memory). No transposition table (`ybwc_shared`, `ybwc_shared_rr`, `…_nowindow`, `…_nohelp`)",
                runs_where: "a pool of processors sharing a memory (`hardware.memory`, which a scenario must give); one processor: alpha-beta",
                runs_on: RunsOn::Pool,
                columns: SPLIT_COLUMNS,
                events_milli: 20000,
                ..base(format!(
                    "ybwc_shared{}{}{}",
                    if victim == Victim::RoundRobin { "_rr" } else { "" },
                    if window_updates { "" } else { "_nowindow" },
                    if helpful_master { "" } else { "_nohelp" }
                ))
            },
            Algorithm::Dts {
                window_updates,
                helpful_master,
            } => Entry {
                syntax: "`Dts(window_updates: B, helpful_master: B)`",
                about: "Dynamic Tree Splitting (Hyatt, Cray Blitz): busy processors' tree states are in shared memory; an idle processor reads every other processor's split-point list and joins the split point nearest the root (then deepest remaining depth, then most sons left) of all of them, under its lock; the rest (locks, results, aborts, `window_updates`, `helpful_master`, both default true, a waiting processor joining anywhere) as `YbwcShared`. No transposition table (`dts`, `dts_nowindow`, `dts_nohelp`)",
                runs_where: "a pool of processors sharing a memory (`hardware.memory`, which a scenario must give); one processor: alpha-beta",
                runs_on: RunsOn::Pool,
                columns: SPLIT_COLUMNS,
                events_milli: 25000,
                ..base(format!(
                    "dts{}{}",
                    if window_updates { "" } else { "_nowindow" },
                    if helpful_master { "" } else { "_nohelp" }
                ))
            },
            Algorithm::Sab { top } | Algorithm::Abs { top } => {
                let short = if matches!(self, Algorithm::Sab { .. }) {
                    "sab"
                } else {
                    "abs"
                };
                let (syntax, about) = if short == "sab" {
                    ("`Sab(top: K)`", "Campbell's SSS*/alpha-beta hybrid SAB: SSS* on the top K plies and alpha-beta below (`sab(K)`); `Sab()` splits at half the depth, rounded down (`sab`; 4 ply and deeper): at 4 ply the thesis's SAB, but at 6 ply `sab(3)`, which the thesis did not run (its 6-ply SA2 and SA4 are `Sab(top: 2)` and `Sab(top: 4)`)")
                } else {
                    ("`Abs(top: K)`", "Campbell's alpha-beta/SSS* hybrid ABS: alpha-beta on the top K plies and SSS* below (`abs(K)`); `Abs()` splits at half the depth, rounded down (`abs`; 4 ply and deeper): at 4 ply the thesis's ABS, but at 6 ply `abs(3)`, which the thesis did not run (its 6-ply AS2 and AS4 are `Abs(top: 2)` and `Abs(top: 4)`)")
                };
                Entry {
                    syntax,
                    about,
                    runs_where: "one processor; skipped unless 0 < K < d",
                    applies: Applies::Hybrid { top },
                    columns: OPEN_PEAK,
                    open: if short == "sab" {
                        Open::Top(top)
                    } else {
                        Open::Below(top)
                    },
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

    /// Every algorithm of the catalogue, with its default options, in the order `gtsim
    /// algorithms` lists them.
    pub const ALL: [Algorithm; 24] = [
        Algorithm::Pmws,
        Algorithm::Parabelle {
            table: TableKind::None,
            storage: Storage::All,
        },
        Algorithm::TreeSplit { update: false },
        Algorithm::PvSplit {
            refined: false,
            update: false,
        },
        Algorithm::StagedSss { stage: 2 },
        Algorithm::Ab,
        Algorithm::Pab,
        Algorithm::Scout,
        Algorithm::NegaScout,
        Algorithm::Ins,
        Algorithm::Pns,
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::Sab { top: None },
        Algorithm::Abs { top: None },
        Algorithm::Baudet {
            delta: algorithms::baudet::DEFAULT_DELTA,
        },
        Algorithm::Mwf {
            split: algorithms::mwf::DEFAULT_SPLIT,
        },
        Algorithm::Aphid {
            top: algorithms::aphid::DEFAULT_TOP,
        },
        Algorithm::PmwsIx {
            broadcast: true,
            research: false,
            defer: false,
        },
        Algorithm::Ybwc {
            victim: Victim::Random,
            window_updates: true,
            helpful_master: true,
        },
        Algorithm::LazySmp {
            entries: SharedTableConfig::ENTRIES,
            ways: SharedTableConfig::WAYS,
            replacement: Replacement::DepthPreferred,
            entry_bytes: SharedTableConfig::ENTRY_BYTES,
            skip: Skip::Stockfish,
            deeper: false,
            vote: false,
            iterative: true,
        },
        Algorithm::Abdada {
            entries: SharedTableConfig::ENTRIES,
            ways: SharedTableConfig::WAYS,
            replacement: Replacement::DepthPreferred,
            entry_bytes: SharedTableConfig::ENTRY_BYTES,
            values: true,
            iterative: true,
        },
        Algorithm::YbwcShared {
            victim: Victim::Random,
            window_updates: true,
            helpful_master: true,
        },
        Algorithm::Dts {
            window_updates: true,
            helpful_master: true,
        },
    ];

    /// The name in results: `pmws`, `treesplit`, `treesplit_update`, `pvsplit`, `ab`, …
    pub fn name(self) -> String {
        self.entry().name
    }

    /// Whether a run of the algorithm on `processors` processors to `depth` plies (deepening
    /// progressively when `progressive`) evaluates any node short of the tree's full depth,
    /// where a synthetic tree's horizon noise enters ([`Short`]). When it does not, its results
    /// are the same at every `horizon_noise` (a test runs every algorithm both ways).
    pub fn evaluates_short(self, processors: usize, depth: u32, progressive: bool) -> bool {
        // An iteration short of the last needs a search of at least 2 plies.
        let iterates = progressive && depth >= 2;
        match self.entry().short {
            Short::Never => iterates,
            Short::Always => depth >= 2,
            Short::Parallel { plies } => iterates || (processors > 1 && depth > plies),
        }
    }

    /// Whether the scheme deepens iteratively by an option of its own (`iterative`), whatever
    /// `search.progressive_deepening` says: lazy_smp and abdada, which are iterative-deepening
    /// schemes by definition.
    pub fn deepens_by_itself(self) -> bool {
        matches!(self, Algorithm::LazySmp { .. } | Algorithm::Abdada { .. })
    }

    /// Whether the scheme sends messages: every parallel scheme but those that share memory
    /// only (ybwc_shared, dts, lazy_smp, abdada). For a plan of none that does, the network,
    /// its lines, the costs `s` and `interrupt` and the read policies change nothing.
    pub fn sends_messages(self) -> bool {
        !matches!(
            self,
            Algorithm::YbwcShared { .. }
                | Algorithm::Dts { .. }
                | Algorithm::LazySmp { .. }
                | Algorithm::Abdada { .. }
        ) && !matches!(self.entry().runs_on, RunsOn::OneProcessor)
    }

    /// Whether the scheme runs on shared memory (`hardware.memory`), which it then needs:
    /// lazy_smp with a table and abdada (whose searcher counts live there even without values).
    pub fn needs_memory(self) -> bool {
        self.shared_table().is_some()
            || matches!(self, Algorithm::YbwcShared { .. } | Algorithm::Dts { .. })
    }

    /// Whether a probe cost (`hardware.costs.probe`) beside it is its own: it charges one
    /// ([`Entry::probes`]), or an option of it would (Parabelle without a table: the costs of
    /// its table runs, which parabelle-table2.ron keeps as the files of those runs have them).
    /// The loader warns about a probe cost no algorithm of the plan owns.
    pub fn owns_probe_cost(self) -> bool {
        self.entry().probes || matches!(self, Algorithm::Parabelle { .. })
    }

    /// Whether it is a pool scheme: it runs on a pool of processors, processor 0 owning the
    /// root, with no master.
    pub fn on_pool(self) -> bool {
        self.entry().runs_on == RunsOn::Pool
    }

    /// Whether the search keeps a transposition table (then its root value may legitimately
    /// differ from a table-free search's, and is recorded instead of checked).
    pub fn has_table(self) -> bool {
        let e = self.entry();
        e.table.is_some() || e.shared_table
    }

    /// The shared table's layout as the options give it (lazy_smp and abdada; the defaults for
    /// any other algorithm).
    fn table_layout(self) -> SharedTableConfig {
        match self {
            Algorithm::LazySmp {
                entries,
                ways,
                replacement,
                entry_bytes,
                ..
            }
            | Algorithm::Abdada {
                entries,
                ways,
                replacement,
                entry_bytes,
                ..
            } => SharedTableConfig {
                entries,
                ways,
                replacement,
                entry_bytes,
            },
            _ => SharedTableConfig::new(),
        }
    }

    /// The shared table of lazy_smp and abdada (None: lazy_smp with `entries: 0`, or another
    /// algorithm).
    pub fn shared_table(self) -> Option<SharedTableConfig> {
        match self {
            Algorithm::LazySmp { entries: 0, .. } => None,
            Algorithm::LazySmp { .. } | Algorithm::Abdada { .. } => Some(self.table_layout()),
            _ => None,
        }
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
    /// that asks for it is an error. `pool`: the machine has a pool network (then a pool
    /// scheme runs on a pool of as many processors, and a tree scheme on the tree laid over it).
    pub fn unsupported(self, ptree: &PTree, pool: bool) -> Option<String> {
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
            (RunsOn::Pool, PTree::Campbell { .. }) if !ptree.is_uniprocessor() => Some(format!(
                "{self} runs on a pool of processors (sweep.processors or sweep.fanout with hardware.network), not on Campbell's processor tree {}",
                ptree.describe()
            )),
            // A pool has no levels: a length would multiply the processors the tables list as f.
            (RunsOn::Pool, PTree::Paper { fanout, length }) if length != 1 && fanout > 1 => {
                Some(format!(
                    "{self} runs on a pool of processors, which has no levels: with hardware.length {length} the fanout {fanout} would give it {} processors while the tables list f = {fanout}; leave hardware.length out (1), so that f is the pool's size, or give the sizes in sweep.processors",
                    ptree.processors()
                ))
            }
            (RunsOn::Pool, p) if !pool && p.build().len() > 2 => Some(format!(
                "{self} runs on a pool of processors (any processor addresses any other), not on {}: a processor tree joins only parents and children; set hardware.network (FullyConnected, Hypercube, Mesh or Bus)",
                ptree.describe()
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
                "without top, the hybrids split the tree at half its depth into parts of at least 2 plies (the thesis ran them at 4 and 6 plies, none shallower); {depth} plies are too few"
            )),
            Applies::Hybrid { top: Some(k) } if k == 0 || k >= depth => Some(format!(
                "a hybrid's top part of {k} plies must leave both parts non-empty in a {depth}-ply tree"
            )),
            Applies::Hybrid { .. } => None,
            Applies::MasterTop { plies, option } if plies >= depth => Some(format!(
                "{option}: {plies} makes the master's tree the whole {depth}-ply tree: the workers would get single leaves, not subtrees, to search"
            )),
            Applies::MasterTop { .. } => None,
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
        let uniprocessor = config.platform.len() == 1;
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
            Algorithm::Baudet { delta } => go(
                columns,
                &Baudet(BaudetConfig { depth, delta }),
                tree,
                config,
            ),
            Algorithm::Mwf { split } => go(columns, &Mwf(MwfConfig { depth, split }), tree, config),
            Algorithm::PmwsIx {
                broadcast,
                research,
                defer,
            } => go(
                columns,
                &PmwsIxScheme(
                    PmwsConfig { depth, progressive },
                    Plain {
                        broadcast,
                        parallel_research: research,
                        defer,
                    },
                ),
                tree,
                config,
            ),
            Algorithm::Aphid { top } => {
                go(columns, &Aphid(AphidConfig { depth, top }), tree, config)
            }
            Algorithm::Abs { top } => go(
                columns,
                &Alone::new(name, depth, move |t, n, d| {
                    Abs::with_top_depth(t, n, -INF, INF, d, top.unwrap_or(d / 2))
                }),
                tree,
                config,
            ),
            // The victims' random streams are seeded by the tree's root key: each tree of a
            // sweep draws its own, and the same scenario gives the same runs.
            Algorithm::Ybwc {
                victim,
                window_updates,
                helpful_master,
            } => go(
                columns,
                &Ybwc(YbwcConfig {
                    victim,
                    window_updates,
                    helpful_master,
                    ..YbwcConfig::new(depth, tree.key(&tree.root()))
                }),
                tree,
                config,
            ),
            Algorithm::LazySmp {
                skip,
                deeper,
                vote,
                iterative,
                ..
            } => go(
                columns,
                &LazySmp(LazySmpConfig {
                    depth,
                    iterative,
                    table: self.shared_table(),
                    skip,
                    deeper,
                    vote,
                }),
                tree,
                config,
            ),
            // Seeded as ybwc's victims.
            Algorithm::YbwcShared {
                victim,
                window_updates,
                helpful_master,
            } => go(
                columns,
                &YbwcShared(YbwcConfig {
                    victim,
                    window_updates,
                    helpful_master,
                    ..YbwcConfig::new(depth, tree.key(&tree.root()))
                }),
                tree,
                config,
            ),
            Algorithm::Abdada {
                values, iterative, ..
            } => go(
                columns,
                &Abdada(AbdadaConfig {
                    depth,
                    iterative,
                    table: self.table_layout(),
                    values,
                }),
                tree,
                config,
            ),
            Algorithm::Dts {
                window_updates,
                helpful_master,
            } => go(
                columns,
                &Dts(DtsConfig {
                    window_updates,
                    helpful_master,
                    ..DtsConfig::new(depth)
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
        answer_at: scheme.answer_at(&run.roles),
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

/// The catalogue for users, as a Markdown table (`gtsim algorithms`): how a scenario names each
/// algorithm, what it is (its names in results in parentheses), where it runs, and what it
/// uses when the scenario leaves deepening and read policies out.
pub fn markdown_table() -> String {
    let mut out =
        String::from("| value | what it is | where it runs | by default |\n|---|---|---|---|\n");
    for a in Algorithm::ALL {
        let e = a.entry();
        let reads = e.reads.map_or(String::new(), |r| {
            format!("; reads: hosts {:?}, boards {:?}", r.hosts, r.boards)
        });
        let depth = if e.progressive {
            "progressive deepening"
        } else {
            "fixed depth"
        };
        out.push_str(&format!(
            "| {} | {} | {} | {depth}{reads} |\n",
            e.syntax, e.about, e.runs_where
        ));
    }
    out
}

/// The machine's shared-memory figures, columns of every run on a machine with shared memory
/// (`hardware.memory`): time in category memory (all processors), reads, writes, and the time
/// accesses waited for a busy bank.
pub const MEMORY_COLUMNS: [&str; 4] =
    ["t_memory_ns", "mem_reads", "mem_writes", "mem_bank_wait_ns"];

/// The columns of results.csv for `plan`: [`results_columns`] of its algorithms,
/// [`MEMORY_COLUMNS`] on a machine with shared memory, then the time the root's value was known
/// (`answer_ns`).
pub fn plan_columns(plan: &crate::Plan) -> Vec<&'static str> {
    let mut columns = results_columns(&plan.algorithms);
    if plan.memory.is_some() {
        columns.extend(
            MEMORY_COLUMNS
                .iter()
                .filter(|c| !columns.contains(c))
                .collect::<Vec<_>>(),
        );
    }
    // Last, so that every column results.csv had before it keeps its place.
    columns.push(crate::runner::ANSWER_COLUMN);
    columns
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The variant's place in [`Algorithm::ALL`]. The match is exhaustive: a new variant must
    /// be placed here, and the test below then asks for it in `ALL`.
    fn ordinal(a: Algorithm) -> usize {
        match a {
            Algorithm::Pmws => 0,
            Algorithm::Parabelle { .. } => 1,
            Algorithm::TreeSplit { .. } => 2,
            Algorithm::PvSplit { .. } => 3,
            Algorithm::StagedSss { .. } => 4,
            Algorithm::Ab => 5,
            Algorithm::Pab => 6,
            Algorithm::Scout => 7,
            Algorithm::NegaScout => 8,
            Algorithm::Ins => 9,
            Algorithm::Pns => 10,
            Algorithm::Sss => 11,
            Algorithm::Dual => 12,
            Algorithm::Sab { .. } => 13,
            Algorithm::Abs { .. } => 14,
            Algorithm::Baudet { .. } => 15,
            Algorithm::Mwf { .. } => 16,
            Algorithm::Aphid { .. } => 17,
            Algorithm::PmwsIx { .. } => 18,
            Algorithm::Ybwc { .. } => 19,
            Algorithm::LazySmp { .. } => 20,
            Algorithm::Abdada { .. } => 21,
            Algorithm::YbwcShared { .. } => 22,
            Algorithm::Dts { .. } => 23,
        }
    }

    #[test]
    fn the_list_holds_every_algorithm_once_and_documents_each() {
        for (i, a) in Algorithm::ALL.iter().enumerate() {
            assert_eq!(ordinal(*a), i, "{a} out of place in Algorithm::ALL");
            let e = a.entry();
            for (what, text) in [
                ("syntax", e.syntax),
                ("about", e.about),
                ("runs_where", e.runs_where),
            ] {
                assert!(!text.trim().is_empty(), "{a}: no {what}");
            }
            assert!(e.invalid.is_none(), "{a}: default options are invalid");
            let table = markdown_table();
            assert!(table.contains(e.syntax), "{a} missing from the table");
        }
    }

    /// Every option value of every algorithm gives its own name in results.
    /// Every scheme that runs on more than one processor states the events of its messages
    /// (`check`'s estimate would otherwise count none), and no sequential search does.
    #[test]
    fn every_parallel_scheme_states_the_events_of_its_messages() {
        for a in Algorithm::ALL {
            let e = a.entry();
            let parallel = e.runs_on != RunsOn::OneProcessor;
            assert_eq!(
                e.events_milli > 0,
                parallel,
                "{a}: events_milli {}",
                e.events_milli
            );
        }
    }

    #[test]
    fn names_in_results_are_distinct() {
        let mut all: Vec<Algorithm> = Algorithm::ALL.to_vec();
        for table in [TableKind::None, TableKind::Global, TableKind::Local] {
            for storage in [
                Storage::All,
                Storage::Partial,
                Storage::PartialFrom2,
                Storage::AllNodes,
            ] {
                all.push(Algorithm::Parabelle { table, storage });
            }
        }
        all.push(Algorithm::TreeSplit { update: true });
        all.push(Algorithm::Baudet { delta: 20 });
        all.push(Algorithm::Mwf { split: 3 });
        all.push(Algorithm::Aphid { top: 3 });
        for k in 1..8u32 {
            all.push(Algorithm::PmwsIx {
                broadcast: k & 1 != 0,
                research: k & 2 != 0,
                defer: k & 4 != 0,
            });
        }
        for (refined, update) in [(true, false), (false, true), (true, true)] {
            all.push(Algorithm::PvSplit { refined, update });
        }
        for victim in [Victim::Random, Victim::RoundRobin] {
            for window_updates in [false, true] {
                for helpful_master in [false, true] {
                    all.push(Algorithm::Ybwc {
                        victim,
                        window_updates,
                        helpful_master,
                    });
                    all.push(Algorithm::YbwcShared {
                        victim,
                        window_updates,
                        helpful_master,
                    });
                    all.push(Algorithm::Dts {
                        window_updates,
                        helpful_master,
                    });
                }
            }
        }
        let lazy = Algorithm::ALL[20];
        let abdada = Algorithm::ALL[21];
        for entries in [0, 1024, SharedTableConfig::ENTRIES] {
            for skip in [Skip::Stockfish, Skip::None] {
                for (vote, deeper) in [(false, false), (true, false), (false, true), (true, true)] {
                    if let Algorithm::LazySmp {
                        ways,
                        replacement,
                        entry_bytes,
                        ..
                    } = lazy
                    {
                        all.push(Algorithm::LazySmp {
                            entries,
                            ways,
                            replacement,
                            entry_bytes,
                            skip,
                            deeper,
                            vote,
                            iterative: true,
                        });
                    }
                }
            }
        }
        for (ways, replacement, entry_bytes) in [
            (1, Replacement::DepthPreferred, 16),
            (4, Replacement::Always, 16),
            (4, Replacement::DepthPreferred, 32),
            (2, Replacement::Always, 64),
        ] {
            for values in [false, true] {
                all.push(Algorithm::Abdada {
                    entries: 1024,
                    ways,
                    replacement,
                    entry_bytes,
                    values,
                    iterative: values,
                });
            }
            if let Algorithm::LazySmp {
                skip, deeper, vote, ..
            } = lazy
            {
                all.push(Algorithm::LazySmp {
                    entries: 1024,
                    ways,
                    replacement,
                    entry_bytes,
                    skip,
                    deeper,
                    vote,
                    iterative: !vote,
                });
            }
        }
        all.push(abdada);
        for k in [1, 3, 4] {
            all.push(Algorithm::StagedSss { stage: k });
            all.push(Algorithm::Sab { top: Some(k) });
            all.push(Algorithm::Abs { top: Some(k) });
        }
        // Storage without a table is refused (invalid), so it has no name of its own.
        all.retain(|a| a.entry().invalid.is_none());
        let mut seen = std::collections::HashMap::new();
        for a in all {
            if let Some(b) = seen.insert(a.name(), a) {
                assert_eq!(a, b, "{a:?} and {b:?} share the name {}", a.name());
            }
        }
        assert_eq!(Algorithm::StagedSss { stage: 2 }.name(), "staged_sss");
        assert_eq!(Algorithm::Sab { top: Some(3) }.name(), "sab(3)");
    }

    #[test]
    fn options_that_make_no_search_are_refused_and_tables_are_stated() {
        assert!(Algorithm::StagedSss { stage: 0 }.entry().invalid.is_some());
        assert!(Algorithm::Sab { top: Some(0) }.entry().invalid.is_some());
        assert!(Algorithm::Abs { top: Some(0) }.entry().invalid.is_some());
        assert!(Algorithm::Abs { top: Some(1) }.entry().invalid.is_none());
        assert!(Algorithm::Parabelle {
            table: TableKind::None,
            storage: Storage::Partial,
        }
        .entry()
        .invalid
        .is_some());
        let global = Algorithm::Parabelle {
            table: TableKind::Global,
            storage: Storage::Partial,
        };
        assert_eq!(
            global.entry().table,
            Some((TableKind::Global, Storage::Partial))
        );
        assert!(global.has_table() && !Algorithm::ALL[1].has_table());
        assert!(global.entry().columns.contains(&"tt_probes"));
        // The shared-table schemes: a table with values is stated (values recorded, not
        // checked), a lazy_smp without a table or an abdada without values is checked.
        let lazy = Algorithm::ALL[20];
        assert!(lazy.has_table() && lazy.entry().table.is_none());
        assert_eq!(lazy.name(), "lazy_smp");
        assert!(lazy.entry().columns.contains(&"tt_overwrites"));
        let Algorithm::LazySmp {
            ways,
            replacement,
            entry_bytes,
            skip,
            deeper,
            vote,
            ..
        } = lazy
        else {
            unreachable!()
        };
        let bare = Algorithm::LazySmp {
            entries: 0,
            ways,
            replacement,
            entry_bytes,
            skip,
            deeper,
            vote,
            iterative: true,
        };
        assert!(!bare.has_table() && bare.entry().columns.is_empty());
        assert!(lazy.needs_memory() && !bare.needs_memory());
        assert_eq!(bare.name(), "lazy_smp_notable");
        assert!(Algorithm::LazySmp {
            entries: 0,
            ways: 2,
            replacement,
            entry_bytes,
            skip,
            deeper,
            vote,
            iterative: true,
        }
        .entry()
        .invalid
        .is_some());
        assert!(Algorithm::LazySmp {
            entries: 10,
            ways: 4,
            replacement,
            entry_bytes,
            skip,
            deeper,
            vote,
            iterative: true,
        }
        .entry()
        .invalid
        .is_some());
        let abdada = Algorithm::ALL[21];
        assert!(abdada.has_table());
        let Algorithm::Abdada { entries, .. } = abdada else {
            unreachable!()
        };
        let counts_only = Algorithm::Abdada {
            entries,
            ways,
            replacement,
            entry_bytes,
            values: false,
            iterative: false,
        };
        assert!(!counts_only.has_table() && counts_only.needs_memory());
        assert_eq!(counts_only.name(), "abdada_novalues_fixed");
        assert!(counts_only.deepens_by_itself() && !counts_only.entry().progressive);
        assert!(counts_only.entry().columns.contains(&"abdada_deferred"));
        assert!(Algorithm::Abdada {
            entries: 0,
            ways,
            replacement,
            entry_bytes,
            values: true,
            iterative: true,
        }
        .entry()
        .invalid
        .is_some());
    }

    #[test]
    fn processor_trees_and_depths_each_algorithm_applies_to() {
        let f4 = PTree::Paper {
            fanout: 4,
            length: 1,
        };
        let deep = PTree::Campbell { depth: 2, width: 2 };
        assert!(Algorithm::Pmws.unsupported(&f4, false).is_none());
        assert!(Algorithm::Pmws.unsupported(&deep, false).is_some());
        assert!(Algorithm::Ab.unsupported(&f4, false).is_some());
        assert!(Algorithm::Ab
            .unsupported(&PTree::UNIPROCESSOR, false)
            .is_none());
        let staged = Algorithm::StagedSss { stage: 2 };
        assert!(staged.unsupported(&deep, false).is_none());
        assert!(staged.not_applicable(&deep, 4).is_some());
        assert!(staged.not_applicable(&f4, 2).is_some());
        assert!(staged.not_applicable(&f4, 3).is_none());
        let pv = Algorithm::ALL[3];
        assert!(pv.not_applicable(&deep, 3).is_some());
        assert!(pv.not_applicable(&deep, 4).is_none());
        assert!(Algorithm::Sab { top: None }
            .not_applicable(&PTree::UNIPROCESSOR, 3)
            .is_some());
        // A master's tree as deep as the search, or deeper, is skipped as a stage or a
        // hybrid's top part is (it ran as one of the search's depth, labelled aphid(9)).
        for a in [Algorithm::Aphid { top: 3 }, Algorithm::Mwf { split: 3 }] {
            for p in [PTree::UNIPROCESSOR, f4] {
                assert!(a.not_applicable(&p, 2).is_some(), "{a} at 2 plies");
                assert!(a.not_applicable(&p, 3).is_some(), "{a} at 3 plies");
                assert!(a.not_applicable(&p, 4).is_none(), "{a} at 4 plies");
            }
        }
        assert!(Fit::Width(2).includes(3, 2) && !Fit::Width(2).includes(1, 4));
        assert!(Fit::Depth(1).includes(1, 8) && !Fit::Depth(1).includes(2, 2));
    }

    #[test]
    fn figure_columns_beyond_the_fixed_ones_follow_them() {
        let fixed = results_columns(&[Algorithm::Sss, Algorithm::ALL[1], Algorithm::Pmws]);
        assert_eq!(fixed, crate::results::COLUMNS);
        let more = crate::results::columns(&["open_peak", "rollbacks", "rollbacks"]);
        assert_eq!(more.len(), crate::results::COLUMNS.len() + 1);
        assert_eq!(more.last(), Some(&"rollbacks"));
    }
}
