//! Mail through an SMTP server (lettre), when one is configured: `PODLENS_SMTP_URL`
//! (`smtp://user:password@host:587?tls=starttls&from=Podlens%20%3Cno-reply%40example.com%3E`)
//! or the `[smtp]` table of `podlens.toml`. The password is never logged or printed.

use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Message, SmtpTransport, Transport};
use serde::Deserialize;

use super::{Mail, Mailer};
use crate::error::{AppError, AppResult};

/// The sender when none is configured.
pub const DEFAULT_FROM: &str = "Podlens <no-reply@podlens.local>";
/// How long one SMTP exchange may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);

/// How the connection to the SMTP server is secured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    /// Plain text (only for a relay on the same machine or network).
    None,
    /// Plain connection upgraded with STARTTLS, which the server must offer (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS, port 465).
    Tls,
}

impl SmtpTls {
    fn parse(value: &str) -> Option<SmtpTls> {
        match value.to_ascii_lowercase().as_str() {
            "none" | "plain" => Some(SmtpTls::None),
            "starttls" | "required" => Some(SmtpTls::Starttls),
            "tls" | "smtps" | "wrapper" => Some(SmtpTls::Tls),
            _ => None,
        }
    }

    fn default_port(self) -> u16 {
        match self {
            SmtpTls::None => 25,
            SmtpTls::Starttls => 587,
            SmtpTls::Tls => 465,
        }
    }
}

/// Where and how to send mail. `Debug` never shows the password.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SmtpSettings {
    pub host: String,
    pub port: Option<u16>,
    #[serde(default)]
    pub tls: SmtpTls,
    pub user: Option<String>,
    pub password: Option<String>,
    /// The sender, e.g. `Podlens <no-reply@example.com>`.
    pub from: Option<String>,
}

impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("from", &self.from)
            .finish()
    }
}

fn bad_setting(message: impl Into<String>) -> AppError {
    AppError::Invalid(format!("smtp settings: {}", message.into()))
}

impl SmtpSettings {
    /// Reads `smtp://` (STARTTLS unless `?tls=none`) or `smtps://` URLs; user and
    /// password are the URL's (percent-encoded), `from` a query parameter.
    pub fn from_url(text: &str) -> AppResult<SmtpSettings> {
        let url = url::Url::parse(text.trim())
            .map_err(|error| bad_setting(format!("not a URL ({error})")))?;
        let mut tls = match url.scheme() {
            "smtp" => SmtpTls::Starttls,
            "smtps" => SmtpTls::Tls,
            other => {
                return Err(bad_setting(format!(
                    "the URL scheme must be smtp or smtps, not {other}"
                )));
            }
        };
        let mut from = None;
        for (key, value) in url.query_pairs() {
            match key.as_ref() {
                "tls" => {
                    tls = SmtpTls::parse(&value).ok_or_else(|| {
                        bad_setting(format!("tls must be none, starttls or tls, not {value}"))
                    })?
                }
                "from" => from = Some(value.into_owned()),
                other => return Err(bad_setting(format!("unknown URL parameter {other}"))),
            }
        }
        let decode = |part: &str| {
            percent_encoding::percent_decode_str(part)
                .decode_utf8()
                .map(|text| text.into_owned())
                .map_err(|_| bad_setting("user and password must be UTF-8"))
        };
        let user = (!url.username().is_empty())
            .then(|| decode(url.username()))
            .transpose()?;
        let password = url.password().map(decode).transpose()?;
        Ok(SmtpSettings {
            host: url
                .host_str()
                .filter(|host| !host.is_empty())
                .ok_or_else(|| bad_setting("the URL has no host"))?
                .to_owned(),
            port: url.port(),
            tls,
            user,
            password,
            from,
        })
    }
}

/// Sends each message through the configured SMTP server.
pub struct SmtpMailer {
    transport: SmtpTransport,
    from: Mailbox,
    server: String,
}

