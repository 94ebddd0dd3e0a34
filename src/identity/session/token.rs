//! Opaque bearer tokens: 256 random bits, shown once, stored only as a SHA-256 hash.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

const TOKEN_BYTES: usize = 32;
/// Length of a token's text: 32 bytes in unpadded base64url.
pub const TOKEN_LENGTH: usize = 43;

/// A fresh token for the client. The server keeps only [`token_hash`] of it.
pub fn new_token() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::fill(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether a presented token could have been issued by us at all. Anything else is
/// rejected before it reaches the database.
pub fn is_well_formed(token: &str) -> bool {
    token.len() == TOKEN_LENGTH
        && token.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// A plain hash suffices (no salt, no slow hash): the token has 256 bits of entropy,
/// so the hash cannot be reversed by guessing.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_well_formed_and_hashed() {
        let first = new_token();
        let second = new_token();
        assert_ne!(first, second);
        assert!(is_well_formed(&first));
        assert_eq!(token_hash(&first).len(), 64);
        assert_ne!(token_hash(&first), token_hash(&second));
        assert_eq!(token_hash(&first), token_hash(&first.clone()));
    }

    #[test]
    fn malformed_tokens_are_recognised() {
        assert!(!is_well_formed(""));
        assert!(!is_well_formed("short"));
        assert!(!is_well_formed(&"a".repeat(44)));
        assert!(!is_well_formed(&format!("{}=", "a".repeat(42))));
        assert!(is_well_formed(&"a".repeat(43)));
    }
}
