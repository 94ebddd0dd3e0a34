//! The `http-json` adapter: a generic signed HTTP JSON supplier protocol (docs/channels.md).
//!
//! Every request and answer body is JSON, signed with HMAC-SHA256 over the raw body under
//! the channel's shared secret, hex, in the `X-Signature` header. Answers whose signature
//! does not match are treated like no answer (unknown), so a forged "success" on the way
//! cannot settle an order. Signatures are compared in constant time (`Mac::verify_slice`).

use super::statement::{self, MAX_STATEMENT_BYTES, STATEMENT_TIMEOUT, StatementError, StatementLine};
use super::{CallbackError, CallbackReport, CardSecret, Channel, ChannelOrder, ChannelStatus};
use crate::i18n::FailureReason;
use futures_util::future::BoxFuture;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::time::Duration;

/// The largest answer to a submit, query or balance call read.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// The signature header of a supplier's answer, empty when missing (then it does not verify).
fn signature_of(response: &reqwest::Response) -> String {
    response.headers().get(SIGNATURE_HEADER).and_then(|value| value.to_str().ok()).unwrap_or_default().to_string()
}

pub const SIGNATURE_HEADER: &str = "x-signature";

/// The answer codes of the protocol. Anything not listed is an unknown outcome.
pub mod code {
    /// Topped up (`serial_no` required).
    pub const SUCCESS: i64 = 0;
    /// Accepted / still processing.
    pub const PROCESSING: i64 = 1;
    /// (query) No order with this upstream id was ever received.
    pub const NOT_FOUND: i64 = 2;
    /// Definite failures: the supplier did not and will not top up this order.
    pub const INSUFFICIENT_BALANCE: i64 = 10;
    pub const PRODUCT_UNAVAILABLE: i64 = 11;
    pub const ACCOUNT_REJECTED: i64 = 12;
    /// The number moved to another carrier (携号转网): recorded per number.
    pub const NUMBER_PORTED: i64 = 13;
    pub const FAILED: i64 = 19;
    /// Reversed (冲正): topped up, then reversed by the carrier or supplier; `msg` says
    /// why. In a query answer, a callback, or a statement line's `status: "reversed"`.
    pub const REVERSED: i64 = 20;
    /// The request's signature did not match (an answer, not a result: unknown).
    pub const BAD_SIGNATURE: i64 = 40;
}

/// The hex HMAC-SHA256 of `body` under `secret`.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `signature` (hex) is the HMAC of `body` under `secret`; constant-time.
pub fn verify(secret: &[u8], body: &[u8], signature: &str) -> bool {
    let Ok(expected) = hex::decode(signature.trim()) else { return false };
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubmitRequest {
    pub upstream_order_id: String,
    pub account: String,
    pub product_key: String,
    pub face_value_fen: i64,
    #[serde(default)]
    pub card: bool,
    /// Where the supplier posts the result; absent: the supplier is only queried.
    #[serde(default)]
    pub notify_url: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QueryRequest {
    pub upstream_order_id: String,
}

/// An answer to submit and query, and the body of a result callback.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Answer {
    pub code: i64,
    #[serde(default)]
    pub msg: String,
    #[serde(default)]
    pub upstream_order_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial_no: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_no: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_password: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance_fen: Option<i64>,
}

/// Classifies an answer: success, definite failure, processing, not found; `None` is
/// unknown (an unmapped code, or success without a serial number).
pub fn classify(answer: &Answer) -> Option<ChannelStatus> {
    match answer.code {
        code::SUCCESS => {
            let serial_no = answer.serial_no.clone().filter(|serial| !serial.trim().is_empty())?;
            let card = match (&answer.card_no, &answer.card_password) {
                (Some(number), Some(password)) => {
                    Some(CardSecret { number: number.clone(), password: password.clone() })
                }
                _ => None,
            };
            Some(ChannelStatus::Succeeded { serial_no, card })
        }
        code::PROCESSING => Some(ChannelStatus::Pending),
        code::NOT_FOUND => Some(ChannelStatus::NotReceived),
        code::ACCOUNT_REJECTED => Some(ChannelStatus::Failed { reason: FailureReason::CarrierRefused.code().into() }),
        code::NUMBER_PORTED => Some(ChannelStatus::Failed { reason: FailureReason::NumberPorted.code().into() }),
        code::INSUFFICIENT_BALANCE | code::PRODUCT_UNAVAILABLE | code::FAILED => {
            Some(ChannelStatus::Failed { reason: FailureReason::ChannelDeclined.code().into() })
        }
        code::REVERSED => Some(ChannelStatus::Reversed { reason: answer.msg.trim().chars().take(200).collect() }),
        _ => None,
    }
}

pub struct HttpJsonChannel {
    client: reqwest::Client,
    base_url: String,
    secret: Vec<u8>,
    timeout: Duration,
    /// Our callback URL for this channel, sent with every order.
    notify_url: Option<String>,
}

impl HttpJsonChannel {
    pub fn new(
        client: reqwest::Client,
        base_url: &str,
        secret: Vec<u8>,
        timeout: Duration,
        notify_url: Option<String>,
    ) -> Self {
        Self { client, base_url: base_url.trim_end_matches('/').to_string(), secret, timeout, notify_url }
    }

    /// Posts a signed body and reads a signed answer; any doubt is an error (unknown).
    async fn call<T: Serialize>(&self, path: &str, body: &T) -> anyhow::Result<Answer> {
        let body = serde_json::to_vec(body)?;
        let response = self
            .client
            .post(format!("{}{path}", self.base_url))
            .timeout(self.timeout)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, sign(&self.secret, &body))
            .body(body)
            .send()
            .await?;
        let status = response.status();
        let signature = signature_of(&response);
        // Answers are small; a supplier sending more is not read beyond 64 KiB.
        let bytes = statement::read_at_most(response, MAX_ANSWER_BYTES)
            .await?
            .ok_or_else(|| anyhow::anyhow!("answer too large"))?;
        anyhow::ensure!(status.is_success(), "HTTP {status}");
        anyhow::ensure!(verify(&self.secret, &bytes, &signature), "answer signature does not match");
        Ok(serde_json::from_slice(&bytes)?)
    }

    async fn classified(&self, path: &str, body: impl Serialize) -> anyhow::Result<ChannelStatus> {
        let answer = self.call(path, &body).await?;
        classify(&answer).ok_or_else(|| anyhow::anyhow!("unmapped answer code {}: {}", answer.code, answer.msg))
    }
}

