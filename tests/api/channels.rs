//! Upstream channels: failover only on a definite failure, never on an unknown answer;
//! supplier callbacks (signed, idempotent, settling orders in review); pause and probe;
//! two servers on one database; and random supplier behaviour never tops up twice.

use crate::channel_support::{
    PRICE, SECRET, attempts, card_order, channels_config, order, pending_upstream_id, post_callback, slow_supplier,
    spawn_with_deadline, submissions, supplier, without_sandbox,
};
use crate::helpers::{Backend, spawn_app_with};
use crate::on_both_backends;
use backoffice::platform::channel::http_json::sign;
use backoffice::supply::simulator::SimConfig;
use serde_json::json;
use std::time::Duration;

on_both_backends!(
    a_definite_failure_moves_the_order_to_the_next_channel,
    an_unknown_answer_never_moves_the_order,
    a_late_callback_settles_an_order_in_review_once,
    callbacks_with_a_bad_signature_are_refused,
    a_failing_channel_is_paused_then_probed,
    two_servers_never_submit_an_attempt_twice,
    random_supplier_behaviour_never_tops_up_twice,
);

async fn a_definite_failure_moves_the_order_to_the_next_channel(backend: Backend) {
    let app = spawn_app_with(backend, channels_config).await;
    without_sandbox(&app).await;
    let cheap = supplier(&app, "cheap", 10, 960, SimConfig { success_ratio: 0.0, ..SimConfig::default() }).await;
    let dear = supplier(&app, "dear", 5, 990, SimConfig::default()).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "F1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", order_id, 10).await;
    assert_eq!(
        attempts(&app, order_id).await,
        [("cheap".to_string(), "failed".to_string()), ("dear".to_string(), "success".to_string())]
    );
    // The order names the channel that fulfilled it and what it cost.
    let dear_id = app.scalar("SELECT id FROM channels WHERE code = 'dear' AND $1 > 0", 1).await;
    assert_eq!(app.scalar("SELECT channel_id FROM orders WHERE id = $1", order_id).await, dear_id);
    assert_eq!(app.scalar("SELECT cost_fen FROM orders WHERE id = $1", order_id).await, 990);
    // Each supplier got it once, under its own upstream id; the merchant paid once.
    assert_eq!(submissions(&cheap), [1]);
    assert_eq!(submissions(&dear), [1]);
    assert!(dear.book.lock().unwrap().orders.keys().all(|id| id.ends_with("-2")));
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    app.assert_books_balance(mid).await;

    // Every candidate failing definitely refunds, once.
    dear.set_success_ratio(0.0);
    let failed = order(&app, &token, "F2").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 3", failed, 10).await;
    assert_eq!(attempts(&app, failed).await.len(), 2);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2", failed).await, 1);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);

    // No candidate at all: fails fast, with the reason, refunded.
    sqlx::query("UPDATE channels SET enabled = 0").execute(&app.state.db.pool).await.unwrap();
    let nowhere = order(&app, &token, "F3").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 3", nowhere, 10).await;
    let detail = app.post_as(&token, "/adminapi/order/detail", json!({"order_id": nowhere})).await;
    assert_eq!(detail.data()["order"]["failure_reason_code"], "order.failure.no_channel", "{:?}", detail.body);
    assert_eq!(attempts(&app, nowhere).await.len(), 0);
    app.assert_books_balance(mid).await;
}

async fn an_unknown_answer_never_moves_the_order(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(1_500)).await;
    // Every answer is lost although the order is taken (and topped up); its callback
    // comes long after the test.
    let lossy = SimConfig { unknown_ratio: 1.0, callback_delay: Duration::from_secs(600), ..SimConfig::default() };
    let first = supplier(&app, "lossy", 10, 960, lossy).await;
    let second = supplier(&app, "other", 5, 990, SimConfig::default()).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "U1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 4", order_id, 15).await;
    // Asked again and again, never sent elsewhere, never refunded.
    assert_eq!(attempts(&app, order_id).await, [("lossy".to_string(), "unknown".to_string())]);
    assert_eq!(submissions(&first), [1]);
    assert!(second.book.lock().unwrap().orders.is_empty());
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM account_log WHERE order_id = $1 AND change_type = 2", order_id).await,
        0
    );
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
}

