//! Podcasts to pitch for a project (the `project` kind of `POST /api/v1/agent/`): the
//! project's terms (its keywords, its strategies' keyword inspiration, then the most
//! frequent words of its purpose and name) are each searched over podcast titles and
//! descriptions; podcasts already on the list or blacklisted by the team are left out.
//! A podcast ranks by how many terms it matches, then by its summed score relative to
//! each term's best hit, so the reasons shown are the terms themselves.

use std::collections::{BTreeMap, HashMap};

use podlens_indexer::{
    Hits, IndexReaderHandle, MatchMode, SearchFilters, SearchMode, SearchRequest, SearchTerm,
    Target,
};
use podlens_model::entities::SearchStrategy;
use podlens_model::enums::ListedPodcastStatus;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::ProjectRow;
use super::agent::text::keywords;
use super::documents::{DocFilter, DocKind};
use crate::error::ApiResult;
use crate::routes::teams::blacklisted_podcast_ids;
use crate::state::AppState;

/// The most terms searched for one project.
pub const MAX_TERMS: usize = 6;
/// The hits read per term.
pub const HITS_PER_TERM: usize = 50;
/// The suggestions returned by default, and at most.
pub const DEFAULT_SUGGESTIONS: usize = 10;
pub const MAX_SUGGESTIONS: usize = 25;

/// A podcast suggested for a project, with the project terms it matched.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub podcast_id: String,
    pub slug: String,
    pub title: String,
    pub image_url: Option<String>,
    pub genres: Vec<String>,
    pub matched_terms: Vec<String>,
    /// The sum over matched terms of the hit's score relative to the term's best hit.
    pub score: f64,
}

/// The terms a project is searched with, in order of trust, without repeats
/// (case-insensitive), at most [`MAX_TERMS`].
pub fn project_terms(project: &ProjectRow, strategies: &[SearchStrategy]) -> Vec<String> {
    let written = project.project_keywords.iter().cloned().chain(
        strategies
            .iter()
            .flat_map(|strategy| strategy.keyword_inspiration.iter().cloned()),
    );
    let purpose = format!(
        "{} {}",
        project.project_purpose.as_deref().unwrap_or_default(),
        project.name
    );
    let mut terms: Vec<String> = Vec::new();
    for term in written.chain(keywords(&purpose, MAX_TERMS)) {
        let term = term.split_whitespace().collect::<Vec<_>>().join(" ");
        if term.chars().count() >= 2
            && !terms
                .iter()
                .any(|known| known.to_lowercase() == term.to_lowercase())
        {
            terms.push(term);
        }
        if terms.len() == MAX_TERMS {
            break;
        }
    }
    terms
}

/// The podcasts matching `terms`, best first, without the `excluded` ones.
pub fn suggest(
    index: &IndexReaderHandle,
    terms: &[String],
    excluded: &[Uuid],
    limit: usize,
) -> ApiResult<Vec<Suggestion>> {
    let mut found: HashMap<Uuid, Suggestion> = HashMap::new();
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
                exclude_podcast_ids: excluded.to_vec(),
                ..SearchFilters::default()
            },
            page_size: HITS_PER_TERM,
            ..SearchRequest::default()
        };
        let Hits::Podcasts(hits) = index.search(&request)?.hits else {
            continue;
        };
        let best = hits.iter().map(|hit| hit.score).fold(0.0_f32, f32::max);
        for hit in hits {
            let relative = if best > 0.0 {
                f64::from(hit.score / best)
            } else {
                0.0
            };
            let entry = found.entry(hit.podcast_id).or_insert_with(|| Suggestion {
                podcast_id: hit.podcast_id.to_string(),
                slug: hit.slug.clone(),
                title: hit.title.clone(),
                image_url: hit.image_url.clone(),
                genres: hit.genres.clone(),
                matched_terms: Vec::new(),
                score: 0.0,
            });
            entry.matched_terms.push(term.clone());
            entry.score += relative;
        }
    }
    let mut ranked: Vec<Suggestion> = found.into_values().collect();
    ranked.sort_by(|a, b| {
        b.matched_terms
            .len()
            .cmp(&a.matched_terms.len())
            .then(b.score.total_cmp(&a.score))
            .then_with(|| a.podcast_id.cmp(&b.podcast_id))
    });
    ranked.truncate(limit);
    for suggestion in &mut ranked {
        suggestion.score = (suggestion.score * 1000.0).round() / 1000.0;
    }
    Ok(ranked)
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

/// Reviews the team's `project`: counts its list by status and suggests up to `limit`
/// podcasts that are neither listed nor blacklisted by the team.
pub fn project_assist(
    state: &AppState,
    account: &crate::accounts::Account,
    project: &ProjectRow,
    limit: usize,
) -> ApiResult<ProjectAssist> {
    let listed = state.workflows.listed_podcasts(&project.project_id)?;
    let strategies: Vec<SearchStrategy> = state
        .workflows
        .list_docs::<SearchStrategy>(
            DocKind::Strategy,
            &DocFilter {
                team_id: Some(&account.team_id),
                parent_id: Some(&project.project_id),
                ..DocFilter::default()
            },
        )?
        .into_iter()
        .map(|doc| doc.value)
        .collect();
    let mut excluded = blacklisted_podcast_ids(state, Some(account))?;
    excluded.extend(
        listed
            .iter()
            .filter_map(|row| Uuid::parse_str(&row.podcast_id).ok()),
    );
    let terms = project_terms(project, &strategies);
    let index = state.catalog.index()?;
    let suggestions = suggest(&index, &terms, &excluded, limit)?;
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
        let terms = project_terms(&project(&[], None), &[]);
        assert_eq!(terms, ["night", "garden"]);
    }
}
