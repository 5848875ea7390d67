//! The built-in provider: answers every task from its inputs alone.

use chrono::Utc;
use serde_json::{Value, json};

use super::offline_insight;
use super::text::{
    cosine, extractive_summary, keywords, list_items, spelling_variants, term_vector, tokens,
};
use super::{
    AiProvider, AssistFuture, AssistTask, BioSource, Completion, PodcastBrief, ProjectBrief,
};

/// Needs no network and no model files.
#[derive(Debug, Clone, Copy, Default)]
pub struct OfflineProvider;

impl AiProvider for OfflineProvider {
    fn name(&self) -> &'static str {
        "offline"
    }

    fn complete<'a>(&'a self, task: &'a AssistTask) -> AssistFuture<'a> {
        let content = match task {
            AssistTask::Relevancy { project, podcast } => relevancy(project, podcast),
            AssistTask::AlternativeSpellings { value } => {
                json!({"spellings": spelling_variants(value, 10)})
            }
            AssistTask::GuestBio(source) => bio(source),
            AssistTask::Strategies { project, count } => strategies(project, *count),
            AssistTask::GuestPrep(show) => offline_insight::guest_prep(show),
            AssistTask::CustomPrompt {
                prompt,
                kind,
                context,
            } => offline_insight::prompt_answer(prompt, *kind, context),
            AssistTask::Summary { kind, context } => offline_insight::summary(*kind, context),
            AssistTask::DeepAnalysis(show) => offline_insight::deep_analysis(show),
        };
        Box::pin(async move {
            Ok(Completion {
                content,
                total_tokens: 0,
            })
        })
    }
}

fn project_text(project: &ProjectBrief) -> String {
    let mut text = project.name.clone();
    if let Some(purpose) = &project.purpose {
        text.push('\n');
        text.push_str(purpose);
    }
    for keyword in &project.keywords {
        text.push('\n');
        text.push_str(keyword);
    }
    text
}

fn podcast_text(podcast: &PodcastBrief) -> String {
    let mut parts = vec![podcast.title.clone()];
    parts.extend(podcast.description.clone());
    parts.extend(podcast.genres.iter().cloned());
    for episode in &podcast.recent_episodes {
        parts.push(episode.title.clone());
        parts.extend(episode.description.clone());
    }
    parts.extend(podcast.transcript_excerpt.clone());
    parts.join("\n")
}

/// The rating a similarity earns: the cut points of 1-5.
fn rating_of(similarity: f64) -> u8 {
    match similarity {
        s if s >= 0.30 => 5,
        s if s >= 0.18 => 4,
        s if s >= 0.09 => 3,
        s if s >= 0.03 => 2,
        _ => 1,
    }
}

