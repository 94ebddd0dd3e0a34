//! Card numbers and secrets of card-secret orders leave the server only encrypted to the
//! merchant: AES-256-GCM under a key derived from the calling API key's secret with
//! HKDF-SHA256 (no salt, info `backoffice openapi card v1`), the order number as
//! associated data. The value sent is base64 of the 12-byte nonce followed by the
//! ciphertext and its tag. A proxy or log that sees the answer sees no card.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const HKDF_INFO: &[u8] = b"backoffice openapi card v1";

fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// HKDF-SHA256 (RFC 5869) for 32 bytes of output: one expand step.
fn hkdf_sha256(salt: &[u8], ikm: &[u8], info: &[u8]) -> [u8; 32] {
    let salt: &[u8] = if salt.is_empty() { &[0u8; 32] } else { salt };
    let pseudo_random_key = hmac_sha256(salt, &[ikm]);
    hmac_sha256(&pseudo_random_key, &[info, &[1u8]])
}

/// The AES-256-GCM key a merchant derives from its API secret.
pub fn card_key(api_secret: &str) -> [u8; 32] {
    hkdf_sha256(&[], api_secret.as_bytes(), HKDF_INFO)
}

/// Encrypts `plaintext` to the holder of `api_secret`, bound to `order_no`.
pub fn seal(api_secret: &str, order_no: &str, plaintext: &str) -> anyhow::Result<String> {
    let cipher = Aes256Gcm::new_from_slice(&card_key(api_secret)).expect("32-byte key");
    let mut nonce = [0u8; 12];
    rand::fill(&mut nonce);
    let ciphertext = cipher
        .encrypt(&Nonce::from(nonce), Payload { msg: plaintext.as_bytes(), aad: order_no.as_bytes() })
        .map_err(|_| anyhow::anyhow!("encryption failed"))?;
    let mut sealed = nonce.to_vec();
    sealed.extend_from_slice(&ciphertext);
    Ok(STANDARD.encode(sealed))
}

/// What a merchant does with the value (used by the tests and the documentation's example).
pub fn open(api_secret: &str, order_no: &str, sealed: &str) -> anyhow::Result<String> {
    let bytes = STANDARD.decode(sealed)?;
    anyhow::ensure!(bytes.len() > 12, "too short");
    let (nonce, ciphertext) = bytes.split_at(12);
    let nonce: [u8; 12] = nonce.try_into()?;
    let cipher = Aes256Gcm::new_from_slice(&card_key(api_secret)).expect("32-byte key");
    let plain = cipher
        .decrypt(&Nonce::from(nonce), Payload { msg: ciphertext, aad: order_no.as_bytes() })
        .map_err(|_| anyhow::anyhow!("decryption failed"))?;
    Ok(String::from_utf8(plain)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hkdf_matches_rfc_5869_test_case_1() {
        let ikm = [0x0bu8; 22];
        let salt: Vec<u8> = (0..=0x0c).collect();
        let info: Vec<u8> = (0xf0..=0xf9).collect();
        assert_eq!(
            hex::encode(hkdf_sha256(&salt, &ikm, &info)),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
        );
    }

    #[test]
    fn the_documented_card_key_and_a_round_trip() {
        assert_eq!(
            hex::encode(card_key("sk_test_4f9c2a7d1e8b6035c4a9f1d2e7b8a6c3")),
            "8cfc2e6aca4eeb1b9d05a7894e63e5176a8428d8efcc6c4017e7c97ed3136285"
        );
        let sealed = seal("secret", "O1", "1234-5678").unwrap();
        assert!(!sealed.contains("1234"));
        assert_eq!(open("secret", "O1", &sealed).unwrap(), "1234-5678");
        assert!(open("secret", "O2", &sealed).is_err(), "bound to the order");
        assert!(open("other", "O1", &sealed).is_err(), "bound to the key");
    }
}
