use crate::helpers::{ADMIN, Backend, MERCHANT, spawn_app, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    sign_in_returns_a_token_and_login_info,
    empty_fields_are_named_in_both_locales,
    unknown_user_and_wrong_password_look_the_same,
    repeated_failures_lock_the_account_and_say_when_to_retry,
    failures_from_one_address_lock_it_across_accounts,
    a_success_forgives_earlier_failures,
    malformed_and_mistyped_bodies_get_a_validation_envelope,
);

async fn sign_in_returns_a_token_and_login_info(backend: Backend) {
    let app = spawn_app(backend).await;
    let answer = app.login_answer(MERCHANT.0, MERCHANT.1).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.code(), 20000);
    let data = answer.data();
    assert_eq!(data["token"].as_str().unwrap().len(), 43);
    assert_eq!(data["loginfo"]["username"], "merchant");
    assert_eq!(data["loginfo"]["role"], "user");
    assert!(data["loginfo"]["mid"].as_i64().unwrap() > 0);
    assert!(data["expires_at"].as_str().unwrap().ends_with('Z'));
    // The console's first page needs the profile and the server's information: they come
    // with the session, exactly as their own calls answer them for it.
    let token = data["token"].as_str().unwrap();
    assert_eq!(&data["user"], app.post_as(token, "/adminapi/merchant/userInfo", json!({})).await.data());
    assert_eq!(data["user"]["username"], "merchant");
    assert_eq!(&data["system"], app.get_as(token, "/api/system/info").await.data());
    assert_eq!(data["system"]["timeZone"], "Asia/Shanghai");

    let admin = app.login_answer(ADMIN.0, ADMIN.1).await;
    assert_eq!(admin.data()["loginfo"]["role"], "admin");
    assert!(admin.data()["loginfo"]["mid"].is_null());
    assert_eq!(admin.data()["user"]["role"], "admin");
    // Usernames are matched without regard to case, and two sign-ins are two sessions.
    let again = app.login_answer("MERCHANT", MERCHANT.1).await;
    assert_eq!(again.code(), 20000);
    assert_ne!(again.data()["token"], data["token"]);
}

async fn empty_fields_are_named_in_both_locales(backend: Backend) {
    let app = spawn_app(backend).await;
    let answer = app.post("/adminapi/login/login", json!({ "username": "", "password": "x" })).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (400, 40000));
    assert_eq!(answer.msg(), "username cannot be empty");
    assert_eq!(answer.data()["fields"]["username"], "username cannot be empty");

    let answer = app.post("/adminapi/login/login", json!({ "username": "admin", "password": "" })).await;
    assert_eq!(answer.msg(), "password cannot be empty");

    let answer = app
        .send(
            app.client
                .post(app.url("/adminapi/login/login"))
                .header("accept-language", "zh-CN,zh;q=0.9")
                .json(&json!({ "username": "  ", "password": "" })),
        )
        .await;
    assert_eq!(answer.code(), 40000);
    assert_eq!(answer.msg(), "用户名不能为空");
    assert_eq!(answer.data()["fields"]["password"], "密码不能为空");
    assert_eq!(answer.data()["keys"]["password"], "login.password.required");
}

async fn unknown_user_and_wrong_password_look_the_same(backend: Backend) {
    let app = spawn_app(backend).await;
    let wrong_password = app.login_answer(ADMIN.0, "Admin1234").await;
    let unknown_user = app.login_answer("nobody", "Admin123").await;
    for answer in [&wrong_password, &unknown_user] {
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 40100));
        assert_eq!(answer.msg(), "account or password wrong");
        assert!(answer.data().is_null());
    }
    let chinese = app
        .send(
            app.client
                .post(app.url("/adminapi/login/login"))
                .header("accept-language", "zh-CN")
                .json(&json!({ "username": "nobody", "password": "x" })),
        )
        .await;
    assert_eq!(chinese.msg(), "账号或密码错误");
}

