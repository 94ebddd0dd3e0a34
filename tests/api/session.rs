use crate::helpers::{ADMIN, Backend, MERCHANT, spawn_app, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    logout_revokes_the_session_for_good,
    an_expired_session_gives_50014,
    an_idle_session_gives_50014,
    unknown_missing_and_malformed_tokens_give_50008,
    either_header_works_but_disagreeing_headers_are_refused,
    signing_in_beyond_the_limit_ends_the_oldest_session,
    only_a_hash_of_the_token_is_stored,
    an_end_on_one_server_holds_on_the_other_within_a_second,
);

const USER_INFO: &str = "/adminapi/merchant/userInfo";

async fn logout_revokes_the_session_for_good(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    assert_eq!(app.post_as(&token, USER_INFO, json!({})).await.code(), 20000);
    let answer = app.post_as(&token, "/adminapi/login/logout", json!(null)).await;
    assert_eq!(answer.code(), 20000);
    let after = app.post_as(&token, USER_INFO, json!({})).await;
    assert_eq!((after.status.as_u16(), after.code()), (401, 50012));
    // Signing out again is harmless, and the session stays revoked.
    assert_eq!(app.post_as(&token, "/adminapi/login/logout", json!({})).await.code(), 20000);
    assert_eq!(app.post_as(&token, USER_INFO, json!({})).await.code(), 50012);
    // Other sessions of the same user are untouched.
    let other = app.login(MERCHANT).await;
    assert_eq!(app.post_as(&other, USER_INFO, json!({})).await.code(), 20000);
    let reason: String = sqlx::query_scalar("SELECT revoked_reason FROM sessions WHERE revoked_at IS NOT NULL")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(reason, "logout");
    // One sign-out record, for the user whose session it ended; the second sign-out ended
    // nothing and records nothing.
    let recorded: Vec<(Option<i64>, String)> =
        sqlx::query_as("SELECT user_id, target FROM audit_events WHERE action = 'logout'")
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    let user_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE username = $1")
        .bind(MERCHANT.0)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(recorded, vec![(Some(user_id), format!("user:{user_id}"))]);
}

async fn an_expired_session_gives_50014(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    // The absolute lifetime has passed (the clock is moved by editing the row).
    sqlx::query("UPDATE sessions SET expires_at = $1")
        .bind(backoffice::platform::db::now_millis() - 1)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let answer = app.post_as(&token, USER_INFO, json!({})).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (401, 50014));
    assert_eq!(answer.msg(), "Your login has expired, please log in again");
}

async fn an_idle_session_gives_50014(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(ADMIN).await;
    let idle = backoffice::identity::session::duration_millis(app.state.config.session.idle_timeout);
    sqlx::query("UPDATE sessions SET last_used_at = $1")
        .bind(backoffice::platform::db::now_millis() - idle - 1)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.post_as(&token, USER_INFO, json!({})).await.code(), 50014);
    // A session used recently enough lives on, and each use moves its idle clock.
    let fresh = app.login(ADMIN).await;
    sqlx::query("UPDATE sessions SET last_used_at = $1 WHERE revoked_at IS NULL AND last_used_at > $2")
        .bind(backoffice::platform::db::now_millis() - idle + 60_000)
        .bind(backoffice::platform::db::now_millis() - 10_000)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let used_at = backoffice::platform::db::now_millis();
    assert_eq!(app.post_as(&fresh, USER_INFO, json!({})).await.code(), 20000);
    // The last use is written in the background, within about a second.
    app.wait_for_zero("SELECT 1 - COUNT(*) FROM sessions WHERE last_used_at >= $1", used_at, 5).await;
}

async fn unknown_missing_and_malformed_tokens_give_50008(backend: Backend) {
    let app = spawn_app(backend).await;
    let unknown = "A".repeat(43);
    for token in [unknown.as_str(), "short", "with space inside that is long enough to matter....", "😀"] {
        let answer = app.send(app.client.post(app.url(USER_INFO)).header("token", token).json(&json!({}))).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 50008), "token {token:?}");
    }
    let answer = app.post(USER_INFO, json!({})).await;
    assert_eq!(answer.code(), 50008);
    let answer = app
        .send(
            app.client.post(app.url(USER_INFO)).header("authorization", "Basic YWRtaW46QWRtaW4xMjM=").json(&json!({})),
        )
        .await;
    assert_eq!(answer.code(), 50008);
}

