//! A user's preferences (SPEC.md §3, §5: a strict object, unknown keys refused) and a
//! team's settings flags, kept in the workflow store.

use std::sync::Arc;

use chrono::Utc;
use podlens_model::Plan;
use podlens_model::entities::{TeamSettingsFlags, UserPreferences};
use serde_json::{Map, Value};

use super::WorkflowStore;
use super::documents::{DocKind, Stored};
use super::fields::object;
use crate::accounts::Account;
use crate::error::{AppError, AppResult};

/// The most favourite projects a user keeps.
pub const MAX_FAVORITE_PROJECTS: usize = 100;

/// The team settings flags, by their wire names.
pub const TEAM_FLAGS: [&str; 3] = [
    "automatedSearchEnabled",
    "autoQuickDecisionEnabled",
    "podcastListValidationPageEnabled",
];

/// Reads a preferences body: the strict object of §3.
pub fn preferences_from_json(body: Value) -> AppResult<UserPreferences> {
    let body = object(body)?;
    let preferences: UserPreferences = serde_json::from_value(Value::Object(body))
        .map_err(|error| AppError::Invalid(format!("Invalid preferences: {error}")))?;
    let favourites = preferences
        .projects
        .as_ref()
        .and_then(|projects| projects.favorite_project_ids.as_ref())
        .map_or(0, Vec::len);
    if favourites > MAX_FAVORITE_PROJECTS {
        return Err(AppError::Invalid(format!(
            "Invalid preferences: favoriteProjectIds may hold at most {MAX_FAVORITE_PROJECTS} projects"
        )));
    }
    Ok(preferences)
}

/// The flags a change of a team's settings sets, by wire name: known names, boolean
/// values, at least one.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamSettingsChanges(Map<String, Value>);

impl TeamSettingsChanges {
    /// The changes of a request body.
    pub fn from_json(body: Value) -> AppResult<TeamSettingsChanges> {
        let body = object(body)?;
        if body.is_empty() {
            return Err(AppError::Invalid(
                "At least one setting must be provided".into(),
            ));
        }
        for (name, value) in &body {
            if !TEAM_FLAGS.contains(&name.as_str()) {
                return Err(AppError::Invalid(format!(
                    "Unknown team setting \"{name}\"; expected one of {}",
                    TEAM_FLAGS.join(", ")
                )));
            }
            if !value.is_boolean() {
                return Err(AppError::Invalid(format!("{name} must be a boolean")));
            }
        }
        Ok(TeamSettingsChanges(body))
    }
}

/// Users' preferences and teams' settings.
#[derive(Debug, Clone)]
pub struct Settings {
    pub(crate) workflows: Arc<WorkflowStore>,
}

impl Settings {
    /// The account's user's preferences (empty until saved).
    pub async fn preferences(&self, account: &Account) -> AppResult<UserPreferences> {
        Ok(self
            .workflows
            .get_doc::<UserPreferences>(DocKind::UserPreferences, None, &account.user_id)
            .await?
            .map(|doc| doc.value)
            .unwrap_or_default())
    }

    /// Replaces the account's user's preferences.
    pub async fn replace_preferences(
        &self,
        account: &Account,
        preferences: UserPreferences,
    ) -> AppResult<UserPreferences> {
        let now = Utc::now();
        let stored = Stored::new(
            account.user_id.clone(),
            account.team_id.clone(),
            now,
            preferences,
        );
        self.workflows
            .put_doc(DocKind::UserPreferences, &stored)
            .await?;
        Ok(stored.value)
    }

    /// The account's team's flags (all off until set).
    pub async fn team_settings(&self, account: &Account) -> AppResult<TeamSettingsFlags> {
        stored_settings(&self.workflows, &account.team_id).await
    }

    /// Sets the flags `changes` names for the account's team; the others keep their
    /// value. Automated search can only be switched on where `plan` includes it.
    pub async fn change_team_settings(
        &self,
        account: &Account,
        plan: Plan,
        changes: TeamSettingsChanges,
    ) -> AppResult<TeamSettingsFlags> {
        if changes.0.get("automatedSearchEnabled") == Some(&Value::Bool(true))
            && plan.limits().automated_search.is_none()
        {
            return Err(AppError::Forbidden(format!(
                "Automated search is not available on the {plan} plan"
            )));
        }
        let (workflows, team_id) = (&self.workflows, &account.team_id);
        // Created once with every flag off, then patched in one statement, so two
        // concurrent changes of different flags both hold.
        let flags_off = Stored::new(
            team_id.clone(),
            team_id.clone(),
            Utc::now(),
            TeamSettingsFlags::default(),
        );
        workflows
            .insert_doc_if_absent(DocKind::TeamSettings, &flags_off)
            .await?;
        workflows
            .merge_into_doc(DocKind::TeamSettings, team_id, &Value::Object(changes.0))
            .await?;
        stored_settings(workflows, team_id).await
    }
}

async fn stored_settings(workflows: &WorkflowStore, team_id: &str) -> AppResult<TeamSettingsFlags> {
    Ok(workflows
        .get_doc::<TeamSettingsFlags>(DocKind::TeamSettings, Some(team_id), team_id)
        .await?
        .map(|doc| doc.value)
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_preference_keys_are_refused_at_every_level() {
        assert!(preferences_from_json(json!({"showAdditionalPodcastDirectories": true})).is_ok());
        for body in [
            json!({"theme": "dark"}),
            json!({"projects": {"favourites": []}}),
            json!({"search": {"export": {"columns": []}}}),
            json!({"search": {"defaultResultsView": "grid"}}),
            json!([]),
        ] {
            assert!(preferences_from_json(body.clone()).is_err(), "{body}");
        }
    }

    #[test]
    fn flags_must_be_known_booleans() {
        assert!(TeamSettingsChanges::from_json(json!({"autoQuickDecisionEnabled": true})).is_ok());
        assert!(TeamSettingsChanges::from_json(json!({})).is_err());
        assert!(
            TeamSettingsChanges::from_json(json!({"autoQuickDecisionEnabled": "yes"})).is_err()
        );
        assert!(TeamSettingsChanges::from_json(json!({"darkMode": true})).is_err());
    }
}
