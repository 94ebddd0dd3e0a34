//! `GET /adminapi/order/export`: the current filter of an order list as CSV or xlsx.

use super::export_city::{city_sql, city_text};
use super::model::OrderRow;
use super::query::{OrderFilter, OrderQuery, fetch_page, rows_after, time_order};
use crate::domain::Carrier;
use crate::domain::segments::{Place, SegmentTable};
use crate::http::error::AppError;
use crate::http::export::{
    Cell, CsvFetcher, EXPORT_PAGE_SIZE, ExportParams, FORMULA_TRIGGERS, Format, PageFetcher, csv_stream, respond,
    titles,
};
use crate::http::extract::QueryParams;
use crate::http::pagination::{PageRequest, decode_cursor, page_request};
use crate::i18n::files::{BUYBACK, ORDER_EXPORT_COLUMNS, ORDER_STATUS, carrier_name};
use crate::i18n::{FailureReason, Locale, failure_text};
use crate::identity::session::CurrentUser;
use crate::platform::db::dialect::LongRead;
use crate::platform::db::now_millis;
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use std::sync::Arc;

fn header_row(locale: Locale) -> Vec<Cell> {
    titles(&ORDER_EXPORT_COLUMNS.get(locale))
}

pub(super) fn status_text(status: i64, locale: Locale) -> &'static str {
    // 4 and anything unknown: manual review.
    ORDER_STATUS.get(locale)[crate::domain::OrderStatus::from_code(status).map_or(4, |known| known.code() as usize)]
}

pub fn export_row(order: &OrderRow, locale: Locale, segments: &SegmentTable) -> Vec<Cell> {
    let carrier = Carrier::from_code(order.carrier).map_or("", |carrier| carrier_name(carrier, locale));
    let buyback = BUYBACK.get(locale)[if order.buyback != 0 { 0 } else { 1 }];
    vec![
        Cell::id(&order.merchant_order_id),
        Cell::id(&order.order_no),
        Cell::id(&order.system_order_id),
        Cell::text(&order.product_name),
        Cell::text(&order.product_key),
        Cell::text(carrier),
        Cell::id(&order.account),
        Cell::Money(order.face_value_fen),
        Cell::Money(order.price_fen),
        Cell::text(status_text(order.status, locale)),
        Cell::Time(order.created_at),
        order.duration_ms.map_or(Cell::Empty, Cell::Seconds),
        Cell::optional_time(order.callback_at),
        Cell::id(order.serial_no.clone().unwrap_or_default()),
        Cell::text(buyback),
        Cell::Int(order.merchant_id),
        Cell::text(order.failure_reason.as_deref().map(|stored| failure_text(stored, locale)).unwrap_or_default()),
        Cell::text(order.province.as_deref().map(|name| province_text(name, locale)).unwrap_or_default()),
        Cell::text(
            order
                .city
                .as_deref()
                .map_or("", |city| city_text(segments, order.province.as_deref(), city, locale == Locale::ZhCn)),
        ),
    ]
}

/// A stored province name (广东) in the reader's language; an unknown name as stored.
fn province_text(stored: &str, locale: Locale) -> &str {
    crate::i18n::provinces::stored_province_in(stored, locale).unwrap_or(stored)
}

/// Export the orders matching a list's filters (same query parameters as the list's
/// body fields). CSV is streamed however many rows match; xlsx holds at most 200,000.
/// Column titles and values follow `Accept-Language`; times are Beijing time.
#[utoipa::path(get, path = "/adminapi/order/export", tag = "order", params(OrderFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)", content(("text/csv"), ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 400, description = "40000: a filter is invalid")),
    security(("token" = [])))]
pub async fn export_orders(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    QueryParams(filter): QueryParams<OrderFilter>,
    QueryParams(params): QueryParams<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let query = filter.resolve(&caller, now_millis())?;
    let format = params.format()?;
    let page = PageRequest { page_size: EXPORT_PAGE_SIZE, ..page_request(params.sort.as_deref(), None, None, None)? };
    if format == Format::Csv {
        let line = csv_line(state.db.kind, locale == Locale::ZhCn, state.segments.table().places());
        let lines = match crate::platform::db::dialect::long_read(state.db.kind) {
            LongRead::OneStatement => stream_csv_lines(state.db.clone(), query, page.descending, line),
            LongRead::Pages => stream_csv_pages(state.db.clone(), query, page.descending, line.into()),
        };
        return Ok(csv_stream("orders", header_row(locale), lines));
    }
    let pool = state.db.pool.clone();
    let segments = state.segments.table();
    let fetch: PageFetcher = Box::new(move |cursor| {
        let (pool, query, segments) = (pool.clone(), query.clone(), segments.clone());
        Box::pin(async move {
            let cursor = cursor.as_deref().and_then(decode_cursor);
            let request = PageRequest { cursor, page: None, ..page };
            let (orders, next) = fetch_page(&pool, &query, request).await?;
            Ok((orders.iter().map(|order| export_row(order, locale, &segments)).collect(), next))
        })
    });
    respond(format, "orders", header_row(locale), fetch).await
}

