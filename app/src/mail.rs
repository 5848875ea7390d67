//! Outgoing mail (sign-in links, alert digests): through an SMTP server when one is
//! configured ([`smtp`]), otherwise written to an outbox folder in the data directory,
//! one file per message, which `podlens outbox` prints: a fresh machine can sign in
//! with no mail set up.

mod smtp;

pub use smtp::{DEFAULT_FROM, SmtpMailer, SmtpSettings, SmtpTls};

use std::path::{Path, PathBuf};

use chrono::Utc;

use crate::error::{AppError, AppResult};

/// The outbox folder inside the data directory.
pub const OUTBOX_DIR: &str = "outbox";

/// One plain-text message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
}

/// The stable identity of one message that may be sent more than once (an alert
/// delivery retried after a failure or a crash): the same id on every attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageIdentity {
    /// The delivery id; sent as `Message-ID: <id@podlens.local>` and `X-Podlens-Delivery`.
    pub id: String,
    /// When the delivery was created: the message's `Date` and, in the outbox, the start
    /// of its file name (so the outbox stays in creation order).
    pub created_at: chrono::DateTime<Utc>,
}

impl MessageIdentity {
    /// The `Message-ID` header value.
    pub fn message_id(&self) -> String {
        format!("<{}@podlens.local>", header_value(&self.id))
    }
}

/// Somewhere mail goes.
pub trait Mailer: Send + Sync + 'static {
    fn send(&self, mail: &Mail) -> AppResult<()>;

    /// Sends a message that carries a stable identity, so a repeat is recognisable by
    /// the receiver (`Message-ID`). The outbox goes further and writes it at most once.
    fn send_identified(&self, mail: &Mail, identity: &MessageIdentity) -> AppResult<()> {
        let _ = identity;
        self.send(mail)
    }
}

/// The SMTP server of `smtp` when given, else the data directory's outbox.
pub fn mailer_for(
    data_dir: &Path,
    smtp: Option<&SmtpSettings>,
) -> AppResult<std::sync::Arc<dyn Mailer>> {
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

/// Creates the outbox folder, readable by the server's user alone (0700 on Unix): its
/// messages hold live sign-in and invitation keys.
fn create_private_dir(dir: &Path) -> AppResult<()> {
    let failed = |error: std::io::Error| {
        AppError::Internal(format!("cannot create {}: {error}", dir.display()))
    };
    std::fs::create_dir_all(dir).map_err(failed)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(failed)?;
    }
    Ok(())
}

/// Options that create a new file readable and writable by the server's user alone
/// (0600 on Unix).
fn private_file() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

/// Header values cannot carry line breaks (header injection).
fn header_value(value: &str) -> String {
    value.replace(['\r', '\n'], " ")
}

