//! Data directories made before the store moved to SQLite/PostgreSQL keep their
//! application data in `app.duckdb`. [`import_legacy`] copies every row of it into the
//! store in one transaction, then renames the file to `app.duckdb.imported`, so it
//! runs once and loses nothing.

use std::path::{Path, PathBuf};

use duckdb::{AccessMode, Config, Connection};

use crate::{Database, StoreError, time_text};

/// The application database's file before this store.
pub const LEGACY_DATABASE_FILE: &str = "app.duckdb";

/// How a legacy column is read and written.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Text,
    /// `TIMESTAMPTZ`, written with [`time_text`].
    Time,
    /// `DATE`, written as `YYYY-MM-DD`.
    Day,
    /// Integers and booleans (0/1).
    Int,
    Float,
    /// `BLOB`, written as lowercase hex.
    Hex,
}

/// A legacy table: its name and columns (legacy name, store name, kind).
struct Table {
    name: &'static str,
    columns: &'static [(&'static str, &'static str, Kind)],
}

use Kind::{Day, Float, Hex, Int, Text, Time};

const TABLES: &[Table] = &[
    Table {
        name: "server_secrets",
        columns: &[("name", "name", Text), ("secret", "secret_hex", Hex)],
    },
    Table {
        name: "teams",
        columns: &[
            ("team_id", "team_id", Text),
            ("name", "name", Text),
            ("plan", "plan", Text),
            ("created_at", "created_at", Time),
        ],
    },
    Table {
        name: "users",
        columns: &[
            ("user_id", "user_id", Text),
            ("email", "email", Text),
            ("first_name", "first_name", Text),
            ("last_name", "last_name", Text),
            ("display_name", "display_name", Text),
            ("avatar_seed", "avatar_seed", Text),
            ("created_at", "created_at", Time),
        ],
    },
    Table {
        name: "team_members",
        columns: &[
            ("team_id", "team_id", Text),
            ("user_id", "user_id", Text),
            ("role", "role", Text),
            ("joined_at", "joined_at", Time),
        ],
    },
    Table {
        name: "api_keys",
        columns: &[
            ("key_hash", "key_hash", Text),
            ("key_prefix", "key_prefix", Text),
            ("user_id", "user_id", Text),
            ("team_id", "team_id", Text),
            ("created_at", "created_at", Time),
            ("revoked_at", "revoked_at", Time),
        ],
    },
    Table {
        name: "usage_daily",
        columns: &[
            ("subject", "subject", Text),
            ("team_id", "team_id", Text),
            ("day", "day", Day),
            ("counter", "counter", Text),
            ("count", "count", Int),
        ],
    },
    Table {
        name: "search_history",
        columns: &[
            ("search_id", "search_id", Text),
            ("subject", "subject", Text),
            ("team_id", "team_id", Text),
            ("search_mode", "search_mode", Text),
            ("options_json", "options_json", Text),
            ("result_count", "result_count", Int),
            ("searched_at", "searched_at", Time),
        ],
    },
    Table {
        name: "team_podcasts",
        columns: &[
            ("team_id", "team_id", Text),
            ("podcast_id", "podcast_id", Text),
            ("added_by_user_id", "added_by_user_id", Text),
            ("added_reason", "added_reason", Text),
            ("blacklist", "blacklist", Int),
            ("sync", "sync", Int),
            ("created_at", "created_at", Time),
            ("updated_at", "updated_at", Time),
        ],
    },
    Table {
        name: "login_links",
        columns: &[
            ("token_hash", "token_hash", Text),
            ("email", "email", Text),
            ("kind", "kind", Text),
            ("client_address", "client_address", Text),
            ("created_at", "created_at", Time),
            ("expires_at", "expires_at", Time),
            ("used_at", "used_at", Time),
        ],
    },
    Table {
        name: "sessions",
        columns: &[
            ("token_hash", "token_hash", Text),
            ("user_id", "user_id", Text),
            ("created_at", "created_at", Time),
            ("expires_at", "expires_at", Time),
        ],
    },
    Table {
        name: "team_invitations",
        columns: &[
            ("invitation_id", "invitation_id", Text),
            ("team_id", "team_id", Text),
            ("email", "email", Text),
            ("role", "role", Text),
            ("token_hash", "token_hash", Text),
            ("invited_by_user_id", "invited_by_user_id", Text),
            ("created_at", "created_at", Time),
            ("expires_at", "expires_at", Time),
            ("used_at", "used_at", Time),
            ("revoked_at", "revoked_at", Time),
        ],
    },
    Table {
        name: "projects",
        columns: &[
            ("project_id", "project_id", Text),
            ("team_id", "team_id", Text),
            ("slug", "slug", Text),
            ("name", "name", Text),
            ("status", "status", Text),
            ("project_types", "project_types", Text),
            (
                "project_type_other_reason",
                "project_type_other_reason",
                Text,
            ),
            ("project_purpose", "project_purpose", Text),
            ("project_keywords", "project_keywords", Text),
            ("created_by_user_id", "created_by_user_id", Text),
            ("created_at", "created_at", Time),
            ("last_updated", "last_updated", Time),
        ],
    },
    Table {
        name: "listed_podcasts",
        columns: &[
            ("listed_podcast_id", "listed_podcast_id", Text),
            ("project_id", "project_id", Text),
            ("team_id", "team_id", Text),
            ("podcast_id", "podcast_id", Text),
            ("podcast_title", "podcast_title", Text),
            ("podcast_slug", "podcast_slug", Text),
            ("podcast_image_url", "podcast_image_url", Text),
            ("status", "status", Text),
            ("priority", "priority", Text),
            ("labels", "labels", Text),
            ("added_at", "added_at", Time),
            ("updated_at", "updated_at", Time),
            ("added_by_user_id", "added_by_user_id", Text),
            ("relevancy_score", "relevancy_score", Float),
        ],
    },
    Table {
        name: "listed_podcast_activity",
        columns: &[
            ("activity_id", "activity_id", Text),
            ("listed_podcast_id", "listed_podcast_id", Text),
            ("project_id", "project_id", Text),
            ("action_type", "action_type", Text),
            ("activity_date", "activity_date", Time),
            ("from_value", "from_value", Text),
            ("to_value", "to_value", Text),
            ("user_id", "user_id", Text),
            ("user_display_name", "user_display_name", Text),
            ("sequence", "sequence", Int),
        ],
    },
    Table {
        name: "outreach_history",
        columns: &[
            ("outreach_id", "outreach_id", Text),
            ("team_id", "team_id", Text),
            ("user_id", "user_id", Text),
            ("podcast_id", "podcast_id", Text),
            ("podcast_title", "podcast_title", Text),
            ("podcast_slug", "podcast_slug", Text),
            ("podcast_image_url", "podcast_image_url", Text),
            ("project_id", "project_id", Text),
            ("guest_profile_id", "guest_profile_id", Text),
            ("guest_json", "guest_json", Text),
            ("subject", "subject", Text),
            ("body", "body", Text),
            ("options_json", "options_json", Text),
            ("created_at", "created_at", Time),
        ],
    },
    Table {
        name: "workflow_documents",
        columns: &[
            ("kind", "kind", Text),
            ("doc_id", "doc_id", Text),
            ("team_id", "team_id", Text),
            ("parent_id", "parent_id", Text),
            ("created_at", "created_at", Time),
            ("updated_at", "updated_at", Time),
            ("deleted", "deleted", Int),
            ("doc", "doc", Text),
        ],
    },
    Table {
        name: "team_webhooks",
        columns: &[
            ("webhook_id", "webhook_id", Text),
            ("team_id", "team_id", Text),
            ("url", "url", Text),
            ("events", "events", Text),
            ("secret", "secret", Text),
            ("created_by_user_id", "created_by_user_id", Text),
            ("created_at", "created_at", Time),
        ],
    },
    Table {
        name: "alert_deliveries",
        columns: &[
            ("delivery_id", "delivery_id", Text),
            ("team_id", "team_id", Text),
            ("alert_config_id", "alert_config_id", Text),
            ("channel", "channel", Text),
            ("target", "target", Text),
            ("event", "event", Text),
            ("payload", "payload", Text),
            ("status", "status", Text),
            ("attempts", "attempts", Int),
            ("next_attempt_at", "next_attempt_at", Time),
            ("last_error", "last_error", Text),
            ("created_at", "created_at", Time),
            ("sent_at", "sent_at", Time),
        ],
    },
];

