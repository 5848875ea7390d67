//! The server's side of `podlens backup`: the control file that tells operators'
//! commands a server runs over a data directory (and how to reach it), and the
//! consistent copy of the files a running server or batch job may be changing.
//!
//! ```text
//! <data-dir>/serve.json                  address, operator token, pid (mode 0600, while serving)
//! <data-dir>/backup-staging/<id>/        one staged copy, moved out by `podlens backup`
//!     app.sqlite3                        VACUUM INTO copy of the application store (SQLite)
//!     catalog.duckdb                     copy of the catalog, held read-only meanwhile
//!     parquet/*.parquet                  the published snapshot generation, same hold (hard links)
//!     index/manifest.json, gen-<n>/, models/<sha>/   the published generation (hard links)
//! ```
//!
//! The application store, when it is the data directory's SQLite file, is copied with
//! `VACUUM INTO` (a consistent copy while others read and write it); a PostgreSQL store
//! is backed up with `pg_dump` (docs/deploy.md), not here.
//! The catalog is written by batch jobs (and by the server's feed refreshes, which are
//! held off meanwhile); it is attached read-only, which DuckDB refuses while a batch
//! job writes it (the copy then answers "busy") and which keeps any batch job from
//! starting to write it (and so from publishing a new snapshot) until the copy is made.
//! Index and snapshot generations are never modified in place (a new one is published
//! by rename), so hard links to the published ones are a consistent copy.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use podlens_store::{APP_DATABASE_FILE, Backend, Database};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};

/// The control file a running `podlens serve` keeps in its data directory.
pub const CONTROL_FILE: &str = "serve.json";
/// The header that carries the operator token of the control file.
pub const OPERATOR_TOKEN_HEADER: &str = "x-podlens-operator-token";
/// Where staged copies are made, inside the data directory (same file system, so the
/// snapshot and index files can be hard-linked).
pub const STAGING_DIR: &str = "backup-staging";
/// The index directory of a data directory.
pub const INDEX_DIR: &str = "index";

/// What the control file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ControlFile {
    /// The address the server listens on.
    pub address: String,
    /// A random secret; only who can read the data directory knows it.
    pub token: String,
    pub pid: u32,
}

/// Removes the control file when the server stops (if it is still ours).
#[derive(Debug)]
pub struct ControlFileGuard {
    path: PathBuf,
    token: String,
}

