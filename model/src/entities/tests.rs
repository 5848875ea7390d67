//! Wire tests: JSON documents written by hand from the SDK's pydantic models
//! (`podengine==0.3.2`, `_generated/models.py`) are read, written back, and the
//! required keys checked. Where Python and the SDK are installed, the written
//! JSON is also validated by the SDK's own model class.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::*;
use crate::enums::{ListedPodcastStatus, ProjectStatus, ResultsView};
use crate::kinds::DirectoryKind;

/// One Python process with the SDK loaded, answering one line per check.
struct SdkChecker {
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

fn sdk_checker() -> Option<&'static Mutex<SdkChecker>> {
    const SCRIPT: &str = "import sys, json\n\
        from podengine._generated import models\n\
        print('ready', flush=True)\n\
        for line in sys.stdin:\n\
        \x20   name, _, body = line.partition('\\t')\n\
        \x20   try:\n\
        \x20       getattr(models, name).model_validate_json(body)\n\
        \x20       print('ok', flush=True)\n\
        \x20   except Exception as error:\n\
        \x20       print(json.dumps(str(error)), flush=True)\n";
    static CHECKER: OnceLock<Option<Mutex<SdkChecker>>> = OnceLock::new();
    CHECKER
        .get_or_init(|| {
            let mut child = Command::new("python3")
                .args(["-c", SCRIPT])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .ok()?;
            let mut stdout = BufReader::new(child.stdout.take()?);
            let mut ready = String::new();
            stdout.read_line(&mut ready).ok()?;
            if ready.trim() != "ready" {
                eprintln!("podengine SDK not installed: SDK checks skipped (key checks still run)");
                return None;
            }
            let stdin = child.stdin.take()?;
            Some(Mutex::new(SdkChecker { stdin, stdout }))
        })
        .as_ref()
}

/// Validates `value` with the SDK class `class`. `None` when Python or the SDK
/// is not installed (the key checks still run).
fn sdk_validate(class: &str, value: &Value) -> Option<Result<(), String>> {
    let mut checker = sdk_checker()?.lock().ok()?;
    writeln!(checker.stdin, "{class}\t{value}").ok()?;
    checker.stdin.flush().ok()?;
    let mut answer = String::new();
    checker.stdout.read_line(&mut answer).ok()?;
    match answer.trim() {
        "ok" => Some(Ok(())),
        error => Some(Err(error.to_owned())),
    }
}

/// Reads `input` as `T`, writes it back, checks that the required keys at
/// `path` are present (null allowed), that nothing was lost, and that the SDK
/// class accepts the output.
fn wire_round_trip<T: Serialize + DeserializeOwned>(
    class: &str,
    input: Value,
    path: &[&str],
    required: &[&str],
) -> T {
    let parsed: T = serde_json::from_value(input.clone()).unwrap();
    let output = serde_json::to_value(&parsed).unwrap();
    let mut object = &output;
    for key in path {
        object = match key.parse::<usize>() {
            Ok(index) => &object[index],
            Err(_) => &object[*key],
        };
    }
    let object = object
        .as_object()
        .unwrap_or_else(|| panic!("{path:?} is not an object"));
    for key in required {
        assert!(object.contains_key(*key), "{class}: key {key} missing");
    }
    assert_subset(&input, &output, class);
    if let Some(result) = sdk_validate(class, &output) {
        result.unwrap_or_else(|error| panic!("SDK rejected {class}: {error}\n{output:#}"));
    }
    let again: T = serde_json::from_value(output.clone()).unwrap();
    assert_eq!(serde_json::to_value(&again).unwrap(), output);
    parsed
}

/// Every value of `input` is in `output` (timestamps compared as instants).
fn assert_subset(input: &Value, output: &Value, at: &str) {
    match (input, output) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let other = b.get(key).unwrap_or_else(|| panic!("{at}.{key} dropped"));
                assert_subset(value, other, &format!("{at}.{key}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{at}");
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                assert_subset(x, y, &format!("{at}[{index}]"));
            }
        }
        (Value::String(a), Value::String(b)) if a != b => {
            let x = chrono::DateTime::parse_from_rfc3339(a);
            let y = chrono::DateTime::parse_from_rfc3339(b);
            assert!(
                matches!((x, y), (Ok(x), Ok(y)) if x == y),
                "{at}: {a} vs {b}"
            );
        }
        (Value::Number(a), Value::Number(b)) => {
            assert_eq!(a.as_f64(), b.as_f64(), "{at}");
        }
        (a, b) => assert_eq!(a, b, "{at}"),
    }
}

fn summary_json(id: &str) -> Value {
    json!({
        "author": "Jane Host",
        "authorityScore": {
            "calculatedAt": "2025-01-02T03:04:05Z", "authorityScore": 71.5,
            "qualityScore": 80.0, "youtubeScore": 12.0, "socialScore": 40.0,
            "engagementScore": 55.5
        },
        "genres": ["technology", "business"],
        "id": id,
        "imageUrl": "https://img.example/a.jpg",
        "language": "en",
        "lastEpisodePublishedAt": "2025-01-01T00:00:00Z",
        "slug": "the-show",
        "title": "The Show",
        "titleLatest": "The Show (new)"
    })
}

