//! Products and quotes: `/adminapi/product/list`, `/adminapi/quote/list` and export
//! (the quote columns of the console spec). Administrators' catalogue (`catalogue.rs`),
//! one quote's edit (`edit.rs`), bulk rules (`pricing.rs`) with their margin checks
//! (`margin.rs`), import (`import.rs`) and the price history (`history.rs`) live beside it.

pub mod catalogue;
pub mod edit;
pub mod history;
pub mod import;
pub mod margin;
pub mod pricing;

use crate::domain::{Carrier, ProductKind, Scope, Speed};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::pagination::PageNumber;
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::CurrentUser;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::sql::{Bind, Conditions, bind_all};
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
use utoipa::{IntoParams, ToSchema};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/product/list", post(products))
        .route("/adminapi/quote/list", post(list))
        .route("/adminapi/quote/export", get(export))
        .route("/adminapi/admin/quote/save", post(edit::save))
        .merge(catalogue::router())
        .merge(pricing::router())
        .merge(history::router())
}

/// Routes that take files, with their own body limit (see `app/startup.rs`).
pub fn upload_router() -> Router<AppState> {
    import::upload_router()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Product {
    pub id: i64,
    pub product_key: String,
    pub name: String,
    pub business_name: String,
    pub carrier: Carrier,
    pub product_kind: ProductKind,
    pub face_value_fen: i64,
    /// 1 on, 0 off (an off product takes no orders).
    pub status: i64,
    pub speed: Speed,
    /// GB/T 2260 codes of the provinces the product is sold in; empty: national.
    pub provinces: Vec<u32>,
}

/// Every product (the catalogue the quotes refer to).
#[utoipa::path(post, path = "/adminapi/product/list", tag = "quote",
    responses((status = 200, description = "`data` is a list of Product", body = [Product])), security(("token" = [])))]
pub async fn products(State(state): State<AppState>, _caller: CurrentUser) -> ApiResult<Vec<Product>> {
    let rows = sqlx::query(
        "SELECT id, product_key, name, business_name, carrier, product_kind, face_value_fen, status, speed, provinces
         FROM products ORDER BY carrier, product_kind, face_value_fen, speed",
    )
    .fetch_all(&state.db.pool)
    .await?;
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        list.push(Product {
            id: row.try_get(0)?,
            product_key: row.try_get(1)?,
            name: row.try_get(2)?,
            business_name: row.try_get(3)?,
            carrier: Carrier::from_code(row.try_get(4)?).unwrap_or(Carrier::Mobile),
            product_kind: ProductKind::from_code(row.try_get(5)?).unwrap_or(ProductKind::Direct),
            face_value_fen: row.try_get(6)?,
            status: row.try_get(7)?,
            speed: Speed::from_code(row.try_get(8)?).unwrap_or_default(),
            provinces: Scope::from_stored(&row.try_get::<String, _>(9)?).unwrap_or_default().provinces().to_vec(),
        });
    }
    Ok(ApiOk(list))
}

#[derive(Debug, Default, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QuoteFilter {
    /// Administrators: one merchant (omit for all). Merchants: omit, or their own mid.
    #[schema(minimum = 1)]
    #[param(minimum = 1)]
    pub merchant_id: Option<i64>,
    /// `mobile`, `unicom` or `telecom`.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom|broadnet)?\s*$")]
    #[param(pattern = r"^\s*(mobile|unicom|telecom|broadnet)?\s*$")]
    pub carrier: Option<String>,
    pub face_value_fen: Option<i64>,
    /// `direct` (话费直充) or `card` (话费卡密).
    #[schema(pattern = r"^\s*(direct|card)?\s*$")]
    #[param(pattern = r"^\s*(direct|card)?\s*$")]
    pub product_kind: Option<String>,
    /// 1 on, 0 off.
    #[schema(minimum = 0, maximum = 1)]
    #[param(minimum = 0, maximum = 1)]
    pub status: Option<i64>,
    /// Exact product key.
    pub product_key: Option<String>,
}

impl QuoteFilter {
    fn conditions(&self, caller: &CurrentUser) -> Result<Conditions, AppError> {
        let invalid = |field: &str, allowed| AppError::field(field, TradeMessage::InvalidChoice { allowed });
        let carrier = match self.carrier.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            Some(text) => {
                Some(Carrier::parse(text).ok_or_else(|| invalid("carrier", "mobile, unicom, telecom"))?.code())
            }
            None => None,
        };
        let kind = match self.product_kind.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            Some(text) => Some(ProductKind::parse(text).ok_or_else(|| invalid("product_kind", "direct, card"))?.code()),
            None => None,
        };
        if self.status.is_some_and(|status| status != 0 && status != 1) {
            return Err(invalid("status", "0, 1"));
        }
        // A mid is a whole number from 1: 0 or -5 names no merchant, and answering an
        // empty list would read as "this merchant has no quotes".
        if self.merchant_id.is_some_and(|mid| mid < 1) {
            return Err(AppError::field("merchant_id", crate::i18n::Message::MerchantIdInvalid));
        }
        let mut conditions = Conditions::default();
        let integers = [
            ("q.merchant_id = ?", caller.scope(self.merchant_id)?),
            ("p.carrier = ?", carrier),
            ("p.face_value_fen = ?", self.face_value_fen),
            ("p.product_kind = ?", kind),
            ("q.status = ?", self.status),
        ];
        for (template, value) in integers {
            if let Some(value) = value {
                conditions.push(template, vec![Bind::Int(value)]);
            }
        }
        if let Some(key) =
            self.product_key.as_deref().map(crate::domain::product_key_input).filter(|key| !key.is_empty())
        {
            conditions.push("p.product_key = ?", vec![Bind::Text(key)]);
        }
        Ok(conditions)
    }
}

