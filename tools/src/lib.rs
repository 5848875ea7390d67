//! Library side of the `podlens` binary: its configuration, progress reporting and
//! the synthetic corpus generator. The binary (`main.rs`) only parses flags and
//! calls into this crate and the pipeline crates.

pub mod backup_cmd;
pub mod catalog_cmd;
pub mod config;
pub mod crawl_cmd;
pub mod demo_cmd;
pub mod generate;
pub mod index_cmd;
pub mod ingest_cmd;
pub mod keys_cmd;
pub mod migrate_cmd;
pub mod model_cmd;
pub mod outbox_cmd;
pub mod progress;
pub mod publish_cmd;
pub mod score_cmd;
pub mod search_node_cmd;
pub mod serve_cmd;
pub mod status_cmd;
