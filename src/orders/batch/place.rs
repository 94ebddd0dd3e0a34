//! Placing the waiting lines of a submitted batch, a range of lines per transaction.
//!
//! A range is the valid lines the preview stored together (`ranges.rs`), the same at
//! every submit. A placed line is not marked: its order, carrying the batch id and the line's
//! merchant order id, is the record that it was placed (marking 100,000 lines was a tenth of
//! a PostgreSQL submit's WAL). Refused lines get a row with their reason, and the range is
//! flagged placed, in the transaction that places it: whole or not at all. Each transaction
//! first takes the range (its row locked `FOR UPDATE` on PostgreSQL; SQLite's single writer
//! already excludes everyone), so two submits of one batch at once place every line once: the
//! second finds the range placed. A crash between transactions leaves the remaining ranges
//! waiting; submitting again finishes them.
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

pub use super::decide::Placing;
use super::decide::{Guards, Line, decide, still_holds};
use super::ranges;
use crate::domain::risk::{DayFigures, RiskLimits};
use crate::domain::segments::Region;
use crate::domain::windows::Closed;
use crate::domain::{Carrier, OrderStatus, PhoneNumber, Speed};
use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::money::finance::ledger::{Ledger, OrderRef};
use crate::orders::counters::CounterChanges;
use crate::orders::store::{all_offers, insert_orders};
use crate::platform::db::{DatabaseKind, now_millis};
use crate::platform::sql::bind_all;
use crate::platform::state::AppState;
use futures_util::StreamExt;
use std::collections::{HashMap, HashSet};

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
    let ranges = ranges::waiting(&state.db.pool, batch.batch_id).await?;
    let balance = crate::money::finance::ledger::balance_of(&state.db.pool, batch.merchant_id).await?;
    let risk = state.risk.of(&state.db, batch.merchant_id).await?;
    // With a daily limit the ranges go in order, today's figures read once and carried from
    // range to range: side by side, two ranges would each see the other's orders too late.
    let mut day = match risk.counts_today() {
        true => Some(crate::orders::risk::day_figures(&state.db.pool, batch.merchant_id, now_millis()).await?),
        false => None,
    };
    let side_by_side =
        state.db.kind == DatabaseKind::Postgres && ranges.len() > 1 && balance >= batch.total_fen && day.is_none();
    if !side_by_side {
        for range in ranges {
            let day = day.as_mut().map(|day| (&risk, day));
            place_range(state, batch, range, Way::Locked, day).await?;
        }
        return Ok(());
    }
    let mut placed = futures_util::stream::iter(ranges)
        .map(|range| async move {
            match place_range(state, batch, range, Way::SideBySide, None).await {
                Ok(Range::Placed) => return Ok(()),
                Ok(Range::InOrder) => {}
                // Any error of the attempt (a merchant order id taken meanwhile, a deadlock
                // with a placement outside the batch) rolled it back whole; placed in order,
                // a real error shows again and is reported as such.
                Err(error) => {
                    tracing::debug!(?error, "batch range placed in order after a side-by-side attempt failed")
                }
            }
            place_range(state, batch, range, Way::Locked, None).await.map(drop)
        })
        .buffer_unordered(LANES);
    while let Some(outcome) = placed.next().await {
        outcome?;
    }
    Ok(())
}

/// Places the waiting lines of one range in one transaction.
async fn place_range(
    state: &AppState,
    batch: &Placing,
    first_line: i64,
    way: Way,
    day: Option<(&RiskLimits, &mut DayFigures)>,
) -> Result<Range, AppError> {
    let mut transaction = state.db.begin_write().await?;
    let Some(lines) = ranges::take(&mut transaction, batch.batch_id, first_line).await? else {
        return Ok(Range::Placed);
    };
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
        Way::SideBySide => crate::money::finance::read_account(&mut *transaction, batch.merchant_id).await?,
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
    let segments = &state.segments;
    let regions: Vec<Option<Region>> = lines.iter().map(|line| segments.region(&line.account)).collect();
    let deadlines = state.config.channel.deadlines();
    let blocked = state.blocklist.current(&state.db).await?;
    // One order in flight per number: the numbers with one, read in the range's transaction
    // (an order placed meanwhile elsewhere fails the insert on the unique index: side by side
    // the range then goes in order, which reads them again).
    let risk = state.risk.of(&state.db, batch.merchant_id).await?;
    let mut in_flight = match risk.single_flight {
        true => Some(numbers_in_flight(&mut transaction, batch.merchant_id).await?),
        false => None,
    };
    let closed = closing_windows(state, &lines, &regions, &offers).await?;
    // Today's figures count the orders decided here: if this transaction then fails, the
    // submit fails with it, and the next submit reads them again.
    let guards = Guards { blocked: &blocked, used: &used, in_flight: in_flight.as_mut(), closed: &closed, day };
    let decided = decide(batch, &lines, &offers, &regions, guards, figures, (now, deadlines));
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
    mark_refused(&mut transaction, batch, &lines, &decided.refused).await?;
    ranges::mark_placed(&mut transaction, batch.batch_id, first_line).await?;
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
        counters.add(&order.counted(), OrderStatus::Pending.code(), false, 1);
    }
    ledger.flush(&mut transaction).await?;
    counters.apply(&mut transaction).await?;
    transaction.commit().await?;
    let refused: Vec<_> =
        decided.refused.iter().filter_map(|(_, reason)| crate::orders::risk::refusal_of(reason)).collect();
    state.live.refused(&state.db, batch.merchant_id, &refused).await;
    for order in &decided.orders {
        state.live.placed(order.live_placed(id_of[order.merchant_order_id.as_str()]));
    }
    Ok(Range::Placed)
}

