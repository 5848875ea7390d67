//! Podcasts to pitch for a project (the `project` kind of `POST /api/v1/agent/`), found
//! from what the project is about, never from the words of its name when anything else
//! says more:
//! - its terms, in order of trust: its keywords, its strategies' keyword inspiration,
//!   the areas of expertise and topics of its guest profile, then the most frequent
//!   words of its purpose (the name's words only for a project that has nothing else,
//!   and never the guest's own name), each searched over podcast titles and
//!   descriptions;
//! - shows like the ones already listed (the newest few), by the index's related
//!   podcasts (text and vectors fused).
//!
//! Podcasts already on the list or blacklisted by the team are left out. A podcast
//! ranks by how many reasons it has (terms matched, listed shows it is like), then by
//! its summed score relative to each reason's best hit, so the reasons shown are the
//! terms and the shows themselves.

use std::collections::{BTreeMap, HashMap, HashSet};

use podlens_indexer::{
    Hits, MatchMode, PodcastHit, SearchFilters, SearchMode, SearchRequest, SearchTerm, Target,
};
use podlens_model::entities::SearchStrategy;
use podlens_model::enums::ListedPodcastStatus;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::WorkflowStore;
use super::agent::text::{keywords, tokens};
use super::documents::{DocFilter, DocKind};
use super::guest_profiles::{GuestProfileDoc, profiles_by_project};
use super::{ListedPodcastRow, ProjectRow};
use crate::error::AppResult;

/// The most terms searched for one project.
pub const MAX_TERMS: usize = 6;
/// The hits read per term.
pub const HITS_PER_TERM: usize = 50;
/// The listed podcasts (newest first) whose related shows are suggested.
pub const MAX_LIKE_LISTED: usize = 5;
/// The related podcasts read per listed podcast.
pub const RELATED_PER_LISTED: usize = 20;
/// The suggestions returned by default, and at most.
pub const DEFAULT_SUGGESTIONS: usize = 10;
pub const MAX_SUGGESTIONS: usize = 25;

/// A podcast suggested for a project, with the reasons it was: the project terms it
/// matched, and the listed shows it is related to.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub podcast_id: String,
    pub slug: String,
    pub title: String,
    pub image_url: Option<String>,
    pub genres: Vec<String>,
    /// The project's search terms the podcast matched.
    pub matched_terms: Vec<String>,
    /// The shows on the project's list this podcast is like.
    pub like_listed: Vec<ListedShow>,
    /// The sum over its reasons of the hit's score relative to that reason's best hit.
    pub score: f64,
}

/// A show on the project's list, named in a suggestion it led to.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedShow {
    pub podcast_id: String,
    pub title: String,
}

