//! Submitting a previewed batch, and the batch list.
//!
//! Lines are placed a few thousand per transaction. Each transaction locks the merchant's
//! account first and then reads the lines still waiting, so two submits of one batch at
//! once place every line once: the second finds nothing left. A crash between
//! transactions leaves the remaining lines waiting; submitting again finishes them.

use super::counters::CounterChanges;
use super::store::{NewOrder, all_offers, insert_orders};
use crate::db::{millis_to_rfc3339, now_millis};
use crate::domain::{OrderKind, OrderStatus, ProductKind};
use crate::error::{ApiOk, ApiResult, AppError};
use crate::extract::JsonBody;
use crate::finance::ledger::{Actor, Ledger, OrderRef};
use crate::i18n::TradeMessage;
use crate::session::CurrentUser;
use crate::sql::{Bind, bind_all};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::collections::HashSet;
use utoipa::ToSchema;

/// Lines placed per transaction.
const CHUNK: i64 = 5_000;

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchSummary {
    pub batch_id: i64,
    pub merchant_id: i64,
    pub file_name: String,
    /// 0 previewed (not submitted), 1 submitted
    pub status: i64,
    pub total_rows: i64,
    pub valid_rows: i64,
    pub invalid_rows: i64,
    /// Lines placed as orders.
    pub placed_rows: i64,
    /// Valid at preview, refused at submit (funds, quote switched off, id used meanwhile).
    pub failed_rows: i64,
    /// What the valid lines cost at preview, fen.
    pub total_fen: i64,
    pub created_at: String,
    pub submitted_at: Option<String>,
    /// A preview not submitted by then is removed (null once submitted).
    pub expires_at: Option<String>,
}

const SUMMARY: &str =
    "SELECT id, merchant_id, file_name, status, total_rows, valid_rows, placed_rows, failed_rows, total_fen,
     created_at, submitted_at FROM order_batches";

fn summary(row: &sqlx::any::AnyRow) -> Result<BatchSummary, sqlx::Error> {
    let total: i64 = row.try_get(4)?;
    let valid: i64 = row.try_get(5)?;
    let (status, created_at): (i64, i64) = (row.try_get(3)?, row.try_get(9)?);
    Ok(BatchSummary {
        batch_id: row.try_get(0)?,
        merchant_id: row.try_get(1)?,
        file_name: row.try_get(2)?,
        status,
        total_rows: total,
        valid_rows: valid,
        invalid_rows: total - valid,
        placed_rows: row.try_get(6)?,
        failed_rows: row.try_get(7)?,
        total_fen: row.try_get(8)?,
        created_at: millis_to_rfc3339(created_at),
        submitted_at: row.try_get::<Option<i64>, _>(10)?.map(millis_to_rfc3339),
        expires_at: super::batch_lifecycle::expires_at(status, created_at),
    })
}

/// A batch the caller may see; another merchant's is "not found".
pub async fn batch_of(state: &AppState, caller: &CurrentUser, batch_id: i64) -> Result<BatchSummary, AppError> {
    let sql = format!("{SUMMARY} WHERE id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(batch_id).fetch_optional(&state.db.pool).await?;
    let batch = row.as_ref().map(summary).transpose()?.ok_or(AppError::NotFound)?;
    if caller.scope(Some(batch.merchant_id)).is_err() {
        return Err(AppError::NotFound);
    }
    Ok(batch)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SubmitRequest {
    pub batch_id: i64,
}

/// Place the valid lines of a previewed batch as orders. Repeating the call is safe:
/// it answers the same summary and places nothing twice.
#[utoipa::path(post, path = "/adminapi/order/batch/submit", tag = "order", request_body = SubmitRequest,
    responses((status = 200, description = "`data` is a BatchSummary"), (status = 404, description = "40400: no such batch"),
        (status = 409, description = "40900: the preview has expired (`batch.expired`)")),
    security(("token" = [])))]
