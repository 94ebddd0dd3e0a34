//! Telling a lost PostgreSQL connection (a failover: cut, shut down, no longer the primary)
//! from a fault, for the 503 answers (`http::unavailable`) and the background passes' logs.

/// Whether this error says the connection itself is gone (cut, reset, the server shut down
/// or crashed, or it is no longer the primary). Not a pool timeout: under load that says
/// the pool is busy.
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

/// Logs a background pass (the order worker's, the notifications') that failed; the task
/// tries again at its next pass. A database that is away is expected during a failover and
/// said as such (a warning); anything else is an error.
pub fn pass_failed(error: &anyhow::Error, pass: &'static str) {
    let away = error.chain().any(|cause| {
        cause
            .downcast_ref::<sqlx::Error>()
            .is_some_and(|error| connection_lost(error) || matches!(error, sqlx::Error::PoolTimedOut))
    });
    if away {
        tracing::warn!(error = %format!("{error:#}"), pass, "database unavailable: the pass is tried again");
    } else {
        tracing::error!(error = %format!("{error:#}"), "{pass}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_connection_is_told_from_a_busy_pool_and_a_fault() {
        assert!(connection_lost(&sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset))));
        assert!(!connection_lost(&sqlx::Error::PoolTimedOut));
        assert!(!connection_lost(&sqlx::Error::RowNotFound));
        for lost in ["08006", "25006", "57P01"] {
            assert!(lost_state(lost), "{lost}");
        }
        for fault in ["23505", "40001", "53300"] {
            assert!(!lost_state(fault), "{fault}");
        }
    }
}
