//! Attempts: every hand-over of an order to a channel is a row, numbered per order.
//!
//! `UNIQUE (order_id, attempt_no)` is what makes routing safe with several workers (also
//! on several servers): of two workers deciding the next attempt at once, one inserts it
//! and submits; the other's insert does nothing and it lets go. While an attempt is being
//! talked about with its channel it carries a lease (`lease_owner`, `lease_until`), so a
//! second worker does not query or resubmit it at the same moment.

use crate::platform::db::now_millis;
use crate::platform::sql::{Bind, bind_all};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};
use std::collections::HashSet;

pub const PENDING: &str = "pending";
pub const UNKNOWN: &str = "unknown";
pub const SUCCESS: &str = "success";
pub const FAILED: &str = "failed";

const COLUMNS: &str =
    "id, order_id, channel_id, attempt_no, upstream_order_id, cost_fen, requested_at, outcome, probe, answer";

#[derive(Debug, Clone)]
pub struct Attempt {
    pub id: i64,
    pub order_id: i64,
    pub channel_id: i64,
    pub attempt_no: i64,
    pub upstream_order_id: String,
    pub cost_fen: i64,
    pub requested_at: i64,
    pub outcome: String,
    pub probe: bool,
    /// The channel's last answer; for a failed attempt, the failure reason.
    pub answer: String,
}

impl Attempt {
    fn from_row(row: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            id: row.try_get(0)?,
            order_id: row.try_get(1)?,
            channel_id: row.try_get(2)?,
            attempt_no: row.try_get(3)?,
            upstream_order_id: row.try_get(4)?,
            cost_fen: row.try_get(5)?,
            requested_at: row.try_get(6)?,
            outcome: row.try_get(7)?,
            probe: row.try_get::<i64, _>(8)? != 0,
            answer: row.try_get(9)?,
        })
    }

    /// Neither success nor definite failure yet: the order stays with this channel.
    pub fn unresolved(&self) -> bool {
        self.outcome == PENDING || self.outcome == UNKNOWN
    }
}

/// The id the channel sees for an attempt: our system order id for the first, with the
/// attempt number appended for later ones. Stable, so a resubmission is recognised.
pub fn upstream_order_id(system_order_id: &str, attempt_no: i64) -> String {
    if attempt_no <= 1 { system_order_id.to_string() } else { format!("{system_order_id}-{attempt_no}") }
}

pub async fn latest(pool: &sqlx::AnyPool, order_id: i64) -> Result<Option<Attempt>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM order_attempts WHERE order_id = $1 ORDER BY attempt_no DESC LIMIT 1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(order_id).fetch_optional(pool).await?;
    row.as_ref().map(Attempt::from_row).transpose()
}

pub async fn by_upstream(
    pool: &sqlx::AnyPool,
    channel_id: i64,
    upstream_order_id: &str,
) -> Result<Option<Attempt>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM order_attempts WHERE channel_id = $1 AND upstream_order_id = $2");
    let row =
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(channel_id).bind(upstream_order_id).fetch_optional(pool).await?;
    row.as_ref().map(Attempt::from_row).transpose()
}

/// Channels this order has already definitely failed at (never tried again for it).
pub async fn failed_channels(pool: &sqlx::AnyPool, order_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT channel_id FROM order_attempts WHERE order_id = $1 AND outcome = 'failed'")
        .bind(order_id)
        .fetch_all(pool)
        .await
}

