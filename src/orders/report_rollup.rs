//! The report roll-up (migration 0043): per Beijing day, merchant, channel, carrier,
//! province and product, the orders placed, how many succeeded, failed or were reversed,
//! and the face value, sales and cost of the successful ones. Changed only through
//! `CounterChanges`, so every write of the order counters (placing, settling, reversal,
//! batches, generated history) changes it in the same transaction, in one more part of
//! the same batch (no statement per order). Its coarser cubes (migration 0045) are changed
//! in the part after it, from the same changes.

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

/// A coarser roll-up (migration 0045): per day, two of merchant, channel, province and
/// product, and the carrier but in the merchant × province cube; the others hold
/// [`NOT_KEPT`] (ids) or [`NOT_KEPT_PROVINCE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cube {
    pub id: i64,
    pub merchant: bool,
    pub channel: bool,
    pub carrier: bool,
    pub province: bool,
    pub product: bool,
}

const fn cube(id: i64, [merchant, channel, carrier, province, product]: [bool; 5]) -> Cube {
    Cube { id, merchant, channel, carrier, province, product }
}

/// Smallest first (30 days of a million orders in 60: 3,600, 16,740, 18,600, 26,954,
/// 29,970 and about 46,000 rows against the full roll-up's 409,211; bench/README.md): a
/// report reads the first that holds every dimension it breaks down or filters by, else
/// the full roll-up, which then answers three or more of merchant, channel, province and
/// product, or merchant × province with the carrier.
pub const CUBES: [Cube; 6] = [
    cube(1, [false, true, true, false, true]),
    cube(2, [false, true, true, true, false]),
    cube(3, [false, false, true, true, true]),
    cube(4, [true, true, true, false, false]),
    cube(5, [true, false, true, false, true]),
    // Without the carrier: with it, merchant × province barely rolls up.
    cube(6, [true, false, false, true, false]),
];
pub const NOT_KEPT: i64 = -1;
pub const NOT_KEPT_PROVINCE: &str = "*";

impl Cube {
    fn project(self, key: &ReportKey) -> ReportKey {
        let kept = |kept: bool, id: i64| if kept { id } else { NOT_KEPT };
        ReportKey {
            day: key.day,
            merchant_id: kept(self.merchant, key.merchant_id),
            channel_id: kept(self.channel, key.channel_id),
            carrier: kept(self.carrier, key.carrier),
            province: if self.province { key.province.clone() } else { NOT_KEPT_PROVINCE.to_string() },
            product_id: kept(self.product, key.product_id),
        }
    }
}

#[derive(Debug, Default)]
pub struct ReportChanges(BTreeMap<ReportKey, ReportSums>);

impl ReportChanges {
    pub fn add(&mut self, key: ReportKey, order: Amounts, status: i64, delta: i64) {
        self.0.entry(key).or_default().add(ReportSums::of(order, status), delta);
    }

    /// The upserts, after every statement before them in the batch (the counters and their
    /// roll-ups: the lock order): the full roll-up, then its cubes, each in key order. A
    /// move that changes no sum (pending → processing, into review) writes nothing here.
    pub fn add_to(self, batch: &mut StatementBatch) {
        self.add_to_with(batch, &CUBES);
    }

    /// The same with only the cubes named: the bench's measure of what the cubes cost.
    pub fn add_to_with(self, batch: &mut StatementBatch, cubes: &[Cube]) {
        let changes: Vec<(ReportKey, ReportSums)> = self.0.into_iter().filter(|(_, sums)| !sums.is_zero()).collect();
        let cubes = cube_changes(&changes, cubes);
        let full: Vec<(Option<i64>, ReportKey, ReportSums)> =
            changes.into_iter().map(|(key, sums)| (None, key, sums)).collect();
        push_upserts(batch, full);
        push_upserts(batch, cubes.into_iter().map(|((cube, key), sums)| (Some(cube), key, sums)).collect());
    }
}

/// What changes of the full roll-up make of each cube's rows, those that change in key order.
fn cube_changes(changes: &[(ReportKey, ReportSums)], cubes: &[Cube]) -> BTreeMap<(i64, ReportKey), ReportSums> {
    let mut rows: BTreeMap<(i64, ReportKey), ReportSums> = BTreeMap::new();
    for (key, sums) in changes {
        for cube in cubes {
            rows.entry((cube.id, cube.project(key))).or_default().add(*sums, 1);
        }
    }
    rows.retain(|_, sums| !sums.is_zero());
    rows
}

