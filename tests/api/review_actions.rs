//! The manual review queue's actions that go to the channels: an administrator asks an
//! order's supplier where it stands (and the answer settles the order as the worker's
//! would), or sends an order no channel may still top up to a channel now, never twice.

use crate::channel_support::{
    PRICE, attempts, channels_config, order, slow_supplier, spawn_with_deadline, submissions, supplier, upstream_id,
    without_sandbox,
};
use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use backoffice::supply::simulator::{SimConfig, Simulator};
use serde_json::json;
use std::time::Duration;

on_both_backends!(querying_the_supplier_settles_an_order_in_review_as_the_worker_would);
on_both_backends!(sending_to_a_channel_places_one_attempt_even_when_two_administrators_send_at_once);

const QUERY: &str = "/adminapi/admin/order/querySupplier";
const SEND: &str = "/adminapi/admin/order/sendToChannel";

/// The supplier's result for the order's first attempt is ready now: `succeeds` or not.
async fn decide_at_supplier(app: &TestApp, simulator: &Simulator, order_id: i64, succeeds: bool) {
    let upstream = upstream_id(app, order_id, 1).await;
    let mut book = simulator.book.lock().unwrap();
    let order = book.orders.get_mut(&upstream).expect("the supplier has the order");
    order.ready_at = 0;
    order.succeeds = succeeds;
}

async fn status(app: &TestApp, order_id: i64) -> i64 {
    app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await
}

/// Pending → processing → manual review, as the worker moves an order, without an attempt.
async fn to_review(app: &TestApp, order_id: i64) {
    backoffice::orders::lifecycle::mark_processing(&app.state, order_id).await.unwrap().unwrap();
    assert!(backoffice::orders::lifecycle::mark_manual_review(&app.state, order_id).await.unwrap());
}

async fn query(app: &TestApp, token: &str, order_id: i64) -> Answer {
    app.post_as(token, QUERY, json!({"order_id": order_id})).await
}

async fn querying_the_supplier_settles_an_order_in_review_as_the_worker_would(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(400)).await;
    let slow = supplier(&app, "slow", 10, 960, slow_supplier()).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let [succeeding, failing, waiting, routed_on] = [
        order(&app, &token, "Q1").await,
        order(&app, &token, "Q2").await,
        order(&app, &token, "Q3").await,
        order(&app, &token, "Q4").await,
    ];
    // Past their deadline with the attempt pending at the supplier: a person's to look at.
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 4", mid, 10).await;
    let admin = app.login(ADMIN).await;

    // Merchants may neither query nor send.
    assert_eq!(query(&app, &token, succeeding).await.code(), 40300);
    assert_eq!(app.post_as(&token, SEND, json!({"order_id": succeeding})).await.code(), 40300);

    // While the attempt is pending, sending again could top the order up twice: refused.
    let refused = app.post_as(&admin, SEND, json!({"order_id": waiting})).await;
    assert_eq!(refused.code(), 40900, "{:?}", refused.body);
    assert!(refused.msg().contains("twice"), "{:?}", refused.body);
    assert_eq!(attempts(&app, waiting).await.len(), 1);

    // The supplier has no result yet: the order stays in review, the answer in words.
    let answer = query(&app, &admin, waiting).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    assert_eq!(answer.data()["outcome"], "pending");
    assert!(answer.data()["answer"].as_str().unwrap().contains("still processing"), "{:?}", answer.body);
    assert_eq!(status(&app, waiting).await, 4);

    // It succeeded there: the order succeeds with the supplier's serial number.
    decide_at_supplier(&app, &slow, succeeding, true).await;
    let answer = query(&app, &admin, succeeding).await;
    assert_eq!(answer.data()["outcome"], "success", "{:?}", answer.body);
    assert_eq!(answer.data()["order"]["status"], 2);
    assert!(answer.data()["order"]["serial_no"].as_str().unwrap().starts_with("SIM"));
    // Finished: nothing left to query.
    assert_eq!(query(&app, &admin, succeeding).await.code(), 40900);

    // It failed there and no other channel supplies the product: refunded, once.
    decide_at_supplier(&app, &slow, failing, false).await;
    let answer = query(&app, &admin, failing).await;
    assert_eq!(answer.data()["outcome"], "failed", "{:?}", answer.body);
    assert_eq!(status(&app, failing).await, 3);
    assert_eq!(app.figures(mid).await.0, 10 * PRICE - 3 * PRICE);

    // It failed there and another channel supplies the product: the order goes on to it.
    let backup = supplier(&app, "backup", 5, 980, SimConfig::default()).await;
    decide_at_supplier(&app, &slow, routed_on, false).await;
    let answer = query(&app, &admin, routed_on).await;
    assert_eq!(answer.data()["outcome"], "failed", "{:?}", answer.body);
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", routed_on, 10).await;
    assert_eq!(
        attempts(&app, routed_on).await,
        [("slow".to_string(), "failed".to_string()), ("backup".to_string(), "success".to_string())]
    );
    assert_eq!(submissions(&backup), [1]);
    app.assert_books_balance(mid).await;
    let audited =
        app.scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'order_supplier_queried' AND $1 > 0", mid).await;
    assert_eq!(audited, 4);
}

