//! The live monitor's operational alerts: an ageing manual review queue, a merchant whose
//! order notifications fail, and notifications piling up; each absent while healthy.

use crate::channel_support::{PRICE, order, slow_supplier, spawn_with_deadline, supplier};
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with, wait_until};
use crate::live::{EventStream, open_with_ticket};
use crate::on_both_backends;
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;

on_both_backends!(
    the_monitor_alerts_on_an_ageing_review_queue,
    the_monitor_alerts_on_failing_and_waiting_notifications
);

fn alert(snapshot: &Value, kind: &str, merchant_id: i64) -> Option<Value> {
    snapshot["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|alert| alert["kind"] == kind && alert["merchant_id"] == merchant_id)
        .cloned()
}

/// The first snapshot whose alerts were read after now: what they say of the state now.
async fn alerts_read_from_now(stream: &mut EventStream) -> Value {
    let now = backoffice::platform::db::now_millis();
    stream.until(|snapshot| snapshot["alerts_at"].as_i64().unwrap() > now).await
}

async fn the_monitor_alerts_on_an_ageing_review_queue(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(400)).await;
    supplier(&app, "slow", 5, 980, slow_supplier()).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("waiting").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "REVIEW-1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 4", order_id, 20).await;
    let mut stream = open_with_ticket(&app, &admin).await;
    // One young order in review (below 20 orders and an hour): nothing to raise.
    let young = alerts_read_from_now(&mut stream).await;
    assert_eq!(young["manual_review"], 1);
    assert!(alert(&young, "review_aging", 0).is_none(), "{young}");

    // It has waited two hours now.
    sqlx::query("UPDATE orders SET created_at = created_at - 7200000 WHERE id = $1")
        .bind(order_id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let aged = stream.until(|snapshot| alert(snapshot, "review_aging", 0).is_some()).await;
    let raised = alert(&aged, "review_aging", 0).unwrap();
    assert_eq!((raised["count"].as_i64(), raised["threshold"].as_i64()), (Some(1), Some(20)));
    assert_eq!(raised["threshold_seconds"], 3600);
    assert!((7200..7300).contains(&raised["oldest_seconds"].as_i64().unwrap()), "{raised}");
}

/// A merchant's notification receiver answering `status` to every delivery.
async fn receiver(status: StatusCode) -> String {
    let app = axum::Router::new().route("/cb", axum::routing::post(move || async move { (status, "answer") }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    format!("http://127.0.0.1:{port}/cb")
}

async fn notified_at(app: &TestApp, username: &str, url: &str) -> (i64, String) {
    let (mid, token) = app.merchant(username).await;
    app.fund(mid, 100 * PRICE, 0).await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": url })).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    (mid, token)
}

async fn the_monitor_alerts_on_failing_and_waiting_notifications(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.notify.allow_private = true;
        config.notify.poll_interval = Duration::from_millis(20);
        // Three attempts at once, then a retry an hour later: the notification waits.
        config.notify.schedule = vec![Duration::ZERO, Duration::ZERO, Duration::from_secs(3600)];
        config.monitor_alerts.notification_backlog = 2;
    })
    .await;
    let admin = app.login(ADMIN).await;
    let (failing, failing_token) = notified_at(&app, "refused", &receiver(StatusCode::SERVICE_UNAVAILABLE).await).await;
    let (fine, fine_token) = notified_at(&app, "accepted", &receiver(StatusCode::OK).await).await;
    let mut stream = open_with_ticket(&app, &admin).await;
    let healthy = alerts_read_from_now(&mut stream).await;
    assert!(alert(&healthy, "notification_backlog", 0).is_none(), "{healthy}");
    assert!(healthy["alerts"].as_array().unwrap().iter().all(|alert| alert["kind"] != "callback_failing"));

    for index in 0..2 {
        order(&app, &fine_token, &format!("FINE-{index}")).await;
        order(&app, &failing_token, &format!("REFUSED-{index}")).await;
    }
    let attempts = "SELECT COUNT(*) FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id
                    WHERE n.merchant_id = $1";
    wait_until("six refused deliveries", 30, || async { app.scalar(attempts, failing).await == 6 }).await;
    let delivered = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1";
    wait_until("both delivered", 30, || async { app.scalar(delivered, fine).await == 2 }).await;

    // Read every 10 seconds: wait for the figures of the state reached, not for the time.
    let seen = stream
        .until(|snapshot| {
            alert(snapshot, "callback_failing", failing).is_some_and(|alert| alert["failed"] == 6)
                && alert(snapshot, "notification_backlog", 0).is_some_and(|alert| alert["count"] == 2)
        })
        .await;
    let refused = alert(&seen, "callback_failing", failing).unwrap();
    assert_eq!(refused["name"], "refused");
    assert_eq!((refused["count"].as_i64(), refused["failed"].as_i64()), (Some(6), Some(6)));
    assert_eq!((refused["failure_permille"].as_i64(), refused["threshold_permille"].as_i64()), (Some(1000), Some(500)));
    assert_eq!(refused["threshold"], 5);
    assert!(alert(&seen, "callback_failing", fine).is_none(), "a merchant whose deliveries succeed: {seen}");
    let backlog = alert(&seen, "notification_backlog", 0).unwrap();
    assert_eq!((backlog["count"].as_i64(), backlog["threshold"].as_i64()), (Some(2), Some(2)));
    assert_eq!(seen["notifications"]["backlog"], 2);
}
