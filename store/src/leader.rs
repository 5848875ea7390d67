//! Which node runs the jobs that must run once across nodes (alert matching and
//! delivery, transcription requests, pruning shared logs): the one holding a
//! session-level PostgreSQL advisory lock on a connection of its own. When that node
//! dies or loses its connection, the server frees the lock and the next node to ask
//! takes it. On SQLite there is one node per store, and it always leads.

use sqlx::{AnyConnection, Connection, Row};

use crate::{Backend, Database, StoreError, lock_id};

/// How long the connection holding the leadership may take to answer a check.
const CHECK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// One node's claim on a named leadership.
pub struct Leadership {
    key: i64,
    /// The connection holding the advisory lock while this node leads.
    held: Option<AnyConnection>,
}

impl std::fmt::Debug for Leadership {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Leadership")
            .field("leading", &self.held.is_some())
            .finish_non_exhaustive()
    }
}

impl Leadership {
    /// A claim on the leadership called `name`, not yet asked for.
    pub fn new(name: &str) -> Leadership {
        Leadership {
            key: lock_id(&format!("leader:{name}")),
            held: None,
        }
    }
}

impl Database {
    /// Whether this node leads now: keeps the lock it holds (its connection still
    /// answers) or tries to take it. A node that cannot reach the database does not
    /// lead; the database frees its lock when the connection is gone.
    /// A check dropped before it ends (its caller gave up) loses the connection it held,
    /// and with it the lock: the next check takes it again or follows.
    pub async fn lead(&self, leadership: &mut Leadership) -> Result<bool, StoreError> {
        if self.backend() == Backend::Sqlite {
            return Ok(true);
        }
        let held = leadership.held.take();
        let key = leadership.key;
        let pool = self.pool().clone();
        let (connection, leading) = self
            .run(async move {
                if let Some(mut connection) = held {
                    // A connection that does not answer in time (a half-open socket) is
                    // as good as lost.
                    let answered = tokio::time::timeout(
                        CHECK_TIMEOUT,
                        sqlx::query("SELECT 1").execute(&mut connection),
                    )
                    .await;
                    match answered {
                        Ok(Ok(_)) => return Ok((Some(connection), true)),
                        Ok(Err(error)) => {
                            tracing::warn!(%error, "lost the connection holding the leadership");
                        }
                        Err(_) => tracing::warn!(
                            "the connection holding the leadership does not answer: giving it up"
                        ),
                    }
                    // Closing may fail too: the connection is gone either way.
                    let _ = tokio::time::timeout(CHECK_TIMEOUT, connection.close()).await;
                }
                let mut connection = pool.acquire().await?.detach();
                let taken: i64 = sqlx::query(
                    "SELECT CAST(CASE WHEN pg_try_advisory_lock($1) THEN 1 ELSE 0 END AS BIGINT)",
                )
                .bind(key)
                .fetch_one(&mut connection)
                .await?
                .try_get(0)?;
                if taken == 1 {
                    // The server notices a dead leader's host within about 25 s instead
                    // of its default two hours of TCP keepalive, and frees the lock.
                    sqlx::raw_sql(
                        "SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; \
                     SET tcp_keepalives_count = 3",
                    )
                    .execute(&mut connection)
                    .await?;
                    Ok::<_, sqlx::Error>((Some(connection), true))
                } else {
                    let _ = connection.close().await;
                    Ok((None, false))
                }
            })
            .await?;
        leadership.held = connection;
        Ok(leading)
    }

    /// Gives the leadership up (a node shutting down), so another takes it at once.
    pub async fn resign(&self, leadership: &mut Leadership) {
        if let Some(mut connection) = leadership.held.take() {
            let key = leadership.key;
            self.run(async move {
                let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                    .bind(key)
                    .execute(&mut connection)
                    .await;
                let _ = <AnyConnection as Connection>::close(connection).await;
            })
            .await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_node_leads_and_another_takes_over_when_it_resigns() {
        let first = Database::for_tests().unwrap();
        if first.backend() == Backend::Sqlite {
            // One node per SQLite store: it always leads.
            assert!(first.lead(&mut Leadership::new("jobs")).await.unwrap());
            return;
        }
        let second = first.reopen().unwrap();
        let mut a = Leadership::new("jobs");
        let mut b = Leadership::new("jobs");
        assert!(first.lead(&mut a).await.unwrap());
        assert!(!second.lead(&mut b).await.unwrap());
        // Asking again keeps it where it is.
        assert!(first.lead(&mut a).await.unwrap());
        assert!(!second.lead(&mut b).await.unwrap());
        // Another name is another leadership.
        assert!(second.lead(&mut Leadership::new("other")).await.unwrap());
        first.resign(&mut a).await;
        assert!(second.lead(&mut b).await.unwrap());
        assert!(!first.lead(&mut a).await.unwrap());
        // A node whose lock connection is gone (a dead process) frees the lock with
        // its session.
        drop(b);
        drop(second);
        let mut again = Leadership::new("jobs");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !first.lead(&mut again).await.unwrap() {
            assert!(
                std::time::Instant::now() < deadline,
                "the lock was not freed"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
}
