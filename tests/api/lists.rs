//! Order lists: every filter returns exactly the matching orders (against a brute-force
//! filter of all of them), keyset and page-number modes agree, totals are exact, and a
//! merchant never sees another merchant's data.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use backoffice::domain::{beijing_day, beijing_day_start};
use backoffice::orders::generate::{GenerateOptions, generate};
use backoffice::platform::db::{millis_to_rfc3339, now_millis};
use serde_json::{Value, json};
use sqlx::Row;

on_both_backends!(
    every_filter_returns_exactly_the_matching_orders,
    merchants_see_only_their_own_data,
    large_exports_arrive_whole_whatever_the_client_accepts
);

#[derive(Debug, Clone)]
struct Stored {
    id: i64,
    kind: i64,
    status: i64,
    carrier: i64,
    face: i64,
    duration: Option<i64>,
    has_serial: bool,
    buyback: bool,
    merchant_order_id: String,
    order_no: String,
    account: String,
    created_at: i64,
}

async fn all_orders(app: &TestApp, mid: i64) -> Vec<Stored> {
    let rows = sqlx::query(
        "SELECT id, order_kind, status, carrier, face_value_fen, duration_ms, serial_no, buyback, merchant_order_id, order_no,
                account, created_at FROM orders WHERE merchant_id = $1",
    )
    .bind(mid)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    rows.iter()
        .map(|row| Stored {
            id: row.get(0),
            kind: row.get(1),
            status: row.get(2),
            carrier: row.get(3),
            face: row.get(4),
            duration: row.get(5),
            has_serial: row.get::<Option<String>, _>(6).is_some(),
            buyback: row.get::<i64, _>(7) == 1,
            merchant_order_id: row.get(8),
            order_no: row.get(9),
            account: row.get(10),
            created_at: row.get(11),
        })
        .collect()
}

/// The brute-force reading of a filter.
fn matches(order: &Stored, filter: &Value, today_start: i64) -> bool {
    let int = |name: &str| filter.get(name).and_then(Value::as_i64);
    let text = |name: &str| filter.get(name).and_then(Value::as_str);
    let kind = match text("kind").unwrap_or("ordinary") {
        "card" => 2,
        "behalf" => 3,
        _ => 1,
    };
    let carrier = text("carrier").map(|carrier| match carrier {
        "mobile" => 1,
        "unicom" => 2,
        _ => 3,
    });
    let time = |name: &str| {
        text(name).map(|value| {
            let moment = time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc3339).unwrap();
            (moment.unix_timestamp_nanos() / 1_000_000) as i64
        })
    };
    order.kind == kind
        && int("status").is_none_or(|status| order.status == status)
        && filter.get("in_flight").and_then(Value::as_bool).is_none_or(|flag| [0, 1, 4].contains(&order.status) == flag)
        && carrier.is_none_or(|carrier| order.carrier == carrier)
        && int("face_value_fen").is_none_or(|face| order.face == face)
        && int("duration_min_ms").is_none_or(|min| order.duration.is_some_and(|duration| duration >= min))
        && int("duration_max_ms").is_none_or(|max| order.duration.is_some_and(|duration| duration < max))
        && filter.get("has_serial").and_then(Value::as_bool).is_none_or(|flag| order.has_serial == flag)
        && filter.get("buyback").and_then(Value::as_bool).is_none_or(|flag| order.buyback == flag)
        && text("merchant_order_id").is_none_or(|id| order.merchant_order_id == id)
        && text("order_no").is_none_or(|number| order.order_no == number)
        && text("account").is_none_or(|account| order.account == account)
        && time("start_time").is_none_or(|start| order.created_at >= start)
        && time("end_time").is_none_or(|end| order.created_at < end)
        && match text("order_type") {
            Some("today") => order.created_at >= today_start,
            Some("history") => order.created_at < today_start,
            _ => true,
        }
}

