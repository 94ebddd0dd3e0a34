//! End-to-end channel benchmark (issue 11), driven by bench/channels.sh: a release server and
//! a `backoffice supplier-sim` process are already running; this client sets up one
//! `http-json` channel pointing at the simulator (the sandbox disabled), places COUNT orders
//! with CONCURRENCY clients, waits until every one is settled (the database says so), and
//! prints orders completed end to end per second and p50/p99 from placement to settlement,
//! from the orders' own `created_at` and `finished_at`. Then it checks the books: every
//! order succeeded exactly once, the simulator's statement has exactly our successes, and
//! the merchant's account log sums to its balance. Any mismatch exits non-zero.
//!
//! usage: channels_bench BASE_URL DATABASE_URL SIMULATOR_URL SIMULATOR_SECRET COUNT CONCURRENCY

use backoffice::platform::channel::http_json;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The demo merchant, and what one MOBILE-DIRECT-10 costs it (fen).
const MERCHANT: i64 = 10001;
const PRICE: i64 = 985;
const PRODUCT: &str = "MOBILE-DIRECT-10";
const CHANNEL: &str = "bench-sim";

struct Api {
    base: String,
    http: reqwest::Client,
}

impl Api {
    async fn post(&self, token: &str, path: &str, body: Value) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap_or_else(|error| panic!("{path}: {error}"));
        let value: Value = response.json().await.expect("json");
        assert_eq!(value["code"], 20000, "{path}: {value}");
        value["data"].clone()
    }

    async fn login(&self, username: &str, password: &str) -> String {
        let data = self.post("", "/adminapi/login/login", json!({"username": username, "password": password})).await;
        data["token"].as_str().expect("token").to_string()
    }
}

fn percentile(sorted: &[i64], share: f64) -> i64 {
    let index = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

async fn scalar(pool: &sqlx::AnyPool, sql: &str, bind: i64) -> i64 {
    sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).bind(bind).fetch_one(pool).await.expect(sql)
}

