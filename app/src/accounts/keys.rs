//! API keys: random, shown once, stored only as their SHA-256.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// Prefix of every key, so leaked keys are recognisable.
pub const KEY_PREFIX: &str = "pl_";

/// A new random key: the prefix and 64 hex digits (256 bits).
pub fn generate_api_key() -> String {
    format!("{KEY_PREFIX}{}", random_token())
}

/// 256 random bits as 64 lowercase hex digits (keys, sign-in links, sessions).
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// Characters of a key kept in clear to recognise it (`pl_` and 5 hex digits).
pub const DISPLAY_PREFIX_CHARS: usize = 8;

/// The part of a key stored and shown in clear.
pub fn display_prefix(api_key: &str) -> String {
    api_key.chars().take(DISPLAY_PREFIX_CHARS).collect()
}

/// Hex digits of a key's stored hash that name it in lists and revocations.
pub const KEY_ID_DIGITS: usize = 16;

/// The public id of a key from its stored hash.
pub fn key_id_of(key_hash: &str) -> String {
    key_hash.chars().take(KEY_ID_DIGITS).collect()
}

/// The stored form of a key: lowercase hex SHA-256 of its text.
pub fn hash_api_key(api_key: &str) -> String {
    hex(&Sha256::digest(api_key.as_bytes()))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The bytes of [`hex`]'s text; `None` for text it does not write.
pub(crate) fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|index| u8::from_str_radix(text.get(index..index + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_prefixed() {
        let first = generate_api_key();
        let second = generate_api_key();
        assert_ne!(first, second);
        assert!(first.starts_with(KEY_PREFIX));
        assert_eq!(first.len(), KEY_PREFIX.len() + 64);
    }

    #[test]
    fn hash_is_sha256_hex() {
        // sha256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            hash_api_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
