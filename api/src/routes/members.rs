//! Team members (a Podlens extension): invitations by mailed link, accepting one, role
//! changes and removal. The owner and admins manage members; any member may leave.
//! Team members are part of the business, agency and admin plans (SPEC.md §6).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{delete, get, patch, post};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::routes::auth::{SessionInfo, link_origin, sign_in_as};
use crate::state::{AppState, blocking};
use podlens_app::accounts::members::{
    INVITATION_LIFETIME_DAYS, Invitation, Role, no_members_message,
};
use podlens_app::mail::Mail;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/teams/invitations", get(invitations).post(invite))
        .route("/api/v1/teams/invitations/accept", post(accept))
        .route("/api/v1/teams/invitations/{invitationId}", delete(revoke))
        .route(
            "/api/v1/teams/users/{userId}",
            patch(change_role).delete(remove),
        )
}

/// A pending invitation (never its link).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationInfo {
    pub id: String,
    pub email: String,
    /// `admin` or `member`.
    pub role: String,
    pub invited_by_user_id: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl From<Invitation> for InvitationInfo {
    fn from(invitation: Invitation) -> Self {
        InvitationInfo {
            id: invitation.id,
            email: invitation.email,
            role: invitation.role,
            invited_by_user_id: invitation.invited_by_user_id,
            created_at: invitation.created_at,
            expires_at: invitation.expires_at,
        }
    }
}

/// `data` of the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationsResponse {
    pub invitations: Vec<InvitationInfo>,
}

/// `data` of a new invitation.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationResponse {
    pub invitation: InvitationInfo,
}

/// A role an invitation or a role change gives.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AssignableRole {
    Admin,
    Member,
}

/// The body of an invitation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteRequest {
    /// The address the link is mailed to.
    #[schema(example = "colleague@example.com")]
    pub email: String,
    /// The role the invited person gets: `member` unless given.
    #[serde(default)]
    #[schema(value_type = Option<AssignableRole>)]
    pub role: Option<String>,
}

/// The body of a role change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleRequest {
    #[schema(value_type = AssignableRole)]
    pub role: String,
}

/// An invitation link's key.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptRequest {
    pub key: String,
}

/// A confirmation.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberMessage {
    pub message: String,
}

/// The caller's account when they manage members of a plan that has them.
async fn manager(state: &AppState, caller: &Caller) -> ApiResult<podlens_app::accounts::Account> {
    let account = caller.require_account()?.clone();
    state.members.require_manager(&account).await?;
    Ok(account)
}

fn invitation_mail(email: &str, inviter: &str, role: &str, url: &str) -> Mail {
    Mail {
        to: email.to_owned(),
        subject: "You are invited to a team on Podlens".to_owned(),
        text: format!(
            "{inviter} invited you to join their team on Podlens as {article} {role}.\n\nOpen this link to accept:\n\n{url}\n\nThe link works once and expires in {INVITATION_LIFETIME_DAYS} days. Joining moves you out of your current Podlens team. If you did not expect it, ignore this email.",
            article = if role == "admin" { "an" } else { "a" },
        ),
    }
}

/// The team's pending invitations.
#[utoipa::path(get, path = "/api/v1/teams/invitations", tag = "teams", operation_id = "listTeamInvitations",
    responses((status = 200, body = InvitationsResponse, description = "Pending invitations, newest first")))]
pub async fn invitations(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Envelope<InvitationsResponse>> {
    let account = caller.require_account()?;
    let invitations = state
        .members
        .invitations(&account.team_id, Utc::now())
        .await?
        .into_iter()
        .map(InvitationInfo::from)
        .collect();
    Ok(Envelope(InvitationsResponse { invitations }))
}

/// Invites an address to the team: mails it a single-use link to `/team-invite?key=`,
/// valid 7 days. A repeat invitation of the same address replaces the pending one.
#[utoipa::path(post, path = "/api/v1/teams/invitations", tag = "teams", operation_id = "inviteTeamMember",
    request_body = InviteRequest,
    responses((status = 200, body = InvitationResponse, description = "The invitation was mailed"),
              (status = 400, description = "Not an email address, or not a role an invitation gives"),
              (status = 403, description = "The plan has no team members, or the caller is a plain member"),
              (status = 409, description = "The address is already a member of the team"),
              (status = 429, description = "Too many invitations sent by the team in the last hour"),
              (status = 503, description = "The server has no public address for links (bound to 0.0.0.0 without --public-url)")))]
