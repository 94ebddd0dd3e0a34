//! Prices for the add-order form: the merchant's offers (for the number's carrier, when one
//! is typed) and what the merchant can spend, before anything is submitted.

use super::acting_merchant;
use super::store;
use crate::domain::{Carrier, PhoneNumber, ProductKind, Speed};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::money::finance::ledger::Account;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct PriceRequest {
    /// A number typed so far: only products of its segment's carrier are offered.
    pub account: Option<String>,
    /// One product only.
    pub product_key: Option<String>,
    /// Administrators only: whose prices.
    pub merchant_id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PriceOffer {
    pub product_key: String,
    pub product_name: String,
    pub carrier: Carrier,
    pub product_kind: ProductKind,
    pub face_value_fen: i64,
    /// The supply price the merchant would pay, fen.
    pub price_fen: i64,
    pub speed: Speed,
    /// GB/T 2260 codes of the provinces the product is sold in; empty: national.
    pub provinces: Vec<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PriceResponse {
    /// The carrier of the account's number segment (null without a valid account).
    pub account_carrier: Option<Carrier>,
    /// The carrier a supplier reported the number moved away from (携号转网); null when
    /// none did. The offers then leave that carrier's products out and take the others.
    pub ported_from: Option<Carrier>,
    /// Products with an active quote (for the account's carrier, when one is given).
    pub offers: Vec<PriceOffer>,
    pub account: Account,
    /// Balance plus available credit, fen.
    pub spendable_fen: i64,
}

/// Prices for the add-order form, before anything is submitted.
#[utoipa::path(post, path = "/adminapi/order/price", tag = "order", request_body = PriceRequest,
    responses((status = 200, description = "`data` is a PriceResponse", body = PriceResponse), (status = 404, description = "40400: an administrator named no such merchant"),
        (status = 422, description = "40000: `account` is from no allocated segment, or an administrator gave no `merchant_id`")),
    security(("token" = [])))]
pub async fn price(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<PriceRequest>,
) -> ApiResult<PriceResponse> {
    let merchant_id = acting_merchant(&state, &caller, request.merchant_id).await?;
    let account_text = request.account.unwrap_or_default();
    let number = PhoneNumber::parse(&account_text);
    if !account_text.trim().is_empty() && number.is_none() {
        // The number plan is beyond the document's schema: 422.
        return Err(AppError::unprocessable("account", TradeMessage::AccountInvalid));
    }
    let province = state.segments.region(&account_text).map(|region| region.province_code);
    let ported_from = match &number {
        Some(number) => state.ports.left_by(&state.db, number).await?,
        None => None,
    };
    let product_key = crate::domain::product_key_input(&request.product_key.unwrap_or_default());
    let mut offers: Vec<PriceOffer> = store::all_offers(&state.db.pool, merchant_id)
        .await?
        .into_values()
        .filter(|offer| product_key.is_empty() || offer.product_key == product_key)
        .filter(|offer| {
            let fits = |number: &PhoneNumber| match ported_from {
                Some(left) => offer.carrier != left,
                None => number.carrier() == offer.carrier,
            };
            number.as_ref().is_none_or(|number| fits(number) || offer.product_kind == ProductKind::Card)
        })
        // What fits the number's province (a card goes to the merchant, anywhere).
        .filter(|offer| number.is_none() || offer.product_kind == ProductKind::Card || offer.scope.admits(province))
        .filter_map(|offer| {
            Some(PriceOffer {
                price_fen: offer.price_fen?,
                speed: offer.speed,
                provinces: offer.scope.provinces().to_vec(),
                product_key: offer.product_key,
                product_name: offer.product_name,
                carrier: offer.carrier,
                product_kind: offer.product_kind,
                face_value_fen: offer.face_value_fen,
            })
        })
        .collect();
    offers.sort_by(|a, b| {
        (a.carrier.code(), a.product_kind.code(), a.face_value_fen, a.speed.code()).cmp(&(
            b.carrier.code(),
            b.product_kind.code(),
            b.face_value_fen,
            b.speed.code(),
        ))
    });
    let account = crate::money::finance::read_account(&state.db.pool, merchant_id).await?;
    Ok(ApiOk(PriceResponse {
        account_carrier: number.map(|number| number.carrier()),
        ported_from,
        offers,
        spendable_fen: account.spendable(),
        account,
    }))
}
