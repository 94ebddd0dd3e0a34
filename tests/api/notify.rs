//! Order notifications against a local receiver: retries until delivered with one
//! webhook-id and signatures that verify, exhaustion and resending, SSRF refusals, two
//! servers on one database, and a restart that loses nothing.

use crate::helpers::{Backend, MERCHANT, TestApp, spawn_app, spawn_app_with, wait_until};
use crate::on_both_backends;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use std::sync::{Arc, Mutex};
use std::time::Duration;

on_both_backends!(
    failed_callbacks_are_retried_until_delivered_with_one_webhook_id,
    a_schedule_that_runs_out_exhausts_and_tells_the_merchant,
    internal_destinations_are_refused_when_saved_and_when_sending,
    two_servers_on_one_database_send_each_attempt_once,
    a_restart_loses_no_notification
);

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    body: String,
}

#[derive(Clone, Default)]
struct Receiver {
    received: Arc<Mutex<Vec<Received>>>,
    /// Answers before success: (status, body) each, in order; then 200 "ok".
    failures: Arc<Mutex<Vec<(u16, &'static str)>>>,
}

impl Receiver {
    /// Starts on a free port; answers `failures` in turn, then 200 forever.
    async fn start(failures: Vec<(u16, &'static str)>) -> (Self, String) {
        let receiver = Receiver { failures: Arc::new(Mutex::new(failures)), ..Receiver::default() };
        let app = axum::Router::new().route("/cb", axum::routing::post(receive)).with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        (receiver, format!("http://127.0.0.1:{port}/cb"))
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: String) -> (StatusCode, &'static str) {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).unwrap_or("").to_string();
    receiver.received.lock().unwrap().push(Received {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body,
    });
    let mut failures = receiver.failures.lock().unwrap();
    if failures.is_empty() {
        return (StatusCode::OK, "ok");
    }
    let (status, text) = failures.remove(0);
    (StatusCode::from_u16(status).unwrap(), text)
}

/// Verifies a Standard Webhooks signature as a merchant would, independently of the server.
fn verifies(secret: &str, received: &Received) -> bool {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap();
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", received.id, received.timestamp, received.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    received.signature.split(' ').any(|part| part == expected)
}

fn fast(config: &mut backoffice::platform::config::Config, schedule_seconds: &[u64]) {
    config.notify.allow_private = true;
    config.notify.poll_interval = Duration::from_millis(20);
    config.notify.schedule = schedule_seconds.iter().map(|seconds| Duration::from_secs(*seconds)).collect();
}

async fn count(app: &TestApp, sql: &str, mid: i64) -> i64 {
    app.scalar(sql, mid).await
}

/// A funded merchant whose profile notify URL is `url`; returns (mid, token).
async fn merchant_notified_at(app: &TestApp, username: &str, url: &str) -> (i64, String) {
    let (mid, token) = app.merchant(username).await;
    app.fund(mid, 10_000_000, 0).await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": url })).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    (mid, token)
}

async fn order(app: &TestApp, token: &str, merchant_order_id: &str) -> Value {
    let body =
        json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": merchant_order_id});
    let answer = app.add_order(token, body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["order"].clone()
}

async fn rotate(app: &TestApp, token: &str) -> String {
    let answer = app.post_as(token, "/adminapi/notify/rotateSecret", json!({ "password": "Merchant123" })).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["webhook_secret"].as_str().unwrap().to_string()
}

async fn failed_callbacks_are_retried_until_delivered_with_one_webhook_id(backend: Backend) {
    let app = spawn_app_with(backend, |config| fast(config, &[0, 0, 0, 0])).await;
    let (receiver, url) = Receiver::start(vec![(500, "oops"), (200, " FAIL\n")]).await;
    let (mid, token) = merchant_notified_at(&app, "shop", &url).await;
    let wrong = app.post_as(&token, "/adminapi/notify/rotateSecret", json!({ "password": "Wrong1234" })).await;
    assert_eq!(wrong.data()["keys"]["password"], "password.current.wrong", "{:?}", wrong.body);
    let secret = rotate(&app, &token).await;
    assert!(secret.starts_with("whsec_") && STANDARD.decode(&secret[6..]).unwrap().len() == 32);
    let placed = order(&app, &token, "CB-1").await;
    let delivered = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1";
    wait_until("the notification is delivered", 20, || async { count(&app, delivered, mid).await == 1 }).await;

    let received = receiver.received();
    assert_eq!(received.len(), 3, "two failures, then delivered on attempt 3: {received:?}");
    assert!(received.iter().all(|request| request.id == received[0].id), "one webhook-id on every attempt");
    assert!(received.iter().all(|request| verifies(&secret, request)), "{received:?}");
    // The merchant's own verifier would refuse a signature under another secret.
    assert!(!verifies(&format!("whsec_{}", STANDARD.encode([1u8; 32])), &received[0]));
    let event: Value = serde_json::from_str(&received[2].body).unwrap();
    assert_eq!(event["event_id"], received[0].id.as_str());
    assert_eq!(event["type"], "order.finished");
    assert_eq!(event["data"]["merchant_order_id"], "CB-1");
    assert_eq!(event["data"]["order_no"], placed["order_no"]);
    assert_eq!(event["data"]["status"], "success");
    assert_eq!(event["data"]["face_value_fen"], 1000);
    assert!(event["data"]["serial_no"].as_str().is_some_and(|serial| !serial.is_empty()));

    // The order drawer shows the three attempts; the list filters by state and order.
    let order_id = placed["id"].as_i64().unwrap();
    let attempts = app.post_as(&token, "/adminapi/notify/attempts", json!({ "order_id": order_id })).await;
    let list = attempts.data()["attempts"].as_array().unwrap().clone();
    assert_eq!(list.len(), 3, "{:?}", attempts.body);
    assert_eq!(list.iter().map(|attempt| attempt["delivered"] == true).collect::<Vec<_>>(), [false, false, true]);
    assert_eq!(list[0]["http_status"], 500);
    assert_eq!(list[0]["response_excerpt"], "oops");
    // The merchant reads why in words, with what to do; never the raw text.
    assert_eq!(list[1]["error_reason"], "notify.delivery.answer", "{:?}", list[1]);
    assert!(
        list[1]["error"].as_str().unwrap().starts_with("The notify URL's answer was not understood"),
        "{:?}",
        list[1]
    );
    assert_eq!(list[0]["error_reason"], "notify.delivery.http_status", "{:?}", list[0]);
    let page = app.post_as(&token, "/adminapi/notify/list", json!({ "state": "delivered" })).await;
    assert_eq!(page.data()["total"], 1, "{:?}", page.body);
    assert_eq!(page.data()["list"][0]["attempts"], 3);
    assert_eq!(page.data()["list"][0]["order_no"], placed["order_no"]);
    let none = app.post_as(&token, "/adminapi/notify/list", json!({ "state": "failed" })).await;
    assert_eq!(none.data()["total"], 0);
    let bad = app.post_as(&token, "/adminapi/notify/list", json!({ "state": "lost" })).await;
    assert_eq!(bad.code(), 40000);
    // Another merchant sees neither the notification nor the order's attempts.
    let (_, other) = app.merchant("othershop").await;
    assert_eq!(app.post_as(&other, "/adminapi/notify/list", json!({})).await.data()["total"], 0);
    assert_eq!(app.post_as(&other, "/adminapi/notify/attempts", json!({ "order_id": order_id })).await.code(), 40400);

    // After a rotation both secrets sign for a day: a verifier with either accepts.
    let new_secret = rotate(&app, &token).await;
    let test = app.post_as(&token, "/adminapi/notify/test", json!({})).await;
    assert_eq!(test.data()["delivered"], true, "{:?}", test.body);
    let last = receiver.received().pop().unwrap();
    assert_eq!(last.signature.split(' ').count(), 2, "{last:?}");
    assert!(verifies(&secret, &last) && verifies(&new_secret, &last));
    assert_eq!(serde_json::from_str::<Value>(&last.body).unwrap()["type"], "test");
    // Sealed at rest: neither secret appears in the database.
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT secret_enc FROM webhook_secrets").fetch_all(&app.state.db.pool).await.unwrap();
    assert!(stored.iter().all(|sealed| !sealed.contains(&new_secret[6..]) && sealed.starts_with("v1:")));
}

async fn a_schedule_that_runs_out_exhausts_and_tells_the_merchant(backend: Backend) {
    let app = spawn_app_with(backend, |config| fast(config, &[0, 0])).await;
    let failures = vec![(503, "down"); 6];
    let (receiver, url) = Receiver::start(failures).await;
    let (mid, token) = merchant_notified_at(&app, "shop", &url).await;
    order(&app, &token, "EX-1").await;
    let exhausted = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 3";
    wait_until("the notification is exhausted", 20, || async { count(&app, exhausted, mid).await == 1 }).await;
    assert_eq!(receiver.received().len(), 3, "the first attempt and two retries");
    let notices = "SELECT COUNT(*) FROM inbox_messages WHERE user_id IN (SELECT id FROM users WHERE merchant_id = $1) \
                   AND title LIKE '%Order notification undeliverable%'";
    assert_eq!(count(&app, notices, mid).await, 1);

    // Resending the failed ones of a time range tries once more; exhausted again, told once.
    let range = json!({ "from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z" });
    let missing = app.post_as(&token, "/adminapi/notify/resendFailed", json!({ "from": "2000-01-01T00:00:00Z" })).await;
    assert_eq!(missing.data()["keys"]["to"], "notify.time_range.required", "{:?}", missing.body);
    let resent = app.post_as(&token, "/adminapi/notify/resendFailed", range).await;
    assert_eq!(resent.data()["queued"], 1, "{:?}", resent.body);
    let attempts = "SELECT COUNT(*) FROM notification_attempts WHERE notification_id IN \
                    (SELECT id FROM notifications WHERE merchant_id = $1)";
    wait_until("the resend is tried", 20, || async { count(&app, attempts, mid).await == 4 }).await;
    wait_until("it is exhausted again", 20, || async { count(&app, exhausted, mid).await == 1 }).await;
    assert_eq!(count(&app, notices, mid).await, 1);
    // One by id: the receiver has recovered by the sixth try.
    let id = app.scalar("SELECT id FROM notifications WHERE merchant_id = $1", mid).await;
    for expected in [5, 6] {
        assert_eq!(app.post_as(&token, "/adminapi/notify/resend", json!({ "id": id })).await.code(), 20000);
        wait_until("the resend is tried", 20, || async { count(&app, attempts, mid).await == expected }).await;
        wait_until("it is settled", 20, || async {
            count(&app, "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state IN (0, 2)", mid).await == 0
        })
        .await;
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1", mid).await, 0);
    assert_eq!(app.post_as(&token, "/adminapi/notify/resend", json!({ "id": id })).await.code(), 20000);
    wait_until("delivered at last", 20, || async {
        count(&app, "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1", mid).await == 1
    })
    .await;
    let (_, other) = app.merchant("othershop").await;
    assert_eq!(app.post_as(&other, "/adminapi/notify/resend", json!({ "id": id })).await.code(), 40400);
}

async fn internal_destinations_are_refused_when_saved_and_when_sending(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        fast(config, &[0]);
        config.notify.allow_private = false;
    })
    .await;
    let (receiver, url) = Receiver::start(vec![]).await;
    let (mid, token) = app.merchant("shop").await;
    app.fund(mid, 10_000_000, 0).await;
    let port = url.trim_start_matches("http://127.0.0.1:").trim_end_matches("/cb");
    for refused in [
        url.clone(),
        format!("http://localhost:{port}/cb"),
        "http://[::ffff:127.0.0.1]/cb".to_string(),
        "http://169.254.169.254/latest/meta-data".to_string(),
        "http://10.0.0.8/cb".to_string(),
        // IPv6 spellings of special-purpose blocks and of embedded loopback addresses.
        "http://[64:ff9b:1::7f00:1]/cb".to_string(),
        "http://[2002:7f00:1::]/cb".to_string(),
        "http://[::ffff:0:127.0.0.1]/cb".to_string(),
        "http://[100::1]/cb".to_string(),
        "http://[2001:db8::1]/cb".to_string(),
    ] {
        let answer =
            app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": refused })).await;
        assert_eq!(answer.code(), 40000, "{refused}");
        assert_eq!(answer.data()["keys"]["notify_url"], "notify.url.private", "{refused}: {:?}", answer.body);
    }
    let public = "https://shop.example.com/cb";
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": public })).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    // A URL stored before the rule (or by another path) is refused again when sending, and
    // the name is checked by what it resolves to: nothing reaches the receiver.
    sqlx::query("UPDATE users SET notify_url = $1 WHERE merchant_id = $2")
        .bind(format!("http://localhost:{port}/cb"))
        .bind(mid)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    order(&app, &token, "SSRF-1").await;
    let exhausted = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 3";
    wait_until("the notification gives up", 20, || async { count(&app, exhausted, mid).await == 1 }).await;
    let error: String = sqlx::query_scalar("SELECT last_error FROM notifications WHERE merchant_id = $1")
        .bind(mid)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert!(error.contains("loopback, private"), "{error}");
    assert!(receiver.received().is_empty());
}

async fn two_servers_on_one_database_send_each_attempt_once(backend: Backend) {
    let configure = |config: &mut backoffice::platform::config::Config| {
        fast(config, &[0]);
        config.notify.batch_size = 4;
        config.notify.poll_interval = Duration::from_millis(5);
    };
    let app = spawn_app_with(backend, configure).await;
    let second = app.restart_with(configure).await;
    let (receiver, url) = Receiver::start(vec![]).await;
    let (mid, token) = merchant_notified_at(&app, "shop", &url).await;
    for index in 0..40 {
        order(&app, &token, &format!("TWO-{index}")).await;
    }
    let delivered = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1";
    wait_until("all 40 are delivered", 20, || async { count(&app, delivered, mid).await == 40 }).await;
    let received = receiver.received();
    let mut ids: Vec<&str> = received.iter().map(|request| request.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!((received.len(), ids.len()), (40, 40), "each notification sent exactly once");
    let attempts = "SELECT COUNT(*) FROM notification_attempts WHERE notification_id IN \
                    (SELECT id FROM notifications WHERE merchant_id = $1)";
    assert_eq!(count(&app, attempts, mid).await, 40);
    drop(second);
}

async fn a_restart_loses_no_notification(backend: Backend) {
    let mut app = spawn_app_with(backend, |config| {
        fast(config, &[0]);
        config.notify.enabled = false;
    })
    .await;
    let (receiver, url) = Receiver::start(vec![]).await;
    let (mid, token) = merchant_notified_at(&app, "shop", &url).await;
    for index in 0..5 {
        order(&app, &token, &format!("RS-{index}")).await;
    }
    let pending = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 0";
    wait_until("the outbox holds all five", 20, || async { count(&app, pending, mid).await == 5 }).await;
    assert!(receiver.received().is_empty());
    app.stop().await;
    let restarted = app.restart_with(|config| config.notify.enabled = true).await;
    let delivered = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1";
    wait_until("all five are delivered", 20, || async { count(&restarted, delivered, mid).await == 5 }).await;
    assert_eq!(receiver.received().len(), 5);
    // Without a notify URL anywhere there is nobody to tell: no row.
    let token = restarted.login(MERCHANT).await;
    let demo_mid = restarted.scalar("SELECT merchant_id FROM users WHERE username = 'merchant' AND $1 = $1", 0).await;
    restarted.fund(demo_mid, 1_000_000, 0).await;
    order(&restarted, &token, "NO-URL").await;
    let finished = "SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status IN (0, 1)";
    restarted.wait_for_zero(finished, demo_mid, 20).await;
    assert_eq!(count(&restarted, "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1", demo_mid).await, 0);
}

#[tokio::test]
async fn the_test_endpoint_needs_a_notify_url() {
    let app = spawn_app(Backend::Sqlite).await;
    let token = app.login(MERCHANT).await;
    let answer = app.post_as(&token, "/adminapi/notify/test", json!({})).await;
    assert_eq!(answer.data()["keys"]["notify_url"], "notify.url.missing", "{:?}", answer.body);
    let admin = app.login(crate::helpers::ADMIN).await;
    assert_eq!(
        app.post_as(&admin, "/adminapi/notify/rotateSecret", json!({ "password": "Admin123" })).await.code(),
        40300
    );
}
