//! Reading feeds: fetching (HTTP with conditional GET, per-host limits, retries),
//! decoding and parsing RSS/Atom/RDF with the iTunes and Podcasting 2.0 namespaces,
//! normalising them into catalog records, and reading transcript files.
//!
//! The pipeline for one document is `parse_feed` (bytes → [`ParsedFeed`]) then
//! [`normalize`] (→ [`FeedBatch`], the catalog's unit of upsert). The fetch side
//! ([`fetch`]) runs many feeds concurrently on tokio, parses on rayon, and hands
//! batches, transcripts and the fetch log to a [`FeedStore`].

pub mod dates;
pub mod decode;
pub mod duration;
pub mod entities;
mod error;
pub mod feed;
pub mod fetch;
pub mod frequency;
mod handlers;
mod namespaces;
mod normalize;
mod parser;
pub mod schedule;
mod simple_html;
pub mod sponsors;
pub mod text;
pub mod transcript;

pub use error::IngestError;
pub use feed::{FeedFormat, ParsedFeed};
pub use namespaces::prefix_for_uri;
pub use normalize::{
    is_blocked, item_key, normalize, normalize_with_id, preferred_transcript, primary_enclosure,
};
pub use parser::parse_feed;
pub use podlens_model::catalog::FeedBatch;
