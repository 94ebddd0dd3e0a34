//! The plans of statements that run on their own all day, on SQLite (which keeps no
//! planner statistics unless told): each must read only the rows it needs, whatever the
//! table holds. A plan that falls back to a scan here costs an idle server a share of a
//! core per million orders.

use crate::helpers::{Backend, TestApp, spawn_app_with};
use backoffice::orders::generate::{GenerateOptions, generate};
use backoffice::platform::sql::{Bind, bind_all};
use sqlx::Row;

/// A SQLite server with 2,000 generated orders over two days.
async fn planned_app() -> TestApp {
    let app = spawn_app_with(Backend::Sqlite, |config| config.worker.enabled = false).await;
    let (mid, _) = app.merchant("planned").await;
    let options = GenerateOptions { merchant_id: mid, count: 2_000, days: 2, in_flight_share: 0.01, events: false };
    generate(&app.state.db, &app.state.secrets, &options).await.unwrap();
    app
}

/// SQLite's plan of `statement` with `binds`, one step a line.
async fn plan(app: &TestApp, statement: &str, binds: Vec<Bind>) -> String {
    let explain = format!("EXPLAIN QUERY PLAN {statement}");
    let rows = bind_all(sqlx::query(sqlx::AssertSqlSafe(explain)), binds).fetch_all(&app.state.db.pool).await.unwrap();
    // Each row: id, parent, (unused), detail.
    rows.iter().map(|row| row.get::<String, _>(3)).collect::<Vec<_>>().join("\n")
}

#[tokio::test]
async fn the_worker_claims_through_the_in_flight_index() {
    let app = planned_app().await;
    let statement = backoffice::supply::worker::claim_statement(app.state.db.kind);
    let binds = vec![Bind::Text("owner".into()), Bind::Int(0), Bind::Int(0), Bind::Int(50)];
    let plan = plan(&app, &statement, binds).await;
    assert!(plan.contains("USING INDEX orders_in_flight"), "the due orders come from the in-flight index:\n{plan}");
    assert!(plan.contains("USING INTEGER PRIMARY KEY"), "the claimed rows are found by id:\n{plan}");
    assert!(!plan.contains("SCAN"), "nothing is scanned:\n{plan}");
}

/// The order drawer's account records come through the order-number index, not a scan of
/// the whole log (account records have no index on the order id).
#[tokio::test]
async fn an_orders_account_records_come_through_the_order_number_index() {
    let app = planned_app().await;
    sqlx::query("ANALYZE").execute(&app.state.db.pool).await.unwrap();
    let conditions = backoffice::money::finance::log::of_order(1);
    let statement = format!("SELECT * FROM account_log{}", conditions.where_clause());
    let plan = plan(&app, &statement, conditions.binds).await;
    assert!(plan.contains("USING INDEX account_log_order"), "the records come from the order-number index:\n{plan}");
    assert!(!plan.contains("SCAN account_log"), "the log is not scanned:\n{plan}");
}

/// Whether a product is in use (before deleting it or changing what it is, inside the write
/// transaction every placement waits behind) is one probe of the quotes' and the orders'
/// product indexes, as are the foreign keys' own checks when the product is deleted: at
/// 1,000,000 orders the scan this replaces held the writer for 0.3 to 1.3 s.
#[tokio::test]
async fn whether_a_product_is_in_use_is_read_from_the_orders_product_index() {
    let app = planned_app().await;
    sqlx::query("ANALYZE").execute(&app.state.db.pool).await.unwrap();
    let plan = plan(&app, backoffice::orders::quotes::catalogue::IN_USE, vec![Bind::Int(1)]).await;
    assert!(plan.contains("INDEX orders_product"), "the orders come from their product index:\n{plan}");
    assert!(plan.contains("INDEX quotes_product"), "so do the quotes:\n{plan}");
    assert!(!plan.contains("SCAN orders") && !plan.contains("SCAN quotes"), "neither is scanned:\n{plan}");
}
