//! The profit and sales reports (issue 52 §3) read the report roll-up (migration 0043),
//! which every order change writes in its own transaction: after generated history,
//! orders placed one by one and in a batch, successes at two channels (an order routed on
//! to another channel ends at that one), failures, a success marked by a person and
//! reversals, the roll-up equals grouping the orders, and the reports' figures equal
//! summing them. A merchant reads its own sales, without costs or channels; ranges are
//! checked.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use backoffice::domain::{beijing_date, beijing_day};
use backoffice::money::finance::ledger::Actor;
use backoffice::orders::generate::{GenerateOptions, generate};
use backoffice::orders::lifecycle::reverse::{ReversedBy, reverse};
use backoffice::orders::lifecycle::{self, Outcome, Reporter};
use backoffice::platform::db::now_millis;
use serde_json::{Value, json};

on_both_backends!(
    the_roll_up_and_the_reports_add_up_the_orders,
    report_ranges_and_scopes_are_checked,
    a_truncated_report_still_totals_every_row
);

const PROFIT: &str = "/adminapi/admin/report/profit";
const SALES: &str = "/adminapi/report/sales";

/// The roll-up's rows equal grouping the orders, both ways (no row missing, none extra).
async fn assert_roll_up_groups_the_orders(app: &TestApp) {
    let rolled = "SELECT day, merchant_id, channel_id, carrier, province, product_id, orders, successes, failures, \
                  reversals, face_value_fen, sales_fen, cost_fen FROM report_rollups WHERE orders <> 0";
    let success = |value: &str| format!("CAST(SUM(CASE WHEN status = 2 THEN {value} ELSE 0 END) AS BIGINT)");
    let day = "CAST((created_at + 28800000) / 86400000 AS BIGINT)";
    let grouped = format!(
        "SELECT {day}, merchant_id, COALESCE(channel_id, 0), carrier, COALESCE(province, ''), product_id, \
         CAST(COUNT(*) AS BIGINT), {}, CAST(SUM(CASE WHEN status = 3 THEN 1 ELSE 0 END) AS BIGINT), \
         CAST(SUM(CASE WHEN status = 5 THEN 1 ELSE 0 END) AS BIGINT), {}, {}, {} FROM orders \
         GROUP BY {day}, merchant_id, COALESCE(channel_id, 0), carrier, COALESCE(province, ''), product_id",
        success("1"),
        success("face_value_fen"),
        success("price_fen"),
        success("COALESCE(cost_fen, 0)"),
    );
    let differ = format!(
        "SELECT (SELECT COUNT(*) FROM ({rolled} EXCEPT {grouped}) a) + (SELECT COUNT(*) FROM ({grouped} EXCEPT {rolled}) b) + 0 * $1"
    );
    assert_eq!(app.scalar(&differ, 0).await, 0, "the report roll-up groups the orders");
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM report_rollups WHERE orders = 0 AND successes <> 0 + 0 * $1", 0).await,
        0
    );
    // Each cube (migration 0045) is the roll-up summed over what the cube does not keep.
    let sums = "CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT), \
                CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT), \
                CAST(SUM(cost_fen) AS BIGINT)";
    for (cube, merchant, channel, carrier, province, product) in [
        (1, "-1", "channel_id", "carrier", "'*'", "product_id"),
        (2, "-1", "channel_id", "carrier", "province", "-1"),
        (3, "-1", "-1", "carrier", "province", "product_id"),
        (4, "merchant_id", "channel_id", "carrier", "'*'", "-1"),
        (5, "merchant_id", "-1", "carrier", "'*'", "product_id"),
        (6, "merchant_id", "-1", "-1", "province", "-1"),
    ] {
        let keys = format!(
            "day, CAST({merchant} AS BIGINT), CAST({channel} AS BIGINT), CAST({carrier} AS BIGINT), \
             CAST({province} AS TEXT), CAST({product} AS BIGINT)"
        );
        let from_rollup = format!("SELECT {keys}, {sums} FROM report_rollups GROUP BY {keys} HAVING SUM(orders) <> 0");
        let cubed = format!(
            "SELECT day, merchant_id, channel_id, carrier, province, product_id, orders, successes, failures, \
             reversals, face_value_fen, sales_fen, cost_fen FROM report_cubes WHERE cube = {cube} AND orders <> 0"
        );
        let differ = format!(
            "SELECT (SELECT COUNT(*) FROM ({cubed} EXCEPT {from_rollup}) a) + (SELECT COUNT(*) FROM ({from_rollup} EXCEPT {cubed}) b) + 0 * $1"
        );
        assert_eq!(app.scalar(&differ, 0).await, 0, "cube {cube} sums the roll-up");
        let rows = format!("SELECT COUNT(*) + 0 * $1 FROM report_cubes WHERE cube = {cube} AND orders <> 0");
        assert!(app.scalar(&rows, 0).await > 0, "cube {cube} has rows");
    }
}

