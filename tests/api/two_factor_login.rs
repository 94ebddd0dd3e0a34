//! Signing in with two-factor on: the pending handle, verify2FA, replays, parallel
//! use, the per-user lock, and what the database holds.

use crate::helpers::{ADMIN, Answer, Backend, MERCHANT, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use crate::two_factor::{
    DISABLE, ENABLE, REGENERATE, SETUP, STATUS, code_at, code_now, enable_two_factor, forget_used_steps, futures_join,
    start_setup, strings, wrong_code,
};
use serde_json::{Value, json};

on_both_backends!(
    sign_in_takes_the_password_then_a_code,
    a_code_is_accepted_once_across_operations,
    twenty_parallel_uses_of_one_code_succeed_once,
    backup_codes_sign_in_once_each,
    the_pending_handle_opens_nothing_else_and_dies_early,
    wrong_codes_lock_the_user_on_every_endpoint,
    codes_guessed_elsewhere_do_not_lock_out_a_known_address,
    no_secret_or_code_is_stored_in_plain_text,
);

const VERIFY: &str = "/adminapi/login/verify2FA";
const USER_INFO: &str = "/adminapi/merchant/userInfo";

/// Signs in with the password; two-factor is on, so this gives the pending handle.
async fn pending_login(app: &TestApp, (username, password): (&str, &str)) -> String {
    let answer = app.login_answer(username, password).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    assert_eq!(answer.data()["need_2fa"], true, "{:?}", answer.body);
    answer.data()["pending_token"].as_str().unwrap().to_string()
}

async fn verify(app: &TestApp, pending_token: &str, code: &str) -> Answer {
    app.post(VERIFY, json!({ "pending_token": pending_token, "code": code })).await
}

async fn sign_in_takes_the_password_then_a_code(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let answer = app.login_answer(MERCHANT.0, MERCHANT.1).await;
    assert_eq!(answer.code(), 20000);
    let data = answer.data();
    assert_eq!(data["need_2fa"], true);
    assert!(
        data.get("token").is_none() && data.get("loginfo").is_none() && data.get("user").is_none(),
        "no usable session yet: {data}"
    );
    let pending = data["pending_token"].as_str().unwrap();
    assert_eq!(pending.len(), 43);
    // The password step is recorded with the pending handle it opened, for this user.
    let recorded: Vec<(Option<i64>, String)> =
        sqlx::query_as("SELECT user_id, target FROM audit_events WHERE action = 'login_pending_two_factor'")
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    let handles: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pending_logins WHERE used_at IS NULL")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!((recorded.len(), handles), (1, 1), "{recorded:?}");
    let user_id = recorded[0].0.expect("the record names its user");
    assert_eq!(recorded[0].1, format!("user:{user_id}"));
    // A wrong password still gets the ordinary answer, before any code is asked for.
    assert_eq!(app.login_answer(MERCHANT.0, "Wrong123").await.code(), 40100);

    let response =
        app.client.post(app.url(VERIFY)).json(&json!({ "pending_token": pending, "code": code_now(&enabled.secret) }));
    let response = response.send().await.unwrap();
    assert_eq!(response.headers()["cache-control"], "no-store");
    let signed_in: Value = response.json().await.unwrap();
    assert_eq!(signed_in["code"], 20000, "{signed_in}");
    let data = &signed_in["data"];
    assert_eq!(data["loginfo"]["username"], "merchant");
    assert!(data["loginfo"]["mid"].as_i64().unwrap() > 0);
    assert!(data["expires_at"].as_str().unwrap().ends_with('Z'));
    let token = data["token"].as_str().unwrap();
    // The profile comes with the session, as after an ordinary sign-in.
    assert_eq!(&data["user"], app.post_as(token, USER_INFO, json!({})).await.data());
    // Users without two-factor sign in in one step as before.
    assert!(app.login_answer(ADMIN.0, ADMIN.1).await.data()["token"].is_string());
}

async fn a_code_is_accepted_once_across_operations(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let setup = start_setup(&app, &token).await;
    let code = code_now(&setup.secret);
    let enabled =
        app.post_as(&token, ENABLE, json!({ "code": code, "temp_key": setup.temp_key, "password": MERCHANT.1 })).await;
    assert_eq!(enabled.code(), 20000);
    // Enable, then sign in with the same code: refused.
    let pending = pending_login(&app, MERCHANT).await;
    assert_eq!(verify(&app, &pending, &code).await.code(), 40110);
    // A new step: the code signs in once, and the second time in a row it is refused.
    forget_used_steps(&app).await;
    assert_eq!(verify(&app, &pending, &code).await.code(), 20000);
    let second = pending_login(&app, MERCHANT).await;
    assert_eq!(verify(&app, &second, &code).await.code(), 40110);
    // Sign in, then disable with the same code: refused.
    assert_eq!(app.post_as(&token, DISABLE, json!({ "code": code })).await.code(), 40110);
    assert_eq!(app.post_as(&token, REGENERATE, json!({ "code": code })).await.code(), 40110);
    // A code older than the window is refused too (it is not a replay but too late).
    assert_eq!(verify(&app, &second, &code_at(&setup.secret, -3)).await.code(), 40110);
    // The handle was not used up by those refusals.
    forget_used_steps(&app).await;
    assert_eq!(verify(&app, &second, &code).await.code(), 20000);
}

async fn twenty_parallel_uses_of_one_code_succeed_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    // Twenty sign-ins, each with its own handle, racing with one code.
    let mut handles = Vec::new();
    for _ in 0..20 {
        handles.push(pending_login(&app, MERCHANT).await);
    }
    let code = code_now(&enabled.secret);
    let requests =
        handles.iter().map(|handle| (String::new(), VERIFY, json!({ "pending_token": handle, "code": code })));
    let answers = futures_join(&app, requests.collect()).await;
    assert_eq!(answers.iter().filter(|answer| answer.code() == 20000).count(), 1, "{answers:?}");
    assert!(answers.iter().all(|answer| matches!(answer.code(), 20000 | 40110)), "{answers:?}");
    // One handle, twenty requests: one session.
    forget_used_steps(&app).await;
    let handle = pending_login(&app, MERCHANT).await;
    let code = code_now(&enabled.secret);
    let requests = (0..20).map(|_| (String::new(), VERIFY, json!({ "pending_token": handle, "code": code })));
    let answers = futures_join(&app, requests.collect()).await;
    assert_eq!(answers.iter().filter(|answer| answer.code() == 20000).count(), 1, "{answers:?}");
    // Twenty disables with one code: one succeeds.
    forget_used_steps(&app).await;
    let code = code_now(&enabled.secret);
    let requests = (0..20).map(|_| (enabled.token.clone(), DISABLE, json!({ "code": code })));
    let answers = futures_join(&app, requests.collect()).await;
    assert_eq!(answers.iter().filter(|answer| answer.code() == 20000).count(), 1, "{answers:?}");
    assert!(answers.iter().all(|answer| matches!(answer.code(), 20000 | 40110 | 40900)), "{answers:?}");
}

