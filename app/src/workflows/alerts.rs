//! Alerts: saved searches for a person, a company or a keyword (with alternative
//! spellings), and the job that matches them against the catalog's episodes through
//! the search index, recording one match per alert and episode with its mentions
//! (snippets and, in transcripts, timestamps).

use super::job_log::JobFailure;
use std::sync::Arc;

use chrono::Utc;
use podlens_indexer::{
    EpisodeHit, Hits, MatchMode, SearchFilters, SearchMode, SearchRequest, SearchTerm, SortField,
    SortOrder, Target,
};
use podlens_model::catalog::TranscriptRecord;
use podlens_model::entities::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::documents::{DocFilter, DocKind, Stored};
use crate::error::AppResult;

/// The alert types of the wire.
pub const ALERT_TYPES: [&str; 3] = ["person", "company", "custom-keyword"];
/// The e-mail frequencies of the wire.
pub const EMAIL_FREQUENCIES: [&str; 3] = ["hourly", "daily", "weekly"];
/// Episodes one alert may match in one run.
const MAX_MATCHES_PER_RUN: usize = 500;
/// Hits asked for per index page.
const PAGE_SIZE: usize = 100;
/// Characters either side of a mention in a title or description snippet.
const SNIPPET_CONTEXT: usize = 120;

/// A stored alert configuration, in its wire shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertConfig {
    pub id: String,
    pub created_by_user_id: String,
    pub team_id: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub alert_name: String,
    pub alert_type: String,
    pub enabled: bool,
    pub alert_settings: Map<String, Value>,
    pub email_settings: EmailSettings,
    pub last_run_date: Option<Timestamp>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmailSettings {
    pub frequency: String,
}

impl AlertConfig {
    /// A new alert of `account`'s team, created now, never run.
    pub fn new(
        account: &crate::accounts::Account,
        alert_name: String,
        alert_type: String,
        enabled: bool,
        alert_settings: Map<String, Value>,
        email_settings: EmailSettings,
    ) -> AlertConfig {
        let now = chrono::Utc::now();
        AlertConfig {
            id: uuid::Uuid::new_v4().to_string(),
            created_by_user_id: account.user_id.clone(),
            team_id: account.team_id.clone(),
            created_at: now,
            updated_at: now,
            alert_name,
            alert_type,
            enabled,
            alert_settings,
            email_settings,
            last_run_date: None,
        }
    }

    /// The alert's value and its alternative spellings, trimmed and unique.
    pub fn search_terms(&self) -> Vec<String> {
        let mut terms: Vec<String> = Vec::new();
        let value = self.alert_settings.get("value").and_then(Value::as_str);
        let others = self
            .alert_settings
            .get("otherSpellings")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str);
        for term in value.into_iter().chain(others) {
            let term = term.trim();
            if term.chars().count() >= 2 && !terms.iter().any(|t| t.eq_ignore_ascii_case(term)) {
                terms.push(term.to_owned());
            }
        }
        terms
    }

    fn flag(&self, name: &str) -> bool {
        self.alert_settings
            .get("filters")
            .and_then(|filters| filters.get(name))
            .and_then(Value::as_bool)
            .unwrap_or(false)
            || (name == "excludeAds"
                && self
                    .alert_settings
                    .get("filterAdvertisements")
                    .and_then(Value::as_bool)
                    .unwrap_or(false))
    }

    fn genres(&self, name: &str) -> Vec<String> {
        self.alert_settings
            .get(name)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|genre| genre.trim().to_lowercase())
            .filter(|genre| !genre.is_empty())
            .collect()
    }
}

