//! Reversal (冲正) of a successful order: reported by the supplier's callback or its
//! statement, or decided by an administrator (reason, step-up). The order moves to 5
//! reversed once, is refunded once through the ledger (a reversal refund), keeps its
//! success time, and the merchant gets a signed `order.reversed` callback and a notice.

use crate::channel_support::{PRICE, SECRET, channels_config, order, post_callback, supplier_channel, without_sandbox};
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with, wait_until};
use crate::live::open_with_ticket;
use crate::on_both_backends;
use crate::two_factor::{code_now, enable_two_factor};
use axum::extract::State;
use axum::http::HeaderMap;
use backoffice::platform::channel::http_json::sign;
use backoffice::supply::simulator::{SimConfig, Simulator};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use std::sync::{Arc, Mutex};
use std::time::Duration;

on_both_backends!(
    a_supplier_reversal_reverses_and_refunds_once_and_tells_the_merchant,
    a_statement_reversal_is_applied_by_reconciliation_once,
    administrators_reverse_by_hand_with_a_reason_and_step_up,
);

const REVERSE: &str = "/adminapi/admin/order/reverse";
const REVERSAL_REFUNDS: &str = "SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 7";

/// The merchant's callback receiver: (webhook-id, timestamp, signature, body) of each request.
#[derive(Clone, Default)]
pub(crate) struct Receiver(Arc<Mutex<Vec<[String; 4]>>>);

impl Receiver {
    pub(crate) async fn start() -> (Self, String) {
        let receiver = Receiver::default();
        let app = axum::Router::new().route("/cb", axum::routing::post(receive)).with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        (receiver, format!("http://127.0.0.1:{port}/cb"))
    }

    /// The requests whose event is `event`.
    pub(crate) fn of(&self, event: &str) -> Vec<[String; 4]> {
        let all = self.0.lock().unwrap().clone();
        all.into_iter().filter(|[.., body]| serde_json::from_str::<Value>(body).unwrap()["type"] == event).collect()
    }
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: String) -> &'static str {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).unwrap_or("").to_string();
    receiver.0.lock().unwrap().push([
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
        body,
    ]);
    "ok"
}

/// A Standard Webhooks signature checked as a merchant would, independently of the server.
fn verifies(secret: &str, [id, timestamp, signature, body]: &[String; 4]) -> bool {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap();
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    signature.split(' ').any(|part| part == expected)
}

/// A server whose orders go to one simulated supplier `sim`, and callbacks go out at once.
async fn spawn(backend: Backend, config: SimConfig) -> (TestApp, i64, Simulator) {
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.notify.allow_private = true;
        config.notify.poll_interval = Duration::from_millis(20);
        config.notify.schedule = vec![Duration::ZERO; 3];
    })
    .await;
    without_sandbox(&app).await;
    let (channel_id, simulator) = supplier_channel(&app, "sim", 10, 960, config).await;
    (app, channel_id, simulator)
}

