//! How every list pages: a page request (keyset cursor or page number, size, order),
//! the opaque cursor, the cap on counted rows, and the RFC 3339 times of list filters.
//! Orders, the account log, quotes, merchants and batches all page this way.

use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::platform::sql::{Bind, Conditions, bind_all};
use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use utoipa::ToSchema;

pub const MAX_PAGE_SIZE: i64 = 500;
/// The last page number asked for (5 billion rows at the largest page size): beyond it a
/// page is a mistake, refused like one, and the offset can never overflow.
pub const MAX_PAGE: i64 = 10_000_000;

/// Which rows of a list: after a cursor (keyset), or a page number (offset).
#[derive(Debug, Clone, Copy)]
pub struct PageRequest {
    pub descending: bool,
    pub cursor: Option<(i64, i64)>,
    pub page: Option<i64>,
    pub page_size: i64,
}

/// The paging of a list that pages by number: flattened into the list's request (merchants,
/// quotes, price history, batches, notifications), so every list names and bounds it alike.
/// Serialize and Default: a request that defaults its fields (`#[serde(default)]`, the
/// notification list) shows the defaults in the document. No defaults of its own: the
/// document then calls every field optional, as it is.
#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
pub struct PageNumber {
    /// 1-based, default 1.
    #[schema(minimum = 1, maximum = 10000000)]
    pub page: Option<i64>,
    /// 1 to 500, default 20.
    #[schema(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
}

impl PageNumber {
    /// The rows asked for, checked as [`page_request`] checks them.
    pub fn checked(&self) -> Result<PageRequest, AppError> {
        page_request(None, None, self.page, self.page_size)
    }
}

/// The paging of a list that also pages by keyset (orders, the account log, the audit
/// trail): a cursor from the previous page, or else a page number.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Paging {
    /// Keyset mode: `next_cursor` of the previous page. Fast at any depth.
    pub cursor: Option<String>,
    /// Page-number mode (1-based), used when no cursor is given.
    #[schema(minimum = 1, maximum = 10000000)]
    pub page: Option<i64>,
    /// 1 to 500, default 20.
    #[schema(minimum = 1, maximum = 500)]
    pub page_size: Option<i64>,
}

impl Paging {
    /// The rows asked for in the order `sort` names (`desc` when the list has no choice).
    pub fn checked(&self, sort: Option<&str>) -> Result<PageRequest, AppError> {
        page_request(sort, self.cursor.as_deref(), self.page, self.page_size)
    }
}

impl PageRequest {
    /// The rows skipped before a numbered page (0 in keyset mode, which starts at its cursor).
    pub fn offset(&self) -> i64 {
        if self.cursor.is_some() {
            return 0;
        }
        (self.page.unwrap_or(1).max(1) - 1).saturating_mul(self.page_size)
    }
}

/// A page read with `LIMIT size + 1`: drops the extra row and gives the next page's cursor
/// (from the last row's time and id), or None on the last page.
pub fn finish_page<T>(mut rows: Vec<T>, size: i64, position: impl Fn(&T) -> (i64, i64)) -> (Vec<T>, Option<String>) {
    if rows.len() as i64 <= size {
        return (rows, None);
    }
    rows.truncate(size as usize);
    let next = rows.last().map(|last| {
        let (created_at, id) = position(last);
        encode_cursor(created_at, id)
    });
    (rows, next)
}

/// Cursors are opaque to clients: `<created_at>_<id>` of the last row seen.
pub fn encode_cursor(created_at: i64, id: i64) -> String {
    format!("{created_at}_{id}")
}

pub fn decode_cursor(text: &str) -> Option<(i64, i64)> {
    let (time, id) = text.split_once('_')?;
    Some((time.parse().ok()?, id.parse().ok()?))
}

