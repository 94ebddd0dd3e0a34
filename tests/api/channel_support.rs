//! What the channel tests share: simulated suppliers behind channels, a server whose orders
//! go to review after a deadline, and reads of an order's attempts (`channels.rs`,
//! `channel_late_answers.rs`, `platform/live/`).

use crate::helpers::{Answer, Backend, TestApp, spawn_app_with};
use backoffice::platform::config::Config;
use backoffice::supply::setup::{ChannelSpec, supply_catalogue, upsert};
use backoffice::supply::simulator::{SimConfig, Simulator};
use serde_json::json;
use std::time::Duration;

/// MOBILE-DIRECT-10 costs the merchant 985 fen.
pub(crate) const PRICE: i64 = 985;
pub(crate) const SECRET: &str = "test-shared-secret";

pub(crate) fn channels_config(config: &mut Config) {
    config.channel.allow_private = true;
}

/// A running simulator and the channel pointing at it (whole catalogue, at `permille`).
pub(crate) async fn supplier(app: &TestApp, code: &str, priority: i64, permille: i64, config: SimConfig) -> Simulator {
    supplier_channel(app, code, priority, permille, config).await.1
}

/// [`supplier`], with the channel's id.
pub(crate) async fn supplier_channel(
    app: &TestApp,
    code: &str,
    priority: i64,
    permille: i64,
    config: SimConfig,
) -> (i64, Simulator) {
    let simulator =
        Simulator::new(SimConfig { secret: SECRET.as_bytes().to_vec(), price_permille: permille, ..config });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    backoffice::supply::simulator::spawn(&simulator, listener);
    let spec = ChannelSpec {
        code,
        name: code,
        adapter: "http-json",
        base_url: &base_url,
        secret: Some(SECRET),
        timeout_ms: 2_000,
        enabled: true,
        low_balance_fen: 0,
    };
    let id = upsert(&app.state.db.pool, &app.state.secrets, &spec).await.unwrap();
    supply_catalogue(&app.state.db, id, permille, priority, 1).await.unwrap();
    (id, simulator)
}

pub(crate) async fn without_sandbox(app: &TestApp) {
    sqlx::query("UPDATE channels SET enabled = 0 WHERE code = 'sandbox'").execute(&app.state.db.pool).await.unwrap();
}

pub(crate) async fn order(app: &TestApp, token: &str, merchant_order_id: &str) -> i64 {
    let body =
        json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": merchant_order_id});
    let answer = app.add_order(token, body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["order"]["id"].as_i64().unwrap()
}

/// A card-secret order (MOBILE-CARD-10, 990 fen to the merchant): no account, a card back.
pub(crate) async fn card_order(app: &TestApp, token: &str, merchant_order_id: &str) -> i64 {
    let body = json!({"product_key": "MOBILE-CARD-10", "merchant_order_id": merchant_order_id});
    let answer = app.add_order(token, body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    assert_eq!(answer.data()["order"]["kind"], "card", "{:?}", answer.body);
    answer.data()["order"]["id"].as_i64().unwrap()
}

/// (channel code, outcome) of an order's attempts, in order.
pub(crate) async fn attempts(app: &TestApp, order_id: i64) -> Vec<(String, String)> {
    sqlx::query_as(
        "SELECT c.code, a.outcome FROM order_attempts a JOIN channels c ON c.id = a.channel_id
         WHERE a.order_id = $1 ORDER BY a.attempt_no",
    )
    .bind(order_id)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap()
}

/// The upstream id an order's attempt `attempt_no` was sent under.
pub(crate) async fn upstream_id(app: &TestApp, order_id: i64, attempt_no: i64) -> String {
    sqlx::query_scalar("SELECT upstream_order_id FROM order_attempts WHERE order_id = $1 AND attempt_no = $2")
        .bind(order_id)
        .bind(attempt_no)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

/// A supplier that answers and calls back only after ten minutes: its attempts stay pending.
pub(crate) fn slow_supplier() -> backoffice::supply::simulator::SimConfig {
    let later = std::time::Duration::from_secs(600);
    backoffice::supply::simulator::SimConfig { delay: later, callback_delay: later, ..Default::default() }
}

/// Waits until the order's first attempt was handed to its supplier and is pending there;
/// the upstream order id it was handed over under.
pub(crate) async fn pending_upstream_id(app: &TestApp, order_id: i64) -> String {
    let pending = "SELECT 1 - COUNT(*) FROM order_attempts WHERE order_id = $1 AND outcome = 'pending'";
    app.wait_for_zero(pending, order_id, 10).await;
    upstream_id(app, order_id, 1).await
}

/// Posts a supplier's callback to channel `code`, with the signature given.
pub(crate) async fn post_callback(app: &TestApp, code: &str, signature: String, body: String) -> Answer {
    app.send(
        app.client
            .post(app.url(&format!("/channel/callback/{code}")))
            .header("content-type", "application/json")
            .header("x-signature", signature)
            .body(body),
    )
    .await
}

pub(crate) fn submissions(simulator: &Simulator) -> Vec<u32> {
    simulator.book.lock().unwrap().orders.values().map(|order| order.submissions).collect()
}

/// A server whose orders go to review `deadline` after placement, whose channels are
/// never paused for unknown answers, and without the sandbox channel.
pub(crate) async fn spawn_with_deadline(backend: Backend, deadline: Duration) -> TestApp {
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.channel.deadline = deadline;
        config.channel.health_unknown_streak = 1_000;
    })
    .await;
    without_sandbox(&app).await;
    app
}