/// Why a podcast was gathered: a project term it matched, or a listed show it is like.
enum Reason<'a> {
    Term(&'a str),
    Like(&'a ListedShow),
}

/// Words every booking project's purpose or name holds ("Book podcast appearances
/// for …", "Pitch …"): they say nothing about which shows fit, and "podcast" matches
/// them all.
const BOOKING_WORDS: &[&str] = &[
    "appearance",
    "appearances",
    "book",
    "booking",
    "bookings",
    "episode",
    "episodes",
    "guest",
    "guests",
    "interview",
    "interviews",
    "pitch",
    "pitches",
    "pitching",
    "podcast",
    "podcasts",
    "project",
    "show",
    "shows",
];

/// The words of `text` as [`keywords`] gives them (lowercased, plurals folded), for
/// leaving a name's words out of the terms.
fn words_of(text: &str) -> HashSet<String> {
    tokens(text).into_iter().collect()
}

/// The terms a project is searched with, in order of trust, without repeats
/// (case-insensitive), at most [`MAX_TERMS`]: its keywords, its strategies' keyword
/// inspiration, its guest's areas of expertise and topics, then the purpose's most
/// frequent words. The name's words count only when none of these gave a term and the
/// project lists no show (whose related shows are suggested instead), and a word of
/// the guest's name is never a term: "Pitch Maya Chen" is not about "maya".
pub fn project_terms(
    project: &ProjectRow,
    strategies: &[SearchStrategy],
    guest: Option<&GuestProfileDoc>,
    lists_shows: bool,
) -> Vec<String> {
    let guest_topics = guest.into_iter().flat_map(|guest| {
        let (expertise, topics) = match &guest.guest_bio {
            Some(bio) => (&bio.areas_of_expertise, &bio.topics_to_discuss),
            None => (
                &guest.source.areas_of_expertise,
                &guest.source.topics_to_discuss,
            ),
        };
        expertise.iter().chain(topics).cloned()
    });
    let written = project
        .project_keywords
        .iter()
        .cloned()
        .chain(
            strategies
                .iter()
                .flat_map(|strategy| strategy.keyword_inspiration.iter().cloned()),
        )
        .chain(guest_topics);
    let purpose = project.project_purpose.as_deref().unwrap_or_default();
    let guest_name = guest.map_or_else(HashSet::new, |guest| {
        let mut names = words_of(&guest.name);
        for part in [&guest.first_name, &guest.last_name].into_iter().flatten() {
            names.extend(words_of(part));
        }
        names
    });
    let mut terms: Vec<String> = Vec::new();
    let push = |terms: &mut Vec<String>, term: String| {
        let term = term.split_whitespace().collect::<Vec<_>>().join(" ");
        let words = words_of(&term);
        let only_names = !words.is_empty() && words.is_subset(&guest_name);
        if term.chars().count() >= 2
            && !only_names
            && terms.len() < MAX_TERMS
            && !terms
                .iter()
                .any(|known| known.to_lowercase() == term.to_lowercase())
        {
            terms.push(term);
        }
    };
    let booking = words_of(&BOOKING_WORDS.join(" "));
    let telling = |text: &str| {
        keywords(text, MAX_TERMS + BOOKING_WORDS.len())
            .into_iter()
            .filter(|word| !booking.contains(word) && !guest_name.contains(word))
            .collect::<Vec<_>>()
    };
    for term in written.chain(telling(purpose)) {
        push(&mut terms, term);
    }
    if terms.is_empty() && !lists_shows {
        for term in telling(&project.name) {
            push(&mut terms, term);
        }
    }
    terms
}

/// Suggestions being gathered, by podcast.
#[derive(Default)]
struct Gathered(HashMap<Uuid, Suggestion>);

impl Gathered {
    /// Adds `hits` (best first, as scored by one reason) under `reason`.
    fn add(&mut self, reason: Reason<'_>, hits: &[PodcastHit], excluded: &HashSet<Uuid>) {
        let best = hits.iter().map(|hit| hit.score).fold(0.0_f32, f32::max);
        for hit in hits
            .iter()
            .filter(|hit| !excluded.contains(&hit.podcast_id))
        {
            let relative = if best > 0.0 {
                f64::from(hit.score / best)
            } else {
                0.0
            };
            let entry = self.0.entry(hit.podcast_id).or_insert_with(|| Suggestion {
                podcast_id: hit.podcast_id.to_string(),
                slug: hit.slug.clone(),
                title: hit.title.clone(),
                image_url: hit.image_url.clone(),
                genres: hit.genres.clone(),
                matched_terms: Vec::new(),
                like_listed: Vec::new(),
                score: 0.0,
            });
            let new = match reason {
                Reason::Term(term) if !entry.matched_terms.iter().any(|known| known == term) => {
                    entry.matched_terms.push(term.to_owned());
                    true
                }
                Reason::Like(show) if !entry.like_listed.contains(show) => {
                    entry.like_listed.push(show.clone());
                    true
                }
                _ => false,
            };
            if new {
                entry.score += relative;
            }
        }
    }

    /// Most reasons first, then the highest summed score, at most `limit`.
    fn ranked(self, limit: usize) -> Vec<Suggestion> {
        let mut ranked: Vec<Suggestion> = self.0.into_values().collect();
        let reasons = |s: &Suggestion| s.matched_terms.len() + s.like_listed.len();
        ranked.sort_by(|a, b| {
            reasons(b)
                .cmp(&reasons(a))
                .then(b.score.total_cmp(&a.score))
                .then_with(|| a.podcast_id.cmp(&b.podcast_id))
        });
        ranked.truncate(limit);
        for suggestion in &mut ranked {
            suggestion.score = (suggestion.score * 1000.0).round() / 1000.0;
        }
        ranked
    }
}

/// The podcasts matching `terms` or like the `listed` ones (id and title, newest
/// first), best first, without the `excluded` ones.
pub async fn suggest(
    engine: &dyn crate::search::SearchEngine,
    terms: &[String],
    listed: &[(Uuid, String)],
    excluded: &[Uuid],
    limit: usize,
) -> AppResult<Vec<Suggestion>> {
    let excluded: HashSet<Uuid> = excluded.iter().copied().collect();
    let mut gathered = Gathered::default();
    for term in terms {
        let request = SearchRequest {
            mode: Some(SearchMode::Podcasts),
            terms: vec![SearchTerm {
                text: term.clone(),
                targets: vec![Target::PodcastTitle, Target::PodcastDescription],
                match_mode: MatchMode::Must,
                phrase: term.split_whitespace().count() > 1,
                slop: 0,
                fuzzy: false,
            }],
            filters: SearchFilters {
                exclude_podcast_ids: excluded.iter().copied().collect(),
                ..SearchFilters::default()
            },
            page_size: HITS_PER_TERM,
            time_limit: Some(crate::search_plan::SEARCH_TIME_LIMIT),
            ..SearchRequest::default()
        };
        if let Hits::Podcasts(hits) = engine.search(request).await?.hits {
            gathered.add(Reason::Term(term), &hits, &excluded);
        }
    }
    for (podcast_id, title) in listed.iter().take(MAX_LIKE_LISTED) {
        let related = engine
            .related_podcasts(*podcast_id, RELATED_PER_LISTED)
            .await?;
        let show = ListedShow {
            podcast_id: podcast_id.to_string(),
            title: title.clone(),
        };
        gathered.add(Reason::Like(&show), &related, &excluded);
    }
    Ok(gathered.ranked(limit))
}

/// The `project` kind's answer: the pipeline of the list, podcasts to add, and what to
/// do next.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectAssist {
    pub project_id: String,
    pub slug: String,
    pub name: String,
    /// Listed podcasts per status (every status, zero included).
    pub pipeline: BTreeMap<String, u64>,
    pub search_terms: Vec<String>,
    pub suggestions: Vec<Suggestion>,
    pub next_steps: Vec<String>,
}

