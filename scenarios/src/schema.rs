//! The scenario schema: what a `.ron` scenario file may say. `scenarios/README.md` documents
//! every field for users; keep the two in step.
//!
//! Impossible values (a zero rate, a zero fanout, a probability above 1, …) are rejected while the
//! file is parsed, through validating newtypes, so the error carries the file's line and column.

use serde::Deserialize;

/// A whole scenario: hardware, workload, search, sweep, outputs (`scenarios/README.md` documents every field).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name, used for the default output folder and in results.
    pub name: Name,
    /// Free text for the reader of the file.
    #[serde(default)]
    pub description: String,
    /// The machine: costs, links, processor-tree length and read policies (or a machine file
    /// named by `machine`, which the loader puts here before reading the scenario).
    pub hardware: Hardware,
    /// What is searched.
    pub workload: Workload,
    /// The algorithm and whether it deepens progressively.
    pub search: Search,
    /// Which runs to make: processor trees, algorithms, seeds and tree configurations.
    pub sweep: Sweep,
    /// What to write besides results.csv, results.json and report.md. Default: every default.
    #[serde(default)]
    pub outputs: Outputs,
    /// Fields to vary, each by its path, over the values listed: the scenario runs once per
    /// combination (`vary: {"hardware.link.rate": [960, 480]}`). Default: none.
    #[serde(default)]
    pub vary: Vary,
}

/// The `vary` section: field paths in the order written, each with its values as RON text
/// (a number or `true`/`false` as written, a string's contents as RON: `"Ms(4)"`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vary(pub Vec<(String, Vec<String>)>);

impl<'de> Deserialize<'de> for Vary {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = Vary;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a map from field paths to lists of values, e.g. {\"hardware.link.rate\": [960, 480]}",
                )
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Vary, A::Error> {
                let mut out: Vec<(String, Vec<String>)> = Vec::new();
                while let Some(path) = m.next_key::<String>()? {
                    let values: Vec<VaryValue> = m.next_value()?;
                    if out.iter().any(|(p, _)| *p == path) {
                        return Err(serde::de::Error::custom(format!("{path} is varied twice")));
                    }
                    if values.is_empty() {
                        return Err(serde::de::Error::custom(format!(
                            "{path}: give at least one value"
                        )));
                    }
                    // A value listed twice (`4` and `4.0`, `Ms(4)` and `Us(4000)`, or the same
                    // text) is refused by the loader, which compares the values as it reads them.
                    out.push((path, values.into_iter().map(|v| v.0).collect()));
                }
                // Written but empty: a field to vary was meant (leave the section out for none).
                if out.is_empty() {
                    return Err(serde::de::Error::custom(
                        "vary lists no field: give at least one, e.g. {\"hardware.link.rate\": [960, 480]}, or leave vary out",
                    ));
                }
                Ok(Vary(out))
            }
        }
        d.deserialize_map(Fields)
    }
}

/// One value of a varied field, as RON text.
struct VaryValue(String);

/// The error for a varied value written as RON rather than as a string holding it.
pub(crate) const UNQUOTED: &str = "a value other than a number or true/false is written as a string holding its RON text: put it in double quotes, e.g. \"Ms(4)\" or \"Serial(rate: 480)\"";

