//! What a search box's words find, over real feeds of ../shared/corpus parsed by the
//! ingest crate, plus generated keyword-stuffed feeds. Expectations come from the feeds'
//! text (scanned here with a plain tokenizer), the judged queries of
//! benches/relevance, and the feeds' own duplicates and declared people.

mod common;
#[path = "common/fixture_dir.rs"]
mod fixture_dir;
use fixture_dir::fixture_dir_under;

fn fixture_dir(name: &str) -> PathBuf {
    fixture_dir_under(Path::new(env!("CARGO_TARGET_TMPDIR")), name)
}

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{TimeZone, Utc};
use podlens_indexer::{
    BuildOptions, Hits, IndexChanges, IndexReaderHandle, IndexSource, MatchMode, PodcastHit,
    SearchFilters, SearchMode, SearchRequest, SearchTerm, Target, build_generation,
    update_generation,
};
use podlens_model::catalog::{EpisodeRecord, FeedBatch};
use uuid::Uuid;

use common::term;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

const TRUE_CRIME: &[&str] = &[
    "gopodcast_1322200189.xml", // Crime Junkie
    "gopodcast_1074507850.xml", // My Favorite Murder
    "gopodcast_1464919521.xml", // Dateline NBC
    "gopodcast_965818306.xml",  // 48 Hours
    "gopodcast_1364665348.xml", // Sea of Lies from Uncover (British spellings: "favourite")
];

const OTHERS: &[&str] = &[
    "gopodcast_1545953110.xml", // Huberman Lab
    "gopodcast_1510251497.xml", // Parenting Hell
    "gopodcast_262026947.xml",  // 6 Minute English
    "partytime_pc20rss.xml",
    "partytime_themnshow.xml",
    "partytime_dk-podcast.xml", // DW: Langsam gesprochene Nachrichten (German)
    "feed-rs_rss_2.0_spiegel.xml",
    "gopodcast_1568123217.xml", // Machtwechsel (German politics)
    "gopodcast_1582828457.xml", // LANZ & PRECHT (German)
    "gopodcast_1790620773.xml", // Somnoversum (German sleep science)
    "gopodcast_1374777021.xml", // Alles gesagt? (German interviews)
    // one show, two dated copies each
    "gnome-podcasts_2018-01-20-Intercepted.xml",
    "gnome-podcasts_2018-02-03-Intercepted.xml",
    "gopodcast_1200361736.xml",
    "podcast-feed-parser_the-daily.xml",
];

/// A feed whose title and description are lists of search words, with episodes that
/// repeat them.
fn stuffed_feed(number: usize) -> String {
    let words = "true crime, murder, cold case, serial killer, true crime podcast, mystery, unsolved, true crime stories, missing persons, crime, murder mystery, true crime daily, cold cases, detective, investigation, killer, true crime";
    let items: String = (0..12)
        .map(|n| {
            format!(
                "<item><title>True Crime Murder Cold Case Episode {n}</title><guid>stuffed-{number}-{n}</guid><description>{words}</description><pubDate>Mon, 0{} Sep 2025 10:00:00 GMT</pubDate><enclosure url=\"https://spam.example/{number}/{n}.mp3\" type=\"audio/mpeg\" length=\"1\"/></item>",
                1 + n % 9
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>True Crime Murder Cold Case Serial Killer Mystery True Crime Podcast {number}</title><link>https://spam.example/{number}</link><language>en</language><description>{words}, {words}</description>{items}</channel></rss>"
    )
}

/// A feed whose channel text is about true crime while its episodes are about trading.
fn unrelated_episodes_feed() -> String {
    let items: String = (0..12)
        .map(|n| {
            format!(
                "<item><title>Bitcoin price prediction {n}: altcoins to buy now</title><guid>crypto-{n}</guid><description>Crypto trading signals, leverage and the best exchange bonus codes this week.</description><pubDate>Mon, 0{} Sep 2025 10:00:00 GMT</pubDate></item>",
                1 + n % 9
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Murder Cases</title><link>https://bait.example</link><language>en</language><description>True crime stories of murder and cold cases.</description>{items}</channel></rss>"
    )
}

struct Fixture {
    batches: Vec<(String, FeedBatch)>,
    /// The temporary folder of a fixture of one test (a `static` fixture's folder is a
    /// `fixture_dir`).
    _dir: Option<tempfile::TempDir>,
    handle: IndexReaderHandle,
    index_dir: PathBuf,
}

fn parse(name: &str, bytes: &[u8]) -> FeedBatch {
    let parsed = podlens_ingest::parse_feed(bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    podlens_ingest::normalize(&parsed, &format!("https://feeds.example.test/{name}"), now)
}

fn index(batches: &[(String, FeedBatch)], dir: &Path) {
    let podcasts: Vec<_> = batches.iter().map(|(_, b)| b.podcast.clone()).collect();
    let episodes: Vec<_> = batches
        .iter()
        .flat_map(|(_, b)| b.episodes.clone())
        .collect();
    let persons: Vec<_> = batches
        .iter()
        .flat_map(|(_, b)| b.persons.clone())
        .collect();
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
    build_generation(dir, source, &options).expect("index builds");
}

/// The corpus's feed files `names`, parsed.
fn corpus_batches<'a>(names: impl IntoIterator<Item = &'a &'a str>) -> Vec<(String, FeedBatch)> {
    names
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(corpus().join("feeds").join(name)).unwrap();
            (name.to_string(), parse(name, &bytes))
        })
        .collect()
}

/// `batches` indexed in a new temporary directory.
fn indexed(batches: Vec<(String, FeedBatch)>) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let mut fixture = indexed_in(batches, dir.path());
    fixture._dir = Some(dir);
    fixture
}

/// `batches` indexed into `dir`.
fn indexed_in(batches: Vec<(String, FeedBatch)>, dir: &Path) -> Fixture {
    let index_dir = dir.join("index");
    index(&batches, &index_dir);
    let handle = IndexReaderHandle::open(&index_dir).unwrap();
    Fixture {
        batches,
        _dir: None,
        handle,
        index_dir,
    }
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let mut batches = corpus_batches(TRUE_CRIME.iter().chain(OTHERS));
        for number in 0..3 {
            let name = format!("stuffed-{number}.xml");
            let batch = parse(&name, stuffed_feed(number).as_bytes());
            batches.push((name, batch));
        }
        batches.push((
            "unrelated.xml".into(),
            parse("unrelated.xml", unrelated_episodes_feed().as_bytes()),
        ));
        indexed_in(batches, &fixture_dir("relevance-fixture"))
    })
}

