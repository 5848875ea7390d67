//! The engine against hand-built catalogs: every expectation is computed from the
//! records with plain word scans, never from the engine.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::Duration;

use common::{Catalog, catalog, day, has_phrase, has_word, term};
use podlens_indexer::{
    BuildOptions, EpisodeHit, Hits, IndexChanges, IndexReaderHandle, IndexSource, MatchMode,
    NullOrder, SearchFilters, SearchMode, SearchRequest, SearchTerm, SortDirection, SortField,
    SortOrder, Target, build_generation, update_generation,
};
use uuid::Uuid;

fn build(dir: &Path, catalog: &Catalog, shards: u32) {
    let source = IndexSource {
        podcasts: &catalog.podcasts,
        episodes: &catalog.episodes,
        transcripts: &catalog.transcripts,
        persons: &[],
        signals: None,
    };
    let options = BuildOptions {
        shards: Some(shards),
        writer_memory_bytes: 15 << 20,
        vectors: None,
        encoder: None,
        statistics: false,
        ..BuildOptions::default()
    };
    build_generation(dir, source, &options).unwrap();
}

fn open(dir: &Path) -> IndexReaderHandle {
    IndexReaderHandle::open(dir)
        .unwrap()
        .with_check_interval(Duration::ZERO)
}

/// Every hit of a request, following cursors.
fn all_ids(handle: &IndexReaderHandle, request: &SearchRequest) -> Vec<Uuid> {
    let mut request = request.clone();
    let mut ids = Vec::new();
    loop {
        let response = handle.search(&request).unwrap();
        ids.extend(response.ids());
        match response.next_cursor {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    ids
}

fn set(ids: Vec<Uuid>) -> BTreeSet<Uuid> {
    ids.into_iter().collect()
}

struct Fixture {
    _dir: tempfile::TempDir,
    catalog: Catalog,
    handle: IndexReaderHandle,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let catalog = catalog(80, 7);
    build(dir.path(), &catalog, 3);
    let handle = open(dir.path());
    Fixture {
        _dir: dir,
        catalog,
        handle,
    }
}

#[test]
fn episode_title_term_matches_exactly_the_episodes_containing_the_word() {
    let f = fixture();
    for word in ["garden", "rocket", "jazz"] {
        let request = SearchRequest {
            terms: vec![term(word, &[Target::EpisodeTitle], MatchMode::Must)],
            page_size: 9,
            ..SearchRequest::default()
        };
        let expected: BTreeSet<Uuid> = f
            .catalog
            .episodes
            .iter()
            .filter(|e| has_word(&e.episode_rss_title, word))
            .map(|e| e.episode_id)
            .collect();
        assert!(!expected.is_empty());
        let first = f.handle.search(&request).unwrap();
        assert_eq!(first.total, expected.len() as u64, "{word}");
        let ids = all_ids(&f.handle, &request);
        assert_eq!(ids.len(), expected.len(), "each hit exactly once");
        assert_eq!(set(ids), expected, "{word}");
    }
}

#[test]
fn phrase_requires_adjacent_words_while_plain_terms_need_only_both() {
    let f = fixture();
    let text = |e: &podlens_model::catalog::EpisodeRecord| {
        e.episode_rss_description_no_html
            .clone()
            .unwrap_or_default()
    };
    let (a, b) = ("music", "coffee");
    let mut phrase = term(
        "music coffee",
        &[Target::EpisodeDescription],
        MatchMode::Must,
    );
    phrase.phrase = true;
    let plain = term(
        "music coffee",
        &[Target::EpisodeDescription],
        MatchMode::Must,
    );
    let phrase_expected: BTreeSet<Uuid> = f
        .catalog
        .episodes
        .iter()
        .filter(|e| has_phrase(&text(e), "music coffee"))
        .map(|e| e.episode_id)
        .collect();
    let plain_expected: BTreeSet<Uuid> = f
        .catalog
        .episodes
        .iter()
        .filter(|e| has_word(&text(e), a) && has_word(&text(e), b))
        .map(|e| e.episode_id)
        .collect();
    assert!(phrase_expected.len() < plain_expected.len());
    let request = |t: SearchTerm| SearchRequest {
        terms: vec![t],
        page_size: 50,
        ..SearchRequest::default()
    };
    assert_eq!(set(all_ids(&f.handle, &request(phrase))), phrase_expected);
    assert_eq!(set(all_ids(&f.handle, &request(plain))), plain_expected);
}

#[test]
fn must_not_and_optional_terms_combine_as_documented() {
    let f = fixture();
    let title = |e: &podlens_model::catalog::EpisodeRecord| e.episode_rss_title.clone();
    let request = SearchRequest {
        terms: vec![
            term("ocean", &[Target::EpisodeTitle], MatchMode::Must),
            term("robot", &[Target::EpisodeTitle], MatchMode::Not),
        ],
        page_size: 1000,
        ..SearchRequest::default()
    };
    let expected: BTreeSet<Uuid> = f
        .catalog
        .episodes
        .iter()
        .filter(|e| has_word(&title(e), "ocean") && !has_word(&title(e), "robot"))
        .map(|e| e.episode_id)
        .collect();
    assert_eq!(set(all_ids(&f.handle, &request)), expected);

    let optional = SearchRequest {
        terms: vec![
            term("ocean", &[Target::EpisodeTitle], MatchMode::Optional),
            term("poetry", &[Target::EpisodeTitle], MatchMode::Optional),
        ],
        filters: SearchFilters {
            languages: vec!["de".into()],
            ..SearchFilters::default()
        },
        page_size: 1000,
        ..SearchRequest::default()
    };
    let german: BTreeSet<Uuid> = f
        .catalog
        .podcasts
        .iter()
        .filter(|p| p.rss_language.as_deref() == Some("de"))
        .map(|p| p.podcast_id)
        .collect();
    let expected: BTreeSet<Uuid> = f
        .catalog
        .episodes
        .iter()
        .filter(|e| german.contains(&e.podcast_id))
        .filter(|e| has_word(&title(e), "ocean") || has_word(&title(e), "poetry"))
        .map(|e| e.episode_id)
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(set(all_ids(&f.handle, &optional)), expected);
}

#[test]
fn podcast_filters_match_an_independent_scan() {
    let f = fixture();
    let since = day(-700);
    let request = SearchRequest {
        mode: Some(SearchMode::Podcasts),
        filters: SearchFilters {
            languages: vec!["EN".into()],
            include_genres: vec!["Arts".into(), "comedy".into()],
            min_total_episodes: Some(2),
            max_total_episodes: Some(5),
            founded_since: Some(since),
            ..SearchFilters::default()
        },
        page_size: 1000,
        ..SearchRequest::default()
    };
    let expected: BTreeSet<Uuid> = f
        .catalog
        .podcasts
        .iter()
        .filter(|p| {
            p.rss_language
                .as_deref()
                .is_some_and(|l| l.starts_with("en"))
        })
        .filter(|p| {
            p.podcast_podlens_genres
                .iter()
                .any(|g| g == "arts" || g == "comedy")
        })
        .filter(|p| (2..=5).contains(&p.total_episodes))
        .filter(|p| p.founded_date.is_some_and(|d| d >= since))
        .map(|p| p.podcast_id)
        .collect();
    assert!(!expected.is_empty());
    let response = f.handle.search(&request).unwrap();
    assert_eq!(response.total, expected.len() as u64);
    assert_eq!(set(response.ids()), expected);
}

#[test]
fn episode_filters_and_podcast_title_join() {
    let f = fixture();
    let since = day(400);
    let podcast_titles: HashMap<Uuid, String> = f
        .catalog
        .podcasts
        .iter()
        .map(|p| (p.podcast_id, p.podcast_rss_title.clone()))
        .collect();
    let request = SearchRequest {
        terms: vec![term("music", &[Target::PodcastTitle], MatchMode::Must)],
        filters: SearchFilters {
            has_transcript: Some(true),
            published_since: Some(since),
            ..SearchFilters::default()
        },
        page_size: 1000,
        ..SearchRequest::default()
    };
    let expected: BTreeSet<Uuid> = f
        .catalog
        .episodes
        .iter()
        .filter(|e| e.episode_has_transcript)
        .filter(|e| e.episode_rss_published_at.is_some_and(|d| d >= since))
        .filter(|e| has_word(&podcast_titles[&e.podcast_id], "music"))
        .map(|e| e.episode_id)
        .collect();
    assert!(!expected.is_empty());
    let response = f.handle.search(&request).unwrap();
    assert!(matches!(response.hits, Hits::Episodes(_)));
    assert_eq!(set(response.ids()), expected);
}

#[test]
fn sorts_return_the_expected_sequence_and_pages_cover_every_hit_once() {
    let f = fixture();
    let order = SortOrder {
        field: SortField::RecentActivity,
        direction: SortDirection::Desc,
        nulls: NullOrder::Last,
    };
    let request = SearchRequest {
        mode: Some(SearchMode::Episodes),
        sort: order,
        page_size: 7,
        ..SearchRequest::default()
    };
    let ids = all_ids(&f.handle, &request);
    let mut expected: Vec<&podlens_model::catalog::EpisodeRecord> =
        f.catalog.episodes.iter().collect();
    expected.sort_by(|a, b| {
        let by_date = match (a.episode_rss_published_at, b.episode_rss_published_at) {
            (Some(x), Some(y)) => y.cmp(&x),
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, None) => std::cmp::Ordering::Equal,
        };
        by_date.then(a.episode_id.cmp(&b.episode_id))
    });
    let expected: Vec<Uuid> = expected.iter().map(|e| e.episode_id).collect();
    assert_eq!(ids, expected);

    let by_title = SearchRequest {
        mode: Some(SearchMode::Podcasts),
        sort: SortOrder {
            field: SortField::Title,
            direction: SortDirection::Asc,
            nulls: NullOrder::Last,
        },
        page_size: 11,
        ..SearchRequest::default()
    };
    let ids = all_ids(&f.handle, &by_title);
    let titles: HashMap<Uuid, String> = f
        .catalog
        .podcasts
        .iter()
        .map(|p| (p.podcast_id, p.podcast_rss_title.to_lowercase()))
        .collect();
    assert_eq!(ids.len(), f.catalog.podcasts.len());
    for pair in ids.windows(2) {
        let (a, b) = (&titles[&pair[0]], &titles[&pair[1]]);
        assert!(a[..a.len().min(16)] <= b[..b.len().min(16)], "{a} / {b}");
    }
}

#[test]
fn relevance_paging_visits_every_hit_once_across_shards() {
    let f = fixture();
    let request = SearchRequest {
        terms: vec![term(
            "science",
            &[Target::EpisodeDescription, Target::Transcript],
            MatchMode::Optional,
        )],
        page_size: 5,
        ..SearchRequest::default()
    };
    let ids = all_ids(&f.handle, &request);
    let unique: BTreeSet<Uuid> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len());
    let transcripts: HashMap<Uuid, &str> = f
        .catalog
        .transcripts
        .iter()
        .map(|t| (t.episode_id, t.transcript_text.as_str()))
        .collect();
    let expected: BTreeSet<Uuid> = f
        .catalog
        .episodes
        .iter()
        .filter(|e| {
            has_word(
                e.episode_rss_description_no_html.as_deref().unwrap_or(""),
                "science",
            ) || transcripts
                .get(&e.episode_id)
                .is_some_and(|t| has_word(t, "science"))
        })
        .map(|e| e.episode_id)
        .collect();
    assert_eq!(unique, expected);
    // Scores never increase along the pages.
    let mut request = request;
    let mut last_score = f32::INFINITY;
    loop {
        let response = f.handle.search(&request).unwrap();
        if let Hits::Episodes(hits) = &response.hits {
            for hit in hits {
                assert!(hit.score <= last_score);
                last_score = hit.score;
            }
        }
        match response.next_cursor {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
}

#[test]
fn transcript_hits_carry_highlighted_snippets_with_timestamps() {
    let f = fixture();
    let request = SearchRequest {
        terms: vec![term("mountain", &[Target::Transcript], MatchMode::Must)],
        page_size: 3,
        explain: true,
        ..SearchRequest::default()
    };
    let response = f.handle.search(&request).unwrap();
    let Hits::Episodes(hits) = response.hits else {
        panic!("episode mode expected")
    };
    assert!(!hits.is_empty());
    for hit in hits {
        assert!(hit.has_transcript);
        assert!(hit.transcript_id.is_some());
        assert!(hit.explanation.is_some());
        assert!(!hit.snippets.is_empty());
        for snippet in hit.snippets {
            assert!(
                snippet.html.contains("<em>mountain</em>"),
                "{}",
                snippet.html
            );
            let start = snippet.start_second.unwrap();
            let end = snippet.end_second.unwrap();
            assert!(start < end && end <= 200.0);
            let (from, to) = snippet.highlights[0];
            assert_eq!(&snippet.fragment[from..to], "mountain");
        }
    }
}

#[test]
fn autocomplete_walks_title_words_and_tolerates_a_typo() {
    let f = fixture();
    let suggestions = f.handle.autocomplete("mou", 5).unwrap();
    assert_eq!(suggestions.words, vec!["mountain".to_owned()]);
    assert!(!suggestions.podcasts.is_empty());
    assert!(
        suggestions
            .podcasts
            .iter()
            .all(|p| has_word(&p.title, "mountain"))
    );
    let typo = f.handle.autocomplete("mountian", 5).unwrap();
    assert!(typo.podcasts.iter().any(|p| has_word(&p.title, "mountain")));
}

#[test]
fn related_podcasts_exclude_the_podcast_itself() {
    let f = fixture();
    let id = f.catalog.podcasts[0].podcast_id;
    let related = f.handle.related_podcasts(id, 5).unwrap();
    assert!(!related.is_empty());
    assert!(related.iter().all(|p| p.podcast_id != id));
}

/// Without vectors, related podcasts keep the part of the "like" ranking that needs
/// none: among the podcasts alike by text, one in the show's genre comes before one
/// that shares more of its words in another genre (text alone orders them the other way).
#[test]
fn related_podcasts_without_vectors_prefer_the_shows_genre() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(40, 13);
    let described = |podcast: &mut podlens_model::catalog::PodcastRecord,
                     title: &str,
                     description: &str,
                     genre: &str| {
        podcast.podcast_rss_title = title.into();
        podcast.podcast_rss_description_no_html = Some(description.into());
        podcast.podcast_podlens_genres = vec![genre.into()];
        // One language: their words are searched in the same fields.
        podcast.rss_language = Some("en".into());
    };
    let words = "falconry raptors hawks eagles goshawks hunting with birds of prey";
    described(&mut catalog.podcasts[0], "Falconry Hour", words, "science");
    described(&mut catalog.podcasts[1], "Raptor Talk", words, "comedy");
    described(
        &mut catalog.podcasts[2],
        "Bird Notes",
        "songbirds, and now and then falconry",
        "science",
    );
    build(dir.path(), &catalog, 2);
    let handle = open(dir.path());
    let (show, same_words, same_genre) = (
        catalog.podcasts[0].podcast_id,
        catalog.podcasts[1].podcast_id,
        catalog.podcasts[2].podcast_id,
    );
    let place = |hits: &[podlens_indexer::PodcastHit], id: Uuid| {
        hits.iter()
            .position(|hit| hit.podcast_id == id)
            .unwrap_or_else(|| panic!("{id} is not related: {hits:?}"))
    };
    let by_text = podlens_indexer::related_podcasts_with(
        &handle.generation(),
        show,
        10,
        podlens_indexer::RelatedMethod::Text,
    )
    .unwrap();
    assert!(place(&by_text, same_words) < place(&by_text, same_genre));
    let related = handle.related_podcasts(show, 10).unwrap();
    assert!(related.iter().all(|hit| hit.podcast_id != show));
    assert!(place(&related, same_genre) < place(&related, same_words));
}

#[test]
fn incremental_update_and_generation_switch_under_an_open_reader() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(20, 11);
    build(dir.path(), &catalog, 2);
    let handle = open(dir.path());
    let before = handle.generation();
    let everything = SearchRequest {
        mode: Some(SearchMode::Episodes),
        page_size: 1000,
        ..SearchRequest::default()
    };
    let count_before = handle.search(&everything).unwrap().total;
    assert_eq!(count_before, catalog.episodes.len() as u64);

    // Update one episode's title, delete another, add a new one.
    let mut changed = catalog.episodes[0].clone();
    changed.episode_rss_title = "zeppelin chronicles".into();
    let deleted = catalog.episodes[1].episode_id;
    let mut added = catalog.episodes[2].clone();
    added.episode_id = Uuid::from_u128(42);
    added.episode_rss_title = "zeppelin returns".into();
    catalog.episodes.push(added.clone());
    let transcripts: Vec<_> = catalog
        .transcripts
        .iter()
        .filter(|t| t.episode_id == changed.episode_id)
        .cloned()
        .collect();
    let changes = IndexChanges {
        episodes: &[changed.clone(), added.clone()],
        transcripts: &transcripts,
        deleted_episodes: &[deleted],
        ..IndexChanges::default()
    };
    let manifest = update_generation(dir.path(), changes, &BuildOptions::default()).unwrap();
    assert_eq!(manifest.generation, before.manifest.generation + 1);

    // The old generation still answers for a query that holds it.
    let old = podlens_indexer::search(&before, &everything).unwrap();
    assert_eq!(old.total, count_before);

    let zeppelin = SearchRequest {
        terms: vec![term("zeppelin", &[Target::EpisodeTitle], MatchMode::Must)],
        ..SearchRequest::default()
    };
    let response = handle.search(&zeppelin).unwrap();
    assert_eq!(response.generation, manifest.generation);
    assert_eq!(
        set(response.ids()),
        set(vec![changed.episode_id, added.episode_id])
    );
    let after = handle.search(&everything).unwrap();
    assert_eq!(after.total, count_before); // one deleted, one added
    assert!(!after.ids().contains(&deleted));
    assert_eq!(manifest.episodes, count_before);
}

