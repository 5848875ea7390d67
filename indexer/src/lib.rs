//! Search: sharded tantivy indexes of podcasts and episodes (transcripts in timed chunks)
//! built from the catalog's records, published atomically as generations, and the query
//! side: search with cursor paging, snippets, autocomplete, related podcasts and explain.
//!
//! Build with [`build_generation`] (full) or [`update_generation`] (incremental); search
//! through an [`IndexReaderHandle`], which follows the published manifest. With a static
//! embedding model ([`BuildOptions::vectors`]), every podcast text, episode description
//! and transcript chunk is embedded (768-d, int8) into the shard's vector store
//! ([`vectors`]), used by [`semantic_search`], [`related_podcasts`] and semantic
//! re-ranking ([`SearchRequest::semantic_rerank`]).

mod abbreviations;
pub mod analysis;
mod any_field;
mod autocomplete;
mod bm25f;
mod build;
pub mod chunking;
mod collector;
mod const_score;
mod coverage;
pub mod cursor;
mod deadline;
mod dedup;
mod derivations;
pub mod directory;
mod documents;
pub use podlens_embedding as embedding;
mod error;
mod fanout;
mod filter_cache;
mod fuzzy;
pub mod generation;
mod guarded;
mod highlight;
mod hits;
mod hybrid;
mod local;
pub mod lookups;
mod page;
pub mod quality;
mod query_build;
pub mod ranking;
mod reader;
mod related;
mod relevance;
mod request;
mod results;
pub mod schema;
mod search;
mod semantic;
mod shard;
mod shard_search;
pub mod shards;
pub mod sort_key;
mod spelling;
pub mod statistics;
pub mod steps;
mod stored;
mod term_sets;
pub mod text_language;
mod translations;
pub mod vectors;
mod window;
pub mod words;

pub use autocomplete::Autocomplete;
pub use build::{BuildOptions, IndexChanges, build_generation, update_generation};
pub use collector::{Collected, Page, merge_pages};
pub use documents::{
    EpisodeText, IndexSource, PodcastSignals, declared_language, episodes_text, newest_first,
};
pub use error::{IndexError, Result};
pub use generation::{Manifest, VectorsManifest, read_manifest};
pub use local::{
    autocomplete, related_by_text, related_podcasts, related_podcasts_with, semantic_search,
    semantic_search_with,
};
pub use ranking::{WEIGHTS, Weights};
pub use reader::IndexReaderHandle;
pub use related::{DEFAULT_RELATED_METHOD, RelatedMethod, RelatedSource, like_request, others};
pub use request::{
    MAX_SNIPPET_CHARS, MatchMode, NullOrder, SearchFilters, SearchMode, SearchRequest, SearchTerm,
    SortDirection, SortField, SortOrder, Target,
};
pub use results::{EpisodeHit, Hits, PodcastHit, SearchResponse, Timings, TranscriptSnippet};
pub use schema::{Schemas, shard_of};
pub use search::search;
pub use semantic::{MAX_SEMANTIC_LIMIT, SemanticRequest};
pub use shard::OpenGeneration;
pub use shard_search::MAX_PAGE_SIZE;
pub use vectors::{DEFAULT_RESCORE, VectorModel, VectorSearchOptions};