/// The alert a match belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchAlert {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub alert_type: String,
    pub value: String,
    pub created_by_user_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchEpisode {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub published_at: Option<Timestamp>,
    pub image_url: Option<String>,
    pub transcript_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchPodcast {
    pub id: String,
    pub slug: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MentionLabel {
    pub classifier: String,
    pub label: String,
    pub probability: f64,
    pub filtered_out: bool,
}

/// One place the alert's value occurs in an episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mention {
    pub id: String,
    /// `EPISODE` (title or description) or `TRANSCRIPT`.
    pub source: String,
    pub start_second: Option<f64>,
    pub end_second: Option<f64>,
    pub snippet: String,
    pub passes_filters: bool,
    pub filter_reasons: Vec<String>,
    pub labels: Vec<MentionLabel>,
    pub play_url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Appearance {
    pub role: Option<String>,
    pub source: String,
}

/// One alert's match of one episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertMatch {
    pub id: String,
    pub alert_config: MatchAlert,
    pub status: String,
    pub filter_reasons: Vec<String>,
    pub episode: MatchEpisode,
    pub podcast: MatchPodcast,
    pub appearance: Option<Appearance>,
    pub first_matched_at: Timestamp,
    pub mentions: Vec<Mention>,
}

impl AlertMatch {
    /// `TRANSCRIPT` when a mention is in the transcript, else `EPISODE`.
    pub fn kind(&self) -> &'static str {
        if self.mentions.iter().any(|m| m.source == "TRANSCRIPT") {
            "TRANSCRIPT"
        } else {
            "EPISODE"
        }
    }
}

/// What one run of the alerts job did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertRunReport {
    pub alerts_run: u64,
    pub new_matches: u64,
    /// Alerts that failed this run; the others ran.
    #[serde(skip)]
    pub failures: Vec<super::job_log::JobFailure>,
}

const AD_MARKERS: &[&str] = &[
    "sponsored by",
    "brought to you by",
    "promo code",
    "use code",
    "discount code",
    "% off",
    "our sponsor",
    "free trial",
    "for sponsoring",
    "for their support",
    "for supporting the show",
    "for supporting this",
    "supported by",
    "paid partnership",
];

/// Whether a snippet reads like an advertisement.
pub fn looks_like_ad(snippet: &str) -> bool {
    let lower = snippet.to_lowercase();
    AD_MARKERS.iter().any(|marker| lower.contains(marker))
}

/// The text around the first occurrence of any term (case-insensitive), or `None`.
pub fn snippet_around(text: &str, terms: &[String]) -> Option<String> {
    let lower = text.to_lowercase();
    let (start, length) = terms
        .iter()
        .filter_map(|term| {
            let needle = term.to_lowercase();
            lower.find(&needle).map(|at| (at, needle.len()))
        })
        .min()?;
    // `lower` may differ in byte length from `text` for some scripts; fall back to it.
    let source = if lower.len() == text.len() {
        text
    } else {
        lower.as_str()
    };
    let mut from = start.saturating_sub(SNIPPET_CONTEXT);
    while !source.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (start + length + SNIPPET_CONTEXT).min(source.len());
    while !source.is_char_boundary(to) {
        to += 1;
    }
    let mut snippet = source[from..to].trim().to_owned();
    if from > 0 {
        snippet.insert(0, '…');
    }
    if to < source.len() {
        snippet.push('…');
    }
    Some(snippet)
}

fn contains_any(text: &str, terms: &[String]) -> bool {
    let lower = text.to_lowercase();
    terms
        .iter()
        .any(|term| lower.contains(&term.to_lowercase()))
}

fn play_url(hit: &EpisodeHit, start: Option<f64>) -> String {
    match (&hit.enclosure_url, start) {
        (Some(url), Some(start)) => format!("{url}#t={}", start.floor() as i64),
        (Some(url), None) => url.clone(),
        (None, _) => hit.web_url.clone().unwrap_or_default(),
    }
}

fn mention(
    id: String,
    source: &str,
    snippet: String,
    times: (Option<f64>, Option<f64>),
    play_url: String,
    exclude_ads: bool,
) -> Mention {
    let is_ad = looks_like_ad(&snippet);
    let filtered = exclude_ads && is_ad;
    Mention {
        id,
        source: source.to_owned(),
        start_second: times.0,
        end_second: times.1,
        snippet,
        passes_filters: !filtered,
        filter_reasons: if filtered {
            vec!["ad".to_owned()]
        } else {
            Vec::new()
        },
        labels: vec![MentionLabel {
            classifier: "isAd".to_owned(),
            label: if is_ad { "ad" } else { "not_ad" }.to_owned(),
            probability: if is_ad { 0.9 } else { 0.1 },
            filtered_out: filtered,
        }],
        play_url,
    }
}

