//! Every implemented route's happy path over the fixture catalog, with expectations
//! taken from the feeds themselves.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

fn item_count(feed: &str) -> usize {
    let text = std::fs::read_to_string(fixture::corpus_dir().join("feeds").join(feed)).unwrap();
    regex::Regex::new(r"<item[\s>]")
        .unwrap()
        .find_iter(&text)
        .count()
}

#[tokio::test]
async fn podcast_details_by_id_and_slug_match_the_feed() {
    let (state, _dir) = state();
    let key = key(&state, "a@example.com", "business");
    let app = podlens_api::app(state);
    let batch = &shared().fixture.batches[0];
    for id in [
        batch.podcast.podcast_id.to_string(),
        batch.podcast.podcast_slug.clone(),
    ] {
        let reply = get(&app, &format!("/api/v1/podcasts/{id}"), Some(&key)).await;
        let podcast = &ok_data(&reply)["podcast"];
        assert_eq!(podcast["id"], batch.podcast.podcast_id.to_string());
        assert_eq!(podcast["title"], batch.podcast.podcast_rss_title);
        assert_eq!(podcast["rssFeedUrl"], batch.podcast.podcast_rss_feed_url);
        assert_eq!(
            podcast["stats"]["episodeCount"],
            batch.episodes.len() as u64
        );
    }
    let missing = get(&app, "/api/v1/podcasts/no-such-podcast", Some(&key)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn episodes_listing_counts_every_item_of_the_feed() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let feed = fixture::FIXTURE_FEEDS[0];
    let batch = &shared().fixture.batches[0];
    let items = item_count(feed);
    let reply = get(
        &app,
        &format!(
            "/api/v1/podcasts/{}/episodes?limit=100",
            batch.podcast.podcast_slug
        ),
        None,
    )
    .await;
    let data = ok_data(&reply);
    assert_eq!(data["totalEpisodes"], items as u64, "{feed}");
    let episodes = data["podcastWithEpisodes"]["episodes"].as_array().unwrap();
    assert_eq!(episodes.len(), items.min(100));
    let too_many = get(
        &app,
        &format!(
            "/api/v1/podcasts/{}/episodes?limit=101",
            batch.podcast.podcast_slug
        ),
        None,
    )
    .await;
    assert_eq!(too_many.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn id_lookup_applies_the_one_of_rule() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let batch = &shared().fixture.batches[1];
    let reply = get(
        &app,
        &format!(
            "/api/v1/podcasts/id/lookup?slug={}",
            batch.podcast.podcast_slug
        ),
        None,
    )
    .await;
    assert_eq!(
        ok_data(&reply)["podcast"]["id"],
        batch.podcast.podcast_id.to_string()
    );
    let both = get(
        &app,
        &format!(
            "/api/v1/podcasts/id/lookup?slug={}&podEngineId={}",
            batch.podcast.podcast_slug, batch.podcast.podcast_id
        ),
        None,
    )
    .await;
    assert_eq!(both.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        both.body["data"]["message"],
        "Only one of appleId, slug, spotifyId, or podlensId can be provided"
    );
    let unknown = get(&app, "/api/v1/podcasts/id/lookup?slug=nothing-here", None).await;
    assert_eq!(ok_data(&unknown)["podcast"], serde_json::Value::Null);
}

#[tokio::test]
async fn by_feed_url_multiple_and_latest() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let batches = &shared().fixture.batches;
    let url = &batches[2].podcast.podcast_rss_feed_url;
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/by-feed-url?rssFeedUrl={}", urlencode(url)),
        None,
    )
    .await;
    assert_eq!(
        ok_data(&reply)["podcast"]["id"],
        batches[2].podcast.podcast_id.to_string()
    );

    let ids: Vec<String> = batches
        .iter()
        .take(3)
        .map(|b| b.podcast.podcast_id.to_string())
        .collect();
    let query: Vec<String> = ids.iter().map(|id| format!("podcastIds={id}")).collect();
    let reply = get(
        &app,
        &format!("/api/v1/podcasts/multiple?{}&details=full", query.join("&")),
        None,
    )
    .await;
    let data = ok_data(&reply);
    assert_eq!(data["totalFound"], 3);
    let returned: Vec<&str> = data["podcasts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(returned, ids.iter().map(String::as_str).collect::<Vec<_>>());

    let latest = get(&app, "/api/v1/podcasts/latest", None).await;
    let podcasts = ok_data(&latest)["podcasts"].as_array().unwrap().clone();
    assert!(!podcasts.is_empty());
    let dates: Vec<&str> = podcasts
        .iter()
        .filter_map(|p| p["lastEpisodePublishedAt"].as_str())
        .collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted, "latest podcasts come newest first");
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// The longest word of `text`, lowercased: a word distinctive enough to search for.
fn longest_word(text: &str) -> String {
    text.split_whitespace()
        .max_by_key(|word| word.len())
        .unwrap()
        .to_lowercase()
}

#[tokio::test]
async fn search_finds_a_podcast_by_a_word_of_its_title() {
    let (state, _dir) = state();
    let key = key(&state, "s@example.com", "business");
    let app = podlens_api::app(state);
    let batch = &shared().fixture.batches[0];
    let word = longest_word(&batch.podcast.podcast_rss_title);
    let body = json!({"searchTerms": [{"searchTerm": word, "searchType": "text",
        "searchTargets": ["podcast-title"], "searchTermOptions": {"matchMode": "must"}}]});
    let reply = post(&app, "/api/v1/search/podcasts", Some(&key), body).await;
    let data = ok_data(&reply);
    assert_eq!(data["searchMode"], "podcasts");
    assert!(uuid::Uuid::parse_str(data["searchId"].as_str().unwrap()).is_ok());
    let ids: Vec<&str> = data["result"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["podcastId"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&batch.podcast.podcast_id.to_string().as_str()),
        "{word}: {}",
        reply.text
    );
}

#[tokio::test]
async fn episode_search_pages_with_a_cursor_without_repeats() {
    let (state, _dir) = state();
    let key = key(&state, "e@example.com", "admin");
    let app = podlens_api::app(state);
    let body = |cursor: Option<&str>| {
        let mut options = json!({"hasTranscript": false, "pageSize": 5});
        if let Some(cursor) = cursor {
            options["cursor"] = json!(cursor);
        }
        options
    };
    let first = post(&app, "/api/v1/search/episodes", Some(&key), body(None)).await;
    let first_data = ok_data(&first).clone();
    assert_eq!(first_data["searchMode"], "episodes");
    let cursor = first_data["cursor"]
        .as_str()
        .expect("more pages")
        .to_owned();
    let second = post(
        &app,
        "/api/v1/search/episodes",
        Some(&key),
        body(Some(&cursor)),
    )
    .await;
    let second_data = ok_data(&second);
    let ids = |data: &serde_json::Value| -> Vec<String> {
        data["result"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["episodeId"].as_str().unwrap().to_owned())
            .collect()
    };
    let (a, b) = (ids(&first_data), ids(second_data));
    assert_eq!(a.len(), 5);
    assert!(a.iter().all(|id| !b.contains(id)), "pages overlap");
}

#[tokio::test]
async fn episode_details_transcripts_and_downloads() {
    let (state, _dir) = state();
    let key = key(&state, "t@example.com", "business");
    let app = podlens_api::app(state);
    let episode_id = shared().fixture.transcript_episode_id;
    let reply = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/details"),
        None,
    )
    .await;
    assert_eq!(
        ok_data(&reply)["episode"]["episodeId"],
        episode_id.to_string()
    );

    let source = std::fs::read_to_string(
        fixture::corpus_dir()
            .join("transcripts")
            .join(fixture::FIXTURE_TRANSCRIPT),
    )
    .unwrap();
    let cue_count = regex::Regex::new(r"-->")
        .unwrap()
        .find_iter(&source)
        .count();

    let text = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/transcript-text"),
        Some(&key),
    )
    .await;
    let text_value = ok_data(&text)["episodeTranscriptText"]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!text_value.is_empty());
    // The SDK documents transcript-text and transcript-timestamps as one transcript
    // download each (they were free, while download/transcript was charged); their
    // previews are free.
    assert_eq!(text.headers["x-usage-count"], "1");
    for preview in ["transcript-text/preview", "transcript-timestamps/preview"] {
        let reply = get(
            &app,
            &format!("/api/v1/episodes/{episode_id}/{preview}"),
            Some(&key),
        )
        .await;
        ok_data(&reply);
        assert!(reply.headers.get("x-usage-count").is_none(), "{preview}");
    }
    let signed_out = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/transcript-text"),
        None,
    )
    .await;
    assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);

    let stamps = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/transcript-timestamps"),
        Some(&key),
    )
    .await;
    assert_eq!(
        ok_data(&stamps)["sentences"].as_array().unwrap().len(),
        cue_count
    );
    assert_eq!(stamps.headers["x-usage-count"], "2");

    let txt = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/download/transcript?format=txt"),
        Some(&key),
    )
    .await;
    assert_eq!(txt.status, StatusCode::OK);
    assert_eq!(txt.text, text_value);
    let vtt = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/download/transcript?format=vtt"),
        Some(&key),
    )
    .await;
    assert!(vtt.text.starts_with("WEBVTT"));
    assert_eq!(
        regex::Regex::new(r"-->")
            .unwrap()
            .find_iter(&vtt.text)
            .count(),
        cue_count
    );
    let bad = get(
        &app,
        &format!("/api/v1/episodes/{episode_id}/download/transcript?format=pdf"),
        Some(&key),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    let usage = get(&app, "/api/v1/teams/usage/current", Some(&key)).await;
    let downloads = ok_data(&usage)["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|alias| alias["alias"] == "transcriptDownloadCount")
        .unwrap()
        .clone();
    assert_eq!(downloads["used"], 4, "text, timestamps, txt and vtt");
}

#[tokio::test]
async fn latest_episodes_autocomplete_stats_and_related() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let latest = get(&app, "/api/v1/episodes/latest?language=all", None).await;
    let groups = ok_data(&latest)["latestPodcasts"]
        .as_array()
        .unwrap()
        .clone();
    let total: usize = groups
        .iter()
        .map(|g| g["episodes"].as_array().unwrap().len())
        .sum();
    assert!(total > 0 && total <= 150, "{total}");

    let batch = &shared().fixture.batches[0];
    let prefix: String = batch.podcast.podcast_rss_title.chars().take(4).collect();
    let auto = get(
        &app,
        &format!(
            "/api/v1/autocomplete/podcasts?query={}",
            prefix.to_lowercase()
        ),
        None,
    )
    .await;
    let data = ok_data(&auto);
    assert!(data["words"].is_array());
    assert!(
        data["podcasts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == batch.podcast.podcast_id.to_string()),
        "{}",
        auto.text
    );

    let stats = get(&app, "/api/v1/rss/stats/public/podcast2", None).await;
    let feeds = ok_data(&stats)["podcast2Stats"]["podcastLevelStats"]["totalRssFeeds"]
        .as_u64()
        .unwrap();
    assert_eq!(feeds, shared().fixture.batches.len() as u64);

    let related = get(
        &app,
        &format!(
            "/api/v1/podcasts/{}/related-podcasts",
            batch.podcast.podcast_id
        ),
        None,
    )
    .await;
    let related_data = ok_data(&related);
    assert!(
        related_data["relatedPodcasts"]["similarPodcasts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["id"] != batch.podcast.podcast_id.to_string())
    );
}

#[tokio::test]
async fn team_podcasts_can_be_added_flagged_listed_and_removed() {
    let (state, _dir) = state();
    let key = key(&state, "team@example.com", "agency");
    let app = podlens_api::app(state);
    let podcast_id = shared().fixture.batches[3].podcast.podcast_id.to_string();
    let added = call(
        &app,
        "PUT",
        &format!("/api/v1/teams/podcasts/{podcast_id}"),
        Some(&key),
        Some(json!({"sync": true})),
    )
    .await;
    let team_podcast = &ok_data(&added)["teamPodcast"];
    assert_eq!(team_podcast["sync"], true);
    assert_eq!(team_podcast["blacklist"], false);
    let flagged = call(
        &app,
        "PUT",
        &format!("/api/v1/teams/podcasts/{podcast_id}"),
        Some(&key),
        Some(json!({"blacklist": true})),
    )
    .await;
    let flagged = &ok_data(&flagged)["teamPodcast"];
    assert_eq!(
        (flagged["sync"].clone(), flagged["blacklist"].clone()),
        (json!(true), json!(true))
    );
    let listed = get(
        &app,
        "/api/v1/teams/podcasts?blacklist=true&limit=10&offset=0",
        Some(&key),
    )
    .await;
    assert_eq!(ok_data(&listed)["totalFiltered"], 1);
    let removed = call(
        &app,
        "DELETE",
        &format!("/api/v1/teams/podcasts/{podcast_id}"),
        Some(&key),
        None,
    )
    .await;
    ok_data(&removed);
    let listed = get(&app, "/api/v1/teams/podcasts", Some(&key)).await;
    assert_eq!(ok_data(&listed)["total"], 0);
}

#[tokio::test]
async fn the_server_answers_over_a_real_socket() {
    let (state, _dir) = state();
    let app = podlens_api::app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = reqwest::Client::new();
    let health = client
        .get(format!("http://{address}/api/v1/public/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let bad = client
        .get(format!("http://{address}/api/v1/podcasts/latest"))
        .header("authorization", "Bearer nope")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 401);
    let body: serde_json::Value = serde_json::from_slice(&bad.bytes().await.unwrap()).unwrap();
    assert_eq!(body["data"]["message"], "Invalid authorization token");
}

#[tokio::test]
async fn a_blacklisted_podcast_is_left_out_of_the_teams_searches_only() {
    let (state, _dir) = state();
    let other = key(&state, "sees@example.com", "business");
    let key = key(&state, "blocks@example.com", "business");
    let app = podlens_api::app(state);
    let batch = &shared().fixture.batches[0];
    let podcast_id = batch.podcast.podcast_id.to_string();
    let word = longest_word(&batch.podcast.podcast_rss_title);
    let episode_word = longest_word(&batch.episodes[0].episode_rss_title);
    let podcast_search = json!({"searchTerms": [{"searchTerm": word, "searchType": "text",
        "searchTargets": ["podcast-title"], "searchTermOptions": {"matchMode": "must"}}]});
    let episode_search = json!({"searchTerms": [{"searchTerm": episode_word, "searchType": "text",
        "searchTargets": ["episode-title"], "searchTermOptions": {"matchMode": "must"}}],
        "includePodcastIds": [podcast_id]});
    let podcast_ids = |reply: &Reply| -> Vec<String> {
        ok_data(reply)["result"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|hit| hit["podcastId"].as_str().unwrap().to_owned())
            .collect()
    };
    let found = |key: &str, path: &'static str, body: &serde_json::Value| {
        let (app, key, body) = (app.clone(), key.to_owned(), body.clone());
        async move { post(&app, path, Some(&key), body).await }
    };
    let before = found(&key, "/api/v1/search/podcasts", &podcast_search).await;
    assert!(
        podcast_ids(&before).contains(&podcast_id),
        "{}",
        before.text
    );
    let before = found(&key, "/api/v1/search/episodes", &episode_search).await;
    assert!(
        podcast_ids(&before).contains(&podcast_id),
        "{}",
        before.text
    );

    let path = format!("/api/v1/teams/podcasts/{podcast_id}");
    let blacklist = |flag: bool| {
        let (app, key, path) = (app.clone(), key.clone(), path.clone());
        async move {
            let reply = call(
                &app,
                "PUT",
                &path,
                Some(&key),
                Some(json!({"blacklist": flag})),
            )
            .await;
            ok_data(&reply);
        }
    };
    blacklist(true).await;
    for (endpoint, body) in [
        ("/api/v1/search/podcasts", &podcast_search),
        ("/api/v1/search/episodes", &episode_search),
    ] {
        let hidden = found(&key, endpoint, body).await;
        assert!(
            !podcast_ids(&hidden).contains(&podcast_id),
            "{endpoint}: {}",
            hidden.text
        );
        let elsewhere = found(&other, endpoint, body).await;
        assert!(
            podcast_ids(&elsewhere).contains(&podcast_id),
            "another team still finds it at {endpoint}"
        );
    }

    blacklist(false).await;
    let back = found(&key, "/api/v1/search/podcasts", &podcast_search).await;
    assert!(podcast_ids(&back).contains(&podcast_id), "{}", back.text);
}

/// Regression: the public cursor was `"{served}.{engine}"`, so editing the count paged
/// past the plan's maximum results per search (a cursor starting `0.` gave 10 more
/// after 100), and a malformed cursor answered 500 after the search was charged. A
/// cursor is signed and bound to its search and caller: an edited, foreign or garbage
/// cursor is a 400 before anything is charged.
#[tokio::test]
async fn tampered_cursors_are_refused_before_anything_is_charged() {
    let (state, _dir) = state();
    let one = key(&state, "cursor-one@example.com", "admin");
    let other = key(&state, "cursor-other@example.com", "admin");
    let app = podlens_api::app(state);
    let term = |word: &str| {
        json!([{"searchTerm": word, "searchType": "text",
                "searchTargets": ["episode-title", "episode-description"]}])
    };
    let body = |cursor: Option<&str>, page_size: u64| {
        let mut options = json!({"searchTerms": term("linux"), "pageSize": page_size});
        if let Some(cursor) = cursor {
            options["cursor"] = json!(cursor);
        }
        options
    };
    // two pages of 5
    let first = post(&app, "/api/v1/search/episodes", Some(&one), body(None, 5)).await;
    let cursor = ok_data(&first)["cursor"]
        .as_str()
        .expect("a second page")
        .to_owned();
    let second = post(
        &app,
        "/api/v1/search/episodes",
        Some(&one),
        body(Some(&cursor), 5),
    )
    .await;
    assert_eq!(
        ok_data(&second)["result"]["hits"].as_array().unwrap().len(),
        5
    );
    let charged = searches_used(&app, &one).await;
    assert_eq!(charged, 2, "both pages are counted");

    let mut refused = vec![
        "0.AAAA".to_owned(),
        "not a cursor".to_owned(),
        String::new(),
        format!("0.{cursor}"),
    ];
    // every character of the real cursor changed in turn
    for at in [0, cursor.len() / 2, cursor.len() - 1] {
        let mut bytes = cursor.clone().into_bytes();
        bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
        refused.push(String::from_utf8(bytes).unwrap());
    }
    for bad in &refused {
        let reply = post(
            &app,
            "/api/v1/search/episodes",
            Some(&one),
            body(Some(bad), 5),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{bad}: {}",
            reply.text
        );
        assert!(reply.text.contains("Invalid cursor"), "{}", reply.text);
    }
    // another search's cursor, another team's
    let changed = json!({"searchTerms": term("unplugged"), "pageSize": 5, "cursor": cursor});
    let reply = post(&app, "/api/v1/search/episodes", Some(&one), changed).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    let reply = post(
        &app,
        "/api/v1/search/episodes",
        Some(&other),
        body(Some(&cursor), 5),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    assert_eq!(
        searches_used(&app, &one).await,
        charged,
        "nothing charged for a bad cursor"
    );
}

/// The directory a reader's own way: a title files under its first letter after a
/// leading English article, ASCII letters as themselves, anything else under `0`.
fn expected_letter(title: &str) -> Option<char> {
    let lower = title.trim().to_lowercase();
    let rest = ["the ", "a ", "an "]
        .iter()
        .find_map(|article| lower.strip_prefix(article))
        .unwrap_or(&lower);
    let first = rest.chars().find(|c| !c.is_whitespace())?;
    if first.is_ascii_lowercase() {
        Some(first)
    } else if first.is_ascii_digit() {
        Some('0')
    } else {
        None // accents, other scripts and symbols: the server's folding decides
    }
}

/// Regression: the web's directory pages called `GET /api/v1/podcasts/directory/{letter}`,
/// which the server lacked ("The podcast directory is not available on this server yet").
/// Every podcast is listed once, under its letter, in title order, paged by skip/limit.
#[tokio::test]
async fn the_directory_lists_every_podcast_once_under_its_letter() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let mut seen = std::collections::HashSet::new();
    let mut listed = 0;
    for letter in "abcdefghijklmnopqrstuvwxyz0".chars() {
        let all = get(&app, &format!("/api/v1/podcasts/directory/{letter}"), None).await;
        let data = ok_data(&all);
        let podcasts = data["podcasts"].as_array().unwrap();
        assert_eq!(data["limit"], 100);
        assert!(podcasts.len() <= 100);
        assert!(data["total"].as_u64().unwrap() as usize >= podcasts.len());
        let mut previous = String::new();
        for podcast in podcasts {
            let title = podcast["title"].as_str().unwrap();
            if let Some(expected) = expected_letter(title) {
                assert_eq!(expected, letter, "{title} listed under {letter}");
            }
            let key: String = title
                .to_lowercase()
                .trim_start_matches("the ")
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect();
            if letter != '0' && title.is_ascii() {
                assert!(previous <= key, "{previous} before {key}");
                previous = key;
            }
            assert!(
                seen.insert(podcast["id"].as_str().unwrap().to_owned()),
                "{title} twice"
            );
        }
        listed += podcasts.len();
        // pages of 2 put together are the whole list
        let mut paged = Vec::new();
        for skip in (0..podcasts.len()).step_by(2) {
            let page = get(
                &app,
                &format!("/api/v1/podcasts/directory/{letter}?limit=2&skip={skip}"),
                None,
            )
            .await;
            paged.extend(ok_data(&page)["podcasts"].as_array().unwrap().clone());
        }
        assert_eq!(&paged, podcasts);
    }
    let podcasts: std::collections::HashSet<String> = shared()
        .fixture
        .batches
        .iter()
        .map(|batch| batch.podcast.podcast_id.to_string())
        .collect();
    assert_eq!(listed, seen.len());
    assert_eq!(seen, podcasts, "every podcast of the catalog, once");

    for (uri, message) in [
        ("/api/v1/podcasts/directory/ab", "Invalid directory letter"),
        (
            "/api/v1/podcasts/directory/%C3%A9",
            "Invalid directory letter",
        ),
        ("/api/v1/podcasts/directory/a?limit=0", "limit must be"),
        ("/api/v1/podcasts/directory/a?limit=101", "limit must be"),
        ("/api/v1/podcasts/directory/a?skip=-1", "skip must be"),
    ] {
        let reply = get(&app, uri, None).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{uri}: {}",
            reply.text
        );
        assert!(reply.text.contains(message), "{uri}: {}", reply.text);
    }
}

/// The search form's pick-lists: every language and genre of the catalog's podcasts,
/// with how many podcasts have it, counted here from the ingested feeds.
#[tokio::test]
async fn search_facets_count_the_catalogs_languages_and_genres() {
    let (state, _dir) = state();
    let app = podlens_api::app(state);
    let mut languages: std::collections::HashMap<String, u64> = Default::default();
    let mut genres: std::collections::HashMap<String, u64> = Default::default();
    for batch in &shared().fixture.batches {
        let podcast = &batch.podcast;
        if podcast.podcast_blocked {
            continue;
        }
        if let Some(tag) = podcast
            .rss_language
            .as_deref()
            .filter(|tag| !tag.trim().is_empty())
        {
            let primary = tag.trim().split(['-', '_']).next().unwrap().to_lowercase();
            *languages.entry(primary).or_default() += 1;
        }
        let own: std::collections::BTreeSet<String> = podcast
            .podcast_podlens_genres
            .iter()
            .map(|genre| genre.trim().to_lowercase())
            .filter(|genre| !genre.is_empty())
            .collect();
        for genre in own {
            *genres.entry(genre).or_default() += 1;
        }
    }
    assert!(!languages.is_empty() && !genres.is_empty());
    // Signed out: the pick-lists are for every visitor of the search page.
    let reply = get(&app, "/api/v1/search/facets", None).await;
    let data = ok_data(&reply);
    for (name, expected) in [("languages", &languages), ("genres", &genres)] {
        let list = data[name].as_array().unwrap();
        let served: std::collections::HashMap<String, u64> = list
            .iter()
            .map(|facet| {
                (
                    facet["value"].as_str().unwrap().to_owned(),
                    facet["count"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(&served, expected, "{name}");
        let counts: Vec<u64> = list
            .iter()
            .map(|facet| facet["count"].as_u64().unwrap())
            .collect();
        assert!(
            counts.windows(2).all(|pair| pair[0] >= pair[1]),
            "{name}: most podcasts first"
        );
    }
}

/// A podcast the index holds and the snapshot has no record of (the two disagree for a
/// moment while a generation is switched): podcast searches read no stored fields, so
/// its hit is read from the index by id, and carries its title and description rather
/// than empty fields.
#[tokio::test]
async fn a_podcast_hit_the_snapshot_lacks_is_written_from_the_index() {
    use podlens_data::snapshot::{read_episodes, read_podcasts, read_transcripts};
    use podlens_indexer::BuildOptions;

    let shared = shared();
    let parquet = shared.dir.join("parquet");
    let mut podcasts = read_podcasts(&parquet).unwrap();
    let episodes = read_episodes(&parquet).unwrap();
    let transcripts = read_transcripts(&parquet).unwrap();
    let mut extra = podcasts[0].clone();
    extra.podcast_id = uuid::Uuid::from_u128(0x0b5e_55ed_0000_4000_8000_0000_0000_0001);
    extra.podcast_slug = "quillwort-almanac".into();
    extra.podcast_guid = None;
    extra.podcast_rss_feed_url = "https://feeds.example.test/quillwort-almanac.xml".into();
    extra.podcast_rss_title = "The Quillwort Almanac".into();
    extra.podcast_rss_description = Some("Ferns, mosses and quillworts of the fens.".into());
    extra.podcast_rss_description_no_html = extra.podcast_rss_description.clone();
    podcasts.push(extra.clone());

    // The snapshot of the shared catalog, and an index built with the extra podcast.
    let own = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&parquet, own.path().join("parquet")).unwrap();
    let options = BuildOptions {
        shards: Some(2),
        ..BuildOptions::default()
    };
    fixture::index_records(
        &own.path().join("index"),
        &podcasts,
        &episodes,
        &transcripts,
        &options,
    );
    let state = podlens_api::server::open_state_with(
        own.path().to_path_buf(),
        None,
        std::sync::Arc::new(podlens_store::Database::for_tests().unwrap()),
    )
    .unwrap();
    assert!(
        state
            .catalog
            .snapshot()
            .unwrap()
            .podcasts_view()
            .podcast(extra.podcast_id)
            .is_none(),
        "the snapshot has no record of it"
    );
    let key = key(&state, "lacks@example.com", "business");
    let app = podlens_api::app(state);
    let body = json!({"searchTerms": [{"searchTerm": "quillwort", "searchType": "text",
        "searchTargets": ["podcast-title", "podcast-description"]}]});
    let reply = post(&app, "/api/v1/search/podcasts", Some(&key), body).await;
    let hits = search_hits(&reply);
    assert_eq!(hits.len(), 1, "{}", reply.text);
    assert_eq!(hits[0]["podcastId"], extra.podcast_id.to_string());
    assert_eq!(hits[0]["podcastRssTitle"], "The Quillwort Almanac");
    assert_eq!(hits[0]["podcastSlug"], "quillwort-almanac");
    assert_eq!(
        hits[0]["podcastRssDescription"],
        "Ferns, mosses and quillworts of the fens."
    );
    assert_eq!(hits[0]["podcastRssAuthor"], json!(extra.podcast_rss_author));
}
