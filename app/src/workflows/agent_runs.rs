//! AI assist calls: the relevancy review of a podcast for a project, alternative
//! spellings of a name, and `POST /api/v1/agent/`, which runs one kind of assist
//! (a custom prompt, a summary of a podcast, an episode or a transcript, a guest prep,
//! a relevancy review, a project's next podcasts, search strategies). Each generation
//! is charged to the plan's AI assist quota.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::agent::{self, AiProvider, ContextKind, RelevancyAnswer, ShowMaterial, insight};
use super::briefs::{CONTEXT_TRANSCRIPT_CHARS, SHOW_EPISODES, recent_show_material, show_material};
use super::fields::{bool_field, enum_value, object, optional_string, whole_field};
use super::guest_prep::{GuestPreps, checked_request};
use super::relevancy::Relevancy;
use super::strategies::{Strategies, count_of};
use super::{WorkflowStore, custom_prompts, suggest};
use crate::accounts::blacklists::{TeamBlacklists, blacklist_of};
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, AccountStore, UsageCounter};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;
use crate::search::SearchEngine;
use podlens_model::enums::CustomPromptContextType;

/// The longest value alternative spellings are made for.
pub const MAX_SPELLING_VALUE_CHARS: usize = 200;

fn required(body: &serde_json::Map<String, Value>, name: &str) -> AppResult<String> {
    optional_string(body, name)?
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
        .ok_or_else(|| AppError::Invalid(format!("{name} is required")))
}

/// `forceRegenerate`: absent or null is false; anything but a boolean is refused.
fn force_regenerate(body: &serde_json::Map<String, Value>) -> AppResult<bool> {
    Ok(bool_field(body, "forceRegenerate")?.unwrap_or(false))
}

/// The kinds `POST /api/v1/agent/` runs.
pub const AGENT_KINDS: [&str; 8] = [
    "custom",
    "episode",
    "guest",
    "podcast",
    "project",
    "project/relevancy",
    "strategy",
    "transcript",
];

/// The body of `POST /api/v1/agent/`: `kind` and the inputs of that kind.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct AgentRunRequest {
    /// custom, episode, guest, podcast, project, project/relevancy, strategy or
    /// transcript.
    kind: String,
    /// `custom`: a stored prompt of the team (or give `prompt`).
    custom_prompt_id: Option<String>,
    /// `custom`: a prompt text (or give `customPromptId`).
    prompt: Option<String>,
    /// `custom` with `prompt`: podcast, episode or transcript.
    context_type: Option<CustomPromptContextType>,
    /// `podcast`, `custom` over a podcast, `project/relevancy`: id or slug.
    podcast_id: Option<String>,
    /// `episode`, `transcript`, `custom` over an episode or transcript.
    episode_id: Option<String>,
    /// `guest`.
    podcast_slug: Option<String>,
    /// `project/relevancy`, `project`, `strategy`: id or slug.
    project_id: Option<String>,
    /// `project`: how many podcasts to suggest, 1-25 (default 10).
    limit: Option<u32>,
    /// `strategy`: how many strategies to generate, 1-10 (default: the room left).
    count: Option<u32>,
    /// `project/relevancy`.
    force_regenerate: Option<bool>,
}

/// `data` of `POST /api/v1/agent/`: the kind run and its answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentRunResponse {
    pub kind: String,
    /// `custom`: a [`PromptAnswer`]; `podcast`, `episode`, `transcript`: a
    /// [`ContextSummary`]; `guest`: a `GuestPrepResponse`; `project/relevancy`:
    /// `{answer: RelevancyAnswer}`; `project`: a [`suggest::ProjectAssist`]; `strategy`:
    /// `{strategies: SearchStrategy[]}`.
    #[schema(value_type = Object)]
    pub result: Value,
}

/// The `limit` of the `project` kind: 1-25, default 10.
fn suggestion_limit(body: &serde_json::Map<String, Value>) -> AppResult<usize> {
    Ok(
        whole_field(body, "limit", 1..=suggest::MAX_SUGGESTIONS as u64)?
            .map_or(suggest::DEFAULT_SUGGESTIONS, |n| n as usize),
    )
}

