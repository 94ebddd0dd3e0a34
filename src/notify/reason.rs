//! Why a delivery failed, for people: the raw error (reqwest's and the resolver's words,
//! kept in the database and the server's log for operators) is sorted into a few reasons
//! that each say what to do. Merchants see the reason only; administrators also a short
//! technical detail after it.

use crate::i18n::{Locale, NotifyMessage};

/// At most this much of the raw error follows the reason for administrators.
const DETAIL_CHARS: usize = 160;

/// The reason of a failed attempt from what was recorded; works on rows written before
/// reasons existed, as it reads only the stored text and status.
pub fn classify(http_status: Option<i64>, error: &str) -> NotifyMessage {
    let text = error.to_ascii_lowercase();
    // A notification's last error is kept without its status: "HTTP 502 Bad Gateway".
    let http_status = http_status.or_else(|| text.strip_prefix("http ")?.get(..3)?.parse().ok());
    let has = |words: &[&str]| words.iter().any(|word| text.contains(word));
    if has(&["loopback, private", "not an http(s) url"]) {
        NotifyMessage::DeliveryGuard
    } else if has(&["dns error", "failed to lookup address", "name or service not known", "no such host"]) {
        NotifyMessage::DeliveryDns
    } else if has(&["timed out", "timeout", "deadline has elapsed"]) {
        NotifyMessage::DeliveryTimeout
    } else if has(&["connection refused"]) {
        NotifyMessage::DeliveryRefused
    } else if has(&["certificate", "tls", "ssl", "handshake"]) {
        NotifyMessage::DeliveryTls
    } else if has(&["the answer said"]) {
        NotifyMessage::DeliveryAnswer
    } else if let Some(status) = http_status.filter(|status| !(200..300).contains(status)) {
        NotifyMessage::DeliveryHttpStatus { status }
    } else if http_status.is_some() {
        // A 2xx whose body broke off while it was read.
        NotifyMessage::DeliveryAnswer
    } else {
        NotifyMessage::DeliveryFailed
    }
}

/// What a caller is shown for a recorded error: the reason in `locale`, and for an
/// administrator a short technical detail after it.
pub fn shown(http_status: Option<i64>, error: Option<&str>, administrator: bool, locale: Locale) -> Option<String> {
    let error = error.filter(|error| !error.is_empty())?;
    let reason = classify(http_status, error).text(locale);
    if !administrator {
        return Some(reason.into_owned());
    }
    let detail: String = error.chars().take(DETAIL_CHARS).collect();
    let ellipsis = if error.chars().count() > DETAIL_CHARS { "…" } else { "" };
    Some(crate::i18n::NotifyMessage::with_technical_detail(&reason, &format!("{detail}{ellipsis}"), locale))
}

/// The stable key of the reason (`notify.delivery.*`), for clients that match on it.
pub fn key(http_status: Option<i64>, error: Option<&str>) -> Option<&'static str> {
    error.filter(|error| !error.is_empty()).map(|error| classify(http_status, error).key())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_errors_become_reasons() {
        let cases = [
            (
                None,
                "error sending request for url (http://nowhere.invalid/): client error (Connect): dns error: failed to lookup address information: Name or service not known",
                NotifyMessage::DeliveryDns,
            ),
            (
                None,
                "error sending request: client error (Connect): tcp connect error: Connection refused (os error 111)",
                NotifyMessage::DeliveryRefused,
            ),
            (None, "error sending request: operation timed out (timed out)", NotifyMessage::DeliveryTimeout),
            (
                None,
                "error sending request: client error (Connect): invalid peer certificate: UnknownIssuer",
                NotifyMessage::DeliveryTls,
            ),
            (
                None,
                "the destination 127.0.0.1 is a loopback, private, link-local, multicast or reserved address",
                NotifyMessage::DeliveryGuard,
            ),
            (Some(500), "HTTP 500 Internal Server Error", NotifyMessage::DeliveryHttpStatus { status: 500 }),
            (None, "HTTP 502 Bad Gateway", NotifyMessage::DeliveryHttpStatus { status: 502 }),
            (
                Some(302),
                "HTTP 302 Found: redirects are not followed",
                NotifyMessage::DeliveryHttpStatus { status: 302 },
            ),
            (Some(200), "the answer said \"fail\"", NotifyMessage::DeliveryAnswer),
            (None, "error sending request: connection closed before message completed", NotifyMessage::DeliveryFailed),
        ];
        for (status, error, reason) in cases {
            assert_eq!(classify(status, error), reason, "{error}");
        }
    }

    #[test]
    fn merchants_see_the_reason_and_administrators_a_detail_too() {
        let error =
            "error sending request for url (http://x.invalid/): dns error: failed to lookup address information";
        let merchant = shown(None, Some(error), false, Locale::ZhCn).unwrap();
        assert!(merchant.starts_with("找不到回调地址的域名") && !merchant.contains("dns error"), "{merchant}");
        let administrator = shown(None, Some(error), true, Locale::EnUs).unwrap();
        assert!(administrator.contains("technical detail: error sending request"), "{administrator}");
        assert_eq!(shown(None, None, true, Locale::EnUs), None);
        assert_eq!(key(Some(503), Some("HTTP 503")), Some("notify.delivery.http_status"));
    }
}