pub async fn invite(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<InviteRequest>,
) -> ApiResult<Envelope<InvitationResponse>> {
    let account = caller.require_account()?.clone();
    if caller.plan.team_member_limit() == Some(0) {
        return Err(ApiError::Forbidden(no_members_message(caller.plan)));
    }
    let email = podlens_app::accounts::normalized_email(&request.email)
        .map_err(|_| ApiError::BadRequest("Please enter a valid email address.".to_owned()))?;
    let role = Role::assignable(request.role.as_deref().unwrap_or("member"))?;
    let origin = link_origin(&state)?;
    state.members.require_manager(&account).await?;
    let (invitation, token) = state
        .members
        .invite(&account, &email, role, Utc::now())
        .await?;
    let url = format!("{origin}/team-invite?key={token}");
    let mail = invitation_mail(&email, &account.shown_name(), role.as_str(), &url);
    let mailer = state.mailer.clone();
    blocking(move || Ok(mailer.send(&mail)?)).await?;
    Ok(Envelope(InvitationResponse {
        invitation: invitation.into(),
    }))
}

/// Revokes a pending invitation: its link no longer works.
#[utoipa::path(delete, path = "/api/v1/teams/invitations/{invitationId}", tag = "teams", operation_id = "revokeTeamInvitation",
    params(("invitationId" = String, Path, description = "The invitation's id from the list")),
    responses((status = 200, body = MemberMessage, description = "The invitation is revoked"),
              (status = 403, description = "The caller is a plain member"),
              (status = 404, description = "No such pending invitation in the team")))]
pub async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path(invitation_id): Path<String>,
) -> ApiResult<Envelope<MemberMessage>> {
    let account = manager(&state, &caller).await?;
    if !state
        .members
        .revoke_invitation(&account.team_id, &invitation_id, Utc::now())
        .await?
    {
        return Err(ApiError::NotFound(format!(
            "Invitation {invitation_id} is not a pending invitation of the team"
        )));
    }
    Ok(Envelope(MemberMessage {
        message: "Invitation revoked".to_owned(),
    }))
}

/// Accepts an invitation: the invited address's account (created when new) joins the
/// team with the invited role, leaving its previous team (its keys there are revoked),
/// and is signed in (the session cookie is set).
#[utoipa::path(post, path = "/api/v1/teams/invitations/accept", tag = "teams", operation_id = "acceptTeamInvitation",
    request_body = AcceptRequest,
    responses((status = 200, body = SessionInfo, description = "Joined and signed in; the session cookie is set"),
              (status = 400, description = "The invitation link is invalid, used or expired"),
              (status = 403, description = "The team's plan has no team members"),
              (status = 409, description = "The invited person owns a team that still has other members")))]
pub async fn accept(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<AcceptRequest>,
) -> ApiResult<Response> {
    let now = Utc::now();
    let account = state.members.accept(&request.key, now).await?;
    sign_in_as(&state, &headers, account, now).await
}

/// Changes a member's role (admin or member); the owner's role stays.
#[utoipa::path(patch, path = "/api/v1/teams/users/{userId}", tag = "teams", operation_id = "changeTeamMemberRole",
    params(("userId" = String, Path, description = "The member's user id")),
    request_body = RoleRequest,
    responses((status = 200, body = MemberMessage, description = "The role is changed"),
              (status = 400, description = "Not a role a member may be given"),
              (status = 403, description = "The caller is a plain member, or the member is the owner"),
              (status = 404, description = "No such member in the team")))]
pub async fn change_role(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    ApiJson(request): ApiJson<RoleRequest>,
) -> ApiResult<Envelope<MemberMessage>> {
    let role = Role::assignable(&request.role)?;
    let account = manager(&state, &caller).await?;
    state
        .members
        .set_role(&account.team_id, &user_id, role)
        .await?;
    Ok(Envelope(MemberMessage {
        message: format!("The member is now {}", role.as_str()),
    }))
}

/// Removes a member from the team (the owner and admins), or the caller themselves
/// (leaving). Their keys for the team are revoked and their sessions closed; the owner
/// cannot be removed.
#[utoipa::path(delete, path = "/api/v1/teams/users/{userId}", tag = "teams", operation_id = "removeTeamMember",
    params(("userId" = String, Path, description = "The member's user id")),
    responses((status = 200, body = MemberMessage, description = "The member is removed"),
              (status = 403, description = "The caller is a plain member removing someone else, or the member is the owner"),
              (status = 404, description = "No such member in the team")))]
pub async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
) -> ApiResult<Envelope<MemberMessage>> {
    let account = caller.require_account()?;
    let leaving = account.user_id == user_id;
    if !leaving {
        state.members.require_manager(account).await?;
    }
    state
        .members
        .remove(&account.team_id, &user_id, Utc::now())
        .await?;
    Ok(Envelope(MemberMessage {
        message: if leaving {
            "You left the team".to_owned()
        } else {
            "Member removed from the team".to_owned()
        },
    }))
}
