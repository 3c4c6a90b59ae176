//! End-to-end tests of gtsim across crates live in `tests/tests/`.

#![warn(missing_docs)]
