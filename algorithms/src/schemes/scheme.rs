//! The scheme interface: how a parallel search algorithm is deployed onto a processor tree.
//!
//! A **scheme** (pmws, treesplit, …) is a set of **roles**, one per processor, each a
//! [`sim_hw::Program`]: a state machine that reacts to its start, to the messages it reads and to
//! the end of its searches, and asks the machine for actions (send, compute, search). The scheme
//! knows how to [deploy](Scheme::deploy) its roles onto a [`ProcessorTree`] (each role can ask
//! its [`Cx`](sim_hw::Cx) for its parent and children) and how to read the root value back from
//! them after the run. The hardware (links, costs, read policies) is the machine's business, not
//! the scheme's: the same roles run on any machine.
//!
//! What a role can rely on is stated on [`sim_hw::Program`]: callbacks come one at a time in
//! simulated-time order; `start` runs on every processor before any acts; a message is read when
//! the processor's read policy says (interrupt, poll, when idle); `Cx::idle_as` names the category
//! of the idle time that follows; a running search can be reached from `on_message` through
//! `Cx::search_mut` and `Cx::abort_search`, and a change takes effect from its next step.
//!
//! # Writing a scheme: a complete example
//!
//! A master hands each root move to its only child, which searches it (one leaf step per move)
//! and answers with the move's value; the master keeps the best.
//!
//! ```
//! use algorithms::{DeployError, GameTree, MoveList, Scheme, SyntheticSpec, SyntheticTree,
//!                  Ordering, Value, run_scheme};
//! use sim_core::{MsgKind, ProcId};
//! use sim_hw::*;
//!
//! /// The protocol: one enum, each message with its Table I type and size.
//! #[derive(Clone, Debug)]
//! enum Msg { Search(usize), Value(Value) }
//! impl Message for Msg {
//!     fn kind(&self) -> MsgKind { MsgKind::InterNode }
//!     fn bytes(&self) -> u64 { 4 }
//! }
//!
//! /// A search of one step: evaluate a node (cost e), then hand its value back.
//! struct Eval { value: Value, evaluated: bool }
//! impl Search for Eval {
//!     type Out = Value;
//!     fn step(&mut self) -> Step<Value> {
//!         if self.evaluated { return Step::Done(self.value); }
//!         self.evaluated = true;
//!         Step::Leaf { quiescence: 0 }
//!     }
//! }
//!
//! enum Role<'t> {
//!     Master { tree: &'t SyntheticTree, next: usize, best: Option<Value> },
//!     Child { tree: &'t SyntheticTree },
//! }
//! impl<'t> Program for Role<'t> {
//!     type Msg = Msg; type Out = Value; type Search = Eval;
//!     fn start(&mut self, cx: &mut Cx<Self>) {
//!         if let Role::Master { next, .. } = self {
//!             let child = cx.children()[0];
//!             cx.send(child, Msg::Search(*next));
//!         }
//!     }
//!     fn on_message(&mut self, from: ProcId, msg: Msg, cx: &mut Cx<Self>) {
//!         match (self, msg) {
//!             (Role::Child { tree }, Msg::Search(i)) => {
//!                 let root = tree.root();
//!                 let value = -tree.evaluate(&tree.play(&root, tree.moves(&root).get(i))).value;
//!                 cx.search(Eval { value, evaluated: false });
//!             }
//!             (Role::Master { tree, next, best }, Msg::Value(v)) => {
//!                 *best = Some(best.map_or(v, |b| b.max(v)));
//!                 *next += 1;
//!                 if *next < tree.moves(&tree.root()).len() {
//!                     cx.send(from, Msg::Search(*next));
//!                 }
//!             }
//!             _ => cx.fail("unexpected message"),
//!         }
//!     }
//!     fn on_done(&mut self, value: Value, cx: &mut Cx<Self>) {
//!         let parent = cx.parent().expect("only the child searches");
//!         cx.send(parent, Msg::Value(value));
//!     }
//! }
//!
//! /// The scheme: deploys the two roles and reads the root value back.
//! struct OneChild;
//! impl<'t> Scheme<'t, SyntheticTree> for OneChild {
//!     type Role = Role<'t>;
//!     fn name(&self) -> String { "one_child".into() }
//!     fn deploy(&self, tree: &'t SyntheticTree, ptree: &ProcessorTree)
//!         -> Result<Vec<Role<'t>>, DeployError> {
//!         if ptree.len() != 2 {
//!             return Err(DeployError::Shape { scheme: self.name(),
//!                                             needs: "exactly two processors".into() });
//!         }
//!         Ok(vec![Role::Master { tree, next: 0, best: None }, Role::Child { tree }])
//!     }
//!     fn root_value(&self, roles: &[Role<'t>]) -> Option<Value> {
//!         match roles.first() { Some(Role::Master { best, .. }) => *best, _ => None }
//!     }
//! }
//!
//! let spec = SyntheticSpec { width: 3, depth: 1, ordering: Ordering::Random,
//!                            value_spread: 100, horizon_noise: 0 };
//! let tree = SyntheticTree::new(spec, 5).unwrap();
//! let machine = MachineConfig::new(ProcessorTree::campbell(1, 1), CostModel::campbell(),
//!                                  LinkSpec::ideal());
//! let run = run_scheme(&OneChild, &tree, machine).unwrap();
//! assert_eq!(run.root_value, Some(tree.root().value));
//! // Three leaves of one time unit each, one after the other.
//! assert_eq!(run.stats.makespan.as_nanos(), 3);
//! ```