/// The match of `hit` for `config`, or `None` when the value does not actually occur
/// (the index matches stems and spellings loosely; a match needs the literal text).
pub fn match_of(config: &AlertConfig, hit: &EpisodeHit, now: Timestamp) -> Option<AlertMatch> {
    let terms = config.search_terms();
    let exclude_ads = config.flag("excludeAds");
    let match_id = format!("{}:{}", config.id, hit.episode_id);
    let mut mentions = Vec::new();
    for (field, text) in [
        ("title", Some(hit.title.as_str())),
        ("description", hit.description.as_deref()),
    ] {
        if let Some(snippet) = text.and_then(|text| snippet_around(text, &terms)) {
            mentions.push(mention(
                format!("{match_id}:{field}"),
                "EPISODE",
                snippet,
                (None, None),
                play_url(hit, None),
                exclude_ads,
            ));
        }
    }
    for snippet in &hit.snippets {
        if contains_any(&snippet.fragment, &terms) {
            mentions.push(mention(
                format!("{match_id}:{}", snippet.chunk_id),
                "TRANSCRIPT",
                snippet.fragment.trim().to_owned(),
                (snippet.start_second, snippet.end_second),
                play_url(hit, snippet.start_second),
                exclude_ads,
            ));
        }
    }
    if mentions.is_empty() {
        return None;
    }
    let kept = mentions.iter().any(|m| m.passes_filters);
    let mut filter_reasons: Vec<String> = Vec::new();
    if !kept {
        for m in &mentions {
            for reason in &m.filter_reasons {
                if !filter_reasons.contains(reason) {
                    filter_reasons.push(reason.clone());
                }
            }
        }
    }
    let appearance =
        (config.alert_type == "person" && contains_any(&hit.title, &terms)).then(|| Appearance {
            role: Some("guest".to_owned()),
            source: "title_description".to_owned(),
        });
    Some(AlertMatch {
        id: match_id,
        alert_config: MatchAlert {
            id: config.id.clone(),
            name: config.alert_name.clone(),
            alert_type: config.alert_type.clone(),
            value: terms.first().cloned().unwrap_or_default(),
            created_by_user_id: config.created_by_user_id.clone(),
        },
        status: if kept { "kept" } else { "filtered" }.to_owned(),
        filter_reasons,
        episode: MatchEpisode {
            id: hit.episode_id.to_string(),
            slug: hit.slug.clone(),
            title: hit.title.clone(),
            published_at: hit.published_at,
            image_url: hit.image_url.clone(),
            transcript_id: hit.transcript_id.map(|id| id.to_string()),
        },
        podcast: MatchPodcast {
            id: hit.podcast_id.to_string(),
            slug: String::new(),
            title: hit.podcast_title.clone().unwrap_or_default(),
        },
        appearance,
        first_matched_at: now,
        mentions,
    })
}

/// The most transcript mentions kept per episode.
const MAX_TRANSCRIPT_MENTIONS: usize = 20;

/// Replaces the index's chunk-level transcript mentions with one mention per timed
/// segment that holds the value: the segment's own start and end, and the segment with
/// its neighbours as the snippet. Transcripts without timing keep the chunk mentions.
pub fn refine_transcript_mentions(
    config: &AlertConfig,
    hit: &EpisodeHit,
    transcript: &TranscriptRecord,
    matched: &mut AlertMatch,
) {
    let terms = config.search_terms();
    let exclude_ads = config.flag("excludeAds");
    let segments = &transcript.segments;
    let mut refined = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        if segment.start_second.is_none() || !contains_any(&segment.text, &terms) {
            continue;
        }
        let from = index.saturating_sub(1);
        let to = (index + 2).min(segments.len());
        let snippet = segments[from..to]
            .iter()
            .map(|s| s.text.trim())
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        refined.push(mention(
            format!("{}:segment:{index}", matched.id),
            "TRANSCRIPT",
            snippet,
            (segment.start_second, segment.end_second),
            play_url(hit, segment.start_second),
            exclude_ads,
        ));
        if refined.len() == MAX_TRANSCRIPT_MENTIONS {
            break;
        }
    }
    if refined.is_empty() {
        return;
    }
    matched.mentions.retain(|m| m.source != "TRANSCRIPT");
    matched.mentions.extend(refined);
    let kept = matched.mentions.iter().any(|m| m.passes_filters);
    matched.status = if kept { "kept" } else { "filtered" }.to_owned();
}

