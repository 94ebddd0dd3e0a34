//! Administrators run merchants: create one with its first user, rename it, disable and
//! enable it, add users, reset a user's password. A new or reset password is temporary:
//! shown once in the answer, and its user must choose their own before anything else
//! (`users.must_change_password`, enforced by the session extractor). Every change is
//! audited with its target and told to the merchant's users in the message center.

pub mod store;

use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::AdminMessage;
use crate::identity::permissions::MerchantRole;
use crate::identity::session::AdminUser;
use crate::identity::users::repository::{MAX_USERNAME_LENGTH, NewMerchantUser, stored_role, username_input};
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use store::ActedBy;
use utoipa::ToSchema;

pub const MAX_MERCHANT_NAME_LENGTH: usize = 64;

pub fn router() -> Router<AppState> {
    let secrets = Router::new()
        .route("/adminapi/admin/merchant/create", post(create))
        .route("/adminapi/admin/merchant/addUser", post(add_user))
        .route("/adminapi/admin/merchant/resetPassword", post(reset_password))
        // Answers carry temporary passwords: no cache may keep them.
        .layer(crate::http::security_headers::no_store());
    Router::new()
        .route("/adminapi/admin/merchant/update", post(update))
        .route("/adminapi/admin/merchant/disable", post(disable))
        .route("/adminapi/admin/merchant/enable", post(enable))
        .route("/adminapi/admin/merchant/users", post(users))
        .merge(secrets)
}

fn merchant_name(text: Option<String>) -> Result<String, FieldError> {
    let name = text.unwrap_or_default().trim().to_string();
    if name.is_empty() {
        Err(FieldError::new("name", AdminMessage::MerchantNameRequired.into()))
    } else if name.chars().count() > MAX_MERCHANT_NAME_LENGTH {
        Err(FieldError::new("name", AdminMessage::MerchantNameTooLong { max: MAX_MERCHANT_NAME_LENGTH }.into()))
    } else {
        Ok(name)
    }
}

