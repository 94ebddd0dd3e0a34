//! Order lists: the list's filters, keyset pages (fast at any depth), page numbers.
//! Their totals come from the counters and their roll-ups rather than from counting rows
//! (`totals.rs`, which also reads a page with its total).

use super::model::{ORDER_COLUMNS, OrderRow};
use crate::domain::{Carrier, OrderKind, OrderStatus, PhoneNumber, beijing_day, beijing_day_start};
use crate::http::error::AppError;
use crate::http::pagination::{PageRequest, finish_page, parse_time};
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::platform::sql::{Bind, Conditions, bind_all, shift_placeholders};
use serde::{Deserialize, Serialize};
use sqlx::AnyPool;
use utoipa::{IntoParams, ToSchema};

/// The filters of an order list, the same for the list, the total and exports.
#[derive(Debug, Default, Clone, Deserialize, Serialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrderFilter {
    /// Which list: `ordinary` (default), `card` (card-secret), `behalf` (on-behalf), or `all`.
    #[schema(pattern = r"^\s*(ordinary|card|behalf|all)?\s*$")]
    #[param(pattern = r"^\s*(ordinary|card|behalf|all)?\s*$")]
    pub kind: Option<String>,
    /// Administrators: one merchant's orders (omit for all). Merchants: omit, or their own mid.
    pub merchant_id: Option<i64>,
    /// 0 pending, 1 processing, 2 success, 3 failure, 4 manual review, 5 reversed.
    #[schema(minimum = 0, maximum = 5)]
    #[param(minimum = 0, maximum = 5)]
    pub status: Option<i64>,
    /// true: orders not final yet (pending, processing or manual review: what the
    /// workplace counts as in flight); false: final ones (success or failure).
    pub in_flight: Option<bool>,
    /// `today` (placed since 00:00 Beijing time) or `history` (before).
    #[schema(pattern = r"^\s*(today|history)?\s*$")]
    #[param(pattern = r"^\s*(today|history)?\s*$")]
    pub order_type: Option<String>,
    /// `mobile`, `unicom` or `telecom`.
    #[schema(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    #[param(pattern = r"^\s*(mobile|unicom|telecom)?\s*$")]
    pub carrier: Option<String>,
    pub face_value_fen: Option<i64>,
    /// 归属地: the GB/T 2260 code of the number's province when the order was placed
    /// (440000 Guangdong). Orders whose number had no known segment match no province.
    #[schema(schema_with = crate::http::openapi_contract::optional_province)]
    #[param(schema_with = crate::http::openapi_contract::optional_province)]
    pub province: Option<u32>,
    /// Time taken at least this many ms (finished orders only).
    pub duration_min_ms: Option<i64>,
    /// Time taken below this many ms (finished orders only).
    pub duration_max_ms: Option<i64>,
    /// true: only orders with a serial number; false: only without.
    pub has_serial: Option<bool>,
    /// true: buyback orders (回购单); false: normal orders (正常单).
    pub buyback: Option<bool>,
    /// Exact merchant order id.
    pub merchant_order_id: Option<String>,
    /// Exact order number.
    pub order_no: Option<String>,
    /// Exact recharge account; a phone number may be written any way the add-order form
    /// accepts (`+86 138 0013 8000`).
    pub account: Option<String>,
    /// Placed at or after (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub start_time: Option<String>,
    /// Placed before (RFC 3339).
    #[schema(schema_with = crate::http::openapi_contract::optional_time)]
    #[param(schema_with = crate::http::openapi_contract::optional_time)]
    pub end_time: Option<String>,
}

/// A checked filter, scoped to what the caller may see.
#[derive(Debug, Clone, Default)]
pub struct OrderQuery {
    pub merchant_id: Option<i64>,
    pub kind: Option<OrderKind>,
    pub status: Option<i64>,
    pub in_flight: Option<bool>,
    pub carrier: Option<i64>,
    pub face_value_fen: Option<i64>,
    /// The province's name as orders store it (广东).
    pub province: Option<String>,
    pub duration_min_ms: Option<i64>,
    pub duration_max_ms: Option<i64>,
    pub has_serial: Option<bool>,
    pub buyback: Option<bool>,
    pub merchant_order_id: Option<String>,
    pub order_no: Option<String>,
    pub account: Option<String>,
    pub from: Option<i64>,
    pub to: Option<i64>,
}

