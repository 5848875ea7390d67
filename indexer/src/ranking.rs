//! Every constant of the ranking, in one place, each with what measured it.
//!
//! Figures are podcast (or episode) nDCG@10 from `cargo bench -p podlens-indexer --bench
//! search_relevance` (`benches/relevance/RESULTS.md`), on its tuning split unless a
//! figure says held back. A constant "set by hand" was chosen without a figure of its
//! own; where a later search left it as it was, that is said too.

use tantivy::Score;

/// BM25's saturation constant. Set by hand with the first BM25F model (f0130e7), the
/// textbook value; no figure of its own.
pub const K1: Score = 1.2;

/// A field's weight and length normalisation.
#[derive(Debug, Clone, Copy)]
pub struct FieldWeight {
    pub weight: Score,
    pub b: Score,
}

const fn field(weight: Score, b: Score) -> FieldWeight {
    FieldWeight { weight, b }
}

/// Every weight of the relevance model.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    pub podcast_title: FieldWeight,
    pub podcast_people: FieldWeight,
    pub podcast_description: FieldWeight,
    pub podcast_keywords: FieldWeight,
    pub podcast_categories: FieldWeight,
    pub podcast_episodes: FieldWeight,
    /// The weight of the podcast's episodes' group.
    pub podcast_episodes_group: Score,
    pub episode_title: FieldWeight,
    pub episode_people: FieldWeight,
    pub episode_description: FieldWeight,
    pub episode_keywords: FieldWeight,
    pub transcript: FieldWeight,
    pub transcript_group: Score,
    /// An episode whose podcast matches the word (podcast targets in episode searches).
    pub podcast_join: Score,
    /// A podcast (or an episode's podcast) in the language a word names ("german").
    pub language_match: Score,
    /// `γ` of the coverage factor `(held / words)^γ`.
    pub coverage_exponent: Score,
    /// Content words within this many positions of each other, in order…
    pub proximity_slop: u32,
    /// …add this share of their phrase score in a title…
    pub proximity_title: Score,
    /// …and this in a description.
    pub proximity_description: Score,
    /// …and this share of the episodes' group weight in a podcast's episodes.
    pub proximity_episodes: Score,
    /// The whole term as a phrase in a title or the people.
    pub phrase_title: Score,
    /// The whole term is the title.
    pub exact_title: Score,
    /// A fuzzy match (asked for, or of a word the catalog does not have) scores this
    /// share of the field's weight.
    pub fuzzy: Score,
    /// A word's translation into a language the term names ([`crate::translations`])
    /// counts at this share of the field's weight.
    pub translation: Score,
    /// Another word of the word's family ([`crate::derivations`]: "historian" for
    /// "history") counts at this share of the field's weight.
    pub derivation: Score,
    /// An abbreviation's other form ([`crate::abbreviations`]: "artificial intelligence"
    /// for "ai", and back) counts at this share of the field's weight: a one-word form in
    /// each word's frequency, a longer form as a phrase scaled to one word (see
    /// `form_phrases`).
    pub abbreviation: Score,
}

