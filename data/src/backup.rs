//! Consistent copies of DuckDB databases for `podlens backup`.
//!
//! A DuckDB file is open for writing by at most one process, and copying its bytes
//! while that process writes gives a torn file. So the copy is made through a
//! connection: the target file is attached and `COPY FROM DATABASE` runs inside one
//! explicit transaction, which reads one MVCC snapshot of every table (writes committed
//! by other connections of the same process after it began are not in the copy). The
//! target is detached at the end, which checkpoints it into a single self-contained
//! file. A file no process has open is attached read-only and copied the same way.

use std::path::Path;

use duckdb::Connection;

use crate::error::DataError;

/// Copies the default database of `connection` into a new DuckDB file at `target`, in
/// one transaction. `target` must not exist.
pub fn copy_open_database(connection: &Connection, target: &Path) -> Result<(), DataError> {
    let source: String = connection.query_row("SELECT current_database()", [], |row| row.get(0))?;
    copy_database(connection, &source, target)
}

/// A DuckDB file attached read-only (to an in-memory database, so it is never
/// changed). DuckDB refuses this while another process has the file open for writing,
/// and while it is held no other process can open the file for writing: the data
/// derived from it (the Parquet snapshot of the catalog) cannot change meanwhile.
pub struct HeldDatabase {
    connection: Connection,
}

impl std::fmt::Debug for HeldDatabase {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("HeldDatabase")
    }
}

const HELD_ALIAS: &str = "backup_source";

impl HeldDatabase {
    /// Attaches `path` read-only; fails while another process writes it.
    pub fn open(path: &Path) -> Result<HeldDatabase, DataError> {
        let text = path
            .to_str()
            .ok_or_else(|| DataError::NonUtf8Path(path.to_path_buf()))?;
        let connection = Connection::open_in_memory()?;
        connection.execute_batch(&format!(
            "ATTACH {} AS {HELD_ALIAS} (READ_ONLY)",
            sql_string(text)
        ))?;
        Ok(HeldDatabase { connection })
    }

    /// Copies the database into a new DuckDB file at `target`.
    pub fn copy_to(&self, target: &Path) -> Result<(), DataError> {
        copy_database(&self.connection, HELD_ALIAS, target)
    }
}

/// Copies the DuckDB file `source` into a new file at `target` (see [`HeldDatabase`]).
pub fn copy_database_file(source: &Path, target: &Path) -> Result<(), DataError> {
    HeldDatabase::open(source)?.copy_to(target)
}

/// Copies the attached database `source` into a new DuckDB file at `target`.
fn copy_database(connection: &Connection, source: &str, target: &Path) -> Result<(), DataError> {
    if target.exists() {
        return Err(DataError::InvalidArgument(format!(
            "backup target {} already exists",
            target.display()
        )));
    }
    let target_text = target
        .to_str()
        .ok_or_else(|| DataError::NonUtf8Path(target.to_path_buf()))?;
    // ATTACH is visible to every connection of the database instance: a name of its own.
    let alias = format!("podlens_backup_{}", uuid::Uuid::new_v4().simple());
    connection.execute_batch(&format!("ATTACH {} AS {alias}", sql_string(target_text)))?;
    let copied = connection.execute_batch(&format!(
        "BEGIN TRANSACTION; COPY FROM DATABASE {} TO {alias}; COMMIT;",
        sql_identifier(source)
    ));
    if copied.is_err() {
        let _ = connection.execute_batch("ROLLBACK");
    }
    let detached = connection.execute_batch(&format!("DETACH {alias}"));
    copied?;
    detached?;
    Ok(())
}

/// A SQL string literal.
fn sql_string(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A SQL identifier, quoted.
fn sql_identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(connection: &Connection, table: &str) -> Vec<(i64, String)> {
        let mut statement = connection
            .prepare(&format!("SELECT id, v FROM {table} ORDER BY id"))
            .unwrap();
        statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn the_copy_is_one_snapshot_and_a_self_contained_file() {
        let dir = tempfile::tempdir().unwrap();
        let source = Connection::open(dir.path().join("app's.duckdb")).unwrap();
        source
            .execute_batch(
                "CREATE TABLE a (id BIGINT PRIMARY KEY, v VARCHAR NOT NULL);
                 CREATE TABLE b (id BIGINT PRIMARY KEY, v VARCHAR NOT NULL);
                 INSERT INTO a VALUES (1, 'one'); INSERT INTO b VALUES (1, 'one');",
            )
            .unwrap();
        let target = dir.path().join("copy.duckdb");
        copy_open_database(&source.try_clone().unwrap(), &target).unwrap();
        // Written after the copy: not in it.
        source
            .execute_batch("INSERT INTO a VALUES (2, 'two')")
            .unwrap();
        assert!(!dir.path().join("copy.duckdb.wal").exists());
        drop(source);
        let copy = Connection::open(&target).unwrap();
        assert_eq!(rows(&copy, "a"), vec![(1, "one".to_owned())]);
        assert_eq!(rows(&copy, "b"), vec![(1, "one".to_owned())]);
        // The primary key came along.
        assert!(
            copy.execute_batch("INSERT INTO a VALUES (1, 'again')")
                .is_err()
        );
    }

    #[test]
    fn an_existing_target_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let source = Connection::open_in_memory().unwrap();
        let target = dir.path().join("there.duckdb");
        std::fs::write(&target, b"keep").unwrap();
        let error = copy_open_database(&source, &target).unwrap_err();
        assert!(error.to_string().contains("already exists"), "{error}");
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    }

    #[test]
    fn a_file_held_by_a_writer_elsewhere_is_copied_once_released() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("catalog.duckdb");
        {
            let writer = Connection::open(&path).unwrap();
            writer
                .execute_batch(
                    "CREATE TABLE a (id BIGINT, v VARCHAR); INSERT INTO a VALUES (7, 'x')",
                )
                .unwrap();
        }
        let target = dir.path().join("copy.duckdb");
        copy_database_file(&path, &target).unwrap();
        let copy = Connection::open(&target).unwrap();
        assert_eq!(rows(&copy, "a"), vec![(7, "x".to_owned())]);
    }
}