fn request_for(config: &AlertConfig, cursor: Option<String>) -> SearchRequest {
    let terms = config
        .search_terms()
        .into_iter()
        .map(|text| SearchTerm {
            phrase: text.split_whitespace().count() > 1,
            text,
            targets: vec![
                Target::EpisodeTitle,
                Target::EpisodeDescription,
                Target::Transcript,
            ],
            match_mode: MatchMode::Optional,
            slop: 0,
            fuzzy: false,
        })
        .collect();
    SearchRequest {
        mode: Some(SearchMode::Episodes),
        terms,
        filters: SearchFilters {
            include_genres: config.genres("genresToInclude"),
            exclude_genres: config.genres("genresToSkip"),
            ..SearchFilters::default()
        },
        sort: SortOrder {
            field: SortField::RecentActivity,
            ..SortOrder::default()
        },
        page_size: PAGE_SIZE,
        cursor,
        snippets: true,
        explain: false,
        hybrid: false,
        time_limit: Some(crate::search_plan::SEARCH_TIME_LIMIT),
        ..SearchRequest::default()
    }
}

/// What running alerts needs: the catalog to search, the store of alerts, matches
/// and the delivery ledger, and the accounts (whom to mail).
#[derive(Clone)]
pub struct Alerts {
    pub catalog: Arc<crate::catalog::CatalogReader>,
    pub engine: Arc<dyn crate::search::SearchEngine>,
    pub store: Arc<super::WorkflowStore>,
    pub accounts: Arc<dyn crate::accounts::AccountStore>,
}

/// Runs one alert: records a match for every episode that mentions it and has none
/// yet, with the deliveries that report the kept ones (see [`super::delivery`]), and
/// returns the new matches. Nothing is sent here: call
/// [`super::delivery::deliver_pending`] after.
pub async fn run_alert(alerts: &Alerts, config: &AlertConfig) -> AppResult<Vec<AlertMatch>> {
    let now = Utc::now();
    if config.search_terms().is_empty() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    let mut cursor = None;
    let mut seen = 0usize;
    loop {
        let response = alerts.engine.search(request_for(config, cursor)).await?;
        let Hits::Episodes(hits) = response.hits else {
            break;
        };
        seen += hits.len();
        let page_empty = hits.is_empty();
        // The transcripts and podcasts of a page's matches are read from the catalog's
        // snapshot (DuckDB) on a blocking thread.
        let (catalog, page_config) = (alerts.catalog.clone(), config.clone());
        found.extend(
            crate::runtime::blocking(move || matches_of_page(&catalog, &page_config, &hits, now))
                .await?,
        );
        cursor = response.next_cursor;
        if cursor.is_none() || page_empty || seen >= MAX_MATCHES_PER_RUN {
            break;
        }
    }
    // The new matches and their pending deliveries commit together: a crash after
    // this line loses no delivery, one before it leaves the episodes unmatched for
    // the next run. The deliveries are sent by the delivery worker.
    let recipients = if found.is_empty() {
        Vec::new()
    } else {
        mail_recipients(alerts, config).await?
    };
    let store = &alerts.store;
    let found = store
        .record_alert_matches(config, found, &recipients, now)
        .await?;
    // Only the run date is written, in place: an update or delete made meanwhile is kept.
    store
        .merge_into_doc(
            DocKind::AlertConfig,
            &config.id,
            &serde_json::json!({ "lastRunDate": now }),
        )
        .await?;
    Ok(found)
}

