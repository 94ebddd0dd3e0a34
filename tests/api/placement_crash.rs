//! kill -9 while placing orders loses nothing acknowledged and charges nothing twice (issue
//! 13): the real binary is killed with SIGKILL while sixteen clients place orders on it at
//! once, then started again on the same database, and every client retries what it was not
//! told. On PostgreSQL these placements are written without a transaction, from accounts
//! read without the lock or known from the last write (orders/placement/unlocked.rs); on SQLite in
//! the single writer's transactions.

use crate::helpers::{Backend, TestApp, logged_port, spawn_app_with};
use crate::on_both_backends;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Notify;

on_both_backends!(a_server_killed_while_placing_loses_no_acknowledged_order);

const CLIENTS: usize = 16;
/// Acknowledged orders before the kill (clients go on placing until it comes).
const BEFORE_KILL: usize = 200;

/// The real binary on the test's database and key, with its port from its log (which is then
/// drained on a thread, so that it never blocks on a full pipe).
fn serve(app: &TestApp) -> (Child, u16) {
    let mut child = Command::new(crate::helpers::server_binary())
        .args(["--log-format", "json", "serve", "--listen", "127.0.0.1:0", "--no-worker"])
        .args(["--database", &app.config.database_url, "--secret-key-file"])
        .arg(app.config.secret_key_path.as_ref().unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let port = logged_port(&mut lines);
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(drop));
    (child, port)
}

/// One order's answer from the server on `port`: the envelope's code, or None when the
/// request got no answer (the server died under it).
async fn place(client: &reqwest::Client, port: u16, token: &str, merchant_order_id: &str) -> Option<i64> {
    let body =
        json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": merchant_order_id});
    let sent = client.post(format!("http://127.0.0.1:{port}/adminapi/order/add")).bearer_auth(token).json(&body);
    let answer: Value = sent.send().await.ok()?.json().await.ok()?;
    answer["code"].as_i64()
}

async fn a_server_killed_while_placing_loses_no_acknowledged_order(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("crash-placing").await;
    app.fund(mid, 100_000_000, 0).await;
    let (mut first, port) = serve(&app);

    // Sixteen clients place orders one after another, each with ids of its own, until the
    // server dies; each keeps what it was told about each id it sent.
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let enough = Arc::new(Notify::new());
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client_no| {
            let (token, acknowledged, enough) = (token.clone(), acknowledged.clone(), enough.clone());
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                let mut told: Vec<(String, Option<i64>)> = Vec::new();
                for n in 0.. {
                    let id = format!("CRASH-{client_no}-{n}");
                    let code = place(&client, port, &token, &id).await;
                    told.push((id, code));
                    match code {
                        Some(20000) => {
                            if acknowledged.fetch_add(1, Ordering::SeqCst) + 1 == BEFORE_KILL {
                                enough.notify_one();
                            }
                        }
                        Some(other) => panic!("order refused before the kill: {other}"),
                        None => break,
                    }
                }
                told
            })
        })
        .collect();
    enough.notified().await;
    first.kill().unwrap();
    first.wait().unwrap();
    let mut told: HashMap<String, Option<i64>> = HashMap::new();
    for client in clients {
        told.extend(client.await.unwrap());
    }
    let placed: Vec<&String> = told.iter().filter(|(_, code)| **code == Some(20000)).map(|(id, _)| id).collect();
    let unanswered: Vec<&String> = told.iter().filter(|(_, code)| code.is_none()).map(|(id, _)| id).collect();
    assert!(placed.len() >= BEFORE_KILL && unanswered.len() == CLIENTS, "{} {}", placed.len(), unanswered.len());

    // Every acknowledged order is there once; an unanswered one may be there too.
    let stored = |id: &str| {
        let id = id.to_string();
        let app = &app;
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND merchant_order_id = $2",
            )
            .bind(mid)
            .bind(id)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap()
        }
    };
    for id in &placed {
        assert_eq!(stored(id).await, 1, "acknowledged order {id} is stored once");
    }
    app.assert_books_balance(mid).await;

    // Started again, the clients retry what they were not told: each order is placed now or
    // answered as placed before (409), never charged twice.
    let (mut second, port) = serve(&app);
    let client = reqwest::Client::new();
    for id in &unanswered {
        let code = place(&client, port, &token, id).await;
        assert!(matches!(code, Some(20000) | Some(40900)), "retry of {id}: {code:?}");
        assert_eq!(stored(id).await, 1, "{id} is stored once after its retry");
    }
    second.kill().unwrap();
    second.wait().unwrap();
    let orders = app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(orders as usize, placed.len() + unanswered.len());
    let charged = app.scalar("SELECT CAST(SUM(price_fen) AS BIGINT) FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(app.figures(mid).await.0, 100_000_000 - charged, "each order charged once");
    let debits = app
        .scalar("SELECT COUNT(*) FROM account_log WHERE merchant_id = $1 AND change_type = 1 AND account_type = 1", mid)
        .await;
    assert_eq!(debits, orders, "one debit record an order");
    app.assert_books_balance(mid).await;
}
