//! The report roll-up (migration 0043): per Beijing day, merchant, channel, carrier,
//! province and product, the orders placed, how many succeeded, failed or were reversed,
//! and the face value, sales and cost of the successful ones. Changed only through
//! `CounterChanges`, so every write of the order counters (placing, settling, reversal,
//! batches, generated history) changes it in the same transaction, in one more part of
//! the same batch (no statement per order).

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

/// An order's amounts, which its row sums when it succeeded.
#[derive(Debug, Clone, Copy)]
pub struct Amounts {
    pub face_value_fen: i64,
    pub price_fen: i64,
    pub cost_fen: i64,
}

/// What one order adds to its row: orders, successes, failures, reversals, face value,
/// sales and cost (the sums for successes only: a failed or reversed order was refunded).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReportSums([i64; 7]);

impl ReportSums {
    pub fn of(order: Amounts, status: i64) -> Self {
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
    pub fn add(&mut self, key: ReportKey, order: Amounts, status: i64, delta: i64) {
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
impl ReportChanges {
    /// Each row's channel and sums, in key order: for the counters' tests.
    pub fn channels_and_sums(&self) -> Vec<(i64, [i64; 7])> {
        self.0.iter().map(|(key, sums)| (key.channel_id, sums.0)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(channel_id: i64) -> ReportKey {
        ReportKey { day: 0, merchant_id: 7, channel_id, carrier: 1, province: "广东".into(), product_id: 3 }
    }

    #[test]
    fn a_move_within_one_row_that_changes_no_sum_writes_nothing() {
        let amounts = Amounts { face_value_fen: 10_000, price_fen: 9_900, cost_fen: 0 };
        let mut batch = StatementBatch::default();
        let mut reports = ReportChanges::default();
        reports.add(key(0), amounts, 0, -1);
        reports.add(key(0), amounts, 1, 1);
        reports.add_to(&mut batch);
        assert_eq!(format!("{batch:?}").matches("report_rollups").count(), 0);
    }

    #[test]
    fn only_a_success_brings_its_amounts() {
        let amounts = Amounts { face_value_fen: 10_000, price_fen: 9_900, cost_fen: 9_800 };
        assert_eq!(ReportSums::of(amounts, 2), ReportSums([1, 1, 0, 0, 10_000, 9_900, 9_800]));
        assert_eq!(ReportSums::of(amounts, 3), ReportSums([1, 0, 1, 0, 0, 0, 0]));
    }
}
