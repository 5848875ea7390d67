//! Abbreviations and what they stand for: "ai" and "artificial intelligence", "sci-fi"
//! and "science fiction", "f1" and "formula one". A show that writes one form is about
//! the same thing as a query that types the other, and neither the stemmer nor the
//! spelling table (one word for one word) can say so.
//!
//! Where a term holds one form of an entry, each of that form's words also matches the
//! entry's other forms, at a share of the field's weight (`Weights::abbreviation`): a
//! one-word form as another token of the word (in its BM25F frequency), a form of
//! several words as a phrase of them in the fields with positions. A show holding only
//! "artificial intelligence" so holds the query "ai", and a show holding only "AI" holds
//! both words of "artificial intelligence".
//!
//! The entries are written out and kept to forms that mean one thing in a podcast's text:
//! "us" (a pronoun), "un" and "la" (articles in other languages), "ar", "pr", "ml"
//! (millilitres) and "vc" (the Viet Cong) are left out.

use crate::spelling::number_word;
use crate::words::TermWords;

/// A form: its words, folded.
pub type Form = &'static [&'static str];

/// Each entry: its forms, each a sequence of words as the plain analyzer folds them
/// (lowercase, ASCII; "sci-fi" is "sci fi"), a small number as a word: "world war two"
/// is also "world war ii" and "world war 2", in the query as in the text (`spelling.rs`).
#[rustfmt::skip]
const ENTRIES: &[&[&[&str]]] = &[
    &[&["ai"], &["artificial", "intelligence"]],
    &[&["sci", "fi"], &["scifi"], &["science", "fiction"]],
    &[&["tv"], &["television"]],
    &[&["f1"], &["formula", "one"], &["formula", "1"]],
    &[&["wwii"], &["ww2"], &["world", "war", "two"], &["second", "world", "war"]],
    &[&["wwi"], &["ww1"], &["world", "war", "one"], &["world", "war", "i"], &["world", "war", "1"], &["first", "world", "war"]],
    &[&["nyc"], &["new", "york", "city"]],
    &[&["mma"], &["mixed", "martial", "arts"]],
    &[&["bjj"], &["brazilian", "jiu", "jitsu"]],
    &[&["nfl"], &["national", "football", "league"]],
    &[&["nba"], &["national", "basketball", "association"]],
    &[&["nhl"], &["national", "hockey", "league"]],
    &[&["mlb"], &["major", "league", "baseball"]],
    &[&["diy"], &["do", "it", "yourself"]],
    &[&["ptsd"], &["post", "traumatic", "stress", "disorder"]],
    &[&["adhd"], &["attention", "deficit", "hyperactivity", "disorder"]],
    &[&["ocd"], &["obsessive", "compulsive", "disorder"]],
    &[&["ibs"], &["irritable", "bowel", "syndrome"]],
    &[&["ivf"], &["in", "vitro", "fertilisation"], &["in", "vitro", "fertilization"]],
    &[&["ceo"], &["chief", "executive", "officer"]],
    &[&["ipo"], &["initial", "public", "offering"]],
    &[&["mba"], &["master", "of", "business", "administration"]],
    &[&["seo"], &["search", "engine", "optimisation"], &["search", "engine", "optimization"]],
    &[&["ux"], &["user", "experience"]],
    &[&["ui"], &["user", "interface"]],
    &[&["vr"], &["virtual", "reality"]],
    &[&["ev"], &["electric", "vehicle"]],
    &[&["evs"], &["electric", "vehicles"]],
    &[&["rpg"], &["role", "playing", "game"]],
    &[&["dnd"], &["dungeons", "and", "dragons"]],
    &[&["uk"], &["united", "kingdom"]],
    &[&["usa"], &["united", "states"]],
    &[&["eu"], &["european", "union"]],
    &[&["nz"], &["new", "zealand"]],
];

/// Per content word of `words`, the other forms of the entries whose forms the term
/// holds around it (wherever the word stands), each once.
pub fn abbreviated(words: &TermWords) -> Vec<Vec<Form>> {
    let all: Vec<&str> = words
        .all
        .iter()
        .map(|word| number_word(&word.folded))
        .collect();
    let at_positions = other_forms(&all);
    words
        .content
        .iter()
        .map(|word| {
            let mut forms: Vec<Form> = Vec::new();
            for (other, forms_there) in words.all.iter().zip(&at_positions) {
                if other.folded == word.folded {
                    for form in forms_there {
                        if !forms.contains(form) {
                            forms.push(form);
                        }
                    }
                }
            }
            forms
        })
        .collect()
}

/// The other forms of the entries whose forms `words` (folded, numbers as words, in order,
/// every word) hold around the word at each position: per position, the other forms, each
/// once. A form is found where its words stand in a row.
fn other_forms(words: &[&str]) -> Vec<Vec<Form>> {
    let mut others: Vec<Vec<Form>> = vec![Vec::new(); words.len()];
    for entry in ENTRIES {
        for form in *entry {
            let width = form.len();
            if width > words.len() {
                continue;
            }
            for start in 0..=words.len() - width {
                if words[start..start + width] != **form {
                    continue;
                }
                for other in entry.iter().filter(|other| *other != form) {
                    for there in &mut others[start..start + width] {
                        if !there.contains(other) {
                            there.push(other);
                        }
                    }
                }
            }
        }
    }
    others
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::plain_analyzer;

    #[test]
    fn each_form_is_written_as_the_plain_analyzer_folds_it_and_in_one_entry_only() {
        let mut analyzer = plain_analyzer();
        let mut seen: Vec<&[&str]> = Vec::new();
        for entry in ENTRIES {
            assert!(entry.len() > 1, "{entry:?} has one form");
            for form in *entry {
                let text = form.join(" ");
                assert_eq!(crate::analysis::analyze(&mut analyzer, &text), *form);
                for word in *form {
                    assert_eq!(number_word(word), *word, "{form:?}: a number as a word");
                }
                assert!(!seen.contains(form), "{form:?} is in two entries");
                seen.push(form);
            }
        }
    }

    #[test]
    fn a_form_in_a_row_gives_each_of_its_words_the_other_forms() {
        let others = other_forms(&["sci", "fi", "audio", "drama"]);
        let expected: Vec<&[&str]> = vec![&["scifi"], &["science", "fiction"]];
        assert_eq!(others[0], expected);
        assert_eq!(others[1], expected);
        assert!(others[2].is_empty() && others[3].is_empty());

        let others = other_forms(&["artificial", "intelligence", "news"]);
        assert_eq!(others[0], [&["ai"][..]]);
        assert_eq!(others[1], [&["ai"][..]]);
        // Not in a row: no form.
        assert!(
            other_forms(&["artificial", "and", "intelligence"])
                .iter()
                .all(Vec::is_empty)
        );
        assert!(
            other_forms(&["emotional", "intelligence"])
                .iter()
                .all(Vec::is_empty)
        );
    }

    #[test]
    fn a_content_word_gets_the_forms_around_it_and_numbers_match_as_words() {
        let words = TermWords::of("World War II history");
        let forms = abbreviated(&words);
        let contents: Vec<&str> = words.content.iter().map(|w| w.folded.as_str()).collect();
        assert_eq!(contents, ["world", "war", "ii", "history"]);
        let expected: Vec<Form> = vec![&["wwii"], &["ww2"], &["second", "world", "war"]];
        assert_eq!(forms[0], expected);
        assert_eq!(forms[2], expected);
        assert!(forms[3].is_empty());

        let words = TermWords::of("AI & tech");
        assert_eq!(
            abbreviated(&words)[0],
            [&["artificial", "intelligence"][..]]
        );
    }
}
