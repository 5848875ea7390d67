//! English words of one family whose stems differ: a field and the people in it
//! ("history", "historian", "historical"), a belief and its follower ("activism",
//! "activist"), a craft and its maker ("photography", "photographer"). The stemmer keeps
//! them apart (Snowball gives "histori", "historian" and "histor"), so a search for
//! "historians" would miss a show "about history". A query word also matches the other
//! members of its family, at a share of the field's weight (`Weights::derivation`): a
//! related word, not the same one.
//!
//! A common clipping is one more member ("tech" for "technology", the podcast directories'
//! category).
//!
//! The families are written out rather than derived by rule, because near rules misfire
//! ("physician" is not "physics", "republican" is not "republic", "fantastic" is not
//! "fantasy"); a member is any form whose English stem is the family's (plurals follow).

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::analysis::{LanguageFamily, first_token_in};

/// Families of related English words, each member a stem of its own.
#[rustfmt::skip]
const FAMILIES: &[&[&str]] = &[
    &["activism", "activist"],
    &["architecture", "architect"],
    &["art", "artist"],
    &["astronomy", "astronomer"],
    &["atheism", "atheist"],
    &["baking", "baker"],
    &["banking", "banker"],
    &["bible", "biblical"],
    &["birding", "birder"],
    &["boxing", "boxer"],
    &["brewing", "brewer", "brewery"],
    &["buddhism", "buddhist"],
    &["business", "businessman", "businesswoman"],
    &["camping", "camper"],
    &["capitalism", "capitalist"],
    &["chemistry", "chemist", "chemical"],
    &["child", "childhood"],
    &["climbing", "climber"],
    &["comedy", "comedian", "comedic"],
    &["communism", "communist"],
    &["conservatism", "conservative"],
    &["crime", "criminal"],
    &["cycling", "cyclist"],
    &["dancing", "dancer"],
    &["democracy", "democratic"],
    &["diet", "dietitian"],
    &["diplomacy", "diplomat"],
    &["driving", "driver"],
    &["drum", "drummer"],
    &["economics", "economy", "economist"],
    &["election", "electoral"],
    &["entrepreneurship", "entrepreneur", "entrepreneurial"],
    &["environment", "environmental", "environmentalist"],
    &["farming", "farmer"],
    &["father", "fatherhood"],
    &["feminism", "feminist"],
    &["film", "filmmaker"],
    &["finance", "financial"],
    &["fishing", "fisherman"],
    &["food", "foodie"],
    &["friend", "friendship"],
    &["gaming", "gamer"],
    &["geography", "geographic"],
    &["golf", "golfer"],
    &["guitar", "guitarist"],
    &["hacking", "hacker"],
    &["health", "healthy"],
    &["hiking", "hiker"],
    &["history", "historian", "historical"],
    &["hunting", "hunter"],
    &["investing", "investor"],
    &["journalism", "journalist"],
    &["knitting", "knitter"],
    &["law", "lawyer"],
    &["leadership", "leader"],
    &["learning", "learner"],
    &["love", "lover"],
    &["magic", "magician"],
    &["marriage", "married"],
    &["marxism", "marxist"],
    &["mathematics", "mathematician"],
    &["medicine", "medical"],
    &["mother", "motherhood"],
    &["music", "musician"],
    &["naturalist", "nature"],
    &["neuroscience", "neuroscientist"],
    &["novel", "novelist"],
    &["nutrition", "nutritionist"],
    &["olympics", "olympian"],
    &["painting", "painter"],
    &["pharmacy", "pharmacist"],
    &["philosophy", "philosopher"],
    &["photography", "photographer"],
    &["physics", "physicist"],
    &["piano", "pianist"],
    &["poetry", "poet", "poem"],
    &["politics", "politician"],
    &["prayer", "pray"],
    &["programming", "programmer"],
    &["psychiatry", "psychiatrist"],
    &["racing", "racer"],
    &["racism", "racist"],
    &["rap", "rapper"],
    &["reading", "reader"],
    &["religion", "religious"],
    &["romance", "romantic"],
    &["running", "runner"],
    &["science", "scientist", "scientific"],
    &["sculpture", "sculptor"],
    &["sewing", "sewist"],
    &["singing", "singer"],
    &["skiing", "skier"],
    &["socialism", "socialist"],
    &["song", "songwriter"],
    &["surfing", "surfer"],
    &["surgery", "surgeon"],
    &["teaching", "teacher"],
    &["technology", "tech"],
    &["terrorism", "terrorist"],
    &["theology", "theologian"],
    &["therapy", "therapist", "therapeutic"],
    &["tourism", "tourist"],
    &["trading", "trader"],
    &["violin", "violinist"],
    &["voting", "voter"],
    &["wine", "winemaker"],
    &["wrestling", "wrestler"],
    &["writing", "writer"],
];

