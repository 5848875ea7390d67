//! The podcast directory: every podcast of a generation under the letter its title files
//! under, in title order, read once per generation from the podcasts index (copies of a
//! show are not in it, so each show is listed once).
//!
//! - **Letter.** The first letter of the title's sort form (lowercased, accents folded:
//!   "Émile" under E), after a leading article when more words follow ("The Daily" under
//!   D; English, French, Spanish, Italian, German and Dutch articles).
//! - **`0`** holds every other title: those starting with a digit ("48 Hours", "6 Minute
//!   English"), a symbol, or a letter outside the Latin alphabet (Greek, Japanese).
//! - **Order.** By that sort form (article dropped), then the whole title, then the id.

use std::collections::BTreeMap;

use tantivy::TantivyDocument;
use tantivy::schema::Value;
use uuid::Uuid;

use crate::analysis::title_sort_form;
use crate::error::Result;
use crate::shard::OpenGeneration;
use crate::stored::{text, texts};

/// Leading words that do not decide where a title files.
const ARTICLES: &[&str] = &[
    "a", "an", "the", // English
    "l", "la", "le", "les", // French
    "el", "los", "las", "una", "un", // Spanish
    "il", "lo", "gli", // Italian
    "der", "die", "das", // German
    "de", "het", "een", // Dutch
];

/// The letters of the directory: `a` to `z`, and `0` for every other title.
pub const DIRECTORY_LETTERS: &str = "abcdefghijklmnopqrstuvwxyz0";

/// One podcast of the directory.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DirectoryEntry {
    pub podcast_id: Uuid,
    pub title: String,
    pub slug: String,
    pub author: Option<String>,
    pub image_url: Option<String>,
    pub language: Option<String>,
    pub genres: Vec<String>,
    /// Seconds since the epoch.
    pub last_episode_date: Option<i64>,
    sort_key: String,
}

/// Every podcast of a generation by letter, each letter in title order.
#[derive(Debug, Default)]
pub struct Directory {
    letters: BTreeMap<char, Vec<DirectoryEntry>>,
}

/// The directory letter of a title and the key it sorts by.
pub fn directory_key(title: &str) -> (char, String) {
    let form = title_sort_form(title);
    let mut words: Vec<&str> = form.split(' ').filter(|word| !word.is_empty()).collect();
    if words.len() > 1 && ARTICLES.contains(&words[0]) {
        words.remove(0);
    }
    let key = words.join(" ");
    let letter = key
        .chars()
        .next()
        .filter(|c| c.is_ascii_lowercase())
        .unwrap_or('0');
    (letter, key)
}

/// Every podcast of the open shards `selected` (indexes into `generation.shards`), as
/// the directory lists it.
pub(crate) fn entries(
    generation: &OpenGeneration,
    selected: &[usize],
) -> Result<Vec<DirectoryEntry>> {
    let fields = &generation.schemas.podcasts;
    let mut entries = Vec::new();
    for at in selected {
        let searcher = &generation.shards[*at].podcasts;
        for reader in searcher.segment_readers() {
            let alive = reader.alive_bitset();
            let store = reader
                .get_store_reader(64)
                .map_err(tantivy::TantivyError::from)?;
            for doc in 0..reader.max_doc() {
                if alive.is_none_or(|alive| alive.is_alive(doc)) {
                    let document: TantivyDocument = store.get(doc)?;
                    let title = text(&document, fields.title_stored).unwrap_or_default();
                    let (_, sort_key) = directory_key(&title);
                    entries.push(DirectoryEntry {
                        podcast_id: text(&document, fields.ids.id)
                            .and_then(|id| Uuid::parse_str(&id).ok())
                            .unwrap_or_default(),
                        slug: text(&document, fields.slug).unwrap_or_default(),
                        author: text(&document, fields.author),
                        image_url: text(&document, fields.image_url),
                        language: text(&document, fields.language_tag),
                        genres: texts(&document, fields.genres),
                        last_episode_date: document
                            .get_first(fields.last_episode_date)
                            .and_then(|value| value.as_i64()),
                        title,
                        sort_key,
                    });
                }
            }
        }
    }
    Ok(entries)
}

impl Directory {
    /// Reads every podcast of `generation`.
    pub fn of(generation: &OpenGeneration) -> Result<Directory> {
        let every: Vec<usize> = (0..generation.shards.len()).collect();
        Ok(Directory::from_entries(entries(generation, &every)?))
    }

    /// The directory of `entries` (every podcast of a generation): by letter, each
    /// letter in title order.
    pub fn from_entries(entries: Vec<DirectoryEntry>) -> Directory {
        let mut letters: BTreeMap<char, Vec<DirectoryEntry>> = BTreeMap::new();
        for entry in entries {
            let letter = directory_key(&entry.title).0;
            letters.entry(letter).or_default().push(entry);
        }
        for entries in letters.values_mut() {
            entries.sort_by(|a, b| {
                a.sort_key
                    .cmp(&b.sort_key)
                    .then(a.title.cmp(&b.title))
                    .then(a.podcast_id.cmp(&b.podcast_id))
            });
        }
        Directory { letters }
    }

    /// The podcasts under `letter` (`a`–`z` or `0`): `limit` of them after the first
    /// `skip`, and how many there are.
    pub fn page(&self, letter: char, skip: usize, limit: usize) -> (&[DirectoryEntry], usize) {
        let all = self.letters.get(&letter).map_or(&[][..], Vec::as_slice);
        let start = skip.min(all.len());
        let end = start.saturating_add(limit).min(all.len());
        (&all[start..end], all.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_file_under_their_first_letter_after_an_article() {
        assert_eq!(directory_key("The Daily"), ('d', "daily".into()));
        assert_eq!(directory_key("the"), ('t', "the".into()));
        assert_eq!(directory_key("A Podcast"), ('p', "podcast".into()));
        assert_eq!(directory_key("Die Nachrichtenlage am Morgen").0, 'n');
        assert_eq!(directory_key("Émile's Show").0, 'e');
        assert_eq!(directory_key("48 Hours").0, '0');
        assert_eq!(directory_key("¡Hola!").0, 'h');
        assert_eq!(directory_key("Ελληνοφρένεια").0, '0');
        assert_eq!(directory_key("歴史を面白く学ぶコテンラジオ").0, '0');
        assert_eq!(directory_key("").0, '0');
    }
}
