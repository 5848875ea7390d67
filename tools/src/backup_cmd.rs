//! `podlens backup` and `podlens restore`: a copy of a data directory, consistent while
//! a server (or nothing) runs over it, checked file by file when restored.
//!
//! Backup: when the data directory's control file names a server that answers, the
//! server makes the copy of what it and the batch jobs may be changing (its open app
//! database, the catalog, the snapshot and the published index: see
//! `podlens_app::backup`) inside the data directory, and this command moves it out;
//! otherwise the same copy is made here, opening the files directly (DuckDB refuses that
//! while another process writes them, which is reported). Everything else of the data
//! directory (outbox, guest documents, …) is copied as is. The backup is written to a
//! sibling temporary directory with a manifest (every file's size and sha256) and
//! renamed into place at the end, so a backup directory is whole or absent.
//!
//! Restore: every file is copied to a sibling temporary directory while its sha256 is
//! checked against the manifest (a mismatch names the file and nothing is changed),
//! then that directory is renamed into place. A data directory a server or a batch job
//! is using is refused, and so is a non-empty one unless `--force`.

use std::fs;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use podlens_app::backup::{
    CONTROL_FILE, ControlFile, INDEX_DIR, OPERATOR_TOKEN_HEADER, STAGING_DIR, StagedCopy,
    read_control_file, stage_copy,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::Config;

/// The manifest's file name inside a backup.
pub const BACKUP_MANIFEST: &str = "backup-manifest.json";
const FORMAT_VERSION: u32 = 1;

/// Flags of `podlens backup`.
#[derive(Debug, Clone, Args)]
pub struct BackupArgs {
    /// Where to write the backup (a new or empty directory).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// How long to wait for a batch job that is writing the catalog to finish.
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    pub wait: u64,
}

/// Flags of `podlens restore`.
#[derive(Debug, Clone, Args)]
pub struct RestoreArgs {
    /// The backup to restore (a directory written by `podlens backup`).
    #[arg(long, value_name = "DIR")]
    pub from: PathBuf,
    /// Replace a data directory that is not empty.
    #[arg(long)]
    pub force: bool,
}

/// What `backup-manifest.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupManifest {
    pub format: u32,
    /// RFC 3339 time the copy was made.
    pub created_at: String,
    pub podlens_version: String,
    /// `server` (made by the running server) or `direct` (no server was running).
    pub made_by: String,
    pub index_generation: Option<u64>,
    pub files: Vec<BackedUpFile>,
}

/// One file of a backup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackedUpFile {
    /// Relative to the backup (and the data directory), `/`-separated.
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

pub fn run_backup(config: &Config, args: BackupArgs) -> anyhow::Result<()> {
    if config
        .database_url
        .as_deref()
        .is_some_and(|url| !url.trim().is_empty())
    {
        eprintln!(
            "note: the application store is the PostgreSQL database of --database-url / PODLENS_DATABASE_URL; back it up with pg_dump (docs/deploy.md). This backup holds the catalog, the snapshot and the index."
        );
    }
    let manifest = backup(
        &config.data_dir(),
        &args.out,
        Duration::from_secs(args.wait),
    )?;
    let bytes: u64 = manifest.files.iter().map(|file| file.size).sum();
    println!(
        "backed up {} files ({bytes} bytes, made by {}) to {}",
        manifest.files.len(),
        manifest.made_by,
        args.out.display()
    );
    Ok(())
}

pub fn run_restore(config: &Config, args: RestoreArgs) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    let manifest = restore(&data_dir, &args.from, args.force)?;
    println!(
        "restored {} files (backup of {}) into {}",
        manifest.files.len(),
        manifest.created_at,
        data_dir.display()
    );
    Ok(())
}

