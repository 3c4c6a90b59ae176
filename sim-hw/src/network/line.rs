//! Communication lines between a parent and a child processor.

use serde::{Deserialize, Serialize};
use sim_core::SimTime;

/// How a parent–child pair is connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkKind {
    /// A serial line (RS-232) at `rate` bytes per second in each direction (full duplex).
    Serial {
        /// Bytes per second in each direction (960 for the paper's 9600-baud lines).
        rate: u64,
    },
    /// No transmission time at all (Campbell-style simulations); setup `s` is still charged.
    Ideal,
}

/// A link's behaviour: its kind, and whether messages to a child wait for the child's
/// request-to-send (RTS/CTS, section V: the bare SUN boards buffer only two characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkSpec {
    /// Serial or ideal, and the serial line's rate.
    pub kind: LinkKind,
    /// When true, a message from a parent to a child is held until the child is ready to read
    /// (idle, waiting for input). When false, the protocol is "read immediately after write".
    pub rts_cts: bool,
}

impl LinkSpec {
    /// A link with no transmission time and no RTS/CTS.
    pub fn ideal() -> Self {
        LinkSpec {
            kind: LinkKind::Ideal,
            rts_cts: false,
        }
    }
    /// A serial line of `rate` bytes per second in each direction, with or without RTS/CTS.
    pub fn serial(rate: u64, rts_cts: bool) -> Self {
        LinkSpec {
            kind: LinkKind::Serial { rate },
            rts_cts,
        }
    }
    /// How long a message of `bytes` occupies the line (rounded up to whole nanoseconds).
    ///
    /// ```
    /// use sim_hw::LinkSpec;
    /// assert_eq!(LinkSpec::serial(960, false).transmit_time(4).as_nanos(), 4_166_667);
    /// assert_eq!(LinkSpec::ideal().transmit_time(400).as_nanos(), 0);
    /// ```
    pub fn transmit_time(&self, bytes: u64) -> SimTime {
        match self.kind {
            LinkKind::Serial { rate } => SimTime::transmit(bytes, rate),
            LinkKind::Ideal => SimTime::ZERO,
        }
    }
}
