//! The one configuration of the `podlens` tool.
//!
//! Every setting can come from, in order of precedence: a command-line flag, a
//! `PODLENS_*` environment variable, the TOML config file (`--config`, default
//! `./podlens.toml` when present; see `podlens.example.toml`), or the built-in default.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;

/// Our crates at `info`; tantivy's per-commit chatter only when it warns.
pub const DEFAULT_LOG_FILTER: &str = "info,tantivy=warn";

/// Settings shared by every subcommand.
#[derive(Debug, Clone, Default, Args, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", default)]
pub struct Config {
    /// Directory holding the catalog, the indexes and the app database.
    #[arg(long, global = true, env = "PODLENS_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// The application store (users, teams, keys, projects, alerts…) as a PostgreSQL
    /// URL, `postgres://user:password@host:5432/podlens`, for several `podlens serve`
    /// nodes sharing one database; default: `app.sqlite3` in the data directory.
    #[arg(
        long,
        global = true,
        env = "PODLENS_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub database_url: Option<String>,

    /// Log filter (tracing `EnvFilter` syntax), e.g. `info` or `podlens_ingest=debug`.
    #[arg(long, global = true, env = "PODLENS_LOG", value_name = "FILTER")]
    pub log: Option<String>,

    /// Log lines as `text` (default) or `json` (one object per line, for log
    /// collectors).
    #[arg(
        long,
        global = true,
        env = "PODLENS_LOG_FORMAT",
        value_name = "FORMAT",
        value_enum
    )]
    pub log_format: Option<LogFormat>,

    /// Hide progress bars (they are hidden anyway when stderr is not a terminal).
    #[arg(long, global = true, env = "PODLENS_NO_PROGRESS")]
    #[serde(skip)]
    pub no_progress: bool,

    /// Worker threads for CPU-bound batch work (default: one per core).
    #[arg(long, global = true, env = "PODLENS_THREADS", value_name = "N")]
    pub threads: Option<usize>,

    /// SMTP server for sign-in links and alerts, as a URL:
    /// `smtp://user:password@host:587?tls=starttls&from=...` (`smtps://` for TLS from
    /// the start, `tls=none` for a local relay). Wins over `[smtp]` in the file.
    #[arg(
        long,
        global = true,
        env = "PODLENS_SMTP_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    #[serde(skip)]
    pub smtp_url: Option<SmtpUrl>,

    /// The `[smtp]` table of the file: host, port, tls, user, password, from.
    #[arg(skip)]
    pub smtp: Option<podlens_app::mail::SmtpSettings>,

    /// The file's `whisper-model`: the Whisper model folder `podlens serve` transcribes
    /// with (`--whisper-model` / `PODLENS_WHISPER_MODEL` win over it).
    #[arg(skip)]
    pub whisper_model: Option<PathBuf>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

/// An SMTP URL, which may hold a password: never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpUrl(pub String);

impl std::str::FromStr for SmtpUrl {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(SmtpUrl(text.to_owned()))
    }
}

impl std::fmt::Debug for SmtpUrl {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("SmtpUrl(<redacted>)")
    }
}

/// Where the config file is looked up when `--config` is not given.
pub const DEFAULT_CONFIG_FILE: &str = "podlens.toml";
/// The data directory when none is configured.
pub const DEFAULT_DATA_DIR: &str = "./podlens-data";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid config file {path}: {source}")]
    Parse {
        path: PathBuf,
        source: Box<toml::de::Error>,
    },
}

