//! Integration settings of the signed-in user (notify URL, IP whitelist; later the API
//! keys): `/adminapi/merchant/changeIntegration`. They are saved on their own, so that a
//! merchant's developer need not fill in the profile's email, country and region first.

use super::integration_change;
use super::profile::{ProfileView, load_profile};
use super::validation::{Integration, IntegrationRequest};
use crate::http::error::{ApiOk, ApiResult};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::identity::session::CurrentUser;
use crate::platform::audit::{self, action};
use crate::platform::state::AppState;
use axum::extract::State;

/// Saves the notify URL and IP whitelist (both, as sent; an absent field is empty) with
/// the profile form's rules, and nothing else; any invalid field and nothing is saved.
#[utoipa::path(post, path = "/adminapi/merchant/changeIntegration", tag = "merchant", request_body = IntegrationRequest,
    responses(
        (status = 200, description = "Saved; `data` is the new ProfileView", body = ProfileView),
        (status = 400, description = "40000 with every invalid field named: a required field is missing or blank"),
        (status = 422, description = "40000 with every invalid field named: the notify URL or the whitelist is malformed or too long"),
    ),
    security(("token" = [])))]
pub async fn change_integration(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<IntegrationRequest>,
) -> ApiResult<ProfileView> {
    let integration = Integration::parse(request)?;
    // No internal destinations (SSRF), unless the server allows them.
    crate::http::notify_guard::check_url_field(&state, "notify_url", &integration.notify_url)?;
    // The settings and their audit record commit together.
    let mut transaction = state.db.begin_write().await?;
    let before = integration_change::settings_before(&mut transaction, caller.user_id).await?;
    sqlx::query("UPDATE users SET notify_url = $1, ip_whitelist = $2 WHERE id = $3")
        .bind(&integration.notify_url)
        .bind(&integration.ip_whitelist)
        .bind(caller.user_id)
        .execute(&mut *transaction)
        .await?;
    let address = address.to_string();
    audit::record(&mut *transaction, Some(caller.user_id), action::INTEGRATION_CHANGED, "", &address).await?;
    let after = (Some(integration.notify_url.as_str()), Some(integration.ip_whitelist.as_str()));
    integration_change::record_change(&mut transaction, &caller, &before, after, &address).await?;
    transaction.commit().await?;
    // The open API's recent keys hold the whitelist (`crate::identity::recent`): read it again.
    state.sessions.forget_all();
    Ok(ApiOk(load_profile(&state, caller.user_id).await?))
}
