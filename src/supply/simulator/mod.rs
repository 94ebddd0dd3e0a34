//! `backoffice supplier-sim`: a supplier speaking the `http-json` protocol as a real one
//! would, to run routing and failover against (tests, `serve --demo`, benchmarks).
//!
//! It keeps its own book in memory: orders by upstream id (a resubmission of a known id
//! changes nothing and answers its state), its balance (debited when it accepts an order,
//! credited back when that order fails), and a daily statement of what it topped up.
//! Behaviour is random within the given ratios: a share of orders fails definitely
//! (code 12), and a share of *answers* is lost (HTTP 502) although the request took
//! effect, which is exactly the "unknown" a platform must not resubmit elsewhere.
//! Card orders get a card number and password with their success, but for a share of
//! them (`cardless_ratio`) the supplier misbehaves and reports success without the card.
//! A share of successes (`reversal_ratio`) is reversed (冲正) `reversal_delay` after it:
//! queries then answer code 20, a second callback says so, and the statement lists the
//! line as `reversed`.

pub mod book;
pub mod demo;

use crate::platform::channel::http_json::{Answer, QueryRequest, SIGNATURE_HEADER, SubmitRequest, code, sign, verify};
use axum::body::Bytes;
use axum::extract::{Query, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Router, routing::get, routing::post};
use book::{Accepted, Book, SimOrder};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct SimConfig {
    pub secret: Vec<u8>,
    /// Share of orders that succeed; the others fail definitely.
    pub success_ratio: f64,
    /// Share of answers lost (HTTP 502), although the request took effect.
    pub unknown_ratio: f64,
    /// Time from acceptance to the result.
    pub delay: Duration,
    /// Time from the result to its callback (on top of `delay`).
    pub callback_delay: Duration,
    /// Every callback is sent twice.
    pub duplicate_callbacks: bool,
    /// Share of card orders whose success is reported without the card.
    pub cardless_ratio: f64,
    /// Share of successes reversed afterwards (冲正), and when after the result.
    pub reversal_ratio: f64,
    pub reversal_delay: Duration,
    pub balance_fen: i64,
    /// Numbers this supplier answers as ported to another carrier (code 13, 携号转网).
    pub ported_accounts: Vec<String>,
    /// What the supplier charges, per mille of the face value.
    pub price_permille: i64,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            secret: b"simulator-secret".to_vec(),
            success_ratio: 1.0,
            unknown_ratio: 0.0,
            delay: Duration::ZERO,
            callback_delay: Duration::ZERO,
            duplicate_callbacks: false,
            cardless_ratio: 0.0,
            reversal_ratio: 0.0,
            reversal_delay: Duration::ZERO,
            balance_fen: 100_000_000,
            ported_accounts: Vec::new(),
            price_permille: 980,
        }
    }
}

#[derive(Clone)]
pub struct Simulator {
    pub config: Arc<SimConfig>,
    pub book: Arc<Mutex<Book>>,
    /// The success ratio now (f64 bits): a supplier recovers or degrades while running.
    success_ratio: Arc<AtomicU64>,
    client: reqwest::Client,
}

impl Simulator {
    pub fn new(config: SimConfig) -> Self {
        let book = Book::new(config.balance_fen);
        let success_ratio = Arc::new(AtomicU64::new(config.success_ratio.to_bits()));
        Self {
            config: Arc::new(config),
            book: Arc::new(Mutex::new(book)),
            success_ratio,
            client: reqwest::Client::new(),
        }
    }