async fn backup_codes_sign_in_once_each(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let backup = &enabled.backup_codes[0];
    assert_eq!(verify(&app, &pending_login(&app, MERCHANT).await, backup).await.code(), 20000);
    assert_eq!(app.get_as(&enabled.token, STATUS).await.data()["backup_codes_count"], 9);
    let pending = pending_login(&app, MERCHANT).await;
    assert_eq!(verify(&app, &pending, backup).await.code(), 40110, "a backup code works once");
    // Twenty parallel sign-ins with one unused backup code: exactly one gets in.
    let mut handles = Vec::new();
    for _ in 0..20 {
        handles.push(pending_login(&app, MERCHANT).await);
    }
    let backup = &enabled.backup_codes[1];
    let requests =
        handles.iter().map(|handle| (String::new(), VERIFY, json!({ "pending_token": handle, "code": backup })));
    let answers = futures_join(&app, requests.collect()).await;
    assert_eq!(answers.iter().filter(|answer| answer.code() == 20000).count(), 1, "{answers:?}");
    assert_eq!(app.get_as(&enabled.token, STATUS).await.data()["backup_codes_count"], 8);
    // Regenerating kills the old set, used or not.
    let regenerated = app.post_as(&enabled.token, REGENERATE, json!({ "code": code_now(&enabled.secret) })).await;
    let fresh = strings(&regenerated.data()["backup_codes"]);
    assert_eq!(verify(&app, &pending, &enabled.backup_codes[2]).await.code(), 40110);
    assert_eq!(verify(&app, &pending, &fresh[0]).await.code(), 20000);
    let used: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM audit_events WHERE action = 'backup_code_used' AND params LIKE '%\"purpose\":\"login\"%'",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(used, 3);
}

