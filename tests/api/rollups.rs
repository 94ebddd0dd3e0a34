//! List totals read from the order roll-ups (migration 0019) are exact: after generated
//! history, orders placed concurrently while the worker moves and refunds others, and a
//! batch submit, every roll-up row equals a COUNT(*) over the orders, and list totals for
//! random filters equal a COUNT(*) over the matching orders, for a merchant and for an
//! administrator over every merchant.

use crate::helpers::{ADMIN, Backend, TestApp, spawn_app_with};
use crate::on_both_backends;
use backoffice::domain::{beijing_day, beijing_day_start};
use backoffice::orders::generate::{GenerateOptions, generate};
use backoffice::platform::db::{millis_to_rfc3339, now_millis};
use serde_json::{Value, json};

on_both_backends!(rollup_totals_equal_counting_the_orders);

const DAY: i64 = 86_400_000;

/// A small deterministic generator (xorshift): the same filters on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: i64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as i64
    }
}

async fn rollup_totals_equal_counting_the_orders(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.channel.sandbox_success_ratio = 0.5;
        // Half the orders fail on purpose: the sandbox must not be paused as unhealthy.
        config.channel.health_min_success_ratio = 0.0;
    })
    .await;
    let (mid, token) = app.merchant("rolled").await;
    let (other, other_token) = app.merchant("other").await;
    app.fund(mid, 10_000_000, 0).await;
    app.fund(other, 10_000_000, 0).await;
    let options = GenerateOptions { merchant_id: mid, count: 400, days: 4, in_flight_share: 0.0, events: false };
    generate(&app.state.db, &app.state.secrets, &options).await.unwrap();
    // Placed together (group commit, several runs per group) while the worker moves orders.
    let products =
        [("13800138000", "MOBILE-DIRECT-10"), ("13800138000", "MOBILE-DIRECT-20"), ("18600000000", "UNICOM-DIRECT-50")];
    let calls = (0..90).map(|index| {
        let (account, product) = products[index % products.len()];
        let token = if index % 5 == 0 { &other_token } else { &token };
        app.add_order(token, json!({"account": account, "product_key": product}))
    });
    for answer in futures_util::future::join_all(calls).await {
        assert_eq!(answer.code(), 20000, "{:?}", answer.body);
    }
    let lines = (0..30).map(|index| format!("1380013{index:04},MOBILE-DIRECT-30,B-{index}")).collect::<Vec<_>>();
    let text = format!("account,product_key,merchant_order_id\n{}", lines.join("\n"));
    let preview =
        app.post_as(&token, "/adminapi/order/batch/preview", json!({"text": text, "file_name": "r.csv"})).await;
    assert_eq!(preview.data()["valid_rows"], 30, "{:?}", preview.body);
    let batch_id = preview.data()["batch_id"].as_i64().unwrap();
    let submit = app.post_as(&token, "/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
    assert_eq!(submit.data()["placed_rows"], 30, "{:?}", submit.body);
    // The worker finishes what was placed (successes, and failures refunded). Only the
    // orders it drives: the history's behalf top-ups may wait for a person (pending).
    for merchant in [mid, other] {
        let sql = "SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status IN (0, 1) AND order_kind IN (1, 2)";
        app.wait_for_zero(sql, merchant, 60).await;
    }
    assert_rollups_count_the_orders(&app).await;
    let failed = app.scalar("SELECT COUNT(*) FROM orders WHERE merchant_id = $1 AND status = 3", mid).await;
    assert!(failed > 0, "some orders failed and were refunded");

    let admin = app.login(ADMIN).await;
    let now = now_millis();
    let today = beijing_day_start(beijing_day(now));
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for _ in 0..60 {
        let mut filter = json!({});
        let kinds = ["ordinary", "card", "behalf", "all"];
        filter["kind"] = json!(kinds[random.below(4) as usize]);
        match random.below(4) {
            0 | 1 => filter["status"] = json!(random.below(5)),
            2 => filter["in_flight"] = json!(random.below(2) == 0),
            _ => {}
        }
        match random.below(5) {
            0 => filter["order_type"] = json!("today"),
            1 => filter["order_type"] = json!("history"),
            2 => {
                // Whole days, and partial days at either end.
                let start = today - random.below(5) * DAY - random.below(2) * random.below(DAY);
                filter["start_time"] = json!(millis_to_rfc3339(start));
                if random.below(2) == 0 {
                    filter["end_time"] = json!(millis_to_rfc3339(start + random.below(3 * DAY)));
                }
            }
            3 => filter["end_time"] = json!(millis_to_rfc3339(now - random.below(4 * DAY))),
            _ => {}
        }
        let scope = match random.below(3) {
            0 => None,
            1 => Some(other),
            _ => Some(mid),
        };
        let expected = count_matching(&app, &filter, scope, today).await;
        let mut body = filter.clone();
        body["page_size"] = json!(5);
        let answer = match scope {
            Some(merchant) if merchant == mid && random.below(2) == 0 => {
                app.post_as(&token, "/adminapi/order/list", body).await
            }
            Some(merchant) => {
                body["merchant_id"] = json!(merchant);
                app.post_as(&admin, "/adminapi/order/list", body).await
            }
            None => app.post_as(&admin, "/adminapi/order/list", body).await,
        };
        assert_eq!(answer.code(), 20000, "{filter}: {:?}", answer.body);
        assert_eq!(answer.data()["total"], expected, "total of {filter} for {scope:?}");
    }
    app.assert_books_balance(mid).await;
}

