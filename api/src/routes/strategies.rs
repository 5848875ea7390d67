//! A project's search strategies: list, generate (charged as an AI assist, capped per
//! list by the plan's automated search limits), update within the text limits of
//! SPEC.md §5, delete.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post, put};
use chrono::Utc;
use podlens_model::entities::SearchStrategy;
use podlens_model::enums::{Priority, StrategyApproach};
use podlens_model::validation::{StrategyTextField, validate_strategy_text};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::auth::Caller;
use crate::envelope::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::extract::RawJson;
use crate::metering::{self, Metered};
use crate::state::{AppState, blocking};
use podlens_app::accounts::{Account, UsageCounter};
use podlens_app::workflows::ProjectRow;
use podlens_app::workflows::agent::{self, StrategyDraft};
use podlens_app::workflows::briefs::project_brief;
use podlens_app::workflows::documents::{DocFilter, DocKind, Stored};
use podlens_app::workflows::fields::{object, optional_string, optional_strings};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/projects/{projectSlug}/strategies", get(list))
        .route(
            "/api/v1/projects/{projectSlug}/strategies/generate",
            post(generate),
        )
        .route(
            "/api/v1/projects/{projectSlug}/strategies/{strategyId}",
            put(update).delete(delete_one),
        )
}

/// Which limit of §5 each strategy text has.
pub const TEXT_LIMITS: [(&str, StrategyTextField); 6] = [
    ("title", StrategyTextField::ShortTitle),
    ("shortDescription", StrategyTextField::LongTitle),
    ("strategyBlurb", StrategyTextField::Description),
    (
        "audiencePersonaTarget",
        StrategyTextField::AudienceAlignment,
    ),
    ("whyItsEffective", StrategyTextField::Reason),
    (
        "strategyTrainingDocumentation",
        StrategyTextField::SearchAdvice,
    ),
];

fn project(state: &AppState, account: &Account, slug: &str) -> ApiResult<ProjectRow> {
    state
        .workflows
        .find_project(&account.team_id, slug)?
        .ok_or_else(|| ApiError::NotFound(format!("Project not found: {slug}")))
}

fn strategies_of(
    state: &AppState,
    account: &Account,
    project_id: &str,
) -> ApiResult<Vec<Stored<SearchStrategy>>> {
    Ok(state.workflows.list_docs(
        DocKind::Strategy,
        &DocFilter {
            team_id: Some(&account.team_id),
            parent_id: Some(project_id),
            ..DocFilter::default()
        },
    )?)
}

fn stored(strategy: SearchStrategy, team_id: &str, project_id: &str) -> Stored<SearchStrategy> {
    Stored {
        id: strategy.id.clone(),
        team_id: team_id.to_owned(),
        parent_id: Some(project_id.to_owned()),
        created_at: strategy.created_at,
        updated_at: strategy.updated_at,
        deleted: false,
        value: strategy,
    }
}

/// `GET /api/v1/projects/{projectSlug}/strategies`.
#[utoipa::path(get, path = "/api/v1/projects/{projectSlug}/strategies", tag = "strategies",
    params(("projectSlug" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let project = project(&state, &account, &slug)?;
        let strategies: Vec<SearchStrategy> = strategies_of(&state, &account, &project.project_id)?
            .into_iter()
            .map(|doc| doc.value)
            .collect();
        Ok(Envelope(json!({"strategies": strategies})))
    })
    .await
}

fn checked_draft(draft: StrategyDraft) -> ApiResult<SearchStrategy> {
    let now = Utc::now();
    let strategy = SearchStrategy {
        title: draft.title,
        short_description: draft.short_description,
        strategy_blurb: draft.strategy_blurb,
        audience_persona_target: draft.audience_persona_target,
        why_its_effective: draft.why_its_effective,
        strategy_training_documentation: draft.strategy_training_documentation,
        keyword_inspiration: draft.keyword_inspiration,
        example_google_searches: draft.example_google_searches,
        id: Uuid::new_v4().to_string(),
        created_at: now,
        updated_at: now,
        strategy_approach: draft
            .strategy_approach
            .as_deref()
            .and_then(StrategyApproach::parse),
        strategy_focus: draft.strategy_focus,
        priority: None,
    };
    check_texts(&strategy)?;
    Ok(strategy)
}

