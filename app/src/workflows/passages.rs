//! The passages of one episode's transcript that match a search's terms
//! (`POST /api/v1/search/episodes/{episodeId}/transcript`): the best passage, then the
//! others in transcript order, paged by a signed cursor (at most 100 browsable).

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::agent::text::sentences;
use super::fields::{object, whole_field};
use crate::catalog::CatalogReader;
use crate::cursors::{CursorKind, CursorSigner, Payload, Reader, fingerprint, invalid_cursor};
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;

/// The most passages that can be browsed.
pub const MAX_BROWSABLE: usize = 100;

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

/// A passages request: the search's options (`searchOptions`, or the body itself), the
/// terms to find, the page size and the cursor of the previous page.
#[derive(Debug, Clone)]
pub struct PassagesRequest {
    options: Map<String, Value>,
    terms: Vec<String>,
    page_size: usize,
    cursor: Option<String>,
}

impl PassagesRequest {
    pub fn from_json(body: Value) -> AppResult<PassagesRequest> {
        let body = object(body)?;
        let options = match body.get("searchOptions") {
            Some(Value::Object(options)) => options.clone(),
            None | Some(Value::Null) => body.clone(),
            Some(_) => {
                return Err(AppError::Invalid("searchOptions must be an object".into()));
            }
        };
        let terms = wanted_terms(&options);
        if terms.is_empty() {
            return Err(AppError::Invalid(
                "At least one search term or filter is required.".into(),
            ));
        }
        let page_size = whole_field(&body, "pageSize", 1..=MAX_BROWSABLE as u64)?
            .or(whole_field(&options, "pageSize", 1..=MAX_BROWSABLE as u64)?)
            .unwrap_or(10) as usize;
        Ok(PassagesRequest {
            options,
            terms,
            page_size,
            cursor: body
                .get("cursor")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }
}

/// One passage: `{episode id}:{index}` and its text.
#[derive(Debug, Clone, Serialize)]
pub struct Passage {
    pub id: String,
    pub text: String,
}

/// How many passages match, exactly.
#[derive(Debug, Clone, Serialize)]
pub struct PassageTotal {
    pub value: usize,
    pub relation: &'static str,
}

/// A page of an episode's matching passages.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptPassages {
    pub episode_id: String,
    pub best_passage: Option<Passage>,
    pub passages: Vec<Passage>,
    pub total: PassageTotal,
    /// The matching passages besides the best.
    pub additional_count: usize,
    pub has_more: bool,
    pub next_cursor: Option<String>,
    /// Whether more passages match than can be browsed.
    pub truncated: bool,
    pub passage_limit: usize,
}

/// What the passages search reads: the catalog's transcripts and the cursor signer.
#[derive(Clone)]
pub struct Passages {
    pub catalog: Arc<CatalogReader>,
    pub cursors: Arc<CursorSigner>,
}

impl Passages {
    pub async fn page(
        &self,
        episode_id: &str,
        request: PassagesRequest,
    ) -> AppResult<TranscriptPassages> {
        let PassagesRequest {
            options,
            terms,
            page_size,
            cursor,
        } = request;
        // A passages cursor is bound to the episode and the search options it pages.
        let binding = fingerprint(&format!(
            "{}\n{}",
            episode_id.trim(),
            Value::Object(options)
        ));
        let offset = match cursor {
            None => 0,
            Some(cursor) => {
                let payload = self.cursors.verify(CursorKind::Passages, &cursor)?;
                let mut reader = Reader::new(&payload);
                let offset = reader.u64()? as usize;
                let bound = reader.bytes8()?;
                reader.end()?;
                if bound != binding || offset > MAX_BROWSABLE {
                    return Err(invalid_cursor());
                }
                offset
            }
        };
        let (catalog, signer, episode_id) = (
            self.catalog.clone(),
            self.cursors.clone(),
            episode_id.to_owned(),
        );
        blocking(move || {
            let not_found =
                || AppError::NotFound(format!("Transcript not found for episode {episode_id}"));
            let id = Uuid::parse_str(episode_id.trim()).map_err(|_| not_found())?;
            let transcript = catalog
                .snapshot()?
                .transcript_by_episode(id)?
                .ok_or_else(not_found)?;
            let mut units: Vec<String> = crate::transcripts::sentences(&transcript)
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
            let passage = |index: usize, text: &str| Passage {
                id: format!("{id}:{index}"),
                text: text.to_owned(),
            };
            let others: Vec<&(usize, String, (usize, usize))> = matching
                .iter()
                .filter(|(index, _, _)| best.as_ref().is_none_or(|(b, _)| b != index))
                .collect();
            let browsable = others.len().min(MAX_BROWSABLE);
            let page: Vec<Passage> = others
                .iter()
                .take(browsable)
                .skip(offset)
                .take(page_size)
                .map(|(index, text, _)| passage(*index, text))
                .collect();
            let next = offset + page.len();
            let has_more = next < browsable;
            Ok(TranscriptPassages {
                episode_id: id.to_string(),
                best_passage: best.as_ref().map(|(index, text)| passage(*index, text)),
                passages: page,
                total: PassageTotal {
                    value: matching.len(),
                    relation: "eq",
                },
                additional_count: others.len(),
                has_more,
                next_cursor: has_more.then(|| {
                    signer.sign(
                        CursorKind::Passages,
                        &Payload::default().u64(next as u64).bytes8(binding).finish(),
                    )
                }),
                truncated: others.len() > MAX_BROWSABLE,
                passage_limit: MAX_BROWSABLE,
            })
        })
        .await
    }
}