/// Walks every page with the cursor; returns the ids in list order and the total.
async fn walk(app: &TestApp, token: &str, filter: &Value, page_size: i64) -> (Vec<i64>, i64) {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    let mut total = None;
    loop {
        let mut body = filter.clone();
        body["page_size"] = json!(page_size);
        if let Some(cursor) = &cursor {
            body["cursor"] = json!(cursor);
        }
        let answer = app.post_as(token, "/adminapi/order/list", body).await;
        assert_eq!(answer.code(), 20000, "{filter}: {:?}", answer.body);
        let page_total = answer.data()["total"].as_i64().unwrap();
        assert_eq!(*total.get_or_insert(page_total), page_total);
        ids.extend(answer.data()["list"].as_array().unwrap().iter().map(|order| order["id"].as_i64().unwrap()));
        match answer.data()["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return (ids, page_total),
        }
    }
}

async fn every_filter_returns_exactly_the_matching_orders(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    // Four days: whole Beijing days lie between the partial ones of the ranges below.
    let options = GenerateOptions { merchant_id: mid, count: 600, days: 4, in_flight_share: 0.1, events: false };
    generate(&app.state.db, &app.state.secrets, &options).await.unwrap();
    let orders = all_orders(&app, mid).await;
    let now = now_millis();
    let today_start = beijing_day_start(beijing_day(now));
    let sample = orders.iter().find(|order| order.kind == 1 && !order.account.is_empty()).unwrap().clone();
    let mut filters = vec![json!({}), json!({"kind": "card"}), json!({"kind": "behalf"})];
    for status in 0..5 {
        filters.push(json!({"status": status}));
        filters.push(json!({"kind": "behalf", "status": status}));
    }
    for carrier in ["mobile", "unicom", "telecom"] {
        filters.push(json!({"carrier": carrier}));
    }
    for face in [1000, 5000, 20000] {
        filters.push(json!({"face_value_fen": face, "kind": "card"}));
    }
    filters.extend([
        json!({"order_type": "today"}),
        json!({"in_flight": true}),
        json!({"in_flight": true, "order_type": "today", "kind": "behalf"}),
        json!({"in_flight": false, "carrier": "mobile"}),
        json!({"order_type": "history", "status": 2}),
        json!({"has_serial": true}),
        json!({"has_serial": false}),
        json!({"buyback": true}),
        json!({"buyback": false, "carrier": "unicom"}),
        json!({"duration_min_ms": 60_000}),
        json!({"duration_max_ms": 60_000}),
        json!({"duration_min_ms": 30_000, "duration_max_ms": 90_000, "status": 2}),
        json!({"merchant_order_id": sample.merchant_order_id}),
        json!({"order_no": sample.order_no}),
        json!({"account": sample.account}),
        json!({"start_time": millis_to_rfc3339(now - 36 * 3_600_000), "end_time": millis_to_rfc3339(now - 12 * 3_600_000)}),
        json!({"start_time": millis_to_rfc3339(now - 30 * 3_600_000)}),
        json!({"end_time": millis_to_rfc3339(now - 50 * 3_600_000), "status": 3}),
        json!({"start_time": millis_to_rfc3339(today_start - 86_400_000), "end_time": millis_to_rfc3339(today_start)}),
        json!({"start_time": millis_to_rfc3339(now - 5 * 3_600_000), "end_time": millis_to_rfc3339(now - 4 * 3_600_000)}),
        json!({"status": 2, "carrier": "mobile", "face_value_fen": 5000, "start_time": millis_to_rfc3339(now - 40 * 3_600_000), "order_type": "history"}),
    ]);
    // Partial days of more than half a day at both ends (the whole day less its hours outside
    // the range) and of less (their hours counted), through the roll-ups and the counters.
    let (hour, day) = (3_600_000, 86_400_000);
    for (start, end) in
        [(today_start - 3 * day + hour, today_start - hour), (today_start - 2 * day - hour, today_start - day + hour)]
    {
        let range = json!({"start_time": millis_to_rfc3339(start), "end_time": millis_to_rfc3339(end)});
        filters.push(range.clone());
        let mut by_carrier = range;
        by_carrier["carrier"] = json!("mobile");
        filters.push(by_carrier);
    }
    for filter in &filters {
        let mut expected: Vec<&Stored> = orders.iter().filter(|order| matches(order, filter, today_start)).collect();
        expected.sort_by_key(|order| std::cmp::Reverse((order.created_at, order.id)));
        let expected_ids: Vec<i64> = expected.iter().map(|order| order.id).collect();
        let (ids, total) = walk(&app, &token, filter, 37).await;
        assert_eq!(ids, expected_ids, "filter {filter}");
        assert_eq!(total, expected_ids.len() as i64, "total for {filter}");
    }
    // Page numbers agree with the cursor, and ascending order is the reverse.
    let (ids, _) = walk(&app, &token, &json!({"status": 2}), 10).await;
    let page_two = app.post_as(&token, "/adminapi/order/list", json!({"status": 2, "page": 2, "page_size": 10})).await;
    let page_ids: Vec<i64> =
        page_two.data()["list"].as_array().unwrap().iter().map(|order| order["id"].as_i64().unwrap()).collect();
    assert_eq!(page_ids, ids[10..20].to_vec());
    // A page past the end is empty and still tells the total. A filter nothing meets says 0,
    // whether the counters answer it (whole days long ago) or rows are counted.
    let past = app.post_as(&token, "/adminapi/order/list", json!({"status": 2, "page": 1000, "page_size": 10})).await;
    assert_eq!(past.data()["list"], json!([]));
    assert_eq!(past.data()["total"], ids.len() as i64);
    let (long_ago_start, long_ago_end) = (today_start - 300 * day, today_start - 299 * day);
    let long_ago =
        json!({"start_time": millis_to_rfc3339(long_ago_start), "end_time": millis_to_rfc3339(long_ago_end)});
    for nothing in [long_ago, json!({"merchant_order_id": "no-such-order"})] {
        let answer = app.post_as(&token, "/adminapi/order/list", nothing.clone()).await;
        assert_eq!((answer.data()["list"].clone(), answer.data()["total"].clone()), (json!([]), json!(0)), "{nothing}");
    }
    let (ascending, _) = walk(&app, &token, &json!({"status": 2, "sort": "asc"}), 50).await;
    assert_eq!(ascending, ids.iter().rev().copied().collect::<Vec<_>>());
    // Bad filters are validation errors naming the field.
    for (filter, field) in [
        (json!({"kind": "weird"}), "kind"),
        (json!({"status": 9}), "status"),
        (json!({"carrier": "x"}), "carrier"),
        (json!({"order_type": "yesterday"}), "order_type"),
        (json!({"start_time": "yesterday"}), "start_time"),
        (json!({"cursor": "nonsense"}), "cursor"),
        (json!({"page_size": 501}), "page_size"),
    ] {
        let answer = app.post_as(&token, "/adminapi/order/list", filter.clone()).await;
        assert_eq!(answer.code(), 40000, "{filter}");
        assert!(answer.data()["fields"][field].is_string(), "{filter}: {:?}", answer.body);
    }
    // The export holds exactly the filtered rows.
    let response = app
        .client
        .get(app.url("/adminapi/order/export?status=2&carrier=mobile"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    let text = response.text().await.unwrap();
    let expected =
        orders.iter().filter(|order| matches(order, &json!({"status": 2, "carrier": "mobile"}), today_start)).count();
    assert_eq!(text.lines().count(), expected + 1);
    assert!(text.starts_with("\u{feff}\"Merchant order id\","), "{text}");
    let xlsx = app
        .client
        .get(app.url("/adminapi/order/export?format=xlsx&kind=card"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(xlsx.bytes().await.unwrap().starts_with(b"PK"));
    // The workplace figures agree with the orders.
    let overview = app.post_as(&token, "/adminapi/finance/overview", json!({"days": 5})).await;
    let today_success = orders.iter().filter(|order| order.created_at >= today_start && order.status == 2).count();
    assert_eq!(overview.data()["today_success"], today_success as i64);
    let chart_total: i64 =
        overview.data()["days"].as_array().unwrap().iter().map(|day| day["total"].as_i64().unwrap()).sum();
    assert_eq!(chart_total, orders.len() as i64);
    app.assert_books_balance(mid).await;
}

async fn merchants_see_only_their_own_data(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("owner").await;
    let (other_mid, other) = app.merchant("other").await;
    app.fund(mid, 100_000, 0).await;
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    let order_id = placed.data()["order"]["id"].as_i64().unwrap();
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": "13800138000,MOBILE-DIRECT-10"})).await;
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    // Asking for the owner's data by mid is refused; by id it does not exist.
    for (path, body) in [
        ("/adminapi/order/list", json!({"merchant_id": mid})),
        ("/adminapi/quote/list", json!({"merchant_id": mid})),
        ("/adminapi/finance/account/list", json!({"merchant_id": mid})),
        ("/adminapi/finance/overview", json!({"merchant_id": mid})),
        ("/adminapi/order/batch/list", json!({"merchant_id": mid})),
        ("/adminapi/order/card/reveal", json!({"order_id": order_id})),
    ] {
        assert_eq!(app.post_as(&other, path, body).await.code(), 40300, "{path}");
    }
    assert_eq!(app.post_as(&other, "/adminapi/order/detail", json!({"order_id": order_id})).await.code(), 40400);
    assert_eq!(app.post_as(&other, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await.code(), 40400);
    assert_eq!(app.get_as(&other, &format!("/adminapi/order/batch/result?batch_id={batch_id}")).await.code(), 40400);
    assert_eq!(app.get_as(&other, &format!("/adminapi/order/export?merchant_id={mid}")).await.code(), 40300);
    // Their own lists hold nothing of the owner's.
    let orders = app.post_as(&other, "/adminapi/order/list", json!({})).await;
    assert_eq!(orders.data()["total"], 0);
    let log = app.post_as(&other, "/adminapi/finance/account/list", json!({})).await;
    assert_eq!(log.data()["total"], 0);
    let quotes = app.post_as(&other, "/adminapi/quote/list", json!({"page_size": 500})).await;
    assert!(quotes.data()["list"].as_array().unwrap().iter().all(|quote| quote["merchant_id"] == other_mid));
    assert_eq!(quotes.data()["total"], 36);
    // An administrator filters by merchant.
    let admin = app.login(ADMIN).await;
    let listed = app.post_as(&admin, "/adminapi/order/list", json!({"merchant_id": mid})).await;
    assert_eq!(listed.data()["total"], 1);
    let everyone = app.post_as(&admin, "/adminapi/finance/account/list", json!({})).await;
    assert!(everyone.data()["total"].as_i64().unwrap() >= 2);
    let merchants = app.post_as(&admin, "/adminapi/admin/merchant/list", json!({"keyword": "owner"})).await;
    assert_eq!(merchants.data()["list"][0]["balance_fen"], 100_000 - 985);
    assert_eq!(app.post_as(&token, "/adminapi/admin/merchant/list", json!({})).await.code(), 40300);
}

/// A browser asks for brotli and gzip on every request. A streamed export of many pages
/// must still arrive whole and readable: downloads are sent uncompressed, while JSON
/// answers stay compressed.
async fn large_exports_arrive_whole_whatever_the_client_accepts(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("exporter").await;
    let count = 9_000; // several export pages of 2,000 rows
    let options = GenerateOptions { merchant_id: mid, count, days: 2, in_flight_share: 0.0, events: false };
    generate(&app.state.db, &app.state.secrets, &options).await.unwrap();
    for encoding in ["br", "gzip", "br, gzip, deflate"] {
        let response = app
            .client
            .get(app.url("/adminapi/order/export?kind=all"))
            .bearer_auth(&token)
            .header("accept-encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert!(response.headers().get("content-encoding").is_none(), "{encoding}");
        let text = response.text().await.unwrap();
        assert_eq!(text.lines().count(), count + 1, "{encoding}");
    }
    let list = app
        .client
        .post(app.url("/adminapi/order/list"))
        .bearer_auth(&token)
        .header("accept-encoding", "gzip")
        .json(&json!({"kind": "all", "page_size": 100}))
        .send()
        .await
        .unwrap();
    assert_eq!(list.headers()["content-encoding"], "gzip");
}