fn ids(answers: &[crate::helpers::Answer]) -> Vec<i64> {
    answers.iter().map(|answer| answer.data()["order"]["id"].as_i64().expect("placed")).collect()
}

async fn the_roll_up_and_the_reports_add_up_the_orders(backend: Backend) {
    // The test drives every order itself: the worker would race it.
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("seller").await;
    let (other, other_token) = app.merchant("rival").await;
    app.fund(mid, 10_000_000, 0).await;
    app.fund(other, 10_000_000, 0).await;
    let options = GenerateOptions { merchant_id: mid, count: 300, days: 3, in_flight_share: 0.1, events: false };
    generate(&app.state.db, &app.state.secrets, &options).await.unwrap();
    let sandbox = app.scalar("SELECT id FROM channels WHERE code = 'sandbox' AND $1 = $1", 0).await;
    sqlx::query("INSERT INTO channels (code, name, adapter, created_at, updated_at) VALUES ('second', '第二渠道', 'sandbox', 0, 0)")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let second = app.scalar("SELECT id FROM channels WHERE code = 'second' AND $1 = $1", 0).await;

    let products =
        [("13800138000", "MOBILE-DIRECT-10"), ("18600000000", "UNICOM-DIRECT-50"), ("13900139000", "MOBILE-DIRECT-30")];
    let mut placed = Vec::new();
    for index in 0..12 {
        let (account, product) = products[index % products.len()];
        placed.push(app.add_order(&token, json!({"account": account, "product_key": product})).await);
    }
    let mut theirs = Vec::new();
    for _ in 0..4 {
        theirs.push(
            app.add_order(&other_token, json!({"account": "18600000000", "product_key": "UNICOM-DIRECT-50"})).await,
        );
    }
    let (mine, theirs) = (ids(&placed), ids(&theirs));
    let lines = (0..3).map(|index| format!("1380013{index:04},MOBILE-DIRECT-20,R-{index}")).collect::<Vec<_>>();
    let text = format!("account,product_key,merchant_order_id\n{}", lines.join("\n"));
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "r.csv"})).await;
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.data()["placed_rows"], 3, "{:?}", submit.body);

    let state = &app.state;
    let success = || Outcome::Success { serial_no: Some("SN1".into()), card: None };
    let failure = || Outcome::Failure { reason: "carrier refused".into() };
    for id in mine.iter().chain(&theirs) {
        lifecycle::mark_processing(state, *id).await.unwrap();
    }
    // Fulfilled by the sandbox; by the second channel (routed on there after the first
    // failed, as the worker does); failed; marked successful by a person (no channel).
    for id in &mine[0..4] {
        assert!(lifecycle::finish_by_channel(state, *id, success(), (sandbox, 980)).await.unwrap());
    }
    for id in mine[4..6].iter().chain(&theirs[0..2]) {
        assert!(lifecycle::finish_by_channel(state, *id, success(), (second, 4_850)).await.unwrap());
    }
    for id in &mine[6..8] {
        assert!(lifecycle::finish_by_channel(state, *id, failure(), (sandbox, 980)).await.unwrap());
    }
    assert!(lifecycle::mark_manual_review(state, mine[8]).await.unwrap());
    assert!(lifecycle::finish(state, mine[8], success(), Reporter::Admin, Actor::system()).await.unwrap());
    // A late success for a failed order changes nothing, in the roll-up either.
    assert!(!lifecycle::finish_by_channel(state, mine[6], success(), (sandbox, 980)).await.unwrap());
    for id in [mine[0], mine[4], theirs[0]] {
        assert!(reverse(state, id, "carrier reversed", ReversedBy::Supplier).await.unwrap());
    }
    assert_roll_up_groups_the_orders(&app).await;

    // The administrators' report adds up to summing the orders, in any breakdown and grain.
    let admin = app.login(ADMIN).await;
    let today = beijing_day(now_millis());
    let range = json!({"start": beijing_date(today - 4), "end": beijing_date(today)});
    let sum = |sql: &'static str| app.scalar(sql, 0);
    let expected = json!({
        "orders": sum("SELECT COUNT(*) + 0 * $1 FROM orders").await,
        "successes": sum("SELECT COUNT(*) + 0 * $1 FROM orders WHERE status = 2").await,
        "failures": sum("SELECT COUNT(*) + 0 * $1 FROM orders WHERE status = 3").await,
        "reversals": sum("SELECT COUNT(*) + 0 * $1 FROM orders WHERE status = 5").await,
        "sales_fen": sum("SELECT CAST(COALESCE(SUM(price_fen), 0) AS BIGINT) + 0 * $1 FROM orders WHERE status = 2").await,
        "cost_fen": sum("SELECT CAST(COALESCE(SUM(cost_fen), 0) AS BIGINT) + 0 * $1 FROM orders WHERE status = 2").await,
    });
    assert!(expected["cost_fen"].as_i64().unwrap() > 0, "generated and driven successes have costs");
    // Every source: cubes 1 to 6, then the full roll-up twice.
    let breakdowns = [
        ("day", "channel,product"),
        ("day", "province"),
        ("month", "carrier,province,product"),
        ("month", "merchant"),
        ("day", "merchant,product"),
        ("month", "merchant,province"),
        ("month", "merchant,carrier,province"),
        ("day", "merchant,channel,carrier,province,product"),
    ];
    for (grain, group_by) in breakdowns {
        let mut body = range.clone();
        body["grain"] = json!(grain);
        body["group_by"] = json!(group_by);
        let report = app.post_as(&admin, PROFIT, body).await;
        assert_eq!(report.code(), 20000, "{:?}", report.body);
        let totals = &report.data()["totals"];
        for field in ["orders", "successes", "failures", "reversals", "sales_fen", "cost_fen"] {
            assert_eq!(totals[field], expected[field], "{field} by {grain} {group_by}");
            let rows: i64 =
                report.data()["rows"].as_array().unwrap().iter().map(|row| row[field].as_i64().unwrap()).sum();
            assert_eq!(Some(rows), expected[field].as_i64(), "rows' {field} by {grain} {group_by}");
        }
        assert_eq!(
            totals["profit_fen"].as_i64(),
            Some(expected["sales_fen"].as_i64().unwrap() - expected["cost_fen"].as_i64().unwrap())
        );
    }
    // The second channel's row: its successes (one reversed) and their cost.
    let mut body = range.clone();
    body["channel_id"] = json!(second);
    body["merchant_id"] = json!(mid);
    let report = app.post_as(&admin, PROFIT, body).await;
    let totals = &report.data()["totals"];
    assert_eq!(
        (totals["orders"].as_i64(), totals["successes"].as_i64(), totals["reversals"].as_i64()),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(totals["cost_fen"], 4_850);
    assert_eq!(totals["success_ratio"], 0.5, "a reversed success is not a success");

    // A merchant's sales report: its own orders, no cost, no channel.
    let mut body = range.clone();
    body["group_by"] = json!("product");
    let sales = app.post_as(&token, SALES, body.clone()).await;
    assert_eq!(sales.code(), 20000, "{:?}", sales.body);
    let totals = &sales.data()["totals"];
    let own = |sql: &'static str| app.scalar(sql, mid);
    assert_eq!(totals["orders"].as_i64(), Some(own("SELECT COUNT(*) FROM orders WHERE merchant_id = $1").await));
    assert_eq!(
        totals["spend_fen"].as_i64(),
        Some(
            own("SELECT CAST(COALESCE(SUM(price_fen), 0) AS BIGINT) FROM orders WHERE merchant_id = $1 AND status = 2")
                .await
        )
    );
    let text = sales.body.to_string();
    assert!(!text.contains("cost") && !text.contains("channel") && !text.contains("profit"), "{text}");
    let rows = sales.data()["rows"].as_array().unwrap();
    assert!(rows.iter().all(|row| row["product_key"].is_string()), "by product");
    // An administrator reads the same merchant's figures by naming it.
    body["merchant_id"] = json!(mid);
    assert_eq!(app.post_as(&admin, SALES, body).await.data()["totals"], *totals);

    // The files: the breakdown's columns only, money in yuan.
    let export = app
        .client
        .get(app.url(&format!(
            "{PROFIT}/export?start={}&end={}&group_by=channel",
            beijing_date(today - 4),
            beijing_date(today)
        )))
        .bearer_auth(&admin)
        .header("accept-language", "zh-CN")
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), 200);
    assert!(export.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let csv = export.text().await.unwrap();
    let header = csv.lines().next().unwrap().trim_start_matches('\u{feff}');
    assert!(header.starts_with("\"日期\",\"渠道\",\"订单数\""), "{header}");
    assert!(csv.contains("\"第二渠道\""), "{csv}");
    let xlsx = app
        .client
        .get(app.url(&format!(
            "{SALES}/export?start={}&end={}&format=xlsx",
            beijing_date(today - 4),
            beijing_date(today)
        )))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(xlsx.status(), 200);
    assert!(xlsx.headers()["content-type"].to_str().unwrap().contains("spreadsheetml"));
    app.assert_books_balance(mid).await;
}

