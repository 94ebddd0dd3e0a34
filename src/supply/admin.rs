//! The administrators' channel API: list with live figures, create/edit (the secret is
//! write-only: never answered), enable/disable, test connection, product costs, and a
//! routing preview. Every call checks the administrator role on the server (`AdminUser`).

use super::figures::{self, ChannelFigures};
use super::setup::{self, ChannelSpec};
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::http::notify_guard::{NotifyUrlError, check_notify_url_with};
use crate::i18n::ChannelMessage;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::AdminUser;
use crate::platform::audit::{self, action};
use crate::platform::channel::model::{self, ADAPTERS, ChannelRow};
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const MAX_CODE_LENGTH: usize = 32;
pub const MAX_NAME_LENGTH: usize = 64;
pub const TIMEOUT_RANGE_MS: (i64, i64) = (100, 60_000);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/channel/list", post(list))
        .route("/adminapi/admin/channel/save", post(save))
        .route("/adminapi/admin/channel/enable", post(enable))
        .route("/adminapi/admin/channel/test", post(test))
        .route("/adminapi/admin/channel/products", post(super::admin_supplies::products))
        .route("/adminapi/admin/channel/products/save", post(super::admin_supplies::save_products))
        .route("/adminapi/admin/channel/coverage/export", get(super::admin_coverage::export))
        .route("/adminapi/admin/channel/routing", post(super::admin_routing::preview))
        .route("/adminapi/admin/channel/reconcile", post(super::admin_reconcile::reconcile))
        .route("/adminapi/admin/channel/reconcile/export", get(super::admin_reconcile::export))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelItem {
    pub id: i64,
    pub code: String,
    pub name: String,
    /// `sandbox` or `http-json`.
    pub adapter: String,
    pub base_url: String,
    /// Whether a secret is set (the secret itself is never answered).
    pub has_secret: bool,
    pub timeout_ms: i64,
    pub enabled: bool,
    /// Paused by the health check until then (RFC 3339); null when not paused.
    pub paused_until: Option<String>,
    /// `low_success_ratio`, `unknown_streak` or `probe_failed`.
    pub pause_reason: Option<String>,
    /// Last balance read, fen; null when the protocol does not tell it.
    pub balance_fen: Option<i64>,
    pub balance_at: Option<String>,
    pub low_balance_fen: i64,
    pub figures: ChannelFigures,
}

fn item(row: ChannelRow, figures: ChannelFigures) -> ChannelItem {
    ChannelItem {
        id: row.id,
        has_secret: row.secret_sealed.is_some(),
        code: row.code,
        name: row.name,
        adapter: row.adapter,
        base_url: row.base_url,
        timeout_ms: row.timeout_ms,
        enabled: row.enabled,
        paused_until: row.paused_until.map(millis_to_rfc3339),
        pause_reason: row.pause_reason,
        balance_fen: row.balance_fen,
        balance_at: row.balance_at.map(millis_to_rfc3339),
        low_balance_fen: row.low_balance_fen,
        figures,
    }
}

/// Every channel with its live figures.
#[utoipa::path(post, path = "/adminapi/admin/channel/list", tag = "channels",
    responses((status = 200, description = "`data` is a list of ChannelItem", body = [ChannelItem]), (status = 403, description = "40300: administrators only")),
    security(("token" = [])))]
