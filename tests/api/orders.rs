//! Placing orders and their life cycle: money never goes below zero, nothing is charged
//! or refunded twice, restarts lose nothing, deadlines go to a person.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use backoffice::money::finance::ledger::Actor;
use backoffice::orders::lifecycle::{self, Outcome, Reporter};
use serde_json::json;
use std::time::Duration;

on_both_backends!(
    parallel_orders_never_overdraw,
    duplicate_merchant_order_ids_are_never_charged_twice,
    failure_refunds_exactly_once_under_duplicate_callbacks,
    a_restart_in_the_middle_loses_nothing,
    an_order_past_its_deadline_goes_to_manual_review,
    administrators_finish_on_behalf_orders,
    card_secrets_are_encrypted_and_revealed_only_to_their_owner,
    orders_are_checked_before_anything_is_charged,
    a_low_balance_is_announced_once_in_the_message_center,
);

/// MOBILE-DIRECT-10 costs 985 fen (98.5% of 10 yuan).
const PRICE: i64 = 985;

fn no_worker(config: &mut backoffice::platform::config::Config) {
    config.worker.enabled = false;
}

async fn parallel_orders_never_overdraw(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let (mid, token) = app.merchant("buyer").await;
    // Funds for exactly 100 orders: 60 from the balance, 40 on credit.
    app.fund(mid, 60 * PRICE, 40 * PRICE).await;
    let requests = (0..200).map(|index| {
        let (app, token) = (&app, token.clone());
        async move {
            let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("P{index}")});
            app.add_order(&token, body).await.code()
        }
    });
    let codes = futures_util::future::join_all(requests).await;
    assert_eq!(codes.iter().filter(|code| **code == 20000).count(), 100, "{codes:?}");
    assert_eq!(codes.iter().filter(|code| **code == 40200).count(), 100);
    assert_eq!(app.figures(mid).await, (0, 40 * PRICE, 40 * PRICE));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 100);
    app.assert_books_balance(mid).await;
}

async fn duplicate_merchant_order_ids_are_never_charged_twice(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100 * PRICE, 0).await;
    let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "SAME-1"});
    let first = app.add_order(&token, body.clone()).await;
    assert_eq!(first.code(), 20000);
    // The same request again (a double click, a retry): the order placed, nothing charged.
    let again = app.add_order(&token, body).await;
    assert_eq!(again.body, first.body);
    // The same id for another order: refused, nothing charged.
    let other = json!({"account": "13900139000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "SAME-1"});
    let refused = app.add_order(&token, other).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (409, 40900));
    assert!(refused.msg().contains("nothing was charged"), "{}", refused.msg());
    // Twenty at once with one new id: one order, one charge, each call answered with it.
    let requests = (0..20).map(|_| async {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "SAME-2"});
        let answer = app.add_order(&token, body).await;
        (answer.code(), answer.data()["order"]["id"].clone())
    });
    let answers = futures_util::future::join_all(requests).await;
    assert!(answers.iter().all(|(code, id)| *code == 20000 && *id == answers[0].1), "{answers:?}");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 2);
    assert_eq!(app.figures(mid).await.0, 98 * PRICE);
    app.assert_books_balance(mid).await;
    // Without an id the server makes one, different each time.
    let first = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    let second = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_ne!(first.data()["order"]["merchant_order_id"], second.data()["order"]["merchant_order_id"]);
    assert_eq!(first.data()["price_fen"], PRICE);
}

async fn failure_refunds_exactly_once_under_duplicate_callbacks(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 5 * PRICE, 5 * PRICE).await;
    // Paid half from the balance, half on credit.
    for index in 0..8 {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("F{index}")});
        assert_eq!(app.add_order(&token, body).await.code(), 20000);
    }
    let order_id = app.scalar("SELECT MAX(id) FROM orders WHERE merchant_id = $1", mid).await;
    assert!(lifecycle::mark_processing(&app.state, order_id).await.unwrap().is_some());
    let before = app.figures(mid).await;
    let callbacks = (0..10).map(|_| {
        let outcome = Outcome::Failure { reason: "carrier refused".into() };
        lifecycle::finish(&app.state, order_id, outcome, Reporter::Channel, Actor::system())
    });
    let results = futures_util::future::join_all(callbacks).await;
    assert_eq!(results.iter().filter(|result| *result.as_ref().unwrap()).count(), 1);
    // A success arriving after the failure changes nothing either.
    let late = Outcome::Success { serial_no: Some("SN1".into()), card: None };
    assert!(!lifecycle::finish(&app.state, order_id, late, Reporter::Channel, Actor::system()).await.unwrap());
    let after = app.figures(mid).await;
    assert_eq!(after.2, before.2 - PRICE, "the order was paid on credit; the refund returns it there");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE order_id = (SELECT MAX(id) FROM orders WHERE merchant_id = $1) AND change_type = 2", mid).await, 1);
    assert_eq!(
        app.scalar("SELECT status FROM orders WHERE id = (SELECT MAX(id) FROM orders WHERE merchant_id = $1)", mid)
            .await,
        3
    );
    app.assert_books_balance(mid).await;
}

