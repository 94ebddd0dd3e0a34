//! Risk controls at placement (`domain::risk`): the refusals as answers, each with its own
//! code (docs/api.md, docs/merchant-api.md), and today's figures a merchant's limits are
//! checked against.
//!
//! One order in flight per number is guarded by the database: the unique partial index
//! `orders_number_in_flight` (migration 0036) refuses a second unfinished order for a number
//! of a merchant that keeps one in flight, whichever server and whichever group places it,
//! and every path that ends an order frees the number by moving its status. Two orders of
//! one group for one number are told apart before the group is written
//! (`placement::decide::refuse_repeated_numbers`), so the write does not fail for them.
//!
//! The daily limits cost nothing for a merchant without them (the usual case: the settings
//! are in memory, `platform::risk`). With a limit set, placing reads today's figures in one
//! statement before the order goes to its group, using the orders' (merchant, account,
//! time) and (merchant, time) indexes. That read is outside the placing transaction, so
//! orders of one merchant placed at the same instant may each pass the last free unit of a
//! limit: a limit can be passed by the orders in flight at that instant, never more. Counting
//! inside the transaction would put a read of the merchant's day under its account lock on
//! every group, which group commit exists to avoid (bench/README.md).

use crate::domain::risk::{DayFigures, RiskLimits, RiskRefusal, Today};
use crate::http::error::{AppError, FieldError, code};
use crate::i18n::TradeMessage;
use axum::http::StatusCode;

/// The unique index that keeps one unfinished order per number (migration 0036).
pub const IN_FLIGHT_INDEX: &str = "orders_number_in_flight";

/// The refusal as the caller's answer (409 with the reason's own code, naming the field).
pub fn refused(reason: RiskRefusal, limits: &RiskLimits) -> AppError {
    let (code, field) = match reason {
        RiskRefusal::NumberInFlight => (code::RISK_NUMBER_IN_FLIGHT, "account"),
        RiskRefusal::NumberDailyOrders => (code::RISK_NUMBER_DAILY_ORDERS, "account"),
        RiskRefusal::NumberDailyAmount => (code::RISK_NUMBER_DAILY_AMOUNT, "account"),
        RiskRefusal::MerchantDailyCap => (code::RISK_MERCHANT_DAILY_CAP, "product_key"),
    };
    AppError::RefusedOn {
        status: StatusCode::CONFLICT,
        code,
        field: FieldError::new(field, message(reason, limits).into()),
    }
}

/// What a refusal says (also a batch line's reason).
pub fn message(reason: RiskRefusal, limits: &RiskLimits) -> TradeMessage {
    match reason {
        RiskRefusal::NumberInFlight => TradeMessage::NumberInFlight,
        RiskRefusal::NumberDailyOrders => TradeMessage::NumberDailyOrders { max: limits.number_daily_orders },
        RiskRefusal::NumberDailyAmount => TradeMessage::NumberDailyAmount { max_fen: limits.number_daily_fen },
        RiskRefusal::MerchantDailyCap => TradeMessage::MerchantDailyCap { cap_fen: limits.daily_cap_fen },
    }
}

/// The control a batch line's reason stands for, for the live monitor's count.
pub fn refusal_of(message: &TradeMessage) -> Option<RiskRefusal> {
    match message {
        TradeMessage::NumberInFlight => Some(RiskRefusal::NumberInFlight),
        TradeMessage::NumberDailyOrders { .. } => Some(RiskRefusal::NumberDailyOrders),
        TradeMessage::NumberDailyAmount { .. } => Some(RiskRefusal::NumberDailyAmount),
        TradeMessage::MerchantDailyCap { .. } => Some(RiskRefusal::MerchantDailyCap),
        _ => None,
    }
}

/// The reason of an answer made by [`refused`], for the live monitor's count.
pub fn reason_of(error: &AppError) -> Option<RiskRefusal> {
    let AppError::RefusedOn { code: refused, .. } = error else { return None };
    match *refused {
        code::RISK_NUMBER_IN_FLIGHT => Some(RiskRefusal::NumberInFlight),
        code::RISK_NUMBER_DAILY_ORDERS => Some(RiskRefusal::NumberDailyOrders),
        code::RISK_NUMBER_DAILY_AMOUNT => Some(RiskRefusal::NumberDailyAmount),
        code::RISK_MERCHANT_DAILY_CAP => Some(RiskRefusal::MerchantDailyCap),
        _ => None,
    }
}

