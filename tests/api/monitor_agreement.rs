//! The live monitor, the channels list and reconciliation agree on every channel figure
//! they share, whichever path recorded an attempt's answer (a batch's first submission,
//! the worker moving an order on after a failure, a supplier's late callback), before and
//! after a restart rebuilds the monitor from the database.

use crate::channel_support::{
    PRICE, SECRET, channels_config, order, pending_upstream_id, post_callback, slow_supplier, supplier_channel,
    without_sandbox,
};
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::live::{channel_ratio, open_with_ticket};
use crate::on_both_backends;
use backoffice::platform::channel::http_json::sign;
use backoffice::supply::simulator::SimConfig;
use serde_json::{Value, json};

on_both_backends!(the_monitor_the_channels_list_and_reconciliation_agree);

/// (successes, definite failures) a channel's attempts got: known from the test's orders.
type Known = (u64, u64);

async fn set_enabled(app: &TestApp, channel_id: i64, enabled: bool) {
    sqlx::query("UPDATE channels SET enabled = $1 WHERE id = $2")
        .bind(i64::from(enabled))
        .bind(channel_id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
}

async fn callback(app: &TestApp, code: &str, body: Value) {
    let body = body.to_string();
    let answer = post_callback(app, code, sign(SECRET.as_bytes(), body.as_bytes()), body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
}

/// The monitor shows each channel at its known counts, over 5 and 60 minutes and today.
fn monitor_agrees(snapshot: &Value, known: &[(i64, Known)]) -> bool {
    known.iter().all(|(channel, (succeeded, failed))| {
        channel_ratio(snapshot, *channel).is_some_and(|ratio| {
            ["5m", "60m", "today"].iter().all(|span| {
                ratio[format!("succeeded_{span}")] == *succeeded && ratio[format!("failed_{span}")] == *failed
            })
        })
    })
}

fn permille((succeeded, failed): Known) -> Value {
    (succeeded * 1000).checked_div(succeeded + failed).map_or(Value::Null, |permille| json!(permille))
}

/// The channels list and reconciliation at the known counts, and at the monitor's ratios.
async fn pages_agree(app: &TestApp, admin: &str, snapshot: &Value, known: &[(i64, Known)]) {
    let list = app.post_as(admin, "/adminapi/admin/channel/list", json!({})).await;
    assert_eq!(list.code(), 20000, "{:?}", list.body);
    let date =
        backoffice::domain::beijing_date(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()));
    for (channel, (succeeded, failed)) in known {
        let item = list.data().as_array().unwrap().iter().find(|item| item["id"] == *channel).unwrap().clone();
        let figures = &item["figures"];
        let shown = |field: &str| figures[field].as_u64().unwrap();
        assert_eq!((shown("succeeded_hour"), shown("failed_hour")), (*succeeded, *failed), "{item}");
        assert_eq!((shown("succeeded_today"), shown("failed_today")), (*succeeded, *failed), "{item}");
        assert_eq!(figures["success_permille_hour"], permille((*succeeded, *failed)), "{item}");
        let ratio = channel_ratio(snapshot, *channel).unwrap();
        assert_eq!(figures["success_permille_hour"], ratio["success_permille_60m"]);
        assert_eq!(ratio["success_permille_today"], permille((*succeeded, *failed)));
        let reconciled =
            app.post_as(admin, "/adminapi/admin/channel/reconcile", json!({"channel_id": channel, "date": date})).await;
        assert_eq!(reconciled.code(), 20000, "{:?}", reconciled.body);
        assert_eq!(reconciled.data()["ours"]["count"], *succeeded, "{:?}", reconciled.body);
    }
}

async fn the_monitor_the_channels_list_and_reconciliation_agree(backend: Backend) {
    let mut app = spawn_app_with(backend, |config| {
        channels_config(config);
        // Not paused by the failures below: the test counts answers, not the health check.
        config.channel.health_window = 1_000;
    })
    .await;
    without_sandbox(&app).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("agreed").await;
    app.fund(mid, 20 * PRICE, 0).await;
    let refusing = SimConfig { success_ratio: 0.0, ..SimConfig::default() };
    let (refusing, _refusing_sim) = supplier_channel(&app, "refusing", 10, 960, refusing).await;
    let (steady, _steady_sim) = supplier_channel(&app, "steady", 5, 970, SimConfig::default()).await;

    // Each order fails at the first channel and moves on to the second, which tops it up.
    for index in 0..3 {
        order(&app, &token, &format!("MOVED-{index}")).await;
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    // Straight to the second channel: successes of the worker's batch submissions.
    set_enabled(&app, refusing, false).await;
    for index in 0..3 {
        order(&app, &token, &format!("DIRECT-{index}")).await;
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    // A supplier that answers by callback only: one success, one failure, one still open.
    set_enabled(&app, steady, false).await;
    let (slow, _slow_sim) = supplier_channel(&app, "slow", 5, 980, slow_supplier()).await;
    let late_success = order(&app, &token, "LATE-OK").await;
    let late_failure = order(&app, &token, "LATE-FAILED").await;
    let open = order(&app, &token, "OPEN").await;
    let upstream = pending_upstream_id(&app, late_success).await;
    callback(&app, "slow", json!({"upstream_order_id": upstream, "code": 0, "msg": "ok", "serial_no": "SLOW-1"})).await;
    let upstream = pending_upstream_id(&app, late_failure).await;
    callback(&app, "slow", json!({"upstream_order_id": upstream, "code": 12, "msg": "carrier refused"})).await;
    pending_upstream_id(&app, open).await;
    // The failed order has nowhere else to go: refunded.
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE id = $1 AND status <> 3", late_failure, 20).await;
    assert_eq!(app.scalar("SELECT status FROM orders WHERE id = $1", late_success).await, 2);

    let known = [(refusing, (0, 3)), (steady, (6, 0)), (slow, (1, 1))];
    let mut stream = open_with_ticket(&app, &admin).await;
    let snapshot = stream.until(|snapshot| monitor_agrees(snapshot, &known)).await;
    pages_agree(&app, &admin, &snapshot, &known).await;
    drop(stream);

    // Rebuilt from the database after a restart: the same figures.
    app.stop().await;
    let restarted = app.restart_with(|config| config.worker.enabled = false).await;
    let admin = restarted.login(ADMIN).await;
    let mut stream = open_with_ticket(&restarted, &admin).await;
    let (_, first) = stream.next().await.unwrap();
    assert!(monitor_agrees(&first, &known), "{first}");
    pages_agree(&restarted, &admin, &first, &known).await;
}
