use crate::helpers::{ADMIN, Backend, MERCHANT, spawn_app};
use crate::on_both_backends;

on_both_backends!(the_monitor_is_for_administrators_only, the_monitor_shows_live_figures);

const OVERVIEW: &str = "/adminapi/monitor/overview";

async fn the_monitor_is_for_administrators_only(backend: Backend) {
    let app = spawn_app(backend).await;
    let merchant = app.login(MERCHANT).await;
    let answer = app.get_as(&merchant, OVERVIEW).await;
    assert_eq!((answer.status.as_u16(), answer.code()), (403, 40300));
    assert_eq!(app.send(app.client.get(app.url(OVERVIEW))).await.code(), 50008);
}

async fn the_monitor_shows_live_figures(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    app.login(MERCHANT).await;
    let first = app.get_as(&admin, OVERVIEW).await;
    assert_eq!(first.code(), 20000);
    let data = first.data();
    let expected_kind = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    assert_eq!(data["database_kind"], expected_kind);
    assert_eq!(data["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(data["active_sessions"], 2);
    assert!(data["uptime_seconds"].as_i64().unwrap() >= 0);
    let requests_before = data["total_requests"].as_u64().unwrap();
    assert!(requests_before >= 3);
    let second = app.get_as(&admin, OVERVIEW).await;
    assert_eq!(second.data()["total_requests"].as_u64().unwrap(), requests_before + 1);
    assert!(second.data()["requests_last_minute"].as_u64().unwrap() >= 4);
    // A signed-out session is no longer active.
    app.post_as(&admin, "/adminapi/login/logout", serde_json::json!({})).await;
    let admin = app.login(ADMIN).await;
    assert_eq!(app.get_as(&admin, OVERVIEW).await.data()["active_sessions"], 2);
}
