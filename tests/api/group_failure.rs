//! A group whose write fails for a reason no check foresaw (here a trigger refusing one
//! order's row): the group is rolled back and each of its orders placed alone, so only the
//! failing order is refused and every other is placed and charged once (issue 13: "a
//! failing order rejected alone without failing its batch").

use crate::channel_support::PRICE;
use crate::helpers::{ADMIN, Backend, spawn_app_with};
use crate::on_both_backends;
use crate::open_api_repeats::groups;
use serde_json::json;

on_both_backends!(an_order_whose_write_fails_is_refused_alone);

async fn an_order_whose_write_fails_is_refused_alone(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("grouped").await;
    app.fund(mid, 100 * PRICE, 0).await;
    app.refuse_order_inserts("G-7").await;
    let before = groups(&app, &admin).await;
    let requests = (0..32).map(|index| {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("G-{index}")});
        app.add_order(&token, body)
    });
    let answers = futures_util::future::join_all(requests).await;
    for (index, answer) in answers.iter().enumerate() {
        match index {
            7 => assert_ne!(answer.code(), 20000, "{:?}", answer.body),
            _ => assert_eq!(answer.code(), 20000, "G-{index}: {:?}", answer.body),
        }
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 31);
    let refused =
        app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND merchant_order_id = 'G-7'", mid).await;
    assert_eq!(refused, 0);
    assert_eq!(app.figures(mid).await.0, (100 - 31) * PRICE);
    app.assert_books_balance(mid).await;
    let after = groups(&app, &admin).await;
    assert!(after.1 > before.1, "the group holding G-7 was placed order by order: {before:?} → {after:?}");

    // Without the trigger the same id is placed: the refusal wrote nothing that holds it.
    app.allow_every_order().await;
    let again = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "G-7"});
    assert_eq!(app.add_order(&token, again).await.code(), 20000);
    assert_eq!(app.figures(mid).await.0, (100 - 32) * PRICE);
    app.assert_books_balance(mid).await;
}
