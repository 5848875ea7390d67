//! What assist tasks are given: a project and a catalog podcast turned into briefs,
//! and a podcast's episodes with their notes, transcripts, sponsors and people turned
//! into show material.

use podlens_data::Snapshot;
use podlens_data::snapshot::EpisodesQuery;
use podlens_model::catalog::{EpisodeRecord, PodcastRecord, TranscriptRecord};

use super::agent::{
    EpisodeBrief, EpisodeMaterial, KnownPerson, Passage, PodcastBrief, ProjectBrief, ShowMaterial,
};
use super::projects::ProjectRow;
use crate::catalog::CatalogReader;
use crate::error::AppResult;

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
pub fn podcast_brief(catalog: &CatalogReader, podcast: &PodcastRecord) -> AppResult<PodcastBrief> {
    let snapshot = catalog.snapshot()?;
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

/// Recent episodes a guest prep or a podcast context reads.
pub const SHOW_EPISODES: u64 = 5;
/// Characters of each transcript a guest prep, a summary or a prompt reads.
pub const CONTEXT_TRANSCRIPT_CHARS: usize = 12_000;
/// Characters of the transcript a deep analysis reads.
pub const ANALYSIS_TRANSCRIPT_CHARS: usize = 60_000;

/// The first cues of a transcript, up to about `max_chars` characters of text.
fn cues(transcript: &TranscriptRecord, max_chars: usize) -> Vec<Passage> {
    let mut used = 0;
    let mut out = Vec::new();
    for segment in &transcript.segments {
        let text = segment.text.trim();
        if text.is_empty() {
            continue;
        }
        if used + text.len() > max_chars && !out.is_empty() {
            break;
        }
        used += text.len();
        out.push(Passage {
            text: text.to_owned(),
            start_second: segment.start_second,
            speaker: segment.speaker.clone(),
        });
    }
    out
}

/// Episodes of one podcast as show material; transcripts are read up to
/// `transcript_chars` characters each (0 leaves them out).
pub fn show_material(
    snapshot: &Snapshot,
    podcast: &PodcastRecord,
    episodes: &[EpisodeRecord],
    transcript_chars: usize,
) -> AppResult<ShowMaterial> {
    let sponsors = snapshot.episode_sponsor_names(podcast.podcast_id)?;
    let people = snapshot.episode_people(podcast.podcast_id)?;
    let mut material = Vec::with_capacity(episodes.len());
    for episode in episodes {
        let transcript = if transcript_chars > 0 && episode.episode_has_transcript {
            snapshot
                .transcript_by_episode(episode.episode_id)?
                .map(|transcript| cues(&transcript, transcript_chars))
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        material.push(EpisodeMaterial {
            episode_id: episode.episode_id.to_string(),
            episode_slug: episode.episode_slug.clone(),
            title: episode.episode_rss_title.clone(),
            published_at: episode.episode_rss_published_at,
            show_notes: episode
                .episode_rss_description_no_html
                .clone()
                .filter(|notes| !notes.trim().is_empty()),
            transcript,
            known_sponsors: sponsors
                .get(&episode.episode_id)
                .cloned()
                .unwrap_or_default(),
            known_people: people
                .iter()
                .filter(|person| person.episode_id == episode.episode_id)
                .map(|person| KnownPerson {
                    name: person.name.clone(),
                    role: person.person_type.clone(),
                })
                .collect(),
        });
    }
    Ok(ShowMaterial {
        podcast_slug: podcast.podcast_slug.clone(),
        title: podcast.podcast_rss_title.clone(),
        description: podcast
            .podcast_rss_description_no_html
            .clone()
            .or_else(|| podcast.podcast_rss_description.clone()),
        host_names: podcast.podcast_host_names.clone(),
        genres: podcast.podcast_podlens_genres.clone(),
        episodes: material,
    })
}

/// The podcast with its newest `count` episodes.
pub fn recent_show_material(
    snapshot: &Snapshot,
    podcast: &PodcastRecord,
    count: u64,
    transcript_chars: usize,
) -> AppResult<ShowMaterial> {
    let episodes = snapshot.podcast_episodes_newest(podcast.podcast_id, count)?;
    show_material(snapshot, podcast, &episodes, transcript_chars)
}