#[test]
fn a_half_written_generation_without_manifest_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = catalog(10, 3);
    build(dir.path(), &catalog, 1);
    let published = podlens_indexer::read_manifest(dir.path()).unwrap().unwrap();
    // A crash mid-build: a later generation directory with partial content, no manifest.
    let partial = dir
        .path()
        .join(format!("gen-{}", published.generation + 1))
        .join("shard-0/podcasts");
    std::fs::create_dir_all(&partial).unwrap();
    std::fs::write(partial.join("meta.json"), b"{\"truncated").unwrap();
    std::fs::write(dir.path().join("manifest.json.tmp"), b"{").unwrap();
    let handle = open(dir.path());
    assert_eq!(handle.generation().manifest, published);
    let all = SearchRequest {
        mode: Some(SearchMode::Podcasts),
        page_size: 100,
        ..SearchRequest::default()
    };
    assert_eq!(handle.search(&all).unwrap().total, 10);
    // The next build skips the broken directory's number and removes it.
    build(dir.path(), &catalog, 1);
    let next = podlens_indexer::read_manifest(dir.path()).unwrap().unwrap();
    assert_eq!(next.generation, published.generation + 2);
    assert!(
        !dir.path()
            .join(format!("gen-{}", published.generation + 1))
            .exists()
    );
    assert_eq!(handle.search(&all).unwrap().generation, next.generation);
}

