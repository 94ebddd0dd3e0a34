//! The administrators' reconciliation of a channel and a Beijing day (`reconcile.rs`
//! compares): run it and see totals and differences, or download every line as a file.
//! Administrators only (`AdminUser`). Nothing is written but for one thing the statement
//! reports: a success the supplier reversed (冲正) is applied when the reconciliation is run
//! (`POST`), as its callback would be (`callback::settle`): once, whatever runs it again.

use super::reconcile::{self, Kind, Line, Totals};
use crate::http::error::{ApiOk, ApiResult, AppError, code};
use crate::http::export::{Cell, ExportParams, PageFetcher, respond, titles};
use crate::http::extract::{JsonBody, QueryParams};
use crate::i18n::{ChannelMessage, Locale, files};
use crate::identity::session::AdminUser;
use crate::money::statements::Period;
use crate::platform::channel::statement::{MAX_STATEMENT_BYTES, MAX_STATEMENT_LINES, StatementError, StatementLine};
use crate::platform::channel::{ChannelStatus, attempts, model};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReconcileRequest {
    #[schema(minimum = 1)]
    #[param(minimum = 1)]
    pub channel_id: i64,
    /// The Beijing day, `YYYY-MM-DD` (no such day is 422).
    #[schema(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    #[param(pattern = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")]
    pub date: String,
}

/// Lines of each kind.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReconcileCounts {
    pub matched: i64,
    pub missing_ours: i64,
    pub missing_theirs: i64,
    pub amount_mismatch: i64,
    pub status_mismatch: i64,
    /// Our successes the supplier lists as reversed (the orders are reversed and refunded).
    pub reversed: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Reconciliation {
    pub channel_id: i64,
    pub channel_code: String,
    pub channel_name: String,
    pub date: String,
    /// When it was run (RFC 3339).
    pub run_at: String,
    /// Our successful attempts of the day.
    pub ours: Totals,
    /// The supplier's successful lines of the day.
    pub theirs: Totals,
    /// Lines both agree on (at our figures).
    pub matched: Totals,
    pub counts: ReconcileCounts,
    /// Every line that differs, by kind then upstream id; at most 5,000 (the export has all).
    pub differences: Vec<Line>,
    /// Differences in all (more than listed when above 5,000).
    pub differences_total: i64,
}

/// A supplier that did not give a usable statement: 502 with a clear reason (its fault,
/// not the caller's), nothing written.
fn supplier_failed(error: StatementError) -> AppError {
    tracing::warn!(error = %error, "channel statement refused");
    let message = match error {
        StatementError::Unsupported => ChannelMessage::StatementUnsupported,
        StatementError::Unreachable(_) => ChannelMessage::StatementUnreachable,
        StatementError::Status(status) => ChannelMessage::StatementStatus { status },
        StatementError::TooLarge => ChannelMessage::StatementTooLarge { max_mib: MAX_STATEMENT_BYTES >> 20 },
        StatementError::TooManyLines => ChannelMessage::StatementTooManyLines { max: MAX_STATEMENT_LINES },
        StatementError::BadSignature => ChannelMessage::StatementSignatureWrong,
        StatementError::Malformed(_) => ChannelMessage::StatementMalformed,
    };
    AppError::Refused {
        status: StatusCode::BAD_GATEWAY,
        code: code::UPSTREAM_FAILED,
        message: message.into(),
        retry_after_seconds: None,
    }
}

/// Runs a reconciliation: the channel row, the date normalised, and the comparison.
async fn run(
    state: &AppState,
    request: &ReconcileRequest,
    apply_reversals: bool,
) -> Result<(model::ChannelRow, String, reconcile::Outcome), AppError> {
    let date = request.date.trim().to_string();
    // Not `YYYY-MM-DD` does not match the document's pattern (400); a day of that shape
    // that does not exist breaks a rule beyond it (422).
    if !crate::money::statements::is_day_shaped(&date) {
        return Err(AppError::field("date", ChannelMessage::ReconcileDateInvalid));
    }
    let period = Period::parse(None, &date)
        .ok_or_else(|| AppError::unprocessable("date", ChannelMessage::ReconcileDateInvalid))?;
    let row = model::by_id(&state.db.pool, request.channel_id).await?.ok_or(AppError::NotFound)?;
    let adapter = state.channels.adapter(&row)?;
    let theirs = adapter.statement(&date).await.map_err(supplier_failed)?;
    let ours = reconcile::our_lines(&state.db.pool, row.id, period).await?;
    let mut outcome = reconcile::reconcile(&ours, &theirs);
    reconcile::add_our_outcomes(&state.db.pool, row.id, &mut outcome.lines).await?;
    if apply_reversals {
        apply_reversed(state, row.id, &theirs, &mut outcome.lines).await?;
    }
    Ok((row, date, outcome))
}

