//! Two-factor authentication: setup, enable, disable, regenerate, status, and the
//! adversarial cases around codes and temp_keys. Sign-in with two-factor on is in
//! `two_factor_login.rs`.

use crate::helpers::{ADMIN, Answer, Backend, MERCHANT, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use backoffice::identity::two_factor::totp;
use serde_json::{Value, json};

on_both_backends!(
    setup_and_enable_turn_two_factor_on,
    every_kind_of_wrong_code_gets_one_answer_per_endpoint,
    temp_keys_that_are_not_current_fail,
    enabling_twenty_times_in_parallel_succeeds_once,
    disable_and_regenerate_need_a_fresh_code,
    the_audit_trail_records_every_change,
);

pub const SETUP: &str = "/adminapi/google-auth/setup2FA";
pub const ENABLE: &str = "/adminapi/google-auth/enable2FA";
pub const DISABLE: &str = "/adminapi/google-auth/disable2FA";
pub const REGENERATE: &str = "/adminapi/google-auth/regenerateBackupCodes";
pub const STATUS: &str = "/adminapi/google-auth/get2FAStatus";

pub struct Setup {
    pub secret: Vec<u8>,
    pub temp_key: String,
    pub backup_codes: Vec<String>,
}

pub struct Enabled {
    pub token: String,
    pub secret: Vec<u8>,
    pub backup_codes: Vec<String>,
}

fn now_seconds() -> u64 {
    u64::try_from(backoffice::platform::db::now_millis() / 1000).unwrap()
}

/// The code an authenticator app shows now, computed with the crate's own function.
pub fn code_now(secret: &[u8]) -> String {
    totp::generate(secret, totp::step_at(now_seconds()), totp::DIGITS)
}

/// The code of a step `offset` steps away from now.
pub fn code_at(secret: &[u8], offset: i64) -> String {
    let step = totp::step_at(now_seconds()).checked_add_signed(offset).unwrap();
    totp::generate(secret, step, totp::DIGITS)
}

/// A well-formed 6-digit code that is wrong at every step the server may accept now.
pub fn wrong_code(secret: &[u8]) -> String {
    let valid: Vec<String> = (-2..=2).map(|offset| code_at(secret, offset)).collect();
    (0..10)
        .map(|digit| format!("{digit}{digit}{digit}{digit}{digit}{digit}"))
        .find(|code| !valid.contains(code))
        .unwrap()
}

/// As if the next 30-second step had come: every code of the app is usable again once.
pub async fn forget_used_steps(app: &TestApp) {
    sqlx::query("UPDATE two_factor SET last_used_step = -1").execute(&app.state.db.pool).await.unwrap();
}

pub async fn start_setup(app: &TestApp, token: &str) -> Setup {
    let answer = app.get_as(token, SETUP).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    let data = answer.data();
    Setup {
        secret: totp::decode_secret(data["secret"].as_str().unwrap()).expect("base32 secret"),
        temp_key: data["temp_key"].as_str().unwrap().to_string(),
        backup_codes: strings(&data["backup_codes"]),
    }
}

pub fn strings(value: &Value) -> Vec<String> {
    value.as_array().expect("a list").iter().map(|item| item.as_str().unwrap().to_string()).collect()
}

/// Signs in, sets up and enables two-factor; the code used is free again afterwards.
pub async fn enable_two_factor(app: &TestApp, credentials: (&str, &str)) -> Enabled {
    let token = app.login(credentials).await;
    let setup = start_setup(app, &token).await;
    let answer = app
        .post_as(
            &token,
            ENABLE,
            json!({ "code": code_now(&setup.secret), "temp_key": setup.temp_key, "password": credentials.1 }),
        )
        .await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    forget_used_steps(app).await;
    Enabled { token, secret: setup.secret, backup_codes: strings(&answer.data()["backup_codes"]) }
}

pub async fn post_in(app: &TestApp, language: &str, token: &str, path: &str, body: Value) -> Answer {
    app.send(
        app.client.post(app.url(path)).bearer_auth(token).header("accept-language", language).body(body.to_string()),
    )
    .await
}

async fn setup_and_enable_turn_two_factor_on(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let status = app.get_as(&token, STATUS).await;
    assert_eq!(status.data(), &json!({ "enabled": false, "enabled_at": null, "backup_codes_count": 0 }));

    let response = app.client.get(app.url(SETUP)).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.headers()["cache-control"], "no-store");
    let data: Value = response.json::<Value>().await.unwrap()["data"].clone();
    let secret_text = data["secret"].as_str().unwrap();
    assert_eq!(secret_text.len(), 32, "160 bits in base32");
    let secret = totp::decode_secret(secret_text).unwrap();
    assert_eq!(secret.len(), 20);
    let qr = data["qr_code_url"].as_str().unwrap();
    assert!(qr.starts_with("data:image/svg+xml;base64,"), "drawn here, not by another host");
    assert_eq!(data["temp_key"].as_str().unwrap().len(), 43);
    let shown_codes = strings(&data["backup_codes"]);
    assert_eq!(shown_codes.len(), 10);
    assert!(shown_codes.iter().all(|code| code.len() == 8 && code.bytes().all(|byte| byte.is_ascii_digit())));

    let enabled = app
        .post_as(
            &token,
            ENABLE,
            json!({ "code": code_now(&secret), "temp_key": data["temp_key"], "password": MERCHANT.1 }),
        )
        .await;
    assert_eq!(enabled.code(), 20000, "{:?}", enabled.body);
    assert_eq!(strings(&enabled.data()["backup_codes"]), shown_codes, "enable puts the codes shown in force");

    let status = app.get_as(&token, STATUS).await;
    assert_eq!(status.data()["enabled"], true);
    assert!(status.data()["enabled_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(status.data()["backup_codes_count"], 10);
    // On: the secret is never shown again, and enabling twice is refused.
    let again = app.get_as(&token, SETUP).await;
    assert_eq!((again.status.as_u16(), again.code()), (409, 40900));
    assert_eq!(again.msg(), "Two-factor authentication is already enabled");
    let twice = app
        .post_as(
            &token,
            ENABLE,
            json!({ "code": code_at(&secret, 1), "temp_key": data["temp_key"], "password": MERCHANT.1 }),
        )
        .await;
    assert_eq!(twice.code(), 40900);

    // Any signed-in user may use it; others may not.
    let admin = app.login(ADMIN).await;
    assert_eq!(app.get_as(&admin, STATUS).await.data()["enabled"], false);
    assert_eq!(app.get_as(&admin, SETUP).await.code(), 20000);
    assert_eq!(app.send(app.client.get(app.url(STATUS))).await.code(), 50008);
}

/// Everything that is not the right code, as clients might send it.
fn wrong_kinds(secret: &[u8]) -> Vec<Value> {
    let right = code_now(secret);
    let fullwidth: String = right.chars().map(|digit| char::from_u32(digit as u32 - 0x30 + 0xFF10).unwrap()).collect();
    let arabic_indic: String =
        right.chars().map(|digit| char::from_u32(digit as u32 - 0x30 + 0x0660).unwrap()).collect();
    vec![
        json!(wrong_code(secret)),
        json!(""),
        json!("12345"),
        json!("1234567"),
        json!("123456789012"),
        json!("12a456"),
        json!("abcdef"),
        json!(fullwidth),
        json!(arabic_indic),
        json!("１２３４５６"),
        json!("١٢٣٤٥٦"),
        json!(right.parse::<u64>().unwrap()),
        json!(null),
        json!([right]),
        json!({ "code": right }),
        json!(true),
        json!(1.5),
    ]
}

async fn assert_one_answer(
    app: &TestApp,
    token: &str,
    path: &str,
    mut body: Value,
    codes: &[Value],
    messages: (&str, &str),
) {
    for (index, code) in codes.iter().enumerate() {
        body["code"] = code.clone();
        let language = if index % 2 == 0 { "en-US" } else { "zh-CN" };
        let answer = post_in(app, language, token, path, body.clone()).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 40110), "{path} with code {code}: {:?}", answer.body);
        let expected = if index % 2 == 0 { messages.0 } else { messages.1 };
        assert_eq!(answer.msg(), expected, "{path} with code {code}");
        assert!(answer.data().is_null());
    }
    // A missing code is one more wrong code.
    body.as_object_mut().unwrap().remove("code");
    assert_eq!(post_in(app, "en-US", token, path, body).await.code(), 40110);
}

