//! The wire form of search hits: typed records that borrow the engine's hits and the
//! snapshot's podcast records, serialised once, in the blocking task that builds them.
//! A page of a hundred hits is about 180 KB of JSON; building it as `serde_json::Value`
//! maps copied every string of every hit twice and cost as much as the search itself.
//! A podcast's fields, two thirds of an episode hit's bytes, are written once per
//! podcast and plan and kept ([`PodcastJsonCache`]): a hit copies them as they are.

use std::borrow::Cow;
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use lru::LruCache;
use podlens_data::snapshot::{AuthorityScoreRow, PodcastsView};
use podlens_indexer::{EpisodeHit, PodcastHit, TranscriptSnippet};
use podlens_model::Plan;
use podlens_model::catalog::PodcastRecord;
use podlens_model::plans::PodcastExtraField;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use uuid::Uuid;

/// A hit serialised to JSON text, ready to be written into the response as it is.
pub type WireHit = Box<RawValue>;

/// The podcast fields every hit carries (both modes), as the SDK requires them. The
/// plan's extra fields are written only when the plan has them and the snapshot has the
/// podcast's record (`null` inside them when the record lacks the value).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodcastFields<'a> {
    podcast_id: Uuid,
    podcast_slug: &'a str,
    podcast_rss_title: &'a str,
    podcast_rss_title_latest: &'a str,
    podcast_rss_description: Option<&'a str>,
    podcast_rss_description_no_html: Option<&'a str>,
    podcast_rss_author: Option<&'a str>,
    podcast_image_url: Option<&'a str>,
    podcast_website_url: Option<&'a str>,
    podcast_rss_feed_url: Option<&'a str>,
    podcast_host_names: Option<&'a [String]>,
    rss_language: Option<&'a str>,
    rss_categories: Option<&'a [String]>,
    founded_date: Option<DateTime<Utc>>,
    last_episode_date: Option<DateTime<Utc>>,
    update_frequency: Option<&'a str>,
    total_episodes: Option<i64>,
    total_transcripts: Option<i64>,
    transcription_mode: &'static str,
    podcast_authority_score_total: Option<f64>,
    podcast_authority_score_quality: Option<f64>,
    podcast_authority_score_social: Option<f64>,
    podcast_authority_score_youtube: Option<f64>,
    podcast_authority_score_engagement: Option<f64>,
    youtube_channel_count: Option<u64>,
    youtube_total_subscribers: Option<u64>,
    youtube_total_videos: Option<u64>,
    youtube_total_views: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apple_id: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spotify_id: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    podcast_has_guests: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    podcast_emails: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    podcast_podlens_genres: Option<&'a [String]>,
}

/// A podcast's fields as hits write them: each field's name and JSON text, in order.
/// Written into a hit (`#[serde(flatten)]`), the text is copied as it is, not escaped
/// again.
#[derive(Debug, Clone)]
pub struct PodcastJson(Vec<(String, Box<RawValue>)>);

impl PodcastJson {
    fn of(fields: &PodcastFields<'_>) -> serde_json::Result<PodcastJson> {
        serde_json::from_str(&serde_json::to_string(fields)?)
    }
}

impl Serialize for PodcastJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for PodcastJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = PodcastJson;

            fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
                formatter.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PodcastJson, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry()? {
                    fields.push(field);
                }
                Ok(PodcastJson(fields))
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// How many podcasts' fields [`PodcastJsonCache`] keeps (per plan's set of extra
/// fields): a few KB each.
const PODCAST_JSON_ENTRIES: usize = 8192;

/// The podcast fields of search hits as JSON, written once per podcast and plan's extra
/// fields and kept, least recently used first out, while the snapshot they were read
/// from is current: a page of episode hits names about half as many podcasts as hits,
/// and the same podcasts come back from search to search.
pub struct PodcastJsonCache(Mutex<CachedPodcasts>);

