//! The live monitor stream: administrators only, an event after an order changes state,
//! resumable with `Last-Event-ID`, ended with its session, rebuilt after a restart.

use crate::helpers::{ADMIN, Backend, MERCHANT, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};
use std::time::Duration;

on_both_backends!(
    the_stream_refuses_merchants_and_strangers,
    the_stream_shows_an_order_moving,
    the_stream_resumes_after_the_last_event_id,
    the_stream_ends_with_its_session,
    a_restart_rebuilds_the_figures_from_the_database,
    the_stream_shows_the_notification_backlog_and_exhausted_notifications,
    the_stream_shows_channel_ratios_and_paused_channels,
);

const STREAM: &str = "/adminapi/monitor/stream";
const TICKET: &str = "/adminapi/monitor/stream/ticket";
/// An event comes at least once a second; this is how long a test waits for one at most.
const EVENT_WAIT: Duration = Duration::from_secs(10);

pub(crate) struct EventStream {
    response: reqwest::Response,
    buffer: String,
}

impl EventStream {
    /// The next event's (id, data), or None when the server ended the stream.
    pub(crate) async fn next(&mut self) -> Option<(i64, Value)> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut id, mut data) = (None, String::new());
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("id:") {
                        id = value.trim().parse::<i64>().ok();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data.push_str(value.trim_start());
                    }
                }
                if let (Some(id), false) = (id, data.is_empty()) {
                    return Some((id, serde_json::from_str(&data).expect("event data is JSON")));
                }
                continue;
            }
            let chunk = tokio::time::timeout(EVENT_WAIT, self.response.chunk())
                .await
                .expect("an event within the wait")
                .expect("the stream reads")?;
            self.buffer.push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }

    /// Events until one satisfies `condition`; fails the test if the stream ends first.
    pub(crate) async fn until(&mut self, condition: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            assert!(tokio::time::Instant::now() < deadline, "the figure never showed");
            let (_, data) = self.next().await.expect("the stream goes on");
            if condition(&data) {
                return data;
            }
        }
    }
}

async fn open(app: &TestApp, request: reqwest::RequestBuilder) -> EventStream {
    let response = request.send().await.expect("stream request");
    assert_eq!(response.status(), 200);
    let kind = response.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let _ = app;
    EventStream { response, buffer: String::new() }
}

pub(crate) async fn open_with_ticket(app: &TestApp, admin: &str) -> EventStream {
    let ticket = app.post_as(admin, TICKET, json!({})).await;
    assert_eq!(ticket.code(), 20000, "{:?}", ticket.body);
    let ticket = ticket.data()["ticket"].as_str().unwrap().to_string();
    assert!(!ticket.contains(admin), "the ticket is not the session token");
    open(app, app.client.get(app.url(STREAM)).query(&[("ticket", ticket)])).await
}

fn total(snapshot: &Value, field: &str) -> u64 {
    snapshot["minutes"].as_array().unwrap().iter().map(|minute| minute[field].as_u64().unwrap()).sum()
}

async fn the_stream_refuses_merchants_and_strangers(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let refused = app.get_as(&merchant, STREAM).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40300));
    let refused = app.post_as(&merchant, TICKET, json!({})).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40300));
    let anonymous = app.send(app.client.get(app.url(STREAM))).await;
    assert_eq!((anonymous.status.as_u16(), anonymous.code()), (401, 50008));
    // A forged or altered ticket opens nothing.
    let admin = app.login(ADMIN).await;
    let ticket = app.post_as(&admin, TICKET, json!({})).await.data()["ticket"].as_str().unwrap().to_string();
    let (session, rest) = ticket.split_once('.').unwrap();
    let forged = format!("{}.{rest}", session.parse::<i64>().unwrap() + 1);
    for bad in [forged.as_str(), "1.2.3", "nonsense"] {
        let answer = app.send(app.client.get(app.url(STREAM)).query(&[("ticket", bad)])).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (401, 50008), "{bad}");
    }
    // A merchant's session behind a genuine ticket format is still a merchant's.
    let merchant_session = ticket.replacen(session, "999999", 1);
    assert_eq!(app.send(app.client.get(app.url(STREAM)).query(&[("ticket", merchant_session)])).await.code(), 50008);
}