impl std::fmt::Debug for SmtpMailer {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SmtpMailer")
            .field("server", &self.server)
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

impl SmtpMailer {
    pub fn new(settings: &SmtpSettings) -> AppResult<SmtpMailer> {
        if settings.host.trim().is_empty() {
            return Err(bad_setting("host is empty"));
        }
        let from: Mailbox = settings
            .from
            .as_deref()
            .unwrap_or(DEFAULT_FROM)
            .parse()
            .map_err(|error| bad_setting(format!("from is not a mail address ({error})")))?;
        let port = settings.port.unwrap_or(settings.tls.default_port());
        let host = settings.host.trim().to_owned();
        let tls_parameters = || {
            TlsParameters::new(host.clone())
                .map_err(|error| bad_setting(format!("tls for {host}: {error}")))
        };
        let tls = match settings.tls {
            SmtpTls::None => Tls::None,
            SmtpTls::Starttls => Tls::Required(tls_parameters()?),
            SmtpTls::Tls => Tls::Wrapper(tls_parameters()?),
        };
        let mut builder = SmtpTransport::builder_dangerous(host.as_str())
            .port(port)
            .tls(tls)
            .timeout(Some(SMTP_TIMEOUT));
        if let Some(user) = &settings.user {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                settings.password.clone().unwrap_or_default(),
            ));
        }
        Ok(SmtpMailer {
            transport: builder.build(),
            from,
            server: format!("{host}:{port}"),
        })
    }
}

impl Mailer for SmtpMailer {
    fn send(&self, mail: &Mail) -> AppResult<()> {
        self.send_with_id(mail, None)
    }

    /// Sends with the delivery's `Message-ID`, so a repeat after a crash is recognisable
    /// (an SMTP server cannot be asked whether it already accepted a message).
    fn send_identified(&self, mail: &Mail, identity: &super::MessageIdentity) -> AppResult<()> {
        self.send_with_id(mail, Some(identity.message_id()))
    }
}

impl SmtpMailer {
    fn send_with_id(&self, mail: &Mail, message_id: Option<String>) -> AppResult<()> {
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|error| AppError::Invalid(format!("not a mail address: {error}")))?;
        let message = Message::builder()
            .message_id(message_id)
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.replace(['\r', '\n'], " "))
            .header(ContentType::TEXT_PLAIN)
            .body(mail.text.clone())
            .map_err(|error| AppError::Internal(format!("cannot build the message: {error}")))?;
        self.transport.send(&message).map_err(|error| {
            AppError::Internal(format!(
                "smtp server {} refused the message: {error}",
                self.server
            ))
        })?;
        tracing::info!(to = %mail.to, server = %self.server, "mail sent");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_give_the_settings_and_debug_hides_the_password() {
        let settings = SmtpSettings::from_url(
            "smtp://ann%40example.com:s3cr%2Fet@mail.example.com:2525?tls=none&from=Podlens%20%3Cno-reply%40example.com%3E",
        )
        .unwrap();
        assert_eq!(settings.host, "mail.example.com");
        assert_eq!(settings.port, Some(2525));
        assert_eq!(settings.tls, SmtpTls::None);
        assert_eq!(settings.user.as_deref(), Some("ann@example.com"));
        assert_eq!(settings.password.as_deref(), Some("s3cr/et"));
        assert_eq!(
            settings.from.as_deref(),
            Some("Podlens <no-reply@example.com>")
        );
        let shown = format!("{settings:?}");
        assert!(!shown.contains("s3cr"), "{shown}");
        assert_eq!(
            SmtpSettings::from_url("smtps://mail.example.com")
                .unwrap()
                .tls,
            SmtpTls::Tls
        );
        assert_eq!(
            SmtpSettings::from_url("smtp://mail.example.com")
                .unwrap()
                .tls,
            SmtpTls::Starttls
        );
        for bad in [
            "http://mail.example.com",
            "smtp://h?tls=maybe",
            "smtp://h?color=red",
            "smtp:///",
        ] {
            assert!(SmtpSettings::from_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bad_sender_is_refused_before_any_mail() {
        let settings = SmtpSettings {
            host: "localhost".into(),
            from: Some("not an address".into()),
            ..SmtpSettings::default()
        };
        let error = SmtpMailer::new(&settings).unwrap_err();
        assert!(
            error.to_string().contains("from is not a mail address"),
            "{error}"
        );
    }
}
