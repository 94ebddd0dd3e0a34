//! Batch add: a PREVIEW checks every line of a file (or pasted text) and stores the
//! batch without charging anything; a SUBMIT places the valid lines as orders, a few
//! thousand per transaction, and may be repeated safely: lines already placed are
//! never placed again. A placed line is known by its order (batch id and merchant order
//! id); only refused lines are written at submit. `submit.rs` holds the submitting half.

mod check;
mod decide;
pub mod detail;
pub(crate) mod file;
pub mod lifecycle;
pub(crate) mod notice;
mod place;
mod ranges;
mod result;
mod store;
pub mod submit;
mod summary;
pub(crate) mod upload;

use self::check::{Checked, cell, check_lines};
use self::file::RawLine;
use self::store::{off_runtime, recent_duplicates, store_batch};
use self::upload::{Upload, read_upload};
use super::store::Offer;
use super::store::all_offers;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, ExportParams, Format, PageFetcher, csv_stream, file_response, small_xlsx, titles};
use crate::http::extract::QueryParams;
use crate::i18n::{Locale, Message, TradeMessage, files};
use crate::identity::session::CurrentUser;
use crate::money::finance::read_account;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{
    Router,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use utoipa::{IntoParams, ToSchema};

pub use self::submit::{BatchListRequest, BatchListResponse, SubmitRequest, list, submit};
pub use self::summary::BatchSummary;

/// Uploads may be this large (a 200,000-line CSV is about 10 MB).
pub const MAX_UPLOAD_BYTES: usize = 32 * 1024 * 1024;
/// Invalid lines listed in a preview answer; all of them are in the result file.
pub const PREVIEW_ERRORS: usize = 1_000;

pub fn upload_router() -> Router<AppState> {
    Router::new().route("/adminapi/order/batch/preview", post(preview))
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/order/batch/submit", post(submit))
        .route("/adminapi/order/batch/list", post(list))
        .route("/adminapi/order/batch/result", get(result))
        .route("/adminapi/order/batch/template", get(template))
        .route("/adminapi/order/batch/discard", post(self::lifecycle::discard))
        .route("/adminapi/order/batch/detail", post(self::detail::detail))
}

pub mod outcome;

/// The JSON form of a preview (pasted lines); files come as multipart field `file`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PreviewText {
    /// One order per line: account, product key, optional merchant order id, separated
    /// by commas, tabs, semicolons or spaces.
    pub text: Option<String>,
    /// Shown in the batch list (default "pasted").
    #[schema(max_length = 100)]
    pub file_name: Option<String>,
    /// Administrators only: the merchant to order for.
    pub merchant_id: Option<i64>,
    /// The merchant confirms that numbers whose segment belongs to another carrier than
    /// the product's were ported: such lines are valid (multipart: field `allow_ported`).
    pub allow_ported: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewError {
    pub line_no: i64,
    pub account: String,
    pub product_key: String,
    pub merchant_order_id: String,
    /// A message key (order.account.invalid, order.account.carrier_mismatch,
    /// order.quote.unavailable, batch.duplicate_in_file, order.merchant_order_id.duplicate,
    /// funds.insufficient, ...).
    pub reason_key: String,
    /// The reason in the request's language.
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewResponse {
    /// Pass to /adminapi/order/batch/submit to place the valid lines.
    pub batch_id: i64,
    pub total_rows: i64,
    pub valid_rows: i64,
    pub invalid_rows: i64,
    /// What the valid lines cost together, fen.
    pub total_fen: i64,
    /// Balance plus available credit now, fen.
    pub spendable_fen: i64,
    /// The first 1,000 invalid lines with their reasons.
    pub errors: Vec<PreviewError>,
    /// Valid lines without a merchant order id whose account and product were ordered
    /// within the last day, or are on an earlier such line of the file (pasted twice, they
    /// would be ordered twice); the first 1,000.
    pub recent_duplicates: Vec<self::lifecycle::RecentDuplicate>,
    /// How many such lines in all.
    pub recent_duplicate_rows: i64,
    /// Submit before this, or preview again.
    pub expires_at: String,
}

/// Check every line of a batch and store it, charging nothing. Reasons per line: bad
/// number, carrier mismatch, unknown product or no active quote, malformed or duplicate
/// merchant order id (in the file or already used), over the funds available.
#[utoipa::path(post, path = "/adminapi/order/batch/preview", tag = "order",
    request_body(content = PreviewText, description = "JSON `{text}`, or multipart/form-data with a `file` part (CSV or xlsx, up to 32 MB)"),
    responses((status = 200, description = "`data` is a PreviewResponse", body = PreviewResponse), (status = 400, description = "40000: not JSON or a multipart form, or `file_name` over 100 characters"),
        (status = 404, description = "40400: an administrator named no such merchant"),
        (status = 422, description = "40000: the file or text holds no order lines, cannot be read, or is too large")),
    security(("token" = [])))]