fn username(text: Option<String>) -> Result<String, FieldError> {
    username_input(&text.unwrap_or_default())
        .map(str::to_string)
        .ok_or_else(|| FieldError::new("username", AdminMessage::UsernameInvalid { max: MAX_USERNAME_LENGTH }.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateMerchantRequest {
    /// The merchant's display name (1 to 64 characters).
    #[schema(value_type = String, required = true, min_length = 1, pattern = r"^\s*\S([\s\S]{0,62}\S)?\s*$")]
    pub name: Option<String>,
    /// The first user's sign-in name (1 to 64 characters, no spaces, unique).
    #[schema(value_type = String, required = true, pattern = r"^\s*\S{1,64}\s*$")]
    pub username: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TemporaryCredentials {
    pub merchant_id: i64,
    pub user_id: i64,
    pub username: String,
    /// Shown this once; the user must change it at first sign-in.
    pub temporary_password: String,
}

/// Create a merchant (the next free mid) with its first user, who signs in with the
/// temporary password in the answer and must change it first.
#[utoipa::path(post, path = "/adminapi/admin/merchant/create", tag = "admin", request_body = CreateMerchantRequest,
    responses((status = 200, description = "`data` is TemporaryCredentials", body = TemporaryCredentials), (status = 400, description = "40000: name or username invalid"), (status = 409, description = "40900: the username is taken"),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<CreateMerchantRequest>,
) -> ApiResult<TemporaryCredentials> {
    let (name, username) = match (merchant_name(request.name), username(request.username)) {
        (Ok(name), Ok(username)) => (name, username),
        (name, username) => {
            return Err(AppError::Validation(name.err().into_iter().chain(username.err()).collect()));
        }
    };
    let password = store::temporary_password();
    let hash = state.hasher.hash(&password).await?;
    let address = address.to_string();
    let by = ActedBy { user_id: admin.user_id, session_id: admin.session_id, address: &address };
    let user = NewMerchantUser {
        merchant_id: 0,
        username: &username,
        display_name: &name,
        password_hash: &hash,
        // An administrator's temporary password; the merchant's first user owns it.
        role: MerchantRole::Owner,
        must_change_password: true,
    };
    let (merchant_id, user_id) = store::create_merchant(&state.db, &name, user, &by).await?;
    Ok(ApiOk(TemporaryCredentials {
        merchant_id,
        user_id,
        username,
        temporary_password: password.as_str().to_string(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddUserRequest {
    pub merchant_id: i64,
    #[schema(value_type = String, required = true, pattern = r"^\s*\S{1,64}\s*$")]
    pub username: Option<String>,
    /// Display name; the username when absent.
    pub name: Option<String>,
}

/// Add another user to a merchant, with a temporary password shown once.
#[utoipa::path(post, path = "/adminapi/admin/merchant/addUser", tag = "admin", request_body = AddUserRequest,
    responses((status = 200, description = "`data` is TemporaryCredentials", body = TemporaryCredentials), (status = 400, description = "40000: username invalid"), (status = 409, description = "40900: the username is taken"),
        (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn add_user(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<AddUserRequest>,
) -> ApiResult<TemporaryCredentials> {
    let username = username(request.username).map_err(|field| AppError::Validation(vec![field]))?;
    if !crate::money::finance::merchant_exists(&state.db.pool, request.merchant_id).await? {
        return Err(AppError::NotFound);
    }
    let display: String = request.name.unwrap_or_default().trim().chars().take(MAX_MERCHANT_NAME_LENGTH).collect();
    let display = if display.is_empty() { username.clone() } else { display };
    let password = store::temporary_password();
    let hash = state.hasher.hash(&password).await?;
    let address = address.to_string();
    let by = ActedBy { user_id: admin.user_id, session_id: admin.session_id, address: &address };
    let user = NewMerchantUser {
        merchant_id: request.merchant_id,
        username: &username,
        display_name: &display,
        password_hash: &hash,
        // As before merchants had roles: the administrator adds an owner.
        role: MerchantRole::Owner,
        must_change_password: true,
    };
    let user_id = store::add_user(&state.db, user, &by).await?;
    Ok(ApiOk(TemporaryCredentials {
        merchant_id: request.merchant_id,
        user_id,
        username,
        temporary_password: password.as_str().to_string(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetPasswordRequest {
    /// A merchant user's id (see `/adminapi/admin/merchant/users`).
    pub user_id: i64,
}

/// Give a merchant user a new temporary password (shown once): their sessions end and
/// they must choose a new password at their next sign-in.
#[utoipa::path(post, path = "/adminapi/admin/merchant/resetPassword", tag = "admin", request_body = ResetPasswordRequest,
    responses((status = 200, description = "`data` is TemporaryCredentials", body = TemporaryCredentials),
        (status = 404, description = "40400: no such user"), (status = 422, description = "40000: not a merchant user")),
    security(("token" = [])))]
pub async fn reset_password(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ResetPasswordRequest>,
) -> ApiResult<TemporaryCredentials> {
    let password = store::temporary_password();
    let hash = state.hasher.hash(&password).await?;
    let address = address.to_string();
    let by = ActedBy { user_id: admin.user_id, session_id: admin.session_id, address: &address };
    let username = store::reset_password(&state.db, request.user_id, &hash, &by).await?;
    state.sessions.forget_all();
    // A locked-out user is the usual reason for a reset: the new password must work at once.
    crate::identity::throttle::clear(&state.db.pool, &crate::identity::throttle::account_key(&username)).await?;
    let merchant_id: i64 = sqlx::query_scalar("SELECT merchant_id FROM users WHERE id = $1")
        .bind(request.user_id)
        .fetch_one(&state.db.pool)
        .await?;
    Ok(ApiOk(TemporaryCredentials {
        merchant_id,
        user_id: request.user_id,
        username,
        temporary_password: password.as_str().to_string(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateMerchantRequest {
    pub merchant_id: i64,
    #[schema(value_type = String, required = true, min_length = 1, pattern = r"^\s*\S([\s\S]{0,62}\S)?\s*$")]
    pub name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantRef {
    pub merchant_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MerchantState {
    pub merchant_id: i64,
    pub name: String,
    /// When it was disabled (RFC 3339); null while enabled.
    pub disabled_at: Option<String>,
}

async fn merchant_state(state: &AppState, merchant_id: i64) -> Result<MerchantState, AppError> {
    let row = sqlx::query("SELECT name, disabled_at FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&state.db.pool)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(MerchantState {
        merchant_id,
        name: row.try_get("name")?,
        disabled_at: row.try_get::<Option<i64>, _>("disabled_at")?.map(millis_to_rfc3339),
    })
}

/// Rename a merchant.
#[utoipa::path(post, path = "/adminapi/admin/merchant/update", tag = "admin", request_body = UpdateMerchantRequest,
    responses((status = 200, description = "`data` is MerchantState", body = MerchantState), (status = 400, description = "40000: name invalid"),
        (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn update(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<UpdateMerchantRequest>,
) -> ApiResult<MerchantState> {
    let name = merchant_name(request.name).map_err(|field| AppError::Validation(vec![field]))?;
    let address = address.to_string();
    let by = ActedBy { user_id: admin.user_id, session_id: admin.session_id, address: &address };
    store::rename(&state.db, request.merchant_id, &name, &by).await?;
    Ok(ApiOk(merchant_state(&state, request.merchant_id).await?))
}

/// Disable a merchant: its users' sessions end at once, sign-in and new orders are
/// refused with `merchant.disabled`; orders already placed still settle. Repeating it
/// changes nothing.
#[utoipa::path(post, path = "/adminapi/admin/merchant/disable", tag = "admin", request_body = MerchantRef,
    responses((status = 200, description = "`data` is MerchantState", body = MerchantState), (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn disable(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<MerchantRef>,
) -> ApiResult<MerchantState> {
    let address = address.to_string();
    let by = ActedBy { user_id: admin.user_id, session_id: admin.session_id, address: &address };
    if store::set_enabled(&state.db, request.merchant_id, false, &by).await? {
        // Sessions checked in the last second are served from memory: end them now.
        state.sessions.forget_all();
    }
    Ok(ApiOk(merchant_state(&state, request.merchant_id).await?))
}

/// Enable a disabled merchant again.
#[utoipa::path(post, path = "/adminapi/admin/merchant/enable", tag = "admin", request_body = MerchantRef,
    responses((status = 200, description = "`data` is MerchantState", body = MerchantState), (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn enable(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<MerchantRef>,
) -> ApiResult<MerchantState> {
    let address = address.to_string();
    let by = ActedBy { user_id: admin.user_id, session_id: admin.session_id, address: &address };
    if store::set_enabled(&state.db, request.merchant_id, true, &by).await? {
        // The open API's recent keys say the merchant is disabled: read them again.
        state.sessions.forget_all();
    }
    Ok(ApiOk(merchant_state(&state, request.merchant_id).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MerchantUserItem {
    pub user_id: i64,
    pub username: String,
    pub name: String,
    /// The user's role in the merchant (`/adminapi/staff/*` changes it).
    pub role: MerchantRole,
    /// Disabled by the merchant's owner: cannot sign in until enabled again.
    pub disabled: bool,
    /// Removed by the merchant's owner (kept for the record, never signs in again).
    pub removed: bool,
    /// Still holds a temporary password.
    pub must_change_password: bool,
    pub created_at: String,
    /// The latest sign-in (RFC 3339), null if never.
    pub last_sign_in: Option<String>,
    /// Two-factor authentication is on (an administrator may reset it: `user/reset2FA`).
    pub two_factor_enabled: bool,
}

/// The users of a merchant.
#[utoipa::path(post, path = "/adminapi/admin/merchant/users", tag = "admin", request_body = MerchantRef,
    responses((status = 200, description = "`data` is a list of MerchantUserItem", body = [MerchantUserItem]), (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn users(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<MerchantRef>,
) -> ApiResult<Vec<MerchantUserItem>> {
    if !crate::money::finance::merchant_exists(&state.db.pool, request.merchant_id).await? {
        return Err(AppError::NotFound);
    }
    let rows = store::users_of(&state.db.pool, request.merchant_id).await?;
    let items = rows
        .iter()
        .map(|row| -> Result<MerchantUserItem, AppError> {
            Ok(MerchantUserItem {
                user_id: row.try_get("id")?,
                username: row.try_get("username")?,
                name: row.try_get("name")?,
                role: stored_role(row)?,
                disabled: row.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
                removed: row.try_get::<Option<i64>, _>("removed_at")?.is_some(),
                must_change_password: row.try_get::<i64, _>("must_change_password")? != 0,
                created_at: millis_to_rfc3339(row.try_get("created_at")?),
                last_sign_in: row.try_get::<Option<i64>, _>("last_sign_in")?.map(millis_to_rfc3339),
                two_factor_enabled: row.try_get::<i64, _>("two_factor")? != 0,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(items))
}
