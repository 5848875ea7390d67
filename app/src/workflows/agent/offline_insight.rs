//! The offline provider's insight tasks, computed from the material alone: questions
//! are mined from what the show really says (sentences of titles, show notes and
//! transcript cues that end with a question mark), themes are its most frequent terms,
//! summaries and quotes are its most central sentences, and sponsors and people come
//! from the catalog and from ad-read phrases.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::insight::{ContextKind, EpisodeMaterial, ShowMaterial};
use super::text::{cosine, extractive_summary, keywords, sentences, term_vector, tokens};

/// Themes a guest prep groups questions under (besides the off-theme group).
const PREP_THEMES: usize = 5;
/// Questions per theme that count as very likely, and curveballs per theme.
const VERY_LIKELY_PER_THEME: usize = 5;
const CURVEBALLS_PER_THEME: usize = 3;
/// Passages an answer to a prompt quotes.
const ANSWER_PASSAGES: usize = 5;
/// Quotes and questions a deep analysis lists.
const ANALYSIS_QUOTES: usize = 5;
const ANALYSIS_QUESTIONS: usize = 15;
/// Phrases that open an ad read, followed by the sponsor's name.
const AD_READ_OPENERS: &[&str] = &[
    "brought to you by ",
    "sponsored by ",
    "thanks to our sponsor ",
    "support for this show comes from ",
    "support for this episode comes from ",
];
/// Phrases that mark an ad read whose sponsor is named elsewhere.
const AD_READ_MARKERS: &[&str] = &["promo code", "offer code", "use code", "use the code"];

/// One sentence of the material and where it was said.
#[derive(Debug, Clone)]
struct Line {
    text: String,
    start_second: Option<f64>,
    speaker: Option<String>,
    episode: usize,
}

fn push_sentences(out: &mut Vec<Line>, text: &str, episode: usize, start: Option<f64>) {
    for sentence in sentences(text) {
        out.push(Line {
            text: sentence,
            start_second: start,
            speaker: None,
            episode,
        });
    }
}

fn transcript_lines(out: &mut Vec<Line>, episode: &EpisodeMaterial, index: usize) {
    for cue in &episode.transcript {
        for sentence in sentences(&cue.text) {
            out.push(Line {
                text: sentence,
                start_second: cue.start_second,
                speaker: cue.speaker.clone(),
                episode: index,
            });
        }
    }
}

/// Every sentence of the show: titles, notes and transcripts of each episode.
fn show_lines(show: &ShowMaterial) -> Vec<Line> {
    let mut out = Vec::new();
    for (index, episode) in show.episodes.iter().enumerate() {
        push_sentences(&mut out, &episode.title, index, None);
        if let Some(notes) = &episode.show_notes {
            push_sentences(&mut out, notes, index, None);
        }
        transcript_lines(&mut out, episode, index);
    }
    out
}

/// The sentences a context of `kind` holds.
fn context_lines(kind: ContextKind, show: &ShowMaterial) -> Vec<Line> {
    let mut out = Vec::new();
    match kind {
        ContextKind::Podcast => {
            if let Some(description) = &show.description {
                push_sentences(&mut out, description, usize::MAX, None);
            }
            for (index, episode) in show.episodes.iter().enumerate() {
                push_sentences(&mut out, &episode.title, index, None);
                if let Some(notes) = &episode.show_notes {
                    push_sentences(&mut out, notes, index, None);
                }
            }
        }
        ContextKind::Episode => {
            if let Some(episode) = show.episodes.first() {
                push_sentences(&mut out, &episode.title, 0, None);
                if let Some(notes) = &episode.show_notes {
                    push_sentences(&mut out, notes, 0, None);
                }
            }
        }
        ContextKind::Transcript => {
            if let Some(episode) = show.episodes.first() {
                transcript_lines(&mut out, episode, 0);
            }
        }
    }
    out
}

fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// A question as asked: ends with `?`, 3 to 40 words, no link.
fn is_question(text: &str) -> bool {
    text.ends_with('?') && (3..=40).contains(&word_count(text)) && !text.contains("://")
}