/// A quote row: the columns the quote list shows.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteItem {
    pub id: i64,
    pub merchant_id: i64,
    /// The merchant's name (administrators tell merchants' rows apart by it).
    pub merchant_name: String,
    /// 业务名称
    pub business_name: String,
    /// 商品名称
    pub product_name: String,
    /// 商品编号
    pub product_key: String,
    pub carrier: Carrier,
    pub product_kind: ProductKind,
    /// 供货价, fen (the console shows yuan)
    pub price_fen: i64,
    /// 面值, fen
    pub face_value_fen: i64,
    /// 1 on, 0 off
    pub status: i64,
    pub created_at: String,
    #[serde(skip)]
    pub(crate) created_millis: i64,
}

pub(crate) async fn fetch(
    pool: &AnyPool,
    conditions: Conditions,
    offset: i64,
    limit: i64,
) -> Result<Vec<QuoteItem>, sqlx::Error> {
    let sql = format!(
        "SELECT q.id, q.merchant_id, p.business_name, p.name, p.product_key, p.carrier, p.product_kind, q.price_fen,
                p.face_value_fen, q.status, q.created_at, m.name
         FROM quotes q JOIN products p ON p.id = q.product_id JOIN merchants m ON m.id = q.merchant_id{}
         ORDER BY q.merchant_id, p.carrier, p.product_kind, p.face_value_fen, q.id LIMIT {limit} OFFSET {offset}",
        conditions.where_clause()
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(pool).await?;
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        let created: i64 = row.try_get(10)?;
        list.push(QuoteItem {
            id: row.try_get(0)?,
            merchant_id: row.try_get(1)?,
            merchant_name: row.try_get(11)?,
            business_name: row.try_get(2)?,
            product_name: row.try_get(3)?,
            product_key: row.try_get(4)?,
            carrier: Carrier::from_code(row.try_get(5)?).unwrap_or(Carrier::Mobile),
            product_kind: ProductKind::from_code(row.try_get(6)?).unwrap_or(ProductKind::Direct),
            price_fen: row.try_get(7)?,
            face_value_fen: row.try_get(8)?,
            status: row.try_get(9)?,
            created_at: millis_to_rfc3339(created),
            created_millis: created,
        });
    }
    Ok(list)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuoteListRequest {
    #[serde(flatten)]
    pub filter: QuoteFilter,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteListResponse {
    pub list: Vec<QuoteItem>,
    pub total: i64,
}

/// The quote list: what each product costs the merchant. Merchants see only their own.
#[utoipa::path(post, path = "/adminapi/quote/list", tag = "quote", request_body = QuoteListRequest,
    responses((status = 200, description = "`data` is a QuoteListResponse", body = QuoteListResponse), (status = 403, description = "40300: another merchant's mid")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<QuoteListRequest>,
) -> ApiResult<QuoteListResponse> {
    let conditions = request.filter.conditions(&caller)?;
    let page = request.paging.checked()?;
    let count_sql =
        format!("SELECT COUNT(*) FROM quotes q JOIN products p ON p.id = q.product_id{}", conditions.where_clause());
    let total: i64 = bind_all(sqlx::query(sqlx::AssertSqlSafe(count_sql)), conditions.binds.clone())
        .fetch_one(&state.db.pool)
        .await?
        .try_get(0)?;
    let list = fetch(&state.db.pool, conditions, page.offset(), page.page_size).await?;
    Ok(ApiOk(QuoteListResponse { list, total }))
}

/// Export the quotes matching the filters (query parameters as the list's body fields).
#[utoipa::path(get, path = "/adminapi/quote/export", tag = "quote", params(QuoteFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")))), security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(filter): QueryParams<QuoteFilter>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let conditions = filter.conditions(&caller)?;
    let format = params.format()?;
    let header = crate::i18n::files::QUOTE_EXPORT_COLUMNS.get(locale);
    let pool = state.db.pool.clone();
    const PAGE: i64 = 2_000;
    let fetcher: PageFetcher = Box::new(move |cursor| {
        let (pool, conditions) = (pool.clone(), conditions.clone());
        Box::pin(async move {
            let offset: i64 = cursor.as_deref().and_then(|text| text.parse().ok()).unwrap_or(0);
            let quotes = fetch(&pool, conditions, offset, PAGE).await?;
            let next = (quotes.len() as i64 == PAGE).then(|| (offset + PAGE).to_string());
            let status = |on: bool| crate::i18n::files::QUOTE_STATUS.get(locale)[usize::from(!on)];
            let rows = quotes
                .iter()
                .map(|quote| {
                    vec![
                        Cell::Int(quote.merchant_id),
                        Cell::text(&quote.business_name),
                        Cell::text(&quote.product_name),
                        Cell::text(&quote.product_key),
                        Cell::Money(quote.price_fen),
                        Cell::Money(quote.face_value_fen),
                        Cell::text(status(quote.status == 1)),
                        Cell::Time(quote.created_millis),
                    ]
                })
                .collect();
            Ok((rows, next))
        })
    });
    respond(format, "quotes", titles(&header), fetcher).await
}