async fn a_restart_in_the_middle_loses_nothing(backend: Backend) {
    let mut first = spawn_app_with(backend, |config| {
        config.channel.sandbox_delay = Duration::from_millis(1_000);
        config.channel.sandbox_success_ratio = 0.5;
        config.worker.lease = Duration::from_millis(800);
    })
    .await;
    let (mid, token) = first.merchant("buyer").await;
    first.fund(mid, 100 * PRICE, 0).await;
    for index in 0..40 {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("R{index}")});
        assert_eq!(first.add_order(&token, body).await.code(), 20000);
    }
    // Stop while orders are with the channel and none has its answer yet.
    first.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 0", mid, 10).await;
    first.stop().await;
    let second = first.restart_with(|_| {}).await;
    let unfinished =
        second.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status IN (0, 1)", mid).await;
    assert!(unfinished > 0, "the first application finished everything before it was stopped");
    second.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status NOT IN (2, 3)", mid, 20).await;
    // Each order was handed to the channel once and changed status once per step.
    let submitted =
        "SELECT COUNT(*) FROM sandbox_channel_orders s JOIN orders o ON o.system_order_id = s.system_order_id
         WHERE o.merchant_id = $1";
    assert_eq!(second.scalar(&format!("{submitted} AND s.submissions <> 1"), mid).await, 0);
    assert_eq!(second.scalar(submitted, mid).await, 40);
    let repeated = "SELECT COUNT(*) FROM (SELECT e.order_id FROM order_events e JOIN orders o ON o.id = e.order_id
         WHERE o.merchant_id = $1 GROUP BY e.order_id, e.status HAVING COUNT(*) > 1) repeated";
    assert_eq!(second.scalar(repeated, mid).await, 0);
    let failures = second.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 3", mid).await;
    let refunds =
        second.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND change_type = 2", mid).await;
    assert_eq!(refunds, failures, "every failure refunded exactly once");
    let successes = 40 - failures;
    assert_eq!(second.figures(mid).await.0, (100 - successes) * PRICE);
    second.assert_books_balance(mid).await;
}

async fn an_order_past_its_deadline_goes_to_manual_review(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.channel.sandbox_delay = Duration::from_secs(3600);
        config.channel.deadline = Duration::from_millis(300);
    })
    .await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    let order_id = placed.data()["order"]["id"].as_i64().unwrap();
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 4", mid, 10).await;
    // Waiting longer changes nothing: no automatic refund.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.scalar("SELECT status FROM orders WHERE merchant_id = $1", mid).await, 4);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND change_type = 2", mid).await, 0);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": order_id})).await;
    let notes: Vec<&str> =
        detail.data()["timeline"].as_array().unwrap().iter().map(|entry| entry["note"].as_str().unwrap()).collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    // A person decides: failure refunds once.
    let admin = app.login(ADMIN).await;
    let resolve = json!({"order_id": order_id, "result": "failure", "reason": "carrier says no"});
    let answer = app.post_as(&admin, "/adminapi/admin/order/resolve", resolve.clone()).await;
    assert_eq!(answer.data()["status"], 3, "{:?}", answer.body);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", resolve).await.code(), 40900);
    assert_eq!(app.figures(mid).await.0, 10 * PRICE);
    // The drawer's account records and the log filtered by the order: its debit and refund.
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": order_id})).await;
    let records: Vec<(&str, i64)> = detail.data()["account_records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|record| (record["change_type"].as_str().unwrap(), record["amount_fen"].as_i64().unwrap()))
        .collect();
    assert_eq!(records, [("order_debit", -PRICE), ("refund", PRICE)]);
    let logged = app.post_as(&token, "/adminapi/finance/account/list", json!({"order_id": order_id})).await;
    assert_eq!(logged.data()["total"], 2, "{:?}", logged.body);
    app.assert_books_balance(mid).await;
}

