//! A merchant's staff (issue 52 §1): its owner lists, adds, disables, enables and removes
//! the merchant's users and gives each a role (`identity::permissions` says what each may
//! call), and may require two-factor of every user. The merchant's last enabled owner can
//! be neither removed, disabled nor given another role. Every change is audited and takes
//! effect at once (cached sessions are forgotten; a disabled or removed user's sessions end).
//!
//! A removed user is kept (orders, funding requests and the audit name it) but never signs
//! in again and is no longer listed; its username stays taken.
//!
//! The paths are the owner's (`permissions`); an administrator may call them too, naming
//! the merchant with `merchant_id`.

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::AdminMessage;
use crate::i18n::audit::AuditDetail;
use crate::i18n::security::SecurityDetail;
use crate::identity::permissions::MerchantRole;
use crate::identity::security_history as history;
use crate::identity::session::CurrentUser;
use crate::identity::users::repository::{
    MAX_USERNAME_LENGTH, NewMerchantUser, insert_merchant_user, stored_role, username_input,
};
use crate::platform::audit;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::password::NewPassword;
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

mod change;

use change::{Change, change, role_code};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/staff/list", post(list))
        .route("/adminapi/staff/add", post(add))
        .route("/adminapi/staff/setRole", post(set_role))
        .route("/adminapi/staff/disable", post(disable))
        .route("/adminapi/staff/enable", post(enable))
        .route("/adminapi/staff/remove", post(remove))
        .route("/adminapi/staff/requireTwoFactor", post(require_two_factor))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffListRequest {
    /// Administrators: the merchant. Its owners leave it out.
    #[serde(default)]
    pub merchant_id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StaffMember {
    pub user_id: i64,
    pub username: String,
    pub name: String,
    pub role: MerchantRole,
    /// Disabled by an owner: cannot sign in until enabled.
    pub disabled: bool,
    pub two_factor_enabled: bool,
    /// Still holds a temporary password an administrator set.
    pub must_change_password: bool,
    /// RFC 3339.
    pub created_at: String,
    /// The latest sign-in (RFC 3339); null if never.
    pub last_sign_in: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StaffList {
    /// Every user must turn two-factor on before anything else.
    pub require_two_factor: bool,
    pub items: Vec<StaffMember>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddStaffRequest {
    #[serde(default)]
    pub merchant_id: Option<i64>,
    /// Sign-in name: 1 to 64 characters without spaces, unique on the platform.
    #[schema(pattern = r"^\s*\S{1,64}\s*$")]
    pub username: String,
    /// The first password, which the owner hands over (the password rule applies).
    pub password: String,
    pub role: MerchantRole,
    /// Display name; the username when absent.
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffRef {
    #[serde(default)]
    pub merchant_id: Option<i64>,
    /// One of the merchant's users (`/adminapi/staff/list`).
    pub user_id: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SetRoleRequest {
    #[serde(default)]
    pub merchant_id: Option<i64>,
    pub user_id: i64,
    pub role: MerchantRole,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RequireTwoFactorRequest {
    #[serde(default)]
    pub merchant_id: Option<i64>,
    pub required: bool,
}

/// The merchant's users (removed ones are not listed) and whether two-factor is required.
#[utoipa::path(post, path = "/adminapi/staff/list", tag = "staff", request_body = StaffListRequest,
    responses((status = 200, description = "`data` is a StaffList", body = StaffList),
        (status = 422, description = "40000: an administrator named no merchant"),
        (status = 404, description = "40400: an administrator named no such merchant")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<StaffListRequest>,
) -> ApiResult<StaffList> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let require: Option<i64> = sqlx::query_scalar("SELECT require_two_factor FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&state.db.pool)
        .await?;
    let require = require.ok_or(AppError::NotFound)?;
    let rows = sqlx::query(
        "SELECT u.id, u.username, u.name, u.merchant_role, u.disabled_at, u.must_change_password, u.created_at,
                (SELECT MAX(s.created_at) FROM sessions s WHERE s.user_id = u.id) AS last_sign_in,
                (SELECT COUNT(*) FROM two_factor t WHERE t.user_id = u.id) AS two_factor
         FROM users u WHERE u.merchant_id = $1 AND u.removed_at IS NULL ORDER BY u.id",
    )
    .bind(merchant_id)
    .fetch_all(&state.db.pool)
    .await?;
    let items = rows
        .iter()
        .map(|row| -> Result<StaffMember, AppError> {
            Ok(StaffMember {
                user_id: row.try_get("id")?,
                username: row.try_get("username")?,
                name: row.try_get("name")?,
                role: stored_role(row)?,
                disabled: row.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
                two_factor_enabled: row.try_get::<i64, _>("two_factor")? != 0,
                must_change_password: row.try_get::<i64, _>("must_change_password")? != 0,
                created_at: millis_to_rfc3339(row.try_get("created_at")?),
                last_sign_in: row.try_get::<Option<i64>, _>("last_sign_in")?.map(millis_to_rfc3339),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(StaffList { require_two_factor: require != 0, items }))
}

/// Add a user to the merchant with a role and the password the owner chose.
#[utoipa::path(post, path = "/adminapi/staff/add", tag = "staff", request_body = AddStaffRequest,
    responses((status = 200, description = "`data` is the new StaffMember", body = StaffMember),
        (status = 422, description = "40000: the username or the password does not follow the rules"),
        (status = 409, description = "40900: the username is taken"),
        (status = 404, description = "40400: an administrator named no such merchant")),
    security(("token" = [])))]
pub async fn add(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<AddStaffRequest>,
) -> ApiResult<StaffMember> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let username = username_input(&request.username)
        .ok_or_else(|| AppError::unprocessable("username", AdminMessage::UsernameInvalid { max: MAX_USERNAME_LENGTH }))?
        .to_string();
    let password =
        NewPassword::parse(&request.password).map_err(|message| AppError::unprocessable("password", message))?;
    let name: String = request.name.unwrap_or_default().trim().chars().take(64).collect();
    let name = if name.is_empty() { username.clone() } else { name };
    let hash = state.hasher.hash(&password).await?;
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    // An administrator may name a merchant that does not exist.
    let merchant: Option<i64> = sqlx::query_scalar("SELECT id FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&mut *transaction)
        .await?;
    if merchant.is_none() {
        return Err(AppError::NotFound);
    }
    let user = NewMerchantUser {
        merchant_id,
        username: &username,
        display_name: &name,
        password_hash: &hash,
        role: request.role,
        // The owner chose the password and tells it: no temporary one to replace.
        must_change_password: false,
    };
    let user_id = insert_merchant_user(&mut transaction, &user, now).await?;
    let detail = AuditDetail::Staff {
        username: username.clone(),
        change: "added".into(),
        from: None,
        role: role_code(request.role),
    };
    let address = address.to_string();
    let target = audit::target::user(user_id);
    audit::record_detail(
        &mut *transaction,
        Some(caller.user_id),
        audit::action::STAFF_ADDED,
        &target,
        &detail,
        &address,
    )
    .await?;
    let detail = SecurityDetail::Staff { username: username.clone(), role: role_code(request.role), from: None };
    let event = history::Event::by(&caller, history::kind::STAFF_ADDED, detail, &address).in_merchant(merchant_id);
    history::record(&mut *transaction, &event).await?;
    transaction.commit().await?;
    Ok(ApiOk(StaffMember {
        user_id,
        username,
        name,
        role: request.role,
        disabled: false,
        two_factor_enabled: false,
        must_change_password: false,
        created_at: millis_to_rfc3339(now),
        last_sign_in: None,
    }))
}

/// Give a user another role. The last enabled owner keeps theirs (40900 `staff.last_owner`).
#[utoipa::path(post, path = "/adminapi/staff/setRole", tag = "staff", request_body = SetRoleRequest,
    responses((status = 200, description = "Changed; `data` is null"),
        (status = 422, description = "40000: an administrator named no merchant"),
        (status = 404, description = "40400: no such user of the merchant"),
        (status = 409, description = "40900: the merchant's last owner (`staff.last_owner`)")),
    security(("token" = [])))]
pub async fn set_role(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SetRoleRequest>,
) -> ApiResult<()> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let address = address.to_string();
    change(&state, &caller, &address, merchant_id, request.user_id, Change::Role(request.role)).await?;
    Ok(ApiOk(()))
}

/// Disable a user: their sessions end at once and they cannot sign in until enabled.
#[utoipa::path(post, path = "/adminapi/staff/disable", tag = "staff", request_body = StaffRef,
    responses((status = 200, description = "Disabled; `data` is null"),
        (status = 422, description = "40000: an administrator named no merchant"),
        (status = 404, description = "40400: no such user of the merchant"),
        (status = 409, description = "40900: the merchant's last owner (`staff.last_owner`)")),
    security(("token" = [])))]
pub async fn disable(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<StaffRef>,
) -> ApiResult<()> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let address = address.to_string();
    change(&state, &caller, &address, merchant_id, request.user_id, Change::Disable).await?;
    Ok(ApiOk(()))
}

/// Enable a disabled user again.
#[utoipa::path(post, path = "/adminapi/staff/enable", tag = "staff", request_body = StaffRef,
    responses((status = 200, description = "Enabled; `data` is null"),
        (status = 422, description = "40000: an administrator named no merchant"),
        (status = 404, description = "40400: no such user of the merchant")),
    security(("token" = [])))]
