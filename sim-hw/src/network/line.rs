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

/// The serial interface a line's parent end hosts, modelled as a device (opt-in; `None` on a
/// [`LinkSpec`] keeps the plain line): Parabelle's Central Data octal serial interface moves
/// the characters of every port itself and hands the host whole buffers (section V), so it has
/// a character capacity shared by all its ports, and each end of a line spends CPU time per
/// character (ARCHITECTURE.md, "The serial interface as a device", has every figure's source).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SciSpec {
    /// Characters per second the interface can move over all its ports of one host, both
    /// directions together (`None`: unlimited). A frame on a port needs `bytes / capacity` of
    /// the interface, served first come first served across the host's ports, and arrives no
    /// earlier than that service ends (nor than its last byte crosses the line): one transfer
    /// alone runs at the line rate while `capacity >= rate`, several at once slow down.
    pub capacity: Option<u64>,
    /// CPU time of the host (the parent end) per character of a message it reads from or writes
    /// to the interface's buffers: added to the interrupt handler of an arriving message and to
    /// the setup of a sent one.
    pub host_char: SimTime,
    /// CPU time of a child board (the child end) per character it sends or receives: a bare
    /// board buffers two characters, so it takes each one as it comes (an interrupt per
    /// character). Added to the setup of a sent message; a received message costs the board
    /// `bytes * board_char` of preempting CPU time (category message) before it is read, or
    /// on an interrupt-driven board, as the host's characters, of its interrupt handler.
    pub board_char: SimTime,
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
    /// The serial interface hosting the line, as a device with its own capacity and
    /// per-character costs (`None`: a plain line, as before the device was modelled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sci: Option<SciSpec>,
}

impl LinkSpec {
    /// A link with no transmission time and no RTS/CTS.
    pub fn ideal() -> Self {
        LinkSpec {
            kind: LinkKind::Ideal,
            rts_cts: false,
            sci: None,
        }
    }
    /// A serial line of `rate` bytes per second in each direction, with or without RTS/CTS.
    pub fn serial(rate: u64, rts_cts: bool) -> Self {
        LinkSpec {
            kind: LinkKind::Serial { rate },
            rts_cts,
            sci: None,
        }
    }
    /// The same link hosted by a serial interface modelled as a device ([`SciSpec`]).
    pub fn with_sci(self, sci: SciSpec) -> Self {
        LinkSpec {
            sci: Some(sci),
            ..self
        }
    }
    /// CPU time per character for the processor at one end of the line: the host's if
    /// `parent_end`, else the child board's (zero without a device).
    pub fn char_cost(&self, parent_end: bool) -> SimTime {
        match self.sci {
            Some(sci) if parent_end => sci.host_char,
            Some(sci) => sci.board_char,
            None => SimTime::ZERO,
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
