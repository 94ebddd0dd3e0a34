//! `backoffice backup --to FILE`: a consistent copy of a SQLite database, taken while the
//! server runs. `VACUUM INTO` reads inside one transaction, so the copy is the database
//! as of one instant, whatever is written meanwhile. PostgreSQL has its own tool
//! (`pg_dump`); the command says how to use it and exits with an error.
//!
//! The key file (secrets sealed at rest) is not in the database: it must be kept, apart
//! from the backups, or the copy's sealed secrets cannot be opened (docs/operations.md).

use crate::platform::db::DatabaseKind;
use anyhow::Context;
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use std::path::Path;
use std::str::FromStr;

/// What was copied: the file's size and how many orders it holds (a quick look that the
/// copy opens and is whole).
#[derive(Debug)]
pub struct BackupReport {
    pub bytes: u64,
    pub orders: i64,
}

pub const PG_DUMP_ADVICE: &str = "PostgreSQL databases are backed up with PostgreSQL's own tools, not by backoffice:\n  \
    pg_dump --format=custom --file=backoffice.dump \"$DATABASE_URL\"\n\
    and restored into an empty database with\n  \
    pg_restore --no-owner --dbname=\"$NEW_DATABASE_URL\" backoffice.dump\n\
    Keep the key file (--secret-key-file) apart from the dumps; see docs/operations.md.";

pub async fn backup(database_url: &str, to: &Path) -> anyhow::Result<BackupReport> {
    match DatabaseKind::from_url(database_url)? {
        DatabaseKind::Postgres => anyhow::bail!("{PG_DUMP_ADVICE}"),
        DatabaseKind::Sqlite => {}
    }
    if to.exists() {
        anyhow::bail!("{} exists already: a backup never overwrites a file", to.display());
    }
    let target = to.to_str().context("the backup path is not valid UTF-8")?;
    // Read-only, and never created: a mistyped path must not leave an empty database behind.
    let options = SqliteConnectOptions::from_str(database_url)
        .context("not a SQLite URL")?
        .read_only(true)
        .create_if_missing(false)
        .busy_timeout(std::time::Duration::from_secs(30));
    let mut source = SqliteConnection::connect_with(&options).await.context("cannot open the database")?;
    sqlx::query("VACUUM INTO $1").bind(target).execute(&mut source).await.context("the copy failed")?;
    source.close().await.ok();
    let copy_options = SqliteConnectOptions::new().filename(to).read_only(true);
    let mut copy = SqliteConnection::connect_with(&copy_options).await.context("the copy does not open")?;
    let check: String = sqlx::query_scalar("PRAGMA quick_check").fetch_one(&mut copy).await?;
    if check != "ok" {
        anyhow::bail!("the copy is damaged: {check}");
    }
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders").fetch_one(&mut copy).await?;
    copy.close().await.ok();
    let bytes = std::fs::metadata(to)?.len();
    Ok(BackupReport { bytes, orders })
}
