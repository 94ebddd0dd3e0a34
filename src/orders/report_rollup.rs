//! The report roll-up (migration 0043): per Beijing day, merchant, channel, carrier,
//! province and product, the orders placed, how many succeeded, failed or were reversed,
//! and the face value, sales and cost of the successful ones. Changed only through
//! `CounterChanges`, so every write of the order counters (placing, settling, reversal,
//! batches, generated history) changes it in the same transaction, in one more part of
//! the same batch (no statement per order).

use super::counters::Counted;
use crate::domain::OrderStatus;
use crate::platform::sql::{AFTER_ALL, Bind, StatementBatch, values_list};
use std::collections::BTreeMap;

/// One report row; the field order is the primary key's and the lock order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReportKey {
    pub day: i64,
    pub merchant_id: i64,
    pub channel_id: i64,
    pub carrier: i64,
    pub province: String,
    pub product_id: i64,
}

/// What one order adds to its row: orders, successes, failures, reversals, face value,
/// sales and cost (the sums for successes only: a failed or reversed order was refunded).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReportSums([i64; 7]);

impl ReportSums {
    pub fn of(order: &Counted, status: i64) -> Self {
        let success = status == OrderStatus::Success.code();
        let sums = |value: i64| if success { value } else { 0 };
        Self([
            1,
            i64::from(success),
            i64::from(status == OrderStatus::Failure.code()),
            i64::from(status == OrderStatus::Reversed.code()),
            sums(order.face_value_fen),
            sums(order.price_fen),
            sums(order.cost_fen),
        ])
    }

    fn add(&mut self, other: Self, times: i64) {
        for (sum, value) in self.0.iter_mut().zip(other.0) {
            *sum += value * times;
        }
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|value| *value == 0)
    }
}

#[derive(Debug, Default)]
pub struct ReportChanges(BTreeMap<ReportKey, ReportSums>);

impl ReportChanges {
    pub fn add(&mut self, key: ReportKey, order: &Counted, status: i64, delta: i64) {
        self.0.entry(key).or_default().add(ReportSums::of(order, status), delta);
    }

    /// The upsert, after every statement before it in the batch (the counters and their
    /// roll-ups: the lock order). A move that changes no sum (pending → processing, into
    /// review) writes nothing here.
    pub fn add_to(self, batch: &mut StatementBatch) {
        let changes: Vec<(ReportKey, ReportSums)> = self.0.into_iter().filter(|(_, sums)| !sums.is_zero()).collect();
        const COLUMNS: usize = 13;
        for chunk in changes.chunks(crate::platform::sql::MAX_BINDS / COLUMNS) {
            let sql = format!(
                "INSERT INTO report_rollups (day, merchant_id, channel_id, carrier, province, product_id, orders,
                 successes, failures, reversals, face_value_fen, sales_fen, cost_fen)
                 SELECT * FROM (VALUES {}) AS changes WHERE {AFTER_ALL}
                 ON CONFLICT (day, merchant_id, channel_id, carrier, province, product_id)
                 DO UPDATE SET orders = report_rollups.orders + excluded.orders,
                 successes = report_rollups.successes + excluded.successes,
                 failures = report_rollups.failures + excluded.failures,
                 reversals = report_rollups.reversals + excluded.reversals,
                 face_value_fen = report_rollups.face_value_fen + excluded.face_value_fen,
                 sales_fen = report_rollups.sales_fen + excluded.sales_fen,
                 cost_fen = report_rollups.cost_fen + excluded.cost_fen",
                values_list(chunk.len(), COLUMNS)
            );
            let mut binds = Vec::with_capacity(chunk.len() * COLUMNS);
            for (key, sums) in chunk {
                binds.extend([
                    Bind::Int(key.day),
                    Bind::Int(key.merchant_id),
                    Bind::Int(key.channel_id),
                    Bind::Int(key.carrier),
                    Bind::Text(key.province.clone()),
                    Bind::Int(key.product_id),
                ]);
                binds.extend(sums.0.map(Bind::Int));
            }
            batch.push_after_all(sql, binds);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order() -> Counted {
        Counted {
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
        }
    }

    #[test]
    fn a_move_within_one_row_that_changes_no_sum_writes_nothing() {
        let order = order();
        let mut batch = StatementBatch::default();
        let mut reports = ReportChanges::default();
        reports.add(order.report_key(), &order, 0, -1);
        reports.add(order.report_key(), &order, 1, 1);
        reports.add_to(&mut batch);
        assert_eq!(format!("{batch:?}").matches("report_rollups").count(), 0);
    }

    #[test]
    fn a_success_moves_the_order_to_its_channel_with_its_sums() {
        let before = order();
        let after = before.fulfilled_by(Some((5, 9_800)));
        let mut reports = ReportChanges::default();
        reports.add(before.report_key(), &before, 1, -1);
        reports.add(after.report_key(), &after, 2, 1);
        let rows: Vec<_> = reports.0.into_iter().collect();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].0.channel_id, rows[0].1), (0, ReportSums([-1, 0, 0, 0, 0, 0, 0])));
        assert_eq!((rows[1].0.channel_id, rows[1].1), (5, ReportSums([1, 1, 0, 0, 10_000, 9_900, 9_800])));
    }
}