/// The CSV line of an order, built by the database itself, one statement per page: a
/// million rows decoded one by one through the driver cost about 15 µs each, as text
/// aggregated per page they cost a tenth of that. Labels follow the request's language;
/// the column order is `header_row`'s. The fields are exactly what `Cell::csv_field`
/// writes for `export_row`'s cells (a test holds them equal): text and ids quoted and
/// neutralised against formulas (`FORMULA_TRIGGERS`), ids exactly as stored, numbers bare.
fn csv_line(engine: crate::platform::db::DatabaseKind, zh: bool, places: &[Place]) -> String {
    use crate::platform::db::dialect;
    // The first character's code point, compared as numbers: cheaper than a substring
    // compared as text, on every field of a million rows.
    let first = dialect::first_code_point_function(engine);
    let triggers = FORMULA_TRIGGERS.map(|c| (c as u32).to_string()).join(", ");
    let safe =
        |value: &str| format!("CASE WHEN {first}({value}) IN ({triggers}) THEN '''' || {value} ELSE {value} END");
    let quote = |value: String| format!("'\"' || replace({value}, '\"', '\"\"') || '\"'");
    let text = |value: &str| quote(safe(&format!("COALESCE({value}, '')")));
    let id = |column: &str| format!("CASE WHEN COALESCE({column}, '') = '' THEN '' ELSE {} END", quote(safe(column)));
    // Our own values (times, labels, generated numbers) can neither start with a formula
    // character nor hold a quote: they are quoted without the checks, which halve the
    // export's speed when spent on every field of a million rows.
    let time = |column: &str| dialect::quoted_local_time(engine, column);
    let own_id = |column: &str| format!("'\"' || {column} || '\"'");
    let yuan = |column: &str| dialect::fen_as_yuan(engine, column);
    let seconds = dialect::duration_seconds().to_string();
    let locale = if zh { Locale::ZhCn } else { Locale::EnUs };
    let mut carrier = String::from("CASE carrier");
    for code in 1..=4 {
        if let Some(known) = Carrier::from_code(code) {
            let name = carrier_name(known, locale);
            carrier.push_str(&format!(" WHEN {code} THEN '\"{name}\"'"));
        }
    }
    carrier.push_str(" ELSE '\"\"' END");
    let statuses = ORDER_STATUS.get(locale);
    let buyback = BUYBACK.get(locale);
    let status = format!(
        "CASE status WHEN 0 THEN '\"{}\"' WHEN 1 THEN '\"{}\"' WHEN 2 THEN '\"{}\"' WHEN 3 THEN '\"{}\"' \
         WHEN 5 THEN '\"{}\"' ELSE '\"{}\"' END",
        statuses[0], statuses[1], statuses[2], statuses[3], statuses[5], statuses[4]
    );
    let buyback = format!("CASE buyback WHEN 1 THEN '\"{}\"' ELSE '\"{}\"' END", buyback[0], buyback[1]);
    // Known reason codes (and the old English sentences) in the reader's language, anything
    // else as written. The texts are our own constants: no quote to escape.
    let mut failure_reason = String::from("CASE WHEN failure_reason IS NULL THEN '\"\"'");
    for stored in FailureReason::every_stored() {
        let shown = failure_text(stored, locale);
        failure_reason.push_str(&format!(" WHEN failure_reason = '{stored}' THEN '\"{shown}\"'"));
    }
    failure_reason.push_str(&format!(" ELSE {} END", text("failure_reason")));
    // Province names are our own constants (no quote, no formula character); anything else
    // stored is checked like any text.
    let mut province = String::from("CASE WHEN province IS NULL THEN '\"\"'");
    for code in crate::domain::product_scope::PROVINCE_CODES {
        if let (Some(stored), Some(shown)) = (
            crate::i18n::provinces::province_name(code, Locale::ZhCn),
            crate::i18n::provinces::province_name(code, locale),
        ) {
            province.push_str(&format!(" WHEN province = '{stored}' THEN '\"{shown}\"'"));
        }
    }
    province.push_str(&format!(" ELSE {} END", text("province")));
    let fields = [
        id("merchant_order_id"),
        own_id("order_no"),
        own_id("system_order_id"),
        text("product_name"),
        text("product_key"),
        carrier,
        id("account"),
        yuan("face_value_fen"),
        yuan("price_fen"),
        status,
        time("created_at"),
        seconds,
        time("callback_at"),
        id("serial_no"),
        buyback,
        "CAST(merchant_id AS TEXT)".to_string(),
        failure_reason,
        province,
        city_sql(places, zh, &text("city")),
    ];
    // One `concat` instead of a chain of `||`: each `||` copied the line built so far, and on
    // SQLite those copies were an eighth of a million-row export's time.
    format!("concat({})", fields.join(", ',', "))
}