impl<'de> Deserialize<'de> for VaryValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'v> serde::de::Visitor<'v> for Text {
            type Value = VaryValue;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, true/false, or a string holding RON text such as \"Ms(4)\"")
            }
            fn visit_u64<E>(self, v: u64) -> Result<VaryValue, E> {
                Ok(VaryValue(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<VaryValue, E> {
                Ok(VaryValue(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<VaryValue, E> {
                Ok(VaryValue(format!("{v:?}")))
            }
            fn visit_bool<E>(self, v: bool) -> Result<VaryValue, E> {
                Ok(VaryValue(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<VaryValue, E> {
                Ok(VaryValue(v.to_string()))
            }
            // A value written as it would be in the file (`Ms(2)`, `Serial(rate: 480)`,
            // `[1, 2]`): what is wrong is its missing quotes.
            fn visit_seq<A: serde::de::SeqAccess<'v>>(self, _: A) -> Result<VaryValue, A::Error> {
                Err(serde::de::Error::custom(UNQUOTED))
            }
            fn visit_map<A: serde::de::MapAccess<'v>>(self, _: A) -> Result<VaryValue, A::Error> {
                Err(serde::de::Error::custom(UNQUOTED))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<VaryValue, E> {
                Err(E::custom(UNQUOTED))
            }
            fn visit_enum<A: serde::de::EnumAccess<'v>>(self, _: A) -> Result<VaryValue, A::Error> {
                Err(serde::de::Error::custom(UNQUOTED))
            }
            fn visit_some<D2: serde::Deserializer<'v>>(
                self,
                _: D2,
            ) -> Result<VaryValue, D2::Error> {
                Err(serde::de::Error::custom(UNQUOTED))
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<VaryValue, E> {
                Err(E::custom(UNQUOTED))
            }
        }
        d.deserialize_any(Text)
    }
}

/// A scenario name: letters, digits, `-`, `_`, `.`; used as a folder name.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct Name(pub String);

impl TryFrom<String> for Name {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let ok = !s.is_empty()
            && s.len() <= 100
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && !s.starts_with('.');
        if ok {
            Ok(Name(s))
        } else {
            Err(format!(
                "name {s:?} must be 1-100 characters of letters, digits, '-', '_' or '.', not starting with '.'"
            ))
        }
    }
}

/// An integer that must be at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Positive(pub u64);

impl<'de> Deserialize<'de> for Positive {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = num::u64(d)?;
        Positive::try_from(v).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<u64> for Positive {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        if v == 0 {
            Err("must be at least 1, got 0".into())
        } else {
            Ok(Positive(v))
        }
    }
}

/// A duration: in time units, or in processor cycles at `hardware.clock_hz`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub enum Duration {
    /// Whole nanoseconds.
    Ns(#[serde(deserialize_with = "num::u64")] u64),
    /// Microseconds, rounded to the nearest nanosecond.
    Us(Amount),
    /// Milliseconds, rounded to the nearest nanosecond.
    Ms(Amount),
    /// Seconds, rounded to the nearest nanosecond.
    S(Amount),
    /// Processor cycles at `hardware.clock_hz`, rounded to the nearest nanosecond.
    Cycles(#[serde(deserialize_with = "num::u64")] u64),
}

/// A finite, non-negative amount of a time unit.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(try_from = "f64")]
pub struct Amount(pub f64);

impl TryFrom<f64> for Amount {
    type Error = String;
    fn try_from(v: f64) -> Result<Self, String> {
        // A million hours in the smallest unit, Us; the bound in the unit written is checked
        // where the duration becomes nanoseconds (`load::hardware::duration`).
        if (0.0..=1e6 * 3600.0 * 1e6).contains(&v) {
            Ok(Amount(v))
        } else {
            Err(format!(
                "a duration must be finite, non-negative and under a million hours, got {}",
                if v.is_finite() && v.abs() >= 1e16 {
                    format!("{v:e}")
                } else {
                    v.to_string()
                }
            ))
        }
    }
}

/// The machine (`hardware` section): what each step costs and how processors are connected.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hardware {
    /// Processor clock, used by `Cycles(..)` costs. Default 10 MHz (SUN-1's 68000).
    #[serde(default = "default_clock")]
    pub clock_hz: Positive,
    /// What each step costs (k, e, s, interrupt).
    pub costs: Costs,
    /// How each parent–child pair is connected (the root processor's lines; see `link_below`).
    pub link: Link,
    /// Processor tree length (levels of processors below the master) for `sweep.fanout`. pmws
    /// needs 1.
    #[serde(default = "one")]
    pub length: Positive,
    /// When each processor reads its line. Default: the algorithms' own (their catalogue
    /// entries': Parabelle's for pmws, interrupts everywhere for Campbell's schemes).
    #[serde(default)]
    pub reads: Reads,
    /// The lines below the root processor's own (level 2 and deeper) when they differ from
    /// `link`. Default: `link` at every level.
    #[serde(default)]
    pub link_below: Option<Link>,
    /// How processors are joined: `Tree` (a line of `link` per parent–child pair, the
    /// default), or a pool network over which any processor addresses any other:
    /// `FullyConnected` (a line of `link` between every pair that talks), `Hypercube(..)`,
    /// `Mesh(..)` (store-and-forward over lines of `link`) or `Bus(..)` (one shared medium;
    /// `link` is not used). Tree schemes run on a pool network as their processor tree laid
    /// over it (their messages take its routes); pool schemes (`ybwc`) need one.
    #[serde(default)]
    pub network: Option<Network>,
    /// Shared memory every processor reaches, for the shared-memory schemes (`lazy_smp`,
    /// `abdada`, `ybwc_shared`, `dts`): `(read: Ns(100), write: Ns(100), banks: 64)`, with an
    /// optional `numa: (per_node: 8, remote_factor: 2.0)`. Default: none (those schemes are
    /// refused). Message-passing schemes on the same machine do not use it.
    #[serde(default)]
    pub memory: Option<Memory>,
    /// Seeded timing noise: `(percent: 5.0, seed: 1)` multiplies every search step's cost
    /// (k, e + n q, probe) by 1 + x, x drawn uniformly from ±percent % per step from the run's
    /// seed (tree or position), this `seed` (default 0) and the processor, so a run stays
    /// reproducible and a `vary` over `hardware.jitter.seed` shows the spread on the same
    /// trees. Default: none (exact costs).
    #[serde(default)]
    pub jitter: Option<JitterOption>,
}

/// Seeded timing noise (`hardware.jitter`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JitterOption {
    /// The largest change of a step's cost, in percent (0 to 99.9, a multiple of 0.1: the
    /// noise is drawn in whole thousandths).
    pub percent: f64,
    /// Mixed with each run's own seed. Default 0.
    #[serde(default, deserialize_with = "num::u64")]
    pub seed: u64,
}

/// Shared memory (`hardware.memory`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Time of one read (a table probe, a look at a split point or a flag).
    pub read: Duration,
    /// Time of one write or read-modify-write (a table store, a result, a lock's test-and-set).
    pub write: Duration,
    /// Banks, each serving one access at a time (an address's bank is the address modulo
    /// `banks`; a table entry's address is its cache line).
    pub banks: Positive,
    /// Non-uniform access. Default: none (every bank as near as any other).
    #[serde(default)]
    pub numa: Option<NumaOption>,
}

/// Non-uniform memory access (`hardware.memory.numa`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumaOption {
    /// Processors per node (consecutive processor numbers); bank b's home is node b mod nodes.
    pub per_node: Positive,
    /// How many times a local access's latency a remote one takes (at least 1).
    pub remote_factor: f64,
}