const SUMMARY_KEYS: &[&str] = &[
    "author",
    "authorityScore",
    "genres",
    "id",
    "imageUrl",
    "language",
    "lastEpisodePublishedAt",
    "slug",
    "title",
    "titleLatest",
];

fn full_podcast_json() -> Value {
    let mut podcast = summary_json("pod-1");
    let extra = json!({
        "appleId": 1200361736u64,
        "description": "A daily show.",
        "emails": ["host@example.com"],
        "explicitRss": false,
        "hostNames": ["Jane Host"],
        "ignore": false,
        "isClaimed": false,
        "podcastAffiliation": {"affiliateOrganizationName": "Big Radio", "affiliationType": "legacy media"},
        "podcastDirectoryLinks": {"apple": "https://podcasts.apple.com/x", "fountain": "https://fountain.fm/x"},
        "podcastHasGuests": true,
        "podcastHasSponsors": null,
        "podcastLocations": ["US"],
        "primaryContactEmail": null,
        "rssFeedUrl": "https://feeds.example/show.xml",
        "socialMediaLinks": [{"socialMediaType": "youtube", "url": "https://youtube.com/@show",
                               "sources": ["rss", "podcast-website"]}],
        "spotifyId": null,
        "stats": {"downloadCount": 0, "episodeCount": 120, "latestPublishedAt": "2025-01-01T00:00:00Z",
                  "firstEpisodePublishedAt": null, "transcriptsCount": 30, "updateFrequency": "weekly"},
        "titleLatestCleaned": "The Show",
        "transcriptionMode": {"mode": "episodes-since", "transcribeSince": "2024-01-01T00:00:00Z"},
        "websiteUrl": "https://show.example"
    });
    for (key, value) in extra.as_object().unwrap() {
        podcast[key] = value.clone();
    }
    podcast
}

fn episode_json() -> Value {
    json!({
        "deepAnalysisRequestedAt": null,
        "description": "<p>Episode notes</p>",
        "durationSeconds": 3600,
        "enclosureUrl": "https://cdn.example/ep1.mp3",
        "episodeId": "ep-1",
        "episodeGuestsAndHosts": [{"name": "Ann Guest", "type": "guest", "imageUrl": null}],
        "episodeSlug": "episode-one",
        "episodeShortDescription": null,
        "episodeSponsors": ["Acme"],
        "hasTranscript": true,
        "hasVideo": false,
        "videoUrl": null,
        "imageUrl": null,
        "episodeThumbnailRssUrl": null,
        "podcastId": "pod-1",
        "podcastSlug": "the-show",
        "publishedAt": "2024-06-01T10:00:00Z",
        "title": "Episode one",
        "transcriptId": "tr-1",
        "transcriptionRequestedAt": null,
        "youtubeEpisodeDetails": null,
        "applePodcastsUrl": null
    })
}

#[test]
fn podcast_response_round_trips_with_every_required_key() {
    let response: PodcastResponse = wire_round_trip(
        "GetPodcastResponse",
        json!({"podcast": full_podcast_json()}),
        &["podcast"],
        &[
            SUMMARY_KEYS,
            &[
                "appleId",
                "description",
                "emails",
                "explicitRss",
                "hostNames",
                "ignore",
                "isClaimed",
                "podcastAffiliation",
                "podcastDirectoryLinks",
                "podcastHasGuests",
                "podcastHasSponsors",
                "podcastLocations",
                "primaryContactEmail",
                "rssFeedUrl",
                "socialMediaLinks",
                "spotifyId",
                "stats",
                "titleLatestCleaned",
                "transcriptionMode",
                "websiteUrl",
            ],
        ]
        .concat(),
    );
    let podcast = response.podcast;
    assert_eq!(
        podcast.podcast_directory_links.get(DirectoryKind::Apple),
        Some("https://podcasts.apple.com/x")
    );
    assert_eq!(
        podcast.podcast_directory_links.by_key("fountain"),
        Some("https://fountain.fm/x")
    );
    assert_eq!(podcast.transcription_mode.kind().as_str(), "episodes-since");
}

#[test]
fn null_fields_are_written_as_null_not_left_out() {
    let mut podcast = full_podcast_json();
    for key in [
        "author",
        "authorityScore",
        "description",
        "podcastAffiliation",
        "websiteUrl",
    ] {
        podcast[key] = Value::Null;
    }
    let parsed: Podcast = serde_json::from_value(podcast).unwrap();
    let output = serde_json::to_value(&parsed).unwrap();
    for key in [
        "author",
        "authorityScore",
        "description",
        "podcastAffiliation",
        "websiteUrl",
    ] {
        assert_eq!(output.get(key), Some(&Value::Null), "{key}");
    }
}

#[test]
fn transcription_mode_episodes_since_needs_its_date() {
    let missing = json!({"mode": "episodes-since"});
    assert!(serde_json::from_value::<TranscriptionMode>(missing).is_err());
    let none: TranscriptionMode = serde_json::from_value(json!({"mode": "none"})).unwrap();
    assert_eq!(none, TranscriptionMode::None);
    assert_eq!(
        serde_json::to_value(none).unwrap(),
        json!({"mode": "none", "transcribeSince": null})
    );
    assert!(serde_json::from_value::<TranscriptionMode>(json!({"mode": "some"})).is_err());
}

