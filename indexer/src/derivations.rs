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

use crate::analysis::{LanguageFamily, analyze_in};

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

/// The English stem of a word, or of the first token of a form.
fn stem(word: &str) -> Option<String> {
    analyze_in(LanguageFamily::English, word).into_iter().next()
}

/// Per English stem, the families with a member of that stem.
static BY_STEM: LazyLock<HashMap<String, Vec<usize>>> = LazyLock::new(|| {
    let mut by_stem: HashMap<String, Vec<usize>> = HashMap::new();
    for (family, members) in FAMILIES.iter().enumerate() {
        for member in *members {
            if let Some(stem) = stem(member) {
                let families = by_stem.entry(stem).or_default();
                if !families.contains(&family) {
                    families.push(family);
                }
            }
        }
    }
    by_stem
});

/// The other members of the families of the English word `folded` whose stems differ
/// from its own ("historians" → "history", "historical"; none for a word of no family).
pub fn derivations(folded: &str) -> Vec<&'static str> {
    let Some(own) = stem(folded) else {
        return Vec::new();
    };
    let Some(families) = BY_STEM.get(&own) else {
        return Vec::new();
    };
    let mut out: Vec<&'static str> = Vec::new();
    let mut stems = vec![own];
    for family in families {
        for member in FAMILIES[*family] {
            if let Some(stem) = stem(member)
                && !stems.contains(&stem)
            {
                stems.push(stem);
                out.push(member);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_finds_the_other_stems_of_its_family() {
        assert_eq!(derivations("historians"), ["history", "historical"]);
        assert_eq!(derivations("history"), ["historian", "historical"]);
        assert_eq!(derivations("activism"), ["activist"]);
        assert_eq!(derivations("activists"), ["activism"]);
        assert!(derivations("physician").is_empty());
        assert!(derivations("podcast").is_empty());
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
