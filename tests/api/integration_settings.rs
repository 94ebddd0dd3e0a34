//! Integration settings (notify URL, IP whitelist) saved on their own (issue 15 point 3).

use crate::helpers::{Backend, MERCHANT, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    integration_settings_save_without_the_profile,
    integration_settings_follow_the_profile_rules_and_save_nothing_when_invalid,
    the_profile_form_keeps_the_integration_settings_it_does_not_send,
);

const CHANGE_INTEGRATION: &str = "/adminapi/merchant/changeIntegration";

async fn profile(app: &TestApp, token: &str) -> Value {
    app.post_as(token, "/adminapi/merchant/profile", json!({})).await.data().clone()
}

async fn integration_settings_save_without_the_profile(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    // The demo merchant has no email, country or region: the profile form would refuse.
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changeInfo", json!({})).await.code(), 40000);
    let saved = app
        .post_as(
            &token,
            CHANGE_INTEGRATION,
            json!({ "notify_url": " https://shop.example.com/notify ", "ip_whitelist": "10.1.2.3/8, 192.168.1.10,192.168.1.10" }),
        )
        .await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!(saved.data()["notify_url"], "https://shop.example.com/notify");
    assert_eq!(saved.data()["ip_whitelist"], "10.0.0.0/8,192.168.1.10");
    let stored = profile(&app, &token).await;
    assert_eq!(stored["notify_url"], "https://shop.example.com/notify");
    assert_eq!(stored["ip_whitelist"], "10.0.0.0/8,192.168.1.10");
    // Only those two fields: nothing else of the profile changed.
    assert_eq!(stored["email"], "");
    // Both empty clears them.
    let cleared = app.post_as(&token, CHANGE_INTEGRATION, json!({ "notify_url": "", "ip_whitelist": "" })).await;
    assert_eq!(cleared.code(), 20000);
    assert_eq!((cleared.data()["notify_url"].as_str(), cleared.data()["ip_whitelist"].as_str()), (Some(""), Some("")));
    // Audited under its own action.
    let audited: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'integration_changed'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(audited, 2);
}

async fn integration_settings_follow_the_profile_rules_and_save_nothing_when_invalid(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let good = json!({ "notify_url": "https://shop.example.com/notify", "ip_whitelist": "1.2.3.4" });
    assert_eq!(app.post_as(&token, CHANGE_INTEGRATION, good).await.code(), 20000);
    let before = profile(&app, &token).await;
    let cases = [
        (
            json!({ "notify_url": "ftp://x.example.com", "ip_whitelist": "" }),
            "notify_url",
            "profile.notify_url.invalid",
        ),
        (json!({ "notify_url": "javascript:alert(1)" }), "notify_url", "profile.notify_url.invalid"),
        (
            json!({ "notify_url": "", "ip_whitelist": "1.2.3.4，5.6.7.8" }),
            "ip_whitelist",
            "profile.ip_whitelist.chinese_comma",
        ),
        (json!({ "notify_url": "", "ip_whitelist": "1.2.3.4, bad" }), "ip_whitelist", "profile.ip_whitelist.invalid"),
        (json!({ "notify_url": format!("https://e.com/{}", "a".repeat(600)) }), "notify_url", "field.too_long"),
    ];
    for (body, field, key) in cases {
        let answer = app.post_as(&token, CHANGE_INTEGRATION, body.clone()).await;
        // A malformed URL or whitelist matches the document's schema (a string): 422.
        assert_eq!((answer.status.as_u16(), answer.code()), (422, 40000), "{body}");
        assert_eq!(answer.data()["keys"][field], key, "{body}");
    }
    // Both bad: both named in one answer, in the caller's language.
    let both = app
        .send(
            app.client
                .post(app.url(CHANGE_INTEGRATION))
                .bearer_auth(&token)
                .header("accept-language", "zh-CN")
                .json(&json!({ "notify_url": "nope", "ip_whitelist": "999.1.1.1" })),
        )
        .await;
    assert!(both.data()["fields"]["notify_url"].is_string() && both.data()["fields"]["ip_whitelist"].is_string());
    // Wrong types and malformed bodies are validation errors, never a 500.
    assert_eq!(app.post_as(&token, CHANGE_INTEGRATION, json!({ "notify_url": 5 })).await.code(), 40000);
    assert_eq!(app.post_as(&token, CHANGE_INTEGRATION, json!([1])).await.code(), 40000);
    assert_eq!(profile(&app, &token).await, before);
    // Without a session: refused.
    assert_eq!(app.post(CHANGE_INTEGRATION, json!({})).await.code(), 50008);
}

async fn the_profile_form_keeps_the_integration_settings_it_does_not_send(backend: Backend) {
    let app = spawn_app(backend).await;
    let token = app.login(MERCHANT).await;
    let integration = json!({ "notify_url": "https://shop.example.com/notify", "ip_whitelist": "1.2.3.4" });
    assert_eq!(app.post_as(&token, CHANGE_INTEGRATION, integration).await.code(), 20000);
    let form =
        json!({ "nickname": "演示商户", "email": "shop@example.com", "country_region": "中国", "area": "110000" });
    assert_eq!(app.post_as(&token, "/adminapi/merchant/changeInfo", form).await.code(), 20000);
    let stored = profile(&app, &token).await;
    assert_eq!(stored["notify_url"], "https://shop.example.com/notify");
    assert_eq!(stored["ip_whitelist"], "1.2.3.4");
}
