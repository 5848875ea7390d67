//! Index generations in an S3-compatible object store (AWS S3, Garage, Ceph RGW;
//! SeaweedFS in the tests), through the `object_store` crate. A generation is published
//! as immutable objects under `<prefix>/generations/gen-<n>/` (its files, keyed by their
//! path inside the generation's directory) and its vectors' model under
//! `<prefix>/models/<sha>/`; the generation's `manifest.json` is written last, so a
//! generation whose manifest is there is complete. A search node pulls only the files
//! of the shards it serves (plus what every shard needs: the global statistics, the
//! model) into its own index directory, then publishes the generation there as a local
//! build would.
//!
//! Where the store is comes from a URL (`s3://bucket/prefix`) and the usual AWS
//! variables (`AWS_ENDPOINT_URL` for a store other than AWS, `AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ALLOW_HTTP=true` for plain HTTP);
//! `file:///dir` keeps the objects in a local folder.
//!
//! A cluster's batch also keeps the catalog's partitions there: each partition's Parquet
//! snapshot under `<prefix>/catalog/<build>/<partition>/`, with its `files.json` (names
//! and sizes) written last, so a partition whose list is there is complete.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutPayload};
use podlens_indexer::generation::{
    MANIFEST_FILE, Manifest, generation_dir, publish, read_manifest,
};

use crate::error::ClusterError;

/// Files uploaded or downloaded at once.
const CONCURRENCY: usize = 8;

/// An object store holding a cluster's index generations.
#[derive(Debug, Clone)]
pub struct Artifacts {
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    url: String,
}

fn failed(error: impl std::fmt::Display) -> ClusterError {
    ClusterError::Unavailable(format!("object store: {error}"))
}

