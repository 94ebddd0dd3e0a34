//! The life cycle's changes for many orders in one transaction (the order worker's
//! batches, supply/settle.rs): each order is read, checked and moved exactly as alone
//! (`UPDATE ... WHERE status = old`), but the batch commits once, and its counters and
//! timeline events are written once, after every order row.

use super::{Deferred, Outcome, Reporter, Settling, settle_order};
use crate::domain::OrderStatus;
use crate::money::finance::ledger::Actor;
use crate::orders::model::{ORDER_COLUMNS, OrderRow};
use crate::platform::channel::CardSecret;
use crate::platform::crypto::Secrets;
use crate::platform::db::now_millis;
use crate::platform::live::aggregate::Finished;
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use sqlx::AnyConnection;
use std::collections::HashMap;

/// The orders with these ids, by id (ids must be few enough to bind: a worker's batch).
async fn read_orders(connection: &mut AnyConnection, ids: &[i64]) -> Result<HashMap<i64, OrderRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id IN ({})", placeholders.join(", "));
    let rows = bind_all(
        sqlx::query(crate::platform::sql::for_engine(connection, sql)),
        ids.iter().map(|id| Bind::Int(*id)).collect(),
    )
    .fetch_all(&mut *connection)
    .await?;
    let mut orders = HashMap::with_capacity(rows.len());
    for row in &rows {
        let order = OrderRow::from_row(row)?;
        orders.insert(order.id, order);
    }
    Ok(orders)
}

/// Pending → processing for many orders at once (`mark_processing` for each, one commit).
/// Returns `(order id, deadline)` of those it moved; the others were moved by someone else.
pub async fn mark_processing_many(state: &AppState, order_ids: &[i64]) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let mut ids = order_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let orders = read_orders(&mut transaction, &ids).await?;
    let pending: Vec<i64> = ids
        .into_iter()
        .filter(|id| orders.get(id).is_some_and(|order| order.status() == OrderStatus::Pending))
        .collect();
    if pending.is_empty() {
        return Ok(Vec::new());
    }
    // One statement for all (on PostgreSQL each statement is a round trip): the same
    // change as `mark_processing`'s, still only from pending.
    let placeholders: Vec<String> = (5..pending.len() + 5).map(|n| format!("${n}")).collect();
    let sql = format!(
        "UPDATE orders SET status = $1, submitted_at = $2, deadline_at = $3 + (deadline_at - COALESCE(submitted_at, created_at))
         WHERE status = $4 AND id IN ({}) RETURNING id, deadline_at",
        placeholders.join(", ")
    );
    let mut binds = vec![
        Bind::Int(OrderStatus::Processing.code()),
        Bind::Int(now),
        Bind::Int(now),
        Bind::Int(OrderStatus::Pending.code()),
    ];
    binds.extend(pending.iter().map(|id| Bind::Int(*id)));
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(&mut *transaction).await?;
    let mut deferred = Deferred::default();
    let mut moved = Vec::with_capacity(rows.len());
    for row in &rows {
        let id: i64 = sqlx::Row::try_get(row, 0)?;
        let deadline: i64 = sqlx::Row::try_get(row, 1)?;
        let Some(order) = orders.get(&id) else { continue };
        let counted = order.counted();
        deferred.counters.moved(
            &counted,
            &counted,
            (order.status, order.serial_no.is_some()),
            (OrderStatus::Processing.code(), false),
        );
        deferred.events.push((id, OrderStatus::Processing, "submitted", None, now));
        moved.push((order, deadline));
    }
    moved.sort_by_key(|(order, _)| order.id);
    deferred.write(&mut transaction).await?;
    transaction.commit().await?;
    for (order, _) in &moved {
        state.live.moved(order.id, order.created_at, OrderStatus::Processing);
    }
    Ok(moved.into_iter().map(|(order, deadline)| (order.id, deadline)).collect())
}

/// A channel's success for one order, as `finish_by_channel` takes it.
#[derive(Debug, Clone)]
pub struct ChannelSuccess {
    pub order_id: i64,
    pub serial_no: String,
    pub card: Option<CardSecret>,
    /// The channel that fulfilled the order, and its cost (fen).
    pub fulfilled_by: (i64, i64),
}

/// `finish_by_channel` for many successes inside the caller's transaction, in the order
/// given (callers sort by order id, the lock order). For each, `Some` when it moved the
/// order: what the live monitor is told after the caller commits. The same order twice
/// moves once.
pub async fn succeed_many(
    connection: &mut AnyConnection,
    secrets: &Secrets,
    successes: &[ChannelSuccess],
) -> Result<Vec<Option<Finished>>, sqlx::Error> {
    let mut ids: Vec<i64> = successes.iter().map(|success| success.order_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut orders = read_orders(&mut *connection, &ids).await?;
    let now = now_millis();
    let actor = Actor::system();
    let mut deferred = Deferred::default();
    let mut finished = Vec::with_capacity(successes.len());
    for success in successes {
        let Some(order) = orders.get(&success.order_id) else {
            finished.push(None);
            continue;
        };
        let outcome = Outcome::Success { serial_no: Some(success.serial_no.clone()), card: success.card.clone() };
        let how = Settling {
            reporter: Reporter::Channel,
            actor: &actor,
            detail: "",
            channel: Some(success.fulfilled_by),
            now,
        };
        let moved = settle_order(&mut *connection, secrets, order, &outcome, how, &mut deferred).await?;
        if moved.is_some() {
            // A second report of the same order in this batch finds it settled.
            orders.remove(&success.order_id);
        }
        finished.push(moved);
    }
    deferred.write(&mut *connection).await?;
    Ok(finished)
}
