//! What assist tasks are given: a project and a catalog podcast turned into briefs.

use podlens_data::snapshot::EpisodesQuery;
use podlens_model::catalog::PodcastRecord;

use super::agent::{EpisodeBrief, PodcastBrief, ProjectBrief};
use super::projects::ProjectRow;
use crate::error::ApiResult;
use crate::state::AppState;

/// Recent episodes a podcast brief carries.
pub const BRIEF_EPISODES: u64 = 5;
/// Characters of transcript a podcast brief carries.
pub const BRIEF_TRANSCRIPT_CHARS: usize = 3000;

pub fn project_brief(project: &ProjectRow) -> ProjectBrief {
    ProjectBrief {
        name: project.name.clone(),
        purpose: project.project_purpose.clone(),
        keywords: project.project_keywords.clone(),
        project_types: project
            .project_types
            .iter()
            .map(|kind| kind.as_str().to_owned())
            .collect(),
    }
}

/// The podcast with its newest episodes and some of the newest transcript.
pub fn podcast_brief(state: &AppState, podcast: &PodcastRecord) -> ApiResult<PodcastBrief> {
    let snapshot = state.catalog.snapshot()?;
    let page = snapshot.podcast_episodes(
        podcast.podcast_id,
        &EpisodesQuery {
            limit: BRIEF_EPISODES,
            ..EpisodesQuery::default()
        },
    )?;
    let mut transcript_excerpt = None;
    for episode in page.episodes.iter().filter(|e| e.episode_has_transcript) {
        if let Some(transcript) = snapshot.transcript_by_episode(episode.episode_id)? {
            transcript_excerpt = Some(
                transcript
                    .transcript_text
                    .chars()
                    .take(BRIEF_TRANSCRIPT_CHARS)
                    .collect(),
            );
            break;
        }
    }
    Ok(PodcastBrief {
        title: podcast.podcast_rss_title.clone(),
        description: podcast
            .podcast_rss_description_no_html
            .clone()
            .or_else(|| podcast.podcast_rss_description.clone()),
        genres: podcast.podcast_podlens_genres.clone(),
        host_names: podcast.podcast_host_names.clone(),
        last_episode_at: podcast.last_episode_date,
        total_episodes: podcast.total_episodes,
        recent_episodes: page
            .episodes
            .iter()
            .map(|episode| EpisodeBrief {
                title: episode.episode_rss_title.clone(),
                description: episode.episode_rss_description_no_html.clone(),
                published_at: episode.episode_rss_published_at,
            })
            .collect(),
        transcript_excerpt,
    })
}
