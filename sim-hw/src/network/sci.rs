//! The serial communication interface (SCI) in the master (paper section V, Fig. 5): the one
//! place of the rule that a host reaches at most as many children as the interface has ports.

use crate::ProcessorTree;
use serde::{Deserialize, Serialize};

/// An eight-port serial interface (Central Data "Intelligent Octal Serial Interface") hosted
/// by the master. It buffers input for the master and interrupts it when data are available, so
/// the master is interrupt-driven; the children are bare boards that read when they are ready.
/// Each line to a child takes one port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SerialInterface {
    /// Ports available for children.
    pub ports: u64,
    /// Line rate of each port, bytes per second (960 in the paper, halved to 480 with four
    /// processors to keep the interface from overloading).
    pub rate: u64,
}

/// A host needs more lines than its serial interface has ports.
#[derive(thiserror::Error, Debug, Clone, Copy, PartialEq, Eq)]
#[error("needs {lines} serial ports but the SCI has {ports}")]
pub struct PortsExceeded {
    /// Lines the host needs (its remote children).
    pub lines: u64,
    /// Ports of the interface.
    pub ports: u64,
}

impl SerialInterface {
    /// Parabelle's interface: 8 ports at 960 bytes/s.
    pub const PARABELLE: SerialInterface = SerialInterface {
        ports: 8,
        rate: 960,
    };

    /// Whether a host with `children` remote children (one line each) fits on the interface.
    ///
    /// ```
    /// use sim_hw::{PortsExceeded, SerialInterface};
    /// assert_eq!(SerialInterface::PARABELLE.check(8), Ok(()));
    /// let e = SerialInterface::PARABELLE.check(9).unwrap_err();
    /// assert_eq!(e, PortsExceeded { lines: 9, ports: 8 });
    /// assert_eq!(e.to_string(), "needs 9 serial ports but the SCI has 8");
    /// ```
    pub fn check(&self, children: u64) -> Result<(), PortsExceeded> {
        if children <= self.ports {
            Ok(())
        } else {
            Err(PortsExceeded {
                lines: children,
                ports: self.ports,
            })
        }
    }

    /// Whether every host of `tree` fits: the processor with the most children decides (in the
    /// paper's trees, the root processor, with `f - 1` children at each of the `L` levels).
    ///
    /// ```
    /// use sim_hw::{PortsExceeded, ProcessorTree, SerialInterface};
    /// let sci = SerialInterface::PARABELLE;
    /// assert!(sci.check_tree(&ProcessorTree::new(9, 1)).is_ok()); // 8 children
    /// assert!(sci.check_tree(&ProcessorTree::new(5, 2)).is_ok()); // 4 + 4 children
    /// assert_eq!(
    ///     sci.check_tree(&ProcessorTree::new(6, 2)),
    ///     Err(PortsExceeded { lines: 10, ports: 8 })
    /// );
    /// assert!(sci.check_tree(&ProcessorTree::campbell(1, 9)).is_err());
    /// ```
    pub fn check_tree(&self, tree: &ProcessorTree) -> Result<(), PortsExceeded> {
        self.check(tree.width() as u64)
    }
}