pub async fn enable(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<StaffRef>,
) -> ApiResult<()> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let address = address.to_string();
    change(&state, &caller, &address, merchant_id, request.user_id, Change::Enable).await?;
    Ok(ApiOk(()))
}

/// Remove a user: their sessions end, they never sign in again and are no longer listed
/// (what they did stays, under their name).
#[utoipa::path(post, path = "/adminapi/staff/remove", tag = "staff", request_body = StaffRef,
    responses((status = 200, description = "Removed; `data` is null"),
        (status = 422, description = "40000: an administrator named no merchant"),
        (status = 404, description = "40400: no such user of the merchant"),
        (status = 409, description = "40900: the merchant's last owner (`staff.last_owner`)")),
    security(("token" = [])))]
pub async fn remove(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<StaffRef>,
) -> ApiResult<()> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let address = address.to_string();
    change(&state, &caller, &address, merchant_id, request.user_id, Change::Remove).await?;
    Ok(ApiOk(()))
}

/// Require two-factor of every user of the merchant (or no longer): a user without it may
/// then only set it up, read who they are and sign out (40341 on everything else).
#[utoipa::path(post, path = "/adminapi/staff/requireTwoFactor", tag = "staff", request_body = RequireTwoFactorRequest,
    responses((status = 200, description = "Set; `data` is null"), (status = 404, description = "40400: no such merchant"),
        (status = 422, description = "40000: an administrator named no merchant")),
    security(("token" = [])))]
