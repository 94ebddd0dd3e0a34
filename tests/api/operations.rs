//! `/healthz`, `/readyz`, `/metrics` and `backoffice backup`.

use crate::helpers::{ADMIN, Backend, MERCHANT, database_url, spawn_app, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;
use std::process::Command;

on_both_backends!(
    health_and_readiness_answer,
    metrics_need_an_administrator_or_the_scrape_token,
    backup_copies_sqlite_and_explains_postgres,
);

const SCRAPE_TOKEN: &str = "scrape-token-0123456789";

async fn health_and_readiness_answer(backend: Backend) {
    let app = spawn_app(backend).await;
    let health = app.send(app.client.get(app.url("/healthz"))).await;
    assert_eq!((health.status.as_u16(), health.code()), (200, 20000));
    assert_eq!(health.data()["status"], "ok");
    let ready = app.send(app.client.get(app.url("/readyz"))).await;
    assert_eq!((ready.status.as_u16(), ready.code()), (200, 20000));
    assert_eq!(ready.data()["migration"].as_i64(), Some(app.state.db.latest_migration()));
    // A database that has gone away: not ready, in the usual envelope.
    app.state.db.pool.close().await;
    let gone = app.send(app.client.get(app.url("/readyz")).header("Accept-Language", "zh-CN")).await;
    assert_eq!((gone.status.as_u16(), gone.code()), (503, 50300));
    assert!(gone.msg().contains("数据库"));
    assert_eq!(app.send(app.client.get(app.url("/healthz"))).await.code(), 20000);
}

async fn metrics_need_an_administrator_or_the_scrape_token(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.metrics_token = Some(SCRAPE_TOKEN.into())).await;
    let anonymous = app.send(app.client.get(app.url("/metrics"))).await;
    assert_eq!((anonymous.status.as_u16(), anonymous.code()), (401, 50008));
    let wrong = app.send(app.client.get(app.url("/metrics")).bearer_auth("scrape-token-0123456788")).await;
    assert_eq!((wrong.status.as_u16(), wrong.code()), (401, 50008));
    let merchant = app.login(MERCHANT).await;
    let refused = app.get_as(&merchant, "/metrics").await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40300));
    app.send(app.client.get(app.url("/healthz"))).await;
    let (mid, token) = app.merchant("scraped").await;
    app.fund(mid, 100_000, 0).await;
    let placed = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
    assert_eq!(placed.code(), 20000);
    // The notification outbox: one pending since 90 s, two failed awaiting a retry; the
    // delivered and the exhausted ones are not a backlog. Due in an hour: none is sent now.
    let now = backoffice::platform::db::now_millis();
    for (index, (state, age_ms)) in
        [(0, 90_000), (2, 30_000), (2, 10_000), (1, 500_000), (3, 900_000)].iter().enumerate()
    {
        sqlx::query(
            "INSERT INTO notifications (event_id, merchant_id, order_id, event_type, url, body, state, attempts,
                                        next_attempt_at, created_at)
             VALUES ($1, $2, NULL, 'test', 'https://example.com/hook', '{}', $3, 0, $4, $5)",
        )
        .bind(format!("msg_metrics_{index}"))
        .bind(mid)
        .bind(*state)
        .bind(now + 3_600_000)
        .bind(now - age_ms)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    }
    let admin = app.login(ADMIN).await;
    let by_admin = app.client.get(app.url("/metrics")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(by_admin.status(), 200);
    assert!(by_admin.headers()["content-type"].to_str().unwrap().starts_with("text/plain; version=0.0.4"));
    let text = by_admin.text().await.unwrap();
    for expected in [
        "backoffice_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 1",
        "backoffice_http_requests_total{route=\"/metrics\",method=\"GET\",status=\"401\"} 2",
        "backoffice_http_requests_total{route=\"/metrics\",method=\"GET\",status=\"403\"} 1",
        "backoffice_http_request_duration_seconds_bucket{le=\"+Inf\"}",
        "backoffice_worker_lag_seconds ",
        "backoffice_db_pool_connections{state=\"open\"}",
        "backoffice_notifications_backlog{state=\"pending\"} 1\n",
        "backoffice_notifications_backlog{state=\"failed\"} 2\n",
    ] {
        assert!(text.contains(expected), "{expected} missing:\n{text}");
    }
    let oldest: f64 = text
        .lines()
        .find_map(|line| line.strip_prefix("backoffice_notifications_oldest_pending_seconds "))
        .expect("the oldest pending notification's age")
        .parse()
        .unwrap();
    assert!((90.0..600.0).contains(&oldest), "the pending one, not the delivered or exhausted ones: {oldest}");
    let orders_line = text.lines().find(|line| line.starts_with("backoffice_orders{")).expect("orders by state");
    assert!(orders_line.starts_with("backoffice_orders{state=\"pending\"}"));
    let all_orders: i64 = text
        .lines()
        .filter(|line| line.starts_with("backoffice_orders{"))
        .map(|line| line.rsplit(' ').next().unwrap().parse::<i64>().unwrap())
        .sum();
    assert_eq!(all_orders, app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id >= $1", 0).await);
    assert!(all_orders >= 1);
    let by_token = app.client.get(app.url("/metrics")).bearer_auth(SCRAPE_TOKEN).send().await.unwrap();
    assert_eq!(by_token.status(), 200);
    assert!(by_token.text().await.unwrap().contains("backoffice_uptime_seconds"));
    // Without a configured token, the same bearer is just an unknown session.
    let plain = spawn_app(backend).await;
    let answer = plain.send(plain.client.get(plain.url("/metrics")).bearer_auth(SCRAPE_TOKEN)).await;
    assert_eq!(answer.code(), 50008);
}

async fn backup_copies_sqlite_and_explains_postgres(backend: Backend) {
    let directory = tempfile::tempdir().unwrap();
    let target = directory.path().join("copy.db");
    let backup = |database: &str| {
        Command::new(crate::helpers::server_binary())
            .args(["backup", "--to", target.to_str().unwrap(), "--database", database])
            .output()
            .unwrap()
    };
    match backend {
        Backend::Postgres => {
            let database = database_url(backend, &directory).await;
            let output = backup(&database);
            assert!(!output.status.success());
            assert!(String::from_utf8_lossy(&output.stderr).contains("pg_dump"));
            assert!(!target.exists());
        }
        Backend::Sqlite => {
            let app = spawn_app(backend).await;
            let (mid, token) = app.merchant("copied").await;
            app.fund(mid, 100_000, 0).await;
            let placed =
                app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
            assert_eq!(placed.code(), 20000);
            // Taken while the server runs.
            let output = backup(&app.config.database_url);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            assert!(String::from_utf8_lossy(&output.stdout).contains("1 orders"));
            let copy =
                backoffice::platform::db::Database::connect(&format!("sqlite://{}", target.display())).await.unwrap();
            let (orders, balance): (i64, i64) = (
                sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1")
                    .bind(mid)
                    .fetch_one(&copy.pool)
                    .await
                    .unwrap(),
                sqlx::query_scalar("SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1")
                    .bind(mid)
                    .fetch_one(&copy.pool)
                    .await
                    .unwrap(),
            );
            assert_eq!((orders, balance), (1, app.figures(mid).await.0));
            copy.pool.close().await;
            // Never over an existing file, and never creating a database that was not there.
            let again = backup(&app.config.database_url);
            assert!(!again.status.success());
            assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
            std::fs::remove_file(&target).unwrap();
            let missing = backup(&format!("sqlite://{}/nothing.db", directory.path().display()));
            assert!(!missing.status.success());
            assert!(!directory.path().join("nothing.db").exists());
        }
    }
}
