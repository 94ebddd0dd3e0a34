//! The history of merchants' prices: every change of a supply price (who, when, from,
//! to), written in the transaction that makes it, and listed for administrators.

use crate::http::error::{ApiOk, ApiResult};
use crate::http::extract::JsonBody;
use crate::http::pagination::PageNumber;
use crate::identity::session::AdminUser;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::sql::{Bind, Conditions, bind_all};
use crate::platform::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use sqlx::{Any, Row, Transaction};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/adminapi/admin/quote/history", post(list))
}

/// Where a price change came from (stored as its code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// One quote saved.
    Edit,
    /// A bulk rule.
    Rule,
    /// A price list imported.
    Import,
}

impl Source {
    fn code(self) -> i64 {
        match self {
            Source::Edit => 1,
            Source::Rule => 2,
            Source::Import => 3,
        }
    }

    fn from_code(code: i64) -> Self {
        match code {
            2 => Source::Rule,
            3 => Source::Import,
            _ => Source::Edit,
        }
    }
}

/// One quote's new price (and status, when it is set too).
pub struct PriceChange {
    pub merchant_id: i64,
    pub product_id: i64,
    /// The price before; `None` for a quote that did not exist.
    pub old_price_fen: Option<i64>,
    pub new_price_fen: i64,
    /// The new status; `None` keeps the quote's (a new quote is on).
    pub status: Option<i64>,
}

/// Writes each change's quote and, when its price moves, its history row, inside the
/// caller's transaction (all or nothing).
pub async fn apply_changes(
    transaction: &mut Transaction<'_, Any>,
    changes: &[PriceChange],
    source: Source,
    changed_by: i64,
) -> Result<(), sqlx::Error> {
    let now = now_millis();
    for change in changes {
        sqlx::query(
            "INSERT INTO quotes (merchant_id, product_id, price_fen, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $5)
             ON CONFLICT (merchant_id, product_id) DO UPDATE SET price_fen = excluded.price_fen,
                 status = COALESCE($6, quotes.status), updated_at = excluded.updated_at",
        )
        .bind(change.merchant_id)
        .bind(change.product_id)
        .bind(change.new_price_fen)
        .bind(change.status.unwrap_or(1))
        .bind(now)
        .bind(change.status)
        .execute(&mut **transaction)
        .await?;
        if change.old_price_fen == Some(change.new_price_fen) {
            continue;
        }
        sqlx::query(
            "INSERT INTO quote_price_history (merchant_id, product_id, old_price_fen, new_price_fen, source, changed_by, changed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(change.merchant_id)
        .bind(change.product_id)
        .bind(change.old_price_fen)
        .bind(change.new_price_fen)
        .bind(source.code())
        .bind(changed_by)
        .bind(now)
        .execute(&mut **transaction)
        .await?;
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct HistoryRequest {
    /// One merchant's changes (omit for every merchant's).
    pub merchant_id: Option<i64>,
    /// One product's changes, by exact key.
    pub product_key: Option<String>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PriceHistoryItem {
    pub id: i64,
    pub merchant_id: i64,
    pub product_key: String,
    pub product_name: String,
    /// Absent for a quote's first price.
    pub old_price_fen: Option<i64>,
    pub new_price_fen: i64,
    pub source: Source,
    /// The administrator's username.
    pub changed_by: Option<String>,
    pub changed_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PriceHistoryResponse {
    pub list: Vec<PriceHistoryItem>,
    pub total: i64,
}

/// Price changes, newest first.
#[utoipa::path(post, path = "/adminapi/admin/quote/history", tag = "admin", request_body = HistoryRequest,
    responses((status = 200, description = "`data` is a PriceHistoryResponse", body = PriceHistoryResponse),
        (status = 400, description = "40000: page or page_size out of range"), (status = 403, description = "40300: not an administrator")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<HistoryRequest>,
) -> ApiResult<PriceHistoryResponse> {
    let page = request.paging.checked()?;
    let mut conditions = Conditions::default();
    if let Some(merchant_id) = request.merchant_id {
        conditions.push("h.merchant_id = ?", vec![Bind::Int(merchant_id)]);
    }
    if let Some(key) =
        request.product_key.as_deref().map(crate::domain::product_key_input).filter(|key| !key.is_empty())
    {
        conditions.push("p.product_key = ?", vec![Bind::Text(key)]);
    }
    let from =
        "FROM quote_price_history h JOIN products p ON p.id = h.product_id LEFT JOIN users u ON u.id = h.changed_by";
    let count_sql = format!("SELECT COUNT(*) {from}{}", conditions.where_clause());
    let total: i64 = bind_all(sqlx::query(sqlx::AssertSqlSafe(count_sql)), conditions.binds.clone())
        .fetch_one(&state.db.pool)
        .await?
        .try_get(0)?;
    let offset = page.offset();
    let sql = format!(
        "SELECT h.id, h.merchant_id, p.product_key, p.name, h.old_price_fen, h.new_price_fen, h.source, u.username,
                h.changed_at
         {from}{} ORDER BY h.changed_at DESC, h.id DESC LIMIT {} OFFSET {offset}",
        conditions.where_clause(),
        page.page_size
    );
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_all(&state.db.pool).await?;
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        list.push(PriceHistoryItem {
            id: row.try_get(0)?,
            merchant_id: row.try_get(1)?,
            product_key: row.try_get(2)?,
            product_name: row.try_get(3)?,
            old_price_fen: row.try_get(4)?,
            new_price_fen: row.try_get(5)?,
            source: Source::from_code(row.try_get(6)?),
            changed_by: row.try_get(7)?,
            changed_at: millis_to_rfc3339(row.try_get(8)?),
        });
    }
    Ok(ApiOk(PriceHistoryResponse { list, total }))
}
