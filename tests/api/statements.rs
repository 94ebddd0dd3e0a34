//! Statements: per merchant and Beijing day or month, opening and closing figures, orders by
//! status, movements by kind, reconciled against the account log. A merchant reads its own,
//! an administrator any merchant's or all; both download CSV and xlsx.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app};
use crate::on_both_backends;
use serde_json::{Value, json};

on_both_backends!(
    a_days_statement_sums_to_the_account_log,
    merchants_see_only_their_own_statements_and_download_them,
    a_statement_period_must_be_a_day_or_a_month
);

fn today() -> String {
    backoffice::domain::beijing_date(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()))
}

async fn statement(app: &TestApp, token: &str, body: Value) -> Vec<Value> {
    let answer = app.post_as(token, "/adminapi/finance/statement", body).await;
    assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    answer.data().as_array().unwrap().clone()
}

fn movement(statement: &Value, account: &str, change: &str) -> i64 {
    statement["movements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["account_type"] == account && item["change_type"] == change)
        .map(|item| item["amount_fen"].as_i64().unwrap())
        .sum()
}

/// Yesterday's history of a merchant: a top-up of `fen` recorded yesterday, with the account
/// holding it (as the ledger would have left them), so today's statement opens with it.
async fn topped_up_yesterday(app: &TestApp, mid: i64, fen: i64) {
    let yesterday = backoffice::platform::db::now_millis() - 86_400_000;
    let pool = &app.state.db.pool;
    sqlx::query(
        "INSERT INTO merchant_accounts (merchant_id, balance_fen, total_topup_fen, updated_at) VALUES ($1, $2, $2, $3)",
    )
    .bind(mid)
    .bind(fen)
    .bind(yesterday)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO account_log (merchant_id, account_type, change_type, amount_fen, balance_before_fen, balance_after_fen,
             credit_before_fen, credit_after_fen, actor_name, remark, created_at)
         VALUES ($1, 1, 3, $2, 0, $2, 0, 0, 'admin', 'yesterday', $3)",
    )
    .bind(mid)
    .bind(fen)
    .bind(yesterday)
    .execute(pool)
    .await
    .unwrap();
}

/// The sum of a merchant's log entries of one account since `since`.
async fn logged_since(app: &TestApp, mid: i64, since: i64, account_type: i64) -> i64 {
    let sql = format!(
        "SELECT CAST(COALESCE(SUM(amount_fen), 0) AS BIGINT) FROM account_log
         WHERE merchant_id = $1 AND account_type = {account_type} AND created_at >= {since}"
    );
    app.scalar(&sql, mid).await
}

async fn a_days_statement_sums_to_the_account_log(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, merchant) = app.merchant("shop").await;
    topped_up_yesterday(&app, mid, 500).await;
    app.fund(mid, 10_000, 50_000).await;
    let admin = app.login(ADMIN).await;
    for (path, body) in [
        ("/adminapi/admin/merchant/adjust", json!({"merchant_id": mid, "amount_fen": -300, "remark": "fee"})),
        ("/adminapi/admin/merchant/topup", json!({"merchant_id": mid, "amount_fen": 700})),
    ] {
        assert_eq!(app.post_as(&admin, path, body).await.code(), 20000);
    }
    // Orders: more than the balance, so the last ones run on credit.
    for _ in 0..4 {
        let order =
            app.add_order(&merchant, json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-50"})).await;
        assert_eq!(order.code(), 20000, "{:?}", order.body);
    }
    app.assert_books_balance(mid).await;

    let statements = statement(&app, &admin, json!({"merchant_id": mid, "date": today()})).await;
    assert_eq!(statements.len(), 1);
    let day = &statements[0];
    assert_eq!(day["merchant_id"], mid);
    let (opening, closing) =
        (day["opening_balance_fen"].as_i64().unwrap(), day["closing_balance_fen"].as_i64().unwrap());
    let (balance, limit, used) = app.figures(mid).await;
    assert_eq!((opening, closing), (500, balance), "opens with yesterday's balance, closes at today's");
    assert_eq!(day["opening_credit_available_fen"], 0);
    assert_eq!(day["closing_credit_available_fen"], limit - used);
    // Reconciled: closing − opening is the sum of the period's log entries, per account.
    let since =
        backoffice::domain::beijing_day_start(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()));
    assert_eq!(closing - opening, logged_since(&app, mid, since, 1).await);
    assert_eq!(day["balance_log_sum_fen"], logged_since(&app, mid, since, 1).await);
    assert_eq!(day["credit_log_sum_fen"], logged_since(&app, mid, since, 2).await);
    assert_eq!(day["reconciled"], true);
    // Movements by kind.
    assert_eq!(movement(day, "balance", "topup"), 10_700);
    assert_eq!(movement(day, "balance", "adjustment"), -300);
    assert_eq!(movement(day, "credit", "credit_granted"), 50_000);
    assert!(movement(day, "credit", "order_debit") < 0, "the last orders ran on credit");
    let debits = movement(day, "balance", "order_debit") + movement(day, "credit", "order_debit");
    assert_eq!(-debits, day["orders_placed"]["amount_fen"].as_i64().unwrap(), "every order placed was paid");
    assert_eq!(day["orders_placed"]["count"], 4);
    let by_status = ["orders_succeeded", "orders_failed", "orders_in_flight"]
        .iter()
        .map(|key| day[key]["count"].as_i64().unwrap())
        .sum::<i64>();
    assert_eq!(by_status, 4);
    // The month holds the day; yesterday holds nothing and carries no figures.
    let month =
        &statement(&app, &admin, json!({"merchant_id": mid, "period": "month", "date": &today()[..7]})).await[0];
    assert_eq!(month["closing_balance_fen"], day["closing_balance_fen"]);
    assert_eq!(month["orders_placed"], day["orders_placed"]);
    let yesterday =
        backoffice::domain::beijing_date(backoffice::domain::beijing_day(backoffice::platform::db::now_millis()) - 1);
    let before = &statement(&app, &admin, json!({"merchant_id": mid, "date": yesterday})).await[0];
    assert_eq!(before["opening_balance_fen"], 0);
    assert_eq!(before["closing_balance_fen"], 500);
    assert_eq!(before["orders_placed"]["count"], 0);
    assert_eq!(movement(before, "balance", "topup"), 500);
    assert_eq!(before["reconciled"], true);
    // All merchants at once: one statement each, by mid, every one reconciled.
    let all = statement(&app, &admin, json!({"date": today()})).await;
    assert!(all.len() >= 2, "the demo merchant and this one");
    assert!(all.windows(2).all(|pair| pair[0]["merchant_id"].as_i64() < pair[1]["merchant_id"].as_i64()));
    assert!(all.iter().all(|item| item["reconciled"] == true));
}

