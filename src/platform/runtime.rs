//! How many async worker threads `serve` runs.
//!
//! Tokio's default is one per core, and so is ours, but for PostgreSQL on this machine (a
//! loopback address or a Unix socket): then the server runs a worker fewer (at least one).
//! There the database's backends do most of an order's work, on the same cores, and a second
//! worker mostly costs wake-ups: an idle worker is woken whenever a task is rescheduled while
//! it runs, which hyper does once for every request with a body (reading the body wakes the
//! connection's own task), a thread woken on another core on the request's path: one worker
//! placed more orders than two there. SQLite keeps a worker per core: its reads run in the
//! server's own threads, and with one worker its lists fell below their target. The figures
//! are in `bench/README.md` ("Designs behind the figures"). `--worker-threads` overrides the
//! choice.

use crate::platform::db::DatabaseKind;
use sqlx::postgres::PgConnectOptions;
use std::net::IpAddr;
use std::str::FromStr;

/// The worker threads for `serve`: `chosen` if given, else one per core, less one for
/// PostgreSQL on this machine (at least one).
pub fn serve_workers(chosen: Option<usize>, database_url: &str, cores: usize) -> usize {
    match chosen {
        Some(workers) => workers.max(1),
        None if postgres_on_this_machine(database_url) => cores.saturating_sub(1).max(1),
        None => cores.max(1),
    }
}

/// The cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(usize::from).unwrap_or(1)
}

/// Whether the URL names PostgreSQL through a Unix socket or at a loopback address
/// (`localhost` included). An unreadable URL counts as elsewhere; connecting reports it.
pub fn postgres_on_this_machine(database_url: &str) -> bool {
    DatabaseKind::from_url(database_url).is_ok_and(|kind| kind == DatabaseKind::Postgres)
        && PgConnectOptions::from_str(database_url)
            .is_ok_and(|options| options.get_socket().is_some() || is_loopback(options.get_host()))
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_on_loopback_or_a_socket_is_on_this_machine() {
        for url in [
            "postgres://postgres@127.0.0.1:5432/backoffice",
            "postgres://postgres@127.0.0.2/backoffice",
            "postgresql://user:secret@localhost/backoffice",
            "postgres://user@LOCALHOST/backoffice",
            "postgres://user@[::1]:5432/backoffice",
            "postgres://user@localhost/backoffice?host=/var/run/postgresql",
            "postgres:///backoffice?host=/var/run/postgresql",
            "postgres://user@%2Fvar%2Frun%2Fpostgresql/backoffice",
        ] {
            assert!(postgres_on_this_machine(url), "{url}");
        }
    }

    #[test]
    fn postgres_elsewhere_sqlite_or_an_unreadable_url_is_not() {
        for url in [
            "postgres://user@db.internal:5432/backoffice",
            "postgres://user@10.0.0.5/backoffice",
            "postgres://user@[2001:db8::1]/backoffice",
            "sqlite://data/backoffice.db",
            "mysql://user@localhost/backoffice",
            "postgres://user@local host/backoffice",
        ] {
            assert!(!postgres_on_this_machine(url), "{url}");
        }
    }

    #[test]
    fn a_core_is_left_to_postgresql_here_and_a_choice_wins() {
        let (here, elsewhere, sqlite) = ("postgres://u@127.0.0.1/x", "postgres://u@db.internal/x", "sqlite://x.db");
        assert_eq!(serve_workers(None, here, 2), 1);
        assert_eq!(serve_workers(None, here, 8), 7);
        assert_eq!(serve_workers(None, here, 1), 1);
        assert_eq!(serve_workers(None, elsewhere, 2), 2);
        assert_eq!(serve_workers(None, sqlite, 2), 2);
        assert_eq!(serve_workers(None, sqlite, 0), 1);
        assert_eq!(serve_workers(Some(4), here, 2), 4);
        assert_eq!(serve_workers(Some(0), elsewhere, 2), 1);
    }
}
