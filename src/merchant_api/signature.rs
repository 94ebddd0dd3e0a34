//! The signature of open-API requests and answers, as pure functions: the request
//! guard, the console's signature helper and the tests all sign through these.
//!
//! Request: lowercase hex HMAC-SHA256 with the key's secret (its UTF-8 bytes) over
//! `METHOD\nPATH_AND_QUERY\nTIMESTAMP\nNONCE\nhex(SHA-256(raw body))`.
//! Answer: the same over `STATUS\nTIMESTAMP\nNONCE\nhex(SHA-256(body))`.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

pub const KEY_ID_HEADER: &str = "x-key-id";
pub const TIMESTAMP_HEADER: &str = "x-timestamp";
pub const NONCE_HEADER: &str = "x-nonce";
pub const SIGNATURE_HEADER: &str = "x-signature";
/// How far `X-Timestamp` may be from the server's clock, either way.
pub const TIMESTAMP_WINDOW_SECONDS: u64 = 300;

fn body_hash(body: &[u8]) -> String {
    lower_hex(&Sha256::digest(body))
}

/// Lowercase hex of a digest (`hex::encode` goes character by character; every call of the
/// open API makes three of these).
fn lower_hex(bytes: &[u8]) -> String {
    let mut text = vec![0; bytes.len() * 2];
    hex::encode_to_slice(bytes, &mut text).expect("twice the length");
    String::from_utf8(text).expect("hex digits are ASCII")
}

pub fn request_string(method: &str, path_and_query: &str, timestamp: &str, nonce: &str, body: &[u8]) -> String {
    format!("{method}\n{path_and_query}\n{timestamp}\n{nonce}\n{}", body_hash(body))
}

pub fn response_string(status: u16, timestamp: &str, nonce: &str, body: &[u8]) -> String {
    format!("{status}\n{timestamp}\n{nonce}\n{}", body_hash(body))
}

fn mac(secret: &str, text: &str) -> Hmac<Sha256> {
    let mut mac =
        <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(text.as_bytes());
    mac
}

/// Lowercase hex HMAC-SHA256 of `text` under `secret`.
pub fn sign(secret: &str, text: &str) -> String {
    lower_hex(&mac(secret, text).finalize().into_bytes())
}

/// Whether `signature` (hex, either case) is the signature of `text`; the comparison
/// takes the same time wherever the first wrong byte is.
pub fn verify(secret: &str, text: &str, signature: &str) -> bool {
    let Ok(presented) = hex::decode(signature.trim()) else { return false };
    mac(secret, text).verify_slice(&presented).is_ok()
}

/// 16 to 64 characters of `A-Za-z0-9_-`.
pub fn is_valid_nonce(nonce: &str) -> bool {
    (16..=64).contains(&nonce.len()) && nonce.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"_-".contains(&byte))
}

/// Unix seconds as ASCII digits (at most 12), nothing else.
pub fn parse_timestamp(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 12 || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/merchant-api.md, byte for byte.
    pub const EXAMPLE_SECRET: &str = "sk_test_4f9c2a7d1e8b6035c4a9f1d2e7b8a6c3";
    pub const EXAMPLE_BODY: &str =
        r#"{"merchant_order_id":"M20261123001","product_key":"MOBILE-DIRECT-10","account":"13800138000"}"#;

    #[test]
    fn the_documented_example_signs_to_the_documented_signature() {
        let text = request_string(
            "POST",
            "/openapi/v1/orders",
            "1763900000",
            "n0nce-2026-11-23-abcdef",
            EXAMPLE_BODY.as_bytes(),
        );
        assert_eq!(
            text,
            "POST\n/openapi/v1/orders\n1763900000\nn0nce-2026-11-23-abcdef\n\
             55daa365dc08f9250e608b54d1d80423d264b3d2ac5231ed1e958b2bf69e98b0"
        );
        let signature = sign(EXAMPLE_SECRET, &text);
        assert_eq!(signature, "aa41882e5b77766aab642df5465193c9b01acccf146dd88f63c2ba407ffa4c0d");
        assert!(verify(EXAMPLE_SECRET, &text, &signature));
        assert!(verify(EXAMPLE_SECRET, &text, &signature.to_uppercase()));
        assert!(!verify("another secret", &text, &signature));
        assert!(!verify(EXAMPLE_SECRET, &text.replace("POST", "GET"), &signature));
        assert!(!verify(EXAMPLE_SECRET, &text, &signature[..62]));
        assert!(!verify(EXAMPLE_SECRET, &text, "not hex"));
    }

    #[test]
    fn an_empty_body_hashes_to_the_hash_of_nothing() {
        assert!(
            request_string("GET", "/openapi/v1/balance", "1", "n", b"")
                .ends_with("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        );
        assert_eq!(response_string(200, "1", "n", b"").lines().next(), Some("200"));
    }

    #[test]
    fn nonces_and_timestamps_have_one_form() {
        assert!(is_valid_nonce("abcdefABCDEF0123"));
        assert!(is_valid_nonce(&"_-".repeat(32)));
        for bad in
            ["short", "abcdefABCDEF012", &"a".repeat(65), "abcdefABCDEF012 ", "abcdefABCDEF012é", "abcdefABCDEF012+"]
        {
            assert!(!is_valid_nonce(bad), "{bad}");
        }
        assert_eq!(parse_timestamp("1763900000"), Some(1_763_900_000));
        for bad in ["", "-1", "+5", "1.5", " 1", "1234567890123"] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }
}
