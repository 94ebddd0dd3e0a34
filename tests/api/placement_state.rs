//! What a placement writer carries from one order to the next (orders/placement/unlocked.rs): on
//! both engines the next order of a merchant, product and actor is decided from what the last
//! one left known, without reading first. Whatever changed in between is still honoured: a
//! new price is charged, a top-up is spent, money moved elsewhere is never overwritten, and
//! no order is refused for what was known rather than what is. Orders here are placed one
//! after another, so each is a group of its own, decided from what the one before left.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::PRICE;
use serde_json::json;

on_both_backends!(
    a_price_changed_between_two_orders_is_charged,
    money_moved_between_two_orders_is_kept,
    an_order_the_known_balance_cannot_pay_is_placed_after_a_top_up,
    a_batch_placed_between_two_orders_is_kept
);

const PRODUCT: &str = "MOBILE-DIRECT-10";

fn no_worker(config: &mut backoffice::platform::config::Config) {
    config.worker.enabled = false;
}

/// An app without the order worker, the administrator's token, and a new merchant (its id
/// and token) funded with `balance_fen`.
async fn funded_merchant(backend: Backend, name: &str, balance_fen: i64) -> (TestApp, String, i64, String) {
    let app = spawn_app_with(backend, no_worker).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant(name).await;
    app.fund(mid, balance_fen, 0).await;
    (app, admin, mid, token)
}

/// Places one order; its price as charged.
async fn place(app: &TestApp, token: &str) -> i64 {
    let placed = app.add_order(token, json!({"account": "13800138000", "product_key": PRODUCT})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    placed.data()["price_fen"].as_i64().unwrap()
}

/// Groups written again under the lock (`/metrics`).
async fn locked_again(app: &TestApp, admin: &str) -> u64 {
    let text = app.client.get(app.url("/metrics")).bearer_auth(admin).send().await.unwrap().text().await.unwrap();
    let line = text.lines().find_map(|line| line.strip_prefix("backoffice_order_groups_locked_again_total "));
    line.expect("the metric is shown").parse().unwrap()
}

/// The order after a change was decided from what was known, and its write found the
/// change: written again under the lock, once.
async fn assert_written_again(app: &TestApp, admin: &str, before: u64) {
    assert_eq!(locked_again(app, admin).await, before + 1);
}

async fn a_price_changed_between_two_orders_is_charged(backend: Backend) {
    let (app, admin, mid, token) = funded_merchant(backend, "known-price", 100_000).await;
    let old_price = place(&app, &token).await;
    assert_eq!(place(&app, &token).await, old_price);
    let before = locked_again(&app, &admin).await;

    let new_price = old_price + 7;
    let save = json!({"merchant_id": mid, "product_key": PRODUCT, "price_fen": new_price});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", save).await.code(), 20000);
    assert_eq!(place(&app, &token).await, new_price);
    assert_written_again(&app, &admin, before).await;
    assert_eq!(place(&app, &token).await, new_price);
    let charged = app.scalar("SELECT CAST(SUM(price_fen) AS BIGINT) FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(charged, 2 * old_price + 2 * new_price);
    assert_eq!(app.figures(mid).await.0, 100_000 - charged);
    app.assert_books_balance(mid).await;
}

async fn money_moved_between_two_orders_is_kept(backend: Backend) {
    let (app, admin, mid, token) = funded_merchant(backend, "known-moved", 100_000).await;
    let price = place(&app, &token).await;
    let before = locked_again(&app, &admin).await;

    // The administrator's top-up lands between two orders: the second must not write the
    // balance the first left.
    app.fund(mid, 5_000, 0).await;
    assert_eq!(place(&app, &token).await, price);
    assert_written_again(&app, &admin, before).await;
    assert_eq!(app.figures(mid).await.0, 105_000 - 2 * price);
    app.assert_books_balance(mid).await;
}

async fn an_order_the_known_balance_cannot_pay_is_placed_after_a_top_up(backend: Backend) {
    let (app, admin, mid, token) = funded_merchant(backend, "known-short", 2 * PRICE - 1).await;
    assert_eq!(place(&app, &token).await, PRICE);
    let before = locked_again(&app, &admin).await;

    // Known now: PRICE - 1 fen, short of another order. A top-up lands before the next one,
    // which must be read afresh, not refused for the balance that was known.
    app.fund(mid, PRICE, 0).await;
    assert_eq!(place(&app, &token).await, PRICE);
    assert_eq!(locked_again(&app, &admin).await, before, "read afresh, not written twice");
    assert_eq!(app.figures(mid).await.0, PRICE - 1);
    // Now short for real: refused, and nothing charged.
    let refused = app.add_order(&token, json!({"account": "13800138000", "product_key": PRODUCT})).await;
    assert_eq!(refused.code(), 40200, "{:?}", refused.body);
    assert_eq!(app.figures(mid).await.0, PRICE - 1);
    app.assert_books_balance(mid).await;
}

/// A batch's orders are written beside the placement writer, between two of a client's
/// orders: they move the account and, on SQLite, take the order ids the writer knew as next.
/// The second order is written again and gets an id of its own; nothing is overwritten.
async fn a_batch_placed_between_two_orders_is_kept(backend: Backend) {
    let (app, admin, mid, token) = funded_merchant(backend, "known-batch", 100_000).await;
    let price = place(&app, &token).await;
    let before = locked_again(&app, &admin).await;

    let text = "13800138001,MOBILE-DIRECT-10,B-1\n13800138002,MOBILE-DIRECT-10,B-2";
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.data()["valid_rows"], 2, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.data()["placed_rows"], 2, "{:?}", submit.body);

    assert_eq!(place(&app, &token).await, price);
    assert_written_again(&app, &admin, before).await;
    let (orders, distinct) = (
        app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await,
        app.scalar("SELECT COUNT(DISTINCT id) FROM orders WHERE merchant_id = $1", mid).await,
    );
    assert_eq!((orders, distinct), (4, 4));
    assert_eq!(app.figures(mid).await.0, 100_000 - 4 * price);
    app.assert_books_balance(mid).await;
}
