//! Risk controls at placement: one order in flight per number (on by default, per merchant),
//! per-number daily limits and a merchant's daily cap. Each refusal has its own code in the
//! console, the open API and a batch's line, and is counted on the live monitor; only
//! administrators change the settings, audited.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::live::open_with_ticket;
use crate::on_both_backends;
use crate::open_api::{Call, config, merchant_with_key, send};
use serde_json::{Value, json};

on_both_backends!(
    many_orders_at_once_for_one_number_place_exactly_one,
    the_number_is_free_again_once_its_order_finishes,
    a_merchant_may_switch_single_flight_off_and_only_administrators_change_it,
    daily_limits_and_the_cap_refuse_what_would_pass_them,
    a_batch_marks_the_line_and_the_open_api_answers_the_code,
    a_batch_counts_its_own_lines_against_the_daily_limits,
    every_server_counts_the_refusals_of_the_others,
);

const NUMBER: &str = "13912345678";

async fn app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| config.worker.enabled = false).await
}

fn order(account: &str) -> Value {
    json!({"account": account, "product_key": "MOBILE-DIRECT-10"})
}

/// On behalf: the order waits for a person (the worker is off anyway), who may mark it.
fn behalf(account: &str) -> Value {
    json!({"account": account, "product_key": "MOBILE-DIRECT-10", "behalf": true})
}

async fn save(app: &TestApp, token: &str, mid: i64, settings: Value) -> crate::helpers::Answer {
    let mut body = json!({"merchant_id": mid, "single_flight": true, "number_daily_orders": 0,
        "number_daily_fen": 0, "daily_cap_fen": 0});
    for (field, value) in settings.as_object().unwrap() {
        body[field] = value.clone();
    }
    app.post_as(token, "/adminapi/admin/merchant/risk/save", body).await
}

fn refused_today(snapshot: &Value, reason: &str) -> u64 {
    let counts = snapshot["refused_today"].as_array().cloned().unwrap_or_default();
    counts.iter().find(|count| count["reason"] == reason).and_then(|count| count["count"].as_u64()).unwrap_or(0)
}

