//! PostgreSQL: a fresh database's busy tables get planner statistics as soon as they have
//! rows, not when autovacuum first comes by (up to a minute later), so that plans prepared
//! while they were empty are made again (`src/platform/db/first_statistics.rs`).

use crate::batch::numbered;
use crate::channel_support::PRICE;
use crate::helpers::{Backend, TestApp, spawn_app_with, wait_until};
use backoffice::platform::db::dialect::used_merchant_order_ids;
use backoffice::platform::db::{DatabaseKind, first_statistics};
use serde_json::json;
use sqlx::{Connection, Row};

/// A new funded merchant named `merchant` places a batch of `lines` orders, every one placed.
async fn place_batch(app: &TestApp, merchant: &str, lines: i64) {
    let (mid, token) = app.merchant(merchant).await;
    app.fund(mid, lines * PRICE, 0).await;
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({ "text": numbered(lines, merchant) })).await;
    let batch_id = preview.data()["batch_id"].as_i64().expect("a batch");
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({ "batch_id": batch_id })).await;
    assert_eq!(submit.data()["placed_rows"], lines, "{:?}", submit.body);
}

#[tokio::test]
async fn a_fresh_databases_orders_get_statistics_once_they_have_rows() {
    let app = spawn_app_with(Backend::Postgres, |config| config.worker.enabled = false).await;
    // Only the server may analyse the table here: autovacuum could otherwise get there first.
    sqlx::query("ALTER TABLE orders SET (autovacuum_enabled = false)").execute(&app.state.db.pool).await.unwrap();
    place_batch(&app, "fresh", 1_200).await;

    let pool = &app.state.db.pool;
    // Every table the server watches is one of ours (a misspelt one would never be analysed).
    for table in first_statistics::TABLES {
        let found = sqlx::query("SELECT 1 FROM pg_stat_user_tables WHERE relname = $1").bind(table);
        assert!(found.fetch_optional(pool).await.unwrap().is_some(), "{table} is a table");
    }
    wait_until("orders analysed by the server", 30, || async {
        let analysed =
            sqlx::query("SELECT 1 FROM pg_stat_user_tables WHERE relname = 'orders' AND last_analyze IS NOT NULL");
        analysed.fetch_optional(pool).await.unwrap().is_some()
    })
    .await;

    // With statistics, the look-up of merchant order ids planned once for all values takes
    // the unique key (merchant, merchant order id), not an index of all the merchant's orders.
    let mut connection = sqlx::AnyConnection::connect(&app.config.database_url).await.unwrap();
    sqlx::query("SET plan_cache_mode = force_generic_plan").execute(&mut connection).await.unwrap();
    let prepare = format!("PREPARE lookup(bigint, text) AS {}", used_merchant_order_ids(DatabaseKind::Postgres));
    sqlx::query(sqlx::AssertSqlSafe(prepare)).execute(&mut connection).await.unwrap();
    let rows = sqlx::query("EXPLAIN EXECUTE lookup(1, '[\"fresh-1\"]')").fetch_all(&mut connection).await.unwrap();
    let plan: Vec<String> = rows.iter().map(|row| row.get::<String, _>(0)).collect();
    let plan = plan.join("\n");
    assert!(plan.contains("orders_merchant_id_merchant_order_id_key"), "the unique key serves the look-up:\n{plan}");
    connection.close().await.unwrap();
}

/// "Without statistics" is what the planner has, not what the activity view remembers: a
/// database copied from another, or whose counters were reset (crash recovery resets them),
/// keeps its statistics and must not be analysed again.
#[tokio::test]
async fn tables_with_statistics_count_as_such_after_the_counters_are_reset() {
    let app = spawn_app_with(Backend::Postgres, |config| config.worker.enabled = false).await;
    let db = &app.state.db;
    let mut fresh: Vec<String> =
        first_statistics::without_statistics(db).await.unwrap().into_iter().map(|(table, _)| table).collect();
    fresh.sort();
    let mut all: Vec<String> = first_statistics::TABLES.iter().map(|table| table.to_string()).collect();
    all.sort();
    assert_eq!(fresh, all, "a fresh database has no statistics");

    place_batch(&app, "reset", 20).await;
    for table in first_statistics::TABLES {
        sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {table}"))).execute(&db.pool).await.unwrap();
    }
    sqlx::query("SELECT pg_stat_reset()").execute(&db.pool).await.unwrap();
    let forgotten = sqlx::query("SELECT 1 FROM pg_stat_user_tables WHERE relname = 'orders' AND last_analyze IS NULL");
    assert!(forgotten.fetch_optional(&db.pool).await.unwrap().is_some(), "the view forgot the ANALYZE");
    assert_eq!(first_statistics::without_statistics(db).await.unwrap(), vec![], "the statistics are still there");
}
