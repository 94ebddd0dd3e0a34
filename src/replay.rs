//! Open-API nonces: each is used once per key within the timestamp window, and the record
//! of its use is stored, so a replay is refused also after a restart and on another server.
//!
//! Most calls store their nonce before the handler runs (`record`). Placing an order does
//! not: a separate commit for the nonce cost the open API as much again as the order itself.
//! Its nonce rides in the order's own transaction (`push_insert`, a plain insert, so a nonce
//! used meanwhile fails that transaction and nothing is placed); the handler reads whether it
//! was used in the statement that looks for the merchant order id; and the guard stores it
//! afterwards only when the call placed nothing (`Deferred::written` is false).

use crate::error::{AppError, code};
use crate::i18n::OpenApiMessage;
use crate::sql::{Bind, StatementBatch};
use axum::http::StatusCode;
use sqlx::AnyPool;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One use of a nonce by a key, kept until `expires_at` (ms).
#[derive(Debug, Clone)]
pub struct NonceUse {
    pub key_id: String,
    pub nonce: String,
    pub expires_at: i64,
}

/// A nonce the handler may store in its own transaction; the guard stores it after the
/// handler unless `written` says the handler's transaction did.
#[derive(Debug, Clone)]
pub struct Deferred {
    pub nonce: NonceUse,
    written: Arc<AtomicBool>,
}

impl Deferred {
    pub fn new(nonce: NonceUse) -> Self {
        Self { nonce, written: Arc::default() }
    }

    /// Called once the transaction carrying the nonce has committed.
    pub fn mark_written(&self) {
        self.written.store(true, Ordering::Release);
    }

    pub fn is_written(&self) -> bool {
        self.written.load(Ordering::Acquire)
    }
}

/// The refusal of a nonce used before.
pub fn refused() -> AppError {
    AppError::Refused {
        status: StatusCode::UNAUTHORIZED,
        code: code::API_NONCE_REPLAYED,
        message: OpenApiMessage::NonceReplayed.into(),
        retry_after_seconds: None,
    }
}

/// Stores the use; false when the nonce was used before (nothing stored).
pub async fn record(pool: &AnyPool, nonce: &NonceUse) -> Result<bool, sqlx::Error> {
    let stored = sqlx::query(
        "INSERT INTO api_nonces (key_id, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT (key_id, nonce) DO NOTHING",
    )
    .bind(&nonce.key_id)
    .bind(&nonce.nonce)
    .bind(nonce.expires_at)
    .execute(pool)
    .await?;
    Ok(stored.rows_affected() == 1)
}

/// The use as a statement of a transaction: a nonce stored meanwhile makes it fail.
pub fn push_insert(batch: &mut StatementBatch, nonce: &NonceUse) {
    batch.push(
        "INSERT INTO api_nonces (key_id, nonce, expires_at) VALUES ($1, $2, $3)".to_string(),
        vec![Bind::Text(nonce.key_id.clone()), Bind::Text(nonce.nonce.clone()), Bind::Int(nonce.expires_at)],
    );
}

/// Whether a failed transaction failed on a nonce used before.
pub fn is_replay_error(error: &sqlx::Error) -> bool {
    error.as_database_error().is_some_and(|error| error.is_unique_violation() && error.message().contains("api_nonces"))
}

/// Forgets uses past their window (a request that old is refused for its timestamp).
pub async fn sweep(pool: &AnyPool, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM api_nonces WHERE expires_at < $1").bind(now).execute(pool).await?;
    Ok(())
}