async fn the_stream_shows_an_order_moving(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    crate::product_scope::add_test_segments(&app).await;
    let (mid, token) = app.merchant("live1").await;
    app.fund(mid, 100_000, 0).await;
    let mut stream = open_with_ticket(&app, &admin).await;
    let (_, first) = stream.next().await.unwrap();
    assert_eq!((total(&first, "placed"), total(&first, "succeeded")), (0, 0));
    assert_eq!(first["minutes"].as_array().unwrap().len(), 60);
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    // The sandbox answers within milliseconds: placed, then succeeded.
    let done = stream.until(|snapshot| total(snapshot, "placed") == 1 && total(snapshot, "succeeded") == 1).await;
    assert_eq!(done["in_flight"], 0);
    assert_eq!(done["carriers"][0]["carrier"], 1);
    assert_eq!(done["carriers"][0]["success_permille_5m"], 1000);
    assert!(done["p50_ms"].as_i64().unwrap() > 0);
    let top = &done["top_merchants"][0];
    assert_eq!(
        (top["merchant_id"].as_i64(), top["name"].as_str(), top["orders"].as_u64()),
        (Some(mid), Some("live1"), Some(1))
    );
    // 13800138000 is a Beijing number (the test segments): today's province figures.
    assert_eq!(
        done["provinces_today"],
        json!([{"province": 110000, "orders": 1, "amount_fen": top["amount_fen"], "succeeded": 1, "failed": 0,
                "success_permille": 1000}])
    );
    // Below the alert line (1,000 yuan by default) after funding 1,000 yuan and ordering.
    let alerted = stream.until(|snapshot| !snapshot["alerts"].as_array().unwrap().is_empty()).await;
    assert!(alerted["alerts"].as_array().unwrap().iter().any(|alert| alert["merchant_id"] == mid));
}

async fn the_stream_resumes_after_the_last_event_id(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let headers = |request: reqwest::RequestBuilder| request.bearer_auth(&admin).header("token", &admin);
    let mut first = open(&app, headers(app.client.get(app.url(STREAM)))).await;
    let (last_id, _) = first.next().await.unwrap();
    let (next_id, _) = first.next().await.unwrap();
    assert!(next_id > last_id, "ids increase");
    drop(first);
    // Reconnecting with the last id seen: a full snapshot newer than it, nothing older.
    let mut resumed =
        open(&app, headers(app.client.get(app.url(STREAM))).header("Last-Event-ID", next_id.to_string())).await;
    let (resumed_id, snapshot) = resumed.next().await.unwrap();
    assert!(resumed_id > next_id);
    assert_eq!(snapshot["minutes"].as_array().unwrap().len(), 60, "a full snapshot");
    // An id from another clock (far ahead) is not ours and is ignored.
    let mut odd =
        open(&app, headers(app.client.get(app.url(STREAM))).header("Last-Event-ID", i64::MAX.to_string())).await;
    assert!(odd.next().await.is_some());
}

async fn the_stream_ends_with_its_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let mut stream = open_with_ticket(&app, &admin).await;
    assert!(stream.next().await.is_some());
    assert_eq!(app.post_as(&admin, "/adminapi/login/logout", json!({})).await.code(), 20000);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while stream.next().await.is_some() {
        assert!(tokio::time::Instant::now() < deadline, "the stream outlived its session");
    }
    // A ticket issued before the sign-out opens nothing now.
    let admin = app.login(ADMIN).await;
    let ticket = app.post_as(&admin, TICKET, json!({})).await.data()["ticket"].as_str().unwrap().to_string();
    app.post_as(&admin, "/adminapi/login/logout", json!({})).await;
    let answer = app.send(app.client.get(app.url(STREAM)).query(&[("ticket", ticket)])).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (401, 50012));
}

