//! The feed fetch log and per-feed polling state (conditional GET validators).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use duckdb::{Connection, OptionalExt, params};
use podlens_model::catalog::FeedFetchRecord;
use uuid::Uuid;

use super::staging::{
    FEED_STATE_STAGE, FETCH_STAGE, column_list, converted_columns, micros, optional_micros,
};
use crate::DataError;
use crate::records::{optional_time_at, optional_uuid_at, time_at};

/// A feed to poll, with the validators of its last successful fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedState {
    pub podcast_id: Option<Uuid>,
    pub feed_url: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The hash of the bytes of its last full answer.
    pub content_hash: Option<String>,
}

/// What the catalog knows of a feed's last reads, for a server that starts following
/// it: when it last answered, its validators and hash, and the WebSub hub it declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PollingState {
    pub podcast_id: Option<Uuid>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub content_hash: Option<String>,
    pub last_success_at: Option<DateTime<Utc>>,
    pub websub_hub: Option<String>,
    pub websub_topic: Option<String>,
}

/// The stored state of one feed URL.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StoredState {
    podcast_id: Option<Uuid>,
    etag: Option<String>,
    last_modified: Option<String>,
    last_outcome: String,
    last_fetched_at: DateTime<Utc>,
    last_success_at: Option<DateTime<Utc>>,
    consecutive_failures: i64,
    content_hash: Option<String>,
    websub_hub: Option<String>,
    websub_topic: Option<String>,
}

/// The columns of a [`StoredState`], in its order.
const STATE_COLUMNS: &str = r#""podcastId"::VARCHAR, "etag", "lastModified", "lastOutcome",
    epoch_us("lastFetchedAt"), epoch_us("lastSuccessAt"), "consecutiveFailures",
    "contentHash", "websubHub", "websubTopic""#;

/// A [`StoredState`] from its columns, starting at column `first`.
fn state_at(row: &duckdb::Row<'_>, first: usize) -> duckdb::Result<StoredState> {
    Ok(StoredState {
        podcast_id: optional_uuid_at(row, first)?,
        etag: row.get(first + 1)?,
        last_modified: row.get(first + 2)?,
        last_outcome: row.get(first + 3)?,
        last_fetched_at: time_at(row, first + 4)?,
        last_success_at: optional_time_at(row, first + 5)?,
        consecutive_failures: row.get(first + 6)?,
        content_hash: row.get(first + 7)?,
        websub_hub: row.get(first + 8)?,
        websub_topic: row.get(first + 9)?,
    })
}

/// Outcomes after which the feed is considered reachable.
fn is_success(outcome: &str) -> bool {
    matches!(outcome, "ok" | "not-modified")
}

