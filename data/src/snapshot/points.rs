//! The snapshot's read model for point lookups: everything a podcast page or a search
//! hit reads by podcast id (the podcast itself, found by id, slug, Apple or Spotify id
//! or feed URL; its authority score, contacts, social links, latest website crawl and
//! how many of its transcripts are unavailable), loaded into hash maps when the
//! snapshot is opened or refreshed. A lookup is then a hash probe and a clone, with no
//! query planned or run: the podcast page and search hydration answer in microseconds
//! instead of running several DuckDB queries each.
//!
//! The maps are built from the same relations the queries read, in one pass per table,
//! and replaced as a whole (behind an `Arc`) after the relations are, so a lookup sees
//! one snapshot's maps or the next one's. Memory grows with the number of podcasts
//! (their records and enrichment), not with episodes or transcripts.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use duckdb::Connection;
use podlens_model::catalog::{PodcastRecord, primary_language};
use serde::Serialize;
use uuid::Uuid;

use super::enrichment::{AuthorityScoreRow, ContactRow, SocialLinkRow};
use crate::DataError;
use crate::records::{PODCAST_COLUMNS, podcast_from_row, uuid_at};

/// The point-lookup maps of one snapshot.
#[derive(Debug, Default)]
pub(crate) struct PointLookups {
    /// Every podcast, by id (ascending), so the first podcast holding a slug or an
    /// external id is the one with the lowest id.
    podcasts: Vec<PodcastRecord>,
    by_id: HashMap<Uuid, usize>,
    by_slug: HashMap<String, usize>,
    by_apple_id: HashMap<String, usize>,
    by_spotify_id: HashMap<String, usize>,
    by_feed_url: HashMap<String, usize>,
    /// By [`lookup_feed_url`] of the feed URL.
    by_normalized_feed_url: HashMap<String, usize>,
    scores: HashMap<Uuid, AuthorityScoreRow>,
    /// Emails first, in a stable order.
    contacts: HashMap<Uuid, Vec<ContactRow>>,
    /// Most often linked first.
    social_links: HashMap<Uuid, Vec<SocialLinkRow>>,
    /// The crawl result as stored (JSON), read when asked for.
    crawls: HashMap<Uuid, (String, DateTime<Utc>)>,
    transcripts_unavailable: HashMap<Uuid, u64>,
    facets: SearchFacets,
}

/// A value a search filter takes, with how many podcasts of the catalog have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FacetCount {
    pub value: String,
    pub count: u64,
}

/// The values the catalog holds for the search form's pick-lists, most podcasts first
/// (then by value): the primary language subtags the feeds declare (`en`, as the
/// language filter matches them; a show declared English whose text the index reads as
/// another language is counted as declared, see docs/search.md) and the genres
/// (lowercased, as the genre filters match them), over the podcasts that are not
/// blocked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SearchFacets {
    pub languages: Vec<FacetCount>,
    pub genres: Vec<FacetCount>,
}

impl SearchFacets {
    fn of(podcasts: &[PodcastRecord]) -> SearchFacets {
        let mut languages: BTreeMap<String, u64> = BTreeMap::new();
        let mut genres: BTreeMap<String, u64> = BTreeMap::new();
        for podcast in podcasts.iter().filter(|podcast| !podcast.podcast_blocked) {
            if let Some(language) = podcast
                .rss_language
                .as_deref()
                .map(primary_language)
                .filter(|language| !language.is_empty())
            {
                *languages.entry(language).or_default() += 1;
            }
            let mut seen: Vec<String> = Vec::new();
            for genre in &podcast.podcast_podlens_genres {
                let genre = genre.trim().to_lowercase();
                if !genre.is_empty() && !seen.contains(&genre) {
                    *genres.entry(genre.clone()).or_default() += 1;
                    seen.push(genre);
                }
            }
        }
        let ranked = |counts: BTreeMap<String, u64>| {
            let mut list: Vec<FacetCount> = counts
                .into_iter()
                .map(|(value, count)| FacetCount { value, count })
                .collect();
            // Stable: equal counts keep the map's alphabetical order.
            list.sort_by_key(|facet| std::cmp::Reverse(facet.count));
            list
        };
        SearchFacets {
            languages: ranked(languages),
            genres: ranked(genres),
        }
    }
}

