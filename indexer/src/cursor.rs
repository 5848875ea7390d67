//! The opaque paging cursor: the last hit's sort key and id, and a fingerprint of the
//! mode and sort it belongs to, in URL-safe base64. Stateless (`search_after`), so it
//! never caps depth and survives server restarts. A relevance search that fuses keyword
//! and vector rankings pages through its fused window by position instead (the fused
//! order is recomputed, identically, for every page), then by key after the window.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::error::{IndexError, Result};
use crate::request::{NullOrder, SearchMode, SortDirection, SortField, SortOrder};
use crate::sort_key::SortKey;

const VERSION: u8 = 1;
const LENGTH: usize = 1 + 4 + 1 + 16 + 16;
const FUSED_VERSION: u8 = 2;
const FUSED_LENGTH: usize = 1 + 4 + 4;

/// Where the next page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// After this sort key.
    After(SortKey),
    /// At this position of the fused order of a hybrid search.
    Fused(u32),
}

/// Encodes the cursor at position `offset` of a fused order.
pub fn encode_fused(mode: SearchMode, order: &SortOrder, offset: u32) -> String {
    let mut bytes = Vec::with_capacity(FUSED_LENGTH);
    bytes.push(FUSED_VERSION);
    bytes.extend_from_slice(&fingerprint(mode, order));
    bytes.extend_from_slice(&offset.to_be_bytes());
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes either kind of cursor, checking it belongs to this mode and sort.
pub fn decode_position(cursor: &str, mode: SearchMode, order: &SortOrder) -> Result<Position> {
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor.trim())
        .map_err(|_| IndexError::InvalidCursor("not base64".into()))?;
    if bytes.len() == FUSED_LENGTH && bytes[0] == FUSED_VERSION {
        if bytes[1..5] != fingerprint(mode, order) {
            return Err(IndexError::InvalidCursor(
                "cursor belongs to another search mode or sort".into(),
            ));
        }
        let offset = u32::from_be_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]);
        return Ok(Position::Fused(offset));
    }
    decode(cursor, mode, order).map(Position::After)
}

fn fingerprint(mode: SearchMode, order: &SortOrder) -> [u8; 4] {
    let field = match order.field {
        SortField::Relevance => 0,
        SortField::RecentActivity => 1,
        SortField::Title => 2,
        SortField::AppleReviews => 3,
        SortField::SpotifyReviews => 4,
        SortField::AuthorityScore => 5,
    };
    [
        u8::from(mode == SearchMode::Episodes),
        field,
        u8::from(order.direction == SortDirection::Desc),
        u8::from(order.nulls == NullOrder::First),
    ]
}

/// Encodes the cursor after `key`.
pub fn encode(mode: SearchMode, order: &SortOrder, key: &SortKey) -> String {
    let mut bytes = Vec::with_capacity(LENGTH);
    bytes.push(VERSION);
    bytes.extend_from_slice(&fingerprint(mode, order));
    let (present, (a, b)) = match key.value {
        Some(value) => (1u8, value),
        None => (0u8, (0, 0)),
    };
    bytes.push(present);
    bytes.extend_from_slice(&a.to_be_bytes());
    bytes.extend_from_slice(&b.to_be_bytes());
    bytes.extend_from_slice(&key.id.0.to_be_bytes());
    bytes.extend_from_slice(&key.id.1.to_be_bytes());
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes a cursor, checking it belongs to this mode and sort.
pub fn decode(cursor: &str, mode: SearchMode, order: &SortOrder) -> Result<SortKey> {
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor.trim())
        .map_err(|_| IndexError::InvalidCursor("not base64".into()))?;
    if bytes.len() != LENGTH || bytes[0] != VERSION {
        return Err(IndexError::InvalidCursor("unknown cursor format".into()));
    }
    if bytes[1..5] != fingerprint(mode, order) {
        return Err(IndexError::InvalidCursor(
            "cursor belongs to another search mode or sort".into(),
        ));
    }
    let word = |at: usize| {
        let mut buffer = [0u8; 8];
        buffer.copy_from_slice(&bytes[at..at + 8]);
        u64::from_be_bytes(buffer)
    };
    let value = match bytes[5] {
        0 => None,
        1 => Some((word(6), word(14))),
        _ => return Err(IndexError::InvalidCursor("unknown cursor format".into())),
    };
    Ok(SortKey {
        value,
        id: (word(22), word(30)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejections() {
        let order = SortOrder::default();
        let key = SortKey {
            value: Some((u64::MAX, 3)),
            id: (17, 42),
        };
        let text = encode(SearchMode::Podcasts, &order, &key);
        assert_eq!(decode(&text, SearchMode::Podcasts, &order).unwrap(), key);
        assert!(decode(&text, SearchMode::Episodes, &order).is_err());
        let other = SortOrder {
            direction: SortDirection::Asc,
            ..order
        };
        assert!(decode(&text, SearchMode::Podcasts, &other).is_err());
        assert!(decode("!!", SearchMode::Podcasts, &order).is_err());
        assert!(decode("AAAA", SearchMode::Podcasts, &order).is_err());
        let null = SortKey {
            value: None,
            id: (1, 2),
        };
        let text = encode(SearchMode::Episodes, &order, &null);
        assert_eq!(decode(&text, SearchMode::Episodes, &order).unwrap(), null);
        assert_eq!(
            decode_position(&text, SearchMode::Episodes, &order).unwrap(),
            Position::After(null)
        );
        let fused = encode_fused(SearchMode::Podcasts, &order, 20);
        assert_eq!(
            decode_position(&fused, SearchMode::Podcasts, &order).unwrap(),
            Position::Fused(20)
        );
        assert!(decode_position(&fused, SearchMode::Episodes, &order).is_err());
        assert!(decode(&fused, SearchMode::Podcasts, &order).is_err());
    }
}