/// Whether a statement failed on [`IN_FLIGHT_INDEX`]: PostgreSQL names the index, SQLite
/// its columns (no other unique key of `orders` has the account).
pub fn is_number_in_flight(error: &sqlx::Error) -> bool {
    error.as_database_error().is_some_and(|error| {
        error.is_unique_violation()
            && (error.message().contains(IN_FLIGHT_INDEX) || error.message().contains("orders.account"))
    })
}

/// Statuses that count toward today's figures: pending, processing, success, manual review
/// (failed and reversed orders gave their money back).
const COUNTED: &str = "status IN (0, 1, 2, 4)";

/// Today's figures and the quote's price in one statement, built once.
static TODAY_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT
         (SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND account = $2 AND created_at >= $3 AND {COUNTED}),
         (SELECT CAST(COALESCE(SUM(price_fen), 0) AS BIGINT) FROM orders
          WHERE merchant_id = $1 AND account = $2 AND created_at >= $3 AND {COUNTED}),
         (SELECT CAST(COALESCE(SUM(price_fen), 0) AS BIGINT) FROM orders
          WHERE merchant_id = $1 AND created_at >= $3 AND {COUNTED}),
         (SELECT q.price_fen FROM products p JOIN quotes q ON q.product_id = p.id
          WHERE p.product_key = $4 AND q.merchant_id = $1 AND q.status = 1 AND p.status = 1)"
    )
});

/// Today's (Beijing day) figures for the merchant and number, and the price the merchant's
/// quote would charge for the product (None: no such quote; the group refuses the order).
pub async fn today(
    pool: &sqlx::AnyPool,
    merchant_id: i64,
    account: &str,
    product_key: &str,
    now: i64,
) -> Result<(Today, Option<i64>), sqlx::Error> {
    let start = crate::domain::beijing_day_start(crate::domain::beijing_day(now));
    let (number_orders, number_fen, merchant_fen, price): (i64, i64, i64, Option<i64>) =
        sqlx::query_as(sqlx::AssertSqlSafe(TODAY_SQL.as_str()))
            .bind(merchant_id)
            .bind(account)
            .bind(start)
            .bind(product_key)
            .fetch_one(pool)
            .await?;
    Ok((Today { number_orders, number_fen, merchant_fen }, price))
}

/// Today's (Beijing day) figures of the merchant and each of its numbers, for a batch submit
/// (read once, then kept up to date as its lines are decided). A merchant's day is read
/// whole, by the (merchant, time) index: only merchants with a limit pay for it.
pub async fn day_figures(pool: &sqlx::AnyPool, merchant_id: i64, now: i64) -> Result<DayFigures, sqlx::Error> {
    let start = crate::domain::beijing_day_start(crate::domain::beijing_day(now));
    let rows: Vec<(String, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT account, COUNT(*), CAST(COALESCE(SUM(price_fen), 0) AS BIGINT) FROM orders
         WHERE merchant_id = $1 AND created_at >= $2 AND {COUNTED} GROUP BY account"
    )))
    .bind(merchant_id)
    .bind(start)
    .fetch_all(pool)
    .await?;
    let merchant_fen = rows.iter().map(|(_, _, fen)| fen).sum();
    let numbers = rows.into_iter().map(|(account, orders, fen)| (account, (orders, fen))).collect();
    Ok(DayFigures { merchant_fen, numbers })
}

/// Whether the merchant has an order with this merchant order id: a retry of an order
/// refused by a control is answered as the retry it is (the callers read that order).
pub async fn merchant_order_id_used(pool: &sqlx::AnyPool, merchant_id: i64, id: &str) -> Result<bool, sqlx::Error> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM orders WHERE merchant_id = $1 AND merchant_order_id = $2")
            .bind(merchant_id)
            .bind(id)
            .fetch_optional(pool)
            .await?;
    Ok(found.is_some())
}