pub async fn submit(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<SubmitRequest>,
) -> ApiResult<BatchSummary> {
    let batch = batch_of(&state, &caller, request.batch_id).await?;
    crate::finance::ensure_merchant_enabled(&state.db.pool, batch.merchant_id).await?;
    let created_at: i64 = sqlx::query_scalar("SELECT created_at FROM order_batches WHERE id = $1")
        .bind(batch.batch_id)
        .fetch_one(&state.db.pool)
        .await?;
    super::batch_lifecycle::check_not_expired(&state, batch.batch_id, batch.status, created_at).await?;
    let actor = Actor::user(caller.user_id, &caller.username);
    let balance_before = crate::finance::ledger::balance_of(&state.db.pool, batch.merchant_id).await?;
    // Each chunk starts after the last line of the one before (the lines before it are
    // placed or refused): read from the start each time, the 20th chunk of a 100,000-line
    // batch stepped over 95,000 handled lines first.
    let mut after = 0;
    while let Some(last) = place_chunk(&state, &batch, &actor, after).await? {
        after = last;
    }
    let balance_after = crate::finance::ledger::balance_of(&state.db.pool, batch.merchant_id).await?;
    crate::finance::alerts::low_balance_after_debit(&state, batch.merchant_id, balance_before, balance_after).await;
    sqlx::query(
        "UPDATE order_batches SET status = 1, submitted_at = COALESCE(submitted_at, $2),
         placed_rows = (SELECT COUNT(*) FROM order_batch_rows WHERE batch_id = $1 AND outcome = 2),
         failed_rows = (SELECT COUNT(*) FROM order_batch_rows WHERE batch_id = $1 AND outcome = 3)
         WHERE id = $1",
    )
    .bind(batch.batch_id)
    .bind(now_millis())
    .execute(&state.db.pool)
    .await?;
    Ok(ApiOk(batch_of(&state, &caller, batch.batch_id).await?))
}

/// Places the next waiting lines after line `after` in one transaction; returns the last
/// line it handled (None: nothing was left). A concurrent submit of the same batch can only
/// have handled lines, never left one waiting behind this one's position. Prices
/// are read under the account lock: a line whose quote was switched off or repriced since
/// the preview is refused with its reason, never placed at the preview's price.
async fn place_chunk(
    state: &AppState,
    batch: &BatchSummary,
    actor: &Actor,
    after: i64,
) -> Result<Option<i64>, AppError> {
    let mut transaction = state.db.begin_write().await?;
    let mut ledger = Ledger::open(&mut transaction, batch.merchant_id, actor.clone()).await?;
    let offers = all_offers(&mut *transaction, batch.merchant_id).await?;
    let rows = sqlx::query(
        "SELECT line_no, account, product_key, merchant_order_id, price_fen FROM order_batch_rows
         WHERE batch_id = $1 AND line_no > $3 AND outcome = 0 ORDER BY line_no LIMIT $2",
    )
    .bind(batch.batch_id)
    .bind(CHUNK)
    .bind(after)
    .fetch_all(&mut *transaction)
    .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    let lines: Vec<(i64, String, String, String, i64)> = rows
        .iter()
        .map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?, row.try_get(3)?, row.try_get(4)?)))
        .collect::<Result<_, sqlx::Error>>()?;
    let ids: Vec<String> = lines.iter().map(|line| line.3.clone()).collect();
    let used = used_ids(&mut transaction, batch.merchant_id, &ids).await?;
    let now = now_millis();
    let deadline = now + crate::config::millis(state.config.channel.deadline);
    let mut figures = ledger.account();
    let (mut orders, mut refused) = (Vec::new(), Vec::new());
    for (line_no, account, product_key, merchant_order_id, preview_price) in &lines {
        let offer = offers.get(product_key).filter(|offer| offer.price_fen.is_some());
        let reason = match offer {
            None => Some(TradeMessage::QuoteUnavailable),
            Some(offer) if offer.price_fen != Some(*preview_price) => Some(TradeMessage::QuoteChanged),
            Some(_) if used.contains(merchant_order_id) => Some(TradeMessage::MerchantOrderIdDuplicate),
            Some(_) => None,
        };
        let (Some(offer), None) = (offer, reason.clone()) else {
            refused.push((*line_no, reason.unwrap_or(TradeMessage::QuoteUnavailable)));
            continue;
        };
        let price = offer.price_fen.unwrap_or_default();
        let Some(paid) = figures.take(price) else {
            refused.push((*line_no, TradeMessage::InsufficientFunds));
            continue;
        };
        let kind = if offer.product_kind == ProductKind::Card { OrderKind::Card } else { OrderKind::Ordinary };
        let mut order = NewOrder::pending(
            batch.merchant_id,
            merchant_order_id.clone(),
            offer.clone(),
            kind,
            account.clone(),
            price,
            now,
            deadline,
        );
        order.paid = paid;
        order.batch_id = Some(batch.batch_id);
        order.created_by = actor.id;
        orders.push(order);
    }
    let inserted = insert_orders(&mut transaction, &orders).await?;
    if inserted.len() != orders.len() {
        // The account lock keeps other placements of this merchant out, so this cannot
        // happen; if it does, nothing of this chunk is kept.
        return Err(anyhow::anyhow!("batch {}: merchant order ids taken during submit", batch.batch_id).into());
    }
    let id_of: std::collections::HashMap<&str, i64> = inserted.iter().map(|(key, id)| (key.as_str(), *id)).collect();
    let mut counters = CounterChanges::default();
    for order in &orders {
        let id = id_of[order.merchant_order_id.as_str()];
        ledger.debit_order(order.paid, OrderRef { id, order_no: &order.order_no });
        counters.add(order.counted().key(OrderStatus::Pending.code(), false), 1);
    }
    ledger.flush(&mut transaction).await?;
    counters.apply(&mut transaction).await?;
    for (line_no, reason) in &refused {
        sqlx::query("UPDATE order_batch_rows SET outcome = 3, reason = $3 WHERE batch_id = $1 AND line_no = $2")
            .bind(batch.batch_id)
            .bind(line_no)
            .bind(reason.stored())
            .execute(&mut *transaction)
            .await?;
    }
    let (first, last) = (lines.first().map_or(0, |line| line.0), lines.last().map_or(0, |line| line.0));
    sqlx::query(
        "UPDATE order_batch_rows SET outcome = 2, order_id = (SELECT o.id FROM orders o WHERE o.merchant_id = $1
             AND o.merchant_order_id = order_batch_rows.merchant_order_id)
         WHERE batch_id = $2 AND outcome = 0 AND line_no >= $3 AND line_no <= $4",
    )
    .bind(batch.merchant_id)
    .bind(batch.batch_id)
    .bind(first)
    .bind(last)
    .execute(&mut *transaction)
    .await?;
    transaction.commit().await?;
    for order in &orders {
        state.live.placed(crate::live::aggregate::Placed {
            id: id_of[order.merchant_order_id.as_str()],
            merchant_id: order.merchant_id,
            price_fen: order.price_fen,
            created_at: order.created_at,
        });
    }
    Ok(lines.last().map(|line| line.0))
}

