//! Speech to text behind one trait, [`SpeechToText`], with one implementation:
//! [`FasterWhisper`], which runs `tools/whisper/transcribe.py` (faster-whisper and the
//! Whisper base model in CTranslate2 format, installed by `scripts/install-whisper.sh`)
//! as a child process with a time limit. The call blocks: run it on a blocking thread,
//! never on the async runtime.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The worker script, embedded so the binary runs it from anywhere (`python3 -c`).
const TRANSCRIBE_PY: &str = include_str!("../../tools/whisper/transcribe.py");
/// Exit codes of the script.
const EXIT_NOT_AUDIO: i32 = 3;
const EXIT_MODEL: i32 = 4;
/// How long one transcription may take by default (Whisper base runs several times
/// faster than real time on two cores, so this covers episodes of many hours).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(3 * 60 * 60);
/// The only environment variables the worker inherits: what finding and running
/// Python needs. The server's own settings (an SMTP URL with its password, API
/// endpoints) stay out of the child that decodes untrusted audio.
const INHERITED_ENV: [&str; 10] = [
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "TMPDIR",
    "PYENV_ROOT",
    "PYENV_VERSION",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "LD_LIBRARY_PATH",
];
/// Where `scripts/install-whisper.sh` puts the model, under the cache directory.
pub const DEFAULT_MODEL_SUBDIR: &str = "podlens-models/whisper-base";

/// A timed piece of recognised speech.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpeechSegment {
    #[serde(rename = "start")]
    pub start_second: f64,
    #[serde(rename = "end")]
    pub end_second: f64,
    pub text: String,
}

/// What speech to text made of one audio file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpeechTranscript {
    /// The detected language (ISO 639-1).
    pub language: Option<String>,
    /// The decoded audio's length in seconds.
    #[serde(rename = "duration")]
    pub duration_seconds: Option<f64>,
    pub segments: Vec<SpeechSegment>,
}

/// Why speech to text failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SpeechError {
    /// The file is not audio the decoder understands.
    #[error("not audio: {0}")]
    NotAudio(String),
    /// The model is missing, cannot be loaded or failed while running.
    #[error("speech model error: {0}")]
    Model(String),
    /// The time limit passed; the work was stopped.
    #[error("speech to text did not finish within {}", time_limit(*.0))]
    Timeout(Duration),
}

fn time_limit(limit: Duration) -> String {
    match limit.as_secs() {
        0 => format!("{} milliseconds", limit.as_millis()),
        1 => "1 second".to_owned(),
        seconds if seconds < 120 => format!("{seconds} seconds"),
        seconds => format!("{} minutes", seconds / 60),
    }
}

/// Turns an audio file into timed text.
pub trait SpeechToText: Send + Sync + std::fmt::Debug {
    /// The model's name, as stored with the transcripts it makes.
    fn model_name(&self) -> &str;
    /// Transcribes `audio` (blocking).
    fn transcribe(&self, audio: &Path) -> Result<SpeechTranscript, SpeechError>;
}

/// faster-whisper in a child process: `python3 -c <transcribe.py> --model DIR AUDIO`.
#[derive(Debug, Clone)]
pub struct FasterWhisper {
    python: PathBuf,
    model_dir: PathBuf,
    timeout: Duration,
    threads: usize,
}

impl FasterWhisper {
    /// The model in `model_dir` (a CTranslate2 Whisper folder with `model.bin`), run
    /// by `python3` from the PATH. The folder is read when a request is transcribed: a
    /// missing model fails those requests with the reason, not the server.
    pub fn new(model_dir: PathBuf) -> FasterWhisper {
        FasterWhisper {
            python: PathBuf::from("python3"),
            model_dir,
            timeout: DEFAULT_TIMEOUT,
            threads: 0,
        }
    }

    /// The default model folder: `$HOME/.cache/podlens-models/whisper-base`.
    pub fn default_model_dir() -> Option<PathBuf> {
        std::env::var_os("HOME").map(|home| {
            PathBuf::from(home)
                .join(".cache")
                .join(DEFAULT_MODEL_SUBDIR)
        })
    }

    pub fn with_timeout(mut self, timeout: Duration) -> FasterWhisper {
        self.timeout = timeout;
        self
    }

    pub fn with_python(mut self, python: PathBuf) -> FasterWhisper {
        self.python = python;
        self
    }

    /// CPU threads for the model (0: all cores).
    pub fn with_threads(mut self, threads: usize) -> FasterWhisper {
        self.threads = threads;
        self
    }

    pub fn model_dir(&self) -> &Path {
        &self.model_dir
    }
}

impl SpeechToText for FasterWhisper {
    fn model_name(&self) -> &str {
        "whisper-base"
    }

