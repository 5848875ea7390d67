//! A hit's stored fields, read straight from the document store.
//!
//! tantivy's own document (`TantivyDocument`) copies every stored value into a buffer of
//! its own, and a hit then copied each string out of it again: at 1M episodes that was
//! a tenth of an episode search's time. [`StoredFields`] keeps each value as the store
//! decodes it, and a hit takes its strings without copying them.

use chrono::{DateTime, Utc};
use tantivy::TantivyDocument;
use tantivy::schema::document::{
    DeserializeError, DocumentDeserialize, DocumentDeserializer, ValueDeserialize,
    ValueDeserializer, ValueVisitor,
};
use tantivy::schema::{Field, Value};
use uuid::Uuid;

/// One stored value: text, numbers and booleans; any other type is skipped.
#[derive(Debug, Clone, PartialEq)]
enum Stored {
    Text(String),
    U64(u64),
    I64(i64),
    Bool(bool),
    Other,
}

impl ValueDeserialize for Stored {
    fn deserialize<'de, D>(deserializer: D) -> Result<Self, DeserializeError>
    where
        D: ValueDeserializer<'de>,
    {
        deserializer.deserialize_any(StoredVisitor)
    }
}

struct StoredVisitor;

impl ValueVisitor for StoredVisitor {
    type Value = Stored;

    fn visit_null(&self) -> Result<Stored, DeserializeError> {
        Ok(Stored::Other)
    }

    fn visit_string(&self, value: String) -> Result<Stored, DeserializeError> {
        Ok(Stored::Text(value))
    }

    fn visit_u64(&self, value: u64) -> Result<Stored, DeserializeError> {
        Ok(Stored::U64(value))
    }

    fn visit_i64(&self, value: i64) -> Result<Stored, DeserializeError> {
        Ok(Stored::I64(value))
    }

    fn visit_f64(&self, _value: f64) -> Result<Stored, DeserializeError> {
        Ok(Stored::Other)
    }

    fn visit_bool(&self, value: bool) -> Result<Stored, DeserializeError> {
        Ok(Stored::Bool(value))
    }

    fn visit_datetime(&self, _value: tantivy::DateTime) -> Result<Stored, DeserializeError> {
        Ok(Stored::Other)
    }

    fn visit_ip_address(&self, _value: std::net::Ipv6Addr) -> Result<Stored, DeserializeError> {
        Ok(Stored::Other)
    }

    fn visit_facet(&self, _value: tantivy::schema::Facet) -> Result<Stored, DeserializeError> {
        Ok(Stored::Other)
    }

    fn visit_bytes(&self, _value: Vec<u8>) -> Result<Stored, DeserializeError> {
        Ok(Stored::Other)
    }
}

/// The stored fields of one document, in the order the store keeps them.
#[derive(Debug, Default)]
pub(crate) struct StoredFields(Vec<(Field, Stored)>);

impl DocumentDeserialize for StoredFields {
    fn deserialize<'de, D>(mut deserializer: D) -> Result<Self, DeserializeError>
    where
        D: DocumentDeserializer<'de>,
    {
        let mut fields = Vec::with_capacity(deserializer.size_hint());
        while let Some(field) = deserializer.next_field::<Stored>()? {
            fields.push(field);
        }
        Ok(StoredFields(fields))
    }
}

impl StoredFields {
    fn first(&self, field: Field) -> Option<&Stored> {
        self.0
            .iter()
            .find(|(stored, _)| *stored == field)
            .map(|(_, value)| value)
    }

    /// The first text of `field`, taken out (a second call finds the next one).
    pub(crate) fn take_text(&mut self, field: Field) -> Option<String> {
        self.0.iter_mut().find_map(|(stored, value)| match value {
            Stored::Text(text) if *stored == field => {
                let text = std::mem::take(text);
                *value = Stored::Other;
                Some(text)
            }
            _ => None,
        })
    }

