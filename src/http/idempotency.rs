//! Money-moving calls that are safe to retry: the `Idempotency-Key` header.
//!
//! An administrator's top-up retried after a network error must not credit twice. The
//! client sends one key per intended action (the console: one per dialog submission).
//! The first call with a key claims it *inside the transaction that moves the money*
//! and stores its answer there too, so the key and the money commit or roll back
//! together:
//! - same key, same body → the stored answer, nothing moved again;
//! - same key, another body or endpoint → refused (42200), nothing moved;
//! - two calls with one key at once → one waits for the other's transaction (SQLite:
//!   one writer; PostgreSQL: the primary key's uniqueness check waits for the
//!   uncommitted row) and then sees it as a repeat;
//! - a call that failed rolled its claim back, so a retry is evaluated afresh.
//!
//! Keys are scoped to the user who sent them and kept (they are small).

use crate::http::error::AppError;
use crate::i18n::Message;
use crate::platform::db::now_millis;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;

pub const HEADER: &str = "idempotency-key";
pub const MAX_KEY_LENGTH: usize = 255;

/// The header as the OpenAPI document shows it on every call that accepts it.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IdempotencyKeyHeader {
    /// One key per intended action (e.g. a UUID made when the dialog opened), 1 to 255
    /// visible ASCII characters. Repeating it with the same body replays the first answer
    /// and moves nothing; with another body it is refused with 42200.
    #[serde(rename = "Idempotency-Key")]
    #[param(pattern = "^[!-~]{1,255}$")]
    pub idempotency_key: Option<String>,
}

/// A request that carried an `Idempotency-Key`: the key, where it was sent, and a
/// digest of what was asked.
#[derive(Debug, Clone)]
pub struct IdempotentRequest {
    key: String,
    endpoint: String,
    digest: String,
}

/// What claiming a key found.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// First use: go ahead, then store the answer with [`IdempotentRequest::store_answer`].
    Fresh,
    /// The key was used for this very request: answer what was answered (None: the
    /// first call committed but its answer is not stored yet).
    Replay(Option<Value>),
    /// The key was used for a different request.
    Mismatch,
}

/// The answer of an idempotent call: what it did now, or what it did the first time.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Replayable<T> {
    Fresh(T),
    Replayed(Value),
}

impl IdempotentRequest {
    /// `None` when no key was sent; an invalid key is refused (40000).
    pub fn parse(header: Option<&[u8]>, endpoint: &str, body: &Value) -> Result<Option<Self>, AppError> {
        let Some(raw) = header else { return Ok(None) };
        let valid = !raw.is_empty() && raw.len() <= MAX_KEY_LENGTH && raw.iter().all(|byte| byte.is_ascii_graphic());
        if !valid {
            return Err(AppError::field("Idempotency-Key", Message::IdempotencyKeyInvalid { max: MAX_KEY_LENGTH }));
        }
        let key = String::from_utf8_lossy(raw).into_owned();
        Ok(Some(Self { key, endpoint: endpoint.to_string(), digest: digest(body) }))
    }

    /// The key as the client sent it.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The claim of one part of a call that moves money in several transactions (one per
    /// order of `resolveMany`): the same request, under the key with the part appended
    /// after a space, which no client's key can contain (keys are visible ASCII).
    pub fn part(&self, part: &str) -> Self {
        Self { key: format!("{} {part}", self.key), endpoint: self.endpoint.clone(), digest: self.digest.clone() }
    }

    /// Claims the key for `user_id` inside the caller's transaction.
    pub async fn claim(&self, connection: &mut AnyConnection, user_id: i64) -> Result<Claim, sqlx::Error> {
        let inserted = sqlx::query(
            "INSERT INTO idempotency_keys (user_id, idempotency_key, endpoint, request_digest, created_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, idempotency_key) DO NOTHING",
        )
        .bind(user_id)
        .bind(&self.key)
        .bind(&self.endpoint)
        .bind(&self.digest)
        .bind(now_millis())
        .execute(&mut *connection)
        .await?
        .rows_affected();
        if inserted == 1 {
            return Ok(Claim::Fresh);
        }
        let (endpoint, digest, answer): (String, String, Option<String>) = sqlx::query_as(
            "SELECT endpoint, request_digest, response FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2",
        )
        .bind(user_id)
        .bind(&self.key)
        .fetch_one(&mut *connection)
        .await?;
        if endpoint != self.endpoint || digest != self.digest {
            return Ok(Claim::Mismatch);
        }
        Ok(Claim::Replay(answer.and_then(|text| serde_json::from_str(&text).ok())))
    }

    /// Claims the key in a transaction of its own, for calls whose repeat is made harmless
    /// by something else committed with the money (a batch's state, an order's merchant
    /// order id): the claim then only refuses the key's reuse for another request.
    pub async fn claim_alone(&self, db: &crate::platform::db::Database, user_id: i64) -> Result<(), AppError> {
        let mut transaction = db.begin_write().await?;
        let claim = self.claim(&mut transaction, user_id).await?;
        transaction.commit().await?;
        match claim {
            Claim::Fresh | Claim::Replay(_) => Ok(()),
            Claim::Mismatch => Err(AppError::IdempotencyKeyReused),
        }
    }

    /// Stores the answer to replay (in the claiming transaction where possible).
    pub async fn store_answer(
        &self,
        connection: &mut AnyConnection,
        user_id: i64,
        answer: &impl Serialize,
    ) -> Result<(), AppError> {
        let text = serde_json::to_string(answer).map_err(anyhow::Error::from)?;
        sqlx::query("UPDATE idempotency_keys SET response = $3 WHERE user_id = $1 AND idempotency_key = $2")
            .bind(user_id)
            .bind(&self.key)
            .bind(text)
            .execute(&mut *connection)
            .await?;
        Ok(())
    }
}

/// SHA-256 of the body with object keys sorted, so that the same request written with
/// its fields in another order or other spacing counts as the same.
fn digest(body: &Value) -> String {
    let mut canonical = String::new();
    write_canonical(body, &mut canonical);
    hex::encode(Sha256::digest(canonical.as_bytes()))
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, value)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_digest_ignores_field_order_but_not_values() {
        let a = digest(&json!({"merchant_id": 1, "amount_fen": 100, "remark": {"x": [1, 2], "a": null}}));
        let b = digest(&json!({"remark": {"a": null, "x": [1, 2]}, "amount_fen": 100, "merchant_id": 1}));
        assert_eq!(a, b);
        assert_ne!(a, digest(&json!({"merchant_id": 1, "amount_fen": 101, "remark": {"x": [1, 2], "a": null}})));
        assert_ne!(digest(&json!({"a": [1, 2]})), digest(&json!({"a": [2, 1]})));
    }

    #[test]
    fn keys_must_be_short_visible_ascii() {
        let body = json!({});
        assert!(IdempotentRequest::parse(None, "/x", &body).unwrap().is_none());
        assert!(IdempotentRequest::parse(Some(b"3f2a-7c"), "/x", &body).unwrap().is_some());
        for bad in [&b""[..], b"has space", "键".as_bytes(), &[b'a'; MAX_KEY_LENGTH + 1]] {
            assert!(matches!(IdempotentRequest::parse(Some(bad), "/x", &body), Err(AppError::Validation(_))));
        }
    }
}
