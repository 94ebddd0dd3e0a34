//! Administrators keep the maintenance windows (维护窗口): a carrier, a carrier in one
//! province, or one channel takes no top-ups for a while, once or recurring (Beijing time).
//! Created, edited and deleted with an audit row in the change's transaction; this server
//! reads the windows again at once, others within a second (`platform::windows`). Routing
//! skips what a window closes; placing refuses fast orders nothing can take (`orders::place`).
//! Everyone signed in, and merchants' systems (`merchant_api`), see the next seven days.

use super::windows_form::{self as checked, WindowForm};
use crate::domain::windows::{Recurrence, Schedule, WindowScope, clock, upcoming_until};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::http::pagination::PageNumber;
use crate::identity::session::{AdminUser, CurrentUser};
use crate::platform::audit;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use crate::platform::windows::WINDOW_COLUMNS;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/windows/list", post(list))
        .route("/adminapi/admin/windows/create", post(create))
        .route("/adminapi/admin/windows/update", post(update))
        .route("/adminapi/admin/windows/delete", post(delete))
        .route("/adminapi/windows/upcoming", post(upcoming))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WindowQuery {
    #[serde(flatten)]
    pub paging: PageNumber,
}

/// A window as administrators read and edit it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MaintenanceWindow {
    pub id: i64,
    pub title: String,
    pub note: String,
    /// `carrier`, `province` (a carrier in one province) or `channel`.
    pub scope: String,
    /// mobile, unicom, telecom or broadnet (scopes carrier and province).
    pub carrier: Option<String>,
    /// GB/T 2260 code (scope province).
    pub province: Option<i64>,
    pub channel_id: Option<i64>,
    /// The channel's name (scope channel).
    pub channel_name: Option<String>,
    /// `once`, `daily`, `weekly` or `monthly`.
    pub recurrence: String,
    /// A one-off window's start and end (RFC 3339).
    pub starts_at: Option<String>,
    pub ends_at: Option<String>,
    /// Weekly: 1 Monday … 7 Sunday; monthly: 1 … 31 (the last day in shorter months).
    pub day: Option<i64>,
    /// Recurring: Beijing `HH:MM`; an end at or before the start ends on the next day.
    pub span_start: Option<String>,
    pub span_end: Option<String>,
    /// Whether it runs now.
    pub running: bool,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WindowPage {
    pub list: Vec<MaintenanceWindow>,
    pub total: i64,
}

const RECURRENCES: [&str; 4] = ["once", "daily", "weekly", "monthly"];
const SCOPES: [&str; 3] = ["carrier", "province", "channel"];

fn item(row: &sqlx::any::AnyRow, now: i64) -> Result<MaintenanceWindow, sqlx::Error> {
    let number = |index: usize| row.try_get::<Option<i64>, _>(index);
    let window = crate::platform::windows::from_row(row)?;
    let recurrence: i64 = row.try_get(6)?;
    let scope: i64 = row.try_get(2)?;
    Ok(MaintenanceWindow {
        id: row.try_get(0)?,
        title: row.try_get(1)?,
        note: row.try_get(12)?,
        scope: SCOPES.get((scope - 1).max(0) as usize).copied().unwrap_or_default().to_string(),
        carrier: number(3)?.and_then(crate::domain::Carrier::from_code).map(|carrier| carrier.as_str().to_string()),
        province: number(4)?,
        channel_id: number(5)?,
        channel_name: row.try_get(13)?,
        recurrence: RECURRENCES.get((recurrence - 1).max(0) as usize).copied().unwrap_or_default().to_string(),
        starts_at: number(7)?.map(millis_to_rfc3339),
        ends_at: number(8)?.map(millis_to_rfc3339),
        day: number(9)?,
        span_start: number(10)?.map(|minutes| clock(minutes as u32)),
        span_end: number(11)?.map(|minutes| clock(minutes as u32)),
        running: window.is_some_and(|window| window.recurrence.running_at(now).is_some()),
        created_by: row.try_get(14)?,
        created_at: millis_to_rfc3339(row.try_get(15)?),
        updated_at: millis_to_rfc3339(row.try_get(16)?),
    })
}

fn select(tail: &str) -> String {
    let columns: Vec<String> = WINDOW_COLUMNS.split(", ").map(|column| format!("w.{column}")).collect();
    format!(
        "SELECT {}, w.note, c.name, w.created_by, w.created_at, w.updated_at FROM maintenance_windows w
         LEFT JOIN channels c ON c.id = w.channel_id {tail}",
        columns.join(", ")
    )
}

