//! Sort keys: every sort is a nullable pair of `u64` words compared in the requested
//! direction, then the document's id ascending, so results form one total order
//! across segments and shards, and a cursor is simply the last key of a page.

use std::cmp::Ordering;

use crate::request::{NullOrder, SortDirection, SortOrder};

/// A document's position in a sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SortKey {
    pub value: Option<(u64, u64)>,
    /// The document id's halves.
    pub id: (u64, u64),
}

/// `f64` → `u64` preserving order (NaN sorts above everything).
pub fn f64_key(value: f64) -> u64 {
    let bits = value.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// The inverse of [`f64_key`].
pub fn f64_from_key(key: u64) -> f64 {
    if key >> 63 == 1 {
        f64::from_bits(key & !(1 << 63))
    } else {
        f64::from_bits(!key)
    }
}

/// `i64` → `u64` preserving order.
pub fn i64_key(value: i64) -> u64 {
    (value as u64) ^ (1 << 63)
}

/// The inverse of [`i64_key`].
pub fn i64_from_key(key: u64) -> i64 {
    (key ^ (1 << 63)) as i64
}

/// Compares two keys in result order (`Less` = earlier in the results).
pub fn compare(order: &SortOrder, left: &SortKey, right: &SortKey) -> Ordering {
    compare_values(order, left.value, right.value).then(left.id.cmp(&right.id))
}

/// Compares two sort values in result order, ignoring the id tie-break.
pub fn compare_values(
    order: &SortOrder,
    left: Option<(u64, u64)>,
    right: Option<(u64, u64)>,
) -> Ordering {
    match (left, right) {
        (Some(a), Some(b)) => match order.direction {
            SortDirection::Asc => a.cmp(&b),
            SortDirection::Desc => b.cmp(&a),
        },
        (None, Some(_)) => match order.nulls {
            NullOrder::First => Ordering::Less,
            NullOrder::Last => Ordering::Greater,
        },
        (Some(_), None) => match order.nulls {
            NullOrder::First => Ordering::Greater,
            NullOrder::Last => Ordering::Less,
        },
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::SortField;

    #[test]
    fn numeric_keys_preserve_order() {
        let values = [-1e9, -2.5, -0.0, 0.0, 1e-9, 3.0, f64::INFINITY];
        for pair in values.windows(2) {
            assert!(f64_key(pair[0]) <= f64_key(pair[1]), "{pair:?}");
        }
        for value in values {
            assert_eq!(f64_from_key(f64_key(value)), value);
        }
        let ints = [i64::MIN, -5, 0, 7, i64::MAX];
        for pair in ints.windows(2) {
            assert!(i64_key(pair[0]) < i64_key(pair[1]));
        }
        assert_eq!(i64_from_key(i64_key(-42)), -42);
    }

    #[test]
    fn nulls_and_direction() {
        let order = SortOrder {
            field: SortField::RecentActivity,
            direction: SortDirection::Desc,
            nulls: NullOrder::Last,
        };
        let high = SortKey {
            value: Some((9, 0)),
            id: (5, 0),
        };
        let low = SortKey {
            value: Some((1, 0)),
            id: (1, 0),
        };
        let null = SortKey {
            value: None,
            id: (0, 0),
        };
        assert_eq!(compare(&order, &high, &low), Ordering::Less);
        assert_eq!(compare(&order, &low, &null), Ordering::Less);
        let first = SortOrder {
            nulls: NullOrder::First,
            ..order
        };
        assert_eq!(compare(&first, &null, &high), Ordering::Less);
        let tie = SortKey {
            value: Some((9, 0)),
            id: (6, 0),
        };
        assert_eq!(compare(&order, &high, &tie), Ordering::Less);
    }
}
