//! The merchants' risk controls as settings (`domain::risk`): administrators read and save
//! them for a merchant (audited in the change's transaction), a merchant reads its own. The
//! server that saved them reloads its copy in memory at once; others within a second
//! (`platform::risk`).

use crate::domain::risk::RiskLimits;
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::TradeMessage;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::{AdminUser, CurrentUser};
use crate::platform::audit;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/merchant/risk", post(admin_view))
        .route("/adminapi/admin/merchant/risk/save", post(save))
        .route("/adminapi/merchant/risk", post(own))
}

/// A merchant's risk controls. 0 in a limit means no limit; amounts are fen.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RiskLimitsView {
    pub merchant_id: i64,
    /// One unfinished order (pending, processing, manual review) per number at a time.
    pub single_flight: bool,
    /// Orders per number per Beijing day (successful and unfinished ones count).
    pub number_daily_orders: i64,
    /// Fen per number per Beijing day (the orders' prices).
    pub number_daily_fen: i64,
    /// Fen of the merchant's orders per Beijing day (the orders' prices).
    pub daily_cap_fen: i64,
}

fn view(merchant_id: i64, limits: RiskLimits) -> RiskLimitsView {
    RiskLimitsView {
        merchant_id,
        single_flight: limits.single_flight,
        number_daily_orders: limits.number_daily_orders,
        number_daily_fen: limits.number_daily_fen,
        daily_cap_fen: limits.daily_cap_fen,
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantRiskRequest {
    pub merchant_id: i64,
}

async fn read(state: &AppState, merchant_id: i64) -> Result<RiskLimits, AppError> {
    Ok(state.risk.of(&state.db, merchant_id).await?)
}

/// A merchant's risk controls (administrators).
#[utoipa::path(post, path = "/adminapi/admin/merchant/risk", tag = "admin", request_body = MerchantRiskRequest,
    responses((status = 200, description = "`data` is RiskLimitsView", body = RiskLimitsView),
        (status = 403, description = "40300: not an administrator"), (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn admin_view(
    State(state): State<AppState>,
    AdminUser(_admin): AdminUser,
    JsonBody(request): JsonBody<MerchantRiskRequest>,
) -> ApiResult<RiskLimitsView> {
    if !crate::money::finance::merchant_exists(&state.db.pool, request.merchant_id).await? {
        return Err(AppError::NotFound);
    }
    Ok(ApiOk(view(request.merchant_id, read(&state, request.merchant_id).await?)))
}

/// The caller's own merchant's risk controls (read-only; administrators set them).
#[utoipa::path(post, path = "/adminapi/merchant/risk", tag = "merchant",
    responses((status = 200, description = "`data` is RiskLimitsView", body = RiskLimitsView),
        (status = 403, description = "40300: not a merchant user")),
    security(("token" = [])))]
pub async fn own(State(state): State<AppState>, caller: CurrentUser) -> ApiResult<RiskLimitsView> {
    let Some(merchant_id) = caller.merchant_id else { return Err(AppError::PermissionDenied) };
    Ok(ApiOk(view(merchant_id, read(&state, merchant_id).await?)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveRiskRequest {
    pub merchant_id: i64,
    pub single_flight: bool,
    /// Orders per number a day; 0: no limit.
    #[schema(minimum = 0)]
    pub number_daily_orders: i64,
    /// Fen per number a day; 0: no limit.
    #[schema(minimum = 0)]
    pub number_daily_fen: i64,
    /// Fen of the merchant's orders a day; 0: no limit.
    #[schema(minimum = 0)]
    pub daily_cap_fen: i64,
}

/// Save a merchant's risk controls (administrators; audited). They hold for the next order.
#[utoipa::path(post, path = "/adminapi/admin/merchant/risk/save", tag = "admin", request_body = SaveRiskRequest,
    responses((status = 200, description = "`data` is RiskLimitsView", body = RiskLimitsView),
        (status = 400, description = "40000: a limit below 0 (`risk.limit.invalid`)"),
        (status = 403, description = "40300: not an administrator"), (status = 404, description = "40400: no such merchant")),
    security(("token" = [])))]
pub async fn save(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SaveRiskRequest>,
) -> ApiResult<RiskLimitsView> {
    let limits = RiskLimits {
        single_flight: request.single_flight,
        number_daily_orders: request.number_daily_orders,
        number_daily_fen: request.number_daily_fen,
        daily_cap_fen: request.daily_cap_fen,
    };
    let fields: Vec<FieldError> = [
        ("number_daily_orders", limits.number_daily_orders),
        ("number_daily_fen", limits.number_daily_fen),
        ("daily_cap_fen", limits.daily_cap_fen),
    ]
    .into_iter()
    .filter(|(_, value)| *value < 0)
    .map(|(field, _)| FieldError::new(field, TradeMessage::RiskLimitInvalid.into()))
    .collect();
    if !fields.is_empty() {
        return Err(AppError::Validation(fields));
    }
    let merchant_id = request.merchant_id;
    let mut transaction = state.db.begin_write().await?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&mut *transaction)
        .await?;
    if exists.is_none() {
        return Err(AppError::NotFound);
    }
    // The table's newest revision says to every server that it changed (platform/risk.rs).
    sqlx::query(
        "INSERT INTO merchant_risk (merchant_id, single_flight, number_daily_orders, number_daily_fen, daily_cap_fen,
             revision, updated_at)
         VALUES ($1, $2, $3, $4, $5, (SELECT COALESCE(MAX(revision), 0) + 1 FROM merchant_risk), $6)
         ON CONFLICT (merchant_id) DO UPDATE SET single_flight = excluded.single_flight,
             number_daily_orders = excluded.number_daily_orders, number_daily_fen = excluded.number_daily_fen,
             daily_cap_fen = excluded.daily_cap_fen, revision = excluded.revision, updated_at = excluded.updated_at",
    )
    .bind(merchant_id)
    .bind(i64::from(limits.single_flight))
    .bind(limits.number_daily_orders)
    .bind(limits.number_daily_fen)
    .bind(limits.daily_cap_fen)
    .bind(now_millis())
    .execute(&mut *transaction)
    .await?;
    let detail = AuditDetail::RiskLimitsSaved {
        single_flight: limits.single_flight,
        number_daily_orders: limits.number_daily_orders,
        number_daily_fen: limits.number_daily_fen,
        daily_cap_fen: limits.daily_cap_fen,
    };
    let target = audit::target::merchant(merchant_id);
    let address = address.to_string();
    let action = audit::action::RISK_LIMITS_SAVED;
    audit::record_detail(&mut *transaction, Some(admin.user_id), action, &target, &detail, &address).await?;
    transaction.commit().await?;
    state.risk.reload(&state.db).await?;
    Ok(ApiOk(view(merchant_id, limits)))
}
