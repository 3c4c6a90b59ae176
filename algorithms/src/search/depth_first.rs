//! The one explicit-stack engine that every depth-first search runs on: alpha-beta, PVS,
//! palphabeta, SCOUT, NegaScout, INS and PNS ([`crate::SequentialSearch`]s), the alpha-beta
//! stage of the SSS* hybrids and Parabelle's PVS with tables.
//!
//! **The engine** ([`DepthFirst`]) owns what every depth-first search does the same way: a stack
//! of open [`Frame`]s (an interior node, its moves generated once, their number, the window, the
//! remaining depth, the successor being searched, the best score so far), the [`Call`] waiting
//! to be entered, the value coming back from the last call, entering a call (evaluating a leaf or
//! generating the moves of an interior node: one costed step each), playing the move of the
//! successor a frame asks for, popping a frame, window changes on the whole stack (Campbell's
//! UPDATE, [`crate::SequentialSearch`]'s contract) and abort.
//!
//! **A search** is a [`Policy`]: what it keeps per frame and per call, what a call returns, and
//! what it decides at a node: which successor comes first and with what window
//! ([`Policy::open`]), and what to do with a value that comes back ([`Policy::returned`]): search
//! the next successor, search the same one again (a re-search), or close the node with a value.
//! A policy can also probe a transposition table before a node is expanded, store into it when
//! the node closes, and suspend the search to wait for an answer from elsewhere.
//! [`SequentialPolicy`] adds what [`crate::SequentialSearch::new`] needs; every
//! `DepthFirst<'t, T, P>` with such a policy is a [`crate::SequentialSearch`]
//! ([`crate::AlphaBeta`] is `DepthFirst<'t, T, AlphaBetaPolicy>`, and so on).
//!
//! Policies are type parameters, so each search is compiled on its own (no dynamic dispatch in
//! the step loop).
//!
//! ```
//! use algorithms::search::depth_first::{Call, Child, DepthFirst, Enter, Flow, Frame, Policy,
//!                                       SequentialPolicy};
//! use algorithms::{negamax, GameTree, Ordering, SequentialSearch, SyntheticSpec,
//!                  SyntheticTree, Value};
//! use sim_hw::{run_alone, CostModel};
//!
//! /// Negamax: every successor with the node's window negated, no cutoffs.
//! #[derive(Clone, Default)]
//! struct Minimax;
//!
//! impl<T: GameTree> Policy<T> for Minimax {
//!     type Frame = ();
//!     type Call = ();
//!     type Ret = Value;
//!     type Yield = std::convert::Infallible;
//!     fn leaf(&mut self, _: &Call<T::Node, ()>, value: Value) -> Value {
//!         value
//!     }
//!     fn open(&mut self, _: &T, call: &mut Call<T::Node, ()>, _: &T::Moves)
//!         -> Enter<(), (), Value, Self::Yield> {
//!         Enter::Expand((), Child::first(call, ()))
//!     }
//!     fn returned(&mut self, f: &mut Frame<T, ()>, r: Value) -> Flow<(), Value, Self::Yield> {
//!         f.score = f.score.max(-r);
//!         f.i += 1;
//!         if f.i == f.width {
//!             return Flow::Return(f.score);
//!         }
//!         Flow::Call(Child::new(f.i, -f.beta, -f.alpha, ()))
//!     }
//! }
//!
//! impl<T: GameTree> SequentialPolicy<T> for Minimax {}
//!
//! let spec = SyntheticSpec { width: 3, depth: 3, ordering: Ordering::Random,
//!                            value_spread: 100, horizon_noise: 0 };
//! let tree = SyntheticTree::new(spec, 1).unwrap();
//! let mut s = DepthFirst::<_, Minimax>::new(&tree, tree.root(), -1000, 1000, 3);
//! let (v, work) = run_alone(&mut s, &CostModel::campbell());
//! assert_eq!(v, negamax(&tree, &tree.root(), 3));
//! assert_eq!(work.nodes.leaves, 27);
//! ```

