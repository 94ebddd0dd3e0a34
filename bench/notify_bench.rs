//! Notification benchmark (see bench/notify.sh): the sender against a local receiver, in
//! one process, on SQLite (or `DATABASE_URL`).
//!
//! usage: notify_bench [COUNT]
//! 1. Throughput: COUNT notifications written at once (as finished orders write them), then
//!    the time until the receiver has every one: notifications delivered per second.
//! 2. Latency: notifications written one transaction at a time at a steady 100/s for 5 s (as
//!    orders finish); finish (the outbox row's commit) → the receiver's arrival, p50 / p99.

use axum::extract::State;
use axum::http::HeaderMap;
use backoffice::app::startup::Application;
use backoffice::notify::outbox;
use backoffice::platform::config::Config;
use backoffice::platform::db::now_millis;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The server in this process allocates as the server binary does (`src/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Arrivals = Arc<Mutex<HashMap<String, i64>>>;

async fn receive(State(arrivals): State<Arrivals>, headers: HeaderMap) -> &'static str {
    let id = headers.get("webhook-id").and_then(|value| value.to_str().ok()).unwrap_or("").to_string();
    arrivals.lock().unwrap().insert(id, now_millis());
    "ok"
}

fn percentile(samples: &mut [i64], share: f64) -> i64 {
    samples.sort_unstable();
    let index = ((samples.len() as f64 * share).ceil() as usize).clamp(1, samples.len()) - 1;
    samples[index]
}

async fn write_one(app: &backoffice::platform::state::AppState, url: &str) -> (String, i64) {
    let event_id = outbox::new_event_id();
    let body = format!(r#"{{"event_id":"{event_id}","type":"order.finished","data":{{}}}}"#);
    let mut transaction = app.db.begin_write().await.expect("begin");
    outbox::insert(&mut transaction, 10001, None, outbox::ORDER_FINISHED, &event_id, url, &body).await.expect("insert");
    transaction.commit().await.expect("commit");
    (event_id, now_millis())
}

async fn wait_for(arrivals: &Arrivals, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while arrivals.lock().unwrap().len() < count {
        assert!(Instant::now() < deadline, "not every notification arrived");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::main]
async fn main() {
    let count: usize = std::env::args().nth(1).and_then(|text| text.parse().ok()).unwrap_or(20_000);
    let directory = tempfile::tempdir().expect("temporary directory");
    let database =
        std::env::var("DATABASE_URL").unwrap_or_else(|_| format!("sqlite://{}/bench.db", directory.path().display()));
    let arrivals: Arrivals = Arc::default();
    let receiver = axum::Router::new().route("/cb", axum::routing::post(receive)).with_state(arrivals.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://127.0.0.1:{}/cb", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, receiver).await.ok() });

    let mut config = Config::new("127.0.0.1:0", database.clone());
    config.seed_demo = true;
    config.demo_orders = 0;
    config.secret_key_path = Some(directory.path().join("secret.key"));
    config.worker.enabled = false;
    config.notify.allow_private = true;
    config.notify.enabled = false;
    let application = Application::build(config.clone()).await.expect("application");
    let state = application.state().clone();

    // 1. Throughput: the outbox filled first (sender off), then one sender drains it.
    for _ in 0..count {
        write_one(&state, &url).await;
    }
    drop(application);
    config.notify.enabled = true;
    let application = Application::build(config).await.expect("application");
    let state = application.state().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let started = Instant::now();
    let server = tokio::spawn(application.run_until_stopped(async {
        let _ = stopped.await;
    }));
    wait_for(&arrivals, count).await;
    let seconds = started.elapsed().as_secs_f64();
    println!("engine: {}", if database.starts_with("postgres") { "postgres" } else { "sqlite" });
    println!("throughput: {count} notifications delivered in {seconds:.2} s = {:.0}/s", count as f64 / seconds);

    // 2. Latency at a steady 100 finishes per second for 5 s.
    let mut written = Vec::new();
    let every = Duration::from_millis(10);
    let mut next = Instant::now();
    for _ in 0..500 {
        written.push(write_one(&state, &url).await);
        next += every;
        tokio::time::sleep_until(next.into()).await;
    }
    wait_for(&arrivals, count + written.len()).await;
    let arrived = arrivals.lock().unwrap().clone();
    let mut latencies: Vec<i64> = written.iter().map(|(id, at)| arrived[id] - at).collect();
    println!(
        "finish -> delivery latency at 100/s: p50 {} ms, p99 {} ms, max {} ms",
        percentile(&mut latencies, 0.5),
        percentile(&mut latencies, 0.99),
        percentile(&mut latencies, 1.0)
    );
    let _ = stop.send(());
    let _ = server.await;
}