/// The new attempt, leased to `owner`; `None` when another worker inserted this attempt
/// number first (it submits, we do not). Also inside a transaction that moves the order
/// (an administrator sending an order in review, `orders::lifecycle::reopen`).
pub async fn insert<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    (order_id, attempt_no, upstream): (i64, i64, &str),
    (channel_id, cost_fen, probe): (i64, i64, bool),
    owner: &str,
    lease_until: i64,
) -> Result<Option<Attempt>, sqlx::Error> {
    let now = now_millis();
    let sql = format!(
        "INSERT INTO order_attempts (order_id, channel_id, attempt_no, upstream_order_id, cost_fen, requested_at,
             outcome, probe, lease_owner, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9)
         ON CONFLICT (order_id, attempt_no) DO NOTHING RETURNING {COLUMNS}"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(order_id)
        .bind(channel_id)
        .bind(attempt_no)
        .bind(upstream)
        .bind(cost_fen)
        .bind(now)
        .bind(i64::from(probe))
        .bind(owner)
        .bind(lease_until)
        .fetch_optional(executor)
        .await?;
    row.as_ref().map(Attempt::from_row).transpose()
}

/// Whether the order has an attempt that did not definitely fail (pending, unknown, or a
/// success not settled yet): while it has, the order must not go to a channel again.
pub async fn has_open(connection: &mut AnyConnection, order_id: i64) -> Result<bool, sqlx::Error> {
    let open: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM order_attempts WHERE order_id = $1 AND outcome <> 'failed'")
            .bind(order_id)
            .fetch_one(connection)
            .await?;
    Ok(open > 0)
}

/// The number the order's next attempt takes.
pub async fn next_number(connection: &mut AnyConnection, order_id: i64) -> Result<i64, sqlx::Error> {
    let last: Option<i64> = sqlx::query_scalar("SELECT MAX(attempt_no) FROM order_attempts WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(connection)
        .await?;
    Ok(last.unwrap_or(0) + 1)
}

/// Takes the attempt's lease; false when another worker holds it.
pub async fn claim(pool: &sqlx::AnyPool, attempt_id: i64, owner: &str, lease_until: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE order_attempts SET lease_owner = $1, lease_until = $2
         WHERE id = $3 AND (lease_until IS NULL OR lease_until <= $4 OR lease_owner = $1)",
    )
    .bind(owner)
    .bind(lease_until)
    .bind(attempt_id)
    .bind(now_millis())
    .execute(pool)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Records an answer about an unresolved attempt and lets go of its lease. A final
/// outcome (success, failed) is recorded once: returns whether this call recorded it.
pub async fn record<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    attempt: &Attempt,
    outcome: &str,
    answer: &str,
    serial_no: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let now = now_millis();
    let finished = outcome == SUCCESS || outcome == FAILED;
    let result = sqlx::query(
        "UPDATE order_attempts SET outcome = $1, answer = $2, serial_no = COALESCE($3, serial_no),
             answered_at = $4, latency_ms = CASE WHEN $5 = 1 THEN $4 - requested_at ELSE latency_ms END,
             lease_owner = NULL, lease_until = NULL
         WHERE id = $6 AND outcome IN ('pending', 'unknown')",
    )
    .bind(outcome)
    .bind(answer.chars().take(500).collect::<String>())
    .bind(serial_no)
    .bind(now)
    .bind(i64::from(finished))
    .bind(attempt.id)
    .execute(executor)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// An attempt's outcome now (inside the caller's transaction).
pub async fn outcome_of(connection: &mut AnyConnection, attempt_id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT outcome FROM order_attempts WHERE id = $1")
        .bind(attempt_id)
        .fetch_optional(connection)
        .await
}

/// Of these orders (a worker's batch), the ones that have any attempt.
pub async fn orders_with_attempts(pool: &sqlx::AnyPool, order_ids: &[i64]) -> Result<HashSet<i64>, sqlx::Error> {
    if order_ids.is_empty() {
        return Ok(HashSet::new());
    }
    let placeholders: Vec<String> = (1..=order_ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!("SELECT DISTINCT order_id FROM order_attempts WHERE order_id IN ({})", placeholders.join(", "));
    let mut query = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql));
    for id in order_ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(pool).await?.into_iter().collect())
}