/// Backs `data_dir` up into `out` (new or empty); answers the manifest written.
pub fn backup(data_dir: &Path, out: &Path, wait: Duration) -> anyhow::Result<BackupManifest> {
    if !data_dir.is_dir() {
        bail!("data directory {} does not exist", data_dir.display());
    }
    if !is_absent_or_empty(out)? {
        bail!(
            "{} exists and is not empty; back up into a new directory",
            out.display()
        );
    }
    let temporary = sibling(out, "partial")?;
    fs::create_dir_all(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    let made = fill_backup(data_dir, &temporary, wait);
    let manifest = match made {
        Ok(manifest) => manifest,
        Err(error) => {
            let _ = fs::remove_dir_all(&temporary);
            return Err(error);
        }
    };
    if out.exists() {
        fs::remove_dir(out).with_context(|| format!("cannot replace {}", out.display()))?;
    }
    fs::rename(&temporary, out)
        .with_context(|| format!("cannot move the backup into {}", out.display()))?;
    sync_dir(out.parent());
    Ok(manifest)
}

fn fill_backup(data_dir: &Path, out: &Path, wait: Duration) -> anyhow::Result<BackupManifest> {
    let (staged, made_by) = match running_server(data_dir)? {
        Some(server) => (staged_by_server(&server, wait)?, "server"),
        None => (staged_here(data_dir, wait)?, "direct"),
    };
    let staging = data_dir.join(&staged.staging_dir);
    let moved = move_staged(&staging, &staged.files, out);
    let _ = fs::remove_dir_all(&staging);
    moved?;
    copy_the_rest(data_dir, out)?;
    let mut files = Vec::new();
    for path in relative_files(out)? {
        let (size, sha256) = hash_file(&out.join(&path))?;
        files.push(BackedUpFile { path, size, sha256 });
    }
    let manifest = BackupManifest {
        format: FORMAT_VERSION,
        created_at: chrono::Utc::now().to_rfc3339(),
        podlens_version: env!("CARGO_PKG_VERSION").to_owned(),
        made_by: made_by.to_owned(),
        index_generation: staged.index_generation,
        files,
    };
    write_synced(
        &out.join(BACKUP_MANIFEST),
        &serde_json::to_vec_pretty(&manifest)?,
    )?;
    Ok(manifest)
}

/// Restores the backup `from` into `data_dir`; answers its manifest.
pub fn restore(data_dir: &Path, from: &Path, force: bool) -> anyhow::Result<BackupManifest> {
    let manifest_path = from.join(BACKUP_MANIFEST);
    let bytes = fs::read(&manifest_path).with_context(|| {
        format!(
            "{} is not a podlens backup (no readable {BACKUP_MANIFEST})",
            from.display()
        )
    })?;
    let manifest: BackupManifest = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is unreadable", manifest_path.display()))?;
    if manifest.format != FORMAT_VERSION {
        bail!(
            "{} has backup format {}; this podlens reads format {FORMAT_VERSION}",
            manifest_path.display(),
            manifest.format
        );
    }
    refuse_in_use(data_dir)?;
    if !force && !is_absent_or_empty(data_dir)? {
        bail!(
            "{} is not empty; restore into a new directory or pass --force to replace it",
            data_dir.display()
        );
    }
    let temporary = sibling(data_dir, "restore")?;
    fs::create_dir_all(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    if let Err(error) = copy_checked(from, &temporary, &manifest) {
        let _ = fs::remove_dir_all(&temporary);
        return Err(error);
    }
    if data_dir.exists() {
        let replaced = sibling(data_dir, "replaced")?;
        fs::rename(data_dir, &replaced)
            .with_context(|| format!("cannot move {} aside", data_dir.display()))?;
        if let Err(error) = fs::rename(&temporary, data_dir) {
            let _ = fs::rename(&replaced, data_dir);
            let _ = fs::remove_dir_all(&temporary);
            return Err(error)
                .with_context(|| format!("cannot restore into {}", data_dir.display()));
        }
        fs::remove_dir_all(&replaced)
            .with_context(|| format!("cannot remove the replaced {}", replaced.display()))?;
    } else {
        fs::rename(&temporary, data_dir)
            .with_context(|| format!("cannot restore into {}", data_dir.display()))?;
    }
    sync_dir(data_dir.parent());
    Ok(manifest)
}

/// Copies every file of the manifest, checking its size and sha256 on the way.
fn copy_checked(from: &Path, to: &Path, manifest: &BackupManifest) -> anyhow::Result<()> {
    for file in &manifest.files {
        let relative = safe_relative(&file.path)?;
        let source = from.join(&relative);
        let target = to.join(&relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let (size, sha256) = copy_hashing(&source, &target)
            .with_context(|| format!("backup file {} is missing or unreadable", file.path))?;
        if size != file.size || sha256 != file.sha256 {
            bail!(
                "backup file {} is corrupt: {size} bytes with sha256 {sha256}, the manifest says {} bytes with sha256 {}; nothing was restored",
                file.path,
                file.size,
                file.sha256
            );
        }
    }
    Ok(())
}

/// A manifest path that stays inside the backup.
fn safe_relative(path: &str) -> anyhow::Result<PathBuf> {
    let relative = PathBuf::from(path);
    let inside = !path.is_empty()
        && relative
            .components()
            .all(|part| matches!(part, Component::Normal(_)));
    if !inside {
        bail!("the backup manifest lists a path outside the backup: {path:?}");
    }
    Ok(relative)
}

/// Refuses a data directory that a running server or another process is using.
fn refuse_in_use(data_dir: &Path) -> anyhow::Result<()> {
    if let Some(server) = running_server(data_dir)? {
        bail!(
            "{} is in use by the podlens server at http://{} (pid {}); stop it before restoring",
            data_dir.display(),
            server.address,
            server.pid
        );
    }
    // The application store (SQLite) takes other processes; only the catalog's DuckDB
    // file is exclusive to its writer.
    {
        let path = data_dir.join(podlens_data::CATALOG_FILE);
        if path.exists() && podlens_data::backup::HeldDatabase::open(&path).is_err() {
            bail!(
                "{} is open in another process (a server or a batch job); stop it before restoring",
                path.display()
            );
        }
    }
    Ok(())
}

/// The server named by the control file, if it answers.
fn running_server(data_dir: &Path) -> anyhow::Result<Option<ControlFile>> {
    let Some(control) = read_control_file(data_dir)? else {
        return Ok(None);
    };
    let url = format!("http://{}/api/v1/public/health", control.address);
    let answers = runtime()?.block_on(async {
        client()?
            .get(&url)
            .send()
            .await
            .map(|response| response.status().is_success())
    });
    if answers.unwrap_or(false) {
        Ok(Some(control))
    } else {
        tracing::warn!(
            file = %data_dir.join(CONTROL_FILE).display(),
            "a control file names a server that does not answer; treating it as stopped"
        );
        Ok(None)
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

fn client() -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(600))
        .build()
}

/// Asks the server for a staged copy, retrying while the catalog is busy.
fn staged_by_server(server: &ControlFile, wait: Duration) -> anyhow::Result<StagedCopy> {
    let url = format!("http://{}/api/v1/operator/backup", server.address);
    let started = Instant::now();
    let runtime = runtime()?;
    loop {
        let (status, body) = runtime
            .block_on(async {
                let response = client()?
                    .post(&url)
                    .header(OPERATOR_TOKEN_HEADER, &server.token)
                    .send()
                    .await?;
                let status = response.status().as_u16();
                let body = response.bytes().await?;
                Ok::<_, reqwest::Error>((status, body))
            })
            .with_context(|| format!("cannot reach the server at {}", server.address))?;
        let answer: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        match status {
            200 => {
                return serde_json::from_value(answer["data"].clone())
                    .context("the server's backup answer is unreadable");
            }
            503 if started.elapsed() < wait => std::thread::sleep(Duration::from_secs(1)),
            _ => bail!(
                "the server refused the backup ({status}): {}",
                answer["data"]["message"].as_str().unwrap_or("no message")
            ),
        }
    }
}

/// Makes the staged copy in this process (no server runs), retrying while busy.
fn staged_here(data_dir: &Path, wait: Duration) -> anyhow::Result<StagedCopy> {
    let started = Instant::now();
    loop {
        let database = podlens_app::services::open_app_store(
            data_dir,
            &podlens_store::Location::DataDir(data_dir.to_path_buf()),
        )
        .context("cannot open the application store")?;
        match stage_copy(data_dir, &database) {
            Ok(staged) => return Ok(staged),
            Err(podlens_app::AppError::Unavailable(_)) if started.elapsed() < wait => {
                std::thread::sleep(Duration::from_secs(1));
            }
            Err(error) => return Err(anyhow::anyhow!("cannot copy the data directory: {error}")),
        }
    }
}

/// Moves the staged files into the backup (a copy across file systems).
fn move_staged(staging: &Path, files: &[String], out: &Path) -> anyhow::Result<()> {
    for file in files {
        let relative = safe_relative(file)?;
        let from = staging.join(&relative);
        let to = out.join(&relative);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        if fs::rename(&from, &to).is_err() {
            fs::copy(&from, &to)
                .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
        }
    }
    Ok(())
}

/// Entries of the data directory the staged copy covers, or that are never backed up.
fn is_staged_or_transient(name: &str) -> bool {
    let staged = [
        podlens_store::APP_DATABASE_FILE,
        podlens_data::CATALOG_FILE,
        podlens_data::PARQUET_DIR,
        INDEX_DIR,
        STAGING_DIR,
    ];
    staged.contains(&name)
        || podlens_data::generations::is_generation_name(podlens_data::PARQUET_DIR, name)
        || name.starts_with(CONTROL_FILE)
        || name.ends_with(".wal")
        || name.ends_with("-wal")
        || name.ends_with("-shm")
        || name.ends_with(".tmp")
}

/// Everything else (outbox, guest documents, …), copied as is.
fn copy_the_rest(data_dir: &Path, out: &Path) -> anyhow::Result<()> {
    for entry in
        fs::read_dir(data_dir).with_context(|| format!("cannot read {}", data_dir.display()))?
    {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_str().is_none_or(is_staged_or_transient) {
            continue;
        }
        copy_tree(&entry.path(), &out.join(&name))?;
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    let kind = fs::symlink_metadata(from)
        .with_context(|| format!("cannot read {}", from.display()))?
        .file_type();
    if kind.is_dir() {
        fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
        for entry in
            fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?
        {
            let entry = entry?;
            copy_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
    } else if kind.is_file() {
        fs::copy(from, to)
            .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    }
    Ok(())
}

/// Every file under `root`, relative and `/`-separated, sorted.
fn relative_files(root: &Path) -> anyhow::Result<Vec<String>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> anyhow::Result<()> {
        for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else {
                let relative = path.strip_prefix(root)?;
                let parts: Vec<String> = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(root, root, &mut files)?;
    files.sort();
    Ok(files)
}

fn hash_file(path: &Path) -> anyhow::Result<(u64, String)> {
    let mut file =
        fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    hash_into(&mut file, &mut std::io::sink())
}

/// Copies `from` to a new file `to` (synced); answers its size and sha256.
fn copy_hashing(from: &Path, to: &Path) -> anyhow::Result<(u64, String)> {
    let mut source = fs::File::open(from)?;
    let mut target =
        fs::File::create(to).with_context(|| format!("cannot create {}", to.display()))?;
    let hashed = hash_into(&mut source, &mut target)?;
    target.sync_all()?;
    Ok(hashed)
}

fn hash_into(source: &mut impl Read, sink: &mut impl Write) -> anyhow::Result<(u64, String)> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let read = source.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        sink.write_all(&buffer[..read])?;
        size += read as u64;
    }
    Ok((size, format!("{:x}", hasher.finalize())))
}

fn write_synced(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut file =
        fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    Ok(())
}

fn sync_dir(dir: Option<&Path>) {
    if let Some(dir) = dir.and_then(|dir| fs::File::open(dir).ok()) {
        let _ = dir.sync_all();
    }
}

fn is_absent_or_empty(dir: &Path) -> anyhow::Result<bool> {
    match fs::read_dir(dir) {
        Ok(mut entries) => Ok(entries.next().is_none()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(error) => Err(error).with_context(|| format!("cannot read {}", dir.display())),
    }
}

/// A new hidden directory beside `path` (same file system, so it can be renamed onto it).
fn sibling(path: &Path, purpose: &str) -> anyhow::Result<PathBuf> {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .with_context(|| format!("{} has no usable directory name", path.display()))?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    Ok(parent.join(format!(
        ".{name}.{purpose}-{}",
        uuid::Uuid::new_v4().simple()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_paths_cannot_leave_the_backup() {
        assert!(safe_relative("index/gen-1/meta.json").is_ok());
        for bad in ["", "../etc/passwd", "/etc/passwd", "a/../../b", "./a"] {
            assert!(safe_relative(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_hash_is_sha256_of_the_bytes() {
        let (size, sha) = hash_into(&mut &b"abc"[..], &mut std::io::sink()).unwrap();
        assert_eq!(size, 3);
        assert_eq!(
            sha,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
