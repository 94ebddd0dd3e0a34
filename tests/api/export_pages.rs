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
        // The second column: the order number, quoted, with a trailing tab for Excel.
        let exported: Vec<String> = text
            .lines()
            .skip(1)
            .map(|line| line.split(',').nth(1).unwrap().trim_matches('"').trim_end_matches('\t').to_string())
            .collect();
        assert_eq!(exported.len(), count, "{sort}");
        assert!(exported == expected, "{sort}: the export's rows are not the orders in order");
    }
}
