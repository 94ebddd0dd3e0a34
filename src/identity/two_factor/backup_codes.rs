//! Backup codes: ten codes of eight digits, each good for one sign-in or confirmation
//! when the authenticator is out of reach.
//!
//! Only salted keyed hashes are stored. A code is found by checking the user's few
//! rows one by one (each has its own salt, so there is nothing to look up by), and
//! spent with a conditional UPDATE, so two parallel uses of one code cannot both win.

use crate::platform::crypto::Secrets;
use sqlx::{AnyConnection, AnyPool, Row};

pub const COUNT: usize = 10;
pub const LENGTH: usize = 8;
const SALT_BYTES: usize = 16;
const MODULUS: u64 = 100_000_000; // 10^LENGTH

/// Derives a set of distinct codes from `seed`, keyed with the server's hashing key.
///
/// Setup shows the codes before the user has proved the authenticator works, and
/// enable must hand out the same ones, yet the database may hold only their hashes.
/// Deriving them from the setup's `temp_key` (which the server stores only as a hash)
/// lets enable recompute them from what the client presents. Regeneration uses a
/// fresh random seed.
pub fn derive(secrets: &Secrets, seed: &[u8]) -> Vec<String> {
    let mut codes: Vec<String> = Vec::with_capacity(COUNT);
    let mut counter = 0u32;
    while codes.len() < COUNT {
        let mut input = seed.to_vec();
        input.extend_from_slice(&counter.to_be_bytes());
        counter += 1;
        let digest = secrets.keyed_hash(b"backup codes", &input);
        // 64 bits reduced modulo 10^8: the bias is below 10^-10.
        let value = u64::from_str_radix(&digest[..16], 16).unwrap_or_default() % MODULUS;
        let code = format!("{value:0width$}", width = LENGTH);
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// A fresh set from a random seed.
pub fn random(secrets: &Secrets) -> Vec<String> {
    let mut seed = [0u8; 32];
    rand::fill(&mut seed);
    derive(secrets, &seed)
}

/// Replaces the user's whole set (used and unused) with `codes`.
pub async fn replace(
    connection: &mut AnyConnection,
    secrets: &Secrets,
    user_id: i64,
    codes: &[String],
    now: i64,
) -> Result<(), sqlx::Error> {
    delete_all(&mut *connection, user_id).await?;
    for code in codes {
        let mut salt = [0u8; SALT_BYTES];
        rand::fill(&mut salt);
        sqlx::query(
            "INSERT INTO two_factor_backup_codes (user_id, salt, code_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(user_id)
        .bind(hex::encode(salt))
        .bind(secrets.keyed_hash(&salt, code.as_bytes()))
        .bind(now)
        .execute(&mut *connection)
        .await?;
    }
    Ok(())
}

pub async fn delete_all(connection: &mut AnyConnection, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM two_factor_backup_codes WHERE user_id = $1").bind(user_id).execute(connection).await?;
    Ok(())
}

pub async fn count_unused(pool: &AnyPool, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM two_factor_backup_codes WHERE user_id = $1 AND used_at IS NULL")
        .bind(user_id)
        .fetch_one(pool)
        .await
}

/// A stored code that matched what the user typed.
#[derive(Debug, Clone, Copy)]
pub struct MatchedCode {
    pub id: i64,
    pub already_used: bool,
}

/// Finds the user's code equal to `code`, used or not.
pub async fn find(
    pool: &AnyPool,
    secrets: &Secrets,
    user_id: i64,
    code: &str,
) -> Result<Option<MatchedCode>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, salt, code_hash, used_at FROM two_factor_backup_codes WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(pool)
        .await?;
    let mut found = None;
    // Every row is checked, so the time taken does not tell which code matched.
    for row in rows {
        let salt: String = row.try_get("salt")?;
        let code_hash: String = row.try_get("code_hash")?;
        let Ok(salt) = hex::decode(salt) else { continue };
        if secrets.verify_keyed_hash(&salt, code.as_bytes(), &code_hash) {
            let used_at: Option<i64> = row.try_get("used_at")?;
            found = Some(MatchedCode { id: row.try_get("id")?, already_used: used_at.is_some() });
        }
    }
    Ok(found)
}

/// Marks the code used. False when it was used meanwhile (a parallel request won).
pub async fn spend(connection: &mut AnyConnection, user_id: i64, id: i64, now: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE two_factor_backup_codes SET used_at = $1 WHERE id = $2 AND user_id = $3 AND used_at IS NULL",
    )
    .bind(now)
    .bind(id)
    .bind(user_id)
    .execute(connection)
    .await?;
    Ok(result.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets::from_master_key(&[3u8; 32])
    }

    #[test]
    fn a_set_is_ten_distinct_eight_digit_codes() {
        let codes = random(&secrets());
        assert_eq!(codes.len(), COUNT);
        for code in &codes {
            assert_eq!(code.len(), LENGTH);
            assert!(code.bytes().all(|byte| byte.is_ascii_digit()));
        }
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), COUNT);
        assert_ne!(codes, random(&secrets()));
    }

    #[test]
    fn the_same_seed_and_key_give_the_same_set() {
        let secrets = secrets();
        assert_eq!(derive(&secrets, b"seed"), derive(&secrets, b"seed"));
        assert_ne!(derive(&secrets, b"seed"), derive(&secrets, b"other seed"));
        // Without the server key the seed alone does not give the codes.
        assert_ne!(derive(&secrets, b"seed"), derive(&Secrets::from_master_key(&[4u8; 32]), b"seed"));
    }
}
