//! Server benchmark for orders, driven over HTTP by one client (see bench/orders.sh).
//!
//! usage: orders_bench BASE_URL DATABASE_URL SERVER_PID
//! The server must serve the demo accounts, with the demo merchant's history generated
//! (`backoffice generate-orders`). Prints one line per figure.

#[path = "support.rs"]
mod support;

use serde_json::{Value, json};
use std::time::{Duration, Instant};

struct Client {
    base: String,
    http: reqwest::Client,
    token: String,
}

impl Client {
    async fn post(&self, path: &str, body: Value) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .expect("request");
        let value: Value = response.json().await.expect("json");
        assert_eq!(value["code"], 20000, "{path}: {value}");
        value["data"].clone()
    }
}

fn percentile(samples: &mut [Duration], share: f64) -> f64 {
    samples.sort();
    let index = ((samples.len() as f64 * share).ceil() as usize).clamp(1, samples.len()) - 1;
    samples[index].as_secs_f64() * 1000.0
}

async fn timed(client: &Client, runs: usize, body: &Value) -> (f64, f64, i64) {
    let mut samples = Vec::with_capacity(runs);
    let mut total = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let data = client.post("/adminapi/order/list", body.clone()).await;
        samples.push(started.elapsed());
        total = data["total"].as_i64().unwrap_or(-1);
    }
    (percentile(&mut samples, 0.5), percentile(&mut samples, 0.99), total)
}

fn rss_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|line| line.starts_with(field))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|value| value.parse().ok())
        .unwrap_or(0)
}

