//! Time-based one-time passwords (RFC 6238 over the HOTP of RFC 4226), as authenticator
//! apps compute them: HMAC-SHA1, 6 digits, 30-second steps.
//!
//! Written here rather than taken from a crate because it is short, and because the
//! replay rule needs the matched time step, which most crates do not report.
//! The clock is a parameter (`unix_seconds`), so tests can move it freely.

use data_encoding::BASE32_NOPAD;
use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;

/// Length of a secret: 160 bits, the size of an HMAC-SHA1 output (RFC 4226 §4).
pub const SECRET_BYTES: usize = 20;
pub const DIGITS: u32 = 6;
pub const STEP_SECONDS: u64 = 30;
/// Steps accepted on either side of the current one, for clock drift and typing time.
pub const WINDOW_STEPS: u64 = 1;

/// A fresh random secret.
pub fn new_secret() -> [u8; SECRET_BYTES] {
    let mut secret = [0u8; SECRET_BYTES];
    rand::fill(&mut secret);
    secret
}

/// The secret as authenticator apps take it: RFC 4648 base32 without padding.
pub fn encode_secret(secret: &[u8]) -> String {
    BASE32_NOPAD.encode(secret)
}

/// Reads a base32 secret (upper case, no padding), as [`encode_secret`] writes it.
pub fn decode_secret(text: &str) -> Option<Vec<u8>> {
    BASE32_NOPAD.decode(text.as_bytes()).ok()
}

/// The time step a moment falls in.
pub fn step_at(unix_seconds: u64) -> u64 {
    unix_seconds / STEP_SECONDS
}

