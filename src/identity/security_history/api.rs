//! The security history's pages: `/adminapi/security/list` (newest first, paged, filtered
//! by time, kind, user and address), its export (CSV or xlsx) and `/adminapi/security/kinds`
//! (the kinds' names, for the filter). A merchant's owners see their merchant's history
//! only (`permissions`); administrators see every merchant's, or one's with `merchant_id`,
//! and their own (events without a merchant).

use super::kind;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, EXPORT_PAGE_SIZE, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::http::pagination::{
    BY_TIME_OF_E, PageRequest, Paging, capped_count, decode_cursor, finish_page, newest_first, parse_time,
};
use crate::i18n::security::{SECURITY_COLUMNS, SecurityDetail, kind_name};
use crate::i18n::{AdminMessage, Locale};
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
        .route("/adminapi/security/list", post(list))
        .route("/adminapi/security/export", get(export))
        .route("/adminapi/security/kinds", post(kinds))
}

/// One event of the security history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SecurityEvent {
    pub id: i64,
    /// Whose history: the merchant; null for an administrator's own account.
    pub merchant_id: Option<i64>,
    /// Who acted (for a failed sign-in: the account tried).
    pub user_id: Option<i64>,
    /// The user's name when it happened.
    pub username: String,
    /// The kind code (`/adminapi/security/kinds` lists them).
    pub kind: String,
    /// The kind's name in the request's language.
    pub kind_name: String,
    /// For people, in the request's language; never a secret.
    pub detail: String,
    pub client_address: String,
    /// The browser's `User-Agent` (at most 256 characters; '' when none was sent).
    pub user_agent: String,
    /// RFC 3339.
    pub created_at: String,
    #[serde(skip)]
    pub created_millis: i64,
}

const SELECT: &str = "SELECT e.id, e.merchant_id, e.user_id, e.username, e.kind, e.detail, e.client_address, \
    e.user_agent, e.created_at FROM security_events e";

fn event(row: &sqlx::any::AnyRow, locale: Locale) -> Result<SecurityEvent, sqlx::Error> {
    let kind: String = row.try_get(4)?;
    let detail: String = row.try_get(5)?;
    let created: i64 = row.try_get(8)?;
    Ok(SecurityEvent {
        id: row.try_get(0)?,
        merchant_id: row.try_get(1)?,
        user_id: row.try_get(2)?,
        username: row.try_get(3)?,
        kind_name: kind_name(&kind, locale),
        kind,
        detail: SecurityDetail::render(&detail, locale),
        client_address: row.try_get(6)?,
        user_agent: row.try_get(7)?,
        created_at: millis_to_rfc3339(created),
        created_millis: created,
    })
}

#[derive(Debug, Default, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SecurityFilter {
    /// Administrators: one merchant's history (absent: every merchant's and the
    /// administrators' own). A merchant's owner leaves it out or names its own merchant.
    pub merchant_id: Option<i64>,
    /// One kind code (`/adminapi/security/kinds` lists them).
    #[schema(schema_with = kind_schema)]
    #[param(schema_with = kind_schema)]
    pub kind: Option<String>,
    /// A username as recorded (any case).
    pub user: Option<String>,
    /// A client address, exactly as listed.
    pub address: Option<String>,
    /// At or after (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub start_time: Option<String>,
    /// Before (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub end_time: Option<String>,
}

/// A kind code as `SecurityFilter::conditions` reads it: one of `kind::ALL`, trimmed, or
/// blank (any kind), or null.
fn kind_schema() -> utoipa::openapi::schema::Schema {
    let pattern = format!(r"^\s*({})?\s*$", kind::ALL.join("|"));
    crate::http::openapi_contract::schema(serde_json::json!({"type": ["string", "null"], "pattern": pattern}))
}

fn filled(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|text| !text.is_empty())
}

impl SecurityFilter {
    /// The conditions for the caller: a merchant's user is held to its own merchant
    /// (another merchant's is 40300), whatever it asks.
    fn conditions(&self, caller: &CurrentUser) -> Result<Conditions, AppError> {
        let mut conditions = Conditions::default();
        if let Some(merchant_id) = caller.scope(self.merchant_id)? {
            conditions.push("e.merchant_id = ?", vec![Bind::Int(merchant_id)]);
        }
        if let Some(code) = filled(self.kind.as_deref()) {
            if !kind::ALL.contains(&code) {
                return Err(AppError::field("kind", AdminMessage::SecurityKindUnknown));
            }
            conditions.push("e.kind = ?", vec![Bind::Text(code.to_string())]);
        }
        if let Some(user) = filled(self.user.as_deref()) {
            conditions.push("lower(e.username) = lower(?)", vec![Bind::Text(user.to_string())]);
        }
        if let Some(address) = filled(self.address.as_deref()) {
            conditions.push("e.client_address = ?", vec![Bind::Text(address.to_string())]);
        }
        if let Some(from) = parse_time("start_time", self.start_time.as_deref())? {
            conditions.push("e.created_at >= ?", vec![Bind::Int(from)]);
        }
        if let Some(to) = parse_time("end_time", self.end_time.as_deref())? {
            conditions.push("e.created_at < ?", vec![Bind::Int(to)]);
        }
        Ok(conditions)
    }
}

