//! One storage layer for SQLite and PostgreSQL through sqlx's `Any` driver.
//!
//! Queries are written once in the SQL both engines share: `$1` placeholders (SQLite
//! accepts them too), `RETURNING`, `ON CONFLICT`, integers for time (unix milliseconds)
//! and flags. Where the engines differ is gathered in `dialect.rs`; each engine has its
//! own migration folder with the same numbered steps.

pub mod checkpoint;
pub mod dialect;
pub mod first_statistics;
pub mod outage;

use anyhow::Context;
use sqlx::AnyPool;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::migrate::Migrator;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/postgres");
/// How long `Database::close` waits for the connections (a clean close takes milliseconds).
const CLOSE_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DatabaseKind {
    Sqlite,
    Postgres,
}

impl DatabaseKind {
    pub fn from_url(url: &str) -> anyhow::Result<Self> {
        if url.starts_with("sqlite:") {
            Ok(DatabaseKind::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(DatabaseKind::Postgres)
        } else {
            anyhow::bail!("unsupported database URL: expected sqlite://PATH or postgres://...")
        }
    }

    /// The engine behind a connection.
    pub fn of(connection: &sqlx::AnyConnection) -> Self {
        if connection.backend_name() == "PostgreSQL" { DatabaseKind::Postgres } else { DatabaseKind::Sqlite }
    }

    pub fn name(self) -> &'static str {
        match self {
            DatabaseKind::Sqlite => "sqlite",
            DatabaseKind::Postgres => "postgres",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Database {
    /// Reads and small single-statement writes.
    pub pool: AnyPool,
    /// Where `begin_write` transactions run. On SQLite one connection: SQLite admits one
    /// writer at a time anyway, so writers queue here instead of spinning on the file
    /// lock, and the writer's page cache stays warm (a connection throws its cache away
    /// whenever another connection has written). On PostgreSQL the same pool as `pool`.
    write_pool: AnyPool,
    pub kind: DatabaseKind,
    /// SQLite: the task that checkpoints the WAL beside the writer (`checkpoint.rs`).
    checkpointer: Option<Arc<checkpoint::Checkpointer>>,
}

/// Settings of every SQLite connection.
///
/// WAL lets readers work while one writer commits; the busy timeout makes writers queue
/// instead of failing at once. synchronous = NORMAL: in WAL mode a commit is not synced
/// to disk on its own (the WAL is synced at checkpoints), so a power cut may lose the
/// last moments of transactions, whole: the database stays consistent and every money
/// movement stays paired with its log record. A crash of the process loses nothing.
/// Without it each order costs an fsync (about 400 orders/s instead of thousands);
/// PostgreSQL is the choice where every commit must survive a power cut. (Memory-mapped
/// I/O was measured slower: the map is redone as the file grows.) Checkpoints every
/// 10,000 pages (about 40 MB of WAL) rather than 1,000: the pages every order touches (the
/// ends of the indexes, the account, the counters) are copied into the file once per
/// checkpoint, so fewer checkpoints copy fewer pages; orders one by one ran 15% faster.
/// That threshold is the backstop: `checkpoint.rs` copies the WAL in small steps beside the
/// writer, so commits no longer wait for a checkpoint.
const SQLITE_PRAGMAS: [&str; 5] = [
    "PRAGMA wal_autocheckpoint = 10000",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
];
/// The writer's page cache (16 MB): it keeps the pages every order touches. Readers keep
/// SQLite's default (2 MB): their cache is dropped whenever the writer commits anyway.
const SQLITE_WRITER_CACHE: &str = "PRAGMA cache_size = -16384";

/// A PostgreSQL connection idle this long is pinged before it is used again.
const IDLE_BEFORE_PING: Duration = Duration::from_secs(5);

fn sqlite_pool_options(max_connections: u32, acquire_timeout: Duration, writer: bool) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(max_connections)
        // A ping before every use would double the round trips to SQLite's connection
        // thread; a local file does not go stale like a socket.
        .test_before_acquire(false)
        .acquire_timeout(acquire_timeout)
        .after_connect(move |connection, _| {
            Box::pin(async move {
                for pragma in SQLITE_PRAGMAS {
                    sqlx::query(pragma).execute(&mut *connection).await?;
                }
                if writer {
                    sqlx::query(SQLITE_WRITER_CACHE).execute(&mut *connection).await?;
                }
                Ok(())
            })
        })
}

impl Database {
    /// Connects, applies the engine's pragmas and runs pending migrations.
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        install_default_drivers();
        let kind = DatabaseKind::from_url(url)?;
        let (pool, write_pool) = match kind {
            DatabaseKind::Sqlite => {
                let url = prepare_sqlite_url(url)?;
                let pool = sqlite_pool_options(8, Duration::from_secs(10), false)
                    .connect(&url)
                    .await
                    .context("cannot open the SQLite database")?;
                // Writers wait their turn here; a 100,000-row batch holds the turn for
                // seconds, so the wait may be long.
                let write_pool = sqlite_pool_options(1, Duration::from_secs(60), true)
                    .connect(&url)
                    .await
                    .context("cannot open the SQLite database")?;
                (pool, write_pool)
            }
            DatabaseKind::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(16)
                    // sqlx closes a connection idle for 10 minutes; without a floor the first
                    // list after a quiet spell waited for new connections (a page and its
                    // total walking rows use two), 3–10 ms against about 1 ms warm
                    // (bench/README.md). Two stay open, replaced by the pool when reaped.
                    .min_connections(2)
                    .acquire_timeout(Duration::from_secs(10))
                    // sqlx pings every connection it hands out, a round trip before each
                    // statement or transaction (a sixth of an order's time, one client). Only
                    // a connection idle for a while can have been dropped by the server or a
                    // proxy, so only such a one is pinged.
                    .test_before_acquire(false)
                    .before_acquire(|connection, meta| {
                        Box::pin(async move {
                            if meta.idle_for > IDLE_BEFORE_PING {
                                sqlx::Connection::ping(connection).await?;
                            }
                            Ok(true)
                        })
                    })
                    .connect(url)
                    .await
                    .context("cannot connect to PostgreSQL")?;
                (pool.clone(), pool)
            }
        };
        let migrator = match kind {
            DatabaseKind::Sqlite => &SQLITE_MIGRATIONS,
            DatabaseKind::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&pool).await.context("database migration failed")?;
        let checkpointer = match kind {
            DatabaseKind::Sqlite => Some(Arc::new(
                checkpoint::start(&prepare_sqlite_url(url)?, &SQLITE_PRAGMAS)
                    .await
                    .context("cannot open the SQLite database")?,
            )),
            DatabaseKind::Postgres => None,
        };
        Ok(Self { pool, write_pool, kind, checkpointer })
    }
}