use crate::search::sequential::{Narrow, SequentialSearch, ABORTED};
use crate::trees::{GameTree, MoveList, Value, INF};
use sim_hw::{Search, Step};

/// An open call: an interior node whose successors are being searched.
pub struct Frame<T: GameTree, S> {
    /// The node.
    pub node: T::Node,
    /// Its moves, generated once when the frame opened.
    pub moves: T::Moves,
    /// How many moves it has.
    pub width: usize,
    /// The window, narrowed by window changes; policies raise `alpha` with the score too.
    pub alpha: Value,
    /// See `alpha`.
    pub beta: Value,
    /// Plies left below the node (at least 1).
    pub depth: u32,
    /// The position of the successor being searched in the policy's order (the move order
    /// unless the policy searches the moves in another one): 0 when the frame opens.
    pub i: usize,
    /// The best score so far, `-INF` when the frame opens.
    pub score: Value,
    /// What the policy keeps for this node.
    pub state: S,
}

impl<T: GameTree, S: Clone> Clone for Frame<T, S> {
    fn clone(&self) -> Self {
        Frame {
            node: self.node.clone(),
            moves: self.moves.clone(),
            width: self.width,
            alpha: self.alpha,
            beta: self.beta,
            depth: self.depth,
            i: self.i,
            score: self.score,
            state: self.state.clone(),
        }
    }
}

impl<T: GameTree, S> Frame<T, S> {
    /// Moves on to the next successor; whether there is one to search: not past the last one,
    /// and no cutoff yet (`score < beta`).
    #[inline]
    pub fn advance(&mut self) -> bool {
        self.i += 1;
        self.i < self.width && self.score < self.beta
    }
}

/// A call waiting to be entered: `search(node, alpha, beta, depth)` and what the policy passes
/// down with it.
#[derive(Clone)]
pub struct Call<N, C> {
    /// The node.
    pub node: N,
    /// Its window (the caller's negated), narrowed by window changes until it is entered.
    pub alpha: Value,
    /// See `alpha`.
    pub beta: Value,
    /// Plies left below it.
    pub depth: u32,
    /// What the policy passes down with the call.
    pub state: C,
}

/// A successor for the engine to search: the move (its index in the node's move order), the
/// successor's window and what goes down with the call. Its depth is the frame's minus one.
pub struct Child<C> {
    /// The move's index in [`Frame::moves`].
    pub index: usize,
    /// The successor's window, in its own view.
    pub alpha: Value,
    /// See `alpha`.
    pub beta: Value,
    /// What goes down with the call.
    pub state: C,
}

impl<C> Child<C> {
    /// Successor `index` with the window `(alpha, beta)` in its own view.
    #[inline]
    pub fn new(index: usize, alpha: Value, beta: Value, state: C) -> Self {
        Child {
            index,
            alpha,
            beta,
            state,
        }
    }

    /// The first move of the node `call` enters, with its window negated: `(-beta, -alpha)`.
    #[inline]
    pub fn first<N, D>(call: &Call<N, D>, state: C) -> Self {
        Child::new(0, -call.beta, -call.alpha, state)
    }
}

/// What a policy does with a call to a node that has successors ([`Policy::open`]).
pub enum Enter<S, C, R, Y> {
    /// Open a frame with this state (a costed [`Event::Interior`] step) and search this
    /// successor first.
    Expand(S, Child<C>),
    /// A probe of the processor's own table was made (a costed [`Event::Probe`] step); the call
    /// is entered again at the next step.
    Probe,
    /// Suspend the search before the node ([`Event::Yield`]); the call stays pending (its state
    /// can be changed through [`DepthFirst::pending_call`]) and is entered again at the next step.
    Yield(Y),
    /// The node's value is known without searching it (a table cutoff): no step, the value goes
    /// to the caller at once.
    Return(R),
}

/// What a policy does with a value that came back to a frame ([`Policy::returned`]).
pub enum Flow<C, R, Y> {
    /// Search this successor (the next one, or the same one again).
    Call(Child<C>),
    /// Close the frame: this value goes to its caller.
    Return(R),
    /// Close the frame, with a costed [`Event::Probe`] step (a store into its own table).
    ReturnProbe(R),
    /// Close the frame, and suspend the search at once with this ([`Event::Yield`]; a store
    /// into a table held elsewhere). The value goes to the caller at the next step.
    ReturnYield(R, Y),
}

