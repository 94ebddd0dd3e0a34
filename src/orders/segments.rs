//! Number lookup: the province, city and carrier of a number's segment, from the table in
//! memory (`platform::segments`). The console's add-order form asks as a number is typed
//! (`/adminapi/segment/lookup`); the open API answers the same (`merchant_api`).

use crate::domain::segments::parse_prefix;
use crate::domain::{Carrier, PhoneNumber};
use crate::http::error::{ApiOk, ApiResult, AppError, code};
use crate::http::extract::JsonBody;
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct SegmentLookupRequest {
    /// A mobile number in any spelling orders take (spaces, dashes, +86, full-width digits),
    /// or its first 7 to 10 digits as typed.
    pub phone: String,
}

/// Where a number's segment was allocated.
#[derive(Debug, Serialize, ToSchema)]
pub struct NumberSegment {
    /// The digits given (11, or the 7 to 10 typed so far).
    pub phone: String,
    /// Its first seven digits.
    pub prefix: String,
    /// GB/T 2260 province code, e.g. 440000.
    pub province_code: String,
    /// 广东
    pub province: String,
    /// 深圳 (a municipality is its own city: 北京)
    pub city: String,
    /// Guangdong
    pub province_en: String,
    /// Shenzhen
    pub city_en: String,
    pub carrier: Carrier,
}

/// The segment of `phone`, a whole number or its first 7 to 10 digits as typed: 422
/// `segment.phone_invalid` for what is neither, 404 `segment.unknown` for a prefix the
/// table lacks. The carrier is the table's, else the segment rule's.
pub fn lookup(state: &AppState, field: &str, phone: &str) -> Result<NumberSegment, AppError> {
    let invalid = || AppError::unprocessable(field, TradeMessage::SegmentPhoneInvalid);
    let digits = PhoneNumber::typed_digits(phone).ok_or_else(invalid)?;
    let prefix = parse_prefix(&digits[..7]).ok_or_else(invalid)?;
    let table = state.segments.table();
    let (place, carrier) = table.find(prefix).ok_or_else(|| AppError::Refused {
        status: axum::http::StatusCode::NOT_FOUND,
        code: code::NOT_FOUND,
        message: TradeMessage::SegmentUnknown { prefix }.into(),
        retry_after_seconds: None,
    })?;
    let carrier = carrier.or_else(|| PhoneNumber::segment_carrier(&digits)).ok_or_else(invalid)?;
    Ok(NumberSegment {
        phone: digits,
        prefix: format!("{prefix:07}"),
        province_code: place.province_code.clone(),
        province: place.province.clone(),
        city: place.city.clone(),
        province_en: place.province_en.clone(),
        city_en: place.city_en.clone(),
        carrier,
    })
}

/// The province, city and carrier of a number, for the add-order form.
#[utoipa::path(post, path = "/adminapi/segment/lookup", tag = "order", request_body = SegmentLookupRequest,
    responses((status = 200, description = "`data` is a NumberSegment", body = NumberSegment),
        (status = 404, description = "40400 `segment.unknown`: the table has no place for the number's prefix"),
        (status = 422, description = "40000 `segment.phone_invalid`: not a mainland mobile number nor its first 7 digits")),
    security(("token" = [])))]
pub async fn lookup_number(
    State(state): State<AppState>,
    _caller: CurrentUser,
    JsonBody(request): JsonBody<SegmentLookupRequest>,
) -> ApiResult<NumberSegment> {
    Ok(ApiOk(lookup(&state, "phone", &request.phone)?))
}
