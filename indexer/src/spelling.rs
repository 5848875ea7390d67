//! British and American spellings of one English word ("favourite" and "favorite",
//! "organisation" and "organization", "centre" and "center"): a query word also matches
//! its other spelling in English and unstemmed fields, as the same word (one BM25F
//! frequency), so "my favourite murder" finds My Favorite Murder as it finds its title.
//!
//! Three kinds of rule, each written out rather than guessed, because a near rule
//! misfires ("four" is not "for", "specialist" is not "specializt"):
//! - words whose `-our` is American `-or` ([`OUR_STEMS`]), matched at the start of the
//!   word so derived forms follow ("colourful", "neighbourhood", "behavioural");
//! - `-ise`/`-ize` and `-yse`/`-yze` verbs and their `-isation` nouns, by ending, for
//!   words of seven letters or more: a variant that is not a word ("advize") matches
//!   nothing, so only the ending has to be one that spells a verb;
//! - whole words ([`WORDS`]): `-re`/`-er`, `-ence`/`-ense`, `-ogue`/`-og`, doubled
//!   consonants, `ae`/`oe`, and single words.
//!
//! Small numbers are spelled three ways too, and each finds the others
//! ([`NUMBERS`]): "world war two" finds "World War II" and "World War 2" alike. So do a
//! noun's irregular singular and plural, which the stemmer keeps apart ([`PLURALS`]:
//! "women" and "woman", "children" and "child", "people" and "person").

use crate::analysis::{LanguageFamily, first_token_in};
use crate::derivations::derivations;

/// British stems ending in `-our` whose American spelling drops the `u`.
const OUR_STEMS: &[&str] = &[
    "ardour",
    "armour",
    "behaviour",
    "candour",
    "clamour",
    "colour",
    "endeavour",
    "favour",
    "fervour",
    "flavour",
    "harbour",
    "honour",
    "humour",
    "labour",
    "neighbour",
    "odour",
    "parlour",
    "rigour",
    "rumour",
    "saviour",
    "savour",
    "splendour",
    "tumour",
    "valour",
    "vapour",
    "vigour",
];

/// `-ise` endings (British) and their `-ize` forms, longest first.
const ISE_ENDINGS: &[(&str, &str)] = &[
    ("isations", "izations"),
    ("isation", "ization"),
    ("ising", "izing"),
    ("isers", "izers"),
    ("ised", "ized"),
    ("iser", "izer"),
    ("ises", "izes"),
    ("ise", "ize"),
    ("ysing", "yzing"),
    ("ysed", "yzed"),
    ("yse", "yze"),
];

/// Whole words: (British, American).
#[rustfmt::skip]
const WORDS: &[(&str, &str)] = &[
    ("aeroplane", "airplane"), ("ageing", "aging"), ("aluminium", "aluminum"),
    ("anaemia", "anemia"), ("anaesthesia", "anesthesia"), ("analogue", "analog"),
    ("calibre", "caliber"), ("cancelled", "canceled"), ("cancelling", "canceling"),
    ("catalogue", "catalog"), ("catalogues", "catalogs"), ("centre", "center"),
    ("centred", "centered"), ("centres", "centers"), ("counselling", "counseling"),
    ("counsellor", "counselor"), ("counsellors", "counselors"), ("cosy", "cozy"),
    ("defence", "defense"), ("dialogue", "dialog"), ("diarrhoea", "diarrhea"),
    ("doughnut", "donut"), ("doughnuts", "donuts"), ("encyclopaedia", "encyclopedia"),
    ("enrol", "enroll"), ("fibre", "fiber"), ("foetus", "fetus"), ("fuelled", "fueled"),
    ("fulfil", "fulfill"), ("grey", "gray"), ("haemorrhage", "hemorrhage"),
    ("instalment", "installment"), ("jewellery", "jewelry"), ("judgement", "judgment"),
    ("kilometre", "kilometer"), ("kilometres", "kilometers"), ("labelled", "labeled"),
    ("leukaemia", "leukemia"), ("licence", "license"), ("litre", "liter"),
    ("litres", "liters"), ("manoeuvre", "maneuver"), ("maths", "math"),
    ("metre", "meter"), ("metres", "meters"), ("modelling", "modeling"),
    ("mould", "mold"), ("mum", "mom"), ("mums", "moms"), ("oestrogen", "estrogen"),
    ("offence", "offense"), ("paediatric", "pediatric"),
    ("paediatrician", "pediatrician"), ("plough", "plow"), ("practise", "practice"),
    ("pretence", "pretense"), ("programme", "program"), ("programmes", "programs"),
    ("pyjamas", "pajamas"), ("sceptic", "skeptic"), ("sceptical", "skeptical"),
    ("scepticism", "skepticism"), ("sceptics", "skeptics"), ("skilful", "skillful"),
    ("sombre", "somber"), ("spectre", "specter"), ("theatre", "theater"),
    ("theatres", "theaters"), ("travelled", "traveled"), ("traveller", "traveler"),
    ("travellers", "travelers"), ("travelling", "traveling"), ("wilful", "willful"),
];

