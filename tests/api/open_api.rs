//! The merchant open API (/openapi/v1): signed calls, each refusal with its own code,
//! replays refused across restarts, idempotent orders, whitelists, rate limits, keys.

use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use backoffice::merchant_api::{card, signature};
use serde_json::{Value, json};

on_both_backends!(
    signed_calls_place_idempotently_and_answers_are_signed,
    each_refusal_has_its_own_code,
    a_nonce_is_refused_again_after_a_restart,
    an_order_stores_its_nonce_and_a_replay_places_nothing,
    whitelists_match_ipv4_ipv6_and_networks,
    the_rate_limit_answers_when_to_retry,
    merchants_see_only_their_own_orders,
    keys_are_limited_audited_and_revocable_by_administrators,
    card_secrets_arrive_encrypted_to_the_key,
    the_signature_helper_checks_without_revealing_the_secret,
);

pub(crate) const PRICE: i64 = 985;

pub(crate) fn config(config: &mut backoffice::platform::config::Config) {
    config.worker.enabled = false;
    // The tests name the caller's address with X-Forwarded-For, as the proxy at
    // 127.0.0.1 (where they connect from) would.
    config.trust_forwarded_for = true;
    config.trusted_proxies = "127.0.0.1".parse().unwrap();
}

#[derive(Clone)]
pub(crate) struct Key {
    pub(crate) id: String,
    pub(crate) secret: String,
}

pub(crate) fn nonce() -> String {
    format!("n{}", uuid::Uuid::new_v4().simple())
}

pub(crate) fn now_seconds() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// One signed call as a merchant's system makes it.
pub(crate) struct Call<'a> {
    pub(crate) method: &'a str,
    pub(crate) path: &'a str,
    pub(crate) body: String,
    pub(crate) from: &'a str,
    pub(crate) timestamp: i64,
    pub(crate) nonce: String,
}

impl<'a> Call<'a> {
    pub(crate) fn get(path: &'a str) -> Self {
        Self { method: "GET", path, body: String::new(), from: "127.0.0.1", timestamp: now_seconds(), nonce: nonce() }
    }
    pub(crate) fn post(path: &'a str, body: &Value) -> Self {
        Self { body: body.to_string(), method: "POST", ..Self::get(path) }
    }
    /// The same call from another address (sent as X-Forwarded-For).
    pub(crate) fn from(self, address: &'a str) -> Self {
        Self { from: address, ..self }
    }
}

/// Sends `call` signed with `key` and checks the answer's signature when there is one.
pub(crate) async fn send(app: &TestApp, key: &Key, call: Call<'_>) -> (Answer, bool) {
    let timestamp = call.timestamp.to_string();
    let text = signature::request_string(call.method, call.path, &timestamp, &call.nonce, call.body.as_bytes());
    let signed = signature::sign(&key.secret, &text);
    send_raw(
        app,
        key,
        &call,
        &[("x-key-id", &key.id), ("x-timestamp", &timestamp), ("x-nonce", &call.nonce), ("x-signature", &signed)],
    )
    .await
}

async fn send_raw(app: &TestApp, key: &Key, call: &Call<'_>, headers: &[(&str, &str)]) -> (Answer, bool) {
    let method = reqwest::Method::from_bytes(call.method.as_bytes()).unwrap();
    let mut request = app.client.request(method, app.url(call.path)).header("x-forwarded-for", call.from);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if !call.body.is_empty() {
        request = request.header("content-type", "application/json").body(call.body.clone());
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let header = |name: &str| response.headers().get(name).and_then(|value| value.to_str().ok()).map(str::to_string);
    let (answer_time, answer_nonce, answer_signature) =
        (header("x-timestamp"), header("x-nonce"), header("x-signature"));
    let bytes = response.bytes().await.unwrap();
    let signed = match (answer_time, answer_nonce, answer_signature) {
        (Some(time), Some(echo), Some(answer_signature)) => {
            assert_eq!(echo, call.nonce, "the answer echoes the nonce");
            let text = signature::response_string(status.as_u16(), &time, &echo, &bytes);
            assert!(signature::verify(&key.secret, &text, &answer_signature), "the answer's signature verifies");
            true
        }
        _ => false,
    };
    let body: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("not JSON: {bytes:?}"));
    (Answer { status, body }, signed)
}

