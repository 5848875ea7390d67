//! The on-disk HTTP cache: the last body of each URL with its validators (`ETag`,
//! `Last-Modified`), so a re-crawl asks the server with a conditional GET and an
//! unchanged page costs a `304 Not Modified` instead of a body.
//!
//! Layout: `<dir>/<sha256 of the url>.json` (validators) beside `<…>.body`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::CrawlError;

/// The validators and metadata of one cached response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CachedMeta {
    pub url: String,
    pub final_url: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub content_type: Option<String>,
}

/// A cached response: metadata and body.
#[derive(Debug, Clone)]
pub struct CachedResponse {
    pub meta: CachedMeta,
    pub body: Vec<u8>,
}

/// The cache directory.
#[derive(Debug, Clone)]
pub struct HttpCache {
    dir: PathBuf,
}

impl HttpCache {
    /// Opens (creating) the cache directory.
    pub fn open(dir: &Path) -> Result<HttpCache, CrawlError> {
        std::fs::create_dir_all(dir).map_err(|source| CrawlError::Cache {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(HttpCache {
            dir: dir.to_path_buf(),
        })
    }

    fn paths(&self, url: &str) -> (PathBuf, PathBuf) {
        let digest = Sha256::digest(url.as_bytes());
        let key: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        (
            self.dir.join(format!("{key}.json")),
            self.dir.join(format!("{key}.body")),
        )
    }

    /// The cached response of `url`; a missing, unreadable or foreign entry is `None`.
    pub fn load(&self, url: &str) -> Option<CachedResponse> {
        let (meta_path, body_path) = self.paths(url);
        let meta: CachedMeta = serde_json::from_slice(&std::fs::read(meta_path).ok()?).ok()?;
        if meta.url != url {
            return None;
        }
        let body = std::fs::read(body_path).ok()?;
        Some(CachedResponse { meta, body })
    }

    /// Stores a response that carries a validator; others are not worth keeping.
    pub fn store(&self, meta: &CachedMeta, body: &[u8]) -> Result<(), CrawlError> {
        if meta.etag.is_none() && meta.last_modified.is_none() {
            return Ok(());
        }
        let (meta_path, body_path) = self.paths(&meta.url);
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CrawlError::Cache { path, source }
        };
        // Body first, validators last: a torn write leaves an entry that fails to load.
        write_atomically(&body_path, body).map_err(io(&body_path))?;
        let json = serde_json::to_vec(meta).map_err(|error| CrawlError::Cache {
            path: meta_path.clone(),
            source: std::io::Error::other(error),
        })?;
        write_atomically(&meta_path, &json).map_err(io(&meta_path))
    }
}

/// Writes a file of its own beside `path`, then renames it over `path`: two fetches of one
/// URL at once (a page linked from many sites) each write their own file and the last
/// rename wins, where a shared temporary name made one of them fail.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temporary = tempfile::NamedTempFile::new_in(dir)?;
    temporary.write_all(bytes)?;
    temporary.persist(path).map_err(|error| error.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_loads_only_responses_with_validators() {
        let dir = tempfile::tempdir().unwrap();
        let cache = HttpCache::open(dir.path()).unwrap();
        let meta = CachedMeta {
            url: "https://example.com/".into(),
            final_url: "https://example.com/".into(),
            etag: Some("\"abc\"".into()),
            last_modified: None,
            content_type: Some("text/html".into()),
        };
        cache.store(&meta, b"<html>hi</html>").unwrap();
        let loaded = cache.load("https://example.com/").unwrap();
        assert_eq!(loaded.meta, meta);
        assert_eq!(loaded.body, b"<html>hi</html>");
        let without = CachedMeta {
            url: "https://example.com/other".into(),
            etag: None,
            ..meta
        };
        cache.store(&without, b"x").unwrap();
        assert!(cache.load("https://example.com/other").is_none());
    }

    #[test]
    fn concurrent_stores_of_one_url_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let cache = HttpCache::open(dir.path()).unwrap();
        let bodies: Vec<Vec<u8>> = (0..16)
            .map(|i| format!("<html>{i}</html>").into_bytes())
            .collect();
        std::thread::scope(|scope| {
            for body in &bodies {
                let cache = &cache;
                scope.spawn(move || {
                    for _ in 0..20 {
                        let meta = CachedMeta {
                            url: "https://example.com/shared".into(),
                            final_url: "https://example.com/shared".into(),
                            etag: Some("\"v\"".into()),
                            last_modified: None,
                            content_type: None,
                        };
                        cache.store(&meta, body).unwrap();
                    }
                });
            }
        });
        let loaded = cache.load("https://example.com/shared").unwrap();
        assert!(bodies.contains(&loaded.body), "one writer's whole body");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(
            leftovers.len(),
            2,
            "the body and its validators only: {leftovers:?}"
        );
    }
}