/// Per line, the maintenance window that closes every channel which could take its fast
/// product now (None for a slow product, which is placed and waits, and for an open line), as
/// a single order is refused (`orders::place::closing_window`). Nothing is read while no
/// window runs (the usual case); while one runs, once per product, carrier and province.
async fn closing_windows(
    state: &AppState,
    lines: &[Line],
    regions: &[Option<Region>],
    offers: &HashMap<String, crate::orders::store::Offer>,
) -> Result<Vec<Option<Closed>>, AppError> {
    let now = now_millis();
    if !state.windows.current(&state.db).await?.any_running(now) {
        return Ok(Vec::new());
    }
    let mut known: HashMap<(&str, Carrier, Option<u32>), Option<Closed>> = HashMap::new();
    let mut closed = Vec::with_capacity(lines.len());
    for (line, region) in lines.iter().zip(regions) {
        let fast = offers.get(&line.product_key).is_some_and(|offer| offer.speed == Speed::Fast);
        let number = PhoneNumber::parse(&line.account).filter(|_| fast);
        let Some(number) = number else {
            closed.push(None);
            continue;
        };
        let province = region.as_ref().map(|region| region.province_code);
        let key = (line.product_key.as_str(), number.carrier(), province);
        let found = match known.get(&key) {
            Some(found) => found.clone(),
            None => crate::orders::place::closing_window(state, &line.product_key, Some(&number), province).await?,
        };
        known.insert(key, found.clone());
        closed.push(found);
    }
    Ok(closed)
}

/// Rolls a side-by-side attempt back now (its line locks go with it, before the range is
/// placed in order on another connection) and says so.
async fn in_order(transaction: sqlx::Transaction<'static, sqlx::Any>) -> Result<Range, AppError> {
    transaction.rollback().await?;
    tracing::debug!("a batch range decided side by side no longer held under the lock");
    Ok(Range::InOrder)
}

/// Refused lines get a row with their reason (placed ones are known by their orders), all of
/// a range's in one statement.
async fn mark_refused(
    transaction: &mut sqlx::AnyConnection,
    batch: &Placing,
    lines: &[Line],
    refused: &[(i64, TradeMessage)],
) -> Result<(), sqlx::Error> {
    let reasons: HashMap<i64, &TradeMessage> = refused.iter().map(|(line_no, reason)| (*line_no, reason)).collect();
    let rows = lines
        .iter()
        .filter_map(|line| {
            let reason = reasons.get(&line.line_no)?;
            let line = ranges::stored(line);
            Some(ranges::line_row(batch.batch_id, line, super::outcome::REFUSED, reason.stored()))
        })
        .collect();
    for (sql, binds) in ranges::line_rows(DatabaseKind::of(transaction), rows) {
        bind_all(sqlx::query(crate::platform::sql::for_engine(transaction, sql)), binds)
            .execute(&mut *transaction)
            .await?;
    }
    Ok(())
}

/// The numbers with an unfinished order placed while the merchant kept one in flight per
/// number (the unique index `orders_number_in_flight` covers exactly these rows).
async fn numbers_in_flight(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
) -> Result<HashSet<String>, sqlx::Error> {
    let numbers: Vec<String> = sqlx::query_scalar(
        "SELECT account FROM orders WHERE merchant_id = $1 AND single_flight = 1 AND status IN (0, 1, 4)",
    )
    .bind(merchant_id)
    .fetch_all(connection)
    .await?;
    Ok(numbers.into_iter().collect())
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
/// cores (a large preview's look-up is one backend's work otherwise) and no request
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
    sqlx::query_scalar(crate::platform::db::dialect::used_merchant_order_ids(engine))
        .bind(merchant_id)
        .bind(list)
        .fetch_all(executor)
        .await
}
