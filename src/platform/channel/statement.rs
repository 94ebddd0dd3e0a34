//! A supplier's daily statement: what it says it topped up on a Beijing day, to
//! reconcile against our own successful attempts (supply/reconcile.rs).
//!
//! A statement comes from outside and may be large, slow or wrong, so it is read under a
//! budget: at most [`MAX_STATEMENT_BYTES`] (refused from `Content-Length` before reading,
//! and again while reading chunk by chunk, so a lying header changes nothing), at most
//! [`MAX_STATEMENT_LINES`] lines, within [`STATEMENT_TIMEOUT`]; every failure is one
//! [`StatementError`] the administrator can read.

use serde::Deserialize;
use std::time::Duration;

/// Bytes a statement answer may have (about 150,000 lines of ~200 bytes).
pub const MAX_STATEMENT_BYTES: usize = 32 * 1024 * 1024;
/// Lines a statement may list.
pub const MAX_STATEMENT_LINES: usize = 200_000;
/// The whole request, answer included.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(60);

/// One line of a statement: an order the supplier says it handled that day.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct StatementLine {
    pub upstream_order_id: String,
    #[serde(default)]
    pub account: String,
    pub face_value_fen: i64,
    /// What the supplier charged us, fen.
    pub price_fen: i64,
    #[serde(default)]
    pub serial_no: String,
    /// `success` when absent; a supplier may list failed orders too (`failed`), and a
    /// success it reversed afterwards (`reversed`, 冲正; `reason` says why).
    #[serde(default = "success")]
    pub status: String,
    /// Why a `reversed` line was reversed, in the supplier's words.
    #[serde(default)]
    pub reason: String,
}

fn success() -> String {
    "success".into()
}

impl StatementLine {
    pub fn succeeded(&self) -> bool {
        self.status == "success"
    }

    pub fn reversed(&self) -> bool {
        self.status == "reversed"
    }
}

/// Why a statement could not be had; each is a clear message (ChannelMessage).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatementError {
    #[error("this channel's protocol offers no statement")]
    Unsupported,
    #[error("the supplier could not be reached: {0}")]
    Unreachable(String),
    #[error("the supplier answered HTTP {0}")]
    Status(u16),
    #[error("the statement is larger than {MAX_STATEMENT_BYTES} bytes")]
    TooLarge,
    #[error("the statement lists more than {MAX_STATEMENT_LINES} lines")]
    TooManyLines,
    #[error("the statement's signature does not match")]
    BadSignature,
    #[error("the statement is malformed: {0}")]
    Malformed(String),
}

#[derive(Deserialize)]
struct Envelope {
    code: i64,
    #[serde(default)]
    msg: String,
    date: Option<String>,
    orders: Option<serde_json::Value>,
}

/// Reads a statement body (already verified): `{code: 0, date, orders: [...]}`, for `date`.
pub fn parse(body: &[u8], date: &str) -> Result<Vec<StatementLine>, StatementError> {
    let envelope: Envelope =
        serde_json::from_slice(body).map_err(|error| StatementError::Malformed(error.to_string()))?;
    if envelope.code != 0 {
        return Err(StatementError::Malformed(format!("code {}: {}", envelope.code, envelope.msg)));
    }
    if envelope.date.as_deref() != Some(date) {
        return Err(StatementError::Malformed(format!("the statement is of {:?}, not {date}", envelope.date)));
    }
    let Some(serde_json::Value::Array(orders)) = envelope.orders else {
        return Err(StatementError::Malformed("orders missing".into()));
    };
    if orders.len() > MAX_STATEMENT_LINES {
        return Err(StatementError::TooManyLines);
    }
    let mut lines = Vec::with_capacity(orders.len());
    for (index, order) in orders.into_iter().enumerate() {
        let line: StatementLine = serde_json::from_value(order)
            .map_err(|error| StatementError::Malformed(format!("line {}: {error}", index + 1)))?;
        if line.upstream_order_id.trim().is_empty() || line.upstream_order_id.len() > 128 {
            return Err(StatementError::Malformed(format!("line {}: upstream_order_id", index + 1)));
        }
        if line.face_value_fen < 0 || line.price_fen < 0 {
            return Err(StatementError::Malformed(format!("line {}: negative amount", index + 1)));
        }
        lines.push(line);
    }
    Ok(lines)
}

/// Reads an answer's body chunk by chunk, refusing it past `max` bytes.
pub async fn read_capped(response: reqwest::Response, max: usize) -> Result<Vec<u8>, StatementError> {
    read_at_most(response, max)
        .await
        .map_err(|error| StatementError::Unreachable(error.to_string()))?
        .ok_or(StatementError::TooLarge)
}

/// A supplier's body, chunk by chunk, never more than `max` bytes in memory: `None` once it
/// is longer (or says it will be), whatever it claims before.
pub async fn read_at_most(mut response: reqwest::Response, max: usize) -> Result<Option<Vec<u8>>, reqwest::Error> {
    if response.content_length().is_some_and(|length| length > max as u64) {
        return Ok(None);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > max {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_read_strictly() {
        let body = br#"{"code":0,"date":"2026-11-24","orders":[
            {"upstream_order_id":"A","account":"138","face_value_fen":1000,"price_fen":980,"serial_no":"S"},
            {"upstream_order_id":"B","face_value_fen":1000,"price_fen":980,"status":"failed"}]}"#;
        let lines = parse(body, "2026-11-24").unwrap();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].succeeded());
        assert!(!lines[1].succeeded());
        assert!(matches!(parse(body, "2026-11-23"), Err(StatementError::Malformed(_))));
        for garbage in [
            &b"<html>"[..],
            br#"{"code":1,"msg":"no","date":"2026-11-24","orders":[]}"#,
            br#"{"code":0,"date":"2026-11-24"}"#,
            br#"{"code":0,"date":"2026-11-24","orders":[{"upstream_order_id":"A"}]}"#,
            br#"{"code":0,"date":"2026-11-24","orders":[{"upstream_order_id":"","face_value_fen":1,"price_fen":1}]}"#,
            br#"{"code":0,"date":"2026-11-24","orders":[{"upstream_order_id":"A","face_value_fen":-1,"price_fen":1}]}"#,
        ] {
            assert!(matches!(parse(garbage, "2026-11-24"), Err(StatementError::Malformed(_))), "{garbage:?}");
        }
    }
}