#[test]
fn directory_links_cover_every_directory_kind() {
    assert_eq!(PodcastDirectoryLinks::KEYS.len(), 45);
    let mut links = PodcastDirectoryLinks::default();
    for kind in DirectoryKind::ALL {
        assert!(
            PodcastDirectoryLinks::KEYS.contains(&kind.as_str()),
            "{kind}"
        );
        links.set(*kind, format!("https://{kind}.example/show"));
    }
    assert_eq!(links.present().len(), DirectoryKind::ALL.len());
    assert!(links.set_by_key("myspace", String::new()).is_err());
    let written = serde_json::to_value(&links).unwrap();
    assert_eq!(written.as_object().unwrap().len(), DirectoryKind::ALL.len());
}

#[test]
fn episode_details_and_listing_round_trip() {
    wire_round_trip::<EpisodeDetailsResponse>(
        "GetEpisodeDetailsByIdResponse",
        json!({"episode": episode_json()}),
        &["episode"],
        &[
            "deepAnalysisRequestedAt",
            "description",
            "durationSeconds",
            "enclosureUrl",
            "episodeId",
            "episodeGuestsAndHosts",
            "episodeSlug",
            "episodeShortDescription",
            "episodeSponsors",
            "hasTranscript",
            "hasVideo",
            "videoUrl",
            "imageUrl",
            "episodeThumbnailRssUrl",
            "podcastId",
            "podcastSlug",
            "publishedAt",
            "title",
            "transcriptId",
            "transcriptionRequestedAt",
            "youtubeEpisodeDetails",
            "applePodcastsUrl",
        ],
    );
    let listing: PodcastEpisodesResponse = wire_round_trip(
        "GetPodcastEpisodesResponse",
        json!({
            "options": {"hasTranscript": true, "limit": 10},
            "totalEpisodes": 120, "totalTranscripts": 30,
            "podcastWithEpisodes": {"podcast": summary_json("pod-1"), "episodes": [episode_json()]}
        }),
        &[],
        &[
            "options",
            "totalEpisodes",
            "totalTranscripts",
            "podcastWithEpisodes",
        ],
    );
    assert_eq!(listing.podcast_with_episodes.episodes.len(), 1);
    wire_round_trip::<TranscriptTextResponse>(
        "GetEpisodeTranscriptTextResponse",
        json!({"episodeTranscriptText": {"podcastId": "p", "episodeId": "e", "transcriptId": "t", "text": null}}),
        &["episodeTranscriptText"],
        &["podcastId", "episodeId", "transcriptId", "text"],
    );
}

#[test]
fn contacts_reviews_guests_and_sponsors_round_trip() {
    wire_round_trip::<PodcastContactsResponse>(
        "GetPodcastContactsResponse",
        json!({"podcast": summary_json("pod-1"), "podcastContacts": {
            "podcastId": "pod-1",
            "emails": [{"email": "a@b.example", "verifiedAt": null, "syntaxValid": true, "mxValid": null,
                        "deepVerifiedAt": null, "deliverabilityStatus": "catch-all",
                        "deliverabilityReason": null, "isFreeEmailProvider": false,
                        "suggestedCorrection": null}],
            "phoneNumbers": ["+1 555 0100"],
            "websites": [{"url": "https://show.example", "verified": true,
                          "contactUrls": ["https://show.example/contact"]}]
        }}),
        &["podcastContacts", "emails", "0"],
        &[],
    );
    let reviews: PodcastReviewsResponse = wire_round_trip(
        "GetPodcastReviewsResponse",
        json!({"podcast": summary_json("pod-1"), "podcastReviews": {
            "podcastId": "pod-1", "appleId": 1, "spotifyId": null,
            "applePodcastsReview": {"appleId": 1, "scrapedAt": "2025-01-01T00:00:00Z", "country": "us",
                "reviewsCount": 10, "rating": 4.6, "oneStarCount": 0, "twoStarCount": 1,
                "threeStarCount": 0, "fourStarCount": 2, "fiveStarCount": 7},
            "applePodcastsReviewsByCountry": [],
            "applePodcastsReviewText": null,
            "spotifyReview": {"spotifyId": "abc", "scrapedAt": "2025-01-01T00:00:00Z",
                              "reviewsCount": 5, "rating": null},
            "castbox": {"scrapedAt": "2025-01-01T00:00:00Z", "plays": 100, "subscribers": 3}
        }}),
        &["podcastReviews"],
        &[
            "podcastId",
            "appleId",
            "spotifyId",
            "applePodcastsReview",
            "applePodcastsReviewsByCountry",
            "applePodcastsReviewText",
            "spotifyReview",
            "castbox",
        ],
    );
    let apple = reviews.podcast_reviews.apple_podcasts_review.unwrap();
    let stars = apple.one_star_count
        + apple.two_star_count
        + apple.three_star_count
        + apple.four_star_count
        + apple.five_star_count;
    assert_eq!(stars, apple.reviews_count);
    wire_round_trip::<PodcastGuestsResponse>(
        "GetPodcastGuestsResponse",
        json!({"podcast": summary_json("pod-1"), "guests": {
            "episodesCount": 10, "episodesWithGuestsCount": 4,
            "mostRecentEpisodeDate": "2025-01-01T00:00:00Z", "oldestEpisodeDate": null,
            "guests": [{"name": "Ann", "type": "mentioned", "imageUrl": null, "appearancesCount": 2,
                        "mostRecentAppearanceDate": "2025-01-01T00:00:00Z",
                        "oldestAppearanceDate": "2024-01-01T00:00:00Z"}]
        }}),
        &["guests"],
        &[
            "episodesCount",
            "episodesWithGuestsCount",
            "mostRecentEpisodeDate",
            "oldestEpisodeDate",
            "guests",
        ],
    );
    wire_round_trip::<PodcastSponsorsResponse>(
        "GetPodcastSponsorsResponse",
        json!({"podcast": summary_json("pod-1"), "sponsors": {
            "episodesCount": 10, "episodesWithSponsorsCount": 1,
            "mostRecentEpisodeDate": null, "oldestEpisodeDate": null,
            "sponsors": [{"name": "Acme", "imageUrl": null, "appearancesCount": 1,
                          "mostRecentAppearanceDate": "2025-01-01T00:00:00Z",
                          "oldestAppearanceDate": "2025-01-01T00:00:00Z", "type": "self promotion"}]
        }}),
        &["sponsors"],
        &["episodesCount", "episodesWithSponsorsCount", "sponsors"],
    );
}

