//! The merchant account: workplace figures (`/adminapi/finance/overview`), the
//! account-change log (`/adminapi/finance/account/*`) and the administrators' funding
//! calls (`/adminapi/admin/merchant/*`). Money moves only through `ledger.rs`.

pub mod admin;
pub mod alerts;
pub mod ledger;
pub mod log;

use crate::domain::{OrderStatus, beijing_date, beijing_day};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::platform::db::now_millis;
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use ledger::Account;
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/finance/overview", post(overview))
        .route("/adminapi/finance/account/list", post(log::list))
        .route("/adminapi/finance/account/export", get(log::export))
        .merge(admin::router())
}

/// Whether a merchant exists (administrators name merchants by mid).
pub async fn merchant_exists(pool: &AnyPool, merchant_id: i64) -> Result<bool, sqlx::Error> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT id FROM merchants WHERE id = $1").bind(merchant_id).fetch_optional(pool).await?;
    Ok(found.is_some())
}

/// Refuses new orders of a disabled merchant with a reason the caller can act on; its
/// orders already placed still settle (the worker and resolutions do not ask).
pub async fn ensure_merchant_enabled(pool: &AnyPool, merchant_id: i64) -> Result<(), crate::http::error::AppError> {
    let disabled: Option<Option<i64>> = sqlx::query_scalar("SELECT disabled_at FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(pool)
        .await?;
    merchant_may_order(disabled.map(|at| at.is_some()))
}

/// The refusal for a merchant read as disabled or not (`None`: no such merchant), wherever
/// it was read (here, or with the account lock of a group's run).
pub fn merchant_may_order(disabled: Option<bool>) -> Result<(), crate::http::error::AppError> {
    match disabled {
        Some(true) => Err(crate::http::error::AppError::Forbidden(crate::i18n::AdminMessage::MerchantDisabled.into())),
        Some(false) => Ok(()),
        // An administrator acting for a merchant that does not exist (nothing may be
        // written for it: its rows would break their foreign keys).
        None => Err(crate::http::error::AppError::NotFound),
    }
}

/// A merchant's figures (zero for a merchant that was never funded).
pub async fn read_account<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    merchant_id: i64,
) -> Result<Account, sqlx::Error> {
    let row = sqlx::query(
        "SELECT balance_fen, credit_limit_fen, credit_used_fen, total_topup_fen FROM merchant_accounts WHERE merchant_id = $1",
    )
    .bind(merchant_id)
    .fetch_optional(executor)
    .await?;
    Ok(match row {
        Some(row) => Account {
            balance_fen: row.try_get(0)?,
            credit_limit_fen: row.try_get(1)?,
            credit_used_fen: row.try_get(2)?,
            total_topup_fen: row.try_get(3)?,
        },
        None => Account::default(),
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct OverviewRequest {
    /// Administrators: one merchant (omit for the whole platform). Merchants: omit.
    pub merchant_id: Option<i64>,
    /// Days in the chart, today included: 1 to 90, default 7.
    #[schema(minimum = 1, maximum = 90)]
    pub days: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DayCount {
    /// Beijing date, YYYY-MM-DD.
    pub date: String,
    pub success: i64,
    pub failure: i64,
    /// Every order placed that day, whatever its status.
    pub total: i64,
}

/// The workplace figures.
#[derive(Debug, Serialize, ToSchema)]
pub struct Overview {
    /// 余额
    pub balance_fen: i64,
    /// 授信额度: granted credit still available (limit minus credit in use)
    pub credit_available_fen: i64,
    /// 待还授信: credit in use, awaiting repayment
    pub credit_used_fen: i64,
    /// 总授信额度: the credit limit
    pub credit_limit_fen: i64,
    /// 累计充值: everything ever added to the balance by top-ups
    pub total_topup_fen: i64,
    pub today_success: i64,
    pub today_failure: i64,
    /// Orders placed today that are still pending, processing or in manual review.
    pub today_in_flight: i64,
    /// Oldest day first, today last.
    pub days: Vec<DayCount>,
}

/// Workplace figures: balance and credit, today's orders, orders per day for the chart.
/// All counts come from the per-day counters, so this stays fast with millions of orders.
#[utoipa::path(post, path = "/adminapi/finance/overview", tag = "finance", request_body = OverviewRequest,
    responses((status = 200, description = "`data` is an Overview", body = Overview), (status = 403, description = "40300: another merchant's mid")),
    security(("token" = [])))]
pub async fn overview(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<OverviewRequest>,
) -> ApiResult<Overview> {
    let scope = caller.scope(request.merchant_id)?;
    let days = request.days.unwrap_or(7);
    if !(1..=90).contains(&days) {
        return Err(AppError::field("days", TradeMessage::InvalidChoice { allowed: "1 to 90" }));
    }
    let account = match scope {
        Some(merchant_id) => read_account(&state.db.pool, merchant_id).await?,
        None => {
            let row = sqlx::query(
                "SELECT CAST(COALESCE(SUM(balance_fen), 0) AS BIGINT), CAST(COALESCE(SUM(credit_limit_fen), 0) AS BIGINT),
                        CAST(COALESCE(SUM(credit_used_fen), 0) AS BIGINT), CAST(COALESCE(SUM(total_topup_fen), 0) AS BIGINT)
                 FROM merchant_accounts",
            )
            .fetch_one(&state.db.pool)
            .await?;
            Account {
                balance_fen: row.try_get(0)?,
                credit_limit_fen: row.try_get(1)?,
                credit_used_fen: row.try_get(2)?,
                total_topup_fen: row.try_get(3)?,
            }
        }
    };
    let today = beijing_day(now_millis());
    let first = today - days + 1;
    let mut conditions = Conditions::default();
    if let Some(merchant_id) = scope {
        conditions.push("merchant_id = ?", vec![Bind::Int(merchant_id)]);
    }
    conditions.push("all_days = 0", vec![]);
    conditions.push("day >= ?", vec![Bind::Int(first)]);
    let sql = format!(
        "SELECT day, status, CAST(SUM(count) AS BIGINT) FROM order_rollups{} GROUP BY day, status",
        conditions.where_clause()
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(&state.db.pool).await?;
    let mut chart: Vec<DayCount> =
        (first..=today).map(|day| DayCount { date: beijing_date(day), success: 0, failure: 0, total: 0 }).collect();
    let mut today_in_flight = 0;
    for row in rows {
        let (day, status, count): (i64, i64, i64) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let Some(entry) = usize::try_from(day - first).ok().and_then(|index| chart.get_mut(index)) else { continue };
        entry.total += count;
        match OrderStatus::from_code(status) {
            Some(OrderStatus::Success) => entry.success += count,
            Some(OrderStatus::Failure) => entry.failure += count,
            // Final, neither a success nor a failure of the day's chart.
            Some(OrderStatus::Reversed) => {}
            _ if day == today => today_in_flight += count,
            _ => {}
        }
    }
    let last = chart.last().map_or((0, 0), |entry| (entry.success, entry.failure));
    Ok(ApiOk(Overview {
        balance_fen: account.balance_fen,
        credit_available_fen: account.credit_available(),
        credit_used_fen: account.credit_used_fen,
        credit_limit_fen: account.credit_limit_fen,
        total_topup_fen: account.total_topup_fen,
        today_success: last.0,
        today_failure: last.1,
        today_in_flight,
        days: chart,
    }))
}
