//! One reading of a phone number everywhere: the add-order form, the price call, batches,
//! the open API and the list filter take the same spellings (full-width digits, spaces,
//! dashes, a +86/0086/86 prefix) and all mean the 11 digits stored.

use crate::helpers::{Backend, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use serde_json::json;

on_both_backends!(
    the_console_reads_every_spelling_as_the_stored_number,
    the_list_filter_finds_a_number_however_it_is_written,
    batches_and_the_open_api_read_the_same_spellings,
);

const FULL_WIDTH: &str = "１３９００１３９０００";

async fn the_console_reads_every_spelling_as_the_stored_number(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    for (index, account) in
        ["+86 139 0013 9000", "8613900139000", FULL_WIDTH, "＋８６\u{3000}139－0013－9000"].into_iter().enumerate()
    {
        let price = app.post_as(&token, "/adminapi/order/price", json!({"account": account})).await;
        assert_eq!((price.code(), &price.data()["account_carrier"]), (20000, &json!("mobile")), "{account}");
        let body =
            json!({"account": account, "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("S{index}")});
        let placed = app.add_order(&token, body).await;
        assert_eq!(placed.code(), 20000, "{account}: {:?}", placed.body);
        assert_eq!(placed.data()["order"]["account"], "13900139000", "{account}");
    }
    let stored = "SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND account = '13900139000'";
    assert_eq!(app.scalar(stored, mid).await, 4);
    for refused in ["+852 1390 0139", "+86 10 1234 5678", "139.0013.9000"] {
        let body = json!({"account": refused, "product_key": "MOBILE-DIRECT-10"});
        let answer = app.add_order(&token, body).await;
        assert_eq!(answer.code(), 40000, "{refused}");
        assert_eq!(answer.data()["keys"]["account"], "order.account.invalid", "{refused}");
    }
}

async fn the_list_filter_finds_a_number_however_it_is_written(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    for account in ["13800138666", "13900139000"] {
        let placed = app.add_order(&token, json!({"account": account, "product_key": "MOBILE-DIRECT-10"})).await;
        assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    }
    for filter in ["138 0013 8666", "+86 138-0013-8666", "１３８００１３８６６６", "13800138666"] {
        let listed = app.post_as(&token, "/adminapi/order/list", json!({"account": filter})).await;
        assert_eq!(listed.code(), 20000, "{filter}: {:?}", listed.body);
        let accounts: Vec<&str> =
            listed.data()["list"].as_array().unwrap().iter().filter_map(|order| order["account"].as_str()).collect();
        assert_eq!(accounts, ["13800138666"], "{filter}");
    }
    // Text that is no phone number is matched as given.
    let other = app.post_as(&token, "/adminapi/order/list", json!({"account": "1380013866"})).await;
    assert_eq!(other.data()["list"].as_array().map(Vec::len), Some(0));
}

async fn batches_and_the_open_api_read_the_same_spellings(backend: Backend) {
    let app = spawn_app_with(backend, crate::open_api::config).await;
    let (mid, token, key) = merchant_with_key(&app, "api1").await;
    let text = format!(
        "account,product_key,merchant_order_id\n{FULL_WIDTH},MOBILE-DIRECT-10,B-1\n\
         +86 139 0013 9001,MOBILE-DIRECT-10,B-2\n0086-139-0013-9002,MOBILE-DIRECT-10,B-3\n"
    );
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "spellings.csv"})).await;
    assert_eq!((preview.code(), &preview.data()["valid_rows"]), (20000, &json!(3)), "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let accounts: Vec<String> = app.batch_lines(batch_id).await.into_iter().map(|line| line.1).collect();
    assert_eq!(accounts, ["13900139000", "13900139001", "13900139002"]);

    let body = json!({"merchant_order_id": "API-1", "product_key": "MOBILE-DIRECT-10", "account": FULL_WIDTH});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    assert_eq!(placed.data()["account"], "13900139000");
    // The same order sent again written another way is the same request, not a reuse.
    let again =
        json!({"merchant_order_id": "API-1", "product_key": "MOBILE-DIRECT-10", "account": "+86 139 0013 9000"});
    let (replayed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &again)).await;
    assert_eq!(replayed.code(), 20000, "{:?}", replayed.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
}
