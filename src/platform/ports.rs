//! Number portability (携号转网) in memory: the numbers a supplier reported as moved away
//! from a carrier (answer code 13), so that placing knows them without a query. Recorded
//! when an attempt fails with `order.failure.number_ported` (the worker's query, a
//! callback) and removed by an administrator (`orders::ported_numbers`); several servers
//! follow the table as they follow the blocklist: each reads its version (a counter every
//! insert, update and delete raises, migration 0040) at most once a second on the placing
//! path and reads the table again when that moved. (Count and newest change did not do: a
//! removal and a new report between two checks could leave both as they were.)

use crate::domain::Carrier;
use crate::platform::db::{Database, now_millis};
use crate::platform::followed::Followed;
use std::collections::HashMap;
use std::sync::Arc;

/// Numbers (as orders store them) and the carrier each left.
pub type PortSet = HashMap<String, Carrier>;

#[derive(Default)]
pub struct Ports(Followed<PortSet, i64>);

impl Ports {
    /// The table as it stands now (at start, and after this server recorded or removed a port).
    pub async fn reload(&self, db: &Database) -> Result<usize, sqlx::Error> {
        let version = read_version(db).await?;
        let rows: Vec<(String, i64)> = sqlx::query_as("SELECT account, from_carrier FROM number_ports WHERE $1 = $1")
            .bind(0_i64)
            .fetch_all(&db.pool)
            .await?;
        let set: PortSet =
            rows.into_iter().filter_map(|(account, code)| Some((account, Carrier::from_code(code)?))).collect();
        let held = set.len();
        self.0.store(set, version);
        Ok(held)
    }

    /// The ports for a placement: as held, read again if another server recorded or
    /// removed one (checked at most once a second).
    pub async fn current(&self, db: &Database) -> Result<Arc<PortSet>, sqlx::Error> {
        if self.0.check_due() && self.0.is_stale(read_version(db).await?) {
            self.reload(db).await?;
        }
        Ok(self.0.get())
    }

    /// The carrier `number` left, if a supplier reported it moved (placing one order, its price).
    pub async fn left_by(
        &self,
        db: &Database,
        number: &crate::domain::PhoneNumber,
    ) -> Result<Option<Carrier>, sqlx::Error> {
        Ok(self.current(db).await?.get(number.as_str()).copied())
    }

    /// Records that the number of `order_id` left the carrier of the product it was ordered
    /// as, as `channel_id` answered; the newest answer wins. This server holds it at once.
    pub async fn record(&self, db: &Database, order_id: i64, channel_id: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO number_ports (account, from_carrier, channel_id, order_id, recorded_at)
             SELECT account, carrier, $2, id, $3 FROM orders WHERE id = $1 AND account <> ''
             ON CONFLICT (account) DO UPDATE SET from_carrier = excluded.from_carrier,
                 channel_id = excluded.channel_id, order_id = excluded.order_id, recorded_at = excluded.recorded_at",
        )
        .bind(order_id)
        .bind(channel_id)
        .bind(now_millis())
        .execute(&db.pool)
        .await?;
        self.reload(db).await.map(drop)
    }
}

async fn read_version(db: &Database) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM number_ports_version WHERE id = $1").bind(1_i64).fetch_one(&db.pool).await
}