#[test]
fn social_media_response_round_trips() {
    wire_round_trip::<PodcastSocialMediaResponse>(
        "GetPodcastSocialMediaDetailsResponse",
        json!({"podcast": summary_json("pod-1"), "socialMediaData": {
            "podcastId": "pod-1",
            "socialMediaLinks": [{"socialMediaType": "twitter", "url": "https://x.com/show", "sources": ["rss"]}],
            "facebookPageData": [], "instagramData": [{"profileId": 42, "followers": 10, "following": 2,
                "posts": 5, "instagramProfileName": "show", "profilePhotoUrl": null,
                "scrapedAt": "2025-01-01T00:00:00Z"}],
            "linkedInCompanyData": [], "linkedInPersonData": [], "tiktokData": [],
            "twitterData": [{"profileId": "1", "profileName": "show", "profileUrl": "https://x.com/show",
                "profileImageUrl": null, "biography": null, "followingCount": 1, "followerCount": 99,
                "postsCount": 7, "dateJoined": null, "scrapedAt": "2025-01-01T00:00:00Z"}]
        }}),
        &["socialMediaData"],
        &[
            "podcastId",
            "socialMediaLinks",
            "facebookPageData",
            "instagramData",
            "linkedInCompanyData",
            "linkedInPersonData",
            "tiktokData",
            "twitterData",
        ],
    );
}

#[test]
fn chart_response_round_trips() {
    let position = json!({
        "position": 1, "estimatedMonthlyListeners": null, "estimatedMonthlyListenersBucket": "1M+",
        "podcastOnChart": {"podcastOnChartId": "1200361736", "title": "The Daily", "creator": "NYT", "imageUrl": null},
        "podenginePodcast": summary_json("pod-1"),
        "previousPosition": 2, "positionChange": 1, "isNew": false, "movement": "up",
        "history30d": [2, null, 1], "history30dStatus": ["observed", "no_chart", "observed"],
        "peakPosition30d": 1, "daysCharted30d": 2, "chartsInWindow30d": 3, "unknownDays30d": 0
    });
    let response: ChartResponse = wire_round_trip(
        "GetChartResponse",
        json!({
            "options": {"chartType": "apple", "category": "top podcasts", "country": "us"},
            "chart": {"chart": {
                "chartType": "apple", "category": "top podcasts", "country": "us",
                "chartDate": "2025-01-02", "totalPositions": 100, "unresolvedPositions": 3,
                "observedDepth": 100, "coverageStatus": "unresolved_identities", "compare": "1d",
                "requestedCompareDate": "2025-01-01", "compareChartDate": "2025-01-01",
                "comparisonStatus": "available", "comparisonUnavailableReason": null,
                "compareChartObservedDepth": 100, "compareChartCoverageStatus": "complete",
                "entryExitConfirmable": true,
                "historyWindow": {"dates": ["2025-01-01", "2025-01-02"], "coverage": ["complete", "no_chart"]}
            }, "positions": [position]}
        }),
        &["chart", "positions", "0"],
        &[
            "position",
            "estimatedMonthlyListeners",
            "estimatedMonthlyListenersBucket",
            "podcastOnChart",
            "podenginePodcast",
            "previousPosition",
            "positionChange",
            "isNew",
            "movement",
            "history30d",
            "history30dStatus",
            "peakPosition30d",
            "daysCharted30d",
            "chartsInWindow30d",
            "unknownDays30d",
        ],
    );
    assert_eq!(
        response.chart.unwrap().positions[0].history30d,
        vec![Some(2), None, Some(1)]
    );
    let empty: ChartResponse = wire_round_trip(
        "GetLatestChartResponse",
        json!({"options": {}, "chart": null}),
        &[],
        &["options", "chart"],
    );
    assert!(empty.chart.is_none());
}