/// A position in the export's order: (created_at, id).
type Key = (i64, i64);

/// SQLite (`dialect::long_read`): the export in pages of [`EXPORT_PAGE_SIZE`] rows, two
/// pages built at once. Building a page's lines is CPU work on a read connection's thread;
/// one page after another kept one core busy (6.1 s for 1,000,000 rows) while the other
/// waited. So each page's last row is found first by a cheap read of the index (the row
/// [`EXPORT_PAGE_SIZE`] rows on), and the pages, each everything after the previous page's
/// last row up to its own, are built two at a time and handed on in order. A row placed
/// during the export inside a page already cut still lands in its page: nothing is skipped.
fn stream_csv_pages(
    db: crate::platform::db::Database,
    query: OrderQuery,
    descending: bool,
    line: Arc<str>,
) -> CsvFetcher {
    use futures_util::StreamExt;
    channel_fetcher(move |sender| async move {
        // (after, through): the page's bounds; through None for the last page.
        let bounds = futures_util::stream::unfold(Some(None), |after: Option<Option<Key>>| {
            let (db, query) = (db.clone(), query.clone());
            async move {
                let after = after?;
                match page_end(&db, &query, descending, after).await {
                    Ok(Some(through)) => Some((Ok((after, Some(through))), Some(Some(through)))),
                    Ok(None) => Some((Ok((after, None)), None)),
                    Err(error) => Some((Err(error), None)),
                }
            }
        });
        let mut pages = std::pin::pin!(
            bounds
                .map(|bounds| {
                    let (db, query, line) = (db.clone(), query.clone(), line.clone());
                    async move {
                        let (after, through) = bounds?;
                        fetch_csv_range(&db, &query, descending, &line, after, through).await
                    }
                })
                .buffered(2)
        );
        while let Some(page) = pages.next().await {
            let page = page?;
            if !page.is_empty() && sender.send(Ok(page)).await.is_err() {
                break; // the client went away
            }
        }
        Ok(())
    })
}

/// The last row of the page after `after`; None when fewer than a page's rows are left.
async fn page_end(
    db: &crate::platform::db::Database,
    query: &OrderQuery,
    descending: bool,
    after: Option<Key>,
) -> Result<Option<Key>, sqlx::Error> {
    use sqlx::Row;
    let conditions = rows_after(query, descending, after);
    let sql = format!(
        "SELECT created_at, id FROM orders{} ORDER BY {} LIMIT 1 OFFSET {}",
        conditions.where_clause(),
        time_order(descending),
        EXPORT_PAGE_SIZE - 1
    );
    let row = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch_optional(&db.pool).await?;
    row.map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).transpose()
}