/// The weights in use.
///
/// Most field weights were set by hand with the first BM25F model (f0130e7). A
/// coordinate search on 2026-11-26 (3970fd7: 24 weights, each times 0.5, 0.75, 1.33 and
/// 2 in turn, kept when the tuning split's mean nDCG@10 over podcast and episode queries
/// rose by more than 0.002; two rounds) changed three and left the others where they
/// were: "left by the search" below. That commit as a whole took the tuning split
/// 0.823 → 0.848 and the held-back split 0.774 → 0.784.
pub const WEIGHTS: Weights = Weights {
    // Set by hand (f0130e7); left by the search.
    podcast_title: field(3.0, 0.5),
    podcast_people: field(2.5, 0.5),
    // 1.0 → 0.5 by the search (3970fd7).
    podcast_description: field(0.5, 0.75),
    // Set by hand (f0130e7); left by the search.
    podcast_keywords: field(0.4, 0.75),
    podcast_categories: field(1.5, 0.3),
    podcast_episodes: field(1.0, 0.75),
    // 0.45 → 0.3 on the tuning split (00c1a6f, with translations: 0.766 → 0.789), then
    // 0.3 → 0.15 by the search (3970fd7).
    podcast_episodes_group: 0.15,
    // Set by hand (f0130e7); left by the search.
    episode_title: field(2.0, 0.5),
    episode_people: field(2.0, 0.5),
    episode_description: field(1.0, 0.75),
    episode_keywords: field(0.4, 0.75),
    transcript: field(1.0, 0.75),
    transcript_group: 0.6,
    podcast_join: 1.0,
    // 2.0 by hand, 3.0 (1809921), then 4.0 by the search: English queries for shows in
    // other languages, both splits, 0.681 → 0.811 (3970fd7).
    language_match: 4.0,
    // Set by hand (f0130e7); left by the search.
    coverage_exponent: 1.5,
    proximity_slop: 3,
    proximity_title: 0.5,
    proximity_description: 0.25,
    // New with the search's commit (3970fd7), no trial of its own: with it, "jordan
    // peterson" ranks the shows he was a guest of before The Ruminant, whose host is
    // called Jordan (first before, fifth now).
    proximity_episodes: 3.0,
    // Set by hand (f0130e7); left by the search.
    phrase_title: 1.0,
    exact_title: 3.0,
    fuzzy: 0.5,
    // With translations (00c1a6f; podcast tuning 0.766 → 0.789, held back 0.731 →
    // 0.751, crosslang 0.445 → 0.547); no other share tried; left by the search.
    translation: 1.0,
    // 0.25, 0.5, 0.75 and 1.0 all gave 0.850–0.851 (3e12ee1); 0.5 kept. The word
    // families as a whole: tuning 0.848 → 0.851, held back 0.784 → 0.800.
    derivation: 0.5,
    // 0.5 gave 0.8527 and 1.0 0.8532 (494115b).
    abbreviation: 1.0,
};

/// A word's abbreviation phrases score as the best of them plus this share of the others
/// (in other fields, other forms): one word's worth, as the word's own fields saturate.
/// Best phrase plus a tenth of the others 0.8527, the best phrase alone 0.8519
/// (9cc2881); no other share tried.
pub(crate) const FORM_TIE_BREAKER: Score = 0.1;

/// The most phrases one phrase of a term becomes with its words' other spellings. A
/// bound on a query's work, set by hand (3970fd7); no figure.
pub(crate) const SPELLED_PHRASES: usize = 4;

/// β of the podcast prior (`crate::collector::Prior`): the prior moves a score by at
/// most this share. Set by hand with hybrid search (d0a6d4b), whose commit as a whole
/// took the tuning split 0.744 → 0.759 and held back 0.716 → 0.734; no figure of its
/// own.
pub(crate) const PRIOR_BETA: f32 = 0.2;

/// The prior's signals and their shares: authority, episode count and recency, each
/// 0 to 1 (`crate::collector::Prior`). Set by hand (d0a6d4b); no figure.
pub(crate) const PRIOR_AUTHORITY_SHARE: f64 = 0.5;
pub(crate) const PRIOR_EPISODES_SHARE: f64 = 0.25;
pub(crate) const PRIOR_RECENCY_SHARE: f64 = 0.25;
/// The episode count's signal reaches 1 at 10^this − 1 episodes (999). Set by hand
/// (d0a6d4b); no figure.
pub(crate) const PRIOR_EPISODE_DECADES: f64 = 3.0;
/// Recency is 1 / (1 + days / this): ½ for a show whose last episode is this many days
/// older than the catalog's newest. Set by hand (d0a6d4b); no figure.
pub(crate) const PRIOR_RECENCY_DAYS: f64 = 180.0;

/// Keyword hits fused (at least). Set by hand with hybrid search (d0a6d4b); no figure.
pub const FUSED_DEPTH: usize = 200;