/// How processors are joined (`hardware.network`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Network {
    /// The processor tree's own lines, one per parent–child pair (`link`, `link_below`).
    Tree,
    /// A full-duplex line of `link` between every pair of processors (built when a pair first
    /// talks); every route is one hop.
    FullyConnected,
    /// A binary hypercube (the processor count must be a power of two) of `link` lines;
    /// dimension-order routing, store-and-forward.
    Hypercube {
        /// Who forwards a message at an intermediate processor: `Software` (its CPU, in
        /// category message, preempting its work) or `Hardware` (a router: a pure delay).
        forwarding: Forwarding,
        /// The forwarding cost per message per intermediate processor.
        forward_cost: Duration,
    },
    /// A 2-D mesh (or torus) of `link` lines; XY routing, store-and-forward.
    Mesh {
        /// Processors per row. Default (with `height` left out too): the most nearly square
        /// width × height of each processor count, width ≥ height.
        #[serde(default)]
        width: Option<Positive>,
        /// Rows. Default: as `width`.
        #[serde(default)]
        height: Option<Positive>,
        /// Wrap-around lines at the edges. Default false.
        #[serde(default)]
        torus: bool,
        /// As for `Hypercube`.
        forwarding: Forwarding,
        /// As for `Hypercube`.
        forward_cost: Duration,
    },
    /// One shared medium of the Ethernet class: one frame at a time, FIFO by request time, no
    /// collisions; a broadcast is one frame.
    Bus {
        /// Bytes per second (1250000 for 10 Mbit/s Ethernet).
        rate: Positive,
        /// Framing bytes added to every message. Default 26 (Ethernet: preamble 8, addresses
        /// 12, type 2, CRC 4).
        #[serde(default = "ethernet_header", deserialize_with = "num::u64")]
        header_bytes: u64,
        /// Smallest frame in bytes, header included; shorter frames are padded. Default 64
        /// (Ethernet's minimum frame).
        #[serde(default = "ethernet_min_frame", deserialize_with = "num::u64")]
        min_frame_bytes: u64,
    },
}

/// Who forwards a message at an intermediate processor of a hypercube or mesh.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub enum Forwarding {
    /// The forwarding processor's CPU (the transputers routed in software).
    Software,
    /// A router beside each processor: a delay, the CPU is not charged.
    Hardware,
}

