//! The sender: claims due notifications from the outbox, POSTs them, records each attempt
//! and schedules the next one.
//!
//! Claims are leases in the database, as the order worker takes them (`supply/worker/`): a
//! claim sets `lease_owner` and pushes `next_attempt_at` past the lease, in one UPDATE
//! that re-checks its condition on the locked row, so two servers on one PostgreSQL never
//! both claim (and send) the same attempt. A sender that dies leaves its claims to expire;
//! then the attempt is made again by whoever runs, with the same `webhook-id`. An attempt's
//! result is written only by the owner of the claim.

use super::guard::{GuardedResolver, check_notify_url_with};
use super::outbox::state;
use super::{secret, sign};
use crate::platform::config::{NotifyConfig, millis};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use serde::Serialize;
use sqlx::Row;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use utoipa::ToSchema;

/// At most this much of an answer is read; the rest is dropped with the connection.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// The part of an answer kept with the attempt.
pub const EXCERPT_BYTES: usize = 1024;

/// A claimed notification.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub id: i64,
    pub event_id: String,
    pub merchant_id: i64,
    pub order_no: Option<String>,
    pub url: String,
    pub body: String,
    /// This attempt's number, from 1.
    pub attempt: i64,
}

/// What one attempt gave.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttemptResult {
    pub attempt: i64,
    /// RFC 3339.
    pub started_at: String,
    #[serde(skip)]
    pub started_at_millis: i64,
    pub latency_ms: i64,
    /// The HTTP status, when an answer came.
    pub http_status: Option<i64>,
    pub delivered: bool,
    /// The first 1 KB of the answer.
    pub response_excerpt: String,
    /// Why it was not delivered, when it was not (answered to people as a reason: see
    /// `reason.rs`; the raw text is stored and logged).
    pub error: Option<String>,
    /// The reason's key (`notify.delivery.*`), when answered to a person.
    pub error_reason: Option<&'static str>,
}

/// The HTTP client notifications are sent with: no redirects, a time limit per attempt,
/// and (unless `--allow-private-notify`) connections only to addresses the guard passed.
pub fn client(config: &NotifyConfig) -> anyhow::Result<reqwest::Client> {
    let mut builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(config.timeout)
        .connect_timeout(config.timeout)
        .user_agent(concat!("backoffice-webhooks/", env!("CARGO_PKG_VERSION")));
    if !config.allow_private {
        builder = builder.dns_resolver(Arc::new(GuardedResolver));
    }
    Ok(builder.build()?)
}

/// Starts the sender; it stops (after the attempts in hand) when `stop` turns true.
pub fn spawn(state: AppState, mut stop: watch::Receiver<bool>) -> anyhow::Result<JoinHandle<()>> {
    let client = client(&state.config.notify)?;
    Ok(tokio::spawn(async move {
        let owner = format!("notify-{}", uuid::Uuid::new_v4().simple());
        let config = state.config.notify.clone();
        tracing::info!(%owner, "notification sender started");
        loop {
            if *stop.borrow() {
                break;
            }
            let handled = match run_once(&state, &client, &owner).await {
                Ok(handled) => handled,
                Err(error) => {
                    crate::platform::db::outage::pass_failed(&error, "notification pass failed");
                    0
                }
            };
            if handled < config.batch_size as usize {
                tokio::select! {
                    _ = tokio::time::sleep(config.poll_interval) => {}
                    _ = stop.changed() => {}
                }
            }
        }
        tracing::info!(%owner, "notification sender stopped");
    }))
}

/// One pass: claims due notifications, sends them at once, records the results.
pub async fn run_once(state: &AppState, client: &reqwest::Client, owner: &str) -> anyhow::Result<usize> {
    let claimed = claim(state, owner).await?;
    if claimed.is_empty() {
        return Ok(0);
    }
    let mut keys: HashMap<i64, Arc<Vec<Vec<u8>>>> = HashMap::new();
    for notification in &claimed {
        if let std::collections::hash_map::Entry::Vacant(entry) = keys.entry(notification.merchant_id) {
            entry.insert(Arc::new(secret::signing_keys(state, notification.merchant_id).await?));
        }
    }
    let allow_private = state.config.notify.allow_private;
    let sends = claimed.iter().map(|notification| {
        let keys = keys[&notification.merchant_id].clone();
        async move { attempt(client, &keys, notification, allow_private).await }
    });
    let results = futures_util::future::join_all(sends).await;
    let outcomes: Vec<(Claimed, AttemptResult)> = claimed.into_iter().zip(results).collect();
    record(state, owner, &outcomes).await?;
    Ok(outcomes.len())
}

