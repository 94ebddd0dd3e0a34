//! API keys of the merchant open API: `/adminapi/apikey/{create,list,revoke}` (the
//! signature helper, `signCheck`, is the open API's: `merchant_api/sign_check.rs`).
//!
//! A merchant creates a key with its current password (and its two-factor code when it
//! has two-factor on); the secret is answered once and kept only sealed. Administrators
//! list and revoke any merchant's keys, and switch one to legacy MD5 signing
//! (`setLegacy`, `merchant_api/legacy.rs`). Every change is audited; creations and
//! revocations are told in the message center.

pub mod store;

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::audit::AuditDetail;
use crate::i18n::notices::Notice;
use crate::i18n::{Message, OpenApiMessage, UserCentreMessage};
use crate::identity::session::{CurrentUser, Role};
use crate::identity::two_factor::verification::CodeCheck;
use crate::platform::audit::{self, action};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/apikey/create", post(create))
        .route("/adminapi/apikey/list", post(list))
        .route("/adminapi/apikey/revoke", post(revoke))
        .route("/adminapi/apikey/setLegacy", post(set_legacy))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateKeyRequest {
    /// The current password.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub password: Option<String>,
    /// A two-factor code (authenticator or backup), required when two-factor is on.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "123456")]
    pub code: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedKey {
    pub key_id: String,
    /// Shown this once; the server keeps it only sealed.
    pub secret: String,
}

/// Merchants: create an API key (at most two active). The secret is in this answer only.
#[utoipa::path(post, path = "/adminapi/apikey/create", tag = "apikey", request_body = CreateKeyRequest,
    responses((status = 200, description = "`data` is a CreatedKey", body = CreatedKey),
        (status = 400, description = "40000: password missing"),
        (status = 401, description = "40110: two-factor code wrong"),
        (status = 403, description = "40300: the current password is wrong (`data.fields.password`), or not a merchant"),
        (status = 409, description = "40900: two active keys already"),
        (status = 429, description = "42900: too many wrong passwords or codes")),
    security(("token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<CreateKeyRequest>,
) -> ApiResult<CreatedKey> {
    let merchant_id = match (caller.role, caller.merchant_id) {
        (Role::User, Some(merchant_id)) => merchant_id,
        _ => return Err(AppError::PermissionDenied),
    };
    let password = request.password.unwrap_or_default();
    if password.is_empty() {
        return Err(AppError::field("password", Message::UserCentre(UserCentreMessage::CurrentPasswordRequired)));
    }
    let (pool, policy) = (&state.db.pool, &state.config.throttle);
    if !crate::identity::throttle::verify_current_password(pool, policy, &state.hasher, caller.user_id, &password)
        .await?
    {
        return Err(AppError::forbidden_on("password", Message::UserCentre(UserCentreMessage::CurrentPasswordWrong)));
    }
    let address = address.to_string();
    let check = CodeCheck {
        state: &state,
        user_id: caller.user_id,
        client_address: &address,
        purpose: "api_key_create",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    let (mut transaction, confirmed) =
        if crate::identity::two_factor::store::enabled_at(pool, caller.user_id).await?.is_some() {
            let when_off = AppError::Conflict(Message::TwoFactorNotEnabled);
            (check.confirm_enabled(request.code.as_ref(), when_off).await?, true)
        } else {
            (state.db.begin_write().await?, false)
        };
    store::lock_merchant(&mut transaction, merchant_id).await?;
    if store::count_active(&mut transaction, merchant_id).await? >= store::MAX_ACTIVE_KEYS as i64 {
        return Err(AppError::Conflict(OpenApiMessage::KeyLimitReached { max: store::MAX_ACTIVE_KEYS }.into()));
    }
    let (key_id, secret) = store::generate();
    let sealed = store::seal(&state.secrets, &key_id, &secret)?;
    store::insert(&mut transaction, &key_id, merchant_id, &sealed, Some(caller.user_id)).await?;
    announce(&mut transaction, merchant_id, &caller, &key_id, &address, true).await?;
    transaction.commit().await?;
    if confirmed {
        check.succeeded().await?;
    }
    Ok(ApiOk(CreatedKey { key_id, secret }))
}

/// Audits a change and tells the merchant's accounts in the message center, in the change's
/// transaction: neither is lost to a failure after the commit, nor written for a change that
/// did not commit.
async fn announce(
    connection: &mut sqlx::AnyConnection,
    merchant_id: i64,
    caller: &CurrentUser,
    key_id: &str,
    address: &str,
    created: bool,
) -> Result<(), AppError> {
    use crate::identity::user_centre::inbox::{Notification, notify_merchant};
    let (action, title) = if created {
        (action::API_KEY_CREATED, Notice::ApiKeyCreated)
    } else {
        (action::API_KEY_REVOKED, Notice::ApiKeyRevoked)
    };
    let detail = AuditDetail::ApiKey { merchant_id, key_id: key_id.to_string() };
    let target = audit::target::merchant(merchant_id);
    audit::record_detail(&mut *connection, Some(caller.user_id), action, &target, &detail, address).await?;
    {
        use crate::identity::security_history::{self as history, kind};
        let kind = if created { kind::API_KEY_CREATED } else { kind::API_KEY_REVOKED };
        let detail = crate::i18n::security::SecurityDetail::ApiKey { key_id: key_id.to_string() };
        let event = history::Event::by(caller, kind, detail, address).in_merchant(merchant_id);
        history::record(&mut *connection, &event).await?;
    }
    let content =
        Notice::ApiKeyChange { key_id: key_id.to_string(), by: caller.username.clone(), address: address.to_string() };
    let (title, sub_title, content) = (title.stored(), Notice::AccountSecurity.stored(), content.stored());
    let notification = Notification::notice(&title, &sub_title, &content, 2);
    notify_merchant(connection, merchant_id, notification).await?;
    Ok(())
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ListKeysRequest {
    /// Administrators: one merchant's keys (all merchants' when omitted).
    pub mid: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct KeyItem {
    pub key_id: String,
    pub mid: i64,
    pub created_at: String,
    pub created_by: Option<String>,
    pub last_used_at: Option<String>,
    pub last_used_address: Option<String>,
    /// `active` or `revoked`.
    pub state: &'static str,
    pub revoked_at: Option<String>,
    /// Whether the key also accepts legacy MD5 signatures (switched by an administrator).
    pub legacy_md5: bool,
}

/// The caller's keys (a merchant), or any merchant's (an administrator), newest first.
#[utoipa::path(post, path = "/adminapi/apikey/list", tag = "apikey", request_body = ListKeysRequest,
    responses((status = 200, description = "`data` is a list of KeyItem", body = [KeyItem]), (status = 403, description = "40300: another merchant's mid")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<ListKeysRequest>,
) -> ApiResult<Vec<KeyItem>> {
    let scope = caller.scope(request.mid)?;
    const COLUMNS: &str = "SELECT k.key_id, k.merchant_id, k.created_at, u.username, k.last_used_at,
         k.last_used_address, k.revoked_at, k.legacy_md5 FROM api_keys k LEFT JOIN users u ON u.id = k.created_by";
    let rows = match scope {
        Some(merchant_id) => {
            sqlx::query(sqlx::AssertSqlSafe(format!("{COLUMNS} WHERE k.merchant_id = $1 ORDER BY k.id DESC LIMIT 500")))
                .bind(merchant_id)
                .fetch_all(&state.db.pool)
                .await?
        }
        None => {
            sqlx::query(sqlx::AssertSqlSafe(format!("{COLUMNS} ORDER BY k.id DESC LIMIT 500")))
                .fetch_all(&state.db.pool)
                .await?
        }
    };
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        let revoked_at: Option<i64> = row.try_get(6)?;
        items.push(KeyItem {
            key_id: row.try_get(0)?,
            mid: row.try_get(1)?,
            created_at: millis_to_rfc3339(row.try_get(2)?),
            created_by: row.try_get(3)?,
            last_used_at: row.try_get::<Option<i64>, _>(4)?.map(millis_to_rfc3339),
            last_used_address: row.try_get(5)?,
            state: if revoked_at.is_some() { "revoked" } else { "active" },
            revoked_at: revoked_at.map(millis_to_rfc3339),
            legacy_md5: row.try_get::<i64, _>(7)? != 0,
        });
    }
    Ok(ApiOk(items))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RevokeKeyRequest {
    pub key_id: String,
}

/// Revokes a key at once: the next request signed with it is refused (40131).
#[utoipa::path(post, path = "/adminapi/apikey/revoke", tag = "apikey", request_body = RevokeKeyRequest,
    responses((status = 200, description = "Revoked; `data` is null"),
        (status = 404, description = "40400: no such key (or another merchant's)"),
        (status = 409, description = "40900: already revoked")),
    security(("token" = [])))]
pub async fn revoke(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<RevokeKeyRequest>,
) -> ApiResult<()> {
    let pool = &state.db.pool;
    let row = sqlx::query("SELECT merchant_id, revoked_at FROM api_keys WHERE key_id = $1")
        .bind(&request.key_id)
        .fetch_optional(pool)
        .await?
        .ok_or(AppError::NotFound)?;
    let merchant_id: i64 = row.try_get(0)?;
    if caller.role == Role::User && caller.merchant_id != Some(merchant_id) {
        return Err(AppError::NotFound);
    }
    let mut transaction = state.db.begin_write().await?;
    let revoked =
        sqlx::query("UPDATE api_keys SET revoked_at = $1, revoked_by = $2 WHERE key_id = $3 AND revoked_at IS NULL")
            .bind(now_millis())
            .bind(caller.user_id)
            .bind(&request.key_id)
            .execute(&mut *transaction)
            .await?;
    if revoked.rows_affected() == 0 {
        return Err(AppError::Conflict(OpenApiMessage::KeyAlreadyRevoked.into()));
    }
    announce(&mut transaction, merchant_id, &caller, &request.key_id, &address.to_string(), false).await?;
    transaction.commit().await?;
    // The open API's recent keys (`crate::identity::recent`) are read again.
    state.sessions.forget_all();
    Ok(ApiOk(()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SetLegacyRequest {
    pub key_id: String,
    /// true: the key also accepts legacy MD5 signatures; false: HMAC-SHA256 only.
    pub enabled: bool,
}

/// Administrators: switch one active key to (or back from) legacy MD5 signing over sorted
/// parameters, for a merchant migrating from another platform. Off by default; audited.
#[utoipa::path(post, path = "/adminapi/apikey/setLegacy", tag = "apikey", request_body = SetLegacyRequest,
    responses((status = 200, description = "Switched; `data` is null"),
        (status = 403, description = "40300: not an administrator"),
        (status = 404, description = "40400: no such key"),
        (status = 409, description = "40900: the key is revoked")),
    security(("token" = [])))]
pub async fn set_legacy(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SetLegacyRequest>,
) -> ApiResult<()> {
    if caller.role != Role::Admin {
        return Err(AppError::PermissionDenied);
    }
    let pool = &state.db.pool;
    let row = sqlx::query("SELECT merchant_id, revoked_at FROM api_keys WHERE key_id = $1")
        .bind(&request.key_id)
        .fetch_optional(pool)
        .await?
        .ok_or(AppError::NotFound)?;
    let merchant_id: i64 = row.try_get(0)?;
    if row.try_get::<Option<i64>, _>(1)?.is_some() {
        return Err(AppError::Conflict(OpenApiMessage::KeyAlreadyRevoked.into()));
    }
    // The switch and its audit record commit together.
    let mut transaction = state.db.begin_write().await?;
    sqlx::query("UPDATE api_keys SET legacy_md5 = $1 WHERE key_id = $2")
        .bind(i64::from(request.enabled))
        .bind(&request.key_id)
        .execute(&mut *transaction)
        .await?;
    let action = if request.enabled { action::API_KEY_LEGACY_ON } else { action::API_KEY_LEGACY_OFF };
    let detail = AuditDetail::ApiKey { merchant_id, key_id: request.key_id.to_string() };
    let target = audit::target::user(caller.user_id);
    let address = address.to_string();
    audit::record_detail(&mut *transaction, Some(caller.user_id), action, &target, &detail, &address).await?;
    {
        use crate::identity::security_history::{self as history, kind};
        let kind = if request.enabled { kind::API_KEY_LEGACY_ON } else { kind::API_KEY_LEGACY_OFF };
        let detail = crate::i18n::security::SecurityDetail::ApiKey { key_id: request.key_id.to_string() };
        let event = history::Event::by(&caller, kind, detail, &address).in_merchant(merchant_id);
        history::record(&mut *transaction, &event).await?;
    }
    transaction.commit().await?;
    state.sessions.forget_all();
    Ok(ApiOk(()))
}
