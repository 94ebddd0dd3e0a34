//! Card-secret orders: a supplier's success counts only with the card. Without it (in an
//! answer or a callback) the order is never finished as a success: it stays with the
//! channel, is asked again, goes to manual review, where a person may fail it but not
//! mark it successful; with it, the merchant reveals the card the supplier issued.

use crate::channel_support::{
    SECRET, attempts, card_order, channels_config, pending_upstream_id, post_callback, slow_supplier,
    spawn_with_deadline, supplier, without_sandbox,
};
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use backoffice::merchant_api::card;
use backoffice::platform::channel::http_json::sign;
use backoffice::supply::simulator::{SimConfig, Simulator};
use serde_json::json;
use std::time::Duration;

on_both_backends!(
    a_success_without_the_card_is_asked_again_then_reviewed,
    a_callback_without_the_card_settles_nothing,
    a_delivered_card_is_revealed_to_the_merchant_and_the_open_api,
);

/// MOBILE-CARD-10 costs the merchant 990 fen.
const CARD_PRICE: i64 = 990;

/// The order is charged once, not refunded, and carries nothing of a success.
async fn assert_charged_and_unsettled(app: &TestApp, order_id: i64) {
    let count = |sql: &'static str| app.scalar(sql, order_id);
    assert_eq!(count("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 1").await, 1);
    assert_eq!(count("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2").await, 0);
    assert_eq!(count("SELECT COUNT(*) FROM order_events WHERE order_id = $1 AND status = 2").await, 0);
    let settled = "SELECT COUNT(*) FROM orders WHERE id = $1 AND (status = 2 OR finished_at IS NOT NULL \
                   OR channel_id IS NOT NULL OR card_no_enc IS NOT NULL OR serial_no IS NOT NULL)";
    assert_eq!(count(settled).await, 0);
}

/// The card of the simulator's one order.
fn issued_card(simulator: &Simulator) -> (String, String) {
    let book = simulator.book.lock().unwrap();
    let order = book.orders.values().next().expect("the supplier got the order");
    (order.card_no.clone().expect("a card number"), order.card_password.clone().expect("a card password"))
}

async fn a_success_without_the_card_is_asked_again_then_reviewed(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(2_000)).await;
    let cardless = SimConfig { cardless_ratio: 1.0, callback_delay: Duration::from_secs(600), ..SimConfig::default() };
    let simulator = supplier(&app, "cardless", 10, 960, cardless).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * CARD_PRICE, 0).await;
    let order_id = card_order(&app, &token, "K1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 4", order_id, 20).await;
    // Unknown, with the reason; submitted once, asked again, sent nowhere else.
    assert_eq!(attempts(&app, order_id).await, [("cardless".to_string(), "unknown".to_string())]);
    let answer: String = sqlx::query_scalar("SELECT answer FROM order_attempts WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(answer, "order.failure.card_not_delivered");
    {
        let book = simulator.book.lock().unwrap();
        let order = book.orders.values().next().unwrap();
        assert!(order.succeeds && order.card_no.is_none());
        assert_eq!(order.submissions, 1);
        assert!(order.queries >= 1, "the order was asked about again");
    }
    assert_charged_and_unsettled(&app, order_id).await;
    assert_eq!(app.figures(mid).await.0, 9 * CARD_PRICE);

    // A person cannot make it a success without the card, alone or in a group.
    let admin = app.login(ADMIN).await;
    let success = json!({"order_id": order_id, "result": "success", "serial_no": "SN-BY-HAND"});
    let refused = app.post_as(&admin, "/adminapi/admin/order/resolve", success).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (409, 40900), "{:?}", refused.body);
    assert!(refused.msg().contains("card-secret order"), "{:?}", refused.body);
    let many = json!({"result": "success", "items": [{"order_id": order_id, "serial_no": "SN-BY-HAND"}]});
    let refused = app.post_as(&admin, "/adminapi/admin/order/resolveMany", many).await;
    assert_eq!(refused.data()["resolved"], json!([]), "{:?}", refused.body);
    assert!(refused.data()["refused"][0]["msg"].as_str().unwrap().contains("card-secret order"));
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 4);
    assert_charged_and_unsettled(&app, order_id).await;
    // Failing it refunds it, once.
    let failure = json!({"order_id": order_id, "result": "failure"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", failure.clone()).await.code(), 20000);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", failure).await.code(), 40900);
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 3);
    let refunds = "SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2";
    assert_eq!(app.scalar(refunds, order_id).await, 1);
    assert_eq!(app.figures(mid).await.0, 10 * CARD_PRICE);
    app.assert_books_balance(mid).await;
}