#[test]
fn bad_requests_are_errors_not_panics() {
    let f = fixture();
    let blank = SearchRequest {
        terms: vec![term("  ", &[Target::EpisodeTitle], MatchMode::Must)],
        ..SearchRequest::default()
    };
    assert!(f.handle.search(&blank).is_err());
    let zero = SearchRequest {
        page_size: 0,
        ..SearchRequest::default()
    };
    assert!(f.handle.search(&zero).is_err());
    let cursor = SearchRequest {
        cursor: Some("garbage!".into()),
        ..SearchRequest::default()
    };
    assert!(f.handle.search(&cursor).is_err());
    let episode_sort = SearchRequest {
        mode: Some(SearchMode::Episodes),
        sort: SortOrder {
            field: SortField::AppleReviews,
            ..SortOrder::default()
        },
        ..SearchRequest::default()
    };
    assert!(f.handle.search(&episode_sort).is_err());
}

/// The episodes of podcasts whose language tag starts with `language`.
fn episodes_in_language(catalog: &Catalog, language: &str) -> BTreeSet<Uuid> {
    let podcasts: BTreeSet<Uuid> = catalog
        .podcasts
        .iter()
        .filter(|p| {
            p.rss_language
                .as_deref()
                .is_some_and(|l| l.starts_with(language))
        })
        .map(|p| p.podcast_id)
        .collect();
    catalog
        .episodes
        .iter()
        .filter(|e| podcasts.contains(&e.podcast_id))
        .map(|e| e.episode_id)
        .collect()
}

