//! The OPEN-list machine shared by SSS* and DUAL*: Stockman's state-space operator G (Campbell's
//! thesis, Appendix 3, Table 11) with Campbell's modified cases 4 and 6 (Table 12), run one
//! costed node at a time.
//!
//! The machine works in the min-max view of one player, "MAX", whose strategies it enumerates
//! (SSS*: the side to move at the root; DUAL*: its opponent). Merits are upper bounds, in MAX's
//! view, of the value of the partial solution trees the states stand for. In the thesis's terms a
//! MAX node is an AND node and a MIN node an OR node: the successors of a MAX node are all put on
//! OPEN (case 6), those of a MIN node one at a time, left to right (cases 5 and 2).
//!
//! **Order of OPEN.** States are kept by decreasing merit and, among equal merits, from left to
//! right in the tree, which is what Campbell's Table 12 amounts to: case 4 inserts a solved leaf
//! behind all states of greater merit and in front of the equal-merit states to its right; case
//! 6 stacks the successors last to first, so that the first is on top; and every state the other
//! cases stack on top of OPEN has the largest merit and lies to the left of every other state of
//! that merit (it replaces the state just removed, which did, within the same subtree). So OPEN
//! is one sorted list under the key (merit descending, left to right), and the top is its last
//! element.

use crate::trees::{GameTree, MoveList, Value, INF};

/// A node the machine has put on OPEN at least once: the node, where it hangs in the tree and,
/// once expanded, its moves (generated once, for `next` and `first` of Table 11).
pub(crate) struct Slot<T: GameTree> {
    pub(crate) node: T::Node,
    /// The parent's slot; [`NO_PARENT`] for the root.
    pub(crate) parent: u32,
    /// The node's index in its parent's moves.
    pub(crate) index: u32,
    /// Plies below the machine's root.
    pub(crate) ply: u32,
    pub(crate) moves: Option<T::Moves>,
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// A state of traversal `(n, s, h)` (Appendix 3): a node, LIVE or SOLVED, and its merit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub(crate) slot: u32,
    pub(crate) solved: bool,
    pub(crate) h: Value,
}

/// What one advance of the machine did.
pub(crate) enum CoreStep<N> {
    /// Generated the moves of a node (Table 11, cases 5 and 6).
    Interior,
    /// Evaluated a terminal node (no moves) above the horizon (case 4).
    Leaf { quiescence: u32 },
    /// A LIVE node at the machine's horizon needs its value (case 4): the caller evaluates it
    /// (statically, or by a search of the next stage) with the window `(alpha, beta)` in the
    /// node's negamax view and hands the fail-soft result to [`OpenList::resolve`].
    Horizon { node: N, alpha: Value, beta: Value },
    /// The search is over: the result in the root's negamax view.
    Done(Value),
}

/// The OPEN-list search of one subtree (see the module doc).
pub(crate) struct OpenList<'t, T: GameTree> {
    tree: &'t T,
    slots: Vec<Slot<T>>,
    /// Sorted by priority, the top (largest merit, leftmost) last.
    open: Vec<State>,
    /// The horizon state whose value is being computed (counted as held on OPEN).
    pending: Option<State>,
    /// Plies to the horizon.
    depth: u32,
    /// Whether MAX is the side not to move at the root (DUAL*).
    dual: bool,
    /// The window in MAX's view: `alpha` stops the search early (the thesis's "top h < a"),
    /// `beta` caps every merit (the start state `(ROOT, LIVE, b)`).
    alpha: Value,
    beta: Value,
}

impl<'t, T: GameTree> OpenList<'t, T> {
    /// The search of `node` to `depth` plies with the window `(alpha, beta)` in the root's
    /// negamax view; `dual` makes the root's opponent MAX (DUAL*).
    pub(crate) fn new(
        tree: &'t T,
        node: T::Node,
        alpha: Value,
        beta: Value,
        depth: u32,
        dual: bool,
    ) -> Self {
        let (a, b) = if dual { (-beta, -alpha) } else { (alpha, beta) };
        OpenList {
            tree,
            slots: vec![Slot {
                node,
                parent: NO_PARENT,
                index: 0,
                ply: 0,
                moves: None,
            }],
            open: vec![State {
                slot: 0,
                solved: false,
                h: b,
            }],
            pending: None,
            depth,
            dual,
            alpha: a,
            beta: b,
        }
    }

