//! Sponsors, the episode catalogue and all-details over HTTP on a real socket, with
//! expectations read from the corpus feed files themselves (a regex over the show
//! notes, independent of the sponsor detector) and from the other routes' answers.

mod common;
mod workflows_http;

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use common::shared;
use serde_json::Value;

const SPONSORED_FEED: &str = "gnome-podcasts_2018-01-20-StealTheStars.xml";

/// One item of a corpus feed: its publication date and the sponsor names its show
/// notes give after "brought to you by" / "sponsored by" (first word of each listed
/// name, parentheses dropped).
fn sponsored_items(feed: &str) -> Vec<(DateTime<Utc>, BTreeSet<String>)> {
    let path = common::fixture::corpus_dir().join("feeds").join(feed);
    let text = std::fs::read_to_string(path).expect("corpus feed");
    let item = regex::Regex::new(r"(?s)<item>(.*?)</item>").unwrap();
    let description = regex::Regex::new(r"(?s)<description>(.*?)</description>").unwrap();
    let date = regex::Regex::new(r"<pubDate>(.*?)</pubDate>").unwrap();
    let tag = regex::Regex::new(r"<[^>]+>").unwrap();
    let parentheses = regex::Regex::new(r"\([^)]*\)").unwrap();
    let read = regex::Regex::new(r"(?i)(?:brought to you by|sponsored by)\s+([^.]*)").unwrap();
    let split = regex::Regex::new(r",|\band\b").unwrap();
    item.captures_iter(&text)
        .map(|item| {
            let body = &item[1];
            let published = DateTime::parse_from_rfc2822(&date.captures(body).unwrap()[1])
                .unwrap()
                .with_timezone(&Utc);
            let notes = description
                .captures(body)
                .map_or("", |c| c.get(1).unwrap().as_str());
            let notes = notes.replace("<![CDATA[", "").replace("]]>", "");
            let plain = tag.replace_all(&notes, " ").replace("&nbsp;", " ");
            let plain = parentheses.replace_all(&plain, " ");
            let names = read
                .captures(&plain)
                .map(|read| {
                    split
                        .split(&read[1])
                        .filter_map(|part| part.split_whitespace().next())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            (published, names)
        })
        .collect()
}

fn podcast_id_of(feed: &str) -> String {
    let index = common::fixture::FIXTURE_FEEDS
        .iter()
        .position(|name| *name == feed)
        .expect("feed in the fixture");
    shared().fixture.batches[index]
        .podcast
        .podcast_id
        .to_string()
}

/// Appearances by name over `items`.
fn appearances(items: &[(DateTime<Utc>, BTreeSet<String>)]) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for (_, names) in items {
        for name in names {
            *counts.entry(name.clone()).or_insert(0) += 1;
        }
    }
    counts
}

fn sponsor_counts(sponsors: &Value) -> BTreeMap<String, u64> {
    sponsors["sponsors"]
        .as_array()
        .expect("sponsors")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["appearancesCount"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn sponsors_match_the_show_notes_of_the_feed() {
    let http = workflows_http::start().await;
    let key = http.key("sponsors@example.com", "business");
    let id = podcast_id_of(SPONSORED_FEED);
    let mut items = sponsored_items(SPONSORED_FEED);
    items.sort_by_key(|(published, _)| std::cmp::Reverse(*published));
    assert_eq!(items.len(), 15);

    // Every episode: a window reaching back before the feed's first item.
    let all = http
        .get(
            &format!("/api/v1/podcasts/{id}/sponsors?sinceDays=3650"),
            &key,
        )
        .await;
    let sponsors = &all.data()["sponsors"];
    assert_eq!(sponsors["episodesCount"], 15);
    let sponsored = items.iter().filter(|(_, names)| !names.is_empty()).count();
    assert_eq!(sponsors["episodesWithSponsorsCount"], sponsored as u64);
    assert_eq!(sponsor_counts(sponsors), appearances(&items));
    let squarespace = sponsors["sponsors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Squarespace")
        .unwrap();
    let newest_with_squarespace = items
        .iter()
        .find(|(_, names)| names.contains("Squarespace"))
        .unwrap()
        .0;
    let reported: DateTime<Utc> = squarespace["mostRecentAppearanceDate"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(reported, newest_with_squarespace);
    assert_eq!(squarespace["type"], "sponsor");

    // The default window: the 10 newest episodes.
    let latest = http
        .get(&format!("/api/v1/podcasts/{id}/sponsors"), &key)
        .await;
    let sponsors = &latest.data()["sponsors"];
    assert_eq!(sponsors["episodesCount"], 10);
    assert_eq!(sponsor_counts(sponsors), appearances(&items[..10]));
    assert_eq!(latest.data()["podcast"]["id"], id.as_str());

    // A feed without sponsorship reads has none.
    let quiet = podcast_id_of("feed-rs_rss_2.0_bbc.xml");
    let none = http
        .get(&format!("/api/v1/podcasts/{quiet}/sponsors"), &key)
        .await;
    assert_eq!(none.data()["sponsors"]["sponsors"], serde_json::json!([]));
    assert_eq!(none.data()["sponsors"]["episodesWithSponsorsCount"], 0);

    let bad = http
        .get(&format!("/api/v1/podcasts/{id}/sponsors?sinceDays=0"), &key)
        .await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.message(), "sinceDays must be between 1 and 3650, got 0");
    let missing = http
        .get("/api/v1/podcasts/no-such-show/sponsors", &key)
        .await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.message(), "Podcast not found: no-such-show");
}

#[tokio::test]
async fn the_episode_catalogue_lists_episodes_with_their_sponsors_and_rhythm() {
    let http = workflows_http::start().await;
    let key = http.key("catalogue@example.com", "business");
    let id = podcast_id_of(SPONSORED_FEED);
    let mut items = sponsored_items(SPONSORED_FEED);
    items.sort_by_key(|(published, _)| std::cmp::Reverse(*published));

    let answer = http
        .get(
            &format!("/api/v1/podcasts/{id}/episode-catalogue?view=summary"),
            &key,
        )
        .await;
    let catalogue = &answer.data()["catalogue"];
    let episodes = catalogue["episodes"].as_array().unwrap();
    assert_eq!(episodes.len(), 15);
    assert_eq!(catalogue["truncated"], false);
    assert_eq!(catalogue["classificationAvailable"], true);
    for (episode, (published, names)) in episodes.iter().zip(&items) {
        let at: DateTime<Utc> = episode["publishedAt"].as_str().unwrap().parse().unwrap();
        assert_eq!(at, *published);
        let listed: BTreeSet<String> = episode["sponsors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(&listed, names, "{}", episode["title"]);
        assert_eq!(episode["releaseType"], "new");
    }
    // The feed ended in 2017: nothing in the last 26 weeks, and it published before.
    let rhythm = &catalogue["rhythm"];
    assert_eq!(rhythm["episodeCount"], 0);
    assert_eq!(rhythm["truncated"], true);
    assert_eq!(rhythm["days"], serde_json::json!([]));
    // 26 weeks back from today: 25 or 26 whole past weeks, depending on the weekday.
    let empty_weeks = rhythm["emptyWeeks"].as_array().unwrap().len();
    assert!((25..=26).contains(&empty_weeks), "{empty_weeks}");

    // The episode listing and the catalogue agree on the newest episode.
    let listing = http
        .get(&format!("/api/v1/podcasts/{id}/episodes?limit=1"), &key)
        .await;
    let newest = &listing.data()["podcastWithEpisodes"]["episodes"][0];
    assert_eq!(newest["episodeId"], episodes[0]["id"]);
    assert_eq!(newest["durationSeconds"], episodes[0]["durationSeconds"]);

    let missing_view = http
        .get(&format!("/api/v1/podcasts/{id}/episode-catalogue"), &key)
        .await;
    assert_eq!(missing_view.status, 400);
    assert_eq!(missing_view.message(), "view is required: summary or full");
    let bad_view = http
        .get(
            &format!("/api/v1/podcasts/{id}/episode-catalogue?view=all"),
            &key,
        )
        .await;
    assert_eq!(
        bad_view.message(),
        "view must be summary or full, got \"all\""
    );
}

#[tokio::test]
async fn all_details_is_what_the_other_routes_answer() {
    let http = workflows_http::start().await;
    let business = http.key("all@example.com", "business");
    let id = podcast_id_of(SPONSORED_FEED);
    let answer = http
        .get(
            &format!("/api/v1/podcasts/{id}/all-details?includePublishingHistory=true"),
            &business,
        )
        .await;
    let all = &answer.data()["podcast"];
    let details = http.get(&format!("/api/v1/podcasts/{id}"), &business).await;
    for field in [
        "id",
        "title",
        "rssFeedUrl",
        "stats",
        "appleId",
        "description",
    ] {
        assert_eq!(
            all["podcast"][field],
            details.data()["podcast"][field],
            "{field}"
        );
    }
    let guests = http
        .get(&format!("/api/v1/podcasts/{id}/guests"), &business)
        .await;
    assert_eq!(all["guests"], guests.data()["guests"]);
    let sponsors = http
        .get(&format!("/api/v1/podcasts/{id}/sponsors"), &business)
        .await;
    assert_eq!(all["sponsors"], sponsors.data()["sponsors"]);
    assert_eq!(all["podcast"]["podcastHasSponsors"], true);
    let reviews = http
        .get(&format!("/api/v1/podcasts/{id}/reviews"), &business)
        .await;
    assert_eq!(all["reviews"], reviews.data()["podcastReviews"]);
    let youtube = http
        .get(&format!("/api/v1/podcasts/{id}/youtube"), &business)
        .await;
    assert_eq!(all["youtubeData"], youtube.data()["youtubeData"]);
    let social = http
        .get(&format!("/api/v1/podcasts/{id}/social-media"), &business)
        .await;
    assert_eq!(all["socialMedia"], social.data()["socialMediaData"]);
    let related = http
        .get(
            &format!("/api/v1/podcasts/{id}/related-podcasts"),
            &business,
        )
        .await;
    assert_eq!(all["relatedPodcasts"], related.data()["relatedPodcasts"]);
    let charts = http
        .get(&format!("/api/v1/podcasts/{id}/charts"), &business)
        .await;
    assert_eq!(all["chartPositions"], charts.data()["positions"]);
    let contacts = http
        .get(&format!("/api/v1/podcasts/{id}/contacts"), &business)
        .await;
    assert_eq!(all["contacts"], contacts.data()["podcastContacts"]);
    let episodes = http
        .get(
            &format!("/api/v1/podcasts/{id}/episodes?limit=10"),
            &business,
        )
        .await;
    let recent: Vec<&Value> = all["recentEpisodes"].as_array().unwrap().iter().collect();
    let listed = episodes.data()["podcastWithEpisodes"]["episodes"]
        .as_array()
        .unwrap();
    assert_eq!(recent.len(), 10);
    for (one, other) in recent.iter().zip(listed) {
        assert_eq!(one["episodeId"], other["episodeId"]);
    }
    assert!(
        recent[0]["episodeSponsors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|name| name == "Squarespace"),
        "{}",
        recent[0]
    );

    // Publishing history: counts of the last 24 months from the feed's dates (the
    // feed ended in 2017, so none, and it is truncated).
    let history = &all["publishingHistory"];
    assert_eq!(
        history["monthlyEpisodeCounts"]["counts"]
            .as_array()
            .unwrap()
            .len(),
        24
    );
    assert!(
        history["monthlyEpisodeCounts"]["counts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c == 0)
    );
    assert_eq!(history["truncated"], true);
    let newest = sponsored_items(SPONSORED_FEED)
        .iter()
        .map(|(at, _)| *at)
        .max()
        .unwrap();
    let last: DateTime<Utc> = history["lastEpisodeAt"].as_str().unwrap().parse().unwrap();
    assert_eq!(last, newest);

    // Contacts follow the plan: a signed-out caller sees no owner email.
    let public = http
        .send(reqwest::Client::new().get(format!("{}/api/v1/podcasts/{id}/all-details", http.base)))
        .await;
    let public_all = &public.data()["podcast"];
    assert!(public_all.get("publishingHistory").is_none());
    assert_eq!(public_all["contacts"]["emails"], serde_json::json!([]));
    assert_eq!(public_all["podcast"]["emails"], serde_json::json!([]));
}