fn project_json(id: &str, status: &str, last_updated: &str) -> Value {
    json!({
        "projectId": id, "name": "Guest booking", "slug": format!("slug-{id}"), "teamId": "team-1",
        "createdAt": "2024-01-01T00:00:00Z", "lastUpdated": last_updated,
        "createdBy": {"id": "u1", "displayName": null, "avatarSeed": "seed"},
        "projectTypes": ["guest-booking", "other"], "status": status, "listedPodcastsCount": 2,
        "linkedGuestProfile": {"id": "g1", "name": "Ann", "slug": "ann", "status": "ACTIVE",
            "imageUrl": null, "linkedinUrl": null, "companyName": null, "appearancesCount": 0},
        "stateCounts": {"prospect": 1, "qualified": 0, "pitched": 1, "booked": 0, "lost": 0, "ignored": 0},
        "documentsCount": {"total": 0, "processed": 0},
        "recentActivities": [{"type": "update-state", "date": "2024-02-01T00:00:00Z",
            "podcastTitle": "The Show", "podcastSlug": "the-show", "podcastImageUrl": null,
            "toValue": "pitched", "user": null}]
    })
}

fn listed_podcast_json() -> Value {
    json!({
        "listedPodcastId": "lp-1", "projectId": "p1",
        "podcast": {"podcastId": "pod-1", "titleOriginal": "The Show", "titleLatest": "The Show",
                    "slug": "the-show", "imageUrl": null, "estimatedMonthlyListeners": null,
                    "estimatedMonthlyListenersBucket": null},
        "status": "pitched", "priority": null, "labels": ["automated"],
        "addedAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-02T00:00:00Z",
        "addedByUser": {"userId": "u1", "email": "u@example.com", "displayName": null},
        "activityHistory": [{"actionType": "added-to-list", "activityDate": "2024-01-01T00:00:00Z",
            "fromValue": null, "toValue": "prospect", "userId": "u1", "userDisplayName": "U"}],
        "analysis": {"relevancyScore": 0.8}
    })
}

#[test]
fn projects_round_trip() {
    wire_round_trip::<ProjectsResponse>(
        "GetProjectsResponse",
        json!({"options": {"sortBy": "recent-activity"},
               "projects": [project_json("p1", "ACTIVE", "2024-03-01T00:00:00Z")]}),
        &["projects", "0"],
        &[
            "projectId",
            "name",
            "slug",
            "teamId",
            "createdAt",
            "lastUpdated",
            "createdBy",
            "projectTypes",
            "status",
            "listedPodcastsCount",
            "linkedGuestProfile",
            "stateCounts",
            "documentsCount",
            "recentActivities",
        ],
    );
    let mut details = project_json("p1", "DRAFT", "2024-03-01T00:00:00Z");
    for (key, value) in json!({"projectTypeOtherReason": null, "projectPurpose": "Find shows",
        "projectKeywords": ["ai"], "publicTitle": null, "publicDescription": null, "publicSlug": null,
        "isPublicListicle": false, "publicPodcastLimit": 10, "isPublicForTeam": false})
    .as_object()
    .unwrap()
    {
        details[key] = value.clone();
    }
    wire_round_trip::<ProjectDetailsResponse>(
        "GetProjectDetailsResponse",
        json!({"project": details}),
        &["project"],
        &[
            "projectTypeOtherReason",
            "projectPurpose",
            "publicTitle",
            "publicSlug",
            "isPublicForTeam",
        ],
    );
    wire_round_trip::<AddPodcastToProjectResponse>(
        "AddPodcastToProjectResponse",
        json!({"listedPodcast": listed_podcast_json()}),
        &["listedPodcast"],
        &[
            "listedPodcastId",
            "projectId",
            "podcast",
            "status",
            "priority",
            "labels",
            "addedAt",
            "updatedAt",
            "addedByUser",
            "activityHistory",
            "analysis",
        ],
    );
    wire_round_trip::<ProjectStrategiesResponse>(
        "GetProjectStrategiesResponse",
        json!({"strategies": [{"title": "T", "shortDescription": "S", "strategyBlurb": "B",
            "audiencePersonaTarget": "A", "whyItsEffective": "W", "strategyTrainingDocumentation": "D",
            "keywordInspiration": ["k"], "exampleGoogleSearches": ["g"], "id": "s1",
            "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z",
            "strategyApproach": "longshot", "strategyFocus": null, "priority": "urgent"}]}),
        &["strategies", "0"],
        &["strategyApproach", "strategyFocus", "priority"],
    );
}

