//! The total of an order list: whole Beijing days from the counters or their roll-ups, the
//! partial days at the ends of a time range counted row by row, all in one statement.

use super::model::{ORDER_COLUMNS, OrderRow};
use super::query::{OrderQuery, fetch_page, page_statement};
use crate::domain::{DAY_MS, beijing_day, beijing_day_start};
use crate::http::pagination::COUNT_CAP;
use crate::http::pagination::{PageRequest, finish_page};
use crate::platform::sql::{Bind, Conditions, bind_all, shift_placeholders};
use sqlx::AnyPool;

impl OrderQuery {
    fn counters_can_answer(&self) -> bool {
        self.duration_min_ms.is_none()
            && self.duration_max_ms.is_none()
            && self.merchant_order_id.is_none()
            && self.order_no.is_none()
            && self.account.is_none()
            && self.province.is_none()
    }

    /// Whether the roll-ups (merchant × day × kind × status, migration 0019) hold the total.
    fn rollups_can_answer(&self) -> bool {
        self.carrier.is_none() && self.face_value_fen.is_none() && self.buyback.is_none() && self.has_serial.is_none()
    }

    /// The sum of whole days [first, end) from the roll-ups: the all-days rows when the range
    /// is open below (less what lies past its end: today's rows for `history`), otherwise the
    /// rows of each day in it. A handful of rows per merchant either way.
    fn rollup_sum(&self, first: Option<i64>, end: Option<i64>) -> (String, Vec<Bind>) {
        let mut conditions = Conditions::default();
        self.rollup_conditions(&mut conditions);
        let sum = match (first, end) {
            (None, None) => {
                conditions.push("all_days = 1", vec![]);
                "count"
            }
            (None, Some(end)) => {
                conditions.push("(all_days = 1 OR (all_days = 0 AND day >= ?))", vec![Bind::Int(end)]);
                "CASE WHEN all_days = 1 THEN count ELSE -count END"
            }
            (Some(first), end) => {
                conditions.push("all_days = 0", vec![]);
                conditions.push("day >= ?", vec![Bind::Int(first)]);
                if let Some(end) = end {
                    conditions.push("day < ?", vec![Bind::Int(end)]);
                }
                "count"
            }
        };
        let sql =
            format!("SELECT CAST(COALESCE(SUM({sum}), 0) AS BIGINT) FROM order_rollups{}", conditions.where_clause());
        (sql, conditions.binds)
    }

    /// The statement giving the number of matching orders (capped at [`COUNT_CAP`]), one
    /// scalar, which a list page may read as a column of its own statement. Whole Beijing
    /// days come from the counters; only the partial days at the ends of a time range are
    /// counted row by row (through the time index), at most half a day each.
    pub fn count_statement(&self) -> Count {
        if !self.counters_can_answer() {
            return Count::rows(&self.row_conditions(self.from, self.to), Some(COUNT_CAP));
        }
        let first_full_day = self.from.map(|from| {
            let day = beijing_day(from);
            if beijing_day_start(day) == from { day } else { day + 1 }
        });
        let end_day = self.to.map(beijing_day);
        let (low, high) = (first_full_day.map(beijing_day_start), end_day.map(beijing_day_start));
        if let (Some(low), Some(high)) = (low, high)
            && low >= high
        {
            return Count::rows(&self.row_conditions(self.from, self.to), None);
        }
        // A partial day at either end is counted row by row: its hours inside the range, or,
        // when those are more than half of it, the whole day from the counters less its hours
        // outside the range. So at most half a day of orders is ever walked.
        let (mut whole_first, mut whole_end) = (first_full_day, end_day);
        let (mut added, mut subtracted) = (Vec::new(), Vec::new());
        if let (Some(from), Some(low)) = (self.from, low)
            && from < low
        {
            let day_start = low - DAY_MS;
            if low - from > from - day_start {
                whole_first = whole_first.map(|day| day - 1);
                subtracted.push(Count::rows(&self.row_conditions(Some(day_start), Some(from)), None));
            } else {
                let end = low.min(self.to.unwrap_or(i64::MAX));
                added.push(Count::rows(&self.row_conditions(Some(from), Some(end)), None));
            }
        }
        if let (Some(to), Some(high)) = (self.to, high)
            && high < to
        {
            if to - high > high + DAY_MS - to {
                whole_end = whole_end.map(|day| day + 1);
                subtracted.push(Count::rows(&self.row_conditions(Some(to), Some(high + DAY_MS)), None));
            } else {
                let start = high.max(self.from.unwrap_or(i64::MIN));
                added.push(Count::rows(&self.row_conditions(Some(start), Some(to)), None));
            }
        }
        let (sql, binds) = if self.rollups_can_answer() {
            self.rollup_sum(whole_first, whole_end)
        } else {
            let mut conditions = Conditions::default();
            self.shared_conditions(&mut conditions);
            if let Some(flag) = self.has_serial {
                conditions.push("has_serial = ?", vec![Bind::Int(i64::from(flag))]);
            }
            if let Some(day) = whole_first {
                conditions.push("day >= ?", vec![Bind::Int(day)]);
            }
            if let Some(day) = whole_end {
                conditions.push("day < ?", vec![Bind::Int(day)]);
            }
            let sql = format!(
                "SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM order_counters{}",
                conditions.where_clause()
            );
            (sql, conditions.binds)
        };
        // The whole days and the partial days at the ends, summed in one statement: one
        // round trip instead of one after the other (on PostgreSQL each is a network hop).
        added.insert(0, Count { sql, binds, cap: None, walks_rows: false });
        Count::sum_of(added, subtracted)
    }
}

