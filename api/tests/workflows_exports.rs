//! Exports over HTTP: project listed podcasts and remembered searches, CSV and JSON,
//! column groups, the 1-1000 limit, and the plan's monthly export count.

mod workflows_support;

use axum::http::{Method, StatusCode};
use podlens_model::Plan;
use serde_json::{Value, json};
use workflows_support::{TestServer, message, server};

async fn project_with(server: &TestServer, key: &str, states: &[&str]) -> String {
    let (_, body) = server
        .call(
            Method::PUT,
            "/api/v1/projects",
            key,
            Some(json!({"name": "Export list"})),
        )
        .await;
    let slug = body["data"]["project"]["slug"].as_str().unwrap().to_owned();
    for (podcast, state) in server.podcasts.iter().zip(states) {
        let (status, body) = server
            .call(
                Method::POST,
                &format!("/api/v1/projects/{slug}/podcasts"),
                key,
                Some(json!({"podcastId": podcast.podcast_id, "state": state})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    slug
}

/// Splits CSV text into records with a plain RFC 4180 reader.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    records
}

#[tokio::test]
async fn a_project_exports_as_csv_and_json_with_the_chosen_groups() {
    let server = server(3);
    let key = server.key("ada@example.com", "business");
    let slug = project_with(&server, &key, &["booked", "prospect", "booked"]).await;
    let path = format!("/api/v1/export/project/{slug}/listed-podcasts");
    let (status, headers, bytes) = server
        .raw(
            Method::POST,
            &path,
            Some(&key),
            Some(json!({
            "columns": ["basicInfo", "website", "contactDetails"], "format": "csv",
            "listedPodcastStatesFilter": ["booked"]})),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("project-{slug}.csv"))
    );
    let records = csv_records(std::str::from_utf8(&bytes).unwrap());
    let header = &records[0];
    assert_eq!(&header[..2], ["listedPodcastId", "status"]);
    for field in ["podcastId", "title", "websiteUrl", "primaryContactEmail"] {
        assert!(header.contains(&field.to_owned()), "{field} in {header:?}");
    }
    assert_eq!(records.len(), 1 + 2, "two booked podcasts");
    let title_at = header.iter().position(|h| h == "title").unwrap();
    let email_at = header
        .iter()
        .position(|h| h == "primaryContactEmail")
        .unwrap();
    for (record, podcast) in records[1..]
        .iter()
        .zip([&server.podcasts[0], &server.podcasts[2]])
    {
        assert_eq!(record[1], "booked");
        assert_eq!(record[title_at], podcast.podcast_rss_title);
        assert_eq!(
            Some(record[email_at].as_str()),
            podcast.podcast_owner_email.as_deref()
        );
    }

    let (status, _, bytes) = server
        .raw(
            Method::POST,
            &path,
            Some(&key),
            Some(json!({"columns": ["location"], "format": "json"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let rows: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["location"], "Lisbon");
    assert!(rows[0].get("title").is_none(), "only the chosen groups");
}

#[tokio::test]
async fn export_requests_are_checked_with_the_spec_messages() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let slug = project_with(&server, &key, &["prospect"]).await;
    let path = format!("/api/v1/export/project/{slug}/listed-podcasts");
    let cases = [
        (
            json!({"columns": [], "format": "csv"}),
            "At least one export column is required",
        ),
        (
            json!({"columns": ["shoeSize"], "format": "csv"}),
            "Invalid export column \"shoeSize\"",
        ),
        (
            json!({"columns": ["basicInfo"], "format": "xml"}),
            "Export format must be csv or json",
        ),
        (
            json!({"columns": ["basicInfo"], "format": "csv", "limit": 0}),
            "Export limit must be between 1 and 1000",
        ),
        (
            json!({"columns": ["basicInfo"], "format": "csv", "limit": 1001}),
            "Export limit must be between 1 and 1000",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = server.call(Method::POST, &path, &key, Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(message(&answer), expected);
    }
    let (status, answer) = server
        .call(Method::POST, "/api/v1/export/podcasts", &key,
              Some(json!({"searchHistoryId": "nope", "columns": ["basicInfo"], "format": "csv", "limit": 10})))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(message(&answer), "Search history not found: nope");
}

#[tokio::test]
async fn the_plan_caps_exports_per_month() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let slug = project_with(&server, &key, &["prospect"]).await;
    let path = format!("/api/v1/export/project/{slug}/listed-podcasts");
    let monthly = Plan::Business.limits().exports_per_month.expect("capped");
    let body = json!({"columns": ["basicInfo"], "format": "json"});
    for _ in 0..monthly {
        let (status, _, _) = server
            .raw(Method::POST, &path, Some(&key), Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, headers, bytes) = server
        .raw(Method::POST, &path, Some(&key), Some(body))
        .await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    assert_eq!(headers["x-ratelimit-limit"], monthly.to_string().as_str());
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(
        message(&answer).contains(&format!("allows {monthly} exports per month")),
        "{answer}"
    );
}

/// The podcast ids of a JSON search export made with `body`, after checking it is OK.
async fn exported_ids(server: &TestServer, key: &str, body: Value) -> Vec<String> {
    let (status, _, bytes) = server
        .raw(
            Method::POST,
            "/api/v1/export/podcasts",
            Some(key),
            Some(body),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    let rows: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
    rows.iter()
        .map(|row| row["podcastId"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_remembered_search_exports_its_podcasts() {
    let server = server(3);
    let index = podlens_indexer::IndexSource {
        podcasts: &server.podcasts,
        episodes: &server.episodes,
        transcripts: &[],
        persons: &[],
        signals: None,
    };
    let options = podlens_indexer::BuildOptions {
        shards: Some(1),
        ..Default::default()
    };
    podlens_indexer::build_generation(&server.data_dir().join("index"), index, &options).unwrap();
    let key = server.key("ada@example.com", "business");
    let search = json!({"searchTerms": [{"searchTerm": "garden", "searchType": "text",
                                          "searchTargets": ["podcast-title"]}]});
    let (status, found) = server
        .call(Method::POST, "/api/v1/search/podcasts", &key, Some(search))
        .await;
    assert_eq!(status, StatusCode::OK, "{found}");
    let search_id = found["data"]["searchId"].as_str().unwrap().to_owned();
    let expected: Vec<String> = found["data"]["result"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["podcastId"].as_str().unwrap().to_owned())
        .take(2)
        .collect();
    assert_eq!(expected.len(), 2, "every test podcast's title has the word");
    let exported = exported_ids(
        &server,
        &key,
        json!({"searchHistoryId": search_id, "limit": 2, "columns": ["basicInfo"], "format": "json"}),
    )
    .await;
    assert_eq!(exported.len(), 2);
    assert_eq!(exported, expected, "the search's order");

    // The podcasts picked among the results (the web's "Export N" of a selection), in
    // the search's order whatever the order picked; an id not among them is left out.
    let all: Vec<String> = found["data"]["result"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["podcastId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(all.len(), 3);
    let picked = exported_ids(
        &server,
        &key,
        json!({"searchHistoryId": search_id, "columns": ["basicInfo"], "format": "json",
               "podcastIds": [all[2], all[0], uuid::Uuid::new_v4().to_string()]}),
    )
    .await;
    assert_eq!(picked, [all[0].clone(), all[2].clone()]);
    let (status, body) = server
        .call(
            Method::POST,
            "/api/v1/export/podcasts",
            &key,
            Some(json!({"searchHistoryId": search_id, "columns": ["basicInfo"], "format": "csv", "podcastIds": ["not-an-id"]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["data"]["message"],
        "podcastIds: not a podcast id: not-an-id"
    );
    // Another team cannot export this search.
    let stranger = server.key("stranger@example.com", "business");
    let (status, _, _) = server
        .raw(Method::POST, "/api/v1/export/podcasts", Some(&stranger),
             Some(json!({"searchHistoryId": search_id, "limit": 2, "columns": ["basicInfo"], "format": "csv"})))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