/// What a policy that tables leaves does before a leaf is evaluated ([`Policy::at_leaf`]).
pub enum AtLeaf<R, Y> {
    /// Evaluate it (a costed [`Event::Leaf`] step).
    Evaluate,
    /// A probe of the processor's own table was made (a costed [`Event::Probe`] step); the call
    /// is entered again at the next step.
    Probe,
    /// Suspend the search before the leaf ([`Event::Yield`]); the call stays pending and is
    /// entered again at the next step.
    Yield(Y),
    /// The leaf's value is known without evaluating it (a table cutoff): no step.
    Return(R),
}

/// What a policy that tables leaves does after a leaf was evaluated ([`Policy::store_leaf`]):
/// a costed step of its own before the value goes to the caller.
pub enum LeafStore<Y> {
    /// A store into the processor's own table (a costed [`Event::Probe`] step).
    Probe,
    /// Suspend the search with this ([`Event::Yield`]; a store into a table held elsewhere).
    Yield(Y),
}

/// What one [`DepthFirst::advance`] did.
pub enum Event<N, Y> {
    /// Generated the moves of an interior node (cost `k`).
    Interior,
    /// Evaluated a horizon or terminal node, which searched this many quiescence nodes.
    Leaf(u32),
    /// Probed or stored into the processor's own table (cost `probe`).
    Probe,
    /// A horizon node for the caller to value ([`Policy::CALLER_VALUES_HORIZON`]), with its
    /// window in its own view; the search goes on after [`DepthFirst::resolve`].
    Await {
        /// The horizon node.
        node: N,
        /// Its window, in its own view.
        alpha: Value,
        /// See `alpha`.
        beta: Value,
    },
    /// The policy suspended the search ([`Enter::Yield`], [`Flow::ReturnYield`]).
    Yield(Y),
    /// The search is over: [`DepthFirst::result`] holds the root's value (and every further
    /// advance says `Done` again).
    Done,
}

/// A depth-first search's decisions at a node (see the module doc).
pub trait Policy<T: GameTree>: Clone {
    /// What the policy keeps per open frame.
    type Frame: Clone;
    /// What a call carries down besides its node, window and depth.
    type Call: Clone;
    /// What a call returns to its caller.
    type Ret: Clone;
    /// What the search hands its caller when it suspends ([`std::convert::Infallible`] for a
    /// search that never does).
    type Yield;

    /// Whether a horizon node (depth 0) is valued by the caller ([`Event::Await`]) instead of
    /// being evaluated statically. Terminal nodes above the horizon are evaluated statically.
    const CALLER_VALUES_HORIZON: bool = false;

    /// Whether the policy looks at a leaf it evaluates itself before and after the evaluation
    /// ([`Policy::at_leaf`], [`Policy::store_leaf`]), e.g. to probe and store a table there.
    /// False (the default): neither hook is called, at no cost to the step loop.
    const TABLES_LEAVES: bool = false;

    /// The value a call returns for a leaf (a horizon or terminal node) evaluated to `value`.
    fn leaf(&mut self, call: &Call<T::Node, Self::Call>, value: Value) -> Self::Ret;

    /// A call to a node with successors (`moves`, not empty) is entered: open a frame and say
    /// which successor to search first, or probe a table, suspend, or return at once.
    fn open(
        &mut self,
        tree: &T,
        call: &mut Call<T::Node, Self::Call>,
        moves: &T::Moves,
    ) -> Enter<Self::Frame, Self::Call, Self::Ret, Self::Yield>;

    /// A value `r` came back to the top frame `f` from the successor it searched (at position
    /// `f.i`): back it up and say what comes next.
    fn returned(
        &mut self,
        f: &mut Frame<T, Self::Frame>,
        r: Self::Ret,
    ) -> Flow<Self::Call, Self::Ret, Self::Yield>;