/// An attempt about to be inserted (`insert_many`).
#[derive(Debug, Clone)]
pub struct NewAttempt {
    pub order_id: i64,
    pub attempt_no: i64,
    pub upstream_order_id: String,
    pub channel_id: i64,
    pub cost_fen: i64,
}

/// `insert` for many orders' attempts (none a probe), in one statement and one commit,
/// leased to `owner`. Returns the attempts inserted; an order missing from the answer
/// had this attempt number taken by another worker (it submits, not we).
pub async fn insert_many(
    db: &crate::platform::db::Database,
    attempts: &[NewAttempt],
    owner: &str,
    lease_until: i64,
) -> Result<Vec<Attempt>, sqlx::Error> {
    if attempts.is_empty() {
        return Ok(Vec::new());
    }
    const COLUMNS_PER_ROW: usize = 10;
    let now = now_millis();
    let mut transaction = db.begin_write().await?;
    let mut inserted = Vec::with_capacity(attempts.len());
    for chunk in attempts.chunks(crate::platform::sql::MAX_BINDS / COLUMNS_PER_ROW) {
        let sql = format!(
            "INSERT INTO order_attempts (order_id, channel_id, attempt_no, upstream_order_id, cost_fen, requested_at,
                 outcome, probe, lease_owner, lease_until)
             VALUES {} ON CONFLICT (order_id, attempt_no) DO NOTHING RETURNING {COLUMNS}",
            crate::platform::sql::values_list(chunk.len(), COLUMNS_PER_ROW)
        );
        let mut binds = Vec::with_capacity(chunk.len() * COLUMNS_PER_ROW);
        for attempt in chunk {
            binds.extend([
                Bind::Int(attempt.order_id),
                Bind::Int(attempt.channel_id),
                Bind::Int(attempt.attempt_no),
                Bind::Text(attempt.upstream_order_id.clone()),
                Bind::Int(attempt.cost_fen),
                Bind::Int(now),
                Bind::Text(PENDING.to_string()),
                Bind::Int(0),
                Bind::Text(owner.to_string()),
                Bind::Int(lease_until),
            ]);
        }
        let rows = bind_all(sqlx::query(crate::platform::sql::for_engine(&transaction, sql)), binds)
            .fetch_all(&mut *transaction)
            .await?;
        for row in &rows {
            inserted.push(Attempt::from_row(row)?);
        }
    }
    transaction.commit().await?;
    Ok(inserted)
}

/// One attempt of an order, as administrators see it in the order detail.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = ChannelAttemptItem)]
pub struct AttemptItem {
    pub attempt_no: i64,
    pub channel_code: String,
    pub channel_name: String,
    pub upstream_order_id: String,
    /// pending, unknown, success or failed.
    pub outcome: String,
    pub cost_fen: i64,
    pub requested_at: String,
    pub latency_ms: Option<i64>,
    /// The channel's last answer (a failure reason code, or its words).
    pub answer: String,
}

/// The attempts of an order, first first.
pub async fn attempts_of(pool: &sqlx::AnyPool, order_id: i64) -> Result<Vec<AttemptItem>, sqlx::Error> {
    type Row = (i64, String, String, String, String, i64, i64, Option<i64>, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT a.attempt_no, c.code, c.name, a.upstream_order_id, a.outcome, a.cost_fen, a.requested_at,
             a.latency_ms, a.answer
         FROM order_attempts a JOIN channels c ON c.id = a.channel_id WHERE a.order_id = $1 ORDER BY a.attempt_no",
    )
    .bind(order_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(
                attempt_no,
                channel_code,
                channel_name,
                upstream_order_id,
                outcome,
                cost_fen,
                requested_at,
                latency_ms,
                answer,
            )| {
                AttemptItem {
                    attempt_no,
                    channel_code,
                    channel_name,
                    upstream_order_id,
                    outcome,
                    cost_fen,
                    requested_at: crate::platform::db::millis_to_rfc3339(requested_at),
                    latency_ms,
                    answer,
                }
            },
        )
        .collect())
}