async fn many_orders_at_once_for_one_number_place_exactly_one(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant_as_new("buyer").await;
    app.fund(mid, 1_000_000, 0).await;
    let mut stream = open_with_ticket(&app, &admin).await;
    // Twenty at the same instant: group commit takes several into one group, others land
    // in later groups (and on PostgreSQL on writers side by side).
    let answers = futures_util::future::join_all((0..20).map(|index| {
        let spelled = if index % 2 == 0 { NUMBER.to_string() } else { "+86 139 1234 5678".to_string() };
        let (app, token) = (&app, &token);
        async move { app.add_order(token, order(&spelled)).await }
    }))
    .await;
    let placed = answers.iter().filter(|answer| answer.code() == 20000).count();
    assert_eq!(placed, 1, "{:?}", answers.iter().map(|answer| &answer.body).collect::<Vec<_>>());
    for answer in answers.iter().filter(|answer| answer.code() != 20000) {
        assert_eq!((answer.status.as_u16(), answer.code()), (409, 40940), "{:?}", answer.body);
        assert_eq!(answer.data()["keys"]["account"], "order.account.in_flight", "{:?}", answer.body);
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    let price = app.scalar("SELECT price_fen FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(app.figures(mid).await.0, 1_000_000 - price, "only the placed order is charged");
    app.assert_books_balance(mid).await;
    // Another number, another merchant: not affected.
    assert_eq!(app.add_order(&token, order("13912345679")).await.code(), 20000);
    let (other, other_token) = app.merchant_as_new("other").await;
    app.fund(other, 10_000, 0).await;
    assert_eq!(app.add_order(&other_token, order(NUMBER)).await.code(), 20000);
    // The monitor counts the nineteen refusals.
    let snapshot = stream.until(|data| refused_today(data, "number_in_flight") >= 19).await;
    assert_eq!(refused_today(&snapshot, "number_in_flight"), 19);
    assert_eq!(refused_today(&snapshot, "merchant_daily_cap"), 0);
}

async fn the_number_is_free_again_once_its_order_finishes(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant_as_new("buyer").await;
    app.fund(mid, 100_000, 0).await;
    for result in ["failure", "success"] {
        let first = app.add_order(&token, behalf(NUMBER)).await;
        assert_eq!(first.code(), 20000, "{:?}", first.body);
        let second = app.add_order(&token, order(NUMBER)).await;
        assert_eq!(second.code(), 40940, "{:?}", second.body);
        let id = first.data()["order"]["id"].as_i64().unwrap();
        let body = json!({"order_id": id, "result": result, "serial_no": "SN-1", "reason": "checked"});
        let resolved = app.post_as(&admin, "/adminapi/admin/order/resolve", body).await;
        assert_eq!(resolved.code(), 20000, "{:?}", resolved.body);
        let again = app.add_order(&token, behalf(NUMBER)).await;
        assert_eq!(again.code(), 20000, "after {result}: {:?}", again.body);
        // The new order is in flight now: finish it as well for the next round.
        let id = again.data()["order"]["id"].as_i64().unwrap();
        let body = json!({"order_id": id, "result": "failure", "reason": "checked"});
        assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", body).await.code(), 20000);
    }
    app.assert_books_balance(mid).await;
}

async fn a_merchant_may_switch_single_flight_off_and_only_administrators_change_it(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant_as_new("buyer").await;
    app.fund(mid, 100_000, 0).await;
    // The merchant reads its own settings, the defaults, and may not change them.
    let own = app.post_as(&token, "/adminapi/merchant/risk", json!({})).await;
    assert_eq!(own.code(), 20000, "{:?}", own.body);
    assert_eq!(
        own.data(),
        &json!({"merchant_id": mid, "single_flight": true, "number_daily_orders": 0, "number_daily_fen": 0, "daily_cap_fen": 0})
    );
    let denied = save(&app, &token, mid, json!({"single_flight": false})).await;
    assert_eq!((denied.status.as_u16(), denied.code()), (403, 40300), "{:?}", denied.body);
    let denied = app.post_as(&token, "/adminapi/admin/merchant/risk", json!({"merchant_id": mid})).await;
    assert_eq!(denied.code(), 40300, "{:?}", denied.body);
    // Validated: whole numbers of at least 0, for a merchant that exists.
    let bad = save(&app, &admin, mid, json!({"number_daily_fen": -1, "daily_cap_fen": -5})).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (400, 40000), "{:?}", bad.body);
    assert_eq!(bad.data()["keys"]["number_daily_fen"], "risk.limit.invalid");
    assert_eq!(bad.data()["keys"]["daily_cap_fen"], "risk.limit.invalid");
    let bad = save(&app, &admin, mid, json!({"number_daily_orders": 1.5})).await;
    assert_eq!(bad.code(), 40000, "{:?}", bad.body);
    assert_eq!(save(&app, &admin, 999_999, json!({})).await.status.as_u16(), 404);

    let saved = save(&app, &admin, mid, json!({"single_flight": false})).await;
    assert_eq!((saved.code(), &saved.data()["single_flight"]), (20000, &json!(false)), "{:?}", saved.body);
    let read = app.post_as(&admin, "/adminapi/admin/merchant/risk", json!({"merchant_id": mid})).await;
    assert_eq!(read.data()["single_flight"], false);
    for _ in 0..3 {
        assert_eq!(app.add_order(&token, order(NUMBER)).await.code(), 20000);
    }
    // Audited in the change's transaction, with every setting.
    let audited = app
        .scalar(
            "SELECT COUNT(*) FROM audit_events WHERE action = 'risk_limits_saved' AND target = 'merchant:' || $1",
            mid,
        )
        .await;
    assert_eq!(audited, 1);
    // On again: it holds for the orders placed from then on (those placed while it was off
    // do not hold the number), so the first order is placed and the next refused.
    assert_eq!(save(&app, &admin, mid, json!({"single_flight": true})).await.code(), 20000);
    assert_eq!(app.add_order(&token, order(NUMBER)).await.code(), 20000);
    assert_eq!(app.add_order(&token, order(NUMBER)).await.code(), 40940);
    assert_eq!(app.add_order(&token, order("13912345600")).await.code(), 20000);
}

async fn daily_limits_and_the_cap_refuse_what_would_pass_them(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant_as_new("buyer").await;
    app.fund(mid, 1_000_000, 0).await;
    let price = {
        let first = app.add_order(&token, order("13912340000")).await;
        assert_eq!(first.code(), 20000, "{:?}", first.body);
        first.data()["price_fen"].as_i64().unwrap()
    };
    // Orders per number: two a day (the one above is another number).
    let saved = save(&app, &admin, mid, json!({"single_flight": false, "number_daily_orders": 2})).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!(app.add_order(&token, behalf(NUMBER)).await.code(), 20000);
    assert_eq!(app.add_order(&token, behalf(NUMBER)).await.code(), 20000);
    let third = app.add_order(&token, behalf(NUMBER)).await;
    assert_eq!((third.status.as_u16(), third.code()), (409, 40941), "{:?}", third.body);
    assert_eq!(third.data()["keys"]["account"], "order.account.daily_orders");
    // A failed order gives its place back.
    let id = app.scalar("SELECT MAX(id) FROM orders WHERE merchant_id = $1", mid).await;
    let body = json!({"order_id": id, "result": "failure", "reason": "checked"});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/order/resolve", body).await.code(), 20000);
    assert_eq!(app.add_order(&token, order(NUMBER)).await.code(), 20000);

    // Amount per number: room for one more order of this price on a fresh number.
    let saved = save(&app, &admin, mid, json!({"single_flight": false, "number_daily_fen": price})).await;
    assert_eq!(saved.code(), 20000);
    assert_eq!(app.add_order(&token, order("13912340001")).await.code(), 20000);
    let over = app.add_order(&token, order("13912340001")).await;
    assert_eq!((over.code(), over.data()["keys"]["account"].as_str()), (40942, Some("order.account.daily_amount")));

    // The merchant's cap: today's amount so far, plus one order, and no more.
    let today = app
        .scalar("SELECT CAST(SUM(price_fen) AS BIGINT) FROM orders WHERE merchant_id = $1 AND status <> 3", mid)
        .await;
    let saved = save(&app, &admin, mid, json!({"single_flight": false, "daily_cap_fen": today + price})).await;
    assert_eq!(saved.code(), 20000);
    assert_eq!(app.add_order(&token, order("13912340002")).await.code(), 20000);
    let capped = app.add_order(&token, order("13912340003")).await;
    assert_eq!((capped.status.as_u16(), capped.code()), (409, 40943), "{:?}", capped.body);
    assert!(capped.msg().contains("daily cap") || capped.msg().contains("每日上限"), "{}", capped.msg());
    let balance = app.figures(mid).await.0;
    let placed = app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(placed, 6, "refused orders write nothing");
    assert_eq!(balance, 1_000_000 - 5 * price, "the failed order was refunded");
    app.assert_books_balance(mid).await;
}

async fn a_batch_marks_the_line_and_the_open_api_answers_the_code(backend: Backend) {
    let app = spawn_app_with(backend, config).await;
    let (mid, token, key) = merchant_with_key(&app, "api-risk").await;
    app.single_flight(mid, true).await;
    app.fund(mid, 100_000, 0).await;
    assert_eq!(app.add_order(&token, order(NUMBER)).await.code(), 20000);
    // The open API: its own code, in the caller's language.
    let body = json!({"merchant_order_id": "API-1", "product_key": "MOBILE-DIRECT-10", "account": NUMBER});
    let (answer, _) = send(&app, &key, Call::post("/openapi/v1/orders", &body)).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (409, 40940), "{:?}", answer.body);
    // The batch: the line for the busy number and the second line for one number are marked.
    let text =
        format!("{NUMBER},MOBILE-DIRECT-10,B-1\n13912340010,MOBILE-DIRECT-10,B-2\n13912340010,MOBILE-DIRECT-10,B-3");
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.data()["placed_rows"].as_i64(), Some(1), "{:?}", submit.body);
    let reasons: Vec<String> =
        sqlx::query_scalar("SELECT reason FROM order_batch_rows WHERE batch_id = $1 AND reason <> '' ORDER BY line_no")
            .bind(batch_id)
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(reasons, vec!["order.account.in_flight", "order.account.in_flight"]);
    app.assert_books_balance(mid).await;
}

