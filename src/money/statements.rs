//! Statements (对账单): per merchant and Beijing day or month, the opening and closing
//! balance and available credit, orders placed by status with their amounts, and every
//! movement of the account log by kind, reconciled against that log: the closing figure
//! minus the opening one must equal the sum of the period's log entries. A merchant reads
//! and downloads its own; an administrator any merchant's, or all merchants' at once.

use crate::domain::{OrderStatus, beijing_day_start};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::CurrentUser;
use crate::money::finance::ledger::{ACCOUNT_TYPES, CHANGE_TYPES};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{
    Router,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/finance/statement", post(statement))
        .route("/adminapi/finance/statement/export", get(export))
}

#[derive(Debug, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatementRequest {
    /// Merchants: omit (or their own mid). Administrators: one merchant, or omit for all.
    pub merchant_id: Option<i64>,
    /// `day` (default) or `month`.
    #[schema(pattern = r"^\s*(day|month)?\s*$")]
    #[param(pattern = r"^\s*(day|month)?\s*$")]
    pub period: Option<String>,
    /// The Beijing day `YYYY-MM-DD`, or the month `YYYY-MM` (with `period` month). A
    /// date of the other shape, or no such day, is 422.
    #[schema(pattern = r"^\s*[0-9]{4}-[0-9]{2}(-[0-9]{2})?\s*$")]
    #[param(pattern = r"^\s*[0-9]{4}-[0-9]{2}(-[0-9]{2})?\s*$")]
    pub date: String,
}

/// A Beijing day or month as `[start, end)` in unix milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub start: i64,
    pub end: i64,
}

fn days_since_epoch(year: i32, month: u8, day: u8) -> Option<i64> {
    let month = time::Month::try_from(month).ok()?;
    let date = time::Date::from_calendar_date(year, month, day).ok()?;
    Some(i64::from(date.to_julian_day()) - 2_440_588)
}

/// `digits` ASCII digits, exactly.
fn digits(part: &str, count: usize) -> bool {
    part.len() == count && part.bytes().all(|byte| byte.is_ascii_digit())
}

/// Whether `text` (trimmed) has the shape `YYYY-MM-DD` the document's pattern gives a day:
/// a text of another shape does not match the document (400); one of this shape naming
/// no day breaks a rule beyond it (422).
pub fn is_day_shaped(text: &str) -> bool {
    matches!(text.trim().split('-').collect::<Vec<_>>().as_slice(),
        [year, month, day] if digits(year, 4) && digits(month, 2) && digits(day, 2))
}

/// Whether `text` (trimmed) has the shape `YYYY-MM` of a month.
fn is_month_shaped(text: &str) -> bool {
    matches!(text.trim().split('-').collect::<Vec<_>>().as_slice(),
        [year, month] if digits(year, 4) && digits(month, 2))
}

