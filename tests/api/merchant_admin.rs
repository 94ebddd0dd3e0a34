//! Administrators run merchants: create one with a temporary password that must be
//! changed first, rename, disable (sessions end at once, sign-in and new orders refused,
//! orders in flight settle) and enable, add users, reset a password. Merchants may do none.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_created_merchant_signs_in_and_must_change_its_temporary_password_first,
    a_disabled_merchant_is_signed_out_at_once_and_refused_until_enabled,
    users_are_added_and_passwords_reset_with_a_forced_change,
    merchants_may_not_administer_merchants
);

const DISABLED: &str =
    "This merchant is disabled: it cannot sign in or place orders; contact the platform's administrators";

async fn audit_rows(app: &TestApp, action: &str, target: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM audit_events WHERE action = $1 AND target = $2 AND user_id IS NOT NULL",
    )
    .bind(action)
    .bind(target)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

async fn create(app: &TestApp, admin: &str, name: &str, username: &str) -> Value {
    let answer =
        app.post_as(admin, "/adminapi/admin/merchant/create", json!({"name": name, "username": username})).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().clone()
}

async fn a_created_merchant_signs_in_and_must_change_its_temporary_password_first(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let created = create(&app, &admin, "Acme 电讯", "acme").await;
    let mid = created["merchant_id"].as_i64().unwrap();
    assert!(mid > 10001, "the next free mid after the demo merchant: {created}");
    let temporary = created["temporary_password"].as_str().unwrap().to_string();
    assert_eq!(temporary.len(), 12);
    // Names are checked per field; a taken username is refused whatever its case.
    let answer = app.post_as(&admin, "/adminapi/admin/merchant/create", json!({"name": " ", "username": "ACME"})).await;
    assert_eq!(answer.code(), 40000);
    assert_eq!(answer.data()["keys"]["name"], "merchant.name.required");
    let answer =
        app.post_as(&admin, "/adminapi/admin/merchant/create", json!({"name": "Other", "username": "ACME"})).await;
    assert_eq!(answer.data()["keys"]["username"], "merchant.username.taken", "{:?}", answer.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM merchants WHERE id > $1", mid).await, 0, "nothing half-written");

    let signed_in = app.login_answer("acme", &temporary).await;
    assert_eq!(signed_in.code(), 20000, "{:?}", signed_in.body);
    assert_eq!(signed_in.data()["loginfo"]["must_change_password"], true);
    assert_eq!(signed_in.data()["loginfo"]["mid"], mid);
    let token = signed_in.data()["token"].as_str().unwrap().to_string();
    // Until the password is changed, only who-am-I, the system information, the change and
    // sign-out answer.
    let info = app.post_as(&token, "/adminapi/merchant/userInfo", json!({})).await;
    assert_eq!(info.data()["mustChangePassword"], true);
    let system = app.client.get(app.url("/api/system/info")).bearer_auth(&token).send().await.unwrap();
    let system: serde_json::Value = system.json().await.unwrap();
    assert_eq!((system["code"].as_i64(), system["data"]["timeZone"].as_str()), (Some(20000), Some("Asia/Shanghai")));
    let refused = app.post_as(&token, "/adminapi/order/list", json!({})).await;
    assert_eq!(refused.code(), 40300);
    assert_eq!(refused.msg(), "Change your temporary password before anything else");
    let changed = app
        .post_as(
            &token,
            "/adminapi/merchant/changePassword",
            json!({"current_password": temporary, "new_password": "Acme2026x"}),
        )
        .await;
    assert_eq!(changed.code(), 20000, "{:?}", changed.body);
    assert_eq!(app.post_as(&token, "/adminapi/order/list", json!({})).await.code(), 20000);
    let again = app.login_answer("acme", "Acme2026x").await;
    assert_eq!(again.data()["loginfo"]["must_change_password"], false);

    // The administrators' list shows it enabled; the creation is audited; the user was told.
    let list = app.post_as(&admin, "/adminapi/admin/merchant/list", json!({"keyword": mid.to_string()})).await;
    assert_eq!(list.data()["list"][0]["name"], "Acme 电讯");
    assert!(list.data()["list"][0]["disabled_at"].is_null());
    assert_eq!(audit_rows(&app, "merchant_created", &format!("merchant:{mid}")).await, 1);
    let inbox = app.post_as(&token, "/adminapi/message/list", json!({"type": "notice"})).await;
    assert!(inbox.body.to_string().contains("An administrator reset your password"), "{:?}", inbox.body);

    let renamed =
        app.post_as(&admin, "/adminapi/admin/merchant/update", json!({"merchant_id": mid, "name": "Acme Ltd"})).await;
    assert_eq!(renamed.data()["name"], "Acme Ltd");
    assert_eq!(audit_rows(&app, "merchant_updated", &format!("merchant:{mid}")).await, 1);
    let missing =
        app.post_as(&admin, "/adminapi/admin/merchant/update", json!({"merchant_id": 99999, "name": "X"})).await;
    assert_eq!(missing.code(), 40400);
}

async fn a_disabled_merchant_is_signed_out_at_once_and_refused_until_enabled(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token) = app.merchant("shop").await;
    app.fund(mid, 100_000, 0).await;
    let admin = app.login(ADMIN).await;
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);

    let disabled = app.post_as(&admin, "/adminapi/admin/merchant/disable", json!({"merchant_id": mid})).await;
    assert_eq!(disabled.code(), 20000, "{:?}", disabled.body);
    assert!(disabled.data()["disabled_at"].is_string());
    // The merchant's open session ends at once, saying why.
    let ended = app.post_as(&token, "/adminapi/order/list", json!({})).await;
    assert_eq!((ended.code(), ended.msg()), (50012, DISABLED));
    // Signing in with the right password is refused with the reason, and audited.
    let refused = app.login_answer("shop", "Merchant123").await;
    assert_eq!((refused.code(), refused.msg()), (40300, DISABLED));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'login_refused_disabled' AND user_id IS NOT NULL AND $1 > 0", mid).await, 1);
    // New orders are refused, even an administrator's on its behalf, single or batch.
    let behalf =
        json!({"merchant_id": mid, "account": "13800138000", "product_key": "MOBILE-DIRECT-10", "behalf": true});
    let refused = app.add_order(&admin, behalf).await;
    assert_eq!((refused.code(), refused.msg()), (40300, DISABLED));
    let batch = app
        .post_as(
            &admin,
            "/adminapi/order/batch/preview",
            json!({"merchant_id": mid, "text": "13800138000,MOBILE-DIRECT-10"}),
        )
        .await;
    assert_eq!(batch.code(), 40300, "{:?}", batch.body);
    // The order placed before still settles.
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status IN (0, 1)", mid, 10).await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 2", mid).await, 1);
    // Disabling again changes nothing; the list shows it disabled.
    app.post_as(&admin, "/adminapi/admin/merchant/disable", json!({"merchant_id": mid})).await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM audit_events WHERE target = 'merchant:' || CAST($1 AS TEXT) AND action = 'merchant_disabled'", mid).await, 1);
    let list = app.post_as(&admin, "/adminapi/admin/merchant/list", json!({"keyword": mid.to_string()})).await;
    assert!(list.data()["list"][0]["disabled_at"].is_string());

    let enabled = app.post_as(&admin, "/adminapi/admin/merchant/enable", json!({"merchant_id": mid})).await;
    assert!(enabled.data()["disabled_at"].is_null());
    let token = app.login(("shop", "Merchant123")).await;
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    assert_eq!(audit_rows(&app, "merchant_enabled", &format!("merchant:{mid}")).await, 1);
    app.assert_books_balance(mid).await;

    // Renamed, disabled and enabled: each told to the merchant's users once, both languages
    // (disabling twice told once, as it changed something once).
    let renamed =
        app.post_as(&admin, "/adminapi/admin/merchant/update", json!({"merchant_id": mid, "name": "Shop Ltd"})).await;
    assert_eq!(renamed.code(), 20000);
    let notices: Vec<String> = sqlx::query_scalar(
        "SELECT m.content FROM inbox_messages m JOIN users u ON u.id = m.user_id WHERE u.merchant_id = $1 ORDER BY m.id",
    )
    .bind(mid)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    let told = |words: &str| notices.iter().filter(|content| content.contains(words)).count();
    assert_eq!(told("商户已被管理员停用"), 1, "{notices:?}");
    assert_eq!(told("The merchant was disabled by an administrator"), 1, "{notices:?}");
    assert_eq!(told("商户已重新启用"), 1, "{notices:?}");
    assert_eq!(told("The merchant is enabled again"), 1, "{notices:?}");
    assert_eq!(told("The merchant is now named \"Shop Ltd\""), 1, "{notices:?}");
    // The merchant reads them in its message center.
    let inbox = app.post_as(&token, "/adminapi/message/list", json!({"type": "notice"})).await;
    let text = inbox.body.to_string();
    for words in ["商户已被管理员停用", "商户已重新启用", "Shop Ltd"] {
        assert!(text.contains(words), "{words} missing from {text}");
    }
}

