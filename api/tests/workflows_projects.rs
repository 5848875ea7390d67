//! Projects and listed podcasts over HTTP: every call, the name and type rules, the
//! plan caps of SPEC.md §9, list ordering (§4), activity history, recent episodes and
//! team isolation.

mod workflows_support;

use axum::http::{Method, StatusCode};
use podlens_model::Plan;
use serde_json::{Value, json};
use workflows_support::{EPISODE_AGES_DAYS, TestServer, episode_title, message, server};

async fn create(server: &TestServer, key: &str, name: &str) -> Value {
    let (status, body) = server
        .call(
            Method::PUT,
            "/api/v1/projects",
            key,
            Some(json!({"name": name, "projectTypes": ["guest-booking"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["data"]["project"].clone()
}

async fn add(server: &TestServer, key: &str, project: &str, body: Value) -> (StatusCode, Value) {
    server
        .call(
            Method::POST,
            &format!("/api/v1/projects/{project}/podcasts"),
            key,
            Some(body),
        )
        .await
}

#[tokio::test]
async fn create_checks_name_length_and_types_with_the_spec_messages() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let cases = [
        (
            json!({"name": "short"}),
            "Project name must be at least 6 characters",
        ),
        (
            json!({"name": "x".repeat(33)}),
            "Project name must be at most 32 characters",
        ),
        (
            json!({"name": "Summer tour", "projectTypes": ["gardening"]}),
            "Invalid project type \"gardening\"",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = server
            .call(Method::PUT, "/api/v1/projects", &key, Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(message(&answer), expected);
    }
    let project = create(&server, &key, &"y".repeat(32)).await;
    assert_eq!(project["name"], "y".repeat(32));
    let project = create(&server, &key, "Spring Launch 2025").await;
    assert_eq!(project["slug"], "spring-launch-2025");
    assert_eq!(project["status"], "ACTIVE");
    assert_eq!(project["projectTypes"], json!(["guest-booking"]));
    assert_eq!(project["listedPodcastsCount"], 0);
    // No name chosen yet: the email address stands for it (never its local part).
    assert_eq!(project["createdBy"]["displayName"], "ada@example.com");
    // The same name again gets the next free slug.
    let again = create(&server, &key, "Spring Launch 2025").await;
    assert_eq!(again["slug"], "spring-launch-2025-2");
}

#[tokio::test]
async fn the_plan_caps_the_number_of_projects() {
    let server = server(1);
    for (plan, name) in [(Plan::Business, "business"), (Plan::Agency, "agency")] {
        let key = server.key(&format!("{name}@example.com"), name);
        let cap = plan.limits().projects.expect("capped plan");
        for index in 0..cap {
            create(&server, &key, &format!("Project number {index}")).await;
        }
        let (status, body) = server
            .call(
                Method::PUT,
                "/api/v1/projects",
                &key,
                Some(json!({"name": "One too many"})),
            )
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(
            message(&body).contains(&format!("the {name} plan allows {cap} projects")),
            "{body}"
        );
    }
    // Admin has no project cap: more than the agency cap is fine.
    let admin = server.key("root@example.com", "admin");
    assert_eq!(Plan::Admin.limits().projects, None);
    for index in 0..=Plan::Business.limits().projects.unwrap() {
        create(&server, &admin, &format!("Admin project {index}")).await;
    }
}

#[tokio::test]
async fn the_list_puts_pinned_then_active_then_newest_and_filters_by_state() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let first = create(&server, &key, "First project").await;
    let draft = create(&server, &key, "Draft project").await;
    let third = create(&server, &key, "Third project").await;
    let slug = |project: &Value| project["slug"].as_str().unwrap().to_owned();
    let (status, _) = server
        .call(
            Method::PATCH,
            &format!("/api/v1/projects/{}", slug(&draft)),
            &key,
            Some(json!({"state": "DRAFT"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // Touch the first project last: it becomes the newest ACTIVE one.
    server
        .call(
            Method::PATCH,
            &format!("/api/v1/projects/{}", slug(&first)),
            &key,
            Some(json!({"projectPurpose": "Book guests"})),
        )
        .await;
    let names = |body: &Value| -> Vec<String> {
        body["data"]["projects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, body) = server
        .call(Method::GET, "/api/v1/projects", &key, None)
        .await;
    assert_eq!(
        names(&body),
        ["First project", "Third project", "Draft project"]
    );
    let pinned = format!(
        "/api/v1/projects?pinnedIds={}",
        draft["projectId"].as_str().unwrap()
    );
    let (_, body) = server.call(Method::GET, &pinned, &key, None).await;
    assert_eq!(
        names(&body),
        ["Draft project", "First project", "Third project"]
    );
    let (_, body) = server
        .call(Method::GET, "/api/v1/projects?states=DRAFT", &key, None)
        .await;
    assert_eq!(names(&body), ["Draft project"]);
    assert_eq!(body["data"]["options"]["states"], json!(["DRAFT"]));
    let (_, body) = server
        .call(
            Method::GET,
            "/api/v1/projects?states=ACTIVE&states=DRAFT&sortBy=name",
            &key,
            None,
        )
        .await;
    assert_eq!(
        names(&body),
        ["Draft project", "First project", "Third project"]
    );
    let (status, body) = server
        .call(Method::GET, "/api/v1/projects?states=OPEN", &key, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&body).starts_with("Invalid project state \"OPEN\""));
    let _ = third;
}

#[tokio::test]
async fn update_needs_a_field_and_delete_removes_the_project() {
    let server = server(2);
    let key = server.key("ada@example.com", "business");
    let project = create(&server, &key, "Autumn guests").await;
    let path = format!("/api/v1/projects/{}", project["slug"].as_str().unwrap());
    let (status, body) = server
        .call(Method::PATCH, &path, &key, Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        message(&body),
        "At least one field must be provided to update a project"
    );
    let (status, body) = server
        .call(Method::PATCH, &path, &key, Some(json!({"name": "tiny"})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(message(&body), "Project name must be at least 6 characters");
    let (status, body) = server
        .call(Method::PATCH, &path, &key, Some(json!({"name": "Autumn guests 2", "state": "ARCHIVED", "projectKeywords": ["soil"]})))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["project"]["name"], "Autumn guests 2");
    assert_eq!(body["data"]["project"]["status"], "ARCHIVED");
    let (_, details) = server
        .call(Method::GET, &format!("{path}/details"), &key, None)
        .await;
    assert_eq!(
        details["data"]["project"]["projectKeywords"],
        json!(["soil"])
    );
    add(
        &server,
        &key,
        project["slug"].as_str().unwrap(),
        json!({"podcastId": server.podcasts[0].podcast_id}),
    )
    .await;
    let (status, _) = server.call(Method::DELETE, &path, &key, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = server
        .call(Method::GET, &format!("{path}/details"), &key, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(message(&body).starts_with("Project not found"));
    let (status, _) = server.call(Method::DELETE, &path, &key, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn listed_podcasts_record_every_change_in_their_history() {
    let server = server(3);
    let key = server.key("ada@example.com", "business");
    let project = create(&server, &key, "Garden shows").await;
    let slug = project["slug"].as_str().unwrap();
    let podcast = &server.podcasts[0];
    let (status, body) = add(
        &server,
        &key,
        slug,
        json!({"podcastId": podcast.podcast_id, "labels": ["automated"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed = &body["data"]["listedPodcast"];
    assert_eq!(
        listed["status"], "prospect",
        "a new listing defaults to prospect"
    );
    assert_eq!(listed["priority"], Value::Null);
    assert_eq!(listed["labels"], json!(["automated"]));
    assert_eq!(
        listed["podcast"]["titleOriginal"],
        podcast.podcast_rss_title
    );
    assert_eq!(listed["addedByUser"]["email"], "ada@example.com");
    assert_eq!(listed["activityHistory"][0]["actionType"], "added-to-list");
    assert_eq!(listed["activityHistory"][0]["toValue"], "prospect");
    let listed_id = listed["listedPodcastId"].as_str().unwrap().to_owned();

    let (status, body) = add(
        &server,
        &key,
        slug,
        json!({"podcastId": podcast.podcast_slug}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&body).contains("already listed"), "{body}");
    let (status, body) = add(
        &server,
        &key,
        slug,
        json!({"podcastId": server.podcasts[1].podcast_id, "state": "won"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&body).starts_with("Invalid state \"won\""));
    let (status, _) = add(&server, &key, slug, json!({"podcastId": "no-such-show"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let path = format!("/api/v1/projects/{slug}/podcasts/{listed_id}");
    let (status, body) = server
        .call(
            Method::PATCH,
            &path,
            &key,
            Some(json!({"state": "pitched", "priority": "high"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["data"]["options"],
        json!({"state": "pitched", "priority": "high"})
    );
    let (_, body) = server
        .call(
            Method::PATCH,
            &path,
            &key,
            Some(json!({"priority": null, "labels": ["automated", "guest-appearance"]})),
        )
        .await;
    let history = body["data"]["updatedListedPodcast"]["activityHistory"]
        .as_array()
        .unwrap()
        .clone();
    let steps: Vec<(String, Value, Value)> = history
        .iter()
        .map(|entry| {
            (
                entry["actionType"].as_str().unwrap().to_owned(),
                entry["fromValue"].clone(),
                entry["toValue"].clone(),
            )
        })
        .collect();
    assert_eq!(
        steps,
        vec![
            ("added-to-list".to_owned(), Value::Null, json!("prospect")),
            (
                "update-state".to_owned(),
                json!("prospect"),
                json!("pitched")
            ),
            ("update-priority".to_owned(), Value::Null, json!("high")),
            ("update-priority".to_owned(), json!("high"), Value::Null),
            (
                "update-labels".to_owned(),
                json!("automated"),
                json!("automated,guest-appearance")
            ),
        ]
    );
    assert!(
        history
            .iter()
            .all(|entry| entry["userDisplayName"] == "ada@example.com")
    );
    assert_eq!(
        body["data"]["updatedListedPodcast"]["priority"],
        Value::Null
    );
    let (status, body) = server
        .call(Method::PATCH, &path, &key, Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        message(&body),
        "At least one of state, priority or labels must be provided"
    );

    // The project list shows the counts and the newest activity first.
    let (_, body) = server
        .call(Method::GET, "/api/v1/projects", &key, None)
        .await;
    let listed_project = &body["data"]["projects"][0];
    assert_eq!(listed_project["listedPodcastsCount"], 1);
    assert_eq!(listed_project["stateCounts"]["pitched"], 1);
    assert_eq!(
        listed_project["recentActivities"][0]["type"],
        "update-labels"
    );
    assert_eq!(
        listed_project["recentActivities"][0]["podcastSlug"],
        podcast.podcast_slug
    );

    let (status, body) = server.call(Method::DELETE, &path, &key, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["data"]["listedPodcastId"], listed_id);
    let (status, _) = server.call(Method::DELETE, &path, &key, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn details_filter_by_states_and_priorities_and_sort_missing_priorities_last() {
    let server = server(4);
    let key = server.key("ada@example.com", "business");
    let slug = create(&server, &key, "Filter checks").await["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    let plan = [
        (0, "booked", Some("urgent")),
        (1, "prospect", None),
        (2, "booked", Some("low")),
        (3, "lost", Some("medium")),
    ];
    for (index, state, priority) in plan {
        let mut body = json!({"podcastId": server.podcasts[index].podcast_id, "state": state});
        if let Some(priority) = priority {
            body["priority"] = json!(priority);
        }
        assert_eq!(add(&server, &key, &slug, body).await.0, StatusCode::OK);
    }
    let listed = |body: &Value| -> Vec<(String, Value)> {
        body["data"]["project"]["listedPodcasts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["status"].as_str().unwrap().to_owned(),
                    p["priority"].clone(),
                )
            })
            .collect()
    };
    let (_, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{slug}/details"),
            &key,
            None,
        )
        .await;
    let priorities: Vec<Value> = listed(&body).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        priorities,
        [json!("low"), json!("medium"), json!("urgent"), Value::Null]
    );
    assert_eq!(body["data"]["project"]["stateCounts"]["booked"], 2);
    let (_, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{slug}/details?states=booked"),
            &key,
            None,
        )
        .await;
    assert_eq!(
        listed(&body),
        [
            ("booked".into(), json!("low")),
            ("booked".into(), json!("urgent"))
        ]
    );
    let (_, body) = server.call(Method::GET, &format!("/api/v1/projects/{slug}/details?states=booked,lost&priorities=medium&priorities=urgent"), &key, None).await;
    assert_eq!(
        listed(&body),
        [
            ("lost".into(), json!("medium")),
            ("booked".into(), json!("urgent"))
        ]
    );
    let (_, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{slug}/podcasts/details?priorities=none"),
            &key,
            None,
        )
        .await;
    assert_eq!(body["data"]["listedPodcasts"].as_array().unwrap().len(), 1);
    let (status, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{slug}/details?priorities=critical"),
            &key,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&body).contains("low, medium, high, urgent"));
}

#[tokio::test]
async fn the_plan_caps_podcasts_per_project() {
    let cap = Plan::Business
        .limits()
        .podcasts_per_project
        .expect("capped") as usize;
    let server = server(cap + 1);
    let key = server.key("ada@example.com", "business");
    let slug = create(&server, &key, "Big list here").await["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    for podcast in &server.podcasts[..cap] {
        let (status, body) = add(
            &server,
            &key,
            &slug,
            json!({"podcastId": podcast.podcast_id}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = add(
        &server,
        &key,
        &slug,
        json!({"podcastId": server.podcasts[cap].podcast_id}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        message(&body).contains(&format!(
            "the business plan allows {cap} podcasts per project"
        )),
        "{body}"
    );
}

#[tokio::test]
async fn recent_episodes_default_to_seven_days() {
    let server = server(2);
    let key = server.key("ada@example.com", "business");
    let slug = create(&server, &key, "Recent checks").await["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    for podcast in &server.podcasts {
        add(
            &server,
            &key,
            &slug,
            json!({"podcastId": podcast.podcast_id}),
        )
        .await;
    }
    let within = |days: i64| EPISODE_AGES_DAYS.iter().filter(|&&age| age <= days).count();
    let (status, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{slug}/podcasts/recent-episodes"),
            &key,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["days"], 7);
    assert_eq!(
        body["data"]["total"],
        (within(7) * server.podcasts.len()) as u64
    );
    let first = &body["data"]["podcasts"][0];
    let index = server
        .podcasts
        .iter()
        .position(|p| p.podcast_id.to_string() == first["podcastId"])
        .unwrap();
    assert_eq!(
        first["episodes"][0]["title"],
        episode_title(index, EPISODE_AGES_DAYS[0])
    );
    let (_, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{slug}/podcasts/recent-episodes?days=30"),
            &key,
            None,
        )
        .await;
    assert_eq!(
        body["data"]["total"],
        (within(30) * server.podcasts.len()) as u64
    );
    for bad in ["0", "abc", "366"] {
        let (status, body) = server
            .call(
                Method::GET,
                &format!("/api/v1/projects/{slug}/podcasts/recent-episodes?days={bad}"),
                &key,
                None,
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(message(&body).starts_with("days must be a whole number between 1 and 365"));
    }
}

#[tokio::test]
async fn one_team_cannot_see_or_change_another_teams_projects() {
    let server = server(2);
    let owner = server.key("owner@example.com", "business");
    let stranger = server.key("stranger@example.com", "business");
    let project = create(&server, &owner, "Private list").await;
    let id = project["projectId"].as_str().unwrap();
    let (_, body) = add(
        &server,
        &owner,
        id,
        json!({"podcastId": server.podcasts[0].podcast_id}),
    )
    .await;
    let listed_id = body["data"]["listedPodcast"]["listedPodcastId"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, body) = server
        .call(Method::GET, "/api/v1/projects", &stranger, None)
        .await;
    assert_eq!(body["data"]["projects"], json!([]));
    let calls = [
        (Method::GET, format!("/api/v1/projects/{id}/details"), None),
        (
            Method::PATCH,
            format!("/api/v1/projects/{id}"),
            Some(json!({"name": "Taken over"})),
        ),
        (Method::DELETE, format!("/api/v1/projects/{id}"), None),
        (
            Method::POST,
            format!("/api/v1/projects/{id}/podcasts"),
            Some(json!({"podcastId": server.podcasts[1].podcast_id})),
        ),
        (
            Method::PATCH,
            format!("/api/v1/projects/{id}/podcasts/{listed_id}"),
            Some(json!({"state": "lost"})),
        ),
        (
            Method::DELETE,
            format!("/api/v1/projects/{id}/podcasts/{listed_id}"),
            None,
        ),
        (
            Method::GET,
            format!("/api/v1/projects/{id}/podcasts/recent-episodes"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/export/project/{id}/listed-podcasts"),
            Some(json!({"columns": ["basicInfo"], "format": "csv"})),
        ),
    ];
    for (method, path, body) in calls {
        let (status, answer) = server.call(method.clone(), &path, &stranger, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {answer}");
    }
    let (_, body) = server
        .call(
            Method::GET,
            &format!("/api/v1/projects/{id}/details"),
            &owner,
            None,
        )
        .await;
    assert_eq!(body["data"]["project"]["name"], "Private list");
    assert_eq!(body["data"]["project"]["listedPodcastsCount"], 1);
}

#[tokio::test]
async fn signed_out_callers_are_refused() {
    let server = server(1);
    let (status, _, _) = server
        .raw(Method::GET, "/api/v1/projects", None, None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = server
        .raw(Method::GET, "/api/v1/projects", Some("pl_not_a_key"), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn projects_work_over_a_real_socket() {
    let server = server(1);
    let key = server.key("ada@example.com", "business");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = server
        .app
        .clone()
        .into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = reqwest::Client::new();
    let created: Value = client
        .put(format!("http://{address}/api/v1/projects"))
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json")
        .body(json!({"name": "Socket project"}).to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap();
    assert_eq!(created["status"], "OK");
    let listed: Value = client
        .get(format!("http://{address}/api/v1/projects"))
        .header("authorization", &key)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap();
    assert_eq!(listed["data"]["projects"][0]["slug"], "socket-project");
}
