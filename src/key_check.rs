//! The key file against the database, at start: never run with a key that cannot open
//! what the database holds sealed.
//!
//! A lost key file used to be replaced silently by a new key, and from then on every
//! two-factor secret, card secret and certification number answered 50000. Now:
//! - key file missing, database holds sealed values → refuse to start (a new key would
//!   open nothing; the old file must be restored);
//! - key file present but it does not open a sealed value → refuse to start;
//! - otherwise → the key (created only for a database with nothing sealed).

use crate::crypto::Secrets;
use crate::db::Database;
use anyhow::bail;
use std::path::Path;

/// One sealed value of the database with its context, if there is any. The tables are
/// those holding values sealed by `Secrets::encrypt`; one value is enough to tell.
pub async fn sealed_sample(db: &Database) -> anyhow::Result<Option<(String, String)>> {
    let probes = [
        "SELECT secret_sealed, 'totp:' || CAST(user_id AS TEXT) FROM two_factor LIMIT 1",
        "SELECT secret_sealed, 'totp-setup:' || CAST(user_id AS TEXT) FROM two_factor_setups LIMIT 1",
        "SELECT card_no_enc, 'card_no:' || system_order_id FROM orders WHERE card_no_enc IS NOT NULL LIMIT 1",
        "SELECT secret_enc, 'webhook_secret:' || CAST(merchant_id AS TEXT) FROM webhook_secrets LIMIT 1",
    ];
    for sql in probes {
        let row: Option<(String, String)> = sqlx::query_as(sql).fetch_optional(&db.pool).await?;
        if row.is_some() {
            return Ok(row);
        }
    }
    Ok(None)
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
             would make every sealed secret unreadable.",
            path.display()
        );
    }
    let secrets = Secrets::load_or_create(path)?;
    if let Some((sealed, context)) = sample
        && secrets.decrypt(&sealed, &context).is_err()
    {
        bail!(
            "the secret key file {} does not open the secrets sealed in this database: it is not the key \
             they were sealed with. Point --secret-key-file (BACKOFFICE_SECRET_KEY_FILE) at the right key \
             file. Refusing to start.",
            path.display()
        );
    }
    Ok(secrets)
}