/// A successful order of a funded merchant: (mid, token, order id, upstream id).
async fn succeeded(app: &TestApp, username: &str) -> (i64, String, i64, String) {
    let (mid, token) = app.merchant(username).await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(app, &token, &format!("{username}-1")).await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", order_id, 10).await;
    let upstream: String = sqlx::query_scalar("SELECT upstream_order_id FROM order_attempts WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    (mid, token, order_id, upstream)
}

async fn a_supplier_reversal_reverses_and_refunds_once_and_tells_the_merchant(backend: Backend) {
    let (app, _, simulator) = spawn(backend, SimConfig::default()).await;
    let (receiver, url) = Receiver::start().await;
    let (mid, token) = app.merchant("shop").await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": url })).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    let rotated = app.post_as(&token, "/adminapi/notify/rotateSecret", json!({ "password": "Merchant123" })).await;
    let secret = rotated.data()["webhook_secret"].as_str().unwrap().to_string();
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "REV-1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", order_id, 10).await;
    let finished_at = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": order_id})).await.data()
        ["order"]["finished_at"]
        .clone();
    let upstream: String = sqlx::query_scalar("SELECT upstream_order_id FROM order_attempts WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();

    // The carrier takes the top-up back: the supplier calls back with code 20.
    assert!(simulator.reverse_now(&upstream));
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 5", order_id, 10).await;
    assert_eq!(app.figures(mid).await.0, 10 * PRICE, "refunded");
    assert_eq!(app.scalar(REVERSAL_REFUNDS, order_id).await, 1);
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2", order_id).await,
        0
    );
    app.assert_books_balance(mid).await;
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": order_id})).await;
    let shown = &detail.data()["order"];
    assert_eq!((shown["status"].as_i64(), shown["status_name"].as_str()), (Some(5), Some("reversed")));
    assert_eq!(shown["finished_at"], finished_at, "the success's time stays");
    assert!(shown["reversed_at"].is_string(), "{shown}");
    assert_eq!(shown["reversal_reason"], "carrier reversed the top-up");
    let last = detail.data()["timeline"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["status"].as_i64(), last["note"].as_str()), (Some(5), Some("reversed by the supplier")));
    let records = detail.data()["account_records"].as_array().unwrap();
    assert!(records.iter().any(|record| record["change_type"] == "reversal_refund"), "{records:?}");
    // The list filters by the new state; the merchant is told in the message center.
    let listed = app.post_as(&token, "/adminapi/order/list", json!({"status": 5})).await;
    assert_eq!(listed.data()["list"].as_array().unwrap().len(), 1, "{:?}", listed.body);
    let notices = "SELECT COUNT(*) FROM inbox_messages i JOIN users u ON u.id = i.user_id
                   WHERE u.merchant_id = $1 AND i.content LIKE '%冲正%'";
    assert_eq!(app.scalar(notices, mid).await, 1);
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'order_reversed' AND target = 'order:' || CAST($1 AS TEXT)", order_id)
            .await,
        1
    );

    // `order.reversed` reaches the merchant, signed like `order.finished`.
    wait_until("order.reversed is delivered", 10, || async { !receiver.of("order.reversed").is_empty() }).await;
    let reversed = receiver.of("order.reversed");
    assert!(verifies(&secret, &reversed[0]), "{reversed:?}");
    let event: Value = serde_json::from_str(&reversed[0][3]).unwrap();
    assert_eq!(event["data"]["status"], "reversed");
    assert_eq!(event["data"]["merchant_order_id"], "REV-1");
    assert_eq!(event["data"]["reversal_reason"], "carrier reversed the top-up");
    assert!(event["data"]["reversed_at"].is_string() && event["data"]["finished_at"] == finished_at);

    // The same report again (the supplier retries) changes nothing and refunds nothing.
    let body = json!({"code": 20, "msg": "again", "upstream_order_id": upstream}).to_string();
    let again = post_callback(&app, "sim", sign(SECRET.as_bytes(), body.as_bytes()), body).await;
    assert_eq!((again.code(), again.data()["changed"].as_bool()), (20000, Some(false)), "{:?}", again.body);
    let admin = app.login(ADMIN).await;
    let by_hand = app.post_as(&admin, REVERSE, json!({"order_id": order_id, "reason": "again"})).await;
    assert_eq!((by_hand.status.as_u16(), by_hand.code()), (409, 40900), "{:?}", by_hand.body);
    assert_eq!(app.scalar(REVERSAL_REFUNDS, order_id).await, 1);
    assert_eq!(app.figures(mid).await.0, 10 * PRICE);
    app.assert_books_balance(mid).await;
}

async fn a_statement_reversal_is_applied_by_reconciliation_once(backend: Backend) {
    let (app, channel_id, simulator) = spawn(backend, SimConfig::default()).await;
    let (mid, _, order_id, upstream) = succeeded(&app, "stmt").await;
    // Reversed at the supplier without a callback: only its statement says so.
    simulator.book.lock().unwrap().orders.get_mut(&upstream).unwrap().reversed_at =
        Some(backoffice::platform::db::now_millis());
    let admin = app.login(ADMIN).await;
    let today =
        backoffice::domain::beijing_date(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()));
    for run in 0..2 {
        let answer = app
            .post_as(&admin, "/adminapi/admin/channel/reconcile", json!({"channel_id": channel_id, "date": today}))
            .await;
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        if run == 0 {
            assert_eq!(answer.data()["counts"]["reversed"], 1, "run {run}: {:?}", answer.body);
            let line = &answer.data()["differences"][0];
            assert_eq!((line["kind"].as_str(), line["our_outcome"].as_str()), (Some("reversed"), Some("reversed")));
        } else {
            // Applied: both sides now say it is no success, so the day has no difference
            // (nor a success of ours left to count).
            assert_eq!(answer.data()["differences_total"], 0, "run {run}: {:?}", answer.body);
            assert_eq!(answer.data()["ours"]["count"], 0, "run {run}: {:?}", answer.body);
        }
        assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 5);
        assert_eq!(app.scalar(REVERSAL_REFUNDS, order_id).await, 1, "run {run}: refunded once");
    }
    assert_eq!(app.figures(mid).await.0, 10 * PRICE);
    app.assert_books_balance(mid).await;
}