struct CachedPodcasts {
    /// The snapshot the entries were read from.
    view: Option<PodcastsView>,
    entries: LruCache<(Uuid, u8), Arc<PodcastJson>>,
}

impl Default for PodcastJsonCache {
    fn default() -> Self {
        PodcastJsonCache(Mutex::new(CachedPodcasts {
            view: None,
            entries: LruCache::new(
                NonZeroUsize::new(PODCAST_JSON_ENTRIES).unwrap_or(NonZeroUsize::MIN),
            ),
        }))
    }
}

impl std::fmt::Debug for PodcastJsonCache {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("PodcastJsonCache")
    }
}

impl PodcastJsonCache {
    /// The fields of the podcasts `ids` (in order) as `plan` sees them in `view`;
    /// `None` for a podcast `view` has no record of.
    pub fn podcasts(
        &self,
        view: &PodcastsView,
        plan: Plan,
        ids: &[Uuid],
    ) -> serde_json::Result<Vec<Option<Arc<PodcastJson>>>> {
        let tier = extras_key(plan);
        let mut found: Vec<Option<Arc<PodcastJson>>> = {
            let mut cache = self
                .0
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if !cache
                .view
                .as_ref()
                .is_some_and(|held| held.same_snapshot(view))
            {
                cache.view = Some(view.clone());
                cache.entries.clear();
            }
            ids.iter()
                .map(|id| cache.entries.get(&(*id, tier)).cloned())
                .collect()
        };
        // Written outside the lock, once per podcast of the page.
        let mut written: HashMap<Uuid, Arc<PodcastJson>> = HashMap::new();
        for (id, slot) in ids.iter().zip(found.iter_mut()) {
            if slot.is_some() {
                continue;
            }
            if let Some(json) = written.get(id) {
                *slot = Some(json.clone());
                continue;
            }
            let Some(record) = view.podcast(*id) else {
                continue;
            };
            let fields = PodcastFields::new(
                *id,
                Some(record),
                view.authority_score(*id),
                plan,
                Fallback::default(),
            );
            let json = Arc::new(PodcastJson::of(&fields)?);
            written.insert(*id, json.clone());
            *slot = Some(json);
        }
        if !written.is_empty() {
            let mut cache = self
                .0
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if cache
                .view
                .as_ref()
                .is_some_and(|held| held.same_snapshot(view))
            {
                for (id, json) in written {
                    cache.entries.put((id, tier), json);
                }
            }
        }
        Ok(found)
    }
}

/// Which of the extra fields [`PodcastFields`] writes `plan` sees, as bits.
fn extras_key(plan: Plan) -> u8 {
    let extras = plan.podcast_extra_fields();
    [
        PodcastExtraField::AppleId,
        PodcastExtraField::Guests,
        PodcastExtraField::PrimaryContact,
        PodcastExtraField::Genres,
    ]
    .iter()
    .enumerate()
    .filter(|(_, field)| extras.contains(field))
    .fold(0, |key, (bit, _)| key | 1 << bit)
}

/// What a hit knows of its podcast when the snapshot has no record of it (the index and
/// the snapshot disagree for a moment while a generation is switched).
#[derive(Default)]
struct Fallback<'a> {
    title: &'a str,
    slug: &'a str,
    /// The description as the index keeps it (its text, without HTML).
    description: Option<&'a str>,
    author: Option<&'a str>,
    host_names: Option<&'a [String]>,
    total_episodes: Option<i64>,
    image_url: Option<&'a str>,
    language: Option<&'a str>,
    founded_date: Option<DateTime<Utc>>,
    last_episode_date: Option<DateTime<Utc>>,
}

