//! Late answers about an attempt that is no longer the order's live one: a supplier that
//! definitely failed an order may repeat that failure (a duplicate or a slow callback)
//! after the order went on to another channel. Such an answer is about a channel that
//! topped up nothing, and says nothing about the attempt still open elsewhere.

use crate::channel_support::{
    PRICE, SECRET, attempts, order, post_callback, spawn_with_deadline, supplier_channel, upstream_id,
};
use crate::helpers::{Backend, TestApp};
use crate::on_both_backends;
use backoffice::platform::channel::http_json::sign;
use backoffice::supply::simulator::SimConfig;
use serde_json::json;
use std::time::Duration;

on_both_backends!(a_repeated_failure_of_an_earlier_channel_does_not_refund_an_order_in_review);

/// Posts a callback from channel `code`, signed as its supplier signs; whether it changed
/// the order.
async fn callback(app: &TestApp, code: &str, body: serde_json::Value) -> bool {
    let body = body.to_string();
    let answer = post_callback(app, code, sign(SECRET.as_bytes(), body.as_bytes()), body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["changed"].as_bool().unwrap()
}

async fn a_repeated_failure_of_an_earlier_channel_does_not_refund_an_order_in_review(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(400)).await;
    // The first channel refuses at once; the second takes the order and answers only
    // long after the deadline (its own callbacks come after the test).
    let never = Duration::from_secs(600);
    let refusing = SimConfig { success_ratio: 0.0, callback_delay: never, ..SimConfig::default() };
    let slow = SimConfig { delay: never, callback_delay: never, ..SimConfig::default() };
    supplier_channel(&app, "refusing", 10, 960, refusing).await;
    supplier_channel(&app, "slow", 5, 990, slow).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "S1").await;
    // Past its deadline with the second attempt open: a person's to look at.
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 4", order_id, 10).await;
    assert_eq!(
        attempts(&app, order_id).await,
        [("refusing".to_string(), "failed".to_string()), ("slow".to_string(), "pending".to_string())]
    );

    // The first supplier repeats its refusal: nothing changes, nothing is refunded, since
    // the second supplier may still top the order up.
    let first = upstream_id(&app, order_id, 1).await;
    let refusal = json!({"upstream_order_id": first, "code": 12, "msg": "carrier refused"});
    assert!(!callback(&app, "refusing", refusal.clone()).await);
    assert!(!callback(&app, "refusing", refusal).await);
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 4);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);

    // The second supplier topped it up: it succeeds, charged once and never refunded.
    let second = upstream_id(&app, order_id, 2).await;
    let success = json!({"upstream_order_id": second, "code": 0, "msg": "ok", "serial_no": "SIM-SLOW-1"});
    assert!(callback(&app, "slow", success).await);
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 2);
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2", order_id).await,
        0
    );
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    app.assert_books_balance(mid).await;
}
