//! Episodes: details, the latest 150, transcript text, timestamps, previews and the
//! transcript download.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use podlens_model::catalog::TranscriptRecord;
use podlens_model::entities::{
    EpisodeDetailsResponse, LatestEpisodesResponse, TranscriptSentence, TranscriptText,
    TranscriptTextResponse, TranscriptTimestampsResponse,
};
use serde::{Deserialize, Serialize};

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::metering::Metered;
use crate::routes::lookup;
use crate::state::{AppState, blocking};
use podlens_app::convert;
use podlens_app::transcripts::{self, PREVIEW_CHARACTERS, PREVIEW_SENTENCES};
use podlens_app::workflows::latest_episodes::LatestParams;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/episodes/latest", get(latest))
        .route("/api/v1/episodes/{episodeId}/details", get(details))
        .route(
            "/api/v1/episodes/{episodeId}/transcript-text",
            get(transcript_text),
        )
        .route(
            "/api/v1/episodes/{episodeId}/transcript-text/preview",
            get(transcript_text_preview),
        )
        .route(
            "/api/v1/episodes/{episodeId}/transcript-timestamps",
            get(transcript_timestamps),
        )
        .route(
            "/api/v1/episodes/{episodeId}/transcript-timestamps/preview",
            get(transcript_timestamps_preview),
        )
        .route(
            "/api/v1/episodes/{episodeId}/download/transcript",
            get(download_transcript),
        )
}

/// An episode's details.
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/details", tag = "episodes",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "The episode"), (status = 404, description = "Unknown episode")))]
pub async fn details(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
) -> ApiResult<Envelope<EpisodeDetailsResponse>> {
    let catalog = state.clone();
    let (record, slug) = blocking(move || {
        let record = lookup::episode_by_id(&catalog, &episode_id)?;
        let slug = lookup::podcast_slug(&catalog, record.podcast_id)?;
        Ok((record, slug))
    })
    .await?;
    let mut episode = convert::episode(&record, &slug);
    episode.deep_analysis_requested_at = state
        .deep_analyses()
        .requested_time(caller.account.as_ref(), &record.episode_id.to_string())
        .await?;
    Ok(Envelope(EpisodeDetailsResponse { episode }))
}

/// The latest episodes (at most 150), grouped by podcast.
#[utoipa::path(get, path = "/api/v1/episodes/latest", tag = "episodes",
    params(("categories" = Option<String>, Query, description = "Comma-separated categories or genres"),
           ("podcastImageRequired" = Option<bool>, Query), ("hasTranscript" = Option<bool>, Query),
           ("language" = Option<String>, Query, description = "Default en"),
           ("excludeExplicit" = Option<bool>, Query), ("limit" = Option<u64>, Query, description = "At most 150")),
    responses((status = 200, description = "Latest episodes by podcast")))]
pub async fn latest(
    State(state): State<AppState>,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> ApiResult<Envelope<LatestEpisodesResponse>> {
    let params = LatestParams::from_query(&pairs)?;
    Ok(Envelope(state.latest_episodes().groups(params).await?))
}

/// The transcript of `episode_id` for a signed-in caller, charged as one transcript
/// download (the SDK: "counts as one transcript download"; the `/preview` variants are
/// free): found first, so a missing one costs nothing.
async fn downloaded_transcript(
    state: &AppState,
    caller: &Caller,
    episode_id: String,
) -> ApiResult<(Metered, TranscriptRecord)> {
    caller.require_account()?;
    let (charge, transcript) = state
        .episode_transcripts()
        .download(&caller.requester(), episode_id)
        .await?;
    Ok((Metered(charge), transcript))
}

/// An episode's whole transcript text (signed-in callers; one transcript download).
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/transcript-text", tag = "episodes",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "The transcript text; counts as one transcript download"), (status = 401, description = "No API key"),
              (status = 403, description = "Transcript downloads are not on the plan"),
              (status = 404, description = "No transcript"),
              (status = 429, description = "Monthly transcript downloads used up")))]