/// Which of these merchant order ids the merchant has used already.
pub async fn used_ids(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    ids: &[String],
) -> Result<HashSet<String>, sqlx::Error> {
    let mut used = HashSet::new();
    for chunk in ids.chunks(1_000) {
        let placeholders = (0..chunk.len()).map(|index| format!("${}", index + 2)).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT merchant_order_id FROM orders WHERE merchant_id = $1 AND merchant_order_id IN ({placeholders})"
        );
        let mut binds = vec![Bind::Int(merchant_id)];
        binds.extend(chunk.iter().cloned().map(Bind::Text));
        for row in
            bind_all(sqlx::query(crate::sql::for_engine(connection, sql)), binds).fetch_all(&mut *connection).await?
        {
            used.insert(row.try_get(0)?);
        }
    }
    Ok(used)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BatchListRequest {
    /// Administrators: one merchant (omit for all). Merchants: omit.
    pub merchant_id: Option<i64>,
    #[schema(minimum = 1, maximum = 10000000)]
    pub page: Option<i64>,
    #[schema(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchListResponse {
    pub list: Vec<BatchSummary>,
    pub total: i64,
}

/// Batches, newest first, with their counts.
#[utoipa::path(post, path = "/adminapi/order/batch/list", tag = "order", request_body = BatchListRequest,
    responses((status = 200, description = "`data` is a BatchListResponse")), security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<BatchListRequest>,
) -> ApiResult<BatchListResponse> {
    let scope = caller.scope(request.merchant_id)?;
    let page = crate::pagination::page_request(None, None, request.page, request.page_size)?;
    let filter = "WHERE ($1 = 0 OR merchant_id = $1)";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM order_batches {filter}")))
        .bind(scope.unwrap_or(0))
        .fetch_one(&state.db.pool)
        .await?;
    let sql = format!("{SUMMARY} {filter} ORDER BY id DESC LIMIT $2 OFFSET $3");
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(scope.unwrap_or(0))
        .bind(page.page_size)
        .bind((page.page.unwrap_or(1) - 1) * page.page_size)
        .fetch_all(&state.db.pool)
        .await?;
    let list = rows.iter().map(summary).collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(BatchListResponse { list, total }))
}