#[test]
fn listed_podcast_status_defaults_to_prospect_and_labels_are_strict() {
    let mut listed = listed_podcast_json();
    listed.as_object_mut().unwrap().remove("status");
    let parsed: ListedPodcast = serde_json::from_value(listed.clone()).unwrap();
    assert_eq!(parsed.status, ListedPodcastStatus::Prospect);
    listed["labels"] = json!(["favourite"]);
    assert!(serde_json::from_value::<ListedPodcast>(listed.clone()).is_err());
    listed["labels"] = json!([]);
    listed["priority"] = json!("critical");
    assert!(serde_json::from_value::<ListedPodcast>(listed).is_err());
}

fn project_at(id: &str, status: ProjectStatus, day: u32) -> Project {
    let mut project: Project =
        serde_json::from_value(project_json(id, "DRAFT", "2024-01-01T00:00:00Z")).unwrap();
    project.status = status;
    project.last_updated = format!("2024-01-{day:02}T00:00:00Z").parse().unwrap();
    project
}

/// Projects as (id, status, day of lastUpdated), pinned ids, expected order.
type OrderCase<'a> = (
    &'a [(&'a str, ProjectStatus, u32)],
    &'a [&'a str],
    &'a [&'a str],
);

#[test]
fn project_list_order_table() {
    use ProjectStatus::*;
    // (id, status, day of lastUpdated), then the pinned ids, then the expected order.
    let cases: &[OrderCase] = &[
        (
            &[("a", Draft, 5), ("b", Active, 1), ("c", Active, 9)],
            &[],
            &["c", "b", "a"],
        ),
        (
            &[("a", Draft, 5), ("b", Active, 1), ("c", Active, 9)],
            &["a"],
            &["a", "c", "b"],
        ),
        (
            &[("a", Archived, 1), ("b", Error, 3), ("c", Pending, 2)],
            &[],
            &["b", "c", "a"],
        ),
        (
            &[
                ("a", Active, 1),
                ("b", Draft, 9),
                ("c", Draft, 3),
                ("d", Active, 2),
            ],
            &["c", "a"],
            &["a", "c", "d", "b"],
        ),
        (&[("x", Active, 4), ("y", Active, 4)], &[], &["x", "y"]),
        (&[("x", Draft, 4), ("y", Active, 1)], &["z"], &["y", "x"]),
    ];
    for (projects, pinned, expected) in cases {
        let mut list: Vec<Project> = projects
            .iter()
            .map(|(id, status, day)| project_at(id, *status, *day))
            .collect();
        sort_project_list(&mut list, pinned);
        let order: Vec<&str> = list.iter().map(|p| p.project_id.as_str()).collect();
        assert_eq!(&order, expected, "{projects:?} pinned {pinned:?}");
    }
}

#[test]
fn project_list_order_matches_a_key_sort_for_every_permutation() {
    use ProjectStatus::*;
    let statuses = [Draft, Pending, Active, Archived, Error];
    let projects: Vec<Project> = (0..6u32)
        .map(|n| {
            project_at(
                &format!("p{n}"),
                statuses[(n as usize * 3) % 5],
                1 + (n * 7) % 5,
            )
        })
        .collect();
    let pinned = ["p4", "p1"];
    // Second computation: a key tuple, independent of the comparator.
    let mut expected = projects.clone();
    expected.sort_by_key(|p| {
        (
            !pinned.contains(&p.project_id.as_str()),
            p.status != Active,
            std::cmp::Reverse(p.last_updated),
            p.project_id.clone(),
        )
    });
    // Every rotation and reversal of the input sorts to the same order.
    for shift in 0..projects.len() {
        for reverse in [false, true] {
            let mut list = projects.clone();
            list.rotate_left(shift);
            if reverse {
                list.reverse();
            }
            sort_project_list(&mut list, &pinned);
            assert_eq!(list, expected);
        }
    }
}

#[test]
fn state_counts_tally_statuses() {
    use ListedPodcastStatus::*;
    let counts = StateCounts::tally([Prospect, Prospect, Booked, Lost, Prospect]);
    let written = serde_json::to_value(counts).unwrap();
    assert_eq!(
        written,
        json!({"prospect": 3, "qualified": 0, "pitched": 0, "booked": 1, "lost": 1, "ignored": 0})
    );
}

#[test]
fn relevancy_review_rating_is_one_to_five() {
    let review = |rating: i64| {
        serde_json::from_value::<RelevancyReview>(json!({
            "rating": rating, "justification": "fits", "strengths": ["topic"], "concerns": []
        }))
    };
    for rating in 1..=5 {
        assert_eq!(review(rating).unwrap().rating.get() as i64, rating);
    }
    for rating in [0, 6, -1, 255] {
        assert!(review(rating).is_err(), "{rating}");
    }
}

