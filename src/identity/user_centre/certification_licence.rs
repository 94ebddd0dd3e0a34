//! The business licence image of a certification (issue 15 point 12), the evidence an
//! administrator looks at before approving. The merchant uploads it to its own record
//! under review; it is read under a size and time budget, its type is decided by its
//! content (PNG, JPEG or WebP; never by name or declared type, never SVG), it is kept in
//! the database (so it follows backups) and served only to administrators, as an
//! attachment-free image with no sniffing and no caching.

use super::avatar::sniff_image_type;
use super::certification_status::AUDITING;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, QueryParams};
use crate::i18n::Message;
use crate::i18n::UserCentreMessage as Text;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::{AdminUser, CurrentUser};
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::{Multipart, State, multipart::MultipartRejection};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use utoipa::ToSchema;

/// A phone photo of a licence fits easily; the body limit of the route adds the framing.
pub const MAX_LICENCE_BYTES: usize = 5 * 1024 * 1024;
/// The upload must arrive within this (a slow sender cannot hold a request forever).
const READ_BUDGET: Duration = Duration::from_secs(30);

fn licence_error(text: Text) -> AppError {
    AppError::field("file", Message::UserCentre(text))
}

/// The file is there but refused for what it holds (422).
fn licence_refused(text: Text) -> AppError {
    AppError::unprocessable("file", Message::UserCentre(text))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LicenceSaved {
    pub id: i64,
    pub content_type: String,
    pub size: usize,
}

/// The multipart form of an upload (the document's description of it).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct LicenceUpload {
    /// The certification record (the caller's own, under review).
    id: i64,
    /// PNG, JPEG or WebP, at most 5 MiB.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// A part that is not an integer `id`: the form does not match the document (400).
fn id_invalid() -> AppError {
    AppError::field("id", Message::InvalidField { detail: "expected an integer".into() })
}

/// A multipart form with one image: its text fields by name and the bytes of its `file`.
pub struct ImageForm {
    pub texts: Vec<(String, String)>,
    pub image: Option<Vec<u8>>,
}

impl ImageForm {
    /// The text field `name`, if the form had it.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.iter().find(|(field, _)| field == name).map(|(_, value)| value.as_str())
    }
}

/// Reads a form's text fields and its `file` within the size and time budgets of a licence
/// (the funding requests' proof is read the same way). A broken form is 400 (it does not
/// match the document); a file over the budget is 422 (its size is a rule beyond the document).
pub async fn read_image_form(multipart: &mut Multipart) -> Result<ImageForm, AppError> {
    let too_large = || licence_refused(Text::LicenceTooLarge { max_kib: MAX_LICENCE_BYTES / 1024 });
    let read = async {
        let mut form = ImageForm { texts: Vec::new(), image: None };
        while let Some(mut field) = multipart.next_field().await.map_err(|_| AppError::malformed_form())? {
            match field.name().map(str::to_string) {
                Some(name) if name == "file" => {
                    let bytes = crate::http::extract::bounded_part(&mut field, MAX_LICENCE_BYTES)
                        .await
                        .ok_or_else(too_large)?;
                    form.image = Some(bytes);
                }
                Some(name) => {
                    let text = field.text().await.map_err(|_| AppError::malformed_form())?;
                    form.texts.push((name, text));
                }
                None => {}
            }
        }
        Ok(form)
    };
    tokio::time::timeout(READ_BUDGET, read).await.map_err(|_| too_large())?
}

/// The image's media type decided by its content: PNG, JPEG or WebP (never by name or
/// declared type, never SVG); a missing or empty file, or any other content, is refused.
pub fn checked_image(image: Option<&[u8]>) -> Result<&'static str, AppError> {
    let image = image.ok_or_else(|| licence_error(Text::AvatarMissing))?;
    if image.is_empty() {
        return Err(licence_refused(Text::AvatarMissing));
    }
    match sniff_image_type(image) {
        Some(kind @ ("image/png" | "image/jpeg" | "image/webp")) => Ok(kind),
        _ => Err(licence_refused(Text::LicenceNotAnImage)),
    }
}

