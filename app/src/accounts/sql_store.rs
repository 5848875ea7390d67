//! [`AccountStore`] over the application store ([`podlens_store::Database`]): the
//! data directory's SQLite file, or a PostgreSQL server several nodes share. Every
//! check-and-write (a usage charge under its limit, an account created for an email)
//! runs in one write transaction holding a lock on what it checks, so it holds across
//! processes and nodes.

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use podlens_store::{
    Database, count, day_text, optional_time_at, parse_day, parse_time, time_at, time_text,
};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe, Row};
use uuid::Uuid;

use super::keys::{
    KEY_ID_DIGITS, display_prefix, from_hex, generate_api_key, hash_api_key, hex, key_id_of,
};
use super::known_keys::{self, KnownKeys};
use super::usage::{UsageCounter, UsageWindow};
use super::{
    Account, AccountStore, ApiKeyRow, NewApiKey, SearchRecord, TeamPodcastRow, TeamUser, UsagePool,
    UsageRow, UsageSubject, account_from_row,
};
use super::{blacklists, quota};
use crate::error::{AppError, AppResult};

/// The account store.
pub struct SqlAccountStore {
    db: Arc<Database>,
    /// The keys' accounts remembered by this node, forgotten by the changes made here.
    known_keys: Arc<KnownKeys>,
}

impl std::fmt::Debug for SqlAccountStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SqlAccountStore")
            .field("database", &self.db.describe())
            .finish()
    }
}

/// The key under which a subject's usage is stored.
fn subject_key(subject: &UsageSubject) -> String {
    match subject {
        UsageSubject::User { user_id, .. } => format!("user:{user_id}"),
        UsageSubject::Client { address } => format!("client:{address}"),
    }
}

/// The key under which a pool's reservations are kept and its window locked.
fn pool_key(pool: &UsagePool) -> String {
    match pool {
        UsagePool::Team(team_id) => format!("team:{team_id}"),
        UsagePool::Client(address) => format!("client:{address}"),
    }
}

fn subject_team(subject: &UsageSubject) -> Option<&str> {
    match subject {
        UsageSubject::User { team_id, .. } => Some(team_id),
        UsageSubject::Client { .. } => None,
    }
}

fn count_of(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

impl SqlAccountStore {
    pub fn new(db: Arc<Database>) -> SqlAccountStore {
        SqlAccountStore {
            db,
            known_keys: Arc::default(),
        }
    }

    /// The keys' accounts this store forgets when it changes keys, users or teams:
    /// hand the same to the other stores that do ([`super::members::MemberStore`]) and
    /// to the callers that look keys up.
    pub fn known_keys(&self) -> Arc<KnownKeys> {
        self.known_keys.clone()
    }

    /// A private store for one test (PostgreSQL when `PODLENS_TEST_DATABASE_URL` is
    /// set, else in memory).
    pub fn for_tests() -> AppResult<SqlAccountStore> {
        Ok(SqlAccountStore::new(Arc::new(Database::for_tests()?)))
    }

    pub fn database(&self) -> &Arc<Database> {
        &self.db
    }

    /// The server secret called `name`: 32 random bytes made on first use and kept,
    /// the same for every node that shares the store (cursors are signed with it).
    /// Read once, when the services are built (blocking).
    pub fn server_secret(&self, name: &str) -> AppResult<Vec<u8>> {
        let fresh: [u8; 32] = rand::random();
        let fresh_hex = hex(&fresh);
        // The first writer's secret wins; every later call (and every node) reads it.
        let stored: String = self.db.wait(async {
            sqlx::query(
                "INSERT INTO server_secrets (name, secret_hex) VALUES ($1, $2)
                 ON CONFLICT (name) DO NOTHING",
            )
            .bind(name)
            .bind(&fresh_hex)
            .execute(self.db.writer())
            .await?;
            sqlx::query("SELECT secret_hex FROM server_secrets WHERE name = $1")
                .bind(name)
                .fetch_one(self.db.pool())
                .await?
                .try_get::<String, _>(0)
        })?;
        from_hex(&stored)
            .ok_or_else(|| AppError::Internal(format!("server secret {name:?} is not hex")))
    }
}

async fn window_total(
    connection: &mut AnyConnection,
    subject: &str,
    counter: UsageCounter,
    window: UsageWindow,
    today: NaiveDate,
) -> AppResult<u64> {
    window_sum(connection, "subject", subject, counter, window, today).await
}

/// What a pool has used of `counter`'s window: its team's members' rows together, or
/// the client's own.
async fn pool_total(
    connection: &mut AnyConnection,
    pool: &UsagePool,
    counter: UsageCounter,
    window: UsageWindow,
    today: NaiveDate,
) -> AppResult<u64> {
    match pool {
        UsagePool::Team(team_id) => {
            window_sum(connection, "team_id", team_id, counter, window, today).await
        }
        UsagePool::Client(address) => {
            let subject = format!("client:{address}");
            window_sum(connection, "subject", &subject, counter, window, today).await
        }
    }
}

/// The sum of `counter` over the window's days of the rows whose `column` (`subject`
/// or `team_id`) is `value`.
async fn window_sum(
    connection: &mut AnyConnection,
    column: &'static str,
    value: &str,
    counter: UsageCounter,
    window: UsageWindow,
    today: NaiveDate,
) -> AppResult<u64> {
    let (first, last) = window.bounds(today);
    let statement = format!(
        "SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM usage_daily
         WHERE {column} = $1 AND counter = $2 AND day BETWEEN $3 AND $4"
    );
    Ok(count(
        sqlx::query(AssertSqlSafe(statement))
            .bind(value)
            .bind(counter.alias())
            .bind(day_text(first))
            .bind(day_text(last)),
        connection,
    )
    .await?)
}

/// Adds `amount` to the day's count of `counter` for `subject` (the row is made when
/// missing). Call it inside a write transaction.
async fn add_to_day(
    connection: &mut AnyConnection,
    subject: &UsageSubject,
    counter: UsageCounter,
    day: NaiveDate,
    amount: u64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO usage_daily (subject, team_id, day, counter, count)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (subject, counter, day)
         DO UPDATE SET count = usage_daily.count + excluded.count",
    )
    .bind(subject_key(subject))
    .bind(subject_team(subject))
    .bind(day_text(day))
    .bind(counter.alias())
    .bind(i64::try_from(amount).unwrap_or(i64::MAX))
    .execute(connection)
    .await?;
    Ok(())
}

