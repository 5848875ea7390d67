//! Every enumeration against the spec's own lists, written out here independently
//! of the code, plus the SDK's additions, strict parsing and the ordering rules.

use super::*;

/// Checks that `all` equals the spec's list followed by the SDK's extra values,
/// that every value parses, round-trips through serde and displays as itself.
fn check_wire<T>(all: &[T], spec: &[&str], sdk_extra: &[&str])
where
    T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display + serde::Serialize,
    T: serde::de::DeserializeOwned,
{
    let expected: Vec<&str> = spec.iter().chain(sdk_extra).copied().collect();
    let actual: Vec<String> = all.iter().map(|value| value.to_string()).collect();
    assert_eq!(actual, expected);
    for (value, wire) in all.iter().zip(&expected) {
        let json = serde_json::to_string(value).unwrap();
        assert_eq!(json, format!("\"{wire}\""));
        let back: T = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, value);
    }
    for bad in ["", "UNKNOWN-VALUE", "x"] {
        assert!(
            serde_json::from_str::<T>(&format!("\"{bad}\"")).is_err(),
            "{bad}"
        );
    }
    // A different letter case is a different value.
    for wire in &expected {
        let flipped: String = wire
            .chars()
            .map(|c| {
                if c.is_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        if flipped != *wire {
            assert!(serde_json::from_str::<T>(&format!("\"{flipped}\"")).is_err());
        }
    }
    // Numbers, nulls and objects are not enum values either.
    assert!(serde_json::from_str::<T>("0").is_err());
    assert!(serde_json::from_str::<T>("null").is_err());
    assert!(serde_json::from_str::<T>("{}").is_err());
}

#[test]
fn update_frequency() {
    check_wire(
        UpdateFrequency::ALL,
        &["daily", "weekly", "bi-weekly", "monthly", "stale"],
        &["very-stale"],
    );
    assert_eq!(
        UpdateFrequency::parse("bi-weekly"),
        Some(UpdateFrequency::BiWeekly)
    );
    assert_eq!(UpdateFrequency::parse("biweekly"), None);
}

#[test]
fn affiliation_types_keep_their_spaces() {
    let spec = [
        "academic",
        "branded",
        "celebrity",
        "government",
        "independent",
        "legacy media",
        "podcast company",
        "new media",
        "not for profit",
        "religious",
        "other",
        "unknown",
    ];
    assert_eq!(spec.len(), 12);
    check_wire(AffiliationType::ALL, &spec, &[]);
    assert_eq!(AffiliationType::parse("legacy-media"), None);
    assert_eq!(AffiliationType::parse("not_for_profit"), None);
}

#[test]
fn transcription_modes() {
    check_wire(
        TranscriptionModeKind::ALL,
        &["none", "all", "episodes-since"],
        &[],
    );
}

#[test]
fn listed_podcast_statuses_default_to_prospect() {
    check_wire(
        ListedPodcastStatus::ALL,
        &[
            "prospect",
            "qualified",
            "pitched",
            "lost",
            "booked",
            "ignored",
        ],
        &[],
    );
    assert_eq!(ListedPodcastStatus::default().as_str(), "prospect");
}

#[test]
fn priorities() {
    check_wire(Priority::ALL, &["low", "medium", "high", "urgent"], &[]);
}

#[test]
fn project_statuses_and_types() {
    check_wire(
        ProjectStatus::ALL,
        &["DRAFT", "PENDING", "ACTIVE", "ARCHIVED", "ERROR"],
        &[],
    );
    let types = [
        "advertisers",
        "api",
        "content-creation",
        "guest-booking",
        "interesting-podcasts",
        "lead-generation",
        "monitoring",
        "other",
        "transcriptions",
    ];
    assert_eq!(types.len(), 9);
    check_wire(ProjectType::ALL, &types, &[]);
    check_wire(
        ProjectSortBy::ALL,
        &["recent-activity", "name", "created"],
        &[],
    );
}

#[test]
fn guest_profile_statuses() {
    check_wire(
        GuestProfileStatus::ALL,
        &[
            "DRAFT",
            "CREATING_DOCUMENT_FROM_FORM",
            "PROCESSING_DOCUMENTS",
            "GENERATING_PROFILE",
            "DONE",
            "ERROR",
        ],
        &[],
    );
}

#[test]
fn person_and_sponsor_types() {
    check_wire(
        PersonType::ALL,
        &["guest", "host", "unknown"],
        &["mentioned"],
    );
    let sponsors = [
        "sponsor",
        "advertiser",
        "guest",
        "affiliate",
        "self promotion",
        "charity",
        "donation",
        "other",
        "unknown",
    ];
    assert_eq!(sponsors.len(), 9);
    check_wire(SponsorType::ALL, &sponsors, &[]);
}

#[test]
fn chart_enumerations() {
    check_wire(ChartType::ALL, &["apple", "spotify"], &[]);
    let categories = [
        "top podcasts",
        "trending podcasts",
        "arts",
        "business",
        "comedy",
        "education",
        "fiction",
        "government",
        "health & fitness",
        "history",
        "kids & family",
        "leisure",
        "music",
        "news",
        "religion & spirituality",
        "science",
        "society & culture",
        "sports",
        "technology",
        "true crime",
        "tv & film",
    ];
    assert_eq!(categories.len(), 21);
    check_wire(ChartCategory::ALL, &categories, &[]);
    check_wire(ChartFrequency::ALL, &["hourly", "daily", "weekly"], &[]);
    check_wire(
        ChartMovement::ALL,
        &["up", "down", "unchanged", "entered", "unknown"],
        &[],
    );
    check_wire(ChartCompare::ALL, &["1d", "7d"], &[]);
    check_wire(
        ChartCoverageStatus::ALL,
        &["complete", "unresolved_identities", "incomplete"],
        &[],
    );
    check_wire(
        ChartComparisonStatus::ALL,
        &["available", "unavailable"],
        &[],
    );
}

#[test]
fn labels_and_action_types() {
    check_wire(
        ListedPodcastLabel::ALL,
        &["automated", "guest-appearance"],
        &["mcp"],
    );
    check_wire(
        ActivityActionType::ALL,
        &[
            "added-to-list",
            "update-labels",
            "update-priority",
            "update-state",
        ],
        &[],
    );
}

#[test]
fn outreach_options() {
    check_wire(OutreachPerspective::ALL, &["first", "third"], &[]);
    check_wire(EmailLength::ALL, &["short", "medium", "long"], &[]);
    check_wire(CallToActionStyle::ALL, &["light", "medium", "heavy"], &[]);
    check_wire(
        PersonalizationLevel::ALL,
        &["light", "medium", "heavy"],
        &[],
    );
    check_wire(GenerationMode::ALL, &["basic", "advanced"], &[]);
    assert_eq!(GenerationMode::default(), GenerationMode::Basic);
    check_wire(
        OutreachTemplateKind::ALL,
        &[
            "default",
            "concise",
            "topicsIdeas",
            "discussion",
            "ultraConcise",
        ],
        &[],
    );
}

#[test]
fn prompts_templates_and_reasons() {
    check_wire(
        CustomPromptContextType::ALL,
        &["podcast", "episode", "transcript"],
        &[],
    );
    check_wire(TemplateContext::ALL, &["guest-booking"], &[]);
    check_wire(
        UsageReason::ALL,
        &[
            "advertising",
            "api",
            "content",
            "guests",
            "leads",
            "monitoring",
            "other",
            "transcripts",
        ],
        &[],
    );
}

#[test]
fn requests_strategies_and_views() {
    check_wire(
        TranscriptionRequestStatus::ALL,
        &["not_started", "completed"],
        &[],
    );
    check_wire(
        RequestType::ALL,
        &[
            "autoOutreach",
            "deepAnalysis",
            "diarization",
            "guestPrep",
            "transcription",
        ],
        &[],
    );
    check_wire(
        StrategyApproach::ALL,
        &["straightforward", "unconventional", "longshot"],
        &[],
    );
    check_wire(ResultsView::ALL, &["list", "table"], &[]);
    assert_eq!(ResultsView::default(), ResultsView::List);
    check_wire(
        TeamPodcastAddedReason::ALL,
        &["add-to-team-podcasts-button", "listed-podcast", "script"],
        &["migration", "search-export"],
    );
}

#[test]
fn exports_and_transcripts() {
    let columns = [
        "basicInfo",
        "description",
        "location",
        "website",
        "contactDetails",
        "socials",
        "appleReviews",
        "spotifyReviews",
        "castboxListens",
        "authorityScore",
    ];
    assert_eq!(columns.len(), 10);
    check_wire(ExportColumn::ALL, &columns, &[]);
    check_wire(ExportFormat::ALL, &["csv", "json"], &[]);
    check_wire(TranscriptFormat::ALL, &["vtt", "txt"], &["sentence-vtt"]);
    assert_eq!(TranscriptFormat::default().as_str(), "txt");
}

#[test]
fn audience_brackets() {
    check_wire(
        AgeRange::ALL,
        &["Under 18", "18-24", "25-34", "35-44", "45-54", "55+"],
        &[],
    );
    let income: Vec<&str> = IncomeLevel::ALL.iter().map(|v| v.as_str()).collect();
    assert_eq!(income.first(), Some(&"Under $25K"));
    assert_eq!(income.last(), Some(&"$200K+"));
    check_wire(
        IncomeLevel::ALL,
        &[
            "Under $25K",
            "$25K-$50K",
            "$50K-$75K",
            "$75K-$100K",
            "$100K-$150K",
            "$150K-$200K",
            "$200K+",
        ],
        &[],
    );
    check_wire(
        EducationLevel::ALL,
        &[
            "No High School",
            "High School",
            "Some College",
            "Bachelors Degree",
            "Masters Degree",
            "Doctorate",
        ],
        &[],
    );
    // Spec: steps of 20% from all female to all male; the SDK adds 50/50.
    let steps: Vec<String> = (0..=5)
        .map(|step| step * 20)
        .map(|male| format!("Male {male}% Female {}%", 100 - male))
        .collect();
    for step in &steps {
        assert!(GenderSkew::parse(step).is_some(), "{step}");
    }
    assert_eq!(GenderSkew::ALL.len(), steps.len() + 1);
    assert_eq!(GenderSkew::Even.as_str(), "Male 50% Female 50%");
    assert_eq!(
        GenderSkew::ALL.first().map(|v| v.as_str()),
        Some(steps[0].as_str())
    );
    assert_eq!(
        GenderSkew::ALL.last().map(|v| v.as_str()),
        Some(steps[5].as_str())
    );
    check_wire(
        ListenersBucket::ALL,
        &["0-1K", "1K-10K", "10K-100K", "100K-1M", "1M+"],
        &[],
    );
}

#[test]
fn sdk_only_enumerations() {
    check_wire(
        SocialLinkSource::ALL,
        &[
            "apple-podcasts",
            "bright-data-dataset",
            "google-search",
            "linktree",
            "podcast-website",
            "podchaser",
            "rephonic",
            "rss",
            "youtube-channel-links",
            "youtube-episode-search",
            "youtube-serp",
            "youtube-api-search",
        ],
        &[],
    );
    check_wire(
        EmailDeliverability::ALL,
        &[
            "valid",
            "invalid",
            "catch-all",
            "unknown",
            "spamtrap",
            "abuse",
            "do_not_mail",
        ],
        &[],
    );
    check_wire(
        UsageAlias::ALL,
        &[
            "deepResearchRequests",
            "diarizationRequests",
            "episodeLookups",
            "exportCount",
            "podcastLookups",
            "searchCount",
            "transcriptDownloadCount",
            "transcriptionRequests",
        ],
        &[],
    );
}

/// Rank of a priority in the spec's ascending list, computed from the text.
fn spec_rank(priority: Option<Priority>) -> usize {
    const ASCENDING: [&str; 4] = ["low", "medium", "high", "urgent"];
    priority
        .and_then(|p| ASCENDING.iter().position(|name| *name == p.as_str()))
        .unwrap_or(ASCENDING.len())
}

#[test]
fn priority_ascending_puts_missing_last() {
    let values: Vec<Option<Priority>> = std::iter::once(None)
        .chain(Priority::ALL.iter().copied().map(Some))
        .collect();
    for &a in &values {
        for &b in &values {
            assert_eq!(
                Priority::ascending_missing_last(a, b),
                spec_rank(a).cmp(&spec_rank(b)),
                "{a:?} vs {b:?}"
            );
        }
    }
    let mut list = [
        None,
        Some(Priority::Urgent),
        Some(Priority::Low),
        None,
        Some(Priority::High),
        Some(Priority::Medium),
    ];
    list.sort_by(|a, b| Priority::ascending_missing_last(*a, *b));
    let names: Vec<&str> = list.iter().map(|p| p.map_or("-", |p| p.as_str())).collect();
    assert_eq!(names, ["low", "medium", "high", "urgent", "-", "-"]);
}

#[test]
fn priority_descending_still_puts_missing_last() {
    let mut list = [
        Some(Priority::Low),
        None,
        Some(Priority::Urgent),
        Some(Priority::Medium),
        None,
        Some(Priority::High),
    ];
    list.sort_by(|a, b| Priority::descending_missing_last(*a, *b));
    let names: Vec<&str> = list.iter().map(|p| p.map_or("-", |p| p.as_str())).collect();
    assert_eq!(names, ["urgent", "high", "medium", "low", "-", "-"]);
    // Antisymmetry over every pair.
    let values: Vec<Option<Priority>> = std::iter::once(None)
        .chain(Priority::ALL.iter().copied().map(Some))
        .collect();
    for &a in &values {
        for &b in &values {
            assert_eq!(
                Priority::descending_missing_last(a, b),
                Priority::descending_missing_last(b, a).reverse()
            );
        }
    }
}