async fn a_batch_counts_its_own_lines_against_the_daily_limits(backend: Backend) {
    let app = app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant_as_new("buyer").await;
    app.fund(mid, 1_000_000, 0).await;
    let first = app.add_order(&token, behalf(NUMBER)).await;
    assert_eq!(first.code(), 20000, "{:?}", first.body);
    let price = first.data()["price_fen"].as_i64().unwrap();
    let cap = 4 * price;
    let limits = json!({"single_flight": false, "number_daily_orders": 2, "daily_cap_fen": cap});
    assert_eq!(save(&app, &admin, mid, limits).await.code(), 20000);
    // Line 1 is the number's second order today; line 2 its third. Lines 3 and 4 take the
    // merchant to its cap exactly; line 5 would pass it.
    let text = format!(
        "{NUMBER},MOBILE-DIRECT-10,L-1\n{NUMBER},MOBILE-DIRECT-10,L-2\n13912340020,MOBILE-DIRECT-10,L-3\n\
         13912340021,MOBILE-DIRECT-10,L-4\n13912340022,MOBILE-DIRECT-10,L-5"
    );
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.data()["placed_rows"].as_i64(), Some(3), "{:?}", submit.body);
    let reasons = crate::batch_rules::refused_lines(&app, batch_id).await;
    assert_eq!(
        reasons,
        [(2, "order.account.daily_orders|2".to_string()), (5, format!("order.merchant.daily_cap|{cap}"))]
    );
    let result = crate::batch_rules::result_csv(&app, &token, batch_id).await;
    assert!(result.contains("limit of 2 orders today"), "{result}");
    let today = app.scalar("SELECT CAST(SUM(price_fen) AS BIGINT) FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(today, cap, "the cap is met, not passed");
    app.assert_books_balance(mid).await;
}