/// The context a prompt or summary names, loaded from the catalog.
fn load_context(
    catalog: &CatalogReader,
    kind: ContextKind,
    body: &serde_json::Map<String, Value>,
) -> AppResult<ShowMaterial> {
    let snapshot = catalog.snapshot()?;
    match kind {
        ContextKind::Podcast => {
            let key = required(body, "podcastId").map_err(|_| {
                AppError::Invalid("podcastId is required for a podcast context".into())
            })?;
            let podcast = catalog.podcast(&key)?;
            Ok(recent_show_material(snapshot, &podcast, SHOW_EPISODES, 0)?)
        }
        ContextKind::Episode | ContextKind::Transcript => {
            let key = required(body, "episodeId").map_err(|_| {
                AppError::Invalid(format!(
                    "episodeId is required for {} context",
                    if kind == ContextKind::Episode {
                        "an episode"
                    } else {
                        "a transcript"
                    }
                ))
            })?;
            let episode = catalog.episode(&key)?;
            let podcast = snapshot.podcast_by_id(episode.podcast_id)?.ok_or_else(|| {
                crate::catalog::podcast_not_found(&episode.podcast_id.to_string())
            })?;
            let transcript_chars = if kind == ContextKind::Transcript {
                CONTEXT_TRANSCRIPT_CHARS
            } else {
                0
            };
            let show = show_material(
                snapshot,
                &podcast,
                std::slice::from_ref(&episode),
                transcript_chars,
            )?;
            if kind == ContextKind::Transcript
                && show
                    .episodes
                    .iter()
                    .all(|episode| episode.transcript.is_empty())
            {
                return Err(AppError::NotFound(format!(
                    "Episode {key} has no transcript"
                )));
            }
            Ok(show)
        }
    }
}

fn context_kind(value: CustomPromptContextType) -> ContextKind {
    match value {
        CustomPromptContextType::Podcast => ContextKind::Podcast,
        CustomPromptContextType::Episode => ContextKind::Episode,
        CustomPromptContextType::Transcript => ContextKind::Transcript,
    }
}

/// The prompt and context type of a `custom` run: a stored prompt of the team, or a
/// prompt text with a `contextType` (default: podcast when `podcastId` is given,
/// else episode).
async fn custom_prompt(
    store: &WorkflowStore,
    team_id: &str,
    body: &serde_json::Map<String, Value>,
) -> AppResult<(String, ContextKind)> {
    let stored_id = optional_string(body, "customPromptId")?.filter(|id| !id.trim().is_empty());
    let text = optional_string(body, "prompt")?;
    match (stored_id, text) {
        (Some(_), Some(_)) => Err(AppError::Invalid(
            "Only one of customPromptId or prompt can be given".into(),
        )),
        (None, None) => Err(AppError::Invalid(
            "Either customPromptId or prompt is required".into(),
        )),
        (Some(id), None) => {
            let prompt = custom_prompts::find(store, team_id, id.trim()).await?;
            Ok((prompt.prompt, context_kind(prompt.context_type)))
        }
        (None, Some(text)) => {
            let prompt = custom_prompts::checked_prompt(&text)?;
            let kind = match optional_string(body, "contextType")? {
                Some(value) => context_kind(enum_value(
                    value.trim(),
                    "contextType",
                    CustomPromptContextType::parse,
                    CustomPromptContextType::ALL,
                    CustomPromptContextType::as_str,
                )?),
                None if body.get("podcastId").is_some_and(|v| !v.is_null()) => ContextKind::Podcast,
                None => ContextKind::Episode,
            };
            Ok((prompt, kind))
        }
    }
}

/// The body of `POST /api/v1/agent/project/relevancy`: projectId, podcastId,
/// searchOptions (context only, an object when given), forceRegenerate.
#[derive(Debug, Clone)]
pub struct RelevancyRequest {
    pub project: String,
    pub podcast: String,
    pub force_regenerate: bool,
}

impl RelevancyRequest {
    pub fn from_json(body: Value) -> AppResult<RelevancyRequest> {
        let body = object(body)?;
        let project = required(&body, "projectId")?;
        let podcast = required(&body, "podcastId")?;
        let force_regenerate = force_regenerate(&body)?;
        if let Some(options) = body.get("searchOptions")
            && !options.is_null()
            && !options.is_object()
        {
            return Err(AppError::Invalid("searchOptions must be an object".into()));
        }
        Ok(RelevancyRequest {
            project,
            podcast,
            force_regenerate,
        })
    }
}

/// A relevancy review as `data.result`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewAnswer {
    pub answer: RelevancyAnswer,
}

/// `data` of a relevancy review.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewResult {
    pub result: ReviewAnswer,
}

/// `data` of alternative spellings.
#[derive(Debug, Clone, Serialize)]
pub struct Spellings {
    pub spellings: Vec<String>,
}

/// What the agent's calls work with.
#[derive(Clone)]
pub struct AgentRuns {
    pub catalog: Arc<CatalogReader>,
    pub store: Arc<WorkflowStore>,
    pub engine: Arc<dyn SearchEngine>,
    pub accounts: Arc<dyn AccountStore>,
    pub blacklists: Arc<TeamBlacklists>,
    pub metering: Metering,
    pub assist: Arc<dyn AiProvider>,
    pub relevancy: Relevancy,
    pub strategies: Strategies,
    pub guest_preps: GuestPreps,
}

