//! A console order sent twice (a double click, a retry after a lost answer) is placed and
//! charged once: by its merchant order id, or by the `Idempotency-Key` standing for one.

use crate::helpers::{Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_double_submitted_order_without_an_id_is_placed_once,
    a_keyed_order_refused_for_funds_is_placed_once_on_its_retry,
    a_key_names_one_request_and_one_batch
);

/// MOBILE-DIRECT-10 costs 985 fen.
const PRICE: i64 = 985;

impl TestApp {
    async fn add_keyed(&self, token: &str, key: &str, body: Value) -> Answer {
        let request =
            self.client.post(self.url("/adminapi/order/add")).bearer_auth(token).header("Idempotency-Key", key);
        self.send(request.json(&body)).await
    }
}

async fn a_double_submitted_order_without_an_id_is_placed_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"});
    // A double click: two calls at once with the key of one submission, then eight more.
    let calls = (0..10).map(|_| app.add_keyed(&token, "submit-1", body.clone()));
    let answers = futures_util::future::join_all(calls).await;
    for answer in &answers {
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        assert_eq!(answer.data()["order"]["id"], answers[0].data()["order"]["id"]);
    }
    assert_eq!(answers[0].data()["price_fen"], PRICE);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    // The key of that submission for another order: refused, nothing placed.
    let other = json!({"account": "13900139000", "product_key": "MOBILE-DIRECT-10"});
    let refused = app.add_keyed(&token, "submit-1", other.clone()).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 42200), "{:?}", refused.body);
    // A new submission is a new order; so is a call without a key, each time.
    assert_eq!(app.add_keyed(&token, "submit-2", other.clone()).await.code(), 20000);
    assert_eq!(app.add_order(&token, other.clone()).await.code(), 20000);
    assert_eq!(app.add_order(&token, other).await.code(), 20000);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 4);
    assert_eq!(app.figures(mid).await.0, 6 * PRICE);
    // Another user of the platform with the same key places an order of their own.
    let (other_mid, other_token) = app.merchant("another").await;
    app.fund(other_mid, PRICE, 0).await;
    assert_eq!(app.add_keyed(&other_token, "submit-1", body).await.code(), 20000);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", other_mid).await, 1);
    app.assert_books_balance(mid).await;
    app.assert_books_balance(other_mid).await;
}

async fn a_keyed_order_refused_for_funds_is_placed_once_on_its_retry(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "remark": "for Li"});
    let refused = app.add_keyed(&token, "retry-1", body.clone()).await;
    assert_eq!(refused.code(), 40200, "{:?}", refused.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0);
    // The refusal placed nothing: with funds, the same submission is placed now, once.
    app.fund(mid, 3 * PRICE, 0).await;
    let placed = app.add_keyed(&token, "retry-1", body.clone()).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let again = app.add_keyed(&token, "retry-1", body).await;
    assert_eq!(again.body, placed.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    assert_eq!(app.figures(mid).await.0, 2 * PRICE);
    // An explicit merchant order id with a key: the id is the order's, repeats answer it.
    let named = json!({"account": "13900139000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "MINE-1"});
    let first = app.add_keyed(&token, "retry-2", named.clone()).await;
    assert_eq!(first.data()["order"]["merchant_order_id"], "MINE-1");
    assert_eq!(app.add_keyed(&token, "retry-2", named.clone()).await.body, first.body);
    assert_eq!(app.add_order(&token, named).await.body, first.body);
    // Without the key, the merchant order id alone: the number spelled otherwise is the
    // same request, another number is refused.
    let spelled = json!({"account": " 13900139000 ", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "MINE-1"});
    assert_eq!(app.add_order(&token, spelled).await.body, first.body);
    let other = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "MINE-1"});
    assert_eq!(app.add_order(&token, other).await.code(), 40900);
    assert_eq!(app.figures(mid).await.0, PRICE);
    app.assert_books_balance(mid).await;
}

async fn a_key_names_one_request_and_one_batch(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let mut batches = Vec::new();
    for number in ["13800138000", "13900139000"] {
        let text = format!("{number},MOBILE-DIRECT-10");
        let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
        assert_eq!(preview.code(), 20000, "{:?}", preview.body);
        batches.push(preview.data()["batch_id"].as_i64().unwrap());
    }
    let submit = |key: &'static str, batch_id: i64| {
        let request = app.client.post(app.url("/adminapi/order/batch/submit")).bearer_auth(&token);
        app.send(request.header("Idempotency-Key", key).json(&json!({"batch_id": batch_id})))
    };
    let answers = futures_util::future::join_all((0..4).map(|_| submit("batch-1", batches[0]))).await;
    for answer in &answers {
        assert_eq!((answer.code(), answer.data()["placed_rows"].as_i64()), (20000, Some(1)), "{:?}", answer.body);
    }
    let refused = submit("batch-1", batches[1]).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 42200), "{:?}", refused.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    assert_eq!(submit("batch-2", batches[1]).await.code(), 20000);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 2);
    assert_eq!(app.figures(mid).await.0, 8 * PRICE);
    app.assert_books_balance(mid).await;
}