/// The HOTP value of `secret` for counter `step`, zero-padded to `digits` (at most 9).
pub fn generate(secret: &[u8], step: u64, digits: u32) -> String {
    let mut mac = <Hmac<Sha1> as KeyInit>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(&step.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    // Dynamic truncation (RFC 4226 §5.3): the low nibble of the last byte picks four
    // bytes, whose top bit is dropped.
    let offset = usize::from(digest[digest.len() - 1] & 0x0f);
    let binary =
        u32::from_be_bytes([digest[offset], digest[offset + 1], digest[offset + 2], digest[offset + 3]]) & 0x7fff_ffff;
    let digits = digits.clamp(1, 9);
    format!("{:0width$}", binary % 10u32.pow(digits), width = digits as usize)
}

/// Checks a 6-digit `code` at time `unix_seconds`, one step either side. Returns the
/// step it belongs to (the latest one, should several match), or `None`.
pub fn verify(secret: &[u8], code: &str, unix_seconds: u64) -> Option<u64> {
    if code.len() != DIGITS as usize || !code.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let current = step_at(unix_seconds);
    let mut matched = None;
    // Every step of the window is computed, so the time taken does not tell which matched.
    for step in current.saturating_sub(WINDOW_STEPS)..=current.saturating_add(WINDOW_STEPS) {
        if constant_time_eq(generate(secret, step, DIGITS).as_bytes(), code.as_bytes()) {
            matched = Some(step);
        }
    }
    matched
}

fn constant_time_eq(left: &[u8], right: &[u8]) -> bool {
    left.len() == right.len() && left.iter().zip(right).fold(0u8, |difference, (a, b)| difference | (a ^ b)) == 0
}

/// The `otpauth://` URI of the Key Uri Format that authenticator apps scan: the label
/// and `issuer` name the service, so the app lists it as "backoffice (username)".
pub fn provisioning_uri(issuer: &str, account: &str, secret: &[u8]) -> String {
    format!(
        "otpauth://totp/{}:{}?secret={}&issuer={}&algorithm=SHA1&digits={DIGITS}&period={STEP_SECONDS}",
        percent_encode(issuer),
        percent_encode(account),
        encode_secret(secret),
        percent_encode(issuer),
    )
}

/// Percent-encodes everything but RFC 3986 unreserved characters, so a username with
/// `:`, `?`, `&` or non-ASCII letters cannot break the URI.
fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC_SECRET: &[u8] = b"12345678901234567890";

    #[test]
    fn the_sha1_vectors_of_rfc_6238_appendix_b() {
        let vectors = [
            (59, "94287082"),
            (1_111_111_109, "07081804"),
            (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"),
            (20_000_000_000, "65353130"),
        ];
        for (time, expected) in vectors {
            assert_eq!(generate(RFC_SECRET, step_at(time), 8), expected, "time {time}");
        }
    }

    #[test]
    fn six_digit_codes_are_the_last_six_of_the_eight() {
        // Truncation is modulo 10^digits, so the 6-digit code is the 8-digit one's tail.
        assert_eq!(generate(RFC_SECRET, step_at(59), 6), "287082");
        assert_eq!(generate(RFC_SECRET, step_at(1_111_111_109), 6), "081804");
    }

    #[test]
    fn verify_accepts_one_step_either_side_and_reports_the_step() {
        let now = 1_234_567_890;
        let current = step_at(now);
        let code_now = generate(RFC_SECRET, current, DIGITS);
        assert_eq!(verify(RFC_SECRET, &code_now, now), Some(current));
        // A code one step late or early passes and names its own step.
        let previous = generate(RFC_SECRET, current - 1, DIGITS);
        assert_eq!(verify(RFC_SECRET, &previous, now), Some(current - 1));
        let next = generate(RFC_SECRET, current + 1, DIGITS);
        assert_eq!(verify(RFC_SECRET, &next, now), Some(current + 1));
        // The same code checked later: fine one step later, dead three steps later.
        assert_eq!(verify(RFC_SECRET, &code_now, now + STEP_SECONDS), Some(current));
        assert_eq!(verify(RFC_SECRET, &code_now, now + 3 * STEP_SECONDS), None);
        assert_eq!(verify(RFC_SECRET, &code_now, now - 3 * STEP_SECONDS), None);
    }

    #[test]
    fn verify_refuses_anything_but_six_ascii_digits() {
        let now = 59;
        let code = generate(RFC_SECRET, step_at(now), DIGITS);
        assert!(verify(RFC_SECRET, &code, now).is_some());
        let wide: String =
            code.chars().map(|digit| char::from_u32(digit as u32 - '0' as u32 + 0xFF10).unwrap()).collect();
        for bad in ["", "12345", "1234567", "abcdef", " 287082", wide.as_str(), "２８７０８２", "٢٨٧٠٨٢"] {
            assert_eq!(verify(RFC_SECRET, bad, now), None, "{bad:?}");
        }
        assert_eq!(verify(b"another secret", &code, now), None);
    }

    #[test]
    fn the_earliest_steps_do_not_underflow() {
        let code = generate(RFC_SECRET, 0, DIGITS);
        assert_eq!(verify(RFC_SECRET, &code, 0), Some(0));
    }

    #[test]
    fn secrets_are_random_160_bits_in_base32() {
        let secret = new_secret();
        assert_ne!(secret, new_secret());
        let text = encode_secret(&secret);
        assert_eq!(text.len(), 32);
        assert!(text.bytes().all(|byte| byte.is_ascii_uppercase() || (b'2'..=b'7').contains(&byte)));
        assert_eq!(decode_secret(&text).unwrap(), secret);
        assert_eq!(encode_secret(b"12345678901234567890"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
        assert!(decode_secret("not base32!").is_none());
    }

    #[test]
    fn the_uri_names_issuer_and_account_as_apps_expect() {
        let uri = provisioning_uri("backoffice", "admin", RFC_SECRET);
        assert_eq!(
            uri,
            "otpauth://totp/backoffice:admin?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=backoffice\
             &algorithm=SHA1&digits=6&period=30"
        );
        let odd = provisioning_uri("backoffice", "a:b?c&d 张", RFC_SECRET);
        assert!(odd.starts_with("otpauth://totp/backoffice:a%3Ab%3Fc%26d%20%E5%BC%A0?secret="));
    }
}