/// A transport error without the URL (the administrator sees the message; the base URL
/// is theirs, but a query string never belongs in an error text).
fn without_url(error: reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "connection failed"
    } else {
        "request failed"
    };
    kind.to_string()
}

impl Channel for HttpJsonChannel {
    fn submit<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>> {
        Box::pin(async move {
            let request = SubmitRequest {
                upstream_order_id: order.upstream_order_id.clone(),
                account: order.account.clone(),
                product_key: order.product_key.clone(),
                face_value_fen: order.face_value_fen,
                card: order.card,
                notify_url: self.notify_url.clone(),
            };
            match self.classified("/submit", request).await? {
                // "Never received" in answer to a submission makes no sense: unknown.
                ChannelStatus::NotReceived => anyhow::bail!("submission answered 'not found'"),
                status => Ok(status),
            }
        })
    }

    fn query<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>> {
        Box::pin(async move {
            self.classified("/query", QueryRequest { upstream_order_id: order.upstream_order_id.clone() }).await
        })
    }

    fn balance(&self) -> BoxFuture<'_, anyhow::Result<Option<i64>>> {
        Box::pin(async move {
            let answer = self.call("/balance", &serde_json::json!({})).await?;
            anyhow::ensure!(answer.code == code::SUCCESS, "balance answered code {}", answer.code);
            Ok(answer.balance_fen)
        })
    }

    fn statement<'a>(&'a self, date: &'a str) -> BoxFuture<'a, Result<Vec<StatementLine>, StatementError>> {
        Box::pin(async move {
            // A GET has no body: the signature is over the query string as sent.
            let query = format!("date={date}");
            let response = self
                .client
                .get(format!("{}/statement?{query}", self.base_url))
                .timeout(STATEMENT_TIMEOUT)
                .header(SIGNATURE_HEADER, sign(&self.secret, query.as_bytes()))
                .send()
                .await
                .map_err(|error| StatementError::Unreachable(without_url(error)))?;
            let status = response.status();
            if !status.is_success() {
                return Err(StatementError::Status(status.as_u16()));
            }
            let signature = signature_of(&response);
            let body = statement::read_capped(response, MAX_STATEMENT_BYTES).await?;
            if !verify(&self.secret, &body, &signature) {
                return Err(StatementError::BadSignature);
            }
            statement::parse(&body, date)
        })
    }

    fn verify_callback(&self, headers: &axum::http::HeaderMap, body: &[u8]) -> Result<CallbackReport, CallbackError> {
        let signature = headers.get(SIGNATURE_HEADER).and_then(|value| value.to_str().ok()).unwrap_or_default();
        if !verify(&self.secret, body, signature) {
            return Err(CallbackError::BadSignature);
        }
        let answer: Answer =
            serde_json::from_slice(body).map_err(|error| CallbackError::Malformed(error.to_string()))?;
        if answer.upstream_order_id.is_empty() {
            return Err(CallbackError::Malformed("upstream_order_id missing".into()));
        }
        let status = match classify(&answer) {
            Some(
                status @ (ChannelStatus::Succeeded { .. }
                | ChannelStatus::Failed { .. }
                | ChannelStatus::Reversed { .. }
                | ChannelStatus::Pending),
            ) => status,
            _ => return Err(CallbackError::Malformed(format!("code {} is not a result", answer.code))),
        };
        Ok(CallbackReport { upstream_order_id: answer.upstream_order_id, status })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_verify_only_with_the_same_secret_and_body() {
        let signature = sign(b"secret", b"{\"a\":1}");
        assert!(verify(b"secret", b"{\"a\":1}", &signature));
        assert!(!verify(b"secret", b"{\"a\":2}", &signature));
        assert!(!verify(b"other", b"{\"a\":1}", &signature));
        assert!(!verify(b"secret", b"{\"a\":1}", "not hex"));
        assert!(!verify(b"secret", b"{\"a\":1}", ""));
    }

    #[test]
    fn only_listed_codes_are_definite() {
        let answer = |code: i64| Answer { code, serial_no: Some("X1".into()), ..Answer::default() };
        assert!(matches!(classify(&answer(0)), Some(ChannelStatus::Succeeded { .. })));
        assert_eq!(classify(&answer(1)), Some(ChannelStatus::Pending));
        assert_eq!(classify(&answer(2)), Some(ChannelStatus::NotReceived));
        for definite in [10, 11, 12, 13, 19] {
            assert!(matches!(classify(&answer(definite)), Some(ChannelStatus::Failed { .. })), "{definite}");
        }
        let ported = Some(ChannelStatus::Failed { reason: "order.failure.number_ported".into() });
        assert_eq!(classify(&answer(13)), ported);
        for unknown in [3, 9, 14, 40, 500, -1] {
            assert_eq!(classify(&answer(unknown)), None, "{unknown}");
        }
        // Success without a serial number is not believed.
        assert_eq!(classify(&Answer { code: 0, ..Answer::default() }), None);
    }
}