use crate::trees::{GameTree, Value};
use sim_core::RunStats;
use sim_hw::{Machine, MachineConfig, Platform, ProcessorTree, Program};

/// A parallel search algorithm: its roles, deployed onto a processor tree or a pool of
/// processors.
///
/// A scheme that runs on processor trees implements [`Scheme::deploy`]; one that runs on a pool
/// of processors (any processor addresses any other, [`sim_hw::Cx::send`] and
/// [`sim_hw::Cx::broadcast`]) implements [`Scheme::deploy_on`], which receives the whole
/// [`Platform`] (a tree, or a pool with its network). [`run_scheme`] calls `deploy_on`, whose
/// default hands a tree to `deploy` and refuses a pool.
pub trait Scheme<'t, T: GameTree + 't> {
    /// The role type every processor runs (an enum of the scheme's roles).
    type Role: Program;
    /// The algorithm's name in results (`pmws`, `treesplit`, `treesplit_update`, …).
    fn name(&self) -> String;
    /// One role per processor of `ptree` (index = processor number), or why this scheme cannot
    /// run on that tree with its search depth. By default: it cannot (a scheme for pools).
    fn deploy(&self, _tree: &'t T, _ptree: &ProcessorTree) -> Result<Vec<Self::Role>, DeployError> {
        Err(DeployError::Shape {
            scheme: self.name(),
            needs: "a pool of processors, not a processor tree".into(),
        })
    }
    /// One role per processor of `platform` (index = processor number), or why this scheme
    /// cannot run there. By default: [`Scheme::deploy`] on a processor tree; a pool is refused.
    ///
    /// ```
    /// # use algorithms::{DeployError, SyntheticTree, Value};
    /// # use sim_hw::*;
    /// # use sim_core::{MsgKind, ProcId};
    /// # #[derive(Clone)] struct Hello;
    /// # impl Message for Hello { fn kind(&self) -> MsgKind { MsgKind::Interactive } fn bytes(&self) -> u64 { 2 } }
    /// # struct Role;
    /// # impl Program for Role { type Msg = Hello; type Out = (); type Search = NoSearch<()>;
    /// #   fn start(&mut self, cx: &mut Cx<Self>) { if cx.me() == ProcId(0) { cx.broadcast(Hello) } }
    /// #   fn on_message(&mut self, _: ProcId, _: Hello, _: &mut Cx<Self>) {}
    /// #   fn on_done(&mut self, _: (), _: &mut Cx<Self>) {} }
    /// struct OnAPool;
    /// impl<'t> algorithms::Scheme<'t, SyntheticTree> for OnAPool {
    ///     type Role = Role;
    ///     fn name(&self) -> String { "on_a_pool".into() }
    ///     fn deploy_on(&self, _: &'t SyntheticTree, platform: &Platform)
    ///         -> Result<Vec<Role>, DeployError> {
    ///         match platform {
    ///             Platform::Pool { processors, .. } => Ok((0..*processors).map(|_| Role).collect()),
    ///             _ => Err(DeployError::Shape { scheme: self.name(),
    ///                                      needs: "a pool of processors".into() }),
    ///         }
    ///     }
    ///     fn root_value(&self, _: &[Role]) -> Option<Value> { None }
    /// }
    /// ```
    fn deploy_on(&self, tree: &'t T, platform: &Platform) -> Result<Vec<Self::Role>, DeployError> {
        match platform {
            Platform::Tree(ptree) | Platform::Overlay { tree: ptree, .. } => {
                self.deploy(tree, ptree)
            }
            Platform::Pool { .. } => Err(DeployError::Shape {
                scheme: self.name(),
                needs: "a processor tree, not a pool of processors".into(),
            }),
        }
    }
    /// The root value the roles found (None if the search did not finish).
    fn root_value(&self, roles: &[Self::Role]) -> Option<Value>;
    /// When the root's value was known: the scheme's own mark of that moment (its root role's
    /// `finished_at`), which can come before the machine is quiet (messages still on their
    /// way, helpers being stopped). None by default, and for a scheme that marks none.
    fn answer_at(&self, _roles: &[Self::Role]) -> Option<sim_core::SimTime> {
        None
    }
    /// The root move the roles chose, as its index in `tree.moves(&tree.root())` (tree order),
    /// or None for schemes that only return a value.
    fn root_move(&self, _roles: &[Self::Role]) -> Option<usize> {
        None
    }
    /// The figures the scheme reports beside the machine's statistics (the OPEN list's peak,
    /// transposition-table counters, …), each under its column name in results; none by
    /// default.
    fn figures(&self, _roles: &[Self::Role]) -> Figures {
        Figures::default()
    }
}