impl Drop for ControlFileGuard {
    fn drop(&mut self) {
        let ours = read_control_file_at(&self.path)
            .is_ok_and(|found| found.is_some_and(|control| control.token == self.token));
        if ours {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Writes `<data_dir>/serve.json` (mode 0600, by rename) for a server listening on
/// `address`, with a new random operator token.
pub fn write_control_file(data_dir: &Path, address: &str) -> AppResult<ControlFileGuard> {
    let control = ControlFile {
        address: address.to_owned(),
        token: format!(
            "{}{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        ),
        pid: std::process::id(),
    };
    let path = data_dir.join(CONTROL_FILE);
    // A temporary file of this writer's own: two servers sharing a data directory (the
    // API nodes of a cluster on one host) start together, and with one shared name the
    // second rename found the first had already moved the file away.
    // (Its name is not the token: a directory listing would show it.)
    let temporary = data_dir.join(format!(
        "{CONTROL_FILE}.{}.{}.tmp",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    let bytes = serde_json::to_vec_pretty(&control).map_err(AppError::internal)?;
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options
        .open(&temporary)
        .and_then(|mut file| file.write_all(&bytes).and_then(|()| file.sync_all()))
        .and_then(|()| fs::rename(&temporary, &path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
        .map_err(|error| AppError::Internal(format!("cannot write {}: {error}", path.display())))?;
    Ok(ControlFileGuard {
        path,
        token: control.token,
    })
}

/// The control file of `data_dir`, `None` when no server wrote one.
pub fn read_control_file(data_dir: &Path) -> AppResult<Option<ControlFile>> {
    read_control_file_at(&data_dir.join(CONTROL_FILE))
}

fn read_control_file_at(path: &Path) -> AppResult<Option<ControlFile>> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(AppError::Internal(format!(
                "cannot read {}: {error}",
                path.display()
            )));
        }
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| AppError::Internal(format!("{} is unreadable: {error}", path.display())))
}

/// What a staged copy holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StagedCopy {
    /// The staging directory, relative to the data directory.
    pub staging_dir: String,
    /// Every file of it, relative to the staging directory, `/`-separated.
    pub files: Vec<String>,
    /// The published index generation copied, if any.
    pub index_generation: Option<u64>,
}

/// Makes a consistent copy of the data directory's databases, snapshot and published
/// index under `<data_dir>/backup-staging/<new id>/`. The server holds its feed
/// refreshes off while this runs (they write the catalog). A catalog that a batch
/// job is writing is [`AppError::Unavailable`]; nothing is left staged on failure.
pub fn stage_copy(data_dir: &Path, app: &Database) -> AppResult<StagedCopy> {
    let id = uuid::Uuid::new_v4().simple().to_string();
    let relative = format!("{STAGING_DIR}/{id}");
    let staging = data_dir.join(STAGING_DIR).join(&id);
    fs::create_dir_all(&staging).map_err(|error| io_error(&staging, error))?;
    match fill_staging(data_dir, &staging, app) {
        Ok(index_generation) => {
            let mut files = Vec::new();
            list_files(&staging, &staging, &mut files)?;
            files.sort();
            Ok(StagedCopy {
                staging_dir: relative,
                files,
                index_generation,
            })
        }
        Err(error) => {
            let _ = fs::remove_dir_all(&staging);
            Err(error)
        }
    }
}

fn fill_staging(data_dir: &Path, staging: &Path, app: &Database) -> AppResult<Option<u64>> {
    if app.backend() == Backend::Sqlite {
        // The backup runs on a blocking thread: it waits for the store here.
        app.wait(app.copy_to(&staging.join(APP_DATABASE_FILE)))
            .map_err(|error| {
                AppError::Internal(format!("cannot copy the application store: {error}"))
            })?;
    }
    stage_catalog(data_dir, staging)?;
    stage_index(data_dir, staging)
}

/// The catalog and, under the same hold, the Parquet snapshot.
fn stage_catalog(data_dir: &Path, staging: &Path) -> AppResult<()> {
    let catalog = data_dir.join(podlens_data::CATALOG_FILE);
    let held = if catalog.exists() {
        let held = podlens_data::backup::HeldDatabase::open(&catalog)
            .map_err(|error| busy(&catalog, error))?;
        held.copy_to(&staging.join(podlens_data::CATALOG_FILE))
            .map_err(|error| AppError::Internal(format!("cannot copy the catalog: {error}")))?;
        Some(held)
    } else {
        None
    };
    // The generation the `parquet` link names now; it stays while the catalog is held.
    let parquet =
        podlens_data::generations::published_dir(&data_dir.join(podlens_data::PARQUET_DIR));
    if parquet.is_dir() {
        let target = staging.join(podlens_data::PARQUET_DIR);
        fs::create_dir_all(&target).map_err(|error| io_error(&target, error))?;
        for entry in fs::read_dir(&parquet).map_err(|error| io_error(&parquet, error))? {
            let entry = entry.map_err(|error| io_error(&parquet, error))?;
            let name = entry.file_name();
            let is_snapshot = name.to_str().is_some_and(|name| name.ends_with(".parquet"));
            if is_snapshot && entry.path().is_file() {
                link_or_copy(&entry.path(), &target.join(&name))?;
            }
        }
    }
    drop(held);
    Ok(())
}

/// A database that cannot be opened: most often a batch job writing it.
fn busy(path: &Path, error: podlens_data::DataError) -> AppError {
    tracing::warn!(path = %path.display(), %error, "backup cannot open a database");
    AppError::Unavailable(format!(
        "{} is busy (a batch job such as ingest, crawl or score is writing it); retry when it finishes",
        path.file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("the database")
    ))
}

/// The published generation, its manifest and the model its vectors were made with.
/// A generation is removed two publications after it was replaced: if that happens
/// during the copy, the copy is made again from the new manifest. The server's own
/// index updates wait while the generation is linked.
fn stage_index(data_dir: &Path, staging: &Path) -> AppResult<Option<u64>> {
    let _publishing = crate::index_updates::PUBLISH_LOCK
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let index = data_dir.join(INDEX_DIR);
    let manifest_path = index.join(podlens_indexer::generation::MANIFEST_FILE);
    let mut last_error = None;
    for _ in 0..5 {
        let bytes = match fs::read(&manifest_path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(io_error(&manifest_path, error)),
        };
        let manifest: podlens_indexer::generation::Manifest = serde_json::from_slice(&bytes)
            .map_err(|error| {
                AppError::Internal(format!(
                    "{} is unreadable: {error}",
                    manifest_path.display()
                ))
            })?;
        let target = staging.join(INDEX_DIR);
        let _ = fs::remove_dir_all(&target);
        let generation_name = format!("gen-{}", manifest.generation);
        let mut parts = vec![generation_name];
        if let Some(vectors) = &manifest.vectors {
            parts.push(format!(
                "{}/{}",
                podlens_indexer::vectors::MODELS_DIR,
                vectors.model_sha256
            ));
        }
        let linked = parts.iter().try_for_each(|part| {
            let from = index.join(part);
            if from.exists() {
                link_tree(&from, &target.join(part))
            } else {
                Ok(())
            }
        });
        match linked {
            Ok(()) => {
                fs::write(
                    target.join(podlens_indexer::generation::MANIFEST_FILE),
                    &bytes,
                )
                .map_err(|error| io_error(&target, error))?;
                return Ok(Some(manifest.generation));
            }
            Err(error) => last_error = Some(error),
        }
    }
    Err(last_error.unwrap_or_else(|| AppError::Internal("cannot copy the index".into())))
}

fn link_tree(from: &Path, to: &Path) -> AppResult<()> {
    fs::create_dir_all(to).map_err(|error| io_error(to, error))?;
    for entry in fs::read_dir(from).map_err(|error| io_error(from, error))? {
        let entry = entry.map_err(|error| io_error(from, error))?;
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            link_tree(&path, &target)?;
        } else {
            link_or_copy(&path, &target)?;
        }
    }
    Ok(())
}

/// A hard link to an immutable file (a copy where linking is refused).
fn link_or_copy(from: &Path, to: &Path) -> AppResult<()> {
    if fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|error| io_error(from, error))
}

fn list_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> AppResult<()> {
    for entry in fs::read_dir(dir).map_err(|error| io_error(dir, error))? {
        let entry = entry.map_err(|error| io_error(dir, error))?;
        let path = entry.path();
        if path.is_dir() {
            list_files(root, &path, out)?;
        } else if let Ok(relative) = path.strip_prefix(root) {
            let parts: Vec<String> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}

fn io_error(path: &Path, error: std::io::Error) -> AppError {
    AppError::Internal(format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_control_file_is_private_and_removed_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let guard = write_control_file(dir.path(), "127.0.0.1:9").unwrap();
        let control = read_control_file(dir.path()).unwrap().unwrap();
        assert_eq!(control.address, "127.0.0.1:9");
        assert_eq!(control.token.len(), 64);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(CONTROL_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        drop(guard);
        assert_eq!(read_control_file(dir.path()).unwrap(), None);
        // A guard whose file was replaced by another server's leaves it alone.
        let first = write_control_file(dir.path(), "127.0.0.1:1").unwrap();
        let _second = write_control_file(dir.path(), "127.0.0.1:2").unwrap();
        drop(first);
        let left = read_control_file(dir.path()).unwrap().unwrap();
        assert_eq!(left.address, "127.0.0.1:2");
    }

    #[test]
    fn servers_starting_together_on_one_data_dir_all_write_their_control_file() {
        // The API nodes of a cluster on one host share a data directory and start at
        // the same moment; with one temporary name for all, a node's rename found the
        // file moved away by another's and the node stopped while starting.
        let dir = tempfile::tempdir().unwrap();
        for _round in 0..20 {
            let start = std::sync::Barrier::new(4);
            let written: Vec<AppResult<ControlFileGuard>> = std::thread::scope(|scope| {
                let writers: Vec<_> = (0..4)
                    .map(|n| {
                        let (start, dir) = (&start, dir.path());
                        scope.spawn(move || {
                            start.wait();
                            write_control_file(dir, &format!("127.0.0.1:{n}"))
                        })
                    })
                    .collect();
                writers.into_iter().map(|w| w.join().unwrap()).collect()
            });
            let guards: Vec<ControlFileGuard> = written
                .into_iter()
                .map(|guard| guard.expect("every server writes its control file"))
                .collect();
            let control = read_control_file(dir.path()).unwrap().unwrap();
            assert!(guards.iter().any(|guard| guard.token == control.token));
            let mut names: Vec<String> = fs::read_dir(dir.path())
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            assert_eq!(names, [CONTROL_FILE], "no temporary file is left");
        }
    }

    #[test]
    fn an_empty_data_dir_stages_only_the_app_database() {
        let dir = tempfile::tempdir().unwrap();
        let database =
            Database::open(&podlens_store::Location::DataDir(dir.path().to_path_buf())).unwrap();
        let staged = stage_copy(dir.path(), &database).unwrap();
        assert_eq!(staged.files, vec![APP_DATABASE_FILE.to_owned()]);
        assert_eq!(staged.index_generation, None);
        assert!(staged.staging_dir.starts_with("backup-staging/"));
    }
}