async fn a_callback_without_the_card_settles_nothing(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(2_000)).await;
    let slow = slow_supplier();
    let simulator = supplier(&app, "slow", 10, 960, slow).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * CARD_PRICE, 0).await;
    let order_id = card_order(&app, &token, "K2").await;
    let upstream = pending_upstream_id(&app, order_id).await;
    let bare = json!({"upstream_order_id": upstream, "code": 0, "msg": "ok", "serial_no": "SIM-BARE-1"}).to_string();
    for _ in 0..2 {
        let answer = post_callback(&app, "slow", sign(SECRET.as_bytes(), bare.as_bytes()), bare.clone()).await;
        assert_eq!((answer.code(), answer.data()["changed"].as_bool()), (20000, Some(false)), "{:?}", answer.body);
    }
    assert_charged_and_unsettled(&app, order_id).await;
    // Still with its channel: asked about, then past the deadline to a person.
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 4", order_id, 20).await;
    assert!(simulator.book.lock().unwrap().orders.values().all(|order| order.queries >= 1));
    assert_charged_and_unsettled(&app, order_id).await;

    // The callback with the card settles it, once, and the merchant gets that card.
    let (card_no, card_password) = ("1234567890123456", "123456789012345678");
    let whole = json!({"upstream_order_id": upstream, "code": 0, "msg": "ok", "serial_no": "SIM-CARD-1",
        "card_no": card_no, "card_password": card_password})
    .to_string();
    let settled = post_callback(&app, "slow", sign(SECRET.as_bytes(), whole.as_bytes()), whole.clone()).await;
    assert_eq!(settled.data()["changed"], true, "{:?}", settled.body);
    let again = post_callback(&app, "slow", sign(SECRET.as_bytes(), whole.as_bytes()), whole).await;
    assert_eq!(again.data()["changed"], false);
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 2);
    let revealed = app.post_as(&token, "/adminapi/order/card/reveal", json!({"order_id": order_id})).await;
    assert_eq!(
        (revealed.data()["card_no"].as_str(), revealed.data()["card_secret"].as_str()),
        (Some(card_no), Some(card_password))
    );
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2", order_id).await,
        0
    );
    app.assert_books_balance(mid).await;
}

async fn a_delivered_card_is_revealed_to_the_merchant_and_the_open_api(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.trust_forwarded_for = true;
        config.trusted_proxies = "127.0.0.1".parse().unwrap();
    })
    .await;
    without_sandbox(&app).await;
    let simulator = supplier(&app, "issuer", 10, 960, SimConfig::default()).await;
    let (mid, token, key) = merchant_with_key(&app, "cards").await;
    let body = json!({"merchant_order_id": "CARD-1", "product_key": "MOBILE-CARD-10"});
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    let (card_no, card_password) = issued_card(&simulator);
    let order_id = app.scalar("SELECT id FROM orders WHERE merchant_id = $1", mid).await;
    let listed = app.post_as(&token, "/adminapi/order/list", json!({"kind": "card"})).await;
    assert_eq!(listed.data()["list"][0]["has_card"], true, "{:?}", listed.body);
    let revealed = app.post_as(&token, "/adminapi/order/card/reveal", json!({"order_id": order_id})).await;
    assert_eq!(revealed.data()["card_no"].as_str(), Some(card_no.as_str()), "{:?}", revealed.body);
    assert_eq!(revealed.data()["card_secret"].as_str(), Some(card_password.as_str()));
    let (read, _) = send(&app, &key, Call::get("/openapi/v1/orders/CARD-1")).await;
    let order_no = read.data()["order_no"].as_str().unwrap();
    let sealed = |field: &str| read.data()[field].as_str().unwrap_or_else(|| panic!("{field}: {:?}", read.body));
    assert_eq!(card::open(&key.secret, order_no, sealed("card_no_encrypted")).unwrap(), card_no);
    assert_eq!(card::open(&key.secret, order_no, sealed("card_secret_encrypted")).unwrap(), card_password);
    app.assert_books_balance(mid).await;
}