pub async fn list(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Vec<ChannelItem>> {
    let mut items = Vec::new();
    for row in model::all(&state.db.pool).await? {
        let figures = figures::of_channel(&state.db.pool, row.id).await?;
        items.push(item(row, figures));
    }
    Ok(ApiOk(items))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveChannelRequest {
    /// 1 to 32 lowercase letters, digits and hyphens; it names the callback URL and never changes.
    #[schema(pattern = r"^\s*[a-z0-9-]{1,32}\s*$")]
    pub code: String,
    /// 1 to 64 characters.
    #[schema(pattern = r"^\s*\S([\s\S]{0,62}\S)?\s*$")]
    pub name: String,
    /// `http-json`, or `sandbox` (only the built-in sandbox channel keeps it).
    #[schema(pattern = "^(sandbox|http-json)$")]
    pub adapter: String,
    /// The supplier's address (`http-json`): http(s), not a private address.
    #[serde(default)]
    pub base_url: String,
    /// The shared signing secret; omitted or empty on an edit: unchanged.
    pub secret: Option<String>,
    #[serde(default = "default_timeout")]
    #[schema(minimum = 100, maximum = 60000)]
    pub timeout_ms: i64,
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Warn below this balance, fen.
    #[serde(default)]
    #[schema(minimum = 0)]
    pub low_balance_fen: i64,
}

fn default_timeout() -> i64 {
    5_000
}

fn yes() -> bool {
    true
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SavedChannel {
    pub id: i64,
}

/// Create a channel, or edit the one with this code.
#[utoipa::path(post, path = "/adminapi/admin/channel/save", tag = "channels", request_body = SaveChannelRequest,
    responses((status = 200, description = "`data` is SavedChannel", body = SavedChannel),
        (status = 400, description = "40000: a field is not of the documented form"),
        (status = 403, description = "40300: administrators only"),
        (status = 422, description = "40000: the sandbox protocol for another channel (or another for the sandbox), \
            a base URL that is not http(s) or is private, or a new http-json channel without a secret")),
    security(("token" = [])))]
pub async fn save(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SaveChannelRequest>,
) -> ApiResult<SavedChannel> {
    let code = request.code.trim().to_string();
    let existing = model::by_code(&state.db.pool, &code).await?;
    let secret = request.secret.as_deref().map(str::trim).filter(|secret| !secret.is_empty());
    // `errors`: the document's own constraints (400); `refused`: rules beyond them (422).
    let (mut errors, mut refused) = (Vec::new(), Vec::new());
    let code_valid = !code.is_empty()
        && code.len() <= MAX_CODE_LENGTH
        && code.bytes().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-');
    if !code_valid {
        errors.push(FieldError::new("code", ChannelMessage::CodeInvalid { max: MAX_CODE_LENGTH }.into()));
    }
    let name = request.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_LENGTH {
        errors.push(FieldError::new("name", ChannelMessage::NameRequired { max: MAX_NAME_LENGTH }.into()));
    }
    let sandbox = existing.as_ref().is_some_and(|row| row.adapter == "sandbox");
    if !ADAPTERS.contains(&request.adapter.as_str()) {
        errors.push(FieldError::new("adapter", ChannelMessage::AdapterUnknown.into()));
    } else if sandbox && request.adapter != "sandbox" {
        refused.push(FieldError::new("adapter", ChannelMessage::SandboxFixed.into()));
    } else if request.adapter == "sandbox" && !sandbox {
        refused.push(FieldError::new("adapter", ChannelMessage::AdapterUnknown.into()));
    }
    if request.adapter == "http-json" {
        // The same SSRF guard as notify URLs; resolved addresses are checked again at
        // every connection (registry.rs).
        match check_notify_url_with(&request.base_url, state.config.channel.allow_private) {
            Ok(_) => {}
            Err(NotifyUrlError::Invalid) => {
                refused.push(FieldError::new("base_url", ChannelMessage::BaseUrlInvalid.into()))
            }
            Err(NotifyUrlError::PrivateDestination(host)) => {
                refused.push(FieldError::new("base_url", ChannelMessage::BaseUrlPrivate { host }.into()))
            }
        }
        if secret.is_none() && existing.as_ref().is_none_or(|row| row.secret_sealed.is_none()) {
            refused.push(FieldError::new("secret", ChannelMessage::SecretRequired.into()));
        }
    }
    let (min, max) = TIMEOUT_RANGE_MS;
    if !(min..=max).contains(&request.timeout_ms) {
        errors.push(FieldError::new("timeout_ms", ChannelMessage::TimeoutOutOfRange { min, max }.into()));
    }
    if request.low_balance_fen < 0 {
        errors.push(FieldError::new("low_balance_fen", ChannelMessage::CostInvalid.into()));
    }
    if !errors.is_empty() {
        errors.extend(refused);
        return Err(AppError::Validation(errors));
    }
    if !refused.is_empty() {
        return Err(AppError::Unprocessable(refused));
    }
    let spec = ChannelSpec {
        code: &code,
        name,
        adapter: &request.adapter,
        base_url: if sandbox { "" } else { request.base_url.trim() },
        secret,
        timeout_ms: request.timeout_ms,
        enabled: request.enabled,
        low_balance_fen: request.low_balance_fen,
    };
    // The channel and its audit record commit together.
    let mut transaction = state.db.begin_write().await?;
    let id = setup::upsert(&mut *transaction, &state.secrets, &spec).await?;
    // Never the secret in the trail: only that it changed.
    let detail = AuditDetail::ChannelSaved { code: code.clone(), secret_set: secret.is_some() };
    let (event, address) = (action::CHANNEL_SAVED, address.to_string());
    audit::record_detail(&mut *transaction, Some(admin.user_id), event, &audit::target::channel(id), &detail, &address)
        .await?;
    transaction.commit().await?;
    Ok(ApiOk(SavedChannel { id }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = ChannelEnableRequest)]
pub struct EnableRequest {
    pub id: i64,
    pub enabled: bool,
}

/// Enable or disable a channel (a disabled one takes no new orders; those it has keep going).
#[utoipa::path(post, path = "/adminapi/admin/channel/enable", tag = "channels", request_body = EnableRequest,
    responses((status = 200, description = "Done"), (status = 404, description = "40400: no such channel")),
    security(("token" = [])))]