async fn administrators_reverse_by_hand_with_a_reason_and_step_up(backend: Backend) {
    let (app, _, simulator) = spawn(backend, SimConfig::default()).await;
    let (mid, token, order_id, _) = succeeded(&app, "hand").await;
    // Merchants may not.
    let refused = app.post_as(&token, REVERSE, json!({"order_id": order_id, "reason": "mine"})).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40300), "{:?}", refused.body);
    let admin = enable_two_factor(&app, ADMIN).await;
    let mut stream = open_with_ticket(&app, &admin.token).await;
    let minutes = |data: &Value, field: &str| -> u64 {
        data["minutes"].as_array().map_or(0, |all| all.iter().map(|minute| minute[field].as_u64().unwrap_or(0)).sum())
    };
    let seen = stream.until(|data| minutes(data, "succeeded") >= 1).await;
    assert_eq!(minutes(&seen, "failed"), 0, "{seen}");
    // A reason is required and bounded, in both languages; checked before the step-up.
    for reason in ["", "   ", &"长".repeat(201)] {
        let bad = app.post_as(&admin.token, REVERSE, json!({"order_id": order_id, "reason": reason})).await;
        assert_eq!((bad.status.as_u16(), bad.code()), (400, 40000), "{:?}", bad.body);
        assert_eq!(bad.data()["keys"]["reason"], "order.reversal.reason_invalid", "{:?}", bad.body);
    }
    let zh = app
        .send(
            app.client
                .post(app.url(REVERSE))
                .bearer_auth(&admin.token)
                .header("accept-language", "zh-CN")
                .json(&json!({"order_id": order_id, "reason": ""})),
        )
        .await;
    assert!(zh.data()["fields"]["reason"].as_str().unwrap_or(zh.msg()).contains("冲正"), "{:?}", zh.body);
    // Two-factor on: the step-up code first.
    let body = json!({"order_id": order_id, "reason": "运营商确认未到账"});
    let asked = app.post_as(&admin.token, REVERSE, body.clone()).await;
    assert_eq!((asked.status.as_u16(), asked.code()), (403, 40340), "{:?}", asked.body);
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 2);
    let confirmed =
        app.post_as(&admin.token, "/adminapi/admin/stepUp/confirm", json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(confirmed.code(), 20000, "{:?}", confirmed.body);
    let reversed = app.post_as(&admin.token, REVERSE, body.clone()).await;
    assert_eq!(reversed.code(), 20000, "{:?}", reversed.body);
    assert_eq!(reversed.data()["status_name"], "reversed");
    assert_eq!(reversed.data()["reversal_reason"], "运营商确认未到账");
    assert_eq!(app.figures(mid).await.0, 10 * PRICE);
    // The live monitor counts it a failure from now on, in the minute it counted the success.
    let seen = stream.until(|data| minutes(data, "failed") >= 1).await;
    assert_eq!((minutes(&seen, "succeeded"), minutes(&seen, "failed")), (0, 1), "{seen}");
    drop(stream);
    // The timeline names the administrator and the reason; the audit row too.
    let detail = app.post_as(&admin.token, "/adminapi/order/detail", json!({"order_id": order_id})).await;
    let last = detail.data()["timeline"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["note"], "reversed by an administrator");
    assert_eq!((last["actor_name"].as_str(), last["detail"].as_str()), (Some("admin"), Some("运营商确认未到账")));
    let audited = "SELECT COUNT(*) FROM audit_events e JOIN users u ON u.id = e.user_id
                   WHERE u.username = 'admin' AND e.action = 'order_reversed' AND e.params LIKE '%运营商确认未到账%'
                   AND e.target = 'order:' || CAST($1 AS TEXT)";
    assert_eq!(app.scalar(audited, order_id).await, 1);
    // Twice: refused, nothing moves.
    let twice = app.post_as(&admin.token, REVERSE, body).await;
    assert_eq!((twice.status.as_u16(), twice.code()), (409, 40900), "{:?}", twice.body);
    assert_eq!(app.scalar(REVERSAL_REFUNDS, order_id).await, 1);
    // Only a success can be reversed: a failed order (refunded already) is refused.
    simulator.set_success_ratio(0.0);
    let failed = order(&app, &token, "hand-2").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 3", failed, 10).await;
    let not_success = app.post_as(&admin.token, REVERSE, json!({"order_id": failed, "reason": "x"})).await;
    assert_eq!(not_success.data()["keys"].get("reason"), None);
    assert_eq!((not_success.status.as_u16(), not_success.code()), (409, 40900), "{:?}", not_success.body);
    let missing = app.post_as(&admin.token, REVERSE, json!({"order_id": 999_999, "reason": "x"})).await;
    assert_eq!(missing.code(), 40400);
    assert_eq!(app.scalar(REVERSAL_REFUNDS, failed).await, 0);
    app.assert_books_balance(mid).await;
}
