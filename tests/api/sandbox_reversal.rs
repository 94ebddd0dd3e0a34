//! The built-in sandbox channel reverses (冲正) successes when configured to
//! (`sandbox_reversal_ratio`, `sandbox_reversal_delay`), so that merchants integrating
//! against it receive `order.reversed`: the reversal reaches the order without the daily
//! reconciliation, through the supplier callback's path, once even with two servers
//! sweeping one database; the merchant is refunded once and told once, and the sandbox's
//! statement lists the line as reversed with its reason.

use crate::channel_support::{PRICE, order};
use crate::helpers::{Backend, spawn_app_with, wait_until};
use crate::on_both_backends;
use crate::reversal::Receiver;
use backoffice::platform::channel::model;
use serde_json::{Value, json};
use std::time::Duration;

on_both_backends!(the_sandbox_reverses_a_success_and_the_merchant_is_refunded_and_told_once);

const REVERSAL_REFUNDS: &str = "SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 7";

async fn the_sandbox_reverses_a_success_and_the_merchant_is_refunded_and_told_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.channel.sandbox_reversal_ratio = 1.0;
        // Long enough for the worker to settle the success first (it asks every 20 ms).
        config.channel.sandbox_reversal_delay = Duration::from_millis(1_500);
        config.notify.allow_private = true;
        config.notify.poll_interval = Duration::from_millis(20);
        config.notify.schedule = vec![Duration::ZERO; 3];
    })
    .await;
    // A second server on the same database sweeps the same book.
    let other = app.restart_with(|_| {}).await;
    let (receiver, url) = Receiver::start().await;
    let (mid, token) = app.merchant("sandboxer").await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": url })).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    app.fund(mid, 10 * PRICE, 0).await;

    let order_id = order(&app, &token, "SBX-1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status NOT IN (2, 5)", order_id, 10).await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 5", order_id, 20).await;
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": order_id})).await;
    let shown = &detail.data()["order"];
    assert_eq!(shown["status_name"], "reversed", "{shown}");
    assert_eq!(shown["reversal_reason"], "carrier reversed the top-up (sandbox)", "{shown}");
    assert!(shown["serial_no"].is_string(), "it had succeeded first: {shown}");

    // Refunded once: the balance and the log.
    wait_until("order.reversed is delivered", 10, || async { !receiver.of("order.reversed").is_empty() }).await;
    // Both servers have swept since the reversal fell due: a second delivery would be here.
    for server in [&app, &other] {
        let swept = backoffice::supply::sandbox_reversals::sweep(&server.state).await.unwrap();
        assert_eq!(swept, 0, "nothing is left to deliver");
    }
    assert_eq!(app.figures(mid).await.0, 10 * PRICE, "refunded");
    assert_eq!(app.scalar(REVERSAL_REFUNDS, order_id).await, 1);
    app.assert_books_balance(mid).await;
    let reversed = receiver.of("order.reversed");
    assert_eq!(reversed.len(), 1, "{reversed:?}");
    let event: Value = serde_json::from_str(&reversed[0][3]).unwrap();
    assert_eq!((&event["data"]["merchant_order_id"], &event["data"]["status"]), (&json!("SBX-1"), &json!("reversed")));

    // The sandbox's statement for the day lists it as reversed, saying why.
    let pool = &app.state.db.pool;
    let sandbox = model::by_code(pool, "sandbox").await.unwrap().unwrap();
    let upstream: String = sqlx::query_scalar("SELECT upstream_order_id FROM order_attempts WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(pool)
        .await
        .unwrap();
    let now = backoffice::platform::db::now_millis();
    let today = backoffice::domain::beijing_date(backoffice::domain::beijing_day(now));
    let lines = app.state.channels.adapter(&sandbox).unwrap().statement(&today).await.unwrap();
    let line = lines.iter().find(|line| line.upstream_order_id == upstream).expect("the order's line");
    assert_eq!((line.status.as_str(), line.reason.as_str()), ("reversed", "carrier reversed the top-up (sandbox)"));
}
