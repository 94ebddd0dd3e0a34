//! A server keeps an open-API key it checked, with its merchant's state and whitelist, for at
//! most a second (`identity/recent.rs`). A change takes effect at once on the server that made it
//! and within that second on another server on the same database; these tests fail if a
//! change is not seen (a stale key, whitelist or merchant state served on).

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, Key, config, merchant_with_key, send};
use serde_json::json;
use std::time::{Duration, Instant};

on_both_backends!(key_changes_hold_here_at_once_and_on_another_server_within_a_second);

const BALANCE: &str = "/openapi/v1/balance";

async fn key_changes_hold_here_at_once_and_on_another_server_within_a_second(backend: Backend) {
    let a = spawn_app_with(backend, config).await;
    let b = a.restart_with(|_| {}).await;
    let (mid, token, key) = merchant_with_key(&a, "cached").await;
    // Both servers have now checked the key (and keep it).
    assert_eq!(send(&a, &key, Call::get(BALANCE)).await.0.code(), 20000);
    assert_eq!(send(&b, &key, Call::get(BALANCE)).await.0.code(), 20000);

    // A whitelist without this address.
    let saved = a.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "10.9.9.9"})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!(send(&a, &key, Call::get(BALANCE)).await.0.code(), 40331);
    answers_within_a_second(&b, &key, 40331, Instant::now()).await;
    let saved = a.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "127.0.0.1"})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!(send(&a, &key, Call::get(BALANCE)).await.0.code(), 20000, "the saved whitelist holds at once");

    // The merchant disabled, then enabled again.
    let admin = a.login(ADMIN).await;
    let disabled = a.post_as(&admin, "/adminapi/admin/merchant/disable", json!({"merchant_id": mid})).await;
    assert_eq!(disabled.code(), 20000, "{:?}", disabled.body);
    assert_eq!(send(&a, &key, Call::get(BALANCE)).await.0.code(), 40332);
    answers_within_a_second(&b, &key, 40332, Instant::now()).await;
    let enabled = a.post_as(&admin, "/adminapi/admin/merchant/enable", json!({"merchant_id": mid})).await;
    assert_eq!(enabled.code(), 20000, "{:?}", enabled.body);
    assert_eq!(send(&a, &key, Call::get(BALANCE)).await.0.code(), 20000, "enabled holds at once");

    answers_within_a_second(&b, &key, 20000, Instant::now()).await;

    // The key revoked (b holds it as valid).
    let revoked = a.post_as(&admin, "/adminapi/apikey/revoke", json!({"key_id": key.id})).await;
    assert_eq!(revoked.code(), 20000, "{:?}", revoked.body);
    assert_eq!(send(&a, &key, Call::get(BALANCE)).await.0.code(), 40131);
    answers_within_a_second(&b, &key, 40131, Instant::now()).await;
}

/// Calls until the answer is `code`; a call sent a second or more after `changed` must get it.
async fn answers_within_a_second(app: &TestApp, key: &Key, code: i64, changed: Instant) {
    loop {
        let sent = Instant::now();
        let answer = send(app, key, Call::get(BALANCE)).await.0.code();
        if answer == code {
            return;
        }
        assert!(sent < changed + Duration::from_secs(1), "{answer} a second after the change (expected {code})");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
