//! Funding by administrators, the account-change log and its filters, quotes.

use crate::helpers::{ADMIN, Backend, spawn_app_with};
use crate::on_both_backends;
use serde_json::json;

on_both_backends!(
    administrators_fund_merchants_and_the_log_adds_up,
    quotes_list_filter_and_export,
    the_demo_log_read_by_time_runs_from_one_balance_to_the_next
);

async fn administrators_fund_merchants_and_the_log_adds_up(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    let admin = app.login(ADMIN).await;
    let call = |path: &'static str, body: serde_json::Value| {
        let admin = admin.clone();
        let app = &app;
        async move { app.post_as(&admin, path, body).await }
    };
    let topped =
        call("/adminapi/admin/merchant/topup", json!({"merchant_id": mid, "amount_fen": 1_000, "remark": "first"}))
            .await;
    assert_eq!(topped.data()["balance_fen"], 1_000);
    assert_eq!(topped.data()["total_topup_fen"], 1_000);
    assert_eq!(
        call("/adminapi/admin/merchant/credit", json!({"merchant_id": mid, "credit_limit_fen": 2_000})).await.code(),
        20000
    );
    // 1,000 from the balance and 970 on credit.
    let order = app.add_order(&token, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-20"})).await;
    assert_eq!(order.code(), 20000, "{:?}", order.body);
    assert_eq!(app.figures(mid).await, (0, 2_000, 970));
    let below = call("/adminapi/admin/merchant/credit", json!({"merchant_id": mid, "credit_limit_fen": 900})).await;
    assert_eq!(below.data()["keys"]["credit_limit_fen"], "credit.limit_below_used");
    let too_much = call("/adminapi/admin/merchant/repay", json!({"merchant_id": mid, "amount_fen": 971})).await;
    assert_eq!(too_much.data()["keys"]["amount_fen"], "credit.repayment_too_large");
    assert_eq!(
        call("/adminapi/admin/merchant/repay", json!({"merchant_id": mid, "amount_fen": 500})).await.data()["credit_used_fen"],
        470
    );
    let negative =
        call("/adminapi/admin/merchant/adjust", json!({"merchant_id": mid, "amount_fen": -1, "remark": "fix"})).await;
    assert_eq!(negative.data()["keys"]["amount_fen"], "balance.adjustment_below_zero");
    // An adjustment says what it corrects.
    for remark in [json!(null), json!(""), json!("  ")] {
        let unexplained =
            call("/adminapi/admin/merchant/adjust", json!({"merchant_id": mid, "amount_fen": 250, "remark": remark}))
                .await;
        assert_eq!(unexplained.data()["keys"]["remark"], "amount.adjustment_remark_required", "{remark}");
    }
    assert_eq!(
        call("/adminapi/admin/merchant/adjust", json!({"merchant_id": mid, "amount_fen": 250, "remark": "fix"}))
            .await
            .code(),
        20000
    );
    for amount in [0i64, -5, 10_000_000_001] {
        let answer = call("/adminapi/admin/merchant/topup", json!({"merchant_id": mid, "amount_fen": amount})).await;
        assert_eq!(answer.data()["keys"]["amount_fen"], "amount.invalid", "{amount}");
    }
    assert_eq!(
        call("/adminapi/admin/merchant/topup", json!({"merchant_id": 999_999, "amount_fen": 1})).await.code(),
        40400
    );
    assert_eq!(
        app.post_as(&token, "/adminapi/admin/merchant/topup", json!({"merchant_id": mid, "amount_fen": 1}))
            .await
            .code(),
        40300
    );
    app.assert_books_balance(mid).await;
    // The log, filtered by the list's filters.
    let list = |body: serde_json::Value| {
        let (app, token) = (&app, token.clone());
        async move { app.post_as(&token, "/adminapi/finance/account/list", body).await }
    };
    let all = list(json!({})).await;
    assert_eq!(all.data()["total"], 6, "{:?}", all.body);
    let types: Vec<&str> =
        all.data()["list"].as_array().unwrap().iter().map(|record| record["change_type"].as_str().unwrap()).collect();
    assert_eq!(types, ["adjustment", "repayment", "order_debit", "order_debit", "credit_granted", "topup"]);
    assert_eq!(list(json!({"account_type": "credit"})).await.data()["total"], 3);
    assert_eq!(list(json!({"change_type": "order_debit"})).await.data()["total"], 2);
    let order_no = order.data()["order"]["order_no"].as_str().unwrap();
    let by_order = list(json!({"order_no": order_no})).await;
    assert_eq!(by_order.data()["total"], 2);
    assert_eq!(by_order.data()["list"][0]["actor_name"], "buyer");
    assert_eq!(list(json!({"change_type": "bonus"})).await.code(), 40000);
    let first_page = list(json!({"page_size": 4})).await;
    let cursor = first_page.data()["next_cursor"].as_str().unwrap().to_string();
    assert_eq!(list(json!({"page_size": 4, "cursor": cursor})).await.data()["list"].as_array().unwrap().len(), 2);
    let csv = app
        .client
        .get(app.url("/adminapi/finance/account/export?account_type=balance"))
        .bearer_auth(&token)
        .header("accept-language", "zh-CN")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(csv.starts_with("\u{feff}\"编号\","), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 3);
    let overview = app.post_as(&token, "/adminapi/finance/overview", json!({})).await;
    assert_eq!(overview.data()["balance_fen"], 250);
    assert_eq!(overview.data()["credit_limit_fen"], 2_000);
    assert_eq!(overview.data()["credit_used_fen"], 470);
    assert_eq!(overview.data()["credit_available_fen"], 1_530);
    assert_eq!(overview.data()["total_topup_fen"], 1_000);
    assert_eq!(overview.data()["days"].as_array().unwrap().len(), 7);
    // The log refuses changes at the storage level too.
    let update = sqlx::query("UPDATE account_log SET amount_fen = 0").execute(&app.state.db.pool).await;
    assert!(update.is_err(), "the account log must be append-only");
}

