//! Merchants' funding requests (充值申请, issue 52): a merchant's user files the bank
//! transfer it made (amount, the transfer's reference, the payer's account name, a proof
//! image checked by content as the business licence is, a note) and may withdraw it while
//! it is pending; administrators work the queue: approve (a top-up through the ledger in
//! the approval's transaction, linked to its account-log record) or reject with a reason.
//! Every state change is audited and the decision is told to the merchant's users.
//!
//! Merchant users have no roles yet: any user of a merchant may file and withdraw.

pub mod file;
pub mod list;
pub mod review;

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::QueryParams;
use crate::i18n::FundingMessage;
use crate::identity::session::{AdminUser, CurrentUser, Role};
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::{
    Router,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::{IntoParams, ToSchema};

pub use file::{FundingCreated, FundingForm, FundingWithdrawal};
pub use list::{AdminFundingListRequest, FundingListRequest, FundingListResponse};
pub use review::{FundingApproval, FundingRejection};

pub const PENDING: &str = "pending";
pub const APPROVED: &str = "approved";
pub const REJECTED: &str = "rejected";
pub const WITHDRAWN: &str = "withdrawn";

/// The longest bank reference, payer name, note and reason kept.
pub const MAX_REFERENCE: usize = 64;
pub const MAX_PAYER_NAME: usize = 64;
pub const MAX_NOTE: usize = 200;
pub const MAX_REASON: usize = 200;

pub fn router() -> Router<AppState> {
    use crate::identity::user_centre::certification_licence::MAX_LICENCE_BYTES;
    Router::new()
        .route(
            "/adminapi/funding/create",
            // The proof image is larger than a JSON body: the licence's limit and framing.
            post(file::create).layer(DefaultBodyLimit::max(MAX_LICENCE_BYTES + 64 * 1024)),
        )
        .route("/adminapi/funding/list", post(list::own))
        .route("/adminapi/funding/withdraw", post(file::withdraw))
        .route("/adminapi/funding/proof", get(own_proof))
        .route("/adminapi/admin/funding/list", post(list::queue))
        .route("/adminapi/admin/funding/approve", post(review::approve))
        .route("/adminapi/admin/funding/reject", post(review::reject))
        .route("/adminapi/admin/funding/proof", get(any_proof))
}

/// One funding request as lists show it (the proof is fetched on its own).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FundingItem {
    pub id: i64,
    pub merchant_id: i64,
    pub merchant_name: String,
    pub amount_fen: i64,
    /// As the merchant typed it (compared trimmed and upper-cased).
    pub bank_reference: String,
    pub payer_name: String,
    pub note: String,
    /// The proof image's type, decided by its content (`image/png`, `image/jpeg`, `image/webp`).
    pub proof_type: String,
    pub proof_size: i64,
    /// `pending`, `approved`, `rejected` or `withdrawn`.
    pub status: String,
    /// A rejection's reason.
    pub reason: Option<String>,
    pub created_by: i64,
    pub created_by_name: String,
    pub decided_by: Option<i64>,
    pub decided_by_name: Option<String>,
    /// RFC 3339; null while pending.
    pub decided_at: Option<String>,
    /// The top-up's account-log record (`/adminapi/finance/account/list`) of an approved request.
    pub ledger_log_id: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
}

/// The columns [`item`] reads, over `funding_requests f`.
pub(crate) const SELECT: &str = "SELECT f.id, f.merchant_id, COALESCE(m.name, ''), f.amount_fen, f.bank_reference,
        f.payer_name, f.note, f.proof_type, f.proof_size, f.status, f.reason, f.created_by, COALESCE(c.username, ''),
        f.decided_by, d.username, f.decided_at, f.ledger_log_id, f.created_at, f.updated_at
     FROM funding_requests f LEFT JOIN merchants m ON m.id = f.merchant_id
     LEFT JOIN users c ON c.id = f.created_by LEFT JOIN users d ON d.id = f.decided_by";

