//! The message center carries what a user must act on: money moved by an administrator, a
//! low balance, a finished batch, a channel switched off, callbacks that keep failing. Each
//! is written by the real path, once, with the page it leads to.

use crate::helpers::{ADMIN, Backend, MERCHANT, TestApp, spawn_app, spawn_app_with, wait_until};
use crate::on_both_backends;
use serde_json::{Value, json};
use std::time::Duration;

on_both_backends!(
    money_moved_by_an_administrator_is_told_once_with_its_amount,
    a_low_balance_notice_leads_to_the_account_changes,
    a_finished_batch_is_told_once_with_its_counts,
    a_channel_switched_off_by_a_person_is_told_to_the_other_administrators,
    failing_callbacks_are_told_once_per_episode_with_their_reason
);

/// The caller's notices, newest first.
async fn notices(app: &TestApp, token: &str) -> Vec<Value> {
    let answer = app.post_as(token, "/adminapi/message/list", json!({ "type": "notice" })).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().as_array().unwrap().clone()
}

/// Those whose title holds `words`.
async fn titled(app: &TestApp, token: &str, words: &str) -> Vec<Value> {
    notices(app, token).await.into_iter().filter(|item| item["title"].as_str().unwrap().contains(words)).collect()
}

async fn admin_call(app: &TestApp, admin: &str, path: &str, key: &str, body: Value) -> Value {
    let request = app.client.post(app.url(path)).bearer_auth(admin).header("Idempotency-Key", key).json(&body);
    app.send(request).await.body
}

async fn money_moved_by_an_administrator_is_told_once_with_its_amount(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let merchant = app.login(MERCHANT).await;
    let calls = [
        ("/adminapi/admin/merchant/topup", json!({"merchant_id": 10001, "amount_fen": 12_345, "remark": "May"})),
        ("/adminapi/admin/merchant/credit", json!({"merchant_id": 10001, "credit_limit_fen": 50_000})),
        ("/adminapi/admin/merchant/adjust", json!({"merchant_id": 10001, "amount_fen": -45, "remark": "fee"})),
    ];
    for (number, (path, body)) in calls.iter().enumerate() {
        // A retried call (same key) moves nothing and tells nothing again.
        for _ in 0..2 {
            let answer = admin_call(&app, &admin, path, &format!("money-{number}"), body.clone()).await;
            assert_eq!(answer["code"], 20000, "{path}: {answer}");
        }
    }
    // Refused (more than the credit in use): nothing moved, nothing told.
    let refused =
        app.post_as(&admin, "/adminapi/admin/merchant/repay", json!({"merchant_id": 10001, "amount_fen": 1})).await;
    assert_eq!(refused.code(), 40900);

    let money = titled(&app, &merchant, "Money on your account").await;
    let contents: Vec<&str> = money.iter().map(|item| item["content"].as_str().unwrap()).collect();
    assert_eq!(money.len(), 3, "{contents:?}");
    assert!(contents[2].contains("管理员已为您的余额加款 ¥123.45。备注：May"), "{}", contents[2]);
    assert!(contents[2].contains("An administrator added ¥123.45 to your balance. Remark: May"), "{}", contents[2]);
    assert!(contents[1].contains("total credit limit to ¥500.00"), "{}", contents[1]);
    assert!(contents[0].contains("adjusted your balance by ¥-0.45"), "{}", contents[0]);
    assert!(money.iter().all(|item| item["link"] == "/finance/account"), "{money:?}");
    // Told to the merchant's users only: the administrator's inbox has none of it.
    assert!(titled(&app, &admin, "Money on your account").await.is_empty());
}

async fn a_low_balance_notice_leads_to_the_account_changes(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("spender").await;
    let line = app.state.config.low_balance_alert_fen;
    app.fund(mid, line + 1_000, 0).await;
    let order = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"});
    // 985 fen: still above the line, no notice.
    assert_eq!(app.add_order(&token, order.clone()).await.code(), 20000);
    assert!(titled(&app, &token, "Low balance").await.is_empty());
    assert_eq!(app.add_order(&token, order).await.code(), 20000);
    let low = titled(&app, &token, "Low balance").await;
    assert_eq!(low.len(), 1, "{low:?}");
    assert_eq!(low[0]["link"], "/finance/account");
}

async fn batch_notices(app: &TestApp, token: &str) -> Vec<Value> {
    titled(app, token, "Batch finished").await
}