impl AgentRuns {
    /// The review of a podcast for a project (made once, then reused unless forced).
    pub async fn review(
        &self,
        account: &Account,
        requester: &Requester,
        request: RelevancyRequest,
    ) -> AppResult<(Option<Charge>, ReviewResult)> {
        let (answer, charge) = self
            .relevancy
            .review(
                account,
                requester,
                request.project,
                request.podcast,
                request.force_regenerate,
            )
            .await?;
        Ok((
            charge,
            ReviewResult {
                result: ReviewAnswer { answer },
            },
        ))
    }

    /// Alternative spellings of the body's `value` (one AI assist).
    pub async fn alternative_spellings(
        &self,
        requester: &Requester,
        body: Value,
    ) -> AppResult<(Charge, Spellings)> {
        let body = object(body)?;
        let value = required(&body, "value")?;
        if value.chars().count() > MAX_SPELLING_VALUE_CHARS {
            return Err(AppError::Invalid(format!(
                "value must be at most {MAX_SPELLING_VALUE_CHARS} characters"
            )));
        }
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let spellings = agent::alternative_spellings(self.assist.as_ref(), &value).await?;
        Ok((charge, Spellings { spellings }))
    }

    /// Runs the body's `kind` with that kind's inputs.
    pub async fn run(
        &self,
        account: &Account,
        requester: &Requester,
        body: Value,
    ) -> AppResult<(Option<Charge>, AgentRunResponse)> {
        let body = object(body)?;
        let kind = required(&body, "kind")?;
        if !AGENT_KINDS.contains(&kind.as_str()) {
            return Err(AppError::Invalid(format!(
                "Invalid kind \"{kind}\"; expected one of {}",
                AGENT_KINDS.join(", ")
            )));
        }
        let (charge, result) = match kind.as_str() {
            "project/relevancy" => {
                let project = required(&body, "projectId")?;
                let podcast = required(&body, "podcastId")?;
                let force = force_regenerate(&body)?;
                let (answer, charge) = self
                    .relevancy
                    .review(account, requester, project, podcast, force)
                    .await?;
                (charge, json!({"answer": answer}))
            }
            "strategy" => {
                let project = required(&body, "projectId")?;
                let asked = count_of(&body)?;
                let (charge, list) = self
                    .strategies
                    .generate(account, requester, &project, asked)
                    .await?;
                (Some(charge), json!({"strategies": list}))
            }
            "project" => {
                let reference = required(&body, "projectId")?;
                let limit = suggestion_limit(&body)?;
                let project = self
                    .store
                    .find_project(&account.team_id, &reference)
                    .await?
                    .ok_or_else(|| AppError::NotFound(format!("Project not found: {reference}")))?;
                let charge = self
                    .metering
                    .charge(requester, UsageCounter::AiAssist)
                    .await?;
                let blacklisted =
                    blacklist_of(&self.blacklists, self.accounts.as_ref(), Some(account)).await?;
                let assist = suggest::project_assist(
                    &self.store,
                    self.engine.as_ref(),
                    blacklisted,
                    account,
                    &project,
                    limit,
                )
                .await?;
                (Some(charge), to_value(assist)?)
            }
            "guest" => {
                let slug = required(&body, "podcastSlug")?;
                checked_request(&slug, None)?;
                let (prep, charge) = self.guest_preps.prepare(requester, slug).await?;
                (Some(charge), to_value(prep)?)
            }
            "custom" => {
                let (prompt, context_kind) =
                    custom_prompt(&self.store, &account.team_id, &body).await?;
                let catalog = self.catalog.clone();
                let context = blocking(move || load_context(&catalog, context_kind, &body)).await?;
                let charge = self
                    .metering
                    .charge(requester, UsageCounter::AiAssist)
                    .await?;
                let answer =
                    insight::answer_prompt(self.assist.as_ref(), prompt, context_kind, context)
                        .await?;
                (Some(charge), to_value(answer)?)
            }
            other => {
                let context_kind = match other {
                    "podcast" => ContextKind::Podcast,
                    "episode" => ContextKind::Episode,
                    _ => ContextKind::Transcript,
                };
                let catalog = self.catalog.clone();
                let context = blocking(move || load_context(&catalog, context_kind, &body)).await?;
                let charge = self
                    .metering
                    .charge(requester, UsageCounter::AiAssist)
                    .await?;
                let answer =
                    insight::summarize(self.assist.as_ref(), context_kind, context).await?;
                (Some(charge), to_value(answer)?)
            }
        };
        Ok((charge, AgentRunResponse { kind, result }))
    }
}

fn to_value(answer: impl Serialize) -> AppResult<Value> {
    serde_json::to_value(answer).map_err(AppError::internal)
}
