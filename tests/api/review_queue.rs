//! The manual review queue: orders past their deadline wait for a person, oldest first;
//! an administrator decides several at once through the one resolution path.

use crate::helpers::{ADMIN, Backend, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;
use std::time::Duration;

on_both_backends!(orders_in_review_are_decided_many_at_once_each_once);

const PRICE: i64 = 985;

async fn orders_in_review_are_decided_many_at_once_each_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.channel.sandbox_delay = Duration::from_secs(3600);
        config.channel.deadline = Duration::from_millis(200);
    })
    .await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
        ids.push(placed.data()["order"]["id"].as_i64().unwrap());
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 4", mid, 10).await;
    let admin = app.login(ADMIN).await;
    // The queue: every kind in manual review, oldest first.
    let queue = app
        .post_as(&admin, "/adminapi/order/list", json!({"kind": "all", "status": 4, "sort": "asc", "merchant_id": mid}))
        .await;
    let listed: Vec<i64> =
        queue.data()["list"].as_array().unwrap().iter().map(|order| order["id"].as_i64().unwrap()).collect();
    assert_eq!(listed, ids);

    // Merchants may not decide.
    let body = json!({"result": "failure", "items": [{"order_id": ids[0]}]});
    assert_eq!(app.post_as(&token, "/adminapi/admin/order/resolveMany", body).await.code(), 40300);
    let many = json!({"result": "success", "items": [
        {"order_id": ids[0], "serial_no": "SN-1"}, {"order_id": ids[1], "serial_no": " "}, {"order_id": 999_999, "serial_no": "SN-X"}]});
    let answer = app.post_as(&admin, "/adminapi/admin/order/resolveMany", many).await;
    assert_eq!(answer.data()["resolved"], json!([ids[0]]), "{:?}", answer.body);
    let refused: Vec<(i64, &str)> = answer.data()["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| (item["order_id"].as_i64().unwrap(), item["msg"].as_str().unwrap()))
        .collect();
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert_eq!(refused[0].0, ids[1]);
    assert!(refused[0].1.contains("serial"), "{refused:?}");
    let failure = json!({"result": "failure", "reason": "carrier says no", "items": [{"order_id": ids[1]}, {"order_id": ids[2]}]});
    let answer = app.post_as(&admin, "/adminapi/admin/order/resolveMany", failure.clone()).await;
    assert_eq!(answer.data()["resolved"], json!([ids[1], ids[2]]));
    assert_eq!(app.figures(mid).await.0, 9 * PRICE, "two refunds");
    // Retried: nothing moves twice.
    let again = app.post_as(&admin, "/adminapi/admin/order/resolveMany", failure).await;
    assert_eq!(again.data()["resolved"], json!([]));
    assert_eq!(again.data()["refused"].as_array().unwrap().len(), 2);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    app.assert_books_balance(mid).await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 2", mid).await, 1);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 3", mid).await, 2);
    // Each decision is audited with the administrator and the order.
    let audited = app
        .scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'order_resolved' AND target LIKE 'order:%' AND user_id IS NOT NULL AND $1 > 0", mid)
        .await;
    assert_eq!(audited, 3);
    // Too many or none at all are refused before anything is decided.
    let none =
        app.post_as(&admin, "/adminapi/admin/order/resolveMany", json!({"result": "failure", "items": []})).await;
    assert_eq!(none.code(), 40000);
}
