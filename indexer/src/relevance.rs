//! The query of one search term: its content words matched over the union of its target
//! fields (BM25F, [`crate::bm25f`]), combined by the term's match mode, with bonuses for
//! the words' proximity and for an exact title. `docs/search.md` describes the
//! semantics; the weights below are tuned on the judged queries of `benches/relevance`.
//!
//! | target | podcast search | episode search |
//! |---|---|---|
//! | podcast-title | title 3.0, people 2.5 | (the podcast's match, joined) |
//! | podcast-description | description 0.5, keywords 0.4; episodes' text 1.0 in a group of weight 0.15 | (joined) |
//! | episode-title | — | title 2.0, people 2.0 |
//! | episode-description | — | description 1.0, keywords 0.4 |
//! | transcript | — | transcript 1.0 in a group of weight 0.6 |

use tantivy::query::{
    BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, PhraseQuery, Query, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Score, Term};

use crate::abbreviations::{Form, abbreviated};
use crate::analysis::{LanguageFamily, first_token_in};
use crate::any_field::AnyFieldQuery;
use crate::bm25f::{FieldGroup, WeightedField, WordQuery};
use crate::const_score::ConstScore;
use crate::coverage::CoverageQuery;
use crate::guarded::Guarded;
use crate::ranking::{FORM_TIE_BREAKER, FieldWeight, K1, SPELLED_PHRASES, Weights};
use crate::request::{MatchMode, SearchTerm, Target};
use crate::schema::FamilyFields;
use crate::schema::IndexKind;
use crate::shard::{NonEmptyFields, OpenGeneration, OpenShard};
use crate::spelling::{Spellings, number_word};
use crate::translations::translations;
use crate::words::{TermWords, Word, exact_form, is_query_stopword, language_codes};

/// A phrase's tokens, and the same phrase with its words' other spellings (`spelled`,
/// per token, as the field holds them): "world war ii" beside "world war two", "my
/// favorite murder" beside "favourite"; at most [`SPELLED_PHRASES`] phrases.
fn spelled_phrases<'a>(
    tokens: &[String],
    spelled: impl Iterator<Item = &'a [String]>,
) -> Vec<Vec<String>> {
    let mut phrases = vec![tokens.to_vec()];
    for ((at, token), variants) in tokens.iter().enumerate().zip(spelled) {
        let mut more = Vec::new();
        for phrase in &phrases {
            for variant in variants.iter().filter(|variant| *variant != token) {
                let mut other = phrase.clone();
                other[at] = variant.clone();
                more.push(other);
            }
        }
        phrases.extend(more);
        phrases.truncate(SPELLED_PHRASES);
    }
    phrases
}

/// A term ready to search: its words, and for each content word whether it is searched
/// fuzzily (asked for, or a word no target field of the catalog holds; never a compound,
/// whose phrase is its other form).
#[derive(Debug, Clone)]
pub struct TermPlan {
    pub term: SearchTerm,
    pub words: TermWords,
    pub fuzzy: Vec<bool>,
    /// Per content word, the other forms of the abbreviations it is part of.
    pub abbreviated: Vec<Vec<Form>>,
}

