//! Batch rules: a bounded file name, prices read again under the lock at submit, generated
//! merchant order ids that cannot collide with the file's own, previews that can be
//! discarded or expire, ported numbers confirmed, lines repeating a recent order or an
//! earlier line flagged, and the result file's final outcome.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    a_submit_refuses_lines_whose_quote_changed,
    generated_ids_never_collide_and_names_are_bounded,
    previews_can_be_discarded_and_expire,
    ported_numbers_and_recent_duplicates,
    repeats_within_a_file_are_flagged
);

async fn preview(app: &TestApp, token: &str, body: serde_json::Value) -> serde_json::Value {
    let answer = app.post_as(token, "/adminapi/order/batch/preview", body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().clone()
}

/// The batch's refused lines and their stored reasons, by line.
pub(crate) async fn refused_lines(app: &TestApp, batch_id: i64) -> Vec<(i64, String)> {
    sqlx::query_as("SELECT line_no, reason FROM order_batch_rows WHERE batch_id = $1 AND reason <> '' ORDER BY line_no")
        .bind(batch_id)
        .fetch_all(&app.state.db.pool)
        .await
        .unwrap()
}

pub(crate) async fn result_csv(app: &TestApp, token: &str, batch_id: i64) -> String {
    let path = format!("/adminapi/order/batch/result?batch_id={batch_id}");
    app.client.get(app.url(&path)).bearer_auth(token).send().await.unwrap().text().await.unwrap()
}

async fn a_submit_refuses_lines_whose_quote_changed(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let text = "13800138000,MOBILE-DIRECT-10,P1\n13800138000,MOBILE-DIRECT-20,P2\n13800138000,MOBILE-DIRECT-30,P3";
    let data = preview(&app, &token, json!({"text": text})).await;
    assert_eq!(data["valid_rows"], 3, "{data}");
    let batch_id = data["batch_id"].as_i64().unwrap();
    let balance = app.figures(mid).await.0;
    let price_30 = app.batch_lines(batch_id).await.iter().find(|line| line.0 == 3).expect("line 3").4;
    // After the preview: one product repriced, one switched off.
    let admin = app.login(ADMIN).await;
    for (key, price, status) in [("MOBILE-DIRECT-10", 1, 1), ("MOBILE-DIRECT-20", 1970, 0)] {
        let body = json!({"merchant_id": mid, "product_key": key, "price_fen": price, "status": status});
        assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", body).await.code(), 20000);
    }
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.code(), 20000, "{:?}", submit.body);
    assert_eq!((submit.data()["placed_rows"].as_i64(), submit.data()["failed_rows"].as_i64()), (Some(1), Some(2)));
    assert_eq!(app.figures(mid).await.0, balance - price_30, "only the unchanged line is charged, at its price");
    let stored = |line: i64| {
        let app = &app;
        async move {
            sqlx::query_scalar::<_, String>("SELECT reason FROM order_batch_rows WHERE batch_id = $1 AND line_no = $2")
                .bind(batch_id)
                .bind(line)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap()
        }
    };
    assert_eq!(stored(1).await, "batch.quote_changed");
    assert_eq!(stored(2).await, "order.quote.unavailable");
    let csv = result_csv(&app, &token, batch_id).await;
    assert!(csv.contains("price for this product changed after the preview"), "{csv}");
    app.assert_books_balance(mid).await;
}