pub async fn preview(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    request: Request,
) -> ApiResult<PreviewResponse> {
    let locale = Locale::from_headers(&headers);
    let Upload { lines, file_name, merchant_id: requested_merchant, allow_ported } =
        read_upload(&state, request).await?;
    let merchant_id = caller.acting_merchant(requested_merchant)?;
    crate::money::finance::ensure_merchant_enabled(&state.db.pool, merchant_id).await?;
    self::lifecycle::remove_expired(&state, merchant_id).await?;
    let offers = all_offers(&state.db.pool, merchant_id).await?;
    let spendable = read_account(&state.db.pool, merchant_id).await?.spendable();
    let lines = std::sync::Arc::new(lines);
    let (checked, running) = checked_lines(&state, merchant_id, lines, (offers, spendable, allow_ported)).await?;
    let checked = std::sync::Arc::new(checked);
    // Found before the batch is stored, and stored with it: a preview reopened later shows
    // the same warnings.
    let recent_duplicates = recent_duplicates(&state, merchant_id, &checked).await?;
    let flagged = Flagged {
        rows: recent_duplicates.len() as i64,
        lines: recent_duplicates.into_iter().take(PREVIEW_ERRORS).collect(),
    };
    // The expiry answered is the one a submit enforces: from the time stored.
    let created_at = now_millis();
    let batch = (&*file_name, &flagged, created_at);
    let batch_id = store_batch(&state, merchant_id, caller.user_id, batch, &checked, running).await?;
    let invalid: Vec<&Checked> = checked.iter().filter(|entry| entry.reason.is_some()).collect();
    Ok(ApiOk(PreviewResponse {
        batch_id,
        total_rows: checked.len() as i64,
        valid_rows: (checked.len() - invalid.len()) as i64,
        invalid_rows: invalid.len() as i64,
        total_fen: running,
        spendable_fen: spendable,
        errors: invalid
            .iter()
            .take(PREVIEW_ERRORS)
            .map(|entry| {
                let reason = entry.reason.clone().unwrap_or(TradeMessage::BatchLineIncomplete);
                let line = (entry.line_no, &*entry.account, &*entry.product_key, &*entry.merchant_order_id);
                preview_error(line, reason.key().to_string(), Some(reason), locale)
            })
            .collect(),
        recent_duplicate_rows: flagged.rows,
        recent_duplicates: flagged.lines,
        expires_at: millis_to_rfc3339(created_at + self::summary::PREVIEW_LIFETIME_MS),
    }))
}

/// The lines a preview flags as repeating a recent order or an earlier line (the first
/// 1,000 of them) and how many there are, as stored with the batch.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Flagged {
    pub rows: i64,
    pub lines: Vec<self::lifecycle::RecentDuplicate>,
}

/// An invalid line as a preview lists it: `reason` is None for a stored reason this
/// version does not know (shown as stored).
pub fn preview_error(
    (line_no, account, product_key, merchant_order_id): (i64, &str, &str, &str),
    reason_key: String,
    reason: Option<TradeMessage>,
    locale: Locale,
) -> PreviewError {
    PreviewError {
        line_no,
        account: account.to_string(),
        product_key: product_key.to_string(),
        merchant_order_id: merchant_order_id.to_string(),
        // Through `Message`: English sentences start with a capital letter.
        reason: reason.map_or_else(|| reason_key.clone(), |reason| Message::from(reason).text(locale).into_owned()),
        reason_key,
    }
}