    /// Every text of `field`, taken out.
    pub(crate) fn take_texts(&mut self, field: Field) -> Vec<String> {
        std::iter::from_fn(|| self.take_text(field)).collect()
    }

    /// The first text of `field`, borrowed.
    pub(crate) fn text(&self, field: Field) -> Option<&str> {
        match self.first(field)? {
            Stored::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The first text of `field` read as a UUID.
    pub(crate) fn uuid(&self, field: Field) -> Option<Uuid> {
        self.text(field).and_then(|id| Uuid::parse_str(id).ok())
    }

    /// The first number of `field` read as a date (seconds since the epoch).
    pub(crate) fn date(&self, field: Field) -> Option<DateTime<Utc>> {
        self.i64(field)
            .and_then(|seconds| DateTime::from_timestamp(seconds, 0))
    }

    pub(crate) fn u64(&self, field: Field) -> Option<u64> {
        match self.first(field)? {
            Stored::U64(value) => Some(*value),
            _ => None,
        }
    }

    fn i64(&self, field: Field) -> Option<i64> {
        match self.first(field)? {
            Stored::I64(value) => Some(*value),
            _ => None,
        }
    }

    pub(crate) fn bool(&self, field: Field) -> Option<bool> {
        match self.first(field)? {
            Stored::Bool(value) => Some(*value),
            _ => None,
        }
    }
}

pub(crate) fn text(doc: &TantivyDocument, field: Field) -> Option<String> {
    doc.get_first(field)
        .and_then(|value| value.as_str())
        .map(str::to_owned)
}

pub(crate) fn texts(doc: &TantivyDocument, field: Field) -> Vec<String> {
    doc.get_all(field)
        .filter_map(|value| value.as_str())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use tantivy::schema::{INDEXED, STORED, Schema, TantivyDocument, Value};
    use tantivy::{Index, doc};

    use super::*;

    /// Every stored value of a document reads as tantivy's own document reads it: texts
    /// (the second value of a field too), unsigned and signed numbers and booleans; a
    /// float is skipped without losing the fields after it.
    #[test]
    fn stored_fields_read_as_tantivys_own_document_does() {
        let mut builder = Schema::builder();
        let title = builder.add_text_field("title", STORED);
        let count = builder.add_u64_field("count", STORED);
        let float = builder.add_f64_field("float", STORED);
        let date = builder.add_i64_field("date", STORED | INDEXED);
        let flag = builder.add_bool_field("flag", STORED);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        writer
            .add_document(doc!(
                title => "Ünïcode \"quoted\" title 🎙",
                count => 42_u64,
                float => 0.5_f64,
                title => "a second title",
                date => -1_700_000_000_i64,
                flag => true,
            ))
            .unwrap();
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let address = tantivy::DocAddress::new(0, 0);
        let own: TantivyDocument = searcher.doc(address).unwrap();
        let mut stored: StoredFields = searcher.doc(address).unwrap();
        assert_eq!(
            stored.u64(count),
            own.get_first(count).and_then(|v| v.as_u64())
        );
        assert_eq!(
            stored.i64(date),
            own.get_first(date).and_then(|v| v.as_i64())
        );
        assert_eq!(
            stored.bool(flag),
            own.get_first(flag).and_then(|v| v.as_bool())
        );
        assert_eq!(stored.u64(float), None);
        let titles: Vec<&str> = own.get_all(title).filter_map(|v| v.as_str()).collect();
        assert_eq!(stored.text(title), Some(titles[0]));
        assert_eq!(stored.take_text(title).as_deref(), Some(titles[0]));
        assert_eq!(stored.take_text(title).as_deref(), Some(titles[1]));
        assert_eq!(stored.take_text(title), None);
        assert_eq!(stored.text(count), None);
        let mut again: StoredFields = searcher.doc(address).unwrap();
        assert_eq!(again.take_texts(title), titles);
        assert_eq!(
            again.date(date).map(|date| date.timestamp()),
            Some(-1_700_000_000)
        );
    }
}
