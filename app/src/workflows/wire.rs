//! Stored rows into the wire entities of `podlens_model::entities`.

use std::collections::HashMap;

use podlens_model::entities::{
    ActivityEntry, AddedByUser, DocumentsCount, LinkedGuestProfile, ListedPodcast,
    ListedPodcastAnalysis, ListedPodcastPodcast, Project, ProjectUser, RecentActivity, StateCounts,
};

use super::projects::{ActivityRow, ListedPodcastRow, ProjectRow};
use crate::accounts::TeamUser;

/// How many recent activities a project shows.
pub const RECENT_ACTIVITIES: usize = 10;

/// The members of a team by id, for naming who did what.
#[derive(Debug, Clone, Default)]
pub struct UserDirectory {
    users: HashMap<String, TeamUser>,
}

impl UserDirectory {
    pub fn new(users: Vec<TeamUser>) -> UserDirectory {
        UserDirectory {
            users: users
                .into_iter()
                .map(|user| (user.id.clone(), user))
                .collect(),
        }
    }

    /// The name shown for a user: display name, else full name, else email, else id.
    pub fn display_name(&self, user_id: &str) -> String {
        let Some(user) = self.users.get(user_id) else {
            return user_id.to_owned();
        };
        let full_name = [user.first_name.as_deref(), user.last_name.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        user.display_name
            .clone()
            .filter(|name| !name.trim().is_empty())
            .or_else(|| (!full_name.is_empty()).then_some(full_name))
            .unwrap_or_else(|| user.email.clone())
    }

    pub fn project_user(&self, user_id: &str) -> Option<ProjectUser> {
        self.users.get(user_id).map(|user| ProjectUser {
            id: user.id.clone(),
            display_name: Some(self.display_name(user_id)),
            avatar_seed: user.avatar_seed.clone(),
        })
    }

    pub fn added_by(&self, user_id: &str) -> AddedByUser {
        AddedByUser {
            user_id: user_id.to_owned(),
            email: self
                .users
                .get(user_id)
                .map(|user| user.email.clone())
                .unwrap_or_default(),
            display_name: Some(self.display_name(user_id)),
        }
    }
}

/// A listed podcast with its activity history (oldest first).
pub fn listed_podcast_wire(
    row: &ListedPodcastRow,
    history: Vec<ActivityEntry>,
    users: &UserDirectory,
) -> ListedPodcast {
    ListedPodcast {
        listed_podcast_id: row.listed_podcast_id.clone(),
        project_id: row.project_id.clone(),
        podcast: ListedPodcastPodcast {
            podcast_id: row.podcast_id.clone(),
            title_original: row.podcast_title.clone(),
            title_latest: row.podcast_title.clone(),
            slug: row.podcast_slug.clone(),
            image_url: row.podcast_image_url.clone(),
            estimated_monthly_listeners: None,
            estimated_monthly_listeners_bucket: None,
        },
        status: row.status,
        priority: row.priority,
        labels: row.labels.clone(),
        added_at: row.added_at,
        updated_at: row.updated_at,
        added_by_user: users.added_by(&row.added_by_user_id),
        activity_history: history,
        analysis: ListedPodcastAnalysis {
            relevancy_score: row.relevancy_score,
            ..ListedPodcastAnalysis::default()
        },
    }
}

/// The newest `RECENT_ACTIVITIES` changes of a project, newest first.
pub fn recent_activities(
    activity: &[ActivityRow],
    listed: &[ListedPodcastRow],
    users: &UserDirectory,
) -> Vec<RecentActivity> {
    let by_id: HashMap<&str, &ListedPodcastRow> = listed
        .iter()
        .map(|row| (row.listed_podcast_id.as_str(), row))
        .collect();
    activity
        .iter()
        .rev()
        .take(RECENT_ACTIVITIES)
        .map(|row| {
            let podcast = by_id.get(row.listed_podcast_id.as_str());
            RecentActivity {
                action_type: row.entry.action_type,
                date: row.entry.activity_date,
                podcast_title: podcast.map(|listed| listed.podcast_title.clone()),
                podcast_slug: podcast.map(|listed| listed.podcast_slug.clone()),
                podcast_image_url: podcast.and_then(|listed| listed.podcast_image_url.clone()),
                to_value: row.entry.to_value.clone(),
                user: users.project_user(&row.entry.user_id),
            }
        })
        .collect()
}

/// A project as listed, from its row, its listed podcasts and their activity.
pub fn project_wire(
    project: &ProjectRow,
    listed: &[ListedPodcastRow],
    activity: &[ActivityRow],
    users: &UserDirectory,
    linked_guest_profile: Option<LinkedGuestProfile>,
) -> Project {
    Project {
        project_id: project.project_id.clone(),
        name: project.name.clone(),
        slug: project.slug.clone(),
        team_id: project.team_id.clone(),
        created_at: project.created_at,
        last_updated: project.last_updated,
        created_by: users.project_user(&project.created_by_user_id),
        project_types: project.project_types.clone(),
        status: project.status,
        listed_podcasts_count: listed.len() as u64,
        linked_guest_profile,
        state_counts: StateCounts::tally(listed.iter().map(|row| row.status)),
        documents_count: DocumentsCount::default(),
        recent_activities: recent_activities(activity, listed, users),
    }
}

/// The activity entries of one listed podcast, oldest first.
pub fn history_of(activity: &[ActivityRow], listed_podcast_id: &str) -> Vec<ActivityEntry> {
    activity
        .iter()
        .filter(|row| row.listed_podcast_id == listed_podcast_id)
        .map(|row| row.entry.clone())
        .collect()
}