    pub fn set_success_ratio(&self, ratio: f64) {
        self.success_ratio.store(ratio.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
    }

    fn current_success_ratio(&self) -> f64 {
        f64::from_bits(self.success_ratio.load(Ordering::Relaxed))
    }

    pub fn router(&self) -> Router {
        Router::new()
            .route("/submit", post(submit))
            .route("/query", post(query))
            .route("/balance", post(balance))
            .route("/statement", get(statement))
            .route("/book", get(book_listing))
            .with_state(self.clone())
    }

    /// Reverses (冲正) a success now, as a carrier taking a top-up back: queries and the
    /// statement say so from now on, and a callback goes out. False for an order that is
    /// not a success (yet).
    pub fn reverse_now(&self, upstream_order_id: &str) -> bool {
        let now = crate::platform::db::now_millis();
        let order = {
            let mut book = self.book();
            let Some(order) = book.orders.get_mut(upstream_order_id) else { return false };
            if !order.succeeds || now < order.ready_at {
                return false;
            }
            order.reversed_at = Some(order.reversed_at.map_or(now, |at| at.min(now)));
            order.clone()
        };
        self.callback_after(&order, Duration::ZERO);
        true
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A signed answer, or (with `unknown_ratio`) a lost one.
    fn answer(&self, answer: &Answer) -> Response {
        if rand::random::<f64>() < self.config.unknown_ratio {
            return (StatusCode::BAD_GATEWAY, "lost").into_response();
        }
        signed(&self.config.secret, answer)
    }

    /// Posts the result of an order to its notify URL after the callback delay (twice
    /// with `duplicate_callbacks`), trying a few times; a reversed success's reversal
    /// follows as a second callback once it happened.
    fn schedule_callback(&self, order: &SimOrder) {
        let wait = order.ready_in() + self.config.callback_delay;
        self.callback_after(order, wait);
        if let Some(reversed_at) = order.reversed_at {
            let after = Duration::from_millis((reversed_at - order.accepted_at).max(0) as u64);
            self.callback_after(order, after + self.config.callback_delay);
        }
    }

    fn callback_after(&self, order: &SimOrder, wait: Duration) {
        let Some(url) = order.notify_url.clone() else { return };
        let simulator = self.clone();
        let upstream_order_id = order.upstream_order_id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let answer = simulator.book().answer_for(&upstream_order_id, crate::platform::db::now_millis());
            let body = serde_json::to_vec(&answer).unwrap_or_default();
            let times = if simulator.config.duplicate_callbacks { 2 } else { 1 };
            for _ in 0..times {
                for _ in 0..3 {
                    let sent = simulator
                        .client
                        .post(&url)
                        .timeout(Duration::from_secs(5))
                        .header(reqwest::header::CONTENT_TYPE, "application/json")
                        .header(SIGNATURE_HEADER, sign(&simulator.config.secret, &body))
                        .body(body.clone())
                        .send()
                        .await;
                    if sent.is_ok_and(|response| response.status().is_success()) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        });
    }
}

fn signed(secret: &[u8], answer: &Answer) -> Response {
    signed_json(secret, &serde_json::to_value(answer).unwrap_or_default())
}

#[allow(clippy::result_large_err)] // the refusal is the HTTP answer itself, sent at once
fn checked<T: serde::de::DeserializeOwned>(
    simulator: &Simulator,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, Response> {
    let signature = headers.get(SIGNATURE_HEADER).and_then(|value| value.to_str().ok()).unwrap_or_default();
    if !verify(&simulator.config.secret, body, signature) {
        let answer = Answer { code: code::BAD_SIGNATURE, msg: "bad signature".into(), ..Answer::default() };
        return Err((StatusCode::UNAUTHORIZED, signed(&simulator.config.secret, &answer)).into_response());
    }
    serde_json::from_slice(body).map_err(|_| (StatusCode::BAD_REQUEST, "malformed").into_response())
}

async fn submit(State(simulator): State<Simulator>, headers: HeaderMap, body: Bytes) -> Response {
    let request: SubmitRequest = match checked(&simulator, &headers, &body) {
        Ok(request) => request,
        Err(response) => return response,
    };
    let now = crate::platform::db::now_millis();
    let answer = {
        let success_ratio = simulator.current_success_ratio();
        let mut book = simulator.book();
        match book.accept(&request, &simulator.config, success_ratio, now) {
            Accepted::BalanceShort => Answer {
                code: code::INSUFFICIENT_BALANCE,
                msg: "insufficient balance".into(),
                upstream_order_id: request.upstream_order_id.clone(),
                ..Answer::default()
            },
            accepted => {
                if let Accepted::New(order) = accepted {
                    simulator.schedule_callback(&order);
                }
                book.answer_for(&request.upstream_order_id, now)
            }
        }
    };
    simulator.answer(&answer)
}

async fn query(State(simulator): State<Simulator>, headers: HeaderMap, body: Bytes) -> Response {
    let request: QueryRequest = match checked(&simulator, &headers, &body) {
        Ok(request) => request,
        Err(response) => return response,
    };
    let answer = {
        let mut book = simulator.book();
        if let Some(order) = book.orders.get_mut(&request.upstream_order_id) {
            order.queries += 1;
        }
        book.answer_for(&request.upstream_order_id, crate::platform::db::now_millis())
    };
    simulator.answer(&answer)
}

async fn balance(State(simulator): State<Simulator>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(response) = checked::<serde_json::Value>(&simulator, &headers, &body) {
        return response;
    }
    let balance_fen = simulator.book().balance_fen;
    signed(
        &simulator.config.secret,
        &Answer { code: code::SUCCESS, balance_fen: Some(balance_fen), ..Answer::default() },
    )
}

#[derive(Debug, serde::Deserialize)]
struct StatementQuery {
    /// Beijing date, YYYY-MM-DD.
    date: String,
}

/// The day's successful top-ups (Beijing time), signed like every answer. The request is
/// signed too: over its raw query string (a GET has no body).
async fn statement(
    State(simulator): State<Simulator>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
    Query(query): Query<StatementQuery>,
) -> Response {
    if let Err(refused) = query_checked(&simulator, &headers, raw) {
        return refused;
    }
    let lines = simulator.book().statement(&query.date);
    signed_json(&simulator.config.secret, &serde_json::json!({"code": 0, "date": query.date, "orders": lines}))
}

/// Every order the simulator was given, with how often it was submitted and asked about:
/// not a supplier's interface, the test tooling's (the chaos run, `make chaos`, checks
/// that no order was handed over twice). Signed like the statement.
async fn book_listing(State(simulator): State<Simulator>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Response {
    if let Err(refused) = query_checked(&simulator, &headers, raw) {
        return refused;
    }
    let orders = simulator.book().lines(crate::platform::db::now_millis());
    signed_json(&simulator.config.secret, &serde_json::json!({"code": 0, "orders": orders}))
}

/// A GET is signed over its raw query string (it has no body).
#[allow(clippy::result_large_err)] // the refusal is the HTTP answer itself, sent at once
fn query_checked(simulator: &Simulator, headers: &HeaderMap, raw: Option<String>) -> Result<(), Response> {
    let signature = headers.get(SIGNATURE_HEADER).and_then(|value| value.to_str().ok()).unwrap_or_default();
    if !verify(&simulator.config.secret, raw.unwrap_or_default().as_bytes(), signature) {
        let answer = Answer { code: code::BAD_SIGNATURE, msg: "bad signature".into(), ..Answer::default() };
        return Err((StatusCode::UNAUTHORIZED, signed(&simulator.config.secret, &answer)).into_response());
    }
    Ok(())
}

fn signed_json(secret: &[u8], value: &serde_json::Value) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    let signature = sign(secret, &body);
    (
        [
            (axum::http::header::CONTENT_TYPE, "application/json".to_string()),
            (SIGNATURE_HEADER.parse().unwrap(), signature),
        ],
        body,
    )
        .into_response()
}

/// Serves a simulator on `listener` until the process ends; returns the task.
pub fn spawn(simulator: &Simulator, listener: tokio::net::TcpListener) -> tokio::task::JoinHandle<()> {
    let router = simulator.router();
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router).await {
            tracing::error!(error = %error, "supplier simulator stopped");
        }
    })
}