/// The fixture's batch of the feed file `file`.
fn batch_of(file: &str) -> &'static FeedBatch {
    fixture()
        .batches
        .iter()
        .find(|(name, _)| name == file)
        .map(|(_, batch)| batch)
        .unwrap()
}

fn podcast_of(file: &str) -> Uuid {
    batch_of(file).podcast.podcast_id
}

const PODCAST_TARGETS: &[Target] = &[Target::PodcastTitle, Target::PodcastDescription];
const EPISODE_TARGETS: &[Target] = &[
    Target::EpisodeTitle,
    Target::EpisodeDescription,
    Target::Transcript,
];

fn podcasts(handle: &IndexReaderHandle, text: &str) -> Vec<Uuid> {
    let request = SearchRequest {
        mode: Some(SearchMode::Podcasts),
        terms: vec![term(text, PODCAST_TARGETS, MatchMode::Optional)],
        page_size: 100,
        ..SearchRequest::default()
    };
    match handle.search(&request).unwrap().hits {
        Hits::Podcasts(hits) => hits.iter().map(|hit| hit.podcast_id).collect(),
        Hits::Episodes(_) => panic!("podcast hits"),
    }
}

fn episodes(handle: &IndexReaderHandle, text: &str) -> Vec<Uuid> {
    episodes_in(handle, text, MatchMode::Optional)
}

fn episodes_in(handle: &IndexReaderHandle, text: &str, mode: MatchMode) -> Vec<Uuid> {
    let request = SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms: vec![term(text, EPISODE_TARGETS, mode)],
        page_size: 100,
        ..SearchRequest::default()
    };
    match handle.search(&request).unwrap().hits {
        Hits::Episodes(hits) => hits.iter().map(|hit| hit.episode_id).collect(),
        Hits::Podcasts(_) => panic!("episode hits"),
    }
}

/// The lowercase words of a text (letters and digits).
/// A show's title and its episodes' titles and descriptions.
fn show_text(batch: &FeedBatch) -> String {
    let mut text = batch.podcast.podcast_rss_title.clone();
    for episode in &batch.episodes {
        text.push(' ');
        text.push_str(&episode.episode_rss_title);
        text.push(' ');
        text.push_str(
            episode
                .episode_rss_description
                .as_deref()
                .unwrap_or_default(),
        );
    }
    text
}

fn plain_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Regression: a natural multi-word query returned nothing unless one field held every
/// word. Now a podcast holding the words across its title, description and episodes is
/// found, and the first hit holds every word.
#[test]
fn natural_multi_word_queries_find_shows_whose_fields_share_the_words() {
    let fixture = fixture();
    for query in ["true crime cold cases", "shows about murder investigations"] {
        let found = podcasts(&fixture.handle, query);
        assert!(!found.is_empty(), "{query}");
        let crime_junkie = podcast_of("gopodcast_1322200189.xml");
        assert!(found.contains(&crime_junkie), "{query}");
    }
    // every word in one field of no podcast, every word across the fields of Crime Junkie
    let words = ["ashley", "unsolved", "mondays"];
    let batch = batch_of("gopodcast_1322200189.xml");
    let mut text = format!(
        "{} {}",
        batch.podcast.podcast_rss_title,
        batch
            .podcast
            .podcast_rss_description_no_html
            .clone()
            .unwrap_or_default()
    );
    for episode in &batch.episodes {
        text.push(' ');
        text.push_str(&episode.episode_rss_title);
    }
    let held = plain_words(&text);
    let query: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| held.contains(*w))
        .collect();
    assert!(query.len() >= 2, "{query:?}");
    let found = podcasts(&fixture.handle, &query.join(" "));
    assert_eq!(found.first(), Some(&batch.podcast.podcast_id), "{query:?}");
}

