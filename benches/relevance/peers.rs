//! The two baselines, over the same records as Podlens:
//!
//! - SQLite FTS5 BM25: one row per podcast (title, description) or episode (title,
//!   description, transcript), `porter unicode61 remove_diacritics 2`, the query's words
//!   each quoted and OR'd, ordered by `bm25()`;
//! - tantivy's `QueryParser` with its defaults: the same fields as `TEXT` (the default
//!   tokenizer), the query parsed leniently (OR of the words across fields).

use rusqlite::Connection;
use tantivy::collector::TopDocs;
use tantivy::query::QueryParser;
use tantivy::schema::{Field, STORED, STRING, Schema, TEXT, Value};
use tantivy::{Index, IndexReader, TantivyDocument};

/// A document of a baseline: its judged key and its text fields.
pub struct PeerDoc {
    pub key: String,
    pub fields: Vec<String>,
}

pub struct Fts5 {
    connection: Connection,
}

impl Fts5 {
    pub fn new(names: &[&str], docs: &[PeerDoc]) -> rusqlite::Result<Fts5> {
        let connection = Connection::open_in_memory()?;
        connection.execute_batch(&format!(
            "CREATE VIRTUAL TABLE docs USING fts5(key UNINDEXED, {}, tokenize = 'porter unicode61 remove_diacritics 2');",
            names.join(", ")
        ))?;
        let placeholders = vec!["?"; names.len() + 1].join(", ");
        {
            let mut insert =
                connection.prepare(&format!("INSERT INTO docs VALUES ({placeholders})"))?;
            connection.execute_batch("BEGIN")?;
            for doc in docs {
                let mut values: Vec<&dyn rusqlite::ToSql> = vec![&doc.key];
                for field in &doc.fields {
                    values.push(field);
                }
                insert.execute(values.as_slice())?;
            }
            connection.execute_batch("COMMIT")?;
        }
        Ok(Fts5 { connection })
    }

    /// The query's words (letters and digits) quoted and OR'd.
    pub fn match_expression(query: &str) -> Option<String> {
        let words: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(|word| format!("\"{word}\""))
            .collect();
        (!words.is_empty()).then(|| words.join(" OR "))
    }

    pub fn search(&self, query: &str, limit: usize) -> rusqlite::Result<Vec<String>> {
        let Some(expression) = Fts5::match_expression(query) else {
            return Ok(Vec::new());
        };
        let mut statement = self.connection.prepare_cached(
            "SELECT key FROM docs WHERE docs MATCH ?1 ORDER BY bm25(docs) LIMIT ?2",
        )?;
        let rows = statement.query_map(rusqlite::params![expression, limit as i64], |row| {
            row.get::<_, String>(0)
        })?;
        rows.collect()
    }
}

pub struct Parser {
    reader: IndexReader,
    parser: QueryParser,
    key: Field,
}

impl Parser {
    pub fn new(names: &[&str], docs: &[PeerDoc]) -> tantivy::Result<Parser> {
        let mut builder = Schema::builder();
        let key = builder.add_text_field("key", STRING | STORED);
        let fields: Vec<Field> = names
            .iter()
            .map(|name| builder.add_text_field(name, TEXT))
            .collect();
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer(50_000_000)?;
        for doc in docs {
            let mut document = TantivyDocument::default();
            document.add_text(key, &doc.key);
            for (field, text) in fields.iter().zip(&doc.fields) {
                document.add_text(*field, text);
            }
            writer.add_document(document)?;
        }
        writer.commit()?;
        let reader = index.reader()?;
        let parser = QueryParser::for_index(&index, fields);
        Ok(Parser {
            reader,
            parser,
            key,
        })
    }

    pub fn search(&self, query: &str, limit: usize) -> tantivy::Result<Vec<String>> {
        let (parsed, _errors) = self.parser.parse_query_lenient(query);
        let searcher = self.reader.searcher();
        let top = searcher.search(&parsed, &TopDocs::with_limit(limit).order_by_score())?;
        top.into_iter()
            .map(|(_, address)| {
                let doc: TantivyDocument = searcher.doc(address)?;
                Ok(doc
                    .get_first(self.key)
                    .and_then(|value| value.as_str())
                    .unwrap_or_default()
                    .to_owned())
            })
            .collect()
    }
}
