//! Administrators read and correct the ported numbers (携号转网记录): the numbers a supplier
//! answered had left the product's carrier (`platform::ports`, recorded by the worker and
//! the callbacks), which placing then refuses for that carrier's products. Listed and
//! exported with the channel that answered and the order it answered for; a wrong record is
//! removed with a reason, audited in its transaction, and this server reads the ports again
//! at once (the others within a second: the table's version moves with every change).

use crate::domain::{Carrier, PhoneNumber};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::export::{Cell, ExportParams, Format, csv_bytes, file_response, small_xlsx};
use crate::http::extract::{ClientAddress, JsonBody, QueryParams};
use crate::http::pagination::PageNumber;
use crate::i18n::audit::AuditDetail;
use crate::i18n::{AdminMessage, Locale, TradeMessage};
use crate::identity::session::AdminUser;
use crate::platform::audit;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::{IntoParams, ToSchema};

pub const MAX_REASON_CHARS: usize = 200;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/ports/list", post(list))
        .route("/adminapi/admin/ports/delete", post(delete))
        .route("/adminapi/admin/ports/export", get(export))
}

/// Which records: the list's body fields, the export's query parameters.
#[derive(Debug, Default, Clone, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PortFilter {
    /// Numbers containing these digits (+86, spaces and full-width digits read).
    pub number: Option<String>,
    /// The carrier the number left: `mobile`, `unicom`, `telecom` or `broadnet`.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom|broadnet)?\s*$")]
    #[param(pattern = r"^\s*(mobile|unicom|telecom|broadnet)?\s*$")]
    pub from_carrier: Option<String>,
}

