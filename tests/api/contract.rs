//! The API contract on the administration endpoints (issue 16 point 10): 400 when a
//! request breaks the OpenAPI document (a pattern, a range, an unreadable form), 422 when it
//! matches the document but breaks a rule beyond it (a key the catalogue lacks, a private
//! address), 409 when the current state refuses it; every answer is the envelope. The
//! schema fuzzer (`make fuzz-api`) checks the same over the whole document.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    channel_administration_tells_a_malformed_field_from_a_refused_one,
    price_administration_tells_a_malformed_field_from_a_refused_one,
    query_integers_are_what_json_schema_calls_integers,
    an_administrator_acting_for_no_such_merchant_is_told_so,
    no_body_is_an_empty_object_but_whitespace_is_not_json,
);

/// Posts `body` and checks the status and that `field` is named (40000 either way).
async fn refused(app: &TestApp, token: &str, path: &str, body: Value, status: u16, field: &str) -> Value {
    let answer = app.post_as(token, path, body.clone()).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (status, 40000), "{path} {body}: {:?}", answer.body);
    assert!(answer.data()["keys"][field].is_string(), "{path} {body}: {:?}", answer.body);
    answer.data()["keys"].clone()
}

async fn channel_administration_tells_a_malformed_field_from_a_refused_one(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let save = "/adminapi/admin/channel/save";
    let channel = |timeout_ms: i64, base_url: &str| {
        json!({"code": "up-1", "name": "Upstream", "adapter": "http-json", "base_url": base_url,
               "secret": "s", "timeout_ms": timeout_ms})
    };
    // A timeout outside the document's range is 400, and the answer names every field,
    // the refused address too.
    let keys = refused(&app, &admin, save, channel(50, "http://127.0.0.1:9"), 400, "timeout_ms").await;
    assert_eq!(keys["base_url"], "channel.base_url.private", "{keys}");
    for (body, field) in [
        (json!({"code": "Up 1", "name": "U", "adapter": "http-json"}), "code"),
        (json!({"code": "up-1", "name": " ", "adapter": "http-json"}), "name"),
        (json!({"code": "up-1", "name": "U", "adapter": "ftp"}), "adapter"),
    ] {
        refused(&app, &admin, save, body, 400, field).await;
    }
    // Well-formed, but refused by rules beyond the document: 422.
    let keys = refused(&app, &admin, save, channel(2_000, "http://127.0.0.1:9"), 422, "base_url").await;
    assert_eq!(keys["base_url"], "channel.base_url.private");
    let no_secret = json!({"code": "up-2", "name": "U", "adapter": "http-json", "base_url": "https://203.0.113.7"});
    refused(&app, &admin, save, no_secret, 422, "secret").await;
    let sandbox = json!({"code": "another-sandbox", "name": "S", "adapter": "sandbox"});
    assert_eq!(refused(&app, &admin, save, sandbox, 422, "adapter").await["adapter"], "channel.adapter.unknown");
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM channels WHERE code <> 'sandbox'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(count, 0, "nothing saved");

    // A product key the catalogue lacks is a rule beyond the document; a weight out of
    // range breaks it.
    let routing = "/adminapi/admin/channel/routing";
    refused(&app, &admin, routing, json!({"product_key": "NO-SUCH-KEY"}), 422, "product_key").await;
    let supplies = "/adminapi/admin/channel/products/save";
    let item = |key: &str, weight: i64| json!({"product_key": key, "cost_fen": 900, "priority": 1, "weight": weight, "enabled": true});
    let sandbox: i64 = sqlx::query_scalar("SELECT id FROM channels WHERE code = 'sandbox'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let unknown = json!({"id": sandbox, "items": [item("NO-SUCH-KEY", 1)]});
    refused(&app, &admin, supplies, unknown, 422, "items[0].product_key").await;
    let heavy = json!({"id": sandbox, "items": [item("NO-SUCH-KEY", 10_001)]});
    let keys = refused(&app, &admin, supplies, heavy, 400, "items[0].weight").await;
    assert_eq!(keys["items[0].product_key"], "channel.product.unknown", "every field named: {keys}");
}

async fn price_administration_tells_a_malformed_field_from_a_refused_one(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("priced").await;
    let preview = "/adminapi/admin/quote/reprice/preview";
    refused(&app, &admin, preview, json!({"merchant_id": mid, "rate_bp": 0}), 400, "rate_bp").await;
    refused(&app, &admin, preview, json!({"merchant_id": mid, "rate_bp": 9_850, "carrier": "x"}), 400, "carrier").await;
    let blank = app.post_as(&admin, preview, json!({"merchant_id": mid, "rate_bp": 9_850, "carrier": " "})).await;
    assert_eq!(blank.code(), 20000, "blank is every carrier: {:?}", blank.body);
    let history = "/adminapi/admin/quote/history";
    refused(&app, &admin, history, json!({"page_size": 0}), 400, "page_size").await;
    refused(&app, &admin, history, json!({"page": 0}), 400, "page").await;
    // The JSON form of an import: the merchant is required by the document; what the
    // lines hold is beyond it.
    let import = "/adminapi/admin/quote/import";
    refused(&app, &admin, import, json!({"text": "MOBILE-DIRECT-10,9.9"}), 400, "merchant_id").await;
    refused(&app, &admin, import, json!({"merchant_id": mid, "text": ""}), 422, "text").await;
    refused(&app, &admin, import, json!({"merchant_id": mid, "text": "NO-SUCH-KEY,1"}), 422, "line:1").await;
    let answer = app.post_as(&admin, import, json!({"merchant_id": mid, "text": "MOBILE-DIRECT-10,9.9"})).await;
    assert_eq!(answer.data()["changed"], 1, "{:?}", answer.body);
}

async fn query_integers_are_what_json_schema_calls_integers(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("queried").await;
    // The document types `merchant_id` as an integer, and JSON Schema calls 10001.0 one.
    let day = backoffice::domain::beijing_date(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()));
    for written in [format!("{mid}"), format!("{mid}.0"), format!("{mid}e0")] {
        let path = format!("/adminapi/finance/statement/export?merchant_id={written}&date={day}");
        let response = app.client.get(app.url(&path)).bearer_auth(&admin).send().await.unwrap();
        assert_eq!(response.status(), 200, "{written}");
        let text = response.text().await.unwrap();
        assert_eq!(text.lines().count(), 2, "a title and the merchant's row: {written}: {text}");
        assert!(text.lines().nth(1).is_some_and(|row| row.contains(&mid.to_string())), "{written}: {text}");
    }
    for written in [format!("{mid}.5"), "ten".to_string()] {
        let path = format!("/adminapi/finance/statement/export?merchant_id={written}&date={day}");
        let answer = app.get_as(&admin, &path).await;
        assert_eq!(
            (answer.status.as_u16(), answer.data()["fields"]["merchant_id"].is_string()),
            (400, true),
            "{written}"
        );
    }
}

async fn an_administrator_acting_for_no_such_merchant_is_told_so(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    // A batch for a merchant that does not exist was a 500 (its batch row broke a foreign
    // key): now 40400, and nothing is written.
    let body = json!({"text": "13800138000,MOBILE-DIRECT-10", "merchant_id": 999_999});
    let answer = app.post_as(&admin, "/adminapi/order/batch/preview", body).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (404, 40400), "{:?}", answer.body);
    let batches: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM order_batches").fetch_one(&app.state.db.pool).await.unwrap();
    assert_eq!(batches, 0);
}

async fn no_body_is_an_empty_object_but_whitespace_is_not_json(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let list = |body: &'static str| {
        let request = app.client.post(app.url("/adminapi/order/list")).bearer_auth(&admin);
        app.send(request.header("content-type", "application/json").body(body))
    };
    // The document lets a body that requires nothing be left out; one that is there must be JSON.
    assert_eq!(list("").await.code(), 20000);
    for body in [" ", "\n", "{} x"] {
        let answer = list(body).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (400, 40000), "{body:?}");
    }
}
