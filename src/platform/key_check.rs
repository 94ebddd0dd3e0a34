//! The key file against the database, at start: never run with a key that cannot open
//! what the database holds sealed.
//!
//! A lost key file used to be replaced silently by a new key, and from then on every
//! two-factor secret, card secret and certification number answered 50000. Now:
//! - key file missing, database holds sealed values → refuse to start (a new key would
//!   open nothing; the old file must be restored);
//! - key file present but it does not open a sealed value → refuse to start;
//! - otherwise → the key (created only for a database with nothing sealed).

use crate::platform::crypto::Secrets;
use crate::platform::db::Database;
use anyhow::bail;
use std::path::Path;

/// A column holding values sealed by `Secrets::encrypt`. Every sealed column is listed
/// in [`SEALED_COLUMNS`]: the start-up check samples them, `rotate-key` re-seals them.
#[derive(Debug, Clone, Copy)]
pub struct SealedColumn {
    pub table: &'static str,
    /// An integer key of the row (primary or unique): rotation pages and updates by it.
    pub key: &'static str,
    pub column: &'static str,
    /// SQL giving the context the value was sealed with (the `context` argument of
    /// `Secrets::encrypt`), from the row's own columns.
    pub context: &'static str,
}

/// Every sealed column of the database. A new sealed column adds one line here, so the
/// start-up check samples it and `backoffice rotate-key` re-seals it (docs/security.md).
pub const SEALED_COLUMNS: &[SealedColumn] = &[
    SealedColumn { table: "channels", key: "id", column: "secret_sealed", context: "'channel_secret:' || code" },
    SealedColumn {
        table: "two_factor",
        key: "user_id",
        column: "secret_sealed",
        context: "'totp:' || CAST(user_id AS TEXT)",
    },
    SealedColumn {
        table: "two_factor_setups",
        key: "user_id",
        column: "secret_sealed",
        context: "'totp-setup:' || CAST(user_id AS TEXT)",
    },
    SealedColumn { table: "orders", key: "id", column: "card_no_enc", context: "'card_no:' || system_order_id" },
    SealedColumn {
        table: "orders",
        key: "id",
        column: "card_secret_enc",
        context: "'card_secret:' || system_order_id",
    },
    SealedColumn {
        table: "certifications",
        key: "id",
        column: "legal_person_certificate_number",
        context: "'certification:' || CAST(id AS TEXT) || ':legal_person_certificate_number'",
    },
    SealedColumn {
        table: "certifications",
        key: "id",
        column: "enterprise_certificate_number",
        context: "'certification:' || CAST(id AS TEXT) || ':enterprise_certificate_number'",
    },
    SealedColumn { table: "api_keys", key: "id", column: "secret_enc", context: "'api_key:' || key_id" },
    SealedColumn {
        table: "webhook_secrets",
        key: "merchant_id",
        column: "secret_enc",
        context: "'webhook_secret:' || CAST(merchant_id AS TEXT)",
    },
    SealedColumn {
        table: "webhook_secrets",
        key: "merchant_id",
        column: "previous_enc",
        context: "'webhook_secret:' || CAST(merchant_id AS TEXT)",
    },
];

/// One sealed value of the database with its context, if there is any; one value is
/// enough to tell whether a key opens them.
pub async fn sealed_sample(db: &Database) -> anyhow::Result<Option<(String, String)>> {
    for sealed in SEALED_COLUMNS {
        // Names from the constant list above, never from input.
        let sql = format!(
            "SELECT {column}, {context} FROM {table} WHERE {column} IS NOT NULL AND {column} <> '' LIMIT 1",
            column = sealed.column,
            context = sealed.context,
            table = sealed.table
        );
        let row: Option<(String, String)> = sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_optional(&db.pool).await?;
        if row.is_some() {
            return Ok(row);
        }
    }
    Ok(None)
}

/// `rotate-key` writes the new key beside the key file under this suffix first...
pub const NEW_SUFFIX: &str = "new";
/// ...and keeps the old key under this one until the database commits.
pub const OLD_SUFFIX: &str = "old";

/// `secret.key` → `secret.key.new`.
pub fn sibling(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    path.with_file_name(name)
}

/// After an interrupted `rotate-key`, the key that opens the database may sit beside the
/// configured file (`.new` or `.old`): say so rather than leave the operator guessing.
fn interrupted_rotation_hint(path: &Path, sealed: &str, context: &str) -> String {
    for suffix in [NEW_SUFFIX, OLD_SUFFIX] {
        let candidate = sibling(path, suffix);
        let opens = crate::platform::crypto::read_master_key(&candidate)
            .is_ok_and(|master| Secrets::from_master_key(&master).decrypt(sealed, context).is_ok());
        if opens {
            return format!(
                " The key file {} does open them (an interrupted rotate-key): move it to {}.",
                candidate.display(),
                path.display()
            );
        }
    }
    String::new()
}

/// The key for this database: loaded, checked against a sealed value, or created when
/// the database holds nothing sealed yet.
pub async fn open_key(db: &Database, path: &Path) -> anyhow::Result<Secrets> {
    let sample = sealed_sample(db).await?;
    if !path.exists() && sample.is_some() {
        bail!(
            "the secret key file {} is missing, but the database holds secrets sealed with a key \
             (two-factor, card secrets, certification numbers). Restore the key file from your backup or \
             point --secret-key-file (BACKOFFICE_SECRET_KEY_FILE) at it. Refusing to start: a new key \
             would make every sealed secret unreadable.{}",
            path.display(),
            sample
                .as_ref()
                .map(|(sealed, context)| interrupted_rotation_hint(path, sealed, context))
                .unwrap_or_default()
        );
    }
    let secrets = Secrets::load_or_create(path)?;
    if let Some((sealed, context)) = sample
        && secrets.decrypt(&sealed, &context).is_err()
    {
        bail!(
            "the secret key file {} does not open the secrets sealed in this database: it is not the key \
             they were sealed with. Point --secret-key-file (BACKOFFICE_SECRET_KEY_FILE) at the right key \
             file. Refusing to start.{}",
            path.display(),
            interrupted_rotation_hint(path, &sealed, &context)
        );
    }
    Ok(secrets)
}
