//! The account-change records (账变记录): list with the list's filters, export.

use super::ledger::{ACCOUNT_TYPES, CHANGE_TYPES};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, EXPORT_PAGE_SIZE, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::pagination::{
    BY_TIME, PageRequest, Paging, capped_count, decode_cursor, finish_page, newest_first, parse_time,
};
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::CurrentUser;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use utoipa::{IntoParams, ToSchema};

/// One account change.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AccountRecord {
    pub id: i64,
    pub merchant_id: i64,
    /// `balance` or `credit` (available credit)
    pub account_type: &'static str,
    /// order_debit, refund, topup, credit_granted, repayment, adjustment, reversal_refund
    pub change_type: &'static str,
    /// The signed change of that account, fen
    pub amount_fen: i64,
    pub balance_before_fen: i64,
    pub balance_after_fen: i64,
    /// Available credit (limit minus credit in use) before and after
    pub credit_before_fen: i64,
    pub credit_after_fen: i64,
    pub order_id: Option<i64>,
    pub order_no: Option<String>,
    /// Who did it: a user id, or null for the system
    pub actor_id: Option<i64>,
    pub actor_name: String,
    pub remark: String,
    pub created_at: String,
    #[serde(skip)]
    pub created_millis: i64,
}

const COLUMNS: &str = "id, merchant_id, account_type, change_type, amount_fen, balance_before_fen, balance_after_fen, \
    credit_before_fen, credit_after_fen, order_id, order_no, actor_id, actor_name, remark, created_at";

