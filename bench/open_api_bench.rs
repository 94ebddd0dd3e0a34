//! Open-API orders against the console's add order, in the same run (see bench/open_api.sh):
//! one server in this process (worker and sender off, no rate limit) on SQLite (or
//! `DATABASE_URL`); the demo merchant places COUNT orders each way with 1 and with 32
//! concurrent clients. The two ways take turns in short rounds (about half a second each),
//! so a neighbour's load on the shared machine, which here comes and goes in spells of
//! seconds, falls on both alike. Prints orders/s, the mean and percentiles per order, and what the
//! signature checking costs (open API vs console throughput). Each phase's requests are
//! built whole and signed before its clock starts (a merchant signs on its own machine; here
//! the client would take the server's cores); what that costs the client is printed apart.
//!
//! usage: open_api_bench [COUNT] (COUNT orders each way and concurrency; ROUND=N orders a
//! round instead of 250 with one client and 2,000 with 32)

#[path = "support.rs"]
mod support;

use backoffice::app::startup::Application;
use backoffice::merchant_api::signature;
use backoffice::platform::config::Config;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The server in this process allocates as the server binary does (`src/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Orders of one round per client count: with four long rounds, one client's PostgreSQL
/// figures swung from +13 % to +103 % between runs as the machine's spells fell on one
/// way or the other (each way alone, on fresh databases: 605 to 843 orders/s).
fn round_size(clients: usize) -> usize {
    let default = if clients == 1 { 250 } else { 2_000 };
    std::env::var("ROUND").ok().and_then(|text| text.parse().ok()).unwrap_or(default)
}

#[derive(Clone, Copy, PartialEq)]
enum Way {
    Console,
    OpenApi,
}

struct Bench {
    base: String,
    http: reqwest::Client,
    token: String,
    key_id: String,
    secret: String,
    run: i64,
    next: AtomicUsize,
}

/// One order's request, built whole (and, for the open API, signed) before the timed phase:
/// the load generator shares this machine's two cores with the server, and a merchant builds
/// and signs on its own machine, so neither is counted as the server's checking. What
/// preparing costs the client is measured apart and printed.
struct Prepared(reqwest::Request);

impl Bench {
    fn prepare(&self, way: Way) -> Prepared {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        let body = json!({"account": "13800138000", "product_key": "MOBILE-DIRECT-10",
            "merchant_order_id": format!("B{}-{index}", self.run)});
        let request = match way {
            Way::Console => {
                self.http.post(format!("{}/adminapi/order/add", self.base)).bearer_auth(&self.token).json(&body)
            }
            Way::OpenApi => {
                let body = body.to_string();
                let timestamp = (backoffice::platform::db::now_millis() / 1000).to_string();
                let nonce = format!("n{}", uuid::Uuid::new_v4().simple());
                let text = signature::request_string("POST", "/openapi/v1/orders", &timestamp, &nonce, body.as_bytes());
                let signature = signature::sign(&self.secret, &text);
                self.http
                    .post(format!("{}/openapi/v1/orders", self.base))
                    .header("x-key-id", &self.key_id)
                    .header("x-timestamp", timestamp)
                    .header("x-nonce", nonce)
                    .header("x-signature", signature)
                    .header("content-type", "application/json")
                    .body(body)
            }
        };
        Prepared(request.build().expect("a well-formed request"))
    }

    async fn place(&self, Prepared(request): Prepared) -> Duration {
        let started = Instant::now();
        let answer: Value = self.http.execute(request).await.expect("request").json().await.expect("json");
        assert_eq!(answer["code"], 20000, "{answer}");
        started.elapsed()
    }
}

fn percentile(samples: &mut [Duration], share: f64) -> f64 {
    samples.sort();
    let index = ((samples.len() as f64 * share).ceil() as usize).clamp(1, samples.len()) - 1;
    samples[index].as_secs_f64() * 1000.0
}

/// `count` orders by `clients` concurrent clients: (wall time, each order's time). The
/// requests are prepared first; the clock starts when the first is sent.
async fn phase(bench: &Arc<Bench>, way: Way, clients: usize, count: usize) -> (Duration, Vec<Duration>) {
    let shares: Vec<Vec<Prepared>> = (0..clients)
        .map(|client| {
            let mine = count / clients + usize::from(client < count % clients);
            (0..mine).map(|_| bench.prepare(way)).collect()
        })
        .collect();
    let started = Instant::now();
    let tasks: Vec<_> = shares
        .into_iter()
        .map(|share| {
            let bench = bench.clone();
            tokio::spawn(async move {
                let mut samples = Vec::with_capacity(share.len());
                for request in share {
                    samples.push(bench.place(request).await);
                }
                samples
            })
        })
        .collect();
    let mut samples = Vec::with_capacity(count);
    for task in tasks {
        samples.extend(task.await.expect("client"));
    }
    (started.elapsed(), samples)
}

/// What preparing one request costs the client, µs (body, URL and headers, and for the open
/// API the nonce, timestamp and signature): `count` of each way in a row, on this thread.
fn preparing_cost(bench: &Bench, way: Way, count: usize) -> f64 {
    let started = Instant::now();
    for _ in 0..count {
        std::hint::black_box(bench.prepare(way));
    }
    started.elapsed().as_secs_f64() * 1e6 / count as f64
}

#[tokio::main]
async fn main() {
    let count: usize = std::env::args().nth(1).and_then(|text| text.parse().ok()).unwrap_or(2_000);
    let directory = tempfile::tempdir().expect("temporary directory");
    let database =
        std::env::var("DATABASE_URL").unwrap_or_else(|_| format!("sqlite://{}/bench.db", directory.path().display()));
    let mut config = Config::new("127.0.0.1:0", database.clone());
    config.seed_demo = true;
    config.demo_orders = 0;
    config.secret_key_path = Some(directory.path().join("secret.key"));
    config.worker.enabled = false;
    config.notify.enabled = false;
    config.open_api.rate_limit_per_minute = 0;
    let application = Application::build(config).await.expect("application");
    let base = format!("http://127.0.0.1:{}", application.port());
    let state = application.state().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(application.run_until_stopped(async {
        let _ = stopped.await;
    }));
    let (key_id, secret) =
        backoffice::app::demo::demo_api_key(&state.db, &state.secrets).await.expect("key").expect("the demo key");
    let http = reqwest::Client::builder().pool_max_idle_per_host(64).build().unwrap();
    let token = support::login(&http, &base, "merchant", "Merchant123").await;
    // Funds for long runs (the demo balance lasts about COUNT=6000): an administrator's top-up.
    let admin = support::login(&http, &base, "admin", "Admin123").await;
    let top_up = json!({"merchant_id": 10001, "amount_fen": 1_000_000_000, "remark": "open API bench"});
    let topped = support::post(&http, &format!("{base}/adminapi/admin/merchant/topup"), Some(&admin), &top_up).await;
    assert_eq!(topped["code"], 20000, "{topped}");
    let run = backoffice::platform::db::now_millis();
    let bench = Arc::new(Bench { base, http, token, key_id, secret, run, next: AtomicUsize::new(0) });
    println!("engine: {}", if database.starts_with("postgres") { "postgres" } else { "sqlite" });
    // Warm-up: connections, caches, statements.
    phase(&bench, Way::Console, 8, 200).await;
    phase(&bench, Way::OpenApi, 8, 200).await;
    // PROFILE_WAY=console|openapi: that way alone, PROFILE_CLIENTS (32) clients, COUNT orders,
    // to profile one side at a time (`perf record` around the run; `perf diff` of the two).
    if let Ok(way) = std::env::var("PROFILE_WAY") {
        let way = if way == "console" { Way::Console } else { Way::OpenApi };
        let clients = std::env::var("PROFILE_CLIENTS").ok().and_then(|text| text.parse().ok()).unwrap_or(32);
        let (wall, samples) = phase(&bench, way, clients, count).await;
        println!("profiled: {} orders, {:.0} orders/s", samples.len(), samples.len() as f64 / wall.as_secs_f64());
        let _ = stop.send(());
        let _ = server.await;
        return;
    }
    for clients in [1, 32] {
        let mut totals = [(Duration::ZERO, Vec::new()), (Duration::ZERO, Vec::new())];
        let rounds = (count / round_size(clients)).max(2);
        for round in 0..rounds {
            // Alternate which way goes first, so neither always follows the other.
            let order = if round % 2 == 0 { [Way::Console, Way::OpenApi] } else { [Way::OpenApi, Way::Console] };
            for way in order {
                let (wall, samples) = phase(&bench, way, clients, count / rounds).await;
                let total = &mut totals[usize::from(way == Way::OpenApi)];
                total.0 += wall;
                total.1.extend(samples);
            }
        }
        let mut rates = [0.0; 2];
        for (index, name) in ["console add order", "open API order"].into_iter().enumerate() {
            let (wall, samples) = &mut totals[index];
            rates[index] = samples.len() as f64 / wall.as_secs_f64();
            let mean = samples.iter().sum::<Duration>().as_secs_f64() * 1000.0 / samples.len() as f64;
            println!(
                "{clients:>2} client(s), {name:<17}: {} orders, {:.0} orders/s, mean {mean:.2} ms, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
                samples.len(),
                rates[index],
                percentile(samples, 0.5),
                percentile(samples, 0.9),
                percentile(samples, 0.99),
                percentile(samples, 0.999),
                percentile(samples, 1.0)
            );
        }
        println!(
            "{clients:>2} client(s): open API / console throughput {:.3} (signature checking costs {:+.1} %)",
            rates[1] / rates[0],
            (rates[0] / rates[1] - 1.0) * 100.0
        );
    }
    let (console, open_api) =
        (preparing_cost(&bench, Way::Console, 20_000), preparing_cost(&bench, Way::OpenApi, 20_000));
    println!(
        "preparing a request (client side, not in the figures above): console {console:.1} µs, open API {open_api:.1} µs (signing and its headers {:+.1} µs)",
        open_api - console
    );
    let _ = stop.send(());
    let _ = server.await;
}
