//! Team members over real HTTP: an owner on the business plan invites by mail, the link
//! in the outbox is accepted by a fresh browser that then sees the team's projects;
//! plans without members and plain members are refused; roles change; a removed
//! member's key and session stop working; the owner stays; used, replaced, expired and
//! other teams' invitations do nothing.

mod common;
mod workflows_http;

use chrono::{Duration, Utc};
use podlens_app::accounts::members::{BAD_INVITATION_MESSAGE, NOT_A_MANAGER_MESSAGE, Role};
use podlens_app::mail::Outbox;
use serde_json::{Value, json};
use workflows_http::{Answer, Http, start};

/// The key of the `/team-invite` link in the newest outbox message, mailed to `to`.
/// The id of the invitation an invite call answered with.
fn invitation_id(invited: &Answer) -> String {
    invited.data()["invitation"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn newest_invite_key(http: &Http, to: &str) -> String {
    let outbox = Outbox::in_data_dir(&http.state.data_dir);
    let messages = outbox.messages().expect("outbox readable");
    let newest = messages.last().expect("a message was mailed");
    let text = std::fs::read_to_string(newest).expect("message readable");
    assert!(text.contains(&format!("To: {to}\r\n")), "{text}");
    // The link points at the server's own address, whatever Host the inviter sent.
    let pattern = regex::Regex::new(&format!(
        r"{}/team-invite\?key=([0-9a-f]{{64}})",
        regex::escape(&http.base)
    ))
    .expect("re");
    pattern
        .captures(&text)
        .unwrap_or_else(|| panic!("no invitation link in {text}"))[1]
        .to_owned()
}

/// A request signed in by session cookie (with the web app's CSRF header).
async fn as_browser(
    http: &Http,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> Answer {
    http.as_browser(method, path, cookie, body).await
}

/// Accepts an invitation from a browser without a session; the answer and its cookie.
async fn accept(http: &Http, key: &str) -> (Answer, Option<String>) {
    let answer = as_browser(
        http,
        "POST",
        "/api/v1/teams/invitations/accept",
        None,
        Some(json!({ "key": key })),
    )
    .await;
    let cookie = answer
        .headers
        .get("set-cookie")
        .and_then(|value| value.to_str().ok())
        .map(|value| value.split(';').next().unwrap().trim().to_owned());
    (answer, cookie)
}

async fn team_of(http: &Http, key: &str) -> String {
    http.get("/api/v1/auth/session", key).await.data()["teamId"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn roles(users: &Value) -> Vec<(String, String)> {
    let mut roles: Vec<(String, String)> = users["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|user| {
            assert!(user["joinedAt"].is_string(), "{user}");
            (
                user["email"].as_str().unwrap().to_owned(),
                user["role"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    roles.sort();
    roles
}

/// An invitation sent with another `Host` header used to mail a link to that host, so
/// whoever controlled it received the key and joined the team.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitation_links_ignore_the_request_host() {
    let http = start().await;
    let owner = http.key("host.owner@example.com", "business");
    for host in ["evil.example", "evil.example:443"] {
        let invited = http
            .send(
                reqwest::Client::new()
                    .post(format!("{}/api/v1/teams/invitations", http.base))
                    .header("authorization", &owner)
                    .header("host", host)
                    .header("content-type", "application/json")
                    .body(json!({"email": "invitee@example.com"}).to_string()),
            )
            .await;
        invited.data();
        let outbox = Outbox::in_data_dir(&http.state.data_dir);
        let newest = outbox.messages().unwrap().pop().unwrap();
        let text = std::fs::read_to_string(newest).unwrap();
        assert!(!text.contains("evil.example"), "{text}");
        newest_invite_key(&http, "invitee@example.com");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invite_accept_see_the_team_change_role_and_remove() {
    let http = start().await;
    let owner = http.key("owner@example.com", "business");
    let team = team_of(&http, &owner).await;
    let project = http
        .call(
            "PUT",
            "/api/v1/projects",
            &owner,
            Some(json!({"name": "Shared members tour", "projectTypes": ["guest-booking"]})),
        )
        .await;
    project.data();

    // Bad input first.
    let bad = http
        .post(
            "/api/v1/teams/invitations",
            &owner,
            json!({"email": "not an address"}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.message(), "Please enter a valid email address.");
    let bad_role = http
        .post(
            "/api/v1/teams/invitations",
            &owner,
            json!({"email": "x@example.com", "role": "owner"}),
        )
        .await;
    assert_eq!(bad_role.status, 400, "{}", bad_role.body);
    let already = http
        .post(
            "/api/v1/teams/invitations",
            &owner,
            json!({"email": "Owner@Example.com"}),
        )
        .await;
    assert_eq!(already.status, 409, "{}", already.body);

    // A first invitation, replaced by a second one for the same address.
    let first = http
        .post(
            "/api/v1/teams/invitations",
            &owner,
            json!({"email": "New.Member@Example.com"}),
        )
        .await;
    let first_id = invitation_id(&first);
    assert_eq!(first.data()["invitation"]["role"], "member");
    let first_key = newest_invite_key(&http, "new.member@example.com");
    let second = http
        .post(
            "/api/v1/teams/invitations",
            &owner,
            json!({"email": "new.member@example.com", "role": "member"}),
        )
        .await;
    let invitation = second.data()["invitation"].clone();
    assert_eq!(invitation["email"], "new.member@example.com");
    let created =
        chrono::DateTime::parse_from_rfc3339(invitation["createdAt"].as_str().unwrap()).unwrap();
    let expires =
        chrono::DateTime::parse_from_rfc3339(invitation["expiresAt"].as_str().unwrap()).unwrap();
    assert_eq!(expires - created, Duration::days(7));
    let key = newest_invite_key(&http, "new.member@example.com");
    assert_ne!(key, first_key);
    let pending = http.get("/api/v1/teams/invitations", &owner).await;
    let ids: Vec<&str> = pending.data()["invitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![invitation["id"].as_str().unwrap()]);
    assert!(!ids.contains(&first_id.as_str()));
    let (replaced, _) = accept(&http, &first_key).await;
    assert_eq!(replaced.status, 400, "{}", replaced.body);
    assert_eq!(replaced.message(), BAD_INVITATION_MESSAGE);

    // Accepted in a fresh browser: a new user, member of the team, signed in.
    let (joined, cookie) = accept(&http, &key).await;
    assert_eq!(joined.data()["teamId"], team.as_str());
    assert_eq!(joined.data()["email"], "new.member@example.com");
    let cookie = cookie.expect("a session cookie");
    let projects = as_browser(&http, "GET", "/api/v1/projects", Some(&cookie), None).await;
    assert!(
        projects.body.to_string().contains("Shared members tour"),
        "{}",
        projects.body
    );
    let member_id = joined.data()["userId"].as_str().unwrap().to_owned();
    let users = http.get("/api/v1/teams/users", &owner).await;
    assert_eq!(
        roles(users.data()),
        vec![
            ("new.member@example.com".to_owned(), "member".to_owned()),
            ("owner@example.com".to_owned(), "owner".to_owned()),
        ]
    );
    // The link works once; the list no longer holds it.
    let (again, _) = accept(&http, &key).await;
    assert_eq!(again.status, 400);
    assert_eq!(again.message(), BAD_INVITATION_MESSAGE);
    let pending = http.get("/api/v1/teams/invitations", &owner).await;
    assert_eq!(pending.data()["invitations"], json!([]));

    // A plain member may not invite, revoke or change roles.
    let refused = as_browser(
        &http,
        "POST",
        "/api/v1/teams/invitations",
        Some(&cookie),
        Some(json!({"email": "third@example.com"})),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.message(), NOT_A_MANAGER_MESSAGE);
    let owner_id = users.data()["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|user| user["role"] == "owner")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let refused = as_browser(
        &http,
        "PATCH",
        &format!("/api/v1/teams/users/{member_id}"),
        Some(&cookie),
        Some(json!({"role": "admin"})),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);

    // The owner makes them admin: now they invite.
    let promoted = http
        .call(
            "PATCH",
            &format!("/api/v1/teams/users/{member_id}"),
            &owner,
            Some(json!({"role": "admin"})),
        )
        .await;
    promoted.data();
    let users = http.get("/api/v1/teams/users", &owner).await;
    assert!(roles(users.data()).contains(&("new.member@example.com".into(), "admin".into())));
    let invited = as_browser(
        &http,
        "POST",
        "/api/v1/teams/invitations",
        Some(&cookie),
        Some(json!({"email": "third@example.com", "role": "admin"})),
    )
    .await;
    assert_eq!(invited.data()["invitation"]["role"], "admin");
    assert_eq!(invited.data()["invitation"]["invitedByUserId"], member_id);
    let third_id = invitation_id(&invited);
    let third_key = newest_invite_key(&http, "third@example.com");
    // … and revoke: the link is dead.
    let revoked = as_browser(
        &http,
        "DELETE",
        &format!("/api/v1/teams/invitations/{third_id}"),
        Some(&cookie),
        None,
    )
    .await;
    revoked.data();
    let (dead, _) = accept(&http, &third_key).await;
    assert_eq!(dead.status, 400);

    // Nobody changes the owner's role or removes the owner, the owner included.
    for caller in [Some(cookie.as_str()), None] {
        let answer = match caller {
            Some(cookie) => {
                as_browser(
                    &http,
                    "PATCH",
                    &format!("/api/v1/teams/users/{owner_id}"),
                    Some(cookie),
                    Some(json!({"role": "member"})),
                )
                .await
            }
            None => {
                http.call(
                    "PATCH",
                    &format!("/api/v1/teams/users/{owner_id}"),
                    &owner,
                    Some(json!({"role": "member"})),
                )
                .await
            }
        };
        assert_eq!(answer.status, 403, "{}", answer.body);
    }
    let removed_owner = as_browser(
        &http,
        "DELETE",
        &format!("/api/v1/teams/users/{owner_id}"),
        Some(&cookie),
        None,
    )
    .await;
    assert_eq!(removed_owner.status, 403, "{}", removed_owner.body);
    let left_owner = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/users/{owner_id}"),
            &owner,
            None,
        )
        .await;
    assert_eq!(left_owner.status, 403, "{}", left_owner.body);

    // The member makes an API key of the team (business: API access) and reads with it.
    let member_key = as_browser(
        &http,
        "POST",
        "/api/v1/teams/api-keys",
        Some(&cookie),
        Some(json!({})),
    )
    .await;
    let member_key = member_key.data()["apiKey"].as_str().unwrap().to_owned();
    let projects = http.get("/api/v1/projects", &member_key).await;
    assert!(projects.body.to_string().contains("Shared members tour"));

    // Removed: their key answers 401, their session is signed out.
    http.call(
        "PATCH",
        &format!("/api/v1/teams/users/{member_id}"),
        &owner,
        Some(json!({"role": "member"})),
    )
    .await
    .data();
    let removed = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/users/{member_id}"),
            &owner,
            None,
        )
        .await;
    removed.data();
    let after = http.get("/api/v1/projects", &member_key).await;
    assert_eq!(after.status, 401, "{}", after.body);
    let session = as_browser(&http, "GET", "/api/v1/auth/session", Some(&cookie), None).await;
    assert_eq!(session.status, 401, "{}", session.body);
    let projects = as_browser(&http, "GET", "/api/v1/projects", Some(&cookie), None).await;
    assert!(!projects.body.to_string().contains("Shared members tour"));
    let users = http.get("/api/v1/teams/users", &owner).await;
    assert_eq!(
        roles(users.data()),
        vec![("owner@example.com".to_owned(), "owner".to_owned())]
    );
    let gone = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/users/{member_id}"),
            &owner,
            None,
        )
        .await;
    assert_eq!(gone.status, 404, "{}", gone.body);
    // On their next sign-in they get a team of their own, on the free plan.
    let own = podlens_app::runtime::block_on_own_thread(
        http.state.accounts.sign_up("new.member@example.com"),
    )
    .unwrap();
    assert_ne!(own.team_id, team);
    assert_eq!(own.plan, "free");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plans_without_members_other_teams_expired_links_and_team_moves() {
    let http = start().await;

    // Free and individual teams have only their owner (API keys need business, so by
    // session cookie).
    for (email, plan) in [
        ("solo@example.com", "free"),
        ("indie@example.com", "individual"),
    ] {
        let account = podlens_app::runtime::block_on_own_thread(
            http.state.accounts.create_api_key(email, plan),
        )
        .unwrap()
        .account;
        let token = podlens_app::runtime::block_on_own_thread(
            http.state
                .sessions
                .open_session(&account.user_id, Utc::now()),
        )
        .unwrap();
        let cookie = format!("podlens_session={token}");
        let refused = as_browser(
            &http,
            "POST",
            "/api/v1/teams/invitations",
            Some(&cookie),
            Some(json!({"email": "friend@example.com"})),
        )
        .await;
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert_eq!(
            refused.message(),
            format!(
                "Your {plan} plan does not include team members; business, agency and admin plans do."
            )
        );
    }

    // Team B cannot revoke team A's invitation.
    let a = http.key("alpha-owner@example.com", "agency");
    let b = http.key("beta-owner@example.com", "business");
    let invited = http
        .post(
            "/api/v1/teams/invitations",
            &a,
            json!({"email": "guest@example.com"}),
        )
        .await;
    let id = invitation_id(&invited);
    let key = newest_invite_key(&http, "guest@example.com");
    let stolen = http
        .call(
            "DELETE",
            &format!("/api/v1/teams/invitations/{id}"),
            &b,
            None,
        )
        .await;
    assert_eq!(stolen.status, 404, "{}", stolen.body);
    let b_list = http.get("/api/v1/teams/invitations", &b).await;
    assert_eq!(b_list.data()["invitations"], json!([]));
    let a_list = http.get("/api/v1/teams/invitations", &a).await;
    assert_eq!(a_list.data()["invitations"][0]["id"], id.as_str());

    // An expired invitation is refused.
    let a_account =
        podlens_app::runtime::block_on_own_thread(http.state.accounts.account_for_key(&a))
            .unwrap()
            .unwrap();
    let (_, old_token) = podlens_app::runtime::block_on_own_thread(http.state.members.invite(
        &a_account,
        "late@example.com",
        Role::Member,
        Utc::now() - Duration::days(7) - Duration::seconds(5),
    ))
    .unwrap();
    let (expired, _) = accept(&http, &old_token).await;
    assert_eq!(expired.status, 400, "{}", expired.body);
    assert_eq!(expired.message(), BAD_INVITATION_MESSAGE);
    let (unknown, _) = accept(&http, "0123").await;
    assert_eq!(unknown.status, 400);

    // The owner of a team with other members cannot join another team: B has a member.
    let b_invite = http
        .post(
            "/api/v1/teams/invitations",
            &b,
            json!({"email": "beta-member@example.com"}),
        )
        .await;
    b_invite.data();
    let (joined_b, _) = accept(&http, &newest_invite_key(&http, "beta-member@example.com")).await;
    joined_b.data();
    http.post(
        "/api/v1/teams/invitations",
        &a,
        json!({"email": "beta-owner@example.com"}),
    )
    .await
    .data();
    let beta_to_a = newest_invite_key(&http, "beta-owner@example.com");
    let (conflict, _) = accept(&http, &beta_to_a).await;
    assert_eq!(conflict.status, 409, "{}", conflict.body);
    assert!(
        conflict.message().contains("hand the team over"),
        "{}",
        conflict.body
    );
    // B's owner still acts for B.
    http.get("/api/v1/teams/users", &b).await.data();

    // A solo owner joining moves out of their team: their old key is revoked.
    let solo = http.key("gamma@example.com", "business");
    let gamma_team = team_of(&http, &solo).await;
    http.post(
        "/api/v1/teams/invitations",
        &a,
        json!({"email": "gamma@example.com", "role": "admin"}),
    )
    .await
    .data();
    let (moved, cookie) = accept(&http, &newest_invite_key(&http, "gamma@example.com")).await;
    let a_team = team_of(&http, &a).await;
    assert_eq!(moved.data()["teamId"], a_team.as_str());
    assert_ne!(a_team, gamma_team);
    let old_key = http.get("/api/v1/projects", &solo).await;
    assert_eq!(old_key.status, 401, "{}", old_key.body);
    let session = as_browser(
        &http,
        "GET",
        "/api/v1/auth/session",
        cookie.as_deref(),
        None,
    )
    .await;
    assert_eq!(session.data()["teamId"], a_team.as_str());
    let users = http.get("/api/v1/teams/users", &a).await;
    assert!(roles(users.data()).contains(&("gamma@example.com".into(), "admin".into())));

    // The first invitation still works after all this.
    let (guest, _) = accept(&http, &key).await;
    assert_eq!(guest.data()["teamId"], a_team.as_str());
}
