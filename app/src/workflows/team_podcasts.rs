//! A team's saved podcasts, with their sync and blacklist flags (`/api/v1/teams/podcasts`),
//! and its members (`/api/v1/teams/users`).

use std::sync::Arc;

use chrono::Utc;
use podlens_model::entities::{
    PodcastSummary, TeamPodcast, TeamPodcastResponse, TeamPodcastsResponse, TeamUser,
    TeamUsersResponse,
};
use podlens_model::enums::TeamPodcastAddedReason;
use serde::{Deserialize, Serialize};

use crate::accounts::blacklists::TeamBlacklists;
use crate::accounts::{Account, AccountStore, TeamPodcastRow};
use crate::catalog::CatalogReader;
use crate::error::{AppError, AppResult};
use crate::runtime::blocking;

/// What a list of the team's podcasts asks for: flags and a title filter, an order
/// (`podcastTitle` or `addedAt`), then `limit` (default 100) after `offset`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamPodcastsQuery {
    blacklist: Option<bool>,
    sync: Option<bool>,
    limit: Option<f64>,
    offset: Option<f64>,
    text_filter: Option<String>,
    sort_order: Option<String>,
}

/// The flags an addition sets (a flag left out or null keeps its value).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TeamPodcastFlags {
    sync: Option<bool>,
    blacklist: Option<bool>,
}

impl TeamPodcastFlags {
    /// The flags of a JSON body, or why not.
    pub fn from_body(body: serde_json::Value) -> AppResult<TeamPodcastFlags> {
        serde_json::from_value(body)
            .map_err(|error| AppError::Invalid(format!("Invalid request body: {error}")))
    }
}

/// Podcasts to remove, by id or Apple id.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RemoveManyBody {
    #[serde(default)]
    podcast_ids: Vec<String>,
    #[serde(default)]
    apple_ids: Vec<u64>,
}

/// What a removal of several podcasts did.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoveManyResponse {
    not_found_apple_ids: Vec<u64>,
    errors: u64,
    removed_podcasts: u64,
    not_on_list: u64,
}

/// The teams' podcasts and members.
#[derive(Clone)]
pub struct TeamPodcasts {
    pub accounts: Arc<dyn AccountStore>,
    pub catalog: Arc<CatalogReader>,
    pub blacklists: Arc<TeamBlacklists>,
}

impl TeamPodcasts {
    /// The team's podcasts, filtered by flags and title, paged.
    pub async fn list(
        &self,
        account: &Account,
        query: TeamPodcastsQuery,
    ) -> AppResult<TeamPodcastsResponse> {
        let limit = whole(query.limit, "limit", 100)?;
        let offset = whole(query.offset, "offset", 0)?;
        if let Some(order) = query.sort_order.as_deref()
            && !matches!(order, "podcastTitle" | "addedAt")
        {
            return Err(AppError::Invalid(format!(
                "sortOrder must be podcastTitle or addedAt, got \"{order}\""
            )));
        }
        let rows = self.accounts.team_podcasts(&account.team_id).await?;
        let this = self.clone();
        blocking(move || {
            let total = rows.len() as u64;
            let ids: Vec<uuid::Uuid> = rows
                .iter()
                .filter_map(|row| uuid::Uuid::parse_str(&row.podcast_id).ok())
                .collect();
            let records = this.catalog.snapshot()?.podcasts_by_ids(&ids)?;
            let filter = query.text_filter.as_deref().map(str::to_lowercase);
            let mut podcasts: Vec<TeamPodcast> = rows
                .into_iter()
                .filter(|row| query.blacklist.is_none_or(|flag| row.blacklist == flag))
                .filter(|row| query.sync.is_none_or(|flag| row.sync == flag))
                .filter_map(|row| {
                    let record = records
                        .iter()
                        .find(|record| record.podcast_id.to_string() == row.podcast_id)?;
                    Some(to_wire(row, crate::convert::podcast_summary(record)))
                })
                .filter(|podcast| {
                    filter
                        .as_deref()
                        .is_none_or(|text| podcast.podcast.title.to_lowercase().contains(text))
                })
                .collect();
            if query.sort_order.as_deref() == Some("podcastTitle") {
                podcasts.sort_by_key(|team_podcast| team_podcast.podcast.title.to_lowercase());
            }
            let total_filtered = podcasts.len() as u64;
            let team_podcasts = podcasts
                .into_iter()
                .skip(offset as usize)
                .take(limit as usize)
                .collect();
            Ok(TeamPodcastsResponse {
                total,
                total_filtered,
                team_podcasts,
            })
        })
        .await
    }