impl Config {
    /// Reads a TOML config file.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::from_toml(&text).map_err(|source| ConfigError::Parse {
            path: path.to_owned(),
            source: Box::new(source),
        })
    }

    pub fn from_toml(text: &str) -> Result<Config, toml::de::Error> {
        toml::from_str(text)
    }

    /// Loads the file named by `explicit`, else `podlens.toml` if it exists, else nothing.
    pub fn load_file(explicit: Option<&Path>) -> Result<Config, ConfigError> {
        match explicit {
            Some(path) => Self::from_file(path),
            None if Path::new(DEFAULT_CONFIG_FILE).is_file() => {
                Self::from_file(Path::new(DEFAULT_CONFIG_FILE))
            }
            None => Ok(Config::default()),
        }
    }

    /// Fills every setting not given on the command line or in the environment from
    /// the file's values.
    pub fn or_file(self, file: Config) -> Config {
        Config {
            data_dir: self.data_dir.or(file.data_dir),
            database_url: self.database_url.or(file.database_url),
            log: self.log.or(file.log),
            log_format: self.log_format.or(file.log_format),
            no_progress: self.no_progress,
            threads: self.threads.or(file.threads),
            smtp_url: self.smtp_url,
            smtp: self.smtp.or(file.smtp),
            whisper_model: self.whisper_model.or(file.whisper_model),
        }
    }

    pub fn data_dir(&self) -> PathBuf {
        self.data_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR))
    }

    /// The SMTP server mail goes through, if one is configured (the URL wins over the
    /// file's table); `None` sends mail to the data directory's outbox.
    pub fn smtp_settings(&self) -> anyhow::Result<Option<podlens_app::mail::SmtpSettings>> {
        if let Some(SmtpUrl(url)) = self
            .smtp_url
            .as_ref()
            .filter(|url| !url.0.trim().is_empty())
        {
            return Ok(Some(
                podlens_app::mail::SmtpSettings::from_url(url)
                    .map_err(|error| anyhow::anyhow!("PODLENS_SMTP_URL / --smtp-url: {error}"))?,
            ));
        }
        Ok(self.smtp.clone())
    }

    /// Where the application store is: the configured database URL, else the data
    /// directory's SQLite file.
    pub fn store_location(&self) -> podlens_store::Location {
        podlens_store::Location::for_data_dir(&self.data_dir(), self.database_url.as_deref())
    }

    pub fn log_filter(&self) -> &str {
        self.log.as_deref().unwrap_or(DEFAULT_LOG_FILTER)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_file_is_valid() {
        let text = include_str!("../../podlens.example.toml");
        let config = Config::from_toml(text).expect("podlens.example.toml parses");
        assert_eq!(config.data_dir(), PathBuf::from("./podlens-data"));
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let error = Config::from_toml("data-dir = \"x\"\ndata_dri = \"y\"\n").unwrap_err();
        assert!(error.to_string().contains("unknown field"), "{error}");
    }

    #[test]
    fn command_line_wins_over_file() {
        let cli = Config {
            data_dir: Some("cli".into()),
            ..Config::default()
        };
        let file = Config {
            data_dir: Some("file".into()),
            threads: Some(3),
            ..Config::default()
        };
        let merged = cli.or_file(file);
        assert_eq!(merged.data_dir(), PathBuf::from("cli"));
        assert_eq!(merged.threads, Some(3));
    }

    #[test]
    fn smtp_comes_from_the_url_or_the_file() {
        let file = Config::from_toml(
            "[smtp]\nhost = \"mail.example.com\"\nport = 2525\ntls = \"none\"\nuser = \"ann\"\npassword = \"secret\"\nfrom = \"Podlens <no-reply@example.com>\"\n",
        )
        .expect("smtp table parses");
        let settings = file.smtp_settings().unwrap().unwrap();
        assert_eq!(settings.port, Some(2525));
        assert_eq!(settings.tls, podlens_app::mail::SmtpTls::None);
        let cli = Config {
            smtp_url: Some(SmtpUrl("smtps://user:hunter2@relay.example.com".into())),
            ..Config::default()
        };
        let merged = cli.or_file(file);
        let settings = merged.smtp_settings().unwrap().unwrap();
        assert_eq!(settings.host, "relay.example.com");
        let shown = format!("{merged:?}");
        assert!(
            !shown.contains("secret") && !shown.contains("hunter2"),
            "{shown}"
        );
        assert!(Config::from_toml("[smtp]\nhost = \"h\"\nport = 1\ncolour = \"red\"\n").is_err());
    }

    #[test]
    fn the_whisper_model_comes_from_the_file() {
        let file = Config::from_toml("whisper-model = \"/models/whisper-base\"\n").unwrap();
        let merged = Config::default().or_file(file);
        assert_eq!(
            merged.whisper_model,
            Some(PathBuf::from("/models/whisper-base"))
        );
    }

    #[test]
    fn default_data_dir() {
        assert_eq!(
            Config::default().data_dir(),
            PathBuf::from("./podlens-data")
        );
    }
}