async fn fetch(
    pool: &AnyPool,
    conditions: Conditions,
    page: PageRequest,
    locale: Locale,
) -> Result<(Vec<SecurityEvent>, Option<String>), sqlx::Error> {
    let (sql, binds) = newest_first(SELECT, &BY_TIME_OF_E, conditions, &page);
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await?;
    let events = rows.iter().map(|row| event(row, locale)).collect::<Result<Vec<_>, _>>()?;
    Ok(finish_page(events, page.page_size, |last| (last.created_millis, last.id)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SecurityListRequest {
    #[serde(flatten)]
    pub filter: SecurityFilter,
    #[serde(flatten)]
    pub paging: Paging,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SecurityListResponse {
    pub list: Vec<SecurityEvent>,
    pub total: i64,
    /// true: more than `total` (100,000) match.
    pub total_capped: bool,
    pub next_cursor: Option<String>,
    pub page_size: i64,
}

/// The security history, newest first: a merchant's owners see their merchant's,
/// administrators every merchant's (or one's, with `merchant_id`). Kept 180 days.
#[utoipa::path(post, path = "/adminapi/security/list", tag = "security", request_body = SecurityListRequest,
    responses((status = 200, description = "`data` is a SecurityListResponse", body = SecurityListResponse),
        (status = 400, description = "40000: unknown kind (`security.kind_unknown`), bad time or paging"),
        (status = 403, description = "40300: not an owner, or another merchant named"),
        (status = 422, description = "40000: `cursor` is not one this list gave")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<SecurityListRequest>,
) -> ApiResult<SecurityListResponse> {
    let locale = Locale::from_headers(&headers);
    let pool = &state.db.pool;
    let conditions = request.filter.conditions(&caller)?;
    let page = request.paging.checked(None)?;
    let counting = capped_count(pool, "security_events e", conditions.clone());
    let (rows, (total, total_capped)) = tokio::try_join!(fetch(pool, conditions, page, locale), counting)?;
    Ok(ApiOk(SecurityListResponse {
        list: rows.0,
        total,
        total_capped,
        next_cursor: rows.1,
        page_size: page.page_size,
    }))
}

fn export_row(event: &SecurityEvent) -> Vec<Cell> {
    vec![
        Cell::Int(event.id),
        Cell::Time(event.created_millis),
        event.merchant_id.map_or(Cell::Empty, Cell::Int),
        Cell::text(&event.username),
        Cell::text(&event.kind_name),
        Cell::text(&event.kind),
        Cell::text(&event.detail),
        Cell::id(&event.client_address),
        Cell::text(&event.user_agent),
    ]
}

/// Export the security history matching the filters (query parameters as the list's body
/// fields), newest first. CSV is streamed; xlsx holds at most 200,000 rows.
#[utoipa::path(get, path = "/adminapi/security/export", tag = "security", params(SecurityFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: an unknown kind, a time not RFC 3339, or a bad format"),
        (status = 403, description = "40300: not an owner, or another merchant named")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(filter): QueryParams<SecurityFilter>,
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
            let (events, next) = fetch(
                &pool,
                conditions,
                PageRequest { descending: true, cursor, page: None, page_size: EXPORT_PAGE_SIZE },
                locale,
            )
            .await?;
            Ok((events.iter().map(export_row).collect(), next))
        })
    });
    let header_row = titles(&SECURITY_COLUMNS.get(locale));
    respond(format, "security-history", header_row, fetcher).await
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SecurityKind {
    pub kind: &'static str,
    /// In the request's language.
    pub name: String,
}

/// Every kind of security event with its name, for the page's filter.
#[utoipa::path(post, path = "/adminapi/security/kinds", tag = "security",
    responses((status = 200, description = "`data` is a list of SecurityKind", body = [SecurityKind]),
        (status = 403, description = "40300: not an owner")),
    security(("token" = [])))]
pub async fn kinds(_caller: CurrentUser, headers: HeaderMap) -> ApiResult<Vec<SecurityKind>> {
    let locale = Locale::from_headers(&headers);
    Ok(ApiOk(kind::ALL.iter().map(|code| SecurityKind { kind: code, name: kind_name(code, locale) }).collect()))
}
