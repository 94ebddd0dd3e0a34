//! Legacy MD5 signing, for merchants migrating from platforms that sign this way: an
//! administrator switches it on for one key (`/adminapi/apikey/setLegacy`); it is off by
//! default because MD5 over the secret is a weaker construction than HMAC-SHA256.
//!
//! The parameters are the query string's (form-decoded) and the JSON body's top-level
//! fields (strings as they are, numbers as written, booleans `true`/`false`, null as
//! empty; objects and arrays are refused). They must include `key_id`, `timestamp`
//! (unix seconds), `nonce` (as `X-Nonce`) and `sign`. The string to sign is every
//! parameter but `sign` and those with an empty value, sorted by name (byte order), as
//! `name=value` joined by `&`, then `&key=SECRET`; `sign` is the MD5 of it in uppercase
//! hex. Timestamp window, nonce replay, whitelist and rate rules are those of HMAC calls.

use super::signature;
use md5::{Digest, Md5};
use serde_json::Value;

pub const SIGN: &str = "sign";
pub const KEY_ID: &str = "key_id";
pub const TIMESTAMP: &str = "timestamp";
pub const NONCE: &str = "nonce";

/// The signature parameters of a legacy call, and all its parameters.
#[derive(Debug)]
pub struct LegacyCall {
    pub key_id: String,
    pub timestamp: String,
    pub nonce: String,
    pub sign: String,
    pub params: Vec<(String, String)>,
}

/// The string that is hashed: sorted `name=value` pairs without `sign` and empty values,
/// then `key=SECRET`.
pub fn string_to_sign(params: &[(String, String)], secret: &str) -> String {
    let mut pairs: Vec<&(String, String)> =
        params.iter().filter(|(name, value)| name != SIGN && !value.is_empty()).collect();
    pairs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut text = String::new();
    for (name, value) in pairs {
        text.push_str(name);
        text.push('=');
        text.push_str(value);
        text.push('&');
    }
    text.push_str("key=");
    text.push_str(secret);
    text
}

/// Uppercase hex MD5 of the string to sign.
pub fn sign(params: &[(String, String)], secret: &str) -> String {
    hex::encode_upper(Md5::digest(string_to_sign(params, secret).as_bytes()))
}

/// Whether `presented` (32 hex digits, either case) is the sign of `params`; compared in
/// the same time wherever the first wrong byte is.
pub fn verify(params: &[(String, String)], secret: &str, presented: &str) -> bool {
    let Ok(presented) = hex::decode(presented) else { return false };
    let expected = Md5::digest(string_to_sign(params, secret).as_bytes());
    presented.len() == expected.len()
        && presented.iter().zip(expected.iter()).fold(0u8, |diff, (a, b)| diff | (a ^ b)) == 0
}

/// The parameters of a request: the query's, then the JSON body's top-level fields.
/// `Err(name)` names a parameter that cannot be signed (repeated, nested, or the body is
/// not a JSON object).
pub fn params(query: Option<&str>, body: &[u8]) -> Result<Vec<(String, String)>, &'static str> {
    let mut params: Vec<(String, String)> = url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    if !body.iter().all(u8::is_ascii_whitespace) {
        let Ok(Value::Object(fields)) = serde_json::from_slice::<Value>(body) else { return Err("body") };
        for (name, value) in fields {
            let text = match value {
                Value::Null => String::new(),
                Value::Bool(flag) => flag.to_string(),
                Value::Number(number) => number.to_string(),
                Value::String(text) => text,
                Value::Array(_) | Value::Object(_) => return Err("body"),
            };
            params.push((name, text));
        }
    }
    let mut names: Vec<&str> = params.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err("body");
    }
    Ok(params)
}

/// A legacy call when the parameters carry `sign`; `Ok(None)` when they do not (the call
/// is then an HMAC call and its headers are checked). `Err(name)`: that parameter is
/// missing or not of its form.
pub fn presented(query: Option<&str>, body: &[u8]) -> Result<Option<LegacyCall>, &'static str> {
    // Parameters that cannot be signed (a nested value, a name given twice) make a call
    // that carries `sign` a malformed legacy call, which is what its caller needs to hear;
    // without `sign` the request is an HMAC call and judged by its headers.
    let Ok(params) = params(query, body) else {
        return match carries_sign(query, body) {
            true => Err("body"),
            false => Ok(None),
        };
    };
    let value = |name: &str| params.iter().find(|(key, _)| key == name).map(|(_, value)| value.trim().to_string());
    let Some(sign) = value(SIGN) else { return Ok(None) };
    if sign.len() != 32 || !sign.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err(SIGN);
    }
    // Visible ASCII only, as a key id is made: anything else names no key, and a NUL could
    // not even be looked up on PostgreSQL.
    let key_id = value(KEY_ID)
        .filter(|id| !id.is_empty() && id.len() <= 64 && id.bytes().all(|byte| byte.is_ascii_graphic()))
        .ok_or(KEY_ID)?;
    let timestamp = value(TIMESTAMP).filter(|time| signature::parse_timestamp(time).is_some()).ok_or(TIMESTAMP)?;
    let nonce = value(NONCE).filter(|nonce| signature::is_valid_nonce(nonce)).ok_or(NONCE)?;
    Ok(Some(LegacyCall { key_id, timestamp, nonce, sign, params }))
}