async fn administrators_finish_on_behalf_orders(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "behalf": true, "remark": "for Zhang San"});
        let answer = app.add_order(&token, body).await;
        assert_eq!(answer.data()["order"]["kind"], "behalf", "{:?}", answer.body);
        ids.push(answer.data()["order"]["id"].as_i64().unwrap());
    }
    // The worker leaves them to a person.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 0", mid).await, 2);
    let merchant_try = app
        .post_as(
            &token,
            "/adminapi/admin/order/resolve",
            json!({"order_id": ids[0], "result": "success", "serial_no": "S-1"}),
        )
        .await;
    assert_eq!(merchant_try.code(), 40300);
    let admin = app.login(ADMIN).await;
    let success = app
        .post_as(
            &admin,
            "/adminapi/admin/order/resolve",
            json!({"order_id": ids[0], "result": "success", "serial_no": "MANUAL-1"}),
        )
        .await;
    assert_eq!((success.data()["status"].as_i64(), success.data()["serial_no"].as_str()), (Some(2), Some("MANUAL-1")));
    let failure = json!({"order_id": ids[1], "result": "failure"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", failure.clone()).await.data()["status"], 3);
    assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", failure).await.code(), 40900);
    let bad =
        app.post_as(&admin, "/adminapi/admin/order/resolve", json!({"order_id": ids[1], "result": "maybe"})).await;
    assert_eq!(bad.code(), 40000);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND change_type = 2", mid).await, 1);
    app.assert_books_balance(mid).await;
}

async fn card_secrets_are_encrypted_and_revealed_only_to_their_owner(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, token) = app.merchant("buyer").await;
    let (_, other) = app.merchant("other").await;
    app.fund(mid, 100_000, 0).await;
    let placed = app.add_order(&token, json!({"product_key": "MOBILE-CARD-50"})).await;
    assert_eq!(placed.data()["order"]["kind"], "card", "{:?}", placed.body);
    let order_id = placed.data()["order"]["id"].as_i64().unwrap();
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 10).await;
    let listed = app.post_as(&token, "/adminapi/order/list", json!({"kind": "card"})).await;
    assert_eq!(listed.data()["list"][0]["has_card"], true);
    assert!(listed.data()["list"][0].get("card_no").is_none());
    let reveal = json!({"order_id": order_id});
    assert_eq!(app.post_as(&other, "/adminapi/order/card/reveal", reveal.clone()).await.code(), 40300);
    let admin = app.login(ADMIN).await;
    assert_eq!(app.post_as(&admin, "/adminapi/order/card/reveal", reveal.clone()).await.code(), 40300);
    let revealed = app.post_as(&token, "/adminapi/order/card/reveal", reveal).await;
    let card_no = revealed.data()["card_no"].as_str().unwrap().to_string();
    let secret = revealed.data()["card_secret"].as_str().unwrap().to_string();
    assert_eq!((card_no.len(), secret.len()), (16, 18));
    let audited: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM audit_events WHERE action = 'card_secret_revealed' AND user_id IS NOT NULL",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(audited, 1);
    let (stored_no, stored_secret): (String, String) =
        sqlx::query_as("SELECT card_no_enc, card_secret_enc FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert!(stored_no.starts_with("v1:") && stored_secret.starts_with("v1:"));
    assert!(!stored_no.contains(&card_no) && !stored_secret.contains(&secret));
    let plaintext_anywhere: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM orders WHERE card_no_enc LIKE $1 OR card_secret_enc LIKE $2 OR serial_no LIKE $2 OR remark LIKE $2",
    )
    .bind(format!("%{card_no}%"))
    .bind(format!("%{secret}%"))
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(plaintext_anywhere, 0);
    // An ordinary order has no card to reveal.
    let ordinary = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    let answer =
        app.post_as(&token, "/adminapi/order/card/reveal", json!({"order_id": ordinary.data()["order"]["id"]})).await;
    assert_eq!(answer.code(), 40900);
}

