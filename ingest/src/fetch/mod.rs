//! Fetching many feeds: sources (files, folders, OPML, URLs, the catalog's feeds),
//! HTTP on tokio with a global and a per-host concurrency limit, parsing and
//! normalising on the rayon pool (never on the async runtime), transcripts named by
//! `podcast:transcript`, and every outcome written through a [`FeedStore`] on a
//! thread of its own. A failing feed is recorded and the run goes on.

mod collected;
mod http;
mod run;
mod sources;

pub use collected::CollectedFeeds;
pub use http::{HttpBody, HttpConfig, HttpOutcome, build_client, get};
pub use run::{
    FeedObserver, FeedStore, IngestConfig, IngestSummary, KnownTranscripts, TranscriptRetry, ingest,
};
pub use sources::{FeedSource, FeedState, content_hash, expand_sources, parse_opml};

/// `feed://` and `itpc://` URLs as `http://`.
pub(crate) fn http_url(url: &str) -> String {
    let trimmed = url.trim();
    for scheme in ["feed://", "itpc://", "pcast://"] {
        if trimmed.len() > scheme.len() && trimmed[..scheme.len()].eq_ignore_ascii_case(scheme) {
            return format!("http://{}", &trimmed[scheme.len()..]);
        }
    }
    trimmed.to_owned()
}