fn ethernet_header() -> u64 {
    26
}
fn ethernet_min_frame() -> u64 {
    64
}

/// When processors read their lines: those with children (`hosts`) and the others (`boards`).
/// Each left out is the algorithms' own (their catalogue entry's `reads`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reads {
    /// Default: the algorithms' (`Interrupt` for every parallel scheme, the SCI host of
    /// section V).
    #[serde(default)]
    pub hosts: Option<Read>,
    /// Default: the algorithms' (`WhenIdle` for pmws and Parabelle, the paper's bare child
    /// boards; `Interrupt` for Campbell's schemes, whose UPDATE and aborts reach running
    /// slaves).
    #[serde(default)]
    pub boards: Option<Read>,
}

/// When one processor reads an arrived message.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Read {
    /// On arrival: the message interrupts what the processor does; the handler costs
    /// `costs.interrupt`.
    Interrupt,
    /// A bare board that looks at its line every `every` nodes of its search, and when idle.
    Poll {
        /// Search steps (nodes) between two looks at the line: 1 to `u32::MAX`.
        #[serde(deserialize_with = "num::poll_every")]
        every: u32,
    },
    /// Only when it has nothing else to do.
    WhenIdle,
}

fn default_clock() -> Positive {
    Positive(10_000_000)
}
fn one() -> Positive {
    Positive(1)
}

/// The cost model of section VII.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Generate a node's moves (interior node).
    pub k: Duration,
    /// Evaluate a leaf (for synthetic trees, quiescence included).
    pub e: Duration,
    /// Each quiescence node a leaf's evaluation searched, charged with the leaf (chess trees;
    /// synthetic trees search none). Default 0.
    #[serde(default = "zero")]
    pub q: Duration,
    /// One transposition-table probe or store on the processor that holds the table (a search's
    /// own table, or the master serving a child's probe of the global table). Default 0.
    #[serde(default = "zero")]
    pub probe: Duration,
    /// Message setup, charged to the sending CPU per message. Default 0.
    #[serde(default = "zero")]
    pub s: Duration,
    /// Master's interrupt handler per arriving message. Default 0.
    #[serde(default = "zero")]
    pub interrupt: Duration,
}

fn zero() -> Duration {
    Duration::Ns(0)
}

/// How processors are connected.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Link {
    /// Parabelle: the master's serial communication interface, one RS-232 port per child.
    Sci {
        /// Bytes per second on each port (960 in the paper; 480 with four processors).
        rate: Positive,
        /// Hold a message to a busy child until it is ready to read. Default true.
        #[serde(default = "yes")]
        rts_cts: bool,
        /// Ports on the interface (children it can serve). Default 8.
        #[serde(default = "eight")]
        ports: Positive,
        /// Rates that replace `rate` on machines of a given number of processors, e.g.
        /// `{4: 480}` (the paper halved the rate with four processors); each processor count
        /// at least 1 and given once. Default: none.
        #[serde(default, deserialize_with = "num::rates")]
        rate_by_processors: std::collections::BTreeMap<u64, Positive>,
        /// The interface as a device: characters per second it moves itself, over all its
        /// ports and both directions together; ports slow down when together they need more.
        /// Default: unlimited (each port at `rate`, whatever the others do).
        #[serde(default)]
        capacity: Option<Positive>,
        /// CPU time of the host (the master) per character it reads from or writes to the
        /// interface's buffers (added to each arriving message's interrupt handler and to each
        /// sent message's setup). Default 0.
        #[serde(default = "zero")]
        host_char: Duration,
        /// CPU time of a child board per character it sends or receives (a bare board buffers
        /// two characters, so it takes each as it comes): added to a sent message's setup, and
        /// charged as message time, preempting its work, when a message arrives (on an
        /// interrupt-driven board: added to its interrupt handler). Default 0.
        #[serde(default = "zero")]
        board_char: Duration,
    },
    /// A plain serial line per parent-child pair, no port limit.
    Serial {
        /// Bytes per second in each direction.
        rate: Positive,
        /// Hold a message to a busy child until it is ready to read. Default false.
        #[serde(default)]
        rts_cts: bool,
        /// As for `Sci`. Default: none.
        #[serde(default, deserialize_with = "num::rates")]
        rate_by_processors: std::collections::BTreeMap<u64, Positive>,
    },
    /// Zero transmission time (Campbell-style); the setup `s` is still charged.
    Ideal,
}