/// The questions of `lines`, first occurrence of each (ignoring case).
fn questions(lines: &[Line]) -> Vec<&Line> {
    let mut seen = HashSet::new();
    lines
        .iter()
        .filter(|line| is_question(&line.text))
        .filter(|line| seen.insert(line.text.to_lowercase()))
        .collect()
}

/// How central each line is: the summed frequency of its terms over all lines,
/// divided by the square root of its length.
fn centrality(lines: &[Line]) -> Vec<f64> {
    let mut frequencies: HashMap<String, f64> = HashMap::new();
    for line in lines {
        for token in tokens(&line.text) {
            *frequencies.entry(token).or_default() += 1.0;
        }
    }
    lines
        .iter()
        .map(|line| {
            let words = tokens(&line.text);
            words
                .iter()
                .map(|word| frequencies.get(word).copied().unwrap_or(0.0))
                .sum::<f64>()
                / (words.len().max(1) as f64).sqrt()
        })
        .collect()
}

fn passage(line: &Line) -> Value {
    let mut value = json!({"text": line.text, "startSecond": line.start_second});
    if let Some(speaker) = &line.speaker {
        value["speaker"] = json!(speaker);
    }
    value
}

/// `1:02:09` or `4:05`.
fn clock(seconds: f64) -> String {
    let total = seconds.max(0.0) as u64;
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{secs:02}")
    } else {
        format!("{minutes}:{secs:02}")
    }
}

