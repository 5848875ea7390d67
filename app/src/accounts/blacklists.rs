//! The podcasts each team has blacklisted, remembered: every search of a team leaves
//! them out, and reading them from the store cost each search a query and a hand-off to
//! a blocking thread. A change made through this node forgets the team's list at once.
//! A change made through another node sharing a PostgreSQL store is announced on
//! [`CHANNEL`] when it commits, and every node listening forgets the team's list as soon
//! as it hears it ([`listen`]). While a node listens, it keeps a list for
//! [`KEPT_WHILE_LISTENING`] (a bound for a notification lost without a sign); while it
//! does not (SQLite, whose file another process may write, or a dropped connection), for
//! [`FRESH_FOR`].

use std::sync::Arc;

use podlens_store::Database;
use uuid::Uuid;

use crate::accounts::AccountStore;
use crate::accounts::remembered::{OnMessage, Remembered};
use crate::error::AppResult;

pub use crate::accounts::remembered::{FRESH_FOR, KEPT_WHILE_LISTENING};

/// The store's channel on which a change to a team's podcasts names the team.
pub const CHANNEL: &str = "podlens_team_podcasts";

/// Teams remembered at most; past this, the lists are dropped and read again.
const MAX_TEAMS: usize = 10_000;

/// A team's blacklisted podcasts.
pub type Blacklist = Arc<[Uuid]>;

/// The teams' lists, by team id.
#[derive(Debug)]
pub struct TeamBlacklists(Arc<Remembered<Blacklist>>);

impl Default for TeamBlacklists {
    fn default() -> TeamBlacklists {
        TeamBlacklists(Arc::new(Remembered::new(MAX_TEAMS, OnMessage::Named)))
    }
}

impl TeamBlacklists {
    /// The team's list when it was read recently enough (see `accounts::remembered`).
    pub fn cached(&self, team_id: &str) -> Option<Blacklist> {
        self.0.cached(team_id)
    }

    /// The team's list, from memory when fresh, else read from the store.
    pub async fn get(&self, accounts: &dyn AccountStore, team_id: &str) -> AppResult<Blacklist> {
        self.0
            .get(team_id, || async {
                Ok(accounts
                    .team_podcasts(team_id)
                    .await?
                    .into_iter()
                    .filter(|row| row.blacklist)
                    .filter_map(|row| Uuid::parse_str(&row.podcast_id).ok())
                    .collect())
            })
            .await
    }

    /// Forgets the team's list: call it after changing the team's podcasts.
    pub fn forget(&self, team_id: &str) {
        self.0.forget(team_id);
    }

    /// Whether other nodes' changes are heard now.
    pub fn is_listening(&self) -> bool {
        self.0.is_listening()
    }
}

/// Hears other nodes' changes to teams' podcasts on the store's [`CHANNEL`] for as long
/// as `blacklists` is used (nothing on SQLite).
pub fn listen(blacklists: &TeamBlacklists, database: &Database) {
    crate::accounts::remembered::listen(&blacklists.0, database, CHANNEL);
}

/// The podcasts the team of `account` has blacklisted (none for a signed-out caller):
/// searches, semantic searches and search exports leave them out. From memory when
/// fresh, else read from the store (see `accounts::blacklists`).
pub async fn blacklist_of(
    blacklists: &TeamBlacklists,
    accounts: &dyn AccountStore,
    account: Option<&super::Account>,
) -> AppResult<Vec<uuid::Uuid>> {
    let Some(account) = account else {
        return Ok(Vec::new());
    };
    Ok(blacklists.get(accounts, &account.team_id).await?.to_vec())
}

#[cfg(test)]
mod tests {
    use crate::runtime::block_on_own_thread as block;
    use chrono::Utc;

    use super::*;
    use crate::accounts::remembered::eventually;
    use crate::accounts::{SqlAccountStore, TeamPodcastRow};