/// A merchant with quotes, funds, a key and a whitelist of 127.0.0.1.
pub(crate) async fn merchant_with_key(app: &TestApp, username: &str) -> (i64, String, Key) {
    let (mid, token) = app.merchant(username).await;
    app.fund(mid, 100 * PRICE, 0).await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "127.0.0.1"})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    let key = create_key(app, &token).await;
    (mid, token, key)
}

async fn create_key(app: &TestApp, token: &str) -> Key {
    let created = app.post_as(token, "/adminapi/apikey/create", json!({"password": "Merchant123"})).await;
    assert_eq!(created.code(), 20000, "{:?}", created.body);
    Key {
        id: created.data()["key_id"].as_str().unwrap().to_string(),
        secret: created.data()["secret"].as_str().unwrap().to_string(),
    }
}

pub(crate) fn order_body(id: &str) -> Value {
    json!({"merchant_order_id": id, "product_key": "MOBILE-DIRECT-10", "account": "13800138000"})
}

async fn signed_calls_place_idempotently_and_answers_are_signed(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, _, key) = merchant_with_key(&app, "api1").await;
    let (products, signed) = send(&app, &key, Call::get("/openapi/v1/products")).await;
    assert_eq!(products.code(), 20000, "{:?}", products.body);
    assert!(signed);
    assert!(products.data().as_array().unwrap().iter().any(|product| product["product_key"] == "MOBILE-DIRECT-10"));
    let (balance, _) = send(&app, &key, Call::get("/openapi/v1/balance")).await;
    assert_eq!(balance.data()["balance_fen"], 100 * PRICE);
    let mut body = order_body("API-1");
    body["notify_url"] = json!("https://shop.example.com/cb");
    let (placed, signed) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    assert!(signed);
    assert_eq!(placed.data()["price_fen"], PRICE);
    let order_no = placed.data()["order_no"].clone();
    // The same request again (a new nonce, as a retry must): the same order, nothing charged.
    let (again, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!((again.code(), &again.data()["order_no"]), (20000, &order_no));
    assert_eq!(app.figures(mid).await.0, 99 * PRICE);
    // Ten parallel retries: still one order, one charge.
    let retries = (0..10).map(|_| send(&app, &key, Call::post("/openapi/v1/orders", &body)));
    for (answer, _) in futures_util::future::join_all(retries).await {
        assert_eq!((answer.code(), &answer.data()["order_no"]), (20000, &order_no));
    }
    // The same id with another body is refused, and charges nothing.
    let mut other = body.clone();
    other["product_key"] = json!("MOBILE-DIRECT-20");
    let (conflict, signed) = send(&app, &key, Call::post("/openapi/v1/orders", &other)).await;
    assert_eq!((conflict.status.as_u16(), conflict.code()), (409, 40930));
    assert!(signed, "refusals after the signature are signed too");
    assert_eq!(app.figures(mid).await.0, 99 * PRICE);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    let stored: Option<String> = sqlx::query_scalar("SELECT notify_url FROM orders WHERE merchant_id = $1")
        .bind(mid)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(stored.as_deref(), Some("https://shop.example.com/cb"));
    let (read, _) = send(&app, &key, Call::get("/openapi/v1/orders/API-1")).await;
    assert_eq!((read.code(), &read.data()["order_no"], read.data()["status"].as_i64()), (20000, &order_no, Some(0)));
    // Field checks are the console's; a bad notify_url is refused by name.
    let mut bad = order_body("API-2");
    bad["notify_url"] = json!("ftp://x");
    let (refused, _) = send(&app, &key, Call::post("/openapi/v1/orders", &bad)).await;
    assert_eq!(
        (refused.code(), refused.data()["keys"]["notify_url"].as_str()),
        (40000, Some("openapi.notify_url_invalid"))
    );
    // A destination inside our own network is refused when given (SSRF).
    bad["notify_url"] = json!("http://10.0.0.8/cb");
    let (refused, _) = send(&app, &key, Call::post("/openapi/v1/orders", &bad)).await;
    assert_eq!((refused.code(), refused.data()["keys"]["notify_url"].as_str()), (40000, Some("notify.url.private")));
    let (refused, _) = send(
        &app,
        &key,
        Call::post(
            "/openapi/v1/orders",
            &json!({"merchant_order_id": "API-3", "product_key": "MOBILE-DIRECT-10", "account": "1"}),
        ),
    )
    .await;
    assert_eq!(refused.code(), 40000);
    app.assert_books_balance(mid).await;
}

