//! The console's signature helper, `/adminapi/apikey/signCheck`: the string to sign of a
//! pasted request and whether a signature matches the key, computed here so the secret
//! never leaves the server.

use super::signature;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::identity::api_keys::store;
use crate::identity::session::{CurrentUser, Role};
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/adminapi/apikey/signCheck", post(sign_check))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignCheckRequest {
    pub key_id: String,
    pub method: String,
    /// Path and query exactly as sent, e.g. `/openapi/v1/orders/M1?x=1`.
    pub path: String,
    pub timestamp: String,
    pub nonce: String,
    /// The raw body as sent (empty for GET).
    #[serde(default)]
    pub body: String,
    /// A signature to compare; omitted: only the string to sign is answered.
    pub signature: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SignCheckResponse {
    pub string_to_sign: String,
    pub body_sha256: String,
    /// Whether `signature` is right for this key; null when none was given.
    pub matches: Option<bool>,
}

/// The signature helper: the string to sign, and whether a signature matches the key.
/// The secret and the right signature never leave the server.
#[utoipa::path(post, path = "/adminapi/apikey/signCheck", tag = "apikey", request_body = SignCheckRequest,
    responses((status = 200, description = "`data` is a SignCheckResponse", body = SignCheckResponse), (status = 404, description = "40400: no such key (or another merchant's)")),
    security(("token" = [])))]
pub async fn sign_check(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<SignCheckRequest>,
) -> ApiResult<SignCheckResponse> {
    let (merchant_id, secret) =
        store::secret_of(&state.db.pool, &state.secrets, request.key_id.trim()).await?.ok_or(AppError::NotFound)?;
    if caller.role == Role::User && caller.merchant_id != Some(merchant_id) {
        return Err(AppError::NotFound);
    }
    let text = signature::request_string(
        &request.method.trim().to_ascii_uppercase(),
        request.path.trim(),
        request.timestamp.trim(),
        request.nonce.trim(),
        request.body.as_bytes(),
    );
    let matches = request
        .signature
        .as_deref()
        .map(str::trim)
        .filter(|signature| !signature.is_empty())
        .map(|signature| signature::verify(&secret, &text, signature));
    let body_sha256 = text.rsplit('\n').next().unwrap_or_default().to_string();
    Ok(ApiOk(SignCheckResponse { string_to_sign: text, body_sha256, matches }))
}