/// Regression: stopwords and one-letter words were required words, so "a podcast about
/// the mind" found nothing. They are dropped at query time; a term of stopwords only is
/// searched as a phrase.
#[test]
fn stopwords_single_letters_and_symbols_never_empty_a_query() {
    let handle = &fixture().handle;
    let huberman = podcast_of("gopodcast_1545953110.xml");
    assert!(podcasts(handle, "a podcast about the brain & x").contains(&huberman));
    // only stopwords: the phrase, which one title holds
    let daily: Vec<Uuid> = [
        "gopodcast_1200361736.xml",
        "podcast-feed-parser_the-daily.xml",
    ]
    .iter()
    .map(|file| podcast_of(file))
    .collect();
    let found = podcasts(handle, "The Daily");
    assert!(daily.contains(&found[0]), "{found:?}");
    // odd queries answer, without error
    for odd in [
        "🎙️🎧",
        "!!",
        "\u{0}\u{7}\t",
        "the of and",
        &"word ".repeat(50),
        "ça-va l'été",
    ] {
        let request = SearchRequest {
            terms: vec![term(odd, PODCAST_TARGETS, MatchMode::Must)],
            ..SearchRequest::default()
        };
        fixture()
            .handle
            .search(&request)
            .unwrap_or_else(|e| panic!("{odd:?}: {e}"));
    }
    // a term without any word matches nothing rather than everything
    assert!(podcasts(handle, "🎙️🎧").is_empty());
}

/// `must` finds documents holding every content word somewhere in the targets;
/// `optional` any; `not` leaves out documents holding every word.
#[test]
fn match_modes_over_the_union_of_target_fields() {
    let handle = &fixture().handle;
    // every page, from the true-crime feeds
    let true_crime: Vec<Uuid> = TRUE_CRIME.iter().map(|file| podcast_of(file)).collect();
    let search = |terms: Vec<SearchTerm>| -> BTreeSet<Uuid> {
        let mut found = BTreeSet::new();
        let mut cursor = None;
        loop {
            let request = SearchRequest {
                mode: Some(SearchMode::Episodes),
                terms: terms.clone(),
                filters: podlens_indexer::SearchFilters {
                    include_podcast_ids: true_crime.clone(),
                    ..Default::default()
                },
                page_size: 500,
                cursor,
                ..SearchRequest::default()
            };
            let response = handle.search(&request).unwrap();
            found.extend(response.ids());
            match response.next_cursor {
                Some(next) => cursor = Some(next),
                None => return found,
            }
        }
    };
    let targets = &[Target::EpisodeTitle, Target::EpisodeDescription];
    // words that do not inflect, so a plain scan is the expectation
    let (a, b) = ("murder", "texas");
    // the true-crime feeds (no copies among them)
    let holding = |word: &str| -> BTreeSet<Uuid> {
        fixture()
            .batches
            .iter()
            .filter(|(name, _)| TRUE_CRIME.contains(&name.as_str()))
            .flat_map(|(_, batch)| &batch.episodes)
            .filter(|episode| {
                // the description target holds the episode's keywords too
                let text = format!(
                    "{} {} {}",
                    episode.episode_rss_title,
                    episode
                        .episode_rss_description_no_html
                        .clone()
                        .unwrap_or_default(),
                    episode.episode_keywords.join(" ")
                );
                plain_words(&text).contains(word)
            })
            .map(|episode| episode.episode_id)
            .collect()
    };
    let (with_a, with_b) = (holding(a), holding(b));
    let both: BTreeSet<Uuid> = with_a.intersection(&with_b).copied().collect();
    assert!(both.len() >= 3, "{}", both.len());
    let must = search(vec![term(&format!("{a} {b}"), targets, MatchMode::Must)]);
    assert!(both.is_subset(&must), "every episode holding both words");
    let any = search(vec![term(
        &format!("{a} {b}"),
        targets,
        MatchMode::Optional,
    )]);
    let either: BTreeSet<Uuid> = with_a.union(&with_b).copied().collect();
    assert!(either.is_subset(&any));
    assert!(must.is_subset(&any));
    let not = search(vec![
        term(a, targets, MatchMode::Must),
        term(b, targets, MatchMode::Not),
    ]);
    assert!(not.is_disjoint(&with_b));
    assert!(with_a.difference(&with_b).all(|id| not.contains(id)));
}

/// Keyword-stuffed feeds and a feed whose episodes are unrelated to its channel text
/// never outrank the real true-crime shows for the words they stuff.
#[test]
fn keyword_stuffed_and_bait_feeds_never_outrank_real_shows() {
    let fixture = fixture();
    let real: Vec<Uuid> = TRUE_CRIME.iter().map(|file| podcast_of(file)).collect();
    let spam: Vec<Uuid> = (0..3)
        .map(|n| podcast_of(&format!("stuffed-{n}.xml")))
        .chain([podcast_of("unrelated.xml")])
        .collect();
    for query in [
        "true crime",
        "murder mystery",
        "cold case",
        "true crime stories of murder",
        "serial killer",
    ] {
        let found = podcasts(&fixture.handle, query);
        let worst_real = real
            .iter()
            .filter_map(|id| found.iter().position(|hit| hit == id))
            .max()
            .unwrap_or_else(|| panic!("{query}: no real show"));
        let best_spam = spam
            .iter()
            .filter_map(|id| found.iter().position(|hit| hit == id))
            .min()
            .unwrap_or(usize::MAX);
        assert!(
            worst_real < best_spam,
            "{query}: a spam feed at {best_spam}, a real show at {worst_real}"
        );
    }
}

