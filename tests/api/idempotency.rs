//! Money-moving calls with an `Idempotency-Key`: a retry replays, moves nothing.

use crate::helpers::{ADMIN, Answer, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_repeated_key_replays_the_first_answer_and_moves_nothing,
    parallel_calls_with_one_key_move_money_once,
    a_failed_call_leaves_its_key_unused,
    a_repeated_resolve_refunds_once_and_replays,
    a_repeated_resolve_many_replays_the_first_answer,
    quote_price_changes_are_audited
);

impl TestApp {
    async fn post_keyed(&self, token: &str, key: &str, path: &str, body: Value) -> Answer {
        self.send(self.client.post(self.url(path)).bearer_auth(token).header("Idempotency-Key", key).json(&body)).await
    }
}

async fn a_repeated_key_replays_the_first_answer_and_moves_nothing(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, _) = app.merchant("buyer").await;
    let admin = app.login(ADMIN).await;
    let top_up = json!({"merchant_id": mid, "amount_fen": 1_000, "remark": "wire 42"});
    let first = app.post_keyed(&admin, "k-1", "/adminapi/admin/merchant/topup", top_up.clone()).await;
    assert_eq!(first.code(), 20000, "{:?}", first.body);
    assert_eq!(first.data()["balance_fen"], 1_000);
    // The same body, its fields in another order: the first answer, nothing moved.
    let reordered = json!({"remark": "wire 42", "amount_fen": 1_000, "merchant_id": mid});
    let again = app.post_keyed(&admin, "k-1", "/adminapi/admin/merchant/topup", reordered).await;
    assert_eq!(again.body, first.body);
    assert_eq!(app.figures(mid).await.0, 1_000);
    // Another body, or the key on another money call: refused, nothing moved.
    let changed = json!({"merchant_id": mid, "amount_fen": 2_000, "remark": "wire 42"});
    let refused = app.post_keyed(&admin, "k-1", "/adminapi/admin/merchant/topup", changed).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 42200), "{:?}", refused.body);
    let elsewhere = app.post_keyed(&admin, "k-1", "/adminapi/admin/merchant/adjust", top_up.clone()).await;
    assert_eq!(elsewhere.code(), 42200);
    // Without a key each call moves money, as before; a fresh key is a new action.
    let credit = json!({"merchant_id": mid, "credit_limit_fen": 500});
    assert_eq!(app.post_keyed(&admin, "k-2", "/adminapi/admin/merchant/credit", credit.clone()).await.code(), 20000);
    assert_eq!(app.post_keyed(&admin, "k-2", "/adminapi/admin/merchant/credit", credit).await.code(), 20000);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/merchant/topup", top_up.clone()).await.code(), 20000);
    assert_eq!(app.figures(mid).await, (2_000, 500, 0));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1", mid).await, 3);
    // Keys are checked: empty or non-ASCII ones are refused before anything happens.
    let bad = app
        .send(
            app.client
                .post(app.url("/adminapi/admin/merchant/topup"))
                .bearer_auth(&admin)
                .header("Idempotency-Key", "two words")
                .json(&top_up),
        )
        .await;
    assert_eq!(bad.code(), 40000);
    assert!(bad.data()["keys"]["Idempotency-Key"].is_string(), "{:?}", bad.body);
    // The key is stored with who sent it.
    let stored: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM idempotency_keys k JOIN users u ON u.id = k.user_id
         WHERE u.username = 'admin' AND k.response IS NOT NULL",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(stored, 2);
    app.assert_books_balance(mid).await;
}

async fn parallel_calls_with_one_key_move_money_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, _) = app.merchant("buyer").await;
    let admin = app.login(ADMIN).await;
    let body = json!({"merchant_id": mid, "amount_fen": 700});
    let calls = (0..16).map(|_| app.post_keyed(&admin, "same-key", "/adminapi/admin/merchant/topup", body.clone()));
    let answers = futures_util::future::join_all(calls).await;
    for answer in &answers {
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        assert_eq!(answer.data()["balance_fen"], 700);
    }
    assert_eq!(app.figures(mid).await.0, 700);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1", mid).await, 1);
    app.assert_books_balance(mid).await;
}

async fn a_failed_call_leaves_its_key_unused(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, _) = app.merchant("buyer").await;
    let admin = app.login(ADMIN).await;
    let adjust = json!({"merchant_id": mid, "amount_fen": -300, "remark": "fee"});
    let refused = app.post_keyed(&admin, "adj", "/adminapi/admin/merchant/adjust", adjust.clone()).await;
    assert_eq!(refused.data()["keys"]["amount_fen"], "balance.adjustment_below_zero");
    app.fund(mid, 1_000, 0).await;
    // The refusal kept nothing: the same key and body now take effect, once.
    let done = app.post_keyed(&admin, "adj", "/adminapi/admin/merchant/adjust", adjust.clone()).await;
    assert_eq!(done.data()["balance_fen"], 700, "{:?}", done.body);
    assert_eq!(app.post_keyed(&admin, "adj", "/adminapi/admin/merchant/adjust", adjust).await.body, done.body);
    assert_eq!(app.figures(mid).await.0, 700);
    app.assert_books_balance(mid).await;
}

