//! Review and follower lookups, imported from JSON files by pluggable importers.
//!
//! Every platform's file has the envelope of Apple's public lookup API —
//! `{"resultCount": n, "results": [ … ]}` — and each importer reads its platform's
//! result objects. [`LookupImporters::standard`] knows Apple (iTunes lookup
//! results: `collectionId`/`trackId`, `averageUserRating`, `userRatingCount`,
//! optional `userRatingCountList` per star), Spotify, Castbox and the follower
//! platforms; a deployment adds its own with [`LookupImporters::register`].
//! Files are read from `<dir>/<platform>.json`.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ScoringError;
use crate::wilson::{rating_wilson_score, star_counts_wilson_score};

/// What one lookup says about one podcast on one platform.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupRecord {
    /// The platform's wire name: `apple`, `spotify`, `castbox`, `youtube`, …
    pub platform: String,
    /// The podcast's key on the platform: Apple id, Spotify show id, handle or channel.
    pub key: String,
    /// The catalog podcast, when the file names it.
    pub podcast_id: Option<String>,
    pub rating: Option<f64>,
    pub ratings_count: Option<u64>,
    /// Ratings per star, one star first (Apple).
    pub star_counts: Option<[u64; 5]>,
    /// Wilson 95 % lower bound of the rating (0 to 1).
    pub wilson_score: Option<f64>,
    pub followers: Option<u64>,
    pub following: Option<u64>,
    pub posts: Option<u64>,
    pub likes: Option<u64>,
    pub subscribers: Option<u64>,
    pub views: Option<u64>,
    pub plays: Option<u64>,
}

/// Reads one platform's lookup results.
pub trait LookupImporter: Send + Sync + std::fmt::Debug {
    /// The platform's wire name; the file is `<platform>.json`.
    fn platform(&self) -> &str;
    /// One result object of the envelope's `results`; `None` skips it.
    fn read_result(&self, result: &Value) -> Option<LookupRecord>;
}

/// Apple's lookup results.
#[derive(Debug, Clone, Copy, Default)]
pub struct AppleLookup;

impl LookupImporter for AppleLookup {
    fn platform(&self) -> &str {
        "apple"
    }

    fn read_result(&self, result: &Value) -> Option<LookupRecord> {
        let key = id_text(
            result
                .get("collectionId")
                .or_else(|| result.get("trackId"))?,
        )?;
        let star_counts = result
            .get("userRatingCountList")
            .and_then(Value::as_array)
            .filter(|list| list.len() == 5)
            .and_then(|list| {
                let counts: Option<Vec<u64>> = list.iter().map(Value::as_u64).collect();
                <[u64; 5]>::try_from(counts?).ok()
            });
        let rating = number(result, &["averageUserRating", "rating"]);
        let ratings_count = count(result, &["userRatingCount", "ratingsCount"])
            .or_else(|| star_counts.map(|counts| counts.iter().sum()));
        let wilson_score = star_counts
            .and_then(star_counts_wilson_score)
            .or_else(|| rating_wilson_score(rating, ratings_count));
        Some(LookupRecord {
            platform: "apple".into(),
            key,
            podcast_id: text(result, "podcastId"),
            rating,
            ratings_count,
            star_counts,
            wilson_score,
            ..LookupRecord::default()
        })
    }
}

/// The other platforms: `id` (or the platform's own id field), then the counters
/// under their camelCase names (`rating`, `ratingsCount`, `followers`, `following`,
/// `posts`, `likes`, `subscribers`, `views`, `plays`).
#[derive(Debug, Clone)]
pub struct CountersLookup {
    platform: String,
    id_fields: Vec<String>,
}

impl CountersLookup {
    pub fn new(platform: &str, id_fields: &[&str]) -> CountersLookup {
        CountersLookup {
            platform: platform.to_owned(),
            id_fields: id_fields.iter().map(|field| (*field).to_owned()).collect(),
        }
    }
}

impl LookupImporter for CountersLookup {
    fn platform(&self) -> &str {
        &self.platform
    }

    fn read_result(&self, result: &Value) -> Option<LookupRecord> {
        let key = self
            .id_fields
            .iter()
            .chain(std::iter::once(&"id".to_owned()))
            .find_map(|field| result.get(field.as_str()).and_then(id_text))?;
        let rating = number(result, &["rating", "averageRating"]);
        let ratings_count = count(result, &["ratingsCount", "ratingCount"]);
        Some(LookupRecord {
            platform: self.platform.clone(),
            key,
            podcast_id: text(result, "podcastId"),
            rating,
            ratings_count,
            star_counts: None,
            wilson_score: rating_wilson_score(rating, ratings_count),
            followers: count(result, &["followers", "followerCount"]),
            following: count(result, &["following"]),
            posts: count(result, &["posts"]),
            likes: count(result, &["likes"]),
            subscribers: count(result, &["subscribers", "subscriberCount"]),
            views: count(result, &["views", "viewCount"]),
            plays: count(result, &["plays"]),
        })
    }
}

/// The importers a score run uses.
#[derive(Debug, Default)]
pub struct LookupImporters {
    importers: Vec<Box<dyn LookupImporter>>,
}