async fn a_finished_batch_is_told_once_with_its_counts(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("batcher").await;
    app.fund(mid, 3 * 985, 0).await;
    let text = "13800138000,MOBILE-DIRECT-10\n13900139000,MOBILE-DIRECT-10\n13700137000,MOBILE-DIRECT-10";
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "june.csv"})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    // Enough for two orders by the time it is submitted: the third line is refused when placed.
    let admin = app.login(ADMIN).await;
    let taken = json!({"merchant_id": mid, "amount_fen": -985, "remark": "test"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/merchant/adjust", taken).await.code(), 20000);
    let submitted = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(
        (submitted.data()["placed_rows"].as_i64(), submitted.data()["failed_rows"].as_i64()),
        (Some(2), Some(1))
    );
    // Placed but not finished: nothing to tell yet.
    assert!(batch_notices(&app, &token).await.is_empty());

    // A server with a worker finishes the two orders; the last one tells the batch.
    let worker = app.restart_with(|config| config.worker.enabled = true).await;
    let finished = "SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 2";
    wait_until("both orders succeed", 30, || async { app.scalar(finished, mid).await == 2 }).await;
    let told = batch_notices(&worker, &token).await;
    assert_eq!(told.len(), 1, "{told:?}");
    let content = told[0]["content"].as_str().unwrap();
    assert!(
        content
            .contains(&format!("批次 {batch_id}（june.csv）的订单已全部完成：成功 2 笔，失败并退款 0 笔，未受理 1 行")),
        "{content}"
    );
    assert!(content.contains("2 succeeded, 0 failed and refunded, 1 lines refused"), "{content}");
    assert_eq!(told[0]["link"], "/order/allAddList");
    // Submitting again is refused, places nothing and tells nothing twice.
    let again = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(again.code(), 40900, "{:?}", again.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 2);
    assert_eq!(batch_notices(&app, &token).await.len(), 1);
}

async fn second_administrator(app: &TestApp) -> String {
    let password = backoffice::platform::password::NewPassword::parse("Second123").unwrap();
    backoffice::identity::users::repository::create_user(
        &app.state.db,
        &app.state.hasher,
        backoffice::identity::users::repository::NewUser {
            username: "second",
            password: &password,
            role: backoffice::identity::session::Role::Admin,
            merchant_name: None,
            merchant_id: None,
            display_name: "second",
            recorded_as: None,
        },
    )
    .await
    .expect("administrator created");
    app.login(("second", "Second123")).await
}

async fn a_channel_switched_off_by_a_person_is_told_to_the_other_administrators(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let second = second_administrator(&app).await;
    let channel: i64 = sqlx::query_scalar("SELECT id FROM channels WHERE code = 'sandbox'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let switch = |enabled: bool| json!({"id": channel, "enabled": enabled});
    // Switching on a channel that is on tells nobody.
    assert_eq!(app.post_as(&admin, "/adminapi/admin/channel/enable", switch(true)).await.code(), 20000);
    assert!(titled(&app, &second, "Channel switched off").await.is_empty());
    // Off: the other administrator hears who did it; off again changes nothing.
    for _ in 0..2 {
        assert_eq!(app.post_as(&admin, "/adminapi/admin/channel/enable", switch(false)).await.code(), 20000);
    }
    let told = titled(&app, &second, "Channel switched off").await;
    assert_eq!(told.len(), 1, "{told:?}");
    let content = told[0]["content"].as_str().unwrap();
    assert!(content.contains("管理员 admin 已停用渠道“") && content.contains("Administrator admin switched channel"));
    assert_eq!(told[0]["link"], "/qoute/channels");
    assert!(titled(&app, &admin, "Channel switched off").await.is_empty(), "the one who did it is not told");
    // A channel that does not exist: 40400, nothing told.
    assert_eq!(
        app.post_as(&admin, "/adminapi/admin/channel/enable", json!({"id": 999, "enabled": false})).await.code(),
        40400
    );
    assert_eq!(titled(&app, &second, "Channel switched off").await.len(), 1);
}

async fn failing_callbacks_are_told_once_per_episode_with_their_reason(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.notify.allow_private = true;
        config.notify.poll_interval = Duration::from_millis(20);
        config.notify.schedule = vec![Duration::ZERO];
    })
    .await;
    let (mid, token) = app.merchant("unreachable").await;
    app.fund(mid, 100_000, 0).await;
    // A host that no resolver knows (".invalid" is reserved for that).
    let url = json!({ "notify_url": "http://callbacks.nowhere.invalid/cb" });
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changeIntegration", url).await.code(), 20000);
    for number in 0..2 {
        let order = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("U-{number}")});
        assert_eq!(app.add_order(&token, order).await.code(), 20000);
    }
    let exhausted = "SELECT COUNT(*) FROM notifications WHERE merchant_id = $1 AND state = 3";
    wait_until("both notifications give up", 30, || async { app.scalar(exhausted, mid).await == 2 }).await;
    // Two orders gave up in one episode: one notice, with the reason and where to resend.
    let told = titled(&app, &token, "Order notification undeliverable").await;
    assert_eq!(told.len(), 1, "{told:?}");
    let content = told[0]["content"].as_str().unwrap();
    assert!(content.contains("找不到回调地址的域名（DNS 解析失败）"), "{content}");
    assert!(content.contains("The host name of the notify URL could not be found (DNS)"), "{content}");
    assert!(!content.contains("dns error"), "{content}");
    assert_eq!(told[0]["link"], "/order/notifications");

    // The Notifications page gives the merchant the reason in its language, never the raw text.
    let request = app
        .client
        .post(app.url("/adminapi/notify/list"))
        .bearer_auth(&token)
        .header("accept-language", "zh-CN")
        .json(&json!({}));
    let page = app.send(request).await;
    let item = &page.data()["list"][0];
    assert_eq!(item["last_error_reason"], "notify.delivery.dns", "{item}");
    let shown = item["last_error"].as_str().unwrap();
    assert!(shown.starts_with("找不到回调地址的域名") && !shown.contains("error"), "{shown}");
    // Administrators see a short technical detail after the reason.
    let admin = app.login(ADMIN).await;
    let page = app.post_as(&admin, "/adminapi/notify/list", json!({ "merchant_id": mid })).await;
    let shown = page.data()["list"][0]["last_error"].as_str().unwrap().to_string();
    assert!(shown.starts_with("The host name of the notify URL") && shown.contains("technical detail:"), "{shown}");
}
