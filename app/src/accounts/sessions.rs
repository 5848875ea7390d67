//! Email sign-in and sign-up by magic link, and browser sessions.
//!
//! A link carries a random 256-bit token; only its SHA-256 is stored, it can be
//! redeemed once, and it expires after [`LINK_LIFETIME_MINUTES`]. Redeeming it opens a
//! session whose token (also stored hashed) travels in an HttpOnly, SameSite cookie.
//! Links are rate-limited per email address and per client address.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use podlens_store::{Database, count, time_text};
use sqlx::Row;

use super::Account;
use super::keys::{hash_api_key, random_token};
use crate::error::{AppError, AppResult, LimitExceeded};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "podlens_session";
/// How long a sign-in or sign-up link stays valid.
pub const LINK_LIFETIME_MINUTES: i64 = 30;
/// How long a session lasts without signing in again.
pub const SESSION_LIFETIME_DAYS: i64 = 30;
/// Links one email address may be sent per hour.
pub const LINKS_PER_EMAIL_PER_HOUR: u64 = 5;
/// Links one client address may ask for per hour.
pub const LINKS_PER_ADDRESS_PER_HOUR: u64 = 20;
/// The message for a link that is unknown, used or expired.
pub const BAD_LINK_MESSAGE: &str =
    "This link is invalid, has expired or was already used. Request a new one.";

/// What a link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `/sign-in/email-link?key=`: signs an existing user in.
    SignIn,
    /// `/sign-up/validate?key=`: validates the address and creates the account.
    SignUp,
}

impl LinkKind {
    fn as_str(self) -> &'static str {
        match self {
            LinkKind::SignIn => "sign-in",
            LinkKind::SignUp => "sign-up",
        }
    }

    /// The web app's page that redeems this kind of link.
    pub fn page(self) -> &'static str {
        match self {
            LinkKind::SignIn => "/sign-in/email-link",
            LinkKind::SignUp => "/sign-up/validate",
        }
    }
}

/// Links and sessions, in the application store.
pub struct SessionStore {
    db: Arc<Database>,
}

impl std::fmt::Debug for SessionStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("SessionStore")
    }
}

fn rate_limited(limit: u64, used: u64, what: &str) -> AppError {
    AppError::CapReached(LimitExceeded {
        message: format!("Too many sign-in links requested for this {what}. Try again in an hour."),
        limit,
        used,
        reset_after_seconds: 3600,
    })
}

impl SessionStore {
    pub fn open(db: Arc<Database>) -> SessionStore {
        SessionStore { db }
    }

    /// Whether a user with this (normalised) email exists.
    pub async fn user_exists(&self, email: &str) -> AppResult<bool> {
        let found = self
            .db
            .run(
                sqlx::query("SELECT user_id FROM users WHERE email = $1")
                    .bind(email)
                    .fetch_optional(self.db.pool()),
            )
            .await?;
        Ok(found.is_some())
    }

    /// Records a new link for `email` and returns its token (the only copy), unless the
    /// email or the client address has asked for too many links in the last hour. The
    /// counts and the insert share one write transaction, so concurrent requests (on
    /// any node) cannot pass the limit together.
    pub async fn issue_link(
        &self,
        email: &str,
        kind: LinkKind,
        client_address: &str,
        now: DateTime<Utc>,
    ) -> AppResult<String> {
        let hour_ago = time_text(now - Duration::hours(1));
        let token = random_token();
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                self.db.lock(&mut transaction, "login_links").await?;
                let by_email = count(
                    sqlx::query(
                        "SELECT COUNT(*) FROM login_links WHERE email = $1 AND created_at > $2",
                    )
                    .bind(email)
                    .bind(&hour_ago),
                    &mut *transaction,
                )
                .await?;
                if by_email >= LINKS_PER_EMAIL_PER_HOUR {
                    return Err(rate_limited(
                        LINKS_PER_EMAIL_PER_HOUR,
                        by_email,
                        "email address",
                    ));
                }
                let by_address = count(sqlx::query(
                "SELECT COUNT(*) FROM login_links WHERE client_address = $1 AND created_at > $2",
            ).bind(client_address).bind(&hour_ago), &mut *transaction).await?;
                if by_address >= LINKS_PER_ADDRESS_PER_HOUR {
                    return Err(rate_limited(
                        LINKS_PER_ADDRESS_PER_HOUR,
                        by_address,
                        "network address",
                    ));
                }
                sqlx::query(
                    "INSERT INTO login_links
                 (token_hash, email, kind, client_address, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(hash_api_key(&token))
                .bind(email)
                .bind(kind.as_str())
                .bind(client_address)
                .bind(time_text(now))
                .bind(time_text(now + Duration::minutes(LINK_LIFETIME_MINUTES)))
                .execute(&mut *transaction)
                .await?;
                transaction.commit().await?;
                Ok(())
            })
            .await?;
        Ok(token)
    }

