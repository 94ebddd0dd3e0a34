//! Legacy MD5 signing of the open API: off for every key until an administrator switches
//! one on; then sorted parameters signed with MD5 are accepted under the same timestamp,
//! nonce and whitelist rules; merchants cannot switch it.

use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, Key, config, merchant_with_key, nonce, now_seconds, send};
use backoffice::merchant_api::signature;
use md5::{Digest, Md5};
use serde_json::{Value, json};

on_both_backends!(
    legacy_md5_signing_is_an_administrators_switch_per_key,
    a_legacy_call_with_unsignable_parameters_is_told_so,
);

/// The body of a legacy order, signed with MD5 as a migrating merchant's code signs it:
/// written out by hand here, so the server's sorting is checked against this test's.
fn legacy_order(key: &Key, merchant_order_id: &str, timestamp: i64, nonce: &str) -> Value {
    let text = format!(
        "account=13800138000&key_id={}&merchant_order_id={merchant_order_id}&nonce={nonce}\
         &product_key=MOBILE-DIRECT-10&timestamp={timestamp}&key={}",
        key.id, key.secret
    );
    let sign = hex::encode_upper(Md5::digest(text.as_bytes()));
    json!({"merchant_order_id": merchant_order_id, "product_key": "MOBILE-DIRECT-10", "account": "13800138000",
        "notify_url": "", "key_id": key.id, "timestamp": timestamp, "nonce": nonce, "sign": sign})
}

/// Sends a legacy call (no signature headers) and checks the answer's HMAC signature
/// when it is signed.
async fn send_legacy(app: &TestApp, key: &Key, method: &str, path_and_query: &str, body: Option<&Value>) -> Answer {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = app.client.request(method, app.url(path_and_query)).header("x-forwarded-for", "127.0.0.1");
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let header = |name: &str| response.headers().get(name).and_then(|value| value.to_str().ok()).map(str::to_string);
    let signed = header("x-timestamp").zip(header("x-nonce")).zip(header("x-signature"));
    let bytes = response.bytes().await.unwrap();
    if let Some(((time, echo), answer_signature)) = signed {
        let text = signature::response_string(status.as_u16(), &time, &echo, &bytes);
        assert!(signature::verify(&key.secret, &text, &answer_signature), "the answer's signature verifies");
    }
    Answer { status, body: serde_json::from_slice(&bytes).unwrap() }
}

