//! [`IndexReaderHandle`]: the server's view of the published generation. Each query
//! takes the current generation (an `Arc`), so a switch never disturbs a query in
//! flight; the manifest is re-read at most once per check interval, and a newly
//! published generation is opened before it replaces the old one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::directory::Directory;
use crate::error::{IndexError, Result};
use crate::generation::read_manifest;
use crate::shard::OpenGeneration;

/// A reloading handle on `<data-dir>/index`.
#[derive(Debug)]
pub struct IndexReaderHandle {
    index_dir: PathBuf,
    current: RwLock<Arc<OpenGeneration>>,
    check_interval: Duration,
    last_check: Mutex<Instant>,
    /// The podcast directory of a generation (its number), read on first use.
    directory: Mutex<Option<(u64, Arc<Directory>)>>,
}

impl IndexReaderHandle {
    /// Opens the published generation under `index_dir`.
    pub fn open(index_dir: &Path) -> Result<IndexReaderHandle> {
        let manifest =
            read_manifest(index_dir)?.ok_or_else(|| IndexError::NoGeneration(index_dir.into()))?;
        let generation = OpenGeneration::open(index_dir, manifest)?;
        Ok(IndexReaderHandle {
            index_dir: index_dir.to_owned(),
            current: RwLock::new(Arc::new(generation)),
            check_interval: Duration::from_secs(1),
            last_check: Mutex::new(Instant::now()),
            directory: Mutex::new(None),
        })
    }

    /// How often queries look at the manifest (default one second; zero: every query).
    pub fn with_check_interval(mut self, interval: Duration) -> IndexReaderHandle {
        self.check_interval = interval;
        self
    }

    /// The generation to run a query on, switching first when a new one is published.
    /// A failure to open a new generation is logged and the current one kept.
    pub fn generation(&self) -> Arc<OpenGeneration> {
        let due = {
            let mut last = self.last_check.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= self.check_interval {
                *last = Instant::now();
                true
            } else {
                false
            }
        };
        if due && let Err(error) = self.reload() {
            tracing::warn!(%error, "keeping the current index generation");
        }
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The podcast directory of the current generation, read once per generation.
    pub fn directory(&self) -> Result<Arc<Directory>> {
        let generation = self.generation();
        let number = generation.manifest.generation;
        let cached = self
            .directory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some((read_from, directory)) = cached
            && read_from == number
        {
            return Ok(directory);
        }
        let directory = Arc::new(Directory::of(&generation)?);
        let mut cached = self.directory.lock().unwrap_or_else(|e| e.into_inner());
        // A read of an older generation that ends late does not replace a newer one.
        if cached
            .as_ref()
            .is_none_or(|(read_from, _)| *read_from <= number)
        {
            *cached = Some((number, directory.clone()));
        }
        Ok(directory)
    }

    /// Switches to the published generation if it changed; true when it switched.
    pub fn reload(&self) -> Result<bool> {
        let Some(manifest) = read_manifest(&self.index_dir)? else {
            return Ok(false);
        };
        let current_manifest = self
            .current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .manifest
            .clone();
        if manifest == current_manifest {
            return Ok(false);
        }
        let generation = manifest.generation;
        let opened = Arc::new(OpenGeneration::open(&self.index_dir, manifest)?);
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = opened;
        tracing::info!(generation, "switched to index generation");
        Ok(true)
    }
}