async fn orders_are_checked_before_anything_is_charged(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 1_000, 0).await;
    let cases = [
        (json!({"product_key": "MOBILE-DIRECT-10"}), "account", "order.account.required"),
        (json!({"account": "12345", "product_key": "MOBILE-DIRECT-10"}), "account", "order.account.invalid"),
        (
            json!({"account": "18600000000", "product_key": "MOBILE-DIRECT-10"}),
            "account",
            "order.account.carrier_mismatch",
        ),
        (json!({"account": "13800138000", "product_key": "NOPE"}), "product_key", "order.product.unknown"),
        (json!({"account": "13800138000"}), "product_key", "order.product.required"),
        (
            json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "a b"}),
            "merchant_order_id",
            "order.merchant_order_id.invalid",
        ),
    ];
    for (body, field, key) in cases {
        let answer = app.add_order(&token, body.clone()).await;
        assert_eq!(answer.code(), 40000, "{body}");
        assert_eq!(answer.data()["keys"][field], key, "{body}: {:?}", answer.body);
    }
    let mismatch = app
        .send(
            app.client
                .post(app.url("/adminapi/order/add"))
                .bearer_auth(&token)
                .header("accept-language", "zh-CN")
                .json(&json!({"account": "18600000000", "product_key": "MOBILE-DIRECT-10"})),
        )
        .await;
    assert!(mismatch.msg().contains("携号转网"), "{}", mismatch.msg());
    // Ported numbers may be ordered once the merchant confirms.
    let ported = app
        .add_order(&token, json!({"account": "18600000000", "product_key": "MOBILE-DIRECT-10", "allow_ported": true}))
        .await;
    assert_eq!(ported.code(), 20000);
    let broke = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-100"})).await;
    assert_eq!((broke.status.as_u16(), broke.code()), (402, 40200));
    // A quote switched off is refused as well.
    let admin = app.login(ADMIN).await;
    let off = json!({"merchant_id": mid, "product_key": "MOBILE-DIRECT-20", "price_fen": 1990, "status": 0});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", off).await.code(), 20000);
    let answer = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-20"})).await;
    assert_eq!(answer.data()["keys"]["product_key"], "order.quote.unavailable");
    // The price lookup shows prices for the number's carrier before anything is placed.
    let price = app.post_as(&token, "/adminapi/order/price", json!({"account": "18600000000"})).await;
    assert_eq!(price.data()["account_carrier"], "unicom");
    let offers = price.data()["offers"].as_array().unwrap();
    assert!(offers.iter().all(|offer| offer["carrier"] == "unicom" || offer["product_kind"] == "card"));
    assert!(offers.iter().any(|offer| offer["product_key"] == "UNICOM-DIRECT-10" && offer["price_fen"] == PRICE));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    assert_eq!(app.figures(mid).await.0, 1_000 - PRICE);
    app.assert_books_balance(mid).await;
    // A merchant whose money never moved has no account row yet: the order creates an
    // empty one, reads the product there, and is refused for want of funds.
    let (newcomer, newcomer_token) = app.merchant("newcomer").await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM merchant_accounts WHERE merchant_id = $1", newcomer).await, 0);
    let broke =
        app.add_order(&newcomer_token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!((broke.status.as_u16(), broke.code()), (402, 40200), "{:?}", broke.body);
    let unknown = app.add_order(&newcomer_token, json!({"account": "13800138000", "product_key": "NOPE"})).await;
    assert_eq!(unknown.data()["keys"]["product_key"], "order.product.unknown");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", newcomer).await, 0);
}

async fn low_balance_notices(app: &TestApp, token: &str) -> usize {
    let notices = app.post_as(token, "/adminapi/message/list", json!({ "type": "notice" })).await;
    notices
        .data()
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["title"].as_str().unwrap().contains("Low balance"))
        .count()
}

/// Crossing the alert line (1,000 yuan by default) writes one notice; orders while the
/// balance stays below it write none; a top-up and a new crossing write the next one.
async fn a_low_balance_is_announced_once_in_the_message_center(backend: Backend) {
    let app = spawn_app_with(backend, no_worker).await;
    let (mid, token) = app.merchant("spender").await;
    let line = app.state.config.low_balance_alert_fen;
    app.fund(mid, line + PRICE, 0).await;
    let order = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"});
    assert_eq!(app.add_order(&token, order.clone()).await.code(), 20000);
    assert_eq!(low_balance_notices(&app, &token).await, 0, "still at the line");
    assert_eq!(app.add_order(&token, order.clone()).await.code(), 20000);
    assert_eq!(low_balance_notices(&app, &token).await, 1, "crossed below the line");
    assert_eq!(app.add_order(&token, order.clone()).await.code(), 20000);
    assert_eq!(low_balance_notices(&app, &token).await, 1, "one notice while it stays low");
    app.fund(mid, 2 * PRICE, 0).await; // back to the line exactly
    let preview = app
        .post_as(
            &token,
            "/adminapi/order/batch/preview",
            json!({"text": "13800138000,MOBILE-DIRECT-10\n13900139000,MOBILE-DIRECT-10\n13700137000,MOBILE-DIRECT-10"}),
        )
        .await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let submitted =
        app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": preview.data()["batch_id"]})).await;
    assert_eq!(submitted.data()["placed_rows"], 3, "{:?}", submitted.body);
    assert_eq!(low_balance_notices(&app, &token).await, 2, "a batch crossing the line again");
    app.assert_books_balance(mid).await;
}