async fn the_pending_handle_opens_nothing_else_and_dies_early(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let pending = pending_login(&app, MERCHANT).await;
    for path in [USER_INFO, "/api/user/menu", ENABLE, DISABLE, REGENERATE] {
        let answer = app.post_as(&pending, path, json!({ "code": code_now(&enabled.secret) })).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 50008), "{path}");
    }
    for path in [SETUP, STATUS, "/adminapi/monitor/overview"] {
        assert_eq!(app.get_as(&pending, path).await.code(), 50008, "{path}");
    }
    let invalid = |answer: Answer| {
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 40120), "{:?}", answer.body);
        assert_eq!(answer.msg(), "The sign-in has expired or is no longer valid, please log in again");
    };
    // Unknown, malformed or missing handles.
    invalid(verify(&app, &"A".repeat(43), &code_now(&enabled.secret)).await);
    invalid(verify(&app, "short", &code_now(&enabled.secret)).await);
    invalid(app.post(VERIFY, json!({ "pending_token": 7, "code": code_now(&enabled.secret) })).await);
    invalid(app.post(VERIFY, json!({ "code": code_now(&enabled.secret) })).await);
    // Works once.
    assert_eq!(verify(&app, &pending, &code_now(&enabled.secret)).await.code(), 20000);
    forget_used_steps(&app).await;
    invalid(verify(&app, &pending, &code_now(&enabled.secret)).await);
    // Expires.
    let expiring = pending_login(&app, MERCHANT).await;
    sqlx::query("UPDATE pending_logins SET expires_at = $1 WHERE used_at IS NULL")
        .bind(backoffice::platform::db::now_millis() - 1)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    invalid(verify(&app, &expiring, &code_now(&enabled.secret)).await);
    // Dies with a password change.
    let before_change = pending_login(&app, MERCHANT).await;
    let password = backoffice::platform::password::NewPassword::parse("Changed123").unwrap();
    sqlx::query("UPDATE users SET password_hash = $1, password_changed_at = $2 WHERE username = 'merchant'")
        .bind(app.state.hasher.hash(&password).await.unwrap())
        .bind(backoffice::platform::db::now_millis() + 1)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    invalid(verify(&app, &before_change, &code_now(&enabled.secret)).await);
    // Only hashes of handles are stored.
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT token_hash FROM pending_logins").fetch_all(&app.state.db.pool).await.unwrap();
    assert!(stored.iter().all(|hash| hash.len() == 64 && *hash != before_change));
    assert!(stored.contains(&backoffice::identity::session::token::token_hash(&before_change)));
}