// One thread: the client makes one request at a time, and a runtime of two worker threads
// moved each answer from the thread that read it to the one awaiting it, a cost on the
// same two cores as the server's (one by one on a durable PostgreSQL, alternated against
// one server: 1,244-1,347 orders/s with two threads, 1,380-1,491/s with one).
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (base, database_url, pid) = (args[1].clone(), args[2].clone(), args[3].parse::<u32>().expect("server pid"));
    let http = reqwest::Client::new();
    let token = support::login(&http, &base, "merchant", "Merchant123").await;
    let client = Client { base: base.clone(), http: http.clone(), token };
    // BENCH_STEPS=list,export,batch,place picks steps (default: all).
    let steps = std::env::var("BENCH_STEPS").unwrap_or_else(|_| "list,export,batch,place".into());
    let step = |name: &str| steps.split(',').any(|step| step == name);
    let thirty_days_ago = backoffice::db::millis_to_rfc3339(backoffice::db::now_millis() - 30 * 86_400_000);
    let filtered = json!({"status": 2, "carrier": "mobile", "face_value_fen": 5000, "start_time": thirty_days_ago, "page_size": 20});

    if step("list") {
        // Warm up, then the first page, plain and filtered.
        timed(&client, 20, &json!({})).await;
        let (p50, p99, total) = timed(&client, 300, &json!({"page_size": 20})).await;
        println!("list first page, no filter: p50 {p50:.2} ms, p99 {p99:.2} ms (total {total} alongside)");
        let (p50, p99, total) = timed(&client, 300, &filtered).await;
        println!(
            "list first page, status+carrier+face+30 days: p50 {p50:.2} ms, p99 {p99:.2} ms (total {total} alongside)"
        );

        // 10,000 rows deep by cursor.
        for (name, filter) in [("no filter", json!({})), ("status+carrier+face+30 days", filtered.clone())] {
            let mut walk = filter.clone();
            walk["page_size"] = json!(500);
            let mut cursor = Value::Null;
            for _ in 0..20 {
                walk["cursor"] = cursor.clone();
                cursor = client.post("/adminapi/order/list", walk.clone()).await["next_cursor"].clone();
            }
            let mut deep = filter.clone();
            deep["page_size"] = json!(20);
            deep["cursor"] = cursor;
            let (p50, p99, total) = timed(&client, 300, &deep).await;
            println!(
                "list 10,000 rows deep (cursor), {name}: p50 {p50:.2} ms, p99 {p99:.2} ms (total {total} alongside)"
            );
        }
        let (p50, p99, _) = timed(&client, 50, &json!({"page": 501, "page_size": 20})).await;
        println!("list page 501 by page number (offset 10,000), no filter: p50 {p50:.2} ms, p99 {p99:.2} ms");
    }
    if step("export") {
        // Export of every order, streamed, with the server's memory watched.
        let rss_before = rss_kib(pid, "VmRSS:");
        let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let watched = peak.clone();
        let watcher = tokio::spawn(async move {
            loop {
                watched.fetch_max(rss_kib(pid, "VmRSS:"), std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let started = Instant::now();
        let mut response = http
            .get(format!("{base}/adminapi/order/export?kind=all&format=csv"))
            .bearer_auth(&client.token)
            .send()
            .await
            .unwrap();
        let (mut bytes, mut lines) = (0usize, 0usize);
        while let Some(chunk) = response.chunk().await.unwrap() {
            bytes += chunk.len();
            lines += chunk.iter().filter(|byte| **byte == b'\n').count();
        }
        let seconds = started.elapsed().as_secs_f64();
        let rss_now = rss_kib(pid, "VmRSS:");
        watcher.abort();
        println!(
            "export {} rows as CSV ({:.0} MB): {seconds:.2} s; server RSS {} MB before, peak {} MB during, {} MB after",
            lines - 1,
            bytes as f64 / 1e6,
            rss_before / 1024,
            peak.load(std::sync::atomic::Ordering::Relaxed) / 1024,
            rss_now / 1024,
        );
    }
    let run = backoffice::db::now_millis();
    if step("place") {
        // Orders one by one, one client: before the batch, whose 100,000 orders set off a
        // checkpoint and an automatic ANALYZE on PostgreSQL that would still be running here.
        let count = 5_000;
        let started = Instant::now();
        for index in 0..count {
            client
            .post("/adminapi/order/add", json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10", "merchant_order_id": format!("ONE-{run}-{index}")}))
            .await;
        }
        let seconds = started.elapsed().as_secs_f64();
        println!("{count} orders placed one by one: {seconds:.2} s, {:.0} orders/s", count as f64 / seconds);
    }

    if step("batch") {
        // A 100,000-line batch: preview, then submit.
        let mut csv = String::from("account,product_key,merchant_order_id\n");
        for index in 0..100_000 {
            csv.push_str(&format!(
                "139{:08},MOBILE-DIRECT-{},BENCH-{run}-{index}\n",
                index,
                [10, 20, 30, 50][index % 4]
            ));
        }
        let started = Instant::now();
        let form = reqwest::multipart::Form::new()
            .part("file", reqwest::multipart::Part::bytes(csv.into_bytes()).file_name("bench.csv"));
        let preview: Value = http
            .post(format!("{base}/adminapi/order/batch/preview"))
            .bearer_auth(&client.token)
            .multipart(form)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let previewed = started.elapsed().as_secs_f64();
        let batch_id = preview["data"]["batch_id"].as_i64().unwrap_or_else(|| panic!("{preview}"));
        let submit = client.post("/adminapi/order/batch/submit", json!({"batch_id": batch_id})).await;
        let total = started.elapsed().as_secs_f64();
        println!(
            "batch of 100,000 lines: preview {previewed:.2} s ({} valid), submit {:.2} s ({} placed), together {total:.2} s",
            preview["data"]["valid_rows"],
            total - previewed,
            submit["placed_rows"]
        );
    }

    // The books still balance.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&database_url).await.unwrap();
    let (balance, logged): (i64, i64) = sqlx::query_as(
        "SELECT a.balance_fen, (SELECT CAST(SUM(amount_fen) AS BIGINT) FROM account_log WHERE merchant_id = 10001 AND account_type = 1)
         FROM merchant_accounts a WHERE a.merchant_id = 10001",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    println!(
        "balance {balance} fen, account log sums to {logged} fen: {}",
        if balance == logged { "equal" } else { "DIFFERENT" }
    );
}