/// One snapshot's podcasts and authority scores, borrowed rather than copied: for readers
/// that look many up at once (a page of search hits). It keeps that snapshot's maps
/// alive while held, so hold it for one request.
#[derive(Debug, Clone)]
pub struct PodcastsView(pub(crate) Arc<PointLookups>);

impl PodcastsView {
    /// The podcast with `podcast_id`.
    pub fn podcast(&self, podcast_id: Uuid) -> Option<&PodcastRecord> {
        self.0
            .by_id
            .get(&podcast_id)
            .and_then(|&index| self.0.podcasts.get(index))
    }

    /// The podcast's authority score, when it has one.
    pub fn authority_score(&self, podcast_id: Uuid) -> Option<&AuthorityScoreRow> {
        self.0.scores.get(&podcast_id)
    }

    /// Whether `other` reads the same snapshot's maps (not a later one's).
    pub fn same_snapshot(&self, other: &PodcastsView) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Every podcast of the snapshot.
    pub fn all(&self) -> impl Iterator<Item = &PodcastRecord> {
        self.0.podcasts.iter()
    }
}

fn to_u64(value: i64) -> u64 {
    u64::try_from(value.max(0)).unwrap_or(0)
}

/// Rows of `sql`, each mapped by `row`. A row that cannot be read (a missing or
/// malformed podcast id, a value of the wrong type) is left out and counted in a
/// warning: one bad row must not keep the server from starting or a refresh from
/// being applied.
fn rows<T>(
    connection: &Connection,
    sql: &str,
    row: impl FnMut(&duckdb::Row<'_>) -> duckdb::Result<T>,
) -> Result<Vec<T>, DataError> {
    let mut statement = connection.prepare(sql)?;
    let mut read = Vec::new();
    let mut skipped = 0usize;
    let mut first_error = None;
    for result in statement.query_map([], row)? {
        match result {
            Ok(value) => read.push(value),
            Err(error) => {
                skipped += 1;
                first_error.get_or_insert_with(|| error.to_string());
            }
        }
    }
    if let Some(error) = first_error {
        tracing::warn!(skipped, first_error = %error, query = sql.split_whitespace().take(8).collect::<Vec<_>>().join(" "), "snapshot rows left out of the point lookups");
    }
    Ok(read)
}

/// Rows keyed by podcast, grouped in the order the query returns them.
fn grouped<T>(rows: Vec<(Uuid, T)>) -> HashMap<Uuid, Vec<T>> {
    let mut groups: HashMap<Uuid, Vec<T>> = HashMap::new();
    for (podcast_id, value) in rows {
        groups.entry(podcast_id).or_default().push(value);
    }
    groups
}

impl PointLookups {
    /// Reads the maps from the snapshot's relations on `connection`.
    pub(crate) fn load(connection: &Connection) -> Result<PointLookups, DataError> {
        let podcasts = rows(
            connection,
            &format!(r#"SELECT {PODCAST_COLUMNS} FROM podcasts ORDER BY "podcastId""#),
            podcast_from_row,
        )?;
        let mut lookups = PointLookups::default();
        for (index, podcast) in podcasts.iter().enumerate() {
            lookups.by_id.entry(podcast.podcast_id).or_insert(index);
            lookups
                .by_slug
                .entry(podcast.podcast_slug.clone())
                .or_insert(index);
            if let Some(id) = &podcast.apple_id {
                lookups.by_apple_id.entry(id.clone()).or_insert(index);
            }
            if let Some(id) = &podcast.spotify_id {
                lookups.by_spotify_id.entry(id.clone()).or_insert(index);
            }
            lookups
                .by_feed_url
                .entry(podcast.podcast_rss_feed_url.clone())
                .or_insert(index);
            lookups
                .by_normalized_feed_url
                .entry(lookup_feed_url(&podcast.podcast_rss_feed_url))
                .or_insert(index);
        }
        lookups.facets = SearchFacets::of(&podcasts);
        lookups.podcasts = podcasts;
        lookups.scores = rows(
            connection,
            r#"SELECT "podcastId"::VARCHAR, "podcastAuthorityScore", "qualityScore", "socialScore",
                      "youtubeScore", "engagementScore", "coverage", "calculatedAt"
               FROM authority_scores"#,
            |row| {
                Ok(AuthorityScoreRow {
                    podcast_id: uuid_at(row, 0)?,
                    authority_score: row.get(1)?,
                    quality_score: row.get(2)?,
                    social_score: row.get(3)?,
                    youtube_score: row.get(4)?,
                    engagement_score: row.get(5)?,
                    coverage: row.get(6)?,
                    calculated_at: row.get(7)?,
                })
            },
        )?
        .into_iter()
        .map(|score| (score.podcast_id, score))
        .collect();
        lookups.contacts = grouped(rows(
            connection,
            r#"SELECT "podcastId"::VARCHAR, "contactType", "value", "source", "pageUrl"
               FROM podcast_contacts ORDER BY "podcastId", "contactType", "value", "source""#,
            |row| {
                Ok((
                    uuid_at(row, 0)?,
                    ContactRow {
                        contact_type: row.get(1)?,
                        value: row.get(2)?,
                        source: row.get(3)?,
                        page_url: row.get(4)?,
                    },
                ))
            },
        )?);
        lookups.social_links = grouped(rows(
            connection,
            r#"SELECT "podcastId"::VARCHAR, "socialMediaType", "url", "source", "occurrences"
               FROM podcast_social_links
               ORDER BY "podcastId", "occurrences" DESC, "socialMediaType", "url", "source""#,
            |row| {
                Ok((
                    uuid_at(row, 0)?,
                    SocialLinkRow {
                        social_media_type: row.get(1)?,
                        url: row.get(2)?,
                        source: row.get(3)?,
                        occurrences: to_u64(row.get(4)?),
                    },
                ))
            },
        )?);
        // One crawl per podcast is kept; should a snapshot hold several, the latest wins.
        lookups.crawls = rows(
            connection,
            r#"SELECT "podcastId"::VARCHAR, "result", "crawledAt" FROM website_crawls
               ORDER BY "podcastId", "crawledAt""#,
            |row| Ok((uuid_at(row, 0)?, (row.get(1)?, row.get(2)?))),
        )?
        .into_iter()
        .collect();
        lookups.transcripts_unavailable = rows(
            connection,
            r#"SELECT "podcastId"::VARCHAR, count(*) FROM episodes
               WHERE len("episodeTranscriptUrls") > 0
                 AND NOT "episodeHasTranscript" AND "episodeRemovedFromFeedAt" IS NULL
               GROUP BY "podcastId""#,
            |row| Ok((uuid_at(row, 0)?, to_u64(row.get(1)?))),
        )?
        .into_iter()
        .collect();
        Ok(lookups)
    }

    fn podcast_at(&self, index: Option<&usize>) -> Option<PodcastRecord> {
        index.and_then(|&index| self.podcasts.get(index)).cloned()
    }

    pub(crate) fn podcast_by_id(&self, podcast_id: Uuid) -> Option<PodcastRecord> {
        self.podcast_at(self.by_id.get(&podcast_id))
    }

    pub(crate) fn podcast_by_slug(&self, slug: &str) -> Option<PodcastRecord> {
        self.podcast_at(self.by_slug.get(slug))
    }

    pub(crate) fn podcast_by_apple_id(&self, apple_id: &str) -> Option<PodcastRecord> {
        self.podcast_at(self.by_apple_id.get(apple_id))
    }

    pub(crate) fn podcast_by_spotify_id(&self, spotify_id: &str) -> Option<PodcastRecord> {
        self.podcast_at(self.by_spotify_id.get(spotify_id))
    }

    /// Exactly as stored, else by the URL reduced by [`lookup_feed_url`].
    pub(crate) fn podcast_by_feed_url(&self, feed_url: &str) -> Option<PodcastRecord> {
        self.podcast_at(self.by_feed_url.get(feed_url)).or_else(|| {
            self.podcast_at(self.by_normalized_feed_url.get(&lookup_feed_url(feed_url)))
        })
    }

    /// The podcasts among `ids` that exist, in the order of `ids` (duplicates once).
    pub(crate) fn podcasts_by_ids(&self, ids: &[Uuid]) -> Vec<PodcastRecord> {
        let mut seen = std::collections::HashSet::with_capacity(ids.len());
        ids.iter()
            .filter(|id| seen.insert(**id))
            .filter_map(|id| self.podcast_by_id(*id))
            .collect()
    }

    pub(crate) fn authority_scores(&self, ids: &[Uuid]) -> HashMap<Uuid, AuthorityScoreRow> {
        ids.iter()
            .filter_map(|id| self.scores.get(id).map(|score| (*id, score.clone())))
            .collect()
    }

    pub(crate) fn contacts(&self, podcast_id: Uuid) -> Vec<ContactRow> {
        self.contacts.get(&podcast_id).cloned().unwrap_or_default()
    }

    pub(crate) fn social_links(&self, podcast_id: Uuid) -> Vec<SocialLinkRow> {
        self.social_links
            .get(&podcast_id)
            .cloned()
            .unwrap_or_default()
    }

    pub(crate) fn website_crawl(&self, podcast_id: Uuid) -> Option<&(String, DateTime<Utc>)> {
        self.crawls.get(&podcast_id)
    }

    pub(crate) fn search_facets(&self) -> SearchFacets {
        self.facets.clone()
    }

    pub(crate) fn transcripts_unavailable(&self, podcast_id: Uuid) -> u64 {
        self.transcripts_unavailable
            .get(&podcast_id)
            .copied()
            .unwrap_or(0)
    }
}

/// A feed URL reduced for lookups: no scheme, lowercase, no trailing slash.
pub(crate) fn lookup_feed_url(url: &str) -> String {
    let lower = url.trim().to_lowercase();
    let without_scheme = lower
        .split_once("://")
        .filter(|(scheme, _)| {
            scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
        })
        .map_or(lower.as_str(), |(_, rest)| rest);
    without_scheme.trim_end_matches('/').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_urls_compare_without_scheme_case_or_trailing_slash() {
        assert_eq!(
            lookup_feed_url("HTTPS://Example.com/Feed/"),
            "example.com/feed"
        );
        assert_eq!(
            lookup_feed_url("http://example.com/feed"),
            "example.com/feed"
        );
        assert_eq!(lookup_feed_url(" example.com/feed "), "example.com/feed");
    }

    /// One row with a malformed or missing podcast id used to fail the whole load, so
    /// the server did not start (or a refresh was refused); only that row is left out.
    #[test]
    fn a_malformed_podcast_id_leaves_out_its_row_not_the_load() {
        let connection = Connection::open_in_memory().unwrap();
        let good = Uuid::new_v4();
        let read = rows(
            &connection,
            &format!(
                "SELECT id, n FROM (VALUES ('{good}', 1), ('not-a-uuid', 2), (NULL, 3)) AS t(id, n) ORDER BY n"
            ),
            |row| Ok((uuid_at(row, 0)?, row.get::<_, i64>(1)?)),
        )
        .unwrap();
        assert_eq!(read, [(good, 1)]);
    }

    fn podcast(language: Option<&str>, genres: &[&str], blocked: bool) -> PodcastRecord {
        PodcastRecord {
            rss_language: language.map(str::to_owned),
            podcast_podlens_genres: genres.iter().map(|genre| (*genre).to_owned()).collect(),
            podcast_blocked: blocked,
            ..PodcastRecord::default()
        }
    }

    #[test]
    fn facets_count_podcasts_by_primary_language_and_genre_as_the_filters_match_them() {
        let facets = SearchFacets::of(&[
            podcast(Some("en-US"), &["Technology", "News"], false),
            podcast(Some("en"), &["technology", "Technology"], false),
            podcast(Some("fr-CA"), &["News"], false),
            podcast(Some("de"), &["Comedy"], true),
            podcast(None, &[], false),
            podcast(Some(" "), &[" "], false),
        ]);
        let pairs = |list: &[FacetCount]| {
            list.iter()
                .map(|facet| (facet.value.clone(), facet.count))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            pairs(&facets.languages),
            [("en".to_owned(), 2), ("fr".to_owned(), 1)]
        );
        // A genre counts once per podcast; equal counts go alphabetically; the
        // blocked podcast's language and genre are not offered.
        assert_eq!(
            pairs(&facets.genres),
            [("news".to_owned(), 2), ("technology".to_owned(), 2)]
        );
    }
}