fn fuzzy_distance(word: &str) -> u8 {
    match word.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

impl TermPlan {
    /// Plans `term` against `generation`: words unknown to every target field (in
    /// every family searched) are matched fuzzily.
    pub fn new(
        generation: &OpenGeneration,
        families: &[LanguageFamily],
        term: &SearchTerm,
    ) -> TermPlan {
        let words = TermWords::of(&term.text);
        let fuzzy = words
            .content
            .iter()
            .map(|word| {
                if fuzzy_distance(&word.folded) == 0
                    || word.folded.chars().any(|c| c.is_ascii_digit())
                    || !word.parts.is_empty()
                {
                    return false;
                }
                term.fuzzy || !known(generation, families, term, word)
            })
            .collect();
        // A quoted term means its words as typed.
        let abbreviated = if term.phrase {
            vec![Vec::new(); words.content.len()]
        } else {
            abbreviated(&words)
        };
        TermPlan {
            term: term.clone(),
            words,
            fuzzy,
            abbreviated,
        }
    }
}

/// Whether some target field of the generation holds `word`.
fn known(
    generation: &OpenGeneration,
    families: &[LanguageFamily],
    term: &SearchTerm,
    word: &Word,
) -> bool {
    let schemas = &generation.schemas;
    let mut terms: Vec<(IndexKind, Term)> = Vec::new();
    let mut family_terms = |kind: IndexKind, fields: &FamilyFields| {
        for family in families {
            if let Some(token) = word.token_in(*family) {
                terms.push((kind, Term::from_field_text(fields.field(*family), &token)));
            }
        }
    };
    for target in &term.targets {
        match target {
            Target::PodcastTitle => {
                family_terms(IndexKind::Podcasts, &schemas.podcasts.title);
            }
            Target::PodcastDescription => {
                family_terms(IndexKind::Podcasts, &schemas.podcasts.description);
                family_terms(IndexKind::Podcasts, &schemas.podcasts.episodes_text);
            }
            Target::EpisodeTitle => family_terms(IndexKind::Episodes, &schemas.episodes.title),
            Target::EpisodeDescription => {
                family_terms(IndexKind::Episodes, &schemas.episodes.description)
            }
            Target::Transcript => family_terms(IndexKind::Episodes, &schemas.episodes.transcript),
        }
    }
    let plain = word.plain_token();
    terms.push((
        IndexKind::Podcasts,
        Term::from_field_text(schemas.podcasts.people, &plain),
    ));
    terms.push((
        IndexKind::Episodes,
        Term::from_field_text(schemas.episodes.people, &plain),
    ));
    terms
        .iter()
        .any(|(kind, term)| generation.holds(*kind, term))
}

/// What one term asks of a document: the query it must match (its words by the match
/// mode) and an optional bonus (proximity, phrase, exact title) that only adds score.
pub struct TermQueries {
    pub matching: Box<dyn Query>,
    pub bonus: Option<Box<dyn Query>>,
}

/// Builds one shard's queries for a term.
#[derive(Clone, Copy)]
pub struct TermBuilder<'a> {
    pub generation: &'a OpenGeneration,
    pub shard: &'a OpenShard,
    pub families: &'a [LanguageFamily],
    pub kind: IndexKind,
    pub weights: &'a Weights,
}

/// A field of a word: its term and weight, or its token in an unstemmed field.
#[derive(Clone, Copy)]
struct WordField {
    field: Field,
    weight: FieldWeight,
    /// `Some(family)` for a stemmed field of that family, `None` for an unstemmed one.
    family: Option<LanguageFamily>,
}

/// A word of an abbreviation's form as a field of `family` holds it (`None`: unstemmed):
/// stemmed in English fields, as it is in unstemmed ones, absent elsewhere (the forms
/// are English).
fn form_token(word: &str, family: Option<LanguageFamily>) -> Option<String> {
    match family {
        Some(LanguageFamily::English) => first_token_in(LanguageFamily::English, word),
        Some(_) => None,
        None => Some(word.to_owned()),
    }
}