pub async fn transcript_text(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
) -> ApiResult<(Metered, Envelope<TranscriptTextResponse>)> {
    let (metered, transcript) = downloaded_transcript(&state, &caller, episode_id).await?;
    Ok((
        metered,
        Envelope(TranscriptTextResponse {
            episode_transcript_text: TranscriptText {
                podcast_id: transcript.podcast_id.to_string(),
                episode_id: transcript.episode_id.to_string(),
                transcript_id: transcript.transcript_id.to_string(),
                text: Some(transcript.transcript_text),
            },
        }),
    ))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextPreview {
    podcast_id: String,
    episode_id: String,
    transcript_id: String,
    text: Option<String>,
    truncated: bool,
    total_characters: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextPreviewResponse {
    episode_transcript_text: TextPreview,
}

/// The first characters of an episode's transcript.
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/transcript-text/preview", tag = "episodes",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "The start of the transcript")))]
pub async fn transcript_text_preview(
    State(state): State<AppState>,
    Path(episode_id): Path<String>,
) -> ApiResult<Envelope<TextPreviewResponse>> {
    let preview = state
        .episode_transcripts()
        .preview(episode_id, |transcript| {
            let (text, truncated) =
                transcripts::preview(&transcript.transcript_text, PREVIEW_CHARACTERS);
            TextPreviewResponse {
                episode_transcript_text: TextPreview {
                    podcast_id: transcript.podcast_id.to_string(),
                    episode_id: transcript.episode_id.to_string(),
                    transcript_id: transcript.transcript_id.to_string(),
                    text: Some(text),
                    truncated,
                    total_characters: transcript.transcript_text.chars().count() as u64,
                },
            }
        })
        .await?;
    Ok(Envelope(preview))
}

/// An episode's transcript as timed sentences (signed-in callers; one transcript
/// download).
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/transcript-timestamps", tag = "episodes",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "Timed sentences; counts as one transcript download"),
              (status = 403, description = "Transcript downloads are not on the plan"),
              (status = 404, description = "No transcript"),
              (status = 429, description = "Monthly transcript downloads used up")))]
pub async fn transcript_timestamps(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
) -> ApiResult<(Metered, Envelope<TranscriptTimestampsResponse>)> {
    let (metered, transcript) = downloaded_transcript(&state, &caller, episode_id).await?;
    let response = blocking(move || {
        Ok(TranscriptTimestampsResponse {
            episode_id: transcript.episode_id.to_string(),
            podcast_id: transcript.podcast_id.to_string(),
            sentences: transcripts::sentences(&transcript),
        })
    })
    .await?;
    Ok((metered, Envelope(response)))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimestampsPreviewResponse {
    episode_id: String,
    podcast_id: String,
    sentences: Vec<TranscriptSentence>,
    total_sentences: u64,
    truncated: bool,
}

/// The first timed sentences of an episode's transcript.
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/transcript-timestamps/preview", tag = "episodes",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "The first timed sentences")))]
pub async fn transcript_timestamps_preview(
    State(state): State<AppState>,
    Path(episode_id): Path<String>,
) -> ApiResult<Envelope<TimestampsPreviewResponse>> {
    let preview = state
        .episode_transcripts()
        .preview(episode_id, |transcript| {
            let mut sentences = transcripts::sentences(&transcript);
            let total = sentences.len();
            sentences.truncate(PREVIEW_SENTENCES);
            TimestampsPreviewResponse {
                episode_id: transcript.episode_id.to_string(),
                podcast_id: transcript.podcast_id.to_string(),
                truncated: total > sentences.len(),
                total_sentences: total as u64,
                sentences,
            }
        })
        .await?;
    Ok(Envelope(preview))
}

#[derive(Debug, Deserialize)]
pub struct DownloadParams {
    format: Option<String>,
}

/// The transcript as a `txt` or `vtt` file, as the caller's plan allows; each
/// download counts against the plan's monthly transcript downloads.
#[utoipa::path(get, path = "/api/v1/episodes/{episodeId}/download/transcript", tag = "episodes",
    params(("episodeId" = String, Path), ("format" = Option<String>, Query, description = "txt (default) or vtt")),
    responses((status = 200, description = "The transcript file",
               content((String = "text/plain"), (String = "text/vtt"))),
              (status = 403, description = "Format not on the plan"),
              (status = 429, description = "Monthly downloads used up")))]
pub async fn download_transcript(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
    ApiQuery(params): ApiQuery<DownloadParams>,
) -> ApiResult<Response> {
    caller.require_account()?;
    let (charge, file) = state
        .episode_transcripts()
        .file(&caller.requester(), episode_id, params.format.as_deref())
        .await?;
    let disposition = format!("attachment; filename=\"{}\"", file.file_name);
    let headers = [
        (header::CONTENT_TYPE, file.content_type.to_owned()),
        (header::CONTENT_DISPOSITION, disposition),
    ];
    Ok((Metered(charge), headers, file.body).into_response())
}
