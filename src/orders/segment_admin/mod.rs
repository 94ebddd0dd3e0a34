//! Administrators refresh the number-segment table (号段表) by upload: the file (CSV or
//! phone.dat, `parse.rs`) is read whole or refused naming its bad lines; the preview says
//! what it adds, changes and removes against the table in memory (`diff.rs`) and keeps the
//! rows; applying replaces the table in one transaction (all rows or none), audited, only
//! if the table is still the one the preview compared with. This server reads the table
//! again at once, the others within seconds (`platform::segments::follow`).

pub mod diff;
mod fields;
pub mod parse;
mod phone_dat;

use self::diff::{Change, ChangeKind};
use crate::domain::Carrier;
use crate::domain::segments::Place;
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError, code};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::audit::AuditDetail;
use crate::i18n::{CatalogueMessage, SegmentAt};
use crate::identity::session::AdminUser;
use crate::platform::audit;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

/// Previews not applied within a day are dropped (with their rows) at the next preview.
const PREVIEW_KEPT_MILLIS: i64 = 24 * 3600 * 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/segments", get(summary))
        .route("/adminapi/admin/segments/apply", post(apply))
        .route("/adminapi/admin/segments/export", get(export))
}

/// The upload, with a body limit of its own (a table is larger than a JSON body).
pub fn upload_router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/segments/preview", post(preview))
        .layer(DefaultBodyLimit::max(parse::MAX_FILE_BYTES + 64 * 1024))
}

/// The table in use.
#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentTableSummary {
    /// Segments (7-digit prefixes) in the table.
    pub rows: i64,
    /// Provinces and cities with at least one segment.
    pub provinces: i64,
    pub cities: i64,
    /// `default` (the shipped libphonenumber table) or `upload`.
    pub source: String,
    pub file_name: Option<String>,
    pub applied_by: Option<String>,
    pub applied_at: Option<String>,
}