impl Database {
    /// The newest migration this build knows for its engine (`/readyz` compares).
    pub fn latest_migration(&self) -> i64 {
        let migrator = match self.kind {
            DatabaseKind::Sqlite => &SQLITE_MIGRATIONS,
            DatabaseKind::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.iter().map(|migration| migration.version).max().unwrap_or(0)
    }

    /// Closes the pools, waiting at most `CLOSE_GRACE` for their connections to come back.
    /// sqlx's close waits for every place in a pool, and a place the pool is filling (it
    /// keeps two PostgreSQL connections open) stays taken for up to five minutes while the
    /// server refuses connections: with PostgreSQL gone, a stop would hang that long.
    /// Whatever is still open when the process exits is closed with it.
    pub async fn close(&self) {
        let pools = async {
            self.pool.close().await;
            // On PostgreSQL the write pool is the same pool.
            if self.kind == DatabaseKind::Sqlite {
                self.write_pool.close().await;
            }
        };
        if tokio::time::timeout(CLOSE_GRACE, pools).await.is_err() {
            tracing::warn!(grace = ?CLOSE_GRACE, "database connections not all closed at shutdown; not waited for");
        }
    }

    /// SQLite: what the background checkpoints have done (None on PostgreSQL).
    pub fn checkpoints(&self) -> Option<&checkpoint::CheckpointStats> {
        self.checkpointer.as_deref().map(|checkpointer| &*checkpointer.stats)
    }

    /// For a single write statement outside a transaction (SQLite: the one write
    /// connection, so it queues with the other writes instead of waiting on the file lock
    /// beside them, and never stalls the group writer's `BEGIN IMMEDIATE`).
    pub fn writer(&self) -> &AnyPool {
        &self.write_pool
    }

    /// Begins a transaction that will write. On SQLite it takes the write lock up front
    /// (`BEGIN IMMEDIATE`): a deferred transaction that reads first and writes later fails
    /// with SQLITE_BUSY when another writer got in between, instead of waiting. PostgreSQL
    /// has no such statement and needs none: its writers lock rows.
    pub async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.kind {
            DatabaseKind::Sqlite => self.write_pool.begin_with(dialect::SQLITE_BEGIN_WRITE).await,
            DatabaseKind::Postgres => self.write_pool.begin().await,
        }
    }
}

/// SQLite only: a write transaction in two hops to the connection thread instead of four:
/// `BEGIN IMMEDIATE` travels with the first statement and `COMMIT` with the last batch.
/// Dropped before it ends (an early return, or the request's task cancelled), it closes
/// its connection instead of returning it to the pool, and closing rolls back.
pub struct SqliteWrite {
    connection: sqlx::pool::PoolConnection<sqlx::Any>,
    open: bool,
}

impl Database {
    pub async fn sqlite_write(&self) -> Result<SqliteWrite, sqlx::Error> {
        debug_assert_eq!(self.kind, DatabaseKind::Sqlite);
        Ok(SqliteWrite { connection: self.write_pool.acquire().await?, open: false })
    }
}