async fn each_refusal_has_its_own_code(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, token, key) = merchant_with_key(&app, "api2").await;
    let path = "/openapi/v1/balance";
    // Missing and malformed headers.
    let (missing, signed) = send_raw(&app, &key, &Call::get(path), &[]).await;
    assert_eq!((missing.status.as_u16(), missing.code(), signed), (401, 40130, false));
    assert!(missing.msg().contains("X-Key-Id"), "{}", missing.msg());
    let mut short = Call::get(path);
    short.nonce = "short".into();
    let (bad_nonce, _) = send(&app, &key, short).await;
    assert_eq!(bad_nonce.code(), 40130);
    assert!(bad_nonce.msg().contains("X-Nonce"));
    // Unknown key.
    let stranger = Key { id: "ak_000000000000000000000000".into(), secret: key.secret.clone() };
    assert_eq!(send(&app, &stranger, Call::get(path)).await.0.code(), 40131);
    // Timestamp off by more than 300 s either way; 299 s is fine.
    for (offset, expected) in [(-301, 40132), (301, 40132), (-299, 20000)] {
        let mut call = Call::get(path);
        call.timestamp += offset;
        assert_eq!(send(&app, &key, call).await.0.code(), expected, "offset {offset}");
    }
    // A wrong signature (another secret), in Chinese when asked.
    let forged = Key { id: key.id.clone(), secret: "sk_wrong".into() };
    let (wrong, signed) = send(&app, &forged, Call::get(path)).await;
    assert_eq!((wrong.status.as_u16(), wrong.code(), signed), (401, 40134, false));
    // A replay: the same nonce again.
    let first = Call::get(path);
    let replay = Call { nonce: first.nonce.clone(), ..Call::get(path) };
    assert_eq!(send(&app, &key, first).await.0.code(), 20000);
    assert_eq!(send(&app, &key, replay).await.0.code(), 40133);
    // Outside the whitelist, then an empty whitelist.
    let (outside, signed) = send(&app, &key, Call { from: "192.0.2.9", ..Call::get(path) }).await;
    assert_eq!((outside.status.as_u16(), outside.code(), signed), (403, 40331, true));
    assert!(outside.msg().contains("192.0.2.9"), "{}", outside.msg());
    app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": ""})).await;
    let (empty, _) = send(&app, &key, Call::get(path)).await;
    assert_eq!(empty.code(), 40330);
    assert!(empty.msg().contains("empty"), "{}", empty.msg());
    app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "127.0.0.1"})).await;
    // A disabled merchant. Written behind the server's back, so the server is told as the
    // disable endpoint tells it (it keeps a checked key a second: open_api_changes.rs).
    sqlx::query("UPDATE merchants SET disabled_at = 1 WHERE id = $1")
        .bind(mid)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    app.state.sessions.forget_all();
    assert_eq!(send(&app, &key, Call::get(path)).await.0.code(), 40332);
    sqlx::query("UPDATE merchants SET disabled_at = NULL WHERE id = $1")
        .bind(mid)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    app.state.sessions.forget_all();
    assert_eq!(send(&app, &key, Call::get(path)).await.0.code(), 20000);
    // A revoked key is an unknown one.
    let revoked = app.post_as(&token, "/adminapi/apikey/revoke", json!({"key_id": key.id})).await;
    assert_eq!(revoked.code(), 20000);
    assert_eq!(send(&app, &key, Call::get(path)).await.0.code(), 40131);
    // Messages follow Accept-Language, also signed ones (rendered before signing).
    let key2 = create_key(&app, &token).await;
    let call = Call { from: "192.0.2.9", ..Call::get(path) };
    let timestamp = call.timestamp.to_string();
    let text = signature::request_string("GET", path, &timestamp, &call.nonce, b"");
    let signed_value = signature::sign(&key2.secret, &text);
    let headers = [
        ("x-key-id", key2.id.as_str()),
        ("x-timestamp", &timestamp),
        ("x-nonce", &call.nonce),
        ("x-signature", &signed_value),
        ("accept-language", "zh-CN"),
    ];
    let (chinese, signed) = send_raw(&app, &key2, &call, &headers).await;
    assert_eq!((chinese.code(), signed), (40331, true));
    assert!(chinese.msg().contains("白名单"), "{}", chinese.msg());
}

