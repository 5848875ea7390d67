//! Team members: roles, invitations by mailed link, role changes and removal.
//!
//! A team has one owner (its creator), and admins and members. Only the owner and
//! admins manage members. An invitation carries a random 256-bit token of which only the
//! SHA-256 is stored; it is redeemed once, within [`INVITATION_LIFETIME_DAYS`]. A user
//! belongs to one team at a time: joining a team takes them out of their previous one
//! (their keys bound to it are revoked). A removed member's keys for the team are revoked
//! and their sessions closed; keys and sessions only ever act for a team the user is a
//! member of (`account_for_key` and `session_account` join the membership).

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use podlens_model::Plan;
use podlens_store::{Database, count, time_at, time_text};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};
use uuid::Uuid;

use super::keys::{hash_api_key, random_token};
use super::known_keys::KnownKeys;
use super::{Account, user_for_email};
use crate::error::{AppError, AppResult, LimitExceeded};

/// How long an invitation link stays valid.
pub const INVITATION_LIFETIME_DAYS: i64 = 7;
/// Invitations one team may send per hour (each one is a mail).
pub const INVITATIONS_PER_TEAM_PER_HOUR: u64 = 30;
/// The message for an invitation link that is unknown, used, revoked or expired.
pub const BAD_INVITATION_MESSAGE: &str = "The invitation link is invalid, used or expired";
/// The refusal for a caller who is a plain member.
pub const NOT_A_MANAGER_MESSAGE: &str = "Only the team's owner and admins can manage its members.";

/// A member's role in their team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Owner,
    Admin,
    Member,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Member => "member",
        }
    }

    /// A stored role.
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "owner" => Some(Role::Owner),
            "admin" => Some(Role::Admin),
            "member" => Some(Role::Member),
            _ => None,
        }
    }

    /// A role an invitation or a role change may give (never owner), or a clear error.
    pub fn assignable(text: &str) -> AppResult<Role> {
        match text.trim() {
            "admin" => Ok(Role::Admin),
            "member" => Ok(Role::Member),
            other => Err(AppError::Invalid(format!(
                "role must be admin or member, got {other:?}"
            ))),
        }
    }

    /// Whether this role may invite, change roles and remove members.
    pub fn manages_members(self) -> bool {
        matches!(self, Role::Owner | Role::Admin)
    }
}

/// A pending invitation as the team sees it (never its token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub id: String,
    pub email: String,
    pub role: String,
    pub invited_by_user_id: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// The refusal when `plan` has no team members (§6: business, agency and admin do).
pub fn no_members_message(plan: Plan) -> String {
    format!(
        "Your {} plan does not include team members; business, agency and admin plans do.",
        plan.as_str()
    )
}

/// Members, roles and invitations, in the application store.
pub struct MemberStore {
    db: Arc<Database>,
    /// The keys' accounts remembered by this node, forgotten by the changes made here.
    known_keys: Arc<KnownKeys>,
}

impl std::fmt::Debug for MemberStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("MemberStore")
    }
}

async fn role_in(
    connection: &mut AnyConnection,
    team_id: &str,
    user_id: &str,
) -> AppResult<Option<Role>> {
    let row = sqlx::query("SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2")
        .bind(team_id)
        .bind(user_id)
        .fetch_optional(connection)
        .await?;
    let role: Option<String> = row.map(|row| row.try_get(0)).transpose()?;
    Ok(role.as_deref().and_then(Role::parse))
}

/// Whether `plan` leaves room for one more member beside the owner in a team that has
/// `others` members who are not its owner.
fn room_for_another(plan: Plan, others: u64) -> bool {
    plan.team_member_limit()
        .is_none_or(|limit| others < u64::from(limit))
}

/// Revokes the live keys of `user_id` bound to `team_id`.
async fn revoke_keys(
    connection: &mut AnyConnection,
    team_id: &str,
    user_id: &str,
    now: &str,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE api_keys SET revoked_at = $1
         WHERE team_id = $2 AND user_id = $3 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(team_id)
    .bind(user_id)
    .execute(connection)
    .await?;
    Ok(())
}

fn invitation_from_row(row: &AnyRow) -> AppResult<Invitation> {
    Ok(Invitation {
        id: row.try_get("invitation_id")?,
        email: row.try_get("email")?,
        role: row.try_get("role")?,
        invited_by_user_id: row.try_get("invited_by_user_id")?,
        created_at: time_at(row, "created_at")?,
        expires_at: time_at(row, "expires_at")?,
    })
}

