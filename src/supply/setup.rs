//! Writing channels: create or update one (its secret sealed), and what it supplies.
//! Used by the administrators' API, the demo's simulated suppliers and tests.

use crate::platform::channel::model::secret_context;
use crate::platform::crypto::Secrets;
use crate::platform::db::now_millis;

/// A channel as an administrator (or the demo) sets it up.
#[derive(Debug, Clone)]
pub struct ChannelSpec<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub adapter: &'a str,
    pub base_url: &'a str,
    /// `None` keeps the stored secret (credentials are write-only).
    pub secret: Option<&'a str>,
    pub timeout_ms: i64,
    pub enabled: bool,
    pub low_balance_fen: i64,
}

/// Creates the channel, or updates the one with this code; returns its id.
pub async fn upsert<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    secrets: &Secrets,
    spec: &ChannelSpec<'_>,
) -> anyhow::Result<i64> {
    let now = now_millis();
    let sealed =
        spec.secret.map(|secret| secrets.encrypt(secret.as_bytes(), &secret_context(spec.code))).transpose()?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO channels (code, name, adapter, base_url, secret_sealed, timeout_ms, enabled, low_balance_fen,
             created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (code) DO UPDATE SET name = excluded.name, adapter = excluded.adapter,
             base_url = excluded.base_url, secret_sealed = COALESCE(excluded.secret_sealed, channels.secret_sealed),
             timeout_ms = excluded.timeout_ms, enabled = excluded.enabled,
             low_balance_fen = excluded.low_balance_fen, updated_at = excluded.updated_at
         RETURNING id",
    )
    .bind(spec.code)
    .bind(spec.name)
    .bind(spec.adapter)
    .bind(spec.base_url)
    .bind(sealed)
    .bind(spec.timeout_ms)
    .bind(i64::from(spec.enabled))
    .bind(spec.low_balance_fen)
    .bind(now)
    .fetch_one(executor)
    .await?;
    Ok(id)
}

/// One product a channel supplies.
#[derive(Debug, Clone)]
pub struct Supply {
    pub product_id: i64,
    pub cost_fen: i64,
    pub priority: i64,
    pub weight: i64,
    pub enabled: bool,
    /// The provinces it covers (`Scope::stored`); None keeps a row's coverage (national
    /// for a new row).
    pub provinces: Option<String>,
}

/// Sets (inserts or replaces) what a channel supplies, in one transaction.
pub async fn set_supplies(
    db: &crate::platform::db::Database,
    channel_id: i64,
    supplies: &[Supply],
) -> anyhow::Result<()> {
    let mut transaction = db.begin_write().await?;
    write_supplies(&mut transaction, channel_id, supplies).await?;
    transaction.commit().await?;
    Ok(())
}

/// Sets what a channel supplies, inside the caller's transaction.
pub async fn write_supplies(
    connection: &mut sqlx::AnyConnection,
    channel_id: i64,
    supplies: &[Supply],
) -> Result<(), sqlx::Error> {
    let now = now_millis();
    for supply in supplies {
        // Two spellings rather than a bound NULL: the Any driver's NULL needs a type.
        let sql = if supply.provinces.is_some() {
            "INSERT INTO channel_products (channel_id, product_id, cost_fen, priority, weight, enabled, updated_at, provinces)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (channel_id, product_id) DO UPDATE SET cost_fen = excluded.cost_fen,
                 priority = excluded.priority, weight = excluded.weight, enabled = excluded.enabled,
                 updated_at = excluded.updated_at, provinces = excluded.provinces"
        } else {
            "INSERT INTO channel_products (channel_id, product_id, cost_fen, priority, weight, enabled, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (channel_id, product_id) DO UPDATE SET cost_fen = excluded.cost_fen,
                 priority = excluded.priority, weight = excluded.weight, enabled = excluded.enabled,
                 updated_at = excluded.updated_at"
        };
        let mut query = sqlx::query(sql)
            .bind(channel_id)
            .bind(supply.product_id)
            .bind(supply.cost_fen)
            .bind(supply.priority)
            .bind(supply.weight)
            .bind(i64::from(supply.enabled))
            .bind(now);
        if let Some(provinces) = &supply.provinces {
            query = query.bind(provinces.as_str());
        }
        query.execute(&mut *connection).await?;
    }
    Ok(())
}

/// The whole catalogue at `permille` of the face value, at one priority and weight.
pub async fn supply_catalogue(
    db: &crate::platform::db::Database,
    channel_id: i64,
    permille: i64,
    priority: i64,
    weight: i64,
) -> anyhow::Result<()> {
    supply_catalogue_in(db, channel_id, (permille, priority, weight), None).await
}

/// The whole catalogue at `permille` of the face value, at one priority and weight,
/// covering `scope` (None: a row's coverage stays, national for a new one).
pub async fn supply_catalogue_in(
    db: &crate::platform::db::Database,
    channel_id: i64,
    (permille, priority, weight): (i64, i64, i64),
    scope: Option<&crate::domain::Scope>,
) -> anyhow::Result<()> {
    let products: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, face_value_fen FROM products").fetch_all(&db.pool).await?;
    let supplies: Vec<Supply> = products
        .into_iter()
        .map(|(product_id, face)| Supply {
            product_id,
            cost_fen: face * permille / 1000,
            priority,
            weight,
            enabled: true,
            provinces: scope.map(crate::domain::Scope::stored),
        })
        .collect();
    set_supplies(db, channel_id, &supplies).await
}

/// The HTTP client of channels: no redirects, and (unless `allow_private`) connections
/// only to addresses the SSRF guard passed (http/notify_guard.rs), as for notifications.
pub fn client(allow_private: bool) -> anyhow::Result<reqwest::Client> {
    let mut builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("backoffice-channels/", env!("CARGO_PKG_VERSION")));
    if !allow_private {
        builder = builder.dns_resolver(std::sync::Arc::new(crate::http::notify_guard::GuardedResolver));
    }
    Ok(builder.build()?)
}

/// Switches a channel on or off; its name and whether it was on, or None when there is no
/// such channel.
pub async fn switch(
    connection: &mut sqlx::AnyConnection,
    channel_id: i64,
    enabled: bool,
) -> Result<Option<(String, bool)>, sqlx::Error> {
    let before: Option<(String, i64)> = sqlx::query_as("SELECT name, enabled FROM channels WHERE id = $1")
        .bind(channel_id)
        .fetch_optional(&mut *connection)
        .await?;
    let Some((name, was_enabled)) = before else { return Ok(None) };
    sqlx::query("UPDATE channels SET enabled = $1, updated_at = $2 WHERE id = $3")
        .bind(i64::from(enabled))
        .bind(crate::platform::db::now_millis())
        .bind(channel_id)
        .execute(&mut *connection)
        .await?;
    Ok(Some((name, was_enabled != 0)))
}