pub async fn enable(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<EnableRequest>,
) -> ApiResult<()> {
    // The switch, its audit record and the other administrators' notice commit together.
    let mut transaction = state.db.begin_write().await?;
    let switched = setup::switch(&mut transaction, request.id, request.enabled).await?;
    let Some((name, was_enabled)) = switched else { return Err(AppError::NotFound) };
    let detail = AuditDetail::ChannelEnabled { enabled: request.enabled };
    let (event, target, address) = (action::CHANNEL_ENABLED, audit::target::channel(request.id), address.to_string());
    audit::record_detail(&mut *transaction, Some(admin.user_id), event, &target, &detail, &address).await?;
    if was_enabled && !request.enabled {
        super::notices::switched_off(&mut transaction, request.id, &name, &admin).await?;
    }
    transaction.commit().await?;
    Ok(ApiOk(()))
}

/// A channel named by its id (shared with the supplies' calls, which own it).
pub use super::admin_supplies::ChannelIdRequest;

#[derive(Debug, Serialize, ToSchema)]
pub struct TestResult {
    pub ok: bool,
    pub latency_ms: i64,
    pub balance_fen: Option<i64>,
    /// Why not, when not (the channel's or the network's words).
    pub error: Option<String>,
}

/// Test the connection: a balance read (signed both ways), timed.
#[utoipa::path(post, path = "/adminapi/admin/channel/test", tag = "channels", request_body = ChannelIdRequest,
    responses((status = 200, description = "`data` is TestResult", body = TestResult), (status = 404, description = "40400: no such channel")),
    security(("token" = [])))]
pub async fn test(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<ChannelIdRequest>,
) -> ApiResult<TestResult> {
    let row = model::by_id(&state.db.pool, request.id).await?.ok_or(AppError::NotFound)?;
    let adapter = state.channels.adapter(&row)?;
    let started = std::time::Instant::now();
    let answer = adapter.balance().await;
    let latency_ms = started.elapsed().as_millis() as i64;
    Ok(ApiOk(match answer {
        Ok(balance_fen) => TestResult { ok: true, latency_ms, balance_fen, error: None },
        Err(error) => TestResult { ok: false, latency_ms, balance_fen: None, error: Some(format!("{error:#}")) },
    }))
}