async fn every_kind_of_wrong_code_gets_one_answer_per_endpoint(backend: Backend) {
    // Many wrong codes in a row: neither the lock nor the backoff may get in the way here.
    let app = spawn_app_with(backend, |config| {
        config.throttle.two_factor_max_failures = 100;
        config.throttle.two_factor_free_failures = 100;
    })
    .await;
    let token = app.login(MERCHANT).await;
    let setup = start_setup(&app, &token).await;
    let mut kinds = wrong_kinds(&setup.secret);
    // Backup codes do not exist before enabling: 8 digits are just wrong here.
    kinds.push(json!(setup.backup_codes[0]));
    let wrong = ("Verification code is incorrect, please try again", "验证码错误，请重试");
    assert_one_answer(
        &app,
        &token,
        ENABLE,
        json!({ "temp_key": setup.temp_key, "password": MERCHANT.1 }),
        &kinds,
        wrong,
    )
    .await;

    let enabled = enable_two_factor(&app, ADMIN).await;
    let mut kinds = wrong_kinds(&enabled.secret);
    kinds.push(json!("87654321"));
    assert_one_answer(&app, &enabled.token, DISABLE, json!({}), &kinds, wrong).await;
    let failed = ("Failed to regenerate backup codes", "重新生成备用验证码失败");
    assert_one_answer(&app, &enabled.token, REGENERATE, json!({}), &kinds, failed).await;
    // Nothing was changed by all that.
    let status = app.get_as(&enabled.token, STATUS).await;
    assert_eq!(
        (status.data()["enabled"].clone(), status.data()["backup_codes_count"].clone()),
        (json!(true), json!(10))
    );
    // A body that is not an object at all is a validation error, not a server error.
    let answer = app.send(app.client.post(app.url(DISABLE)).bearer_auth(&enabled.token).body("[1,2]")).await;
    assert_eq!(answer.code(), 40000);
}

