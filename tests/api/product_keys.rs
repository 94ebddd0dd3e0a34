//! A product key typed in lower case names the same product wherever a person or a
//! merchant's system types one: console order, price call, batch line, open API, quotes.

use crate::helpers::{ADMIN, Backend, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, PRICE, config, merchant_with_key, send};
use serde_json::json;

on_both_backends!(a_lower_case_product_key_names_the_product);

async fn a_lower_case_product_key_names_the_product(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, token, key) = merchant_with_key(&app, "keys").await;
    let price = app.post_as(&token, "/adminapi/order/price", json!({"product_key": "mobile-direct-10"})).await;
    let offers = price.data()["offers"].as_array().cloned().unwrap_or_default();
    assert_eq!(offers.len(), 1, "{:?}", price.body);
    assert_eq!(
        (offers[0]["product_key"].as_str(), offers[0]["price_fen"].as_i64()),
        (Some("MOBILE-DIRECT-10"), Some(PRICE))
    );

    let body = json!({"account": "13800138000", "product_key": " mobile-direct-10", "merchant_order_id": "LOW-1"});
    let added = app.add_order(&token, body.clone()).await;
    assert_eq!((added.code(), added.data()["price_fen"].as_i64()), (20000, Some(PRICE)), "{:?}", added.body);
    assert_eq!(added.data()["order"]["product_key"], "MOBILE-DIRECT-10");
    // Sent again, it is the same request: the order placed, nothing charged twice.
    let again = app.add_order(&token, body).await;
    assert_eq!((again.code(), &again.data()["order"]["order_no"]), (20000, &added.data()["order"]["order_no"]));

    let text = "13900139000,mobile-direct-10,LOW-2\n13700137000,Mobile-Direct-10,LOW-3";
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.data()["valid_rows"], 2, "{:?}", preview.body);

    let order = json!({"merchant_order_id": "LOW-4", "product_key": "mobile-direct-10", "account": "13800138000"});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &order)).await;
    assert_eq!((placed.code(), placed.data()["price_fen"].as_i64()), (20000, Some(PRICE)), "{:?}", placed.body);
    let (repeated, _) = send(&app, &key, Call::post("/openapi/v1/orders", &order)).await;
    assert_eq!(
        (repeated.code(), &repeated.data()["order_no"]),
        (20000, &placed.data()["order_no"]),
        "{:?}",
        repeated.body
    );
    assert_eq!(app.figures(mid).await.0, 98 * PRICE);

    let quotes = app.post_as(&token, "/adminapi/quote/list", json!({"product_key": "mobile-direct-10"})).await;
    assert_eq!(quotes.data()["list"].as_array().map(Vec::len), Some(1), "{:?}", quotes.body);
    let admin = app.login(ADMIN).await;
    let save = json!({"merchant_id": mid, "product_key": "mobile-direct-20", "price_fen": 1960, "status": 1});
    let saved = app.post_as(&admin, "/adminapi/admin/quote/save", save).await;
    assert_eq!(
        (saved.code(), saved.data()["product_key"].as_str()),
        (20000, Some("MOBILE-DIRECT-20")),
        "{:?}",
        saved.body
    );
}
