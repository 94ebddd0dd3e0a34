//! Maintenance windows: administrators' CRUD (validated, audited), the routing that skips
//! what a window closes, fast orders refused naming the window and its end (both
//! languages), slow orders that wait and are sent after it, the routing preview naming the
//! window, and the upcoming windows for merchants (console and open API).

use crate::channel_support::{attempts, channels_config, order, supplier_channel, without_sandbox};
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::{Call, merchant_with_key, send};
use crate::product_scope::add_test_segments;
use backoffice::supply::simulator::SimConfig;
use serde_json::{Value, json};

on_both_backends!(
    windows_are_validated_audited_and_listed,
    a_fast_order_is_refused_while_its_channels_are_in_a_window,
    routing_skips_a_window_and_a_slow_order_waits_for_its_end,
    a_batch_refuses_its_fast_lines_during_a_window_and_places_the_slow_ones,
    merchants_see_upcoming_windows_in_the_console_and_the_open_api,
);

const BEIJING: &str = "13800138000";

fn rfc3339(millis: i64) -> String {
    let moment = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000).unwrap();
    moment.format(&time::format_description::well_known::Rfc3339).unwrap()
}

fn now() -> i64 {
    backoffice::platform::db::now_millis()
}

/// A one-off window running from a minute ago for an hour.
fn running(title: &str, scope: Value) -> Value {
    let mut body = json!({"title": title, "recurrence": "once",
        "starts_at": rfc3339(now() - 60_000), "ends_at": rfc3339(now() + 3_600_000)});
    body.as_object_mut().unwrap().extend(scope.as_object().unwrap().clone());
    body
}

async fn create(app: &TestApp, token: &str, body: Value) -> i64 {
    let created = app.post_as(token, "/adminapi/admin/windows/create", body).await;
    assert_eq!(created.code(), 20000, "{:?}", created.body);
    created.data()["id"].as_i64().unwrap()
}

async fn add_in(app: &TestApp, token: &str, language: &str, body: Value) -> crate::helpers::Answer {
    let request = app
        .client
        .post(app.url("/adminapi/order/add"))
        .bearer_auth(token)
        .header("accept-language", language)
        .json(&body);
    app.send(request).await
}