impl SqliteWrite {
    pub fn connection(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.connection
    }

    /// The first statement's text, opening the transaction. From here on the
    /// transaction counts as open, even if the statement never runs.
    pub fn begin_with(&mut self, sql: &str) -> String {
        self.open = true;
        format!("{};\n{sql}", dialect::SQLITE_BEGIN_WRITE)
    }

    /// Runs the batch and commits in the same hop; on failure rolls back.
    pub async fn commit_with(mut self, mut batch: crate::platform::sql::StatementBatch) -> Result<(), sqlx::Error> {
        batch.push("COMMIT".to_string(), Vec::new());
        match batch.execute(&mut self.connection).await {
            Ok(()) => {
                self.open = false;
                Ok(())
            }
            Err(error) => {
                self.rollback().await;
                Err(error)
            }
        }
    }

    /// Runs the batch as a whole transaction in one hop
    /// ([`crate::platform::sql::StatementBatch::execute_sqlite_transaction`]); on failure rolls it back.
    /// Should the rollback fail too, the connection is closed when this is dropped rather
    /// than given back with a transaction open.
    pub async fn run_in_one_hop(&mut self, batch: crate::platform::sql::StatementBatch) -> Result<(), sqlx::Error> {
        self.open = true;
        let result = batch.execute_sqlite_transaction(&mut self.connection, dialect::SQLITE_BEGIN_WRITE).await;
        // A text stopped at its BEGIN (the file locked elsewhere for longer than the busy
        // timeout) has no transaction to roll back: that ROLLBACK fails, and the connection
        // is closed, which costs a reconnection and nothing else.
        let closed = result.is_ok() || sqlx::query("ROLLBACK").execute(&mut *self.connection).await.is_ok();
        self.open = !closed;
        result
    }

    pub async fn rollback(mut self) {
        if sqlx::query("ROLLBACK").execute(&mut *self.connection).await.is_ok() {
            self.open = false;
        }
    }
}

impl Drop for SqliteWrite {
    fn drop(&mut self) {
        if self.open {
            self.connection.close_on_drop();
        }
    }
}

/// Creates the file's folder and asks SQLite to create the file if it is missing.
fn prepare_sqlite_url(url: &str) -> anyhow::Result<String> {
    let rest = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let (path, query) = match rest.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (rest, None),
    };
    if path.is_empty() {
        anyhow::bail!("the SQLite URL has no file path");
    }
    if let Some(parent) = Path::new(path).parent().filter(|parent| !parent.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create the folder {}", parent.display()))?;
    }
    Ok(match query {
        Some(query) if query.contains("mode=") => format!("sqlite://{path}?{query}"),
        Some(query) => format!("sqlite://{path}?{query}&mode=rwc"),
        None => format!("sqlite://{path}?mode=rwc"),
    })
}

/// Now, in unix milliseconds: the one time representation in storage.
pub fn now_millis() -> i64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
}

/// RFC 3339 text for a stored time, as the API shows it.
pub fn millis_to_rfc3339(millis: i64) -> String {
    let nanos = i128::from(millis) * 1_000_000;
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|moment| moment.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_gain_create_mode() {
        assert_eq!(prepare_sqlite_url("sqlite://relative.db").unwrap(), "sqlite://relative.db?mode=rwc");
        assert_eq!(prepare_sqlite_url("sqlite://x.db?cache=shared").unwrap(), "sqlite://x.db?cache=shared&mode=rwc");
        assert_eq!(prepare_sqlite_url("sqlite://x.db?mode=ro").unwrap(), "sqlite://x.db?mode=ro");
        assert!(prepare_sqlite_url("sqlite://").is_err());
    }

    #[test]
    fn kinds_come_from_the_scheme() {
        assert_eq!(DatabaseKind::from_url("sqlite://a.db").unwrap(), DatabaseKind::Sqlite);
        assert_eq!(DatabaseKind::from_url("postgres://u@h/db").unwrap(), DatabaseKind::Postgres);
        assert!(DatabaseKind::from_url("mysql://u@h/db").is_err());
    }

    /// `.cargo/config.toml` builds the bundled SQLite without memory statistics (a mutex on
    /// every allocation, which readers queued on). A build that loses the setting fails here.
    #[tokio::test]
    async fn sqlite_is_built_without_memory_statistics() {
        use sqlx::Connection;
        let mut connection = sqlx::SqliteConnection::connect("sqlite::memory:").await.unwrap();
        let options: Vec<String> =
            sqlx::query_scalar("PRAGMA compile_options").fetch_all(&mut connection).await.unwrap();
        assert!(options.iter().any(|option| option == "DEFAULT_MEMSTATUS=0"), "{options:?}");
    }

    #[test]
    fn times_render_as_rfc3339() {
        assert_eq!(millis_to_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(millis_to_rfc3339(1_500), "1970-01-01T00:00:01.5Z");
    }
}
