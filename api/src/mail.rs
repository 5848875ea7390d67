//! Outgoing mail (sign-in links, alert digests): through an SMTP server when one is
//! configured ([`smtp`]), otherwise written to an outbox folder in the data directory,
//! one file per message, which `podlens outbox` prints: a fresh machine can sign in
//! with no mail set up.

mod smtp;

pub use smtp::{DEFAULT_FROM, SmtpMailer, SmtpSettings, SmtpTls};

use std::path::{Path, PathBuf};

use chrono::Utc;

use crate::error::{ApiError, ApiResult};

/// The outbox folder inside the data directory.
pub const OUTBOX_DIR: &str = "outbox";

/// One plain-text message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
}

/// Somewhere mail goes.
pub trait Mailer: Send + Sync + 'static {
    fn send(&self, mail: &Mail) -> ApiResult<()>;
}

/// The SMTP server of `smtp` when given, else the data directory's outbox.
pub fn mailer_for(
    data_dir: &Path,
    smtp: Option<&SmtpSettings>,
) -> ApiResult<std::sync::Arc<dyn Mailer>> {
    Ok(match smtp {
        Some(settings) => {
            let mailer = SmtpMailer::new(settings)?;
            tracing::info!(?mailer, "mail goes through smtp");
            std::sync::Arc::new(mailer)
        }
        None => std::sync::Arc::new(Outbox::in_data_dir(data_dir)),
    })
}

/// Writes each message as an RFC 5322 text file `<unix-nanos>-<n>.eml` in a folder.
#[derive(Debug, Clone)]
pub struct Outbox {
    dir: PathBuf,
}

impl Outbox {
    /// The outbox of a data directory (`<data-dir>/outbox`).
    pub fn in_data_dir(data_dir: &Path) -> Outbox {
        Outbox {
            dir: data_dir.join(OUTBOX_DIR),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The messages in the outbox, oldest first, as their file paths.
    pub fn messages(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut paths = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.extension().is_some_and(|extension| extension == "eml"))
                .collect::<Vec<_>>(),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(error) => return Err(error),
        };
        paths.sort();
        Ok(paths)
    }
}

/// Header values cannot carry line breaks (header injection).
fn header_value(value: &str) -> String {
    value.replace(['\r', '\n'], " ")
}

impl Mailer for Outbox {
    fn send(&self, mail: &Mail) -> ApiResult<()> {
        std::fs::create_dir_all(&self.dir).map_err(|error| {
            ApiError::Internal(format!("cannot create {}: {error}", self.dir.display()))
        })?;
        let now = Utc::now();
        let stamp = now.timestamp_nanos_opt().unwrap_or_default();
        let text = format!(
            "Date: {}\r\nFrom: Podlens <no-reply@podlens.local>\r\nTo: {}\r\nSubject: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            now.to_rfc2822(),
            header_value(&mail.to),
            header_value(&mail.subject),
            mail.text
        );
        // Unique even for two messages in the same nanosecond.
        for attempt in 0..100u32 {
            let path = self.dir.join(format!("{stamp:020}-{attempt:02}.eml"));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut file) => {
                    use std::io::Write;
                    file.write_all(text.as_bytes()).map_err(|error| {
                        ApiError::Internal(format!("cannot write {}: {error}", path.display()))
                    })?;
                    tracing::info!(to = %mail.to, path = %path.display(), "mail written to the outbox");
                    return Ok(());
                }
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => {
                    return Err(ApiError::Internal(format!(
                        "cannot write {}: {error}",
                        path.display()
                    )));
                }
            }
        }
        Err(ApiError::Internal("outbox: no free file name".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_land_in_the_outbox_in_order_without_header_injection() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outbox = Outbox::in_data_dir(dir.path());
        assert!(outbox.messages().expect("empty outbox").is_empty());
        for n in 0..3 {
            outbox
                .send(&Mail {
                    to: "ann@example.com\r\nBcc: eve@example.com".into(),
                    subject: format!("message {n}"),
                    text: format!("body {n}"),
                })
                .expect("sent");
        }
        let messages = outbox.messages().expect("listed");
        assert_eq!(messages.len(), 3);
        let first = std::fs::read_to_string(&messages[0]).expect("readable");
        assert!(first.contains("Subject: message 0\r\n"));
        assert!(first.ends_with("body 0\r\n"));
        assert!(
            !first.contains("\nBcc:"),
            "line breaks in headers are removed"
        );
    }
}
