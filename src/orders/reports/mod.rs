//! Reports (issue 52 §3), read from the report roll-up (`query.rs`), never from orders:
//! administrators' profit report (day or month × merchant × channel × carrier × province ×
//! product: orders, face value, sales, cost, profit, success ratio) and merchants' sales
//! report (day or month × product, with the orders by status, face value and spend), each
//! as JSON and as a CSV or xlsx file. A merchant's report never shows cost or channels.

pub mod export;
pub mod query;

use crate::domain::Carrier;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::{AdminUser, CurrentUser};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{
    Router,
    routing::{get, post},
};
use query::{Dimension, Report, ReportQuery, ReportRow};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The longest range a report covers, in days (a leap year).
pub const MAX_DAYS: i64 = 366;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/report/profit", post(profit))
        .route("/adminapi/admin/report/profit/export", get(export::profit_export))
        .route("/adminapi/report/sales", post(sales))
        .route("/adminapi/report/sales/export", get(export::sales_export))
}

#[derive(Debug, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProfitRequest {
    /// The first Beijing day, `YYYY-MM-DD`.
    #[schema(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    #[param(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    pub start: String,
    /// The last Beijing day (included), `YYYY-MM-DD`: at most 366 days from `start`.
    #[schema(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    #[param(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    pub end: String,
    /// `day` (default) or `month`.
    #[schema(pattern = r"^\s*(day|month)?\s*$")]
    #[param(pattern = r"^\s*(day|month)?\s*$")]
    pub grain: Option<String>,
    /// What to break the rows down by besides the period, comma-separated, any of
    /// `merchant`, `channel`, `carrier`, `province`, `product` (omit: one row per period).
    #[schema(
        pattern = r"^\s*((merchant|channel|carrier|province|product)\s*(,\s*(merchant|channel|carrier|province|product)\s*)*)?$"
    )]
    #[param(
        pattern = r"^\s*((merchant|channel|carrier|province|product)\s*(,\s*(merchant|channel|carrier|province|product)\s*)*)?$"
    )]
    pub group_by: Option<String>,
    pub merchant_id: Option<i64>,
    /// The channel that fulfilled the orders; 0: orders no channel fulfilled.
    pub channel_id: Option<i64>,
    /// `mobile`, `unicom` or `telecom`.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    #[param(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    pub carrier: Option<String>,
    /// 归属地: the GB/T 2260 code of the number's province (440000 Guangdong).
    #[schema(schema_with = crate::http::openapi_contract::optional_province)]
    #[param(schema_with = crate::http::openapi_contract::optional_province)]
    pub province: Option<u32>,
    pub product_id: Option<i64>,
}

#[derive(Debug, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SalesRequest {
    /// Merchants: omit (or their own mid). Administrators: one merchant, or omit for all.
    pub merchant_id: Option<i64>,
    /// The first Beijing day, `YYYY-MM-DD`.
    #[schema(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    #[param(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    pub start: String,
    /// The last Beijing day (included), `YYYY-MM-DD`: at most 366 days from `start`.
    #[schema(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    #[param(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    pub end: String,
    /// `day` (default) or `month`.
    #[schema(pattern = r"^\s*(day|month)?\s*$")]
    #[param(pattern = r"^\s*(day|month)?\s*$")]
    pub grain: Option<String>,
    /// `product`: a row per period and product; omit: one row per period.
    #[schema(pattern = r"^\s*(product)?\s*$")]
    #[param(pattern = r"^\s*(product)?\s*$")]
    pub group_by: Option<String>,
    /// `mobile`, `unicom` or `telecom`.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    #[param(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    pub carrier: Option<String>,
    pub product_id: Option<i64>,
}

/// A row of a merchant's sales report: the period (and product), its orders by status,
/// and the face value and spend of the successful ones.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SalesRow {
    /// The day `YYYY-MM-DD`, or the month `YYYY-MM`; "" in the totals.
    pub period: String,
    pub product_id: Option<i64>,
    pub product_key: Option<String>,
    pub product_name: Option<String>,
    pub orders: i64,
    pub successes: i64,
    pub failures: i64,
    /// Successes reversed afterwards (冲正), refunded.
    pub reversals: i64,
    /// Pending, processing or in manual review.
    pub in_flight: i64,
    /// successes / (successes + failures + reversals); null when none finished.
    pub success_ratio: Option<f64>,
    pub face_value_fen: i64,
    /// What the merchant paid for its successful orders (failed and reversed ones were refunded).
    pub spend_fen: i64,
}