/// One http-json channel at the simulator supplying the product, the sandbox disabled.
async fn set_up_channel(api: &Api, admin: &str, simulator: &str, secret: &str) {
    let saved = api
        .post(
            admin,
            "/adminapi/admin/channel/save",
            json!({"code": CHANNEL, "name": "Benchmark simulator", "adapter": "http-json",
                "base_url": simulator, "secret": secret, "timeout_ms": 5000, "enabled": true}),
        )
        .await;
    let id = saved["id"].as_i64().expect("channel id");
    let item = json!({"product_key": PRODUCT, "cost_fen": 980, "priority": 100, "weight": 1, "enabled": true});
    api.post(admin, "/adminapi/admin/channel/products/save", json!({"id": id, "items": [item]})).await;
    let channels = api.post(admin, "/adminapi/admin/channel/list", json!({})).await;
    for channel in channels.as_array().expect("channel list") {
        if channel["code"] != CHANNEL && channel["enabled"] == true {
            let other = channel["id"].as_i64().expect("id");
            api.post(admin, "/adminapi/admin/channel/enable", json!({"id": other, "enabled": false})).await;
        }
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(args.len() == 7, "usage: channels_bench BASE_URL DATABASE_URL SIMULATOR_URL SECRET COUNT CONCURRENCY");
    let (base, database_url, simulator, secret) = (&args[1], &args[2], &args[3], &args[4]);
    let count: usize = args[5].parse().expect("COUNT");
    let concurrency: usize = args[6].parse().expect("CONCURRENCY");
    sqlx::any::install_default_drivers();
    let pool = sqlx::any::AnyPoolOptions::new().max_connections(2).connect(database_url).await.expect("database");
    let api = Api { base: base.clone(), http: reqwest::Client::new() };
    let admin = api.login("admin", "Admin123").await;
    set_up_channel(&api, &admin, simulator, secret).await;
    let balance_before =
        scalar(&pool, "SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1", MERCHANT).await;
    assert!(
        balance_before >= count as i64 * PRICE,
        "the demo merchant's balance ({balance_before} fen) does not cover {count} orders: lower COUNT"
    );
    let first_id = scalar(&pool, "SELECT COALESCE(MAX(id), 0) + $1 FROM orders", 1).await;

    // Placement: CONCURRENCY clients take the next order number until COUNT are placed.
    let token = Arc::new(api.login("merchant", "Merchant123").await);
    let api = Arc::new(api);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let clients: Vec<_> = (0..concurrency)
        .map(|_| {
            let (api, token, next) = (api.clone(), token.clone(), next.clone());
            tokio::spawn(async move {
                while next.fetch_add(1, Ordering::Relaxed) < count {
                    let body = json!({"account": "13800138000", "product_key": PRODUCT});
                    api.post(&token, "/adminapi/order/add", body).await;
                }
            })
        })
        .collect();
    for client in clients {
        client.await.expect("client");
    }
    let placed_in = started.elapsed();

    // Settlement: wait until no order of this run is pending or processing any more.
    let unsettled = "SELECT COUNT(*) FROM orders WHERE id >= $1 AND status IN (0, 1)";
    let limit = Duration::from_secs(120 + count as u64 / 50);
    loop {
        let left = scalar(&pool, unsettled, first_id).await;
        if left == 0 {
            break;
        }
        assert!(started.elapsed() < limit, "{left} orders still unsettled after {limit:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let waited = started.elapsed();

    let rows: Vec<(i64, Option<i64>)> =
        sqlx::query_as("SELECT created_at, finished_at FROM orders WHERE id >= $1 ORDER BY id")
            .bind(first_id)
            .fetch_all(&pool)
            .await
            .expect("orders");
    assert_eq!(rows.len(), count, "orders placed");
    let first_created = rows.iter().map(|(created, _)| *created).min().unwrap_or_default();
    let last_finished = rows.iter().filter_map(|(_, finished)| *finished).max().unwrap_or_default();
    let mut latencies: Vec<i64> = rows.iter().filter_map(|(created, finished)| finished.map(|f| f - created)).collect();
    latencies.sort_unstable();
    let span_ms = (last_finished - first_created).max(1);
    println!("orders                      {count} by {concurrency} clients");
    println!(
        "placed                      {:.0}/s ({:.2} s)",
        count as f64 / placed_in.as_secs_f64(),
        placed_in.as_secs_f64()
    );
    println!(
        "completed end to end        {:.0}/s ({count} from first placement to last settlement in {:.2} s; client saw {:.2} s)",
        count as f64 * 1000.0 / span_ms as f64,
        span_ms as f64 / 1000.0,
        waited.as_secs_f64()
    );
    println!(
        "placement -> settlement     p50 {} ms, p99 {} ms, max {} ms",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );

    // The books.
    let successes = scalar(&pool, "SELECT COUNT(*) FROM orders WHERE id >= $1 AND status = 2", first_id).await;
    let won = scalar(
        &pool,
        "SELECT COUNT(DISTINCT order_id) FROM order_attempts WHERE order_id >= $1 AND outcome = 'success'",
        first_id,
    )
    .await;
    let attempts = scalar(&pool, "SELECT COUNT(*) FROM order_attempts WHERE order_id >= $1", first_id).await;
    let settled_events =
        scalar(&pool, "SELECT COUNT(*) FROM order_events WHERE order_id >= $1 AND status = 2", first_id).await;
    let debits =
        scalar(&pool, "SELECT COUNT(*) FROM account_log WHERE order_id >= $1 AND change_type = 1", first_id).await;
    let refunds =
        scalar(&pool, "SELECT COUNT(*) FROM account_log WHERE order_id >= $1 AND change_type = 2", first_id).await;
    let balance = scalar(&pool, "SELECT balance_fen FROM merchant_accounts WHERE merchant_id = $1", MERCHANT).await;
    let logged = scalar(
        &pool,
        "SELECT CAST(COALESCE(SUM(amount_fen), 0) AS BIGINT) FROM account_log WHERE merchant_id = $1 AND account_type = 1",
        MERCHANT,
    )
    .await;
    let upstream: std::collections::HashSet<String> =
        sqlx::query_scalar("SELECT upstream_order_id FROM order_attempts WHERE order_id >= $1")
            .bind(first_id)
            .fetch_all(&pool)
            .await
            .expect("attempts")
            .into_iter()
            .collect();
    // The simulator's statement of every Beijing date the run touched.
    let mut booked = 0;
    let mut dates = vec![backoffice::domain::beijing_time(first_created)[..10].to_string()];
    let last_date = backoffice::domain::beijing_time(last_finished)[..10].to_string();
    if last_date != dates[0] {
        dates.push(last_date);
    }
    for date in dates {
        // Signed over its query string, as the server's reconciliation signs it (an unsigned
        // request is refused with 401).
        let query = format!("date={date}");
        let statement: Value = api
            .http
            .get(format!("{simulator}/statement?{query}"))
            .header(http_json::SIGNATURE_HEADER, http_json::sign(secret.as_bytes(), query.as_bytes()))
            .send()
            .await
            .expect("statement")
            .json()
            .await
            .expect("statement json");
        let lines = statement["orders"].as_array().expect("statement lines");
        booked += lines
            .iter()
            .filter(|line| line["upstream_order_id"].as_str().is_some_and(|id| upstream.contains(id)))
            .count() as i64;
    }
    let checks = [
        ("orders settled as success", successes, count as i64),
        ("orders with a successful attempt", won, count as i64),
        ("attempts (one per order)", attempts, count as i64),
        ("success events (one per order)", settled_events, count as i64),
        ("debits (one per order)", debits, count as i64),
        ("refunds", refunds, 0),
        ("simulator's statement lines", booked, successes),
        ("balance spent", balance_before - balance, count as i64 * PRICE),
        ("account log sum = balance", logged, balance),
    ];
    let mut wrong = 0;
    for (what, got, expected) in checks {
        let verdict = if got == expected { "ok" } else { "WRONG" };
        if got != expected {
            wrong += 1;
        }
        println!("check {what:34} {got} (expected {expected}) {verdict}");
    }
    if wrong > 0 {
        eprintln!("{wrong} checks failed");
        std::process::exit(1);
    }
    println!("verified: every order topped up exactly once, books balance");
}