/// The windows, newest first.
#[utoipa::path(post, path = "/adminapi/admin/windows/list", tag = "channels", request_body = WindowQuery,
    responses((status = 200, description = "`data` is a WindowPage", body = WindowPage),
        (status = 400, description = "40000: page or page_size out of range"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<WindowQuery>,
) -> ApiResult<WindowPage> {
    let page = request.paging.checked()?;
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM maintenance_windows WHERE $1 = $1")
        .bind(0_i64)
        .fetch_one(&state.db.pool)
        .await?;
    let sql = select(&format!("ORDER BY w.id DESC LIMIT {} OFFSET {}", page.page_size, page.offset()));
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&state.db.pool).await?;
    let now = now_millis();
    let list = rows.iter().map(|row| item(row, now)).collect::<Result<_, _>>()?;
    Ok(ApiOk(WindowPage { list, total }))
}

async fn read_one(state: &AppState, id: i64) -> Result<MaintenanceWindow, AppError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(select("WHERE w.id = $1")))
        .bind(id)
        .fetch_optional(&state.db.pool)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(item(&row, now_millis())?)
}

/// After a change: read the windows again, and let orders waiting in flight (for a window's
/// end, among others) be looked at now, so a window ended or deleted early frees its orders
/// at once rather than at the end it had. Only orders in flight are touched (the partial
/// index `orders_in_flight` holds them), only when administrators change a window.
async fn changed_windows(state: &AppState) -> Result<(), AppError> {
    state.windows.reload(&state.db).await?;
    let now = now_millis();
    sqlx::query(
        "UPDATE orders SET lease_until = $1
         WHERE status IN (0, 1) AND order_kind IN (1, 2) AND lease_owner IS NULL AND lease_until > $1",
    )
    .bind(now)
    .execute(&state.db.pool)
    .await?;
    state.arrivals.notify_one();
    Ok(())
}

/// The audit's words for a window: its title, scope and times.
fn described(form: &checked::Checked) -> String {
    let scope = match form.scope {
        WindowScope::Carrier(carrier) => carrier.as_str().to_string(),
        WindowScope::Province(carrier, code) => format!("{}/{code}", carrier.as_str()),
        WindowScope::Channel(id) => format!("channel:{id}"),
    };
    let when = match form.recurrence {
        Recurrence::Once { start, end } => {
            format!("{} – {}", crate::domain::beijing_time(start), crate::domain::beijing_time(end))
        }
        Recurrence::Daily { span } => format!("daily {}–{}", clock(span.start), clock(span.end)),
        Recurrence::Weekly { weekday, span } => format!("weekly {weekday} {}–{}", clock(span.start), clock(span.end)),
        Recurrence::Monthly { day, span } => format!("monthly {day} {}–{}", clock(span.start), clock(span.end)),
    };
    format!("{} · {scope} · {when}", form.title)
}