impl From<ReportRow> for SalesRow {
    fn from(row: ReportRow) -> Self {
        SalesRow {
            period: row.period,
            product_id: row.product_id,
            product_key: row.product_key,
            product_name: row.product_name,
            orders: row.orders,
            successes: row.successes,
            failures: row.failures,
            reversals: row.reversals,
            in_flight: row.in_flight,
            success_ratio: row.success_ratio,
            face_value_fen: row.face_value_fen,
            spend_fen: row.sales_fen,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SalesReport {
    pub rows: Vec<SalesRow>,
    pub totals: SalesRow,
    /// More rows matched than the report holds (10,000).
    pub truncated: bool,
}

impl From<Report> for SalesReport {
    fn from(report: Report) -> Self {
        SalesReport {
            rows: report.rows.into_iter().map(SalesRow::from).collect(),
            totals: report.totals.into(),
            truncated: report.truncated,
        }
    }
}

/// A day named `YYYY-MM-DD`, as days since 1970-01-01: 400 when not of that shape (the
/// document's pattern), 422 when no such day.
fn parse_day(field: &str, text: &str) -> Result<i64, AppError> {
    if !crate::money::statements::is_day_shaped(text) {
        return Err(AppError::field(field, TradeMessage::TimeInvalid));
    }
    let text = text.trim();
    let number = |range: std::ops::Range<usize>| text[range].parse::<u8>().ok();
    let date = time::Month::try_from(number(5..7).unwrap_or(0))
        .ok()
        .and_then(|month| time::Date::from_calendar_date(text[..4].parse().ok()?, month, number(8..10)?).ok());
    let date = date.ok_or_else(|| AppError::unprocessable(field, TradeMessage::TimeInvalid))?;
    Ok(i64::from(date.to_julian_day()) - 2_440_588)
}

/// The range, grain and breakdown every report takes.
fn parse_common(
    (start, end): (&str, &str),
    grain: Option<&str>,
    group_by: Option<&str>,
    allowed: &[Dimension],
) -> Result<ReportQuery, AppError> {
    let (first_day, last_day) = (parse_day("start", start)?, parse_day("end", end)?);
    if last_day < first_day || last_day - first_day + 1 > MAX_DAYS {
        return Err(AppError::unprocessable("end", TradeMessage::ReportRangeInvalid { max_days: MAX_DAYS }));
    }
    let month = match grain.map(str::trim).unwrap_or("") {
        "" | "day" => false,
        "month" => true,
        _ => return Err(AppError::field("grain", TradeMessage::InvalidChoice { allowed: "day, month" })),
    };
    let mut dimensions = Vec::new();
    for name in group_by.unwrap_or("").split(',').map(str::trim).filter(|name| !name.is_empty()) {
        match Dimension::parse(name).filter(|dimension| allowed.contains(dimension)) {
            Some(dimension) => dimensions.push(dimension),
            None => {
                let allowed = if allowed.len() == 1 { "product" } else { Dimension::NAMES };
                return Err(AppError::field("group_by", TradeMessage::InvalidChoice { allowed }));
            }
        }
    }
    dimensions.sort();
    dimensions.dedup();
    Ok(ReportQuery { first_day, last_day, month, group_by: dimensions, ..ReportQuery::default() })
}

fn parse_carrier(text: Option<&str>) -> Result<Option<i64>, AppError> {
    match text.map(str::trim).filter(|text| !text.is_empty()) {
        None => Ok(None),
        Some(text) => Carrier::parse(text)
            .filter(|carrier| *carrier != Carrier::Broadnet)
            .map(|carrier| Some(carrier.code()))
            .ok_or_else(|| {
                AppError::field("carrier", TradeMessage::InvalidChoice { allowed: "mobile, unicom, telecom" })
            }),
    }
}

impl ProfitRequest {
    fn parse(&self) -> Result<ReportQuery, AppError> {
        let mut query =
            parse_common((&self.start, &self.end), self.grain.as_deref(), self.group_by.as_deref(), &Dimension::ALL)?;
        query.merchant_id = self.merchant_id;
        query.channel_id = self.channel_id;
        query.carrier = parse_carrier(self.carrier.as_deref())?;
        query.province = match self.province {
            Some(code) => Some(
                crate::i18n::provinces::province_name(code, Locale::ZhCn)
                    .ok_or_else(|| AppError::field("province", TradeMessage::ProvinceInvalid))?
                    .to_string(),
            ),
            None => None,
        };
        query.product_id = self.product_id;
        Ok(query)
    }
}

impl SalesRequest {
    fn parse(&self, caller: &CurrentUser) -> Result<ReportQuery, AppError> {
        let scope = caller.scope(self.merchant_id)?;
        let mut query = parse_common(
            (&self.start, &self.end),
            self.grain.as_deref(),
            self.group_by.as_deref(),
            &[Dimension::Product],
        )?;
        query.merchant_id = scope;
        query.carrier = parse_carrier(self.carrier.as_deref())?;
        query.product_id = self.product_id;
        Ok(query)
    }
}

/// The profit report: every merchant's orders of a range of Beijing days by day or month
/// and the dimensions asked, with face value, sales, cost and profit of the successes.
#[utoipa::path(post, path = "/adminapi/admin/report/profit", tag = "reports", request_body = ProfitRequest,
    responses((status = 200, description = "`data` is the Report", body = Report),
        (status = 400, description = "40000: a field is not of the documented form"),
        (status = 403, description = "40300: not an administrator"),
        (status = 422, description = "40000: no such day, `end` before `start`, or more than 366 days")),
    security(("token" = [])))]
pub async fn profit(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<ProfitRequest>,
) -> ApiResult<Report> {
    let query = request.parse()?;
    Ok(ApiOk(query::report(&state.db.pool, &query).await?))
}

/// A merchant's sales report: its orders of a range of Beijing days by day or month (and
/// product), by status, with the face value and spend of the successes. Administrators
/// may name a merchant, or omit it for every merchant.
#[utoipa::path(post, path = "/adminapi/report/sales", tag = "reports", request_body = SalesRequest,
    responses((status = 200, description = "`data` is the SalesReport", body = SalesReport),
        (status = 400, description = "40000: a field is not of the documented form"),
        (status = 403, description = "40300: another merchant's mid, or a role without reports"),
        (status = 422, description = "40000: no such day, `end` before `start`, or more than 366 days")),
    security(("token" = [])))]
pub async fn sales(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<SalesRequest>,
) -> ApiResult<SalesReport> {
    let query = request.parse(&caller)?;
    Ok(ApiOk(query::report(&state.db.pool, &query).await?.into()))
}