/// An email address as stored: trimmed, lowercase, and plausibly an address.
pub fn normalized_email(email: &str) -> AppResult<String> {
    let email = email.trim().to_lowercase();
    if !podlens_model::validation::is_valid_email(&email) {
        return Err(AppError::Invalid(format!(
            "invalid email address: {email:?}"
        )));
    }
    Ok(email)
}

/// The user of `email` (id and display name), created without a display name when
/// missing. Call it inside a write transaction.
pub(crate) async fn user_for_email(
    connection: &mut AnyConnection,
    email: &str,
    now: DateTime<Utc>,
) -> AppResult<(String, Option<String>)> {
    let existing = sqlx::query("SELECT user_id, display_name FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(&mut *connection)
        .await?;
    if let Some(row) = existing {
        return Ok((row.try_get(0)?, row.try_get(1)?));
    }
    // No display name until the user chooses one: the email's local part is no name.
    let user_id = Uuid::new_v4().to_string();
    sqlx::query(
        "INSERT INTO users (user_id, email, avatar_seed, created_at)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(&user_id)
    .bind(email)
    .bind(&user_id)
    .bind(time_text(now))
    .execute(connection)
    .await?;
    Ok((user_id, None))
}

/// The account of `email`, creating the user and a team named after them when missing.
/// `plan` sets the team's plan (operators' `keys create`); `None` keeps an existing
/// team's plan and gives a new one the free plan (sign-up).
async fn ensure_account(
    db: &Database,
    email: &str,
    plan: Option<&str>,
    now: DateTime<Utc>,
    new_key: bool,
) -> AppResult<(Account, Option<String>)> {
    let mut transaction = db.begin_write().await?;
    db.lock(&mut transaction, &format!("account:{email}"))
        .await?;
    let (user_id, display_name) = user_for_email(&mut transaction, email, now).await?;
    let team = sqlx::query(
        "SELECT m.team_id, t.plan FROM team_members m JOIN teams t ON t.team_id = m.team_id
         WHERE m.user_id = $1 ORDER BY m.joined_at LIMIT 1",
    )
    .bind(&user_id)
    .fetch_optional(&mut *transaction)
    .await?
    .map(|row| Ok::<_, sqlx::Error>((row.try_get::<String, _>(0)?, row.try_get::<String, _>(1)?)))
    .transpose()?;
    let now_text = time_text(now);
    let (team_id, plan) = match (team, plan) {
        (Some((team_id, _)), Some(plan)) => {
            sqlx::query("UPDATE teams SET plan = $1 WHERE team_id = $2")
                .bind(plan)
                .bind(&team_id)
                .execute(&mut *transaction)
                .await?;
            db.notify(&mut transaction, known_keys::CHANNEL, "").await?;
            (team_id, plan.to_owned())
        }
        (Some((team_id, current)), None) => (team_id, current),
        (None, plan) => {
            let plan = plan.unwrap_or("free");
            let team_id = Uuid::new_v4().to_string();
            sqlx::query(
                "INSERT INTO teams (team_id, name, plan, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(&team_id)
            .bind(format!("{email}'s team"))
            .bind(plan)
            .bind(&now_text)
            .execute(&mut *transaction)
            .await?;
            sqlx::query(
                "INSERT INTO team_members (team_id, user_id, role, joined_at)
                 VALUES ($1, $2, 'owner', $3)",
            )
            .bind(&team_id)
            .bind(&user_id)
            .bind(&now_text)
            .execute(&mut *transaction)
            .await?;
            (team_id, plan.to_owned())
        }
    };
    let api_key = if new_key {
        Some(insert_new_key(&mut transaction, &user_id, &team_id, now).await?)
    } else {
        None
    };
    transaction.commit().await?;
    Ok((
        Account {
            user_id,
            email: email.to_owned(),
            display_name,
            team_id,
            plan,
        },
        api_key,
    ))
}

/// Stores a new key of `user_id` in `team_id` (its hash and display prefix), created
/// `now`, and returns it.
async fn insert_new_key(
    connection: &mut AnyConnection,
    user_id: &str,
    team_id: &str,
    now: DateTime<Utc>,
) -> AppResult<String> {
    let api_key = generate_api_key();
    sqlx::query(
        "INSERT INTO api_keys (key_hash, key_prefix, user_id, team_id, created_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(hash_api_key(&api_key))
    .bind(display_prefix(&api_key))
    .bind(user_id)
    .bind(team_id)
    .bind(time_text(now))
    .execute(connection)
    .await?;
    Ok(api_key)
}

fn team_podcast_from_row(row: &AnyRow) -> AppResult<TeamPodcastRow> {
    Ok(TeamPodcastRow {
        team_id: row.try_get("team_id")?,
        podcast_id: row.try_get("podcast_id")?,
        added_by_user_id: row.try_get("added_by_user_id")?,
        added_reason: row.try_get("added_reason")?,
        blacklist: row.try_get::<i64, _>("blacklist")? != 0,
        sync: row.try_get::<i64, _>("sync")? != 0,
        created_at: time_at(row, "created_at")?,
        updated_at: time_at(row, "updated_at")?,
    })
}

const TEAM_PODCAST_COLUMNS: &str =
    "team_id, podcast_id, added_by_user_id, added_reason, blacklist, sync, created_at, updated_at";

#[async_trait::async_trait]
impl AccountStore for SqlAccountStore {
    async fn create_api_key(&self, email: &str, plan: &str) -> AppResult<NewApiKey> {
        let email = normalized_email(email)?;
        let now = Utc::now();
        let (account, api_key) = self
            .db
            .run(ensure_account(&self.db, &email, Some(plan), now, true))
            .await?;
        self.known_keys.forget_all();
        let api_key = api_key.ok_or_else(|| AppError::Internal("no key was made".into()))?;
        Ok(NewApiKey {
            account,
            api_key,
            created_at: now,
        })
    }

    async fn account_for_key(&self, api_key: &str) -> AppResult<Option<Account>> {
        let row = self
            .db
            .run(
                sqlx::query(
                    "SELECT u.user_id, u.email, u.display_name, t.team_id, t.plan
                 FROM api_keys k
                 JOIN users u ON u.user_id = k.user_id
                 JOIN teams t ON t.team_id = k.team_id
                 JOIN team_members m ON m.team_id = k.team_id AND m.user_id = k.user_id
                 WHERE k.key_hash = $1 AND k.revoked_at IS NULL",
                )
                .bind(hash_api_key(api_key))
                .fetch_optional(self.db.pool()),
            )
            .await?;
        row.map(|row| account_from_row(&row)).transpose()
    }

    async fn create_team_key(&self, account: &Account) -> AppResult<NewApiKey> {
        let now = Utc::now();
        let api_key = self
            .db
            .run(async {
                let mut connection = self.db.pool().acquire().await?;
                insert_new_key(&mut connection, &account.user_id, &account.team_id, now).await
            })
            .await?;
        Ok(NewApiKey {
            account: account.clone(),
            api_key,
            created_at: now,
        })
    }

    async fn team_keys(&self, team_id: &str) -> AppResult<Vec<ApiKeyRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(
                    "SELECT k.key_hash, k.key_prefix, k.created_at, u.email, k.revoked_at
                 FROM api_keys k JOIN users u ON u.user_id = k.user_id
                 WHERE k.team_id = $1 ORDER BY k.created_at DESC, k.key_hash",
                )
                .bind(team_id)
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter()
            .map(|row| {
                let hash: String = row.try_get(0)?;
                Ok(ApiKeyRow {
                    key_id: key_id_of(&hash),
                    prefix: row.try_get(1)?,
                    created_at: time_at(row, "created_at")?,
                    created_by: row.try_get(3)?,
                    revoked_at: optional_time_at(row, "revoked_at")?,
                })
            })
            .collect()
    }

    async fn revoke_key(
        &self,
        team_id: Option<&str>,
        key_id: &str,
    ) -> AppResult<Option<DateTime<Utc>>> {
        let valid = key_id.len() == KEY_ID_DIGITS && key_id.bytes().all(|b| b.is_ascii_hexdigit());
        if !valid {
            return Ok(None);
        }
        let prefix = format!("{}%", key_id.to_ascii_lowercase());
        let revoked: Option<Option<String>> = self
            .db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                sqlx::query(
                    "UPDATE api_keys SET revoked_at = $1
                 WHERE key_hash LIKE $2 AND revoked_at IS NULL
                   AND (CAST($3 AS TEXT) IS NULL OR team_id = $3)",
                )
                .bind(time_text(Utc::now()))
                .bind(&prefix)
                .bind(team_id)
                .execute(&mut *transaction)
                .await?;
                let row = sqlx::query(
                    "SELECT revoked_at FROM api_keys
                 WHERE key_hash LIKE $1 AND (CAST($2 AS TEXT) IS NULL OR team_id = $2)",
                )
                .bind(&prefix)
                .bind(team_id)
                .fetch_optional(&mut *transaction)
                .await?;
                self.known_keys.commit_change(&self.db, transaction).await?;
                row.map(|row| row.try_get::<Option<String>, _>(0))
                    .transpose()
                    .map_err(AppError::from)
            })
            .await?;
        revoked
            .flatten()
            .as_deref()
            .map(parse_time)
            .transpose()
            .map_err(AppError::from)
    }

    async fn sign_up(&self, email: &str) -> AppResult<Account> {
        let email = normalized_email(email)?;
        let (account, _) = self
            .db
            .run(ensure_account(&self.db, &email, None, Utc::now(), false))
            .await?;
        Ok(account)
    }

    async fn set_display_name(&self, user_id: &str, name: Option<&str>) -> AppResult<()> {
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                sqlx::query("UPDATE users SET display_name = $1 WHERE user_id = $2")
                    .bind(name)
                    .bind(user_id)
                    .execute(&mut *transaction)
                    .await?;
                self.known_keys.commit_change(&self.db, transaction).await
            })
            .await
    }

    async fn reserve_usage(
        &self,
        request: &quota::LeaseRequest<'_>,
    ) -> AppResult<quota::Reservation> {
        let key = pool_key(request.pool);
        let counter = request.counter.alias();
        let first_day = day_text(request.window.bounds(request.today).0);
        self.db.run(async {
            let mut transaction = self.db.begin_write().await?;
            self.db
                .lock(&mut transaction, &format!("usage:{key}:{counter}"))
                .await?;
            let written = pool_total(
                &mut transaction,
                request.pool,
                request.counter,
                request.window,
                request.today,
            )
            .await?;
            // A node that stopped renewing is gone: what it held is free again. So is
            // what this node held, when it starts afresh (node ids are never empty).
            sqlx::query(
                "DELETE FROM usage_leases
                 WHERE subject = $1 AND counter = $2 AND first_day = $3
                   AND (expires_at <= $4 OR node_id = $5)",
            )
            .bind(&key)
            .bind(counter)
            .bind(&first_day)
            .bind(request.now_ms)
            .bind(if request.fresh { request.node } else { "" })
            .execute(&mut *transaction)
            .await?;
            let held = sqlx::query(
                "SELECT CAST(COALESCE(SUM(units), 0) AS BIGINT),
                        CAST(COALESCE(SUM(CASE WHEN node_id = $4 THEN 0 ELSE units END), 0) AS BIGINT)
                 FROM usage_leases WHERE subject = $1 AND counter = $2 AND first_day = $3",
            )
            .bind(&key)
            .bind(counter)
            .bind(&first_day)
            .bind(request.node)
            .fetch_one(&mut *transaction)
            .await?;
            let (held, elsewhere) = (
                count_of(held.try_get(0)?),
                count_of(held.try_get(1)?),
            );
            let taken = written.saturating_add(held);
            let granted = quota::grant(request.limit, taken, request.want);
            if granted > 0 {
                sqlx::query(
                    "INSERT INTO usage_leases (subject, counter, first_day, node_id, units, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (subject, counter, first_day, node_id)
                     DO UPDATE SET units = usage_leases.units + excluded.units,
                                   expires_at = excluded.expires_at",
                )
                .bind(&key)
                .bind(counter)
                .bind(&first_day)
                .bind(request.node)
                .bind(i64::try_from(granted).unwrap_or(i64::MAX))
                .bind(request.expires_at_ms)
                .execute(&mut *transaction)
                .await?;
            }
            transaction.commit().await?;
            Ok(quota::Reservation {
                granted,
                first: taken + 1,
                taken: taken + granted,
                elsewhere,
            })
        }).await
    }

    async fn settle_usage(
        &self,
        node: &str,
        settlements: &[quota::Settlement],
        now_ms: i64,
        expires_at_ms: i64,
    ) -> AppResult<Vec<bool>> {
        if settlements.is_empty() {
            return Ok(Vec::new());
        }
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                // The windows' locks, in one order: a reservation reads what is written and
                // what is held in two statements, which must not see half of a batch.
                let mut locks: Vec<String> = settlements
                    .iter()
                    .map(|settlement| {
                        format!(
                            "usage:{}:{}",
                            pool_key(&settlement.pool),
                            settlement.counter.alias()
                        )
                    })
                    .collect();
                locks.sort();
                locks.dedup();
                for lock in &locks {
                    self.db.lock(&mut transaction, lock).await?;
                }
                let mut written = Vec::with_capacity(settlements.len());
                for settlement in settlements {
                    let key = pool_key(&settlement.pool);
                    let used: u64 = settlement.days.iter().map(|calls| calls.amount).sum();
                    let given_up = i64::try_from(used.saturating_add(settlement.give_back))
                        .unwrap_or(i64::MAX);
                    let statement = if settlement.end {
                        "DELETE FROM usage_leases
                     WHERE subject = $1 AND counter = $2 AND first_day = $3 AND node_id = $4
                       AND expires_at > $5"
                    } else {
                        "UPDATE usage_leases SET units = units - $6, expires_at = $7
                     WHERE subject = $1 AND counter = $2 AND first_day = $3 AND node_id = $4
                       AND expires_at > $5"
                    };
                    let query = sqlx::query(statement)
                        .bind(key)
                        .bind(settlement.counter.alias())
                        .bind(day_text(settlement.first_day))
                        .bind(node)
                        .bind(now_ms);
                    let query = if settlement.end {
                        query
                    } else {
                        query.bind(given_up).bind(expires_at_ms)
                    };
                    let live = query.execute(&mut *transaction).await?.rows_affected() > 0;
                    if live {
                        for calls in &settlement.days {
                            add_to_day(
                                &mut transaction,
                                &calls.subject,
                                settlement.counter,
                                calls.day,
                                calls.amount,
                            )
                            .await?;
                        }
                    }
                    written.push(live);
                }
                transaction.commit().await?;
                Ok(written)
            })
            .await
    }

    async fn add_usage(
        &self,
        counts: &[(UsageSubject, UsageCounter, NaiveDate, u64)],
    ) -> AppResult<()> {
        if counts.is_empty() {
            return Ok(());
        }
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                for (subject, counter, day, amount) in counts {
                    add_to_day(&mut transaction, subject, *counter, *day, *amount).await?;
                }
                transaction.commit().await?;
                Ok(())
            })
            .await
    }

    async fn used(
        &self,
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        today: NaiveDate,
    ) -> AppResult<u64> {
        self.db
            .run(async {
                let mut connection = self.db.pool().acquire().await?;
                window_total(
                    &mut connection,
                    &subject_key(subject),
                    counter,
                    window,
                    today,
                )
                .await
            })
            .await
    }

    async fn team_usage(
        &self,
        team_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Vec<UsageRow>> {
        let rows = self
            .db
            .run(
                sqlx::query(
                    "SELECT day, subject, counter, count FROM usage_daily
                 WHERE team_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day, subject, counter",
                )
                .bind(team_id)
                .bind(day_text(from))
                .bind(day_text(to))
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter()
            .map(|row| {
                let subject: String = row.try_get(1)?;
                Ok(UsageRow {
                    day: parse_day(&row.try_get::<String, _>(0)?)?,
                    user_id: subject.strip_prefix("user:").unwrap_or(&subject).to_owned(),
                    counter: row.try_get(2)?,
                    count: count_of(row.try_get(3)?),
                })
            })
            .collect()
    }

    async fn team_users(&self, team_id: &str) -> AppResult<Vec<TeamUser>> {
        let rows = self.db.run(
            sqlx::query(
                "SELECT u.user_id, u.email, u.first_name, u.last_name, u.avatar_seed, u.display_name,
                        m.role, m.joined_at
                 FROM team_members m JOIN users u ON u.user_id = m.user_id
                 WHERE m.team_id = $1 ORDER BY m.joined_at, u.email",
            )
            .bind(team_id)
            .fetch_all(self.db.pool()),
        ).await?;
        rows.iter()
            .map(|row| {
                Ok(TeamUser {
                    id: row.try_get(0)?,
                    email: row.try_get(1)?,
                    first_name: row.try_get(2)?,
                    last_name: row.try_get(3)?,
                    avatar_seed: row.try_get(4)?,
                    display_name: row.try_get(5)?,
                    role: row.try_get(6)?,
                    joined_at: time_at(row, "joined_at")?,
                })
            })
            .collect()
    }

    async fn record_searches(&self, searches: &[SearchRecord]) -> AppResult<()> {
        // Many rows per statement: a second's searches are a few statements, so the
        // writer connection (which a limited plan's usage charges also need) is held
        // for milliseconds, not one round of SQL per search. A batch written before
        // (its commit's answer lost, then retried) is not an error: the rows are there.
        const ROWS_PER_STATEMENT: usize = 100;
        const COLUMNS: usize = 7;
        self.db.run(async {
            let mut transaction = self.db.begin_write().await?;
            for chunk in searches.chunks(ROWS_PER_STATEMENT) {
                let rows: Vec<String> = (0..chunk.len())
                    .map(|row| {
                        let placeholders: Vec<String> = (1..=COLUMNS)
                            .map(|column| format!("${}", row * COLUMNS + column))
                            .collect();
                        format!("({})", placeholders.join(", "))
                    })
                    .collect();
                let sql = format!(
                    "INSERT INTO search_history
                     (search_id, subject, team_id, search_mode, options_json, result_count, searched_at)
                     VALUES {}
                     ON CONFLICT (search_id) DO NOTHING",
                    rows.join(", ")
                );
                let mut statement = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()));
                for search in chunk {
                    statement = statement
                        .bind(search.search_id.as_str())
                        .bind(subject_key(&search.subject))
                        .bind(subject_team(&search.subject))
                        .bind(search.search_mode.as_str())
                        .bind(search.options_json.as_str())
                        .bind(i64::try_from(search.result_count).unwrap_or(i64::MAX))
                        .bind(time_text(search.searched_at));
                }
                statement.execute(&mut *transaction).await?;
            }
            transaction.commit().await?;
            Ok::<_, AppError>(())
        }).await
    }

    async fn team_podcasts(&self, team_id: &str) -> AppResult<Vec<TeamPodcastRow>> {
        let sql = format!(
            "SELECT {TEAM_PODCAST_COLUMNS} FROM team_podcasts WHERE team_id = $1
             ORDER BY created_at DESC, podcast_id"
        );
        let rows = self
            .db
            .run(
                sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                    .bind(team_id)
                    .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter().map(team_podcast_from_row).collect()
    }

    async fn upsert_team_podcast(&self, row: &TeamPodcastRow) -> AppResult<TeamPodcastRow> {
        let select = format!(
            "SELECT {TEAM_PODCAST_COLUMNS} FROM team_podcasts WHERE team_id = $1 AND podcast_id = $2"
        );
        let saved = self.db.run(async {
            let mut transaction = self.db.begin_write().await?;
            sqlx::query(
                "INSERT INTO team_podcasts
                 (team_id, podcast_id, added_by_user_id, added_reason, blacklist, sync, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (team_id, podcast_id) DO UPDATE SET
                    blacklist = excluded.blacklist, sync = excluded.sync, updated_at = excluded.updated_at",
            )
            .bind(&row.team_id)
            .bind(&row.podcast_id)
            .bind(&row.added_by_user_id)
            .bind(&row.added_reason)
            .bind(i64::from(row.blacklist))
            .bind(i64::from(row.sync))
            .bind(time_text(row.created_at))
            .bind(time_text(row.updated_at))
            .execute(&mut *transaction)
            .await?;
            let saved = sqlx::query(sqlx::AssertSqlSafe(select.as_str()))
                .bind(&row.team_id)
                .bind(&row.podcast_id)
                .fetch_one(&mut *transaction)
                .await?;
            self.db
                .notify(&mut transaction, blacklists::CHANNEL, &row.team_id)
                .await?;
            transaction.commit().await?;
            Ok::<_, AppError>(saved)
        }).await?;
        team_podcast_from_row(&saved)
    }

    async fn remove_team_podcasts(&self, team_id: &str, podcast_ids: &[String]) -> AppResult<u64> {
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                let mut removed = 0u64;
                for podcast_id in podcast_ids {
                    removed += sqlx::query(
                        "DELETE FROM team_podcasts WHERE team_id = $1 AND podcast_id = $2",
                    )
                    .bind(team_id)
                    .bind(podcast_id)
                    .execute(&mut *transaction)
                    .await?
                    .rows_affected();
                }
                if removed > 0 {
                    self.db
                        .notify(&mut transaction, blacklists::CHANNEL, team_id)
                        .await?;
                }
                transaction.commit().await?;
                Ok(removed)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::chosen_display_name;
    use crate::runtime::block_on_own_thread as block;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_created_key_authenticates_and_a_wrong_one_does_not() {
        let store = SqlAccountStore::for_tests().unwrap();
        let created = block(store.create_api_key("Ada@Example.com", "business")).unwrap();
        let account = block(store.account_for_key(&created.api_key))
            .unwrap()
            .unwrap();
        assert_eq!(account.email, "ada@example.com");
        assert_eq!(account.plan, "business");
        assert!(block(store.account_for_key("pl_wrong")).unwrap().is_none());
    }

    #[test]
    fn a_new_user_has_no_name_until_they_choose_one() {
        let store = SqlAccountStore::for_tests().unwrap();
        let created = block(store.create_api_key("jdoe42@example.com", "free")).unwrap();
        assert_eq!(created.account.display_name, None);
        block(store.set_display_name(&created.account.user_id, Some("Jane Doe"))).unwrap();
        let account = block(store.account_for_key(&created.api_key))
            .unwrap()
            .unwrap();
        assert_eq!(account.display_name.as_deref(), Some("Jane Doe"));
        let members = block(store.team_users(&account.team_id)).unwrap();
        assert_eq!(members[0].display_name.as_deref(), Some("Jane Doe"));
        block(store.set_display_name(&account.user_id, None)).unwrap();
        let account = block(store.account_for_key(&created.api_key))
            .unwrap()
            .unwrap();
        assert_eq!(account.display_name, None);
    }

    #[test]
    fn names_made_from_the_email_are_cleared_and_chosen_ones_kept_by_the_migration() {
        let store = SqlAccountStore::for_tests().unwrap();
        let db = store.database().clone();
        let made = block(store.create_api_key("jdoe42@example.com", "free")).unwrap();
        let chosen = block(store.create_api_key("ada@example.com", "free")).unwrap();
        let cased = block(store.create_api_key("bo@example.com", "free")).unwrap();
        let pattern = block(store.create_api_key("axb@example.com", "free")).unwrap();
        // What accounts were created with before: the local part.
        block(store.set_display_name(&made.account.user_id, Some("jdoe42"))).unwrap();
        // Names a person chose, however close to the address: kept on both engines
        // (no case folding, no LIKE wildcards).
        block(store.set_display_name(&chosen.account.user_id, Some("Ada Quinn"))).unwrap();
        block(store.set_display_name(&cased.account.user_id, Some("Bo"))).unwrap();
        block(store.set_display_name(&pattern.account.user_id, Some("a_b"))).unwrap();
        db.wait(
            sqlx::query(include_str!(
                "../../../store/migrations/0004_chosen_names.sql"
            ))
            .execute(db.writer()),
        )
        .unwrap();
        let name = |key: &str| {
            block(store.account_for_key(key))
                .unwrap()
                .unwrap()
                .display_name
        };
        assert_eq!(name(&made.api_key), None);
        assert_eq!(name(&chosen.api_key).as_deref(), Some("Ada Quinn"));
        assert_eq!(name(&cased.api_key).as_deref(), Some("Bo"));
        assert_eq!(name(&pattern.api_key).as_deref(), Some("a_b"));
    }

    #[test]
    fn a_chosen_name_holds_no_control_characters() {
        assert_eq!(
            chosen_display_name(Some("Ada Quinn".into()))
                .unwrap()
                .as_deref(),
            Some("Ada Quinn")
        );
        assert_eq!(chosen_display_name(None).unwrap(), None);
        let refused = chosen_display_name(Some("Ada\u{0}Quinn".into())).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "displayName must not contain control characters"
        );
    }

    #[test]
    fn a_second_key_for_the_same_email_reuses_user_and_team_and_updates_the_plan() {
        let store = SqlAccountStore::for_tests().unwrap();
        let first = block(store.create_api_key("a@b.co", "free")).unwrap();
        let second = block(store.create_api_key("a@b.co", "agency")).unwrap();
        assert_eq!(first.account.user_id, second.account.user_id);
        assert_eq!(first.account.team_id, second.account.team_id);
        let account = block(store.account_for_key(&first.api_key))
            .unwrap()
            .unwrap();
        assert_eq!(account.plan, "agency");
        assert_eq!(
            block(store.team_users(&first.account.team_id))
                .unwrap()
                .len(),
            1
        );
    }

    /// Reservations of a window of 10: what is written plus what live reservations
    /// hold never passes the limit; places follow one another; a reservation not
    /// renewed expires, freeing what it held and losing its calls not written.
    #[test]
    fn reservations_hold_within_the_limit_and_expire_when_not_renewed() {
        let store = SqlAccountStore::for_tests().unwrap();
        let subject = UsageSubject::User {
            user_id: "u".into(),
            team_id: "t".into(),
        };
        let counter = UsageCounter::Search;
        let reserve = |node: &str, want: u64, fresh: bool, now_ms: i64, today: NaiveDate| {
            block(store.reserve_usage(&quota::LeaseRequest {
                node,
                pool: &subject.pool(),
                counter,
                window: UsageWindow::Month,
                today,
                limit: 10,
                want,
                fresh,
                now_ms,
                expires_at_ms: now_ms + 10_000,
            }))
            .unwrap()
        };
        let settle = |node: &str, days: Vec<(NaiveDate, u64)>, end: bool, now_ms: i64| {
            block(
                store.settle_usage(
                    node,
                    &[quota::Settlement {
                        pool: subject.pool(),
                        counter,
                        first_day: day(2025, 3, 1),
                        days: days
                            .into_iter()
                            .map(|(day, amount)| quota::Pending {
                                subject: subject.clone(),
                                day,
                                amount,
                            })
                            .collect(),
                        give_back: 0,
                        end,
                    }],
                    now_ms,
                    now_ms + 10_000,
                ),
            )
            .unwrap()
        };
        let used = |window: UsageWindow, today: NaiveDate| {
            block(store.used(&subject, counter, window, today)).unwrap()
        };
        let march = day(2025, 3, 2);
        // Half of what is left at most: 4 of 10 for a, 3 of the 6 left for b.
        let a = reserve("a", 4, true, 1_000, march);
        assert_eq!((a.granted, a.first, a.taken), (4, 1, 4));
        let b = reserve("b", 4, true, 1_000, march);
        assert_eq!((b.granted, b.first, b.taken), (3, 5, 7));
        // a writes 3 calls (on two days); its reservation keeps the one it has left.
        assert_eq!(
            settle(
                "a",
                vec![(day(2025, 3, 2), 2), (day(2025, 3, 9), 1)],
                false,
                2_000
            ),
            [true]
        );
        assert_eq!(used(UsageWindow::Month, march), 3);
        assert_eq!(used(UsageWindow::Day, march), 2);
        // 3 written + 1 held by a + 3 by b: 3 left, a gets 1, then 1, then the last.
        let grants: Vec<(u64, u64)> = (0..4)
            .map(|_| reserve("a", 8, false, 2_000, march))
            .map(|granted| (granted.granted, granted.first))
            .collect();
        assert_eq!(grants, [(1, 8), (1, 9), (1, 10), (0, 11)]);
        // Past a's renewal (12 s) and b's reservation (11 s): both expire, what they
        // held is free, and a's calls not written are lost.
        let c = reserve("c", 4, true, 13_000, march);
        assert_eq!((c.granted, c.first), (3, 4), "7 left after the 3 written");
        assert_eq!(settle("a", vec![(march, 5)], false, 13_000), [false]);
        assert_eq!(used(UsageWindow::Month, march), 3);
        // Starting afresh drops what the node itself held: c holds 3 again, not 6.
        let again = reserve("c", 2, true, 13_000, march);
        assert_eq!((again.granted, again.first), (2, 4));
        // c writes 2 and ends its reservation; the next month starts from nothing.
        assert_eq!(settle("c", vec![(march, 2)], true, 14_000), [true]);
        assert_eq!(used(UsageWindow::Month, march), 5);
        let april = reserve("c", 4, true, 14_000, day(2025, 4, 1));
        assert_eq!((april.granted, april.first), (4, 1));
        let rows = block(store.team_usage("t", day(2025, 3, 1), day(2025, 3, 31))).unwrap();
        assert_eq!(rows.iter().map(|row| row.count).sum::<u64>(), 5);
        assert!(rows.iter().all(|row| row.user_id == "u"));
    }

    #[test]
    fn team_podcast_flags_update_in_place() {
        let store = SqlAccountStore::for_tests().unwrap();
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
        block(store.upsert_team_podcast(&row)).unwrap();
        // Read once, so the team's list is cached; every write must be seen after it.
        assert!(!block(store.team_podcasts("t")).unwrap()[0].blacklist);
        row.blacklist = true;
        let saved = block(store.upsert_team_podcast(&row)).unwrap();
        assert!(saved.blacklist);
        let listed = block(store.team_podcasts("t")).unwrap();
        assert_eq!(listed.len(), 1);
        assert!(listed[0].blacklist);
        assert!(block(store.team_podcasts("other")).unwrap().is_empty());
        assert_eq!(
            block(store.remove_team_podcasts("t", &["p".into()])).unwrap(),
            1
        );
        assert!(block(store.team_podcasts("t")).unwrap().is_empty());
    }
}
