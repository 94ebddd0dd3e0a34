//! Administrators keep the platform's blocklist (风控黑名单): numbers and prefixes barred from
//! top-ups, each with a reason; added one by one or imported (all lines or none), removed,
//! listed and exported. Every change is audited in its transaction, and this server reads
//! the list again at once (others within a second: `platform::blocklist`).

use crate::domain::blocklist::BlockPattern;
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::export::{Cell, ExportParams, Format, csv_bytes, file_response, small_xlsx};
use crate::http::extract::{ClientAddress, JsonBody, QueryParams};
use crate::http::pagination::PageNumber;
use crate::i18n::TradeMessage;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::AdminUser;
use crate::platform::audit;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

pub const MAX_REASON_CHARS: usize = 200;
/// Lines one import may hold.
pub const MAX_IMPORT_LINES: usize = 10_000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/blocklist/list", post(list))
        .route("/adminapi/admin/blocklist/add", post(add))
        .route("/adminapi/admin/blocklist/delete", post(delete))
        .route("/adminapi/admin/blocklist/import", post(import))
        .route("/adminapi/admin/blocklist/export", get(export))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BlocklistQuery {
    /// Entries whose number or prefix starts with these digits.
    pub pattern: Option<String>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BlockedNumber {
    pub id: i64,
    /// An 11-digit number, or a prefix of 3 to 10 digits barring every number it starts.
    pub pattern: String,
    pub reason: String,
    /// The administrator who added it.
    pub created_by: String,
    pub created_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BlocklistPage {
    pub list: Vec<BlockedNumber>,
    pub total: i64,
}

/// The blocklist, newest first.
#[utoipa::path(post, path = "/adminapi/admin/blocklist/list", tag = "admin", request_body = BlocklistQuery,
    responses((status = 200, description = "`data` is a BlocklistPage", body = BlocklistPage),
        (status = 400, description = "40000: page or page_size out of range"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<BlocklistQuery>,
) -> ApiResult<BlocklistPage> {
    let page = request.paging.checked()?;
    let mut conditions = Conditions::default();
    if let Some(digits) = request.pattern.as_deref().and_then(crate::domain::PhoneNumber::digits_as_typed) {
        conditions.push("pattern LIKE ?", vec![Bind::Text(format!("{digits}%"))]);
    }
    let count_sql = format!("SELECT COUNT(*) FROM blocked_numbers{}", conditions.where_clause());
    let total: i64 = bind_all(sqlx::query(sqlx::AssertSqlSafe(count_sql)), conditions.binds.clone())
        .fetch_one(&state.db.pool)
        .await?
        .try_get(0)?;
    let sql = format!(
        "SELECT id, pattern, reason, created_by, created_at FROM blocked_numbers{} ORDER BY id DESC LIMIT {} OFFSET {}",
        conditions.where_clause(),
        page.page_size,
        page.offset()
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(&state.db.pool).await?;
    let list = rows.iter().map(item).collect::<Result<_, sqlx::Error>>()?;
    Ok(ApiOk(BlocklistPage { list, total }))
}

fn item(row: &sqlx::any::AnyRow) -> Result<BlockedNumber, sqlx::Error> {
    Ok(BlockedNumber {
        id: row.try_get(0)?,
        pattern: row.try_get(1)?,
        reason: row.try_get(2)?,
        created_by: row.try_get(3)?,
        created_at: millis_to_rfc3339(row.try_get(4)?),
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BlockRequest {
    /// An 11-digit number or a prefix of 3 to 10 digits (+86, spaces, full-width digits read).
    pub pattern: String,
    /// Why (1 to 200 characters): what the administrators read; merchants are told only
    /// that the number is barred.
    pub reason: String,
}

/// One line checked: the pattern and reason, or the field's problem.
fn checked(pattern: &str, reason: &str) -> Result<(BlockPattern, String), FieldError> {
    let pattern = BlockPattern::parse(pattern)
        .ok_or_else(|| FieldError::new("pattern", TradeMessage::BlockPatternInvalid.into()))?;
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(FieldError::new("reason", TradeMessage::BlockReasonInvalid { max: MAX_REASON_CHARS }.into()));
    }
    Ok((pattern, reason.to_string()))
}

fn taken(error: sqlx::Error, field: &str) -> AppError {
    match &error {
        sqlx::Error::Database(database) if database.is_unique_violation() => {
            AppError::conflict_on(field, TradeMessage::BlockPatternTaken)
        }
        _ => error.into(),
    }
}

/// Bar a number or a prefix.
#[utoipa::path(post, path = "/adminapi/admin/blocklist/add", tag = "admin", request_body = BlockRequest,
    responses((status = 200, description = "`data` is the new entry", body = BlockedNumber),
        (status = 422, description = "40000: the pattern is no number or prefix, or the reason is empty or too long"),
        (status = 403, description = "40300: not an administrator"), (status = 409, description = "40900: already on the list")),
    security(("token" = [])))]
pub async fn add(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<BlockRequest>,
) -> ApiResult<BlockedNumber> {
    // Of the documented form (strings) yet not a number, a prefix or a reason: 422.
    let (pattern, reason) = checked(&request.pattern, &request.reason).map_err(|e| AppError::Unprocessable(vec![e]))?;
    let mut transaction = state.db.begin_write().await?;
    let row = sqlx::query(
        "INSERT INTO blocked_numbers (pattern, reason, created_by, created_at) VALUES ($1, $2, $3, $4)
         RETURNING id, pattern, reason, created_by, created_at",
    )
    .bind(pattern.as_str())
    .bind(&reason)
    .bind(&admin.username)
    .bind(now_millis())
    .fetch_one(&mut *transaction)
    .await
    .map_err(|error| taken(error, "pattern"))?;
    let detail = AuditDetail::NumberBlocked { pattern: pattern.as_str().to_string(), reason };
    let target = format!("blocklist:{}", pattern.as_str());
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::NUMBER_BLOCKED,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    state.blocklist.reload(&state.db).await?;
    Ok(ApiOk(item(&row)?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BlockIdRequest {
    pub id: i64,
}

/// Lift a bar.
#[utoipa::path(post, path = "/adminapi/admin/blocklist/delete", tag = "admin", request_body = BlockIdRequest,
    responses((status = 200, description = "done"), (status = 403, description = "40300: not an administrator"),
        (status = 404, description = "40400: no such entry")),
    security(("token" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<BlockIdRequest>,
) -> ApiResult<()> {
    let mut transaction = state.db.begin_write().await?;
    let removed: Option<(String, String)> =
        sqlx::query_as("DELETE FROM blocked_numbers WHERE id = $1 RETURNING pattern, reason")
            .bind(request.id)
            .fetch_optional(&mut *transaction)
            .await?;
    let (pattern, reason) = removed.ok_or(AppError::NotFound)?;
    let target = format!("blocklist:{pattern}");
    let detail = AuditDetail::NumberUnblocked { pattern, reason };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::NUMBER_UNBLOCKED,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    state.blocklist.reload(&state.db).await?;
    Ok(ApiOk(()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BlockImportRequest {
    /// Lines of `number or prefix, reason` (comma or tab; a first line of letters is a
    /// title and skipped), at most 10,000.
    pub text: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BlockImportResult {
    /// Entries added (lines already on the list are kept as they are).
    pub added: i64,
    pub lines: i64,
}

/// Import entries: every line good, or nothing changes (each bad line named in
/// `data.fields` as `line:<n>`).
#[utoipa::path(post, path = "/adminapi/admin/blocklist/import", tag = "admin", request_body = BlockImportRequest,
    responses((status = 200, description = "`data` is a BlockImportResult", body = BlockImportResult),
        (status = 422, description = "40000: bad lines (or none, or too many), each named; nothing imported"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn import(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<BlockImportRequest>,
) -> ApiResult<BlockImportResult> {
    let (entries, errors) = parse_import(&request.text);
    if !errors.is_empty() {
        return Err(AppError::Unprocessable(errors));
    }
    let mut transaction = state.db.begin_write().await?;
    let now = now_millis();
    let mut added = 0;
    for (pattern, reason) in &entries {
        let inserted = sqlx::query(
            "INSERT INTO blocked_numbers (pattern, reason, created_by, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (pattern) DO NOTHING",
        )
        .bind(pattern.as_str())
        .bind(reason)
        .bind(&admin.username)
        .bind(now)
        .execute(&mut *transaction)
        .await?;
        added += inserted.rows_affected() as i64;
    }
    let detail = AuditDetail::NumbersImported { lines: entries.len() as i64, added };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::NUMBERS_IMPORTED,
        "blocklist",
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    state.blocklist.reload(&state.db).await?;
    Ok(ApiOk(BlockImportResult { added, lines: entries.len() as i64 }))
}

/// An import's lines checked: the good ones, or every bad one (the first 200) named.
fn parse_import(text: &str) -> (Vec<(BlockPattern, String)>, Vec<FieldError>) {
    let (mut entries, mut errors) = (Vec::new(), Vec::new());
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| (index + 1, line))
        .collect();
    if lines.is_empty() || lines.len() > MAX_IMPORT_LINES {
        errors.push(FieldError::new("text", TradeMessage::BlockImportSize { max: MAX_IMPORT_LINES }.into()));
        return (entries, errors);
    }
    for (index, (line_no, line)) in lines.iter().enumerate() {
        let (pattern, reason) = line.split_once([',', '\t', '，']).unwrap_or((line, ""));
        let title = index == 0 && pattern.trim().chars().any(char::is_alphabetic);
        if title {
            continue;
        }
        match checked(pattern, reason) {
            Ok(entry) => entries.push(entry),
            Err(error) if errors.len() < 200 => errors.push(FieldError::new(format!("line:{line_no}"), error.message)),
            Err(_) => {}
        }
    }
    (entries, errors)
}

/// The blocklist as a file (number or prefix, reason, added by, added at), CSV or xlsx.
#[utoipa::path(get, path = "/adminapi/admin/blocklist/export", tag = "admin", params(ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: an unknown format"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = crate::i18n::Locale::from_headers(&headers);
    let format = params.format()?;
    let rows =
        sqlx::query("SELECT pattern, reason, created_by, created_at FROM blocked_numbers WHERE $1 = $1 ORDER BY id")
            .bind(0_i64)
            .fetch_all(&state.db.pool)
            .await?;
    let mut cells = vec![crate::i18n::files::BLOCKLIST_HEADER.row(locale).into_iter().map(Cell::Text).collect()];
    for row in rows {
        cells.push(vec![
            Cell::Id(row.try_get(0)?),
            Cell::Text(row.try_get(1)?),
            Cell::Text(row.try_get(2)?),
            Cell::Time(row.try_get(3)?),
        ]);
    }
    let bytes = match format {
        Format::Csv => csv_bytes(&cells)?,
        Format::Xlsx => small_xlsx(&cells)?,
    };
    Ok(file_response(bytes, format, "blocklist"))
}
