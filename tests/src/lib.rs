//! End-to-end tests of gtsim across crates live in `tests/tests/`.
