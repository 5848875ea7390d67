//! Snapshot generations: each export writes a whole new directory beside the snapshot's
//! path (`<data-dir>/parquet.N`), and publishes it by pointing `<data-dir>/parquet`, a
//! symbolic link, at it with one `rename(2)`. So `<data-dir>/parquet/podcasts.parquet`
//! stays the contract path, and a reader that resolves the link once
//! ([`published_dir`]) reads every file of one export, never the podcasts of one and the
//! episodes of the next (files renamed one by one allowed that).
//!
//! The generation published and the one before it are kept (a reader that resolved the
//! link just before a publication finishes on it); older ones, and directories of an
//! export that was stopped before publishing, are removed by the next publication. A
//! data directory whose `parquet` is still a plain directory (written before
//! generations) is swapped for the link at its next export, atomically where the
//! system can exchange two names (Linux's `renameat2(RENAME_EXCHANGE)`).

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::DataError;

/// The directory a reader should read: where the snapshot's path leads now (the
/// published generation), or the path itself when it cannot be resolved (no snapshot
/// yet). Resolve once per read of several files.
pub fn published_dir(parquet_dir: &Path) -> PathBuf {
    std::fs::canonicalize(parquet_dir).unwrap_or_else(|_| parquet_dir.to_path_buf())
}

/// Whether `name`, an entry of a data directory, is a generation of the snapshot at
/// `parquet_name` (for `parquet`: `parquet.1`, `parquet.2`, …), published or not.
pub fn is_generation_name(parquet_name: &str, name: &str) -> bool {
    generation_number(parquet_name, name).is_some()
}

fn generation_number(parquet_name: &str, name: &str) -> Option<u64> {
    let digits = name.strip_prefix(parquet_name)?.strip_prefix('.')?;
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A generation being written: its directory exists, nothing points at it yet.
#[derive(Debug)]
pub(crate) struct NewGeneration {
    pub(crate) dir: PathBuf,
    name: String,
}

/// The parts of the snapshot's path: its parent (the data directory) and its name.
fn split(parquet_dir: &Path) -> Result<(PathBuf, String), DataError> {
    let name = parquet_dir
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or_else(|| DataError::NonUtf8Path(parquet_dir.to_path_buf()))?
        .to_owned();
    let parent = parquet_dir
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    Ok((parent, name))
}

/// The generations beside the snapshot's path, by number.
fn generations(parent: &Path, parquet_name: &str) -> Result<Vec<(u64, String)>, DataError> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(parent).map_err(|error| DataError::io(parent, error))? {
        let entry = entry.map_err(|error| DataError::io(parent, error))?;
        if let Some(name) = entry.file_name().to_str()
            && let Some(number) = generation_number(parquet_name, name)
        {
            found.push((number, name.to_owned()));
        }
    }
    found.sort();
    Ok(found)
}

/// The generation the snapshot's path links to now, if it is a link to one.
fn linked_generation(parquet_dir: &Path, parquet_name: &str) -> Option<String> {
    let target = std::fs::read_link(parquet_dir).ok()?;
    let name = target.to_str()?;
    is_generation_name(parquet_name, name).then(|| name.to_owned())
}

/// Creates the directory of the next generation (one past every generation on disk).
pub(crate) fn begin(parquet_dir: &Path) -> Result<NewGeneration, DataError> {
    let (parent, parquet_name) = split(parquet_dir)?;
    std::fs::create_dir_all(&parent).map_err(|error| DataError::io(&parent, error))?;
    let next = generations(&parent, &parquet_name)?
        .last()
        .map_or(1, |(number, _)| number + 1);
    let name = format!("{parquet_name}.{next}");
    let dir = parent.join(&name);
    std::fs::create_dir(&dir).map_err(|error| DataError::io(&dir, error))?;
    Ok(NewGeneration { dir, name })
}

pub(crate) fn sync_path(path: &Path) -> Result<(), DataError> {
    File::open(path)
        .and_then(|file| file.sync_all())
        .map_err(|error| DataError::io(path, error))
}

/// Points the snapshot's path at `generation` (whose files are written and synced) in
/// one rename, then removes every generation but this one and the one it replaces.
pub(crate) fn publish(parquet_dir: &Path, generation: NewGeneration) -> Result<(), DataError> {
    let (parent, parquet_name) = split(parquet_dir)?;
    sync_path(&generation.dir)?;
    let link = parent.join(format!(".{parquet_name}.link.tmp"));
    match std::fs::remove_file(&link) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(DataError::io(&link, error)),
    }
    // Relative, so the data directory can be moved, copied or restored elsewhere.
    std::os::unix::fs::symlink(&generation.name, &link)
        .map_err(|error| DataError::io(&link, error))?;
    let is_plain_dir = std::fs::symlink_metadata(parquet_dir)
        .map(|metadata| metadata.is_dir())
        .unwrap_or(false);
    let replaced = if is_plain_dir {
        Some(replace_plain_dir(
            parquet_dir,
            &link,
            &parent,
            &parquet_name,
        )?)
    } else {
        let replaced = linked_generation(parquet_dir, &parquet_name);
        std::fs::rename(&link, parquet_dir).map_err(|error| DataError::io(parquet_dir, error))?;
        replaced
    };
    sync_path(&parent)?;
    for (_, name) in generations(&parent, &parquet_name)? {
        if name == generation.name || Some(&name) == replaced.as_ref() {
            continue;
        }
        let stale = parent.join(&name);
        if let Err(error) = std::fs::remove_dir_all(&stale) {
            tracing::warn!(dir = %stale.display(), %error, "cannot remove an old snapshot generation");
        }
    }
    Ok(())
}