impl MemberStore {
    pub fn open(db: Arc<Database>) -> MemberStore {
        MemberStore {
            db,
            known_keys: Arc::default(),
        }
    }

    /// The store forgetting `known_keys` when it moves or removes a member (whose
    /// keys it revokes): the keys' accounts the node's account store remembers.
    pub fn forgetting(self, known_keys: Arc<KnownKeys>) -> MemberStore {
        MemberStore { known_keys, ..self }
    }

    /// The role of `user_id` in `team_id`, if a member.
    pub async fn role(&self, team_id: &str, user_id: &str) -> AppResult<Option<Role>> {
        self.db
            .run(async {
                let mut connection = self.db.pool().acquire().await?;
                role_in(&mut connection, team_id, user_id).await
            })
            .await
    }

    /// The caller's role when it manages members; the refusal otherwise.
    pub async fn require_manager(&self, account: &Account) -> AppResult<Role> {
        match self.role(&account.team_id, &account.user_id).await? {
            Some(role) if role.manages_members() => Ok(role),
            _ => Err(AppError::Forbidden(NOT_A_MANAGER_MESSAGE.to_owned())),
        }
    }

    /// The team's pending invitations (not used, revoked or expired), newest first.
    pub async fn invitations(
        &self,
        team_id: &str,
        now: DateTime<Utc>,
    ) -> AppResult<Vec<Invitation>> {
        let rows = self
            .db
            .run(
                sqlx::query(
                    "SELECT invitation_id, email, role, invited_by_user_id, created_at, expires_at
                 FROM team_invitations
                 WHERE team_id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
                 ORDER BY created_at DESC, invitation_id",
                )
                .bind(team_id)
                .bind(time_text(now))
                .fetch_all(self.db.pool()),
            )
            .await?;
        rows.iter().map(invitation_from_row).collect()
    }

