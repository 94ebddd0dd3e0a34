//! The merchant's side: file a request (a multipart form with the proof image) and
//! withdraw it while it is pending.

use super::{FundingItem, MAX_NOTE, MAX_PAYER_NAME, MAX_REFERENCE, PENDING, WITHDRAWN, own_merchant, reference_key};
use crate::domain::Money;
use crate::http::error::{ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::audit::AuditDetail;
use crate::i18n::{FundingMessage, Message, TradeMessage};
use crate::identity::session::CurrentUser;
use crate::identity::user_centre::certification_licence::{checked_image, read_image_form};
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::{Multipart, State, multipart::MultipartRejection};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The multipart form that files a request (the document's description of it).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct FundingForm {
    /// fen, positive, at most 100 million yuan.
    #[schema(minimum = 1, maximum = 10000000000.0)]
    amount_fen: i64,
    /// The bank transfer's reference (流水号), 1 to 64 characters; compared trimmed and upper-cased.
    bank_reference: String,
    /// The payer's account name, 1 to 64 characters.
    payer_name: String,
    /// At most 200 characters.
    note: Option<String>,
    /// The transfer's receipt: PNG, JPEG or WebP (decided by content), at most 5 MiB.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FundingCreated {
    pub id: i64,
    pub status: String,
}

/// A text of the form, trimmed; refused when missing, empty (unless allowed) or too long.
fn text(
    value: Option<&str>,
    max: usize,
    allow_empty: bool,
    field: &str,
    refusal: FundingMessage,
) -> Result<String, AppError> {
    let value = value.unwrap_or_default().trim();
    if value.contains('\0') {
        return Err(AppError::field(field, Message::NulCharacter));
    }
    if (!allow_empty && value.is_empty()) || value.chars().count() > max {
        return Err(AppError::unprocessable(field, refusal));
    }
    Ok(value.to_string())
}

/// Merchants' users: file a funding request for the bank transfer they made (multipart
/// `amount_fen`, `bank_reference`, `payer_name`, `note`, `file`). A reference on a pending
/// or approved request (any merchant's) is refused as a duplicate.
#[utoipa::path(post, path = "/adminapi/funding/create", tag = "funding",
    request_body(content = FundingForm, content_type = "multipart/form-data"),
    responses((status = 200, description = "`data` is FundingCreated", body = FundingCreated),
        (status = 400, description = "40000: not a multipart form, a field missing or `amount_fen` not an integer"),
        (status = 403, description = "40300: not a merchant's user (`funding.merchants_only`)"),
        (status = 409, description = "40900 on `bank_reference`: the reference is on a pending or approved request (`funding.reference.duplicate`)"),
        (status = 422, description = "40000: the amount, reference, payer or note out of bounds; the file empty, not a PNG, JPEG or WebP image, or over 5 MiB")),
    security(("token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<FundingCreated> {
    let merchant_id = own_merchant(&caller)?;
    let mut multipart = multipart.map_err(|_| AppError::malformed_form())?;
    let form = read_image_form(&mut multipart).await?;
    let amount = form.text("amount_fen").map(str::trim).unwrap_or_default();
    let amount = crate::http::query_string::integer(amount)
        .ok_or_else(|| AppError::field("amount_fen", Message::InvalidField { detail: "expected an integer".into() }))?;
    let amount = Money::positive(amount)
        .map(Money::fen)
        .ok_or_else(|| AppError::unprocessable("amount_fen", TradeMessage::AmountInvalid))?;
    let reference = form.text("bank_reference");
    let reference = text(
        reference,
        MAX_REFERENCE,
        false,
        "bank_reference",
        FundingMessage::ReferenceInvalid { max: MAX_REFERENCE },
    )?;
    let payer = form.text("payer_name");
    let payer =
        text(payer, MAX_PAYER_NAME, false, "payer_name", FundingMessage::PayerNameInvalid { max: MAX_PAYER_NAME })?;
    let note = text(form.text("note"), MAX_NOTE, true, "note", FundingMessage::NoteTooLong { max: MAX_NOTE })?;
    let proof_type = checked_image(form.image.as_deref())?;
    let proof = form.image.unwrap_or_default();
    let key = reference_key(&reference);
    let duplicate = || AppError::conflict_on("bank_reference", FundingMessage::ReferenceDuplicate);
    let held: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM funding_requests WHERE reference_key = $1 AND status IN ('pending', 'approved')",
    )
    .bind(&key)
    .fetch_optional(&state.db.pool)
    .await?;
    if held.is_some() {
        return Err(duplicate());
    }
    let now = now_millis();
    let size = i64::try_from(proof.len()).unwrap_or(i64::MAX);
    // The request and its audit row commit together; the unique index refuses a reference
    // filed at the same moment by another caller.
    let mut transaction = state.db.begin_write().await?;
    let inserted: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO funding_requests (merchant_id, amount_fen, bank_reference, reference_key, payer_name, note,
             proof_type, proof, proof_size, status, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING id",
    )
    .bind(merchant_id)
    .bind(amount)
    .bind(&reference)
    .bind(&key)
    .bind(&payer)
    .bind(&note)
    .bind(proof_type)
    .bind(proof)
    .bind(size)
    .bind(PENDING)
    .bind(caller.user_id)
    .bind(now)
    .fetch_one(&mut *transaction)
    .await;
    let id = match inserted {
        Ok(id) => id,
        Err(sqlx::Error::Database(error)) if error.is_unique_violation() => return Err(duplicate()),
        Err(error) => return Err(error.into()),
    };
    let detail = AuditDetail::FundingRequest {
        request_id: id,
        step: "filed".into(),
        amount_fen: amount,
        bank_reference: reference,
        reason: None,
    };
    let target = audit::target::merchant(merchant_id);
    audit::record_detail(
        &mut *transaction,
        Some(caller.user_id),
        action::FUNDING_FILED,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    Ok(crate::http::error::ApiOk(FundingCreated { id, status: PENDING.into() }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FundingWithdrawal {
    pub id: i64,
}

/// Merchants' users: withdraw one of their merchant's requests while it is pending (its
/// reference may then be filed again).
#[utoipa::path(post, path = "/adminapi/funding/withdraw", tag = "funding", request_body = FundingWithdrawal,
    responses((status = 200, description = "`data` is the FundingItem as it is now", body = FundingItem),
        (status = 403, description = "40300: not a merchant's user (`funding.merchants_only`)"),
        (status = 404, description = "40400: no such request of the caller's merchant"),
        (status = 409, description = "40900: decided or withdrawn already (`funding.not_pending`)")),
    security(("token" = [])))]
pub async fn withdraw(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<FundingWithdrawal>,
) -> ApiResult<FundingItem> {
    let merchant_id = own_merchant(&caller)?;
    let mut transaction = state.db.begin_write().await?;
    // Only a pending request changes: a decision committed first wins, and the merchant is told.
    let changed: Option<(i64, String)> = sqlx::query_as(
        "UPDATE funding_requests SET status = $1, updated_at = $2
         WHERE id = $3 AND merchant_id = $4 AND status = $5 RETURNING amount_fen, bank_reference",
    )
    .bind(WITHDRAWN)
    .bind(now_millis())
    .bind(request.id)
    .bind(merchant_id)
    .bind(PENDING)
    .fetch_optional(&mut *transaction)
    .await?;
    let Some((amount_fen, bank_reference)) = changed else {
        drop(transaction);
        let owner: Option<i64> = sqlx::query_scalar("SELECT merchant_id FROM funding_requests WHERE id = $1")
            .bind(request.id)
            .fetch_optional(&state.db.pool)
            .await?;
        return Err(match owner {
            Some(owner) if owner == merchant_id => AppError::Conflict(FundingMessage::NotPending.into()),
            _ => AppError::NotFound,
        });
    };
    let detail = AuditDetail::FundingRequest {
        request_id: request.id,
        step: "withdrawn".into(),
        amount_fen,
        bank_reference,
        reason: None,
    };
    let target = audit::target::merchant(merchant_id);
    let event = action::FUNDING_WITHDRAWN;
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    super::answer(&state, request.id).await
}
