//! Placing the waiting lines of a submitted batch, a range of lines per transaction.
//!
//! A range is at most [`range_lines`] of the batch's valid lines, cut the same way by every
//! submit (the valid lines are fixed at preview). A placed line is not marked: its order,
//! carrying the batch id and the line's merchant order id, is the record that it was placed
//! (marking 100,000 lines was a tenth of a PostgreSQL submit's WAL). Only refused lines are
//! written, with their reason. A range is placed whole or not at all, so one probe says
//! whether it was placed already. Each transaction first takes the range (its first line
//! locked `FOR UPDATE` on PostgreSQL; SQLite's single writer already excludes everyone), so
//! two submits of one batch at once place every line once: the second finds the range
//! placed. A crash between transactions leaves the remaining ranges waiting; submitting
//! again finishes them.
//!
//! Two ways to place a range:
//! - **In order** ([`Way::Locked`]): the merchant's account is locked before anything is
//!   decided, so the funds and prices read are the ones debited. Lines are refused in file
//!   order once the money runs out.
//! - **Side by side** ([`Way::SideBySide`], PostgreSQL only, when the balance covers the whole
//!   batch at submit): two ranges at once, each on its own connection, deciding from the
//!   account and the prices as last committed and inserting its orders before it locks the
//!   account. Under the lock it checks what it decided: the balance still covers the range,
//!   and every price it used is still the price. If either fails, nothing of the range is
//!   kept and it is placed in order instead. One backend inserting a range's orders was the
//!   whole of a 100,000-line submit (13 indexes a row); two use the machine's second core.
//!   Lock order is the same in both ways (the range, then the account, then the counters),
//!   so they cannot deadlock each other.

pub use super::batch_decide::Placing;
use super::batch_decide::{Line, decide, still_holds};
use super::counters::CounterChanges;
use super::store::{all_offers, insert_orders};
use crate::db::{DatabaseKind, now_millis};
use crate::domain::OrderStatus;
use crate::error::AppError;
use crate::finance::ledger::{Ledger, OrderRef};
use crate::i18n::TradeMessage;
use crate::state::AppState;
use futures_util::StreamExt;
use sqlx::Row;
use std::collections::{HashMap, HashSet};

/// Lines placed per transaction. On PostgreSQL, where two ranges go side by side, every range
/// costs a commit and its own statements, and too few ranges leave one lane idle at the end
/// and hold the account lock longer each (100,000 lines on a durable cluster, alternated,
/// medians of 3–13 runs: 2,500 a range 2.88 s, 1,500–4,000 alike, 1,000 3.14 s, 5,000
/// 3.02 s, 500 3.56 s; bench/README.md, 2026-11-27). SQLite's single writer does better with
/// fewer, larger transactions (2.35 s against 2.57 s with 1,000).
const fn range_lines(engine: DatabaseKind) -> usize {
    match engine {
        DatabaseKind::Postgres => 2_500,
        DatabaseKind::Sqlite => 5_000,
    }
}

/// Ranges placed at once on PostgreSQL when they may go side by side.
const LANES: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Locked,
    SideBySide,
}

/// What became of a range.
#[derive(Debug, PartialEq, Eq)]
enum Range {
    Placed,
    /// Side by side only: what it decided no longer holds under the lock (or the balance did
    /// not cover it); nothing of it was kept, and it is to be placed in order.
    InOrder,
}

/// Places every waiting line of the batch.
pub async fn place_waiting(state: &AppState, batch: &Placing) -> Result<(), AppError> {
    let ranges = waiting_ranges(state, batch.batch_id).await?;
    let balance = crate::finance::ledger::balance_of(&state.db.pool, batch.merchant_id).await?;
    let side_by_side = state.db.kind == DatabaseKind::Postgres && ranges.len() > 1 && balance >= batch.total_fen;
    if !side_by_side {
        for range in ranges {
            place_range(state, batch, range, Way::Locked).await?;
        }
        return Ok(());
    }
    let mut placed = futures_util::stream::iter(ranges)
        .map(|range| async move {
            match place_range(state, batch, range, Way::SideBySide).await {
                Ok(Range::Placed) => return Ok(()),
                Ok(Range::InOrder) => {}
                // Any error of the attempt (a merchant order id taken meanwhile, a deadlock
                // with a placement outside the batch) rolled it back whole; placed in order,
                // a real error shows again and is reported as such.
                Err(error) => {
                    tracing::debug!(?error, "batch range placed in order after a side-by-side attempt failed")
                }
            }
            place_range(state, batch, range, Way::Locked).await.map(drop)
        })
        .buffer_unordered(LANES);
    while let Some(outcome) = placed.next().await {
        outcome?;
    }
    Ok(())
}