async fn windows_are_validated_audited_and_listed(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let sandbox = app.scalar("SELECT id FROM channels WHERE code = 'sandbox' AND $1 = $1", 0).await;

    // Every kind of scope and repetition, one crossing midnight, one on month ends.
    let nightly = json!({"title": "移动夜间维护", "note": "系统升级", "scope": "carrier", "carrier": "mobile",
        "recurrence": "daily", "span_start": "23:00", "span_end": "01:00"});
    let nightly_id = create(&app, &admin, nightly).await;
    let weekly = json!({"title": "广东联通周维护", "scope": "province", "carrier": "unicom", "province": 440000,
        "recurrence": "weekly", "day": 2, "span_start": "02:00", "span_end": "04:00"});
    create(&app, &admin, weekly).await;
    let month_end = json!({"title": "渠道月末对账", "scope": "channel", "channel_id": sandbox,
        "recurrence": "monthly", "day": 31, "span_start": "23:30", "span_end": "00:30"});
    let month_end_id = create(&app, &admin, month_end).await;
    let once = running("临时维护", json!({"scope": "carrier", "carrier": "telecom"}));
    let once_id = create(&app, &admin, once).await;

    let listed = app.post_as(&admin, "/adminapi/admin/windows/list", json!({"page_size": 10})).await;
    assert_eq!(listed.data()["total"], 4, "{:?}", listed.body);
    let list = listed.data()["list"].as_array().unwrap().clone();
    let by_id = |id: i64| list.iter().find(|item| item["id"] == id).cloned().unwrap();
    let night = by_id(nightly_id);
    assert_eq!(
        (&night["scope"], &night["carrier"], &night["recurrence"]),
        (&json!("carrier"), &json!("mobile"), &json!("daily"))
    );
    assert_eq!(
        (&night["span_start"], &night["span_end"], &night["created_by"]),
        (&json!("23:00"), &json!("01:00"), &json!("admin"))
    );
    assert_eq!((&by_id(month_end_id)["channel_name"], &by_id(month_end_id)["day"]), (&json!("沙箱渠道"), &json!(31)));
    assert_eq!(by_id(once_id)["running"], true);

    // Wrong fields, each named with its key; nothing written.
    let cases = [
        (
            json!({"title": " ", "scope": "carrier", "carrier": "mobile", "recurrence": "daily",
                "span_start": "01:00", "span_end": "02:00"}),
            "title",
            "window.title.invalid",
        ),
        (
            json!({"title": "t", "scope": "carrier", "carrier": "mobile", "province": 440000, "recurrence": "daily",
                "span_start": "01:00", "span_end": "02:00"}),
            "scope",
            "window.scope.invalid",
        ),
        (
            json!({"title": "t", "scope": "province", "carrier": "mobile", "province": 440100, "recurrence": "daily",
                "span_start": "01:00", "span_end": "02:00"}),
            "scope",
            "window.scope.invalid",
        ),
        (
            json!({"title": "t", "scope": "channel", "channel_id": 999_999, "recurrence": "daily",
                "span_start": "01:00", "span_end": "02:00"}),
            "scope",
            "window.scope.invalid",
        ),
        (
            json!({"title": "t", "scope": "carrier", "carrier": "mobile", "recurrence": "once",
                "starts_at": rfc3339(now()), "ends_at": rfc3339(now() - 1_000)}),
            "ends_at",
            "window.end_before_start",
        ),
        (
            json!({"title": "t", "scope": "carrier", "carrier": "mobile", "recurrence": "weekly", "day": 8,
                "span_start": "01:00", "span_end": "02:00"}),
            "recurrence",
            "window.recurrence.invalid",
        ),
        (
            json!({"title": "t", "scope": "carrier", "carrier": "mobile", "recurrence": "monthly", "day": 0,
                "span_start": "01:00", "span_end": "02:00"}),
            "recurrence",
            "window.recurrence.invalid",
        ),
        (
            json!({"title": "t", "scope": "carrier", "carrier": "mobile", "recurrence": "daily",
                "span_start": "03:00", "span_end": "03:00"}),
            "recurrence",
            "window.recurrence.invalid",
        ),
        (
            json!({"title": "t", "scope": "carrier", "carrier": "mobile", "recurrence": "daily",
                "span_start": "24:00", "span_end": "03:00"}),
            "recurrence",
            "window.recurrence.invalid",
        ),
    ];
    for (body, field, key) in cases {
        let refused = app.post_as(&admin, "/adminapi/admin/windows/create", body.clone()).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (422, 40000), "{body}: {:?}", refused.body);
        assert_eq!(refused.data()["keys"][field], key, "{body}: {:?}", refused.body);
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM maintenance_windows WHERE $1 = $1", 0).await, 4);

    // Edited and deleted; merchants may do neither; every change audited.
    let changed = json!({"id": nightly_id, "title": "移动夜间维护", "scope": "carrier", "carrier": "mobile",
        "recurrence": "daily", "span_start": "22:00", "span_end": "00:30"});
    let updated = app.post_as(&admin, "/adminapi/admin/windows/update", changed.clone()).await;
    assert_eq!((updated.code(), &updated.data()["span_start"]), (20000, &json!("22:00")), "{:?}", updated.body);
    let missing = app
        .post_as(
            &admin,
            "/adminapi/admin/windows/update",
            json!({"id": 999_999, "title": "x",
        "scope": "carrier", "carrier": "mobile", "recurrence": "daily", "span_start": "01:00", "span_end": "02:00"}),
        )
        .await;
    assert_eq!(missing.status.as_u16(), 404);
    let (_, merchant) = app.merchant("buyer").await;
    let refused = app.post_as(&merchant, "/adminapi/admin/windows/update", changed).await;
    assert_eq!(refused.status.as_u16(), 403);
    let deleted = app.post_as(&admin, "/adminapi/admin/windows/delete", json!({"id": once_id})).await;
    assert_eq!(deleted.code(), 20000, "{:?}", deleted.body);
    let again = app.post_as(&admin, "/adminapi/admin/windows/delete", json!({"id": once_id})).await;
    assert_eq!(again.status.as_u16(), 404);
    let audited = |action: &str| format!("SELECT COUNT(*) FROM audit_events WHERE action = '{action}' AND $1 = $1");
    let counts = (
        app.scalar(&audited("window_created"), 0).await,
        app.scalar(&audited("window_updated"), 0).await,
        app.scalar(&audited("window_deleted"), 0).await,
    );
    assert_eq!(counts, (4, 1, 1));
    let detail: String = sqlx::query_scalar("SELECT detail FROM audit_events WHERE action = 'window_updated'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert!(detail.contains("22:00–00:30"), "{detail}");
}

async fn a_fast_order_is_refused_while_its_channels_are_in_a_window(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    add_test_segments(&app).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    let body = json!({"account": BEIJING, "product_key": "MOBILE-DIRECT-10"});

    // The carrier in the number's province.
    let beijing = create(
        &app,
        &admin,
        running(
            "北京移动割接",
            json!({"scope": "province", "carrier": "mobile",
        "province": 110000}),
        ),
    )
    .await;
    let zh = add_in(&app, &token, "zh-CN", body.clone()).await;
    assert_eq!((zh.status.as_u16(), zh.code()), (422, 40000), "{:?}", zh.body);
    assert_eq!(zh.data()["keys"]["product_key"], "order.channel.window");
    assert!(zh.msg().contains("北京移动割接") && zh.msg().contains("北京时间"), "{}", zh.msg());
    let en = add_in(&app, &token, "en-US", body.clone()).await;
    assert!(en.msg().contains("北京移动割接") && en.msg().contains("Beijing time"), "{}", en.msg());
    // The end is named, in Beijing time to the minute.
    let ends: i64 = sqlx::query_scalar("SELECT ends_at FROM maintenance_windows WHERE id = $1")
        .bind(beijing)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let end_text = backoffice::domain::beijing_time(ends);
    assert!(zh.msg().contains(&end_text[..16]), "{} lacks {end_text}", zh.msg());
    // Another carrier's number is not closed.
    let unicom =
        add_in(&app, &token, "zh-CN", json!({"account": "13012345678", "product_key": "UNICOM-DIRECT-10"})).await;
    assert_ne!(unicom.data()["keys"]["product_key"], "order.channel.window", "{:?}", unicom.body);
    app.post_as(&admin, "/adminapi/admin/windows/delete", json!({"id": beijing})).await;

    // The only channel supplying the product: closed too, and the preview names the window.
    let sandbox = app.scalar("SELECT id FROM channels WHERE code = 'sandbox' AND $1 = $1", 0).await;
    let channel = create(&app, &admin, running("沙箱升级", json!({"scope": "channel", "channel_id": sandbox}))).await;
    let refused = add_in(&app, &token, "en-US", body.clone()).await;
    assert_eq!(refused.data()["keys"]["product_key"], "order.channel.window", "{:?}", refused.body);
    assert!(refused.msg().contains("沙箱升级"), "{}", refused.msg());
    let preview =
        app.post_as(&admin, "/adminapi/admin/channel/routing", json!({"product_key": "MOBILE-DIRECT-10"})).await;
    let route = preview.data().as_array().unwrap().iter().find(|item| item["channel_id"] == sandbox).cloned().unwrap();
    assert_eq!(
        (&route["excluded"], &route["window"]["id"], &route["window"]["title"]),
        (&json!("window"), &json!(channel), &json!("沙箱升级")),
        "{route:?}"
    );
    // Nothing was written or charged for the refusals (the Unicom order alone was).
    let beijing_orders = format!("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND account = '{BEIJING}'");
    assert_eq!(app.scalar(&beijing_orders, mid).await, 0);
    app.assert_books_balance(mid).await;

    // Once it is deleted, orders are taken again at once.
    app.post_as(&admin, "/adminapi/admin/windows/delete", json!({"id": channel})).await;
    let placed = app.add_order(&token, body).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
}

async fn routing_skips_a_window_and_a_slow_order_waits_for_its_end(backend: Backend) {
    let app = spawn_app_with(backend, channels_config).await;
    without_sandbox(&app).await;
    let (first_id, first) = supplier_channel(&app, "first", 10, 960, SimConfig::default()).await;
    let (second_id, second) = supplier_channel(&app, "second", 5, 990, SimConfig::default()).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;

    // The preferred channel is in a window: the order goes to the other one.
    let first_window =
        create(&app, &admin, running("first 维护", json!({"scope": "channel", "channel_id": first_id}))).await;
    let routed = order(&app, &token, "W1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", routed, 10).await;
    assert_eq!(attempts(&app, routed).await, [("second".to_string(), "success".to_string())]);
    assert!(first.book.lock().unwrap().orders.is_empty());

    // Both in a window: a fast order is refused, a slow one is taken and waits.
    let second_window =
        create(&app, &admin, running("second 维护", json!({"scope": "channel", "channel_id": second_id}))).await;
    let refused = app.add_order(&token, json!({"account": BEIJING, "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(refused.data()["keys"]["product_key"], "order.channel.window", "{:?}", refused.body);
    sqlx::query("UPDATE products SET speed = 2 WHERE product_key = 'MOBILE-DIRECT-10'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let slow = order(&app, &token, "S1").await;
    let slow_ms = app.state.config.channel.slow_deadline.as_millis() as i64;
    // Its allowance is the slow one: counted from its submission once the worker has taken
    // it (which may already have happened: the deadline moves with it), else from its placing.
    let allowance = "SELECT deadline_at - COALESCE(submitted_at, created_at) FROM orders WHERE id = $1";
    assert_eq!(app.scalar(allowance, slow).await, slow_ms);
    // The worker looked at it and let it wait for the windows' end, sending it nowhere.
    let window_end = now() + 3_000_000;
    let waiting = format!("SELECT COUNT(*) FROM orders WHERE id = $1 AND lease_until < {window_end}");
    app.wait_for_zero(&waiting, slow, 10).await;
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", slow).await, 1, "processing, waiting");
    assert!(attempts(&app, slow).await.is_empty());
    assert_eq!(second.book.lock().unwrap().orders.len(), 1);

    // The windows deleted early: it is sent at once, and succeeds.
    for id in [first_window, second_window] {
        assert_eq!(app.post_as(&admin, "/adminapi/admin/windows/delete", json!({"id": id})).await.code(), 20000);
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", slow, 10).await;
    assert_eq!(attempts(&app, slow).await.len(), 1);
    app.assert_books_balance(mid).await;
}

async fn a_batch_refuses_its_fast_lines_during_a_window_and_places_the_slow_ones(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 100_000, 0).await;
    sqlx::query("UPDATE products SET speed = 2 WHERE product_key = 'MOBILE-DIRECT-20'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let text = "13800138000,MOBILE-DIRECT-10,F-1\n13800138001,MOBILE-DIRECT-20,S-1\n\
                13012345678,UNICOM-DIRECT-10,U-1\n13800138002,MOBILE-DIRECT-10,F-2";
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    assert_eq!(preview.code(), 20000, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    // China Mobile closes between the preview and the submit.
    let window = create(&app, &admin, running("移动全网割接", json!({"scope": "carrier", "carrier": "mobile"}))).await;
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.code(), 20000, "{:?}", submit.body);
    assert_eq!(submit.data()["placed_rows"].as_i64(), Some(2), "{:?}", submit.body);
    let placed: Vec<String> =
        sqlx::query_scalar("SELECT merchant_order_id FROM orders WHERE batch_id = $1 ORDER BY merchant_order_id")
            .bind(batch_id)
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(placed, ["S-1", "U-1"], "the slow line waits for the window's end, Unicom is open");
    let reasons = crate::batch_rules::refused_lines(&app, batch_id).await;
    let ends: i64 = sqlx::query_scalar("SELECT ends_at FROM maintenance_windows WHERE id = $1")
        .bind(window)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let until = &backoffice::domain::beijing_time(ends)[..16];
    let stored = format!("order.batch.window|{until}|移动全网割接");
    assert_eq!(reasons, [(1, stored.clone()), (4, stored)]);
    // The result file names the window and its end in the reader's language.
    let result = crate::batch_rules::result_csv(&app, &token, batch_id).await;
    assert!(result.contains("移动全网割接") && result.contains(until), "{result}");
    app.assert_books_balance(mid).await;
}

async fn merchants_see_upcoming_windows_in_the_console_and_the_open_api(backend: Backend) {
    let app = spawn_app_with(backend, crate::open_api::config).await;
    let admin = app.login(ADMIN).await;
    let nightly = json!({"title": "移动夜间维护", "scope": "carrier", "carrier": "mobile",
        "recurrence": "daily", "span_start": "23:00", "span_end": "01:00"});
    create(&app, &admin, nightly).await;
    let far = json!({"title": "下月维护", "scope": "carrier", "carrier": "unicom", "recurrence": "once",
        "starts_at": rfc3339(now() + 10 * 86_400_000), "ends_at": rfc3339(now() + 11 * 86_400_000)});
    create(&app, &admin, far).await;
    let (_, token, key) = merchant_with_key(&app, "api-buyer").await;

    let seen = app.post_as(&token, "/adminapi/windows/upcoming", json!({})).await;
    assert_eq!(seen.code(), 20000, "{:?}", seen.body);
    let list = seen.data().as_array().unwrap().clone();
    // A daily window: seven or eight occurrences in the next seven days, the far one none.
    assert!((7..=8).contains(&list.len()), "{list:?}");
    assert!(list.iter().all(|item| item["title"] == "移动夜间维护" && item["carrier"] == "mobile"));
    let first = &list[0];
    let parse = |field: &str| {
        let text = first[field].as_str().unwrap();
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).unwrap().unix_timestamp()
    };
    assert_eq!(parse("ends_at") - parse("starts_at"), 2 * 3_600, "23:00 to 01:00 the next day");

    let (api, signed) = send(&app, &key, Call::get("/openapi/v1/windows")).await;
    assert!(signed);
    assert_eq!(api.code(), 20000, "{:?}", api.body);
    assert_eq!(api.data(), seen.data());
}