fn all_text(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|line| line.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------- guest prep

pub(super) fn guest_prep(show: &ShowMaterial) -> Value {
    let lines = show_lines(show);
    let text = all_text(&lines);
    let themes = keywords(&text, PREP_THEMES);
    // In how many episodes each term occurs: a question on terms that recur across
    // episodes is one the host keeps coming back to.
    let mut episode_terms: HashMap<usize, HashSet<String>> = HashMap::new();
    for line in &lines {
        episode_terms
            .entry(line.episode)
            .or_default()
            .extend(tokens(&line.text));
    }
    let spread = |term: &String| {
        episode_terms
            .values()
            .filter(|terms| terms.contains(term))
            .count() as f64
    };
    let asked = questions(&lines);
    let mut assigned = vec![false; asked.len()];
    let mut groups = Vec::new();
    for theme in &themes {
        let mut members: Vec<(f64, usize)> = Vec::new();
        for (index, question) in asked.iter().enumerate() {
            let words = tokens(&question.text);
            if assigned[index] || !words.contains(theme) {
                continue;
            }
            assigned[index] = true;
            let score = words.iter().map(spread).sum::<f64>() / (words.len() as f64).sqrt();
            members.push((score, index));
        }
        if members.is_empty() {
            continue;
        }
        members.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let likely_count = members.len().div_ceil(2).min(VERY_LIKELY_PER_THEME);
        let text_of = |entry: &(f64, usize)| asked[entry.1].text.clone();
        groups.push(json!({
            "description": format!("Questions about {theme}"),
            "veryLikely": members.iter().take(likely_count).map(text_of).collect::<Vec<_>>(),
            "curveballs": members.iter().skip(likely_count).take(CURVEBALLS_PER_THEME).map(text_of).collect::<Vec<_>>(),
        }));
    }
    let off_theme: Vec<String> = asked
        .iter()
        .zip(&assigned)
        .filter(|(_, assigned)| !**assigned)
        .take(CURVEBALLS_PER_THEME)
        .map(|(question, _)| question.text.clone())
        .collect();
    if !off_theme.is_empty() {
        groups.push(json!({
            "description": "Off-theme questions the show has asked",
            "veryLikely": [],
            "curveballs": off_theme,
        }));
    }
    let top_question = groups
        .first()
        .and_then(|group| group["veryLikely"][0].as_str())
        .map(str::to_owned);
    json!({
        "groupedLikelyQuestions": groups,
        "criticalActions": critical_actions(show, &themes, top_question.as_deref(), asked.len()),
        "summary": prep_summary(show, &themes, asked.len()),
    })
}

fn critical_actions(
    show: &ShowMaterial,
    themes: &[String],
    top_question: Option<&str>,
    question_count: usize,
) -> Vec<String> {
    let mut actions = Vec::new();
    if let Some(latest) = show.episodes.first() {
        let when = latest
            .published_at
            .map(|at| format!(" (published {})", at.format("%Y-%m-%d")))
            .unwrap_or_default();
        actions.push(format!(
            "Listen to the latest episode, \"{}\"{when}, before recording.",
            latest.title
        ));
    }
    if !show.host_names.is_empty() {
        actions.push(format!(
            "Address the host by name: {}.",
            show.host_names.join(", ")
        ));
    }
    if !themes.is_empty() {
        actions.push(format!(
            "Prepare a concrete story or example for each recurring theme: {}.",
            themes.join(", ")
        ));
    }
    match top_question {
        Some(question) => actions.push(format!(
            "Rehearse a two-minute answer to \"{question}\""
        )),
        None if question_count == 0 => actions.push(
            "No questions were found in the recent titles, show notes or transcripts: ask the host for the topics in advance."
                .to_owned(),
        ),
        None => {}
    }
    let mut sponsors: Vec<&str> = Vec::new();
    for episode in &show.episodes {
        for sponsor in &episode.known_sponsors {
            if !sponsors
                .iter()
                .any(|known| known.eq_ignore_ascii_case(sponsor))
            {
                sponsors.push(sponsor);
            }
        }
    }
    if !sponsors.is_empty() {
        actions.push(format!(
            "The show reads ads for {}: do not criticise them on air.",
            sponsors.join(", ")
        ));
    }
    let transcribed = show
        .episodes
        .iter()
        .filter(|episode| !episode.transcript.is_empty())
        .count();
    if transcribed < show.episodes.len() {
        let coverage = match transcribed {
            0 => format!(
                "None of the {} recent episodes has a transcript",
                show.episodes.len()
            ),
            n => format!(
                "Only {n} of the {} recent episodes have a transcript",
                show.episodes.len()
            ),
        };
        actions.push(format!(
            "{coverage}: listen to one to learn the host's interview style."
        ));
    }
    actions
}

fn prep_summary(show: &ShowMaterial, themes: &[String], question_count: usize) -> String {
    let mut out = format!("## Preparing for {}\n", show.title);
    if let Some(description) = &show.description {
        let about = extractive_summary(&[description.as_str()], 2);
        if !about.is_empty() {
            out.push_str(&format!("\n{}\n", about.join(" ")));
        }
    }
    if !show.host_names.is_empty() {
        out.push_str(&format!("\n**Hosts:** {}\n", show.host_names.join(", ")));
    }
    if !themes.is_empty() {
        out.push_str(&format!("\n**Recurring themes:** {}\n", themes.join(", ")));
    }
    if !show.episodes.is_empty() {
        out.push_str("\n### Recent episodes\n\n");
        for episode in &show.episodes {
            let when = episode
                .published_at
                .map(|at| format!("{} — ", at.format("%Y-%m-%d")))
                .unwrap_or_default();
            out.push_str(&format!("- {when}{}\n", episode.title));
        }
    }
    let found = match question_count {
        1 => "1 question was".to_owned(),
        n => format!("{n} questions were"),
    };
    out.push_str(&format!(
        "\n{found} found in the titles, show notes and transcripts of the last {} episodes.\n",
        show.episodes.len()
    ));
    out
}

// ---------------------------------------------------------------- summaries and prompts

fn context_name(kind: ContextKind, show: &ShowMaterial) -> String {
    match (kind, show.episodes.first()) {
        (ContextKind::Podcast, _) | (_, None) => format!("the podcast \"{}\"", show.title),
        (ContextKind::Episode, Some(episode)) => format!("the episode \"{}\"", episode.title),
        (ContextKind::Transcript, Some(episode)) => {
            format!("the transcript of \"{}\"", episode.title)
        }
    }
}

pub(super) fn summary(kind: ContextKind, show: &ShowMaterial) -> Value {
    let lines = context_lines(kind, show);
    let texts: Vec<&str> = lines.iter().map(|line| line.text.as_str()).collect();
    let mut summary = extractive_summary(&texts, 3).join(" ");
    if summary.is_empty() {
        summary = texts.iter().take(3).copied().collect::<Vec<_>>().join(" ");
    }
    if summary.is_empty() {
        summary = format!("{} has no text to summarise.", context_name(kind, show));
    }
    json!({
        "summary": summary,
        "keyPoints": keywords(&all_text(&lines), 8),
        "questions": questions(&lines).iter().take(ANALYSIS_QUESTIONS).map(|line| line.text.clone()).collect::<Vec<_>>(),
    })
}

/// The passages of the context nearest the prompt's words (questions only when the
/// prompt asks for questions); its central passages when none share a word with it.
pub(super) fn prompt_answer(prompt: &str, kind: ContextKind, show: &ShowMaterial) -> Value {
    let lines = context_lines(kind, show);
    let name = context_name(kind, show);
    let wants_questions = prompt.to_lowercase().contains("question");
    let candidates: Vec<Line> = lines
        .iter()
        .filter(|line| !wants_questions || is_question(&line.text))
        .cloned()
        .collect();
    if candidates.is_empty() {
        let what = if wants_questions { "questions" } else { "text" };
        return json!({"answer": format!("{} holds no {what} to answer from.", capitalised(&name)), "sources": []});
    }
    let wanted = term_vector(prompt);
    let mut scored: Vec<(f64, usize)> = candidates
        .iter()
        .enumerate()
        .map(|(index, line)| (cosine(&term_vector(&line.text), &wanted), index))
        .filter(|(score, _)| *score > 0.0)
        .collect();
    let matched = !scored.is_empty();
    if !matched {
        scored = centrality(&candidates)
            .into_iter()
            .enumerate()
            .map(|(index, score)| (score, index))
            .collect();
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = scored
        .iter()
        .take(ANSWER_PASSAGES)
        .map(|(_, index)| *index)
        .collect();
    chosen.sort_unstable();
    let picked: Vec<&Line> = chosen.iter().map(|index| &candidates[*index]).collect();
    let mut answer = if matched {
        format!(
            "From {name}, the passages that bear on \"{}\":\n\n",
            prompt.trim()
        )
    } else {
        format!("Nothing in {name} shares a word with the prompt; its central passages are:\n\n")
    };
    for line in &picked {
        match line.start_second {
            Some(at) => answer.push_str(&format!("- {} ({})\n", line.text, clock(at))),
            None => answer.push_str(&format!("- {}\n", line.text)),
        }
    }
    json!({
        "answer": answer,
        "sources": picked.iter().map(|line| passage(line)).collect::<Vec<_>>(),
    })
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------- deep analysis

pub(super) fn deep_analysis(show: &ShowMaterial) -> Value {
    let Some(episode) = show.episodes.first() else {
        return json!({"summary": format!("\"{}\" has no episode to analyse.", show.title)});
    };
    let mut notes = Vec::new();
    push_sentences(&mut notes, &episode.title, 0, None);
    if let Some(text) = &episode.show_notes {
        push_sentences(&mut notes, text, 0, None);
    }
    let mut spoken = Vec::new();
    transcript_lines(&mut spoken, episode, 0);
    let lines: Vec<Line> = notes.iter().chain(&spoken).cloned().collect();
    let texts: Vec<&str> = lines
        .iter()
        .skip(1)
        .map(|line| line.text.as_str())
        .collect();
    let mut summary = extractive_summary(&texts, 3).join(" ");
    if summary.is_empty() {
        summary = texts.iter().take(3).copied().collect::<Vec<_>>().join(" ");
    }
    if summary.is_empty() {
        summary = format!(
            "\"{}\" has no show notes or transcript to analyse.",
            episode.title
        );
    }
    json!({
        "summary": summary,
        "topics": keywords(&all_text(&lines), 8),
        "people": people(show, episode, &spoken),
        "sponsors": sponsors(episode, &spoken, &notes),
        "quotes": quotes(&spoken),
        "questions": spoken.iter().chain(&notes).filter(|line| is_question(&line.text))
            .take(ANALYSIS_QUESTIONS).map(passage).collect::<Vec<_>>(),
    })
}

fn first_saying(lines: &[Line], needle: &str) -> Option<f64> {
    let needle = needle.to_lowercase();
    lines
        .iter()
        .find(|line| line.text.to_lowercase().contains(&needle))
        .and_then(|line| line.start_second)
}

fn people(show: &ShowMaterial, episode: &EpisodeMaterial, spoken: &[Line]) -> Vec<Value> {
    let mut named: Vec<(String, String)> = Vec::new();
    let hosts = show
        .host_names
        .iter()
        .map(|name| (name.clone(), "host".to_owned()));
    let listed = episode
        .known_people
        .iter()
        .map(|person| (person.name.clone(), person.role.clone()));
    for (name, role) in listed.chain(hosts) {
        let name = name.trim().to_owned();
        if !name.is_empty()
            && !named
                .iter()
                .any(|(known, _)| known.eq_ignore_ascii_case(&name))
        {
            named.push((name, role));
        }
    }
    named
        .into_iter()
        .map(|(name, role)| {
            let surname = name
                .split_whitespace()
                .last()
                .filter(|word| word.chars().count() >= 3 && *word != name);
            let at = first_saying(spoken, &name)
                .or_else(|| surname.and_then(|s| first_saying(spoken, s)));
            json!({"name": name, "role": role, "mentionedAtSecond": at})
        })
        .collect()
}

/// The name an ad-read opener introduces: the words after it up to punctuation (at
/// most five).
fn named_after<'a>(text: &'a str, opener: &str) -> Option<&'a str> {
    let lower = text.to_lowercase();
    let start = lower.find(opener)? + opener.len();
    let rest = text.get(start..)?;
    let end = rest
        .find(['.', ',', ';', ':', '!', '?', '(', '—'])
        .unwrap_or(rest.len());
    let words: Vec<&str> = rest[..end].split_whitespace().take(5).collect();
    let name = words.join(" ");
    if name.is_empty() {
        return None;
    }
    let from = rest.find(words[0])?;
    let to = rest.find(words[words.len() - 1])? + words[words.len() - 1].len();
    rest.get(from..to)
}

fn sponsors(episode: &EpisodeMaterial, spoken: &[Line], notes: &[Line]) -> Vec<Value> {
    let mut out: Vec<(String, Option<&Line>)> = Vec::new();
    let said = |name: &str| {
        let needle = name.to_lowercase();
        spoken
            .iter()
            .chain(notes)
            .find(|line| line.text.to_lowercase().contains(&needle))
    };
    for name in &episode.known_sponsors {
        if !out
            .iter()
            .any(|(known, _)| known.eq_ignore_ascii_case(name))
        {
            out.push((name.clone(), said(name)));
        }
    }
    for line in spoken.iter().chain(notes) {
        let lower = line.text.to_lowercase();
        if out
            .iter()
            .any(|(name, _)| lower.contains(&name.to_lowercase()))
        {
            continue;
        }
        let opened = AD_READ_OPENERS
            .iter()
            .find_map(|opener| named_after(&line.text, opener));
        if let Some(name) = opened {
            out.push((name.to_owned(), Some(line)));
        } else if AD_READ_MARKERS.iter().any(|marker| lower.contains(marker))
            && line.start_second.is_some()
        {
            out.push(("Unnamed ad read".to_owned(), Some(line)));
        }
    }
    out.into_iter()
        .map(|(name, line)| {
            json!({
                "name": name,
                "snippet": line.map(|line| line.text.clone()),
                "startSecond": line.and_then(|line| line.start_second),
            })
        })
        .collect()
}

/// The most central spoken sentences (6 to 40 words, not questions), in time order.
fn quotes(spoken: &[Line]) -> Vec<Value> {
    let eligible: Vec<Line> = spoken
        .iter()
        .filter(|line| line.start_second.is_some())
        .filter(|line| (6..=40).contains(&word_count(&line.text)) && !line.text.ends_with('?'))
        .cloned()
        .collect();
    let mut scored: Vec<(f64, usize)> = centrality(&eligible)
        .into_iter()
        .enumerate()
        .map(|(index, score)| (score, index))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = scored
        .into_iter()
        .take(ANALYSIS_QUOTES)
        .map(|(_, index)| index)
        .collect();
    chosen.sort_unstable();
    chosen
        .into_iter()
        .map(|index| passage(&eligible[index]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflows::agent::insight::Passage;

    fn episode(title: &str, notes: &str, cues: &[(f64, &str)]) -> EpisodeMaterial {
        EpisodeMaterial {
            episode_slug: title.to_lowercase().replace(' ', "-"),
            title: title.into(),
            show_notes: Some(notes.into()),
            transcript: cues
                .iter()
                .map(|(at, text)| Passage {
                    text: (*text).into(),
                    start_second: Some(*at),
                    speaker: None,
                })
                .collect(),
            ..EpisodeMaterial::default()
        }
    }

    fn show() -> ShowMaterial {
        ShowMaterial {
            title: "Garden Hour".into(),
            host_names: vec!["Ann Lee".into()],
            episodes: vec![
                episode(
                    "Compost basics",
                    "We talk compost and soil. How hot should compost get? Is soil testing worth it?",
                    &[
                        (
                            12.0,
                            "This episode is brought to you by Acme Seeds, use code GROW.",
                        ),
                        (
                            65.0,
                            "Ann Lee says compost turns kitchen scraps into rich garden soil.",
                        ),
                        (90.0, "Why do worms love compost so much?"),
                    ],
                ),
                episode(
                    "Soil life",
                    "Soil microbes and compost teas. What lives in healthy soil?",
                    &[],
                ),
            ],
            ..ShowMaterial::default()
        }
    }

    #[test]
    fn prep_questions_are_sentences_of_the_material_grouped_by_theme() {
        let value = guest_prep(&show());
        let groups = value["groupedLikelyQuestions"].as_array().unwrap();
        let mut all = Vec::new();
        for group in groups {
            for key in ["veryLikely", "curveballs"] {
                for question in group[key].as_array().unwrap() {
                    all.push(question.as_str().unwrap().to_owned());
                }
            }
        }
        all.sort();
        assert_eq!(
            all,
            vec![
                "How hot should compost get?",
                "Is soil testing worth it?",
                "What lives in healthy soil?",
                "Why do worms love compost so much?",
            ]
        );
        assert!(
            groups[0]["description"]
                .as_str()
                .unwrap()
                .starts_with("Questions about ")
        );
        assert!(
            value["summary"]
                .as_str()
                .unwrap()
                .contains("- Compost basics")
        );
        let actions = value["criticalActions"].as_array().unwrap();
        assert!(actions[0].as_str().unwrap().contains("\"Compost basics\""));
    }

    #[test]
    fn deep_analysis_times_the_ad_read_and_the_people() {
        let value = deep_analysis(&ShowMaterial {
            episodes: vec![show().episodes[0].clone()],
            ..show()
        });
        assert_eq!(value["sponsors"][0]["name"], "Acme Seeds");
        assert_eq!(value["sponsors"][0]["startSecond"], 12.0);
        assert_eq!(value["people"][0]["name"], "Ann Lee");
        assert_eq!(value["people"][0]["mentionedAtSecond"], 65.0);
        assert_eq!(
            value["questions"][0]["text"],
            "Why do worms love compost so much?"
        );
        assert_eq!(value["questions"][0]["startSecond"], 90.0);
        assert_eq!(value["quotes"][0]["startSecond"], 12.0);
    }

    #[test]
    fn prompt_answers_quote_the_nearest_passages() {
        let value = prompt_answer(
            "What do worms do?",
            ContextKind::Transcript,
            &ShowMaterial {
                episodes: vec![show().episodes[0].clone()],
                ..show()
            },
        );
        assert_eq!(
            value["sources"][0]["text"],
            "Why do worms love compost so much?"
        );
        assert!(value["answer"].as_str().unwrap().contains("(1:30)"));
        let questions = prompt_answer("List the questions", ContextKind::Podcast, &show());
        assert_eq!(questions["sources"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn clock_reads_hours_when_needed() {
        assert_eq!(clock(3729.0), "1:02:09");
        assert_eq!(clock(65.0), "1:05");
    }
}
