//! Orders refused by the merchants' risk controls, as the live monitor counts them. A refused
//! order is never written, so each refusal adds to a row of `risk_refusals` (Beijing day ×
//! merchant × reason, migration 0039): every server's monitor reads today's rows once a
//! second, and a restarted server reads them at start. The server that refused also counts
//! at once in memory, so its own monitor does not wait for that read.

use crate::domain::risk::RiskRefusal;
use crate::platform::db::{Database, now_millis};
use std::collections::HashMap;
use std::sync::Mutex;

/// Today's counts: (Beijing day, count by reason).
#[derive(Default)]
pub struct Refusals(Mutex<(i64, HashMap<RiskRefusal, u64>)>);

impl Refusals {
    /// Counted in memory (after the database recorded them, `record`).
    pub fn add(&self, reasons: &[RiskRefusal]) {
        let day = crate::domain::beijing_day(now_millis());
        let mut today = self.locked();
        if today.0 != day {
            *today = (day, HashMap::new());
        }
        for reason in reasons {
            *today.1.entry(*reason).or_insert(0) += 1;
        }
    }

    /// The counts of `day` as read from the database.
    pub fn replace(&self, day: i64, counts: HashMap<RiskRefusal, u64>) {
        *self.locked() = (day, counts);
    }

    /// Today's counts, every reason listed (0 when none).
    pub fn today(&self) -> Vec<super::snapshot::RefusalCount> {
        let day = crate::domain::beijing_day(now_millis());
        let today = self.locked();
        RiskRefusal::ALL
            .into_iter()
            .map(|reason| super::snapshot::RefusalCount {
                reason: reason.name().to_string(),
                count: if today.0 == day { today.1.get(&reason).copied().unwrap_or(0) } else { 0 },
            })
            .collect()
    }

    fn locked(&self) -> std::sync::MutexGuard<'_, (i64, HashMap<RiskRefusal, u64>)> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Adds the merchant's refusals to today's rows, one statement per reason.
pub async fn record(db: &Database, merchant_id: i64, reasons: &[RiskRefusal]) -> Result<(), sqlx::Error> {
    let day = crate::domain::beijing_day(now_millis());
    for reason in RiskRefusal::ALL {
        let count = reasons.iter().filter(|refused| **refused == reason).count();
        if count == 0 {
            continue;
        }
        sqlx::query(
            "INSERT INTO risk_refusals (day, merchant_id, reason, count) VALUES ($1, $2, $3, $4)
             ON CONFLICT (day, merchant_id, reason) DO UPDATE SET count = risk_refusals.count + excluded.count",
        )
        .bind(day)
        .bind(merchant_id)
        .bind(reason.name())
        .bind(count as i64)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}

/// Today's counts of every merchant, by reason: (Beijing day, counts).
pub async fn read_today(db: &Database) -> Result<(i64, HashMap<RiskRefusal, u64>), sqlx::Error> {
    let day = crate::domain::beijing_day(now_millis());
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT reason, CAST(SUM(count) AS BIGINT) FROM risk_refusals WHERE day = $1 GROUP BY reason")
            .bind(day)
            .fetch_all(&db.pool)
            .await?;
    let counts = rows
        .into_iter()
        .filter_map(|(name, count)| Some((RiskRefusal::parse(&name)?, u64::try_from(count).unwrap_or(0))))
        .collect();
    Ok((day, counts))
}
