//! `backoffice rotate-key`: every sealed value re-sealed under a new key in one
//! transaction, then the key file swapped so that no crash leaves the database without
//! a key that opens it.
//!
//! Order of the steps, and what a crash between them leaves:
//! 1. the new key is written beside the key file (`secret.key.new`, 0600, synced);
//! 2. the current key is copied to `secret.key.old` (synced);
//! 3. one transaction re-seals every column of `key_check::SEALED_COLUMNS` and clears
//!    the keyed hashes (below); a crash before its commit changes nothing;
//! 4. `secret.key.new` is renamed over `secret.key` (atomic) and the folder synced; a
//!    crash between 3 and 4 leaves the database needing `secret.key.new`, and the
//!    start-up check says so;
//! 5. `secret.key.old` is removed.
//!
//! Keyed hashes (backup codes, security answers) cannot be moved to a new key: only the
//! hash is stored, never the value. A rotation is done because the old key may be
//! known, and a hash under a known key of an eight-digit code is no protection, so they
//! are cleared: users generate new backup codes and set their answer again.
//!
//! Stop the servers first: a running server keeps the old key in memory.

use crate::platform::crypto::{KEY_BYTES, Secrets, new_master_key, read_master_key, write_key_file};
use crate::platform::db::Database;
use crate::platform::key_check::{NEW_SUFFIX, OLD_SUFFIX, SEALED_COLUMNS, SealedColumn, sealed_sample, sibling};
use anyhow::{Context, bail};
use sqlx::Row;
use std::path::Path;

/// Rows re-sealed per query: bounded memory however many orders hold card secrets.
const PAGE: i64 = 500;

/// Values stored as hashes keyed with the server key, and how rotation clears them.
const KEYED_HASH_RESETS: &[(&str, &str)] = &[
    ("backup codes", "DELETE FROM two_factor_backup_codes"),
    (
        "security answers",
        "UPDATE users SET security_question = '', security_answer_hash = '' WHERE security_answer_hash <> ''",
    ),
];

#[derive(Debug, Default)]
pub struct Rotation {
    /// Values re-sealed, over every sealed column.
    pub resealed: u64,
    /// (what, rows) cleared because they were keyed hashes.
    pub cleared: Vec<(&'static str, u64)>,
}

/// Re-seals everything under a new key (the one in `new_key_file`, or a fresh one) and
/// makes `key_path` hold it.
pub async fn rotate(db: &Database, key_path: &Path, new_key_file: Option<&Path>) -> anyhow::Result<Rotation> {
    if !key_path.exists() {
        bail!("the secret key file {} is missing: rotation needs the current key", key_path.display());
    }
    let old_master = read_master_key(key_path)?;
    let old = Secrets::from_master_key(&old_master);
    if let Some((sealed, context)) = sealed_sample(db).await?
        && old.decrypt(&sealed, &context).is_err()
    {
        bail!("the secret key file {} does not open the secrets sealed in this database", key_path.display());
    }
    let new_master: [u8; KEY_BYTES] = match new_key_file {
        Some(path) => read_master_key(path)?,
        None => new_master_key(),
    };
    if new_master == old_master {
        bail!("the new key is the current key");
    }
    let new = Secrets::from_master_key(&new_master);
    let new_path = sibling(key_path, NEW_SUFFIX);
    let old_path = sibling(key_path, OLD_SUFFIX);
    for leftover in [&new_path, &old_path] {
        if leftover.exists() {
            bail!(
                "{} is left from an earlier rotation: check which key opens the database (start the server), \
                 keep that one as {} and remove the other",
                leftover.display(),
                key_path.display()
            );
        }
    }
    write_key_file(&new_path, &new_master)?;
    let result = match write_key_file(&old_path, &old_master) {
        Ok(()) => reseal_everything(db, &old, &new).await,
        Err(error) => Err(error),
    };
    let rotation = match result {
        Ok(rotation) => rotation,
        Err(error) => {
            // Nothing was committed: the current key stays the key.
            let _ = std::fs::remove_file(&new_path);
            let _ = std::fs::remove_file(&old_path);
            return Err(error);
        }
    };
    std::fs::rename(&new_path, key_path)
        .with_context(|| format!("the database is re-sealed: move {} to {}", new_path.display(), key_path.display()))?;
    sync_folder(key_path);
    std::fs::remove_file(&old_path).with_context(|| format!("cannot remove {}", old_path.display()))?;
    Ok(rotation)
}

async fn reseal_everything(db: &Database, old: &Secrets, new: &Secrets) -> anyhow::Result<Rotation> {
    let mut transaction = db.begin_write().await?;
    let mut rotation = Rotation::default();
    for sealed in SEALED_COLUMNS {
        rotation.resealed += reseal_column(&mut transaction, sealed, old, new).await?;
    }
    for (what, sql) in KEYED_HASH_RESETS {
        let cleared = sqlx::query(sqlx::AssertSqlSafe(*sql)).execute(&mut *transaction).await?.rows_affected();
        rotation.cleared.push((what, cleared));
    }
    transaction.commit().await.context("cannot commit the re-sealed values")?;
    Ok(rotation)
}

async fn reseal_column(
    connection: &mut sqlx::AnyConnection,
    sealed: &SealedColumn,
    old: &Secrets,
    new: &Secrets,
) -> anyhow::Result<u64> {
    // Names from the constant list, never from input.
    let SealedColumn { table, key, column, context } = *sealed;
    let select = format!(
        "SELECT {key}, {column}, {context} FROM {table}
         WHERE {key} > $1 AND {column} IS NOT NULL AND {column} <> '' ORDER BY {key} LIMIT {PAGE}"
    );
    let update = format!("UPDATE {table} SET {column} = $1 WHERE {key} = $2");
    let mut after = i64::MIN;
    let mut count = 0;
    loop {
        let rows = sqlx::query(sqlx::AssertSqlSafe(select.as_str())).bind(after).fetch_all(&mut *connection).await?;
        let Some(last) = rows.last() else { return Ok(count) };
        after = last.try_get(0)?;
        for row in &rows {
            let id: i64 = row.try_get(0)?;
            let value: String = row.try_get(1)?;
            let context: String = row.try_get(2)?;
            // One value the current key cannot open stops the rotation: re-sealing the
            // rest would leave it unreadable under either key.
            let plain = old
                .decrypt(&value, &context)
                .with_context(|| format!("cannot open {table}.{column} of row {key} = {id}; nothing was changed"))?;
            sqlx::query(sqlx::AssertSqlSafe(update.as_str()))
                .bind(new.encrypt(&plain, &context)?)
                .bind(id)
                .execute(&mut *connection)
                .await?;
            count += 1;
        }
    }
}

/// The rename is durable only once the folder's entry is on disk.
fn sync_folder(path: &Path) {
    #[cfg(unix)]
    if let Some(parent) = path.parent() {
        let folder = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
        if let Ok(handle) = std::fs::File::open(folder) {
            let _ = handle.sync_all();
        }
    }
}
