//! The team's API keys over HTTP on a real socket: listed without the keys themselves,
//! created with the key in that one answer, revoked so that the key stops working at
//! once, and invisible to another team.

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

    let created = http
        .call("POST", "/api/v1/teams/api-keys", &first, None)
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