    /// A leaf the policy evaluates itself (a horizon or terminal node) is entered: evaluate it,
    /// or probe a table, suspend, or return at once. Called only if [`Policy::TABLES_LEAVES`],
    /// every time the call is entered (again after a probe or a suspension).
    #[inline]
    fn at_leaf(
        &mut self,
        _tree: &T,
        _call: &mut Call<T::Node, Self::Call>,
    ) -> AtLeaf<Self::Ret, Self::Yield> {
        AtLeaf::Evaluate
    }

    /// A step to take before anything else at this step: a store of the leaf evaluated at the
    /// last one, before its value goes to the caller; None (at every other step). Called only
    /// if [`Policy::TABLES_LEAVES`], at the start of every step.
    #[inline]
    fn store_leaf(&mut self) -> Option<LeafStore<Self::Yield>> {
        None
    }

    /// The windows were just narrowed (Campbell's UPDATE).
    #[inline]
    fn narrowed(&mut self) {}

    /// Whether a copy of a search run by this policy owns everything its steps change, so that
    /// the machine may keep one to go back to ([`Search::fork`]). False (the default) for a
    /// policy that shares state outside the search, e.g. a table.
    fn forkable(&self) -> bool {
        false
    }

    /// The whole search of `node` with the window `(alpha, beta)` to `depth`, run at once by a
    /// faster route that takes exactly the steps this policy takes with a window that does not
    /// change (counted into `tally`): its root's return. None (the default): no such route.
    fn run_to_end(
        &mut self,
        _tree: &T,
        _node: &T::Node,
        _window: (Value, Value),
        _depth: u32,
        _tally: &mut sim_hw::Tally,
    ) -> Option<Self::Ret> {
        None
    }
}

/// What the return of a search's root call says about the root's value.
pub trait RootValue {
    /// The root's value (side to move), as [`SequentialSearch`] defines it.
    fn root_value(&self) -> Value;
}

impl RootValue for Value {
    #[inline]
    fn root_value(&self) -> Value {
        *self
    }
}

/// A policy that is a [`SequentialSearch`] of its own: it never suspends, starts as its
/// `Default` with the default call state at the root, and its root's return says the value.
pub trait SequentialPolicy<T: GameTree>:
    Policy<T, Yield = std::convert::Infallible, Call: Default, Ret: RootValue> + Default
{
}

/// A depth-first search run step by step by the policy `P` (see the module doc).
pub struct DepthFirst<'t, T: GameTree, P: Policy<T>> {
    tree: &'t T,
    stack: Vec<Frame<T, P::Frame>>,
    /// The call to enter at the next step.
    call: Option<Call<T::Node, P::Call>>,
    /// A value returned by the last call, to back up at the next step (the result, once the
    /// stack is empty).
    ret: Option<P::Ret>,
    /// The window of the horizon node the caller is valuing ([`Event::Await`]).
    awaited: Option<(Value, Value)>,
    /// The root's window as given and narrowed since.
    window: (Value, Value),
    aborted: bool,
    policy: P,
}

/// A copy of the search as it stands (the tree is shared: it is read only).
impl<T: GameTree, P: Policy<T>> Clone for DepthFirst<'_, T, P> {
    fn clone(&self) -> Self {
        DepthFirst {
            tree: self.tree,
            stack: self.stack.clone(),
            call: self.call.clone(),
            ret: self.ret.clone(),
            awaited: self.awaited,
            window: self.window,
            aborted: self.aborted,
            policy: self.policy.clone(),
        }
    }
}

impl<'t, T: GameTree, P: Policy<T>> DepthFirst<'t, T, P> {
    /// The search of `node` to `depth` plies with the window `(alpha, beta)`, run by `policy`,
    /// not yet started; `state` goes down with the root call.
    pub fn with_policy(
        tree: &'t T,
        node: T::Node,
        (alpha, beta): (Value, Value),
        depth: u32,
        policy: P,
        state: P::Call,
    ) -> Self {
        DepthFirst {
            tree,
            stack: Vec::new(),
            call: Some(Call {
                node,
                alpha,
                beta,
                depth,
                state,
            }),
            ret: None,
            awaited: None,
            window: (alpha, beta),
            aborted: false,
            policy,
        }
    }

