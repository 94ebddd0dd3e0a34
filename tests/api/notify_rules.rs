//! The rules of issue 10 around notifications and keys, each against the real server: an
//! order's own notify_url wins over the profile's; the sender's time limit, answer limit and
//! refusal to follow redirects; the IP whitelist guards the open API only; key creation and
//! secret rotation take a two-factor code when it is on; the previous webhook secret stops
//! signing once its 24 hours are over.

use crate::helpers::{Backend, TestApp, spawn_app_with, wait_until};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, order_body, send};
use crate::two_factor::{code_now, enable_two_factor, forget_used_steps, wrong_code};
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use std::sync::{Arc, Mutex};
use std::time::Duration;

on_both_backends!(
    an_orders_own_notify_url_wins_over_the_profiles,
    the_sender_gives_up_on_slow_answers_cuts_long_ones_and_follows_no_redirect,
    the_ip_whitelist_guards_the_open_api_only,
    keys_and_webhook_secrets_need_the_two_factor_code_when_it_is_on,
    the_previous_webhook_secret_stops_signing_after_24_hours,
);

/// What a receiver saw: (path, webhook-id, webhook-timestamp, webhook-signature, body).
type Seen = Arc<Mutex<Vec<(String, String, String, String, String)>>>;

/// A merchant's callback endpoint with a few behaviours: `/a` and `/b` answer 200 "ok";
/// `/slow` never answers; `/endless` answers 200 with a body that never ends; `/moved`
/// redirects to `/a`.
async fn receiver() -> (Seen, String) {
    let seen: Seen = Arc::default();
    let app = axum::Router::new()
        .route("/a", axum::routing::post(record))
        .route("/b", axum::routing::post(record))
        .route("/slow", axum::routing::post(slow))
        .route("/endless", axum::routing::post(endless))
        .route("/moved", axum::routing::post(moved))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    (seen, base)
}

async fn record(State(seen): State<Seen>, uri: axum::http::Uri, headers: HeaderMap, body: String) -> &'static str {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).unwrap_or("").to_string();
    let entry =
        (uri.path().to_string(), header("webhook-id"), header("webhook-timestamp"), header("webhook-signature"));
    seen.lock().unwrap().push((entry.0, entry.1, entry.2, entry.3, body));
    "ok"
}

async fn slow() -> &'static str {
    // Never answers: the sender's time limit is what ends the attempt.
    std::future::pending::<()>().await;
    "never"
}

async fn endless() -> Response {
    let chunk = axum::body::Bytes::from(vec![b'x'; 16 * 1024]);
    let stream = futures_util::stream::repeat_with(move || Ok::<_, std::io::Error>(chunk.clone()));
    (StatusCode::OK, Body::from_stream(stream)).into_response()
}

async fn moved() -> Response {
    (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, "/a")], "").into_response()
}

fn paths(seen: &Seen) -> Vec<String> {
    seen.lock().unwrap().iter().map(|entry| entry.0.clone()).collect()
}

fn notifying(config: &mut backoffice::platform::config::Config) {
    crate::open_api::config(config);
    config.worker.enabled = true;
    config.notify.allow_private = true;
    config.notify.poll_interval = Duration::from_millis(20);
    config.notify.schedule = vec![Duration::from_secs(3600)];
}

async fn integration(app: &TestApp, token: &str, notify_url: &str) {
    let body = json!({"notify_url": notify_url, "ip_whitelist": "127.0.0.1"});
    let saved = app.post_as(token, "/adminapi/merchant/changeIntegration", body).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
}

async fn test_notification(app: &TestApp, token: &str) -> crate::helpers::Answer {
    app.post_as(token, "/adminapi/notify/test", json!({})).await
}

