//! The administrators' ported-number records (携号转网记录): a port recorded through the
//! supplier path's own function is listed (filtered by number and carrier, newest first,
//! with the channel and the order) and exported; merchants may not touch them; a wrong one
//! is removed with a reason, audited, and from then on the number is ordered as its
//! segment's carrier again, on this server at once and on another server on the same
//! database too, even when another report lands beside the removal.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(a_wrong_port_is_removed_with_a_reason_and_no_server_applies_it_after);

/// A China Mobile number a supplier (wrongly) reported as moved away.
const MOVED: &str = "13700137000";
/// A China Unicom number reported moved away too.
const OTHER: &str = "18600186000";

fn mobile(account: &str) -> Value {
    json!({"account": account, "product_key": "MOBILE-DIRECT-10"})
}

/// A pending order (the worker is off) for `body`, as a supplier's answer would be about.
async fn pending_order(app: &TestApp, token: &str, body: Value) -> i64 {
    let placed = app.add_order(token, body).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    placed.data()["order"]["id"].as_i64().unwrap()
}

async fn list(app: &TestApp, token: &str, filter: Value) -> Value {
    let answer = app.post_as(token, "/adminapi/admin/ports/list", filter).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().clone()
}

/// Places `body` on `app` until the answer is not a refusal for the port (10 s at most).
async fn until_placed(app: &TestApp, token: &str, body: Value) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let answer = app.add_order(token, body.clone()).await;
        if answer.code() == 20000 {
            return;
        }
        assert_eq!(answer.data()["keys"]["account"], "order.account.ported", "{:?}", answer.body);
        assert!(std::time::Instant::now() < deadline, "the removal was not seen within 10 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

async fn a_wrong_port_is_removed_with_a_reason_and_no_server_applies_it_after(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let other = app.restart_with(|config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("porter").await;
    app.fund(mid, 100_000, 0).await;
    let (channel_id, channel_name): (i64, String) =
        sqlx::query_as("SELECT id, name FROM channels WHERE code = 'sandbox'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();

    // Recorded as the worker records a supplier's code 13 (`supply::worker::learn_port`).
    let order_id = pending_order(&app, &token, mobile(MOVED)).await;
    app.state.ports.record(&app.state.db, order_id, channel_id).await.unwrap();
    let unicom = pending_order(&app, &token, json!({"account": OTHER, "product_key": "UNICOM-DIRECT-10"})).await;
    app.state.ports.record(&app.state.db, unicom, channel_id).await.unwrap();
    let refused = app.add_order(&token, mobile(MOVED)).await;
    assert_eq!(refused.data()["keys"]["account"], "order.account.ported", "{:?}", refused.body);
    // The other server follows the table: it refuses too within a second.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while other.add_order(&token, mobile(MOVED)).await.code() == 20000 {
        assert!(std::time::Instant::now() < deadline, "the other server never applied the port");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }

    // Listed newest first, with the channel by name and the order.
    let all = list(&app, &admin, json!({})).await;
    assert_eq!(all["total"], 2, "{all}");
    assert_eq!(all["list"][0]["number"], OTHER, "newest first: {all}");
    let row = &all["list"][1];
    let system_order_id: String = sqlx::query_scalar("SELECT system_order_id FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(
        (&row["number"], &row["from_carrier"], &row["channel_name"], &row["order_id"], &row["system_order_id"]),
        (&json!(MOVED), &json!("mobile"), &json!(channel_name), &json!(order_id), &json!(system_order_id)),
        "{row}"
    );
    let by_number = list(&app, &admin, json!({"number": "+86 137 0013"})).await;
    assert_eq!((&by_number["total"], &by_number["list"][0]["number"]), (&json!(1), &json!(MOVED)), "{by_number}");
    let by_carrier = list(&app, &admin, json!({"from_carrier": "unicom"})).await;
    assert_eq!((&by_carrier["total"], &by_carrier["list"][0]["number"]), (&json!(1), &json!(OTHER)), "{by_carrier}");
    let bad = app.post_as(&admin, "/adminapi/admin/ports/list", json!({"from_carrier": "nope"})).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (400, 40000), "{:?}", bad.body);
    let url = app.url("/adminapi/admin/ports/export?format=csv&from_carrier=mobile");
    let file = app.client.get(url).bearer_auth(&admin).send().await.unwrap().text().await.unwrap();
    assert!(file.contains("Carrier left") && file.contains("China Mobile"), "{file}");
    assert!(file.contains(MOVED) && file.contains(&system_order_id) && !file.contains(OTHER), "{file}");

    // Merchants may not read, remove or export.
    let body = json!({"number": MOVED, "reason": "x"});
    for path in ["/adminapi/admin/ports/list", "/adminapi/admin/ports/delete"] {
        let answer = app.post_as(&token, path, body.clone()).await;
        assert_eq!(answer.status.as_u16(), 403, "{path}: {:?}", answer.body);
    }
    assert_eq!(app.get_as(&token, "/adminapi/admin/ports/export").await.status.as_u16(), 403);

    // A removal needs a reason.
    let blank = app.post_as(&admin, "/adminapi/admin/ports/delete", json!({"number": MOVED, "reason": "  "})).await;
    assert_eq!((blank.status.as_u16(), &blank.data()["keys"]["reason"]), (422, &json!("port.reason.invalid")));
    let removed =
        app.post_as(&admin, "/adminapi/admin/ports/delete", json!({"number": MOVED, "reason": "供应商误报"})).await;
    assert_eq!(removed.code(), 20000, "{:?}", removed.body);
    // Beside the removal another server records a report with a clock a little behind: the
    // count and the newest time stay as they were, the version does not.
    sqlx::query("INSERT INTO number_ports (account, from_carrier, recorded_at) VALUES ('13900139000', 1, 0)")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let again = app.post_as(&admin, "/adminapi/admin/ports/delete", json!({"number": MOVED, "reason": "r"})).await;
    assert_eq!(again.status.as_u16(), 404, "{:?}", again.body);
    let audited: Vec<(Option<i64>, String)> =
        sqlx::query_as("SELECT user_id, params FROM audit_events WHERE action = 'number_port_removed' AND target = $1")
            .bind(format!("port:{MOVED}"))
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(audited.len(), 1, "{audited:?}");
    assert!(audited[0].0.is_some() && audited[0].1.contains("供应商误报"), "{audited:?}");

    // The number is its segment's carrier's again: here at once, there within a second.
    assert_eq!(app.add_order(&token, mobile(MOVED)).await.code(), 20000);
    let price = app.post_as(&token, "/adminapi/order/price", json!({"account": MOVED})).await;
    assert_eq!(price.data()["ported_from"], json!(null), "{:?}", price.body);
    until_placed(&other, &token, mobile(MOVED)).await;
    let left = list(&app, &admin, json!({})).await;
    assert_eq!(left["total"], 2, "the unicom one and the late report: {left}");
    app.assert_books_balance(mid).await;
}