/// Every roll-up row equals counting its orders, and every group of orders has its row.
async fn assert_rollups_count_the_orders(app: &TestApp) {
    let differ = |rolled: &str, counted: &str| {
        format!(
            "SELECT (SELECT COUNT(*) FROM ({rolled} EXCEPT {counted}) a) + (SELECT COUNT(*) FROM ({counted} EXCEPT {rolled}) b) \
             + 0 * $1"
        )
    };
    let day = "CAST((created_at + 28800000) / 86400000 AS BIGINT)";
    let by_day = differ(
        "SELECT merchant_id, day, order_kind, status, count FROM order_rollups WHERE all_days = 0 AND count <> 0",
        &format!(
            "SELECT merchant_id, {day}, order_kind, status, CAST(COUNT(*) AS BIGINT) FROM orders \
             GROUP BY merchant_id, {day}, order_kind, status"
        ),
    );
    assert_eq!(app.scalar(&by_day, 0).await, 0, "day roll-ups count the orders");
    let all_days = differ(
        "SELECT merchant_id, order_kind, status, count FROM order_rollups WHERE all_days = 1 AND count <> 0",
        "SELECT merchant_id, order_kind, status, CAST(COUNT(*) AS BIGINT) FROM orders \
         GROUP BY merchant_id, order_kind, status",
    );
    assert_eq!(app.scalar(&all_days, 0).await, 0, "all-days roll-ups count the orders");
}

/// COUNT(*) over the orders a filter matches (the brute-force reading of the list's filter).
async fn count_matching(app: &TestApp, filter: &Value, scope: Option<i64>, today: i64) -> i64 {
    let text = |name: &str| filter.get(name).and_then(Value::as_str);
    let time = |name: &str| {
        text(name).map(|value| {
            let moment = time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc3339).unwrap();
            (moment.unix_timestamp_nanos() / 1_000_000) as i64
        })
    };
    let mut conditions = vec!["$1 = $1".to_string()];
    match text("kind") {
        Some("card") => conditions.push("order_kind = 2".into()),
        Some("behalf") => conditions.push("order_kind = 3".into()),
        Some("all") => {}
        _ => conditions.push("order_kind = 1".into()),
    }
    if let Some(status) = filter.get("status").and_then(Value::as_i64) {
        conditions.push(format!("status = {status}"));
    }
    match filter.get("in_flight").and_then(Value::as_bool) {
        Some(true) => conditions.push("status IN (0, 1, 4)".into()),
        Some(false) => conditions.push("status IN (2, 3)".into()),
        None => {}
    }
    if let Some(merchant) = scope {
        conditions.push(format!("merchant_id = {merchant}"));
    }
    match text("order_type") {
        Some("today") => conditions.push(format!("created_at >= {today}")),
        Some("history") => conditions.push(format!("created_at < {today}")),
        _ => {}
    }
    if let Some(start) = time("start_time") {
        conditions.push(format!("created_at >= {start}"));
    }
    if let Some(end) = time("end_time") {
        conditions.push(format!("created_at < {end}"));
    }
    app.scalar(&format!("SELECT COUNT(*) FROM orders WHERE {}", conditions.join(" AND ")), 0).await
}