/// What else `word` matches in a field of `family` (`None`: unstemmed), as its query
/// does there: the tokens of its other spellings, of the other words of its family and
/// of the one-word forms of the abbreviations it is part of (`abbreviated`), and the
/// token sequences of their longer forms. For transcript snippets, which highlight
/// what a hit was found by.
pub fn other_forms_in(
    word: &Word,
    abbreviated: &[Form],
    family: Option<LanguageFamily>,
) -> (Vec<String>, Vec<Vec<String>>) {
    let spellings = word.spellings();
    let mut tokens: Vec<String> = spellings.in_field(family).to_vec();
    tokens.extend(spellings.related_in_field(family).iter().cloned());
    let mut phrases = Vec::new();
    let own = number_word(&word.folded);
    for form in abbreviated {
        // As the search: not a form the word is part of. A form with a function word
        // ("do it yourself") is left out: the passage would mark every "it".
        if (form.len() > 1 && form.contains(&own))
            || form.iter().any(|word| is_query_stopword(word))
        {
            continue;
        }
        let form_tokens: Option<Vec<String>> =
            form.iter().map(|word| form_token(word, family)).collect();
        match form_tokens {
            Some(mut one) if one.len() == 1 => tokens.extend(one.pop()),
            Some(several) if !several.is_empty() => {
                let spelled: Vec<Spellings> = form.iter().map(|word| Spellings::of(word)).collect();
                let spelled = spelled.iter().map(|spellings| spellings.in_field(family));
                phrases.extend(spelled_phrases(&several, spelled));
            }
            _ => {}
        }
    }
    (tokens, phrases)
}