    fn transcribe(&self, audio: &Path) -> Result<SpeechTranscript, SpeechError> {
        let mut command = Command::new(&self.python);
        command
            .arg("-c")
            .arg(TRANSCRIBE_PY)
            .arg("--model")
            .arg(&self.model_dir)
            .arg("--threads")
            .arg(self.threads.to_string())
            .arg("--")
            .arg(audio);
        with_python_environment_only(&mut command)
            // the model is read from its folder only: nothing is fetched from a hub
            .env("HF_HUB_OFFLINE", "1")
            .stdin(Stdio::null());
        let output = run_with_timeout(command, self.timeout)?;
        match output.code {
            Some(0) => serde_json::from_slice(&output.stdout).map_err(|error| {
                SpeechError::Model(format!("unreadable output from the speech worker: {error}"))
            }),
            Some(EXIT_NOT_AUDIO) => Err(SpeechError::NotAudio(output.last_stderr_line())),
            Some(EXIT_MODEL) => Err(SpeechError::Model(output.last_stderr_line())),
            code => Err(SpeechError::Model(format!(
                "the speech worker exited with {}: {}",
                code.map_or_else(|| "a signal".to_owned(), |code| format!("code {code}")),
                output.last_stderr_line()
            ))),
        }
    }
}

/// Clears the child's environment but for [`INHERITED_ENV`].
fn with_python_environment_only(command: &mut Command) -> &mut Command {
    command.env_clear().envs(
        INHERITED_ENV
            .iter()
            .filter_map(|name| std::env::var_os(name).map(|value| (name, value))),
    )
}

struct ChildOutput {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl ChildOutput {
    fn last_stderr_line(&self) -> String {
        let text = String::from_utf8_lossy(&self.stderr);
        let line = text
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .unwrap_or("no message");
        line.chars().take(500).collect()
    }
}

/// Runs `command` to its end or until `timeout`, when it is killed. Its output is read
/// on threads of their own so a full pipe never stalls it.
fn run_with_timeout(mut command: Command, timeout: Duration) -> Result<ChildOutput, SpeechError> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| {
            SpeechError::Model(format!("cannot start the speech worker (python3): {error}"))
        })?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SpeechError::Timeout(timeout));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(error) => {
                let _ = child.kill();
                return Err(SpeechError::Model(format!(
                    "cannot wait for the speech worker: {error}"
                )));
            }
        }
    };
    Ok(ChildOutput {
        code: status.code(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_past_its_time_limit_is_stopped() {
        let mut command = Command::new("sleep");
        command.arg("30");
        let started = Instant::now();
        let error = run_with_timeout(command, Duration::from_millis(300))
            .err()
            .expect("timed out");
        assert_eq!(error, SpeechError::Timeout(Duration::from_millis(300)));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(
            error.to_string(),
            "speech to text did not finish within 300 milliseconds"
        );
        assert_eq!(
            SpeechError::Timeout(DEFAULT_TIMEOUT).to_string(),
            "speech to text did not finish within 180 minutes"
        );
    }

    #[test]
    fn a_large_output_does_not_stall_the_worker() {
        let mut command = Command::new("sh");
        command.args(["-c", "head -c 1000000 /dev/zero; echo oops >&2; exit 4"]);
        let output = run_with_timeout(command, Duration::from_secs(20)).expect("ran");
        assert_eq!(output.code, Some(4));
        assert_eq!(output.stdout.len(), 1_000_000);
        assert_eq!(output.last_stderr_line(), "oops");
    }

    #[test]
    fn a_missing_python_is_a_model_error() {
        let whisper = FasterWhisper::new(PathBuf::from("/nonexistent"))
            .with_python(PathBuf::from("/nonexistent/python3"));
        let error = whisper
            .transcribe(Path::new("/nonexistent.wav"))
            .unwrap_err();
        assert!(matches!(error, SpeechError::Model(_)), "{error}");
    }

    #[test]
    fn the_worker_sees_none_of_the_servers_settings() {
        // cargo sets CARGO_* for the test process; the child must not see them
        assert!(std::env::var_os("CARGO_PKG_NAME").is_some());
        let mut command = Command::new("env");
        with_python_environment_only(&mut command);
        let output = run_with_timeout(command, Duration::from_secs(10)).expect("ran");
        let shown = String::from_utf8_lossy(&output.stdout);
        assert!(!shown.contains("CARGO_"), "{shown}");
        assert!(
            shown.lines().any(|line| line.starts_with("PATH=")),
            "{shown}"
        );
    }

    #[test]
    fn the_worker_output_is_read_as_timed_segments() {
        let parsed: SpeechTranscript = serde_json::from_str(
            r#"{"language": "en", "duration": 6.5, "segments": [{"start": 0.0, "end": 4.75, "text": "hello there"}]}"#,
        )
        .unwrap();
        assert_eq!(parsed.language.as_deref(), Some("en"));
        assert_eq!(parsed.segments[0].end_second, 4.75);
        assert_eq!(parsed.segments[0].text, "hello there");
    }
}
