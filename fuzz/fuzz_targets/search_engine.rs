//! Any search terms and options against a real index (three corpus feeds, built once):
//! word analysis, term planning (stopwords, phrases, fuzzy words, language words), the
//! BM25F, coverage and proximity queries, filters and cursors either answer or return
//! an error, never a panic.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "../../indexer/tests/common/fixture_dir.rs"]
mod fixture_dir;

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use fixture_dir::fixture_dir_under;
use podlens_indexer::{
    BuildOptions, IndexReaderHandle, IndexSource, MatchMode, SearchFilters, SearchMode,
    SearchRequest, SearchTerm, Target, build_generation,
};

const FEEDS: [&str; 3] = [
    "gopodcast_1322200189.xml",
    "partytime_pc20rss.xml",
    "feed-rs_rss_2.0_spiegel.xml",
];

fn index() -> &'static (PathBuf, IndexReaderHandle) {
    static INDEX: OnceLock<(PathBuf, IndexReaderHandle)> = OnceLock::new();
    INDEX.get_or_init(|| {
        let feeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/feeds");
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let batches: Vec<_> = FEEDS
            .iter()
            .map(|name| {
                let bytes = std::fs::read(feeds.join(name)).expect("corpus feed");
                let parsed = podlens_ingest::parse_feed(&bytes, None).expect("feed parses");
                podlens_ingest::normalize(&parsed, &format!("https://feeds.example.test/{name}"), now)
            })
            .collect();
        let podcasts: Vec<_> = batches.iter().map(|b| b.podcast.clone()).collect();
        let episodes: Vec<_> = batches.iter().flat_map(|b| b.episodes.clone()).collect();
        let persons: Vec<_> = batches.iter().flat_map(|b| b.persons.clone()).collect();
        let dir = fixture_dir_under(&std::env::temp_dir(), "podlens-fuzz-search-engine");
        let source = IndexSource {
            podcasts: &podcasts,
            episodes: &episodes,
            persons: &persons,
            ..IndexSource::default()
        };
        let options = BuildOptions {
            shards: Some(2),
            ..BuildOptions::default()
        };
        build_generation(&dir.join("index"), source, &options).expect("index builds");
        let handle = IndexReaderHandle::open(&dir.join("index")).expect("index opens");
        (dir, handle)
    })
}

const TARGETS: [Target; 5] = [
    Target::PodcastTitle,
    Target::PodcastDescription,
    Target::EpisodeTitle,
    Target::EpisodeDescription,
    Target::Transcript,
];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mode = if flags & 1 == 0 {
        SearchMode::Podcasts
    } else {
        SearchMode::Episodes
    };
    // each line a term; its first byte picks the match mode, phrase and fuzzy flags
    let terms: Vec<SearchTerm> = text
        .split('\n')
        .take(8)
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            let pick = line.bytes().next().unwrap_or(0) as usize + number;
            let targets = match mode {
                SearchMode::Podcasts => TARGETS[..2].to_vec(),
                SearchMode::Episodes => TARGETS[pick % 3..].to_vec(),
            };
            SearchTerm {
                text: line.to_owned(),
                targets,
                match_mode: [MatchMode::Optional, MatchMode::Must, MatchMode::Not][pick % 3],
                phrase: flags & 2 != 0,
                slop: u32::from(flags >> 5),
                fuzzy: flags & 4 != 0,
            }
        })
        .collect();
    let request = SearchRequest {
        mode: Some(mode),
        terms,
        filters: SearchFilters {
            languages: if flags & 8 != 0 { vec!["de".into()] } else { Vec::new() },
            ..SearchFilters::default()
        },
        page_size: 1 + usize::from(flags >> 4),
        explain: flags & 16 != 0,
        ..SearchRequest::default()
    };
    let handle = &index().1;
    if let Ok(response) = handle.search(&request) {
        // the next page, through the cursor the engine gave
        if let Some(cursor) = response.next_cursor {
            let next = SearchRequest {
                cursor: Some(cursor),
                ..request
            };
            let _ = handle.search(&next);
        }
    }
});
