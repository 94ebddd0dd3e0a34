//! The audit log reads in the reader's language: details are data rendered when read (rows
//! written before keep their text), and a channel's switch is listed against the channel.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    audit_details_are_read_in_the_readers_language_against_their_target,
    merchants_products_and_passwords_are_audited_in_words
);

async fn rows(app: &TestApp, token: &str, language: &str, action: &str) -> Vec<Value> {
    let request = app
        .client
        .post(app.url("/adminapi/admin/audit/list"))
        .bearer_auth(token)
        .header("accept-language", language)
        .json(&json!({ "action": action }));
    let answer = app.send(request).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data()["list"].as_array().unwrap().clone()
}

fn details(rows: &[Value]) -> Vec<String> {
    rows.iter().map(|row| row["detail"].as_str().unwrap().to_string()).collect()
}

async fn audit_details_are_read_in_the_readers_language_against_their_target(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let (channel, name): (i64, String) = sqlx::query_as("SELECT id, name FROM channels WHERE code = 'sandbox'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    for enabled in [false, true] {
        let switched =
            app.post_as(&admin, "/adminapi/admin/channel/enable", json!({"id": channel, "enabled": enabled})).await;
        assert_eq!(switched.code(), 20000, "{:?}", switched.body);
    }
    let topped = json!({"merchant_id": 10001, "amount_fen": 9_920, "remark": "六月"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/merchant/topup", topped).await.code(), 20000);
    let rule = json!({"merchant_id": 10001, "carrier": "mobile", "rate_bp": 9920, "rounding": "half_up"});
    let repriced = app.post_as(&admin, "/adminapi/admin/quote/reprice/apply", rule).await;
    assert_eq!(repriced.code(), 20000, "{:?}", repriced.body);
    // A row written before details were data keeps its text.
    sqlx::query(
        "INSERT INTO audit_events (user_id, action, target, detail, client_address, created_at)
         VALUES (NULL, 'channel_enabled', '', 'channel 2 enabled=false', '', 1)",
    )
    .execute(&app.state.db.pool)
    .await
    .unwrap();

    // The switch: the actor is the administrator, the target the channel, by name.
    let chinese = rows(&app, &admin, "zh-CN", "channel_enabled").await;
    assert_eq!(chinese.len(), 3, "{chinese:?}");
    for row in &chinese[..2] {
        assert_eq!(row["actor_name"], "admin");
        assert_eq!(row["target"], format!("channel:{channel}"));
        assert_eq!((row["target_type"].as_str(), row["target_id"].as_i64()), (Some("channel"), Some(channel)));
        assert_eq!(row["target_name"], name.as_str());
    }
    assert_eq!(details(&chinese), ["已启用，恢复接单", "已停用，不再接新订单", "channel 2 enabled=false"]);
    let english = rows(&app, &admin, "en-US", "channel_enabled").await;
    assert_eq!(details(&english)[..2], ["Switched on: takes orders again", "Switched off: takes no new orders"]);

    // Money and prices: amounts in yuan and rates in percent, no developer words in Chinese.
    let money = details(&rows(&app, &admin, "zh-CN", "money_top_up").await);
    assert_eq!(money, ["金额 ¥99.20，备注：六月"]);
    let repricing = details(&rows(&app, &admin, "zh-CN", "quotes_repriced").await);
    assert_eq!(repricing.len(), 1);
    assert!(repricing[0].starts_with("中国移动、全部商品按面值的 99.20% 定价（四舍五入到分）"), "{repricing:?}");
    for text in money.iter().chain(&repricing) {
        for developer in ["fen", "bp", "HalfUp", "rate", "rounding", "merchant", "carrier"] {
            assert!(!text.contains(developer), "{developer} in {text}");
        }
    }
    let english = details(&rows(&app, &admin, "en-US", "quotes_repriced").await);
    assert!(english[0].starts_with("China Mobile, all products priced at 99.20% of face value"), "{english:?}");
}

/// Words of a developer that no detail may show a reader.
const DEVELOPER_WORDS: [&str; 5] = ["->", " fen", "status ", "with user", "\""];
/// English words that the Chinese details used to hold.
const ENGLISH_WORDS: [&str; 8] = ["merchant", "user", "name", "face", "temporary", "password", "sessions", "product"];

async fn merchants_products_and_passwords_are_audited_in_words(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let created =
        app.post_as(&admin, "/adminapi/admin/merchant/create", json!({"name": "华南店", "username": "south"})).await;
    assert_eq!(created.code(), 20000, "{:?}", created.body);
    let mid = created.data()["merchant_id"].as_i64().unwrap();
    let renamed = json!({"merchant_id": mid, "name": "华南总店"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/merchant/update", renamed).await.code(), 20000);
    let disabled = app.post_as(&admin, "/adminapi/admin/merchant/disable", json!({"merchant_id": mid})).await;
    assert_eq!(disabled.code(), 20000, "{:?}", disabled.body);
    let owner: i64 = app.scalar("SELECT id FROM users WHERE merchant_id = $1", mid).await;
    let reset = app.post_as(&admin, "/adminapi/admin/merchant/resetPassword", json!({"user_id": owner})).await;
    assert_eq!(reset.code(), 20000, "{:?}", reset.body);
    let product = json!({"product_key": "MOBILE-DIRECT-7", "name": "移动 7 元", "carrier": "mobile",
                         "product_kind": "direct", "face_value_fen": 700});
    let made = app.post_as(&admin, "/adminapi/admin/product/create", product.clone()).await;
    assert_eq!(made.code(), 20000, "{:?}", made.body);
    let mut edit = product;
    (edit["id"], edit["face_value_fen"]) = (made.data().clone(), json!(800));
    assert_eq!(app.post_as(&admin, "/adminapi/admin/product/update", edit).await.code(), 20000);

    let expected = [
        (
            "merchant_created",
            format!("商户 {mid}「华南店」，登录用户 south"),
            format!("Merchant {mid} “华南店”, sign-in user south"),
        ),
        ("merchant_updated", "名称「华南店」→「华南总店」".to_string(), "Name “华南店” → “华南总店”".to_string()),
        ("merchant_disabled", "已停用，结束 0 个登录会话".to_string(), "Disabled, 0 sessions ended".to_string()),
        (
            "password_reset",
            "为 south 设置临时密码，下次登录须修改".to_string(),
            "Temporary password set for south, to be changed at the next sign-in".to_string(),
        ),
        ("product_created", "商品 MOBILE-DIRECT-7「移动 7 元」，面值 ¥7.00，上架".to_string(), String::new()),
        ("product_updated", "商品 MOBILE-DIRECT-7：面值 ¥7.00 → ¥8.00".to_string(), String::new()),
    ];
    for (action, chinese, english) in expected {
        let zh = details(&rows(&app, &admin, "zh-CN", action).await);
        let en = details(&rows(&app, &admin, "en-US", action).await);
        assert_eq!(zh, [chinese], "{action}");
        if !english.is_empty() {
            assert_eq!(en, [english], "{action}");
        }
        for text in zh.iter().chain(&en) {
            for developer in DEVELOPER_WORDS {
                assert!(!text.contains(developer), "{developer} in {text} ({action})");
            }
        }
        for word in ENGLISH_WORDS {
            assert!(!zh[0].to_lowercase().contains(word), "{word} in {} ({action})", zh[0]);
        }
    }
}