async fn a_repeated_resolve_refunds_once_and_replays(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10_000, 0).await;
    let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "behalf": true});
    let placed = app.add_order(&token, body).await;
    let order_id = placed.data()["order"]["id"].as_i64().expect("an order id");
    let paid = 10_000 - app.figures(mid).await.0;
    assert!(paid > 0);
    let admin = app.login(ADMIN).await;
    let failure = json!({"order_id": order_id, "result": "failure", "reason": "number out of service"});
    let calls = (0..6).map(|_| app.post_keyed(&admin, "resolve-1", "/adminapi/admin/order/resolve", failure.clone()));
    let answers = futures_util::future::join_all(calls).await;
    for answer in &answers {
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        assert_eq!(answer.data()["status"], 3);
    }
    let again = app.post_keyed(&admin, "resolve-1", "/adminapi/admin/order/resolve", failure).await;
    assert_eq!(again.body, answers[0].body);
    let other = json!({"order_id": order_id, "result": "success", "serial_no": "S-1"});
    assert_eq!(app.post_keyed(&admin, "resolve-1", "/adminapi/admin/order/resolve", other).await.code(), 42200);
    assert_eq!(app.figures(mid).await.0, 10_000);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND change_type = 2", mid).await, 1);
    app.assert_books_balance(mid).await;
}

async fn a_repeated_resolve_many_replays_the_first_answer(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10_000, 0).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "behalf": true});
        ids.push(app.add_order(&token, body).await.data()["order"]["id"].as_i64().expect("an order id"));
    }
    let paid = 10_000 - app.figures(mid).await.0;
    let admin = app.login(ADMIN).await;
    let path = "/adminapi/admin/order/resolveMany";
    let failure = json!({"result": "failure", "reason": "carrier says no",
        "items": [{"order_id": ids[0]}, {"order_id": ids[1]}, {"order_id": 999_999}]});
    // Sent four times at once with one key: one answer, each order refunded once.
    let calls = (0..4).map(|_| app.post_keyed(&admin, "many-1", path, failure.clone()));
    let answers = futures_util::future::join_all(calls).await;
    for answer in &answers {
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
        assert_eq!(answer.data()["resolved"], json!([ids[0], ids[1]]), "{:?}", answer.body);
        assert_eq!(answer.data()["refused"][0]["order_id"], 999_999);
    }
    // Retried later: the first answer, not "already finished"; nothing moves.
    let again = app.post_keyed(&admin, "many-1", path, failure.clone()).await;
    assert_eq!(again.body, answers[0].body);
    let other = json!({"result": "failure", "items": [{"order_id": ids[2]}]});
    let refused = app.post_keyed(&admin, "many-1", path, other.clone()).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (422, 42200), "{:?}", refused.body);
    // A call cut short after deciding, before its answer was stored: the retry decides
    // nothing again and still says the order was resolved.
    assert_eq!(app.post_keyed(&admin, "many-2", path, other.clone()).await.data()["resolved"], json!([ids[2]]));
    sqlx::query("UPDATE idempotency_keys SET response = NULL WHERE idempotency_key = 'many-2'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let retried = app.post_keyed(&admin, "many-2", path, other.clone()).await;
    assert_eq!(retried.data()["resolved"], json!([ids[2]]), "{:?}", retried.body);
    // Without a key a repeat is a new call: the orders are finished already.
    assert_eq!(app.post_as(&admin, path, other).await.data()["resolved"], json!([]));
    assert_eq!(app.figures(mid).await.0, 10_000, "three refunds of {paid} in all");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND change_type = 2", mid).await, 3);
    app.assert_books_balance(mid).await;
}

async fn quote_price_changes_are_audited(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, _) = app.merchant("buyer").await;
    let admin = app.login(ADMIN).await;
    let body = json!({"merchant_id": mid, "product_key": "MOBILE-DIRECT-10", "price_fen": 999, "status": 0});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", body).await.code(), 20000);
    let rows = app.post_as(&admin, "/adminapi/admin/audit/list", json!({"action": "quote_saved"})).await;
    let row = &rows.data()["list"][0];
    assert_eq!(rows.data()["total"], 1, "{:?}", rows.body);
    assert_eq!(row["target"], format!("merchant:{mid}"));
    let detail = row["detail"].as_str().unwrap();
    assert!(detail.starts_with("Product MOBILE-DIRECT-10: ¥"), "{detail}");
    assert!(detail.ends_with("→ ¥9.99 (off sale)"), "{detail}");
}
