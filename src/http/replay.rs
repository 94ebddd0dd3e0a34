//! Open-API nonces: each is used once per key within the timestamp window, and the record
//! of its use is stored, so a replay is refused also after a restart and on another server.
//!
//! Most calls store their nonce before the handler runs (`record`). Placing an order does
//! not: a write of its own for the nonce cost the open API as much again as the order, and
//! even inside the order's transaction its random key cost the single writer a page per
//! order. A replay is the same request again (the signature covers the body), so it names the
//! same merchant order id: the order placed stores its call's nonce in its own row
//! (`orders.api_nonce`, [`NonceUse::stored`]), and a call that finds that order with its own
//! nonce is refused as a replay. Nonces stored here before are read with the account lock
//! (`orders::placement::run`). The guard stores the nonce afterwards only when the call placed nothing
//! (`Deferred::written` is false), so a refused order replayed later places nothing.

use crate::http::error::{AppError, code};
use crate::i18n::OpenApiMessage;
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

impl NonceUse {
    /// As an order stores it: `key_id:nonce` (neither contains a colon).
    pub fn stored(&self) -> String {
        format!("{}:{}", self.key_id, self.nonce)
    }
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

/// Forgets uses past their window (a request that old is refused for its timestamp).
pub async fn sweep(pool: &AnyPool, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM api_nonces WHERE expires_at < $1").bind(now).execute(pool).await?;
    Ok(())
}