#[test]
fn language_filtered_episode_searches_match_a_scan_when_resolved_and_when_reused() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(40, 5);
    build(dir.path(), &catalog, 2);
    let handle = open(dir.path());
    let german = |terms: Vec<SearchTerm>, language: &str| SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms,
        filters: SearchFilters {
            languages: vec![language.into()],
            ..SearchFilters::default()
        },
        page_size: 7,
        ..SearchRequest::default()
    };
    let expected = episodes_in_language(&catalog, "de");
    assert!(!expected.is_empty());
    // The first search resolves the filter, the later ones (any spelling) reuse it.
    for language in ["de", "de", "DE"] {
        let request = german(Vec::new(), language);
        assert_eq!(
            handle.search(&request).unwrap().total,
            expected.len() as u64
        );
        assert_eq!(set(all_ids(&handle, &request)), expected, "{language}");
    }
    let word = "music";
    let with_word: BTreeSet<Uuid> = catalog
        .episodes
        .iter()
        .filter(|e| expected.contains(&e.episode_id) && has_word(&e.episode_rss_title, word))
        .map(|e| e.episode_id)
        .collect();
    assert!(!with_word.is_empty());
    let request = german(
        vec![term(word, &[Target::EpisodeTitle], MatchMode::Must)],
        "de",
    );
    assert_eq!(set(all_ids(&handle, &request)), with_word);
    let excluded = SearchRequest {
        filters: SearchFilters {
            exclude_genres: vec!["arts".into()],
            ..request.filters.clone()
        },
        ..request.clone()
    };
    let arts: BTreeSet<Uuid> = catalog
        .podcasts
        .iter()
        .filter(|p| p.podcast_podlens_genres.iter().any(|g| g == "arts"))
        .map(|p| p.podcast_id)
        .collect();
    let expected_excluded: BTreeSet<Uuid> = catalog
        .episodes
        .iter()
        .filter(|e| with_word.contains(&e.episode_id) && !arts.contains(&e.podcast_id))
        .map(|e| e.episode_id)
        .collect();
    assert_eq!(set(all_ids(&handle, &excluded)), expected_excluded);

    // A new generation does not answer from the previous generation's filters.
    let german_podcast = catalog
        .podcasts
        .iter()
        .find(|p| p.rss_language.as_deref() == Some("de"))
        .unwrap()
        .podcast_id;
    let mut added = catalog
        .episodes
        .iter()
        .find(|e| e.podcast_id == german_podcast)
        .unwrap()
        .clone();
    added.episode_id = Uuid::from_u128(7);
    added.episode_has_transcript = false;
    added.transcript_id = None;
    catalog.episodes.push(added.clone());
    let changes = IndexChanges {
        episodes: &[added.clone()],
        ..IndexChanges::default()
    };
    update_generation(dir.path(), changes, &BuildOptions::default()).unwrap();
    let request = german(Vec::new(), "de");
    let ids = set(all_ids(&handle, &request));
    assert!(ids.contains(&added.episode_id));
    assert_eq!(ids, episodes_in_language(&catalog, "de"));
}