/// The same show published twice (two dated copies of a feed, no shared guid) appears
/// once; so do its episodes.
#[test]
fn a_show_published_twice_appears_once() {
    let handle = &fixture().handle;
    let copies = [
        podcast_of("gnome-podcasts_2018-01-20-Intercepted.xml"),
        podcast_of("gnome-podcasts_2018-02-03-Intercepted.xml"),
    ];
    assert_ne!(copies[0], copies[1]);
    let found = podcasts(handle, "intercepted jeremy scahill");
    assert_eq!(found.iter().filter(|id| copies.contains(id)).count(), 1);
    // the newer copy is the one kept
    assert!(found.contains(&copies[1]));
    let found = episodes(handle, "intercepted");
    let titles: Vec<String> = found
        .iter()
        .filter_map(|id| {
            fixture()
                .batches
                .iter()
                .flat_map(|(_, b)| &b.episodes)
                .find(|e| e.episode_id == *id)
                .map(|e| e.episode_rss_title.clone())
        })
        .collect();
    let unique: BTreeSet<&String> = titles.iter().collect();
    assert_eq!(unique.len(), titles.len(), "{titles:?}");
}

/// A name declared only in a feed's `podcast:person` tags (never in its text) finds the
/// show and the episode.
#[test]
fn people_declared_in_feeds_are_searchable() {
    let fixture = fixture();
    for (file, name) in [
        ("partytime_pc20rss.xml", "Hass McCook"),
        ("partytime_themnshow.xml", "Timothy Jurgensen"),
    ] {
        let batch = &fixture.batches.iter().find(|(n, _)| n == file).unwrap().1;
        assert!(
            !plain_words(
                &batch
                    .podcast
                    .podcast_rss_description_no_html
                    .clone()
                    .unwrap_or_default()
            )
            .contains(&name.split(' ').next_back().unwrap().to_lowercase())
        );
        let found = podcasts(&fixture.handle, name);
        assert!(found.contains(&batch.podcast.podcast_id), "{name}");
        let declared: BTreeSet<Uuid> = batch
            .persons
            .iter()
            .filter(|person| person.name.contains(name.split(' ').next_back().unwrap()))
            .filter_map(|person| person.episode_id)
            .collect();
        if !declared.is_empty() {
            let found: BTreeSet<Uuid> = episodes(&fixture.handle, name).into_iter().collect();
            assert!(!found.is_disjoint(&declared), "{name}");
        }
    }
}

/// An English word naming a language finds shows in that language ("german news").
#[test]
fn language_words_find_shows_in_that_language() {
    let handle = &fixture().handle;
    let german = [
        podcast_of("partytime_dk-podcast.xml"),
        podcast_of("feed-rs_rss_2.0_spiegel.xml"),
    ];
    let found = podcasts(handle, "german news");
    for id in german {
        let at = found.iter().position(|hit| *hit == id).expect("found");
        assert!(at < 4, "{at}");
    }
}

/// Regression: "História da Arte", lectures in Portuguese whose feed declares `EN`, was
/// stemmed as English and not counted as Portuguese, so "art history in portuguese" put
/// English history shows above it. A show whose text is plainly in another language than
/// the English it declares is indexed in that language's fields and is in that language
/// for the filters; its hits keep the declared tag; an update indexes its new episodes
/// in the same language.
#[test]
fn a_show_in_portuguese_whose_feed_declares_english_is_found_as_portuguese() {
    const LECTURES: &str = "podcast-feed-parser_itunesu.xml";
    const FORA_DE_ORBITA: &str = "podcast-feed-parser_orbita.xml"; // declared Portuguese
    let fixture = indexed(corpus_batches(&[
        LECTURES,
        FORA_DE_ORBITA,
        "gopodcast_1537788786.xml", // The Rest Is History
        "gopodcast_1611374685.xml",
        "gopodcast_1641568639.xml",
        "feed-rs_rss_2.0_bbc.xml",
        "gopodcast_1322200189.xml",
    ]));
    let batch = |file: &str| &fixture.batches.iter().find(|(n, _)| n == file).unwrap().1;
    let lectures = &batch(LECTURES).podcast;
    assert_eq!(lectures.rss_language.as_deref(), Some("en"));
    assert!(lectures.podcast_rss_title.starts_with("História da Arte"));

    let found = podcasts(&fixture.handle, "art history in portuguese");
    assert_eq!(found.first(), Some(&lectures.podcast_id), "{found:?}");

    // a language filter searches that language's fields only: the show's words are in
    // the Portuguese ones
    let filtered = |handle: &IndexReaderHandle, mode, text: &str, targets, language: &str| {
        let request = SearchRequest {
            mode: Some(mode),
            terms: if text.is_empty() {
                Vec::new()
            } else {
                vec![term(text, targets, MatchMode::Optional)]
            },
            filters: SearchFilters {
                languages: vec![language.into()],
                ..SearchFilters::default()
            },
            page_size: 100,
            ..SearchRequest::default()
        };
        handle.search(&request).unwrap().hits
    };
    let ids = |hits: Hits| match hits {
        Hits::Podcasts(hits) => hits
            .iter()
            .map(|hit| hit.podcast_id)
            .collect::<BTreeSet<_>>(),
        Hits::Episodes(hits) => hits.iter().map(|hit| hit.episode_id).collect(),
    };
    let podcast_mode = SearchMode::Podcasts;
    let in_portuguese = ids(filtered(
        &fixture.handle,
        podcast_mode,
        "",
        PODCAST_TARGETS,
        "pt",
    ));
    let expected = BTreeSet::from([
        lectures.podcast_id,
        batch(FORA_DE_ORBITA).podcast.podcast_id,
    ]);
    assert_eq!(in_portuguese, expected);
    let arte = |handle: &IndexReaderHandle, language: &str| {
        ids(filtered(
            handle,
            podcast_mode,
            "arte",
            PODCAST_TARGETS,
            language,
        ))
    };
    assert!(arte(&fixture.handle, "pt").contains(&lectures.podcast_id));
    assert!(!arte(&fixture.handle, "en").contains(&lectures.podcast_id));
    let Hits::Podcasts(hits) =
        filtered(&fixture.handle, podcast_mode, "arte", PODCAST_TARGETS, "pt")
    else {
        panic!("podcast hits");
    };
    let shown = hits
        .iter()
        .find(|hit| hit.podcast_id == lectures.podcast_id);
    assert_eq!(shown.and_then(|hit| hit.language.as_deref()), Some("en"));

    // an episode added by an update goes into the Portuguese fields too
    let episode = EpisodeRecord {
        episode_id: Uuid::new_v4(),
        podcast_id: lectures.podcast_id,
        episode_slug: "cubismo".into(),
        episode_rss_title: "Historia da Arte - Cubismo".into(),
        episode_rss_description_no_html: Some(
            "Picasso, Braque e a pintura cubista em Paris no começo do século XX.".into(),
        ),
        episode_rss_published_at: Some(Utc.with_ymd_and_hms(2026, 1, 2, 0, 0, 0).unwrap()),
        episode_podcast_title_denormalized: lectures.podcast_rss_title.clone(),
        ..EpisodeRecord::default()
    };
    add_by_update(&fixture.index_dir, &fixture.handle, &episode);
    let episode_mode = SearchMode::Episodes;
    let found = |language| {
        ids(filtered(
            &fixture.handle,
            episode_mode,
            "cubismo",
            EPISODE_TARGETS,
            language,
        ))
    };
    assert_eq!(found("pt"), BTreeSet::from([episode.episode_id]));
    assert!(found("en").is_empty());
    assert!(arte(&fixture.handle, "pt").contains(&lectures.podcast_id));
}