async fn a_late_callback_settles_an_order_in_review_once(backend: Backend) {
    let app = spawn_with_deadline(backend, Duration::from_millis(400)).await;
    let late = SimConfig {
        unknown_ratio: 1.0,
        callback_delay: Duration::from_millis(2_500),
        duplicate_callbacks: true,
        ..SimConfig::default()
    };
    let _simulator = supplier(&app, "late", 10, 960, late).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "L1").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status NOT IN (2, 4)", order_id, 10).await;
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 4, "review first");
    // The callbacks (two of them) settle it, once.
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", order_id, 10).await;
    app.wait_for_zero(
        "SELECT 1 - COUNT(*) FROM order_attempts WHERE order_id = $1 AND outcome = 'success'",
        order_id,
        10,
    )
    .await;
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_events WHERE order_id = $1 AND status = 2", order_id).await, 1);
    assert_eq!(app.figures(mid).await.0, 9 * PRICE);
    app.assert_books_balance(mid).await;
}

async fn callbacks_with_a_bad_signature_are_refused(backend: Backend) {
    let app = spawn_app_with(backend, channels_config).await;
    without_sandbox(&app).await;
    let slow = slow_supplier();
    let _simulator = supplier(&app, "slow", 10, 960, slow).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10 * PRICE, 0).await;
    let order_id = order(&app, &token, "C1").await;
    let upstream = pending_upstream_id(&app, order_id).await;
    let body = json!({"upstream_order_id": upstream, "code": 0, "msg": "ok", "serial_no": "SIM-LATE-1"}).to_string();
    let forged = post_callback(&app, "slow", sign(b"not the secret", body.as_bytes()), body.clone()).await;
    assert_eq!((forged.status.as_u16(), forged.code()), (401, 40134), "{:?}", forged.body);
    let tampered =
        post_callback(&app, "slow", sign(SECRET.as_bytes(), body.as_bytes()), body.replace("SIM-LATE-1", "SIM-X"))
            .await;
    assert_eq!(tampered.code(), 40134);
    assert_eq!(post_callback(&app, "nobody", sign(SECRET.as_bytes(), b"{}"), "{}".into()).await.code(), 40400);
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 1, "nothing changed");
    // The right signature settles it; the same callback again changes nothing.
    let first = post_callback(&app, "slow", sign(SECRET.as_bytes(), body.as_bytes()), body.clone()).await;
    assert_eq!(first.data()["changed"], true, "{:?}", first.body);
    let again = post_callback(&app, "slow", sign(SECRET.as_bytes(), body.as_bytes()), body.clone()).await;
    assert_eq!((again.code(), again.data()["changed"].as_bool()), (20000, Some(false)));
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", order_id).await, 2);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM order_events WHERE order_id = $1 AND status = 2", order_id).await, 1);
    app.assert_books_balance(mid).await;
}

async fn a_failing_channel_is_paused_then_probed(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        channels_config(config);
        config.channel.health_window = 3;
        config.channel.health_min_success_ratio = 0.5;
        config.channel.pause_cooldown = Duration::from_millis(1_500);
    })
    .await;
    without_sandbox(&app).await;
    let flaky = supplier(&app, "flaky", 10, 960, SimConfig { success_ratio: 0.0, ..SimConfig::default() }).await;
    let _steady = supplier(&app, "steady", 5, 990, SimConfig::default()).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 20 * PRICE, 0).await;
    for index in 0..3 {
        let id = order(&app, &token, &format!("P{index}")).await;
        app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", id, 10).await;
    }
    let paused = "SELECT COUNT(*) FROM channels WHERE code = 'flaky' AND paused_until IS NOT NULL AND $1 > 0";
    assert_eq!(app.scalar(paused, 1).await, 1, "three failures in a window of three pause it");
    let reason: String = sqlx::query_scalar("SELECT pause_reason FROM channels WHERE code = 'flaky'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(reason, "low_success_ratio");
    let admin_id = app.scalar("SELECT id FROM users WHERE username = 'admin' AND $1 > 0", 1).await;
    let notices = "SELECT COUNT(*) FROM inbox_messages WHERE user_id = $1 AND title LIKE '渠道已自动暂停%'";
    assert_eq!(app.scalar(notices, admin_id).await, 1);
    // While paused the order goes straight to the other channel.
    let direct = order(&app, &token, "P-direct").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", direct, 10).await;
    assert_eq!(attempts(&app, direct).await, [("steady".to_string(), "success".to_string())]);
    // After the cool-down one order probes it; it has recovered, so it resumes.
    flaky.set_success_ratio(1.0);
    let until = app.scalar("SELECT paused_until FROM channels WHERE code = 'flaky' AND $1 > 0", 1).await;
    while backoffice::platform::db::now_millis() <= until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let probe = order(&app, &token, "P-probe").await;
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 2", probe, 10).await;
    assert_eq!(attempts(&app, probe).await, [("flaky".to_string(), "success".to_string())]);
    assert_eq!(app.scalar("SELECT probe FROM order_attempts WHERE order_id = $1", probe).await, 1);
    assert_eq!(app.scalar(paused, 1).await, 0, "the probe's success resumes it");
    let resumed = "SELECT COUNT(*) FROM inbox_messages WHERE user_id = $1 AND title LIKE '渠道已恢复%'";
    assert_eq!(app.scalar(resumed, admin_id).await, 1);
    app.assert_books_balance(mid).await;
}