async fn wrong_codes_lock_the_user_on_every_endpoint(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let policy = app.state.config.throttle.clone();
    let max = policy.two_factor_max_failures;
    let wrong = wrong_code(&enabled.secret);
    let mut backed_off = 0;
    // Failures from different handles and endpoints share one counter (all of them from
    // the address the user signed in from, which counts on its own).
    for attempt in 1..=max {
        if attempt > policy.two_factor_free_failures + 1 {
            // Past the free failures, a code right after a wrong one must wait, whoever
            // sends it and wherever from; the wait doubles each time. Not counted.
            let early = verify(&app, &pending_login(&app, MERCHANT).await, &wrong).await;
            assert_eq!((early.status.as_u16(), early.code()), (429, 42900), "attempt {attempt}");
            let expected = policy.two_factor_backoff.as_secs() << (attempt - policy.two_factor_free_failures - 2);
            let retry = early.data()["retry_after_seconds"].as_u64().unwrap();
            assert!(retry <= expected && retry + 1 >= expected, "attempt {attempt}: {retry} s, expected {expected} s");
            backed_off += 1;
            // Time passes.
            sqlx::query("UPDATE login_throttle SET locked_until = 0").execute(&app.state.db.pool).await.unwrap();
        }
        if attempt == max {
            break;
        }
        let answer = if attempt % 2 == 0 {
            let wrong_backup =
                ["12345678", "87654321"].into_iter().find(|code| !enabled.backup_codes.iter().any(|own| own == code));
            app.post_as(&enabled.token, DISABLE, json!({ "code": wrong_backup.unwrap() })).await
        } else {
            verify(&app, &pending_login(&app, MERCHANT).await, &wrong).await
        };
        assert_eq!(answer.code(), 40110, "attempt {attempt}: {:?}", answer.body);
    }
    let pending = pending_login(&app, MERCHANT).await;
    let locking = verify(&app, &pending, &wrong).await;
    assert_eq!((locking.status.as_u16(), locking.code()), (429, 42900));
    let retry = locking.data()["retry_after_seconds"].as_u64().unwrap();
    assert!(retry > 0 && retry <= app.state.config.throttle.lockout.as_secs());
    // Locked: the right code is not even checked, on any endpoint.
    let right = code_now(&enabled.secret);
    assert_eq!(verify(&app, &pending, &right).await.code(), 42900);
    assert_eq!(verify(&app, &pending_login(&app, MERCHANT).await, &enabled.backup_codes[1]).await.code(), 42900);
    assert_eq!(app.post_as(&enabled.token, REGENERATE, json!({ "code": right })).await.code(), 42900);
    assert_eq!(app.post_as(&enabled.token, DISABLE, json!({ "code": right })).await.code(), 42900);
    // Other users are not affected.
    let admin = enable_two_factor(&app, ADMIN).await;
    assert_eq!(app.post_as(&admin.token, REGENERATE, json!({ "code": code_now(&admin.secret) })).await.code(), 20000);
    // Once the lock has passed, the same right code works: it was never spent.
    sqlx::query("UPDATE login_throttle SET locked_until = 0, window_started_at = 0")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(verify(&app, &pending, &right).await.code(), 20000);
    let throttled: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'two_factor_throttled'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(throttled, 4 + backed_off);
    assert!(backed_off > 0, "the default policy backs off before it locks");
}

/// Wrong codes sent from addresses the user has not signed in from lately lock those
/// addresses (all of them: moving on does not reset the count), never the address the
/// user always uses: there the right code and a backup code still work.
async fn codes_guessed_elsewhere_do_not_lock_out_a_known_address(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.trust_forwarded_for = true;
        config.trusted_proxies = "127.0.0.1".parse().unwrap();
    })
    .await;
    // Enabling signs in from 127.0.0.1, which the user is then known at.
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let max = app.state.config.throttle.two_factor_max_failures;
    let wrong = wrong_code(&enabled.secret);
    let from = |address: String, pending: &str, code: &str| {
        let request = app.client.post(app.url(VERIFY)).header("x-forwarded-for", address);
        app.send(request.json(&json!({ "pending_token": pending, "code": code })))
    };
    let pending = pending_login(&app, MERCHANT).await;
    let mut locked_at = None;
    for attempt in 1..=max + 1 {
        let answer = from(format!("10.0.{attempt}.1"), &pending, &wrong).await;
        // Past the free failures the next code must wait: time passes, the count stays.
        sqlx::query("UPDATE login_throttle SET locked_until = 0 WHERE failures < $1")
            .bind(i64::from(max))
            .execute(&app.state.db.pool)
            .await
            .unwrap();
        if answer.code() == 42900 && locked_at.is_none() {
            locked_at = Some(attempt);
        }
    }
    assert_eq!(locked_at, Some(max), "the attacker's addresses lock at the limit");
    // Every other unknown address is locked with them, even with the right code.
    let right = code_now(&enabled.secret);
    assert_eq!(from("192.0.2.9".into(), &pending, &right).await.code(), 42900);
    // The user's own address is not: the right code signs in, a backup code works.
    let signed_in = verify(&app, &pending_login(&app, MERCHANT).await, &right).await;
    assert_eq!(signed_in.code(), 20000, "{:?}", signed_in.body);
    let backup = json!({ "code": enabled.backup_codes[0] });
    assert_eq!(app.post_as(&enabled.token, REGENERATE, backup).await.code(), 20000);
    // Its own wrong codes count on its own counter, one failure so far.
    let user_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE username = $1")
        .bind(MERCHANT.0)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let own = format!("two_factor:{user_id}@127.0.0.1");
    let failures: Option<i64> = sqlx::query_scalar("SELECT failures FROM login_throttle WHERE throttle_key = $1")
        .bind(&own)
        .fetch_optional(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(failures, None, "the successes forgave nothing there was: {own}");
    assert_eq!(verify(&app, &pending_login(&app, MERCHANT).await, &wrong).await.code(), 40110);
    let failures: i64 = sqlx::query_scalar("SELECT failures FROM login_throttle WHERE throttle_key = $1")
        .bind(&own)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(failures, 1);
}

