//! A batch's result file, a page at a time: every line in file order with its outcome. Valid
//! lines come from their ranges (`ranges.rs`) and are shown placed when their order
//! exists; invalid lines, and lines refused at submit, from their own rows with the reason.

use super::outcome;
use super::ranges;
use crate::http::export::Cell;
use crate::i18n::{Locale, Message, TradeMessage, files};
use crate::platform::db::DatabaseKind;
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// Rows of invalid or refused lines read a page at most.
const ROWS_PER_PAGE: i64 = 2_000;

/// A line of the result file.
pub struct ResultLine {
    line_no: i64,
    account: String,
    product_key: String,
    merchant_order_id: String,
    price_fen: i64,
    outcome: i64,
    reason: String,
    /// The line's order: number, status and failure reason as of the download.
    order: Option<(String, i64, Option<String>)>,
}

impl ResultLine {
    pub fn cells(self, locale: Locale) -> Vec<Cell> {
        let reason = TradeMessage::from_stored(&self.reason)
            .map(|message| Message::from(message).text(locale).into_owned())
            .unwrap_or(self.reason);
        let (order_no, status, failure) = match self.order {
            Some((order_no, status, failure)) => (order_no, Some(status), failure),
            None => (String::new(), None, None),
        };
        vec![
            Cell::Int(self.line_no),
            Cell::id(self.account),
            Cell::text(self.product_key),
            Cell::id(self.merchant_order_id),
            Cell::Money(self.price_fen),
            Cell::text(outcome_text(self.outcome, locale)),
            Cell::text(reason),
            Cell::id(order_no),
            // The order's outcome as of this download: success or failure once known.
            status.map_or(Cell::Empty, |status| Cell::text(crate::orders::export::status_text(status, locale))),
            Cell::optional_text(failure),
        ]
    }
}

fn outcome_text(code: i64, locale: Locale) -> &'static str {
    let index = match code {
        outcome::VALID | outcome::INVALID | outcome::PLACED => code as usize,
        _ => outcome::REFUSED as usize,
    };
    files::BATCH_OUTCOME.get(locale)[index]
}

/// One page of the result and the line after which the next starts (None after the last).
pub struct ResultPage {
    pub lines: Vec<ResultLine>,
    pub next: Option<i64>,
}

/// The lines numbered after `after`: up to the end of the next range, and no further than
/// the last of [`ROWS_PER_PAGE`] rows of invalid or refused lines.
pub async fn page(
    pool: &sqlx::AnyPool,
    engine: DatabaseKind,
    (batch_id, merchant_id): (i64, i64),
    after: i64,
) -> anyhow::Result<ResultPage> {
    let rows = sqlx::query(
        "SELECT line_no, account, product_key, merchant_order_id, price_fen, outcome, reason FROM order_batch_rows
         WHERE batch_id = $1 AND line_no > $2 ORDER BY line_no LIMIT $3",
    )
    .bind(batch_id)
    .bind(after)
    .bind(ROWS_PER_PAGE)
    .fetch_all(pool)
    .await?;
    let rows_end = match rows.last() {
        Some(last) if rows.len() as i64 == ROWS_PER_PAGE => Some(last.try_get::<i64, _>(0)?),
        _ => None,
    };
    let range_end = ranges::next_range_end(pool, batch_id, after).await?;
    let through = match (rows_end, range_end) {
        (Some(rows), Some(range)) => Some(rows.min(range)),
        (one, other) => one.or(other),
    };
    // By line number: the page comes out in file order.
    let mut by_line: BTreeMap<i64, ResultLine> = BTreeMap::new();
    if let (Some(_), Some(through)) = (range_end, through) {
        for line in ranges::lines_between(pool, batch_id, after, through).await? {
            let stored = ResultLine {
                line_no: line.line_no,
                account: line.account,
                product_key: line.product_key,
                merchant_order_id: line.merchant_order_id,
                price_fen: line.preview_price,
                outcome: outcome::VALID,
                reason: String::new(),
                order: None,
            };
            by_line.insert(stored.line_no, stored);
        }
    }
    for row in &rows {
        let line_no: i64 = row.try_get(0)?;
        if through.is_some_and(|through| line_no > through) {
            break;
        }
        // A refused line's row stands for its range's line.
        by_line.insert(
            line_no,
            ResultLine {
                line_no,
                account: row.try_get(1)?,
                product_key: row.try_get(2)?,
                merchant_order_id: row.try_get(3)?,
                price_fen: row.try_get(4)?,
                outcome: row.try_get(5)?,
                reason: row.try_get(6)?,
                order: None,
            },
        );
    }
    let waiting: Vec<&str> = by_line
        .values()
        .filter(|line| line.outcome == outcome::VALID)
        .map(|line| line.merchant_order_id.as_str())
        .collect();
    let mut orders = orders_of(pool, engine, (batch_id, merchant_id), &waiting).await?;
    let mut lines: Vec<ResultLine> = by_line.into_values().collect();
    for line in &mut lines {
        if line.outcome == outcome::VALID
            && let Some(order) = orders.remove(&line.merchant_order_id)
        {
            line.outcome = outcome::PLACED;
            line.order = Some(order);
        }
    }
    Ok(ResultPage { lines, next: through })
}

/// The batch's orders among these merchant order ids, by id.
async fn orders_of(
    pool: &sqlx::AnyPool,
    engine: DatabaseKind,
    (batch_id, merchant_id): (i64, i64),
    ids: &[&str],
) -> anyhow::Result<HashMap<String, (String, i64, Option<String>)>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = sqlx::query(crate::platform::db::dialect::batch_orders_by_ids(engine))
        .bind(merchant_id)
        .bind(serde_json::to_string(ids)?)
        .bind(batch_id)
        .fetch_all(pool)
        .await?;
    let mut orders = HashMap::with_capacity(rows.len());
    for row in rows {
        orders.insert(row.try_get(0)?, (row.try_get(1)?, row.try_get(2)?, row.try_get(3)?));
    }
    Ok(orders)
}
