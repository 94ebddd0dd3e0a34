//! Live figures of channels for the administrators' list: today's attempts, results and
//! success ratio over the last hour and today (`channel::results`, the definition the live
//! monitor and reconciliation share), p95 time to a result, attempts unresolved.

use crate::platform::channel::results::{self, Span};
use crate::platform::db::now_millis;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ChannelFigures {
    /// Attempts handed to the channel since Beijing midnight.
    pub today_orders: i64,
    /// Successes among attempts resolved in the last hour, 0 to 1; null when none.
    pub success_ratio_hour: Option<f64>,
    /// Attempts whose success or definite failure was recorded in the last 60 minutes
    /// (pending and unknown ones count for neither), and successes per thousand of them
    /// (rounded down; null without results): the live monitor's 60-minute figures.
    pub succeeded_hour: u64,
    pub failed_hour: u64,
    pub success_permille_hour: Option<u64>,
    /// The same since Beijing midnight; `succeeded_today` is what reconciliation counts
    /// as our successes of the day.
    pub succeeded_today: u64,
    pub failed_today: u64,
    /// 95th percentile of request-to-result time over the last hour, ms; null when none.
    pub p95_ms: Option<i64>,
    /// Attempts waiting for a result (pending or unknown).
    pub in_flight: i64,
    /// Of those, the ones whose last answer was unknown (timeout, 5xx, unmapped code).
    pub unknown: i64,
}

/// The figures of one channel (bounded reads: at most 10,000 latencies).
pub async fn of_channel(pool: &sqlx::AnyPool, channel_id: i64) -> Result<ChannelFigures, sqlx::Error> {
    let now = now_millis();
    let (today, _) = Span::Today.bounds(now);
    let hour = Span::LastMinutes(60).bounds(now);
    let today_orders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM order_attempts WHERE channel_id = $1 AND requested_at >= $2")
            .bind(channel_id)
            .bind(today)
            .fetch_one(pool)
            .await?;
    let (in_flight, unknown): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN outcome = 'unknown' THEN 1 ELSE 0 END), 0) AS BIGINT)
         FROM order_attempts WHERE channel_id = $1 AND outcome IN ('pending', 'unknown')",
    )
    .bind(channel_id)
    .fetch_one(pool)
    .await?;
    let mut latencies: Vec<i64> = sqlx::query_scalar(
        "SELECT COALESCE(latency_ms, 0) FROM order_attempts
         WHERE channel_id = $1 AND outcome IN ('success', 'failed') AND answered_at >= $2 AND answered_at < $3
         ORDER BY answered_at DESC LIMIT 10000",
    )
    .bind(channel_id)
    .bind(hour.0)
    .bind(hour.1)
    .fetch_all(pool)
    .await?;
    latencies.sort_unstable();
    let last_hour = results::tally(pool, channel_id, hour).await?;
    let day = results::tally(pool, channel_id, Span::Today.bounds(now)).await?;
    let total = last_hour.succeeded + last_hour.failed;
    Ok(ChannelFigures {
        today_orders,
        // For display only; the counts stay integers.
        success_ratio_hour: (total > 0).then(|| last_hour.succeeded as f64 / total as f64),
        succeeded_hour: last_hour.succeeded,
        failed_hour: last_hour.failed,
        success_permille_hour: last_hour.permille(),
        succeeded_today: day.succeeded,
        failed_today: day.failed,
        p95_ms: percentile(&latencies, 0.95),
        in_flight,
        unknown,
    })
}

/// The `share` percentile of sorted values (nearest rank).
pub fn percentile(sorted: &[i64], share: f64) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((share * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

#[cfg(test)]
mod tests {
    #[test]
    fn nearest_rank_percentile() {
        assert_eq!(super::percentile(&[], 0.95), None);
        assert_eq!(super::percentile(&[7], 0.95), Some(7));
        let values: Vec<i64> = (1..=100).collect();
        assert_eq!(super::percentile(&values, 0.95), Some(95));
        assert_eq!(super::percentile(&values, 0.5), Some(50));
    }
}
