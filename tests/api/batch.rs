//! Batch add: the preview names every bad line and charges nothing; the submit places
//! the valid lines once, however often it is called.

use crate::channel_support::PRICE;
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    a_preview_rejects_each_bad_line_and_charges_nothing,
    a_preview_finds_used_ids_in_every_list_it_looks_up,
    files_and_templates_round_trip,
    a_batch_of_several_chunks_places_every_line_once_with_its_order,
    a_submit_cut_short_is_finished_by_the_next_one,
    submits_at_once_and_an_order_beside_them_spend_the_funds_once
);

/// A batch of `lines` distinct numbers, each with its merchant order id `<prefix>-<index>`.
pub(crate) fn numbered(lines: i64, prefix: &str) -> String {
    let mut text = String::from("account,product_key,merchant_order_id\n");
    for index in 0..lines {
        text.push_str(&format!("139{index:08},MOBILE-DIRECT-10,{prefix}-{index}\n"));
    }
    text
}

async fn a_preview_rejects_each_bad_line_and_charges_nothing(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 4 * PRICE, 0).await;
    let admin = app.login(ADMIN).await;
    let off = json!({"merchant_id": mid, "product_key": "MOBILE-DIRECT-20", "price_fen": 1970, "status": 0});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", off).await.code(), 20000);
    let used = app
        .add_order(
            &token,
            json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": "USED-1"}),
        )
        .await;
    assert_eq!(used.code(), 20000);
    let balance = app.figures(mid).await.0;
    let text = [
        "account,product_key,merchant_order_id",
        "13800138000,MOBILE-DIRECT-10,OK-1",
        "1380013800,MOBILE-DIRECT-10,BAD-NUMBER",
        "18600000000,MOBILE-DIRECT-10,MISMATCH",
        "13800138000,MOBILE-DIRECT-20,NO-QUOTE",
        "13800138000,NO-SUCH-PRODUCT,UNKNOWN",
        "13800138000,MOBILE-DIRECT-10,OK-1",
        "13800138000,MOBILE-DIRECT-10,USED-1",
        "13800138000,MOBILE-DIRECT-10,bad id!",
        "13800138000",
        "13900139000,MOBILE-DIRECT-10",
        "13900139000,MOBILE-DIRECT-10,OK-3",
        "13900139000,MOBILE-DIRECT-10,TOO-MUCH",
    ]
    .join("\n");
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "mixed.csv"})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let data = preview.data();
    assert_eq!(
        (data["total_rows"].as_i64(), data["valid_rows"].as_i64(), data["invalid_rows"].as_i64()),
        (Some(12), Some(3), Some(9))
    );
    assert_eq!(data["total_fen"], 3 * PRICE);
    let reasons = line_reasons(data);
    let expected = [
        (3, "order.account.invalid"),
        (4, "order.account.carrier_mismatch"),
        (5, "order.quote.unavailable"),
        (6, "order.product.unknown"),
        (7, "batch.duplicate_in_file"),
        (8, "order.merchant_order_id.duplicate"),
        (9, "order.merchant_order_id.invalid"),
        (10, "batch.line_incomplete"),
        (13, "funds.insufficient"),
    ];
    assert_eq!(reasons, expected.map(|(line, key)| (line, key.to_string())).to_vec());
    // Nothing charged, nothing placed.
    assert_eq!(app.figures(mid).await.0, balance);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    // Submitting places the three valid lines; submitting again changes nothing.
    let batch_id = data["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(
        (submit.data()["placed_rows"].as_i64(), submit.data()["status"].as_i64()),
        (Some(3), Some(1)),
        "{:?}",
        submit.body
    );
    let again = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(again.code(), 40900, "a submitted batch is not submitted again: {:?}", again.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 4);
    assert_eq!(app.figures(mid).await.0, balance - 3 * PRICE);
    app.assert_books_balance(mid).await;
    let listed = app.post_as(&token, "/adminapi/order/batch/list", json!({})).await;
    assert_eq!(listed.data()["list"][0]["invalid_rows"], 9);
    assert_eq!(listed.data()["list"][0]["file_name"], "mixed.csv");
    let result = app
        .client
        .get(app.url(&format!("/adminapi/order/batch/result?batch_id={batch_id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let csv = result.text().await.unwrap();
    assert_eq!(csv.lines().count(), 13);
    assert!(csv.contains("placed") && csv.contains("sanity check"), "{csv}");
}

/// A preview looks its merchant order ids up 10,000 at a time, two look-ups at once: an id
/// used already is found in the first list, a middle one and the last, short one.
async fn a_preview_finds_used_ids_in_every_list_it_looks_up(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("lookups").await;
    let lines = 25_000;
    app.fund(mid, (lines + 3) * PRICE, 0).await;
    for index in [5, 15_000, 24_999] {
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("U-{index}")});
        assert_eq!(app.add_order(&token, body).await.code(), 20000);
    }
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": numbered(lines, "U")})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    assert_eq!(preview.data()["valid_rows"], lines - 3);
    // Line 1 is the title: index i is on line i + 2.
    let key = "order.merchant_order_id.duplicate".to_string();
    assert_eq!(line_reasons(preview.data()), [(7, key.clone()), (15_002, key.clone()), (25_001, key)]);
}