/// The batch's valid lines (waiting, refused or placed) cut into ranges of at most
/// [`range_lines`], `(first, last)` line numbers, in file order: the same ranges at every
/// submit, so that a range's first line can stand for the range. Cut by the database, which
/// answers a row per range: reading every line number to cut them here was 60 ms of a
/// 100,000-line PostgreSQL submit, most of it decoding 100,000 rows.
async fn waiting_ranges(state: &AppState, batch_id: i64) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT MIN(line_no), MAX(line_no) FROM (
             SELECT line_no, (ROW_NUMBER() OVER (ORDER BY line_no) - 1) / $2 AS range_no
             FROM order_batch_rows WHERE batch_id = $1 AND outcome <> 1
         ) numbered GROUP BY range_no ORDER BY range_no",
    )
    .bind(batch_id)
    .bind(range_lines(state.db.kind) as i64)
    .fetch_all(&state.db.pool)
    .await
}

/// Places the waiting lines of one range in one transaction.
async fn place_range(
    state: &AppState,
    batch: &Placing,
    (first, last): (i64, i64),
    way: Way,
) -> Result<Range, AppError> {
    let mut transaction = state.db.begin_write().await?;
    if state.db.kind == DatabaseKind::Postgres {
        sqlx::query("SELECT line_no FROM order_batch_rows WHERE batch_id = $1 AND line_no = $2 FOR UPDATE")
            .bind(batch.batch_id)
            .bind(first)
            .execute(&mut *transaction)
            .await?;
    }
    let rows = sqlx::query(
        "SELECT line_no, account, product_key, merchant_order_id, price_fen FROM order_batch_rows
         WHERE batch_id = $1 AND line_no >= $2 AND line_no <= $3 AND outcome = 0 ORDER BY line_no",
    )
    .bind(batch.batch_id)
    .bind(first)
    .bind(last)
    .fetch_all(&mut *transaction)
    .await?;
    let Some(first_waiting) = rows.first() else {
        return Ok(Range::Placed);
    };
    if placed_already(&mut transaction, batch, &first_waiting.try_get::<String, _>(3)?).await? {
        return Ok(Range::Placed);
    }
    let lines = rows
        .iter()
        .map(|row| {
            Ok(Line {
                line_no: row.try_get(0)?,
                account: row.try_get(1)?,
                product_key: row.try_get(2)?,
                merchant_order_id: row.try_get(3)?,
                preview_price: row.try_get(4)?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let mut ledger = None;
    let figures = match way {
        Way::Locked => {
            let opened = Ledger::open(&mut transaction, batch.merchant_id, batch.actor.clone()).await?;
            let figures = opened.account();
            ledger = Some(opened);
            figures
        }
        // As last committed, without the lock (zero for a merchant never funded: then every
        // line falls short below and the range goes in order).
        Way::SideBySide => crate::finance::read_account(&mut *transaction, batch.merchant_id).await?,
    };
    let offers = all_offers(&mut *transaction, batch.merchant_id).await?;
    // Ids were free at preview. Side by side they are not read again: one taken since
    // fails the insert on the unique index, and the range is placed in order, which reads
    // them and refuses that line alone.
    let used = match way {
        Way::Locked => {
            let ids: Vec<String> = lines.iter().map(|line| line.merchant_order_id.clone()).collect();
            used_ids(&mut transaction, batch.merchant_id, &ids).await?
        }
        Way::SideBySide => HashSet::new(),
    };
    let now = now_millis();
    let deadline = now + crate::config::millis(state.config.channel.deadline);
    let decided = decide(batch, &lines, &offers, &used, figures, (now, deadline));
    // Side by side, every order is paid from the balance alone: then whichever range
    // commits first, each order's split is the one decided here.
    let short = decided.refused.iter().any(|(_, reason)| *reason == TradeMessage::InsufficientFunds);
    if way == Way::SideBySide && (short || decided.orders.iter().any(|order| order.paid.1 != 0)) {
        return in_order(transaction).await;
    }
    let inserted = insert_orders(&mut transaction, &decided.orders).await?;
    if inserted.len() != decided.orders.len() {
        // Both ways hold the range's lines, and the unique index refuses an id taken
        // meanwhile; if a row is skipped anyway, nothing of this range is kept.
        return Err(anyhow::anyhow!("batch {}: merchant order ids taken during submit", batch.batch_id).into());
    }
    mark_refused(&mut transaction, batch, &decided.refused).await?;
    let mut ledger = match ledger {
        Some(ledger) => ledger,
        None => {
            let ledger = Ledger::open(&mut transaction, batch.merchant_id, batch.actor.clone()).await?;
            let now_offers = all_offers(&mut *transaction, batch.merchant_id).await?;
            if !still_holds(&decided.orders, &ledger.account(), &now_offers) {
                return in_order(transaction).await;
            }
            ledger
        }
    };
    let id_of: HashMap<&str, i64> = inserted.iter().map(|(key, id)| (key.as_str(), *id)).collect();
    let mut counters = CounterChanges::default();
    for order in &decided.orders {
        let id = id_of[order.merchant_order_id.as_str()];
        ledger.debit_order(order.paid, OrderRef { id, order_no: &order.order_no });
        counters.add(order.counted().key(OrderStatus::Pending.code(), false), 1);
    }
    ledger.flush(&mut transaction).await?;
    counters.apply(&mut transaction).await?;
    transaction.commit().await?;
    for order in &decided.orders {
        state.live.placed(crate::live::aggregate::Placed {
            id: id_of[order.merchant_order_id.as_str()],
            merchant_id: order.merchant_id,
            price_fen: order.price_fen,
            created_at: order.created_at,
        });
    }
    Ok(Range::Placed)
}

/// Rolls a side-by-side attempt back now (its line locks go with it, before the range is
/// placed in order on another connection) and says so.
async fn in_order(transaction: sqlx::Transaction<'static, sqlx::Any>) -> Result<Range, AppError> {
    transaction.rollback().await?;
    tracing::debug!("a batch range decided side by side no longer held under the lock");
    Ok(Range::InOrder)
}

/// Whether the range whose first waiting line has this merchant order id was placed: a
/// range is placed in one transaction, so either every waiting line of it has its order
/// in this batch or none has.
async fn placed_already(
    transaction: &mut sqlx::AnyConnection,
    batch: &Placing,
    merchant_order_id: &str,
) -> Result<bool, sqlx::Error> {
    // By the unique key alone: with the batch id in the condition PostgreSQL walked the
    // batch's partial index instead (10 ms a probe once the batch had thousands of orders).
    let found: Option<Option<i64>> =
        sqlx::query_scalar("SELECT batch_id FROM orders WHERE merchant_id = $1 AND merchant_order_id = $2")
            .bind(batch.merchant_id)
            .bind(merchant_order_id)
            .fetch_optional(&mut *transaction)
            .await?;
    Ok(found.flatten() == Some(batch.batch_id))
}

/// Refused lines get their reason (placed ones are known by their orders).
async fn mark_refused(
    transaction: &mut sqlx::AnyConnection,
    batch: &Placing,
    refused: &[(i64, TradeMessage)],
) -> Result<(), sqlx::Error> {
    for (line_no, reason) in refused {
        sqlx::query("UPDATE order_batch_rows SET outcome = 3, reason = $3 WHERE batch_id = $1 AND line_no = $2")
            .bind(batch.batch_id)
            .bind(line_no)
            .bind(reason.stored())
            .execute(&mut *transaction)
            .await?;
    }
    Ok(())
}

/// Which of these merchant order ids the merchant has used already.
pub async fn used_ids(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    ids: &[String],
) -> Result<HashSet<String>, sqlx::Error> {
    let engine = DatabaseKind::of(connection);
    let mut used = HashSet::new();
    for list in id_lists(ids)? {
        used.extend(used_in(&mut *connection, engine, merchant_id, list).await?);
    }
    Ok(used)
}

/// [`used_ids`] outside a transaction (a preview): two statements at a time, each on a
/// connection of its own for that statement only, so that PostgreSQL looks them up on both
/// cores (100,000 ids: 141 ms of one backend, bench/README.md 2026-11-29) and no request
/// holds one connection while it waits for another.
pub async fn used_ids_pooled(
    pool: &sqlx::AnyPool,
    engine: DatabaseKind,
    merchant_id: i64,
    ids: &[String],
) -> Result<HashSet<String>, sqlx::Error> {
    let mut lists = futures_util::stream::iter(id_lists(ids)?)
        .map(|list| used_in(pool, engine, merchant_id, list))
        .buffer_unordered(2);
    let mut used = HashSet::new();
    while let Some(found) = lists.next().await {
        used.extend(found?);
    }
    Ok(used)
}

/// Ids looked up a statement at a time: a JSON list of this many.
const IDS_PER_STATEMENT: usize = 10_000;

/// The ids as JSON lists, one a statement.
fn id_lists(ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
    ids.chunks(IDS_PER_STATEMENT)
        .map(|chunk| serde_json::to_string(chunk).map_err(|error| sqlx::Error::Encode(error.into())))
        .collect()
}

/// The ids of one JSON list that the merchant has used.
async fn used_in<'c>(
    executor: impl sqlx::Executor<'c, Database = sqlx::Any>,
    engine: DatabaseKind,
    merchant_id: i64,
    list: String,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(crate::db::dialect::used_merchant_order_ids(engine))
        .bind(merchant_id)
        .bind(list)
        .fetch_all(executor)
        .await
}
