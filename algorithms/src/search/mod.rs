//! Sequential searches as resumable machines that a processor advances one costed step at a
//! time ([`sequential::SequentialSearch`]): the depth-first family (alpha-beta, PVS, palphabeta,
//! SCOUT, NegaScout, INS, PNS), each a per-node policy driving the one explicit-stack engine
//! of [`depth_first`], and the best-first SSS* family, with the plain recursive versions each
//! must agree with.

pub mod alphabeta;
pub mod depth_first;
pub mod ins;
pub mod pvs;
pub mod scout;
pub mod sequential;
pub mod sss;
