//! Storage of two-factor secrets: the enabled ones and the setups waiting for their
//! first code. Secrets are sealed with the server key and bound to their user and
//! purpose, so a sealed value copied to another row does not open.

use crate::http::error::AppError;
use crate::platform::crypto::Secrets;
use sqlx::{AnyConnection, AnyPool, Row};

fn enabled_context(user_id: i64) -> String {
    format!("totp:{user_id}")
}

fn setup_context(user_id: i64) -> String {
    format!("totp-setup:{user_id}")
}

/// Two-factor as it stands for a user who has it on.
pub struct EnabledTwoFactor {
    pub secret: Vec<u8>,
    pub enabled_at: i64,
    /// Codes of this 30-second step or earlier are refused: each step is accepted once.
    pub last_used_step: i64,
}

/// When two-factor was turned on, or `None` if it is off. Does not open the secret.
pub async fn enabled_at(pool: &AnyPool, user_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT enabled_at FROM two_factor WHERE user_id = $1").bind(user_id).fetch_optional(pool).await
}

pub async fn find_enabled(
    pool: &AnyPool,
    secrets: &Secrets,
    user_id: i64,
) -> Result<Option<EnabledTwoFactor>, AppError> {
    let row = sqlx::query("SELECT secret_sealed, enabled_at, last_used_step FROM two_factor WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let sealed: String = row.try_get("secret_sealed")?;
    Ok(Some(EnabledTwoFactor {
        secret: secrets.decrypt(&sealed, &enabled_context(user_id))?,
        enabled_at: row.try_get("enabled_at")?,
        last_used_step: row.try_get("last_used_step")?,
    }))
}

/// Turns two-factor on. False if it was on already (a parallel enable won).
pub async fn insert_enabled(
    connection: &mut AnyConnection,
    secrets: &Secrets,
    user_id: i64,
    secret: &[u8],
    used_step: i64,
    now: i64,
) -> Result<bool, AppError> {
    let result = sqlx::query(
        "INSERT INTO two_factor (user_id, secret_sealed, enabled_at, last_used_step) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO NOTHING",
    )
    .bind(user_id)
    .bind(secrets.encrypt(secret, &enabled_context(user_id))?)
    .bind(now)
    .bind(used_step)
    .execute(connection)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Turns two-factor off. False if it was off already.
pub async fn delete_enabled(connection: &mut AnyConnection, user_id: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query("DELETE FROM two_factor WHERE user_id = $1").bind(user_id).execute(connection).await?;
    Ok(result.rows_affected() == 1)
}

/// Records that the code of `step` was used. One statement that both checks and moves
/// the mark, so of parallel requests with one code exactly one gets true.
pub async fn spend_step(connection: &mut AnyConnection, user_id: i64, step: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query("UPDATE two_factor SET last_used_step = $1 WHERE user_id = $2 AND last_used_step < $1")
        .bind(step)
        .bind(user_id)
        .execute(connection)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// Keeps a new setup, replacing the user's earlier one (its `temp_key` dies with it).
pub async fn save_setup(
    pool: &AnyPool,
    secrets: &Secrets,
    user_id: i64,
    key_hash: &str,
    secret: &[u8],
    now: i64,
    expires_at: i64,
) -> Result<(), AppError> {
    sqlx::query(
        "INSERT INTO two_factor_setups (user_id, key_hash, secret_sealed, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id) DO UPDATE SET
           key_hash = excluded.key_hash, secret_sealed = excluded.secret_sealed,
           created_at = excluded.created_at, expires_at = excluded.expires_at",
    )
    .bind(user_id)
    .bind(key_hash)
    .bind(secrets.encrypt(secret, &setup_context(user_id))?)
    .bind(now)
    .bind(expires_at)
    .execute(pool)
    .await?;
    Ok(())
}

/// The pending secret of the user's current setup, if `key_hash` names it and it has
/// not expired. Another user's key, an old or replaced key: `None`.
pub async fn find_setup(
    pool: &AnyPool,
    secrets: &Secrets,
    user_id: i64,
    key_hash: &str,
    now: i64,
) -> Result<Option<Vec<u8>>, AppError> {
    let sealed: Option<String> = sqlx::query_scalar(
        "SELECT secret_sealed FROM two_factor_setups WHERE user_id = $1 AND key_hash = $2 AND expires_at > $3",
    )
    .bind(user_id)
    .bind(key_hash)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    match sealed {
        Some(sealed) => Ok(Some(secrets.decrypt(&sealed, &setup_context(user_id))?)),
        None => Ok(None),
    }
}

/// Uses up the setup: true for exactly one of parallel requests, false once it is
/// gone, replaced or expired.
pub async fn take_setup(
    connection: &mut AnyConnection,
    user_id: i64,
    key_hash: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let result = sqlx::query("DELETE FROM two_factor_setups WHERE user_id = $1 AND key_hash = $2 AND expires_at > $3")
        .bind(user_id)
        .bind(key_hash)
        .bind(now)
        .execute(connection)
        .await?;
    Ok(result.rows_affected() == 1)
}

pub async fn delete_setups(connection: &mut AnyConnection, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM two_factor_setups WHERE user_id = $1").bind(user_id).execute(connection).await?;
    Ok(())
}
