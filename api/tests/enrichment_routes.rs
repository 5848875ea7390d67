//! Contacts, social profiles, ratings, authority scores and charts over the fixture's
//! enrichment, with expectations read from the crawled corpus pages and the chart
//! snapshot files themselves.

mod common;

use std::collections::HashMap;

use axum::http::StatusCode;
use chrono::{Duration, NaiveDate};
use common::fixture::enrichment::{
    CHART_DAYS, CHART_GAP_OFFSET, RATED_COUNT, RATED_RATING, chart_start,
};
use common::*;
use serde_json::Value;

/// Positions by title of a chart snapshot file, or `None` when there is no file.
fn raw_chart(
    chart_type: &str,
    country: &str,
    category: &str,
    day: NaiveDate,
) -> Option<HashMap<String, u64>> {
    let path = shared()
        .fixture
        .enrichment
        .charts_dir
        .join(chart_type)
        .join(country)
        .join(category.replace(' ', "-"))
        .join(format!("{day}.json"));
    let text = std::fs::read_to_string(path).ok()?;
    let value: Value = serde_json::from_str(&text).expect("snapshot json");
    Some(
        value["positions"]
            .as_array()
            .expect("positions")
            .iter()
            .map(|p| {
                (
                    p["title"].as_str().unwrap().to_owned(),
                    p["position"].as_u64().unwrap(),
                )
            })
            .collect(),
    )
}

fn last_day() -> NaiveDate {
    chart_start() + Duration::days(CHART_DAYS - 1)
}

/// Decodes `%xx` escapes (the corpus page obfuscates its address that way).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

fn site_of(index: usize) -> (uuid::Uuid, String) {
    let id = shared().fixture.batches[index].podcast.podcast_id;
    let page = std::fs::read_to_string(&shared().fixture.enrichment.sites[&id]).unwrap();
    (id, page)
}

