//! Word between the nodes sharing a PostgreSQL store (LISTEN/NOTIFY): a node that
//! changes something other nodes keep in memory says so on a channel, in the
//! transaction of the change, and every node listening forgets its copy as soon as the
//! change commits. On SQLite there is one node per store and nothing to tell.
//!
//! Notifications are not kept: one sent while a listener was away is lost. So a
//! listener reports when it (re)starts listening and when its connection drops, and its
//! caller then forgets everything it kept.

use std::time::Duration;

use sqlx::postgres::PgListener;
use sqlx::{Any, Transaction};

use crate::{Backend, Database, StoreError};

/// A listener that heard nothing for this long reconnects: a connection that died
/// without a word (a half-open socket) would otherwise never report a drop.
const SILENCE: Duration = Duration::from_secs(300);

/// How long a listener waits before connecting again after a failure.
const RETRY: Duration = Duration::from_secs(1);

/// What a listener heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heard<'a> {
    /// It listens now (again): messages sent before may have been missed.
    Listening,
    /// A message on the channel.
    Message(&'a str),
    /// It stopped listening (the connection dropped or could not be made); it will try
    /// again.
    Deaf,
}

impl Database {
    /// Sends `payload` on `channel` to every listening node when `transaction` commits
    /// (nothing on SQLite).
    pub async fn notify(
        &self,
        transaction: &mut Transaction<'static, Any>,
        channel: &str,
        payload: &str,
    ) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS sent")
                .bind(channel)
                .bind(payload)
                .execute(&mut **transaction)
                .await?;
        }
        Ok(())
    }

    /// Listens on `channel` for as long as the store is open, on a connection of its
    /// own, reconnecting when it drops; `heard` is called with each message and each
    /// change of state. Nothing on SQLite, where there is no one to hear from.
    pub fn listen<F>(&self, channel: &str, heard: F)
    where
        F: Fn(Heard<'_>) + Send + Sync + 'static,
    {
        let Some(runtime) = self.runtime.as_ref() else {
            return;
        };
        if self.backend != Backend::Postgres {
            return;
        }
        let (url, channel) = (self.url.clone(), channel.to_owned());
        runtime.spawn(async move {
            loop {
                listen_once(&url, &channel, &heard).await;
                heard(Heard::Deaf);
                tokio::time::sleep(RETRY).await;
            }
        });
    }
}

/// Listens until the connection drops, fails or stays silent for [`SILENCE`].
async fn listen_once(url: &str, channel: &str, heard: &(impl Fn(Heard<'_>) + Sync)) {
    let mut listener = match PgListener::connect(url).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::warn!(%error, channel, "cannot listen for other nodes' changes");
            return;
        }
    };
    if let Err(error) = listener.listen(channel).await {
        tracing::warn!(%error, channel, "cannot listen for other nodes' changes");
        return;
    }
    heard(Heard::Listening);
    loop {
        match tokio::time::timeout(SILENCE, listener.try_recv()).await {
            Ok(Ok(Some(notification))) => heard(Heard::Message(notification.payload())),
            Ok(Ok(None)) => {
                tracing::warn!(
                    channel,
                    "lost the connection listening for other nodes' changes"
                );
                return;
            }
            Ok(Err(error)) => {
                tracing::warn!(%error, channel, "stopped listening for other nodes' changes");
                return;
            }
            // Silent for long: connect afresh (the listener is dropped mid-read).
            Err(_) => return,
        }
    }
}