async fn merchants_see_only_their_own_statements_and_download_them(backend: Backend) {
    let app = spawn_app(backend).await;
    let (mid, merchant) = app.merchant("shop").await;
    app.fund(mid, 1_000, 0).await;
    let own = statement(&app, &merchant, json!({"date": today()})).await;
    assert_eq!(own.len(), 1);
    assert_eq!(own[0]["merchant_id"], mid);
    assert_eq!(own[0]["closing_balance_fen"], 1_000);
    let other =
        app.post_as(&merchant, "/adminapi/finance/statement", json!({"merchant_id": 10001, "date": today()})).await;
    assert_eq!(other.code(), 40300);
    let refused = app
        .client
        .get(app.url(&format!("/adminapi/finance/statement/export?merchant_id=10001&date={}", today())))
        .bearer_auth(&merchant)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);

    let csv = app
        .client
        .get(app.url(&format!("/adminapi/finance/statement/export?date={}", today())))
        .bearer_auth(&merchant)
        .header("accept-language", "zh-CN")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("\u{feff}\"商户编号\",\"商户名称\",\"账期\",\"期初余额(元)\""), "{csv}");
    assert_eq!(lines.len(), 2, "its own row only: {csv}");
    assert!(lines[1].starts_with(&format!("{mid},\"shop\",\"{}\",0.00,", today())), "{csv}");
    // Reconciled, and no success to place by province.
    assert!(lines[1].ends_with(",\"是\",\"\""), "{csv}");
    let admin = app.login(ADMIN).await;
    let xlsx = app
        .client
        .get(app.url(&format!("/adminapi/finance/statement/export?period=month&date={}&format=xlsx", &today()[..7])))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(xlsx.status(), 200);
    let bytes = xlsx.bytes().await.unwrap().to_vec();
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    assert!(sheet.height() >= 3, "a title row and every merchant");
}

async fn a_statement_period_must_be_a_day_or_a_month(backend: Backend) {
    let app = spawn_app(backend).await;
    let admin = app.login(ADMIN).await;
    // Not of the documented form (the patterns of `period` and `date`): 400. Of the form,
    // but not a day or month of the period, or no such day: 422. Both 40000 naming the field.
    for (body, status, field) in [
        (json!({"date": "2026-02-30"}), 422, "date"),
        (json!({"date": "2026-11"}), 422, "date"),
        (json!({"period": "month", "date": "2026-11-24"}), 422, "date"),
        (json!({"period": "week", "date": "2026-11-24"}), 400, "period"),
        (json!({"date": ""}), 400, "date"),
        (json!({"date": "24/11/2026"}), 400, "date"),
    ] {
        let answer = app.post_as(&admin, "/adminapi/finance/statement", body.clone()).await;
        assert_eq!((answer.status.as_u16(), answer.code()), (status, 40000), "{body}");
        assert!(answer.data()["keys"][field].is_string(), "{body}: {:?}", answer.body);
        // The download reads the same query and answers alike, always with the envelope.
        let query: Vec<String> =
            body.as_object().unwrap().iter().map(|(key, value)| format!("{key}={}", value.as_str().unwrap())).collect();
        let export = app.get_as(&admin, &format!("/adminapi/finance/statement/export?{}", query.join("&"))).await;
        assert_eq!((export.status.as_u16(), export.code()), (status, 40000), "{body}");
    }
    let path = format!("/adminapi/finance/statement/export?date={}&sort=asc&sort=desc", today());
    let repeated = app.get_as(&admin, &path).await;
    assert_eq!((repeated.status.as_u16(), repeated.code()), (400, 40000), "a repeated parameter: the envelope");
    assert_eq!(
        app.post_as(&admin, "/adminapi/finance/statement", json!({"merchant_id": 99_999, "date": today()}))
            .await
            .code(),
        40400
    );
}