async fn legacy_md5_signing_is_an_administrators_switch_per_key(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, token, key) = merchant_with_key(&app, "legacy1").await;
    let first = nonce();
    let body = legacy_order(&key, "LEGACY-1", now_seconds(), &first);
    // Off by default: an MD5 call with this key is refused and says why.
    let refused = send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&body)).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (401, 40135), "{:?}", refused.body);
    let listed = app.post_as(&token, "/adminapi/apikey/list", json!({})).await;
    assert_eq!(listed.data()[0]["legacy_md5"], false);
    // Merchants cannot switch it, not even for their own key; an administrator can.
    let by_merchant =
        app.post_as(&token, "/adminapi/apikey/setLegacy", json!({"key_id": key.id, "enabled": true})).await;
    assert_eq!(by_merchant.code(), 40300);
    let admin = app.login(ADMIN).await;
    let unknown =
        app.post_as(&admin, "/adminapi/apikey/setLegacy", json!({"key_id": "ak_none", "enabled": true})).await;
    assert_eq!(unknown.code(), 40400);
    let switched = app.post_as(&admin, "/adminapi/apikey/setLegacy", json!({"key_id": key.id, "enabled": true})).await;
    assert_eq!(switched.code(), 20000, "{:?}", switched.body);
    let listed = app.post_as(&token, "/adminapi/apikey/list", json!({})).await;
    assert_eq!(listed.data()[0]["legacy_md5"], true);
    let audited = app
        .scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'api_key_legacy_on' AND detail || COALESCE(params, '') LIKE '%' || CAST($1 AS TEXT) || '%'", mid)
        .await;
    assert_eq!(audited, 1);

    // The same call now places the order (the refused attempt did not use up its nonce);
    // the answer is signed with HMAC as every answer.
    let placed = send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    assert_eq!(placed.data()["merchant_order_id"], "LEGACY-1");
    assert_eq!(app.figures(mid).await.0, 99 * crate::open_api::PRICE);
    // Replay rules still apply: the same nonce again, and an old timestamp, are refused.
    let replayed = send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&body)).await;
    assert_eq!(replayed.code(), 40133);
    let stale = legacy_order(&key, "LEGACY-2", now_seconds() - 400, &nonce());
    assert_eq!(send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&stale)).await.code(), 40132);
    // A wrong sign (one parameter changed after signing) is refused, nothing charged.
    let mut tampered = legacy_order(&key, "LEGACY-3", now_seconds(), &nonce());
    tampered["account"] = json!("13900139000");
    let wrong = send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&tampered)).await;
    assert_eq!((wrong.status.as_u16(), wrong.code()), (401, 40134));
    assert!(wrong.msg().contains("MD5"), "{}", wrong.msg());
    let mut unsigned = legacy_order(&key, "LEGACY-4", now_seconds(), &nonce());
    unsigned.as_object_mut().unwrap().remove("nonce");
    assert_eq!(send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&unsigned)).await.code(), 40130);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    // GET calls sign their query parameters.
    let (time, once) = (now_seconds(), nonce());
    let sign = backoffice::merchant_api::legacy::sign(
        &[("key_id".into(), key.id.clone()), ("timestamp".into(), time.to_string()), ("nonce".into(), once.clone())],
        &key.secret,
    );
    let query = format!("/openapi/v1/balance?key_id={}&timestamp={time}&nonce={once}&sign={sign}", key.id);
    let balance = send_legacy(&app, &key, "GET", &query, None).await;
    assert_eq!((balance.code(), balance.data()["balance_fen"].as_i64()), (20000, Some(99 * crate::open_api::PRICE)));
    // The legacy key still takes HMAC calls.
    assert_eq!(send(&app, &key, Call::get("/openapi/v1/balance")).await.0.code(), 20000);
    // Switched off again: MD5 is refused.
    let off = app.post_as(&admin, "/adminapi/apikey/setLegacy", json!({"key_id": key.id, "enabled": false})).await;
    assert_eq!(off.code(), 20000);
    let fresh = legacy_order(&key, "LEGACY-5", now_seconds(), &nonce());
    assert_eq!(send_legacy(&app, &key, "POST", "/openapi/v1/orders", Some(&fresh)).await.code(), 40135);
    app.assert_books_balance(mid).await;
}

/// A body carrying `sign` whose parameters cannot be signed (a nested value, a name also in
/// the query) is a malformed legacy call: the documented 40130 naming the body, not a
/// complaint about HMAC headers the caller never meant to send.
async fn a_legacy_call_with_unsignable_parameters_is_told_so(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (_, _, key) = merchant_with_key(&app, "legacy2").await;
    let mut nested = legacy_order(&key, "LEGACY-N", now_seconds(), &nonce());
    nested["extra"] = json!({"note": "a nested value"});
    let mut listed = legacy_order(&key, "LEGACY-L", now_seconds(), &nonce());
    listed["extra"] = json!(["a", "list"]);
    let twice = legacy_order(&key, "LEGACY-T", now_seconds(), &nonce());
    let in_both = format!("/openapi/v1/orders?nonce={}", twice["nonce"].as_str().unwrap());
    for (path, body) in [("/openapi/v1/orders", &nested), ("/openapi/v1/orders", &listed), (in_both.as_str(), &twice)] {
        let answer = send_legacy(&app, &key, "POST", path, Some(body)).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 40130), "{path}: {:?}", answer.body);
        assert!(answer.msg().contains("legacy-signed parameter body"), "{path}: {}", answer.msg());
        assert!(!answer.msg().contains("X-Key-Id"), "{path}: {}", answer.msg());
    }
    let placed = app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id <> $1", 0).await;
    assert_eq!(placed, 0);
}
