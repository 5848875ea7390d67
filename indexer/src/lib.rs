//! Search: sharded tantivy indexes of podcasts and episodes (transcripts in timed chunks)
//! built from the catalog's records, published atomically as generations, and the query
//! side: search with cursor paging, snippets, autocomplete, related podcasts and explain.
//!
//! Build with [`build_generation`] (full) or [`update_generation`] (incremental); search
//! through an [`IndexReaderHandle`], which follows the published manifest. Vectors
//! (768-d embeddings of descriptions and transcript chunks) are not built yet: chunks
//! carry a stable `chunk_id` (`<transcriptId>:<ordinal>`) under which a shard's vector
//! file will key them, and [`related_podcasts`] is the text-similarity stand-in.

pub mod analysis;
mod autocomplete;
mod build;
pub mod chunking;
mod collector;
pub mod cursor;
mod documents;
pub mod embedding;
mod error;
pub mod generation;
mod query_build;
mod reader;
mod related;
mod request;
mod results;
pub mod schema;
mod search;
mod shard;
pub mod sort_key;

pub use autocomplete::{Autocomplete, autocomplete};
pub use build::{
    BuildOptions, IndexChanges, Schemas, build_generation, shard_of, update_generation,
};
pub use documents::{IndexSource, PodcastSignals};
pub use error::{IndexError, Result};
pub use generation::{Manifest, read_manifest};
pub use reader::IndexReaderHandle;
pub use related::related_podcasts;
pub use request::{
    MatchMode, NullOrder, SearchFilters, SearchMode, SearchRequest, SearchTerm, SortDirection,
    SortField, SortOrder, Target,
};
pub use results::{EpisodeHit, Hits, PodcastHit, SearchResponse, Timings, TranscriptSnippet};
pub use search::{MAX_PAGE_SIZE, search};
pub use shard::OpenGeneration;
