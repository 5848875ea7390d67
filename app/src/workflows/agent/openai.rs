//! A provider for any OpenAI-compatible chat-completions endpoint
//! (`POST {base_url}/chat/completions`), with a timeout, retries on rate limits,
//! server errors and connection failures, and the token count the endpoint reports.

use std::time::Duration;

use serde_json::{Value, json};

use super::{AiProvider, AssistFuture, AssistTask, Completion};
use crate::error::{AppError, AppResult};

/// Where and how to reach the endpoint.
#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// E.g. `https://api.openai.com/v1`; `/chat/completions` is appended.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub timeout: Duration,
    /// Attempts after the first one.
    pub retries: u32,
    /// The wait before the first retry; doubled for each further one.
    pub backoff: Duration,
}

impl Default for OpenAiConfig {
    fn default() -> Self {
        OpenAiConfig {
            base_url: String::new(),
            model: String::new(),
            api_key: None,
            timeout: Duration::from_secs(60),
            retries: 2,
            backoff: Duration::from_millis(500),
        }
    }
}

/// Sends each task as a system message (the instructions) and a user message (the
/// inputs as JSON) and reads the reply as JSON.
#[derive(Debug, Clone)]
pub struct OpenAiProvider {
    config: OpenAiConfig,
    client: reqwest::Client,
}

impl OpenAiProvider {
    pub fn new(config: OpenAiConfig) -> AppResult<OpenAiProvider> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|error| AppError::Internal(format!("http client: {error}")))?;
        Ok(OpenAiProvider { config, client })
    }

    fn endpoint(&self) -> String {
        format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        )
    }

    async fn send(&self, task: &AssistTask) -> AppResult<Completion> {
        let body = json!({
            "model": self.config.model,
            "temperature": 0.2,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": task.instructions()},
                {"role": "user", "content": task.input().to_string()},
            ],
        });
        let mut attempt = 0;
        loop {
            let mut request = self
                .client
                .post(self.endpoint())
                .header("content-type", "application/json")
                .body(body.to_string());
            if let Some(key) = &self.config.api_key {
                request = request.bearer_auth(key);
            }
            let outcome = match request.send().await {
                Ok(response) => {
                    let status = response.status();
                    let text = response.text().await.unwrap_or_default();
                    if status.is_success() {
                        return parse_reply(&text);
                    }
                    let retryable = status.as_u16() == 429 || status.is_server_error();
                    (
                        retryable,
                        format!("the assist endpoint answered {status}: {}", shorten(&text)),
                    )
                }
                Err(error) => (
                    error.is_connect() || error.is_timeout(),
                    format!("the assist endpoint is unreachable: {error}"),
                ),
            };
            let (retryable, message) = outcome;
            if !retryable || attempt >= self.config.retries {
                return Err(AppError::Unavailable(message));
            }
            tracing::warn!(attempt, %message, "retrying the assist endpoint");
            tokio::time::sleep(self.config.backoff * 2u32.saturating_pow(attempt)).await;
            attempt += 1;
        }
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(300).collect()
}

/// The JSON document in a chat-completions reply (code fences around it are allowed).
fn parse_reply(text: &str) -> AppResult<Completion> {
    let reply: Value = serde_json::from_str(text).map_err(|error| {
        AppError::Unavailable(format!("the assist endpoint sent unreadable JSON: {error}"))
    })?;
    let content = reply["choices"][0]["message"]["content"]
        .as_str()
        .ok_or_else(|| {
            AppError::Unavailable("the assist endpoint sent no message content".to_owned())
        })?;
    let trimmed = content.trim();
    let unfenced = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .unwrap_or(trimmed)
        .trim();
    let content: Value = serde_json::from_str(unfenced).map_err(|error| {
        AppError::Unavailable(format!(
            "the assist endpoint's answer is not a JSON document: {error}"
        ))
    })?;
    Ok(Completion {
        content,
        total_tokens: reply["usage"]["total_tokens"].as_u64().unwrap_or(0),
    })
}

impl AiProvider for OpenAiProvider {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn complete<'a>(&'a self, task: &'a AssistTask) -> AssistFuture<'a> {
        Box::pin(self.send(task))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_with_or_without_fences() {
        let reply = json!({
            "choices": [{"message": {"role": "assistant", "content": "```json\n{\"spellings\": [\"a\"]}\n```"}}],
            "usage": {"total_tokens": 42}
        });
        let completion = parse_reply(&reply.to_string()).unwrap();
        assert_eq!(completion.content, json!({"spellings": ["a"]}));
        assert_eq!(completion.total_tokens, 42);
        assert!(parse_reply("{\"choices\": []}").is_err());
    }
}
