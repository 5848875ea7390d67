//! Plain text tools the offline provider is built from: word tokens, term vectors and
//! their cosine similarity, sentence splitting, extractive summaries, keywords and
//! phonetic spelling variants.

use std::collections::HashMap;

const STOPWORDS: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was",
    "one", "our", "out", "has", "him", "his", "how", "its", "who", "did", "get", "may", "also",
    "use", "she", "too", "this", "that", "with", "have", "from", "they", "will", "your", "what",
    "when", "where", "which", "their", "there", "them", "then", "than", "been", "were", "into",
    "about", "more", "some", "would", "could", "should", "just", "like", "over", "such", "only",
    "other", "these", "those", "each", "very", "much", "many", "most", "here", "why", "because",
    "while", "after", "before", "being", "does", "doing", "episode", "episodes", "podcast", "show",
    "today", "week", "talk", "talks", "join", "joins", "listen", "new", "via", "www", "http",
    "https", "com",
];

/// Lowercase word tokens of at least 3 letters, stopwords removed, plural `s` folded.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= 3)
        .map(str::to_lowercase)
        .filter(|word| !word.chars().all(|c| c.is_ascii_digit()))
        .filter(|word| !STOPWORDS.contains(&word.as_str()))
        .map(|word| fold(&word))
        .collect()
}

fn fold(word: &str) -> String {
    if word.chars().count() > 4 && word.ends_with('s') && !word.ends_with("ss") {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    }
}

/// Term weights `1 + ln(count)` of a text.
pub fn term_vector(text: &str) -> HashMap<String, f64> {
    let mut counts: HashMap<String, f64> = HashMap::new();
    for token in tokens(text) {
        *counts.entry(token).or_default() += 1.0;
    }
    counts
        .into_iter()
        .map(|(term, count)| (term, 1.0 + count.ln()))
        .collect()
}

/// Cosine similarity of two term vectors (0 when either is empty).
pub fn cosine(a: &HashMap<String, f64>, b: &HashMap<String, f64>) -> f64 {
    let dot: f64 = a
        .iter()
        .filter_map(|(term, weight)| b.get(term).map(|other| weight * other))
        .sum();
    let norm = |vector: &HashMap<String, f64>| vector.values().map(|w| w * w).sum::<f64>().sqrt();
    let denominator = norm(a) * norm(b);
    if denominator == 0.0 {
        0.0
    } else {
        dot / denominator
    }
}

/// Sentences of a text: split after `.`, `!` or `?` followed by white space, and at
/// line breaks; trimmed, empty ones dropped.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|next| next.is_whitespace())
            {
                let sentence = current.trim();
                if !sentence.is_empty() {
                    out.push(sentence.to_owned());
                }
                current.clear();
            }
        }
        let rest = current.trim();
        if !rest.is_empty() {
            out.push(rest.to_owned());
        }
    }
    out
}