/// The weights of the fusion.
#[derive(Debug, Clone, Copy)]
pub struct Fusion {
    pub keyword: Score,
    pub vector: Score,
}

/// Weights of an ordinary query. Set by hand (d0a6d4b); vector weights 0.9 and 1.2
/// did not beat it with the fitted static model (41fd897), nor every vector weight
/// times 1.7 (cd75a9f: 0.841 against 0.853).
pub const FUSION: Fusion = Fusion {
    keyword: 1.0,
    vector: 0.6,
};

/// Weights of an ordinary podcast query fused with the show vectors of the encoder
/// (`crate::vectors::shows`). Tuned on the tuning split of `benches/relevance`
/// (podcast nDCG@10, with [`STATIC_BESIDE_SHOWS`]): vector weight 0.6 gave 0.861, 0.9
/// 0.865 (static 0.3), 1.0 0.865, 1.3 0.866 with names dropping (0.976 → 0.970); the
/// held-back split 0.800 (static vectors alone) → 0.838 at 1.0.
pub const SHOWS_FUSION: Fusion = Fusion {
    keyword: 1.0,
    vector: 1.0,
};

/// With the show vectors, the static model's similarity is fused beside them at this
/// weight (scaled like the vector weight). Tuning split: at vector weight 0.6, 0 and 0.6
/// both gave 0.861 (held back 0.822 and 0.825); at 1.0, 0.6 gave 0.865 and 0.9 0.864.
pub const STATIC_BESIDE_SHOWS: Score = 0.6;

/// Weights of a "shows like X" query (the named show keeps its keyword weight). Set
/// by hand (d0a6d4b); vector weight 2.5 and keyword weight 0.15 did not beat it
/// (41fd897).
pub const LIKE_FUSION: Fusion = Fusion {
    keyword: 0.3,
    vector: 1.5,
};

/// In a "shows like X" query, a candidate gains this much times the Jaccard share of
/// genres it has in common with X (the whole weight for the same set of genres): shows
/// of one kind are alike even where their words and static vectors are not. 2.0 at
/// first (00c1a6f), 1.0 since 2a66aa2 ("like" 0.572 → 0.577); no other weight tried.
pub const LIKE_GENRE_WEIGHT: Score = 1.0;

/// Related podcasts without vectors ([`crate::related::RelatedMethod::TextAndGenres`])
/// re-rank this many of the podcasts most alike by text. Judged with the "like"
/// queries' named shows (`search_relevance -- related`, nDCG@10 without the show, 15
/// queries, tuned on them with [`TEXT_GENRE_WEIGHT`]): 25 gave 0.523, 50 0.547, 100
/// 0.556 (weight 1.0); text alone 0.386.
pub const TEXT_AND_GENRES_DEPTH: usize = 100;

/// ... and each gains this much times the Jaccard share of genres it has in common with
/// the show, beside its text score as a share of the best one's. At depth 100: 1.0 gave
/// 0.556, 2.0 0.584, 4.0 0.580 (at depth 50: 0.5 gave 0.500, 1.0 0.547, 2.0 0.573).
pub const TEXT_GENRE_WEIGHT: Score = 2.0;

/// Episodes weigh the vectors at this share of podcasts' weight: an episode's vector is
/// one description or passage, noisier than a podcast's centroid. Set by hand
/// (d0a6d4b); every vector weight times 1.7 took episodes 0.895 → 0.886 (cd75a9f).
pub const EPISODE_VECTOR_SHARE: Score = 0.4;

/// Podcasts nearest to the query added to a hybrid search's fusion. Set by hand
/// (d0a6d4b); no figure.
pub const VECTOR_CANDIDATES: usize = 30;

/// Rank constant of reciprocal-rank fusion (related podcasts). The usual 60, set by
/// hand (ee5f6c7); no figure.
pub(crate) const RRF_K: f32 = 60.0;
