//! The trail of an order: who resolved it by hand and why, and failure reasons in the
//! reader's language in lists, details and exports.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};
use std::time::Duration;

on_both_backends!(
    a_manual_resolution_names_the_administrator_and_the_reason,
    failure_reasons_are_read_in_each_language
);

async fn behalf_order(app: &TestApp, token: &str) -> i64 {
    let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "behalf": true});
    let answer = app.add_order(token, body).await;
    answer.data()["order"]["id"].as_i64().unwrap_or_else(|| panic!("{:?}", answer.body))
}

fn last_event(detail: &Value) -> &Value {
    detail["timeline"].as_array().unwrap().last().unwrap()
}

async fn a_manual_resolution_names_the_administrator_and_the_reason(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10_000, 0).await;
    let (first, second) = (behalf_order(&app, &token).await, behalf_order(&app, &token).await);
    let admin = app.login(ADMIN).await;
    // A success proves itself with a serial number: missing or blank is refused, per field.
    for serial in [json!(null), json!(""), json!("   ")] {
        let body = json!({"order_id": first, "result": "success", "serial_no": serial});
        let answer = app.post_as(&admin, "/adminapi/admin/order/resolve", body).await;
        assert_eq!(answer.code(), 40000, "{serial}");
        assert_eq!(answer.data()["keys"]["serial_no"], "order.serial_no.required", "{:?}", answer.body);
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 0", mid).await, 2);
    let body = json!({"order_id": first, "result": "success", "serial_no": " SN-42 ", "reason": "confirmed by phone"});
    let success = app.post_as(&admin, "/adminapi/admin/order/resolve", body).await;
    assert_eq!((success.data()["status"].as_i64(), success.data()["serial_no"].as_str()), (Some(2), Some("SN-42")));
    // The timeline names the administrator and keeps the reason (the merchant sees it too).
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": first})).await;
    let event = last_event(detail.data());
    assert_eq!(event["note"], "marked success by an administrator", "{event}");
    assert_eq!((event["actor_name"].as_str(), event["detail"].as_str()), (Some("admin"), Some("confirmed by phone")));
    // The first entry names who placed it.
    assert_eq!(detail.data()["timeline"][0]["actor_name"], "buyer");
    // A failure's reason is the order's failure reason, shown as written.
    let body = json!({"order_id": second, "result": "failure", "reason": "号码已停机"});
    let failure = app.post_as(&admin, "/adminapi/admin/order/resolve", body).await;
    assert_eq!(failure.data()["failure_reason"], "号码已停机");
    assert!(failure.data()["failure_reason_code"].is_null());
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": second})).await;
    let event = last_event(detail.data());
    assert_eq!(event["note"], "marked failed by an administrator");
    assert_eq!((event["actor_name"].as_str(), event["detail"].as_str()), (Some("admin"), Some("号码已停机")));
    app.assert_books_balance(mid).await;
}

async fn failure_reasons_are_read_in_each_language(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.channel.sandbox_delay = Duration::from_millis(10);
        config.channel.sandbox_success_ratio = 0.0;
    })
    .await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10_000, 0).await;
    app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 3", mid, 20).await;
    let stored: String =
        sqlx::query_scalar("SELECT failure_reason FROM orders").fetch_one(&app.state.db.pool).await.unwrap();
    assert_eq!(stored, "order.failure.carrier_refused");
    let list_in = |language: &'static str| {
        let request = app.client.post(app.url("/adminapi/order/list")).bearer_auth(&token);
        app.send(request.header("Accept-Language", language).json(&json!({})))
    };
    let zh = list_in("zh-CN").await;
    assert_eq!(zh.data()["list"][0]["failure_reason"], "运营商拒绝充值");
    assert_eq!(zh.data()["list"][0]["failure_reason_code"], "order.failure.carrier_refused");
    let en = list_in("en-US").await;
    assert_eq!(en.data()["list"][0]["failure_reason"], "The carrier refused the top-up");
    // Exports carry the reason in a column of its own, in the reader's language.
    let export = |format: &'static str| {
        app.client
            .get(app.url(&format!("/adminapi/order/export?format={format}")))
            .bearer_auth(&token)
            .header("Accept-Language", "zh-CN")
            .send()
    };
    let csv = export("csv").await.unwrap().text().await.unwrap();
    let mut lines = csv.lines();
    // The reason, then the number's province and city (the last two columns).
    assert!(lines.next().unwrap().ends_with(",\"失败原因\",\"归属省份\",\"归属城市\""), "{csv}");
    assert!(lines.next().unwrap().contains(",\"运营商拒绝充值\","), "{csv}");
    let xlsx = export("xlsx").await.unwrap().bytes().await.unwrap();
    let rows: Vec<Vec<String>> = {
        use calamine::Reader;
        let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx.to_vec())).unwrap();
        let range = book.worksheet_range_at(0).unwrap().unwrap();
        range.rows().map(|row| row.iter().map(|cell| cell.to_string()).collect()).collect()
    };
    let reason = rows[0].len() - 3;
    assert_eq!((rows[0][reason].as_str(), rows[1][reason].as_str()), ("失败原因", "运营商拒绝充值"));
    assert!(!csv.contains("sandbox"));
}