/// Merchants: attach (or replace) the business licence image of their own certification
/// under review (multipart `id` and `file`; PNG, JPEG or WebP, at most 5 MiB).
#[utoipa::path(post, path = "/adminapi/certification/licence", tag = "certification",
    request_body(content = LicenceUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "`data` is LicenceSaved", body = LicenceSaved),
        (status = 400, description = "40000: not a multipart form, or `id` or `file` missing or `id` not an integer"),
        (status = 404, description = "40400: no such record of the caller's (another merchant's record is not told apart from none)"),
        (status = 409, description = "40900: the caller's record is no longer under review"),
        (status = 422, description = "40000: the file is empty, not a PNG, JPEG or WebP image, or over 5 MiB")),
    security(("token" = [])))]
pub async fn upload(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<LicenceSaved> {
    // Not a multipart form (no boundary, another type): the envelope, never axum's text.
    let mut multipart = multipart.map_err(|_| AppError::malformed_form())?;
    let form = read_image_form(&mut multipart).await?;
    if form.image.is_none() {
        return Err(licence_error(Text::AvatarMissing));
    }
    let id = form.text("id").ok_or_else(id_invalid)?;
    let id = crate::http::query_string::integer(id.trim()).ok_or_else(id_invalid)?;
    let content_type = checked_image(form.image.as_deref())?;
    let image = form.image.unwrap_or_default();
    // Another merchant's record is answered as none at all, as `detail` and `withdraw`
    // answer it: whether a record exists is not told to those who do not own it. Only
    // the owner learns that a decided record's evidence is fixed.
    let status: Option<i64> = sqlx::query_scalar("SELECT status FROM certifications WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(caller.user_id)
        .fetch_optional(&state.db.pool)
        .await?;
    if status.ok_or(AppError::NotFound)? != AUDITING {
        return Err(AppError::conflict_on("id", Message::UserCentre(Text::LicenceNotEditable)));
    }
    let size = image.len();
    // The licence and its audit record commit together.
    let mut transaction = state.db.begin_write().await?;
    sqlx::query(
        "INSERT INTO certification_licences (certification_id, content_type, data, size_bytes, uploaded_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (certification_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
         size_bytes = excluded.size_bytes, uploaded_at = excluded.uploaded_at",
    )
    .bind(id)
    .bind(content_type)
    .bind(image)
    .bind(size as i64)
    .bind(now_millis())
    .execute(&mut *transaction)
    .await?;
    let detail = AuditDetail::LicenceUploaded {
        record_id: id,
        content_type: content_type.to_string(),
        size: i64::try_from(size).unwrap_or(i64::MAX),
    };
    let (event, target) = (action::CERTIFICATION_LICENCE_UPLOADED, audit::target::user(caller.user_id));
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    Ok(ApiOk(LicenceSaved { id, content_type: content_type.to_string(), size }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LicenceQuery {
    pub id: i64,
}

/// Administrators: the licence image of a certification record (the bytes, not an
/// envelope); 40400 when none was uploaded.
#[utoipa::path(get, path = "/adminapi/certification/licence", tag = "certification",
    params(("id" = i64, Query, description = "The certification record")),
    responses((status = 200, description = "the image bytes", content(("image/png"), ("image/jpeg"), ("image/gif"), ("image/webp"))), (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no licence image")),
    security(("token" = [])))]
pub async fn download(
    State(state): State<AppState>,
    _admin: AdminUser,
    QueryParams(query): QueryParams<LicenceQuery>,
) -> Result<Response, AppError> {
    let row: Option<(String, Vec<u8>)> =
        sqlx::query_as("SELECT content_type, data FROM certification_licences WHERE certification_id = $1")
            .bind(query.id)
            .fetch_optional(&state.db.pool)
            .await?;
    let (content_type, data) = row.ok_or(AppError::NotFound)?;
    let mut response = data.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(&content_type).map_err(anyhow::Error::from)?);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    Ok(response)
}