    /// Adds a podcast (by id or slug) to the team, or sets the flags of one it has.
    pub async fn add(
        &self,
        account: &Account,
        id_or_slug: String,
        flags: TeamPodcastFlags,
    ) -> AppResult<TeamPodcastResponse> {
        let catalog = self.catalog.clone();
        let record = blocking(move || catalog.podcast(&id_or_slug)).await?;
        let id = record.podcast_id.to_string();
        let existing = self
            .accounts
            .team_podcasts(&account.team_id)
            .await?
            .into_iter()
            .find(|row| row.podcast_id == id);
        let now = Utc::now();
        let row = match existing {
            Some(mut row) => {
                row.sync = flags.sync.unwrap_or(row.sync);
                row.blacklist = flags.blacklist.unwrap_or(row.blacklist);
                row.updated_at = now;
                row
            }
            None => TeamPodcastRow {
                team_id: account.team_id.clone(),
                podcast_id: id,
                added_by_user_id: Some(account.user_id.clone()),
                added_reason: TeamPodcastAddedReason::AddToTeamPodcastsButton
                    .as_str()
                    .to_owned(),
                blacklist: flags.blacklist.unwrap_or(false),
                sync: flags.sync.unwrap_or(false),
                created_at: now,
                updated_at: now,
            },
        };
        let saved = self.accounts.upsert_team_podcast(&row).await?;
        self.blacklists.forget(&account.team_id);
        Ok(TeamPodcastResponse {
            team_podcast: to_wire(saved, crate::convert::podcast_summary(&record)),
        })
    }

    /// Removes one podcast from the team; not one of its podcasts is not found.
    pub async fn remove(&self, account: &Account, podcast_id: String) -> AppResult<()> {
        let team = &account.team_id;
        let removed = self
            .accounts
            .remove_team_podcasts(team, std::slice::from_ref(&podcast_id))
            .await?;
        self.blacklists.forget(team);
        if removed == 0 {
            return Err(AppError::NotFound(format!(
                "Podcast {podcast_id} is not one of the team's podcasts"
            )));
        }
        Ok(())
    }

    /// Removes several podcasts, by id or Apple id.
    pub async fn remove_many(
        &self,
        account: &Account,
        body: RemoveManyBody,
    ) -> AppResult<RemoveManyResponse> {
        let catalog = self.catalog.clone();
        let (ids, not_found_apple_ids) = blocking(move || {
            let snapshot = catalog.snapshot()?;
            let mut ids = body.podcast_ids.clone();
            let mut not_found_apple_ids = Vec::new();
            for apple_id in &body.apple_ids {
                match snapshot.podcast_by_apple_id(&apple_id.to_string())? {
                    Some(record) => ids.push(record.podcast_id.to_string()),
                    None => not_found_apple_ids.push(*apple_id),
                }
            }
            Ok((ids, not_found_apple_ids))
        })
        .await?;
        let team = &account.team_id;
        let removed = self.accounts.remove_team_podcasts(team, &ids).await?;
        self.blacklists.forget(team);
        Ok(RemoveManyResponse {
            not_found_apple_ids,
            errors: 0,
            removed_podcasts: removed,
            not_on_list: ids.len() as u64 - removed,
        })
    }

    /// The team's members.
    pub async fn users(&self, account: &Account) -> AppResult<TeamUsersResponse> {
        let users = self
            .accounts
            .team_users(&account.team_id)
            .await?
            .into_iter()
            .map(|user| TeamUser {
                id: user.id,
                email: user.email,
                first_name: user.first_name,
                last_name: user.last_name,
                avatar_seed: user.avatar_seed,
                display_name: user.display_name,
                role: user.role,
                joined_at: user.joined_at,
            })
            .collect();
        Ok(TeamUsersResponse { users })
    }
}

fn to_wire(row: TeamPodcastRow, podcast: PodcastSummary) -> TeamPodcast {
    TeamPodcast {
        added_by_user_id: row.added_by_user_id,
        added_reason: TeamPodcastAddedReason::parse(&row.added_reason)
            .unwrap_or(TeamPodcastAddedReason::AddToTeamPodcastsButton),
        blacklist: row.blacklist,
        created_at: row.created_at,
        podcast,
        podcast_id: row.podcast_id,
        projects: Vec::new(),
        sync: row.sync,
        team_id: row.team_id,
        updated_at: Some(row.updated_at),
    }
}

/// A whole number of at least 0 (`default` when absent).
fn whole(value: Option<f64>, name: &str, default: u64) -> AppResult<u64> {
    match value {
        None => Ok(default),
        Some(number) if number >= 0.0 && number.fract() == 0.0 && number <= 1e9 => {
            Ok(number as u64)
        }
        Some(number) => Err(AppError::Invalid(format!(
            "{name} must be a whole number of at least 0, got {number}"
        ))),
    }
}
