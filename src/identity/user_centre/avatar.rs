//! Avatars: uploaded as multipart form data, checked by content (not by name or the
//! declared type), stored in the database so they survive restarts and follow backups,
//! and served only to their owner.

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::ClientAddress;
use crate::i18n::Message;
use crate::i18n::UserCentreMessage as Text;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::CurrentUser;
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::{Multipart, State, multipart::MultipartRejection};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

pub const MAX_AVATAR_BYTES: usize = 2 * 1024 * 1024;

/// The image type of `bytes` by its signature, or None if it is not an image we accept.
/// SVG is refused on purpose: it can carry script.
pub fn sniff_image_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AvatarSaved {
    pub content_type: String,
    pub size: usize,
}

fn avatar_error(text: Text) -> AppError {
    AppError::field("file", Message::UserCentre(text))
}

/// What the file holds (its bytes, its size) is beyond the document's schema: 422.
fn avatar_content_error(text: Text) -> AppError {
    AppError::unprocessable("file", Message::UserCentre(text))
}

/// The upload form, for the OpenAPI document.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct AvatarUpload {
    /// PNG, JPEG, GIF or WebP, at most 2 MiB.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Uploads the caller's avatar (multipart field `file`; PNG, JPEG, GIF or WebP, at most 2 MiB).
#[utoipa::path(post, path = "/adminapi/merchant/avatar", tag = "merchant",
    request_body(content = AvatarUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "`data` is AvatarSaved", body = AvatarSaved), (status = 400, description = "40000: not a multipart form (or a broken one), or no `file`"),
        (status = 422, description = "40000: not an image, or over 2 MiB")),
    security(("token" = [])))]
pub async fn upload(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<AvatarSaved> {
    // Not a multipart form at all: the same answer as a form without the file.
    let mut multipart = multipart.map_err(|_| avatar_error(Text::AvatarMissing))?;
    let mut image: Option<Vec<u8>> = None;
    // Every part is read, the others skipped: a form broken after the file is still a
    // broken form (400), not an upload.
    while let Some(mut field) = multipart.next_field().await.map_err(|_| AppError::malformed_form())? {
        if field.name() != Some("file") || image.is_some() {
            continue;
        }
        let too_large = || avatar_content_error(Text::AvatarTooLarge { max_kib: MAX_AVATAR_BYTES / 1024 });
        let bytes = crate::http::extract::bounded_part(&mut field, MAX_AVATAR_BYTES).await.ok_or_else(too_large)?;
        image = Some(bytes);
    }
    let image = image.ok_or_else(|| avatar_error(Text::AvatarMissing))?;
    if image.is_empty() {
        return Err(avatar_content_error(Text::AvatarMissing));
    }
    let content_type = sniff_image_type(&image).ok_or_else(|| avatar_content_error(Text::AvatarNotAnImage))?;
    let size = image.len();
    // The image and its audit record commit together.
    let mut transaction = state.db.begin_write().await?;
    sqlx::query(
        "INSERT INTO avatars (user_id, content_type, data, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
         updated_at = excluded.updated_at",
    )
    .bind(caller.user_id)
    .bind(content_type)
    .bind(image)
    .bind(now_millis())
    .execute(&mut *transaction)
    .await?;
    let detail = AuditDetail::AvatarChanged { content_type: content_type.to_string() };
    let (event, target) = (action::AVATAR_CHANGED, audit::target::user(caller.user_id));
    audit::record_detail(&mut *transaction, Some(caller.user_id), event, &target, &detail, &address.to_string())
        .await?;
    transaction.commit().await?;
    // userInfo's cached answers say whether there is an avatar.
    state.sessions.forget_all();
    Ok(ApiOk(AvatarSaved { content_type: content_type.to_string(), size }))
}

/// The caller's avatar image (not an envelope); 40400 if none was uploaded.
#[utoipa::path(get, path = "/adminapi/merchant/avatar", tag = "merchant",
    responses((status = 200, description = "the image bytes", content(("image/png"), ("image/jpeg"), ("image/gif"), ("image/webp"))), (status = 404, description = "40400: no avatar")),
    security(("token" = [])))]
pub async fn download(State(state): State<AppState>, caller: CurrentUser) -> Result<Response, AppError> {
    let row: Option<(String, Vec<u8>)> = sqlx::query_as("SELECT content_type, data FROM avatars WHERE user_id = $1")
        .bind(caller.user_id)
        .fetch_optional(&state.db.pool)
        .await?;
    let (content_type, data) = row.ok_or(AppError::NotFound)?;
    let mut response = data.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(&content_type).map_err(anyhow::Error::from)?);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_recognised_by_their_signature() {
        assert_eq!(sniff_image_type(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(sniff_image_type(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(sniff_image_type(b"GIF89a..."), Some("image/gif"));
        assert_eq!(sniff_image_type(b"RIFF\x00\x00\x00\x00WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff_image_type(b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"), None);
        assert_eq!(sniff_image_type(b"<html><script>"), None);
        assert_eq!(sniff_image_type(b""), None);
        assert_eq!(sniff_image_type(b"RIFF1234WAVE"), None);
    }
}