/// What the table holds and where it came from.
#[utoipa::path(get, path = "/adminapi/admin/segments", tag = "admin",
    responses((status = 200, description = "`data` is a SegmentTableSummary", body = SegmentTableSummary),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn summary(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<SegmentTableSummary> {
    let table = state.segments.table();
    let provinces: std::collections::HashSet<&str> =
        table.places().iter().map(|place| place.province_code.as_str()).collect();
    let applied = sqlx::query(
        "SELECT file_name, applied_by, applied_at FROM segment_uploads
         WHERE id = (SELECT version FROM segment_state WHERE id = 1)",
    )
    .fetch_optional(&state.db.pool)
    .await?;
    let (file_name, applied_by, applied_at) = match &applied {
        Some(row) => (row.try_get(0)?, row.try_get(1)?, row.try_get::<Option<i64>, _>(2)?.map(millis_to_rfc3339)),
        None => (None, None, None),
    };
    Ok(ApiOk(SegmentTableSummary {
        rows: table.len() as i64,
        provinces: provinces.len() as i64,
        cities: table.places().len() as i64,
        source: if applied.is_some() { "upload" } else { "default" }.into(),
        file_name,
        applied_by,
        applied_at,
    }))
}

/// A segment's place and carrier as a preview shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentPlace {
    pub province_code: String,
    pub province: String,
    pub city: String,
    pub province_en: String,
    pub city_en: String,
    /// None: the file names no carrier (the number's segment rule decides).
    pub carrier: Option<Carrier>,
}

impl SegmentPlace {
    fn of((place, carrier): (&Place, Option<Carrier>)) -> Self {
        Self {
            province_code: place.province_code.clone(),
            province: place.province.clone(),
            city: place.city.clone(),
            province_en: place.province_en.clone(),
            city_en: place.city_en.clone(),
            carrier,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentChange {
    pub prefix: String,
    /// `added`, `changed` or `removed`.
    pub change: String,
    pub before: Option<SegmentPlace>,
    pub after: Option<SegmentPlace>,
}

impl SegmentChange {
    fn of(change: &Change) -> Self {
        let kind = match change.kind {
            ChangeKind::Added => "added",
            ChangeKind::Changed => "changed",
            ChangeKind::Removed => "removed",
        };
        Self {
            prefix: format!("{:07}", change.prefix),
            change: kind.into(),
            before: change.before.map(SegmentPlace::of),
            after: change.after.map(SegmentPlace::of),
        }
    }
}

/// A province's segments before and after (only provinces whose count changes).
#[derive(Debug, Serialize, ToSchema)]
pub struct ProvinceCount {
    pub province_code: String,
    pub before: i64,
    pub after: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentPreview {
    /// Give it to apply.
    pub upload_id: i64,
    pub file_name: String,
    /// `csv` or `phone_dat`.
    pub format: String,
    pub rows: i64,
    pub added: i64,
    pub changed: i64,
    pub removed: i64,
    pub unchanged: i64,
    /// The first changes (at most 100) in prefix order.
    pub samples: Vec<SegmentChange>,
    pub provinces: Vec<ProvinceCount>,
}

/// The multipart form of a preview.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SegmentUpload {
    /// CSV (prefix,province,city,carrier or the shipped layout; UTF-8 or GBK; gzip allowed) or phone.dat, at most 32 MB.
    #[schema(value_type = String, format = Binary)]
    file: String,
}

/// Read a file and show what applying it would change; nothing changes yet.
#[utoipa::path(post, path = "/adminapi/admin/segments/preview", tag = "admin",
    request_body(content = SegmentUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "`data` is a SegmentPreview", body = SegmentPreview),
        (status = 400, description = "40000: not a multipart form, or no `file`"),
        (status = 422, description = "40000: unreadable, too large, no segments, or bad lines (each named as `line:<n>` or `record:<n>`)"),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn preview(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<SegmentPreview> {
    let (file_name, bytes) = read_file(multipart).await?;
    let table = state.segments.table();
    let base_version = state.segments.version();
    // Reading and comparing 300,000 rows is CPU work: off the async workers, and a panic
    // there is an unreadable file, not a 500.
    let reading = tokio::task::spawn_blocking(move || {
        let parsed = parse::parse(&bytes, &parse::Names::of(&table))?;
        let mut rows = parsed.rows;
        rows.sort_unstable_by_key(|row| row.prefix);
        let data = diff::encode(&rows).map_err(|_| parse::Refusal::File(CatalogueMessage::SegmentFileUnreadable))?;
        let diff = diff::diff(&table, &rows);
        let preview = SegmentPreview {
            upload_id: 0,
            file_name: String::new(),
            format: parsed.format.as_str().into(),
            rows: rows.len() as i64,
            added: diff.added,
            changed: diff.changed,
            removed: diff.removed,
            unchanged: diff.unchanged,
            samples: diff.samples.iter().map(SegmentChange::of).collect(),
            provinces: diff
                .provinces
                .iter()
                .filter(|(_, (before, after))| before != after)
                .map(|(code, (before, after))| ProvinceCount {
                    province_code: code.clone(),
                    before: *before,
                    after: *after,
                })
                .collect(),
        };
        Ok::<_, parse::Refusal>((preview, data))
    });
    let unreadable = parse::Refusal::File(CatalogueMessage::SegmentFileUnreadable);
    let (mut preview, data) = reading.await.unwrap_or(Err(unreadable)).map_err(refusal_error)?;
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    sqlx::query("DELETE FROM segment_uploads WHERE applied_at IS NULL AND created_at < $1")
        .bind(now - PREVIEW_KEPT_MILLIS)
        .execute(&mut *transaction)
        .await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO segment_uploads (file_name, format, row_count, added, changed, removed, base_version, data,
             created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(&file_name)
    .bind(&preview.format)
    .bind(preview.rows)
    .bind(preview.added)
    .bind(preview.changed)
    .bind(preview.removed)
    .bind(base_version)
    .bind(data)
    .bind(&admin.username)
    .bind(now)
    .fetch_one(&mut *transaction)
    .await?;
    transaction.commit().await?;
    (preview.upload_id, preview.file_name) = (id, file_name);
    Ok(ApiOk(preview))
}

/// The form's `file` part, read in chunks and refused once over the limit.
async fn read_file(multipart: Result<Multipart, MultipartRejection>) -> Result<(String, Vec<u8>), AppError> {
    let mut multipart = multipart.map_err(|_| AppError::malformed_form())?;
    let too_large = || {
        AppError::unprocessable("file", CatalogueMessage::SegmentFileTooLarge { max_mb: parse::MAX_FILE_BYTES >> 20 })
    };
    let mut found = None;
    while let Some(mut field) = multipart.next_field().await.map_err(|_| AppError::malformed_form())? {
        if field.name() != Some("file") || found.is_some() {
            continue;
        }
        let name: String =
            field.file_name().unwrap_or("upload").chars().filter(|c| !c.is_control()).take(100).collect();
        let bytes =
            crate::http::extract::bounded_part(&mut field, parse::MAX_FILE_BYTES).await.ok_or_else(too_large)?;
        found = Some((name, bytes));
    }
    found.ok_or_else(|| AppError::field("file", CatalogueMessage::SegmentFileUnreadable))
}

fn refusal_error(refusal: parse::Refusal) -> AppError {
    match refusal {
        parse::Refusal::File(message) => AppError::unprocessable("file", message),
        parse::Refusal::Entries(problems) => AppError::Unprocessable(
            problems
                .into_iter()
                .map(|(at, problem)| {
                    let field = match at {
                        SegmentAt::Line(line) => format!("line:{line}"),
                        SegmentAt::Record(record) => format!("record:{record}"),
                    };
                    FieldError::new(field, CatalogueMessage::SegmentEntry { at, problem }.into())
                })
                .collect(),
        ),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SegmentApplyRequest {
    pub upload_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentApplied {
    pub rows: i64,
}

/// Replace the table with a previewed file: all its rows or none.
#[utoipa::path(post, path = "/adminapi/admin/segments/apply", tag = "admin", request_body = SegmentApplyRequest,
    responses((status = 200, description = "`data` is SegmentApplied", body = SegmentApplied),
        (status = 404, description = "40400: no such preview waiting (applied already, or expired)"),
        (status = 409, description = "40900: the table changed after the preview"),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn apply(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<SegmentApplyRequest>,
) -> ApiResult<SegmentApplied> {
    let gone = || AppError::Refused {
        status: StatusCode::NOT_FOUND,
        code: code::NOT_FOUND,
        message: CatalogueMessage::SegmentUploadGone.into(),
        retry_after_seconds: None,
    };
    let mut transaction = state.db.begin_write().await?;
    let upload = sqlx::query(
        "SELECT file_name, row_count, added, changed, removed, base_version, data FROM segment_uploads
         WHERE id = $1 AND applied_at IS NULL",
    )
    .bind(request.upload_id)
    .fetch_optional(&mut *transaction)
    .await?
    .ok_or_else(gone)?;
    let base_version: i64 = upload.try_get(5)?;
    // Compare and set: a second apply (here or on another server) against the same table
    // waits for this one's row lock, then finds the version moved.
    let moved = sqlx::query("UPDATE segment_state SET version = $1 WHERE id = 1 AND version = $2")
        .bind(request.upload_id)
        .bind(base_version)
        .execute(&mut *transaction)
        .await?;
    if moved.rows_affected() != 1 {
        return Err(AppError::conflict_on("upload_id", CatalogueMessage::SegmentUploadStale));
    }
    let data: Vec<u8> = upload.try_get(6)?;
    // The table in memory is the one in the database when it was read at the version the
    // preview compared with: then only what changes is written (a refresh moves a few
    // thousand segments; rewriting 330,000 held SQLite's write lock for about 2 s).
    let table = (state.segments.version() == base_version).then(|| state.segments.table());
    let decoded = tokio::task::spawn_blocking(move || {
        let rows = diff::decode(&data)?;
        let count = rows.len() as i64;
        let writes = match &table {
            Some(table) => diff::Writes::between(table, rows),
            None => diff::Writes::whole(rows),
        };
        anyhow::Ok((count, writes))
    });
    let (count, writes) = decoded.await.map_err(anyhow::Error::from)??;
    writes.write(&mut transaction).await?;
    let now = now_millis();
    sqlx::query("UPDATE segment_uploads SET applied_at = $1, applied_by = $2 WHERE id = $3")
        .bind(now)
        .bind(&admin.username)
        .bind(request.upload_id)
        .execute(&mut *transaction)
        .await?;
    let detail = AuditDetail::SegmentsApplied {
        file_name: upload.try_get(0)?,
        rows: count,
        added: upload.try_get(2)?,
        changed: upload.try_get(3)?,
        removed: upload.try_get(4)?,
    };
    let action = audit::action::SEGMENTS_APPLIED;
    audit::record_detail(&mut *transaction, Some(admin.user_id), action, "segments", &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    state.segments.reload(&state.db).await?;
    Ok(ApiOk(SegmentApplied { rows: count }))
}

/// The table in use as CSV in the shipped layout (what a preview reads back unchanged).
#[utoipa::path(get, path = "/adminapi/admin/segments/export", tag = "admin",
    responses((status = 200, description = "the table (text/csv)", content_type = "text/csv"),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn export(State(state): State<AppState>, _admin: AdminUser) -> Result<Response, AppError> {
    let table = state.segments.table();
    let bytes = tokio::task::spawn_blocking(move || {
        let mut text = String::with_capacity(table.len() * 48);
        text.push_str(diff::CSV_TITLE);
        text.push_str("\r\n");
        for (prefix, place, carrier) in table.rows() {
            text.push_str(&diff::csv_line(prefix, place, carrier));
            text.push_str("\r\n");
        }
        text.into_bytes()
    })
    .await
    .map_err(anyhow::Error::from)?;
    let disposition = HeaderValue::from_static("attachment; filename=\"segments.csv\"");
    let content_type = HeaderValue::from_static("text/csv; charset=utf-8");
    Ok(([(header::CONTENT_TYPE, content_type), (header::CONTENT_DISPOSITION, disposition)], bytes).into_response())
}
