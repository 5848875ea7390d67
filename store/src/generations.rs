//! The metastore of a cluster: the index generations published to its object store
//! (`index_generations`), written by `podlens publish` and followed by search nodes.

use chrono::{DateTime, Utc};
use sqlx::Row;

use crate::{Database, StoreError, time_at, time_text};

/// A published generation, as the metastore holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedGeneration {
    pub generation: u64,
    pub shards: u32,
    pub replicas: u32,
    /// The object store's URL (and prefix) holding its objects.
    pub location: String,
    /// Its manifest.json.
    pub manifest: String,
    /// Whether it carries global term statistics.
    pub statistics: bool,
    pub created_at: DateTime<Utc>,
}

impl Database {
    /// Records a generation published to the object store. Publishing the same number
    /// again replaces its row (a publish retried after a failure).
    pub async fn record_generation(
        &self,
        published: &PublishedGeneration,
    ) -> Result<(), StoreError> {
        self.run(async {
            let mut transaction = self.pool().begin().await?;
            sqlx::query("DELETE FROM index_generations WHERE generation = $1")
                .bind(published.generation as i64)
                .execute(&mut *transaction)
                .await?;
            sqlx::query(
                "INSERT INTO index_generations \
                 (generation, shards, replicas, location, manifest, statistics, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(published.generation as i64)
            .bind(i64::from(published.shards))
            .bind(i64::from(published.replicas))
            .bind(&published.location)
            .bind(&published.manifest)
            .bind(i64::from(published.statistics))
            .bind(time_text(published.created_at))
            .execute(&mut *transaction)
            .await?;
            transaction.commit().await?;
            Ok(())
        })
        .await
    }

    /// The newest published generation, `None` before the first.
    pub async fn newest_generation(&self) -> Result<Option<PublishedGeneration>, StoreError> {
        self.run(async {
            let row = sqlx::query(
                "SELECT generation, shards, replicas, location, manifest, statistics, created_at \
                 FROM index_generations ORDER BY generation DESC LIMIT 1",
            )
            .fetch_optional(self.pool())
            .await?;
            let Some(row) = row else { return Ok(None) };
            let number = |column: &str| -> Result<u64, StoreError> {
                u64::try_from(row.try_get::<i64, _>(column)?)
                    .map_err(|_| StoreError::Corrupt(format!("index_generations.{column}")))
            };
            Ok(Some(PublishedGeneration {
                generation: number("generation")?,
                shards: u32::try_from(number("shards")?)
                    .map_err(|_| StoreError::Corrupt("index_generations.shards".into()))?,
                replicas: u32::try_from(number("replicas")?)
                    .map_err(|_| StoreError::Corrupt("index_generations.replicas".into()))?,
                location: row.try_get("location")?,
                manifest: row.try_get("manifest")?,
                statistics: number("statistics")? != 0,
                created_at: time_at(&row, "created_at")?,
            }))
        })
        .await
    }
}
