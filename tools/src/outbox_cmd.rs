//! `podlens outbox`: the mail the server wrote to `<data-dir>/outbox` (sign-in and
//! sign-up links, notifications) when no SMTP server is configured.

use anyhow::Context;
use clap::Args;
use podlens_app::mail::Outbox;

use crate::config::Config;

/// Flags of `podlens outbox`.
#[derive(Debug, Clone, Args)]
pub struct OutboxArgs {
    /// Print only the newest N messages (default: all, oldest first).
    #[arg(long, value_name = "N")]
    pub last: Option<usize>,
    /// Only messages to this address.
    #[arg(long, value_name = "EMAIL")]
    pub to: Option<String>,
}

pub fn run(config: &Config, args: OutboxArgs) -> anyhow::Result<()> {
    let outbox = Outbox::in_data_dir(&config.data_dir());
    let mut messages = Vec::new();
    for path in outbox
        .messages()
        .with_context(|| format!("cannot read {}", outbox.dir().display()))?
    {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let wanted = args.to.as_deref().is_none_or(|to| {
            text.lines()
                .take_while(|line| !line.is_empty() && *line != "\r")
                .any(|line| {
                    line.trim_end()
                        .strip_prefix("To: ")
                        .is_some_and(|value| value.eq_ignore_ascii_case(to.trim()))
                })
        });
        if wanted {
            messages.push((path, text));
        }
    }
    let skip = args
        .last
        .map_or(0, |last| messages.len().saturating_sub(last));
    if messages.is_empty() {
        println!("the outbox {} holds no messages", outbox.dir().display());
    }
    for (path, text) in messages.into_iter().skip(skip) {
        println!("==> {}", path.display());
        println!("{}", text.replace("\r\n", "\n").trim_end());
        println!();
    }
    Ok(())
}
