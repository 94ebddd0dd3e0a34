//! One merchant's quote for one product, created or changed by an administrator (the
//! quote list's editor and the API): its price and whether it is on. Every change is in
//! the price history and the audit trail, written in the transaction that makes it.

use super::{QuoteItem, fetch, history};
use crate::domain::Money;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::TradeMessage;
use crate::identity::session::AdminUser;
use crate::platform::audit;
use crate::platform::sql::{Bind, Conditions};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveQuoteRequest {
    pub merchant_id: i64,
    pub product_key: String,
    /// The supply price, fen (positive, at most 100 million yuan).
    #[schema(minimum = 1, maximum = 10000000000.0)]
    pub price_fen: i64,
    /// 1 on (default), 0 off.
    #[schema(minimum = 0, maximum = 1)]
    pub status: Option<i64>,
}

/// Administrators: create or change a merchant's quote for a product.
#[utoipa::path(post, path = "/adminapi/admin/quote/save", tag = "admin", request_body = SaveQuoteRequest,
    responses((status = 200, description = "`data` is the QuoteItem", body = QuoteItem), (status = 404, description = "40400: no such merchant"),
        (status = 422, description = "40000: no product with this key (`data.fields.product_key`)")),
    security(("token" = [])))]
pub async fn save(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SaveQuoteRequest>,
) -> ApiResult<QuoteItem> {
    let price =
        Money::positive(request.price_fen).ok_or_else(|| AppError::field("price_fen", TradeMessage::AmountInvalid))?;
    let status = request.status.unwrap_or(1);
    if status != 0 && status != 1 {
        return Err(AppError::field("status", TradeMessage::InvalidChoice { allowed: "0, 1" }));
    }
    let product_key = crate::domain::product_key_input(&request.product_key);
    let product_id: i64 = sqlx::query_scalar("SELECT id FROM products WHERE product_key = $1")
        .bind(&product_key)
        .fetch_optional(&state.db.pool)
        .await?
        .ok_or_else(|| AppError::unprocessable("product_key", TradeMessage::ProductUnknown))?;
    if !crate::money::finance::merchant_exists(&state.db.pool, request.merchant_id).await? {
        return Err(AppError::NotFound);
    }
    let mut transaction = state.db.begin_write().await?;
    let before: Option<(i64, i64)> =
        sqlx::query_as("SELECT price_fen, status FROM quotes WHERE merchant_id = $1 AND product_id = $2")
            .bind(request.merchant_id)
            .bind(product_id)
            .fetch_optional(&mut *transaction)
            .await?;
    let change = history::PriceChange {
        merchant_id: request.merchant_id,
        product_id,
        old_price_fen: before.map(|(price, _)| price),
        new_price_fen: price.fen(),
        status: Some(status),
    };
    history::apply_changes(&mut transaction, &[change], history::Source::Edit, admin.user_id).await?;
    // A price is what merchants pay: who changed it, from what to what, is audited.
    let detail = crate::i18n::audit::AuditDetail::QuoteSaved {
        product_key: product_key.to_string(),
        before,
        price_fen: price.fen(),
        status,
    };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::QUOTE_SAVED,
        &audit::target::merchant(request.merchant_id),
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    let mut conditions = Conditions::default();
    conditions.push("q.merchant_id = ?", vec![Bind::Int(request.merchant_id)]);
    conditions.push("q.product_id = ?", vec![Bind::Int(product_id)]);
    let quote = fetch(&state.db.pool, conditions, 0, 1).await?.pop().ok_or(AppError::NotFound)?;
    Ok(ApiOk(quote))
}