/// One value read from the legacy file.
#[derive(Debug, Clone)]
enum Value {
    Text(Option<String>),
    Int(Option<i64>),
    Float(Option<f64>),
}

/// What [`import_legacy`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacyImport {
    /// Rows copied per table, in the order above (tables the file lacks are left out).
    pub rows: Vec<(String, u64)>,
    /// Where the legacy file was moved.
    pub moved_to: PathBuf,
}

fn legacy_error(path: &Path, error: impl std::fmt::Display) -> StoreError {
    StoreError::Open(format!(
        "cannot read the legacy app database {}: {error}",
        path.display()
    ))
}

fn select_list(table: &Table) -> String {
    table
        .columns
        .iter()
        .map(|(legacy, _, kind)| match kind {
            Text => format!("CAST(\"{legacy}\" AS VARCHAR)"),
            Time => format!("epoch_us(\"{legacy}\")"),
            Day => format!("strftime(\"{legacy}\", '%Y-%m-%d')"),
            Int => format!("CAST(\"{legacy}\" AS BIGINT)"),
            Float => format!("CAST(\"{legacy}\" AS DOUBLE)"),
            Hex => format!("lower(hex(\"{legacy}\"))"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn read_table(connection: &Connection, table: &Table) -> duckdb::Result<Vec<Vec<Value>>> {
    let sql = format!("SELECT {} FROM \"{}\"", select_list(table), table.name);
    let mut statement = connection.prepare(&sql)?;
    let rows = statement.query_map([], |row| {
        let mut values = Vec::with_capacity(table.columns.len());
        for (index, (_, _, kind)) in table.columns.iter().enumerate() {
            values.push(match kind {
                Text | Day | Hex => Value::Text(row.get(index)?),
                Time => {
                    let micros: Option<i64> = row.get(index)?;
                    Value::Text(
                        micros
                            .and_then(chrono::DateTime::from_timestamp_micros)
                            .map(time_text),
                    )
                }
                Int => Value::Int(row.get(index)?),
                Float => Value::Float(row.get(index)?),
            });
        }
        Ok(values)
    })?;
    rows.collect()
}

fn legacy_tables(connection: &Connection) -> duckdb::Result<Vec<String>> {
    let mut statement = connection
        .prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")?;
    let names = statement.query_map([], |row| row.get::<_, String>(0))?;
    names.collect()
}

/// Copies `<data_dir>/app.duckdb`, when there is one, into `database` and moves it to
/// `app.duckdb.imported`. Rows the store already has (same key) are kept as they are,
/// so a second data directory importing into a shared PostgreSQL adds only what is
/// new. Returns `None` when there is nothing to import.
pub fn import_legacy(
    data_dir: &Path,
    database: &Database,
) -> Result<Option<LegacyImport>, StoreError> {
    let path = data_dir.join(LEGACY_DATABASE_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let config = Config::default()
        .access_mode(AccessMode::ReadOnly)
        .map_err(|error| legacy_error(&path, error))?;
    let connection = Connection::open_with_flags(&path, config).map_err(|error| {
        legacy_error(
            &path,
            format!("{error} (is an older podlens still running on it?)"),
        )
    })?;
    let present = legacy_tables(&connection).map_err(|error| legacy_error(&path, error))?;
    let mut tables = Vec::new();
    for table in TABLES
        .iter()
        .filter(|table| present.iter().any(|name| name == table.name))
    {
        let rows = read_table(&connection, table).map_err(|error| legacy_error(&path, error))?;
        tables.push((table, rows));
    }
    drop(connection);
    let counts = database.wait(async {
        let mut transaction = database.begin_write().await?;
        let mut counts = Vec::new();
        for (table, rows) in &tables {
            let columns: Vec<&str> = table.columns.iter().map(|(_, name, _)| *name).collect();
            let placeholders: Vec<String> = (1..=columns.len())
                .map(|index| format!("${index}"))
                .collect();
            let sql = format!(
                "INSERT INTO {} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
                table.name,
                columns.join(", "),
                placeholders.join(", ")
            );
            for row in rows {
                let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()));
                for value in row {
                    query = match value {
                        Value::Text(text) => query.bind(text.clone()),
                        Value::Int(number) => query.bind(*number),
                        Value::Float(number) => query.bind(*number),
                    };
                }
                query.execute(&mut *transaction).await?;
            }
            counts.push((table.name.to_owned(), rows.len() as u64));
        }
        // The legacy store named every user after their email's local part: those are
        // no names anyone chose (migration 0004 clears them in stores made since).
        sqlx::query(include_str!("../migrations/0004_chosen_names.sql"))
            .execute(&mut *transaction)
            .await?;
        transaction.commit().await?;
        Ok::<_, StoreError>(counts)
    })?;
    let moved_to = data_dir.join(format!("{LEGACY_DATABASE_FILE}.imported"));
    std::fs::rename(&path, &moved_to).map_err(|error| {
        StoreError::Open(format!(
            "imported {} but cannot move it aside to {}: {error}",
            path.display(),
            moved_to.display()
        ))
    })?;
    let wal = data_dir.join(format!("{LEGACY_DATABASE_FILE}.wal"));
    if wal.is_file() {
        let _ = std::fs::rename(
            &wal,
            data_dir.join(format!("{LEGACY_DATABASE_FILE}.imported.wal")),
        );
    }
    tracing::info!(from = %path.display(), to = %database.describe(), "imported the legacy app database");
    Ok(Some(LegacyImport {
        rows: counts,
        moved_to,
    }))
}