async fn a_restart_rebuilds_the_figures_from_the_database(backend: Backend) {
    let mut app = spawn_app(backend).await;
    crate::product_scope::add_test_segments(&app).await;
    let (mid, token) = app.merchant("live2").await;
    app.fund(mid, 100_000, 0).await;
    // Beijing, Guangdong (the test segments) and a number of no known segment.
    for account in ["13800138000", "13822221234", "13900001111"] {
        let placed = app.add_order(&token, json!({"account": account, "product_key": "MOBILE-DIRECT-10"})).await;
        assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status IN (0, 1)", mid, 20).await;
    app.stop().await;
    let restarted = app.restart_with(|config| config.worker.enabled = false).await;
    let admin = restarted.login(ADMIN).await;
    let mut stream = open_with_ticket(&restarted, &admin).await;
    let (_, snapshot) = stream.next().await.unwrap();
    assert_eq!((total(&snapshot, "placed"), total(&snapshot, "succeeded")), (3, 3));
    assert_eq!(snapshot["top_merchants"][0]["orders"], 3);
    let provinces: Vec<(Value, u64, u64)> = snapshot["provinces_today"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["province"].clone(), row["orders"].as_u64().unwrap(), row["succeeded"].as_u64().unwrap()))
        .collect();
    assert_eq!(provinces, [(json!(110000), 1, 1), (json!(440000), 1, 1), (Value::Null, 1, 1)]);
    assert_eq!(snapshot["top_merchants"][0]["name"], "live2");
}

/// A notification row for `mid`, written as the outbox would; `due_in_ms` keeps a pending
/// one from being sent during the test.
async fn notification(app: &TestApp, mid: i64, state: i64, due_in_ms: i64) -> i64 {
    let now = backoffice::platform::db::now_millis();
    sqlx::query_scalar(
        "INSERT INTO notifications (event_id, merchant_id, order_id, event_type, url, body, state, attempts,
                                    next_attempt_at, created_at)
         VALUES ($1, $2, NULL, 'test', 'https://example.com/hook', '{}', $3, 1, $4, $5) RETURNING id",
    )
    .bind(format!("msg_test_{state}_{now}"))
    .bind(mid)
    .bind(state)
    .bind(now + due_in_ms)
    .bind(now)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

async fn the_stream_shows_the_notification_backlog_and_exhausted_notifications(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    let (mid, _) = app.merchant("hooked").await;
    let mut stream = open_with_ticket(&app, &admin).await;
    let (_, first) = stream.next().await.unwrap();
    assert_eq!(first["notifications"]["backlog"], 0);
    assert!(first["notifications"]["failure_permille_60m"].is_null());
    // One waiting for its retry (due in an hour), one given up on, with a failed and a
    // delivered attempt in the last hour.
    notification(&app, mid, 2, 3_600_000).await;
    let exhausted = notification(&app, mid, 3, 0).await;
    for (attempt, delivered) in [(1, 0), (2, 1)] {
        sqlx::query(
            "INSERT INTO notification_attempts (notification_id, attempt, started_at, latency_ms, http_status, delivered)
             VALUES ($1, $2, $3, 5, 500, $4)",
        )
        .bind(exhausted)
        .bind(attempt)
        .bind(backoffice::platform::db::now_millis())
        .bind(delivered)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    }
    // Read every 10 seconds: wait for the figures, not for the time.
    let seen = stream
        .until(|snapshot| {
            snapshot["notifications"]["backlog"] == 1
                && snapshot["alerts"].as_array().unwrap().iter().any(|alert| alert["kind"] == "notification_exhausted")
        })
        .await;
    assert_eq!(seen["notifications"]["attempts_60m"], 2);
    assert_eq!(seen["notifications"]["failed_60m"], 1);
    assert_eq!(seen["notifications"]["failure_permille_60m"], 500);
    let alert =
        seen["alerts"].as_array().unwrap().iter().find(|alert| alert["kind"] == "notification_exhausted").unwrap();
    assert_eq!((alert["merchant_id"].as_i64(), alert["count"].as_i64()), (Some(mid), Some(1)));
    assert_eq!(alert["name"], "hooked");
}

