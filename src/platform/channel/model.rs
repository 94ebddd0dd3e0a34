//! A channel as stored, and reading channels.

use crate::platform::db::now_millis;
use sqlx::Row;
use sqlx::any::AnyRow;

pub const CHANNEL_COLUMNS: &str = "id, code, name, adapter, base_url, secret_sealed, timeout_ms, enabled, \
    paused_until, pause_reason, probe_order_id, unknown_streak, balance_fen, balance_at, low_balance_fen, updated_at";

/// The protocol adapters there are (the `adapter` column).
pub const ADAPTERS: [&str; 2] = ["sandbox", "http-json"];

#[derive(Debug, Clone)]
pub struct ChannelRow {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub adapter: String,
    pub base_url: String,
    pub secret_sealed: Option<String>,
    pub timeout_ms: i64,
    pub enabled: bool,
    pub paused_until: Option<i64>,
    pub pause_reason: Option<String>,
    pub probe_order_id: Option<i64>,
    pub unknown_streak: i64,
    pub balance_fen: Option<i64>,
    pub balance_at: Option<i64>,
    pub low_balance_fen: i64,
    pub updated_at: i64,
}

impl ChannelRow {
    pub fn from_row(row: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: row.try_get(0)?,
            code: row.try_get(1)?,
            name: row.try_get(2)?,
            adapter: row.try_get(3)?,
            base_url: row.try_get(4)?,
            secret_sealed: row.try_get(5)?,
            timeout_ms: row.try_get(6)?,
            enabled: row.try_get::<i64, _>(7)? != 0,
            paused_until: row.try_get(8)?,
            pause_reason: row.try_get(9)?,
            probe_order_id: row.try_get(10)?,
            unknown_streak: row.try_get(11)?,
            balance_fen: row.try_get(12)?,
            balance_at: row.try_get(13)?,
            low_balance_fen: row.try_get(14)?,
            updated_at: row.try_get(15)?,
        })
    }

    /// Paused by the health check and the cool-down not over yet.
    pub fn paused_now(&self, now: i64) -> bool {
        self.paused_until.is_some_and(|until| until > now)
    }

    /// The cool-down is over but the probe has not answered yet: the channel takes only
    /// its probe order.
    pub fn probing(&self, now: i64) -> bool {
        self.paused_until.is_some_and(|until| until <= now)
    }
}

/// The context a channel's secret is sealed with (platform/key_check.rs lists it too).
pub fn secret_context(code: &str) -> String {
    format!("channel_secret:{code}")
}

pub async fn by_id<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: i64,
) -> Result<Option<ChannelRow>, sqlx::Error> {
    let sql = format!("SELECT {CHANNEL_COLUMNS} FROM channels WHERE id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(executor).await?;
    row.as_ref().map(ChannelRow::from_row).transpose()
}

pub async fn by_code<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    code: &str,
) -> Result<Option<ChannelRow>, sqlx::Error> {
    let sql = format!("SELECT {CHANNEL_COLUMNS} FROM channels WHERE code = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(code).fetch_optional(executor).await?;
    row.as_ref().map(ChannelRow::from_row).transpose()
}

pub async fn all<'e>(executor: impl sqlx::Executor<'e, Database = sqlx::Any>) -> Result<Vec<ChannelRow>, sqlx::Error> {
    let sql = format!("SELECT {CHANNEL_COLUMNS} FROM channels ORDER BY id");
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(executor).await?;
    rows.iter().map(ChannelRow::from_row).collect()
}

/// Makes the sandbox channel supply every product of the catalogue (at 98 % of the face
/// value), leaving rows that exist as they are. Run after products are added.
pub async fn sandbox_supplies_catalogue(pool: &sqlx::AnyPool) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO channel_products (channel_id, product_id, cost_fen, priority, weight, enabled, updated_at)
         SELECT c.id, p.id, p.face_value_fen * 98 / 100, 0, 1, 1, $1 FROM products p, channels c
         WHERE c.code = 'sandbox'
         ON CONFLICT (channel_id, product_id) DO NOTHING",
    )
    .bind(now_millis())
    .execute(pool)
    .await?;
    Ok(())
}
