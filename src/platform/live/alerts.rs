//! The monitor's operational alerts, read with the other alerts every 10 seconds: the
//! manual review queue ageing, merchants whose order notifications fail, and
//! notifications piling up. Where each is raised is configuration (`AlertLines`).

use super::snapshot::LiveAlert;
use crate::platform::alert_lines::AlertLines;
use crate::platform::db::Database;
use sqlx::Row;

const HOUR_MS: i64 = 3_600_000;
/// Merchants listed with failing notifications at most.
const MAX_MERCHANTS: i64 = 20;

/// The review queue's size and the age of its oldest order (since placed), as an alert
/// when either passes its line. One read of the partial index `orders_waiting`.
pub async fn review_queue(db: &Database, now: i64, lines: &AlertLines) -> Result<Option<LiveAlert>, sqlx::Error> {
    let (count, oldest): (i64, Option<i64>) =
        sqlx::query_as("SELECT COUNT(*), MIN(created_at) FROM orders WHERE status IN (0, 1, 4) AND status = 4")
            .fetch_one(&db.pool)
            .await?;
    let Some(oldest) = oldest else { return Ok(None) };
    let oldest_seconds = ((now - oldest) / 1000).max(0);
    let threshold_seconds = i64::try_from(lines.review_oldest.as_secs()).unwrap_or(i64::MAX);
    let raised = count > 0 && (oldest_seconds >= threshold_seconds || count >= lines.review_count.max(1));
    Ok(raised.then(|| LiveAlert {
        count,
        oldest_seconds,
        threshold_seconds,
        threshold: lines.review_count,
        ..LiveAlert::platform("review_aging")
    }))
}

/// Merchants whose notification deliveries of the last hour fail at or above the line,
/// worst first (`notification_attempts_started`: one range read of the hour's attempts).
pub async fn failing_callbacks(db: &Database, now: i64, lines: &AlertLines) -> Result<Vec<LiveAlert>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT n.merchant_id, m.name, COUNT(*), CAST(COALESCE(SUM(1 - a.delivered), 0) AS BIGINT)
         FROM notification_attempts a
         JOIN notifications n ON n.id = a.notification_id
         JOIN merchants m ON m.id = n.merchant_id
         WHERE a.started_at >= $1
         GROUP BY n.merchant_id, m.name
         HAVING COUNT(*) >= $2 AND SUM(1 - a.delivered) * 1000 >= $3 * COUNT(*)
         ORDER BY SUM(1 - a.delivered) * 1000 / COUNT(*) DESC, COUNT(*) DESC, n.merchant_id
         LIMIT $4",
    )
    .bind(now - HOUR_MS)
    .bind(lines.callback_min_attempts.max(1))
    .bind(lines.callback_failure_permille.clamp(1, 1000))
    .bind(MAX_MERCHANTS)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            let (count, failed): (i64, i64) = (row.try_get(2)?, row.try_get(3)?);
            Ok(LiveAlert {
                count,
                failed,
                failure_permille: failed * 1000 / count.max(1),
                threshold_permille: lines.callback_failure_permille,
                threshold: lines.callback_min_attempts,
                ..LiveAlert::merchant("callback_failing", row.try_get(0)?, row.try_get(1)?)
            })
        })
        .collect()
}

/// The notification backlog as an alert when it reaches the line.
pub fn backlog(backlog: u64, lines: &AlertLines) -> Option<LiveAlert> {
    let count = i64::try_from(backlog).unwrap_or(i64::MAX);
    (count > 0 && count >= lines.notification_backlog.max(1)).then(|| LiveAlert {
        count,
        threshold: lines.notification_backlog,
        ..LiveAlert::platform("notification_backlog")
    })
}

/// Every operational alert: the review queue first, then the notifications'.
pub async fn read(
    db: &Database,
    now: i64,
    backlog_count: u64,
    lines: &AlertLines,
) -> Result<Vec<LiveAlert>, sqlx::Error> {
    let mut alerts: Vec<LiveAlert> = review_queue(db, now, lines).await?.into_iter().collect();
    alerts.extend(backlog(backlog_count, lines));
    alerts.extend(failing_callbacks(db, now, lines).await?);
    Ok(alerts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backlog_alert_starts_at_its_line() {
        let lines = AlertLines { notification_backlog: 3, ..AlertLines::default() };
        assert!(backlog(2, &lines).is_none());
        let alert = backlog(3, &lines).unwrap();
        assert_eq!((alert.kind.as_str(), alert.count, alert.threshold), ("notification_backlog", 3, 3));
        // A line of 0 still needs something waiting.
        assert!(backlog(0, &AlertLines { notification_backlog: 0, ..AlertLines::default() }).is_none());
    }
}