async fn claim(state: &AppState, owner: &str) -> anyhow::Result<Vec<Claimed>> {
    let now = now_millis();
    let rows = sqlx::query(
        "UPDATE notifications SET lease_owner = $1, next_attempt_at = $2
         WHERE id IN (SELECT id FROM notifications WHERE state IN (0, 2) AND next_attempt_at <= $3
                      ORDER BY next_attempt_at LIMIT $4)
           AND state IN (0, 2) AND next_attempt_at <= $3
         RETURNING id, event_id, merchant_id, url, body, attempts,
                   (SELECT order_no FROM orders WHERE orders.id = notifications.order_id)",
    )
    .bind(owner)
    .bind(now + millis(state.config.notify.lease))
    .bind(now)
    .bind(state.config.notify.batch_size)
    .fetch_all(&state.db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Claimed {
                id: row.try_get(0)?,
                event_id: row.try_get(1)?,
                merchant_id: row.try_get(2)?,
                url: row.try_get(3)?,
                body: row.try_get(4)?,
                attempt: row.try_get::<i64, _>(5)? + 1,
                order_no: row.try_get(6)?,
            })
        })
        .collect()
}

/// Sends one notification once. Never fails: what went wrong is the attempt's `error`.
pub async fn attempt(
    client: &reqwest::Client,
    keys: &[Vec<u8>],
    notification: &Claimed,
    allow_private: bool,
) -> AttemptResult {
    let started_at_millis = now_millis();
    let started = Instant::now();
    let mut result = AttemptResult {
        attempt: notification.attempt,
        started_at: crate::platform::db::millis_to_rfc3339(started_at_millis),
        started_at_millis,
        latency_ms: 0,
        http_status: None,
        delivered: false,
        response_excerpt: String::new(),
        error: None,
        error_reason: None,
    };
    // Checked again at every attempt: the URL was stored before any rule change, and an
    // address literal is never resolved (so the resolver's check does not see it).
    let url = match check_notify_url_with(&notification.url, allow_private) {
        Ok(url) => url,
        Err(error) => {
            result.error = Some(error.to_string());
            return result;
        }
    };
    let timestamp = started_at_millis / 1000;
    let signature = sign::signature_header(keys, &notification.event_id, timestamp, &notification.body);
    let sent = client
        .post(url)
        .header("content-type", "application/json")
        .header("webhook-id", &notification.event_id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(notification.body.clone())
        .send()
        .await;
    match sent {
        Ok(mut response) => {
            let status = response.status();
            result.http_status = Some(i64::from(status.as_u16()));
            let mut answer = Vec::new();
            let mut read_error = None;
            while answer.len() < MAX_ANSWER_BYTES {
                match response.chunk().await {
                    Ok(Some(chunk)) => answer.extend_from_slice(&chunk),
                    Ok(None) => break,
                    Err(error) => {
                        read_error = Some(describe(&error));
                        break;
                    }
                }
            }
            answer.truncate(MAX_ANSWER_BYTES);
            let text = String::from_utf8_lossy(&answer);
            result.response_excerpt = String::from_utf8_lossy(&answer[..answer.len().min(EXCERPT_BYTES)])
                .trim_end_matches('\u{FFFD}')
                .to_string();
            let said_fail = matches!(text.trim().to_ascii_lowercase().as_str(), "fail" | "failure");
            result.delivered = status.is_success() && !said_fail && read_error.is_none();
            if !result.delivered {
                result.error = Some(match (read_error, said_fail) {
                    (Some(error), _) => error,
                    (None, true) => format!("the answer said {:?}", text.trim()),
                    (None, false) if status.is_redirection() => format!("HTTP {status}: redirects are not followed"),
                    (None, false) => format!("HTTP {status}"),
                });
            }
        }
        Err(error) => result.error = Some(describe(&error)),
    }
    result.latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    result
}

/// An error with its causes ("error sending request: ... : destination refused").
fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = if error.to_string().is_empty() { "error".to_string() } else { error.to_string() };
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    if let Some(reqwest_error) = error.downcast_ref::<reqwest::Error>()
        && reqwest_error.is_timeout()
    {
        text.push_str(" (timed out)");
    }
    text.chars().take(500).collect()
}