/// English topic words beside a language word match their translations in that
/// language: "german science" finds the German show whose channel text says
/// "Wissenschaft" and whose text and categories never say "science" near the top (the
/// holders are found by a plain scan).
#[test]
fn an_english_topic_word_finds_its_translation_in_the_language_named() {
    let fixture = fixture();
    for (query, translated, english) in [("german science", "wissenschaft", "science")] {
        let holders: Vec<Uuid> = fixture
            .batches
            .iter()
            .map(|(_, batch)| &batch.podcast)
            .filter(|podcast| {
                podcast
                    .rss_language
                    .as_deref()
                    .is_some_and(|tag| tag.starts_with("de"))
            })
            .filter(|podcast| {
                let words = plain_words(&format!(
                    "{} {}",
                    podcast.podcast_rss_title,
                    podcast
                        .podcast_rss_description_no_html
                        .as_deref()
                        .unwrap_or_default()
                ));
                let elsewhere = podcast
                    .rss_categories
                    .iter()
                    .chain(&podcast.podcast_keywords)
                    .any(|text| plain_words(text).contains(english));
                words.contains(translated) && !words.contains(english) && !elsewhere
            })
            .map(|podcast| podcast.podcast_id)
            .collect();
        assert!(!holders.is_empty(), "{query}");
        let found = podcasts(&fixture.handle, query);
        for id in holders {
            let at = found.iter().position(|hit| *hit == id);
            assert!(at.is_some_and(|at| at < 2), "{query}: {at:?}");
        }
    }
}

/// Regression: "my favourite murder" put My Favorite Murder behind shows that only
/// matched "murder", because the British spelling is another word to the stemmer. A word
/// also matches its other English spelling, as the same word.
#[test]
fn a_british_spelling_finds_the_show_titled_in_american_spelling() {
    let fixture = fixture();
    let favorite = &batch_of("gopodcast_1074507850.xml").podcast;
    let title = plain_words(&favorite.podcast_rss_title);
    assert!(title.contains("favorite") && !title.contains("favourite"));
    // Another true crime show holds the British spelling, so the word is no typo to
    // match fuzzily.
    let sea_of_lies = batch_of("gopodcast_1364665348.xml");
    assert!(plain_words(&show_text(sea_of_lies)).contains("favourite"));
    for query in ["my favourite murder", "favourite murder"] {
        let found = podcasts(&fixture.handle, query);
        assert_eq!(found.first(), Some(&favorite.podcast_id), "{query}");
    }
}