/// The matches among a page of `hits`, their transcript mentions placed in the
/// transcript and their podcasts named as the catalog has them.
fn matches_of_page(
    catalog: &crate::catalog::CatalogReader,
    config: &AlertConfig,
    hits: &[EpisodeHit],
    now: chrono::DateTime<Utc>,
) -> AppResult<Vec<AlertMatch>> {
    let snapshot = catalog.snapshot()?;
    let mut found = Vec::new();
    for hit in hits {
        let Some(mut matched) = match_of(config, hit, now) else {
            continue;
        };
        if matched.mentions.iter().any(|m| m.source == "TRANSCRIPT")
            && let Some(transcript) = snapshot.transcript_by_episode(hit.episode_id)?
        {
            refine_transcript_mentions(config, hit, &transcript, &mut matched);
        }
        if let Ok(Some(podcast)) = snapshot.podcast_by_id(hit.podcast_id) {
            matched.podcast.slug = podcast.podcast_slug;
            matched.podcast.title = podcast.podcast_rss_title;
        }
        found.push(matched);
    }
    Ok(found)
}

/// The subject of the e-mail that reports `count` new matches.
pub fn match_mail_subject(config: &AlertConfig, count: usize) -> String {
    format!(
        "Alert \"{}\": {count} new episode{}",
        config.alert_name,
        if count == 1 { "" } else { "s" }
    )
}

/// The text of the e-mail that reports new matches.
pub fn match_mail_text(config: &AlertConfig, matches: &[&AlertMatch]) -> String {
    let mut text = format!(
        "Your alert \"{}\" matched {} new episode{}.\n\n",
        config.alert_name,
        matches.len(),
        if matches.len() == 1 { "" } else { "s" }
    );
    for m in matches {
        text.push_str(&format!("{} — {}\n", m.podcast.title, m.episode.title));
        if let Some(mention) = m.mentions.iter().find(|mention| mention.passes_filters) {
            text.push_str(&format!("  \"{}\"\n", mention.snippet));
            if !mention.play_url.is_empty() {
                text.push_str(&format!("  {}\n", mention.play_url));
            }
        }
        text.push('\n');
    }
    text
}

/// The most addresses an alert mails besides its creator (`otherEmails`).
pub const MAX_OTHER_EMAILS: usize = 10;

/// Of `emails`, those that are not members of the team (in their order). Alert e-mails
/// go to the team's members only: an address typed into an alert never agreed to
/// receive mail, and an alert's name is the mail's subject, so unchecked addresses let
/// anyone send mail of their wording from the server.
pub async fn emails_outside_team(
    accounts: &dyn crate::accounts::AccountStore,
    team_id: &str,
    emails: &[String],
) -> AppResult<Vec<String>> {
    let members = accounts.team_users(team_id).await?;
    Ok(emails
        .iter()
        .filter(|email| {
            !members
                .iter()
                .any(|member| member.email.eq_ignore_ascii_case(email))
        })
        .cloned()
        .collect())
}

/// Who is mailed an alert's new matches: its creator and its other e-mail addresses,
/// each only while a member of the alert's team (an address stored before this rule,
/// or of a member since removed, is skipped).
async fn mail_recipients(alerts: &Alerts, config: &AlertConfig) -> AppResult<Vec<String>> {
    let members = alerts.accounts.team_users(&config.team_id).await?;
    let mut recipients: Vec<String> = members
        .iter()
        .filter(|user| user.id == config.created_by_user_id)
        .map(|user| user.email.clone())
        .collect();
    for email in config
        .alert_settings
        .get("otherEmails")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let member = members
            .iter()
            .find(|user| user.email.eq_ignore_ascii_case(email));
        if let Some(member) = member
            && !recipients
                .iter()
                .any(|r| r.eq_ignore_ascii_case(&member.email))
        {
            recipients.push(member.email.clone());
        }
    }
    Ok(recipients)
}

