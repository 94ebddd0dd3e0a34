//! PostgreSQL: a fresh database's first planner statistics, as soon as its busy tables have
//! rows, instead of up to a minute later.
//!
//! Our statements are prepared once per connection, and PostgreSQL soon plans a prepared
//! statement once for all values (a generic plan), from the statistics at hand. On a fresh
//! database there are none, and a table with no rows gives every index the same cost: the
//! look-up of a run's merchant order ids (`orders/placement/run.rs`) then took the last index made
//! that starts with the merchant id, `orders_merchant_account`, not the unique key, and
//! walked every order of the merchant at each run (one client's orders a sixth as fast,
//! bench/README.md). Plans are made again once their tables have
//! statistics, which autovacuum first gathers up to a minute (`autovacuum_naptime`) after the
//! rows came. Here the server analyses each table every order writes to once it has
//! had [`ROWS`] rows written with no statistics yet; every connection's plans on it are
//! then made again from them. A table is analysed here once at most: should `ANALYZE` be
//! refused (a role that does not own the table only gets a warning), it is not tried again.
//! The task ends when every such table has statistics or has been tried: on a database in
//! use, at its first look.

use super::Database;
use std::collections::HashSet;
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::watch;

/// The tables every order writes to, whose statements run all day: the same that a bulk
/// load of orders analyses after itself (`orders/generate.rs`). Tables that fill in bulk
/// only now and then (a batch's lines) are left to autovacuum: analysed here in the middle
/// of a 100,000-line batch, the batch's submit took 5.18 and 5.84 s against 4.79 and 5.32 s
/// without (two alternated runs each, bench/README.md).
pub const TABLES: [&str; 6] =
    ["orders", "account_log", "order_counters", "order_rollups", "report_rollups", "report_cubes"];
/// Rows written (inserted, updated or deleted) before a table without statistics is analysed:
/// enough for the statistics to tell the indexes apart, few enough that a plan made without
/// them costs little until then (the look-up above walks at most this many orders).
const ROWS: i64 = 1_000;
/// How often the tables are looked at. PostgreSQL's counts of rows written reach the view
/// within a second or so of each commit.
const INTERVAL: Duration = Duration::from_secs(1);

/// The tables among [`TABLES`] that have no statistics yet, each with its rows written since.
/// "No statistics" is what the planner sees: no column statistics in `pg_stats`. The
/// activity view's `last_analyze` would not do: it is empty in a database copied from
/// another (`CREATE DATABASE … TEMPLATE`, which copies the statistics) and after the view's
/// counters are reset (`pg_stat_reset()`, and crash recovery resets them all), and a table
/// with statistics would then be analysed again for nothing (0.5 s of a busy core at
/// 1,000,000 orders, in the middle of whatever was running; bench/README.md).
static WITHOUT_STATISTICS: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<String> = TABLES.iter().map(|table| format!("'{table}'")).collect();
    format!(
        "SELECT t.relname::text, t.n_mod_since_analyze FROM pg_stat_user_tables t
         WHERE t.schemaname = current_schema() AND t.relname IN ({})
           AND NOT EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = t.schemaname AND s.tablename = t.relname)",
        names.join(", ")
    )
});

/// The tables among [`TABLES`] without statistics, each with its rows written since (what
/// the task looks at every [`INTERVAL`]).
pub async fn without_statistics(db: &Database) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(WITHOUT_STATISTICS.as_str())).fetch_all(&db.pool).await
}

/// Starts the task on PostgreSQL (None on SQLite, which plans without statistics and needs
/// none of this); it ends at `stop`.
pub fn spawn(db: Database, mut stop: watch::Receiver<bool>) -> Option<tokio::task::JoinHandle<()>> {
    (db.kind == super::DatabaseKind::Postgres).then(|| {
        tokio::spawn(async move {
            let mut tried = HashSet::new();
            let mut interval = tokio::time::interval(INTERVAL);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = interval.tick() => {}
                    _ = stop.wait_for(|stop| *stop) => break,
                }
                match look(&db, &mut tried).await {
                    Ok(Looked::Done) => break,
                    Ok(Looked::Waiting) => {}
                    Err(error) => tracing::warn!(error = %error, "first statistics: tables not looked at"),
                }
            }
        })
    })
}

enum Looked {
    /// Every table has statistics or has been analysed here.
    Done,
    Waiting,
}

async fn look(db: &Database, tried: &mut HashSet<&'static str>) -> Result<Looked, sqlx::Error> {
    let rows = without_statistics(db).await?;
    let mut waiting = false;
    for (name, written) in rows {
        // The name as one of ours: only those go into the statement.
        let Some(table) = TABLES.into_iter().find(|table| *table == name) else { continue };
        if tried.contains(table) {
            continue;
        }
        if written < ROWS {
            waiting = true;
            continue;
        }
        tried.insert(table);
        sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {table}"))).execute(&db.pool).await?;
        tracing::info!(table, rows_written = written, "first statistics of a fresh database gathered");
    }
    Ok(if waiting { Looked::Waiting } else { Looked::Done })
}
