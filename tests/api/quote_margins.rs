//! Repricing that loses money is named before it is applied: the preview lists every new
//! price at or below the cheapest channel's cost or under the minimum margin, with its
//! figures; applying them needs the preview's acknowledgement, and a change of costs
//! between preview and apply is caught. The routing preview sets a merchant's price
//! against each channel's cost.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_repricing_at_a_loss_is_named_and_applied_only_when_acknowledged,
    the_routing_preview_flags_a_price_at_or_below_a_channels_cost
);

const PREVIEW: &str = "/adminapi/admin/quote/reprice/preview";
const APPLY: &str = "/adminapi/admin/quote/reprice/apply";

async fn price(app: &TestApp, mid: i64, key: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT q.price_fen FROM quotes q JOIN products p ON p.id = q.product_id WHERE q.merchant_id = $1 AND p.product_key = $2",
    )
    .bind(mid)
    .bind(key)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

fn warning<'a>(preview: &'a Value, key: &str) -> &'a Value {
    let warnings = preview["warnings"].as_array().expect("warnings");
    warnings.iter().find(|warning| warning["product_key"] == key).unwrap_or_else(|| panic!("{key} in {warnings:?}"))
}

async fn set_cost(app: &TestApp, key: &str, cost_fen: i64) {
    sqlx::query(
        "UPDATE channel_products SET cost_fen = $1 WHERE product_id = (SELECT id FROM products WHERE product_key = $2)",
    )
    .bind(cost_fen)
    .bind(key)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
}

async fn a_repricing_at_a_loss_is_named_and_applied_only_when_acknowledged(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("margins").await;
    let audits = "SELECT COUNT(*) FROM audit_events WHERE action = 'quotes_repriced' AND target = 'merchant:' || $1";

    // The default prices (98.5 %) keep 0.5 % over the sandbox's 98 %: nothing to warn of.
    let usual = json!({"merchant_id": mid, "carrier": "mobile", "product_kind": "direct", "rate_bp": 9_850});
    let fine = app.post_as(&admin, PREVIEW, usual).await;
    assert_eq!(fine.code(), 20000, "{:?}", fine.body);
    assert_eq!(fine.data()["warnings"], json!([]));
    assert_eq!(fine.data()["acknowledgement"], Value::Null);
    assert_eq!(fine.data()["min_margin_bp"], 50);

    // 50 %: ¥50 face value for ¥25 against a ¥49 cost.
    let half = json!({"merchant_id": mid, "carrier": "mobile", "product_kind": "direct", "rate_bp": 5_000});
    let preview = app.post_as(&admin, PREVIEW, half.clone()).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let fifty = warning(preview.data(), "MOBILE-DIRECT-50");
    assert_eq!(fifty["new_price_fen"], 2_500);
    assert_eq!(fifty["cheapest_cost_fen"], 4_900);
    assert_eq!(fifty["margin_fen"], -2_400);
    assert_eq!(fifty["min_margin_fen"], 25);
    assert_eq!(fifty["problem"], "below_cost");
    assert_eq!(preview.data()["warnings"].as_array().unwrap().len(), 6, "every China Mobile direct product");
    let row = preview.data()["rows"].as_array().unwrap().iter().find(|row| row["product_key"] == "MOBILE-DIRECT-50");
    assert_eq!(row.unwrap()["cheapest_cost_fen"], 4_900);
    let acknowledgement = preview.data()["acknowledgement"].as_str().expect("an acknowledgement").to_string();

    // Without the acknowledgement: refused, the products named, nothing changed.
    let refused = app.post_as(&admin, APPLY, half.clone()).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (409, 40900), "{:?}", refused.body);
    assert_eq!(refused.data()["keys"]["acknowledge_warnings"], "quote.rule.below_margin");
    assert!(refused.msg().contains("MOBILE-DIRECT-10") && refused.msg().contains("+1"), "{}", refused.msg());
    assert!(refused.msg().starts_with("6 prices are at or below the cheapest channel's cost"), "{}", refused.msg());
    let chinese = app
        .send(
            app.client
                .post(app.url(APPLY))
                .bearer_auth(&admin)
                .header("token", &admin)
                .header("accept-language", "zh-CN")
                .json(&half),
        )
        .await;
    assert!(chinese.msg().starts_with("有 6 个价格不高于最低渠道成本"), "{}", chinese.msg());
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-50").await, 4_925);
    assert_eq!(app.scalar(audits, mid).await, 0);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM quote_price_history WHERE merchant_id = $1", mid).await, 0);

    // A cost moved between preview and apply: the acknowledgement no longer holds.
    set_cost(&app, "MOBILE-DIRECT-50", 4_800).await;
    let mut acknowledged = half.clone();
    acknowledged["acknowledge_warnings"] = json!(acknowledgement);
    let stale = app.post_as(&admin, APPLY, acknowledged).await;
    assert_eq!(stale.code(), 40900, "{:?}", stale.body);
    assert_eq!(stale.data()["keys"]["acknowledge_warnings"], "quote.rule.warnings_changed");
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-50").await, 4_925);

    // Previewed again and acknowledged: applied, and the audit names what was confirmed.
    let again = app.post_as(&admin, PREVIEW, half.clone()).await;
    assert_eq!(warning(again.data(), "MOBILE-DIRECT-50")["cheapest_cost_fen"], 4_800);
    let mut acknowledged = half.clone();
    acknowledged["acknowledge_warnings"] = again.data()["acknowledgement"].clone();
    let applied = app.post_as(&admin, APPLY, acknowledged).await;
    assert_eq!(applied.code(), 20000, "{:?}", applied.body);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-50").await, 2_500);
    let confirmed = app
        .scalar(
            "SELECT COUNT(*) FROM audit_events WHERE action = 'quotes_repriced' AND target = 'merchant:' || $1
             AND params LIKE '%\"acknowledged\":[%[\"MOBILE-DIRECT-50\",2500,4800]%'",
            mid,
        )
        .await;
    assert_eq!(confirmed, 1);

    // Above the cost by less than 0.5 %: under the margin, acknowledged the same way.
    let thin = json!({"merchant_id": mid, "carrier": "mobile", "product_kind": "direct", "rate_bp": 9_820});
    let preview = app.post_as(&admin, PREVIEW, thin.clone()).await;
    let ten = warning(preview.data(), "MOBILE-DIRECT-10");
    assert_eq!((ten["new_price_fen"].as_i64(), ten["margin_fen"].as_i64()), (Some(982), Some(2)));
    assert_eq!(ten["problem"], "under_margin");
    assert_eq!(app.post_as(&admin, APPLY, thin).await.code(), 40900);
    assert_eq!(price(&app, mid, "MOBILE-DIRECT-10").await, 500);
}