/// The `count` sentences of `texts` that best carry their most frequent terms, in
/// their original order (sentences of 4 to 60 words only).
pub fn extractive_summary(texts: &[&str], count: usize) -> Vec<String> {
    let all: Vec<String> = texts.iter().flat_map(|text| sentences(text)).collect();
    let mut frequencies: HashMap<String, f64> = HashMap::new();
    for sentence in &all {
        for token in tokens(sentence) {
            *frequencies.entry(token).or_default() += 1.0;
        }
    }
    let mut scored: Vec<(usize, f64)> = all
        .iter()
        .enumerate()
        .filter(|(_, sentence)| (4..=60).contains(&sentence.split_whitespace().count()))
        .map(|(index, sentence)| {
            let words = tokens(sentence);
            let score = words
                .iter()
                .map(|word| frequencies.get(word).copied().unwrap_or(0.0))
                .sum::<f64>()
                / (words.len().max(1) as f64).sqrt();
            (index, score)
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen: Vec<usize> = scored
        .into_iter()
        .take(count)
        .map(|(index, _)| index)
        .collect();
    chosen.sort_unstable();
    let mut seen = Vec::new();
    chosen
        .into_iter()
        .filter_map(|index| {
            let sentence = all[index].clone();
            (!seen.contains(&sentence)).then(|| {
                seen.push(sentence.clone());
                sentence
            })
        })
        .collect()
}

/// The `count` most frequent terms of a text, ties by first appearance.
pub fn keywords(text: &str, count: usize) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for token in tokens(text) {
        let entry = counts.entry(token.clone()).or_default();
        if *entry == 0 {
            order.push(token);
        }
        *entry += 1;
    }
    let mut ranked: Vec<(usize, String)> = order.into_iter().enumerate().collect();
    ranked.sort_by(|a, b| counts[&b.1].cmp(&counts[&a.1]).then(a.0.cmp(&b.0)));
    ranked
        .into_iter()
        .take(count)
        .map(|(_, term)| term)
        .collect()
}

/// Items of free text lists: split at new lines, semicolons and commas, trimmed, with
/// list bullets removed; empty items dropped.
pub fn list_items(text: &str) -> Vec<String> {
    text.split(['\n', ';', ','])
        .map(|item| item.trim().trim_start_matches(['-', '*', '•']).trim())
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Sound-alike rewrites applied one at a time to every word of a name.
const SOUND_ALIKES: &[(&str, &str)] = &[
    ("ph", "f"),
    ("f", "ph"),
    ("ck", "k"),
    ("c", "k"),
    ("k", "c"),
    ("ie", "y"),
    ("y", "ie"),
    ("y", "i"),
    ("i", "y"),
    ("ei", "ie"),
    ("ie", "ei"),
    ("ou", "u"),
    ("s", "z"),
    ("z", "s"),
    ("sen", "son"),
    ("son", "sen"),
    ("mann", "man"),
    ("man", "mann"),
    ("th", "t"),
    ("ee", "ea"),
    ("ea", "ee"),
    ("x", "ks"),
    ("qu", "kw"),
    ("w", "v"),
    ("ai", "ay"),
    ("ay", "ai"),
];

fn match_case(template: &str, word: &str) -> String {
    let capitalised = template.chars().next().is_some_and(char::is_uppercase);
    if !capitalised {
        return word.to_owned();
    }
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Phonetically plausible spellings of a name as automatic transcripts write it:
/// sound-alike letter swaps, doubled or undoubled consonants, and the words run
/// together or hyphenated. At most `limit`, none equal to the input (ignoring case).
pub fn spelling_variants(value: &str, limit: usize) -> Vec<String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let original = value.trim().to_lowercase();
    let mut out: Vec<String> = Vec::new();
    let push = |candidate: String, out: &mut Vec<String>| {
        let key = candidate.to_lowercase();
        if !candidate.is_empty() && key != original && !out.iter().any(|c| c.to_lowercase() == key)
        {
            out.push(candidate);
        }
    };
    for (index, word) in words.iter().enumerate() {
        let lower = word.to_lowercase();
        let mut variants: Vec<String> = Vec::new();
        for (from, to) in SOUND_ALIKES {
            if let Some(position) = lower.find(from) {
                let mut changed = lower.clone();
                changed.replace_range(position..position + from.len(), to);
                variants.push(changed);
            }
        }
        let chars: Vec<char> = lower.chars().collect();
        for pair in 0..chars.len().saturating_sub(1) {
            if chars[pair] == chars[pair + 1] && !"aeiou".contains(chars[pair]) {
                let mut single = chars.clone();
                single.remove(pair);
                variants.push(single.into_iter().collect());
                break;
            }
        }
        if let Some(position) = chars.iter().rposition(|c| "lnrtsmp".contains(*c))
            && chars.get(position + 1) != Some(&chars[position])
            && position > 0
            && chars.get(position.wrapping_sub(1)) != Some(&chars[position])
        {
            let mut doubled = chars.clone();
            doubled.insert(position, chars[position]);
            variants.push(doubled.into_iter().collect());
        }
        for variant in variants {
            let mut replaced: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
            replaced[index] = match_case(word, &variant);
            push(replaced.join(" "), &mut out);
        }
    }
    if words.len() > 1 {
        push(words.concat(), &mut out);
        push(words.join("-"), &mut out);
    }
    out.truncate(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_texts_score_higher_than_unrelated_ones() {
        let garden = term_vector("Growing tomatoes and composting soil in a small garden");
        let close = term_vector("Soil health, compost and tomatoes for garden beginners");
        let far = term_vector("Quarterly earnings of semiconductor companies");
        assert!(cosine(&garden, &close) > cosine(&garden, &far));
        assert_eq!(cosine(&garden, &HashMap::new()), 0.0);
        let same = cosine(&garden, &garden);
        assert!((same - 1.0).abs() < 1e-9, "{same}");
    }

    #[test]
    fn sentences_split_at_terminal_punctuation_only() {
        let parts = sentences("Dr. Smith spoke at 3.5 km. Then? Yes!\nNext line");
        assert_eq!(
            parts,
            vec![
                "Dr.",
                "Smith spoke at 3.5 km.",
                "Then?",
                "Yes!",
                "Next line"
            ]
        );
    }

    #[test]
    fn summaries_keep_the_central_sentences_in_order() {
        let text = "Soil health matters for every garden bed. Cats are nice animals to keep. \
                    Good soil makes a garden bed thrive all season. The weather was cloudy today.";
        let summary = extractive_summary(&[text], 2);
        assert_eq!(
            summary,
            vec![
                "Soil health matters for every garden bed.",
                "Good soil makes a garden bed thrive all season."
            ]
        );
    }

    #[test]
    fn spelling_variants_sound_alike_and_differ_from_the_input() {
        let variants = spelling_variants("Stephen Jackson", 10);
        assert!(variants.len() >= 5, "{variants:?}");
        assert!(
            variants.iter().any(|v| v == "Stefen Jackson"),
            "{variants:?}"
        );
        assert!(
            variants.iter().any(|v| v == "Stephen Jakson"),
            "{variants:?}"
        );
        assert!(
            variants
                .iter()
                .all(|v| v.to_lowercase() != "stephen jackson")
        );
        assert!(spelling_variants("", 10).is_empty());
    }

    #[test]
    fn list_items_split_free_text() {
        assert_eq!(
            list_items("- soil\n* compost; seeds, water"),
            vec!["soil", "compost", "seeds", "water"]
        );
    }
}
