//! Number portability (携号转网): a supplier's answer that the number left the product's
//! carrier fails the order with its own reason (in the reader's language), is recorded for
//! the number, and decides its later orders: that carrier's products are refused (in the
//! console, batches and the open API's answer), the other carriers' taken without the
//! merchant's confirmation.

use crate::channel_support::{PRICE, channels_config, supplier_channel, without_sandbox};
use crate::helpers::{Backend, spawn_app_with};
use crate::on_both_backends;
use backoffice::supply::simulator::SimConfig;
use serde_json::json;

on_both_backends!(a_ported_number_fails_once_and_is_ordered_for_its_new_carrier_after);

/// A China Mobile segment the supplier says has moved away.
const MOVED: &str = "13700137000";

async fn a_ported_number_fails_once_and_is_ordered_for_its_new_carrier_after(backend: Backend) {
    let app = spawn_app_with(backend, channels_config).await;
    without_sandbox(&app).await;
    let config = SimConfig { ported_accounts: vec![MOVED.to_string()], ..SimConfig::default() };
    let (channel_id, _simulator) = supplier_channel(&app, "sim", 10, 960, config).await;
    let (mid, token) = app.merchant("porter").await;
    app.fund(mid, 10 * PRICE, 0).await;

    // Before any answer the number is its segment's: mobile products only.
    let before = app.post_as(&token, "/adminapi/order/price", json!({"account": MOVED})).await;
    assert_eq!(before.data()["ported_from"], json!(null), "{:?}", before.body);

    let placed = app.add_order(&token, json!({"account": MOVED, "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let order_id = placed.data()["order"]["id"].as_i64().unwrap();
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 3", order_id, 20).await;
    assert_eq!(app.figures(mid).await.0, 10 * PRICE, "refunded");
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": order_id})).await;
    let order = &detail.data()["order"];
    assert_eq!(order["failure_reason_code"], "order.failure.number_ported", "{order}");
    assert!(order["failure_reason"].as_str().unwrap().contains("moved to another carrier"), "{order}");
    let recorded = "SELECT COUNT(*) FROM number_ports WHERE account = '13700137000' AND from_carrier = 1
                    AND channel_id = $1";
    assert_eq!(app.scalar(recorded, channel_id).await, 1);

    // A mobile product again: refused before anything is charged, even when confirmed.
    for allow_ported in [false, true] {
        let body = json!({"account": MOVED, "product_key": "MOBILE-DIRECT-10", "allow_ported": allow_ported});
        let refused = app.add_order(&token, body).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "{:?}", refused.body);
        assert_eq!(refused.data()["keys"]["account"], "order.account.ported", "{:?}", refused.body);
        assert!(refused.msg().contains("China Mobile"), "{}", refused.msg());
    }
    assert_eq!(app.figures(mid).await.0, 10 * PRICE, "nothing charged");
    let request = app
        .client
        .post(app.url("/adminapi/order/add"))
        .bearer_auth(&token)
        .header("accept-language", "zh-CN")
        .json(&json!({"account": MOVED, "product_key": "MOBILE-DIRECT-10"}));
    let chinese = app.send(request).await;
    assert!(chinese.msg().contains("携号转网") && chinese.msg().contains("中国移动"), "{}", chinese.msg());

    // The add-order form is offered the other carriers' products, and a batch line is marked.
    let after = app.post_as(&token, "/adminapi/order/price", json!({"account": MOVED})).await;
    assert_eq!(after.data()["ported_from"], "mobile", "{:?}", after.body);
    let carriers: Vec<String> = after.data()["offers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|offer| offer["product_kind"] == "direct")
        .map(|offer| offer["carrier"].as_str().unwrap().to_string())
        .collect();
    assert!(!carriers.is_empty() && !carriers.contains(&"mobile".to_string()), "{carriers:?}");
    let text = format!("{MOVED},MOBILE-DIRECT-10\n{MOVED},UNICOM-DIRECT-10");
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.data()["valid_rows"], 1, "{:?}", preview.body);
    assert_eq!(preview.data()["errors"][0]["reason_key"], "order.account.ported", "{:?}", preview.body);

    // Its new carrier's product is taken without the ported confirmation.
    let unicom = app.add_order(&token, json!({"account": MOVED, "product_key": "UNICOM-DIRECT-10"})).await;
    assert_eq!(unicom.code(), 20000, "{:?}", unicom.body);
}