#[test]
fn a_word_is_found_in_a_feed_whose_language_only_one_shard_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(30, 3);
    // One French and one Japanese (unstemmed) podcast: the other shards hold no text in
    // those languages' fields.
    for podcast in &mut catalog.podcasts {
        podcast.rss_language = Some("en".into());
    }
    catalog.podcasts[4].rss_language = Some("fr".into());
    catalog.podcasts[9].rss_language = Some("ja".into());
    build(dir.path(), &catalog, 3);
    let handle = open(dir.path());
    let transcripts: HashMap<Uuid, &str> = catalog
        .transcripts
        .iter()
        .map(|t| (t.episode_id, t.transcript_text.as_str()))
        .collect();
    let targets = [
        Target::EpisodeTitle,
        Target::EpisodeDescription,
        Target::Transcript,
    ];
    let special = [
        catalog.podcasts[4].podcast_id,
        catalog.podcasts[9].podcast_id,
    ];
    for word in ["garden", "ocean", "poetry"] {
        let expected: BTreeSet<Uuid> = catalog
            .episodes
            .iter()
            .filter(|e| {
                has_word(&e.episode_rss_title, word)
                    || has_word(
                        e.episode_rss_description_no_html.as_deref().unwrap_or(""),
                        word,
                    )
                    || transcripts
                        .get(&e.episode_id)
                        .is_some_and(|text| has_word(text, word))
            })
            .map(|e| e.episode_id)
            .collect();
        let in_special: Vec<Uuid> = catalog
            .episodes
            .iter()
            .filter(|e| special.contains(&e.podcast_id) && expected.contains(&e.episode_id))
            .map(|e| e.episode_id)
            .collect();
        assert!(!in_special.is_empty(), "{word}");
        let request = SearchRequest {
            mode: Some(SearchMode::Episodes),
            terms: vec![term(word, &targets, MatchMode::Must)],
            page_size: 5,
            snippets: true,
            ..SearchRequest::default()
        };
        assert_eq!(set(all_ids(&handle, &request)), expected, "{word}");
        // An optional word that no shard's fields can match must not widen the results.
        let with_optional = SearchRequest {
            terms: vec![
                term(word, &targets, MatchMode::Must),
                term("zebra", &targets, MatchMode::Optional),
            ],
            ..request.clone()
        };
        assert_eq!(set(all_ids(&handle, &with_optional)), expected, "{word}");
    }
    // Filtered to French, a shard without French text has no field to search at all.
    let french = catalog.podcasts[4].podcast_id;
    let expected: BTreeSet<Uuid> = catalog
        .episodes
        .iter()
        .filter(|e| e.podcast_id == french && has_word(&e.episode_rss_title, "garden"))
        .map(|e| e.episode_id)
        .collect();
    for mode in [MatchMode::Must, MatchMode::Optional] {
        let request = SearchRequest {
            mode: Some(SearchMode::Episodes),
            terms: vec![term("garden", &[Target::EpisodeTitle], mode)],
            filters: SearchFilters {
                languages: vec!["fr".into()],
                ..SearchFilters::default()
            },
            page_size: 1000,
            ..SearchRequest::default()
        };
        assert_eq!(set(all_ids(&handle, &request)), expected, "{mode:?}");
    }
}