fn non_empty(text: &Option<String>) -> Option<String> {
    text.as_deref().map(str::trim).filter(|text| !text.is_empty()).map(str::to_string)
}

impl OrderFilter {
    pub fn resolve(&self, caller: &CurrentUser, now: i64) -> Result<OrderQuery, AppError> {
        let choice = |allowed| AppError::field("", TradeMessage::InvalidChoice { allowed });
        let kind_text = self.kind.as_deref().map(str::trim).filter(|text| !text.is_empty()).unwrap_or("ordinary");
        let kind = match kind_text {
            "all" => None,
            text => Some(OrderKind::parse(text).ok_or_else(|| rename(choice("ordinary, card, behalf, all"), "kind"))?),
        };
        let status = match self.status {
            Some(code) => {
                Some(OrderStatus::from_code(code).ok_or_else(|| rename(choice("0, 1, 2, 3, 4, 5"), "status"))?.code())
            }
            None => None,
        };
        let carrier = match non_empty(&self.carrier) {
            Some(text) => Some(
                Carrier::parse(&text)
                    .filter(|carrier| *carrier != Carrier::Broadnet)
                    .ok_or_else(|| rename(choice("mobile, unicom, telecom"), "carrier"))?
                    .code(),
            ),
            None => None,
        };
        let province = match self.province {
            Some(code) => Some(
                crate::i18n::provinces::province_name(code, crate::i18n::Locale::ZhCn)
                    .ok_or_else(|| AppError::field("province", TradeMessage::ProvinceInvalid))?
                    .to_string(),
            ),
            None => None,
        };
        let mut from = parse_time("start_time", self.start_time.as_deref())?;
        let mut to = parse_time("end_time", self.end_time.as_deref())?;
        let today = beijing_day_start(beijing_day(now));
        match self.order_type.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            None => {}
            Some("today") => from = Some(from.map_or(today, |from| from.max(today))),
            Some("history") => to = Some(to.map_or(today, |to| to.min(today))),
            Some(_) => return Err(rename(choice("today, history"), "order_type")),
        }
        Ok(OrderQuery {
            merchant_id: caller.scope(self.merchant_id)?,
            kind,
            status,
            in_flight: self.in_flight,
            carrier,
            face_value_fen: self.face_value_fen,
            province,
            duration_min_ms: self.duration_min_ms,
            duration_max_ms: self.duration_max_ms,
            has_serial: self.has_serial,
            buyback: self.buyback,
            merchant_order_id: non_empty(&self.merchant_order_id),
            order_no: non_empty(&self.order_no),
            account: non_empty(&self.account).map(|text| stored_account(&text)),
            from,
            to,
        })
    }
}

/// A filter that is a phone number however written is the number as orders store it;
/// anything else (a card account, a fragment) is matched as given.
fn stored_account(text: &str) -> String {
    PhoneNumber::parse(text).map_or_else(|| text.to_string(), |number| number.as_str().to_string())
}

fn rename(error: AppError, field: &str) -> AppError {
    match error {
        AppError::Validation(mut fields) => {
            for entry in &mut fields {
                entry.field = field.to_string();
            }
            AppError::Validation(fields)
        }
        other => other,
    }
}