impl PortFilter {
    fn conditions(&self) -> Result<Conditions, AppError> {
        let mut conditions = Conditions::default();
        if let Some(digits) = self.number.as_deref().and_then(PhoneNumber::digits_as_typed) {
            conditions.push("p.account LIKE ?", vec![Bind::Text(format!("%{digits}%"))]);
        }
        match self.from_carrier.as_deref().map(str::trim).unwrap_or("") {
            "" => {}
            text => {
                let carrier = Carrier::parse(text).ok_or_else(|| {
                    AppError::field(
                        "from_carrier",
                        TradeMessage::InvalidChoice { allowed: "mobile, unicom, telecom, broadnet" },
                    )
                })?;
                conditions.push("p.from_carrier = ?", vec![Bind::Int(carrier.code())]);
            }
        }
        Ok(conditions)
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PortListRequest {
    #[serde(flatten)]
    pub filter: PortFilter,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PortedNumber {
    pub number: String,
    /// The carrier the supplier said the number left (its products are refused for it).
    pub from_carrier: Carrier,
    /// The channel whose answer recorded it (null: recorded without one, or since deleted).
    pub channel_id: Option<i64>,
    pub channel_name: Option<String>,
    /// The order that answer was for (null when the order is gone).
    pub order_id: Option<i64>,
    pub order_no: Option<String>,
    pub system_order_id: Option<String>,
    pub recorded_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PortedNumberPage {
    pub list: Vec<PortedNumber>,
    pub total: i64,
}

const FROM: &str =
    " FROM number_ports p LEFT JOIN channels c ON c.id = p.channel_id LEFT JOIN orders o ON o.id = p.order_id";
const COLUMNS: &str =
    "SELECT p.account, p.from_carrier, p.channel_id, c.name, o.id, o.order_no, o.system_order_id, p.recorded_at";

/// The ported numbers, newest first.
#[utoipa::path(post, path = "/adminapi/admin/ports/list", tag = "admin", request_body = PortListRequest,
    responses((status = 200, description = "`data` is a PortedNumberPage", body = PortedNumberPage),
        (status = 400, description = "40000: page or page_size out of range, or an unknown carrier"),
        (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<PortListRequest>,
) -> ApiResult<PortedNumberPage> {
    let page = request.paging.checked()?;
    let conditions = request.filter.conditions()?;
    let count_sql = format!("SELECT COUNT(*) FROM number_ports p{}", conditions.where_clause());
    let total: i64 = bind_all(sqlx::query(sqlx::AssertSqlSafe(count_sql)), conditions.binds.clone())
        .fetch_one(&state.db.pool)
        .await?
        .try_get(0)?;
    let sql = format!(
        "{COLUMNS}{FROM}{} ORDER BY p.recorded_at DESC, p.account DESC LIMIT {} OFFSET {}",
        conditions.where_clause(),
        page.page_size,
        page.offset()
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(&state.db.pool).await?;
    let list = rows.iter().filter_map(|row| item(row).transpose()).collect::<Result<_, sqlx::Error>>()?;
    Ok(ApiOk(PortedNumberPage { list, total }))
}

/// A row as listed; None for a carrier code this server does not know (a newer server's).
fn item(row: &sqlx::any::AnyRow) -> Result<Option<PortedNumber>, sqlx::Error> {
    let Some(from_carrier) = Carrier::from_code(row.try_get(1)?) else { return Ok(None) };
    Ok(Some(PortedNumber {
        number: row.try_get(0)?,
        from_carrier,
        channel_id: row.try_get(2)?,
        channel_name: row.try_get(3)?,
        order_id: row.try_get(4)?,
        order_no: row.try_get(5)?,
        system_order_id: row.try_get(6)?,
        recorded_at: millis_to_rfc3339(row.try_get(7)?),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PortRemoveRequest {
    /// The number as listed.
    pub number: String,
    /// Why the record is wrong (1 to 200 characters): kept in the audit log.
    pub reason: String,
}

/// Remove a wrong record: the number's orders are placed by its segment's carrier again.
#[utoipa::path(post, path = "/adminapi/admin/ports/delete", tag = "admin", request_body = PortRemoveRequest,
    responses((status = 200, description = "done"),
        (status = 422, description = "40000: the reason is empty or too long (`port.reason.invalid`)"),
        (status = 403, description = "40300: not an administrator"), (status = 404, description = "40400: no such record")),
    security(("token" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<PortRemoveRequest>,
) -> ApiResult<()> {
    let reason = request.reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(AppError::unprocessable("reason", AdminMessage::PortReasonInvalid { max: MAX_REASON_CHARS }));
    }
    let number = PhoneNumber::digits_as_typed(&request.number).ok_or(AppError::NotFound)?;
    let mut transaction = state.db.begin_write().await?;
    // The version trigger (migration 0040) moves in this transaction: every server sees it.
    let removed: Option<(String, i64)> =
        sqlx::query_as("DELETE FROM number_ports WHERE account = $1 RETURNING account, from_carrier")
            .bind(&number)
            .fetch_optional(&mut *transaction)
            .await?;
    let (number, from_carrier) = removed.ok_or(AppError::NotFound)?;
    let target = format!("port:{number}");
    let detail = AuditDetail::NumberPortRemoved { number, from_carrier, reason: reason.to_string() };
    audit::record_detail(
        &mut *transaction,
        Some(admin.user_id),
        audit::action::NUMBER_PORT_REMOVED,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    transaction.commit().await?;
    state.ports.reload(&state.db).await?;
    Ok(ApiOk(()))
}

/// The ported numbers matching the filter as a file (number, carrier left, channel, system
/// order id, recorded at), newest first, CSV or xlsx.
#[utoipa::path(get, path = "/adminapi/admin/ports/export", tag = "admin", params(PortFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 400, description = "40000: an unknown format or carrier"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    headers: HeaderMap,
    QueryParams(filter): QueryParams<PortFilter>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let format = params.format()?;
    let conditions = filter.conditions()?;
    let sql = format!("{COLUMNS}{FROM}{} ORDER BY p.recorded_at DESC, p.account DESC", conditions.where_clause());
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(&state.db.pool).await?;
    let mut cells = vec![crate::i18n::files::PORTS_HEADER.row(locale).into_iter().map(Cell::Text).collect()];
    for row in &rows {
        let Some(port) = item(row)? else { continue };
        cells.push(vec![
            Cell::Id(port.number),
            Cell::text(crate::i18n::files::carrier_name(port.from_carrier, locale)),
            Cell::optional_text(port.channel_name),
            Cell::Id(port.system_order_id.unwrap_or_default()),
            Cell::Time(row.try_get(7)?),
        ]);
    }
    let bytes = match format {
        Format::Csv => csv_bytes(&cells)?,
        Format::Xlsx => small_xlsx(&cells)?,
    };
    Ok(file_response(bytes, format, "ported-numbers"))
}