fn check_texts(strategy: &SearchStrategy) -> ApiResult<()> {
    let value = serde_json::to_value(strategy).map_err(ApiError::internal)?;
    for (name, field) in TEXT_LIMITS {
        validate_strategy_text(field, value[name].as_str().unwrap_or_default())?;
    }
    Ok(())
}

/// `POST /api/v1/projects/{projectSlug}/strategies/generate`: body `{count}` (default:
/// the room left under the plan's strategies per list).
#[utoipa::path(post, path = "/api/v1/projects/{projectSlug}/strategies/generate", tag = "strategies", operation_id = "generateProjectStrategies",
    params(("projectSlug" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    RawJson(body): RawJson,
) -> ApiResult<(Metered, Envelope<Value>)> {
    let asked = count_of(&object(body)?)?;
    let (metered, strategies) = generate_for(&state, &caller, slug, asked).await?;
    Ok((metered, Envelope(json!({"strategies": strategies}))))
}

/// The `count` of a generation body, 1-10; absent or null means the room left.
pub fn count_of(body: &Map<String, Value>) -> ApiResult<Option<usize>> {
    match body.get("count") {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_u64() {
            Some(n) if (1..=10).contains(&n) => Ok(Some(n as usize)),
            _ => Err(ApiError::BadRequest(
                "count must be a whole number between 1 and 10".into(),
            )),
        },
    }
}

/// Generates `asked` strategies (default: the room left under the plan's strategies
/// per list) for the team's project `reference` (id or slug), stores them and returns
/// them; one AI assist.
pub async fn generate_for(
    state: &AppState,
    caller: &Caller,
    reference: String,
    asked: Option<usize>,
) -> ApiResult<(Metered, Vec<SearchStrategy>)> {
    let account = caller.require_account()?.clone();
    let plan = caller.plan;
    let Some(limits) = plan.limits().automated_search else {
        return Err(ApiError::Forbidden(format!(
            "Automated search is not available on the {plan} plan"
        )));
    };
    let per_list = limits.strategies_per_list as usize;
    let load_state = state.clone();
    let load_account = account.clone();
    let (project, existing) = blocking(move || {
        let project = project(&load_state, &load_account, &reference)?;
        let existing = strategies_of(&load_state, &load_account, &project.project_id)?.len();
        Ok((project, existing))
    })
    .await?;
    let room = per_list.saturating_sub(existing);
    if room == 0 {
        return Err(ApiError::Forbidden(format!(
            "Strategy limit reached: the {plan} plan allows {per_list} strategies per list. Delete a strategy to generate another."
        )));
    }
    let count = asked.unwrap_or(room).min(room);
    let metered = metering::charge(state, caller, UsageCounter::AiAssist).await?;
    let drafts =
        agent::generate_strategies(state.assist.as_ref(), project_brief(&project), count).await?;
    let strategies = drafts
        .into_iter()
        .map(checked_draft)
        .collect::<ApiResult<Vec<_>>>()?;
    let save_state = state.clone();
    let saved = strategies.clone();
    blocking(move || {
        for strategy in saved {
            save_state.workflows.put_doc(
                DocKind::Strategy,
                &stored(strategy, &account.team_id, &project.project_id),
            )?;
        }
        Ok(())
    })
    .await?;
    Ok((metered, strategies))
}

fn apply_text(body: &Map<String, Value>, strategy: &mut SearchStrategy) -> ApiResult<()> {
    for (name, target) in [
        ("title", &mut strategy.title),
        ("shortDescription", &mut strategy.short_description),
        ("strategyBlurb", &mut strategy.strategy_blurb),
        (
            "audiencePersonaTarget",
            &mut strategy.audience_persona_target,
        ),
        ("whyItsEffective", &mut strategy.why_its_effective),
        (
            "strategyTrainingDocumentation",
            &mut strategy.strategy_training_documentation,
        ),
    ] {
        if let Some(text) = optional_string(body, name)? {
            *target = text.trim().to_owned();
        }
    }
    if strategy.title.is_empty() {
        return Err(ApiError::BadRequest("title cannot be empty".into()));
    }
    for (name, target) in [
        ("keywordInspiration", &mut strategy.keyword_inspiration),
        (
            "exampleGoogleSearches",
            &mut strategy.example_google_searches,
        ),
    ] {
        if let Some(values) = optional_strings(body, name)? {
            *target = values;
        }
    }
    if let Some(value) = body.get("strategyApproach") {
        strategy.strategy_approach = match value {
            Value::Null => None,
            Value::String(text) => Some(StrategyApproach::parse(text).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "Invalid strategyApproach \"{text}\"; expected one of straightforward, unconventional, longshot"
                ))
            })?),
            _ => return Err(ApiError::BadRequest("strategyApproach must be a string".into())),
        };
    }
    if let Some(value) = body.get("priority") {
        strategy.priority = match value {
            Value::Null => None,
            Value::String(text) => Some(Priority::parse(text).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "Invalid priority \"{text}\"; expected one of low, medium, high, urgent"
                ))
            })?),
            _ => return Err(ApiError::BadRequest("priority must be a string".into())),
        };
    }
    if body.contains_key("strategyFocus") {
        strategy.strategy_focus = optional_string(body, "strategyFocus")?;
    }
    check_texts(strategy)
}