impl<'a> PodcastFields<'a> {
    fn new(
        podcast_id: Uuid,
        record: Option<&'a PodcastRecord>,
        score: Option<&AuthorityScoreRow>,
        plan: Plan,
        fallback: Fallback<'a>,
    ) -> PodcastFields<'a> {
        let title = record.map_or(fallback.title, |r| r.podcast_rss_title.as_str());
        let extras = plan.podcast_extra_fields();
        let has = |field: PodcastExtraField| record.filter(|_| extras.contains(&field));
        PodcastFields {
            podcast_id,
            podcast_slug: record.map_or(fallback.slug, |r| r.podcast_slug.as_str()),
            podcast_rss_title: title,
            podcast_rss_title_latest: title,
            podcast_rss_description: record.map_or(fallback.description, |r| {
                r.podcast_rss_description.as_deref()
            }),
            podcast_rss_description_no_html: record.map_or(fallback.description, |r| {
                r.podcast_rss_description_no_html.as_deref()
            }),
            podcast_rss_author: record.map_or(fallback.author, |r| r.podcast_rss_author.as_deref()),
            podcast_image_url: record
                .map_or(fallback.image_url, |r| r.podcast_image_url.as_deref()),
            podcast_website_url: record.and_then(|r| r.podcast_website_url.as_deref()),
            podcast_rss_feed_url: record.map(|r| r.podcast_rss_feed_url.as_str()),
            podcast_host_names: record.map_or(fallback.host_names, |r| {
                Some(r.podcast_host_names.as_slice())
            }),
            rss_language: record.map_or(fallback.language, |r| r.rss_language.as_deref()),
            rss_categories: record.map(|r| r.rss_categories.as_slice()),
            founded_date: record.map_or(fallback.founded_date, |r| r.founded_date),
            last_episode_date: record.map_or(fallback.last_episode_date, |r| r.last_episode_date),
            update_frequency: record.and_then(|r| r.update_frequency.as_deref()),
            total_episodes: record.map_or(fallback.total_episodes, |r| Some(r.total_episodes)),
            total_transcripts: record.map(|r| r.total_transcripts),
            transcription_mode: "none",
            podcast_authority_score_total: score.map(|s| s.authority_score),
            podcast_authority_score_quality: score.map(|s| s.quality_score),
            podcast_authority_score_social: score.map(|s| s.social_score),
            podcast_authority_score_youtube: score.map(|s| s.youtube_score),
            podcast_authority_score_engagement: score.map(|s| s.engagement_score),
            youtube_channel_count: None,
            youtube_total_subscribers: None,
            youtube_total_videos: None,
            youtube_total_views: None,
            apple_id: has(PodcastExtraField::AppleId)
                .map(|r| r.apple_id.as_deref().and_then(|id| id.parse::<u64>().ok())),
            spotify_id: has(PodcastExtraField::AppleId).map(|r| r.spotify_id.as_deref()),
            podcast_has_guests: has(PodcastExtraField::Guests).map(|r| r.podcast_has_guests),
            podcast_emails: has(PodcastExtraField::PrimaryContact)
                .map(|r| r.podcast_owner_email.as_slice()),
            podcast_podlens_genres: has(PodcastExtraField::Genres)
                .map(|r| r.podcast_podlens_genres.as_slice()),
        }
    }
}

/// A podcast hit: its podcast's fields and the score.
#[derive(Serialize)]
struct WirePodcastHit<'a> {
    #[serde(flatten)]
    podcast: &'a PodcastJson,
    score: f64,
}

/// The matching passage of a semantic episode hit, with its place in the audio.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Passage<'a> {
    chunk_id: &'a str,
    text: &'a str,
    start_second: Option<f64>,
    end_second: Option<f64>,
}

/// An episode hit: its podcast's fields, then the episode's.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WireEpisodeHit<'a> {
    #[serde(flatten)]
    podcast: &'a PodcastJson,
    episode_id: Uuid,
    episode_slug: &'a str,
    episode_rss_title: &'a str,
    episode_rss_description: Option<&'a str>,
    episode_enclosure_url: &'a str,
    episode_image_url: Option<&'a str>,
    episode_web_url: Option<&'a str>,
    episode_rss_published_at: DateTime<Utc>,
    episode_duration_seconds: Option<u64>,
    episode_has_transcript: bool,
    episode_podcast_title_denormalized: Option<&'a str>,
    transcript_id: Option<Uuid>,
    transcript_text_snippet: Option<&'a str>,
    transcript_highlights: Highlights<'a>,
    score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    match_snippet: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    passage: Option<Passage<'a>>,
}