async fn repeated_failures_lock_the_account_and_say_when_to_retry(backend: Backend) {
    let app = spawn_app(backend).await;
    let max = app.state.config.throttle.account_max_failures;
    for attempt in 1..max {
        let answer = app.login_answer(MERCHANT.0, "Wrong123").await;
        assert_eq!(answer.code(), 40100, "attempt {attempt}");
    }
    let locking = app.login_answer(MERCHANT.0, "Wrong123").await;
    assert_eq!((locking.status.as_u16(), locking.code()), (429, 42900));
    let retry = locking.data()["retry_after_seconds"].as_u64().unwrap();
    assert!(retry > 0 && retry <= app.state.config.throttle.lockout.as_secs());
    assert!(locking.msg().contains("retry in"));

    // Locked: even the right password is not checked, and the answer has a Retry-After.
    let response = app
        .client
        .post(app.url("/adminapi/login/login"))
        .json(&json!({ "username": MERCHANT.0, "password": MERCHANT.1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    assert!(response.headers().get("retry-after").is_some());
    // Another account from the same address is still fine.
    assert_eq!(app.login_answer(ADMIN.0, ADMIN.1).await.code(), 20000);

    // Once the lock has passed, the right password works again.
    sqlx::query("UPDATE login_throttle SET locked_until = 0, window_started_at = 0")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.login_answer(MERCHANT.0, MERCHANT.1).await.code(), 20000);
}

async fn failures_from_one_address_lock_it_across_accounts(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.throttle.address_max_failures = 4;
        config.throttle.account_max_failures = 100;
    })
    .await;
    for index in 0..3 {
        assert_eq!(app.login_answer(&format!("guess{index}"), "Wrong123").await.code(), 40100);
    }
    assert_eq!(app.login_answer("guess3", "Wrong123").await.code(), 42900);
    // The address is locked now, whichever account it tries.
    assert_eq!(app.login_answer(ADMIN.0, ADMIN.1).await.code(), 42900);
}

async fn a_success_forgives_earlier_failures(backend: Backend) {
    let app = spawn_app(backend).await;
    let max = app.state.config.throttle.account_max_failures;
    for _ in 1..max {
        assert_eq!(app.login_answer(MERCHANT.0, "Wrong123").await.code(), 40100);
    }
    assert_eq!(app.login_answer(MERCHANT.0, MERCHANT.1).await.code(), 20000);
    for _ in 1..max {
        assert_eq!(app.login_answer(MERCHANT.0, "Wrong123").await.code(), 40100);
    }
}

async fn malformed_and_mistyped_bodies_get_a_validation_envelope(backend: Backend) {
    let app = spawn_app(backend).await;
    let raw = |body: &'static str| {
        app.client.post(app.url("/adminapi/login/login")).header("content-type", "application/json").body(body)
    };
    for body in ["{", "not json", "{\"username\": \"a\",}", "\u{0}"] {
        let answer = app.send(raw(body)).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (400, 40000), "body {body:?}");
    }
    let answer = app.send(raw("{\"username\": 5, \"password\": \"x\"}")).await;
    assert_eq!(answer.code(), 40000);
    assert!(answer.data()["fields"]["username"].is_string());
    let answer = app.send(raw("{\"username\": \"a\", \"password\": [1]}")).await;
    assert!(answer.data()["fields"]["password"].is_string());
    let answer = app.send(raw("[]")).await;
    assert_eq!(answer.code(), 40000);
    // An empty body is an empty form, not an error of the server.
    let answer = app.send(raw("")).await;
    assert_eq!(answer.msg(), "username cannot be empty");
    // Oversized bodies are refused without reading them whole.
    let huge = format!("{{\"username\": \"{}\", \"password\": \"x\"}}", "a".repeat(200_000));
    let answer = app
        .send(app.client.post(app.url("/adminapi/login/login")).header("content-type", "application/json").body(huge))
        .await;
    assert_eq!(answer.code(), 40000);
    // Overlong but within the body limit: refused before any hashing.
    let answer = app.login_answer(ADMIN.0, &"Aa1".repeat(50)).await;
    assert_eq!(answer.data()["fields"]["password"], "Password must be at most 128 characters");
}
