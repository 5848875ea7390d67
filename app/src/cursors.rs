//! Cursors a client sends back (search pages, transcript passages, polling) are opaque
//! and tamper-proof: URL-safe base64 of a version, the cursor's kind, its payload and an
//! HMAC-SHA256 tag (the first 16 bytes) over all of them, keyed with a secret the app
//! store keeps, so every node that shares the store accepts the cursors of the others,
//! and across restarts. A cursor that fails the check, or that belongs to another kind
//! of request, another search or another caller, is refused with a 400 before anything
//! is charged.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::error::AppError;

const VERSION: u8 = 1;
const TAG_BYTES: usize = 16;

/// What a cursor pages through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum CursorKind {
    Search = 1,
    Passages = 2,
    Polling = 3,
}

/// Signs and checks cursors with the store's secret.
pub struct CursorSigner {
    key: Vec<u8>,
}

impl std::fmt::Debug for CursorSigner {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("CursorSigner")
            .finish_non_exhaustive()
    }
}

/// The message every refused cursor gets.
pub fn invalid_cursor() -> AppError {
    AppError::invalid_cursor()
}

impl CursorSigner {
    pub fn new(key: Vec<u8>) -> CursorSigner {
        CursorSigner { key }
    }

    fn tag(&self, message: &[u8]) -> [u8; TAG_BYTES] {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(message);
        let full = mac.finalize().into_bytes();
        let mut tag = [0u8; TAG_BYTES];
        tag.copy_from_slice(&full[..TAG_BYTES]);
        tag
    }

    /// The cursor of `payload`.
    pub fn sign(&self, kind: CursorKind, payload: &[u8]) -> String {
        let mut bytes = Vec::with_capacity(2 + payload.len() + TAG_BYTES);
        bytes.push(VERSION);
        bytes.push(kind as u8);
        bytes.extend_from_slice(payload);
        let tag = self.tag(&bytes);
        bytes.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The payload of a cursor this server signed for `kind`.
    pub fn verify(&self, kind: CursorKind, cursor: &str) -> Result<Vec<u8>, AppError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(cursor.trim())
            .map_err(|_| invalid_cursor())?;
        if bytes.len() < 2 + TAG_BYTES || bytes[0] != VERSION || bytes[1] != kind as u8 {
            return Err(invalid_cursor());
        }
        let (message, tag) = bytes.split_at(bytes.len() - TAG_BYTES);
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(message);
        // constant-time comparison of the truncated tag
        mac.verify_truncated_left(tag)
            .map_err(|_| invalid_cursor())?;
        Ok(message[2..].to_vec())
    }
}

/// The first 8 bytes of the SHA-256 of `text`: binds a cursor to a search or a caller.
pub fn fingerprint(text: &str) -> [u8; 8] {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = [0u8; 8];
    out.copy_from_slice(&digest[..8]);
    out
}

/// A little writer and reader for cursor payloads.
#[derive(Debug, Default)]
pub struct Payload {
    bytes: Vec<u8>,
}

impl Payload {
    pub fn u64(mut self, value: u64) -> Payload {
        self.bytes.extend_from_slice(&value.to_be_bytes());
        self
    }

    pub fn i64(self, value: i64) -> Payload {
        self.u64(value as u64)
    }

    pub fn bytes8(mut self, value: [u8; 8]) -> Payload {
        self.bytes.extend_from_slice(&value);
        self
    }

    /// A length-prefixed string.
    pub fn text(mut self, value: &str) -> Payload {
        self.bytes
            .extend_from_slice(&(value.len() as u32).to_be_bytes());
        self.bytes.extend_from_slice(value.as_bytes());
        self
    }

    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads a payload written by [`Payload`], in the same order.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    fn take(&mut self, count: usize) -> Result<&'a [u8], AppError> {
        if self.bytes.len() < count {
            return Err(invalid_cursor());
        }
        let (head, rest) = self.bytes.split_at(count);
        self.bytes = rest;
        Ok(head)
    }

    pub fn u64(&mut self) -> Result<u64, AppError> {
        let mut word = [0u8; 8];
        word.copy_from_slice(self.take(8)?);
        Ok(u64::from_be_bytes(word))
    }

    pub fn i64(&mut self) -> Result<i64, AppError> {
        self.u64().map(|value| value as i64)
    }

    pub fn bytes8(&mut self) -> Result<[u8; 8], AppError> {
        let mut out = [0u8; 8];
        out.copy_from_slice(self.take(8)?);
        Ok(out)
    }

    pub fn text(&mut self) -> Result<String, AppError> {
        let mut length = [0u8; 4];
        length.copy_from_slice(self.take(4)?);
        let length = u32::from_be_bytes(length) as usize;
        String::from_utf8(self.take(length)?.to_vec()).map_err(|_| invalid_cursor())
    }

    /// Fails when bytes are left over.
    pub fn end(self) -> Result<(), AppError> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(invalid_cursor())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_cursors_round_trip_and_any_change_is_refused() {
        let signer = CursorSigner::new(b"secret".to_vec());
        let payload = Payload::default()
            .u64(20)
            .text("engine")
            .bytes8([1; 8])
            .finish();
        let cursor = signer.sign(CursorKind::Search, &payload);
        assert_eq!(signer.verify(CursorKind::Search, &cursor).unwrap(), payload);
        // another kind, another key
        assert!(signer.verify(CursorKind::Polling, &cursor).is_err());
        assert!(
            CursorSigner::new(b"other".to_vec())
                .verify(CursorKind::Search, &cursor)
                .is_err()
        );
        // every single-bit change of the bytes
        let bytes = URL_SAFE_NO_PAD.decode(&cursor).unwrap();
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut changed = bytes.clone();
                changed[at] ^= 1 << bit;
                let text = URL_SAFE_NO_PAD.encode(&changed);
                assert!(
                    signer.verify(CursorKind::Search, &text).is_err(),
                    "{at} {bit}"
                );
            }
        }
        for garbage in ["", "!!", "0.abc", "AAAA", &cursor[..cursor.len() - 2]] {
            assert!(
                signer.verify(CursorKind::Search, garbage).is_err(),
                "{garbage}"
            );
        }
        let mut reader = Reader::new(&payload);
        assert_eq!(reader.u64().unwrap(), 20);
        assert_eq!(reader.text().unwrap(), "engine");
        assert_eq!(reader.bytes8().unwrap(), [1; 8]);
        reader.end().unwrap();
    }
}