async fn report_ranges_and_scopes_are_checked(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (_mid, token) = app.merchant("ranged").await;
    let (other, _) = app.merchant("elsewhere").await;
    let admin = app.login(ADMIN).await;
    let refused = |body: Value, key: &'static str, field: &'static str, status: u16| {
        let (app, admin) = (&app, &admin);
        async move {
            let answer = app.post_as(admin, PROFIT, body.clone()).await;
            assert_eq!(answer.status.as_u16(), status, "{body}: {:?}", answer.body);
            assert_eq!(answer.data()["keys"][field], key, "{body}: {:?}", answer.body);
        }
    };
    refused(json!({"start": "2026-01-01", "end": "2027-01-02"}), "report.range_invalid", "end", 422).await;
    refused(json!({"start": "2026-03-02", "end": "2026-03-01"}), "report.range_invalid", "end", 422).await;
    refused(json!({"start": "2026-02-30", "end": "2026-03-01"}), "request.time_invalid", "start", 422).await;
    refused(
        json!({"start": "2026-01-01", "end": "2026-01-31", "group_by": "status"}),
        "request.invalid_choice",
        "group_by",
        400,
    )
    .await;
    // A leap year's 366 days are one report.
    let year = app.post_as(&admin, PROFIT, json!({"start": "2028-01-01", "end": "2028-12-31", "grain": "month"})).await;
    assert_eq!(year.code(), 20000, "{:?}", year.body);
    assert_eq!(year.data()["rows"], json!([]));
    // The message says what is allowed, in the caller's language.
    let english = app
        .send(
            app.client
                .post(app.url(PROFIT))
                .bearer_auth(&admin)
                .header("accept-language", "en-US")
                .json(&json!({"start": "2026-01-01", "end": "2027-01-02"})),
        )
        .await;
    assert!(english.data()["fields"]["end"].as_str().unwrap().contains("366 days"), "{:?}", english.body);

    // Merchants: their own report only, never the administrators'.
    let range = json!({"start": "2026-01-01", "end": "2026-01-31"});
    assert_eq!(app.post_as(&token, PROFIT, range.clone()).await.status.as_u16(), 403);
    let mut theirs = range.clone();
    theirs["merchant_id"] = json!(other);
    assert_eq!(app.post_as(&token, SALES, theirs).await.status.as_u16(), 403);
    let mut by_channel = range.clone();
    by_channel["group_by"] = json!("channel");
    assert_eq!(app.post_as(&token, SALES, by_channel).await.status.as_u16(), 400);
    let own = app.post_as(&token, SALES, range).await;
    assert_eq!(own.code(), 20000, "{:?}", own.body);
    assert_eq!(own.data()["totals"]["orders"], 0);
}