/// A show `title` with `description`, and three episodes of unrelated words.
fn described_feed(title: &str, description: &str) -> String {
    let items: String = (0..3)
        .map(|n| {
            format!(
                "<item><title>Episode {n}</title><guid>{title}-{n}</guid><description>Weekly conversation number {n}.</description><pubDate>Mon, 0{} Sep 2025 10:00:00 GMT</pubDate></item>",
                1 + n
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title><link>https://{title}.example</link><language>en</language><description>{description}</description>{items}</channel></rss>"
    )
}

/// Regression: "activism" did not find a show about activists, nor "historians" one about
/// history: the English stemmer gives each word its own stem. A word also matches the
/// other words of its family, below a show holding the word itself.
#[test]
fn a_word_finds_the_other_words_of_its_family_below_itself() {
    let (fixture, ids) = with_described_shows(&[
        (
            "placards",
            "Stories of activism and the marches that changed laws.",
        ),
        (
            "marchers",
            "Stories of activists and the marches that changed laws.",
        ),
    ]);
    for (query, own, related) in [
        ("activism", "placards", "marchers"),
        ("activists", "marchers", "placards"),
    ] {
        assert_finds_above(&fixture, &ids, query, own, related);
    }
}

/// Regression: "sci-fi audio drama" missed Welcome to Night Vale, filed under "Science
/// Fiction", and "ai" missed a show about "artificial intelligence": an abbreviation and
/// what it stands for share no word. Each form finds the show holding the other, below
/// the show holding the form itself.
#[test]
fn an_abbreviation_and_what_it_stands_for_find_each_other_below_themselves() {
    let (fixture, ids) = with_described_shows(&[
        ("rotors", "Weekly talks on AI and the people who build it."),
        (
            "stators",
            "Weekly talks on artificial intelligence and the people who build it.",
        ),
        ("quasars", "Radio plays of sci-fi, read aloud each week."),
        (
            "pulsars",
            "Radio plays of science fiction, read aloud each week.",
        ),
        // In titles, the field of most weight: a phrase there must not outscore the word.
        ("AI-Weekly", "Conversations with builders."),
        (
            "Artificial-Intelligence-Weekly",
            "Conversations with builders.",
        ),
    ]);
    for (query, own, other) in [
        ("ai", "rotors", "stators"),
        ("artificial intelligence", "stators", "rotors"),
        ("sci-fi", "quasars", "pulsars"),
        ("science fiction", "pulsars", "quasars"),
        ("ai", "AI-Weekly", "Artificial-Intelligence-Weekly"),
        (
            "artificial intelligence",
            "Artificial-Intelligence-Weekly",
            "AI-Weekly",
        ),
    ] {
        assert_finds_above(&fixture, &ids, query, own, other);
    }
}

/// The true-crime shows and generated ones (title, description) indexed together, and
/// the generated shows' podcast ids by title.
fn with_described_shows(shows: &[(&str, &str)]) -> (Fixture, HashMap<String, Uuid>) {
    let mut batches = corpus_batches(TRUE_CRIME);
    let mut ids = HashMap::new();
    for (title, description) in shows {
        let name = format!("{title}.xml");
        let batch = parse(&name, described_feed(title, description).as_bytes());
        ids.insert((*title).to_owned(), batch.podcast.podcast_id);
        batches.push((name, batch));
    }
    (indexed(batches), ids)
}

/// `query` finds the shows titled `own` and `other`, `own` first.
fn assert_finds_above(
    fixture: &Fixture,
    ids: &HashMap<String, Uuid>,
    query: &str,
    own: &str,
    other: &str,
) {
    let found = podcasts(&fixture.handle, query);
    let rank = |show: &str| found.iter().position(|hit| *hit == ids[show]);
    let (own_rank, other_rank) = (rank(own), rank(other));
    assert!(own_rank.is_some(), "{query}: {own} not found");
    assert!(other_rank.is_some(), "{query}: {other} not found");
    assert!(
        own_rank < other_rank,
        "{query}: {own} at {own_rank:?}, {other} at {other_rank:?}"
    );
}

/// Regression: adding an episode did not change what its podcast matches. An update
/// rewrites the podcast's document with the new episode's text.
#[test]
fn an_added_episode_makes_its_podcast_match_its_words() {
    let fixture = fixture();
    let dir = tempfile::tempdir().unwrap();
    let index_dir = dir.path().join("index");
    index(&fixture.batches, &index_dir);
    let handle = IndexReaderHandle::open(&index_dir).unwrap();
    let word = "zyxwvut";
    assert!(podcasts(&handle, word).is_empty());
    let batch = &fixture.batches[0].1;
    let episode = EpisodeRecord {
        episode_id: Uuid::new_v4(),
        podcast_id: batch.podcast.podcast_id,
        episode_slug: "new".into(),
        episode_rss_title: format!("The {word} case"),
        episode_rss_published_at: Some(Utc.with_ymd_and_hms(2026, 1, 2, 0, 0, 0).unwrap()),
        episode_podcast_title_denormalized: batch.podcast.podcast_rss_title.clone(),
        ..EpisodeRecord::default()
    };
    add_by_update(&index_dir, &handle, &episode);
    assert_eq!(episodes(&handle, word), vec![episode.episode_id]);
    assert_eq!(podcasts(&handle, word), vec![batch.podcast.podcast_id]);
    // and it still matches what it matched before
    let before = podcasts(&fixture.handle, "crime junkie");
    assert_eq!(podcasts(&handle, "crime junkie").first(), before.first());
    let _ = &fixture.index_dir;
}

/// Adds `episode` to the index in `index_dir` by an incremental update, and reloads
/// `handle` onto it.
fn add_by_update(index_dir: &Path, handle: &IndexReaderHandle, episode: &EpisodeRecord) {
    let changes = IndexChanges {
        episodes: std::slice::from_ref(episode),
        ..IndexChanges::default()
    };
    update_generation(index_dir, changes, &BuildOptions::default()).unwrap();
    assert!(handle.reload().unwrap());
}

/// Regression: an update rebuilt a podcast's episodes' text without the episodes'
/// keywords (the episodes index did not keep them), so after a feed refresh the show
/// stopped matching a word only its older episodes' `itunes:keywords` held.
#[test]
fn an_update_keeps_the_keywords_of_a_podcasts_older_episodes() {
    let word = "quetzalcoatlus";
    let mut batches = corpus_batches(TRUE_CRIME);
    let show = &mut batches[0].1;
    show.episodes[0].episode_keywords = vec![word.to_owned()];
    let podcast = show.podcast.clone();
    let fixture = indexed(batches);
    assert_eq!(podcasts(&fixture.handle, word), vec![podcast.podcast_id]);
    let episode = EpisodeRecord {
        episode_id: Uuid::new_v4(),
        podcast_id: podcast.podcast_id,
        episode_slug: "newest".into(),
        episode_rss_title: "The newest case".into(),
        episode_rss_published_at: Some(Utc.with_ymd_and_hms(2026, 1, 2, 0, 0, 0).unwrap()),
        episode_podcast_title_denormalized: podcast.podcast_rss_title.clone(),
        ..EpisodeRecord::default()
    };
    add_by_update(&fixture.index_dir, &fixture.handle, &episode);
    assert_eq!(podcasts(&fixture.handle, word), vec![podcast.podcast_id]);
}

/// No real feed of the corpus looks keyword-stuffed or like bait: the text quality of
/// every one stays at 1 (long titles aside, 0.8).
#[test]
fn real_feeds_are_not_mistaken_for_keyword_stuffing() {
    let mut low = Vec::new();
    for entry in std::fs::read_dir(corpus().join("feeds")).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(parsed) = podlens_ingest::parse_feed(&std::fs::read(&path).unwrap(), None) else {
            continue;
        };
        let batch = podlens_ingest::normalize(&parsed, "https://feeds.example.test/x", Utc::now());
        let mut texts: Vec<_> = batch
            .episodes
            .iter()
            .map(|e| podlens_indexer::EpisodeText::of(e, Vec::new()))
            .collect();
        let (episodes, text) = podlens_indexer::episodes_text(&mut texts);
        let quality = podlens_indexer::quality::text_quality(&batch.podcast)
            * podlens_indexer::quality::consistency(&batch.podcast, episodes, &text);
        if quality < 0.8 {
            low.push(format!(
                "{name} {quality:.2} {}",
                batch.podcast.podcast_rss_title
            ));
        }
    }
    assert!(low.is_empty(), "{low:#?}");
}

/// Regression (found by the search_engine fuzz target): an explained, fuzzy phrase of
/// one-letter words with slop over every episode target ("c\rA") sought a phrase scorer
/// backwards, a debug assertion in tantivy and a wrong answer without it. Every such
/// request answers, the next page too.
#[test]
fn an_explained_fuzzy_phrase_of_one_letter_words_never_seeks_backwards() {
    let handle = &fixture().handle;
    for text in ["c\rA", "c A", "a b c", "I o", "x"] {
        for (phrase, fuzzy, explain) in
            [(true, true, true), (true, false, true), (true, true, false)]
        {
            let request = SearchRequest {
                mode: Some(SearchMode::Episodes),
                terms: vec![SearchTerm {
                    text: text.to_owned(),
                    targets: vec![
                        Target::PodcastTitle,
                        Target::PodcastDescription,
                        Target::EpisodeTitle,
                        Target::EpisodeDescription,
                        Target::Transcript,
                    ],
                    match_mode: MatchMode::Optional,
                    phrase,
                    slop: 3,
                    fuzzy,
                }],
                page_size: 8,
                explain,
                ..SearchRequest::default()
            };
            let response = handle.search(&request).unwrap();
            if let Some(cursor) = response.next_cursor {
                let next = SearchRequest {
                    cursor: Some(cursor),
                    ..request
                };
                handle.search(&next).unwrap();
            }
        }
    }
}

/// Found by the search fuzzer: explaining the episode hits of "13?11" (two words in one,
/// so the term gets proximity phrases) explained every clause of the proximity bonus,
/// and a phrase clause whose first match lies past the hit was sought backwards (a
/// debug assertion in tantivy; a wrong explanation in release).
#[test]
fn explaining_a_hit_never_seeks_a_proximity_phrase_backwards() {
    let fixture = indexed(corpus_batches(&[
        "gopodcast_1322200189.xml",
        "partytime_pc20rss.xml",
        "feed-rs_rss_2.0_spiegel.xml",
    ]));
    let handle = &fixture.handle;
    let mut request = SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms: vec![SearchTerm {
            text: "13?11".into(),
            targets: vec![
                Target::PodcastDescription,
                Target::EpisodeTitle,
                Target::EpisodeDescription,
                Target::Transcript,
            ],
            match_mode: MatchMode::Must,
            phrase: false,
            slop: 1,
            fuzzy: false,
        }],
        page_size: 4,
        explain: true,
        ..SearchRequest::default()
    };
    let mut explained = 0;
    loop {
        let response = handle.search(&request).unwrap();
        let Hits::Episodes(hits) = &response.hits else {
            panic!("episode hits expected");
        };
        for hit in hits {
            assert!(hit.explanation.is_some(), "{hit:?}");
            explained += 1;
        }
        match response.next_cursor {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    assert!(
        explained > 0,
        "the words are in the feeds: some episode matches"
    );
}

/// A podcast search that asks for ids alone (`podcast_fields: false`, as the API does)
/// finds the same podcasts in the same order with the same scores and reads none of their
/// stored fields; the generation then reads any of them by id, with the fields the other
/// search read, and leaves out an id it does not hold.
#[test]
fn podcast_hits_without_stored_fields_match_the_stored_ones_and_are_read_by_id() {
    let handle = &fixture().handle;
    let search = |podcast_fields| {
        let request = SearchRequest {
            mode: Some(SearchMode::Podcasts),
            terms: vec![term(
                "true crime murder",
                PODCAST_TARGETS,
                MatchMode::Optional,
            )],
            page_size: 100,
            podcast_fields,
            ..SearchRequest::default()
        };
        match handle.search(&request).unwrap().hits {
            Hits::Podcasts(hits) => hits,
            Hits::Episodes(_) => panic!("podcast hits"),
        }
    };
    let stored = search(true);
    let bare = search(false);
    assert!(stored.len() >= 3, "{} hits", stored.len());
    assert_eq!(bare.len(), stored.len());
    for (bare, stored) in bare.iter().zip(&stored) {
        assert_eq!(bare.podcast_id, stored.podcast_id);
        assert_eq!(bare.score, stored.score);
        assert!(stored.stored && !stored.title.is_empty());
        assert!(!bare.stored && bare.title.is_empty() && bare.description.is_none());
    }
    let mut ids: Vec<Uuid> = stored.iter().map(|hit| hit.podcast_id).collect();
    ids.push(Uuid::nil());
    let read = handle.generation().podcast_hits(&ids).unwrap();
    assert_eq!(read.len(), stored.len());
    for (read, stored) in read.iter().zip(&stored) {
        assert_eq!(
            &PodcastHit {
                score: stored.score,
                ..read.clone()
            },
            stored
        );
    }
}

/// Real shows whose words overlap by name and by number: a farming show hosted by a
/// Jordan, shows with Jordan Peterson as a guest, and history and politics shows.
fn names_and_numbers() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        indexed_in(
            corpus_batches(&[
                "podcast-feed-parser_ruminant.xml", // The Ruminant, hosted by Jordan Marr
                "gopodcast_1291423644.xml",         // The Diary Of A CEO
                "gopodcast_1719657632.xml",         // The Tucker Carlson Show
                "gopodcast_1537788786.xml",         // The Rest Is History
                "gopodcast_1611374685.xml",         // The Rest Is Politics
                "gopodcast_1641568639.xml",         // This is History: A Dynasty to Die For
            ]),
            &fixture_dir("relevance-names-and-numbers"),
        )
    })
}

