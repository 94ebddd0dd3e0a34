//! PostgreSQL that takes no writes, as during a failover (a standby, or a primary demoted
//! under a running server), with every connection cut: calls are answered 503 with
//! `Retry-After`, never 500 and never as done; `/readyz` says not ready; once a primary is
//! back the pool's new connections serve without a restart, and the retried order (same
//! `Idempotency-Key`) is placed exactly once.

use crate::helpers::{Backend, TestApp, spawn_app_with, wait_until};
use serde_json::json;
use sqlx::Connection;

/// Makes the test's database read-only (or writable again) for new sessions, and cuts every
/// connection the server holds to it, as a failover does.
async fn fail_over(app: &TestApp, read_only: bool) {
    let admin_url = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL (run the tests with `make test`)");
    let name = reqwest::Url::parse(&app.config.database_url).unwrap().path().trim_start_matches('/').to_string();
    let mut admin = sqlx::AnyConnection::connect(&admin_url).await.expect("connect as the test administrator");
    // The name is ours (a UUID made by the helpers), never input.
    let setting =
        if read_only { "SET default_transaction_read_only = on" } else { "RESET default_transaction_read_only" };
    sqlx::query(sqlx::AssertSqlSafe(format!("ALTER DATABASE {name} {setting}"))).execute(&mut admin).await.unwrap();
    sqlx::query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    )
    .bind(&name)
    .execute(&mut admin)
    .await
    .unwrap();
    admin.close().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_without_a_primary_is_a_503_to_retry_and_the_retry_places_once() {
    let app = spawn_app_with(Backend::Postgres, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    app.fund(mid, 10_000, 0).await;
    let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10"});
    let add = || {
        let request = app.client.post(app.url("/adminapi/order/add")).bearer_auth(&token);
        app.send(request.header("Idempotency-Key", "submit-1").header("accept-language", "zh-CN").json(&body))
    };
    let ready = || async { app.client.get(app.url("/readyz")).send().await.unwrap().status().as_u16() };
    assert_eq!(ready().await, 200);

    fail_over(&app, true).await;
    // Every call lands on a new connection to a database that refuses writes (the cut ones
    // are found dead and replaced): the answer says retry, the first call's result comes then.
    for _ in 0..3 {
        let refused = add().await;
        assert_eq!((refused.status.as_u16(), refused.code()), (503, 50300), "{:?}", refused.body);
        assert!(refused.msg().contains("同一商户订单号或 Idempotency-Key 重试"), "{}", refused.msg());
        assert_eq!(refused.data()["retry_after_seconds"], 2);
    }
    let refused = app.client.post(app.url("/adminapi/order/add")).bearer_auth(&token).json(&body).send().await.unwrap();
    assert_eq!(refused.headers()["retry-after"], "2");
    assert_eq!(ready().await, 503, "a database that takes no writes is not ready");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 0);

    fail_over(&app, false).await;
    wait_until("the server is ready again", 30, || async { ready().await == 200 }).await;
    // A pooled connection cut by the failover is found dead when a call uses it: that call
    // answers 503 as above, and the keyed retry, as the answer asks, places the order.
    let mut placed = add().await;
    for _ in 0..app.state.db.pool.options().get_max_connections() {
        if placed.code() == 20000 {
            break;
        }
        assert_eq!((placed.status.as_u16(), placed.code()), (503, 50300), "{:?}", placed.body);
        placed = add().await;
    }
    assert_eq!(placed.code(), 20000, "{:?}", placed.body);
    let again = add().await;
    assert_eq!(again.data()["order"]["id"], placed.data()["order"]["id"], "the retry answers the first order");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await, 1);
    app.assert_books_balance(mid).await;
}