/// Past 10,000 rows a report stops reading its rows; its totals are still of every row.
async fn a_truncated_report_still_totals_every_row(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let today = beijing_day(now_millis());
    // 10,005 products' rows of one day, in the full roll-up and (as the server writes them)
    // in the channel cube: no order placed would make as many in a test. The breakdown
    // reads the full roll-up; the totals, past the limit, the cube.
    for (table, cube, merchant, province) in
        [("report_rollups (", "", "7", "'广东'"), ("report_cubes (cube, ", "1, ", "-1", "'*'")]
    {
        let sql = format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10005)
             INSERT INTO {table}day, merchant_id, channel_id, carrier, province, product_id, orders, successes,
             failures, reversals, face_value_fen, sales_fen, cost_fen)
             SELECT {cube}CAST($1 AS BIGINT), {merchant}, 1, 1, {province}, i, 2, 1, 1, 0, 1000, 990, 980 FROM n"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(today).execute(&app.state.db.pool).await.unwrap();
    }
    let admin = app.login(ADMIN).await;
    let body =
        json!({"start": beijing_date(today), "end": beijing_date(today), "group_by": "merchant,province,product"});
    let report = app.post_as(&admin, PROFIT, body).await;
    assert_eq!(report.code(), 20000, "{:?}", report.body);
    assert_eq!(report.data()["truncated"], true);
    assert_eq!(report.data()["rows"].as_array().unwrap().len(), 10_000);
    let totals = &report.data()["totals"];
    assert_eq!((totals["orders"].as_i64(), totals["sales_fen"].as_i64()), (Some(20_010), Some(9_904_950)));
    // The rows in key order: the first products, by id.
    assert_eq!(report.data()["rows"][0]["product_id"], 1);
    assert_eq!(report.data()["rows"][9_999]["product_id"], 10_000);
}