async fn a_nonce_is_refused_again_after_a_restart(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (_, _, key) = merchant_with_key(&app, "api3").await;
    let first = Call::get("/openapi/v1/balance");
    let nonce = first.nonce.clone();
    assert_eq!(send(&app, &key, first).await.0.code(), 20000);
    let restarted = app.restart_with(|_| {}).await;
    let replay = Call { nonce, ..Call::get("/openapi/v1/balance") };
    assert_eq!(send(&restarted, &key, replay).await.0.code(), 40133);
}

/// An order's nonce is stored in the order's own transaction; a call that placed nothing
/// stores it afterwards, so replaying a refused order once funds arrive places nothing.
async fn an_order_stores_its_nonce_and_a_replay_places_nothing(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, token) = app.merchant("api-nonce").await;
    let saved = app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": "127.0.0.1"})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    let key = create_key(&app, &token).await;
    let stored = |nonce: String| {
        let app = &app;
        async move {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM api_nonces WHERE nonce = $1")
                .bind(nonce)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap()
        }
    };
    // No funds: refused, and the nonce is stored all the same.
    let refused_call = || Call::post("/openapi/v1/orders", &order_body("NONCE-1"));
    let first = refused_call();
    let nonce = first.nonce.clone();
    let (refused, _) = send(&app, &key, first).await;
    assert_eq!(refused.code(), 40200, "{:?}", refused.body);
    assert_eq!(stored(nonce.clone()).await, 1);
    // Funds arrive; the same signed call again places nothing.
    app.fund(mid, 10 * PRICE, 0).await;
    let replayed = Call { nonce: nonce.clone(), ..refused_call() };
    let (replay, signed) = send(&app, &key, replayed).await;
    assert_eq!((replay.status.as_u16(), replay.code(), signed), (401, 40133, true));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0);
    // A placed order carries its nonce; the same call sent eight times at once places once
    // and every other copy is refused as a replay.
    let racing = Call::post("/openapi/v1/orders", &order_body("NONCE-2"));
    let nonce = racing.nonce.clone();
    let copies = (0..8).map(|_| {
        send(&app, &key, Call { nonce: nonce.clone(), ..Call::post("/openapi/v1/orders", &order_body("NONCE-2")) })
    });
    let mut codes: Vec<i64> =
        futures_util::future::join_all(copies).await.iter().map(|(answer, _)| answer.code()).collect();
    codes.sort_unstable();
    assert_eq!(codes, [20000, 40133, 40133, 40133, 40133, 40133, 40133, 40133]);
    assert_eq!(stored(nonce).await, 1);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    app.assert_books_balance(mid).await;
}

async fn whitelists_match_ipv4_ipv6_and_networks(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (_, token, key) = merchant_with_key(&app, "api4").await;
    let whitelist = "203.0.113.7, 10.0.0.0/8, 2001:db8::/32, ::1";
    app.post_as(&token, "/adminapi/merchant/changeIntegration", json!({"ip_whitelist": whitelist})).await;
    for (from, expected) in [
        ("203.0.113.7", 20000),
        ("203.0.113.8", 40331),
        ("10.200.3.4", 20000),
        ("11.0.0.1", 40331),
        ("2001:db8:1::9", 20000),
        ("2001:db9::1", 40331),
        ("::1", 20000),
        ("::ffff:10.1.1.1", 20000),
        ("127.0.0.1", 40331),
    ] {
        let (answer, _) = send(&app, &key, Call { from, ..Call::get("/openapi/v1/balance") }).await;
        assert_eq!(answer.code(), expected, "{from}: {:?}", answer.body);
    }
}

