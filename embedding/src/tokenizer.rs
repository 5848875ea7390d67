//! The MPNet WordPiece tokenizer (`tokenizer.json` of all-mpnet-base-v2: BERT normalizer
//! with lowercasing and accent stripping, BERT pre-tokenizer, WordPiece with `##`
//! continuations, `<s> … </s>` around a sequence), reimplemented so the bulk embedding
//! path does not pull in a tokenizer framework.
//!
//! One deliberate difference from the reference: special-token strings written literally in
//! the input (`<s>`, `</s>`, `<mask>`, …) are tokenized as text, never as control tokens.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

use super::error::{EmbeddingError, EmbeddingResult};

/// Longest word (in characters) WordPiece splits; longer words become `[UNK]`.
const MAX_WORD_CHARS: usize = 100;
/// Sentence-transformers' `max_seq_length` for all-mpnet-base-v2, special tokens included.
pub const MAX_SEQUENCE_TOKENS: usize = 384;

/// FNV-1a: the vocabulary maps short strings, where SipHash costs more than the lookup.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

type FastMap = HashMap<String, u32, BuildHasherDefault<Fnv>>;

/// A WordPiece vocabulary with the special tokens MPNet wraps sequences in.
#[derive(Debug, Clone)]
pub struct WordPieceTokenizer {
    /// Word-initial pieces.
    initial: FastMap,
    /// Continuation pieces, stored without their `##` prefix.
    continuation: FastMap,
    tokens: Vec<String>,
    unknown_id: u32,
    start_id: u32,
    end_id: u32,
}

impl WordPieceTokenizer {
    /// Reads `vocab.txt` (one token per line, the line number is the id).
    pub fn from_vocab_file(path: &Path) -> EmbeddingResult<Self> {
        if !path.exists() {
            return Err(EmbeddingError::MissingFile(path.to_path_buf()));
        }
        let text =
            std::fs::read_to_string(path).map_err(|error| EmbeddingError::io(path, error))?;
        let tokens: Vec<String> = text.lines().map(str::to_owned).collect();
        Self::from_tokens(tokens).map_err(|reason| EmbeddingError::invalid(path, reason))
    }

    /// Builds the tokenizer from the vocabulary in id order.
    pub fn from_tokens(tokens: Vec<String>) -> Result<Self, String> {
        let mut initial = FastMap::default();
        let mut continuation = FastMap::default();
        for (id, token) in tokens.iter().enumerate() {
            let id = u32::try_from(id).map_err(|_| "vocabulary too large".to_owned())?;
            match token.strip_prefix("##") {
                Some(rest) if !rest.is_empty() => {
                    continuation.entry(rest.to_owned()).or_insert(id);
                }
                _ => {
                    initial.entry(token.clone()).or_insert(id);
                }
            }
        }
        let find = |name: &str| {
            initial
                .get(name)
                .copied()
                .ok_or_else(|| format!("vocabulary has no {name} token"))
        };
        let unknown_id = find("[UNK]")?;
        let start_id = find("<s>")?;
        let end_id = find("</s>")?;
        Ok(Self {
            initial,
            continuation,
            tokens,
            unknown_id,
            start_id,
            end_id,
        })
    }

    /// Number of tokens in the vocabulary.
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The token string of an id.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    /// Id of `[UNK]`.
    pub fn unknown_id(&self) -> u32 {
        self.unknown_id
    }

    /// Ids of `<s>` and `</s>`.
    pub fn boundary_ids(&self) -> (u32, u32) {
        (self.start_id, self.end_id)
    }