    /// The policy (for what it counts).
    pub fn policy_mut(&mut self) -> &mut P {
        &mut self.policy
    }

    /// The call to be entered at the next step, if any (to hand it the answer a search
    /// suspended for, [`Enter::Yield`]).
    pub fn pending_call(&mut self) -> Option<&mut Call<T::Node, P::Call>> {
        self.call.as_mut()
    }

    /// The window of the horizon node being valued by the caller ([`Event::Await`]).
    pub fn awaited_window(&self) -> Option<(Value, Value)> {
        self.awaited
    }

    /// The caller's value of the horizon node it was handed ([`Event::Await`]).
    pub fn resolve(&mut self, r: P::Ret) {
        self.awaited.take().expect("a horizon node being valued");
        self.ret = Some(r);
    }

    /// The root's return once the search is [`Event::Done`].
    pub fn result(&self) -> Option<&P::Ret> {
        self.ret
            .as_ref()
            .filter(|_| self.stack.is_empty() && self.call.is_none())
    }

    /// Takes the root's return once the search is [`Event::Done`] (a further advance panics).
    pub fn take_result(&mut self) -> Option<P::Ret> {
        debug_assert!(self.stack.is_empty() && self.call.is_none());
        self.ret.take()
    }

    /// Narrows the root's window, every open frame's and the pending call's (Campbell's UPDATE;
    /// see [`SequentialSearch`]).
    pub(crate) fn narrow(&mut self, change: Narrow) {
        change.apply(0, &mut self.window.0, &mut self.window.1);
        for (ply, f) in self.stack.iter_mut().enumerate() {
            change.apply(ply, &mut f.alpha, &mut f.beta);
        }
        let ply = self.stack.len();
        if let Some(c) = &mut self.call {
            change.apply(ply, &mut c.alpha, &mut c.beta);
        }
        if let Some((a, b)) = &mut self.awaited {
            change.apply(ply, a, b);
        }
        self.policy.narrowed();
    }

    /// Runs to the next costed step, suspension or the end (free bookkeeping in between).
    #[inline]
    pub fn advance(&mut self) -> Event<T::Node, P::Yield> {
        debug_assert!(self.awaited.is_none(), "a horizon value is still awaited");
        let tree = self.tree;
        if P::TABLES_LEAVES {
            match self.policy.store_leaf() {
                Some(LeafStore::Probe) => return Event::Probe,
                Some(LeafStore::Yield(y)) => return Event::Yield(y),
                None => {}
            }
        }
        loop {
            // 1. Enter a pending call: one costed step.
            if let Some(mut call) = self.call.take() {
                let moves = if call.depth > 0 {
                    let moves = tree.moves(&call.node);
                    (!moves.is_empty()).then_some(moves)
                } else {
                    None
                };
                let Some(moves) = moves else {
                    // The horizon, or a terminal node.
                    if P::CALLER_VALUES_HORIZON && call.depth == 0 {
                        self.awaited = Some((call.alpha, call.beta));
                        return Event::Await {
                            node: call.node,
                            alpha: call.alpha,
                            beta: call.beta,
                        };
                    }
                    if P::TABLES_LEAVES {
                        match self.policy.at_leaf(tree, &mut call) {
                            AtLeaf::Evaluate => {}
                            AtLeaf::Probe => {
                                self.call = Some(call);
                                return Event::Probe;
                            }
                            AtLeaf::Yield(y) => {
                                self.call = Some(call);
                                return Event::Yield(y);
                            }
                            AtLeaf::Return(r) => {
                                self.ret = Some(r);
                                continue;
                            }
                        }
                    }
                    let eval = tree.evaluate(&call.node);
                    self.ret = Some(self.policy.leaf(&call, eval.value));
                    return Event::Leaf(eval.quiescence);
                };
                match self.policy.open(tree, &mut call, &moves) {
                    Enter::Expand(state, first) => {
                        self.call = Some(Call {
                            node: tree.play(&call.node, moves.get(first.index)),
                            alpha: first.alpha,
                            beta: first.beta,
                            depth: call.depth - 1,
                            state: first.state,
                        });
                        self.stack.push(Frame {
                            node: call.node,
                            width: moves.len(),
                            moves,
                            alpha: call.alpha,
                            beta: call.beta,
                            depth: call.depth,
                            i: 0,
                            score: -INF,
                            state,
                        });
                        return Event::Interior;
                    }
                    Enter::Probe => {
                        self.call = Some(call);
                        return Event::Probe;
                    }
                    Enter::Yield(y) => {
                        self.call = Some(call);
                        return Event::Yield(y);
                    }
                    Enter::Return(r) => {
                        self.ret = Some(r);
                        continue;
                    }
                }
            }
            // 2. A value came back from a call.
            let r = self
                .ret
                .take()
                .expect("neither a call nor a return pending");
            let Some(f) = self.stack.last_mut() else {
                self.ret = Some(r);
                return Event::Done;
            };
            match self.policy.returned(f, r) {
                Flow::Call(child) => {
                    self.call = Some(Call {
                        node: tree.play(&f.node, f.moves.get(child.index)),
                        alpha: child.alpha,
                        beta: child.beta,
                        depth: f.depth - 1,
                        state: child.state,
                    });
                }
                Flow::Return(r) => {
                    self.stack.pop();
                    self.ret = Some(r);
                }
                Flow::ReturnProbe(r) => {
                    self.stack.pop();
                    self.ret = Some(r);
                    return Event::Probe;
                }
                Flow::ReturnYield(r, y) => {
                    self.stack.pop();
                    self.ret = Some(r);
                    return Event::Yield(y);
                }
            }
        }
    }
}

