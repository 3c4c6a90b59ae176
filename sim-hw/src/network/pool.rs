//! The interconnects of a pool of processors (beside the processor tree's lines): point-to-point
//! lines between every pair, a hypercube, a 2-D mesh or torus, and a shared bus.

use sim_core::{ProcId, SimTime};

/// Who pays for forwarding a message at an intermediate processor of a routed network
/// (hypercube, mesh).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forwarding {
    /// Routing in software (the transputers did this): the forwarding processor's CPU spends the
    /// forwarding cost on every message that passes through it, in category `message` (it is
    /// message handling, like the setup `s`). It preempts whatever the processor is doing, like
    /// an interrupt, whatever the processor's read policy (the program is not called).
    Software,
    /// A hardware router beside each processor: the forwarding cost is a pure delay at that
    /// processor; its CPU is not charged.
    Hardware,
}

/// How a routed network forwards: who pays and how much per intermediate processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Routing {
    /// Software (the forwarding CPU pays) or hardware (a router's delay).
    pub forwarding: Forwarding,
    /// Cost of forwarding one message at one intermediate processor (store-and-forward: after
    /// the whole message has arrived there, before it joins the next hop's FIFO).
    pub cost: SimTime,
}

/// A shared bus of the Ethernet class: one medium for all processors, one frame at a time.
///
/// A message of `b` bytes goes as one frame of `max(b + header_bytes, min_frame_bytes)` bytes,
/// occupying the bus for that many bytes at `rate` bytes/s (rounded up to a nanosecond), and
/// arrives when its last byte does. Arbitration is FIFO by request time: frames go in the order
/// they were posted (the sender's setup `s` ended); frames posted at the same time go in the
/// order the machine posted them (its event order: deterministic). No collisions, no back-off.
/// A broadcast is one frame that every other processor receives at the same time. There is no
/// RTS/CTS on a bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BusSpec {
    /// Bytes per second (1 250 000 for 10 Mbit/s Ethernet). Positive.
    pub rate: u64,
    /// Bytes of framing added to every message (26 for Ethernet: preamble, addresses, type, CRC).
    pub header_bytes: u64,
    /// Smallest frame in bytes, header included (64 for Ethernet; shorter frames are padded).
    pub min_frame_bytes: u64,
}

impl BusSpec {
    /// Bytes on the bus for a message of `bytes` bytes: header added, padded to the minimum.
    ///
    /// ```
    /// use sim_hw::BusSpec;
    /// let eth = BusSpec { rate: 1_250_000, header_bytes: 26, min_frame_bytes: 64 };
    /// assert_eq!(eth.frame_bytes(4), 64); // padded
    /// assert_eq!(eth.frame_bytes(100), 126);
    /// ```
    pub fn frame_bytes(&self, bytes: u64) -> u64 {
        bytes
            .saturating_add(self.header_bytes)
            .max(self.min_frame_bytes)
    }
    /// How long a message of `bytes` bytes occupies the bus.
    ///
    /// ```
    /// use sim_hw::BusSpec;
    /// let eth = BusSpec { rate: 1_250_000, header_bytes: 26, min_frame_bytes: 64 };
    /// assert_eq!(eth.frame_time(4).as_nanos(), 51_200); // 64 bytes at 1.25 MB/s
    /// ```
    pub fn frame_time(&self, bytes: u64) -> SimTime {
        SimTime::transmit(self.frame_bytes(bytes), self.rate)
    }
}

/// How the processors of a pool are connected. The lines of the point-to-point kinds (every
/// kind but the bus) are the machine's line spec: a rate (or ideal), full duplex, a FIFO per
/// direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PoolNetwork {
    /// A full-duplex line between every pair of processors; every route is one hop. The lines
    /// are built lazily, when a pair first talks (1,024 processors would need 523,776 lines),
    /// which changes nothing in time: a line exists, idle, from time zero.
    FullyConnected,
    /// A binary hypercube of `2^d` processors (the count must be a power of two): a line between
    /// processors whose numbers differ in one bit. Dimension-order routing: a message corrects
    /// the differing bits from the lowest to the highest, one hop per bit, store-and-forward.
    Hypercube(Routing),
    /// A 2-D mesh of `width × height` processors (the count must be their product): processor
    /// `p` sits at column `p % width`, row `p / width`, with lines to its 4 neighbours (and, in a
    /// torus, around each row and column). Dimension-order XY routing: along the row first,
    /// then along the column, store-and-forward; in a torus, each way the shorter way round
    /// (ties: toward higher numbers).
    Mesh {
        /// Processors per row.
        width: u32,
        /// Rows.
        height: u32,
        /// Wrap-around lines at the edges.
        torus: bool,
        /// How intermediate processors forward.
        routing: Routing,
    },
    /// One shared bus for every processor ([`BusSpec`]).
    Bus(BusSpec),
}