#[test]
fn guest_profile_round_trips() {
    wire_round_trip::<GuestProfile>(
        "GetGuestProfileDetailsResponse",
        json!({
            "projectId": "p1", "projectSlug": "ann", "guestProfileId": "g1", "guestProfileSlug": "ann",
            "publicSlug": null, "name": "Ann Guest", "status": "ACTIVE",
            "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z",
            "documents": [{"name": "cv.pdf", "id": "d1", "size": 1234, "status": "processed",
                           "fileType": "pdf", "dateExtracted": null}],
            "listedPodcastsCount": 0, "bookingUrl": null, "companyName": null, "email": null,
            "firstName": "Ann", "lastName": "Guest", "onePagerUrl": null, "phone": null,
            "websiteUrl": null, "imageUrl": null,
            "createdBy": {"userId": "u1", "email": "u@example.com"},
            "socialMediaLinks": [{"socialMediaType": "linkedin", "url": "https://linkedin.com/in/ann",
                                  "lastScrapedAt": null, "lastScrapeFailedAt": null, "isScraping": false}],
            "guestBio": {"additionalContext": null, "areasOfExpertise": ["ai"], "goals": ["reach"],
                         "longBio": "Long", "shortBio": "Short", "thingsToAvoid": [],
                         "topicsToDiscuss": ["ml"]},
            "publicViewSettings": null
        }),
        &[],
        &[
            "publicSlug",
            "bookingUrl",
            "guestBio",
            "publicViewSettings",
            "socialMediaLinks",
        ],
    );
}

#[test]
fn usage_and_requests_round_trip() {
    wire_round_trip::<DailyUsageResponse>(
        "GetDailyResponse",
        json!({"days": [{"date": "2025-01-01", "totalUsage": 3, "usageByAlias": {"searchCount": 3}}],
               "limits": {"searchCount": 300, "exportCount": null}}),
        &["days", "0"],
        &["date", "totalUsage", "usageByAlias"],
    );
    let requests: TranscriptionRequestsResponse = wire_round_trip(
        "GetTranscriptionRequestsResponse",
        json!({"totalRequests": 2, "requests": [
            {"podcastTitle": "The Show", "podcastImageUrl": null, "podcastId": "pod-1",
             "podcastSlug": "the-show", "requestedAt": "2025-01-01T00:00:00Z", "requestedByUserId": "u1",
             "completedAt": "2025-01-02T00:00:00Z", "requestType": "transcription", "episodeId": "e1",
             "episodeTitle": "Ep", "episodeImageUrl": null, "episodeSlug": "ep"},
            {"podcastTitle": "The Show", "podcastImageUrl": null, "podcastId": "pod-1",
             "podcastSlug": "the-show", "requestedAt": "2025-01-01T00:00:00Z", "requestedByUserId": null,
             "completedAt": null, "requestType": "guestPrep", "episodeId": null,
             "episodeTitle": null, "episodeImageUrl": null, "episodeSlug": null}
        ]}),
        &["requests", "1"],
        &[
            "requestedByUserId",
            "completedAt",
            "episodeId",
            "episodeTitle",
            "episodeImageUrl",
            "episodeSlug",
        ],
    );
    let statuses: Vec<&str> = requests
        .requests
        .iter()
        .map(|r| r.derived_status().as_str())
        .collect();
    assert_eq!(statuses, ["completed", "not_started"]);
    assert!(
        requests
            .requests
            .iter()
            .all(TranscriptionRequest::has_required_episode_fields)
    );
    let mut broken = requests.requests[0].clone();
    broken.episode_slug = None;
    assert!(!broken.has_required_episode_fields());
}

#[test]
fn rss_stats_and_team_podcasts_round_trip() {
    let level = json!({"totalRssFeeds": 10, "fieldFrequency": [{"field": "podcast:guid", "frequency": 4, "percentage": 40.0}]});
    wire_round_trip::<RssPublicStatsResponse>(
        "GetRssStatsPodcast2Response",
        json!({"podcast2Stats": {
            "podcastLevelStats": level.clone(), "episodeLevelStats": level,
            "topPodcast2Podcasts": [{"podcastId": "p", "host": "buzzsprout.com", "podcastSlug": "s",
                "podcastImageUrl": null, "rssFeedUrl": "https://f.example", "numPodcast20Fields": 5,
                "implementedFields": ["podcast:guid"]}],
            "topHosts": [{"host": "buzzsprout.com", "totalPodcasts": 3, "percentage": 30.0}],
            "topHostsWithPodcast2Transcripts": [{"host": "h", "totalPodcasts": 3, "numPodcastsWithTranscripts": 1, "percentage": 33.3}],
            "topHostsWithPodcast2Stats": [{"host": "h", "totalPodcasts": 3, "averageNumPodcast2Fields": 2.5}]
        }}),
        &["podcast2Stats"],
        &[
            "podcastLevelStats",
            "episodeLevelStats",
            "topPodcast2Podcasts",
            "topHosts",
        ],
    );
    let response: TeamPodcastsResponse = wire_round_trip(
        "GetTeamPodcastsResponse",
        json!({"total": 1, "totalFiltered": 1, "teamPodcasts": [{
            "addedByUserId": null, "addedReason": "listed-podcast", "blacklist": false,
            "createdAt": "2025-01-01T00:00:00Z", "podcast": summary_json("pod-1"), "podcastId": "pod-1",
            "projects": [{"projectId": "p1", "addedByUserId": "u1", "listedPodcastState": "booked"}],
            "sync": true, "teamId": "t1"}]}),
        &["teamPodcasts", "0"],
        &[
            "addedByUserId",
            "addedReason",
            "blacklist",
            "createdAt",
            "podcast",
            "podcastId",
            "projects",
            "sync",
            "teamId",
        ],
    );
    let mut podcast = response.team_podcasts[0].clone();
    TeamPodcastFlagsUpdate {
        sync: None,
        blacklist: Some(true),
    }
    .apply(&mut podcast);
    assert!(podcast.sync && podcast.blacklist);
    TeamPodcastFlagsUpdate {
        sync: Some(false),
        blacklist: None,
    }
    .apply(&mut podcast);
    assert!(!podcast.sync && podcast.blacklist);
}

