//! Per-merchant, per-Beijing-day order counts by every dimension the lists filter on,
//! changed in the same transaction as the orders they count. They answer list totals
//! and the workplace chart without counting millions of rows; their report roll-up
//! (`report_rollup.rs`) answers the profit and sales reports.

use super::report_rollup::{Amounts, ReportChanges, ReportKey};
use crate::domain::beijing_day;
use crate::platform::sql::{AFTER_ALL, Bind, StatementBatch, values_list};
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

/// The columns of an order that decide its counter and its report row.
#[derive(Debug, Clone)]
pub struct Counted {
    pub merchant_id: i64,
    pub created_at: i64,
    pub order_kind: i64,
    pub carrier: i64,
    pub face_value_fen: i64,
    pub buyback: i64,
    pub product_id: i64,
    pub price_fen: i64,
    /// The number's province ('' unknown).
    pub province: String,
    /// The channel that fulfilled it and its cost, fen (0, 0: none).
    pub channel_id: i64,
    pub cost_fen: i64,
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

    /// The same order once a success recorded who fulfilled it (`None`: nobody, as when a
    /// person marks it successful, which clears the order's channel and cost).
    pub fn fulfilled_by(&self, channel: Option<(i64, i64)>) -> Counted {
        let (channel_id, cost_fen) = channel.unwrap_or((0, 0));
        Counted { channel_id, cost_fen, ..self.clone() }
    }

    fn amounts(&self) -> Amounts {
        Amounts { face_value_fen: self.face_value_fen, price_fen: self.price_fen, cost_fen: self.cost_fen }
    }

    pub(super) fn report_key(&self) -> ReportKey {
        ReportKey {
            day: beijing_day(self.created_at),
            merchant_id: self.merchant_id,
            channel_id: self.channel_id,
            carrier: self.carrier,
            province: self.province.clone(),
            product_id: self.product_id,
        }
    }
}

#[derive(Debug, Default)]
pub struct CounterChanges {
    counters: BTreeMap<CounterKey, i64>,
    reports: ReportChanges,
}

impl CounterChanges {
    /// `delta` orders (1 placed, -1 moved away) in `status`, with or without a serial number.
    pub fn add(&mut self, order: &Counted, status: i64, has_serial: bool, delta: i64) {
        *self.counters.entry(order.key(status, has_serial)).or_insert(0) += delta;
        self.reports.add(order.report_key(), order.amounts(), status, delta);
    }

    /// An order moved from one status to another; `after` is the order as the move leaves
    /// it (a success records its channel and cost), else the same as `before`.
    pub fn moved(&mut self, before: &Counted, after: &Counted, from: (i64, bool), to: (i64, bool)) {
        self.add(before, from.0, from.1, -1);
        self.add(after, to.0, to.1, 1);
    }

    pub async fn apply(self, connection: &mut AnyConnection) -> Result<(), sqlx::Error> {
        let mut batch = StatementBatch::default();
        self.add_to(&mut batch);
        batch.execute(connection).await
    }

    /// The upserts, for a batch of statements run together: the detailed counters, then
    /// their roll-ups (per day, and over all days, by merchant, kind and status; migration
    /// 0019), then the report roll-up (migration 0043). Every transaction writes its
    /// counters once, keys sorted, detailed ones first and the roll-ups only after them
    /// (`push_after_all`, which holds also inside one PostgreSQL statement): so two
    /// transactions never lock counters in opposite orders.
    pub fn add_to(self, batch: &mut StatementBatch) {
        let Self { counters, reports } = self;
        let changes: Vec<(CounterKey, i64)> = counters.into_iter().filter(|(_, delta)| *delta != 0).collect();
        let mut rollups: BTreeMap<RollupKey, i64> = BTreeMap::new();
        for (key, delta) in &changes {
            for (all_days, day) in [(0, key.day), (1, 0)] {
                let rollup = RollupKey {
                    merchant_id: key.merchant_id,
                    all_days,
                    day,
                    order_kind: key.order_kind,
                    status: key.status,
                };
                *rollups.entry(rollup).or_insert(0) += delta;
            }
        }
        const COLUMNS: usize = 9;
        for chunk in changes.chunks(crate::platform::sql::MAX_BINDS / COLUMNS) {
            let sql = format!(
                "INSERT INTO order_counters (merchant_id, day, order_kind, status, carrier, face_value_fen, buyback,
                 has_serial, count) VALUES {}
                 ON CONFLICT (merchant_id, day, order_kind, status, carrier, face_value_fen, buyback, has_serial)
                 DO UPDATE SET count = order_counters.count + excluded.count",
                values_list(chunk.len(), COLUMNS)
            );
            let mut binds = Vec::with_capacity(chunk.len() * COLUMNS);
            for (key, delta) in chunk {
                binds.extend(
                    [
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
                    .map(Bind::Int),
                );
            }
            batch.push(sql, binds);
        }
        // A move within one status (a serial number arriving) leaves the roll-ups as they are.
        let rollups: Vec<(RollupKey, i64)> = rollups.into_iter().filter(|(_, delta)| *delta != 0).collect();
        const ROLLUP_COLUMNS: usize = 6;
        for chunk in rollups.chunks(crate::platform::sql::MAX_BINDS / ROLLUP_COLUMNS) {
            // INSERT … SELECT, for the barrier in its WHERE clause (which SQLite's upsert
            // needs anyway to tell the ON CONFLICT apart from a join's ON).
            let sql = format!(
                "INSERT INTO order_rollups (merchant_id, all_days, day, order_kind, status, count)
                 SELECT * FROM (VALUES {}) AS changes WHERE {AFTER_ALL}
                 ON CONFLICT (merchant_id, all_days, day, order_kind, status)
                 DO UPDATE SET count = order_rollups.count + excluded.count",
                values_list(chunk.len(), ROLLUP_COLUMNS)
            );
            let mut binds = Vec::with_capacity(chunk.len() * ROLLUP_COLUMNS);
            for (key, delta) in chunk {
                binds.extend(
                    [key.merchant_id, key.all_days, key.day, key.order_kind, key.status, *delta].map(Bind::Int),
                );
            }
            batch.push_after_all(sql, binds);
        }
        reports.add_to(batch);
    }
}

/// One roll-up row; the field order is the lock order, as for [`CounterKey`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct RollupKey {
    merchant_id: i64,
    all_days: i64,
    day: i64,
    order_kind: i64,
    status: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_success_moves_the_order_to_its_channel_with_its_cost() {
        let before = Counted {
            merchant_id: 7,
            created_at: 0,
            order_kind: 1,
            carrier: 1,
            face_value_fen: 10_000,
            buyback: 0,
            product_id: 3,
            price_fen: 9_900,
            province: "广东".into(),
            channel_id: 0,
            cost_fen: 0,
        };
        let after = before.fulfilled_by(Some((5, 9_800)));
        let mut changes = CounterChanges::default();
        changes.moved(&before, &after, (1, false), (2, false));
        // Out of the unfulfilled row (channel 0), into channel 5's with the channel's cost.
        assert_eq!(
            changes.reports.channels_and_sums(),
            [(0, [-1, 0, 0, 0, 0, 0, 0]), (5, [1, 1, 0, 0, 10_000, 9_900, 9_800])]
        );
    }
}
