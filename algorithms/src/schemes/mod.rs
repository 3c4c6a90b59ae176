//! Parallel schemes as message-passing roles for `sim_hw::Machine`, and how each deploys onto a
//! processor tree ([`scheme::Scheme`]); a sequential search on its own is the one-processor
//! scheme [`alone::Alone`].

pub mod abdada;
pub mod adapter;
pub mod alone;
pub mod aphid;
pub mod baudet;
pub mod dts;
pub mod lazy_smp;
pub mod mwf;
pub mod parabelle;
pub mod pmws;
pub mod protocol;
pub mod pstaged;
pub mod pvsplit;
pub mod scheme;
pub mod shared_table;
pub(crate) mod splitpoint;
pub mod treesplit;
pub mod tt_search;
pub mod ybwc;
pub mod ybwc_shared;
