//! How the database's writers keep out of each other's way: on SQLite the WAL is checkpointed
//! beside the writer (db/checkpoint.rs); on PostgreSQL each placement writer keeps a
//! connection of its own (orders/group.rs), and one the database closed is replaced.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use backoffice::orders::group::WRITER_APPLICATION_NAME;
use serde_json::json;
use std::time::{Duration, Instant};

/// A `/metrics` figure as the administrator reads it; None when the line is missing.
async fn metric(app: &TestApp, admin: &str, name: &str) -> Option<u64> {
    let text = app.client.get(app.url("/metrics")).bearer_auth(admin).send().await.unwrap().text().await.unwrap();
    let prefix = format!("{name} ");
    text.lines().find_map(|line| line.strip_prefix(&prefix)).map(|value| value.parse().unwrap())
}

async fn place(app: &TestApp, token: &str, count: usize) {
    for _ in 0..count {
        let placed = app.add_order(token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"})).await;
        assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_checkpoints_the_wal_beside_the_writer() {
    let app = spawn_app(Backend::Sqlite).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("checkpoints").await;
    app.fund(mid, 1_000_000, 0).await;
    let before =
        metric(&app, &admin, "backoffice_sqlite_checkpoints_total").await.expect("SQLite shows its checkpoints");
    place(&app, &token, 5).await;
    // Far below the writer's own threshold (10,000 pages), so only the background task copies
    // these pages; it looks every 20 ms while the WAL grows, and at most 100 ms apart.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = metric(&app, &admin, "backoffice_sqlite_checkpoints_total").await.unwrap();
        if now > before {
            break;
        }
        assert!(Instant::now() < deadline, "no background checkpoint after the orders");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    app.assert_books_balance(mid).await;
}

async fn writer_connections(app: &TestApp) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT CAST(pid AS BIGINT) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
    )
    .bind(WRITER_APPLICATION_NAME)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placement_writer_whose_connection_was_closed_opens_another() {
    let app = spawn_app(Backend::Postgres).await;
    let admin = app.login(ADMIN).await;
    assert_eq!(metric(&app, &admin, "backoffice_sqlite_checkpoints_total").await, None);
    let (mid, token) = app.merchant("writer-conn").await;
    app.fund(mid, 1_000_000, 0).await;
    place(&app, &token, 2).await;
    let first = writer_connections(&app).await;
    assert_eq!(first.len(), 1, "one writer, one connection of its own: {first:?}");

    // As a restart of PostgreSQL or a proxy's idle timeout would.
    let terminated: bool = sqlx::query_scalar("SELECT pg_terminate_backend(CAST($1 AS INTEGER))")
        .bind(first[0])
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert!(terminated);
    let deadline = Instant::now() + Duration::from_secs(10);
    while writer_connections(&app).await.contains(&first[0]) {
        assert!(Instant::now() < deadline, "the writer's connection is still open");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The first group after it fails to begin and its order is placed alone; the next group
    // opens a new connection.
    place(&app, &token, 3).await;
    let second = writer_connections(&app).await;
    assert_eq!(second.len(), 1, "{second:?}");
    assert_ne!(second[0], first[0]);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 5);
    app.assert_books_balance(mid).await;
}