    fn row(team: &str, podcast: Uuid, blacklist: bool) -> TeamPodcastRow {
        TeamPodcastRow {
            team_id: team.into(),
            podcast_id: podcast.to_string(),
            added_by_user_id: None,
            added_reason: "test".into(),
            blacklist,
            sync: false,
            created_at: Utc::now(),
            updated_at: Utc::now(),
        }
    }

    #[test]
    fn a_change_through_this_node_shows_at_once_and_another_nodes_within_the_freshness() {
        let store = SqlAccountStore::for_tests().unwrap();
        let (first, second, listed) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        block(store.upsert_team_podcast(&row("t1", first, true))).unwrap();
        block(store.upsert_team_podcast(&row("t1", listed, false))).unwrap();
        let lists = TeamBlacklists::default();
        assert_eq!(&*block(lists.get(&store, "t1")).unwrap(), &[first]);
        assert_eq!(block(lists.get(&store, "t2")).unwrap().len(), 0);

        // Another node's change: this node still answers from memory...
        block(store.upsert_team_podcast(&row("t1", second, true))).unwrap();
        assert_eq!(&*block(lists.get(&store, "t1")).unwrap(), &[first]);
        // ...until the list is older than FRESH_FOR.
        std::thread::sleep(FRESH_FOR);
        let mut now = block(lists.get(&store, "t1")).unwrap().to_vec();
        now.sort();
        let mut expected = vec![first, second];
        expected.sort();
        assert_eq!(now, expected);

        // A change through this node: forgotten at once.
        block(store.remove_team_podcasts("t1", &[first.to_string()])).unwrap();
        lists.forget("t1");
        assert_eq!(lists.cached("t1"), None);
        assert_eq!(&*block(lists.get(&store, "t1")).unwrap(), &[second]);
    }

    #[test]
    fn another_nodes_change_is_heard_when_it_commits() {
        let database = Arc::new(Database::for_tests().unwrap());
        if database.backend() != podlens_store::Backend::Postgres {
            // One node per SQLite store: nothing to hear, lists are kept for FRESH_FOR.
            let lists = Arc::new(TeamBlacklists::default());
            listen(&lists, &database);
            assert!(!lists.is_listening());
            return;
        }
        let other = Arc::new(database.reopen().unwrap());
        let (here, there) = (
            SqlAccountStore::new(database),
            SqlAccountStore::new(other.clone()),
        );
        let (first, second) = (Uuid::new_v4(), Uuid::new_v4());
        block(here.upsert_team_podcast(&row("t1", first, true))).unwrap();
        block(here.upsert_team_podcast(&row("t2", first, true))).unwrap();
        let lists = Arc::new(TeamBlacklists::default());
        listen(&lists, &other);
        eventually("the node listens", || lists.is_listening());
        assert_eq!(&*block(lists.get(&there, "t1")).unwrap(), &[first]);
        assert_eq!(&*block(lists.get(&there, "t2")).unwrap(), &[first]);

        // A change through the other node: this one forgets the team's list when it
        // commits, long before the list would be read again (KEPT_WHILE_LISTENING),
        // and keeps the other team's.
        let changed = std::time::Instant::now();
        block(here.upsert_team_podcast(&row("t1", second, true))).unwrap();
        eventually("the change is heard", || lists.cached("t1").is_none());
        assert!(changed.elapsed() < KEPT_WHILE_LISTENING);
        assert!(lists.cached("t2").is_some());
        let mut now = block(lists.get(&there, "t1")).unwrap().to_vec();
        now.sort();
        let mut expected = vec![first, second];
        expected.sort();
        assert_eq!(now, expected);

        // Removing is heard too.
        block(here.remove_team_podcasts("t1", &[first.to_string()])).unwrap();
        eventually("the removal is heard", || lists.cached("t1").is_none());
        assert_eq!(&*block(lists.get(&there, "t1")).unwrap(), &[second]);
    }
}