/// Writes the attempts and the next step of each notification, in one transaction (one
/// write per batch, not per notification). Only the claim's owner writes; an attempt
/// whose claim expired and was taken over is dropped (its new owner tries again).
pub async fn record(state: &AppState, owner: &str, outcomes: &[(Claimed, AttemptResult)]) -> anyhow::Result<()> {
    let schedule = &state.config.notify.schedule;
    let now = now_millis();
    let mut exhausted = Vec::new();
    let mut transaction = state.db.begin_write().await?;
    for (notification, result) in outcomes {
        let n = notification.attempt;
        let (next_state, next_attempt_at) = if result.delivered {
            (state::DELIVERED, now)
        } else if let Some(delay) = usize::try_from(n - 1).ok().and_then(|index| schedule.get(index)) {
            let delay = millis(*delay);
            // Up to a tenth of the delay, so a merchant's many failures do not all come back at once.
            let jitter = if delay >= 10 { (rand::random::<u64>() % (delay as u64 / 10 + 1)) as i64 } else { 0 };
            (state::FAILED, now + delay + jitter)
        } else {
            (state::EXHAUSTED, now)
        };
        let updated = sqlx::query(
            "UPDATE notifications SET state = $1, attempts = $2, next_attempt_at = $3, lease_owner = NULL,
                    delivered_at = $4, last_error = $5
             WHERE id = $6 AND lease_owner = $7",
        )
        .bind(next_state)
        .bind(n)
        .bind(next_attempt_at)
        .bind(result.delivered.then_some(now))
        .bind(result.error.as_deref())
        .bind(notification.id)
        .bind(owner)
        .execute(&mut *transaction)
        .await?;
        if updated.rows_affected() == 0 {
            continue;
        }
        sqlx::query(
            "INSERT INTO notification_attempts (notification_id, attempt, started_at, latency_ms, http_status, delivered,
                                                response_excerpt, error)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(notification.id)
        .bind(n)
        .bind(result.started_at_millis)
        .bind(result.latency_ms)
        .bind(result.http_status)
        .bind(i64::from(result.delivered))
        .bind(&result.response_excerpt)
        .bind(result.error.as_deref())
        .execute(&mut *transaction)
        .await?;
        // Told once, when the schedule first runs out (not again after a manual resend).
        if next_state == state::EXHAUSTED && usize::try_from(n - 1).ok() == Some(schedule.len()) {
            exhausted.push((notification, result));
        }
        if let Some(error) = &result.error {
            // The raw words are for operators; people see a reason (`reason.rs`).
            tracing::info!(notification = notification.id, attempt = n, http_status = ?result.http_status,
                %error, "notification not delivered");
        }
    }
    // In the same transaction: a notification is never left exhausted with its merchant untold.
    for (notification, result) in exhausted {
        tell_exhausted(&mut transaction, notification, result).await?;
    }
    transaction.commit().await?;
    Ok(())
}

/// Tells the merchant that a notification gave up, once per episode: the key is the time
/// of the merchant's last delivered notification, so every failure until the next delivery
/// is the same episode, and a retried pass writes nothing twice.
async fn tell_exhausted(
    connection: &mut sqlx::AnyConnection,
    notification: &Claimed,
    result: &AttemptResult,
) -> Result<(), sqlx::Error> {
    use crate::i18n::notices::Notice;
    use crate::identity::user_centre::inbox::{Extras, Notification, notify_merchant_with};
    let last_delivered: Option<i64> =
        sqlx::query_scalar("SELECT MAX(delivered_at) FROM notifications WHERE merchant_id = $1 AND state = 1")
            .bind(notification.merchant_id)
            .fetch_one(&mut *connection)
            .await?;
    let key = format!("callbacks_failing:{}:{}", notification.merchant_id, last_delivered.unwrap_or(0));
    let reason = super::reason::classify(result.http_status, result.error.as_deref().unwrap_or_default());
    let content = Notice::NotificationExhaustedDetail {
        order_no: notification.order_no.clone().unwrap_or_else(|| notification.event_id.clone()),
        url: notification.url.chars().take(200).collect(),
        reason,
    }
    .stored();
    let (title, sub_title) = (Notice::NotificationExhausted.stored(), Notice::Integration.stored());
    let message = Notification::notice(&title, &sub_title, &content, 3);
    let extras = Extras::new("/order/notifications", Some(&key));
    notify_merchant_with(connection, notification.merchant_id, message, extras).await
}