impl Period {
    /// Reads `period` and `date`; `None` when they do not name a day or month.
    pub fn parse(period: Option<&str>, date: &str) -> Option<Self> {
        let parts: Vec<&str> = date.trim().split('-').collect();
        let number = |text: &str| text.parse::<i32>().ok();
        match (period.map(str::trim).unwrap_or("day"), parts.as_slice()) {
            ("day" | "", [year, month, day]) => {
                let first = days_since_epoch(
                    number(year)?,
                    u8::try_from(number(month)?).ok()?,
                    u8::try_from(number(day)?).ok()?,
                )?;
                Some(Self { start: beijing_day_start(first), end: beijing_day_start(first + 1) })
            }
            ("month", [year, month]) => {
                let (year, month) = (number(year)?, u8::try_from(number(month)?).ok()?);
                let first = days_since_epoch(year, month, 1)?;
                let next =
                    if month == 12 { days_since_epoch(year + 1, 1, 1)? } else { days_since_epoch(year, month + 1, 1)? };
                Some(Self { start: beijing_day_start(first), end: beijing_day_start(next) })
            }
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct OrderFigures {
    pub count: i64,
    pub amount_fen: i64,
}

/// Successful orders of the period whose numbers belong to one province (归属地).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProvinceFigures {
    /// GB/T 2260 code; null for numbers whose segment was not known when ordered.
    pub province_code: Option<u32>,
    /// The province's name (广东) and its English name; empty when not known.
    pub province: String,
    pub province_en: String,
    pub count: i64,
    pub amount_fen: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Movement {
    /// `balance` or `credit` (available credit).
    pub account_type: &'static str,
    /// order_debit, refund, topup, credit_granted, repayment, adjustment, reversal_refund.
    pub change_type: &'static str,
    pub count: i64,
    /// The signed sum of the entries' amounts, fen.
    pub amount_fen: i64,
}

/// One merchant's statement for one period.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Statement {
    pub merchant_id: i64,
    pub name: String,
    /// The period, RFC 3339 (start included, end excluded).
    pub period_start: String,
    pub period_end: String,
    pub opening_balance_fen: i64,
    pub closing_balance_fen: i64,
    pub opening_credit_available_fen: i64,
    pub closing_credit_available_fen: i64,
    /// Orders placed in the period, whatever their status now.
    pub orders_placed: OrderFigures,
    pub orders_succeeded: OrderFigures,
    pub orders_failed: OrderFigures,
    /// Pending, processing or in manual review.
    pub orders_in_flight: OrderFigures,
    /// The successful orders by the number's province, most money first (unknown last).
    pub succeeded_by_province: Vec<ProvinceFigures>,
    /// The period's account-log entries by account and kind.
    pub movements: Vec<Movement>,
    /// Sums of the period's entries of each account.
    pub balance_log_sum_fen: i64,
    pub credit_log_sum_fen: i64,
    /// Closing − opening equals the log's sum, for the balance and for the credit.
    pub reconciled: bool,
}

impl Statement {
    fn movement(&self, account: &str, change: &str) -> i64 {
        self.movements
            .iter()
            .filter(|movement| movement.account_type == account && movement.change_type == change)
            .map(|movement| movement.amount_fen)
            .sum()
    }
}

/// Province groups named, most money first, the numbers of no known province last.
fn by_province(groups: BTreeMap<Option<String>, OrderFigures>) -> Vec<ProvinceFigures> {
    use crate::i18n::provinces::{province_code, province_name};
    let mut figures: Vec<ProvinceFigures> = groups
        .into_iter()
        .map(|(stored, figures)| {
            let code = stored.as_deref().and_then(province_code);
            ProvinceFigures {
                province_code: code,
                province: stored.unwrap_or_default(),
                province_en: code.and_then(|code| province_name(code, Locale::EnUs)).unwrap_or_default().to_string(),
                count: figures.count,
                amount_fen: figures.amount_fen,
            }
        })
        .collect();
    figures.sort_by_key(|group| (group.province.is_empty(), -group.amount_fen, group.province_code));
    figures
}

fn name_of(table: &[(&'static str, i64)], code: i64) -> &'static str {
    table.iter().find(|(_, value)| *value == code).map_or("unknown", |(name, _)| name)
}

/// The figures right after the last entry before `at`: (balance, available credit).
async fn figures_before(pool: &AnyPool, merchant_id: i64, at: i64) -> Result<(i64, i64), sqlx::Error> {
    let row = sqlx::query(
        "SELECT balance_after_fen, credit_after_fen FROM account_log WHERE merchant_id = $1 AND created_at < $2
         ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(merchant_id)
    .bind(at)
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        Some(row) => (row.try_get(0)?, row.try_get(1)?),
        None => (0, 0),
    })
}

/// The statements of `scope` (one merchant, or every merchant by mid) for `period`.
pub async fn statements(pool: &AnyPool, scope: Option<i64>, period: Period) -> Result<Vec<Statement>, sqlx::Error> {
    let merchant_filter = if scope.is_some() { " AND merchant_id = $3" } else { "" };
    let merchants: Vec<(i64, String)> = match scope {
        Some(mid) => sqlx::query_as("SELECT id, name FROM merchants WHERE id = $1").bind(mid).fetch_all(pool).await?,
        None => sqlx::query_as("SELECT id, name FROM merchants ORDER BY id").fetch_all(pool).await?,
    };
    let movements_sql = format!(
        "SELECT merchant_id, account_type, change_type, COUNT(*), CAST(COALESCE(SUM(amount_fen), 0) AS BIGINT)
         FROM account_log WHERE created_at >= $1 AND created_at < $2{merchant_filter}
         GROUP BY merchant_id, account_type, change_type ORDER BY merchant_id, account_type, change_type"
    );
    let orders_sql = format!(
        "SELECT merchant_id, status, COUNT(*), CAST(COALESCE(SUM(price_fen), 0) AS BIGINT), province
         FROM orders WHERE created_at >= $1 AND created_at < $2{merchant_filter}
         GROUP BY merchant_id, status, province"
    );
    let bind = |sql: String| {
        let query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(period.start).bind(period.end);
        match scope {
            Some(mid) => query.bind(mid),
            None => query,
        }
    };
    let movement_rows = bind(movements_sql).fetch_all(pool).await?;
    let order_rows = bind(orders_sql).fetch_all(pool).await?;
    let mut movements: BTreeMap<i64, Vec<Movement>> = BTreeMap::new();
    for row in movement_rows {
        movements.entry(row.try_get(0)?).or_default().push(Movement {
            account_type: name_of(&ACCOUNT_TYPES, row.try_get(1)?),
            change_type: name_of(&CHANGE_TYPES, row.try_get(2)?),
            count: row.try_get(3)?,
            amount_fen: row.try_get(4)?,
        });
    }
    type OrderGroup = (i64, i64, i64, Option<String>);
    let mut orders: BTreeMap<i64, Vec<OrderGroup>> = BTreeMap::new();
    for row in order_rows {
        let group = (row.try_get(1)?, row.try_get(2)?, row.try_get(3)?, row.try_get(4)?);
        orders.entry(row.try_get(0)?).or_default().push(group);
    }
    let mut statements = Vec::with_capacity(merchants.len());
    for (merchant_id, name) in merchants {
        let (opening_balance, opening_credit) = figures_before(pool, merchant_id, period.start).await?;
        let (closing_balance, closing_credit) = figures_before(pool, merchant_id, period.end).await?;
        let moves = movements.remove(&merchant_id).unwrap_or_default();
        let sum_of =
            |account: &str| moves.iter().filter(|m| m.account_type == account).map(|m| m.amount_fen).sum::<i64>();
        let (balance_sum, credit_sum) = (sum_of("balance"), sum_of("credit"));
        let mut statement = Statement {
            merchant_id,
            name,
            period_start: crate::platform::db::millis_to_rfc3339(period.start),
            period_end: crate::platform::db::millis_to_rfc3339(period.end),
            opening_balance_fen: opening_balance,
            closing_balance_fen: closing_balance,
            opening_credit_available_fen: opening_credit,
            closing_credit_available_fen: closing_credit,
            orders_placed: OrderFigures::default(),
            orders_succeeded: OrderFigures::default(),
            orders_failed: OrderFigures::default(),
            orders_in_flight: OrderFigures::default(),
            succeeded_by_province: Vec::new(),
            movements: moves,
            balance_log_sum_fen: balance_sum,
            credit_log_sum_fen: credit_sum,
            reconciled: closing_balance - opening_balance == balance_sum
                && closing_credit - opening_credit == credit_sum,
        };
        let mut provinces: BTreeMap<Option<String>, OrderFigures> = BTreeMap::new();
        for (status, count, amount, province) in orders.remove(&merchant_id).unwrap_or_default() {
            if status == OrderStatus::Success.code() {
                let figures = provinces.entry(province).or_default();
                figures.count += count;
                figures.amount_fen += amount;
            }
            let bucket = match OrderStatus::from_code(status) {
                Some(OrderStatus::Success) => &mut statement.orders_succeeded,
                // A reversed success was refunded as a failure is (冲正).
                Some(OrderStatus::Failure | OrderStatus::Reversed) => &mut statement.orders_failed,
                _ => &mut statement.orders_in_flight,
            };
            bucket.count += count;
            bucket.amount_fen += amount;
            statement.orders_placed.count += count;
            statement.orders_placed.amount_fen += amount;
        }
        statement.succeeded_by_province = by_province(provinces);
        statements.push(statement);
    }
    Ok(statements)
}

fn checked(caller: &CurrentUser, request: &StatementRequest) -> Result<(Option<i64>, Period), AppError> {
    let scope = caller.scope(request.merchant_id)?;
    // What the document's patterns say is 400; they admit a day or a month, so which one
    // goes with the period, and whether it exists, is a rule beyond them (422).
    if !matches!(request.period.as_deref().map(str::trim).unwrap_or(""), "" | "day" | "month") {
        return Err(AppError::field("period", TradeMessage::InvalidChoice { allowed: "day, month" }));
    }
    if !is_day_shaped(&request.date) && !is_month_shaped(&request.date) {
        return Err(AppError::field("date", TradeMessage::StatementPeriodInvalid));
    }
    let period = Period::parse(request.period.as_deref(), &request.date)
        .ok_or_else(|| AppError::unprocessable("date", TradeMessage::StatementPeriodInvalid))?;
    Ok((scope, period))
}

/// The statements of a day or month: a merchant's own; an administrator's choice of
/// merchant, or every merchant.
#[utoipa::path(post, path = "/adminapi/finance/statement", tag = "finance", request_body = StatementRequest,
    responses((status = 200, description = "`data` is a list of Statement (one per merchant, by mid)", body = [Statement]),
        (status = 400, description = "40000: the period or date is not of the documented form"),
        (status = 403, description = "40300: another merchant's mid"),
        (status = 404, description = "40400: no such merchant"),
        (status = 422, description = "40000: the date is not of the period's shape, or no such day or month")),
    security(("token" = [])))]
pub async fn statement(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<StatementRequest>,
) -> ApiResult<Vec<Statement>> {
    let (scope, period) = checked(&caller, &request)?;
    if let Some(mid) = scope
        && !crate::money::finance::merchant_exists(&state.db.pool, mid).await?
    {
        return Err(AppError::NotFound);
    }
    Ok(ApiOk(statements(&state.db.pool, scope, period).await?))
}

fn export_row(statement: &Statement, period: &str, locale: Locale) -> Vec<Cell> {
    let reconciled = crate::i18n::files::YES_NO.get(locale)[usize::from(!statement.reconciled)];
    vec![
        Cell::Int(statement.merchant_id),
        Cell::text(&statement.name),
        Cell::text(period),
        Cell::Money(statement.opening_balance_fen),
        Cell::Int(statement.orders_placed.count),
        Cell::Money(statement.orders_placed.amount_fen),
        Cell::Int(statement.orders_succeeded.count),
        Cell::Money(statement.orders_succeeded.amount_fen),
        Cell::Int(statement.orders_failed.count),
        Cell::Money(statement.orders_failed.amount_fen),
        Cell::Int(statement.orders_in_flight.count),
        Cell::Money(statement.movement("balance", "order_debit")),
        Cell::Money(statement.movement("balance", "refund") + statement.movement("balance", "reversal_refund")),
        Cell::Money(statement.movement("balance", "topup")),
        Cell::Money(statement.movement("balance", "adjustment")),
        Cell::Money(statement.closing_balance_fen),
        Cell::Money(statement.opening_credit_available_fen),
        Cell::Money(
            statement.movement("credit", "order_debit")
                + statement.movement("credit", "refund")
                + statement.movement("credit", "reversal_refund"),
        ),
        Cell::Money(statement.movement("credit", "credit_granted")),
        Cell::Money(statement.movement("credit", "repayment")),
        Cell::Money(statement.closing_credit_available_fen),
        Cell::text(reconciled),
        Cell::text(province_summary(&statement.succeeded_by_province, locale)),
    ]
}

/// "广东 3/29.55；北京 1/9.85" (or in English), every province of the row.
fn province_summary(groups: &[ProvinceFigures], locale: Locale) -> String {
    let unknown = crate::i18n::files::PROVINCE_UNKNOWN.get(locale)[0];
    let separator = if locale == Locale::ZhCn { "；" } else { "; " };
    let named = groups.iter().map(|group| {
        let name = match locale {
            Locale::ZhCn => group.province.as_str(),
            Locale::EnUs => group.province_en.as_str(),
        };
        let name = if name.is_empty() { unknown } else { name };
        format!("{name} {}/{}", group.count, crate::domain::yuan(group.amount_fen))
    });
    named.collect::<Vec<_>>().join(separator)
}

/// Download statements as CSV or xlsx: the same choices as the JSON call, one row per merchant.
#[utoipa::path(get, path = "/adminapi/finance/statement/export", tag = "finance", params(StatementRequest, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: the period, date, format or sort is not of the documented form"),
        (status = 403, description = "40300: another merchant's mid"),
        (status = 422, description = "40000: the date is not of the period's shape, or no such day or month")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(request): QueryParams<StatementRequest>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let (scope, period) = checked(&caller, &request)?;
    let format = params.format()?;
    let date = request.date.trim().to_string();
    let statements = statements(&state.db.pool, scope, period).await?;
    let rows: Vec<Vec<Cell>> = statements.iter().map(|statement| export_row(statement, &date, locale)).collect();
    let mut rows = Some(rows);
    let fetcher: PageFetcher = Box::new(move |_cursor| {
        let page = rows.take().unwrap_or_default();
        Box::pin(async move { Ok((page, None)) })
    });
    let header_row = titles(&crate::i18n::files::STATEMENT_COLUMNS.get(locale));
    let name = format!("statement-{date}");
    respond(format, &name, header_row, fetcher).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_are_beijing_days_and_months() {
        let day = Period::parse(None, "2026-11-24").unwrap();
        assert_eq!(day.end - day.start, 86_400_000);
        // 2026-11-24 00:00 in Beijing is 2026-11-23 16:00 UTC.
        assert_eq!(day.start, time::macros::datetime!(2026-11-23 16:00 UTC).unix_timestamp() * 1000);
        let february = Period::parse(Some("month"), "2028-02").unwrap();
        assert_eq!(february.end - february.start, 29 * 86_400_000, "a leap year");
        let december = Period::parse(Some("month"), "2026-12").unwrap();
        assert_eq!(december.end, Period::parse(None, "2027-01-01").unwrap().start);
        for (period, date) in [
            (None, "2026-02-30"),
            (None, "2026-11"),
            (Some("month"), "2026-13"),
            (Some("week"), "2026-11-24"),
            (None, "x"),
        ] {
            assert_eq!(Period::parse(period, date), None, "{period:?} {date}");
        }
    }
}