async fn the_rate_limit_answers_when_to_retry(backend: Backend) {
    let app = spawn_app_with(backend, |c| {
        config(c);
        c.open_api.rate_limit_per_minute = 3;
    })
    .await;
    let (_, _, key) = merchant_with_key(&app, "api5").await;
    for _ in 0..3 {
        assert_eq!(send(&app, &key, Call::get("/openapi/v1/balance")).await.0.code(), 20000);
    }
    let (limited, signed) = send(&app, &key, Call::get("/openapi/v1/balance")).await;
    assert_eq!((limited.status.as_u16(), limited.code(), signed), (429, 42930, true));
    let retry = limited.data()["retry_after_seconds"].as_u64().unwrap();
    assert!((1..=20).contains(&retry), "{retry}");
    // Another merchant has its own allowance.
    let (_, _, other) = merchant_with_key(&app, "api5b").await;
    assert_eq!(send(&app, &other, Call::get("/openapi/v1/balance")).await.0.code(), 20000);
}

async fn merchants_see_only_their_own_orders(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid_a, _, key_a) = merchant_with_key(&app, "api6a").await;
    let (mid_b, _, key_b) = merchant_with_key(&app, "api6b").await;
    assert_eq!(send(&app, &key_a, Call::post("/openapi/v1/orders", &order_body("SHARED"))).await.0.code(), 20000);
    assert_eq!(send(&app, &key_b, Call::get("/openapi/v1/orders/SHARED")).await.0.code(), 40400);
    // The same merchant order id is another merchant's own business.
    let (placed_b, _) = send(&app, &key_b, Call::post("/openapi/v1/orders", &order_body("SHARED"))).await;
    assert_eq!(placed_b.code(), 20000);
    assert_eq!((app.figures(mid_a).await.0, app.figures(mid_b).await.0), (99 * PRICE, 99 * PRICE));
    let (read_a, _) = send(&app, &key_a, Call::get("/openapi/v1/orders/SHARED")).await;
    assert_ne!(read_a.data()["order_no"], placed_b.data()["order_no"]);
}

async fn keys_are_limited_audited_and_revocable_by_administrators(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, token, key) = merchant_with_key(&app, "api7").await;
    let wrong = app.post_as(&token, "/adminapi/apikey/create", json!({"password": "Wrong123"})).await;
    assert_eq!((wrong.code(), wrong.data()["keys"]["password"].as_str()), (40300, Some("password.current.wrong")));
    let second = create_key(&app, &token).await;
    let third = app.post_as(&token, "/adminapi/apikey/create", json!({"password": "Merchant123"})).await;
    assert_eq!(third.code(), 40900, "{:?}", third.body);
    let listed = app.post_as(&token, "/adminapi/apikey/list", json!({})).await;
    let items = listed.data().as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|item| item.get("secret").is_none() && item["state"] == "active"));
    // The secret is stored sealed only.
    let stored: String = sqlx::query_scalar("SELECT secret_enc FROM api_keys WHERE key_id = $1")
        .bind(&key.id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert!(!stored.contains(&key.secret[3..]));
    // Another merchant cannot see or revoke them; an administrator can.
    let (_, other_token) = app.merchant("api7b").await;
    assert_eq!(app.post_as(&other_token, "/adminapi/apikey/revoke", json!({"key_id": key.id})).await.code(), 40400);
    assert_eq!(app.post_as(&other_token, "/adminapi/apikey/list", json!({"mid": mid})).await.code(), 40300);
    let admin = app.login(ADMIN).await;
    let all = app.post_as(&admin, "/adminapi/apikey/list", json!({"mid": mid})).await;
    assert_eq!(all.data().as_array().unwrap().len(), 2);
    assert_eq!(app.post_as(&admin, "/adminapi/apikey/create", json!({"password": "Admin123"})).await.code(), 40300);
    assert_eq!(app.post_as(&admin, "/adminapi/apikey/revoke", json!({"key_id": second.id})).await.code(), 20000);
    assert_eq!(app.post_as(&admin, "/adminapi/apikey/revoke", json!({"key_id": second.id})).await.code(), 40900);
    assert_eq!(send(&app, &second, Call::get("/openapi/v1/balance")).await.0.code(), 40131);
    // Room for a new one again; the used key shows when and from where.
    create_key(&app, &token).await;
    assert_eq!(send(&app, &key, Call::get("/openapi/v1/balance")).await.0.code(), 20000);
    let listed = app.post_as(&token, "/adminapi/apikey/list", json!({})).await;
    let used = listed.data().as_array().unwrap().iter().find(|item| item["key_id"] == key.id.as_str()).unwrap().clone();
    assert_eq!(used["last_used_address"], "127.0.0.1");
    let audited = app
        .scalar("SELECT COUNT(*) FROM audit_events WHERE action IN ('api_key_created', 'api_key_revoked') AND detail || COALESCE(params, '') LIKE '%' || CAST($1 AS TEXT) || '%'", mid)
        .await;
    assert_eq!(audited, 4);
    let notices = app
        .scalar("SELECT COUNT(*) FROM inbox_messages m JOIN users u ON u.id = m.user_id WHERE u.merchant_id = $1 AND m.title LIKE '%API%'", mid)
        .await;
    assert_eq!(notices, 4);
}