fn yes() -> bool {
    true
}
fn eight() -> Positive {
    Positive(8)
}

/// What is searched.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Workload {
    /// Uniform trees from the weight-based generator (Reinefeld/Schaeffer/Marsland 4.1.1).
    Synthetic {
        /// Moves at every node, w (1–10000).
        width: Positive,
        /// Search depth d in plies (1–30).
        depth: Positive,
        /// How likely each move is to be the best one.
        ordering: Ordering,
        /// Window below the parent's value from which sibling values are drawn. Default 1000.
        #[serde(default = "default_spread")]
        value_spread: Positive,
        /// Static-evaluation noise per ply short of full depth. Default 50
        /// ([`DEFAULT_NOISE`]; None when the file leaves it out).
        #[serde(default, deserialize_with = "num::some_u32")]
        horizon_noise: Option<u32>,
    },
    /// Trees from Campbell's `gen` (thesis, Appendix 2): leaf values built by the odd/even
    /// construction, the best move's position drawn from `ordering` (section 2.2).
    Campbell {
        /// Successors of every interior node.
        width: Positive,
        /// Plies; every leaf is at this depth.
        depth: Positive,
        /// Where the best move of a node lies: `Random`, `FirstBest(p: …)`,
        /// `Geometric(p: …)` or `Perfect`.
        ordering: Ordering,
        /// The root value S, fixed (1..=127); left out, drawn per tree uniformly on 1..=127.
        #[serde(default)]
        root_score: Option<i64>,
    },
    /// Real chess positions (the `chess` crate's tree: legal moves, material and piece-square
    /// evaluation with capture quiescence), each searched to `depth` plies. Positions take the
    /// place of seeds: position n (1-based, in file order) is seed n of the sweep.
    Chess {
        /// Which positions: `BratkoKopec` or `Epd("file.epd")`.
        positions: Positions,
        /// Search depth in plies (horizon; quiescence searches captures beyond it).
        depth: Positive,
    },
}

/// The chess positions of a [`Workload::Chess`].
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum Positions {
    /// The 24 Bratko–Kopec positions shipped with gtsim (`chess/positions/bratko-kopec.epd`;
    /// the paper's boards A–X are BK.01–BK.24).
    BratkoKopec,
    /// The positions of an EPD file, relative to the scenario file: one per line, blank lines
    /// and lines starting with `#` skipped.
    Epd(String),
}

fn default_spread() -> Positive {
    Positive(1000)
}
/// A synthetic workload's `horizon_noise` when the file leaves it out.
pub const DEFAULT_NOISE: u32 = 50;

/// Move ordering of synthetic trees: the generator's own type, validated as it is read.
pub use algorithms::Ordering;

/// The search to run.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Search {
    /// The algorithm, run unless `sweep.algorithm` lists others.
    pub algorithm: Algorithm,
    /// Iterate depth 1, 2, …, d with the root moves sorted between iterations. Default: the
    /// algorithms' own (true for pmws and Parabelle, false for the others and on Campbell's
    /// trees).
    #[serde(default)]
    pub progressive_deepening: Option<bool>,
}

/// A search algorithm (`search.algorithm`, `sweep.algorithm`): the scheme catalogue's names.
pub use crate::catalogue::Algorithm;

/// Parabelle's transposition tables (`search.algorithm: Parabelle(table: …, storage: …)`).
pub use algorithms::{Storage, TableKind};