pub(crate) fn item(row: &sqlx::any::AnyRow) -> Result<FundingItem, sqlx::Error> {
    Ok(FundingItem {
        id: row.try_get(0)?,
        merchant_id: row.try_get(1)?,
        merchant_name: row.try_get(2)?,
        amount_fen: row.try_get(3)?,
        bank_reference: row.try_get(4)?,
        payer_name: row.try_get(5)?,
        note: row.try_get(6)?,
        proof_type: row.try_get(7)?,
        proof_size: row.try_get(8)?,
        status: row.try_get(9)?,
        reason: row.try_get(10)?,
        created_by: row.try_get(11)?,
        created_by_name: row.try_get(12)?,
        decided_by: row.try_get(13)?,
        decided_by_name: row.try_get(14)?,
        decided_at: row.try_get::<Option<i64>, _>(15)?.map(millis_to_rfc3339),
        ledger_log_id: row.try_get(16)?,
        created_at: millis_to_rfc3339(row.try_get(17)?),
        updated_at: millis_to_rfc3339(row.try_get(18)?),
    })
}

/// One request read back (the answer of every change).
pub(crate) async fn read_item<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: i64,
) -> Result<Option<FundingItem>, sqlx::Error> {
    let sql = format!("{SELECT} WHERE f.id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(executor).await?;
    row.as_ref().map(item).transpose()
}

/// The merchant a merchant's user acts for; administrators decide requests, they file none.
pub(crate) fn own_merchant(caller: &CurrentUser) -> Result<i64, AppError> {
    match (caller.role, caller.merchant_id) {
        (Role::User, Some(merchant_id)) => Ok(merchant_id),
        _ => Err(AppError::Forbidden(FundingMessage::MerchantsOnly.into())),
    }
}

/// A bank reference as compared: trimmed and upper-cased, so `abc 123 ` and `ABC 123` are one transfer.
pub(crate) fn reference_key(reference: &str) -> String {
    reference.trim().to_uppercase()
}

#[derive(Debug, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProofQuery {
    /// The funding request.
    pub id: i64,
}

/// The proof image of a request, served as the licence is: its own type, no sniffing, no caching.
async fn proof(state: &AppState, id: i64, merchant_id: Option<i64>) -> Result<Response, AppError> {
    let row: Option<(String, Vec<u8>, i64)> =
        sqlx::query_as("SELECT proof_type, proof, merchant_id FROM funding_requests WHERE id = $1")
            .bind(id)
            .fetch_optional(&state.db.pool)
            .await?;
    // Another merchant's request is answered as none at all.
    let (content_type, data, _) =
        row.filter(|(_, _, owner)| merchant_id.is_none_or(|own| own == *owner)).ok_or(AppError::NotFound)?;
    let mut response = data.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(&content_type).map_err(anyhow::Error::from)?);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    Ok(response)
}

/// Merchants: the proof image of one of their own requests (the bytes, not an envelope).
#[utoipa::path(get, path = "/adminapi/funding/proof", tag = "funding", params(ProofQuery),
    responses((status = 200, description = "the image bytes", content(("image/png"), ("image/jpeg"), ("image/webp"))),
        (status = 403, description = "40300: not a merchant's user (`funding.merchants_only`)"),
        (status = 404, description = "40400: no such request of the caller's merchant")),
    security(("token" = [])))]
pub async fn own_proof(
    State(state): State<AppState>,
    caller: CurrentUser,
    QueryParams(query): QueryParams<ProofQuery>,
) -> Result<Response, AppError> {
    let merchant_id = own_merchant(&caller)?;
    proof(&state, query.id, Some(merchant_id)).await
}

/// Administrators: the proof image of any request.
#[utoipa::path(get, path = "/adminapi/admin/funding/proof", tag = "funding", params(ProofQuery),
    responses((status = 200, description = "the image bytes", content(("image/png"), ("image/jpeg"), ("image/webp"))),
        (status = 403, description = "40300: not an administrator"), (status = 404, description = "40400: no such request")),
    security(("token" = [])))]
pub async fn any_proof(
    State(state): State<AppState>,
    _admin: AdminUser,
    QueryParams(query): QueryParams<ProofQuery>,
) -> Result<Response, AppError> {
    proof(&state, query.id, None).await
}

/// The answer of a change: the request as it is now.
pub(crate) async fn answer(state: &AppState, id: i64) -> ApiResult<FundingItem> {
    Ok(ApiOk(read_item(&state.db.pool, id).await?.ok_or(AppError::NotFound)?))
}
