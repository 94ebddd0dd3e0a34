//! Administrators fund merchants: top up a balance, set a credit limit, record a
//! repayment, adjust; and list merchants with their figures. Each call is one
//! transaction through the ledger, so each writes its account-change record. Each
//! accepts an `Idempotency-Key` (see `crate::http::idempotency`): a retried call moves nothing.

use super::ledger::{Account, Actor, Ledger};
use crate::domain::{MAX_AMOUNT_FEN, Money};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, IdempotentJson, JsonBody};
use crate::http::idempotency::{Claim, IdempotencyKeyHeader, IdempotentRequest, Replayable};
use crate::http::pagination::PageNumber;
use crate::i18n::TradeMessage;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::AdminUser;
use crate::platform::audit::{self, action};
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/merchant/list", post(list))
        .route("/adminapi/admin/merchant/topup", post(top_up))
        .route("/adminapi/admin/merchant/credit", post(set_credit))
        .route("/adminapi/admin/merchant/repay", post(repay))
        .route("/adminapi/admin/merchant/adjust", post(adjust))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantListRequest {
    /// Part of the merchant's name, or its exact mid.
    pub keyword: Option<String>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MerchantFigures {
    pub merchant_id: i64,
    pub name: String,
    pub balance_fen: i64,
    pub credit_limit_fen: i64,
    pub credit_used_fen: i64,
    pub credit_available_fen: i64,
    pub total_topup_fen: i64,
    pub created_at: String,
    /// When an administrator disabled the merchant (RFC 3339); null while enabled.
    pub disabled_at: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MerchantListResponse {
    pub list: Vec<MerchantFigures>,
    pub total: i64,
}

/// Merchants with their balance and credit figures, by mid.
#[utoipa::path(post, path = "/adminapi/admin/merchant/list", tag = "admin", request_body = MerchantListRequest,
    responses((status = 200, description = "`data` is a MerchantListResponse", body = MerchantListResponse), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<MerchantListRequest>,
) -> ApiResult<MerchantListResponse> {
    let page = request.paging.checked()?;
    let keyword = request.keyword.unwrap_or_default().trim().to_string();
    let pattern = format!("%{}%", keyword.replace(['%', '_'], ""));
    let mid = keyword.parse::<i64>().unwrap_or(-1);
    let filter = "WHERE ($1 = '' OR m.name LIKE $2 OR m.id = $3)";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM merchants m {filter}")))
        .bind(&keyword)
        .bind(&pattern)
        .bind(mid)
        .fetch_one(&state.db.pool)
        .await?;
    let sql = format!(
        "SELECT m.id, m.name, m.created_at, COALESCE(a.balance_fen, 0), COALESCE(a.credit_limit_fen, 0),
                COALESCE(a.credit_used_fen, 0), COALESCE(a.total_topup_fen, 0), m.disabled_at
         FROM merchants m LEFT JOIN merchant_accounts a ON a.merchant_id = m.id {filter}
         ORDER BY m.id LIMIT $4 OFFSET $5"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(&keyword)
        .bind(&pattern)
        .bind(mid)
        .bind(page.page_size)
        .bind(page.offset())
        .fetch_all(&state.db.pool)
        .await?;
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        let account = Account {
            balance_fen: row.try_get(3)?,
            credit_limit_fen: row.try_get(4)?,
            credit_used_fen: row.try_get(5)?,
            total_topup_fen: row.try_get(6)?,
        };
        list.push(MerchantFigures {
            merchant_id: row.try_get(0)?,
            name: row.try_get(1)?,
            created_at: millis_to_rfc3339(row.try_get(2)?),
            balance_fen: account.balance_fen,
            credit_limit_fen: account.credit_limit_fen,
            credit_used_fen: account.credit_used_fen,
            credit_available_fen: account.credit_available(),
            total_topup_fen: account.total_topup_fen,
            disabled_at: row.try_get::<Option<i64>, _>(7)?.map(millis_to_rfc3339),
        });
    }
    Ok(ApiOk(MerchantListResponse { list, total }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FundingRequest {
    pub merchant_id: i64,
    /// fen, positive, at most 100 million yuan.
    #[schema(minimum = 1, maximum = 10000000000.0)]
    pub amount_fen: i64,
    /// Shown in the account-change record (the first 200 characters are kept).
    pub remark: Option<String>,
}

/// An adjustment: signed and non-zero, and it says what it corrects.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AdjustRequest {
    pub merchant_id: i64,
    /// fen, non-zero, at most 100 million yuan either way.
    #[schema(schema_with = adjustment_amount)]
    pub amount_fen: i64,
    /// What the adjustment corrects (not blank; the first 200 characters are kept).
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub remark: Option<String>,
}

/// `Money::adjustment`: -MAX..=-1 or 1..=MAX.
fn adjustment_amount() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
    let range = |low: i64, high: i64| {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Integer))
            .minimum(Some(low as f64))
            .maximum(Some(high as f64))
    };
    Schema::OneOf(OneOfBuilder::new().item(range(-MAX_AMOUNT_FEN, -1)).item(range(1, MAX_AMOUNT_FEN)).build())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreditRequest {
    pub merchant_id: i64,
    /// The new total credit limit, fen (0 or more, not below the credit in use).
    #[schema(minimum = 0, maximum = 10000000000.0)]
    pub credit_limit_fen: i64,
    pub remark: Option<String>,
}

fn remark(text: Option<String>) -> String {
    text.unwrap_or_default().trim().chars().take(200).collect()
}

/// What a funding call does, for the audit trail and the merchant's notice: its action,
/// amount and remark.
struct Audited {
    action: &'static str,
    amount_fen: i64,
    remark: String,
    address: String,
}

impl Audited {
    fn new(action: &'static str, amount_fen: i64, remark: &str, address: &ClientAddress) -> Self {
        Self { action, amount_fen, remark: remark.to_string(), address: address.0.to_string() }
    }
}

/// A money call's transaction, opened after the checks every one of them makes, or the
/// first call's answer when its `Idempotency-Key` was used for this very request before.
pub enum Opened {
    Fresh(sqlx::Transaction<'static, sqlx::Any>),
    Replayed(serde_json::Value),
}

/// Opens an administrator's money call on a merchant's account: the merchant exists, the
/// session confirmed two-factor when it is on (step-up), and the key (if any) is claimed in
/// the transaction, so the money, its records and the stored answer commit together. The
/// top-ups below and the approval of a merchant's funding request (`money::funding`) start so.
pub async fn open_money_call(
    state: &AppState,
    admin: &AdminUser,
    merchant_id: i64,
    idempotency: Option<&IdempotentRequest>,
) -> Result<Opened, AppError> {
    if !super::merchant_exists(&state.db.pool, merchant_id).await? {
        return Err(AppError::NotFound);
    }
    crate::identity::step_up::require(state, &admin.0).await?;
    let mut transaction = state.db.begin_write().await?;
    if let Some(request) = idempotency {
        match request.claim(&mut transaction, admin.0.user_id).await? {
            Claim::Fresh => {}
            Claim::Replay(answer) => return Ok(Opened::Replayed(answer.unwrap_or_default())),
            Claim::Mismatch => return Err(AppError::IdempotencyKeyReused),
        }
    }
    Ok(Opened::Fresh(transaction))
}

/// Runs one funding change in a transaction opened by [`open_money_call`]. The audit row is
/// written in the same transaction: a change is never without its row, and a replay
/// (nothing moved) writes none.
async fn fund(
    state: &AppState,
    admin: &AdminUser,
    merchant_id: i64,
    idempotency: Option<IdempotentRequest>,
    audited: Audited,
    change: impl FnOnce(&mut Ledger) -> Result<(), AppError>,
) -> ApiResult<Replayable<Account>> {
    let user_id = admin.0.user_id;
    let mut transaction = match open_money_call(state, admin, merchant_id, idempotency.as_ref()).await? {
        Opened::Fresh(transaction) => transaction,
        Opened::Replayed(answer) => return Ok(ApiOk(Replayable::Replayed(answer))),
    };
    let mut ledger =
        Ledger::open(&mut transaction, merchant_id, Actor::user(admin.0.user_id, &admin.0.username)).await?;
    change(&mut ledger)?;
    let account = ledger.flush(&mut transaction).await?;
    let target = audit::target::merchant(merchant_id);
    let detail = AuditDetail::Money { amount_fen: audited.amount_fen, remark: audited.remark.clone() };
    audit::record_detail(&mut *transaction, Some(user_id), audited.action, &target, &detail, &audited.address).await?;
    // The merchant hears of money moved on its account with the move (a replay moved none).
    super::alerts::funded(&mut transaction, merchant_id, audited.action, audited.amount_fen, &audited.remark).await?;
    if let Some(request) = &idempotency {
        request.store_answer(&mut transaction, user_id, &account).await?;
    }
    transaction.commit().await?;
    Ok(ApiOk(Replayable::Fresh(account)))
}

fn positive(amount: i64) -> Result<i64, AppError> {
    Money::positive(amount).map(Money::fen).ok_or_else(|| AppError::field("amount_fen", TradeMessage::AmountInvalid))
}

/// Add to a merchant's balance (also counts towards its cumulative top-up).
#[utoipa::path(post, path = "/adminapi/admin/merchant/topup", tag = "admin", request_body = FundingRequest,
    responses((status = 200, description = "`data` is the merchant's Account after the change (with a repeated `Idempotency-Key`: the first call's answer, nothing moved)", body = Account), (status = 422, description = "42200: the `Idempotency-Key` was used for a different request"), (status = 404, description = "40400: no such merchant")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn top_up(
    State(state): State<AppState>,
    admin: AdminUser,
    address: ClientAddress,
    IdempotentJson(request, idempotency): IdempotentJson<FundingRequest>,
) -> ApiResult<Replayable<Account>> {
    let amount = positive(request.amount_fen)?;
    let text = remark(request.remark);
    let audited = Audited::new(action::MONEY_TOP_UP, amount, &text, &address);
    fund(&state, &admin, request.merchant_id, idempotency, audited, |ledger| {
        ledger.top_up(amount, &text);
        Ok(())
    })
    .await
}

/// Set a merchant's total credit limit; never below the credit in use.
#[utoipa::path(post, path = "/adminapi/admin/merchant/credit", tag = "admin", request_body = CreditRequest,
    responses((status = 200, description = "`data` is the merchant's Account after the change (with a repeated `Idempotency-Key`: the first call's answer, nothing moved)", body = Account), (status = 422, description = "42200: the `Idempotency-Key` was used for a different request"), (status = 404, description = "40400: no such merchant"), (status = 409, description = "40900: below the credit in use")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn set_credit(
    State(state): State<AppState>,
    admin: AdminUser,
    address: ClientAddress,
    IdempotentJson(request, idempotency): IdempotentJson<CreditRequest>,
) -> ApiResult<Replayable<Account>> {
    let limit = Money::non_negative(request.credit_limit_fen)
        .ok_or_else(|| AppError::field("credit_limit_fen", TradeMessage::AmountInvalid))?
        .fen();
    let text = remark(request.remark);
    let audited = Audited::new(action::MONEY_CREDIT_LIMIT, limit, &text, &address);
    fund(&state, &admin, request.merchant_id, idempotency, audited, |ledger| {
        if limit < ledger.account().credit_used_fen {
            return Err(AppError::conflict_on("credit_limit_fen", TradeMessage::CreditLimitBelowUsed));
        }
        ledger.set_credit_limit(limit, &text);
        Ok(())
    })
    .await
}

/// Record that the merchant paid back part of its credit in use.
#[utoipa::path(post, path = "/adminapi/admin/merchant/repay", tag = "admin", request_body = FundingRequest,
    responses((status = 200, description = "`data` is the merchant's Account after the change (with a repeated `Idempotency-Key`: the first call's answer, nothing moved)", body = Account), (status = 422, description = "42200: the `Idempotency-Key` was used for a different request"), (status = 404, description = "40400: no such merchant"), (status = 409, description = "40900: more than the credit in use")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn repay(
    State(state): State<AppState>,
    admin: AdminUser,
    address: ClientAddress,
    IdempotentJson(request, idempotency): IdempotentJson<FundingRequest>,
) -> ApiResult<Replayable<Account>> {
    let amount = positive(request.amount_fen)?;
    let text = remark(request.remark);
    let audited = Audited::new(action::MONEY_REPAYMENT, amount, &text, &address);
    fund(&state, &admin, request.merchant_id, idempotency, audited, |ledger| {
        if amount > ledger.account().credit_used_fen {
            return Err(AppError::conflict_on("amount_fen", TradeMessage::RepaymentTooLarge));
        }
        ledger.repay(amount, &text);
        Ok(())
    })
    .await
}

/// Correct a balance by a signed amount (never below zero), with a remark saying why.
#[utoipa::path(post, path = "/adminapi/admin/merchant/adjust", tag = "admin", request_body = AdjustRequest,
    responses((status = 200, description = "`data` is the merchant's Account after the change (with a repeated `Idempotency-Key`: the first call's answer, nothing moved)", body = Account), (status = 422, description = "42200: the `Idempotency-Key` was used for a different request"), (status = 400, description = "40000: no remark"), (status = 404, description = "40400: no such merchant"), (status = 409, description = "40900: the balance would fall below zero")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn adjust(
    State(state): State<AppState>,
    admin: AdminUser,
    address: ClientAddress,
    IdempotentJson(request, idempotency): IdempotentJson<AdjustRequest>,
) -> ApiResult<Replayable<Account>> {
    let amount = Money::adjustment(request.amount_fen)
        .ok_or_else(|| AppError::field("amount_fen", TradeMessage::AdjustmentInvalid))?
        .fen();
    // An adjustment corrects a mistake: the record must say which one, for whoever reads it later.
    let text = remark(request.remark);
    if text.is_empty() {
        return Err(AppError::field("remark", TradeMessage::AdjustmentRemarkRequired));
    }
    let audited = Audited::new(action::MONEY_ADJUSTMENT, amount, &text, &address);
    fund(&state, &admin, request.merchant_id, idempotency, audited, |ledger| {
        if ledger.account().balance_fen + amount < 0 {
            return Err(AppError::conflict_on("amount_fen", TradeMessage::AdjustmentBelowZero));
        }
        ledger.adjust(amount, &text);
        Ok(())
    })
    .await
}