/// A pool's network does not fit its processor count.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum PoolError {
    /// No processors.
    #[error("a pool needs at least one processor")]
    Empty,
    /// A hypercube of a count that is not a power of two.
    #[error("a hypercube needs a power of two processors, not {0}")]
    NotPowerOfTwo(usize),
    /// A mesh whose width × height is not the processor count.
    #[error("a {width} × {height} mesh has {} processors, not {processors}", *width as u64 * *height as u64)]
    MeshSize {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// The processor count.
        processors: usize,
    },
    /// A bus of rate 0.
    #[error("a bus needs a rate above 0 bytes/s")]
    BusRate,
}

impl PoolNetwork {
    /// Whether `processors` processors fit this network.
    ///
    /// ```
    /// use sim_hw::{Forwarding, PoolError, PoolNetwork, Routing};
    /// use sim_core::SimTime;
    /// let cube = PoolNetwork::Hypercube(Routing { forwarding: Forwarding::Software, cost: SimTime::ZERO });
    /// assert!(cube.check(16).is_ok());
    /// assert_eq!(cube.check(12), Err(PoolError::NotPowerOfTwo(12)));
    /// ```
    pub fn check(&self, processors: usize) -> Result<(), PoolError> {
        if processors == 0 {
            return Err(PoolError::Empty);
        }
        match *self {
            PoolNetwork::FullyConnected => Ok(()),
            PoolNetwork::Hypercube(_) if !processors.is_power_of_two() => {
                Err(PoolError::NotPowerOfTwo(processors))
            }
            PoolNetwork::Hypercube(_) => Ok(()),
            PoolNetwork::Mesh { width, height, .. }
                if width as u64 * height as u64 != processors as u64 =>
            {
                Err(PoolError::MeshSize {
                    width,
                    height,
                    processors,
                })
            }
            PoolNetwork::Mesh { .. } => Ok(()),
            PoolNetwork::Bus(b) if b.rate == 0 => Err(PoolError::BusRate),
            PoolNetwork::Bus(_) => Ok(()),
        }
    }

    /// How intermediate processors forward, for routed networks (hypercube, mesh).
    pub fn routing(&self) -> Option<Routing> {
        match *self {
            PoolNetwork::Hypercube(r) | PoolNetwork::Mesh { routing: r, .. } => Some(r),
            _ => None,
        }
    }

    /// The neighbours of `p` in a hypercube or a mesh of `n` processors, each once, in a fixed
    /// order (empty for the other kinds, whose lines are not a graph of neighbours).
    pub(crate) fn neighbours(&self, p: usize, n: usize) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        match *self {
            PoolNetwork::Hypercube(_) => {
                let mut bit = 1;
                while bit < n {
                    out.push(p ^ bit);
                    bit <<= 1;
                }
            }
            PoolNetwork::Mesh {
                width,
                height,
                torus,
                ..
            } => {
                let (w, h) = (width as usize, height as usize);
                let (x, y) = (p % w, p / w);
                let mut add = |q: usize| {
                    if q != p && !out.contains(&q) {
                        out.push(q);
                    }
                };
                if x + 1 < w {
                    add(p + 1);
                } else if torus && w > 1 {
                    add(y * w);
                }
                if x > 0 {
                    add(p - 1);
                } else if torus && w > 1 {
                    add(y * w + w - 1);
                }
                if y + 1 < h {
                    add(p + w);
                } else if torus && h > 1 {
                    add(x);
                }
                if y > 0 {
                    add(p - w);
                } else if torus && h > 1 {
                    add((h - 1) * w + x);
                }
            }
            _ => {}
        }
        out
    }

    /// The next processor on the dimension-order route from `cur` toward `dst` (`cur != dst`),
    /// for a hypercube or a mesh; `None` for the other kinds.
    pub(crate) fn next_hop(&self, cur: usize, dst: usize) -> Option<usize> {
        match *self {
            PoolNetwork::Hypercube(_) => {
                let diff = cur ^ dst;
                (diff != 0).then(|| cur ^ (1 << diff.trailing_zeros()))
            }
            PoolNetwork::Mesh {
                width,
                height,
                torus,
                ..
            } => {
                let (w, h) = (width as usize, height as usize);
                let (x, y, dx, dy) = (cur % w, cur / w, dst % w, dst / w);
                if x != dx {
                    Some(y * w + step(x, dx, w, torus))
                } else if y != dy {
                    Some(step(y, dy, h, torus) * w + x)
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// One step from coordinate `a` toward `b` on a ring (torus) or a line of `len` positions: the
/// shorter way round on a ring, toward higher coordinates on a tie.
fn step(a: usize, b: usize, len: usize, torus: bool) -> usize {
    if !torus {
        return if b > a { a + 1 } else { a - 1 };
    }
    let up = (b + len - a) % len; // hops going toward higher coordinates
    if up <= len - up {
        (a + 1) % len
    } else {
        (a + len - 1) % len
    }
}

/// The processors of a route from `from` to `to` on a routed network, `from` first and `to`
/// last (hypercube, mesh); a route of one hop otherwise.
pub(crate) fn route_nodes(net: &PoolNetwork, from: ProcId, to: ProcId) -> Vec<ProcId> {
    let mut nodes = vec![from];
    let mut cur = from.index();
    while cur != to.index() {
        cur = net.next_hop(cur, to.index()).unwrap_or(to.index());
        nodes.push(ProcId(cur as u32));
    }
    nodes
}