async fn either_header_works_but_disagreeing_headers_are_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let other = app.login(ADMIN).await;
    let bearer_only = app.send(app.client.post(app.url(USER_INFO)).bearer_auth(&token).json(&json!({}))).await;
    assert_eq!(bearer_only.code(), 20000);
    let header_only = app.send(app.client.post(app.url(USER_INFO)).header("token", &token).json(&json!({}))).await;
    assert_eq!(header_only.code(), 20000);
    let both = app
        .send(app.client.post(app.url(USER_INFO)).bearer_auth(&token).header("token", &other).json(&json!({})))
        .await;
    assert_eq!((both.status.as_u16(), both.code()), (401, 50008));
    assert!(both.msg().contains("different tokens"));
}

async fn signing_in_beyond_the_limit_ends_the_oldest_session(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.session.max_sessions_per_user = 2).await;
    let first = app.login(MERCHANT).await;
    let second = app.login(MERCHANT).await;
    assert_eq!(app.post_as(&first, USER_INFO, json!({})).await.code(), 20000);
    let third = app.login(MERCHANT).await;
    let ended = app.post_as(&first, USER_INFO, json!({})).await;
    assert_eq!(ended.code(), 50012);
    assert!(ended.msg().contains("signed in elsewhere"));
    assert_eq!(app.post_as(&second, USER_INFO, json!({})).await.code(), 20000);
    assert_eq!(app.post_as(&third, USER_INFO, json!({})).await.code(), 20000);
    // Another user's sessions do not count against this one.
    let admin = app.login(ADMIN).await;
    assert_eq!(app.post_as(&second, USER_INFO, json!({})).await.code(), 20000);
    assert_eq!(app.post_as(&admin, USER_INFO, json!({})).await.code(), 20000);
}

async fn only_a_hash_of_the_token_is_stored(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let rows: Vec<(String, String, String)> =
        sqlx::query_as("SELECT token_hash, client_address, user_agent FROM sessions")
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 1);
    let (hash, address, _agent) = &rows[0];
    assert_ne!(hash, &token);
    assert!(!hash.contains(&token));
    assert_eq!(hash, &backoffice::identity::session::token::token_hash(&token));
    assert_eq!(address, "127.0.0.1");
}

/// Two servers on one database: a session ended on one (signed out, or ended by a password
/// change) is refused by the other within a second, although the other had it cached.
async fn an_end_on_one_server_holds_on_the_other_within_a_second(backend: Backend) {
    let a = spawn_app(backend).await;
    let b = a.restart_with(|config| config.worker.enabled = false).await;
    let token = a.login(MERCHANT).await;
    assert_eq!(b.post_as(&token, USER_INFO, json!({})).await.code(), 20000);
    assert_eq!(a.post_as(&token, "/adminapi/login/logout", json!({})).await.code(), 20000);
    refused_within_a_second(&b, &token, std::time::Instant::now()).await;

    let current = a.login(MERCHANT).await;
    let other = a.login(MERCHANT).await;
    assert_eq!(b.post_as(&other, USER_INFO, json!({})).await.code(), 20000);
    let body = json!({ "current_password": MERCHANT.1, "new_password": "Changed456" });
    let changed = a.post_as(&current, "/adminapi/merchant/changePassword", body).await;
    assert_eq!(changed.data()["other_sessions_ended"], 1, "{:?}", changed.body);
    refused_within_a_second(&b, &other, std::time::Instant::now()).await;
    assert_eq!(b.post_as(&current, USER_INFO, json!({})).await.code(), 20000);
}

/// Calls until the session is refused; a call sent a second or more after `ended` must be.
async fn refused_within_a_second(app: &crate::helpers::TestApp, token: &str, ended: std::time::Instant) {
    loop {
        let sent = std::time::Instant::now();
        let code = app.post_as(token, USER_INFO, json!({})).await.code();
        if code == 50012 {
            return;
        }
        assert_eq!(code, 20000);
        assert!(sent < ended + std::time::Duration::from_secs(1), "accepted a second after the session ended");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
