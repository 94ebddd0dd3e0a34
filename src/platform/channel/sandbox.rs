//! The sandbox channel: fulfils orders without any supplier, after a configurable delay
//! and with a configurable success ratio, so the whole life cycle runs locally; a share of
//! its successes it reverses (冲正) a while later, as a carrier may.
//!
//! Like a real supplier it keeps its own book (the `sandbox_channel_orders` table), so
//! it still knows every order after our process restarts. The outcome, and whether a
//! success will be reversed, is drawn once, at submission. A due reversal is answered to
//! queries and listed in the statement; being in-process, the sandbox has no callback to
//! send: `supply::sandbox_reversals` claims due ones ([`claim_due_reversals`]) and applies
//! each through the supplier callback's path. Card secrets are derived from the serial number under the server key
//! rather than stored, so no plaintext card secret ever sits in the database, and nobody
//! who sees a serial number (it is shown in lists and exports) can work the card out.

use super::statement::{MAX_STATEMENT_LINES, StatementError, StatementLine};
use super::{CardSecret, Channel, ChannelOrder, ChannelStatus};
use crate::platform::db::now_millis;
use futures_util::future::BoxFuture;
use sqlx::{AnyPool, Row};
use std::time::Duration;

pub struct SandboxChannel {
    pool: AnyPool,
    secrets: std::sync::Arc<crate::platform::crypto::Secrets>,
    delay: Duration,
    success_ratio: f64,
    reversal_ratio: f64,
    reversal_delay: Duration,
}

impl SandboxChannel {
    pub fn new(
        pool: AnyPool,
        secrets: std::sync::Arc<crate::platform::crypto::Secrets>,
        config: &crate::platform::config::ChannelConfig,
    ) -> Self {
        Self {
            pool,
            secrets,
            delay: config.sandbox_delay,
            success_ratio: config.sandbox_success_ratio.clamp(0.0, 1.0),
            reversal_ratio: config.sandbox_reversal_ratio.clamp(0.0, 1.0),
            reversal_delay: config.sandbox_reversal_delay,
        }
    }
}

/// Why the sandbox says it reversed a success (a supplier's words, kept as they are, like
/// the simulator's).
pub const REVERSAL_REASON: &str = "carrier reversed the top-up (sandbox)";

/// How long a claimed reversal is this server's to deliver; after it another server (or
/// this one after a restart) claims it again. Delivering twice is harmless (an order is
/// reversed once), losing one is not.
const REVERSAL_LEASE_MILLIS: i64 = 60_000;

/// Claims up to `limit` reversals due by `now` that no server delivered or holds: their
/// upstream order ids. One conditional UPDATE: servers claiming at once get distinct ones
/// (PostgreSQL checks the condition again on the row it locked).
pub async fn claim_due_reversals(pool: &AnyPool, now: i64, limit: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE sandbox_channel_orders SET reversal_claimed_until = $1
         WHERE system_order_id IN (
             SELECT system_order_id FROM sandbox_channel_orders
             WHERE reversed_at IS NOT NULL AND reversal_delivered_at IS NULL AND reversed_at <= $2
               AND (reversal_claimed_until IS NULL OR reversal_claimed_until < $2)
             ORDER BY reversed_at LIMIT $3)
           AND reversal_delivered_at IS NULL AND (reversal_claimed_until IS NULL OR reversal_claimed_until < $2)
         RETURNING system_order_id",
    )
    .bind(now + REVERSAL_LEASE_MILLIS)
    .bind(now)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A claimed reversal was applied: never claimed again.
pub async fn reversal_delivered(pool: &AnyPool, upstream_order_id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sandbox_channel_orders SET reversal_delivered_at = $1 WHERE system_order_id = $2")
        .bind(now)
        .bind(upstream_order_id)
        .execute(pool)
        .await
        .map(drop)
}

/// Whether a success drawn to be reversed at `reversed_at` stands reversed at `now`.
fn reversed_by(reversed_at: Option<i64>, now: i64) -> bool {
    reversed_at.is_some_and(|at| now >= at)
}

/// Digits derived from a serial number under the server key (HMAC), as a prepaid
/// card's number or password.
fn derived_digits(secrets: &crate::platform::crypto::Secrets, serial_no: &str, purpose: &str, length: usize) -> String {
    let digest = hex::decode(secrets.keyed_hash(purpose.as_bytes(), serial_no.as_bytes())).unwrap_or_default();
    digest.iter().take(length).map(|byte| char::from(b'0' + byte % 10)).collect()
}

pub fn card_for(secrets: &crate::platform::crypto::Secrets, serial_no: &str) -> CardSecret {
    CardSecret {
        number: derived_digits(secrets, serial_no, "sandbox card number", 16),
        password: derived_digits(secrets, serial_no, "sandbox card password", 18),
    }
}

/// `[start, end)` of a Beijing day `YYYY-MM-DD` in unix milliseconds (read here rather than
/// with `statements::Period`: `channel` stays below the application's modules).
fn beijing_day_bounds(date: &str) -> Option<(i64, i64)> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let day = time::Date::parse(date, &format).ok()?;
    let days = i64::from(day.to_julian_day()) - 2_440_588;
    Some((crate::domain::beijing_day_start(days), crate::domain::beijing_day_start(days + 1)))
}

