//! Two servers on one PostgreSQL database show one platform (issue 53): orders placed and
//! finished through either server show on the other's monitor within two seconds, and at
//! rest both monitors agree with figures read from the database; a channel's health is
//! judged on every server's attempts, and its pause shows on every monitor.
//! PostgreSQL only: one SQLite file has one server.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::live::{EventStream, channel_ratio, failing_channel, open_with_ticket, paused_alert};
use backoffice::platform::db::now_millis;
use backoffice::platform::live::rebuild;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How soon a change made through one server shows on the other's monitor.
const SHOWN_WITHIN: Duration = Duration::from_secs(2);

fn total(snapshot: &Value, field: &str) -> u64 {
    snapshot["minutes"].as_array().unwrap().iter().map(|minute| minute[field].as_u64().unwrap()).sum()
}

/// The figures of a snapshot that come from orders (channels and alerts are read from the
/// database on every server alike, and the percentiles follow the counts).
fn order_figures(snapshot: &Value) -> Value {
    let top: Vec<Value> = snapshot["top_merchants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|merchant| json!([merchant["merchant_id"], merchant["orders"], merchant["amount_fen"]]))
        .collect();
    json!({
        "placed": total(snapshot, "placed"),
        "succeeded": total(snapshot, "succeeded"),
        "failed": total(snapshot, "failed"),
        "in_flight": snapshot["in_flight"],
        "manual_review": snapshot["manual_review"],
        "top_merchants": top,
        "carriers": snapshot["carriers"],
        "provinces_today": snapshot["provinces_today"],
    })
}

/// The figures as a server starting now would read them from the database.
async fn database_figures(app: &TestApp) -> Value {
    let now = now_millis();
    let (aggregate, names) = rebuild::read(&app.state.db, now, false).await.expect("figures read");
    order_figures(&serde_json::to_value(aggregate.snapshot(now, &names)).unwrap())
}

/// Events of `stream` until one satisfies `condition`; fails unless it comes within
/// [`SHOWN_WITHIN`] (events come every second, so a late one is seen late, not missed).
async fn shown_within(stream: &mut EventStream, what: &str, condition: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (_, snapshot) = stream.next().await.expect("the stream goes on");
        if condition(&snapshot) {
            return snapshot;
        }
        assert!(started.elapsed() < SHOWN_WITHIN, "{what} not shown within {SHOWN_WITHIN:?}: {snapshot}");
    }
}

async fn place(app: &TestApp, token: &str, count: usize) {
    for _ in 0..count {
        let placed = app.add_order(token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
        assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_show_the_same_monitor_and_agree_with_the_database() {
    // Server A runs the order worker; server B only serves, so B learns of every result from A.
    let a = spawn_app_with(Backend::Postgres, |_| {}).await;
    let b = a.restart_with(|config| config.worker.enabled = false).await;
    let (mid, token) = a.merchant("shared").await;
    a.fund(mid, 1_000_000, 0).await;
    let mut on_a = open_with_ticket(&a, &a.login(ADMIN).await).await;
    let mut on_b = open_with_ticket(&b, &b.login(ADMIN).await).await;
    let (_, first) = on_b.next().await.unwrap();
    assert_eq!((total(&first, "placed"), total(&first, "succeeded")), (0, 0));

    // Placed through A and finished by A's worker: B handled none of it.
    place(&a, &token, 5).await;
    a.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    let seen = shown_within(&mut on_b, "A's orders on B", |snapshot| {
        total(snapshot, "placed") == 5 && total(snapshot, "succeeded") == 5 && snapshot["in_flight"] == 0
    })
    .await;
    assert_eq!(seen["top_merchants"][0]["merchant_id"], mid);
    assert_eq!(seen["top_merchants"][0]["name"], "shared");
    assert_eq!(seen["top_merchants"][0]["orders"], 5);

    // Placed through B, finished by A: each server tells the other its part.
    place(&b, &token, 3).await;
    a.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    let done = |snapshot: &Value| {
        total(snapshot, "placed") == 8 && total(snapshot, "succeeded") == 8 && snapshot["in_flight"] == 0
    };
    let on_b_now = shown_within(&mut on_b, "the orders placed through B, on B", done).await;
    let on_a_now = shown_within(&mut on_a, "the orders placed through B, on A", done).await;

    // At rest: both monitors and the database say the same.
    let database = database_figures(&a).await;
    assert_eq!(database["placed"], 8, "{database}");
    assert_eq!(order_figures(&on_a_now), database, "server A");
    assert_eq!(order_figures(&on_b_now), database, "server B");
    // And it stays so: no event comes late to count twice.
    let (_, later) = on_b.next().await.unwrap();
    assert_eq!(order_figures(&later), database);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_is_judged_on_every_servers_attempts_and_its_pause_shows_everywhere() {
    let configure = |config: &mut backoffice::platform::config::Config| {
        config.channel.allow_private = true;
        config.channel.health_window = 4;
        config.channel.health_min_success_ratio = 0.5;
        config.channel.pause_cooldown = Duration::from_secs(3600);
    };
    // A's worker fails two orders at the flaky channel, then A stops and C's worker fails two
    // more: a window of four is full only counting both. B watches without a worker.
    let mut a = spawn_app_with(Backend::Postgres, configure).await;
    let b = a.restart_with(|config| config.worker.enabled = false).await;
    let (flaky, _simulator) = failing_channel(&a, "flaky", 10).await;
    let (mid, token) = a.merchant("routed").await;
    a.fund(mid, 1_000_000, 0).await;
    let mut on_b = open_with_ticket(&b, &b.login(ADMIN).await).await;
    let failed_at_flaky = "SELECT COUNT(*) FROM order_attempts WHERE channel_id = $1 AND outcome = 'failed'";

    place(&a, &token, 2).await;
    a.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    assert_eq!(a.scalar(failed_at_flaky, flaky).await, 2);
    shown_within(&mut on_b, "A's attempts on B", |snapshot| {
        channel_ratio(snapshot, flaky).is_some_and(|ratio| ratio["failed_5m"] == 2)
    })
    .await;
    a.stop().await;
    let c = a.restart_with(configure).await;
    assert_eq!(c.scalar("SELECT COUNT(*) FROM channels WHERE id = $1 AND paused_until IS NOT NULL", flaky).await, 0);

    place(&c, &token, 2).await;
    c.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    assert_eq!(c.scalar(failed_at_flaky, flaky).await, 4);
    let paused = c.scalar("SELECT COUNT(*) FROM channels WHERE id = $1 AND pause_reason = 'low_success_ratio'", flaky);
    assert_eq!(paused.await, 1, "C paused the channel on A's attempts and its own");
    let seen = shown_within(&mut on_b, "the pause on B", |snapshot| paused_alert(snapshot, flaky).is_some()).await;
    assert_eq!(paused_alert(&seen, flaky).unwrap()["pause_reason"], "low_success_ratio");
    assert_eq!(channel_ratio(&seen, flaky).unwrap()["failed_5m"], 4);
    // Placed through A and C, all on B's monitor.
    assert_eq!((total(&seen, "placed"), total(&seen, "succeeded")), (4, 4));
}