/// The lines checked against the merchant order ids already used. The ids are looked up
/// while the lines are checked as if none were used, which is the answer whenever none is
/// (a new file): the look-up is database time (100,000 ids: 100-140 ms) and the check the
/// server's (50-75 ms), so they overlap. A file with used ids is checked again with them.
async fn checked_lines(
    state: &AppState,
    merchant_id: i64,
    lines: std::sync::Arc<Vec<RawLine>>,
    (offers, spendable, allow_ported): (std::collections::HashMap<String, Offer>, i64, bool),
) -> Result<(Vec<Checked>, i64), AppError> {
    let offers = std::sync::Arc::new(offers);
    let segments = state.segments.table();
    let blocked = state.blocklist.current(&state.db).await?;
    let ports = state.ports.current(&state.db).await?;
    let check = |used: HashSet<String>| {
        let (lines, offers) = (std::sync::Arc::clone(&lines), std::sync::Arc::clone(&offers));
        let known = (std::sync::Arc::clone(&segments), std::sync::Arc::clone(&blocked), std::sync::Arc::clone(&ports));
        // 100,000 lines are tens of milliseconds of work without a pause: off the async
        // workers, which would otherwise hold every other request for that long (src/platform/runtime.rs).
        off_runtime(move || {
            check_lines(&lines, &offers, (&known.0, &known.1, &known.2), &used, spendable, allow_ported)
        })
    };
    let all = std::sync::Arc::clone(&lines);
    let given =
        off_runtime(move || all.iter().map(|line| cell(line, 2)).filter(|id| !id.is_empty()).collect::<Vec<_>>())
            .await?;
    let used = self::place::used_ids_pooled(&state.db.pool, state.db.kind, merchant_id, &given);
    let (used, checked) = tokio::join!(used, check(HashSet::new()));
    let used = used?;
    if used.is_empty() {
        return checked;
    }
    check(used).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BatchParams {
    pub batch_id: i64,
}

/// The result of every line of a batch as CSV: line, account, product key, merchant
/// order id, price (yuan), outcome, reason, order number, and the order's status and
/// failure reason as of the download (the final outcome once the top-up has finished).
#[utoipa::path(get, path = "/adminapi/order/batch/result", tag = "order", params(BatchParams),
    responses((status = 200, description = "text/csv", content(("text/csv"))), (status = 404, description = "40400: no such batch (or another merchant's)")),
    security(("token" = [])))]
pub async fn result(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(params): QueryParams<BatchParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let merchant_id = self::summary::batch_of(&state, &caller, params.batch_id).await?.merchant_id;
    let header = files::BATCH_RESULT_COLUMNS.get(locale);
    let (pool, engine, batch_id) = (state.db.pool.clone(), state.db.kind, params.batch_id);
    let fetch: PageFetcher = Box::new(move |cursor| {
        let pool = pool.clone();
        Box::pin(async move {
            let after: i64 = cursor.as_deref().and_then(|text| text.parse().ok()).unwrap_or(0);
            let page = self::result::page(&pool, engine, (batch_id, merchant_id), after).await?;
            let lines = page.lines.into_iter().map(|line| line.cells(locale)).collect();
            Ok((lines, page.next.map(|line| line.to_string())))
        })
    });
    Ok(csv_stream(&format!("batch-{batch_id}"), titles(&header), crate::http::export::rows_as_csv(fetch)))
}

/// The batch template: a title row and an example line, as CSV or xlsx.
#[utoipa::path(get, path = "/adminapi/order/batch/template", tag = "order", params(ExportParams),
    responses((status = 200, description = "text/csv or xlsx", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")))), security(("token" = [])))]
pub async fn template(
    _caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let title = files::BATCH_TEMPLATE_COLUMNS.get(Locale::from_headers(&headers));
    let rows =
        vec![titles(&title), vec![Cell::id("13800138000"), Cell::text("MOBILE-DIRECT-100"), Cell::id("ORDER-0001")]];
    let format = params.format()?;
    let bytes = match format {
        Format::Csv => {
            let mut bytes = "\u{feff}".as_bytes().to_vec();
            bytes.extend(crate::http::export::csv_bytes(&rows)?);
            bytes
        }
        Format::Xlsx => small_xlsx(&rows)?,
    };
    Ok(file_response(bytes, format, "batch-template"))
}