async fn no_secret_or_code_is_stored_in_plain_text(backend: Backend) {
    let app = spawn_app(backend).await;
    let enabled = enable_two_factor(&app, MERCHANT).await;
    let token = app.login(ADMIN).await;
    let pending_setup = start_setup(&app, &token).await;
    let pending = pending_login(&app, MERCHANT).await;
    let regenerated = app.post_as(&enabled.token, REGENERATE, json!({ "code": code_now(&enabled.secret) })).await;
    let mut needles: Vec<String> = vec![
        backoffice::identity::two_factor::totp::encode_secret(&enabled.secret),
        hex::encode(&enabled.secret),
        backoffice::identity::two_factor::totp::encode_secret(&pending_setup.secret),
        pending_setup.temp_key.clone(),
        pending.clone(),
        enabled.token.clone(),
    ];
    needles.extend(enabled.backup_codes.iter().cloned());
    needles.extend(strings(&regenerated.data()["backup_codes"]));
    needles.extend(pending_setup.backup_codes.iter().cloned());
    let mut cells = 0;
    for (table, column) in text_columns(&app, backend).await {
        let query = format!("SELECT CAST({column} AS TEXT) FROM {table}");
        let values: Vec<Option<String>> =
            sqlx::query_scalar(sqlx::AssertSqlSafe(query)).fetch_all(&app.state.db.pool).await.unwrap();
        for value in values.into_iter().flatten() {
            cells += 1;
            for needle in &needles {
                assert!(!value.contains(needle.as_str()), "{table}.{column} holds a secret in plain text");
            }
        }
    }
    assert!(cells > 20, "the dump found too little to be meaningful");
}

/// Every (table, column) holding text, asked of the database itself.
async fn text_columns(app: &TestApp, backend: Backend) -> Vec<(String, String)> {
    let pool = &app.state.db.pool;
    match backend {
        Backend::Postgres => sqlx::query_as(
            "SELECT table_name::text, column_name::text FROM information_schema.columns
             WHERE table_schema = 'public' AND data_type IN ('text', 'character varying')",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
        Backend::Sqlite => {
            let tables: Vec<String> = sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
                .fetch_all(pool)
                .await
                .unwrap();
            let mut columns = Vec::new();
            for table in tables {
                let rows: Vec<(String, String)> = sqlx::query_as("SELECT name, type FROM pragma_table_info($1)")
                    .bind(&table)
                    .fetch_all(pool)
                    .await
                    .unwrap();
                columns.extend(
                    rows.into_iter()
                        .filter(|(_, kind)| kind.eq_ignore_ascii_case("TEXT"))
                        .map(|(name, _)| (table.clone(), name)),
                );
            }
            columns
        }
    }
}