    /// Whether MAX is to move at a node `ply` plies below the root.
    #[inline]
    fn is_max(&self, ply: u32) -> bool {
        ply.is_multiple_of(2) != self.dual
    }

    /// The result in the root's negamax view.
    #[inline]
    fn out(&self, h: Value) -> Value {
        if self.dual {
            -h
        } else {
            h
        }
    }

    /// The number of states held: OPEN and the one waiting for its value.
    #[inline]
    pub(crate) fn held(&self) -> usize {
        self.open.len() + usize::from(self.pending.is_some())
    }

    /// Whether slot `a` lies to the left of slot `b` (neither an ancestor of the other): at
    /// their earliest common ancestor, `a` is below a branch left of `b`'s.
    pub(crate) fn left_of(slots: &[Slot<T>], mut a: u32, mut b: u32) -> bool {
        while slots[a as usize].ply > slots[b as usize].ply {
            a = slots[a as usize].parent;
        }
        while slots[b as usize].ply > slots[a as usize].ply {
            b = slots[b as usize].parent;
        }
        if a == b {
            return false;
        }
        while slots[a as usize].parent != slots[b as usize].parent {
            a = slots[a as usize].parent;
            b = slots[b as usize].parent;
        }
        slots[a as usize].index < slots[b as usize].index
    }

    /// Whether `x` comes before `y` in OPEN (greater merit, or equal merit and to the left).
    #[inline]
    pub(crate) fn before(slots: &[Slot<T>], x: &State, y: &State) -> bool {
        x.h > y.h || (x.h == y.h && Self::left_of(slots, x.slot, y.slot))
    }

    /// Case 4 with Campbell's modification: behind every state of greater merit, in front of
    /// every state of equal merit to the right of it.
    fn insert(&mut self, s: State) {
        let slots = &self.slots;
        let at = self.open.partition_point(|x| Self::before(slots, &s, x));
        self.open.insert(at, s);
    }

    /// Removes from OPEN every state below slot `m` (case 1's purge).
    fn purge_below(&mut self, m: u32) {
        let slots = &self.slots;
        let ply = slots[m as usize].ply;
        self.open.retain(|s| {
            let mut x = s.slot;
            while slots[x as usize].ply > ply {
                x = slots[x as usize].parent;
            }
            x != m
        });
    }

    /// A new slot for successor `i` of the (expanded) slot `p`.
    fn child(&mut self, p: u32, i: usize) -> u32 {
        let parent = &self.slots[p as usize];
        let moves = parent.moves.as_ref().expect("an expanded node");
        let node = self.tree.play(&parent.node, moves.get(i));
        let ply = parent.ply + 1;
        self.slots.push(Slot {
            node,
            parent: p,
            index: i as u32,
            ply,
            moves: None,
        });
        (self.slots.len() - 1) as u32
    }

