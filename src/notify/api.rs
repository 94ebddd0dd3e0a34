//! `/adminapi/notify/*`: the Notifications page and the order drawer. Merchants see their
//! own notifications; administrators see every merchant's, with its mid.

use super::deliver::{self, AttemptResult, Claimed};
use super::outbox::{self, state};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::http::pagination::{PageNumber, parse_time};
use crate::i18n::audit::AuditDetail;
use crate::i18n::{Locale, NotifyMessage, TradeMessage};
use crate::identity::session::{CurrentUser, Role};
use crate::platform::audit::{self, action};
use crate::platform::config::millis;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::Row;
use utoipa::ToSchema;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct NotifyListRequest {
    /// `pending`, `delivered`, `failed` (a retry is scheduled) or `exhausted`; empty: all.
    #[schema(pattern = r"^\s*(pending|delivered|failed|exhausted)?\s*$")]
    pub state: Option<String>,
    /// Written at or after (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    pub from: Option<String>,
    /// Written before (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    pub to: Option<String>,
    /// Only the notifications of this order.
    pub order_no: Option<String>,
    /// Administrators: one merchant (mid). Merchants: their own only.
    pub merchant_id: Option<i64>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationItem {
    pub id: i64,
    pub event_id: String,
    pub merchant_id: i64,
    pub order_id: Option<i64>,
    pub order_no: Option<String>,
    pub event_type: String,
    pub url: String,
    /// pending, delivered, failed or exhausted.
    pub state: String,
    pub attempts: i64,
    /// RFC 3339; when the next attempt is due (pending and failed only).
    pub next_attempt_at: Option<String>,
    pub created_at: String,
    pub delivered_at: Option<String>,
    /// Why the last attempt failed, in the request's language, saying what to do
    /// (administrators: with a short technical detail after it); its key `notify.delivery.*`.
    pub last_error: Option<String>,
    pub last_error_reason: Option<&'static str>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotifyListResponse {
    pub list: Vec<NotificationItem>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

const ITEM_COLUMNS: &str = "n.id, n.event_id, n.merchant_id, n.order_id, o.order_no, n.event_type, n.url, n.state, \
     n.attempts, n.next_attempt_at, n.created_at, n.delivered_at, n.last_error";

fn item(row: &sqlx::any::AnyRow, caller: &CurrentUser, locale: Locale) -> Result<NotificationItem, sqlx::Error> {
    let code: i64 = row.try_get(7)?;
    let error: Option<String> = row.try_get(12)?;
    let administrator = caller.role == Role::Admin;
    let pending = code == state::PENDING || code == state::FAILED;
    Ok(NotificationItem {
        id: row.try_get(0)?,
        event_id: row.try_get(1)?,
        merchant_id: row.try_get(2)?,
        order_id: row.try_get(3)?,
        order_no: row.try_get(4)?,
        event_type: row.try_get(5)?,
        url: row.try_get(6)?,
        state: state::name(code).to_string(),
        attempts: row.try_get(8)?,
        next_attempt_at: pending.then(|| row.try_get::<i64, _>(9).map(millis_to_rfc3339)).transpose()?,
        created_at: millis_to_rfc3339(row.try_get(10)?),
        delivered_at: row.try_get::<Option<i64>, _>(11)?.map(millis_to_rfc3339),
        last_error: super::reason::shown(None, error.as_deref(), administrator, locale),
        last_error_reason: super::reason::key(None, error.as_deref()),
    })
}

/// Notifications, newest first, with filters.
#[utoipa::path(post, path = "/adminapi/notify/list", tag = "notify", request_body = NotifyListRequest,
    responses((status = 200, description = "`data` is a NotifyListResponse", body = NotifyListResponse),
        (status = 400, description = "40000: state, time or page invalid"),
        (status = 403, description = "40300: another merchant's mid")),
    security(("token" = [])))]