/// Two to nine as a word, in digits and in Roman numerals. One is left out ("one" is
/// mostly "the one", "one of"), and so are the one-letter numerals V and X ("Gen X").
const NUMBERS: &[&[&str]] = &[
    &["two", "2", "ii"],
    &["three", "3", "iii"],
    &["four", "4", "iv"],
    &["five", "5"],
    &["six", "6", "vi"],
    &["seven", "7", "vii"],
    &["eight", "8", "viii"],
    &["nine", "9", "ix"],
];

/// A small number as its word ("2" and "ii" are "two"); any other word as it is.
pub fn number_word(folded: &str) -> &str {
    NUMBERS
        .iter()
        .find(|forms| forms.contains(&folded))
        .map_or(folded, |forms| forms[0])
}

/// Irregular plurals and their singulars, one word to the stemmer only by this table. Left
/// out where the plural is also another word's form ("leaves", "media", "data").
const PLURALS: &[&[&str]] = &[
    &["man", "men"],
    &["woman", "women"],
    &["child", "children"],
    &["person", "people"],
    &["foot", "feet"],
    &["tooth", "teeth"],
    &["mouse", "mice"],
    &["goose", "geese"],
    &["life", "lives"],
    &["wife", "wives"],
    &["knife", "knives"],
    &["wolf", "wolves"],
    &["thief", "thieves"],
    &["half", "halves"],
    &["shelf", "shelves"],
    &["crisis", "crises"],
    &["thesis", "theses"],
    &["hypothesis", "hypotheses"],
    &["criterion", "criteria"],
    &["phenomenon", "phenomena"],
    &["fungus", "fungi"],
    &["nucleus", "nuclei"],
    &["alumnus", "alumni"],
];

/// The other spellings of `folded` (lowercased, ASCII), British for American and
/// American for British, a small number's other forms, and an irregular plural's
/// singular (and back); empty when it has none.
pub fn spelling_variants(folded: &str) -> Vec<String> {
    let groups = NUMBERS.iter().chain(PLURALS);
    if let Some(forms) = groups.into_iter().find(|forms| forms.contains(&folded)) {
        return forms
            .iter()
            .filter(|form| **form != folded)
            .map(|form| (*form).to_owned())
            .collect();
    }
    for (british, american) in WORDS {
        if folded == *british {
            return vec![(*american).to_owned()];
        } else if folded == *american {
            return vec![(*british).to_owned()];
        }
    }
    let mut variants = Vec::new();
    for stem in OUR_STEMS {
        let american = stem.replacen("our", "or", 1);
        if let Some(rest) = folded.strip_prefix(stem) {
            variants.push(format!("{american}{rest}"));
        } else if let Some(rest) = folded.strip_prefix(american.as_str()) {
            variants.push(format!("{stem}{rest}"));
        }
    }
    if folded.len() >= 7 {
        for (british, american) in ISE_ENDINGS {
            if let Some(start) = folded.strip_suffix(british) {
                variants.push(format!("{start}{american}"));
                break;
            }
            if let Some(start) = folded.strip_suffix(american) {
                variants.push(format!("{start}{british}"));
                break;
            }
        }
    }
    variants.retain(|variant| variant != folded);
    variants.sort();
    variants.dedup();
    variants
}

/// A word's other spellings ([`spelling_variants`]) and the other words of its family
/// ([`derivations`]) as each kind of field holds them: stemmed once for English fields,
/// as they are for unstemmed ones, none elsewhere.
#[derive(Debug, Clone, PartialEq)]
pub struct Spellings {
    plain: Vec<String>,
    english: Vec<String>,
    related_plain: Vec<String>,
    related_english: Vec<String>,
}