impl TermBuilder<'_> {
    fn non_empty(&self) -> &NonEmptyFields {
        match self.kind {
            IndexKind::Podcasts => &self.shard.podcast_fields,
            IndexKind::Episodes => &self.shard.episode_fields,
        }
    }

    fn family_fields(&self, fields: &FamilyFields, weight: FieldWeight, out: &mut Vec<WordField>) {
        for family in self.families {
            let field = fields.field(*family);
            if self.non_empty().contains(field) {
                out.push(WordField {
                    field,
                    weight,
                    family: Some(*family),
                });
            }
        }
    }

    fn plain_field(&self, field: Field, weight: FieldWeight, out: &mut Vec<WordField>) {
        if self.non_empty().contains(field) {
            out.push(WordField {
                field,
                weight,
                family: None,
            });
        }
    }

    /// The term's fields by group: the main group, and the long-text group (a podcast's
    /// episodes, an episode's transcript).
    fn groups(&self, targets: &[Target]) -> (Vec<WordField>, Vec<WordField>) {
        let w = self.weights;
        let schemas = &self.generation.schemas;
        let (mut main, mut long) = (Vec::new(), Vec::new());
        for target in targets {
            match (self.kind, target) {
                (IndexKind::Podcasts, Target::PodcastTitle) => {
                    self.family_fields(&schemas.podcasts.title, w.podcast_title, &mut main);
                    self.plain_field(schemas.podcasts.people, w.podcast_people, &mut main);
                }
                (IndexKind::Podcasts, Target::PodcastDescription) => {
                    self.family_fields(
                        &schemas.podcasts.description,
                        w.podcast_description,
                        &mut main,
                    );
                    self.plain_field(schemas.podcasts.keywords, w.podcast_keywords, &mut main);
                    if self.non_empty().contains(schemas.podcasts.categories) {
                        main.push(WordField {
                            field: schemas.podcasts.categories,
                            weight: w.podcast_categories,
                            family: Some(LanguageFamily::English),
                        });
                    }
                    self.family_fields(
                        &schemas.podcasts.episodes_text,
                        w.podcast_episodes,
                        &mut long,
                    );
                }
                (IndexKind::Episodes, Target::EpisodeTitle) => {
                    self.family_fields(&schemas.episodes.title, w.episode_title, &mut main);
                    self.plain_field(schemas.episodes.people, w.episode_people, &mut main);
                }
                (IndexKind::Episodes, Target::EpisodeDescription) => {
                    self.family_fields(
                        &schemas.episodes.description,
                        w.episode_description,
                        &mut main,
                    );
                    self.plain_field(schemas.episodes.keywords, w.episode_keywords, &mut main);
                }
                (IndexKind::Episodes, Target::Transcript) => {
                    self.family_fields(&schemas.episodes.transcript, w.transcript, &mut long);
                }
                _ => {}
            }
        }
        (main, long)
    }

    fn average(&self, field: Field) -> Score {
        self.generation.average_lengths.of_field(self.kind, field)
    }

    /// The word's token in a field, `None` where the word is a stopword of the field's
    /// family (unless `any_word`) or has no token.
    fn token(word: &Word, field: &WordField, any_word: bool) -> Option<String> {
        match field.family {
            Some(family) => {
                if !any_word && !word.is_content_in(family) {
                    return None;
                }
                word.token_in(family)
            }
            None => Some(word.plain_token()),
        }
    }

    /// `token` in `field`, at `share` of the field's weight.
    fn weighted_field(&self, field: &WordField, token: &str, share: Score) -> WeightedField {
        WeightedField {
            term: Term::from_field_text(field.field, token),
            weight: field.weight.weight * share,
            b: field.weight.b,
            average_length: self.average(field.field),
        }
    }

    fn weighted(
        &self,
        fields: &[WordField],
        word: &Word,
        any_word: bool,
        translate: &[LanguageFamily],
        abbreviated: &[Form],
    ) -> Vec<WeightedField> {
        // The word's other spellings ("favourite", "favorite"; "two", "ii"), stemmed once.
        let spellings = word.spellings();
        let owns: Vec<Option<String>> = fields
            .iter()
            .map(|field| Self::token(word, field, any_word))
            .collect();
        let mut weighted: Vec<WeightedField> = fields
            .iter()
            .zip(&owns)
            .filter_map(|(field, own)| Some(self.weighted_field(field, own.as_deref()?, 1.0)))
            .collect();
        for (field, own) in fields.iter().zip(owns) {
            // Its other forms: the translations in the fields of the languages the term
            // names, the other spelling in English and unstemmed fields where the word
            // itself is searched.
            let mut forms: Vec<(String, Score)> = Vec::new();
            if let Some(family) = field.family.filter(|family| translate.contains(family)) {
                forms.extend(
                    translations(&word.folded, family)
                        .into_iter()
                        .filter_map(|form| first_token_in(family, form))
                        .map(|token| (token, self.weights.translation)),
                );
            }
            if own.is_some() {
                let spelled = spellings.in_field(field.family);
                forms.extend(spelled.iter().map(|token| (token.clone(), 1.0)));
                let related = spellings.related_in_field(field.family);
                forms.extend(
                    related
                        .iter()
                        .map(|token| (token.clone(), self.weights.derivation)),
                );
                // An abbreviation's other one-word forms ("ai" for "artificial").
                let people = self.is_people(field.field);
                for form in abbreviated.iter().filter(|form| form.len() == 1 && !people) {
                    let token = form_token(form[0], field.family);
                    forms.extend(token.map(|token| (token, self.weights.abbreviation)));
                }
            }
            // Each stem once, and never the word's own: one frequency per word.
            let mut seen: Vec<String> = own.into_iter().collect();
            for (token, share) in forms {
                if !seen.contains(&token) {
                    weighted.push(self.weighted_field(field, &token, share));
                    seen.push(token);
                }
            }
        }
        weighted
    }

    fn fuzzy_queries(&self, fields: &[WordField], word: &Word) -> Vec<Box<dyn Query>> {
        fields
            .iter()
            .filter_map(|field| {
                let token = Self::token(word, field, false)?;
                let distance = fuzzy_distance(&token);
                if distance == 0 {
                    return None;
                }
                let searcher = self.shard.searcher(self.kind);
                // The dictionary terms near the word, remembered by the shard. When the
                // dictionary cannot be read here, tantivy's fuzzy query is built
                // instead, so the search reports the failure as it always did.
                let query: Box<dyn Query> =
                    match self
                        .shard
                        .fuzzy
                        .terms(self.kind, searcher, field.field, &token, distance)
                    {
                        Ok(terms) => Box::new(ConstScore::new(
                            crate::term_sets::any_term(terms.iter().cloned()),
                            1.0,
                        )),
                        Err(_) => Box::new(FuzzyTermQuery::new(
                            Term::from_field_text(field.field, &token),
                            distance,
                            true,
                        )),
                    };
                Some(Self::boosted(
                    query,
                    field.weight.weight * self.weights.fuzzy,
                ))
            })
            .collect()
    }

    /// One word over the term's fields (plus `extras`, added as they are), its
    /// translations into the `translate` languages and the `abbreviated` forms it is part
    /// of.
    #[allow(clippy::too_many_arguments)]
    fn word_query(
        &self,
        targets: &[Target],
        word: &Word,
        fuzzy: bool,
        any_word: bool,
        translate: &[LanguageFamily],
        abbreviated: &[Form],
        mut extras: Vec<Box<dyn Query>>,
    ) -> WordQuery {
        let (main, long) = self.groups(targets);
        if fuzzy {
            extras.extend(self.fuzzy_queries(&main, word));
            extras.extend(self.fuzzy_queries(&long, word));
        }
        let long_weight = match self.kind {
            IndexKind::Podcasts => self.weights.podcast_episodes_group,
            IndexKind::Episodes => self.weights.transcript_group,
        };
        // The longer forms the word is not itself part of ("second world war" is not
        // another form of "world"), as one score: the best of their phrases.
        let own = number_word(&word.folded);
        let phrases: Vec<Box<dyn Query>> = abbreviated
            .iter()
            .filter(|form| form.len() > 1 && !form.contains(&own))
            .flat_map(|form| self.form_phrases(&main, &long, long_weight, form))
            .collect();
        if !phrases.is_empty() {
            extras.push(Box::new(AnyFieldQuery::new(phrases, FORM_TIE_BREAKER)));
        }
        // A compound ("x-men") also matches its parts as a phrase, in every field, as
        // rare as its parts together, counted as two words at most ("f-b-i" is not three
        // rare words).
        if !word.parts.is_empty() {
            let share = (2.0 / word.parts.len() as Score).min(1.0);
            let phrases =
                self.phrases_as_word(&main, &long, long_weight, &word.parts, |_| true, share);
            if !phrases.is_empty() {
                extras.push(Box::new(AnyFieldQuery::new(phrases, FORM_TIE_BREAKER)));
            }
        }
        WordQuery::new(
            vec![
                FieldGroup {
                    fields: self.weighted(&main, word, any_word, translate, abbreviated),
                    weight: 1.0,
                },
                FieldGroup {
                    fields: self.weighted(&long, word, any_word, translate, abbreviated),
                    weight: long_weight,
                },
            ],
            extras,
        )
    }

    /// An abbreviation's form of several words ("artificial intelligence" for "ai") as a
    /// phrase in each English or unstemmed field with positions (the forms are English;
    /// people's names are left out: "Ai" and "Seo" are names too), at the abbreviation's
    /// share over the form's words (its phrase scores as one word of the form).
    fn form_phrases(
        &self,
        main: &[WordField],
        long: &[WordField],
        long_weight: Score,
        form: Form,
    ) -> Vec<Box<dyn Query>> {
        let words: Vec<Word> = form.iter().map(|word| Word::folded(word)).collect();
        let english = |field: &WordField| {
            matches!(field.family, None | Some(LanguageFamily::English))
                && !self.is_people(field.field)
        };
        let share = self.weights.abbreviation / form.len() as Score;
        self.phrases_as_word(main, long, long_weight, &words, english, share)
    }

    /// `words` as a phrase in each field with positions that `eligible` takes, scored as
    /// one word at `share`. A phrase's BM25 sums its words' weights and does not saturate
    /// with the word, so it is scaled to one word: `share` times what a word of the
    /// phrase's summed weight, once, would score in the field (`(k1 + 1) / (k1 + w)` of
    /// its weight `w`). At a share of 1 the phrase is as rare as its words together.
    fn phrases_as_word(
        &self,
        main: &[WordField],
        long: &[WordField],
        long_weight: Score,
        words: &[Word],
        eligible: impl Fn(&WordField) -> bool,
        share: Score,
    ) -> Vec<Box<dyn Query>> {
        let eligible = |fields: &[WordField]| -> Vec<WordField> {
            fields
                .iter()
                .filter(|field| eligible(field) && self.has_positions(field.field))
                .copied()
                .collect()
        };
        let mut phrases = Vec::new();
        for (fields, group_weight) in [(main, 1.0), (long, long_weight)] {
            for field in eligible(fields) {
                // The word alone in this field, once, at its mean length, scores
                // idf · (k1 + 1) · w / (k1 + w) in BM25F; the phrase, idf summed over its
                // words. `phrases` multiplies by the field's weight.
                let w = field.weight.weight;
                let saturated = (K1 + 1.0) / (K1 + w);
                phrases.extend(self.phrases(
                    &[field],
                    words,
                    true,
                    0,
                    share * group_weight * saturated,
                ));
            }
        }
        phrases
    }

    fn is_people(&self, field: Field) -> bool {
        let schemas = &self.generation.schemas;
        field == schemas.podcasts.people || field == schemas.episodes.people
    }

    /// Phrase queries of `words` in each field with positions, boosted by the field's
    /// weight times `boost`.
    fn phrases(
        &self,
        fields: &[WordField],
        words: &[Word],
        any_word: bool,
        slop: u32,
        boost: Score,
    ) -> Vec<Box<dyn Query>> {
        let spellings: Vec<&Spellings> = words.iter().map(Word::spellings).collect();
        let mut out: Vec<Box<dyn Query>> = Vec::new();
        for field in fields {
            let phrase: Vec<(&Spellings, String)> = match field.family {
                Some(family) => words
                    .iter()
                    .zip(spellings.iter().copied())
                    .filter(|(word, _)| any_word || word.is_content_in(family))
                    .filter_map(|(word, spelled)| Some((spelled, word.token_in(family)?)))
                    .collect(),
                None => words
                    .iter()
                    .zip(spellings.iter().copied())
                    .map(|(word, spelled)| (spelled, word.plain_token()))
                    .collect(),
            };
            let tokens: Vec<String> = phrase.iter().map(|(_, token)| token.clone()).collect();
            if tokens.len() < 2 {
                if let Some(token) = tokens.first() {
                    out.push(Self::boosted(
                        Box::new(TermQuery::new(
                            Term::from_field_text(field.field, token),
                            IndexRecordOption::WithFreqs,
                        )),
                        field.weight.weight * boost,
                    ));
                }
                continue;
            }
            let spelled = phrase
                .iter()
                .map(|(spelled, _)| spelled.in_field(field.family));
            for tokens in spelled_phrases(&tokens, spelled) {
                let query = PhraseQuery::new_with_offset_and_slop(
                    tokens
                        .iter()
                        .enumerate()
                        .map(|(offset, token)| (offset, Term::from_field_text(field.field, token)))
                        .collect(),
                    slop,
                );
                out.push(Self::boosted(Box::new(query), field.weight.weight * boost));
            }
        }
        out
    }

    /// Guarded: a boolean explains each of its clauses, and a phrase clause that starts
    /// past the explained document must not be sought back to it.
    fn boosted(query: Box<dyn Query>, boost: Score) -> Box<dyn Query> {
        Box::new(Guarded::new(Box::new(BoostQuery::new(query, boost))))
    }

    /// The title-like fields of the term's targets (titles and people), and its
    /// description fields, each with positions.
    fn positional_fields(&self, targets: &[Target]) -> (Vec<WordField>, Vec<WordField>) {
        let (main, _) = self.groups(targets);
        let schemas = &self.generation.schemas;
        let titles = [schemas.podcasts.people, schemas.episodes.people];
        main.into_iter().partition(|field| {
            let is_title = match self.kind {
                IndexKind::Podcasts => schemas.podcasts.title.iter().any(|(_, f)| f == field.field),
                IndexKind::Episodes => schemas.episodes.title.iter().any(|(_, f)| f == field.field),
            };
            is_title || titles.contains(&field.field)
        })
    }

    /// One content word of `plan` over `targets` alone, with the plan's fuzziness.
    pub fn word_only(&self, targets: &[Target], word: &Word, plan: &TermPlan) -> WordQuery {
        let at = plan
            .words
            .content
            .iter()
            .position(|content| content == word);
        let fuzzy = at.is_some_and(|at| plan.fuzzy[at]);
        let abbreviated = at.map_or(&[][..], |at| &plan.abbreviated[at]);
        self.word_query(targets, word, fuzzy, false, &[], abbreviated, Vec::new())
    }

    /// The term's queries, `None` when it has no word to search.
    pub fn term(
        &self,
        plan: &TermPlan,
        extras: &dyn Fn(&Word) -> Vec<Box<dyn Query>>,
    ) -> Option<TermQueries> {
        let term = &plan.term;
        let words = &plan.words;
        if words.is_empty() {
            return None;
        }
        let targets = &term.targets;
        // A phrase, or a term of stopwords only: the words in order.
        if (term.phrase && words.all.len() > 1) || words.only_stopwords() {
            if words.all.len() == 1 {
                let query =
                    self.word_query(targets, &words.all[0], false, true, &[], &[], Vec::new());
                return (!query.is_empty()).then(|| TermQueries {
                    matching: Box::new(query),
                    bonus: None,
                });
            }
            let (titles, descriptions) = self.positional_fields(targets);
            let (_, long) = self.groups(targets);
            let slop = if term.phrase { term.slop } else { 0 };
            let mut phrases = self.phrases(&titles, &words.all, true, slop, 1.0);
            phrases.extend(self.phrases(&descriptions, &words.all, true, slop, 1.0));
            if long.iter().all(|field| self.has_positions(field.field)) {
                let long_weight = match self.kind {
                    IndexKind::Podcasts => self.weights.podcast_episodes_group,
                    IndexKind::Episodes => self.weights.transcript_group,
                };
                phrases.extend(self.phrases(&long, &words.all, true, slop, long_weight));
            }
            if phrases.is_empty() {
                return Some(TermQueries {
                    matching: Box::new(tantivy::query::EmptyQuery),
                    bonus: None,
                });
            }
            return Some(TermQueries {
                matching: Box::new(AnyFieldQuery::new(phrases, 0.3)),
                bonus: self.exact_title(term),
            });
        }
        // The languages the term names ("german"), among those searched and stemmed:
        // its words match their translations there too.
        let translate: Vec<LanguageFamily> = words
            .content
            .iter()
            .flat_map(|word| language_codes(&word.folded))
            .map(|code| LanguageFamily::from_language_tag(Some(code)))
            .filter(|family| {
                !matches!(family, LanguageFamily::English | LanguageFamily::Other)
                    && self.families.contains(family)
            })
            .collect();
        // The content word at `at`, with its fuzziness and abbreviations from the plan.
        let word_query = |at: usize| -> Box<dyn Query> {
            let word = &words.content[at];
            Box::new(self.word_query(
                targets,
                word,
                plan.fuzzy[at],
                false,
                &translate,
                &plan.abbreviated[at],
                extras(word),
            ))
        };
        let matching: Box<dyn Query> = match term.match_mode {
            MatchMode::Optional => {
                // Words naming a language ("german") stand beside the others: a show in
                // that language holds them without sharing the other words' coverage.
                let (languages, others): (Vec<usize>, Vec<usize>) = (0..words.content.len())
                    .partition(|at| !language_codes(&words.content[*at].folded).is_empty());
                let mut clauses: Vec<Box<dyn Query>> =
                    languages.into_iter().map(word_query).collect();
                let others: Vec<Box<dyn Query>> = others.into_iter().map(word_query).collect();
                match others.len() {
                    0 => {}
                    1 => clauses.extend(others),
                    _ => clauses.push(Box::new(CoverageQuery::new(
                        others,
                        self.weights.coverage_exponent,
                    ))),
                }
                match clauses.len() {
                    0 => return None,
                    1 => clauses.pop()?,
                    _ => Box::new(BooleanQuery::new(
                        clauses.into_iter().map(|q| (Occur::Should, q)).collect(),
                    )),
                }
            }
            // Must: every word; Not: excludes a document holding every word.
            _ => {
                let mut all: Vec<Box<dyn Query>> =
                    (0..words.content.len()).map(word_query).collect();
                match all.len() {
                    0 => return None,
                    1 => all.pop()?,
                    _ => Box::new(BooleanQuery::new(
                        all.into_iter().map(|q| (Occur::Must, q)).collect(),
                    )),
                }
            }
        };
        if term.match_mode == MatchMode::Not {
            return Some(TermQueries {
                matching,
                bonus: None,
            });
        }
        Some(TermQueries {
            matching,
            bonus: self.bonus(plan),
        })
    }

    fn has_positions(&self, field: Field) -> bool {
        let schema = match self.kind {
            IndexKind::Podcasts => &self.generation.schemas.podcasts.schema,
            IndexKind::Episodes => &self.generation.schemas.episodes.schema,
        };
        match schema.get_field_entry(field).field_type() {
            tantivy::schema::FieldType::Str(options) => options
                .get_indexing_options()
                .is_some_and(|indexing| indexing.index_option().has_positions()),
            _ => false,
        }
    }

    /// Proximity of the content words, the whole term as a phrase in titles, and an
    /// exact title.
    fn bonus(&self, plan: &TermPlan) -> Option<Box<dyn Query>> {
        let words = &plan.words;
        let targets = &plan.term.targets;
        let (titles, descriptions) = self.positional_fields(targets);
        let w = self.weights;
        let mut clauses: Vec<Box<dyn Query>> = Vec::new();
        if words.content.len() > 1 {
            // A compound near the other words as written: "x-men comics" is near in
            // "X-Men comics" (its one-letter part, no content word, is left out).
            let near: Vec<Word> = words
                .content
                .iter()
                .flat_map(Word::as_written)
                .cloned()
                .collect();
            clauses.extend(self.phrases(
                &titles,
                &near,
                false,
                w.proximity_slop,
                w.proximity_title,
            ));
            clauses.extend(self.phrases(
                &descriptions,
                &near,
                false,
                w.proximity_slop,
                w.proximity_description,
            ));
            if self.kind == IndexKind::Podcasts {
                let (_, long) = self.groups(targets);
                let long: Vec<WordField> = long
                    .into_iter()
                    .filter(|field| self.has_positions(field.field))
                    .collect();
                clauses.extend(self.phrases(
                    &long,
                    &near,
                    false,
                    w.proximity_slop,
                    w.proximity_episodes * w.podcast_episodes_group,
                ));
            }
        }
        if words.all.len() > 1 {
            clauses.extend(self.phrases(&titles, &words.all, true, 0, w.phrase_title));
        }
        if let Some(exact) = self.exact_title(&plan.term) {
            clauses.push(exact);
        }
        match clauses.len() {
            0 => None,
            1 => clauses.pop(),
            _ => Some(Box::new(Guarded::new(Box::new(BooleanQuery::new(
                clauses.into_iter().map(|q| (Occur::Should, q)).collect(),
            ))))),
        }
    }

    /// The whole term equals the podcast's title.
    fn exact_title(&self, term: &SearchTerm) -> Option<Box<dyn Query>> {
        if self.kind != IndexKind::Podcasts || !term.targets.contains(&Target::PodcastTitle) {
            return None;
        }
        let form = exact_form(&term.text);
        if form.is_empty() {
            return None;
        }
        let field = self.generation.schemas.podcasts.title_exact;
        Some(Box::new(Guarded::new(Box::new(ConstScore::new(
            Box::new(TermQuery::new(
                Term::from_field_text(field, &form),
                IndexRecordOption::Basic,
            )),
            self.weights.exact_title,
        )))))
    }
}