async fn generated_ids_never_collide_and_names_are_bounded(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let next: i64 = app.scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM order_batches WHERE $1 > 0", mid).await;
    // Line 1 has no id and would get B<batch>-1, which line 2 names explicitly.
    let text = format!("13800138000,MOBILE-DIRECT-10\n13800138000,MOBILE-DIRECT-10,B{next}-1");
    let data = preview(&app, &token, json!({"text": text})).await;
    assert_eq!((data["batch_id"].as_i64(), data["valid_rows"].as_i64()), (Some(next), Some(2)), "{data}");
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": next})).await;
    assert_eq!((submit.code(), submit.data()["placed_rows"].as_i64()), (20000, Some(2)), "{:?}", submit.body);
    assert_eq!(app.scalar("SELECT COUNT(DISTINCT merchant_order_id) FROM orders WHERE merchant_id = $1", mid).await, 2);

    let long_name = "x".repeat(101);
    let answer = app
        .post_as(
            &token,
            "/adminapi/order/batch/preview",
            json!({"text": "13800138000,MOBILE-DIRECT-10", "file_name": long_name}),
        )
        .await;
    assert_eq!((answer.code(), answer.data()["keys"]["file_name"].as_str()), (40000, Some("batch.file_name_too_long")));
    let huge_name = "x".repeat(30 * 1024 * 1024);
    let answer = app
        .post_as(
            &token,
            "/adminapi/order/batch/preview",
            json!({"text": "13800138000,MOBILE-DIRECT-10", "file_name": huge_name}),
        )
        .await;
    assert_eq!(answer.code(), 40000);
    let part = reqwest::multipart::Part::bytes(b"13800138000,MOBILE-DIRECT-10".to_vec()).file_name("y".repeat(5_000));
    let form = reqwest::multipart::Form::new().part("file", part);
    let answer =
        app.send(app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token).multipart(form)).await;
    assert_eq!(answer.code(), 20000);
    let longest: i64 = app.scalar("SELECT MAX(LENGTH(file_name)) FROM order_batches WHERE merchant_id = $1", mid).await;
    assert_eq!(longest, 100);
}

async fn previews_can_be_discarded_and_expire(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let first = preview(&app, &token, json!({"text": "13800138000,MOBILE-DIRECT-10"})).await;
    assert!(first["expires_at"].as_str().is_some());
    let first_id = first["batch_id"].as_i64().unwrap();
    let listed = app.post_as(&token, "/adminapi/order/batch/list", json!({})).await;
    assert!(listed.data()["list"][0]["expires_at"].as_str().is_some());
    let discard = app.post_as(&token, "/adminapi/order/batch/discard", json!({"batch_id": first_id})).await;
    assert_eq!(discard.code(), 20000, "{:?}", discard.body);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batches WHERE merchant_id = $1", mid).await, 0);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batch_rows WHERE batch_id = $1", first_id).await, 0);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batch_ranges WHERE batch_id = $1", first_id).await, 0);
    let again = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": first_id})).await;
    assert_eq!(again.code(), 40400);
    // A submitted batch stays.
    let placed =
        preview(&app, &token, json!({"text": "13800138000,MOBILE-DIRECT-10"})).await["batch_id"].as_i64().unwrap();
    assert_eq!(app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": placed})).await.code(), 20000);
    let refused = app.post_as(&token, "/adminapi/order/batch/discard", json!({"batch_id": placed})).await;
    assert_eq!((refused.code(), refused.msg()), (40900, "Only a preview that has not been submitted can be discarded"));
    // Another merchant's preview cannot be discarded (nor seen).
    let (_, other) = app.merchant("other").await;
    let theirs = app.post_as(&other, "/adminapi/order/batch/discard", json!({"batch_id": placed})).await;
    assert_eq!(theirs.code(), 40400);
    // A day-old preview cannot be submitted, and the next preview removes it.
    let old =
        preview(&app, &token, json!({"text": "13900139000,MOBILE-DIRECT-10"})).await["batch_id"].as_i64().unwrap();
    let day_ago = backoffice::platform::db::now_millis() - 24 * 60 * 60 * 1000 - 1;
    sqlx::query("UPDATE order_batches SET created_at = $1 WHERE id = $2")
        .bind(day_ago)
        .bind(old)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let late = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": old})).await;
    assert_eq!((late.code(), late.data().clone()), (40900, serde_json::Value::Null), "{:?}", late.body);
    preview(&app, &token, json!({"text": "13900139000,MOBILE-DIRECT-10"})).await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batches WHERE id = $1", old).await, 0);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_batches WHERE id = $1", placed).await, 1);
}

