//! Every merchant's risk controls in memory (`domain::risk`), so that placing knows them
//! without a query: as the blocklist (platform/blocklist.rs), each server reads the table's
//! newest revision at most once a second on the placing path and reads the table again when
//! it changed, so a change made on another server holds here within about a second; the
//! server that made it reloads at once. A merchant without a row has the defaults.

use crate::domain::risk::RiskLimits;
use crate::platform::db::Database;
use crate::platform::followed::Followed;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Default)]
pub struct RiskSettings {
    held: Followed<HashMap<i64, RiskLimits>, i64>,
    /// Whether the table was read once (the first placement reads it).
    loaded: AtomicBool,
    /// One read at a time, each reading the version first: a read that began before a change
    /// committed cannot store its older copy after the copy read since (the first placement's
    /// read racing an administrator's save would otherwise leave the old settings held).
    reading: tokio::sync::Mutex<()>,
}

impl RiskSettings {
    /// The table as it stands now (at the first use, and after this server changed it).
    pub async fn reload(&self, db: &Database) -> Result<(), sqlx::Error> {
        let _one_at_a_time = self.reading.lock().await;
        let version = read_version(db).await?;
        self.load(db, version).await
    }

    async fn load(&self, db: &Database, version: i64) -> Result<(), sqlx::Error> {
        let rows: Vec<(i64, i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT merchant_id, single_flight, number_daily_orders, number_daily_fen, daily_cap_fen
             FROM merchant_risk WHERE $1 = $1",
        )
        .bind(0_i64)
        .fetch_all(&db.pool)
        .await?;
        let map = rows
            .into_iter()
            .map(|(merchant, single, orders, number_fen, cap)| {
                let limits = RiskLimits {
                    single_flight: single != 0,
                    number_daily_orders: orders,
                    number_daily_fen: number_fen,
                    daily_cap_fen: cap,
                };
                (merchant, limits)
            })
            .collect();
        self.held.store(map, version);
        self.loaded.store(true, Ordering::Release);
        Ok(())
    }

    /// A merchant's controls for a placement: as held, after reading the table again if
    /// another server changed it (checked at most once a second).
    pub async fn of(&self, db: &Database, merchant_id: i64) -> Result<RiskLimits, sqlx::Error> {
        if !self.loaded.load(Ordering::Acquire) {
            self.reload(db).await?;
        } else if self.held.check_due() {
            let _one_at_a_time = self.reading.lock().await;
            let version = read_version(db).await?;
            if self.held.is_stale(version) {
                self.load(db, version).await?;
            }
        }
        Ok(self.held.get().get(&merchant_id).copied().unwrap_or_default())
    }
}

async fn read_version(db: &Database) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COALESCE(MAX(revision), 0) FROM merchant_risk WHERE $1 = $1")
        .bind(0_i64)
        .fetch_one(&db.pool)
        .await
}
