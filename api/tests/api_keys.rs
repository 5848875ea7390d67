//! The team's API keys over HTTP on a real socket: listed without the keys themselves,
//! created from a signed-in session with the key in that one answer (never with a key),
//! revoked by their creator or a team manager so that the key stops working at once,
//! and invisible to another team.

mod common;
mod workflows_http;

use workflows_http::start;

#[tokio::test]
async fn keys_are_listed_created_and_revoked_per_team() {
    let http = start().await;
    let first = http.key("keys-owner@example.com", "business");
    let other = http.key("keys-other@example.com", "business");

    let listed = http.get("/api/v1/teams/api-keys", &first).await;
    let keys = listed.data()["apiKeys"]
        .as_array()
        .expect("apiKeys")
        .clone();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["prefix"], first[..8]);
    assert_eq!(keys[0]["createdBy"], "keys-owner@example.com");
    assert!(keys[0]["revokedAt"].is_null());
    assert!(
        !listed.body.to_string().contains(&first),
        "a list never holds a key"
    );

    let session = http.session_cookie(&first);
    let created = http
        .as_browser("POST", "/api/v1/teams/api-keys", Some(&session), None)
        .await;
    let created = created.data().clone();
    let second = created["apiKey"].as_str().expect("the new key").to_owned();
    assert!(second.starts_with("pl_") && second.len() == 67, "{second}");
    assert_eq!(created["prefix"], second[..8]);
    let second_id = created["keyId"].as_str().expect("keyId").to_owned();
    assert_eq!(second_id.len(), 16);
    http.get("/api/v1/teams/usage/current", &second)
        .await
        .data();

    let listed = http.get("/api/v1/teams/api-keys", &second).await;
    let keys = listed.data()["apiKeys"]
        .as_array()
        .expect("apiKeys")
        .clone();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0]["keyId"], second_id.as_str(), "newest first");
    assert!(!listed.body.to_string().contains(&second));

    // Another team neither sees nor revokes it.
    let theirs = http.get("/api/v1/teams/api-keys", &other).await;
    assert_eq!(theirs.data()["apiKeys"].as_array().map(Vec::len), Some(1));
    let path = format!("/api/v1/teams/api-keys/{second_id}");
    let refused = http.call("DELETE", &path, &other, None).await;
    assert_eq!(refused.status, 404);
    assert_eq!(refused.message(), format!("API key not found: {second_id}"));
    http.get("/api/v1/teams/usage/current", &second)
        .await
        .data();

    // Revoked by its team: refused at once with the spec's message.
    let revoked = http.call("DELETE", &path, &first, None).await;
    let revoked_at = revoked.data()["revokedAt"].clone();
    assert!(revoked_at.is_string());
    let refused = http.get("/api/v1/teams/usage/current", &second).await;
    assert_eq!(refused.status, 401);
    assert_eq!(refused.body["status"], "UNAUTHORIZED");
    assert_eq!(refused.message(), "Invalid authorization token");
    let again = http.call("DELETE", &path, &first, None).await;
    assert_eq!(
        again.data()["revokedAt"],
        revoked_at,
        "the first revocation time stays"
    );
    let listed = http.get("/api/v1/teams/api-keys", &first).await;
    let keys = listed.data()["apiKeys"]
        .as_array()
        .expect("apiKeys")
        .clone();
    assert_eq!(keys[0]["revokedAt"], revoked_at);
    assert!(keys[1]["revokedAt"].is_null());

    for bad in ["zz", "0123456789abcdef0", "0123456789abcdeg"] {
        let answer = http
            .call(
                "DELETE",
                &format!("/api/v1/teams/api-keys/{bad}"),
                &first,
                None,
            )
            .await;
        assert_eq!(answer.status, 404, "{bad}");
    }
}

/// Any member could revoke the owner's keys, and a key could create keys (so a leaked
/// key outlived its revocation). Keys are now created from a signed-in session only,
/// and a plain member revokes only the keys they created; the owner and admins revoke
/// any of the team's.
#[tokio::test]
async fn plain_members_revoke_only_their_own_keys_and_keys_create_no_keys() {
    let http = start().await;
    let owner = podlens_app::runtime::block_on_own_thread(
        http.state
            .accounts
            .create_api_key("keys-boss@example.com", "business"),
    )
    .unwrap();
    let now = chrono::Utc::now();
    let invite = |email: &str, role: podlens_app::accounts::members::Role| {
        let (_, token) = podlens_app::runtime::block_on_own_thread(http.state.members.invite(
            &owner.account,
            email,
            role,
            now,
        ))
        .unwrap();
        let account =
            podlens_app::runtime::block_on_own_thread(http.state.members.accept(&token, now))
                .unwrap();
        podlens_app::runtime::block_on_own_thread(http.state.accounts.create_team_key(&account))
            .unwrap()
    };
    let member = invite(
        "keys-member@example.com",
        podlens_app::accounts::members::Role::Member,
    );
    let admin = invite(
        "keys-admin@example.com",
        podlens_app::accounts::members::Role::Admin,
    );
    let key_id = |key: &str| {
        podlens_app::accounts::keys::key_id_of(&podlens_app::accounts::hash_api_key(key))
    };

    // A key creates no key, whatever its plan or role.
    for key in [&owner.api_key, &member.api_key] {
        let refused = http.call("POST", "/api/v1/teams/api-keys", key, None).await;
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert_eq!(
            refused.message(),
            podlens_api::routes::api_keys::CREATE_WITH_SESSION_MESSAGE
        );
    }
    assert_eq!(
        http.get("/api/v1/teams/api-keys", &owner.api_key)
            .await
            .data()["apiKeys"]
            .as_array()
            .map(Vec::len),
        Some(3),
        "no key was made"
    );
    // Signed out, no key either.
    let signed_out = http
        .as_browser("POST", "/api/v1/teams/api-keys", None, None)
        .await;
    assert_eq!(signed_out.status, 401);

    // A plain member cannot revoke the owner's key or the admin's ...
    for other in [&owner.api_key, &admin.api_key] {
        let path = format!("/api/v1/teams/api-keys/{}", key_id(other));
        let refused = http.call("DELETE", &path, &member.api_key, None).await;
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert_eq!(
            refused.message(),
            podlens_api::routes::api_keys::REVOKE_OWN_KEYS_MESSAGE
        );
        http.get("/api/v1/teams/usage/current", other).await.data();
    }
    // ... but revokes a key of their own, made from their session.
    let session = http.session_cookie(&member.api_key);
    let made = http
        .as_browser("POST", "/api/v1/teams/api-keys", Some(&session), None)
        .await;
    let own = made.data()["keyId"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/teams/api-keys/{own}");
    http.call("DELETE", &path, &member.api_key, None)
        .await
        .data();
    // An admin revokes the member's key; the owner revokes the admin's.
    let path = format!("/api/v1/teams/api-keys/{}", key_id(&member.api_key));
    http.call("DELETE", &path, &admin.api_key, None)
        .await
        .data();
    assert_eq!(
        http.get("/api/v1/teams/usage/current", &member.api_key)
            .await
            .status,
        401
    );
    let path = format!("/api/v1/teams/api-keys/{}", key_id(&admin.api_key));
    http.call("DELETE", &path, &owner.api_key, None)
        .await
        .data();
    assert_eq!(
        http.get("/api/v1/teams/usage/current", &admin.api_key)
            .await
            .status,
        401
    );
}