fn relevancy(project: &ProjectBrief, podcast: &PodcastBrief) -> Value {
    let project_vector = term_vector(&project_text(project));
    let podcast_vector = term_vector(&podcast_text(podcast));
    let similarity = cosine(&project_vector, &podcast_vector);
    let rating = rating_of(similarity);
    let mut shared: Vec<(&String, f64)> = project_vector
        .iter()
        .filter_map(|(term, weight)| podcast_vector.get(term).map(|other| (term, weight * other)))
        .collect();
    shared.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let shared: Vec<&str> = shared
        .iter()
        .take(5)
        .map(|(term, _)| term.as_str())
        .collect();
    let mut strengths = Vec::new();
    let mut concerns = Vec::new();
    if !shared.is_empty() {
        strengths.push(format!(
            "Covers the project's themes: {}",
            shared.join(", ")
        ));
    }
    let keyword_hits: Vec<&String> = project
        .keywords
        .iter()
        .filter(|keyword| {
            let wanted = term_vector(keyword);
            !wanted.is_empty() && wanted.keys().all(|term| podcast_vector.contains_key(term))
        })
        .collect();
    let missing: Vec<&String> = project
        .keywords
        .iter()
        .filter(|keyword| !keyword_hits.contains(keyword))
        .collect();
    let mentioning = podcast
        .recent_episodes
        .iter()
        .filter(|episode| {
            let text = format!(
                "{} {}",
                episode.title,
                episode.description.as_deref().unwrap_or_default()
            );
            let vector = term_vector(&text);
            project_vector.keys().any(|term| vector.contains_key(term))
        })
        .count();
    if !podcast.recent_episodes.is_empty() {
        let line = format!(
            "{mentioning} of its {} recent episodes touch the project's topics",
            podcast.recent_episodes.len()
        );
        if mentioning * 2 >= podcast.recent_episodes.len() && mentioning > 0 {
            strengths.push(line);
        } else {
            concerns.push(line);
        }
    }
    if !missing.is_empty() {
        concerns.push(format!(
            "No sign of these project keywords: {}",
            missing
                .iter()
                .map(|keyword| keyword.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match podcast.last_episode_at {
        Some(last) => {
            let days = (Utc::now() - last).num_days();
            if days <= 30 {
                strengths.push(format!("Active: the latest episode is {days} days old"));
            } else if days > 90 {
                concerns.push(format!("Possibly inactive: no episode for {days} days"));
            }
        }
        None => concerns.push("No publication date is known for its episodes".to_owned()),
    }
    if podcast.total_episodes > 0 && podcast.total_episodes < 10 {
        concerns.push(format!(
            "A young show with {} episodes",
            podcast.total_episodes
        ));
    }
    let justification = if shared.is_empty() {
        format!(
            "\"{}\" shares no notable vocabulary with the project \"{}\" (similarity {:.2}), so it rates {rating} of 5.",
            podcast.title, project.name, similarity
        )
    } else {
        format!(
            "\"{}\" overlaps with the project \"{}\" on {} (similarity {:.2}), so it rates {rating} of 5.",
            podcast.title,
            project.name,
            shared.join(", "),
            similarity
        )
    };
    json!({
        "rating": rating,
        "justification": justification,
        "strengths": strengths,
        "concerns": concerns,
    })
}

fn bio(source: &BioSource) -> Value {
    let name = format!("{} {}", source.first_name.trim(), source.last_name.trim())
        .trim()
        .to_owned();
    let mut material: Vec<&str> = vec![source.short_bio.as_str()];
    material.extend(source.long_bio.as_deref());
    material.extend(source.additional_context.as_deref());
    material.extend(source.documents.iter().map(String::as_str));
    let short_sentences = extractive_summary(&[source.short_bio.as_str()], 2);
    let short_bio = if short_sentences.is_empty() {
        source.short_bio.trim().to_owned()
    } else {
        short_sentences.join(" ")
    };
    let mut long = Vec::new();
    if let Some(company) = source
        .company_name
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    {
        long.push(format!("{name} works with {}.", company.trim()));
    }
    for sentence in extractive_summary(&material, 6) {
        if !long.contains(&sentence) {
            long.push(sentence);
        }
    }
    let all_text = material.join("\n");
    let mut expertise = source.areas_of_expertise.clone();
    if expertise.is_empty() {
        // The bio names its guest in every other sentence: their names are not expertise.
        let named = tokens(&format!(
            "{name} {}",
            source.company_name.as_deref().unwrap_or_default()
        ));
        expertise = keywords(&all_text, 5 + named.len())
            .into_iter()
            .filter(|word| !named.contains(word))
            .take(5)
            .collect();
    }
    let mut topics = source.topics_to_discuss.clone();
    if topics.is_empty() {
        topics = expertise.iter().take(3).cloned().collect();
    }
    let split = |items: &[String]| -> Vec<String> {
        items.iter().flat_map(|item| list_items(item)).collect()
    };
    json!({
        "shortBio": short_bio,
        "longBio": long.join(" "),
        "goals": split(&source.goals),
        "thingsToAvoid": split(&source.things_to_avoid),
        "areasOfExpertise": split(&expertise),
        "topicsToDiscuss": split(&topics),
    })
}

fn cut(text: String, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text;
    }
    text.chars().take(max_chars).collect()
}

fn strategies(project: &ProjectBrief, count: usize) -> Value {
    let mut themes: Vec<String> = project.keywords.clone();
    for keyword in keywords(&project_text(project), 6) {
        if !themes
            .iter()
            .any(|theme| theme.eq_ignore_ascii_case(&keyword))
        {
            themes.push(keyword);
        }
    }
    if themes.is_empty() {
        themes.push(project.name.clone());
    }
    let purpose = project
        .purpose
        .clone()
        .unwrap_or_else(|| format!("the goals of {}", project.name));
    let approaches = [
        ("straightforward", "Shows about"),
        ("unconventional", "Adjacent audiences of"),
        ("longshot", "Big stages for"),
    ];
    let mut out = Vec::new();
    for index in 0..count {
        let theme = &themes[index % themes.len()];
        let (approach, prefix) = approaches[index % approaches.len()];
        let neighbours: Vec<String> = themes
            .iter()
            .filter(|other| *other != theme)
            .take(3)
            .cloned()
            .collect();
        let (blurb, why, persona) = match approach {
            "straightforward" => (
                format!(
                    "Search for podcasts whose titles and episodes are about {theme}, then shortlist the ones that interview guests."
                ),
                format!("Hosts of {theme} shows already serve the audience that {purpose} needs."),
                format!("Listeners who follow {theme} closely and act on what they hear."),
            ),
            "unconventional" => (
                format!(
                    "Look beyond {theme}: find shows on neighbouring subjects ({}) whose listeners share the same problems.",
                    neighbours.join(", ")
                ),
                format!("Less crowded than the obvious {theme} shows, so pitches stand out."),
                format!(
                    "People interested in {} who have not yet met {theme}.",
                    neighbours
                        .first()
                        .cloned()
                        .unwrap_or_else(|| "related topics".into())
                ),
            ),
            _ => (
                format!(
                    "Aim at the largest general-interest shows that have touched {theme} in a recent episode."
                ),
                "One appearance on a large show reaches more listeners than many niche ones."
                    .to_owned(),
                format!("Broad audiences curious about {theme}."),
            ),
        };
        let mut searches = vec![format!("\"{theme}\" podcast guest")];
        searches.extend(
            neighbours
                .iter()
                .take(2)
                .map(|n| format!("{theme} {n} podcast interview")),
        );
        out.push(json!({
            "title": cut(format!("{prefix} {theme}"), 100),
            "shortDescription": cut(format!("Podcasts where {theme} fits {purpose}."), 300),
            "strategyBlurb": cut(blurb, 1000),
            "audiencePersonaTarget": cut(persona, 500),
            "whyItsEffective": cut(why, 300),
            "strategyTrainingDocumentation": cut(format!(
                "Search episode titles and transcripts for \"{theme}\"; keep shows with an episode in the last 90 days; prefer shows with guests; rate each with the project's relevancy review before pitching."
            ), 1000),
            "keywordInspiration": std::iter::once(theme.clone()).chain(neighbours).collect::<Vec<_>>(),
            "exampleGoogleSearches": searches,
            "strategyApproach": approach,
            "strategyFocus": theme,
        }));
    }
    json!({"strategies": out})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflows::agent::{EpisodeBrief, review_relevancy};

    fn project() -> ProjectBrief {
        ProjectBrief {
            name: "Garden book launch".into(),
            purpose: Some("Promote a book on soil health and composting".into()),
            keywords: vec!["composting".into(), "soil health".into()],
            project_types: vec!["guest-booking".into()],
        }
    }

    fn podcast(title: &str, episode: &str) -> PodcastBrief {
        PodcastBrief {
            title: title.into(),
            description: Some(format!("{title} weekly")),
            last_episode_at: Some(Utc::now() - chrono::Duration::days(3)),
            total_episodes: 40,
            recent_episodes: vec![EpisodeBrief {
                title: episode.into(),
                ..EpisodeBrief::default()
            }],
            ..PodcastBrief::default()
        }
    }

    #[tokio::test]
    async fn a_matching_show_rates_above_an_unrelated_one() {
        let close = review_relevancy(
            &OfflineProvider,
            project(),
            podcast("Soil and Composting Hour", "Composting for soil health"),
        )
        .await
        .unwrap();
        let far = review_relevancy(
            &OfflineProvider,
            project(),
            podcast("Chip Earnings Daily", "Semiconductor margins"),
        )
        .await
        .unwrap();
        assert!(close.rating > far.rating, "{close:?} vs {far:?}");
        assert_eq!(far.rating, 1);
        assert!(close.strengths.iter().any(|s| s.contains("compost")));
        assert!(far.concerns.iter().any(|c| c.contains("composting")));
    }

    /// A guest profile made from "Maya Chen grows food on city rooftops…" listed "maya"
    /// and "chen" as her areas of expertise, and outreach pitched them.
    #[test]
    fn a_bio_does_not_list_the_guests_names_as_expertise() {
        let source = BioSource {
            first_name: "Maya".into(),
            last_name: "Chen".into(),
            company_name: Some("Rootwise".into()),
            short_bio: "Maya Chen grows food on city rooftops. Maya Chen teaches rooftop \
                        farming at Rootwise. Rootwise trains city growers."
                .into(),
            long_bio: None,
            goals: Vec::new(),
            areas_of_expertise: Vec::new(),
            topics_to_discuss: Vec::new(),
            things_to_avoid: Vec::new(),
            additional_context: None,
            documents: Vec::new(),
        };
        let value = bio(&source);
        let expertise: Vec<&str> = value["areasOfExpertise"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item.as_str().unwrap())
            .collect();
        assert!(!expertise.is_empty());
        for name in ["maya", "chen", "rootwise"] {
            assert!(!expertise.contains(&name), "{expertise:?}");
        }
        assert!(expertise.contains(&"rooftop"), "{expertise:?}");
    }

    #[test]
    fn strategies_respect_the_text_limits() {
        let value = strategies(&project(), 4);
        let list = value["strategies"].as_array().unwrap();
        assert_eq!(list.len(), 4);
        for strategy in list {
            assert!(strategy["title"].as_str().unwrap().chars().count() <= 100);
            assert!(
                strategy["whyItsEffective"]
                    .as_str()
                    .unwrap()
                    .chars()
                    .count()
                    <= 300
            );
        }
        assert_eq!(list[1]["strategyApproach"], "unconventional");
    }
}
