//! Re-authentication: enabling two-factor takes the password, current-password checks
//! are throttled like sign-in, and administrators reset another user's two-factor.

use crate::helpers::{ADMIN, Backend, MERCHANT, TestApp, spawn_app};
use crate::on_both_backends;
use crate::two_factor::{ENABLE, STATUS, code_now, enable_two_factor, forget_used_steps, start_setup};
use serde_json::json;

const RESET: &str = "/adminapi/admin/user/reset2FA";

on_both_backends!(
    a_session_alone_cannot_turn_two_factor_on,
    current_password_guesses_are_throttled_like_sign_in,
    administrators_reset_another_users_two_factor
);

async fn a_session_alone_cannot_turn_two_factor_on(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let setup = start_setup(&app, &token).await;
    let body = |password: Option<&str>| {
        let mut body = json!({ "code": code_now(&setup.secret), "temp_key": setup.temp_key });
        if let Some(password) = password {
            body["password"] = json!(password);
        }
        body
    };
    let missing = app.post_as(&token, ENABLE, body(None)).await;
    assert_eq!(missing.code(), 40000);
    assert_eq!(missing.data()["keys"]["password"], "password.current.required", "{:?}", missing.body);
    let wrong = app.post_as(&token, ENABLE, body(Some("Stolen123"))).await;
    assert_eq!(wrong.data()["keys"]["password"], "password.current.wrong", "{:?}", wrong.body);
    assert_eq!(app.get_as(&token, STATUS).await.data()["enabled"], false);
    // The setup is still good: with the password it turns on.
    assert_eq!(app.post_as(&token, ENABLE, body(Some(MERCHANT.1))).await.code(), 20000);
}

async fn current_password_guesses_are_throttled_like_sign_in(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let max = app.state.config.throttle.account_max_failures;
    let change = |current: &str| json!({ "current_password": current, "new_password": "Changed456" });
    for attempt in 1..max {
        let answer = app.post_as(&token, "/adminapi/merchant/changePassword", change("Guess1234")).await;
        assert_eq!(answer.data()["keys"]["current_password"], "password.current.wrong", "attempt {attempt}");
    }
    let locking = app.post_as(&token, "/adminapi/merchant/changePassword", change("Guess1234")).await;
    assert_eq!((locking.status.as_u16(), locking.code()), (429, 42900));
    // Locked: the right password is not even checked, on either form.
    let right = app.post_as(&token, "/adminapi/merchant/changePassword", change(MERCHANT.1)).await;
    assert_eq!(right.code(), 42900);
    let mut form = crate::profile::valid_form();
    form["password"] = json!("Changed456");
    form["current_password"] = json!(MERCHANT.1);
    let answer = app.post_as(&token, "/adminapi/merchant/changeInfo", form).await;
    assert_eq!(answer.code(), 42900, "{:?}", answer.body);
    // Once the lock has passed, the right password works and forgives.
    sqlx::query("UPDATE login_throttle SET locked_until = 0, window_started_at = 0")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changePassword", change(MERCHANT.1)).await.code(), 20000);
}

async fn merchant_id_of(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE username = 'merchant'").fetch_one(&app.state.db.pool).await.unwrap()
}

async fn administrators_reset_another_users_two_factor(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = enable_two_factor(&app, MERCHANT).await;
    let user_id = merchant_id_of(&app).await;
    // Only administrators, only existing users with two-factor on.
    assert_eq!(app.post_as(&merchant.token, RESET, json!({ "user_id": user_id })).await.code(), 40300);
    let admin = app.login(ADMIN).await;
    assert_eq!(app.post_as(&admin, RESET, json!({ "user_id": 987_654 })).await.code(), 40400);
    // The merchant's users list says who has two-factor on (the console offers the reset then).
    let mid: i64 = sqlx::query_scalar("SELECT merchant_id FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let listed = |admin: String| {
        let app = &app;
        async move {
            let users = app.post_as(&admin, "/adminapi/admin/merchant/users", json!({ "merchant_id": mid })).await;
            let users = users.data().as_array().unwrap().clone();
            users.iter().find(|user| user["user_id"] == user_id).unwrap()["two_factor_enabled"].clone()
        }
    };
    assert_eq!(listed(admin.clone()).await, true);
    // An administrator without two-factor resets with the session.
    assert_eq!(app.post_as(&admin, RESET, json!({ "user_id": user_id })).await.code(), 20000);
    assert_eq!(listed(admin.clone()).await, false);
    assert_eq!(app.get_as(&merchant.token, STATUS).await.data()["enabled"], false);
    assert_eq!(app.post_as(&admin, RESET, json!({ "user_id": user_id })).await.code(), 40900);
    assert!(app.login_answer(MERCHANT.0, MERCHANT.1).await.data()["token"].is_string());
    let audited: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'two_factor_reset'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(audited, 1);
    let told: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM inbox_messages WHERE user_id = $1 AND title LIKE '%reset by an administrator%'",
    )
    .bind(user_id)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(told, 1);
    // An administrator with two-factor on confirms with their own code.
    let merchant = enable_two_factor(&app, MERCHANT).await;
    let admin = enable_two_factor(&app, ADMIN).await;
    let without = app.post_as(&admin.token, RESET, json!({ "user_id": user_id })).await;
    assert_eq!(without.code(), 40110);
    let merchants_code =
        app.post_as(&admin.token, RESET, json!({ "user_id": user_id, "code": code_now(&merchant.secret) })).await;
    assert_eq!(merchants_code.code(), 40110);
    assert_eq!(app.get_as(&merchant.token, STATUS).await.data()["enabled"], true);
    forget_used_steps(&app).await;
    let with = app.post_as(&admin.token, RESET, json!({ "user_id": user_id, "code": code_now(&admin.secret) })).await;
    assert_eq!(with.code(), 20000, "{:?}", with.body);
    assert_eq!(app.get_as(&merchant.token, STATUS).await.data()["enabled"], false);
}
