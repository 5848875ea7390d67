//! Sponsor mentions of episodes (`episode_sponsors`): written per podcast by the job
//! that reads show notes, read back by the API from the snapshot.

use std::collections::HashSet;

use duckdb::params;
use podlens_model::catalog::SponsorMention;
use uuid::Uuid;

use super::Catalog;
use super::enrichment::ensure_tables;
use crate::DataError;

impl Catalog {
    /// Replaces the sponsor mentions of `podcast_ids` with `mentions` (all of which
    /// belong to those podcasts), in one transaction.
    pub fn store_sponsor_mentions(
        &mut self,
        podcast_ids: &[Uuid],
        mentions: &[SponsorMention],
    ) -> Result<u64, DataError> {
        ensure_tables(&self.connection)?;
        let replaced: HashSet<Uuid> = podcast_ids.iter().copied().collect();
        if let Some(stray) = mentions
            .iter()
            .find(|mention| !replaced.contains(&mention.podcast_id))
        {
            return Err(DataError::InvalidArgument(format!(
                "sponsor mention of podcast {} outside the podcasts being replaced",
                stray.podcast_id
            )));
        }
        let transaction = self.connection.transaction()?;
        // The replaced podcasts go to a staging table and leave in one set statement: one
        // DELETE per podcast costs a statement each (minutes at 50k podcasts).
        transaction.execute_batch(
            r#"CREATE TEMP TABLE IF NOT EXISTS stage_sponsor_podcasts ("podcastId" UUID);
               DELETE FROM stage_sponsor_podcasts;"#,
        )?;
        {
            let mut appender =
                transaction.appender_to_catalog_and_db("stage_sponsor_podcasts", "temp", "main")?;
            for id in &replaced {
                appender.append_row([id.to_string()])?;
            }
            appender.flush()?;
        }
        transaction.execute_batch(
            r#"DELETE FROM episode_sponsors
               WHERE "podcastId" IN (SELECT "podcastId" FROM stage_sponsor_podcasts);
               DELETE FROM stage_sponsor_podcasts;"#,
        )?;
        {
            let mut appender = transaction.appender("episode_sponsors")?;
            for mention in mentions {
                appender.append_row(params![
                    mention.podcast_id.to_string(),
                    mention.episode_id.to_string(),
                    mention.name,
                    mention.sponsor_type,
                    mention.url,
                    mention.coupon_code,
                    mention.snippet
                ])?;
            }
            appender.flush()?;
        }
        transaction.commit()?;
        Ok(mentions.len() as u64)
    }

    /// The stored sponsor mentions of a podcast, by episode then name.
    pub fn sponsor_mentions(&self, podcast_id: Uuid) -> Result<Vec<SponsorMention>, DataError> {
        ensure_tables(&self.connection)?;
        let mut statement = self.connection.prepare(
            r#"SELECT "podcastId"::VARCHAR, "episodeId"::VARCHAR, "name", "sponsorType", "url",
                      "couponCode", "snippet"
               FROM episode_sponsors WHERE "podcastId" = ?::UUID ORDER BY "episodeId", "name""#,
        )?;
        let rows = statement
            .query_map([podcast_id.to_string()], |row| {
                Ok(SponsorMention {
                    podcast_id: crate::records::uuid_at(row, 0)?,
                    episode_id: crate::records::uuid_at(row, 1)?,
                    name: row.get(2)?,
                    sponsor_type: row.get(3)?,
                    url: row.get(4)?,
                    coupon_code: row.get(5)?,
                    snippet: row.get(6)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mention(podcast: u128, episode: u128, name: &str) -> SponsorMention {
        SponsorMention {
            podcast_id: Uuid::from_u128(podcast),
            episode_id: Uuid::from_u128(episode),
            name: name.into(),
            sponsor_type: "sponsor".into(),
            url: Some("acme.com".into()),
            coupon_code: None,
            snippet: format!("Sponsored by {name}."),
        }
    }

    #[test]
    fn storing_a_podcasts_mentions_replaces_only_that_podcasts() {
        let dir = tempfile::tempdir().unwrap();
        let mut catalog = Catalog::open(dir.path()).unwrap();
        let (one, two) = (Uuid::from_u128(1), Uuid::from_u128(2));
        catalog
            .store_sponsor_mentions(
                &[one, two],
                &[mention(1, 10, "Acme"), mention(2, 20, "Globex")],
            )
            .unwrap();
        catalog
            .store_sponsor_mentions(&[one], &[mention(1, 11, "Initech")])
            .unwrap();
        let names = |id| -> Vec<String> {
            catalog
                .sponsor_mentions(id)
                .unwrap()
                .into_iter()
                .map(|m| m.name)
                .collect()
        };
        assert_eq!(names(one), ["Initech"]);
        assert_eq!(names(two), ["Globex"]);
        let error = catalog
            .store_sponsor_mentions(&[one], &[mention(2, 20, "Globex")])
            .unwrap_err();
        assert!(error.to_string().contains("outside"), "{error}");
    }
}
