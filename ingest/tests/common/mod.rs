//! What the fetch tests share: the in-memory store of a run, and a lookup in it.

#![allow(dead_code)]

pub use podlens_ingest::fetch::CollectedFeeds as MemoryStore;
use podlens_model::catalog::FeedFetchRecord;

/// The fetch of the feed whose URL ends with `suffix`.
pub trait FetchFor {
    fn fetch_for(&self, suffix: &str) -> &FeedFetchRecord;
}

impl FetchFor for MemoryStore {
    fn fetch_for(&self, suffix: &str) -> &FeedFetchRecord {
        self.fetches
            .iter()
            .find(|fetch| fetch.feed_url.ends_with(suffix))
            .unwrap_or_else(|| panic!("no fetch for {suffix}: {:#?}", self.fetches))
    }
}