/// Every file under `dir`, as paths relative to it with `/` separators.
fn files_under(dir: &Path) -> Result<Vec<String>, ClusterError> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries = std::fs::read_dir(&folder)
            .map_err(|error| failed(format!("{}: {error}", folder.display())))?;
        for entry in entries {
            let entry = entry.map_err(|error| failed(format!("{}: {error}", folder.display())))?;
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|error| failed(format!("{}: {error}", path.display())))?;
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file()
                && let Ok(relative) = path.strip_prefix(dir)
            {
                let parts: Vec<String> = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                files.push(parts.join("/"));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Runs transfers, [`CONCURRENCY`] at once; their bytes in all.
async fn transferred(
    transfers: impl Iterator<Item = impl std::future::Future<Output = Result<u64, ClusterError>>>,
) -> Result<u64, ClusterError> {
    futures_util::stream::iter(transfers)
        .buffer_unordered(CONCURRENCY)
        .try_fold(0u64, |sum, size| async move { Ok(sum + size) })
        .await
}

/// Whether a generation's file (relative to its directory) is needed to serve `shards`:
/// every file but those of other shards; never a key that would leave the directory.
fn needed(relative: &str, shards: &[u32]) -> bool {
    if relative.starts_with('/')
        || relative
            .split('/')
            .any(|part| part == ".." || part.is_empty())
    {
        return false;
    }
    match relative
        .split('/')
        .next()
        .and_then(|first| first.strip_prefix("shard-"))
        .and_then(|number| number.parse::<u32>().ok())
    {
        Some(shard) => shards.contains(&shard),
        None => true,
    }
}

impl Artifacts {
    /// The store at `url` (`s3://bucket/prefix` or `file:///dir`), configured by the
    /// AWS environment variables.
    pub fn open(url: &str) -> Result<Artifacts, ClusterError> {
        let parsed =
            url::Url::parse(url).map_err(|error| failed(format!("{url} is not a URL: {error}")))?;
        let (store, prefix): (Arc<dyn ObjectStore>, ObjectPath) = match parsed.scheme() {
            "s3" | "s3a" => {
                let bucket = parsed
                    .host_str()
                    .filter(|bucket| !bucket.is_empty())
                    .ok_or_else(|| failed(format!("{url} names no bucket")))?;
                let store = object_store::aws::AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()
                    .map_err(failed)?;
                let prefix = ObjectPath::parse(parsed.path().trim_matches('/')).map_err(failed)?;
                (Arc::new(store), prefix)
            }
            "file" => {
                let dir = parsed
                    .to_file_path()
                    .map_err(|()| failed(format!("{url} is not a local folder")))?;
                std::fs::create_dir_all(&dir)
                    .map_err(|error| failed(format!("{}: {error}", dir.display())))?;
                let store =
                    object_store::local::LocalFileSystem::new_with_prefix(&dir).map_err(failed)?;
                (Arc::new(store), ObjectPath::default())
            }
            other => {
                return Err(failed(format!(
                    "{url}: the scheme {other}:// is not supported (s3:// or file://)"
                )));
            }
        };
        Ok(Artifacts {
            store,
            prefix,
            url: url.trim_end_matches('/').to_owned(),
        })
    }

    /// The store's URL, as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn object(&self, relative: &str) -> ObjectPath {
        let mut parts: Vec<&str> = Vec::new();
        let prefix = self.prefix.as_ref();
        if !prefix.is_empty() {
            parts.push(prefix);
        }
        parts.push(relative);
        ObjectPath::from(parts.join("/"))
    }

    fn generation_object(&self, generation: u64, relative: &str) -> ObjectPath {
        self.object(&format!("generations/gen-{generation}/{relative}"))
    }

    async fn upload(&self, local: PathBuf, object: ObjectPath) -> Result<u64, ClusterError> {
        let bytes = tokio::fs::read(&local)
            .await
            .map_err(|error| failed(format!("{}: {error}", local.display())))?;
        let size = bytes.len() as u64;
        self.store
            .put(&object, PutPayload::from(bytes))
            .await
            .map_err(failed)?;
        Ok(size)
    }

    async fn download(
        &self,
        object: ObjectPath,
        local: PathBuf,
        size: u64,
    ) -> Result<u64, ClusterError> {
        let bytes = self
            .store
            .get(&object)
            .await
            .map_err(failed)?
            .bytes()
            .await
            .map_err(failed)?;
        if bytes.len() as u64 != size {
            return Err(failed(format!(
                "{object}: {} bytes read of the {size} listed",
                bytes.len()
            )));
        }
        if let Some(parent) = local.parent() {
            tokio::fs::create_dir_all(parent)
                .await
                .map_err(|error| failed(format!("{}: {error}", parent.display())))?;
        }
        // Written beside, then renamed: a node stopped mid-download never sees a
        // truncated file under the real name.
        let mut partial_name = local.file_name().unwrap_or_default().to_os_string();
        partial_name.push(".partial");
        let partial = local.with_file_name(partial_name);
        tokio::fs::write(&partial, &bytes)
            .await
            .map_err(|error| failed(format!("{}: {error}", partial.display())))?;
        tokio::fs::rename(&partial, &local)
            .await
            .map_err(|error| failed(format!("{}: {error}", local.display())))?;
        Ok(bytes.len() as u64)
    }

    /// Uploads the generation published in `index_dir` (its files, then its model,
    /// then its manifest): what was uploaded, in bytes.
    pub async fn publish_generation(
        &self,
        index_dir: &Path,
    ) -> Result<(Manifest, u64), ClusterError> {
        let manifest = read_manifest(index_dir).map_err(failed)?.ok_or_else(|| {
            failed(format!(
                "no index generation is published in {}",
                index_dir.display()
            ))
        })?;
        let dir = generation_dir(index_dir, manifest.generation);
        let mut uploads: Vec<(PathBuf, ObjectPath)> = files_under(&dir)?
            .into_iter()
            .filter(|relative| !relative.ends_with(".lock"))
            .map(|relative| {
                (
                    dir.join(&relative),
                    self.generation_object(manifest.generation, &relative),
                )
            })
            .collect();
        if let Some(vectors) = &manifest.vectors {
            let model = index_dir
                .join(podlens_indexer::vectors::MODELS_DIR)
                .join(&vectors.model_sha256);
            for relative in files_under(&model)? {
                uploads.push((
                    model.join(&relative),
                    self.object(&format!("models/{}/{relative}", vectors.model_sha256)),
                ));
            }
        }
        let bytes = transferred(
            uploads
                .into_iter()
                .map(|(local, object)| self.upload(local, object)),
        )
        .await?;
        let text = serde_json::to_vec_pretty(&manifest).map_err(failed)?;
        self.store
            .put(
                &self.generation_object(manifest.generation, MANIFEST_FILE),
                PutPayload::from(text),
            )
            .await
            .map_err(failed)?;
        Ok((manifest, bytes))
    }

    /// The manifest of generation `generation` in the store; `None` while it is not
    /// (completely) there.
    pub async fn manifest(&self, generation: u64) -> Result<Option<Manifest>, ClusterError> {
        match self
            .store
            .get(&self.generation_object(generation, MANIFEST_FILE))
            .await
        {
            Ok(answer) => {
                let bytes = answer.bytes().await.map_err(failed)?;
                serde_json::from_slice(&bytes).map(Some).map_err(failed)
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(failed(error)),
        }
    }

    /// Makes `index_dir` hold generation `generation`'s files for `shards` (downloading
    /// those missing) and publishes it there. Downloaded bytes.
    pub async fn pull_generation(
        &self,
        index_dir: &Path,
        generation: u64,
        shards: &[u32],
    ) -> Result<u64, ClusterError> {
        let manifest = self.manifest(generation).await?.ok_or_else(|| {
            failed(format!(
                "generation {generation} is not in {} (no manifest)",
                self.url
            ))
        })?;
        let dir = generation_dir(index_dir, generation);
        let listed_prefix = self.generation_object(generation, "");
        let listed: Vec<object_store::ObjectMeta> = self
            .store
            .list(Some(&listed_prefix))
            .try_collect()
            .await
            .map_err(failed)?;
        let prefix_text = format!("{}/", listed_prefix.as_ref().trim_end_matches('/'));
        let mut downloads: Vec<(ObjectPath, PathBuf, u64)> = Vec::new();
        for meta in listed {
            let Some(relative) = meta.location.as_ref().strip_prefix(&prefix_text) else {
                continue;
            };
            if relative == MANIFEST_FILE || !needed(relative, shards) {
                continue;
            }
            let local = dir.join(relative);
            let have = std::fs::metadata(&local).map(|m| m.len()).ok();
            if have != Some(meta.size) {
                downloads.push((meta.location.clone(), local, meta.size));
            }
        }
        if let Some(vectors) = &manifest.vectors {
            let models = self.object(&format!("models/{}", vectors.model_sha256));
            let model_dir = index_dir
                .join(podlens_indexer::vectors::MODELS_DIR)
                .join(&vectors.model_sha256);
            let listed: Vec<object_store::ObjectMeta> = self
                .store
                .list(Some(&models))
                .try_collect()
                .await
                .map_err(failed)?;
            let models_text = format!("{}/", models.as_ref());
            for meta in listed {
                let Some(relative) = meta.location.as_ref().strip_prefix(&models_text) else {
                    continue;
                };
                if !needed(relative, &[]) {
                    continue;
                }
                let local = model_dir.join(relative);
                if std::fs::metadata(&local).map(|m| m.len()).ok() != Some(meta.size) {
                    downloads.push((meta.location.clone(), local, meta.size));
                }
            }
        }
        let bytes = transferred(
            downloads
                .into_iter()
                .map(|(object, local, size)| self.download(object, local, size)),
        )
        .await?;
        let published = read_manifest(index_dir).map_err(failed)?;
        if published.as_ref() != Some(&manifest) {
            publish(index_dir, &manifest).map_err(failed)?;
        }
        Ok(bytes)
    }
}

/// The list of a catalog partition's files, written after them.
const PARTITION_FILES: &str = "files.json";

/// A build's or a partition's name as one part of an object key: letters, digits, `-`,
/// `_` and `.`, not starting with a dot.
fn key_part(name: &str) -> Result<&str, ClusterError> {
    let valid = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.'));
    if valid {
        Ok(name)
    } else {
        Err(failed(format!(
            "{name:?} cannot name a build or a partition (letters, digits, -, _ and ., not starting with a dot)"
        )))
    }
}

/// Whether a partition's listed file may be written into the local folder: a plain
/// Parquet file name.
fn partition_file(name: &str) -> bool {
    key_part(name).is_ok() && name.ends_with(".parquet")
}

impl Artifacts {
    fn partition_object(&self, build: &str, partition: &str, file: &str) -> ObjectPath {
        self.object(&format!("catalog/{build}/{partition}/{file}"))
    }

    /// Uploads a catalog partition's Parquet snapshot (the `*.parquet` files of
    /// `parquet_dir`) as partition `partition` of build `build`, its list of files last.
    /// Uploaded bytes.
    pub async fn push_partition(
        &self,
        build: &str,
        partition: &str,
        parquet_dir: &Path,
    ) -> Result<u64, ClusterError> {
        let (build, partition) = (key_part(build)?, key_part(partition)?);
        let mut files: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
        for name in files_under(parquet_dir)? {
            if partition_file(&name) {
                let size = std::fs::metadata(parquet_dir.join(&name))
                    .map_err(|error| failed(format!("{name}: {error}")))?
                    .len();
                files.insert(name, size);
            }
        }
        if !files.contains_key("podcasts.parquet") {
            return Err(failed(format!(
                "{} holds no podcasts.parquet: not a catalog snapshot",
                parquet_dir.display()
            )));
        }
        let bytes = transferred(files.keys().map(|name| {
            self.upload(
                parquet_dir.join(name),
                self.partition_object(build, partition, name),
            )
        }))
        .await?;
        let list = serde_json::to_vec_pretty(&files).map_err(failed)?;
        self.store
            .put(
                &self.partition_object(build, partition, PARTITION_FILES),
                PutPayload::from(list),
            )
            .await
            .map_err(failed)?;
        Ok(bytes)
    }

    /// Downloads partition `partition` of build `build` into the folder `into`
    /// (created); an error when the partition is not complete in the store. Downloaded
    /// bytes.
    pub async fn pull_partition(
        &self,
        build: &str,
        partition: &str,
        into: &Path,
    ) -> Result<u64, ClusterError> {
        let (build, partition) = (key_part(build)?, key_part(partition)?);
        let list = match self
            .store
            .get(&self.partition_object(build, partition, PARTITION_FILES))
            .await
        {
            Ok(answer) => answer.bytes().await.map_err(failed)?,
            Err(object_store::Error::NotFound { .. }) => {
                return Err(failed(format!(
                    "partition {partition} of build {build} is not (completely) in {}",
                    self.url
                )));
            }
            Err(error) => return Err(failed(error)),
        };
        let files: std::collections::BTreeMap<String, u64> =
            serde_json::from_slice(&list).map_err(failed)?;
        if let Some(name) = files.keys().find(|name| !partition_file(name)) {
            return Err(failed(format!(
                "partition {partition} of build {build} lists {name:?}, not a Parquet file name"
            )));
        }
        transferred(files.into_iter().map(|(name, size)| {
            self.download(
                self.partition_object(build, partition, &name),
                into.join(&name),
                size,
            )
        }))
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::{Artifacts, key_part, needed, partition_file};

    #[test]
    fn partition_keys_and_files_stay_inside_their_folder() {
        assert!(key_part("p-0003-1b2c").is_ok());
        assert!(key_part("build.2026-11-27").is_ok());
        for bad in ["", "..", ".hidden", "a/b", "a\\b", "p 1", "é"] {
            assert!(key_part(bad).is_err(), "{bad:?}");
        }
        assert!(partition_file("episodes.parquet"));
        assert!(!partition_file("../episodes.parquet"));
        assert!(!partition_file("x/episodes.parquet"));
        assert!(!partition_file("files.json"));
    }

    #[tokio::test]
    async fn a_pushed_partition_comes_back_whole_and_an_unfinished_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store =
            Artifacts::open(&format!("file://{}", dir.path().join("store").display())).unwrap();
        let snapshot = dir.path().join("parquet");
        std::fs::create_dir_all(&snapshot).unwrap();
        std::fs::write(snapshot.join("podcasts.parquet"), b"podcasts").unwrap();
        std::fs::write(snapshot.join("episodes.parquet"), b"episodes!").unwrap();
        std::fs::write(snapshot.join("notes.txt"), b"not part of it").unwrap();
        assert_eq!(
            store.push_partition("b1", "p-0", &snapshot).await.unwrap(),
            17
        );
        let pulled = dir.path().join("pulled");
        assert_eq!(
            store.pull_partition("b1", "p-0", &pulled).await.unwrap(),
            17
        );
        assert_eq!(
            std::fs::read(pulled.join("episodes.parquet")).unwrap(),
            b"episodes!"
        );
        assert!(!pulled.join("notes.txt").exists());
        let error = store
            .pull_partition("b1", "p-1", &dir.path().join("none"))
            .await
            .unwrap_err()
            .to_string();
        assert!(error.contains("not (completely) in"), "{error}");
        assert!(store.pull_partition("..", "p-0", &pulled).await.is_err());
    }

    #[test]
    fn a_node_needs_its_shards_and_what_every_shard_shares() {
        assert!(needed("shard-2/podcasts/meta.json", &[0, 2]));
        assert!(!needed("shard-1/podcasts/meta.json", &[0, 2]));
        assert!(!needed("shard-12/episodes/a.idx", &[1, 2]));
        assert!(needed("statistics/terms.fst", &[1]));
        assert!(needed("read-model.json", &[]));
        assert!(!needed("../../etc/cron.d/x", &[0]));
        assert!(!needed("shard-0/../../x", &[0]));
        assert!(!needed("/etc/passwd", &[0]));
    }
}