    /// Applies G to the top of OPEN until a node is expanded or evaluated, or a horizon node
    /// needs its value, or the search ends (thesis, Appendix 3: steps (2)–(5)).
    pub(crate) fn advance(&mut self) -> CoreStep<T::Node> {
        debug_assert!(self.pending.is_none(), "a horizon value is still awaited");
        loop {
            let top = *self
                .open
                .last()
                .expect("OPEN never empties before the root is solved");
            // (3): the root solved.
            if top.slot == 0 && top.solved {
                return CoreStep::Done(self.out(top.h));
            }
            // Aspiration (section 2.1): the largest merit is an upper bound of the value; at or
            // below alpha the search has failed low. (Below beta, so that an empty window does
            // not take the cap for a bound.)
            if top.h <= self.alpha && top.h < self.beta {
                return CoreStep::Done(self.out(top.h));
            }
            self.open.pop();
            let (ply, parent, index) = {
                let s = &self.slots[top.slot as usize];
                (s.ply, s.parent, s.index)
            };
            if top.solved {
                if !self.is_max(ply) {
                    // Case 1: a MIN node solved solves its MAX parent; its other successors'
                    // states are obsolete.
                    self.purge_below(parent);
                    self.open.push(State {
                        slot: parent,
                        solved: true,
                        h: top.h,
                    });
                } else {
                    let width = self.slots[parent as usize]
                        .moves
                        .as_ref()
                        .expect("an expanded parent")
                        .len();
                    let next = index as usize + 1;
                    if next < width {
                        // Case 2: the next successor of the MIN parent.
                        let slot = self.child(parent, next);
                        self.open.push(State {
                            slot,
                            solved: false,
                            h: top.h,
                        });
                    } else {
                        // Case 3: the last successor solved solves the MIN parent.
                        self.open.push(State {
                            slot: parent,
                            solved: true,
                            h: top.h,
                        });
                    }
                }
                continue;
            }
            // LIVE.
            let tree = self.tree;
            if ply >= self.depth {
                let s = &self.slots[top.slot as usize];
                let node = s.node.clone();
                self.pending = Some(top);
                let (alpha, beta) = self.pending_window().expect("just set");
                return CoreStep::Horizon { node, alpha, beta };
            }
            let moves = tree.moves(&self.slots[top.slot as usize].node);
            let width = moves.len();
            if width == 0 {
                // Case 4 on a terminal node.
                let eval = tree.evaluate(&self.slots[top.slot as usize].node);
                let v = if self.is_max(ply) {
                    eval.value
                } else {
                    -eval.value
                };
                self.insert(State {
                    slot: top.slot,
                    solved: true,
                    h: top.h.min(v),
                });
                return CoreStep::Leaf {
                    quiescence: eval.quiescence,
                };
            }
            self.slots[top.slot as usize].moves = Some(moves);
            if self.is_max(ply) {
                // Case 6 (Table 12): every successor, the first on top.
                for i in (0..width).rev() {
                    let slot = self.child(top.slot, i);
                    self.open.push(State {
                        slot,
                        solved: false,
                        h: top.h,
                    });
                }
            } else {
                // Case 5: the first successor.
                let slot = self.child(top.slot, 0);
                self.open.push(State {
                    slot,
                    solved: false,
                    h: top.h,
                });
            }
            return CoreStep::Interior;
        }
    }

    /// The window of the pending horizon node in its negamax view: `(-INF, h)` if MAX is to move
    /// there, `(-h, INF)` otherwise; only `min(h, value)` in MAX's view matters (no lower bound:
    /// thesis section 2.1, "SSS* has no lower bound on a node score comparable to alpha").
    pub(crate) fn pending_window(&self) -> Option<(Value, Value)> {
        let p = self.pending?;
        let ply = self.slots[p.slot as usize].ply;
        Some(if self.is_max(ply) {
            (-INF, p.h)
        } else {
            (-p.h, INF)
        })
    }

    /// The fail-soft value `v` (negamax view of the node) of the pending horizon node for the
    /// window [`OpenList::pending_window`]: case 4 inserts it solved with merit `min(h, v)` in
    /// MAX's view.
    pub(crate) fn resolve(&mut self, v: Value) {
        let p = self.pending.take().expect("a pending horizon node");
        let ply = self.slots[p.slot as usize].ply;
        let v = if self.is_max(ply) { v } else { -v };
        self.insert(State {
            slot: p.slot,
            solved: true,
            h: p.h.min(v),
        });
    }

    /// The root's alpha (negamax view) becomes at least `a`.
    pub(crate) fn raise_alpha(&mut self, a: Value) {
        if self.dual {
            self.cap(-a);
        } else {
            self.alpha = self.alpha.max(a);
        }
    }

    /// The root's beta (negamax view) becomes at most `b`.
    pub(crate) fn lower_beta(&mut self, b: Value) {
        if self.dual {
            self.alpha = self.alpha.max(-b);
        } else {
            self.cap(b);
        }
    }

    /// MAX's upper bound becomes at most `b`: every merit is capped at it, as if the search had
    /// started from `(ROOT, LIVE, b)`, and OPEN is sorted again (capped merits become equal).
    fn cap(&mut self, b: Value) {
        if b >= self.beta {
            return;
        }
        self.beta = b;
        for s in self.open.iter_mut().chain(self.pending.as_mut()) {
            s.h = s.h.min(b);
        }
        let slots = &self.slots;
        self.open.sort_by(|x, y| {
            if Self::before(slots, x, y) {
                std::cmp::Ordering::Greater
            } else if Self::before(slots, y, x) {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Equal
            }
        });
    }
}
