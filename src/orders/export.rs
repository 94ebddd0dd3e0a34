//! `GET /adminapi/order/export`: the current filter of an order list as CSV or xlsx.

use super::model::OrderRow;
use super::query::{OrderFilter, PageRequest, fetch_page};
use crate::auth::session::CurrentUser;
use crate::db::now_millis;
use crate::domain::{Carrier, beijing_time, yuan};
use crate::error::AppError;
use crate::export::{CsvFetcher, EXPORT_PAGE_SIZE, ExportParams, Format, PageFetcher, csv_stream, respond};
use crate::i18n::Locale;
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;

fn header_row(locale: Locale) -> Vec<String> {
    let zh = [
        "商户订单号", "订单号", "系统订单号", "商品名称", "商品编号", "运营商", "充值账号", "面值(元)", "供货价(元)",
        "订单状态", "下单时间", "耗时(秒)", "渠道回调时间", "流水号", "回购单", "商户编号",
    ];
    let en = [
        "Merchant order id", "Order number", "System order id", "Product name", "Product key", "Carrier",
        "Recharge account", "Face value (yuan)", "Supply price (yuan)", "Status", "Order time", "Time taken (s)",
        "Channel callback time", "Serial number", "Buyback", "Merchant id",
    ];
    match locale {
        Locale::ZhCn => zh.map(String::from).to_vec(),
        Locale::EnUs => en.map(String::from).to_vec(),
    }
}

fn status_text(status: i64, locale: Locale) -> &'static str {
    match (status, locale) {
        (0, Locale::ZhCn) => "待处理",
        (1, Locale::ZhCn) => "处理中",
        (2, Locale::ZhCn) => "成功",
        (3, Locale::ZhCn) => "失败",
        (_, Locale::ZhCn) => "人工审核",
        (0, Locale::EnUs) => "pending",
        (1, Locale::EnUs) => "processing",
        (2, Locale::EnUs) => "success",
        (3, Locale::EnUs) => "failure",
        (_, Locale::EnUs) => "manual review",
    }
}

fn export_row(order: &OrderRow, locale: Locale) -> Vec<String> {
    let carrier = Carrier::from_code(order.carrier).map_or("", |carrier| match locale {
        Locale::ZhCn => carrier.zh_name(),
        Locale::EnUs => carrier.en_name(),
    });
    let buyback = match (order.buyback != 0, locale) {
        (true, Locale::ZhCn) => "回购单",
        (false, Locale::ZhCn) => "正常单",
        (true, Locale::EnUs) => "buyback",
        (false, Locale::EnUs) => "normal",
    };
    vec![
        order.merchant_order_id.clone(),
        order.order_no.clone(),
        order.system_order_id.clone(),
        order.product_name.clone(),
        order.product_key.clone(),
        carrier.to_string(),
        order.account.clone(),
        yuan(order.face_value_fen),
        yuan(order.price_fen),
        status_text(order.status, locale).to_string(),
        beijing_time(order.created_at),
        order.duration_ms.map(|ms| format!("{:.1}", ms as f64 / 1000.0)).unwrap_or_default(),
        order.callback_at.map(beijing_time).unwrap_or_default(),
        order.serial_no.clone().unwrap_or_default(),
        buyback.to_string(),
        order.merchant_id.to_string(),
    ]
}

/// Export the orders matching a list's filters (same query parameters as the list's
/// body fields). CSV is streamed however many rows match; xlsx holds at most 200,000.
/// Column titles and values follow `Accept-Language`; times are Beijing time.
#[utoipa::path(get, path = "/adminapi/order/export", tag = "order", params(OrderFilter, ExportParams),
    responses((status = 200, description = "the file (text/csv or xlsx)"), (status = 400, description = "40000: a filter is invalid")),
    security(("token" = [])))]
pub async fn export_orders(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    Query(filter): Query<OrderFilter>,
    Query(params): Query<ExportParams>,
) -> Result<Response, AppError> {
    let locale = Locale::from_headers(&headers);
    let query = filter.resolve(&caller, now_millis())?;
    let format = params.format()?;
    let page = PageRequest { page_size: EXPORT_PAGE_SIZE, ..super::page_request(params.sort.as_deref(), None, None, None)? };
    if format == Format::Csv {
        let (db, query) = (state.db.clone(), query.clone());
        let fetch: CsvFetcher = Box::new(move |cursor| {
            let (db, query) = (db.clone(), query.clone());
            Box::pin(async move {
                let cursor = cursor.as_deref().and_then(super::query::decode_cursor);
                let request = PageRequest { cursor, page: None, ..page };
                Ok(super::query::fetch_csv_page(&db, &query, request, locale == Locale::ZhCn).await?)
            })
        });
        return Ok(csv_stream("orders", header_row(locale), fetch));
    }
    let pool = state.db.pool.clone();
    let fetch: PageFetcher = Box::new(move |cursor| {
        let (pool, query) = (pool.clone(), query.clone());
        Box::pin(async move {
            let cursor = cursor.as_deref().and_then(super::query::decode_cursor);
            let request = PageRequest { cursor, page: None, ..page };
            let (orders, next) = fetch_page(&pool, &query, request).await?;
            Ok((orders.iter().map(|order| export_row(order, locale)).collect(), next))
        })
    });
    respond(format, "orders", header_row(locale), fetch).await
}
