//! Throttling of failed sign-ins, per account and per client address.
//!
//! Counters live in the database, so they hold across restarts and across several
//! server processes. A counter counts failures inside a window; reaching the maximum
//! locks its key until the lockout has passed. While locked, no password is checked at
//! all, so a locked account cannot be probed.
//!
//! Two-factor codes use the same counters under one key per user, `two_factor:<id>`
//! (see `two_factor::verification`), with `two_factor_max_failures` as the limit. Before
//! that limit they also back off: past `two_factor_free_failures`, each failure makes the
//! user wait `two_factor_backoff`, doubled per further failure, before the next code.

use crate::config::ThrottlePolicy;
use crate::db::now_millis;
use crate::error::AppError;
use crate::session::duration_millis;
use sqlx::AnyPool;

pub fn account_key(username: &str) -> String {
    format!("account:{}", username.to_lowercase())
}

pub fn address_key(address: &str) -> String {
    format!("address:{address}")
}

/// Fails with "too many attempts" if any of `keys` is locked now.
pub async fn ensure_not_locked(pool: &AnyPool, keys: &[String]) -> Result<(), AppError> {
    let now = now_millis();
    let mut latest_unlock = 0i64;
    for key in keys {
        let locked_until: Option<i64> =
            sqlx::query_scalar("SELECT locked_until FROM login_throttle WHERE throttle_key = $1")
                .bind(key)
                .fetch_optional(pool)
                .await?;
        if let Some(until) = locked_until.filter(|until| *until > now) {
            latest_unlock = latest_unlock.max(until);
        }
    }
    if latest_unlock > now {
        let seconds = u64::try_from((latest_unlock - now + 999) / 1000).unwrap_or(1);
        return Err(AppError::TooManyAttempts { retry_after_seconds: seconds.max(1) });
    }
    Ok(())
}

/// A failure just counted.
#[derive(Debug, Clone, Copy)]
pub struct CountedFailure {
    /// Failures of the key in its current window, this one included.
    pub failures: i64,
    /// The seconds to wait, if this failure locked the key.
    pub locked_for: Option<u64>,
}

/// Counts one failure against `key`.
pub async fn record_failure(
    pool: &AnyPool,
    policy: &ThrottlePolicy,
    key: &str,
    max_failures: u32,
) -> Result<CountedFailure, AppError> {
    let now = now_millis();
    let window_start_cutoff = now - duration_millis(policy.window);
    let lock_until = now + duration_millis(policy.lockout);
    // One statement, so parallel failures cannot lose a count: a window that has ended
    // starts again at 1; reaching the maximum sets the lock.
    let (failures, locked_until): (i64, i64) = sqlx::query_as(
        "INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until)
         VALUES ($1, 1, $2, CASE WHEN 1 >= $3 THEN $4 ELSE 0 END)
         ON CONFLICT (throttle_key) DO UPDATE SET
           failures = CASE WHEN login_throttle.window_started_at < $5 THEN 1 ELSE login_throttle.failures + 1 END,
           window_started_at = CASE WHEN login_throttle.window_started_at < $5 THEN $2 ELSE login_throttle.window_started_at END,
           locked_until = CASE
             WHEN (CASE WHEN login_throttle.window_started_at < $5 THEN 1 ELSE login_throttle.failures + 1 END) >= $3
             THEN $4 ELSE login_throttle.locked_until END
         RETURNING failures, locked_until",
    )
    .bind(key)
    .bind(now)
    .bind(i64::from(max_failures))
    .bind(lock_until)
    .bind(window_start_cutoff)
    .fetch_one(pool)
    .await?;
    let locked_for = (failures >= i64::from(max_failures) && locked_until > now)
        .then(|| u64::try_from((locked_until - now + 999) / 1000).unwrap_or(1).max(1));
    Ok(CountedFailure { failures, locked_for })
}

/// The wait after the `failures`-th failure that did not lock: none while the failures
/// are within `free`, then `backoff`, doubling per further failure (capped at 2^10).
pub fn backoff_after(failures: i64, free: u32, backoff: std::time::Duration) -> std::time::Duration {
    let beyond = failures - i64::from(free);
    if beyond <= 0 {
        return std::time::Duration::ZERO;
    }
    backoff.saturating_mul(1u32 << (beyond - 1).min(10))
}

/// Makes `key` wait `wait` from now (never shortens a longer lock already set).
pub async fn hold_off(pool: &AnyPool, key: &str, wait: std::time::Duration) -> Result<(), AppError> {
    if wait.is_zero() {
        return Ok(());
    }
    let until = now_millis() + duration_millis(wait);
    sqlx::query("UPDATE login_throttle SET locked_until = $2 WHERE throttle_key = $1 AND locked_until < $2")
        .bind(key)
        .bind(until)
        .execute(pool)
        .await?;
    Ok(())
}

/// A successful sign-in forgives the account's earlier failures. The address counter
/// stays: one success must not hide a spray of guesses at other accounts.
pub async fn clear(pool: &AnyPool, key: &str) -> Result<(), AppError> {
    sqlx::query("DELETE FROM login_throttle WHERE throttle_key = $1").bind(key).execute(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_accounts_from_addresses_and_ignore_case() {
        assert_eq!(account_key("Merchant"), "account:merchant");
        assert_eq!(address_key("127.0.0.1"), "address:127.0.0.1");
        assert_ne!(account_key("127.0.0.1"), address_key("127.0.0.1"));
    }

    #[test]
    fn backoff_starts_after_the_free_failures_and_doubles() {
        let five = std::time::Duration::from_secs(5);
        let waits: Vec<u64> = (0..=5).map(|failures| backoff_after(failures, 2, five).as_secs()).collect();
        assert_eq!(waits, [0, 0, 0, 5, 10, 20]);
        assert_eq!(backoff_after(1_000, 2, five), five * 1024);
        assert!(backoff_after(9, 0, std::time::Duration::ZERO).is_zero());
    }
}