async fn temp_keys_that_are_not_current_fail(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let enable = |temp_key: Value, secret: &[u8]| {
        let body = json!({ "code": code_now(secret), "temp_key": temp_key, "password": MERCHANT.1 });
        let token = token.clone();
        let app = &app;
        async move { app.post_as(&token, ENABLE, body).await }
    };
    // Garbage and missing keys.
    let first = start_setup(&app, &token).await;
    for key in [json!("nonsense"), json!(null), json!(42), json!("A".repeat(43))] {
        let answer = enable(key, &first.secret).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (409, 40900));
        assert_eq!(answer.msg(), "The two-factor setup has expired or was replaced, please start again");
    }
    // Replaced by a newer setup.
    let second = start_setup(&app, &token).await;
    assert_eq!(enable(json!(first.temp_key), &first.secret).await.code(), 40900);
    // Expired.
    sqlx::query("UPDATE two_factor_setups SET expires_at = $1")
        .bind(backoffice::platform::db::now_millis() - 1)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(enable(json!(second.temp_key), &second.secret).await.code(), 40900);
    // Another user's key, with that user's right code.
    let admin = app.login(ADMIN).await;
    let admins = start_setup(&app, &admin).await;
    assert_eq!(enable(json!(admins.temp_key), &admins.secret).await.code(), 40900);
    // A wrong code does not use the key up; the right one does, once.
    let third = start_setup(&app, &token).await;
    let wrong = app
        .post_as(
            &token,
            ENABLE,
            json!({ "code": wrong_code(&third.secret), "temp_key": third.temp_key, "password": MERCHANT.1 }),
        )
        .await;
    assert_eq!(wrong.code(), 40110);
    assert_eq!(enable(json!(third.temp_key), &third.secret).await.code(), 20000);
    forget_used_steps(&app).await;
    let disabled = app.post_as(&token, DISABLE, json!({ "code": code_now(&third.secret) })).await;
    assert_eq!(disabled.code(), 20000);
    let reused = enable(json!(third.temp_key), &third.secret).await;
    assert_eq!(reused.code(), 40900, "a used temp_key stays used");
    // The admin's own key still works for the admin.
    assert_eq!(
        app.post_as(
            &admin,
            ENABLE,
            json!({ "code": code_now(&admins.secret), "temp_key": admins.temp_key, "password": ADMIN.1 })
        )
        .await
        .code(),
        20000
    );
}

async fn enabling_twenty_times_in_parallel_succeeds_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let setup = start_setup(&app, &token).await;
    let body = json!({ "code": code_now(&setup.secret), "temp_key": setup.temp_key, "password": MERCHANT.1 });
    let answers = futures_join(&app, (0..20).map(|_| (token.clone(), ENABLE, body.clone())).collect()).await;
    assert_eq!(answers.iter().filter(|answer| answer.code() == 20000).count(), 1, "{answers:?}");
    // 42900: the password check admits a burst only up to the sign-in limit.
    assert!(answers.iter().all(|answer| matches!(answer.code(), 20000 | 40110 | 40900 | 42900)), "{answers:?}");
    let rows: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM two_factor_backup_codes").fetch_one(&app.state.db.pool).await.unwrap();
    assert_eq!(rows, 10);
}