async fn an_orders_own_notify_url_wins_over_the_profiles(backend: Backend) {
    let app = spawn_app_with(backend, notifying).await;
    let (seen, base) = receiver().await;
    let (mid, token, key) = merchant_with_key(&app, "hooked").await;
    integration(&app, &token, &format!("{base}/a")).await;
    let mut with_url = order_body("OWN-1");
    with_url["notify_url"] = json!(format!("{base}/b"));
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &with_url)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let (plain, _) = send(&app, &key, Call::post("/openapi/v1/orders", &order_body("PROFILE-1"))).await;
    assert_eq!(plain.code(), 20000, "{:?}", plain.body);
    let delivered = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1";
    wait_until("both are delivered", 20, || async { app.scalar(delivered, mid).await == 2 }).await;
    let received = seen.lock().unwrap().clone();
    let to = |path: &str| -> Vec<String> {
        received
            .iter()
            .filter(|entry| entry.0 == path)
            .map(|entry| serde_json::from_str::<Value>(&entry.4).unwrap()["data"]["merchant_order_id"].to_string())
            .collect()
    };
    assert_eq!(to("/b"), ["\"OWN-1\""], "the order's own URL: {received:?}");
    assert_eq!(to("/a"), ["\"PROFILE-1\""], "the profile's for an order without one: {received:?}");
}

async fn the_sender_gives_up_on_slow_answers_cuts_long_ones_and_follows_no_redirect(backend: Backend) {
    // 10 s by default; short here so that the test waits for the answer, not for the clock.
    assert_eq!(backoffice::platform::config::NotifyConfig::default().timeout, Duration::from_secs(10));
    let app = spawn_app_with(backend, |config| {
        notifying(config);
        config.notify.timeout = Duration::from_millis(800);
    })
    .await;
    let (seen, base) = receiver().await;
    let (_, token, _) = merchant_with_key(&app, "limits").await;

    integration(&app, &token, &format!("{base}/slow")).await;
    let slow = test_notification(&app, &token).await;
    assert_eq!(slow.code(), 20000, "{:?}", slow.body);
    assert_eq!(slow.data()["delivered"], false);
    assert!(slow.data()["http_status"].is_null());
    assert_eq!(slow.data()["error_reason"], "notify.delivery.timeout", "{:?}", slow.body);
    let latency = slow.data()["latency_ms"].as_i64().unwrap();
    assert!((800..5_000).contains(&latency), "ended by the time limit: {latency} ms");

    // An answer that never ends: the first 64 KB are read, the rest dropped; a 2xx is
    // delivered (reading it all would have run into the time limit).
    integration(&app, &token, &format!("{base}/endless")).await;
    let endless = test_notification(&app, &token).await;
    assert_eq!(endless.data()["delivered"], true, "{:?}", endless.data()["error"]);
    assert_eq!(endless.data()["http_status"], 200);
    let excerpt = endless.data()["response_excerpt"].as_str().unwrap();
    assert_eq!(excerpt.len(), 1024, "the first 1 KB is kept with the attempt");

    // A redirect is an answer, not followed: a failure, and the target never hears of it.
    integration(&app, &token, &format!("{base}/moved")).await;
    let redirected = test_notification(&app, &token).await;
    assert_eq!(redirected.data()["delivered"], false);
    assert_eq!(redirected.data()["http_status"], 307);
    assert_eq!(redirected.data()["error_reason"], "notify.delivery.http_status", "{:?}", redirected.body);
    assert!(redirected.data()["error"].as_str().unwrap().contains("redirects are not followed"));
    assert!(paths(&seen).is_empty(), "{:?}", paths(&seen));
    let failed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notification_attempts WHERE delivered = 0")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(failed, 2, "the slow and the redirected attempts are recorded as failures");
}

async fn the_ip_whitelist_guards_the_open_api_only(backend: Backend) {
    let app = spawn_app_with(backend, crate::open_api::config).await;
    let (_, token, key) = merchant_with_key(&app, "walled").await;
    let saved =
        app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "203.0.113.7"})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    // The open API from an address outside it: refused.
    let (outside, _) = send(&app, &key, Call::get("/openapi/v1/balance")).await;
    assert_eq!(outside.code(), 40331, "{:?}", outside.body);
    // The console from the same address, and from another: signs in and works.
    for address in ["127.0.0.1", "198.51.100.20"] {
        let request = app
            .client
            .post(app.url("/adminapi/login/login"))
            .header("x-forwarded-for", address)
            .json(&json!({"username": "walled", "password": "Merchant123"}));
        let signed_in = app.send(request).await;
        assert_eq!(signed_in.code(), 20000, "{address}: {:?}", signed_in.body);
        let console = signed_in.data()["token"].as_str().unwrap().to_string();
        let request = app
            .client
            .post(app.url("/adminapi/order/list"))
            .bearer_auth(&console)
            .header("x-forwarded-for", address)
            .json(&json!({}));
        assert_eq!(app.send(request).await.code(), 20000, "{address}");
    }
    // Inside it, the open API answers.
    let (inside, _) = send(&app, &key, Call::get("/openapi/v1/balance").from("203.0.113.7")).await;
    assert_eq!(inside.code(), 20000, "{:?}", inside.body);
}

