//! Telling a database that cannot take a call now from a fault of ours. During a failover
//! there is no primary for a few seconds: connections are cut, a standby (or a demoted
//! primary) refuses writes, new connections are refused or the pool waits in vain. Such a
//! call is answered 503 with `Retry-After`, never 500 and never as done or refused: what it
//! did is nothing or unknown (a commit cut short), and a retry with the same merchant order
//! id or `Idempotency-Key` answers the first call's result or does the work once.

/// Seconds a client waits before retrying: a failover manager promotes a standby in a few.
pub const RETRY_AFTER_SECONDS: u64 = 2;

/// SQLSTATEs of a PostgreSQL that cannot serve now: the connection was lost
/// (`outage::lost_state`: cut, shut down or crashed, no longer the primary), or there is no
/// room for one more connection (53300).
fn unavailable_state(code: &str) -> bool {
    crate::platform::db::outage::lost_state(code) || code == "53300"
}

/// Whether this database error says the database is away rather than that the call is wrong.
pub fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| unavailable_state(&code)),
        _ => false,
    }
}

/// Whether a statement's outcome is unknown: no answer came (the connection broke with the
/// statement on its way), so it may have been written. An error the database answered with
/// (even "terminating connection") says the statement did not complete.
pub fn outcome_unknown(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::Protocol(_))
}

/// Whether any cause of this error is a database that is away.
pub fn database_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.downcast_ref::<sqlx::Error>().is_some_and(is_unavailable))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_away_is_told_from_a_fault() {
        for away in ["08006", "08001", "25006", "57P01", "57P03", "53300"] {
            assert!(unavailable_state(away), "{away}");
        }
        // A unique violation, a serialization failure, a syntax error: faults or conflicts.
        for fault in ["23505", "40001", "42601", "5"] {
            assert!(!unavailable_state(fault), "{fault}");
        }
        let cut = anyhow::Error::from(sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset)));
        assert!(database_unavailable(&cut.context("placing an order")));
        assert!(database_unavailable(&anyhow::Error::from(sqlx::Error::PoolTimedOut)));
        assert!(!database_unavailable(&anyhow::Error::from(sqlx::Error::RowNotFound)));
        assert!(!database_unavailable(&anyhow::anyhow!("a fault of ours")));
    }

    #[test]
    fn only_a_missing_answer_leaves_a_statement_s_outcome_unknown() {
        let eof = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::UnexpectedEof));
        assert!(outcome_unknown(&eof));
        assert!(outcome_unknown(&sqlx::Error::Protocol("expected to read 5 bytes, got 0 bytes at EOF".into())));
        // Never sent (no connection), or answered: the statement did not complete.
        assert!(!outcome_unknown(&sqlx::Error::PoolTimedOut));
        assert!(!outcome_unknown(&sqlx::Error::RowNotFound));
    }
}