#[tokio::test]
async fn contacts_hold_the_address_of_the_crawled_page_and_count_against_the_plan() {
    let (state, _dir) = state();
    let business = key(&state, "contacts@example.com", "business");
    let admin = key(&state, "contacts-admin@example.com", "admin");
    let app = podlens_api::app(state);
    let (id, page) = site_of(0);
    let mailto = regex::Regex::new(r#"mailto:([^"?]+)"#).unwrap();
    let expected: Vec<String> = mailto
        .captures_iter(&page)
        .map(|c| percent_decode(&c[1]).to_lowercase())
        .collect();
    assert!(!expected.is_empty(), "the page has a mailto link");

    let reply = get(
        &app,
        &format!("/api/v1/podcasts/{id}/contacts"),
        Some(&business),
    )
    .await;
    assert_eq!(reply.headers["x-usage-count"], "1");
    let data = ok_data(&reply);
    assert_eq!(data["podcast"]["id"], id.to_string());
    let emails: Vec<String> = data["podcastContacts"]["emails"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["email"].as_str().unwrap().to_lowercase())
        .collect();
    for address in &expected {
        assert!(emails.contains(address), "{address} in {emails:?}");
    }
    let websites = data["podcastContacts"]["websites"].as_array().unwrap();
    assert!(
        websites[0]["url"]
            .as_str()
            .unwrap()
            .ends_with("metascraper_transistor.fm.html"),
        "{websites:?}"
    );

    // Business has 10 advanced contacts a month: the 11th call is refused.
    for _ in 1..10 {
        let reply = get(
            &app,
            &format!("/api/v1/podcasts/{id}/contacts"),
            Some(&business),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    let refused = get(
        &app,
        &format!("/api/v1/podcasts/{id}/contacts"),
        Some(&business),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert_eq!(refused.headers["x-ratelimit-limit"], "10");
    // Admin is unlimited and sees the same contacts.
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/{id}/contacts"),
        Some(&admin),
    )
    .await;
    assert_eq!(
        ok_data(&reply)["podcastContacts"]["podcastId"],
        id.to_string()
    );
    let missing = get(&app, "/api/v1/podcasts/no-such-show/contacts", Some(&admin)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(
        missing.body["data"]["message"], "Podcast not found: no-such-show",
        "{}",
        missing.text
    );
}

#[tokio::test]
async fn social_profiles_are_links_of_the_crawled_page_with_their_source() {
    let (state, _dir) = state();
    let key = key(&state, "social@example.com", "business");
    let app = podlens_api::app(state);
    let (id, page) = site_of(1);
    let instagram = regex::Regex::new(r"https://instagram\.com/([A-Za-z0-9_.]+)").unwrap();
    let handles: Vec<String> = instagram
        .captures_iter(&page)
        .map(|c| c[1].to_lowercase())
        .collect();
    assert!(!handles.is_empty());
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/{id}/social-media"),
        Some(&key),
    )
    .await;
    let data = ok_data(&reply);
    let links = data["socialMediaData"]["socialMediaLinks"]
        .as_array()
        .unwrap();
    assert!(!links.is_empty());
    let lowered_page = page.to_lowercase();
    for link in links {
        assert_eq!(link["sources"], serde_json::json!(["podcast-website"]));
        let url = link["url"].as_str().unwrap().to_lowercase();
        let path = url
            .split("://")
            .nth(1)
            .unwrap()
            .trim_start_matches("www.")
            .trim_end_matches('/');
        let handle = path.rsplit('/').next().unwrap();
        assert!(lowered_page.contains(handle), "{url} comes from the page");
    }
    assert!(links.iter().any(|link| {
        link["socialMediaType"] == "instagram"
            && handles
                .iter()
                .any(|h| link["url"].as_str().unwrap().to_lowercase().contains(h))
    }));
}

#[tokio::test]
async fn authority_scores_are_the_weighted_sum_of_their_sub_scores() {
    let (state, _dir) = state();
    let key = key(&state, "score@example.com", "business");
    let app = podlens_api::app(state);
    for batch in &shared().fixture.batches {
        let id = batch.podcast.podcast_id;
        let reply = get(
            &app,
            &format!("/api/v1/podcasts/authority-score/{id}"),
            Some(&key),
        )
        .await;
        let score = ok_data(&reply)["podcastAuthorityScore"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&score));
        let reply = get(
            &app,
            &format!("/api/v1/podcasts/authority-score/{id}/details"),
            Some(&key),
        )
        .await;
        let details = ok_data(&reply);
        assert_eq!(details["podcastId"], id.to_string());
        let parts = ["quality", "social", "youtube", "engagement"];
        let weights: f64 = parts
            .iter()
            .map(|p| details["subScores"][p]["weight"].as_f64().unwrap())
            .sum();
        assert!((weights - 1.0).abs() < 1e-9, "weights add up to 1");
        let total: f64 = parts
            .iter()
            .map(|p| {
                details["subScores"][p]["score"].as_f64().unwrap()
                    * details["subScores"][p]["weight"].as_f64().unwrap()
            })
            .sum();
        assert!((total - score).abs() < 1e-6, "{total} vs {score}");
        assert_eq!(details["finalScore"].as_f64().unwrap(), score);
        // The episode count input is the feed's.
        assert_eq!(
            details["inputs"]["episodeCount"].as_u64().unwrap(),
            batch.episodes.len() as u64
        );
    }
    let missing = get(
        &app,
        "/api/v1/podcasts/authority-score/nothing-here",
        Some(&key),
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn reviews_carry_the_imported_apple_rating() {
    let (state, _dir) = state();
    let key = key(&state, "reviews@example.com", "business");
    let app = podlens_api::app(state);
    let rated = shared().fixture.enrichment.rated_podcast;
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/{rated}/reviews"),
        Some(&key),
    )
    .await;
    let review = &ok_data(&reply)["podcastReviews"]["applePodcastsReview"];
    assert_eq!(review["rating"].as_f64().unwrap(), RATED_RATING);
    assert_eq!(review["reviewsCount"].as_u64().unwrap(), RATED_COUNT);
    let other = shared().fixture.batches[0].podcast.podcast_id;
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/{other}/reviews"),
        Some(&key),
    )
    .await;
    assert!(ok_data(&reply)["podcastReviews"]["applePodcastsReview"].is_null());
}

#[tokio::test]
async fn chart_countries_categories_and_bad_chart_types() {
    let (state, _dir) = state();
    let key = key(&state, "charts@example.com", "business");
    let app = podlens_api::app(state);
    let reply = get(&app, "/api/v1/charts/apple/countries", Some(&key)).await;
    assert_eq!(ok_data(&reply)["countries"], serde_json::json!(["us"]));
    let reply = get(&app, "/api/v1/charts/spotify/categories", Some(&key)).await;
    assert_eq!(ok_data(&reply)["categories"], serde_json::json!(["comedy"]));
    let bad = get(&app, "/api/v1/charts/deezer/countries", Some(&key)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad.body["data"]["message"], "chartType must be apple or spotify, got \"deezer\"",
        "{}",
        bad.text
    );
}

#[tokio::test]
async fn the_latest_chart_matches_its_snapshot_file_and_the_day_before() {
    let (state, _dir) = state();
    let key = key(&state, "latest@example.com", "business");
    let app = podlens_api::app(state);
    let reply = get(
        &app,
        "/api/v1/charts/latest?chartType=apple&country=us&category=top%20podcasts",
        Some(&key),
    )
    .await;
    let chart = &ok_data(&reply)["chart"];
    let day = last_day();
    assert_eq!(chart["chart"]["chartDate"], day.to_string());
    let today = raw_chart("apple", "us", "top podcasts", day).unwrap();
    let before = raw_chart("apple", "us", "top podcasts", day - Duration::days(1)).unwrap();
    let positions = chart["positions"].as_array().unwrap();
    assert_eq!(positions.len(), today.len());
    assert_eq!(chart["chart"]["unresolvedPositions"], 2);
    for position in positions {
        let title = position["podcastOnChart"]["title"].as_str().unwrap();
        assert_eq!(position["position"].as_u64().unwrap(), today[title]);
        let expected_movement = match before.get(title) {
            None => "entered",
            Some(earlier) if *earlier > today[title] => "up",
            Some(earlier) if *earlier < today[title] => "down",
            Some(_) => "unchanged",
        };
        assert_eq!(position["movement"], expected_movement, "{title}");
        assert_eq!(
            position["previousPosition"].as_u64(),
            before.get(title).copied()
        );
        // 30 days of history end with today's position.
        let history = position["history30d"].as_array().unwrap();
        assert_eq!(history.len(), 30);
        assert_eq!(history[29].as_u64().unwrap(), today[title]);
        let charted = (0..CHART_DAYS)
            .filter_map(|offset| {
                raw_chart(
                    "apple",
                    "us",
                    "top podcasts",
                    chart_start() + Duration::days(offset),
                )
            })
            .filter(|chart| chart.contains_key(title))
            .count();
        assert_eq!(position["daysCharted30d"].as_u64().unwrap(), charted as u64);
    }
}

#[tokio::test]
async fn availability_and_comparison_across_the_missing_day() {
    let (state, _dir) = state();
    let key = key(&state, "gap@example.com", "business");
    let app = podlens_api::app(state);
    let gap = chart_start() + Duration::days(CHART_GAP_OFFSET);
    assert!(raw_chart("apple", "us", "top podcasts", gap).is_none());
    let reply = get(
        &app,
        &format!("/api/v1/charts/availability?date={gap}"),
        Some(&key),
    )
    .await;
    let availability = &ok_data(&reply)["availability"];
    assert_eq!(availability["selectedDateAvailable"], false);
    assert_eq!(
        availability["previousChartDate"],
        (gap - Duration::days(1)).to_string()
    );
    assert_eq!(
        availability["nextChartDate"],
        (gap + Duration::days(1)).to_string()
    );
    assert_eq!(availability["earliestChartDate"], chart_start().to_string());
    assert_eq!(availability["latestChartDate"], last_day().to_string());

    // The day after the gap has nothing to compare with one day earlier.
    let after = gap + Duration::days(1);
    let reply = get(
        &app,
        &format!("/api/v1/charts?date={after}&compare=1d"),
        Some(&key),
    )
    .await;
    let chart = &ok_data(&reply)["chart"];
    assert_eq!(chart["chart"]["comparisonStatus"], "unavailable");
    assert_eq!(
        chart["chart"]["comparisonUnavailableReason"],
        "no_earlier_chart"
    );
    assert!(
        chart["positions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["movement"] == "unknown")
    );
    let reply = get(&app, &format!("/api/v1/charts?date={gap}"), Some(&key)).await;
    assert!(ok_data(&reply)["chart"].is_null());
    let bad = get(&app, "/api/v1/charts?date=yesterday", Some(&key)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad.body["data"]["message"],
        "date must be a date (YYYY-MM-DD), got \"yesterday\""
    );
}

#[tokio::test]
async fn movement_lists_follow_the_two_snapshot_files() {
    let (state, _dir) = state();
    let key = key(&state, "movers@example.com", "business");
    let app = podlens_api::app(state);
    let day = last_day();
    let today = raw_chart("apple", "us", "top podcasts", day).unwrap();
    let before = raw_chart("apple", "us", "top podcasts", day - Duration::days(1)).unwrap();
    let reply = get(&app, "/api/v1/charts/movement?limit=50", Some(&key)).await;
    let movement = &ok_data(&reply)["movement"];
    let titles = |list: &str| -> Vec<String> {
        let mut titles: Vec<String> = movement[list]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["title"].as_str().unwrap().to_owned())
            .collect();
        titles.sort();
        titles
    };
    let mut entered: Vec<String> = today
        .keys()
        .filter(|t| !before.contains_key(*t))
        .cloned()
        .collect();
    let mut dropped: Vec<String> = before
        .keys()
        .filter(|t| !today.contains_key(*t))
        .cloned()
        .collect();
    let mut climbers: Vec<String> = today
        .iter()
        .filter(|(t, p)| before.get(*t).is_some_and(|b| b > p))
        .map(|(t, _)| t.clone())
        .collect();
    let mut fallers: Vec<String> = today
        .iter()
        .filter(|(t, p)| before.get(*t).is_some_and(|b| b < p))
        .map(|(t, _)| t.clone())
        .collect();
    for list in [&mut entered, &mut dropped, &mut climbers, &mut fallers] {
        list.sort();
    }
    assert_eq!(titles("newEntries"), entered);
    assert_eq!(titles("droppedOff"), dropped);
    assert_eq!(titles("climbers"), climbers);
    assert_eq!(titles("fallers"), fallers);
    assert!(!entered.is_empty() || !dropped.is_empty());
}

#[tokio::test]
async fn a_podcasts_charts_and_history_match_the_files() {
    let (state, _dir) = state();
    let key = key(&state, "podcast-charts@example.com", "business");
    let app = podlens_api::app(state);
    let batch = &shared().fixture.batches[0];
    let title = batch.podcast.podcast_rss_title.clone();
    let day = last_day();
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/{}/charts", batch.podcast.podcast_slug),
        Some(&key),
    )
    .await;
    let data = ok_data(&reply);
    let mut expected = Vec::new();
    if let Some(p) =
        raw_chart("apple", "us", "top podcasts", day).and_then(|c| c.get(&title).copied())
    {
        expected.push(("apple", p));
    }
    if let Some(p) = raw_chart("spotify", "gb", "comedy", day).and_then(|c| c.get(&title).copied())
    {
        expected.push(("spotify", p));
    }
    assert_eq!(data["totalCharts"].as_u64().unwrap(), expected.len() as u64);
    for (chart_type, position) in expected {
        assert!(
            data["positions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["chartType"] == chart_type
                    && p["position"].as_u64() == Some(position)
                    && p["chartDate"] == day.to_string()),
            "{chart_type} {position}: {data}"
        );
    }

    // The fourth podcast is off the chart on even days.
    let off = &shared().fixture.batches[3];
    let reply = get(
        &app,
        &format!(
            "/api/v1/charts/podcast-history?identityType=podcast&podcastIdOrSlug={}&range=30d",
            off.podcast.podcast_id
        ),
        Some(&key),
    )
    .await;
    let history = &ok_data(&reply)["history"];
    let days_on_chart = (0..CHART_DAYS)
        .filter_map(|offset| {
            raw_chart(
                "apple",
                "us",
                "top podcasts",
                chart_start() + Duration::days(offset),
            )
        })
        .filter(|chart| chart.contains_key(&off.podcast.podcast_rss_title))
        .count();
    assert_eq!(
        history["stats"]["daysOnChart"].as_u64().unwrap(),
        days_on_chart as u64
    );
    assert_eq!(history["series"]["resolution"], "daily");
    assert_eq!(
        history["identity"]["podcastId"],
        off.podcast.podcast_id.to_string()
    );
    let missing = get(
        &app,
        "/api/v1/charts/podcast-history?identityType=podcast",
        Some(&key),
    )
    .await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        missing.body["data"]["message"],
        "podcastIdOrSlug is required when identityType is podcast"
    );
}