/// Create a window.
#[utoipa::path(post, path = "/adminapi/admin/windows/create", tag = "channels", request_body = WindowForm,
    responses((status = 200, description = "`data` is the new window", body = MaintenanceWindow),
        (status = 422, description = "40000: a field is wrong (its key names which)"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn create(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(form): JsonBody<WindowForm>,
) -> ApiResult<MaintenanceWindow> {
    let form = checked::check(&state, &form).await?;
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    let mut binds = checked::binds(&form);
    binds.extend([Bind::Text(admin.username.clone()), Bind::Int(now)]);
    let id: i64 = bind_all(
        sqlx::query(
            "INSERT INTO maintenance_windows (title, note, scope_kind, carrier, province, channel_id, recurrence,
                 starts_at, ends_at, day, span_start, span_end, created_by, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING id",
        ),
        binds,
    )
    .fetch_one(&mut *transaction)
    .await?
    .try_get(0)?;
    let target = format!("window:{id}");
    audit::record_on(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::WINDOW_CREATED,
        &target,
        &described(&form),
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    changed_windows(&state).await?;
    read_one(&state, id).await.map(ApiOk)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WindowUpdate {
    pub id: i64,
    #[serde(flatten)]
    pub form: WindowForm,
}

/// Change a window (every field, as at creation).
#[utoipa::path(post, path = "/adminapi/admin/windows/update", tag = "channels", request_body = WindowUpdate,
    responses((status = 200, description = "`data` is the window as saved", body = MaintenanceWindow),
        (status = 422, description = "40000: a field is wrong (its key names which)"), (status = 403, description = "40300: not an administrator"),
        (status = 404, description = "40400: no such window")),
    security(("token" = [])))]
pub async fn update(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<WindowUpdate>,
) -> ApiResult<MaintenanceWindow> {
    let form = checked::check(&state, &request.form).await?;
    let mut transaction = state.db.begin_write().await?;
    let mut binds = checked::binds(&form);
    // Strictly increasing, so another server sees the change in its version check.
    binds.extend([Bind::Int(now_millis()), Bind::Int(request.id)]);
    let changed = bind_all(
        sqlx::query(
            "UPDATE maintenance_windows SET title = $1, note = $2, scope_kind = $3, carrier = $4, province = $5,
                 channel_id = $6, recurrence = $7, starts_at = $8, ends_at = $9, day = $10, span_start = $11,
                 span_end = $12, updated_at = $13 WHERE id = $14",
        ),
        binds,
    )
    .execute(&mut *transaction)
    .await?;
    if changed.rows_affected() == 0 {
        return Err(AppError::NotFound);
    }
    let target = format!("window:{}", request.id);
    audit::record_on(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::WINDOW_UPDATED,
        &target,
        &described(&form),
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    changed_windows(&state).await?;
    read_one(&state, request.id).await.map(ApiOk)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WindowId {
    pub id: i64,
}

/// Delete a window.
#[utoipa::path(post, path = "/adminapi/admin/windows/delete", tag = "channels", request_body = WindowId,
    responses((status = 200, description = "done"), (status = 403, description = "40300: not an administrator"),
        (status = 404, description = "40400: no such window")),
    security(("token" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<WindowId>,
) -> ApiResult<()> {
    let mut transaction = state.db.begin_write().await?;
    let title: Option<String> = sqlx::query_scalar("DELETE FROM maintenance_windows WHERE id = $1 RETURNING title")
        .bind(request.id)
        .fetch_optional(&mut *transaction)
        .await?;
    let title = title.ok_or(AppError::NotFound)?;
    let target = format!("window:{}", request.id);
    audit::record_on(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::WINDOW_DELETED,
        &target,
        &title,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    changed_windows(&state).await?;
    Ok(ApiOk(()))
}

/// An occurrence of a window in the next seven days, as merchants see it (never a channel).
#[derive(Debug, Serialize, ToSchema)]
pub struct UpcomingWindow {
    pub id: i64,
    pub title: String,
    /// `carrier`, `province` (the carrier in one province) or `channel` (some channels:
    /// orders of their products may be refused or wait while no other channel takes them).
    pub scope: String,
    pub carrier: Option<crate::domain::Carrier>,
    /// GB/T 2260 code (scope province).
    pub province: Option<u32>,
    /// RFC 3339.
    pub starts_at: String,
    pub ends_at: String,
    /// Whether it runs now.
    pub running: bool,
}

/// The occurrences overlapping the next seven days, by start.
pub fn upcoming_of(schedule: &Schedule, now: i64) -> Vec<UpcomingWindow> {
    schedule
        .upcoming(now, upcoming_until(now))
        .into_iter()
        .map(|(window, start, end)| {
            let (scope, carrier, province) = match window.scope {
                WindowScope::Carrier(carrier) => ("carrier", Some(carrier), None),
                WindowScope::Province(carrier, code) => ("province", Some(carrier), Some(code)),
                WindowScope::Channel(_) => ("channel", None, None),
            };
            UpcomingWindow {
                id: window.id,
                title: window.title.clone(),
                scope: scope.to_string(),
                carrier,
                province,
                starts_at: millis_to_rfc3339(start),
                ends_at: millis_to_rfc3339(end),
                running: start <= now,
            }
        })
        .collect()
}

/// Maintenance windows of the next seven days (the workplace), for everyone signed in.
#[utoipa::path(post, path = "/adminapi/windows/upcoming", tag = "channels",
    responses((status = 200, description = "`data` is a list of UpcomingWindow, by start", body = [UpcomingWindow])),
    security(("token" = [])))]
pub async fn upcoming(State(state): State<AppState>, _user: CurrentUser) -> ApiResult<Vec<UpcomingWindow>> {
    let schedule = state.windows.current(&state.db).await?;
    Ok(ApiOk(upcoming_of(&schedule, now_millis())))
}
