//! kill -9 during delivery loses nothing: the real binary is killed with SIGKILL while its
//! deliveries hang at the merchant's receiver, then started again on the same database;
//! every notification is delivered, with the webhook-id it was first sent with.

use crate::helpers::{Backend, TestApp, spawn_app_with, wait_until};
use crate::on_both_backends;
use axum::extract::State;
use axum::http::HeaderMap;
use serde_json::json;
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

on_both_backends!(a_server_killed_mid_delivery_loses_no_notification);

const ORDERS: usize = 30;

/// A receiver that records each webhook-id and, until released, never answers (so the
/// sender's attempts stay in flight).
#[derive(Clone)]
struct Receiver {
    received: Arc<Mutex<Vec<String>>>,
    released: watch::Receiver<bool>,
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap) -> &'static str {
    let id = headers.get("webhook-id").and_then(|value| value.to_str().ok()).unwrap_or_default().to_string();
    receiver.received.lock().unwrap().push(id);
    let mut released = receiver.released.clone();
    let _ = released.wait_for(|released| *released).await;
    "ok"
}

/// The real binary serving `database` with the test's key file; its log is drained on a
/// thread so that it never blocks on a full pipe.
fn serve(app: &TestApp) -> Child {
    let mut child = Command::new(crate::helpers::server_binary())
        .args(["--log-format", "json", "serve", "--listen", "127.0.0.1:0", "--no-worker", "--allow-private-notify"])
        .args(["--notify-schedule", "0,0,0", "--notify-lease-seconds", "11", "--database", &app.config.database_url])
        .arg("--secret-key-file")
        .arg(app.config.secret_key_path.as_ref().unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(drop));
    child
}

async fn count(app: &TestApp, sql: &str, mid: i64) -> i64 {
    app.scalar(sql, mid).await
}

async fn a_server_killed_mid_delivery_loses_no_notification(backend: Backend) {
    // The in-process server places and finishes the orders; it sends nothing (it stays up:
    // the test reads the database through it).
    let app = spawn_app_with(backend, |config| {
        config.notify.enabled = false;
        config.notify.allow_private = true;
    })
    .await;
    let (release, released) = watch::channel(false);
    let receiver = Receiver { received: Arc::default(), released };
    let router = axum::Router::new().route("/cb", axum::routing::post(receive)).with_state(receiver.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://127.0.0.1:{}/cb", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, router).await.ok() });
    let (mid, token) = app.merchant("crash").await;
    app.fund(mid, 10_000_000, 0).await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({ "notify_url": url })).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    for index in 0..ORDERS {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("K{index}")});
        assert_eq!(app.add_order(&token, body).await.code(), 20000);
    }
    let pending = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 0";
    let outboxed = ORDERS as i64;
    wait_until("the outbox holds every order's notification", 30, || async {
        count(&app, pending, mid).await == outboxed
    })
    .await;

    // The binary sends them all; the receiver holds every request; kill -9 mid-flight.
    let mut first = serve(&app);
    let received = receiver.received.clone();
    wait_until("every notification is in flight", 60, || async { received.lock().unwrap().len() == ORDERS }).await;
    first.kill().unwrap();
    first.wait().unwrap();
    let delivered = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 1";
    assert_eq!(count(&app, delivered, mid).await, 0, "nothing was answered before the kill");
    let before: HashSet<String> = received.lock().unwrap().iter().cloned().collect();

    // Started again on the same database: after the dead server's claims expire, each
    // notification is sent again with its own webhook-id, and delivered.
    release.send(true).unwrap();
    let mut second = serve(&app);
    wait_until("every notification is delivered", 90, || async { count(&app, delivered, mid).await == outboxed }).await;
    second.kill().unwrap();
    second.wait().unwrap();
    let event_ids: HashSet<String> = sqlx::query_scalar("SELECT event_id FROM notifications WHERE merchant_id = $1")
        .bind(mid)
        .fetch_all(&app.state.db.pool)
        .await
        .unwrap()
        .into_iter()
        .collect();
    let all: Vec<String> = received.lock().unwrap().clone();
    let after: HashSet<String> = all[ORDERS..].iter().cloned().collect();
    assert_eq!(event_ids.len(), ORDERS);
    assert_eq!(before, event_ids, "the first server had sent each one before it died");
    assert_eq!(after, event_ids, "each one was sent again, with the same webhook-id");
    let attempts = "SELECT COUNT(*) FROM notification_attempts WHERE delivered = 1 AND notification_id IN \
                    (SELECT id FROM notifications WHERE merchant_id = $1)";
    assert_eq!(count(&app, attempts, mid).await, outboxed, "one delivered attempt recorded each");
}