async fn sending_to_a_channel_places_one_attempt_even_when_two_administrators_send_at_once(backend: Backend) {
    // No worker: the orders are moved to review by hand, never handed to a channel.
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.worker.enabled = false;
    })
    .await;
    without_sandbox(&app).await;
    let fine = supplier(&app, "fine", 10, 980, SimConfig::default()).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "S1").await;
    to_review(&app, order_id).await;
    let admin = app.login(ADMIN).await;
    assert_eq!(app.post_as(&token, SEND, json!({"order_id": order_id})).await.code(), 40300);
    // Nothing to query: it was never handed to a channel.
    assert_eq!(query(&app, &admin, order_id).await.code(), 40900);

    // Two administrators send it at once (each with their own key): one attempt, one top-up.
    let body = json!({"order_id": order_id});
    let send = |key: &'static str| {
        app.send(
            app.client
                .post(app.url(SEND))
                .bearer_auth(&admin)
                .header("token", &admin)
                .header("Idempotency-Key", key)
                .json(&body),
        )
    };
    let (first, second) = tokio::join!(send("send-a"), send("send-b"));
    let mut codes = [first.code(), second.code()];
    codes.sort();
    assert_eq!(codes, [20000, 40900], "{:?} {:?}", first.body, second.body);
    assert_eq!(attempts(&app, order_id).await, [("fine".to_string(), "success".to_string())]);
    assert_eq!(submissions(&fine), [1]);
    assert_eq!(status(&app, order_id).await, 2);
    // Repeated with the winner's key: the first answer, nothing sent again.
    let winner = if first.code() == 20000 { "send-a" } else { "send-b" };
    let again = send(winner).await;
    assert_eq!(again.code(), 20000, "{:?}", again.body);
    assert_eq!(submissions(&fine), [1]);

    // An administrator's choice among the candidates; a channel that is none is refused.
    let chosen = order(&app, &token, "S2").await;
    to_review(&app, chosen).await;
    let sandbox: i64 = sqlx::query_scalar("SELECT id FROM channels WHERE code = 'sandbox'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let refused = app.post_as(&admin, SEND, json!({"order_id": chosen, "channel_id": sandbox})).await;
    assert_eq!(refused.code(), 40900, "{:?}", refused.body);
    let fine_id: i64 =
        sqlx::query_scalar("SELECT id FROM channels WHERE code = 'fine'").fetch_one(&app.state.db.pool).await.unwrap();
    let sent = app.post_as(&admin, SEND, json!({"order_id": chosen, "channel_id": fine_id})).await;
    assert_eq!(sent.code(), 20000, "{:?}", sent.body);
    assert_eq!(sent.data()["status"], 2);
    let audited =
        app.scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'order_sent_to_channel' AND $1 > 0", mid).await;
    assert_eq!(audited, 2);
    app.assert_books_balance(mid).await;
}