async fn keys_and_webhook_secrets_need_the_two_factor_code_when_it_is_on(backend: Backend) {
    let app = spawn_app_with(backend, crate::open_api::config).await;
    let (mid, _) = app.merchant("guarded").await;
    let enabled = enable_two_factor(&app, ("guarded", "Merchant123")).await;
    let token = enabled.token.clone();
    let made = [
        ("/adminapi/apikey/create", "SELECT COUNT(*) FROM api_keys WHERE merchant_id = $1"),
        ("/adminapi/notify/rotateSecret", "SELECT COUNT(*) FROM webhook_secrets WHERE merchant_id = $1"),
    ];
    for (path, count) in made {
        // The password alone, or with a wrong code: refused, nothing made.
        let without = app.post_as(&token, path, json!({"password": "Merchant123"})).await;
        assert_eq!(without.code(), 40110, "{path}: {:?}", without.body);
        let wrong =
            app.post_as(&token, path, json!({"password": "Merchant123", "code": wrong_code(&enabled.secret)})).await;
        assert_eq!(wrong.code(), 40110, "{path}: {:?}", wrong.body);
        assert_eq!(app.scalar(count, mid).await, 0, "{path}");
        // With the current code: done.
        let code = code_now(&enabled.secret);
        let done = app.post_as(&token, path, json!({"password": "Merchant123", "code": code})).await;
        assert_eq!(done.code(), 20000, "{path}: {:?}", done.body);
        assert_eq!(app.scalar(count, mid).await, 1, "{path}");
        forget_used_steps(&app).await;
    }
}

/// Verifies a Standard Webhooks signature header with one secret.
fn signed_by(secret: &str, (id, timestamp, signature, body): (&str, &str, &str, &str)) -> bool {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap();
    let mut mac = <Hmac<Sha256> as hmac::KeyInit>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    signature.split(' ').any(|part| part == expected)
}

async fn rotate(app: &TestApp, token: &str) -> String {
    let answer = app.post_as(token, "/adminapi/notify/rotateSecret", json!({"password": "Merchant123"})).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["webhook_secret"].as_str().unwrap().to_string()
}

/// Sends a test notification and returns what the receiver got.
async fn last_signature(app: &TestApp, token: &str, seen: &Seen) -> (String, String, String, String, String) {
    let sent = test_notification(app, token).await;
    assert_eq!(sent.data()["delivered"], true, "{:?}", sent.body);
    seen.lock().unwrap().last().cloned().unwrap()
}

async fn the_previous_webhook_secret_stops_signing_after_24_hours(backend: Backend) {
    let app = spawn_app_with(backend, notifying).await;
    let (seen, base) = receiver().await;
    let (mid, token, _) = merchant_with_key(&app, "rotating").await;
    integration(&app, &token, &format!("{base}/a")).await;
    let old = rotate(&app, &token).await;
    let new = rotate(&app, &token).await;
    // The overlap is 24 hours from the rotation, to the millisecond.
    let (rotated_at, until): (i64, i64) =
        sqlx::query_as("SELECT rotated_at, previous_until FROM webhook_secrets WHERE merchant_id = $1")
            .bind(mid)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(until - rotated_at, 24 * 3_600_000);
    let within = last_signature(&app, &token, &seen).await;
    let parts = (within.1.as_str(), within.2.as_str(), within.3.as_str(), within.4.as_str());
    assert_eq!(within.3.split(' ').count(), 2);
    assert!(signed_by(&old, parts) && signed_by(&new, parts));
    // The stored clock moved a day and a second on: the previous secret signs no more.
    sqlx::query(
        "UPDATE webhook_secrets SET rotated_at = rotated_at - 86401000, previous_until = previous_until - 86401000
         WHERE merchant_id = $1",
    )
    .bind(mid)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
    let after = last_signature(&app, &token, &seen).await;
    let parts = (after.1.as_str(), after.2.as_str(), after.3.as_str(), after.4.as_str());
    assert_eq!(after.3.split(' ').count(), 1, "{}", after.3);
    assert!(signed_by(&new, parts) && !signed_by(&old, parts));
}
