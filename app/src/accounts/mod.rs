//! Accounts: users, teams, API keys, usage counters and search history, behind the
//! [`AccountStore`] trait, kept in the application store (SQLite or PostgreSQL).

pub mod blacklists;
pub mod history;
pub mod keys;
pub mod known_keys;
pub mod links;
pub mod members;
pub mod meter;
pub mod metering;
pub mod quota;
pub mod remembered;
pub mod sessions;
mod sql_store;
pub mod usage;
pub mod usage_reports;

pub use keys::{generate_api_key, hash_api_key};
pub use quota::{CappedCall, Consumption};
pub use sql_store::SqlAccountStore;
pub use sql_store::normalized_email;
pub(crate) use sql_store::user_for_email;
pub use usage::{UsageCounter, UsageWindow};

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use crate::error::{AppError, AppResult};

/// The caller behind a valid API key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub user_id: String,
    pub email: String,
    pub display_name: Option<String>,
    pub team_id: String,
    /// The team's plan name (`free`, `individual`, `business`, `agency`, `admin`).
    pub plan: String,
}

impl Account {
    /// The name others see for this user: the one they chose, else their email address.
    pub fn shown_name(&self) -> String {
        self.chosen_name()
            .map_or_else(|| self.email.clone(), str::to_owned)
    }

    /// The name the user chose, if any (never blank).
    pub fn chosen_name(&self) -> Option<&str> {
        self.display_name
            .as_deref()
            .map(str::trim)
            .filter(|name| !name.is_empty())
    }
}

/// What `keys create` returns: the account and the key, shown once.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub account: Account,
    pub api_key: String,
    pub created_at: DateTime<Utc>,
}

impl NewApiKey {
    /// The key's public id: the first 16 hex digits of its stored hash.
    pub fn key_id(&self) -> String {
        keys::key_id_of(&keys::hash_api_key(&self.api_key))
    }
}

/// One stored key as its team sees it: never the key itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiKeyRow {
    pub key_id: String,
    pub prefix: String,
    pub created_at: DateTime<Utc>,
    pub created_by: String,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// Whose usage a counter belongs to: a signed-in user, or a signed-out client address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UsageSubject {
    User { user_id: String, team_id: String },
    Client { address: String },
}

/// Whose usage a plan's cap counts: a member's calls count against their team's
/// (plans and their limits are the team's, and the SDK's `teams/usage/*` report the
/// team's sum), a signed-out client's against its address. Each member's own calls are
/// still written on their own rows (`teams/usage/members`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UsagePool {
    Team(String),
    Client(String),
}

impl UsageSubject {
    /// The pool this subject's capped calls are charged to.
    pub fn pool(&self) -> UsagePool {
        match self {
            UsageSubject::User { team_id, .. } => UsagePool::Team(team_id.clone()),
            UsageSubject::Client { address } => UsagePool::Client(address.clone()),
        }
    }
}

/// One day of one counter of one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageRow {
    pub day: NaiveDate,
    pub user_id: String,
    pub counter: String,
    pub count: u64,
}

/// A member of a team as the team endpoints show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamUser {
    pub id: String,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub avatar_seed: Option<String>,
    pub display_name: Option<String>,
    pub role: String,
    pub joined_at: DateTime<Utc>,
}

/// A search as remembered for exports and history.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchRecord {
    pub search_id: String,
    pub subject: UsageSubject,
    pub search_mode: String,
    pub options_json: String,
    pub result_count: u64,
    pub searched_at: DateTime<Utc>,
}

/// A podcast saved by a team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPodcastRow {
    pub team_id: String,
    pub podcast_id: String,
    pub added_by_user_id: Option<String>,
    pub added_reason: String,
    pub blacklist: bool,
    pub sync: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A user of team `t1`: the usage tests' subject.
#[cfg(test)]
pub(crate) fn test_user(id: &str) -> UsageSubject {
    UsageSubject::User {
        user_id: id.into(),
        team_id: "t1".into(),
    }
}

/// Runs `flush` on a blocking thread every `interval` until the runtime stops, with a
/// warning naming `what` when it fails (what it could not write stays queued for the
/// next run).
pub(crate) fn spawn_periodic_flush<T, F, Flush>(
    what: &'static str,
    interval: std::time::Duration,
    flush: F,
) where
    F: Fn() -> Flush + Send + 'static,
    Flush: std::future::Future<Output = AppResult<T>> + Send + 'static,
    T: Send + 'static,
{
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            // A task of its own: a panic in one flush is logged, and the next goes on.
            match tokio::spawn(flush()).await {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => tracing::warn!(%error, "{what} not written yet; retrying"),
                Err(error) => tracing::warn!(%error, "{what}: flush failed"),
            }
        }
    });
}