/// Whether the query (decoded) or the body's top-level object names `sign`, however the
/// rest of the parameters are written.
fn carries_sign(query: Option<&str>, body: &[u8]) -> bool {
    let in_query = url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()).any(|(name, _)| name == SIGN);
    in_query || matches!(serde_json::from_slice::<Value>(body), Ok(Value::Object(fields)) if fields.contains_key(SIGN))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/merchant-api.md ("Legacy MD5 signing"), byte for byte.
    const SECRET: &str = "sk_test_4f9c2a7d1e8b6035c4a9f1d2e7b8a6c3";
    const BODY: &str = r#"{"merchant_order_id":"M20261123001","product_key":"MOBILE-DIRECT-10","account":"13800138000","notify_url":"","buyback":false,"key_id":"ak_0123456789abcdef01234567","timestamp":1763900000,"nonce":"n0nce-2026-11-23-abcdef","sign":"B0BABDCB0A170316A66F7CD0DC512D4F"}"#;

    #[test]
    fn the_documented_example_signs_to_the_documented_sign() {
        let params = params(None, BODY.as_bytes()).unwrap();
        assert_eq!(
            string_to_sign(&params, SECRET),
            "account=13800138000&buyback=false&key_id=ak_0123456789abcdef01234567&merchant_order_id=M20261123001\
             &nonce=n0nce-2026-11-23-abcdef&product_key=MOBILE-DIRECT-10&timestamp=1763900000\
             &key=sk_test_4f9c2a7d1e8b6035c4a9f1d2e7b8a6c3"
        );
        let signed = sign(&params, SECRET);
        assert_eq!(signed, "B0BABDCB0A170316A66F7CD0DC512D4F");
        assert!(verify(&params, SECRET, &signed));
        assert!(verify(&params, SECRET, &signed.to_lowercase()));
        assert!(!verify(&params, "another secret", &signed));
        assert!(!verify(&params, SECRET, &signed[..30]));
        assert!(!verify(&params, SECRET, "not hex"));
        let call = presented(None, BODY.as_bytes()).unwrap().unwrap();
        assert_eq!(
            (call.key_id.as_str(), call.timestamp.as_str(), call.nonce.as_str()),
            ("ak_0123456789abcdef01234567", "1763900000", "n0nce-2026-11-23-abcdef")
        );
    }

    #[test]
    fn query_parameters_sign_too_and_malformed_calls_are_named() {
        let query =
            "key_id=ak_1&timestamp=1763900000&nonce=n0nce-2026-11-23-abcdef&sign=00000000000000000000000000000000";
        let call = presented(Some(query), b"").unwrap().unwrap();
        assert_eq!(
            string_to_sign(&call.params, "s"),
            "key_id=ak_1&nonce=n0nce-2026-11-23-abcdef&timestamp=1763900000&key=s"
        );
        // Without `sign` the call is an HMAC call.
        assert!(presented(Some("a=1"), b"{\"x\":1}").unwrap().is_none());
        assert!(presented(None, b"").unwrap().is_none());
        assert!(presented(None, b"[1]").unwrap().is_none());
        assert_eq!(presented(Some(&query.replace("sign=0", "sign=x")), b"").unwrap_err(), SIGN);
        assert_eq!(presented(Some(&query.replace("n0nce-2026-11-23-abcdef", "short")), b"").unwrap_err(), NONCE);
        assert_eq!(presented(Some(&query.replace("timestamp=1", "timestamp=x")), b"").unwrap_err(), TIMESTAMP);
        assert_eq!(presented(Some(&query.replace("key_id=ak_1", "key_id=")), b"").unwrap_err(), KEY_ID);
        assert_eq!(presented(Some(&format!("{query}&sign=1")), b"").unwrap_err(), "body");
        assert_eq!(presented(Some(query), b"{\"a\":{\"b\":1}}").unwrap_err(), "body");
        assert_eq!(presented(Some(&query.replace("key_id=ak_1", "key_id=ak%001")), b"").unwrap_err(), KEY_ID);
    }

    #[test]
    fn a_body_carrying_sign_with_unsignable_parameters_is_a_malformed_legacy_call() {
        let nested = br#"{"key_id":"ak_1","timestamp":1763900000,"nonce":"n0nce-2026-11-23-abcdef","sign":"00000000000000000000000000000000","extra":{"a":1}}"#;
        assert_eq!(presented(None, nested).unwrap_err(), "body");
        let flat = br#"{"key_id":"ak_1","timestamp":1763900000,"nonce":"n0nce-2026-11-23-abcdef","sign":"00000000000000000000000000000000"}"#;
        assert_eq!(presented(Some("nonce=n0nce-2026-11-23-abcdef"), flat).unwrap_err(), "body");
        // Without `sign` anywhere it stays an HMAC call, judged by its headers.
        assert!(presented(Some("a=1"), br#"{"a":2}"#).unwrap().is_none());
        assert!(presented(None, br#"{"x":[1]}"#).unwrap().is_none());
    }
}
