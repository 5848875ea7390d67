//! The catalog: a DuckDB file (`<data-dir>/catalog.duckdb`) with podcasts, episodes,
//! persons, transcripts and the feed fetch log, idempotent upserts, and Parquet snapshots
//! (`<data-dir>/parquet/*.parquet`) whose columns are the API field names.