    /// Uses up a link: the email it was sent to, or the bad-link error when the token is
    /// unknown, of another kind, expired or already used.
    pub async fn redeem_link(
        &self,
        token: &str,
        kind: LinkKind,
        now: DateTime<Utc>,
    ) -> AppResult<String> {
        let now = time_text(now);
        let row = self
            .db
            .run(
                sqlx::query(
                    "UPDATE login_links SET used_at = $1
                 WHERE token_hash = $2 AND kind = $3 AND used_at IS NULL AND expires_at > $1
                 RETURNING email",
                )
                .bind(&now)
                .bind(hash_api_key(token.trim()))
                .bind(kind.as_str())
                .fetch_optional(self.db.writer()),
            )
            .await?;
        match row {
            Some(row) => Ok(row.try_get("email")?),
            None => Err(AppError::Invalid(BAD_LINK_MESSAGE.to_owned())),
        }
    }

    /// Opens a session for `user_id`; returns its token (the cookie value).
    pub async fn open_session(&self, user_id: &str, now: DateTime<Utc>) -> AppResult<String> {
        let token = random_token();
        self.db
            .run(
                sqlx::query(
                    "INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
                 VALUES ($1, $2, $3, $4)",
                )
                .bind(hash_api_key(&token))
                .bind(user_id)
                .bind(time_text(now))
                .bind(time_text(now + Duration::days(SESSION_LIFETIME_DAYS)))
                .execute(self.db.writer()),
            )
            .await?;
        Ok(token)
    }

    /// The account of a live session.
    pub async fn session_account(
        &self,
        token: &str,
        now: DateTime<Utc>,
    ) -> AppResult<Option<Account>> {
        let row = self
            .db
            .run(
                sqlx::query(
                    "SELECT u.user_id, u.email, u.display_name, t.team_id, t.plan
                 FROM sessions s
                 JOIN users u ON u.user_id = s.user_id
                 JOIN team_members m ON m.user_id = u.user_id
                 JOIN teams t ON t.team_id = m.team_id
                 WHERE s.token_hash = $1 AND s.expires_at > $2
                 ORDER BY m.joined_at
                 LIMIT 1",
                )
                .bind(hash_api_key(token))
                .bind(time_text(now))
                .fetch_optional(self.db.pool()),
            )
            .await?;
        row.map(|row| super::account_from_row(&row)).transpose()
    }

    /// Ends a session (signing out); unknown tokens are ignored.
    pub async fn close_session(&self, token: &str) -> AppResult<()> {
        self.db
            .run(
                sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                    .bind(hash_api_key(token))
                    .execute(self.db.writer()),
            )
            .await?;
        Ok(())
    }
}