/// A preview's refused lines: line number and reason key.
fn line_reasons(data: &serde_json::Value) -> Vec<(i64, String)> {
    data["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|error| (error["line_no"].as_i64().unwrap(), error["reason_key"].as_str().unwrap().to_string()))
        .collect()
}

/// A submit places its lines range by range (5,000 lines on SQLite, 2,500 on PostgreSQL, two
/// at a time there) and places each line once, as an order of the batch with its merchant
/// order id.
async fn a_batch_of_several_chunks_places_every_line_once_with_its_order(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("bulk").await;
    let lines = 12_001;
    app.fund(mid, lines * PRICE, 0).await;
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": numbered(lines, "L")})).await;
    assert_eq!(preview.data()["valid_rows"], lines, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.data()["placed_rows"], lines, "{:?}", submit.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, lines);
    assert_eq!(linked(&app, batch_id).await, lines);
    assert_eq!(app.figures(mid).await.0, 0);
    app.assert_books_balance(mid).await;
}

/// The batch's stored lines that an order of the batch bears, with their merchant order id
/// and account (a placed line is known by its order; it is not marked).
async fn linked(app: &TestApp, batch_id: i64) -> i64 {
    let orders: std::collections::HashSet<(String, String)> =
        sqlx::query_as("SELECT merchant_order_id, account FROM orders WHERE batch_id = $1")
            .bind(batch_id)
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap()
            .into_iter()
            .collect();
    let lines = app.batch_lines(batch_id).await;
    lines.into_iter().filter(|(_, account, _, id, _)| orders.contains(&(id.clone(), account.clone()))).count() as i64
}

/// A submit that fails part-way keeps the ranges it placed; the next submit places the
/// rest, each line once. The failure is a trigger refusing one order of a middle range.
async fn a_submit_cut_short_is_finished_by_the_next_one(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("resume").await;
    let lines = 12_001;
    app.fund(mid, lines * PRICE, 0).await;
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": numbered(lines, "C")})).await;
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    app.refuse_order_inserts("C-7000").await;
    let cut = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_ne!(cut.code(), 20000, "{:?}", cut.body);
    let kept = app.scalar("SELECT COUNT(*) FROM orders WHERE batch_id = $1", batch_id).await;
    assert!(kept > 0 && kept < lines, "whole ranges were kept before the failure: {kept}");
    assert_eq!(linked(&app, batch_id).await, kept);
    app.assert_books_balance(mid).await;
    app.allow_every_order().await;
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!((submit.data()["placed_rows"].as_i64(), submit.data()["failed_rows"].as_i64()), (Some(lines), Some(0)));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, lines);
    assert_eq!(linked(&app, batch_id).await, lines);
    assert_eq!(app.figures(mid).await.0, 0);
    app.assert_books_balance(mid).await;
}

/// Two submits of one batch at once, and an order placed by hand while they run, against
/// funds for exactly the batch. On PostgreSQL the batch's ranges go side by side; whichever
/// way each range takes, every line is placed or refused once and the money is spent once:
/// the hand order and the batch's last placed line cannot both be paid.
async fn submits_at_once_and_an_order_beside_them_spend_the_funds_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("race").await;
    let lines = 10_500;
    app.fund(mid, lines * PRICE, 0).await;
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": numbered(lines, "R")})).await;
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    // One submission sent twice (a double click): the same key, so whichever finishes second
    // is answered too.
    let submit = || {
        let request = app.client.post(app.url("/adminapi/order/batch/submit")).bearer_auth(&token);
        app.send(request.header("Idempotency-Key", "race").json(&json!({"batch_id": batch_id})))
    };
    let by_hand = app.post_as(
        &token,
        "/adminapi/order/add",
        json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"}),
    );
    let (first, second, by_hand) = tokio::join!(submit(), submit(), by_hand);
    assert_eq!((first.code(), second.code()), (20000, 20000), "{:?} {:?}", first.body, second.body);
    let added = i64::from(by_hand.code() == 20000);
    assert!(added == 1 || by_hand.code() != 20000, "{:?}", by_hand.body);
    let placed = app.scalar("SELECT COUNT(*) FROM orders WHERE batch_id = $1", batch_id).await;
    let refused =
        app.scalar("SELECT COUNT(*) FROM order_batch_rows WHERE batch_id = $1 AND outcome = 3", batch_id).await;
    assert_eq!((placed + added, placed + refused), (lines, lines));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, lines);
    assert_eq!(linked(&app, batch_id).await, placed);
    for answer in [&first, &second] {
        let counts = (answer.data()["placed_rows"].as_i64(), answer.data()["failed_rows"].as_i64());
        assert!(counts.0.unwrap() <= placed && counts.1.unwrap() <= refused, "{:?}", answer.body);
    }
    assert_eq!(app.figures(mid).await.0, 0);
    app.assert_books_balance(mid).await;
}

async fn files_and_templates_round_trip(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100 * PRICE, 0).await;
    for format in ["csv", "xlsx"] {
        let template = app
            .client
            .get(app.url(&format!("/adminapi/order/batch/template?format={format}")))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(template.status(), 200);
        let bytes = template.bytes().await.unwrap().to_vec();
        // The template's example line is itself a valid order.
        let part = reqwest::multipart::Part::bytes(bytes).file_name(format!("template.{format}"));
        let form = reqwest::multipart::Form::new().part("file", part);
        let answer = app
            .send(app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token).multipart(form))
            .await;
        assert_eq!(answer.code(), 20000, "{format}: {:?}", answer.body);
        assert_eq!(
            (answer.data()["total_rows"].as_i64(), answer.data()["valid_rows"].as_i64()),
            (Some(1), Some(1)),
            "{format}"
        );
    }
    let empty = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(b"\n\n".to_vec()).file_name("empty.csv"));
    let answer =
        app.send(app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token).multipart(empty)).await;
    assert_eq!(answer.data()["keys"]["file"], "batch.empty");
    let junk = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(b"PK\x03\x04junk".to_vec()).file_name("x.xlsx"));
    let answer =
        app.send(app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token).multipart(junk)).await;
    assert_eq!(answer.data()["keys"]["file"], "batch.file_unreadable");
    assert_eq!(app.figures(mid).await.0, 100 * PRICE);
}
