//! The accounts behind the API keys in use, remembered: every request with a key would
//! otherwise read its account from the store, a query and two hand-offs between
//! threads that cost a signed-in search as much as its own hits. Remembered by the
//! key's hash, never by the key itself.
//!
//! A key revoked, a team's plan changed, a member moved or removed, or a user renamed
//! through this node forgets every key at once (the stores that make these changes
//! hold the same [`KnownKeys`]). Through another node sharing a PostgreSQL store, such
//! a change is announced on [`CHANNEL`] when it commits and forgets every key of every
//! node listening; otherwise (SQLite, which another process such as `podlens keys
//! revoke` may write) a key's account is read again after
//! [`remembered::FRESH_FOR`](super::remembered::FRESH_FOR).

use std::sync::Arc;

use podlens_store::Database;
use sqlx::{Any, Transaction};

use crate::accounts::remembered::{OnMessage, Remembered};
use crate::accounts::{Account, AccountStore, hash_api_key};
use crate::error::AppResult;

/// The store's channel on which a change to keys, users, teams or members is announced.
pub const CHANNEL: &str = "podlens_api_keys";

/// Keys remembered at most; past this, all are dropped and read again.
const MAX_KEYS: usize = 10_000;

/// The accounts of keys, by the keys' hashes (`None`: an unknown or revoked key, which
/// stays refused).
#[derive(Debug)]
pub struct KnownKeys(Arc<Remembered<Option<Account>>>);

impl Default for KnownKeys {
    fn default() -> KnownKeys {
        KnownKeys(Arc::new(Remembered::new(MAX_KEYS, OnMessage::All)))
    }
}

impl KnownKeys {
    /// The account of a live key, remembered when fresh, else read from the store.
    pub async fn account(
        &self,
        accounts: &dyn AccountStore,
        api_key: &str,
    ) -> AppResult<Option<Account>> {
        self.0
            .get(&hash_api_key(api_key), || accounts.account_for_key(api_key))
            .await
    }

    /// What is remembered of a key, when fresh: `Some(None)` for an unknown or revoked
    /// key.
    pub fn cached(&self, api_key: &str) -> Option<Option<Account>> {
        self.0.cached(&hash_api_key(api_key))
    }

    /// Forgets every key's account: call it after a change to keys, users, teams or
    /// members.
    pub fn forget_all(&self) {
        self.0.forget_all();
    }

    /// Whether other nodes' changes are heard now.
    pub fn is_listening(&self) -> bool {
        self.0.is_listening()
    }

    /// Commits `transaction`, which changed keys, users, teams or members: the other
    /// nodes hear of it when it commits, and this node forgets every key's account.
    pub async fn commit_change(
        &self,
        database: &Database,
        mut transaction: Transaction<'static, Any>,
    ) -> AppResult<()> {
        database.notify(&mut transaction, CHANNEL, "").await?;
        transaction.commit().await?;
        self.forget_all();
        Ok(())
    }
}

/// Hears other nodes' changes on the store's [`CHANNEL`] for as long as `known` is used
/// (nothing on SQLite).
pub fn listen(known: &KnownKeys, database: &Database) {
    crate::accounts::remembered::listen(&known.0, database, CHANNEL);
}

/// The account of `api_key`: from memory when fresh, else read from the store.
pub async fn account_of_key(
    known: &Arc<KnownKeys>,
    accounts: &Arc<dyn AccountStore>,
    api_key: &str,
) -> AppResult<Option<Account>> {
    known.account(accounts.as_ref(), api_key).await
}

#[cfg(test)]
mod tests {
    use crate::runtime::block_on_own_thread as block;
    use std::time::Instant;

    use chrono::Utc;

    use super::*;
    use crate::accounts::SqlAccountStore;
    use crate::accounts::members::{MemberStore, Role};
    use crate::accounts::remembered::eventually;
    use crate::accounts::remembered::{FRESH_FOR, KEPT_WHILE_LISTENING};

    fn live(known: &KnownKeys, store: &SqlAccountStore, key: &str) -> Option<Account> {
        block(known.account(store, key)).unwrap()
    }

