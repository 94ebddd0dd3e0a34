//! SQLite: WAL checkpoints beside the writer instead of inside its commits.
//!
//! In WAL mode a commit appends the pages it changed to the WAL, and a checkpoint copies
//! them back into the database file and syncs both. SQLite's own checkpoint runs inside the
//! commit that takes the WAL past `wal_autocheckpoint` pages, so that commit, and every
//! request of its group, waits for the whole copy: about 25 ms once every 400 orders placed
//! one by one (bench/README.md). Here a task on a connection of its own checkpoints
//! (PASSIVE: it never waits for a reader or the writer) every few milliseconds while pages
//! keep coming. The WAL is then copied in small steps on the other core, and the writer's
//! next commit starts it again from its beginning once it is all copied. The writer's own
//! checkpoint stays as the backstop should this one fall behind; a reader holding an old
//! snapshot holds both back alike.

use sqlx::{AnyConnection, Connection, Row};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// While the WAL grows: at about 2,000 orders a second one by one, some 800 pages a step.
const BUSY_INTERVAL: Duration = Duration::from_millis(20);
/// An idle database is looked at less often, down to ten times a second: writes that start
/// again fill the writer's 10,000 pages in about 200 ms (one client placing orders, or 64),
/// and the first step has to come before that.
const IDLE_INTERVAL: Duration = Duration::from_millis(100);

/// What the task has done (`/metrics`).
#[derive(Debug, Default)]
pub struct CheckpointStats {
    /// Checkpoints that found the WAL changed since the one before.
    active: AtomicU64,
    /// The WAL's length in pages at the last checkpoint.
    wal_pages: AtomicU64,
}

impl CheckpointStats {
    /// (checkpoints that found new pages, pages in the WAL at the last one)
    pub fn read(&self) -> (u64, u64) {
        (self.active.load(Ordering::Relaxed), self.wal_pages.load(Ordering::Relaxed))
    }
}

/// The running task; stops when the last clone of its `Database` is dropped.
#[derive(Debug)]
pub struct Checkpointer {
    task: tokio::task::JoinHandle<()>,
    pub stats: Arc<CheckpointStats>,
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Opens the task's connection (with the other connections' settings) and starts it.
pub async fn start(url: &str, pragmas: &[&'static str]) -> Result<Checkpointer, sqlx::Error> {
    let mut connection = AnyConnection::connect(url).await?;
    for pragma in pragmas {
        sqlx::query(*pragma).execute(&mut connection).await?;
    }
    let stats = Arc::new(CheckpointStats::default());
    let task = tokio::spawn(run(connection, stats.clone()));
    Ok(Checkpointer { task, stats })
}

async fn run(mut connection: AnyConnection, stats: Arc<CheckpointStats>) {
    let mut interval = BUSY_INTERVAL;
    // (pages in the WAL, pages of it copied) as the last checkpoint left them.
    let mut last = (0i64, 0i64);
    loop {
        tokio::time::sleep(interval).await;
        let seen = match checkpoint(&mut connection).await {
            Ok(seen) => seen,
            Err(error) => {
                // The writer's own checkpoint still runs; try again later.
                tracing::warn!(%error, "background WAL checkpoint failed");
                interval = IDLE_INTERVAL;
                continue;
            }
        };
        // Unchanged, or just started again by the writer with nothing in it yet.
        if seen == last || seen.0 == 0 {
            interval = (interval * 2).min(IDLE_INTERVAL);
        } else {
            stats.active.fetch_add(1, Ordering::Relaxed);
            interval = BUSY_INTERVAL;
        }
        stats.wal_pages.store(u64::try_from(seen.0).unwrap_or(0), Ordering::Relaxed);
        last = seen;
    }
}

/// One passive checkpoint: (pages in the WAL, pages of it now copied into the file).
async fn checkpoint(connection: &mut AnyConnection) -> Result<(i64, i64), sqlx::Error> {
    let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(connection).await?;
    Ok((row.try_get(1)?, row.try_get(2)?))
}
