//! A preview read back by its batch id (to reopen it after leaving the page), submitted once
//! whatever is clicked twice; a submitted, discarded or expired batch refused; and the batch
//! list's outcome per batch: placed, refused, and of the placed orders how many succeeded,
//! failed or are still in progress.

use crate::channel_support::PRICE;
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_preview_reads_back_as_it_was_answered_and_submits_once,
    submitted_discarded_and_expired_batches_are_refused,
    the_batch_list_shows_each_batchs_outcome
);

async fn preview(app: &TestApp, token: &str, text: &str) -> Value {
    let answer = app.post_as(token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "a.csv"})).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().clone()
}

async fn detail(app: &TestApp, token: &str, batch_id: i64) -> crate::helpers::Answer {
    app.post_as(token, "/adminapi/order/batch/detail", json!({"batch_id": batch_id})).await
}

async fn submit(app: &TestApp, token: &str, batch_id: i64, key: Option<&str>) -> crate::helpers::Answer {
    let request = app.client.post(app.url("/adminapi/order/batch/submit")).bearer_auth(token);
    let request = match key {
        Some(key) => request.header("Idempotency-Key", key),
        None => request,
    };
    app.send(request.json(&json!({"batch_id": batch_id}))).await
}

async fn a_preview_reads_back_as_it_was_answered_and_submits_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("reopen").await;
    app.fund(mid, 10 * PRICE, 0).await;
    // Ordered once; the file repeats it (a recent order), repeats its own line 2 (within the
    // file), and has a bad number and a ported one.
    assert_eq!(
        app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await.code(),
        20000
    );
    let text = "13800138000,MOBILE-DIRECT-10\n13900139000,MOBILE-DIRECT-10\n1390013900,MOBILE-DIRECT-10,BAD\n\
                18600000000,MOBILE-DIRECT-10,PORTED\n13900139000,MOBILE-DIRECT-10\n13700137000,MOBILE-DIRECT-10,OWN";
    let answered = preview(&app, &token, text).await;
    assert_eq!((answered["valid_rows"].as_i64(), answered["recent_duplicate_rows"].as_i64()), (Some(4), Some(2)));
    let batch_id = answered["batch_id"].as_i64().unwrap();

    let read = detail(&app, &token, batch_id).await;
    assert_eq!(read.code(), 20000, "{:?}", read.body);
    let (batch, again) = (&read.data()["batch"], &read.data()["preview"]);
    for field in ["batch_id", "total_rows", "valid_rows", "invalid_rows", "total_fen", "spendable_fen", "errors"] {
        assert_eq!(again[field], answered[field], "{field}");
    }
    for field in ["recent_duplicates", "recent_duplicate_rows", "expires_at"] {
        assert_eq!(again[field], answered[field], "{field}");
    }
    assert_eq!(again["errors"][1]["reason_key"], "order.account.carrier_mismatch");
    assert_eq!((batch["status"].as_i64(), batch["file_name"].as_str()), (Some(0), Some("a.csv")));
    // In the caller's language, as the preview was.
    let chinese = app
        .send(
            app.client
                .post(app.url("/adminapi/order/batch/detail"))
                .bearer_auth(&token)
                .header("Accept-Language", "zh-CN")
                .json(&json!({"batch_id": batch_id})),
        )
        .await;
    assert!(chinese.data()["preview"]["errors"][1]["reason"].as_str().unwrap().contains("携号转网"));

    // Only its merchant (and administrators) may read it.
    let (_, other) = app.merchant("stranger").await;
    let theirs = detail(&app, &other, batch_id).await;
    assert_eq!((theirs.status.as_u16(), theirs.code()), (404, 40400), "{:?}", theirs.body);
    assert_eq!(theirs.msg(), "No such batch: it was discarded, or expired before it was submitted");
    assert_eq!(submit(&app, &other, batch_id, None).await.code(), 40400);
    let admin = app.login(ADMIN).await;
    assert_eq!(detail(&app, &admin, batch_id).await.data()["preview"]["valid_rows"], 4);

    // Submitted from the reopened preview: a double click (the same key) places once.
    let (first, second) = tokio::join!(
        submit(&app, &token, batch_id, Some("reopen-1")),
        submit(&app, &token, batch_id, Some("reopen-1"))
    );
    for answer in [&first, &second] {
        assert_eq!((answer.code(), answer.data()["placed_rows"].as_i64()), (20000, Some(4)), "{:?}", answer.body);
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE batch_id = $1", batch_id).await, 4);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 5);
    let after = detail(&app, &token, batch_id).await;
    assert_eq!(
        (after.data()["batch"]["status"].as_i64(), after.data()["batch"]["placed_rows"].as_i64()),
        (Some(1), Some(4))
    );
    app.assert_books_balance(mid).await;
}