/// Refused orders are never written, so the count is kept in the database: a server that
/// refused nothing shows another's refusals, and so does one started afterwards.
async fn every_server_counts_the_refusals_of_the_others(backend: Backend) {
    let app = app(backend).await;
    let other = app.restart_with(|config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant_as_new("buyer").await;
    app.fund(mid, 100_000, 0).await;
    assert_eq!(app.add_order(&token, behalf(NUMBER)).await.code(), 20000);
    for _ in 0..2 {
        assert_eq!(app.add_order(&token, order(NUMBER)).await.code(), 40940);
    }
    let mut elsewhere = open_with_ticket(&other, &admin).await;
    let seen = elsewhere.until(|data| refused_today(data, "number_in_flight") >= 2).await;
    assert_eq!(refused_today(&seen, "number_in_flight"), 2, "{seen}");
    // A refusal on the other server adds to the same count here.
    assert_eq!(other.add_order(&token, order(NUMBER)).await.code(), 40940);
    let mut here = open_with_ticket(&app, &admin).await;
    let seen = here.until(|data| refused_today(data, "number_in_flight") >= 3).await;
    assert_eq!(refused_today(&seen, "number_in_flight"), 3, "{seen}");
    drop((here, elsewhere));
    let later = app.restart_with(|config| config.worker.enabled = false).await;
    let mut started = open_with_ticket(&later, &admin).await;
    let first = started.until(|data| data["refused_today"].is_array()).await;
    assert_eq!(refused_today(&first, "number_in_flight"), 3, "read from the database: {first}");
}