impl Mailer for Outbox {
    fn send(&self, mail: &Mail) -> AppResult<()> {
        create_private_dir(&self.dir)?;
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
            match private_file().open(&path) {
                Ok(mut file) => {
                    use std::io::Write;
                    file.write_all(text.as_bytes()).map_err(|error| {
                        AppError::Internal(format!("cannot write {}: {error}", path.display()))
                    })?;
                    tracing::info!(to = %mail.to, path = %path.display(), "mail written to the outbox");
                    return Ok(());
                }
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => {
                    return Err(AppError::Internal(format!(
                        "cannot write {}: {error}",
                        path.display()
                    )));
                }
            }
        }
        Err(AppError::Internal("outbox: no free file name".into()))
    }

    /// Writes the message as `<created-at-nanos>-<id>.eml`, exactly once: when the file
    /// exists the message is already in the outbox and nothing is written. The file
    /// appears whole (written under a temporary name, synced, then renamed), so a crash
    /// leaves either no message or the complete one, and the retry after the crash
    /// finds it.
    fn send_identified(&self, mail: &Mail, identity: &MessageIdentity) -> AppResult<()> {
        use std::io::Write;
        let id: String = identity
            .id
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if id.is_empty() {
            return Err(AppError::Internal("outbox: empty message id".into()));
        }
        create_private_dir(&self.dir)?;
        let stamp = identity
            .created_at
            .timestamp_nanos_opt()
            .unwrap_or_default();
        let path = self.dir.join(format!("{stamp:020}-{id}.eml"));
        if path.exists() {
            tracing::info!(delivery = %id, "message already in the outbox");
            return Ok(());
        }
        let text = format!(
            "Date: {}\r\nFrom: Podlens <no-reply@podlens.local>\r\nTo: {}\r\nSubject: {}\r\nMessage-ID: {}\r\nX-Podlens-Delivery: {id}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            identity.created_at.to_rfc2822(),
            header_value(&mail.to),
            header_value(&mail.subject),
            identity.message_id(),
            mail.text
        );
        let temporary = self.dir.join(format!(".{id}.tmp"));
        let write = || -> std::io::Result<()> {
            // A leftover of a crash is replaced.
            let _ = std::fs::remove_file(&temporary);
            let mut file = private_file().open(&temporary)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temporary, &path)?;
            // The rename is durable once the folder is synced.
            std::fs::File::open(&self.dir)?.sync_all()
        };
        write().map_err(|error| {
            AppError::Internal(format!("cannot write {}: {error}", path.display()))
        })?;
        tracing::info!(to = %mail.to, path = %path.display(), "mail written to the outbox");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outbox files hold live sign-in and invitation keys, and were created with the
    /// process's umask (often world-readable): they are 0600 in a 0700 folder.
    #[cfg(unix)]
    #[test]
    fn outbox_files_holding_live_keys_are_readable_by_the_server_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let outbox = Outbox::in_data_dir(dir.path());
        let mail = Mail {
            to: "ann@example.com".into(),
            subject: "Your sign-in link".into(),
            text: "https://podlens.example.com/sign-in/email-link?key=abc".into(),
        };
        outbox.send(&mail).expect("sent");
        let identity = MessageIdentity {
            id: "delivery-1".into(),
            created_at: Utc::now(),
        };
        outbox.send_identified(&mail, &identity).expect("sent");
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(outbox.dir()), 0o700);
        let messages = outbox.messages().expect("listed");
        assert_eq!(messages.len(), 2);
        for message in messages {
            assert_eq!(mode(&message), 0o600, "{}", message.display());
        }
    }

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

    #[test]
    fn an_identified_message_is_written_once_however_often_it_is_sent() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outbox = Outbox::in_data_dir(dir.path());
        let identity = MessageIdentity {
            id: "0b7c1e9e-5d2f-4c1a-9a57-2f0e8d1b6c3a".into(),
            created_at: Utc::now(),
        };
        let mail = Mail {
            to: "ann@example.com".into(),
            subject: "Alert".into(),
            text: "one match".into(),
        };
        outbox.send_identified(&mail, &identity).expect("sent");
        let first = std::fs::read_to_string(&outbox.messages().unwrap()[0]).unwrap();
        outbox
            .send_identified(&mail, &identity)
            .expect("sent again");
        let messages = outbox.messages().expect("listed");
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0]
                .to_string_lossy()
                .ends_with("-0b7c1e9e-5d2f-4c1a-9a57-2f0e8d1b6c3a.eml")
        );
        assert_eq!(std::fs::read_to_string(&messages[0]).unwrap(), first);
        assert!(
            first.contains("Message-ID: <0b7c1e9e-5d2f-4c1a-9a57-2f0e8d1b6c3a@podlens.local>\r\n")
        );
        assert!(first.contains("X-Podlens-Delivery: 0b7c1e9e-5d2f-4c1a-9a57-2f0e8d1b6c3a\r\n"));
        // No temporary file is left beside it.
        assert_eq!(std::fs::read_dir(outbox.dir()).unwrap().count(), 1);
    }
}
