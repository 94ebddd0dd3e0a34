//! The platform's blocklist: administrators bar numbers and prefixes with a reason (one by
//! one or imported whole), and placing refuses a barred number in the console, batches and
//! the open API's path, with its own key; a change made elsewhere (another server) bars
//! here within about a second. Merchants may not touch the list.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    a_barred_number_or_prefix_takes_no_orders,
    an_import_is_all_lines_or_none_and_merchants_may_not_touch_the_list,
    a_bar_added_by_another_server_holds_here_within_a_second,
);

async fn app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| config.worker.enabled = false).await
}

async fn a_barred_number_or_prefix_takes_no_orders(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;

    let added = app
        .post_as(&admin, "/adminapi/admin/blocklist/add", json!({"pattern": "+86 138 0013 8000", "reason": "欺诈投诉"}))
        .await;
    assert_eq!(added.code(), 20000, "{:?}", added.body);
    assert_eq!((&added.data()["pattern"], &added.data()["created_by"]), (&json!("13800138000"), &json!("admin")));
    let again =
        app.post_as(&admin, "/adminapi/admin/blocklist/add", json!({"pattern": "13800138000", "reason": "x"})).await;
    assert_eq!((again.status.as_u16(), again.code()), (409, 40900), "{:?}", again.body);
    assert_eq!(again.data()["keys"]["pattern"], "blocklist.pattern.taken");
    for (pattern, reason, field, key) in [
        ("13", "r", "pattern", "blocklist.pattern.invalid"),
        ("2380013", "r", "pattern", "blocklist.pattern.invalid"),
        ("1390013", "  ", "reason", "blocklist.reason.invalid"),
    ] {
        let bad =
            app.post_as(&admin, "/adminapi/admin/blocklist/add", json!({"pattern": pattern, "reason": reason})).await;
        assert_eq!(
            (bad.status.as_u16(), bad.data()["keys"][field].as_str()),
            (422, Some(key)),
            "{pattern}: {:?}",
            bad.body
        );
    }
    let prefix = app
        .post_as(&admin, "/adminapi/admin/blocklist/add", json!({"pattern": "1390013", "reason": "号段被盗用"}))
        .await;
    assert_eq!(prefix.code(), 20000, "{:?}", prefix.body);

    // Refused for the number and for every number of the prefix, whatever the spelling.
    for account in ["13800138000", "138 0013 8000", "13900130001"] {
        let refused = app.add_order(&token, json!({"account": account, "product_key": "MOBILE-DIRECT-10"})).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "{account}: {:?}", refused.body);
        assert_eq!(refused.data()["keys"]["account"], "order.account.blocked", "{account}");
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0);
    assert_eq!(app.scalar("SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1", mid).await, 100_000);
    let other = app.add_order(&token, json!({"account": "13800138001", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(other.code(), 20000, "{:?}", other.body);

    // A batch marks the line.
    let text = "13800138000,MOBILE-DIRECT-10,B-1\n13800138002,MOBILE-DIRECT-10,B-2";
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let errors = preview.data()["errors"].as_array().cloned().unwrap_or_default();
    let reasons: Vec<_> = errors.iter().map(|e| (e["line_no"].as_i64(), e["reason_key"].as_str())).collect();
    assert_eq!(reasons, vec![(Some(1), Some("order.account.blocked"))]);

    // Lifted: the number takes orders again; every change is audited.
    let id = added.data()["id"].as_i64().unwrap();
    let removed = app.post_as(&admin, "/adminapi/admin/blocklist/delete", json!({"id": id})).await;
    assert_eq!(removed.code(), 20000, "{:?}", removed.body);
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let gone = app.post_as(&admin, "/adminapi/admin/blocklist/delete", json!({"id": id})).await;
    assert_eq!(gone.status.as_u16(), 404);
    let audited = app
        .scalar(
            "SELECT COUNT(*) FROM audit_events WHERE action IN ('number_blocked', 'number_unblocked') AND $1 = $1",
            0,
        )
        .await;
    assert_eq!(audited, 3);
    let listed = app.post_as(&admin, "/adminapi/admin/blocklist/list", json!({"pattern": "139"})).await;
    assert_eq!((listed.data()["total"].as_i64(), &listed.data()["list"][0]["reason"]), (Some(1), &json!("号段被盗用")));
}

async fn an_import_is_all_lines_or_none_and_merchants_may_not_touch_the_list(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let bad = "号码,原因\n13700137000,测试\nabc,x\n13600136000,";
    let refused = app.post_as(&admin, "/adminapi/admin/blocklist/import", json!({"text": bad})).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "{:?}", refused.body);
    let keys = &refused.data()["keys"];
    assert_eq!(
        (&keys["line:3"], &keys["line:4"]),
        (&json!("blocklist.pattern.invalid"), &json!("blocklist.reason.invalid"))
    );
    assert_eq!(app.scalar("SELECT COUNT(*) FROM blocked_numbers WHERE $1 = $1", 0).await, 0, "nothing imported");

    let good = "号码,原因\n13700137000,测试\n１３６ ００１３,全角号段\n13700137000,重复";
    let imported = app.post_as(&admin, "/adminapi/admin/blocklist/import", json!({"text": good})).await;
    assert_eq!(imported.code(), 20000, "{:?}", imported.body);
    assert_eq!((imported.data()["lines"].as_i64(), imported.data()["added"].as_i64()), (Some(3), Some(2)));
    let url = app.url("/adminapi/admin/blocklist/export");
    let response = app.client.get(url).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let text = response.text().await.unwrap();
    assert!(text.contains("1360013") && text.contains("全角号段") && text.contains("13700137000"), "{text}");

    let (_, token) = app.merchant("buyer").await;
    for path in ["/adminapi/admin/blocklist/list", "/adminapi/admin/blocklist/add", "/adminapi/admin/blocklist/import"]
    {
        let answer =
            app.post_as(&token, path, json!({"pattern": "13500135000", "reason": "x", "text": "13500135000,x"})).await;
        assert_eq!(answer.status.as_u16(), 403, "{path}: {:?}", answer.body);
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM blocked_numbers WHERE $1 = $1", 0).await, 2);
}

async fn a_bar_added_by_another_server_holds_here_within_a_second(backend: Backend) {
    let app = app(backend).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let body = json!({"account": "13500135000", "product_key": "MOBILE-DIRECT-10"});
    assert_eq!(app.add_order(&token, body.clone()).await.code(), 20000);
    // Written as another server writes it: this server was not told.
    sqlx::query(
        "INSERT INTO blocked_numbers (pattern, reason, created_by, created_at) VALUES ('13500135000', 'elsewhere', 'admin', 0)",
    )
    .execute(&app.state.db.pool)
    .await
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let answer = app.add_order(&token, body.clone()).await;
        if answer.data()["keys"]["account"] == "order.account.blocked" {
            break;
        }
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        assert!(std::time::Instant::now() < deadline, "the bar was not seen within 10 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