/// The account behind a row of `user_id, email, display_name, team_id, plan`.
pub(crate) fn account_from_row(row: &sqlx::any::AnyRow) -> AppResult<Account> {
    use sqlx::Row;
    Ok(Account {
        user_id: row.try_get(0)?,
        email: row.try_get(1)?,
        display_name: row.try_get(2)?,
        team_id: row.try_get(3)?,
        plan: row.try_get(4)?,
    })
}

/// Storage of accounts and usage, awaited (the store's queries run on its pool with no
/// thread hop: see `podlens_store::Database::run`).
#[async_trait::async_trait]
pub trait AccountStore: Send + Sync + 'static {
    /// Creates the user (and a team named after them) when missing, sets the team's
    /// plan, and returns a new API key for the user.
    async fn create_api_key(&self, email: &str, plan: &str) -> AppResult<NewApiKey>;

    /// The account owning a live key, if any.
    async fn account_for_key(&self, api_key: &str) -> AppResult<Option<Account>>;

    /// A new API key for a signed-in user of their team (the plan is left as it is).
    async fn create_team_key(&self, account: &Account) -> AppResult<NewApiKey>;

    /// The keys of a team, revoked ones included, newest first.
    async fn team_keys(&self, team_id: &str) -> AppResult<Vec<ApiKeyRow>>;

    /// Revokes the key `key_id` of the team (`None`: revoke it whatever its team, for
    /// operators). Returns the revocation time, or `None` when no such live or revoked
    /// key exists there; revoking twice keeps the first time.
    async fn revoke_key(
        &self,
        team_id: Option<&str>,
        key_id: &str,
    ) -> AppResult<Option<DateTime<Utc>>>;

    /// The account of `email`, created with the free plan (and a team of its own) when
    /// new: what validating a sign-up link does.
    async fn sign_up(&self, email: &str) -> AppResult<Account>;

    /// Sets (or, with `None`, clears) the name the user chose: the one their outreach
    /// emails are signed with and their team sees.
    async fn set_display_name(&self, user_id: &str, name: Option<&str>) -> AppResult<()>;

    /// Reserves for node `request.node` up to `request.want` uses of a capped counter's
    /// window, as many as the limit leaves beside what is written and what live
    /// reservations hold (near the limit, half of what is left), and renews the node's
    /// reservation until `request.expires_at_ms`. Reservations that expired are
    /// dropped first.
    async fn reserve_usage(
        &self,
        request: &quota::LeaseRequest<'_>,
    ) -> AppResult<quota::Reservation>;

    /// Writes the uses counted against this node's reservations and settles them, in
    /// one transaction: each reservation still live gives up what is written and what
    /// is given back and is renewed until `expires_at_ms` (or ends). The uses of a
    /// reservation that expired are not written. Returns, for each settlement, whether
    /// its uses were written.
    async fn settle_usage(
        &self,
        node: &str,
        settlements: &[quota::Settlement],
        now_ms: i64,
        expires_at_ms: i64,
    ) -> AppResult<Vec<bool>>;

    /// Adds counted uses, `(subject, counter, day, amount)` with one row per key, in
    /// one transaction and without a limit (the usage meter's batches).
    async fn add_usage(
        &self,
        counts: &[(UsageSubject, UsageCounter, NaiveDate, u64)],
    ) -> AppResult<()>;

    /// The usage of `counter` for `subject` in the window containing `today`.
    async fn used(
        &self,
        subject: &UsageSubject,
        counter: UsageCounter,
        window: UsageWindow,
        today: NaiveDate,
    ) -> AppResult<u64>;

    /// Every usage row of a team's members between two days, inclusive.
    async fn team_usage(
        &self,
        team_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Vec<UsageRow>>;

    /// The members of a team.
    async fn team_users(&self, team_id: &str) -> AppResult<Vec<TeamUser>>;

    /// Remembers searches, all or none.
    async fn record_searches(&self, searches: &[SearchRecord]) -> AppResult<()>;

    /// The team's saved podcasts.
    async fn team_podcasts(&self, team_id: &str) -> AppResult<Vec<TeamPodcastRow>>;

    /// Saves (or updates the flags of) a podcast for a team.
    async fn upsert_team_podcast(&self, row: &TeamPodcastRow) -> AppResult<TeamPodcastRow>;

    /// Removes podcasts from a team; returns how many were removed.
    async fn remove_team_podcasts(&self, team_id: &str, podcast_ids: &[String]) -> AppResult<u64>;
}

/// The longest display name a user may choose.
pub const MAX_DISPLAY_NAME_CHARS: usize = 80;

/// A display name a user chose (already trimmed, blank as `None`, at most
/// [`MAX_DISPLAY_NAME_CHARS`]): refused when it holds control characters.
pub fn chosen_display_name(name: Option<String>) -> AppResult<Option<String>> {
    if name
        .as_deref()
        .is_some_and(|name| name.chars().any(char::is_control))
    {
        return Err(AppError::Invalid(
            "displayName must not contain control characters".into(),
        ));
    }
    Ok(name)
}
