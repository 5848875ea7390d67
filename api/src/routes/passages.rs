//! `POST /api/v1/search/episodes/{episodeId}/transcript`: the passages of one
//! episode's transcript that match a search's terms: the best passage, then the others
//! in transcript order, paged (at most 100 browsable).

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::post;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::state::{AppState, blocking};
use podlens_app::cursors::{CursorKind, Payload, Reader, fingerprint, invalid_cursor};
use podlens_app::workflows::agent::text::sentences;
use podlens_app::workflows::fields::object;

/// The most passages that can be browsed.
pub const MAX_BROWSABLE: usize = 100;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/v1/search/episodes/{episodeId}/transcript",
        post(passages),
    )
}

/// The texts of the terms that should match (not the `not` ones), preferring the
/// terms that target transcripts.
fn wanted_terms(options: &Map<String, Value>) -> Vec<String> {
    let mut items: Vec<&Value> = options
        .get("searchTerms")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    for group in options
        .get("searchTermGroups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        items.extend(
            group
                .get("searchTerms")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
    }
    let usable: Vec<(&str, bool)> = items
        .iter()
        .filter(|item| item["searchTermOptions"]["matchMode"].as_str() != Some("not"))
        .filter_map(|item| {
            let text = item["searchTerm"].as_str()?.trim();
            let transcript = item["searchTargets"]
                .as_array()
                .is_some_and(|targets| targets.iter().any(|t| t == "transcript"));
            (text.chars().count() >= 2).then_some((text, transcript))
        })
        .collect();
    let any_transcript = usable.iter().any(|(_, transcript)| *transcript);
    usable
        .into_iter()
        .filter(|(_, transcript)| *transcript || !any_transcript)
        .map(|(text, _)| text.to_lowercase())
        .collect()
}

/// How many distinct terms and how many occurrences a passage has.
fn score(text: &str, terms: &[String]) -> (usize, usize) {
    let lower = text.to_lowercase();
    let distinct = terms
        .iter()
        .filter(|term| lower.contains(term.as_str()))
        .count();
    let occurrences = terms
        .iter()
        .map(|term| lower.matches(term.as_str()).count())
        .sum();
    (distinct, occurrences)
}

fn whole(
    body: &Map<String, Value>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> ApiResult<Option<u64>> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_u64() {
            Some(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::BadRequest(format!(
                "{name} must be a whole number between {} and {}",
                range.start(),
                range.end()
            ))),
        },
    }
}

#[utoipa::path(post, path = "/api/v1/search/episodes/{episodeId}/transcript", tag = "passages",
    params(("episodeId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn passages(
    State(state): State<AppState>,
    caller: Caller,
    Path(episode_id): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    caller.require_account()?;
    let body = object(body)?;
    let options = match body.get("searchOptions") {
        Some(Value::Object(options)) => options.clone(),
        None | Some(Value::Null) => body.clone(),
        Some(_) => {
            return Err(ApiError::BadRequest(
                "searchOptions must be an object".into(),
            ));
        }
    };
    let terms = wanted_terms(&options);
    if terms.is_empty() {
        return Err(ApiError::BadRequest(
            "At least one search term or filter is required.".into(),
        ));
    }
    let page_size = whole(&body, "pageSize", 1..=MAX_BROWSABLE as u64)?
        .or(whole(&options, "pageSize", 1..=MAX_BROWSABLE as u64)?)
        .unwrap_or(10) as usize;
    // A passages cursor is bound to the episode and the search options it pages.
    let binding = fingerprint(&format!(
        "{}\n{}",
        episode_id.trim(),
        Value::Object(options.clone())
    ));
    let offset = match body.get("cursor").and_then(Value::as_str) {
        None => 0,
        Some(cursor) => {
            let payload = state.cursors.verify(CursorKind::Passages, cursor)?;
            let mut reader = Reader::new(&payload);
            let offset = reader.u64()? as usize;
            let bound = reader.bytes8()?;
            reader.end()?;
            if bound != binding || offset > MAX_BROWSABLE {
                return Err(ApiError::from(invalid_cursor()));
            }
            offset
        }
    };
    let signer = state.cursors.clone();
    blocking(move || {
        let not_found =
            || ApiError::NotFound(format!("Transcript not found for episode {episode_id}"));
        let id = Uuid::parse_str(episode_id.trim()).map_err(|_| not_found())?;
        let transcript = state
            .catalog
            .snapshot()?
            .transcript_by_episode(id)?
            .ok_or_else(not_found)?;
        let mut units: Vec<String> = podlens_app::transcripts::sentences(&transcript)
            .into_iter()
            .map(|sentence| sentence.text)
            .collect();
        if units.is_empty() {
            units = sentences(&transcript.transcript_text);
        }
        let matching: Vec<(usize, String, (usize, usize))> = units
            .into_iter()
            .enumerate()
            .filter_map(|(index, text)| {
                let score = score(&text, &terms);
                (score.0 > 0).then_some((index, text, score))
            })
            .collect();
        let best = matching
            .iter()
            .max_by(|a, b| a.2.cmp(&b.2).then(b.0.cmp(&a.0)))
            .map(|(index, text, _)| (*index, text.clone()));
        let passage =
            |index: usize, text: &str| json!({"id": format!("{id}:{index}"), "text": text});
        let others: Vec<&(usize, String, (usize, usize))> = matching
            .iter()
            .filter(|(index, _, _)| best.as_ref().is_none_or(|(b, _)| b != index))
            .collect();
        let browsable = others.len().min(MAX_BROWSABLE);
        let page: Vec<Value> = others
            .iter()
            .take(browsable)
            .skip(offset)
            .take(page_size)
            .map(|(index, text, _)| passage(*index, text))
            .collect();
        let next = offset + page.len();
        let has_more = next < browsable;
        Ok(Envelope(json!({
            "episodeId": id.to_string(),
            "bestPassage": best.as_ref().map(|(index, text)| passage(*index, text)),
            "passages": page,
            "total": {"value": matching.len(), "relation": "eq"},
            "additionalCount": others.len(),
            "hasMore": has_more,
            "nextCursor": has_more.then(|| {
                signer.sign(
                    CursorKind::Passages,
                    &Payload::default().u64(next as u64).bytes8(binding).finish(),
                )
            }),
            "truncated": others.len() > MAX_BROWSABLE,
            "passageLimit": MAX_BROWSABLE,
        })))
    })
    .await
}