pub async fn list(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<NotifyListRequest>,
) -> ApiResult<NotifyListResponse> {
    let locale = Locale::from_headers(&headers);
    let merchant = caller.scope(request.merchant_id)?;
    let mut conditions = Vec::new();
    let mut binds = Vec::new();
    let mut push = |condition: &str, bind: Bind| {
        binds.push(bind);
        conditions.push(condition.replace('?', &format!("${}", binds.len())));
    };
    if let Some(merchant) = merchant {
        push("n.merchant_id = ?", Bind::Int(merchant));
    }
    if let Some(text) = request.state.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        let code = state::parse(text).ok_or_else(|| {
            AppError::field("state", TradeMessage::InvalidChoice { allowed: "pending, delivered, failed, exhausted" })
        })?;
        push("n.state = ?", Bind::Int(code));
    }
    if let Some(from) = parse_time("from", request.from.as_deref())? {
        push("n.created_at >= ?", Bind::Int(from));
    }
    if let Some(to) = parse_time("to", request.to.as_deref())? {
        push("n.created_at < ?", Bind::Int(to));
    }
    if let Some(order_no) = request.order_no.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        push("o.order_no = ?", Bind::Text(order_no.to_string()));
    }
    let page = request.paging.checked()?;
    let page_size = page.page_size;
    let filter = if conditions.is_empty() { String::new() } else { format!("WHERE {}", conditions.join(" AND ")) };
    let from = "FROM notifications n LEFT JOIN orders o ON o.id = n.order_id";
    let total: i64 =
        bind_all(sqlx::query(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) {from} {filter}"))), binds.clone())
            .fetch_one(&app.db.pool)
            .await?
            .try_get(0)?;
    let sql = format!(
        "SELECT {ITEM_COLUMNS} {from} {filter} ORDER BY n.created_at DESC, n.id DESC LIMIT {page_size} OFFSET {}",
        page.offset()
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(&app.db.pool).await?;
    let list = rows.iter().map(|row| item(row, &caller, locale)).collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(NotifyListResponse { list, total, page: page.page.unwrap_or(1), page_size }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct OrderNotificationsRequest {
    pub order_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptItem {
    pub notification_id: i64,
    pub attempt: i64,
    pub started_at: String,
    pub latency_ms: i64,
    pub http_status: Option<i64>,
    pub delivered: bool,
    pub response_excerpt: String,
    /// As `NotificationItem::last_error`.
    pub error: Option<String>,
    pub error_reason: Option<&'static str>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderNotifications {
    /// The order's notifications (usually one), newest first.
    pub notifications: Vec<NotificationItem>,
    /// Every attempt of those, oldest first.
    pub attempts: Vec<AttemptItem>,
}

/// An order's notifications and every attempt to deliver them (the order drawer).
#[utoipa::path(post, path = "/adminapi/notify/attempts", tag = "notify", request_body = OrderNotificationsRequest,
    responses((status = 200, description = "`data` is an OrderNotifications", body = OrderNotifications),
        (status = 404, description = "40400: no such order (or another merchant's)")),
    security(("token" = [])))]
pub async fn attempts(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<OrderNotificationsRequest>,
) -> ApiResult<OrderNotifications> {
    let locale = Locale::from_headers(&headers);
    let owner: Option<i64> = sqlx::query_scalar("SELECT merchant_id FROM orders WHERE id = $1")
        .bind(request.order_id)
        .fetch_optional(&app.db.pool)
        .await?;
    match owner {
        Some(owner) if caller.role == Role::Admin || caller.merchant_id == Some(owner) => {}
        _ => return Err(AppError::NotFound),
    }
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM notifications n LEFT JOIN orders o ON o.id = n.order_id
         WHERE n.order_id = $1 ORDER BY n.id DESC"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(request.order_id).fetch_all(&app.db.pool).await?;
    let notifications = rows.iter().map(|row| item(row, &caller, locale)).collect::<Result<Vec<_>, _>>()?;
    let rows = sqlx::query(
        "SELECT a.notification_id, a.attempt, a.started_at, a.latency_ms, a.http_status, a.delivered,
                a.response_excerpt, a.error
         FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
         WHERE n.order_id = $1 ORDER BY a.started_at, a.id",
    )
    .bind(request.order_id)
    .fetch_all(&app.db.pool)
    .await?;
    let attempts = rows
        .iter()
        .map(|row| {
            let (status, error): (Option<i64>, Option<String>) = (row.try_get(4)?, row.try_get(7)?);
            let administrator = caller.role == Role::Admin;
            Ok(AttemptItem {
                notification_id: row.try_get(0)?,
                attempt: row.try_get(1)?,
                started_at: millis_to_rfc3339(row.try_get(2)?),
                latency_ms: row.try_get(3)?,
                http_status: row.try_get(4)?,
                delivered: row.try_get::<i64, _>(5)? == 1,
                response_excerpt: row.try_get(6)?,
                error: super::reason::shown(status, error.as_deref(), administrator, locale),
                error_reason: super::reason::key(status, error.as_deref()),
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(ApiOk(OrderNotifications { notifications, attempts }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResendRequest {
    /// The notification's id.
    pub id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Resent {
    /// How many notifications were put back in the queue, due now.
    pub queued: i64,
}

/// Sends a notification again now (any state), with the same webhook-id and body. One
/// more attempt: if it fails and the schedule had run out, it is exhausted again.
#[utoipa::path(post, path = "/adminapi/notify/resend", tag = "notify", request_body = ResendRequest,
    responses((status = 200, description = "`data` is Resent", body = Resent),
        (status = 404, description = "40400: no such notification (or another merchant's)"),
        (status = 409, description = "40900: it is being sent right now")),
    security(("token" = [])))]
pub async fn resend(
    State(app): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ResendRequest>,
) -> ApiResult<Resent> {
    let merchant = caller.scope(None)?;
    let found: Option<i64> = sqlx::query_scalar("SELECT merchant_id FROM notifications WHERE id = $1")
        .bind(request.id)
        .fetch_optional(&app.db.pool)
        .await?;
    match found {
        Some(owner) if merchant.is_none_or(|own| own == owner) => {}
        _ => return Err(AppError::NotFound),
    }
    let now = now_millis();
    // The queued send and its audit record commit together.
    let mut transaction = app.db.begin_write().await?;
    let queued = sqlx::query(
        "UPDATE notifications SET state = CASE WHEN attempts = 0 THEN 0 ELSE 2 END, next_attempt_at = $1,
                lease_owner = NULL
         WHERE id = $2 AND (lease_owner IS NULL OR next_attempt_at <= $1)",
    )
    .bind(now)
    .bind(request.id)
    .execute(&mut *transaction)
    .await?
    .rows_affected();
    if queued == 0 {
        return Err(AppError::Conflict(NotifyMessage::InFlight.into()));
    }
    let detail = AuditDetail::NotificationResent { notification_id: request.id };
    let (event, target) = (action::NOTIFICATION_RESENT, audit::target::user(caller.user_id));
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    Ok(ApiOk(Resent { queued: 1 }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ResendFailedRequest {
    /// Written at or after (RFC 3339), required.
    #[schema(value_type = String, required = true, format = DateTime)]
    pub from: Option<String>,
    /// Written before (RFC 3339), required.
    #[schema(value_type = String, required = true, format = DateTime)]
    pub to: Option<String>,
    /// Administrators: only this merchant's. Merchants: their own only.
    pub merchant_id: Option<i64>,
}

/// Sends every failed or exhausted notification written in a time range again, now.
#[utoipa::path(post, path = "/adminapi/notify/resendFailed", tag = "notify", request_body = ResendFailedRequest,
    responses((status = 200, description = "`data` is Resent", body = Resent),
        (status = 400, description = "40000: from or to missing or invalid")),
    security(("token" = [])))]
pub async fn resend_failed(
    State(app): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ResendFailedRequest>,
) -> ApiResult<Resent> {
    let merchant = caller.scope(request.merchant_id)?;
    let range = (parse_time("from", request.from.as_deref())?, parse_time("to", request.to.as_deref())?);
    let (Some(from), Some(to)) = range else {
        let field = if range.0.is_none() { "from" } else { "to" };
        return Err(AppError::field(field, NotifyMessage::TimeRangeRequired));
    };
    let now = now_millis();
    let only_merchant = if merchant.is_some() { " AND merchant_id = $4" } else { "" };
    let sql = format!(
        "UPDATE notifications SET state = 2, next_attempt_at = $1, lease_owner = NULL
         WHERE state IN (2, 3) AND created_at >= $2 AND created_at < $3
           AND (lease_owner IS NULL OR next_attempt_at <= $1){only_merchant}"
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now).bind(from).bind(to);
    if let Some(merchant) = merchant {
        query = query.bind(merchant);
    }
    // The queued sends and their audit record commit together.
    let mut transaction = app.db.begin_write().await?;
    let queued = query.execute(&mut *transaction).await?.rows_affected();
    let queued = i64::try_from(queued).unwrap_or(i64::MAX);
    let detail = AuditDetail::NotificationsResent { count: queued };
    let (event, target) = (action::NOTIFICATION_RESENT, audit::target::user(caller.user_id));
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    Ok(ApiOk(Resent { queued }))
}

/// Merchants: sends a `test` event to the profile's notify URL now and answers the attempt.
/// It is recorded like any notification (shown on the Notifications page) and, if it
/// fails, retried on the schedule like one.
#[utoipa::path(post, path = "/adminapi/notify/test", tag = "notify",
    responses((status = 200, description = "`data` is the AttemptResult", body = AttemptResult),
        (status = 403, description = "40300: administrators have no notify URL"),
        (status = 409, description = "40900: no notify URL saved yet (`data.fields.notify_url`)")),
    security(("token" = [])))]
pub async fn test(State(app): State<AppState>, caller: CurrentUser, headers: HeaderMap) -> ApiResult<AttemptResult> {
    let Some(merchant_id) = caller.merchant_id else { return Err(AppError::PermissionDenied) };
    let url: Option<String> = sqlx::query_scalar(
        "SELECT notify_url FROM users WHERE merchant_id = $1 AND notify_url <> '' ORDER BY (id = $2) DESC, id LIMIT 1",
    )
    .bind(merchant_id)
    .bind(caller.user_id)
    .fetch_optional(&app.db.pool)
    .await?;
    let Some(url) = url else { return Err(AppError::conflict_on("notify_url", NotifyMessage::NoNotifyUrl)) };
    let event_id = outbox::new_event_id();
    let body = json!({
        "event_id": event_id,
        "type": outbox::TEST_EVENT,
        "data": { "merchant_id": merchant_id, "sent_at": millis_to_rfc3339(now_millis()) }
    })
    .to_string();
    // Written already claimed by this call, so no sender picks it up meanwhile.
    let owner = format!("test-{}", uuid::Uuid::new_v4().simple());
    let mut connection = app.db.begin_write().await?;
    let id = outbox::insert(&mut connection, merchant_id, None, outbox::TEST_EVENT, &event_id, &url, &body).await?;
    sqlx::query("UPDATE notifications SET lease_owner = $1, next_attempt_at = $2 WHERE id = $3")
        .bind(&owner)
        .bind(now_millis() + millis(app.config.notify.lease))
        .bind(id)
        .execute(&mut *connection)
        .await?;
    connection.commit().await?;
    let claimed = Claimed { id, event_id, merchant_id, order_no: None, url, body, attempt: 1 };
    let keys = super::secret::signing_keys(&app, merchant_id).await?;
    let client = deliver::client(&app.config.notify)?;
    let mut result = deliver::attempt(&client, &keys, &claimed, app.config.notify.allow_private).await;
    deliver::record(&app, &owner, &[(claimed, result.clone())]).await?;
    // Only merchants call this: the reason, never the raw error.
    explain(&mut result, Locale::from_headers(&headers));
    Ok(ApiOk(result))
}

/// An attempt as answered to a merchant: its error becomes the reason, with its key.
fn explain(result: &mut super::deliver::AttemptResult, locale: Locale) {
    let error = result.error.take();
    result.error = super::reason::shown(result.http_status, error.as_deref(), false, locale);
    result.error_reason = super::reason::key(result.http_status, error.as_deref());
}