/// A statement of one scalar, the number of matching orders, counted up to `cap` + 1.
#[derive(Debug, Clone)]
pub struct Count {
    pub sql: String,
    pub binds: Vec<Bind>,
    pub cap: Option<i64>,
    /// Whether it counts orders row by row (a partial day, a filter the counters lack), or
    /// only sums a handful of counter rows.
    pub walks_rows: bool,
}

impl Count {
    /// Runs the statement: the total and whether it was capped.
    pub async fn fetch(self, pool: &AnyPool) -> Result<(i64, bool), sqlx::Error> {
        use sqlx::Row;
        let counted: i64 =
            bind_all(sqlx::query(sqlx::AssertSqlSafe(self.sql)), self.binds).fetch_one(pool).await?.try_get(0)?;
        Ok(Count::capped(counted, self.cap))
    }

    /// The total and whether it was capped, from what the statement counted.
    pub fn capped(counted: i64, cap: Option<i64>) -> (i64, bool) {
        match cap {
            Some(cap) if counted > cap => (cap, true),
            _ => (counted, false),
        }
    }

    /// Counts the orders that meet `conditions` row by row (at most `cap` + 1 of them).
    fn rows(conditions: &Conditions, cap: Option<i64>) -> Self {
        let inner = format!("SELECT 1 FROM orders{}", conditions.where_clause());
        let sql = match cap {
            Some(cap) => format!("SELECT COUNT(*) FROM ({inner} LIMIT {}) counted", cap + 1),
            None => format!("SELECT COUNT(*) FROM ({inner}) counted"),
        };
        Count { sql, binds: conditions.binds.clone(), cap, walks_rows: true }
    }

    /// The sum of scalar statements less others, as one statement: each part's placeholders
    /// `$N` are renumbered after the parts before it.
    fn sum_of(added: Vec<Count>, subtracted: Vec<Count>) -> Self {
        let mut sum = String::new();
        let mut binds = Vec::new();
        let mut walks_rows = false;
        let signed =
            added.into_iter().map(|part| (" + ", part)).chain(subtracted.into_iter().map(|part| (" - ", part)));
        for (index, (sign, part)) in signed.enumerate() {
            if index > 0 {
                sum.push_str(sign);
            }
            sum.push_str(&format!("({})", shift_placeholders(&part.sql, binds.len())));
            binds.extend(part.binds);
            walks_rows |= part.walks_rows;
        }
        Count { sql: format!("SELECT CAST({sum} AS BIGINT)"), binds, cap: None, walks_rows }
    }
}

/// A list page with the list's total (and whether it was capped). A total from the counters
/// alone (a handful of rows) is a column of the page's own statement, evaluated once: one
/// round trip to the database instead of two, and the page and its total read from one
/// snapshot. A total that walks rows runs beside the page, on a connection of its own, so
/// the two take the time of the slower rather than of both.
pub async fn fetch_page_with_total(
    pool: &AnyPool,
    query: &OrderQuery,
    page: PageRequest,
) -> Result<(Vec<OrderRow>, Option<String>, (i64, bool)), sqlx::Error> {
    use sqlx::Row;
    let count = query.count_statement();
    if count.walks_rows {
        let ((orders, next), total) = tokio::try_join!(fetch_page(pool, query, page), count.fetch(pool))?;
        return Ok((orders, next, total));
    }
    let columns = format!("{ORDER_COLUMNS}, ({}) AS total", count.sql);
    let (sql, page_binds) = page_statement(query, page, &columns, count.binds.len());
    let binds = count.binds.iter().cloned().chain(page_binds).collect();
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await?;
    let total = match rows.first() {
        Some(row) => Count::capped(row.try_get("total")?, count.cap),
        // An empty first page: nothing matches. An empty later page says nothing of the rest.
        None if page.cursor.is_none() && page.page.unwrap_or(1) <= 1 => (0, false),
        None => count.fetch(pool).await?,
    };
    let orders = rows.iter().map(OrderRow::from_row).collect::<Result<Vec<_>, _>>()?;
    let (orders, next) = finish_page(orders, page.page_size, |order| (order.created_at, order.id));
    Ok((orders, next, total))
}