async fn users_are_added_and_passwords_reset_with_a_forced_change(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, first_token) = app.merchant("owner").await;
    let admin = app.login(ADMIN).await;
    let added = app
        .post_as(
            &admin,
            "/adminapi/admin/merchant/addUser",
            json!({"merchant_id": mid, "username": "clerk", "name": "Clerk"}),
        )
        .await;
    assert_eq!(added.code(), 20000, "{:?}", added.body);
    let clerk = app.login_answer("clerk", added.data()["temporary_password"].as_str().unwrap()).await;
    assert_eq!(clerk.data()["loginfo"]["mid"], mid);
    assert_eq!(clerk.data()["loginfo"]["must_change_password"], true);
    let users = app.post_as(&admin, "/adminapi/admin/merchant/users", json!({"merchant_id": mid})).await;
    let names: Vec<&str> =
        users.data().as_array().unwrap().iter().map(|user| user["username"].as_str().unwrap()).collect();
    assert_eq!(names, ["owner", "clerk"]);
    let owner_id = users.data()[0]["user_id"].as_i64().unwrap();
    assert_eq!(users.data()[0]["must_change_password"], false);
    let unknown = app
        .post_as(&admin, "/adminapi/admin/merchant/addUser", json!({"merchant_id": 99999, "username": "ghost"}))
        .await;
    assert_eq!(unknown.code(), 40400);

    let reset = app.post_as(&admin, "/adminapi/admin/merchant/resetPassword", json!({"user_id": owner_id})).await;
    assert_eq!(reset.code(), 20000, "{:?}", reset.body);
    let temporary = reset.data()["temporary_password"].as_str().unwrap().to_string();
    // The owner's session ended and the old password no longer works; the new one must be changed.
    assert_eq!(app.post_as(&first_token, "/adminapi/order/list", json!({})).await.code(), 50012);
    assert_eq!(app.login_answer("owner", "Merchant123").await.code(), 40100);
    let signed_in = app.login_answer("owner", &temporary).await;
    assert_eq!(signed_in.data()["loginfo"]["must_change_password"], true);
    assert_eq!(audit_rows(&app, "password_reset", &format!("user:{owner_id}")).await, 1);
    // An administrator's password is not reset this way.
    let admin_id = app.scalar("SELECT id FROM users WHERE username = 'admin' AND $1 > 0", mid).await;
    let refused = app.post_as(&admin, "/adminapi/admin/merchant/resetPassword", json!({"user_id": admin_id})).await;
    assert_eq!(refused.data()["keys"]["user_id"], "merchant.user.not_merchant", "{:?}", refused.body);
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "a rule beyond the document");
}

async fn merchants_may_not_administer_merchants(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token) = app.merchant("nosy").await;
    let owner_id = app.scalar("SELECT id FROM users WHERE merchant_id = $1", mid).await;
    let calls = [
        ("/adminapi/admin/merchant/create", json!({"name": "Mine", "username": "mine"})),
        ("/adminapi/admin/merchant/update", json!({"merchant_id": mid, "name": "Mine"})),
        ("/adminapi/admin/merchant/disable", json!({"merchant_id": 10001})),
        ("/adminapi/admin/merchant/enable", json!({"merchant_id": mid})),
        ("/adminapi/admin/merchant/users", json!({"merchant_id": mid})),
        ("/adminapi/admin/merchant/addUser", json!({"merchant_id": mid, "username": "extra"})),
        ("/adminapi/admin/merchant/resetPassword", json!({"user_id": owner_id})),
    ];
    for (path, body) in calls {
        let answer = app.post_as(&token, path, body).await;
        assert_eq!(answer.code(), 40300, "{path}: {:?}", answer.body);
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM merchants WHERE disabled_at IS NOT NULL OR id = $1 + 1", mid).await, 0);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM users WHERE merchant_id = $1", mid).await, 1);
}
