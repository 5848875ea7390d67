//! The catalog's tables and their migrations. Column names are the API field names
//! (the camelCase serde names of the records in `podlens_model::catalog`), so a Parquet
//! snapshot is a plain copy of a table.

use duckdb::Connection;

use crate::DataError;

/// The tables of the first schema version. Also used, unchanged, to give a snapshot
/// typed empty relations when a Parquet file is missing.
pub(crate) const TABLES_V1: &str = r#"
CREATE TABLE IF NOT EXISTS podcasts (
    "podcastId" UUID PRIMARY KEY,
    "podcastSlug" VARCHAR NOT NULL,
    "podcastGuid" VARCHAR,
    "podcastRssFeedUrl" VARCHAR NOT NULL,
    "podcastRssTitle" VARCHAR NOT NULL,
    "podcastRssAuthor" VARCHAR,
    "podcastRssDescription" VARCHAR,
    "podcastRssDescriptionNoHtml" VARCHAR,
    "podcastWebsiteUrl" VARCHAR,
    "podcastImageUrl" VARCHAR,
    "rssLanguage" VARCHAR,
    "rssCategories" VARCHAR[] NOT NULL,
    "podcastPodlensGenres" VARCHAR[] NOT NULL,
    "podcastKeywords" VARCHAR[] NOT NULL,
    "explicitRss" BOOLEAN NOT NULL,
    "podcastOwnerName" VARCHAR,
    "podcastOwnerEmail" VARCHAR,
    "podcastHostNames" VARCHAR[] NOT NULL,
    "podcastHasGuests" BOOLEAN NOT NULL,
    "podcastType" VARCHAR,
    "podcastMedium" VARCHAR,
    "podcastLocked" BOOLEAN NOT NULL,
    "podcastBlocked" BOOLEAN NOT NULL,
    "podcastComplete" BOOLEAN NOT NULL,
    "podcastLocation" VARCHAR,
    "podcastFundingUrls" VARCHAR[] NOT NULL,
    "podcastHasValue" BOOLEAN NOT NULL,
    "appleId" VARCHAR,
    "spotifyId" VARCHAR,
    "foundedDate" TIMESTAMPTZ,
    "lastEpisodeDate" TIMESTAMPTZ,
    "totalEpisodes" BIGINT NOT NULL,
    "totalTranscripts" BIGINT NOT NULL,
    "updateFrequency" VARCHAR,
    "rssGenerator" VARCHAR,
    "rssTags" VARCHAR[] NOT NULL,
    "updatedAt" TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS episodes (
    "episodeId" UUID PRIMARY KEY,
    "podcastId" UUID NOT NULL,
    "episodeSlug" VARCHAR NOT NULL,
    "episodeGuid" VARCHAR,
    "episodeRssTitle" VARCHAR NOT NULL,
    "episodeRssDescription" VARCHAR,
    "episodeRssDescriptionNoHtml" VARCHAR,
    "episodeEnclosureUrl" VARCHAR,
    "episodeEnclosureType" VARCHAR,
    "episodeEnclosureLength" BIGINT,
    "episodeImageUrl" VARCHAR,
    "episodeWebUrl" VARCHAR,
    "episodeRssPublishedAt" TIMESTAMPTZ,
    "episodeDurationSeconds" BIGINT,
    "episodeSeason" BIGINT,
    "episodeNumber" BIGINT,
    "episodeType" VARCHAR,
    "episodeExplicit" BOOLEAN,
    "episodeKeywords" VARCHAR[] NOT NULL,
    "episodeTranscriptUrls" STRUCT("url" VARCHAR, "mimeType" VARCHAR, "language" VARCHAR, "rel" VARCHAR)[] NOT NULL,
    "episodeChaptersUrl" VARCHAR,
    "episodeRssTags" VARCHAR[] NOT NULL,
    "episodeHasTranscript" BOOLEAN NOT NULL,
    "transcriptId" UUID,
    "episodePodcastTitleDenormalized" VARCHAR NOT NULL,
    "episodeCreatedAt" TIMESTAMPTZ NOT NULL,
    "episodeUpdatedAt" TIMESTAMPTZ NOT NULL,
    "episodeRemovedFromFeedAt" TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS persons (
    "podcastId" UUID NOT NULL,
    "episodeId" UUID,
    "name" VARCHAR NOT NULL,
    "personType" VARCHAR NOT NULL,
    "role" VARCHAR,
    "group" VARCHAR,
    "imageUrl" VARCHAR,
    "href" VARCHAR
);
CREATE TABLE IF NOT EXISTS transcripts (
    "transcriptId" UUID PRIMARY KEY,
    "episodeId" UUID NOT NULL,
    "podcastId" UUID NOT NULL,
    "source" VARCHAR NOT NULL,
    "format" VARCHAR NOT NULL,
    "language" VARCHAR,
    "transcriptText" VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS transcript_segments (
    "transcriptId" UUID NOT NULL,
    "episodeId" UUID NOT NULL,
    "podcastId" UUID NOT NULL,
    "segmentIndex" BIGINT NOT NULL,
    "startSecond" DOUBLE,
    "endSecond" DOUBLE,
    "speaker" VARCHAR,
    "text" VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS feed_fetches (
    "feedUrl" VARCHAR NOT NULL,
    "podcastId" UUID,
    "fetchedAt" TIMESTAMPTZ NOT NULL,
    "outcome" VARCHAR NOT NULL,
    "httpStatus" BIGINT,
    "error" VARCHAR,
    "etag" VARCHAR,
    "lastModified" VARCHAR,
    "bytes" BIGINT,
    "episodes" BIGINT
);
CREATE TABLE IF NOT EXISTS feed_states (
    "feedUrl" VARCHAR PRIMARY KEY,
    "podcastId" UUID,
    "etag" VARCHAR,
    "lastModified" VARCHAR,
    "lastOutcome" VARCHAR NOT NULL,
    "lastFetchedAt" TIMESTAMPTZ NOT NULL,
    "lastSuccessAt" TIMESTAMPTZ,
    "consecutiveFailures" BIGINT NOT NULL
);
"#;

/// The transcript retry ledger: declared transcripts that could not be fetched.
const TABLES_V2: &str = r#"
CREATE TABLE IF NOT EXISTS transcript_attempts (
    "episodeId" UUID PRIMARY KEY,
    "podcastId" UUID NOT NULL,
    "url" VARCHAR NOT NULL,
    "mimeType" VARCHAR NOT NULL,
    "language" VARCHAR,
    "attempts" BIGINT NOT NULL,
    "lastAttemptAt" TIMESTAMPTZ NOT NULL,
    "nextAttemptAt" TIMESTAMPTZ,
    "lastError" VARCHAR NOT NULL
);
"#;

/// What a feed's read says beyond its validators: the hash of its bytes (the same bytes
/// again cost a comparison, not a parse and a write) and the WebSub hub it declares (a
/// server following the catalog subscribes without reading the feed); logged with each
/// fetch, and kept as the feed's state.
const TABLES_V3: &str = r#"
ALTER TABLE feed_fetches ADD COLUMN IF NOT EXISTS "contentHash" VARCHAR;
ALTER TABLE feed_fetches ADD COLUMN IF NOT EXISTS "websubHub" VARCHAR;
ALTER TABLE feed_fetches ADD COLUMN IF NOT EXISTS "websubTopic" VARCHAR;
ALTER TABLE feed_states ADD COLUMN IF NOT EXISTS "contentHash" VARCHAR;
ALTER TABLE feed_states ADD COLUMN IF NOT EXISTS "websubHub" VARCHAR;
ALTER TABLE feed_states ADD COLUMN IF NOT EXISTS "websubTopic" VARCHAR;
"#;

/// Ordered migrations: version n is applied when the catalog's version is below n.
const MIGRATIONS: &[(i64, &str)] = &[(1, TABLES_V1), (2, TABLES_V2), (3, TABLES_V3)];

/// The newest schema version this build knows.
pub const SCHEMA_VERSION: i64 = 3;

/// Brings the catalog's schema up to [`SCHEMA_VERSION`], one transaction per step.
pub(crate) fn migrate(connection: &mut Connection) -> Result<i64, DataError> {
    connection.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp
        )",
    )?;
    let current: i64 = connection.query_row(
        "SELECT coalesce(max(version), 0) FROM schema_migrations",
        [],
        |row| row.get(0),
    )?;
    if current > SCHEMA_VERSION {
        return Err(DataError::SchemaTooNew {
            found: current,
            supported: SCHEMA_VERSION,
        });
    }
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current) {
        let transaction = connection.transaction()?;
        transaction.execute_batch(sql)?;
        transaction.execute(
            "INSERT INTO schema_migrations (version) VALUES (?)",
            [version],
        )?;
        transaction.commit()?;
        tracing::info!(version, "catalog schema migrated");
    }
    Ok(SCHEMA_VERSION)
}