/// Passages as their HTML (matches in `<em>`), the `transcriptHighlights` of a hit.
struct Highlights<'a>(&'a [TranscriptSnippet]);

impl Serialize for Highlights<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|snippet| snippet.html.as_str()))
    }
}

/// How an episode hit's transcript passages are returned.
#[derive(Debug, Clone, Copy, Default)]
pub struct Snippets {
    /// `includeMatchSnippet`: the best passage as `matchSnippet`, and as the one entry of
    /// `transcriptHighlights`.
    pub match_snippet: bool,
    /// A semantic search: the best passage as `passage`, with its text and timestamps.
    pub passage: bool,
}

/// A hit's podcast fields: `cached` when the snapshot has the podcast, else what the hit
/// knows of it (`fallback`), written now.
fn podcast_part<'a>(
    cached: Option<&'a PodcastJson>,
    podcast_id: Uuid,
    score: Option<&AuthorityScoreRow>,
    plan: Plan,
    fallback: Fallback<'_>,
) -> serde_json::Result<Cow<'a, PodcastJson>> {
    match cached {
        Some(json) => Ok(Cow::Borrowed(json)),
        None => PodcastJson::of(&PodcastFields::new(podcast_id, None, score, plan, fallback))
            .map(Cow::Owned),
    }
}

/// The podcast hit on the wire: `cached`, its podcast's fields from the snapshot (see
/// [`PodcastJsonCache`]), or else what the hit itself knows of the podcast.
pub fn podcast_hit(
    hit: &PodcastHit,
    cached: Option<&PodcastJson>,
    score: Option<&AuthorityScoreRow>,
    plan: Plan,
) -> serde_json::Result<WireHit> {
    let fallback = Fallback {
        title: &hit.title,
        slug: &hit.slug,
        description: hit.description.as_deref(),
        author: hit.author.as_deref(),
        host_names: Some(&hit.host_names),
        total_episodes: i64::try_from(hit.total_episodes).ok(),
        image_url: hit.image_url.as_deref(),
        language: hit.language.as_deref(),
        founded_date: hit.founded_date,
        last_episode_date: hit.last_episode_date,
    };
    let podcast = podcast_part(cached, hit.podcast_id, score, plan, fallback)?;
    serde_json::value::to_raw_value(&WirePodcastHit {
        podcast: &podcast,
        score: f64::from(hit.score),
    })
}

