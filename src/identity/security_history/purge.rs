//! The security history is kept 180 days: a background task deletes older events every
//! hour, in batches of 1,000 so no statement holds the database long (SQLite has one
//! writer), at most 100 batches a pass (a backlog is worked off over the next passes).

use crate::platform::db::now_millis;
use sqlx::AnyPool;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub const RETENTION_DAYS: i64 = 180;
const DAY_MILLIS: i64 = 24 * 3600 * 1000;
const BATCH: i64 = 1000;
const BATCHES_PER_PASS: usize = 100;
const PASS_EVERY: Duration = Duration::from_secs(3600);

/// Deletes events older than 180 days before `now` (epoch ms); how many went.
pub async fn purge(pool: &AnyPool, now: i64) -> Result<u64, sqlx::Error> {
    let before = now - RETENTION_DAYS * DAY_MILLIS;
    let mut deleted = 0;
    for _ in 0..BATCHES_PER_PASS {
        let batch = sqlx::query(
            "DELETE FROM security_events WHERE id IN
                 (SELECT id FROM security_events WHERE created_at < $1 ORDER BY created_at LIMIT $2)",
        )
        .bind(before)
        .bind(BATCH)
        .execute(pool)
        .await?
        .rows_affected();
        deleted += batch;
        if batch < BATCH as u64 {
            break;
        }
    }
    Ok(deleted)
}

/// Purges once at start, then every hour, until `stop`.
pub fn spawn(pool: AnyPool, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match purge(&pool, now_millis()).await {
                Ok(0) => {}
                Ok(deleted) => tracing::info!(deleted, "security history past 180 days purged"),
                Err(error) => tracing::warn!(error = %format!("{error:#}"), "security history purge failed"),
            }
            tokio::select! {
                _ = tokio::time::sleep(PASS_EVERY) => {}
                _ = stop.changed() => {}
            }
            if *stop.borrow() {
                break;
            }
        }
    })
}
