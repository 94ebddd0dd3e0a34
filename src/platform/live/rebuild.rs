//! Reads the live figures from the database: at start, and periodically when several
//! servers share one database. Two indexed range reads, never a scan of every order:
//! orders placed since the start of the window (`orders_time`), and orders still
//! waiting for a result (`orders_waiting`, a partial index over statuses 0, 1 and 4).
//!
//! Results counted are those of orders placed inside the window (today, or the last
//! hour if longer): an order placed yesterday and resolved in the last hour is not
//! on the rebuilt chart (there is no index by finishing time, and none is worth its
//! cost on every order written for this).

use super::aggregate::{Aggregate, Finished, Placed, beijing_day, beijing_day_start};
use super::snapshot::{LiveAlert, NotificationFigures};
use crate::domain::OrderStatus;
use crate::platform::db::Database;
use sqlx::Row;
use std::collections::HashMap;

const HOUR_MS: i64 = 3_600_000;
/// Alerts listed at most.
const MAX_ALERTS: i64 = 20;

/// The figures in the database at `now`; `sharing` for figures that other servers' events
/// will feed too (`Aggregate::sharing`).
pub async fn read(db: &Database, now: i64, sharing: bool) -> Result<(Aggregate, HashMap<i64, String>), sqlx::Error> {
    let since = (now - HOUR_MS).min(beijing_day_start(beijing_day(now)));
    let mut aggregate = if sharing { Aggregate::sharing(now) } else { Aggregate::new(now) };
    let rows = sqlx::query(
        "SELECT id, merchant_id, carrier, price_fen, status, created_at, finished_at, province FROM orders
         WHERE created_at >= $1 ORDER BY created_at",
    )
    .bind(since)
    .fetch_all(&db.pool)
    .await?;
    for row in rows {
        let (id, created_at): (i64, i64) = (row.try_get(0)?, row.try_get(5)?);
        let status = OrderStatus::from_code(row.try_get(4)?).unwrap_or(OrderStatus::Processing);
        let province = crate::i18n::provinces::live_code(row.try_get::<Option<String>, _>(7)?.as_deref());
        let (merchant_id, price_fen) = (row.try_get(1)?, row.try_get(3)?);
        aggregate.placed(Placed { id, merchant_id, price_fen, created_at, province }, now);
        let finished_at: Option<i64> = row.try_get(6)?;
        if status == OrderStatus::Reversed {
            aggregate.reversed_already(id, now);
        }
        match (status, finished_at) {
            // A reversed order (冲正) finished, and in the end was not topped up.
            (OrderStatus::Success | OrderStatus::Failure | OrderStatus::Reversed, Some(finished_at)) => aggregate
                .finished(
                    Finished {
                        id,
                        carrier: row.try_get(2)?,
                        created_at,
                        finished_at,
                        success: status == OrderStatus::Success,
                        province,
                    },
                    now,
                ),
            // A final order without a finishing time (none are written so; old data could
            // be): it only leaves the waiting orders, and no chart counts it.
            (OrderStatus::Success | OrderStatus::Failure | OrderStatus::Reversed, None) => aggregate.forget(id),
            (status, _) => aggregate.moved(id, created_at, status),
        }
    }
    let waiting =
        sqlx::query("SELECT id, status, created_at FROM orders WHERE status IN (0, 1, 4)").fetch_all(&db.pool).await?;
    for row in waiting {
        let status = OrderStatus::from_code(row.try_get(1)?).unwrap_or(OrderStatus::Processing);
        aggregate.moved(row.try_get(0)?, row.try_get(2)?, status);
    }
    Ok((aggregate, merchant_names(db).await?))
}

/// Every merchant's name (a short table: one row per merchant).
pub async fn merchant_names(db: &Database) -> Result<HashMap<i64, String>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, name FROM merchants").fetch_all(&db.pool).await?;
    rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
}

/// Enabled merchants whose balance is below the alert line, lowest first.
pub async fn low_balances(db: &Database, threshold_fen: i64) -> Result<Vec<LiveAlert>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT a.merchant_id, m.name, a.balance_fen FROM merchant_accounts a JOIN merchants m ON m.id = a.merchant_id
         WHERE a.balance_fen < $1 AND m.disabled_at IS NULL ORDER BY a.balance_fen, a.merchant_id LIMIT $2",
    )
    .bind(threshold_fen)
    .bind(MAX_ALERTS)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(LiveAlert {
                balance_fen: row.try_get(2)?,
                threshold_fen,
                ..LiveAlert::merchant("low_balance", row.try_get(0)?, row.try_get(1)?)
            })
        })
        .collect()
}

/// The notification outbox's figures and its alerts: the backlog (the partial index
/// `notifications_due`), attempts of the last hour (`notification_attempts_started`) and
/// merchants with notifications given up on in the last day (`notifications_exhausted`).
/// Three indexed reads, every 10 seconds: never a scan of the outbox.
pub async fn notification_figures(
    db: &Database,
    now: i64,
) -> Result<(NotificationFigures, Vec<LiveAlert>), sqlx::Error> {
    let backlog: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE state IN (0, 2)").fetch_one(&db.pool).await?;
    let (attempts, failed): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(1 - delivered), 0) AS BIGINT) FROM notification_attempts
         WHERE started_at >= $1",
    )
    .bind(now - HOUR_MS)
    .fetch_one(&db.pool)
    .await?;
    let rows = sqlx::query(
        "SELECT n.merchant_id, m.name, COUNT(*) FROM notifications n JOIN merchants m ON m.id = n.merchant_id
         WHERE n.state = 3 AND n.created_at >= $1
         GROUP BY n.merchant_id, m.name ORDER BY COUNT(*) DESC, n.merchant_id LIMIT $2",
    )
    .bind(now - 24 * HOUR_MS)
    .bind(MAX_ALERTS)
    .fetch_all(&db.pool)
    .await?;
    let alerts = rows
        .iter()
        .map(|row| {
            Ok(LiveAlert {
                count: row.try_get(2)?,
                ..LiveAlert::merchant("notification_exhausted", row.try_get(0)?, row.try_get(1)?)
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let figures = NotificationFigures::new(backlog.max(0) as u64, attempts.max(0) as u64, failed.max(0) as u64);
    Ok((figures, alerts))
}
