//! Throttling of failed sign-ins, per account and per client address.
//!
//! Counters live in the database, so they hold across restarts and across several
//! server processes. A counter counts failures inside a window; reaching the maximum
//! locks its key until the lockout has passed. While locked, no password is checked at
//! all, so a locked account cannot be probed.
//!
//! The lock must not become a weapon against the account's owner: an address that
//! signed into the account in the last 30 days (`login_known_addresses`) counts its
//! failures under its own key, `account:<name>@<address>`, so failures sprayed from
//! elsewhere do not lock it out (its own failures still lock it, as its address counter
//! does). Attempts refused while a key is locked are counted in `refused`, and only the
//! first refusal of a lock is written to the audit trail, so the trail cannot be flooded.
//!
//! A burst of parallel attempts cannot get more evaluations than the limit: an attempt
//! is counted *before* its password is checked ([`reserve`]), in one atomic statement,
//! and attempts counted beyond the limit are refused unchecked; a success then forgives
//! the count ([`clear`]).
//!
//! Client addresses are counted whole for IPv4 and per /64 for IPv6 (`forwarded`).
//!
//! Two-factor codes use the same counters under one key per user, `two_factor:<id>`
//! (see `two_factor::verification`), with `two_factor_max_failures` as the limit. Before
//! that limit they also back off: past `two_factor_free_failures`, each failure makes the
//! user wait `two_factor_backoff`, doubled per further failure, before the next code.

use crate::http::error::AppError;
use crate::identity::session::duration_millis;
use crate::platform::config::ThrottlePolicy;
use crate::platform::db::now_millis;
use sqlx::AnyPool;

pub fn account_key(username: &str) -> String {
    format!("account:{}", username.to_lowercase())
}

pub fn address_key(address: std::net::IpAddr) -> String {
    format!("address:{}", crate::platform::forwarded::throttle_scope(address))
}

/// The account's counter for attempts from an address it signed in from recently.
pub fn known_address_account_key(username: &str, address_key: &str) -> String {
    format!("{}@{}", account_key(username), address_key.trim_start_matches("address:"))
}

/// How long a successful sign-in keeps an address known to the account.
pub const KNOWN_ADDRESS_DAYS: i64 = 30;

/// Whether `user_id` signed in successfully from this address in the last 30 days.
pub async fn is_known_address(pool: &AnyPool, user_id: i64, address_key: &str) -> Result<bool, AppError> {
    let since = now_millis() - KNOWN_ADDRESS_DAYS * 24 * 3600 * 1000;
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT last_success_at FROM login_known_addresses WHERE user_id = $1 AND address_key = $2 AND last_success_at >= $3",
    )
    .bind(user_id)
    .bind(address_key)
    .bind(since)
    .fetch_optional(pool)
    .await?;
    Ok(found.is_some())
}

/// Remembers a successful sign-in's address for the account.
pub async fn remember_address<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    user_id: i64,
    address_key: &str,
) -> Result<(), AppError> {
    sqlx::query(
        "INSERT INTO login_known_addresses (user_id, address_key, last_success_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, address_key) DO UPDATE SET last_success_at = excluded.last_success_at",
    )
    .bind(user_id)
    .bind(address_key)
    .bind(now_millis())
    .execute(executor)
    .await?;
    Ok(())
}

/// Counts one attempt against `key` before it is evaluated. `Err` (too many attempts)
/// when the limit was already reached by earlier or parallel attempts: do not evaluate.
/// `Ok` carries the count; if it locked the key, a failed evaluation answers with it.
pub async fn reserve(
    pool: &AnyPool,
    policy: &ThrottlePolicy,
    key: &str,
    max_failures: u32,
) -> Result<CountedFailure, AppError> {
    let counted = record_failure(pool, policy, key, max_failures).await?;
    if counted.failures > i64::from(max_failures) {
        count_refusals(pool, &[key.to_string()]).await?;
        return Err(AppError::TooManyAttempts { retry_after_seconds: counted.locked_for.unwrap_or(1) });
    }
    Ok(counted)
}

/// Checks a signed-in user's current password (changing the password or the profile,
/// turning two-factor on), throttled like sign-in under `reauth:<user id>`: a stolen
/// session cannot guess the password without limit, and each guess costs an argon2
/// hash. `Ok(false)`: wrong; `Err`: too many attempts (this one may have locked it).
pub async fn verify_current_password(
    pool: &AnyPool,
    policy: &ThrottlePolicy,
    hasher: &crate::platform::password::PasswordHasher,
    user_id: i64,
    password: &str,
) -> Result<bool, AppError> {
    let key = format!("reauth:{user_id}");
    ensure_not_locked(pool, std::slice::from_ref(&key)).await?;
    let reserved = reserve(pool, policy, &key, policy.account_max_failures).await?;
    let stored: String =
        sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1").bind(user_id).fetch_one(pool).await?;
    // Never hash unbounded input: argon2's cost grows with it.
    let verified = password.chars().count() <= crate::platform::password::MAX_PASSWORD_LENGTH
        && hasher.verify(password, Some(&stored)).await?;
    if verified {
        clear(pool, &key).await?;
        return Ok(true);
    }
    match reserved.locked_for {
        Some(retry_after_seconds) => Err(AppError::TooManyAttempts { retry_after_seconds }),
        None => Ok(false),
    }
}

/// Counts attempts refused unchecked because a key is locked. Returns true for the
/// first refusal of a lock: that one is worth an audit row, the rest are a number.
pub async fn count_refusals(pool: &AnyPool, keys: &[String]) -> Result<bool, AppError> {
    let now = now_millis();
    let mut first = false;
    for key in keys {
        let refused: Option<i64> = sqlx::query_scalar(
            "UPDATE login_throttle SET refused = refused + 1 WHERE throttle_key = $1 AND locked_until > $2 RETURNING refused",
        )
        .bind(key)
        .bind(now)
        .fetch_optional(pool)
        .await?;
        first |= refused == Some(1);
    }
    Ok(first)
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
             THEN $4 ELSE login_throttle.locked_until END,
           refused = CASE
             WHEN (CASE WHEN login_throttle.window_started_at < $5 THEN 1 ELSE login_throttle.failures + 1 END) = $3
             THEN 0 ELSE login_throttle.refused END
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
        let local = std::net::IpAddr::from([127, 0, 0, 1]);
        assert_eq!(address_key(local), "address:127.0.0.1");
        assert_ne!(account_key("127.0.0.1"), address_key(local));
        assert_eq!(known_address_account_key("Admin", &address_key(local)), "account:admin@127.0.0.1");
        let v6: std::net::IpAddr = "2001:db8:0:1:2:3:4:5".parse().unwrap();
        assert_eq!(address_key(v6), "address:2001:db8:0:1::/64");
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
