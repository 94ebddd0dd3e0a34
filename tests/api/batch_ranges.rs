//! A batch's valid lines stored a range at a time (migration 0025): the result file lists
//! every line once, in order, across ranges, invalid lines and lines refused at submit; and
//! batches stored a row per line before the migration are carried over and finish as before.

use crate::channel_support::PRICE;
use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use backoffice::platform::db::DatabaseKind;
use serde_json::json;

on_both_backends!(
    the_result_file_lists_every_line_once_across_ranges,
    batches_stored_a_row_per_line_are_carried_over_and_finish
);

/// The fields of one CSV line as the server writes them (quoted fields, `""` for a quote).
fn fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// (line, merchant order id, outcome, order number) of every line of the result file.
async fn result_lines(app: &TestApp, token: &str, batch_id: i64) -> Vec<(i64, String, String, String)> {
    let csv = crate::batch_rules::result_csv(app, token, batch_id).await;
    csv.lines()
        .skip(1)
        .map(|line| {
            let cells = fields(line);
            let text = |index: usize| cells[index].trim_end_matches('\t').to_string();
            (cells[0].parse().expect("a line number"), text(3), text(5), text(7))
        })
        .collect()
}

async fn reprice(app: &TestApp, mid: i64, key: &str, price: i64) {
    let admin = app.login(ADMIN).await;
    let body = json!({"merchant_id": mid, "product_key": key, "price_fen": price, "status": 1});
    assert_eq!(app.post_as(&admin, "/adminapi/admin/quote/save", body).await.code(), 20000);
}

/// 12,001 lines (five PostgreSQL ranges, three SQLite ones), every 997th invalid, the odd
/// ones of a product repriced between preview and submit.
async fn the_result_file_lists_every_line_once_across_ranges(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("ranges").await;
    let lines = 12_001;
    app.fund(mid, lines * PRICE * 3, 0).await;
    let mut text = String::from("account,product_key,merchant_order_id\n");
    for index in 0..lines {
        let account = if index % 997 == 0 { "12345".to_string() } else { format!("139{index:08}") };
        let product = if index % 2 == 0 { "MOBILE-DIRECT-10" } else { "MOBILE-DIRECT-20" };
        text.push_str(&format!("{account},{product},G-{index}\n"));
    }
    let preview = app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text})).await;
    let invalid = (0..lines).filter(|index| index % 997 == 0).count() as i64;
    assert_eq!(preview.data()["invalid_rows"], invalid, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    reprice(&app, mid, "MOBILE-DIRECT-20", 1).await;
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    let placed = (0..lines).filter(|index| index % 997 != 0 && index % 2 == 0).count() as i64;
    let counts = (submit.data()["placed_rows"].as_i64(), submit.data()["failed_rows"].as_i64());
    assert_eq!(counts, (Some(placed), Some(lines - invalid - placed)), "{:?}", submit.body);

    let result = result_lines(&app, &token, batch_id).await;
    // Line 1 is the title: index i is on line i + 2.
    let numbers: Vec<i64> = result.iter().map(|line| line.0).collect();
    assert_eq!(numbers, (2..lines + 2).collect::<Vec<_>>());
    for (line_no, merchant_order_id, outcome, order_no) in &result {
        let index = line_no - 2;
        assert_eq!(merchant_order_id, &format!("G-{index}"));
        let expected = match (index % 997 == 0, index % 2 == 0) {
            (true, _) => "invalid",
            (false, true) => "placed",
            (false, false) => "refused at submit",
        };
        assert_eq!((outcome.as_str(), order_no.is_empty()), (expected, expected != "placed"), "line {line_no}");
    }
    app.assert_books_balance(mid).await;
}

/// The statements of migration 0025 that carry batch lines over (after its table is made).
fn carry_over(engine: DatabaseKind) -> Vec<String> {
    let folder = match engine {
        DatabaseKind::Sqlite => "sqlite",
        DatabaseKind::Postgres => "postgres",
    };
    let path = format!("{}/../../migrations/{folder}/0025_batch_line_ranges.sql", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the migration");
    let code: String = text.lines().filter(|line| !line.trim_start().starts_with("--")).collect::<Vec<_>>().join("\n");
    code.split(';')
        .map(str::trim)
        .filter(|statement| statement.starts_with("INSERT") || statement.starts_with("DELETE"))
        .map(str::to_string)
        .collect()
}

/// A batch as an older version stored it: a row per line, outcome 0 waiting (or placed, its
/// order naming the batch), 1 invalid, 2 placed, 3 refused at submit. Carried over, the
/// submit places the waiting lines alone and the result file shows every line as before.
async fn batches_stored_a_row_per_line_are_carried_over_and_finish(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.worker.enabled = false).await;
    let (mid, token) = app.merchant("legacy").await;
    app.fund(mid, 100 * PRICE, 0).await;
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": crate::batch::numbered(9, "O")})).await;
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let stored = app.batch_lines(batch_id).await;
    sqlx::query("DELETE FROM order_batch_ranges WHERE batch_id = $1")
        .bind(batch_id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    // Lines 2-3 placed (one marked 0, one marked 2), line 4 refused, 5 invalid, 6-10 waiting.
    for (line_no, account, product_key, merchant_order_id, price) in &stored {
        let outcome = match line_no {
            2 | 3 => {
                let body =
                    json!({"account": account, "product_key": product_key, "merchant_order_id": merchant_order_id});
                assert_eq!(app.add_order(&token, body).await.code(), 20000);
                sqlx::query("UPDATE orders SET batch_id = $1 WHERE merchant_order_id = $2")
                    .bind(batch_id)
                    .bind(merchant_order_id)
                    .execute(&app.state.db.pool)
                    .await
                    .unwrap();
                if *line_no == 2 { 0i64 } else { 2 }
            }
            4 => 3,
            5 => 1,
            _ => 0,
        };
        sqlx::query(
            "INSERT INTO order_batch_rows (batch_id, line_no, account, product_key, merchant_order_id, price_fen, outcome, reason)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(batch_id)
        .bind(line_no)
        .bind(account)
        .bind(product_key)
        .bind(merchant_order_id)
        .bind(price)
        .bind(outcome)
        .bind(if outcome == 3 { "funds.insufficient" } else { "" })
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    }
    for statement in carry_over(app.state.db.kind) {
        sqlx::query(sqlx::AssertSqlSafe(statement.clone())).execute(&app.state.db.pool).await.expect(&statement);
    }
    let rows = app.scalar("SELECT COUNT(*) FROM order_batch_rows WHERE batch_id = $1", batch_id).await;
    assert_eq!(rows, 2, "the invalid and the refused line keep their rows");
    let carried: Vec<i64> = app.batch_lines(batch_id).await.iter().map(|line| line.0).collect();
    assert_eq!(carried, vec![2, 3, 4, 6, 7, 8, 9, 10]);

    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.code(), 20000, "{:?}", submit.body);
    let orders = app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1", mid).await;
    assert_eq!(orders, 7, "two placed before, five waiting placed now; the refused line stays refused");
    let outcomes: Vec<(i64, String)> =
        result_lines(&app, &token, batch_id).await.into_iter().map(|line| (line.0, line.2)).collect();
    let expected: Vec<(i64, String)> = (2..=10)
        .map(|line_no| {
            let outcome = match line_no {
                4 => "refused at submit",
                5 => "invalid",
                _ => "placed",
            };
            (line_no, outcome.to_string())
        })
        .collect();
    assert_eq!(outcomes, expected);
    app.assert_books_balance(mid).await;
}