/// Reverses the orders of the statement's reversed lines we hold as successes, as their
/// callbacks would; a line then shows our outcome `reversed`.
async fn apply_reversed(
    state: &AppState,
    channel_id: i64,
    theirs: &[StatementLine],
    lines: &mut [Line],
) -> Result<(), AppError> {
    for line in lines.iter_mut().filter(|line| line.kind == Kind::Reversed) {
        let Some(attempt) = attempts::by_upstream(&state.db.pool, channel_id, &line.upstream_order_id).await? else {
            continue;
        };
        let reason = theirs
            .iter()
            .find(|their| their.upstream_order_id == line.upstream_order_id)
            .map(|their| their.reason.clone())
            .unwrap_or_default();
        super::callback::settle(state, &attempt, ChannelStatus::Reversed { reason }).await?;
        let status: Option<i64> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
            .bind(attempt.order_id)
            .fetch_optional(&state.db.pool)
            .await?;
        if status == Some(crate::domain::OrderStatus::Reversed.code()) {
            line.our_outcome = Some("reversed".into());
        }
    }
    Ok(())
}

/// Reconcile a channel's day: our successful attempts against the supplier's statement.
#[utoipa::path(post, path = "/adminapi/admin/channel/reconcile", tag = "channels", request_body = ReconcileRequest,
    responses((status = 200, description = "`data` is Reconciliation", body = Reconciliation),
        (status = 400, description = "40000: the date is not YYYY-MM-DD"),
        (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such channel"),
        (status = 422, description = "40000: no such day"),
        (status = 502, description = "50200: the supplier gave no usable statement (unreachable, refused, too large, badly signed, malformed)")),
    security(("token" = [])))]
pub async fn reconcile(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<ReconcileRequest>,
) -> ApiResult<Reconciliation> {
    let (row, date, outcome) = run(&state, &request, true).await?;
    let [matched, missing_ours, missing_theirs, amount_mismatch, status_mismatch, reversed] = outcome.counts;
    let differences_total = outcome.lines.iter().filter(|line| line.kind != Kind::Matched).count();
    let differences = outcome
        .lines
        .into_iter()
        .filter(|line| line.kind != Kind::Matched)
        .take(reconcile::MAX_LISTED_DIFFERENCES)
        .collect();
    Ok(ApiOk(Reconciliation {
        channel_id: row.id,
        channel_code: row.code,
        channel_name: row.name,
        date,
        run_at: crate::platform::db::millis_to_rfc3339(crate::platform::db::now_millis()),
        ours: outcome.ours,
        theirs: outcome.theirs,
        matched: outcome.matched,
        counts: ReconcileCounts { matched, missing_ours, missing_theirs, amount_mismatch, status_mismatch, reversed },
        differences,
        differences_total: differences_total as i64,
    }))
}

fn export_row(line: &Line, kinds: &[&str; 6], date: &str) -> Vec<Cell> {
    let money = |fen: Option<i64>| fen.map_or(Cell::Empty, Cell::Money);
    let id = |text: &Option<String>| text.as_deref().map_or(Cell::Empty, Cell::id);
    vec![
        Cell::text(kinds[line.kind.index()]),
        Cell::id(&line.upstream_order_id),
        id(&line.system_order_id),
        Cell::id(&line.account),
        money(line.our_face_value_fen),
        money(line.our_cost_fen),
        money(line.their_face_value_fen),
        money(line.their_price_fen),
        Cell::optional_text(line.their_status.as_deref()),
        Cell::optional_text(line.our_outcome.as_deref()),
        id(&line.our_serial_no),
        id(&line.their_serial_no),
        Cell::text(date),
    ]
}

/// Download a channel day's reconciliation as CSV or xlsx: every line, differences first.
#[utoipa::path(get, path = "/adminapi/admin/channel/reconcile/export", tag = "channels", params(ReconcileRequest, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: the date, format or sort is not of the documented form"),
        (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such channel"),
        (status = 422, description = "40000: no such day"),
        (status = 502, description = "50200: the supplier gave no usable statement")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    QueryParams(request): QueryParams<ReconcileRequest>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let format = params.format()?;
    // A download changes nothing: the reversals it lists are applied by running it.
    let (row, date, outcome) = run(&state, &request, false).await?;
    let kinds = files::RECONCILE_KINDS.get(locale);
    let rows: Vec<Vec<Cell>> = outcome.lines.iter().map(|line| export_row(line, &kinds, &date)).collect();
    let mut rows = Some(rows);
    let fetcher: PageFetcher = Box::new(move |_cursor| {
        let page = rows.take().unwrap_or_default();
        Box::pin(async move { Ok((page, None)) })
    });
    let header_row = titles(&files::RECONCILE_COLUMNS.get(locale));
    respond(format, &format!("reconcile-{}-{date}", row.code), header_row, fetcher).await
}