/// Which runs to make: every tree configuration (the workload, or every combination of the
/// width, depth and ordering lists given here) with every fanout and every seed.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Processor counts f (fanout of the paper's processor tree of `hardware.length`, master
    /// included). Default: none (then `ptree` must list some).
    #[serde(default)]
    pub fanout: Vec<Positive>,
    /// Campbell-style processor trees (depth, width): a root processor, `width` slaves under
    /// each non-terminal processor, `depth` levels. Default: none.
    #[serde(default)]
    pub ptree: Vec<PTreeShape>,
    /// Processor counts of machines of any network: a pool scheme (`ybwc`) runs on a pool of
    /// that many, a tree scheme on a master and that many − 1 children (the paper's tree of
    /// that fanout and length 1). Not together with `fanout` or `ptree`. Default: none.
    #[serde(default)]
    pub processors: Vec<Positive>,
    /// Algorithms to run instead of `search.algorithm`. Default: `search.algorithm`.
    #[serde(default)]
    pub algorithm: Vec<Algorithm>,
    /// Which trees to search: one per seed. Required for synthetic and Campbell trees; not
    /// given for chess (positions take the place of seeds).
    #[serde(default)]
    pub seeds: Option<Seeds>,
    /// For chess: the ids of the positions to search (e.g. `["BK.01", "BK.05"]`), in file
    /// order whatever the order here. Default: every position.
    #[serde(default)]
    pub positions: Vec<String>,
    /// Widths to sweep instead of the workload's `width`. Default: the workload's.
    #[serde(default)]
    pub width: Vec<Positive>,
    /// Depths to sweep instead of the workload's `depth`. Default: the workload's.
    #[serde(default)]
    pub depth: Vec<Positive>,
    /// (width, depth) pairs to sweep instead of every width with every depth, for experiments
    /// that are not a cross product (Campbell's (8,2) (16,2) … (8,6)). Not together with
    /// `width` or `depth`. Default: none.
    #[serde(default)]
    pub shape: Vec<TreeShape>,
    /// Orderings to sweep instead of the workload's `ordering`. Default: the workload's.
    #[serde(default)]
    pub ordering: Vec<Ordering>,
    /// Horizon noises to sweep instead of the workload's `horizon_noise`. Default: the workload's.
    #[serde(default, deserialize_with = "num::vec_u32")]
    pub horizon_noise: Vec<u32>,
}

/// A game tree's width and depth.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeShape {
    /// Successors of every interior node.
    pub width: Positive,
    /// Plies.
    pub depth: Positive,
}

/// A processor tree in Campbell's terms.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PTreeShape {
    /// Levels of slaves below the root processor.
    pub depth: Positive,
    /// Slaves of each non-terminal processor.
    pub width: Positive,
}

/// The seeds of the trees: one tree per seed, each an unsigned 64-bit integer.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Seeds {
    /// `count` consecutive seeds from `start`.
    Range {
        /// The first seed.
        #[serde(deserialize_with = "num::u64")]
        start: u64,
        /// How many seeds.
        count: Positive,
    },
    /// These seeds, in this order (no duplicates).
    List(#[serde(deserialize_with = "num::vec_u64")] Vec<u64>),
}

impl Seeds {
    /// How many seeds, computed without listing them.
    pub fn count(&self) -> u64 {
        match self {
            Seeds::Range { count, .. } => count.0,
            Seeds::List(v) => v.len() as u64,
        }
    }

    /// The seeds, or why they cannot be listed: a range whose last seed is above `u64::MAX`,
    /// or more than `limit` of them (checked before anything is allocated).
    pub fn list(&self, limit: u64) -> Result<Vec<u64>, String> {
        let n = self.count();
        if n > limit {
            return Err(format!("{n} seeds is more than the limit of {limit}"));
        }
        match self {
            Seeds::Range { start, count } => {
                let Some(_last) = start.checked_add(count.0 - 1) else {
                    return Err(format!(
                        "Range(start: {start}, count: {}) goes past the largest seed, {}",
                        count.0,
                        u64::MAX
                    ));
                };
                Ok((0..count.0).map(|i| start + i).collect())
            }
            Seeds::List(v) => Ok(v.clone()),
        }
    }
}