/// The shows of `batches` with an episode title holding `phrase` (lowercased).
fn shows_with_titled_episodes(batches: &[(String, FeedBatch)], phrase: &str) -> Vec<Uuid> {
    batches
        .iter()
        .filter(|(_, batch)| {
            batch
                .episodes
                .iter()
                .any(|episode| episode.episode_rss_title.to_lowercase().contains(phrase))
        })
        .map(|(_, batch)| batch.podcast.podcast_id)
        .collect()
}

/// Regression: "jordan peterson" put a farming show first, because its host is called
/// Jordan: a name's words counted apart in the show's episodes, where the guest's whole
/// name sits in episode titles.
#[test]
fn a_guests_whole_name_in_episode_titles_outranks_a_host_with_the_first_name() {
    let Fixture {
        batches, handle, ..
    } = names_and_numbers();
    let (_, ruminant) = &batches[0];
    let host = ruminant
        .podcast
        .podcast_rss_author
        .as_deref()
        .unwrap_or_default();
    assert!(plain_words(host).contains("jordan"), "{host}");
    assert!(!plain_words(&show_text(ruminant)).contains("peterson"));
    let guests = shows_with_titled_episodes(batches, "jordan peterson");
    assert!(guests.len() >= 2, "{guests:?}");
    let found = podcasts(handle, "jordan peterson");
    let rank = |id: &Uuid| found.iter().position(|hit| hit == id).unwrap_or(usize::MAX);
    let title = |id: &Uuid| {
        batches
            .iter()
            .find(|(_, batch)| batch.podcast.podcast_id == *id)
            .map(|(_, batch)| batch.podcast.podcast_rss_title.clone())
    };
    let found_titles: Vec<_> = found.iter().map(title).collect();
    for guest in &guests {
        assert!(
            rank(guest) < rank(&ruminant.podcast.podcast_id),
            "{:?}: {found_titles:?}",
            title(guest)
        );
    }
}

