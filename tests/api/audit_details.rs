//! The audit log reads in the reader's language: details are data rendered when read (rows
//! written before keep their text), and a channel's switch is listed against the channel.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(audit_details_are_read_in_the_readers_language_against_their_target);

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
