//! Per-merchant, per-Beijing-day order counts by every dimension the lists filter on,
//! changed in the same transaction as the orders they count. They answer list totals
//! and the workplace chart without counting millions of rows.

use crate::domain::beijing_day;
use crate::sql::{Bind, StatementBatch, values_list};
use sqlx::AnyConnection;
use std::collections::BTreeMap;

/// One counter row. The field order is the lock order: keys are always written sorted,
/// so two transactions never wait for each other's counters in opposite orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CounterKey {
    pub merchant_id: i64,
    pub day: i64,
    pub order_kind: i64,
    pub status: i64,
    pub carrier: i64,
    pub face_value_fen: i64,
    pub buyback: i64,
    pub has_serial: i64,
}

/// The columns of an order that decide its counter.
#[derive(Debug, Clone, Copy)]
pub struct Counted {
    pub merchant_id: i64,
    pub created_at: i64,
    pub order_kind: i64,
    pub carrier: i64,
    pub face_value_fen: i64,
    pub buyback: i64,
}

impl Counted {
    pub fn key(&self, status: i64, has_serial: bool) -> CounterKey {
        CounterKey {
            merchant_id: self.merchant_id,
            day: beijing_day(self.created_at),
            order_kind: self.order_kind,
            status,
            carrier: self.carrier,
            face_value_fen: self.face_value_fen,
            buyback: self.buyback,
            has_serial: i64::from(has_serial),
        }
    }
}

#[derive(Debug, Default)]
pub struct CounterChanges(BTreeMap<CounterKey, i64>);

impl CounterChanges {
    pub fn add(&mut self, key: CounterKey, delta: i64) {
        *self.0.entry(key).or_insert(0) += delta;
    }

    /// An order moved from one status to another.
    pub fn moved(&mut self, order: &Counted, from: (i64, bool), to: (i64, bool)) {
        self.add(order.key(from.0, from.1), -1);
        self.add(order.key(to.0, to.1), 1);
    }

    pub async fn apply(self, connection: &mut AnyConnection) -> Result<(), sqlx::Error> {
        let mut batch = StatementBatch::default();
        self.add_to(&mut batch);
        batch.execute(connection).await
    }

    /// The upserts, for a batch of statements run together: the detailed counters and
    /// their two roll-ups (per day, and over all time, by merchant, kind and status).
    pub fn add_to(self, batch: &mut StatementBatch) {
        let changes: Vec<(CounterKey, i64)> = self.0.into_iter().filter(|(_, delta)| *delta != 0).collect();
        let mut days: BTreeMap<[i64; 4], i64> = BTreeMap::new();
        let mut totals: BTreeMap<[i64; 3], i64> = BTreeMap::new();
        for (key, delta) in &changes {
            *days.entry([key.merchant_id, key.day, key.order_kind, key.status]).or_insert(0) += delta;
            *totals.entry([key.merchant_id, key.order_kind, key.status]).or_insert(0) += delta;
        }
        let detailed = changes.iter().map(|(key, delta)| {
            vec![
                key.merchant_id,
                key.day,
                key.order_kind,
                key.status,
                key.carrier,
                key.face_value_fen,
                key.buyback,
                key.has_serial,
                *delta,
            ]
        });
        upsert(batch, "order_counters", DETAILED_KEY, detailed.collect());
        let days = days.into_iter().filter(|(_, delta)| *delta != 0).map(|(key, delta)| [&key[..], &[delta]].concat());
        upsert(batch, "order_counter_days", "merchant_id, day, order_kind, status", days.collect());
        let totals =
            totals.into_iter().filter(|(_, delta)| *delta != 0).map(|(key, delta)| [&key[..], &[delta]].concat());
        upsert(batch, "order_counter_totals", "merchant_id, order_kind, status", totals.collect());
    }
}

const DETAILED_KEY: &str = "merchant_id, day, order_kind, status, carrier, face_value_fen, buyback, has_serial";

/// `rows` hold the key columns, in `key`'s order, then the change of count. Rows are in
/// key order (they come from sorted maps): the lock order of the counters.
fn upsert(batch: &mut StatementBatch, table: &str, key: &str, rows: Vec<Vec<i64>>) {
    let Some(columns) = rows.first().map(Vec::len) else { return };
    for chunk in rows.chunks(crate::sql::MAX_BINDS / columns) {
        let sql = format!(
            "INSERT INTO {table} ({key}, count) VALUES {} ON CONFLICT ({key}) DO UPDATE SET count = {table}.count + excluded.count",
            values_list(chunk.len(), columns)
        );
        batch.push(sql, chunk.iter().flatten().copied().map(Bind::Int).collect());
    }
}