async fn quotes_list_filter_and_export(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("buyer").await;
    let quotes = |body: serde_json::Value| {
        let (app, token) = (&app, token.clone());
        async move { app.post_as(&token, "/adminapi/quote/list", body).await }
    };
    let all = quotes(json!({"page_size": 100})).await;
    assert_eq!(all.data()["total"], 36);
    let first = &all.data()["list"][0];
    for field in ["business_name", "product_name", "product_key", "price_fen", "face_value_fen", "status", "created_at"]
    {
        assert!(!first[field].is_null(), "{field}");
    }
    assert_eq!(quotes(json!({"carrier": "unicom"})).await.data()["total"], 12);
    assert_eq!(
        quotes(json!({"carrier": "unicom", "product_kind": "card", "face_value_fen": 5000})).await.data()["total"],
        1
    );
    assert_eq!(quotes(json!({"product_key": "TELECOM-DIRECT-200"})).await.data()["list"][0]["price_fen"], 19_700);
    let admin = app.login(ADMIN).await;
    let save = json!({"merchant_id": mid, "product_key": "TELECOM-DIRECT-200", "price_fen": 19_500, "status": 0});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", save).await.data()["price_fen"], 19_500);
    assert_eq!(quotes(json!({"status": 0})).await.data()["total"], 1);
    assert_eq!(quotes(json!({"status": 7})).await.code(), 40000);
    let csv = app
        .client
        .get(app.url("/adminapi/quote/export?carrier=mobile"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.lines().count(), 13);
    assert!(csv.contains("Supply price (yuan)") && csv.contains("9.85"));
    let products = app.post_as(&token, "/adminapi/product/list", json!({})).await;
    assert_eq!(products.data().as_array().unwrap().len(), 36);
}

/// The demo's account log as a merchant reconciles it: in time order, each record starts
/// from the balance and credit the previous one left, and the last leaves the account's.
async fn the_demo_log_read_by_time_runs_from_one_balance_to_the_next(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.demo_orders = 300;
        config.worker.enabled = false;
    })
    .await;
    let rows: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT balance_before_fen, balance_after_fen, credit_before_fen, credit_after_fen FROM account_log
         WHERE merchant_id = $1 ORDER BY created_at, id",
    )
    .bind(backoffice::app::demo::DEMO_MERCHANT_ID)
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    assert!(rows.len() > 300, "funding plus at least one record per order: {}", rows.len());
    assert_eq!((rows[0].0, rows[0].2), (0, 0), "the first record starts from an empty account");
    for (index, pair) in rows.windows(2).enumerate() {
        let (previous, next) = (pair[0], pair[1]);
        assert_eq!(
            (next.0, next.2),
            (previous.1, previous.3),
            "record {} does not start where record {index} ended",
            index + 1
        );
    }
    let last = rows[rows.len() - 1];
    assert_eq!(app.figures(backoffice::app::demo::DEMO_MERCHANT_ID).await.0, last.1);
    app.assert_books_balance(backoffice::app::demo::DEMO_MERCHANT_ID).await;
}