/// The listed podcasts the team still wants (not ignored, not lost), newest first, as
/// (id, title): the models of "shows like these".
fn newest_listed(listed: &[ListedPodcastRow]) -> Vec<(Uuid, String)> {
    let mut rows: Vec<&ListedPodcastRow> = listed
        .iter()
        .filter(|row| {
            !matches!(
                row.status,
                ListedPodcastStatus::Ignored | ListedPodcastStatus::Lost
            )
        })
        .collect();
    rows.sort_by_key(|row| std::cmp::Reverse(row.added_at));
    rows.into_iter()
        .filter_map(|row| {
            Uuid::parse_str(&row.podcast_id)
                .ok()
                .map(|id| (id, row.podcast_title.clone()))
        })
        .collect()
}

/// Reviews the team's `project`: counts its list by status and suggests up to `limit`
/// podcasts that are neither listed nor among the team's `blacklisted` ones.
pub async fn project_assist(
    store: &WorkflowStore,
    engine: &dyn crate::search::SearchEngine,
    blacklisted: Vec<Uuid>,
    account: &crate::accounts::Account,
    project: &ProjectRow,
    limit: usize,
) -> AppResult<ProjectAssist> {
    let listed = store.listed_podcasts(&project.project_id).await?;
    let strategies: Vec<SearchStrategy> = store
        .list_docs::<SearchStrategy>(
            DocKind::Strategy,
            &DocFilter {
                team_id: Some(&account.team_id),
                parent_id: Some(&project.project_id),
                ..DocFilter::default()
            },
        )
        .await?
        .into_iter()
        .map(|doc| doc.value)
        .collect();
    let mut excluded = blacklisted;
    excluded.extend(
        listed
            .iter()
            .filter_map(|row| Uuid::parse_str(&row.podcast_id).ok()),
    );
    let guest = profiles_by_project(store, &account.team_id)
        .await?
        .remove(&project.project_id);
    let models = newest_listed(&listed);
    let terms = project_terms(project, &strategies, guest.as_ref(), !models.is_empty());
    let suggestions = suggest(engine, &terms, &models, &excluded, limit).await?;
    let mut pipeline: BTreeMap<String, u64> = ListedPodcastStatus::ALL
        .iter()
        .map(|status| (status.as_str().to_owned(), 0))
        .collect();
    for row in &listed {
        *pipeline.entry(row.status.as_str().to_owned()).or_default() += 1;
    }
    let count = |status: ListedPodcastStatus| pipeline[status.as_str()];
    let mut next_steps = Vec::new();
    if !suggestions.is_empty() {
        let titles: Vec<&str> = suggestions
            .iter()
            .take(3)
            .map(|s| s.title.as_str())
            .collect();
        next_steps.push(format!(
            "Review the suggested podcasts and add the good fits to the list, starting with {}.",
            titles.join(", ")
        ));
    }
    let unprioritised = listed
        .iter()
        .filter(|row| row.status == ListedPodcastStatus::Prospect && row.priority.is_none())
        .count();
    if unprioritised > 0 {
        next_steps.push(format!(
            "{unprioritised} prospect(s) have no priority yet: set one to order the outreach."
        ));
    }
    if count(ListedPodcastStatus::Qualified) > 0 {
        next_steps.push(format!(
            "{} qualified podcast(s) are ready to pitch: write their outreach emails.",
            count(ListedPodcastStatus::Qualified)
        ));
    }
    if count(ListedPodcastStatus::Pitched) > 0 {
        next_steps.push(format!(
            "{} pitched podcast(s) are waiting for an answer: follow up a week after the pitch.",
            count(ListedPodcastStatus::Pitched)
        ));
    }
    if project.project_keywords.is_empty() && strategies.is_empty() {
        next_steps.push(
            "Add keywords to the project or generate search strategies to sharpen the suggestions."
                .to_owned(),
        );
    }
    Ok(ProjectAssist {
        project_id: project.project_id.clone(),
        slug: project.slug.clone(),
        name: project.name.clone(),
        pipeline,
        search_terms: terms,
        suggestions,
        next_steps,
    })
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use podlens_model::enums::{ProjectStatus, ProjectType};

    use super::*;

    fn project(keywords: &[&str], purpose: Option<&str>) -> ProjectRow {
        ProjectRow {
            project_id: "p".into(),
            team_id: "t".into(),
            slug: "night-gardens".into(),
            name: "Night gardens".into(),
            status: ProjectStatus::Active,
            project_types: vec![ProjectType::GuestBooking],
            project_type_other_reason: None,
            project_purpose: purpose.map(str::to_owned),
            project_keywords: keywords.iter().map(|k| (*k).to_owned()).collect(),
            created_by_user_id: "u".into(),
            created_at: Utc::now(),
            last_updated: Utc::now(),
        }
    }

    #[test]
    fn keywords_come_first_then_the_purpose_without_repeats() {
        let terms = project_terms(
            &project(
                &["Moths", "  light   pollution "],
                Some("Pitch our moth ecologist to moths and garden shows"),
            ),
            &[],
            None,
            false,
        );
        assert_eq!(terms[0], "Moths");
        assert_eq!(terms[1], "light pollution");
        assert!(
            !terms[2..]
                .iter()
                .any(|term| term.eq_ignore_ascii_case("moths"))
        );
        assert!(terms.len() <= MAX_TERMS);
        assert!(terms.iter().any(|term| term == "garden"), "{terms:?}");
    }

    #[test]
    fn a_project_without_keywords_or_purpose_is_searched_by_its_name() {
        let terms = project_terms(&project(&[], None), &[], None, false);
        assert_eq!(terms, ["night", "garden"]);
        // Unless it lists shows: shows like them say more than its name.
        assert!(project_terms(&project(&[], None), &[], None, true).is_empty());
    }

    fn guest(name: &str, topics: &[&str]) -> GuestProfileDoc {
        serde_json::from_value(serde_json::json!({
            "guestProfileId": "g", "slug": "g", "projectId": "p", "projectSlug": "p",
            "firstName": null, "lastName": null, "name": name, "email": null, "phone": null,
            "companyName": null, "websiteUrl": null, "bookingUrl": null, "linkedIn": null,
            "onePagerUrl": null, "imageUrl": null, "createdByUserId": "u",
            "createdByEmail": "u@example.com", "socialMediaLinks": [], "guestBio": null,
            "source": {"shortBio": "", "goals": [], "areasOfExpertise": ["Soil health"],
                       "topicsToDiscuss": topics, "thingsToAvoid": []},
            "formDocument": null, "processingStatus": "DONE", "processingError": null,
            "archived": false
        }))
        .unwrap()
    }

    /// Suggestions for "Pitch Maya Chen" searched "pitch", "maya" and "chen": the
    /// guest's expertise and topics are what the project is about, and her name is not.
    #[test]
    fn a_project_named_after_its_guest_is_searched_by_the_guests_topics_not_the_name() {
        let mut named = project(&[], None);
        named.name = "Pitch Maya Chen".into();
        let terms = project_terms(
            &named,
            &[],
            Some(&guest(
                "Maya Chen",
                &["Urban farming", "Maya", "  compost  ", "AI"],
            )),
            false,
        );
        // "AI" has no word a name could hold (too short to be one): it stays.
        assert_eq!(terms, ["Soil health", "Urban farming", "compost", "AI"]);
    }

    /// A project made with a guest profile is named "Pitch <name>" and its purpose is
    /// "Book podcast appearances for <name>": none of those words is a topic.
    #[test]
    fn booking_boilerplate_and_the_guests_name_are_not_terms() {
        let mut made = project(&[], Some("Book podcast appearances for Maya Chen"));
        made.name = "Pitch Maya Chen".into();
        let terms = project_terms(&made, &[], Some(&guest("Maya Chen", &[])), false);
        assert_eq!(terms, ["Soil health"]);
        // Names and booking words are left out as the terms are written: folded
        // ("Williams" is searched as "william", "pitches" as "pitche").
        let mut plural = project(&[], Some("Pitches for James Williams on rewilding"));
        plural.name = "James Williams".into();
        let terms = project_terms(&plural, &[], Some(&guest("James Williams", &[])), false);
        assert_eq!(terms, ["Soil health", "rewilding"]);
        let terms = project_terms(&made, &[], None, false);
        assert!(
            terms
                .iter()
                .all(|term| !["book", "podcast", "appearances", "pitch"]
                    .contains(&term.to_lowercase().as_str())),
            "{terms:?}"
        );
    }
}
