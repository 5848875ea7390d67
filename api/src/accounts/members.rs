//! Team members: roles, invitations by mailed link, role changes and removal.
//!
//! A team has one owner (its creator), and admins and members. Only the owner and
//! admins manage members. An invitation carries a random 256-bit token of which only the
//! SHA-256 is stored; it is redeemed once, within [`INVITATION_LIFETIME_DAYS`]. A user
//! belongs to one team at a time: joining a team takes them out of their previous one
//! (their keys bound to it are revoked). A removed member's keys for the team are revoked
//! and their sessions closed; keys and sessions only ever act for a team the user is a
//! member of (`account_for_key` and `session_account` join the membership).

use std::sync::Mutex;

use chrono::{DateTime, Duration, Utc};
use duckdb::{Connection, OptionalExt, params};
use podlens_model::Plan;
use uuid::Uuid;

use super::keys::{hash_api_key, random_token};
use super::{Account, user_for_email};
use crate::error::{ApiError, ApiResult, LimitExceeded};

/// How long an invitation link stays valid.
pub const INVITATION_LIFETIME_DAYS: i64 = 7;
/// Invitations one team may send per hour (each one is a mail).
pub const INVITATIONS_PER_TEAM_PER_HOUR: u64 = 30;
/// The message for an invitation link that is unknown, used, revoked or expired.
pub const BAD_INVITATION_MESSAGE: &str = "The invitation link is invalid, used or expired";
/// The refusal for a caller who is a plain member.
pub const NOT_A_MANAGER_MESSAGE: &str = "Only the team's owner and admins can manage its members.";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS team_invitations (
    invitation_id VARCHAR PRIMARY KEY,
    team_id VARCHAR NOT NULL,
    email VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    token_hash VARCHAR NOT NULL UNIQUE,
    invited_by_user_id VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ,
    revoked_at TIMESTAMPTZ
);
";

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
    pub fn assignable(text: &str) -> ApiResult<Role> {
        match text.trim() {
            "admin" => Ok(Role::Admin),
            "member" => Ok(Role::Member),
            other => Err(ApiError::BadRequest(format!(
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

/// Members, roles and invitations, in the app database.
pub struct MemberStore {
    connection: Mutex<Connection>,
}

impl std::fmt::Debug for MemberStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("MemberStore")
    }
}

fn db_error(error: duckdb::Error) -> ApiError {
    ApiError::Internal(format!("app database (members): {error}"))
}

fn role_in(connection: &Connection, team_id: &str, user_id: &str) -> ApiResult<Option<Role>> {
    let role: Option<String> = connection
        .query_row(
            "SELECT role FROM team_members WHERE team_id = ? AND user_id = ?",
            params![team_id, user_id],
            |row| row.get(0),
        )
        .optional()
        .map_err(db_error)?;
    Ok(role.as_deref().and_then(Role::parse))
}

fn count(connection: &Connection, sql: &str, values: &[&dyn duckdb::ToSql]) -> ApiResult<u64> {
    let count: i64 = connection
        .query_row(sql, values, |row| row.get(0))
        .map_err(db_error)?;
    Ok(u64::try_from(count).unwrap_or(0))
}

/// Whether `plan` leaves room for one more member beside the owner in a team that has
/// `others` members who are not its owner.
fn room_for_another(plan: Plan, others: u64) -> bool {
    plan.team_member_limit()
        .is_none_or(|limit| others < u64::from(limit))
}

/// Revokes the live keys of `user_id` bound to `team_id`.
fn revoke_keys(
    connection: &Connection,
    team_id: &str,
    user_id: &str,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    connection
        .execute(
            "UPDATE api_keys SET revoked_at = ?
             WHERE team_id = ? AND user_id = ? AND revoked_at IS NULL",
            params![now, team_id, user_id],
        )
        .map_err(db_error)?;
    Ok(())
}

impl MemberStore {
    /// Opens the store over a connection to the app database (its table created if
    /// missing; the accounts and sessions tables must exist).
    pub fn open(connection: Connection) -> ApiResult<MemberStore> {
        connection.execute_batch(SCHEMA).map_err(db_error)?;
        Ok(MemberStore {
            connection: Mutex::new(connection),
        })
    }

    fn lock(&self) -> ApiResult<std::sync::MutexGuard<'_, Connection>> {
        self.connection
            .lock()
            .map_err(|_| ApiError::Internal("member store lock poisoned".into()))
    }

    /// The role of `user_id` in `team_id`, if a member.
    pub fn role(&self, team_id: &str, user_id: &str) -> ApiResult<Option<Role>> {
        let connection = self.lock()?;
        role_in(&connection, team_id, user_id)
    }

    /// The caller's role when it manages members; the refusal otherwise.
    pub fn require_manager(&self, account: &Account) -> ApiResult<Role> {
        match self.role(&account.team_id, &account.user_id)? {
            Some(role) if role.manages_members() => Ok(role),
            _ => Err(ApiError::Forbidden(NOT_A_MANAGER_MESSAGE.to_owned())),
        }
    }

    /// The team's pending invitations (not used, revoked or expired), newest first.
    pub fn invitations(&self, team_id: &str, now: DateTime<Utc>) -> ApiResult<Vec<Invitation>> {
        let connection = self.lock()?;
        let mut statement = connection
            .prepare(
                "SELECT invitation_id, email, role, invited_by_user_id, created_at, expires_at
                 FROM team_invitations
                 WHERE team_id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
                 ORDER BY created_at DESC, invitation_id",
            )
            .map_err(db_error)?;
        let rows = statement
            .query_map(params![team_id, now], |row| {
                Ok(Invitation {
                    id: row.get(0)?,
                    email: row.get(1)?,
                    role: row.get(2)?,
                    invited_by_user_id: row.get(3)?,
                    created_at: row.get(4)?,
                    expires_at: row.get(5)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_error)
    }

    /// Records an invitation of `email` (normalised) to the inviter's team and returns it
    /// with its token (the only copy). A pending invitation of the same address to the
    /// team is replaced. Refused: an address already in the team (409), a team over its
    /// hourly number of invitations (429).
    pub fn invite(
        &self,
        inviter: &Account,
        email: &str,
        role: Role,
        now: DateTime<Utc>,
    ) -> ApiResult<(Invitation, String)> {
        let connection = self.lock()?;
        let already = count(
            &connection,
            "SELECT count(*) FROM team_members m JOIN users u ON u.user_id = m.user_id
             WHERE m.team_id = ? AND u.email = ?",
            &[&inviter.team_id, &email],
        )?;
        if already > 0 {
            return Err(ApiError::Conflict(format!(
                "{email} is already a member of the team."
            )));
        }
        let hour_ago = now - Duration::hours(1);
        let sent = count(
            &connection,
            "SELECT count(*) FROM team_invitations WHERE team_id = ? AND created_at > ?",
            &[&inviter.team_id, &hour_ago],
        )?;
        if sent >= INVITATIONS_PER_TEAM_PER_HOUR {
            return Err(ApiError::TooManyRequests(LimitExceeded {
                message: "Too many invitations sent by this team. Try again in an hour.".to_owned(),
                limit: INVITATIONS_PER_TEAM_PER_HOUR,
                used: sent,
                reset_after_seconds: 3600,
            }));
        }
        connection
            .execute(
                "UPDATE team_invitations SET revoked_at = ?
                 WHERE team_id = ? AND email = ? AND used_at IS NULL AND revoked_at IS NULL",
                params![now, inviter.team_id, email],
            )
            .map_err(db_error)?;
        let token = random_token();
        let invitation = Invitation {
            id: Uuid::new_v4().to_string(),
            email: email.to_owned(),
            role: role.as_str().to_owned(),
            invited_by_user_id: inviter.user_id.clone(),
            created_at: now,
            expires_at: now + Duration::days(INVITATION_LIFETIME_DAYS),
        };
        connection
            .execute(
                "INSERT INTO team_invitations (invitation_id, team_id, email, role, token_hash,
                     invited_by_user_id, created_at, expires_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                params![
                    invitation.id,
                    inviter.team_id,
                    invitation.email,
                    invitation.role,
                    hash_api_key(&token),
                    invitation.invited_by_user_id,
                    invitation.created_at,
                    invitation.expires_at
                ],
            )
            .map_err(db_error)?;
        Ok((invitation, token))
    }

    /// Revokes a pending invitation of the team; false when the team has no such one.
    pub fn revoke_invitation(
        &self,
        team_id: &str,
        invitation_id: &str,
        now: DateTime<Utc>,
    ) -> ApiResult<bool> {
        let connection = self.lock()?;
        let changed = connection
            .execute(
                "UPDATE team_invitations SET revoked_at = ?
                 WHERE team_id = ? AND invitation_id = ? AND used_at IS NULL
                   AND revoked_at IS NULL AND expires_at > ?",
                params![now, team_id, invitation_id, now],
            )
            .map_err(db_error)?;
        Ok(changed > 0)
    }

    /// Redeems an invitation: the invited address's user (created when new) becomes a
    /// member of the inviting team with the invited role, leaving their previous team
    /// (whose keys of theirs are revoked). Refused: an unknown, used, revoked or expired
    /// link (400); a team whose plan no longer has room (403); the owner of a team that
    /// still has other members (409). A refused link stays usable. Returns the account.
    pub fn accept(&self, token: &str, now: DateTime<Utc>) -> ApiResult<Account> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        let invitation: Option<(String, String, String, String)> = transaction
            .query_row(
                "SELECT invitation_id, team_id, email, role FROM team_invitations
                 WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL
                   AND expires_at > ?",
                params![hash_api_key(token.trim()), now],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()
            .map_err(db_error)?;
        let Some((invitation_id, team_id, email, role)) = invitation else {
            return Err(ApiError::BadRequest(BAD_INVITATION_MESSAGE.to_owned()));
        };
        let plan_name: String = transaction
            .query_row(
                "SELECT plan FROM teams WHERE team_id = ?",
                params![team_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(db_error)?
            .ok_or_else(|| ApiError::BadRequest(BAD_INVITATION_MESSAGE.to_owned()))?;
        let plan = crate::plan::plan_of(&plan_name)?;

        // Created inside the transaction: a refusal below leaves no user behind.
        let (user_id, display_name) = user_for_email(&transaction, &email, now)?;
        let already_member = role_in(&transaction, &team_id, &user_id)?.is_some();
        if !already_member {
            let others = count(
                &transaction,
                "SELECT count(*) FROM team_members WHERE team_id = ? AND role <> 'owner'",
                &[&team_id],
            )?;
            if !room_for_another(plan, others) {
                return Err(ApiError::Forbidden(no_members_message(plan)));
            }
        }
        if !already_member {
            let previous: Vec<(String, String)> = {
                let mut statement = transaction
                    .prepare("SELECT team_id, role FROM team_members WHERE user_id = ?")
                    .map_err(db_error)?;
                let rows = statement
                    .query_map(params![user_id], |row| Ok((row.get(0)?, row.get(1)?)))
                    .map_err(db_error)?;
                rows.collect::<Result<Vec<_>, _>>().map_err(db_error)?
            };
            for (old_team, old_role) in &previous {
                if old_role == Role::Owner.as_str() {
                    let others = count(
                        &transaction,
                        "SELECT count(*) FROM team_members WHERE team_id = ? AND user_id <> ?",
                        &[old_team, &user_id],
                    )?;
                    if others > 0 {
                        return Err(ApiError::Conflict(
                            "You own a team that still has other members: hand the team over or remove its members before joining another team."
                                .to_owned(),
                        ));
                    }
                }
            }
            for (old_team, _) in &previous {
                transaction
                    .execute(
                        "DELETE FROM team_members WHERE team_id = ? AND user_id = ?",
                        params![old_team, user_id],
                    )
                    .map_err(db_error)?;
                revoke_keys(&transaction, old_team, &user_id, now)?;
            }
            transaction
                .execute(
                    "INSERT INTO team_members (team_id, user_id, role, joined_at)
                     VALUES (?, ?, ?, ?)",
                    params![team_id, user_id, role, now],
                )
                .map_err(db_error)?;
        }
        transaction
            .execute(
                "UPDATE team_invitations SET used_at = ? WHERE invitation_id = ?",
                params![now, invitation_id],
            )
            .map_err(db_error)?;
        transaction.commit().map_err(db_error)?;
        Ok(Account {
            user_id,
            email,
            display_name,
            team_id,
            plan: plan_name,
        })
    }

    /// Gives a member of the team another role. Not found: no such member; forbidden:
    /// the owner's role.
    pub fn set_role(&self, team_id: &str, user_id: &str, role: Role) -> ApiResult<()> {
        let connection = self.lock()?;
        match role_in(&connection, team_id, user_id)? {
            None => Err(ApiError::NotFound(format!(
                "User {user_id} is not a member of the team"
            ))),
            Some(Role::Owner) => Err(ApiError::Forbidden(
                "The owner's role cannot be changed.".to_owned(),
            )),
            Some(_) => {
                connection
                    .execute(
                        "UPDATE team_members SET role = ? WHERE team_id = ? AND user_id = ?",
                        params![role.as_str(), team_id, user_id],
                    )
                    .map_err(db_error)?;
                Ok(())
            }
        }
    }

    /// Takes a member out of the team: their keys for it are revoked and their sessions
    /// closed. Not found: no such member; forbidden: the owner.
    pub fn remove(&self, team_id: &str, user_id: &str, now: DateTime<Utc>) -> ApiResult<()> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction().map_err(db_error)?;
        match role_in(&transaction, team_id, user_id)? {
            None => {
                return Err(ApiError::NotFound(format!(
                    "User {user_id} is not a member of the team"
                )));
            }
            Some(Role::Owner) => {
                return Err(ApiError::Forbidden(
                    "The team's owner cannot be removed.".to_owned(),
                ));
            }
            Some(_) => {}
        }
        transaction
            .execute(
                "DELETE FROM team_members WHERE team_id = ? AND user_id = ?",
                params![team_id, user_id],
            )
            .map_err(db_error)?;
        revoke_keys(&transaction, team_id, user_id, now)?;
        transaction
            .execute("DELETE FROM sessions WHERE user_id = ?", params![user_id])
            .map_err(db_error)?;
        transaction.commit().map_err(db_error)?;
        Ok(())
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
