//! What the insight tasks read (a show's recent episodes with their notes and
//! transcripts) and the checked answers they give: guest prep, answers to custom
//! prompts, summaries of a podcast, an episode or a transcript, and an episode's deep
//! analysis.

use chrono::{DateTime, Utc};
use podlens_model::entities::LikelyQuestions;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{AiProvider, AssistTask, read, run};
use crate::error::{AppError, AppResult};

/// A piece of text with where it was said: a transcript cue has its start second,
/// show notes have none.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Passage {
    pub text: String,
    #[serde(default)]
    pub start_second: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
}

/// A person the feed names for an episode.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KnownPerson {
    pub name: String,
    /// `host`, `guest` or another role the feed gives.
    pub role: String,
}

/// One episode with what was said in it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeMaterial {
    pub episode_id: String,
    pub episode_slug: String,
    pub title: String,
    pub published_at: Option<DateTime<Utc>>,
    /// The show notes as plain text.
    pub show_notes: Option<String>,
    /// Transcript cues in order; empty when the episode has no transcript.
    pub transcript: Vec<Passage>,
    /// Sponsors the catalog found in the episode's notes.
    pub known_sponsors: Vec<String>,
    /// People the feed names for the episode.
    pub known_people: Vec<KnownPerson>,
}

/// A podcast with some of its episodes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShowMaterial {
    pub podcast_slug: String,
    pub title: String,
    pub description: Option<String>,
    pub host_names: Vec<String>,
    pub genres: Vec<String>,
    /// Newest first.
    pub episodes: Vec<EpisodeMaterial>,
}

/// What a prompt or a summary runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ContextKind {
    /// The podcast's description and its recent episodes' titles and notes.
    Podcast,
    /// One episode's title, notes, people and sponsors.
    Episode,
    /// One episode's transcript.
    Transcript,
}

impl ContextKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ContextKind::Podcast => "podcast",
            ContextKind::Episode => "episode",
            ContextKind::Transcript => "transcript",
        }
    }
}

/// A generated guest prep before it is tied to its podcast and episodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestPrepAnswer {
    pub grouped_likely_questions: Vec<LikelyQuestions>,
    pub critical_actions: Vec<String>,
    pub summary: String,
}

/// An answer to a prompt over a context, with the passages it rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromptAnswer {
    /// Markdown.
    pub answer: String,
    #[serde(default)]
    pub sources: Vec<Passage>,
}

/// A summary of a podcast, an episode or a transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextSummary {
    pub summary: String,
    #[serde(default)]
    pub key_points: Vec<String>,
    /// Questions asked in the context, as asked.
    #[serde(default)]
    pub questions: Vec<String>,
}

/// A person named in an episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonMention {
    pub name: String,
    pub role: String,
    /// The first transcript second where the name is said, when it is.
    #[serde(default)]
    pub mentioned_at_second: Option<f64>,
}

/// A sponsor or ad read in an episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SponsorMention {
    pub name: String,
    /// The sentence that names it.
    pub snippet: Option<String>,
    /// Where in the transcript, when it is read on air.
    #[serde(default)]
    pub start_second: Option<f64>,
}

/// The deep analysis of one episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeepAnalysis {
    pub summary: String,
    #[serde(default)]
    pub topics: Vec<String>,
    #[serde(default)]
    pub people: Vec<PersonMention>,
    #[serde(default)]
    pub sponsors: Vec<SponsorMention>,
    /// Notable lines of the transcript with their times.
    #[serde(default)]
    pub quotes: Vec<Passage>,
    /// Questions asked in the episode (timed when from the transcript).
    #[serde(default)]
    pub questions: Vec<Passage>,
}

fn empty_answer(provider: &dyn AiProvider, what: &str) -> AppError {
    AppError::Internal(format!(
        "the {} provider returned an empty {what}",
        provider.name()
    ))
}

/// Trimmed, non-empty, unique (ignoring case) lines.
pub(super) fn clean_lines(lines: Vec<String>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in lines {
        let line = line.trim().to_owned();
        let key = line.to_lowercase();
        if line.is_empty() || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(line);
    }
    out
}

/// Questions only: lines that end with a question mark.
fn questions_only(lines: Vec<String>) -> Vec<String> {
    clean_lines(lines)
        .into_iter()
        .filter(|line| line.ends_with('?'))
        .collect()
}

/// Prepares a guest for a show from its recent episodes.
pub async fn guest_prep(
    provider: &dyn AiProvider,
    show: ShowMaterial,
) -> AppResult<GuestPrepAnswer> {
    let task = AssistTask::GuestPrep(show);
    let mut answer: GuestPrepAnswer = read(provider, run(provider, &task).await?)?;
    if answer.summary.trim().is_empty() {
        return Err(empty_answer(provider, "guest prep summary"));
    }
    answer.grouped_likely_questions = answer
        .grouped_likely_questions
        .into_iter()
        .map(|group| LikelyQuestions {
            description: group.description.trim().to_owned(),
            very_likely: questions_only(group.very_likely),
            curveballs: questions_only(group.curveballs),
        })
        .filter(|group| !group.very_likely.is_empty() || !group.curveballs.is_empty())
        .collect();
    answer.critical_actions = clean_lines(answer.critical_actions);
    Ok(answer)
}

/// Answers `prompt` over a context.
pub async fn answer_prompt(
    provider: &dyn AiProvider,
    prompt: String,
    kind: ContextKind,
    context: ShowMaterial,
) -> AppResult<PromptAnswer> {
    let task = AssistTask::CustomPrompt {
        prompt,
        kind,
        context,
    };
    let answer: PromptAnswer = read(provider, run(provider, &task).await?)?;
    if answer.answer.trim().is_empty() {
        return Err(empty_answer(provider, "answer"));
    }
    Ok(answer)
}

/// Summarises a context and lists the questions asked in it.
pub async fn summarize(
    provider: &dyn AiProvider,
    kind: ContextKind,
    context: ShowMaterial,
) -> AppResult<ContextSummary> {
    let task = AssistTask::Summary { kind, context };
    let mut answer: ContextSummary = read(provider, run(provider, &task).await?)?;
    if answer.summary.trim().is_empty() {
        return Err(empty_answer(provider, "summary"));
    }
    answer.key_points = clean_lines(answer.key_points);
    answer.questions = questions_only(answer.questions);
    Ok(answer)
}

/// Analyses the one episode of `show`.
pub async fn deep_analysis(
    provider: &dyn AiProvider,
    show: ShowMaterial,
) -> AppResult<DeepAnalysis> {
    let task = AssistTask::DeepAnalysis(show);
    let mut answer: DeepAnalysis = read(provider, run(provider, &task).await?)?;
    if answer.summary.trim().is_empty() {
        return Err(empty_answer(provider, "analysis"));
    }
    answer.topics = clean_lines(answer.topics);
    answer
        .questions
        .retain(|question| question.text.trim().ends_with('?'));
    answer.quotes.retain(|quote| !quote.text.trim().is_empty());
    answer
        .people
        .retain(|person| !person.name.trim().is_empty());
    answer
        .sponsors
        .retain(|sponsor| !sponsor.name.trim().is_empty());
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_questions_survive_and_repeats_go() {
        let lines = vec![
            " Why compost? ".to_owned(),
            "why compost?".to_owned(),
            "A statement.".to_owned(),
            String::new(),
            "How deep?".to_owned(),
        ];
        assert_eq!(questions_only(lines), vec!["Why compost?", "How deep?"]);
    }
}