/// `PUT /api/v1/projects/{projectSlug}/strategies/{strategyId}`.
#[utoipa::path(put, path = "/api/v1/projects/{projectSlug}/strategies/{strategyId}", tag = "strategies",
    params(("projectSlug" = String, Path), ("strategyId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, strategy_id)): Path<(String, String)>,
    RawJson(body): RawJson,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    let body = object(body)?;
    let known = [
        "title",
        "shortDescription",
        "strategyBlurb",
        "audiencePersonaTarget",
        "whyItsEffective",
        "strategyTrainingDocumentation",
        "keywordInspiration",
        "exampleGoogleSearches",
        "strategyApproach",
        "strategyFocus",
        "priority",
    ];
    if let Some(unknown) = body.keys().find(|key| !known.contains(&key.as_str())) {
        return Err(ApiError::BadRequest(format!(
            "Unknown strategy field \"{unknown}\""
        )));
    }
    if body.is_empty() {
        return Err(ApiError::BadRequest(
            "At least one field must be provided to update a strategy".into(),
        ));
    }
    blocking(move || {
        let project = project(&state, &account, &slug)?;
        let mut doc = state
            .workflows
            .get_doc::<SearchStrategy>(DocKind::Strategy, Some(&account.team_id), &strategy_id)?
            .filter(|doc| doc.parent_id.as_deref() == Some(project.project_id.as_str()))
            .ok_or_else(|| ApiError::NotFound(format!("Strategy not found: {strategy_id}")))?;
        apply_text(&body, &mut doc.value)?;
        doc.value.updated_at = Utc::now();
        doc.updated_at = doc.value.updated_at;
        state.workflows.put_doc(DocKind::Strategy, &doc)?;
        Ok(Envelope(json!({"strategy": doc.value})))
    })
    .await
}

/// `DELETE /api/v1/projects/{projectSlug}/strategies/{strategyId}`.
#[utoipa::path(delete, path = "/api/v1/projects/{projectSlug}/strategies/{strategyId}", tag = "strategies",
    params(("projectSlug" = String, Path), ("strategyId" = String, Path)),
    responses((status = 200, description = "OK: the answer in the envelope")))]
pub async fn delete_one(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, strategy_id)): Path<(String, String)>,
) -> ApiResult<Envelope<Value>> {
    let account = caller.require_account()?.clone();
    blocking(move || {
        let project = project(&state, &account, &slug)?;
        let found = state
            .workflows
            .get_doc::<SearchStrategy>(DocKind::Strategy, Some(&account.team_id), &strategy_id)?
            .is_some_and(|doc| doc.parent_id.as_deref() == Some(project.project_id.as_str()));
        if !found
            || !state
                .workflows
                .remove_doc(DocKind::Strategy, &account.team_id, &strategy_id)?
        {
            return Err(ApiError::NotFound(format!(
                "Strategy not found: {strategy_id}"
            )));
        }
        Ok(Envelope(json!({"message": "Strategy deleted"})))
    })
    .await
}