async fn card_secrets_arrive_encrypted_to_the_key(backend: Backend) {
    let app = spawn_app_with(backend, |c| {
        config(c);
        c.worker.enabled = true;
    })
    .await;
    let (mid, token, key) = merchant_with_key(&app, "api8").await;
    let body = json!({"merchant_order_id": "CARD-1", "product_key": "MOBILE-CARD-10"});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    let (read, _) = send(&app, &key, Call::get("/openapi/v1/orders/CARD-1")).await;
    let order_no = read.data()["order_no"].as_str().unwrap().to_string();
    let sealed_no = read.data()["card_no_encrypted"].as_str().unwrap();
    let sealed_secret = read.data()["card_secret_encrypted"].as_str().unwrap();
    let order_id = app.scalar("SELECT id FROM orders WHERE merchant_id = $1", mid).await;
    let revealed = app.post_as(&token, "/adminapi/order/card/reveal", json!({"order_id": order_id})).await;
    assert_eq!(card::open(&key.secret, &order_no, sealed_no).unwrap(), revealed.data()["card_no"].as_str().unwrap());
    assert_eq!(
        card::open(&key.secret, &order_no, sealed_secret).unwrap(),
        revealed.data()["card_secret"].as_str().unwrap()
    );
    assert!(card::open("sk_other", &order_no, sealed_secret).is_err());
}

async fn the_signature_helper_checks_without_revealing_the_secret(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (_, token, key) = merchant_with_key(&app, "api9").await;
    let text = signature::request_string("POST", "/openapi/v1/orders", "1763900000", "n0nce-2026-11-23-abcdef", b"{}");
    let right = signature::sign(&key.secret, &text);
    let request = json!({"key_id": key.id, "method": "post", "path": "/openapi/v1/orders", "timestamp": "1763900000",
        "nonce": "n0nce-2026-11-23-abcdef", "body": "{}", "signature": right});
    let checked = app.post_as(&token, "/adminapi/apikey/signCheck", request.clone()).await;
    assert_eq!((checked.code(), checked.data()["matches"].as_bool()), (20000, Some(true)), "{:?}", checked.body);
    assert_eq!(checked.data()["string_to_sign"], text);
    assert!(!checked.body.to_string().contains(&key.secret));
    let mut wrong = request.clone();
    wrong["body"] = json!("{ }");
    assert_eq!(app.post_as(&token, "/adminapi/apikey/signCheck", wrong).await.data()["matches"], false);
    let (_, other) = app.merchant("api9b").await;
    assert_eq!(app.post_as(&other, "/adminapi/apikey/signCheck", request).await.code(), 40400);
}
