//! PostgreSQL full-text search: a stored `tsvector` (the `simple` configuration:
//! lowercased words, no stemming) of title, description and transcript under a GIN
//! index, matched with `to_tsquery` (the words OR'd: `a | b`) / `phraseto_tsquery`,
//! ordered by `ts_rank`.

use std::io::Write;

use postgres::{Client, NoTls, SimpleQueryMessage};

use crate::catalog::Catalog;
use crate::queries::{BenchQuery, PAGE_SIZE};
use crate::{Engine, GAP_WORD, Result, episode_texts};

pub fn connect(connection: &str) -> Result<Client> {
    Ok(Client::connect(connection, NoTls)?)
}

/// Loads every episode with COPY, then builds the GIN and date indexes and analyzes.
pub fn build(client: &mut Client, catalog: &Catalog) -> Result<()> {
    client.batch_execute(&format!(
        "DROP TABLE IF EXISTS episode;
         CREATE UNLOGGED TABLE episode (
             id bigint NOT NULL,
             title text NOT NULL,
             description text NOT NULL,
             transcript text NOT NULL,
             published_at bigint NOT NULL,
             has_transcript boolean NOT NULL,
             language text NOT NULL,
             tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig,
                 title || ' {GAP_WORD} ' || description || ' {GAP_WORD} ' || transcript)) STORED
         );"
    ))?;
    let separator = format!(" {GAP_WORD} ");
    let mut writer = client.copy_in(
        "COPY episode (id, title, description, transcript, published_at, has_transcript, language)
         FROM STDIN",
    )?;
    let mut line = String::new();
    for episode in episode_texts(catalog) {
        line.clear();
        line.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            episode.number,
            episode.title,
            episode.description,
            episode.chunks.join(&separator),
            episode.published_at,
            if episode.has_transcript { "t" } else { "f" },
            episode.language,
        ));
        writer.write_all(line.as_bytes())?;
    }
    writer.finish()?;
    client.batch_execute(
        "CREATE INDEX episode_tsv ON episode USING gin (tsv);
         CREATE INDEX episode_published_at ON episode (published_at);",
    )?;
    client.batch_execute("VACUUM ANALYZE episode")?;
    Ok(())
}

/// Table, TOAST and indexes, in bytes.
pub fn size(client: &mut Client) -> Result<u64> {
    let row = client.query_one("SELECT pg_total_relation_size('episode')", &[])?;
    Ok(row.get::<_, i64>(0) as u64)
}

pub struct Postgres {
    client: Client,
    /// Leave the table when done (`KEEP_DATA=1`).
    keep: bool,
}

impl Postgres {
    pub fn new(client: Client, keep: bool) -> Postgres {
        Postgres { client, keep }
    }

    fn filters(query: &BenchQuery) -> String {
        let mut sql = String::new();
        if let Some(since) = query.filters.published_since {
            sql.push_str(&format!(" AND published_at >= {since}"));
        }
        if query.filters.has_transcript {
            sql.push_str(" AND has_transcript");
        }
        if let Some(language) = query.filters.language {
            sql.push_str(&format!(" AND language = '{language}'"));
        }
        sql
    }

    fn scalar(&mut self, sql: &str, column: usize) -> Result<Option<u64>> {
        let mut value = None;
        for message in self.client.simple_query(sql)? {
            if let SimpleQueryMessage::Row(row) = message {
                std::hint::black_box(row.get(0));
                value = row.get(column).and_then(|text| text.parse().ok());
            }
        }
        Ok(value)
    }
}

/// The tsquery: a phrase, or any of the words (`|`). Words are plain lowercase ASCII.
pub fn tsquery(query: &BenchQuery) -> String {
    if query.phrase {
        format!("phraseto_tsquery('simple', '{}')", query.words.join(" "))
    } else {
        format!("to_tsquery('simple', '{}')", query.words.join(" | "))
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if !self.keep
            && let Err(error) = self.client.batch_execute("DROP TABLE episode")
        {
            eprintln!("could not drop the benchmark's table: {error}");
        }
    }
}

impl Engine for Postgres {
    fn run(&mut self, _index: usize, query: &BenchQuery) -> Result<u64> {
        let tsquery = tsquery(query);
        let order = if query.by_date {
            "published_at DESC, id".to_owned()
        } else {
            format!("ts_rank(tsv, {tsquery}) DESC, id")
        };
        let sql = format!(
            "SELECT id, count(*) OVER () FROM episode WHERE tsv @@ {tsquery}{} \
             ORDER BY {order} LIMIT {PAGE_SIZE} OFFSET {}",
            Self::filters(query),
            query.offset
        );
        if let Some(total) = self.scalar(&sql, 1)? {
            return Ok(total);
        }
        if query.offset == 0 {
            return Ok(0);
        }
        // A page past the end has no row to carry the count.
        let count = format!(
            "SELECT count(*) FROM episode WHERE tsv @@ {tsquery}{}",
            Self::filters(query)
        );
        Ok(self.scalar(&count, 0)?.unwrap_or(0))
    }
}
