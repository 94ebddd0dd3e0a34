//! Standard Webhooks signatures (https://www.standardwebhooks.com): a secret is `whsec_`
//! and the base64 of 32 random bytes; a signature is `v1,` and the base64 HMAC-SHA256,
//! keyed with those bytes, of `{webhook-id}.{webhook-timestamp}.{body}`. Several
//! signatures (during a secret rotation) are separated by spaces, so the merchant's
//! published verifier accepts the message if any one matches.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const SECRET_PREFIX: &str = "whsec_";

/// A new signing secret in the Standard Webhooks form.
pub fn generate_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::fill(&mut bytes);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes))
}

/// The key bytes of a `whsec_` secret.
pub fn secret_key(secret: &str) -> Option<Vec<u8>> {
    STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()
}

/// The `webhook-signature` header value for `body`, signed with each key.
pub fn signature_header(keys: &[Vec<u8>], id: &str, timestamp: i64, body: &str) -> String {
    keys.iter()
        .map(|key| {
            let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
            mac.update(format!("{id}.{timestamp}.").as_bytes());
            mac.update(body.as_bytes());
            format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector of the Standard Webhooks reference libraries.
    #[test]
    fn matches_the_standard_webhooks_reference_vector() {
        let key = secret_key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let header = signature_header(&[key], "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, r#"{"test": 2432232314}"#);
        assert_eq!(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn two_keys_give_two_signatures_and_secrets_round_trip() {
        let first = generate_secret();
        let second = generate_secret();
        assert_ne!(first, second);
        assert_eq!(secret_key(&first).unwrap().len(), 32);
        assert!(secret_key("sk_nope").is_none());
        let keys = [secret_key(&first).unwrap(), secret_key(&second).unwrap()];
        let header = signature_header(&keys, "msg_1", 1, "{}");
        let parts: Vec<&str> = header.split(' ').collect();
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|part| part.starts_with("v1,")));
        assert_eq!(parts[0], signature_header(&keys[..1], "msg_1", 1, "{}"));
    }
}