/// Regression: a scored, crawled podcast's details said `authorityScore: null` and no
/// social profiles while `/authority-score/{id}` and `/{id}/social-media` had them. For
/// every podcast, the details, the details by feed URL and the full details of
/// `/podcasts/multiple` agree with the two sub-endpoints.
#[tokio::test]
async fn podcast_details_agree_with_their_score_and_social_endpoints() {
    let (state, _dir) = state();
    let key = key(&state, "one-truth@example.com", "business");
    let app = podlens_api::app(state);
    let mut scored = 0;
    let mut with_socials = 0;
    for batch in &shared().fixture.batches {
        let id = batch.podcast.podcast_id;
        let score = get(
            &app,
            &format!("/api/v1/podcasts/authority-score/{id}"),
            Some(&key),
        )
        .await;
        let score = ok_data(&score)["podcastAuthorityScore"].as_f64();
        let socials = get(
            &app,
            &format!("/api/v1/podcasts/{id}/social-media"),
            Some(&key),
        )
        .await;
        let socials = ok_data(&socials)["socialMediaData"]["socialMediaLinks"].clone();
        let feed_url = url_escape(&batch.podcast.podcast_rss_feed_url);
        let multiple = get(
            &app,
            &format!("/api/v1/podcasts/multiple?podcastIds={id}&details=full"),
            Some(&key),
        )
        .await;
        let details = [
            ok_data(&get(&app, &format!("/api/v1/podcasts/{id}"), Some(&key)).await)["podcast"]
                .clone(),
            ok_data(
                &get(
                    &app,
                    &format!("/api/v1/podcasts/by-feed-url?rssFeedUrl={feed_url}"),
                    Some(&key),
                )
                .await,
            )["podcast"]
                .clone(),
            ok_data(&multiple)["podcasts"][0].clone(),
        ];
        for podcast in details {
            assert_eq!(
                podcast["authorityScore"]["authorityScore"].as_f64(),
                score,
                "{id}: {podcast}"
            );
            assert_eq!(podcast["socialMediaLinks"], socials, "{id}");
        }
        scored += usize::from(score.is_some());
        with_socials += usize::from(socials.as_array().is_some_and(|links| !links.is_empty()));
    }
    assert!(scored >= 2 && with_socials >= 1, "{scored} {with_socials}");
}

/// `%`-escapes what a query value cannot hold as is.
fn url_escape(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}
