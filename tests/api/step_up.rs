//! Step-up for money: an administrator with two-factor on confirms money actions with a
//! fresh code; the confirmation holds for that session for 5 minutes. Administrators
//! without two-factor are not asked.

use crate::helpers::{ADMIN, Answer, Backend, MERCHANT, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use crate::two_factor::{code_now, enable_two_factor, forget_used_steps, wrong_code};
use serde_json::{Value, json};

on_both_backends!(
    every_money_action_needs_a_step_up_and_one_serves_five_minutes,
    a_step_up_expires_and_belongs_to_its_session,
    wrong_step_up_codes_are_throttled_like_every_code,
    administrators_without_two_factor_and_merchants_are_not_asked
);

const CONFIRM: &str = "/adminapi/admin/stepUp/confirm";
const TOP_UP: &str = "/adminapi/admin/merchant/topup";

fn money_calls(order_id: i64) -> Vec<(&'static str, Value)> {
    vec![
        (TOP_UP, json!({"merchant_id": 10001, "amount_fen": 1_000})),
        ("/adminapi/admin/merchant/credit", json!({"merchant_id": 10001, "credit_limit_fen": 5_000})),
        ("/adminapi/admin/merchant/adjust", json!({"merchant_id": 10001, "amount_fen": -1, "remark": "fee"})),
        ("/adminapi/admin/merchant/repay", json!({"merchant_id": 10001, "amount_fen": 1})),
        ("/adminapi/admin/order/resolve", json!({"order_id": order_id, "result": "failure", "reason": "test"})),
        ("/adminapi/admin/order/resolveMany", json!({"result": "failure", "items": [{"order_id": order_id}]})),
    ]
}

fn assert_step_up_required(answer: &Answer, what: &str) {
    assert_eq!(answer.code(), 40340, "{what}: {:?}", answer.body);
    assert_eq!(answer.status, 403, "{what}");
    assert_eq!(answer.msg(), "Confirm money actions with your two-factor code first", "{what}");
}

async fn balance(app: &TestApp) -> i64 {
    app.scalar("SELECT COALESCE(MAX(balance_fen), 0) FROM merchant_accounts WHERE merchant_id = $1", 10001).await
}

/// Audit rows of an action with a code asked for this purpose (none: no details), about the
/// administrator's own account.
async fn audited(app: &TestApp, action: &str, purpose: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM audit_events e JOIN users u ON e.target = 'user:' || CAST(u.id AS TEXT)
         WHERE u.username = 'admin' AND e.action = $1 AND COALESCE(e.params, '') LIKE
               (CASE WHEN $2 = '' THEN '' ELSE '%\"purpose\":\"' || $2 || '\"%' END)",
    )
    .bind(action)
    .bind(purpose)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

async fn session_until(app: &TestApp) -> i64 {
    sqlx::query_scalar::<_, i64>("SELECT MAX(step_up_until) FROM sessions").fetch_one(&app.state.db.pool).await.unwrap()
}

async fn every_money_action_needs_a_step_up_and_one_serves_five_minutes(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = enable_two_factor(&app, ADMIN).await;
    let start = balance(&app).await;
    // A non-existent order is enough to see the refusal come before anything is looked at.
    for (path, body) in money_calls(999_999) {
        assert_step_up_required(&app.post_as(&admin.token, path, body).await, path);
    }
    assert_eq!(balance(&app).await, start, "nothing moved");
    let refused_zh = app
        .send(
            app.client
                .post(app.url(TOP_UP))
                .bearer_auth(&admin.token)
                .header("accept-language", "zh-CN")
                .json(&json!({"merchant_id": 10001, "amount_fen": 1_000})),
        )
        .await;
    assert_eq!(refused_zh.msg(), "资金操作需先输入两步验证码确认");

    let before = backoffice::platform::db::now_millis();
    let confirmed = app.post_as(&admin.token, CONFIRM, json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(confirmed.code(), 20000, "{:?}", confirmed.body);
    let until = session_until(&app).await;
    assert!(
        (before + 300_000..=backoffice::platform::db::now_millis() + 300_000).contains(&until),
        "5 minutes: {until}"
    );
    assert!(confirmed.data()["valid_until"].is_string());
    // One confirmation serves repeated actions of the session.
    for (path, body) in money_calls(999_999).into_iter().take(3) {
        let answer = app.post_as(&admin.token, path, body).await;
        assert_eq!(answer.code(), 20000, "{path}: {:?}", answer.body);
    }
    assert_eq!(balance(&app).await, start + 999);
    // The code, once used, does not confirm again (a replay).
    let replayed = app.post_as(&admin.token, CONFIRM, json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(replayed.code(), 40110);
    // A backup code confirms too, and is audited as used.
    let backup = app.post_as(&admin.token, CONFIRM, json!({"code": admin.backup_codes[0]})).await;
    assert_eq!(backup.code(), 20000, "{:?}", backup.body);
    assert_eq!(audited(&app, "step_up_confirmed", "").await, 2);
    assert_eq!(audited(&app, "backup_code_used", "step_up").await, 1);
}

async fn a_step_up_expires_and_belongs_to_its_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = enable_two_factor(&app, ADMIN).await;
    let start = balance(&app).await;
    let confirmed = app.post_as(&admin.token, CONFIRM, json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(confirmed.code(), 20000, "{:?}", confirmed.body);
    let body = json!({"merchant_id": 10001, "amount_fen": 100});
    assert_eq!(app.post_as(&admin.token, TOP_UP, body.clone()).await.code(), 20000);
    // Another session of the same administrator has not confirmed.
    forget_used_steps(&app).await;
    let pending = app.login_answer(ADMIN.0, ADMIN.1).await;
    let second = app
        .post(
            "/adminapi/login/verify2FA",
            json!({"pending_token": pending.data()["pending_token"], "code": code_now(&admin.secret)}),
        )
        .await;
    assert_eq!(second.code(), 20000, "{:?}", second.body);
    let second_token = second.data()["token"].as_str().unwrap().to_string();
    assert_step_up_required(&app.post_as(&second_token, TOP_UP, body.clone()).await, "second session");
    // Five minutes later (the stored deadline passed), the first session must confirm again.
    sqlx::query("UPDATE sessions SET step_up_until = $1 WHERE step_up_until > 0")
        .bind(backoffice::platform::db::now_millis() - 1)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_step_up_required(&app.post_as(&admin.token, TOP_UP, body.clone()).await, "expired");
    assert_eq!(balance(&app).await, start + 100);

    // With a lifetime of zero a confirmation is over at once: the window is the server's.
    let instant =
        spawn_app_with(backend, |config| config.two_factor.step_up_lifetime = std::time::Duration::ZERO).await;
    let admin = enable_two_factor(&instant, ADMIN).await;
    let confirmed = instant.post_as(&admin.token, CONFIRM, json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(confirmed.code(), 20000, "{:?}", confirmed.body);
    assert_step_up_required(&instant.post_as(&admin.token, TOP_UP, body).await, "zero lifetime");
}

async fn wrong_step_up_codes_are_throttled_like_every_code(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.throttle.two_factor_free_failures = 2;
        config.throttle.two_factor_max_failures = 3;
        config.throttle.two_factor_backoff = std::time::Duration::ZERO;
    })
    .await;
    let admin = enable_two_factor(&app, ADMIN).await;
    let wrong = wrong_code(&admin.secret);
    for attempt in 0..2 {
        let answer = app.post_as(&admin.token, CONFIRM, json!({"code": wrong})).await;
        assert_eq!(answer.code(), 40110, "attempt {attempt}: {:?}", answer.body);
    }
    let locked = app.post_as(&admin.token, CONFIRM, json!({"code": wrong})).await;
    assert_eq!(locked.code(), 42900, "{:?}", locked.body);
    // Locked: even the right code is not looked at, and nothing is confirmed.
    let right = app.post_as(&admin.token, CONFIRM, json!({"code": code_now(&admin.secret)})).await;
    assert_eq!(right.code(), 42900);
    assert_eq!(session_until(&app).await, 0);
    assert_eq!(audited(&app, "two_factor_failed", "step_up").await, 3);
    assert_eq!(audited(&app, "two_factor_throttled", "step_up").await, 1);
    // Malformed codes get the one wrong-code answer, never a type error.
    let other = spawn_app(backend).await;
    let admin = enable_two_factor(&other, ADMIN).await;
    for code in [json!(123456), json!("12a456"), json!(null)] {
        assert_eq!(other.post_as(&admin.token, CONFIRM, json!({"code": code})).await.code(), 40110);
    }
}

async fn administrators_without_two_factor_and_merchants_are_not_asked(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let answer = app.post_as(&admin, TOP_UP, json!({"merchant_id": 10001, "amount_fen": 100})).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    // Nothing to confirm without two-factor.
    assert_eq!(app.post_as(&admin, CONFIRM, json!({"code": "123456"})).await.code(), 40900);
    let merchant = enable_two_factor(&app, MERCHANT).await;
    let refused = app.post_as(&merchant.token, CONFIRM, json!({"code": code_now(&merchant.secret)})).await;
    assert_eq!(refused.code(), 40300);
    assert_eq!(
        app.post_as(&merchant.token, TOP_UP, json!({"merchant_id": 10001, "amount_fen": 100})).await.code(),
        40300
    );
}