/// The episode hit on the wire; `published_at` is the episode's date (for an undated
/// item, when the catalog first saw it), `cached` its podcast's fields as in
/// [`podcast_hit`].
pub fn episode_hit(
    hit: &EpisodeHit,
    published_at: DateTime<Utc>,
    cached: Option<&PodcastJson>,
    score: Option<&AuthorityScoreRow>,
    plan: Plan,
    snippets: Snippets,
) -> serde_json::Result<WireHit> {
    let fallback = Fallback {
        title: hit.podcast_title.as_deref().unwrap_or_default(),
        ..Fallback::default()
    };
    let podcast = podcast_part(cached, hit.podcast_id, score, plan, fallback)?;
    // The best matching passage, matches in <em>; absent for a search without a
    // transcript term or an episode without a matching passage.
    let best = hit.snippets.first();
    let highlights = if snippets.match_snippet {
        hit.snippets.get(..1).unwrap_or_default()
    } else {
        &hit.snippets
    };
    serde_json::value::to_raw_value(&WireEpisodeHit {
        podcast: &podcast,
        episode_id: hit.episode_id,
        episode_slug: &hit.slug,
        episode_rss_title: &hit.title,
        episode_rss_description: hit.description.as_deref(),
        episode_enclosure_url: hit.enclosure_url.as_deref().unwrap_or_default(),
        episode_image_url: hit.image_url.as_deref(),
        episode_web_url: hit.web_url.as_deref(),
        episode_rss_published_at: published_at,
        episode_duration_seconds: hit.duration_seconds,
        episode_has_transcript: hit.has_transcript,
        episode_podcast_title_denormalized: hit.podcast_title.as_deref(),
        transcript_id: hit.transcript_id,
        transcript_text_snippet: hit.transcript_start.as_deref(),
        transcript_highlights: Highlights(highlights),
        score: f64::from(hit.score),
        match_snippet: best
            .filter(|_| snippets.match_snippet)
            .map(|snippet| snippet.html.as_str()),
        passage: best.filter(|_| snippets.passage).map(|snippet| Passage {
            chunk_id: &snippet.chunk_id,
            text: &snippet.fragment,
            start_second: snippet.start_second,
            end_second: snippet.end_second,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record whose text needs escaping: quotes, backslashes, control characters,
    /// markup and characters outside ASCII.
    fn awkward_record() -> PodcastRecord {
        PodcastRecord {
            podcast_id: Uuid::from_u128(7),
            podcast_slug: "quote-\"unquote\"".into(),
            podcast_rss_title: "Tabs\tand \\ backslashes — ünïcode 🎙".into(),
            podcast_rss_description: Some("<p>Line one\nline two</p>\u{1}".into()),
            podcast_rss_description_no_html: Some("Line one\nline two".into()),
            podcast_host_names: vec!["Zoë \"Z\" Ng".into()],
            podcast_owner_email: Some("host@example.com".into()),
            podcast_podlens_genres: vec!["science".into()],
            total_episodes: 12,
            ..PodcastRecord::default()
        }
    }

    #[test]
    fn kept_podcast_json_writes_the_same_text_as_the_fields() {
        let record = awkward_record();
        for plan in [Plan::Public, Plan::Free, Plan::Agency] {
            let fields = PodcastFields::new(
                record.podcast_id,
                Some(&record),
                None,
                plan,
                Fallback::default(),
            );
            let direct = serde_json::to_string(&fields).unwrap();
            let kept = PodcastJson::of(&fields).unwrap();
            assert_eq!(serde_json::to_string(&kept).unwrap(), direct, "{plan:?}");
        }
    }

    #[test]
    fn a_hit_holds_its_podcast_fields_once_and_unescaped_twice() {
        let record = awkward_record();
        let fields = PodcastFields::new(
            record.podcast_id,
            Some(&record),
            None,
            Plan::Agency,
            Fallback::default(),
        );
        let kept = PodcastJson::of(&fields).unwrap();
        // As a search that read no stored fields returns it.
        let hit = PodcastHit::unread(record.podcast_id, 1.5);
        let wire = podcast_hit(&hit, Some(&kept), None, Plan::Agency).unwrap();
        let value: serde_json::Value = serde_json::from_str(wire.get()).unwrap();
        let mut expected = serde_json::to_value(&fields).unwrap();
        expected["score"] = serde_json::json!(1.5);
        assert_eq!(value, expected);
        assert_eq!(value["podcastRssTitle"], record.podcast_rss_title.as_str());
        // Each field once: as many keys in the text as in the parsed object.
        let keys = wire.get().matches("\"podcastRssTitle\":").count();
        assert_eq!(keys, 1);
    }

    #[test]
    fn plans_that_see_different_extra_fields_are_kept_apart() {
        let keys: Vec<u8> = [Plan::Public, Plan::Free, Plan::Agency]
            .into_iter()
            .map(extras_key)
            .collect();
        assert_ne!(keys[0], keys[1]);
        assert_ne!(keys[1], keys[2]);
    }
}