    /// Records an invitation of `email` (normalised) to the inviter's team and returns it
    /// with its token (the only copy). A pending invitation of the same address to the
    /// team is replaced. Refused: an address already in the team (409), a team over its
    /// hourly number of invitations (429).
    pub async fn invite(
        &self,
        inviter: &Account,
        email: &str,
        role: Role,
        now: DateTime<Utc>,
    ) -> AppResult<(Invitation, String)> {
        let token = random_token();
        let invitation = Invitation {
            id: Uuid::new_v4().to_string(),
            email: email.to_owned(),
            role: role.as_str().to_owned(),
            invited_by_user_id: inviter.user_id.clone(),
            created_at: now,
            expires_at: now + Duration::days(INVITATION_LIFETIME_DAYS),
        };
        let team_id = inviter.team_id.as_str();
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                self.db
                    .lock(&mut transaction, &format!("members:{team_id}"))
                    .await?;
                let already = count(
                    sqlx::query(
                        "SELECT COUNT(*) FROM team_members m JOIN users u ON u.user_id = m.user_id
                 WHERE m.team_id = $1 AND u.email = $2",
                    )
                    .bind(team_id)
                    .bind(email),
                    &mut *transaction,
                )
                .await?;
                if already > 0 {
                    return Err(AppError::Conflict(format!(
                        "{email} is already a member of the team."
                    )));
                }
                let sent = count(
                sqlx::query(
                    "SELECT COUNT(*) FROM team_invitations WHERE team_id = $1 AND created_at > $2",
                )
                .bind(team_id)
                .bind(time_text(now - Duration::hours(1))),
                &mut *transaction,
            )
            .await?;
                if sent >= INVITATIONS_PER_TEAM_PER_HOUR {
                    return Err(AppError::CapReached(LimitExceeded {
                        message: "Too many invitations sent by this team. Try again in an hour."
                            .to_owned(),
                        limit: INVITATIONS_PER_TEAM_PER_HOUR,
                        used: sent,
                        reset_after_seconds: 3600,
                    }));
                }
                sqlx::query(
                    "UPDATE team_invitations SET revoked_at = $1
                 WHERE team_id = $2 AND email = $3 AND used_at IS NULL AND revoked_at IS NULL",
                )
                .bind(time_text(now))
                .bind(team_id)
                .bind(email)
                .execute(&mut *transaction)
                .await?;
                sqlx::query(
                    "INSERT INTO team_invitations (invitation_id, team_id, email, role, token_hash,
                     invited_by_user_id, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(&invitation.id)
                .bind(team_id)
                .bind(&invitation.email)
                .bind(&invitation.role)
                .bind(hash_api_key(&token))
                .bind(&invitation.invited_by_user_id)
                .bind(time_text(invitation.created_at))
                .bind(time_text(invitation.expires_at))
                .execute(&mut *transaction)
                .await?;
                transaction.commit().await?;
                Ok(())
            })
            .await?;
        Ok((invitation, token))
    }

    /// Revokes a pending invitation of the team; false when the team has no such one.
    pub async fn revoke_invitation(
        &self,
        team_id: &str,
        invitation_id: &str,
        now: DateTime<Utc>,
    ) -> AppResult<bool> {
        let changed = self
            .db
            .run(
                sqlx::query(
                    "UPDATE team_invitations SET revoked_at = $1
                 WHERE team_id = $2 AND invitation_id = $3 AND used_at IS NULL
                   AND revoked_at IS NULL AND expires_at > $1",
                )
                .bind(time_text(now))
                .bind(team_id)
                .bind(invitation_id)
                .execute(self.db.writer()),
            )
            .await?;
        Ok(changed.rows_affected() > 0)
    }

    /// Redeems an invitation: the invited address's user (created when new) becomes a
    /// member of the inviting team with the invited role, leaving their previous team
    /// (whose keys of theirs are revoked). Refused: an unknown, used, revoked or expired
    /// link (400); a team whose plan no longer has room (403); the owner of a team that
    /// still has other members (409). A refused link stays usable. Returns the account.
    pub async fn accept(&self, token: &str, now: DateTime<Utc>) -> AppResult<Account> {
        let now_text = time_text(now);
        self.db.run(async {
            let mut transaction = self.db.begin_write().await?;
            let invitation = sqlx::query(
                "SELECT invitation_id, team_id, email, role FROM team_invitations
                 WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL
                   AND expires_at > $2",
            )
            .bind(hash_api_key(token.trim()))
            .bind(&now_text)
            .fetch_optional(&mut *transaction)
            .await?;
            let Some(invitation) = invitation else {
                return Err(AppError::Invalid(BAD_INVITATION_MESSAGE.to_owned()));
            };
            let invitation_id: String = invitation.try_get("invitation_id")?;
            let team_id: String = invitation.try_get("team_id")?;
            let email: String = invitation.try_get("email")?;
            let role: String = invitation.try_get("role")?;
            self.db
                .lock(&mut transaction, &format!("members:{team_id}"))
                .await?;
            let plan_name: String = sqlx::query("SELECT plan FROM teams WHERE team_id = $1")
                .bind(&team_id)
                .fetch_optional(&mut *transaction)
                .await?
                .ok_or_else(|| AppError::Invalid(BAD_INVITATION_MESSAGE.to_owned()))?
                .try_get(0)?;
            let plan = crate::plan::plan_of(&plan_name)?;

            // Created inside the transaction: a refusal below leaves no user behind.
            let (user_id, display_name) = user_for_email(&mut transaction, &email, now).await?;
            let already_member = role_in(&mut transaction, &team_id, &user_id)
                .await?
                .is_some();
            if !already_member {
                let others = count(sqlx::query(
                    "SELECT COUNT(*) FROM team_members WHERE team_id = $1 AND role <> 'owner'",
                ).bind(&team_id), &mut *transaction).await?;
                if !room_for_another(plan, others) {
                    return Err(AppError::Forbidden(no_members_message(plan)));
                }
                let previous = sqlx::query("SELECT team_id, role FROM team_members WHERE user_id = $1")
                    .bind(&user_id)
                    .fetch_all(&mut *transaction)
                    .await?
                    .iter()
                    .map(|row| Ok((row.try_get::<String, _>(0)?, row.try_get::<String, _>(1)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>()?;
                for (old_team, old_role) in &previous {
                    if old_role == Role::Owner.as_str() {
                        let others = count(sqlx::query(
                            "SELECT COUNT(*) FROM team_members WHERE team_id = $1 AND user_id <> $2",
                        ).bind(old_team).bind(&user_id), &mut *transaction).await?;
                        if others > 0 {
                            return Err(AppError::Conflict(
                                "You own a team that still has other members: hand the team over or remove its members before joining another team."
                                    .to_owned(),
                            ));
                        }
                    }
                }
                for (old_team, _) in &previous {
                    sqlx::query("DELETE FROM team_members WHERE team_id = $1 AND user_id = $2")
                        .bind(old_team)
                        .bind(&user_id)
                        .execute(&mut *transaction)
                        .await?;
                    revoke_keys(&mut transaction, old_team, &user_id, &now_text).await?;
                }
                sqlx::query(
                    "INSERT INTO team_members (team_id, user_id, role, joined_at)
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(&team_id)
                .bind(&user_id)
                .bind(&role)
                .bind(&now_text)
                .execute(&mut *transaction)
                .await?;
            }
            sqlx::query("UPDATE team_invitations SET used_at = $1 WHERE invitation_id = $2")
                .bind(&now_text)
                .bind(&invitation_id)
                .execute(&mut *transaction)
                .await?;
            if already_member {
                transaction.commit().await?;
            } else {
                self.known_keys
                    .commit_change(&self.db, transaction)
                    .await?;
            }
            Ok(Account {
                user_id,
                email,
                display_name,
                team_id,
                plan: plan_name,
            })
        }).await
    }

    /// Gives a member of the team another role. Not found: no such member; forbidden:
    /// the owner's role.
    pub async fn set_role(&self, team_id: &str, user_id: &str, role: Role) -> AppResult<()> {
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                match role_in(&mut transaction, team_id, user_id).await? {
                    None => Err(AppError::NotFound(format!(
                        "User {user_id} is not a member of the team"
                    ))),
                    Some(Role::Owner) => Err(AppError::Forbidden(
                        "The owner's role cannot be changed.".to_owned(),
                    )),
                    Some(_) => {
                        sqlx::query(
                            "UPDATE team_members SET role = $1 WHERE team_id = $2 AND user_id = $3",
                        )
                        .bind(role.as_str())
                        .bind(team_id)
                        .bind(user_id)
                        .execute(&mut *transaction)
                        .await?;
                        transaction.commit().await?;
                        Ok(())
                    }
                }
            })
            .await
    }

    /// Takes a member out of the team: their keys for it are revoked and their sessions
    /// closed. Not found: no such member; forbidden: the owner.
    pub async fn remove(&self, team_id: &str, user_id: &str, now: DateTime<Utc>) -> AppResult<()> {
        self.db
            .run(async {
                let mut transaction = self.db.begin_write().await?;
                match role_in(&mut transaction, team_id, user_id).await? {
                    None => {
                        return Err(AppError::NotFound(format!(
                            "User {user_id} is not a member of the team"
                        )));
                    }
                    Some(Role::Owner) => {
                        return Err(AppError::Forbidden(
                            "The team's owner cannot be removed.".to_owned(),
                        ));
                    }
                    Some(_) => {}
                }
                sqlx::query("DELETE FROM team_members WHERE team_id = $1 AND user_id = $2")
                    .bind(team_id)
                    .bind(user_id)
                    .execute(&mut *transaction)
                    .await?;
                revoke_keys(&mut transaction, team_id, user_id, &time_text(now)).await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(user_id)
                    .execute(&mut *transaction)
                    .await?;
                self.known_keys.commit_change(&self.db, transaction).await
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_business_and_up_have_room_for_members() {
        for plan in [Plan::Public, Plan::Free, Plan::Individual] {
            assert!(!room_for_another(plan, 0), "{plan}");
        }
        for plan in [Plan::Business, Plan::Agency, Plan::Admin] {
            assert!(room_for_another(plan, 1000), "{plan}");
        }
    }

    #[test]
    fn roles_an_invitation_may_give() {
        assert_eq!(Role::assignable("admin").unwrap(), Role::Admin);
        assert_eq!(Role::assignable("member").unwrap(), Role::Member);
        assert!(Role::assignable("owner").is_err());
        assert!(Role::assignable("").is_err());
        assert!(Role::Owner.manages_members() && Role::Admin.manages_members());
        assert!(!Role::Member.manages_members());
    }

    #[test]
    fn the_refusal_names_the_plan() {
        assert_eq!(
            no_members_message(Plan::Free),
            "Your free plan does not include team members; business, agency and admin plans do."
        );
    }
}