/// Japanese writes no space between words: a feed's title is often one run of letters.
/// Before its text was indexed in pairs of characters, "ジェシカ" found nothing in
/// "真空ジェシカのラジオ父ちゃん", and "love" nothing in "らぶぶらLOVE".
#[test]
fn a_japanese_word_inside_a_run_of_text_finds_its_episodes() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(30, 3);
    let japanese = catalog.podcasts[9].podcast_id;
    catalog.podcasts[9].rss_language = Some("ja".into());
    catalog.podcasts[9].podcast_rss_title = "真空ジェシカのラジオ父ちゃん".into();
    let titles = [
        "真空ジェシカのラジオ父ちゃん 第12回",
        "ゲストはジェシカさん",
        "ジェットコースターとシカの話",
        "大久保佳代子とらぶぶらLOVE",
    ];
    let mut ids = Vec::new();
    for (episode, title) in catalog
        .episodes
        .iter_mut()
        .filter(|e| e.podcast_id == japanese)
        .zip(titles)
    {
        episode.episode_rss_title = title.into();
        ids.push(episode.episode_id);
    }
    assert_eq!(ids.len(), titles.len());
    build(dir.path(), &catalog, 3);
    let handle = open(dir.path());
    let search = |text: &str, phrase: bool| {
        let request = SearchRequest {
            mode: Some(SearchMode::Episodes),
            terms: vec![SearchTerm {
                phrase,
                ..term(text, &[Target::EpisodeTitle], MatchMode::Must)
            }],
            page_size: 100,
            ..SearchRequest::default()
        };
        set(all_ids(&handle, &request))
    };
    // Expectations: the titles that hold the text, by a substring scan.
    let holding = |text: &str| -> BTreeSet<Uuid> {
        catalog
            .episodes
            .iter()
            .filter(|e| e.episode_rss_title.to_lowercase().contains(text))
            .map(|e| e.episode_id)
            .collect()
    };
    for word in ["ジェシカ", "ラジオ父ちゃん", "父ちゃん", "佳代子"] {
        let expected = holding(word);
        assert!(!expected.is_empty(), "{word}");
        assert_eq!(search(word, false), expected, "{word}");
        assert_eq!(search(word, true), expected, "\"{word}\"");
    }
    // "ジェット" and "シカ" hold two of the pairs of "ジェシカ", not the word.
    assert!(!search("ジェシカ", true).contains(&ids[2]));
    assert_eq!(search("ジェット", false), BTreeSet::from([ids[2]]));
    // A Latin word written against Japanese text is a word of its own.
    assert!(search("love", false).contains(&ids[3]));
    // Typed into a search box, the middle of the title suggests its podcast, and no
    // pair of characters is suggested as a word.
    let suggestions = handle.autocomplete("ジェシ", 5).unwrap();
    assert!(
        suggestions
            .podcasts
            .iter()
            .any(|p| p.podcast_id == japanese)
    );
    assert!(suggestions.words.is_empty(), "{:?}", suggestions.words);
}