async fn two_servers_never_submit_an_attempt_twice(backend: Backend) {
    let first = spawn_app_with(backend, |config| {
        channels_config(config);
        config.worker.batch_size = 5;
    })
    .await;
    without_sandbox(&first).await;
    let simulator =
        supplier(&first, "shared", 10, 960, SimConfig { delay: Duration::from_millis(100), ..SimConfig::default() })
            .await;
    let second = first.restart_with(|_| {}).await;
    let (mid, token) = first.merchant("buyer").await;
    first.fund(mid, 100 * PRICE, 0).await;
    for index in 0..40 {
        let app = if index % 2 == 0 { &first } else { &second };
        order(app, &token, &format!("T{index}")).await;
    }
    first.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 30).await;
    assert_eq!(
        first
            .scalar(
                "SELECT COUNT(*) FROM order_attempts a JOIN orders o ON o.id = a.order_id WHERE o.merchant_id = $1",
                mid
            )
            .await,
        40
    );
    let counts = submissions(&simulator);
    assert_eq!(counts.len(), 40);
    assert!(counts.iter().all(|count| *count == 1), "{counts:?}");
    first.assert_books_balance(mid).await;
}

/// Random supplier behaviour (success, definite failure, lost answers, late and double
/// callbacks, card orders' successes without the card, successes reversed afterwards) over
/// top-ups and card orders, and a restart in the middle: every order has at most one
/// top-up standing across all channels, is charged once, refunded at most once (a failure
/// only when nothing stands, a reversal only when its supplier reversed it), never sent on
/// while an earlier attempt was unresolved; a card order succeeds only with a card its
/// supplier issued; the books balance.
async fn random_supplier_behaviour_never_tops_up_twice(backend: Backend) {
    for round in 0..2 {
        let random = |low: f64, high: f64| low + rand::random::<f64>() * (high - low);
        let mut app = spawn_app_with(backend, |config| {
            channels_config(config);
            config.channel.deadline = Duration::from_millis(2_000);
            config.worker.lease = Duration::from_millis(500);
        })
        .await;
        without_sandbox(&app).await;
        let mut simulators = Vec::new();
        for (index, code) in ["alpha", "beta", "gamma"].into_iter().enumerate() {
            let config = SimConfig {
                success_ratio: random(0.0, 1.0),
                unknown_ratio: random(0.0, 0.4),
                delay: Duration::from_millis(random(0.0, 300.0) as u64),
                callback_delay: Duration::from_millis(random(0.0, 3_000.0) as u64),
                duplicate_callbacks: rand::random::<bool>(),
                cardless_ratio: if rand::random::<bool>() { random(0.0, 1.0) } else { 0.0 },
                reversal_ratio: if rand::random::<bool>() { random(0.0, 0.5) } else { 0.0 },
                reversal_delay: Duration::from_millis(random(0.0, 1_500.0) as u64),
                ..SimConfig::default()
            };
            simulators.push(supplier(&app, code, 10 - index as i64, 960 + index as i64 * 10, config).await);
        }
        let (mid, token) = app.merchant(&format!("buyer{round}")).await;
        app.fund(mid, 100 * PRICE, 0).await;
        for index in 0..20 {
            let merchant_order_id = format!("R{round}-{index}");
            if rand::random::<bool>() {
                card_order(&app, &token, &merchant_order_id).await;
            } else {
                order(&app, &token, &merchant_order_id).await;
            }
        }
        // A restart while orders are with the channels.
        app.stop().await;
        let app2 = app.restart_with(|_| {}).await;
        // Settled or in review. A late callback may still settle an order in review while
        // this runs, so each order's status and its charges and refunds are read together,
        // in one statement (one snapshot).
        app2.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status IN (0, 1)", mid, 30).await;
        // Every order's status with its charges and refunds, one snapshot (below); final
        // states are 2, 3, 4 and 5.
        type Row = (i64, String, i64, i64, i64, i64, Option<String>, Option<String>, i64);
        let orders: Vec<Row> = sqlx::query_as(
            "SELECT o.id, o.system_order_id, o.status, \
             (SELECT COUNT(*) FROM account_log l WHERE l.order_id = o.id AND l.change_type = 1), \
             (SELECT COUNT(*) FROM account_log l WHERE l.order_id = o.id AND l.change_type = 2), \
             o.order_kind, o.card_no_enc, o.card_secret_enc, \
             (SELECT COUNT(*) FROM account_log l WHERE l.order_id = o.id AND l.change_type = 7) \
             FROM orders o WHERE o.merchant_id = $1",
        )
        .bind(mid)
        .fetch_all(&app2.state.db.pool)
        .await
        .unwrap();
        // Read after the orders: a reversal we applied had happened at its supplier by then.
        let now = backoffice::platform::db::now_millis();
        for (order_id, system_order_id, status, charges, refunds, kind, card_no, card_secret, reversals) in orders {
            // The suppliers' successes for this order, with the card each issued and whether
            // it was reversed since.
            let issued: Vec<(Option<String>, Option<String>, bool)> = simulators
                .iter()
                .flat_map(|simulator| {
                    let book = simulator.book.lock().unwrap();
                    book.orders
                        .values()
                        .filter(|order| {
                            order.succeeds
                                && (order.upstream_order_id == system_order_id
                                    || order.upstream_order_id.starts_with(&format!("{system_order_id}-")))
                        })
                        .map(|order| {
                            let reversed = order.reversed_at.is_some_and(|at| at <= now);
                            (order.card_no.clone(), order.card_password.clone(), reversed)
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            let topped_up = issued.iter().filter(|(.., reversed)| !reversed).count();
            let reversed_there = issued.len() - topped_up;
            if status == 2 && kind == 2 {
                let open = |sealed: Option<String>, purpose: &str| {
                    let sealed = sealed.unwrap_or_else(|| panic!("card order {order_id} succeeded without a card"));
                    let context = format!("{purpose}:{system_order_id}");
                    String::from_utf8(app2.state.secrets.decrypt(&sealed, &context).unwrap()).unwrap()
                };
                let delivered = (Some(open(card_no, "card_no")), Some(open(card_secret, "card_secret")));
                let cards: Vec<_> =
                    issued.iter().map(|(number, password, _)| (number.clone(), password.clone())).collect();
                assert!(cards.contains(&delivered), "order {order_id} holds a card its supplier issued");
            }
            assert!(topped_up <= 1, "order {order_id} topped up {topped_up} times");
            if status == 3 || status == 5 {
                assert_eq!(topped_up, 0, "order {order_id} refunded although topped up");
            }
            if status == 2 {
                // Its top-up stands, or its supplier reversed it and has not told us yet.
                assert!(topped_up + reversed_there >= 1, "order {order_id} succeeded without a top-up");
            }
            if status == 5 {
                assert!(reversed_there >= 1, "order {order_id} reversed although its supplier did not");
            }
            assert_eq!(charges, 1, "order {order_id} charged once");
            assert_eq!(refunds, i64::from(status == 3), "order {order_id} refunded once if failed");
            assert_eq!(reversals, i64::from(status == 5), "order {order_id} refunded once if reversed");
            let outcomes: Vec<(String, String)> = attempts(&app2, order_id).await;
            if let Some((_, earlier)) = outcomes.split_last() {
                assert!(earlier.iter().all(|(_, outcome)| outcome == "failed"), "{outcomes:?}");
            }
        }
        app2.assert_books_balance(mid).await;
        drop(app);
    }
}
