//! The lists: a merchant's own requests, and the administrators' queue (by status,
//! merchant and time), newest first, paged by number like the other lists.

use super::{FundingItem, SELECT, item, own_merchant};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::http::pagination::{PageNumber, parse_time};
use crate::i18n::TradeMessage;
use crate::identity::session::{AdminUser, CurrentUser};
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct FundingListRequest {
    /// `pending`, `approved`, `rejected` or `withdrawn`; omit for all.
    #[schema(pattern = r"^\s*(pending|approved|rejected|withdrawn)?\s*$")]
    pub status: Option<String>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AdminFundingListRequest {
    /// `pending`, `approved`, `rejected` or `withdrawn`; omit for all.
    #[schema(pattern = r"^\s*(pending|approved|rejected|withdrawn)?\s*$")]
    pub status: Option<String>,
    /// One merchant (omit for all).
    pub merchant_id: Option<i64>,
    /// Filed at or after (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    pub start_time: Option<String>,
    /// Filed before (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    pub end_time: Option<String>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FundingListResponse {
    pub list: Vec<FundingItem>,
    pub total: i64,
}

fn status_filter(conditions: &mut Conditions, status: Option<&str>) -> Result<(), AppError> {
    let Some(status) = status.map(str::trim).filter(|text| !text.is_empty()) else { return Ok(()) };
    if ![super::PENDING, super::APPROVED, super::REJECTED, super::WITHDRAWN].contains(&status) {
        let allowed = "pending, approved, rejected, withdrawn";
        return Err(AppError::field("status", TradeMessage::InvalidChoice { allowed }));
    }
    conditions.push("f.status = ?", vec![Bind::Text(status.to_string())]);
    Ok(())
}

async fn page(state: &AppState, conditions: Conditions, paging: &PageNumber) -> ApiResult<FundingListResponse> {
    let page = paging.checked()?;
    let filter = conditions.where_clause();
    let count = format!("SELECT COUNT(*) FROM funding_requests f{filter}");
    let total: i64 = bind_all(sqlx::query(sqlx::AssertSqlSafe(count)), conditions.binds.clone())
        .fetch_one(&state.db.pool)
        .await
        .and_then(|row| sqlx::Row::try_get(&row, 0))?;
    let next = conditions.next_placeholder();
    let sql = format!("{SELECT}{filter} ORDER BY f.id DESC LIMIT ${next} OFFSET ${}", next + 1);
    let binds = [conditions.binds, vec![Bind::Int(page.page_size), Bind::Int(page.offset())]].concat();
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(&state.db.pool).await?;
    let list = rows.iter().map(item).collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(FundingListResponse { list, total }))
}

/// Merchants' users: their merchant's requests, newest first.
#[utoipa::path(post, path = "/adminapi/funding/list", tag = "funding", request_body = FundingListRequest,
    responses((status = 200, description = "`data` is a FundingListResponse", body = FundingListResponse),
        (status = 403, description = "40300: not a merchant's user (`funding.merchants_only`)")),
    security(("token" = [])))]
pub async fn own(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<FundingListRequest>,
) -> ApiResult<FundingListResponse> {
    let merchant_id = own_merchant(&caller)?;
    let mut conditions = Conditions::default();
    conditions.push("f.merchant_id = ?", vec![Bind::Int(merchant_id)]);
    status_filter(&mut conditions, request.status.as_deref())?;
    page(&state, conditions, &request.paging).await
}

/// Administrators: the funding requests of every merchant (the review queue with `status`
/// `pending`), newest first.
#[utoipa::path(post, path = "/adminapi/admin/funding/list", tag = "funding", request_body = AdminFundingListRequest,
    responses((status = 200, description = "`data` is a FundingListResponse", body = FundingListResponse),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn queue(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<AdminFundingListRequest>,
) -> ApiResult<FundingListResponse> {
    let mut conditions = Conditions::default();
    status_filter(&mut conditions, request.status.as_deref())?;
    let from = parse_time("start_time", request.start_time.as_deref())?;
    let to = parse_time("end_time", request.end_time.as_deref())?;
    for (template, value) in
        [("f.merchant_id = ?", request.merchant_id), ("f.created_at >= ?", from), ("f.created_at < ?", to)]
    {
        if let Some(value) = value {
            conditions.push(template, vec![Bind::Int(value)]);
        }
    }
    page(&state, conditions, &request.paging).await
}