fn name_of(table: &[(&'static str, i64)], code: i64) -> &'static str {
    table.iter().find(|(_, value)| *value == code).map_or("unknown", |(name, _)| name)
}

fn record(row: &sqlx::any::AnyRow) -> Result<AccountRecord, sqlx::Error> {
    let created: i64 = row.try_get(14)?;
    Ok(AccountRecord {
        id: row.try_get(0)?,
        merchant_id: row.try_get(1)?,
        account_type: name_of(&ACCOUNT_TYPES, row.try_get(2)?),
        change_type: name_of(&CHANGE_TYPES, row.try_get(3)?),
        amount_fen: row.try_get(4)?,
        balance_before_fen: row.try_get(5)?,
        balance_after_fen: row.try_get(6)?,
        credit_before_fen: row.try_get(7)?,
        credit_after_fen: row.try_get(8)?,
        order_id: row.try_get(9)?,
        order_no: row.try_get(10)?,
        actor_id: row.try_get(11)?,
        actor_name: row.try_get(12)?,
        remark: row.try_get(13)?,
        created_at: millis_to_rfc3339(created),
        created_millis: created,
    })
}

/// An order's records, found through the order-number index: account records have no index
/// on the order id (one more index on every placement's write), and without one the order
/// detail read the whole log (a third of a second at a million records).
const OF_ORDER: &str = "order_no = (SELECT o.order_no FROM orders o WHERE o.id = ?) AND order_id = ?";

/// The conditions that find an order's records ([`OF_ORDER`]).
pub fn of_order(order_id: i64) -> Conditions {
    let mut conditions = Conditions::default();
    conditions.push(OF_ORDER, vec![Bind::Int(order_id), Bind::Int(order_id)]);
    conditions
}

pub async fn records_for_order(pool: &AnyPool, order_id: i64) -> Result<Vec<AccountRecord>, sqlx::Error> {
    let conditions = of_order(order_id);
    let sql = format!("SELECT {COLUMNS} FROM account_log{} ORDER BY id", conditions.where_clause());
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(pool).await?;
    rows.iter().map(record).collect()
}

#[derive(Debug, Default, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogFilter {
    /// Administrators: one merchant (omit for all). Merchants: omit, or their own mid.
    pub merchant_id: Option<i64>,
    /// 账户类型: `balance` or `credit`.
    #[schema(pattern = r"^\s*(balance|credit)?\s*$")]
    #[param(pattern = r"^\s*(balance|credit)?\s*$")]
    pub account_type: Option<String>,
    /// 账变类型: order_debit, refund, topup, credit_granted, repayment, adjustment, reversal_refund.
    #[schema(pattern = r"^\s*(order_debit|refund|topup|credit_granted|repayment|adjustment|reversal_refund)?\s*$")]
    #[param(pattern = r"^\s*(order_debit|refund|topup|credit_granted|repayment|adjustment|reversal_refund)?\s*$")]
    pub change_type: Option<String>,
    /// The order number the change belongs to.
    pub order_no: Option<String>,
    /// The order id the change belongs to.
    pub order_id: Option<i64>,
    /// At or after (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub start_time: Option<String>,
    /// Before (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub end_time: Option<String>,
}

fn code_of(
    table: &[(&'static str, i64)],
    text: Option<&str>,
    field: &str,
    allowed: &'static str,
) -> Result<Option<i64>, AppError> {
    match text.map(str::trim).filter(|text| !text.is_empty()) {
        None => Ok(None),
        Some(text) => table
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, code)| Some(*code))
            .ok_or_else(|| AppError::field(field, TradeMessage::InvalidChoice { allowed })),
    }
}

impl LogFilter {
    fn conditions(&self, caller: &CurrentUser) -> Result<Conditions, AppError> {
        let mut conditions = Conditions::default();
        let account_type = code_of(&ACCOUNT_TYPES, self.account_type.as_deref(), "account_type", "balance, credit")?;
        let change_type = code_of(
            &CHANGE_TYPES,
            self.change_type.as_deref(),
            "change_type",
            "order_debit, refund, topup, credit_granted, repayment, adjustment, reversal_refund",
        )?;
        let from = parse_time("start_time", self.start_time.as_deref())?;
        let to = parse_time("end_time", self.end_time.as_deref())?;
        let integers = [
            ("merchant_id = ?", caller.scope(self.merchant_id)?),
            ("account_type = ?", account_type),
            ("change_type = ?", change_type),
            ("created_at >= ?", from),
            ("created_at < ?", to),
        ];
        for (template, value) in integers {
            if let Some(value) = value {
                conditions.push(template, vec![Bind::Int(value)]);
            }
        }
        if let Some(order_no) = self.order_no.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            conditions.push("order_no = ?", vec![Bind::Text(order_no.to_string())]);
        }
        if let Some(order_id) = self.order_id {
            conditions.push(OF_ORDER, vec![Bind::Int(order_id), Bind::Int(order_id)]);
        }
        Ok(conditions)
    }
}

async fn fetch(
    pool: &AnyPool,
    conditions: Conditions,
    page: PageRequest,
) -> Result<(Vec<AccountRecord>, Option<String>), sqlx::Error> {
    let (sql, binds) = newest_first(&format!("SELECT {COLUMNS} FROM account_log"), &BY_TIME, conditions, &page);
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await?;
    let records = rows.iter().map(record).collect::<Result<Vec<_>, _>>()?;
    Ok(finish_page(records, page.page_size, |last| (last.created_millis, last.id)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LogListRequest {
    #[serde(flatten)]
    pub filter: LogFilter,
    #[serde(flatten)]
    pub paging: Paging,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LogListResponse {
    pub list: Vec<AccountRecord>,
    pub total: i64,
    /// true: more than `total` (100,000) match.
    pub total_capped: bool,
    pub next_cursor: Option<String>,
    pub page_size: i64,
}

/// Account-change records, newest first.
#[utoipa::path(post, path = "/adminapi/finance/account/list", tag = "finance", request_body = LogListRequest,
    responses((status = 200, description = "`data` is a LogListResponse", body = LogListResponse), (status = 403, description = "40300: another merchant's mid"),
        (status = 422, description = "40000: `cursor` is not one this list gave")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<LogListRequest>,
) -> ApiResult<LogListResponse> {
    let conditions = request.filter.conditions(&caller)?;
    let page = request.paging.checked(None)?;
    let counting = capped_count(&state.db.pool, "account_log", conditions.clone());
    let (page_rows, (total, total_capped)) = tokio::try_join!(fetch(&state.db.pool, conditions, page), counting)?;
    Ok(ApiOk(LogListResponse {
        list: page_rows.0,
        total,
        total_capped,
        next_cursor: page_rows.1,
        page_size: page.page_size,
    }))
}

/// A record as a file's row, its types in the reader's words (the list API keeps the codes).
fn export_row(record: &AccountRecord, locale: Locale) -> Vec<Cell> {
    use crate::i18n::files::{ACCOUNT_TYPES, CHANGE_TYPES, code_label};
    vec![
        Cell::Int(record.id),
        Cell::Int(record.merchant_id),
        Cell::text(code_label(&ACCOUNT_TYPES, record.account_type, locale)),
        Cell::text(code_label(&CHANGE_TYPES, record.change_type, locale)),
        Cell::Money(record.amount_fen),
        Cell::Money(record.balance_before_fen),
        Cell::Money(record.balance_after_fen),
        Cell::Money(record.credit_before_fen),
        Cell::Money(record.credit_after_fen),
        Cell::id(record.order_no.clone().unwrap_or_default()),
        Cell::text(&record.actor_name),
        Cell::text(&record.remark),
        Cell::Time(record.created_millis),
    ]
}

fn header_row(locale: Locale) -> Vec<Cell> {
    titles(&crate::i18n::files::ACCOUNT_LOG_COLUMNS.get(locale))
}

/// Export the account-change records matching the filters (query parameters as the
/// list's body fields). CSV is streamed; xlsx holds at most 200,000 rows.
#[utoipa::path(get, path = "/adminapi/finance/account/export", tag = "finance", params(LogFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")))), security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(filter): QueryParams<LogFilter>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let conditions = filter.conditions(&caller)?;
    let format = params.format()?;
    let pool = state.db.pool.clone();
    let fetcher: PageFetcher = Box::new(move |cursor| {
        let (pool, conditions) = (pool.clone(), conditions.clone());
        Box::pin(async move {
            let cursor = cursor.as_deref().and_then(decode_cursor);
            let (records, next) = fetch(
                &pool,
                conditions,
                PageRequest { descending: true, cursor, page: None, page_size: EXPORT_PAGE_SIZE },
            )
            .await?;
            Ok((records.iter().map(|record| export_row(record, locale)).collect(), next))
        })
    });
    respond(format, "account-records", header_row(locale), fetcher).await
}