/// "world war two" finds episodes titled "World War II" that say "two" nowhere, and
/// "world war ii" those titled "World War Two", even with every word required.
#[test]
fn a_number_in_words_finds_its_roman_numeral() {
    let Fixture {
        batches, handle, ..
    } = names_and_numbers();
    let titled = |phrase: &str, without: &str| -> Vec<Uuid> {
        batches
            .iter()
            .flat_map(|(_, batch)| &batch.episodes)
            .filter(|episode| {
                let text = format!(
                    "{} {}",
                    episode.episode_rss_title,
                    episode
                        .episode_rss_description
                        .as_deref()
                        .unwrap_or_default()
                );
                episode.episode_rss_title.to_lowercase().contains(phrase)
                    && !plain_words(&text).contains(without)
            })
            .map(|episode| episode.episode_id)
            .collect()
    };
    for (query, phrase, word) in [
        ("world war two", "world war ii", "two"),
        ("world war ii", "world war two", "ii"),
    ] {
        let expected = titled(phrase, word);
        assert!(!expected.is_empty(), "{phrase}");
        // Every word held: the number only through its other form.
        let found = episodes_in(handle, query, MatchMode::Must);
        for episode in &expected {
            assert!(found.contains(episode), "{query}: {episode}");
        }
    }
}