/// The upserts of rows of the full roll-up (no cube) or of the cubes.
fn push_upserts(batch: &mut StatementBatch, rows: Vec<(Option<i64>, ReportKey, ReportSums)>) {
    let Some((cube, _, _)) = rows.first() else { return };
    let (table, cube_column) = if cube.is_some() { ("report_cubes", "cube, ") } else { ("report_rollups", "") };
    let columns = 13 + usize::from(cube.is_some());
    for chunk in rows.chunks(crate::platform::sql::MAX_BINDS / columns) {
        let sql = format!(
            "INSERT INTO {table} ({cube_column}day, merchant_id, channel_id, carrier, province, product_id, orders,
             successes, failures, reversals, face_value_fen, sales_fen, cost_fen)
             SELECT * FROM (VALUES {}) AS changes WHERE {AFTER_ALL}
             ON CONFLICT ({cube_column}day, merchant_id, channel_id, carrier, province, product_id)
             DO UPDATE SET orders = {table}.orders + excluded.orders,
             successes = {table}.successes + excluded.successes,
             failures = {table}.failures + excluded.failures,
             reversals = {table}.reversals + excluded.reversals,
             face_value_fen = {table}.face_value_fen + excluded.face_value_fen,
             sales_fen = {table}.sales_fen + excluded.sales_fen,
             cost_fen = {table}.cost_fen + excluded.cost_fen",
            values_list(chunk.len(), columns)
        );
        let mut binds = Vec::with_capacity(chunk.len() * columns);
        for (cube, key, sums) in chunk {
            binds.extend(cube.map(Bind::Int));
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
        assert_eq!(format!("{batch:?}").matches("report_cubes").count(), 0);
    }

    #[test]
    fn a_success_moves_in_each_cube_by_what_the_cube_keeps() {
        let amounts = Amounts { face_value_fen: 10_000, price_fen: 9_900, cost_fen: 9_800 };
        let mut reports = ReportChanges::default();
        reports.add(key(0), amounts, 1, -1);
        reports.add(key(4), amounts, 2, 1);
        let changes: Vec<(ReportKey, ReportSums)> = reports.0.into_iter().collect();
        let cubes: Vec<(i64, i64, i64, String, i64, [i64; 7])> = cube_changes(&changes, &CUBES)
            .into_iter()
            .map(|((cube, key), sums)| (cube, key.merchant_id, key.channel_id, key.province, key.product_id, sums.0))
            .collect();
        let success = [1, 1, 0, 0, 10_000, 9_900, 9_800];
        let now_a_success = [0, 1, 0, 0, 10_000, 9_900, 9_800];
        let (star, guangdong) = (|| NOT_KEPT_PROVINCE.to_string(), || "广东".to_string());
        assert_eq!(
            cubes,
            [
                // The cubes with channels: the order leaves "no channel" for the one that filled it.
                (1, NOT_KEPT, 0, star(), 3, [-1, 0, 0, 0, 0, 0, 0]),
                (1, NOT_KEPT, 4, star(), 3, success),
                (2, NOT_KEPT, 0, guangdong(), NOT_KEPT, [-1, 0, 0, 0, 0, 0, 0]),
                (2, NOT_KEPT, 4, guangdong(), NOT_KEPT, success),
                // The others keep no channel: still one order, now a success.
                (3, NOT_KEPT, NOT_KEPT, guangdong(), 3, now_a_success),
                (4, 7, 0, star(), NOT_KEPT, [-1, 0, 0, 0, 0, 0, 0]),
                (4, 7, 4, star(), NOT_KEPT, success),
                (5, 7, NOT_KEPT, star(), 3, now_a_success),
                (6, 7, NOT_KEPT, guangdong(), NOT_KEPT, now_a_success),
            ]
        );
        let mut batch = StatementBatch::default();
        ReportChanges(changes.into_iter().collect()).add_to(&mut batch);
        let text = format!("{batch:?}");
        assert_eq!(
            (text.matches("INSERT INTO report_rollups").count(), text.matches("INSERT INTO report_cubes").count()),
            (1, 1)
        );
    }

    #[test]
    fn only_a_success_brings_its_amounts() {
        let amounts = Amounts { face_value_fen: 10_000, price_fen: 9_900, cost_fen: 9_800 };
        assert_eq!(ReportSums::of(amounts, 2), ReportSums([1, 1, 0, 0, 10_000, 9_900, 9_800]));
        assert_eq!(ReportSums::of(amounts, 3), ReportSums([1, 0, 1, 0, 0, 0, 0]));
    }
}
