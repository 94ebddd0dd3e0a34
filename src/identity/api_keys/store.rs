//! API keys as stored: the public key id, the merchant, the secret sealed with the server
//! key (bound to the key id, so a sealed secret copied to another row does not open).

use crate::platform::crypto::Secrets;
use crate::platform::db::now_millis;
use sqlx::{AnyConnection, AnyPool, Row};

/// Active keys a merchant may hold at once: one in use and one being rolled out.
pub const MAX_ACTIVE_KEYS: usize = 2;

/// A new key id and secret: `ak_` + 24 hex digits, `sk_` + 48 hex digits (192 bits).
pub fn generate() -> (String, String) {
    let mut id = [0u8; 12];
    let mut secret = [0u8; 24];
    rand::fill(&mut id);
    rand::fill(&mut secret);
    (format!("ak_{}", hex::encode(id)), format!("sk_{}", hex::encode(secret)))
}

fn context(key_id: &str) -> String {
    format!("api_key:{key_id}")
}

pub fn seal(secrets: &Secrets, key_id: &str, secret: &str) -> anyhow::Result<String> {
    secrets.encrypt(secret.as_bytes(), &context(key_id))
}

pub fn open(secrets: &Secrets, key_id: &str, sealed: &str) -> anyhow::Result<String> {
    Ok(String::from_utf8(secrets.decrypt(sealed, &context(key_id))?)?)
}

/// Takes the merchant's row lock (both engines) so that two creations cannot both see
/// room for one more key.
pub async fn lock_merchant(connection: &mut AnyConnection, merchant_id: i64) -> Result<bool, sqlx::Error> {
    let locked = sqlx::query("UPDATE merchants SET name = name WHERE id = $1")
        .bind(merchant_id)
        .execute(&mut *connection)
        .await?;
    Ok(locked.rows_affected() == 1)
}

pub async fn count_active(connection: &mut AnyConnection, merchant_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM api_keys WHERE merchant_id = $1 AND revoked_at IS NULL")
        .bind(merchant_id)
        .fetch_one(&mut *connection)
        .await
}

pub async fn insert(
    connection: &mut AnyConnection,
    key_id: &str,
    merchant_id: i64,
    sealed: &str,
    created_by: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO api_keys (key_id, merchant_id, secret_enc, created_by, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(key_id)
    .bind(merchant_id)
    .bind(sealed)
    .bind(created_by)
    .bind(now_millis())
    .execute(&mut *connection)
    .await?;
    Ok(())
}

/// A key as the guard needs it: whose, its secret, whether the merchant is disabled.
/// Not `Debug`: it holds the secret.
#[derive(Clone)]
pub struct ActiveKey {
    pub merchant_id: i64,
    pub secret: String,
    pub merchant_disabled: bool,
    /// Whether the key also accepts legacy MD5 signatures (`merchant_api/legacy.rs`).
    pub legacy_md5: bool,
}

pub async fn find_active(pool: &AnyPool, secrets: &Secrets, key_id: &str) -> anyhow::Result<Option<ActiveKey>> {
    let row = sqlx::query(
        "SELECT k.merchant_id, k.secret_enc, m.disabled_at, k.legacy_md5 FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
         WHERE k.key_id = $1 AND k.revoked_at IS NULL",
    )
    .bind(key_id)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let sealed: String = row.try_get(1)?;
    Ok(Some(ActiveKey {
        merchant_id: row.try_get(0)?,
        secret: open(secrets, key_id, &sealed)?,
        merchant_disabled: row.try_get::<Option<i64>, _>(2)?.is_some(),
        legacy_md5: row.try_get::<i64, _>(3)? != 0,
    }))
}

/// The key's secret whoever's it is, revoked or not (the signature helper).
pub async fn secret_of(pool: &AnyPool, secrets: &Secrets, key_id: &str) -> anyhow::Result<Option<(i64, String)>> {
    let row = sqlx::query("SELECT merchant_id, secret_enc FROM api_keys WHERE key_id = $1")
        .bind(key_id)
        .fetch_optional(pool)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let sealed: String = row.try_get(1)?;
    Ok(Some((row.try_get(0)?, open(secrets, key_id, &sealed)?)))
}

pub async fn record_use(pool: &AnyPool, key_id: &str, address: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE api_keys SET last_used_at = $1, last_used_address = $2 WHERE key_id = $3")
        .bind(now)
        .bind(address)
        .bind(key_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// The IP whitelists of the merchant's accounts (each comma-separated, normalised).
pub async fn whitelist(pool: &AnyPool, merchant_id: i64) -> Result<Vec<String>, sqlx::Error> {
    let rows: Vec<String> =
        sqlx::query_scalar("SELECT ip_whitelist FROM users WHERE merchant_id = $1 AND role = 'user'")
            .bind(merchant_id)
            .fetch_all(pool)
            .await?;
    Ok(rows
        .iter()
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(str::to_string)
        .collect())
}