/// The English stem of a word.
fn stem(word: &str) -> Option<String> {
    first_token_in(LanguageFamily::English, word)
}

/// Another word of a query word's family: as it is written (for unstemmed fields) and
/// its English stem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derivation {
    pub form: &'static str,
    pub stem: &'static str,
}

/// The families' members with their stems, and per stem its family (the table's test
/// checks that no stem is in two families), stemmed once.
struct Table {
    families: Vec<Vec<Derivation>>,
    by_stem: HashMap<&'static str, usize>,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let families: Vec<Vec<Derivation>> = FAMILIES
        .iter()
        .map(|members| {
            members
                .iter()
                .filter_map(|form| {
                    // Stemmed once for the life of the process: the table is static.
                    let stem: &'static str = stem(form)?.leak();
                    Some(Derivation { form, stem })
                })
                .collect()
        })
        .collect();
    let by_stem = families
        .iter()
        .enumerate()
        .flat_map(|(at, members)| members.iter().map(move |member| (member.stem, at)))
        .collect();
    Table { families, by_stem }
});

/// The other members of the family of the English word `folded`, those whose stems
/// differ from its own ("historians" → "history", "historical"; none for a word of no
/// family).
pub fn derivations(folded: &str) -> Vec<Derivation> {
    let Some(own) = stem(folded) else {
        return Vec::new();
    };
    let table = &*TABLE;
    let Some(&family) = table.by_stem.get(own.as_str()) else {
        return Vec::new();
    };
    table.families[family]
        .iter()
        .filter(|member| member.stem != own)
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(folded: &str) -> Vec<&'static str> {
        derivations(folded).iter().map(|d| d.form).collect()
    }

    #[test]
    fn a_word_finds_the_other_stems_of_its_family() {
        assert_eq!(forms("historians"), ["history", "historical"]);
        assert_eq!(forms("history"), ["historian", "historical"]);
        assert_eq!(forms("activism"), ["activist"]);
        assert_eq!(forms("activists"), ["activism"]);
        assert!(forms("physician").is_empty());
        assert!(forms("podcast").is_empty());
        // each with its English stem, as the stemmed fields hold it
        let stems: Vec<&str> = derivations("historians").iter().map(|d| d.stem).collect();
        assert_eq!(stems, ["histori", "histor"]);
    }

    /// Every member of a family has a stem of its own (one that stems like another adds
    /// nothing), and no stem is in two families (it would join topics the table keeps
    /// apart).
    #[test]
    fn every_member_has_its_own_stem_and_families_share_none() {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (family, members) in FAMILIES.iter().enumerate() {
            let stems: Vec<String> = members.iter().filter_map(|m| stem(m)).collect();
            assert_eq!(stems.len(), members.len(), "{members:?}");
            for (at, stem) in stems.iter().enumerate() {
                assert!(
                    !stems[..at].contains(stem),
                    "{members:?} stem alike: {stems:?}"
                );
                if let Some(other) = seen.insert(stem.clone(), family) {
                    panic!("{stem} is in {:?} and {members:?}", FAMILIES[other]);
                }
            }
        }
    }
}