/// "x-men" searched "men": its one-letter part, which alone is no content word, was
/// dropped, and with it what told it from any other title holding "men".
#[test]
fn a_hyphenated_word_with_a_one_letter_part_is_searched_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(30, 3);
    let titles = [
        "X-Men: the animated series",
        "Why men don't talk",
        "Malcolm X and the men of the movement",
        "K-Pop idols on tour",
        "KPop charts this week",
        "Pop music of the eighties",
        "M-1グランプリ2024の感想",
        "M1 chips, reviewed",
        "One million listeners",
        "Rock and roll legends",
    ];
    let ids: Vec<Uuid> = catalog
        .episodes
        .iter_mut()
        .zip(titles)
        .map(|(episode, title)| {
            episode.episode_rss_title = title.into();
            episode.episode_id
        })
        .collect();
    let said = "don't wear that T-shirt, it isn't yours";
    let transcript = &mut catalog.transcripts[0];
    for segment in &mut transcript.segments {
        segment.text = said.into();
    }
    transcript.transcript_text = vec![said; transcript.segments.len()].join(" ");
    let spoken = transcript.episode_id;
    build(dir.path(), &catalog, 3);
    let handle = open(dir.path());
    let search = |text: &str, mode: MatchMode, phrase: bool| {
        let request = SearchRequest {
            mode: Some(SearchMode::Episodes),
            terms: vec![SearchTerm {
                phrase,
                ..term(text, &[Target::EpisodeTitle], mode)
            }],
            page_size: 100,
            ..SearchRequest::default()
        };
        set(all_ids(&handle, &request))
    };
    let these = |at: &[usize]| -> BTreeSet<Uuid> { at.iter().map(|&at| ids[at]).collect() };
    // The compound as written, its parts as a phrase, or its parts joined.
    for mode in [MatchMode::Optional, MatchMode::Must] {
        assert_eq!(search("x-men", mode, false), these(&[0]), "{mode:?}");
        assert_eq!(search("K-pop", mode, false), these(&[3, 4]), "{mode:?}");
        assert_eq!(search("m-1", mode, false), these(&[6, 7]), "{mode:?}");
    }
    assert_eq!(search("x-men series", MatchMode::Must, false), these(&[0]));
    // Quoted, the words as typed, in order.
    assert_eq!(search("x-men", MatchMode::Optional, true), these(&[0]));
    // A word hyphenated around longer parts is still its words, and so is a run with
    // a one-letter word inside it.
    assert_eq!(
        search("men-pop", MatchMode::Optional, false),
        these(&[0, 1, 2, 3, 5])
    );
    assert_eq!(search("rock-n-roll", MatchMode::Must, false), these(&[9]));
    // A transcript passage found by a compound marks its content part, never the
    // one-letter words of the passage ("t" of "don't").
    let request = SearchRequest {
        terms: vec![term("t-shirt", &[Target::Transcript], MatchMode::Must)],
        page_size: 10,
        snippets: true,
        ..SearchRequest::default()
    };
    let Hits::Episodes(hits) = handle.search(&request).unwrap().hits else {
        panic!("episode mode expected")
    };
    assert_eq!(
        hits.iter().map(|hit| hit.episode_id).collect::<Vec<_>>(),
        [spoken]
    );
    assert!(!hits[0].snippets.is_empty());
    for snippet in &hits[0].snippets {
        let marked: Vec<&str> = snippet
            .highlights
            .iter()
            .map(|&(from, to)| &snippet.fragment[from..to])
            .collect();
        assert!(!marked.is_empty());
        assert!(marked.iter().all(|text| *text == "shirt"), "{marked:?}");
    }
    // In a page of hits, the compound's title comes first among its words' titles.
    let first = SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms: vec![term(
            "x-men comics",
            &[Target::EpisodeTitle],
            MatchMode::Optional,
        )],
        page_size: 3,
        ..SearchRequest::default()
    };
    let page = handle.search(&first).unwrap();
    assert_eq!(page.ids().first(), Some(&ids[0]));
}

impl Fixture {
    /// The transcript of `hit`, a transcript hit.
    fn transcript_of(&self, hit: &EpisodeHit) -> &podlens_model::catalog::TranscriptRecord {
        self.catalog
            .transcripts
            .iter()
            .find(|t| t.episode_id == hit.episode_id)
            .expect("a transcript hit has a transcript")
    }
}

/// The first `page_size` hits of `word` in transcripts, with snippets.
fn transcript_hits(f: &Fixture, word: &str, page_size: usize) -> Vec<EpisodeHit> {
    let request = SearchRequest {
        terms: vec![term(word, &[Target::Transcript], MatchMode::Must)],
        page_size,
        snippets: true,
        ..SearchRequest::default()
    };
    let Hits::Episodes(hits) = f.handle.search(&request).unwrap().hits else {
        panic!("episode mode expected")
    };
    hits
}

