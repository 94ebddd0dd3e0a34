//! The orders' CSV export across many pages (SQLite builds two pages at once, each cut by
//! the row a page further on): every order once, in the order asked for, in both sorts.

use crate::files::download;
use crate::helpers::{Backend, spawn_app_with};
use crate::on_both_backends;
use backoffice::orders::generate::{GenerateOptions, generate};

on_both_backends!(a_many_page_export_holds_every_order_once_in_order);

async fn a_many_page_export_holds_every_order_once_in_order(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("pages").await;
    // Four full pages of 2,000 rows and a part of one; many orders share a millisecond.
    let count = 8_500;
    let options = GenerateOptions { merchant_id: mid, count, days: 2, in_flight_share: 0.0, events: false };
    generate(&app.state.db, &app.state.secrets, &options).await.unwrap();
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT order_no FROM orders WHERE merchant_id = $1 ORDER BY created_at, id")
            .bind(mid)
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(stored.len(), count);
    for (sort, expected) in [("asc", stored.clone()), ("desc", stored.iter().rev().cloned().collect())] {
        let text = download(&app, &token, &format!("/adminapi/order/export?kind=all&sort={sort}")).await;
        let text = String::from_utf8(text).unwrap();
        // The second column: the order number, quoted, exactly as stored.
        let exported: Vec<String> =
            text.lines().skip(1).map(|line| line.split(',').nth(1).unwrap().trim_matches('"').to_string()).collect();
        assert_eq!(exported.len(), count, "{sort}");
        assert!(exported == expected, "{sort}: the export's rows are not the orders in order");
    }
}

on_both_backends!(the_database_writes_money_durations_and_times_as_the_cells_do);

/// The CSV export's lines are built by the database (`orders/export.rs`), the xlsx file's
/// cells by `Cell`: amounts, durations (halves rounded up) and Beijing times must read the
/// same in both, on both engines.
async fn the_database_writes_money_durations_and_times_as_the_cells_do(backend: Backend) {
    use backoffice::domain::{beijing_time, seconds, yuan};
    use backoffice::platform::db::dialect;
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let engine = app.state.db.kind;
    let sql = format!(
        "SELECT {}, {}, {} FROM (SELECT CAST($1 AS BIGINT) AS fen, CAST($2 AS BIGINT) AS duration_ms, CAST($3 AS BIGINT) AS at) AS v",
        dialect::fen_as_yuan(engine, "fen"),
        dialect::duration_seconds(),
        dialect::quoted_local_time(engine, "at"),
    );
    let fens = [0, 5, 99, 100, 1_001, 123_456_789_012, -5, -985];
    let durations = [0, 49, 50, 250, 750, 1_249, 1_250, 1_349, 12_345, 86_400_000];
    let times = [0, 999, 1_764_547_199_999, 1_764_547_200_000, 1_798_761_599_123];
    for index in 0..durations.len() {
        let (fen, duration, at) = (fens[index % fens.len()], durations[index], times[index % times.len()]);
        let row: (String, String, String) = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(fen)
            .bind(duration)
            .bind(at)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
        assert_eq!(row, (yuan(fen), seconds(duration), format!("\"{}\"", beijing_time(at))), "{fen} {duration} {at}");
    }
    // No duration and no time: empty fields.
    let row: (String, String) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {}, {} FROM (SELECT CAST(NULL AS BIGINT) AS duration_ms, CAST(NULL AS BIGINT) AS at) AS v",
        dialect::duration_seconds(),
        dialect::quoted_local_time(engine, "at"),
    )))
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(row, (String::new(), "\"\"".to_string()));
}