async fn ported_numbers_and_recent_duplicates(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    // 186 is a China Unicom segment: a mobile product needs the ported confirmation.
    let text = "18600000000,MOBILE-DIRECT-10";
    let plain = preview(&app, &token, json!({"text": text})).await;
    assert_eq!(plain["errors"][0]["reason_key"], "order.account.carrier_mismatch");
    assert!(!plain["errors"][0]["reason"].as_str().unwrap().contains("allow_ported"));
    let confirmed = preview(&app, &token, json!({"text": text, "allow_ported": true})).await;
    assert_eq!(confirmed["valid_rows"], 1, "{confirmed}");
    let form = reqwest::multipart::Form::new()
        .text("allow_ported", "true")
        .part("file", reqwest::multipart::Part::bytes(text.as_bytes().to_vec()).file_name("p.csv"));
    let answer =
        app.send(app.client.post(app.url("/adminapi/order/batch/preview")).bearer_auth(&token).multipart(form)).await;
    assert_eq!(answer.data()["valid_rows"], 1, "{:?}", answer.body);

    // Ordered once; pasted again without merchant order ids, the repeat is flagged.
    let first = "13800138000,MOBILE-DIRECT-10\n13900139000,MOBILE-DIRECT-20";
    let batch = preview(&app, &token, json!({"text": first})).await;
    assert_eq!(batch["recent_duplicate_rows"], 0);
    let batch_id = batch["batch_id"].as_i64().unwrap();
    assert_eq!(app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await.code(), 20000);
    let again = preview(
        &app,
        &token,
        json!({"text": format!("{first}\n13800138000,MOBILE-DIRECT-20\n13800138000,MOBILE-DIRECT-10,NEW-ID")}),
    )
    .await;
    assert_eq!(again["recent_duplicate_rows"], 2, "{again}");
    let lines: Vec<i64> =
        again["recent_duplicates"].as_array().unwrap().iter().map(|d| d["line_no"].as_i64().unwrap()).collect();
    assert_eq!(lines, vec![1, 2]);
    assert_eq!(again["recent_duplicates"][0]["order_no"].as_str().map(str::len), Some(24));

    // The result file gains the order's final outcome once known.
    let order_id: i64 = app.scalar("SELECT MIN(id) FROM orders WHERE merchant_id = $1", mid).await;
    sqlx::query("UPDATE orders SET status = 3, failure_reason = 'carrier refused' WHERE id = $1")
        .bind(order_id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let csv = result_csv(&app, &token, batch_id).await;
    assert!(csv.lines().next().unwrap().ends_with("Order status\",\"Failure reason\""), "{csv}");
    assert!(csv.contains("\"failure\",\"carrier refused\""), "{csv}");
    assert!(csv.contains("\"pending\","), "{csv}");
}

/// A number and product twice in one file without merchant order ids would be ordered
/// twice: the second line is flagged like a repeat of a recent order.
async fn repeats_within_a_file_are_flagged(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let text = "account,product_key\n13800138666,MOBILE-DIRECT-10\n13800138666,MOBILE-DIRECT-20\n\
                13800138666,MOBILE-DIRECT-10,OWN-ID\n13800138666,MOBILE-DIRECT-10";
    let batch = preview(&app, &token, json!({"text": text})).await;
    assert_eq!((batch["valid_rows"].as_i64(), batch["recent_duplicate_rows"].as_i64()), (Some(4), Some(1)), "{batch}");
    let repeat = &batch["recent_duplicates"][0];
    assert_eq!((repeat["line_no"].as_i64(), repeat["repeats_line_no"].as_i64()), (Some(5), Some(2)), "{batch}");
    assert_eq!((repeat["account"].as_str(), repeat["order_no"].as_str()), (Some("13800138666"), None), "{batch}");
}