/// The CSV lines of the rows after `after` through `through` (to the end when None).
async fn fetch_csv_range(
    db: &crate::platform::db::Database,
    query: &OrderQuery,
    descending: bool,
    line: &str,
    after: Option<Key>,
    through: Option<Key>,
) -> anyhow::Result<Vec<u8>> {
    use sqlx::Row;
    let mut conditions = rows_after(query, descending, after);
    if let Some((time, id)) = through {
        let template = if descending { "(created_at, id) >= (?, ?)" } else { "(created_at, id) <= (?, ?)" };
        conditions.push(template, vec![Bind::Int(time), Bind::Int(id)]);
    }
    let separator = conditions.next_placeholder();
    let order = time_order(descending);
    let sql = format!(
        "SELECT string_agg(line, ${separator} ORDER BY {order}) FROM
         (SELECT created_at, id, {line} AS line FROM orders{where_clause})",
        where_clause = conditions.where_clause(),
    );
    let mut binds = conditions.binds;
    binds.push(Bind::Text("\n".to_string()));
    let row = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_one(&db.pool).await?;
    let mut bytes = row.try_get::<Option<String>, _>(0)?.unwrap_or_default().into_bytes();
    if !bytes.is_empty() {
        bytes.push(b'\n');
    }
    Ok(bytes)
}

/// A fetcher of the chunks a task sends: `produce` runs on its own task and sends chunks
/// (at most two waiting), and its error, if any, ends the file.
fn channel_fetcher<F, Fut>(produce: F) -> CsvFetcher
where
    F: FnOnce(tokio::sync::mpsc::Sender<anyhow::Result<Vec<u8>>>) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>> + Send + 'static,
{
    let (sender, receiver) = tokio::sync::mpsc::channel::<anyhow::Result<Vec<u8>>>(2);
    let produced = produce(sender.clone());
    tokio::spawn(async move {
        if let Err(error) = produced.await {
            // Nobody to tell when the client has left; otherwise the response is cut.
            let _ = sender.send(Err(error)).await;
        }
    });
    let receiver = std::sync::Arc::new(tokio::sync::Mutex::new(receiver));
    Box::new(move |_| {
        let receiver = receiver.clone();
        Box::pin(async move {
            match receiver.lock().await.recv().await {
                Some(Ok(bytes)) => Ok((bytes, Some(String::new()))),
                Some(Err(error)) => Err(error),
                None => Ok((Vec::new(), None)),
            }
        })
    })
}

/// Bytes of CSV lines handed to the response at a time.
const CHUNK_BYTES: usize = 256 * 1024;

/// PostgreSQL (`dialect::long_read`): every matching order's CSV line, read by ONE
/// statement as a stream and handed on in chunks of about 256 kB while the database still
/// produces the rest: no page is planned, sorted or re-found by its cursor (pages of 2,000
/// spent as long on that as on the lines), and the file is one consistent snapshot. Memory stays at a few chunks:
/// when the client reads slowly the chunks wait, the statement's rows wait in the socket.
/// A client that leaves stops the statement (its connection is closed, not drained).
fn stream_csv_lines(
    db: crate::platform::db::Database,
    query: OrderQuery,
    descending: bool,
    line: String,
) -> CsvFetcher {
    channel_fetcher(move |sender| async move { send_csv_lines(&db, &query, descending, &line, &sender).await })
}

async fn send_csv_lines(
    db: &crate::platform::db::Database,
    query: &OrderQuery,
    descending: bool,
    line: &str,
    sender: &tokio::sync::mpsc::Sender<anyhow::Result<Vec<u8>>>,
) -> anyhow::Result<()> {
    use futures_util::TryStreamExt;
    use sqlx::Row;
    let conditions = query.row_conditions(query.from, query.to);
    let order = if descending { "created_at DESC, id DESC" } else { "created_at ASC, id ASC" };
    let sql =
        format!("SELECT {line} FROM orders{where_clause} ORDER BY {order}", where_clause = conditions.where_clause(),);
    let mut connection = db.pool.acquire().await?;
    let mut chunk = Vec::with_capacity(CHUNK_BYTES + 4096);
    let finished: anyhow::Result<bool> = async {
        let mut rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), conditions.binds).fetch(&mut *connection);
        while let Some(row) = rows.try_next().await? {
            chunk.extend_from_slice(row.try_get::<&str, _>(0)?.as_bytes());
            chunk.push(b'\n');
            if chunk.len() >= CHUNK_BYTES {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK_BYTES + 4096));
                if sender.send(Ok(full)).await.is_err() {
                    return Ok(false); // the client went away
                }
            }
        }
        Ok(true)
    }
    .await;
    if !matches!(finished, Ok(true)) {
        // An unfinished statement would be drained (every remaining row read and thrown
        // away) before the connection's next use: close the connection instead.
        connection.close_on_drop();
    }
    if finished? && !chunk.is_empty() {
        let _ = sender.send(Ok(chunk)).await;
    }
    Ok(())
}