/// Per-run figures a scheme reports beside the machine's statistics ([`Scheme::figures`]): each
/// a column name of `results.csv` and its value, in the order reported. A figure a scheme does
/// not report is absent (an empty cell), not 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures(Vec<(&'static str, u64)>);

impl Figures {
    /// These figures and `name` = `value` (replacing an earlier value of `name`).
    pub fn with(mut self, name: &'static str, value: u64) -> Self {
        self.0.retain(|(n, _)| *n != name);
        self.0.push((name, value));
        self
    }
    /// The value of `name`, if reported.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }
    /// The figures, in the order reported.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.0.iter().copied()
    }
    /// Whether no figure is reported.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a scheme's run produced.
pub struct SchemeRun<R> {
    /// The root value the scheme found.
    pub root_value: Option<Value>,
    /// The machine's statistics.
    pub stats: RunStats,
    /// The roles after the run.
    pub roles: Vec<R>,
}

/// Why a scheme cannot be deployed ([`Scheme::deploy`]); `scheme` names it in the message.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum DeployError {
    /// A sequential search given more than one processor.
    #[error("{scheme} is a sequential search: it runs on one processor, not {processors}")]
    Sequential {
        /// The search's name.
        scheme: String,
        /// The processors it was given.
        processors: usize,
    },
    /// The search depth is 0.
    #[error("{scheme} needs a search depth of at least 1")]
    NoDepth {
        /// The scheme's name.
        scheme: String,
    },
    /// The processor tree has no slaves (a uniprocessor) where the scheme needs some.
    #[error("{scheme} needs a processor tree with slaves (depth at least 1)")]
    NoSlaves {
        /// The scheme's name.
        scheme: String,
    },
    /// The processor tree is too deep for a master and its children (pmws, Parabelle).
    #[error(
        "{scheme} runs on a processor tree of depth 1 (a master and its children), not depth \
         {depth}"
    )]
    MasterAndChildren {
        /// The scheme's name.
        scheme: String,
        /// The processor tree's depth.
        depth: u32,
    },
    /// The processor tree is too deep for a master and its slaves (parallel staged SSS*).
    #[error("parallel {scheme} runs on processor trees of depth 1 (a master and its slaves), not {depth}")]
    MasterAndSlaves {
        /// The scheme's name.
        scheme: String,
        /// The processor tree's depth.
        depth: u32,
    },
    /// The processor tree is not shallower than the search (pv-splitting).
    #[error(
        "{scheme} needs a processor tree shallower than the search: the processor tree's depth \
         {levels} is not less than the search depth {depth}"
    )]
    TreeNotShallower {
        /// The scheme's name.
        scheme: String,
        /// The processor tree's depth.
        levels: u32,
        /// The search depth.
        depth: u32,
    },
    /// Stages of 0 plies (staged SSS*).
    #[error("{scheme} needs stages of at least 1 ply")]
    NoStage {
        /// The scheme's name.
        scheme: String,
    },
    /// The search is no deeper than one stage, which leaves the slaves nothing to search.
    #[error(
        "parallel {scheme} needs a search depth above the stage depth ({stage}) so that the \
         slaves have plies to search, got {depth}"
    )]
    StageTooDeep {
        /// The scheme's name.
        scheme: String,
        /// The stage depth.
        stage: u32,
        /// The search depth.
        depth: u32,
    },
    /// Any other processor-tree shape the scheme cannot run on: it `needs` something else.
    #[error("{scheme} needs {needs}")]
    Shape {
        /// The scheme's name.
        scheme: String,
        /// What it needs (`exactly two processors`, …).
        needs: String,
    },
}

/// Why a scheme's run failed.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum SchemeError {
    /// The scheme cannot run on this processor tree.
    #[error(transparent)]
    Deploy(DeployError),
    /// The machine stopped the run.
    #[error(transparent)]
    Machine(#[from] sim_hw::MachineError),
}

/// Deploys `scheme` on the machine `config` describes and runs it on `tree`.
pub fn run_scheme<'t, T: GameTree + 't, S: Scheme<'t, T>>(
    scheme: &S,
    tree: &'t T,
    config: MachineConfig,
) -> Result<SchemeRun<S::Role>, SchemeError> {
    let roles = scheme
        .deploy_on(tree, &config.platform)
        .map_err(SchemeError::Deploy)?;
    let (stats, roles) = Machine::new(config, roles)?.run()?;
    Ok(SchemeRun {
        root_value: scheme.root_value(&roles),
        stats,
        roles,
    })
}