fn load_state(connection: &Connection, feed_url: &str) -> Result<Option<StoredState>, DataError> {
    let state = connection
        .query_row(
            &format!(r#"SELECT {STATE_COLUMNS} FROM feed_states WHERE "feedUrl" = ?"#),
            [feed_url],
            |row| state_at(row, 0),
        )
        .optional()?;
    Ok(state)
}

fn store_state(
    connection: &Connection,
    feed_url: &str,
    state: &StoredState,
) -> Result<(), DataError> {
    connection.execute(
        r#"INSERT OR REPLACE INTO feed_states
           ("feedUrl", "podcastId", "etag", "lastModified", "lastOutcome", "lastFetchedAt",
            "lastSuccessAt", "consecutiveFailures", "contentHash", "websubHub", "websubTopic")
           VALUES (?, CAST(? AS UUID), ?, ?, ?, make_timestamptz(?), make_timestamptz(?), ?,
                   ?, ?, ?)"#,
        params![
            feed_url,
            state.podcast_id.map(|id| id.to_string()),
            state.etag,
            state.last_modified,
            state.last_outcome,
            micros(&state.last_fetched_at),
            optional_micros(&state.last_success_at),
            state.consecutive_failures,
            state.content_hash,
            state.websub_hub,
            state.websub_topic,
        ],
    )?;
    Ok(())
}

/// The state after `fetch`: a full fetch takes the response's validators, hash and hub,
/// a 304 (or the same bytes again) keeps the stored ones when the response repeats
/// none, and a failure keeps them as they were.
fn next_state(previous: Option<StoredState>, fetch: &FeedFetchRecord) -> StoredState {
    let success = is_success(&fetch.outcome);
    let previous_etag = previous.as_ref().and_then(|state| state.etag.clone());
    let previous_modified = previous
        .as_ref()
        .and_then(|state| state.last_modified.clone());
    let (etag, last_modified) = match fetch.outcome.as_str() {
        "ok" => (fetch.etag.clone(), fetch.last_modified.clone()),
        "not-modified" => (
            fetch.etag.clone().or(previous_etag),
            fetch.last_modified.clone().or(previous_modified),
        ),
        _ => (previous_etag, previous_modified),
    };
    let previous_hash = previous
        .as_ref()
        .and_then(|state| state.content_hash.clone());
    let content_hash = match fetch.outcome.as_str() {
        "ok" => fetch.content_hash.clone(),
        "not-modified" => fetch.content_hash.clone().or(previous_hash),
        _ => previous_hash,
    };
    // The hub is what the feed declared when last read in full.
    let (websub_hub, websub_topic) = match (fetch.outcome.as_str(), &previous) {
        ("ok", _) => (fetch.websub_hub.clone(), fetch.websub_topic.clone()),
        (_, Some(state)) => (state.websub_hub.clone(), state.websub_topic.clone()),
        (_, None) => (None, None),
    };
    StoredState {
        podcast_id: fetch
            .podcast_id
            .or_else(|| previous.as_ref().and_then(|state| state.podcast_id)),
        etag,
        last_modified,
        last_outcome: fetch.outcome.clone(),
        last_fetched_at: fetch.fetched_at,
        last_success_at: if success {
            Some(fetch.fetched_at)
        } else {
            previous.as_ref().and_then(|state| state.last_success_at)
        },
        consecutive_failures: if success {
            0
        } else {
            previous
                .as_ref()
                .map_or(0, |state| state.consecutive_failures)
                .saturating_add(1)
        },
        content_hash,
        websub_hub,
        websub_topic,
    }
}

pub(crate) fn record_fetch(
    connection: &mut Connection,
    fetch: &FeedFetchRecord,
) -> Result<(), DataError> {
    record_fetches(connection, std::slice::from_ref(fetch))
}

impl super::Catalog {
    /// Records many fetches in one transaction, in order, as [`super::Catalog::record_fetch`]
    /// does for one. Bulk ingest logs fetches this way: a transaction (and its WAL sync)
    /// per fetch costs more than the rows.
    pub fn record_fetches(&mut self, fetches: &[FeedFetchRecord]) -> Result<(), DataError> {
        record_fetches(&mut self.connection, fetches)
    }
}

/// The fetches of one feed the log keeps: the newest, older ones are removed when the
/// feed is fetched again. A feed polled hourly by `podlens serve` would otherwise add
/// 8,760 rows a year to the log and to every snapshot.
pub const FETCH_LOG_PER_FEED: usize = 100;

/// Records `fetches` in one transaction, set at a time: the fetches are appended to a
/// staging table and copied into the log with one statement, the stored states of
/// their feeds are read with one query, the next states are computed in order (a feed
/// fetched twice in the batch sees its first fetch), and written back with one
/// statement. Per-fetch statements made a re-poll of 10,000 feeds take half a minute.
pub(crate) fn record_fetches(
    connection: &mut Connection,
    fetches: &[FeedFetchRecord],
) -> Result<(), DataError> {
    if fetches.is_empty() {
        return Ok(());
    }
    let transaction = connection.transaction()?;
    transaction.execute_batch("DELETE FROM stage_fetches; DELETE FROM stage_feed_states")?;
    {
        let mut appender =
            transaction.appender_to_catalog_and_db("stage_fetches", "temp", "main")?;
        for (order, fetch) in fetches.iter().enumerate() {
            appender.append_row(params![
                fetch.feed_url,
                fetch.podcast_id.map(|id| id.to_string()),
                micros(&fetch.fetched_at),
                fetch.outcome,
                fetch.http_status,
                fetch.error,
                fetch.etag,
                fetch.last_modified,
                fetch.bytes,
                fetch.episodes,
                fetch.content_hash,
                fetch.websub_hub,
                fetch.websub_topic,
                order as i64,
            ])?;
        }
        appender.flush()?;
    }
    transaction.execute(
        &format!(
            r#"INSERT INTO feed_fetches ({}) SELECT {} FROM stage_fetches s ORDER BY s."stageOrder""#,
            column_list(FETCH_STAGE),
            converted_columns(FETCH_STAGE, "s", &[])
        ),
        [],
    )?;
    // Retention: the newest FETCH_LOG_PER_FEED fetches of each feed fetched now.
    transaction.execute(
        &format!(
            r#"DELETE FROM feed_fetches WHERE rowid IN (
                 SELECT rowid FROM (
                   SELECT rowid, row_number() OVER (
                     PARTITION BY "feedUrl" ORDER BY "fetchedAt" DESC, rowid DESC) AS newest
                   FROM feed_fetches
                   WHERE "feedUrl" IN (SELECT "feedUrl" FROM stage_fetches))
                 WHERE newest > {FETCH_LOG_PER_FEED})"#
        ),
        [],
    )?;
    let mut states = load_states(&transaction)?;
    for fetch in fetches {
        let previous = states.remove(fetch.feed_url.as_str());
        states.insert(fetch.feed_url.clone(), next_state(previous, fetch));
    }
    {
        let mut appender =
            transaction.appender_to_catalog_and_db("stage_feed_states", "temp", "main")?;
        for (order, (feed_url, state)) in states.iter().enumerate() {
            appender.append_row(params![
                feed_url,
                state.podcast_id.map(|id| id.to_string()),
                state.etag,
                state.last_modified,
                state.last_outcome,
                micros(&state.last_fetched_at),
                optional_micros(&state.last_success_at),
                state.consecutive_failures,
                state.content_hash,
                state.websub_hub,
                state.websub_topic,
                order as i64,
            ])?;
        }
        appender.flush()?;
    }
    transaction.execute(
        &format!(
            "INSERT OR REPLACE INTO feed_states ({}) SELECT {} FROM stage_feed_states s",
            column_list(FEED_STATE_STAGE),
            converted_columns(FEED_STATE_STAGE, "s", &[])
        ),
        [],
    )?;
    transaction.commit()?;
    Ok(())
}