impl LookupImporters {
    /// Apple, Spotify, Castbox, YouTube, Instagram, Twitter, TikTok, Facebook.
    pub fn standard() -> LookupImporters {
        let mut importers = LookupImporters::default();
        importers.register(Box::new(AppleLookup));
        importers.register(Box::new(CountersLookup::new(
            "spotify",
            &["showId", "spotifyId"],
        )));
        importers.register(Box::new(CountersLookup::new("castbox", &["castboxId"])));
        importers.register(Box::new(CountersLookup::new("youtube", &["channelId"])));
        for platform in ["instagram", "twitter", "tiktok", "facebook"] {
            importers.register(Box::new(CountersLookup::new(
                platform,
                &["handle", "username"],
            )));
        }
        importers
    }

    /// Adds (or replaces) the importer of a platform.
    pub fn register(&mut self, importer: Box<dyn LookupImporter>) {
        self.importers
            .retain(|known| known.platform() != importer.platform());
        self.importers.push(importer);
    }

    /// Reads one platform's file contents.
    pub fn read(
        &self,
        platform: &str,
        path: &Path,
        bytes: &[u8],
    ) -> Result<Vec<LookupRecord>, ScoringError> {
        let fail = |message: String| ScoringError::Lookup {
            platform: platform.to_owned(),
            path: path.to_path_buf(),
            message,
        };
        let importer = self
            .importers
            .iter()
            .find(|importer| importer.platform() == platform)
            .ok_or_else(|| fail("no importer for this platform".into()))?;
        let envelope: Value =
            serde_json::from_slice(bytes).map_err(|error| fail(error.to_string()))?;
        let results = envelope
            .get("results")
            .and_then(Value::as_array)
            .ok_or_else(|| fail("no \"results\" array".into()))?;
        Ok(results
            .iter()
            .filter_map(|result| importer.read_result(result))
            .collect())
    }

    /// Reads `<dir>/<platform>.json` for every registered platform that has a file.
    pub fn import_dir(&self, dir: &Path) -> Result<Vec<LookupRecord>, ScoringError> {
        let mut records = Vec::new();
        for importer in &self.importers {
            let path = dir.join(format!("{}.json", importer.platform()));
            let bytes = match std::fs::read(&path) {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(error) => return Err(ScoringError::io(&path, error)),
            };
            let read = self.read(importer.platform(), &path, &bytes)?;
            tracing::info!(
                platform = importer.platform(),
                records = read.len(),
                "lookups imported"
            );
            records.extend(read);
        }
        Ok(records)
    }
}

fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

fn text(result: &Value, field: &str) -> Option<String> {
    result.get(field).and_then(id_text)
}

fn number(result: &Value, fields: &[&str]) -> Option<f64> {
    fields
        .iter()
        .find_map(|field| result.get(*field).and_then(Value::as_f64))
        .filter(|value| value.is_finite())
}

fn count(result: &Value, fields: &[&str]) -> Option<u64> {
    fields.iter().find_map(|field| {
        let value = result.get(*field)?;
        value
            .as_u64()
            .or_else(|| {
                value
                    .as_f64()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .map(|v| v as u64)
            })
            .or_else(|| {
                value
                    .as_str()
                    .and_then(|text| text.replace(',', "").parse().ok())
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apple_lookup_of_the_corpus_reads_its_id_without_inventing_ratings() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/corpus/directory/podcast-server_lookup.json");
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let expected_id = text
            .split("\"collectionId\":")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .trim()
            .to_owned();
        let records = LookupImporters::standard()
            .read("apple", &path, &bytes)
            .unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].key, expected_id);
        assert_eq!(records[0].rating, None);
        assert_eq!(records[0].wilson_score, None);
    }

    #[test]
    fn ratings_followers_and_custom_importers() {
        let importers = LookupImporters::standard();
        let apple = br#"{"resultCount":1,"results":[{"collectionId":123,"averageUserRating":4.2,"userRatingCountList":[2,0,0,0,8]}]}"#;
        let records = importers
            .read("apple", Path::new("apple.json"), apple)
            .unwrap();
        assert_eq!(records[0].ratings_count, Some(10));
        assert!(
            (records[0].wilson_score.unwrap()
                - crate::wilson::wilson_lower_bound(8.0, 10.0, crate::wilson::Z_95))
            .abs()
                < 1e-12
        );
        let instagram = br#"{"resultCount":2,"results":[{"handle":"show","followers":"12,345","posts":90},{"nohandle":1}]}"#;
        let records = importers
            .read("instagram", Path::new("instagram.json"), instagram)
            .unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].followers, Some(12_345));
        assert!(importers.read("apple", Path::new("x"), b"[]").is_err());
        assert!(importers.read("myspace", Path::new("x"), b"{}").is_err());
        let mut custom = LookupImporters::standard();
        custom.register(Box::new(CountersLookup::new("myspace", &["user"])));
        let read = custom
            .read(
                "myspace",
                Path::new("x"),
                br#"{"results":[{"user":"tom","followers":1}]}"#,
            )
            .unwrap();
        assert_eq!(read[0].key, "tom");
    }
}
