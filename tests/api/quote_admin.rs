//! Administrators tell merchants' quotes apart and edit one from the list: each row names
//! its merchant, the list filters by one merchant (a whole mid from 1, checked on the
//! server), and a quote's price and on/off are changed by an administrator only, in the
//! price history and the audit trail.

use crate::helpers::{ADMIN, Backend, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    quotes_are_listed_with_their_merchant_and_filtered_by_one,
    a_quote_is_edited_by_an_administrator_only
);

async fn quotes_are_listed_with_their_merchant_and_filtered_by_one(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (first, first_token) = app.merchant("quotesone").await;
    let (second, _) = app.merchant("quotestwo").await;
    let name: String = sqlx::query_scalar("SELECT name FROM merchants WHERE id = $1")
        .bind(second)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();

    // The same product for two merchants: two rows, each naming its merchant.
    let both = app.post_as(&admin, "/adminapi/quote/list", json!({"product_key": "TELECOM-DIRECT-10"})).await;
    assert_eq!(both.code(), 20000, "{:?}", both.body);
    let rows = both.data()["list"].as_array().unwrap();
    let row_of = |mid: i64| rows.iter().find(|row| row["merchant_id"] == mid).cloned();
    assert!(row_of(first).is_some(), "{rows:?}");
    assert_eq!(row_of(second).unwrap()["merchant_name"], name.as_str());

    // One merchant: only its rows, all of them.
    let products: i64 = app.scalar("SELECT COUNT(*) FROM quotes WHERE merchant_id = $1", second).await;
    let one = app.post_as(&admin, "/adminapi/quote/list", json!({"merchant_id": second, "page_size": 500})).await;
    assert_eq!(one.data()["total"], products);
    assert!(one.data()["list"].as_array().unwrap().iter().all(|row| row["merchant_id"] == second));

    // Not a mid: refused naming the field, never an empty list that reads as "no quotes".
    for bad in [json!(0), json!(-3)] {
        let refused = app.post_as(&admin, "/adminapi/quote/list", json!({"merchant_id": bad})).await;
        assert_eq!((refused.status.as_u16(), refused.code()), (400, 40000), "{bad}: {:?}", refused.body);
        assert!(refused.data()["fields"]["merchant_id"].is_string(), "{:?}", refused.body);
    }
    for bad in [json!("10002x"), json!(10002.5)] {
        let refused = app.post_as(&admin, "/adminapi/quote/list", json!({"merchant_id": bad})).await;
        assert_eq!(refused.code(), 40000, "{bad}: {:?}", refused.body);
    }
    let export = app.get_as(&admin, "/adminapi/quote/export?merchant_id=0").await;
    assert_eq!(export.code(), 40000, "the export's filter is the list's");
    // A merchant filtering by another merchant is refused.
    let other = app.post_as(&first_token, "/adminapi/quote/list", json!({"merchant_id": second})).await;
    assert_eq!(other.code(), 40300);
}

async fn a_quote_is_edited_by_an_administrator_only(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let admin = app.login(ADMIN).await;
    let (mid, token) = app.merchant("quoteedit").await;
    let edit = json!({"merchant_id": mid, "product_key": "TELECOM-DIRECT-10", "price_fen": 991, "status": 0});

    // A merchant may not change its own price.
    let refused = app.post_as(&token, "/adminapi/admin/quote/save", edit.clone()).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (403, 40300), "{:?}", refused.body);
    let price = "SELECT q.price_fen FROM quotes q JOIN products p ON p.id = q.product_id
                 WHERE q.merchant_id = $1 AND p.product_key = 'TELECOM-DIRECT-10'";
    assert_eq!(app.scalar(price, mid).await, 985);

    // Money in whole fen: a fraction of a fen or nothing at all is refused.
    for bad in [json!(990.5), json!(0)] {
        let mut body = edit.clone();
        body["price_fen"] = bad.clone();
        let refused = app.post_as(&admin, "/adminapi/admin/quote/save", body).await;
        assert_eq!(refused.code(), 40000, "{bad}: {:?}", refused.body);
    }
    assert_eq!(app.scalar(price, mid).await, 985);

    let saved = app.post_as(&admin, "/adminapi/admin/quote/save", edit).await;
    assert_eq!(saved.code(), 20000, "{:?}", saved.body);
    assert_eq!((saved.data()["price_fen"].as_i64(), saved.data()["status"].as_i64()), (Some(991), Some(0)));
    assert!(saved.data()["merchant_name"].is_string(), "{:?}", saved.body);
    let listed = app
        .post_as(&admin, "/adminapi/quote/list", json!({"merchant_id": mid, "product_key": "TELECOM-DIRECT-10"}))
        .await;
    assert_eq!(listed.data()["list"][0]["price_fen"], 991);
    let audited = app
        .scalar(
            "SELECT COUNT(*) FROM audit_events WHERE action = 'quote_saved' AND target = 'merchant:' || $1
             AND params LIKE '%\"product_key\":\"TELECOM-DIRECT-10\",\"before\":[985,1],\"price_fen\":991,\"status\":0%'",
            mid,
        )
        .await;
    assert_eq!(audited, 1);
    let history = app.post_as(&admin, "/adminapi/admin/quote/history", json!({"merchant_id": mid})).await;
    assert_eq!(history.data()["list"][0]["new_price_fen"], 991);
    assert_eq!(history.data()["list"][0]["source"], "edit");
}