#[test]
fn user_preferences_are_strict() {
    let good = json!({
        "projects": {"favoriteProjectIds": ["p1"], "lastSelectedProjectSlug": "guest-booking"},
        "showAdditionalPodcastDirectories": true,
        "search": {"defaultSearchFilters": {"languages": ["en"]}, "defaultResultsView": "table",
                   "export": {"columnsToNotExport": ["socials", "authorityScore"]}}
    });
    let parsed: UserPreferences = serde_json::from_value(good.clone()).unwrap();
    assert_eq!(parsed.results_view(), ResultsView::Table);
    assert_eq!(serde_json::to_value(&parsed).unwrap(), good);
    assert_eq!(UserPreferences::default().results_view(), ResultsView::List);
    for bad in [
        json!({"theme": "dark"}),
        json!({"projects": {"pinned": []}}),
        json!({"search": {"defaultResultsView": "grid"}}),
        json!({"search": {"export": {"columnsToNotExport": ["everything"]}}}),
        json!({"search": {"export": {"format": "csv"}}}),
    ] {
        assert!(
            serde_json::from_value::<UserPreferences>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn outreach_entries_flatten_their_options() {
    let entry = json!({
        "id": "o1", "createdAt": "2025-01-01T00:00:00Z", "teamId": "t1", "userId": "u1",
        "podcast": {"podcastId": "pod-1", "title": "The Show", "slug": "the-show", "imageUrl": null},
        "project": {"projectId": "p1", "slug": "ann", "name": "Ann", "guest": null},
        "subject": "Guest idea", "perspective": "third", "emailLength": "short",
        "callToActionStyle": "light", "personalizationLevel": "heavy", "body": "Hello"
    });
    let details: OutreachDetails = serde_json::from_value(entry).unwrap();
    assert_eq!(details.entry.options.generation_mode.as_str(), "basic");
    let written = serde_json::to_value(&details).unwrap();
    for key in [
        "perspective",
        "emailLength",
        "callToActionStyle",
        "personalizationLevel",
        "generationMode",
        "body",
        "subject",
    ] {
        assert!(written.get(key).is_some(), "{key}");
    }
    assert_eq!(Template::normalize_description(Some("  ".into())), None);
    assert_eq!(
        Template::normalize_description(Some("x".into())),
        Some("x".into())
    );
}

#[test]
fn authority_sub_scores_weight_to_the_final_score() {
    let details: AuthorityScoreDetails = serde_json::from_value(json!({
        "podcastId": "pod-1", "calculatedAt": "2025-01-01T00:00:00Z", "finalScore": 61.0,
        "subScores": {"quality": {"score": 80.0, "weight": 0.4}, "social": {"score": 50.0, "weight": 0.2},
                      "youtube": {"score": 30.0, "weight": 0.2}, "engagement": {"score": 65.0, "weight": 0.2}},
        "inputs": {}
    }))
    .unwrap();
    // 80*0.4 + 50*0.2 + 30*0.2 + 65*0.2 = 32 + 10 + 6 + 13
    assert!((details.sub_scores.weighted_total() - 61.0).abs() < 1e-9);
    assert!(details.inputs.castbox_plays.is_none());
}

#[test]
fn crawl_result_uses_spec_names() {
    let result = WebsiteCrawlResult {
        socials: vec![CrawlSocial {
            kind: crate::kinds::SocialKind::Youtube,
            url: "https://youtube.com/@show".into(),
            occurrences: 2,
            pages: vec!["https://show.example/".into()],
        }],
        ..WebsiteCrawlResult::default()
    };
    let written = serde_json::to_value(&result).unwrap();
    for key in [
        "externalLinks",
        "emails",
        "phoneNumbers",
        "contactPages",
        "socials",
        "podcastDirectoryLinks",
        "applePodcastLinks",
        "spotifyPodcastLinks",
        "visitedUrls",
        "stats",
    ] {
        assert!(written.get(key).is_some(), "{key}");
    }
    assert_eq!(written["socials"][0]["type"], "youtube");
    for key in [
        "baseUrl",
        "pagesCrawled",
        "errors",
        "cacheHits",
        "cacheMisses",
        "durationMs",
    ] {
        assert!(written["stats"].get(key).is_some(), "{key}");
    }
}

#[test]
fn sdk_check_rejects_a_missing_required_key() {
    let mut summary = summary_json("pod-1");
    summary.as_object_mut().unwrap().remove("titleLatest");
    let document = json!({"podcasts": [summary]});
    if let Some(result) = sdk_validate("GetLatestPodcastsResponse", &document) {
        assert!(result.is_err(), "the SDK check must be able to fail");
    }
    assert!(serde_json::from_value::<LatestPodcastsResponse>(document).is_err());
}