async fn the_routing_preview_flags_a_price_at_or_below_a_channels_cost(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("routingprice").await;
    let routing = "/adminapi/admin/channel/routing";
    set_cost(&app, "MOBILE-DIRECT-50", 4_925).await;

    let flagged = app.post_as(&admin, routing, json!({"product_key": "MOBILE-DIRECT-50", "merchant_id": mid})).await;
    assert_eq!(flagged.code(), 20000, "{:?}", flagged.body);
    let sandbox = &flagged.data()[0];
    assert_eq!((sandbox["cost_fen"].as_i64(), sandbox["merchant_price_fen"].as_i64()), (Some(4_925), Some(4_925)));
    assert_eq!(sandbox["margin_fen"], 0);
    assert_eq!(sandbox["at_or_below_cost"], true);

    let fine = app.post_as(&admin, routing, json!({"product_key": "MOBILE-DIRECT-10", "merchant_id": mid})).await;
    assert_eq!(
        (fine.data()[0]["margin_fen"].as_i64(), fine.data()[0]["at_or_below_cost"].as_bool()),
        (Some(5), Some(false))
    );
    // Without a merchant there is no price to compare.
    let plain = app.post_as(&admin, routing, json!({"product_key": "MOBILE-DIRECT-50"})).await;
    assert_eq!(
        (plain.data()[0]["merchant_price_fen"].clone(), plain.data()[0]["at_or_below_cost"].clone()),
        (Value::Null, json!(false))
    );
    let missing =
        app.post_as(&admin, routing, json!({"product_key": "MOBILE-DIRECT-50", "merchant_id": 999_999})).await;
    assert_eq!(missing.code(), 40400);
    // Merchants never see channels.
    let merchant = app.post_as(&token, routing, json!({"product_key": "MOBILE-DIRECT-50", "merchant_id": mid})).await;
    assert_eq!(merchant.code(), 40300);
}