impl<'t, T: GameTree, P: SequentialPolicy<T>> SequentialSearch<'t, T> for DepthFirst<'t, T, P> {
    fn new(tree: &'t T, node: T::Node, alpha: Value, beta: Value, depth: u32) -> Self {
        let (policy, state) = (P::default(), P::Call::default());
        DepthFirst::with_policy(tree, node, (alpha, beta), depth, policy, state)
    }

    fn raise_alpha(&mut self, a: Value) {
        self.narrow(Narrow::RaiseAlpha(a));
    }

    fn lower_beta(&mut self, b: Value) {
        self.narrow(Narrow::LowerBeta(b));
    }

    fn abort(&mut self) {
        self.aborted = true;
    }

    fn window(&self) -> (Value, Value) {
        self.window
    }

    fn is_aborted(&self) -> bool {
        self.aborted
    }
}

impl<T: GameTree, P: SequentialPolicy<T>> Search for DepthFirst<'_, T, P> {
    type Out = Value;

    fn step(&mut self) -> Step<Value> {
        if self.aborted {
            self.stack.clear();
            self.call = None;
            return Step::Done(ABORTED);
        }
        match self.advance() {
            Event::Interior => Step::Interior,
            Event::Leaf(quiescence) => Step::Leaf { quiescence },
            Event::Probe => Step::Probe,
            Event::Done => Step::Done(self.result().expect("the root's value").root_value()),
            Event::Await { .. } => unreachable!("a sequential search values its own horizon"),
            Event::Yield(y) => match y {},
        }
    }

    fn fork(&self) -> Option<Self> {
        self.policy.forkable().then(|| self.clone())
    }

    fn run_to_end(&mut self) -> Option<(Value, sim_hw::Tally)> {
        // Only a search that has not begun: its root call pending, nothing on the stack.
        if self.aborted || !self.stack.is_empty() || self.ret.is_some() || self.awaited.is_some() {
            return None;
        }
        let call = self.call.as_ref()?;
        if call.alpha != self.window.0 || call.beta != self.window.1 {
            return None;
        }
        let mut tally = sim_hw::Tally::default();
        let r = self.policy.run_to_end(
            self.tree,
            &call.node,
            (call.alpha, call.beta),
            call.depth,
            &mut tally,
        )?;
        let value = r.root_value();
        self.call = None;
        self.ret = Some(r);
        Some((value, tally))
    }
}
