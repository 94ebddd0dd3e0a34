//! Reading a batch upload: multipart with a `file` part (CSV or xlsx) or JSON with `text`,
//! parsed on the blocking pool under the readers' budgets (`file.rs`).

use super::PreviewText;
use super::file::{self, RawLine, TitleRule};
use crate::http::error::AppError;
use crate::http::extract::JsonBody;
use crate::i18n::TradeMessage;
use crate::platform::state::AppState;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header;

/// A batch's name as shown in the list: at most this many characters.
pub const MAX_FILE_NAME_CHARS: usize = 100;

/// Files parsed at once: each may use up to its reading budget (about 100 MB), so a burst
/// of uploads waits its turn instead of adding up.
static PARSING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Parses on the blocking pool (CPU work must not hold an async worker), a few at a time.
async fn parse_off_runtime(
    parse: impl FnOnce() -> Result<Vec<RawLine>, TradeMessage> + Send + 'static,
) -> Result<Vec<RawLine>, TradeMessage> {
    let _permit = PARSING.acquire().await.map_err(|_| TradeMessage::BatchFileUnreadable)?;
    // A reader that panicked read nothing usable: the merchant gets "unreadable", not a 500.
    tokio::task::spawn_blocking(parse).await.unwrap_or(Err(TradeMessage::BatchFileUnreadable))
}

/// Reads the upload: multipart with a `file` part (CSV or xlsx), or JSON with `text`.
pub struct Upload {
    pub lines: Vec<RawLine>,
    pub file_name: String,
    pub merchant_id: Option<i64>,
    pub allow_ported: bool,
}

pub async fn read_upload(state: &AppState, request: Request) -> Result<Upload, AppError> {
    read_upload_with(state, request, file::is_title).await
}

/// Reads an upload whose title row is told by `is_title` (price lists start with product keys).
pub async fn read_upload_with(state: &AppState, request: Request, is_title: TitleRule) -> Result<Upload, AppError> {
    let is_multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("multipart/form-data"));
    // What a file or text holds (no lines, unreadable, too many) is beyond the document's
    // schema: 422, still 40000 naming the field.
    let field_error = |message: TradeMessage| AppError::unprocessable("file", message);
    if !is_multipart {
        let JsonBody(body) = JsonBody::<PreviewText>::from_request(request, state).await?;
        let name = body.file_name.unwrap_or_else(|| "pasted".to_string());
        if name.chars().count() > MAX_FILE_NAME_CHARS {
            return Err(AppError::field("file_name", TradeMessage::BatchFileNameTooLong { max: MAX_FILE_NAME_CHARS }));
        }
        let text = body.text.unwrap_or_default();
        let lines = parse_off_runtime(move || file::parse_text_with(&text, is_title))
            .await
            .map_err(|message| AppError::unprocessable("text", message))?;
        let allow_ported = body.allow_ported.unwrap_or(false);
        return Ok(Upload { lines, file_name: name, merchant_id: body.merchant_id, allow_ported });
    }
    let mut multipart = Multipart::from_request(request, state).await.map_err(|_| AppError::malformed_form())?;
    let (mut lines, mut name, mut merchant_id, mut allow_ported) = (None, String::from("upload"), None, false);
    while let Some(field) = multipart.next_field().await.map_err(|_| AppError::malformed_form())? {
        match field.name().unwrap_or("") {
            "file" => {
                // A browser sends the name as given; keep a shown, bounded one.
                name = field.file_name().unwrap_or("upload").chars().take(MAX_FILE_NAME_CHARS).collect();
                if name.contains('\0') {
                    return Err(AppError::field("file_name", crate::i18n::Message::NulCharacter));
                }
                let bytes = field.bytes().await.map_err(|_| AppError::malformed_form())?;
                lines = Some(
                    parse_off_runtime(move || file::parse_file_with(&bytes, is_title)).await.map_err(field_error)?,
                );
            }
            "text" => {
                let text = field.text().await.map_err(|_| AppError::malformed_form())?;
                lines = Some(
                    parse_off_runtime(move || file::parse_text_with(&text, is_title))
                        .await
                        .map_err(|message| AppError::unprocessable("text", message))?,
                );
            }
            "merchant_id" => {
                merchant_id = field.text().await.ok().and_then(|text| crate::http::query_string::integer(text.trim()))
            }
            "allow_ported" => allow_ported = field.text().await.is_ok_and(|text| matches!(text.trim(), "true" | "1")),
            _ => {}
        }
    }
    let lines = lines.ok_or_else(|| field_error(TradeMessage::BatchEmpty))?;
    Ok(Upload { lines, file_name: name, merchant_id, allow_ported })
}
