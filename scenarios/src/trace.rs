//! Placeholder until the Chrome trace writer lands.
pub fn chrome_trace(_stats: &sim_core::RunStats, _title: &str) -> String {
    unimplemented!()
}