/// Regression: a hit found through another form of the query's word ("historians"
/// finds transcripts saying "history", its family) had no snippet: the passages were
/// looked up by the word's own form alone.
#[test]
fn a_hit_found_by_another_form_of_a_word_shows_that_form_in_its_snippets() {
    let f = fixture();
    let hits = transcript_hits(&f, "historians", 5);
    assert!(!hits.is_empty());
    for hit in &hits {
        let transcript = f.transcript_of(hit);
        assert!(has_word(&transcript.transcript_text, "history"));
        assert!(!hit.snippets.is_empty(), "{}", hit.episode_id);
        for snippet in &hit.snippets {
            assert!(
                snippet.html.contains("<em>history</em>"),
                "{}",
                snippet.html
            );
        }
    }
}

#[test]
fn every_hit_gets_its_own_best_matching_chunks_as_snippets() {
    let f = fixture();
    let word = "mountain";
    let hits = transcript_hits(&f, word, 1000);
    // Expected from the records: the hit's transcript's chunks that hold the word.
    let mut checked = 0;
    for hit in &hits {
        let transcript = f.transcript_of(hit);
        let matching: HashMap<String, String> =
            podlens_indexer::chunking::chunk_transcript(transcript)
                .into_iter()
                .filter(|chunk| has_word(&chunk.text, word))
                .map(|chunk| {
                    (
                        format!("{}:{}", transcript.transcript_id, chunk.ordinal),
                        chunk.text,
                    )
                })
                .collect();
        assert_eq!(
            hit.snippets.len(),
            matching.len().min(3),
            "{}",
            hit.episode_id
        );
        let mut seen = BTreeSet::new();
        for snippet in &hit.snippets {
            let text = matching.get(&snippet.chunk_id).unwrap_or_else(|| {
                panic!("{} is not a matching chunk of the hit", snippet.chunk_id)
            });
            assert!(text.contains(&snippet.fragment));
            assert!(seen.insert(snippet.chunk_id.clone()));
        }
        checked += 1;
    }
    assert!(checked > 3, "{checked}");
    assert!(hits.iter().any(|hit| hit.snippets.len() > 1));
}

/// Every episode hit of `request`, following cursors.
fn all_episode_hits(
    handle: &IndexReaderHandle,
    request: &SearchRequest,
) -> Vec<podlens_indexer::EpisodeHit> {
    let mut request = request.clone();
    let mut hits = Vec::new();
    loop {
        let response = handle.search(&request).unwrap();
        let Hits::Episodes(page) = response.hits else {
            panic!("episode mode expected")
        };
        hits.extend(page);
        match response.next_cursor {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    hits
}

#[test]
fn episode_hits_carry_the_transcript_start_and_when_the_episode_was_first_seen() {
    let dir = tempfile::tempdir().unwrap();
    let mut catalog = catalog(60, 11);
    for (n, episode) in catalog.episodes.iter_mut().enumerate() {
        episode.episode_created_at = day(2000 + n as i64);
    }
    build(dir.path(), &catalog, 3);
    let handle = open(dir.path());
    let transcripts: HashMap<Uuid, &str> = catalog
        .transcripts
        .iter()
        .map(|t| (t.episode_id, t.transcript_text.trim()))
        .collect();
    let created: HashMap<Uuid, _> = catalog
        .episodes
        .iter()
        .map(|e| (e.episode_id, e.episode_created_at))
        .collect();
    assert!(
        catalog
            .episodes
            .iter()
            .any(|e| e.episode_rss_published_at.is_none()),
        "the catalog has undated episodes"
    );
    for chars in [40, 2000] {
        let request = SearchRequest {
            mode: Some(SearchMode::Episodes),
            page_size: 50,
            transcript_start_chars: Some(chars),
            ..SearchRequest::default()
        };
        let hits = all_episode_hits(&handle, &request);
        assert_eq!(hits.len(), catalog.episodes.len());
        for hit in &hits {
            assert_eq!(hit.first_seen_at, Some(created[&hit.episode_id]));
            let Some(transcript) = transcripts.get(&hit.episode_id) else {
                assert_eq!(hit.transcript_start, None);
                continue;
            };
            let start = hit.transcript_start.as_deref().expect("a transcript start");
            let (head, cut) = match start.strip_suffix('…') {
                Some(head) => (head, true),
                None => (start, false),
            };
            assert!(
                transcript.starts_with(head),
                "{start:?} starts {transcript:?}"
            );
            assert!(head.chars().count() <= chars);
            if cut {
                // Cut after a whole word, no more than a word short of the length.
                let next = transcript[head.len()..].chars().next();
                assert!(next.is_some_and(char::is_whitespace), "{start:?}");
                assert!(head.chars().count() + 20 > chars, "{start:?}");
            } else {
                // Whole: the transcript's first chunk, which holds at least a segment.
                assert!(head.split_whitespace().count() >= 8, "{start:?}");
            }
        }
        let starts = hits.iter().filter(|hit| hit.transcript_start.is_some());
        assert_eq!(starts.count(), transcripts.len());
    }
    let request = SearchRequest {
        mode: Some(SearchMode::Episodes),
        page_size: 50,
        ..SearchRequest::default()
    };
    let hits = all_episode_hits(&handle, &request);
    assert!(hits.iter().all(|hit| hit.transcript_start.is_none()));
}
