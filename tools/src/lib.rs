//! Library side of the `podlens` binary: its configuration, progress reporting and
//! the synthetic corpus generator. The binary (`main.rs`) only parses flags and
//! calls into this crate and the pipeline crates.

pub mod config;
pub mod progress;