/// The first export over a snapshot directory written before generations: the link
/// takes the directory's place (exchanged in one step on Linux), and the directory
/// becomes a generation of its own (`parquet.0`), kept as the one replaced; answers its
/// name.
fn replace_plain_dir(
    parquet_dir: &Path,
    link: &Path,
    parent: &Path,
    parquet_name: &str,
) -> Result<String, DataError> {
    let kept_name = format!("{parquet_name}.0");
    let kept = parent.join(&kept_name);
    if kept.exists() {
        std::fs::remove_dir_all(&kept).map_err(|error| DataError::io(&kept, error))?;
    }
    #[cfg(target_os = "linux")]
    {
        rustix::fs::renameat_with(
            rustix::fs::CWD,
            link,
            rustix::fs::CWD,
            parquet_dir,
            rustix::fs::RenameFlags::EXCHANGE,
        )
        .map_err(|error| DataError::io(parquet_dir, error.into()))?;
        // The plain directory now has the link's temporary name.
        std::fs::rename(link, &kept).map_err(|error| DataError::io(&kept, error))?;
    }
    #[cfg(not(target_os = "linux"))]
    {
        std::fs::rename(parquet_dir, &kept).map_err(|error| DataError::io(&kept, error))?;
        std::fs::rename(link, parquet_dir).map_err(|error| DataError::io(parquet_dir, error))?;
    }
    Ok(kept_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_names_are_the_snapshot_name_a_dot_and_digits() {
        assert!(is_generation_name("parquet", "parquet.1"));
        assert!(is_generation_name("parquet", "parquet.0"));
        assert!(is_generation_name("parquet", "parquet.12345"));
        for other in [
            "parquet",
            "parquet.",
            "parquet.1a",
            "parquet.-1",
            ".parquet.link.tmp",
            "parquetx.1",
            "index",
        ] {
            assert!(!is_generation_name("parquet", other), "{other}");
        }
    }

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn publishing_swaps_the_link_and_keeps_two_generations() {
        let data = tempfile::tempdir().unwrap();
        let parquet = data.path().join("parquet");
        let mut names = Vec::new();
        for round in 1..=4 {
            let generation = begin(&parquet).unwrap();
            write(
                &generation.dir,
                "podcasts.parquet",
                &format!("round {round}"),
            );
            names.push(generation.name.clone());
            publish(&parquet, generation).unwrap();
            assert_eq!(
                std::fs::read_to_string(parquet.join("podcasts.parquet")).unwrap(),
                format!("round {round}")
            );
            assert_eq!(
                std::fs::read_link(&parquet).unwrap(),
                PathBuf::from(&names[round - 1])
            );
        }
        let mut left: Vec<String> = std::fs::read_dir(data.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["parquet", "parquet.3", "parquet.4"]);
    }

    #[test]
    fn an_export_stopped_before_publishing_is_removed_by_the_next() {
        let data = tempfile::tempdir().unwrap();
        let parquet = data.path().join("parquet");
        let first = begin(&parquet).unwrap();
        publish(&parquet, first).unwrap();
        let stopped = begin(&parquet).unwrap();
        let stopped_dir = stopped.dir.clone();
        drop(stopped);
        let next = begin(&parquet).unwrap();
        assert_eq!(next.name, "parquet.3");
        publish(&parquet, next).unwrap();
        assert!(!stopped_dir.exists());
        assert!(data.path().join("parquet.1").is_dir());
    }

    #[test]
    fn a_plain_snapshot_directory_becomes_the_replaced_generation() {
        let data = tempfile::tempdir().unwrap();
        let parquet = data.path().join("parquet");
        std::fs::create_dir(&parquet).unwrap();
        write(&parquet, "podcasts.parquet", "before generations");
        let generation = begin(&parquet).unwrap();
        write(&generation.dir, "podcasts.parquet", "first generation");
        publish(&parquet, generation).unwrap();
        assert_eq!(
            std::fs::read_to_string(parquet.join("podcasts.parquet")).unwrap(),
            "first generation"
        );
        assert_eq!(
            std::fs::read_to_string(data.path().join("parquet.0/podcasts.parquet")).unwrap(),
            "before generations"
        );
        assert!(!data.path().join(".parquet.link.tmp").exists());
    }
}