/// Sends all requests at once and collects the answers in order.
pub async fn futures_join(app: &TestApp, requests: Vec<(String, &'static str, Value)>) -> Vec<Answer> {
    let handles: Vec<_> = requests
        .into_iter()
        .map(|(token, path, body)| {
            let mut request = app.client.post(app.url(path)).json(&body);
            if !token.is_empty() {
                request = request.bearer_auth(&token);
            }
            tokio::spawn(async move {
                let response = request.send().await.expect("request sent");
                let status = response.status();
                let body: Value = response.json().await.expect("an envelope");
                Answer { status, body }
            })
        })
        .collect();
    let mut answers = Vec::new();
    for handle in handles {
        answers.push(handle.await.unwrap());
    }
    answers
}

async fn disable_and_regenerate_need_a_fresh_code(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let token = &enabled.token;
    // Regenerate with the app's code: a new set, and the old one is dead.
    let code = code_now(&enabled.secret);
    let regenerated = app.post_as(token, REGENERATE, json!({ "code": code })).await;
    assert_eq!(regenerated.code(), 20000);
    let new_codes = strings(&regenerated.data()["backup_codes"]);
    assert_eq!(new_codes.len(), 10);
    assert!(new_codes.iter().all(|code| !enabled.backup_codes.contains(code)));
    // The same code twice in a row: refused, as it is on disable.
    assert_eq!(app.post_as(token, REGENERATE, json!({ "code": code })).await.code(), 40110);
    assert_eq!(app.post_as(token, DISABLE, json!({ "code": code })).await.code(), 40110);
    // Old backup codes are dead, new ones work once.
    assert_eq!(app.post_as(token, REGENERATE, json!({ "code": enabled.backup_codes[0] })).await.code(), 40110);
    let by_backup = app.post_as(token, REGENERATE, json!({ "code": new_codes[0] })).await;
    assert_eq!(by_backup.code(), 20000);
    let newest = strings(&by_backup.data()["backup_codes"]);
    assert_eq!(app.get_as(token, STATUS).await.data()["backup_codes_count"], 10);
    assert_eq!(app.post_as(token, DISABLE, json!({ "code": new_codes[1] })).await.code(), 40110);
    // Disable with a backup code.
    let disabled = app.post_as(token, DISABLE, json!({ "code": newest[3] })).await;
    assert_eq!(disabled.code(), 20000);
    let status = app.get_as(token, STATUS).await;
    assert_eq!(status.data(), &json!({ "enabled": false, "enabled_at": null, "backup_codes_count": 0 }));
    // Off: disable and regenerate have nothing to act on, and signing in is one step again.
    let answer = app.post_as(token, DISABLE, json!({ "code": code_at(&enabled.secret, 1) })).await;
    assert_eq!(
        (answer.status.as_u16(), answer.code(), answer.msg()),
        (409, 40900, "Two-factor authentication is not enabled")
    );
    assert_eq!(app.post_as(token, REGENERATE, json!({ "code": newest[4] })).await.code(), 40900);
    assert!(app.login_answer(MERCHANT.0, MERCHANT.1).await.data()["token"].is_string());
}

async fn the_audit_trail_records_every_change(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let token = &enabled.token;
    assert_eq!(app.post_as(token, REGENERATE, json!({ "code": enabled.backup_codes[0] })).await.code(), 20000);
    assert_eq!(app.post_as(token, DISABLE, json!({ "code": wrong_code(&enabled.secret) })).await.code(), 40110);
    assert_eq!(app.post_as(token, DISABLE, json!({ "code": code_now(&enabled.secret) })).await.code(), 20000);
    let events: Vec<(Option<i64>, String, String, String, i64)> = sqlx::query_as(
        "SELECT user_id, action, COALESCE(params, detail), client_address, created_at FROM audit_events
         WHERE action <> 'login' ORDER BY id",
    )
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    // What each code was asked for is data (the audit page renders it in the reader's language).
    let purpose = |stored: &str| match serde_json::from_str::<Value>(stored) {
        Ok(detail) => detail["purpose"].as_str().unwrap_or_default().to_string(),
        Err(_) => stored.to_string(),
    };
    let purposes: Vec<String> = events.iter().map(|event| purpose(&event.2)).collect();
    let actions: Vec<(&str, &str)> =
        events.iter().zip(&purposes).map(|(event, purpose)| (event.1.as_str(), purpose.as_str())).collect();
    assert_eq!(
        actions,
        vec![
            ("two_factor_enabled", ""),
            ("backup_code_used", "regenerate"),
            ("backup_codes_regenerated", ""),
            ("two_factor_failed", "disable"),
            ("two_factor_disabled", ""),
        ]
    );
    let user_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE username = 'merchant'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    for event in &events {
        assert_eq!(event.0, Some(user_id));
        assert_eq!(event.3, "127.0.0.1");
        assert!(event.4 > 0);
    }
    // The user also hears of each change in the message center, newest first.
    let notices = app.post_as(token, "/adminapi/message/list", json!({ "type": "notice" })).await;
    let titles: Vec<&str> =
        notices.data().as_array().unwrap().iter().map(|item| item["title"].as_str().unwrap()).collect();
    assert_eq!(titles.len(), 3, "{titles:?}");
    assert!(titles[0].contains("disabled") && titles[1].contains("regenerated") && titles[2].contains("enabled"));
    assert_eq!(notices.data()[0]["messageType"], 3);
}