impl Channel for SandboxChannel {
    fn submit<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>> {
        Box::pin(async move {
            let now = now_millis();
            let succeeds = rand::random::<f64>() < self.success_ratio;
            let serial_no = format!("SB{now}{:06}", rand::random::<u32>() % 1_000_000);
            let ready_at = now + crate::platform::config::millis(self.delay);
            let reversed_at = (succeeds && rand::random::<f64>() < self.reversal_ratio)
                .then(|| ready_at + crate::platform::config::millis(self.reversal_delay));
            sqlx::query(
                "INSERT INTO sandbox_channel_orders (system_order_id, received_at, ready_at, succeeds, serial_no, reversed_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (system_order_id) DO UPDATE SET submissions = sandbox_channel_orders.submissions + 1",
            )
            .bind(&order.upstream_order_id)
            .bind(now)
            .bind(ready_at)
            .bind(i64::from(succeeds))
            .bind(serial_no)
            .bind(reversed_at)
            .execute(&self.pool)
            .await?;
            Ok(ChannelStatus::Pending)
        })
    }

    fn query<'a>(&'a self, order: &'a ChannelOrder) -> BoxFuture<'a, anyhow::Result<ChannelStatus>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT ready_at, succeeds, serial_no, reversed_at FROM sandbox_channel_orders WHERE system_order_id = $1",
            )
            .bind(&order.upstream_order_id)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else { return Ok(ChannelStatus::NotReceived) };
            let ready_at: i64 = row.try_get(0)?;
            let now = now_millis();
            if now < ready_at {
                return Ok(ChannelStatus::Pending);
            }
            let succeeds: i64 = row.try_get(1)?;
            let serial_no: String = row.try_get(2)?;
            // As a supplier answers code 20 once the carrier took the top-up back.
            if reversed_by(row.try_get(3)?, now) {
                return Ok(ChannelStatus::Reversed { reason: REVERSAL_REASON.to_string() });
            }
            Ok(if succeeds == 1 {
                let card = order.card.then(|| card_for(&self.secrets, &serial_no));
                ChannelStatus::Succeeded { serial_no, card }
            } else {
                // A code, not a sentence: the reader sees it in their own language.
                ChannelStatus::Failed { reason: crate::i18n::FailureReason::CarrierRefused.code().to_string() }
            })
        })
    }

    /// The sandbox's own book: the orders it made succeed that day (by the time their
    /// result was ready), with the account and face value of the order it was handed and
    /// the cost it was handed at (it has no price list of its own); those reversed since
    /// (as the statement is asked for) listed as `reversed`, with the reason.
    fn statement<'a>(&'a self, date: &'a str) -> BoxFuture<'a, Result<Vec<StatementLine>, StatementError>> {
        Box::pin(async move {
            let (start, end) =
                beijing_day_bounds(date).ok_or_else(|| StatementError::Malformed(format!("not a date: {date}")))?;
            let rows: Vec<(String, String, i64, i64, String, Option<i64>)> = sqlx::query_as(
                "SELECT s.system_order_id, o.account, o.face_value_fen, a.cost_fen, s.serial_no, s.reversed_at
                 FROM sandbox_channel_orders s
                 JOIN order_attempts a ON a.upstream_order_id = s.system_order_id
                 JOIN channels c ON c.id = a.channel_id AND c.adapter = 'sandbox'
                 JOIN orders o ON o.id = a.order_id
                 WHERE s.succeeds = 1 AND s.ready_at >= $1 AND s.ready_at < $2
                 ORDER BY s.system_order_id LIMIT $3",
            )
            .bind(start)
            .bind(end)
            .bind(MAX_STATEMENT_LINES as i64 + 1)
            .fetch_all(&self.pool)
            .await
            .map_err(|error| StatementError::Unreachable(error.to_string()))?;
            if rows.len() > MAX_STATEMENT_LINES {
                return Err(StatementError::TooManyLines);
            }
            let now = now_millis();
            Ok(rows
                .into_iter()
                .map(|(upstream_order_id, account, face_value_fen, price_fen, serial_no, reversed_at)| {
                    let reversed = reversed_by(reversed_at, now);
                    StatementLine {
                        upstream_order_id,
                        account,
                        face_value_fen,
                        price_fen,
                        serial_no,
                        status: if reversed { "reversed" } else { "success" }.into(),
                        reason: if reversed { REVERSAL_REASON } else { "" }.into(),
                    }
                })
                .collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_stable_per_serial_number_and_need_the_key() {
        let key = crate::platform::crypto::Secrets::from_master_key(&[7; 32]);
        assert_eq!(card_for(&key, "SB1"), card_for(&key, "SB1"));
        assert_ne!(card_for(&key, "SB1"), card_for(&key, "SB2"));
        assert_eq!(card_for(&key, "SB1").number.len(), 16);
        assert_eq!(card_for(&key, "SB1").password.len(), 18);
        assert!(card_for(&key, "SB1").password.bytes().all(|b| b.is_ascii_digit()));
        // Without the key the serial number tells nothing: another key, another card.
        let other = crate::platform::crypto::Secrets::from_master_key(&[8; 32]);
        assert_ne!(card_for(&key, "SB1"), card_for(&other, "SB1"));
        // Nor is it the old unkeyed derivation (SHA-256 of purpose and serial).
        use sha2::{Digest, Sha256};
        let unkeyed: String =
            Sha256::digest(b"card-number:SB1").iter().take(16).map(|byte| char::from(b'0' + byte % 10)).collect();
        assert_ne!(card_for(&key, "SB1").number, unkeyed);
    }
}