pub async fn require_two_factor(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<RequireTwoFactorRequest>,
) -> ApiResult<()> {
    let merchant_id = caller.acting_merchant(request.merchant_id)?;
    let mut transaction = state.db.begin_write().await?;
    let changed = sqlx::query("UPDATE merchants SET require_two_factor = $1 WHERE id = $2")
        .bind(i64::from(request.required))
        .bind(merchant_id)
        .execute(&mut *transaction)
        .await?
        .rows_affected();
    if changed == 0 {
        return Err(AppError::NotFound);
    }
    let detail = AuditDetail::StaffTwoFactor { required: request.required };
    let target = audit::target::merchant(merchant_id);
    let action = audit::action::STAFF_TWO_FACTOR_REQUIRED;
    let address = address.to_string();
    audit::record_detail(&mut *transaction, Some(caller.user_id), action, &target, &detail, &address).await?;
    let (kind, detail) =
        (history::kind::STAFF_TWO_FACTOR_REQUIRED, SecurityDetail::TwoFactorRequirement { required: request.required });
    history::record(&mut *transaction, &history::Event::by(&caller, kind, detail, &address).in_merchant(merchant_id))
        .await?;
    transaction.commit().await?;
    state.sessions.forget_all();
    Ok(ApiOk(()))
}
