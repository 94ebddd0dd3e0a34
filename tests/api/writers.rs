//! How the database's writers keep out of each other's way: on SQLite the WAL is checkpointed
//! beside the writer (platform/db/checkpoint.rs); on PostgreSQL each placement writer keeps a
//! connection of its own (orders/placement/group.rs), and one the database closed is replaced; a write
//! computed from an account read without its lock writes nothing if the account moved
//! meanwhile, and two servers placing for one merchant never overdraw it.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app, spawn_app_with};
use crate::on_both_backends;
use crate::open_api::PRICE;
use backoffice::money::finance::ledger::{Actor, Ledger};
use backoffice::orders::placement::group::WRITER_APPLICATION_NAME;
use backoffice::platform::sql::StatementBatch;
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
    // The first group after it fails on the closed connection and is written again on a new
    // one.
    place(&app, &token, 3).await;
    let second = writer_connections(&app).await;
    assert_eq!(second.len(), 1, "{second:?}");
    assert_ne!(second[0], first[0]);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 5);
    app.assert_books_balance(mid).await;
}

on_both_backends!(a_write_from_an_unlocked_read_writes_nothing_once_the_account_moved);

/// The ledger of `mid` as read now, without the lock, with a top-up of `amount` in it.
async fn unlocked_top_up(app: &TestApp, mid: i64, amount: i64) -> Ledger {
    let row = sqlx::query(
        "SELECT balance_fen, credit_limit_fen, credit_used_fen, total_topup_fen FROM merchant_accounts
         WHERE merchant_id = $1",
    )
    .bind(mid)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    let mut ledger = Ledger::from_unlocked_row(mid, Actor::system(), &row).unwrap();
    ledger.top_up(amount, "unlocked");
    ledger
}

/// Writes the ledger as the placement writers do: on PostgreSQL one statement outside a
/// transaction, on SQLite a transaction in one hop (rolled back on failure).
async fn write(app: &TestApp, ledger: Ledger) -> Result<(), sqlx::Error> {
    let mut batch = StatementBatch::one_statement();
    ledger.add_to(&mut batch);
    match app.state.db.kind {
        backoffice::platform::db::DatabaseKind::Postgres => {
            batch.execute(&mut app.state.db.pool.acquire().await.unwrap()).await
        }
        backoffice::platform::db::DatabaseKind::Sqlite => {
            app.state.db.sqlite_write().await.unwrap().run_in_one_hop(batch).await
        }
    }
}

async fn a_write_from_an_unlocked_read_writes_nothing_once_the_account_moved(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, _) = app.merchant("unlocked").await;
    app.fund(mid, 1_000, 0).await;
    let logged = || app.scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND remark = 'unlocked'", mid);

    // Nothing moved between the read and the write: it is stored.
    write(&app, unlocked_top_up(&app, mid, 500).await).await.expect("an unchanged account is written");
    assert_eq!((app.figures(mid).await.0, logged().await), (1_500, 1));

    // A top-up lands between the read and the write: the write fails whole.
    let stale = unlocked_top_up(&app, mid, 500).await;
    app.fund(mid, 100, 0).await;
    let error = write(&app, stale).await.expect_err("a moved account is not overwritten");
    if matches!(backend, Backend::Postgres) {
        let code = error.as_database_error().and_then(|error| error.code()).map(|code| code.to_string());
        assert_eq!(code.as_deref(), Some("40001"), "{error}");
    }
    assert_eq!((app.figures(mid).await.0, logged().await), (1_600, 1), "neither the account nor its record");
    // The failed write left no transaction open behind it: the next write goes through.
    app.fund(mid, 100, 0).await;
    assert_eq!(app.figures(mid).await.0, 1_700);
    app.assert_books_balance(mid).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_placing_for_one_merchant_never_overdraw_it() {
    let first = spawn_app_with(Backend::Postgres, |config| config.worker.enabled = false).await;
    let second = first.restart_with(|_| {}).await;
    let (mid, token) = first.merchant("two-servers").await;
    // Funds for exactly 60 orders of the 120 sent, half to each server at once: each server's
    // writer reads the account without the lock, so their writes race on it.
    first.fund(mid, 60 * PRICE, 0).await;
    let requests = (0..120).map(|index| {
        let (app, token) = (if index % 2 == 0 { &first } else { &second }, token.clone());
        async move {
            let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("TWO-{index}")});
            app.add_order(&token, body).await.code()
        }
    });
    let codes = futures_util::future::join_all(requests).await;
    assert_eq!(codes.iter().filter(|code| **code == 20000).count(), 60, "{codes:?}");
    assert_eq!(codes.iter().filter(|code| **code == 40200).count(), 60, "{codes:?}");
    assert_eq!(first.figures(mid).await.0, 0);
    assert_eq!(first.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 60);
    first.assert_books_balance(mid).await;
}