async fn submitted_discarded_and_expired_batches_are_refused(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("refusals").await;
    app.fund(mid, 10 * PRICE, 0).await;
    // Submitted: only a repeat of that very submit (its key) is answered; any other is refused.
    let placed = preview(&app, &token, "13800138000,MOBILE-DIRECT-10,S1").await["batch_id"].as_i64().unwrap();
    assert_eq!(submit(&app, &token, placed, Some("first")).await.code(), 20000);
    assert_eq!(submit(&app, &token, placed, Some("first")).await.data()["placed_rows"], 1);
    for key in [Some("second"), None] {
        let refused = submit(&app, &token, placed, key).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (409, 40900), "{:?}", refused.body);
        assert_eq!(refused.msg(), "This batch has been submitted already: its outcome is in the batch list");
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);

    // Discarded: gone, and said so.
    let voided = preview(&app, &token, "13800138000,MOBILE-DIRECT-10,V1").await["batch_id"].as_i64().unwrap();
    assert_eq!(app.post_as(&token, "/adminapi/order/batch/discard", json!({"batch_id": voided})).await.code(), 20000);
    for answer in [detail(&app, &token, voided).await, submit(&app, &token, voided, Some("voided")).await] {
        assert_eq!(
            (answer.code(), answer.msg()),
            (40400, "No such batch: it was discarded, or expired before it was submitted")
        );
    }

    // Expired: read back with its expiry in the past, and not submitted.
    let old = preview(&app, &token, "13800138000,MOBILE-DIRECT-10,E1").await["batch_id"].as_i64().unwrap();
    let day_ago = backoffice::platform::db::now_millis() - 24 * 60 * 60 * 1000 - 1;
    sqlx::query("UPDATE order_batches SET created_at = $1 WHERE id = $2")
        .bind(day_ago)
        .bind(old)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let read = detail(&app, &token, old).await;
    let expired_at = backoffice::platform::db::millis_to_rfc3339(day_ago + 24 * 60 * 60 * 1000);
    assert_eq!(read.data()["preview"]["expires_at"].as_str(), Some(expired_at.as_str()), "{:?}", read.body);
    let late = submit(&app, &token, old, Some("late")).await;
    assert_eq!(
        (late.code(), late.msg()),
        (40900, "This preview has expired (previews are kept for 24 hours): preview the file again")
    );
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
}

async fn the_batch_list_shows_each_batchs_outcome(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("outcomes").await;
    // One line is invalid at preview; one valid line is refused at submit, its quote switched
    // off after the preview.
    app.fund(mid, 10 * PRICE, 0).await;
    let text = "13800138001,MOBILE-DIRECT-10,O1\n13800138002,MOBILE-DIRECT-10,O2\n13800138003,MOBILE-DIRECT-10,O3\n\
                13800138004,MOBILE-DIRECT-10,O4\n13800138005,MOBILE-DIRECT-10,O5\n13800138006,MOBILE-DIRECT-20,O6\n\
                1380013800,MOBILE-DIRECT-10,BAD";
    let batch_id = preview(&app, &token, text).await["batch_id"].as_i64().unwrap();
    let admin = app.login(ADMIN).await;
    let off = json!({"merchant_id": mid, "product_key": "MOBILE-DIRECT-20", "price_fen": 1970, "status": 0});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", off).await.code(), 20000);
    assert_eq!(submit(&app, &token, batch_id, None).await.code(), 20000);
    // Two orders succeed, one fails, two are still with their channel.
    for (id, status) in [("O1", 2), ("O2", 2), ("O3", 3), ("O4", 1)] {
        sqlx::query("UPDATE orders SET status = $1 WHERE merchant_id = $2 AND merchant_order_id = $3")
            .bind(status)
            .bind(mid)
            .bind(id)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
    }
    // A second batch, only previewed, and another merchant's, both on the same page.
    let previewed = preview(&app, &token, "13900139000,MOBILE-DIRECT-10\n139,MOBILE-DIRECT-10").await;
    let (other_mid, other) = app.merchant("neighbour").await;
    app.fund(other_mid, 10 * PRICE, 0).await;
    let theirs = preview(&app, &other, "13700137000,MOBILE-DIRECT-10,T1").await["batch_id"].as_i64().unwrap();
    assert_eq!(submit(&app, &other, theirs, None).await.code(), 20000);

    let outcome = |batch: &Value| {
        [
            "status",
            "total_rows",
            "placed_rows",
            "refused_rows",
            "succeeded_orders",
            "failed_orders",
            "in_progress_orders",
        ]
        .map(|field| batch[field].as_i64().unwrap())
    };
    let listed = app.post_as(&token, "/adminapi/order/batch/list", json!({})).await;
    let list = listed.data()["list"].as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "{list:?}");
    assert_eq!(list[0]["batch_id"], previewed["batch_id"]);
    assert_eq!(outcome(&list[0]), [0, 2, 0, 1, 0, 0, 0]);
    assert_eq!(list[1]["batch_id"], batch_id);
    assert_eq!(outcome(&list[1]), [1, 7, 5, 2, 2, 1, 2]);
    // The administrator's page holds all three, each with its own counts.
    let all = app.post_as(&admin, "/adminapi/order/batch/list", json!({"page_size": 10})).await;
    let all = all.data()["list"].as_array().unwrap().clone();
    assert_eq!(
        all.iter().map(outcome).collect::<Vec<_>>(),
        [[1, 1, 1, 0, 0, 0, 1], [0, 2, 0, 1, 0, 0, 0], [1, 7, 5, 2, 2, 1, 2]]
    );
}