    /// The reference encoding: `<s>` pieces `</s>`, truncated to [`MAX_SEQUENCE_TOKENS`].
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![self.start_id];
        self.for_each_piece(text, |id| {
            ids.push(id);
            ids.len() < MAX_SEQUENCE_TOKENS - 1
        });
        ids.push(self.end_id);
        ids
    }

    /// All word pieces of `text`, without special tokens and without truncation.
    pub fn pieces(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 4 + 1);
        self.for_each_piece(text, |id| {
            ids.push(id);
            true
        });
        ids
    }

    /// Calls `sink` with each piece id of `text`; stops when `sink` returns false.
    pub fn for_each_piece(&self, text: &str, mut sink: impl FnMut(u32) -> bool) {
        let normalized = normalize(text);
        let mut word = String::new();
        for character in normalized.chars() {
            if character.is_whitespace() {
                if !self.flush_word(&mut word, &mut sink) {
                    return;
                }
            } else if is_punctuation(character) {
                if !self.flush_word(&mut word, &mut sink) {
                    return;
                }
                word.push(character);
                if !self.flush_word(&mut word, &mut sink) {
                    return;
                }
            } else {
                word.push(character);
            }
        }
        self.flush_word(&mut word, &mut sink);
    }

    /// WordPiece-splits `word` into `sink` and clears it; false when `sink` asked to stop.
    fn flush_word(&self, word: &mut String, sink: &mut impl FnMut(u32) -> bool) -> bool {
        if word.is_empty() {
            return true;
        }
        let keep_going = self.split_word(word, sink);
        word.clear();
        keep_going
    }

    fn split_word(&self, word: &str, sink: &mut impl FnMut(u32) -> bool) -> bool {
        if word.chars().count() > MAX_WORD_CHARS {
            return sink(self.unknown_id);
        }
        let mut pieces: Vec<u32> = Vec::new();
        let mut start = 0;
        while start < word.len() {
            let table = if start == 0 {
                &self.initial
            } else {
                &self.continuation
            };
            let mut end = word.len();
            let mut found = None;
            while end > start {
                if let Some(id) = table.get(&word[start..end]) {
                    found = Some(*id);
                    break;
                }
                end = previous_boundary(word, end);
            }
            match found {
                Some(id) => {
                    pieces.push(id);
                    start = end;
                }
                None => return sink(self.unknown_id),
            }
        }
        pieces.into_iter().all(sink)
    }
}

fn previous_boundary(text: &str, index: usize) -> usize {
    let mut index = index - 1;
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// BERT normalizer: drop control characters, map whitespace to a space, surround CJK
/// ideographs with spaces, decompose and drop non-spacing marks, lowercase.
pub fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len() + 8);
    for character in text.chars() {
        if character == '\0' || character == '\u{fffd}' || is_control(character) {
            continue;
        }
        if is_bert_whitespace(character) {
            cleaned.push(' ');
        } else if is_chinese_char(character) {
            cleaned.push(' ');
            cleaned.push(character);
            cleaned.push(' ');
        } else {
            cleaned.push(character);
        }
    }
    let mut out = String::with_capacity(cleaned.len());
    if cleaned.is_ascii() {
        out.extend(cleaned.chars().map(|c| c.to_ascii_lowercase()));
        return out;
    }
    for character in cleaned.nfd().filter(|c| !c.is_mark_nonspacing()) {
        out.extend(character.to_lowercase());
    }
    out
}

fn is_bert_whitespace(character: char) -> bool {
    matches!(character, '\t' | '\n' | '\r') || character.is_whitespace()
}

// ASCII answers without the Unicode tables' binary search: most text is ASCII.
fn is_control(character: char) -> bool {
    if character.is_ascii() {
        return character.is_ascii_control() && !matches!(character, '\t' | '\n' | '\r');
    }
    character.is_other()
}

fn is_punctuation(character: char) -> bool {
    if character.is_ascii() {
        return character.is_ascii_punctuation();
    }
    character.is_punctuation()
}

fn is_chinese_char(character: char) -> bool {
    matches!(
        u32::from(character),
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_classes_agree_with_the_unicode_tables() {
        for code in 0..128_u8 {
            let character = char::from(code);
            assert_eq!(
                is_control(character),
                !matches!(character, '\t' | '\n' | '\r') && character.is_other(),
                "{code}"
            );
            assert_eq!(
                is_punctuation(character),
                character.is_ascii_punctuation() || character.is_punctuation(),
                "{code}"
            );
        }
    }

    fn tiny() -> WordPieceTokenizer {
        let tokens = [
            "<s>", "<pad>", "</s>", "[UNK]", "play", "##ing", "##s", "!", "un", "##play",
        ]
        .iter()
        .map(|t| (*t).to_owned())
        .collect();
        WordPieceTokenizer::from_tokens(tokens).unwrap()
    }

    #[test]
    fn greedy_longest_match_with_continuations() {
        let tokenizer = tiny();
        assert_eq!(tokenizer.encode("Playing!"), vec![0, 4, 5, 7, 2]);
        assert_eq!(tokenizer.pieces("unplays"), vec![8, 9, 6]);
    }

    #[test]
    fn an_unsplittable_word_is_one_unknown() {
        let tokenizer = tiny();
        assert_eq!(tokenizer.pieces("playx plays"), vec![3, 4, 6]);
    }

    #[test]
    fn normalizer_strips_accents_and_lowercases() {
        assert_eq!(normalize("Café\tNAÏVE"), "cafe naive");
        assert_eq!(normalize("中文"), " 中  文 ");
    }

    #[test]
    fn encode_truncates_to_the_model_length() {
        let tokenizer = tiny();
        let ids = tokenizer.encode(&"play ".repeat(1000));
        assert_eq!(ids.len(), MAX_SEQUENCE_TOKENS);
        assert_eq!(ids.last(), Some(&2));
    }
}
