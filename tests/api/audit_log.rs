//! The audit log page: administrators list and export every security and money event
//! with its actor and target, filtered by actor, action, target and time; merchants may not.

use crate::helpers::{ADMIN, Backend, MERCHANT, TestApp, spawn_app};
use crate::on_both_backends;
use crate::two_factor::enable_two_factor;
use serde_json::{Value, json};

on_both_backends!(
    the_audit_log_filters_pages_and_exports,
    every_money_and_security_event_names_its_actor_and_target,
    merchants_may_not_read_the_audit_log
);

const LIST: &str = "/adminapi/admin/audit/list";

async fn list(app: &TestApp, token: &str, body: Value) -> Value {
    let answer = app.post_as(token, LIST, body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().clone()
}

fn actions(page: &Value) -> Vec<String> {
    page["list"].as_array().unwrap().iter().map(|row| row["action"].as_str().unwrap().to_string()).collect()
}

async fn user_id(app: &TestApp, username: &str) -> i64 {
    sqlx::query_scalar::<_, i64>("SELECT id FROM users WHERE username = $1")
        .bind(username)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn the_audit_log_filters_pages_and_exports(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let merchant_user = user_id(&app, MERCHANT.0).await;
    assert_eq!(app.login_answer(MERCHANT.0, "wrong-password").await.code(), 40100);
    assert_eq!(app.login_answer("=1+1", "wrong-password").await.code(), 40100);
    let topped = app
        .post_as(
            &admin,
            "/adminapi/admin/merchant/topup",
            json!({"merchant_id": 10001, "amount_fen": 500, "remark": "May"}),
        )
        .await;
    assert_eq!(topped.code(), 20000, "{:?}", topped.body);

    // By action: the top-up, with who did it and to which merchant.
    let money = list(&app, &admin, json!({"action": "money_top_up"})).await;
    assert_eq!(money["total"], 1, "{money}");
    let row = &money["list"][0];
    assert_eq!(row["actor_name"], "admin");
    assert_eq!(row["target"], "merchant:10001");
    assert_eq!(row["detail"], "Amount ¥5.00, remark: May");
    assert_eq!((row["target_type"].as_str(), row["target_id"].as_i64()), (Some("merchant"), Some(10001)));
    assert_eq!(row["action_name"], "Top-up");
    // By target: the failed sign-in against the merchant's account is listed under it.
    let on_merchant = list(&app, &admin, json!({"target": format!("user:{merchant_user}")})).await;
    assert!(actions(&on_merchant).contains(&"login_failed".to_string()), "{on_merchant}");
    assert!(on_merchant["list"].as_array().unwrap().iter().all(|row| row["target"] == format!("user:{merchant_user}")));
    // By actor: a username in any case, or an id; nobody matches nothing.
    let by_admin = list(&app, &admin, json!({"actor": "ADMIN"})).await;
    assert!(by_admin["total"].as_i64().unwrap() >= 2, "the sign-in and the top-up: {by_admin}");
    assert!(by_admin["list"].as_array().unwrap().iter().all(|row| row["actor_name"] == "admin"));
    let admin_id = user_id(&app, "admin").await;
    assert_eq!(list(&app, &admin, json!({"actor": admin_id.to_string()})).await["total"], by_admin["total"]);
    assert_eq!(list(&app, &admin, json!({"actor": "nobody-by-that-name"})).await["total"], 0);
    // By time: nothing before 2001, everything since then, nothing from 2100.
    let everything = list(&app, &admin, json!({})).await["total"].as_i64().unwrap();
    assert!(everything >= 4, "a sign-in, two failures and the top-up: {everything}");
    assert_eq!(list(&app, &admin, json!({"end_time": "2001-01-01T00:00:00Z"})).await["total"], 0);
    assert_eq!(list(&app, &admin, json!({"start_time": "2001-01-01T00:00:00Z"})).await["total"], everything);
    assert_eq!(list(&app, &admin, json!({"start_time": "2100-01-01T00:00:00Z"})).await["total"], 0);
    // Newest first, keyset pages that neither repeat nor skip.
    let first = list(&app, &admin, json!({"page_size": 2})).await;
    assert_eq!(first["list"][0]["action"], "money_top_up");
    let second = list(&app, &admin, json!({"page_size": 2, "cursor": first["next_cursor"]})).await;
    let ids = |page: &Value| -> Vec<i64> {
        page["list"].as_array().unwrap().iter().map(|row| row["id"].as_i64().unwrap()).collect()
    };
    let (first_ids, second_ids) = (ids(&first), ids(&second));
    assert!(first_ids[1] > second_ids[0], "{first_ids:?} then {second_ids:?}");
    let by_number = list(&app, &admin, json!({"page_size": 2, "page": 2})).await;
    assert_eq!(ids(&by_number), second_ids);
    // Bad filters are refused with the field named.
    let refused = app.post_as(&admin, LIST, json!({"action": "drop_tables"})).await;
    assert_eq!(refused.code(), 40000);
    assert_eq!(refused.data()["keys"]["action"], "audit.action_unknown");
    assert_eq!(app.post_as(&admin, LIST, json!({"start_time": "yesterday"})).await.code(), 40000);
    // A cursor this list did not give breaks a rule, not the document: 422, named.
    let forged = app.post_as(&admin, LIST, json!({"cursor": "not-a-cursor"})).await;
    assert_eq!((forged.status.as_u16(), forged.code()), (422, 40000), "{:?}", forged.body);
    assert_eq!(forged.data()["keys"]["cursor"], "request.cursor_invalid");
    // The action names come in the request's language.
    let names = app
        .send(
            app.client
                .post(app.url("/adminapi/admin/audit/actions"))
                .bearer_auth(&admin)
                .header("accept-language", "zh-CN")
                .json(&json!({})),
        )
        .await;
    let top_up = names.data().as_array().unwrap().iter().find(|item| item["action"] == "money_top_up").unwrap().clone();
    assert_eq!(top_up["name"], "充值");

    // The export: the same filters, Excel-safe text, titles in the request's language.
    let csv = app
        .client
        .get(app.url("/adminapi/admin/audit/export?action=login_failed"))
        .bearer_auth(&admin)
        .header("accept-language", "zh-CN")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(csv.starts_with("\u{feff}\"编号\",\"时间\",\"操作人\",\"操作\""), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 2, "{csv}");
    assert!(csv.contains("\"登录失败\""), "{csv}");
    assert!(csv.contains("\"'=1+1\""), "a typed formula stays text: {csv}");
    assert!(!csv.contains("money_top_up"));
    let xlsx =
        app.client.get(app.url("/adminapi/admin/audit/export?format=xlsx")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(xlsx.status(), 200);
    assert_eq!(xlsx.headers()["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    let bad =
        app.client.get(app.url("/adminapi/admin/audit/export?action=nope")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(bad.status(), 400);
    // Every refusal of the export's query is the envelope naming what is wrong (never
    // axum's plain text): a time not RFC 3339, a parameter given twice.
    let export = "/adminapi/admin/audit/export";
    let late = app.get_as(&admin, &format!("{export}?start_time=yesterday")).await;
    assert_eq!((late.status.as_u16(), late.data()["keys"]["start_time"].as_str()), (400, Some("request.time_invalid")));
    let twice = app.get_as(&admin, &format!("{export}?sort=asc&sort=asc")).await;
    assert_eq!((twice.status.as_u16(), twice.code()), (400, 40000), "{:?}", twice.body);
    // Paging out of the documented ranges is refused, not read as the first page.
    for body in [json!({"page": 0}), json!({"page_size": 0}), json!({"page_size": 501})] {
        let refused = app.post_as(&admin, LIST, body.clone()).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (400, 40000), "{body}");
    }
}

async fn count(app: &TestApp, action: &str, actor: Option<i64>, target: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM audit_events WHERE action = $1 AND target = $2 AND ((user_id IS NULL AND $3 = -1) OR user_id = $3)",
    )
    .bind(action)
    .bind(target)
    .bind(actor.unwrap_or(-1))
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

async fn every_money_and_security_event_names_its_actor_and_target(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let admin_id = Some(user_id(&app, "admin").await);
    let merchant = "merchant:10001";
    let calls = [
        ("/adminapi/admin/merchant/topup", json!({"merchant_id": 10001, "amount_fen": 1_000}), "money_top_up"),
        (
            "/adminapi/admin/merchant/credit",
            json!({"merchant_id": 10001, "credit_limit_fen": 5_000}),
            "money_credit_limit",
        ),
        (
            "/adminapi/admin/merchant/adjust",
            json!({"merchant_id": 10001, "amount_fen": -100, "remark": "fee"}),
            "money_adjustment",
        ),
    ];
    for (path, body, action) in calls {
        // Sent twice with one key: the retry moves nothing and writes no second row.
        for _ in 0..2 {
            let answer = app
                .send(app.client.post(app.url(path)).bearer_auth(&admin).header("Idempotency-Key", action).json(&body))
                .await;
            assert_eq!(answer.code(), 20000, "{path}: {:?}", answer.body);
        }
        assert_eq!(count(&app, action, admin_id, merchant).await, 1, "{action}");
    }
    // A refused change (more than the credit in use) writes nothing.
    let refused =
        app.post_as(&admin, "/adminapi/admin/merchant/repay", json!({"merchant_id": 10001, "amount_fen": 1})).await;
    assert_eq!(refused.code(), 40900);
    assert_eq!(count(&app, "money_repayment", admin_id, merchant).await, 0);

    // Sign-ins, their failures, two-factor changes and key changes name whom they concern.
    let merchant_id = user_id(&app, MERCHANT.0).await;
    let merchant_user = format!("user:{merchant_id}");
    assert_eq!(app.login_answer(MERCHANT.0, "wrong-password").await.code(), 40100);
    assert_eq!(count(&app, "login_failed", None, &merchant_user).await, 1);
    let token = app.login(MERCHANT).await;
    assert_eq!(count(&app, "login", Some(merchant_id), &merchant_user).await, 1);
    let key = app.post_as(&token, "/adminapi/apikey/create", json!({"password": MERCHANT.1})).await;
    assert_eq!(key.code(), 20000, "{:?}", key.body);
    assert_eq!(count(&app, "api_key_created", Some(merchant_id), merchant).await, 1);
    enable_two_factor(&app, MERCHANT).await;
    assert_eq!(count(&app, "two_factor_enabled", Some(merchant_id), &merchant_user).await, 1);
    let reset = app.post_as(&admin, "/adminapi/admin/user/reset2FA", json!({"user_id": merchant_id})).await;
    assert_eq!(reset.code(), 20000, "{:?}", reset.body);
    assert_eq!(count(&app, "two_factor_reset", admin_id, &merchant_user).await, 1);
}

async fn merchants_may_not_read_the_audit_log(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    assert_eq!(app.post_as(&merchant, LIST, json!({})).await.code(), 40300);
    assert_eq!(app.post_as(&merchant, "/adminapi/admin/audit/actions", json!({})).await.code(), 40300);
    let export = app.client.get(app.url("/adminapi/admin/audit/export")).bearer_auth(&merchant).send().await.unwrap();
    assert_eq!(export.status(), 403);
    assert_eq!(app.post(LIST, json!({})).await.code(), 50008);
}
