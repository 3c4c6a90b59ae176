//! The serial communication interface (SCI) in the master (paper section V, Fig. 5).

use serde::{Deserialize, Serialize};

/// An eight-port serial interface (Central Data "Intelligent Octal Serial Interface") hosted
/// by the master. It buffers input for the master and interrupts it when data are available, so
/// the master is interrupt-driven; the children are bare boards that read when they are ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SerialInterface {
    /// Ports available for children.
    pub ports: u32,
    /// Line rate of each port, bytes per second (960 in the paper, halved to 480 with four
    /// processors to keep the interface from overloading).
    pub rate: u64,
}

impl SerialInterface {
    /// Parabelle's interface: 8 ports at 960 bytes/s.
    pub const PARABELLE: SerialInterface = SerialInterface {
        ports: 8,
        rate: 960,
    };

    /// Whether `children` remote children fit on the interface.
    pub fn fits(&self, children: u32) -> bool {
        children <= self.ports
    }
}