impl OrderQuery {
    /// The conditions on the orders table, for the time range [from, to).
    pub fn row_conditions(&self, from: Option<i64>, to: Option<i64>) -> Conditions {
        let mut conditions = Conditions::default();
        self.shared_conditions(&mut conditions);
        if let Some(min) = self.duration_min_ms {
            conditions.push("duration_ms >= ?", vec![Bind::Int(min)]);
        }
        if let Some(max) = self.duration_max_ms {
            conditions.push("duration_ms < ?", vec![Bind::Int(max)]);
        }
        match self.has_serial {
            Some(true) => conditions.push("serial_no IS NOT NULL", vec![]),
            Some(false) => conditions.push("serial_no IS NULL", vec![]),
            None => {}
        }
        for (template, value) in [
            ("merchant_order_id = ?", &self.merchant_order_id),
            ("order_no = ?", &self.order_no),
            ("account = ?", &self.account),
            ("province = ?", &self.province),
        ] {
            if let Some(value) = value {
                conditions.push(template, vec![Bind::Text(value.clone())]);
            }
        }
        if let Some(from) = from {
            conditions.push("created_at >= ?", vec![Bind::Int(from)]);
        }
        if let Some(to) = to {
            conditions.push("created_at < ?", vec![Bind::Int(to)]);
        }
        conditions
    }

    /// The columns orders, counters and roll-ups share.
    pub(super) fn rollup_conditions(&self, conditions: &mut Conditions) {
        let equal = [
            ("merchant_id = ?", self.merchant_id),
            ("order_kind = ?", self.kind.map(OrderKind::code)),
            ("status = ?", self.status),
        ];
        for (template, value) in equal {
            if let Some(value) = value {
                conditions.push(template, vec![Bind::Int(value)]);
            }
        }
        // Constants, not binds: the two sets of status codes are fixed.
        match self.in_flight {
            Some(true) => conditions.push("status IN (0, 1, 4)", vec![]),
            Some(false) => conditions.push("status IN (2, 3, 5)", vec![]),
            None => {}
        }
    }

    /// The columns orders and counters share.
    pub(super) fn shared_conditions(&self, conditions: &mut Conditions) {
        self.rollup_conditions(conditions);
        let equal = [
            ("carrier = ?", self.carrier),
            ("face_value_fen = ?", self.face_value_fen),
            ("buyback = ?", self.buyback.map(i64::from)),
        ];
        for (template, value) in equal {
            if let Some(value) = value {
                conditions.push(template, vec![Bind::Int(value)]);
            }
        }
    }
}

/// One page of orders and the cursor of the next page (None on the last).
pub async fn fetch_page(
    pool: &AnyPool,
    query: &OrderQuery,
    page: PageRequest,
) -> Result<(Vec<OrderRow>, Option<String>), sqlx::Error> {
    let (sql, binds) = page_statement(query, page, ORDER_COLUMNS, 0);
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await?;
    let orders = rows.iter().map(OrderRow::from_row).collect::<Result<Vec<_>, _>>()?;
    Ok(finish_page(orders, page.page_size, |order| (order.created_at, order.id)))
}

/// The statement of a page (`LIMIT size + 1`), reading `columns`, its placeholders numbered
/// after the `before` placeholders those columns hold.
pub(super) fn page_statement(
    query: &OrderQuery,
    page: PageRequest,
    columns: &str,
    before: usize,
) -> (String, Vec<Bind>) {
    let conditions = rows_after(query, page.descending, page.cursor);
    let order = time_order(page.descending);
    let offset = page.offset();
    let sql = format!(
        "SELECT {columns} FROM orders{} ORDER BY {order} LIMIT {} OFFSET {offset}",
        shift_placeholders(&conditions.where_clause(), before),
        page.page_size + 1
    );
    (sql, conditions.binds)
}

/// The query's conditions on the rows after `after` (created_at, id) in the list's order:
/// the keyset cursor of a page, and of the export's pages (http/export.rs).
pub(super) fn rows_after(query: &OrderQuery, descending: bool, after: Option<(i64, i64)>) -> Conditions {
    let mut conditions = query.row_conditions(query.from, query.to);
    if let Some((time, id)) = after {
        let template = if descending { "(created_at, id) < (?, ?)" } else { "(created_at, id) > (?, ?)" };
        conditions.push(template, vec![Bind::Int(time), Bind::Int(id)]);
    }
    conditions
}

/// The list's order, newest or oldest first.
pub(super) fn time_order(descending: bool) -> &'static str {
    if descending { "created_at DESC, id DESC" } else { "created_at ASC, id ASC" }
}