/// What to write besides results.csv, results.json and report.md.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outputs {
    /// Draw overheads.png and speedup.png (one panel per tree configuration). Default true.
    #[serde(default = "yes")]
    pub plots: bool,
    /// The synchronization-overhead study: sync-overhead.png, sync-overhead.csv and its section
    /// of report.md. Default false.
    #[serde(default)]
    pub sync_study: bool,
    /// One run to draw as timeline.png (and to write with `--trace`). Default: none.
    #[serde(default)]
    pub timeline: Option<TimelineRun>,
    /// A CSV of published figures to set beside the results in report.md, relative to the
    /// scenario file (e.g. the paper's Table II). Default: none.
    #[serde(default)]
    pub reference: Option<String>,
    /// For a plan of sequential searches (every processor tree a uniprocessor): the file name
    /// of a chart of leaf nodes as a percentage of the minimal tree, against depth and against
    /// width, one panel per ordering and fixed width or depth (Reinefeld et al., Figs. 5-7),
    /// e.g. "reinefeld.png". Default: none.
    #[serde(default)]
    pub minimal_chart: Option<String>,
    /// For chess: a table per position in report.md (board, leaf nodes, minutes, move chosen,
    /// speedups: the layout of the paper's Table IV). Default false; 6-ply chess plans and plans
    /// compared with a per-board reference table always have it.
    #[serde(default)]
    pub per_position: bool,
    /// For chess plans sweeping two fanouts or more: draw fig7.png, the paper's Fig. 7
    /// ("Average overheads for 5-ply searches"): simulated search, communication (time −
    /// search, as the paper defines it), time and synchronization overhead against f, the
    /// published points of a Table II-layout `reference` beside them, and f/2w with w the mean
    /// root width. Default false; an error on other plans.
    #[serde(default)]
    pub fig7: bool,
    /// Compare the sweep's parallel schemes: schemes.png (speedup against processors, one line
    /// per scheme, log–log), schemes-overheads.png (search, communication and synchronization
    /// overhead per scheme at `at` processors, stacked bars) and report.md's tables of both.
    /// Default: none.
    #[serde(default)]
    pub schemes: Option<SchemesOutput>,
    /// Chess, with a `vary` section: the paper's tables (files beside the scenario, in Table
    /// II's or Table III's layout) to set every combination of the varied costs against, as
    /// `cost-inference.png` and a section of the vary folder's report.md (which values of the
    /// costs the paper does not state reproduce its time overheads and its speedups). Default:
    /// none.
    #[serde(default)]
    pub inference: Vec<String>,
}

/// `outputs.schemes`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemesOutput {
    /// The processor count of the overhead bars and table; one of the sweep's.
    pub at: Positive,
    /// The charts' file name: NAME.png (speedups) and NAME-overheads.png (the bars). Letters,
    /// digits, '-' and '_'. Default `schemes`.
    #[serde(default)]
    pub name: Option<String>,
}

impl SchemesOutput {
    /// The speedup chart's and the overhead bars' file names.
    pub fn files(&self) -> (String, String) {
        let name = self.name.as_deref().unwrap_or("schemes");
        (format!("{name}.png"), format!("{name}-overheads.png"))
    }
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs {
            plots: true,
            sync_study: false,
            timeline: None,
            reference: None,
            minimal_chart: None,
            per_position: false,
            fig7: false,
            schemes: None,
            inference: Vec::new(),
        }
    }
}

/// Names one run of the sweep. Width, depth and ordering default to the first configuration.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimelineRun {
    /// The run's fanout f; must be in `sweep.fanout`.
    pub fanout: Positive,
    /// The run's seed; must be among the sweep's seeds (for chess, the position's number).
    #[serde(deserialize_with = "num::u64")]
    pub seed: u64,
    /// The configuration's width, when the sweep has several. Default: the first configuration's.
    #[serde(default)]
    pub width: Option<Positive>,
    /// The configuration's depth. Default: the first configuration's.
    #[serde(default)]
    pub depth: Option<Positive>,
    /// The configuration's ordering. Default: the first configuration's.
    #[serde(default)]
    pub ordering: Option<Ordering>,
    /// The configuration's horizon noise. Default: the first configuration's.
    #[serde(default, deserialize_with = "num::opt_u32")]
    pub horizon_noise: Option<u32>,
}

/// Integers read so that a wrong number says what was expected and what was found
/// (`expected an unsigned integer, found the float 8.5`) instead of a syntax error: the value is
/// read as any number and then checked.
pub mod num {
    use serde::de::{Error, Visitor};
    use serde::{Deserialize, Deserializer};
    use std::fmt;

    struct Uint(u64);

