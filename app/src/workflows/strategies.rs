//! A project's search strategies: list, generate (charged as an AI assist, capped per
//! list by the plan's automated search limits), update within the text limits of
//! SPEC.md §5, delete.

use std::sync::Arc;

use chrono::Utc;
use podlens_model::entities::SearchStrategy;
use podlens_model::enums::{Priority, StrategyApproach};
use podlens_model::validation::{StrategyTextField, validate_strategy_text};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::agent::{self, AiProvider, StrategyDraft};
use super::briefs::project_brief;
use super::documents::{DocFilter, DocKind, Stored};
use super::fields::{object, optional_string, optional_strings, whole_field};
use super::{ProjectRow, WorkflowStore};
use crate::accounts::metering::{Charge, Metering, Requester};
use crate::accounts::{Account, UsageCounter};
use crate::error::{AppError, AppResult};
use crate::runtime::to_the_end;

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

/// The fields a strategy's update may set.
const FIELDS: [&str; 11] = [
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

/// The `count` of a generation body, 1-10; absent or null means the room left.
pub fn count_of(body: &Map<String, Value>) -> AppResult<Option<usize>> {
    Ok(whole_field(body, "count", 1..=10)?.map(|n| n as usize))
}

/// A strategy's changes: known fields, at least one. Each field's own checks run when
/// they are applied to the stored strategy.
#[derive(Debug, Clone, PartialEq)]
pub struct StrategyChanges(Map<String, Value>);

impl StrategyChanges {
    /// The changes of a request body.
    pub fn from_json(body: Value) -> AppResult<StrategyChanges> {
        let body = object(body)?;
        if let Some(unknown) = body.keys().find(|key| !FIELDS.contains(&key.as_str())) {
            return Err(AppError::Invalid(format!(
                "Unknown strategy field \"{unknown}\""
            )));
        }
        if body.is_empty() {
            return Err(AppError::Invalid(
                "At least one field must be provided to update a strategy".into(),
            ));
        }
        Ok(StrategyChanges(body))
    }

    fn apply(&self, strategy: &mut SearchStrategy) -> AppResult<()> {
        let body = &self.0;
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
            return Err(AppError::Invalid("title cannot be empty".into()));
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
                    AppError::Invalid(format!(
                        "Invalid strategyApproach \"{text}\"; expected one of straightforward, unconventional, longshot"
                    ))
                })?),
                _ => return Err(AppError::Invalid("strategyApproach must be a string".into())),
            };
        }
        if let Some(value) = body.get("priority") {
            strategy.priority = match value {
                Value::Null => None,
                Value::String(text) => Some(Priority::parse(text).ok_or_else(|| {
                    AppError::Invalid(format!(
                        "Invalid priority \"{text}\"; expected one of low, medium, high, urgent"
                    ))
                })?),
                _ => return Err(AppError::Invalid("priority must be a string".into())),
            };
        }
        if body.contains_key("strategyFocus") {
            strategy.strategy_focus = optional_string(body, "strategyFocus")?;
        }
        check_texts(strategy)
    }
}