/// The session token in a `Cookie` header, if any.
pub fn session_from_cookies(header: &str) -> Option<&str> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        (name.trim() == SESSION_COOKIE && !value.trim().is_empty()).then(|| value.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::block_on_own_thread as block;

    fn store() -> SessionStore {
        let db = Arc::new(Database::for_tests().expect("test store"));
        db.wait(
            sqlx::raw_sql(
                "INSERT INTO users (user_id, email, display_name, created_at)
                 VALUES ('u1', 'ann@example.com', 'ann', '2026-01-01T00:00:00.000000Z');
                 INSERT INTO team_members VALUES ('t1', 'u1', 'owner', '2026-01-01T00:00:00.000000Z');
                 INSERT INTO teams VALUES ('t1', 't1', 'free', '2026-01-01T00:00:00.000000Z');",
            )
            .execute(db.writer()),
        )
        .expect("fixture rows");
        SessionStore::open(db)
    }

    #[test]
    fn a_link_is_redeemed_once_and_only_for_its_kind() {
        let store = store();
        let now = Utc::now();
        let token = block(store.issue_link("ann@example.com", LinkKind::SignIn, "10.0.0.1", now))
            .expect("issued");
        assert_eq!(token.len(), 64);
        let wrong_kind = block(store.redeem_link(&token, LinkKind::SignUp, now));
        assert!(
            matches!(wrong_kind, Err(AppError::Invalid(message)) if message == BAD_LINK_MESSAGE)
        );
        assert_eq!(
            block(store.redeem_link(&token, LinkKind::SignIn, now)).expect("redeemed"),
            "ann@example.com"
        );
        assert!(block(store.redeem_link(&token, LinkKind::SignIn, now)).is_err());
    }

    #[test]
    fn a_link_expires() {
        let store = store();
        let now = Utc::now();
        let token = block(store.issue_link("ann@example.com", LinkKind::SignIn, "10.0.0.1", now))
            .expect("issued");
        let later = now + Duration::minutes(LINK_LIFETIME_MINUTES) + Duration::seconds(1);
        assert!(block(store.redeem_link(&token, LinkKind::SignIn, later)).is_err());
    }

    #[test]
    fn links_are_rate_limited_per_email_and_per_address() {
        let store = store();
        let now = Utc::now();
        for n in 0..LINKS_PER_EMAIL_PER_HOUR {
            block(store.issue_link(
                "ann@example.com",
                LinkKind::SignIn,
                &format!("10.0.0.{n}"),
                now,
            ))
            .expect("within the email limit");
        }
        let refused = block(store.issue_link("ann@example.com", LinkKind::SignIn, "10.0.1.1", now));
        assert!(matches!(refused, Err(AppError::CapReached(_))));
        // An hour later the email may ask again.
        let later = now + Duration::minutes(61);
        assert!(
            block(store.issue_link("ann@example.com", LinkKind::SignIn, "10.0.1.1", later)).is_ok()
        );

        for n in 0..LINKS_PER_ADDRESS_PER_HOUR {
            block(store.issue_link(
                &format!("user{n}@example.com"),
                LinkKind::SignUp,
                "192.0.2.9",
                now,
            ))
            .expect("within the address limit");
        }
        let refused =
            block(store.issue_link("other@example.com", LinkKind::SignUp, "192.0.2.9", now));
        assert!(matches!(refused, Err(AppError::CapReached(_))));
    }

    #[test]
    fn sessions_resolve_to_the_account_until_closed_or_expired() {
        let store = store();
        let now = Utc::now();
        let first = block(store.open_session("u1", now)).expect("session");
        let second = block(store.open_session("u1", now)).expect("session");
        assert_ne!(first, second, "every sign-in gets a new session token");
        let account = block(store.session_account(&first, now))
            .expect("query")
            .expect("live");
        assert_eq!(
            (account.email.as_str(), account.plan.as_str()),
            ("ann@example.com", "free")
        );
        let expired = now + Duration::days(SESSION_LIFETIME_DAYS) + Duration::seconds(1);
        assert!(
            block(store.session_account(&first, expired))
                .expect("query")
                .is_none()
        );
        block(store.close_session(&first)).expect("closed");
        assert!(
            block(store.session_account(&first, now))
                .expect("query")
                .is_none()
        );
        assert!(
            block(store.session_account(&second, now))
                .expect("query")
                .is_some()
        );
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        assert_eq!(
            session_from_cookies("a=1; podlens_session=abc; b=2"),
            Some("abc")
        );
        assert_eq!(session_from_cookies("podlens_session="), None);
        assert_eq!(session_from_cookies("other=abc"), None);
    }
}