/// A simulated supplier channel answering every order with a definite failure.
pub(crate) async fn failing_channel(
    app: &TestApp,
    code: &str,
    priority: i64,
) -> (i64, backoffice::supply::simulator::Simulator) {
    let config = backoffice::supply::simulator::SimConfig { success_ratio: 0.0, ..Default::default() };
    crate::channel_support::supplier_channel(app, code, priority, 960, config).await
}

pub(crate) fn channel_ratio(snapshot: &Value, channel_id: i64) -> Option<Value> {
    snapshot["channels"].as_array().unwrap().iter().find(|ratio| ratio["channel_id"] == channel_id).cloned()
}

pub(crate) fn paused_alert(snapshot: &Value, channel_id: i64) -> Option<Value> {
    snapshot["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|alert| alert["kind"] == "channel_paused" && alert["channel_id"] == channel_id)
        .cloned()
}

async fn the_stream_shows_channel_ratios_and_paused_channels(backend: Backend) {
    let configure = |config: &mut backoffice::platform::config::Config| {
        config.channel.allow_private = true;
        config.channel.health_window = 3;
        config.channel.health_min_success_ratio = 0.5;
        config.channel.pause_cooldown = Duration::from_secs(3600);
    };
    let mut app = spawn_app_with(backend, configure).await;
    // Tried first (priority above the sandbox's 0), fails each order; the sandbox then succeeds.
    let (flaky, _simulator) = failing_channel(&app, "flaky", 10).await;
    let sandbox = app.scalar("SELECT id FROM channels WHERE code = 'sandbox' AND $1 > 0", 1).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("routed").await;
    app.fund(mid, 100_000, 0).await;
    let mut stream = open_with_ticket(&app, &admin).await;
    let (_, first) = stream.next().await.unwrap();
    assert!(first["channels"].as_array().unwrap().is_empty());
    for _ in 0..3 {
        let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
        assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    }
    app.wait_for_zero("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status <> 2", mid, 20).await;
    // Three definite failures in a window of three paused it: a ratio of 0 and an alert.
    let seen = stream
        .until(|snapshot| {
            channel_ratio(snapshot, flaky).is_some_and(|ratio| ratio["failed_5m"] == 3)
                && channel_ratio(snapshot, sandbox).is_some_and(|ratio| ratio["succeeded_5m"] == 3)
                && paused_alert(snapshot, flaky).is_some()
        })
        .await;
    let failing = channel_ratio(&seen, flaky).unwrap();
    assert_eq!(failing["name"], "flaky");
    assert_eq!((failing["succeeded_60m"].as_u64(), failing["failed_60m"].as_u64()), (Some(0), Some(3)));
    assert_eq!((failing["success_permille_5m"].as_u64(), failing["success_permille_60m"].as_u64()), (Some(0), Some(0)));
    let steady = channel_ratio(&seen, sandbox).unwrap();
    assert_eq!(steady["success_permille_5m"], 1000);
    assert_eq!(steady["name"], "沙箱渠道");
    let alert = paused_alert(&seen, flaky).unwrap();
    assert_eq!((alert["name"].as_str(), alert["pause_reason"].as_str()), (Some("flaky"), Some("low_success_ratio")));
    assert!(alert["paused_until"].as_i64().unwrap() > backoffice::platform::db::now_millis());
    assert!(paused_alert(&seen, sandbox).is_none());
    drop(stream);

    // After a restart the figures and the alert are read back from the database.
    app.stop().await;
    let restarted = app.restart_with(|config| config.worker.enabled = false).await;
    let admin = restarted.login(ADMIN).await;
    let mut stream = open_with_ticket(&restarted, &admin).await;
    let (_, snapshot) = stream.next().await.unwrap();
    let failing = channel_ratio(&snapshot, flaky).expect("rebuilt channel figures");
    assert_eq!((failing["failed_60m"].as_u64(), failing["name"].as_str()), (Some(3), Some("flaky")));
    assert_eq!(channel_ratio(&snapshot, sandbox).unwrap()["succeeded_60m"], 3);
    assert!(paused_alert(&snapshot, flaky).is_some());
}