fn checked_draft(draft: StrategyDraft) -> AppResult<SearchStrategy> {
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

fn check_texts(strategy: &SearchStrategy) -> AppResult<()> {
    let value = serde_json::to_value(strategy).map_err(AppError::internal)?;
    for (name, field) in TEXT_LIMITS {
        validate_strategy_text(field, value[name].as_str().unwrap_or_default())?;
    }
    Ok(())
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

fn strategy_not_found(id: &str) -> AppError {
    AppError::NotFound(format!("Strategy not found: {id}"))
}

/// The projects' search strategies, kept in the workflow store; generated by the AI
/// assist provider.
#[derive(Clone)]
pub struct Strategies {
    pub(crate) workflows: Arc<WorkflowStore>,
    pub(crate) assist: Arc<dyn AiProvider>,
    pub(crate) metering: Metering,
}

impl std::fmt::Debug for Strategies {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Strategies").finish_non_exhaustive()
    }
}

impl Strategies {
    /// The strategies of the team's project `reference` (id or slug).
    pub async fn list(&self, account: &Account, reference: &str) -> AppResult<Vec<SearchStrategy>> {
        let project = project(&self.workflows, account, reference).await?;
        Ok(strategies_of(&self.workflows, account, &project.project_id)
            .await?
            .into_iter()
            .map(|doc| doc.value)
            .collect())
    }

    /// Generates `asked` strategies (default: the room left under the plan's strategies
    /// per list) for the team's project `reference` (id or slug), stores them and
    /// returns them; charged to `requester` as one AI assist.
    pub async fn generate(
        &self,
        account: &Account,
        requester: &Requester,
        reference: &str,
        asked: Option<usize>,
    ) -> AppResult<(Charge, Vec<SearchStrategy>)> {
        let plan = requester.plan;
        let Some(limits) = plan.limits().automated_search else {
            return Err(AppError::Forbidden(format!(
                "Automated search is not available on the {plan} plan"
            )));
        };
        let per_list = limits.strategies_per_list as usize;
        let project = project(&self.workflows, account, reference).await?;
        let existing = strategies_of(&self.workflows, account, &project.project_id)
            .await?
            .len();
        let room = per_list.saturating_sub(existing);
        if room == 0 {
            return Err(AppError::Forbidden(format!(
                "Strategy limit reached: the {plan} plan allows {per_list} strategies per list. Delete a strategy to generate another."
            )));
        }
        let count = asked.unwrap_or(room).min(room);
        let charge = self
            .metering
            .charge(requester, UsageCounter::AiAssist)
            .await?;
        let drafts =
            agent::generate_strategies(self.assist.as_ref(), project_brief(&project), count)
                .await?;
        let strategies = drafts
            .into_iter()
            .map(checked_draft)
            .collect::<AppResult<Vec<_>>>()?;
        // Charged: every strategy is kept, even if the caller stops waiting.
        let (workflows, team_id, saved) = (
            self.workflows.clone(),
            account.team_id.clone(),
            strategies.clone(),
        );
        to_the_end(async move {
            for strategy in saved {
                let doc = stored(strategy, &team_id, &project.project_id);
                workflows.put_doc(DocKind::Strategy, &doc).await?;
            }
            Ok(())
        })
        .await?;
        Ok((charge, strategies))
    }

    /// Applies `changes` to the strategy `id` of the team's project `reference`.
    pub async fn update(
        &self,
        account: &Account,
        reference: &str,
        id: &str,
        changes: StrategyChanges,
    ) -> AppResult<SearchStrategy> {
        let project = project(&self.workflows, account, reference).await?;
        let mut doc = self
            .workflows
            .get_doc::<SearchStrategy>(DocKind::Strategy, Some(&account.team_id), id)
            .await?
            .filter(|doc| doc.parent_id.as_deref() == Some(project.project_id.as_str()))
            .ok_or_else(|| strategy_not_found(id))?;
        changes.apply(&mut doc.value)?;
        doc.value.updated_at = Utc::now();
        doc.updated_at = doc.value.updated_at;
        self.workflows.put_doc(DocKind::Strategy, &doc).await?;
        Ok(doc.value)
    }

    /// Deletes the strategy `id` of the team's project `reference`.
    pub async fn delete(&self, account: &Account, reference: &str, id: &str) -> AppResult<()> {
        let project = project(&self.workflows, account, reference).await?;
        let workflows = &self.workflows;
        let found = workflows
            .get_doc::<SearchStrategy>(DocKind::Strategy, Some(&account.team_id), id)
            .await?
            .is_some_and(|doc| doc.parent_id.as_deref() == Some(project.project_id.as_str()));
        if found
            && workflows
                .remove_doc(DocKind::Strategy, &account.team_id, id)
                .await?
        {
            Ok(())
        } else {
            Err(strategy_not_found(id))
        }
    }
}

async fn project(
    workflows: &WorkflowStore,
    account: &Account,
    reference: &str,
) -> AppResult<ProjectRow> {
    workflows
        .find_project(&account.team_id, reference)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("Project not found: {reference}")))
}

async fn strategies_of(
    workflows: &WorkflowStore,
    account: &Account,
    project_id: &str,
) -> AppResult<Vec<Stored<SearchStrategy>>> {
    workflows
        .list_docs(
            DocKind::Strategy,
            &DocFilter {
                team_id: Some(&account.team_id),
                parent_id: Some(project_id),
                ..DocFilter::default()
            },
        )
        .await
}