impl Spellings {
    /// The other spellings and family words of `folded` (lowercased, ASCII).
    pub fn of(folded: &str) -> Spellings {
        let plain = spelling_variants(folded);
        let english = plain
            .iter()
            .filter_map(|variant| first_token_in(LanguageFamily::English, variant))
            .collect();
        let related = derivations(folded);
        Spellings {
            plain,
            english,
            related_plain: related.iter().map(|d| d.form.to_owned()).collect(),
            related_english: related.iter().map(|d| d.stem.to_owned()).collect(),
        }
    }

    /// The tokens of the other spellings in a field of `family` (`None`: unstemmed).
    pub fn in_field(&self, family: Option<LanguageFamily>) -> &[String] {
        match family {
            Some(LanguageFamily::English) => &self.english,
            Some(_) => &[],
            None => &self.plain,
        }
    }

    /// The tokens of the family's other words in a field of `family`.
    pub fn related_in_field(&self, family: Option<LanguageFamily>) -> &[String] {
        match family {
            Some(LanguageFamily::English) => &self.related_english,
            Some(_) => &[],
            None => &self.related_plain,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn british_and_american_spellings_find_each_other() {
        let pairs = [
            ("favourite", "favorite"),
            ("colourful", "colorful"),
            ("neighbourhood", "neighborhood"),
            ("behavioural", "behavioral"),
            ("organisation", "organization"),
            ("organisations", "organizations"),
            ("apologising", "apologizing"),
            ("analysed", "analyzed"),
            ("centre", "center"),
            ("theatres", "theaters"),
            ("defence", "defense"),
            ("travelling", "traveling"),
            ("paediatrician", "pediatrician"),
            ("programme", "program"),
            ("practise", "practice"),
        ];
        for (british, american) in pairs {
            assert_eq!(spelling_variants(british), [american], "{british}");
            assert_eq!(spelling_variants(american), [british], "{american}");
        }
    }

    #[test]
    fn small_numbers_find_their_other_forms() {
        assert_eq!(spelling_variants("two"), ["2", "ii"]);
        assert_eq!(spelling_variants("ii"), ["two", "2"]);
        assert_eq!(spelling_variants("9"), ["nine", "ix"]);
        assert_eq!(spelling_variants("5"), ["five"]);
        // A number, not "for" by the `-our` rule.
        assert_eq!(spelling_variants("four"), ["4", "iv"]);
        for word in ["one", "1", "v", "x", "ten", "10", "22"] {
            assert!(spelling_variants(word).is_empty(), "{word}");
        }
    }

    /// Each irregular plural finds its singular and back, and the English stemmer keeps
    /// every pair apart (a pair it joins would not need the table).
    #[test]
    fn irregular_plurals_find_their_singulars() {
        use crate::analysis::{LanguageFamily, analyze_in};
        assert_eq!(spelling_variants("women"), ["woman"]);
        assert_eq!(spelling_variants("child"), ["children"]);
        for forms in PLURALS {
            let stems: Vec<Vec<String>> = forms
                .iter()
                .map(|form| analyze_in(LanguageFamily::English, form))
                .collect();
            assert_ne!(stems[0], stems[1], "{forms:?}");
            assert_eq!(spelling_variants(forms[1]), [forms[0]], "{forms:?}");
        }
    }

    #[test]
    fn near_misses_have_no_variant() {
        for word in [
            "your",
            "hour",
            "tour",
            "specialist",
            "criticism",
            "optimism",
            "analysis",
            "rise",
            "wise",
            "murder",
            "history",
            "podcast",
        ] {
            assert!(
                spelling_variants(word).is_empty(),
                "{word}: {:?}",
                spelling_variants(word)
            );
        }
    }

    #[test]
    fn the_tables_pair_distinct_words_once() {
        let mut seen: Vec<&str> = Vec::new();
        for (british, american) in WORDS {
            assert_ne!(british, american);
            assert!(
                !seen.contains(british) && !seen.contains(american),
                "{british}"
            );
            seen.push(british);
            seen.push(american);
        }
        assert!(OUR_STEMS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(OUR_STEMS.iter().all(|stem| stem.ends_with("our")));
    }
}