/// Checks a list's paging parameters: `sort` (`desc`, the default, or `asc`), a cursor
/// from an earlier page, a 1-based page number and a page size of 1 to [`MAX_PAGE_SIZE`].
pub fn page_request(
    sort: Option<&str>,
    cursor: Option<&str>,
    page: Option<i64>,
    page_size: Option<i64>,
) -> Result<PageRequest, AppError> {
    let descending = match sort.map(str::trim).filter(|text| !text.is_empty()) {
        None | Some("desc") => true,
        Some("asc") => false,
        Some(_) => return Err(AppError::field("sort", TradeMessage::InvalidChoice { allowed: "desc, asc" })),
    };
    let page_size = page_size.unwrap_or(20);
    if !(1..=MAX_PAGE_SIZE).contains(&page_size) {
        return Err(AppError::field("page_size", TradeMessage::PageSizeInvalid { max: MAX_PAGE_SIZE }));
    }
    let cursor = match cursor.map(str::trim).filter(|text| !text.is_empty()) {
        Some(text) => {
            Some(decode_cursor(text).ok_or_else(|| AppError::unprocessable("cursor", TradeMessage::CursorInvalid))?)
        }
        None => None,
    };
    // A page whose row offset does not fit a 64-bit integer is refused: wrapped around,
    // it would silently answer the first page.
    if page.is_some_and(|page| !(1..=MAX_PAGE).contains(&page)) {
        return Err(AppError::field("page", TradeMessage::InvalidChoice { allowed: "1, 2, 3, ..." }));
    }
    Ok(PageRequest { descending, cursor, page, page_size })
}

/// At most this many rows are counted where a total must count rows (an order filter the
/// counters cannot answer, the account log); beyond it the total says "at least"
/// (`total_capped`).
pub const COUNT_CAP: i64 = 100_000;

/// A filter's time: RFC 3339 text to unix milliseconds; empty means none.
pub fn parse_time(field: &'static str, text: Option<&str>) -> Result<Option<i64>, AppError> {
    let Some(text) = text.map(str::trim).filter(|text| !text.is_empty()) else { return Ok(None) };
    let moment = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .map_err(|_| AppError::field(field, TradeMessage::TimeInvalid))?;
    Ok(Some((moment.unix_timestamp_nanos() / 1_000_000) as i64))
}

/// The columns a newest-first list is ordered and resumed by: its rows' time and id,
/// unqualified or of the table aliased `e`.
pub struct Keyset {
    after: &'static str,
    order: &'static str,
}

pub const BY_TIME: Keyset = Keyset { after: "(created_at, id) < (?, ?)", order: "created_at DESC, id DESC" };
pub const BY_TIME_OF_E: Keyset =
    Keyset { after: "(e.created_at, e.id) < (?, ?)", order: "e.created_at DESC, e.id DESC" };

/// One page of a list read newest first (the account log, the audit log, the security
/// history): the statement `select` (`SELECT … FROM table [alias]`) under `conditions`,
/// after the cursor's row when there is one, with one row more than the page for
/// [`finish_page`].
pub fn newest_first(
    select: &str,
    keyset: &Keyset,
    mut conditions: Conditions,
    page: &PageRequest,
) -> (String, Vec<Bind>) {
    if let Some((time, id)) = page.cursor {
        conditions.push(keyset.after, vec![Bind::Int(time), Bind::Int(id)]);
    }
    let sql = format!(
        "{select}{} ORDER BY {} LIMIT {} OFFSET {}",
        conditions.where_clause(),
        keyset.order,
        page.page_size + 1,
        page.offset()
    );
    (sql, conditions.binds)
}

/// How many rows of `from` (`table [alias]`) `conditions` match, counted no further than
/// [`COUNT_CAP`] + 1: the total to show, and whether there are more (`total_capped`).
pub async fn capped_count(pool: &AnyPool, from: &str, conditions: Conditions) -> Result<(i64, bool), sqlx::Error> {
    let sql = format!(
        "SELECT COUNT(*) FROM (SELECT 1 FROM {from}{} LIMIT {}) counted",
        conditions.where_clause(),
        COUNT_CAP + 1
    );
    let row = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_one(pool).await?;
    let counted: i64 = row.try_get(0)?;
    Ok((counted.min(COUNT_CAP), counted > COUNT_CAP))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_whose_offset_overflows_is_refused() {
        assert!(page_request(None, None, Some(i64::MAX / 500 + 2), Some(500)).is_err());
        assert!(page_request(None, None, Some(i64::MAX), Some(20)).is_err());
        assert!(page_request(None, None, Some(0), None).is_err());
        assert!(page_request(None, None, Some(MAX_PAGE + 1), Some(1)).is_err());
        let last = page_request(None, None, Some(MAX_PAGE), Some(MAX_PAGE_SIZE)).expect("fits");
        assert_eq!(last.page, Some(MAX_PAGE));
    }
}
