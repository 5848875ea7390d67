//! Apple and Spotify chart snapshots and their movements.
//!
//! A chart series is one (chart type, frequency, country, category); hourly, daily
//! and weekly captures of the same chart are separate series and never compared
//! with each other. Within a series, each snapshot's positions get the previous
//! position (from the series' previous snapshot), the change, the movement
//! (up / down / unchanged / entered, or unknown when there is no previous snapshot
//! one period earlier), the days in chart so far and the current streak.

mod movements;
mod snapshot_file;

pub use movements::{ChartKey, ChartRow, change_status, compute_movements};
pub use snapshot_file::{
    ChartSnapshotRecord, SnapshotEntry, read_snapshot_dir, read_snapshot_file,
};
