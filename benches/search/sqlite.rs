//! SQLite FTS5: the text in an FTS5 table (unicode61 tokenizer), the filter and sort
//! columns in a plain table joined on the rowid. Words are OR'd, a phrase is one quoted
//! string; relevance order is FTS5's `rank` (`bm25()`).

use std::path::Path;

use rusqlite::{Connection, params, types::Value};

use crate::catalog::Catalog;
use crate::queries::{BenchQuery, PAGE_SIZE};
use crate::{Engine, GAP_WORD, Result, episode_texts};

fn connect(path: &Path) -> Result<Connection> {
    let connection = Connection::open(path)?;
    connection.execute_batch(
        "PRAGMA journal_mode = OFF;
         PRAGMA synchronous = OFF;
         PRAGMA cache_size = -262144;
         PRAGMA mmap_size = 8589934592;",
    )?;
    Ok(connection)
}

/// Loads every episode into `path` and merges the FTS5 index into one b-tree.
pub fn build(path: &Path, catalog: &Catalog) -> Result<()> {
    let mut connection = connect(path)?;
    connection.execute_batch(
        "CREATE TABLE episode (
             id INTEGER PRIMARY KEY,
             published_at INTEGER NOT NULL,
             has_transcript INTEGER NOT NULL,
             language TEXT NOT NULL
         );
         CREATE VIRTUAL TABLE episode_fts USING fts5(
             title, description, transcript, tokenize = 'unicode61'
         );",
    )?;
    let transaction = connection.transaction()?;
    {
        let mut episodes = transaction.prepare(
            "INSERT INTO episode (id, published_at, has_transcript, language)
             VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut texts = transaction.prepare(
            "INSERT INTO episode_fts (rowid, title, description, transcript)
             VALUES (?1, ?2, ?3, ?4)",
        )?;
        let separator = format!(" {GAP_WORD} ");
        for episode in episode_texts(catalog) {
            let id = episode.number as i64;
            episodes.execute(params![
                id,
                episode.published_at,
                episode.has_transcript,
                episode.language
            ])?;
            texts.execute(params![
                id,
                episode.title,
                episode.description,
                episode.chunks.join(&separator)
            ])?;
        }
    }
    transaction.commit()?;
    connection.execute_batch("INSERT INTO episode_fts (episode_fts) VALUES ('optimize');")?;
    Ok(())
}

pub struct Sqlite {
    connection: Connection,
    snippets: bool,
}

impl Sqlite {
    /// `snippets`: also make a transcript snippet for every hit of the page, as Podlens
    /// does by default (FTS5's `snippet()`, one statement per hit on its rowid).
    pub fn open(path: &Path, snippets: bool) -> Result<Sqlite> {
        Ok(Sqlite {
            connection: connect(path)?,
            snippets,
        })
    }
}

/// The FTS5 match expression: a phrase, or any of the words (each quoted).
pub fn match_expression(query: &BenchQuery) -> String {
    if query.phrase {
        format!("\"{}\"", query.words.join(" "))
    } else {
        query
            .words
            .iter()
            .map(|word| format!("\"{word}\""))
            .collect::<Vec<_>>()
            .join(" OR ")
    }
}

impl Engine for Sqlite {
    fn run(&mut self, _index: usize, query: &BenchQuery) -> Result<u64> {
        let mut sql = String::from(
            "SELECT e.id, count(*) OVER ()
             FROM (SELECT rowid AS id, rank FROM episode_fts WHERE episode_fts MATCH ?1) f
             JOIN episode e ON e.id = f.id WHERE 1",
        );
        let values = add_filters(query, &mut sql);
        sql.push_str(if query.by_date {
            " ORDER BY e.published_at DESC, e.id"
        } else {
            " ORDER BY f.rank, e.id"
        });
        sql.push_str(&format!(" LIMIT {PAGE_SIZE} OFFSET {}", query.offset));
        let mut statement = self.connection.prepare_cached(&sql)?;
        let mut rows = statement.query(rusqlite::params_from_iter(values))?;
        let mut total = 0;
        let mut page = Vec::with_capacity(PAGE_SIZE);
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            page.push(id);
            total = row.get::<_, i64>(1)? as u64;
        }
        drop(rows);
        drop(statement);
        if self.snippets {
            self.snippets(query, &page)?;
        }
        std::hint::black_box(&page);
        if total == 0 && query.offset > 0 {
            // A page past the end has no row to carry the count.
            total = self.count(query)?;
        }
        Ok(total)
    }
}

/// Appends the query's filters to `sql` (whose `?1` is the match expression) and
/// returns the bound values.
fn add_filters(query: &BenchQuery, sql: &mut String) -> Vec<Value> {
    let mut values: Vec<Value> = vec![Value::Text(match_expression(query))];
    if let Some(since) = query.filters.published_since {
        values.push(Value::Integer(since));
        sql.push_str(&format!(" AND e.published_at >= ?{}", values.len()));
    }
    if query.filters.has_transcript {
        sql.push_str(" AND e.has_transcript = 1");
    }
    if let Some(language) = query.filters.language {
        values.push(Value::Text(language.into()));
        sql.push_str(&format!(" AND e.language = ?{}", values.len()));
    }
    values
}

impl Sqlite {
    /// The transcript snippet of each hit: the best fragment of up to 32 tokens with the
    /// matched words marked.
    fn snippets(&self, query: &BenchQuery, page: &[i64]) -> Result<()> {
        let mut statement = self.connection.prepare_cached(
            "SELECT snippet(episode_fts, 2, '<b>', '</b>', '…', 32) FROM episode_fts
             WHERE episode_fts MATCH ?1 AND rowid = ?2",
        )?;
        let expression = match_expression(query);
        for id in page {
            let mut rows = statement.query(params![expression, id])?;
            while let Some(row) = rows.next()? {
                let snippet: String = row.get(0)?;
                std::hint::black_box(snippet);
            }
        }
        Ok(())
    }

    fn count(&self, query: &BenchQuery) -> Result<u64> {
        let mut sql = String::from(
            "SELECT count(*) FROM episode_fts JOIN episode e ON e.id = episode_fts.rowid
             WHERE episode_fts MATCH ?1",
        );
        let values = add_filters(query, &mut sql);
        let total: i64 =
            self.connection
                .query_row(&sql, rusqlite::params_from_iter(values), |row| row.get(0))?;
        Ok(total as u64)
    }
}
