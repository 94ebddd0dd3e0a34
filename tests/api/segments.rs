//! Number segments: the shipped table is loaded at first start, the console and the open
//! API look a number up in it, and an order stores its number's province and city.

use crate::helpers::{Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use serde_json::json;

on_both_backends!(
    a_number_is_looked_up_in_the_shipped_table,
    a_placed_order_carries_its_province_and_city,
    the_open_api_looks_numbers_up,
);

async fn segments_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| {
        crate::open_api::config(config);
        config.default_segments = true;
        config.worker.enabled = false;
    })
    .await
}

async fn a_number_is_looked_up_in_the_shipped_table(backend: Backend) {
    let app = segments_app(backend).await;
    let rows = app.scalar("SELECT COUNT(*) FROM number_segments WHERE $1 = $1", 0).await;
    assert!(rows > 300_000, "{rows} rows loaded");
    let (_, token) = app.merchant("buyer").await;
    // Full-width digits and +86 read as everywhere else.
    for phone in ["13800138000", "+86 138 0013 8000", "１３８００１３８０００"] {
        let found = app.post_as(&token, "/adminapi/segment/lookup", json!({"phone": phone})).await;
        assert_eq!(found.code(), 20000, "{phone}: {:?}", found.body);
        let data = found.data();
        assert_eq!(
            (&data["phone"], &data["prefix"], &data["province"], &data["city"], &data["carrier"]),
            (&json!("13800138000"), &json!("1380013"), &json!("北京"), &json!("北京"), &json!("mobile")),
            "{phone}"
        );
        assert_eq!((&data["province_code"], &data["province_en"]), (&json!("110000"), &json!("Beijing")));
    }
    // The add-order form asks from the seventh digit on.
    let typed = app.post_as(&token, "/adminapi/segment/lookup", json!({"phone": "138 0013"})).await;
    assert_eq!((typed.code(), &typed.data()["city"]), (20000, &json!("北京")), "{:?}", typed.body);
    assert_eq!(typed.data()["phone"], "1380013");
    let admin = app.login(crate::helpers::ADMIN).await;
    let found = app.post_as(&admin, "/adminapi/segment/lookup", json!({"phone": "13800138000"})).await;
    assert_eq!(found.code(), 20000, "administrators may look up too");

    // Fewer than seven digits, an unallocated segment, twelve digits, not digits.
    for phone in ["138001", "1200000", "138001380001", "abcdefg"] {
        let bad = app.post_as(&token, "/adminapi/segment/lookup", json!({"phone": phone})).await;
        assert_eq!((bad.status.as_u16(), bad.code()), (422, 40000), "{phone}: {:?}", bad.body);
        assert_eq!(bad.data()["keys"]["phone"], "segment.phone_invalid", "{phone}");
    }
    // A valid number whose prefix the table lacks (removed here to make one).
    sqlx::query("DELETE FROM number_segments WHERE prefix = '1380013'").execute(&app.state.db.pool).await.unwrap();
    app.state.segments.reload(&app.state.db).await.unwrap();
    let unknown = app.post_as(&token, "/adminapi/segment/lookup", json!({"phone": "13800138000"})).await;
    assert_eq!((unknown.status.as_u16(), unknown.code()), (404, 40400), "{:?}", unknown.body);
    assert!(unknown.msg().contains("1380013"), "{}", unknown.msg());
    let anonymous = app.post("/adminapi/segment/lookup", json!({"phone": "13800138000"})).await;
    assert_eq!(anonymous.status.as_u16(), 401);
}

async fn a_placed_order_carries_its_province_and_city(backend: Backend) {
    let app = segments_app(backend).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let id = placed.data()["order"]["id"].as_i64().unwrap();
    let listed = app.post_as(&token, "/adminapi/order/list", json!({})).await;
    let order = &listed.data()["list"][0];
    assert_eq!((&order["province"], &order["city"]), (&json!("北京"), &json!("北京")), "{:?}", listed.body);
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": id})).await;
    assert_eq!(detail.code(), 20000, "{:?}", detail.body);
    let order = &detail.data()["order"];
    assert_eq!((&order["province"], &order["city"]), (&json!("北京"), &json!("北京")), "{:?}", detail.body);
    // With the English names the console shows in English (orders store the Chinese ones).
    assert_eq!((&order["province_en"], &order["city_en"]), (&json!("Beijing"), &json!("Beijing")), "{:?}", detail.body);

    // A batch's orders get theirs too; a card order without a number has none.
    let text = "account,product_key,merchant_order_id\n13800138001,MOBILE-DIRECT-10,B-1\n";
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "b.csv"})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let submitted =
        app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": preview.data()["batch_id"]})).await;
    assert_eq!(submitted.code(), 20000, "{:?}", submitted.body);
    let stored = "SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND province = '北京' AND city = '北京'";
    assert_eq!(app.scalar(stored, mid).await, 2);
}

async fn the_open_api_looks_numbers_up(backend: Backend) {
    let app = segments_app(backend).await;
    let (_, _, key) = merchant_with_key(&app, "api1").await;
    let (found, signed) = send(&app, &key, Call::get("/openapi/v1/segments/+8613800138000")).await;
    assert!(signed);
    assert_eq!(found.code(), 20000, "{:?}", found.body);
    assert_eq!((&found.data()["province"], &found.data()["carrier"]), (&json!("北京"), &json!("mobile")));
    let body = json!({"merchant_order_id": "API-1", "product_key": "MOBILE-DIRECT-10", "account": "13800138000"});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let (order, _) = send(&app, &key, Call::get("/openapi/v1/orders/API-1")).await;
    assert_eq!(
        (&order.data()["province"], &order.data()["city"]),
        (&json!("北京"), &json!("北京")),
        "{:?}",
        order.body
    );
    let (bad, _) = send(&app, &key, Call::get("/openapi/v1/segments/12345")).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (422, 40000), "{:?}", bad.body);
    assert_eq!(bad.data()["keys"]["phone"], "segment.phone_invalid");
}