    impl<'de> Deserialize<'de> for Uint {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(UintVisitor)
        }
    }

    struct UintVisitor;

    impl<'de> Visitor<'de> for UintVisitor {
        type Value = Uint;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an unsigned integer")
        }
        fn visit_u64<E: Error>(self, v: u64) -> Result<Uint, E> {
            Ok(Uint(v))
        }
        fn visit_i64<E: Error>(self, v: i64) -> Result<Uint, E> {
            u64::try_from(v).map(Uint).map_err(|_| {
                E::custom(format!(
                    "expected an unsigned integer, found the negative number {v}"
                ))
            })
        }
        fn visit_u128<E: Error>(self, v: u128) -> Result<Uint, E> {
            u64::try_from(v).map(Uint).map_err(|_| {
                E::custom(format!(
                    "expected an unsigned integer, found {v}, above the largest ({})",
                    u64::MAX
                ))
            })
        }
        fn visit_i128<E: Error>(self, v: i128) -> Result<Uint, E> {
            u64::try_from(v).map(Uint).map_err(|_| {
                E::custom(format!(
                    "expected an unsigned integer from 0 to {}, found {v}",
                    u64::MAX
                ))
            })
        }
        fn visit_f64<E: Error>(self, v: f64) -> Result<Uint, E> {
            let why = if v.is_finite() && v.fract() == 0.0 && v.abs() >= 1.8e19 {
                format!(
                    "expected an unsigned integer, found {v:e}, above the largest ({})",
                    u64::MAX
                )
            } else if v.is_finite() && v.fract() == 0.0 {
                format!("expected an unsigned integer, found the float {v} (write it without a decimal point or exponent)")
            } else {
                format!("expected an unsigned integer, found the float {v}")
            };
            Err(E::custom(why))
        }
    }

    fn narrow_u32<E: Error>(v: u64) -> Result<u32, E> {
        u32::try_from(v).map_err(|_| {
            E::custom(format!(
                "expected an unsigned integer up to {}, found {v}",
                u32::MAX
            ))
        })
    }

    /// Reads an unsigned 64-bit integer (a float, even a whole one, is an error).
    pub fn u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        Uint::deserialize(d).map(|x| x.0)
    }
    /// Reads an unsigned integer up to `u32::MAX`.
    pub fn u32<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        narrow_u32(u64(d)?)
    }
    /// Reads a list of unsigned 64-bit integers.
    pub fn vec_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
        Ok(Vec::<Uint>::deserialize(d)?
            .into_iter()
            .map(|x| x.0)
            .collect())
    }
    struct Uint32(u32);

    impl<'de> Deserialize<'de> for Uint32 {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            narrow_u32(u64(d)?).map(Uint32)
        }
    }

    /// Reads a list of unsigned integers up to `u32::MAX`.
    pub fn vec_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        Ok(Vec::<Uint32>::deserialize(d)?
            .into_iter()
            .map(|x| x.0)
            .collect())
    }
    /// Reads an unsigned integer up to `u32::MAX` into `Some`, for a field whose absence (only)
    /// means its default: `None` or `Some(…)` written in the file is an error, as for [`u32`].
    pub fn some_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        u32(d).map(Some)
    }
    /// Reads a link's rates by processor count (`{4: 480}`): each key a processor count (at
    /// least 1) given once, each rate at least 1. A key written twice is an error at the second
    /// (a map would keep the last without a word), as is a machine of 0 processors.
    pub fn rates<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<std::collections::BTreeMap<u64, super::Positive>, D::Error> {
        struct Rates;
        impl<'de> Visitor<'de> for Rates {
            type Value = std::collections::BTreeMap<u64, super::Positive>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from processor counts to rates in bytes/s, e.g. {4: 480}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = std::collections::BTreeMap::new();
                while let Some(Uint(n)) = m.next_key::<Uint>()? {
                    if n == 0 {
                        return Err(A::Error::custom(
                            "a processor count must be at least 1, got 0 (no machine has 0 processors)",
                        ));
                    }
                    if out.contains_key(&n) {
                        return Err(A::Error::custom(format!(
                            "the processor count {n} is given twice: give each count one rate"
                        )));
                    }
                    let rate: super::Positive = m.next_value()?;
                    out.insert(n, rate);
                }
                Ok(out)
            }
        }
        d.deserialize_map(Rates)
    }
    /// Reads `Poll(every: N)`'s N: from 1 to `u32::MAX`, the most nodes the engine counts
    /// between two looks at a line (a larger N was clamped to it without a word).
    pub fn poll_every<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        match u64(d)? {
            0 => Err(D::Error::custom("must be at least 1, got 0")),
            n => u32::try_from(n).map_err(|_| {
                D::Error::custom(format!(
                    "the nodes between two looks at the line are at most {} (the engine counts them in 32 bits), got {n}; a processor that reads only when it has nothing else to do is WhenIdle",
                    u32::MAX
                ))
            }),
        }
    }
    /// Reads an optional unsigned integer up to `u32::MAX`.
    pub fn opt_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        Option::<Uint>::deserialize(d)?
            .map(|x| narrow_u32(x.0))
            .transpose()
    }
}
