//! Retries and replays of `POST /openapi/v1/orders` arriving among new orders. The open API
//! reads nothing of its own before placing: the group commit's first read finds a merchant
//! order id placed before and a nonce used before (orders/placement/run.rs). So a repeat is answered
//! from there and never fails the group it arrives in, which would send every order of the
//! group to be placed alone (`backoffice_order_groups_total{outcome="fell_back"}`).

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, PRICE, config, merchant_with_key, order_body, send};
use serde_json::json;

on_both_backends!(retries_and_replays_among_new_orders_are_answered_without_failing_their_group);

/// The groups written so far by outcome, as `/metrics` shows them: (committed, fell back).
pub(crate) async fn groups(app: &TestApp, admin: &str) -> (u64, u64) {
    let text = app.client.get(app.url("/metrics")).bearer_auth(admin).send().await.unwrap().text().await.unwrap();
    let count = |outcome: &str| {
        let prefix = format!("backoffice_order_groups_total{{outcome=\"{outcome}\"}} ");
        let line = text.lines().find_map(|line| line.strip_prefix(&prefix));
        line.unwrap_or_else(|| panic!("no {prefix} in /metrics")).parse::<u64>().unwrap()
    };
    (count("committed"), count("fell_back"))
}

async fn retries_and_replays_among_new_orders_are_answered_without_failing_their_group(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let admin = app.login(ADMIN).await;
    let (mid, token, key) = merchant_with_key(&app, "api-repeats").await;
    let (placed, _) = send(&app, &key, Call::post("/openapi/v1/orders", &order_body("REP-0"))).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let order_no = placed.data()["order_no"].clone();
    let replayed = Call::post("/openapi/v1/orders", &order_body("REP-1"));
    let nonce = replayed.nonce.clone();
    assert_eq!(send(&app, &key, replayed).await.0.code(), 20000);
    let before = groups(&app, &admin).await;

    // At once: twelve new orders; six retries of REP-0 (new nonces); REP-0 with another
    // account; six replays of REP-1's call (its nonce); the console repeating REP-0.
    let new_orders =
        (0..12).map(|index| send(&app, &key, Call::post("/openapi/v1/orders", &order_body(&format!("REP-N{index}")))));
    let retries = (0..6).map(|_| send(&app, &key, Call::post("/openapi/v1/orders", &order_body("REP-0"))));
    let different = json!({"merchant_order_id": "REP-0", "product_key": "MOBILE-DIRECT-10", "account": "13900139000"});
    let replays = (0..6).map(|_| {
        let call = Call { nonce: nonce.clone(), ..Call::post("/openapi/v1/orders", &order_body("REP-1")) };
        send(&app, &key, call)
    });
    let console = json!({"merchant_order_id": "REP-0", "product_key": "MOBILE-DIRECT-10", "account": "13800138000"});
    let (new_orders, retries, different, replays, console) = tokio::join!(
        futures_util::future::join_all(new_orders),
        futures_util::future::join_all(retries),
        send(&app, &key, Call::post("/openapi/v1/orders", &different)),
        futures_util::future::join_all(replays),
        app.add_order(&token, console),
    );
    for (answer, _) in &new_orders {
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    }
    for (answer, signed) in &retries {
        assert_eq!((answer.code(), &answer.data()["order_no"], *signed), (20000, &order_no, true), "{:?}", answer.body);
    }
    assert_eq!((different.0.status.as_u16(), different.0.code()), (409, 40930), "{:?}", different.0.body);
    for (answer, signed) in &replays {
        assert_eq!((answer.status.as_u16(), answer.code(), *signed), (401, 40133, true), "{:?}", answer.body);
    }
    // The console repeating the same order is answered with it, as the open API's retries are.
    assert_eq!((console.code(), &console.data()["order"]["order_no"]), (20000, &order_no), "{:?}", console.body);

    // Fourteen orders charged once each; no group fell back to placing order by order.
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 14);
    assert_eq!(app.figures(mid).await.0, (100 - 14) * PRICE);
    app.assert_books_balance(mid).await;
    let after = groups(&app, &admin).await;
    assert!(after.0 > before.0, "the new orders were written in groups: {before:?} → {after:?}");
    assert_eq!(after.1, before.1, "no group fell back: {before:?} → {after:?}");
}
