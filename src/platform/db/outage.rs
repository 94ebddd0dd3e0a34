//! Pooled PostgreSQL connections that a failover broke. When the primary dies, every
//! connection the pool holds to it is dead (HAProxy cuts them as it marks the node down),
//! but sqlx finds a dead connection only when a statement uses it, so each one would cost
//! a call its answer (a 503) after the new primary is up. Instead, the first error that
//! says a connection was lost (from any call, any background pass, or `/readyz`, which the
//! proxy asks every second) is noted here, and the pool then drops, unused, every
//! connection opened before it (`Database::connect`'s `before_acquire`): they are replaced
//! by new ones to whichever node is the primary now.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Milliseconds after `base()` of the latest loss noted, plus one (0: none yet).
static LOST_AT: AtomicU64 = AtomicU64::new(0);

fn base() -> Instant {
    static BASE: OnceLock<Instant> = OnceLock::new();
    *BASE.get_or_init(Instant::now)
}

/// Whether this error says the connection itself is gone (cut, reset, the server shut down
/// or crashed, or it is no longer the primary). Not a pool timeout: under load that says
/// the pool is busy, and dropping every connection then would only make it busier.
pub fn connection_lost(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| lost_state(&code)),
        _ => false,
    }
}

/// SQLSTATEs of a lost connection. Class 08: connection exceptions. 25006: read-only
/// transaction (a standby, or a primary demoted under us). 57P01-57P03: shut down by an
/// administrator or a crash, or starting and not accepting connections yet.
pub fn lost_state(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "25006" | "57P01" | "57P02" | "57P03")
}

/// Notes a lost connection if this error (or any of its causes) says so.
pub fn note(error: &anyhow::Error) {
    if error.chain().any(|cause| cause.downcast_ref::<sqlx::Error>().is_some_and(connection_lost)) {
        note_now();
    }
}

/// Notes a lost connection if this database error says so.
pub fn note_sqlx(error: &sqlx::Error) {
    if connection_lost(error) {
        note_now();
    }
}

/// Logs a background pass (the order worker's, the notifications') that failed; the task
/// tries again at its next pass. A database that is away is expected during a failover and
/// said once as such (a warning); anything else is an error.
pub fn pass_failed(error: &anyhow::Error, pass: &'static str) {
    let away = error.chain().any(|cause| {
        cause
            .downcast_ref::<sqlx::Error>()
            .is_some_and(|error| connection_lost(error) || matches!(error, sqlx::Error::PoolTimedOut))
    });
    if away {
        note_now();
        tracing::warn!(error = %format!("{error:#}"), pass, "database unavailable: the pass is tried again");
    } else {
        tracing::error!(error = %format!("{error:#}"), "{pass}");
    }
}

fn note_now() {
    let since = u64::try_from(base().elapsed().as_millis()).unwrap_or(u64::MAX - 1);
    LOST_AT.fetch_max(since + 1, Ordering::Relaxed);
}

/// Whether a connection of this age was opened before the latest loss noted (and so may be
/// one of those the failover broke).
pub fn opened_before_loss(age: Duration) -> bool {
    let lost = LOST_AT.load(Ordering::Relaxed);
    if lost == 0 {
        return false;
    }
    let lost_at = base() + Duration::from_millis(lost - 1);
    Instant::now().checked_sub(age).is_some_and(|opened| opened < lost_at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_opened_before_a_loss_are_marked_and_later_ones_are_not() {
        let io = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        // A busy pool is no lost connection.
        assert!(!connection_lost(&sqlx::Error::PoolTimedOut));
        assert!(!connection_lost(&sqlx::Error::RowNotFound));
        assert!(connection_lost(&io));
        note(&anyhow::Error::from(io).context("placing an order"));
        // Opened an hour ago: before the loss just noted. Opened now: after it.
        assert!(opened_before_loss(Duration::from_secs(3600)));
        // The loss is kept to the millisecond, rounded down: a connection opened now is after it.
        assert!(!opened_before_loss(Duration::ZERO));
    }
}