/// A match in the shape of `/alerts/matches` (and of webhook deliveries); mentions
/// that did not pass the alert's filters only with `show_filtered`.
pub fn match_wire(m: &AlertMatch, show_filtered: bool) -> Value {
    let mentions: Vec<Value> = m
        .mentions
        .iter()
        .filter(|mention| show_filtered || mention.passes_filters)
        .map(|mention| {
            serde_json::json!({
                "id": mention.id,
                "startSecond": mention.start_second,
                "snippet": mention.snippet,
                "passesFilters": mention.passes_filters,
                "filterReasons": mention.filter_reasons,
                "labels": mention.labels,
                "playUrl": mention.play_url,
            })
        })
        .collect();
    serde_json::json!({
        "id": m.id,
        "alertConfig": {"id": m.alert_config.id, "name": m.alert_config.name, "type": m.alert_config.alert_type},
        "status": m.status,
        "filterReasons": m.filter_reasons,
        "episode": {
            "id": m.episode.id,
            "slug": m.episode.slug,
            "title": m.episode.title,
            "publishedAt": m.episode.published_at,
            "imageUrl": m.episode.image_url,
        },
        "podcast": m.podcast,
        "appearance": m.appearance,
        "mentionCount": m.mentions.len(),
        "keptMentionCount": m.mentions.iter().filter(|mention| mention.passes_filters).count(),
        "syndicatedEpisodeIds": Vec::<String>::new(),
        "firstMatchedAt": m.first_matched_at,
        "mentions": mentions,
    })
}

/// Runs every enabled alert of every team; one failing alert is recorded and the
/// others still run. The new matches' deliveries wait in the ledger for the delivery
/// worker.
pub async fn run_enabled_alerts(alerts: &Alerts) -> AppResult<AlertRunReport> {
    let mut report = AlertRunReport::default();
    let configs: Vec<Stored<AlertConfig>> = alerts
        .store
        .list_docs(DocKind::AlertConfig, &DocFilter::default())
        .await?;
    for config in configs.into_iter().filter(|c| c.value.enabled) {
        match run_alert(alerts, &config.value).await {
            Ok(found) => {
                report.alerts_run += 1;
                report.new_matches += found.len() as u64;
                if !found.is_empty() {
                    tracing::info!(alert = %config.id, matches = found.len(), "alert matched new episodes");
                }
            }
            Err(error) => report.failures.push(JobFailure::new(
                "alert",
                Some(&config.team_id),
                Some(&config.id),
                &error,
            )),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_surround_the_first_mention() {
        let terms = vec!["Ada Lovelace".to_owned()];
        let text = format!(
            "{} we talk with ada lovelace about engines {}",
            "x".repeat(300),
            "y".repeat(300)
        );
        let snippet = snippet_around(&text, &terms).unwrap();
        assert!(snippet.starts_with('…') && snippet.ends_with('…'));
        assert!(snippet.contains("ada lovelace about engines"));
        assert!(snippet_around("nothing here", &terms).is_none());
    }

    #[test]
    fn ads_are_recognised_by_their_wording() {
        assert!(looks_like_ad(
            "This episode is brought to you by Acme, use code PODS"
        ));
        assert!(!looks_like_ad("Acme's founder explains the launch"));
    }

    /// With "Leave out advertisements" on, an alert on a brand kept exactly its sponsor
    /// reads: the reads that thank the sponsor ("Thanks to Acme for their support.",
    /// the demo feeds' wording; "Thank you to Bird Dog for sponsoring this episode.",
    /// a corpus feed's) were not recognised as advertisements.
    #[test]
    fn sponsor_thanks_are_recognised_as_ads() {
        for read in [
            "Thanks to Acme for their support.",
            "Thank you to Bird Dog for sponsoring this episode. Go to BirdDogIt.com to",
            "This episode was sponsored by API, visit their website API.org.",
            "Go to our sponsor ZBiotics.com/RUTHLESS to get 15% off",
            "This show is supported by Acme Bank.",
        ] {
            assert!(looks_like_ad(read), "{read}");
        }
        for talk in [
            "How Acme supports small farms",
            "Why sponsors leave podcasts, with Acme's head of marketing",
        ] {
            assert!(!looks_like_ad(talk), "{talk}");
        }
    }
}