/// The stored states of the feeds in `stage_fetches`, by feed URL.
fn load_states(connection: &Connection) -> Result<HashMap<String, StoredState>, DataError> {
    let mut statement = connection.prepare(&format!(
        r#"SELECT "feedUrl", {STATE_COLUMNS}
           FROM feed_states WHERE "feedUrl" IN (SELECT "feedUrl" FROM stage_fetches)"#
    ))?;
    let states = statement
        .query_map([], |row| Ok((row.get::<_, String>(0)?, state_at(row, 1)?)))?
        .collect::<Result<HashMap<_, _>, _>>()?;
    Ok(states)
}

/// Every feed of the catalog (podcasts' feed URLs, then every other feed that was
/// fetched: the alternate feeds of a podcast, which declare its `podcast:guid` while
/// another feed keeps its record (read again, one may turn out the newer and take the
/// record over, `shared_guid.rs`), and feeds that never yielded a podcast), least
/// recently fetched first.
pub(crate) fn feeds_to_poll(connection: &Connection) -> Result<Vec<FeedState>, DataError> {
    let mut statement = connection.prepare(
        r#"SELECT "podcastId", "feedUrl", "etag", "lastModified", "contentHash" FROM (
             SELECT p."podcastId"::VARCHAR AS "podcastId", p."podcastRssFeedUrl" AS "feedUrl",
                    s."etag", s."lastModified", s."contentHash", s."lastFetchedAt"
             FROM podcasts p LEFT JOIN feed_states s ON s."feedUrl" = p."podcastRssFeedUrl"
             UNION ALL
             SELECT s."podcastId"::VARCHAR, s."feedUrl", s."etag", s."lastModified",
                    s."contentHash", s."lastFetchedAt"
             FROM feed_states s
             WHERE NOT EXISTS (SELECT 1 FROM podcasts p WHERE p."podcastRssFeedUrl" = s."feedUrl"))
           ORDER BY "lastFetchedAt" ASC NULLS FIRST, "feedUrl""#,
    )?;
    let states = statement
        .query_map([], |row| {
            Ok(FeedState {
                podcast_id: optional_uuid_at(row, 0)?,
                feed_url: row.get(1)?,
                etag: row.get(2)?,
                last_modified: row.get(3)?,
                content_hash: row.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(states)
}

/// What the catalog knows of the last reads of its podcasts' feeds, by feed URL.
pub(crate) fn polling_states(
    connection: &Connection,
) -> Result<HashMap<String, PollingState>, DataError> {
    let mut statement = connection.prepare(&format!(
        r#"SELECT "feedUrl", {STATE_COLUMNS} FROM feed_states
           WHERE "feedUrl" IN (SELECT "podcastRssFeedUrl" FROM podcasts)"#
    ))?;
    let states = statement
        .query_map([], |row| {
            let state = state_at(row, 1)?;
            Ok((
                row.get::<_, String>(0)?,
                PollingState {
                    podcast_id: state.podcast_id,
                    etag: state.etag,
                    last_modified: state.last_modified,
                    content_hash: state.content_hash,
                    last_success_at: state.last_success_at,
                    websub_hub: state.websub_hub,
                    websub_topic: state.websub_topic,
                },
            ))
        })?
        .collect::<Result<HashMap<_, _>, _>>()?;
    Ok(states)
}

/// Moves a podcast to a new feed URL (after a permanent redirect), keeping its polling
/// state under the new URL.
pub(crate) fn update_feed_url(
    connection: &mut Connection,
    podcast_id: Uuid,
    new_url: &str,
) -> Result<(), DataError> {
    let id = podcast_id.to_string();
    let transaction = connection.transaction()?;
    let old_url: Option<String> = transaction
        .query_row(
            r#"SELECT "podcastRssFeedUrl" FROM podcasts WHERE "podcastId" = CAST(? AS UUID)"#,
            [&id],
            |row| row.get(0),
        )
        .optional()?;
    if old_url.as_deref() == Some(new_url) {
        return Ok(());
    }
    let previous = match &old_url {
        Some(url) => load_state(&transaction, url)?,
        None => None,
    };
    transaction.execute(
        r#"UPDATE podcasts SET "podcastRssFeedUrl" = ? WHERE "podcastId" = CAST(? AS UUID)"#,
        [new_url, &id],
    )?;
    if let Some(url) = &old_url {
        transaction.execute(r#"DELETE FROM feed_states WHERE "feedUrl" = ?"#, [url])?;
    }
    if let Some(mut state) = previous {
        state.podcast_id = Some(podcast_id);
        transaction.execute(r#"DELETE FROM feed_states WHERE "feedUrl" = ?"#, [new_url])?;
        store_state(&transaction, new_url, &state)?;
    }
    transaction.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetch(outcome: &str, etag: Option<&str>) -> FeedFetchRecord {
        FeedFetchRecord {
            feed_url: "https://example.com/feed".to_owned(),
            outcome: outcome.to_owned(),
            etag: etag.map(str::to_owned),
            ..FeedFetchRecord::default()
        }
    }

    #[test]
    fn validators_survive_not_modified_and_failures() {
        let first = next_state(None, &fetch("ok", Some("\"v1\"")));
        assert_eq!(first.etag.as_deref(), Some("\"v1\""));
        assert_eq!(first.consecutive_failures, 0);
        let unchanged = next_state(Some(first.clone()), &fetch("not-modified", None));
        assert_eq!(unchanged.etag.as_deref(), Some("\"v1\""));
        let failed = next_state(Some(unchanged), &fetch("network", None));
        assert_eq!(failed.etag.as_deref(), Some("\"v1\""));
        assert_eq!(failed.consecutive_failures, 1);
        let failed_again = next_state(Some(failed), &fetch("http-status", None));
        assert_eq!(failed_again.consecutive_failures, 2);
        assert_eq!(failed_again.last_success_at, first.last_success_at);
        let changed = next_state(Some(failed_again), &fetch("ok", None));
        assert_eq!(changed.etag, None);
        assert_eq!(changed.consecutive_failures, 0);
    }

    #[test]
    fn the_hash_and_hub_of_the_last_full_read_are_kept_until_the_next() {
        let read = FeedFetchRecord {
            content_hash: Some("h1".to_owned()),
            websub_hub: Some("https://hub.example/".to_owned()),
            websub_topic: Some("https://example.com/feed".to_owned()),
            ..fetch("ok", None)
        };
        let first = next_state(None, &read);
        assert_eq!(first.content_hash.as_deref(), Some("h1"));
        // A 304 repeats no hash; the same bytes again repeat it.
        let not_modified = next_state(Some(first.clone()), &fetch("not-modified", None));
        assert_eq!(not_modified.content_hash.as_deref(), Some("h1"));
        assert_eq!(not_modified.websub_hub, first.websub_hub);
        let failed = next_state(Some(not_modified), &fetch("network", None));
        assert_eq!(failed.content_hash.as_deref(), Some("h1"));
        assert_eq!(failed.websub_topic, first.websub_topic);
        // A full read that declares no hub any more drops it.
        let changed = FeedFetchRecord {
            content_hash: Some("h2".to_owned()),
            ..fetch("ok", None)
        };
        let changed = next_state(Some(failed), &changed);
        assert_eq!(changed.content_hash.as_deref(), Some("h2"));
        assert_eq!((changed.websub_hub, changed.websub_topic), (None, None));
    }
}
