//! [`AccountStore`] over an embedded DuckDB file (`<data-dir>/app.duckdb`), owned by
//! one process at a time. One connection behind a mutex: account traffic is tiny next
//! to search, and the mutex makes check-and-charge of a counter atomic.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate, Utc};
use duckdb::{Connection, OptionalExt, params};
use uuid::Uuid;

use super::keys::{KEY_ID_DIGITS, display_prefix, generate_api_key, hash_api_key, key_id_of};
use super::usage::{UsageCounter, UsageWindow};
use super::{
    Account, AccountStore, ApiKeyRow, Consumption, NewApiKey, SearchRecord, TeamPodcastRow,
    TeamUser, UsageRow, UsageSubject,
};
use crate::error::{ApiError, ApiResult};

/// File name of the app database inside the data directory.
pub const APP_DATABASE_FILE: &str = "app.duckdb";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS server_secrets (
    name VARCHAR PRIMARY KEY,
    secret BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS teams (
    team_id VARCHAR PRIMARY KEY,
    name VARCHAR NOT NULL,
    plan VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    user_id VARCHAR PRIMARY KEY,
    email VARCHAR NOT NULL UNIQUE,
    first_name VARCHAR,
    last_name VARCHAR,
    display_name VARCHAR,
    avatar_seed VARCHAR,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS team_members (
    team_id VARCHAR NOT NULL,
    user_id VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    joined_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE TABLE IF NOT EXISTS api_keys (
    key_hash VARCHAR PRIMARY KEY,
    key_prefix VARCHAR NOT NULL,
    user_id VARCHAR NOT NULL,
    team_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS usage_daily (
    subject VARCHAR NOT NULL,
    team_id VARCHAR,
    day DATE NOT NULL,
    counter VARCHAR NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (subject, day, counter)
);
CREATE TABLE IF NOT EXISTS search_history (
    search_id VARCHAR PRIMARY KEY,
    subject VARCHAR NOT NULL,
    team_id VARCHAR,
    search_mode VARCHAR NOT NULL,
    options_json VARCHAR NOT NULL,
    result_count BIGINT NOT NULL,
    searched_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS team_podcasts (
    team_id VARCHAR NOT NULL,
    podcast_id VARCHAR NOT NULL,
    added_by_user_id VARCHAR,
    added_reason VARCHAR NOT NULL,
    blacklist BOOLEAN NOT NULL,
    sync BOOLEAN NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (team_id, podcast_id)
);
";

/// The embedded account store.
pub struct DuckDbAccountStore {
    connection: Mutex<Connection>,
    /// Each team's podcast list (its blacklist is read by every search), filled on
    /// first read and dropped by every write to it, under the connection's lock.
    team_podcasts: Mutex<HashMap<String, Arc<Vec<TeamPodcastRow>>>>,
}

impl std::fmt::Debug for DuckDbAccountStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("DuckDbAccountStore")
    }
}

fn db_error(error: duckdb::Error) -> ApiError {
    ApiError::Internal(format!("app database: {error}"))
}

/// The key under which a subject's usage is stored.
fn subject_key(subject: &UsageSubject) -> String {
    match subject {
        UsageSubject::User { user_id, .. } => format!("user:{user_id}"),
        UsageSubject::Client { address } => format!("client:{address}"),
    }
}

fn subject_team(subject: &UsageSubject) -> Option<&str> {
    match subject {
        UsageSubject::User { team_id, .. } => Some(team_id),
        UsageSubject::Client { .. } => None,
    }
}

impl DuckDbAccountStore {
    /// Opens (creating when missing) `<data_dir>/app.duckdb`.
    pub fn open_in(data_dir: &Path) -> ApiResult<DuckDbAccountStore> {
        std::fs::create_dir_all(data_dir).map_err(|error| {
            ApiError::Internal(format!("cannot create {}: {error}", data_dir.display()))
        })?;
        let path = data_dir.join(APP_DATABASE_FILE);
        let connection = Connection::open(&path).map_err(|error| {
            ApiError::Internal(format!(
                "cannot open the app database {} (is another podlens process using it?): {error}",
                path.display()
            ))
        })?;
        Self::with_connection(connection)
    }

    /// An in-memory store, for tests.
    pub fn in_memory() -> ApiResult<DuckDbAccountStore> {
        Self::with_connection(Connection::open_in_memory().map_err(db_error)?)
    }

    fn with_connection(connection: Connection) -> ApiResult<DuckDbAccountStore> {
        connection.execute_batch(SCHEMA).map_err(db_error)?;
        Ok(DuckDbAccountStore {
            connection: Mutex::new(connection),
            team_podcasts: Mutex::new(HashMap::new()),
        })
    }

    /// A second connection to the same database (for the workflow tables).
    pub fn connection_clone(&self) -> ApiResult<Connection> {
        self.lock()?.try_clone().map_err(db_error)
    }

    fn lock(&self) -> ApiResult<std::sync::MutexGuard<'_, Connection>> {
        self.connection
            .lock()
            .map_err(|_| ApiError::Internal("app database lock poisoned".into()))
    }

    fn team_podcasts_cache(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Vec<TeamPodcastRow>>>> {
        self.team_podcasts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn window_total(
    connection: &Connection,
    subject: &str,
    counter: UsageCounter,
    window: UsageWindow,
    today: NaiveDate,
) -> ApiResult<u64> {
    let (first, last) = window.bounds(today);
    let total: i64 = connection
        .query_row(
            "SELECT COALESCE(SUM(count), 0)::BIGINT FROM usage_daily
             WHERE subject = ? AND counter = ? AND day BETWEEN ? AND ?",
            params![subject, counter.alias(), first, last],
            |row| row.get(0),
        )
        .map_err(db_error)?;
    Ok(u64::try_from(total).unwrap_or(0))
}

/// An email address as stored: trimmed, lowercase, and plausibly an address.
pub(crate) fn normalized_email(email: &str) -> ApiResult<String> {
    let email = email.trim().to_lowercase();
    if !podlens_model::validation::is_valid_email(&email) {
        return Err(ApiError::BadRequest(format!(
            "invalid email address: {email:?}"
        )));
    }
    Ok(email)
}

/// The user of `email` (id and display name), created with the address's local part as
/// its display name when missing.
pub(crate) fn user_for_email(
    connection: &Connection,
    email: &str,
    now: chrono::DateTime<Utc>,
) -> ApiResult<(String, Option<String>)> {
    let existing: Option<(String, Option<String>)> = connection
        .query_row(
            "SELECT user_id, display_name FROM users WHERE email = ?",
            params![email],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()
        .map_err(db_error)?;
    if let Some(found) = existing {
        return Ok(found);
    }
    let user_id = Uuid::new_v4().to_string();
    let display_name = email.split('@').next().unwrap_or_default().to_owned();
    connection
        .execute(
            "INSERT INTO users (user_id, email, display_name, avatar_seed, created_at)
             VALUES (?, ?, ?, ?, ?)",
            params![user_id, email, display_name, user_id, now],
        )
        .map_err(db_error)?;
    Ok((user_id, Some(display_name)))
}

/// The account of `email`, creating the user and a team named after them when missing.
/// `plan` sets the team's plan (operators' `keys create`); `None` keeps an existing
/// team's plan and gives a new one the free plan (sign-up).
fn ensure_account(
    connection: &Connection,
    email: &str,
    plan: Option<&str>,
    now: chrono::DateTime<Utc>,
) -> ApiResult<Account> {
    let (user_id, display_name) = user_for_email(connection, email, now)?;
    let team: Option<(String, String)> = connection
        .query_row(
            "SELECT m.team_id, t.plan FROM team_members m JOIN teams t ON t.team_id = m.team_id
             WHERE m.user_id = ? ORDER BY m.joined_at LIMIT 1",
            params![user_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()
        .map_err(db_error)?;
    let (team_id, plan) = match (team, plan) {
        (Some((team_id, _)), Some(plan)) => {
            connection
                .execute(
                    "UPDATE teams SET plan = ? WHERE team_id = ?",
                    params![plan, team_id],
                )
                .map_err(db_error)?;
            (team_id, plan.to_owned())
        }
        (Some((team_id, current)), None) => (team_id, current),
        (None, plan) => {
            let plan = plan.unwrap_or("free");
            let team_id = Uuid::new_v4().to_string();
            connection
                .execute(
                    "INSERT INTO teams (team_id, name, plan, created_at) VALUES (?, ?, ?, ?)",
                    params![team_id, format!("{email}'s team"), plan, now],
                )
                .map_err(db_error)?;
            connection
                .execute(
                    "INSERT INTO team_members (team_id, user_id, role, joined_at)
                     VALUES (?, ?, 'owner', ?)",
                    params![team_id, user_id, now],
                )
                .map_err(db_error)?;
            (team_id, plan.to_owned())
        }
    };
    Ok(Account {
        user_id,
        email: email.to_owned(),
        display_name,
        team_id,
        plan,
    })
}

/// Stores a new key of `user_id` in `team_id` (its hash and display prefix), created
/// `now`, and returns it.
fn insert_new_key(
    connection: &Connection,
    user_id: &str,
    team_id: &str,
    now: DateTime<Utc>,
) -> ApiResult<String> {
    let api_key = generate_api_key();
    connection
        .execute(
            "INSERT INTO api_keys (key_hash, key_prefix, user_id, team_id, created_at)
             VALUES (?, ?, ?, ?, ?)",
            params![
                hash_api_key(&api_key),
                display_prefix(&api_key),
                user_id,
                team_id,
                now
            ],
        )
        .map_err(db_error)?;
    Ok(api_key)
}

impl AccountStore for DuckDbAccountStore {
    fn create_api_key(&self, email: &str, plan: &str) -> ApiResult<NewApiKey> {
        let email = normalized_email(email)?;
        let connection = self.lock()?;
        let now = Utc::now();
        let account = ensure_account(&connection, &email, Some(plan), now)?;
        let (user_id, display_name, team_id) =
            (account.user_id, account.display_name, account.team_id);
        let api_key = insert_new_key(&connection, &user_id, &team_id, now)?;
        Ok(NewApiKey {
            account: Account {
                user_id,
                email,
                display_name,
                team_id,
                plan: plan.to_owned(),
            },
            api_key,
            created_at: now,
        })
    }

    fn account_for_key(&self, api_key: &str) -> ApiResult<Option<Account>> {
        let connection = self.lock()?;
        connection
            .query_row(
                "SELECT u.user_id, u.email, u.display_name, t.team_id, t.plan
                 FROM api_keys k
                 JOIN users u ON u.user_id = k.user_id
                 JOIN teams t ON t.team_id = k.team_id
                 JOIN team_members m ON m.team_id = k.team_id AND m.user_id = k.user_id
                 WHERE k.key_hash = ? AND k.revoked_at IS NULL",
                params![hash_api_key(api_key)],
                |row| {
                    Ok(Account {
                        user_id: row.get(0)?,
                        email: row.get(1)?,
                        display_name: row.get(2)?,
                        team_id: row.get(3)?,
                        plan: row.get(4)?,
                    })
                },
            )
            .optional()
            .map_err(db_error)
    }

    fn create_team_key(&self, account: &Account) -> ApiResult<NewApiKey> {
        let connection = self.lock()?;
        let now = Utc::now();
        let api_key = insert_new_key(&connection, &account.user_id, &account.team_id, now)?;
        Ok(NewApiKey {
            account: account.clone(),
            api_key,
            created_at: now,
        })
    }

    fn team_keys(&self, team_id: &str) -> ApiResult<Vec<ApiKeyRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT k.key_hash, k.key_prefix, k.created_at, u.email, k.revoked_at
                 FROM api_keys k JOIN users u ON u.user_id = k.user_id
                 WHERE k.team_id = ? ORDER BY k.created_at DESC, k.key_hash",
            )
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![team_id], |row| {
                let hash: String = row.get(0)?;
                Ok(ApiKeyRow {
                    key_id: key_id_of(&hash),
                    prefix: row.get(1)?,
                    created_at: row.get(2)?,
                    created_by: row.get(3)?,
                    revoked_at: row.get(4)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_error)
    }

    fn revoke_key(&self, team_id: Option<&str>, key_id: &str) -> ApiResult<Option<DateTime<Utc>>> {
        let valid = key_id.len() == KEY_ID_DIGITS && key_id.bytes().all(|b| b.is_ascii_hexdigit());
        if !valid {
            return Ok(None);
        }
        let connection = self.lock()?;
        connection
            .execute(
                "UPDATE api_keys SET revoked_at = ?
                 WHERE starts_with(key_hash, ?) AND revoked_at IS NULL
                   AND (? IS NULL OR team_id = ?)",
                params![Utc::now(), key_id.to_ascii_lowercase(), team_id, team_id],
            )
            .map_err(db_error)?;
        connection
            .query_row(
                "SELECT revoked_at FROM api_keys
                 WHERE starts_with(key_hash, ?) AND (? IS NULL OR team_id = ?)",
                params![key_id.to_ascii_lowercase(), team_id, team_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(db_error)
    }

    fn sign_up(&self, email: &str) -> ApiResult<Account> {
        let email = normalized_email(email)?;
        let connection = self.lock()?;
        ensure_account(&connection, &email, None, Utc::now())
    }

    fn consume(
        &self,
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        limit: Option<u64>,
        amount: u64,
        today: NaiveDate,
    ) -> ApiResult<Consumption> {
        let connection = self.lock()?;
        let key = subject_key(subject);
        let used = window_total(&connection, &key, counter, window, today)?;
        if let Some(limit) = limit
            && used.saturating_add(amount) > limit
        {
            return Ok(Consumption::Refused { used, limit });
        }
        let amount_sql = i64::try_from(amount).unwrap_or(i64::MAX);
        connection
            .execute(
                "INSERT INTO usage_daily (subject, team_id, day, counter, count)
                 VALUES (?, ?, ?, ?, ?)
                 ON CONFLICT (subject, day, counter) DO UPDATE SET count = count + excluded.count",
                params![
                    key,
                    subject_team(subject),
                    today,
                    counter.alias(),
                    amount_sql
                ],
            )
            .map_err(db_error)?;
        Ok(Consumption::Granted {
            used: used.saturating_add(amount),
        })
    }

    fn used(
        &self,
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        today: NaiveDate,
    ) -> ApiResult<u64> {
        let connection = self.lock()?;
        window_total(&connection, &subject_key(subject), counter, window, today)
    }

    fn team_usage(
        &self,
        team_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> ApiResult<Vec<UsageRow>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT day, subject, counter, count FROM usage_daily
                 WHERE team_id = ? AND day BETWEEN ? AND ? ORDER BY day, subject, counter",
            )
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![team_id, from, to], |row| {
                let subject: String = row.get(1)?;
                let count: i64 = row.get(3)?;
                Ok(UsageRow {
                    day: row.get(0)?,
                    user_id: subject.strip_prefix("user:").unwrap_or(&subject).to_owned(),
                    counter: row.get(2)?,
                    count: u64::try_from(count).unwrap_or(0),
                })
            })
            .map_err(db_error)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_error)
    }

    fn team_users(&self, team_id: &str) -> ApiResult<Vec<TeamUser>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT u.user_id, u.email, u.first_name, u.last_name, u.avatar_seed, u.display_name,
                        m.role, m.joined_at
                 FROM team_members m JOIN users u ON u.user_id = m.user_id
                 WHERE m.team_id = ? ORDER BY m.joined_at, u.email",
            )
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![team_id], |row| {
                Ok(TeamUser {
                    id: row.get(0)?,
                    email: row.get(1)?,
                    first_name: row.get(2)?,
                    last_name: row.get(3)?,
                    avatar_seed: row.get(4)?,
                    display_name: row.get(5)?,
                    role: row.get(6)?,
                    joined_at: row.get(7)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_error)
    }

    fn server_secret(&self, name: &str) -> ApiResult<Vec<u8>> {
        let connection = self.lock()?;
        let fresh: [u8; 32] = rand::random();
        // The first writer's secret wins; every later call (and every node) reads it.
        connection
            .execute(
                "INSERT INTO server_secrets (name, secret) VALUES (?, ?) ON CONFLICT DO NOTHING",
                params![name, fresh.to_vec()],
            )
            .map_err(db_error)?;
        connection
            .query_row(
                "SELECT secret FROM server_secrets WHERE name = ?",
                params![name],
                |row| row.get::<_, Vec<u8>>(0),
            )
            .map_err(db_error)
    }

    fn record_search(&self, search: &SearchRecord) -> ApiResult<()> {
        let connection = self.lock()?;
        let result_count = i64::try_from(search.result_count).unwrap_or(i64::MAX);
        connection
            .execute(
                "INSERT INTO search_history
                 (search_id, subject, team_id, search_mode, options_json, result_count, searched_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
                params![
                    search.search_id,
                    subject_key(&search.subject),
                    subject_team(&search.subject),
                    search.search_mode,
                    search.options_json,
                    result_count,
                    search.searched_at
                ],
            )
            .map_err(db_error)?;
        Ok(())
    }

    fn team_podcasts(&self, team_id: &str) -> ApiResult<Vec<TeamPodcastRow>> {
        if let Some(rows) = self.team_podcasts_cache().get(team_id) {
            return Ok(rows.as_ref().clone());
        }
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT team_id, podcast_id, added_by_user_id, added_reason, blacklist, sync,
                        created_at, updated_at
                 FROM team_podcasts WHERE team_id = ? ORDER BY created_at DESC, podcast_id",
            )
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![team_id], |row| {
                Ok(TeamPodcastRow {
                    team_id: row.get(0)?,
                    podcast_id: row.get(1)?,
                    added_by_user_id: row.get(2)?,
                    added_reason: row.get(3)?,
                    blacklist: row.get(4)?,
                    sync: row.get(5)?,
                    created_at: row.get(6)?,
                    updated_at: row.get(7)?,
                })
            })
            .map_err(db_error)?;
        let rows = rows.collect::<Result<Vec<_>, _>>().map_err(db_error)?;
        self.team_podcasts_cache()
            .insert(team_id.to_owned(), Arc::new(rows.clone()));
        Ok(rows)
    }

    fn upsert_team_podcast(&self, row: &TeamPodcastRow) -> ApiResult<TeamPodcastRow> {
        let connection = self.lock()?;
        self.team_podcasts_cache().remove(&row.team_id);
        connection
            .execute(
                "INSERT INTO team_podcasts
                 (team_id, podcast_id, added_by_user_id, added_reason, blacklist, sync, created_at, updated_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT (team_id, podcast_id) DO UPDATE SET
                    blacklist = excluded.blacklist, sync = excluded.sync, updated_at = excluded.updated_at",
                params![
                    row.team_id,
                    row.podcast_id,
                    row.added_by_user_id,
                    row.added_reason,
                    row.blacklist,
                    row.sync,
                    row.created_at,
                    row.updated_at
                ],
            )
            .map_err(db_error)?;
        connection
            .query_row(
                "SELECT team_id, podcast_id, added_by_user_id, added_reason, blacklist, sync,
                        created_at, updated_at
                 FROM team_podcasts WHERE team_id = ? AND podcast_id = ?",
                params![row.team_id, row.podcast_id],
                |found| {
                    Ok(TeamPodcastRow {
                        team_id: found.get(0)?,
                        podcast_id: found.get(1)?,
                        added_by_user_id: found.get(2)?,
                        added_reason: found.get(3)?,
                        blacklist: found.get(4)?,
                        sync: found.get(5)?,
                        created_at: found.get(6)?,
                        updated_at: found.get(7)?,
                    })
                },
            )
            .map_err(db_error)
    }

    fn remove_team_podcasts(&self, team_id: &str, podcast_ids: &[String]) -> ApiResult<u64> {
        let connection = self.lock()?;
        self.team_podcasts_cache().remove(team_id);
        let mut removed = 0u64;
        for podcast_id in podcast_ids {
            let changed = connection
                .execute(
                    "DELETE FROM team_podcasts WHERE team_id = ? AND podcast_id = ?",
                    params![team_id, podcast_id],
                )
                .map_err(db_error)?;
            removed += changed as u64;
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_created_key_authenticates_and_a_wrong_one_does_not() {
        let store = DuckDbAccountStore::in_memory().unwrap();
        let created = store.create_api_key("Ada@Example.com", "business").unwrap();
        let account = store.account_for_key(&created.api_key).unwrap().unwrap();
        assert_eq!(account.email, "ada@example.com");
        assert_eq!(account.plan, "business");
        assert!(store.account_for_key("pl_wrong").unwrap().is_none());
    }

    #[test]
    fn a_second_key_for_the_same_email_reuses_user_and_team_and_updates_the_plan() {
        let store = DuckDbAccountStore::in_memory().unwrap();
        let first = store.create_api_key("a@b.co", "free").unwrap();
        let second = store.create_api_key("a@b.co", "agency").unwrap();
        assert_eq!(first.account.user_id, second.account.user_id);
        assert_eq!(first.account.team_id, second.account.team_id);
        let account = store.account_for_key(&first.api_key).unwrap().unwrap();
        assert_eq!(account.plan, "agency");
        assert_eq!(store.team_users(&first.account.team_id).unwrap().len(), 1);
    }

    #[test]
    fn consume_refuses_past_the_limit_and_counts_the_month() {
        let store = DuckDbAccountStore::in_memory().unwrap();
        let subject = UsageSubject::User {
            user_id: "u".into(),
            team_id: "t".into(),
        };
        let counter = UsageCounter::Search;
        for (index, date) in [day(2025, 3, 1), day(2025, 3, 2)].into_iter().enumerate() {
            let outcome = store
                .consume(&subject, counter, UsageWindow::Month, Some(2), 1, date)
                .unwrap();
            assert_eq!(
                outcome,
                Consumption::Granted {
                    used: index as u64 + 1
                }
            );
        }
        let refused = store
            .consume(
                &subject,
                counter,
                UsageWindow::Month,
                Some(2),
                1,
                day(2025, 3, 9),
            )
            .unwrap();
        assert_eq!(refused, Consumption::Refused { used: 2, limit: 2 });
        // A new month starts from zero, and the daily window only sees its day.
        let april = store
            .consume(
                &subject,
                counter,
                UsageWindow::Month,
                Some(2),
                1,
                day(2025, 4, 1),
            )
            .unwrap();
        assert_eq!(april, Consumption::Granted { used: 1 });
        assert_eq!(
            store
                .used(&subject, counter, UsageWindow::Day, day(2025, 3, 2))
                .unwrap(),
            1
        );
        let rows = store
            .team_usage("t", day(2025, 3, 1), day(2025, 3, 31))
            .unwrap();
        assert_eq!(rows.iter().map(|row| row.count).sum::<u64>(), 2);
        assert!(rows.iter().all(|row| row.user_id == "u"));
    }

    #[test]
    fn team_podcast_flags_update_in_place() {
        let store = DuckDbAccountStore::in_memory().unwrap();
        let now = Utc::now();
        let mut row = TeamPodcastRow {
            team_id: "t".into(),
            podcast_id: "p".into(),
            added_by_user_id: Some("u".into()),
            added_reason: "add-to-team-podcasts-button".into(),
            blacklist: false,
            sync: false,
            created_at: now,
            updated_at: now,
        };
        store.upsert_team_podcast(&row).unwrap();
        // Read once, so the team's list is cached; every write must be seen after it.
        assert!(!store.team_podcasts("t").unwrap()[0].blacklist);
        row.blacklist = true;
        let saved = store.upsert_team_podcast(&row).unwrap();
        assert!(saved.blacklist);
        let listed = store.team_podcasts("t").unwrap();
        assert_eq!(listed.len(), 1);
        assert!(listed[0].blacklist);
        assert!(store.team_podcasts("other").unwrap().is_empty());
        assert_eq!(store.remove_team_podcasts("t", &["p".into()]).unwrap(), 1);
        assert!(store.team_podcasts("t").unwrap().is_empty());
    }
}
