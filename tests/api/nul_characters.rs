//! U+0000 is refused at the edge on both engines: PostgreSQL cannot store it, so SQLite
//! must not keep what the other engine fails on. Every JSON body, query string and batch
//! file answers 40000 naming where the character was, and nothing is stored.

use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use serde_json::{Value, json};

on_both_backends!(a_nul_character_is_refused_everywhere_naming_its_field, a_nul_in_a_batch_file_names_its_line);

fn assert_refused(answer: &Answer, field: &str, what: &str) {
    assert_eq!((answer.status.as_u16(), answer.code()), (400, 40000), "{what}: {:?}", answer.body);
    assert_eq!(answer.data()["keys"][field], "request.nul_character", "{what}: {:?}", answer.body);
}

async fn get(app: &TestApp, token: &str, path_and_query: &str) -> Answer {
    app.send(app.client.get(app.url(path_and_query)).bearer_auth(token)).await
}

async fn a_nul_character_is_refused_everywhere_naming_its_field(backend: Backend) {
    let app = spawn_app_with(backend, crate::open_api::config).await;
    let (mid, token, key) = merchant_with_key(&app, "nul1").await;
    let admin = app.login(ADMIN).await;
    let before = app.figures(mid).await;

    let sign_in = app.login_answer("mer\u{0}chant", "Merchant123").await;
    assert_refused(&sign_in, "username", "sign-in");

    let order = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "NUL-1",
        "remark": "for\u{0}Li"});
    assert_refused(&app.add_order(&token, order).await, "remark", "add order");

    let filter = app.post_as(&token, "/adminapi/order/list", json!({"account": "138\u{0}"})).await;
    assert_refused(&filter, "account", "order list filter");

    let profile = json!({"nickname": "shop\u{0}", "email": "shop@example.com", "country_region": "中国", "area": "1"});
    let changed = app.post_as(&token, "/adminapi/merchant/changeInfo", profile).await;
    assert_refused(&changed, "nickname", "nickname");

    let merchant = json!({"name": "Acme\u{0}", "username": "acme"});
    let created = app.post_as(&admin, "/adminapi/admin/merchant/create", merchant).await;
    assert_refused(&created, "name", "merchant name");

    let top_up = json!({"merchant_id": mid, "amount_fen": 1_000, "remark": "bank\u{0}ref"});
    let topped = app.post_as(&admin, "/adminapi/admin/merchant/topup", top_up).await;
    assert_refused(&topped, "remark", "top-up remark");

    let nested: Value = json!({"result": "success", "items": [{"order_id": 1, "serial_no": "S"}, {"order_id": 2, "serial_no": "S\u{0}"}]});
    let resolved = app.post_as(&admin, "/adminapi/admin/order/resolveMany", nested).await;
    assert_refused(&resolved, "items[1].serial_no", "a nested field");
    // A field the call does not read is ignored, NUL or not, as the document allows.
    let ignored = json!({"kind": "ordinary", "note": "x\u{0}", "extra": {"a\u{0}": ["\u{0}"]}});
    assert_eq!(app.post_as(&token, "/adminapi/order/list", ignored).await.code(), 20000);

    assert_refused(&get(&app, &admin, "/adminapi/admin/audit/export?actor=%00").await, "actor", "audit export");
    for format in ["csv", "xlsx"] {
        let path = format!("/adminapi/order/export?format={format}&account=138%00");
        assert_refused(&get(&app, &token, &path).await, "account", "order export");
    }

    let body = json!({"merchant_order_id": "NUL-API", "product_key": "MOBILE-DIRECT-10", "account": "13800138000",
        "notify_url": "https://shop.example.com/n\u{0}"});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_refused(&placed, "notify_url", "open API notify_url");
    let (found, _) = send(&app, &key, Call::get("/openapi/v1/orders/NUL%00API")).await;
    assert_refused(&found, "merchant_order_id", "open API order path");

    // Nothing was stored: no order, no money moved, no merchant, the profile unchanged.
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0);
    assert_eq!(app.figures(mid).await, before);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM users WHERE username = 'acme' AND id <> $1", 0).await, 0);
    let nicknames = "SELECT COUNT(*) FROM users WHERE name LIKE 'shop%' AND id <> $1";
    assert_eq!(app.scalar(nicknames, 0).await, 0);
}

async fn a_nul_in_a_batch_file_names_its_line(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let text = "account,product_key,merchant_order_id\n13800138000,MOBILE-DIRECT-10,B-1\n13900139000,MOBILE-DIRECT-10,B\u{0}2\n";
    let part = reqwest::multipart::Part::bytes(text.as_bytes().to_vec()).file_name("orders.csv");
    let form = reqwest::multipart::Form::new().part("file", part);
    let request = app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token).multipart(form);
    let answer = app.send(request).await;
    assert_eq!(answer.code(), 40000, "{:?}", answer.body);
    assert_eq!(answer.data()["keys"]["file"], "batch.line_nul", "{:?}", answer.body);
    assert!(answer.msg().contains("Line 3"), "{}", answer.msg());
    // Pasted text in a JSON body is refused by the body's reader, naming `text`.
    let pasted = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_refused(&pasted, "text", "pasted batch");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batches WHERE merchant_id = $1", mid).await, 0);
}