    #[test]
    fn changes_through_this_node_refuse_or_change_a_remembered_key_at_once() {
        let database = Arc::new(Database::for_tests().unwrap());
        let store = SqlAccountStore::new(database.clone());
        let known = store.known_keys();
        let members = MemberStore::open(database).forgetting(known.clone());
        let owner = block(store.create_api_key("owner@example.com", "business")).unwrap();
        let member = block(store.create_api_key("member@example.com", "free")).unwrap();
        assert_eq!(
            live(&known, &store, &owner.api_key),
            Some(owner.account.clone())
        );
        assert!(
            known.cached(&owner.api_key).is_some(),
            "remembered once read"
        );
        assert_eq!(live(&known, &store, "pl_unknown"), None);

        // The team's plan, the user's name: the next request sees them.
        block(store.create_api_key("owner@example.com", "agency")).unwrap();
        assert_eq!(live(&known, &store, &owner.api_key).unwrap().plan, "agency");
        block(store.set_display_name(&owner.account.user_id, Some("Olive"))).unwrap();
        let renamed = live(&known, &store, &owner.api_key).unwrap();
        assert_eq!(renamed.display_name.as_deref(), Some("Olive"));

        // Joining another team revokes the keys of the team left.
        assert_eq!(
            live(&known, &store, &member.api_key),
            Some(member.account.clone())
        );
        let (_, token) =
            block(members.invite(&renamed, "member@example.com", Role::Member, Utc::now()))
                .unwrap();
        let joined = block(members.accept(&token, Utc::now())).unwrap();
        assert_eq!(live(&known, &store, &member.api_key), None);
        // Removed from the team: the keys for it stop at once.
        let team_key = block(store.create_team_key(&joined)).unwrap();
        assert_eq!(
            live(&known, &store, &team_key.api_key).unwrap().team_id,
            owner.account.team_id
        );
        block(members.remove(&joined.team_id, &joined.user_id, Utc::now())).unwrap();
        assert_eq!(live(&known, &store, &team_key.api_key), None);

        // Revoked: refused at the next request.
        for row in block(store.team_keys(&owner.account.team_id)).unwrap() {
            block(store.revoke_key(Some(&owner.account.team_id), &row.key_id)).unwrap();
        }
        assert_eq!(live(&known, &store, &owner.api_key), None);
    }

    #[test]
    fn a_key_revoked_through_another_node_is_refused_within_the_freshness() {
        let database = Arc::new(Database::for_tests().unwrap());
        let (here, there) = (
            SqlAccountStore::new(database.clone()),
            SqlAccountStore::new(database),
        );
        let known = here.known_keys();
        let created = block(here.create_api_key("ada@example.com", "business")).unwrap();
        assert!(live(&known, &here, &created.api_key).is_some());
        let key_id = block(here.team_keys(&created.account.team_id)).unwrap()[0]
            .key_id
            .clone();
        block(there.revoke_key(None, &key_id)).unwrap();
        // Not heard (nobody listens here): remembered until FRESH_FOR has passed...
        assert!(live(&known, &here, &created.api_key).is_some());
        std::thread::sleep(FRESH_FOR);
        // ...then refused.
        assert_eq!(live(&known, &here, &created.api_key), None);
    }

    #[test]
    fn a_key_revoked_through_another_node_is_heard_when_it_commits() {
        let database = Arc::new(Database::for_tests().unwrap());
        if database.backend() != podlens_store::Backend::Postgres {
            // One node per SQLite store: nothing to hear, keys are kept for FRESH_FOR.
            let known = KnownKeys::default();
            listen(&known, &database);
            assert!(!known.is_listening());
            return;
        }
        let other = Arc::new(database.reopen().unwrap());
        let (here, there) = (
            SqlAccountStore::new(database),
            SqlAccountStore::new(other.clone()),
        );
        let known = there.known_keys();
        listen(&known, &other);
        eventually("the node listens", || known.is_listening());
        let first = block(here.create_api_key("ada@example.com", "business")).unwrap();
        let second = block(here.create_api_key("bo@example.com", "business")).unwrap();
        assert!(live(&known, &there, &first.api_key).is_some());

        // A plan changed through the other node: heard long before KEPT_WHILE_LISTENING.
        let changed = Instant::now();
        block(here.create_api_key("ada@example.com", "agency")).unwrap();
        eventually("the plan change is heard", || {
            known.cached(&first.api_key).is_none()
        });
        assert!(changed.elapsed() < KEPT_WHILE_LISTENING);
        assert_eq!(live(&known, &there, &first.api_key).unwrap().plan, "agency");

        // A revocation through the other node.
        assert!(live(&known, &there, &second.api_key).is_some());
        let key_id = block(here.team_keys(&second.account.team_id)).unwrap()[0]
            .key_id
            .clone();
        block(here.revoke_key(None, &key_id)).unwrap();
        eventually("the revocation is heard", || {
            known.cached(&second.api_key).is_none()
        });
        assert_eq!(live(&known, &there, &second.api_key), None);
    }
}
